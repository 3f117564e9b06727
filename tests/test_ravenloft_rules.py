"""Castle Ravenloft rules, each test naming the rulebook section it checks."""

import pytest

from bot.games.ravenloft.engine import combat, data, experience, explore, geometry, heroes, tactics, turns
from bot.games.ravenloft.engine.game import Engine
from bot.games.ravenloft.engine.state import Ctx
from bot.kit.errors import IllegalAction
from bot.games.ravenloft.engine.content import load_content as content

C = content()


def started(team=("arjhan", "kat"), adv=2, seed=1, **opts):
    e = Engine(C)
    s = e.new_game(seed, dict({"adventure": adv, "first_player": "p0"}, **opts))
    for i, h in enumerate(team):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "name": f"P{i}", "hero": h})
    s, _ = e.apply(s, {"type": "start", "player": "p0"})
    return e, s


def test_start_tile_counts_as_two_tiles_and_heroes_by_the_stairs():
    # Castle Ravenloft rulebook: The Dungeon Tile Stack (the Start tile is two tiles); Game Setup
    e, s = started()
    placed = s["tiles"]["placed"]
    assert placed["0,0"]["tile"] == "start_lower_half" and placed["0,1"]["tile"] == "start_upper_half"
    ctx = Ctx(C, s)
    assert geometry.tile_distance(s, ["0,0"], ["0,1"]) == 1
    stairs = [(x, y) for x, y in geometry.tile_squares(0, 0) if geometry.char(s, x, y) == "S"]
    for pid in s["seats"]:
        assert any(geometry.adjacent(heroes.xy(ctx, pid), q) for q in stairs)
        # Game Setup: each hero draws treasure until an item
        assert [data.treasure(C, t)["type"] for t in s["players"][pid]["items"]] == ["item"]
    assert s["surges"] == 2 and s["turn"]["player"] == "p0"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_surges_harder_and_easier(n):
    # Castle Ravenloft rulebook: Making Adventures More or Less Challenging
    e, s = started(surges=n)
    assert s["surges"] == n


def test_powers_suggested_random_chosen():
    # Castle Ravenloft rulebook: Rules for Later Adventures, Choosing Power Cards
    e, s = started(powers="random", seed=5)
    for pid in s["seats"]:
        h = data.hero(C, s["players"][pid]["hero"])
        assert len(s["players"][pid]["powers"]) == len(h["fixed"]) + sum(h["choose"].values())
    e = Engine(C)
    s = e.new_game(1, {"adventure": 2, "powers": "chosen"})
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "join", "player": "p0", "hero": "kat", "powers": ["backstab"]})


def test_start_requires_the_adventure_head_count():
    # Castle Ravenloft rulebook: Game Setup (Escape the Tomb is for one hero)
    e = Engine(C)
    s = e.new_game(1, {"adventure": 1})
    for i, h in enumerate(("kat", "arjhan")):
        s, _ = e.apply(s, {"type": "join", "player": f"p{i}", "hero": h})
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "start", "player": "p0"})


def _only(s, pid, square):
    s["players"][pid]["square"] = square


def test_movement_walls_monsters_heroes():
    # Castle Ravenloft rulebook: How Do You Move?
    e, s = started()
    ctx = Ctx(C, s)
    _only(s, "p0", "0,3")
    _only(s, "p1", "1,3")
    moves = heroes.moves_from(ctx, "p0", 5)
    assert "1,3" not in moves            # may pass a hero, never stop on one
    assert "2,3" in moves                # ... but through it
    assert "0,0" not in moves            # a wall square
    fig = explore.spawn(ctx, "skeleton", "0,4")
    moves = heroes.moves_from(ctx, "p0", 1)
    assert "0,4" not in moves            # a monster's square
    del s["figures"][fig["id"]]


def test_no_diagonal_between_two_walls():
    # Castle Ravenloft rulebook: How Do You Move? (C: not between two adjacent walls)
    s = {"tiles": {"placed": {"0,0": {"grid": ["....", ".#..", "#...", "...."], "exits": ["N"]}}}}
    # (0,1) is the west square of row 2 (a wall) and (1,2) the wall of row 1: (0,2) to (1,1) slips between them
    assert geometry.char(s, 0, 1) == "#" and geometry.char(s, 1, 2) == "#"
    assert not geometry.step_ok(s, 0, 2, 1, 1)
    assert geometry.step_ok(s, 2, 2, 3, 1)


