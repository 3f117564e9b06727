"""Castle Ravenloft rules, section by section of the rulebook (each test names its section), the
FAQ's card clarifications, and a scenario for each adventure."""

import pytest

from bot.games.ravenloft.engine import (combat, data, encounters, experience, explore, geometry, heroes, items,
                                        levels, powers, state as st, tactics, treasure, turns)
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import Ctx
from bot.kit.errors import IllegalAction

C = load_content()


def started(team=("arjhan", "kat"), adv=2, seed=1, **opts):
    e = Engine(C)
    s = e.new_game(seed, dict({"adventure": adv, "first_player": "p0"}, **opts))
    for i, h in enumerate(team):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    while s["pending"]:
        s, _ = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": 1})
    return e, s


def at(s, pid, sq):
    s["players"][pid]["square"] = sq


def rolls(monkeypatch, *values):
    """The die gives these values in turn (then 10s)."""
    seq = list(values)

    def fake(state, sides):
        return seq.pop(0) if seq else 10
    for mod in (combat, encounters):
        monkeypatch.setattr(mod, "die", fake)


def card_of(monster):
    return next(c for c in C.monsters if data.card_monster(C, c) == monster)


def enc(name):
    return next(c for c in C.encounters if data.slug(data.encounter(C, c)["name"]) == data.slug(name))


def tre(name):
    return next(c for c in C.treasures if data.slug(data.treasure(C, c)["name"]) == data.slug(name))


def pull(s, card):
    for d in s["decks"].values():
        for pile in d.values():
            if card in pile:
                pile.remove(card)
                return card
    return card


def finish(e, s, choice=2):
    while s["phase"] == "play" and s["pending"]:
        s, _ = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": choice})
    return s


# ------------------------------------------------------------------ Game Setup

def test_setup_heroes_full_powers_suggested_two_surges():
    # Castle Ravenloft rulebook: Game Setup
    e, s = started(team=("thorgrim", "immeril"))
    for pid in s["seats"]:
        p = s["players"][pid]
        h = data.hero(C, p["hero"])
        assert p["hp"] == p["max_hp"] == h["hp"]
        assert set(p["powers"]) == set(h["suggested"]) and all(v == "ready" for v in p["powers"].values())
        assert len(p["items"]) == 1
    assert s["surges"] == 2
    assert len(s["decks"]["monster"]["deck"]) + len(s["decks"]["monster"]["discard"]) > 0


def test_setup_surges_from_the_adventure_unless_the_option_says():
    # Castle Ravenloft rulebook: Game Setup ("Unless the Adventure says otherwise ... two Healing Surge tokens")
    e = Engine(C)
    assert e.new_game(1, {"adventure": 2})["surges"] == C.adventures["find_the_icon_of_ravenloft"].surges
    assert e.new_game(1, {"adventure": 2, "surges": 3})["surges"] == 3


# ------------------------------------------------------------------ Hero Phase, Movement

def test_hero_phase_move_then_attack_attack_then_move_or_two_moves(monkeypatch):
    # Castle Ravenloft rulebook: Hero Phase
    rolls(monkeypatch, 1, 1, 1, 1)
    e, s = started()
    ctx = Ctx(C, s)
    at(s, "p0", "1,5")
    fig = explore.spawn(ctx, "skeleton", "1,7")
    s1, _ = e.apply(s, {"type": "move", "player": "p0", "to": "1,6"})
    s1, _ = e.apply(s1, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})
    with pytest.raises(IllegalAction):
        e.apply(s1, {"type": "move", "player": "p0", "to": "2,5"})
    at(s, "p0", "1,6")
    s2, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})
    s2, _ = e.apply(s2, {"type": "move", "player": "p0", "to": "2,5"})
    s3, _ = e.apply(s, {"type": "move", "player": "p0", "to": "2,5"})
    s3, _ = e.apply(s3, {"type": "move", "player": "p0", "to": "3,5"})
    with pytest.raises(IllegalAction):
        e.apply(s3, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})


def test_one_attack_a_hero_phase(monkeypatch):
    # Castle Ravenloft rulebook: Hero Phase (two moves, or one move and one attack)
    rolls(monkeypatch, 1, 1)
    e, s = started()
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "skeleton", "1,7")
    s, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})


def test_movement_spends_speed_squares():
    # Castle Ravenloft rulebook: How Do You Move? (Speed as a budget)
    e, s = started()
    at(s, "p0", "1,4")
    ctx = Ctx(C, s)
    sp = heroes.speed(ctx, "p0")
    far = f"1,{4 + sp + 1}"
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "move", "player": "p0", "to": far})


def test_downed_hero_cannot_move_or_attack():
    # Castle Ravenloft rulebook: Defeating Heroes (no powers, no items while at 0 HP)
    e, s = started()
    s["players"]["p0"]["hp"] = 0
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "move", "player": "p0", "to": "1,4"})
    s["players"]["p0"]["items"] = [tre("potion_of_healing")]
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "use", "player": "p0", "item": s["players"]["p0"]["items"][0], "target": "p0"})


# ------------------------------------------------------------------ Conditions

def test_one_marker_of_each_condition():
    # Castle Ravenloft rulebook: Condition: Slowed; Condition: Immobilized (one marker at a time)
    e, s = started()
    ctx = Ctx(C, s)
    heroes.add_condition(ctx, "p0", "slowed", "a test")
    heroes.add_condition(ctx, "p0", "slowed", "a test")
    assert s["players"]["p0"]["conditions"]["slowed"] is True
    heroes.add_condition(ctx, "p0", "immobilized", "a test")
    assert heroes.speed(ctx, "p0") == 0


# ------------------------------------------------------------------ Exploration and Villain Phase

def test_no_tile_off_an_edge_and_then_an_encounter():
    # Castle Ravenloft rulebook: Exploration Phase step 1; Villain Phase step 1
    e, s = started(adv=3)
    at(s, "p0", "1,2")  # on the lower Start half, not along an unexplored edge
    n = len(s["tiles"]["placed"])
    deck = len(s["decks"]["encounter"]["deck"])
    s, ev = e.apply(s, {"type": "end", "player": "p0"})
    assert len(s["tiles"]["placed"]) == n
    assert any(x["kind"] == "encounter" for x in ev) or deck != len(s["decks"]["encounter"]["deck"])


