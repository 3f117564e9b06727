"""Every tile, discovered: one test per tile in rules_data (except the start
tiles, on the board from setup) that walks through an open doorway, draws
that tile, and checks what its symbol says happened.

Rulebook: Discover a New Tile; Drawing Event, Item, and Omen Cards; Making a
Haunt Roll. The tiles' own printed rules are tested in test_effects_tiles.py;
here they only have to run without breaking the discovery."""
import pytest

from bot.games.babg.content import load_content
from bot.games.babg.engine import board as bd
from bot.games.babg.engine.turns import START_TILES
from tests.test_effects_kit import my_turn

CONTENT = load_content()
TILES = sorted(t.id for t in CONTENT.tiles.values() if t.id not in START_TILES)

# A start-tile doorway of each colour (rulebook: Discover a New Tile, "look at
# the color of the doorway you are exiting from"): red = building, yellow =
# street, blue = catacomb. Nothing lies beyond any of them at setup.
DOORWAY = {
    "building": ("inner_chamber", "north"),
    "street": ("elfsong_tavern", "north"),
    "catacomb": ("catacomb_landing", "north"),
}

# Cards with no text of their own on drawing, so that what happens is the
# symbol's doing alone.
QUIET_CARD = {"event": "go_for_the_eyes", "item": "shiny_rock", "omen": "whispering_skull"}


def test_every_tile_but_the_start_tiles_is_in_a_stack():
    # Rulebook: Setup (the start tiles are laid; the rest are shuffled into their stacks)
    assert len(TILES) == len(CONTENT.tiles) - len(START_TILES) == 42
    for tid in TILES:
        assert CONTENT.tiles[tid].stack in DOORWAY, tid


# The tiles with no printed rule of their own, only a symbol: this file is
# where they are played (every tile has a test that plays it).
SYMBOL_ONLY = (
    "shrine_to_gargauth", "sorcerous_sundries", "temple_of_umberlee", "warehouse",  # building
    "executioners_block", "gray_harbor", "marketplace", "rose_portal", "trash_pile", "waterfront",  # street
    "neglected_shrine", "sacrificial_chamber", "vacated_shop",  # catacomb
)


def test_the_symbol_only_tiles_are_among_those_played():
    # Rulebook: Drawing Event, Item, and Omen Cards (a tile's symbol is all these tiles do)
    for tid in SYMBOL_ONLY:
        tile = CONTENT.tiles[tid]
        assert tid in TILES and tile.symbol in QUIET_CARD and not tile.effects, tid


class Log:
    """Play actions on a Game and keep every event they made."""

    def __init__(self, game):
        self.game = game
        self.events = []

    def do(self, kind, pid, **fields):
        self.events += self.game.do(kind, pid, **fields)

    def settle(self, choice=0):
        while self.game.state["pending"]:
            self.do("decide", self.game.state["pending"]["player"], choice=choice)

    def kinds(self, kind):
        return [e for e in self.events if e["kind"] == kind]


@pytest.mark.parametrize("tile_id", TILES)
def test_discovering_the_tile_draws_what_its_symbol_shows(game, dice, tile_id):
    # Rulebook: Discover a New Tile; Drawing Event, Item, and Omen Cards; Making a Haunt Roll
    tile = game.c.tiles[tile_id]
    start, way = DOORWAY[tile.stack]
    assert bd.placed_doorways(game.c, game.state["board"], start)[way] == tile.stack, "doorway colour = stack"
    my_turn(game, "ann")
    game.put("ann", start)
    game.top(tile.stack, tile_id)
    symbol = tile.symbol
    card = QUIET_CARD.get(symbol)
    if card:
        game.top_card(symbol, card)
    decks_before = {d: list(cards) for d, cards in game.state["decks"].items()}
    hand_before = list(game.p("ann")["cards"])
    omens_before = game.state["omens_revealed"]

    log = Log(game)
    log.do("move", "ann", way=way)
    pending = game.state["pending"]
    if pending and pending["kind"] == "place_tile":
        # Rulebook: Discover a New Tile ("Add each new tile as logically as you can"): equal fits, player's pick
        assert pending["data"]["tile"] == tile_id
        log.do("decide", "ann", choice=0)
    log.settle()

    # The tile came off its stack, lies beyond the doorway, joined to it, and Ann stands on it.
    assert tile_id not in game.state["stacks"][tile.stack]
    place = game.state["board"][tile_id]
    assert (place["level"], place["x"], place["y"]) == bd.neighbour_square(game.state["board"][start], way)
    assert bd.exits(game.c, game.state["board"], tile_id)[bd.OPPOSITE[way]] == start
    assert bd.exits(game.c, game.state["board"], start)[way] == tile_id
    assert game.p("ann")["tile"] == tile_id
    assert [e for e in log.kinds("discover") if e.get("tile") == tile_id]

    draws = log.kinds("draw")
    turn = game.state["turn"]
    if symbol == "none":
        # No symbol: no card, and movement goes on.
        assert draws == []
        assert {d: list(c) for d, c in game.state["decks"].items()} == decks_before
        assert game.p("ann")["cards"] == hand_before
        assert not turn["stopped"]
        assert turn["omens"] == []
    else:
        # One card of the symbol's deck, drawn by the discoverer; drawing ends movement.
        assert [(e["player"], e["deck"], e["card"]) for e in draws] == [("ann", symbol, card)]
        assert card not in game.state["decks"][symbol]
        assert turn["stopped"]
        if symbol == "event":
            # Follow its instructions, then discard it (it is not ongoing).
            assert any(e["kind"] == "roll" for e in log.events), "Go for the Eyes asks for a Might roll"
            assert game.state["discard"]["event"][-1] == card
            assert card not in game.p("ann")["cards"]
            assert turn["omens"] == []
        elif symbol == "item":
            assert game.p("ann")["cards"] == hand_before + [card]
            assert turn["omens"] == []
        else:
            assert game.p("ann")["cards"] == hand_before + [card]
            assert game.state["omens_revealed"] == omens_before + 1
            assert turn["omens"] == [[card, tile_id]], "a haunt roll is due at the end of the turn"
            assert not [e for e in log.events if e["kind"] == "haunt_roll"], "not before the turn ends"

    # End the turn: the tile's own end-of-turn text runs, then a haunt roll for an omen only.
    log.events.clear()
    log.do("end", "ann")
    log.settle()
    haunt_rolls = log.kinds("haunt_roll")
    if symbol == "omen":
        assert len(haunt_rolls) == 1  # the dice all show 0: the city stays quiet
        assert any("for the haunt" in e["text"] for e in log.kinds("roll"))
    else:
        assert haunt_rolls == []
        assert not any("for the haunt" in e["text"] for e in log.kinds("roll"))
    assert game.state["phase"] == "exploring"
    assert game.state["turn"]["player"] == "bo"
