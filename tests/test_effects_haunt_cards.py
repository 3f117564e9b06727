"""Cards and powers that act in the haunt, played through the real actions:
what an attack's winner may add or do instead of damage, the Eye of Vecna
against movement, the cards that kill once the haunt has begun, and the
omens that move small monsters and NPCs."""
import pytest

from bot.games.babg.engine import IllegalAction
from tests.invariants import check
from tests.test_effects_kit import give
from tests.test_haunt_play import all_ready, attack_ready, revealed


def positions(g, pid, traits=("might", "speed")):
    return sum(g.p(pid)["traits"][t] for t in traits)


def wererat(g, tile):
    """A Wererat (haunt 18's small monster) on `tile`."""
    from bot.games.babg.engine import haunt_play
    from bot.games.babg.engine.ctx import Ctx
    return haunt_play.add_monster(Ctx(g.c, g.state), "Wererat", tile)


def monster(g, m):
    """The monster as the game now holds it (each action copies the state)."""
    return next(x for x in g.state["monsters"] if x["id"] == m["id"])


def take_damage_choices(g):
    while g.state["pending"] and g.state["pending"]["kind"] == "damage":
        g.do("decide", g.state["pending"]["player"], choice=0)


def asked(g, who, kind):
    pending = g.state["pending"]
    assert pending and pending["player"] == who and pending["kind"] == kind, pending
    return pending["options"]


def test_holy_symbol_adds_one_damage_after_a_win(engine, dice):
    # Card: Holy Symbol (1 more damage of the same kind); Rulebook: Make an Attack, Card Clarifications
    g = attack_ready(engine)  # Ann (Torskar) and Bo (Lia, the traitor) share the Elfsong Tavern
    give(g, "ann", "holy_symbol")
    before = positions(g, "bo")
    dice.next(2, 1)  # Ann: 3
    dice.next(1)  # Bo: 1
    g.do("attack", "ann", target="bo")
    assert asked(g, "ann", "attack_won") == ["Add 1 damage", "No"]
    g.do("decide", "ann", choice="Add 1 damage")
    g.decide_all(0)
    assert positions(g, "bo") == before - 3
    check(g.c, g.state)


def test_holy_symbol_on_a_one_point_win_rules_out_stealing(engine, dice):
    # Card: Holy Symbol; Rulebook: Card Clarifications, Holy Symbol (1 + 1 damage cannot become a steal);
    # Rulebook: Special Attacks, "Stealing Items" (2 or more damage)
    g = attack_ready(engine)
    give(g, "ann", "holy_symbol")
    give(g, "bo", "crossbow")
    dice.next(2)
    dice.next(1)
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="Add 1 damage")
    assert g.state["pending"] is None or g.state["pending"]["kind"] != "steal"
    assert "crossbow" in g.p("bo")["cards"]


def test_declining_the_holy_symbol_keeps_the_damage(engine, dice):
    # Card: Holy Symbol ("you may")
    g = attack_ready(engine)
    give(g, "ann", "holy_symbol")
    before = positions(g, "bo")
    dice.next(2)
    dice.next(1)
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="No")
    g.decide_all(0)
    assert positions(g, "bo") == before - 1


def test_vial_of_poison_adds_two_and_is_discarded(engine, dice):
    # Card: Vial of Poison (discard it: 2 more physical damage)
    g = attack_ready(engine)
    give(g, "ann", "vial_of_poison")
    before = positions(g, "bo")
    dice.next(2)
    dice.next(1)
    g.do("attack", "ann", target="bo")
    assert asked(g, "ann", "attack_won") == ["Add 2 damage", "No"]
    g.do("decide", "ann", choice=0)
    g.decide_all(0)
    assert positions(g, "bo") == before - 3
    assert "vial_of_poison" in g.state["discard"]["item"] and "vial_of_poison" not in g.p("ann")["cards"]