def test_white_tile_brings_no_encounter_black_one_does():
    # Castle Ravenloft rulebook: Villain Phase step 1
    for black in (False, True):
        e, s = started(adv=3)
        tile = next(t for t in s["tiles"]["stack"] if data.tile(C, t)["black"] == black)
        s["tiles"]["stack"].remove(tile)
        s["tiles"]["stack"].insert(0, tile)
        at(s, "p0", "0,5")
        s, ev = e.apply(s, {"type": "end", "player": "p0", "explore": "W"})
        drew = [x for x in ev if x["kind"] == "encounter" and "draws the encounter" in x["text"]]
        assert bool(drew) == black


def test_villain_phase_activates_the_players_monster_cards(monkeypatch):
    # Castle Ravenloft rulebook: Villain Phase step 3
    e, s = started(adv=3)
    ctx = Ctx(C, s)
    card = pull(s, card_of("zombie"))
    s["players"]["p0"]["cards"].append({"kind": "monster", "card": card})
    explore.spawn(ctx, "zombie", "2,4", card)
    calls = []
    monkeypatch.setattr(tactics, "activate", lambda c, f: calls.append(f) or True)
    s["decks"]["encounter"]["deck"] = []
    s["decks"]["encounter"]["discard"] = []
    at(s, "p0", "1,2")
    e.apply(s, {"type": "end", "player": "p0"})
    assert calls


# ------------------------------------------------------------------ Attacks and powers

def test_at_will_stays_daily_and_utility_flip(monkeypatch):
    # Castle Ravenloft rulebook: Daily Powers, At-Will Powers, Utility Powers
    rolls(monkeypatch, 15, 15)
    e, s = started(team=("thorgrim", "kat"))
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "flesh_golem", "1,7")
    s1, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "healing_strike", "target": fig["id"]})
    assert s1["players"]["p0"]["powers"]["healing_strike"] == "ready"
    s2, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "beacon_of_hope", "target": fig["id"]})
    assert s2["players"]["p0"]["powers"]["beacon_of_hope"] == "used"
    s["players"]["p1"]["hp"] = 2
    at(s, "p1", "2,6")
    s3, _ = e.apply(s, {"type": "use", "player": "p0", "power": "healing_word", "target": "p1"})
    assert s3["players"]["p0"]["powers"]["healing_word"] == "used"
    assert s3["players"]["p1"]["hp"] == min(s3["players"]["p1"]["max_hp"], 2 + data.hero(C, "kat")["surge"])


def test_targeting_adjacent_and_within_one_tile_never_diagonal():
    # Castle Ravenloft rulebook: Targeting
    e, s = started(team=("arjhan", "kat"))
    ctx = Ctx(C, s)
    explore.lay_tile(ctx, "black_x2_1" if "black_x2_1" not in s["tiles"]["placed"] else data.dungeon_tiles(C)[5],
                     "1,2", 0)
    at(s, "p0", "1,6")
    near = explore.spawn(ctx, "zombie", "1,7")
    far = explore.spawn(ctx, "zombie", "3,4")
    diag = explore.spawn(ctx, "zombie", geometry.name(*geometry.floor_squares(s, "1,2")[0]))
    adj = combat.power_targets(ctx, "p0", data.power(C, "cleave"))
    assert near["id"] in adj and far["id"] not in adj
    within = combat.power_targets(ctx, "p0", data.power(C, "trapping_strike"))
    assert near["id"] in within and diag["id"] not in within


def test_attack_hits_when_roll_plus_bonus_reaches_ac(monkeypatch):
    # Castle Ravenloft rulebook: Attack Bonus; Making an Attack; AC and HP
    e, s = started(team=("arjhan", "kat"))
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "flesh_golem", "1,7")
    pw = data.power(C, "cleave")
    need = combat.fig_ac(ctx, fig) - pw["attack"] - heroes.attack_bonus(ctx, "p0", fig)
    rolls(monkeypatch, need - 1, need)
    res = combat.hero_attack(ctx, "p0", pw, [fig["id"]])
    assert res["misses"] == [fig["id"]]
    res = combat.hero_attack(ctx, "p0", pw, [fig["id"]])
    assert res["hits"] == [fig["id"]] and fig["hp"] == fig["max_hp"] - pw["damage"]


def test_damage_stays_and_miss_damage(monkeypatch):
    # Castle Ravenloft rulebook: Damage
    e, s = started(team=("allisa", "kat"))
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "flesh_golem", "1,7")
    pw = data.power(C, "hit_and_run")
    rolls(monkeypatch, 1)
    combat.hero_attack(ctx, "p0", pw, [fig["id"]])
    assert fig["hp"] == fig["max_hp"] - pw["miss"]
    hp = s["players"]["p1"]["hp"]
    rolls(monkeypatch, 20)
    combat.monster_attack(ctx, "a test", {"attack": 0, "damage": 2, "name": "x"}, "p1")
    assert s["players"]["p1"]["hp"] == hp - 2


def test_defeating_monsters_one_treasure_a_turn():
    # Castle Ravenloft rulebook: Defeating Monsters; The Treasure Deck (one card a turn)
    e, s = started()
    ctx = Ctx(C, s)
    left = len(s["decks"]["treasure"]["deck"])
    for sq in ("2,4", "3,4"):
        fig = explore.spawn(ctx, "zombie", sq)
        combat.defeat(ctx, fig["id"], "p0")
    assert len(s["decks"]["treasure"]["deck"]) == left - 1


def test_downed_hero_takes_no_damage_and_stands_when_healed():
    # Castle Ravenloft rulebook: Defeating Heroes
    e, s = started()
    ctx = Ctx(C, s)
    s["players"]["p1"]["hp"] = 0
    assert heroes.hurt(ctx, "p1", 3, "a test") == 0
    heroes.heal(ctx, "p1", 2, "a test")
    assert heroes.standing(ctx, "p1")
    surges = s["surges"]
    turns.begin_turn(ctx, "p1")
    assert s["surges"] == surges  # healed before the turn: no surge spent


