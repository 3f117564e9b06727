"""Castle Ravenloft's dungeon pictures (bot/games/ravenloft/render.py), drawn from seeded games the
built-in heroes play: PNG bytes, the turn picture's shape and text size for a phone, the byte limit,
the same bytes for the same state, the state left alone, nothing a view hides, and every hero drawn
where the layout says its square is."""
import copy
import io

import pytest
from PIL import Image

from bot.games.ravenloft import render as R
from bot.games.ravenloft.autoplay import choose_action
from bot.games.ravenloft.engine import geometry
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import squares_of_figures
from bot.games.ravenloft.engine.view import view
from bot.games.ravenloft.system import SYSTEM
from bot.kit.replay import turn_states

PNG = b"\x89PNG\r\n\x1a\n"
GAMES = [(3, 2, ["arjhan", "kat", "thorgrim"]), (0, 3, ["immeril", "allisa"]),
         (0, "the_phylactery_hunt", ["kat", "arjhan"])]


@pytest.fixture(scope="module")
def rl():
    return load_content()


def play(content, seed, adv, team):
    e = Engine(content)
    s = e.new_game(seed, {"adventure": adv})
    for i, h in enumerate(team):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    states = [s]
    while s["phase"] != "over" and len(states) < 4000:
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        s, _ = e.apply(s, choose_action(content, s, pid))
        states.append(s)
    return states


@pytest.fixture(scope="module")
def games(rl):
    return [play(rl, *g) for g in GAMES]


