"""Haunt 8, Staking Your Claim, played through the engine's actions: the
coffin and the Innocent Bystanders on freshly drawn tiles, the Vampire who
re-forms at its coffin until the heroes smash it, its thirst, the Cloud of
Mist, the Bystanders' defence, and every way the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

BYSTANDER = "Innocent Bystander"


def claim(engine, before=None):
    """Ann reveals haunt 8 on the Beast's Lair with the Book of Spells and is
    the Vampire. Order: Bo, Cy, Ann (no monster turn: the Bystanders never act)."""
    g = revealed(engine, "beasts_lair", "book_of_spells")
    assert g.state["haunt"]["number"] == 8 and g.state["haunt"]["traitors"] == ["ann"]
    if before:
        before(g)
    return g


def ready(g):
    events = []
    for pid in ("ann", "bo", "cy"):
        events += g.do("ready", pid)
    while g.state["pending"]:
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    g.events = events
    return events


def bystanders(g):
    return [m for m in g.state["monsters"] if m["name"] == BYSTANDER and not m["dead"]]


def coffin(g):
    return next(t["tile"] for t in g.state["tokens"] if t["name"] == "Coffin")


def test_the_vampire_lays_its_coffin_on_a_drawn_tile_and_the_heroes_their_bystanders(engine):
    # Traitor's Tome, haunt 8: "Right Now" (the top tile of any stack joined to the board, the Obstacles and the
    # Coffin on it); Secrets of Survival, haunt 8: "Right Now" (heroes + 1 Bystanders, each on a drawn tile)
    g = claim(engine)
    board = set(g.state["board"])
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    asked = []
    while g.state["pending"]:
        p = g.state["pending"]
        asked.append((p["player"], p["kind"]))
        if p["kind"] == "h08_stack":
            assert p["options"] == ["The building stack", "The street stack", "The catacomb stack"]
        g.do("decide", p["player"], choice=0)
    assert asked[:2] == [("ann", "h08_stack"), ("ann", "fetch_tile")]
    assert asked[2:] == [("bo", "h08_stack"), ("bo", "fetch_tile")] * 3
    new = set(g.state["board"]) - board
    assert len(new) == 4
    assert coffin(g) in new
    assert sum(1 for t in g.state["tokens"] if t["name"] == "Obstacle" and t["tile"] == coffin(g)) == 2
    assert len(bystanders(g)) == 3 and all(m["tile"] in new and m["ally"] == "heroes" for m in bystanders(g))
    assert len({m["tile"] for m in bystanders(g)} | {coffin(g)}) == 4


def test_a_coffin_no_drawn_tile_can_carry_lies_on_the_vampires_tile(engine):
    # Traitor's Tome, haunt 8: "Right Now"
    # Ruling: Haunt 8: no stack's top tile can be joined to the board
    def empty(g):
        for stack in ("building", "street", "catacomb"):
            g.state["stacks"][stack] = []
    g = claim(engine, empty)
    ready(g)
    assert coffin(g) == g.p("ann")["tile"]
    assert len(bystanders(g)) == 3 and len({m["tile"] for m in bystanders(g)}) == 3
    assert g.state["order"] == ["bo", "cy", "ann"] + ["monsters"]
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")


def test_the_vampire_gets_back_and_gains_might_and_speed(engine):
    # Traitor's Tome, haunt 8: "Right Now" (Might and Speed back to their start, then 2 more each)
    def low(g):
        g.p("ann")["traits"]["speed"] = 1
    g = claim(engine, low)
    tracks = g.c.adventurers[g.p("ann")["adventurer"]].tracks
    might = g.p("ann")["traits"]["might"]
    ready(g)
    assert g.p("ann")["traits"]["speed"] == tracks["speed"].start + 2
    assert g.p("ann")["traits"]["might"] == max(might, tracks["might"].start) + 2


def test_each_side_is_told_its_words_in_private(engine):
    # Traitor's Tome and Secrets of Survival, haunt 8: the words to type reach their side only
    g = claim(engine)
    events = ready(g)
    assert {e["to"] for e in events if "{move:mist}" in e["text"]} == {"ann"}
    assert {e["to"] for e in events if "{move:coffin}" in e["text"]} == {"bo", "cy"}
    assert not [e for e in events if e["kind"] == "by_hand" or "`" in e["text"]]


def test_the_vampire_re_forms_at_its_coffin_instead_of_dying(engine, dice):
    # Traitor's Tome, haunt 8: "Right Now" (no death before the coffin is gone) and "Re-forming at Your Coffin"
    # Ruling: Haunt 8: the Vampire re-forming
    g = claim(engine)
    ready(g)
    tracks = g.c.adventurers[g.p("ann")["adventurer"]].tracks
    g.p("ann")["traits"].update(might=1, speed=1, knowledge=7)
    g.put("ann", "elfsong_tavern")
    dice.next(2, 2, 2)                     # Bo's Might: 6 against Ann's 0
    g.do("attack", "bo", target="ann")
    g.decide_all()
    assert g.p("ann")["alive"]
    assert g.p("ann")["tile"] == coffin(g)
    t = g.p("ann")["traits"]
    assert t["might"] == tracks["might"].start + 2 and t["speed"] == tracks["speed"].start + 2
    assert t["knowledge"] == tracks["knowledge"].start and t["sanity"] == tracks["sanity"].start
    assert g.state["phase"] == "haunt"


def test_the_heroes_chip_the_coffin_stack_from_the_bottom(engine, dice):
    # Secrets of Survival, haunt 8: "Destroying the Coffin" (Might or Sanity 4+ on its tile, bottom token first)
    g = claim(engine)
    ready(g)
    with pytest.raises(IllegalAction, match="not on your tile"):
        g.do("task", "bo", trait="might", task="coffin")
    g.put("bo", coffin(g))
    with pytest.raises(IllegalAction, match="might or sanity"):
        g.do("task", "bo", trait="speed", task="coffin")
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="might", task="stake")
    dice.next(2, 2)
    g.do("task", "bo", trait="sanity", task="coffin")
    assert sum(1 for t in g.state["tokens"] if t["name"] == "Obstacle") == 1
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="might", task="coffin")
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != "Obstacle"]
    g.do("end", "bo")
    g.put("cy", coffin(g))
    tile = coffin(g)
    dice.next(2, 2)
    g.do("task", "cy", trait="might", task="coffin")
    assert not any(t["name"] == "Coffin" for t in g.state["tokens"])
    assert any("coffin: it is destroyed" in t for t in g.texts())
    with pytest.raises(IllegalAction, match="destroyed"):
        g.state["turn"]["rolls"] = []
        g.put("cy", tile)
        g.do("task", "cy", trait="might", task="coffin")


def test_the_vampire_dies_for_good_once_the_coffin_is_gone(engine, dice):
    # Traitor's Tome, haunt 8: "Re-forming at Your Coffin" (no Coffin: the heroes win); Secrets of Survival,
    # haunt 8: "You Win When..."
    g = claim(engine)
    ready(g)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] not in ("Coffin", "Obstacle")]
    g.p("ann")["traits"].update(might=1, speed=1)
    g.put("ann", "elfsong_tavern")
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all()
    assert not g.p("ann")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_bystander_the_vampire_beats_dies_and_feeds_it(engine, dice):
    # Both books, haunt 8: "Killing Innocent Bystanders"; Traitor's Tome: "Special Vampire Attack Rules" (1 Might)
    g = claim(engine)
    ready(g)
    b = bystanders(g)[0]
    g.put("ann", b["tile"])
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    might = g.p("ann")["traits"]["might"]
    dice.next(2, 2, 2)                     # the Vampire: 6 against the Bystander's 0
    g.do("attack", "ann", target=f"{BYSTANDER} {b['number']}")
    assert next(m for m in g.state["monsters"] if m["id"] == b["id"])["dead"]
    assert g.p("ann")["traits"]["might"] == might + 1


def test_bystanders_defend_with_a_die_more_per_hero_beside_them(engine, dice):
    # Secrets of Survival, haunt 8: "Special Innocent Bystander Rules" (Might 2, +1 die per hero on the tile)
    g = claim(engine)
    ready(g)
    b = bystanders(g)[0]
    for pid in ("ann", "bo", "cy"):
        g.put(pid, b["tile"])
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    events = g.do("attack", "ann", target=f"{BYSTANDER} {b['number']}")
    defence = next(e for e in events if e["kind"] == "roll" and "to defend" in e["text"])
    assert "(4 dice" in defence["text"]        # Might 2, and Bo and Cy beside it


def test_the_heroes_cannot_attack_a_bystander(engine):
    # Secrets of Survival, haunt 8: "Innocent Bystander" (the heroes' charges)
    g = claim(engine)
    ready(g)
    b = bystanders(g)[0]
    g.put("bo", b["tile"])
    with pytest.raises(IllegalAction, match="your side"):
        g.do("attack", "bo", target=f"{BYSTANDER} {b['number']}")


def test_the_vampire_wins_once_every_bystander_is_dead(engine, dice):
    # Traitor's Tome, haunt 8: "You Win When..."; Secrets of Survival, haunt 8: "You Lose When..."
    g = claim(engine)
    ready(g)
    for m in bystanders(g)[1:]:
        m["dead"] = True
    b = bystanders(g)[0]
    g.put("ann", b["tile"])
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    dice.next(2, 2, 2)
    g.do("attack", "ann", target=f"{BYSTANDER} {b['number']}")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_killing_a_hero_feeds_the_vampire(engine, dice):
    # Traitor's Tome, haunt 8: "Special Vampire Attack Rules" (a hero killed: 1 Might)
    g = claim(engine)
    ready(g)
    g.p("bo")["traits"].update(might=1, speed=1)
    g.put("ann", g.p("bo")["tile"])
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    might = g.p("ann")["traits"]["might"]
    dice.next(2, 2, 2)
    g.do("attack", "ann", target="bo")
    g.decide_all()
    assert not g.p("bo")["alive"]
    assert g.p("ann")["traits"]["might"] == might + 1


def test_cloud_of_mist_once_per_game_instead_of_moving(engine):
    # Traitor's Tome, haunt 8: "Cloud of Mist" (once per game, in place of moving, to any tile in play)
    g = claim(engine)
    ready(g)
    with pytest.raises(IllegalAction, match="traitor"):
        g.do("task", "bo", task="mist")
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    with pytest.raises(IllegalAction, match="rolls no trait"):
        g.do("task", "ann", trait="speed", task="mist")
    g.do("task", "ann", task="mist")
    p = g.state["pending"]
    assert p["player"] == "ann" and p["kind"] == "h08_mist"
    assert sorted(p["data"]["tiles"]) == sorted(g.state["board"])
    g.do("decide", "ann", choice=p["data"]["tiles"].index(coffin(g)))
    assert g.p("ann")["tile"] == coffin(g)
    assert g.state["turn"]["stopped"]
    g.state["turn"] = {**g.state["turn"], "stopped": False, "moved": 0}
    with pytest.raises(IllegalAction, match="once per game"):
        g.do("task", "ann", task="mist")


def test_cloud_of_mist_cannot_follow_a_move(engine):
    # Traitor's Tome, haunt 8: "Cloud of Mist" ("instead of moving normally")
    g = claim(engine)
    ready(g)
    g.state["turn"] = {**g.state["turn"], "player": "ann", "moved": 1}
    with pytest.raises(IllegalAction, match="before you move"):
        g.do("task", "ann", task="mist")


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 8: "Destroying the Coffin" (a hero on its tile, once a turn); Traitor's Tome,
    # haunt 8: "Cloud of Mist" (the Vampire, before moving, once a game): the buttons offer exactly what the engine
    # allows; the heroes head for the coffin, the Vampire for the Bystanders
    def offered():
        return {(a.get("trait"), a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = claim(engine)
    ready(g)
    assert goals("bo") == {coffin(g)} and goals("ann") == {m["tile"] for m in bystanders(g)}
    assert offered() == set()                                # Bo is not on the coffin's tile
    g.put("bo", coffin(g))
    assert offered() == {("might", "coffin"), ("sanity", "coffin")}
    dice.next(0)
    g.do("task", "bo", trait="might", task="coffin")
    assert offered() == set()                                # once a turn
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == {(None, "mist")}
    g.state["turn"] = {**g.state["turn"], "moved": 1}
    assert offered() == set()                                # not after a move