def test_after_extra_damage_the_winner_may_still_steal(engine, dice):
    # Rulebook: Special Attacks, "Stealing Items" (instead of 2 or more damage); Card: Vial of Poison;
    # Ruling: what an attack's winner may do after the roll, in order
    g = attack_ready(engine)
    give(g, "ann", "vial_of_poison")
    give(g, "bo", "crossbow")
    dice.next(2)
    dice.next(1)
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="Add 2 damage")
    assert asked(g, "ann", "steal") == ["Deal 3 physical damage", "Steal Crossbow"]
    g.do("decide", "ann", choice="Steal Crossbow")
    assert "crossbow" in g.p("ann")["cards"]


def test_dimensional_shackles_go_to_the_loser_instead_of_damage(engine, dice):
    # Card: Dimensional Shackles (win an attack on an adventurer on your tile: hand them over, no damage)
    g = attack_ready(engine)
    give(g, "ann", "dimensional_shackles")
    speed_ann = g.value("ann", "speed")
    before = dict(g.p("bo")["traits"])
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "ann", target="bo")
    assert asked(g, "ann", "attack_won") == ["Shackle them (no damage)", "Deal the physical damage"]
    g.do("decide", "ann", choice=0)
    assert "dimensional_shackles" in g.p("bo")["cards"] and "dimensional_shackles" not in g.p("ann")["cards"]
    assert g.value("ann", "speed") == speed_ann + 1
    assert g.p("bo")["traits"]["might"] == before["might"] and g.p("bo")["traits"]["speed"] == before["speed"] - 1
    check(g.c, g.state)


def test_eldritch_blast_pushes_the_defender(engine, dice):
    # Power: Eldritch Blast (Lia): a won Sanity attack may push the defender 1 tile away;
    # Rulebook: Adventurer Powers
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "bo"}  # Lia, the traitor
    dice.next(2)
    dice.next(0)
    g.do("attack", "bo", target="ann", trait="sanity")
    take_damage_choices(g)
    options = asked(g, "bo", "eldritch_push")
    assert options[-1] == "Leave them" and "Inner Chamber" in options
    g.do("decide", "bo", choice="Inner Chamber")
    assert g.p("ann")["tile"] == "inner_chamber"
    check(g.c, g.state)


def test_reckless_attack_costs_its_die_after_the_outcome(engine, dice):
    # Power: Reckless Attack (Torskar): 2 more dice, then 1 die of physical damage to yourself;
    # Rulebook: Adventurer Powers, Reckless Attack
    g = attack_ready(engine)
    dice.next(2, 2)
    dice.next(0)
    dice.next(2)  # Reckless Attack's die
    g.do("attack", "ann", target="bo", reckless=True)
    texts = g.texts()
    while g.state["pending"]:
        g.do("decide", g.state["pending"]["player"], choice=0)
        texts += g.texts()
    bo_hurt = next(i for i, t in enumerate(texts) if t.startswith("Bo takes"))
    ann_hurt = next(i for i, t in enumerate(texts) if t.startswith("Ann takes"))
    assert bo_hurt < ann_hurt


def test_eye_of_vecna_stops_an_opponent(engine, dice):
    # Card: Eye of Vecna (an opponent moving onto your tile rolls 2 dice: 0-1 stays, movement ends; exactly 1
    # costs the holder 1 mental damage); Rulebook: Card Clarifications, Eye of Vecna
    g = attack_ready(engine)
    give(g, "ann", "eye_of_vecna")
    g.put("ann", "inner_chamber")
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    before = positions(g, "ann", ("knowledge", "sanity"))
    g.do("move", "bo", way="west")
    assert asked(g, "ann", "eye_of_vecna") == ["Make them roll", "Let them come"]
    dice.next(1, 0)
    g.do("decide", "ann", choice="Make them roll")
    g.decide_all(0)
    assert g.p("bo")["tile"] == "elfsong_tavern" and g.state["turn"]["stopped"]
    assert positions(g, "ann", ("knowledge", "sanity")) == before - 1
    with pytest.raises(IllegalAction, match="movement is over"):
        g.do("move", "bo", way="west")


