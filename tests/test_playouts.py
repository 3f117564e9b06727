"""Random playouts: built-in players play whole games from setup to the haunt
reveal; the invariants are checked after every action, and the action log
replays to the same state. Every card must be drawn and resolved somewhere
in the full run."""
import os
import random
from collections import defaultdict

from bot.games.babg import autoplay
from tests.invariants import check, round_trips
from tests.playout import new_auto_game

GAMES = int(os.environ.get("PLAYOUT_GAMES", "1000"))
MAX_ACTIONS = 3000


class CardStats:
    """What happened to each card: drawn, resolved (its steps all ran), used,
    and the kinds of events its steps produced."""

    def __init__(self):
        self.drawn, self.resolved, self.used = set(), set(), set()
        self.kinds = defaultdict(set)
        self.open = set()

    def after(self, state, events):
        for ev in events:
            if ev["kind"] in ("draw", "take") and ev.get("card"):
                self.drawn.add(ev["card"])
                self.open.add(ev["card"])
            if ev["kind"] == "use" and ev.get("card"):
                self.used.add(ev["card"])
                self.open.add(ev["card"])
            if ev.get("src"):
                self.kinds[ev["src"]].add(ev["kind"])
        busy = {task["source"] for task in state["queue"]}
        busy |= {st["card"] for task in state["queue"] for st in task["steps"] if st.get("do") == "_settle_event"}
        for card in list(self.open):
            if card not in busy:
                self.resolved.add(card)
                self.open.discard(card)


def play_one(engine, seed, stats: CardStats | None = None, haunt: str = "stop", max_actions: int = MAX_ACTIONS):
    rnd = random.Random(seed)
    state, log = new_auto_game(engine, seed, rnd, haunt=haunt)
    check(engine.content, state)
    for _ in range(max_actions):
        action = autoplay.choose(engine.content, state, rnd)
        if action is None:
            break
        state, events = engine.apply(state, action)
        log.append(action)
        check(engine.content, state)
        if stats:
            stats.after(state, events)
        if len(log) % 25 == 0:
            round_trips(state)
    round_trips(state)
    return state, log


def test_random_playouts_keep_every_invariant(engine):
    reached_haunt = 0
    stats = CardStats()
    for seed in range(GAMES):
        state, log = play_one(engine, seed, stats)
        assert state["phase"] == "over", f"seed {seed}: game did not reach the haunt in {MAX_ACTIONS} actions"
        reached_haunt += state["haunt"] is not None
        replayed, _ = engine.replay(seed, log, haunt="stop")
        assert replayed == state, f"seed {seed}: replaying the log gave a different state"
    assert reached_haunt == GAMES
    cards = engine.content.cards
    usable = {c for c in cards if cards[c].on_use and not cards[c].weapon}
    print(f"{GAMES} games; cards drawn at least once: {len(stats.drawn)} of {len(cards)}; "
          f"resolved: {len(stats.resolved)} of {len(cards)}; used: {len(stats.used & usable)} of the "
          f"{len(usable)} with a use (the rest wait for the haunt); cards whose own steps made events: "
          f"{len(set(stats.kinds) & set(cards))}")
    never = sorted(set(cards) - stats.resolved)
    if never:
        print("never resolved:", ", ".join(never))
    if GAMES >= 1000:
        assert stats.drawn == set(cards) and stats.resolved == set(cards), never
