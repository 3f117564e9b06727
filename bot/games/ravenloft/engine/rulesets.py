"""The adventures' rule sets, found from the adventure number in the state (the state stays plain
data), in the manner of python-chess's variants. Every adventure plays under the rulebook; one
whose rules its data cannot say has a module in `adventures/` with a `RuleSet` subclass registered
by number that answers only the hook points it changes. An adventure without a module plays under
`VillainHunt`: its villain appears on its special tile and the heroes win by defeating it.

Hook points (each gets the `Ctx` first; None or False leaves the rulebook's way):

- `start_tiles(ctx)` -> None or [tile ids] laid at the start instead of the Start tile;
- `hero_squares(ctx)` -> None or ["x,y"] where the heroes begin;
- `tile_stack(ctx, ordinary)` -> the tile stack made from the shuffled ordinary tiles;
- `after_setup(ctx)`: anything more the adventure lays out;
- `turn_started(ctx, pid)`, `hero_phase_ended(ctx, pid)`, `villain_phase_started(ctx, pid)`;
- `tile_placed(ctx, tkey, pid)`: after the new tile's monster is placed;
- `extra_encounters(ctx, pid)` -> how many more encounter cards this villain phase draws;
- `draws_encounters(ctx, pid)` -> False when this hero draws none (an escaped hero);
- `monster_defeated(ctx, fig, pid)`; `object_taken(ctx, pid, marker)`; `cancelled(ctx, pid)` (an
  encounter cancelled with experience);
- `attack_bonus(ctx, pid, fig)` -> what the adventure adds to a hero's attack roll on `fig`;
- `escape_squares(ctx)` -> the squares a hero escapes from at the end of a hero phase (or []);
- `check(ctx)` -> None or (result, condition, text): the adventure's own victory or defeat, asked
  after every action."""

REGISTRY: dict = {}


class RuleSet:
    number = 0
    title = ""
    solo = False
    left_to_players: tuple = ()

    def start_tiles(self, ctx):
        return None

    def hero_squares(self, ctx):
        return None

    def tile_stack(self, ctx, ordinary: list) -> list:
        return ordinary

    def after_setup(self, ctx):
        return None

    def turn_started(self, ctx, pid):
        return None

    def hero_phase_ended(self, ctx, pid):
        return None

    def villain_phase_started(self, ctx, pid):
        return None

    def tile_placed(self, ctx, tkey, pid):
        return None

    def extra_encounters(self, ctx, pid) -> int:
        return 0

    def draws_encounters(self, ctx, pid) -> bool:
        return not ctx.s["players"][pid].get("escaped")

    def monster_defeated(self, ctx, fig, pid):
        return None

    def object_taken(self, ctx, pid, marker):
        return None

    def cancelled(self, ctx, pid):
        return None

    def escape_squares(self, ctx) -> list:
        return []

    def attack_bonus(self, ctx, pid, fig) -> int:
        return 0

    def check(self, ctx):
        return None

    def record(self, s: dict) -> dict:
        return s.setdefault("adv", {})


def register(number):
    """Class decorator: the rule set of the adventure with this book number (an int) or, for our own
    adventures, this id (a str)."""
    def add(cls):
        if number in REGISTRY:
            raise ValueError(f"adventure {number} has two rule sets")
        cls.number = number
        REGISTRY[number] = cls()
        return cls
    return add


FALLBACK: dict = {}


def fallback(cls):
    """Class decorator: the rule set of every adventure without its own module."""
    FALLBACK["default"] = cls()
    return cls


def active(state: dict) -> RuleSet:
    n = state.get("adventure")
    if isinstance(n, str) and n in REGISTRY:
        return REGISTRY[n]
    try:
        n = int(n)
    except (TypeError, ValueError):
        n = 0
    return REGISTRY.get(n) or FALLBACK.get("default") or RuleSet()
