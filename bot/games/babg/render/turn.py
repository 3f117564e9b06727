"""The turn picture: the part of the map where the turn happens, drawn for a
phone. A whole-city map shown in a chat is a thumbnail whose tile names
cannot be read; this one shows a few tiles round the player whose turn it is,
landscape, with names large enough to read at 400 px wide, and a small
locator of the whole city in the top corner.

    render_turn(content, state, player=None, max_bytes=None) -> PNG bytes
"""
import dataclasses
import functools
from collections import Counter

from PIL import Image

from bot.games.babg.engine.view import view

from . import art
from . import palette as pal
from . import style as sty
from .draw import (draw_panel, draw_tiles, figure_entries, fit_png, fitted_size, header_parts, legend_image,
                   legend_paletted)
from .layout import LEVELS, Layout, Panel, level_bounds
from .locator import draw_locator
from bot.render.png import paletted_png

COLS, ROWS = 4, 3   # squares shown: 4 across keeps names readable at 400 px (tests/test_render_turn.py measures it)
NAME_FONT = 26      # the tile names, larger than on the full map (18): the picture is read small
LOCATOR_H = 84      # the locator's height at scale 1


@functools.lru_cache(maxsize=32)
def turn_metrics(scale: float = 1.0) -> sty.Metrics:
    """The full map's lengths with larger tile names."""
    m = sty.metrics(scale)
    return dataclasses.replace(m, name_font=max(m.name_font, round(NAME_FONT * scale)))


