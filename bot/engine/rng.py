"""A small seeded generator whose whole state is one integer kept in the game
state (splitmix64), so saving a game saves its dice."""

MASK = (1 << 64) - 1
DIE_FACES = (0, 0, 1, 1, 2, 2)  # Ruling: each die shows 0, 0, 1, 1, 2, 2.
MAX_DICE = 8  # Ruling: never more than 8 dice.


def _next(state: dict) -> int:
    x = (state["rng"] + 0x9E3779B97F4A7C15) & MASK
    state["rng"] = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def below(state: dict, n: int) -> int:
    """A uniform integer in [0, n)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = MASK - (MASK % n)
    while True:
        x = _next(state)
        if x < limit:
            return x % n


def shuffle(state: dict, items: list) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def dice_count(n: int, at_least_one: bool = True) -> int:
    """Clamp a number of dice: at most 8, and at least 1 for a roll that asks
    for dice at all (Ruling: the 8-dice cap)."""
    n = min(n, MAX_DICE)
    return max(n, 1) if at_least_one else max(n, 0)


def roll(state: dict, n: int) -> list[int]:
    return [DIE_FACES[below(state, 6)] for _ in range(n)]
