"""Castle Ravenloft balance: how often the built-in heroes win each adventure.

Plays N auto games (default 1000) spread over every adventure and every player count it suits,
the heroes drawn from the box by the seed. No action limit ends a game: each one ends on the
engine's own victory or defeat; a game still going after BUG_BOUND actions is a bug, counted as a
failure. Prints a table per adventure and overall and writes the figures to
rules_data/ravenloft/balance.json.

usage: python bench/ravenloft_balance.py [--games N] [--seed S] [--out PATH]
"""
import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.ravenloft.autoplay import BUG_BOUND, play_auto_game, suited_counts  # noqa: E402
from bot.games.ravenloft.engine import data  # noqa: E402
from bot.games.ravenloft.engine.content import load_content  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "rules_data" / "ravenloft" / "balance.json"))
    args = ap.parse_args(argv)
    content = load_content()
    combos = [(adv, n) for adv in data.adventure_keys(content) for n in suited_counts(content, adv)]
    rows = {}
    failures = []
    times = []
    start = time.perf_counter()
    for i in range(args.games):
        adv, n = combos[i % len(combos)]
        seed = args.seed + i
        try:
            s, actions = play_auto_game(content, seed, adv, n, times=times)
            result = s["outcome"]["result"] if s["phase"] == "over" else "unfinished"
        except Exception as exc:  # a bug: reported, never hidden
            result, actions = f"error: {type(exc).__name__}: {exc}", 0
        r = rows.setdefault(str(adv), {"games": 0, "victories": 0, "defeats": 0, "failures": 0,
                                       "actions": [], "by_players": {}})
        bp = r["by_players"].setdefault(str(n), {"games": 0, "victories": 0})
        r["games"] += 1
        bp["games"] += 1
        if result == "victory":
            r["victories"] += 1
            bp["victories"] += 1
        elif result == "defeat":
            r["defeats"] += 1
        else:
            r["failures"] += 1
            failures.append({"adventure": adv, "players": n, "seed": seed, "result": result})
        r["actions"].append(actions)
    took = time.perf_counter() - start
    out = {"games": args.games, "seed": args.seed, "bug_bound": BUG_BOUND, "adventures": {}, "failures": failures}
    print(f"{'adventure':34} {'games':>6} {'wins':>6} {'losses':>6} {'win %':>6} {'mean actions':>13}")
    tot = {"games": 0, "victories": 0, "defeats": 0, "failures": 0, "actions": []}
    for adv, r in rows.items():
        title = data.g(data.adventure_record(content, int(adv) if adv.isdigit() else adv), "title", adv)
        mean = statistics.fmean(r["actions"]) if r["actions"] else 0
        pct = 100 * r["victories"] / r["games"] if r["games"] else 0
        print(f"{title[:34]:34} {r['games']:6} {r['victories']:6} {r['defeats']:6} {pct:6.1f} {mean:13.0f}")
        out["adventures"][adv] = {"title": title, "games": r["games"], "victories": r["victories"],
                                  "defeats": r["defeats"], "failures": r["failures"], "win_pct": round(pct, 1),
                                  "mean_actions": round(mean, 1), "by_players": r["by_players"]}
        for k in ("games", "victories", "defeats", "failures"):
            tot[k] += r[k]
        tot["actions"] += r["actions"]
    pct = 100 * tot["victories"] / tot["games"] if tot["games"] else 0
    mean = statistics.fmean(tot["actions"]) if tot["actions"] else 0
    print(f"{'overall':34} {tot['games']:6} {tot['victories']:6} {tot['defeats']:6} {pct:6.1f} {mean:13.0f}")
    print(f"failures (a game not ending in victory or defeat): {tot['failures']}; {took:.0f} s")
    for f in failures[:10]:
        print("  ", f)
    times.sort()
    if times:
        mean_us, p99_us = statistics.fmean(times) * 1e6, times[int(len(times) * 0.99)] * 1e6
        print(f"Engine.apply over {len(times)} actions of play: mean {mean_us:.0f} us, p99 {p99_us:.0f} us, "
              f"max {times[-1] * 1e6:.0f} us")
        out["apply_us"] = {"mean": round(mean_us), "p99": round(p99_us)}
    out.setdefault("apply_us", None)
    out["overall"] = {"games": tot["games"], "victories": tot["victories"], "defeats": tot["defeats"],
                      "failures": tot["failures"], "win_pct": round(pct, 1), "mean_actions": round(mean, 1)}
    pathlib.Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
