"""Haunt 5, Labyrinth, played through the engine's actions: the traitor's
figure leaving, the labyrinth built and rearranged, the key and the
Minotaur placed where the traitor picks, the countdown, lockdown, the key,
unlocking, the way home, the Minotaur's hit points and its charge."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.board import line_of_sight
from tests.test_haunt_play import revealed

COUNTDOWN, HIT_POINTS = "Labyrinth countdown", "Minotaur hit points"


def answer_setup(g, choice=0):
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=choice)


def labyrinth(engine):
    """Ann reveals haunt 5 on the Beast's Lair with the Cursed Armor; Ann
    (Torskar, the lowest Knowledge) is the traitor; order Bo, Cy, Ann, then
    the monster turn."""
    g = revealed(engine, "beasts_lair", "cursed_armor")
    assert g.state["haunt"]["number"] == 5 and g.state["haunt"]["traitors"] == ["ann"]
    for pid in g.state["seats"]:
        g.do("ready", pid)
    answer_setup(g)
    return g


def out_of_sight(g, tile):
    """A catacomb tile from which the Minotaur cannot see `tile`."""
    return next(t for t, p in sorted(g.state["board"].items()) if p["level"] == "catacomb"
                and not line_of_sight(g.c, g.state["board"], t, tile))


def minotaur(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Minotaur")


def key(g):
    return next((t for t in g.state["tokens"] if t["name"] == "Labyrinth key"), None)


def test_setup_builds_the_labyrinth_and_places_key_and_minotaur_where_the_traitor_picks(engine):
    # Traitor's Tome, haunt 5: "Right Now" (the figure leaves, cards discarded; 8 catacomb tiles; rearranging; the
    # key as far from the Kitchen Basement as possible; the Minotaur on a catacomb tile); Secrets of Survival,
    # haunt 5: "Right Now" (the heroes on the Catacomb Landing). Ruling: Haunt 5: the start tile counts once.
    g = revealed(engine, "beasts_lair", "cursed_armor")
    g.give("ann", "crossbow")
    seen = []
    for pid in g.state["seats"]:
        seen += g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h05_build"
    assert all("door" in o for o in pending["options"])
    asked = []
    while g.state["pending"]:
        pending = g.state["pending"]
        asked.append(pending["kind"])
        if pending["kind"] == "place_chosen" and "Labyrinth key" in pending["prompt"]:
            tiles = pending["data"]["tiles"]
            assert all(g.state["board"][t]["level"] == "catacomb" for t in tiles)
        if pending["kind"] == "place_chosen" and "Minotaur" in pending["prompt"]:
            assert all(g.state["board"][t]["level"] == "catacomb" for t in pending["data"]["tiles"])
        assert pending["player"] == "ann"
        seen += g.do("decide", "ann", choice=0)
    assert asked.count("h05_build") == 6 and "h05_rearrange" in asked
    assert sum(1 for p in g.state["board"].values() if p["level"] == "catacomb") - 1 == 8
    assert g.p("ann")["cards"] == [] and "crossbow" in g.state["discard"]["item"]
    assert any(m["kind"] == "away" for m in g.p("ann")["marks"])
    assert g.p("bo")["tile"] == g.p("cy")["tile"] == "catacomb_landing"
    assert g.state["haunt"]["counters"] == {HIT_POINTS: 4, COUNTDOWN: 5}
    assert key(g) and g.state["board"][key(g)["tile"]]["level"] == "catacomb"
    assert g.state["turn"]["player"] == "bo"
    # the words to type reach only their side
    to = {e["to"] for e in seen if "{move:charge}" in e["text"]}
    assert to == {"ann"}
    to = {e["to"] for e in seen if "{move:unlock}" in e["text"]}
    assert to == {"bo", "cy"}
    assert not [e for e in seen if e["kind"] == "by_hand"]


def test_the_countdown_falls_at_the_traitors_turn_and_wins_at_zero(engine):
    # Traitor's Tome, haunt 5: "You Must Do This at the Start of Your Turn" and "You Win When..."
    g = labyrinth(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann" and g.state["haunt"]["counters"][COUNTDOWN] == 4
    g.state["haunt"]["counters"][COUNTDOWN] = 1
    g.do("end", "ann")
    g.do("end", "ann")                         # the monster turn
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_lockdown_until_the_labyrinth_is_unlocked(engine, dice):
    # Secrets of Survival, haunt 5: "Lockdown" and "Unlocking the Labyrinth" (with the key, stairs up, Speed 3+)
    g = labyrinth(engine)
    minotaur(g)["tile"] = out_of_sight(g, "kitchen_basement")
    g.put("bo", "kitchen_basement")
    with pytest.raises(IllegalAction, match="locked"):
        g.do("move", "bo", way="stairs")
    with pytest.raises(IllegalAction, match="need the key"):
        g.do("task", "bo", trait="speed", task="unlock")
    g.state["haunt"]["h05"]["holder"] = "bo"
    dice.next(2, 1)                            # Speed 3, out of the Minotaur's sight
    g.do("task", "bo", trait="speed", task="unlock")
    assert g.state["haunt"]["h05"]["unlocked"]
    g.do("move", "bo", way="stairs")
    assert g.p("bo")["tile"] == "kitchen"


def test_taking_the_key_is_harder_in_the_minotaurs_sight(engine, dice):
    # Secrets of Survival, haunt 5: "How to Collect the Key" (Knowledge or Sanity 4+, +1 in the Minotaur's sight)
    g = labyrinth(engine)
    tile = key(g)["tile"]
    g.put("bo", tile)
    minotaur(g)["tile"] = tile                 # on the same tile: in sight
    dice.next(2, 2)                            # 4: not enough against 5+
    g.do("task", "bo", trait="knowledge", task="key")
    assert key(g) and any("(Knowledge 5+)" in t for t in g.texts())
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="sanity", task="key")
    g.do("end", "bo")
    g.put("cy", tile)
    minotaur(g)["tile"] = out_of_sight(g, tile)
    dice.next(2, 2)
    g.do("task", "cy", trait="sanity", task="key")
    assert any("(Sanity 4+)" in t for t in g.texts())
    assert key(g) is None and g.state["haunt"]["h05"]["holder"] == "cy"


def test_a_dropped_key_is_picked_up_without_a_roll(engine, dice):
    # Secrets of Survival, haunt 5: "How to Collect the Key" (dropped when a hero dies; no roll to pick it up)
    g = labyrinth(engine)
    g.state["tokens"].remove(key(g))
    g.state["haunt"]["h05"].update(holder="cy", found=True)
    g.put("cy", "catacomb_landing")
    g.p("cy")["traits"]["might"] = 1
    minotaur(g)["tile"] = "catacomb_landing"
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    dice.next(2, 2, 2, 2, 2, 2)                # the Minotaur's Might 12
    g.do("monster", "ann", op="attack", monster="Minotaur", target="cy")
    answer_setup(g)
    assert not g.p("cy")["alive"] and key(g)["tile"] == "catacomb_landing" and key(g)["dropped"]
    g.do("end", "ann")
    g.put("bo", "catacomb_landing")
    with pytest.raises(IllegalAction, match="no roll"):
        g.do("task", "bo", trait="knowledge", task="key")
    g.do("task", "bo", task="pick")
    assert g.state["haunt"]["h05"]["holder"] == "bo" and key(g) is None


def test_the_heroes_win_when_the_key_reaches_the_city(engine):
    # Secrets of Survival, haunt 5: "Returning the Key"
    g = labyrinth(engine)
    g.state["haunt"]["h05"].update(holder="bo", found=True, unlocked=True)
    g.put("bo", "kitchen")
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_minotaur_loses_a_token_for_two_damage_and_dies_without_one(engine, dice):
    # Traitor's Tome, haunt 5: "Damaging the Minotaur" (never stunned; 2+ from one effect; none left: killed) and
    # Secrets of Survival, haunt 5: "You Win When..." (the Minotaur killed)
    g = labyrinth(engine)
    minotaur(g)["tile"] = "catacomb_landing"
    dice.next(1)                               # Bo (Lia): 1
    g.do("attack", "bo", target="Minotaur")    # the Minotaur: 0 -> 1 damage
    assert g.state["haunt"]["counters"][HIT_POINTS] == 4 and not minotaur(g)["stunned"]
    g.do("end", "bo")
    g.state["haunt"]["counters"][HIT_POINTS] = 1
    dice.next(2, 2, 2)                         # Cy: 6
    g.do("attack", "cy", target="Minotaur")
    assert g.state["haunt"]["counters"][HIT_POINTS] == 0 and g.state["phase"] == "haunt"
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")
    dice.next(2, 2)
    g.do("attack", "bo", target="Minotaur")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_minotaur_charges_in_a_line_attacking_each_hero_once(engine, dice):
    # Traitor's Tome, haunt 5: "Special Charging Attack Rules" (straight through open doors, each hero on a tile
    # left or entered attacked once; once a turn, twice once the heroes have the key). Ruling: Haunt 5: the Minotaur
    # acts in the monster turn.
    g = labyrinth(engine)
    minotaur(g)["tile"] = "kitchen_basement"
    g.put("bo", "kitchen_basement")
    g.put("cy", "catacomb_landing")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")
    g.do("task", "ann", task="charge", way="east")
    if g.state["pending"] and g.state["pending"]["kind"] == "h05_charge":
        g.do("decide", "ann", choice=0)        # stop on the Catacomb Landing
    answer_setup(g)
    attacks = [e["text"] for e in g.events if "Minotaur's charge at" in e["text"]]
    assert len(attacks) == 2 and "Bo" in attacks[0] and "Cy" in attacks[1]
    assert minotaur(g)["tile"] == "catacomb_landing"
    with pytest.raises(IllegalAction, match="charged 1 time"):
        g.do("task", "ann", task="charge", way="west")
    with pytest.raises(IllegalAction):
        g.do("monster", "ann", op="move", monster="Minotaur", way="west")
    g.state["haunt"]["h05"]["found"] = True
    g.do("task", "ann", task="charge", way="west")
    answer_setup(g)
    assert minotaur(g)["tile"] == "kitchen_basement"


def test_the_traitor_rearranges_as_many_tiles_as_the_sanity_roll(engine, dice):
    # Traitor's Tome, haunt 5: "Rearranging the Labyrinth", "Rotating a Tile" and "Shifting a Tile". Ruling: Haunt
    # 5: each change may not cut more tiles off the Kitchen Basement than are already.
    g = labyrinth(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1)                               # Sanity: 1 change
    g.do("task", "ann", trait="sanity", task="rearrange")
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["options"][0] == "Done" and "1 left" in pending["prompt"]
    turn = next(i for i, o in enumerate(pending["options"]) if o.startswith("Turn the ") and o.endswith("a quarter"))
    (tile,) = pending["data"]["changes"][turn - 1]
    before = g.state["board"][tile]["rot"]
    assert f"Turn the {g.c.tiles[tile].name} a half" in pending["options"]  # "one or more sides": one change
    g.do("decide", "ann", choice=turn)
    assert g.state["board"][tile]["rot"] == (before + 1) % 4
    assert g.state["pending"] is None, "the roll allowed one change"
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "ann", trait="sanity", task="rearrange")


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 5: "How to Collect the Key" and "Unlocking the Labyrinth"; Traitor's Tome, haunt 5:
    # "Rearranging the Labyrinth" (once in the traitor's turn) and "Special Charging Attack Rules" (the monster
    # turn): the buttons offer exactly what the engine allows; the heroes head for the key, then the stairs up
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = labyrinth(engine)
    tile = key(g)["tile"]
    assert goals("bo") == {tile} and goals("ann") == set()
    assert offered() == set()                                  # Bo is not on the key's tile
    g.put("bo", tile)
    assert offered() == {("knowledge", "key"), ("sanity", "key")}
    minotaur(g)["tile"] = out_of_sight(g, tile)
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="key")
    assert g.state["haunt"]["h05"]["holder"] == "bo" and offered() == set()
    assert goals("bo") == {"kitchen_basement"} and goals("cy") == {tile}
    g.put("bo", "kitchen_basement")
    assert offered() == {("speed", "unlock")}
    g.state["haunt"]["h05"]["unlocked"] = True
    assert offered() == set() and goals("bo") == {"kitchen"}
    g.do("end", "bo")
    g.do("end", "cy")
    assert ("sanity", "rearrange") in offered() and not any("charge" in t for _, t in offered())
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")
    assert {t for _, t in offered()} == {"charge"}
    ways = {a["way"] for a in legal_actions(engine.content, g.state) if a["type"] == "task"}
    out = g.state["board"][minotaur(g)["tile"]]
    assert ways and ways <= {"north", "east", "south", "west"} and out


def test_the_traitor_shifts_a_group_of_tiles_as_one_change(engine, dice):
    # Traitor's Tome, haunt 5: "Shifting a Tile" (L1035-1037: a tile detached with the group beyond it; any tile of
    # the group joined to the tile it was detached from; one shift). Ruling: Haunt 5: the group may be laid in any
    # of the four turns as a whole.
    g = labyrinth(engine)
    keep = {"kitchen_basement", "catacomb_landing", "assassins_run", "gladiator_pit", "forgotten_cache",
            "smugglers_drop"}
    board = g.state["board"]
    board.update({"assassins_run": {"level": "catacomb", "x": 1, "y": 1, "rot": 0},
                  "gladiator_pit": {"level": "catacomb", "x": 1, "y": 2, "rot": 0},
                  "forgotten_cache": {"level": "catacomb", "x": 2, "y": 0, "rot": 0},
                  "smugglers_drop": {"level": "catacomb", "x": 3, "y": 0, "rot": 3}})
    for tile in [t for t, p in board.items() if p["level"] == "catacomb" and t not in keep]:
        del board[tile]
    minotaur(g)["tile"] = "smugglers_drop"
    key(g)["tile"] = "gladiator_pit"
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1)                               # Sanity: 1 change
    g.do("task", "ann", trait="sanity", task="rearrange")
    options = g.state["pending"]["options"]
    # alone, the Assassin's Run may not leave: the Gladiator Pit beyond it would be cut off
    assert not any(o.startswith("Move the Assassin's Run") for o in options)
    shift = "Shift the Assassin's Run with the 1 tile beyond it: the Assassin's Run to the Catacomb Landing's " \
            "north door, turned a half"
    assert shift in options
    g.do("decide", "ann", choice=options.index(shift))
    board = g.state["board"]
    assert (board["assassins_run"]["x"], board["assassins_run"]["y"]) == (1, -1)
    assert (board["gladiator_pit"]["x"], board["gladiator_pit"]["y"]) == (1, -2)
    assert key(g)["tile"] == "gladiator_pit"   # what lies on the group goes with it
    assert g.state["pending"] is None, "the group shift is one change"
    from bot.games.babg.engine.haunts.h05_labyrinth import cut_off  # noqa: PLC0415
    assert cut_off(Ctx(engine.content, g.state), board) == 0


def test_only_the_declared_moves_are_accepted(engine):
    # the haunt's moves are declared (rearrange, charge, key, pick, unlock): any other name is refused, and a
    # charge needs a way out through an open door
    g = labyrinth(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="speed", task="escape")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    with pytest.raises(IllegalAction, match="Which way"):
        g.do("task", "ann", task="charge")
    with pytest.raises(IllegalAction, match="cannot take that way"):
        g.do("task", "ann", task="charge", way="up")
