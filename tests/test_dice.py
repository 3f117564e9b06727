from collections import Counter

from bot.games.babg.engine import rng
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.effects import dice_for


def test_die_faces():
    # Ruling: dice faces (each die shows 0, 0, 1, 1, 2, 2); Rulebook: Attempt a Die Roll
    state = {"rng": 12345}
    counts = Counter(rng.roll(state, 6000))
    assert set(counts) == {0, 1, 2}
    for face in (0, 1, 2):
        assert 1800 < counts[face] < 2200


def test_rolls_are_reproducible_from_the_seed():
    a, b = {"rng": 99}, {"rng": 99}
    assert rng.roll(a, 20) == rng.roll(b, 20)
    assert a == b


def test_never_more_than_eight_dice():
    # Ruling: more than 8 dice
    assert rng.dice_count(11) == 8
    assert rng.dice_count(0) == 1


def test_trait_roll_uses_the_current_value(game):
    # Rulebook: Attempt a Die Roll, "Trait Rolls" (roll dice equal to the current value)
    ctx = Ctx(game.c, game.state)
    assert dice_for(ctx, "ann", {"trait": "might"}) == (5, "Might")
    game.p("ann")["traits"]["might"] = 8
    assert dice_for(ctx, "ann", {"trait": "might"}) == (8, "Might")
