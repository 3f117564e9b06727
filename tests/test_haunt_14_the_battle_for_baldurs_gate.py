"""Haunt 14, The Battle for Baldur's Gate, played through the engine (Secrets
of Survival, haunt 14, and the Dragon's script in the Traitor's Tome). Ann
(Torskar) reveals the haunt on the Cursed Statue; there is no traitor. The
city: Kitchen (0,0), Inner Chamber (1,0), Elfsong Tavern (2,0)."""
import random

import pytest

from bot.games.babg import autoplay

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

HP = "Dragon hit points"


def battle(engine):
    g = revealed(engine, "cursed_statue", "dimensional_shackles")
    assert g.state["haunt"]["number"] == 14 and g.state["haunt"]["traitors"] == []
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    return g


def act(g, kind, player, **fields):
    g.do(kind, player, **fields)
    seen = list(g.events)
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)
        seen += g.events
    return seen


def dragon(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Dragon")


def ballista(g, tile):
    g.state["tokens"].append({"name": "Ballista", "tile": tile})


def ballistas(g):
    return [t["tile"] for t in g.state["tokens"] if t["name"] == "Ballista"]


def hurt(events, pid):
    return [e["amount"] for e in events if e["kind"] == "damage" and e.get("player") == pid]


def to_ann_end(g):
    """Bo and Cy end their turns; Ann's turn comes (the revealer)."""
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann"


def test_setup_and_no_monster_turn(engine, dice):
    # Secrets of Survival, haunt 14: "Right Now" (hit points at twice the adventurers, the Dragon on the Elfsong
    # Tavern, play from the revealer's left) and "You Must Do This at the End of the Haunt Revealer's Turn"
    g = battle(engine)
    assert dragon(g)["tile"] == "elfsong_tavern"
    assert g.state["haunt"]["counters"][HP] == 6
    assert not any("by hand" in e["text"] for e in g.setup_events)
    seen = []
    for _ in range(4):
        seen.append("monsters" if g.state["turn"].get("monsters") else g.state["turn"]["player"])
        act(g, "end", g.state["turn"]["player"])
    assert seen == ["bo", "cy", "ann", "bo"]


def test_the_dragon_hunts_the_closest_through_walls_and_favours_a_ballista(engine, dice):
    # Traitor's Tome, haunt 14: "Special Dragon Rules", 1. Move (shortest way to the closest hero or Ballista,
    # adjacent tiles joined or not; a Ballista when equally far)
    g = battle(engine)
    g.place("dead_end", "city", 2, 1)         # south of the Elfsong Tavern
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "kitchen")
    ballista(g, "dead_end")
    g.put("bo", "inner_chamber")              # a hero 1 away, as close as the Ballista
    to_ann_end(g)
    dice.next(1, 0, 0)                        # the Dragon's Speed: 1
    dice.next(0)                              # breath die: 0
    dice.next(0)                              # the Ballista defends: 7 dice (unqueued: 0); the Dragon: 0
    act(g, "end", "ann")
    assert dragon(g)["tile"] == "dead_end"


def test_breath_sweeps_the_line_with_a_ballista(engine, dice):
    # Traitor's Tome, haunt 14: "Special Dragon Rules", 2-3 (a 2 breathes; one Might attack along a line with a
    # Ballista); Secrets of Survival, haunt 14: "Defending on a Ballista's Tile"
    g = battle(engine)
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "kitchen")
    ballista(g, "kitchen")
    g.put("bo", "elfsong_tavern")             # on the Dragon's tile: it does not move
    to_ann_end(g)
    dice.next(1, 0, 0)                        # Speed 1 (Bo is on its tile: no move)
    dice.next(2)                              # breath!
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)         # the breath: 16
    dice.next(0, 0)                           # Bo defends on the Dragon's tile: 0
    dice.next(0, 0, 0, 0, 0, 0, 0)            # the Ballista defends: 0
    seen = act(g, "end", "ann")
    assert dragon(g)["tile"] == "elfsong_tavern"
    assert ballistas(g) == []                 # smashed
    assert sorted(hurt(seen, "ann")) == [1, 2] and sorted(hurt(seen, "cy")) == [1, 2]
    assert g.state["haunt"]["h14"]["destroyed"] == 1


def test_normal_attack_on_the_weakest_hero_and_a_won_defence_hurts_it(engine, dice):
    # Traitor's Tome, haunt 14: "Special Dragon Rules", 3 (Normal Attack: the hero on its tile with the lowest
    # Might); Secrets of Survival, haunt 14: "How to Defeat the Dragon"
    g = battle(engine)
    g.put("ann", "kitchen")
    to_ann_end(g)
    dice.next(1, 0, 0)                        # Speed 1: heroes on its tile, no move
    dice.next(1)                              # no breath
    dice.next(0)                              # the Dragon's Might: 0
    dice.next(2, 2)                           # Bo (Might 2 dice... the weakest) defends: 4
    seen = act(g, "end", "ann")
    assert any("attacks Bo" in e["text"] for e in seen)
    assert g.state["haunt"]["counters"][HP] == 2
    assert not dragon(g)["stunned"]


