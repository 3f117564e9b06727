"""Squares, tiles and walls on the dungeon's one global grid.

A square is named "x,y": x grows to the east, y to the north, so "0,0" is the south-west corner of
the Start tile's stair half and "1,5" is two rows into the half north of it. Every tile covers a
4 by 4 block of squares: the tile at tile position (tx, ty) holds x from 4*tx to 4*tx+3 and y from
4*ty to 4*ty+3, and its position is written "tx,ty" too (kept apart from squares by context).

A placed tile keeps its grid already turned (rows from north to south, columns from west to east):
'#' a wall square, '.' floor, 'B' the bone pile, 'S' stairs (floor a figure may stand on).
Everything here reads the state only, never the content."""

DIRS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
ORDER = ("N", "E", "S", "W")
KING = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def name(x: int, y: int) -> str:
    return f"{x},{y}"


_PARSED: dict = {}  # square name -> (x, y): the rules ask the same few names very often


def parse(text) -> tuple:
    """(x, y) from "x,y" (spaces allowed); ValueError when it is not a square's name."""
    if type(text) is str:
        got = _PARSED.get(text)
        if got is not None:
            return got
    elif not isinstance(text, str):
        raise ValueError("a square is written x,y")
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise ValueError("a square is written x,y")
    got = int(parts[0]), int(parts[1])
    if type(text) is str:
        if len(_PARSED) > 50000:
            _PARSED.clear()
        _PARSED[text] = got
    return got


def tile_of(x: int, y: int) -> tuple:
    return x // 4, y // 4


def tile_key(tx: int, ty: int) -> str:
    return f"{tx},{ty}"


_TILE_AT: dict = {}


def tile_at_square(sq: str) -> str:
    got = _TILE_AT.get(sq) if type(sq) is str else None
    if got is None:
        x, y = parse(sq)
        got = f"{x // 4},{y // 4}"
        if type(sq) is str:
            if len(_TILE_AT) > 50000:
                _TILE_AT.clear()
            _TILE_AT[sq] = got
    return got


def rotate(grid: list, turns: int) -> list:
    """The grid turned `turns` quarter turns clockwise."""
    g = [list(row) for row in grid]
    for _ in range(turns % 4):
        g = [[g[3 - c][r] for c in range(4)] for r in range(4)]
    return ["".join(row) for row in g]


def turns_for(direction: str) -> int:
    """Quarter turns clockwise that bring a tile's triangle (its south edge as printed) to face back
    toward the tile it was explored from, when it is placed on that tile's `direction` side."""
    return {"N": 0, "E": 1, "S": 2, "W": 3}[direction]


def placed(state: dict) -> dict:
    return state["tiles"]["placed"]


def char(state: dict, x: int, y: int):
    """What the square holds: '#', '.', 'B', 'S', or None where no tile lies."""
    tx, ty = x // 4, y // 4
    t = state["tiles"]["placed"].get(f"{tx},{ty}")
    if t is None:
        return None
    return t["grid"][3 - (y - 4 * ty)][x - 4 * tx]


def is_floor(state: dict, x: int, y: int) -> bool:
    tx, ty = x // 4, y // 4
    t = state["tiles"]["placed"].get(f"{tx},{ty}")
    return t is not None and t["grid"][3 - (y - 4 * ty)][x - 4 * tx] != "#"


def tile_squares(tx: int, ty: int) -> list:
    """The tile's 16 squares, north row first, west to east (a stable order)."""
    return [(4 * tx + c, 4 * ty + 3 - r) for r in range(4) for c in range(4)]


def floor_squares(state: dict, tkey: str) -> list:
    """The tile's floor squares in tile_squares' order."""
    tx, ty = parse(tkey)
    t = state["tiles"]["placed"].get(f"{tx},{ty}")
    if t is None:
        return []
    grid = t["grid"]
    return [(4 * tx + c, 4 * ty + 3 - r) for r in range(4) for c in range(4) if grid[r][c] != "#"]


def bone_pile(state: dict, tkey: str):
    tx, ty = parse(tkey)
    t = state["tiles"]["placed"].get(f"{tx},{ty}")
    if t is None:
        return None
    grid = t["grid"]
    for r in range(4):
        c = grid[r].find("B", 0, 4)
        if c >= 0:
            return 4 * tx + c, 4 * ty + 3 - r
    return None


def edge_squares(tx: int, ty: int, d: str) -> list:
    x0, y0 = 4 * tx, 4 * ty
    if d == "N":
        return [(x0 + i, y0 + 3) for i in range(4)]
    if d == "S":
        return [(x0 + i, y0) for i in range(4)]
    if d == "E":
        return [(x0 + 3, y0 + i) for i in range(4)]
    return [(x0, y0 + i) for i in range(4)]


