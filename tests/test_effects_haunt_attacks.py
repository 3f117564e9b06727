"""Adventurer powers and cards that act in the haunt's attacks and movement,
played through the real actions (attack, use, power, move, decide) once the
haunt has begun, rather than by calling their hooks in
bot/games/babg/engine/specials/combat.py: Magic Missile, Wild Magic, Hunter's Mark,
Flurry of Blows, Cunning Action; the Crossbow, Book of Spells, Explosive
Runes, Necklace of Fireballs, Iron Flask of Tuerny, Caltrops, Otyugh Tentacle
and Symbol of Bhaal.

Every game here is haunt 18 ("Rats on a Pier", the chart's haunt for the
House of Blood and the Berserker Axe) revealed by Bo, who becomes the
traitor; Ann and Cy are the heroes. The board: Kitchen (0,0) - Inner Chamber
(1,0) - Elfsong Tavern (2,0) in a straight west-east line of doorways, the
House of Blood north of the Inner Chamber, and the catacomb start tiles."""
import pytest

from bot.games.babg.engine import IllegalAction
from tests.invariants import check
from tests.test_effects_haunt_cards import monster, wererat
from tests.test_effects_kit import give, my_turn, resolve_event
from tests.test_haunt_play import all_ready, arena, revealed  # noqa: F401

PHYSICAL = ("might", "speed")
MENTAL = ("knowledge", "sanity")


def haunt_game(engine, advs=("torskar", "lia", "gretchen")):
    """Haunt 18 under way: Ann and Cy heroes, Bo (the revealer) the traitor,
    all three on the Elfsong Tavern, and a fresh turn for Ann."""
    g = revealed(engine, advs=advs, revealer="bo")
    arena(g)
    assert g.state["haunt"]["number"] == 18 and g.state["haunt"]["traitors"] == ["bo"]
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    my_turn(g, "ann")
    return g


def positions(g, pid, traits=PHYSICAL):
    """The sum of the trait clips' positions (each point of damage moves one clip one step)."""
    return sum(g.p(pid)["traits"][t] for t in traits)


def asked(g, who, kind):
    pending = g.state["pending"]
    assert pending and pending["player"] == who and pending["kind"] == kind, pending
    return pending["options"]


def settle(g, **answers):
    """Answer every question left: `answers` by kind; damage is split as
    evenly as the options allow (nobody walks into the skull by accident);
    anything else takes the first option. Returns the texts said meanwhile."""
    texts = []
    while g.state["pending"]:
        pending = g.state["pending"]
        if pending["kind"] in answers:
            choice = answers[pending["kind"]]
        elif pending["kind"] == "damage":
            choice = len(pending["options"]) // 2
        else:
            choice = 0
        g.do("decide", pending["player"], choice=choice)
        texts += g.texts()
    return texts


def said(texts, fragment):
    return [t for t in texts if fragment in t]


def monster_turn(g, rat, spaces=3):
    """The traitor runs the monster turn, the Wererats with `spaces` to move."""
    g.state["turn"] = {**g.state["turn"], "player": "bo", "monsters": True, "moves": {rat["name"]: spaces},
                       "acted": [], "attacked": []}


# --- Magic Missile (Dhadius) ---------------------------------------------------------------------------------

def test_magic_missile_hits_a_target_one_tile_away(engine, dice):
    # Power: Magic Missile (Dhadius): roll Knowledge in place of Might, the defender rolls Knowledge, and the target
    # may be up to 1 tile away; Rulebook: Make an Attack (Knowledge attacks deal mental damage); Special Attacks,
    # "Stealing Items" (only from a character on your tile)
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    g.put("bo", "inner_chamber")  # one doorway west of the Elfsong Tavern
    give(g, "bo", "crossbow")  # stealable, but not from another tile
    mental, physical = positions(g, "bo", MENTAL), positions(g, "bo")
    dice.next(2, 2)  # Ann (Dhadius, Knowledge 5): 4
    dice.next(1, 1)  # Bo (Lia, Knowledge 4): 2
    g.do("attack", "ann", target="bo", trait="knowledge")
    texts = g.texts()
    assert "Ann attacks Bo with Knowledge." in texts
    assert said(texts, "Bo rolls Knowledge to defend (4 dice)")
    assert "Ann wins 4 to 2: 2 mental damage to Bo." in texts
    assert asked(g, "bo", "damage")  # no offer to steal the Crossbow
    settle(g)
    assert positions(g, "bo", MENTAL) == mental - 2 and positions(g, "bo") == physical
    assert "crossbow" in g.p("bo")["cards"]
    check(g.c, g.state)


def test_magic_missile_miss_at_a_target_on_another_tile_hurts_nobody(engine, dice):
    # Power: Magic Missile ("if you lose against a target that is not on your tile, you take no damage");
    # Rulebook: Special Attacks, "Distance Attacks"
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    g.put("bo", "inner_chamber")
    before = {pid: dict(g.p(pid)["traits"]) for pid in ("ann", "bo")}
    dice.next(0)
    dice.next(2, 1)
    g.do("attack", "ann", target="bo", trait="knowledge")
    assert said(g.texts(), "attacking from a distance, takes no damage")
    assert g.state["pending"] is None
    assert {pid: g.p(pid)["traits"] for pid in ("ann", "bo")} == before


