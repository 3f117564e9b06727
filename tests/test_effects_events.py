"""Each event card played through the engine: drawn by discovering a tile,
with the dice forced. Ann plays Torskar (Might 5, Speed 4, Knowledge 3,
Sanity 3 at the start), Bo plays Lia (a drow), Cy plays Gretchen (a
halfling). Ann's right-hand neighbour is Cy."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine import tokens as tk
from tests.invariants import check
from tests.test_effects_kit import draw_event, give, my_turn, resolve_event, value


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def end_round(game, back_to="ann"):
    """End turns until it is `back_to`'s turn again, answering any question
    with its first option."""
    game.decide_all()
    while True:
        game.do("end", game.state["turn"]["player"])
        game.decide_all()
        if game.state["turn"]["player"] == back_to:
            return


def test_a_flumph_appears_carries_you_off(game, dice):
    # Card: A Flumph Appears (0-1: to the Kobold Hideout, else the Catacomb Landing; 1 die of physical damage)
    before = pos(game, "ann")
    dice.next(0, 0, 0)
    dice.next(2)
    draw_event(game, "a_flumph_appears")
    game.decide_all()
    assert game.p("ann")["tile"] == "catacomb_landing"
    now = pos(game, "ann")
    assert before["might"] + before["speed"] - now["might"] - now["speed"] == 2


def test_a_hags_blessing_curses_the_next_roll(game, dice):
    # Card: A Hag's Blessing (0: the next roll of any kind, not a haunt roll, counts as 0)
    # Ruling: the Hag's curse falls on your next own roll (trait, card or tile dice, barrier), no dice rolled
    dice.next(0, 0)
    draw_event(game, "a_hags_blessing")
    assert "a_hags_blessing" in game.p("ann")["cards"]
    assert any(m["kind"] == "cursed" for m in game.p("ann")["marks"])
    # Next roll: the Forgotten Cache's Knowledge roll; the dice would show 6, but it counts as 0.
    game.place("forgotten_cache", "catacomb", 1, -1)
    game.put("ann", "forgotten_cache")
    game.state["turn"]["rolls"] = []
    dice.next(2, 2, 2)
    before = pos(game, "ann")
    game.do("roll", "ann")
    game.decide_all()
    assert not game.p("ann")["marks"]
    assert "a_hags_blessing" in game.state["discard"]["event"]
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1, "0-4: 1 physical damage"
    assert not any(c for c in game.p("ann")["cards"] if game.c.cards[c].deck == "item")


def test_a_hags_blessing_does_not_touch_the_haunt_roll(game, dice):
    # Card: A Hag's Blessing ("a haunt roll excepted"); Ruling: the Hag's curse
    dice.next(0, 0)
    draw_event(game, "a_hags_blessing")
    game.state["turn"]["omens"].append(["berserker_axe", "dead_end"])
    game.state["omens_revealed"] = 4
    dice.next(2, 2, 2, 0)
    game.do("end", "ann")
    assert game.state["phase"] == "over" and game.state["haunt"]
    assert any(m["kind"] == "cursed" for m in game.p("ann")["marks"])


def test_arcane_gate_links_two_tiles(game, dice):
    # Card: Arcane Gate (tokens on your tile and on any other; 1 space between them)
    draw_event(game, "arcane_gate")
    assert game.state["pending"]["kind"] == "arcane_gate"
    game.do("decide", "ann", choice="Kitchen Basement")
    gates = [t for t in game.state["tokens"] if t["name"] == "Arcane Gate"]
    assert {t["tile"] for t in gates} == {"dead_end", "kitchen_basement"}
    end_round(game)
    assert game.engine.ways_out(game.state, "ann")["gate"]["to"] == "kitchen_basement"
    game.do("move", "ann", way="gate")
    assert game.p("ann")["tile"] == "kitchen_basement" and game.state["turn"]["moved"] == 1
    game.do("move", "ann", way="gate")
    assert game.p("ann")["tile"] == "dead_end"
    check(game.c, game.state)


def test_a_second_arcane_gate_moves_the_pair(game, dice):
    # Card: Arcane Gate; Ruling: one pair of Arcane Gate tokens
    draw_event(game, "arcane_gate")
    game.do("decide", "ann", choice="Kitchen Basement")
    game.state["discard"]["event"].remove("arcane_gate")
    game.state["decks"]["event"].insert(0, "arcane_gate")
    my_turn(game, "bo")
    game.put("bo", "inner_chamber")
    game.top("building", "spys_roost")
    game.do("move", "bo", way="north")
    game.do("decide", "bo", choice="Catacomb Landing")
    gates = [t for t in game.state["tokens"] if t["name"] == "Arcane Gate"]
    assert {t["tile"] for t in gates} == {"spys_roost", "catacomb_landing"}


def test_bhaals_call_strikes_at_your_sanity(game, dice):
    # Card: Bhaal's Call (0-1: the player on your right rolls 3 dice against your Sanity, no defence)
    before = pos(game, "ann")
    dice.next(0, 1, 0)
    dice.next(2, 2, 1)  # Cy, on Ann's right, rolls 5 against Sanity 3
    draw_event(game, "bhaals_call")
    game.decide_all()
    now = pos(game, "ann")
    assert before["knowledge"] + before["sanity"] - now["knowledge"] - now["sanity"] == 2
    assert now["might"] == before["might"]


def test_bhaals_call_misses_when_the_roll_is_not_higher(game, dice):
    # Card: Bhaal's Call ("if their total is higher than your current Sanity")
    before = pos(game, "ann")
    dice.next(0, 0, 0)
    dice.next(1, 1, 1)  # 3 against Sanity 3: no damage
    draw_event(game, "bhaals_call")
    assert pos(game, "ann") == before


def test_cranium_rats(game, dice):
    # Card: Cranium Rats (4+: gain 1 Sanity)
    dice.next(2, 2, 0)
    draw_event(game, "cranium_rats")
    assert value(game, "ann", "sanity") == 4


def test_crawling_claw_hurts_at_the_end_of_each_turn(game, dice):
    # Card: Crawling Claw (0-3: keep; 1 physical damage at the end of each of your turns)
    dice.next(1, 1, 0, 0, 0)
    draw_event(game, "crawling_claw")
    assert "crawling_claw" in game.p("ann")["cards"]
    before = pos(game, "ann")
    game.do("end", "ann")
    game.decide_all()
    now = pos(game, "ann")
    assert before["might"] + before["speed"] - now["might"] - now["speed"] == 1
    assert "crawling_claw" in game.p("ann")["cards"]


def test_crawling_claw_lets_go_when_a_trait_goes_up(game, dice):
    # Card: Crawling Claw ("Discard it the next time any of your traits goes up")
    dice.next(0, 0, 0, 0, 0)
    draw_event(game, "crawling_claw")
    give(game, "ann", "boots_of_elvenkind")  # +1 Speed
    assert "crawling_claw" not in game.p("ann")["cards"]
    assert "crawling_claw" in game.state["discard"]["event"]


def test_crawling_claw_is_pried_off_on_the_named_tiles(game, dice):
    # Card: Crawling Claw (ending a turn on the Kitchen Basement and others discards it, no damage)
    # Ruling: on those tiles the claw is discarded instead of hurting you that turn
    dice.next(0, 0, 0, 0, 0)
    draw_event(game, "crawling_claw")
    game.put("ann", "kitchen_basement")
    before = pos(game, "ann")
    game.do("end", "ann")
    assert pos(game, "ann") == before
    assert "crawling_claw" in game.state["discard"]["event"]


def test_crawling_claw_cannot_be_dropped(game, dice):
    # Ruling: a kept event is not an item: it cannot be dropped or traded unless it says so
    dice.next(0, 0, 0, 0, 0)
    draw_event(game, "crawling_claw")
    with pytest.raises(IllegalAction, match="cannot be dropped"):
        game.do("drop", "ann", card="Crawling Claw")


def test_death_vision_hurts_on_a_low_roll(game, dice):
    # Card: Death Vision (0-1: 1 die of physical damage)
    before = pos(game, "ann")
    dice.next(0, 0, 1)
    dice.next(1)
    draw_event(game, "death_vision")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1


def test_demonic_possession_adds_one_for_a_drow(game, dice):
    # Card: Demonic Possession (+1 for a drow; 6+: gain 1 in a trait of your choice)
    dice.next(2, 2, 1, 0, 0)  # Lia's Sanity 5 dice: 5, +1 = 6
    draw_event(game, "demonic_possession", pid="bo")
    assert game.state["pending"]["options"] == ["Might", "Speed", "Knowledge", "Sanity"]
    before = pos(game, "bo")["knowledge"]
    game.do("decide", "bo", choice="Knowledge")
    assert pos(game, "bo")["knowledge"] == before + 1


def test_desiccated_heart_is_a_choice(game, dice):
    # Card: Desiccated Heart (destroy: -1 Might +1 Sanity; guard: -1 Sanity +1 Might)
    before = pos(game, "ann")
    draw_event(game, "desiccated_heart")
    game.do("decide", "ann", choice=0)
    now = pos(game, "ann")
    assert now["might"] == before["might"] - 1 and now["sanity"] == before["sanity"] + 1


def test_echo_of_moander(game, dice):
    # Card: Echo of Moander (5+: gain 1 Sanity and 1 Knowledge)
    before = pos(game, "ann")
    dice.next(2, 2, 1)
    draw_event(game, "echo_of_moander")
    now = pos(game, "ann")
    assert now["sanity"] == before["sanity"] + 1 and now["knowledge"] == before["knowledge"] + 1


def test_explosive_runes_kept_as_a_weapon(game, dice):
    # Card: Explosive Runes (5+: keep it; a weapon item that can be dropped, traded or stolen);
    # Rulebook: Card Clarifications, Explosive Runes
    dice.next(2, 2, 1)
    draw_event(game, "explosive_runes")
    assert "explosive_runes" in game.p("ann")["cards"]
    with pytest.raises(IllegalAction, match="weapon"):
        game.do("use", "ann", card="Explosive Runes")
    card = game.c.cards["explosive_runes"]
    assert card.can_drop and card.can_trade and card.can_steal and card.attack["trait"] == "knowledge"
    game.do("drop", "ann", card="Explosive Runes")
    assert game.state["piles"]["dead_end"] == ["explosive_runes"]
    check(game.c, game.state)


def test_explosive_runes_go_off_on_a_zero(game, dice):
    # Card: Explosive Runes (0: you and everyone on your tile and connected adjacent tiles: 1 die)
    # Ruling: everyone a card hurts "with 1 die" rolls their own die
    game.put("bo", "kitchen")  # the Dead End is joined to the Kitchen
    before_ann, before_bo, before_cy = pos(game, "ann"), pos(game, "bo"), pos(game, "cy")
    dice.next(0, 0, 0)
    dice.next(1)
    dice.next(1)
    draw_event(game, "explosive_runes")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before_ann.values()) - 1
    assert sum(pos(game, "bo").values()) == sum(before_bo.values()) - 1
    assert pos(game, "cy") == before_cy, "Cy on the Elfsong Tavern is out of the blast"


def test_familiar_echoes_leads_you_to_a_friend(game, dice):
    # Card: Familiar Echoes (move to the nearest adventurer not your opponent; 5+: you and they gain 1 Sanity)
    before_bo = pos(game, "bo")
    dice.next(2, 2, 1)
    draw_event(game, "familiar_echoes")
    game.decide_all()
    assert game.p("ann")["tile"] == "elfsong_tavern"
    assert value(game, "ann", "sanity") == 4
    assert pos(game, "bo")["sanity"] == before_bo["sanity"] + 1


def test_familiar_echoes_zero_costs_everyone_there_sanity(game, dice):
    # Card: Familiar Echoes (0: you and each of those adventurers lose 1 Sanity)
    before_cy = pos(game, "cy")
    dice.next(0, 0, 0)
    draw_event(game, "familiar_echoes")
    assert pos(game, "cy")["sanity"] == before_cy["sanity"] - 1


def test_fireside_horrors(game, dice):
    # Card: Fireside Horrors (0-1: 1 mental damage and move to the Elfsong Tavern)
    dice.next(0, 0, 0)
    draw_event(game, "fireside_horrors")
    game.decide_all()
    assert game.p("ann")["tile"] == "elfsong_tavern"


def test_flash_flood_sweeps_the_catacombs(game, dice):
    # Card: Flash Flood (each adventurer on the catacomb level rolls Might; 0-2: to the Flooded Chamber,
    # placed as far from the Kitchen Basement as possible, on its far half)
    game.put("bo", "kitchen_basement")
    game.put("cy", "kitchen")
    before_bo, before_cy = pos(game, "bo"), pos(game, "cy")
    dice.next(0, 0, 0, 0, 0)  # Ann: 0
    dice.next(2, 1, 0)        # Bo: 3, lose 1 Might
    draw_event(game, "flash_flood", where="catacomb")
    game.decide_all()
    assert "flooded_chamber" in game.state["board"]
    assert "flooded_chamber" not in game.state["stacks"]["catacomb"]
    assert game.p("ann")["tile"] == "flooded_chamber" and game.p("ann")["half"] in ("north", "south")
    assert pos(game, "bo")["might"] == before_bo["might"] - 1
    assert pos(game, "cy") == before_cy, "the city level stays dry"
    check(game.c, game.state)


def test_flash_flood_joins_the_chamber_far_from_the_kitchen_basement(game, dice):
    # Card: Flash Flood ("as far from the Kitchen Basement as possible"; "the half ... farthest")
    # Ruling: Flash Flood distances are counted in spaces; ties are the swept player's choice
    game.place("dusty_cellar", "catacomb", 1, 1)  # south of the Catacomb Landing: 2 spaces from the basement
    dice.next(0, 0, 0, 0, 0)
    draw_event(game, "flash_flood", where="catacomb")
    game.decide_all()
    chamber = game.state["board"]["flooded_chamber"]
    from bot.games.babg.engine.specials.common import distances
    from bot.games.babg.engine.ctx import Ctx
    dist = distances(Ctx(game.c, game.state), "kitchen_basement")
    assert dist["flooded_chamber"] >= 3, chamber
    assert game.p("ann")["half"] is not None


def test_forgotten_relic_restores_a_trait(game, dice):
    # Card: Forgotten Relic (5+: a trait below its starting value goes back to it)
    game.p("ann")["traits"]["might"] = 1
    dice.next(2, 2, 1)
    draw_event(game, "forgotten_relic")
    assert game.p("ann")["traits"]["might"] == 3


def test_forgotten_relic_four_raises_one_below_start(game, dice):
    # Card: Forgotten Relic (4: gain 1 in a trait below its starting value)
    game.p("ann")["traits"]["might"] = 1
    game.p("ann")["traits"]["sanity"] = 1
    dice.next(2, 2, 0)
    draw_event(game, "forgotten_relic")
    assert game.state["pending"]["options"] == ["Might", "Sanity"]
    game.do("decide", "ann", choice="Sanity")
    assert game.p("ann")["traits"]["sanity"] == 2


def test_future_sight_now(game, dice):
    # Card: Future Sight (discard it to look at the top 3 item cards, take 1, discard the others)
    draw_event(game, "future_sight")
    game.do("decide", "ann", choice=0)
    top3 = game.state["decks"]["item"][:3]
    assert game.state["pending"]["kind"] == "pick"
    game.do("decide", "ann", choice=1)
    assert top3[1] in game.p("ann")["cards"]
    assert top3[0] in game.state["discard"]["item"] and top3[2] in game.state["discard"]["item"]
    assert "future_sight" in game.state["discard"]["event"]
    check(game.c, game.state)


def test_future_sight_at_the_start_of_a_later_turn(game, dice):
    # Card: Future Sight ("or at the start of any later turn of yours")
    draw_event(game, "future_sight")
    game.do("decide", "ann", choice="Keep Future Sight for a later turn")
    assert "future_sight" in game.p("ann")["cards"]
    game.do("end", "ann")
    game.do("end", "bo")
    game.do("end", "cy")
    assert game.state["pending"]["player"] == "ann" and "Future Sight" in game.state["pending"]["options"][0]
    game.do("decide", "ann", choice=0)
    game.do("decide", "ann", choice=0)
    assert "future_sight" in game.state["discard"]["event"]


def test_go_for_the_eyes(game, dice):
    # Card: Go for the Eyes! (0-1: lose 1 Speed)
    dice.next(0, 0, 0, 0, 1)
    draw_event(game, "go_for_the_eyes")
    assert value(game, "ann", "speed") == 3


def test_green_slime_stays_and_hits_whoever_enters(game, dice):
    # Card: Green Slime (token and card stay on the tile; you now and anyone entering later roll Speed)
    dice.next(1, 1, 1, 0)  # Ann: 3, 1 die of damage
    dice.next(2)
    draw_event(game, "green_slime")
    game.decide_all()
    token = tk.with_card(game.state, "green_slime")
    assert token and token["tile"] == "dead_end"
    assert "green_slime" not in game.state["discard"]["event"]
    check(game.c, game.state)
    my_turn(game, "bo")
    game.state["turn"]["stopped"] = False
    game.put("bo", "kitchen")
    dice.next(2, 2, 1)  # Bo: 5, the slime is cleared
    game.do("move", "bo", way="west")
    assert tk.with_card(game.state, "green_slime") is None
    assert "green_slime" in game.state["discard"]["event"]
    check(game.c, game.state)


def test_hungry_horde_streets_roll_speed_buildings_might(game, dice):
    # Card: Hungry Horde (Speed on a street, Might in a building; 2-4: discard an item or take 1 die)
    # Ruling: "item card" means a card of the item deck (not an omen, not a kept event)
    give(game, "bo", "crossbow")
    before_cy = pos(game, "cy")
    dice.next(2, 2, 1, 0)  # Ann on the Dead End (street), Speed: 5, gain 1 Speed
    dice.next(1, 1, 0)     # Bo in the Elfsong Tavern, Might: 2, discards the crossbow
    dice.next(1, 1, 0, 0)  # Cy: 2, no item: 1 die of damage
    dice.next(2)
    draw_event(game, "hungry_horde")
    game.decide_all()
    assert value(game, "ann", "speed") == 5
    assert "crossbow" in game.state["discard"]["item"] and not game.p("bo")["cards"]
    assert sum(pos(game, "cy").values()) == sum(before_cy.values()) - 2


def test_illusory_wall_opens_a_new_tile(game, dice):
    # Card: Illusory Wall (a wall with nothing beyond: draw a tile of that level, move onto it, resolve it)
    # Ruling: an Illusory Wall in the city draws from the stack of its own tile's kind
    game.top("street", "fountain")
    draw_event(game, "illusory_wall")
    options = game.state["pending"]["options"]
    choice = next(o for o in options if o.startswith("the Dead End") and "unknown" in o)
    game.do("decide", "ann", choice=choice)
    game.decide_all()
    assert game.p("ann")["tile"] == "fountain"
    token = next(t for t in game.state["tokens"] if t["name"] == "Illusion")
    assert token["tile"] == "dead_end"
    check(game.c, game.state)
    end_round(game)
    ways = game.engine.ways_out(game.state, "ann")
    back = [w for w, info in ways.items() if info["to"] == "dead_end"]
    assert back, ways
    game.do("move", "ann", way=back[0])
    assert game.p("ann")["tile"] == "dead_end"


def test_illusory_wall_between_placed_tiles(game, dice):
    # Card: Illusory Wall ("For adventurers ... the token works as a connected doorway")
    game.place("dusty_cellar", "catacomb", 0, 1)  # south of the Kitchen Basement, whose south side is a wall
    game.put("ann", "kitchen_basement")
    resolve_event(game, "illusory_wall")
    assert game.state["pending"] is None, "the only wall that can take the token is chosen at once"
    token = next(t for t in game.state["tokens"] if t["name"] == "Illusion")
    assert (token["tile"], token["side"]) == ("kitchen_basement", "south")
    game.state["turn"]["stopped"] = False
    assert game.engine.ways_out(game.state, "ann")["south"]["to"] == "dusty_cellar"
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "dusty_cellar"
    assert "north" in game.engine.ways_out(game.state, "ann") or \
        any(i["to"] == "kitchen_basement" for i in game.engine.ways_out(game.state, "ann").values())
    check(game.c, game.state)


def test_infernal_pact_offers_only_traits_above_their_lowest(game, dice):
    # Card: Infernal Pact (pick a trait not at its lowest; 1-3: it falls to its lowest, raise others per step)
    game.p("ann")["traits"]["might"] = 1
    draw_event(game, "infernal_pact")
    assert game.state["pending"]["options"] == ["Speed", "Knowledge", "Sanity"]
    dice.next(1, 1, 0, 0)
    game.do("decide", "ann", choice="Speed")
    assert game.p("ann")["traits"]["speed"] == 1
    for _ in range(4):  # Speed fell 4 steps (from square 5): 4 raises
        assert game.state["pending"]["options"] == ["Might", "Knowledge", "Sanity"]
        game.do("decide", "ann", choice="Knowledge")
    assert game.p("ann")["traits"]["knowledge"] == 7


def test_lonely_chest_left_shut_can_be_opened_later(game, dice):
    # Card: Lonely Chest (leave it shut: token and card stay; anyone there may open it later)
    draw_event(game, "lonely_chest")
    game.do("decide", "ann", choice="Leave it shut")
    assert tk.with_card(game.state, "lonely_chest")["tile"] == "dead_end"
    check(game.c, game.state)
    game.do("end", "ann")
    game.put("bo", "dead_end")
    assert {"type": "roll", "player": "bo", "what": "lonely_chest"} in \
        __import__("bot.games.babg.engine.legal", fromlist=["x"]).legal_actions(game.c, game.state)
    dice.next(2, 2)
    game.do("roll", "bo", trait="lonely chest")
    assert any(game.c.cards[c].deck == "item" for c in game.p("bo")["cards"])
    assert tk.with_card(game.state, "lonely_chest") is None
    assert "lonely_chest" in game.state["discard"]["event"]
    check(game.c, game.state)


def test_lonely_chest_opened_at_once_can_be_a_mimic(game, dice):
    # Card: Lonely Chest (0-1: a mimic, 1 die of physical damage)
    before = pos(game, "ann")
    draw_event(game, "lonely_chest")
    dice.next(0, 1)
    dice.next(2)
    game.do("decide", "ann", choice="Open the chest")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 2
    assert "lonely_chest" in game.state["discard"]["event"]


def test_lost_ghost_adds_one_for_a_dwarf(game, dice):
    # Card: Lost Ghost (+1 for a dwarf; 5+: gain 1 Knowledge)
    dice.next(2, 2, 0)  # 4 + 1 (Torskar is a dwarf)
    draw_event(game, "lost_ghost")
    assert value(game, "ann", "knowledge") == 3 and game.p("ann")["traits"]["knowledge"] == 4


def test_lost_and_found_searched_at_the_end_of_a_turn(game, dice):
    # Card: Lost and Found (ending a turn there, a Knowledge 6+ roll looks at 2 items, keeps 1)
    # Ruling: the Lost and Found card lies beside its token until the stash is found
    draw_event(game, "lost_and_found")
    assert tk.with_card(game.state, "lost_and_found")
    game.p("ann")["traits"]["knowledge"] = 8
    game.do("end", "ann")
    assert game.state["pending"]["options"][0].startswith("Search")
    dice.next(2, 2, 2, 0, 0, 0)
    game.do("decide", "ann", choice=0)
    top2 = game.state["decks"]["item"][:2]
    game.do("decide", "ann", choice=0)
    assert top2[0] in game.p("ann")["cards"] and top2[1] in game.state["discard"]["item"]
    assert tk.with_card(game.state, "lost_and_found") is None
    check(game.c, game.state)


def test_mists_of_ravenloft_weakens_sanity_rolls(game, dice):
    # Card: Mists of Ravenloft (0-3: keep; Sanity rolls 1 die fewer; discard on gaining Sanity)
    dice.next(1, 0, 0)
    draw_event(game, "mists_of_ravenloft")
    assert "mists_of_ravenloft" in game.p("ann")["cards"]
    game.state["turn"]["stopped"] = False
    game.put("ann", "inner_chamber")
    game.top("building", "spys_roost")
    game.top_card("event", "cranium_rats")
    dice.next(2, 2, 2)
    game.do("move", "ann", way="north")
    assert any("rolls Sanity (2 dice" in t for t in game.texts())
    assert "mists_of_ravenloft" in game.state["discard"]["event"], "Cranium Rats' Sanity gain ends the mists"


def test_moment_of_calm_everyone_in_a_building_rolls(game, dice):
    # Card: Moment of Calm (each adventurer on a building tile rolls 1 die)
    before_bo = pos(game, "bo")
    dice.next(2)   # Ann on the Spy's Roost: draw an item
    dice.next(0)   # Bo in the Elfsong Tavern: lose 1 Might
    dice.next(1)   # Cy: nothing
    draw_event(game, "moment_of_calm", where="building")
    assert any(game.c.cards[c].deck == "item" for c in game.p("ann")["cards"])
    assert pos(game, "bo")["might"] == before_bo["might"] - 1


def test_otyugh_tentacle_waits_on_its_tile(game, dice):
    # Card: Otyugh Tentacle (token and card stay; it acts only once the haunt has started)
    draw_event(game, "otyugh_tentacle")
    assert tk.with_card(game.state, "otyugh_tentacle")["tile"] == "dead_end"
    end_round(game)
    before = pos(game, "ann")
    game.do("move", "ann", way=next(iter(game.engine.ways_out(game.state, "ann"))))
    assert pos(game, "ann") == before


def test_pit_trap_hurts_and_makes_the_tile_costly(game, dice):
    # Card: Pit Trap (1 physical damage unless a halfling; entering the tile costs 2 spaces)
    before = pos(game, "ann")
    draw_event(game, "pit_trap")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1
    assert tk.with_card(game.state, "pit_trap")
    my_turn(game, "cy")
    game.state["turn"]["stopped"] = False
    game.put("cy", "kitchen")
    assert game.engine.ways_out(game.state, "cy")["west"]["cost"] == 2


def test_pit_trap_spares_a_halfling(game, dice):
    # Card: Pit Trap ("unless your adventurer is a halfling")
    before = pos(game, "cy")
    draw_event(game, "pit_trap", pid="cy")
    assert pos(game, "cy") == before


def test_red_wizard_swaps_an_item(game, dice):
    # Card: Red Wizard (discard an item: look at 2, keep 1, discard the other, lose 1 Sanity)
    give(game, "ann", "crossbow")
    draw_event(game, "red_wizard")
    game.do("decide", "ann", choice="Discard Crossbow")
    top2 = game.state["decks"]["item"][:2]
    game.do("decide", "ann", choice=1)
    assert game.p("ann")["cards"] == [top2[1]]
    assert "crossbow" in game.state["discard"]["item"] and top2[0] in game.state["discard"]["item"]
    assert value(game, "ann", "sanity") == 2


def test_red_wizard_can_be_refused(game, dice):
    # Card: Red Wizard ("You may discard")
    give(game, "ann", "crossbow")
    draw_event(game, "red_wizard")
    game.do("decide", "ann", choice="Refuse the offer")
    assert game.p("ann")["cards"] == ["crossbow"] and value(game, "ann", "sanity") == 3


def test_rogue_air_elemental_slows_you_next_turn(game, dice):
    # Card: Rogue Air Elemental (street tiles only; 0-1: 1 die damage, next turn move only 1 space)
    before_bo = pos(game, "bo")
    dice.next(0, 0, 0, 0, 0)
    dice.next(1)
    draw_event(game, "rogue_air_elemental")
    game.decide_all()
    assert pos(game, "bo") == before_bo, "Bo is in a building"
    end_round(game)
    game.do("move", "ann", way=next(w for w, i in game.engine.ways_out(game.state, "ann").items()
                                    if "blocked" not in i and i["to"]))
    with pytest.raises(IllegalAction, match="of your 1 space left"):
        game.do("move", "ann", way=next(w for w, i in game.engine.ways_out(game.state, "ann").items()
                                        if "blocked" not in i))
    game.do("end", "ann")
    assert not game.p("ann")["marks"]


def test_rot_grub_lets_you_pick_the_roll(game, dice):
    # Card: Rot Grub (your choice of a Speed or Sanity roll; 5+: gain 1 in it)
    draw_event(game, "rot_grub")
    dice.next(2, 2, 1, 0)
    game.do("decide", "ann", choice="Speed roll")
    assert value(game, "ann", "speed") == 5


def test_shambling_form(game, dice):
    # Card: Shambling Form (4+: draw an item card)
    dice.next(2, 2, 0, 0)
    draw_event(game, "shambling_form")
    assert len(game.p("ann")["cards"]) == 1


def test_sound_of_looming_doom(game, dice):
    # Card: Sound of Looming Doom (highest Speed roll gains 1 Speed; the lowest is attacked, Speed 3)
    dice.next(2, 2, 2, 0)  # Ann 6: highest
    dice.next(0, 0, 0)     # Bo 0: lowest
    dice.next(1, 1, 0, 0)  # Cy 2
    dice.next(2, 2, 1)     # Ann, on Bo's right, rolls 5 for the card
    dice.next(1, 0, 0)     # Bo defends with 1: 4 physical damage
    game.p("bo")["traits"].update(might=6, speed=6)
    before_bo = pos(game, "bo")
    draw_event(game, "sound_of_looming_doom")
    assert value(game, "ann", "speed") == 5
    game.decide_all()
    now = pos(game, "bo")
    assert before_bo["might"] + before_bo["speed"] - now["might"] - now["speed"] == 4


def test_sound_of_looming_doom_ties_roll_again(game, dice):
    # Card: Sound of Looming Doom ("tied ... roll again among themselves")
    dice.next(2, 2, 0, 0)  # Ann 4
    dice.next(2, 2, 0)     # Bo 4
    dice.next(0, 0, 0, 0)  # Cy 0: lowest
    dice.next(2, 2)        # Ann again: 4
    dice.next(0, 0)        # Bo again: 0
    draw_event(game, "sound_of_looming_doom")
    assert value(game, "ann", "speed") == 5 and pos(game, "bo")["speed"] == 3


def test_stalking_shadow(game, dice):
    # Card: Stalking Shadow (2-3: lose 1 Sanity)
    dice.next(1, 1, 0, 0)
    draw_event(game, "stalking_shadow")
    assert value(game, "ann", "sanity") == 2


def test_test_of_the_dead_three_rewards_three_good_rolls(game, dice):
    # Card: Test of the Dead Three (all three 2+: gain 1 in one of those traits)
    dice.next(2, 0, 0, 0, 0)
    dice.next(2, 0, 0, 0)
    dice.next(2, 0, 0)
    draw_event(game, "test_of_the_dead_three")
    assert game.state["pending"]["options"] == ["Might", "Speed", "Knowledge"]
    game.do("decide", "ann", choice="Knowledge")
    assert game.p("ann")["traits"]["knowledge"] == 4


def test_test_of_the_dead_three_costs_for_each_low_roll(game, dice):
    # Card: Test of the Dead Three (0-1 costs 1 in that trait; no reward)
    before = pos(game, "ann")
    dice.next(0)
    dice.next(2)
    dice.next(1)
    draw_event(game, "test_of_the_dead_three")
    now = pos(game, "ann")
    assert now["might"] == before["might"] - 1 and now["knowledge"] == before["knowledge"] - 1
    assert now["speed"] == before["speed"] and game.state["pending"] is None


def test_the_green_devil_face_takes_your_items(game, dice):
    # Card: The Green Devil Face (1-2: discard every item, to the Elfsong Tavern, lose 1 Sanity)
    give(game, "ann", "crossbow")
    give(game, "ann", "shiny_rock")
    dice.next(1, 0, 0, 0)
    draw_event(game, "the_green_devil_face")
    assert not game.p("ann")["cards"] and game.p("ann")["tile"] == "elfsong_tavern"
    assert value(game, "ann", "sanity") == 2


def test_the_green_devil_face_zero_before_the_haunt_is_a_one(game, dice):
    # Card: The Green Devil Face (0: before the haunt, resolve it as 1-2)
    give(game, "ann", "crossbow")
    dice.next(0, 0, 0, 0)
    draw_event(game, "the_green_devil_face")
    assert not game.p("ann")["cards"] and game.p("ann")["tile"] == "elfsong_tavern"
    assert game.p("ann")["alive"]


def test_the_storm_drives_street_walkers_indoors(game, dice):
    # Card: The Storm (street tiles: move to the nearest building, roll 1 die per space moved)
    # Ruling: the Storm puts you in the building; the tiles on the way do nothing
    before = pos(game, "ann")
    dice.next(2)  # 1 space to the Kitchen: 1 die showing 2 -> 2-3: 1 physical damage
    draw_event(game, "the_storm")
    assert any("rolls dice (1 die)" in t for t in game.texts())
    game.decide_all()
    assert game.p("ann")["tile"] == "kitchen"
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1


def test_the_storm_without_a_building_in_reach_rolls_eight(game, dice):
    # Card: The Storm ("or 8 dice if they could not reach a building")
    game.p("ann")["traits"]["speed"] = 1  # Speed 2
    game.place("fountain", "city", -1, -1)
    game.place("ambush_alley", "city", -1, -2)
    draw_event(game, "the_storm")
    game.put("ann", "ambush_alley")
    from tests.test_effects_kit import run_steps
    card = game.c.cards["the_storm"]
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    run_steps(game, "ann", card.on_draw, source="the_storm")
    assert any("(8 dice)" in t for t in game.texts())


def test_trapper_ends_your_turn_and_holds_you(game, dice):
    # Card: Trapper (0: 1 die damage, turn ends, keep; next turn roll Might +1 die per adventurer there)
    # Ruling: the Trapper's extra dice count the other adventurers on your tile
    dice.next(0, 0, 0, 0, 0)
    dice.next(1)
    draw_event(game, "trapper")
    game.decide_all()
    assert "trapper" in game.p("ann")["cards"]
    assert game.state["turn"]["player"] == "bo"
    game.put("bo", "dead_end")
    game.do("end", "bo")
    dice.next(0, 0, 0, 0, 0, 1)  # 6 dice: Might 5 and Bo's help
    game.do("end", "cy")
    game.decide_all()
    assert any("(6 dice)" in t for t in game.texts())
    assert "trapper" in game.state["discard"]["event"]
    assert game.state["turn"]["player"] == "ann"


def test_trapper_zero_again_keeps_you_trapped(game, dice):
    # Card: Trapper ("discard this card unless you roll 0 again"); Ruling: a 0 again ends that turn too
    dice.next(0, 0, 0, 0, 0)
    draw_event(game, "trapper")
    game.decide_all()
    game.do("end", "bo")
    game.do("end", "cy")
    game.decide_all()
    assert "trapper" in game.p("ann")["cards"]
    assert game.state["turn"]["player"] == "bo"


def test_troglodyte_stench_weakens_might_rolls_there(game, dice):
    # Card: Troglodyte Stench (Might rolls made on this tile use 2 fewer dice)
    draw_event(game, "troglodyte_stench")
    assert tk.with_card(game.state, "troglodyte_stench")
    game.state["turn"]["stopped"] = True
    from tests.test_effects_kit import run_steps
    run_steps(game, "ann", game.c.cards["go_for_the_eyes"].on_draw, source="go_for_the_eyes")
    assert any("rolls Might (3 dice" in t for t in game.texts())


def test_vampiric_mist(game, dice):
    # Card: Vampiric Mist (4+: gain 1 Speed)
    dice.next(2, 2, 0)
    draw_event(game, "vampiric_mist")
    assert value(game, "ann", "speed") == 5


def test_wererat_bite(game, dice):
    # Card: Wererat Bite (keep; -1 Knowledge, -1 Sanity, +1 Might, +1 Speed; nobody infected twice)
    before = pos(game, "ann")
    draw_event(game, "wererat_bite")
    now = pos(game, "ann")
    assert now == {"might": before["might"] + 1, "speed": before["speed"] + 1,
                   "knowledge": before["knowledge"] - 1, "sanity": before["sanity"] - 1}
    assert "wererat_bite" in game.p("ann")["cards"]
    assert any(m["kind"] == "wererat" for m in game.p("ann")["marks"])
    assert game.c.cards["wererat_bite"].traitor_may_shed


def test_will_o_wisp_takes_you_off_the_board(game, dice):
    # Card: Will-o'-Wisp (2-3: off the board; next turn onto an omen tile, else the Elfsong Tavern; 1 die)
    # Ruling: off the board, nothing on the board affects you
    dice.next(1, 1, 0)
    draw_event(game, "will_o_wisp")
    assert any(m["kind"] == "away" for m in game.p("ann")["marks"])
    game.put("bo", "dead_end")
    game.do("end", "ann")
    from bot.games.babg.engine.state import players_on
    assert players_on(game.state, "dead_end") == ["bo"]
    game.do("end", "bo")
    before = pos(game, "ann")
    dice.next(2)
    game.do("end", "cy")
    game.decide_all()
    assert game.p("ann")["tile"] == "elfsong_tavern" and not game.p("ann")["marks"]
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 2
    assert "will_o_wisp" in game.state["discard"]["event"]
    assert not game.state["turn"]["stopped"], "Ruling: coming back does not end your movement"


def test_will_o_wisp_returns_on_an_omen_tile(game, dice):
    # Card: Will-o'-Wisp ("put it on any omen tile in play")
    game.place("murder_row", "city", 3, 0)
    game.place("house_of_blood", "city", 1, -1)
    dice.next(1, 1, 0)
    draw_event(game, "will_o_wisp")
    game.do("end", "ann")
    game.do("end", "bo")
    game.do("end", "cy")
    assert game.state["pending"]["options"] == ["House of Blood", "Murder Row"] or \
        sorted(game.state["pending"]["options"]) == ["House of Blood", "Murder Row"]
    game.do("decide", "ann", choice="Murder Row")
    game.decide_all()
    assert game.p("ann")["tile"] == "murder_row"


def test_yellow_mold(game, dice):
    # Card: Yellow Mold (token and card stay; you now and anyone entering later roll Might; 1-3: lose 1 Might)
    dice.next(1, 1, 0, 0, 0)
    draw_event(game, "yellow_mold")
    assert value(game, "ann", "might") == 5 and game.p("ann")["traits"]["might"] == 2
    my_turn(game, "bo")
    game.state["turn"]["stopped"] = False
    game.put("bo", "kitchen")
    before = pos(game, "bo")
    dice.next(1, 0)
    game.do("move", "bo", way="west")
    assert pos(game, "bo")["might"] == before["might"] - 1
    assert tk.with_card(game.state, "yellow_mold"), "the mold stays"


def test_zhentarim_opportunist_paid(game, dice):
    # Card: Zhentarim Opportunist (discard an item card with this card)
    give(game, "ann", "crossbow")
    draw_event(game, "zhentarim_opportunist")
    game.do("decide", "ann", choice="Discard Crossbow")
    assert "crossbow" in game.state["discard"]["item"]
    assert "zhentarim_opportunist" in game.state["discard"]["event"]


def test_zhentarim_opportunist_refused_and_hurt(game, dice):
    # Card: Zhentarim Opportunist (refuse: a Might 4 attack; if hurt, it and the top 3 events go back on top)
    top3 = [c for c in game.state["decks"]["event"] if c != "zhentarim_opportunist"][:3]
    dice.next(2, 2, 2, 2)     # Cy rolls 4 dice: 8
    dice.next(1, 0, 0, 0, 0)  # Ann defends with Might: 1
    draw_event(game, "zhentarim_opportunist")
    game.decide_all()
    assert sorted(game.state["decks"]["event"][:4]) == sorted(top3 + ["zhentarim_opportunist"])
    assert "zhentarim_opportunist" not in game.state["discard"]["event"]
    check(game.c, game.state)


def test_zhentarim_opportunist_refused_and_unhurt(game, dice):
    # Card: Zhentarim Opportunist (no damage: the card is simply discarded)
    # Ruling: a card's attack never hurts the player who rolls for it, and is not their own roll
    give(game, "ann", "crossbow")
    draw_event(game, "zhentarim_opportunist")
    dice.next(0, 0, 0, 0)
    dice.next(2, 0, 0, 0, 0)
    game.do("decide", "ann", choice="Refuse to pay")
    assert "zhentarim_opportunist" in game.state["discard"]["event"]
    assert game.p("ann")["cards"] == ["crossbow"]


def test_murderers_vision(game, dice):
    # Card: Murderer's Vision (4+: gain 1 Sanity)
    dice.next(2, 2, 0)
    draw_event(game, "murderers_vision")
    assert value(game, "ann", "sanity") == 4


def test_every_event_has_a_test_here():
    import pathlib
    import re
    text = pathlib.Path(__file__).read_text()
    from bot.games.babg.content import load_content
    names = {c.name for c in load_content().cards.values() if c.deck == "event"}
    named = set(re.findall(r"# Card: ([^(\n;]+?)\s*(?:\(|;|$)", text, re.M))
    assert names <= named, names - named


def test_zhentarim_roller_is_not_hurt_and_keeps_their_curse(game, dice):
    # Card: Zhentarim Opportunist; Ruling: a card's attack never hurts the player who rolls for it, and is
    # not their own roll
    from bot.games.babg.engine import marks
    from bot.games.babg.engine.ctx import Ctx
    marks.add(Ctx(game.c, game.state), "cy", "cursed")
    before_cy = pos(game, "cy")
    dice.next(0, 0, 0, 0)     # Cy rolls 0 for the card
    dice.next(2, 2, 0, 0, 0)  # Ann defends with 4
    draw_event(game, "zhentarim_opportunist")
    assert pos(game, "cy") == before_cy
    assert any(m["kind"] == "cursed" for m in game.p("cy")["marks"])


def test_zhentarim_damage_is_judged_before_armour(game, dice):
    # Card: Zhentarim Opportunist ("If you take any damage"); Ruling: judged by the attack, before armour
    give(game, "ann", "chain_mail")
    dice.next(2, 2, 1, 0)     # Cy: 5
    dice.next(2, 2, 0, 0, 0)  # Ann: 4, 1 damage, which the Chain Mail stops
    before = pos(game, "ann")
    draw_event(game, "zhentarim_opportunist")
    game.do("decide", "ann", choice="Refuse to pay")
    assert pos(game, "ann") == before
    assert "zhentarim_opportunist" in game.state["decks"]["event"][:4]


def test_sound_of_looming_doom_endless_ties(game, dice):
    # Card: Sound of Looming Doom; Ruling: after 10 tied rounds the first tied player in turn order wins
    draw_event(game, "sound_of_looming_doom")  # every die shows 0: everyone ties, round after round
    assert value(game, "ann", "speed") == 5
    assert any("rolled lowest" in t and t.startswith("Sound of Looming Doom: Bo") for t in game.texts()), "never both highest and lowest"


def test_infernal_pact_with_every_trait_at_its_lowest(game, dice):
    # Card: Infernal Pact; Ruling: with no trait above its lowest the card does nothing
    game.p("ann")["traits"].update(might=1, speed=1, knowledge=1, sanity=1)
    draw_event(game, "infernal_pact")
    assert game.state["pending"] is None and "infernal_pact" in game.state["discard"]["event"]


def test_a_card_drawn_while_the_turn_ends_acts_from_the_next_turn(game, dice):
    # Card: Crawling Claw; Rulebook: Special Tiles, Ambush Alley;
    # Ruling: end-of-turn effects are the ones in front of you when the turn ends
    game.place("ambush_alley", "city", 2, -1, rot=0)
    game.put("ann", "ambush_alley")
    game.top_card("event", "crawling_claw")
    dice.next(0, 0, 0, 0, 0)
    before = pos(game, "ann")
    game.do("end", "ann")
    assert "crawling_claw" in game.p("ann")["cards"]
    assert pos(game, "ann") == before


def test_being_put_on_a_tile_counts_as_entering_it(game, dice):
    # Card: Green Slime, Helm of Teleportation; Ruling: being put on a tile counts as entering it
    game.p("bo")["traits"]["knowledge"] = 8
    game.state["decks"]["event"].remove("green_slime")
    tk.place(game.state, "Green Slime", "kitchen", card="green_slime")
    give(game, "bo", "helm_of_teleportation")
    my_turn(game, "bo")
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)  # Knowledge 8: teleport
    game.do("use", "bo", card="Helm of Teleportation")
    before = pos(game, "bo")
    dice.next(0, 0, 0)  # Speed roll for the slime: 0
    dice.next(2)
    game.do("decide", "bo", choice="Kitchen")
    game.decide_all()
    assert game.p("bo")["tile"] == "kitchen"
    assert sum(pos(game, "bo").values()) == sum(before.values()) - 2, "the slime's 1 die of damage"
