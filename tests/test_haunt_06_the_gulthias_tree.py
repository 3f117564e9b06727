"""Haunt 6, The Gulthias Tree, played through the engine's actions: the
Branches the traitor spreads apart, the Vine Blights pruned after every
adventurer's turn, cultivating Branches, growing Vine Blights, cutting
Branches down, and both sides' wins.

The board of these tests: Elfsong Tavern - Inner Chamber - Kitchen - (stairs)
Kitchen Basement - Catacomb Landing, and the Neglected Shrine off on its own."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine import board as bd
from tests.test_haunt_play import revealed

BLIGHT = "Vine Blight"


def tree(engine, before=None):
    """Ann reveals haunt 6 on the Neglected Shrine with the Berserker Axe;
    Cy (Gretchen Titchwillow) is the traitor. Order: Ann, Bo, Cy, monsters."""
    g = revealed(engine, "neglected_shrine", "berserker_axe")
    assert g.state["haunt"]["number"] == 6 and g.state["haunt"]["traitors"] == ["cy"]
    if before:
        before(g)
    return g


def ready(g, picks=()):
    """Everyone ready; the traitor's Branch questions answered with `picks`, then 0."""
    events = []
    for pid in ("ann", "bo", "cy"):
        events += g.do("ready", pid)
    picks = list(picks)
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=picks.pop(0) if picks else 0)
    g.events = events
    return events