def test_eye_of_vecna_lets_a_good_roll_through(engine, dice):
    # Card: Eye of Vecna ("2 or more: they come onto your tile")
    g = attack_ready(engine)
    give(g, "ann", "eye_of_vecna")
    g.put("ann", "inner_chamber")
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    g.do("move", "bo", way="west")
    dice.next(2, 0)
    g.do("decide", "ann", choice=0)
    assert g.p("bo")["tile"] == "inner_chamber"


def test_eye_of_vecna_ignores_allies_and_can_be_waived(engine):
    # Card: Eye of Vecna (opponents only; "you may")
    g = attack_ready(engine)
    give(g, "ann", "eye_of_vecna")
    g.put("ann", "inner_chamber")
    g.state["turn"] = {**g.state["turn"], "player": "cy"}  # a fellow hero
    g.do("move", "cy", way="west")
    assert g.state["pending"] is None and g.p("cy")["tile"] == "inner_chamber"
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    g.do("move", "bo", way="west")
    g.do("decide", "ann", choice="Let them come")
    assert g.p("bo")["tile"] == "inner_chamber"


def test_eye_of_vecna_against_a_monster(engine, dice):
    # Card: Eye of Vecna (monsters are opponents too); Rulebook: How Monsters Work;
    # Ruling: Eye of Vecna against a monster
    g = attack_ready(engine)
    give(g, "ann", "eye_of_vecna")
    g.put("ann", "inner_chamber")
    rat = wererat(g, "elfsong_tavern")
    g.state["turn"] = {**g.state["turn"], "player": "bo", "monsters": True, "moves": {rat["name"]: 3},
                       "acted": [], "attacked": []}
    g.do("monster", "bo", op="move", monster=rat["id"], way="west")
    assert asked(g, "ann", "eye_of_vecna")[0] == "Make them roll"
    dice.next(0, 0)
    g.do("decide", "ann", choice=0)
    assert monster(g, rat)["tile"] == "elfsong_tavern"
    with pytest.raises(IllegalAction, match="spaces left"):
        g.do("monster", "bo", op="move", monster=rat["id"], way="west")


def test_green_devil_face_kills_in_the_haunt(engine, dice):
    # Card: The Green Devil Face ("0: once the haunt has started, your adventurer dies"); Rulebook: Playing the
    # Haunt (a dead adventurer's items drop)
    from tests.test_effects_kit import resolve_event
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    give(g, "cy", "crossbow")
    dice.next(0, 0, 0, 0)
    resolve_event(g, "the_green_devil_face", pid="cy")
    assert not g.p("cy")["alive"] and "crossbow" in g.state["piles"][g.p("cy")["tile"]]
    check(g.c, g.state)


def test_deck_of_many_things_void_kills_in_the_haunt(engine, dice):
    # Card: Deck of Many Things ("0 or less (Void): ... once the haunt has started, your adventurer dies";
    # a token goes on the card after each draw)
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    give(g, "cy", "deck_of_many_things")
    dice.next(0, 0, 0, 0)
    g.do("use", "cy", card="Deck of Many Things")
    assert not g.p("cy")["alive"]
    assert g.state["card_state"]["deck_of_many_things"]["tokens"] == 1
    assert "deck_of_many_things" in g.state["piles"][g.p("cy")["tile"]]


def test_whispering_skull_moves_a_small_monster(engine):
    # Card: Whispering Skull (once during your turn, after the haunt: move 1 small monster or NPC 1 space)
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    give(g, "cy", "whispering_skull")
    rat = wererat(g, "elfsong_tavern")
    g.do("use", "cy", card="Whispering Skull")
    options = asked(g, "cy", "skull_figure")
    assert f"Wererat {rat['number']} (on the Elfsong Tavern)" in options
    g.do("decide", "cy", choice=options.index(f"Wererat {rat['number']} (on the Elfsong Tavern)"))
    assert "Inner Chamber" in asked(g, "cy", "skull_tile")
    g.do("decide", "cy", choice="Inner Chamber")
    assert monster(g, rat)["tile"] == "inner_chamber"
    with pytest.raises(IllegalAction):
        g.do("use", "cy", card="Whispering Skull")  # once during your turn


