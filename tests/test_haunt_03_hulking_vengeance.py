"""Haunt 3, Hulking Vengeance (no traitor), played through the engine's
actions: the Temple fetched and guarded, the Umber Hulk's walk through
walls, quest tokens instead of stuns, its blow against the defences, the
gaze at the start of a hero's turn, shoring up, and both endings."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts.h03_hulking_vengeance import hulk_spaces
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

TEMPLE, SPELL = "temple_of_umberlee", "Domination spell"


def hulking(engine, door=0):
    """Ann reveals haunt 3 on the Beast's Lair (a catacomb tile here); the
    order is Bo, Cy, Ann, then the Umber Hulk's turn."""
    g = revealed(engine, "beasts_lair", "dimensional_shackles")
    assert g.state["haunt"]["number"] == 3
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.do("decide", "ann", choice=door)  # the Temple's door
    return g


def hulk(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Umber Hulk")


def tokens(g, name, tile=TEMPLE):
    return sum(1 for t in g.state["tokens"] if t["name"] == name and t["tile"] == tile)


def to_monster_turn(g):
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_setup_fetches_the_temple_to_a_door_the_revealer_picks_and_guards_it(engine):
    # Secrets of Survival, haunt 3: "Right Now" (the Hulk on the omen tile; the Temple from the building stack onto
    # an open city door, building doors first; Obstacles = half the adventurers rounded up; the slider at
    # adventurers + 1). Ruling: Haunt 3: the Temple is turned the way that joins the most doorways without sealing
    # the level.
    g = revealed(engine, "beasts_lair", "dimensional_shackles")
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h03_temple"
    assert pending["options"] == ["The Inner Chamber's north door", "The Inner Chamber's south door",
                                  "The Kitchen's north door", "The Kitchen's south door"]
    assert g.state["turn"] is None, "the first turn waits for the Temple"
    g.do("decide", "ann", choice=0)
    assert g.state["board"][TEMPLE] == {"level": "city", "x": 1, "y": -1, "rot": 0}
    assert TEMPLE not in g.state["stacks"]["building"]
    assert hulk(g)["tile"] == "beasts_lair"
    assert tokens(g, "Obstacle") == 2 and g.state["haunt"]["counters"][SPELL] == 4
    assert g.state["turn"]["player"] == "bo"
    assert not any("by hand" in e["text"] for e in g.events)
    assert not [e for e in g.events if e["kind"] == "by_hand"]
    assert any("{move:shore}" in e["text"] for e in g.events)


def test_the_hulk_walks_the_shortest_way_through_walls_and_stairs(engine, dice):
    # Secrets of Survival, haunt 3: "Special Umber Hulk Movement Rules" (adjacent tiles without doors, stairs;
    # always the shortest way to the Temple) and "Activating the Umber Hulk" (after the revealer's turn)
    g = hulking(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1, 1, 1)                         # its Speed roll: 3
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and g.state["turn"]["player"] == "ann"
    # Beast's Lair -> Catacomb Landing -> Kitchen Basement (the wall-less step from the Lair is no door)
    assert hulk(g)["tile"] == "kitchen_basement"
    with pytest.raises(IllegalAction):
        g.do("monster", "ann", op="move", monster="Umber Hulk", way="stairs")
    dice.next(0)                               # (no Might roll: it is not on the Temple)
    g.do("end", "ann")
    assert g.state["haunt"]["counters"][SPELL] == 3
    to_monster_turn(g)
    # Speed 0 gives it 1 space; the stairs cost 2, but a first move is always allowed (shared ruling on stairs)
    assert hulk(g)["tile"] == "kitchen"


def test_the_hulk_reaches_the_temple_and_stays(engine, dice):
    # Secrets of Survival, haunt 3: "Special Umber Hulk Movement Rules" (once there it does not move on)
    g = hulking(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(2, 2, 2, 2, 2, 2)                # Speed 12: 6 spaces reach the Temple
    g.do("end", "ann")
    assert hulk(g)["tile"] == TEMPLE
    assert [e for e in g.events if e["kind"] == "monster_move"][-1]["tile"] == TEMPLE


def test_equally_short_ways_are_the_runners_choice(engine, dice):
    # Secrets of Survival, haunt 3: "Special Umber Hulk Movement Rules" (the shortest way; Ruling: among equally
    # short ones, whoever runs the monsters picks)
    g = hulking(engine)
    g.place("gray_harbor", "city", 0, -1)
    hulk(g)["tile"] = "kitchen"
    to_monster_turn(g)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["options"] == ["Gray Harbor", "Inner Chamber"]


def test_damage_puts_a_quest_token_on_the_temple_instead_of_stunning(engine, dice):
    # Secrets of Survival, haunt 3: "Special Umber Hulk Damage Rules"
    g = hulking(engine)
    g.put("bo", "beasts_lair")
    dice.next(2, 2)                            # Bo (Lia) attacks: 4
    dice.next(0, 0, 0, 0, 0, 0, 0)             # the Hulk defends: 0
    g.do("attack", "bo", target="Umber Hulk")
    assert not hulk(g)["stunned"] and tokens(g, "quest") == 1


def test_the_blow_against_the_defences_and_the_heroes_lose_with_the_last_obstacle(engine, dice):
    # Secrets of Survival, haunt 3: "Destroying a Defense" (Might minus 1 per quest token, which are cleared; 4+
    # one Obstacle) and "You Lose When..." (the last Obstacle token)
    g = hulking(engine)
    hulk(g)["tile"] = TEMPLE
    g.state["tokens"].append({"name": "quest", "tile": TEMPLE})
    to_monster_turn(g)
    dice.next(2, 2, 1)                         # its Might: 5, minus 1 quest token = 4
    g.do("end", "ann")
    assert tokens(g, "quest") == 0 and tokens(g, "Obstacle") == 1
    assert g.state["phase"] == "haunt" and g.state["haunt"]["counters"][SPELL] == 3
    to_monster_turn(g)
    dice.next(2, 2)                            # 4: the last Obstacle
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"
    assert any("The heroes are lost" in t for t in g.texts())


def test_twelve_or_more_smashes_every_obstacle(engine, dice):
    # Secrets of Survival, haunt 3: "Destroying a Defense" (12+: all Obstacle tokens)
    g = hulking(engine)
    hulk(g)["tile"] = TEMPLE
    to_monster_turn(g)
    dice.next(2, 2, 2, 2, 2, 2)
    g.do("end", "ann")
    assert tokens(g, "Obstacle") == 0 and g.state["haunt"]["winner"] == "traitor"


def test_the_heroes_win_when_the_spell_runs_out_with_an_obstacle_left(engine, dice):
    # Secrets of Survival, haunt 3: "You Must Do This at the End of the Monster Turn" and "You Win When..."
    g = hulking(engine)
    g.state["haunt"]["counters"][SPELL] = 1
    to_monster_turn(g)
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"
    assert any("The heroes win" in t for t in g.texts())


def test_shoring_up_the_temple_in_place_of_an_attack(engine, dice):
    # Secrets of Survival, haunt 3: "Shoring Up the Temple" (on the Temple, Knowledge 4+, instead of attacking)
    g = hulking(engine)
    with pytest.raises(IllegalAction, match="Temple of Umberlee"):
        g.do("task", "bo", trait="knowledge", task="shore")
    g.put("bo", TEMPLE)
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="shore")
    assert tokens(g, "quest") == 1
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "bo", trait="knowledge", task="shore")