@pytest.fixture(scope="module")
def states(games):
    """Raw states (decks as lists): the start, a quarter, the middle and the end of each game."""
    out = []
    for st in games:
        out += [st[1], st[len(st) // 4], st[len(st) // 2], st[-1]]
    return out


def decode(data: bytes) -> Image.Image:
    assert data[:8] == PNG
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def test_both_pictures_are_pngs_and_the_turn_picture_fits_a_phone(rl, states):
    for s in states:
        v = view(s)
        turn, full = decode(R.render_turn(rl, v)), decode(R.render_map(rl, v))
        assert turn.mode == "P" and full.mode == "P"
        w, h = turn.size
        assert h <= R.MAX_RATIO * w and 700 <= w <= 900
        lay = R.layout_map(rl, v)
        for k in v["tiles"]["placed"]:       # the map holds every explored tile
            tx, ty = geometry.parse(k)
            assert R._inside(lay.window, (4 * tx, 4 * ty)) and R._inside(lay.window, (4 * tx + 3, 4 * ty + 3))


def test_the_smallest_text_is_13_px_at_400_px_wide(rl, states):
    for s in states:
        v = view(s)
        lay = R.layout_turn(rl, v)
        assert min(lay.text_sizes) * R.SHOWN_WIDTH / lay.size[0] >= R.MIN_TEXT
        assert lay.font == min(lay.text_sizes)
    # measured: the top label of the first column, shown 400 px wide, is at least 9 px tall
    v = view(states[2])
    lay = R.layout_turn(rl, v)
    im = R.render_turn_paletted(rl, v).convert("L")
    k = R.SHOWN_WIDTH / im.width
    small = im.resize((R.SHOWN_WIDTH, round(im.height * k)), Image.LANCZOS)
    x0, y0, x1, _ = R.square_box(lay, (lay.window[0], lay.window[3]))
    top = lay.header_h
    box = (round(x0 * k), round(top * k), round(x1 * k), round((top + lay.label_h) * k))
    rows = [y for y in range(box[1], box[3]) if max(small.getpixel((x, y)) for x in range(box[0], box[2])) > 120]
    assert rows and rows[-1] - rows[0] + 1 >= 9


def test_a_byte_limit_draws_smaller_until_it_fits(rl, states):
    v = view(states[2])
    for fn in (R.render_turn, R.render_map):
        full = fn(rl, v)
        limit = len(full) // 2
        small = fn(rl, v, max_bytes=limit)
        assert len(small) <= limit and decode(small).width < decode(full).width
        assert fn(rl, v, max_bytes=len(full)) == full
    w, h = decode(R.render_turn(rl, v, max_bytes=len(R.render_turn(rl, v)) // 2)).size
    assert h <= R.MAX_RATIO * w


def test_the_same_state_gives_the_same_bytes_and_is_left_untouched(rl, states):
    for s in states[1::2]:
        before = copy.deepcopy(s)
        v = view(s)
        vb = copy.deepcopy(v)
        a, b = R.render_turn(rl, v), R.render_map(rl, v)
        assert R.render_turn(rl, copy.deepcopy(v)) == a and R.render_map(rl, copy.deepcopy(v)) == b
        R.render_turn(rl, s)
        R.render_map(rl, s)
        assert s == before and v == vb


def test_nothing_a_view_hides_is_drawn(rl, states):
    s = states[2]
    assert R.render_turn(rl, s) == R.render_turn(rl, view(s)) and R.render_map(rl, s) == R.render_map(rl, view(s))
    t = copy.deepcopy(s)
    for d in t["decks"].values():
        d["deck"] = list(reversed(d["deck"]))
    t["tiles"]["stack"] = list(reversed(t["tiles"]["stack"]))
    assert R.render_turn(rl, t) == R.render_turn(rl, s) and R.render_map(rl, t) == R.render_map(rl, s)


def _disc_colour(im, lay, square):
    x0, y0, x1, y1 = R.square_box(lay, square)
    r = round(lay.sq * 0.34)
    cx, cy = (x0 + x1) // 2, y0 + round(lay.sq * 0.36)
    return im.getpixel((cx - round(0.7 * r), cy))[:3]


def test_a_hero_is_drawn_on_the_square_the_layout_names(rl, states):
    seen = 0
    for s in states:
        v = view(s)
        for make_layout, make_image in ((R.layout_turn, R.render_turn_paletted), (R.layout_map, R.render_map_paletted)):
            lay = make_layout(rl, v)
            im = make_image(rl, v).convert("RGB")
            for f in lay.figures:
                if f.kind != "hero" or not R._inside(lay.window, f.squares[0]):
                    continue
                want = f.colour if f.hp > 0 else R.DOWN
                assert _disc_colour(im, lay, f.squares[0]) == want, (f, make_layout.__name__)
                seen += 1
    assert seen >= len(states)
    # moved by hand to another floor square of its tile: drawn there, and not where it stood
    s = copy.deepcopy(view(states[2]))
    pid = s["turn"]["player"]
    p = s["players"][pid]
    taken = {q["square"] for q in s["players"].values() if q.get("square")} | set(squares_of_figures(s))
    here = geometry.parse(p["square"])
    free = [q for q in geometry.floor_squares(s, geometry.tile_at_square(p["square"]))
            if geometry.name(*q) not in taken]
    p["square"] = geometry.name(*free[0])
    lay = R.layout_turn(rl, s)
    im = R.render_turn_paletted(rl, s).convert("RGB")
    hero = next(f for f in lay.figures if f.key == pid)
    assert _disc_colour(im, lay, free[0]) == (hero.colour if hero.hp > 0 else R.DOWN)
    assert _disc_colour(im, lay, here) != _disc_colour(im, lay, free[0])


def test_the_turn_picture_is_round_the_active_hero(rl, states):
    for s in states:
        v = view(s)
        lay = R.layout_turn(rl, v)
        assert R._inside(lay.window, R.focus(v))
        pid = (v.get("turn") or {}).get("player")
        if pid and v["players"][pid].get("square") and not v["players"][pid].get("escaped"):
            assert R._inside(lay.window, geometry.parse(v["players"][pid]["square"]))
            assert any(f.active for f in lay.figures)


def test_conditions_markers_and_objects_are_drawn(rl, states):
    s = copy.deepcopy(view(states[2]))
    pid = s["turn"]["player"]
    plain = R.render_turn(rl, s)
    s["players"][pid]["conditions"] = {"slowed": True, "immobilized": False}
    slowed = R.render_turn(rl, s)
    assert slowed != plain
    lay = R.layout_turn(rl, s)
    assert any("Slowed" in e[0] for e in lay.legend)
    im = R.render_turn_paletted(rl, s).convert("RGB")
    colours = {c for _, c in im.getcolors(1 << 22)}
    assert R.SLOWED in colours
    tile = geometry.tile_at_square(s["players"][pid]["square"])
    s["markers"].append({"id": "k900", "kind": "trap", "card": None, "tile": tile, "owner": pid})
    assert R.MARKER["trap"] in {c for _, c in R.render_turn_paletted(rl, s).convert("RGB").getcolors(1 << 22)}


def test_a_game_not_begun_still_draws(rl):
    e = Engine(rl)
    s = e.new_game(1, {"adventure": 1})
    s, _ = e.apply(s, {"type": "join", "player": "p0", "name": "P0", "hero": "kat"})
    for fn in (R.render_turn, R.render_map):
        decode(fn(rl, s))


def test_the_replay_is_the_adventure_turn_by_turn_from_its_log(rl):
    """The end's replay picture: a GIF with a frame at the start of each turn (thinned to 60), drawn from the
    seed and the log alone, the same for the same log, and every frame a view: the last one shows the end."""
    e = Engine(rl)
    s = e.new_game(3, {"adventure": 2})
    log = [{"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h}
           for i, h in enumerate(["arjhan", "kat", "thorgrim"])] + [{"type": "start", "player": "p0"}]
    for a in log:
        s, _ = e.apply(s, a)
    while s["phase"] != "over":
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        a = choose_action(rl, s, pid)
        s, _ = e.apply(s, a)
        log.append(a)
    frames = turn_states(SYSTEM, 3, log, {"adventure": 2})
    assert frames[-1] == s and all(f["phase"] != "lobby" for f in frames)
    assert len({f["turn"]["number"] for f in frames[:-1]}) == len(frames) - 1  # one frame a turn
    data = SYSTEM.render_replay(3, log, {"adventure": 2})
    assert data[:6] == b"GIF89a" and data == SYSTEM.render_replay(3, log, {"adventure": 2})
    im = Image.open(io.BytesIO(data))
    assert im.n_frames == len(frames) and im.width <= 1200
