"""Castle Ravenloft's components, read from `rules_data/ravenloft/*.toml` and checked at load.

The format of every file is in `rules_data/ravenloft/README.md`. Standard library only; the only
I/O is reading those TOML files.

API
---
`load_content(root=None) -> Content`: `root` is a folder holding the eight TOML files; `None` reads
the repo's `rules_data/ravenloft/` (that load is cached). Any fault raises `ContentError` (a
`ValueError`) whose message is ONE line naming the file, the entry and the field, e.g.
``tiles.toml: tile 'crypt_corner_11_15': grid row 2 has 5 squares, not 4``.

`Content` (frozen) holds dicts keyed by id, in file order:

- `tiles`: `Tile` (40 dungeon tiles + the Start tile's two halves, `start_upper_half` and
  `start_lower_half`, group "start", joined by `Tile.joins`: upper's south = lower's north);
- `heroes`: `Hero` (5), each with `level_1` and `level_2` (`HeroLevel`);
- `powers`: `Power` (50);
- `monsters`: `MonsterCard` (30 physical cards; `entry` is the monster, shared by its 3 copies);
- `villains`: `Villain` (8);
- `encounters`: `Encounter` (60 physical cards; copies share `entry`);
- `treasures`: `Treasure` (45 deck cards + 10 adventure treasures, `type == "adventure"`);
- `adventures`: `Adventure`.

Card ids are `<entry>_<card number>` (`skeleton_126`, `frenzy_63`, `wooden_stake_142`): the box has
several copies of some cards, and two different cards called Spirit of Doom. Every other id is
the name's id (lower case, apostrophes dropped, other runs of non-letters/digits -> `_`).
Helpers: `Content.copies(entry)` (the card ids of one entry), `Content.treasure_deck()` (the 45
deck cards), `Content.monster_kinds()` (entry -> card ids).

Squares are `(row, col)`, row 0 the top, col 0 the left, with the tile drawn with its triangle on
the bottom (`south`) edge. `Tile.grid` is 4 strings of 4 characters: `.` floor, `#` wall, `B` the
bone pile (a floor square); `Tile.bone_pile` is its square.

Monster and villain tactics are tuples of `Tactic`, tried in order: the first line whose
`condition` (and `and_condition`, if set) holds is carried out and ends the activation; the last
line's condition is always `"otherwise"`. The words (`CONDITIONS`, `ACTIONS`, `FOCUS`, `AREAS`)
and the fields each word takes are the tables below; a field a word does not take is `None`.
Every entry has `provenance` (`printed` | `single-source` | `provisional`) and `provenance_note`
("" for printed); hero levels, tactics and adventure tile stacks carry their own.
"""
import functools
import pathlib
import re
import tomllib
from dataclasses import dataclass

from bot.kit import errors

ROOT = pathlib.Path(__file__).resolve().parents[4] / "rules_data" / "ravenloft"
FILES = ("tiles.toml", "heroes.toml", "powers.toml", "monsters.toml", "villains.toml",
         "encounters.toml", "treasures.toml", "adventures.toml")

PROVENANCES = ("printed", "single-source", "provisional")
SIDES = ("north", "east", "south", "west")
TILE_GROUPS = ("crypt", "named", "normal", "start")
TRIANGLES = ("black", "white", "none")  # "none" only on the Start tile's lower half
GRID_CHARS = ".#B"
FEATURE_KINDS = ("coffin", "altar", "fountain", "magic_circle", "alchemy_table", "workbench", "stairs",
                 "slime", "rot")

POWER_KINDS = ("at_will", "utility", "daily")
TIMINGS = ("attack", "hero_phase", "start_of_hero_phase", "instead_of_move", "instead_of_attack", "reaction")
TRIGGERS = ("monster_hits_you", "monster_hits_hero_on_your_tile", "monster_hits_other_hero_within_1_tile",
            "adjacent_monster_hits_you", "adjacent_monster_attacks_you", "monster_damages_you",
            "other_hero_rolls", "other_hero_draws_encounter", "you_draw_encounter", "you_draw_monster")
TARGETS = ("one", "two", "up_to_three", "two_on_a_tile", "each_on_a_tile", "each_adjacent", "none")
RANGES = ("adjacent", "own_tile", "within", "exactly", "special")

# --- monster tactics: condition word -> the fields it takes; action word -> the fields it takes
CONDITIONS = {
    "hero_adjacent": (),                 # a Hero stands on a square next to the monster
    "hero_on_tile": (),                  # a Hero is on the monster's tile
    "hero_within": ("within",),          # a Hero is on a tile within `within` tiles (0 = own tile)
    "heroes_within": ("within", "count"),  # at least `count` Heroes within `within` tiles
    "hp_at_most": ("hp",),               # the monster has `hp` Hit Points or fewer left
    "marker_on_card": ("marker",),       # the named marker lies on the monster's card
    "marker_spent": ("marker",),         # the named marker has been used this adventure
    "on_start_tile": (),                 # the monster stands on a half of the Start tile
    "otherwise": (),                     # always true: the last line, and only there
}
CONDITION_FIELDS = ("within", "count", "hp", "marker")
ACTIONS = {
    "attack": ("attack", "focus"),                      # attack from where it stands
    "move_adjacent_and_attack": ("attack", "focus"),    # step next to the focus Hero, then attack
    "move_onto_tile_and_attack": ("attack", "focus"),   # go to the focus Hero's tile, then attack
    "attack_then_move_adjacent": ("attack", "focus"),   # attack first, then step next to the focus
    "move_toward": ("tiles", "focus"),                  # move `tiles` tiles toward the focus Hero
    "move_toward_and_attack": ("tiles", "focus", "attack"),
    "move_along_arrow": ("tiles",),                     # move through its tile's triangle edge
    "spend_marker_and_attack": ("marker", "attack", "focus"),
    "spend_marker_and_move": ("marker", "tile"),        # spend the marker, go to the named tile
    "place_monster": (),        # the Hero controlling the fewest Monsters places a new Monster
    "damage": ("focus", "amount"),                      # no roll: the focus Hero takes `amount`
}
ACTION_FIELDS = ("attack", "focus", "tiles", "marker", "tile", "amount")
FOCUS = ("closest", "most_hp", "active")  # which Hero a line aims at (closest; most HP left; the active Hero)
AREAS = ("one", "focus_tile", "within_1_tile")  # who an attack rolls against: the focus; each Hero on its tile; each within 1 tile of the attacker
HERO_CONDITIONS = ("slowed", "immobilized")
MARKERS = ("mistform", "dragons_breath")

ENCOUNTER_TYPES = ("environment", "event", "event_attack", "trap")
HEROES_HIT = ("active_hero", "each_hero_on_tile", "each_hero_within_1_tile", "every_hero", "most_hp_hero",
              "that_hero")  # that_hero: the Hero an attack's on_hit step, or a roll made for each Hero, concerns
STEPS = {  # encounter step word -> fields
    "damage": ("who", "amount"),
    "heal": ("who", "amount"),
    "condition": ("who", "condition"),
    "new_monster": ("where",),
    "draw_treasure": (),
    "discard_treasure": ("who", "pick"),
    "flip_power": ("who", "up"),
    "roll": ("bands", "each_hero"),
    "special": ("name",),
}
STEP_FIELDS = ("who", "amount", "condition", "where", "pick", "up", "bands", "each_hero", "name")
STEP_NEEDS = {"damage": ("who", "amount"), "heal": ("who", "amount"), "condition": ("who", "condition"), "new_monster": ("where",),
              "discard_treasure": ("who", "pick"), "flip_power": ("who", "up"), "roll": ("bands",),
              "special": ("name",)}
MONSTER_WHERE = ("active_hero_tile", "adjacent_to_active_hero", "tile_with_unexplored_edge", "any_tile")
AMOUNT_WORDS = ("monsters_controlled",)

