"""Castle Ravenloft's dungeon pictures, pure functions of a game state (as `view(state, viewer)` gives
it: the decks are counts) to PNG bytes:

    render_turn(content, state, seat=None, max_bytes=None) -> bytes   the tiles round the active hero
    render_map(content, state, max_bytes=None) -> bytes               the whole explored dungeon

Both draw the square grid (floor light, walls dark, nothing where no tile lies), each tile's bone
pile, its triangle (black or white) on the edge it was explored from, the unexplored edges (an amber
bar outside the edge's floor squares: where a hero may explore), the markers (traps and hazards as a
plate on their tile, objects as a gold diamond on their square), every figure: a hero is a disc in
the hero's colour with the initial, HP/max under it and a ring for Slowed (blue) or Immobilized
(red), the active hero framed in gold; a monster is a red token with a letter code (its kind), a
villain a purple one, each with its HP left under it. The columns (x) are numbered along the top and
bottom edges and the rows (y) along both sides, so a player names square "x,y" by reading the edges
(x grows east, y north, as the engine names squares). A header line says the round, the turn, whose
turn and phase, the healing surges left and the experience pile; a legend under the grid names each
hero (HP, conditions, square) and each monster shown (code, figure id to attack, name, HP).

The turn picture is drawn for a phone: 800 px wide, no taller than 1.3 times its width, with no text
smaller than 13 px once the picture is shown 400 px wide (MIN_TEXT); it shows the active hero's tile
and the explored tiles round it (one tile each way), cropped to them. The map picture shows every
explored tile at a fixed square size.

Deterministic (the same state gives the same bytes) and reads nothing a view hides (no deck order).
With `max_bytes`, a picture too large is drawn again smaller until it fits. Drawn in RGB with Pillow,
mapped once to a fixed palette and written by bot.render.png.paletted_png.

`layout_turn` / `layout_map` give the Layout a picture is drawn on, and `square_box(layout, square)`
the pixel box of a square in it (tests put a hero on a square and look there).
"""
import functools
import pathlib
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

from bot.games.ravenloft.engine import data, experience, geometry
from bot.games.ravenloft.engine.state import Ctx, hero_pids
from bot.games.ravenloft.engine.view import view
from bot.render.gif import animate
from bot.render.png import paletted_png
from bot.render.fonts import font  # noqa: F401  (also read by callers as style.font)

ASSETS = pathlib.Path(__file__).resolve().parents[3] / "assets"

TURN_WIDTH = 800       # the turn picture's width at scale 1
MAX_RATIO = 1.3        # the turn picture's height at most this times its width
MIN_TEXT = 13          # px: the smallest text once the turn picture is shown SHOWN_WIDTH px wide
SHOWN_WIDTH = 400
MAP_SQUARE = 44        # the map picture's square at scale 1
TURN_RADIUS = 1        # tiles shown round the active hero's tile

# --- colours -------------------------------------------------------------------------------------

BACKGROUND = (17, 16, 22)
WALL = (52, 46, 50)
FLOOR = (156, 146, 128)
GRID = (124, 115, 100)
TILE_EDGE = (40, 36, 40)
STAIRS = (126, 116, 102)
PILE = (112, 100, 86)
BONE = (236, 230, 212)
UNEXPLORED = (250, 180, 30)
HIGHLIGHT = (255, 214, 64)
TEXT = (242, 236, 222)
TEXT_DIM = (176, 170, 160)
LABEL = (210, 204, 190)
INK = (20, 20, 20)
WHITE = (250, 250, 250)
PLATE = (30, 26, 30)
MONSTER = (150, 24, 38)
VILLAIN = (96, 34, 150)
OBJECT_FIG = (86, 90, 100)
OBJECT = (236, 186, 40)
DOWN = (110, 110, 110)
SLOWED = (60, 150, 250)
IMMOBILIZED = (245, 245, 245)
CONDITION_COLOURS = {"slowed": SLOWED, "immobilized": IMMOBILIZED}
CONDITION_TAGS = {"slowed": "Slowed", "immobilized": "Immob."}
MARKER = {"trap": (214, 96, 24), "hazard": (200, 60, 120), "consecrated_ground": (226, 222, 170),
          "illusionary_crowd": (90, 170, 210)}
MARKER_OTHER = (170, 170, 170)
HERO_COLOURS = {"allisa": (60, 180, 80), "arjhan": (222, 50, 44), "immeril": (50, 110, 236),
                "kat": (150, 80, 200), "thorgrim": (240, 150, 30)}
MORE_HERO_COLOURS = ((40, 190, 190), (230, 110, 170), (190, 190, 60), (230, 230, 230), (140, 100, 60))


def ink_for(rgb: tuple) -> tuple:
    r, g, b = rgb[:3]
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


# --- the palette ---------------------------------------------------------------------------------

def _mix(a, b, t):
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b))


