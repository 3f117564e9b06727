"""Where everything goes on the picture: pure geometry over the state, no
drawing. Tests use these functions to know which pixels to probe.

Image coordinates: x grows right, y grows down, boxes are (x0, y0, x1, y1)
with x1, y1 exclusive.
"""
import math
import re
from dataclasses import dataclass, field

from bot.games.babg.engine import board as bd
from bot.games.babg.engine import state as st

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
    map_height: int     # bottom of the levels
    panels: dict = field(default_factory=dict)
    legend: tuple = (0, 0, 0)   # x, y, width of the legend column

    def square_box(self, level: str, x: int, y: int) -> tuple:
        p = self.panels[level]
        x0 = p.grid[0] + (x - p.bounds[0]) * self.m.pitch
        y0 = p.grid[1] + (y - p.bounds[1]) * self.m.pitch
        return (x0, y0, x0 + self.m.tile, y0 + self.m.tile)


def _panel_size(b: tuple, m: Metrics) -> tuple[int, int]:
    cols, rows = b[2] - b[0] + 1, b[3] - b[1] + 1
    return (cols * m.pitch - m.gap + 2 * m.margin, m.title_h + rows * m.pitch - m.gap + 2 * m.margin)


def compute_layout(board: dict, scale: float = 1.0, bounds: dict | None = None) -> Layout:
    """The levels one above the other under a header line (a phone held
    upright shows that best); the legend beside the last level when there is
    room for it, else below."""
    m = metrics(scale)
    bounds = bounds or level_bounds(board)
    levels = [lv for lv in LEVELS if lv in bounds]
    sizes = {lv: _panel_size(bounds[lv], m) for lv in levels}
    sep = m.gap * 2
    width = max([s[0] for s in sizes.values()] + [m.min_width])
    panels = {}
    y = m.header_h
    legend = None
    for i, lv in enumerate(levels):
        pw, ph = sizes[lv]
        last = i == len(levels) - 1
        if last and width - pw - sep >= m.legend_min:
            box = (0, y, pw, y + ph)
            legend = (pw + sep, y, width - pw - sep)
        else:
            box = (0, y, width, y + ph)
        gx = box[0] + (box[2] - box[0] - pw) // 2 + m.margin
        panels[lv] = Panel(lv, box, (gx, y + m.title_h + m.margin), bounds[lv])
        y += ph + sep
    map_height = y - sep if levels else y
    if legend is None:
        legend = (0, map_height, width)
    return Layout(m, width, map_height, panels, legend)


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
    """A pixel in the middle of a side, inside the wall: it shows the
    doorway's colour, the blocked mark of a false feature, or the wall."""
    x0, y0, _, _ = tile_box(content, state, tile_id, scale, bounds)
    m = metrics(scale)
    depth = max(1, min(m.wall, m.door_depth) // 2)
    t, c = m.tile, m.tile // 2
    dx, dy = {"north": (c, depth), "south": (c, t - 1 - depth), "west": (depth, c), "east": (t - 1 - depth, c)}[side]
    return (x0 + dx, y0 + dy)


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
    traitor: bool = False   # an adventurer the whole table knows to be a traitor
    badge: str = ""         # a monster's hit points left, when the game keeps count


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


def public_traitors(state: dict) -> set:
    """Traitors everyone at the table knows: named at the reveal, unmasked,
    or any at the game's end. A hidden traitor is not one of them, even on a
    state that did not go through bot.games.babg.engine.view."""
    h = state.get("haunt")
    if not h:
        return set()
    over = state.get("phase") == "over"
    return {pid for pid in h.get("traitors") or () if over or st.known_traitor(state, pid)}


def hit_points(state: dict, monster: dict) -> int | None:
    """A monster's hit points left: its own record, else the haunt's counter
    named after it ("Troll hit points"), which is where the haunts keep them."""
    if monster.get("hit_points") is not None:
        return monster["hit_points"]
    counters = (state.get("haunt") or {}).get("counters") or {}
    value = counters.get(f"{monster.get('name', '')} hit points")
    return value if isinstance(value, int) else None


def figures(content, state: dict, highlight=None) -> dict:
    """tile id -> the figures on it, in drawing order: adventurers (seat
    order), monsters, NPCs, the item pile, tokens."""
    from .style import TOKEN_COLOURS, adventurer_rgb
    marked = highlighted(state, highlight)
    out = {}
    board = state["board"]
    ini = initials(state)
    traitors = public_traitors(state)
    for pid in state["seats"]:
        p = state["players"][pid]
        if p.get("tile") in board and p.get("alive", True):
            adv = content.adventurers.get(p["adventurer"])
            out.setdefault(p["tile"], []).append(Figure(
                "adventurer", pid, ini[pid], adventurer_rgb(adv.colour if adv else ""), pid in marked,
                half=p.get("half"), traitor=pid in traitors))
    # Hook for the haunt: monsters and NPCs, each {name, tile, number, stunned}.
    for kind in ("monster", "npc"):
        for mon in state.get(kind + "s", None) or []:
            if mon.get("tile") in board:
                hp = hit_points(state, mon)
                out.setdefault(mon["tile"], []).append(Figure(
                    kind, str(mon.get("name", kind)), str(mon.get("number", "")), (), mon.get("name") in marked,
                    bool(mon.get("stunned")), badge="" if hp is None else str(hp)))
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


def icon_rects(m: Metrics, tile) -> list[tuple]:
    """The corner icons of a tile (tile coordinates): symbol bottom left;
    stairs, sewer grate or landing bottom right."""
    t, inset = m.tile, m.door_depth + 2
    y0 = t - inset - m.icon
    out = []
    if tile.symbol in ("event", "item", "omen"):
        out.append((inset, y0, inset + m.icon, y0 + m.icon))
    right = sum(1 for f in (tile.stairs_to, tile.sewer_grate, tile.id == "catacomb_landing") if f)
    if right:
        x1 = t - inset
        x0 = x1 - right * (m.icon + 2) + 2
        if tile.stairs_to:
            x0 -= m.font + 8   # the stairs' number badge
        out.append((x0, y0, x1, y0 + m.icon))
    return out


def barrier_label_rect(m: Metrics, tile, rot: int) -> tuple | None:
    """Where the barrier's roll ('Speed 3+') is written (tile coordinates)."""
    if not tile.barrier:
        return None
    from .style import text_size
    label = f"{tile.barrier['trait'].capitalize()} {tile.barrier['target']}+"
    tw, th = text_size(label, m.font)
    t, c = m.tile, m.tile // 2
    if bd.rotate_side("north", rot) in ("north", "south"):     # the line runs across
        # on the line, or just under it where a tall name plate (the turn picture's) reaches it
        lx, ly = m.door_depth + 8 + tw // 2, max(c, name_plate(m, tile.name)[3] + th // 2 + 2)
    else:                                                      # the line runs down
        lx, ly = c, t - m.door_depth - 4 - th // 2
    return (lx - tw // 2 - 4, ly - th // 2 - 1, lx + tw // 2 + 5, ly + th // 2 + 2)


def token_areas(m: Metrics, tile, rot: int) -> list[tuple[str | None, tuple]]:
    """Rectangles (tile coordinates) where figures stand: below the name,
    inside the doorway marks. A barrier tile has two, one per half ('north',
    'south' as printed), clear of the barrier line."""
    t, inset = m.tile, m.door_depth + 3
    top = name_plate(m, tile.name)[3] + 3
    full = (inset, top, t - inset, t - inset)
    if not tile.barrier:
        return [(None, full)]
    c, clear = t // 2, 5
    north = bd.rotate_side("north", rot)
    halves = {"north": (inset, top, t - inset, c - clear), "south": (inset, c + clear, t - inset, t - inset),
              "east": (c + clear, top, t - inset, t - inset), "west": (inset, top, c - clear, t - inset)}
    return [("north", halves[north]), ("south", halves[bd.OPPOSITE[north]])]


def _hits(cx, cy, r, rect) -> bool:
    x0, y0, x1, y1 = rect
    nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
    return (cx - nx) ** 2 + (cy - ny) ** 2 < r * r


def grid_slots(n: int, area: tuple, dmax: int, dmin: int, avoid=()) -> tuple[list, int, int]:
    """Centres for n figures in a grid over `area`, skipping cells whose
    figure would cover a rectangle of `avoid` (icons, labels); their
    diameter; how many fit (when not all do, the caller sums up the rest on
    the last slot). The largest diameter wins; used cells are those nearest
    the middle."""
    x0, y0, x1, y1 = area
    w, h = max(1, x1 - x0), max(1, y1 - y0)
    if n <= 0:
        return [], dmax, 0
    best = None
    for cols in range(1, n + 4):
        for rows in range(1, n + 4):
            cw, ch = w / cols, h / rows
            d = int(min(dmax, min(cw, ch) - 2))
            if d < dmin * 0.8 or (best and d < best[0]):
                continue
            cells = [(x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch) for r in range(rows) for c in range(cols)]
            free = [p for p in cells if not any(_hits(p[0], p[1], d / 2 + 1, a) for a in avoid)]
            if len(free) < n:
                continue
            key = (d, -(cols * rows), -rows)
            if best is None or key > best[:3]:
                best = (d, -(cols * rows), -rows, free)
    if best is None:   # too many: the smallest size, as many as fit
        d = dmin
        cols, rows = max(1, int(w // (d * 0.8))), max(1, int(h // (d * 0.8)))
        cw, ch = w / cols, h / rows
        cells = [(x0 + (c + 0.5) * cw, y0 + (r + 0.5) * ch) for r in range(rows) for c in range(cols)]
        free = [p for p in cells if not any(_hits(p[0], p[1], d / 2, a) for a in avoid)] or cells[:1]
        fits = min(n, len(free))
    else:
        d, _, _, free = best
        fits = n
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    chosen = sorted(free, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p[1], p[0]))[:fits]
    chosen.sort(key=lambda p: (round(p[1]), p[0]))
    return [(round(x), round(y)) for x, y in chosen], d, fits


_placed: dict = {}


def place_figures(m: Metrics, tile, rot: int, figs: list) -> list[tuple]:
    """(figure, centre x, centre y, diameter) in tile coordinates. Cached:
    from one turn to the next most tiles keep the same figures, and finding
    their slots is most of the drawing time of a small picture."""
    key = (m, tile.id, rot, tuple(figs))
    hit = _placed.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    out = _place_figures(m, tile, rot, figs)
    if len(_placed) > 4096:
        _placed.clear()
    _placed[key] = (tile, out)
    return out


def _place_figures(m: Metrics, tile, rot: int, figs: list) -> list[tuple]:
    areas = token_areas(m, tile, rot)
    avoid = icon_rects(m, tile)
    label = barrier_label_rect(m, tile, rot)
    if label:
        avoid.append(label)
    groups = {name: [] for name, _ in areas}
    if len(areas) == 1:
        groups[None] = list(figs)
    else:
        for f in figs:
            groups["south" if f.half == "south" else "north"].append(f)
    out = []
    for name, area in areas:
        group = groups[name]
        slots, d, fits = grid_slots(len(group), area, m.token, m.min_token, avoid)
        # Standing above the icons' line is tidier when it costs no size.
        above = min([r[1] for r in avoid if r[1] < area[3] and r[3] > area[1]] + [area[3]]) - 2
        if group and above < area[3] and above - area[1] >= m.min_token:
            s2, d2, f2 = grid_slots(len(group), (area[0], area[1], area[2], above), m.token, m.min_token, avoid)
            if (f2, d2) >= (fits, d):
                slots, d, fits = s2, d2, f2
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
