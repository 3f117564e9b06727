"""The turn picture (bot/games/babg/render/turn.py) and the marks both pictures share:
the traitor once the table knows, a monster's hit points."""
import copy
import io

import pytest
from PIL import Image

from bot.games.babg.engine.view import view
from bot.games.babg.render import demo, render_image, render_map, render_turn, render_turn_image
from bot.games.babg.render import style as sty
from bot.games.babg.render.layout import figure_positions, name_plate
from bot.games.babg.render.turn import turn_layout


@pytest.fixture(scope="module")
def mid(engine):
    """Every tile laid, six adventurers, tokens: Ann's turn."""
    s = demo.full_map(engine, seed=1, players=6, tokens=30)
    s["haunt"] = None
    s["monsters"] = []
    s["turn"] = {"player": "ann", "number": 9}
    return s


def colours(im) -> set:
    return {c[:3] for _, c in im.getcolors(1 << 22)}


def png_size(data: bytes) -> tuple:
    return Image.open(io.BytesIO(data)).size


def with_haunt(state, kind="traitor", traitors=("bo",), unmasked=False, counters=None):
    s = copy.deepcopy(state)
    s["phase"] = "haunt"
    s["haunt"] = {"number": 1, "title": "A Haunt", "kind": kind, "traitors": list(traitors), "hidden_tokens": None,
                  "unmasked": unmasked, "counters": counters or {}}
    return s


def beside(state, who, where):
    s = copy.deepcopy(state)
    s["players"][who]["tile"] = where
    return s


def test_turn_picture_is_landscape_and_smaller_than_the_full_map(content, mid):
    turn, full = render_turn(content, mid), render_map(content, mid)
    (w, h), (fw, fh) = png_size(turn), png_size(full)
    assert w >= h
    assert w * h < fw * fh / 2 and len(turn) < len(full)


def test_turn_picture_shows_the_players_tile_framed_with_its_name_readable_at_400_px(content, mid):
    v = view(mid)
    t = turn_layout(content, v)
    here = mid["players"]["ann"]["tile"]
    assert t.here == here and here in t.shown
    im = render_turn_image(content, v)
    place = mid["board"][here]
    x0, y0, x1, y1 = t.layout.square_box(place["level"], place["x"], place["y"])
    assert 0 <= x0 < x1 <= im.width and t.top <= y0 < y1 <= im.height
    w = max(2, t.layout.m.gap // 2)
    assert im.getpixel((x0 - w, (y0 + y1) // 2))[:3] == sty.HIGHLIGHT   # the current player's tile frame
    # the tile's name: count the rows of its first line's letters at 400 px wide
    k = 400 / im.width
    small = im.resize((400, round(im.height * k)), Image.LANCZOS).convert("L")
    px0, py0, px1, py1 = name_plate(t.layout.m, content.tiles[here].name)
    box = [round((x0 + px0) * k) + 2, round((y0 + py0) * k), round((x0 + px1) * k) - 2, round((y0 + py1) * k)]
    rows = [y for y in range(box[1], box[3]) if max(small.getpixel((x, y)) for x in range(box[0], box[2])) > 120]
    first = [rows[0]]
    while first[-1] + 1 in rows:
        first.append(first[-1] + 1)
    assert len(first) >= 9   # letters at least 9 px tall (capitals and ascenders; descenders add more)


def test_turn_picture_has_the_locator_of_the_whole_city(content, mid):
    v = view(mid)
    t = turn_layout(content, v)
    im = render_turn_image(content, v)
    x0, y0, x1, y1 = t.locator
    assert x1 <= im.width and y1 < t.top + t.layout.m.title_h + t.layout.m.margin   # clear of the tiles
    inset = im.crop(t.locator)
    seen = colours(inset)
    assert sty.FLOOR["street"] in seen and sty.FLOOR["catacomb"] in seen   # both levels, all tiles
    assert sty.HIGHLIGHT in seen   # the turn's tile


def test_without_a_turn_the_picture_goes_where_most_adventurers_are(content, mid):
    s = copy.deepcopy(mid)
    s["turn"] = None
    catacomb = sorted(t for t, p in s["board"].items() if p["level"] == "catacomb")
    for i, pid in enumerate(s["seats"]):
        s["players"][pid]["tile"] = catacomb[i % 2]
    t = turn_layout(content, view(s))
    assert next(iter(t.layout.panels)) == "catacomb" and set(catacomb[:2]) <= set(t.shown)
    w, h = png_size(render_turn(content, s))
    assert w >= h


def test_a_known_traitor_is_marked_on_both_pictures(content, mid):
    near = beside(mid, "bo", mid["players"]["ann"]["tile"])
    plain, marked = with_haunt(near, traitors=()), with_haunt(near, traitors=("bo",))
    assert render_turn(content, plain) != render_turn(content, marked)
    assert render_map(content, plain) != render_map(content, marked)
    bo = next(f for f, *_ in figure_positions(content, view(marked)) if f.key == "bo")
    assert bo.traitor


def test_a_hidden_traitor_gives_no_mark(content, mid):
    near = beside(mid, "bo", mid["players"]["ann"]["tile"])
    nobody = with_haunt(near, kind="hidden_traitor", traitors=())
    hidden = with_haunt(near, kind="hidden_traitor", traitors=("bo",))
    assert render_turn(content, hidden) == render_turn(content, nobody)
    assert render_map(content, hidden) == render_map(content, nobody)
    # drawn without the view, the picture still keeps the secret
    assert render_image(content, hidden).tobytes() == render_image(content, nobody).tobytes()
    unmasked = with_haunt(near, kind="hidden_traitor", traitors=("bo",), unmasked=True)
    assert render_turn(content, unmasked) != render_turn(content, nobody)


def test_a_monsters_hit_points_show_in_a_badge(content, mid):
    s = with_haunt(mid, traitors=(), counters={"Beholder hit points": 7})
    s["monsters"] = [{"id": "m1", "name": "Beholder", "number": 1, "tile": mid["players"]["ann"]["tile"],
                      "stunned": False, "dead": False}]
    fig = next(f for f, *_ in figure_positions(content, view(s)) if f.kind == "monster")
    assert fig.badge == "7"
    lower = copy.deepcopy(s)
    lower["haunt"]["counters"]["Beholder hit points"] = 3
    assert render_turn(content, s) != render_turn(content, lower)
    im = render_turn_image(content, view(s))
    assert {sty.MONSTER, sty.BADGE} <= colours(im)
    without = copy.deepcopy(s)
    without["haunt"]["counters"] = {}
    assert next(f for f, *_ in figure_positions(content, view(without)) if f.kind == "monster").badge == ""


def test_turn_picture_fits_max_bytes(content, mid):
    data = render_turn(content, mid)
    smaller = render_turn(content, mid, max_bytes=len(data) // 2)
    assert len(smaller) < len(data)
