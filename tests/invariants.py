"""Checks that must hold after every action of every game."""
import json

from bot.games.babg.engine import board as bd
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.content import TRAITS

START = ("elfsong_tavern", "kitchen_basement")


def round_trips(state: dict):
    assert json.loads(json.dumps(state)) == state, "state must round-trip through JSON"


def check(content, state: dict):
    s = state
    floor = 0 if s.get("haunt") and s["phase"] in ("haunt", "over") else 1
    for pid in s["seats"]:
        p = s["players"][pid]
        for t in TRAITS:
            if p["traits"]:
                assert floor <= p["traits"][t] <= 8, f"{pid} {t} off its track: {p['traits'][t]}"
        if p["tile"]:
            assert p["tile"] in s["board"], f"{pid} stands on an unplaced tile"
        for mark in p.get("marks", []):
            if mark.get("card"):  # a mark that stands for a card in front of the player
                assert mark["kind"] != "cursed" or mark["card"] in p["cards"], f"{pid}: curse without its card"
    if not s["board"]:
        return
    for m in s.get("monsters", []):
        on_cards = ((s.get("haunt") or {}).get("h43") or {}).get("attached", {})  # haunt 43: {hero: Mind Tickler}
        if m["tile"] is None and m["id"] in on_cards.values():  # held on a hero's card, off the board
            assert all(p in s["players"] for p in on_cards), f"monster {m['id']} attached to nobody"
            continue
        assert m["tile"] in s["board"], f"monster {m['id']} stands on an unplaced tile"
    squares = bd.grid(s["board"])
    assert len(squares) == len(s["board"]), "two tiles on one square"
    start = (s.get("haunt") or {}).get("start_tiles") or START  # a haunt that rebuilds the city names its own
    reach = bd.reachable(content, s["board"], start, links=tk.links(s))
    assert reach == set(s["board"]), f"unreachable tiles: {set(s['board']) - reach}"
    # Every card in exactly one place.
    places = []
    for deck in ("event", "item", "omen"):
        places += s["decks"][deck] + s["discard"][deck]
    for pid in s["seats"]:
        places += s["players"][pid]["cards"]
    places += (s.get("haunt") or {}).get("beside_board", [])  # a card a haunt lays beside the board (haunt 19)
    for pile in s["piles"].values():
        places += pile
    for token in s["tokens"]:  # a card lying on a tile beside its token (Green Slime, Pit Trap ...)
        if token.get("card"):
            places.append(token["card"])
    for task in s["queue"]:
        places += [st["card"] for st in task["steps"] if st.get("do") == "_settle_event"]
    assert sorted(places) == sorted(content.cards), "a card is missing or in two places"
    # Every tile in exactly one place.
    tiles = list(s["board"])
    tiles += [p["cover"] for p in s["board"].values() if p.get("cover")]  # laid face down on a start room (haunt 32)
    for stack in ("building", "street", "catacomb"):
        tiles += s["stacks"][stack] + s["set_aside"][stack]
    if s["pending"] and s["pending"]["kind"] == "place_tile":
        tiles.append(s["pending"]["data"]["tile"])
    tiles += (s.get("haunt") or {}).get("tiles_aside", [])  # tiles a haunt keeps off the board (haunt 27)
    assert sorted(tiles) == sorted(content.tiles), "a tile is missing or in two places"
