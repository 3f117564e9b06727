"""The statistics chart: each haunt played, its wins by side as a bar.

    stats_chart(stats) -> PNG bytes (stats: bot.service.stats.server_stats)

Drawn 800 px wide with text of 26 px, so that shown 400 px wide on a phone
its smallest text is still 13 px (bot.games.babg.render.style.MIN_TEXT)."""
from PIL import Image, ImageDraw

from bot.render.png import paletted_png
from .style import BACKGROUND, PANEL, TEXT, TEXT_DIM, font, text_size

WIDTH = 800
PAD = 24
TITLE_FONT, FONT = 34, 26
ROW = 44            # one haunt's row
BAR = 28            # the bar's thickness in it
LABEL_W = 330       # the haunt's number and title, left of its bar
COUNT_W = 120       # the figures, right of the bar
HEROES = (70, 130, 235)
TRAITOR = (205, 40, 62)
OTHER = (140, 136, 130)
SIDES = (("heroes", HEROES, "heroes"), ("traitor", TRAITOR, "traitor's side"), ("other", OTHER, "no winner"))
FIGURE_INK = {"heroes": (130, 178, 255), "traitor": (255, 112, 128), "other": TEXT_DIM}  # lighter, to read on dark


def stats_chart(stats: dict) -> bytes:
    haunts = stats["haunts"]
    height = PAD * 2 + TITLE_FONT + 16 + FONT + 20 + max(1, len(haunts)) * ROW
    im = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(im)
    y = PAD
    d.text((PAD, y), "Wins per haunt played", fill=TEXT, font=font(TITLE_FONT))
    y += TITLE_FONT + 16
    x = PAD
    for key, colour, label in SIDES:
        if key == "other" and not any(h["other"] for h in haunts):
            continue
        d.rectangle((x, y + 4, x + FONT - 8, y + FONT - 4), fill=colour)
        x += FONT
        d.text((x, y), label, fill=TEXT_DIM, font=font(FONT))
        x += int(text_size(label, FONT)[0]) + 28
    y += FONT + 20
    if not haunts:
        d.text((PAD, y + (ROW - FONT) // 2), "No haunt played to its end yet.", fill=TEXT_DIM, font=font(FONT))
    most = max((h["games"] for h in haunts), default=1)
    bar_x, bar_w = PAD + LABEL_W, WIDTH - PAD * 2 - LABEL_W - COUNT_W
    for i, h in enumerate(haunts):
        top = y + i * ROW
        if i % 2:
            d.rectangle((0, top, WIDTH, top + ROW - 1), fill=PANEL)
        text_y = top + (ROW - FONT) // 2
        d.text((PAD, text_y), fitted(f"{h['number']} {h['title']}", LABEL_W - 12), fill=TEXT, font=font(FONT))
        x = bar_x
        for key, colour, _ in SIDES:
            w = round(bar_w * h[key] / most)
            if w:
                d.rectangle((x, top + (ROW - BAR) // 2, x + w - 1, top + (ROW + BAR) // 2), fill=colour)
                x += w
        x += 10
        for key in ("heroes", "traitor", "other"):  # each side's wins in its colour: "2 1"
            if key != "other" or h[key]:
                d.text((x, text_y), str(h[key]), fill=FIGURE_INK[key], font=font(FONT))
                x += int(text_size(f"{h[key]} ", FONT)[0])
    # a few dozen colours: the fast octree keeps the text's smooth edges (an adaptive palette takes 7 times as long)
    return paletted_png(im.quantize(64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def fitted(text: str, width: int) -> str:
    """`text` cut with an ellipsis to fit `width` pixels."""
    if text_size(text, FONT)[0] <= width:
        return text
    while text and text_size(text + "…", FONT)[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"
