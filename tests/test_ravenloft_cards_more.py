"""Castle Ravenloft cards the engine now carries out itself: encounter cards whose choice or target
was left undone (Gray Ooze, Prowling Spirits, Reinforcements, Summoning Circle, Fire Trap), the
reaction powers it plays for their owner (engine/reactions.py), the hero-phase powers offered as
`use` actions (engine/powers.py) and three items. Each test sets a small dungeon, plays the card and
checks its effect; a hero's choice is asked and answered with `decide`."""

from bot.games.ravenloft.engine import (combat, data, encounter_rules, encounters, explore, geometry, legal, powers,
                                        treasure)
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import Ctx
from tests.test_ravenloft_encounters import decide, play, rolls, tile_of
from tests.test_ravenloft_encounters import started as opening

C = load_content()
OPEN = "black_x4_6"  # a tile open on all four sides


def started(team=("arjhan", "kat")):
    """The encounter tests' opening (heroes p0 on 1,5 and p1 on 3,1, open tiles north), with no item either."""
    e, s = opening(team)
    for p in s["players"].values():
        p["items"] = []
    return e, s


def spawn(s, monster, sq, holder=None):
    mcard = None
    if holder:
        mcard = next(c for c in C.monsters if data.card_monster(C, c) == monster)
        s["players"][holder]["cards"].append({"kind": "monster", "card": mcard})
    return explore.spawn(Ctx(C, s), monster, sq, mcard)


def card(name):
    ids = [c for c in C.encounters if data.slug(data.encounter(C, c)["name"]) == data.slug(name)]
    return sorted(ids, key=lambda c: data.encounter(C, c)["type"] == "environment")[0]




def give_power(s, pid, power_id):
    s["players"][pid]["powers"][power_id] = "ready"


# ------------------------------------------------------------------ encounter cards


