"""Clause-by-clause audit of the 47 tiles (rules_data/tiles.toml): each tile's
`rule` text against its own data, and each clause no other test file checked,
played through the real actions."""
import re

import pytest

from bot.games.babg.engine import IllegalAction
from tests.conftest import Game
from tests.test_effects_haunt_cards import monster, wererat
from tests.test_effects_kit import draw_event, give, my_turn
from tests.test_haunt_play import all_ready, attack_ready, revealed

def _tile_ids():
    from bot.games.babg.content import load_content
    return sorted(load_content().tiles)


ALL_TILES = _tile_ids()


def rolls(g):
    return [e for e in g.events if e["kind"] == "roll"]


def pos(g, pid, trait):
    """Where the trait's marker stands on its track (a gain or loss of 1 moves it one square)."""
    return g.p(pid)["traits"][trait]


def physical(g, pid):
    return pos(g, pid, "might") + pos(g, pid, "speed")


def mental(g, pid):
    return pos(g, pid, "knowledge") + pos(g, pid, "sanity")


def turn_of(g, pid):
    """Make it `pid`'s own (not the monsters') turn in a haunt game, fresh."""
    my_turn(g, pid)


def monster_turn(g, m, spaces):
    g.state["turn"] = {**g.state["turn"], "player": "bo", "monsters": True, "moves": {m["name"]: spaces},
                       "acted": [], "attacked": [], "ending": False}


# --- every tile: its rule text against its data --------------------------------------------------------------

# What each tile's rule text, read by hand, asks of the data (every tile not named: no rule of its own).
RULED = {
    "kitchen": {"stairs"}, "kitchen_basement": {"stairs"}, "weapon_shop": {"stairs"},
    "weapon_shop_basement": {"stairs"},
    "inner_chamber": set(), "elfsong_tavern": set(), "catacomb_landing": set(),
    "hall_of_wonders": {"once_end_turn"}, "beloved_ranger_statue": {"once_end_turn"}, "fountain": {"once_end_turn"},
    "gladiator_pit": {"once_end_turn"},
    "house_of_blood": {"on_leave"}, "haunted_alley": {"on_leave"}, "arcane_retreat": {"on_leave"},
    "trading_post": {"on_end_turn"}, "ambush_alley": {"on_end_turn"}, "rats_nest": {"on_end_turn"},
    "shrine_to_bhaal": {"on_end_turn"},
    "cursed_statue": {"grate"}, "gray_harbor": {"grate"}, "murder_row": {"grate"},
    "assassins_run": {"barrier"}, "flooded_chamber": {"barrier"},
    "forgotten_cache": {"action"},
}


def features(tile) -> set[str]:
    found = set()
    if tile.stairs_to:
        found.add("stairs")
    if tile.sewer_grate:
        found.add("grate")
    if tile.barrier:
        found.add("barrier")
    for key, name in (("on_leave", "on_leave"), ("on_end_turn", "on_end_turn"),
                      ("once_per_game_on_end_turn", "once_end_turn"), ("action", "action"), ("on_enter", "on_enter")):
        if tile.effects.get(key):
            found.add(name)
    return found


@pytest.mark.parametrize("tile_id", ALL_TILES)
def test_each_tile_rule_text_and_data_agree(content, tile_id):
    # Tile: every tile (its rule text, read clause by clause, is what its data encodes; a tile with no rule of its
    # own has no data beyond doorways and symbol)
    tile = content.tiles[tile_id]
    assert features(tile) == RULED.get(tile_id, set())
    if tile.stack != "start":
        assert (tile.rule == "") == (tile_id not in RULED)


