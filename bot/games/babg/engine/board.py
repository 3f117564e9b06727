"""Where tiles lie: squares on two levels, doorways after rotation, and which
tiles connect (rulebook: Glossary, "adjacent" and "connected")."""

SIDES = ("north", "east", "south", "west")
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
LEVEL_OF_KIND = {"building": "city", "street": "city", "catacomb": "catacomb"}


def rotate_side(side: str, turns: int) -> str:
    """The side a printed side faces after `turns` quarter turns clockwise."""
    return SIDES[(SIDES.index(side) + turns) % 4]


def doorways(tile, turns: int) -> dict[str, str]:
    """Doorways of a tile as placed: board side -> doorway colour."""
    found = tile.rotated.get(turns)
    if found is None:
        found = tile.rotated[turns] = {rotate_side(side, turns): colour for side, colour in tile.doorways.items()}
    return found


def printed_side(side: str, turns: int) -> str:
    """The printed side of a tile that faces board side `side`."""
    return SIDES[(SIDES.index(side) - turns) % 4]


def grid(board: dict) -> dict[tuple, str]:
    """(level, x, y) -> tile id, for the placed tiles."""
    return {(p["level"], p["x"], p["y"]): tid for tid, p in board.items()}


def neighbour_square(place: dict, side: str) -> tuple:
    dx, dy = STEP[side]
    return (place["level"], place["x"] + dx, place["y"] + dy)


FACE_DOWN_DOORS = {"city": "street", "catacomb": "catacomb"}  # the doorway colour a face-down tile shows


def face_down(board: dict, tile_id: str) -> bool:
    """A tile a haunt turned face down (see bot.games.babg.engine.city): its printed
    side is unknown, so it counts as having a doorway on every side."""
    return bool(board.get(tile_id, {}).get("face_down"))


def placed_doorways(content, board: dict, tile_id: str) -> dict[str, str]:
    if board[tile_id].get("face_down"):
        return dict.fromkeys(SIDES, FACE_DOWN_DOORS[board[tile_id]["level"]])
    return doorways(content.tiles[tile_id], board[tile_id]["rot"])


def exits(content, board: dict, tile_id: str, squares: dict | None = None) -> dict[str, str | None]:
    """Each doorway side of a placed tile -> the connected tile id, or None
    when nothing lies beyond (a door into the unknown). Doorways facing a
    placed tile without a matching doorway are false features and left out."""
    squares = squares if squares is not None else grid(board)
    place = board[tile_id]
    result = {}
    for side in placed_doorways(content, board, tile_id):
        other = squares.get(neighbour_square(place, side))
        if other is None:
            result[side] = None
        elif OPPOSITE[side] in placed_doorways(content, board, other):
            result[side] = other
    return result


def false_features(content, board: dict, tile_id: str, squares: dict | None = None) -> list[str]:
    """Doorway sides that face a placed tile with a wall there."""
    squares = squares if squares is not None else grid(board)
    place = board[tile_id]
    found = []
    for side in placed_doorways(content, board, tile_id):
        other = squares.get(neighbour_square(place, side))
        if other is not None and OPPOSITE[side] not in placed_doorways(content, board, other):
            found.append(side)
    return found


def open_doorways(content, board: dict, level: str, squares: dict | None = None) -> list[tuple[str, str]]:
    """(tile id, side) of every doorway on a level with no tile beyond it."""
    squares = squares if squares is not None else grid(board)
    found = []
    for tid, place in board.items():
        if place["level"] != level:
            continue
        for side in placed_doorways(content, board, tid):
            if neighbour_square(place, side) not in squares:
                found.append((tid, side))
    return found


def reachable(content, board: dict, start_ids, links: dict | None = None) -> set[str]:
    """Tiles reachable from `start_ids` through connected doorways, stairs
    (both ends placed), sewer grates and `links` (tile -> tiles, the ways
    tokens open: see tokens.links)."""
    squares = grid(board)
    doors = {tid: placed_doorways(content, board, tid) for tid in board}
    seen = set(start_ids)
    todo = list(seen)
    while todo:
        tid = todo.pop()
        place = board[tid]
        nexts = []
        for side in doors[tid]:
            dx, dy = STEP[side]
            other = squares.get((place["level"], place["x"] + dx, place["y"] + dy))
            if other is not None and OPPOSITE[side] in doors[other]:
                nexts.append(other)
        tile = content.tiles[tid]
        if tile.stairs_to and tile.stairs_to in board:
            nexts.append(tile.stairs_to)
        if tile.sewer_grate and "catacomb_landing" in board:
            nexts.append("catacomb_landing")
        nexts += (links or {}).get(tid, [])
        for t in nexts:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def line_of_sight(content, board: dict, from_id: str, to_id: str) -> bool:
    """True when a straight line of connected doorways joins the two tiles
    (rulebook: Glossary, "line of sight")."""
    if from_id == to_id:
        return True
    squares = grid(board)
    for side in SIDES:
        tid = from_id
        while True:
            nxt = exits(content, board, tid, squares).get(side)
            if not nxt:
                break
            if nxt == to_id:
                return True
            tid = nxt
    return False
