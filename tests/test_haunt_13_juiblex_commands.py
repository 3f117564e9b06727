"""Haunt 13, Juiblex Commands, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 13). Ann (Torskar) reveals the haunt on the
Haunted Alley and is the traitor; Bo (Lia) and Cy (Gretchen) are the heroes,
all three on the Elfsong Tavern (the Inner Chamber lies west, the Kitchen
beyond it)."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed


def juiblex(engine, hide=("inner_chamber", "kitchen")):
    g = revealed(engine, "haunted_alley", "cursed_armor")
    assert g.state["haunt"]["number"] == 13 and g.state["haunt"]["traitors"] == ["ann"]
    g.before = dict(g.p("ann")["traits"])
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    for tile in hide:
        pending = g.state["pending"]
        assert pending["kind"] == "h13_hide" and pending["player"] == "ann"
        g.asked = pending["data"]["tiles"]
        g.do("decide", "ann", choice=pending["data"]["tiles"].index(tile))
        g.setup_events += g.events
    return g


def act(g, kind, player, **fields):
    """Do the action, answer every question with the first option, and give
    back all the events."""
    g.do(kind, player, **fields)
    seen = list(g.events)
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)
        seen += g.events
    return seen


def hurt(events, pid):
    return [e["amount"] for e in events if e["kind"] == "damage" and e.get("player") == pid]


def cubes(g):
    return [m for m in g.state["monsters"] if m["name"] == "Gelatinous Cube" and not m["dead"]]


def hidden(g):
    return g.state["haunt"]["h13"]["hidden"]


def test_setup_the_traitor_grows_and_notes_the_cubes_in_secret(engine):
    # Traitor's Tome, haunt 13: "Right Now" (Might and Knowledge back to their starting values, then 2 more; as many
    # secret tiles as heroes, without heroes if possible; no token on the board yet)
    g = juiblex(engine)
    tracks = g.c.adventurers["torskar"].tracks
    for trait in ("might", "knowledge"):
        assert g.p("ann")["traits"][trait] == max(g.before[trait], tracks[trait].start) + 2
    assert "elfsong_tavern" not in g.asked  # the heroes' tile is left out while others are free
    assert [c["tile"] for c in hidden(g)] == ["inner_chamber", "kitchen"]
    assert cubes(g) == []
    secret = [e for e in g.setup_events if "lies in wait" in e["text"]]
    assert {e["to"] for e in secret} == {"ann"}
    assert "h13" not in view(g.state, "bo")["haunt"] and "h13" not in view(g.state, "ann")["haunt"]
    assert g.state["turn"]["player"] == "bo"


def test_a_hero_walking_into_a_hidden_cube_reveals_it_and_is_stuck(engine):
    # Traitor's Tome, haunt 13: "Revealing a Gelatinous Cube" (on a hero turn: stop, token placed, 1 physical damage)
    # and "Gelatinous Cubes Stop Hero Movement"; "Engulfed"
    g = juiblex(engine)
    seen = act(g, "move", "bo", way="west")
    assert [m["tile"] for m in cubes(g)] == ["inner_chamber"]
    assert [c["tile"] for c in hidden(g)] == ["kitchen"]
    assert hurt(seen, "bo") == [1]
    with pytest.raises(IllegalAction):
        g.do("move", "bo", way="west")


def test_entering_a_revealed_cube_engulfs(engine):
    # Traitor's Tome, haunt 13: "Engulfed" (1 physical damage on entering; no leaving)
    g = juiblex(engine)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    g.do("end", "bo")
    g.do("move", "cy", way="west")
    assert any(e["kind"] == "damage" and e.get("player") == "cy" and e.get("amount") == 1 for e in g.events)
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="stuck in a Gelatinous Cube"):
        g.do("move", "cy", way="east")


def test_start_of_turn_in_a_cube_speed_roll(engine, dice):
    # Traitor's Tome, haunt 13: "You Must Do This at the Start of Each Hero's Turn" (Speed 4+: 1 tile away, then
    # move normally; else 1 physical damage and stay)
    g = juiblex(engine)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")                       # the monster turn: the revealed Cube stays
    dice.next(2, 2, 0)                       # Bo's Speed: 4
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo"
    assert g.p("bo")["tile"] in ("kitchen", "elfsong_tavern") and g.p("bo")["tile"] != "inner_chamber"


def test_a_failed_escape_hurts_and_holds(engine):
    # Traitor's Tome, haunt 13: "You Must Do This at the Start of Each Hero's Turn"
    g = juiblex(engine)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")                       # the monster turn ends; Bo's Speed roll: 0
    assert any(e["kind"] == "damage" and e.get("player") == "bo" for e in g.events)
    g.decide_all(0)
    assert g.p("bo")["tile"] == "inner_chamber"
    with pytest.raises(IllegalAction, match="stuck"):
        g.do("move", "bo", way="east")


def test_hidden_cubes_creep_in_secret_in_the_monster_turn_and_reveal_on_a_hero(engine):
    # Traitor's Tome: Juiblex Commands, "Gelatinous Cube Movement" (L1458: up to 2 spaces in their monster turn,
    # tracked on the paper) and "Revealing a Gelatinous Cube" (L1478: on a monster turn, token placed, the hero
    # takes 1 physical damage)
    g = juiblex(engine)
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "bo", task="creep", number=2, way="east")
    g.do("end", "bo")
    g.do("end", "cy")
    with pytest.raises(IllegalAction, match="monster turn"):   # the traitor's own turn: no creeping
        g.do("task", "ann", task="creep", number=2, way="east")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters") and g.state["turn"]["player"] == "ann"
    g.do("task", "ann", task="creep", number=2, way="east")   # Kitchen -> Inner Chamber: nobody there
    assert {e["to"] for e in g.events} == {"ann"}
    assert [c["tile"] for c in hidden(g)] == ["inner_chamber", "inner_chamber"]
    g.do("task", "ann", task="creep", number=2, way="west")            # back: its 2 spaces are spent
    with pytest.raises(IllegalAction, match="spaces left"):
        g.do("task", "ann", task="creep", number=2, way="east")
    seen = act(g, "task", "ann", task="creep", number=1, way="east")   # onto the heroes
    assert [m["tile"] for m in cubes(g)] == ["elfsong_tavern"]
    assert hurt(seen, "bo") == [1] and hurt(seen, "cy") == [1]
    assert [c["n"] for c in hidden(g)] == [2]


def test_the_monster_turn_comes_every_round_while_every_cube_is_hidden(engine):
    # Traitor's Tome: Juiblex Commands, "Gelatinous Cube Movement" (L1458: the Cubes move during their monster
    # turn, hidden or not): it is announced as any monster turn, and the heroes see nothing of what moved
    g = juiblex(engine)
    assert cubes(g) == [] and len(hidden(g)) == 2
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    turn = g.state["turn"]
    assert turn.get("monsters") and turn["player"] == "ann"
    told = [e for e in g.events if e["kind"] == "turn"]
    assert told and told[0]["to"] == "all" and "the monster turn" in told[0]["text"]
    before = view(g.state, "bo")
    g.do("task", "ann", task="creep", number=1, way="west")            # Inner Chamber -> Kitchen: nobody there
    assert g.events and {e["to"] for e in g.events} == {"ann"}
    assert view(g.state, "bo") == before
    g.do("end", "ann")
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")                              # the next round's monster turn too
    assert {c["left"] for c in hidden(g)} == {2}                        # each Cube has its 2 spaces again


def test_a_cube_revealed_by_creeping_may_then_attack_or_move_on(engine, dice):
    # Traitor's Tome: Juiblex Commands, "Revealing a Gelatinous Cube" (L1478: on a monster turn, the Cube may then
    # attack or continue moving if it has any movement left)
    g = juiblex(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    act(g, "task", "ann", task="creep", number=1, way="east")           # Inner Chamber -> the heroes: 1 space
    cube = cubes(g)[0]
    assert cube["tile"] == "elfsong_tavern"
    assert g.state["turn"]["moves"]["Gelatinous Cube"] == 2
    attacks = [a for a in legal_actions(engine.content, g.state) if a["type"] == "monster" and a["op"] == "attack"]
    assert attacks                                                     # it may attack now
    g.do("monster", "ann", op="move", monster="Gelatinous Cube 1", way="west")   # or use its last space
    assert cubes(g)[0]["tile"] == "inner_chamber"
    with pytest.raises(IllegalAction, match="left"):
        g.do("monster", "ann", op="move", monster="Gelatinous Cube 1", way="east")


def test_revealed_cubes_move_two_without_a_roll_carrying_their_prey(engine):
    # Traitor's Tome, haunt 13: "Gelatinous Cube Movement" (always up to 2 spaces, no roll; no movement limits;
    # heroes on their tile move with them)
    g = juiblex(engine)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    turn = g.state["turn"]
    assert turn.get("monsters") and turn["moves"] == {"Gelatinous Cube": 2}
    assert not any(e["kind"] == "roll" for e in g.events)
    g.do("monster", "ann", op="move", monster="Gelatinous Cube 1", way="east")   # Bo inside it: no extra space
    assert g.p("bo")["tile"] == "elfsong_tavern" and cubes(g)[0]["tile"] == "elfsong_tavern"
    g.do("monster", "ann", op="move", monster="Gelatinous Cube 1", way="west")
    assert g.p("bo")["tile"] == "inner_chamber"


def test_a_hero_who_would_stun_a_cube_destroys_it_and_draws(engine, dice):
    # Traitor's Tome, haunt 13: "Destroying a Gelatinous Cube"
    g = juiblex(engine)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    cards = len(g.p("bo")["cards"])
    dice.next(2, 2, 2)                       # Bo's Might: 6
    g.do("attack", "bo", target="Gelatinous Cube")
    assert cubes(g) == []
    assert len(g.p("bo")["cards"]) == cards + 1


def test_juibleks_blessing_when_a_cube_kills_a_hero(engine, dice):
    # Traitor's Tome, haunt 13: "Feeding on the Flesh of Heroes"
    g = juiblex(engine)
    g.p("bo")["traits"]["might"] = 1
    g.p("bo")["traits"]["speed"] = 1
    seen = act(g, "move", "bo", way="west")  # 1 damage from the revealed Cube
    assert not g.p("bo")["alive"]
    asked = [e for e in seen if e["kind"] == "decision" and e.get("player") == "ann"]
    assert asked and "gain 1" in asked[0]["text"]


def test_the_heroes_win_when_the_traitor_dies(engine, dice):
    # Secrets of Survival, haunt 13: "You Win When..."
    g = juiblex(engine)
    g.p("ann")["traits"]["might"] = 1
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 13: "You Win When..."
    g = juiblex(engine)
    g.p("cy")["alive"] = False
    g.p("bo")["traits"].update(might=1, speed=1)
    g.do("move", "bo", way="west")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_haunts_actions_are_offered_while_they_are_open(engine):
    # Traitor's Tome: Juiblex Commands, "Gelatinous Cube Movement" (L1458: the traitor moves each hidden Cube up to
    # 2 spaces in their monster turn; the heroes have no such action)
    def offered():
        return {f'{a["task"]} {a["number"]} {a["way"]}' for a in legal_actions(engine.content, g.state)
                if a["type"] == "task"}

    g = juiblex(engine)
    assert offered() == set()                                   # Bo's turn: a hero has nothing to creep
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo")) == {"elfsong_tavern"}
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == set()                                   # the traitor's own turn: no creeping
    g.do("end", "ann")
    assert "creep 2 east" in offered() and "creep 1 east" in offered()   # the monster turn
    assert all(t.split()[1] in "12" for t in offered())
    g.do("task", "ann", task="creep", number=2, way="east")
    g.do("task", "ann", task="creep", number=2, way="west")
    assert not any(t.startswith("creep 2") for t in offered())  # its 2 spaces are spent
    before = [dict(c) for c in hidden(g)]
    offered()
    assert hidden(g) == before                                  # offering tried copies only


def test_the_last_heros_death_by_a_cube_still_blesses_the_traitor(engine, dice):
    # Traitor's Tome, haunt 13: "Feeding on the Flesh of Heroes" (each hero killed by a Cube: gain 1 in any trait)
    # and "You Win When..." (every hero killed): the gain for the last kill is taken before the game ends
    g = juiblex(engine)
    g.p("cy")["alive"] = False
    g.p("bo")["traits"].update(might=1, speed=1)
    before = dict(g.p("ann")["traits"])
    g.do("move", "bo", way="west")          # into the revealed Cube: 1 damage kills Bo
    g.decide_all(0)                         # Bo takes it; then Ann chooses the trait
    assert not g.p("bo")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"
    after = g.p("ann")["traits"]
    assert sum(after.values()) == sum(before.values()) + 1


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome, haunt 13: the only special move is the hidden Cubes' creep
    g = juiblex(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