def test_whispering_skull_moves_an_npc_but_not_a_large_monster(engine):
    # Card: Whispering Skull (small monsters and NPCs only); Rulebook: How NPCs Work.
    # Ruling: small monsters (every monster is small unless its haunt calls its token large)
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting", advs=("aldan", "lia", "gretchen"), revealer="bo")
    all_ready(g)  # haunt 1: the Beholder, a large monster
    assert [m["name"] for m in g.state["monsters"]] == ["Beholder"]
    hero = next(p for p in ("ann", "bo", "cy") if p not in g.state["haunt"]["traitors"])
    g.state["turn"] = {**g.state["turn"], "player": hero}
    give(g, hero, "whispering_skull")
    with pytest.raises(IllegalAction, match="no small monster or NPC"):
        g.do("use", hero, card="Whispering Skull")
    g2 = attack_ready(engine)  # haunt 18: the Citizens are NPC tokens
    g2.state["monsters"].clear()
    g2.state["turn"] = {**g2.state["turn"], "player": "cy"}
    g2.do("token", "cy", name="Citizen", tile="kitchen")
    give(g2, "cy", "whispering_skull")
    g2.do("use", "cy", card="Whispering Skull")
    assert asked(g2, "cy", "skull_figure") == ["Citizen (on the Kitchen)"]
    g2.do("decide", "cy", choice=0)
    g2.do("decide", "cy", choice="Inner Chamber")
    assert g2.state["tokens"][-1]["tile"] == "inner_chamber"


def test_pipes_of_haunting_drive_small_monsters_and_npcs(engine, dice):
    # Card: Pipes of Haunting (every adventurer, small monster and NPC within 2 tiles rolls Sanity 4+; the
    # piper may move each that fails, or has no Sanity, 1 space away); Ruling: Pipes of Haunting and an NPC token
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    give(g, "cy", "pipes_of_haunting")
    for pid in ("ann", "bo"):
        g.put(pid, "kitchen_basement")  # out of reach
    rat = wererat(g, "inner_chamber")
    g.do("token", "cy", name="Citizen", tile="elfsong_tavern")  # the toolkit, on Cy's own turn
    dice.next(0, 0, 0)  # the Wererat fails its Sanity roll
    g.do("use", "cy", card="Pipes of Haunting")
    seen = []
    while g.state["pending"]:
        options = asked(g, "cy", "pipes")
        seen.append(g.state["pending"]["prompt"])
        g.do("decide", "cy", choice=0)
    assert any("Wererat" in p for p in seen) and any("Citizen" in p for p in seen)
    assert monster(g, rat)["tile"] not in ("inner_chamber", "elfsong_tavern") and options[-1] == "Leave them"
    check(g.c, g.state)


def test_an_infected_attacker_bites_only_through_damage(engine, dice):
    # Card: Wererat Bite (physical damage from an infected adventurer's attack infects);
    # Ruling: a Wererat's bite when the winner steals or shackles instead
    from tests.test_effects_kit import resolve_event
    g = attack_ready(engine)
    resolve_event(g, "wererat_bite", pid="ann")
    give(g, "bo", "crossbow")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="Steal Crossbow")
    assert not any(m["kind"] == "wererat" for m in g.p("bo")["marks"])
    g.state["turn"] = {**g.state["turn"], "player": "ann", "attacked": False}
    dice.next(1)
    dice.next(0)
    g.do("attack", "ann", target="bo")  # nothing left to steal: the damage is dealt
    take_damage_choices(g)
    assert asked(g, "ann", "wererat_bite") == ["Infect them", "No"]
    g.do("decide", "ann", choice="Infect them")
    assert any(m["kind"] == "wererat" for m in g.p("bo")["marks"])


