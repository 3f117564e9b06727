"""Putting the map together: levels, tiles, figures, header and legend."""
import functools

from PIL import Image, ImageDraw

from bot.games.babg.engine import board as bd
from bot.games.babg.engine.view import view

from . import art
from . import palette as pal
from . import style as sty
from bot.render.gif import animate
from bot.render.png import paletted_png
from .layout import (LEVEL_TITLES, Figure, Layout, compute_layout, door_rect, figure_positions, highlighted,
                     hit_points, initials, public_traitors, token_abbrevs)

PALETTE_SAMPLE = 4  # the palette is chosen from every 4th pixel each way: 16x less work, every flat colour still seen
MIN_SCALE = 0.3


def stairs_numbers(content) -> dict:
    """tile id -> number of its stairs pair (1, 2 ...), the same at both ends."""
    return _stairs_numbers(id(content), tuple(sorted((t.id, t.stairs_to) for t in content.tiles.values()
                                                     if t.stairs_to)))


@functools.lru_cache(maxsize=8)
def _stairs_numbers(_cid, pairs):
    out, n = {}, 0
    for a, b in pairs:
        if a in out:
            continue
        n += 1
        out[a] = n
        out.setdefault(b, n)
    return out


def render_image(content, state: dict, highlight=None, scale: float = 1.0, bounds: dict | None = None,
                 caption: str = "") -> Image.Image:
    """The map as an RGB image (see render_map). `bounds` fixes the crop
    (level -> squares, see layout.union_bounds); `caption` goes at the right
    of the header line."""
    return render_paletted(content, state, highlight, scale, bounds, caption).convert("RGB")


def render_paletted(content, state: dict, highlight=None, scale: float = 1.0, bounds: dict | None = None,
                    caption: str = "") -> Image.Image:
    """The map as drawn: a paletted ("P") image in the fixed palette of
    palette.py, ready to be written as PNG with nothing to quantize."""
    lay = compute_layout(state["board"], scale, bounds)
    m = lay.m
    lx, ly, lw = lay.legend
    legend = legend_paletted(_legend_entries(content, state, highlight), lw, m)
    im = pal.new((lay.width, max(lay.map_height, ly + legend.height)), sty.BACKGROUND)
    _header(im, content, state, lay, caption)
    for p in lay.panels.values():
        draw_panel(im, lay, p)
    draw_tiles(im, content, state, lay, highlight)
    im.paste(legend, (lx, ly))
    return im


def ink(im, colour):
    """`colour` as ImageDraw fills `im` with it: a palette index on a paletted image."""
    return pal.index(colour) if im.mode == "P" else colour


