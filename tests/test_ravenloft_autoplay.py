"""The built-in heroes' choices on questions (bot/games/ravenloft/autoplay.py): what a careful group
cancels and which card of two it takes."""

from bot.games.ravenloft.autoplay import choose_action
from bot.games.ravenloft.engine import data
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine

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