def test_slowed_immobilized_and_faq_refinements():
    # Castle Ravenloft rulebook: Condition: Slowed, Condition: Immobilized; FAQ: Run!, Boots of Striding
    e, s = started()
    ctx = Ctx(C, s)
    s["players"]["p0"]["conditions"]["slowed"] = True
    assert heroes.speed(ctx, "p0") == 2
    run = next(t for t in C.treasures if t.startswith("run_"))
    s["blessings"].append({"card": run, "player": "p1", "made": 0})
    assert heroes.speed(ctx, "p0") == 4
    s["blessings"] = []
    boots = next(t for t in C.treasures if t.startswith("boots_of_striding"))
    s["players"]["p0"]["items"].append(boots)
    assert heroes.speed(ctx, "p0") == 3
    s["players"]["p0"]["conditions"]["immobilized"] = True
    assert heroes.speed(ctx, "p0") == 0
    s["players"]["p0"]["items"].remove(boots)
    s["players"]["p0"]["conditions"]["immobilized"] = False
    # the markers leave at the end of the hero phase
    s2, _ = e.apply(s, {"type": "end", "player": "p0"})
    assert s2["players"]["p0"]["conditions"] == {"slowed": False, "immobilized": False}


def test_within_tiles_is_orthogonal_and_walls_block():
    # Castle Ravenloft rulebook: Diagonal Movement; FAQ: What does "within 1 tile" mean?
    g = {"grid": ["....", "....", "....", "...."], "exits": ["N", "E", "S", "W"]}
    s = {"tiles": {"placed": {"0,0": g, "1,0": g, "1,1": g, "0,1": dict(g, exits=["E"])}}}
    assert geometry.tile_distance(s, ["0,0"], ["1,1"]) == 2      # never diagonally
    assert geometry.tile_distance(s, ["0,0"], ["0,1"]) == 3      # the closed joint is walked around


def test_surge_at_zero_and_defeat_without_one():
    # Castle Ravenloft rulebook: Healing Surges; Winning the Game
    e, s = started(team=("arjhan", "kat"))
    s["players"]["p1"]["hp"] = 0
    s, ev = e.apply(s, {"type": "end", "player": "p0"})
    while s["turn"]["player"] != "p1" and s["phase"] == "play":
        q = s["pending"]
        s, ev = e.apply(s, {"type": "decide", "player": q["player"], "choice": 2})
    surge = data.hero(C, "kat")["surge"]
    assert s["surges"] == 1 and s["players"]["p1"]["hp"] >= min(surge, 1)
    e, s = started(team=("arjhan", "kat"))
    s["surges"] = 0
    s["players"]["p1"]["hp"] = 0
    s, ev = e.apply(s, {"type": "end", "player": "p0"})
    while s["phase"] == "play" and s["pending"]:
        s, ev = e.apply(s, {"type": "decide", "player": s["pending"]["player"], "choice": 2})
    assert s["outcome"]["result"] == "defeat" and s["outcome"]["condition"] == "no_surge"


def test_explore_turns_the_triangle_toward_the_edge_and_places_a_monster():
    # Castle Ravenloft rulebook: Exploration Phase
    e, s = started()
    _only(s, "p0", "0,5")  # west edge of the upper Start half
    s, ev = e.apply(s, {"type": "end", "player": "p0", "explore": "W"})
    new = s["tiles"]["placed"]["-1,1"]
    assert new["rot"] == 3 and "E" in new["exits"]   # its triangle (south as printed) now faces east
    assert any(geometry.tile_at_square(f["square"]) == "-1,1" for f in s["figures"].values())


def test_same_name_monster_card_is_redrawn():
    # Castle Ravenloft rulebook: Exploration Phase, step 3
    e, s = started()
    ctx = Ctx(C, s)
    first = s["decks"]["monster"]["deck"][0]
    s["players"]["p0"]["cards"].append({"kind": "monster", "card": first})
    same = data.card_monster(C, first)
    fig = explore.place_monster(ctx, "p0", "0,1")
    assert fig["monster"] != same and first not in s["decks"]["monster"]["deck"]


def test_experience_spend_takes_exact_mix_and_loses_excess():
    # Castle Ravenloft rulebook: Canceling Encounter Cards (the example)
    e, s = started()
    ctx = Ctx(C, s)
    three = [c for c in C.monsters if data.monster(C, data.card_monster(C, c))["xp"] == 3][:3]
    two = [c for c in C.monsters if data.monster(C, data.card_monster(C, c))["xp"] == 2][:1]
    for c in three + two:
        for d in s["decks"]["monster"].values():
            if c in d:
                d.remove(c)
    s["xp"] = three + two
    assert experience.spend(ctx, 5) == 5
    assert sorted(s["xp"]) == sorted(three[1:]) or len(s["xp"]) == 2
    assert experience.spend(ctx, 5) == 6 and s["xp"] == []