def test_a_dragon_with_nothing_to_attack_moves_again(engine, dice):
    # Traitor's Tome, haunt 14: "Special Dragon Rules", 3 (neither a Ballista nor a hero: roll Speed, move again)
    g = battle(engine)
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "kitchen")
    to_ann_end(g)
    dice.next(1, 0, 0)                        # Speed 1: to the Inner Chamber
    dice.next(0)                              # no breath
    dice.next(1, 0, 0)                        # Speed again: 1, to the Kitchen
    act(g, "end", "ann")
    assert dragon(g)["tile"] == "kitchen"


def test_finding_a_ballista_instead_of_a_card(engine):
    # Secrets of Survival, haunt 14: "How to Find a Ballista" (a new city tile with a symbol: a Ballista instead of
    # the card)
    g = battle(engine)
    g.top("street", next(t for t in g.state["stacks"]["street"] if g.c.tiles[t].symbol != "none"))
    g.do("move", "bo", way="east")
    pending = g.state["pending"]
    while pending and pending["kind"] != "h14_ballista":
        g.do("decide", pending["player"], choice=0)
        pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"][0] == "Place a Ballista"
    assert autoplay.choose(engine.content, g.state, random.Random(0))["choice"] == 0   # the built-in hero's pick
    g.do("decide", "bo", choice=0)
    assert ballistas(g) == [g.p("bo")["tile"]]


def test_firing_a_ballista(engine, dice):
    # Secrets of Survival, haunt 14: "Special Ballista Attack Rules" (7 dice less the tiles between; city level only;
    # a Dragon on the Ballista's tile that wins destroys it, 2 physical damage to each hero there)
    g = battle(engine)
    ballista(g, "kitchen")
    with pytest.raises(IllegalAction, match="Ballista's tile"):
        g.do("task", "bo", task="ballista")
    g.put("bo", "kitchen")
    dice.next(2, 2, 2, 2, 2, 2)               # 6 dice (1 tile between): 12
    dice.next(0)                              # the Dragon: 0
    g.do("task", "bo", task="ballista")
    assert any("6 dice" in e["text"] for e in g.events)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_ballista_missing_the_dragon_on_its_tile_is_smashed(engine, dice):
    # Secrets of Survival, haunt 14: "Special Ballista Attack Rules"
    g = battle(engine)
    ballista(g, "elfsong_tavern")
    dice.next(0)                              # the Ballista: 0
    dice.next(2, 2)                           # the Dragon: 4
    seen = act(g, "task", "bo", task="ballista")
    assert ballistas(g) == []
    assert all(hurt(seen, p) == [2] for p in ("ann", "bo", "cy"))


def test_no_ballista_fire_at_a_dragon_below(engine):
    # Secrets of Survival, haunt 14: "Special Ballista Attack Rules" (only while the Dragon is on the city level)
    g = battle(engine)
    ballista(g, "elfsong_tavern")
    dragon(g)["tile"] = "catacomb_landing"
    with pytest.raises(IllegalAction, match="city level"):
        g.do("task", "bo", task="ballista")


def test_the_last_ballistas_go_far_from_the_dragon(engine):
    # Secrets of Survival, haunt 14: "How to Find a Ballista" (no city tile left: the rest as far from the Dragon
    # as possible)
    g = battle(engine)
    for k in ("building", "street"):
        g.state["stacks"][k] = []
    g.do("end", "bo")
    pending = g.state["pending"]
    assert pending["player"] == "ann"            # the heroes' chooser: the haunt revealer
    assert pending["options"] == ["Cursed Statue", "Kitchen"]  # the farthest city tiles (the Statue is cut off)
    g.decide_all(1)
    assert ballistas(g) == ["kitchen"] * 3


def test_the_heroes_lose_when_every_hero_dies(engine, dice):
    # Secrets of Survival, haunt 14: "You Lose When..."
    # Ruling: haunt 14: with the revealer dead, the Dragon acts at the end of the last living hero's turn
    g = battle(engine)
    g.p("ann")["alive"] = False
    g.p("cy")["alive"] = False
    g.p("bo")["traits"].update(might=1, speed=1)
    dice.next(1, 0, 0)                        # Speed 1
    dice.next(0)                              # no breath
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)         # the Dragon's Might: 16
    act(g, "end", "bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 14: "Special Ballista Attack Rules" (on a Ballista's tile, instead of an attack,
    # while the Dragon is on the city level): the buttons and the built-in players see what the engine allows
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = battle(engine)
    assert offered() == set() and "elfsong_tavern" in goals("bo")   # no Ballista yet: the city's open doorways,
    assert set(g.state["stacks"]["street"]) & goals("bo")             # and the city tiles left to discover
    ballista(g, "kitchen")
    assert offered() == set() and goals("bo") == {"kitchen"}    # Bo is not on its tile: the heroes head there
    g.put("bo", "kitchen")
    assert offered() == {(None, "ballista")}
    hp = g.state["haunt"]["counters"][HP]
    offered()
    assert g.state["haunt"]["counters"][HP] == hp               # offering tried copies only
    dragon(g)["tile"] = "catacomb_landing"
    assert offered() == set()                                   # the Dragon below: no shot
    dragon(g)["tile"] = "elfsong_tavern"
    dice.next(0)
    dice.next(0)
    g.do("task", "bo", task="ballista")
    assert offered() == set()                                   # once a turn, instead of the attack


def test_an_undeclared_move_is_refused(engine):
    # Secrets of Survival, haunt 14: the only special move is the Ballista's shot
    g = battle(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