def test_gray_ooze_hit_eats_a_random_treasure(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Gray Ooze (94): a hit costs a random treasure
    rolls(monkeypatch, 19, 2)  # the attack hits; the die picks the second item
    e, s = started()
    s["players"]["p0"]["items"] = ["magic_sword_186", "thieves_tools_194"]
    play(s, "Gray Ooze")
    assert s["players"]["p0"]["items"] == ["magic_sword_186"]
    assert "thieves_tools_194" in s["decks"]["treasure"]["discard"]


def test_gray_ooze_miss_leaves_the_treasure(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Gray Ooze (94)
    rolls(monkeypatch, 1)
    e, s = started()
    s["players"]["p0"]["items"] = ["magic_sword_186"]
    play(s, "Gray Ooze")
    assert s["players"]["p0"]["items"] == ["magic_sword_186"]


def test_prowling_spirits_asks_which_treasure_is_given_up():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Prowling Spirits (77): the hero's choice
    e, s = started()
    s["players"]["p0"]["items"] = ["magic_sword_186", "thieves_tools_194"]
    play(s, "Prowling Spirits")
    q = s["pending"]
    assert q["player"] == "p0" and q["options"] == ["Magic Sword", "Thieves' Tools"]
    s, _ = decide(e, s, "Thieves")
    assert s["players"]["p0"]["items"] == ["magic_sword_186"]


def test_reinforcements_the_hero_with_fewest_monster_cards_picks_the_tile():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Reinforcements (78)
    e, s = started()
    spawn(s, "skeleton", "1,9", holder="p0")  # p0 holds a card: p1 holds fewest
    play(s, "Reinforcements")
    q = s["pending"]
    assert q["player"] == "p1" and all("tile" in o for o in q["options"]) and len(q["options"]) > 1
    s, _ = decide(e, s, "tile 0,3")
    assert len(s["players"]["p1"]["cards"]) == 1
    assert sorted(geometry.tile_at_square(f["square"]) for f in s["figures"].values()) == ["0,2", "0,3"]


def test_reinforcements_tie_the_active_hero_names_who_places_it():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Reinforcements (78)
    e, s = started()
    play(s, "Reinforcements")
    assert s["pending"]["player"] == "p0" and s["pending"]["options"] == ["Arjhan", "Kat"]
    s, _ = decide(e, s, "Kat")
    assert s["pending"]["player"] == "p1"


def test_summoning_circle_puts_the_monster_next_to_the_active_hero():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Summoning Circle (85)
    e, s = started()
    play(s, "Summoning Circle")
    (fig,) = s["figures"].values()
    assert geometry.adjacent(geometry.parse(fig["square"]), geometry.parse("1,5"))
    assert len(s["players"]["p0"]["cards"]) == 1


def test_fire_trap_burns_the_heroes_on_its_own_tile():
    # Castle Ravenloft rulebook: Encounter Cards (Traps) - Fire Trap (108): every hero on its tile
    e, s = started()
    s["players"]["p1"]["square"] = "1,9"  # p1 on tile 0,2, p0 (the trap's holder) on tile 0,1
    s["markers"].append({"id": "k1", "kind": "trap", "card": card("Fire Trap"), "tile": "0,2", "owner": "p0"})
    before = {p: s["players"][p]["hp"] for p in ("p0", "p1")}
    encounters.trap_acts(Ctx(C, s), "p0", card("Fire Trap"))
    assert s["players"]["p1"]["hp"] == before["p1"] - 2 and s["players"]["p0"]["hp"] == before["p0"]


# ------------------------------------------------------------------ reactions the engine plays


def test_crucial_aid_adds_four_to_another_heros_missed_attack(monkeypatch):
    # Castle Ravenloft rulebook: Powers (Utility) - Crucial Aid (28): +4 to another hero's roll
    rolls(monkeypatch, 5)
    e, s = started(("kat", "allisa"))
    give_power(s, "p1", "crucial_aid")
    fig = spawn(s, "skeleton", "1,6")
    need = combat.fig_ac(Ctx(C, s), fig)
    pw = dict(data.power(C, "magic_missile"), attack=need - 5 - 3)  # a 5 misses by 3: the +4 makes it a hit
    res = combat.hero_attack(Ctx(C, s), "p0", pw, [fig["id"]])
    assert res["hits"] == [fig["id"]] and s["players"]["p1"]["powers"]["crucial_aid"] == "used"


def test_lucky_charm_rerolls_a_missed_daily_attack(monkeypatch):
    # Castle Ravenloft rulebook: The Treasure Deck (Items) - Lucky Charm (183): roll the die again
    rolls(monkeypatch, 1, 19)
    e, s = started()
    s["players"]["p0"]["items"] = ["lucky_charm_183"]
    fig = spawn(s, "skeleton", "1,6")
    pw = dict(data.power(C, "magic_missile"), type="daily", attack=5, damage=1)
    res = combat.hero_attack(Ctx(C, s), "p0", pw, [fig["id"]])
    assert res["hits"] == [fig["id"]] and s["players"]["p0"]["items"] == []


def test_riposte_strike_answers_an_adjacent_monsters_attack(monkeypatch):
    # Castle Ravenloft rulebook: Powers (Daily) - Riposte Strike (37): strike back; a miss keeps the card
    rolls(monkeypatch, 1, 20)  # the monster misses; Kat's riposte hits
    e, s = started(("kat", "arjhan"))
    give_power(s, "p0", "riposte_strike")
    fig = spawn(s, "skeleton", "1,6")
    hp = fig["hp"]
    atk = {"name": "a blade", "attack": 5, "damage": 1}
    combat.monster_attack(Ctx(C, s), "The Skeleton", atk, "p0", fig=fig)
    assert fig["id"] not in s["figures"] or s["figures"][fig["id"]]["hp"] < hp
    assert s["players"]["p0"]["powers"]["riposte_strike"] == "used"


def test_riposte_strike_that_misses_stays_face_up(monkeypatch):
    # Castle Ravenloft rulebook: Powers (Daily) - Riposte Strike (37)
    rolls(monkeypatch, 1, 1)
    e, s = started(("kat", "arjhan"))
    give_power(s, "p0", "riposte_strike")
    fig = spawn(s, "skeleton", "1,6")
    combat.monster_attack(Ctx(C, s), "The Skeleton", {"name": "a blade", "attack": 5, "damage": 1}, "p0", fig=fig)
    assert s["players"]["p0"]["powers"]["riposte_strike"] == "ready"


def test_yield_ground_moves_a_damaged_hero_out_of_reach(monkeypatch):
    # Castle Ravenloft rulebook: Powers (Utility) - Yield Ground (30): after the damage, move up to Speed
    rolls(monkeypatch, 20)
    e, s = started(("allisa", "arjhan"))
    give_power(s, "p0", "yield_ground")
    fig = spawn(s, "skeleton", "1,6")
    combat.monster_attack(Ctx(C, s), "The Skeleton", {"name": "a blade", "attack": 5, "damage": 1}, "p0", fig=fig)
    me = geometry.parse(s["players"]["p0"]["square"])
    assert not geometry.adjacent(me, geometry.parse(fig["square"]))
    assert s["players"]["p0"]["powers"]["yield_ground"] == "used"


def test_spring_away_carries_a_hero_out_of_an_encounters_reach(monkeypatch):
    # Castle Ravenloft rulebook: Powers (Utility) - Spring Away (39): before the card resolves, 2 tiles away
    rolls(monkeypatch, 20, 20)
    e, s = started(("arjhan", "kat"))
    give_power(s, "p1", "spring_away")
    s["players"]["p1"]["square"] = "2,5"  # on the active hero's tile
    hp = s["players"]["p1"]["hp"]
    play(s, "Hands of the Dead")
    assert tile_of(s, "p1") in ("0,3",) and s["players"]["p1"]["hp"] == hp
    assert s["players"]["p1"]["powers"]["spring_away"] == "used"


# ------------------------------------------------------------------ powers used in the hero phase


def _use(e, s, **fields):
    a = {"type": "use", "player": "p0", **fields}
    assert a in legal.legal_actions(C, s, "p0")
    return e.apply(s, a)


def test_fey_step_puts_the_hero_on_a_tile_within_one():
    # Castle Ravenloft rulebook: Powers (Utility) - Fey Step (41)
    e, s = started(("immeril", "kat"))
    give_power(s, "p0", "fey_step")
    s, _ = _use(e, s, power="fey_step", target="0,2")
    assert tile_of(s, "p0") == "0,2" and s["turn"]["actions"] == []
    assert s["players"]["p0"]["powers"]["fey_step"] == "used"


def test_great_leap_goes_two_tiles_in_place_of_a_move():
    # Castle Ravenloft rulebook: Powers (Utility) - Great Leap (38): instead of moving
    e, s = started(("kat", "arjhan"))
    give_power(s, "p0", "great_leap")
    s, _ = _use(e, s, power="great_leap", target="0,3")
    assert tile_of(s, "p0") == "0,3" and s["turn"]["actions"] == ["move"]


def test_get_over_there_lands_next_to_a_monster_two_tiles_off():
    # Castle Ravenloft rulebook: Powers (Utility) - Get Over There (19)
    e, s = started(("arjhan", "kat"))
    give_power(s, "p0", "get_over_there")
    fig = spawn(s, "skeleton", "1,13")  # tile 0,3: two tiles from tile 0,1
    s, _ = _use(e, s, power="get_over_there", target=fig["id"])
    assert geometry.adjacent(geometry.parse(s["players"]["p0"]["square"]), geometry.parse("1,13"))


def test_freezing_cloud_bites_the_monsters_under_it_as_each_hero_phase_ends():
    # Castle Ravenloft rulebook: Powers (Daily) - Freezing Cloud (47): 3 tokens, 1 damage each hero phase end
    e, s = started(("immeril", "kat"))
    give_power(s, "p0", "freezing_cloud")
    fig = spawn(s, "zombie", "1,9")
    s, _ = _use(e, s, power="freezing_cloud", target="0,2")
    assert s["turn"]["attacked"] and s["players"]["p0"]["powers"]["freezing_cloud"] == "used"
    cloud = next(m for m in s["markers"] if m["kind"] == "freezing_cloud")
    s["figures"][fig["id"]]["hp"] = 3
    powers.hero_phase_ended(Ctx(C, s), "p0")
    assert s["figures"][fig["id"]]["hp"] == 2 and cloud["tokens"] == 2


# ------------------------------------------------------------------ items


def test_wand_of_teleportation_asks_where_the_monsters_are_flung():
    # Castle Ravenloft rulebook: The Treasure Deck (Items) - Wand of Teleportation (195)
    e, s = started()
    s["players"]["p0"]["items"] = ["wand_of_teleportation_195"]
    fig = spawn(s, "skeleton", "1,9")
    s, _ = _use(e, s, item="wand_of_teleportation_195", target="0,2")
    q = s["pending"]
    assert q["kind"] == "item" and "tile 0,4" in q["options"] and "tile 0,2" not in q["options"]
    s, _ = decide(e, s, "tile 0,4")
    assert geometry.tile_at_square(s["figures"][fig["id"]]["square"]) == "0,4"


def test_ring_of_regeneration_offers_a_hit_point_for_the_treasure():
    # Castle Ravenloft rulebook: The Treasure Deck (Items) - Ring of Regeneration (192)
    e, s = started()
    s["players"]["p0"]["items"] = ["ring_of_regeneration_192"]
    s["players"]["p0"]["hp"] -= 2
    hp, deck = s["players"]["p0"]["hp"], list(s["decks"]["treasure"]["deck"])
    treasure.draw_for_defeat(Ctx(C, s), "p0")
    assert s["pending"]["kind"] == "item"
    s, _ = decide(e, s, "regain 1 Hit Point")
    assert s["players"]["p0"]["hp"] == hp + 1 and s["decks"]["treasure"]["deck"] == deck
