"""Haunt 24, A Pufflebird in the Hand . . . (the revealer is the traitor),
played through the engine's actions: the setup, Harper badges, the escort,
Drabin's defence and death, the Cultists, Lord of Murder and both wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

DRABIN, CULTIST, BADGE = "Drabin Pufflebird", "Cultist of Bhaal", "Harper badge"


def pufflebird(engine):
    """Ann draws the Whispering Skull on the Cursed Statue: haunt 24, Ann the
    traitor; the order is Bo, Cy, Ann, the monsters."""
    g = revealed(engine, "cursed_statue", "whispering_skull")
    assert g.state["haunt"]["number"] == 24 and g.state["haunt"]["traitors"] == ["ann"]
    all_ready(g)
    return g


def drabin(g):
    return next(m for m in g.state["monsters"] if m["name"] == DRABIN)


def cultists(g):
    return [m for m in g.state["monsters"] if m["name"] == CULTIST and not m["dead"]]


def test_setup_places_cultists_badges_and_drabin(engine):
    # Traitor's Tome, haunt 24: "Right Now" (2 Might; a Cultist on each hero's tile); Secrets of Survival, haunt 24:
    # "Right Now" (Drabin on the catacomb tile farthest from the Kitchen Basement; a badge per hero on the Elfsong)
    g = revealed(engine, "cursed_statue", "whispering_skull")
    before = g.p("ann")["traits"]["might"]
    all_ready(g)
    events = g.events
    assert g.p("ann")["traits"]["might"] == min(8, before + 2)
    assert sorted(m["tile"] for m in cultists(g)) == sorted([g.p("bo")["tile"], g.p("cy")["tile"]])
    assert drabin(g)["tile"] == "catacomb_landing" and drabin(g)["ally"] == "heroes"
    assert [t["tile"] for t in g.state["tokens"] if t["name"] == BADGE] == ["elfsong_tavern"] * 2
    assert {e["to"] for e in events if "{move:escort}" in e["text"]} == {"bo", "cy"}
    assert {e["to"] for e in events if "Cultist of Bhaal on Drabin" in e["text"]} == {"ann"}
    assert not any("by hand" in e["text"] for e in events)


def test_heroes_pick_up_badges_on_the_elfsong_and_the_traitor_cannot(engine):
    # Secrets of Survival, haunt 24: "Retrieving a Harper Badge"
    # Ruling: haunt 24, a badge is picked up one at a time
    g = pufflebird(engine)
    g.put("bo", "elfsong_tavern")
    g.do("task", "bo", task="badge")
    g.do("task", "bo", task="badge")
    assert g.state["haunt"]["h24"]["badges"] == {"bo": 2}
    with pytest.raises(IllegalAction, match="no Harper badge"):
        g.do("task", "bo", task="badge")
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    g.put("ann", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="Only the heroes"):
        g.do("task", "ann", task="badge")


def test_the_escort_rolls_speed_halves_it_and_drabin_comes_along(engine, dice):
    # Secrets of Survival, haunt 24: "Special Movement Rules"
    g = pufflebird(engine)
    g.put("bo", "catacomb_landing")
    with pytest.raises(IllegalAction, match="Harper badge"):
        g.do("task", "bo", trait="speed", task="escort")
    g.put("cy", "elfsong_tavern")
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    g.do("task", "cy", task="badge")
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    g.state["haunt"]["h24"]["badges"] = {"bo": 1}
    dice.next(1, 1, 1)  # 3: half is 1
    g.do("task", "bo", trait="speed", task="escort")
    g.do("move", "bo", way="west")  # to the Kitchen Basement (1 space)
    assert g.p("bo")["tile"] == "kitchen_basement" and drabin(g)["tile"] == "kitchen_basement"
    with pytest.raises(IllegalAction, match="left"):
        g.do("move", "bo", way="stairs")


def test_drabin_on_the_mansion_as_a_turn_ends_wins(engine):
    # Secrets of Survival, haunt 24: "You Win When..."
    g = pufflebird(engine)
    g.place("mansion", "city", 3, 0)
    drabin(g)["tile"] = "mansion"
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_drabin_defends_with_a_die_per_hero_and_dies_to_two_damage(engine, dice):
    # Secrets of Survival, haunt 24: "Special Drabin Pufflebird Rules"; Traitor's Tome, haunt 24: "Special Attack
    # Rules" (Sanity) and "You Win When..."
    # Ruling: haunt 24, Drabin is a figure on the heroes' side (the heroes may not attack him)
    g = pufflebird(engine)
    for pid in ("ann", "bo"):
        g.put(pid, "catacomb_landing")
    with pytest.raises(IllegalAction, match="on your side"):
        g.do("attack", "bo", target=DRABIN)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    dice.next(2, 2, 2)  # Ann's Sanity
    dice.next(1, 0, 0, 0)  # Drabin's Sanity 3 + 1 for Bo: 4 dice, 1
    g.do("attack", "ann", target=DRABIN, trait="sanity")
    assert any("Sanity for the Drabin Pufflebird to defend (4 dice)" in t for t in g.texts())
    assert drabin(g)["dead"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_one_damage_leaves_drabin_alive(engine, dice):
    # Secrets of Survival, haunt 24: "Special Drabin Pufflebird Rules" (2 or more from one attack)
    g = pufflebird(engine)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    g.put("ann", "catacomb_landing")
    dice.next(1, 0, 0, 0)
    dice.next(0)
    g.do("attack", "ann", target=DRABIN)
    assert not drabin(g)["dead"] and g.state["phase"] == "haunt"


def test_a_hurt_cultist_is_removed_and_feeds_the_lord_of_murder(engine, dice):
    # Secrets of Survival and Traitor's Tome, haunt 24: "Killing the Cultists"; Traitor's Tome: "Lord of Murder"
    g = pufflebird(engine)
    cultist = next(m for m in cultists(g) if m["tile"] == g.p("bo")["tile"])
    dice.next(1)  # Bo: 1 against 0
    g.do("attack", "bo", target=f"{CULTIST} {cultist['number']}")
    assert cultist["id"] not in [m["id"] for m in cultists(g)]
    assert g.state["pending"]["player"] == "ann" and g.state["pending"]["options"] == ["Might", "Sanity"]
    sanity = g.p("ann")["traits"]["sanity"]
    g.do("decide", "ann", choice="Sanity")
    assert g.p("ann")["traits"]["sanity"] == sanity + 1


def test_a_cultist_attacks_drabin_in_the_monster_turn(engine, dice):
    # Traitor's Tome, haunt 24: "Special Attack Rules" (the Cultists attack with Might or Sanity)
    g = pufflebird(engine)
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")
    cultists(g)[0]["tile"] = "catacomb_landing"
    dice.next(2, 2, 2)  # the Cultist's Sanity: 6
    dice.next(0, 0, 0)  # Drabin: 0
    g.do("monster", "ann", op="attack", monster=f"{CULTIST} {cultists(g)[0]['number']}", target=DRABIN,
         trait="sanity")
    assert drabin(g)["dead"] and g.state["haunt"]["winner"] == "traitor"


def test_a_dead_heros_badges_lie_on_their_tile(engine):
    # Ruling: haunt 24, a dead hero's badges lie on their tile, to be picked up there
    g = pufflebird(engine)
    g.state["haunt"]["h24"] = {"badges": {"cy": 1}, "escort": None}
    g.put("cy", "kitchen")
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    g.do("trait", "cy", trait="sanity", delta=-8)
    assert not g.p("cy")["alive"]
    assert {"name": BADGE, "tile": "kitchen"} in g.state["tokens"]
    g.decide_all(0)  # Lord of Murder: the traitor picks Might or Sanity
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    g.put("bo", "kitchen")
    g.do("task", "bo", task="badge")
    assert g.state["haunt"]["h24"]["badges"] == {"bo": 1}


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 24: "Retrieving a Harper Badge" and "Special Movement Rules" (the escort, before
    # moving, with a badge, on Drabin's tile); Traitor's Tome, haunt 24: "Special Attack Rules" (a Cultist on
    # Drabin's tile attacks him with Might or Sanity in the monster turn)
    def offered():
        return [(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"]

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = pufflebird(engine)
    g.put("bo", "elfsong_tavern")
    assert goals("bo") == {"elfsong_tavern"} and goals("ann") == {"catacomb_landing"}
    assert offered() == [(None, "badge")]
    g.do("task", "bo", task="badge")
    assert goals("bo") == {"catacomb_landing"}                 # badge in hand: to Drabin
    g.put("bo", "catacomb_landing")
    assert offered() == [("speed", "escort")]
    dice.next(1, 1, 1)
    g.do("task", "bo", trait="speed", task="escort")
    assert offered() == [] and goals("bo") == {"mansion"}      # on the way with him
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")
    cultist = cultists(g)[0]
    cultist["tile"] = "catacomb_landing"
    ctx = Ctx(engine.content, g.state)
    assert set().union(*hooks.fire("monster_goals", ctx, cultists(g)[1])) == {"catacomb_landing"}
    fights = {(a["monster"], a.get("trait")) for a in legal_actions(engine.content, g.state)
              if a["type"] == "monster" and a["op"] == "attack" and a["target"] == drabin(g)["id"]}
    assert fights == {(cultist["id"], "might"), (cultist["id"], "sanity")}
    assert not drabin(g)["dead"]                               # offering tried copies only
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "ann", trait="speed", task="escort")


def test_an_undeclared_move_is_refused(engine):
    # Secrets of Survival, haunt 24: the heroes' moves are the badge and the escort
    g = pufflebird(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="speed", task="carry")
