"""The chronicle as one picture a phone can read: a timeline, a chapter a row, top to bottom.

800 px wide, every letter at least 26 px tall, so it still reads when a phone shows it 400 px wide.
Each row: the chapter's mark on the line (gold: the heroes won; dark red: the traitor or the haunt;
grey: nobody), its haunt, who won, then one chip a seat: the family's colour, the member's first
name, a cross drawn after it when they died, a black frame when they were the traitor. The families and their
heirloom counts head it. Drawn with Pillow in a palette (bot.render.png.paletted_png)."""
from PIL import Image, ImageDraw

from bot.render.fonts import font
from bot.render.png import paletted_png

from .campaign import CHAPTERS, chapter_title, family_called

WIDTH = 800
TEXT = 26  # px: the smallest letters drawn
BIG = 34
PAD = 20
LINE_X = 62  # the timeline's x
ROW_GAP = 14
BACKGROUND, INK, FAINT, RULE = (246, 240, 226), (38, 32, 28), (110, 100, 90), (196, 184, 160)
WON = {"heroes": (201, 152, 30), "traitor": (150, 30, 36), None: (150, 150, 150)}
FAMILY = {"blue": (46, 94, 170), "green": (44, 128, 70), "red": (186, 52, 44), "yellow": (214, 170, 30),
          "purple": (116, 64, 150)}
DARK_TEXT_ON = {"yellow"}  # chips light enough for dark letters


def _fit(draw, text: str, size: int, width: int) -> str:
    """The text, cut with an ellipsis to `width` pixels."""
    f = font(size)
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text.rstrip() + "…"


CROSS = 22  # px: the drawn cross's width and room


def _chip_width(draw, label: str, died: bool) -> int:
    return int(draw.textlength(label, font=font(TEXT))) + 20 + (CROSS if died else 0)


def _chip(draw, x: int, y: int, colour: str, label: str, died: bool, traitor: bool) -> int:
    """A seat's chip at (x, y); returns its width."""
    w = _chip_width(draw, label, died)
    fill = FAMILY.get(colour, (120, 120, 120))
    ink = INK if colour in DARK_TEXT_ON else (255, 255, 255)
    draw.rounded_rectangle((x, y, x + w, y + TEXT + 12), radius=8, fill=fill,
                           outline=INK if traitor else None, width=4 if traitor else 0)
    draw.text((x + 10, y + 4), label, font=font(TEXT), fill=ink)
    if died:  # a small cross after the name
        cx, top = x + w - 10 - CROSS // 2 + 2, y + 6
        draw.line((cx, top, cx, top + TEXT), fill=ink, width=4)
        draw.line((cx - 8, top + 8, cx + 8, top + 8), fill=ink, width=4)
    return w


def _chips_rows(draw, seats: list[tuple], width: int) -> list[list[tuple]]:
    """The chips laid in rows that fit `width`."""
    rows, row, used = [], [], 0
    for seat in seats:
        w = _chip_width(draw, seat[1], seat[2]) + 10
        if row and used + w > width:
            rows.append(row)
            row, used = [], 0
        row.append(seat)
        used += w
    if row:
        rows.append(row)
    return rows


def _rows(campaign: dict, draw) -> list[dict]:
    out = []
    text_w = WIDTH - (LINE_X + 34) - PAD
    for c in campaign["chapters"]:
        head = chapter_title(c["number"]).capitalize()
        haunt = f"Haunt {c['haunt']}" + (f": {c['haunt_title']}" if c.get("haunt_title") else "")
        seats = []
        for s in c["seats"]:
            fam = campaign["families"][s["family"]]
            seats.append((fam["colour"], _fit(draw, s["member"]["first_name"] or "?", TEXT, text_w - 60),
                          s["fate"]["died"], s["fate"]["traitor"]))
        out.append({"head": head, "haunt": _fit(draw, haunt, TEXT, text_w - 10),
                    "won": _fit(draw, f"won by {c.get('won_by') or 'nobody'}", TEXT, text_w),
                    "winner": c.get("winner") if c.get("winner") in WON else None,
                    "chips": _chips_rows(draw, seats, text_w)})
    return out


