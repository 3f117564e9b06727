"""A game is reproduced exactly from its seed and action log."""
import json
import random

import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import IllegalAction
from tests.playout import new_auto_game


def test_replay_reproduces_state_and_events(engine):
    rnd = random.Random(5)
    state, log = new_auto_game(engine, 5, rnd)
    events = []
    for _ in range(200):
        action = autoplay.choose(engine.content, state, rnd)
        if action is None:
            break
        state, ev = engine.apply(state, action)
        events.append(ev)
        log.append(action)
    again, again_events = engine.replay(5, log)
    assert again == state
    flat = [e for ev in events for e in ev]
    assert again_events[-len(flat):] == flat


def test_state_survives_json(engine):
    rnd = random.Random(11)
    state, _ = new_auto_game(engine, 11, rnd)
    for _ in range(40):
        action = autoplay.choose(engine.content, state, rnd)
        state, _ = engine.apply(json.loads(json.dumps(state)), action)
    assert json.loads(json.dumps(state)) == state


def test_apply_leaves_the_given_state_untouched(engine):
    rnd = random.Random(3)
    state, _ = new_auto_game(engine, 3, rnd)
    frozen = json.dumps(state, sort_keys=True)
    engine.apply(state, {"type": "move", "player": state["turn"]["player"], "way": "west"})
    assert json.dumps(state, sort_keys=True) == frozen


def test_an_illegal_action_changes_nothing(engine):
    rnd = random.Random(3)
    state, _ = new_auto_game(engine, 3, rnd)
    frozen = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        engine.apply(state, {"type": "move", "player": state["turn"]["player"], "way": "up the chimney"})
    with pytest.raises(IllegalAction, match="Unknown action"):
        engine.apply(state, {"type": "dance", "player": "p0"})
    with pytest.raises(IllegalAction, match="not playing"):
        engine.apply(state, {"type": "end", "player": "stranger"})
    assert json.dumps(state, sort_keys=True) == frozen
