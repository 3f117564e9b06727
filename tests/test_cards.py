"""Rulebook: Drawing Event, Item, and Omen Cards; Use Item and Omen Cards."""
import pytest

from bot.games.babg.engine import IllegalAction


def discover_event(game, card_id, dice, *faces):
    """Ann discovers the Dead End (an event tile) west of the Kitchen and draws `card_id`."""
    game.put("ann", "kitchen")
    game.top("street", "dead_end")
    game.top_card("event", card_id)
    dice.next(*faces)
    game.do("move", "ann", way="west")


def test_an_event_resolves_and_is_discarded(game, dice):
    # Rulebook: Drawing Event, Item, and Omen Cards ("Then discard the card unless it says otherwise")
    before = game.value("ann", "sanity")
    discover_event(game, "death_vision", dice, 2, 2, 0)  # Sanity 3 dice: 4 -> gain 1 Sanity
    assert game.value("ann", "sanity") > before
    assert game.state["discard"]["event"] == ["death_vision"]
    assert "death_vision" not in game.p("ann")["cards"]


def test_an_event_that_says_keep_stays_in_front_of_you(game, dice):
    # Rulebook: Drawing Event, Item, and Omen Cards ("unless it says otherwise or has an ongoing effect")
    discover_event(game, "crawling_claw", dice, 0, 0, 0, 0, 0)  # Might roll 0: keep the card
    assert "crawling_claw" in game.p("ann")["cards"]
    assert "crawling_claw" not in game.state["discard"]["event"]


def test_an_item_is_kept(game):
    # Rulebook: Drawing Event, Item, and Omen Cards ("Place it face up in front of you")
    game.put("ann", "inner_chamber")
    game.top("building", "storehouse")  # item symbol
    top_item = game.state["decks"]["item"][0]
    game.do("move", "ann", way="north")
    game.decide_all()
    assert top_item in game.p("ann")["cards"]
    assert game.state["turn"]["stopped"]


def test_each_item_once_per_turn(game):
    # Rulebook: Use Item and Omen Cards ("only one of the following actions with that item during a turn")
    game.give("ann", "boots_of_elvenkind")
    game.do("drop", "ann", card="Boots of Elvenkind")
    assert game.state["piles"]["elfsong_tavern"] == ["boots_of_elvenkind"]
    with pytest.raises(IllegalAction, match="already used, dropped, picked up or traded"):
        game.do("pickup", "ann", card="boots of elvenkind")


def test_a_dropped_item_can_be_picked_up_later(game):
    # Rulebook: Use Item and Omen Cards, "Drop" and "Pick up"
    game.give("ann", "boots_of_elvenkind")
    game.do("drop", "ann", card="boots")
    game.do("end", "ann")
    assert game.state["turn"]["player"] == "bo"
    game.do("pickup", "bo", card="boots of elvenkind")
    assert "boots_of_elvenkind" in game.p("bo")["cards"]
    assert "elfsong_tavern" not in game.state["piles"]


def test_over_the_top_bonus_is_all_that_is_taken_back(game):
    # Rulebook: Use Item and Omen Cards ("over the top")
    game.p("ann")["traits"]["speed"] = 8  # Torskar's Speed at its maximum, 6
    game.state["piles"]["elfsong_tavern"] = ["boots_of_elvenkind"]
    game.state["decks"]["item"].remove("boots_of_elvenkind")
    game.do("pickup", "ann", card="Boots of Elvenkind")
    assert game.value("ann", "speed") == 6
    game.do("end", "ann")
    game.state["turn"] = {**game.state["turn"], "player": "ann"}
    game.p("ann")["traits"]["speed"] = 7  # lowered meanwhile by damage: 5
    game.do("drop", "ann", card="Boots of Elvenkind")
    assert game.value("ann", "speed") == 5, "the boots gave nothing, so losing them takes nothing"


def test_an_item_bonus_is_lost_with_the_item(game):
    game.give("ann", "boots_of_elvenkind")
    game.state["players"]["ann"]["cards"].remove("boots_of_elvenkind")
    game.state["piles"]["elfsong_tavern"] = ["boots_of_elvenkind"]
    before = game.p("ann")["traits"]["speed"]
    game.do("pickup", "ann", card="Boots of Elvenkind")
    assert game.p("ann")["traits"]["speed"] == before + 1
    game.do("end", "ann")
    game.state["turn"] = {**game.state["turn"], "player": "ann"}
    game.do("drop", "ann", card="Boots of Elvenkind")
    assert game.p("ann")["traits"]["speed"] == before


def test_trading_needs_the_other_players_consent_on_the_same_tile(game):
    # Rulebook: Use Item and Omen Cards, "Trade" ("assuming you both agree")
    game.give("ann", "boots_of_elvenkind")
    game.do("trade", "ann", card="Boots of Elvenkind", to="bo")
    assert game.state["pending"]["player"] == "bo"
    game.do("decide", "bo", choice=0)
    assert "boots_of_elvenkind" in game.p("bo")["cards"]
    assert "boots_of_elvenkind" not in game.p("ann")["cards"]
    game.give("ann", "shiny_rock")
    game.put("bo", "kitchen")
    with pytest.raises(IllegalAction, match="only with another adventurer on your tile"):
        game.do("trade", "ann", card="Shiny Rock", to="bo")


def test_weapons_only_when_attacking(game):
    # Rulebook: Use Item and Omen Cards, "Weapons"; Make an Attack ("You can't attack anyone until after the haunt")
    game.give("ann", "crossbow")
    with pytest.raises(IllegalAction, match="weapon: it is used only when making an attack, and attacks begin"):
        game.do("use", "ann", card="Crossbow")


def test_unknown_card_names_the_choices(game):
    game.give("ann", "crossbow")
    with pytest.raises(IllegalAction, match="You do not hold 'sword'. Choose from: Crossbow"):
        game.do("drop", "ann", card="sword")


def test_no_attacks_before_the_haunt(game):
    # Rulebook: Make an Attack ("You can't attack anyone until after the haunt starts")
    with pytest.raises(IllegalAction, match="Nobody can attack before the haunt begins"):
        game.do("attack", "ann", target="bo")
