"""The locator: the whole city, every level side by side, a few pixels a
tile, with a frame round the part a cropped picture shows. It tells a
reader of the turn picture where on the map the turn happens."""
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import style as sty
from .layout import LEVELS, level_bounds

BORDER = 2      # the inset's own frame
GAP = 6         # between two levels


@dataclass(frozen=True)
class Locator:
    image: Image.Image
    crop: tuple     # where the frame round the cropped part is, in the inset (x0, y0, x1, y1)


def cell_size(board: dict, height: int, bounds: dict | None = None) -> int:
    """Pixels a square, so that the tallest level fits `height` (3 to 12)."""
    rows = max((b[3] - b[1] + 1 for b in (bounds or level_bounds(board)).values()), default=1)
    return max(3, min(12, (height - 2 * BORDER - 4) // rows))


def draw_locator(content, board: dict, level: str, window: tuple, height: int, here: str | None = None,
                 bounds: dict | None = None) -> Locator:
    """The inset at most `height` pixels tall. `window`: the squares
    (min x, min y, max x, max y) of `level` the picture shows; `here`: the
    tile marked as where the turn is. `bounds`: level_bounds(board), when known."""
    bounds = bounds or level_bounds(board)
    levels = [lv for lv in LEVELS if lv in bounds]
    k = cell_size(board, height, bounds)
    sizes = {lv: ((bounds[lv][2] - bounds[lv][0] + 1) * k, (bounds[lv][3] - bounds[lv][1] + 1) * k) for lv in levels}
    pad = BORDER + 2
    width = sum(w for w, _ in sizes.values()) + GAP * (len(levels) - 1) + 2 * pad
    tall = max((h for _, h in sizes.values()), default=k) + 2 * pad
    im = Image.new("RGB", (width, tall), sty.PANEL)
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, width - 1, tall - 1], outline=sty.TEXT_DIM, width=BORDER)
    origin, x = {}, pad
    for lv in levels:
        origin[lv] = (x, pad + (tall - 2 * pad - sizes[lv][1]) // 2)
        x += sizes[lv][0] + GAP
    for tid, p in board.items():
        ox, oy = origin[p["level"]]
        b = bounds[p["level"]]
        x0, y0 = ox + (p["x"] - b[0]) * k, oy + (p["y"] - b[1]) * k
        colour = sty.TILE_BACK if p.get("face_down") else sty.FLOOR[content.tiles[tid].kind]
        d.rectangle([x0, y0, x0 + k - 2, y0 + k - 2], fill=sty.HIGHLIGHT if tid == here else colour)
    ox, oy = origin[level]
    b = bounds[level]
    crop = (ox + (window[0] - b[0]) * k - 2, oy + (window[1] - b[1]) * k - 2,
            ox + (window[2] - b[0] + 1) * k + 1, oy + (window[3] - b[1] + 1) * k + 1)
    d.rectangle(crop, outline=sty.TEXT, width=2)
    return Locator(im, crop)