def draw_panel(im, lay: Layout, p):
    """A level's dark panel with its title."""
    m = lay.m
    x0, y0, x1, y1 = p.box
    ImageDraw.Draw(im).rectangle([x0, y0, x1 - 1, y1 - 1], fill=ink(im, sty.PANEL))
    art.stamp_text(im, (x0 + m.pad, y0 + m.title_h // 2 + 2), LEVEL_TITLES[p.level], m.title_font, sty.TEXT, "lm")


def draw_tiles(im, content, state: dict, lay: Layout, highlight=None, full_board: dict | None = None):
    """Every tile of state["board"] with what stands on it, where `lay` puts
    it. `full_board`: the whole board, when state["board"] is only part of it
    (the turn picture), so doorways at the edge still join or show blocked.
    On a paletted `im` the faces come in the palette, and figures are
    blended onto it (palette.blend)."""
    d = ImageDraw.Draw(im)
    m = lay.m
    mode = im.mode
    board = state["board"]
    whole = full_board if full_board is not None else board
    stairs = stairs_numbers(content)
    for tid, place in board.items():
        tile = content.tiles[tid]
        bx, by, _, _ = lay.square_box(place["level"], place["x"], place["y"])
        face = art.tile_back(place["level"], m.tile, m.wall, mode) if place.get("face_down") else \
            art.tile_face(tile, place["rot"], m, stairs.get(tid), mode)
        im.paste(face, (bx, by))
    _joins(im, d, content, board, whole, bd.grid(whole), lay)
    framed = set()
    for key in highlighted(state, highlight):   # tiles, and the tiles of highlighted players
        tid = state["players"][key].get("tile") if key in state["players"] else key
        if tid in board and tid not in framed:
            framed.add(tid)
            _frame(d, lay, board[tid], ink(im, sty.HIGHLIGHT))
    for f, _tid, cx, cy, dia in figure_positions(content, state, lay.m.scale, highlight, layout=lay):
        spr = art.sprite(f.kind, f.label, f.colour, dia, f.highlight, f.stunned, m, f.traitor, f.badge)
        if mode == "P":
            pal.blend(im, (cx - spr.width // 2, cy - spr.height // 2), spr)
        else:
            im.paste(spr, (cx - spr.width // 2, cy - spr.height // 2), spr)


def _frame(d, lay: Layout, place, colour):
    m = lay.m
    x0, y0, x1, y1 = lay.square_box(place["level"], place["x"], place["y"])
    w = max(2, m.gap // 2)
    d.rectangle([x0 - w - 1, y0 - w - 1, x1 + w, y1 + w], outline=colour, width=w)


def _joins(im, d, content, board, whole, squares, lay: Layout):
    """Connected doorways of the tiles of `board`: the gutter between them in
    the doorway's colour. False features (a doorway facing a wall): a blocked
    mark. `whole` and `squares`: the whole board, for the tiles beyond."""
    m = lay.m
    door = {kind: ink(im, rgb) for kind, rgb in sty.DOOR.items()}
    blocked = ink(im, sty.BLOCKED)
    for tid, place in board.items():
        doors = bd.placed_doorways(content, whole, tid)
        bx, by, _, _ = lay.square_box(place["level"], place["x"], place["y"])
        for side, kind in doors.items():
            other = squares.get(bd.neighbour_square(place, side))
            if other is None:
                continue
            x0, y0, x1, y1 = door_rect(m, side)
            if bd.OPPOSITE[side] in bd.placed_doorways(content, whole, other):
                if side == "east" and other in board:
                    d.rectangle([bx + m.tile, by + y0, bx + m.pitch - 1, by + y1 - 1], fill=door[kind])
                elif side == "south" and other in board:
                    d.rectangle([bx + x0, by + m.tile, bx + x1 - 1, by + m.pitch - 1], fill=door[kind])
                continue
            # blocked: dark fill, doorway-coloured ends, so both what was printed and the wall show
            d.rectangle([bx + x0, by + y0, bx + x1 - 1, by + y1 - 1], fill=door[kind])
            if side in ("north", "south"):
                k = (x1 - x0) // 5
                d.rectangle([bx + x0 + k, by + y0, bx + x1 - k - 1, by + y1 - 1], fill=blocked)
            else:
                k = (y1 - y0) // 5
                d.rectangle([bx + x0, by + y0 + k, bx + x1 - 1, by + y1 - k - 1], fill=blocked)


def _header(im, content, state, lay: Layout, caption: str = ""):
    m = lay.m
    room = lay.width - 2 * m.pad
    if caption:
        art.stamp_text(im, (lay.width - m.pad, m.header_h // 2), caption, m.title_font - 2, sty.TEXT, "rm")
        room -= sty.text_size(caption, m.title_font - 2)[0] + m.pad
    text = "   |   ".join(header_parts(content, state)) or "Betrayal at Baldur's Gate"
    size = fitted_size(text, m.title_font - 2, m.font, room)
    art.stamp_text(im, (m.pad, m.header_h // 2), text, size, sty.HIGHLIGHT if state.get("turn") else sty.TEXT,
                   "lm")


def header_parts(content, state) -> list[str]:
    """Whose turn it is; the haunt, or that the game waits to start."""
    turn = state.get("turn")
    parts = []
    if turn and turn.get("player") in state["players"]:
        pid = turn["player"]
        p = state["players"][pid]
        adv = content.adventurers.get(p["adventurer"])
        parts.append(f"Turn {turn.get('number', '?')}: {p['name']}" + (f" ({adv.name})" if adv else "") + " to play")
    haunt = state.get("haunt")
    if haunt:
        parts.append(f"Haunt {haunt.get('number', '')}: {haunt.get('title', '')}")
    elif state.get("phase") == "lobby":
        parts.append("Waiting to start")
    return parts


def fitted_size(text: str, size: int, smallest: int, room: int) -> int:
    """The largest font size from `size` down to `smallest` that fits `room`."""
    while size > smallest and sty.text_size(text, size)[0] > room:
        size -= 1
    return size


# --- legend ------------------------------------------------------------------------

def _legend_entries(content, state, highlight):
    """(kind, what, text) for the legend, hashable for the cache."""
    entries = _player_entries(content, state, highlight, state["seats"])
    for kind in ("building", "street", "catacomb", "passage"):
        entries.append(("door", kind, {"passage": "open passage"}.get(kind, f"{kind} door")))
    entries.append(("blocked", "", "blocked (wall beyond)"))
    for sym in ("event", "item", "omen"):
        entries.append(("icon", sym, sym))
    stairs = stairs_numbers(content)
    done = set()
    for tid, n in sorted(stairs.items(), key=lambda kv: kv[1]):
        if n in done:
            continue
        done.add(n)
        other = content.tiles[tid].stairs_to
        if tid in state["board"] or other in state["board"]:
            names = [content.tiles[t].name + ("" if t in state["board"] else " (not found)") for t in (tid, other)]
            entries.append(("stairs", str(n), f"stairs: {names[0]} / {names[1]}"))
    if any(content.tiles[t].sewer_grate for t in state["board"]):
        entries.append(("icon", "grate", "sewer grate"))
    if "catacomb_landing" in state["board"]:
        entries.append(("icon", "landing", "sewer grates drop here"))
    if any(content.tiles[t].barrier for t in state["board"]):
        entries.append(("barrier", "", "barrier: roll to cross"))
    if any(state.get("piles", {}).get(t) for t in state["board"]):
        entries.append(("pile", "", "item pile (cards)"))
    if any(p.get("face_down") for p in state["board"].values()):
        entries.append(("face_down", "", "tile face down (the haunt turned it)"))
    entries += _token_entries(state) + _monster_entries(state)
    return tuple(entries)


def figure_entries(content, state, highlight) -> tuple:
    """The legend of only what stands on state["board"]: the adventurers
    there, the item pile, tokens, monsters (the turn picture's legend)."""
    here = [pid for pid in state["seats"] if state["players"][pid].get("tile") in state["board"]
            and state["players"][pid].get("alive", True)]
    entries = _player_entries(content, state, highlight, here)
    if any(state.get("piles", {}).get(t) for t in state["board"]):
        entries.append(("pile", "", "item pile (cards)"))
    return tuple(entries + _token_entries(state) + _monster_entries(state))


def _player_entries(content, state, highlight, pids) -> list:
    marked = highlighted(state, highlight)
    ini = initials(state)
    traitors = public_traitors(state)
    out = []
    for pid in pids:
        p = state["players"][pid]
        adv = content.adventurers.get(p["adventurer"])
        colour = sty.adventurer_rgb(adv.colour if adv else "")
        name = p["name"] + (f" ({adv.name})" if adv else "") + (" - traitor" if pid in traitors else "") + \
            ("" if p.get("alive", True) else " - dead")
        out.append(("adventurer", (ini[pid], colour, pid in marked, pid in traitors), name))
    return out


def _token_entries(state) -> list:
    """Tokens on state["board"], each named once; colours and letters come
    from every token in the game, so they match the full map's."""
    tokens = [t["name"] for t in state.get("tokens") or [] if t.get("tile") in state["board"]]
    abbrev = token_abbrevs(t["name"] for t in state.get("tokens") or [])
    return [("token", (abbrev[name], sty.TOKEN_COLOURS[i % len(sty.TOKEN_COLOURS)]), name)
            for i, name in enumerate(sorted(abbrev)) if name in tokens]


def _monster_entries(state) -> list:
    out = []
    for kind in ("monster", "npc"):
        for mon in state.get(kind + "s", None) or []:
            if mon.get("tile") in state["board"]:
                hp = hit_points(state, mon)
                notes = [f"{hp} hit points" if hp is not None else "", "stunned" if mon.get("stunned") else ""]
                notes = ", ".join(n for n in notes if n)
                out.append((kind, (str(mon.get("number", "")), bool(mon.get("stunned")), "" if hp is None else str(hp)),
                            str(mon.get("name", kind)) + (f" ({notes})" if notes else "")))
    return out


@functools.lru_cache(maxsize=64)
def legend_paletted(entries, width, m):
    """legend_image in the palette (palette.py)."""
    return pal.to_palette(legend_image(entries, width, m))


@functools.lru_cache(maxsize=64)
def legend_image(entries, width, m):
    """Entries flow left to right in rows; players get a row of their own."""
    row_h, sw = m.legend_row, m.legend_row - 8
    rows, cur, x = [], [], m.pad
    for i, e in enumerate(entries):
        w = _swatch_width(e[0], sw, m) + sty.text_size(e[2], m.font)[0] + 2 * m.pad
        new_group = i > 0 and (e[0] == "adventurer") != (entries[i - 1][0] == "adventurer")
        if cur and (x + w > width - m.pad or new_group):
            rows.append(cur)
            cur, x = [], m.pad
        cur.append((x, e))
        x += w
    if cur:
        rows.append(cur)
    im = Image.new("RGB", (width, len(rows) * row_h + 2 * m.pad), sty.BACKGROUND)
    d = ImageDraw.Draw(im)
    for r, row in enumerate(rows):
        cy = m.pad + r * row_h + row_h // 2
        for x, (kind, what, text) in row:
            _swatch(im, d, kind, what, x, cy, sw, m)
            # from the cached stamp, not d.text: the same labels (names, doorways, icons) come back turn after
            # turn while the legend itself changes (whose turn it is), and laying out text is most of its cost.
            # Pixel for pixel what d.text draws (tests/test_render_legend_cache.py).
            art.stamp_text(im, (x + _swatch_width(kind, sw, m), cy), text, m.font, sty.TEXT, "lm")
    return im


def _swatch_width(kind, sw, m):
    """Room a legend entry's picture takes, with the space after it."""
    if kind == "stairs":
        return sw + m.font + 14
    if kind == "adventurer":
        return sw + max(3, m.wall) + 8
    return sw + 8


def _swatch(im, d, kind, what, x, cy, sw, m):
    if kind == "adventurer":
        ini, colour, hl, traitor = what
        spr = art.sprite("adventurer", ini, colour, sw, hl, False, m, traitor)
    elif kind in ("monster", "npc"):
        spr = art.sprite(kind, what[0], (), sw, False, what[1], m, badge=what[2])
    elif kind == "token":
        spr = art.sprite("token", what[0], what[1], sw, False, False, m)
    elif kind == "pile":
        spr = art.sprite("pile", "", (), sw, False, False, m)
    elif kind in ("icon", "stairs"):
        spr = art.icon(what if kind == "icon" else "stairs", sw)
    else:
        spr = None
    if spr is not None:
        sx = x + sw // 2 - spr.width // 2 + (max(3, m.wall) if kind == "adventurer" else 0)
        im.paste(spr, (sx, cy - spr.height // 2), spr)
        if kind == "stairs":
            art.number_badge(im, what, x + sw + 2, cy, m)
        return
    if kind == "door":
        d.rectangle([x, cy - m.door_depth // 2, x + sw, cy + m.door_depth // 2], fill=sty.DOOR[what],
                    outline=sty.WALL)
    elif kind == "blocked":
        d.rectangle([x, cy - m.door_depth // 2, x + sw, cy + m.door_depth // 2], fill=sty.DOOR["building"])
        d.rectangle([x + sw // 5, cy - m.door_depth // 2, x + sw - sw // 5, cy + m.door_depth // 2],
                    fill=sty.BLOCKED)
    elif kind == "barrier":
        d.line([(x, cy), (x + sw, cy)], fill=sty.BARRIER, width=max(3, m.wall))
    elif kind == "face_down":
        im.paste(art.tile_back("city", sw, max(1, m.wall // 2)), (x, cy - sw // 2))


# --- output -------------------------------------------------------------------------

def encode_png(im: Image.Image, compress_level: int | None = None) -> bytes:
    """PNG bytes with a palette of up to 256 colours. A map is a few dozen
    flat colours and their antialiased edges, so nothing visible changes,
    while encoding takes a fraction of the time of RGB and the file is
    less than half the size (bench/render.py). A paletted `im` is written
    as it is; an RGB one gets a palette chosen from its own colours (the
    maps themselves are drawn paletted, see render_paletted)."""
    if im.mode == "P":
        return paletted_png(im, compress_level)
    sample = im.resize((max(1, im.width // PALETTE_SAMPLE), max(1, im.height // PALETTE_SAMPLE)),
                       Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return paletted_png(im.quantize(palette=palette, dither=Image.Dither.NONE), compress_level)


def render_map(content, state: dict, highlight=None, scale: float = 1.0, max_bytes: int | None = None) -> bytes:
    """The board as PNG bytes: both levels, tiles, doorways, figures, the
    current player highlighted, a legend. `highlight`: a player or tile id
    (or several) to highlight instead of the current player. With
    `max_bytes`, a picture over that size is drawn again smaller (see
    fit_png) until it fits or reaches MIN_SCALE. It draws the channel's
    view of the game (bot.games.babg.engine.view), so it cannot show a secret."""
    state = view(state)
    data = paletted_png(render_paletted(content, state, highlight, scale))
    if max_bytes is None or len(data) <= max_bytes:
        return data
    return fit_png(lambda s: paletted_png(render_paletted(content, state, highlight, s)), scale, max_bytes, data)


def fit_png(render, scale: float, max_bytes: int, data: bytes | None = None) -> bytes:
    """Call render(scale) with smaller scales until its bytes fit max_bytes
    (PNG size grows about with the area, so each try aims by the square root)."""
    data = data if data is not None else render(scale)
    while len(data) > max_bytes and scale > MIN_SCALE:
        scale = max(MIN_SCALE, round(scale * min(0.9, (max_bytes / len(data)) ** 0.5 * 0.95), 3))
        data = render(scale)
    return data


def render_replay_gif(content, states: list, scale: float = 0.6, frame_ms: int = 900, highlight=None) -> bytes:
    """An animated GIF, one frame per state, all frames the size of the
    largest map (the crop holds every board shown)."""
    if not states:
        raise ValueError("render_replay_gif needs at least one state")
    from .layout import union_bounds
    bounds = union_bounds(s["board"] for s in states)
    n = len(states)
    frames = [render_paletted(content, s, highlight, scale, bounds, caption=f"{i + 1}/{n}")
              for i, s in enumerate(states)]
    return animate(frames, frame_ms, pal.index(sty.BACKGROUND))  # legends may differ in height


__all__ = ["render_map", "render_image", "render_paletted", "render_replay_gif", "encode_png", "fit_png",
           "Figure"]
