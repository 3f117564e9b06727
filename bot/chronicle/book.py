"""The chronicle's book: rules_data/chronicle.toml (families, heirloom types,
chapter endings), parsed from its text. The caller reads the file (this
package does no I/O): `parse(path.read_text())`."""
import tomllib

FILE = "rules_data/chronicle.toml"  # relative to the project root
SIDES = ("heroes", "traitor")  # the two passages each haunt has


def parse(text: str) -> dict:
    """The book as plain data: {families: {id: {...}}, item_types: {item: type},
    effects: {type: text}, endings: {haunt number: {heroes, traitor}}}.
    Raises ValueError when something is missing."""
    raw = tomllib.loads(text)
    families = {}
    for f in raw.get("family", []):
        for key in ("id", "colour", "crest"):
            if not f.get(key):
                raise ValueError(f"a family in {FILE} has no {key}")
        families[f["id"]] = {"id": f["id"], "colour": f["colour"], "crest": f["crest"],
                             "traits": dict(f.get("traits", {})), "trait_note": f.get("trait_note", "")}
    item_types, effects = {}, {}
    for kind, entry in raw.get("heirloom", {}).items():
        effects[kind] = entry["effect"]
        for item in entry.get("items", []):
            if item in item_types:
                raise ValueError(f"{item} has two heirloom types in {FILE}")
            item_types[item] = kind
    endings = {}
    for number, entry in raw.get("ending", {}).items():
        missing = [side for side in SIDES if not entry.get(side)]
        if missing:
            raise ValueError(f"haunt {number} has no {missing[0]} ending in {FILE}")
        endings[int(number)] = {side: entry[side].strip() for side in SIDES}
    return {"families": families, "item_types": item_types, "effects": effects, "endings": endings}
