"""Haunt 15, Vermin Sweep, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 15). Ann (Torskar) reveals the haunt on the
Kobold Hideout and is the traitor; Bo (Lia) and Cy (Gretchen) are the heroes.
Three adventurers: 6 Kobolds trapped or pillaging decide the game."""
import pytest

from bot.games.babg.engine import IllegalAction, haunt_play, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed


def sweep(engine, dice=None, first=(1, 1, 0)):
    g = revealed(engine, "kobold_hideout", "cursed_armor")
    assert g.state["haunt"]["number"] == 15 and g.state["haunt"]["traitors"] == ["ann"]
    if dice is not None:
        dice.next(*first)                  # the setup's Kobold roll
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    while g.state["pending"]:
        g.setup_events.append(dict(g.state["pending"]))
        g.do("decide", g.state["pending"]["player"], choice=0)
        g.setup_events += g.events
    return g


def kobolds(g, tile=None):
    return [m for m in g.state["monsters"] if m["name"] == "Kobold" and not m["dead"]
            and (tile is None or m["tile"] == tile)]


def add_kobold(g, tile):
    return haunt_play.add_monster(Ctx(g.c, g.state), "Kobold", tile)["id"]


def trap(g, tile):
    g.state["tokens"].append({"name": "Kobold Trap", "tile": tile})


def traps(g, tile):
    return [t for t in g.state["tokens"] if t["name"] == "Kobold Trap" and t["tile"] == tile]


def counters(g):
    return g.state["haunt"]["counters"]


def to_monster_turn(g):
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["turn"].get("monsters")


def test_setup_kobolds_from_the_dice_and_the_mansion(engine, dice):
    # Traitor's Tome, haunt 15: "Right Now" (one die per adventurer, that many Kobolds on the Kobold Hideout);
    # Secrets of Survival, haunt 15: "Right Now" (the Mansion fetched, the heroes placing it)
    g = sweep(engine, dice)
    assert len(kobolds(g, "kobold_hideout")) == 2
    assert kobolds(g)[0]["traits"] == {"might": 1, "speed": 4, "knowledge": 2, "sanity": 2}
    asked = [e for e in g.setup_events if e.get("kind") == "fetch_tile"]
    assert asked and asked[0]["player"] == "bo"
    assert "mansion" in g.state["board"]
    mob = [e["to"] for e in g.setup_events if "{move:mob}" in e.get("text", "")]
    trap_words = [e["to"] for e in g.setup_events if "{move:trap}" in e.get("text", "")]
    assert mob == ["ann"] and sorted(trap_words) == ["bo", "cy"]
    assert counters(g) == {"Kobolds trapped": 0, "Kobolds at the Mansion": 0}


def test_more_kobolds_at_the_start_of_the_traitors_turn(engine, dice):
    # Traitor's Tome, haunt 15: "You Must Do This at the Start of Your Turn"
    g = sweep(engine, dice)
    g.do("end", "bo")
    dice.next(2, 2, 1)                     # Ann's Kobold roll: 5
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann"
    assert len(kobolds(g, "kobold_hideout")) == 7


def test_setting_a_trap(engine, dice):
    # Secrets of Survival, haunt 15: "Setting Kobold Traps" (once per turn, Speed 3+)
    g = sweep(engine, dice)
    dice.next(2, 1, 0)                     # Bo's Speed: 3
    g.do("task", "bo", task="trap", trait="speed")
    assert len(traps(g, "elfsong_tavern")) == 1
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", task="trap", trait="speed")
    g.do("end", "bo")
    g.do("task", "cy", task="trap", trait="speed")    # Speed 0: no trap
    assert len(traps(g, "elfsong_tavern")) == 1


def test_a_kobold_walking_onto_a_trap_rolls(engine, dice):
    # Secrets of Survival, haunt 15: "Trapping a Kobold" (moves onto a trapped tile: 2 trapped, 1 stunned, 0 the trap
    # fails)
    g = sweep(engine, dice, first=(0, 0, 0))
    ids = [add_kobold(g, "inner_chamber") for _ in range(3)]
    for _ in range(2):
        trap(g, "elfsong_tavern")
    to_monster_turn(g)
    dice.next(2)                           # Kobold 1: trapped
    g.do("monster", "ann", op="move", monster=ids[0], way="east")
    assert counters(g)["Kobolds trapped"] == 1 and ids[0] not in [m["id"] for m in kobolds(g)]
    dice.next(1)                           # Kobold 2: stunned
    g.do("monster", "ann", op="move", monster=ids[1], way="east")
    assert next(m for m in kobolds(g) if m["id"] == ids[1])["stunned"]
    dice.next(0)                           # Kobold 3: one trap fails
    g.do("monster", "ann", op="move", monster=ids[2], way="east")
    assert len(traps(g, "elfsong_tavern")) == 1


def test_kobolds_starting_on_a_trap_roll_until_the_last_trap_breaks(engine, dice):
    # Secrets of Survival, haunt 15: "Trapping a Kobold" (starting the turn there, even stunned; the last trap gone,
    # the others there roll no more)
    g = sweep(engine, dice, first=(0, 0, 0))
    first = add_kobold(g, "kitchen")
    add_kobold(g, "kitchen")
    g.state["monsters"][-1]["stunned"] = True
    trap(g, "kitchen")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(0, 0, 0)                     # Ann's Kobold roll: none
    dice.next(2)                           # first Kobold: trapped
    dice.next(0)                           # the stunned one: the trap breaks
    g.do("end", "ann")
    trap_rolls = [e for e in g.events if e["kind"] == "roll" and "the trap" in e["text"]]
    assert len(trap_rolls) == 2
    assert counters(g)["Kobolds trapped"] == 1 and first not in [m["id"] for m in kobolds(g)]
    assert traps(g, "kitchen") == []


