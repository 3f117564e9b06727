"""Setting up games for the built-in players (tests and benches)."""
import random


def new_auto_game(engine, seed: int, rnd: random.Random, players: int | None = None,
                  haunt: str = "play") -> tuple[dict, list]:
    """A started game with 3 to 6 seats, and the actions that made it."""
    content = engine.content
    n = players or rnd.randint(3, 6)
    chosen = []
    ids = list(content.adventurers)
    rnd.shuffle(ids)
    for aid in ids:
        if len(chosen) < n and all(content.adventurers[a].card != content.adventurers[aid].card for a in chosen):
            chosen.append(aid)
    actions = [{"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid}
               for i, aid in enumerate(chosen)]
    actions.append({"type": "start", "player": "p0"})
    state, _ = engine.replay(seed, actions, haunt=haunt)
    return state, actions


def haunt_game(engine, number: int, seed: int, rnd: random.Random) -> dict:
    """A started game of haunt `number` as bench/haunt_balance.py plays it: 3 to 6 adventurers of different
    cards, drawn with `rnd` (which then plays the game)."""
    content = engine.content
    chosen = []
    for aid in sorted(content.adventurers, key=lambda _: rnd.random()):
        if len(chosen) < rnd.randint(3, 6) and all(content.adventurers[a].card != content.adventurers[aid].card
                                                   for a in chosen):
            chosen.append(aid)
    state = engine.new_game(seed, "play", {"chosen_haunt": number})
    for i, aid in enumerate(chosen):
        state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    return state