def test_magic_missile_miss_on_your_own_tile_costs_dhadius(engine, dice):
    # Power: Magic Missile (the loser is spared only against a target on another tile); Rulebook: Make an Attack
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    before = positions(g, "ann", MENTAL)
    dice.next(0)
    dice.next(2)
    g.do("attack", "ann", target="bo", trait="knowledge")
    assert "Bo wins 2 to 0: 2 mental damage to Ann." in g.texts()
    settle(g)
    assert positions(g, "ann", MENTAL) == before - 2


def test_magic_missile_reaches_one_tile_and_only_with_knowledge(engine):
    # Power: Magic Missile ("up to 1 tile away"; only the Knowledge attack reaches); Rulebook: Glossary, "within X
    # tiles" (through connected doors); Make an Attack (a Might attack is against an opponent on the same tile)
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    g.put("bo", "kitchen")  # two tiles west
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo", trait="knowledge")
    g.put("bo", "house_of_blood")  # two tiles away too, round the corner
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo", trait="knowledge")
    g.put("bo", "inner_chamber")
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo")  # Might
    with pytest.raises(IllegalAction, match="chosen as part of an attack"):
        g.do("power", "ann")


def test_magic_missile_stuns_a_monster_on_the_next_tile(engine, dice):
    # Power: Magic Missile ("a character up to 1 tile away"); Rulebook: Glossary, "character" (monsters too);
    # How Monsters Work (a monster that would take damage is stunned)
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    rat = wererat(g, "inner_chamber")
    dice.next(2, 2)  # Ann (Dhadius, Knowledge 5): 4
    dice.next(1)  # the Wererat (Knowledge 3): 1
    g.do("attack", "ann", target=rat["id"], trait="knowledge")
    assert said(g.texts(), f"Bo rolls Knowledge for Wererat {rat['number']} to defend (3 dice)")
    assert monster(g, rat)["stunned"] and monster(g, rat)["tile"] == "inner_chamber"


# --- Wild Magic (Ralvio) --------------------------------------------------------------------------------------

def test_wild_magic_blank_takes_one_off_a_sanity_attack(engine, dice):
    # Power: Wild Magic (Ralvio): attack with Knowledge or Sanity, the defender rolls the same trait; 1 more die,
    # and a blank on it lowers the attack result by 1
    g = haunt_game(engine, ("ralvio", "lia", "gretchen"))
    before = {pid: dict(g.p(pid)["traits"]) for pid in ("ann", "bo")}
    dice.next(2, 1)  # Ann (Ralvio, Sanity 4): 3
    dice.next(0)  # Wild Magic's die: a blank
    dice.next(1, 1)  # Bo (Lia, Sanity 6): 2
    g.do("attack", "ann", target="bo", trait="sanity")
    texts = g.texts()
    assert "Ann attacks Bo with Sanity." in texts and said(texts, "Bo rolls Sanity to defend")
    assert "Wild Magic: the extra die shows 0, so the result drops by 1." in texts
    assert "A tie (2 to 2): nobody is hurt." in texts
    assert {pid: g.p(pid)["traits"] for pid in ("ann", "bo")} == before


def test_wild_magic_die_that_is_not_blank_leaves_a_knowledge_attack_as_rolled(engine, dice):
    # Power: Wild Magic ("if it shows a blank, your attack result drops by 1": any other face changes nothing)
    g = haunt_game(engine, ("ralvio", "lia", "gretchen"))
    before = positions(g, "bo", MENTAL)
    dice.next(2, 1)  # Ann (Ralvio, Knowledge 4): 3
    dice.next(2)  # Wild Magic's die
    dice.next(1, 1)  # Bo (Lia, Knowledge 4): 2
    g.do("attack", "ann", target="bo", trait="knowledge")
    texts = g.texts()
    assert "Wild Magic: the extra die shows 2." in texts
    assert "Ann wins 3 to 2: 1 mental damage to Bo." in texts
    settle(g)
    assert positions(g, "bo", MENTAL) == before - 1


def test_wild_magic_rolls_no_extra_die_for_a_might_attack(engine, dice):
    # Power: Wild Magic ("If you do" - only when Ralvio attacks with Knowledge or Sanity)
    g = haunt_game(engine, ("ralvio", "lia", "gretchen"))
    dice.next(2, 1)  # Ann (Ralvio, Might 3): 3
    dice.next(1)  # Bo (Lia, Might 2): 1 - were a Wild Magic die rolled, it would take this roll
    g.do("attack", "ann", target="bo")
    texts = g.texts()
    assert not said(texts, "Wild Magic")
    assert "Ann wins 3 to 1: 2 physical damage to Bo." in texts


def test_wild_magic_die_only_when_the_power_picks_the_trait(engine, dice):
    # Power: Wild Magic ("you may roll Knowledge or Sanity in place of Might ... If you do, roll 1 more die");
    # Card: Book of Spells (its own Sanity attack)
    g = haunt_game(engine, ("ralvio", "lia", "gretchen"))
    give(g, "ann", "book_of_spells")
    dice.next(2, 1)  # Ann (Ralvio, Sanity 4): 3
    dice.next(1, 1)  # Bo (Lia, Sanity 6): 2 - a Wild Magic die would take this roll
    g.do("attack", "ann", target="bo", weapon="Book of Spells")
    texts = g.texts()
    assert not said(texts, "Wild Magic")
    assert "Ann wins 3 to 2: 1 mental damage to Bo." in texts


