"""Hostile input for the engine's door, shared by the property tests and
`bench/fuzz.py`: actions that are almost right, plainly wrong, or malicious."""
import math
import random

from hypothesis import strategies as hs

from bot.games.babg.engine.actions import VERBS

FIELDS = sorted({f for fields in VERBS.values() for f in fields})
WEIRD_TEXT = ["", " ", "north", "NORTH", "stairs", "grate", "might", "Speed", "heroes", "traitor", "all",
              "quest", "Beholder 1", "m1", "²", "٣", "1e999", "nan", "inf", "-0", "+1", "\x00", "\n", "\u202e",
              "@everyone", "<@&1>", "x" * 300, "Ann", "ann", "p0", "p1", "p9", "potion_of_healing",
              "Potion of Healing", "elfsong_tavern", "🎲", "yes", "no"]
WEIRD_VALUES = [None, True, False, 0, 1, -1, 2, 7, 10 ** 5000, -(10 ** 30), 1.5, math.nan, math.inf, -math.inf,
                [], ["north"], {}, {"a": 1}, (1, 2), b"bytes"]


def _players(state: dict) -> list[str]:
    return list(state["seats"]) + ["stranger", ""]


def values():
    return hs.one_of(hs.sampled_from(WEIRD_TEXT), hs.sampled_from(WEIRD_VALUES), hs.text(max_size=12),
                     hs.integers(min_value=-10 ** 6, max_value=10 ** 6))


def hostile_actions(state: dict):
    """A strategy: a type (real or not), a player (seated, a stranger, or not
    a string), and fields with right names or wrong ones, right types or
    wrong ones."""
    kinds = hs.one_of(hs.sampled_from(sorted(VERBS)), hs.sampled_from(["", "explode", None, 3, "Move"]))
    players = hs.one_of(hs.sampled_from(_players(state)), hs.sampled_from([None, 5, ["p0"], "\x07"]))
    fields = hs.dictionaries(hs.one_of(hs.sampled_from(FIELDS), hs.sampled_from(["bogus", "state", "rng"])),
                             values(), max_size=4)
    return hs.builds(lambda k, p, f: {**f, "type": k, "player": p}, kinds, players, fields)


def random_action(state: dict, rnd: random.Random) -> dict:
    """The same without hypothesis, for the long run in bench/fuzz.py."""
    pool = WEIRD_TEXT + WEIRD_VALUES
    action = {"type": rnd.choice(sorted(VERBS) + ["explode", None]),
              "player": rnd.choice(_players(state) + [None, 5])}
    for _ in range(rnd.randint(0, 4)):
        action[rnd.choice(FIELDS + ["bogus"])] = rnd.choice(pool + [rnd.randint(-50, 50)])
    return action


def strict_json_problem(value, path="state") -> str | None:
    """Why `value` would not survive strict JSON unchanged, or None."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, int):
        return None if abs(value) < 2 ** 64 else f"{path}: a huge number"  # the RNG keeps 64 bits
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path}: {value}"
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = strict_json_problem(item, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path}: key {key!r} is not text"
            found = strict_json_problem(item, f"{path}.{key}")
            if found:
                return found
        return None
    return f"{path}: a {type(value).__name__}"


def shares_containers(state, action: dict) -> bool:
    """True when a list or dict of the action is inside the state."""
    owned = {id(v) for v in action.values() if isinstance(v, (list, dict))}
    if not owned:
        return False
    stack = [state]
    while stack:
        item = stack.pop()
        if id(item) in owned:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
