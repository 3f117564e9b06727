"""Haunt 21, Priscilla (one traitor), played through the engine's actions:
the setup, the Speed gouge and the Eye tokens, the traitor who cannot die,
the Holy Symbol coming back, the ritual, and both wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine import cards as cd
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

EYES = "Eyes collected"


def priscilla(engine, advs=("torskar", "lia", "gretchen"), holy_in_discard=False):
    """Ann (Torskar) draws the Eye of Vecna on the Cursed Statue: haunt 21;
    Ann ties for the highest Speed and, as the revealer, is the traitor. The
    order is Bo, Cy, Ann. Ann's setup gains go to Might."""
    g = revealed(engine, "cursed_statue", "eye_of_vecna", advs=advs)
    assert g.state["haunt"]["number"] == 21 and g.state["haunt"]["traitors"] == ["ann"]
    if holy_in_discard:
        g.state["decks"]["item"].remove("holy_symbol")
        g.state["discard"]["item"].append("holy_symbol")
    g.place("fountain", "city", 3, 0)
    all_ready(g)
    return g


def ready(engine, **kw):
    g = priscilla(engine, **kw)
    g.decide_all(0)
    return g


def ann_turn(g):
    g.state["turn"] = {**g.state["turn"], "player": "ann"}


def test_setup_gains_eyes_and_the_holy_symbol(engine):
    # Traitor's Tome, haunt 21: "Right Now" (1 in a chosen trait per hero); Secrets of Survival, haunt 21:
    # "Right Now" (2 Eye tokens each; the Holy Symbol from the discards back into the item deck)
    g = priscilla(engine, holy_in_discard=True)
    events = list(g.events)
    assert g.state["pending"]["player"] == "ann"
    assert g.state["pending"]["options"] == ["Might", "Speed", "Knowledge", "Sanity"]
    might = g.p("ann")["traits"]["might"]
    g.decide_all(0)
    events += g.events
    assert g.p("ann")["traits"]["might"] == might + 2  # 2 heroes
    assert g.state["haunt"]["h21"]["eyes"] == {"bo": 2, "cy": 2}
    assert g.state["haunt"]["counters"][EYES] == 0
    assert "holy_symbol" in g.state["decks"]["item"] and "holy_symbol" not in g.state["discard"]["item"]
    assert g.state["turn"]["player"] == "bo"
    # each side's instructions reach that side only
    assert {e["to"] for e in events if "{move:gouge}" in e["text"]} == {"ann"}
    assert {e["to"] for e in events if "{move:ritual}" in e["text"]} == {"bo", "cy"}
    assert not any("by hand" in e["text"] for e in events)


def test_a_gouge_winning_by_two_deals_damage_and_takes_an_eye(engine, dice):
    # Traitor's Tome, haunt 21: "Special Attack Rules" (Speed against Speed; 2+ damage also takes an Eye);
    # Secrets of Survival, haunt 21: "Eyes, Eyes Everywhere" (the hero loses 1 Sanity)
    # Ruling: haunt 21, when the gouge takes an Eye (a win by 2 or more; the damage is never traded for a theft)
    g = ready(engine)
    ann_turn(g)
    g.put("bo", g.p("ann")["tile"])
    g.p("bo")["traits"].update(might=8, speed=8)
    sanity = g.p("bo")["traits"]["sanity"]
    dice.next(2, 2, 1, 0)  # Ann's Speed: 5
    dice.next(1)  # Bo's Speed: 1
    g.do("task", "ann", trait="speed", task="gouge", target="bo")
    g.decide_all(0)
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] == 16 - 4
    assert g.state["haunt"]["h21"]["eyes"]["bo"] == 1
    assert g.p("bo")["traits"]["sanity"] == sanity - 1
    assert g.state["haunt"]["counters"][EYES] == 1
    with pytest.raises(IllegalAction, match="once per turn"):
        g.do("attack", "ann", target="bo")


def test_a_gouge_by_one_takes_no_eye_and_must_use_speed(engine, dice):
    # Traitor's Tome, haunt 21: "Special Attack Rules" (only 2 or more damage takes an Eye)
    g = ready(engine)
    ann_turn(g)
    g.put("bo", g.p("ann")["tile"])
    g.p("bo")["traits"].update(might=8, speed=8)
    with pytest.raises(IllegalAction, match="rolls speed"):
        g.do("task", "ann", trait="might", task="gouge", target="bo")
    dice.next(1, 1)  # Ann: 2
    dice.next(1)  # Bo: 1
    g.do("task", "ann", trait="speed", task="gouge", target="bo")
    g.decide_all(0)
    assert g.state["haunt"]["h21"]["eyes"]["bo"] == 2 and g.state["haunt"]["counters"][EYES] == 0