# --- Hunter's Mark (Avrixis) ----------------------------------------------------------------------------------

def test_hunters_mark_adds_one_to_attacks_on_the_marked_opponent(engine, dice):
    # Power: Hunter's Mark (Avrixis): the token under an opponent in line of sight; every attack result against
    # that opponent is 1 higher; Rulebook: Use Your Adventurer Power
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))  # Bo (Torskar) is the traitor
    g.do("power", "ann")
    assert asked(g, "ann", "hunters_mark") == ["Bo"]
    g.do("decide", "ann", choice="Bo")
    assert "Hunter's Mark: Ann marks Bo." in g.texts()
    before = positions(g, "bo")
    dice.next(1, 1)  # Ann (Avrixis, Might 3): 2, and 1 for the mark
    dice.next(2)  # Bo (Torskar, Might 5): 2
    g.do("attack", "ann", target="bo")
    assert "Ann wins 3 to 2: 1 physical damage to Bo." in g.texts()
    settle(g)
    assert positions(g, "bo") == before - 1
    with pytest.raises(IllegalAction, match="already used Hunter's Mark this turn"):
        g.do("power", "ann")


def test_hunters_mark_goes_on_an_opponent_in_line_of_sight(engine):
    # Power: Hunter's Mark ("an opponent you can see (line of sight)"); Rulebook: Glossary, "line of sight"
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))
    g.put("bo", "house_of_blood")  # not in a straight line of doorways from the Elfsong Tavern
    with pytest.raises(IllegalAction, match="No opponent is in your line of sight"):
        g.do("power", "ann")
    g.put("bo", "kitchen")  # straight west, two tiles away
    g.do("power", "ann")
    g.do("decide", "ann", choice="Bo")
    assert g.p("ann")["power"]["mark"] == "bo"


def test_hunters_mark_does_not_help_avrixis_defend(engine, dice):
    # Power: Hunter's Mark ("every attack result you get": Avrixis attacking, not defending);
    # Rulebook: Make an Attack ("Defending is not attacking")
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))
    g.do("power", "ann")
    g.do("decide", "ann", choice="Bo")
    my_turn(g, "bo")
    dice.next(2)  # Bo (Torskar, Might 5): 2
    dice.next(1, 1)  # Ann (Avrixis, Might 3): 2
    g.do("attack", "bo", target="ann")
    assert "A tie (2 to 2): nobody is hurt." in g.texts()


def test_hunters_mark_can_go_under_a_monster(engine, dice):
    # Power: Hunter's Mark ("an opponent you can see"); Rulebook: Glossary, "opponent" ("Monsters and the traitor
    # are opponents of the heroes")
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))
    g.put("bo", "kitchen_basement")  # the traitor out of sight
    rat = wererat(g, "elfsong_tavern")
    g.do("power", "ann")
    options = asked(g, "ann", "hunters_mark")
    g.do("decide", "ann", choice=next(i for i, o in enumerate(options) if "Wererat" in o))
    dice.next(1, 1)  # Ann (Avrixis, Might 3): 2, and 1 for the mark
    dice.next(1, 1)  # the Wererat (Might 4): 2
    g.do("attack", "ann", target=rat["id"])
    settle(g)
    assert monster(g, rat)["stunned"]


# --- Flurry of Blows (Azadeh) ---------------------------------------------------------------------------------

def test_flurry_of_blows_hurts_the_defender_after_the_attack(engine, dice):
    # Power: Flurry of Blows (Azadeh): after her attack is resolved, 1 die: 1 or 2, the defender takes that much
    # physical damage with no defence roll
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    before = positions(g, "bo")
    dice.next(2)  # Ann (Azadeh, Might 3): 2
    dice.next(1)  # Bo (Lia, Might 2): 1
    dice.next(2)  # Flurry of Blows: 2
    g.do("attack", "ann", target="bo")
    texts = g.texts() + settle(g)
    assert positions(g, "bo") == before - 3
    first = texts.index("Bo takes 1 physical damage from Ann's attack.")
    flurry = next(i for i, t in enumerate(texts) if "for Flurry of Blows" in t)
    second = texts.index("Flurry of Blows: Bo takes 2 physical damage.")
    assert first < flurry < second
    assert not said(texts[flurry:], "to defend")


def test_flurry_of_blows_blank_hurts_azadeh_even_after_a_tie(engine, dice):
    # Power: Flurry of Blows ("After one of your attacks is resolved": a tie too; "On a 0 you take 1 physical damage")
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    ann, bo = positions(g, "ann"), positions(g, "bo")
    dice.next(1)
    dice.next(1)
    dice.next(0)  # Flurry of Blows: a blank
    g.do("attack", "ann", target="bo")
    texts = g.texts() + settle(g)
    assert "A tie (1 to 1): nobody is hurt." in texts and "Flurry of Blows: Ann takes 1 physical damage." in texts
    assert positions(g, "ann") == ann - 1 and positions(g, "bo") == bo


def test_flurry_of_blows_is_optional(engine, dice):
    # Power: Flurry of Blows ("you may roll 1 die")
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    before = dict(g.p("ann")["traits"])
    dice.next(1)
    dice.next(1)  # a tie
    g.do("attack", "ann", target="bo")
    assert not said(g.texts(), "rolls for Flurry of Blows")  # not rolled before she says so
    pending = g.state["pending"]
    assert pending and pending["player"] == "ann" and pending["kind"] != "damage" and len(pending["options"]) >= 2
    g.do("decide", "ann", choice=len(pending["options"]) - 1)  # decline
    assert g.state["pending"] is None and g.p("ann")["traits"] == before