def _palette_colours() -> list:
    flats = [BACKGROUND, WALL, FLOOR, GRID, TILE_EDGE, STAIRS, PILE, BONE, UNEXPLORED, HIGHLIGHT, TEXT, TEXT_DIM,
             LABEL, INK, WHITE, PLATE, MONSTER, VILLAIN, OBJECT_FIG, OBJECT, DOWN, SLOWED, IMMOBILIZED, MARKER_OTHER]
    flats += list(MARKER.values()) + list(HERO_COLOURS.values()) + list(MORE_HERO_COLOURS)
    fills = list(HERO_COLOURS.values()) + list(MORE_HERO_COLOURS) + [MONSTER, VILLAIN, OBJECT_FIG, DOWN, SLOWED,
                                                                        IMMOBILIZED, UNEXPLORED, OBJECT]
    fills += list(MARKER.values()) + [MARKER_OTHER]
    pairs = [(TEXT, BACKGROUND), (LABEL, BACKGROUND), (HIGHLIGHT, BACKGROUND), (TEXT, PLATE), (TEXT_DIM, BACKGROUND),
             (HIGHLIGHT, PLATE)]
    pairs += [(ink_for(f), f) for f in fills]
    shades = []
    for fg, bg in pairs:
        shades += [_mix(bg, fg, i / 6) for i in range(1, 6)]
    levels = (0, 85, 170, 255)
    cube = [(r, g, b) for r in levels for g in levels for b in levels]
    out = []
    for c in flats + shades + cube:
        if len(out) == 256:
            break
        if c not in out and (c in flats or all(max(abs(x - y) for x, y in zip(c, o)) > 4 for o in out)):
            out.append(c)
    return out


@functools.lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    cols = _palette_colours()
    im = Image.new("P", (1, 1), 0)
    im.putpalette(bytes(v for c in cols for v in c) + bytes(3 * (256 - len(cols))))
    im.load()
    return im


# --- fonts: the shared one (bot.render.fonts) ------------------------------------

@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> int:
    f = font(size)
    try:
        return int(round(f.getlength(text)))
    except AttributeError:
        return f.getbbox(text)[2]


