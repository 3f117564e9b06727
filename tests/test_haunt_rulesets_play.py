"""Every haunt with a rule set of its own, auto-played once from the start
with the haunt chosen in place of the chart's: no exception, every listed
action accepted (the built-in players pick only listed actions), the
invariants hold, no setup step is left to the players by hand, and the game
ends."""
import random

import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import rulesets
from tests.invariants import check


def started(engine, number: int, seed: int) -> tuple[dict, random.Random]:
    """A game of four just started, with haunt `number` chosen in place of the chart's, and its dice for the
    built-in players."""
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
    return state, rnd


def auto_game(engine, number: int, seed: int) -> dict:
    state, rnd = started(engine, number, seed)
    for _, state, events in autoplay.play(engine, state, rnd, max_actions=2500,
                                          check=lambda s: check(engine.content, s)):
        by_hand = [e["text"] for e in events if e["kind"] == "by_hand"]
        assert not by_hand, f"haunt {number} leaves its setup to the players: {by_hand[0]}"
    return state


@pytest.mark.parametrize("number", sorted(rulesets.REGISTRY))
def test_a_haunt_with_its_own_rules_plays_to_the_end(engine, number):
    state = auto_game(engine, number, seed=number * 101)
    assert state["haunt"] and state["haunt"]["number"] == number
    assert state["phase"] == "over", f"haunt {number} did not end in 2500 actions"
