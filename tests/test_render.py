"""The map picture: pixels probed where the layout says things are."""
import copy
import io

import pytest
from PIL import Image

from bot.games.babg.engine import board as bd
from bot.games.babg.engine.content import Adventurer, Content, Tile, Track
from bot.games.babg.render import (compute_layout, door_probe, figure_positions, render_image, render_map, render_replay_gif,
                        tile_box, token_position)
from bot.games.babg.render import demo
from bot.games.babg.render import style as sty
from bot.games.babg.render.layout import grid_slots, token_areas

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def bare_state(board: dict, players=()) -> dict:
    """Just what the renderer reads: a board and, optionally, players
    (player id, name, adventurer id, tile)."""
    s = {"seats": [], "players": {}, "board": board, "tokens": [], "piles": {}, "turn": None, "phase": "exploring",
         "haunt": None}
    for pid, name, adv, tile in players:
        s["seats"].append(pid)
        s["players"][pid] = {"name": name, "adventurer": adv, "tile": tile, "half": None, "alive": True}
    if s["seats"]:
        s["turn"] = {"player": s["seats"][0], "number": 1}
    return s


def near(rgb, want, tol=8) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(rgb[:3], want[:3]))


def px(im, xy):
    return im.getpixel(xy)[:3]


@pytest.fixture(scope="module")
def full(engine):
    return demo.full_map(engine, seed=1, players=6, tokens=30)


@pytest.fixture(scope="module")
def full_png(content, full):
    return render_map(content, full)


# --- doorways -------------------------------------------------------------------

def test_every_tile_in_every_rotation_has_its_doorways_on_the_right_sides(content):
    for tid, tile in content.tiles.items():
        for rot in range(4):
            state = bare_state({tid: {"level": tile.level, "x": 0, "y": 0, "rot": rot}})
            im = render_image(content, state)
            doors = bd.doorways(tile, rot)
            for side in bd.SIDES:
                got = px(im, door_probe(content, state, tid, side))
                want = sty.DOOR[doors[side]] if side in doors else sty.WALL
                assert got == want, f"{tid} rot {rot} {side}: {got} != {want} (doorways {doors})"


def test_a_turned_tile_shows_its_one_doorway_where_it_now_faces(content):
    # Spy's Roost: one building doorway printed north; a quarter turn clockwise puts it east.
    state = bare_state({"spys_roost": {"level": "city", "x": 4, "y": 2, "rot": 1}})
    im = render_image(content, state)
    colours = {side: px(im, door_probe(content, state, "spys_roost", side)) for side in bd.SIDES}
    assert colours == {"north": sty.WALL, "east": sty.DOOR["building"], "south": sty.WALL, "west": sty.WALL}


