"""Castle Ravenloft's hero phase as controls for a phone (bot/games/ravenloft/controls.py): the menu holds
the attacks first, each with the chance the engine itself gives it, then the rest, then squares; the
ends of the phase are buttons; nothing offered is an action the engine refuses."""
import pytest

from bot.games.ravenloft import controls
from bot.games.ravenloft.autoplay import choose_action
from bot.games.ravenloft.engine import combat
from bot.games.ravenloft.system import SYSTEM


def states_with_attacks(seed: int, adventure: int = 2, limit: int = 3):
    s = SYSTEM
    state = s.new_game(seed, {"adventure": adventure})
    for i, hero in enumerate(["kat", "arjhan", "thorgrim"]):
        state, _ = s.apply(state, s.join_action(f"p{i}", f"P{i}", hero))
    state, _ = s.apply(state, s.start_action("p0"))
    found = []
    for _ in range(3000):
        if s.phase(state) == "over" or len(found) >= limit:
            break
        who = s.actor(state)
        if not state.get("pending") and any(a["type"] == "attack" for a in s.legal_actions(state, who)):
            found.append(state)
        state, _ = s.apply(state, choose_action(s.content(), state, who))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_the_menu_offers_attacks_first_with_the_engines_own_chance(seed, monkeypatch):
    # Castle Ravenloft rulebook: Attacking (a d20 plus the bonus, at or above the AC, hits)
    states = states_with_attacks(seed)
    assert states
    for state in states:
        who = SYSTEM.actor(state)
        entries, ends, hints = controls.hero_phase(SYSTEM, state, who)
        legal = SYSTEM.legal_actions(state, who)
        assert all(a in legal for _, a, _ in entries) and all(a in legal for a in ends)
        assert len(entries) <= controls.MENU_ROOM and ends and all(a["type"] == "end" for a in ends)
        kinds = [a["type"] for _, a, _ in entries]
        assert kinds[0] == "attack" and kinds.index("attack") < (kinds.index("move") if "move" in kinds else 99)
        attack = entries[0][1]
        odds = controls.hit_chance(SYSTEM.content(), state, attack)
        if odds is None:
            continue
        hits = 0
        for face in range(1, 21):  # the engine's own answer for each face of the die
            monkeypatch.setattr(combat, "roll_d20", lambda ctx, pid=None, far=False, face=face: face)
            _, events = SYSTEM.apply(state, attack)
            hits += any(e["kind"] == "attack" and ", hits" in e["text"] for e in events)
        assert odds[2] == hits * 5, (entries[0], odds, hits)
        assert f"{odds[2]}% to hit" in entries[0][2]