# ------------------------------------------------------------------ Other actions

def test_pick_up_an_adjacent_object_takes_no_action():
    # Castle Ravenloft rulebook: Picking Up Objects
    e, s = started()
    s["markers"].append({"id": "k90", "kind": "object", "card": None, "tile": "0,1", "square": "2,5",
                         "object": "icon", "label": "Icon", "owner": None})
    at(s, "p0", "1,5")
    s2, _ = e.apply(s, {"type": "pickup", "player": "p0", "object": "k90"})
    assert "icon" in s2["players"]["p0"]["objects"] and s2["turn"]["actions"] == []


def test_disabling_a_trap_instead_of_attacking(monkeypatch):
    # Castle Ravenloft rulebook: Disabling Traps
    e, s = started(team=("arjhan", "kat"))
    trap = pull(s, next(c for c in C.encounters if data.encounter(C, c)["type"] == "trap"))
    at(s, "p0", "1,5")
    s["markers"].append({"id": "k91", "kind": "trap", "card": trap, "tile": "0,1", "owner": "p0"})
    s["players"]["p0"]["cards"].append({"kind": "trap", "card": trap})
    need = data.encounter(C, trap)["disable"]
    rolls(monkeypatch, max(1, need - 1))
    s1, _ = e.apply(s, {"type": "disable", "player": "p0", "trap": "k91"})
    assert any(m["id"] == "k91" for m in s1["markers"]) or need - 1 < 1
    assert s1["turn"]["attacked"]
    rolls(monkeypatch, min(20, need))
    s2, _ = e.apply(s, {"type": "disable", "player": "p0", "trap": "k91"})
    assert not any(m["id"] == "k91" for m in s2["markers"])
    assert trap in s2["decks"]["encounter"]["discard"] and s2["players"]["p0"]["cards"] == []


def test_escaping_by_the_start_stairs_and_no_more_encounters():
    # Castle Ravenloft rulebook: Escaping the Dungeon; FAQ Adventure 4 (left heroes draw no encounter)
    e, s = started(adv=4)
    ctx = Ctx(C, s)
    stairs = [geometry.name(x, y) for x, y in geometry.tile_squares(0, 0) if geometry.char(s, x, y) == "S"]
    at(s, "p0", stairs[0])
    s = finish(e, e.apply(s, {"type": "end", "player": "p0"})[0])
    assert s["players"]["p0"]["escaped"]
    from bot.games.ravenloft.engine.rulesets import active
    assert active(s).draws_encounters(Ctx(C, s), "p0") is False
    del ctx


# ------------------------------------------------------------------ Decks

def test_a_spent_deck_reshuffles_its_discards():
    # Castle Ravenloft rulebook FAQ: What do we do when we draw all the cards from a deck?
    e, s = started()
    ctx = Ctx(C, s)
    d = s["decks"]["monster"]
    d["discard"] = d["deck"] + d["discard"]
    d["deck"] = []
    card = st.draw(ctx, "monster")
    assert card is not None and d["discard"] == []


def test_environment_replaces_and_cancelled_one_leaves_the_old():
    # Castle Ravenloft rulebook: The Encounter Deck (Environment)
    e, s = started()
    ctx = Ctx(C, s)
    envs = [c for c in C.encounters if data.encounter(C, c)["type"] == "environment"][:2]
    for c in envs:
        pull(s, c)
    encounters.play(ctx, "p0", envs[0])
    encounters.play(ctx, "p0", envs[1])
    assert s["environment"] == envs[1] and envs[0] in s["decks"]["encounter"]["discard"]
    s["decks"]["encounter"]["discard"].remove(envs[0])
    encounters.answer_cancel(ctx, {"card": envs[0], "player": "p0"}, "let it happen")
    s["xp"] = [pull(s, c) for c in [c for c in C.monsters if data.monster(C, data.card_monster(C, c))["xp"] >= 3][:2]]
    old = s["environment"]
    pull(s, envs[1])
    encounters.answer_cancel(ctx, {"card": envs[1], "player": "p0"}, "cancel it")
    assert s["environment"] == old


def test_trap_on_a_marked_tile_is_discarded_and_another_drawn():
    # Castle Ravenloft rulebook: The Encounter Deck (Hazards, Traps)
    e, s = started()
    ctx = Ctx(C, s)
    traps = [c for c in C.encounters if data.encounter(C, c)["type"] == "trap"]
    s["markers"].append({"id": "k92", "kind": "trap", "card": traps[0], "tile": heroes.tile(ctx, "p0"), "owner": "p0"})
    pull(s, traps[0])
    other = pull(s, enc("Ambush!") if any(data.slug(data.encounter(C, c)["name"]) == "ambush"
                                          for c in C.encounters) else traps[1])
    s["decks"]["encounter"]["deck"] = [traps[1], other] + [c for c in s["decks"]["encounter"]["deck"]
                                                            if c not in (traps[1], other)]
    s["xp"] = []
    encounters.draw_and_play(ctx, "p0")
    assert traps[1] in s["decks"]["encounter"]["discard"]


def test_blessing_lasts_to_the_end_of_the_next_turn_fortune_is_discarded():
    # Castle Ravenloft rulebook: The Treasure Deck (Blessings, Fortunes)
    e, s = started()
    ctx = Ctx(C, s)
    bless = pull(s, tre("guided_strike"))
    treasure.gain(ctx, "p0", bless)
    assert heroes.attack_bonus(ctx, "p1") >= 2
    treasure.end_of_turn(ctx, "p0")            # the turn it was drawn: it stays
    assert s["blessings"]
    s["log_turn"]["turns"] += 2
    treasure.end_of_turn(ctx, "p0")            # the end of the drawer's next turn
    assert not s["blessings"] and bless in s["decks"]["treasure"]["discard"]
    fortune = pull(s, tre("breath_of_life"))
    treasure.gain(ctx, "p0", fortune)
    assert fortune in s["decks"]["treasure"]["discard"]


