"""How fast the map renders: a full map (every tile placed, 6 adventurers,
30 tokens) drawn and encoded to PNG bytes, against the floor: writing that
same finished picture alone with Pillow's own PNG writer (zlib level 3),
what any map would cost before our work. The pictures are drawn paletted
(bot/games/babg/render/palette.py), so the floor is Pillow writing exactly the paletted
image our PNG holds (checked: the decoded PNG has the same pixels). Each
run times the render and the floor back to back, so that a busy machine
slows both alike. Our PNG writer (bot/render/png.py) is timed on its own too.

Targets: full render median at most 1.5x the floor, p95 under 150 ms.

The turn picture (bot/games/babg/render/turn.py, the tiles round the turn, for a
phone) is timed the same way beside it: size, median and p95, and its own
floor (Pillow's PNG writer on that finished paletted turn image). Target: at
most 1.5x its floor. The same state is drawn each run, so the caches keyed
by what is drawn (tile faces, text stamps, legends) are warm, as on a
message drawn again; "a new turn each run" then draws a different turn
number each time (its header text never seen before), for the cost of a
turn's first picture.

For reference it also shows Pillow's writer on the picture quantized by
Pillow itself (FASTOCTREE, 256 colours), the floor before the pictures
were drawn paletted.

usage: python bench/render.py [--runs N] [--scale S] [--levels]
  --levels also times every deflate level once, to show why the one in use was chosen.
"""
import argparse
import io
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine  # noqa: E402
from bot.games.babg.engine.view import view  # noqa: E402
from bot.games.babg.render import (COMPRESS_LEVEL, COMPRESSOR, render_map, render_paletted, render_turn,  # noqa: E402
                        render_turn_paletted)
from bot.games.babg.render.demo import full_map  # noqa: E402
from bot.render.png import paletted_png  # noqa: E402


def pillow_png(paletted: Image.Image) -> bytes:
    buf = io.BytesIO()
    paletted.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


def timed(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times, out


def paired(fn, floors, runs):
    """fn(run number), then each of `floors`, timed in turn, run after run:
    (fn's times, each floor's times, fn's last output)."""
    times, floor, out = [], [[] for _ in floors], None
    for i in range(runs):
        t0 = time.perf_counter()
        out = fn(i)
        times.append(time.perf_counter() - t0)
        for f, ts in zip(floors, floor):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
    return sorted(times), [sorted(ts) for ts in floor], out


def ratio(times, floor):
    return statistics.median(times) / statistics.median(floor)


def p95(times):
    return times[min(len(times) - 1, int(round(len(times) * 0.95)) - 1)]


def ms(times):
    return f"median {statistics.median(times) * 1000:.1f} ms, p95 {p95(times) * 1000:.1f} ms"


def same_picture(data: bytes, paletted: Image.Image):
    """The floor writes what our PNG holds: same size, palette and pixels."""
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == "P" and decoded.size == paletted.size and decoded.tobytes() == paletted.tobytes()
    assert decoded.getpalette()[:768] == paletted.getpalette()[:768]


def octree(paletted: Image.Image) -> Image.Image:
    return paletted.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--levels", action="store_true")
    args = ap.parse_args()
    content = load_content()
    state = full_map(Engine(content), seed=1, players=6, tokens=30)
    adventurers = sum(1 for p in state["players"].values() if p["tile"] in state["board"])
    t0 = time.perf_counter()
    data = render_map(content, state, scale=args.scale)           # cold: faces, icons, fonts drawn
    cold = time.perf_counter() - t0
    paletted = render_paletted(content, view(state), scale=args.scale)
    same_picture(data, paletted)
    quantized = octree(paletted)
    full, (floor, old_floor), data = paired(lambda _: render_map(content, state, scale=args.scale),
                                            (lambda: pillow_png(paletted), lambda: pillow_png(quantized)), args.runs)
    encode, _ = timed(lambda: paletted_png(paletted), args.runs)
    draw, _ = timed(lambda: render_paletted(content, view(state), scale=args.scale), args.runs)
    print(f"map: {len(state['board'])} tiles, {adventurers} adventurers, {len(state['tokens'])} tokens, "
          f"{paletted.width}x{paletted.height} px at scale {args.scale}, PNG {len(data) / 1024:.0f} KiB "
          f"(Pillow's: {len(pillow_png(paletted)) / 1024:.0f} KiB)")
    print(f"PNG deflate: {COMPRESSOR} level {COMPRESS_LEVEL}")
    print(f"first render (cold caches): {cold * 1000:.1f} ms")
    print(f"full render to PNG bytes: {ms(full)}")
    print(f"Pillow's PNG writer alone on the same paletted picture (the floor): {ms(floor)}")
    print(f"  for reference, on it quantized by Pillow (FASTOCTREE): {ms(old_floor)}, "
          f"full / that = {ratio(full, old_floor):.2f}")
    print(f"our PNG writer only:         {ms(encode)}")
    print(f"view + drawing only:         {ms(draw)}")
    r = ratio(full, floor)
    ok = r <= 1.5 and p95(full) < 0.150
    print(f"full / floor = {r:.2f} (target <= 1.5), p95 target < 150 ms: {'OK' if ok else 'MISSED'}")
    turn_picture(content, state, args.runs)
    if args.levels:
        print(f"{COMPRESSOR} level: encode median, size")
        for level in range(4 if COMPRESSOR == "isal" else 10):
            times, out = timed(lambda: paletted_png(paletted, level), 5)
            print(f"  {level}: {statistics.median(times) * 1000:6.1f} ms  {len(out) / 1024:8.0f} KiB")


def turn_picture(content, state, runs):
    """The turn picture beside the full map: size, time, its floor."""
    data = render_turn(content, state)                             # cold: its tile faces drawn
    paletted = render_turn_paletted(content, view(state))
    same_picture(data, paletted)
    quantized = octree(paletted)
    turn, (floor, old_floor), data = paired(lambda _: render_turn(content, state),
                                            (lambda: pillow_png(paletted), lambda: pillow_png(quantized)), runs)
    encode, _ = timed(lambda: paletted_png(paletted), runs)
    draw, _ = timed(lambda: render_turn_paletted(content, view(state)), runs)
    turns = [{**state, "turn": {**state["turn"], "number": 1000 + i}} for i in range(runs)]
    fresh, (fresh_floor,), _ = paired(lambda i: render_turn(content, turns[i]), (lambda: pillow_png(paletted),), runs)
    print(f"turn picture: {paletted.width}x{paletted.height} px, PNG {len(data) / 1024:.0f} KiB "
          f"(Pillow's: {len(pillow_png(paletted)) / 1024:.0f} KiB)")
    print(f"turn picture to PNG bytes: {ms(turn)}")
    print(f"Pillow's PNG writer alone on the same paletted turn picture (the floor): {ms(floor)}")
    print(f"  for reference, on it quantized by Pillow (FASTOCTREE): {ms(old_floor)}, "
          f"turn / that = {ratio(turn, old_floor):.2f}")
    print(f"our PNG writer only:         {ms(encode)}")
    print(f"view + drawing only:         {ms(draw)}")
    print(f"a new turn each run:         {ms(fresh)} (floor beside it: {ms(fresh_floor)}, "
          f"ratio {ratio(fresh, fresh_floor):.2f})")
    r = ratio(turn, floor)
    print(f"turn / floor = {r:.2f} (target <= 1.5): {'OK' if r <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