def test_monsters_ignore_downed_heroes_and_wait_when_all_are_down():
    # Castle Ravenloft rulebook FAQ: What does a Monster do when a Hero is at 0 Hit Points?
    e, s = started()
    ctx = Ctx(C, s)
    fig = explore.spawn(ctx, "skeleton", "2,4")
    s["players"]["p0"]["hp"] = 0
    s["players"]["p1"]["hp"] = 0
    assert tactics.activate(ctx, fig["id"]) is False


def test_defeated_monster_card_goes_clockwise_to_the_experience_pile():
    # Castle Ravenloft rulebook: Defeating Monsters
    e, s = started()
    ctx = Ctx(C, s)
    card = s["decks"]["monster"]["deck"].pop(0)
    s["players"]["p1"]["cards"].append({"kind": "monster", "card": card})
    fig = explore.spawn(ctx, data.card_monster(C, card), "2,4", card)
    combat.defeat(ctx, fig["id"], "p0")
    assert s["xp"] == [card] and s["players"]["p1"]["cards"] == []
    assert s["turn"]["treasure"] is True  # one treasure for the defeat (one a turn)


def test_bless_counts_heroes_within_one_tile_when_used():
    # Castle Ravenloft rulebook FAQ: Bless (8)
    e, s = started(team=("thorgrim", "kat", "arjhan"))
    s["players"]["p0"]["powers"]["bless"] = "ready"
    _only(s, "p0", "1,3")
    _only(s, "p1", "1,5")      # next tile
    _only(s, "p2", "1,13")     # far away
    s, ev = e.apply(s, {"type": "use", "player": "p0", "power": "bless"})
    ctx = Ctx(C, s)
    assert heroes.timed_bonus(ctx, "p1", "attack") == 2 and heroes.timed_bonus(ctx, "p2", "attack") == 0
    _only(s, "p2", "2,3")      # coming closer later gives nothing
    assert heroes.timed_bonus(ctx, "p2", "attack") == 0


def test_frenzy_activates_twice():
    # Castle Ravenloft rulebook FAQ: Frenzy (63-64)
    e, s = started()
    ctx = Ctx(C, s)
    card = s["decks"]["monster"]["deck"].pop(0)
    s["players"]["p0"]["cards"].append({"kind": "monster", "card": card})
    explore.spawn(ctx, data.card_monster(C, card), "3,12", card)
    explore.spawn(ctx, data.card_monster(C, card), "0,12", None)
    calls = []
    orig = tactics.activate
    tactics.activate = lambda c, f: calls.append(f) or True
    try:
        s["turn"]["frenzy"] = True
        from bot.games.ravenloft.engine import villain
        villain.activate_card(ctx, "p0", s["players"]["p0"]["cards"][0])
    finally:
        tactics.activate = orig
    assert len(calls) == 4


def test_escape_the_tomb_won_by_starting_a_turn_on_the_stairway():
    # Castle Ravenloft rulebook: Winning the Game (Adventure 1, Escape the Tomb)
    e, s = started(team=("kat",), adv=1)
    ctx = Ctx(C, s)
    explore.lay_tile(ctx, "secret_stairway", "5,5", 0)
    sq = geometry.name(*geometry.floor_squares(s, "5,5")[0])
    _only(s, "p0", sq)
    s, ev = e.apply(s, {"type": "end", "player": "p0", "explore": "none"} if
                    geometry.edges_at_square(s, sq) == [] else {"type": "end", "player": "p0"})
    while s["phase"] == "play" and s["pending"]:
        s, ev = e.apply(s, {"type": "decide", "player": "p0", "choice": 2})
    if s["players"]["p0"]["hp"] > 0:
        assert s["outcome"] and s["outcome"]["result"] == "victory"


def test_refused_action_changes_nothing():
    # Castle Ravenloft rulebook: Hero Phase (two actions, one attack)
    e, s = started()
    before = repr(s)
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "move", "player": "p1", "to": "0,4"})
    with pytest.raises(IllegalAction):
        e.apply(s, {"type": "move", "player": "p0", "to": "0,0"})
    assert repr(s) == before
