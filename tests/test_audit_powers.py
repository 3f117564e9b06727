"""Clause-by-clause audit of the 12 adventurer powers (rules_data/adventurers.toml,
[adventurer.power]), played through real actions (power, attack, move, decide).

Covers the clauses the other power tests leave open: when a power may be used
(your own turn, once per turn, once per game, any time, before and after the
haunt), whom it may touch (allies, opponents, the dead, line of sight, range),
what a traitor keeps, and how a power sits with items (Crossbow).

Haunt games are haunt 18 revealed by Bo, who becomes the traitor (see
tests/test_effects_haunt_attacks.py: Kitchen - Inner Chamber - Elfsong Tavern in
a straight west-east line of doorways; everybody starts on the Elfsong Tavern).
"""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from tests.conftest import Game
from tests.invariants import check
from tests.test_effects_haunt_attacks import asked, haunt_game, positions, said, settle
from tests.test_effects_haunt_cards import monster, wererat
from tests.test_effects_kit import give, my_turn
from tests.test_haunt_play import all_ready, arena  # noqa: F401


def kill(g, pid):
    g.do("trait", pid, trait="sanity", delta="-8")
    assert not g.p(pid)["alive"]


def haunt_after(g, revealer="ann"):
    """Start haunt 18 in a game already under way (before-the-haunt use first)."""
    from bot.games.babg.engine.turns import start_haunt
    g.place("house_of_blood", "city", 1, -1)
    start_haunt(Ctx(g.c, g.state), revealer, "berserker_axe", "house_of_blood")
    arena(g)
    for pid in g.state["seats"]:
        g.put(pid, "elfsong_tavern")


# --- Timing shared by the action powers ------------------------------------------------------------------------

@pytest.mark.parametrize("adv", ["vort", "gretchen", "miska"])
def test_action_powers_wait_for_your_own_turn(engine, adv):
    # Power: Healing Word (Vort), Wild Shape (Gretchen), Bardic Inspiration (Miska): each is used on the
    # owner's own turn; Rulebook: Use Your Adventurer Power (most powers once in each of your turns)
    g = Game(engine, adventurers=(adv, "lia", "torskar"))
    g.p("ann")["traits"]["sanity"] = 1  # something for Healing Word to mend
    my_turn(g, "bo")
    with pytest.raises(IllegalAction, match="turn, not yours"):
        g.do("power", "ann")
    my_turn(g, "ann")
    g.do("power", "ann")  # and on her own turn it works


# --- Reckless Attack (Torskar) ---------------------------------------------------------------------------------

def test_reckless_attack_never_rolls_more_than_eight_dice(engine, dice):
    # Power: Reckless Attack (Torskar): the 2 extra dice never take the attack past 8 dice
    g = haunt_game(engine)
    g.p("ann")["traits"]["might"] = 7  # the top of Torskar's Might track: 8
    assert g.value("ann", "might") == 8
    g.do("attack", "ann", target="bo", reckless=True)
    assert said(g.texts(), "Ann rolls Might to attack (8 dice)")


def test_reckless_attack_not_taken_costs_nothing(engine, dice):
    # Power: Reckless Attack (Torskar): only taking the extra dice brings the die of physical damage afterwards
    g = haunt_game(engine)
    before = positions(g, "ann")
    dice.next(1, 1)  # Ann (Torskar, Might 5): 2
    dice.next(1, 1)  # Bo (Lia, Might 2): 2, a tie
    g.do("attack", "ann", target="bo")
    texts = g.texts() + settle(g)
    assert said(texts, "Ann rolls Might to attack (5 dice)")
    assert not said(texts, "Ann takes") and positions(g, "ann") == before


def test_reckless_attack_is_kept_by_a_traitor(engine, dice):
    # Power: Reckless Attack (Torskar): a traitor Torskar still adds the 2 dice and pays the die afterwards
    g = haunt_game(engine, ("lia", "torskar", "gretchen"))  # Bo (Torskar) is the traitor
    my_turn(g, "bo")
    dice.next(1, 1)
    dice.next(1, 1)  # a tie
    dice.next(2)  # Reckless Attack's die: 2 physical damage to Torskar
    before = positions(g, "bo")
    g.do("attack", "bo", target="ann", reckless=True)
    assert said(g.texts(), f"Bo rolls Might to attack ({g.value('bo', 'might') + 2} dice)")
    settle(g)
    assert positions(g, "bo") == before - 2


# --- Protection (Aldan) ----------------------------------------------------------------------------------------

