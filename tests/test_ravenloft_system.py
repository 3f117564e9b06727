"""Castle Ravenloft through the game-system contract only (bot.kit.contract): a whole game, words,
labels, texts and the story."""

import json

import pytest

from bot.games.ravenloft.system import SYSTEM
from bot.kit.contract import SHARED_VERBS, GameSystem
from bot.kit.errors import IllegalAction


def _lobby(adv="2", n=2, seed=4):
    s = SYSTEM.new_game(seed, {"adventure": adv, "surges": "2", "powers": "suggested"})
    for i, (shown, hero) in enumerate(SYSTEM.picks(s)[:n]):
        s, _ = SYSTEM.apply(s, SYSTEM.join_action(f"p{i}", f"P{i}", hero, builtin=i > 0))
    return s


def test_declares_the_contract():
    # Castle Ravenloft rulebook: Game Setup (the options a table picks before play)
    assert isinstance(SYSTEM, GameSystem) and SYSTEM.id == "ravenloft" and SYSTEM.players == (1, 5)
    names = {c.name for c in SYSTEM.commands}
    assert set(SHARED_VERBS) <= names and {"disable", "use", "pickup"} <= names
    opts = {o.name: o for o in SYSTEM.options}
    assert set(opts) == {"adventure", "surges", "powers"}
    assert any("Escape the Tomb (1 hero)" == shown for shown, _ in opts["adventure"].choices)
    assert {v for _, v in opts["powers"].choices} == {"suggested", "chosen", "random"}


def test_a_whole_game_through_the_contract():
    # Castle Ravenloft rulebook: Taking Turns (a game from setup to its end)
    s = _lobby()
    assert SYSTEM.actor(s) is None and SYSTEM.phase(s) == "lobby"
    s, _ = SYSTEM.apply(s, SYSTEM.start_action("p0"))
    n = 0
    while SYSTEM.phase(s) != "over":
        seat = SYSTEM.actor(s)
        legal = SYSTEM.legal_actions(s, seat)
        assert legal and all(SYSTEM.describe(a, s) for a in legal)
        a = SYSTEM.builtin_action(s, seat, None)
        s, events = SYSTEM.apply(s, a)
        assert all(e["to"] == "all" or e["to"] in s["players"] for e in events)
        n += 1
        assert n < 3000
    json.dumps(SYSTEM.view(s, "p0"))
    story = SYSTEM.story(s)
    assert story and any("Experience earned" in x for x in story)
    h = SYSTEM.history_entry(s)
    assert h["haunt"] == "Find the Icon of Ravenloft" and len(h["players"]) == 2
    assert "Castle Ravenloft" in SYSTEM.status_text(s)


def test_parse_words_and_suggestions():
    # Castle Ravenloft rulebook: Hero Phase (move, attack, end) in the table's words
    s = _lobby()
    s, _ = SYSTEM.apply(s, SYSTEM.start_action("p0"))
    seat = SYSTEM.actor(s)
    assert SYSTEM.parse("move 3,-2", s, seat) == {"type": "move", "player": seat, "to": "3,-2"}
    power = next(iter(s["players"][seat]["powers"]))
    number = SYSTEM.content().powers[power].number
    a = SYSTEM.parse(f"attack m3 with {number}", s, seat)
    assert a == {"type": "attack", "player": seat, "power": power, "target": "m3"}
    assert SYSTEM.parse("end north", s, seat)["explore"] == "N"
    assert SYSTEM.parse("choose 2", s, seat) == {"type": "decide", "player": seat, "choice": 2}
    assert SYSTEM.parse("undo", s, seat)["type"] == "undo"
    with pytest.raises(IllegalAction):
        SYSTEM.parse("dance", s, seat)
    sq = SYSTEM.commands[0].params[0].suggest(SYSTEM, s, seat)
    assert sq and all("," in v for _, v in sq)
    mv = SYSTEM.commands[0].action(s, seat, {"square": sq[0][1]})
    s2, _ = SYSTEM.apply(s, mv)
    s3, ev = SYSTEM.apply(s2, SYSTEM.parse("undo", s2, seat))
    assert s3["players"][seat]["square"] == s["players"][seat]["square"]
    assert SYSTEM.describe(mv, s).startswith("move to ")


def test_status_map_and_sheet():
    # Castle Ravenloft rulebook: The Dungeon Tile Stack (the Start tile's two halves on the map)
    s = _lobby(adv="3", n=3)
    s, _ = SYSTEM.apply(s, SYSTEM.start_action("p0"))
    text = SYSTEM.status_text(s)
    assert "#" in text and "=" in text and "HP" in text and "Healing surges: 2" in text
    for pid in s["seats"]:
        sheet = SYSTEM.sheet_text(s, pid)
        assert "HP" in sheet and "AC" in sheet
    assert SYSTEM.help_topics() and all({"id", "title", "text"} <= set(t) for t in SYSTEM.help_topics())


def test_view_hides_the_decks_and_the_take_back_base():
    # Castle Ravenloft rulebook: The Monster Deck, The Encounter Deck (cards are drawn unseen)
    s = _lobby()
    s, _ = SYSTEM.apply(s, SYSTEM.start_action("p0"))
    seat = SYSTEM.actor(s)
    mv = SYSTEM.legal_actions(s, seat)[0]
    s, _ = SYSTEM.apply(s, mv)
    v = SYSTEM.view(s, "p1")
    assert isinstance(v["decks"]["monster"]["deck"], int) and "base" not in v["undo"]
