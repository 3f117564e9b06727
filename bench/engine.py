"""How fast the engines play: the time of one `Engine.apply`, Baldur's Gate and Castle Ravenloft in
one run (the machine's speed varies, so the two are compared within the same run).

Plays auto games from setup to their end with the built-in players and times every `Engine.apply`
call of play (never the built-in players' choice). Prints, per system, games, actions and the mean,
p50, p99 and max of one action; for Castle Ravenloft also per action type (its `end` runs
exploration and the whole villain phase). Targets: Baldur's Gate's p99 under 1 ms, and a Ravenloft
action's p99 at most Baldur's Gate's.

The clock is the wall clock (`--clock wall`); on a shared machine `--clock cpu` (this process's
CPU time) leaves out the time other programs take the core away, which otherwise lands in the p99.

usage: python bench/engine.py [--games N] [--ravenloft-games N] [--system babg|ravenloft|both]
                              [--clock wall|cpu]
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
from bot.games.ravenloft import autoplay as rl_autoplay  # noqa: E402
from bot.games.ravenloft.engine import data as rl_data  # noqa: E402
from bot.games.ravenloft.engine.content import load_content as rl_load_content  # noqa: E402
from bot.games.ravenloft.engine.game import Engine as RlEngine  # noqa: E402
from tests.playout import new_auto_game  # noqa: E402


def figures(times: list) -> dict:
    t = sorted(times)
    return {"n": len(t), "mean": statistics.fmean(t), "p50": t[len(t) // 2], "p99": t[int(len(t) * 0.99)],
            "max": t[-1]}


def line(label: str, f: dict) -> str:
    return (f"{label:18} {f['n']:8} {f['mean'] * 1e6:9.0f} {f['p50'] * 1e6:9.0f} {f['p99'] * 1e6:9.0f} "
            f"{f['max'] * 1e6:9.0f}")


HEAD = f"{'':18} {'actions':>8} {'mean us':>9} {'p50 us':>9} {'p99 us':>9} {'max us':>9}"


def babg(games: int, clock) -> list:
    engine = Engine(load_content())
    times = []
    for seed in range(games):
        rnd = random.Random(seed)
        state, _ = new_auto_game(engine, seed, rnd)
        for _ in range(5000):
            action = autoplay.choose(engine.content, state, rnd)
            if action is None:
                break
            t0 = clock()
            state, _ = engine.apply(state, action)
            times.append(clock() - t0)
    return times


def ravenloft(games: int, clock) -> tuple:
    """Auto games spread over every adventure and player count it suits, the heroes drawn by the seed
    (as bench/ravenloft_balance.py plays them, through autoplay's play_auto_game steps): (times, the
    action type of each time, games that failed)."""
    content = rl_load_content()
    engine = RlEngine(content)
    combos = [(adv, n) for adv in rl_data.adventure_keys(content) for n in rl_autoplay.suited_counts(content, adv)]
    times, kinds, failed = [], [], 0
    for seed in range(games):
        adv, n = combos[seed % len(combos)]
        try:
            s = engine.new_game(seed, {"adventure": adv})
            for i, h in enumerate(rl_autoplay.team_for(content, seed, n)):
                s, _ = engine.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
            s, _ = engine.apply(s, {"type": "start", "player": "p0"})
            for _ in range(rl_autoplay.BUG_BOUND):
                if s["phase"] == "over":
                    break
                pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
                a = rl_autoplay.choose_action(content, s, pid)
                t0 = clock()
                s, _ = engine.apply(s, a)
                times.append(clock() - t0)
                kinds.append(a.get("type"))
            if s["phase"] != "over":  # still going after BUG_BOUND actions: a bug
                failed += 1
        except Exception:  # a game that breaks is counted, its timed actions kept
            failed += 1
    return times, kinds, failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="Baldur's Gate games")
    ap.add_argument("--ravenloft-games", type=int, default=700)
    ap.add_argument("--system", choices=("babg", "ravenloft", "both"), default="both")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = ap.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    print(f"clock: {args.clock}")
    got = {}
    if args.system in ("babg", "both"):
        start = time.perf_counter()
        times = babg(args.games, clock)
        took = time.perf_counter() - start
        got["babg"] = figures(times)
        print(f"Betrayal at Baldur's Gate: {args.games} games, {len(times)} actions, {took:.0f} s")
        print(HEAD)
        print(line("all", got["babg"]))
    if args.system in ("ravenloft", "both"):
        start = time.perf_counter()
        times, kinds, failed = ravenloft(args.ravenloft_games, clock)
        took = time.perf_counter() - start
        got["ravenloft"] = figures(times)
        print(f"Castle Ravenloft: {args.ravenloft_games} games ({failed} failed), {len(times)} actions, {took:.0f} s")
        print(HEAD)
        print(line("all", got["ravenloft"]))
        by = {}
        for t, k in zip(times, kinds):
            by.setdefault(k, []).append(t)
        for k in sorted(by, key=lambda k: -len(by[k])):
            print(line(f"  {k}", figures(by[k])))
    if len(got) == 2:
        a, b = got["ravenloft"]["p99"], got["babg"]["p99"]
        verdict = "at most" if a <= b else "ABOVE"
        print(f"Ravenloft p99 {a * 1e6:.0f} us is {verdict} Baldur's Gate's p99 {b * 1e6:.0f} us")


if __name__ == "__main__":
    main()
