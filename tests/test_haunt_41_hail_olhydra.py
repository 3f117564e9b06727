"""Haunt 41, Hail Olhydra!, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 41). Ann (Torskar) reveals it on the Arcane
Retreat (catacomb, north of the Catacomb Landing) with the Eye of Vecna and
is the traitor, a Morkoth; the heroes are Bo (Lia) and Cy (Gretchen); the
order is Bo, Cy, Ann."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts.h41_hail_olhydra import HailOlhydra
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

SEALS = "Portal seals"


def olhydra(engine, before=None):
    g = revealed(engine, "arcane_retreat", "eye_of_vecna")
    assert g.state["haunt"]["number"] == 41 and g.state["haunt"]["traitors"] == ["ann"]
    g.put("ann", "arcane_retreat")
    if before:
        before(g)
    all_ready(g)
    return g


def floods(g):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Flood")


def flood(g, *tiles):
    for tile in tiles:
        g.state["tokens"].append({"name": "Flood", "tile": tile})


def apparatus(g):
    return next((m for m in g.state["monsters"] if m["name"] == "Apparatus of Kwalish" and not m["dead"]), None)


def build_here(g, pid, tile="smithy"):
    g.state["monsters"].append({"id": f"m{len(g.state['monsters']) + 1}", "name": "Apparatus of Kwalish",
                                "number": 1, "tile": tile, "traits": {"might": 4, "speed": 3}, "stunned": False,
                                "dead": False, "ally": "heroes"})


def test_setup_the_morkoth_the_portal_and_the_first_flood(engine):
    # Traitor's Tome, haunt 41: "Right Now" (Might and Sanity back to their start, +2 each; the Portal and a flood
    # token on the omen tile that set off the haunt)
    g = revealed(engine, "arcane_retreat", "eye_of_vecna")
    g.put("ann", "arcane_retreat")
    g.p("ann")["traits"]["might"] = 1
    start = {t: g.c.adventurers["torskar"].tracks[t].start for t in ("might", "sanity")}
    all_ready(g)
    assert g.p("ann")["traits"]["might"] == start["might"] + 2 and g.p("ann")["traits"]["sanity"] == start["sanity"] + 2
    assert floods(g) == ["arcane_retreat"]
    assert [t["tile"] for t in g.state["tokens"] if t["name"].startswith("Portal to")] == ["arcane_retreat"]
    assert not any("by hand" in e["text"] for e in g.events)
    words = [e for e in g.events if "{move:build}" in e["text"]]
    assert words and all(e["to"] in ("bo", "cy") for e in words)        # the heroes' words reach only the heroes
    hyp = [e for e in g.events if "{move:hypnotise}" in e["text"]]
    assert hyp and all(e["to"] == "ann" for e in hyp)


def test_the_flood_spreads_at_the_end_of_every_adventurers_turn(engine):
    # Traitor's Tome, haunt 41: "You Must Do This at the End of Each Adventurer's Turn" (step 1: a catacomb tile
    # next to and connected with a flooded one). Ruling: how the flood reaches the catacombs.
    g = olhydra(engine)
    g.do("end", "bo")
    assert floods(g) == ["arcane_retreat", "catacomb_landing"]
    g.do("end", "cy")
    assert floods(g) == ["arcane_retreat", "catacomb_landing", "kitchen_basement"]


def test_once_the_catacombs_are_flooded_the_city_floods(engine):
    # Traitor's Tome, haunt 41: same section, step 2 (a city tile with a sewer grate or stairs, or beside a flooded
    # one; the Morkoth picks)
    g = olhydra(engine)
    flood(g, "catacomb_landing", "kitchen_basement")
    g.do("end", "bo")
    assert "kitchen" in floods(g) and len(floods(g)) == 4          # the Kitchen's stairs: the only choice
    g.do("end", "cy")
    pending = g.state["pending"]
    assert pending is None and "inner_chamber" in floods(g)          # beside the flooded Kitchen


def test_a_hero_who_fails_to_swim_becomes_a_morkoth(engine, dice):
    # Traitor's Tome, haunt 41: "Drowning Heroes"; Secrets of Survival, haunt 41: "You Must Do This at the Start of
    # Your Turn" (Speed 4+). Ruling: a hero who drowns (their turn ends there).
    g = olhydra(engine, before=lambda g: g.put("cy", "catacomb_landing"))
    flood(g, "catacomb_landing")
    g.p("cy")["traits"]["might"] = 1
    dice.next(1, 1)                                 # Cy's Speed roll: 2
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["haunt"]["traitors"] == ["ann", "cy"]
    start = g.c.adventurers["gretchen"].tracks["might"].start
    assert g.p("cy")["traits"]["might"] == start
    tome = [e for e in g.events if e["kind"] == "secret_rules"]
    assert tome and all(e["to"] == "cy" for e in tome)
    assert g.state["turn"]["player"] == "ann"


def test_the_apparatus_keeps_its_crew_from_drowning(engine, dice):
    # Secrets of Survival, haunt 41: "Special Apparatus of Kwalish Rules" (inside, no drowning roll)
    g = olhydra(engine, before=lambda g: g.put("cy", "catacomb_landing"))
    flood(g, "catacomb_landing")
    build_here(g, "cy", "catacomb_landing")
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy" and g.state["haunt"]["traitors"] == ["ann"]
    assert not any("Speed" in e["text"] and "rolls" in e["text"] for e in g.events if e.get("player") == "cy")


def test_building_the_apparatus_with_items_to_make_up_the_roll(engine, dice):
    # Secrets of Survival, haunt 41: "How to Construct the Apparatus of Kwalish" (Knowledge 7+; each item discarded
    # after the roll adds 1). Ruling: asked once whether to discard the shortfall.
    g = olhydra(engine, before=lambda g: g.place("smithy", "city", 3, 0))
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="build")      # not a workshop tile
    g.put("bo", "smithy")
    g.give("bo", "crossbow")
    dice.next(2, 2, 2)                                            # Lia: 6
    g.do("task", "bo", trait="knowledge", task="build")
    assert g.state["pending"]["kind"] == "h41_discard"
    g.do("decide", "bo", choice=0)                                # yes: the crossbow makes it 7
    assert apparatus(g)["tile"] == "smithy" and "crossbow" not in g.p("bo")["cards"]
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="build")


def test_piloting_carries_the_crew_and_closing_the_portal_wins(engine, dice):
    # Secrets of Survival, haunt 41: "Special Apparatus of Kwalish Rules" (pilot: the Apparatus's Speed in dice, the
    # willing heroes along; close: Might 4+ within 1 tile of the Portal).
    # Ruling: who goes along when the Apparatus is piloted (every hero inside).
    g = olhydra(engine, before=lambda g: [g.put(p, "kitchen_basement") for p in ("bo", "cy")])
    build_here(g, "bo", "kitchen_basement")
    g.state["turn"]["h41_inside"] = True
    with pytest.raises(IllegalAction):
        g.do("task", "bo", task="close")          # 2 tiles from the Portal
    dice.next(1, 1, 1)
    g.do("task", "bo", task="pilot")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", task="control", target="ann")        # one choice a turn
    g.do("move", "bo", way="east")
    assert apparatus(g)["tile"] == "catacomb_landing" and g.p("cy")["tile"] == "catacomb_landing"
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy" and g.state["turn"]["h41_inside"]
    dice.next(1, 1, 1, 1)
    g.do("task", "cy", task="close")
    assert g.state["haunt"]["counters"][SEALS] == 1 and g.state["phase"] == "haunt"
    g.do("end", "cy")
    g.do("end", "ann")
    dice.next(1, 1, 1, 1)
    g.do("task", "bo", task="close")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_pilot_moves_no_further_than_the_roll(engine, dice):
    # Secrets of Survival, haunt 41: "Special Apparatus of Kwalish Rules" (Pilot: up to the rolled spaces)
    g = olhydra(engine, before=lambda g: g.put("bo", "kitchen_basement"))
    build_here(g, "bo", "kitchen_basement")
    g.state["turn"]["h41_inside"] = True
    dice.next(1, 0, 0)
    g.do("task", "bo", task="pilot")
    g.do("move", "bo", way="east")
    with pytest.raises(IllegalAction):
        g.do("move", "bo", way="west")


def test_control_attacks_an_enemy_within_one_tile(engine, dice):
    # Secrets of Survival, haunt 41: "Special Apparatus of Kwalish Rules" (Control: the Apparatus's Might)
    g = olhydra(engine, before=lambda g: g.put("bo", "catacomb_landing"))
    build_here(g, "bo", "catacomb_landing")
    g.state["turn"]["h41_inside"] = True
    might = g.p("ann")["traits"]["might"] + g.p("ann")["traits"]["speed"]
    dice.next(2, 2, 2, 2)
    dice.next(0, 0, 0, 0, 0)
    g.do("task", "bo", task="control", target="ann")
    g.decide_all(0)
    assert g.p("ann")["traits"]["might"] + g.p("ann")["traits"]["speed"] < might


def test_damage_to_the_apparatus_falls_on_its_crew(engine, dice):
    # Secrets of Survival, haunt 41: "Defending and Damaging the Apparatus" (split among the heroes inside; all dead:
    # the token leaves the board). Ruling: damage to the Apparatus of Kwalish (the first hero inside picks).
    g = olhydra(engine, before=lambda g: [g.put(p, "arcane_retreat") for p in ("bo", "cy")]
                + [build_here(g, "bo", "arcane_retreat")])
    for _ in range(2):
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    assert g.state["turn"]["player"] == "ann"
    m = apparatus(g)
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)
    dice.next(0, 0, 0, 0)
    g.do("attack", "ann", target=m["id"])
    assert g.state["pending"]["kind"] == "h41_share" and g.state["pending"]["player"] == "bo"
    g.do("decide", "bo", choice=1)                                  # Cy takes the first point
    assert not apparatus(g)["stunned"]


def test_the_morkoth_stays_in_the_flood(engine):
    # Traitor's Tome, haunt 41: "Special Movement Rules". Ruling: a Morkoth forced off the flood (nearest tile).
    g = olhydra(engine)
    for pid in ("bo", "cy"):
        g.do("end", pid)
    with pytest.raises(IllegalAction):
        g.do("move", "ann", way="south")
    g.put("ann", "kitchen")                                          # forced off the flood
    g.do("end", "ann")
    g.decide_all(0)
    assert g.p("ann")["tile"] in floods(g)


def test_hypnosis_drags_a_hero(engine, dice):
    # Traitor's Tome, haunt 41: "Special Attack Rules" (Sanity attack on a hero in line of sight; a win moves the
    # hero up to the damage in tiles)
    g = olhydra(engine, before=lambda g: g.put("bo", "catacomb_landing"))
    for pid in ("bo", "cy"):
        g.do("end", pid)
        g.decide_all(0)
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="sanity", task="hypnotise", target="cy")
    dice.next(2, 2, 2, 2, 2, 2, 2)
    dice.next(0, 0, 0, 0, 0, 0)
    g.do("task", "ann", trait="sanity", task="hypnotise", target="bo")
    assert g.state["pending"]["kind"] == "h41_drag" and g.state["pending"]["player"] == "ann"
    g.do("decide", "ann", choice=g.state["pending"]["options"].index("Arcane Retreat"))
    assert g.p("bo")["tile"] == "arcane_retreat"
    g.do("decide", "ann", choice=0)
    assert g.state["turn"]["attacked"]


def test_every_tile_flooded_wins_for_the_morkoths(engine):
    # Traitor's Tome, haunt 41: "You Win When..." (every tile flooded)
    g = olhydra(engine)
    flood(g, *[t for t in g.state["board"] if t not in ("arcane_retreat", "kitchen")])
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_every_hero_a_morkoth_wins_for_the_traitor(engine):
    # Traitor's Tome, haunt 41: "You Win When..." (every hero killed or a Morkoth)
    g = olhydra(engine)
    g.state["haunt"]["traitors"] += ["bo", "cy"]
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_buttons_and_goals(engine):
    # Secrets of Survival, haunt 41: "How to Construct the Apparatus of Kwalish" (buttons and where the heroes go)
    g = olhydra(engine, before=lambda g: g.place("smithy", "city", 3, 0))
    g.put("bo", "smithy")
    assert [a["task"] for a in legal_actions(g.c, g.state) if a["type"] == "task"] == ["build"]
    rules, ctx = HailOlhydra(), Ctx(g.c, g.state)
    assert rules.haunt_goals(ctx, "bo") == {"smithy"}
    build_here(g, "bo", "smithy")
    assert rules.haunt_goals(ctx, "cy") == {"smithy"}
    assert rules.haunt_goals(ctx, "ann") is None


def test_the_portal_is_a_quest_token_so_one_seal_per_hero_closes_it(engine, dice):
    # Secrets of Survival, haunt 41, L4930 (a pile of quest tokens, one per hero, kept apart from the Portal's
    # token) and L4966-4968 (closed when the quest tokens on the Portal's tile equal the adventurers); Traitor's
    # Tome, haunt 41, "Right Now" (the Portal is a triangular quest token on its tile): with 3 adventurers, the
    # Portal and 2 seals close it
    g = olhydra(engine, before=lambda g: [g.put(p, "catacomb_landing") for p in ("bo", "cy")])
    build_here(g, "bo", "catacomb_landing")
    for pid in ("bo", "cy"):
        g.state["turn"]["h41_inside"] = True
        dice.next(1, 1, 1, 1)
        g.do("task", pid, task="close")
        if pid == "bo":
            assert g.state["phase"] == "haunt"
            g.do("end", "bo")
    portal_tile = "arcane_retreat"
    quest = [t for t in g.state["tokens"] if t["tile"] == portal_tile and t["name"] != "Flood"]
    assert len(quest) == 3  # the Portal and 2 seals
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_an_undeclared_move_is_refused(engine):
    g = olhydra(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="swim")


def test_the_crew_carried_along_follows_a_seat_handed_over(engine, dice):
    # Secrets of Survival, haunt 41, "Special Apparatus of Kwalish Rules" (Pilot: the heroes inside go along): a
    # hero riding along whose seat is handed over mid-move still goes along
    g = olhydra(engine, before=lambda g: [g.put(p, "kitchen_basement") for p in ("bo", "cy")])
    build_here(g, "bo", "kitchen_basement")
    g.state["turn"]["h41_inside"] = True
    dice.next(1, 1, 1)
    g.do("task", "bo", task="pilot")
    g.do("move", "bo", way="east")
    assert g.state["haunt"]["h41"]["aboard"] == ["cy"]
    g.do("handover", "cy", to="zed", name="Zed")
    assert g.state["haunt"]["h41"]["aboard"] == ["zed"]
    g.do("move", "bo", way="north")
    assert g.p("zed")["tile"] == g.p("bo")["tile"] == apparatus(g)["tile"]
