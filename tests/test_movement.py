"""Rulebook: Move, Moving Between Levels, Special Tiles."""
import pytest

from bot.games.babg.engine import IllegalAction


def test_start_rooms_count_as_separate_tiles(game):
    # Rulebook: Special Tiles, "Elfsong Tavern/Inner Chamber/Kitchen" (each room is its own tile)
    game.do("move", "ann", way="west")
    assert game.p("ann")["tile"] == "inner_chamber"
    game.do("move", "ann", way="west")
    assert game.p("ann")["tile"] == "kitchen"
    assert game.state["turn"]["moved"] == 2


def test_move_up_to_speed(game):
    # Rulebook: Move ("up to a number of spaces equal to your current Speed")
    game.p("ann")["traits"]["speed"] = 1  # Torskar's lowest Speed: 2
    assert game.value("ann", "speed") == 2
    game.do("move", "ann", way="west")
    game.do("move", "ann", way="west")
    with pytest.raises(IllegalAction, match="0 of your 2 Speed left"):
        game.do("move", "ann", way="east")


def test_only_through_doorways(game):
    # Rulebook: Discover a New Tile ("You can move through a door if it connects")
    game.place("dead_end", "city", -1, 0, rot=1)  # its one doorway faces the Kitchen
    game.put("ann", "dead_end")
    with pytest.raises(IllegalAction, match="no open doorway to the north. Ways out: east"):
        game.do("move", "ann", way="north")
    with pytest.raises(IllegalAction, match="not a way to move"):
        game.do("move", "ann", way="sideways")


def test_a_false_feature_cannot_be_crossed(game):
    # Rulebook: Discover a New Tile ("You can't move through false features")
    game.place("watch_post", "city", 2, -1, rot=0)  # east/west doorways; a wall faces the Elfsong Tavern
    with pytest.raises(IllegalAction, match="no open doorway to the north"):
        game.do("move", "ann", way="north")
    assert "north" not in game.engine.ways_out(game.state, "ann")


def test_kitchen_stairs_cost_two_spaces(game):
    # Rulebook: Special Tiles, "Kitchen/Kitchen Basement" (stairs cost 2 spaces)
    game.put("ann", "kitchen")
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "kitchen_basement"
    assert game.state["turn"]["moved"] == 2
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "kitchen"


def test_stairs_need_two_spaces_left(game):
    # Ruling: stairs with 1 space of movement left are not allowed
    game.p("ann")["traits"]["speed"] = 1  # Speed 2
    game.do("move", "ann", way="west")
    game.put("ann", "kitchen")
    with pytest.raises(IllegalAction, match="costs 2 spaces"):
        game.do("move", "ann", way="stairs")


def test_weapon_shop_stairs_need_both_tiles(game):
    # Rulebook: Special Tiles, "Weapon Shop/Weapon Shop Basement"
    game.place("weapon_shop", "city", 1, -1, rot=2)
    game.put("ann", "weapon_shop")
    with pytest.raises(IllegalAction, match="has not been found yet"):
        game.do("move", "ann", way="stairs")
    game.place("weapon_shop_basement", "catacomb", 1, -1, rot=0)
    game.do("move", "ann", way="stairs")
    assert game.p("ann")["tile"] == "weapon_shop_basement"


def test_sewer_grate_is_one_way_to_the_catacomb_landing(game):
    # Rulebook: Moving Between Levels; Glossary, "sewer grate" (1 space, one way)
    game.place("murder_row", "city", 2, 1, rot=0)
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "murder_row"
    game.do("move", "ann", way="grate")
    assert game.p("ann")["tile"] == "catacomb_landing"
    assert game.state["turn"]["moved"] == 2
    assert "grate" not in game.engine.ways_out(game.state, "ann")
    with pytest.raises(IllegalAction, match="no sewer grate"):
        game.do("move", "ann", way="grate")


def test_only_the_player_whose_turn_it_is_moves(game):
    with pytest.raises(IllegalAction, match="Ann \\(Torskar Stonecleaver\\)'s turn"):
        game.do("move", "bo", way="west")


def test_barrier_needs_its_roll_once_per_turn(game, dice):
    # Rulebook: Special Tiles, "Assassin's Run, Flooded Chamber"; Ruling: crossing back in the same turn
    game.place("assassins_run", "catacomb", 1, 1, rot=0)  # north doorway joins the Catacomb Landing
    game.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "assassins_run" and game.p("ann")["half"] == "north"
    dice.next(1, 1, 0, 0)  # Speed 4: total 2, fails the 3+
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "assassins_run"
    assert game.state["turn"]["stopped"]
    assert any("fails to cross" in t for t in game.texts())
    game.state["turn"]["stopped"] = False
    with pytest.raises(IllegalAction, match="once per turn"):
        game.do("move", "ann", way="south")


def test_barrier_crossing_costs_no_movement(game, dice):
    # Rulebook: Special Tiles ("Crossing the barrier doesn't count as moving a space")
    game.place("assassins_run", "catacomb", 1, 1, rot=0)
    game.place("dusty_cellar", "catacomb", 1, 2, rot=0)
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="south")
    dice.next(2, 1)
    game.do("move", "ann", way="south")
    assert game.p("ann")["tile"] == "dusty_cellar"
    assert game.state["turn"]["moved"] == 2
