"""Take-back (/undo, the table's `undo`): a player's own actions of this turn,
back to the last thing that came out hidden. Not a rule of the book: the
table's courtesy, as Board Game Arena plays it (undo within your turn until a
die is rolled, a card or tile drawn, or a secret sent)."""
import json
import random

import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.playout import new_auto_game


def same(a: dict, b: dict) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def known_step(game):
    """Ends turns until the player whose turn it is can step onto a tile
    already laid; that player and the way."""
    for _ in range(6):
        pid = game.state["turn"]["player"]
        way = explored_way(game, pid)
        if way:
            return pid, way
        game.do("end", pid)
    raise AssertionError("no laid tile next to the player whose turn it is in this game")


def explored_way(game, pid):
    """A doorway of the player's tile leading to a tile already laid (no draw)."""
    for way, out in game.engine.ways_out(game.state, pid).items():
        if out.get("to") and not out.get("blocked") and not out.get("discover"):
            return way
    return None


def test_a_move_through_known_tiles_is_taken_back_exactly(game):
    pid, way = known_step(game)
    before = json.loads(json.dumps(game.state))
    game.do("move", pid, way=way)
    assert {"type": "undo", "player": pid} in legal_actions(game.c, game.state)
    events = game.do("undo", pid)
    assert events[0]["kind"] == "undo" and "takes back" in events[0]["text"]
    assert same(game.state, before)


def test_nothing_to_take_back_at_the_start_of_a_turn(game):
    with pytest.raises(IllegalAction, match="nothing to take back"):
        game.do("undo", "ann")


def test_drawing_a_tile_closes_the_take_back_and_says_so(game):
    ways = game.engine.ways_out(game.state, "ann")
    unexplored = next(w for w, out in ways.items() if out.get("discover") and not out.get("blocked"))
    game.do("move", "ann", way=unexplored)  # a new tile is drawn from its stack
    assert {"type": "undo", "player": "ann"} not in legal_actions(game.c, game.state)
    with pytest.raises(IllegalAction, match="a tile was drawn"):
        game.do("undo", "ann")


def test_only_the_player_who_acted_takes_back(game):
    pid, way = known_step(game)
    game.do("move", pid, way=way)
    other = next(p for p in game.state["seats"] if p != pid)
    with pytest.raises(IllegalAction, match="Only"):
        game.do("undo", other)


def test_a_view_never_carries_the_state_before_the_take_back(game):
    pid, way = known_step(game)
    game.do("move", pid, way=way)
    assert "base" in game.state["undo"]
    for who in (None, *game.state["seats"]):
        assert "base" not in view(game.state, who)["undo"]


@pytest.mark.parametrize("seed", range(4))
def test_apply_then_undo_gives_back_the_state_before_across_random_games(engine, seed):
    """Property: wherever a take-back is open, it returns exactly the state
    before the last action; a game with take-backs replays from its log."""
    rnd = random.Random(seed)
    state, log = new_auto_game(engine, seed, rnd, haunt="play")
    checked = 0
    previous = None
    for _ in range(600):
        if state["phase"] == "over":
            break
        action = autoplay.choose(engine.content, state, rnd)
        if action is None:
            break
        before = state
        state, _ = engine.apply(state, action)
        log.append(action)
        if any(a["type"] == "undo" for a in legal_actions(engine.content, state)):
            undone, _ = engine.apply(state, {"type": "undo", "player": action["player"]})
            assert same(undone, before), f"take-back of {action} differs from the state before it"
            checked += 1
            if rnd.random() < 0.3:  # sometimes keep the take-back and play on from it
                state = undone
                log.append({"type": "undo", "player": action["player"]})
        previous = action
    assert checked > 5, f"too few take-backs tried ({checked}; last action {previous})"
    replayed, _ = engine.replay(seed, log, haunt="play")
    assert same(replayed, state)