TREASURE_TYPES = ("blessing", "fortune", "item", "adventure")
LASTS = ("instant", "until_next_turn_end", "kept", "one_use")
BONUS_STATS = ("attack", "ac", "speed", "damage", "disable")
BONUS_WHEN = ("always", "adjacent", "adjacent_undead", "not_adjacent", "vampire", "adjacent_vampire")
BONUS_WHO = ("holder", "within_1_tile")

TOKENS = ("sun", "time", "kavan", "hit_point", "reaction", "coffin", "monster", "item", "mistform",
          "dragons_breath", "artifact", "icon", "phylactery", "freezing_cloud")
HEROES_AT = ("next_to_stairs", "any_square_of_start")
RULE_KINDS = {  # special adventure rule word -> fields it needs (besides text)
    "encounter_every_villain_phase": (),
    "extra_monsters_on_tile": ("tile", "count"),        # count: a number or "heroes"
    "villain_enters": ("villain", "trigger"),
    "time_track": ("spaces", "advance"),
    "xp_cancel_costs_hp": ("amount",),
    "power_deck_on_white_tile": (),
    "escort": ("token",),
    "manual": (),
}
RULE_FIELDS = ("tile", "count", "villain", "trigger", "spaces", "advance", "amount", "token")
TRIGGER_WORDS = ("time_track_end", "tile_placed", "tiles_placed", "start")  # villain_enters trigger
ADVANCE_WORDS = ("white_triangle_tile", "each_turn", "skull_tile")
VICTORY_KINDS = {
    "hero_starts_turn_on": ("tile",),
    "escape": ("where", "who"),
    "villain_defeated": ("villain",),
    "monsters_on_tile_defeated": ("tile",),
    "treasure_taken": ("treasure",),
    "object_destroyed": ("token", "ac", "hp"),
    "tokens_removed": ("token", "tile"),
    "monsters_defeated": ("count",),
    "items_carried_out": ("count",),
    "manual": (),
}
DEFEAT_KINDS = {
    "standard": (),
    "villain_defeated": ("villain",),
    "monsters_escaped": ("count",),
    "time_track_end": (),
    "token_lost": ("token",),
    "manual": (),
}
CLAUSE_FIELDS = ("tile", "villain", "treasure", "token", "count", "where", "who", "ac", "hp")
ESCAPE_WHERE = ("start_stairs", "secret_stairway")
ESCAPE_WHO = ("all", "one")

NUMBER_RANGES = {"power": (1, 50), "encounter": (51, 110), "monster": (111, 140), "adventure": (141, 150),
                 "treasure": (151, 195)}


class ContentError(errors.ContentError):
    """Bad content: one line naming the file, the entry and the field."""


# ------------------------------------------------------------------ the objects

@dataclass(frozen=True)
class Feature:
    kind: str  # FEATURE_KINDS; drawn art, no rule unless an adventure gives one
    squares: tuple  # ((row, col), ...), may be empty for art over the whole tile
    text: str


@dataclass(frozen=True)
class Tile:
    id: str
    name: str  # "" for the 20 unnamed tiles
    group: str  # TILE_GROUPS
    triangle: str  # TRIANGLES
    skull: bool
    grid: tuple  # 4 strings of 4 of ".#B", row 0 the top
    bone_pile: tuple  # (row, col)
    exits: tuple  # sides with a way out (SIDES); every dungeon tile has "south", its triangle edge
    features: tuple  # Feature
    joins: dict  # side -> tile id, the Start tile's two halves only
    source: str  # the reference's id for the tile (kahu-N), for checking
    provenance: str
    provenance_note: str

    def is_wall(self, row: int, col: int) -> bool:
        return self.grid[row][col] == "#"


@dataclass(frozen=True)
class Critical:
    text: str
    extra_damage: int  # added to each target a natural-20 attack hits
    regain_hp: int  # HP a Hero on the attacker's tile (the attacker included) regains


@dataclass(frozen=True)
class HeroLevel:
    level: int
    ac: int
    hp: int
    speed: int
    surge: int
    extra_daily: int  # Daily powers picked beyond the Hero's `choose` (level 2: 1)
    critical: Critical | None  # level 2 only
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    race: str
    hero_class: str
    ability: str  # the special ability's name
    ability_text: str
    fixed_powers: tuple  # power ids every game
    power_pool: tuple  # power ids to choose from
    choose: dict  # POWER_KINDS -> how many to pick from the pool at level 1
    level_1: HeroLevel
    level_2: HeroLevel
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class PowerAttack:
    bonus: int | None  # None: no roll, it hits (Careful Attack)
    damage: int
    miss: int  # damage on a miss (0: none)
    targets: str  # TARGETS
    range: str  # RANGES
    tiles: int | None  # for range "within" / "exactly"


@dataclass(frozen=True)
class Power:
    id: str
    name: str
    number: int
    hero: str
    kind: str  # POWER_KINDS
    fixed: bool  # the hero's built-in power (racial or class)
    timing: str  # TIMINGS
    trigger: str  # TRIGGERS for timing "reaction", else ""
    attack: PowerAttack | None
    keep_on_miss: bool  # a Daily that stays face up when it misses
    text: str
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class Attack:
    id: str
    name: str
    bonus: int
    damage: int
    miss: int
    area: str  # AREAS
    conditions: tuple  # HERO_CONDITIONS put on a Hero it hits
    heal_self: int  # HP the attacker regains when it hits
    text: str  # any further effect, our words ("" if none)


@dataclass(frozen=True)
class Tactic:
    condition: str  # CONDITIONS
    and_condition: str  # "" or a second CONDITIONS word that must hold too
    within: int | None
    count: int | None
    hp: int | None
    marker: str | None
    action: str  # ACTIONS
    attack: str | None  # an Attack id of this monster
    focus: str | None  # FOCUS
    tiles: int | None
    tile: str | None
    amount: int | None


@dataclass(frozen=True)
class MonsterCard:
    id: str  # <entry>_<number>
    entry: str  # the monster's id, shared by its three cards
    number: int
    name: str
    type: str  # creature type as printed: Undead, Animal, ...
    ac: int
    hp: int
    xp: int
    special: str  # special ability in our words, "" if none is known
    attacks: tuple  # Attack
    tactics: tuple  # Tactic
    tactics_provenance: str
    tactics_note: str
    provenance: str
    provenance_note: str

    def attack_by_id(self, attack_id: str) -> Attack:
        return next(a for a in self.attacks if a.id == attack_id)


@dataclass(frozen=True)
class Villain:
    id: str
    name: str
    type: str
    level: int
    ac: int
    hp: int
    xp: int
    large: bool  # a base larger than a square (counts as on every tile it covers)
    figure: str  # the figure it uses (a villain id; its own id if it has one)
    starts_with: tuple  # MARKERS put on its card when it enters play
    special: str
    attacks: tuple
    tactics: tuple
    tactics_provenance: str
    tactics_note: str
    provenance: str
    provenance_note: str

    def attack_by_id(self, attack_id: str) -> Attack:
        return next(a for a in self.attacks if a.id == attack_id)


@dataclass(frozen=True)
class EncounterAttack:
    bonus: int
    damage: int
    miss: int
    target: str  # HEROES_HIT; for a trap, "on tile" / "within 1 tile" count from its marker
    conditions: tuple
    rolls: int  # separate attack rolls against each target (King Tomescu's Portal: 3)
    on_hit: tuple  # Step, run for each Hero hit (`that_hero`)


@dataclass(frozen=True)
class Band:
    at_least: int
    at_most: int
    then: tuple  # Step


@dataclass(frozen=True)
class Step:
    do: str  # STEPS
    who: str | None = None
    amount: int | str | None = None
    condition: str | None = None
    where: str | None = None
    pick: str | None = None
    up: bool | None = None
    bands: tuple = ()
    each_hero: bool = False
    name: str | None = None


