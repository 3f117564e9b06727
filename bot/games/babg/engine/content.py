"""The game's components as validated, read-only objects.

Built from the raw TOML tables of `rules_data/` (the reading itself happens
outside the engine, in `bot.games.babg.content`). Every problem names the file, the entry
and the field, so a bad edit is found at once.
"""
import ast
import re
from dataclasses import dataclass, field

from bot.kit import errors

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
TURN_ORDERS = ("traitors_first", "revealer_first", "monsters_first")  # a haunt's own turn order (Traitor's Tome, haunt 9)

# --- the forms a haunt file may use (rules_data/haunts/README.md); each one is what the haunt
# layer (bot/games/babg/engine/haunt_play.py) carries out, or a form the players carry out by hand.
HAUNT_SIDES = ("traitor", "heroes")
COUNT_WORDS = ("heroes", "adventurers", "players", "traitors")  # haunt_play.count_value
STAR_STAT = "*"  # a stat printed as * (haunt 48's Demon): set in play as the monster's notes say
SETUP_DOS = ("place_monster", "place_token", "place_npc", "set_counter", "draw", "move", "fetch_tile", "hidden_tokens",
             "traits", "manual")
SETUP_AT = ("traitor", "revealer", "each_hero", "adventurer_tiles", "every_omen_tile", "every_item_tile", "chosen")  # or "tile:<id>"
TOKEN_KINDS = ("quest", "item", "obstacle", "npc", "monster")  # or the name of a square token
WIN_WHENS = ("all_heroes_dead", "traitor_dead", "monster_dead", "counter_at", "token_count", "manual")
WIN_OPS = (">=", "<=", "==")
ROLL_TARGETS = ("opposed", "exact", "track")  # or a whole number N for "N+"
ROLL_TRAIT_WORDS = ("any", "fixed dice", "haunt roll")  # besides the traits; [] is a plain die roll
HAUNT_FIELDS = ("number", "id", "title", "kind", "traitor_rule", "provenance", "provenance_note", "turn_order",
                "notes", "traitor", "heroes", "monster", "counter", "setup", "win", "roll_check")
SIDE_FIELDS = ("intro", "stub", "part_two_when", "section")
SECTION_FIELDS = ("heading", "text", "part")
MONSTER_FIELDS = ("name", "side", "might", "speed", "knowledge", "sanity", "count", "attacks", "ally", "moves",
                  "notes")
COUNTER_FIELDS = ("name", "start", "track", "meaning")
CHOSEN_FIELDS = ("among", "apart", "apart_if_possible", "evenly", "farthest_from")  # where a side may put a piece it places (at = "chosen")
CHOSEN_AMONG = ("catacomb", "city", "building", "street", "omen", "event", "item", "none")  # or tile:<id>
CHOSEN_APART = ("heroes", "adventurers", "traitors", "same")
SETUP_FIELDS = {  # besides side, do, text, part and card (the id of a card the step concerns)
    "place_monster": ("monster", "count", "at") + CHOSEN_FIELDS,
    "place_token": ("token", "label", "at", "count") + CHOSEN_FIELDS,
    "place_npc": ("label", "at", "count") + CHOSEN_FIELDS,
    "set_counter": ("counter", "value"),
    "draw": ("deck", "count"),
    "move": ("at",),
    "fetch_tile": ("tile",),
    "traits": ("restore", "gain"),  # the side's adventurers: traits back up to their start, then gains
    "hidden_tokens": ("each",),  # each: tokens dealt to every player (numbered 1 to each x players)
    "manual": (),
}
SETUP_NEEDS = {"place_monster": ("monster", "count", "at"), "place_token": ("token", "label", "at"),
               "place_npc": ("label", "at"), "set_counter": ("counter", "value"), "draw": ("deck", "count"),
               "fetch_tile": ("tile",)}
