"""An opponent across a barrier gets no Attack button, and the turn's
controls say why instead of leaving the player to guess."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import across_barrier, legal_actions
from bot.games.babg.discord.views import turn_controls
from tests.test_haunt_play import all_ready, revealed


def test_an_opponent_across_the_barrier_is_named_with_why(engine):
    # Tile: Assassin's Run (adventurers on opposite halves cannot attack each other); Rulebook: Make an Attack
    g = revealed(engine)  # haunt 18: Ann is the traitor
    all_ready(g)
    pid = g.state["turn"]["player"]
    foe = "ann" if pid != "ann" else "bo"
    g.place("assassins_run", "catacomb", 1, 1, rot=0)
    g.put(pid, "assassins_run")
    g.put(foe, "assassins_run")
    g.p(pid)["half"], g.p(foe)["half"] = "north", "south"
    assert not [a for a in legal_actions(engine.content, g.state) if a["type"] == "attack" and a["target"] == foe]
    assert across_barrier(engine.content, g.state) == [foe]
    _, hints = turn_controls(engine.content, g.state, 1)
    assert any(g.p(foe)["name"] in h and "across the barrier of the Assassin's Run" in h for h in hints)
    g.p(foe)["half"] = "north"
    assert across_barrier(engine.content, g.state) == []
    assert [a for a in legal_actions(engine.content, g.state) if a["type"] == "attack" and a["target"] == foe]


def test_the_map_setting_is_checked_and_kept_with_the_game(engine):
    # A table setting, not a rule: when the channel is shown the map (each turn by default)
    assert "map" not in engine.new_game(1)["options"]
    assert engine.new_game(1, options={"map": "round"})["options"]["map"] == "round"
    with pytest.raises(IllegalAction, match="Unknown map setting 'weekly'"):
        engine.new_game(1, options={"map": "weekly"})