def test_an_item_given_once():
    # Castle Ravenloft rulebook: The Treasure Deck (Items: keep or give, once)
    e, s = started()
    ctx = Ctx(C, s)
    item = pull(s, tre("magic_sword"))
    treasure.gain(ctx, "p0", item)
    s, _ = e.apply(s, {"type": "decide", "player": "p0", "choice": "give Kat"})
    assert item in s["players"]["p1"]["items"] and item not in s["players"]["p0"].get("holding", [])


def test_only_one_item_attack_bonus_counts():
    # Castle Ravenloft rulebook: The Treasure Deck (one attack and one defence bonus from items)
    e, s = started()
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "flesh_golem", "1,7")
    alone = []
    for it in (tre("magic_sword"), tre("holy_avenger")):
        s["players"]["p0"]["items"] = [it]
        alone.append(heroes.item_bonus(ctx, "p0", "attack", fig))
    s["players"]["p0"]["items"] = [tre("magic_sword"), tre("holy_avenger")]
    assert heroes.item_bonus(ctx, "p0", "attack", fig) == max(alone) < sum(alone)


# ------------------------------------------------------------------ Using items

def test_use_potion_of_healing_on_a_friend_next_to_you():
    # Castle Ravenloft rulebook: The Treasure Deck (an item's card says when it is used)
    e, s = started()
    pot = pull(s, tre("potion_of_healing"))
    s["players"]["p0"]["items"].append(pot)
    at(s, "p0", "1,5")
    at(s, "p1", "2,5")
    s["players"]["p1"]["hp"] = 3
    s2, _ = e.apply(s, {"type": "use", "player": "p0", "item": pot, "target": "p1"})
    assert s2["players"]["p1"]["hp"] == 5 and pot not in s2["players"]["p0"]["items"]
    assert pot in s2["decks"]["treasure"]["discard"] and s2["turn"]["actions"] == []
    at(s, "p1", "3,7")
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "use", "player": "p0", "item": pot, "target": "p1"})


def test_use_an_attack_item_takes_the_attack(monkeypatch):
    # Castle Ravenloft rulebook: Attacks (the powers of Treasure Cards); The Treasure Deck
    rolls(monkeypatch, 20)
    e, s = started()
    ctx = Ctx(C, s)
    neck = pull(s, tre("necklace_of_fireballs"))
    s["players"]["p0"]["items"].append(neck)
    at(s, "p0", "1,2")
    fig = explore.spawn(ctx, "zombie", "1,5")
    s2, _ = e.apply(s, {"type": "use", "player": "p0", "item": neck, "target": fig["id"]})
    assert fig["id"] not in s2["figures"] and s2["turn"]["attacked"]
    with pytest.raises(IllegalAction):
        e.apply(s2, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})


def test_dragons_breath_elixir_is_not_the_attack(monkeypatch):
    # Castle Ravenloft rulebook: The Treasure Deck (the card says it is not your attack)
    rolls(monkeypatch, 20)
    e, s = started()
    ctx = Ctx(C, s)
    el = pull(s, tre("dragons_breath_elixir"))
    s["players"]["p0"]["items"].append(el)
    at(s, "p0", "1,5")
    fig = explore.spawn(ctx, "zombie", "3,6")
    s2, _ = e.apply(s, {"type": "use", "player": "p0", "item": el, "target": fig["id"]})
    assert fig["id"] not in s2["figures"] and not s2["turn"]["attacked"]


def test_crystal_ball_tells_only_its_user():
    # Castle Ravenloft rulebook: The Treasure Deck
    e, s = started()
    ball = pull(s, tre("crystal_ball"))
    s["players"]["p0"]["items"].append(ball)
    s2, ev = e.apply(s, {"type": "use", "player": "p0", "item": ball, "target": "encounter"})
    top = data.encounter(C, s["decks"]["encounter"]["deck"][0])["name"]
    told = [x for x in ev if top in x["text"]]
    assert told and all(x["to"] == "p0" for x in told)


# ------------------------------------------------------------------ Experience and levels

def test_villain_card_goes_to_the_experience_pile():
    # Castle Ravenloft rulebook FAQ: Do I get Experience for defeating a Villain?
    e, s = started(adv=3)
    ctx = Ctx(C, s)
    fig = explore.spawn(ctx, "klak", "2,4", "klak", villain=True)
    combat.defeat(ctx, fig["id"], "p0")
    assert "klak" in s["xp"]


def test_level_up_on_a_natural_20_with_five_experience(monkeypatch):
    # Castle Ravenloft rulebook: Leveling Up; FAQ (the defeated monster's experience counts)
    e, s = started(team=("arjhan", "kat"))
    ctx = Ctx(C, s)
    s["xp"] = [pull(s, c) for c in [c for c in C.monsters if data.monster(C, data.card_monster(C, c))["xp"] == 3][:1]]
    at(s, "p0", "1,6")
    card = pull(s, card_of("wraith"))
    s["players"]["p0"]["cards"].append({"kind": "monster", "card": card})
    fig = explore.spawn(ctx, "wraith", "1,7", card)
    fig["hp"] = 1
    rolls(monkeypatch, 20)
    s, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})
    while s["pending"] and s["pending"]["kind"] != "level":
        s, _ = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": 1})
    assert s["pending"]["kind"] == "level"
    s, _ = e.apply(s, {"type": "decide", "player": "p0", "choice": "level up"})
    p = s["players"]["p0"]
    l2 = data.hero(C, "arjhan")["level2"]
    assert p["level"] == 2 and p["max_hp"] == l2["hp"] and heroes.stats(Ctx(C, s), "p0")["ac"] == l2["ac"]
    assert s["xp"] == []


def test_no_level_up_offer_below_five_experience():
    # Castle Ravenloft rulebook: Leveling Up
    e, s = started()
    ctx = Ctx(C, s)
    s["xp"] = []
    levels.offer_level_up(ctx, "p0")
    assert s["pending"] is None


