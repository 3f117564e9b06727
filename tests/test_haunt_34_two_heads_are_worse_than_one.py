"""Haunt 34, Two Heads Are Worse Than One (no traitor at first), played
through the engine's actions: the Executioner's Block fetched, the struggle
for control at the start of each turn, the evil head's march, losing a head
on the Block or in the Kitchen, Sanity spilling over, beheading, sabotage
and repair of the Block, heroes turning traitor (the Tome sent to them
alone), and the majority wins."""
import pytest

from bot.games.babg.engine import IllegalAction, haunt_play
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine import traits
from tests.test_haunt_play import revealed

KEY = "h34"


def two_heads(engine, fetch=0):
    """Four players; Ann draws the Berserker Axe on the Shrine to Gargauth:
    haunt 34; play starts at Bo (the revealer's left), then Cy, Di, Ann."""
    g = revealed(engine, "shrine_to_gargauth", "berserker_axe", advs=("torskar", "lia", "gretchen", "grim"))
    assert g.state["haunt"]["number"] == 34 and g.state["haunt"]["traitors"] == []
    for pid in g.state["seats"]:
        if not g.state["haunt"]["started"]:
            g.do("ready", pid)
    return g


def started(engine, dice=None):
    g = two_heads(engine)
    if dice:
        dice.next(0)  # the struggle of Bo's first turn: 0
        dice.next(2)  # Bo's Sanity: 2, he keeps control
    g.decide_all(0)
    return g


def sane(g):
    return g.state["haunt"][KEY]["sane"]


def obstacles(g):
    return [t for t in g.state["tokens"] if t["name"] == "Obstacle" and t["tile"] == "executioners_block"]


def test_setup_fetches_the_block_to_the_door_nearest_the_elfsong_and_mends_traits(engine):
    # Secrets of Survival, haunt 34: "Right Now" (Obstacle tokens = adventurers; the Executioner's Block to the
    # closest open door to the Elfsong Tavern, any kind; Speed and Sanity back to their start)
    g = revealed(engine, "shrine_to_gargauth", "berserker_axe", advs=("torskar", "lia", "gretchen", "grim"))
    start = g.c.adventurers[g.p("bo")["adventurer"]].tracks["speed"].start
    g.state["players"]["bo"]["traits"]["speed"] = start - 1
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h34_block_door"
    assert all("Elfsong Tavern" in o for o in pending["options"])  # only the nearest doors, of any kind
    g.decide_all(0)
    assert "executioners_block" in g.state["board"]
    assert g.state["haunt"]["counters"]["Sabotage tokens in reserve"] == 4
    assert g.p("bo")["traits"]["speed"] == start
    assert g.state["turn"]["player"] == "bo"


def test_the_struggle_is_rolled_by_the_player_on_the_right_and_a_loss_marches_to_the_block(engine, dice):
    # Secrets of Survival, haunt 34: "You Must Do This at the Start of Your Turn" (Sanity 4 dice from the right,
    # +1 per traitor; lose: -1 Sanity, move toward the Executioner's Block).
    # Ruling: losing the struggle (the bot walks the hero up to their Speed toward the Block; the turn ends).
    g = two_heads(engine)
    dice.next(2, 2, 2, 2)  # the evil head: 8
    dice.next(1)  # Bo: 1
    g.decide_all(0)
    texts = [e["text"] for e in g.events]
    assert any("Ann rolls Sanity 4 for Bo's evil head" in t for t in texts)  # Ann sits on Bo's right
    assert g.p("bo")["tile"] == "executioners_block"
    assert g.state["turn"]["player"] == "cy"


def test_losing_on_the_block_takes_an_obstacle_then_the_sane_head(engine, dice):
    # Secrets of Survival, haunt 34: "Losing Your Head" (on the Block: remove 1 Obstacle; with none, the sane head is
    # chopped off and you become a traitor)
    # Ruling: losing the struggle (on the Block no Sanity is lost and the turn ends).
    g = started(engine, dice)
    g.put("cy", "executioners_block")
    g.state["tokens"].append({"name": "Obstacle", "tile": "executioners_block"})
    dice.next(2, 2, 2, 2)
    dice.next(0)
    g.do("end", "bo")
    assert obstacles(g) == [] and g.state["haunt"]["traitors"] == []  # the Obstacle went, the head stays
    assert g.p("cy")["tile"] == "executioners_block" and g.state["turn"]["player"] == "di"  # Cy's turn is over


