"""Haunt 10, Rabble Rousers, played through the engine's actions: the
Citizens spread around the Elfsong Tavern, their mob attacks and their
flight when hurt, the Chest that opens part two, the Medusa with its gaze,
its Obstacles and the reflective items, and every way the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine import haunt_play as hp
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

CITIZEN, MEDUSA = "Citizen", "Medusa"
OBSTACLES = "Obstacles under the Medusa"


def rabble(engine, advs=("torskar", "lia", "gretchen")):
    """Ann reveals haunt 10 on the Neglected Shrine with the Cursed Armor and
    is the traitor. Order: Bo, Cy, Ann, the monster turn."""
    g = revealed(engine, "neglected_shrine", "cursed_armor", advs=advs)
    assert g.state["haunt"]["number"] == 10 and g.state["haunt"]["traitors"] == ["ann"]
    return g


def ready(g):
    events = []
    for pid in g.state["seats"]:
        events += g.do("ready", pid)
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    g.events = events
    return events


def living(g, name):
    return [m for m in g.state["monsters"] if m["name"] == name and not m["dead"]]


def mon(g, mid):
    return next(m for m in g.state["monsters"] if m["id"] == mid)


def test_the_citizens_fill_the_rings_around_the_tavern(engine):
    # Secrets of Survival, haunt 10: "Right Now" (heroes on the Tavern; the Chest and 1 Citizen on the Shrine; the
    # rest one a tile around the Tavern ring by ring, never on it; leftovers as near the Tavern as possible)
    g = rabble(engine)
    ready(g)
    citizens = living(g, CITIZEN)
    assert len(citizens) == 9
    assert all(g.p(p)["tile"] == "elfsong_tavern" for p in ("bo", "cy"))
    assert {"name": "Chest", "tile": "neglected_shrine"} in g.state["tokens"]
    count = {t: sum(1 for m in citizens if m["tile"] == t) for t in g.state["board"]}
    assert count["elfsong_tavern"] == 0 and count["neglected_shrine"] >= 1
    assert all(n >= 1 for t, n in count.items() if t != "elfsong_tavern")
    assert not any("by hand" in e["text"] for e in g.events)


def test_the_heroes_pick_within_a_ring_they_cannot_fill(engine):
    # Secrets of Survival, haunt 10: "Right Now" (a ring with more tiles than Citizens left: the heroes place them)
    # Ruling: Haunt 10: where the Citizens go
    g = rabble(engine)
    ctx = Ctx(g.c, g.state)
    hp.attach_fetched(ctx, "dead_end", ("elfsong_tavern", "east", 3))
    hp.attach_fetched(ctx, "murder_row", ("elfsong_tavern", "north", 2))
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    p = g.state["pending"]
    assert p["player"] == "bo" and p["kind"] == "h10_citizen"      # the heroes' side places, not the traitor
    assert p["data"]["tiles"] == ["dead_end", "inner_chamber", "murder_row"]   # the ring next to the Tavern
    g.do("decide", "bo", choice=0)
    assert g.state["pending"]["data"]["tiles"] == ["inner_chamber", "murder_row"]
    g.do("decide", "bo", choice=1)
    citizens = living(g, CITIZEN)
    assert len(citizens) == 9
    count = {t: sum(1 for m in citizens if m["tile"] == t) for t in g.state["board"]}
    assert count["dead_end"] == 2 and count["murder_row"] == 2 and count["inner_chamber"] == 1


def test_each_side_is_told_its_words_in_private(engine):
    # Traitor's Tome and Secrets of Survival, haunt 10: each side's setup words reach that side only
    g = rabble(engine)
    events = ready(g)
    assert {e["to"] for e in events if "Citizens beside one hero attack together" in e["text"]} == {"ann"}
    assert {e["to"] for e in events if "opens the Chest; a Citizen" in e["text"]} == {"bo", "cy"}


def test_a_hurt_citizen_leaves_the_board(engine, dice):
    # Secrets of Survival, haunt 10: "Clearing the Citizens"
    g = rabble(engine)
    ready(g)
    c = living(g, CITIZEN)[1]
    g.put("bo", c["tile"])
    dice.next(1)                           # Bo's Might: 1 against the Citizen's 0
    g.do("attack", "bo", target=f"{CITIZEN} {c['number']}")
    assert mon(g, c["id"])["dead"]


def monster_turn(g):
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_the_citizens_mob_a_hero_and_lose_one_each_per_point(engine, dice):
    # Traitor's Tome, haunt 10: "Special Citizen Mob Attack Rule" (pooled Might; a loss spread 1 point a Citizen)
    # Ruling: Haunt 10: which Citizens join a mob
    g = rabble(engine)
    ready(g)
    monster_turn(g)
    mob = living(g, CITIZEN)[:3]
    for c in mob:
        c["tile"] = g.p("bo")["tile"]
    g.do("monster", "ann", op="attack", monster=f"{CITIZEN} {mob[0]['number']}", target="bo")
    p = g.state["pending"]
    assert p["player"] == "ann" and p["kind"] == "h10_mob" and len(p["options"]) == 3
    dice.next(0, 0, 0, 0, 0, 0)            # the mob: 6 dice, 0
    dice.next(2)                           # Bo: 2
    events = g.do("decide", "ann", choice=2)
    assert any("(6 dice" in e["text"] for e in events if e["kind"] == "roll")
    assert [mon(g, c["id"])["dead"] for c in mob] == [True, True, False]


def test_a_winning_mob_deals_physical_damage(engine, dice):
    # Traitor's Tome, haunt 10: "Special Citizen Mob Attack Rule"
    g = rabble(engine)
    ready(g)
    monster_turn(g)
    mob = living(g, CITIZEN)[:2]
    for c in mob:
        c["tile"] = g.p("cy")["tile"]
    before = dict(g.p("cy")["traits"])
    g.do("monster", "ann", op="attack", monster=f"{CITIZEN} {mob[0]['number']}", target="cy")
    dice.next(2, 1)                        # the mob of 2: 3
    dice.next(0)                           # Cy: 0
    g.do("decide", "ann", choice=1)
    g.decide_all()
    after = g.p("cy")["traits"]
    assert after["might"] + after["speed"] == before["might"] + before["speed"] - 3
    assert after["knowledge"] == before["knowledge"]


def open_chest(g):
    """Bo ends his turn on the Neglected Shrine with its Citizen gone."""
    for c in living(g, CITIZEN):
        if c["tile"] == "neglected_shrine":
            c["tile"] = "kitchen"
    g.put("bo", "neglected_shrine")
    return g.do("end", "bo")


def test_a_guarded_chest_stays_shut(engine):
    # Traitor's Tome, haunt 10: "Dangerous Treasure" (a Citizen on the Shrine keeps the Chest closed)
    g = rabble(engine)
    ready(g)
    g.put("bo", "neglected_shrine")
    g.do("end", "bo")
    assert g.state["haunt"]["part_two"] == [] and g.state["haunt"]["traitors"] == ["ann"]


def test_opening_the_chest_sets_up_part_two(engine):
    # Secrets of Survival, haunt 10: "Opening the Chest"; Traitor's Tome, haunt 10: the read-aloud text and the
    # second "Right Now" (the Medusa on the Shrine, the traitor a hero, the Chest and the Citizens gone, half the
    # living adventurers rounded up in Obstacles, play on from the opener's left)
    # Ruling: Haunt 10: part two
    g = rabble(engine)
    ready(g)
    g.p("cy")["alive"] = False
    events = open_chest(g)
    h = g.state["haunt"]
    assert g.state["phase"] == "haunt"
    assert h["part_two"] == ["traitor"] and h["traitors"] == []
    assert [m["tile"] for m in living(g, MEDUSA)] == ["neglected_shrine"]
    assert living(g, CITIZEN) == [] and not any(t["name"] == "Chest" for t in g.state["tokens"])
    assert h["counters"][OBSTACLES] == 1                              # 2 living adventurers: 1
    tome = [e for e in events if e["kind"] == "secret_rules"]
    assert tome and {e["to"] for e in tome} == {"ann"}                 # part two reaches the former traitor only
    assert g.state["order"][-1] == "monsters" and g.state["order"][-2] == "ann"
    assert g.state["turn"]["player"] == "ann"                          # Bo's left (Cy is dead)
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and g.state["turn"]["player"] == "ann"


def test_the_medusa_gaze_turns_a_hero_to_stone(engine, dice):
    # Traitor's Tome, haunt 10: "You Must Do This at the Start of Each Hero's Turn" (Knowledge or Sanity 4+)
    g = rabble(engine)
    ready(g)
    open_chest(g)                          # Cy's turn now, Bo still on the Shrine with the Medusa
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")                     # the monster turn; next Bo starts on the Medusa's tile
    p = g.state["pending"]
    assert p["player"] == "bo" and p["options"] == ["Roll Knowledge", "Roll Sanity"]
    g.do("decide", "bo", choice=1)         # Sanity: 0
    assert not g.p("bo")["alive"]


def test_a_reflective_item_adds_a_die_against_the_gaze(engine, dice):
    # Traitor's Tome, haunt 10: "Using Reflective Items" (the roll against being turned to stone)
    g = rabble(engine)
    ready(g)
    g.give("bo", "shiny_rock")
    open_chest(g)
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")                     # the monster turn ends: Bo starts on the Medusa's tile
    sanity = g.value("bo", "sanity")
    dice.next(2, 2)                        # 4: safe
    events = g.do("decide", "bo", choice=1)
    roll = next(e["text"] for e in events if e["kind"] == "roll")
    assert f"({min(8, sanity + 1)} dice" in roll
    assert g.p("bo")["alive"]


def test_beating_the_medusa_takes_an_obstacle_then_wins(engine, dice):
    # Traitor's Tome, haunt 10: "Damaging the Medusa" (an Obstacle instead of a stun; none left: the heroes win)
    g = rabble(engine)
    ready(g)
    open_chest(g)
    g.put("cy", "neglected_shrine")
    medusa = living(g, MEDUSA)[0]
    assert g.state["haunt"]["counters"][OBSTACLES] == 2
    g.state["haunt"]["counters"][OBSTACLES] = 1
    dice.next(2, 2, 2)                     # Cy's Might: 6 against 0
    g.do("attack", "cy", target=MEDUSA)
    assert g.state["haunt"]["counters"][OBSTACLES] == 0 and not mon(g, medusa["id"])["stunned"]
    g.do("end", "cy")
    g.put("ann", "neglected_shrine")
    dice.next(2, 2, 2)
    g.do("attack", "ann", target=MEDUSA)   # the former traitor fights on the heroes' side
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_reflective_item_adds_a_die_to_attacks_on_the_medusa(engine, dice):
    # Traitor's Tome, haunt 10: "Using Reflective Items" (attack and defence rolls against the Medusa)
    g = rabble(engine)
    ready(g)
    g.give("cy", "locket")
    open_chest(g)
    g.put("cy", "neglected_shrine")
    events = g.do("attack", "cy", target=MEDUSA)
    roll = next(e["text"] for e in events if e["kind"] == "roll" and "to attack" in e["text"])
    assert f"({min(8, g.value('cy', 'might') + 1)} dice" in roll


def test_part_one_is_lost_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 10: "You Win When..."
    g = rabble(engine)
    ready(g)
    g.p("cy")["alive"] = False
    monster_turn_players = ("bo",)
    g.p(monster_turn_players[0])["traits"].update(might=1, speed=1)
    g.put("ann", g.p("bo")["tile"])
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    dice.next(2, 2, 2)
    g.do("attack", "ann", target="bo")
    g.decide_all()
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_traitor_cannot_open_the_chest(engine):
    # Secrets of Survival, haunt 10: "Opening the Chest" (a hero opens it)
    g = rabble(engine)
    ready(g)
    for c in living(g, CITIZEN):
        if c["tile"] == "neglected_shrine":
            c["tile"] = "kitchen"
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "neglected_shrine")
    g.do("end", "ann")
    assert g.state["haunt"]["part_two"] == []
    with pytest.raises(IllegalAction):
        g.do("part_two", "bo")


def test_the_haunts_goals_lead_to_the_chest_then_the_medusa(engine):
    # Secrets of Survival, haunt 10: "Opening the Chest" (a hero's turn ending on the Shrine) and, in part two,
    # "You Win When..." (beating the Medusa): the haunt has no task of its own (the Citizens' mob is their monster
    # attack), so the buttons offer none; the built-in heroes head for the Shrine, then for the Medusa
    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = rabble(engine)
    ready(g)
    assert not any(a["type"] == "task" for a in legal_actions(engine.content, g.state))
    assert goals("bo") == {"neglected_shrine"} and goals("ann") == set()
    open_chest(g)
    medusa = {m["tile"] for m in living(g, MEDUSA)}
    assert goals("bo") == medusa and goals("ann") == medusa


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome and Secrets of Survival, haunt 10: the haunt declares no special move
    g = rabble(engine)
    ready(g)
    with pytest.raises(IllegalAction, match="no special moves"):
        g.do("task", g.state["turn"]["player"], task="fly")