def test_a_doorway_facing_a_wall_is_drawn_blocked_and_joined_doorways_are_bridged(content):
    # Smithy (north street, south building) with the Storehouse south of it: the
    # Storehouse's north building doorway joins; put a wall-only side against the
    # Smithy's north doorway: Trading Post (only south) turned so its wall faces it.
    board = {"smithy": {"level": "city", "x": 0, "y": 0, "rot": 0},
             "storehouse": {"level": "city", "x": 0, "y": 1, "rot": 0},
             "trading_post": {"level": "city", "x": 0, "y": -1, "rot": 1}}
    state = bare_state(board)
    assert bd.false_features(content, board, "smithy") == ["north"]
    im = render_image(content, state)
    assert px(im, door_probe(content, state, "smithy", "north")) == sty.BLOCKED
    assert px(im, door_probe(content, state, "trading_post", "south")) == sty.WALL
    assert px(im, door_probe(content, state, "trading_post", "west")) == sty.DOOR["street"]
    assert px(im, door_probe(content, state, "smithy", "south")) == sty.DOOR["building"]
    # the gutter between Smithy and Storehouse is painted in the doorway's colour
    x0, _, x1, y1 = tile_box(content, state, "smithy")
    lay = compute_layout(board)
    assert px(im, ((x0 + x1) // 2, y1 + lay.m.gap // 2)) == sty.DOOR["building"]


def test_start_rooms_are_joined_by_passages(content, game):
    im = render_image(content, game.state)
    for tid, side in (("kitchen", "east"), ("inner_chamber", "west"), ("catacomb_landing", "west")):
        assert px(im, door_probe(content, game.state, tid, side)) == sty.DOOR["passage"]


# --- figures --------------------------------------------------------------------------

def _token_colour(content, state, pid):
    return sty.adventurer_rgb(content.adventurers[state["players"][pid]["adventurer"]].colour)


def test_adventurer_tokens_stand_on_the_tiles_the_state_says(content, full):
    im = render_image(content, full)
    for pid, p in full["players"].items():
        cx, cy, r = token_position(content, full, pid)
        x0, y0, x1, y1 = tile_box(content, full, p["tile"])
        assert x0 < cx - r and cx + r < x1 and y0 < cy - r and cy + r < y1, pid
        # above the initials, inside the rim: the figure's colour
        assert near(px(im, (cx, cy - int(r * 0.7))), _token_colour(content, full, pid)), pid


def test_a_token_follows_its_player(content, game):
    state = copy.deepcopy(game.state)
    state["board"]["smithy"] = {"level": "city", "x": 2, "y": -1, "rot": 0}
    colour = _token_colour(content, state, "bo")
    cx, cy, r = token_position(content, state, "bo")
    assert near(px(render_image(content, state), (cx, cy - int(r * 0.7))), colour)
    state["players"]["bo"]["tile"] = "smithy"
    im = render_image(content, state)
    nx, ny, nr = token_position(content, state, "bo")
    x0, y0, x1, y1 = tile_box(content, state, "smithy")
    assert x0 < nx < x1 and y0 < ny < y1
    assert near(px(im, (nx, ny - int(nr * 0.7))), colour)
    on_tavern = [f.key for f, tid, *_ in figure_positions(content, state) if tid == "elfsong_tavern"]
    assert "bo" not in on_tavern and "ann" in on_tavern


def test_the_current_player_is_ringed_and_their_tile_framed(content, game):
    state = game.state
    im = render_image(content, state)
    cur = state["turn"]["player"]
    cx, cy, r = token_position(content, state, cur)
    lay = compute_layout(state["board"])
    ring = max(3, lay.m.wall)
    assert near(px(im, (cx, cy - r - ring // 2 - 1)), sty.HIGHLIGHT, 40)
    x0, y0, x1, y1 = tile_box(content, state, state["players"][cur]["tile"])
    assert px(im, (x0 - 3, (y0 + y1) // 2 + 20)) == sty.HIGHLIGHT
    x0, y0, x1, y1 = tile_box(content, state, "kitchen")
    assert px(im, (x0 - 3, (y0 + y1) // 2 + 20)) != sty.HIGHLIGHT
    # highlight another player instead
    other = state["seats"][1]
    im2 = render_image(content, state, highlight=other)
    ox, oy, orr = token_position(content, state, other)
    assert near(px(im2, (ox, oy - orr - ring // 2 - 1)), sty.HIGHLIGHT, 40)
    assert not near(px(im2, (cx, cy - r - ring // 2 - 1)), sty.HIGHLIGHT, 40)
    # or a tile
    im3 = render_image(content, state, highlight="kitchen")
    assert px(im3, (x0 - 3, (y0 + y1) // 2 + 20)) == sty.HIGHLIGHT


def test_a_crowded_tile_stays_legible_and_keeps_its_doorways_clear(content, game):
    state = copy.deepcopy(game.state)
    state["tokens"] = [{"name": n, "tile": "elfsong_tavern"} for n in ("Stench", "Web", "Fire", "Smoke") * 2]
    state["piles"] = {"elfsong_tavern": ["x", "y"]}
    state["monsters"] = [{"name": "Beholder", "tile": "elfsong_tavern", "number": 1, "stunned": False}]
    placed = [f for f in figure_positions(content, state) if f[1] == "elfsong_tavern"]
    assert len(placed) >= 10
    x0, y0, x1, y1 = tile_box(content, state, "elfsong_tavern")
    m = compute_layout(state["board"]).m
    for f, _tid, cx, cy, d in placed:
        assert d >= m.min_token
        assert x0 + m.door_depth <= cx - d // 2 and cx + d // 2 <= x1 - m.door_depth
        assert cy + d // 2 <= y1 - m.door_depth
    centres = [(cx, cy) for _f, _t, cx, cy, _d in placed]
    for i, a in enumerate(centres):
        for b in centres[i + 1:]:
            assert (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= (m.min_token * 0.8) ** 2
    im = render_image(content, state)
    for side, kind in bd.placed_doorways(content, state["board"], "elfsong_tavern").items():
        assert px(im, door_probe(content, state, "elfsong_tavern", side)) == sty.DOOR[kind]


def test_too_many_figures_end_in_a_count(content, game):
    state = copy.deepcopy(game.state)
    state["tokens"] = [{"name": f"T{i}", "tile": "kitchen"} for i in range(60)]
    placed = [f for f in figure_positions(content, state) if f[1] == "kitchen"]
    assert placed[-1][0].kind == "more" and placed[-1][0].label == f"+{60 - len(placed) + 1}"


def test_grid_slots_avoid_rectangles():
    slots, d, fits = grid_slots(4, (0, 0, 100, 100), 40, 20, avoid=[(0, 60, 40, 100)])
    assert fits == 4 and all(not (x - d / 2 < 40 and y + d / 2 > 60) for x, y in slots)


def test_monsters_and_npcs_are_drawn_as_numbered_teardrops(content, game):
    state = copy.deepcopy(game.state)
    state["monsters"] = [{"name": "Glurk", "tile": "kitchen", "number": 2, "stunned": False}]
    state["npcs"] = [{"name": "Guard", "tile": "inner_chamber", "number": 1, "stunned": True}]
    im = render_image(content, state)
    found = {f.kind: (cx, cy, d) for f, _t, cx, cy, d in figure_positions(content, state)}
    cx, cy, d = found["monster"]
    assert near(px(im, (cx - d // 4, cy + d // 5)), sty.MONSTER, 12)
    assert "npc" in found


def test_barrier_tiles_put_each_player_on_their_half(content, game):
    state = copy.deepcopy(game.state)
    state["board"]["assassins_run"] = {"level": "catacomb", "x": 1, "y": 1, "rot": 0}
    state["players"]["ann"].update(tile="assassins_run", half="north")
    state["players"]["bo"].update(tile="assassins_run", half="south")
    _, ay, _ = token_position(content, state, "ann")
    _, by, _ = token_position(content, state, "bo")
    y0 = tile_box(content, state, "assassins_run")[1]
    m = compute_layout(state["board"]).m
    assert ay < y0 + m.tile // 2 < by
    state["board"]["assassins_run"]["rot"] = 1       # printed north now faces east
    ax, _, _ = token_position(content, state, "ann")
    bx, _, _ = token_position(content, state, "bo")
    assert bx < tile_box(content, state, "assassins_run")[0] + m.tile // 2 < ax
    areas = token_areas(m, content.tiles["assassins_run"], 1)
    assert [a[0] for a in areas] == ["north", "south"]


# --- the picture as a whole ------------------------------------------------------------

def test_a_full_map_is_a_png_under_one_megabyte(content, full, full_png):
    assert full_png.startswith(PNG_MAGIC)
    assert len(full_png) < 1_000_000
    im = Image.open(io.BytesIO(full_png))
    im.load()
    lay = compute_layout(full["board"])
    assert im.width == lay.width and im.height >= lay.map_height
    assert len(full["board"]) == len(content.tiles)


def test_both_levels_are_named_and_cropped_to_what_was_explored(content, game, full):
    small = compute_layout(game.state["board"])
    big = compute_layout(full["board"])
    assert set(small.panels) == {"city", "catacomb"}
    assert small.width < big.width and small.map_height < big.map_height
    # three start rooms wide: the crop holds them and a margin, no more
    m = small.m
    x0, _, _, _ = tile_box(content, game.state, "kitchen")
    _, _, x1, _ = tile_box(content, game.state, "elfsong_tavern")
    assert x1 - x0 == 3 * m.tile + 2 * m.gap


def test_text_is_at_least_14_px_high_at_scale_1():
    m = sty.metrics(1.0)
    for size in (m.font, m.name_font, m.title_font):
        box = sty.font(size).getbbox("Hg")
        assert box[3] - box[1] >= 14, size
    assert min(m.font, m.name_font, m.title_font) == m.font


def test_a_picture_over_the_limit_is_drawn_smaller(content, full, full_png):
    limit = len(full_png) // 3
    small = render_map(content, full, max_bytes=limit)
    assert len(small) <= limit
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(full_png)).width
    # an impossible limit still ends, at the smallest scale
    tiny = render_map(content, full, max_bytes=1000)
    assert tiny.startswith(PNG_MAGIC) and Image.open(io.BytesIO(tiny)).width < 600


def test_rendering_leaves_the_state_alone_and_repeats_exactly(content, full):
    before = copy.deepcopy(full)
    a = render_map(content, full)
    b = render_map(content, full)
    assert a == b and full == before


def test_replay_gif_has_one_frame_per_state(content, engine):
    states = [demo.played(engine, 4, n, players=3) for n in (0, 10, 25, 40)]
    states.append(copy.deepcopy(states[-1]))            # the same picture twice still counts twice
    data = render_replay_gif(content, states)
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF" and im.n_frames == len(states)
    sizes = set()
    for i in range(im.n_frames):
        im.seek(i)
        sizes.add(im.size)
    assert len(sizes) == 1


def test_a_small_handmade_content_renders_too():
    track = Track((1, 2, 3, 4, 5, 6, 7, 8), 3)
    tiles = {"hall": Tile("hall", "Hall", "building", "start", "none", {"east": "street", "south": "building"}),
             "lane": Tile("lane", "A Very Long Winding Lane Name", "street", "street", "omen",
                          {"west": "street"}, sewer_grate=True)}
    advs = {"zed": Adventurer("zed", "Zed", "A", "orange", "human", "rogue", 30,
                              {t: track for t in ("might", "speed", "knowledge", "sanity")}, {}, "printed")}
    c = Content(tiles=tiles, cards={}, adventurers=advs, chart_omens=(), chart_rows={}, traitor_rules={}, haunts={})
    board = {"hall": {"level": "city", "x": 0, "y": 0, "rot": 0}, "lane": {"level": "city", "x": 1, "y": 0, "rot": 0}}
    state = bare_state(board, [("z", "Zoe Q", "zed", "lane")])
    im = render_image(c, state)
    assert set(compute_layout(board).panels) == {"city"}
    assert px(im, door_probe(c, state, "hall", "east")) == sty.DOOR["street"]
    cx, cy, r = token_position(c, state, "z")
    assert near(px(im, (cx, cy - int(r * 0.7))), sty.adventurer_rgb("orange"))


def test_text_stays_readable_in_the_small_replay_frames():
    # The replay GIF is drawn at 0.6: names and legend text keep a floor instead of shrinking with the tiles
    from bot.games.babg.render import style
    small, full = style.metrics(0.6), style.metrics(1.0)
    assert small.tile < full.tile * 0.7
    assert small.name_font >= 12 and small.font >= 11 and small.title_font >= 16
    assert full.name_font == 18 and full.font == 17


def test_a_face_down_tile_is_drawn_as_its_back_and_named_in_the_legend(content, game):
    # Haunts 30 and 32 turn tiles face down: the map shows the back (no name) and says what it is
    from bot.games.babg.render.draw import _legend_entries
    state = copy.deepcopy(game.state)
    assert not any(e[0] == "face_down" for e in _legend_entries(content, state, None))
    tid = next(t for t in state["board"] if t not in ("elfsong_tavern",))
    state["board"][tid]["face_down"] = True
    assert any(e[0] == "face_down" for e in _legend_entries(content, state, None))
    assert render_map(content, state)[:8] == b"\x89PNG\r\n\x1a\n"