def test_the_gaze_staggers_a_hero_one_tile_and_ends_the_turn(engine, dice):
    # Secrets of Survival, haunt 3: "You Must Do This at the Start of Each Hero's Turn" (3-4)
    g = hulking(engine)
    hulk(g)["tile"] = "elfsong_tavern"         # Cy starts the next turn beside it
    dice.next(2, 1)                            # Cy's Knowledge (Gretchen): 3
    g.do("end", "bo")
    pending = g.state["pending"]
    assert pending["player"] == "cy" and pending["kind"] == "h03_stagger"
    assert pending["options"] == ["Inner Chamber"]  # no undiscovered doorway is offered
    g.do("decide", "cy", choice=0)
    assert g.p("cy")["tile"] == "inner_chamber" and g.state["turn"]["player"] == "ann"


def test_the_gaze_makes_a_hero_attack_another_with_the_strongest_attack(engine, dice):
    # Secrets of Survival, haunt 3: "You Must Do This at the Start of Each Hero's Turn" (0-2: attack a hero in range)
    # Ruling: Haunt 3: the confused hero's target may be anyone in reach; the most dice, Might on a tie.
    g = hulking(engine)
    hulk(g)["tile"] = "elfsong_tavern"
    dice.next(0)                               # Cy's Knowledge: 0
    dice.next(2, 2, 2)                         # Cy's Might attack
    dice.next(0, 0)                            # Ann defends
    g.do("end", "bo")
    assert g.state["pending"]["kind"] == "h03_confused" and g.state["pending"]["options"] == ["Ann", "Bo"]
    g.do("decide", "cy", choice=0)
    assert any("Cy, confused, attacks Ann with Might" in t for t in g.texts())
    assert g.state["turn"]["attacked"]


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 3: "Shoring Up the Temple" (on the Temple, in a hero's turn, instead of
    # attacking): the buttons offer exactly what the engine allows; every hero's goal is the Temple, and once
    # they have shored it up with the Umber Hulk there, a tile beside it ("You Must Do This at the Start of Each
    # Hero's Turn": the gaze only reaches a hero on its tile)
    def offered():
        return {(a["trait"], a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals():
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo"))

    g = hulking(engine)
    assert offered() == set()                                  # Bo is not on the Temple
    assert goals() == {TEMPLE}
    g.put("bo", TEMPLE)
    hulk(g)["tile"] = TEMPLE
    assert offered() == {("knowledge", "shore")}
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="shore")
    assert offered() == set()                                  # once, in place of the attack
    assert goals() and TEMPLE not in goals()                   # step out of its gaze
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")
    with pytest.raises(IllegalAction, match="own turn"):
        g.do("task", "ann", trait="knowledge", task="shore")  # not in the Umber Hulk's turn


def test_a_built_in_revealer_joins_the_temple_farthest_from_the_hulk(engine):
    # Secrets of Survival, haunt 3: "Right Now" (the revealer picks the door): the built-in player picks the door
    # the Umber Hulk has the farthest to walk to, counted its own way (through walls, stairs and the grate)
    g = revealed(engine, "beasts_lair", "dimensional_shackles")
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    ctx = Ctx(engine.content, g.state)
    pick = hooks.first("bot_choice", ctx, pending)
    far = hulk_spaces(ctx, hulk(g)["tile"])
    doors = pending["data"]["doors"]
    assert far.get(doors[pick][0], 99) == max(far.get(d[0], 99) for d in doors)
    assert g.state["pending"] == pending, "a read: the question still waits"


def test_only_the_declared_moves_are_accepted(engine):
    # the haunt's one move is declared (shore): any other name, or another trait, is refused
    g = hulking(engine)
    g.put("bo", TEMPLE)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="pray")
    with pytest.raises(IllegalAction, match="rolls knowledge"):
        g.do("task", "bo", trait="might", task="shore")


def test_the_monster_turn_names_no_command_to_type(engine):
    # the texts players read name no terminal command (the Umber Hulk's turn is announced in words)
    g = hulking(engine)
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")
    assert not any("`" in t for t in g.texts())
