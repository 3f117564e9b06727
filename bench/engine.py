"""How fast the engine plays: games per second and the time of one action.

Plays auto games from setup to the end of the haunt and times every
`Engine.apply` call. Target: p99 of one action under 1 ms.

usage: python bench/engine.py [--games N]
"""
import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.games.babg import autoplay  # noqa: E402
from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine  # noqa: E402
from tests.playout import new_auto_game  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    engine = Engine(load_content())
    times, actions = [], 0
    start = time.perf_counter()
    for seed in range(args.games):
        rnd = random.Random(seed)
        state, _ = new_auto_game(engine, seed, rnd)
        for _ in range(5000):
            action = autoplay.choose(engine.content, state, rnd)
            if action is None:
                break
            t0 = time.perf_counter()
            state, _ = engine.apply(state, action)
            times.append(time.perf_counter() - t0)
            actions += 1
    total = time.perf_counter() - start
    times.sort()
    p99 = times[int(len(times) * 0.99)]
    print(f"games: {args.games}, actions: {actions}")
    print(f"games per second (with the built-in players' choices): {args.games / total:.1f}")
    print(f"one action: median {statistics.median(times) * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us, "
          f"max {times[-1] * 1e6:.0f} us (target p99 < 1000 us)")


if __name__ == "__main__":
    main()
