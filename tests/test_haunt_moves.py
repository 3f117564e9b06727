"""A haunt's special moves are declared (bot.games.babg.engine.rulesets.Move): every
move `legal_actions` lists is accepted, a move nobody declared is refused
with the moves open now, an argument outside its declared values is
refused, and a seat handed over in the middle of any haunt leaves the game
playable (each haunt's own record renames the player)."""
import pytest

from bot.games.babg import autoplay, vocabulary
from bot.games.babg.engine import IllegalAction, rulesets
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_rulesets_play import started

WITH_MOVES = sorted(n for n, r in rulesets.REGISTRY.items() if r.moves)
HAUNT_STEPS = 40  # haunt-phase actions checked per game


def test_the_declarations_are_well_formed():
    # Every move has a label and a summary, and names its arguments by kind; the own records name their fields.
    for number, ruleset in rulesets.REGISTRY.items():
        for move in ruleset.moves:
            assert move.label and move.summary, (number, move.name)
        if ruleset.own is not None:
            assert set(ruleset.own.players) <= set(ruleset.own.start), (number, ruleset.own.players)


@pytest.mark.parametrize("number", WITH_MOVES)
def test_every_listed_move_is_applied_and_an_undeclared_one_refused(engine, number):
    state, rnd = started(engine, number, seed=number * 31)
    ruleset = rulesets.REGISTRY[number]
    declared = {m.name for m in ruleset.moves}
    seen, steps = 0, 0
    while state["phase"] != "over" and steps < 3000 and seen < HAUNT_STEPS:
        steps += 1
        options = legal_actions(engine.content, state)
        if not options:
            break
        if state["phase"] == "haunt" and state["haunt"].get("started") and not state["pending"]:
            seen += 1
            pid = options[0]["player"]
            for action in [a for a in options if a["type"] == "task"]:
                assert action["task"] in declared
                engine.apply(state, action)  # listed, so accepted
                move = ruleset.move(action["task"])
                for arg in move.args:  # a value outside the declared ones is refused at the door
                    with pytest.raises(IllegalAction):
                        engine.apply(state, {**action, arg.field: "no-such-" + arg.kind})
            word = rnd.choice(["dance", "fly", "bribe", "summon", "pray"])
            if word not in declared:
                with pytest.raises(IllegalAction, match="has no move"):
                    engine.apply(state, {"type": "task", "player": pid, "task": word, "trait": "might"})
        action = autoplay.choose(engine.content, state, rnd)
        state, _ = engine.apply(state, action)
    assert seen > 0, f"haunt {number} never reached a haunt turn"


def test_a_haunt_without_moves_refuses_any_task(engine):
    without = sorted(set(rulesets.REGISTRY) - set(WITH_MOVES)) or [None]
    if without[0] is None:
        pytest.skip("every haunt declares moves")
    state, rnd = started(engine, without[0], seed=5)
    for action in autoplay.play(engine, state, rnd, max_actions=3000):
        state = action[1]
        if state["phase"] == "haunt" and state["haunt"].get("started") and not state["pending"]:
            break
    pid = legal_actions(engine.content, state)[0]["player"]
    with pytest.raises(IllegalAction, match="no special moves"):
        engine.apply(state, {"type": "task", "player": pid, "task": "search", "trait": "knowledge"})


def test_a_listed_move_reads_back_from_its_words_and_its_button(engine):
    # One vocabulary: a move's typed words and its button carry the same action.
    number = 4
    state, rnd = started(engine, number, seed=3)
    checked = 0
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=3000):
        if state["phase"] != "haunt" or state["pending"]:
            continue
        for action in [a for a in legal_actions(engine.content, state) if a["type"] == "task"]:
            words = vocabulary.to_words(action, state, engine.content)
            assert vocabulary.parse(words, state, action["player"], engine.content) == action, words
            carried = vocabulary.from_custom_id(vocabulary.to_custom_id(
                {k: v for k, v in action.items() if k != "player"}, 1, 1))
            assert carried.action == {k: v for k, v in action.items() if k != "player"}
            assert "task" not in vocabulary.describe(action, state, engine.content).lower()
            checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_a_move_named_in_a_text_is_said_as_each_adapter_shows_it(engine):
    state, _ = started(engine, 4, seed=3)
    state = {**state, "phase": "haunt", "haunt": {"number": 4}}
    text = "On a building tile: {move:search}."
    assert vocabulary.spoken(text, state, "table") == "On a building tile: `task search`."
    on_discord = vocabulary.spoken(text, state, "discord")
    assert on_discord == "On a building tile: the **Search for Alchemist's Fire** button."
    assert "`task" not in on_discord


HANDOVER_EVERY = 9  # haunt-phase actions between two handovers
HANDOVER_STEPS = 160  # haunt-phase actions played per game


@pytest.mark.parametrize("number", sorted(rulesets.REGISTRY))
def test_a_seat_handed_over_at_any_step_of_the_haunt_keeps_the_game_playable(engine, number):
    # A handover (any phase) gives the seat, its cards, its turns and its part in the haunt to the new holder.
    state, rnd = started(engine, number, seed=number * 7 + 1)
    handovers, steps, in_haunt = 0, 0, 0
    while state["phase"] != "over" and steps < 2500 and in_haunt < HANDOVER_STEPS:
        steps += 1
        if state["phase"] == "haunt":
            in_haunt += 1
            if in_haunt % HANDOVER_EVERY == 0:
                old = rnd.choice(state["seats"])
                new = f"heir{handovers}"
                state, _ = engine.apply(state, {"type": "handover", "player": old, "to": new, "name": new.upper()})
                handovers += 1
                left = [k for k in ("haunt", "monsters", "tokens", "turn") if old in _ids(state[k])]
                assert not left, f"haunt {number}: {left} still name {old} after the handover"
                check(engine.content, state)
        action = autoplay.choose(engine.content, state, rnd)
        if action is None:
            break
        state, _ = engine.apply(state, action)
    assert handovers > 0 or state["phase"] == "over"
    if state["phase"] != "over":  # and play goes on: every seat, new or old, still has its way forward
        assert legal_actions(engine.content, state), f"haunt {number} stalled after {handovers} handovers"


def _ids(value) -> set:
    """Every string and dict key inside a record."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*map(_ids, value)) if value else set()
    if isinstance(value, dict):
        return set(value) | (set().union(*map(_ids, value.values())) if value else set())
    return set()