def test_the_rule_numbers_match_the_data(content):
    # Tile: House of Blood, Haunted Alley, Arcane Retreat (the leaving roll's trait, target and loss);
    # Hall of Wonders, Beloved Ranger Statue, Fountain, Gladiator Pit (the trait gained); Rat's Nest, Shrine to
    # Bhaal (the damage's kind); Assassin's Run, Flooded Chamber (the crossing roll); Forgotten Cache (its roll)
    t = content.tiles
    for tid in ("house_of_blood", "haunted_alley", "arcane_retreat"):
        m = re.search(r"make a (\w+) roll\. On (\d) or more nothing happens; on 0-(\d) you lose 1 (\w+)", t[tid].rule)
        roll = t[tid].effects["on_leave"][0]
        assert roll["trait"] == m[1].lower()
        assert roll["bands"][0] == {"at_least": int(m[2]), "then": []}
        assert roll["bands"][1]["at_most"] == int(m[3]) == int(m[2]) - 1
        assert roll["bands"][1]["then"] == [{"do": "lose", "trait": m[4].lower(), "amount": 1}]
    for tid in ("hall_of_wonders", "beloved_ranger_statue", "fountain", "gladiator_pit"):
        m = re.search(r"Once per game, each adventurer who finishes a turn on this tile gains 1 (\w+)", t[tid].rule)
        assert t[tid].effects["once_per_game_on_end_turn"] == [{"do": "gain", "trait": m[1].lower(), "amount": 1}]
    for tid in ("rats_nest", "shrine_to_bhaal"):
        m = re.search(r"costs you 1 point of (\w+) damage", t[tid].rule)
        assert t[tid].effects["on_end_turn"] == [{"do": "damage", "kind": m[1], "amount": 1}]
    for tid in ("assassins_run", "flooded_chamber"):
        m = re.search(r"make a (\w+) (\d)\+ roll", t[tid].rule)
        assert t[tid].barrier == {"trait": m[1].lower(), "target": int(m[2])}
    m = re.search(r"make a (\w+) roll\. On (\d) or more draw an item card; on 0-(\d) take 1 point of (\w+) damage",
                  t["forgotten_cache"].rule)
    roll = t["forgotten_cache"].effects["action"][0]
    assert roll["trait"] == m[1].lower()
    assert roll["bands"][0]["at_least"] == int(m[2]) and {"do": "draw", "deck": "item"} in roll["bands"][0]["then"]
    assert roll["bands"][1]["at_most"] == int(m[3])
    assert roll["bands"][1]["then"] == [{"do": "damage", "kind": m[4], "amount": 1}]


def test_stairs_pair_up_and_grates_are_on_street_tiles(content):
    # Tile: Kitchen, Kitchen Basement, Weapon Shop, Weapon Shop Basement (each stairway leads to the tile its rule
    # names and back, for 2 spaces); Cursed Statue, Gray Harbor, Murder Row (grates on street tiles only)
    t = content.tiles
    for tid, tile in t.items():
        if tile.stairs_to:
            assert t[tile.stairs_to].name in tile.rule
            assert t[tile.stairs_to].stairs_to == tid
            assert tile.stairs_extra_cost == 1 and "2 spaces" in tile.rule
        if tile.sewer_grate:
            assert tile.kind == "street" and "Catacomb Landing for 1 space" in tile.rule
    assert {tid for tid, tile in t.items() if tile.stairs_to} == {"kitchen", "kitchen_basement", "weapon_shop",
                                                                   "weapon_shop_basement"}


@pytest.mark.parametrize("tile_id", ALL_TILES)
def test_stairs_and_grate_are_offered_exactly_where_the_tile_has_them(game, tile_id):
    # Tile: every tile (the stairs and sewer grate ways exist only on the tiles whose data has them; a stairway
    # is closed until its other end is in play; stairs cost 2 spaces, a grate 1)
    tile = game.c.tiles[tile_id]
    if tile_id not in game.state["board"]:
        game.place(tile_id, tile.level, 10 + ALL_TILES.index(tile_id) * 2, 10)
    game.put("ann", tile_id)
    ways = game.engine.ways_out(game.state, "ann")
    assert ("grate" in ways) == tile.sewer_grate
    assert ("stairs" in ways) == bool(tile.stairs_to)
    if tile.sewer_grate:
        assert ways["grate"]["to"] == "catacomb_landing" and ways["grate"]["cost"] == 1
    if tile.stairs_to:
        assert ways["stairs"]["cost"] == 2
        assert ("blocked" in ways["stairs"]) == (tile.stairs_to not in game.state["board"])


