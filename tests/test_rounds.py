"""Turn numbers run on through the whole game, the haunt included, and each
turn says its round: a round is every seat (and the monster turn) once
round the turn order."""
import random

from bot.games.babg import autoplay
from tests.conftest import Game


def turns_of(events):
    return [e["text"] for e in events if e.get("kind") == "turn" and e["text"].startswith("Turn ")]


def test_turn_numbers_run_on_into_the_haunt_and_rounds_count_each_time_play_comes_round(engine):
    # Rulebook: Exploring the City (each player in turn, to the left) and The Haunt Begins (the first turn
    # goes to the traitor's left, the traitor and then the monsters last): a round is one pass of that order.
    g = Game(engine, adventurers=("torskar", "lia", "gretchen"), haunt="play")
    rnd = random.Random(3)
    seen = []  # (turn number, round, slot, phase) as each turn began
    state = g.state
    for _ in range(3000):
        if state["phase"] == "over" or (state["phase"] == "haunt" and len([s for s in seen if s[3] == "haunt"]) > 8):
            break
        before = state
        state, _ = engine.apply(state, autoplay.choose(engine.content, state, rnd))
        turn = state["turn"]
        if turn and (not before["turn"] or turn["number"] != before["turn"]["number"]):
            seen.append((turn["number"], state["round"], "monsters" if turn.get("monsters") else turn["player"],
                         state["phase"]))
    assert any(s[3] == "haunt" for s in seen), "the game reached the haunt"
    numbers = [s[0] for s in seen]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), "turn numbers never restart"
    exploring = [s for s in seen if s[3] == "exploring"]
    seats = len(state["seats"])
    assert [s[1] for s in exploring] == [1 + (s[0] - 1) // seats for s in exploring]
    first_haunt = next(i for i, s in enumerate(seen) if s[3] == "haunt")
    assert seen[first_haunt][1] == seen[first_haunt - 1][1] + 1, "the haunt's first turn opens a round"
    order = state["order"]
    for prev, nxt in zip(seen[first_haunt:], seen[first_haunt + 1:]):
        wrapped = order.index(nxt[2]) <= order.index(prev[2])
        assert nxt[1] == prev[1] + wrapped, (prev, nxt, order)


def test_each_turn_says_its_number_and_round(engine):
    g = Game(engine)
    first = g.state["turn"]
    assert first["number"] == 1 and g.state["round"] == 1
    for _ in range(len(g.state["seats"])):
        g.do("end", g.state["turn"]["player"])
    said = turns_of(g.events)
    assert said[-1].startswith(f"Turn {len(g.state['seats']) + 1} (round 2): "), said[-1]
