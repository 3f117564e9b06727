"""Each item card: used through the engine where it has a use, its passive
effect shown where it has one, and its attack hook called directly where it
works only in attacks (those wait for the haunt's attack engine)."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.effects import take_damage
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.specials import combat
from tests.invariants import check
from tests.test_effects_kit import draw_event, give, my_turn, resolve_event, run_steps, value


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def haunt(game, traitors=("bo",)):
    """Start a haunt by hand: the attack hooks need opponents."""
    game.state["phase"] = "haunt"
    game.state["haunt"] = {"number": 1, "title": "test", "kind": "traitor", "revealer": "ann", "omen": "berserker_axe",
                           "tile": "elfsong_tavern", "chart_tile": "elfsong_tavern", "traitors": list(traitors),
                           "hidden_tokens": None}


def test_caltrops_lie_on_the_tile_like_a_dropped_item(game):
    # Card: Caltrops (use: scatter them on your tile; anyone there may pick them up again)
    give(game, "ann", "caltrops")
    game.do("use", "ann", card="Caltrops")
    assert game.state["piles"]["elfsong_tavern"] == ["caltrops"]
    assert any(t.get("item") == "caltrops" for t in game.state["tokens"])
    game.do("end", "ann")
    game.do("pickup", "bo", card="Caltrops")
    assert "caltrops" in game.p("bo")["cards"] and not game.state["tokens"]
    check(game.c, game.state)


def test_caltrops_stop_an_opponent_who_enters(game, dice):
    # Card: Caltrops (opponents entering stop and roll Speed 3+, 1 physical damage on a miss) - attack-engine hook
    give(game, "ann", "caltrops")
    game.do("use", "ann", card="Caltrops")
    haunt(game)
    ctx = Ctx(game.c, game.state)
    assert not combat.caltrops_on_enter(ctx, "cy", "elfsong_tavern"), "Cy is Ann's ally"
    assert combat.caltrops_on_enter(ctx, "bo", "elfsong_tavern")


def test_crossbow_is_a_distance_speed_weapon(game):
    # Card: Crossbow (Speed +1 die, distance attack); Rulebook: Special Attacks, "Distance Attacks"
    give(game, "ann", "crossbow")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("use", "ann", card="Crossbow")
    ctx = Ctx(game.c, game.state)
    assert combat.attack_dice(ctx, "ann", "speed", "crossbow") == value(game, "ann", "speed") + 1
    assert "speed" in combat.attack_traits(ctx, "ann", "crossbow")
    assert {"inner_chamber", "kitchen"} <= combat.attack_range(ctx, "ann", "speed", "crossbow")


def test_helm_of_teleportation_puts_you_anywhere(game, dice):
    # Card: Helm of Teleportation (Knowledge 4+: any tile in play; not movement; ends your movement)
    give(game, "ann", "helm_of_teleportation")
    dice.next(2, 2, 0)
    game.do("use", "ann", card="Helm of Teleportation")
    assert game.state["pending"]["kind"] == "helm_of_teleportation"
    game.do("decide", "ann", choice="Kitchen Basement")
    assert game.p("ann")["tile"] == "kitchen_basement" and game.state["turn"]["stopped"]
    assert game.state["turn"]["moved"] == 0


def test_helm_of_teleportation_can_scramble_you(game, dice):
    # Card: Helm of Teleportation (0-1: 1 mental damage)
    give(game, "ann", "helm_of_teleportation")
    before = pos(game, "ann")
    dice.next(0, 1, 0)
    game.do("use", "ann", card="Helm of Teleportation")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1
    assert game.p("ann")["tile"] == "elfsong_tavern"


def test_holy_symbol_knowledge_and_extra_damage(game):
    # Card: Holy Symbol (+1 Knowledge while held; 1 more damage; Rulebook: Card Clarifications, Holy Symbol)
    before = value(game, "ann", "knowledge")
    give(game, "ann", "holy_symbol")
    assert game.p("ann")["traits"]["knowledge"] == 4 and value(game, "ann", "knowledge") >= before
    ctx = Ctx(game.c, game.state)
    [option] = combat.extra_damage_options(ctx, "ann", 1, "mental")
    assert option["amount"] == 1 and option["kind"] == "mental" and option["no_steal"]
    give(game, "bo", "crossbow")
    assert not combat.can_steal(ctx, "ann", "bo", 2, distance=False, holy_symbol_added=True)
    assert combat.can_steal(ctx, "ann", "bo", 3, distance=False, holy_symbol_added=True)


def test_javelin_of_lightning(game, dice):
    # Card: Javelin of Lightning (2 dice of physical damage to an opponent on your tile; discard it)
    give(game, "ann", "javelin_of_lightning")
    assert game.c.cards["javelin_of_lightning"].attack["discard"]
    game.p("bo")["traits"].update(might=6, speed=6)
    ctx = Ctx(game.c, game.state)
    dice.next(2, 1)
    combat.javelin_of_lightning(ctx, "ann", "bo")
    from bot.games.babg.engine import effects
    effects.run(ctx)
    game.decide_all()
    assert sum(pos(game, "bo").values()) == 6 + 6 + 4 + 5 - 3  # Lia starts on Knowledge 4, Sanity 5
    assert "javelin_of_lightning" in game.state["discard"]["item"]


def test_locket_sanity_and_lighter_mental_damage(game, dice):
    # Card: Locket (+1 Sanity while held; 1 less mental damage each time)
    give(game, "ann", "locket")
    assert game.p("ann")["traits"]["sanity"] == 4
    before = pos(game, "ann")
    dice.next(0, 0, 0, 0)
    draw_event(game, "fireside_horrors")  # 0-1: 1 mental damage, to the Elfsong Tavern
    assert pos(game, "ann") == before
    assert game.p("ann")["tile"] == "elfsong_tavern"


def test_necklace_of_fireballs(game, dice):
    # Card: Necklace of Fireballs (everyone else on your tile rolls Speed; 0-4: 4 physical damage; discard it)
    give(game, "ann", "necklace_of_fireballs")
    game.p("bo")["traits"].update(might=8, speed=8)
    ctx = Ctx(game.c, game.state)
    dice.next(1, 1, 0, 0, 0, 0, 0, 0)  # Bo: 2, burned
    dice.next(2, 2, 1, 0)              # Cy: 5, dodges
    before_cy = pos(game, "cy")
    combat.necklace_of_fireballs(ctx, "ann")
    from bot.games.babg.engine import effects
    effects.run(ctx)
    game.decide_all()
    assert game.p("bo")["traits"]["might"] + game.p("bo")["traits"]["speed"] == 12
    assert pos(game, "cy") == before_cy
    assert "necklace_of_fireballs" in game.state["discard"]["item"]


def test_potion_of_giant_strength_adds_two_dice_to_the_next_might_roll(game, dice):
    # Card: Potion of Giant Strength (2 more dice on the next Might roll; discard it)
    give(game, "ann", "potion_of_giant_strength")
    game.do("use", "ann", card="Potion of Giant Strength")
    assert "potion_of_giant_strength" in game.state["discard"]["item"]
    dice.next(2, 2, 2, 0, 0, 0, 0)
    draw_event(game, "go_for_the_eyes")
    assert any("rolls Might (7 dice" in t for t in game.texts())
    assert not game.p("ann")["marks"]


def test_potion_of_healing(game):
    # Card: Potion of Healing (Might and Speed below their starting values go back to them)
    give(game, "ann", "potion_of_healing")
    game.p("ann")["traits"].update(might=1, speed=2, sanity=1)
    game.do("use", "ann", card="Potion of Healing")
    assert game.p("ann")["traits"] == {"might": 3, "speed": 5, "knowledge": 3, "sanity": 1}
    assert "potion_of_healing" in game.state["discard"]["item"]


def test_potion_of_invisibility_until_your_next_turn(game):
    # Card: Potion of Invisibility (nobody can attack you until the start of your next turn)
    give(game, "ann", "potion_of_invisibility")
    game.do("use", "ann", card="Potion of Invisibility")
    ctx = Ctx(game.c, game.state)
    assert not combat.can_be_attacked(ctx, "ann")
    haunt(game)
    game.put("bo", "elfsong_tavern")
    assert combat.leave_cost(ctx, "ann") == 0
    game.state["phase"] = "exploring"
    game.state["haunt"] = None
    game.do("end", "ann")
    game.do("end", "bo")
    game.do("end", "cy")
    assert combat.can_be_attacked(Ctx(game.c, game.state), "ann")


def test_potion_of_speed(game):
    # Card: Potion of Speed (up to 4 extra spaces this turn)
    give(game, "ann", "potion_of_speed")
    game.do("use", "ann", card="Potion of Speed")
    for way in ("west", "west", "east", "east", "west", "west", "east", "east"):
        game.do("move", "ann", way=way)
    assert game.state["turn"]["moved"] == 8  # Speed 4 + 4
    with pytest.raises(IllegalAction, match="0 of your 8 spaces"):
        game.do("move", "ann", way="west")


def test_ring_of_the_ram(game):
    # Card: Ring of the Ram (Might attacks roll 1 extra die)
    give(game, "ann", "ring_of_the_ram")
    ctx = Ctx(game.c, game.state)
    assert combat.attack_dice(ctx, "ann", "might", "ring_of_the_ram") == value(game, "ann", "might") + 1
    assert combat.attack_dice(ctx, "ann", "speed", "ring_of_the_ram") == value(game, "ann", "speed")


def test_shiny_rock_needs_an_opponent(game):
    # Card: Shiny Rock (take a card from an opponent on your tile); before the haunt nobody is one
    give(game, "ann", "shiny_rock")
    give(game, "bo", "crossbow")
    assert {"type": "use", "player": "ann", "card": "shiny_rock"} not in legal_actions(game.c, game.state)
    with pytest.raises(IllegalAction, match="before the haunt nobody is your opponent"):
        game.do("use", "ann", card="Shiny Rock")


def test_shiny_rock_after_the_haunt(game):
    # Card: Shiny Rock (discard it; 1 stealable card at random from an opponent on your tile)
    give(game, "ann", "shiny_rock")
    give(game, "bo", "crossbow")
    give(game, "bo", "symbol_of_bhaal")  # cannot be stolen
    haunt(game)
    game.do("use", "ann", card="Shiny Rock")
    assert "crossbow" in game.p("ann")["cards"] and "symbol_of_bhaal" in game.p("bo")["cards"]
    assert "shiny_rock" in game.state["discard"]["item"]


def test_book_of_vile_darkness(game, dice):
    # Card: Book of Vile Darkness (2 more dice on your next roll; after it, 1 mental damage)
    give(game, "ann", "book_of_vile_darkness")
    game.do("use", "ann", card="Book of Vile Darkness")
    before = pos(game, "ann")
    dice.next(2, 2, 2, 0, 0)
    draw_event(game, "cranium_rats")  # Sanity 3 + 2 dice
    assert any("rolls Sanity (5 dice" in t for t in game.texts())
    game.decide_all()
    now = pos(game, "ann")
    assert now["knowledge"] + now["sanity"] == before["knowledge"] + before["sanity"] + 1 - 1
    assert "book_of_vile_darkness" in game.p("ann")["cards"]


def test_book_of_vile_darkness_waits_for_its_roll(game):
    # Card: Book of Vile Darkness ("a roll you are about to make");
    # Ruling: the book's dice wait for one roll and do not pile up
    from tests.test_effects_kit import my_turn
    give(game, "ann", "book_of_vile_darkness")
    game.do("use", "ann", card="Book of Vile Darkness")
    game.do("end", "ann")
    for pid in ("bo", "cy"):
        game.do("end", pid)
    game.decide_all()
    my_turn(game, "ann")
    with pytest.raises(IllegalAction, match="still waiting for your next roll"):
        game.do("use", "ann", card="Book of Vile Darkness")
    assert sum(m.get("card") == "book_of_vile_darkness" for m in game.p("ann")["marks"]) == 1


def test_chain_mail(game, dice):
    # Card: Chain Mail (1 less physical damage each time)
    give(game, "ann", "chain_mail")
    before = pos(game, "ann")
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "physical", 1)
    assert pos(game, "ann") == before
    take_damage(ctx, "ann", "physical", 2)
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1


def test_gamblers_dice_reroll_the_blanks(game, dice):
    # Card: Gambler's Dice (right after your roll: roll the blanks again; each blank again: 1 mental damage)
    give(game, "ann", "gamblers_dice")
    before = pos(game, "ann")
    dice.next(2, 0, 0)  # Cranium Rats, Sanity: 2 (2-3 band)
    dice.next(2, 0)     # the two blanks again: +2, one blank again
    draw_event(game, "cranium_rats")
    assert game.state["pending"]["kind"] == "roll_reaction"
    game.do("decide", "ann", choice="Roll them again")
    game.decide_all()
    now = pos(game, "ann")
    assert now["sanity"] == before["sanity"] + 1 - (1 if now["knowledge"] == before["knowledge"] else 0)
    assert now["knowledge"] + now["sanity"] == before["knowledge"] + before["sanity"], "gain 1, 1 mental damage"
    assert "gamblers_dice" in game.state["turn"]["used"]


def test_gamblers_dice_not_offered_when_it_cannot_matter(game, dice):
    # Card: Gambler's Dice; Ruling: offered only when the new dice could change the result's band
    give(game, "ann", "gamblers_dice")
    dice.next(2, 2, 0)  # 4: already the best band
    draw_event(game, "cranium_rats")
    assert game.state["pending"] is None
    with pytest.raises(IllegalAction, match="right after one of your rolls"):
        game.do("use", "ann", card="Gambler's Dice")


def test_ten_foot_pole_stops_event_damage_once(game, dice):
    # Card: Ten-Foot Pole (the next time an event would deal you damage, you take none; discard it)
    give(game, "ann", "ten_foot_pole")
    before = pos(game, "ann")
    dice.next(0, 0, 0)
    dice.next(2)
    draw_event(game, "death_vision")
    assert pos(game, "ann") == before
    assert "ten_foot_pole" in game.state["discard"]["item"]


def test_ten_foot_pole_ignores_tile_damage(game):
    # Card: Ten-Foot Pole (event damage only: a tile's damage still hurts)
    give(game, "ann", "ten_foot_pole")
    game.place("rats_nest", "catacomb", 1, -1)
    game.put("ann", "rats_nest")
    before = pos(game, "ann")
    game.do("end", "ann")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1
    assert "ten_foot_pole" in game.p("ann")["cards"]


def test_cloak_of_the_bat(game, dice):
    # Card: Cloak of the Bat (about to take physical damage: Speed 3+ ignores it; discard the cloak)
    give(game, "ann", "cloak_of_the_bat")
    before = pos(game, "ann")
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "physical", 2)
    assert game.state["pending"]["kind"] == "damage_stage"
    dice.next(2, 1, 0, 0)
    game.do("decide", "ann", choice="Roll")
    assert pos(game, "ann") == before
    assert "cloak_of_the_bat" in game.state["discard"]["item"]


def test_cloak_of_the_bat_failing(game, dice):
    # Card: Cloak of the Bat (a failed roll: the damage is taken, the cloak kept)
    give(game, "ann", "cloak_of_the_bat")
    before = pos(game, "ann")
    ctx = Ctx(game.c, game.state)
    take_damage(ctx, "ann", "physical", 1)
    dice.next(1, 1, 0, 0)
    game.do("decide", "ann", choice="Roll")
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before.values()) - 1
    assert "cloak_of_the_bat" in game.p("ann")["cards"]


def test_ring_of_regeneration(game):
    # Card: Ring of Regeneration (end of turn: a trait on its lowest value may gain 1)
    give(game, "ann", "ring_of_regeneration")
    game.p("ann")["traits"].update(might=1, sanity=1)
    game.do("end", "ann")
    assert game.state["pending"]["options"] == ["Gain 1 Might", "Gain 1 Sanity", "No"]
    game.do("decide", "ann", choice="Gain 1 Sanity")
    assert game.p("ann")["traits"]["sanity"] == 2 and game.p("ann")["traits"]["might"] == 1


def test_vial_of_poison(game):
    # Card: Vial of Poison (an attack that deals physical damage: discard it for 2 more) - attack-engine hook
    give(game, "ann", "vial_of_poison")
    ctx = Ctx(game.c, game.state)
    assert combat.extra_damage_options(ctx, "ann", 1, "mental") == []
    [option] = combat.extra_damage_options(ctx, "ann", 1, "physical")
    assert combat.use_extra_damage(ctx, "ann", option) == 2
    assert "vial_of_poison" in game.state["discard"]["item"]


def test_boots_of_elvenkind(game):
    # Card: Boots of Elvenkind (+1 Speed while held)
    give(game, "ann", "boots_of_elvenkind")
    assert game.p("ann")["traits"]["speed"] == 6


def test_pearl_of_power(game, dice):
    # Card: Pearl of Power (Knowledge roll, +1 for a sorcerer or wizard; 3-4: gain 1 Knowledge; discard it)
    give(game, "ann", "pearl_of_power")
    dice.next(2, 1, 0)
    game.do("use", "ann", card="Pearl of Power")
    assert game.p("ann")["traits"]["knowledge"] == 4
    assert "pearl_of_power" in game.state["discard"]["item"]


def test_each_item_once_per_turn_even_when_it_asks(game, dice):
    # Rulebook: Use Item and Omen Cards (one action per item per turn)
    give(game, "ann", "pearl_of_power")
    give(game, "ann", "book_of_vile_darkness")
    game.do("use", "ann", card="Book of Vile Darkness")
    with pytest.raises(IllegalAction, match="already used"):
        game.do("use", "ann", card="Book of Vile Darkness")


def test_every_item_has_a_test_here():
    import pathlib
    import re
    text = pathlib.Path(__file__).read_text()
    from bot.games.babg.content import load_content
    names = {c.name for c in load_content().cards.values() if c.deck == "item"}
    named = set(re.findall(r"# Card: ([^(\n;]+?)\s*(?:\(|;|$)", text, re.M))
    assert names <= named, names - named


def test_a_resolved_event_and_an_item_share_the_table(game):
    # Rulebook: Use Item and Omen Cards ("There's no limit to the number of items you can carry")
    give(game, "ann", "crossbow")
    resolve_event(game, "wererat_bite")
    assert {"crossbow", "wererat_bite"} <= set(game.p("ann")["cards"])
    my_turn(game, "ann")
    run_steps(game, "ann", [])
    check(game.c, game.state)


def test_taking_a_looked_at_card_is_drawing_it(game):
    # Card: Future Sight, Red Wizard, Lost and Found; Ruling: taking a card you looked at is drawing it,
    # so it ends your movement
    game.state["decks"]["event"].remove("future_sight")
    game.p("ann")["cards"].append("future_sight")
    game.do("end", "ann")
    game.do("end", "bo")
    game.do("end", "cy")
    game.do("decide", "ann", choice=0)
    game.do("decide", "ann", choice=0)
    assert game.state["turn"]["stopped"] and game.state["turn"]["moved"] == 0


def test_damage_stages_in_order(game):
    # Card: Meenlock, Locket; Ruling: damage is changed in this order: Protection, Meenlock, Chain Mail or
    # Locket, Ten-Foot Pole, Figurine, Cloak of the Bat
    give(game, "ann", "meenlock")
    give(game, "ann", "locket")
    before = pos(game, "ann")
    take_damage(Ctx(game.c, game.state), "ann", "physical", 1)
    assert pos(game, "ann") == before, "turned mental by the Meenlock, then stopped by the Locket"