def test_flurry_of_blows_against_a_monster(engine, dice):
    # Power: Flurry of Blows ("the defender you attacked takes that many points of physical damage");
    # Rulebook: How Monsters Work (a monster that would take damage is stunned)
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    rat = wererat(g, "elfsong_tavern")
    dice.next(1, 1)  # Ann (Azadeh, Might 3): 2
    dice.next(1, 1)  # the Wererat (Might 4): 2, a tie
    dice.next(2)  # Flurry of Blows
    g.do("attack", "ann", target=rat["id"])
    settle(g)
    assert monster(g, rat)["stunned"]


# --- Cunning Action (Tasha) -----------------------------------------------------------------------------------

def test_cunning_action_leaves_an_opponents_tile_for_one_space(engine):
    # Power: Cunning Action (Tasha): opponents sharing her tile never cost her extra movement;
    # Rulebook: Moving Past Opponents (1 extra space for each opponent)
    g = haunt_game(engine, ("tasha", "lia", "torskar"))  # Bo (Lia), the traitor, stands with both heroes
    g.do("move", "ann", way="west")
    assert g.p("ann")["tile"] == "inner_chamber" and g.state["turn"]["moved"] == 1
    g.put("ann", "elfsong_tavern")
    my_turn(g, "cy")  # Torskar, without the power
    g.do("move", "cy", way="west")
    assert g.p("cy")["tile"] == "inner_chamber" and g.state["turn"]["moved"] == 2


def test_cunning_action_past_an_opponent_on_the_way(engine):
    # Power: Cunning Action ("never": on every tile she leaves); Rulebook: Moving Past Opponents
    g = haunt_game(engine, ("tasha", "lia", "torskar"))
    g.put("cy", "inner_chamber")
    g.put("bo", "inner_chamber")  # the traitor waits on the next tile too
    g.do("move", "ann", way="west")
    g.do("move", "ann", way="west")
    assert g.p("ann")["tile"] == "kitchen" and g.state["turn"]["moved"] == 2 and not g.state["turn"]["stopped"]


def test_a_monster_slows_a_hero_but_not_tasha(engine):
    # Rulebook: Moving Past Opponents ("Heroes and NPCs slow down the traitor and monsters, and vice versa";
    # stunned monsters do not); Power: Cunning Action
    g = haunt_game(engine, ("tasha", "lia", "torskar"))
    g.put("bo", "kitchen_basement")
    wererat(g, "elfsong_tavern")
    g.do("move", "ann", way="west")
    assert g.state["turn"]["moved"] == 1
    my_turn(g, "cy")
    g.do("move", "cy", way="west")
    assert g.state["turn"]["moved"] == 2


# --- Crossbow ----------------------------------------------------------------------------------------------------

def test_crossbow_shoots_down_a_straight_line_with_an_extra_speed_die(engine, dice):
    # Card: Crossbow (Speed instead of Might, 1 extra die; the target may be on another tile in line of sight; no
    # stealing); Rulebook: Special Attacks, "Distance Attacks", "Stealing Items"
    g = haunt_game(engine)
    give(g, "ann", "crossbow")
    give(g, "bo", "vial_of_poison")
    g.put("bo", "kitchen")  # Elfsong Tavern -> Inner Chamber -> Kitchen, straight west
    before = positions(g, "bo")
    dice.next(2, 1)  # Ann (Torskar, Speed 4, +1 die): 3
    dice.next(1)  # Bo (Lia, Speed 3): 1
    g.do("attack", "ann", target="bo", weapon="Crossbow")
    texts = g.texts()
    assert "Ann attacks Bo with Speed, using Crossbow." in texts
    assert said(texts, "Ann rolls Speed to attack (5 dice)")
    assert said(texts, "Bo rolls Speed to defend (3 dice)")
    assert "Ann wins 3 to 1: 2 physical damage to Bo." in texts
    asked(g, "bo", "damage")  # 2 damage, yet no offer to steal the vial from a distance
    settle(g)
    assert positions(g, "bo") == before - 2 and "vial_of_poison" in g.p("bo")["cards"]
    check(g.c, g.state)


def test_crossbow_miss_from_a_distance_hurts_nobody(engine, dice):
    # Card: Crossbow ("you take no damage if you lose"); Rulebook: Special Attacks, "Distance Attacks"
    g = haunt_game(engine)
    give(g, "ann", "crossbow")
    g.put("bo", "inner_chamber")
    before = {pid: dict(g.p(pid)["traits"]) for pid in ("ann", "bo")}
    dice.next(0)
    dice.next(2, 2)
    g.do("attack", "ann", target="bo", weapon="Crossbow")
    assert "Ann misses (0 to 4) and, attacking from a distance, takes no damage." in g.texts()
    assert g.state["pending"] is None
    assert {pid: g.p(pid)["traits"] for pid in ("ann", "bo")} == before
    with pytest.raises(IllegalAction, match="once per turn"):
        g.do("attack", "ann", target="bo", weapon="Crossbow")


