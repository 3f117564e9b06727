"""Where everything goes on the picture: pure geometry over the state, no
drawing. Tests use these functions to know which pixels to probe.

Image coordinates: x grows right, y grows down, boxes are (x0, y0, x1, y1)
with x1, y1 exclusive.
"""
import math
import re
from dataclasses import dataclass, field

from bot.engine import board as bd

from .style import Metrics, metrics, name_block

LEVELS = ("city", "catacomb")
LEVEL_TITLES = {"city": "THE CITY", "catacomb": "THE CATACOMBS"}


# --- levels and tiles ----------------------------------------------------------

def level_bounds(board: dict) -> dict:
    """level -> (min x, min y, max x, max y) of its placed tiles."""
    out = {}
    for p in board.values():
        b = out.get(p["level"])
        x, y = p["x"], p["y"]
        out[p["level"]] = (x, y, x, y) if b is None else (min(b[0], x), min(b[1], y), max(b[2], x), max(b[3], y))
    return out


def union_bounds(boards) -> dict:
    """Bounds that hold every board given (a replay keeps one frame size)."""
    out = {}
    for board in boards:
        for level, b in level_bounds(board).items():
            o = out.get(level)
            out[level] = b if o is None else (min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3]))
    return out


@dataclass(frozen=True)
class Panel:
    level: str
    box: tuple          # the panel in the image
    grid: tuple         # image pixel of the top-left of square (min x, min y)
    bounds: tuple       # (min x, min y, max x, max y) in squares


@dataclass(frozen=True)
class Layout:
    m: Metrics
    width: int
    map_height: int     # the legend starts here
    panels: dict = field(default_factory=dict)

    def square_box(self, level: str, x: int, y: int) -> tuple:
        p = self.panels[level]
        x0 = p.grid[0] + (x - p.bounds[0]) * self.m.pitch
        y0 = p.grid[1] + (y - p.bounds[1]) * self.m.pitch
        return (x0, y0, x0 + self.m.tile, y0 + self.m.tile)


def _panel_size(b: tuple, m: Metrics) -> tuple[int, int]:
    cols, rows = b[2] - b[0] + 1, b[3] - b[1] + 1
    return (cols * m.pitch - m.gap + 2 * m.margin, m.title_h + rows * m.pitch - m.gap + 2 * m.margin)


def compute_layout(board: dict, scale: float = 1.0, bounds: dict | None = None) -> Layout:
    """The levels one above the other (or side by side when that wastes
    much less room), under a header line."""
    m = metrics(scale)
    bounds = bounds or level_bounds(board)
    levels = [lv for lv in LEVELS if lv in bounds]
    sizes = {lv: _panel_size(bounds[lv], m) for lv in levels}
    sep = m.gap * 2
    vert_w = max([s[0] for s in sizes.values()] + [m.min_width])
    vert_h = sum(s[1] for s in sizes.values()) + sep * max(0, len(levels) - 1)
    hor_w = max(sum(s[0] for s in sizes.values()) + sep * max(0, len(levels) - 1), m.min_width)
    hor_h = max([s[1] for s in sizes.values()] + [0])
    # One above the other reads best on a phone held upright; side by side
    # only when that is far more compact (a long thin city, say).
    vertical = vert_w * vert_h <= 2.0 * hor_w * hor_h
    panels = {}
    x, y = 0, m.header_h
    for lv in levels:
        w, h = sizes[lv]
        if vertical:
            w = vert_w
        else:
            h = hor_h
        box = (x, y, x + w, y + h)
        pw, ph = _panel_size(bounds[lv], m)
        gx = x + (w - pw) // 2 + m.margin
        gy = y + m.title_h + m.margin
        panels[lv] = Panel(lv, box, (gx, gy), bounds[lv])
        if vertical:
            y += h + sep
        else:
            x += w + sep
    width = vert_w if vertical else hor_w
    height = (y - sep if levels else y) if vertical else y + hor_h
    return Layout(m, width, height, panels)


def tile_box(content, state: dict, tile_id: str, scale: float = 1.0, bounds: dict | None = None) -> tuple:
    """Where a placed tile is drawn: (x0, y0, x1, y1) in the image."""
    lay = compute_layout(state["board"], scale, bounds)
    p = state["board"][tile_id]
    return lay.square_box(p["level"], p["x"], p["y"])


