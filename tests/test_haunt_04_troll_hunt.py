"""Haunt 4, Troll Hunt! (no traitor), played through the engine's actions:
the setup, the Troll's turn after every hero turn, its hit points and fire,
Beshaba's roll, Alchemist's Fire, and both ways the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

HP, MAX, SUPPLY = "Troll hit points", "Troll maximum hit points", "Alchemist's Fire"


def troll_hunt(engine):
    """Ann reveals haunt 4 on the Beast's Lair; Bo plays first, then the
    Troll, then Cy... Unqueued dice show 0: Beshaba's roll is then
    "Lightning strikes!", which touches nobody while no hero is on a street."""
    g = revealed(engine, "beasts_lair", "symbol_of_bhaal")
    assert g.state["haunt"]["number"] == 4 and g.state["haunt"]["kind"] == "no_traitor"
    all_ready(g)
    return g


def counters(g):
    return g.state["haunt"]["counters"]


def troll(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Troll")


def test_setup_places_the_troll_and_sets_its_hit_points(engine):
    # Secrets of Survival, haunt 4: "Right Now" (the Troll on the omen tile; both sliders at adventurers + 1;
    # one Alchemist's Fire per adventurer set aside)
    g = troll_hunt(engine)
    assert troll(g)["tile"] == "beasts_lair"
    assert counters(g) == {HP: 4, MAX: 4, SUPPLY: 3}
    assert not any("by hand" in t for t in g.texts())


def test_the_troll_takes_a_turn_after_every_hero_turn(engine, dice):
    # Secrets of Survival, haunt 4: "You Must Do This at the End of Your Turn" (a monster turn after each hero turn)
    g = troll_hunt(engine)
    seen = []
    for _ in range(6):
        turn = g.state["turn"]
        seen.append("Troll" if turn.get("monsters") else turn["player"])
        g.do("end", turn["player"])
    assert seen == ["bo", "Troll", "cy", "Troll", "ann", "Troll"]
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")


def test_damage_lowers_the_hit_points_instead_of_stunning(engine, dice):
    # Secrets of Survival, haunt 4: "Damaging the Troll" (the bottom slider goes down by the damage)
    g = troll_hunt(engine)
    g.put("bo", "beasts_lair")
    dice.next(1, 1)           # Bo (Lia) attacks with Might: 2
    dice.next(0, 0, 0, 0)     # the Troll defends: 0
    g.do("attack", "bo", target="Troll")
    assert counters(g)[HP] == 2 and counters(g)[MAX] == 4
    assert not troll(g)["stunned"]


def test_the_troll_regenerates_without_fire_but_not_above_its_maximum(engine, dice):
    # Secrets of Survival, haunt 4: "You Must Do This at the End of Your Turn", step 1
    g = troll_hunt(engine)
    g.do("end", "bo")                      # the Troll's turn: already at its maximum
    assert counters(g)[HP] == 4
    g.do("end", "ann")
    g.put("cy", "beasts_lair")
    dice.next(1, 1)                        # Cy attacks: 2 against 0
    g.do("attack", "cy", target="Troll")
    assert counters(g)[HP] == 2
    g.do("end", "cy")                      # no fire this turn: the Troll heals 1
    assert g.state["turn"].get("monsters") and counters(g)[HP] == 3
    assert any("The Troll regenerates" in t for t in g.texts())


def test_alchemists_fire_is_found_on_a_building_and_burns_both_sliders(engine, dice):
    # Secrets of Survival, haunt 4: "Obtaining Alchemist's Fire", "How to Use Alchemist's Fire" and
    # "Damaging the Troll" (fire damage lowers both sliders; no regeneration after a fiery turn)
    g = troll_hunt(engine)
    troll(g)["tile"] = "kitchen"           # two tiles west of the Elfsong Tavern, in line of sight
    dice.next(2, 2)                        # Bo's Knowledge roll: 4
    g.do("task", "bo", trait="knowledge", task="search")
    assert counters(g)[SUPPLY] == 2 and "bo" in g.state["haunt"]["h04"]["carrying"]
    assert {"name": "Searched", "tile": "elfsong_tavern"} in g.state["tokens"]
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="speed", task="search")
    dice.next(1)                           # Bo's Speed attack: 1
    dice.next(0, 0, 0, 0)                  # the Troll's Speed defence: 0
    g.do("task", "bo", trait="speed", task="throw")
    assert counters(g)[HP] == 3 and counters(g)[MAX] == 3
    assert g.state["haunt"]["h04"]["carrying"] == []
    g.do("end", "bo")
    assert g.state["turn"].get("monsters") and counters(g)[HP] == 3  # burnt: no healing


def test_a_searched_building_gives_no_second_bottle(engine, dice):
    # Secrets of Survival, haunt 4: "Obtaining Alchemist's Fire" (one per building tile)
    g = troll_hunt(engine)
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    g.do("end", "bo")
    g.do("end", "ann")
    with pytest.raises(IllegalAction, match="already given up"):
        g.do("task", "cy", trait="knowledge", task="search")


def test_a_missed_throw_from_another_tile_costs_nothing(engine, dice):
    # Secrets of Survival, haunt 4: "How to Use Alchemist's Fire" (lose from another tile: no damage)
    g = troll_hunt(engine)
    troll(g)["tile"] = "kitchen"
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    before = dict(g.p("bo")["traits"])
    dice.next(0, 0, 0, 0)                  # Bo: 0
    dice.next(2, 2, 0, 0)                  # the Troll: 4
    g.do("task", "bo", trait="speed", task="throw")
    assert g.p("bo")["traits"] == before and counters(g)[HP] == 4
    assert any("takes no damage" in t for t in g.texts())


def test_the_fire_band_burns_a_troll_on_a_building(engine, dice):
    # Secrets of Survival, haunt 4: "You Must Do This at the Start of Your Turn", 3-4 (A fire breaks out)
    g = troll_hunt(engine)
    troll(g)["tile"] = "kitchen"           # a building tile
    g.do("end", "bo")                      # the Troll's Speed roll: 0
    dice.next(2, 1, 0, 0)                  # Cy's Beshaba roll: 3
    for _ in range(3):                     # Cy, Ann and Bo stand on the Elfsong Tavern: each Knowledge 4+
        dice.next(2, 2, 2, 2)
    dice.next(1)                           # the Troll's die: 1
    g.do("end", "ann")
    assert any("A fire breaks out" in t for t in g.texts())
    knowledge = [e["player"] for e in g.events if e["kind"] == "roll" and "Knowledge" in e["text"]]
    assert knowledge == ["cy", "ann", "bo"]
    assert counters(g)[HP] == 3 and counters(g)[MAX] == 3


def test_terrible_luck_strikes_street_building_and_catacomb(engine, dice):
    # Secrets of Survival, haunt 4: "You Must Do This at the Start of Your Turn", 0-2, 3-4, 5-6 and 7-8
    g = troll_hunt(engine)
    g.place("dead_end", "city", 3, 0)
    g.put("ann", "dead_end")               # a street tile
    g.put("bo", "kitchen_basement")        # a catacomb tile
    g.do("end", "bo")
    dice.next(2, 2, 2, 2)                  # Cy's Beshaba roll: 8; every trait roll then fails on zeros
    g.do("end", "ann")
    g.decide_all()
    rolls = [(e["player"], e["text"].split(" rolls ")[1].split(" (")[0]) for e in g.events if e["kind"] == "roll"]
    assert [r for r in rolls if r[1] in ("Speed", "Knowledge", "Might")] == \
        [("ann", "Speed"), ("cy", "Knowledge"), ("bo", "Might")]
    assert any("Terrible luck" in t for t in g.texts())


def test_the_heroes_win_when_the_troll_has_no_hit_points_left(engine, dice):
    # Secrets of Survival, haunt 4: "You Win When..." (the bottom slider at 0)
    g = troll_hunt(engine)
    g.put("bo", "beasts_lair")
    dice.next(2, 2)
    g.do("attack", "bo", target="Troll")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"
    assert counters(g)[HP] == 0


def test_the_heroes_lose_when_the_troll_kills_the_last_of_them(engine, dice):
    # Rulebook: Winning the Game (a hero must be alive); Secrets of Survival, haunt 4: "If You Lose..."
    g = troll_hunt(engine)
    for pid in ("ann", "cy"):
        g.p(pid)["alive"] = False
    g.p("bo")["traits"].update(might=1, speed=1)
    g.put("bo", "beasts_lair")
    g.do("end", "bo")                      # the Troll's turn, run by Ann, the haunt revealer
    assert g.state["turn"].get("monsters")
    dice.next(2, 2, 2, 2)                  # the Troll's Might: 8
    g.do("monster", "ann", op="attack", monster="Troll", target="bo")
    g.decide_all()
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"
    assert any("The heroes are lost" in t for t in g.texts())


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 4: "Obtaining Alchemist's Fire" (a search on an unsearched building, once a
    # turn) and "How to Use Alchemist's Fire" (a throw only with a bottle): the buttons and the built-in
    # players see exactly what the engine allows
    def offered():
        return {(a["trait"], a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    g = troll_hunt(engine)
    troll(g)["tile"] = "kitchen"
    assert offered() == {("knowledge", "search"), ("speed", "search")}   # Bo is on the Elfsong Tavern, no bottle
    before = g.state
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    assert offered() == {("speed", "throw")}                               # searched this turn; a bottle to throw
    assert before["haunt"]["counters"][SUPPLY] == 3                        # offering tried copies only
    goals = set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo"))
    assert goals == {"kitchen"}                                            # with a bottle: after the Troll
