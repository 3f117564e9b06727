"""The game's components as validated, read-only objects.

Built from the raw TOML tables of `rules_data/` (the reading itself happens
outside the engine, in `bot.content`). Every problem names the file, the entry
and the field, so a bad edit is found at once.
"""
from dataclasses import dataclass, field

TRAITS = ("might", "speed", "knowledge", "sanity")
PHYSICAL = ("might", "speed")
MENTAL = ("knowledge", "sanity")
PROVENANCES = ("printed", "single-source", "provisional")
DOORWAY_KINDS = ("building", "street", "catacomb", "passage")
STEP_WORDS = ("roll", "gain", "lose", "damage", "draw", "move_to", "choose", "keep", "place_token", "special",
              "each", "discard", "pick", "discard_this")
EACH_WHERE = ("here", "here_and_connected", "catacomb", "city", "building", "street", "everywhere")
CONDITIONS = ("above_lowest",)
TILE_CARD_TRIGGERS = ("on_enter", "on_end_turn", "action")
HAUNT_KINDS = ("traitor", "hidden_traitor", "no_traitor", "none_yet", "several_traitors")
TURN_ORDERS = ("traitors_first",)  # a haunt's own turn order (Traitor's Tome, haunt 9)


NO_LOWER = -99  # a band without at_least also takes results below 0 (Deck of Many Things)


class ContentError(Exception):
    """A rules_data file is wrong; the message names file, entry and field."""


@dataclass(frozen=True)
class Track:
    values: tuple[int, ...]
    start: int  # 1-based position of the start square


@dataclass(frozen=True)
class Adventurer:
    id: str
    name: str
    card: str
    colour: str
    race: str
    klass: str
    age: int
    tracks: dict  # trait -> Track
    power: dict
    provenance: str
    provenance_note: str = ""


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    stack: str
    symbol: str
    doorways: dict  # printed side -> doorway kind
    sewer_grate: bool = False
    stairs_to: str = ""
    stairs_extra_cost: int = 0
    barrier: dict | None = None
    rule: str = ""
    effects: dict = field(default_factory=dict)
    provenance: str = "printed"
    provenance_note: str = ""
    rotated: dict = field(default_factory=dict, compare=False, repr=False)  # cache: turns -> board doorways

    @property
    def level(self) -> str:
        return "catacomb" if self.kind == "catacomb" else "city"


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str
    text: str
    weapon: bool = False
    companion: bool = False
    can_drop: bool = True
    can_trade: bool = True
    can_steal: bool = True
    ongoing: bool = False
    on_draw: tuple = ()
    on_use: tuple = ()
    attack: dict | None = None
    while_held: dict = field(default_factory=dict)
    on_start_turn: tuple = ()     # run for the holder at the start of each of their turns
    on_end_turn: tuple = ()       # run for the holder at the end of each of their turns
    on_tile: dict = field(default_factory=dict)  # while the card lies on a tile beside its token
    roll_dice: dict = field(default_factory=dict)  # trait -> dice added (or taken) on the holder's rolls
    discard_on_gain: tuple = ()   # traits whose next rise discards the card ("any" for every trait)
    traitor_may_shed: bool = False  # a newly revealed traitor may be rid of it
    provenance: str = "printed"
    provenance_note: str = ""


@dataclass(frozen=True)
class TraitorRule:
    number: int
    kind: str
    rule: str
    pick: tuple


@dataclass(frozen=True)
class Haunt:
    number: int
    id: str
    title: str
    kind: str
    raw: dict  # the whole haunt file, for the haunt layer


@dataclass
class Content:
    tiles: dict
    cards: dict
    adventurers: dict
    chart_omens: tuple
    chart_rows: dict  # tile id -> tuple of haunt numbers, one per omen
    traitor_rules: dict  # haunt number -> TraitorRule
    haunts: dict  # haunt number -> Haunt

    def haunt_for(self, omen_id: str, tile_id: str) -> int:
        return self.chart_rows[tile_id][self.chart_omens.index(omen_id)]

    def deck(self, name: str) -> list[str]:
        return [c.id for c in self.cards.values() if c.deck == name]

    def stack(self, name: str) -> list[str]:
        return [t.id for t in self.tiles.values() if t.stack == name]


