"""Audit of the rulebook's "Special Tiles", "Adventurer Powers" and "Use Item
and Omen Cards" (with "Weapons") sections: the statements no other test file
covered, each played through the real actions. An `xfail` marks a rule the
engine gets wrong; its reason says what to fix."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.turns import start_haunt
from tests.conftest import Game
from tests.test_effects_haunt_cards import monster, wererat
from tests.test_effects_kit import draw_event, give, my_turn
from tests.test_haunt_play import all_ready, attack_ready


def rolls(g):
    return [e for e in g.events if e["kind"] == "roll"]


def monster_turn(g, rat, spaces=3):
    g.state["turn"] = {**g.state["turn"], "player": "bo", "monsters": True, "moves": {rat["name"]: spaces},
                       "acted": [], "attacked": []}


# --- Special Tiles -------------------------------------------------------------------------------

def _stuck_on_assassins_run(game, dice):
    """Ann enters the Assassin's Run from the north and fails the Speed roll to cross it."""
    game.place("assassins_run", "catacomb", 1, 1, rot=0)
    game.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="south")
    dice.next(1, 1, 0, 0)
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "assassins_run" and game.p("ann")["half"] == "north"
    assert game.state["turn"]["stopped"]


def test_barrier_roll_may_be_tried_again_next_turn(game, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber ("On your next turn, you may attempt another roll
    # to cross")
    _stuck_on_assassins_run(game, dice)
    my_turn(game, "ann")
    dice.next(2, 1)
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "dusty_cellar"


def test_barrier_after_a_failed_roll_go_back_the_way_you_came(game, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber ("or you can go back the way you came")
    _stuck_on_assassins_run(game, dice)
    my_turn(game, "ann")
    game.do("move", "ann", way="north")
    assert game.p("ann")["tile"] == "catacomb_landing"
    assert not rolls(game), "no barrier roll to go back"


def test_monsters_ignore_barriers(engine, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber ("Monsters always ignore barriers")
    g = attack_ready(engine)
    g.place("assassins_run", "catacomb", 1, 1, rot=0)
    g.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    rat = wererat(g, "catacomb_landing")
    monster_turn(g, rat)
    g.do("monster", "bo", op="move", monster=rat["id"], way="south")
    g.do("decide", "bo", choice="North half")  # the side it stands on; it crosses freely all the same
    g.do("monster", "bo", op="move", monster=rat["id"], way="south")
    assert monster(g, rat)["tile"] == "dusty_cellar"
    assert not rolls(g)


def test_monster_ending_on_a_barrier_tile_gets_the_side_the_traitor_picks(engine, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber (a monster that stops on a barrier tile is put on
    # the side the traitor picks); Ruling: a monster on a barrier tile
    g = attack_ready(engine)
    g.place("assassins_run", "catacomb", 1, 1, rot=0)
    rat = wererat(g, "catacomb_landing")
    monster_turn(g, rat)
    g.do("monster", "bo", op="move", monster=rat["id"], way="south")
    asked = g.state["pending"]
    if asked is None:
        g.do("end", "bo")
        asked = g.state["pending"]
    assert asked and asked["player"] == "bo" and any("half" in o or "side" in o for o in asked["options"])


def test_a_card_that_puts_you_on_a_barrier_tile_lets_you_pick_the_side(game, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber (put on a barrier tile by a card or tile, you pick
    # the side); Card: Helm of Teleportation
    game.place("assassins_run", "catacomb", 1, 1, rot=0)
    give(game, "ann", "helm_of_teleportation")
    dice.next(2, 2, 0)
    game.do("use", "ann", card="Helm of Teleportation")
    options = game.state["pending"]["options"]
    assert "Assassin's Run (north half)" in options and "Assassin's Run (south half)" in options
    game.do("decide", "ann", choice="Assassin's Run (south half)")
    assert game.p("ann")["tile"] == "assassins_run" and game.p("ann")["half"] == "south"


def test_familiar_echoes_onto_a_barrier_tile_lets_you_pick_the_side(game, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber (put on a barrier tile by a card or tile, you pick
    # the side); Card: Familiar Echoes
    game.place("assassins_run", "city", 3, 0, rot=1)  # east of the Elfsong Tavern: west doorway joins it
    game.put("bo", "assassins_run")
    game.p("bo")["half"] = "south"
    game.put("cy", "catacomb_landing")
    my_turn(game, "ann")
    game.put("ann", "inner_chamber")
    game.top("building", "spys_roost")
    game.top_card("event", "familiar_echoes")
    dice.next(2, 1, 0)
    game.do("move", "ann", way="north")  # discovers the Spy's Roost, draws Familiar Echoes
    pending = game.state["pending"]
    assert pending and pending["player"] == "ann" and "Assassin's Run (north half)" in pending["options"]


def test_a_token_put_on_a_barrier_tile_stays_on_the_side_chosen(game, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber ("that token is permanently on the side of the tile
    # you chose"); Card: Arcane Gate
    game.place("assassins_run", "catacomb", 1, 1, rot=0)
    draw_event(game, "arcane_gate")  # Ann on the Dead End
    game.do("decide", "ann", choice="Assassin's Run (south half)")
    gate = next(t for t in game.state["tokens"] if t["tile"] == "assassins_run")
    assert gate["half"] == "south"
    my_turn(game, "ann")
    game.do("move", "ann", way="gate")
    assert game.p("ann")["tile"] == "assassins_run" and game.p("ann")["half"] == "south"
    my_turn(game, "ann")
    game.p("ann")["half"] = "north"
    dice.next(0, 0, 0, 0)
    game.do("move", "ann", way="gate")  # the gate is on the far side: the barrier roll first
    assert any("fails to cross" in t for t in game.texts()) and game.p("ann")["tile"] == "assassins_run"


def test_catacomb_landing_and_kitchen_basement_are_one_space_apart(game):
    # Rulebook: Special Tiles, Catacomb Landing/Kitchen Basement (two separate tiles; 1 space between them)
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="west")
    assert game.p("ann")["tile"] == "kitchen_basement" and game.state["turn"]["moved"] == 1
    game.do("move", "ann", way="east")
    assert game.p("ann")["tile"] == "catacomb_landing" and game.state["turn"]["moved"] == 2


def test_weapon_shop_stairs_cost_two_spaces(game):
    # Rulebook: Special Tiles, Weapon Shop/Weapon Shop Basement ("moving between them costs 2 spaces")
    game.place("weapon_shop", "city", 1, -1, rot=2)
    game.place("weapon_shop_basement", "catacomb", 1, -1, rot=0)
    game.put("ann", "weapon_shop")
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "weapon_shop_basement" and game.state["turn"]["moved"] == 2
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "weapon_shop" and game.state["turn"]["moved"] == 4


def test_forgotten_cache_may_be_tried_each_turn_until_it_works(game, dice):
    # Rulebook: Special Tiles, Forgotten Cache (the roll may be tried once a turn, turn after turn,
    # until it works)
    game.place("forgotten_cache", "catacomb", 1, -1, rot=2)
    game.put("ann", "forgotten_cache")
    game.p("ann")["traits"]["knowledge"] = 8
    dice.next(1, 1, 0, 0, 0, 0)  # 2: a miss
    game.do("roll", "ann")
    game.decide_all()
    assert not game.p("ann")["cards"]
    my_turn(game, "ann")
    assert {"type": "roll", "player": "ann", "what": "forgotten_cache"} in legal_actions(game.c, game.state)
    dice.next(2, 2, 1, 0, 0, 0)
    game.do("roll", "ann")
    assert [game.c.cards[c].deck for c in game.p("ann")["cards"]] == ["item"]


# --- Use Item and Omen Cards -----------------------------------------------------------------------

def test_several_dropped_items_make_one_pile_to_pick_from(game):
    # Rulebook: Use Item and Omen Cards, "Drop" (a pile if dropping more than one; later pick up "some or all")
    # and "Pick up" ("Remove the Item Pile token if all items are picked up")
    game.give("ann", "boots_of_elvenkind")
    game.give("ann", "crossbow")
    game.do("drop", "ann", card="Crossbow")
    game.do("drop", "ann", card="Boots of Elvenkind")
    assert sorted(game.state["piles"]["elfsong_tavern"]) == ["boots_of_elvenkind", "crossbow"]
    game.do("end", "ann")
    game.do("pickup", "bo", card="Crossbow")
    assert game.state["piles"]["elfsong_tavern"] == ["boots_of_elvenkind"]
    game.do("pickup", "bo", card="Boots of Elvenkind")
    assert "elfsong_tavern" not in game.state["piles"]
    assert {"crossbow", "boots_of_elvenkind"} <= set(game.p("bo")["cards"])


def test_no_limit_to_the_items_you_carry(game):
    # Rulebook: Use Item and Omen Cards ("There's no limit to the number of items you can carry")
    items = game.state["decks"]["item"][:8]
    for cid in items[:-1]:
        game.give("ann", cid)
    game.state["decks"]["item"].remove(items[-1])
    game.state["piles"]["elfsong_tavern"] = [items[-1]]
    game.do("pickup", "ann", card=items[-1])
    assert set(items) <= set(game.p("ann")["cards"])


def test_a_declined_trade_leaves_the_item_where_it_was(game):
    # Rulebook: Use Item and Omen Cards, "Trade" ("assuming you both agree")
    game.give("ann", "boots_of_elvenkind")
    game.do("trade", "ann", card="Boots of Elvenkind", to="bo")
    game.do("decide", "bo", choice="Decline")
    assert "boots_of_elvenkind" in game.p("ann")["cards"] and "boots_of_elvenkind" not in game.p("bo")["cards"]


def test_an_omen_is_dropped_picked_up_and_traded_like_an_item(game):
    # Rulebook: Use Item and Omen Cards ("Most omen cards are treated like items"; one action per item per turn)
    give(game, "ann", "pipes_of_haunting")
    game.do("drop", "ann", card="Pipes of Haunting")
    assert game.state["piles"]["elfsong_tavern"] == ["pipes_of_haunting"]
    game.do("end", "ann")
    game.do("pickup", "bo", card="Pipes of Haunting")
    with pytest.raises(IllegalAction, match="already used, dropped, picked up or traded"):
        game.do("trade", "bo", card="Pipes of Haunting", to="cy")
    game.do("end", "bo")
    game.do("end", "cy")
    game.do("end", "ann")
    game.do("trade", "bo", card="Pipes of Haunting", to="cy")
    game.do("decide", "cy", choice="Accept")
    assert "pipes_of_haunting" in game.p("cy")["cards"]


def test_an_item_that_can_be_traded_but_not_dropped(game):
    # Rulebook: Use Item and Omen Cards ("Some items can be traded ... but they can't be dropped"); Card:
    # Dimensional Shackles (traded only when both agree; -1 Speed while held)
    give(game, "ann", "dimensional_shackles")
    speed = game.p("ann")["traits"]["speed"]
    with pytest.raises(IllegalAction, match="cannot be dropped"):
        game.do("drop", "ann", card="Dimensional Shackles")
    game.do("trade", "ann", card="Dimensional Shackles", to="bo")
    game.do("decide", "bo", choice="Accept")
    assert "dimensional_shackles" in game.p("bo")["cards"]
    assert game.p("ann")["traits"]["speed"] == speed + 1


def test_attacking_with_a_weapon_is_using_it_so_it_cannot_then_be_traded(engine, dice):
    # Rulebook: Use Item and Omen Cards, "Use" (attacking with the Crossbow uses it, so it cannot also be
    # traded that turn)
    g = attack_ready(engine)  # Ann and Cy heroes, Bo the traitor, all on the Elfsong Tavern
    give(g, "ann", "crossbow")
    g.do("attack", "ann", target="bo", weapon="Crossbow")  # 0 against 0: a tie
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="already used"):
        g.do("trade", "ann", card="Crossbow", to="cy")


def test_a_weapon_picked_up_this_turn_cannot_also_attack(engine, dice):
    # Rulebook: Use Item and Omen Cards ("only one of the following actions with that item during a turn": pick up,
    # use)
    g = attack_ready(engine)
    g.state["decks"]["item"].remove("ring_of_the_ram")
    g.state["piles"]["elfsong_tavern"] = ["ring_of_the_ram"]
    g.do("pickup", "ann", card="Ring of the Ram")
    with pytest.raises(IllegalAction, match="already used"):
        g.do("attack", "ann", target="bo", weapon="Ring of the Ram")


def test_a_stolen_item_cannot_be_dropped_the_same_turn(engine, dice):
    # Rulebook: Use Item and Omen Cards ("only one of the following actions with that item during a turn": steal,
    # drop)
    g = attack_ready(engine)
    give(g, "bo", "boots_of_elvenkind")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="Steal Boots of Elvenkind")
    assert "boots_of_elvenkind" in g.p("ann")["cards"]
    with pytest.raises(IllegalAction, match="already used"):
        g.do("drop", "ann", card="Boots of Elvenkind")


def test_the_weapons_are_exactly_the_ones_the_rulebook_names(content):
    # Rulebook: Use Item and Omen Cards, "Weapons" (Berserker Axe, Book of Spells, Crossbow, Explosive Runes
    # (event), Javelin of Lightning, Necklace of Fireballs, Ring of the Ram)
    assert {c.id for c in content.cards.values() if c.weapon} == {
        "berserker_axe", "book_of_spells", "crossbow", "explosive_runes", "javelin_of_lightning",
        "necklace_of_fireballs", "ring_of_the_ram"}


def test_a_weapon_is_used_only_in_an_attack_never_in_defence(engine, dice):
    # Rulebook: Use Item and Omen Cards, "Weapons" ("used only while making an attack, not while defending")
    g = attack_ready(engine)
    give(g, "ann", "ring_of_the_ram")
    with pytest.raises(IllegalAction, match="used only when making an attack"):
        g.do("use", "ann", card="Ring of the Ram")
    assert not any(a["type"] == "use" for a in legal_actions(g.c, g.state))
    give(g, "bo", "berserker_axe")
    g.do("attack", "ann", target="bo")
    attack, defence = rolls(g)[:2]
    assert len(defence["faces"]) == g.value("bo", "might"), "the defender's axe adds no dice"


def test_one_weapon_per_attack_of_several_carried(engine, dice):
    # Rulebook: Use Item and Omen Cards, "Weapons" ("only one weapon per attack, but you can carry more than one")
    g = attack_ready(engine)
    give(g, "ann", "ring_of_the_ram")
    give(g, "ann", "berserker_axe")
    g.do("attack", "ann", target="bo", weapon="Ring of the Ram")
    assert len(rolls(g)[0]["faces"]) == g.value("ann", "might") + 1


def test_using_a_weapon_is_optional(engine, dice):
    # Rulebook: Use Item and Omen Cards, "Weapons" ("Using a weapon during an attack is optional")
    g = attack_ready(engine)
    give(g, "ann", "ring_of_the_ram")
    g.do("attack", "ann", target="bo")
    assert len(rolls(g)[0]["faces"]) == g.value("ann", "might")


# --- Adventurer Powers ----------------------------------------------------------------------------------

def test_bardic_inspiration_stays_until_used_or_its_holder_dies(engine):
    # Rulebook: Adventurer Powers, Bardic Inspiration (the token comes back to Miska only when it is used
    # or its holder dies)
    g = Game(engine, adventurers=("miska", "lia", "gretchen"), haunt="play")
    g.do("power", "ann")
    g.do("decide", "ann", choice="Bo")
    for _ in range(3):
        g.do("end", g.state["turn"]["player"])
    assert g.p("ann")["power"]["with"] == "bo", "turns passing do not bring it back"
    g.place("house_of_blood", "city", 1, -1)
    ctx = Ctx(g.c, g.state)
    start_haunt(ctx, "cy", "berserker_axe", "house_of_blood")  # haunt 18: Cy is the traitor
    all_ready(g)
    assert g.p("ann")["power"]["with"] == "bo", "nor does the haunt starting"
    g.do("trait", "bo", trait="sanity", delta="-8")
    assert not g.p("bo")["alive"]
    assert g.p("ann")["power"]["with"] is None
    my_turn(g, "ann")
    assert {"type": "power", "player": "ann"} in legal_actions(g.c, g.state)


# --- Beyond the three sections: weapon card text and its Card Clarification found while auditing ----------------

def test_berserker_axe_lets_you_go_when_no_opponent_here_can_be_attacked(engine):
    # Rulebook: Card Clarifications, Berserker Axe (free to move when a card or haunt rule stops you
    # attacking the opponents here); Card: Potion of Invisibility
    g = attack_ready(engine)
    g.put("cy", "kitchen")
    give(g, "ann", "potion_of_invisibility")
    g.do("use", "ann", card="Potion of Invisibility")
    my_turn(g, "bo")
    give(g, "bo", "berserker_axe")
    with pytest.raises(IllegalAction, match="Nobody can attack"):
        g.do("attack", "bo", target="ann", weapon="Berserker Axe")
    g.do("move", "bo", way="west")
    assert g.p("bo")["tile"] == "inner_chamber"


def test_berserker_axe_holds_you_after_an_attack_made_without_it(engine, dice):
    # Card: Berserker Axe ("you cannot leave that tile until you have attacked an opponent with the axe");
    # Ruling: Berserker Axe after an attack without the axe
    g = attack_ready(engine)
    my_turn(g, "bo")
    give(g, "bo", "berserker_axe")
    g.do("attack", "bo", target="ann")  # no weapon: 0 against 0, a tie
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="Berserker Axe"):
        g.do("move", "bo", way="west")


def test_the_crossbow_cannot_make_a_might_attack_at_a_distance(engine):
    # Card: Crossbow ("Attack with Speed instead of Might ... distance attacks"); Rulebook: Use Item and Omen
    # Cards, "Weapons"
    g = attack_ready(engine)
    give(g, "ann", "crossbow")
    g.put("bo", "kitchen")  # in line of sight through the Inner Chamber
    with pytest.raises(IllegalAction):
        g.do("attack", "ann", target="bo", trait="might", weapon="Crossbow")


def test_a_monster_deals_only_with_its_own_side_of_a_barrier(engine, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber; Ruling: a monster on a barrier tile
    g = attack_ready(engine)
    g.place("assassins_run", "catacomb", 1, 1, rot=0)
    rat = wererat(g, "catacomb_landing")
    monster_turn(g, rat)
    g.do("monster", "bo", op="move", monster=rat["id"], way="south")
    g.do("decide", "bo", choice="South half")
    g.put("ann", "assassins_run")
    g.p("ann")["half"] = "north"
    with pytest.raises(IllegalAction, match="side of the barrier"):
        g.do("monster", "bo", op="attack", monster=rat["id"], target="ann")
    g.p("ann")["half"] = "south"
    g.do("monster", "bo", op="attack", monster=rat["id"], target="ann")
    assert any("attacks Ann" in t for t in g.texts())
