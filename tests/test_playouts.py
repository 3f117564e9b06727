"""Random playouts: built-in players play whole games from setup to the haunt
reveal; the invariants are checked after every action, and the action log
replays to the same state."""
import os
import random

from bot import autoplay
from tests.invariants import check, round_trips
from tests.playout import new_auto_game

GAMES = int(os.environ.get("PLAYOUT_GAMES", "1000"))
MAX_ACTIONS = 3000


def play_one(engine, seed):
    rnd = random.Random(seed)
    state, log = new_auto_game(engine, seed, rnd)
    check(engine.content, state)
    for _ in range(MAX_ACTIONS):
        action = autoplay.choose(engine.content, state, rnd)
        if action is None:
            break
        state, _ = engine.apply(state, action)
        log.append(action)
        check(engine.content, state)
        if len(log) % 25 == 0:
            round_trips(state)
    round_trips(state)
    return state, log


def test_random_playouts_keep_every_invariant(engine):
    reached_haunt = 0
    drawn = set()
    for seed in range(GAMES):
        state, log = play_one(engine, seed)
        assert state["phase"] == "over", f"seed {seed}: game did not reach the haunt in {MAX_ACTIONS} actions"
        reached_haunt += state["haunt"] is not None
        replayed, _ = engine.replay(seed, log)
        assert replayed == state, f"seed {seed}: replaying the log gave a different state"
        for deck in ("event", "item", "omen"):
            drawn |= set(engine.content.deck(deck)) - set(state["decks"][deck])
    assert reached_haunt == GAMES
    print(f"{GAMES} games; cards drawn at least once: {len(drawn)} of {len(engine.content.cards)}")