def focus(state: dict, player: str | None = None) -> tuple[str, tuple[int, int], str | None]:
    """(level, square, tile) the picture is centred on: the tile of `player`
    (default: whose turn it is); without one on the board, the level with the
    most adventurers, at the middle of them (of its tiles, with none)."""
    board = state["board"]
    pid = player or (state.get("turn") or {}).get("player")
    p = state["players"].get(pid) if pid else None
    if p and p.get("tile") in board and p.get("alive", True):
        place = board[p["tile"]]
        return place["level"], (place["x"], place["y"]), p["tile"]
    standing = [board[q["tile"]] for q in state["players"].values()
                if q.get("tile") in board and q.get("alive", True)]
    counts = Counter(pl["level"] for pl in standing)
    if counts:
        level = max(LEVELS, key=lambda lv: (counts.get(lv, 0), lv == "city"))
        places = sorted((pl["x"], pl["y"]) for pl in standing if pl["level"] == level)
    else:
        tiles = Counter(pl["level"] for pl in board.values())
        level = max(LEVELS, key=lambda lv: (tiles.get(lv, 0), lv == "city"))
        places = sorted((pl["x"], pl["y"]) for pl in board.values() if pl["level"] == level)
    x = sorted(q[0] for q in places)[len(places) // 2]
    y = sorted(q[1] for q in places)[len(places) // 2]
    return level, (x, y), None


def window(board: dict, level: str, square: tuple[int, int], cols: int = COLS, rows: int = ROWS,
           bounds: dict | None = None) -> tuple:
    """The squares shown (min x, min y, max x, max y): `cols` x `rows` inside
    the level's explored area (fewer where it is smaller), holding `square`,
    with as many tiles as can be; of those, with `square` away from the edge,
    then nearest the middle. `bounds`: level_bounds(board), when known."""
    b = (bounds or level_bounds(board))[level]
    w, h = min(cols, b[2] - b[0] + 1), min(rows, b[3] - b[1] + 1)
    filled = {(p["x"], p["y"]) for p in board.values() if p["level"] == level}
    sx, sy = square
    best = None
    for x0 in range(max(b[0], sx - w + 1), min(sx, b[2] - w + 1) + 1):
        for y0 in range(max(b[1], sy - h + 1), min(sy, b[3] - h + 1) + 1):
            inner = min(sx - x0, x0 + w - 1 - sx, sy - y0, y0 + h - 1 - sy, 1)  # 1: a ring of tiles round it
            tiles = sum(1 for x in range(x0, x0 + w) for y in range(y0, y0 + h) if (x, y) in filled)
            off = abs(2 * (sx - x0) - (w - 1)) + abs(2 * (sy - y0) - (h - 1))
            key = (tiles, inner, -off, -x0, -y0)
            if best is None or key > best[0]:
                best = (key, (x0, y0, x0 + w - 1, y0 + h - 1))
    return best[1]


@dataclasses.dataclass(frozen=True)
class TurnLayout:
    """Where the turn picture puts things (tests probe its pixels with it)."""
    layout: Layout          # the one level's panel: layout.square_box(level, x, y) is a tile's box
    window: tuple           # the squares shown (min x, min y, max x, max y)
    shown: dict             # the tiles shown: tile id -> place
    here: str | None        # the tile the picture is about
    top: int                # height of the band over the level: the turn, the haunt, the locator
    locator: tuple          # the locator's box in the picture
    locator_image: Image.Image
    legend: Image.Image | None
    legend_key: tuple       # legend_image's arguments: (entries, width, metrics)
    size: tuple


def turn_layout(content, state: dict, player: str | None = None, scale: float = 1.0) -> TurnLayout:
    m = turn_metrics(scale)
    board = state["board"]
    level, square, here = focus(state, player)
    bounds = level_bounds(board)
    win = window(board, level, square, bounds=bounds)
    shown = {tid: p for tid, p in board.items() if p["level"] == level
             and win[0] <= p["x"] <= win[2] and win[1] <= p["y"] <= win[3]}
    loc = draw_locator(content, board, level, win, max(40, round(LOCATOR_H * scale)), here, bounds).image
    # the locator reaches down beside the level's title, clear of the tiles
    top = max(m.header_h * 2, loc.height + 2 * m.pad - m.title_h)
    panel_w = (win[2] - win[0] + 1) * m.pitch - m.gap + 2 * m.margin
    panel_h = m.title_h + (win[3] - win[1] + 1) * m.pitch - m.gap + 2 * m.margin
    entries = figure_entries(content, {**state, "board": shown}, player)
    width = panel_w
    legend = legend_image(entries, width, m) if entries else None
    height = top + panel_h + (legend.height if legend else m.pad)
    if height > width:   # landscape or square, whatever the crop
        width = height
        legend = legend_image(entries, width, m) if entries else None
        height = top + panel_h + (legend.height if legend else m.pad)
    panel = Panel(level, (0, top, width, top + panel_h),
                  ((width - panel_w) // 2 + m.margin, top + m.title_h + m.margin), win)
    lay = Layout(m, width, top + panel_h, {level: panel}, (0, top + panel_h, width))
    lx = width - m.pad - loc.width
    return TurnLayout(lay, win, shown, here, top, (lx, m.pad, lx + loc.width, m.pad + loc.height), loc, legend,
                      (entries, width, m), (width, height))


def render_turn_image(content, state: dict, player: str | None = None, scale: float = 1.0) -> Image.Image:
    """The turn picture as an RGB image (see render_turn). Draws `state` as
    given: pass a view (bot.games.babg.engine.view) so that nothing secret shows."""
    return render_turn_paletted(content, state, player, scale).convert("RGB")


def render_turn_paletted(content, state: dict, player: str | None = None, scale: float = 1.0) -> Image.Image:
    """The turn picture as drawn: a paletted image in the fixed palette
    (palette.py), what render_turn writes as PNG."""
    t = turn_layout(content, state, player, scale)
    lay, m = t.layout, t.layout.m
    im = pal.new(t.size, sty.BACKGROUND)
    _header(im, content, state, m, t.locator[0] - 2 * m.pad, t.top)
    draw_panel(im, lay, next(iter(lay.panels.values())))
    im.paste(pal.to_palette(t.locator_image), t.locator[:2])
    draw_tiles(im, content, {**state, "board": t.shown}, lay, player, full_board=state["board"])
    if t.legend:
        im.paste(legend_paletted(*t.legend_key), (0, lay.map_height))
    return im


def _header(im, content, state, m, room: int, top: int):
    """Whose turn it is over the haunt's name, one to a line."""
    lines = header_parts(content, state) or ["Betrayal at Baldur's Gate"]
    step = top // (len(lines) + 1)
    for i, text in enumerate(lines):
        size = fitted_size(text, m.title_font, m.font, room)
        colour = sty.HIGHLIGHT if i == 0 and state.get("turn") else sty.TEXT
        art.stamp_text(im, (m.pad, step * (i + 1)), text, size, colour, "lm")


def render_turn(content, state: dict, player: str | None = None, max_bytes: int | None = None) -> bytes:
    """The turn picture as PNG bytes: the tiles round `player` (default: the
    player whose turn it is) on their level, a locator of the whole city, who
    and what stands there. With `max_bytes`, drawn again smaller until it
    fits (see fit_png). Drawn from the channel's view of the game, so it
    cannot show a secret such as a hidden traitor."""
    state = view(state)
    data = paletted_png(render_turn_paletted(content, state, player))
    if max_bytes is None or len(data) <= max_bytes:
        return data
    return fit_png(lambda s: paletted_png(render_turn_paletted(content, state, player, s)), 1.0, max_bytes, data)


__all__ = ["render_turn", "render_turn_image", "render_turn_paletted", "turn_layout", "TurnLayout", "focus", "window",
           "turn_metrics"]