# --- sewer grates and stairs ---------------------------------------------------------------------------------

@pytest.mark.parametrize("tile_id", ["cursed_statue", "gray_harbor", "murder_row"])
def test_every_grate_drops_to_the_landing_for_one_space(game, tile_id):
    # Tile: Cursed Statue, Gray Harbor, Murder Row (the grate is a 1-space, one-way drop to the Catacomb Landing)
    game.place(tile_id, "city", 7, 7)
    game.put("ann", tile_id)
    game.do("move", "ann", way="grate")
    assert game.p("ann")["tile"] == "catacomb_landing" and game.state["turn"]["moved"] == 1
    assert not game.state["turn"]["stopped"]
    assert not any(tile_id in (w.get("to") or "") for w in game.engine.ways_out(game.state, "ann").values())


def test_after_a_grate_drop_the_rest_of_the_speed_carries_on(game):
    # Tile: Murder Row, Catacomb Landing, Kitchen Basement (drop through the grate for 1, step across for 1, climb
    # the stairs for 2: Speed 4 spent, and the stairs are the way back up)
    game.place("murder_row", "city", 2, 1, rot=0)
    game.put("ann", "murder_row")  # Torskar: Speed 4
    game.do("move", "ann", way="grate")
    game.do("move", "ann", way="west")
    assert game.p("ann")["tile"] == "kitchen_basement" and game.state["turn"]["moved"] == 2
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "kitchen" and game.state["turn"]["moved"] == 4
    with pytest.raises(IllegalAction, match="0 of your 4 Speed left"):
        game.do("move", "ann", way="east")


def test_climbing_the_kitchen_stairs_then_moving_on(game):
    # Tile: Kitchen Basement (the stairs up cost 2 and movement goes on with what is left)
    game.put("ann", "kitchen_basement")
    game.do("move", "ann", way="stairs")
    game.do("move", "ann", way="east")
    game.do("move", "ann", way="east")
    assert game.p("ann")["tile"] == "elfsong_tavern" and game.state["turn"]["moved"] == 4


def test_weapon_shop_basement_stairs_wait_for_the_weapon_shop(game):
    # Tile: Weapon Shop Basement (its stairs work only once the Weapon Shop is in play too; then 2 spaces)
    game.place("weapon_shop_basement", "catacomb", 1, 1, rot=0)  # its north doorway joins the Catacomb Landing
    game.put("ann", "weapon_shop_basement")
    with pytest.raises(IllegalAction, match="has not been found yet"):
        game.do("move", "ann", way="stairs")
    game.place("weapon_shop", "city", 1, -1, rot=2)
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "weapon_shop" and game.state["turn"]["moved"] == 2


# --- monsters on tiles with rules ------------------------------------------------------------------------------

def test_a_monster_uses_grates_and_stairs(engine):
    # Tile: Murder Row, Catacomb Landing, Kitchen Basement (a monster drops through the grate, cannot climb back
    # up it, and takes the stairs for 2 spaces)
    g = attack_ready(engine)
    g.place("murder_row", "city", 2, 1, rot=0)
    rat = wererat(g, "murder_row")
    monster_turn(g, rat, 4)
    g.do("monster", "bo", op="move", monster=rat["id"], way="grate")
    assert monster(g, rat)["tile"] == "catacomb_landing"
    with pytest.raises(IllegalAction, match="cannot go grate"):
        g.do("monster", "bo", op="move", monster=rat["id"], way="grate")
    g.do("monster", "bo", op="move", monster=rat["id"], way="west")
    g.do("monster", "bo", op="move", monster=rat["id"], way="stairs")
    assert monster(g, rat)["tile"] == "kitchen" and monster(g, rat)["moved"] == 4


