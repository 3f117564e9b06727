"""Castle Ravenloft encounter cards the engine carries out itself (engine/encounter_rules.py): each test
sets a small dungeon, plays one card and checks its effect; a hero's choice is asked and answered with
`decide`. Every test names its source: the rulebook's Encounter Cards section and the card."""

import pytest

from bot.games.ravenloft.engine import (combat, data, encounter_rules, encounters, explore, geometry, heroes,
                                        turns)
from bot.games.ravenloft.engine.content import load_content
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import Ctx

C = load_content()
OPEN = "black_x4_6"  # a tile open on all four sides, its bone pile at 1,2 of its grid


def started(team=("arjhan", "kat")):
    """Two heroes on the Start tile (0,0 and 0,1) and an open tile at 0,2, 0,3 and 0,4 (a line north);
    no monster, no other tile."""
    e = Engine(C)
    s = e.new_game(1, {"adventure": 2, "first_player": "p0"})
    for i, h in enumerate(team):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    while s["pending"]:
        s, _ = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": 1})
    s["tiles"]["placed"] = {k: v for k, v in s["tiles"]["placed"].items() if v["start"]}
    s["figures"] = {}
    s["markers"] = []
    s["environment"] = None
    for p in s["players"].values():
        p["cards"] = []
    ctx = Ctx(C, s)
    for k in ("0,2", "0,3", "0,4"):
        explore.lay_tile(ctx, OPEN, k, 0)
    at(s, "p0", "1,5")
    at(s, "p1", "3,1")
    return e, s


def at(s, pid, sq):
    s["players"][pid]["square"] = sq


def card(name):
    """The card of that name (the event before the environment: Spirit of Doom is both)."""
    ids = [c for c in C.encounters if data.slug(data.encounter(C, c)["name"]) == data.slug(name)]
    return sorted(ids, key=lambda c: data.encounter(C, c)["type"] == "environment")[0]


def spawn(s, monster, sq, holder=None):
    """A monster figure; with `holder`, one of its cards goes in front of that hero."""
    ctx = Ctx(C, s)
    mcard = None
    if holder:
        mcard = next(c for c in C.monsters if data.card_monster(C, c) == monster)
        s["players"][holder]["cards"].append({"kind": "monster", "card": mcard})
    return explore.spawn(ctx, monster, sq, mcard)


def rolls(monkeypatch, *values):
    """The die gives these values in turn (then 10s)."""
    seq = list(values)

    def fake(state, sides):
        return seq.pop(0) if seq else 10
    for mod in (combat, encounters, encounter_rules):
        monkeypatch.setattr(mod, "die", fake)


def play(s, name, pid="p0"):
    ctx = Ctx(C, s)
    encounters.play(ctx, pid, card(name))
    return ctx.events


def decide(e, s, option_text):
    q = s["pending"]
    choice = next(o for o in q["options"] if option_text in o)
    return e.apply(s, {"type": "decide", "player": q["player"], "choice": choice})


def tile_of(s, pid):
    return geometry.tile_at_square(s["players"][pid]["square"])


def fig_tile(fig):
    return geometry.tile_at_square(fig["square"])


# ------------------------------------------------------------------ events


def test_bubbling_cauldron_sets_every_monster_one_tile_nearer():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Bubbling Cauldron (59)
    e, s = started()
    far = spawn(s, "skeleton", "1,17")     # tile 0,4: three tiles from the hero on 0,1
    near = spawn(s, "zombie", "2,4")       # on the hero's own tile: stays
    play(s, "Bubbling Cauldron")
    assert fig_tile(far) == "0,3" and near["square"] == "2,4"