def edge_open(state: dict, tkey: str, d: str) -> bool:
    """An edge that is a way out of its tile (the tile's exits; else one with a floor square on it)."""
    t = placed(state).get(tkey)
    if t is None:
        return False
    if "exits" in t:
        return d in t["exits"]
    tx, ty = parse(tkey)
    return any(is_floor(state, x, y) for x, y in edge_squares(tx, ty, d))


def neighbour(tkey: str, d: str) -> str:
    tx, ty = parse(tkey)
    dx, dy = DIRS[d]
    return f"{tx + dx},{ty + dy}"


def unexplored_edges(state: dict, tkey: str) -> list:
    """The tile's unexplored edges: open, with no tile beyond them, in N E S W order."""
    pl = state["tiles"]["placed"]
    t = pl.get(tkey)
    if t is None:
        return []
    tx, ty = parse(tkey)
    out = []
    for d in ORDER:
        dx, dy = DIRS[d]
        if f"{tx + dx},{ty + dy}" not in pl and (d in t["exits"] if "exits" in t else edge_open(state, tkey, d)):
            out.append(d)
    return out


def all_unexplored(state: dict) -> list:
    """Every (tile, direction) with an unexplored edge, in a stable order."""
    return [(k, d) for k in sorted(placed(state), key=_tile_sort) for d in unexplored_edges(state, k)]


def _tile_sort(k: str):
    tx, ty = parse(k)
    return (ty, tx)


def edges_at_square(state: dict, sq: str) -> list:
    """The unexplored edges of the square's tile that the square lies along."""
    x, y = parse(sq)
    tx, ty = x // 4, y // 4
    along = {"N": y == 4 * ty + 3, "S": y == 4 * ty, "E": x == 4 * tx + 3, "W": x == 4 * tx}  # edge_squares
    return [d for d in unexplored_edges(state, f"{tx},{ty}") if along[d]]


def connected(state: dict, a: str, b: str) -> bool:
    """Two orthogonally neighbouring tiles joined by at least one pair of facing floor squares (a wall
    all along the joint blocks the way)."""
    pa = placed(state)
    if a not in pa or b not in pa:
        return False
    ax, ay = parse(a)
    bx, by = parse(b)
    for d, (dx, dy) in DIRS.items():
        if (ax + dx, ay + dy) == (bx, by):
            if not edge_open(state, a, d) or not edge_open(state, b, OPPOSITE[d]):
                return False
            mine = edge_squares(ax, ay, d)
            theirs = edge_squares(bx, by, OPPOSITE[d])
            return any(is_floor(state, *p) and is_floor(state, *q) for p, q in zip(mine, theirs))
    return False


_LAYOUTS: dict = {}


def _layout(state: dict) -> dict:
    """What the dungeon as laid gives, kept per layout (the same tiles, turned the same way, join the
    same way): `links` tile -> the tiles it joins; `floor` its floor squares (each its own key, so the searches share
    one tuple per square and make few objects for the collector); `dist`
    tile_distances' answers by their starts; `steps` square -> the squares one step leads to."""
    pl = state["tiles"]["placed"]
    key = tuple(sorted((k, tuple(t["grid"]), tuple(t.get("exits", ()))) for k, t in pl.items()))
    got = _LAYOUTS.get(key)
    if got is None:
        if len(_LAYOUTS) > 64:  # a game reuses its own few layouts; a small cache keeps the collector quick
            _LAYOUTS.clear()
        sides = {k: _sides(t) for k, t in pl.items()}
        links = {}
        for k, mine in sides.items():
            links[k] = out = []
            for d in ORDER:
                u = neighbour(k, d)
                theirs = sides.get(u)
                # connected(): both edges open and a pair of facing floor squares along the joint
                if theirs is not None and mine[d][0] and theirs[OPPOSITE[d]][0] and mine[d][1] & theirs[OPPOSITE[d]][1]:
                    out.append(u)
        floor = {}
        for k, t in pl.items():
            for sq in _tile_floor(state, k, t):
                floor[sq] = sq
        got = _LAYOUTS[key] = {"links": links, "floor": floor, "dist": {}, "steps": {}}
    return got


_FLOORS: dict = {}


def _tile_floor(state: dict, k: str, t: dict) -> tuple:
    """floor_squares(state, k) of the placed tile `t` at `k`, kept per place and grid."""
    key = (k, tuple(t["grid"]))
    got = _FLOORS.get(key)
    if got is None:
        tx, ty = parse(k)
        if f"{tx},{ty}" != k:  # a name written another way: floor_squares looks the tile up itself
            return tuple(floor_squares(state, k))
        grid = t["grid"]
        got = tuple((4 * tx + c, 4 * ty + 3 - r) for r in range(4) for c in range(4) if grid[r][c] != "#")
        if len(_FLOORS) > 20000:
            _FLOORS.clear()
        _FLOORS[key] = got
    return got


