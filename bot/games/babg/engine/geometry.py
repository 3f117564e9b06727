"""Distances on the map: what one move reaches and the fewest spaces to
every tile (rulebook: Movement; Glossary, "within X tiles")."""
import heapq

from . import board as bd
from . import tokens as tk


def moves_from(ctx, tid: str, doors_only: bool = False) -> list[tuple[str, int]]:
    """(tile, spaces) one move away: doorways, stairs (both placed), the
    sewer grate, Arcane Gates and Illusion tokens; with `doors_only`, only
    connected doorways and Illusion tokens (rulebook: Glossary, "within X
    tiles")."""
    s, c = ctx.s, ctx.c
    out = [(t, 1) for t in bd.exits(c, s["board"], tid).values() if t]
    for token in s["tokens"]:
        if token.get("side") and token["tile"] in s["board"]:
            other = bd.grid(s["board"]).get(bd.neighbour_square(s["board"][token["tile"]], token["side"]))
            if token["tile"] == tid and other:
                out.append((other, 1))
            elif other == tid:
                out.append((token["tile"], 1))
    if doors_only:
        return out
    tile = c.tiles[tid]
    printed = not bd.face_down(s["board"], tid)  # a face-down tile's stairs and grate are hidden
    if tile.stairs_to and tile.stairs_to in s["board"] and printed and not bd.face_down(s["board"], tile.stairs_to):
        out.append((tile.stairs_to, 1 + tile.stairs_extra_cost))
    if tile.sewer_grate and "catacomb_landing" in s["board"] and printed:
        out.append(("catacomb_landing", 1))
    for token in s["tokens"]:
        if token.get("link") and token["tile"] == tid and token["link"] in s["board"]:
            out.append((token["link"], 1))
    return [(t, cost + tk.enter_cost(c, s, t) - 1) for t, cost in out]


def distances(ctx, start: str, doors_only: bool = False) -> dict[str, int]:
    """Fewest spaces from `start` to every tile that can be reached."""
    best = {start: 0}
    todo = [(0, start)]
    while todo:
        d, tid = heapq.heappop(todo)
        if d > best.get(tid, 99):
            continue
        for other, cost in moves_from(ctx, tid, doors_only):
            if d + cost < best.get(other, 99):
                best[other] = d + cost
                heapq.heappush(todo, (d + cost, other))
    return best
