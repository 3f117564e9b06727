"""Small slips in what players read (the forgiving table, #8): the right
article before a token's name, "1 space", stairs that go down said so, a
waiting question named as a question, a title that already ends a
sentence left alone."""
import pytest

from bot.games.babg.engine import IllegalAction, words
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_play import place_token


def test_articles_counts_and_sentence_ends():
    assert words.a("Otyugh") == "an Otyugh" and words.a("Cultist") == "a Cultist"
    assert words.a("Eye Ray", capital=True) == "An Eye Ray"
    assert words.count(1, "space") == "1 space" and words.count(2, "space") == "2 spaces"
    assert words.ended("Do Beholders Dream of Electric Eye Rays?") == "Do Beholders Dream of Electric Eye Rays?"
    assert words.ended("Troll Hunt!") == "Troll Hunt!" and words.ended("Labyrinth") == "Labyrinth."


def test_a_token_named_with_a_vowel_takes_an(game):
    ctx = Ctx(game.c, game.state)
    game.state["phase"] = "haunt"
    place_token(ctx, "ann", "Otyugh", "kitchen", remove=False)
    assert ctx.ev[-1]["text"] == "Ann puts an Otyugh token on the Kitchen."


def test_the_stairs_down_are_gone_down(game):
    # Rulebook: Moving Between Levels (the Kitchen's stairs lead down to the Kitchen Basement)
    game.put("ann", "kitchen")
    events = game.do("move", "ann", way="stairs")
    assert any("Ann goes down the stairs to the Kitchen Basement." == e["text"] for e in events)
    game.do("end", "ann")
    game.state["turn"] = {**game.state["turn"], "player": "ann"}
    game.state["turn"]["moved"] = 0
    events = game.do("move", "ann", way="stairs")
    assert any("Ann climbs the stairs to the Kitchen." == e["text"] for e in events)


def test_a_player_waiting_on_a_question_is_told_what_is_asked(game):
    game.state["pending"] = {"player": "bo", "kind": "option", "prompt": "swap an item card?", "options": ["Yes", "No"],
                             "data": {}, "task": 0}
    with pytest.raises(IllegalAction, match=r"^Waiting for Bo to answer: swap an item card\?$"):
        game.do("end", "ann")


def test_the_rules_of_a_haunt_whose_title_asks_a_question_read_well(engine):
    from tests.test_haunt_play import revealed
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    assert g.state["haunt"]["number"] == 1
    texts = [e["text"] for e in g.events if e["kind"] == "secret_rules"]
    assert texts and all("Eye Rays?." not in t for t in texts)
    assert any("Haunt 1: Do Beholders Dream of Electric Eye Rays? Your rules" in t for t in texts)
