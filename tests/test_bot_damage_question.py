"""A built-in player asked to confirm a deadly-looking split of damage takes the split it chose: in haunt 21
(Priscilla) a split to the skull does not kill, the seat chose it as best, and judging "choose again" afresh
each time sent the same question round and round until the bench's action limit (3 games of 10)."""
import random

from bot.games.babg import autoplay
from tests.playout import haunt_game

SEED = 21001  # bench/haunt_balance.py's seed for haunt 21's second game, which looped


def test_a_bot_seat_takes_the_damage_split_it_chose(engine):
    # Rulebook: Taking Damage (the player chooses how to split physical damage among Might and Speed)
    rnd = random.Random(SEED)
    state = haunt_game(engine, 21, SEED, rnd)
    run, longest = 0, 0
    for action, state, _ in autoplay.play(engine, state, rnd, max_actions=4000):
        run = run + 1 if action["type"] == "decide" else 0
        longest = max(longest, run)
    assert state["phase"] == "over", "the haunt ends on a condition, not the action limit"
    assert longest < 40, f"{longest} answers in a row: a question going round"