def test_no_obstacle_left_the_block_makes_a_traitor_who_alone_reads_the_tome(engine, dice):
    # Secrets of Survival, haunt 34: "Losing Your Head"; Traitor's Tome, haunt 34: "Right Now"
    g = started(engine, dice)
    g.put("cy", "executioners_block")
    dice.next(2, 2, 2, 2)
    dice.next(0)
    events = g.do("end", "bo")
    assert g.state["haunt"]["traitors"] == ["cy"] and g.state["haunt"]["kind"] == "several_traitors"
    tome = g.c.haunts[34].raw["traitor"]["section"][1]["text"].strip()[:40]
    assert {e["to"] for e in events if tome in e["text"]} == {"cy"}
    # Ruling: the order of play as heroes turn (unchanged).
    assert g.state["order"] == ["bo", "cy", "di", "ann", "monsters"]


def test_sanity_at_the_skull_turns_a_hero_traitor_instead_of_killing(engine):
    # Secrets of Survival, haunt 34: "Sanity Spill"; Traitor's Tome, "Right Now" (1 step above the skull)
    g = started(engine)
    g.state["players"]["cy"]["traits"]["sanity"] = 1
    traits.change(Ctx(g.c, g.state), "cy", "sanity", -1)
    assert g.p("cy")["alive"] and g.p("cy")["traits"]["sanity"] == 1
    assert g.state["haunt"]["traitors"] == ["cy"]


def test_in_the_kitchen_a_won_struggle_lets_you_cut_off_the_evil_head(engine, dice):
    # Secrets of Survival, haunt 34: "Losing Your Head" (Kitchen: Might 4+, +1 die per sane hero there; you then
    # skip the struggle)
    g = started(engine, dice)
    with pytest.raises(IllegalAction, match="Kitchen"):
        g.do("task", "bo", trait="might", task="chop")
    g.put("cy", "kitchen")
    g.state["haunt"][KEY]["sane"] = ["ann"]
    g.put("ann", "kitchen")
    dice.next(0)  # the evil head: 0
    dice.next(1)  # Cy: 1
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy"
    dice.next(2, 2)  # Might with Ann's die: 4
    g.do("task", "cy", trait="might", task="chop")
    roll = next(e for e in g.events if e.get("kind") == "roll")
    assert len(roll["faces"]) == g.value("cy", "might") + 1
    assert "cy" in sane(g)


def test_a_tie_in_the_struggle_keeps_control(engine, dice):
    # Ruling: a tie in the struggle for control (the hero keeps control).
    g = two_heads(engine)
    dice.next(1)  # the evil head: 1
    dice.next(1)  # Bo: 1
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo" and g.p("bo")["tile"] == "elfsong_tavern"


def test_a_sane_hero_skips_the_struggle(engine, dice):
    # Secrets of Survival, haunt 34: "Losing Your Head" (you ignore the roll to fight for control from then on)
    g = started(engine, dice)
    g.state["haunt"][KEY]["sane"] = ["cy"]
    events = g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy" and not any("wrestles" in e["text"] for e in events)


def test_sabotage_by_a_sane_hero_and_repair_by_a_traitor(engine, dice):
    # Secrets of Survival, haunt 34: "Sabotaging the Executioner's Block" (sane hero, Speed 4+, once a turn);
    # Traitor's Tome, haunt 34: "Fixing the Executioner's Block" (Speed 3+, once a turn)
    g = started(engine, dice)
    g.put("bo", "executioners_block")
    with pytest.raises(IllegalAction, match="sane hero"):
        g.do("task", "bo", trait="speed", task="sabotage")
    g.state["haunt"][KEY]["sane"] = ["bo"]
    dice.next(2, 2)  # 4
    g.do("task", "bo", trait="speed", task="sabotage")
    assert len(obstacles(g)) == 1 and g.state["haunt"]["counters"]["Sabotage tokens in reserve"] == 3
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="speed", task="sabotage")
    g.state["haunt"]["traitors"] = ["cy"]
    g.put("cy", "executioners_block")
    g.do("end", "bo")
    dice.next(2, 1)  # 3
    g.do("task", "cy", trait="speed", task="fix")
    assert obstacles(g) == [] and g.state["haunt"]["counters"]["Sabotage tokens in reserve"] == 4


