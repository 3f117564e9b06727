"""Every haunt with a rule set of its own, auto-played once from the start
with the haunt chosen in place of the chart's: no exception, every listed
action accepted (the built-in players pick only listed actions), the
invariants hold, and the game ends."""
import random

import pytest

from bot import autoplay
from bot.engine import rulesets
from tests.invariants import check


def auto_game(engine, number: int, seed: int) -> dict:
    rnd = random.Random(seed)
    content = engine.content
    chosen = []
    for aid in sorted(content.adventurers, key=lambda _: rnd.random()):
        if len(chosen) < 4 and all(content.adventurers[a].card != content.adventurers[aid].card for a in chosen):
            chosen.append(aid)
    state = engine.new_game(seed, "play", {"chosen_haunt": number})
    for i, aid in enumerate(chosen):
        state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=2500, check=lambda s: check(engine.content, s)):
        pass
    return state


@pytest.mark.parametrize("number", sorted(rulesets.REGISTRY))
def test_a_haunt_with_its_own_rules_plays_to_the_end(engine, number):
    state = auto_game(engine, number, seed=number * 101)
    assert state["haunt"] and state["haunt"]["number"] == number
    assert state["phase"] == "over", f"haunt {number} did not end in 2500 actions"