def fit_text(text: str, size: int, width: int) -> str:
    """`text` cut (with "...") to `width` px at `size`."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def wrap(text: str, size: int, width: int) -> list:
    words, lines, cur = text.split(), [], ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if cur and text_width(trial, size) > width:
            lines.append(cur)
            cur = w
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return [fit_text(line, size, width) for line in lines]


# --- what is drawn ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    key: str           # player id or figure id
    kind: str          # "hero" | "monster" | "villain" | "object"
    squares: tuple     # ((x, y), ...)
    label: str         # the initial or the letter code on the disc/token
    colour: tuple
    hp: int
    max_hp: int
    name: str
    conditions: tuple = ()
    active: bool = False


def _hero_colour(hid: str, i: int) -> tuple:
    return HERO_COLOURS.get(hid) or MORE_HERO_COLOURS[i % len(MORE_HERO_COLOURS)]


def _codes(names: list, taken=()) -> dict:
    """A short code for each monster name: the initial (the initials of two words), two letters where
    two kinds (or a kind and a hero's initial in `taken`) would share one, a number after that if they
    still do."""
    def short(n, two):
        words = [w for w in n.replace(",", " ").split() if w[:1].isalpha()]
        if not words:
            return "?"
        if len(words) > 1:
            return (words[0][0] + words[1][0]).upper()
        return words[0][:2].capitalize() if two else words[0][0].upper()
    names = sorted(set(names))
    first = {n: short(n, False) for n in names}
    clash = {c for c in first.values() if list(first.values()).count(c) > 1 or c in taken}
    out = {n: short(n, True) if first[n] in clash else first[n] for n in names}
    seen = {c: 1 for c in taken}
    for n in names:
        c = out[n]
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > 1:
            out[n] = f"{c}{seen[c]}"
    return out


def _fid_order(fid: str):
    digits = "".join(ch for ch in fid if ch.isdigit())
    return (int(digits) if digits else 0, fid)


def figures(content, state: dict) -> list:
    """Every figure on the board: heroes in seat order, then monsters by figure id."""
    out = []
    active_pid = (state.get("turn") or {}).get("player")
    heroes = hero_pids(state)
    initials = {}
    for pid in heroes:
        hid = state["players"][pid].get("hero", "")
        initials[pid] = hero_name(content, hid) if hid else state["players"][pid].get("name", "?")
    firsts = [n[:1].upper() for n in initials.values()]
    for i, pid in enumerate(heroes):
        p = state["players"][pid]
        if not p.get("square") or p.get("escaped"):
            continue
        hname = initials[pid]
        label = hname[:1].upper() if firsts.count(hname[:1].upper()) == 1 else hname[:2].capitalize()
        conds = tuple(c for c in ("slowed", "immobilized") if (p.get("conditions") or {}).get(c))
        out.append(Figure(pid, "hero", (geometry.parse(p["square"]),), label, _hero_colour(p.get("hero", ""), i),
                          p.get("hp", 0), p.get("max_hp", 0), hname, conds, pid == active_pid))
    figs = state.get("figures") or {}
    codes = _codes([f.get("name") or f.get("monster", "?") for f in figs.values()], {f.label for f in out})
    for fid in sorted(figs, key=_fid_order):
        f = figs[fid]
        name = f.get("name") or f.get("monster", "?")
        label_name = name[:1].upper() + name[1:]
        kind = "object" if f.get("object") else "villain" if f.get("villain") else "monster"
        colour = {"object": OBJECT_FIG, "villain": VILLAIN, "monster": MONSTER}[kind]
        sqs = tuple(geometry.parse(q) for q in (f.get("squares") or [f["square"]]))
        out.append(Figure(fid, kind, sqs, codes[name], colour, f.get("hp", 0), f.get("max_hp", f.get("hp", 0)),
                          label_name))
    return out


def _tile_markers(content, state) -> dict:
    """Tile -> the names of the markers lying on it (not on a square)."""
    out = {}
    for m in state.get("markers") or []:
        if m.get("square"):
            continue
        if m.get("card"):
            name = data.encounter(content, m["card"])["name"]
        else:
            name = m.get("label") or m["kind"].replace("_", " ").capitalize()
        out.setdefault(m.get("tile"), []).append((m["kind"], name))
    return out


def _square_markers(state) -> list:
    return [m for m in state.get("markers") or [] if m.get("square")]


# --- layout --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    kind: str                  # "turn" | "map"
    window: tuple              # squares shown: (min x, min y, max x, max y)
    sq: int                    # a square's side, px
    origin: tuple              # pixel of the north-west corner of square (min x, max y)
    size: tuple                # (width, height)
    font: int                  # the small text: coordinates, HP, legend
    big: int                   # the header and the initials
    header: tuple              # header lines
    header_h: int
    label_w: int               # the row numbers' column, each side
    label_h: int               # the column numbers' row, top and bottom
    legend: tuple              # (text, colour, label, kind) entries
    legend_top: int
    legend_cols: int
    legend_row: int
    figures: tuple = field(default=())
    text_sizes: tuple = ()     # every font size the picture uses


def square_box(layout: Layout, square) -> tuple:
    """(x0, y0, x1, y1) of `square` ("x,y" or (x, y)) in the picture."""
    x, y = geometry.parse(square) if isinstance(square, str) else square
    x0, _, _, y1 = layout.window
    px = layout.origin[0] + (x - x0) * layout.sq
    py = layout.origin[1] + (y1 - y) * layout.sq
    return px, py, px + layout.sq, py + layout.sq


def _tiles(state) -> dict:
    return state["tiles"]["placed"]


def _bounds(keys) -> tuple:
    ts = [geometry.parse(k) for k in keys]
    return (min(t[0] for t in ts) * 4, min(t[1] for t in ts) * 4, max(t[0] for t in ts) * 4 + 3,
            max(t[1] for t in ts) * 4 + 3)


def focus(state: dict, seat=None):
    """The square the turn picture is about: `seat`'s hero (default whose turn it is), else the first
    hero on the board, else the Start tile."""
    pid = seat or (state.get("turn") or {}).get("player")
    players = state.get("players") or {}
    order = ([pid] if pid in players else []) + hero_pids(state)
    for q in order:
        p = players.get(q) or {}
        if p.get("square") and not p.get("escaped"):
            return geometry.parse(p["square"])
    return (1, 1)


def turn_window(state: dict, seat=None) -> tuple:
    """The squares round the focus: the explored tiles within TURN_RADIUS tiles of its tile."""
    fx, fy = focus(state, seat)
    tx, ty = geometry.tile_of(fx, fy)
    near = [k for k in _tiles(state) if max(abs(geometry.parse(k)[0] - tx), abs(geometry.parse(k)[1] - ty))
            <= TURN_RADIUS]
    if not near:
        return (4 * tx, 4 * ty, 4 * tx + 3, 4 * ty + 3)
    return _bounds(near)


def header_lines(content, state: dict) -> list:
    t = state.get("turn")
    parts = []
    lt = state.get("log_turn") or {}
    if t:
        who = _hero_name(content, state, t["player"])
        parts.append(f"Round {lt.get('round', 0) + 1} · Turn {t.get('number', 0)} · {who}: "
                     f"{t.get('phase', '')} phase")
    if state.get("phase") == "over" and state.get("outcome"):
        parts = [f"Adventure over: {str(state['outcome'].get('result', '')).capitalize()}"]
    elif state.get("phase") == "lobby":
        parts = ["Castle Ravenloft: in the lobby"]
    try:
        xp = experience.total(Ctx(content, state))
    except Exception:   # a card the content does not know: count cards instead
        xp = len(state.get("xp") or [])
    extra = f"Surges {state.get('surges', 0)} · XP {xp}"
    if state.get("pending"):
        extra += f" · {_hero_name(content, state, state['pending']['player'])} to decide"
    return parts + [extra]


def _hero_name(content, state, pid) -> str:
    p = (state.get("players") or {}).get(pid)
    if not p:
        return str(pid)
    return hero_name(content, p["hero"]) if p.get("hero") else p.get("name", str(pid))


def hero_name(content, hid: str) -> str:
    """The hero's name (data.hero builds the whole hero, powers and all: too slow for a picture)."""
    return str(data.g(data.table(content, "heroes").get(hid), "name", hid))


def legend_entries(content, state: dict, figs: list, window=None) -> list:
    """(text, colour, label, kind): every hero, then the monsters (inside `window`), the objects, the
    unexplored edges' key. A tab marks off the part of a text that is shortened when it is too long."""
    out = []
    cond_names = {"slowed": "Slowed", "immobilized": "Immobilized"}
    for f in figs:
        if f.kind != "hero":
            continue
        bits = [f"{f.name} {f.hp}/{f.max_hp}"] + [cond_names[c] for c in f.conditions]
        bits.append("at " + geometry.name(*f.squares[0]))
        out.append((" · ".join(bits), f.colour, f.label, "hero" + ("*" if f.active else "")))
    shown = {f.key for f in figs}
    for i, pid in enumerate(hero_pids(state)):
        p = state["players"][pid]
        if pid not in shown and "hp" in p:
            name = _hero_name(content, state, pid)
            where = "escaped" if p.get("escaped") else "not on the board"
            out.append((f"{name} {p['hp']}/{p.get('max_hp', 0)} · {where}", DOWN, name[:1].upper(), "hero"))
    for f in figs:
        if f.kind == "hero" or (window and not any(_inside(window, q) for q in f.squares)):
            continue
        out.append((f"{f.key} \t{f.name}\t {f.hp} HP", f.colour, f.label, f.kind))   # \t: the part cut to fit
    for m in _square_markers(state):
        if window and not _inside(window, geometry.parse(m["square"])):
            continue
        out.append((f"{m.get('label') or 'Object'} at {m['square']}", OBJECT, "", "object_marker"))
    if any(_tile_in(window, k) for k, _ in geometry.all_unexplored(state)) if window else \
            geometry.all_unexplored(state):
        out.append(("Unexplored edge", UNEXPLORED, "", "edge"))
    return out


def _inside(win, q) -> bool:
    return win[0] <= q[0] <= win[2] and win[1] <= q[1] <= win[3]


def _build(content, state, kind, window, width, sq, fnt, big, figs, entries, max_height=None) -> Layout:
    pad = max(4, fnt // 3)
    label_w = max(text_width(str(v), fnt) for v in window) + pad
    label_h = round(fnt * 1.25)
    edge = round(sq * 0.4)   # room outside the grid for the unexplored edges' bars
    lines = []
    for h in header_lines(content, state):
        lines += wrap(h, big, width - 2 * pad)
    header_h = len(lines) * round(big * 1.25) + pad
    cols = window[2] - window[0] + 1
    rows = window[3] - window[1] + 1
    legend_cols = max(1, min(3, width // (fnt * 15)))
    legend_row = round(fnt * 1.35)
    wide = sum(1 for e in entries if e[3].startswith("hero"))
    legend_h = (wide + (len(entries) - wide + legend_cols - 1) // legend_cols) * legend_row + 2 * pad
    grid_w = cols * sq
    if width is None:
        width = grid_w + 2 * (edge + label_w + pad)
    ox = (width - grid_w) // 2
    oy = header_h + label_h + edge
    grid_bottom = oy + rows * sq
    legend_top = grid_bottom + edge + label_h
    height = legend_top + legend_h
    sizes = tuple(sorted({fnt, big}))
    return Layout(kind, window, sq, (ox, oy), (width, height), fnt, big, tuple(lines), header_h, label_w, label_h,
                  tuple(entries), legend_top, legend_cols, legend_row, tuple(figs), sizes)


def layout_turn(content, state: dict, seat=None, scale: float = 1.0) -> Layout:
    """The turn picture's layout: TURN_WIDTH * scale wide, its text at least MIN_TEXT px once shown
    SHOWN_WIDTH wide, squares as large as the width allows, no taller than MAX_RATIO * width (fewer
    rows of squares, those furthest from the hero left out, when the tiles round them do not fit)."""
    width = max(200, round(TURN_WIDTH * scale))
    fnt = -(-MIN_TEXT * width // SHOWN_WIDTH)      # ceil: the rule holds after rounding
    big = fnt + max(1, fnt // 8)
    win = list(turn_window(state, seat))
    fx, fy = focus(state, seat)
    figs = figures(content, state)
    limit = int(MAX_RATIO * width)
    while True:
        entries = legend_entries(content, state, figs, tuple(win))
        cols = win[2] - win[0] + 1
        rows = win[3] - win[1] + 1
        label_w = max(text_width(str(v), fnt) for v in win) + max(4, fnt // 3)
        avail = width - 2 * label_w - 2 * max(4, fnt // 3)
        sq_w = min(avail * 10 // (cols * 10 + 8), round(width * 0.13))   # 0.8 sq of room for the edges' bars
        lay = _build(content, state, "turn", tuple(win), width, sq_w, fnt, big, figs, entries)
        if lay.size[1] <= limit:
            return lay
        fixed = lay.size[1] - rows * sq_w - 2 * round(sq_w * 0.4)
        sq = int((limit - fixed) / (rows + 0.8))
        if sq >= min(sq_w, round(fnt * 2.05)) or rows <= 4:
            sq = max(4, sq)
            lay = _build(content, state, "turn", tuple(win), width, sq, fnt, big, figs, entries)
            while lay.size[1] > limit and sq > 4:
                sq -= 1
                lay = _build(content, state, "turn", tuple(win), width, sq, fnt, big, figs, entries)
            return lay
        # squares squeezed by the height: leave out the row furthest from the hero
        if fy - win[1] > win[3] - fy:
            win[1] += 1
        else:
            win[3] -= 1


def layout_map(content, state: dict, scale: float = 1.0) -> Layout:
    placed = _tiles(state)
    win = _bounds(placed) if placed else (0, 0, 3, 3)
    sq = max(12, round(MAP_SQUARE * scale))
    fnt = max(9, round(sq * 0.42))
    big = round(fnt * 1.15)
    figs = figures(content, state)
    entries = legend_entries(content, state, figs)
    cols = win[2] - win[0] + 1
    pad = max(4, fnt // 3)
    label_w = max(text_width(str(v), fnt) for v in (win[0], win[2], win[1], win[3])) + pad
    width = cols * sq + 2 * (round(sq * 0.4) + label_w + pad)
    width = max(width, round(fnt * 24))
    return _build(content, state, "map", win, width, sq, fnt, big, figs, entries)


# --- drawing -------------------------------------------------------------------------------------

def _triangle_side(rot: int) -> str:
    """The side the printed south edge (the triangle's) faces after `rot` quarter turns clockwise."""
    return ("S", "W", "N", "E")[rot % 4]


def _edge_box(lay, tkey, d, squares) -> list:
    """The bars outside a tile's `d` edge along `squares`."""
    depth0, depth1 = max(2, lay.sq // 14), round(lay.sq * 0.34)
    out = []
    for q in squares:
        x0, y0, x1, y1 = square_box(lay, q)
        if d == "N":
            out.append((x0 + 2, y0 - depth1, x1 - 2, y0 - depth0))
        elif d == "S":
            out.append((x0 + 2, y1 + depth0, x1 - 2, y1 + depth1))
        elif d == "E":
            out.append((x1 + depth0, y0 + 2, x1 + depth1, y1 - 2))
        else:
            out.append((x0 - depth1, y0 + 2, x0 - depth0, y1 - 2))
    return out


def _draw_grid(d: ImageDraw.ImageDraw, content, state, lay: Layout):
    s = lay.sq
    win = lay.window
    placed = _tiles(state)
    line = max(1, s // 40)
    shown = [k for k in sorted(placed, key=lambda k: (-geometry.parse(k)[1], geometry.parse(k)[0]))
             if _tile_in(win, k)]
    for k in shown:
        tx, ty = geometry.parse(k)
        for (x, y) in geometry.tile_squares(tx, ty):
            if not _inside(win, (x, y)):
                continue
            c = geometry.char(state, x, y)
            box = square_box(lay, (x, y))
            if c == "#":
                d.rectangle(box, fill=WALL)
                continue
            d.rectangle(box, fill=FLOOR, outline=GRID, width=line)
            x0, y0, x1, y1 = box
            if c == "S":
                for i in range(1, 4):
                    yy = y0 + i * s // 4
                    d.line((x0 + s // 8, yy, x1 - s // 8, yy), fill=STAIRS, width=max(2, s // 14))
            elif c == "B":
                _bones(d, box)
    # tile edges over the squares
    for k in shown:
        tx, ty = geometry.parse(k)
        a = square_box(lay, (4 * tx, 4 * ty + 3))
        b = square_box(lay, (4 * tx + 3, 4 * ty))
        d.rectangle((a[0], a[1], b[2] - 1, b[3] - 1), outline=TILE_EDGE, width=max(2, s // 18))
    # unexplored edges
    for k, side in geometry.all_unexplored(state):
        if not _tile_in(win, k):
            continue
        tx, ty = geometry.parse(k)
        sqs = [q for q in geometry.edge_squares(tx, ty, side) if geometry.is_floor(state, *q)]
        for box in _edge_box(lay, k, side, sqs or geometry.edge_squares(tx, ty, side)):
            d.rectangle(box, fill=UNEXPLORED)
    # triangles
    for k in shown:
        t = placed[k]
        if t.get("start"):
            continue
        _triangle(d, lay, k, _triangle_side(t.get("rot", 0)), bool(t.get("black")))


def _tile_in(win, k) -> bool:
    tx, ty = geometry.parse(k)
    return not (4 * tx + 3 < win[0] or 4 * tx > win[2] or 4 * ty + 3 < win[1] or 4 * ty > win[3])


def _bones(d, box):
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = round(s * 0.36)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PILE)
    a = round(s * 0.22)
    w = max(2, s // 12)
    k = max(2, s // 13)
    for (ax, ay, bx, by) in ((cx - a, cy - a, cx + a, cy + a), (cx - a, cy + a, cx + a, cy - a)):
        d.line((ax, ay, bx, by), fill=BONE, width=w)
        for ex, ey in ((ax, ay), (bx, by)):
            d.ellipse((ex - k, ey - k, ex + k, ey + k), fill=BONE)


def _triangle(d, lay, k, side, black):
    tx, ty = geometry.parse(k)
    s = lay.sq
    a = square_box(lay, (4 * tx, 4 * ty + 3))
    b = square_box(lay, (4 * tx + 3, 4 * ty))
    x0, y0, x1, y1 = a[0], a[1], b[2], b[3]
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    half, depth = round(s * 0.36), round(s * 0.42)
    if side == "S":
        pts = [(cx - half, y1), (cx + half, y1), (cx, y1 - depth)]
    elif side == "N":
        pts = [(cx - half, y0), (cx + half, y0), (cx, y0 + depth)]
    elif side == "E":
        pts = [(x1, cy - half), (x1, cy + half), (x1 - depth, cy)]
    else:
        pts = [(x0, cy - half), (x0, cy + half), (x0 + depth, cy)]
    d.polygon(pts, fill=INK if black else WHITE, outline=WHITE if black else INK, width=max(1, s // 28))


@functools.lru_cache(maxsize=4096)
def _stamp(text: str, size: int, anchor: str):
    """The text's coverage ("L") and where its corner lies from the anchor point, drawn once: a
    picture lays some sixty labels, most of them the same from one picture to the next."""
    f = font(size)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, x0, y0


class _Draw(ImageDraw.ImageDraw):
    """Pillow's drawing on `picture`, which the text stamps are pasted on."""

    def __init__(self, picture: Image.Image):
        super().__init__(picture)
        self.picture = picture


def _text(d, xy, text, size, fill, anchor="mm"):
    if not text:
        return
    mask, dx, dy = _stamp(text, size, anchor)
    d.picture.paste(fill, (int(xy[0]) + dx, int(xy[1]) + dy), mask)


def _plate_text(d, cx, cy, text, size, fill=TEXT, plate=PLATE):
    w = text_width(text, size)
    h = round(size * 0.86)
    d.rounded_rectangle((cx - w // 2 - 3, cy - h // 2, cx + (w + 1) // 2 + 3, cy + h // 2), radius=max(2, size // 6),
                        fill=plate)
    _text(d, (cx, cy), text, size, fill)


def _draw_markers(d, content, state, lay):
    s = lay.sq
    occupied = {q for f in lay.figures for q in f.squares}
    for m in _square_markers(state):
        q = geometry.parse(m["square"])
        if not _inside(lay.window, q):
            continue
        x0, y0, x1, y1 = square_box(lay, q)
        cx, cy, r = (x0 + x1) // 2, (y0 + y1) // 2, round(s * 0.3)
        if q in occupied:   # under a figure: a corner mark
            cx, cy, r = x1 - s // 6, y0 + s // 6, round(s * 0.14)
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=OBJECT, outline=INK)
    markers = _tile_markers(content, state)
    for tkey in sorted(_tiles(state), key=lambda k: (-geometry.parse(k)[1], geometry.parse(k)[0])):
        if not _tile_in(lay.window, tkey):
            continue
        t = _tiles(state)[tkey]
        plates = []
        if t.get("name") and not t.get("start"):
            plates.append((t["name"], PLATE, TEXT_DIM))
        items = markers.get(tkey) or []
        if items:
            colour = MARKER.get(items[0][0], MARKER_OTHER)
            plates.append((" · ".join(name for _, name in items), colour, ink_for(colour)))
        if not plates:
            continue
        tx, ty = geometry.parse(tkey)
        # the tile's rows with the fewest figures on them, walls preferred
        rows = []
        for r in range(4):
            y = 4 * ty + 3 - r
            if lay.window[1] <= y <= lay.window[3]:
                row = [(4 * tx + c, y) for c in range(4)]
                rows.append(((sum(q in occupied for q in row), sum(geometry.is_floor(state, *q) for q in row), r), y))
        rows.sort()
        for (text, colour, ink), (_, y) in zip(plates, rows):
            a = square_box(lay, (4 * tx, y))
            b = square_box(lay, (4 * tx + 3, y))
            text = fit_text(text, lay.font, b[2] - a[0] - 10)
            _plate_text(d, (a[0] + b[2]) // 2, (a[1] + a[3]) // 2, text, lay.font, ink, colour)


def _draw_figures(d, lay):
    s = lay.sq
    for f in lay.figures:
        if not any(_inside(lay.window, q) for q in f.squares):
            continue
        xs = [q[0] for q in f.squares]
        ys = [q[1] for q in f.squares]
        a = square_box(lay, (min(xs), max(ys)))
        b = square_box(lay, (max(xs), min(ys)))
        x0, y0, x1, y1 = a[0], a[1], b[2], b[3]
        w = x1 - x0
        h = y1 - y0
        cx = (x0 + x1) // 2
        cy = y0 + round(h * 0.36)
        r = round(min(w, h) * 0.34)
        colour = f.colour if f.hp > 0 or f.kind != "hero" else DOWN
        if f.active:
            m = max(2, s // 14)
            d.rectangle((x0 + 1, y0 + 1, x1 - 2, y1 - 2), outline=HIGHLIGHT, width=m)
        if f.kind == "hero":
            ring = max(3, s // 12)
            for i, c in reversed(list(enumerate(f.conditions))):
                rr = r + ring * (i + 1)
                d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=CONDITION_COLOURS[c], outline=INK)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=HIGHLIGHT if f.active else INK,
                      width=max(2, s // 22))
        else:
            rw = round(w * 0.38)
            d.rounded_rectangle((cx - rw, cy - r, cx + rw, cy + r), radius=max(3, r // 3), fill=colour,
                                outline=HIGHLIGHT if f.kind == "villain" else INK, width=max(1, s // 26))
        _text(d, (cx, cy), f.label, lay.big if len(f.label) == 1 else lay.font, ink_for(colour))
        hp = f"{f.hp}/{f.max_hp}" if f.kind == "hero" else str(f.hp)
        _plate_text(d, cx, y1 - round(lay.font * 0.5) - max(1, s // 28), hp, lay.font,
                    HIGHLIGHT if f.active else TEXT)
    occupied = {q for f in lay.figures for q in f.squares}
    for f in lay.figures:
        if not f.conditions or not _inside(lay.window, f.squares[0]):
            continue
        x, y = f.squares[0]
        x0, y0, x1, y1 = square_box(lay, (x, y))
        above = (x, y + 1) not in occupied or (x, y - 1) in occupied
        ty = y0 - round(lay.font * 0.3) if above else y1 + round(lay.font * 0.3)
        text = ", ".join(CONDITION_TAGS[c] for c in f.conditions)
        colour = CONDITION_COLOURS[f.conditions[0]]
        _plate_text(d, (x0 + x1) // 2, ty, text, lay.font, ink_for(colour), colour)


def _draw_labels(d, lay):
    win = lay.window
    ox, oy = lay.origin
    rows = win[3] - win[1] + 1
    cols = win[2] - win[0] + 1
    edge = round(lay.sq * 0.4)
    top_y = oy - edge - lay.label_h // 2
    bottom_y = oy + rows * lay.sq + edge + lay.label_h // 2
    for i in range(cols):
        x = win[0] + i
        cx = ox + i * lay.sq + lay.sq // 2
        _text(d, (cx, top_y), str(x), lay.font, LABEL)
        _text(d, (cx, bottom_y), str(x), lay.font, LABEL)
    left_x = ox - edge - lay.label_w // 2
    right_x = ox + cols * lay.sq + edge + lay.label_w // 2
    for j in range(rows):
        y = win[3] - j
        cy = oy + j * lay.sq + lay.sq // 2
        _text(d, (left_x, cy), str(y), lay.font, LABEL)
        _text(d, (right_x, cy), str(y), lay.font, LABEL)
    # the corner says which number is which
    _text(d, (left_x, top_y), "y\\x", lay.font, TEXT_DIM)


def _draw_header(d, lay):
    pad = max(4, lay.font // 3)
    step = round(lay.big * 1.25)
    for i, line in enumerate(lay.header):
        _text(d, (pad, pad // 2 + step * i + step // 2), line, lay.big, HIGHLIGHT if i == 0 else TEXT, "lm")


def _draw_legend(d, lay):
    if not lay.legend:
        return
    for (text, colour, label, kind), (x, cy, col_w) in zip(lay.legend, legend_places(lay)):
        pad = max(4, lay.font // 3)
        rr = round(lay.legend_row * 0.42)
        sx = x + rr
        if kind.startswith("hero"):
            d.ellipse((sx - rr, cy - rr, sx + rr, cy + rr), fill=colour, outline=HIGHLIGHT if kind == "hero*" else INK,
                      width=2)
        elif kind == "edge":
            d.rectangle((sx - rr, cy - rr // 3, sx + rr, cy + rr // 3), fill=UNEXPLORED)
        elif kind == "object_marker":
            d.polygon([(sx, cy - rr), (sx + rr, cy), (sx, cy + rr), (sx - rr, cy)], fill=OBJECT, outline=INK)
        else:
            d.rounded_rectangle((sx - rr - 2, cy - rr, sx + rr + 2, cy + rr), radius=4, fill=colour,
                                outline=HIGHLIGHT if kind == "villain" else INK)
        if label:
            _text(d, (sx, cy), label, lay.font if len(label) > 1 else lay.font, ink_for(colour))
        room = col_w - 2 * rr - 3 * pad
        if "\t" in text:
            head, middle, tail = text.split("\t")
            text = head + fit_text(middle, lay.font, room - text_width(head + tail, lay.font)) + tail
        _text(d, (x + 2 * rr + pad, cy), fit_text(text, lay.font, room), lay.font,
              HIGHLIGHT if kind == "hero*" else TEXT, "lm")


def legend_places(lay: Layout) -> list:
    """(left x, middle y, width) of each legend entry: a hero a line, the rest in columns."""
    width = lay.size[0]
    pad = max(4, lay.font // 3)
    col_w = (width - 2 * pad) // lay.legend_cols
    out, row, col = [], 0, 0
    for text, colour, label, kind in lay.legend:
        wide = kind.startswith("hero")
        if wide and col:
            row, col = row + 1, 0
        out.append((pad + col * col_w, lay.legend_top + pad + row * lay.legend_row + lay.legend_row // 2,
                     width - 2 * pad if wide else col_w))
        col += 1
        if wide or col == lay.legend_cols:
            row, col = row + 1, 0
    return out


def draw(content, state: dict, lay: Layout) -> Image.Image:
    """The picture on `lay`, paletted (the fixed palette)."""
    im = Image.new("RGB", lay.size, BACKGROUND)
    d = _Draw(im)
    _draw_header(d, lay)
    _draw_grid(d, content, state, lay)
    _draw_markers(d, content, state, lay)
    _draw_figures(d, lay)
    _draw_labels(d, lay)
    _draw_legend(d, lay)
    return im.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def _viewed(state: dict) -> dict:
    """The state as a view gives it: a state whose decks are still lists is turned into its view."""
    decks = state.get("decks") or {}
    if any(isinstance(d.get("deck"), list) for d in decks.values()) or \
            isinstance((state.get("tiles") or {}).get("stack"), list):
        return view(state)
    return state


def _fit(make, max_bytes) -> bytes:
    """make(scale) -> PNG bytes: at scale 1, then smaller until the PNG fits in `max_bytes`."""
    out = make(1.0)
    scale = 1.0
    while max_bytes is not None and len(out) > max_bytes and scale > 0.1:
        scale *= max(0.5, min(0.9, (max_bytes / len(out)) ** 0.5 * 0.95))
        out = make(scale)
    return out


def render_turn_paletted(content, state: dict, seat=None, scale: float = 1.0) -> Image.Image:
    state = _viewed(state)
    return draw(content, state, layout_turn(content, state, seat, scale))


def render_map_paletted(content, state: dict, scale: float = 1.0) -> Image.Image:
    state = _viewed(state)
    return draw(content, state, layout_map(content, state, scale))


def render_turn(content, state: dict, seat=None, max_bytes: int | None = None) -> bytes:
    """The dungeon round the active hero (or `seat`'s hero) as PNG bytes, for a phone."""
    state = _viewed(state)
    return _fit(lambda sc: paletted_png(render_turn_paletted(content, state, seat, sc)), max_bytes)


def render_map(content, state: dict, max_bytes: int | None = None) -> bytes:
    """The whole explored dungeon as PNG bytes."""
    state = _viewed(state)
    return _fit(lambda sc: paletted_png(render_map_paletted(content, state, sc)), max_bytes)


def render_replay_gif(content, states: list, scale: float = 0.5, frame_ms: int = 900) -> bytes:
    """The adventure turn by turn: the explored dungeon at the start of each turn, one frame each (every
    frame a view, so no card still in a deck shows)."""
    return animate([render_map_paletted(content, s, scale) for s in states], frame_ms, background=0)


__all__ = ["render_turn", "render_map", "render_replay_gif", "render_turn_paletted", "render_map_paletted", "layout_turn", "layout_map",
           "square_box", "Layout", "figures", "focus", "turn_window", "MIN_TEXT", "SHOWN_WIDTH", "MAX_RATIO"]