def test_cancel_only_when_drawn():
    # Castle Ravenloft rulebook: Canceling Encounter Cards
    e, s = started()
    ctx = Ctx(C, s)
    s["xp"] = [pull(s, c) for c in [c for c in C.monsters if data.monster(C, data.card_monster(C, c))["xp"] >= 3][:2]]
    encounters.draw_and_play(ctx, "p0")
    assert s["pending"]["kind"] == "cancel"
    assert experience.total(ctx) >= 5


# ------------------------------------------------------------------ FAQ card clarifications

def test_consecrated_ground_discards_marker_and_card():
    # Castle Ravenloft rulebook FAQ: Consecrated Ground (9)
    e, s = started(team=("thorgrim", "kat"))
    s["players"]["p0"]["powers"]["consecrated_ground"] = "ready"
    trap = pull(s, next(c for c in C.encounters if data.encounter(C, c)["type"] == "trap"))
    s["markers"].append({"id": "k93", "kind": "trap", "card": trap, "tile": "0,1", "owner": "p1"})
    s["players"]["p1"]["cards"].append({"kind": "trap", "card": trap})
    at(s, "p0", "1,5")
    s, _ = e.apply(s, {"type": "use", "player": "p0", "power": "consecrated_ground", "target": "0,1"})
    assert not any(m["id"] == "k93" for m in s["markers"]) and s["players"]["p1"]["cards"] == []
    assert trap in s["decks"]["encounter"]["discard"]