@dataclass(frozen=True)
class Encounter:
    id: str  # <entry>_<number>
    entry: str
    number: int
    name: str
    type: str  # ENCOUNTER_TYPES
    text: str
    attack: EncounterAttack | None  # event-attacks and attacking traps
    disable: int | None  # traps: the roll that disables it
    steps: tuple  # Step: what it does (events: when drawn; environments/traps: "special" names its rule)
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class Bonus:
    stat: str  # BONUS_STATS
    amount: int
    when: str  # BONUS_WHEN
    who: str  # BONUS_WHO


@dataclass(frozen=True)
class Treasure:
    id: str  # <entry>_<number>
    entry: str
    number: int
    name: str
    type: str  # TREASURE_TYPES
    lasts: str  # LASTS
    text: str
    bonuses: tuple  # Bonus (items)
    attack: PowerAttack | None  # items that attack
    steps: tuple  # Step
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class StackPart:
    random: int | str  # how many random dungeon tiles, or "rest" (every tile not named elsewhere)
    with_tiles: tuple  # named tiles shuffled in with them
    on_top: bool  # the named tiles go on top of the random ones instead of shuffled in (False)
    at_bottom: bool  # the named tiles go under the random ones


@dataclass(frozen=True)
class Clause:
    kind: str  # RULE_KINDS / VICTORY_KINDS / DEFEAT_KINDS
    text: str
    tile: str | None = None
    villain: str | None = None
    treasure: str | None = None
    token: str | None = None
    count: int | str | None = None
    where: str | None = None
    who: str | None = None
    ac: int | None = None
    hp: int | None = None
    trigger: str | None = None
    spaces: int | None = None
    advance: str | None = None
    amount: int | None = None


@dataclass(frozen=True)
class Adventure:
    id: str
    number: int | None  # its number in the Adventure Book; None for ours
    title: str
    ours: bool  # designed by us (never titled as a printed adventure)
    based_on: int | None  # the book adventure ours draws on, if any
    players_min: int
    players_max: int
    goal: str
    text: str
    start_tiles: tuple  # tile ids laid before play
    attached_tiles: tuple  # tile ids laid against the start before play
    heroes_at: str  # HEROES_AT
    surges: int
    villains: tuple
    tiles: tuple  # named tiles the adventure uses
    treasures: tuple  # adventure treasure card ids
    monsters: tuple  # monster entries the adventure names
    tokens: tuple  # TOKENS
    setup_text: str
    stack: tuple  # StackPart, top of the stack first
    stack_provenance: str
    stack_note: str
    rules: tuple  # Clause (RULE_KINDS)
    victory: tuple  # Clause (VICTORY_KINDS): all must hold
    defeat: tuple  # Clause (DEFEAT_KINDS): any one loses
    provenance: str
    provenance_note: str


@dataclass(frozen=True)
class Content:
    tiles: dict
    heroes: dict
    powers: dict
    monsters: dict
    villains: dict
    encounters: dict
    treasures: dict
    adventures: dict

    def copies(self, entry: str) -> tuple:
        """The card ids of one entry (monsters, encounters, treasures), in card-number order."""
        return tuple(c.id for d in (self.monsters, self.encounters, self.treasures)
                     for c in d.values() if c.entry == entry)

    def treasure_deck(self) -> tuple:
        return tuple(t.id for t in self.treasures.values() if t.type != "adventure")

    def monster_kinds(self) -> dict:
        kinds: dict = {}
        for card in self.monsters.values():
            kinds.setdefault(card.entry, []).append(card.id)
        return {k: tuple(v) for k, v in kinds.items()}


# ------------------------------------------------------------------ checking

REQUIRED = object()


def make_id(name: str) -> str:
    """The id rule: lower case, apostrophes and quotes dropped, other runs of non-letters/digits -> _."""
    s = re.sub(r"['\"\u2019]", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "_", s).strip("_")


class Where:
    """Where a check is: the file, the kind of entry and its id; `fail` raises the one-line error."""

    def __init__(self, file: str, kind: str = "", entry: str = ""):
        self.file, self.kind, self.entry = file, kind, entry

    def fail(self, field: str, problem: str):
        who = f" {self.kind} '{self.entry}':" if self.kind else ""
        text = f"{self.file}:{who} {field} {problem}".replace("\n", " ")
        raise ContentError(text)


TYPE_WORDS = {"str": "text", "int": "a whole number", "bool": "true or false", "strs": "a list of texts",
              "ints": "a list of whole numbers", "table": "a table", "tables": "a list of tables",
              "int_or_str": "a whole number or a word", "squares": "a list of [row, col] pairs"}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _typed(value, kind: str, where: Where, field: str):
    ok = {
        "str": lambda v: isinstance(v, str),
        "int": _is_int,
        "bool": lambda v: isinstance(v, bool),
        "strs": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        "ints": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
        "table": lambda v: isinstance(v, dict),
        "tables": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
        "int_or_str": lambda v: _is_int(v) or isinstance(v, str),
        "squares": lambda v: isinstance(v, list) and all(
            isinstance(x, list) and len(x) == 2 and all(_is_int(y) for y in x) for x in v),
    }[kind](value)
    if not ok:
        where.fail(field, f"should be {TYPE_WORDS[kind]}, not {value!r}")
    return value


def fields(raw, spec: dict, where: Where, prefix: str = "") -> dict:
    """Check a table against `spec` {field: (kind, default or REQUIRED)}: no unknown field, every
    required one present, every value of its kind. Returns the values with defaults filled in."""
    if not isinstance(raw, dict):
        where.fail(prefix.rstrip(".") or "entry", "should be a table")
    for key in raw:
        if key not in spec:
            where.fail(prefix + key, "is not a known field")
    out = {}
    for name, (kind, default) in spec.items():
        if name in raw:
            out[name] = _typed(raw[name], kind, where, prefix + name)
        elif default is REQUIRED:
            where.fail(prefix + name, "is missing")
        else:
            out[name] = default
    return out


def word(value, allowed, where: Where, field: str):
    if value not in allowed:
        where.fail(field, f"is {value!r}, not one of {', '.join(allowed)}")
    return value


def provenance(f: dict, where: Where, prefix: str = "", key: str = "provenance", note_key: str = "provenance_note"):
    """(provenance, note): a note, one line, exactly when the entry is not printed."""
    prov = word(f[key], PROVENANCES, where, prefix + key)
    note = f.get(note_key) or ""
    if prov == "printed" and note:
        where.fail(prefix + note_key, "is given but the entry is printed")
    if prov != "printed" and not note.strip():
        where.fail(prefix + note_key, f"is missing: a {prov} entry says why in one line")
    if "\n" in note:
        where.fail(prefix + note_key, "should be one line")
    return prov, note


def positive(value, where: Where, field: str, low: int = 0):
    if value is not None and value < low:
        where.fail(field, f"is {value}, below {low}")
    return value


PROV = {"provenance": ("str", REQUIRED), "provenance_note": ("str", "")}


def read(root: pathlib.Path, name: str, key: str) -> list:
    """The list of `[[key]]` tables of one file (no other top-level key allowed)."""
    where = Where(name)
    path = root / name
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        where.fail("file", f"is missing from {root}")
    except tomllib.TOMLDecodeError as e:
        where.fail("file", f"is not valid TOML ({e})")
    for k in raw:
        if k != key:
            where.fail(k, f"is not a known table (only [[{key}]])")
    items = raw.get(key, [])
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        where.fail(key, f"should be a list of [[{key}]] tables")
    return items


def entry_where(file: str, kind: str, raw: dict, index: int) -> Where:
    ident = raw.get("id")
    return Where(file, kind, ident if isinstance(ident, str) else f"#{index + 1}")


