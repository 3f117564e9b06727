"""Haunt 30, Darkness Falls (no traitor), played through the engine's
actions: the dark city laid face down, searching it, components and
Cultists, carrying components home, the track, the Cultists' turn and both
ways the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.death import die
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_play import revealed

TIME, LEFT = "Time left", "Spell components not yet delivered"


def dark(engine):
    """Ann reveals haunt 30 on the Executioner's Block (Eye of Vecna) with the
    Storehouse, the Fountain and Ambush Alley also in the city. Order: Bo,
    Cy, Ann, then the Cultists."""
    g = revealed(engine, "executioners_block", "eye_of_vecna")
    assert g.state["haunt"]["number"] == 30
    g.place("storehouse", "city", 3, 0)
    g.place("fountain", "city", 2, 1)
    g.place("ambush_alley", "city", 2, -1)
    g.put("cy", "kitchen_basement")
    g.state["tokens"].append({"name": "Caltrops", "tile": "fountain"})
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    return g


def face_down(g):
    return sorted(t for t, p in g.state["board"].items() if p.get("face_down"))


def counters(g):
    return g.state["haunt"]["counters"]


def components(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Spell component")


def test_setup_lays_the_city_face_down_around_the_start_tile(engine):
    # Secrets of Survival, haunt 30: "Right Now" (tokens discarded; the city tiles shuffled face down around the
    # start tile, diagonals included; the track at heroes + 1; one component and one Cultist per hero)
    # Ruling: where the adventurers go when the city is laid face down (the Elfsong Tavern)
    g = dark(engine)
    assert face_down(g) == ["ambush_alley", "executioners_block", "fountain", "storehouse"]
    board = g.state["board"]
    for t in ("kitchen", "inner_chamber", "elfsong_tavern"):
        assert not board[t].get("face_down")
    for t in face_down(g):                              # in the first ring around the start tile
        assert -1 <= board[t]["x"] <= 3 and -1 <= board[t]["y"] <= 1
    assert not g.state["tokens"]
    assert all(g.p(p)["tile"] == "elfsong_tavern" for p in ("ann", "bo", "cy"))
    assert counters(g)[TIME] == 4 and counters(g)[LEFT] == 3
    assert g.state["haunt"]["h30"]["components"] == 3 and g.state["haunt"]["h30"]["cultists"] == 3
    assert not any("by hand" in t for t in g.texts())
    check(g.c, g.state)


def step_into(g, pid, tile):
    """Move `pid` from the Elfsong Tavern onto the face-down `tile` next to it."""
    here = g.state["board"][g.p(pid)["tile"]]
    there = g.state["board"][tile]
    way = {(0, -1): "north", (1, 0): "east", (0, 1): "south", (-1, 0): "west"}[
        (there["x"] - here["x"], there["y"] - here["y"])]
    g.do("move", pid, way=way)


def neighbour_of_tavern(g):
    board = g.state["board"]
    t = board["elfsong_tavern"]
    return next(x for x in face_down(g) if abs(board[x]["x"] - t["x"]) + abs(board[x]["y"] - t["y"]) == 1)


def test_walking_onto_a_face_down_tile_turns_it_up_and_searches_it(engine):
    # Secrets of Survival, haunt 30: "How to Search the City" (flip it face up joined to your door; a component on
    # an item or omen tile, then the card as for a discovery, which ends the move)
    # Ruling: which discovered tiles get a component or a Cultist
    g = dark(engine)
    assert neighbour_of_tavern(g) == "storehouse" and g.state["board"]["storehouse"]["y"] == -1   # north of it
    items = len(g.p("bo")["cards"])
    g.do("move", "bo", way="north")
    g.decide_all()
    assert "storehouse" not in face_down(g) and g.p("bo")["tile"] == "storehouse"
    from bot.games.babg.engine import board as bd
    assert bd.exits(g.c, g.state["board"], "storehouse").get("south") == "elfsong_tavern"
    assert components(g) == ["storehouse"] and g.state["haunt"]["h30"]["components"] == 2
    assert len(g.p("bo")["cards"]) == items + 1 and g.state["turn"]["stopped"]
    check(g.c, g.state)


def test_an_event_tile_brings_a_cultist(engine):
    # Secrets of Survival, haunt 30: "How to Search the City" (an event symbol: a Cultist, then an event card)
    g = dark(engine)
    g.do("move", "bo", way="north")
    g.decide_all()
    g.do("end", "bo")
    g.put("cy", "storehouse")
    g.do("move", "cy", way="west")            # onto the face-down Fountain (a blank tile: no card)
    g.decide_all()
    assert g.p("cy")["tile"] == "fountain" and not g.state["turn"]["stopped"]
    g.do("move", "cy", way="west")            # Ambush Alley, an event tile
    g.decide_all()
    assert [m["tile"] for m in g.state["monsters"] if m["name"] == "Cultist"] == ["ambush_alley"]
    check(g.c, g.state)


def test_a_component_is_carried_home_to_win(engine):
    # Secrets of Survival, haunt 30: "Collecting Components" and "You Win When..." (Ruling: a component counts as
    # delivered lying on the Elfsong Tavern or held by a hero standing there)
    # Ruling: when a component counts as delivered
    g = dark(engine)
    g.state["haunt"]["h30"].update({"total": 1})
    g.state["tokens"].append({"name": "Spell component", "tile": "inner_chamber"})
    g.do("move", "bo", way="west")
    g.do("task", "bo", task="pickup")
    assert g.state["haunt"]["h30"]["carried"] == {"bo": 1}
    with pytest.raises(IllegalAction, match="No spell component"):
        g.do("task", "bo", task="pickup")
    g.do("move", "bo", way="east")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_components_are_dropped_given_and_fall_with_a_dead_hero(engine):
    # Secrets of Survival, haunt 30: "Collecting Components" (pick up, trade or drop like an item)
    g = dark(engine)
    g.state["haunt"]["h30"]["carried"] = {"bo": 2}
    g.do("task", "bo", task="drop")
    assert components(g) == ["elfsong_tavern"] and counters(g)[LEFT] == 1   # 1 lying there, 1 held there
    assert {"type": "task", "player": "bo", "task": "give", "target": "ann"} in legal_actions(g.c, g.state)
    g.do("task", "bo", task="give", target="ann")
    assert g.state["haunt"]["h30"]["carried"] == {"ann": 1}
    g.put("ann", "inner_chamber")
    die(Ctx(g.c, g.state), "ann", "test")
    assert components(g) == ["elfsong_tavern", "inner_chamber"]


def test_the_track_drops_after_the_revealers_turn_and_ends_the_haunt_at_zero(engine):
    # Secrets of Survival, haunt 30: "You Must Do This at the End of the Haunt Revealer's Turn"
    g = dark(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert counters(g)[TIME] == 3
    counters(g)[TIME] = 1
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"
    assert any("The heroes are lost" in t for t in g.texts())


def test_the_track_still_drops_when_the_revealer_is_dead(engine):
    # Ruling: a dead revealer's turn still moves the track when it would have come
    g = dark(engine)
    die(Ctx(g.c, g.state), "ann", "test")
    g.do("end", "bo")
    g.do("end", "cy")
    assert counters(g)[TIME] == 3 and g.state["turn"]["player"] == "bo"


def test_the_cultists_move_to_see_the_most_heroes_and_attack_all_they_see(engine, dice):
    # Secrets of Survival, haunt 30: "Special Cultist Attack Rules" (to the tile seeing the most heroes, without
    # heroes if possible; a Knowledge attack on every hero in sight; no damage from heroes on other tiles)
    g = dark(engine)
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine import haunt_play
    haunt_play.add_monster(ctx, "Cultist", "kitchen")
    g.put("cy", "inner_chamber")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1)                               # Speed for the Cultists: 1 space
    dice.next(2, 2, 2, 2)                      # Cultist on Ann: 8
    dice.next(0, 0, 0, 0)                      # Ann defends: 0
    dice.next(0, 0, 0, 0)                      # Cultist on Bo: 0
    dice.next(2, 2, 2, 2)                      # Bo defends: 8
    dice.next(0, 0, 0, 0)                      # Cultist on Cy
    dice.next(2, 2, 2, 2)                      # Cy defends
    g.do("end", "ann")
    said = g.texts()
    cultist = next(m for m in g.state["monsters"] if m["name"] == "Cultist")
    assert cultist["tile"] == "kitchen"        # it already sees all three and stands on no hero's tile
    assert sum("attacks" in t and "Knowledge" in t for t in said) == 3
    assert not cultist["stunned"]              # it lost only to heroes on other tiles
    g.decide_all()


def test_no_dead_end_puts_a_stack_tile_in_place(engine):
    # Secrets of Survival, haunt 30: "No Dead Ends"
    g = dark(engine)
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine.haunts import h30_darkness_falls as h30
    board = g.state["board"]
    for t in list(face_down(g)):
        if t != "storehouse":
            board.pop(t)
            g.state["set_aside"]["street" if g.c.tiles[t].kind == "street" else "building"].append(t)
    g.state["board"]["storehouse"].update({"x": 3, "y": 0})
    new = h30.replace_dead_end(ctx, "storehouse", "west")
    assert new != "storehouse" and new in board and "storehouse" in g.state["set_aside"]["building"]


def test_buttons_and_goals(engine):
    # Secrets of Survival, haunt 30 (what the buttons and the built-in players are offered)
    g = dark(engine)
    g.state["tokens"].append({"name": "Spell component", "tile": "inner_chamber"})
    ctx = Ctx(g.c, g.state)
    assert set().union(*hooks.fire("haunt_goals", ctx, "bo")) == {"inner_chamber"}
    g.put("bo", "inner_chamber")
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert offered == [{"type": "task", "player": "bo", "task": "pickup"}]
    g.do("task", "bo", task="pickup")
    assert set().union(*hooks.fire("haunt_goals", Ctx(g.c, g.state), "bo")) == {"elfsong_tavern"}


def test_a_face_down_tile_walled_off_moves_where_it_can_be_reached(engine):
    # Ruling: a face-down tile left with no way in moves to the first free square of the rings joined to the city
    g = dark(engine)
    board = g.state["board"]
    board["spys_roost"] = {"level": "city", "x": 3, "y": 0, "rot": 0, "face_down": True}   # east of the tavern
    for stack in g.state["stacks"].values():
        if "spys_roost" in stack:
            stack.remove("spys_roost")
    board["watch_post"] = {"level": "city", "x": 4, "y": 0, "rot": 0, "face_down": True}   # beyond it
    for stack in g.state["stacks"].values():
        if "watch_post" in stack:
            stack.remove("watch_post")
    g.do("move", "bo", way="east")            # the Spy's Roost has one doorway: it walls off the Watch Post
    g.decide_all()
    from bot.games.babg.engine import city
    assert not city.stranded(Ctx(g.c, g.state), g.state["board"], "city")
    moved = g.state["board"]["watch_post"]
    assert (moved["x"], moved["y"]) != (4, 0) and moved["face_down"]
    check(g.c, g.state)


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = dark(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="trade")


def test_a_component_picked_up_is_not_handed_on_the_same_turn(engine):
    # Rulebook, "Use Item and Omen Cards" (L288-292: one action for each item a turn); Secrets of Survival,
    # haunt 30, "Collecting Components" (L4410: components are picked up, traded and dropped as items are).
    # Found: a component was picked up and handed on in one turn
    g = dark(engine)
    g.state["tokens"].append({"name": "Spell component", "tile": "elfsong_tavern"})
    g.do("task", "bo", task="pickup")
    with pytest.raises(IllegalAction, match="already been moved this turn"):
        g.do("task", "bo", task="give", target="ann")
    with pytest.raises(IllegalAction, match="already been moved this turn"):
        g.do("task", "bo", task="drop")
    assert not any(a["type"] == "task" and a["task"] in ("give", "drop") for a in legal_actions(g.c, g.state))
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all()
    g.do("end", "ann")
    g.decide_all()
    while g.state["turn"]["player"] != "bo" or g.state["turn"].get("monsters"):
        g.do("end", g.state["turn"]["player"])
        g.decide_all()
    g.do("task", "bo", task="give", target="ann")   # a new turn: the component may be handed on
    assert g.state["haunt"]["h30"]["carried"] == {"ann": 1}


def test_a_component_dropped_is_not_picked_up_again_the_same_turn(engine):
    # Rulebook, "Use Item and Omen Cards" (L288-292); Secrets of Survival, haunt 30, "Collecting Components"
    # (L4410): one action with each component a turn
    g = dark(engine)
    g.state["haunt"]["h30"]["carried"] = {"bo": 2}
    g.do("task", "bo", task="drop")
    with pytest.raises(IllegalAction, match="dropped this turn"):
        g.do("task", "bo", task="pickup")
    g.do("task", "bo", task="drop")   # the second one held has not been moved yet
    assert g.state["haunt"]["h30"].get("carried") == {}


def test_carried_components_follow_a_seat_handover(engine):
    # Secrets of Survival, haunt 30, "Collecting Components". Found: after a seat handover the record still named
    # the old player and the next count of the components raised KeyError
    g = dark(engine)
    g.state["haunt"]["h30"]["carried"] = {"bo": 1}
    g.do("handover", "bo", to="zed", name="Zed")
    assert g.state["haunt"]["h30"]["carried"] == {"zed": 1}
    g.do("task", "zed", task="drop")
    assert components(g) == ["elfsong_tavern"]
