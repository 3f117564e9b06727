"""The one fixed palette every map picture is drawn in.

A map is a few dozen flat colours (style.py) and the soft edges of its text,
icons and figures. Drawn straight into a paletted ("P") image with this
palette, a picture needs no quantizing before its PNG is written: the tile
faces, legends and locators are turned into palette indices once, when
they are drawn and cached, and only the small parts blended onto a picture
(text, figures) are mapped to the palette as they are laid on it.

The palette: every colour of style.py exactly (tests probe them), then the
shades between the colours that meet at soft edges (text on its plate,
figures on the floors), then a coarse cube of colours for anything else.
"""
import functools

from PIL import Image

from . import style as sty

# colours drawn in art.py beside those of style.py
ART = ((0, 0, 0), (16, 16, 16), (20, 14, 10), (20, 20, 20), (20, 20, 22), (30, 20, 10), (40, 24, 10), (60, 50, 44),
       (60, 56, 64), (70, 70, 76), (230, 190, 60), (230, 230, 230), (236, 80, 40), (250, 250, 250))
OUTLINE, DARK_INK, LIGHT_INK = (16, 16, 16), (20, 20, 20), (250, 250, 250)
NEAR = 5     # a shade this close (each channel) to a colour already in is left out


def _style_colours() -> list:
    """Every (r, g, b) in style.py's upper-case names, in their order."""
    out = []

    def walk(v):
        if isinstance(v, tuple) and len(v) == 3 and all(isinstance(c, int) for c in v):
            out.append(v)
        elif isinstance(v, (tuple, list)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
    for name in sorted(vars(sty)):
        if name.isupper():
            walk(getattr(sty, name))
    return out


def _mix(a, b, t: float) -> tuple:
    return tuple(round(x * (1 - t) + y * t) for x, y in zip(a, b))


def _ramp(fg, bg, steps: int) -> list:
    return [_mix(bg, fg, (i + 1) / (steps + 1)) for i in range(steps)]


def build() -> list:
    """The palette's colours, at most 256, flat colours first."""
    flats = _style_colours() + list(ART)
    flats += [tuple(int(c * 0.55 + 60) for c in fill) for fill in (sty.MONSTER, sty.NPC)]   # stunned figures
    floors = list(sty.FLOOR.values())
    figures = list(sty.ADVENTURER_COLOURS.values()) + list(sty.TOKEN_COLOURS) + [sty.MONSTER, sty.NPC, sty.PILE]
    shades = []
    # text: tile names on their plates, headers, titles and legend on the dark
    shades += _ramp(sty.TEXT, sty.PLATE, 7)
    shades += _ramp(sty.TEXT, sty.BACKGROUND, 5) + _ramp(sty.TEXT, sty.PANEL, 5)
    shades += _ramp(sty.HIGHLIGHT, sty.BACKGROUND, 5)
    shades += _ramp(sty.BADGE_EDGE, sty.BADGE, 4)
    for glyph in sty.GLYPH.values():
        shades += _ramp(glyph, sty.BADGE, 3)
    # figures: the label on the disc, the outline on the floor and on the disc
    for fill in figures:
        shades += _ramp(sty.ink_for(fill), fill, 2) + _ramp(OUTLINE, fill, 1)
    for ground in floors + [sty.BACKGROUND, sty.PANEL]:
        shades += _ramp(OUTLINE, ground, 2) + _ramp(sty.HIGHLIGHT, ground, 1) + _ramp(sty.BADGE_EDGE, ground, 2)
        shades += _ramp(sty.BADGE, ground, 1)
    for fill in figures:
        for ground in floors:
            shades += _ramp(fill, ground, 1)
    levels = (0, 64, 128, 192, 255)
    cube = [(r, g, b) for r in levels for g in levels for b in levels]
    out = []
    for c in flats + shades + cube:
        if len(out) == 256:
            break
        if c in out or (c not in flats and any(max(abs(x - y) for x, y in zip(c, o)) <= NEAR for o in out)):
            continue
        out.append(c)
    return out


COLOURS = build()
_FLAT = {c: i for i, c in reversed(list(enumerate(COLOURS)))}


@functools.lru_cache(maxsize=1)
def image() -> Image.Image:
    """A 1x1 paletted image holding the palette, for Image.quantize."""
    im = Image.new("P", (1, 1), 0)
    im.putpalette(data())
    im.load()   # the palette into the core image, which blend() uses directly
    return im


@functools.lru_cache(maxsize=1)
def data() -> bytes:
    return bytes(v for c in COLOURS for v in c) + bytes(3 * (256 - len(COLOURS)))


def index(colour) -> int:
    """The palette index of `colour` (an exact style colour, else the nearest)."""
    colour = tuple(colour[:3])
    i = _FLAT.get(colour)
    if i is None:
        i = min(range(len(COLOURS)), key=lambda k: sum((a - b) ** 2 for a, b in zip(COLOURS[k], colour)))
        _FLAT[colour] = i
    return i


def new(size: tuple, colour) -> Image.Image:
    """A paletted image of `size` filled with `colour`."""
    im = Image.new("P", size, index(colour))
    im.putpalette(data())
    return im


def to_palette(rgb: Image.Image) -> Image.Image:
    """An RGB (or RGBA, alpha dropped) image mapped to the palette, each pixel to the nearest colour."""
    if rgb.mode != "RGB":
        rgb = rgb.convert("RGB")
    return rgb.quantize(palette=image(), dither=Image.Dither.NONE)


def blend(im: Image.Image, xy: tuple, src, mask: Image.Image | None = None):
    """Lay `src` (an RGBA image, or a colour through the "L" `mask`) on the
    paletted `im` at `xy`, soft edges blended with what is under them: only
    that box is turned to RGB and back. A picture lays a score of these, so
    it works on Pillow's core images, without the checks of Image.paste
    around each step (a third of the time)."""
    w, h = (mask if mask is not None else src).size
    x0, y0 = int(xy[0]), int(xy[1])
    box = (max(0, x0), max(0, y0), min(im.width, x0 + w), min(im.height, y0 + h))
    if box[2] <= box[0] or box[3] <= box[1]:
        return
    im.load()
    under = im.im.crop(box).convert("RGB")
    at = (x0 - box[0], y0 - box[1], x0 - box[0] + w, y0 - box[1] + h)
    if mask is None:
        src.load()
        under.paste(src.im, at, src.im)
    else:
        mask.load()
        under.paste(tuple(src[:3]), at, mask.im)
    im.im.paste(under.convert("P", Image.Dither.NONE, image().im), box)
