"""The haunts' rule sets, found from the haunt number in the state (the
state stays plain data). A haunt whose rules its data can say needs no
module: the haunt's flow (bot.games.babg.engine.haunt_play) carries out its setup, turn
order, monster turn and wins from its file. A haunt that needs more has a
small module in bot/games/babg/engine/haunts/ with a `RuleSet` subclass that answers
only the hook points it changes (bot.games.babg.engine.hooks.POINTS), registered here
by number, in the manner of python-chess's variants."""

from dataclasses import dataclass, field
from typing import Callable

REGISTRY: dict[int, "RuleSet"] = {}

# The kinds of a declared move's argument and the action field that carries each (ids, never names).
ARG_FIELDS = {"player": "target", "monster": "target", "tile": "tile", "card": "card", "way": "way",
              "number": "number"}
WHO = ("any", "heroes", "traitors")
WHEN = ("own_turn", "monster_turn", "any_turn")


@dataclass(frozen=True)
class Arg:
    """One argument of a declared move: its kind (a key of ARG_FIELDS) and
    `values(ctx, pid)`, the ids it may take now (a player, a monster, a
    tile, a card, a way out, a number), in a stable order."""
    kind: str
    values: Callable
    label: str = ""  # what the argument is, for a select's placeholder ("Which hero?")

    @property
    def field(self) -> str:
        return ARG_FIELDS[self.kind]


@dataclass(frozen=True)
class Move:
    """A haunt's special move, declared (boardgame.io's `moves`,
    python-chess's `legal_moves`): the engine refuses any other, lists it
    for the buttons and the built-in players, and checks who, when, the
    trait and every argument at the door before `run(ctx, pid, trait,
    **args)` carries it out (raising IllegalAction where a rule forbids it).

    - `name`: one word, what the action's `task` field carries;
    - `label`: the words a button shows ("Search for Alchemist's Fire");
    - `traits`: the traits it may roll, the mover picking one when there
      are several; () for a move that rolls nothing;
    - `who`: "heroes", "traitors" or "any" (a known or hidden traitor
      counts as a traitor); `allowed(ctx, pid)` narrows it further (None
      when the player may, else the reason);
    - `when`: "own_turn", "monster_turn" (by whoever runs the monsters) or
      "any_turn" (either of those);
    - `once_per_turn`: a task roll attempted once a turn (rulebook: Attempt
      a Die Roll); `instead_of_attack`: it spends the turn's attack;
    - `summary`: one line of what it does, for `content --haunts` and the
      rules a player reads."""
    name: str
    label: str
    run: Callable
    traits: tuple = ()
    args: tuple = ()
    who: str = "any"
    when: str = "own_turn"
    once_per_turn: bool = False
    instead_of_attack: bool = False
    allowed: Callable | None = None
    summary: str = ""

    def __post_init__(self):
        if not self.name.replace("_", "").isalpha() or self.name != self.name.lower():
            raise ValueError(f"move name {self.name!r}: one lower-case word")
        if self.who not in WHO or self.when not in WHEN:
            raise ValueError(f"move {self.name!r}: who must be one of {WHO}, when one of {WHEN}")
        unknown = [t for t in self.traits if t not in ("might", "speed", "knowledge", "sanity")]
        fields = [a.field for a in self.args]
        if unknown or len(set(fields)) != len(fields) or any(a.kind not in ARG_FIELDS for a in self.args):
            raise ValueError(f"move {self.name!r}: unknown trait {unknown} or argument kinds {fields}")


@dataclass(frozen=True)
class Own:
    """A haunt's own record in the game's haunt record, declared: its key,
    its starting value, the fields that name players (renamed everywhere
    when a seat is handed over) and what nobody may see (the view hides
    the whole record, or the fields named)."""
    key: str
    start: dict = field(default_factory=dict)
    players: tuple = ()  # fields holding player ids: a str, a list of them, or a dict keyed by them
    secret: bool = False  # nobody may see any of it until the game ends
    secret_fields: tuple = ()  # the fields nobody may see, where the rest is public
    beside: tuple = ()  # public keys of the haunt record beside a secret record, naming players (renamed too)


class RuleSet:
    """A haunt's own rules. Define a method named after a hook point to
    answer it (e.g. `def next_slot(self, ctx)`); answer None to leave the
    default in place. The state lives in the game, never here."""
    number: int = 0
    title: str = ""
    secret: tuple = ()               # keys of its own state in the haunt record nobody may see (bot.games.babg.engine.view)
    secret_token_fields: tuple = ()  # fields of its face-down tokens nobody may see
    moves: tuple = ()                # its declared special moves (Move), the only `task` actions it accepts
    own: Own | None = None           # its own record, declared
    left_to_players: tuple = ()      # rules it leaves to the table, each with its reason (content --haunts)
    every_hero_dead_wins: bool = False  # the traitor wins once every hero is dead, though its goal says otherwise
    # (docs/rulings.md, "Every hero dead"): set where nothing is left for the traitor's side to do

    def record(self, s: dict) -> dict:
        """Its own record in the game `s`, made from the declared start the first time."""
        return s["haunt"].setdefault(self.own.key, _fresh(self.own.start))

    def move(self, name: str) -> "Move | None":
        return next((m for m in self.moves if m.name == name), None)


def _fresh(value):
    """A deep copy of a declared start value (plain data only)."""
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


def rename_in_record(ruleset: RuleSet, s: dict, old: str, new: str):
    """A seat handed over: every player id in the haunt's declared player
    fields renamed."""
    if ruleset.own is None or not s.get("haunt"):
        return
    for name in ruleset.own.beside:
        if name in s["haunt"]:
            s["haunt"][name] = renamed(s["haunt"][name], old, new)
    if ruleset.own.key not in s["haunt"]:
        return
    record = s["haunt"][ruleset.own.key]
    for name in ruleset.own.players:
        if name in record:
            record[name] = renamed(record[name], old, new)


def renamed(value, old: str, new: str):
    """`value` (plain data) with every string equal to `old`, and every dict key, now `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): renamed(v, old, new) for k, v in value.items()}
    return value


def register(number: int):
    """Class decorator: the rule set of haunt `number`."""
    def add(cls):
        if number in REGISTRY:
            raise ValueError(f"haunt {number} has two rule sets: {type(REGISTRY[number]).__name__} and {cls.__name__}")
        cls.number = number
        REGISTRY[number] = cls()
        return cls
    return add


def active(ctx) -> RuleSet | None:
    """The rule set of the haunt being played, if it has its own."""
    h = ctx.s.get("haunt")
    if not h or ctx.s.get("phase") != "haunt":
        return None
    return REGISTRY.get(h["number"])