def render(campaign: dict) -> bytes:
    """The chronicle's timeline as PNG bytes."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    rows = _rows(campaign, probe)
    chip_h = TEXT + 12
    families = [(fid, f) for fid, f in campaign["families"].items() if f["player"] or f["members"]]
    header_h = PAD + BIG + 12 + (TEXT + 20) + (TEXT + 20) + len(families) * (TEXT + 14) + 16
    heights = [BIG + 6 + (TEXT + 6) * 2 + len(r["chips"]) * (chip_h + 8) + ROW_GAP for r in rows]
    left = max(0, CHAPTERS + 1 - len(campaign["chapters"]))
    footer_h = (TEXT + 20) if left else 0
    height = header_h + sum(heights) + footer_h + PAD + (0 if rows else TEXT + 20)
    im = Image.new("RGB", (WIDTH, height), BACKGROUND)
    d = ImageDraw.Draw(im)
    y = PAD
    d.text((PAD, y), "The chronicle", font=font(BIG), fill=INK)
    y += BIG + 12
    played = len(campaign["chapters"])
    d.text((PAD, y), f"{played} chapter{'s' if played != 1 else ''} played"
           + (f", {left} to go" if left else ", now in free play"), font=font(TEXT), fill=FAINT)
    y += TEXT + 20
    x = PAD
    for label, died, traitor in (("died", True, False), ("the traitor", False, True)):
        x += _chip(d, x, y - 6, "", label, died, traitor) + 14
    y += TEXT + 20
    for fid, f in families:
        d.rectangle((PAD, y + 4, PAD + 22, y + 26), fill=FAMILY.get(f["colour"], (120, 120, 120)))
        alive = [m for m in f["members"] if not m["died"]]
        line = (f"{family_called(campaign, fid)}: {len(f['members'])} member{'s' if len(f['members']) != 1 else ''}"
                f", {len(f['heirlooms'])} heirloom{'s' if len(f['heirlooms']) != 1 else ''}"
                + (f", {alive[-1]['first_name']} alive" if alive and alive[-1]["first_name"] else ""))
        d.text((PAD + 34, y), _fit(d, line, TEXT, WIDTH - PAD * 2 - 34), font=font(TEXT), fill=INK)
        y += TEXT + 14
    y += 8
    d.line((PAD, y, WIDTH - PAD, y), fill=RULE, width=2)
    y += 8
    top = y
    if not rows:
        d.text((LINE_X + 34, y + 10), "No chapter played yet.", font=font(TEXT), fill=FAINT)
    for r, h in zip(rows, heights):
        d.line((LINE_X, y, LINE_X, y + h), fill=RULE, width=6)
        d.ellipse((LINE_X - 16, y + 6, LINE_X + 16, y + 38), fill=WON[r["winner"]], outline=INK, width=2)
        x = LINE_X + 34
        d.text((x, y), r["head"], font=font(BIG), fill=INK)
        yy = y + BIG + 6
        d.text((x, yy), r["haunt"], font=font(TEXT), fill=INK)
        yy += TEXT + 6
        d.text((x, yy), r["won"], font=font(TEXT), fill=WON[r["winner"]] if r["winner"] else FAINT)
        yy += TEXT + 10
        for chips in r["chips"]:
            cx = x
            for chip in chips:
                cx += _chip(d, cx, yy, *chip) + 10
            yy += chip_h + 8
        y += h
    if left and rows:
        d.line((LINE_X, top, LINE_X, y), fill=RULE, width=6)
    if left:
        d.text((LINE_X + 34, y + 6), f"Next: {chapter_title(played)}", font=font(TEXT), fill=FAINT)
    return paletted_png(im.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