_SIDES: dict = {}


def _sides(t: dict) -> dict:
    """Direction -> (the edge is open, its floor squares as bits in edge_squares' order) for a placed
    tile, as edge_open and connected read it."""
    key = (tuple(t["grid"]), tuple(t["exits"]) if "exits" in t else None)
    got = _SIDES.get(key)
    if got is None:
        g = t["grid"]
        edges = {"N": [g[0][i] for i in range(4)], "S": [g[3][i] for i in range(4)],
                 "E": [g[3 - i][3] for i in range(4)], "W": [g[3 - i][0] for i in range(4)]}
        got = {}
        for d, chars in edges.items():
            mask = sum(1 << i for i, c in enumerate(chars) if c != "#")
            got[d] = (d in t["exits"] if "exits" in t else mask != 0, mask)
        if len(_SIDES) > 20000:
            _SIDES.clear()
        _SIDES[key] = got
    return got


def _links(state: dict) -> dict:
    return _layout(state)["links"]


def linked_tiles(state: dict, tkey: str) -> list:
    return list(_links(state).get(tkey, ()))


def tile_distances(state: dict, starts) -> dict:
    """Tile -> the fewest tile steps from any of `starts` (orthogonal, through open joints only)."""
    lay = _layout(state)
    starts = tuple(starts)
    got = lay["dist"].get(starts)
    if got is None:
        pl = state["tiles"]["placed"]
        dist = {s: 0 for s in starts if s in pl}
        frontier = list(dist)
        links = lay["links"]
        while frontier:
            nxt = []
            for t in frontier:
                for u in links.get(t, ()):
                    if u not in dist:
                        dist[u] = dist[t] + 1
                        nxt.append(u)
            frontier = nxt
        got = lay["dist"][starts] = dist
    return dict(got)


def tile_distance(state: dict, a_tiles, b_tiles):
    """The fewest tiles between two figures given the tiles each stands on (None when no way links
    them)."""
    d = tile_distances(state, a_tiles)
    found = [d[t] for t in b_tiles if t in d]
    return min(found) if found else None


def step_ok(state: dict, x: int, y: int, nx: int, ny: int) -> bool:
    """One step by squares from (x, y) to a neighbouring (nx, ny): the square must be floor, and a
    diagonal step may not slip between two wall (or empty) squares."""
    if not is_floor(state, nx, ny):
        return False
    if nx != x and ny != y:
        if not is_floor(state, nx, y) and not is_floor(state, x, ny):
            return False
    return True


def adjacent(a: tuple, b: tuple) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def square_distance(a: tuple, b: tuple) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _steps(lay: dict, sq: tuple) -> tuple:
    """The squares one step from `sq` leads to in the layout, in KING order (step_ok's rule)."""
    got = lay["steps"].get(sq)
    if got is None:
        floor = lay["floor"]
        x, y = sq
        out = []
        for dx, dy in KING:
            n = floor.get((x + dx, y + dy))
            if n is None:
                continue
            if dx and dy and (x + dx, y) not in floor and (x, y + dy) not in floor:
                continue  # a diagonal step may not slip between two walls
            out.append(n)
        got = lay["steps"][sq] = tuple(out)
    return got


def _search(state: dict, start: tuple, budget: int, blocked: set, named: bool) -> dict:
    """Breadth first from `start`, neighbours in KING order: square -> (steps, path after the start),
    the path of square names when `named`."""
    lay = _layout(state)
    known = lay["steps"]
    best = {start: (0, [])}
    frontier = [start]
    for step in range(1, budget + 1):
        nxt = []
        for sq in frontier:
            path = best[sq][1]
            steps = known.get(sq)
            if steps is None:
                steps = _steps(lay, sq)
            for n in steps:
                if n in best or n in blocked:
                    continue
                best[n] = (step, path + [f"{n[0]},{n[1]}" if named else n])
                nxt.append(n)
        frontier = nxt
    return best


def reachable(state: dict, start: tuple, budget: int, blocked: set, passable: set) -> dict:
    """Squares reachable from `start` in at most `budget` steps -> (steps, path as a list of squares
    after the start). `blocked` squares cannot be entered (monsters); `passable` ones may be crossed
    but not ended on (other heroes). Breadth first with neighbours in a fixed order, so the paths are
    the same on every run."""
    best = _search(state, start, budget, blocked, False)
    return {sq: v for sq, v in best.items() if sq != start and sq not in passable}


def reachable_names(state: dict, start: tuple, budget: int, blocked: set, passable: set) -> dict:
    """reachable() by square names: "x,y" -> the path's square names."""
    best = _search(state, start, budget, blocked, True)
    return {f"{sq[0]},{sq[1]}": path for sq, (_, path) in best.items() if sq != start and sq not in passable}