def test_losing_both_eyes_kills_the_hero(engine, dice):
    # Traitor's Tome, haunt 21: "Special Attack Rules" (a hero without Eyes is dead); Secrets of Survival, haunt 21:
    # "Eyes, Eyes Everywhere"
    g = ready(engine)
    ann_turn(g)
    g.state["haunt"]["h21"]["eyes"]["bo"] = 1
    g.state["haunt"]["counters"][EYES] = 1
    g.put("ann", "cursed_statue")
    g.put("bo", "cursed_statue")
    g.p("bo")["traits"].update(might=8, speed=8)
    dice.next(2, 2, 0, 0)  # Ann: 4
    dice.next(0)  # Bo: 0
    g.do("task", "ann", trait="speed", task="gouge", target="bo")  # the adventurer on the tile
    g.decide_all(0)
    assert not g.p("bo")["alive"] and g.state["haunt"]["counters"][EYES] == 2


def test_killing_a_hero_takes_every_eye_left_and_the_eyes_win(engine, dice):
    # Traitor's Tome, haunt 21: "Killing a Hero" and "You Win When..." (as many Eyes as heroes at the start)
    g = ready(engine)
    ann_turn(g)
    g.put("bo", g.p("ann")["tile"])
    g.p("bo")["traits"].update(might=1, speed=1)
    dice.next(2, 2, 2, 2, 2)
    g.do("attack", "ann", target="bo")
    g.decide_all(0)
    assert not g.p("bo")["alive"]
    assert g.state["haunt"]["counters"][EYES] == 2
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_priscilla_cannot_fall_to_the_skull(engine, dice):
    # Traitor's Tome, haunt 21: "Special Attack Rules" (a trait would fall to the skull: the step above instead)
    g = ready(engine)
    g.put("bo", g.p("ann")["tile"])
    g.p("ann")["traits"].update(might=1, speed=1)
    dice.next(2, 2, 2)  # Bo (Lia, Might 3): 6 against Ann's 0
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.p("ann")["alive"] and g.p("ann")["traits"]["might"] == 1 and g.p("ann")["traits"]["speed"] == 1
    assert g.state["phase"] == "haunt"


def test_the_holy_symbol_discarded_in_the_haunt_goes_back_into_the_deck(engine):
    # Secrets of Survival, haunt 21: "Right Now" (whenever it is discarded during the haunt)
    g = ready(engine)
    g.give("bo", "holy_symbol")
    ctx = Ctx(g.c, g.state)
    cd.discard(ctx, "holy_symbol")
    assert "holy_symbol" in g.state["decks"]["item"] and "holy_symbol" not in g.state["discard"]["item"]
    assert "holy_symbol" not in g.p("bo")["cards"]


def test_the_ritual_needs_everyone_in_place_and_wins_on_sanity_4(engine, dice):
    # Secrets of Survival, haunt 21: "Completing the Ritual" (every living hero on the Fountain or Priscilla's tile;
    # a Warlock rolls Sanity 4+) and "You Win When..."
    g = ready(engine)
    g.put("bo", "fountain")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "cursed_statue")
    with pytest.raises(IllegalAction, match="Cy"):
        g.do("task", "bo", trait="sanity", task="ritual")
    g.put("cy", "cursed_statue")  # on Priscilla's tile
    dice.next(1, 1, 1)  # 3: not enough
    g.do("task", "bo", trait="sanity", task="ritual")
    assert g.state["phase"] == "haunt"
    with pytest.raises(IllegalAction, match="already attempted"):
        g.do("task", "bo", trait="sanity", task="ritual")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    dice.next(2, 2)
    g.do("task", "bo", trait="sanity", task="ritual")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_other_classes_need_the_holy_symbol_for_the_ritual(engine, dice):
    # Secrets of Survival, haunt 21: "Completing the Ritual", method 2 (any other class, with the Holy Symbol)
    g = ready(engine, advs=("torskar", "lia", "azadeh"))  # Cy plays Azadeh, a Monk
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    g.put("bo", "fountain")
    g.put("cy", "fountain")
    with pytest.raises(IllegalAction, match="Holy Symbol"):
        g.do("task", "cy", trait="sanity", task="ritual")
    g.give("cy", "holy_symbol")
    dice.next(2, 2)
    g.do("task", "cy", trait="sanity", task="ritual")
    assert g.state["haunt"]["winner"] == "heroes"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 21: "Special Attack Rules" (the gouge, in place of the traitor's attack, at a hero on
    # her tile); Secrets of Survival, haunt 21: "Completing the Ritual" (on the Fountain, everyone in place, once)
    def offered():
        return {(a["trait"], a["task"] + (" " + a["target"] if a.get("target") else ""))
                for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    g = ready(engine)
    g.put("bo", "fountain")
    g.put("cy", "elfsong_tavern")
    g.put("ann", "cursed_statue")
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "cy")) == {"fountain"}
    assert offered() == set()                               # Cy is neither on the Fountain nor by Priscilla
    g.put("cy", "fountain")
    assert offered() == {("sanity", "ritual")}
    dice.next(1, 1, 1)
    g.do("task", "bo", trait="sanity", task="ritual")
    assert offered() == set()                               # once a turn
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == set()                               # Priscilla's turn, nobody on her tile
    g.put("cy", "cursed_statue")
    assert offered() == {("speed", "gouge cy")}
    g.state["turn"]["monsters"] = True                      # as if in a monster turn
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "ann", trait="speed", task="gouge", target="cy")


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome and Secrets of Survival, haunt 21: the gouge and the ritual are the haunt's only moves
    g = ready(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="sanity", task="pray")