def test_a_monster_leaves_the_house_of_blood_without_a_roll(engine, dice):
    # Tile: House of Blood (its leaving roll is harmful text, which monsters ignore)
    g = attack_ready(engine)  # the House of Blood lies north of the Inner Chamber
    rat = wererat(g, "house_of_blood")
    monster_turn(g, rat, 3)
    g.do("monster", "bo", op="move", monster=rat["id"], way="south")
    assert monster(g, rat)["tile"] == "inner_chamber"
    assert not rolls(g)


def test_a_monster_gains_nothing_on_a_trait_tile(engine):
    # Tile: Gladiator Pit (a monster ending its turn there gets no Might: only adventurers take a tile's gains)
    g = attack_ready(engine)
    g.place("gladiator_pit", "catacomb", 5, 5)
    rat = wererat(g, "gladiator_pit")
    before = dict(monster(g, rat)["traits"])
    monster_turn(g, rat, 3)
    g.do("end", "bo")
    assert monster(g, rat)["traits"] == before


# --- the traitor on tiles with rules -----------------------------------------------------------------------------

def test_the_traitor_leaves_the_house_of_blood_without_a_roll(engine, dice):
    # Tile: House of Blood (the Sanity roll on leaving is harmful text: a traitor skips it)
    g = attack_ready(engine)  # haunt 18: Bo is the traitor
    g.put("bo", "house_of_blood")
    turn_of(g, "bo")
    speed = pos(g, "bo", "speed")
    g.do("move", "bo", way="south")
    assert g.p("bo")["tile"] == "inner_chamber"
    assert not rolls(g) and pos(g, "bo", "speed") == speed


def test_the_traitor_passes_the_assassins_run_without_rolling(engine, dice):
    # Tile: Assassin's Run (a traitor crosses the barrier with no Speed roll, still at no cost in movement)
    g = attack_ready(engine)
    g.place("assassins_run", "catacomb", 1, 1, rot=0)
    g.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    g.put("bo", "catacomb_landing")
    turn_of(g, "bo")
    g.do("move", "bo", way="south")
    g.do("move", "bo", way="south")
    assert g.p("bo")["tile"] == "dusty_cellar" and g.state["turn"]["moved"] == 2
    assert not rolls(g)


def test_the_traitor_still_gains_on_the_gladiator_pit_once(engine):
    # Tile: Gladiator Pit (its gain is good text, which the traitor keeps; once per game for them too)
    g = attack_ready(engine)
    g.place("gladiator_pit", "catacomb", 5, 5)
    g.put("bo", "gladiator_pit")
    turn_of(g, "bo")
    might = pos(g, "bo", "might")
    g.do("end", "bo")
    assert pos(g, "bo", "might") == might + 1
    turn_of(g, "bo")
    g.do("end", "bo")
    assert pos(g, "bo", "might") == might + 1


def test_the_traitor_may_still_swap_at_the_trading_post(engine):
    # Tile: Trading Post (the swap is optional good text, which a traitor may use)
    g = attack_ready(engine)
    g.give("bo", "crossbow")
    g.place("trading_post", "city", 2, 1, rot=2)
    g.put("bo", "trading_post")
    turn_of(g, "bo")
    g.do("end", "bo")
    assert g.state["pending"] and g.state["pending"]["options"] == ["Discard Crossbow", "Keep your items"]


def test_the_traitor_ignores_the_forgotten_cache_damage(engine, dice):
    # Tile: Forgotten Cache (a traitor may try the roll for the item but ignores the damage of a miss)
    g = attack_ready(engine)
    g.place("forgotten_cache", "catacomb", 1, -1, rot=0)
    g.put("bo", "forgotten_cache")
    turn_of(g, "bo")
    before = physical(g, "bo")
    dice.next(0, 0, 0, 0)  # a miss
    g.do("roll", "bo")
    g.decide_all()
    assert physical(g, "bo") == before


