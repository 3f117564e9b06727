"""Hook points: the core rules say when something happens, or ask what the
cards, tiles, powers and the active haunt have to add; whatever is in play
answers. No core rule names a card, a tile, a power or a haunt: they
subscribe here (`@hooks.on("leave_cost")`), and the active haunt's rule set
answers through a method of the same name (see bot.engine.rulesets).

Each point below says what its subscribers receive and return, and how the
answers are combined by the caller (`fire` lists them, `total` adds them,
`first` takes the first that is not None).
"""
from collections import defaultdict

from . import rulesets

POINTS = {
    # movement (rulebook: Movement, Moving Past Opponents)
    "leave_cost": "(ctx, pid) -> extra spaces to leave the tile; total",
    "leave_blocked": "(ctx, pid) -> why the adventurer may not leave, or None; first",
    "leaving": "(ctx, pid, tile) -> None; may queue steps that run before the step away",
    "watched": "(ctx, mover, tile) -> steps to run before a mover (adventurer or monster id) arrives, or None; first",
    "entered": "(ctx, mover, tile) -> None; a mover (adventurer or monster id) arrived",
    # the haunt (rulebook: The Haunt; Playing the Haunt; How Monsters Work)
    "traitor_named": "(ctx, pid) -> None; a player has just become a known traitor",
    "death": "(ctx, pid, killer) -> None; an adventurer has died (their cards not yet dropped)",
    "monster_killed": "(ctx, monster_id) -> None",
    "next_slot": "(ctx) -> True when the haunt's turn order took over; first",
    "turn_started": "(ctx, pid) -> None",
    "turn_ending": "(ctx, pid) -> steps to run at the end of the turn; fire",
    "monster_turn": "(ctx, number) -> True when the haunt runs its own monster turn; first",
    "win_check": "(ctx) -> (side, why) when a haunt's own condition is met, or None; first",
    "setup_step": "(ctx, step) -> True when the haunt carried the step out itself; first",
}

_subscribers: dict[str, list] = defaultdict(list)


def on(point: str):
    """Subscribe a function to a hook point."""
    if point not in POINTS:
        raise KeyError(f"no hook point {point!r}; the points are listed in bot.engine.hooks.POINTS")

    def register(fn):
        _subscribers[point].append(fn)
        return fn
    return register


def _answers(point: str, ctx, *args):
    ruleset = rulesets.active(ctx)  # the haunt first: where it and the rulebook differ, the haunt wins
    if ruleset is not None and hasattr(ruleset, point):
        yield getattr(ruleset, point)(ctx, *args)
    for fn in _subscribers[point]:
        yield fn(ctx, *args)


def fire(point: str, ctx, *args) -> list:
    """Every answer that is not None: the active haunt's first, then the
    subscribers' in the order they subscribed."""
    return [a for a in _answers(point, ctx, *args) if a is not None]


def total(point: str, ctx, *args) -> int:
    return sum(fire(point, ctx, *args))


def first(point: str, ctx, *args):
    for answer in _answers(point, ctx, *args):
        if answer is not None:
            return answer
    return None
