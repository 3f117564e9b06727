"""No text a player reads holds a raw `{move:NAME}` mark once worded for an
adapter (bot.games.babg.vocabulary.spoken): every haunt's rules, its private
texts and every event of a short auto-played game, and each mark names a move
the haunt declares (else the wording falls back to the bare name)."""
import random
import re

import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import rulesets
from bot.games.babg.vocabulary import spoken, spoken_lines, unspoken_marks

MARK = re.compile(r"\{move:([a-z_]+)\}")
AFTER_REVEAL = 120  # actions played once the haunt is revealed


def haunt_game(engine, number: int, seed: int):
    """Every event of a 4-player game of haunt `number` until shortly after its reveal, each with the state it
    came in."""
    state = engine.new_game(seed, "play", {"chosen_haunt": number})
    for i, aid in enumerate(sorted(engine.content.adventurers)[::3][:4]):
        state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": aid})
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    seen, left = [], None
    for _, state, events in autoplay.play(engine, state, random.Random(seed), max_actions=3000):
        seen += [(e, state) for e in events]
        if left is None and state.get("haunt"):
            left = AFTER_REVEAL
        if left is not None:
            left -= 1
            if left <= 0:
                break
    return seen


@pytest.mark.parametrize("number", range(1, 51))
def test_no_move_mark_reaches_a_player(engine, number):
    # Rulebook: Playing the Haunt (each side reads its rules); architecture: an engine text that names a move writes
    # {move:NAME} and each adapter says it its own way. /log recent and /haunt rules read the same texts back.
    events = haunt_game(engine, number, 1000 + number)
    assert any(s.get("haunt") for _, s in events), "the haunt was revealed"
    moves = {m.name for m in getattr(rulesets.REGISTRY.get(number), "moves", ())}
    for e, state in events:
        for name in MARK.findall(e["text"]):
            assert name in moves, f"haunt {number}: {{move:{name}}} names no declared move: {e['text'][:120]}"
        for adapter in ("discord", "table"):
            said = spoken(e["text"], state, adapter)
            assert not unspoken_marks(said), f"haunt {number} ({adapter}): {said[:160]}"
    texts = [e["text"] for e, _ in events]
    last = events[-1][1]
    assert not any(unspoken_marks(t) for t in spoken_lines(texts, last, "discord"))
    private = [e["text"] for e, _ in events if e["to"] not in ("all", "heroes", "traitors")]
    assert not any(unspoken_marks(t) for t in spoken_lines(private, last, "discord"))


def test_the_rules_texts_hold_no_mark(engine):
    # Traitor's Tome and Secrets of Survival: each haunt's rules as the data gives them, and each declared move's
    # label and summary (the rules a player reads)
    for number, haunt in engine.content.haunts.items():
        for book in ("traitor", "heroes"):
            for section in haunt.raw.get(book, {}).get("section", []):
                assert not unspoken_marks(section["text"]), (number, section["heading"])
        for move in getattr(rulesets.REGISTRY.get(number), "moves", ()):
            assert not unspoken_marks(move.label + move.summary), (number, move.name)
