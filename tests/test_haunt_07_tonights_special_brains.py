"""Haunt 7, Tonight's Special: Brains!, played through the engine's actions:
the Mind Flayer's setup and Knowledge attacks, the Intellect Devourers
placed by the traitor and taking heroes over, the heroes' clue search and
Knowledge for stunning a Devourer, and every way the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

DEVOURER = "Intellect Devourer"


def brains(engine, before=None):
    """Ann reveals haunt 7 on the Gladiator Pit with the Book of Spells and,
    with the lowest Sanity, is the Mind Flayer. Order: Bo, Cy, Ann, monsters."""
    g = revealed(engine, "gladiator_pit", "book_of_spells")
    assert g.state["haunt"]["number"] == 7 and g.state["haunt"]["traitors"] == ["ann"]
    if before:
        before(g)
    return g


def ready(g, where=0):
    events = []
    for pid in ("ann", "bo", "cy"):
        events += g.do("ready", pid)
    while g.state["pending"] and g.state["pending"]["kind"] == "place_chosen":
        events += g.do("decide", g.state["pending"]["player"], choice=where)
    g.events = events
    return events


def devourers(g):
    return [m for m in g.state["monsters"] if m["name"] == DEVOURER and not m["dead"]]


def test_the_traitor_places_the_devourers_away_from_heroes_and_each_other(engine):
    # Traitor's Tome, haunt 7: "Right Now" (one Devourer per adventurer, each on a tile with no hero and no other
    # Devourer; the traitor places them)
    g = brains(engine)
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "place_chosen"
    assert "elfsong_tavern" not in pending["data"]["tiles"]      # the heroes stand there
    assert "gladiator_pit" in pending["data"]["tiles"]
    g.do("decide", "ann", choice=pending["data"]["tiles"].index("gladiator_pit"))
    assert "gladiator_pit" not in g.state["pending"]["data"]["tiles"]   # no second Devourer on it
    g.decide_all()
    tiles = [m["tile"] for m in devourers(g)]
    assert len(tiles) == 3 and len(set(tiles)) == 3 and "elfsong_tavern" not in tiles
    assert all(m["attacks"] == "knowledge" for m in devourers(g))
    assert not any("by hand" in e["text"] for e in g.events)


def test_the_mind_flayer_gets_back_and_gains_knowledge_and_sanity(engine):
    # Traitor's Tome, haunt 7: "Right Now" (Knowledge and Sanity back to their start, then 2 more each)
    def low(g):
        g.p("ann")["traits"]["knowledge"] = 1
    g = brains(engine, low)
    tracks = g.c.adventurers[g.p("ann")["adventurer"]].tracks
    sanity = g.p("ann")["traits"]["sanity"]
    ready(g)
    assert g.p("ann")["traits"]["knowledge"] == tracks["knowledge"].start + 2
    assert g.p("ann")["traits"]["sanity"] == max(sanity, tracks["sanity"].start) + 2


def test_each_side_is_told_its_own_words_in_private(engine):
    # Traitor's Tome and Secrets of Survival, haunt 7: "Right Now" (the words to type reach their side only)
    g = brains(engine)
    events = ready(g)
    flayer = [e for e in events if "Mind Flayer. Attack" in e["text"]]
    clues = [e for e in events if "{move:clue}" in e["text"]]
    assert not [e for e in events if e["kind"] == "by_hand" or "`" in e["text"]]
    assert {e["to"] for e in flayer} == {"ann"}
    assert {e["to"] for e in clues} == {"bo", "cy"}


def test_the_mind_flayer_attacks_with_knowledge_for_mental_damage(engine, dice):
    # Traitor's Tome, haunt 7: "Special Mind Flayer Attack Rules" (Knowledge against Knowledge, mental damage)
    g = brains(engine)
    ready(g)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    before = dict(g.p("bo")["traits"])
    dice.next(2, 2, 2)                     # Ann's Knowledge attack: 6
    dice.next(0)                           # Bo's Knowledge defence: 0
    events = g.do("attack", "ann", target="bo", trait="knowledge")
    g.decide_all()
    rolls = [e["text"] for e in events if e["kind"] == "roll"]
    assert any("Knowledge to attack" in t for t in rolls) and any("Knowledge to defend" in t for t in rolls)
    after = g.p("bo")["traits"]
    assert after["might"] == before["might"] and after["speed"] == before["speed"]
    assert after["knowledge"] + after["sanity"] < before["knowledge"] + before["sanity"]


def test_the_mind_flayer_eats_the_brain_of_a_hero_it_kills(engine, dice):
    # Traitor's Tome, haunt 7: "Special Mind Flayer Attack Rules" (Knowledge back to its start, then 2 more)
    g = brains(engine)
    ready(g)
    start = g.c.adventurers[g.p("ann")["adventurer"]].tracks["knowledge"].start
    g.p("ann")["traits"]["knowledge"] = 2
    g.p("bo")["traits"].update(knowledge=1, sanity=1)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    dice.next(2, 2)                        # Ann: 4 against Bo's 0
    g.do("attack", "ann", target="bo", trait="knowledge")
    g.decide_all()
    assert not g.p("bo")["alive"]
    assert g.p("ann")["traits"]["knowledge"] == start + 2
    assert any("eats Bo's brain" in t for t in g.texts())


def to_monster_turn(g):
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters") and g.state["turn"]["player"] == "ann"


def test_a_devourer_that_wins_by_3_turns_the_hero_into_a_traitor(engine, dice):
    # Traitor's Tome, haunt 7: "Special Intellect Devourer Attack Rules" (by 3 or more: no damage, a new traitor)
    # Ruling: Haunt 7: a turned hero keeps their place in the turn order
    g = brains(engine)
    ready(g)
    to_monster_turn(g)
    d = devourers(g)[0]
    d["tile"] = g.p("bo")["tile"]
    before = dict(g.p("bo")["traits"])
    dice.next(2, 1)                        # the Devourer's Knowledge: 3
    dice.next(0)                           # Bo's Knowledge defence: 0
    events = g.do("monster", "ann", op="attack", monster=f"{DEVOURER} {d['number']}", target="bo")
    assert g.state["haunt"]["traitors"] == ["ann", "bo"]
    assert g.p("bo")["traits"] == before                          # no damage
    assert g.state["order"] == ["bo", "cy", "ann", "monsters"]
    tome = [e for e in events if e["kind"] == "secret_rules"]
    assert tome and {e["to"] for e in tome} == {"bo"}             # the Tome reaches the turned hero only
    assert any("Your rules, as the traitor" in e["text"] for e in tome)


def test_a_devourer_that_wins_by_2_deals_mental_damage(engine, dice):
    # Traitor's Tome, haunt 7: "Special Intellect Devourer Attack Rules" (Knowledge attack, mental damage)
    g = brains(engine)
    ready(g)
    to_monster_turn(g)
    d = devourers(g)[0]
    d["tile"] = g.p("cy")["tile"]
    before = dict(g.p("cy")["traits"])
    dice.next(2)                           # the Devourer: 2
    dice.next(0)                           # Cy: 0
    g.do("monster", "ann", op="attack", monster=f"{DEVOURER} {d['number']}", target="cy")
    g.decide_all()
    assert g.state["haunt"]["traitors"] == ["ann"]
    after = g.p("cy")["traits"]
    assert after["knowledge"] + after["sanity"] == before["knowledge"] + before["sanity"] - 2


def test_stunning_a_devourer_gains_the_hero_1_knowledge(engine, dice):
    # Secrets of Survival, haunt 7: "Determine the Mind Flayer's Strategy"
    # Ruling: Haunt 7: "if you stun an Intellect Devourer"
    g = brains(engine)
    ready(g)
    d = devourers(g)[0]
    d["tile"] = g.p("bo")["tile"]
    knowledge = g.p("bo")["traits"]["knowledge"]
    dice.next(2, 2)                        # Bo's Might: 4 against the Devourer's 0
    g.do("attack", "bo", target=f"{DEVOURER} {d['number']}")
    assert next(m for m in g.state["monsters"] if m["id"] == d["id"])["stunned"]
    assert g.p("bo")["traits"]["knowledge"] == knowledge + 1


def test_a_clue_is_found_on_an_unsearched_omen_tile(engine, dice):
    # Secrets of Survival, haunt 7: "Find the Clues" (Knowledge 5+ on an omen tile without an Obstacle)
    g = brains(engine)
    ready(g)
    with pytest.raises(IllegalAction, match="omen tiles"):
        g.do("task", "bo", trait="knowledge", task="clue")   # the Elfsong Tavern is no omen tile
    g.put("bo", "gladiator_pit")
    with pytest.raises(IllegalAction, match="rolls knowledge"):
        g.do("task", "bo", trait="might", task="clue")
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="search")
    dice.next(2, 2, 1)                     # 5
    g.do("task", "bo", trait="knowledge", task="clue")
    assert {"name": "Obstacle", "tile": "gladiator_pit"} in g.state["tokens"]
    assert {"name": "Clue", "tile": "elfsong_tavern"} in g.state["tokens"]
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="knowledge", task="clue")
    g.do("end", "bo")
    g.put("cy", "gladiator_pit")
    with pytest.raises(IllegalAction, match="already been searched"):
        g.do("task", "cy", trait="knowledge", task="clue")


def test_a_failed_search_leaves_the_tile_open(engine, dice):
    # Secrets of Survival, haunt 7: "Find the Clues" (below 5: nothing)
    g = brains(engine)
    ready(g)
    g.put("bo", "gladiator_pit")
    dice.next(2, 2)                        # 4
    g.do("task", "bo", trait="knowledge", task="clue")
    assert not any(t["name"] in ("Obstacle", "Clue") for t in g.state["tokens"])


def test_the_heroes_win_with_every_clue_on_the_elfsong_tavern(engine, dice):
    # Secrets of Survival, haunt 7: "You Win When..." (every set-aside quest token found)
    g = brains(engine)
    ready(g)
    g.state["tokens"] += [{"name": "Clue", "tile": "elfsong_tavern"}] * 2
    g.put("bo", "gladiator_pit")
    dice.next(2, 2, 2)
    g.do("task", "bo", trait="knowledge", task="clue")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_killing_the_mind_flayer_wins_even_with_a_turned_hero_alive(engine, dice):
    # Secrets of Survival, haunt 7: "You Win When..." (killing the Mind Flayer also wins)
    g = brains(engine)
    ready(g)
    g.state["haunt"]["traitors"].append("cy")               # Cy was taken by a Devourer
    g.p("ann")["traits"].update(might=1, speed=1)
    g.put("ann", g.p("bo")["tile"])
    dice.next(2, 2)                        # Bo's Might: 4 against Ann's 0
    g.do("attack", "bo", target="ann")
    g.decide_all()
    assert not g.p("ann")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_wins_when_no_hero_is_left_unturned(engine, dice):
    # Traitor's Tome, haunt 7: "You Win When..." (every hero killed or turned)
    g = brains(engine)
    ready(g)
    g.p("cy")["alive"] = False
    g.state["turn"] = {**g.state["turn"], "player": "ann", "monsters": True, "moves": {}, "acted": [],
                       "attacked": []}
    d = devourers(g)[0]
    d["tile"] = g.p("bo")["tile"]
    dice.next(2, 2)                        # the Devourer: 4 against Bo's 0
    g.do("monster", "ann", op="attack", monster=f"{DEVOURER} {d['number']}", target="bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_hitting_a_devourer_already_stunned_teaches_nothing(engine, dice):
    # Secrets of Survival, haunt 7: "Determine the Mind Flayer's Strategy"
    # Ruling: Haunt 7: "if you stun an Intellect Devourer"
    g = brains(engine)
    ready(g)
    d = devourers(g)[0]
    d["tile"], d["stunned"] = g.p("bo")["tile"], True
    knowledge = g.p("bo")["traits"]["knowledge"]
    dice.next(2, 2)
    g.do("attack", "bo", target=f"{DEVOURER} {d['number']}")
    assert g.p("bo")["traits"]["knowledge"] == knowledge


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 7: "Find the Clues" (a hero on an omen tile with no Obstacle, once a turn): the
    # buttons offer exactly what the engine allows; the heroes head for the omen tiles not yet searched
    def offered():
        return {(a["trait"], a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = brains(engine)
    ready(g)
    assert offered() == set()                                # the Elfsong Tavern is no omen tile
    assert "gladiator_pit" in goals("bo") and goals("ann") == set()
    g.put("bo", "gladiator_pit")
    assert offered() == {("knowledge", "clue")}
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="knowledge", task="clue")
    assert offered() == set() and "gladiator_pit" not in goals("bo")
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "gladiator_pit")
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != "Obstacle"]
    assert offered() == set()                                # the Mind Flayer searches nothing