WIN_FIELDS = {  # besides side, when, text and part
    "all_heroes_dead": (), "traitor_dead": (), "manual": (),
    "monster_dead": ("monster",),
    "counter_at": ("counter", "value"),
    "token_count": ("token", "label", "op", "value"),
}
WIN_OPTIONAL = {"counter_at": ("op",), "token_count": ("on",)}  # op: >=, <= or ==; on: the tiles that count
ROLL_CHECK_FIELDS = ("side", "heading", "traits", "target", "text")

# --- traitor_table.toml's pick steps (haunt.choose_traitors) and what each names
PICK_NEEDS = {"adventurer": ("adventurer",), "adventurer_not_revealer": ("adventurer",), "lowest": ("trait",),
              "highest": ("trait",), "holder": ("card",), "revealer": (), "left_of_revealer": (),
              "oldest_but_revealer": (), "everyone": (), "everyone_but_revealer": ()}
TOPIC_FIELDS = ("id", "title", "section", "text")  # /rules finds a topic by id or title and shows the rest


NO_LOWER = -99  # a band without at_least also takes results below 0 (Deck of Many Things)


class ContentError(errors.ContentError):
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
    topics: tuple = ()  # rules_topics.toml: the short rule summaries of /rules, as tables

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
                if not isinstance(opt, dict) or not isinstance(opt.get("label"), str):
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
        if not isinstance(band, dict):
            entry.fail(f"{where}[{j}]", "expected a table")
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
        # added to the 1 space every stair costs: below 0 the stairs would pay the mover back
        extra = e.get("stairs_extra_cost", int, 0)
        if extra < 0:
            e.fail("stairs_extra_cost", f"{extra} is negative (extra spaces beyond the stairs' 1)")
        prov, note = e.provenance()
        tiles[tid] = Tile(
            id=tid, name=e.get("name", str), kind=e.get("kind", str, choices=("building", "street", "catacomb")),
            stack=e.get("stack", str, choices=("building", "street", "catacomb", "start")),
            symbol=e.get("symbol", str, choices=("event", "item", "omen", "none")), doorways=dict(doorways),
            sewer_grate=e.get("sewer_grate", bool, False), stairs_to=e.get("stairs_to", str, ""),
            stairs_extra_cost=extra, barrier=barrier, rule=e.get("rule", str, ""),
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
                                       _pick(e, adventurers, cards))

    haunts = {}
    haunt_files = {}  # number -> file, to name both files of a duplicate
    for fname, raw in files.items():
        if not fname.startswith("haunts/"):
            continue
        e = _Entry(fname, str(raw.get("number", "?")), raw)
        n = e.get("number", int)
        if not 1 <= n <= 50:
            e.fail("number", f"{n} is not a haunt number from 1 to 50")
        if n in haunt_files:
            e.fail("number", f"haunt {n} is also {haunt_files[n]}")
        haunt_files[n] = fname
        hid = e.get("id", str)
        twin = next((h for h in haunts.values() if h.id == hid), None)
        if twin is not None:
            e.fail("id", f"{hid!r} is also the id of {haunt_files[twin.number]}")
        haunts[n] = Haunt(n, hid, _text(e, "title"), e.get("kind", str, choices=HAUNT_KINDS), raw)
        check_haunt(e, tiles, cards, traitor_rules)

    return Content(tiles=tiles, cards=cards, adventurers=adventurers, chart_omens=omens, chart_rows=rows,
                   traitor_rules=traitor_rules, haunts=haunts, topics=_topics(files["rules_topics.toml"]))


def _pick(e: _Entry, adventurers: dict, cards: dict) -> tuple:
    """A traitor-table rule's steps: a name that matches nobody would
    silently pass the traitor on to the next step at the reveal."""
    known = {"adventurer": adventurers, "trait": TRAITS, "card": cards}
    steps = e.get("pick", list)
    for i, step in enumerate(steps):
        pe = _Part(e, f"pick[{i}]", step)
        kind = pe.get("step", str, choices=tuple(PICK_NEEDS))
        _only(pe, ("step",) + PICK_NEEDS[kind])
        for need in PICK_NEEDS[kind]:
            if pe.get(need, str) not in known[need]:
                pe.fail(need, f"no {need} {step[need]!r}")
    return tuple(steps)


