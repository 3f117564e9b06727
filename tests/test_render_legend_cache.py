"""The legend's labels come from the cached text stamps (art.stamp_text), not
from FreeType each time a legend is drawn, and look exactly as drawn text."""
import pytest
from PIL import ImageDraw

from bot.games.babg.engine.view import view
from bot.games.babg.render import art, demo, draw, render_paletted, render_turn_paletted
from bot.games.babg.render import style as sty
from bot.games.babg.render.layout import compute_layout


@pytest.fixture(scope="module")
def full(engine):
    return view(demo.full_map(engine, seed=3, players=6, tokens=12))


def drawn_text(original):
    """stamp_text as the legend drew its labels before the stamps: ImageDraw.text
    straight onto the (RGB) image, nothing cached. Paletted pictures (headers,
    titles) keep the stamps they always had."""
    def stamp_text(im, xy, text, size, fill, anchor="la"):
        if im.mode == "P":
            return original(im, xy, text, size, fill, anchor)
        ImageDraw.Draw(im).text(xy, text, font=sty.font(size), fill=fill, anchor=anchor)
    return stamp_text


def legend_args(content, state, highlight, scale):
    lay = compute_layout(state["board"], scale, None)
    return draw._legend_entries(content, state, highlight), lay.legend[2], lay.m


def clear_picture_caches():
    draw.legend_image.cache_clear()
    draw.legend_paletted.cache_clear()


@pytest.mark.parametrize("scale", [1.0, 0.6])
def test_legend_from_stamps_is_pixel_for_pixel_the_drawn_text(content, full, game, monkeypatch, scale):
    cases = [(full, None), (full, full["seats"][-1]), (view(game.state), None)]
    stamped = [draw.legend_image.__wrapped__(*legend_args(content, s, hl, scale)) for s, hl in cases]
    maps = []
    for s, hl in cases:
        clear_picture_caches()
        maps.append(render_paletted(content, s, hl, scale).tobytes())
    clear_picture_caches()
    turn = render_turn_paletted(content, full).tobytes()
    monkeypatch.setattr(art, "stamp_text", drawn_text(art.stamp_text))
    for (s, hl), im, pic in zip(cases, stamped, maps):
        want = draw.legend_image.__wrapped__(*legend_args(content, s, hl, scale))
        assert im.size == want.size and im.tobytes() == want.tobytes(), f"legend differs at scale {scale}"
        clear_picture_caches()
        assert render_paletted(content, s, hl, scale).tobytes() == pic, f"map differs at scale {scale}"
    clear_picture_caches()
    assert render_turn_paletted(content, full).tobytes() == turn
    clear_picture_caches()


def test_the_next_turns_legend_lays_out_no_label_again(content, full, monkeypatch):
    """The highlighted player changes each turn, so the legend itself is new;
    its labels must not go to FreeType again."""
    raw = draw.legend_image.__wrapped__
    raw(*legend_args(content, full, full["seats"][0], 1.0))
    entries, width, m = legend_args(content, full, full["seats"][1], 1.0)
    labels = {text for _, _, text in entries}
    drawn = []
    original = ImageDraw.ImageDraw.text
    monkeypatch.setattr(ImageDraw.ImageDraw, "text",
                        lambda self, xy, text, *a, **k: (drawn.append(text), original(self, xy, text, *a, **k)))
    def counts():  # (hits, misses) of both stamp caches (a long label goes to the header lines' one)
        infos = art._short_stamp.cache_info(), art._long_stamp.cache_info()
        return sum(i.hits for i in infos), sum(i.misses for i in infos)
    before = counts()
    raw(entries, width, m)
    after = counts()
    assert not labels & set(drawn), f"legend labels laid out again: {sorted(labels & set(drawn))}"
    assert after[1] == before[1]
    assert after[0] - before[0] >= len(entries)


def test_the_text_stamp_cache_holds_a_few_hundred_games_of_labels(content, full):
    assert art._short_stamp.cache_info().maxsize >= 4096
    # a legend label's stamp is a few KB: 4096 of them stay in the tens of MB
    entries, _, m = legend_args(content, full, None, 1.0)
    masks = [art.text_stamp(text, m.font, "lm")[0] for _, _, text in entries]
    assert max(mask.width * mask.height for mask in masks) <= 8192


def test_one_off_header_lines_never_push_the_labels_out():
    label = "Torskar Ulfreck"
    art.text_stamp(label, 14, "lm")
    kept = art._short_stamp.cache_info().currsize
    for turn in range(art.LONG_TEXT_STAMPS + 10):  # a new header line each turn
        art.text_stamp(f"Turn {turn}: Torskar Ulfreck's turn   |   Haunt 12: Blackrazor", 16, "lm")
    assert art._short_stamp.cache_info().currsize == kept
    assert art._long_stamp.cache_info().currsize == art.LONG_TEXT_STAMPS
    hits = art._short_stamp.cache_info().hits
    art.text_stamp(label, 14, "lm")
    assert art._short_stamp.cache_info().hits == hits + 1