def test_protection_works_on_an_opponents_turn(engine, dice):
    # Power: Protection (Aldan): usable at any moment, here on the traitor's turn, for an ally on Aldan's tile;
    # Rulebook: Use Your Adventurer Power (some powers, like Protection, any time)
    g = haunt_game(engine, ("aldan", "lia", "gretchen"))
    my_turn(g, "bo")
    cy, ann = positions(g, "cy"), positions(g, "ann")
    dice.next(2, 2)  # Bo (Lia, Might 2): 4
    dice.next(0)  # Cy (Gretchen): 0
    g.do("attack", "bo", target="cy")
    assert asked(g, "ann", "damage_stage") == ["Take it for them", "Let it be"]
    g.do("decide", "ann", choice="Take it for them")
    settle(g)
    assert positions(g, "cy") == cy and positions(g, "ann") == ann - 4


def test_protection_needs_aldan_alive_on_the_tile(engine, dice):
    # Power: Protection (Aldan): only for someone on Aldan's own tile; a dead Aldan protects nobody
    g = haunt_game(engine, ("aldan", "lia", "gretchen"))
    g.put("ann", "inner_chamber")
    my_turn(g, "bo")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "bo", target="cy")
    assert asked(g, "cy", "damage")
    settle(g)
    g.put("ann", "elfsong_tavern")
    kill(g, "ann")
    my_turn(g, "bo")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "bo", target="cy")
    assert asked(g, "cy", "damage")


def test_protection_covers_a_monster_on_aldans_tile(engine, dice):
    # Power: Protection (Aldan): a monster on his tile about to be damaged may have Aldan take it instead
    g = haunt_game(engine, ("lia", "aldan", "gretchen"))  # Bo (Aldan) is the traitor
    rat = wererat(g, "elfsong_tavern")
    dice.next(2, 2, 2)  # Ann (Lia, Might 3): 6
    dice.next(0)  # the Wererat: 0
    g.do("attack", "ann", target=rat["id"])
    asked(g, "bo", "protect_monster")
    before = sum(g.p("bo")["traits"].values())
    g.do("decide", "bo", choice="Take it for them")
    g.decide_all(0)
    assert not monster(g, rat)["stunned"] and sum(g.p("bo")["traits"].values()) < before


# --- Eldritch Blast (Lia) --------------------------------------------------------------------------------------

def test_eldritch_blast_pushes_only_after_a_win(engine, dice):
    # Power: Eldritch Blast (Lia): the push follows a won Sanity attack, never a tie or a loss
    g = haunt_game(engine, ("torskar", "lia", "gretchen"))
    my_turn(g, "bo")
    dice.next(1)
    dice.next(1)  # a tie
    g.do("attack", "bo", target="ann", trait="sanity")
    assert "A tie (1 to 1): nobody is hurt." in g.texts() and g.state["pending"] is None
    my_turn(g, "bo")
    dice.next(0)
    dice.next(2)  # Lia loses
    g.do("attack", "bo", target="ann", trait="sanity")
    texts = g.texts() + settle(g)
    assert not [t for t in texts if "Eldritch" in t] and g.p("ann")["tile"] == "elfsong_tavern"


def test_eldritch_blast_push_needs_the_sanity_attack(engine, dice):
    # Power: Eldritch Blast (Lia): a plain Might attack that wins brings no push
    g = haunt_game(engine, ("torskar", "lia", "gretchen"))
    my_turn(g, "bo")
    dice.next(2, 2)
    dice.next(0)
    g.do("attack", "bo", target="ann")
    pendings = []
    while g.state["pending"]:
        pendings.append(g.state["pending"]["kind"])
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert "eldritch_push" not in pendings and g.p("ann")["tile"] == "elfsong_tavern"


def test_eldritch_blast_pushes_a_monster(engine, dice):
    # Power: Eldritch Blast (Lia): the defender pushed may be a monster; Rulebook: How Monsters Work (stunned)
    g = haunt_game(engine, ("lia", "torskar", "gretchen"))  # Ann (Lia) is a hero
    rat = wererat(g, "elfsong_tavern")
    dice.next(2, 2)  # Ann (Lia, Sanity 6): 4
    dice.next(0)  # the Wererat (Sanity 3): 0
    g.do("attack", "ann", target=rat["id"], trait="sanity")
    assert "Inner Chamber" in asked(g, "ann", "eldritch_push")
    g.do("decide", "ann", choice="Inner Chamber")
    assert monster(g, rat)["tile"] == "inner_chamber" and monster(g, rat)["stunned"]


