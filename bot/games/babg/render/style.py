"""Colours, sizes and fonts of the map picture (no drawing here)."""
import functools
import pathlib
from dataclasses import dataclass, fields

from PIL import ImageColor, ImageFont
from bot.render.fonts import font  # noqa: F401  (also read by callers as style.font)

ASSETS = pathlib.Path(__file__).resolve().parents[4] / "assets"

# --- colours --------------------------------------------------------------

BACKGROUND = (28, 26, 31)       # the unexplored dark around the tiles
PANEL = (38, 35, 41)            # behind a level
TEXT = (242, 236, 222)
TEXT_DIM = (190, 182, 168)
WALL = (40, 30, 26)
TILE_BACK = (52, 46, 58)        # a tile turned face down by a haunt
TILE_BACK_MARK = {"city": (150, 128, 96), "catacomb": (96, 120, 150)}
FLOOR = {"building": (146, 84, 54), "street": (204, 180, 134), "catacomb": (108, 122, 138)}
FLOOR_LINE = {"building": (118, 64, 40), "street": (176, 152, 108), "catacomb": (86, 98, 112)}
FLOOR_LIGHT = {"building": (160, 96, 63), "street": (214, 192, 148), "catacomb": (118, 133, 149)}
DOOR = {"building": (214, 40, 34), "street": (246, 204, 36), "catacomb": (40, 140, 250), "passage": (240, 226, 196)}
BLOCKED = (20, 18, 18)          # a doorway facing a wall: a false feature
PLATE = (30, 24, 22)            # behind a tile's name
HIGHLIGHT = (255, 214, 64)      # the current player: ring and tile frame
TRAITOR = (178, 16, 60)         # the traitor's mark, once the table knows who it is
BARRIER = (236, 96, 28)
BADGE = (246, 238, 214)
BADGE_EDGE = (50, 40, 34)
GLYPH = {"event": (112, 54, 160), "item": (150, 88, 20), "omen": (20, 20, 24)}
MONSTER = (150, 24, 38)
NPC = (30, 130, 120)
PILE = (120, 78, 36)
TOKEN_COLOURS = ((226, 226, 226), (250, 160, 60), (120, 210, 230), (200, 160, 230), (170, 220, 120), (250, 150, 170))

ADVENTURER_COLOURS = {
    "yellow": (246, 206, 30), "purple": (142, 70, 190), "blue": (46, 108, 232), "green": (40, 168, 70),
    "red": (222, 36, 40), "white/grey": (232, 232, 226), "white": (240, 240, 236), "grey": (170, 170, 170),
    "gray": (170, 170, 170), "orange": (246, 140, 30), "black": (50, 50, 50),
}


def adventurer_rgb(name: str) -> tuple:
    key = (name or "").strip().lower()
    if key in ADVENTURER_COLOURS:
        return ADVENTURER_COLOURS[key]
    for part in key.replace("-", "/").split("/"):
        if part.strip() in ADVENTURER_COLOURS:
            return ADVENTURER_COLOURS[part.strip()]
        try:
            return ImageColor.getrgb(part.strip())[:3]
        except ValueError:
            pass
    return (160, 160, 160)


def ink_for(rgb: tuple) -> tuple:
    """Black or white, whichever reads on `rgb`."""
    r, g, b = rgb[:3]
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


# --- sizes ------------------------------------------------------------------

@dataclass(frozen=True)
class Metrics:
    """Every length of the picture at one scale (pixels)."""
    scale: float
    tile: int          # side of a tile square
    gap: int           # gutter between tiles
    pitch: int         # tile + gap
    wall: int
    door_len: int
    door_depth: int
    margin: int        # around the explored tiles of a level
    header_h: int
    title_h: int
    pad: int
    name_font: int
    font: int          # legend, badges, token initials (the smallest text)
    title_font: int
    token: int         # largest token diameter
    min_token: int
    icon: int
    legend_row: int
    min_width: int
    legend_min: int    # narrowest legend column beside a level

    def __hash__(self):
        """Hashed once: metrics are in the key of every cached piece of a picture, a few dozen a picture."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", h)
        return h


BASE = dict(tile=168, gap=6, wall=5, door_len=70, door_depth=11, margin=16, header_h=40, title_h=36, pad=12,
            name_font=18, font=17, title_font=24, token=40, min_token=26, icon=30, legend_row=38, min_width=720,
            legend_min=440)


# Text never shrinks below these sizes, however small the picture (the replay GIF is drawn at 0.6):
# below about 13 px the names on the tiles stop being readable on a phone.
MIN_TEXT = dict(name_font=12, font=11, title_font=16)


@functools.lru_cache(maxsize=32)
def metrics(scale: float = 1.0) -> Metrics:
    v = {k: max(MIN_TEXT.get(k, 1), round(n * scale)) for k, n in BASE.items()}
    return Metrics(scale=scale, pitch=v["tile"] + v["gap"], **v)


# --- fonts: the shared one (bot.render.fonts) ------------------------------------

@functools.lru_cache(maxsize=1024)
def text_size(text: str, size: int) -> tuple[int, int]:
    """Advance width and line height of `text` (laying out a line costs
    about 6 us a letter: a header line is measured at each size tried)."""
    f = font(size)
    try:
        w = f.getlength(text)
    except AttributeError:
        w = f.getbbox(text)[2]
    return int(round(w)), line_height(size)


@functools.lru_cache(maxsize=64)
def line_height(size: int) -> int:
    f = font(size)
    try:
        a, d = f.getmetrics()
        return a + d
    except AttributeError:
        return f.getbbox("Hg")[3]


@functools.lru_cache(maxsize=4096)
def wrap(text: str, size: int, width: int) -> tuple[str, ...]:
    """Greedy word wrap of `text` to `width` pixels at font `size`."""
    words = text.split()
    lines, cur = [], ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if cur and text_size(trial, size)[0] > width:
            lines.append(cur)
            cur = w
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return tuple(lines)


@functools.lru_cache(maxsize=512)
def name_block(name: str, m: Metrics) -> tuple[int, tuple[str, ...], int]:
    """(font size, lines, block height) of a tile's name: wrapped to the tile,
    shrunk a little (never below the smallest text size) if a word is too wide."""
    width = m.tile - 2 * (m.door_depth + m.pad // 2)
    size = m.name_font
    lines = wrap(name, size, width)
    while size > m.font and any(text_size(line, size)[0] > width for line in lines):
        size -= 1
        lines = wrap(name, size, width)
    lh = round(size * 1.15)
    return size, lines, len(lines) * lh + m.pad // 2 + 2
