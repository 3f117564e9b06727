"""Rulebook: Traits."""
import re

from bot.games.babg.engine import traits
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.effects import take_damage


def test_gain_stops_at_the_maximum(game):
    # Rulebook: Traits ("can't be exceeded even if an effect would increase it")
    ctx = Ctx(game.c, game.state)
    game.p("ann")["traits"]["might"] = 7
    moved = traits.change(ctx, "ann", "might", +3)
    assert moved == 1 and game.p("ann")["traits"]["might"] == 8
    assert game.value("ann", "might") == 8


def test_before_the_haunt_nothing_drops_below_the_lowest_step(game):
    # Rulebook: Traits ("no trait can go below its lowest number"); Ruling: damage at the lowest step
    ctx = Ctx(game.c, game.state)
    game.p("ann")["traits"]["sanity"] = 2
    moved = traits.change(ctx, "ann", "sanity", -5)
    assert moved == -1 and game.p("ann")["traits"]["sanity"] == 1
    assert game.value("ann", "sanity") == 2  # Torskar's lowest Sanity


def test_physical_damage_is_split_as_the_player_chooses(game):
    # Rulebook: Traits, "Damage" (physical between Might and Speed)
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "physical", 2)
    pending = game.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "damage"
    assert [re.sub(r" \(.*?\)", "", o) for o in pending["options"]] == ["-2 Might", "-1 Might, -1 Speed", "-2 Speed"]
    might, speed = game.value("ann", "might"), game.value("ann", "speed")
    assert pending["options"][1].startswith(f"-1 Might ({might} → "), "each option shows the values it leaves"
    before = dict(game.p("ann")["traits"])
    game.do("decide", "ann", choice=1)  # "-1 Might, -1 Speed"
    after = game.p("ann")["traits"]
    assert after["might"] == before["might"] - 1 and after["speed"] == before["speed"] - 1
    assert after["knowledge"] == before["knowledge"] and after["sanity"] == before["sanity"]


def test_mental_damage_touches_only_knowledge_and_sanity(game):
    # Rulebook: Traits, "Damage" (mental between Knowledge and Sanity)
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "mental", 1)
    assert [re.sub(r" \(.*?\)", "", o) for o in game.state["pending"]["options"]] == ["-1 Knowledge", "-1 Sanity"]


def test_a_split_with_one_possible_result_is_not_asked(game):
    # Ruling: a damage split whose choices all end the same is applied without asking
    ctx = Ctx(game.c, game.state)
    game.p("ann")["traits"]["might"] = 1
    game.p("ann")["traits"]["speed"] = 1
    take_damage(ctx, "ann", "physical", 3)
    assert game.state["pending"] is None
    assert game.p("ann")["traits"]["might"] == 1 and game.p("ann")["traits"]["speed"] == 1


def test_other_players_cannot_answer_a_choice(game):
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "physical", 2)
    import pytest
    from bot.games.babg.engine import IllegalAction
    with pytest.raises(IllegalAction, match="for Ann"):
        game.do("decide", "bo", choice=1)
    with pytest.raises(IllegalAction, match="First answer: how to take 2 physical damage"):
        game.do("end", "ann")


def test_a_split_that_kills_is_asked_once_more(engine):
    # Rulebook: Traits (in the haunt a trait on the skull is death); the forgiving table: a deadly choice, where
    # another would keep the adventurer alive, is confirmed before it is taken.
    from tests.test_haunt_play import all_ready, revealed
    game = revealed(engine)  # haunt 18: Bo is a hero
    all_ready(game)
    game.p("bo")["traits"]["might"] = 1
    take_damage(Ctx(game.c, game.state), "bo", "physical", 1)
    options = game.state["pending"]["options"]
    assert options[0].startswith("-1 Might (") and options[0].endswith("→ the skull): dies"), options
    assert not options[1].endswith("dies")
    game.do("decide", "bo", choice=0)
    assert game.state["pending"]["kind"] == "damage_sure" and "would die" in game.state["pending"]["prompt"]
    game.do("decide", "bo", choice=1)  # no: choose again
    assert game.state["pending"]["kind"] == "damage" and game.state["pending"]["options"] == options
    game.do("decide", "bo", choice=0)
    game.do("decide", "bo", choice=0)  # yes, take it
    assert not game.p("bo")["alive"]
