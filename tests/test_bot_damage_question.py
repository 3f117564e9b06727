"""A built-in player asked to confirm a deadly-looking split of damage takes the split it chose: in haunt 21
(Priscilla) a split to the skull does not kill, the seat chose it as best, and judging "choose again" afresh
each time sent the same question round and round until the bench's action limit (3 games of 10)."""
import random

from bot.games.babg import autoplay

SEED = 21001  # bench/haunt_balance.py's seed for haunt 21's second game, which looped


def test_a_bot_seat_takes_the_damage_split_it_chose(engine):
    # Rulebook: Taking Damage (the player chooses how to split physical damage among Might and Speed)
    rnd = random.Random(SEED)
    content = engine.content
    chosen = []
    for aid in sorted(content.adventurers, key=lambda _: rnd.random()):
        if len(chosen) < rnd.randint(3, 6) and all(content.adventurers[a].card != content.adventurers[aid].card
                                                   for a in chosen):
            chosen.append(aid)
    state = engine.new_game(SEED, "play", {"chosen_haunt": 21})
    for i, aid in enumerate(chosen):
        state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    run, longest = 0, 0
    for action, state, _ in autoplay.play(engine, state, rnd, max_actions=4000):
        run = run + 1 if action["type"] == "decide" else 0
        longest = max(longest, run)
    assert state["phase"] == "over", "the haunt ends on a condition, not the action limit"
    assert longest < 40, f"{longest} answers in a row: a question going round"
