"""Rulebook: Discover a New Tile; Drawing Event, Item, and Omen Cards."""
import pytest

from bot.games.babg.engine import IllegalAction


def test_doorway_colour_picks_the_stack_and_the_tile_joins_it(game):
    # Rulebook: Discover a New Tile (the stack of the doorway's colour; connect it to the doorway)
    game.put("ann", "kitchen")
    game.top("street", "dead_end")
    game.do("move", "ann", way="west")  # the Kitchen's west doorway is yellow: street
    assert game.state["board"]["dead_end"] == {"level": "city", "x": -1, "y": 0, "rot": 1}
    assert game.p("ann")["tile"] == "dead_end"
    from bot.games.babg.engine.board import exits
    assert exits(game.c, game.state["board"], "dead_end") == {"east": "kitchen"}


def test_a_building_doorway_draws_a_building_tile(game):
    game.put("ann", "inner_chamber")
    top = game.state["stacks"]["building"][0]
    game.do("move", "ann", way="north")
    game.decide_all()
    assert top in game.state["board"]
    assert game.c.tiles[top].stack == "building"


def test_new_tile_turns_to_connect_as_many_doors_as_possible(game):
    # Rulebook: Discover a New Tile ("connecting doors whenever possible")
    game.place("felogyrs_fireworks", "city", 2, -1, rot=0)  # its west doorway faces (1, -1)
    game.put("ann", "inner_chamber")
    game.top("building", "hall_of_wonders")  # doorways south and west
    game.do("move", "ann", way="north")
    assert game.state["board"]["hall_of_wonders"]["rot"] == 3  # south + east: joins both neighbours
    from bot.games.babg.engine.board import exits
    assert exits(game.c, game.state["board"], "hall_of_wonders") == {"south": "inner_chamber",
                                                                        "east": "felogyrs_fireworks"}


def test_equally_good_placements_are_the_players_choice(game):
    # Rulebook: Discover a New Tile ("Add each new tile as logically as you can")
    game.put("ann", "inner_chamber")
    game.top("building", "mansion")  # north, east, south: three ways to keep a door on the Inner Chamber
    game.do("move", "ann", way="north")
    pending = game.state["pending"]
    assert pending["kind"] == "place_tile" and pending["player"] == "ann"
    assert len(pending["options"]) == 3
    game.do("decide", "ann", choice=1)
    assert "mansion" in game.state["board"]
    assert game.p("ann")["tile"] == "mansion"


def test_drawing_a_card_ends_movement(game):
    # Rulebook: Move ("whenever a game effect makes you draw a card ... you must stop moving");
    # Drawing Event, Item, and Omen Cards ("you must end your move on that tile and draw")
    game.put("ann", "kitchen")
    game.top("street", "dead_end")
    game.top_card("event", "go_for_the_eyes")  # an event that asks nobody anything
    game.do("move", "ann", way="west")
    game.decide_all()
    assert any(e["kind"] == "draw" for e in game.events)
    assert game.state["turn"]["stopped"]
    with pytest.raises(IllegalAction, match="movement is over"):
        game.do("move", "ann", way="east")


def test_only_the_first_discoverer_draws(game):
    # Rulebook: Drawing Event, Item, and Omen Cards ("Only the first player to discover the tile draws")
    game.place("dead_end", "city", -1, 0, rot=1)
    game.put("ann", "kitchen")
    events_before = sum(len(v) for v in game.state["decks"].values())
    game.do("move", "ann", way="west")
    assert game.p("ann")["tile"] == "dead_end"
    assert sum(len(v) for v in game.state["decks"].values()) == events_before
    assert not game.state["turn"]["stopped"]


def test_a_tile_that_would_seal_the_level_is_set_aside(game):
    # Rulebook: Discover a New Tile, "Can I Seal Off a Level by Placing a Tile?"
    for tid in ("kitchen_basement", "catacomb_landing"):
        del game.state["board"][tid]
    game.place("smugglers_drop", "catacomb", 0, 0, rot=0)  # one doorway, north: the level's only free door
    game.put("ann", "smugglers_drop")
    game.state["stacks"]["catacomb"] = ["kobold_hideout", "dusty_cellar"]
    game.do("move", "ann", way="north")
    game.decide_all()
    assert "kobold_hideout" not in game.state["board"]
    assert game.state["set_aside"]["catacomb"] == ["kobold_hideout"]
    assert "dusty_cellar" in game.state["board"]


def test_no_catacomb_tiles_left_means_no_discovery(game):
    # Rulebook: "What Happens if We Get to the End of a Stack of Tiles?" (the catacomb level is complete)
    game.state["stacks"]["catacomb"] = []
    game.put("ann", "catacomb_landing")
    with pytest.raises(IllegalAction, match="Every catacomb tile has been found"):
        game.do("move", "ann", way="north")


