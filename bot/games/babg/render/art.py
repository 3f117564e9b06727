"""The pictures the map is assembled from, each drawn once and cached: floor
textures, icons, tile faces (per tile and rotation), token sprites.

Icons and round things are drawn at 4x and scaled down, for smooth edges.
"""
import functools
import math

from PIL import Image, ImageDraw

from bot.games.babg.engine import board as bd

from . import palette as pal
from . import style as sty
from .layout import barrier_label_rect, door_rect, name_plate
from .style import Metrics

SS = 4  # supersampling of icons and sprites


def _down(im: Image.Image, size: tuple) -> Image.Image:
    return im.resize(size, Image.LANCZOS)


def _text_centered(draw, cx, cy, text, size, fill, stroke=0, stroke_fill=None):
    draw.text((cx, cy), text, font=sty.font(size), fill=fill, anchor="mm", stroke_width=stroke,
              stroke_fill=stroke_fill)


# Stamps kept: a legend label's is about 3.6 KB (its "L" mask, 15-20 px high): 4096 take 15 MB, and 200 games'
# legends hold about 900 distinct labels. A header line (about 20 KB, a new one most turns) has a cache of its
# own, so one-off lines never push the labels out nor fill the worker's memory.
TEXT_STAMPS = 4096
LONG_TEXT = 40  # characters from which a line counts as a header line
LONG_TEXT_STAMPS = 256


def text_stamp(text: str, size: int, anchor: str) -> tuple:
    return (_long_stamp if len(text) >= LONG_TEXT else _short_stamp)(text, size, anchor)


def _draw_stamp(text: str, size: int, anchor: str) -> tuple:
    """(mask, dx, dy): a line of text as an "L" mask, drawn once; paste its
    colour through the mask at (x + dx, y + dy) where draw.text((x, y), ...,
    anchor=anchor) would have drawn it. Laying out text is the slowest part
    of a header line, and the header and titles repeat turn after turn,
    and so do the legend's labels (a few dozen a game, many shared between games)."""
    f = sty.font(size)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor)
    return mask, x0, y0


_short_stamp = functools.lru_cache(maxsize=TEXT_STAMPS)(_draw_stamp)
_long_stamp = functools.lru_cache(maxsize=LONG_TEXT_STAMPS)(_draw_stamp)


def stamp_text(im, xy, text: str, size: int, fill, anchor: str = "la"):
    """Draw `text` on `im` as ImageDraw.text would, from the cached stamp
    (on a paletted image, blended with what is under it, see palette.blend)."""
    mask, dx, dy = text_stamp(text, size, anchor)
    if im.mode == "P":
        pal.blend(im, (int(xy[0]) + dx, int(xy[1]) + dy), fill, mask)
    else:
        im.paste(fill, (int(xy[0]) + dx, int(xy[1]) + dy), mask)