def test_the_kobold_mob(engine, dice):
    # Traitor's Tome, haunt 15: "Special Kobold Mob Attack Rules" (Might added, 8 dice at most; losing, 1 damage
    # to a Kobold at most, each stunned)
    g = sweep(engine, dice, first=(0, 0, 0))
    ids = [add_kobold(g, "elfsong_tavern") for _ in range(3)]
    to_monster_turn(g)
    dice.next(0, 0, 0)                     # the mob: 3 dice, 0
    dice.next(2, 2)                        # Bo defends: 4 (2 dice)
    g.do("task", "ann", task="mob", target="bo")
    assert any("(3 dice)" in e["text"] for e in g.events if e["kind"] == "roll")
    g.decide_all(0)
    stunned = [m["id"] for m in kobolds(g) if m["stunned"]]
    assert stunned == ids                  # 4 damage, 3 Kobolds: each stunned once
    with pytest.raises(IllegalAction, match="two or more"):
        g.do("task", "ann", task="mob", target="bo")


def test_a_winning_mob_hurts_the_hero(engine, dice):
    # Traitor's Tome, haunt 15: "Special Kobold Mob Attack Rules"
    g = sweep(engine, dice, first=(0, 0, 0))
    for _ in range(2):
        add_kobold(g, "elfsong_tavern")
    to_monster_turn(g)
    dice.next(2, 2)                        # the mob: 4
    dice.next(0, 0)                        # Cy defends: 0
    g.do("task", "ann", task="mob", target="cy")
    assert any(e["kind"] == "damage" and e.get("player") == "cy" and e.get("amount") == 4 for e in g.events)


def test_pillaging_the_mansion_wins_for_the_traitor(engine, dice):
    # Traitor's Tome, haunt 15: "Reaching the Mansion" and "You Win When..." (twice the starting adventurers)
    g = sweep(engine, dice, first=(0, 0, 0))
    for _ in range(4):
        add_kobold(g, "mansion")
    g.state["monsters"][-1]["stunned"] = True   # stunned ones pillage too
    to_monster_turn(g)
    g.do("end", "ann")
    assert counters(g)["Kobolds at the Mansion"] == 4 and kobolds(g, "mansion") == []
    assert g.state["phase"] == "haunt"
    for _ in range(2):
        add_kobold(g, "mansion")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_trapping_six_kobolds_wins_for_the_heroes(engine, dice):
    # Secrets of Survival, haunt 15: "You Win When..." and "Trapping a Kobold"
    g = sweep(engine, dice, first=(0, 0, 0))
    counters(g)["Kobolds trapped"] = 5
    kid = add_kobold(g, "inner_chamber")
    trap(g, "elfsong_tavern")
    to_monster_turn(g)
    dice.next(2)
    g.do("monster", "ann", op="move", monster=kid, way="east")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 15: "Setting Kobold Traps" (a hero, once during their turn); Traitor's Tome,
    # haunt 15: "Special Kobold Mob Attack Rules" (two or more Kobolds on a hero's tile, in the monster turn)
    def offered():
        return {(a.get("trait"), a["task"], a.get("target")) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    g = sweep(engine, dice, first=(0, 0, 0))
    assert offered() == {("speed", "trap", None)}
    goals = set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo"))
    assert goals == {"kobold_hideout", "mansion"}             # where the Kobolds appear and where they go
    dice.next(0, 0)
    g.do("task", "bo", task="trap", trait="speed")
    assert offered() == set()                                  # once a turn
    [add_kobold(g, "elfsong_tavern") for _ in range(2)]
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == set()                                  # the traitor's own turn: no mob yet
    g.do("end", "ann")
    g.decide_all(0)
    before = [dict(m) for m in kobolds(g)]
    assert offered() == {(None, "mob", "bo"), (None, "mob", "cy")}
    assert [dict(m) for m in kobolds(g)] == before             # offering tried copies only
    with pytest.raises(IllegalAction, match="own turn"):
        g.do("task", "ann", task="trap", trait="speed")


def test_with_the_traitor_dead_the_kobolds_still_come_in_the_monster_turn(engine, dice):
    # Rulebook: The Haunt (a dead traitor's monsters play on, run by the traitor's player); Traitor's Tome, haunt 15:
    # "You Must Do This at the Start of Your Turn". Ruling: haunt 15, a dead traitor: the new Kobolds come as the
    # monster turn starts, and that turn comes even with no Kobold on the board
    g = sweep(engine, dice, first=(0, 0, 0))
    assert kobolds(g) == []
    g.p("ann")["alive"] = False
    g.do("end", "bo")
    dice.next(1, 1, 0)                     # 2 new Kobolds
    g.do("end", "cy")
    g.decide_all(0)
    assert g.state["turn"].get("monsters") and len(kobolds(g, "kobold_hideout")) == 2


def test_an_undeclared_move_is_refused(engine, dice):
    # Traitor's Tome and Secrets of Survival, haunt 15: the only special moves are the trap and the mob
    g = sweep(engine, dice, first=(0, 0, 0))
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
