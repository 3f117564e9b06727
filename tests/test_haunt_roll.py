"""Rulebook: Making a Haunt Roll, Revealing the Haunt; Traitor's Tome: the chart and the traitor table."""
import json

import pytest

from bot.games.babg.engine.haunt import choose_traitors
from tests.conftest import SHARED, Game


def draw_omen_at_house_of_blood(game, omen="berserker_axe"):
    game.put("ann", "inner_chamber")
    game.top("building", "house_of_blood")
    game.top_card("omen", omen)
    game.do("move", "ann", way="north")
    game.decide_all()
    assert omen in game.p("ann")["cards"]


def test_no_haunt_roll_without_an_omen(game):
    game.do("end", "ann")
    assert not any(e["kind"] == "roll" for e in game.events)
    assert game.state["turn"]["player"] == "bo"


def test_omen_forces_a_haunt_roll_at_the_end_of_the_turn(game, dice):
    # Rulebook: Making a Haunt Roll; Ruling: haunt-roll timing (end of the turn)
    draw_omen_at_house_of_blood(game)
    assert not any("for the haunt" in t for t in game.texts()), "no roll before the turn ends"
    game.state["omens_revealed"] = 3
    dice.next(2, 2, 1)  # 3 dice = 5: not yet
    game.do("end", "ann")
    roll = [e for e in game.events if e["kind"] == "roll"][0]
    assert len(roll["faces"]) == 3 and roll["total"] == 5
    assert game.state["phase"] == "exploring" and game.state["turn"]["player"] == "bo"


def test_six_or_more_starts_the_haunt_from_the_chart(game, dice, content):
    # Rulebook: Revealing the Haunt (the omen's column and the revealer's tile's row)
    draw_omen_at_house_of_blood(game, "berserker_axe")
    game.state["omens_revealed"] = 4
    dice.next(2, 2, 1, 1)
    game.do("end", "ann")
    haunt = game.state["haunt"]
    assert haunt["number"] == content.haunt_for("berserker_axe", "house_of_blood") == 18
    assert haunt["revealer"] == "ann" and haunt["tile"] == "house_of_blood"
    assert game.state["phase"] == "over"
    assert any('haunt 18, "Rats on a Pier"' in t for t in game.texts())


def test_dice_equal_the_omens_revealed_at_most_eight(game, dice):
    # Rulebook: Making a Haunt Roll; Ruling: more than 8 dice
    draw_omen_at_house_of_blood(game)
    game.state["omens_revealed"] = 11
    game.do("end", "ann")
    roll = [e for e in game.events if e["kind"] == "roll"][0]
    assert len(roll["faces"]) == 8


def test_every_omen_revealed_starts_the_haunt(game, dice):
    # Ruling: every omen revealed and still no haunt
    game.state["decks"]["omen"] = ["berserker_axe"]
    draw_omen_at_house_of_blood(game)
    dice.next(0)
    game.do("end", "ann")
    assert game.state["haunt"] is not None
    assert any("Every omen has now been revealed" in t for t in game.texts())


def test_omen_drawn_off_the_chart_uses_the_nearest_omen_tile(game, dice):
    # Ruling: an omen drawn on a tile that is not on the chart
    game.place("murder_row", "city", 2, 1, rot=0)
    game.give("ann", "berserker_axe")
    game.state["omens_revealed"] = 1
    game.state["turn"]["omens"].append(["berserker_axe", "elfsong_tavern"])
    dice.next(2, 2, 2)
    game.state["omens_revealed"] = 3
    game.do("end", "ann")
    assert game.state["haunt"]["chart_tile"] == "murder_row"
    assert game.state["haunt"]["number"] == 20


def test_no_haunt_roll_after_the_haunt(game, dice):
    # Rulebook: Making a Haunt Roll ("you don't make a haunt roll" after the haunt starts); Ruling
    game.state["phase"] = "haunt"
    draw_omen_at_house_of_blood(game)
    game.do("end", "ann")
    assert not any(e["kind"] == "roll" for e in game.events)


@pytest.mark.skipif(not (SHARED / "reference").exists(), reason="the shared reference is not beside the project")
def test_all_169_chart_cells_match_the_tome(content):
    chart = json.loads((SHARED / "reference" / "seed-index" / "haunt_chart.json").read_text())
    import re

    def slug(name):
        return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")
    cells = 0
    for tile, row in chart["chart"].items():
        for omen, number in row.items():
            assert content.haunt_for(slug(omen), slug(tile)) == number
            cells += 1
    assert cells == 169