# --- floors -----------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def floor(kind: str, size: int) -> Image.Image:
    """Plain tile floor: wood planks, cobbles or stone blocks. Regular and
    low-contrast so that names and tokens stay readable (and PNG stays small)."""
    base, line, light = sty.FLOOR[kind], sty.FLOOR_LINE[kind], sty.FLOOR_LIGHT[kind]
    im = Image.new("RGB", (size, size), base)
    d = ImageDraw.Draw(im)
    u = max(4, size // 10)
    if kind == "building":        # planks with staggered joints
        for i, y in enumerate(range(0, size, u)):
            d.line([(0, y), (size, y)], fill=line, width=max(1, size // 90))
            off = (i % 3) * u * 2
            for x in range(off, size, u * 6):
                d.line([(x, y), (x, y + u)], fill=line, width=1)
    elif kind == "street":        # cobbles, offset every other row
        for i, y in enumerate(range(0, size, u)):
            off = (u // 2) if i % 2 else 0
            for x in range(-u + off, size, u):
                d.rounded_rectangle([x + 1, y + 1, x + u - 2, y + u - 2], radius=max(1, u // 4), fill=light,
                                    outline=line)
    else:                         # big stone blocks
        bh, bw = int(u * 1.6), int(u * 2.6)
        for i, y in enumerate(range(0, size, bh)):
            off = (bw // 2) if i % 2 else 0
            d.line([(0, y), (size, y)], fill=line, width=max(1, size // 90))
            for x in range(off, size, bw):
                d.line([(x, y), (x, y + bh)], fill=line, width=max(1, size // 90))
    return im


# --- icons ------------------------------------------------------------------------

def _badge(size: int, shape="circle", fill=sty.BADGE, edge=sty.BADGE_EDGE):
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    w = max(SS, big // 16)
    if shape == "circle":
        d.ellipse([w // 2, w // 2, big - w // 2 - 1, big - w // 2 - 1], fill=fill, outline=edge, width=w)
    else:
        d.rounded_rectangle([w // 2, w // 2, big - w // 2 - 1, big - w // 2 - 1], radius=big // 5, fill=fill,
                            outline=edge, width=w)
    return im, d, big


def _spiral(d, big, colour):
    cx = cy = big / 2
    pts = []
    turns, rmax = 2.6, big * 0.36
    for i in range(160):
        th = i / 159 * turns * 2 * math.pi
        r = rmax * th / (turns * 2 * math.pi)
        pts.append((cx + r * math.cos(th), cy + r * math.sin(th)))
    d.line(pts, fill=colour, width=max(2, big // 11), joint="curve")


def _bull(d, big, colour):
    """Item: a horned head seen from the front."""
    u = big / 32
    d.polygon([(9 * u, 11 * u), (23 * u, 11 * u), (21 * u, 22 * u), (18 * u, 27 * u), (14 * u, 27 * u),
               (11 * u, 22 * u)], fill=colour)
    w = int(3 * u)
    d.arc([2 * u, 1 * u, 14 * u, 16 * u], 150, 300, fill=colour, width=w)   # left horn
    d.arc([18 * u, 1 * u, 30 * u, 16 * u], 240, 30, fill=colour, width=w)   # right horn
    d.polygon([(9 * u, 12 * u), (4 * u, 15 * u), (9 * u, 16 * u)], fill=colour)   # ears
    d.polygon([(23 * u, 12 * u), (28 * u, 15 * u), (23 * u, 16 * u)], fill=colour)
    eye = sty.BADGE
    d.ellipse([12 * u, 15 * u, 14.5 * u, 17.5 * u], fill=eye)
    d.ellipse([17.5 * u, 15 * u, 20 * u, 17.5 * u], fill=eye)
    d.ellipse([13.5 * u, 23 * u, 15 * u, 24.5 * u], fill=eye)
    d.ellipse([17 * u, 23 * u, 18.5 * u, 24.5 * u], fill=eye)


def _raven(d, big, colour):
    """Omen: a perched bird facing left."""
    u = big / 32
    d.ellipse([10 * u, 11 * u, 23 * u, 21 * u], fill=colour)                    # body
    d.ellipse([7 * u, 7 * u, 14 * u, 14 * u], fill=colour)                      # head
    d.polygon([(8 * u, 9 * u), (3 * u, 12 * u), (8 * u, 12.5 * u)], fill=colour)  # beak
    d.polygon([(20 * u, 14 * u), (29 * u, 21 * u), (27 * u, 23 * u), (19 * u, 19 * u)], fill=colour)  # tail
    d.line([(14 * u, 20 * u), (13 * u, 26 * u)], fill=colour, width=max(1, int(1.4 * u)))
    d.line([(18 * u, 20 * u), (18 * u, 26 * u)], fill=colour, width=max(1, int(1.4 * u)))
    d.line([(9 * u, 26 * u), (23 * u, 26 * u)], fill=colour, width=max(1, int(1.4 * u)))  # perch
    d.ellipse([9 * u, 9 * u, 10.6 * u, 10.6 * u], fill=sty.BADGE)               # eye


def _stairs(d, big, colour):
    u = big / 32
    pts = [(6 * u, 25 * u)]
    for k in range(4):
        x, y = (6 + 5 * k) * u, (25 - 5 * (k + 1)) * u
        pts += [(x, y), (x + 5 * u, y)]
    pts += [(26 * u, 25 * u)]
    d.polygon(pts, fill=colour)


def _grate(d, big, colour):
    u = big / 32
    d.ellipse([3 * u, 3 * u, 29 * u, 29 * u], fill=(70, 70, 76), outline=colour, width=int(3 * u))
    for k in range(5):
        x = (9.5 + k * 3.3) * u
        d.line([(x, 8 * u), (x, 24 * u)], fill=(20, 20, 22), width=max(1, int(1.6 * u)))


def _landing(d, big, colour):
    _grate(d, big, colour)
    u = big / 32
    d.polygon([(10 * u, 12 * u), (22 * u, 12 * u), (16 * u, 22 * u)], fill=(236, 80, 40), outline=(20, 20, 20))


def _chest(d, big, colour):
    u = big / 32
    d.rounded_rectangle([4 * u, 9 * u, 28 * u, 27 * u], radius=3 * u, fill=colour, outline=(40, 24, 10),
                        width=max(1, int(1.5 * u)))
    d.line([(4 * u, 15 * u), (28 * u, 15 * u)], fill=(40, 24, 10), width=max(1, int(1.5 * u)))
    d.rectangle([14 * u, 13 * u, 18 * u, 18 * u], fill=(230, 190, 60))


ICONS = {"event": (_spiral, "circle"), "item": (_bull, "circle"), "omen": (_raven, "circle"),
         "stairs": (_stairs, "square"), "grate": (_grate, "none"), "landing": (_landing, "none")}


@functools.lru_cache(maxsize=64)
def icon(name: str, size: int) -> Image.Image:
    """An RGBA icon: event spiral, item horned head, omen raven, stairs,
    sewer grate, the landing the grates drop to."""
    fn, shape = ICONS[name]
    if shape == "none":
        big = size * SS
        im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        d = ImageDraw.Draw(im)
    else:
        im, d, big = _badge(size, shape)
    fn(d, big, sty.GLYPH.get(name, sty.BADGE_EDGE) if name in sty.GLYPH else
       (sty.BADGE if name in ("grate", "landing") else (60, 50, 44)))
    return _down(im, (size, size))


# --- tile faces ---------------------------------------------------------------------

_faces: dict = {}


def corner_icons(tile, stairs_no: int | None) -> tuple[list, list]:
    """Icons on a tile, left to right along its bottom edge: symbol left; stairs,
    grate or landing right."""
    left = [tile.symbol] if tile.symbol in ("event", "item", "omen") else []
    right = []
    if tile.stairs_to:
        right.append("stairs")
    if tile.sewer_grate:
        right.append("grate")
    if tile.id == "catacomb_landing":
        right.append("landing")
    return left, right


def tile_face(tile, rot: int, m: Metrics, stairs_no: int | None = None, mode: str = "RGB") -> Image.Image:
    """A tile as placed: floor, walls, doorway marks, barrier, name, icons.
    Cached per tile, rotation and metrics. `mode` "P": in the palette
    (palette.py), mapped once when first drawn."""
    key = (tile.id, rot, m, stairs_no, mode)   # all of m: the turn picture has its own name size at scale 1
    hit = _faces.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    im = pal.to_palette(tile_face(tile, rot, m, stairs_no)) if mode == "P" else _draw_face(tile, rot, m, stairs_no)
    if len(_faces) > 2048:
        _faces.clear()
    _faces[key] = (tile, im)
    return im


@functools.lru_cache(maxsize=8)
def tile_back(level: str, tile: int, wall: int, mode: str = "RGB") -> Image.Image:
    """A tile a haunt turned face down: its dark back with a diamond mark
    and no name (its printed side is unknown). `mode` "P": in the palette."""
    if mode == "P":
        return pal.to_palette(tile_back(level, tile, wall))
    im = Image.new("RGB", (tile, tile), sty.TILE_BACK)
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, tile - 1, tile - 1], outline=sty.WALL, width=wall)
    c, r = tile // 2, tile // 4
    d.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], outline=sty.TILE_BACK_MARK[level],
              width=max(2, wall))
    return im


def _draw_face(tile, rot, m: Metrics, stairs_no):
    t = m.tile
    im = floor(tile.kind, t).copy()
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, t - 1, t - 1], outline=sty.WALL, width=m.wall)
    for side, kind in bd.doorways(tile, rot).items():
        x0, y0, x1, y1 = door_rect(m, side)
        d.rectangle([x0, y0, x1 - 1, y1 - 1], fill=sty.DOOR[kind])
    if tile.barrier:
        _barrier(im, d, tile, rot, m)
    # name on a dark plate, always upright
    size, lines, _h = sty.name_block(tile.name, m)
    px0, py0, px1, py1 = name_plate(m, tile.name)
    d.rounded_rectangle([px0, py0, px1 - 1, py1 - 1], radius=max(2, m.pad // 2), fill=sty.PLATE)
    lh = round(size * 1.15)
    y = py0 + m.pad // 4 + 1 + lh // 2
    for line in lines:
        d.text((t // 2, y), line, font=sty.font(size), fill=sty.TEXT, anchor="mm")
        y += lh
    left, right = corner_icons(tile, stairs_no)
    inset = m.door_depth + 2
    ys = t - inset - m.icon
    x = inset
    for name in left:
        ic = icon(name, m.icon)
        im.paste(ic, (x, ys), ic)
        x += m.icon + 2
    x = t - inset - m.icon
    for name in right:
        ic = icon(name, m.icon)
        im.paste(ic, (x, ys), ic)
        if name == "stairs" and stairs_no:
            number_badge(im, str(stairs_no), x - m.font - 2, ys + m.icon // 2, m)
        x -= m.icon + 2
    return im


def number_badge(im, text, x, cy, m: Metrics):
    d = ImageDraw.Draw(im)
    r = m.font // 2 + 3
    cx = x + r
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=sty.BADGE, outline=sty.BADGE_EDGE, width=max(1, m.wall // 3))
    _text_centered(d, cx, cy, text, m.font, sty.BADGE_EDGE)


def _barrier(im, d, tile, rot, m: Metrics):
    """The barrier across the middle, between the printed north and south
    halves, with the roll it takes to cross."""
    t, c, w = m.tile, m.tile // 2, max(3, m.wall)
    label = f"{tile.barrier['trait'].capitalize()} {tile.barrier['target']}+"
    if bd.rotate_side("north", rot) in ("north", "south"):   # the line runs across
        for x in range(m.wall, t - m.wall, w * 3):
            d.line([(x, c), (min(x + w * 2, t - m.wall), c)], fill=sty.BARRIER, width=w)
    else:
        for y in range(m.wall, t - m.wall, w * 3):
            d.line([(c, y), (c, min(y + w * 2, t - m.wall))], fill=sty.BARRIER, width=w)
    x0, y0, x1, y1 = barrier_label_rect(m, tile, rot)
    d.rounded_rectangle([x0, y0, x1 - 1, y1 - 1], radius=4, fill=sty.BARRIER, outline=sty.WALL)
    _text_centered(d, (x0 + x1) // 2, (y0 + y1) // 2, label, m.font, (20, 14, 10))


# --- sprites -----------------------------------------------------------------------

@functools.lru_cache(maxsize=1024)
def sprite(kind: str, label: str, colour: tuple, d: int, highlight: bool, stunned: bool, m: Metrics,
           traitor: bool = False, badge: str = ""):
    """A figure as an RGBA image `d + 2*ring` wide; the figure's centre is the
    image centre. `traitor`: the traitor's mark on an adventurer; `badge`: a
    number at the bottom right (a monster's hit points)."""
    ring = max(3, m.wall)
    size = d + 2 * ring
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    dr = ImageDraw.Draw(im)
    o, r = big / 2, d * SS / 2
    edge = max(SS, int(SS * 1.6))
    text_colour = (20, 20, 20)
    if kind == "adventurer":
        if highlight:
            R = r + ring * SS
            dr.ellipse([o - R, o - R, o + R, o + R], fill=sty.HIGHLIGHT)
        dr.ellipse([o - r, o - r, o + r, o + r], fill=colour, outline=(16, 16, 16), width=edge)
        text_colour = sty.ink_for(colour)
    elif kind in ("monster", "npc"):
        fill = sty.MONSTER if kind == "monster" else sty.NPC
        if stunned:
            fill = tuple(int(c * 0.55 + 60) for c in fill)
        rr = r * 0.78
        cy = o + r - rr
        # teardrop: a round bottom and a point at the top
        dr.polygon([(o, o - r), (o - rr * 0.9, cy - rr * 0.45), (o + rr * 0.9, cy - rr * 0.45)], fill=(16, 16, 16))
        dr.ellipse([o - rr, cy - rr, o + rr, cy + rr], fill=(16, 16, 16))
        k = min(edge, rr / 2)  # at the smallest scales the outline must not swallow the body
        dr.polygon([(o, o - r + k * 1.8), (o - rr * 0.9 + k, cy - rr * 0.45), (o + rr * 0.9 - k, cy - rr * 0.45)],
                   fill=fill)
        dr.ellipse([o - rr + k, cy - rr + k, o + rr - k, cy + rr - k], fill=fill)
        if highlight:
            dr.ellipse([o - rr - ring * SS, cy - rr - ring * SS, o + rr + ring * SS, cy + rr + ring * SS],
                       outline=sty.HIGHLIGHT, width=ring * SS // 2)
        text_colour = (250, 250, 250)
        if stunned:
            im = im.rotate(90, resample=Image.BICUBIC)
            dr = ImageDraw.Draw(im)
    elif kind == "pile":
        _chest(dr, big, sty.PILE)
        dr.ellipse([o + r * 0.05, o - r * 1.05, o + r * 1.05, o - r * 0.05], fill=sty.BADGE, outline=(30, 20, 10),
                   width=edge)
    elif kind == "more":
        dr.ellipse([o - r, o - r, o + r, o + r], fill=(60, 56, 64), outline=(230, 230, 230), width=edge)
        text_colour = (250, 250, 250)
    else:  # token
        dr.rounded_rectangle([o - r * 0.9, o - r * 0.9, o + r * 0.9, o + r * 0.9], radius=r * 0.3, fill=colour,
                             outline=(16, 16, 16), width=edge)
    im = _down(im, (size, size))
    dr = ImageDraw.Draw(im)
    fs = max(7, min(max(m.font, round(d * 0.46)), m.name_font, round(d * 0.55)))  # the label fits the disc
    c = size // 2
    if kind == "pile":
        cx, cy = c + d * 0.275, c - d * 0.275
        _text_centered(dr, cx, cy, label, m.font, (30, 20, 10))
    elif kind in ("monster", "npc"):
        if stunned:
            _text_centered(dr, c + d * 0.1, c, label, fs, text_colour, 1, (0, 0, 0))
        else:
            _text_centered(dr, c, c + d * 0.1, label, fs, text_colour, 1, (0, 0, 0))
    else:
        _text_centered(dr, c, c, label, fs, text_colour)
    if traitor:
        _corner_badge(im, "T", size, d, m, sty.TRAITOR, (250, 250, 250), top=True)
    if badge:
        _corner_badge(im, badge, size, d, m, sty.BADGE, sty.MONSTER, top=False)
    return im


def _corner_badge(im, text, size, d, m: Metrics, fill, ink, top: bool):
    """A small round badge over a figure's corner, top right (the traitor's
    mark) or bottom right (hit points): on the figure, not beside it, so it
    never reaches into the next figure's room."""
    fs = max(8, min(m.font, round(d * 0.42)))
    w = max(sty.text_size(text, fs)[0] + 6, fs + 4)
    h = fs + 4
    x1 = size - 1
    y0 = 0 if top else size - h
    dr = ImageDraw.Draw(im)
    dr.rounded_rectangle([x1 - w, y0, x1, y0 + h - 1], radius=h // 2, fill=fill, outline=(16, 16, 16),
                         width=max(1, m.wall // 3))
    _text_centered(dr, x1 - w / 2, y0 + h / 2, text, fs, ink)