def test_a_dead_adventurers_companion_goes_to_the_next_to_arrive(engine, dice):
    # Rulebook: Playing the Haunt (a companion stays on the tile where its adventurer died; another adventurer
    # who moves onto the tile takes control of it); Card: Homunculus (Companion)
    from tests.test_effects_kit import resolve_event
    g = attack_ready(engine)
    g.state["turn"] = {**g.state["turn"], "player": "cy"}
    give(g, "cy", "homunculus")
    g.put("cy", "inner_chamber")
    dice.next(0, 0, 0, 0)
    resolve_event(g, "the_green_devil_face", pid="cy")  # 0 in the haunt: Cy dies
    assert "homunculus" in g.state["piles"]["inner_chamber"]
    g.put("bo", "inner_chamber")
    g.state["turn"] = {**g.state["turn"], "player": "bo", "moved": 0, "stopped": False, "used": []}
    with pytest.raises(IllegalAction, match="companion"):
        g.do("pickup", "bo", card="Homunculus")  # already there: it waits for someone to arrive
    g.state["turn"] = {**g.state["turn"], "player": "ann", "moved": 0, "stopped": False}
    might = g.p("ann")["traits"]["might"]
    g.do("move", "ann", way="west")
    assert "homunculus" in g.p("ann")["cards"] and g.p("ann")["traits"]["might"] == might + 1
    assert "homunculus" not in g.state["piles"].get("inner_chamber", [])


def test_nobody_deals_with_anyone_across_a_barrier(engine, dice):
    # Rulebook: Special Tiles, Assassin's Run, Flooded Chamber (nobody fights or deals with anyone across the
    # barrier)
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.legal import legal_actions
    from bot.games.babg.engine.specials import combat
    g = attack_ready(engine)
    g.place("assassins_run", "city", 3, 0)
    for pid, half in (("ann", "north"), ("bo", "south"), ("cy", "south")):
        g.put(pid, "assassins_run")
        g.p(pid)["half"] = half
    give(g, "ann", "crossbow")
    with pytest.raises(IllegalAction, match="other side of the barrier"):
        g.do("attack", "ann", target="bo")
    with pytest.raises(IllegalAction, match="only with another adventurer on your tile"):
        g.do("trade", "ann", card="Crossbow", to="cy")
    assert not any(a["type"] in ("attack", "trade") for a in legal_actions(g.c, g.state))
    ctx = Ctx(g.c, g.state)
    assert combat.leave_cost(ctx, "ann") == 0 and combat.leave_cost(ctx, "cy") == 1  # Moving Past Opponents
    g.p("ann")["half"] = "south"
    dice.next(2)
    dice.next(0)
    g.do("attack", "ann", target="bo")  # the same side: a fight
    assert any("wins" in t for t in g.texts())


def test_the_iron_flask_demon_wins_when_it_meets_both_goals(engine, dice):
    # Card: Iron Flask of Tuerny; Rulebook: Card Clarifications, Iron Flask of Tuerny (killing the last hero and
    # the traitor at once: the demon wins)
    g = attack_ready(engine)
    g.state["haunt"]["number"] = 2  # a haunt the heroes win by killing the traitor
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    give(g, "ann", "iron_flask_of_tuerny")
    for pid in ("ann", "bo", "cy"):
        g.p(pid)["traits"].update(might=1, speed=1)
    for _ in range(3):
        dice.next(2, 2, 2, 2, 2, 2)  # the balor: 12
        dice.next(0)  # the defence: 0
    g.do("use", "ann", card="Iron Flask of Tuerny")
    g.decide_all(0)
    assert not any(g.p(p)["alive"] for p in ("ann", "bo", "cy"))
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "demon"


def test_the_iron_flask_leaves_an_ordinary_win_alone(engine, dice):
    # Card: Iron Flask of Tuerny (only both goals at once make the demon the winner); Rulebook: Winning the Game
    g = attack_ready(engine)
    g.state["haunt"]["number"] = 2
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    give(g, "ann", "iron_flask_of_tuerny")
    g.put("cy", "kitchen")
    g.p("bo")["traits"].update(might=1, speed=1)
    dice.next(0)  # the balor misses Ann
    dice.next(2)
    dice.next(2, 2, 2, 2, 2, 2)  # and crushes Bo, the traitor
    dice.next(0)
    g.do("use", "ann", card="Iron Flask of Tuerny")
    g.decide_all(0)
    assert not g.p("bo")["alive"] and g.p("ann")["alive"]
    assert g.state["haunt"]["winner"] == "heroes"
