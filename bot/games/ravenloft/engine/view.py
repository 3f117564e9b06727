"""`view(state, viewer)`: the state as a player may see it. No one sees a card before it is drawn:
every deck becomes its count (discard piles stay open), and the tile stack its count. The
take-back's saved state (which holds the decks' order) becomes only who may take back now."""

from . import undo
from .state import copy


def view(state: dict, viewer=None) -> dict:
    v = copy(undo.without_chain(state))
    v["undo"] = {"open_to": undo.open_to(state)}
    for name, d in v["decks"].items():
        d["deck"] = len(d["deck"])
    v["tiles"]["stack"] = len(v["tiles"]["stack"])
    return v