# --- Hunter's Mark (Avrixis) -----------------------------------------------------------------------------------

def test_hunters_mark_stays_under_a_living_opponent(engine):
    # Power: Hunter's Mark (Avrixis): the single token, once set, comes back only with the opponent's death
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))
    g.do("power", "ann")
    g.decide_all()
    assert g.p("ann")["power"]["mark"] == "bo"
    wererat(g, "elfsong_tavern")
    my_turn(g, "ann")
    with pytest.raises(IllegalAction):
        g.do("power", "ann")


def test_hunters_mark_comes_back_when_the_marked_opponent_dies(engine):
    # Power: Hunter's Mark (Avrixis): the marked opponent killed, the token is hers to set again
    g = haunt_game(engine, ("avrixis", "torskar", "gretchen"))
    g.do("power", "ann")
    g.decide_all()
    kill(g, "bo")
    assert g.p("ann")["power"]["mark"] is None
    rat = wererat(g, "inner_chamber")
    my_turn(g, "ann")
    g.do("power", "ann")
    assert asked(g, "ann", "hunters_mark") == [f"Wererat {rat['number']}"], "the dead are not offered"


def test_hunters_mark_is_kept_by_a_traitor_and_goes_on_heroes(engine, dice):
    # Power: Hunter's Mark (Avrixis): a traitor Avrixis marks heroes, her opponents now, and gets the +1
    g = haunt_game(engine, ("torskar", "avrixis", "gretchen"))  # Bo (Avrixis) is the traitor
    my_turn(g, "bo")
    g.do("power", "bo")
    assert asked(g, "bo", "hunters_mark") == ["Ann", "Cy"]
    g.do("decide", "bo", choice="Ann")
    dice.next(1, 1)  # Bo: 2, and 1 for the mark
    dice.next(2)  # Ann: 2
    g.do("attack", "bo", target="ann")
    assert said(g.texts(), "Bo wins 3 to 2")


# --- Wild Shape (Gretchen) -------------------------------------------------------------------------------------

def test_wild_shape_used_before_the_haunt_is_spent_for_the_haunt(engine):
    # Power: Wild Shape (Gretchen): once in the whole game, and the form stays after the haunt begins;
    # Rulebook: Adventurer Powers, Wild Shape
    g = Game(engine, adventurers=("gretchen", "lia", "torskar"), haunt="play")
    before = dict(g.p("ann")["traits"])
    g.do("power", "ann")
    g.do("decide", "ann", choice="Owl (+2 Knowledge, -1 Might)")
    shaped = dict(g.p("ann")["traits"])
    assert shaped == {**before, "knowledge": before["knowledge"] + 2, "might": before["might"] - 1}
    haunt_after(g, revealer="ann")  # Gretchen becomes the traitor
    assert g.state["haunt"]["traitors"] == ["ann"]
    assert g.p("ann")["traits"] == shaped
    my_turn(g, "ann")
    with pytest.raises(IllegalAction, match="once per game"):
        g.do("power", "ann")


def test_wild_shape_can_wait_for_the_haunt_and_a_traitor_keeps_it(engine):
    # Power: Wild Shape (Gretchen): unused before the haunt, a traitor Gretchen may still take her one form
    g = haunt_game(engine, ("torskar", "gretchen", "lia"))  # Bo (Gretchen) is the traitor
    my_turn(g, "bo")
    before = dict(g.p("bo")["traits"])
    g.do("power", "bo")
    assert len(asked(g, "bo", "option")) == 4
    g.do("decide", "bo", choice="Mouse (+2 Speed, -1 Knowledge)")
    assert g.p("bo")["traits"] == {**before, "speed": before["speed"] + 2, "knowledge": before["knowledge"] - 1}
    my_turn(g, "bo")
    with pytest.raises(IllegalAction, match="once per game"):
        g.do("power", "bo")


# --- Cunning Action (Tasha) ------------------------------------------------------------------------------------

def test_cunning_action_is_kept_by_a_traitor(engine):
    # Power: Cunning Action (Tasha): a traitor Tasha leaves a tile full of heroes for 1 space;
    # Rulebook: Moving Past Opponents
    g = haunt_game(engine, ("torskar", "tasha", "lia"))  # Bo (Tasha) is the traitor, with both heroes
    my_turn(g, "bo")
    g.do("move", "bo", way="west")
    assert g.p("bo")["tile"] == "inner_chamber" and g.state["turn"]["moved"] == 1
    g2 = haunt_game(engine, ("torskar", "lia", "gretchen"))  # Bo (Lia) without the power pays for each hero
    my_turn(g2, "bo")
    g2.do("move", "bo", way="west")
    assert g2.state["turn"]["moved"] == 3