def test_crossbow_needs_a_straight_line_of_doorways(engine):
    # Card: Crossbow (line of sight: "a straight, unbroken line of doorways"); Rulebook: Glossary, "line of sight";
    # Make an Attack (without it, only an opponent on your tile)
    g = haunt_game(engine)
    give(g, "ann", "crossbow")
    g.put("bo", "house_of_blood")  # two doorways away, round a corner
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo", weapon="Crossbow")
    g.put("bo", "kitchen_basement")  # another level
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo", weapon="Crossbow")
    g.put("bo", "inner_chamber")
    with pytest.raises(IllegalAction, match="not within reach"):
        g.do("attack", "ann", target="bo")  # without the Crossbow: only on her own tile


def test_crossbow_never_steals_even_on_your_own_tile(engine, dice):
    # Card: Crossbow ("It makes distance attacks: ... you cannot steal with it"); Rulebook: Special Attacks,
    # "Stealing Items" (no stealing with a distance attack); Rulebook: the card wins where it and the book differ
    g = haunt_game(engine)
    give(g, "ann", "crossbow")
    give(g, "bo", "vial_of_poison")
    dice.next(2, 2)  # Ann (Torskar, Speed 4, +1 die): 4
    dice.next(0)  # Bo: 0
    g.do("attack", "ann", target="bo", weapon="Crossbow")
    assert "Ann wins 4 to 0: 4 physical damage to Bo." in g.texts()
    pending = g.state["pending"]
    assert pending["kind"] != "steal" and not any(o.startswith("Steal") for o in pending["options"])


# --- Book of Spells -------------------------------------------------------------------------------------------

def test_book_of_spells_makes_a_sanity_attack(engine, dice):
    # Card: Book of Spells (attack with Sanity, the defender rolls Sanity, the damage is mental);
    # Rulebook: Make an Attack (a Sanity or Knowledge attack deals mental damage)
    g = haunt_game(engine)
    give(g, "ann", "book_of_spells")
    mental, physical = positions(g, "bo", MENTAL), positions(g, "bo")
    dice.next(2, 2, 1)  # Ann (Torskar, Sanity 3): 5
    dice.next(1, 1)  # Bo (Lia, Sanity 6): 2
    g.do("attack", "ann", target="bo", weapon="Book of Spells")
    texts = g.texts()
    assert "Ann attacks Bo with Sanity, using Book of Spells." in texts
    assert said(texts, "Bo rolls Sanity to defend (6 dice)")
    assert "Ann wins 5 to 2: 3 mental damage to Bo." in texts
    texts += settle(g)
    assert "Bo takes 3 mental damage from Ann's attack." in texts  # the winner takes no extra point
    assert positions(g, "bo", MENTAL) == mental - 3 and positions(g, "bo") == physical


def test_losing_a_book_of_spells_attack_costs_one_more(engine, dice):
    # Card: Book of Spells ("If you lose such an attack and take damage, you take 1 point more")
    g = haunt_game(engine)
    give(g, "ann", "book_of_spells")
    before = positions(g, "ann", MENTAL)
    dice.next(0)
    dice.next(1, 1)
    g.do("attack", "ann", target="bo", weapon="Book of Spells")
    texts = g.texts() + settle(g)
    assert "Bo wins 2 to 0: 2 mental damage to Ann." in texts and "Ann takes 3 mental damage from Bo's defence." in texts
    assert positions(g, "ann", MENTAL) == before - 3
    assert "book_of_spells" in g.p("ann")["cards"]


# --- Explosive Runes ----------------------------------------------------------------------------------------------

def test_explosive_runes_make_a_knowledge_attack_and_are_discarded(engine, dice):
    # Card: Explosive Runes (kept on 5+: a weapon; discard it to attack with Knowledge instead of Might);
    # Rulebook: Card Clarifications, Explosive Runes
    g = haunt_game(engine)
    dice.next(2, 2, 1)  # Ann (Torskar, Knowledge 3): 5, she keeps the runes
    resolve_event(g, "explosive_runes", pid="ann")
    assert "explosive_runes" in g.p("ann")["cards"]
    mental, physical = positions(g, "bo", MENTAL), positions(g, "bo")
    dice.next(2, 2)  # Ann's Knowledge: 4
    dice.next(1)  # Bo (Lia, Knowledge 4): 1
    g.do("attack", "ann", target="bo", weapon="Explosive Runes")
    texts = g.texts()
    assert "Ann attacks Bo with Knowledge, using Explosive Runes." in texts
    assert said(texts, "Bo rolls Knowledge to defend (4 dice)")
    assert "Ann wins 4 to 1: 3 mental damage to Bo." in texts
    assert "explosive_runes" in g.state["discard"]["event"] and "explosive_runes" not in g.p("ann")["cards"]
    settle(g)
    assert positions(g, "bo", MENTAL) == mental - 3 and positions(g, "bo") == physical
    check(g.c, g.state)


# --- Necklace of Fireballs ----------------------------------------------------------------------------------------