def check_id(ident: str, name: str, where: Where, seen: dict, *, suffix_ok: bool = False):
    if ident in seen:
        where.fail("id", "is used twice")
    if not re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", ident):
        where.fail("id", f"is {ident!r}: lower case letters, digits and single _ only")
    base = make_id(name)
    if ident != base and not (suffix_ok and ident.startswith(base + "_")):
        where.fail("id", f"is {ident!r} but the name {name!r} gives {base!r}")


# ------------------------------------------------------------------ tiles

TILE_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "group": ("str", REQUIRED),
             "triangle": ("str", REQUIRED), "skull": ("bool", REQUIRED), "grid": ("strs", REQUIRED),
             "exits": ("strs", REQUIRED), "features": ("tables", []), "joins": ("table", {}),
             "source": ("str", ""), **PROV}
FEATURE_SPEC = {"kind": ("str", REQUIRED), "squares": ("squares", []), "text": ("str", "")}


def edge_squares(side: str) -> list:
    return {"north": [(0, c) for c in range(4)], "south": [(3, c) for c in range(4)],
            "west": [(r, 0) for r in range(4)], "east": [(r, 3) for r in range(4)]}[side]


def check_tiles(items: list) -> dict:
    out: dict = {}
    counters: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("tiles.toml", "tile", raw, i)
        f = fields(raw, TILE_SPEC, w)
        group = word(f["group"], TILE_GROUPS, w, "group")
        triangle = word(f["triangle"], TRIANGLES, w, "triangle")
        if triangle == "none" and group != "start":
            w.fail("triangle", "is 'none' but only the Start tile may lack a triangle")
        grid = f["grid"]
        if len(grid) != 4:
            w.fail("grid", f"has {len(grid)} rows, not 4")
        for r, row in enumerate(grid):
            if len(row) != 4:
                w.fail("grid", f"row {r} has {len(row)} squares, not 4")
            bad = set(row) - set(GRID_CHARS)
            if bad:
                w.fail("grid", f"row {r} has {''.join(sorted(bad))!r}: squares are . floor, # wall, B bone pile")
        piles = [(r, c) for r in range(4) for c in range(4) if grid[r][c] == "B"]
        if len(piles) != 1:
            w.fail("grid", f"has {len(piles)} bone piles, not 1")
        exits = tuple(word(s, SIDES, w, "exits") for s in f["exits"])
        if len(set(exits)) != len(exits):
            w.fail("exits", "names a side twice")
        open_sides = [s for s in SIDES if any(grid[r][c] != "#" for r, c in edge_squares(s))]
        for s in exits:
            if s not in open_sides:
                w.fail("exits", f"names {s} but that edge is all wall")
        if group != "start":
            if sorted(exits, key=SIDES.index) != open_sides:
                w.fail("exits", f"is {list(exits)} but the grid opens {open_sides}")
            if "south" not in exits:
                w.fail("exits", "lacks south, the triangle edge every dungeon tile joins by")
        name = f["name"]
        ident = f["id"]
        if name:
            check_id(ident, name, w, out)
        else:
            if group != "normal":
                w.fail("name", "is empty but only normal tiles are unnamed")
            key = (triangle, len(exits))
            counters[key] = counters.get(key, 0) + 1
            expect = f"{triangle}_x{len(exits)}_{counters[key]}"
            if ident in out:
                w.fail("id", "is used twice")
            if ident != expect:
                w.fail("id", f"is {ident!r}; the next unnamed {triangle} tile with {len(exits)} exits is {expect!r}")
        features = []
        for j, fr in enumerate(f["features"]):
            ff = fields(fr, FEATURE_SPEC, w, f"features[{j}].")
            word(ff["kind"], FEATURE_KINDS, w, f"features[{j}].kind")
            for r, c in ff["squares"]:
                if not (0 <= r < 4 and 0 <= c < 4):
                    w.fail(f"features[{j}].squares", f"has [{r}, {c}], off the 4x4 tile")
                if grid[r][c] == "#":
                    w.fail(f"features[{j}].squares", f"has [{r}, {c}], a wall square")
            features.append(Feature(ff["kind"], tuple(tuple(s) for s in ff["squares"]), ff["text"]))
        joins = f["joins"]
        if joins and group != "start":
            w.fail("joins", "is only for the Start tile's halves")
        for side, other in joins.items():
            word(side, SIDES, w, "joins")
            if not isinstance(other, str):
                w.fail(f"joins.{side}", f"should be a tile id, not {other!r}")
            if side in exits:
                w.fail(f"joins.{side}", "is also listed in exits")
        prov, note = provenance(f, w)
        out[ident] = Tile(ident, name, group, triangle, f["skull"], tuple(grid), piles[0], exits,
                          tuple(features), dict(joins), f["source"], prov, note)
    opposite = dict(zip(SIDES, ("south", "west", "north", "east")))
    for t in out.values():
        w = Where("tiles.toml", "tile", t.id)
        for side, other in t.joins.items():
            if other not in out:
                w.fail(f"joins.{side}", f"names {other!r}, not a tile")
            if out[other].joins.get(opposite[side]) != t.id:
                w.fail(f"joins.{side}", f"names {other!r}, whose {opposite[side]} join does not name {t.id!r}")
    return out


# ------------------------------------------------------------------ powers and heroes

ATTACK_SPEC = {"bonus": ("int", None), "damage": ("int", REQUIRED), "miss": ("int", 0),
               "targets": ("str", REQUIRED), "range": ("str", REQUIRED), "tiles": ("int", None)}
POWER_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "number": ("int", REQUIRED),
              "hero": ("str", REQUIRED), "kind": ("str", REQUIRED), "fixed": ("bool", False),
              "timing": ("str", REQUIRED), "trigger": ("str", ""), "attack": ("table", None),
              "keep_on_miss": ("bool", False), "text": ("str", REQUIRED), **PROV}


def power_attack(raw, w: Where, prefix: str) -> PowerAttack:
    a = fields(raw, ATTACK_SPEC, w, prefix)
    word(a["targets"], TARGETS, w, prefix + "targets")
    rng = word(a["range"], RANGES, w, prefix + "range")
    if rng in ("within", "exactly"):
        if a["tiles"] is None:
            w.fail(prefix + "tiles", f"is missing: range {rng} counts tiles")
        positive(a["tiles"], w, prefix + "tiles", 1)
    elif a["tiles"] is not None:
        w.fail(prefix + "tiles", f"is given but range {rng} counts no tiles")
    positive(a["damage"], w, prefix + "damage")
    positive(a["miss"], w, prefix + "miss")
    return PowerAttack(a["bonus"], a["damage"], a["miss"], a["targets"], rng, a["tiles"])


def check_powers(items: list, numbers: dict) -> dict:
    out: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("powers.toml", "power", raw, i)
        f = fields(raw, POWER_SPEC, w)
        check_id(f["id"], f["name"], w, out)
        card_number(f["number"], "power", w, numbers, f["id"])
        word(f["kind"], POWER_KINDS, w, "kind")
        timing = word(f["timing"], TIMINGS, w, "timing")
        if timing == "reaction":
            word(f["trigger"], TRIGGERS, w, "trigger")
        elif f["trigger"]:
            w.fail("trigger", f"is given but timing is {timing}, not reaction")
        attack = power_attack(f["attack"], w, "attack.") if f["attack"] is not None else None
        if f["keep_on_miss"] and (attack is None or f["kind"] != "daily"):
            w.fail("keep_on_miss", "is only for Daily powers that attack")
        prov, note = provenance(f, w)
        out[f["id"]] = Power(f["id"], f["name"], f["number"], f["hero"], f["kind"], f["fixed"], timing,
                             f["trigger"], attack, f["keep_on_miss"], f["text"], prov, note)
    return out


