"""The engine's door: random and hostile actions at random points of real
games are refused with the engine's own reason and nothing else; a refused
action leaves the state exactly as it was; an accepted one leaves strict JSON
with nothing of the caller's inside. Reading the legal actions changes
nothing. (Property tests; `bench/fuzz.py --minutes N` runs the long version.)"""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bot.games.babg import autoplay
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.actions import VERBS
from bot.games.babg.engine.legal import legal_actions
from tests.fuzzing import hostile_actions, strict_json_problem, shares_containers
from tests.playout import new_auto_game


def game_points(engine, seeds=(3, 9, 24, 29, 47, 58), every=23) -> list[dict]:
    """States met along auto-played games: the lobby, exploring, the reveal's
    Ready, hero, traitor and monster turns, pending questions."""
    points = [engine.new_game(1, "play")]
    for seed in seeds:
        rnd = random.Random(seed)
        state, _ = new_auto_game(engine, seed, rnd, haunt="play")
        for i, (action, state, _) in enumerate(autoplay.play(engine, state, rnd, max_actions=900)):
            if i % every == 0 or state["pending"] or (state.get("turn") or {}).get("monsters") and i % 5 == 0:
                points.append(state)
    return points


@pytest.fixture(scope="module")
def points(engine):
    return game_points(engine)


def test_the_points_cover_every_stage(points):
    stages = {p["phase"] for p in points}
    assert {"lobby", "exploring", "haunt"} <= stages
    assert any(p["pending"] for p in points)
    assert any((p.get("turn") or {}).get("monsters") for p in points)
    assert any(p["phase"] == "haunt" and not p["haunt"]["started"] for p in points)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_hostile_actions_are_refused_cleanly(engine, points, data):
    state = data.draw(hs.sampled_from(points))
    action = data.draw(hostile_actions(state))
    before = json.dumps(state, sort_keys=True)
    kept = copy.deepcopy(action)
    try:
        after, events = engine.apply(state, action)
    except IllegalAction as refusal:
        assert refusal.reason and isinstance(refusal.reason, str)
    else:
        assert strict_json_problem(after) is None, strict_json_problem(after)
        assert not shares_containers(after, action), "the state holds a list or dict the caller owns"
        json.dumps(events, allow_nan=False)
    assert json.dumps(state, sort_keys=True) == before, "the given state changed"
    assert action == kept, "the caller's action changed"


def test_every_verb_has_a_handler(engine):
    # (a take-back replaces the whole state, so apply handles it itself: Engine._take_back)
    assert all(hasattr(engine, f"_do_{verb}") for verb in VERBS if verb != "undo")
    assert hasattr(engine, "_take_back")


def test_reading_the_legal_actions_changes_nothing(engine, points):
    # Found: the Deck of Many Things' tokens were created by merely checking whether it could be used
    for state in points:
        before = copy.deepcopy(state)
        legal_actions(engine.content, state)
        assert state == before


def test_every_listed_action_is_accepted(engine, points):
    for state in points:
        for action in legal_actions(engine.content, state):
            try:
                engine.apply(state, action)
            except IllegalAction as e:
                pytest.fail(f"{action} is listed but refused: {e.reason}")
