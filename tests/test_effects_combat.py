"""Hooks the haunt's attack engine will call, tested directly (rulebook:
Make an Attack, Special Attacks, The Traitor's New Powers)."""
from bot.games.babg.engine import effects
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.specials import combat
from tests.test_effects_items import haunt
from tests.test_effects_kit import give, resolve_event


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def test_otyugh_attacks_a_hero_leaving_after_the_haunt(game, dice):
    # Card: Otyugh Tentacle (after the haunt, a hero leaving is attacked, Might 3, by the player on the right;
    # winning by 3 or more also gains 1 Might or Speed)
    game.state["decks"]["event"].remove("otyugh_tentacle")
    tk.place(game.state, "Otyugh", "elfsong_tavern", card="otyugh_tentacle")
    ctx = Ctx(game.c, game.state)
    assert not combat.otyugh_on_leave(ctx, "ann", "elfsong_tavern"), "nothing before the haunt"
    haunt(game, traitors=("bo",))
    assert not combat.otyugh_on_leave(ctx, "bo", "elfsong_tavern"), "the traitor is not a hero"
    dice.next(0, 0, 0)        # the Otyugh: 0
    dice.next(2, 2, 2, 0, 0)  # Ann's Might: 6, wins by 6
    assert combat.otyugh_on_leave(ctx, "ann", "elfsong_tavern")
    effects.run(ctx)
    game.decide_all()
    assert "otyugh_tentacle" in game.state["discard"]["event"] and not game.state["tokens"]
    assert game.p("ann")["traits"]["might"] == 4


def test_wererat_infection(game):
    # Card: Wererat Bite (physical damage by an attack passes the curse on; nobody is infected twice)
    resolve_event(game, "wererat_bite")
    ctx = Ctx(game.c, game.state)
    before = pos(game, "bo")
    assert combat.wererat_infect(ctx, "ann", "bo")
    assert pos(game, "bo") == {"might": before["might"] + 1, "speed": before["speed"] + 1,
                               "knowledge": before["knowledge"] - 1, "sanity": before["sanity"] - 1}
    assert not combat.wererat_infect(ctx, "ann", "bo"), "only once per game"
    assert combat.wererat_infect(ctx, "bo", "cy"), "the infected pass it on"
    assert not combat.wererat_infect(ctx, "cy", "ann"), "Ann was bitten already"


def test_a_new_traitor_may_shed_hindering_events(game, dice):
    # Rulebook: The Traitor's New Powers ("freed from that effect if you would like"); Card: Crawling Claw
    resolve_event(game, "wererat_bite")  # first: its gains would shake off a Crawling Claw
    dice.next(0, 0, 0, 0, 0, 0)
    resolve_event(game, "crawling_claw")
    give(game, "ann", "crossbow")
    assert sorted(combat.traitor_sheds(Ctx(game.c, game.state), "ann")) == ["crawling_claw", "wererat_bite"]


def test_explosive_runes_attack_with_knowledge(game, dice):
    # Card: Explosive Runes (discard it to attack with Knowledge; Rulebook: Card Clarifications, Explosive Runes)
    dice.next(2, 2, 1)
    resolve_event(game, "explosive_runes")
    ctx = Ctx(game.c, game.state)
    assert "knowledge" in combat.attack_traits(ctx, "ann", "explosive_runes")
    assert combat.explosive_runes_attack(ctx, "ann") == "knowledge"
    assert "explosive_runes" in game.state["discard"]["event"]


def test_stealing_needs_two_damage_on_your_tile(game):
    # Rulebook: Special Attacks, "Stealing Items" (2 or more damage, not a distance attack, stealable cards)
    give(game, "bo", "cursed_armor")
    ctx = Ctx(game.c, game.state)
    assert not combat.can_steal(ctx, "ann", "bo", 3, distance=False, holy_symbol_added=False), "cannot be stolen"
    give(game, "bo", "crossbow")
    assert combat.can_steal(ctx, "ann", "bo", 2, distance=False, holy_symbol_added=False)
    assert not combat.can_steal(ctx, "ann", "bo", 1, distance=False, holy_symbol_added=False)
    assert not combat.can_steal(ctx, "ann", "bo", 4, distance=True, holy_symbol_added=False)
