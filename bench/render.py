"""How fast the map renders: a full map (every tile placed, 6 adventurers,
30 tokens) drawn and encoded to PNG bytes, against the floor: writing that
finished image alone with Pillow's own PNG writer (paletted, zlib level 3),
what any map would cost before our work. Our encoder (bot/render/png.py) is
timed on its own too.

Targets: full render median at most 1.5x the floor, p95 under 150 ms.

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

from bot.content import load_content  # noqa: E402
from bot.engine import Engine  # noqa: E402
from bot.render import COMPRESS_LEVEL, COMPRESSOR, encode_png, render_image, render_map  # noqa: E402
from bot.render.demo import full_map  # noqa: E402


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


def p95(times):
    return times[min(len(times) - 1, int(round(len(times) * 0.95)) - 1)]


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
    image = render_image(content, state, scale=args.scale)
    full, data = timed(lambda: render_map(content, state, scale=args.scale), args.runs)
    paletted = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    floor, _ = timed(lambda: pillow_png(paletted), args.runs)
    encode, _ = timed(lambda: encode_png(image), args.runs)
    draw, _ = timed(lambda: render_image(content, state, scale=args.scale), args.runs)
    print(f"map: {len(state['board'])} tiles, {adventurers} adventurers, {len(state['tokens'])} tokens, "
          f"{image.width}x{image.height} px at scale {args.scale}, PNG {len(data) / 1024:.0f} KiB")
    print(f"PNG deflate: {COMPRESSOR} level {COMPRESS_LEVEL}")
    print(f"first render (cold caches): {cold * 1000:.1f} ms")
    print(f"full render to PNG bytes: median {statistics.median(full) * 1000:.1f} ms, p95 {p95(full) * 1000:.1f} ms")
    print(f"Pillow's PNG writer alone (the floor): median {statistics.median(floor) * 1000:.1f} ms, "
          f"p95 {p95(floor) * 1000:.1f} ms")
    print(f"our encoding only (palette + PNG): median {statistics.median(encode) * 1000:.1f} ms, "
          f"p95 {p95(encode) * 1000:.1f} ms")
    print(f"drawing only:             median {statistics.median(draw) * 1000:.1f} ms, p95 {p95(draw) * 1000:.1f} ms")
    ratio = statistics.median(full) / statistics.median(floor)
    ok = ratio <= 1.5 and p95(full) < 0.150
    print(f"full / floor = {ratio:.2f} (target <= 1.5), p95 target < 150 ms: {'OK' if ok else 'MISSED'}")
    if args.levels:
        print(f"{COMPRESSOR} level: encode median, size")
        for level in range(4 if COMPRESSOR == "isal" else 10):
            times, out = timed(lambda: encode_png(image, level), 5)
            print(f"  {level}: {statistics.median(times) * 1000:6.1f} ms  {len(out) / 1024:8.0f} KiB")


if __name__ == "__main__":
    main()
