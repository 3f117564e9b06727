"""Tile rules (rulebook: Special Tiles, and the rules printed on tiles)."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from tests.test_effects_kit import give, my_turn


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def test_ambush_alley_draws_twice_on_the_turn_it_is_found(game, dice):
    # Rulebook: Special Tiles, Ambush Alley (the event symbol, then one more for ending the turn there)
    game.put("ann", "elfsong_tavern")
    game.top("street", "ambush_alley")
    game.top_card("event", "cranium_rats")
    dice.next(2, 2, 0)
    game.do("move", "ann", way="north")
    assert game.p("ann")["tile"] == "ambush_alley"
    assert "cranium_rats" in game.state["discard"]["event"]
    game.top_card("event", "stalking_shadow")
    dice.next(2, 2, 0, 0)
    game.do("end", "ann")
    assert "stalking_shadow" in game.state["discard"]["event"]
    assert game.state["turn"]["player"] == "bo"


def test_ambush_alley_no_second_draw_if_the_event_moved_you(game, dice):
    # Rulebook: Special Tiles, Ambush Alley ("if the event card didn't move you")
    game.put("ann", "elfsong_tavern")
    game.top("street", "ambush_alley")
    game.top_card("event", "fireside_horrors")
    dice.next(0, 0, 0)
    game.do("move", "ann", way="north")
    game.decide_all()
    assert game.p("ann")["tile"] == "elfsong_tavern"
    events_before = len(game.state["decks"]["event"])
    game.do("end", "ann")
    assert len(game.state["decks"]["event"]) == events_before


def test_ambush_alley_on_later_turns(game, dice):
    # Rulebook: Special Tiles, Ambush Alley ("On future turns, anyone that ends their movement on Ambush Alley")
    game.place("ambush_alley", "city", 2, -1, rot=0)
    game.put("bo", "ambush_alley")
    game.do("end", "ann")
    game.top_card("event", "vampiric_mist")
    dice.next(2, 2, 0, 0)
    game.do("end", "bo")
    assert "vampiric_mist" in game.state["discard"]["event"]


def test_trading_post_swaps_an_item_at_the_end_of_the_turn(game):
    # Rulebook: Special Tiles, Trading Post (an item card, never an omen, for the top item card)
    give(game, "ann", "crossbow")
    give(game, "ann", "eye_of_vecna")
    game.place("trading_post", "city", 2, 1, rot=2)
    game.put("ann", "trading_post")
    top = game.state["decks"]["item"][0]
    game.do("end", "ann")
    assert game.state["pending"]["options"] == ["Discard Crossbow", "Keep your items"]
    game.do("decide", "ann", choice="Discard Crossbow")
    assert top in game.p("ann")["cards"] and "crossbow" in game.state["discard"]["item"]
    assert "eye_of_vecna" in game.p("ann")["cards"]


def test_trading_post_can_be_declined(game):
    # Rulebook: Special Tiles, Trading Post ("you may")
    give(game, "ann", "crossbow")
    game.place("trading_post", "city", 2, 1, rot=2)
    game.put("ann", "trading_post")
    game.do("end", "ann")
    game.do("decide", "ann", choice="Keep your items")
    assert game.p("ann")["cards"] == ["crossbow"]


def test_trading_post_with_an_empty_item_deck(game):
    # Rulebook: Special Tiles, Trading Post; Ruling: with the item deck empty no swap is offered
    give(game, "ann", "crossbow")
    game.state["discard"]["item"] += game.state["decks"]["item"]
    game.state["decks"]["item"] = []
    game.place("trading_post", "city", 2, 1, rot=2)
    game.put("ann", "trading_post")
    game.do("end", "ann")
    assert game.state["pending"] is None and game.p("ann")["cards"] == ["crossbow"]


def _on_forgotten_cache(game):
    game.place("forgotten_cache", "catacomb", 1, -1, rot=2)
    game.put("ann", "forgotten_cache")


def test_forgotten_cache_roll_once_per_turn(game, dice):
    # Rulebook: Special Tiles, Forgotten Cache; Attempt a Die Roll (not the same roll twice in a turn)
    _on_forgotten_cache(game)
    before = pos(game, "ann")
    dice.next(1, 1, 0)
    game.do("roll", "ann")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1, "0-4: 1 physical damage"
    with pytest.raises(IllegalAction, match="already attempted that roll this turn"):
        game.do("roll", "ann")


def test_forgotten_cache_gives_each_player_one_item_per_game(game, dice):
    # Rulebook: Special Tiles, Forgotten Cache ("each player can draw an item card ... only once per game")
    _on_forgotten_cache(game)
    game.p("ann")["traits"]["knowledge"] = 8
    dice.next(2, 2, 1, 0, 0, 0)
    game.do("roll", "ann")
    assert len(game.p("ann")["cards"]) == 1
    my_turn(game, "ann")
    assert not any(a["type"] == "roll" for a in legal_actions(game.c, game.state))
    with pytest.raises(IllegalAction, match="offers no roll"):
        game.do("roll", "ann")
    game.put("bo", "forgotten_cache")
    my_turn(game, "bo")
    assert {"type": "roll", "player": "bo", "what": "forgotten_cache"} in legal_actions(game.c, game.state)


@pytest.mark.parametrize("tile, trait", [("hall_of_wonders", "knowledge"), ("beloved_ranger_statue", "speed"),
                                         ("fountain", "sanity"), ("gladiator_pit", "might")])
def test_once_per_game_gain_for_ending_a_turn(game, tile, trait):
    # Rulebook: Special Tiles (Hall of Wonders, Beloved Ranger Statue, Fountain, Gladiator Pit: once per game)
    level = "catacomb" if tile == "gladiator_pit" else "city"
    game.place(tile, level, 5, 5)
    game.put("ann", tile)
    start = game.p("ann")["traits"][trait]
    game.do("end", "ann")
    assert game.p("ann")["traits"][trait] == start + 1
    game.do("end", "bo")
    game.do("end", "cy")
    game.do("end", "ann")
    assert game.p("ann")["traits"][trait] == start + 1, "once per game"


def test_house_of_blood_lets_you_out_then_stops_you(game, dice):
    # Rulebook: Special Tiles, House of Blood (a Speed loss on leaving: you still get out, but stop there)
    game.place("house_of_blood", "city", 1, -1)
    game.put("ann", "house_of_blood")
    game.state["turn"]["moved"] = 3
    dice.next(0, 1, 0)  # Sanity 1: lose 1 Speed (4 -> 3)
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "inner_chamber"
    assert game.state["turn"]["stopped"]


@pytest.mark.parametrize("tile, trait, lost", [("haunted_alley", "speed", "sanity"),
                                               ("arcane_retreat", "knowledge", "might")])
def test_leaving_rolls(game, dice, tile, trait, lost):
    # Rulebook: tiles' printed rules (Haunted Alley: Speed 3+ or lose 1 Sanity; Arcane Retreat: Knowledge 4+
    # or lose 1 Might), made each time you leave
    level = "catacomb" if tile == "arcane_retreat" else "city"
    if level == "city":
        game.place(tile, "city", 2, -1)  # north of the Elfsong Tavern
        way = "south"
    else:
        game.place(tile, "catacomb", 1, -1, rot=1)  # a doorway facing south onto the Catacomb Landing
        way = "south"
    game.put("ann", tile)
    before = game.p("ann")["traits"][lost]
    dice.next(0, 0, 0, 0, 0)
    game.do("move", "ann", way=way)
    game.decide_all()
    assert game.p("ann")["traits"][lost] == before - 1


@pytest.mark.parametrize("tile, kind", [("rats_nest", "physical"), ("shrine_to_bhaal", "mental")])
def test_ending_a_turn_hurts(game, tile, kind):
    # Rulebook: tiles' printed rules (Rat's Nest: 1 physical damage; Shrine to Bhaal: 1 mental damage)
    game.place(tile, "catacomb", 4, 4)
    game.put("ann", tile)
    before = pos(game, "ann")
    game.do("end", "ann")
    game.decide_all()
    now = pos(game, "ann")
    pair = ("might", "speed") if kind == "physical" else ("knowledge", "sanity")
    assert sum(now[t] for t in pair) == sum(before[t] for t in pair) - 1


def test_flooded_chamber_barrier_rolls_sanity(game, dice):
    # Rulebook: Special Tiles, "Assassin's Run, Flooded Chamber" (the Flooded Chamber's crossing is Sanity 3+)
    game.place("flooded_chamber", "catacomb", 1, 1, rot=0)  # south of the Catacomb Landing
    game.put("ann", "flooded_chamber")
    game.p("ann")["half"] = "north"
    game.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    dice.next(2, 1, 0)
    game.do("move", "ann", way="south")
    assert any("rolls Sanity" in t for t in game.texts())
    assert game.p("ann")["tile"] == "dusty_cellar"


def test_two_rolls_on_one_tile_are_told_apart(game, dice):
    # Rulebook: Special Tiles, Forgotten Cache; Card: Lonely Chest (a chest left shut on the same tile)
    _on_forgotten_cache(game)
    game.state["decks"]["event"].remove("lonely_chest")
    from bot.games.babg.engine import tokens as tk
    tk.place(game.state, "Treasure Chest", "forgotten_cache", card="lonely_chest")
    rolls = [a for a in legal_actions(game.c, game.state) if a["type"] == "roll"]
    assert {a["what"] for a in rolls} == {"forgotten_cache", "lonely_chest"}
    with pytest.raises(IllegalAction, match="Which roll"):
        game.do("roll", "ann")
    dice.next(2, 2, 2)
    game.do("roll", "ann", trait="knowledge")
    assert any(game.c.cards[c].deck == "item" for c in game.p("ann")["cards"])
    assert tk.with_card(game.state, "lonely_chest"), "the chest is still shut"
