"""Haunt 23, The Piper of Bhaal (the revealer is the traitor), played through
the engine's actions: the setup, enthralment and the start-of-turn roll, the
music, calling the rats, the Rat Swarms' moves and bites, and the wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

RAT = "Rat Swarm"


def piper(engine):
    """Ann draws the Pipes of Haunting in the Beast's Lair: haunt 23, Ann the
    traitor; the order is Bo, Cy, Ann, the monsters. Everyone presses Ready;
    nothing is answered yet."""
    g = revealed(engine, "beasts_lair", "pipes_of_haunting")
    assert g.state["haunt"]["number"] == 23 and g.state["haunt"]["traitors"] == ["ann"]
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    return g


def set_up(engine):
    """Ready, with Ann's gains to Might and the rats put on the first tiles
    offered; the heroes' first rolls (unqueued dice show 0) lose both turns."""
    g = piper(engine)
    g.decide_all(0)
    return g


def rats(g):
    return [m for m in g.state["monsters"] if m["name"] == RAT and not m["dead"]]


def test_setup_mends_gains_places_the_rats_apart_and_enthrals_everyone(engine):
    # Traitor's Tome, haunt 23: "Right Now" (traits back to their start, 1 per hero; twice the heroes in Rat Swarms,
    # not on heroes' tiles or each other's if possible); Secrets of Survival, haunt 23: "Right Now" (all enthralled)
    g = piper(engine)
    events = list(g.events)
    assert g.state["haunt"]["h23"]["enthralled"] == ["bo", "cy"]
    assert g.state["pending"]["player"] == "ann" and g.state["pending"]["kind"] == "trait"
    g.do("decide", "ann", choice=0)
    g.do("decide", "ann", choice=0)
    events += g.events
    asked = g.state["pending"]
    assert asked["player"] == "ann" and asked["kind"] == "place_chosen"
    hero_tiles = {g.p("bo")["tile"], g.p("cy")["tile"]}
    assert not hero_tiles & set(asked["data"]["tiles"])
    g.decide_all(0)
    events += g.events
    assert len(rats(g)) == 4 and rats(g)[0]["traits"] == {"might": 3}
    assert {e["to"] for e in events if "{move:pipe}" in e["text"]} == {"ann"}


def test_an_enthralled_hero_rolls_knowledge_or_loses_the_turn(engine, dice):
    # Secrets of Survival, haunt 23: "You Must Do This at the Start of Your Turn"
    g = piper(engine)
    dice.next(2, 2)  # Bo's Knowledge roll at the start of the first turn: 4
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"]["ending"]
    g.do("end", "bo")  # Cy rolls 0: stands up but loses the turn
    assert g.state["turn"]["player"] == "ann"
    assert g.state["haunt"]["h23"]["enthralled"] == []
    assert any("turn is lost" in t for t in g.texts())


def test_the_music_enthrals_a_hero_within_two_tiles_in_place_of_an_attack(engine, dice):
    # Traitor's Tome, haunt 23: "Special Attack Rules"
    g = set_up(engine)
    assert g.state["turn"]["player"] == "ann"
    g.put("ann", "elfsong_tavern")
    g.put("bo", "kitchen")  # two tiles west
    g.put("cy", "beasts_lair")
    g.state["board"].pop("beasts_lair")  # far away: off the joined map for this check
    g.state["board"]["beasts_lair"] = {"level": "city", "x": 9, "y": 9, "rot": 0}
    with pytest.raises(IllegalAction, match="not within 2"):
        g.do("task", "ann", task="pipe", target="cy")
    g.do("task", "ann", task="pipe", target="bo")  # Bo rolls 0
    assert g.state["haunt"]["h23"]["enthralled"] == ["bo"]
    with pytest.raises(IllegalAction, match="once per turn"):
        g.do("attack", "ann", target="bo")


