"""The built-in heroes' choices on questions (bot/games/ravenloft/autoplay.py): what a careful group
cancels and which card of two it takes."""

import copy

from bot.games.ravenloft.autoplay import _goal_squares, _target_worth, choose_action, play_auto_game
from bot.games.ravenloft.engine import data, geometry, heroes
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import Ctx

C = load_content()


def _started(seed=3):
    e = Engine(C)
    s = e.new_game(seed, {"adventure": 2})
    for i, h in enumerate(["arjhan", "kat"]):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    return s


def _card(name):
    return next(k for k in C.encounters if data.encounter(C, k)["name"] == name)


def _with_wolf(s):
    wolf = next(k for k in C.monsters if data.monster(C, k)["name"] == "Wolf")
    s["figures"]["m99"] = {"id": "m99", "monster": wolf, "name": "Wolf", "square": "0,1", "hp": 1, "max_hp": 1,
                           "villain": False, "large": False}
    return s


def _ask_cancel(s, card):
    pid = s["turn"]["player"]
    s["pending"] = {"player": pid, "kind": "cancel", "card": card, "prompt": "cancel?",
                    "options": ["cancel it", "let it happen"]}
    return choose_action(C, s, pid)["choice"]


def test_frenzy_cancelled_only_while_monsters_are_about():
    # Castle Ravenloft rulebook: Encounter Cards (experience spent to cancel one)
    s = _started()
    s["figures"] = {}
    assert _ask_cancel(s, _card("Frenzy")) == "let it happen"
    assert _ask_cancel(_with_wolf(s), _card("Frenzy")) == "cancel it"


def test_music_keeps_the_placed_card_when_the_other_left_the_discard_pile():
    # Castle Ravenloft rulebook: Monster Cards (Music of the Damned: two of one level, the player picks)
    s = _started()
    pid = s["turn"]["player"]
    d = s["decks"]["monster"]
    by_xp = sorted((data.monster(C, data.card_monster(C, c))["xp"], c) for c in d["deck"] + d["discard"])
    strong, weak = by_xp[-1][1], by_xp[0][1]
    s["figures"] = {}
    s["pending"] = {"player": pid, "kind": "music", "prompt": "which?", "options": ["the strong", "the weak"],
                    "figure": "m1", "cards": [strong, weak]}
    s["decks"]["monster"]["discard"] = [c for c in s["decks"]["monster"]["discard"] if c != weak]
    assert choose_action(C, s, pid)["choice"] == "the strong"
    s["decks"]["monster"]["discard"].append(weak)
    assert choose_action(C, s, pid)["choice"] == "the weak"


def _states(adv, seeds, n, keep):
    """The states of whole built-in games where `keep(state)` holds, each with its player."""
    found = []

    def on(s, a):
        pid = s["pending"]["player"] if s["pending"] else s["turn"]["player"]
        if s["phase"] == "play" and keep(s, pid):
            found.append((copy.deepcopy(s), pid))
    for seed in seeds:
        play_auto_game(C, seed, adv, n, on_action=on)
    return found


def test_a_hero_next_to_the_young_vampire_on_the_fountain_stays_there():
    # Castle Ravenloft rulebook: Adventure 5, The Final Transformation (heroes on the Dark Fountain
    # while the Young Vampire is on it take its tokens; a villain with no hero near walks on)
    def keep(s, pid):
        fountain = next((k for k, t in s["tiles"]["placed"].items() if t["tile"] == "dark_fountain"), None)
        on_it = any(f.get("villain") and geometry.tile_at_square(f["square"]) == fountain for f in s["figures"].values())
        ctx = Ctx(C, s)
        return not s["pending"] and on_it and heroes.on_map(ctx, pid) and heroes.xy(ctx, pid) in _goal_squares(ctx, pid)
    found = _states(5, range(12), 3, keep)
    assert len(found) > 20
    for s, pid in found:
        held = {geometry.name(*q) for q in _goal_squares(Ctx(C, s), pid)}
        a = choose_action(C, s, pid)
        assert a["type"] != "move" or a["to"] in held, a


def test_the_phylactery_matters_more_than_any_monster_or_villain():
    # Castle Ravenloft rulebook: Attacks (a hero picks the target); our Phylactery Hunt: its fall wins
    def keep(s, pid):
        return not s["pending"] and any(f["monster"] == "phylactery" for f in s["figures"].values()) and \
            any(f.get("villain") for f in s["figures"].values())
    found = _states("the_phylactery_hunt", range(10), 2, keep)
    assert len(found) > 5
    for s, pid in found:
        ctx = Ctx(C, s)
        worth = {f["monster"]: _target_worth(ctx, f) for f in s["figures"].values()}
        assert worth["phylactery"] > max(v for k, v in worth.items() if k != "phylactery"), worth