def test_shield_of_faith_turns_a_hit_and_shields_those_within_one_tile(monkeypatch):
    # Castle Ravenloft rulebook FAQ: Shield of Faith (10)
    e, s = started(team=("thorgrim", "kat", "arjhan"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["shield_of_faith"] = "ready"
    at(s, "p0", "1,5")
    at(s, "p1", "2,5")
    at(s, "p2", "1,13")
    fig = explore.spawn(ctx, "wraith", "2,6")
    hp = s["players"]["p1"]["hp"]
    rolls(monkeypatch, 20)
    combat.monster_attack(ctx, "The Wraith", data.monster(C, "wraith")["attacks"]["life_draining_claw"], "p1", fig=fig)
    miss = data.monster(C, "wraith")["attacks"]["life_draining_claw"].get("miss") or 0
    assert s["players"]["p1"]["hp"] == hp - miss
    assert heroes.timed_bonus(ctx, "p1", "ac") == 2 and heroes.timed_bonus(ctx, "p2", "ac") == 0
    assert s["players"]["p0"]["powers"]["shield_of_faith"] == "used"


def test_cleave_when_immobilized_hits_an_adjacent_monster_only(monkeypatch):
    # Castle Ravenloft rulebook FAQ: Cleave (12)
    e, s = started()
    ctx = Ctx(C, s)
    at(s, "p0", "1,5")
    a = explore.spawn(ctx, "flesh_golem", "1,6")
    b = explore.spawn(ctx, "flesh_golem", "3,7")
    s["players"]["p0"]["conditions"]["immobilized"] = True
    rolls(monkeypatch, 20)
    s2, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": a["id"]})
    assert s2["players"]["p0"]["square"] == "1,5" and s2["figures"][b["id"]]["hp"] == b["max_hp"]
    c = explore.spawn(ctx, "flesh_golem", "2,6")
    s3, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": a["id"]})
    assert s3["figures"][c["id"]]["hp"] == c["max_hp"] - 1


def test_illusionary_crowd_draws_every_monster_near_its_marker():
    # Castle Ravenloft rulebook FAQ: Illusionary Crowd (49)
    e, s = started(team=("immeril", "kat"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["illusionary_crowd"] = "ready"
    explore.lay_tile(ctx, data.dungeon_tiles(C)[7], "0,2", 0)
    explore.lay_tile(ctx, data.dungeon_tiles(C)[8], "0,3", 0)
    far = explore.spawn(ctx, "zombie", geometry.name(*geometry.floor_squares(s, "0,3")[0]))
    at(s, "p0", "1,2")
    s, _ = e.apply(s, {"type": "use", "player": "p0", "power": "illusionary_crowd"})
    assert geometry.tile_at_square(s["figures"][far["id"]]["square"]) in ("0,0", "0,1")


def test_frenzy_and_howl_of_the_wolf():
    # Castle Ravenloft rulebook FAQ: Frenzy (63-64); Howl of the Wolf (66)
    e, s = started()
    ctx = Ctx(C, s)
    encounters.special(ctx, "p0", data.encounter(C, enc("frenzy")), "frenzy")
    assert s["turn"]["frenzy"]
    at(s, "p0", "1,5")
    w1 = explore.spawn(ctx, "wolf", "2,6")
    w2 = explore.spawn(ctx, "wolf", "1,13") if geometry.is_floor(s, 1, 13) else None
    acted = []
    orig = tactics.activate
    tactics.activate = lambda c, f: acted.append(f) or True
    try:
        encounters.special(ctx, "p0", data.encounter(C, enc("howl_of_the_wolf")), "howl_of_the_wolf")
    finally:
        tactics.activate = orig
    assert acted == [w1["id"]] and (w2 is None or w2["id"] not in acted)


@pytest.mark.parametrize("word", ["cyrus_belview", "prowling_ghost"])
def test_cyrus_belview_and_prowling_ghost_lay_a_tile_with_no_encounter(word):
    # Castle Ravenloft rulebook FAQ: Cyrus Belview (62); Prowling Ghost (101)
    e, s = started()
    ctx = Ctx(C, s)
    n = len(s["tiles"]["placed"])
    enc_left = len(s["decks"]["encounter"]["deck"])
    encounters.special(ctx, "p0", {"name": word}, word)
    assert len(s["tiles"]["placed"]) == n + 1 and len(s["decks"]["encounter"]["deck"]) == enc_left


def test_alarm_places_a_monster_that_acts_at_once():
    # Castle Ravenloft rulebook FAQ: Alarm (104)
    e, s = started()
    ctx = Ctx(C, s)
    alarm = pull(s, enc("alarm"))
    s["markers"].append({"id": "k94", "kind": "trap", "card": alarm, "tile": "0,1", "owner": "p0"})
    s["players"]["p0"]["cards"].append({"kind": "trap", "card": alarm})
    n = len(s["figures"])
    encounters.trap_acts(ctx, "p0", alarm)
    assert len(s["figures"]) == n + 1
    # its card now follows the Alarm in p0's cards, so it activates later in this villain phase
    assert s["players"]["p0"]["cards"][-1]["kind"] == "monster"


def test_lucky_find_draws_are_optional_and_one_is_kept():
    # Castle Ravenloft rulebook FAQ: Lucky Find (170-171)
    e, s = started()
    ctx = Ctx(C, s)
    left = len(s["decks"]["treasure"]["deck"])
    treasure.answer_lucky(ctx, {"player": "p0"}, "draw none")
    assert len(s["decks"]["treasure"]["deck"]) == left
    treasure.answer_lucky(ctx, {"player": "p0"}, "draw 2")
    assert len(s["decks"]["treasure"]["deck"]) == left - 2


# ------------------------------------------------------------------ Take-back

def test_undo_takes_back_moves_until_a_draw():
    # Castle Ravenloft rulebook: Hero Phase (a take-back before anything hidden comes out)
    e, s = started()
    start = s["players"]["p0"]["square"]
    s1, _ = e.apply(s, {"type": "move", "player": "p0", "to": "1,5"})
    s2, _ = e.apply(s1, {"type": "move", "player": "p0", "to": "2,6"})
    with pytest.raises(IllegalAction):
        e.apply(s2, {"type": "undo", "player": "p1"})
    b1, ev = e.apply(s2, {"type": "undo", "player": "p0"})
    assert b1["players"]["p0"]["square"] == "1,5" and "takes back" in ev[0]["text"]
    b0, _ = e.apply(b1, {"type": "undo", "player": "p0"})
    assert b0["players"]["p0"]["square"] == start
    with pytest.raises(IllegalAction):
        e.apply(b0, {"type": "undo", "player": "p0"})
    after_end, _ = e.apply(s1, {"type": "end", "player": "p1"} if False else {"type": "end", "player": "p0"})
    with pytest.raises(IllegalAction):
        e.apply(after_end, {"type": "undo", "player": "p0"})


def test_undo_stops_at_a_roll(monkeypatch):
    # Castle Ravenloft rulebook: Attacks (a die rolled cannot be taken back)
    e, s = started()
    ctx = Ctx(C, s)
    at(s, "p0", "1,6")
    fig = explore.spawn(ctx, "flesh_golem", "1,7")
    s1, _ = e.apply(s, {"type": "attack", "player": "p0", "power": "cleave", "target": fig["id"]})
    with pytest.raises(IllegalAction):
        e.apply(s1, {"type": "undo", "player": "p0"})


# ------------------------------------------------------------------ Adventures

def test_adventure_1_setup_strahd_rises_and_the_stairway_wins():
    # Castle Ravenloft rulebook: Winning the Game (Adventure 1, Escape the Tomb)
    e, s = started(team=("kat",), adv=1)
    rec = C.adventures["escape_the_tomb"]
    assert "secret_stairway" in s["tiles"]["stack"] and len(s["seats"]) == 1
    del rec


def test_adventure_2_chapel_guards_and_icon(monkeypatch):
    # Castle Ravenloft rulebook FAQ: Adventure 2 (one more Monster on the Chapel than players)
    e, s = started(team=("arjhan", "kat"), adv=2)
    from bot.games.ravenloft.engine.rulesets import active
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("chapel")
    k = explore.place_tile_anywhere(ctx, "p0", "chapel", geometry.all_unexplored(s)[0])
    explore.place_monster(ctx, "p0", k)
    active(s).tile_placed(ctx, k, "p0")
    guards = active(s).record(s)["tile_guards"][k]
    assert len(guards) == len(s["seats"]) + 1
    assert active(s).extra_encounters(ctx, "p0") == 1
    for f in guards:
        if f in s["figures"]:
            combat.defeat(ctx, f, None)
    assert turns.over(ctx) is False
    icon = next(m for m in s["markers"] if m.get("object"))
    s["players"]["p0"].setdefault("objects", []).append(icon["object"])
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "victory"


def test_adventure_2_defeat_is_the_standard_one():
    # Castle Ravenloft rulebook: Winning the Game (the standard defeat)
    e, s = started(adv=2)
    s["surges"] = 0
    s["players"]["p1"]["hp"] = 0
    s = finish(e, e.apply(s, {"type": "end", "player": "p0"})[0])
    assert s["outcome"]["result"] == "defeat"


def test_adventure_3_klak_and_his_artifact():
    # Castle Ravenloft rulebook: Adventure 3 (Klak's Infernal Artifact), with our provisional reading
    e, s = started(adv=3)
    from bot.games.ravenloft.engine.rulesets import active
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("laboratory")
    k = explore.place_tile_anywhere(ctx, "p0", "laboratory", geometry.all_unexplored(s)[0])
    active(s).tile_placed(ctx, k, "p0")
    klak = next(f for f in s["figures"].values() if f["monster"] == "klak")
    art = next(f for f in s["figures"].values() if f.get("object"))
    hp = s["players"]["p0"]["hp"]
    active(s).cancelled(ctx, "p0")
    assert s["players"]["p0"]["hp"] == hp - 1
    combat.defeat(ctx, klak["id"], None)
    turns.check_end(ctx)
    assert s["outcome"] is None
    combat.defeat(ctx, art["id"], None)
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "victory"


def test_adventure_4_items_carried_out():
    # Castle Ravenloft rulebook FAQ: Adventure 4 (only Items count, starting ones included)
    e, s = started(team=("kat",), adv=4)
    ctx = Ctx(C, s)
    from bot.games.ravenloft.engine.rulesets import active
    its = [c for c in C.treasures if data.treasure(C, c)["type"] == "item"][:12]
    s["players"]["p0"]["items"] = its[:11]
    s["players"]["p0"]["escaped"] = True
    assert active(s).check(ctx) != ("victory",) and (active(s).check(ctx) or ("",))[0] != "victory"
    s["players"]["p0"]["items"] = its
    assert active(s).check(ctx)[0] == "victory"
    assert active(s).extra_encounters(ctx, "p0") == 1


def test_adventure_5_tokens_come_off_with_the_vampire_there():
    # Castle Ravenloft rulebook: Adventure 5 (The Final Transformation), our provisional reading
    e, s = started(adv=5)
    from bot.games.ravenloft.engine.rulesets import active
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("dark_fountain")
    k = explore.place_tile_anywhere(ctx, "p0", "dark_fountain", geometry.all_unexplored(s)[0])
    active(s).tile_placed(ctx, k, "p0")
    vamp = next(f for f in s["figures"].values() if f["monster"] == "young_vampire")
    assert active(s).record(s)["fountain_tokens"] == 5
    at(s, "p0", next(geometry.name(*q) for q in geometry.floor_squares(s, k)
                     if geometry.name(*q) not in st.squares_of_figures(s)))
    for _ in range(5):
        active(s).hero_phase_ended(ctx, "p0")
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "victory"
    e, s = started(adv=5)
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("dark_fountain")
    k = explore.place_tile_anywhere(ctx, "p0", "dark_fountain", geometry.all_unexplored(s)[0])
    active(s).tile_placed(ctx, k, "p0")
    vamp = next(f for f in s["figures"].values() if f["monster"] == "young_vampire")
    combat.defeat(ctx, vamp["id"], "p0")
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "defeat"


def test_phylactery_hunt_phylactery_feeds_the_dragon_and_breaking_it_wins():
    # Castle Ravenloft rulebook: Rules for Later Adventures (our adventure on book adventure 6)
    e, s = started(adv="the_phylactery_hunt")
    from bot.games.ravenloft.engine.rulesets import active
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("arcane_circle")
    k = explore.place_tile_anywhere(ctx, "p0", "arcane_circle", geometry.all_unexplored(s)[0])
    active(s).tile_placed(ctx, k, "p0")
    phyl = next(f for f in s["figures"].values() if f["monster"] == "phylactery")
    g = explore.spawn(ctx, "gravestorm", "3,13" if geometry.is_floor(s, 3, 13) else "2,4", villain=True)
    g["hp"] = 10
    active(s).villain_phase_started(ctx, "p0")
    assert g["hp"] == 12
    combat.defeat(ctx, phyl["id"], "p0")
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "victory"


def test_wings_over_the_fog_starts_in_blood_fog():
    # Castle Ravenloft rulebook: The Encounter Deck (Environment; our adventure on book adventure 10)
    e, s = started(adv="wings_over_the_fog")
    assert data.slug(data.encounter(C, s["environment"])["name"]) == "bloodfog"
    assert s["environment"] not in s["decks"]["encounter"]["deck"]


def test_stitched_servant_notes_and_the_golem_breaking_out():
    # Castle Ravenloft rulebook: Rules for Later Adventures (our adventure on book adventure 11)
    e, s = started(adv="the_stitched_servant")
    from bot.games.ravenloft.engine.rulesets import active
    ctx = Ctx(C, s)
    s["tiles"]["stack"].remove("laboratory")
    k = explore.place_tile_anywhere(ctx, "p0", "laboratory", geometry.all_unexplored(s)[0])
    golem = explore.spawn(ctx, "flesh_golem", geometry.name(*geometry.floor_squares(s, k)[-1]), villain=True)
    before = heroes.attack_bonus(ctx, "p0", golem)
    at(s, "p0", geometry.name(*geometry.floor_squares(s, k)[0]))
    active(s).hero_phase_ended(ctx, "p0")
    assert heroes.attack_bonus(ctx, "p0", golem) == before + 2
    golem["square"] = "3,2"
    turns.check_end(ctx)
    assert s["outcome"]["result"] == "defeat"


def test_powers_use_targets_healing_word_within_one_tile():
    # Castle Ravenloft rulebook: Utility Powers (Healing Word)
    e, s = started(team=("thorgrim", "kat"))
    ctx = Ctx(C, s)
    s["players"]["p1"]["hp"] = 1
    at(s, "p1", "1,13")
    assert "p1" not in powers.use_targets(ctx, "p0", "healing_word")
    assert items.targets(ctx, "p0", tre("crystal_ball"))


def test_music_of_the_damned_places_the_higher_level_and_asks_on_a_tie():
    # Castle Ravenloft rulebook FAQ: Music of the Damned (57)
    e, s = started()
    ctx = Ctx(C, s)
    s["environment"] = pull(s, enc("music_of_the_damned"))
    by_level = {}
    for c in C.monsters:
        by_level.setdefault(data.monster(C, data.card_monster(C, c))["level"], []).append(c)
    lo, hi = min(by_level), max(by_level)
    a, b = by_level[lo][0], by_level[hi][0]
    for c in (a, b):
        pull(s, c)
    s["decks"]["monster"]["deck"][:0] = [a, b]
    s["players"]["p0"]["cards"] = []
    fig = explore.place_monster(ctx, "p0", "0,1")
    assert fig["monster"] == data.card_monster(C, b) and a in s["decks"]["monster"]["discard"]
    same = [c for c in by_level[lo] if data.card_monster(C, c) != data.card_monster(C, a)]
    if same:
        x, y = a, pull(s, same[0])
        s["decks"]["monster"]["discard"].remove(x)
        s["decks"]["monster"]["deck"][:0] = [x, y]
        s["players"]["p1"]["cards"] = []
        s["pending"], s["questions"] = None, []
        fig = explore.place_monster(ctx, "p1", "0,1")
        q = s["pending"]
        assert q["kind"] == "music" and q["player"] == "p1"
        s2, _ = e.apply(s, {"type": "decide", "player": "p1", "choice": 2})
        assert s2["figures"][fig["id"]]["monster"] == data.card_monster(C, y)


def test_shield_turns_a_hit_into_a_miss(monkeypatch):
    # Castle Ravenloft rulebook: Utility Powers (a reaction "to counter a Monster's attack")
    e, s = started(team=("immeril", "kat"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["shield"] = "ready"
    fig = explore.spawn(ctx, "wraith", "2,4")
    atk = data.monster(C, "wraith")["attacks"]["life_draining_claw"]
    rolls(monkeypatch, 20)
    hp = s["players"]["p0"]["hp"]
    combat.monster_attack(ctx, "The Wraith", atk, "p0", fig=fig)
    assert s["players"]["p0"]["hp"] == hp - (atk.get("miss") or 0)
    assert s["players"]["p0"]["powers"]["shield"] == "used" and heroes.timed_bonus(ctx, "p0", "ac") == 2


def test_dispel_magic_cancels_the_encounter_drawn():
    # Castle Ravenloft rulebook: Canceling Encounter Cards; Utility Powers (Dispel Magic)
    e, s = started(team=("immeril", "kat"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["dispel_magic"] = "ready"
    s["xp"] = []
    top = s["decks"]["encounter"]["deck"][0]
    encounters.draw_and_play(ctx, "p0")
    assert s["pending"]["options"][0] == "dispel it"
    s2, _ = e.apply(s, {"type": "decide", "player": "p0", "choice": "dispel it"})
    assert top in s2["decks"]["encounter"]["discard"] and s2["players"]["p0"]["powers"]["dispel_magic"] == "used"


def test_stealth_throws_the_monster_card_away():
    # Castle Ravenloft rulebook: Exploration Phase step 3; Utility Powers (Stealth)
    e, s = started(team=("kat", "arjhan"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["stealth"] = "ready"
    fig = explore.place_monster(ctx, "p0", "0,1")
    assert s["pending"]["kind"] == "stealth"
    s2, _ = e.apply(s, {"type": "decide", "player": "p0", "choice": "use Stealth"})
    assert fig["id"] not in s2["figures"] and fig["card"] in s2["decks"]["monster"]["discard"]


def test_unbalancing_parry_turns_a_hit_and_pushes_the_monster_within_one_tile(monkeypatch):
    # Castle Ravenloft rulebook: Utility Powers (a reaction "to counter a Monster's attack"); the card:
    # Unbalancing Parry (an adjacent monster's hit misses, and the monster is moved within 1 tile)
    e, s = started(team=("allisa", "kat"))
    ctx = Ctx(C, s)
    s["players"]["p0"]["powers"]["unbalancing_parry"] = "ready"
    me = geometry.parse(s["players"]["p0"]["square"])
    fig = explore.spawn(ctx, "wraith", geometry.name(me[0] - 1, me[1]))
    atk = data.monster(C, "wraith")["attacks"]["life_draining_claw"]
    rolls(monkeypatch, 20)
    hp = s["players"]["p0"]["hp"]
    combat.monster_attack(ctx, "The Wraith", atk, "p0", fig=fig)
    assert s["players"]["p0"]["hp"] == hp - (atk.get("miss") or 0)
    assert s["players"]["p0"]["powers"]["unbalancing_parry"] == "used"
    to = geometry.parse(fig["square"])
    assert geometry.tile_distances(s, [heroes.tile(ctx, "p0")])[geometry.tile_at_square(fig["square"])] <= 1
    assert geometry.is_floor(s, *to) and fig["square"] not in heroes.hero_squares(ctx)
    assert not any(geometry.adjacent(to, heroes.xy(ctx, q)) for q in ("p0", "p1")), \
        "pushed where it stands next to no hero (the room allows it)"
    # the push moves only a figure of one square: a large one stays
    big = explore.spawn(ctx, "wraith", geometry.name(me[0] - 1, me[1] - 1))
    big["squares"] = [big["square"], geometry.name(me[0] - 2, me[1] - 1)]
    s["players"]["p0"]["powers"]["unbalancing_parry"] = "ready"
    rolls(monkeypatch, 20)
    combat.monster_attack(ctx, "The Wraith", atk, "p0", fig=big)
    assert s["players"]["p0"]["powers"]["unbalancing_parry"] == "used" and big["square"] == geometry.name(me[0] - 1,
                                                                                                          me[1] - 1)


def test_music_of_the_damned_answered_late_takes_the_other_card_from_wherever_it_went():
    # Castle Ravenloft rulebook FAQ: Music of the Damned (57); Decks (an empty deck reshuffles its discards):
    # questions wait in turn, so by the answer the other card may be back in the deck, or drawn for another
    e, s = started()
    ctx = Ctx(C, s)
    s["environment"] = pull(s, enc("music_of_the_damned"))
    level = {}
    for c in C.monsters:
        level.setdefault(data.monster(C, data.card_monster(C, c))["level"], []).append(c)
    x, y = next((cs[0], o) for cs in level.values() for o in cs
                if data.card_monster(C, o) != data.card_monster(C, cs[0]))
    for c in (x, y):
        pull(s, c)
    s["decks"]["monster"]["deck"][:0] = [x, y]
    s["players"]["p1"]["cards"] = []
    fig = explore.place_monster(ctx, "p1", "0,1")
    other = s["pending"]["cards"][1]
    monsters = s["decks"]["monster"]
    monsters["discard"].remove(other)  # shuffled back into the deck meanwhile
    monsters["deck"].insert(3, other)
    s2, _ = e.apply(s, {"type": "decide", "player": "p1", "choice": 2})
    assert s2["figures"][fig["id"]]["monster"] == data.card_monster(C, other)
    assert other not in s2["decks"]["monster"]["deck"] and s["pending"]["cards"][0] in s2["decks"]["monster"]["discard"]
    # drawn for another monster meanwhile: the one placed stays, and the table is told
    monsters["deck"].remove(other)
    s3, events = e.apply(s, {"type": "decide", "player": "p1", "choice": 2})
    assert s3["figures"][fig["id"]]["monster"] == fig["monster"] and any("drawn since" in ev["text"] for ev in events)