def test_calling_the_rats_brings_them_along(engine, dice):
    # Traitor's Tome, haunt 23: "Calling the Rats" (1 die; unstunned swarms within 2 tiles; put down on your tile)
    # Ruling: haunt 23, the rats the Piper calls go along with her and stay on her tile as her turn ends
    g = set_up(engine)
    g.put("ann", "elfsong_tavern")
    for m, tile in zip(rats(g), ("inner_chamber", "kitchen", "inner_chamber", "elfsong_tavern")):
        m["tile"] = tile
    rats(g)[3]["stunned"] = True
    dice.next(2)
    g.do("task", "ann", task="call")
    assert g.state["pending"]["player"] == "ann" and len(g.state["pending"]["options"]) == 3
    g.decide_all(0)
    carried = g.state["haunt"]["h23"]["carried"]
    assert len(carried) == 2
    with pytest.raises(IllegalAction, match="already called"):
        g.do("task", "ann", task="call")
    g.do("move", "ann", way="west")
    assert all(m["tile"] == "inner_chamber" for m in rats(g) if m["id"] in carried)
    g.do("end", "ann")
    assert g.state["haunt"]["h23"]["carried"] == []


def test_a_moving_rat_ignores_heroes_and_bites_as_it_leaves(engine, dice):
    # Traitor's Tome, haunt 23: "Special Rat Swarm Movement Rules" and "Special Rat Swarm Attack Rules" (an
    # enthralled hero defends with half their Might dice)
    # Ruling: haunt 23, a Rat Swarm's 2 tiles are 2 spaces; half the Might dice, never fewer than 1
    g = set_up(engine)
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and g.state["turn"]["moves"] == {RAT: 2}
    m = rats(g)[0]
    m["tile"] = "elfsong_tavern"
    g.put("bo", "elfsong_tavern")
    g.put("cy", "kitchen")
    g.state["haunt"]["h23"]["enthralled"] = ["bo"]
    with pytest.raises(IllegalAction, match="no normal attacks"):
        g.do("monster", "ann", op="attack", monster=f"{RAT} 1", target="bo")
    g.do("monster", "ann", op="move", monster=f"{RAT} 1", way="west")
    assert g.state["pending"]["options"] == ["Bite Bo", "Leave them be"]
    dice.next(2, 2, 2)  # the swarm: 6
    dice.next(1)  # Bo (Lia, Might 3 of which half: 1 die)
    before = g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"]
    g.do("decide", "ann", choice=0)
    assert any("Might to defend (1 die)" in t for t in g.texts())
    g.decide_all(0)
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] < before
    assert m["id"] and next(x for x in rats(g) if x["id"] == m["id"])["tile"] == "inner_chamber"
    g.do("monster", "ann", op="move", monster=f"{RAT} 1", way="west")  # 2 spaces though Cy stands there
    assert next(x for x in rats(g) if x["id"] == m["id"])["tile"] == "kitchen"


def test_the_heroes_win_when_the_piper_dies(engine, dice):
    # Secrets of Survival, haunt 23: "You Win When..."
    g = set_up(engine)
    g.do("end", "ann")
    g.do("end", "ann")  # the monster turn
    g.put("bo", g.p("ann")["tile"])
    g.p("ann")["traits"].update(might=1, speed=1)
    assert g.state["turn"]["player"] == "bo"  # no longer enthralled: no roll
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 23: "Special Attack Rules" (the music, in place of the attack, at a hero within 2 tiles)
    # and "Calling the Rats" (before moving, once); the heroes' goal is the Piper (Secrets of Survival: "You Win
    # When...")
    def offered():
        return {(a["task"] + (" " + a["target"] if a.get("target") else "")) for a in legal_actions(engine.content, g.state)
                if a["type"] == "task"}

    g = set_up(engine)
    assert g.state["turn"]["player"] == "ann"
    g.put("ann", "elfsong_tavern")
    g.put("bo", "kitchen")
    g.put("cy", "elfsong_tavern")
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo")) == {"elfsong_tavern"}
    assert offered() == {"call", "pipe bo", "pipe cy"}
    assert g.state["haunt"]["h23"]["enthralled"] == []          # offering tried copies only
    g.do("task", "ann", task="pipe", target="bo")       # Bo rolls 0: enthralled
    assert offered() == {"call"}                                 # the music took the attack
    g.do("move", "ann", way="west")
    assert offered() == set()                                    # the rats are called before moving
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and offered() == set()
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "ann", task="call")


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome, haunt 23: the Piper's moves are the call and the music
    g = set_up(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], task="dance")
