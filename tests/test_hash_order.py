"""The actions offered (buttons, built-in players) never depend on how a
set iterates in one process: Python seeds string hashing per process, so an
order taken from a set would differ after a restart. Found: the monster
turn's attack buttons came in set order (haunt 1, seed 3)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import json, random, sys
from bot.games.babg.content import load_content
from bot.games.babg.engine import Engine
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg import autoplay
engine = Engine(load_content())
rnd = random.Random(3)
state = engine.new_game(3, "play", {"chosen_haunt": 1})
for i, aid in enumerate(("torskar", "lia", "gretchen", "vort")):
    state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid})
state, _ = engine.apply(state, {"type": "start", "player": "p0"})
seen = []
for _ in range(260):
    seen.append(legal_actions(engine.content, state))
    action = autoplay.choose(engine.content, state, rnd)
    if action is None:
        break
    state, _ = engine.apply(state, action)
print(json.dumps(seen))
"""


def offered(hash_seed: str) -> list:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout)


def test_the_offered_actions_are_the_same_in_every_process():
    a, b = offered("1"), offered("2")
    assert len(a) > 230, "the game reaches the haunt's monster turns"
    assert a == b