def _hidden_traitor_on_the_shrine(engine):
    g = revealed(engine, "arcane_retreat", "whispering_skull", revealer="cy")  # haunt 19: hidden traitor
    all_ready(g)
    assert g.state["haunt"]["traitors"] == ["bo"]
    g.place("shrine_to_bhaal", "catacomb", 5, 5)
    g.put("bo", "shrine_to_bhaal")
    turn_of(g, "bo")
    return g


def test_a_masked_hidden_traitor_is_still_hurt_by_the_shrine_to_bhaal(engine):
    # Tile: Shrine to Bhaal (only the traitor may ignore it; a hidden traitor must show the token first)
    g = _hidden_traitor_on_the_shrine(engine)
    before = mental(g, "bo")
    g.do("end", "bo")
    g.decide_all()
    assert mental(g, "bo") == before - 1


def test_an_unmasked_hidden_traitor_ignores_the_shrine_to_bhaal(engine):
    # Tile: Shrine to Bhaal (the traitor may ignore it; a hidden traitor who has shown the token is the traitor)
    g = _hidden_traitor_on_the_shrine(engine)
    g.do("unmask", "bo")
    before = mental(g, "bo")
    g.do("end", "bo")
    g.decide_all()
    assert mental(g, "bo") == before


# --- once per game, per player -------------------------------------------------------------------------------

ONCE = [("hall_of_wonders", "knowledge"), ("beloved_ranger_statue", "speed"), ("fountain", "sanity"),
        ("gladiator_pit", "might")]


@pytest.mark.parametrize("tile, trait", ONCE)
def test_once_per_game_is_once_for_each_player(game, tile, trait):
    # Tile: Hall of Wonders, Beloved Ranger Statue, Fountain, Gladiator Pit (each adventurer gets the gain once:
    # one player's gain does not spend another's)
    game.place(tile, game.c.tiles[tile].level, 5, 5)
    game.put("ann", tile)
    game.put("bo", tile)
    start = {pid: pos(game, pid, trait) for pid in ("ann", "bo")}
    game.do("end", "ann")
    game.do("end", "bo")
    assert {pid: pos(game, pid, trait) for pid in ("ann", "bo")} == {pid: v + 1 for pid, v in start.items()}
    game.do("end", "cy")
    game.do("end", "ann")
    game.do("end", "bo")
    assert {pid: pos(game, pid, trait) for pid in ("ann", "bo")} == {pid: v + 1 for pid, v in start.items()}


def test_once_per_game_is_once_for_each_tile(game):
    # Tile: Fountain, Beloved Ranger Statue (the Fountain's gain spent does not spend the statue's)
    game.place("fountain", "city", 5, 5)
    game.place("beloved_ranger_statue", "city", 7, 5)
    game.put("ann", "fountain")
    sanity, speed = pos(game, "ann", "sanity"), pos(game, "ann", "speed")
    game.do("end", "ann")
    game.put("ann", "beloved_ranger_statue")
    my_turn(game, "ann")
    game.do("end", "ann")
    assert (pos(game, "ann", "sanity"), pos(game, "ann", "speed")) == (sanity + 1, speed + 1)


def test_passing_over_the_fountain_gains_nothing_and_spends_nothing(game):
    # Tile: Fountain (the gain needs the turn to end on it; walking across it neither gains nor uses it up)
    game.place("fountain", "city", 2, -1, rot=0)  # north of the Elfsong Tavern
    sanity = pos(game, "ann", "sanity")
    game.do("move", "ann", way="north")
    game.do("move", "ann", way="south")
    game.do("end", "ann")
    assert pos(game, "ann", "sanity") == sanity and "tile:fountain" not in game.p("ann")["once"]
    game.put("ann", "fountain")
    my_turn(game, "ann")
    game.do("end", "ann")
    assert pos(game, "ann", "sanity") == sanity + 1


# --- end of turn because of a card -------------------------------------------------------------------------------

