"""Tokens on tiles and the cards that lie beside them (rulebook: Glossary,
"token"; cards such as Green Slime or Pit Trap stay on a tile).

A token is {name, tile} plus, as needed:
  card   the card lying beside it; the card's `on_tile` effects then act as
         the tile's own (entering, ending a turn, a roll to attempt, the cost
         of entering, dice on rolls made there)
  link   the tile an Arcane Gate token leads to
  side   the board side of the wall an Illusion token stands against
  half   the half of a barrier tile it lies on
  by     the player who put it there (Caltrops)
  enter_cost  spaces it costs an adventurer to enter its tile (a haunt's flooding)
"""
from . import board as bd


def place(state: dict, name: str, tile: str, **extra) -> dict:
    token = {"name": name, "tile": tile, **{k: v for k, v in extra.items() if v is not None}}
    state["tokens"].append(token)
    return token


def remove(state: dict, token: dict):
    if token in state["tokens"]:
        state["tokens"].remove(token)


def on_tile(state: dict, tile: str) -> list[dict]:
    return [t for t in state["tokens"] if t["tile"] == tile]


def with_card(state: dict, card_id: str) -> dict | None:
    for t in state["tokens"]:
        if t.get("card") == card_id:
            return t
    return None


def cards_on(state: dict, tile: str) -> list[str]:
    return [t["card"] for t in state["tokens"] if t["tile"] == tile and t.get("card")]


def links(state: dict) -> dict[str, list[str]]:
    """Extra connections the tokens make: tile -> tiles one space away through
    an Arcane Gate or an Illusion token (both ways)."""
    found: dict[str, list[str]] = {}
    squares = None
    for t in state["tokens"]:
        other = None
        if t.get("link"):
            other = t["link"]
        elif t.get("side"):
            squares = squares if squares is not None else bd.grid(state["board"])
            other = squares.get(bd.neighbour_square(state["board"][t["tile"]], t["side"]))
        if other and other in state["board"] and t["tile"] in state["board"]:
            found.setdefault(t["tile"], []).append(other)
            found.setdefault(other, []).append(t["tile"])
    return found


def enter_cost(content, state: dict, tile: str | None) -> int:
    """Spaces it costs to enter a tile (1, or what a card lying there says)."""
    if not tile:
        return 1
    cost = 1
    for cid in cards_on(state, tile):
        cost = max(cost, content.cards[cid].on_tile.get("enter_cost", 1))
    for token in on_tile(state, tile):  # a haunt's token that slows whoever enters (haunt 29's flooding)
        cost = max(cost, token.get("enter_cost", 1))
    return cost