def branches(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Branch")


def vb(g, n):
    return next(m for m in g.state["monsters"] if m["name"] == BLIGHT and m["number"] == n)


def living(g):
    return [m for m in g.state["monsters"] if m["name"] == BLIGHT and not m["dead"]]


def test_the_traitor_spreads_the_branches_4_tiles_apart(engine):
    # Traitor's Tome, haunt 6: "Right Now" (3 Branches at least 4 tiles apart, stairs and grates linking tiles;
    # 2 Vine Blights on each Branch's tile)
    g = tree(engine)
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    p = g.state["pending"]
    assert p["player"] == "cy" and p["kind"] == "h06_branch"
    assert len(p["data"]["tiles"]) == 6
    g.do("decide", "cy", choice=p["data"]["tiles"].index("catacomb_landing"))
    # the Tavern is 4 tiles from the Landing through the Kitchen's stairs; the Shrine is cut off
    assert g.state["pending"]["data"]["tiles"] == ["elfsong_tavern", "neglected_shrine"]
    g.decide_all()
    assert branches(g) == ["catacomb_landing", "elfsong_tavern", "neglected_shrine"]
    for tile in branches(g):
        assert sum(1 for m in living(g) if m["tile"] == tile) == 2
    assert not any("by hand" in e["text"] for e in g.events)


def test_a_tile_is_drawn_when_no_tile_is_far_enough(engine):
    # Traitor's Tome, haunt 6: "Right Now" (no room: the traitor draws and places tiles of the level needed)
    g = tree(engine)
    board = set(g.state["board"])
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    g.do("decide", "cy", choice=g.state["pending"]["data"]["tiles"].index("kitchen"))
    assert branches(g) == ["kitchen", "neglected_shrine"]     # the only tile far enough went by itself
    p = g.state["pending"]
    assert p["player"] == "cy" and p["kind"] == "h06_stack"
    while g.state["pending"] and g.state["pending"]["kind"] != "h06_branch":
        g.do("decide", "cy", choice=0)
    assert len(set(g.state["board"]) - board) >= 1
    g.decide_all()
    assert len(branches(g)) == 3


def test_with_no_tile_to_draw_a_branch_goes_as_far_as_it_can(engine):
    # Traitor's Tome, haunt 6: "Right Now"
    # Ruling: Haunt 6: a Branch with no room and no tile to draw
    def empty(g):
        for stack in ("building", "street", "catacomb"):
            g.state["stacks"][stack] = []
    g = tree(engine, empty)
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    g.do("decide", "cy", choice=g.state["pending"]["data"]["tiles"].index("kitchen"))
    p = g.state["pending"]
    assert p["player"] == "cy" and p["kind"] == "h06_branch"
    assert p["data"]["tiles"] == ["catacomb_landing", "elfsong_tavern"]   # 2 tiles from the Kitchen, the farthest
    g.do("decide", "cy", choice=0)
    assert branches(g) == ["catacomb_landing", "kitchen", "neglected_shrine"]


def test_the_traitor_gets_back_might_and_knowledge_and_gains(engine):
    # Traitor's Tome, haunt 6: "Right Now" (Might and Knowledge back to their start; then 1 Might, 2 Knowledge)
    def low(g):
        g.p("cy")["traits"]["might"] = 1
    g = tree(engine, low)
    tracks = g.c.adventurers[g.p("cy")["adventurer"]].tracks
    knowledge = g.p("cy")["traits"]["knowledge"]
    ready(g)
    assert g.p("cy")["traits"]["might"] == tracks["might"].start + 1
    assert g.p("cy")["traits"]["knowledge"] == max(knowledge, tracks["knowledge"].start) + 2


def test_each_side_is_told_its_words_in_private(engine):
    # Traitor's Tome and Secrets of Survival, haunt 6: the words to type reach their side only
    g = tree(engine)
    events = ready(g)
    assert {e["to"] for e in events if "{move:cultivate}" in e["text"]} == {"cy"}
    assert {e["to"] for e in events if "{move:branch}" in e["text"]} == {"ann", "bo"}
    assert not [e for e in events if e["kind"] == "by_hand"]


def planted(engine):
    """Branches on the Catacomb Landing (Vine Blights 1, 2), the Elfsong
    Tavern (3, 4) and the Neglected Shrine (5, 6)."""
    g = tree(engine)
    ready(g)
    assert branches(g) == ["catacomb_landing", "elfsong_tavern", "neglected_shrine"]
    return g


def test_unstunned_vine_blights_joining_two_branches_win_for_the_traitor(engine):
    # Traitor's Tome, haunt 6: "You Win When..." and "Connecting Branches" (the stairs link the Kitchen and its
    # Basement)
    g = planted(engine)
    vb(g, 3)["tile"], vb(g, 6)["tile"], vb(g, 5)["tile"] = "inner_chamber", "kitchen", "kitchen_basement"
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_stunned_vine_blight_breaks_the_link(engine):
    # Secrets of Survival, haunt 6: "Connecting Branches" (at least 1 unstunned Vine Blight on every tile)
    g = planted(engine)
    vb(g, 3)["tile"], vb(g, 6)["tile"], vb(g, 5)["tile"] = "inner_chamber", "kitchen", "kitchen_basement"
    vb(g, 6)["stunned"] = True
    g.do("end", "ann")
    assert g.state["phase"] == "haunt"


def test_cut_off_vine_blights_wither_at_the_end_of_a_turn(engine):
    # Traitor's Tome, haunt 6: "You Must Do This at the End of Each Adventurer's Turn"; Secrets of Survival:
    # "Pruning the Vine Blights" (every turn, the heroes' too)
    g = planted(engine)
    vb(g, 5)["tile"] = "kitchen"                # joined to no Branch through Vine Blights
    g.do("end", "ann")
    assert vb(g, 5)["dead"] and not vb(g, 6)["dead"]
    assert len(living(g)) == 5


def test_a_stunned_vine_blight_draws_back_and_drags_the_cut_off_ones(engine):
    # Traitor's Tome, haunt 6: "You Must Do This at the End of Each Adventurer's Turn" (second paragraph)
    # Ruling: Haunt 6: the Branch a Vine Blight is joined to
    g = planted(engine)
    vb(g, 3)["tile"], vb(g, 3)["stunned"] = "inner_chamber", True
    vb(g, 5)["tile"] = "kitchen"                 # joined to the Tavern's Branch only through Vine Blight 3
    g.do("end", "ann")
    assert vb(g, 3)["tile"] == "elfsong_tavern"
    assert vb(g, 5)["tile"] == "inner_chamber" and not vb(g, 5)["dead"]


def test_the_traitor_cultivates_a_new_branch_in_place_of_an_attack(engine, dice):
    # Traitor's Tome, haunt 6: "Cultivating More Branches" (4+ tiles from every Branch; Knowledge 4+, +1 a hero)
    g = planted(engine)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["tile"] == "catacomb_landing"]
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    g.put("cy", "kitchen")
    with pytest.raises(IllegalAction, match="4 tiles"):
        g.do("task", "cy", trait="knowledge", task="cultivate")
    g.put("cy", "elfsong_tavern")                # Ann and Bo stand there too: 6+
    dice.next(2, 2, 1)                           # 5
    g.do("task", "cy", trait="knowledge", task="cultivate")
    assert branches(g) == ["catacomb_landing"]
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "cy", trait="knowledge", task="cultivate")
    g.state["turn"]["attacked"] = False
    for pid in ("ann", "bo"):
        g.put(pid, "kitchen")
    dice.next(2, 2)                              # 4: enough with no hero beside
    g.do("task", "cy", trait="knowledge", task="cultivate")
    assert branches(g) == ["catacomb_landing", "elfsong_tavern"]
    new = [m for m in living(g) if m["tile"] == "elfsong_tavern" and m["number"] > 6]
    assert len(new) == 2 and all(m["stunned"] for m in new)


def test_the_heroes_cannot_cultivate(engine):
    # Traitor's Tome, haunt 6: "Cultivating More Branches" (the traitor's rule)
    g = planted(engine)
    with pytest.raises(IllegalAction, match="Only the traitor"):
        g.do("task", "ann", trait="knowledge", task="cultivate")
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "ann", trait="might", task="uproot")