def card_number(n: int, kind: str, w: Where, numbers: dict, owner: str):
    low, high = NUMBER_RANGES[kind]
    if not low <= n <= high:
        w.fail("number", f"is {n}, outside the {kind} cards {low}-{high}")
    if n in numbers:
        w.fail("number", f"{n} is already card {numbers[n]!r}")
    numbers[n] = owner


LEVEL_SPEC = {"ac": ("int", REQUIRED), "hp": ("int", REQUIRED), "speed": ("int", REQUIRED),
              "surge": ("int", REQUIRED), "extra_daily": ("int", 0), "critical": ("table", None), **PROV}
CRITICAL_SPEC = {"text": ("str", REQUIRED), "extra_damage": ("int", 0), "regain_hp": ("int", 0)}
HERO_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "race": ("str", REQUIRED),
             "class": ("str", REQUIRED), "ability": ("str", REQUIRED), "ability_text": ("str", REQUIRED),
             "fixed_powers": ("strs", REQUIRED), "power_pool": ("strs", REQUIRED),
             "choose": ("table", REQUIRED), "level_1": ("table", REQUIRED), "level_2": ("table", REQUIRED),
             **PROV}


def hero_level(raw, level: int, w: Where) -> HeroLevel:
    prefix = f"level_{level}."
    f = fields(raw, LEVEL_SPEC, w, prefix)
    for k in ("ac", "hp", "speed", "surge"):
        positive(f[k], w, prefix + k, 1)
    crit = None
    if f["critical"] is not None:
        if level == 1:
            w.fail(prefix + "critical", "is given but critical attacks come with level 2")
        c = fields(f["critical"], CRITICAL_SPEC, w, prefix + "critical.")
        crit = Critical(c["text"], positive(c["extra_damage"], w, prefix + "critical.extra_damage"),
                        positive(c["regain_hp"], w, prefix + "critical.regain_hp"))
    elif level == 2:
        w.fail(prefix + "critical", "is missing: level 2 brings a critical attack")
    if level == 1 and f["extra_daily"]:
        w.fail(prefix + "extra_daily", "is given at level 1")
    prov, note = provenance(f, w, prefix)
    return HeroLevel(level, f["ac"], f["hp"], f["speed"], f["surge"], f["extra_daily"], crit, prov, note)


def check_heroes(items: list, powers: dict) -> dict:
    out: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("heroes.toml", "hero", raw, i)
        f = fields(raw, HERO_SPEC, w)
        ident = f["id"]
        check_id(ident, f["name"], w, out)
        choose = fields(f["choose"], {k: ("int", 0) for k in POWER_KINDS}, w, "choose.")
        l1 = hero_level(f["level_1"], 1, w)
        l2 = hero_level(f["level_2"], 2, w)
        for field in ("fixed_powers", "power_pool"):
            for pid in f[field]:
                p = powers.get(pid)
                if p is None:
                    w.fail(field, f"names {pid!r}, not a power")
                if p.hero != ident:
                    w.fail(field, f"names {pid!r}, a power of {p.hero!r}")
                if p.fixed != (field == "fixed_powers"):
                    w.fail(field, f"names {pid!r}, whose fixed = {str(p.fixed).lower()}")
        for kind in POWER_KINDS:
            have = sum(powers[p].kind == kind for p in f["power_pool"])
            need = choose[kind] + (l2.extra_daily if kind == "daily" else 0)
            if have < need:
                w.fail("power_pool", f"has {have} {kind} powers but {need} are picked")
        prov, note = provenance(f, w)
        out[ident] = Hero(ident, f["name"], f["race"], f["class"], f["ability"], f["ability_text"],
                          tuple(f["fixed_powers"]), tuple(f["power_pool"]), choose, l1, l2, prov, note)
    for p in powers.values():
        w = Where("powers.toml", "power", p.id)
        if p.hero not in out:
            w.fail("hero", f"names {p.hero!r}, not a hero")
        h = out[p.hero]
        if p.id not in h.fixed_powers + h.power_pool:
            w.fail("hero", f"names {p.hero!r}, whose fixed_powers and power_pool leave it out")
    return out


# ------------------------------------------------------------------ monsters and villains

MONSTER_ATTACK_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "bonus": ("int", REQUIRED),
                       "damage": ("int", REQUIRED), "miss": ("int", 0), "area": ("str", "one"),
                       "conditions": ("strs", []), "heal_self": ("int", 0), "text": ("str", "")}
TACTIC_SPEC = {"if": ("str", REQUIRED), "and_if": ("str", ""), "within": ("int", None), "count": ("int", None),
               "hp": ("int", None), "marker": ("str", None), "do": ("str", REQUIRED), "attack": ("str", None),
               "focus": ("str", None), "tiles": ("int", None), "tile": ("str", None), "amount": ("int", None)}
MONSTER_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "cards": ("ints", REQUIRED),
                "type": ("str", REQUIRED), "ac": ("int", REQUIRED), "hp": ("int", REQUIRED), "xp": ("int", REQUIRED),
                "special": ("str", ""), "attacks": ("tables", REQUIRED), "tactics": ("tables", REQUIRED),
                "tactics_provenance": ("str", REQUIRED), "tactics_note": ("str", ""), **PROV}
VILLAIN_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "short": ("str", ""),
                "type": ("str", REQUIRED), "level": ("int", REQUIRED), "ac": ("int", REQUIRED),
                "hp": ("int", REQUIRED), "xp": ("int", REQUIRED), "large": ("bool", False), "figure": ("str", ""),
                "starts_with": ("strs", []), "special": ("str", ""), "attacks": ("tables", REQUIRED),
                "tactics": ("tables", REQUIRED), "tactics_provenance": ("str", REQUIRED),
                "tactics_note": ("str", ""), **PROV}


def monster_attacks(items: list, w: Where) -> tuple:
    out = []
    for j, raw in enumerate(items):
        p = f"attacks[{j}]."
        a = fields(raw, MONSTER_ATTACK_SPEC, w, p)
        if a["id"] != make_id(a["name"]):
            w.fail(p + "id", f"is {a['id']!r} but the name {a['name']!r} gives {make_id(a['name'])!r}")
        if any(x.id == a["id"] for x in out):
            w.fail(p + "id", "is used twice")
        word(a["area"], AREAS, w, p + "area")
        for c in a["conditions"]:
            word(c, HERO_CONDITIONS, w, p + "conditions")
        for k in ("damage", "miss", "heal_self"):
            positive(a[k], w, p + k)
        out.append(Attack(a["id"], a["name"], a["bonus"], a["damage"], a["miss"], a["area"],
                          tuple(a["conditions"]), a["heal_self"], a["text"]))
    if not out:
        w.fail("attacks", "is empty: a monster needs an attack")
    return tuple(out)


