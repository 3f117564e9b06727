"""`python -m bot content --game ravenloft`: the counts of Castle Ravenloft's content, then every
provisional entry (a stand-in we designed) with its one-line reason.

`provisional_entries(content)` lists them as (file, id, note). An id is the data entry's id (one
line for all copies of a card); a part with its own provenance is named `<id>.level_1`,
`<id>.level_2` (hero sides), `<id>.tactics` (monsters, villains) or `<id>.stack` (adventures).
"""
import sys
from collections import Counter

from bot.games.ravenloft.engine.content import ContentError, load_content


def provenance_rows(content) -> list[tuple[str, str, str, str]]:
    """(file, id, provenance, note) for every data entry and every part with its own provenance."""
    rows = []
    for t in content.tiles.values():
        rows.append(("tiles.toml", t.id, t.provenance, t.provenance_note))
    for h in content.heroes.values():
        rows.append(("heroes.toml", h.id, h.provenance, h.provenance_note))
        for lv in (h.level_1, h.level_2):
            rows.append(("heroes.toml", f"{h.id}.level_{lv.level}", lv.provenance, lv.provenance_note))
    for p in content.powers.values():
        rows.append(("powers.toml", p.id, p.provenance, p.provenance_note))
    seen = set()
    for m in content.monsters.values():
        if m.entry in seen:
            continue
        seen.add(m.entry)
        rows.append(("monsters.toml", m.entry, m.provenance, m.provenance_note))
        rows.append(("monsters.toml", f"{m.entry}.tactics", m.tactics_provenance, m.tactics_note))
    for v in content.villains.values():
        rows.append(("villains.toml", v.id, v.provenance, v.provenance_note))
        rows.append(("villains.toml", f"{v.id}.tactics", v.tactics_provenance, v.tactics_note))
    for fname, cards in (("encounters.toml", content.encounters), ("treasures.toml", content.treasures)):
        seen = set()
        for c in cards.values():
            if c.entry not in seen:
                seen.add(c.entry)
                rows.append((fname, c.entry, c.provenance, c.provenance_note))
    for a in content.adventures.values():
        rows.append(("adventures.toml", a.id, a.provenance, a.provenance_note))
        rows.append(("adventures.toml", f"{a.id}.stack", a.stack_provenance, a.stack_note))
    return rows


def provisional_entries(content) -> list[tuple[str, str, str]]:
    """(file, id, provenance_note) of every provisional entry or part, in file order."""
    return [(f, i, note) for f, i, prov, note in provenance_rows(content) if prov == "provisional"]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def report(content) -> str:
    powers = Counter(p.kind for p in content.powers.values())
    encounters = Counter(e.type for e in content.encounters.values())
    treasures = Counter(t.type for t in content.treasures.values())
    tiles = [t for t in content.tiles.values() if t.group != "start"]
    start = [t for t in content.tiles.values() if t.group == "start"]
    book = sum(not a.ours for a in content.adventures.values())
    kinds = len({m.entry for m in content.monsters.values()})
    provs = Counter(prov for _, _, prov, _ in provenance_rows(content))
    lines = [
        f"heroes: {len(content.heroes)}",
        f"powers: {len(content.powers)} ({powers['at_will']} at-will, {powers['utility']} utility, "
        f"{powers['daily']} daily)",
        f"monster cards: {len(content.monsters)} ({_plural(kinds, 'monster')})",
        f"villains: {len(content.villains)}",
        f"encounters: {len(content.encounters)} ({encounters['environment']} environments, "
        f"{encounters['event']} events, {encounters['event_attack']} event-attacks, {encounters['trap']} traps)",
        f"treasures: {len(content.treasures) - treasures['adventure']} ({treasures['blessing']} blessings, "
        f"{treasures['fortune']} fortunes, {treasures['item']} items) + "
        f"{treasures['adventure']} adventure treasures",
        f"tiles: {len(tiles)} + the Start tile ({_plural(len(start), 'half')})".replace("halfs", "halves"),
        f"adventures: {len(content.adventures)} ({book} from the Adventure Book, "
        f"{len(content.adventures) - book} of ours)",
        f"provenance of entries and parts: {provs['printed']} printed, {provs['single-source']} single-source, "
        f"{provs['provisional']} provisional",
    ]
    entries = provisional_entries(content)
    lines.append(f"\nprovisional ({len(entries)}): stand-ins we designed, each with its reason")
    lines += [f"  {f} {i}: {note}" for f, i, note in entries]
    return "\n".join(lines)


def main(argv=None) -> int:
    """Print the report; exit 1 with the one-line fault if the content does not load."""
    try:
        content = load_content()
    except ContentError as e:
        print(f"rules_data/ravenloft is invalid: {e}", file=sys.stderr)
        return 1
    print(report(content))
    return 0
