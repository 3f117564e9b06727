"""Haunt 33, The Will of Yeenoghu (Torskar is the traitor), played through
the engine's actions: the Gnolls placed where the traitor chooses, their
attack dice, their removal and their rebirth, the Shackles' powers, the
release, the Gnolls' rampage and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction
from tests.test_haunt_play import all_ready, revealed


def yeenoghu(engine, where=0):
    """Bo draws the Dimensional Shackles on the House of Blood: haunt 33,
    Ann (Torskar) the traitor; the order is Bo, Cy, Ann, the monsters."""
    g = revealed(engine, "house_of_blood", "dimensional_shackles", revealer="bo")
    assert g.state["haunt"]["number"] == 33 and g.state["haunt"]["traitors"] == ["ann"]
    g.give("bo", "dimensional_shackles")
    return g


def ready(engine, where=0):
    g = yeenoghu(engine)
    all_ready(g, where)
    g.decide_all(0)  # the Gladiator Pit's door
    return g


def gnolls(g):
    return [m for m in g.state["monsters"] if m["name"] == "Gnoll" and not m["dead"]]


def test_the_traitor_places_one_gnoll_per_adventurer_away_from_heroes_and_other_gnolls(engine):
    # Traitor's Tome, haunt 33: "Right Now" (as many Gnolls as adventurers, never on a hero's or a monster's tile;
    # the rest set aside)
    g = yeenoghu(engine)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "place_chosen"
    assert "Elfsong Tavern" not in pending["options"]  # the heroes stand there
    g.do("decide", "ann", choice=pending["options"].index("Kitchen"))
    assert "Kitchen" not in g.state["pending"]["options"]  # a Gnoll is there now
    while g.state["pending"]["kind"] == "place_chosen":
        g.do("decide", "ann", choice=0)
    assert len(gnolls(g)) == 3 and len({m["tile"] for m in gnolls(g)}) == 3
    assert g.state["haunt"]["counters"]["Gnolls in reserve"] == 3


def test_the_gladiator_pit_is_fetched_and_the_traitor_is_strengthened(engine):
    # Traitor's Tome, haunt 33: "Right Now" (the Gladiator Pit; Might and Speed mended, +2 Might, +1 Speed,
    # Sanity 1 step above the skull)
    g = yeenoghu(engine)
    before = dict(g.p("ann")["traits"])
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    while g.state["pending"]["kind"] == "place_chosen":  # where the Gnolls go first
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert g.state["pending"]["kind"] == "fetch_tile" and g.state["pending"]["player"] == "ann"
    g.decide_all(0)
    assert "gladiator_pit" in g.state["board"]
    assert g.p("ann")["traits"]["might"] == before["might"] + 2
    assert g.p("ann")["traits"]["speed"] == before["speed"] + 1
    assert g.p("ann")["traits"]["sanity"] == 1
    assert g.state["turn"]["player"] == "bo"


def test_the_traitors_sanity_never_reaches_the_skull(engine):
    # Traitor's Tome, haunt 33: "The Certainty of Yeenoghu"
    g = ready(engine)
    g.state["players"]["ann"]["traits"]["sanity"] = 1
    g.do("end", "bo")
    g.do("end", "cy")
    from bot.games.babg.engine import traits
    from bot.games.babg.engine.ctx import Ctx
    ctx = Ctx(g.c, g.state)
    traits.change(ctx, "ann", "sanity", -1)
    assert g.p("ann")["alive"] and g.p("ann")["traits"]["sanity"] == 1


def test_a_hero_leaving_a_gnolls_tile_rolls_speed_or_is_hurt(engine, dice):
    # Traitor's Tome, haunt 33: "Special Movement Rules" (Speed 3+ or 1 physical damage)
    g = ready(engine)
    gnolls(g)[0]["tile"] = "elfsong_tavern"
    g.do("end", "bo")
    before = sum(g.p("cy")["traits"][t] for t in ("might", "speed"))
    dice.next(1, 1, 0, 0)  # Speed: 2
    way = next(w for w in ("north", "east", "south", "west") if _exit(g, "cy", w))
    g.do("move", "cy", way=way)
    g.decide_all(0)
    assert sum(g.p("cy")["traits"][t] for t in ("might", "speed")) == before - 1


def _exit(g, pid, way):
    from bot.games.babg.engine import moves
    from bot.games.babg.engine.ctx import Ctx
    return moves.ways_out(Ctx(g.c, g.state), pid).get(way, {}).get("to")


def monster_turn(g):
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")


def test_a_gnoll_attacks_with_a_die_more_for_each_other_gnoll_and_the_traitor_on_its_tile(engine, dice):
    # Traitor's Tome, haunt 33: "Gnoll" (Might 4, +1 die per other Gnoll or traitor on its tile, 8 at most)
    g = ready(engine)
    monster_turn(g)
    for m in gnolls(g)[:2]:
        m["tile"] = "kitchen"
    g.put("ann", "kitchen")
    g.put("cy", "kitchen")
    g.do("monster", "ann", op="attack", monster=gnolls(g)[0]["id"], target="cy")
    roll = next(e for e in g.events if e.get("kind") == "roll" and "for Gnoll" in e["text"])
    assert len(roll["faces"]) == 6  # 4 + the other Gnoll + the traitor


def test_a_gnoll_hurt_at_all_is_removed_not_stunned(engine, dice):
    # Traitor's Tome, haunt 33: "Killing Gnolls"
    g = ready(engine)
    m = gnolls(g)[0]
    g.put("bo", m["tile"])
    dice.next(2, 2, 2)  # Bo's Might: 6
    dice.next(0, 0, 0, 1)  # the Gnoll: 1
    g.do("attack", "bo", target=m["id"])
    g.decide_all(0)
    assert all(x["id"] != m["id"] for x in gnolls(g))


def test_a_dead_hero_becomes_a_new_gnoll(engine):
    # Traitor's Tome, haunt 33: "Creating More Gnolls"
    g = ready(engine)
    g.put("cy", "kitchen")
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.death import die
    ctx = Ctx(g.c, g.state)
    n = len(gnolls(g))
    die(ctx, "cy", "a test")
    assert len(gnolls(g)) == n + 1 and gnolls(g)[-1]["tile"] == "kitchen"
    assert g.state["haunt"]["counters"]["Gnolls in reserve"] == 2


def test_the_shackles_can_be_stolen(engine, dice):
    # Both books, haunt 33: "Special Dimensional Shackles Rules" (they can be stolen in this haunt)
    g = ready(engine)
    g.give("ann", "dimensional_shackles")
    g.state["players"]["bo"]["cards"].remove("dimensional_shackles")
    g.put("bo", "kitchen")
    g.put("ann", "kitchen")
    for m in gnolls(g):
        m["tile"] = "house_of_blood"
    dice.next(2, 2, 2)  # Bo: 6
    dice.next(0, 0, 0, 0, 0, 0)  # Ann: 0
    g.do("attack", "bo", target="ann")
    while g.state["pending"]["kind"] != "steal":
        g.do("decide", g.state["pending"]["player"], choice=1)
    assert "Steal Dimensional Shackles" in g.state["pending"]["options"]
    g.do("decide", "bo", choice="Steal Dimensional Shackles")
    assert "dimensional_shackles" in g.p("bo")["cards"]


def test_the_power_of_yeenoghu_rolls_the_traitors_blanks_again(engine, dice):
    # Traitor's Tome, haunt 33: "The Power of Yeenoghu" (with the Shackles, reroll the 0s once per turn)
    # Ruling: the Power of Yeenoghu's reroll (the bot rolls every blank again: it can only help).
    g = ready(engine)
    g.give("ann", "dimensional_shackles")
    g.state["players"]["bo"]["cards"].remove("dimensional_shackles")
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "elfsong_tavern")
    g.put("bo", "elfsong_tavern")
    n = len(g.p("ann")["cards"])
    dice.next(2, 0, 0, 0, 0, 0)  # Ann's attack: 2 with five blanks
    dice.next(2, 2, 1)  # Bo: 5
    dice.next(2, 2, 2, 2, 2)  # the blanks again: 10
    g.do("attack", "ann", target="bo")
    assert any("Power of Yeenoghu" in e["text"] and "now 12" in e["text"] for e in g.events)
    assert len(g.p("ann")["cards"]) == n


def test_a_hero_with_the_shackles_rolls_sanity_at_the_start_of_the_turn(engine, dice):
    # Secrets of Survival, haunt 33: "You Must Do This at the Start of Your Turn" (Sanity 3+: +1 Speed this
    # turn; else 1 Sanity lost). Ruling: "add 1 to your Speed this turn" (one more space of movement).
    g = ready(engine)
    sanity = g.p("bo")["traits"]["sanity"]
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")  # the monster turn
    assert g.state["turn"]["player"] == "bo" and g.state["turn"]["extra_moves"] == 0  # all blanks: failed
    assert g.p("bo")["traits"]["sanity"] == sanity - 1
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    dice.next(2, 1)  # Sanity: 3
    g.do("end", "ann")
    assert g.state["turn"]["player"] == "bo" and g.state["turn"]["extra_moves"] == 1


def test_release_needs_the_shackles_on_the_gladiator_pit_and_frees_the_traitor(engine, dice):
    # Secrets of Survival, haunt 33: "How to Release the Traitor" (Sanity 4+; the omen discarded; the traitor a
    # hero again, -2 Might and -1 Speed) and "If the Traitor Is Released or Killed" (every Gnoll at once to the
    # nearest hero's tile, attacking them)
    g = ready(engine)
    with pytest.raises(IllegalAction, match="Gladiator Pit"):
        g.do("task", "bo", trait="sanity", task="release")
    g.put("bo", "gladiator_pit")
    g.put("cy", "gladiator_pit")
    with pytest.raises(IllegalAction, match="not yours"):
        g.do("task", "cy", trait="sanity", task="release")
    with pytest.raises(IllegalAction, match="(?i)sanity"):
        g.do("task", "bo", trait="might", task="release")
    before = dict(g.p("ann")["traits"])
    dice.next(2, 2)  # Sanity: 4
    g.do("task", "bo", trait="sanity", task="release")
    g.decide_all(0)
    assert g.state["haunt"]["traitors"] == []
    assert "dimensional_shackles" in g.state["discard"]["omen"]
    assert g.p("ann")["traits"]["might"] == before["might"] - 2
    assert g.p("ann")["traits"]["speed"] == before["speed"] - 1
    assert any("rushes to" in e["text"] or "attacks" in e["text"] for e in g.events)
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="sanity", task="release")


def test_after_the_release_the_bot_plays_the_gnolls_rampage_every_monster_turn(engine, dice):
    # Secrets of Survival, haunt 33: "If the Traitor Is Released or Killed" (they keep doing it every monster turn)
    g = ready(engine)
    g.state["haunt"]["h33"] = {"freed": True, "released": "ann"}
    g.state["haunt"]["traitors"] = []
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    g.decide_all(0)
    assert any("run at the nearest heroes" in e["text"] for e in g.events)
    assert g.state["turn"]["player"] == "bo" or g.state["phase"] == "over"
    assert {m["tile"] for m in gnolls(g)} <= {g.p(p)["tile"] for p in g.state["seats"]}


def test_the_heroes_win_when_the_traitor_is_dead_and_no_gnoll_is_left(engine, dice):
    # Secrets of Survival, haunt 33: "You Win When..." (every Gnoll killed, the traitor killed or released)
    g = ready(engine)
    for m in gnolls(g)[1:]:
        m["dead"] = True
    last = gnolls(g)[0]
    g.state["haunt"]["h33"] = {"freed": True, "released": None}
    g.state["players"]["ann"]["alive"] = False
    g.put("bo", last["tile"])
    dice.next(2, 2, 2)
    dice.next(0)
    g.do("attack", "bo", target=last["id"])
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_is_dead(engine):
    # Traitor's Tome, haunt 33: "You Win When..."
    g = ready(engine)
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.death import die
    ctx = Ctx(g.c, g.state)
    die(ctx, "bo", "a test")
    die(ctx, "cy", "a test")
    from bot.games.babg.engine import haunt_play
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_only_the_holder_of_the_shackles_may_release_and_never_in_the_monster_turn(engine):
    # Secrets of Survival, haunt 33: "How to Release the Traitor" (you must have the Dimensional Shackles)
    g = ready(engine)
    g.do("end", "bo")
    g.put("cy", "gladiator_pit")
    with pytest.raises(IllegalAction, match="need the Dimensional Shackles"):
        g.do("task", "cy", trait="sanity", task="release")
    g.do("end", "cy")
    g.do("end", "ann")
    with pytest.raises(IllegalAction):
        g.do("task", "ann", trait="sanity", task="release")


def test_killing_the_traitor_sets_every_gnoll_on_the_nearest_hero(engine, dice):
    # Secrets of Survival, haunt 33: "If the Traitor Is Released or Killed" (each Gnoll at once moves to the
    # closest hero's tile and attacks that hero)
    g = ready(engine)
    g.put("bo", "kitchen")
    g.put("ann", "kitchen")
    g.state["players"]["ann"]["traits"]["might"] = 1
    g.state["players"]["ann"]["traits"]["speed"] = 1
    dice.next(2, 2, 2)  # Bo: 6
    dice.next(0)  # Ann: 0
    events = g.do("attack", "bo", target="ann")
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    assert not g.p("ann")["alive"]
    assert g.state["haunt"]["h33"]["freed"]
    assert sum(1 for e in events if e.get("kind") == "attack" and e["text"].startswith("Gnoll")) == 3
    assert {m["tile"] for m in gnolls(g)} <= {g.p(p)["tile"] for p in ("bo", "cy")}


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = ready(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="sanity", task="unshackle")
