"""Castle Ravenloft fuzzing: hostile actions against states from auto playouts.

Collects states from seeded playouts of every adventure, then throws N actions at random states:
random verbs (known and unknown), the wrong player, bad or missing fields, wrong phases, random
targets, squares and choices, and legal actions with one field spoiled. An action may be refused
with IllegalAction; any other exception is a bug, counted and shown (the aim is 0). An accepted
action's state must survive a JSON round trip.

usage: python bench/ravenloft_fuzz.py [--actions N] [--seed S]
"""
import argparse
import json
import pathlib
import random
import sys
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.ravenloft.autoplay import play_auto_game, suited_counts  # noqa: E402
from bot.games.ravenloft.engine import data  # noqa: E402
from bot.games.ravenloft.engine.content import load_content  # noqa: E402
from bot.games.ravenloft.engine.game import Engine  # noqa: E402
from bot.games.ravenloft.engine.legal import legal_actions  # noqa: E402
from bot.kit.errors import IllegalAction  # noqa: E402

VERBS = ["join", "leave", "start", "move", "attack", "disable", "use", "pickup", "end", "decide", "undo",
         "fly", "", "MOVE", None, 3]
FIELDS = ["to", "power", "target", "trap", "item", "object", "explore", "choice", "hero", "name", "powers",
          "builtin", "extra"]


def junk(rnd, state):
    pool = [None, "", 0, -1, 10 ** 9, 3.5, [], {}, [1], {"a": 1}, "x", "N", "none", "Q", "1,1", "0,0", "99,99",
            "-3,7", "a,b", "1,", ",", "1,2,3", "m1", "m99", "m1,m1", "m1,m2,m3,m4", "k1", "p0", "p9", "cancel it",
            "let it happen", "level up", "keep", 1, 2, 7, True, "\u00e9", "0"*500]
    pool += list(state.get("figures", {})) + [m["id"] for m in state.get("markers", [])] + list(state.get("players", {}))
    for p in state.get("players", {}).values():
        pool += list(p.get("powers", {})) + list(p.get("items", []))
        if p.get("square"):
            x, y = map(int, p["square"].split(","))
            pool += [f"{x + rnd.randint(-6, 6)},{y + rnd.randint(-6, 6)}" for _ in range(3)]
    if state.get("figures"):
        pool.append(",".join(rnd.sample(list(state["figures"]), min(len(state["figures"]), rnd.randint(1, 3)))))
    return rnd.choice(pool)


def hostile(rnd, state, engine):
    players = list(state.get("players", {})) + ["p7", "ghost", None, 5]
    kind = rnd.random()
    if kind < 0.5:
        pid = rnd.choice(list(state.get("players", {})) or ["p0"])
        legal = legal_actions(engine.content, state, pid)
        if legal:
            a = dict(rnd.choice(legal))
            if rnd.random() < 0.8:
                key = rnd.choice(FIELDS + ["player", "type"])
                a[key] = junk(rnd, state)
            if rnd.random() < 0.3 and len(a) > 2:
                a.pop(rnd.choice([k for k in a if k not in ("type",)]))
            return a
    a = {"type": rnd.choice(VERBS), "player": rnd.choice(players)}
    for _ in range(rnd.randint(0, 3)):
        a[rnd.choice(FIELDS)] = junk(rnd, state)
    if rnd.random() < 0.05:
        return rnd.choice([None, [], "move", 7, {"player": "p0"}])
    return a


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=16)
    args = ap.parse_args(argv)
    content = load_content()
    engine = Engine(content)
    rnd = random.Random(args.seed)
    states = []
    combos = [(adv, n) for adv in data.adventure_keys(content) for n in suited_counts(content, adv)]
    for i in range(args.games):
        adv, n = combos[(i * 7) % len(combos)]
        keep = []
        play_auto_game(content, args.seed * 1000 + i, adv, n, on_action=lambda s, a: keep.append(s))
        states += keep[::3]
    lobby = engine.new_game(1, {"adventure": 2})
    states += [lobby, engine.apply(lobby, {"type": "join", "player": "p0", "hero": "kat"})[0]]
    errors, accepted, refused, bugs = {}, 0, 0, 0
    for i in range(args.actions):
        s = rnd.choice(states)
        a = hostile(rnd, s, engine)
        try:
            after, events = engine.apply(s, a)
            json.dumps(after)
            accepted += 1
            if rnd.random() < 0.02 and after.get("phase") != "over":
                states.append(after)
        except IllegalAction:
            refused += 1
        except Exception as exc:  # a bug: counted and shown
            bugs += 1
            key = f"{type(exc).__name__}: {exc}"[:160]
            if key not in errors:
                errors[key] = (a, traceback.format_exc(limit=4))
    print(f"actions: {args.actions}, states: {len(states)}, accepted: {accepted}, refused (IllegalAction): {refused}")
    print(f"exceptions other than IllegalAction: {bugs} ({len(errors)} kinds)")
    for key, (a, tb) in list(errors.items())[:15]:
        print("---", key, "\n   action:", a, "\n", tb)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
