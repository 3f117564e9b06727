"""The long version of the engine's door test: auto-played games, and at
every step a burst of hostile actions (wrong player, stranger, unknown kind,
missing and extra fields, wrong types, NaN, huge numbers, unicode and control
characters) and stale ones (actions that were legal earlier in the game).

    python bench/fuzz.py --minutes 5

Prints actions tried, refused, accepted, and other exceptions (the goal: 0),
with the first few failures in full so they can be replayed."""
import argparse
import json
import pathlib
import random
import sys
import time
import traceback

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.games.babg import autoplay  # noqa: E402
from bot.games.babg.content import load_content  # noqa: E402
from bot.games.babg.engine import Engine, IllegalAction  # noqa: E402
from tests.fuzzing import random_action, strict_json_problem  # noqa: E402
from tests.playout import new_auto_game  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--burst", type=int, default=8, help="hostile actions tried at each step")
    args = ap.parse_args(argv)
    engine = Engine(load_content())
    rnd = random.Random(args.seed)
    stop = time.monotonic() + 60 * args.minutes
    tried = refused = accepted = games = 0
    failures = []
    while time.monotonic() < stop:
        seed = rnd.randrange(1 << 30)
        state, log = new_auto_game(engine, seed, random.Random(seed), haunt="play")
        games += 1
        seen = []
        for _ in range(3000):
            if time.monotonic() >= stop or state["phase"] == "over":
                break
            for _ in range(args.burst):
                action = random_action(state, rnd) if not seen or rnd.random() < 0.8 else rnd.choice(seen)
                before = json.dumps(state, sort_keys=True)
                tried += 1
                try:
                    after, _ = engine.apply(state, action)
                    problem = strict_json_problem(after)
                    if problem:
                        raise AssertionError(f"not strict JSON: {problem}")
                    accepted += 1
                except IllegalAction:
                    refused += 1
                except Exception:  # noqa: BLE001 - this is what the bench counts
                    failures.append({"seed": seed, "log": list(log), "action": repr(action),
                                     "error": traceback.format_exc(limit=3)})
                if json.dumps(state, sort_keys=True) != before:
                    failures.append({"seed": seed, "action": repr(action), "error": "the given state changed"})
            action = autoplay.choose(engine.content, state, rnd)
            if action is None:
                break
            seen.append(action)
            state, _ = engine.apply(state, action)
            log.append(action)
    print(f"games: {games}")
    print(f"actions tried: {tried}; refused: {refused}; accepted: {accepted}; other exceptions: {len(failures)}")
    for f in failures[:3]:
        print(json.dumps({k: v for k, v in f.items() if k != "log"}, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
