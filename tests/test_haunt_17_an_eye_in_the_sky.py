"""Haunt 17, An Eye in the Sky, played through the engine's actions: the
Mouthers placed on the catacomb level, the Wards laid and cleared, Khirad's
light, the Mouthers' group Sanity attack and movement limits, the monster
turn's top-up and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

PILE, WARD, MOUTHER = "Anti-Magic Wards in the pile", "Anti-Magic Ward", "Gibbering Mouther"
CATACOMB = ["catacomb_landing", "gladiator_pit", "kitchen_basement"]


def eye(engine):
    """Ann reveals haunt 17 on the Gladiator Pit (a catacomb tile north of the
    Catacomb Landing); Bo plays Lia, so he is the traitor. Order: Cy, Ann,
    Bo, the monster turn."""
    g = revealed(engine, "gladiator_pit", "whispering_skull")
    assert g.state["haunt"]["number"] == 17 and g.state["haunt"]["traitors"] == ["bo"]
    return g


def ready(g):
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    while g.state["pending"] and g.state["pending"]["kind"] == "place_chosen":
        g.do("decide", g.state["pending"]["player"], choice=0)


def mouthers(g, tile=None):
    return [m for m in g.state["monsters"] if m["name"] == MOUTHER and not m["dead"]
            and (tile is None or m["tile"] == tile)]


def to_monster_turn(g):
    for pid in ("cy", "ann", "bo"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")


def test_setup_the_traitor_places_the_mouthers_on_catacomb_tiles(engine):
    # Traitor's Tome, haunt 17: "Right Now" (Knowledge back to its start, +2; one Mouther per adventurer on
    # catacomb tiles, 1 per tile); Secrets of Survival, haunt 17: "Right Now" (2 Wards per adventurer)
    g = eye(engine)
    start = g.c.adventurers["lia"].tracks["knowledge"].start
    g.p("bo")["traits"]["knowledge"] = start - 2
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    assert g.p("bo")["traits"]["knowledge"] == start + 2
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "place_chosen"
    assert pending["options"] == ["Catacomb Landing", "Gladiator Pit", "Kitchen Basement"]
    g.do("decide", "bo", choice=1)
    assert g.state["pending"]["options"] == ["Catacomb Landing", "Kitchen Basement"]
    g.do("decide", "bo", choice=0)
    assert sorted(m["tile"] for m in mouthers(g)) == CATACOMB  # the last free catacomb tile takes the third
    assert g.state["haunt"]["counters"][PILE] == 6
    assert mouthers(g)[0]["attacks"] == "sanity"
    assert not any("by hand" in t for t in g.texts())
    assert g.state["turn"]["player"] == "cy"


def test_more_mouthers_than_free_tiles_share_a_tile(engine):
    # Traitor's Tome, haunt 17: "Right Now" ("1 per tile" as far as it goes)
    g = eye(engine)
    g.state["players"]["di"] = dict(g.p("cy"), name="Di")  # a fourth adventurer: four Mouthers, three tiles
    g.state["seats"].append("di")
    for pid in ("ann", "bo", "cy", "di"):
        g.do("ready", pid)
    for _ in range(2):
        g.do("decide", "bo", choice=0)
    assert len(mouthers(g)) == 3
    assert g.state["pending"]["options"] == ["Catacomb Landing", "Gladiator Pit", "Kitchen Basement"]
    g.do("decide", "bo", choice=2)
    assert len(mouthers(g, "kitchen_basement")) == 2


def test_a_hero_ending_on_a_free_catacomb_tile_lays_a_ward(engine):
    # Secrets of Survival, haunt 17: "You Must Do This at the End of Your Turn" (second point)
    g = eye(engine)
    ready(g)
    spare = g.state["stacks"]["catacomb"][0]
    g.place(spare, "catacomb", 2, 0)
    g.put("cy", spare)
    g.do("end", "cy")
    assert {"name": WARD, "tile": spare} in g.state["tokens"]
    assert g.state["haunt"]["counters"][PILE] == 5
    g.put("ann", spare)  # a Ward is already there: none is laid
    g.do("end", "ann")
    assert g.state["haunt"]["counters"][PILE] == 5


def test_a_hero_ending_with_a_mouther_lays_no_ward(engine):
    # Secrets of Survival, haunt 17: "You Must Do This at the End of Your Turn" (no Ward beside a Mouther)
    g = eye(engine)
    ready(g)
    g.put("cy", "catacomb_landing")
    g.do("end", "cy")
    assert not any(t["name"] == WARD for t in g.state["tokens"])


def test_khirads_light_hurts_a_hero_ending_on_the_city(engine, dice):
    # Secrets of Survival, haunt 17: "You Must Do This at the End of Your Turn" (first point)
    g = eye(engine)
    ready(g)
    before = dict(g.p("cy")["traits"])
    dice.next(2)  # 1 die of mental damage: 2
    g.do("end", "cy")
    assert any("Khirad's light racks Cy's mind" in t for t in g.texts())
    g.decide_all(0)
    assert sum(g.p("cy")["traits"].values()) == sum(before.values()) - 2


def test_the_traitor_clears_wards_from_a_city_omen_tile(engine, dice):
    # Traitor's Tome, haunt 17: "How to Clear the Wards" (3+; a 5+ gives one more attempt; two at most)
    g = eye(engine)
    ready(g)
    spare = g.state["stacks"]["catacomb"][0]
    g.place(spare, "catacomb", 2, 0)
    g.place("executioners_block", "city", 3, 0)
    for tile in ("kitchen_basement", spare, spare):
        g.state["tokens"].append({"name": WARD, "tile": tile})
    g.state["haunt"]["counters"][PILE] = 3
    g.do("end", "cy")
    g.do("end", "ann")
    with pytest.raises(IllegalAction, match="omen tile on the city level"):
        g.do("task", "bo", trait="knowledge", task="ward")
    g.put("bo", "executioners_block")
    with pytest.raises(IllegalAction, match="(?i)knowledge"):
        g.do("task", "bo", trait="might", task="ward")
    dice.next(2, 2, 1)  # Knowledge 5: one more attempt
    g.do("task", "bo", trait="knowledge", task="ward")
    assert g.state["pending"]["player"] == "bo"
    assert g.state["pending"]["options"] == sorted([g.c.tiles[spare].name, "Kitchen Basement"])  # any tile
    g.do("decide", "bo", choice="Kitchen Basement")
    assert g.state["haunt"]["counters"][PILE] == 4
    dice.next(2, 2, 2)  # 6: a second clear, but never a third attempt
    g.do("task", "bo", trait="knowledge", task="ward")  # only the spare tile has Wards left: no question
    assert g.state["haunt"]["counters"][PILE] == 5
    with pytest.raises(IllegalAction, match="no attempt left"):
        g.do("task", "bo", trait="knowledge", task="ward")


def test_a_low_first_clearing_roll_allows_no_second(engine, dice):
    # Traitor's Tome, haunt 17: "How to Clear the Wards"
    g = eye(engine)
    ready(g)
    g.place("executioners_block", "city", 3, 0)
    g.state["tokens"].append({"name": WARD, "tile": "kitchen_basement"})
    g.do("end", "cy")
    g.do("end", "ann")
    g.put("bo", "executioners_block")
    dice.next(1, 1)  # 2: fails
    g.do("task", "bo", trait="knowledge", task="ward")
    assert any("The Ward holds" in t for t in g.texts())
    with pytest.raises(IllegalAction, match="no attempt left"):
        g.do("task", "bo", trait="knowledge", task="ward")
    with pytest.raises(IllegalAction, match="Only the traitor"):
        g.state["turn"]["player"] = "ann"
        g.put("ann", "executioners_block")
        g.do("task", "ann", trait="knowledge", task="ward")


def test_the_traitor_attacks_minds_with_knowledge(engine, dice):
    # Traitor's Tome, haunt 17: "Attacking Their Minds" (Knowledge against Knowledge, mental damage)
    g = eye(engine)
    ready(g)
    g.do("end", "cy")
    g.do("end", "ann")
    g.put("cy", g.p("bo")["tile"])
    dice.next(2, 2)   # Bo attacks with Knowledge: 4
    dice.next(1)      # Cy defends with Knowledge: 1
    g.do("attack", "bo", target="cy", trait="knowledge")
    assert any("Cy rolls Knowledge to defend" in t for t in g.texts())
    assert any("3 mental damage to Cy" in t for t in g.texts())


def test_mouthers_never_leave_the_catacomb_level(engine, dice):
    # Traitor's Tome, haunt 17: "Special Gibbering Mouther Movement Rules"
    g = eye(engine)
    ready(g)
    to_monster_turn(g)
    m = mouthers(g, "kitchen_basement")[0]
    with pytest.raises(IllegalAction, match="never leave the catacomb"):
        g.do("monster", "bo", op="move", monster=m["id"], way="stairs")
    g.do("monster", "bo", op="move", monster=m["id"], way="east")
    assert m["id"] in {x["id"] for x in mouthers(g, "catacomb_landing")}


def test_mouthers_attack_together_and_drive_the_hero_to_the_city(engine, dice):
    # Traitor's Tome, haunt 17: "Special Gibbering Mouther Attack Rules" (3 dice + 2 per further Mouther;
    # a win puts the hero on a city tile of the traitor's choice instead of damage); movement before attacks
    g = eye(engine)
    ready(g)
    to_monster_turn(g)
    for m in mouthers(g):
        m["tile"] = "catacomb_landing"
    g.put("cy", "catacomb_landing")
    before = dict(g.p("cy")["traits"])
    dice.next(2, 2, 2, 2, 2, 2, 2)  # 7 dice for three Mouthers: 14
    dice.next(0, 0, 0)              # Cy's Sanity defence
    g.do("monster", "bo", op="attack", monster=mouthers(g)[0]["id"], target="cy")
    assert any("rolls Sanity for the Gibbering Mouthers (7 dice)" in t for t in g.texts())
    assert g.state["pending"]["player"] == "bo"
    assert g.state["pending"]["options"] == ["Elfsong Tavern", "Inner Chamber", "Kitchen"]
    g.do("decide", "bo", choice=1)
    assert g.p("cy")["tile"] == "inner_chamber" and g.p("cy")["traits"] == before
    with pytest.raises(IllegalAction, match="before it attacks"):
        g.do("monster", "bo", op="move", monster=mouthers(g)[0]["id"], way="west")


def test_a_hero_who_beats_the_mouthers_removes_one(engine, dice):
    # Traitor's Tome, haunt 17: "Special Gibbering Mouther Attack Rules" ("If you lose, remove 1")
    g = eye(engine)
    ready(g)
    to_monster_turn(g)
    g.put("cy", "gladiator_pit")
    dice.next(0, 0, 0)   # one Mouther: 3 dice, 0
    dice.next(2, 2)      # Cy: 4
    g.do("monster", "bo", op="attack", monster=mouthers(g, "gladiator_pit")[0]["id"], target="cy")
    assert mouthers(g, "gladiator_pit") == [] and len(mouthers(g)) == 2
    assert g.p("cy")["tile"] == "gladiator_pit"


def test_the_monster_turn_ends_with_every_attack_and_khirads_light(engine, dice):
    # Traitor's Tome, haunt 17: "Special Gibbering Mouther Attack Rules" (each hero on the catacomb level is
    # attacked) and "You Must Do This at the End of the Monster Turn" (1 die for each hero in the city)
    # Ruling: Haunt 17: a hero on the catacomb level the traitor never attacked with the Mouthers on their tile
    g = eye(engine)
    ready(g)
    to_monster_turn(g)
    g.put("ann", "kitchen_basement")
    dice.next(0, 0, 0)   # the Mouther on the Kitchen Basement: 0
    dice.next(1)         # Ann defends: 1, so the Mouther is removed
    dice.next(2)         # Cy, on the Elfsong Tavern (a building): 2 mental damage
    before = sum(g.p("cy")["traits"].values())
    g.do("end", "bo")
    assert any("Khirad's light falls" in t for t in g.texts())
    g.decide_all(0)
    assert mouthers(g, "kitchen_basement") == []
    assert sum(g.p("cy")["traits"].values()) == before - 2


def test_the_monster_turn_tops_the_mouthers_up(engine, dice):
    # Traitor's Tome, haunt 17: "You Must Do This at the Start of the Monster Turn"
    # Ruling: Haunt 17: the monster turn with no Gibbering Mouther left
    g = eye(engine)
    ready(g)
    for m in mouthers(g):
        m["dead"] = True  # every Mouther gone: the monster turn still comes and brings them back
    for pid in ("cy", "ann", "bo"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")
    assert g.state["pending"]["player"] == "bo" and g.state["pending"]["options"] == \
        ["Catacomb Landing", "Gladiator Pit", "Kitchen Basement"]
    g.decide_all(0)
    assert len(mouthers(g)) == 3


def test_a_hero_who_beats_a_mouther_removes_it_and_gains_sanity(engine, dice):
    # Secrets of Survival, haunt 17: "Destroying a Gibbering Mouther"
    g = eye(engine)
    ready(g)
    g.put("cy", "gladiator_pit")
    sanity = g.p("cy")["traits"]["sanity"]
    dice.next(2, 2, 2)   # Cy's Might: 6
    dice.next(0, 0, 0)   # the Mouther's Might: 0
    g.do("attack", "cy", target=mouthers(g, "gladiator_pit")[0]["id"])
    assert mouthers(g, "gladiator_pit") == [] and g.p("cy")["traits"]["sanity"] == sanity + 1


def test_the_heroes_win_with_every_ward_on_the_catacomb_level(engine):
    # Secrets of Survival, haunt 17: "You Win When..."
    g = eye(engine)
    ready(g)
    spare = g.state["stacks"]["catacomb"][0]
    g.place(spare, "catacomb", 2, 0)
    for _ in range(5):
        g.state["tokens"].append({"name": WARD, "tile": "kitchen_basement"})
    g.state["haunt"]["counters"][PILE] = 1
    g.put("cy", spare)
    g.do("end", "cy")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 17: "You Win When..."
    g = eye(engine)
    ready(g)
    g.p("ann")["alive"] = False
    g.p("cy")["traits"]["sanity"] = 1
    g.put("cy", "elfsong_tavern")
    g.state["turn"]["player"] = "bo"
    g.do("end", "bo")  # the monster turn; end it, Khirad's light (dice 0) kills nobody...
    g.p("cy")["alive"] = False
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_traitors_words_to_type_reach_only_the_traitor(engine):
    # Traitor's Tome, haunt 17: "How to Clear the Wards" and "Attacking Their Minds" are the traitor's secrets
    g = eye(engine)
    g.do("ready", "ann")
    g.do("ready", "bo")
    ev = g.do("ready", "cy")
    told = [e for e in ev if "{move:ward}" in e["text"]]
    assert told and {e["to"] for e in told} == {"bo"}


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 17: "How to Clear the Wards" (during the traitor's turn, on a city-level omen tile);
    # Secrets of Survival, haunt 17: "You Must Do This at the End of Your Turn" (a Ward on a free catacomb tile)
    def offered():
        return {(a["trait"], a["task"]) for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = eye(engine)
    ready(g)
    g.place("executioners_block", "city", 3, 0)
    g.state["tokens"].append({"name": WARD, "tile": "kitchen_basement"})
    assert offered() == set()                                  # Cy, a hero: nothing to clear
    assert set(g.state["stacks"]["catacomb"]) <= goals("cy")   # more Wards than free tiles: more to find
    for m in mouthers(g):
        m["dead"] = True
    g.state["haunt"]["counters"][PILE] = 1
    assert goals("cy") == {"catacomb_landing", "gladiator_pit"}  # no Ward twice on a tile, none by a Mouther
    g.do("end", "cy")
    g.do("end", "ann")
    assert offered() == set()                                  # Bo is not on an omen tile
    assert goals("bo") == {"executioners_block"}               # the traitor heads for one
    g.put("bo", "executioners_block")
    assert offered() == {("knowledge", "ward")}
    assert g.state["tokens"].count({"name": WARD, "tile": "kitchen_basement"}) == 1   # offering tried copies only
    dice.next(1, 1)                                            # 2: fails, no second attempt
    g.do("task", "bo", trait="knowledge", task="ward")
    assert offered() == set()
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["turn"].get("monsters") and offered() == set()   # not in the monster turn
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "bo", trait="knowledge", task="ward")


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome, haunt 17: the traitor's one move of its own is clearing a Ward
    g = eye(engine)
    ready(g)
    g.state["turn"]["player"] = "bo"
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="wardx")