def _topics(raw: dict) -> tuple:
    """rules_topics.toml: every topic has all its fields, none empty, and an
    id of its own (an empty text would make /rules answer with nothing)."""
    topics, ids = [], set()
    for i, topic in enumerate(raw.get("topic", [])):
        if not isinstance(topic, dict):
            _Entry("rules_topics.toml", f"#{i + 1}", {}).fail("topic", "expected a table ([[topic]])")
        e = _Entry("rules_topics.toml", str(topic.get("id", f"#{i + 1}")), topic)
        _only(e, TOPIC_FIELDS)
        for fld in TOPIC_FIELDS:
            _text(e, fld)
        if topic["id"] in ids:
            e.fail("id", "used twice")
        ids.add(topic["id"])
        topics.append(topic)
    if not topics:
        _Entry("rules_topics.toml", "topic", raw).fail("topic", "no [[topic]] tables: /rules would show nothing")
    return tuple(topics)


# --- haunts ---------------------------------------------------------------------------------------

class _Part(_Entry):
    """One table inside an entry (a monster, a setup step...): fails naming
    the entry and the field's path, e.g. `setup[2].at`."""

    def __init__(self, parent: _Entry, path: str, data):
        super().__init__(parent.file, parent.entry, data)
        self.parent, self.path = parent, path
        if not isinstance(data, dict):
            parent.fail(path, f"expected a table, got {data!r}")

    def fail(self, fld: str, problem: str):
        self.parent.fail(f"{self.path}.{fld}" if fld else self.path, problem)


def _text(e: _Entry, fld: str, default=...) -> str:
    value = e.get(fld, str, default)
    if fld in e.data and not value.strip():
        e.fail(fld, "is empty")
    return value


def _only(e: _Entry, allowed) -> None:
    for key in e.data:
        if key not in allowed:
            e.fail(key, f"unknown field (expected one of {', '.join(allowed)})")


def _tables(e: _Entry, fld: str) -> list:
    value = e.get(fld, list, [])
    if not all(isinstance(item, dict) for item in value):
        e.fail(fld, f"expected a list of tables ([[{fld}]])")
    return value


def _part(e: _Entry) -> int:
    return e.get("part", int, 1, choices=(1, 2))