def test_necklace_of_fireballs_burns_every_other_adventurer_on_the_tile(engine, dice):
    # Card: Necklace of Fireballs (instead of a normal attack: every other character on your tile rolls Speed;
    # 0-4 takes 4 physical damage, 5 or more dodges; discard the necklace)
    g = haunt_game(engine)
    give(g, "ann", "necklace_of_fireballs")
    before = {pid: dict(g.p(pid)["traits"]) for pid in ("ann", "bo", "cy")}
    dice.next(2, 1, 1)  # Bo (Lia, Speed 3): 4, burned
    dice.next(2, 2, 1)  # Cy (Gretchen, Speed 4): 5, dodges - allies are caught too
    g.do("attack", "ann", target="bo", weapon="Necklace of Fireballs")
    texts = g.texts()
    assert said(texts, "Bo rolls Speed (3 dice)") and "Necklace of Fireballs: Bo takes 4 physical damage." in texts
    assert asked(g, "bo", "damage")
    g.do("decide", "bo", choice=next(o for o in g.state["pending"]["options"]
                                     if o.startswith("-2 Might") and "-2 Speed" in o))
    texts += g.texts()
    assert said(texts, "Cy rolls Speed (4 dice)") and not said(texts, "Cy takes")
    assert not said(texts, "Ann rolls")
    assert g.state["pending"] is None
    assert g.p("bo")["traits"] == {**before["bo"], "might": before["bo"]["might"] - 2,
                                   "speed": before["bo"]["speed"] - 2}
    assert g.p("ann")["traits"] == before["ann"] and g.p("cy")["traits"] == before["cy"]
    assert "necklace_of_fireballs" in g.state["discard"]["item"]
    with pytest.raises(IllegalAction, match="once per turn"):
        g.do("attack", "ann", target="bo")
    check(g.c, g.state)


def test_necklace_of_fireballs_catches_a_monster(engine, dice):
    # Card: Necklace of Fireballs ("every other adventurer, monster and NPC there"); Rulebook: How Monsters Work
    # (damage stuns a monster)
    g = haunt_game(engine)
    give(g, "ann", "necklace_of_fireballs")
    for pid in ("bo", "cy"):
        g.put(pid, "kitchen")
    rat = wererat(g, "elfsong_tavern")
    dice.next(0, 0, 0)  # the Wererat's Speed (3): 0
    g.do("attack", "ann", target=rat["id"], weapon="Necklace of Fireballs")
    settle(g)
    assert monster(g, rat)["stunned"]


# --- Iron Flask of Tuerny ------------------------------------------------------------------------------------------

def test_iron_flask_attacks_everyone_on_the_tile_including_the_opener(engine, dice):
    # Card: Iron Flask of Tuerny (once per game, instead of your attack: a balor's Might 6 attack on everyone on
    # your tile, you included)
    g = haunt_game(engine)
    give(g, "ann", "iron_flask_of_tuerny")
    ann, bo, cy = positions(g, "ann"), positions(g, "bo"), positions(g, "cy")
    dice.next(2, 2, 1)  # the balor against Ann: 5
    dice.next(1, 1)  # Ann (Torskar, Might 5): 2, beaten by 3
    dice.next(0)  # the balor against Bo: 0
    dice.next(1)  # Bo (Lia, Might 2): 1, holds it off
    dice.next(2, 1)  # the balor against Cy: 3
    dice.next(2, 1)  # Cy (Gretchen, Might 4): 3, holds it off
    g.do("use", "ann", card="Iron Flask of Tuerny")
    texts = g.texts() + settle(g)
    assert len(said(texts, "rolls 6 dice for Iron Flask of Tuerny")) == 3
    assert "Iron Flask of Tuerny: Ann takes 3 physical damage." in texts
    assert said(texts, "Bo holds off the attack") and said(texts, "Cy holds off the attack")
    assert positions(g, "ann") == ann - 3 and positions(g, "bo") == bo and positions(g, "cy") == cy
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("attack", "ann", target="bo")  # the flask was her attack
    check(g.c, g.state)


def test_iron_flask_opens_once_per_game_and_never_after_an_attack(engine, dice):
    # Card: Iron Flask of Tuerny ("Once per game"; "instead of making your normal attack")
    g = haunt_game(engine)
    give(g, "ann", "iron_flask_of_tuerny")
    g.put("bo", "kitchen")
    g.put("cy", "kitchen")
    dice.next(0)  # the balor against Ann: 0
    g.do("use", "ann", card="Iron Flask of Tuerny")
    settle(g)
    my_turn(g, "ann")
    with pytest.raises(IllegalAction, match="already been opened"):
        g.do("use", "ann", card="Iron Flask of Tuerny")

    g2 = haunt_game(engine)
    give(g2, "ann", "iron_flask_of_tuerny")
    dice.next(1)
    dice.next(1)
    g2.do("attack", "ann", target="bo")  # a tie
    with pytest.raises(IllegalAction, match="instead of attacking"):
        g2.do("use", "ann", card="Iron Flask of Tuerny")


def test_iron_flask_attacks_a_monster_too(engine, dice):
    # Card: Iron Flask of Tuerny ("every adventurer, monster and NPC on your tile, you included");
    # Rulebook: How Monsters Work (damage stuns a monster)
    g = haunt_game(engine)
    give(g, "ann", "iron_flask_of_tuerny")
    for pid in ("bo", "cy"):
        g.put(pid, "kitchen")
    rat = wererat(g, "elfsong_tavern")
    for _ in range(2):  # whoever is attacked first: the balor 2, the defence 1
        dice.next(1, 1)
        dice.next(1)
    g.do("use", "ann", card="Iron Flask of Tuerny")
    settle(g)
    assert monster(g, rat)["stunned"]


# --- Caltrops ------------------------------------------------------------------------------------------------------

