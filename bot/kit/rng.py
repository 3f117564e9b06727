"""A small seeded generator whose whole state is one integer kept in the game state under "rng"
(splitmix64), so saving a game saves its dice. Every system draws its chance from here, so a game
replays exactly from its seed and its action log."""

MASK = (1 << 64) - 1


def seeded(seed: int) -> int:
    """The generator's starting value for a game seed."""
    return seed & MASK


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
    """A new list: `items` in a random order (Fisher-Yates)."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def die(state: dict, sides: int) -> int:
    """One roll of a die with `sides` faces numbered from 1 (a d20: die(state, 20))."""
    return below(state, sides) + 1