def count_problem(value) -> str | None:
    """Why a count is not one that haunt_play.count_value can work out: a
    whole number, or an expression of digits, + - * ( ) and the words
    heroes, adventurers, players, traitors ("2*adventurers", "heroes+1")."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return f"expected a whole number or a count expression, got {value!r}"
    if isinstance(value, int):
        return None if value >= 0 else f"{value} is negative"
    text = value.replace(" ", "")
    bad = (f"{value!r} is not a count: use digits, + - * // ( ) and the words {', '.join(COUNT_WORDS)}"
           f" (e.g. \"2*adventurers\", \"heroes+1\", \"adventurers//2+1\" for half rounded down plus 1)")
    if not re.fullmatch(r"[0-9a-z+*/\-()]+", text):
        return bad
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return bad
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.USub, ast.UAdd, ast.Load)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            continue
        if isinstance(node, ast.Name) and node.id in COUNT_WORDS:
            continue
        if not isinstance(node, allowed):
            return bad
    return None


def _count(e: _Entry, fld: str, default=...):
    if fld not in e.data:
        if default is ...:
            e.fail(fld, "missing")
        return default
    problem = count_problem(e.data[fld])
    if problem:
        e.fail(fld, problem)
    return e.data[fld]


def _at(e: _Entry, tiles: dict, required: bool = True):
    """Where a setup step puts things: the forms haunt_play.where knows, or
    "chosen" (a player picks; the step is then done by hand)."""
    at = e.get("at", str, ... if required else None)
    if at is None:
        return
    if at.startswith("tile:"):
        if at[5:] not in tiles:
            e.fail("at", f"no tile {at[5:]!r}")
    elif at not in SETUP_AT:
        e.fail("at", f"{at!r} is not one of {', '.join(SETUP_AT)} or tile:<tile id>")


def _chosen(e: _Entry, step: dict, tiles: dict):
    """The limits on where a side places a piece it chooses (haunt_play.allowed_tiles)."""
    if any(f in step for f in CHOSEN_FIELDS) and step.get("at") != "chosen":
        e.fail("at", "among, apart and farthest_from go with at = \"chosen\"")
    for kind in e.get("among", list, []):
        if not (kind in CHOSEN_AMONG or kind.startswith("tile:") and kind[5:] in tiles):
            e.fail("among", f"{kind!r} is not one of {', '.join(CHOSEN_AMONG)} or tile:<tile id>")
    for rule in e.get("apart", list, []):
        if rule not in CHOSEN_APART:
            e.fail("apart", f"{rule!r} is not one of {', '.join(CHOSEN_APART)}")
    if e.get("apart_if_possible", bool, False) and not step.get("apart"):
        e.fail("apart_if_possible", "goes with apart")
    if e.get("evenly", bool, False) and not step.get("apart_if_possible"):
        e.fail("evenly", "goes with apart_if_possible")
    far = e.get("farthest_from", str, None)
    if far is not None and far not in ("heroes", "adventurers") and not (far.startswith("tile:") and far[5:] in tiles):
        e.fail("farthest_from", f"{far!r} is not heroes, adventurers or tile:<tile id>")


def id_of(name: str) -> str:
    """The id convention of rules_data/README.md: lower case, apostrophes and
    quotes dropped, every other run of non-letters turned into `_`."""
    return re.sub(r"[^a-z]+", "_", re.sub(r"['\"\u2018\u2019\u201c\u201d]", "", name.lower())).strip("_")


def _mentioned(name: str, text: str) -> bool:
    return name.lower() in text


def check_haunt(e: _Entry, tiles: dict, cards: dict, traitor_rules: dict) -> None:
    """Everything in one haunt file (rules_data/haunts/README.md): every
    name resolves (tiles, monsters, counters, tokens, cards, headings),
    every count is one the engine can work out, nothing is left empty."""
    raw = e.data
    _only(e, HAUNT_FIELDS)
    n, hid, title, kind = raw["number"], raw["id"], raw["title"], raw["kind"]
    if hid != id_of(title):
        e.fail("id", f"{hid!r} is not the id of the title {title!r} (see Ids in rules_data/README.md)")
    if e.file != f"haunts/{n:02d}_{hid}.toml":
        e.fail("number", f"the file of haunt {n} ({hid}) must be named haunts/{n:02d}_{hid}.toml")
    rule = traitor_rules.get(n)
    if rule is None:
        e.fail("number", f"haunt {n} is missing from traitor_table.toml")
    if rule.kind != kind:
        e.fail("kind", f"{kind!r}, but traitor_table.toml says {rule.kind!r}")
    _text(e, "traitor_rule")
    e.provenance()
    e.get("turn_order", str, None, choices=TURN_ORDERS)
    notes = e.get("notes", list, [])
    if not all(isinstance(x, str) and x.strip() for x in notes):
        e.fail("notes", "expected a list of non-empty strings")

    # the two sides, read out to the players (haunt_play.rules_texts, finish)
    headings = {}
    part_two = False
    for side in HAUNT_SIDES:
        se = _Part(e, side, e.get(side, dict))
        _only(se, SIDE_FIELDS)
        se.get("intro", str, None)  # may be "": the book prints no flavour (haunt 25's heroes); nothing is read out
        stub = se.get("stub", bool, False)
        when = _text(se, "part_two_when", None)
        sections = _tables(se, "section")
        if not sections:
            se.fail("section", "a side needs at least one section")
        if stub and len(sections) != 1:
            se.fail("section", "a stub side has one section saying what the stub says")
        parts = set()
        for i, raw_section in enumerate(sections):
            sec = _Part(se, f"section[{i}]", raw_section)
            _only(sec, SECTION_FIELDS)
            _text(sec, "heading")
            _text(sec, "text")
            parts.add(_part(sec))
        if (2 in parts) != (when is not None):
            se.fail("part_two_when", "needed exactly when a section has part = 2" if when is None else
                    "set, but no section has part = 2")
        part_two = part_two or when is not None
        headings[side] = {s["heading"] for s in sections}
    texts = " ".join([raw[side].get("intro", "") for side in HAUNT_SIDES] +
                     [s["heading"] + " " + s["text"] for side in HAUNT_SIDES for s in raw[side]["section"]]).lower()

    monsters = {}
    for i, raw_monster in enumerate(_tables(e, "monster")):
        me = _Part(e, f"monster[{i}]", raw_monster)
        _only(me, MONSTER_FIELDS)
        name = _text(me, "name")
        if name.lower() in {m.lower() for m in monsters}:  # haunt_play.monster_stats ignores case
            me.fail("name", f"monster {name!r} twice in this haunt")
        monsters[name] = raw_monster
        me.get("side", str, choices=HAUNT_SIDES)
        notes = _text(me, "notes", "")
        for trait in TRAITS:
            value = raw_monster.get(trait)
            if value is None or type(value) is int and value >= 0:
                continue
            if value == STAR_STAT:
                if not notes.strip():
                    me.fail(trait, "a stat printed as * needs notes saying what it is in play")
                continue
            me.fail(trait, f"expected a whole number (or \"*\" as printed), got {value!r}")
        _count(me, "count", None)  # left out when the haunt sets no number (haunt 6's Vine Blights)
        me.get("ally", str, None, choices=("heroes",))  # NPCs on the heroes' side (haunt_play.add_monster)
        moves = me.get("moves", int, None)  # a fixed move each monster turn, no Speed roll
        if moves is not None and moves < 1:
            me.fail("moves", "a fixed move is 1 space or more")
        attacks = me.get("attacks", str, None, choices=TRAITS)  # its one attack trait (attack.monster_attack)
        if attacks is not None and type(raw_monster.get(attacks)) is not int:
            me.fail("attacks", f"the monster has no {attacks} to attack with")

    counters = {}
    for i, raw_counter in enumerate(_tables(e, "counter")):
        ce = _Part(e, f"counter[{i}]", raw_counter)
        _only(ce, COUNTER_FIELDS)
        name = _text(ce, "name")
        if name in counters:
            ce.fail("name", f"counter {name!r} twice in this haunt")
        counters[name] = raw_counter
        _count(ce, "start")
        ce.get("track", bool, False)
        _text(ce, "meaning")

    def token_kind(pe: _Entry):
        token = _text(pe, "token")
        if token not in TOKEN_KINDS and not _mentioned(token, texts):
            pe.fail("token", f"{token!r} is not one of {', '.join(TOKEN_KINDS)} nor a square token this "
                             "haunt's sections name")

    labels = set()
    for i, step in enumerate(_tables(e, "setup")):
        pe = _Part(e, f"setup[{i}]", step)
        do = pe.get("do", str, choices=SETUP_DOS)
        _only(pe, ("side", "do", "text", "part", "card") + SETUP_FIELDS[do])
        for need in SETUP_NEEDS.get(do, ()):
            if need not in step:
                pe.fail(need, f"missing (do = {do} needs {', '.join(SETUP_NEEDS[do])})")
        pe.get("side", str, choices=HAUNT_SIDES)
        _text(pe, "text")
        if _part(pe) == 2 and not part_two:
            pe.fail("part", "part 2, but neither side has part_two_when")
        card = pe.get("card", str, None)
        if card is not None and card not in cards:
            pe.fail("card", f"no card {card!r}")
        if "monster" in step and _text(pe, "monster") not in monsters:
            pe.fail("monster", f"no monster {step['monster']!r} in this haunt "
                               f"(monsters: {', '.join(monsters) or 'none'})")
        if "at" in step:
            _at(pe, tiles)
        if "count" in step:
            _count(pe, "count")
        if "each" in step and (not isinstance(step["each"], int) or isinstance(step["each"], bool)
                               or not 1 <= step["each"] <= 3):
            pe.fail("each", "a whole number of tokens each player is dealt, 1 to 3")
        if "value" in step:
            _count(pe, "value")
        if "counter" in step and _text(pe, "counter") not in counters:
            pe.fail("counter", f"no [[counter]] named {step['counter']!r} in this haunt")
        if "token" in step:
            token_kind(pe)
        if "label" in step:
            labels.add(_text(pe, "label"))
        if "deck" in step:
            pe.get("deck", str, choices=("event", "item", "omen"))
        if do == "traits":
            for trait in pe.get("restore", list, []):
                if trait not in TRAITS:
                    pe.fail("restore", f"{trait!r} is not a trait")
            for trait, amount in pe.get("gain", dict, {}).items():
                if trait not in TRAITS or type(amount) is not int or amount < 1:
                    pe.fail("gain", f"{trait} = {amount!r}: expected a trait and a whole number of at least 1")
            if not step.get("restore") and not step.get("gain"):
                pe.fail("restore", "do = traits needs restore, gain or both")
        if do == "fetch_tile" and (step["tile"] not in tiles or tiles[step["tile"]].stack == "start"):
            pe.fail("tile", f"{step['tile']!r} is not a tile of a stack (the start tiles are always in play)")
        _chosen(pe, step, tiles)

    setup_texts = " ".join(step["text"] for step in raw.get("setup", [])).lower()
    for i, win in enumerate(_tables(e, "win")):
        we = _Part(e, f"win[{i}]", win)
        when = we.get("when", str, choices=WIN_WHENS)
        _only(we, ("side", "when", "text", "part") + WIN_FIELDS[when] + WIN_OPTIONAL.get(when, ()))
        if "op" in win:
            we.get("op", str, choices=WIN_OPS)
        for kind in we.get("on", list, []):
            if not (kind in CHOSEN_AMONG or kind.startswith("tile:") and kind[5:] in tiles):
                we.fail("on", f"{kind!r} is not one of {', '.join(CHOSEN_AMONG)} or tile:<tile id>")
        for need in WIN_FIELDS[when]:
            if need not in win:
                we.fail(need, f"missing (when = {when} needs {', '.join(WIN_FIELDS[when])})")
        we.get("side", str, choices=HAUNT_SIDES)
        _text(we, "text")
        if _part(we) == 2 and not part_two:
            we.fail("part", "part 2, but neither side has part_two_when")
        if when == "monster_dead" and we.get("monster", str) not in monsters:
            we.fail("monster", f"no monster {win['monster']!r} in this haunt "
                               f"(monsters: {', '.join(monsters) or 'none'})")
        if when == "counter_at" and we.get("counter", str) not in counters:
            we.fail("counter", f"no [[counter]] named {win['counter']!r} in this haunt")
        if "value" in win:
            _count(we, "value")
        if when == "token_count":
            token_kind(we)
            we.get("op", str, choices=WIN_OPS)
            label = _text(we, "label")
            # a label some setup step places, a monster's token, or tokens the setup sets aside by hand
            if label not in labels and label not in monsters and not _mentioned(label, setup_texts):
                we.fail("label", f"no token {label!r} is placed, set aside or named by this haunt's setup")

    for i, check in enumerate(_tables(e, "roll_check")):
        re_ = _Part(e, f"roll_check[{i}]", check)
        _only(re_, ROLL_CHECK_FIELDS)
        side = re_.get("side", str, choices=HAUNT_SIDES)
        if _text(re_, "heading") not in headings[side]:
            re_.fail("heading", f"{check['heading']!r} is not a section heading of the {side} side")
        traits = re_.get("traits", list)
        for trait in traits:
            if trait not in TRAITS and trait not in ROLL_TRAIT_WORDS:
                re_.fail("traits", f"{trait!r} is not a trait nor one of {', '.join(ROLL_TRAIT_WORDS)}")
        target = re_.get("target", (int, str))
        if not (type(target) is int and 0 <= target <= 16 or target in ROLL_TARGETS):
            re_.fail("target", f"expected a number N (for N+) or one of {', '.join(ROLL_TARGETS)}, got {target!r}")
        _text(re_, "text")