def monster_turn(g):
    for pid in ("ann", "bo", "cy"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_two_vine_blights_grow_a_third_that_rests_this_turn(engine, dice):
    # Traitor's Tome, haunt 6: "Growing More Vine Blights" (pooled Might, 6+, in place of both attacks; the new
    # one cannot move, attack or grow in the turn it appears)
    g = planted(engine)
    g.do("end", "ann")
    g.do("end", "bo")
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "cy", task="grow", tile="catacomb_landing")
    g.do("end", "cy")
    assert vb(g, 1)["tile"] == "catacomb_landing"
    dice.next(2, 2, 2)                           # 6 dice: 6
    events = g.do("task", "cy", task="grow", tile="catacomb_landing")
    assert any("(6 dice" in e["text"] for e in events if e["kind"] == "roll")
    new = vb(g, 7)
    assert new["tile"] == "catacomb_landing"
    way = next(side for side, tile in bd.exits(g.c, g.state["board"], "catacomb_landing").items() if tile)
    with pytest.raises(IllegalAction, match="just grown"):
        g.do("monster", "cy", op="move", monster="Vine Blight 7", way=way)
    with pytest.raises(IllegalAction, match="cannot take that tile"):
        g.do("task", "cy", task="grow", tile="catacomb_landing")   # both have used their attack, the new one rests
    g.put("ann", "catacomb_landing")
    with pytest.raises(IllegalAction):
        g.do("monster", "cy", op="attack", monster="Vine Blight 1", target="ann")


def test_a_failed_growth_still_spends_both_attacks(engine, dice):
    # Traitor's Tome, haunt 6: "Growing More Vine Blights" ("instead of attacking")
    g = planted(engine)
    monster_turn(g)
    dice.next(2, 2, 1)                           # 5
    assert vb(g, 3)["tile"] == "elfsong_tavern"
    g.do("task", "cy", task="grow", tile="elfsong_tavern")
    assert len(living(g)) == 6
    g.put("ann", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("monster", "cy", op="attack", monster="Vine Blight 4", target="ann")


def test_a_hero_cuts_a_branch_as_an_attack(engine, dice):
    # Secrets of Survival, haunt 6: "Destroying Branches"; Traitor's Tome: "Protecting the Branches" (Might 5+,
    # 1 harder per 2 unstunned Vine Blights; no damage on a miss)
    g = planted(engine)
    before = dict(g.p("ann")["traits"])
    dice.next(2, 2, 1)                           # 5: the Tavern's 2 Vine Blights make it 6+
    g.do("task", "ann", trait="might", task="branch")
    assert "elfsong_tavern" in branches(g) and g.p("ann")["traits"] == before
    with pytest.raises(IllegalAction, match="attacked this turn"):
        g.do("task", "ann", trait="might", task="branch")
    g.do("end", "ann")
    vb(g, 3)["stunned"] = True                   # 1 unstunned Vine Blight: 5+ again
    g.p("bo")["traits"]["might"] = 6
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="might", task="branch")
    assert "elfsong_tavern" not in branches(g)


def test_the_heroes_win_when_the_traitor_is_dead_and_no_branch_is_left(engine, dice):
    # Secrets of Survival, haunt 6: "You Win When..." and "Destroying Branches" (the last Branch, the traitor dead)
    g = planted(engine)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["tile"] == "elfsong_tavern"]
    g.p("cy")["alive"] = False
    dice.next(2, 2, 2)
    g.do("task", "ann", trait="might", task="branch")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_no_branch_left_is_not_enough_while_the_traitor_lives(engine, dice):
    # Secrets of Survival, haunt 6: "Destroying Branches" ("as soon as the traitor is killed")
    g = planted(engine)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["tile"] == "elfsong_tavern"]
    dice.next(2, 2, 2)
    g.do("task", "ann", trait="might", task="branch")
    assert branches(g) == [] and g.state["phase"] == "haunt"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 6: "Destroying Branches" (a hero's attack on a Branch's tile); Traitor's Tome,
    # haunt 6: "Cultivating More Branches" and "Growing More Vine Blights" (the monster turn, two that can act):
    # the buttons offer exactly what the engine allows
    def offered():
        return {(a.get("trait"), a["task"], a.get("card") or a.get("tile"))
                for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = planted(engine)
    g.give("ann", "crossbow")
    assert g.p("ann")["tile"] == "elfsong_tavern"
    assert offered() == {("might", "branch", None)}                # the Crossbow attacks with Speed
    g.give("ann", "berserker_axe")
    assert offered() == {("might", "branch", None), ("might", "branch_with", "berserker_axe")}
    assert goals("ann") == set(branches(g)) | {g.p("cy")["tile"]}
    dice.next(0)
    g.do("task", "ann", trait="might", task="branch")
    assert offered() == set()                                # the cut was the attack of the turn
    g.do("end", "ann")
    g.do("end", "bo")
    assert all(task != "branch" for _, task, _ in offered())  # the traitor cuts no Branch
    g.do("end", "cy")
    assert g.state["turn"].get("monsters")
    grows = {tile for _, task, tile in offered() if task == "grow"}
    # one growth offered per tile with two Vine Blights that can still act (the pair grows together)
    assert grows == {m["tile"] for m in living(g)}