def scatter_caltrops(g, tile="inner_chamber"):
    """Ann (a hero) scatters the Caltrops on `tile`; Cy waits in the Kitchen; Bo's turn begins."""
    give(g, "ann", "caltrops")
    g.put("ann", tile)
    g.do("use", "ann", card="Caltrops")
    assert g.state["piles"][tile] == ["caltrops"]
    g.put("cy", "kitchen_basement")
    my_turn(g, "bo")


def test_caltrops_stop_an_opponent_and_hurt_on_a_missed_roll(engine, dice):
    # Card: Caltrops (each opponent of whoever scattered them stops on entering the tile and rolls Speed 3+,
    # taking 1 physical damage on a failure)
    g = haunt_game(engine)
    scatter_caltrops(g)
    before = positions(g, "bo")
    dice.next(1, 1)  # Bo (Lia, Speed 3): 2
    g.do("move", "bo", way="west")
    texts = g.texts() + settle(g)
    assert g.p("bo")["tile"] == "inner_chamber" and g.state["turn"]["stopped"]
    assert said(texts, "Bo rolls Speed (3 dice)") and "Caltrops: Bo takes 1 physical damage." in texts
    assert positions(g, "bo") == before - 1
    with pytest.raises(IllegalAction, match="movement is over"):
        g.do("move", "bo", way="west")
    check(g.c, g.state)


def test_caltrops_still_stop_an_opponent_who_makes_the_roll(engine, dice):
    # Card: Caltrops ("must stop moving on entering that tile"; the damage only on a failure)
    g = haunt_game(engine)
    scatter_caltrops(g)
    before = dict(g.p("bo")["traits"])
    dice.next(2, 1)  # 3: made
    g.do("move", "bo", way="west")
    assert g.state["pending"] is None and g.p("bo")["traits"] == before
    assert g.state["turn"]["stopped"]
    with pytest.raises(IllegalAction, match="movement is over"):
        g.do("move", "bo", way="west")


def test_caltrops_let_the_scatterers_allies_through(engine):
    # Card: Caltrops (only opponents of the adventurer who scattered them)
    g = haunt_game(engine)
    scatter_caltrops(g)
    g.put("cy", "elfsong_tavern")
    g.put("bo", "kitchen_basement")
    my_turn(g, "cy")
    g.do("move", "cy", way="west")
    assert g.p("cy")["tile"] == "inner_chamber" and not g.state["turn"]["stopped"]
    assert not said(g.texts(), "rolls Speed")
    g.do("move", "cy", way="west")
    assert g.p("cy")["tile"] == "kitchen"


def test_caltrops_stop_a_monster(engine, dice):
    # Card: Caltrops ("each opponent of the adventurer who scattered it"); Rulebook: Glossary, "opponent";
    # How Monsters Work (damage stuns)
    g = haunt_game(engine)
    scatter_caltrops(g)
    g.put("bo", "kitchen_basement")
    rat = wererat(g, "elfsong_tavern")
    monster_turn(g, rat)
    dice.next(0, 0, 0)  # the Wererat's Speed (3): 0
    g.do("monster", "bo", op="move", monster=rat["id"], way="west")
    settle(g)
    assert monster(g, rat)["tile"] == "inner_chamber" and monster(g, rat)["stunned"]


# --- Otyugh Tentacle -----------------------------------------------------------------------------------------------

def otyugh_on_the_tavern(g):
    """The Otyugh Tentacle drawn on the Elfsong Tavern (by Ann, a hero); Bo out of the way."""
    g.put("bo", "kitchen_basement")
    resolve_event(g, "otyugh_tentacle", pid="ann")
    assert any(t.get("card") == "otyugh_tentacle" and t["tile"] == "elfsong_tavern" for t in g.state["tokens"])


def test_otyugh_attacks_a_hero_leaving_its_tile(engine, dice):
    # Card: Otyugh Tentacle (once the haunt has started, a hero trying to leave the tile: the player on that
    # hero's right makes a Might 3 attack against them); Rulebook: Make an Attack (the difference as damage)
    g = haunt_game(engine)
    otyugh_on_the_tavern(g)
    before = positions(g, "ann")
    dice.next(2, 1)  # Cy, on Ann's right, for the Otyugh: 3
    dice.next(1)  # Ann (Torskar, Might 5): 1
    g.do("move", "ann", way="west")
    texts = g.texts() + settle(g)
    assert said(texts, "Cy rolls 3 dice for the Otyugh (3 dice)")
    assert said(texts, "Ann rolls Might to break free (5 dice)")
    assert "Otyugh Tentacle: Ann takes 2 physical damage." in texts
    assert positions(g, "ann") == before - 2
    assert g.p("ann")["tile"] == "inner_chamber"  # the card hurts, it does not hold her
    assert any(t.get("card") == "otyugh_tentacle" for t in g.state["tokens"])  # still waiting
    check(g.c, g.state)


def test_beating_the_otyugh_by_three_discards_it_and_gains_a_trait(engine, dice):
    # Card: Otyugh Tentacle ("If the hero wins, discard the token and this card; if the hero wins by 3 or more,
    # they also gain 1 Might or 1 Speed")
    g = haunt_game(engine)
    otyugh_on_the_tavern(g)
    before = dict(g.p("ann")["traits"])
    dice.next(0)  # the Otyugh: 0
    dice.next(2, 1)  # Ann: 3
    g.do("move", "ann", way="west")
    assert asked(g, "ann", "trait") == ["Might", "Speed"]
    g.do("decide", "ann", choice="Might")
    assert g.p("ann")["traits"] == {**before, "might": before["might"] + 1}
    assert "otyugh_tentacle" in g.state["discard"]["event"] and not g.state["tokens"]
    assert g.p("ann")["tile"] == "inner_chamber"
    check(g.c, g.state)


