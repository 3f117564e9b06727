"""Haunt 22, Battle of the Bhaalspawn (every adventurer a traitor), played
through the engine's actions: the item draw, the revealer's extra turn,
everyone against everyone, and the last one alive. No module message is
private: Secrets of Survival is a stub and everyone reads the Tome."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed


def bhaalspawn(engine, items=None, revealer="bo"):
    """Bo draws the Symbol of Bhaal on the Cursed Statue: haunt 22."""
    g = revealed(engine, "cursed_statue", "symbol_of_bhaal", revealer=revealer)
    h = g.state["haunt"]
    assert h["number"] == 22 and h["kind"] == "several_traitors" and h["traitors"] == ["ann", "bo", "cy"]
    if items is not None:
        g.state["decks"]["item"] = g.state["decks"]["item"][:items]
    for pid in ("ann", "bo", "cy"):
        g.p(pid)["cards"] = []
    all_ready(g)
    return g


def items(g, pid):
    return [c for c in g.p(pid)["cards"] if g.c.cards[c].deck == "item"]


def test_each_draws_three_items_from_the_revealer_to_the_left(engine):
    # Traitor's Tome, haunt 22: "Right Now" (from the revealer, going left, one item at a time, 3 each)
    g = bhaalspawn(engine)
    draws = [e["player"] for e in g.events if e["kind"] == "draw"]
    assert draws == ["bo", "cy", "ann"] * 3
    assert all(len(items(g, pid)) == 3 for pid in ("ann", "bo", "cy"))


def test_the_draw_stops_when_the_item_deck_runs_out(engine):
    # Traitor's Tome, haunt 22: "Right Now" ("or there are no more item cards")
    g = bhaalspawn(engine, items=4)
    assert [len(items(g, p)) for p in ("bo", "cy", "ann")] == [2, 1, 1]
    assert g.state["decks"]["item"] == []


def test_the_revealer_plays_again_first_then_to_the_left(engine):
    # Traitor's Tome, haunt 22: "Right Now" (the revealer takes another turn; then to the left)
    g = bhaalspawn(engine)
    assert g.state["order"][:3] == ["bo", "cy", "ann"]
    seen = []
    for _ in range(4):
        seen.append(g.state["turn"]["player"])
        g.do("end", g.state["turn"]["player"])
    assert seen == ["bo", "cy", "ann", "bo"]


def test_everyone_may_attack_everyone(engine, dice):
    # Traitor's Tome, haunt 22: "What You Know About Your Fellow Traitors" (all hunting one another)
    g = bhaalspawn(engine)
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    dice.next(1)  # 1 against 0: a scratch
    g.do("attack", "bo", target="cy")
    assert any("attacks Cy" in t for t in g.texts())
    # and every other adventurer is an opponent to move past (rulebook: Moving Past Opponents)
    g.decide_all(0)
    g.do("end", "bo")
    ways = g.engine.ways_out(g.state, "cy")
    assert all(w["cost"] >= 3 for w in ways.values() if "blocked" not in w)


def test_the_last_bhaalspawn_alive_wins(engine, dice):
    # Traitor's Tome, haunt 22: "You Win When..."
    g = bhaalspawn(engine)
    g.p("ann")["alive"] = False
    g.put("bo", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    g.p("cy")["traits"].update(might=1, speed=1)
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="cy")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"
    assert any("Bo" in e["text"] and "last Bhaalspawn" in e["text"] for e in g.events)


def test_no_action_of_its_own_and_everyone_hunts_everyone(engine):
    # Traitor's Tome, haunt 22: "What You Know About Your Fellow Traitors" (the others hunt you) and "You Win
    # When..." (the last one alive): nothing but ordinary attacks, and every other Bhaalspawn is a target
    g = bhaalspawn(engine)
    g.put("ann", "kitchen")
    g.put("cy", "inner_chamber")
    assert not any(a["type"] == "task" for a in legal_actions(engine.content, g.state))
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo")) == {"kitchen", "inner_chamber"}


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome, haunt 22: no moves of its own, attacks are the ordinary ones
    g = bhaalspawn(engine)
    with pytest.raises(IllegalAction, match="no special moves"):
        g.do("task", g.state["turn"]["player"], task="duel")