# --- the traitor table -----------------------------------------------------------

def table(engine, advs):
    return Game(engine, adventurers=advs)


def test_named_adventurer_is_the_traitor(engine):
    g = table(engine, ("torskar", "lia", "gretchen"))  # haunt 33: Torskar, or lowest Sanity
    assert choose_traitors(g.c, g.state, 33, "bo") == ["ann"]


def test_lowest_trait_when_the_named_adventurer_is_absent(engine):
    g = table(engine, ("lia", "gretchen", "grim"))  # haunt 5: lowest Knowledge
    for pid, pos in (("ann", 5), ("bo", 2), ("cy", 6)):
        g.p(pid)["traits"]["knowledge"] = pos
    assert choose_traitors(g.c, g.state, 5, "ann") == ["bo"]


def test_trait_tie_goes_to_the_revealer(engine):
    # Rulebook: Revealing the Haunt, "Special Cases"; Ruling: traitor ties
    g = table(engine, ("lia", "gretchen", "grim"))  # haunt 5: lowest Knowledge
    for pid in ("ann", "bo", "cy"):
        g.p(pid)["traits"]["knowledge"] = 1  # Lia 1, Gretchen 2, Grim 1
    assert [p for p in ("ann", "bo", "cy") if g.value(p, "knowledge") == 1] == ["ann", "cy"]
    assert choose_traitors(g.c, g.state, 5, "cy") == ["cy"], "the revealer wins a tie"
    assert choose_traitors(g.c, g.state, 5, "bo") == ["cy"], "else the tied one nearest the revealer's left"
    assert choose_traitors(g.c, g.state, 5, "ann") == ["ann"]


def test_revealer_and_left_of_revealer(engine):
    g = table(engine, ("torskar", "lia", "gretchen"))
    assert choose_traitors(g.c, g.state, 2, "bo") == ["bo"]
    # Haunt 50: Tasha unless she is the revealer, else left of the revealer
    g = table(engine, ("tasha", "lia", "grim"))
    assert choose_traitors(g.c, g.state, 50, "bo") == ["ann"]
    assert choose_traitors(g.c, g.state, 50, "ann") == ["bo"]


def test_oldest_other_than_the_revealer(engine):
    g = table(engine, ("aldan", "avrixis", "grim"))  # ages 318, 436, 60
    assert choose_traitors(g.c, g.state, 31, "cy") == ["bo"]
    assert choose_traitors(g.c, g.state, 31, "bo") == ["ann"]


def test_wererat_holder_or_revealer(engine):
    g = table(engine, ("torskar", "lia", "gretchen"))
    assert choose_traitors(g.c, g.state, 18, "cy") == ["cy"]
    g.give("bo", "wererat_bite")
    assert choose_traitors(g.c, g.state, 18, "cy") == ["bo"]


def test_several_traitors_and_no_traitor(engine):
    g = table(engine, ("torskar", "lia", "gretchen"))
    assert choose_traitors(g.c, g.state, 22, "bo") == ["ann", "bo", "cy"]
    assert choose_traitors(g.c, g.state, 9, "bo") == ["ann", "cy"]
    assert choose_traitors(g.c, g.state, 3, "bo") == []


def test_hidden_traitor_token_reaches_only_its_owner(game, dice):
    # Rulebook: Haunts With a Hidden Traitor (tokens dealt face down)
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.turns import start_haunt
    ctx = Ctx(game.c, game.state)
    game.place("arcane_retreat", "catacomb", 1, -1, rot=0)
    start_haunt(ctx, "ann", "whispering_skull", "arcane_retreat")  # haunt 19: hidden traitor
    assert game.state["haunt"]["number"] == 19
    secrets = [e for e in ctx.ev if e["kind"] == "secret"]
    assert sorted(e["to"] for e in secrets) == ["ann", "bo", "cy"]
    public = " ".join(e["text"] for e in ctx.ev if e["to"] == "all")
    assert "hidden traitor" in public.lower()
    traitor = game.state["haunt"]["traitors"][0]
    assert not any("You are the hidden traitor" in e["text"] for e in ctx.ev if e["to"] != traitor)
    assert all(name not in public for name in ("Your token",))