def test_corner_of_your_eye_asks_the_tile_then_rolls(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Corner of Your Eye (60)
    rolls(monkeypatch, 17)
    e, s = started()
    s["players"]["p0"]["powers"]["dragons_breath"] = "used"
    play(s, "Corner of Your Eye")
    q = s["pending"]
    assert q["kind"] == "encounter" and q["player"] == "p0" and len(q["options"]) == 2  # tiles 0,0 and 0,2
    s, _ = decide(e, s, "tile 0,2")
    assert tile_of(s, "p0") == "0,2"
    assert s["players"]["p0"]["powers"]["dragons_breath"] == "ready"  # 16-20: a used power face up


def test_corner_of_your_eye_low_roll_brings_a_monster_to_the_new_tile(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Corner of Your Eye (60)
    rolls(monkeypatch, 3)
    e, s = started()
    play(s, "Corner of Your Eye")
    s, _ = decide(e, s, "tile 0,2")
    assert [fig_tile(f) for f in s["figures"].values()] == ["0,2"]


def test_cowardly_flight_carries_the_nearest_monster_to_a_tile_from_the_bottom():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Cowardly Flight (61)
    e, s = started()
    bottom = s["tiles"]["stack"][-1]
    near = spawn(s, "skeleton", "2,6")
    far = spawn(s, "zombie", "2,16")
    play(s, "Cowardly Flight")
    new = next(k for k, v in s["tiles"]["placed"].items() if v["tile"] == bottom)
    assert fig_tile(near) == new and fig_tile(far) == "0,4"
    assert len([f for f in s["figures"].values() if fig_tile(f) == new]) == 2  # and a new monster there


def test_cowardly_flight_with_no_monster_in_play_does_nothing():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Cowardly Flight (61)
    e, s = started()
    tiles = dict(s["tiles"]["placed"])
    play(s, "Cowardly Flight")
    assert s["tiles"]["placed"] == tiles and s["figures"] == {}


def test_ghost_of_prince_aurel_asks_which_power_goes_face_down():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Ghost of Prince Aurel (65)
    e, s = started()
    play(s, "Ghost of Prince Aurel")
    q = s["pending"]
    assert len(q["options"]) == 3  # Arjhan's Dragon's Breath, Bodyguard, Brute Strike
    s, _ = decide(e, s, "Bodyguard")
    assert s["players"]["p0"]["powers"]["bodyguard"] == "used"
    assert s["players"]["p0"]["powers"]["dragons_breath"] == "ready"


def test_ghost_of_prince_aurel_hurts_a_hero_with_none_left():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Ghost of Prince Aurel (65)
    e, s = started()
    for k in ("dragons_breath", "bodyguard", "brute_strike"):
        s["players"]["p0"]["powers"][k] = "used"
    hp = s["players"]["p0"]["hp"]
    play(s, "Ghost of Prince Aurel")
    assert s["players"]["p0"]["hp"] == hp - 1 and s["pending"] is None


def test_illusionary_trick_swaps_the_hero_and_the_farthest_monster():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Illusionary Trick (67)
    e, s = started()
    near = spawn(s, "skeleton", "2,8")
    far = spawn(s, "zombie", "2,16")
    play(s, "Illusionary Trick")
    assert s["players"]["p0"]["square"] == "2,16" and far["square"] == "1,5" and near["square"] == "2,8"


def test_neglected_passage_lays_a_tile_nearest_the_start_tile():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Neglected Passage (70-71)
    e, s = started()
    bottom = s["tiles"]["stack"][-1]
    at(s, "p0", "1,17")
    play(s, "Neglected Passage")
    new = next(k for k, v in s["tiles"]["placed"].items() if v["tile"] == bottom)
    assert new in ("-1,0", "1,0", "-1,1", "1,1")  # beside the Start tile, not by the hero far north
    assert [fig_tile(f) for f in s["figures"].values()] == [new]


def test_neglected_passage_without_a_start_tile_draws_another_encounter():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Neglected Passage (70-71)
    e, s = started()
    for t in s["tiles"]["placed"].values():
        t["start"] = False
    nxt = card("Passage of Time")
    deck = s["decks"]["encounter"]
    deck["deck"] = [nxt] + [c for c in deck["deck"] if c != nxt]
    deck["discard"] = [c for c in deck["discard"] if c != nxt]
    s["xp"] = []  # nothing to cancel it with: it is played at once
    hp = s["players"]["p1"]["hp"]
    play(s, "Neglected Passage")
    assert s["players"]["p1"]["hp"] == hp - 1  # Passage of Time, drawn in its place


def test_overwhelming_terror_drives_every_hero_two_tiles_toward_the_start():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Overwhelming Terror (74)
    e, s = started()
    at(s, "p0", "1,17")  # tile 0,4
    spawn(s, "skeleton", "3,9")  # on tile 0,2, where the hero ends
    play(s, "Overwhelming Terror")
    assert tile_of(s, "p0") == "0,2" and s["players"]["p0"]["conditions"]["slowed"] is True
    assert s["players"]["p1"]["square"] == "3,1" and not s["players"]["p1"]["conditions"]["slowed"]


def test_secret_door_lays_the_bottom_tile_nearest_the_hero_with_a_monster():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Secret Door (79)
    e, s = started()
    bottom = s["tiles"]["stack"][-1]
    at(s, "p0", "1,17")
    play(s, "Secret Door")
    new = next(k for k, v in s["tiles"]["placed"].items() if v["tile"] == bottom)
    assert geometry.tile_distance(s, ["0,4"], [new]) == 1
    assert [fig_tile(f) for f in s["figures"].values()] == [new] and tile_of(s, "p0") == "0,4"


def test_spirit_of_doom_event_lets_each_hero_move_then_hurts_the_lonely():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Spirit of Doom (80)
    e, s = started()
    spawn(s, "skeleton", "3,11")  # on tile 0,2
    hp0, hp1 = s["players"]["p0"]["hp"], s["players"]["p1"]["hp"]
    play(s, "Spirit of Doom")
    assert s["pending"]["player"] == "p0"
    s, _ = decide(e, s, "move to tile 0,2")
    assert s["pending"]["player"] == "p1"
    s, _ = decide(e, s, "stay")
    assert tile_of(s, "p0") == "0,2"
    assert s["players"]["p0"]["hp"] == hp0 and s["players"]["p1"]["hp"] == hp1 - 1


def test_strahds_minions_carries_the_hero_and_two_nearest_monsters_to_the_farthest_tile():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Strahd's Minions (82)
    e, s = started()
    at(s, "p0", "1,1")  # tile 0,0: farthest is 0,4
    a = spawn(s, "skeleton", "2,6")
    b = spawn(s, "zombie", "2,9")
    c = spawn(s, "wolf", "2,13")
    play(s, "Strahd's Minions")
    assert tile_of(s, "p0") == "0,4" and fig_tile(a) == fig_tile(b) == "0,4" and fig_tile(c) == "0,3"
    assert len(s["figures"]) == 3  # two or more in play: no new one


def test_strahds_minions_with_one_monster_brings_a_new_one_next_to_the_hero():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Strahd's Minions (82)
    e, s = started()
    at(s, "p0", "1,1")
    spawn(s, "skeleton", "2,6")
    play(s, "Strahd's Minions")
    me = geometry.parse(s["players"]["p0"]["square"])
    new = [f for f in s["figures"].values() if f["monster"] != "skeleton"]
    assert len(new) == 1 and geometry.adjacent(me, geometry.parse(new[0]["square"]))
    assert s["players"]["p0"]["cards"]  # its card goes in front of the active hero


def test_strahds_trick_moves_the_hero_to_the_busiest_tile_within_one():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Strahd's Trick (83)
    e, s = started()
    spawn(s, "skeleton", "2,9")
    spawn(s, "zombie", "3,9")
    spawn(s, "wolf", "2,2")
    play(s, "Strahd's Trick")
    assert tile_of(s, "p0") == "0,2"


def test_strahds_trick_with_no_monster_near_costs_a_hit_point():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Strahd's Trick (83)
    e, s = started()
    spawn(s, "skeleton", "2,17")
    hp = s["players"]["p0"]["hp"]
    play(s, "Strahd's Trick")
    assert s["players"]["p0"]["hp"] == hp - 1 and s["players"]["p0"]["square"] == "1,5"


def test_strahds_whispers_sets_the_hero_by_another_and_asks_the_at_will(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Strahd's Whispers (84)
    rolls(monkeypatch, 20)
    e, s = started()
    at(s, "p1", "2,13")
    hp = s["players"]["p1"]["hp"]
    play(s, "Strahd's Whispers")
    me, them = (geometry.parse(s["players"][p]["square"]) for p in ("p0", "p1"))
    assert geometry.adjacent(me, them)
    assert sorted(s["pending"]["options"]) == ["Cleave", "Trapping Strike"]
    s, _ = decide(e, s, "Cleave")
    assert s["players"]["p1"]["hp"] == hp - data.power(C, "cleave")["damage"]


def test_teleport_glyph_carries_the_hero_and_the_monsters_on_their_tile():
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Teleport Glyph (86)
    e, s = started()
    at(s, "p0", "1,1")
    with_me = spawn(s, "skeleton", "2,2")
    other = spawn(s, "zombie", "2,9")
    play(s, "Teleport Glyph")
    assert tile_of(s, "p0") == "0,4" and fig_tile(with_me) == "0,4" and other["square"] == "2,9"


def test_voice_of_the_master_goes_round_from_the_left(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Events) - Voice of the Master (88)
    e, s = started()
    mine = spawn(s, "zombie", "2,17", holder="p1")
    acted = []
    monkeypatch.setattr(encounter_rules.tactics, "activate", lambda ctx, fid: acted.append(fid) or True)
    play(s, "Voice of the Master")
    assert acted == [mine["id"]]  # p1 (on p0's left) first: their one monster acts
    q = s["pending"]
    assert q["player"] == "p0"  # p0 holds none: a new monster on a tile of their choice
    s, _ = decide(e, s, "tile 0,3")
    new = [f for f in s["figures"].values() if f["id"] != mine["id"]]
    assert [fig_tile(f) for f in new] == ["0,3"] and s["players"]["p0"]["cards"]


# ------------------------------------------------------------------ event-attacks


def test_circle_of_death_heals_the_undead_on_the_tile(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Circle of Death (93)
    rolls(monkeypatch, 1, 1)
    e, s = started()
    here = spawn(s, "blazing_skeleton", "2,6")
    away = spawn(s, "wraith", "2,13")
    wolf = spawn(s, "wolf", "3,6")
    for f in (here, away, wolf):
        f["hp"] = 1
    play(s, "Circle of Death")
    assert here["hp"] == 2 and away["hp"] == 1 and wolf["hp"] == 1


def test_green_slime_eats_a_random_treasure_of_the_active_hero_it_hits(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Green Slime (95); Spirit of Doom (58)
    rolls(monkeypatch, 20, 1)
    e, s = started()
    s["environment"] = next(c for c in C.encounters if c.startswith("spirit_of_doom_5"))
    item = s["players"]["p0"]["items"][0]
    hp = s["players"]["p0"]["hp"]
    play(s, "Green Slime")
    assert item not in s["players"]["p0"]["items"] and item in s["decks"]["treasure"]["discard"]
    assert s["players"]["p0"]["hp"] == hp - data.encounter(C, card("Green Slime"))["attack"]["damage"] - 1


def test_howling_ghost_hit_may_be_paid_with_a_daily_power(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Howling Ghost (97)
    rolls(monkeypatch, 20)
    e, s = started()
    hp = s["players"]["p0"]["hp"]
    play(s, "Howling Ghost")
    q = s["pending"]
    assert q["player"] == "p0" and q["options"][0].startswith("take")
    s, _ = decide(e, s, "Dragon's Breath")
    assert s["players"]["p0"]["hp"] == hp and s["players"]["p0"]["powers"]["dragons_breath"] == "used"


def test_howling_ghost_hit_taken_deals_its_damage(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Howling Ghost (97)
    rolls(monkeypatch, 20)
    e, s = started()
    hp = s["players"]["p0"]["hp"]
    play(s, "Howling Ghost")
    s, _ = decide(e, s, "take")
    assert s["players"]["p0"]["hp"] == hp - data.encounter(C, card("Howling Ghost"))["attack"]["damage"]


def test_icy_corridor_slides_each_hero_on_the_tile_where_they_choose(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Icy Corridor (98)
    rolls(monkeypatch, 1, 1)
    e, s = started()
    at(s, "p1", "3,6")
    play(s, "Icy Corridor")
    assert s["pending"]["player"] == "p0"
    s, _ = decide(e, s, "tile 0,2")
    assert s["pending"]["player"] == "p1"
    s, _ = decide(e, s, "tile 0,0")
    assert tile_of(s, "p0") == "0,2" and tile_of(s, "p1") == "0,0"


def test_king_tomescus_portal_takes_the_hero_off_until_their_next_hero_phase(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - King Tomescu's Portal (99); FAQ (a Hero
    # not on a tile is not affected by other cards)
    rolls(monkeypatch, 1, 1, 1)
    e, s = started()
    play(s, "King Tomescu's Portal")
    ctx = Ctx(C, s)
    assert not heroes.on_map(ctx, "p0") and s["players"]["p0"]["square"] is None
    hp = s["players"]["p0"]["hp"]
    play(s, "Passage of Time", pid="p1")
    assert s["players"]["p0"]["hp"] == hp
    turns.begin_turn(ctx, "p0")
    s, _ = decide(e, s, "tile 0,3")
    assert tile_of(s, "p0") == "0,3" and heroes.on_map(Ctx(C, s), "p0")


def test_patrina_velikovna_draws_lone_monsters_one_tile_nearer(monkeypatch):
    # Castle Ravenloft rulebook: Encounter Cards (Event-Attacks) - Patrina Velikovna (100)
    rolls(monkeypatch, 1, 1)
    e, s = started()
    lone = spawn(s, "skeleton", "2,17")
    beside = spawn(s, "zombie", "2,6")
    play(s, "Patrina Velikovna")
    assert fig_tile(lone) == "0,3" and beside["square"] == "2,6"


# ------------------------------------------------------------------ traps


@pytest.mark.parametrize("roll, tile, hurt", [(3, "0,2", 0), (18, "0,1", 1)])
def test_sliding_walls_shift_a_hero_or_hurt_them_against_a_wall(monkeypatch, roll, tile, hurt):
    # Castle Ravenloft rulebook: Encounter Cards (Traps) - Sliding Walls (109)
    rolls(monkeypatch, roll)
    e, s = started()
    hp = s["players"]["p0"]["hp"]
    ctx = Ctx(C, s)
    encounters.play(ctx, "p0", card("Sliding Walls"))
    encounters.trap_acts(ctx, "p0", card("Sliding Walls"))
    assert tile_of(s, "p0") == tile and s["players"]["p0"]["hp"] == hp - hurt


# ------------------------------------------------------------------ every card


def test_every_special_step_has_its_rule_in_the_engine():
    # Castle Ravenloft rulebook: Encounter Cards (apply its effects immediately)
    words = {data.g(st, "name") for c in C.encounters for st in data.encounter(C, c)["steps"]
             if data.g(st, "do") == "special"}
    handled = set(encounters.RULES) | set(encounters.ENVIRONMENTS) | {
        "frenzy", "howl_of_the_wolf", "cyrus_belview", "prowling_ghost", "alarm"}
    assert words - handled == set()


@pytest.mark.parametrize("cid", sorted(C.encounters))
def test_no_encounter_card_is_left_to_the_table(cid):
    # Castle Ravenloft rulebook: Encounter Cards (every card's effect is carried out when drawn)
    e, s = started()
    spawn(s, "skeleton", "2,9", holder="p0")
    ctx = Ctx(C, s)
    encounters.play(ctx, "p0", cid)
    if data.encounter(C, cid)["type"] == "trap":
        encounters.trap_acts(ctx, "p0", cid)
    events = list(ctx.events)
    while s["pending"] and s["phase"] == "play":
        s, ev = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": 1})
        events += ev
    texts = " ".join(x["text"] for x in events)
    assert "by hand" not in texts and "knows no rule" not in texts