class _Entry:
    """Reads fields of one entry, raising ContentError that names it."""

    def __init__(self, file: str, entry: str, data: dict):
        self.file, self.entry, self.data = file, entry, data

    def fail(self, fld: str, problem: str):
        raise ContentError(f"{self.file}: entry '{self.entry}': field '{fld}': {problem}")

    def get(self, fld, kind, default=..., choices=None):
        if fld not in self.data:
            if default is ...:
                self.fail(fld, "missing")
            return default
        value = self.data[fld]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            self.fail(fld, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(fld, f"{value!r} is not one of {', '.join(map(str, choices))}")
        return value

    def provenance(self):
        prov = self.get("provenance", str, choices=PROVENANCES)
        note = self.get("provenance_note", str, "")
        if prov != "printed" and not note.strip():
            self.fail("provenance_note", f"a {prov} entry needs a one-line reason")
        return prov, note


def check_steps(entry: _Entry, fld: str, steps) -> tuple:
    if not isinstance(steps, list):
        entry.fail(fld, "expected a list of steps")
    for i, step in enumerate(steps):
        where = f"{fld}[{i}]"
        if not isinstance(step, dict) or step.get("do") not in STEP_WORDS:
            entry.fail(where, f"step must be a table with do = one of {', '.join(STEP_WORDS)}")
        do = step["do"]
        if do == "roll":
            if ("trait" in step) == ("dice" in step):
                entry.fail(where, "a roll needs either trait or dice")
            if "trait" in step and step["trait"] not in TRAITS:
                entry.fail(where + ".trait", f"unknown trait {step['trait']!r}")
            bands = step.get("bands")
            if not isinstance(bands, list) or not bands:
                entry.fail(where + ".bands", "a roll needs bands")
            _check_bands(entry, where + ".bands", bands)
            for j, band in enumerate(bands):
                check_steps(entry, f"{where}.bands[{j}].then", band.get("then", []))
        elif do in ("gain", "lose"):
            traits = step.get("traits", step.get("trait"))
            if traits != "any" and not (traits in TRAITS or
                                        isinstance(traits, list) and traits and all(t in TRAITS for t in traits)):
                entry.fail(where, f"{do} needs trait or traits naming traits, got {traits!r}")
            if not isinstance(step.get("amount", 1), int):
                entry.fail(where + ".amount", "expected a whole number")
        elif do == "damage":
            if step.get("kind") not in ("physical", "mental"):
                entry.fail(where + ".kind", "damage kind must be physical or mental")
            if ("amount" in step) == ("dice" in step):
                entry.fail(where, "damage needs either amount or dice")
        elif do == "draw":
            if step.get("deck") not in ("event", "item", "omen"):
                entry.fail(where + ".deck", "deck must be event, item or omen")
        elif do == "move_to":
            if not isinstance(step.get("tile"), str):
                entry.fail(where + ".tile", "move_to needs a tile id")
        elif do == "choose":
            options = step.get("options")
            if not isinstance(options, list) or len(options) < 2:
                entry.fail(where + ".options", "choose needs at least two options")
            for j, opt in enumerate(options):
                if not isinstance(opt.get("label"), str):
                    entry.fail(f"{where}.options[{j}].label", "missing")
                check_steps(entry, f"{where}.options[{j}].then", opt.get("then", []))
        elif do == "special":
            if not isinstance(step.get("name"), str):
                entry.fail(where + ".name", "special needs a name")
        elif do == "each":
            if step.get("on") not in EACH_WHERE:
                entry.fail(where + ".on", f"each needs on = one of {', '.join(EACH_WHERE)}")
            check_steps(entry, where + ".then", step.get("then", []))
        elif do == "discard":
            if step.get("what", "item") != "item":
                entry.fail(where + ".what", "only item cards can be discarded this way")
            if step.get("count", 1) not in (1, "all"):
                entry.fail(where + ".count", "count must be 1 or \"all\"")
            check_steps(entry, where + ".then", step.get("then", []))
            check_steps(entry, where + ".otherwise", step.get("otherwise", []))
        elif do == "pick":
            if step.get("deck") not in ("event", "item", "omen"):
                entry.fail(where + ".deck", "deck must be event, item or omen")
            if not isinstance(step.get("look"), int) or step["look"] < 1:
                entry.fail(where + ".look", "look needs a number of cards")
        if do == "choose":
            for j, opt in enumerate(step["options"]):
                for cond, arg in opt.get("only_if", {}).items():
                    if cond not in CONDITIONS or arg not in TRAITS:
                        entry.fail(f"{where}.options[{j}].only_if", f"unknown condition {cond} = {arg!r}")
        if do == "roll":
            for key in ("extra_dice", "bonus"):
                if not isinstance(step.get(key, 0), int):
                    entry.fail(f"{where}.{key}", "expected a whole number")
    return tuple(steps)


def _check_bands(entry: _Entry, where: str, bands: list):
    covered = []
    for j, band in enumerate(bands):
        lo, hi = band.get("at_least", NO_LOWER), band.get("at_most", 99)
        if not isinstance(lo, int) or not isinstance(hi, int) or lo > hi:
            entry.fail(f"{where}[{j}]", "at_least/at_most must be whole numbers with at_least <= at_most")
        covered.append((lo, hi))
    covered.sort()
    expect = 0 if covered and covered[0][0] == 0 else NO_LOWER
    for lo, hi in covered:
        if lo != expect:
            entry.fail(where, f"results {expect}..{lo - 1} are not covered or bands overlap")
        expect = hi + 1
    if expect < 99:
        entry.fail(where, f"results from {expect} up are not covered")


def _tracks(entry: _Entry) -> dict:
    tracks = {}
    for trait in TRAITS:
        raw = entry.get(trait, dict)
        values = raw.get("track")
        start = raw.get("start")
        if not (isinstance(values, list) and len(values) == 8 and all(isinstance(v, int) for v in values)):
            entry.fail(trait + ".track", "needs 8 whole numbers, lowest first")
        if values != sorted(values):
            entry.fail(trait + ".track", "values must not fall along the track")
        if not (isinstance(start, int) and 1 <= start <= 8):
            entry.fail(trait + ".start", "needs a position from 1 to 8")
        tracks[trait] = Track(tuple(values), start)
    return tracks


def build_content(files: dict) -> Content:
    """Validate the raw tables of rules_data (file name -> parsed TOML)."""
    tiles = {}
    for raw in files["tiles.toml"].get("tile", []):
        e = _Entry("tiles.toml", raw.get("id", "?"), raw)
        tid = e.get("id", str)
        if tid in tiles:
            e.fail("id", "used twice")
        doorways = e.get("doorways", dict)
        for side, kind in doorways.items():
            if side not in ("north", "east", "south", "west") or kind not in DOORWAY_KINDS:
                e.fail("doorways", f"{side} = {kind!r} is not a side with a doorway kind")
        barrier = e.get("barrier", dict, None)
        if barrier is not None and (barrier.get("trait") not in TRAITS or not isinstance(barrier.get("target"), int)):
            e.fail("barrier", "needs trait and target")
        effects = e.get("effects", dict, {})
        for trigger, steps in effects.items():
            check_steps(e, f"effects.{trigger}", steps)
        prov, note = e.provenance()
        tiles[tid] = Tile(
            id=tid, name=e.get("name", str), kind=e.get("kind", str, choices=("building", "street", "catacomb")),
            stack=e.get("stack", str, choices=("building", "street", "catacomb", "start")),
            symbol=e.get("symbol", str, choices=("event", "item", "omen", "none")), doorways=dict(doorways),
            sewer_grate=e.get("sewer_grate", bool, False), stairs_to=e.get("stairs_to", str, ""),
            stairs_extra_cost=e.get("stairs_extra_cost", int, 0), barrier=barrier, rule=e.get("rule", str, ""),
            effects=effects, provenance=prov, provenance_note=note)
    for t in tiles.values():
        if t.stairs_to and t.stairs_to not in tiles:
            _Entry("tiles.toml", t.id, {}).fail("stairs_to", f"no tile {t.stairs_to!r}")

    cards = {}
    for deck in ("events", "items", "omens"):
        fname = f"cards/{deck}.toml"
        for raw in files[fname].get("card", []):
            e = _Entry(fname, raw.get("id", "?"), raw)
            cid = e.get("id", str)
            if cid in cards:
                e.fail("id", "used twice")
            prov, note = e.provenance()
            attack = e.get("attack", dict, None)
            if attack is not None and attack.get("trait", "might") not in TRAITS:
                e.fail("attack.trait", "unknown trait")
            held = e.get("while_held", dict, {})
            for trait, amount in held.items():
                if trait not in TRAITS or not isinstance(amount, int):
                    e.fail("while_held", f"{trait} = {amount!r} is not a trait bonus")
            roll_dice = e.get("roll_dice", dict, {})
            for trait, amount in roll_dice.items():
                if trait not in TRAITS or not isinstance(amount, int):
                    e.fail("roll_dice", f"{trait} = {amount!r} is not a number of dice for a trait")
            on_tile = e.get("on_tile", dict, {})
            for key, value in on_tile.items():
                if key in TILE_CARD_TRIGGERS:
                    check_steps(e, f"on_tile.{key}", value)
                elif key == "enter_cost":
                    if not isinstance(value, int) or value < 1:
                        e.fail("on_tile.enter_cost", "expected the spaces it costs to enter")
                elif key == "roll_dice":
                    if not all(t in TRAITS and isinstance(n, int) for t, n in value.items()):
                        e.fail("on_tile.roll_dice", "expected trait = dice")
                else:
                    e.fail("on_tile", f"unknown key {key!r}")
            gain_off = e.get("discard_on_gain", list, [])
            if not all(t in TRAITS or t == "any" for t in gain_off):
                e.fail("discard_on_gain", "expected traits or \"any\"")
            is_event = deck == "events"
            cards[cid] = Card(
                id=cid, name=e.get("name", str), deck=e.get("deck", str, choices=(deck[:-1],)),
                text=e.get("text", str), weapon=e.get("weapon", bool, False),
                companion=e.get("companion", bool, False),
                # An event kept in front of you is not an item: it cannot be dropped, traded or
                # stolen unless it says so (Explosive Runes).
                can_drop=e.get("can_drop", bool, not is_event),
                can_trade=e.get("can_trade", bool, not is_event), can_steal=e.get("can_steal", bool, not is_event),
                ongoing=e.get("ongoing", bool, False),
                on_draw=check_steps(e, "on_draw", e.get("on_draw", list, [])),
                on_use=check_steps(e, "on_use", e.get("on_use", list, [])),
                attack=attack, while_held=held,
                on_start_turn=check_steps(e, "on_start_turn", e.get("on_start_turn", list, [])),
                on_end_turn=check_steps(e, "on_end_turn", e.get("on_end_turn", list, [])),
                on_tile=on_tile, roll_dice=roll_dice, discard_on_gain=tuple(gain_off),
                traitor_may_shed=e.get("traitor_may_shed", bool, False),
                provenance=prov, provenance_note=note)

    adventurers = {}
    for raw in files["adventurers.toml"].get("adventurer", []):
        e = _Entry("adventurers.toml", raw.get("id", "?"), raw)
        aid = e.get("id", str)
        if aid in adventurers:
            e.fail("id", "used twice")
        prov, note = e.provenance()
        power = e.get("power", dict)
        for key in ("name", "text"):
            if not isinstance(power.get(key), str):
                e.fail("power." + key, "missing")
        adventurers[aid] = Adventurer(
            id=aid, name=e.get("name", str), card=e.get("card", str), colour=e.get("colour", str),
            race=e.get("race", str), klass=e.get("class", str), age=e.get("age", int), tracks=_tracks(e),
            power=power, provenance=prov, provenance_note=note)
    cards_per_letter = {}
    for a in adventurers.values():
        cards_per_letter.setdefault(a.card, []).append(a.id)
    for letter, ids in cards_per_letter.items():
        if len(ids) != 2:
            _Entry("adventurers.toml", ids[0], {}).fail("card", f"card {letter} has {len(ids)} sides, expected 2")

    chart = files["haunt_chart.toml"]
    ce = _Entry("haunt_chart.toml", "chart", chart)
    omens = tuple(ce.get("omens", list))
    rows = {}
    for tid, row in ce.get("rows", dict).items():
        if tid not in tiles:
            ce.fail("rows", f"unknown tile {tid!r}")
        if len(row) != len(omens) or not all(isinstance(n, int) and 1 <= n <= 50 for n in row):
            ce.fail(f"rows.{tid}", f"needs {len(omens)} haunt numbers from 1 to 50")
        rows[tid] = tuple(row)
    for oid in omens:
        if oid not in cards or cards[oid].deck != "omen":
            ce.fail("omens", f"unknown omen {oid!r}")

    traitor_rules = {}
    for raw in files["traitor_table.toml"].get("haunt", []):
        e = _Entry("traitor_table.toml", str(raw.get("number", "?")), raw)
        n = e.get("number", int)
        traitor_rules[n] = TraitorRule(n, e.get("kind", str, choices=HAUNT_KINDS), e.get("rule", str),
                                       tuple(e.get("pick", list)))

    haunts = {}
    for fname, raw in files.items():
        if not fname.startswith("haunts/"):
            continue
        e = _Entry(fname, str(raw.get("number", "?")), raw)
        n = e.get("number", int)
        haunts[n] = Haunt(n, e.get("id", str), e.get("title", str), e.get("kind", str, choices=HAUNT_KINDS), raw)
        if "turn_order" in raw:
            e.get("turn_order", str, choices=TURN_ORDERS)

    return Content(tiles=tiles, cards=cards, adventurers=adventurers, chart_omens=omens, chart_rows=rows,
                   traitor_rules=traitor_rules, haunts=haunts)