def tactics(items: list, attacks: tuple, w: Where, tiles: dict) -> tuple:
    if not items:
        w.fail("tactics", "is empty")
    out = []
    for j, raw in enumerate(items):
        p = f"tactics[{j}]."
        t = fields(raw, TACTIC_SPEC, w, p)
        cond = word(t["if"], tuple(CONDITIONS), w, p + "if")
        also = t["and_if"]
        if also:
            word(also, tuple(c for c in CONDITIONS if c != "otherwise"), w, p + "and_if")
            if cond == "otherwise":
                w.fail(p + "and_if", "is given on the otherwise line")
        last = j == len(items) - 1
        if last and cond != "otherwise":
            w.fail(p + "if", f"is {cond!r}: the last line is the default, if = \"otherwise\"")
        if not last and cond == "otherwise":
            w.fail(p + "if", "is 'otherwise' before the last line: the lines after it never run")
        takes = set(CONDITIONS[cond]) | (set(CONDITIONS[also]) if also else set())
        for k in CONDITION_FIELDS:
            if k in takes and t[k] is None:
                w.fail(p + k, f"is missing: {cond}{' and ' + also if also else ''} needs it")
            if k not in takes and t[k] is not None:
                w.fail(p + k, f"is given but {cond}{' and ' + also if also else ''} takes no {k}")
        act = word(t["do"], tuple(ACTIONS), w, p + "do")
        takes_act = set(ACTIONS[act])
        for k in ACTION_FIELDS:
            if k == "marker":
                if k in takes_act and t[k] is None:
                    w.fail(p + k, f"is missing: {act} needs it")
                if k not in takes_act and k not in takes and t[k] is not None:
                    w.fail(p + k, f"is given but neither {cond} nor {act} takes it")
                continue
            if k in takes_act and t[k] is None:
                w.fail(p + k, f"is missing: {act} needs it")
            if k not in takes_act and t[k] is not None:
                w.fail(p + k, f"is given but {act} takes no {k}")
        if t["attack"] is not None and all(a.id != t["attack"] for a in attacks):
            w.fail(p + "attack", f"names {t['attack']!r}, not one of this card's attacks")
        if t["focus"] is not None:
            word(t["focus"], FOCUS, w, p + "focus")
        if t["marker"] is not None:
            word(t["marker"], MARKERS, w, p + "marker")
        if t["tile"] is not None and t["tile"] not in tiles:
            w.fail(p + "tile", f"names {t['tile']!r}, not a tile")
        for k, low in (("within", 0), ("count", 1), ("hp", 0), ("tiles", 1), ("amount", 1)):
            positive(t[k], w, p + k, low)
        out.append(Tactic(cond, also, t["within"], t["count"], t["hp"], t["marker"], act, t["attack"],
                          t["focus"], t["tiles"], t["tile"], t["amount"]))
    return tuple(out)


def check_monsters(items: list, numbers: dict, tiles: dict) -> dict:
    out: dict = {}
    entries: set = set()
    for i, raw in enumerate(items):
        w = entry_where("monsters.toml", "monster", raw, i)
        f = fields(raw, MONSTER_SPEC, w)
        ident = f["id"]
        check_id(ident, f["name"], w, dict.fromkeys(entries))
        entries.add(ident)
        for k in ("ac", "hp", "xp"):
            positive(f[k], w, k, 1)
        attacks = monster_attacks(f["attacks"], w)
        lines = tactics(f["tactics"], attacks, w, tiles)
        tprov, tnote = provenance(f, w, key="tactics_provenance", note_key="tactics_note")
        prov, note = provenance(f, w)
        if not f["cards"]:
            w.fail("cards", "is empty")
        for n in f["cards"]:
            card_number(n, "monster", w, numbers, ident)
            cid = f"{ident}_{n}"
            out[cid] = MonsterCard(cid, ident, n, f["name"], f["type"], f["ac"], f["hp"], f["xp"], f["special"],
                                   attacks, lines, tprov, tnote, prov, note)
    return out


def check_villains(items: list, tiles: dict) -> dict:
    out: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("villains.toml", "villain", raw, i)
        f = fields(raw, VILLAIN_SPEC, w)
        ident = f["id"]
        check_id(ident, f["short"] or f["name"], w, out)
        for k in ("level", "ac", "hp", "xp"):
            positive(f[k], w, k, 1)
        for m in f["starts_with"]:
            word(m, MARKERS, w, "starts_with")
        attacks = monster_attacks(f["attacks"], w)
        lines = tactics(f["tactics"], attacks, w, tiles)
        tprov, tnote = provenance(f, w, key="tactics_provenance", note_key="tactics_note")
        prov, note = provenance(f, w)
        out[ident] = Villain(ident, f["name"], f["type"], f["level"], f["ac"], f["hp"], f["xp"], f["large"],
                             f["figure"] or ident, tuple(f["starts_with"]), f["special"], attacks, lines,
                             tprov, tnote, prov, note)
    for v in out.values():
        if v.figure not in out:
            Where("villains.toml", "villain", v.id).fail("figure", f"names {v.figure!r}, not a villain")
    return out


# ------------------------------------------------------------------ encounters and treasures

STEP_SPEC = {"do": ("str", REQUIRED), "who": ("str", None), "amount": ("int_or_str", None),
             "condition": ("str", None), "where": ("str", None), "pick": ("str", None), "up": ("bool", None),
             "bands": ("tables", None), "each_hero": ("bool", None), "name": ("str", None)}
BAND_SPEC = {"at_least": ("int", REQUIRED), "at_most": ("int", REQUIRED), "then": ("tables", REQUIRED)}


def steps(items: list, w: Where, prefix: str, that_hero: bool = False) -> tuple:
    out = []
    for j, raw in enumerate(items):
        p = f"{prefix}[{j}]."
        s = fields(raw, STEP_SPEC, w, p)
        do = word(s["do"], tuple(STEPS), w, p + "do")
        for k in STEP_FIELDS:
            if k in STEP_NEEDS.get(do, ()) and s[k] is None:
                w.fail(p + k, f"is missing: {do} needs it")
            if k not in STEPS[do] and s[k] is not None:
                w.fail(p + k, f"is given but {do} takes no {k}")
        if s["who"] is not None:
            word(s["who"], HEROES_HIT, w, p + "who")
            if s["who"] == "that_hero" and not that_hero:
                w.fail(p + "who", "is 'that_hero' outside an on_hit list or a roll made for each Hero")
        if s["condition"] is not None:
            word(s["condition"], HERO_CONDITIONS, w, p + "condition")
        if s["where"] is not None:
            word(s["where"], MONSTER_WHERE, w, p + "where")
        if s["pick"] is not None:
            word(s["pick"], ("choice", "random"), w, p + "pick")
        amount = s["amount"]
        if isinstance(amount, str):
            word(amount, AMOUNT_WORDS, w, p + "amount")
        elif amount is not None:
            positive(amount, w, p + "amount", 1)
        if s["name"] is not None and not re.fullmatch(r"[a-z0-9_]+", s["name"]):
            w.fail(p + "name", f"is {s['name']!r}: a handler name is lower case with _")
        bands = []
        if s["bands"] is not None:
            covered = []
            for b_i, braw in enumerate(s["bands"]):
                bp = f"{p}bands[{b_i}]."
                b = fields(braw, BAND_SPEC, w, bp)
                if not 1 <= b["at_least"] <= b["at_most"] <= 20:
                    w.fail(bp + "at_least", f"{b['at_least']}-{b['at_most']} is not a span of the d20")
                covered += range(b["at_least"], b["at_most"] + 1)
                bands.append(Band(b["at_least"], b["at_most"],
                                  steps(b["then"], w, bp + "then", that_hero or bool(s["each_hero"]))))
            if sorted(covered) != list(range(1, 21)):
                w.fail(p + "bands", "do not cover 1-20 once each")
        out.append(Step(do, s["who"], amount, s["condition"], s["where"], s["pick"], s["up"], tuple(bands),
                        bool(s["each_hero"]), s["name"]))
    return tuple(out)


ENC_ATTACK_SPEC = {"bonus": ("int", REQUIRED), "damage": ("int", REQUIRED), "miss": ("int", 0),
                   "target": ("str", REQUIRED), "conditions": ("strs", []), "rolls": ("int", 1),
                   "on_hit": ("tables", [])}
ENCOUNTER_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "cards": ("ints", REQUIRED),
                  "type": ("str", REQUIRED), "text": ("str", REQUIRED), "attack": ("table", None),
                  "disable": ("int", None), "steps": ("tables", []), **PROV}