def test_building_and_street_tiles_stand_in_for_each_other(game):
    # Rulebook: "What Happens if We Get to the End of a Stack of Tiles?" (city stacks swap)
    game.state["stacks"]["street"] = []
    game.do("move", "ann", way="north")  # a street doorway from the Elfsong Tavern
    game.decide_all()
    placed = [t for t in game.state["board"] if game.c.tiles[t].stack == "building"]
    assert placed, "a building tile should stand in for the missing street tile"


SEALED_CATACOMB = {  # every catacomb doorway closed but the Catacomb Landing's south one
    "arcane_retreat": (0, -1, 0), "beasts_lair": (-1, 0, 0), "kobold_hideout": (1, -1, 2), "rats_nest": (2, 0, 3),
    "shrine_to_bhaal": (-1, -1, 0)}


def sealed_catacomb(game):
    """Ann lays the Smugglers' Drop (an item tile) south of the Catacomb Landing, the last catacomb tile of the
    stack, and it seals the level while a set-aside tile waits."""
    for tid, (x, y, rot) in SEALED_CATACOMB.items():
        game.place(tid, "catacomb", x, y, rot)
    game.state["stacks"]["catacomb"] = ["smugglers_drop"]
    game.state["set_aside"]["catacomb"] = ["gladiator_pit"]  # a tile that sealed the level earlier
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="south")


def test_when_every_tile_left_would_seal_the_level_the_player_turns_a_tile_to_reopen_it(game):
    # Rulebook: Discover a New Tile, "Can I Seal Off a Level by Placing a Tile?" (L254-256): if all the tiles left
    # would seal off the level, the player whose turn it is rearranges the level until it has free doorways.
    # Ruling: the rearrangement turns one of the level's tiles or swaps two (never a start tile's room), cutting
    # nothing off.
    from bot.games.babg.engine import board as bd
    sealed_catacomb(game)
    assert game.state["board"]["smugglers_drop"]["y"] == 1
    assert not bd.open_doorways(game.c, game.state["board"], "catacomb"), "the last tile was laid anyway"
    pending = game.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "rearrange_level"
    assert all(option.startswith(("Turn the ", "Swap the ")) for option in pending["options"])
    assert not any(room in option for option in pending["options"] for room in ("Kitchen Basement",
                                                                                  "Catacomb Landing")), \
        "the start tile stays"
    game.do("decide", "ann", choice=0)
    assert bd.open_doorways(game.c, game.state["board"], "catacomb"), "a doorway is free again"
    from bot.games.babg.engine import city
    from bot.games.babg.engine.ctx import Ctx
    assert not city.stranded(Ctx(game.c, game.state), game.state["board"], "catacomb"), "no tile cut off"


def test_a_sealed_level_may_be_rearranged_by_swapping_two_tiles(game):
    # Rulebook: Discover a New Tile, "Can I Seal Off a Level by Placing a Tile?" (L256: "rearranges the level until
    # there are more free doorways"): two tiles trading places is a rearranging too; the figures go with their tiles
    from bot.games.babg.engine import board as bd
    from bot.games.babg.engine import city
    from bot.games.babg.engine.ctx import Ctx
    sealed_catacomb(game)
    options = game.state["pending"]["options"]
    swaps = [i for i, o in enumerate(options) if o.startswith("Swap the ")]
    assert swaps
    game.do("decide", "ann", choice=swaps[0])
    assert bd.open_doorways(game.c, game.state["board"], "catacomb")
    assert not city.stranded(Ctx(game.c, game.state), game.state["board"], "catacomb")
    assert game.p("ann")["tile"] == "smugglers_drop"


def test_the_laid_tiles_card_is_drawn_once_the_level_is_open_again(game):
    # Rulebook: Discover a New Tile (L254-256: the level is rearranged until it has free doorways) and Drawing
    # Event, Item, and Omen Cards: the Smugglers' Drop's item comes after the rearranging, not while it is sealed
    sealed_catacomb(game)
    items = [c for c in game.p("ann")["cards"] if game.c.cards[c].deck == "item"]
    assert game.state["pending"]["kind"] == "rearrange_level"
    assert not any(e["kind"] == "draw" for e in game.events)
    assert [c for c in game.p("ann")["cards"] if game.c.cards[c].deck == "item"] == items
    game.do("decide", "ann", choice=0)
    game.decide_all()
    assert len([c for c in game.p("ann")["cards"] if game.c.cards[c].deck == "item"]) == len(items) + 1


def test_a_sealed_level_with_no_tile_left_to_lay_is_not_rearranged(game):
    # Rulebook: Discover a New Tile (L254-256): the rearranging is for tiles still to be laid.
    from bot.games.babg.engine import board as bd
    for tid, (x, y, rot) in SEALED_CATACOMB.items():
        game.place(tid, "catacomb", x, y, rot)
    game.state["stacks"]["catacomb"] = ["smugglers_drop"]
    game.state["set_aside"]["catacomb"] = []
    game.put("ann", "catacomb_landing")
    game.do("move", "ann", way="south")
    assert not bd.open_doorways(game.c, game.state["board"], "catacomb")
    assert not game.state["pending"]
