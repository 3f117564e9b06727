"""Small helpers the special handlers share: distances on the map, lists of
tiles to choose from, the player on your right, changing the next roll."""
import heapq

from .. import board as bd
from .. import state as st
from .. import tokens as tk


def right_of(ctx, pid: str) -> str:
    """The player on your right: the seat before yours (play passes left)."""
    return st.left_of(ctx.s, pid, -1)


def card_state(ctx, card_id: str, store: bool = False) -> dict:
    """What a card remembers about itself whoever holds it (the tokens on the
    Deck of Many Things, the Figurine's one use). Only with `store` is the
    state written: a check (legal actions, a button) must not change the game."""
    if not store:
        return dict(ctx.s.get("card_state", {}).get(card_id, {}))
    return ctx.s.setdefault("card_state", {}).setdefault(card_id, {})


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
    if tile.stairs_to and tile.stairs_to in s["board"]:
        out.append((tile.stairs_to, 1 + tile.stairs_extra_cost))
    if tile.sewer_grate and "catacomb_landing" in s["board"]:
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


def tile_choices(ctx, tiles) -> list[tuple[str, str | None, str]]:
    """(tile, half, label) for each tile; a barrier tile is offered once per
    half (rulebook: Special Tiles, a card that puts you on a barrier tile
    lets you pick the side)."""
    found = []
    for tid in tiles:
        tile = ctx.c.tiles[tid]
        if tile.barrier:
            for half in ("north", "south"):
                found.append((tid, half, f"{tile.name} ({half} half)"))
        else:
            found.append((tid, None, tile.name))
    return found


def adjust_next_roll(task: dict, **fields):
    """Change the next roll step of a task (a copy: the content stays as it is)."""
    for i, item in enumerate(task["steps"]):
        if item.get("do") == "roll":
            task["steps"][i] = {**item, **fields}
            return


def ask_tile(ctx, pid: str, prompt: str, choices, kind: str, **data):
    """Ask for one of `choices` from tile_choices; decide at once when there
    is only one."""
    from .. import effects
    if len(choices) == 1:
        return choices[0]
    effects.ask(ctx, pid, kind, prompt, [label for _, _, label in choices],
                tiles=[[t, h] for t, h, _ in choices], **data)
    return None