# --- Devotion (Grim) -------------------------------------------------------------------------------------------

def test_devotion_is_only_for_event_symbols(engine):
    # Power: Devotion (Grim): offered on a tile with an event symbol, not on an item tile
    g = Game(engine, adventurers=("grim", "lia", "gretchen"))
    g.put("ann", "kitchen")
    g.top("street", "marketplace")  # an item symbol
    cards = len(g.p("ann")["cards"])
    g.do("move", "ann", way="west")
    g.decide_all()
    assert not said(g.texts(), "Devotion")
    assert len(g.p("ann")["cards"]) == cards + 1, "the item card is drawn as usual"


def test_devotion_is_kept_in_the_haunt_by_a_traitor(engine):
    # Power: Devotion (Grim): the haunt does not take it away; a traitor Grim discovering an event tile is asked
    g = haunt_game(engine, ("torskar", "grim", "gretchen"))  # Bo (Grim) is the traitor
    my_turn(g, "bo")
    g.put("bo", "kitchen")
    g.top("street", "dead_end")
    top = g.state["decks"]["event"][0]
    g.do("move", "bo", way="west")
    assert asked(g, "bo", "devotion") == ["Use Devotion", "Draw the event"]
    g.do("decide", "bo", choice="Use Devotion")
    assert g.state["decks"]["event"][0] == top and not g.state["turn"]["stopped"]


# --- Healing Word (Vort) ---------------------------------------------------------------------------------------

def test_healing_word_reaches_only_your_tile(engine):
    # Power: Healing Word (Vort): the adventurer helped must share Vort's tile
    g = Game(engine, adventurers=("vort", "lia", "gretchen"))
    g.p("bo")["traits"]["sanity"] = 1
    g.put("bo", "kitchen")
    with pytest.raises(IllegalAction, match="Nobody on your tile"):
        g.do("power", "ann")


def test_healing_word_not_for_the_dead(engine):
    # Power: Healing Word (Vort): a dead adventurer on the tile cannot be helped
    g = haunt_game(engine, ("vort", "lia", "gretchen"))
    kill(g, "cy")
    assert g.p("cy")["traits"]["sanity"] < g.c.adventurers["gretchen"].tracks["sanity"].start
    my_turn(g, "ann")
    with pytest.raises(IllegalAction, match="Nobody on your tile"):
        g.do("power", "ann")


def test_healing_word_tokens_last_through_the_haunt_and_stop_at_the_start(engine):
    # Power: Healing Word (Vort): two tokens for the whole game; +1 only to a trait under its starting value
    g = Game(engine, adventurers=("vort", "lia", "gretchen"), haunt="play")
    start = g.c.adventurers["lia"].tracks["sanity"].start
    g.p("bo")["traits"]["sanity"] = start - 1
    g.do("power", "ann", target="bo", trait="sanity")
    assert g.p("bo")["traits"]["sanity"] == start and g.p("ann")["power"]["tokens"] == 1
    haunt_after(g, revealer="bo")  # Lia becomes the traitor
    my_turn(g, "ann")
    with pytest.raises(IllegalAction, match="Nobody on your tile"):
        g.do("power", "ann")  # Lia's Sanity is back at its start: nothing to mend
    g.p("bo")["traits"]["sanity"] = start - 2
    g.do("power", "ann", target="bo", trait="sanity")  # even a traitor may be helped
    assert g.p("bo")["traits"]["sanity"] == start - 1 and g.p("ann")["power"]["tokens"] == 0
    my_turn(g, "ann")
    with pytest.raises(IllegalAction, match="Both Healing Word tokens are spent"):
        g.do("power", "ann")


# --- Flurry of Blows (Azadeh) ----------------------------------------------------------------------------------

def test_flurry_of_blows_not_when_azadeh_defends(engine, dice):
    # Power: Flurry of Blows (Azadeh): it follows her own attacks, not an attack made on her
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    my_turn(g, "bo")
    dice.next(1)
    dice.next(1)  # a tie
    g.do("attack", "bo", target="ann")
    assert g.state["pending"] is None and not said(g.texts(), "Flurry")