def door_rect(m: Metrics, side: str) -> tuple:
    """The doorway mark of a board side, in tile coordinates."""
    t, half, d = m.tile, m.door_len // 2, m.door_depth
    c = t // 2
    return {"north": (c - half, 0, c + half, d), "south": (c - half, t - d, c + half, t),
            "west": (0, c - half, d, c + half), "east": (t - d, c - half, t, c + half)}[side]


def door_probe(content, state: dict, tile_id: str, side: str, scale: float = 1.0, bounds=None) -> tuple[int, int]:
    """A pixel that shows the doorway colour (or the blocked mark) of a side."""
    x0, y0, _, _ = tile_box(content, state, tile_id, scale, bounds)
    r = door_rect(metrics(scale), side)
    return (x0 + (r[0] + r[2]) // 2, y0 + (r[1] + r[3]) // 2)


def name_plate(m: Metrics, name: str) -> tuple:
    """The dark plate behind a tile's name, in tile coordinates."""
    top = m.door_depth + 2
    return (m.door_depth + 2, top, m.tile - m.door_depth - 2, top + name_block(name, m)[2])


# --- what stands on the tiles -----------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """One round or square marker on a tile."""
    kind: str           # adventurer, monster, npc, pile, token, more
    key: str            # player id, monster name, token name ...
    label: str          # the text on it
    colour: tuple = ()
    highlight: bool = False
    stunned: bool = False
    half: str | None = None


def initials(state: dict) -> dict:
    """player id -> one or two letters from the player's name, unique."""
    out = {}
    for pid in state["seats"]:
        name = state["players"][pid]["name"].strip() or pid
        words = re.findall(r"[^\W_]+", name) or [pid]
        ini = (words[0][0] + words[1][0]).upper() if len(words) > 1 else words[0][:2].capitalize()
        out[pid] = ini
    seen = {}
    for pid in state["seats"]:
        seen.setdefault(out[pid], []).append(pid)
    for ini, pids in seen.items():
        if len(pids) > 1:
            for k, pid in enumerate(pids):
                out[pid] = ini[0] + str(k + 1)
    return out


def token_abbrevs(names) -> dict:
    """token name -> short label, unique."""
    out, used = {}, set()
    for name in sorted(set(names)):
        words = re.findall(r"[^\W_]+", name) or ["?"]
        ab = (words[0][0] + words[1][0]).upper() if len(words) > 1 else words[0][:2].capitalize()
        base, k = ab, 2
        while ab in used:
            ab = base[0] + str(k)
            k += 1
        used.add(ab)
        out[name] = ab
    return out


def current_player(state: dict):
    turn = state.get("turn")
    return turn.get("player") if turn else None


def highlighted(state: dict, highlight) -> set:
    """Ids (players or tiles) to highlight: `highlight` if given, else the
    current player."""
    if highlight is None:
        cur = current_player(state)
        return {cur} if cur else set()
    if isinstance(highlight, str):
        return {highlight}
    return set(highlight)


def figures(content, state: dict, highlight=None) -> dict:
    """tile id -> the figures on it, in drawing order: adventurers (seat
    order), monsters, NPCs, the item pile, tokens."""
    from .style import TOKEN_COLOURS, adventurer_rgb
    marked = highlighted(state, highlight)
    out = {}
    board = state["board"]
    ini = initials(state)
    for pid in state["seats"]:
        p = state["players"][pid]
        if p.get("tile") in board and p.get("alive", True):
            adv = content.adventurers.get(p["adventurer"])
            out.setdefault(p["tile"], []).append(Figure(
                "adventurer", pid, ini[pid], adventurer_rgb(adv.colour if adv else ""), pid in marked,
                half=p.get("half")))
    # Hook for the haunt: monsters and NPCs, each {name, tile, number, stunned}.
    for kind in ("monster", "npc"):
        for mon in state.get(kind + "s", None) or []:
            if mon.get("tile") in board:
                out.setdefault(mon["tile"], []).append(Figure(
                    kind, str(mon.get("name", kind)), str(mon.get("number", "")), (), mon.get("name") in marked,
                    bool(mon.get("stunned"))))
    for tid, cards in (state.get("piles") or {}).items():
        if cards and tid in board:
            out.setdefault(tid, []).append(Figure("pile", tid, str(len(cards))))
    tokens = state.get("tokens") or []
    abbrev = token_abbrevs(t["name"] for t in tokens)
    colour_of = {name: TOKEN_COLOURS[i % len(TOKEN_COLOURS)] for i, name in enumerate(sorted(abbrev))}
    for t in tokens:
        if t.get("tile") in board:
            out.setdefault(t["tile"], []).append(Figure("token", t["name"], abbrev[t["name"]], colour_of[t["name"]]))
    return out


def token_areas(m: Metrics, tile, rot: int) -> list[tuple[str | None, tuple]]:
    """Rectangles (tile coordinates) where figures stand: below the name,
    clear of the doorway marks and the corner icons. A barrier tile has two,
    one per half ('north', 'south' as printed)."""
    t, inset = m.tile, m.door_depth + 3
    top = name_plate(m, tile.name)[3] + 3
    bottom = t - inset
    if tile.symbol != "none" or tile.stairs_to or tile.sewer_grate or tile.id == "catacomb_landing":
        bottom = t - m.door_depth - m.icon - 2
    full = (inset, top, t - inset, bottom)
    if not tile.barrier:
        return [(None, full)]
    c, clear = t // 2, m.font  # keep clear of the barrier line
    north = bd.rotate_side("north", rot)
    halves = {"north": (inset, top, t - inset, c - clear), "south": (inset, c + clear, t - inset, t - inset),
              "east": (c + clear, top, t - inset, t - inset - m.font - 6),
              "west": (inset, top, c - clear, t - inset - m.font - 6)}
    return [("north", halves[north]), ("south", halves[bd.OPPOSITE[north]])]


def grid_slots(n: int, area: tuple, dmax: int, dmin: int) -> tuple[list, int, int]:
    """Centres for up to n figures in `area` laid out in a grid, their
    diameter, and how many fit (the rest are summed up on the last slot)."""
    x0, y0, x1, y1 = area
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    if n <= 0:
        return [], dmax, 0
    best = None
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        cell = min(w / cols, h / rows)
        if best is None or cell > best[0] + 1e-9:
            best = (cell, cols, rows)
    cell, cols, rows = best
    fits = n
    if cell < dmin * 0.8:  # too many: as many as fit at the smallest size, the last one shows "+k"
        cols, rows = max(1, int(w // (dmin * 0.8))), max(1, int(h // (dmin * 0.8)))
        fits = min(n, cols * rows)
        cell = min(w / cols, h / rows)
        n = fits
    d = int(max(dmin, min(dmax, cell - 2)))
    used_rows = math.ceil(n / cols)
    slots = []
    gy = y0 + (h - used_rows * cell) / 2
    for r in range(used_rows):
        in_row = min(cols, n - r * cols)
        gx = x0 + (w - in_row * cell) / 2
        for c in range(in_row):
            slots.append((round(gx + (c + 0.5) * cell), round(gy + (r + 0.5) * cell)))
    return slots, d, fits


def place_figures(m: Metrics, tile, rot: int, figs: list) -> list[tuple]:
    """(figure, centre x, centre y, diameter) in tile coordinates."""
    areas = token_areas(m, tile, rot)
    groups = {name: [] for name, _ in areas}
    if len(areas) == 1:
        groups[None] = list(figs)
    else:
        for f in figs:
            groups["south" if f.half == "south" else "north"].append(f)
    out = []
    for name, area in areas:
        group = groups[name]
        slots, d, fits = grid_slots(len(group), area, m.token, m.min_token)
        if fits < len(group):
            group = group[:fits - 1] + [Figure("more", "more", f"+{len(group) - fits + 1}")]
        for f, (cx, cy) in zip(group, slots):
            out.append((f, cx, cy, d))
    return out


def figure_positions(content, state: dict, scale: float = 1.0, highlight=None, bounds=None,
                     layout: Layout | None = None) -> list[tuple]:
    """(figure, tile id, centre x, centre y, diameter) in the image."""
    lay = layout or compute_layout(state["board"], scale, bounds)
    out = []
    for tid, figs in figures(content, state, highlight).items():
        p = state["board"][tid]
        x0, y0, _, _ = lay.square_box(p["level"], p["x"], p["y"])
        for f, cx, cy, d in place_figures(lay.m, content.tiles[tid], p["rot"], figs):
            out.append((f, tid, x0 + cx, y0 + cy, d))
    return out


def token_position(content, state: dict, player_id: str, scale: float = 1.0, bounds=None) -> tuple | None:
    """(centre x, centre y, radius) of a player's token, or None when it is
    not on the map."""
    for f, _tid, cx, cy, d in figure_positions(content, state, scale, bounds=bounds):
        if f.kind == "adventurer" and f.key == player_id:
            return (cx, cy, d // 2)
    return None
