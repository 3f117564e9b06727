"""Simple built-in players: they pick among the legal actions with a bias
towards exploring, so whole games play themselves (a demo and a simulation)."""
import random

from bot.engine.legal import legal_actions

WEIGHTS = {"move": 4, "use": 1, "pickup": 2, "roll": 2, "drop": 0.05, "trade": 0.1, "end": 1}


def choose(content, state: dict, rnd: random.Random) -> dict | None:
    options = legal_actions(content, state)
    if not options:
        return None
    if options[0]["type"] == "decide":
        return rnd.choice(options)
    weights = []
    for a in options:
        w = WEIGHTS.get(a["type"], 1)
        if a["type"] == "move" and a["way"] in ("stairs", "grate"):
            w /= 2
        weights.append(w)
    return rnd.choices(options, weights)[0]


def play(engine, state: dict, rnd: random.Random, max_actions: int = 5000, check=None):
    """Play until the game ends or `max_actions`; yields (action, state, events)."""
    for _ in range(max_actions):
        action = choose(engine.content, state, rnd)
        if action is None:
            return
        state, events = engine.apply(state, action)
        if check:
            check(state)
        yield action, state, events
