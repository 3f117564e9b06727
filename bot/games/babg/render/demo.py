"""States to look at and to time the renderer with: a game played a while by
the built-in players, then every remaining tile laid the way discovery would
(joined to an open doorway, turned to connect as many doorways as it can).

Not used by the renderer itself; the bench, the tests and previews use it.
"""
import copy
import random

from bot.games.babg.engine import board as bd

TOKEN_NAMES = ("Stench", "Pit Trap", "Arcane Gate", "Blood Pool", "Web", "Smoke", "Rubble", "Fire")


def new_game(engine, seed: int, players: int = 6) -> dict:
    """A started game with `players` seats, one adventurer per card."""
    content = engine.content
    rnd = random.Random(seed)
    chosen, ids = [], sorted(content.adventurers)
    rnd.shuffle(ids)
    for aid in ids:
        if len(chosen) < players and all(content.adventurers[a].card != content.adventurers[aid].card
                                         for a in chosen):
            chosen.append(aid)
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    actions = [{"type": "join", "player": n.lower(), "name": n, "adventurer": aid}
               for n, aid in zip(names, chosen)]
    actions.append({"type": "start", "player": actions[0]["player"]})
    state, _ = engine.replay(seed, actions)
    return state


def played(engine, seed: int, actions: int, players: int = 6) -> dict:
    """A game after up to `actions` actions of the built-in players."""
    from bot.games.babg import autoplay
    state = new_game(engine, seed, players)
    rnd = random.Random(seed)
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=actions):
        pass
    return state


def _score(content, board, squares, tile, square, rot):
    level, x, y = square
    doors = bd.doorways(tile, rot)
    joined = bad = 0
    for side in bd.SIDES:
        dx, dy = bd.STEP[side]
        other = squares.get((level, x + dx, y + dy))
        if other is None:
            continue
        theirs = bd.OPPOSITE[side] in bd.placed_doorways(content, board, other)
        if side in doors and theirs:
            joined += 1
        elif side in doors or theirs:
            bad += 1
    return joined, bad


def fill_board(content, state: dict, rnd: random.Random) -> dict:
    """Lay every tile not yet on the board, each joined to an open doorway of
    its level where one is free. Returns a new state."""
    s = copy.deepcopy(state)
    board = s["board"]
    left = [t for stack in ("building", "street", "catacomb")
            for t in s["stacks"].get(stack, []) + s["set_aside"].get(stack, [])]
    left += [t for t in sorted(content.tiles) if t not in board and t not in left]
    for tid in left:
        tile = content.tiles[tid]
        squares = bd.grid(board)
        best = None
        opens = bd.open_doorways(content, board, tile.level, squares)
        cands = {bd.neighbour_square(board[o], side) for o, side in opens}
        if not cands:  # no open doorway left on the level: any free square beside a tile
            cands = {bd.neighbour_square(p, side) for p in board.values() if p["level"] == tile.level
                     for side in bd.SIDES} - set(squares)
        for sq in sorted(cands):
            for rot in range(4):
                joined, bad = _score(content, board, squares, tile, sq, rot)
                if joined == 0 and opens:
                    continue
                key = (joined - 2 * bad, -abs(sq[1] - 1) - abs(sq[2]), rnd.random())
                if best is None or key > best[0]:
                    best = (key, sq, rot)
        if best is None:
            sq = sorted(cands)[0]
            best = (None, sq, 0)
        _, (level, x, y), rot = best
        board[tid] = {"level": level, "x": x, "y": y, "rot": rot}
    for stack in s["stacks"]:
        s["stacks"][stack] = []
    for stack in s.get("set_aside", {}):
        s["set_aside"][stack] = []
    return s


def full_map(engine, seed: int = 1, players: int = 6, tokens: int = 30, actions: int = 150) -> dict:
    """Every tile placed, `players` adventurers spread over the map (two
    sharing a tile), `tokens` tokens, a few item piles."""
    content = engine.content
    rnd = random.Random(seed)
    s = fill_board(content, played(engine, seed, actions, players), rnd)
    tiles = sorted(s["board"])
    alive = [pid for pid in s["seats"]]
    for i, pid in enumerate(alive):
        s["players"][pid]["alive"] = True
        s["players"][pid]["tile"] = tiles[(i * 7 + seed) % len(tiles)] if i != 1 else s["players"][alive[0]]["tile"]
        s["players"][pid]["half"] = None
        if content.tiles[s["players"][pid]["tile"]].barrier:
            s["players"][pid]["half"] = "north"
    s["tokens"] = [{"name": TOKEN_NAMES[i % len(TOKEN_NAMES)], "tile": rnd.choice(tiles)} for i in range(tokens)]
    items = [c for c in sorted(content.cards) if content.cards[c].deck == "item"]
    s["piles"] = {rnd.choice(tiles): [items[k], items[k + 1]] for k in range(0, 6, 2)}
    if s.get("turn") is None or s["turn"].get("player") not in s["players"]:
        s["turn"] = {"player": alive[0], "number": 1}
    return s