def test_flurry_of_blows_follows_a_crossbow_shot(engine, dice):
    # Power: Flurry of Blows (Azadeh): the defender of her attack takes the die's damage, even on another tile;
    # Card: Crossbow
    g = haunt_game(engine, ("azadeh", "lia", "gretchen"))
    give(g, "ann", "crossbow")
    g.put("bo", "kitchen")
    dice.next(1)  # Ann (Azadeh, Speed 5, +1 die): 1
    dice.next(1)  # Bo (Lia, Speed 3): 1, a tie
    dice.next(2)  # Flurry of Blows
    before = positions(g, "bo")
    g.do("attack", "ann", target="bo", weapon="Crossbow")
    asked(g, "ann", "flurry_of_blows")
    settle(g)
    assert positions(g, "bo") == before - 2


# --- Bardic Inspiration (Miska) --------------------------------------------------------------------------------

def test_bardic_inspiration_skips_the_dead(engine):
    # Power: Bardic Inspiration (Miska): the token goes to a living adventurer; the dead are not offered
    g = haunt_game(engine, ("miska", "lia", "gretchen"))
    kill(g, "cy")
    my_turn(g, "ann")
    g.do("power", "ann")
    assert g.state["pending"] is None and g.p("ann")["power"]["with"] == "bo"
    check(g.c, g.state)


def test_bardic_inspiration_not_on_a_haunt_roll(engine, dice):
    # Power: Bardic Inspiration (Miska): haunt rolls are the one kind it cannot raise; Rulebook: Making a Haunt Roll
    g = Game(engine, adventurers=("miska", "lia", "gretchen"), haunt="play")
    g.do("power", "ann")
    g.do("decide", "ann", choice="Bo")
    my_turn(g, "bo")
    g.put("bo", "kitchen")
    g.top("street", "cursed_statue")  # an omen symbol
    g.state["omens_revealed"] = 4
    g.do("move", "bo", way="west")
    g.decide_all()
    dice.next(2, 2, 1, 0, 0)  # 5: one short of the 6 that starts the haunt
    g.do("end", "bo")
    assert said(g.texts(), "rolls for the haunt (5 dice)")
    assert g.state["pending"] is None and g.state["phase"] == "exploring"
    assert g.p("ann")["power"]["with"] == "bo"


def test_bardic_inspiration_adds_one_to_an_attack_roll(engine, dice):
    # Power: Bardic Inspiration (Miska): the inspired hero may spend it on their own attack roll
    g = haunt_game(engine, ("miska", "lia", "gretchen"))
    g.do("power", "ann")
    g.do("decide", "ann", choice="Cy")
    my_turn(g, "cy")
    dice.next(1)  # Cy (Gretchen): 1
    dice.next(1)  # Bo (Lia): 1, and 1 more would win
    g.do("attack", "cy", target="bo")
    asked(g, "cy", "attack_bardic")
    g.do("decide", "cy", choice="Add 1")
    assert any("the attack is now 2" in t for t in g.texts()) and any("wins 2 to 1" in t for t in g.texts())
    assert not any(m["kind"] == "inspired" for m in g.p("cy")["marks"])  # the token went back


# --- Magic Missile (Dhadius) -----------------------------------------------------------------------------------

def test_magic_missile_and_a_crossbow_do_not_combine(engine, dice):
    # Power: Magic Missile (Dhadius): the Knowledge attack is the power's own; the Crossbow makes Speed attacks;
    # Card: Crossbow
    g = haunt_game(engine, ("dhadius", "lia", "gretchen"))
    give(g, "ann", "crossbow")
    g.put("bo", "inner_chamber")
    with pytest.raises(IllegalAction, match="cannot attack with Knowledge using Crossbow"):
        g.do("attack", "ann", target="bo", trait="knowledge", weapon="Crossbow")
    dice.next(2)
    dice.next(0)
    g.do("attack", "ann", target="bo", trait="knowledge")  # holding the Crossbow, without it
    assert "Ann attacks Bo with Knowledge." in g.texts()


# --- Wild Magic (Ralvio) ---------------------------------------------------------------------------------------

def test_wild_magic_not_when_ralvio_defends(engine, dice):
    # Power: Wild Magic (Ralvio): the extra die belongs to his attacks; Rulebook: Make an Attack (defending is
    # not attacking)
    g = haunt_game(engine, ("ralvio", "lia", "gretchen"))
    my_turn(g, "bo")
    dice.next(1)
    dice.next(1)
    g.do("attack", "bo", target="ann", trait="sanity")
    assert not said(g.texts(), "Wild Magic") and "A tie (1 to 1): nobody is hurt." in g.texts()
