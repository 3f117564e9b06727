"""Haunt 9, Alone Against the Dead (two traitors, one hero), played through
the engine's actions: the minions and followers asked of the traitors, the
hero's setup picks, the followers' rules, the turn order and both wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed


def at_setup(engine):
    """Ann reveals haunt 9 and stays the hero; Bo and Cy are the traitors."""
    g = revealed(engine, "gladiator_pit", "berserker_axe")
    h = g.state["haunt"]
    assert h["number"] == 9 and h["traitors"] == ["bo", "cy"]
    all_ready(g)
    return g


def set_up(engine, bo="Necromancer", cy="Zombie Hulk"):
    """Setup answered: minions on the first tiles offered, the followers
    given, the hero drawing items."""
    g = at_setup(engine)
    for _ in range(3):
        g.do("decide", "bo", choice=0)
    g.do("decide", "bo", choice=bo)
    g.do("decide", "cy", choice=cy)
    g.decide_all(0)
    return g


def minions(g):
    return [m for m in g.state["monsters"] if m["name"] == "Undead Minion" and not m["dead"]]


def test_the_traitors_place_three_minions_apart_and_off_the_heros_tile(engine):
    # Traitor's Tome, haunt 9: "Right Now" (3 Undead Minions, one at a time, not on the hero's tile or beside another)
    g = at_setup(engine)
    pending = g.state["pending"]
    assert pending["player"] == "bo"  # Ruling: haunt 9, the traitor who plays first places the minions
    assert "Elfsong Tavern" not in pending["options"]
    first = pending["options"][0]
    g.do("decide", "bo", choice=0)
    assert first not in g.state["pending"]["options"]
    g.do("decide", "bo", choice=0)
    g.do("decide", "bo", choice=0)
    tiles = [m["tile"] for m in minions(g)]
    assert len(tiles) == 3 == len(set(tiles)) and "elfsong_tavern" not in tiles


def test_each_traitor_picks_a_follower_and_only_the_traitors_hear_it(engine):
    # Traitor's Tome, haunt 9: "Right Now" (each follower picked at least once);
    # Ruling: with fewer traitors than followers, no follower twice
    g = at_setup(engine)
    for _ in range(3):
        g.do("decide", "bo", choice=0)
    assert g.state["pending"]["options"] == ["Necromancer", "Zombie Hulk", "Skeleton Warrior"]
    g.do("decide", "bo", choice="Skeleton Warrior")
    told = [e for e in g.events if "will play the Skeleton Warrior" in e["text"]]
    assert {e["to"] for e in told} == {"bo", "cy"}  # secret from the hero until announced
    assert g.state["pending"]["player"] == "cy"
    assert g.state["pending"]["options"] == ["Necromancer", "Zombie Hulk"]


def test_the_hero_picks_once_for_each_traitor(engine):
    # Secrets of Survival, haunt 9: "Right Now" (for each traitor: 2 item cards keep one, or 1 in two traits)
    g = at_setup(engine)
    for _ in range(3):
        g.do("decide", "bo", choice=0)
    g.do("decide", "bo", choice="Necromancer")
    g.do("decide", "cy", choice="Zombie Hulk")
    before = dict(g.p("ann")["traits"])
    assert g.state["pending"]["player"] == "ann"
    g.do("decide", "ann", choice="Draw the top 2 item cards and keep one")
    g.do("decide", "ann", choice=0)
    assert len(g.p("ann")["cards"]) == 1
    g.do("decide", "ann", choice="Gain 1 in two different traits")
    g.do("decide", "ann", choice="Might and Sanity")
    after = g.p("ann")["traits"]
    assert after["might"] == before["might"] + 1 and after["sanity"] == before["sanity"] + 1
    assert g.state["pending"] is None


def test_followers_are_announced_at_their_first_turn_with_their_traits(engine):
    # Traitor's Tome, haunt 9: "Necromancer" (+1 Sanity and Knowledge), "Zombie Hulk" (+3 Might, Speed just above
    # the skull), "Right Now" (announced when the first turn starts)
    g = at_setup(engine)
    for _ in range(3):
        g.do("decide", "bo", choice=0)
    bo, cy = dict(g.p("bo")["traits"]), dict(g.p("cy")["traits"])
    g.do("decide", "bo", choice="Necromancer")
    g.do("decide", "cy", choice="Zombie Hulk")
    g.decide_all(0)
    assert any(e["to"] == "all" and "Bo rises as the Necromancer" in e["text"] for e in g.events)
    assert g.p("bo")["traits"]["sanity"] == bo["sanity"] + 1 and g.p("bo")["traits"]["knowledge"] == bo["knowledge"] + 1
    assert not any("Cy rises" in t for t in g.texts())
    g.do("end", "bo")
    assert any("Cy rises as the Zombie Hulk" in t for t in g.texts())
    assert g.p("cy")["traits"]["might"] == cy["might"] + 3 and g.p("cy")["traits"]["speed"] == 1


def test_the_skeleton_warrior_mends_and_grows(engine):
    # Traitor's Tome, haunt 9: "Skeleton Warrior" and "Special Skeleton Warrior Rules";
    # Ruling: haunt 9, the Skeleton Warrior mends at the start of each of its turns
    g = at_setup(engine)
    for _ in range(3):
        g.do("decide", "bo", choice=0)
    start = g.c.adventurers[g.p("bo")["adventurer"]].tracks["might"].start
    g.p("bo")["traits"]["might"] = start - 2
    g.do("decide", "bo", choice="Skeleton Warrior")
    g.do("decide", "cy", choice="Necromancer")
    g.decide_all(0)
    assert g.p("bo")["traits"]["might"] == start + 1
    g.p("bo")["traits"]["might"] = start - 1
    g.put("ann", "kitchen_basement")  # away from the Elfsong Tavern, so her turn's end wins nothing
    for pid in ("bo", "cy", "cy", "ann"):  # Bo, Cy, the minions (Cy, the Necromancer), Ann
        g.do("end", pid)
    assert g.state["turn"]["player"] == "bo" and g.p("bo")["traits"]["might"] == start


def test_traitors_go_first_then_minions_then_the_hero_and_the_necromancer_runs_them(engine):
    # Traitor's Tome, haunt 9: "Traitors Go First"; "Special Necromancer Rules" (controls the minions)
    g = set_up(engine, bo="Zombie Hulk", cy="Necromancer")
    assert g.state["order"] == ["bo", "cy", "monsters", "ann"]
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"].get("monsters") and g.state["turn"]["player"] == "cy"
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann"


def test_the_necromancer_raises_a_minion_instead_of_attacking(engine):
    # Traitor's Tome, haunt 9: "Special Necromancer Rules" (anywhere but the hero's tile; instead of attacking)
    g = set_up(engine)
    g.do("task", "bo", task="raise")
    assert "Elfsong Tavern" not in g.state["pending"]["options"]
    g.do("decide", "bo", choice=0)
    assert len(minions(g)) == 4
    g.put("ann", g.p("bo")["tile"])
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("attack", "bo", target="ann")
    g.do("end", "bo")
    with pytest.raises(IllegalAction, match="Only the Necromancer"):
        g.do("task", "cy", task="raise")


def test_never_more_than_six_minions(engine):
    # Traitor's Tome, haunt 9: "Special Necromancer Rules" (never more than 6 on the board)
    g = set_up(engine)
    for m in minions(g)[:3]:
        g.state["monsters"].append({**m, "id": m["id"] + "x", "number": m["number"] + 3})
    with pytest.raises(IllegalAction, match="already 6"):
        g.do("task", "bo", task="raise")


def test_the_zombie_hulks_acid_reaches_two_tiles_once_per_game(engine, dice):
    # Traitor's Tome, haunt 9: "Special Zombie Hulk Attack Rules"
    g = set_up(engine, bo="Zombie Hulk", cy="Necromancer")
    g.put("bo", "kitchen")  # Kitchen -> Inner Chamber -> Elfsong Tavern (Ann): 2 tiles, a straight line
    before = dict(g.p("bo")["traits"])
    dice.next(0)              # Bo's Might: 0
    dice.next(2, 2)           # Ann's defence: 4
    g.do("task", "bo", trait="might", task="acid")
    g.decide_all(0)
    assert g.p("bo")["traits"] == before  # lost from another tile: no damage
    g.put("ann", "kitchen_basement")
    for pid in ("bo", "cy", "cy", "ann"):
        g.do("end", pid)
    with pytest.raises(IllegalAction, match="once per game"):
        g.do("task", "bo", trait="might", task="acid")


def test_the_hero_wins_by_ending_a_turn_in_the_elfsong_tavern(engine):
    # Secrets of Survival, haunt 9: "You Win When..."
    g = set_up(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "bo")  # the Necromancer's monster turn
    g.put("ann", "kitchen")
    g.do("end", "ann")
    assert g.state["phase"] == "haunt"
    for _ in range(3):
        g.do("end", g.state["turn"]["player"])
    g.put("ann", "elfsong_tavern")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitors_win_when_the_hero_is_killed(engine, dice):
    # Traitor's Tome, haunt 9: "You Win When..." (the hero is killed)
    g = set_up(engine)
    g.p("ann")["traits"].update(might=1, speed=1)
    g.put("bo", "elfsong_tavern")
    dice.next(2, 2, 2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 9: "Special Necromancer Rules" (instead of attacking, at most 6) and "Special Zombie
    # Hulk Attack Rules" (once a game, within 2 tiles in sight): the buttons offer exactly what the engine allows,
    # each only to its own follower; the hero heads for the Elfsong Tavern
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    g = set_up(engine, bo="Zombie Hulk", cy="Necromancer")
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "ann")) == {"elfsong_tavern"}
    g.put("bo", "kitchen")
    assert offered() == {("might", "acid")}                  # the Zombie Hulk, the hero 2 tiles off in sight
    g.put("bo", "kitchen_basement")
    assert offered() == set()                                # out of reach
    g.do("end", "bo")
    assert offered() == {(None, "raise")}                    # the Necromancer
    g.do("task", "cy", task="raise")
    g.decide_all(0)
    assert offered() == set()                                # instead of the attack: once a turn


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome, haunt 9: the followers' only special moves are raise and acid
    g = set_up(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], task="fly")