def check_encounters(items: list, numbers: dict) -> dict:
    out: dict = {}
    entries: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("encounters.toml", "encounter", raw, i)
        f = fields(raw, ENCOUNTER_SPEC, w)
        ident = f["id"]
        check_id(ident, f["name"], w, entries, suffix_ok=True)
        entries[ident] = True
        kind = word(f["type"], ENCOUNTER_TYPES, w, "type")
        attack = None
        if f["attack"] is not None:
            if kind in ("environment", "event"):
                w.fail("attack", f"is given on an {kind}: only event-attacks and traps roll attacks")
            a = fields(f["attack"], ENC_ATTACK_SPEC, w, "attack.")
            word(a["target"], HEROES_HIT, w, "attack.target")
            for c in a["conditions"]:
                word(c, HERO_CONDITIONS, w, "attack.conditions")
            positive(a["damage"], w, "attack.damage")
            positive(a["rolls"], w, "attack.rolls", 1)
            if a["target"] == "that_hero":
                w.fail("attack.target", "is 'that_hero', which only a step inside on_hit may name")
            attack = EncounterAttack(a["bonus"], a["damage"], a["miss"], a["target"], tuple(a["conditions"]),
                                     a["rolls"], steps(a["on_hit"], w, "attack.on_hit", that_hero=True))
        elif kind == "event_attack":
            w.fail("attack", "is missing: an event-attack rolls an attack")
        if kind == "trap":
            if f["disable"] is None:
                w.fail("disable", "is missing: a trap has a disable number")
            if not 2 <= f["disable"] <= 20:
                w.fail("disable", f"is {f['disable']}, not a d20 roll")
        elif f["disable"] is not None:
            w.fail("disable", f"is given on an {kind}: only traps are disabled")
        st = steps(f["steps"], w, "steps")
        if not st and attack is None:
            w.fail("steps", "is empty and there is no attack: the card would do nothing")
        prov, note = provenance(f, w)
        if not f["cards"]:
            w.fail("cards", "is empty")
        for n in f["cards"]:
            card_number(n, "encounter", w, numbers, ident)
            cid = f"{ident}_{n}"
            out[cid] = Encounter(cid, ident, n, f["name"], kind, f["text"], attack, f["disable"], st, prov, note)
    return out


BONUS_SPEC = {"stat": ("str", REQUIRED), "amount": ("int", REQUIRED), "when": ("str", "always"),
              "who": ("str", "holder")}
TREASURE_SPEC = {"id": ("str", REQUIRED), "name": ("str", REQUIRED), "cards": ("ints", REQUIRED),
                 "type": ("str", REQUIRED), "lasts": ("str", REQUIRED), "text": ("str", REQUIRED),
                 "bonuses": ("tables", []), "attack": ("table", None), "steps": ("tables", []), **PROV}
LASTS_BY_TYPE = {"blessing": ("until_next_turn_end",), "fortune": ("instant",), "item": ("kept", "one_use"),
                 "adventure": ("kept", "one_use")}


def check_treasures(items: list, numbers: dict) -> dict:
    out: dict = {}
    entries: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("treasures.toml", "treasure", raw, i)
        f = fields(raw, TREASURE_SPEC, w)
        ident = f["id"]
        check_id(ident, f["name"], w, entries, suffix_ok=True)
        entries[ident] = True
        kind = word(f["type"], TREASURE_TYPES, w, "type")
        lasts = word(f["lasts"], LASTS, w, "lasts")
        if lasts not in LASTS_BY_TYPE[kind]:
            w.fail("lasts", f"is {lasts!r} but a {kind} lasts {' or '.join(LASTS_BY_TYPE[kind])}")
        bonuses = []
        for j, braw in enumerate(f["bonuses"]):
            p = f"bonuses[{j}]."
            b = fields(braw, BONUS_SPEC, w, p)
            word(b["stat"], BONUS_STATS, w, p + "stat")
            word(b["when"], BONUS_WHEN, w, p + "when")
            word(b["who"], BONUS_WHO, w, p + "who")
            bonuses.append(Bonus(b["stat"], b["amount"], b["when"], b["who"]))
        if bonuses and kind not in ("item", "adventure"):
            w.fail("bonuses", f"is given on a {kind}: only items give lasting bonuses")
        attack = power_attack(f["attack"], w, "attack.") if f["attack"] is not None else None
        st = steps(f["steps"], w, "steps")
        prov, note = provenance(f, w)
        if not f["cards"]:
            w.fail("cards", "is empty")
        for n in f["cards"]:
            card_number(n, "adventure" if kind == "adventure" else "treasure", w, numbers, ident)
            cid = f"{ident}_{n}"
            out[cid] = Treasure(cid, ident, n, f["name"], kind, lasts, f["text"], tuple(bonuses), attack, st,
                                prov, note)
    return out


# ------------------------------------------------------------------ adventures

STACK_SPEC = {"random": ("int_or_str", 0), "with": ("strs", []), "on_top": ("bool", False),
              "at_bottom": ("bool", False)}
CLAUSE_SPEC = {"when": ("str", None), "rule": ("str", None), "text": ("str", REQUIRED), "tile": ("str", None),
               "villain": ("str", None), "treasure": ("str", None), "token": ("str", None),
               "count": ("int_or_str", None), "where": ("str", None), "who": ("str", None), "ac": ("int", None),
               "hp": ("int", None), "trigger": ("str", None), "spaces": ("int", None), "advance": ("str", None),
               "amount": ("int", None)}
ADVENTURE_SPEC = {"id": ("str", REQUIRED), "number": ("int", None), "title": ("str", REQUIRED),
                  "ours": ("bool", False), "based_on": ("int", None), "players": ("ints", REQUIRED),
                  "goal": ("str", REQUIRED), "text": ("str", REQUIRED), "start_tiles": ("strs", REQUIRED),
                  "attached_tiles": ("strs", []), "heroes_at": ("str", REQUIRED), "surges": ("int", 2),
                  "villains": ("strs", []), "tiles": ("strs", []), "treasures": ("strs", []),
                  "monsters": ("strs", []), "tokens": ("strs", []), "setup_text": ("str", ""),
                  "stack": ("tables", REQUIRED), "stack_provenance": ("str", REQUIRED), "stack_note": ("str", ""),
                  "rules": ("tables", []), "victory": ("tables", REQUIRED), "defeat": ("tables", REQUIRED), **PROV}


def clauses(items: list, kinds: dict, key: str, w: Where, prefix: str, refs: dict) -> tuple:
    out = []
    for j, raw in enumerate(items):
        p = f"{prefix}[{j}]."
        c = fields(raw, CLAUSE_SPEC, w, p)
        other = "rule" if key == "when" else "when"
        if c[other] is not None:
            w.fail(p + other, f"is not a field of {prefix}: its word goes in {key}")
        if c[key] is None:
            w.fail(p + key, "is missing")
        kind = word(c[key], tuple(kinds), w, p + key)
        needs = kinds[kind]
        for k in CLAUSE_FIELDS + ("trigger", "spaces", "advance", "amount"):
            if k in needs and c[k] is None:
                w.fail(p + k, f"is missing: {kind} needs it")
            if k not in needs and c[k] is not None and not (kind == "villain_enters" and k in ("tile", "count")):
                w.fail(p + k, f"is given but {kind} takes no {k}")
        for k, table in (("tile", "tiles"), ("villain", "villains"), ("treasure", "treasures")):
            if c[k] is not None and c[k] not in refs[table]:
                w.fail(p + k, f"names {c[k]!r}, not one of the {table}")
        if c["token"] is not None:
            word(c["token"], TOKENS, w, p + "token")
        if c["trigger"] is not None:
            word(c["trigger"], TRIGGER_WORDS, w, p + "trigger")
        if c["advance"] is not None:
            word(c["advance"], ADVANCE_WORDS, w, p + "advance")
        if c["where"] is not None:
            word(c["where"], ESCAPE_WHERE, w, p + "where")
        if c["who"] is not None:
            word(c["who"], ESCAPE_WHO, w, p + "who")
        if isinstance(c["count"], str):
            word(c["count"], ("heroes",), w, p + "count")
        out.append(Clause(kind, c["text"], c["tile"], c["villain"], c["treasure"], c["token"], c["count"],
                          c["where"], c["who"], c["ac"], c["hp"], c["trigger"], c["spaces"], c["advance"],
                          c["amount"]))
    return tuple(out)


