"""Changing the city in a haunt: a tile turned face down or face up, a tile
cleared of everything on it, a tile moved to another free square or two
tiles swapped. The haunts that reshape the board use these (a tile's
figures, monsters and tokens name the tile, so they travel with it).

Every change keeps the board's rules: one tile per square, each tile of a
level joined to the level's start tile, and, where a haunt asks, an open
doorway left on the level. A face-down tile shows no printed side: it counts
as having a doorway on every side, and its stairs, sewer grate and printed
text do nothing (bot.games.babg.engine.board.face_down).
"""
from . import board as bd
from . import hooks
from . import state as st
from . import tokens as tk
from .death import die

ANCHORS = {"city": "elfsong_tavern", "catacomb": "kitchen_basement"}  # each level's start tile


def turn_down(ctx, tid: str, say: bool = True):
    place = ctx.s["board"][tid]
    if place.get("face_down"):
        return
    place["face_down"] = True
    if say:
        ctx.say(f"The {ctx.c.tiles[tid].name} is turned face down.", kind="city", tile=tid)


STACKS = ("building", "street", "catacomb")  # the tile stacks, in the order a tie for the tallest is broken


def cover(ctx, tid: str) -> str | None:
    """Lay the top tile of the tallest stack face down on `tid` (a room of a
    start tile that cannot be turned over alone): the tile leaves its stack
    and lies there, unseen (`cover` in the board's place; the view hides
    which). Ties go to the first of STACKS; with every stack empty, nothing
    is laid. Returns the tile laid."""
    s = ctx.s
    place = s["board"][tid]
    if place.get("cover"):
        return None
    tallest = max(STACKS, key=lambda k: (len(s["stacks"].get(k, [])), -STACKS.index(k)))
    if not s["stacks"].get(tallest):
        ctx.say(f"No tile is left in the stacks to lay on the {ctx.c.tiles[tid].name}.", kind="city", tile=tid)
        return None
    place["cover"] = s["stacks"][tallest].pop(0)
    ctx.say(f"The top tile of the {tallest} stack is laid face down on the {ctx.c.tiles[tid].name}.", kind="city",
            tile=tid)
    return place["cover"]


def fits(ctx, board: dict, tid: str, square: tuple, entry: str | None = None) -> list[tuple[int, int]]:
    """(rotation, doorways joined) for each way `tid` can lie on `square`,
    with a doorway on its `entry` side if one is named; most joined first."""
    level, x, y = square
    squares = bd.grid(board)
    found = []
    for rot in range(4):
        doors = bd.doorways(ctx.c.tiles[tid], rot)
        if entry and entry not in doors:
            continue
        joined = 0
        for side in doors:
            other = squares.get(bd.neighbour_square({"level": level, "x": x, "y": y}, side))
            if other and other != tid and bd.OPPOSITE[side] in bd.placed_doorways(ctx.c, board, other):
                joined += 1
        found.append((rot, joined))
    return sorted(found, key=lambda f: (-f[1], f[0]))


def turn_up(ctx, tid: str, entry: str | None = None) -> int:
    """Turn a face-down tile face up, turned to join the most doorways (with
    a doorway on its `entry` side, the side someone comes in by); returns
    its rotation."""
    board = ctx.s["board"]
    place = board[tid]
    level = place["level"]
    before = stranded(ctx, board, level)
    place.pop("face_down", None)
    laid = place.pop("cover", None)  # a tile laid on it goes beside its stack
    if laid:
        ctx.s["set_aside"].setdefault(ctx.c.tiles[laid].stack, []).append(laid)
    square = (level, place["x"], place["y"])
    options = fits(ctx, board, tid, square, entry) or fits(ctx, board, tid, square)
    whole = [o for o in options if stranded(ctx, {**board, tid: {**place, "rot": o[0]}}, level) <= before]
    place["rot"] = (whole or options)[0][0]  # strand nothing new where a turn allows it
    return place["rot"]


def clear(ctx, tid: str, spare=(), why: str = "the tile is destroyed", keep_tokens=()) -> list[str]:
    """Everything on a tile leaves the game: its adventurers die (except
    those in `spare`) and their items go with them, its monsters are
    killed, its tokens (but those named in `keep_tokens`) and the cards
    lying there are discarded. Returns the adventurers killed."""
    s = ctx.s
    killed = []
    for pid in st.players_on(s, tid):
        if pid in spare:
            continue
        die(ctx, pid, why)
        killed.append(pid)
    for m in s["monsters"]:
        if m["tile"] == tid and not m["dead"]:
            m["dead"] = True
            ctx.say(f"{st.monster_called(m)} is gone: {why}.", kind="monster", monster=m["id"])
            hooks.fire("monster_killed", ctx, m["id"])
    for token in [t for t in tk.on_tile(s, tid) if t["name"] not in keep_tokens]:
        tk.remove(s, token)
        if token.get("card"):
            s["discard"][ctx.c.cards[token["card"]].deck].append(token["card"])
    pile = s["piles"].pop(tid, [])
    for cid in pile:
        s["discard"][ctx.c.cards[cid].deck].append(cid)
    if pile:
        ctx.say(f"{len(pile)} card{'s' if len(pile) != 1 else ''} on the {ctx.tile_name(tid)} "
                f"{'are' if len(pile) != 1 else 'is'} lost.", kind="city", tile=tid)
    return killed


