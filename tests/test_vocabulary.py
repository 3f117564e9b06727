"""The one action vocabulary: every legal action met in auto-played games is
carried by a button and read back the same, gets a label, and (where typed
words can say it) the words `parse` turns back into the same action."""
import pytest

from bot.games.babg import vocabulary
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.actions import VERBS
from bot.games.babg.engine.legal import legal_actions
from tests.test_engine_door import game_points

DISCORD_ID = "123456789012345678"  # what a Discord user's id looks like


@pytest.fixture(scope="module")
def points(engine):
    return game_points(engine, seeds=(3, 9, 24, 29, 47, 58), every=17)


def without_player(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "player"}


def outcome(engine, state, action):
    try:
        state, events = engine.apply(state, action)
    except IllegalAction as e:
        return e.reason
    chain = state.get("undo") or {}
    if "actions" in chain:  # a take-back chain keeps the actions as they were said (a card by name or by id)
        state = {**state, "undo": {**chain, "actions": len(chain["actions"])}}
    return state, events


def test_the_points_meet_every_kind_of_action(points, content):
    kinds = {a["type"] for s in points for a in legal_actions(content, s)}
    assert {"move", "end", "decide", "ready", "attack", "monster", "use"} <= kinds, kinds


def test_every_legal_action_round_trips_through_a_button_and_through_words(points, engine, content):
    said, parsed = 0, 0
    for state in points:
        turn = vocabulary.turn_number(state)
        for action in legal_actions(content, state):
            carried = without_player(action)
            question = vocabulary.pending_key(state) if action["type"] == "decide" else ""
            custom_id = vocabulary.to_custom_id(carried, 987654321, turn, question)
            assert custom_id is not None and len(custom_id) <= 100, (action, custom_id)
            back = vocabulary.from_custom_id(custom_id)
            assert back == vocabulary.ButtonAction(carried, 987654321, turn, question), custom_id
            assert set(back.action) - {"type"} <= set(VERBS[action["type"]])

            label = vocabulary.describe(action, state, content)
            assert label and len(label) <= 80 and label.isprintable(), (action, label)

            words = vocabulary.to_words(action, state, content)
            if words is None:
                continue
            said += 1
            again = vocabulary.parse(words, state, action["player"], content)
            if {k: v for k, v in again.items() if v not in (None, False)} == \
                    {k: v for k, v in action.items() if v not in (None, False)}:
                continue
            # Said by name (a card, a monster, a tile's roll): the engine takes it as the same action.
            parsed += 1
            assert outcome(engine, state, again) == outcome(engine, state, action), (action, words, again)
    assert said > 200 and parsed > 20, (said, parsed)


def test_labels_read_like_the_table():
    state = {"players": {"u1": {"name": "Bo"}}, "monsters": [{"id": "m1", "name": "Beholder", "number": 1}],
             "pending": {"options": ["Lose 1 Sanity", "Lose 1 Might"]}, "turn": {"number": 3}}
    assert vocabulary.describe({"type": "move", "way": "north"}, state, None) == "⬆ North"
    assert vocabulary.describe({"type": "attack", "target": "u1"}, state, None) == "Attack Bo"
    assert vocabulary.describe({"type": "monster", "op": "move", "monster": "m1", "way": "east"}, state,
                               None) == "Beholder 1 east"
    assert vocabulary.describe({"type": "monster", "op": "move", "monster": "m1", "way": "grate"}, state,
                               None) == "Beholder 1 sewer grate"
    assert vocabulary.describe({"type": "decide", "choice": 0}, state, None) == "1. Lose 1 Sanity"
    assert vocabulary.describe({"type": "end"}, state, None) == "End turn"


def test_a_button_carries_discord_ids_and_odd_text_within_100_characters():
    for action in ({"type": "trade", "card": "potion_of_healing", "to": DISCORD_ID},
                   {"type": "monster", "op": "attack", "monster": "m12", "target": DISCORD_ID},
                   {"type": "attack", "target": DISCORD_ID, "trait": "knowledge", "weapon": "crossbow",
                    "reckless": True},
                   {"type": "decide", "choice": "North half: the way; out"},
                   {"type": "counter", "name": "Damage:track", "delta": -2},
                   {"type": "confirm", "agree": False}):
        custom_id = vocabulary.to_custom_id(action, 10 ** 12, 999, "abcdef")
        assert custom_id is not None and len(custom_id) <= 100, (action, custom_id)
        assert vocabulary.from_custom_id(custom_id).action == action


def test_what_a_button_cannot_carry_is_left_to_a_slash_command():
    action = {"type": "use", "card": "x" * 120}
    assert vocabulary.to_custom_id(action, 1, 1) is None
    assert vocabulary.slash_hint(action, {"players": {}}, type("C", (), {"cards": {}})()).startswith("/item use")
    assert vocabulary.to_custom_id({"type": "move", "way": "north", "speed": 3}, 1, 1) is None  # no such field


@pytest.mark.parametrize("text", ["", "bg2:1:1::", "bg2:1:1::zz", "bg2:1:1::mv;q=north", "bg2:1:1::mv;w",
                                  "bg2:x:1::en", "bg:move:west:", "bg2:1:1::ch;i=one", "bg2:1:1::cf;y=2",
                                  "bg2:1:1::mv;w=a;w=b"])
def test_a_custom_id_that_is_not_an_action_is_not_read_as_one(text):
    assert vocabulary.from_custom_id(text) is None


def test_parse_keeps_the_tables_words():
    state = {"phase": "exploring", "pending": None, "seats": ["ann", "bo"], "haunt": None,
             "players": {"ann": {"name": "Ann"}, "bo": {"name": "Bo"}}, "turn": {"player": "ann", "number": 1}}
    assert vocabulary.parse("n", state) == {"type": "move", "player": "ann", "way": "north"}
    assert vocabulary.parse("move up", state) == {"type": "move", "player": "ann", "way": "stairs"}
    assert vocabulary.parse("trade Potion of Healing Bo", state) == {
        "type": "trade", "player": "ann", "card": "Potion of Healing", "to": "bo"}
    assert vocabulary.parse(["choose", "2"], state, "bo") == {"type": "decide", "player": "bo", "choice": 1}
    assert vocabulary.parse("attack Bo speed with Crossbow reckless", state) == {
        "type": "attack", "player": "ann", "target": "bo", "trait": "speed", "weapon": "Crossbow", "reckless": True}
    assert vocabulary.parse("counter Damage =5", state) == {"type": "counter", "player": "ann", "name": "Damage",
                                                            "value": 5}
    for words, reason in (("fly", "Unknown command 'fly'. Type help for the list."),
                          ("confirm yes", "Each player answers for themselves"),
                          ("choose 0", "Options are numbered from 1."),
                          ("trade Bo", "`trade <item> <player>`")):
        with pytest.raises(IllegalAction, match=reason):
            vocabulary.parse(words, state)