def check_adventures(items: list, refs: dict) -> dict:
    out: dict = {}
    numbers: dict = {}
    for i, raw in enumerate(items):
        w = entry_where("adventures.toml", "adventure", raw, i)
        f = fields(raw, ADVENTURE_SPEC, w)
        ident = f["id"]
        check_id(ident, f["title"], w, out)
        if f["ours"]:
            if f["number"] is not None:
                w.fail("number", "is given but the adventure is ours: the book's numbers are its own")
            if f["based_on"] is not None and not 1 <= f["based_on"] <= 13:
                w.fail("based_on", f"is {f['based_on']}, not an adventure of the book (1-13)")
        else:
            if f["number"] is None:
                w.fail("number", "is missing: a book adventure has its number")
            if not 1 <= f["number"] <= 13:
                w.fail("number", f"is {f['number']}, not 1-13")
            if f["number"] in numbers:
                w.fail("number", f"{f['number']} is already {numbers[f['number']]!r}")
            numbers[f["number"]] = ident
            if f["based_on"] is not None:
                w.fail("based_on", "is only for our own adventures")
        players = f["players"]
        if len(players) != 2 or not 1 <= players[0] <= players[1] <= 5:
            w.fail("players", f"is {players}: [fewest, most] within 1-5")
        word(f["heroes_at"], HEROES_AT, w, "heroes_at")
        positive(f["surges"], w, "surges")
        for field, table in (("start_tiles", "tiles"), ("attached_tiles", "tiles"), ("tiles", "tiles"),
                             ("villains", "villains"), ("treasures", "treasures"), ("monsters", "monsters")):
            for ref in f[field]:
                if ref not in refs[table]:
                    w.fail(field, f"names {ref!r}, not one of the {table}")
        for ref in f["treasures"]:
            if refs["treasure_types"][ref] != "adventure":
                w.fail("treasures", f"names {ref!r}, not an adventure treasure")
        for tok in f["tokens"]:
            word(tok, TOKENS, w, "tokens")
        if not f["start_tiles"]:
            w.fail("start_tiles", "is empty")
        stack = []
        for j, sraw in enumerate(f["stack"]):
            p = f"stack[{j}]."
            s = fields(sraw, STACK_SPEC, w, p)
            if isinstance(s["random"], str):
                word(s["random"], ("rest",), w, p + "random")
            else:
                positive(s["random"], w, p + "random")
            for t in s["with"]:
                if t not in refs["tiles"]:
                    w.fail(p + "with", f"names {t!r}, not a tile")
                if refs["tile_groups"][t] == "start":
                    w.fail(p + "with", f"names {t!r}, a half of the Start tile")
            if s["on_top"] and s["at_bottom"]:
                w.fail(p + "on_top", "and at_bottom are both set")
            if not s["with"] and not s["random"]:
                w.fail(p + "random", "is 0 and no tile is named: the part is empty")
            stack.append(StackPart(s["random"], tuple(s["with"]), s["on_top"], s["at_bottom"]))
        if not stack:
            w.fail("stack", "is empty")
        laid = set(f["start_tiles"]) | set(f["attached_tiles"])
        named = [t for part in stack for t in part.with_tiles]
        for t in named:
            if t in laid:
                w.fail("stack", f"names {t!r}, a tile already laid before play")
            if t not in f["tiles"]:
                w.fail("stack", f"names {t!r}, missing from the adventure's tiles")
        if len(set(named)) != len(named):
            w.fail("stack", "names a tile twice")
        dungeon = sum(g != "start" for g in refs["tile_groups"].values())
        free = dungeon - len(named) - sum(refs["tile_groups"][t] != "start" for t in laid)
        wanted = sum(p.random for p in stack if isinstance(p.random, int))
        if wanted > free:
            w.fail("stack", f"asks for {wanted} random tiles but only {free} are left")
        if sum(p.random == "rest" for p in stack) > 1:
            w.fail("stack", "uses random = \"rest\" twice")
        sprov, snote = provenance(f, w, key="stack_provenance", note_key="stack_note")
        rules = clauses(f["rules"], RULE_KINDS, "rule", w, "rules", refs)
        victory = clauses(f["victory"], VICTORY_KINDS, "when", w, "victory", refs)
        defeat = clauses(f["defeat"], DEFEAT_KINDS, "when", w, "defeat", refs)
        own = {"tile": laid | set(f["tiles"]), "villain": set(f["villains"]), "treasure": set(f["treasures"]),
               "token": set(f["tokens"])}
        for part, listed in (("rules", rules), ("victory", victory), ("defeat", defeat)):
            for j, c in enumerate(listed):
                for k, have in own.items():
                    value = getattr(c, k)
                    if value is not None and value not in have:
                        w.fail(f"{part}[{j}].{k}", f"names {value!r}, missing from the adventure's {k}s")
                if c.kind == "villain_enters":
                    if c.trigger == "tile_placed" and c.tile is None:
                        w.fail(f"{part}[{j}].tile", "is missing: trigger tile_placed names the tile")
                    if c.trigger == "tiles_placed" and not isinstance(c.count, int):
                        w.fail(f"{part}[{j}].count", "is missing: trigger tiles_placed counts the tiles")
                    if c.trigger not in ("tile_placed", "tiles_placed") and c.count is not None:
                        w.fail(f"{part}[{j}].count", f"is given but trigger {c.trigger} counts nothing")
        if not victory:
            w.fail("victory", "is empty")
        if not defeat:
            w.fail("defeat", "is empty")
        prov, note = provenance(f, w)
        if f["ours"] and prov != "provisional":
            w.fail("provenance", f"is {prov!r} but an adventure of ours is provisional")
        out[ident] = Adventure(ident, f["number"], f["title"], f["ours"], f["based_on"], players[0], players[1],
                               f["goal"], f["text"], tuple(f["start_tiles"]), tuple(f["attached_tiles"]),
                               f["heroes_at"], f["surges"], tuple(f["villains"]), tuple(f["tiles"]),
                               tuple(f["treasures"]), tuple(f["monsters"]), tuple(f["tokens"]), f["setup_text"],
                               tuple(stack), sprov, snote, rules, victory, defeat, prov, note)
    return out


# ------------------------------------------------------------------ loading

def _load(root: pathlib.Path) -> Content:
    numbers: dict = {}
    tiles = check_tiles(read(root, "tiles.toml", "tile"))
    powers = check_powers(read(root, "powers.toml", "power"), numbers)
    heroes = check_heroes(read(root, "heroes.toml", "hero"), powers)
    monsters = check_monsters(read(root, "monsters.toml", "monster"), numbers, tiles)
    villains = check_villains(read(root, "villains.toml", "villain"), tiles)
    encounters = check_encounters(read(root, "encounters.toml", "encounter"), numbers)
    treasures = check_treasures(read(root, "treasures.toml", "treasure"), numbers)
    refs = {"tiles": tiles, "villains": villains, "treasures": treasures,
            "monsters": {c.entry for c in monsters.values()},
            "treasure_types": {t.id: t.type for t in treasures.values()},
            "tile_groups": {t.id: t.group for t in tiles.values()}}
    adventures = check_adventures(read(root, "adventures.toml", "adventure"), refs)
    return Content(tiles, heroes, powers, monsters, villains, encounters, treasures, adventures)


@functools.lru_cache(maxsize=1)
def _default() -> Content:
    return _load(ROOT)


def load_content(root: pathlib.Path | str | None = None) -> Content:
    """The validated content of `root` (a folder of the eight files), or of the repo's
    rules_data/ravenloft/ (cached) when `root` is None. Raises ContentError."""
    if root is None:
        return _default()
    return _load(pathlib.Path(root))