def test_beating_the_otyugh_narrowly_discards_it_without_a_gain(engine, dice):
    # Card: Otyugh Tentacle (a win by less than 3: only the discard)
    g = haunt_game(engine)
    otyugh_on_the_tavern(g)
    before = dict(g.p("ann")["traits"])
    dice.next(1)  # the Otyugh: 1
    dice.next(2, 1)  # Ann: 3
    g.do("move", "ann", way="west")
    assert g.state["pending"] is None and g.p("ann")["traits"] == before
    assert "otyugh_tentacle" in g.state["discard"]["event"] and not g.state["tokens"]


def test_the_otyugh_ignores_the_traitor(engine, dice):
    # Card: Otyugh Tentacle ("whenever a hero tries to leave")
    g = haunt_game(engine)
    otyugh_on_the_tavern(g)
    g.put("bo", "elfsong_tavern")
    g.put("ann", "kitchen")
    g.put("cy", "kitchen")
    my_turn(g, "bo")
    g.do("move", "bo", way="west")
    assert not said(g.texts(), "Otyugh") and g.state["pending"] is None
    assert g.p("bo")["tile"] == "inner_chamber"


# --- Symbol of Bhaal -------------------------------------------------------------------------------------------------

def bo_kills_ann(g, dice, *symbol_dice):
    """On Bo's turn the traitor beats Ann (Might and Speed on their last step) by 2; `symbol_dice` queue the rolls
    that follow her death."""
    g.p("ann")["traits"].update(might=1, speed=1)
    my_turn(g, "bo")
    dice.next(2)  # Bo (Lia, Might 2): 2
    dice.next(0)  # Ann: 0
    for faces in symbol_dice:
        dice.next(*faces)
    g.do("attack", "bo", target="ann")
    texts = g.texts() + settle(g)
    assert not g.p("ann")["alive"] and said(texts, "Ann") and any("dies" in t for t in texts)
    return texts


def test_symbol_of_bhaal_a_two_gains_might_when_the_traitor_kills(engine, dice):
    # Card: Symbol of Bhaal (once the haunt has started, each time an adventurer is killed you roll 1 die; 2: gain
    # 1 Might); Rulebook: Playing the Haunt (a trait at the skull is death)
    g = haunt_game(engine)
    give(g, "cy", "symbol_of_bhaal")
    before = dict(g.p("cy")["traits"])
    texts = bo_kills_ann(g, dice, (2,))
    assert said(texts, "Cy rolls")
    assert g.p("cy")["traits"] == {**before, "might": before["might"] + 1}
    check(g.c, g.state)


def test_symbol_of_bhaal_a_blank_costs_a_bystander_a_die_of_mental_damage(engine, dice):
    # Card: Symbol of Bhaal ("0: nothing happens if you made the kill; otherwise take 1 die of mental damage")
    g = haunt_game(engine)
    give(g, "cy", "symbol_of_bhaal")
    before = positions(g, "cy", MENTAL)
    texts = bo_kills_ann(g, dice, (0,), (2,))  # the Symbol's die, then the damage die
    assert "Symbol of Bhaal: Cy takes 2 mental damage." in texts
    assert positions(g, "cy", MENTAL) == before - 2


def test_symbol_of_bhaal_a_blank_spares_the_killer(engine, dice):
    # Card: Symbol of Bhaal ("nothing happens if you made the kill")
    g = haunt_game(engine)
    give(g, "bo", "symbol_of_bhaal")
    before = dict(g.p("bo")["traits"])
    texts = bo_kills_ann(g, dice, (0,), (2,))
    assert said(texts, "Bo rolls") and not said(texts, "Bo takes")
    assert g.p("bo")["traits"] == before


def test_symbol_of_bhaal_a_one_does_nothing(engine, dice):
    # Card: Symbol of Bhaal ("1: nothing happens")
    g = haunt_game(engine)
    give(g, "cy", "symbol_of_bhaal")
    before = dict(g.p("cy")["traits"])
    bo_kills_ann(g, dice, (1,))
    assert g.p("cy")["traits"] == before


def test_symbol_of_bhaal_knows_who_made_the_kill(engine, dice):
    # Card: Symbol of Bhaal ("nothing happens if you made the kill; otherwise take 1 die of mental damage");
    # Card: The Green Devil Face ("0: once the haunt has started, your adventurer dies")
    g = haunt_game(engine)
    give(g, "bo", "symbol_of_bhaal")
    my_turn(g, "bo")
    dice.next(1)
    dice.next(1)
    g.do("attack", "bo", target="cy")  # a tie: nobody is hurt
    my_turn(g, "ann")
    before = positions(g, "bo", MENTAL)
    dice.next(0, 0, 0, 0)  # the Green Devil Face: 0, Ann dies
    dice.next(0)  # Bo's Symbol of Bhaal: 0, and Bo did not kill her
    dice.next(2)  # 1 die of mental damage
    resolve_event(g, "the_green_devil_face", pid="ann")
    settle(g)
    assert not g.p("ann")["alive"]
    assert positions(g, "bo", MENTAL) == before - 2