def stranded(ctx, board: dict, level: str) -> set[str]:
    """The tiles of the level not joined to the level's start tile through
    the level's own doorways (and the ways tokens open: bot.games.babg.engine.tokens)."""
    anchor = ANCHORS[level]
    here = {t for t, p in board.items() if p["level"] == level}
    if anchor not in board:
        return set()
    squares = bd.grid(board)
    links = tk.links({"tokens": ctx.s["tokens"], "board": board})
    seen, todo = {anchor}, [anchor]
    while todo:
        tid = todo.pop()
        for other in [*bd.exits(ctx.c, board, tid, squares).values(), *links.get(tid, [])]:
            if other and other in here and other not in seen:
                seen.add(other)
                todo.append(other)
    return here - seen


def cut_off(ctx, board: dict, level: str) -> int:
    """How many tiles of the level are stranded (0: the level is whole)."""
    return len(stranded(ctx, board, level))


def sound(ctx, board: dict, level: str, open_door: bool = True) -> bool:
    """A change of the level is allowed when it strands no tile that was not
    stranded before (on the game's own board), and, with `open_door`, leaves
    a doorway into the unknown on the level."""
    if not stranded(ctx, board, level) <= stranded(ctx, ctx.s["board"], level):
        return False
    return not open_door or bool(bd.open_doorways(ctx.c, board, level))


def moved(board: dict, tid: str, square: tuple, rot: int) -> dict:
    """The board with `tid` lifted to `square`, turned to `rot`."""
    level, x, y = square
    return {**board, tid: {**board[tid], "level": level, "x": x, "y": y, "rot": rot}}


def swapped(board: dict, a: str, b: str, rot_a: int, rot_b: int) -> dict:
    pa, pb = board[a], board[b]
    return {**board, a: {**pa, "x": pb["x"], "y": pb["y"], "level": pb["level"], "rot": rot_a},
            b: {**pb, "x": pa["x"], "y": pa["y"], "level": pa["level"], "rot": rot_b}}


def free_doors(ctx, board: dict, level: str, without: str | None = None) -> list[tuple[str, str, tuple]]:
    """(tile, side, square) of each open doorway of a level, leaving `without`
    out of the board first (the tile being moved)."""
    rest = {t: p for t, p in board.items() if t != without}
    squares = bd.grid(rest)
    return [(t, side, bd.neighbour_square(rest[t], side)) for t, side in bd.open_doorways(ctx.c, rest, level, squares)]


def shifts(ctx, tid: str, movable, open_door: bool = True):
    """Each allowed change that lifts `tid`: (label, rotation, new board).
    It may join an open doorway of its level by one of its own doorways, or
    trade places with another of the `movable` tiles (the other keeps its
    turn); either way turned as the mover likes, and only where the level
    stays as whole as it was (see `sound`)."""
    board = ctx.s["board"]
    level = board[tid]["level"]
    tile = ctx.c.tiles[tid]
    for placed, side, square in free_doors(ctx, board, level, without=tid):
        if square == (level, board[tid]["x"], board[tid]["y"]):
            continue
        for rot in range(4):
            if bd.OPPOSITE[side] in bd.doorways(tile, rot):
                new = moved(board, tid, square, rot)
                if sound(ctx, new, level, open_door):
                    yield f"to the {ctx.tile_name(placed)}'s {side} doorway", rot, new
    for other in movable:
        if other == tid or board[other]["level"] != level:
            continue
        for rot in range(4):
            new = swapped(board, tid, other, rot, board[other]["rot"])
            if sound(ctx, new, level, open_door):
                yield f"trading places with the {ctx.tile_name(other)}", rot, new


def apply_board(ctx, board: dict, why: str):
    """Make a checked new board the game's board."""
    ctx.s["board"].clear()
    ctx.s["board"].update(board)
    ctx.say(why, kind="city")


def ruin(ctx, tid: str, marker: str):
    """Mark a tile destroyed with a `marker` token (once); it stays in play
    with its exits, as the haunts that only mark their ruins say."""
    if any(t["name"] == marker for t in tk.on_tile(ctx.s, tid)):
        return
    tk.place(ctx.s, marker, tid)
    ctx.say(f"The {ctx.tile_name(tid)} is destroyed.", kind="city", tile=tid)
