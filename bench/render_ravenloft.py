"""How fast Castle Ravenloft's dungeon pictures render (bot/games/ravenloft/render.py): the turn
picture (the tiles round the active hero, for a phone) and the whole map, each drawn from about 50
mid-game states (the middle half of seeded games the built-in heroes play, several adventures), as
the channel's view gives them, to PNG bytes. Prints mean, median and p99 time and the PNG sizes;
the first picture (cold caches: fonts, text widths) is timed apart. Compare with Baldur's Gate's
bench/render.py (its full map and its turn picture).

usage: python bench/render_ravenloft.py [--states N] [--runs R]
"""
import argparse
import io
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot.games.ravenloft.autoplay import choose_action  # noqa: E402
from bot.games.ravenloft.engine.content import load_content  # noqa: E402
from bot.games.ravenloft.engine.game import Engine  # noqa: E402
from bot.games.ravenloft.engine.view import view  # noqa: E402
from bot.games.ravenloft.render import render_map, render_turn  # noqa: E402
from bot.render.png import COMPRESS_LEVEL, COMPRESSOR  # noqa: E402

GAMES = [(2, ["arjhan", "kat", "thorgrim"]), (3, ["immeril", "allisa"]), (4, ["thorgrim", "allisa"]),
         (5, ["arjhan", "immeril"]), ("the_phylactery_hunt", ["kat", "arjhan"]),
         ("the_stitched_servant", ["thorgrim", "kat", "immeril"])]


def play(content, seed, adv, team):
    e = Engine(content)
    s = e.new_game(seed, {"adventure": adv})
    for i, h in enumerate(team):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    out = [s]
    while s["phase"] != "over" and len(out) < 4000:
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        s, _ = e.apply(s, choose_action(content, s, pid))
        out.append(s)
    return out


def mid_game_states(content, n):
    """About `n` views from the middle half of seeded games, spread evenly over each game."""
    per_game = max(1, -(-n // (len(GAMES) * 2)))
    out = []
    for seed in range(2):
        for adv, team in GAMES:
            st = play(content, seed, adv, team)
            a, b = len(st) // 4, max(len(st) // 4 + 1, 3 * len(st) // 4)
            step = max(1, (b - a) // per_game)
            out += [view(s) for s in st[a:b:step][:per_game]]
    return out[:n]


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(len(xs) * 0.99)) - 1)]


def report(name, times, sizes, dims):
    ms = [t * 1000 for t in times]
    w = statistics.mean(d[0] for d in dims)
    h = statistics.mean(d[1] for d in dims)
    print(f"{name:5s} mean {statistics.mean(ms):6.1f} ms  median {statistics.median(ms):6.1f} ms  "
          f"p99 {p99(ms):6.1f} ms  |  PNG mean {statistics.mean(sizes) / 1024:5.1f} KiB, max "
          f"{max(sizes) / 1024:5.1f} KiB  |  mean {w:.0f}x{h:.0f} px")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3, help="renders of each state (times of all kept)")
    args = ap.parse_args()
    content = load_content()
    t0 = time.perf_counter()
    states = mid_game_states(content, args.states)
    print(f"{len(states)} mid-game states from {len(GAMES) * 2} seeded games ({time.perf_counter() - t0:.1f} s "
          f"to play them); PNG deflate: {COMPRESSOR} level {COMPRESS_LEVEL}")
    t0 = time.perf_counter()
    render_turn(content, states[0])
    cold_turn = time.perf_counter() - t0
    t0 = time.perf_counter()
    render_map(content, states[0])
    cold_map = time.perf_counter() - t0
    print(f"first pictures (cold caches): turn {cold_turn * 1000:.1f} ms, map {cold_map * 1000:.1f} ms")
    for name, fn in (("turn", render_turn), ("map", render_map)):
        times, sizes, dims = [], [], []
        for _ in range(args.runs):
            for s in states:
                t0 = time.perf_counter()
                data = fn(content, s)
                times.append(time.perf_counter() - t0)
                sizes.append(len(data))
                dims.append(Image.open(io.BytesIO(data)).size)
        report(name, times, sizes, dims)


if __name__ == "__main__":
    main()