def test_beheading_with_a_listed_weapon(engine, dice):
    # Both books, haunt 34: "Beheading" (a sane hero's blow of 2+ physical cuts off the evil head; a traitor's the
    # sane head)
    g = started(engine, dice)
    g.state["haunt"][KEY]["sane"] = ["bo"]
    g.give("bo", "berserker_axe")
    g.put("cy", "elfsong_tavern")
    dice.next(2, 2, 2, 2, 2)  # Bo with the axe: 10
    dice.next(0, 0, 0)  # Cy: 0
    g.do("attack", "bo", target="cy", weapon="Berserker Axe")
    g.decide_all(0)
    assert "cy" in sane(g) and g.state["phase"] == "haunt"


def test_a_traitors_beheading_makes_another_traitor(engine, dice):
    # Traitor's Tome, haunt 34: "Beheading" (2+ physical with a listed weapon: the sane head is off, a new traitor)
    g = started(engine, dice)
    g.state["haunt"]["traitors"] = ["bo"]
    g.give("bo", "crossbow")
    g.put("cy", "elfsong_tavern")
    dice.next(2, 2, 2, 2, 2)
    dice.next(0, 0, 0)
    g.do("attack", "bo", target="cy", weapon="Crossbow")
    g.decide_all(0)
    assert g.state["haunt"]["traitors"] == ["bo", "cy"]


def test_who_may_attack_whom(engine):
    # Both books, haunt 34: "Beheading" (a sane hero may attack a two-headed hero only with a beheading weapon)
    # Ruling: a sane hero attacking a two-headed hero (only while holding a beheading weapon).
    g = started(engine)
    g.state["haunt"][KEY]["sane"] = ["bo"]
    g.put("cy", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="on your side"):
        g.do("attack", "bo", target="cy")


def test_the_majority_of_single_heads_wins(engine):
    # Both books, haunt 34: "You Win When..." (most living adventurers evil-headed or sane-headed; a tie goes on)
    g = started(engine)
    ctx = Ctx(g.c, g.state)
    g.state["haunt"][KEY]["sane"] = ["bo", "di"]
    g.state["haunt"]["traitors"] = ["cy", "ann"]
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "haunt"  # a tie with everyone single-headed plays on
    g.state["players"]["ann"]["alive"] = False
    haunt_play.check_wins(ctx)
    assert g.state["result"]["winner"] == "heroes"
    g = started(engine)
    ctx = Ctx(g.c, g.state)
    g.state["haunt"]["traitors"] = ["cy", "ann", "di"]
    haunt_play.check_wins(ctx)
    assert g.state["result"]["winner"] == "traitor"


def test_an_undeclared_move_is_refused(engine):
    g = started(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="behead")
    with pytest.raises(IllegalAction, match="Kitchen"):
        g.do("task", "bo", task="chop", trait="might")


def test_a_seat_handed_over_keeps_its_sane_head(engine, dice):
    # Secrets of Survival, haunt 34, "Losing Your Head" (a sane hero ignores the struggle from then on): the seat's
    # new holder is that same sane hero, and may still sabotage the Block.
    g = started(engine, dice)
    g.state["haunt"][KEY]["sane"] = ["cy"]
    g.do("handover", "cy", to="zed", name="Zed")
    assert sane(g) == ["zed"]
    g.put("zed", "executioners_block")
    events = g.do("end", "bo")
    assert g.state["turn"]["player"] == "zed" and not any("wrestles" in e["text"] for e in events)
    dice.next(2, 2)
    g.do("task", "zed", trait="speed", task="sabotage")
    assert len(obstacles(g)) == 1
