"""Clause-by-clause audit of the 22 item and 13 omen cards (rules_data/cards/items.toml, omens.toml): only
clauses no other test checks and that looked doubtful or notable, played through the real actions. The card's
`text` is the rule; an xfail names the engine function that departs from it."""
import pytest

from bot.games.babg.engine import IllegalAction
from tests.test_effects_kit import give, my_turn, resolve_event
from tests.test_haunt_play import attack_ready


def positions(g, pid, traits=("might", "speed")):
    return sum(g.p(pid)["traits"][t] for t in traits)


def wererat(g, tile):
    """A Wererat (haunt 18's small monster, Might 4, Speed 3) on `tile`."""
    from bot.games.babg.engine import haunt_play
    from bot.games.babg.engine.ctx import Ctx
    return haunt_play.add_monster(Ctx(g.c, g.state), "Wererat", tile)


def monster_turn(g, pid="bo"):
    g.state["turn"] = {**g.state["turn"], "player": pid, "monsters": True, "moves": {"Wererat": 3},
                       "acted": [], "attacked": [], "ending": False}


# --- held bonuses follow the card -------------------------------------------------------------------------------

def test_a_stolen_holy_symbol_takes_its_knowledge_to_the_thief(engine, dice):
    # Card: Holy Symbol ("When you take it, gain 1 Knowledge; if you lose it, lose 1 Knowledge"); Rulebook: Special
    # Attacks, "Stealing Items"
    g = attack_ready(engine)  # Ann (Torskar) and Bo (Lia, the traitor) on the Elfsong Tavern, Ann's turn
    give(g, "bo", "holy_symbol")
    bo_know, ann_know = g.p("bo")["traits"]["knowledge"], g.p("ann")["traits"]["knowledge"]
    dice.next(2, 2)  # Ann: 4
    dice.next(0, 0)  # Bo: 0
    g.do("attack", "ann", target="bo")
    g.do("decide", "ann", choice="Steal Holy Symbol")
    assert "holy_symbol" in g.p("ann")["cards"] and "holy_symbol" not in g.p("bo")["cards"]
    assert g.p("bo")["traits"]["knowledge"] == bo_know - 1
    assert g.p("ann")["traits"]["knowledge"] == ann_know + 1


# --- damage reductions and their order -------------------------------------------------------------------------

def test_chain_mail_soaks_event_damage_before_the_ten_foot_pole_is_spent(game):
    # Card: Chain Mail ("Each time you take physical damage, take 1 point less"); Card: Ten-Foot Pole ("The next
    # time an event card would deal you damage, you take none; then discard the pole"); Card: Pit Trap (1 physical)
    give(game, "ann", "chain_mail")
    give(game, "ann", "ten_foot_pole")
    before = dict(game.p("ann")["traits"])
    resolve_event(game, "pit_trap")
    assert game.p("ann")["traits"] == before
    assert "ten_foot_pole" in game.p("ann")["cards"], "the mail took the only point: the event dealt no damage"


# --- cards in the haunt's attacks ---------------------------------------------------------------------------------

def test_cursed_armor_is_offered_against_a_haunt_attack(engine, dice):
    # Card: Cursed Armor ("Whenever you roll defense against an attack, you may add 1 to your result by losing 1
    # Sanity")
    g = attack_ready(engine)
    give(g, "bo", "cursed_armor")
    dice.next(2, 1)  # Ann: 3
    dice.next(1, 1)  # Bo defends: 2
    g.do("attack", "ann", target="bo")
    assert g.state["pending"] and g.state["pending"]["player"] == "bo" and \
        g.state["pending"]["kind"] == "cursed_armor"


def test_potion_of_invisibility_keeps_monsters_off_too(engine):
    # Card: Potion of Invisibility ("Until the start of your next turn nobody can attack you")
    g = attack_ready(engine)
    give(g, "ann", "potion_of_invisibility")
    g.do("use", "ann", card="Potion of Invisibility")
    rat = wererat(g, "elfsong_tavern")
    monster_turn(g)
    with pytest.raises(IllegalAction):
        g.do("monster", "bo", op="attack", monster=rat["id"], target="ann")


def test_the_iron_flask_balor_cannot_attack_an_invisible_adventurer(engine, dice):
    # Card: Potion of Invisibility ("nobody can attack you ... Effects that are not attacks still affect you");
    # Card: Iron Flask of Tuerny ("a balor makes a Might 6 attack against every adventurer ... on your tile")
    g = attack_ready(engine)
    my_turn(g, "cy")
    give(g, "cy", "potion_of_invisibility")
    g.do("use", "cy", card="Potion of Invisibility")
    my_turn(g, "ann")
    g.put("bo", "kitchen")
    give(g, "ann", "iron_flask_of_tuerny")
    before = dict(g.p("cy")["traits"])
    dice.next(0)  # the balor against Ann: 0
    dice.next(0)  # Ann: 0, a tie
    dice.next(2, 2, 2, 2, 2, 2)  # the balor against Cy, were it to attack her: 12
    g.do("use", "ann", card="Iron Flask of Tuerny")
    assert not any("Cy rolls Might to defend" in t for t in g.texts())
    assert g.state["pending"] is None and g.p("cy")["traits"] == before


def test_javelin_of_lightning_at_a_monster_on_your_tile(engine, dice):
    # Card: Javelin of Lightning ("hurl it at an opponent on your tile: they take 2 dice of physical damage");
    # Rulebook: Glossary, "opponent"; How Monsters Work (damage stuns)
    g = attack_ready(engine)
    give(g, "ann", "javelin_of_lightning")
    rat = wererat(g, "elfsong_tavern")
    dice.next(2, 2)
    g.do("attack", "ann", target=rat["id"], weapon="Javelin of Lightning")
    assert next(m for m in g.state["monsters"] if m["id"] == rat["id"])["stunned"]
    assert "javelin_of_lightning" in g.state["discard"]["item"]


# --- a card used on someone else's turn -----------------------------------------------------------------------------

def test_gamblers_dice_after_a_roll_on_someone_elses_turn(game, dice):
    # Card: Gambler's Dice ("right after one of your rolls, roll again every die that showed 0"); Card: Moment of
    # Calm (each adventurer in a building rolls 1 die; 0: lose 1 Might)
    give(game, "bo", "gamblers_dice")
    for pid in ("ann", "bo", "cy"):
        game.put(pid, "elfsong_tavern")
    assert game.c.tiles["elfsong_tavern"].kind == "building"
    dice.next(1)  # Ann: 1, nothing
    dice.next(0)  # Bo: 0, a blank that the dice could turn into 1 or 2
    resolve_event(game, "moment_of_calm")
    assert game.state["pending"] and game.state["pending"]["player"] == "bo" and \
        game.state["pending"]["kind"] == "roll_reaction"
