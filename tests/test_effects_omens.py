"""Each omen card: its use through the engine, its passive effect, or its
attack/haunt hook called directly."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine import effects
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.effects import take_damage
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.specials import combat
from bot.games.babg.engine.specials.common import card_state
from tests.test_effects_items import haunt
from tests.test_effects_kit import draw_event, give, value


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def test_berserker_axe(game):
    # Card: Berserker Axe (Might +2 dice; cannot be dropped or traded; holds you next to opponents);
    # Rulebook: Card Clarifications, Berserker Axe
    give(game, "ann", "berserker_axe")
    ctx = Ctx(game.c, game.state)
    assert combat.attack_dice(ctx, "ann", "might", "berserker_axe") == value(game, "ann", "might") + 2
    with pytest.raises(IllegalAction, match="cannot be dropped"):
        game.do("drop", "ann", card="Berserker Axe")
    with pytest.raises(IllegalAction, match="cannot be traded"):
        game.do("trade", "ann", card="Berserker Axe", to="bo")
    assert not combat.berserker_axe_holds(ctx, "ann"), "no opponents before the haunt"
    haunt(game)
    assert combat.berserker_axe_holds(ctx, "ann")
    game.state["turn"]["attacked_with"] = "berserker_axe"
    assert not combat.berserker_axe_holds(ctx, "ann")
    # through the real actions: tests/test_haunt_play.py and tests/test_rulebook_audit.py


def test_book_of_spells(game):
    # Card: Book of Spells (attack with Sanity; losing such an attack costs 1 more damage)
    give(game, "ann", "book_of_spells")
    ctx = Ctx(game.c, game.state)
    assert "sanity" in combat.attack_traits(ctx, "ann", "book_of_spells")
    assert combat.book_of_spells_backlash(ctx, "ann", 2) == 3
    assert combat.book_of_spells_backlash(ctx, "ann", 0) == 0


def test_cursed_armor_adds_to_a_defence_for_sanity(game, dice):
    # Card: Cursed Armor (+1 Sanity while held; defending, add 1 by losing 1 Sanity; cannot be stolen)
    # Ruling: Cursed Armor is offered only while the defence is losing
    give(game, "ann", "cursed_armor")
    assert game.p("ann")["traits"]["sanity"] == 4
    assert not game.c.cards["cursed_armor"].can_steal
    dice.next(2, 2, 1, 0)     # Cy rolls 4 dice for the Zhentarim: 5
    dice.next(2, 2, 0, 0, 0)  # Ann defends with Might: 4
    draw_event(game, "zhentarim_opportunist")
    assert game.state["pending"]["kind"] == "cursed_armor"
    before = pos(game, "ann")
    game.do("decide", "ann", choice=0)
    now = pos(game, "ann")
    assert now["sanity"] == before["sanity"] - 1
    assert now["might"] == before["might"] and now["speed"] == before["speed"], "5 against 5: nobody is hurt"
    assert "zhentarim_opportunist" in game.state["discard"]["event"]


def test_deck_of_many_things_star_and_tokens(game, dice):
    # Card: Deck of Many Things (roll 4 dice minus 1 per token on it; 5-7 Star: gain 1; a token after each draw)
    give(game, "ann", "deck_of_many_things")
    dice.next(2, 2, 1, 0)
    game.do("use", "ann", card="Deck of Many Things")
    game.do("decide", "ann", choice="Might")
    assert game.p("ann")["traits"]["might"] == 4
    assert card_state(Ctx(game.c, game.state), "deck_of_many_things")["tokens"] == 1
    with pytest.raises(IllegalAction, match="already used"):
        game.do("use", "ann", card="Deck of Many Things")


def test_deck_of_many_things_tokens_stay_with_the_card(game, dice):
    # Card: Deck of Many Things (the tokens stay on it if it changes hands);
    # Rulebook: Card Clarifications, Deck of Many Things
    give(game, "bo", "deck_of_many_things")
    card_state(Ctx(game.c, game.state), "deck_of_many_things", store=True)["tokens"] = 2
    game.do("end", "ann")
    dice.next(2, 2, 1, 0)  # 5 - 2 = 3: Sun, draw an item
    game.do("use", "bo", card="Deck of Many Things")
    assert any("- 2 = 3" in t for t in game.texts())
    assert any(game.c.cards[c].deck == "item" for c in game.p("bo")["cards"])


def test_deck_of_many_things_moon(game, dice):
    # Card: Deck of Many Things (8+ Moon: gain 4 in a trait of your choice)
    give(game, "ann", "deck_of_many_things")
    dice.next(2, 2, 2, 2)
    game.do("use", "ann", card="Deck of Many Things")
    game.do("decide", "ann", choice="Knowledge")
    assert game.p("ann")["traits"]["knowledge"] == 7


def test_deck_of_many_things_talons(game, dice):
    # Card: Deck of Many Things (1-2 Talons: discard an item card or take 1 mental damage)
    give(game, "ann", "deck_of_many_things")
    give(game, "ann", "crossbow")
    dice.next(1, 1, 0, 0)
    game.do("use", "ann", card="Deck of Many Things")
    assert game.state["pending"]["options"] == ["Discard Crossbow", "Take 1 mental damage"]
    game.do("decide", "ann", choice="Discard Crossbow")
    assert "crossbow" in game.state["discard"]["item"]


def test_deck_of_many_things_void(game, dice):
    # Card: Deck of Many Things (0 or less Void: a trait drops to its lowest value)
    give(game, "ann", "deck_of_many_things")
    dice.next(0, 0, 0, 0)
    game.do("use", "ann", card="Deck of Many Things")
    game.do("decide", "ann", choice="Speed")
    assert game.p("ann")["traits"]["speed"] == 1 and game.p("ann")["alive"]


def test_dimensional_shackles(game):
    # Card: Dimensional Shackles (-1 Speed while held; cannot be dropped; handed over by a winning attack)
    give(game, "ann", "dimensional_shackles")
    assert game.p("ann")["traits"]["speed"] == 4
    with pytest.raises(IllegalAction, match="cannot be dropped"):
        game.do("drop", "ann", card="Dimensional Shackles")
    combat.shackle(Ctx(game.c, game.state), "ann", "bo")
    assert game.p("ann")["traits"]["speed"] == 5 and game.p("bo")["traits"]["speed"] == 2
    assert "dimensional_shackles" in game.p("bo")["cards"]


def test_eye_of_vecna(game, dice):
    # Card: Eye of Vecna (+1 Knowledge; an opponent moving onto your tile rolls 2 dice: 0-1 stays;
    # exactly 1 costs the holder 1 mental damage); Rulebook: Card Clarifications, Eye of Vecna
    # Ruling: the Eye of Vecna's 1 mental damage goes to its holder
    give(game, "ann", "eye_of_vecna")
    assert game.p("ann")["traits"]["knowledge"] == 4
    haunt(game)
    ctx = Ctx(game.c, game.state)
    dice.next(1, 0)
    assert combat.eye_of_vecna_stops(ctx, "bo", "ann")
    assert ctx.s["queue"][0]["player"] == "ann"
    dice.next(2, 0)
    assert not combat.eye_of_vecna_stops(ctx, "bo", "ann")


def test_figurine_ignores_damage_once_per_game(game):
    # Card: Figurine of Wondrous Power (once per game ignore all of one damage); Ruling: once per figurine
    give(game, "ann", "figurine_of_wondrous_power")
    before = pos(game, "ann")
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "mental", 3)
    game.do("decide", "ann", choice="Ignore it")
    assert pos(game, "ann") == before
    take_damage(Ctx(game.c, game.state), "ann", "mental", 1)
    assert game.state["pending"]["kind"] == "damage", "no second use"
    card = game.c.cards["figurine_of_wondrous_power"]
    assert card.companion and not (card.can_drop or card.can_trade or card.can_steal)


def test_homunculus(game):
    # Card: Homunculus (+1 Might and +1 Knowledge; cannot be dropped, traded or stolen)
    give(game, "ann", "homunculus")
    assert game.p("ann")["traits"]["might"] == 4 and game.p("ann")["traits"]["knowledge"] == 4
    with pytest.raises(IllegalAction, match="cannot be dropped"):
        game.do("drop", "ann", card="Homunculus")


def test_iron_flask_of_tuerny(game, dice):
    # Card: Iron Flask of Tuerny (after the haunt, once per game: a balor's Might 6 attack on everyone there)
    give(game, "ann", "iron_flask_of_tuerny")
    with pytest.raises(IllegalAction, match="only after the haunt has begun"):
        game.do("use", "ann", card="Iron Flask of Tuerny")
    haunt(game)
    game.do("use", "ann", card="Iron Flask of Tuerny")
    assert sum(1 for t in game.events if t["kind"] == "attack") >= 3
    assert card_state(Ctx(game.c, game.state), "iron_flask_of_tuerny")["used"]


def test_meenlock_turns_physical_damage_mental(game):
    # Card: Meenlock (+2 Speed; physical damage is taken as mental damage)
    give(game, "ann", "meenlock")
    assert game.p("ann")["traits"]["speed"] == 7
    before = pos(game, "ann")
    take_damage(Ctx(game.c, game.state), "ann", "physical", 1)
    game.decide_all()
    now = pos(game, "ann")
    assert now["might"] == before["might"] and now["speed"] == before["speed"]
    assert now["knowledge"] + now["sanity"] == before["knowledge"] + before["sanity"] - 1


def test_pipes_of_haunting_wait_for_the_haunt(game):
    # Card: Pipes of Haunting (played once the haunt has started)
    give(game, "ann", "pipes_of_haunting")
    assert not any(a["type"] == "use" for a in legal_actions(game.c, game.state))
    with pytest.raises(IllegalAction, match="only after the haunt"):
        game.do("use", "ann", card="Pipes of Haunting")


def test_symbol_of_bhaal(game, dice):
    # Card: Symbol of Bhaal (each killing after the haunt: roll 1 die; 2: gain 1 Might; 0: 1 die of mental
    # damage unless you made the kill)
    give(game, "ann", "symbol_of_bhaal")
    card = game.c.cards["symbol_of_bhaal"]
    assert not (card.can_drop or card.can_trade or card.can_steal)
    ctx = Ctx(game.c, game.state)
    dice.next(2)
    combat.symbol_of_bhaal_on_death(ctx, "ann", killer="bo")
    effects.run(ctx)
    assert game.p("ann")["traits"]["might"] == 4


def test_whispering_skull_waits_for_the_haunt(game):
    # Card: Whispering Skull (after the haunt: move a small monster or NPC 1 space)
    give(game, "ann", "whispering_skull")
    with pytest.raises(IllegalAction, match="only after the haunt"):
        game.do("use", "ann", card="Whispering Skull")


def test_every_omen_has_a_test_here():
    import pathlib
    import re
    text = pathlib.Path(__file__).read_text()
    from bot.games.babg.content import load_content
    names = {c.name for c in load_content().cards.values() if c.deck == "omen"}
    named = set(re.findall(r"# Card: ([^(\n;]+?)\s*(?:\(|;|$)", text, re.M))
    assert names <= named, names - named


def test_pipes_of_haunting_after_the_haunt(game, dice):
    # Card: Pipes of Haunting (everyone within 2 tiles rolls Sanity 4+; you may move each who fails 1 space away)
    give(game, "ann", "pipes_of_haunting")
    haunt(game)
    game.put("bo", "inner_chamber")
    game.put("cy", "kitchen_basement")  # not within 2 tiles through doorways
    dice.next(0, 0, 0, 0, 0)  # Bo fails
    game.do("use", "ann", card="Pipes of Haunting")
    assert game.state["pending"]["player"] == "ann" and game.state["pending"]["options"] == ["Kitchen", "Leave them"]
    game.do("decide", "ann", choice="Kitchen")
    assert game.p("bo")["tile"] == "kitchen" and game.p("cy")["tile"] == "kitchen_basement"


def test_attack_choices_are_recorded_before_the_roll(game):
    # Power: Reckless Attack; Rulebook: Adventurer Powers, Reckless Attack ("choose to add the dice before you
    # roll"): run as a step, the choice is kept for the attack engine
    from tests.test_effects_kit import run_steps
    run_steps(game, "ann", [{"do": "special", "name": "reckless_attack"}], source="power:torskar")
    assert game.p("ann")["marks"] == [{"kind": "attack_choice", "power": "reckless_attack", "trait": "might"}]


def test_deck_of_many_things_tokens_have_no_limit(game, dice):
    # Card: Deck of Many Things (1 off the draw per token); Ruling: tokens on the Deck of Many Things
    give(game, "ann", "deck_of_many_things")
    card_state(Ctx(game.c, game.state), "deck_of_many_things", store=True)["tokens"] = 30
    dice.next(2, 2, 2, 2)  # 8, less 30
    game.do("use", "ann", card="Deck of Many Things")
    assert any(t.endswith("= -22.") for t in game.texts())
    assert game.state["pending"]["kind"] == "void"  # the Void, before the haunt: a trait drops
    game.do("decide", "ann", choice=0)
    assert game.state["card_state"]["deck_of_many_things"]["tokens"] == 31
