"""A small seeded generator whose whole state is one integer kept in the game
state (splitmix64), so saving a game saves its dice."""

from bot.kit.rng import MASK, _next, below, shuffle  # noqa: F401  (the shared generator)

DIE_FACES = (0, 0, 1, 1, 2, 2)  # Ruling: each die shows 0, 0, 1, 1, 2, 2.
MAX_DICE = 8  # Ruling: never more than 8 dice.


def dice_count(n: int, at_least_one: bool = True) -> int:
    """Clamp a number of dice: at most 8, and at least 1 for a roll that asks
    for dice at all (Ruling: the 8-dice cap)."""
    n = min(n, MAX_DICE)
    return max(n, 1) if at_least_one else max(n, 0)


def roll(state: dict, n: int) -> list[int]:
    return [DIE_FACES[below(state, 6)] for _ in range(n)]