def test_a_trapper_ending_the_turn_on_rats_nest_still_hurts(game, dice):
    # Tile: Rat's Nest (the damage comes however the turn ends, here by a Trapper rolling 0)
    before = physical(game, "ann")
    draw_event(game, "trapper", where="catacomb")  # Ann discovers the Rat's Nest and draws the Trapper; all 0s
    game.decide_all()
    assert game.state["turn"]["player"] == "bo"
    assert physical(game, "ann") == before - 1


def test_a_trapper_ending_the_turn_on_the_trading_post_still_offers_the_swap(game, dice):
    # Tile: Trading Post (finishing the turn there, even when a card ends it, offers the swap)
    give(game, "ann", "crossbow")
    game.put("ann", "inner_chamber")
    game.top("building", "trading_post")
    game.top_card("event", "trapper")
    game.do("move", "ann", way="north")
    assert game.p("ann")["tile"] == "trading_post"
    assert game.state["pending"]["options"] == ["Discard Crossbow", "Keep your items"]


def test_a_trapper_ending_the_turn_on_ambush_alley_draws_again(game, dice):
    # Tile: Ambush Alley (the event did not move you, so ending the turn there draws one more)
    game.top("street", "ambush_alley")
    game.top_card("event", "go_for_the_eyes")
    game.top_card("event", "trapper")
    game.do("move", "ann", way="north")
    game.decide_all()
    assert game.p("ann")["tile"] == "ambush_alley"
    assert "go_for_the_eyes" in game.state["discard"]["event"]
    assert game.state["turn"]["player"] == "bo"


# --- entering by an effect rather than by movement ----------------------------------------------------------------

@pytest.mark.parametrize("tile", ["rats_nest", "ambush_alley", "fountain"])
def test_teleported_onto_a_tile_its_end_of_turn_text_still_applies(game, dice, tile):
    # Tile: Rat's Nest, Ambush Alley, Fountain (how you got there does not matter: ending the turn there counts;
    # being put there draws no card for the symbol and ends movement)
    t = game.c.tiles[tile]
    game.place(tile, t.level, 6, 6)
    give(game, "ann", "helm_of_teleportation")
    events = len(game.state["decks"]["event"])
    before = {"phys": physical(game, "ann"), "sanity": pos(game, "ann", "sanity")}
    dice.next(2, 2, 0)  # Knowledge 3: 4
    game.do("use", "ann", card="Helm of Teleportation")
    game.do("decide", "ann", choice=t.name)
    assert game.p("ann")["tile"] == tile and game.state["turn"]["stopped"]
    assert len(game.state["decks"]["event"]) == events
    game.top_card("event", "go_for_the_eyes")
    game.do("end", "ann")
    game.decide_all()
    if tile == "rats_nest":
        assert physical(game, "ann") == before["phys"] - 1
    elif tile == "ambush_alley":
        assert "go_for_the_eyes" in game.state["discard"]["event"]
    else:
        assert pos(game, "ann", "sanity") == before["sanity"] + 1


# --- leaving rolls ---------------------------------------------------------------------------------------------

LEAVING = [("house_of_blood", "city", (1, -1, 0), "south", "east", "speed"),
           ("haunted_alley", "city", (2, -1, 0), "south", "west", "sanity"),
           ("arcane_retreat", "catacomb", (1, -1, 1), "south", "west", "might")]


@pytest.mark.parametrize("tile, level, where, out, then, lost", LEAVING)
def test_a_failed_leaving_roll_lets_you_carry_on(game, dice, tile, level, where, out, then, lost):
    # Tile: House of Blood, Haunted Alley, Arcane Retreat (on a miss you lose 1 and keep moving)
    x, y, rot = where
    game.place(tile, level, x, y, rot=rot)
    game.put("ann", tile)
    before = pos(game, "ann", lost)
    game.do("move", "ann", way=out)  # every die 0: a miss
    assert pos(game, "ann", lost) == before - 1
    assert not game.state["turn"]["stopped"]
    game.do("move", "ann", way=then)
    assert game.state["turn"]["moved"] == 2


