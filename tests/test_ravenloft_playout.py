"""Random playouts of the Castle Ravenloft engine with the built-in heroes, checking invariants after
every action: HP within 0..max, one figure per square and never in a wall, every card in exactly one
place, legal actions all accepted, replay from seed and log equal, every game ending."""

import json

import pytest

from bot.games.ravenloft.autoplay import choose_action
from bot.games.ravenloft.engine import data, geometry
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.legal import legal_actions
from bot.games.ravenloft.engine.view import view
from bot.games.ravenloft.engine.content import load_content as content

C = content()
TEAMS = {1: ["kat"], 2: ["arjhan", "kat", "thorgrim"], 3: ["immeril", "allisa"], 4: ["thorgrim", "allisa"],
         5: ["arjhan", "immeril"], "the_phylactery_hunt": ["kat", "arjhan"], "wings_over_the_fog": ["allisa"],
         "the_stitched_servant": ["thorgrim", "kat", "immeril"]}


def cards_everywhere(s):
    out = []
    for d in s["decks"].values():
        out += d["deck"] + d["discard"]
    out += s["xp"] + s["set_aside"] + s.get("villain_cards", [])
    for p in s["players"].values():
        out += [c["card"] for c in p.get("cards", [])] + p.get("items", []) + p.get("holding", [])
        out += p.get("objects", [])
    out += [b["card"] for b in s["blessings"]]
    if s["environment"]:
        out.append(s["environment"])
    out += [m["object"] for m in s["markers"] if m["kind"] == "object" and m.get("object")]
    q = [s["pending"]] + s.get("questions", []) if s["pending"] else []
    out += [x["card"] for x in q if x["kind"] == "cancel"]
    return out


def check(s):
    assert json.loads(json.dumps(s)) == s
    for p in s["players"].values():
        if "hp" in p:
            assert 0 <= p["hp"] <= p["max_hp"]
    taken = {}
    for f in s["figures"].values():
        assert 0 <= f["hp"] <= f["max_hp"]
        x, y = geometry.parse(f["square"])
        assert geometry.is_floor(s, x, y), f
        assert f["square"] not in taken
        taken[f["square"]] = f["id"]
    for pid, p in s["players"].items():
        if p.get("square") and not p.get("escaped"):
            assert geometry.is_floor(s, *geometry.parse(p["square"]))
            assert p["square"] not in taken
            if s["turn"] is None or s["turn"]["phase"] != "hero" or s["turn"]["player"] != pid:
                pass
    # every card in one place
    cards = cards_everywhere(s)
    full = list(C.monsters) + list(C.encounters) + list(C.treasures) + list(C.villains)
    assert sorted(cards) == sorted(full)


def play(seed, adv, check_legal=False):
    e = Engine(C)
    s = e.new_game(seed, {"adventure": adv})
    log = []
    for i, h in enumerate(TEAMS[adv]):
        a = {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h}
        s, _ = e.apply(s, a)
        log.append(a)
    a = {"type": "start", "player": "p0"}
    s, _ = e.apply(s, a)
    log.append(a)
    n = 0
    while s["phase"] != "over" and n < 4000:
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        if check_legal and n % 7 == 0:
            for la in legal_actions(C, s, pid):
                e.apply(s, la)
        a = choose_action(C, s, pid)
        before = json.dumps(s, sort_keys=True)
        s, _ = e.apply(s, a)
        assert before != json.dumps(s, sort_keys=True)
        log.append(a)
        check(s)
        v = view(s, pid)
        assert isinstance(v["decks"]["monster"]["deck"], int)
        n += 1
    return e, s, log, n


@pytest.mark.parametrize("adv", list(TEAMS))
def test_playouts_end_and_keep_invariants(adv):
    results = []
    for seed in range(4):
        e, s, log, n = play(seed, adv, check_legal=seed == 0)
        assert s["phase"] == "over" and s["outcome"]["result"] in ("victory", "defeat")
        results.append((s["outcome"]["result"], n))
        if seed == 0:
            r = e.new_game(seed, {"adventure": adv})
            for a in log:
                r, _ = e.apply(r, a)
            assert r == s
    print(adv, results)
