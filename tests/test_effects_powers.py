"""Adventurer powers (rulebook: Use Your Adventurer Power; Adventurer Powers)."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.effects import take_damage
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.specials import combat, powers
from tests.conftest import Game
from tests.test_effects_items import haunt
from tests.test_effects_kit import draw_event, faces, my_turn


def pos(game, pid):
    return dict(game.p(pid)["traits"])


def table(engine, *advs):
    return Game(engine, adventurers=advs)


def power_offered(game, pid):
    return {"type": "power", "player": pid} in legal_actions(game.c, game.state)


def test_reckless_attack(engine, dice):
    # Power: Reckless Attack (Torskar): 2 extra dice, chosen before rolling; then 1 die of physical damage.
    # Rulebook: Adventurer Powers, Reckless Attack.
    game = table(engine, "torskar", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("power", "ann")
    assert not power_offered(game, "ann")
    ctx = Ctx(game.c, game.state)
    might = ctx.value("ann", "might")
    assert combat.attack_dice(ctx, "ann", "might", reckless=True) == might + 2
    assert combat.attack_dice(ctx, "bo", "might", reckless=True) == ctx.value("bo", "might"), "Torskar's only"
    # the price, 1 die of physical damage after the attack: tests/test_effects_haunt_cards.py


def test_protection_takes_the_damage_for_a_friend(engine, dice):
    # Power: Protection (Aldan): another adventurer on your tile about to take damage: you may take it
    game = table(engine, "aldan", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="offered to you whenever"):
        game.do("power", "ann")
    before_ann, before_bo = pos(game, "ann"), pos(game, "bo")
    take_damage(Ctx(game.c, game.state), "bo", "mental", 1)
    assert game.state["pending"]["player"] == "ann" and game.state["pending"]["kind"] == "damage_stage"
    game.do("decide", "ann", choice="Take it for them")
    game.decide_all()
    assert pos(game, "bo") == before_bo
    assert sum(pos(game, "ann").values()) == sum(before_ann.values()) - 1


def test_protection_can_be_declined_and_needs_the_same_tile(engine):
    # Power: Protection (Aldan): "you may"; only on your tile
    game = table(engine, "aldan", "lia", "gretchen")
    before_bo = pos(game, "bo")
    take_damage(Ctx(game.c, game.state), "bo", "mental", 1)
    game.do("decide", "ann", choice="Let it be")
    game.decide_all()
    assert sum(pos(game, "bo").values()) == sum(before_bo.values()) - 1
    game.put("ann", "kitchen")
    take_damage(Ctx(game.c, game.state), "bo", "mental", 1)
    assert game.state["pending"]["player"] == "bo"


def test_eldritch_blast(engine):
    # Power: Eldritch Blast (Lia): attack with Sanity; a win may push the defender 1 tile
    # (the push itself: tests/test_effects_haunt_cards.py)
    game = table(engine, "torskar", "lia", "gretchen")
    my_turn(game, "bo")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("power", "bo")
    ctx = Ctx(game.c, game.state)
    assert "sanity" in combat.attack_traits(ctx, "bo")
    assert combat.eldritch_push_targets(ctx, game.p("ann")["tile"]) == ["inner_chamber"]


def test_hunters_mark(engine):
    # Power: Hunter's Mark (Avrixis): the token under an opponent in line of sight; attack results +1
    game = table(engine, "avrixis", "torskar", "gretchen")
    with pytest.raises(IllegalAction, match="before the haunt nobody is one"):
        game.do("power", "ann")
    haunt(game, traitors=("bo",))
    game.put("bo", "kitchen")  # in a straight line of doorways from the Elfsong Tavern
    assert power_offered(game, "ann")
    game.do("power", "ann")
    game.decide_all()
    assert game.p("ann")["power"]["mark"] == "bo"
    ctx = Ctx(game.c, game.state)
    assert combat.result_bonus(ctx, "ann", "bo", "might") == 1
    assert combat.result_bonus(ctx, "ann", "cy", "might") == 0
    with pytest.raises(IllegalAction, match="already used Hunter's Mark this turn"):
        game.do("power", "ann")


def test_wild_shape_once_per_game(engine):
    # Power: Wild Shape (Gretchen): once per game, an animal form for the rest of the game.
    # Rulebook: Adventurer Powers, Wild Shape ("persist for the remainder of the game")
    game = table(engine, "gretchen", "lia", "torskar")
    assert power_offered(game, "ann")
    before = pos(game, "ann")
    game.do("power", "ann")
    assert len(game.state["pending"]["options"]) == 4
    game.do("decide", "ann", choice="Badger (+2 Might, -1 Sanity)")
    now = pos(game, "ann")
    assert now["might"] == before["might"] + 2 and now["sanity"] == before["sanity"] - 1
    for _ in range(3):
        game.do("end", game.state["turn"]["player"])
    assert pos(game, "ann") == now, "the form stays"
    assert not power_offered(game, "ann")
    with pytest.raises(IllegalAction, match="once per game"):
        game.do("power", "ann")


def test_cunning_action(engine):
    # Power: Cunning Action (Tasha): opponents never cost extra movement to leave. Waits for the haunt.
    game = table(engine, "tasha", "lia", "torskar")
    with pytest.raises(IllegalAction, match="always works"):
        game.do("power", "ann")
    haunt(game, traitors=("bo",))
    ctx = Ctx(game.c, game.state)
    assert combat.leave_cost(ctx, "ann") == 0
    assert combat.leave_cost(ctx, "cy") == 1, "Torskar is slowed by the traitor on his tile"


def test_devotion_treats_an_event_tile_as_blank(engine, dice):
    # Power: Devotion (Grim): once per turn, a discovered event tile counts as blank; you may keep moving
    game = table(engine, "grim", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="offered when you discover"):
        game.do("power", "ann")
    game.put("ann", "kitchen")
    game.top("street", "dead_end")
    top = game.state["decks"]["event"][0]
    game.do("move", "ann", way="west")
    assert game.state["pending"]["kind"] == "devotion"
    game.do("decide", "ann", choice="Use Devotion")
    assert game.state["decks"]["event"][0] == top and not game.state["turn"]["stopped"]
    game.do("move", "ann", way="east")
    game.top("building", "spys_roost")
    game.top_card("event", "vampiric_mist")
    dice.next(2, 2, 0, 0)
    game.do("move", "ann", way="north")  # a second event tile this turn: Devotion is once per turn
    assert game.state["pending"] is None
    assert "vampiric_mist" in game.state["discard"]["event"] and game.state["turn"]["stopped"]


def test_devotion_declined_draws(engine, dice):
    # Power: Devotion (Grim): "you may"
    game = table(engine, "grim", "lia", "gretchen")
    game.put("ann", "kitchen")
    game.top("street", "dead_end")
    game.top_card("event", "vampiric_mist")
    dice.next(2, 2, 0, 0)
    game.do("move", "ann", way="west")
    game.do("decide", "ann", choice="Draw the event")
    assert "vampiric_mist" in game.state["discard"]["event"] and game.state["turn"]["stopped"]


def test_healing_word(engine):
    # Power: Healing Word (Vort): 2 tokens; once per turn +1 to a trait below its start, someone on your tile
    game = table(engine, "vort", "lia", "gretchen")
    assert not power_offered(game, "ann"), "nobody is hurt yet"
    game.p("bo")["traits"]["sanity"] = 2
    assert power_offered(game, "ann")
    game.do("power", "ann")
    assert game.p("bo")["traits"]["sanity"] == 3
    assert game.p("ann")["power"]["tokens"] == 1
    with pytest.raises(IllegalAction, match="already used Healing Word this turn"):
        game.do("power", "ann")
    for _ in range(3):
        game.do("end", game.state["turn"]["player"])
    game.p("ann")["traits"].update(might=1, speed=1)
    game.do("power", "ann", target="ann", trait="speed")
    assert game.p("ann")["traits"]["speed"] == 2 and game.p("ann")["power"]["tokens"] == 0
    for _ in range(3):
        game.do("end", game.state["turn"]["player"])
    with pytest.raises(IllegalAction, match="Both Healing Word tokens are spent"):
        game.do("power", "ann")


def test_flurry_of_blows(engine, dice):
    # Power: Flurry of Blows (Azadeh): after an attack roll 1 die: 0 hurts you 1; 1-2 hurts the defender
    game = table(engine, "azadeh", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("power", "ann")
    from bot.games.babg.engine import effects
    ctx = Ctx(game.c, game.state)
    before_bo = pos(game, "bo")
    dice.next(2)
    assert combat.flurry_of_blows(ctx, "ann", "bo") == 2
    effects.run(ctx)
    game.decide_all()
    assert sum(pos(game, "bo").values()) == sum(before_bo.values()) - 2
    before_ann = pos(game, "ann")
    ctx = Ctx(game.c, game.state)
    dice.next(0)
    combat.flurry_of_blows(ctx, "ann", "bo")
    effects.run(ctx)
    game.decide_all()
    assert sum(pos(game, "ann").values()) == sum(before_ann.values()) - 1


def test_bardic_inspiration_passes_and_comes_back_when_used(engine, dice):
    # Power: Bardic Inspiration (Miska): pass the token within 3 tiles; on their own turn they add 1 to a
    # roll and it comes back. Rulebook: Adventurer Powers, Bardic Inspiration
    game = table(engine, "miska", "lia", "gretchen")
    game.do("power", "ann")
    game.do("decide", "ann", choice="Bo")
    assert game.p("ann")["power"]["with"] == "bo"
    assert not power_offered(game, "ann")
    game.do("end", "ann")
    dice.next(2, 1, 0, 0)  # Lia's Knowledge 4 dice: 3, +1 would make 4
    draw_event(game, "vampiric_mist", pid="bo")
    assert game.state["pending"]["kind"] == "roll_reaction" and game.state["pending"]["player"] == "bo"
    speed = game.p("bo")["traits"]["speed"]
    game.do("decide", "bo", choice="Add 1")
    assert game.p("bo")["traits"]["speed"] == speed + 1
    assert game.p("ann")["power"]["with"] is None and not game.p("bo")["marks"]


def test_bardic_inspiration_is_kept_when_it_would_not_change_anything(engine, dice):
    # Power: Bardic Inspiration; Ruling: offered only when the 1 changes the result's band
    game = table(engine, "miska", "lia", "gretchen")
    game.do("power", "ann")
    game.do("decide", "ann", choice="Bo")
    game.do("end", "ann")
    dice.next(2, 2, 2, 2)
    draw_event(game, "vampiric_mist", pid="bo")
    assert game.state["pending"] is None and game.p("ann")["power"]["with"] == "bo"


def test_bardic_inspiration_only_on_the_inspired_players_own_turn(engine, dice):
    # Power: Bardic Inspiration ("On one of their own turns")
    game = table(engine, "miska", "lia", "gretchen")
    game.do("power", "ann")
    game.do("decide", "ann", choice="Bo")
    game.put("bo", "kitchen")
    dice.next(2, 1, 0)  # Ann's own turn: Torskar-less, Miska's Knowledge roll... Bo is not rolling
    my_turn(game, "cy")
    ctx = Ctx(game.c, game.state)
    offer = powers._bardic_offer(ctx, "bo", {"bands": [{"at_least": 4}, {"at_most": 3}], "total": 3, "faces": []})
    assert offer is None


def test_bardic_inspiration_needs_someone_within_3_tiles(engine):
    # Power: Bardic Inspiration ("within 3 tiles"); Ruling: counted through connected doorways only
    game = table(engine, "miska", "lia", "gretchen")
    game.put("bo", "kitchen_basement")
    game.put("cy", "kitchen_basement")
    assert not power_offered(game, "ann")
    with pytest.raises(IllegalAction, match="No other adventurer is within 3 tiles"):
        game.do("power", "ann")


def test_bardic_inspiration_returns_when_the_holder_dies(engine):
    # Power: Bardic Inspiration ("or the inspired adventurer dies") - the haunt engine calls this on a death
    game = table(engine, "miska", "lia", "gretchen")
    game.do("power", "ann")
    game.do("decide", "ann", choice="Bo")
    powers.return_inspiration(Ctx(game.c, game.state), "bo")
    assert game.p("ann")["power"]["with"] is None


def test_magic_missile(engine):
    # Power: Magic Missile (Dhadius): attack with Knowledge at a target up to 1 tile away. Waits for attacks.
    game = table(engine, "dhadius", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("power", "ann")
    ctx = Ctx(game.c, game.state)
    assert combat.attack_range(ctx, "ann", "knowledge") == {"elfsong_tavern", "inner_chamber"}
    assert combat.attack_range(ctx, "ann", "might") == {"elfsong_tavern"}


def test_wild_magic(engine, dice):
    # Power: Wild Magic (Ralvio): attack with Knowledge or Sanity; an extra die, a blank takes 1 off
    game = table(engine, "ralvio", "lia", "gretchen")
    with pytest.raises(IllegalAction, match="attacks begin with the haunt"):
        game.do("power", "ann")
    ctx = Ctx(game.c, game.state)
    assert {"knowledge", "sanity"} <= set(combat.attack_traits(ctx, "ann"))
    dice.next(0)
    assert combat.result_bonus(ctx, "ann", "bo", "sanity") == -1
    dice.next(2)
    assert combat.result_bonus(ctx, "ann", "bo", "sanity") == 0
    assert combat.result_bonus(ctx, "ann", "bo", "might") == 0


def test_every_power_has_a_test_here(content):
    import pathlib
    import re
    text = pathlib.Path(__file__).read_text()
    names = {a.power["name"] for a in content.adventurers.values()}
    named = set(re.findall(r"# Power: ([^(\n]+?) \(", text))
    assert names <= named, names - named


def test_power_command_on_the_local_table():
    # Rulebook: Use Your Adventurer Power; the table's `power` command
    from bot.games.babg.table import Table
    out = []
    t = Table(seed=7, out=out.append)
    for line in ("join vort as Ann", "join lia as Bo", "join gretchen as Cy", "start"):
        t.command(line)
    first = t.state["turn"]["player"]
    out.clear()
    t.command(f"as {t.state['players'][first]['name']} power")
    expected = {"ann": "Nobody on your tile", "bo": "attacks begin with the haunt", "cy": "1. Badger"}[first]
    assert any(expected in line for line in out), out
    assert t._power_action("ann", ["Bo", "sanity"]) == {"type": "power", "player": "ann", "target": "bo",
                                                          "trait": "sanity"}
    assert faces(2, 1) == [2]


def test_handing_over_a_seat_renames_power_tokens_and_marks(engine):
    # Power: Bardic Inspiration; the lead's seat handover must follow the token and the inspired mark
    game = table(engine, "miska", "lia", "gretchen")
    game.do("power", "ann")
    game.do("decide", "ann", choice="Bo")
    game.do("handover", "bo", to="zed", name="Zed")
    assert game.p("ann")["power"]["with"] == "zed"
    game.do("handover", "ann", to="amy", name="Amy")
    assert game.p("zed")["marks"][0]["by"] == "amy"