def test_the_leaving_roll_comes_every_time_you_leave(game, dice):
    # Tile: House of Blood (the roll is made whenever you leave, so twice in a turn if you leave twice)
    game.place("house_of_blood", "city", 1, -1, rot=0)
    game.put("ann", "house_of_blood")
    speed = pos(game, "ann", "speed")
    dice.next(2, 2, 0)
    game.do("move", "ann", way="south")
    assert len(rolls(game)) == 1
    game.do("move", "ann", way="north")
    assert not rolls(game), "entering it asks for no roll"
    dice.next(2, 2, 0)
    game.do("move", "ann", way="south")
    assert len(rolls(game)) == 1 and "Sanity" in rolls(game)[0]["text"]
    assert pos(game, "ann", "speed") == speed and game.state["turn"]["moved"] == 3


def test_a_leaving_roll_success_costs_nothing(game, dice):
    # Tile: Haunted Alley (3 or more: nothing happens)
    game.place("haunted_alley", "city", 2, -1, rot=0)
    game.put("ann", "haunted_alley")
    traits = dict(game.p("ann")["traits"])
    dice.next(2, 1, 0, 0)  # Speed 4: 3
    game.do("move", "ann", way="south")
    assert game.p("ann")["traits"] == traits


# --- Forgotten Cache -----------------------------------------------------------------------------------------

def test_an_item_from_the_forgotten_cache_ends_movement(game, dice):
    # Tile: Forgotten Cache (5+ draws an item card, and drawing a card ends movement)
    game.place("forgotten_cache", "catacomb", 1, -1, rot=0)  # its south doorway joins the Catacomb Landing
    game.put("ann", "forgotten_cache")
    dice.next(2, 2, 1)  # Knowledge 3: 5
    game.do("roll", "ann")
    assert any(game.c.cards[c].deck == "item" for c in game.p("ann")["cards"])
    with pytest.raises(IllegalAction, match="movement is over"):
        game.do("move", "ann", way="south")


def test_the_forgotten_cache_roll_is_open_after_the_discovery_draw(game, dice):
    # Tile: Forgotten Cache (its roll is an action, so it may be tried on the turn the tile is found, after the
    # event card for its symbol has ended movement)
    game.put("ann", "catacomb_landing")
    game.top("catacomb", "forgotten_cache")
    game.top_card("event", "go_for_the_eyes")
    game.do("move", "ann", way="north")
    game.decide_all()
    assert game.p("ann")["tile"] == "forgotten_cache" and game.state["turn"]["stopped"]
    dice.next(2, 2, 1)
    game.do("roll", "ann")
    assert any(game.c.cards[c].deck == "item" for c in game.p("ann")["cards"])


# --- barriers --------------------------------------------------------------------------------------------------

def test_discovering_a_barrier_tile_puts_you_on_the_near_half(game, dice):
    # Tile: Assassin's Run (you arrive on the half by the doorway you came through; going back costs no roll, the
    # far doorway needs the crossing roll)
    game.put("ann", "catacomb_landing")
    game.top("catacomb", "assassins_run")
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "assassins_run"
    ways = game.engine.ways_out(game.state, "ann")
    assert ways["north"]["cross"] is False and ways["south"]["cross"] is True
    game.do("move", "ann", way="north")
    assert game.p("ann")["tile"] == "catacomb_landing" and not rolls(game)


def test_no_trading_across_a_barrier(game):
    # Tile: Assassin's Run (adventurers on opposite halves cannot deal with each other: no trade)
    game.place("assassins_run", "catacomb", 1, 1, rot=0)
    give(game, "ann", "crossbow")
    game.put("ann", "assassins_run")
    game.put("bo", "assassins_run")
    game.p("ann")["half"], game.p("bo")["half"] = "north", "south"
    with pytest.raises(IllegalAction, match="your side of a barrier"):
        game.do("trade", "ann", card="Crossbow", to="bo")
    game.p("bo")["half"] = "north"
    game.do("trade", "ann", card="Crossbow", to="bo")
    assert game.state["pending"]["player"] == "bo"
