"""Haunt 27, Ravenloft Calls (no traitor at first), played through the
engine's actions: the shadow city, the haunt roll of 4+ that names the
traitor, the traitor's setup and extra turn, the bats, capture and escape,
and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine import moves
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.death import die
from bot.games.babg.engine.geometry import distances
from bot.games.babg.engine.haunt_play import check_wins
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed


def ravenloft(engine):
    """Ann draws the Berserker Axe on the Haunted Alley: haunt 27, nobody a
    traitor yet; the turns go Bo, Cy, Ann."""
    g = revealed(engine, "haunted_alley", "berserker_axe")
    assert g.state["haunt"]["number"] == 27 and g.state["haunt"]["kind"] == "none_yet"
    all_ready(g)
    return g


def draw_omen(g):
    """The player whose turn it is reveals an omen (the third of the game)."""
    g.state["omens_revealed"] = 3
    g.state["haunt"]["h27"]["seen"] = 2


def with_traitor(engine, dice):
    """Bo draws an omen in the shadow city and rolls 4: Bo is the traitor."""
    g = ravenloft(engine)
    draw_omen(g)
    dice.next(2, 2)
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["haunt"]["traitors"] == ["bo"]
    return g


def test_the_shadow_city(engine):
    # Secrets of Survival, haunt 27: "Right Now" (every tile but the Haunted Alley and the catacomb start tile
    # back in its stack, the Elfsong Tavern set aside, everyone on the Haunted Alley, the omens back in the
    # shuffled deck, play from the revealer's left)
    # Ruling: Haunt 27: cards lying on a tile that goes back to its stack are discarded
    g = revealed(engine, "haunted_alley", "berserker_axe")
    g.give("cy", "symbol_of_bhaal")
    g.place("smithy", "city", 3, 0)
    all_ready(g)
    assert set(g.state["board"]) == {"haunted_alley", "catacomb_landing", "kitchen_basement"}
    assert "smithy" in g.state["stacks"]["building"]
    assert all(g.p(p)["tile"] == "haunted_alley" for p in ("ann", "bo", "cy"))
    assert "symbol_of_bhaal" in g.state["decks"]["omen"] and "symbol_of_bhaal" not in g.p("cy")["cards"]
    assert g.state["turn"]["player"] == "bo"


def test_nobody_fights_or_dies_before_the_traitor(engine):
    # Secrets of Survival, haunt 27: "What You Know" (play goes on as before the haunt: nobody can die)
    g = ravenloft(engine)
    assert not any(a["type"] == "attack" for a in legal_actions(g.c, g.state))
    with pytest.raises(IllegalAction):
        g.do("attack", "bo", target="cy")
    from bot.games.babg.engine import traits as tr
    ctx = Ctx(g.c, g.state)
    tr.change(ctx, "bo", "might", -8)
    assert g.p("bo")["alive"] and g.p("bo")["traits"]["might"] == 1


def test_an_omen_brings_a_haunt_roll_that_fails_below_four(engine, dice):
    # Secrets of Survival, haunt 27: "What You Know" (a haunt roll for each omen, 4+)
    # Ruling: Haunt 27: the shadow city's haunt roll has a die per omen revealed in the game, as any haunt roll
    g = ravenloft(engine)
    draw_omen(g)
    dice.next(2, 1, 0)
    g.do("end", "bo")
    assert g.state["haunt"]["traitors"] == [] and g.state["turn"]["player"] == "cy"
    assert any("for the haunt in the shadow city" in t for t in g.texts())


def test_a_successful_roll_names_the_traitor_who_sets_up_and_plays_again(engine, dice):
    # Secrets of Survival, haunt 27: "What You Know"; Traitor's Tome, haunt 27: "Right Now" (traits restored and
    # +2 each, the Elfsong Tavern placed as far from the heroes as possible, another turn at once)
    g = ravenloft(engine)
    before = dict(g.p("bo")["traits"])
    draw_omen(g)
    dice.next(2, 2)
    g.do("end", "bo")
    events = list(g.events)
    g.decide_all(0)
    events += g.events
    h = g.state["haunt"]
    assert h["traitors"] == ["bo"] and h["kind"] == "traitor"
    tome = [e for e in events if e.get("kind") == "secret_rules" and "as the traitor" in e["text"]]
    assert tome and {e["to"] for e in tome} == {"bo"}
    part_two = [e for e in events if e.get("kind") == "secret_rules" and "(part two)" in e["text"]]
    assert part_two and {e["to"] for e in part_two} == {"ann", "cy"}
    words = [e for e in events if "{move:escape}" in e["text"]]
    assert words and {e["to"] for e in words} == {"ann", "cy"}
    starts = g.c.adventurers[g.p("bo")["adventurer"]].tracks
    for t in ("might", "speed", "knowledge", "sanity"):
        assert g.p("bo")["traits"][t] == min(8, max(before[t], starts[t].start) + 2)
    assert {"kitchen", "inner_chamber", "elfsong_tavern"} <= set(g.state["board"])
    assert g.state["turn"]["player"] == "bo"


def test_the_tavern_goes_as_far_from_the_heroes_as_it_can(engine, dice):
    # Traitor's Tome, haunt 27: "Right Now" ("as far from the heroes as possible")
    from bot.games.babg.engine.haunts.h27_ravenloft_calls import tavern_places
    g = ravenloft(engine)
    g.place("smithy", "city", 5, 5)
    ctx = Ctx(g.c, g.state)
    places = tavern_places(ctx)
    assert places and all(p[2] == places[0][2] or True for p in places)
    near = distances(ctx, "haunted_alley")
    assert all(near.get(p[2], 99) == max(near.get(q[2], 99) for q in places) for p in places)


def test_the_bats_attack_a_hero_the_traitor_picks(engine, dice):
    # Traitor's Tome, haunt 27: "You Must Do This at the Start of Your Turn" (a Speed 3 attack on the hero of the
    # traitor's choice, who defends with Speed; on a win, the damage or carrying the hero up to that many spaces)
    g = ravenloft(engine)
    draw_omen(g)
    dice.next(2, 2, 0)
    g.do("end", "bo")
    while g.state["pending"]["kind"] != "h27_prey":
        g.do("decide", g.state["pending"]["player"], choice=0)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"] == ["Ann", "Cy"]
    dice.next(2, 2, 2)       # the bats: 6 against Cy's 0
    g.do("decide", "bo", choice=1)
    assert g.state["pending"]["kind"] == "h27_bats"
    g.do("decide", "bo", choice=1)           # carry Cy
    assert g.state["pending"]["kind"] == "h27_carry"
    where = g.state["pending"]["data"]["tiles"][0]
    g.do("decide", "bo", choice=0)
    assert g.p("cy")["tile"] == where


def test_bats_that_lose_do_nothing(engine, dice):
    # Traitor's Tome, haunt 27: "You Must Do This at the Start of Your Turn" (only a win hurts)
    g = with_traitor(engine, dice)
    from bot.games.babg.engine.haunts.h27_ravenloft_calls import bats
    ctx = Ctx(g.c, g.state)
    before = dict(g.p("cy")["traits"])
    dice.next(0, 0, 0)
    dice.next(1, 1)
    bats(ctx, "bo", "cy")
    assert g.state["pending"] is None and g.p("cy")["traits"] == before


def test_the_heroes_lose_a_die_of_sanity_at_the_end_of_each_turn(engine, dice):
    # Secrets of Survival, haunt 27: "You Must Do This at the End of Your Turn"
    g = with_traitor(engine, dice)
    g.do("end", "bo")
    g.decide_all(0)
    assert g.state["turn"]["player"] == "cy"
    dice.next(2)
    g.do("end", "cy")
    assert any("Cy takes 2 mental damage" in t for t in g.texts()) or g.state["pending"]


def test_a_dying_hero_is_captured_and_the_traitor_wins(engine, dice):
    # Traitor's Tome, haunt 27: "How to Capture a Hero" and "You Win When..." (1 of 2 heroes)
    g = with_traitor(engine, dice)
    g.give("cy", "potion_of_healing") if "potion_of_healing" in g.c.cards else None
    ctx = Ctx(g.c, g.state)
    die(ctx, "cy", "test")
    assert g.state["haunt"]["counters"]["Heroes captured"] == 1 and g.p("cy")["cards"] == []
    assert not g.state["piles"].get(g.p("cy")["tile"])
    check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_two_heroes_escaping_win(engine, dice):
    # Secrets of Survival, haunt 27: "How to Escape" (Knowledge 3+ on the Elfsong Tavern) and "You Win When..."
    # (2 of 2 heroes)
    g = with_traitor(engine, dice)
    g.do("end", "bo")
    g.decide_all(0)
    with pytest.raises(IllegalAction):
        g.do("task", "cy", trait="knowledge", task="escape")   # not on the tavern
    g.put("cy", "elfsong_tavern")
    assert {"type": "task", "player": "cy", "trait": "knowledge", "task": "escape"} in legal_actions(g.c, g.state)
    dice.next(2, 1)
    g.do("task", "cy", trait="knowledge", task="escape")
    g.decide_all(0)
    assert g.state["haunt"]["counters"]["Heroes escaped"] == 1 and not g.p("cy")["alive"]
    assert g.state["turn"]["player"] == "ann"
    g.put("ann", "elfsong_tavern")
    dice.next(2, 1)
    g.do("task", "ann", trait="knowledge", task="escape")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_traitor_cannot_escape(engine, dice):
    # Secrets of Survival, haunt 27: "How to Escape" (a hero's way out)
    g = with_traitor(engine, dice)
    g.put("bo", "elfsong_tavern")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="escape")


def test_the_heroes_win_when_the_traitor_dies(engine, dice):
    # Secrets of Survival, haunt 27: "You Win When..." (the traitor killed first)
    g = with_traitor(engine, dice)
    ctx = Ctx(g.c, g.state)
    die(ctx, "bo", "test")
    check_wins(ctx)
    assert g.state["result"]["winner"] == "heroes"


def test_the_traitor_may_ignore_a_new_tiles_icon(engine, dice):
    # Traitor's Tome, haunt 27: "Special Movement Rules"
    g = with_traitor(engine, dice)
    ctx = Ctx(g.c, g.state)
    ways = moves.ways_out(ctx, "bo")
    way = next((w for w, i in ways.items() if i.get("discover") == "street"), None)
    if way is None:
        pytest.skip("no street door out of the Haunted Alley")
    tile = next(t for t in g.state["stacks"]["street"] if g.c.tiles[t].symbol in ("item", "event", "omen"))
    g.top("street", tile)
    hand = list(g.p("bo")["cards"])
    g.do("move", "bo", way=way)
    while g.state["pending"] and g.state["pending"]["kind"] != "h27_icon":
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert g.state["pending"]["kind"] == "h27_icon" and g.state["pending"]["player"] == "bo"
    g.do("decide", "bo", choice=1)
    assert g.p("bo")["cards"] == hand and not g.state["turn"]["stopped"]


def test_an_undeclared_move_is_refused(engine, dice):
    # Declared moves only: a name the haunt does not declare is refused
    g = with_traitor(engine, dice)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="knowledge", task="flee")


def test_escape_is_closed_before_the_traitor_is_known(engine):
    # Secrets of Survival, haunt 27: "How to Escape" belongs to the heroes' part, read once a traitor is revealed
    g = ravenloft(engine)
    g.put("bo", "elfsong_tavern")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="escape")


def test_the_captured_and_escaped_follow_a_seat_handover(engine, dice):
    # Traitor's Tome, haunt 27: "Right Now" (the traitor takes another turn at once). The record's player fields
    # are renamed with the seat
    g = with_traitor(engine, dice)
    g.state["haunt"]["h27"]["captured"] = ["cy"]
    g.do("handover", "cy", to="zed", name="Zed")
    assert g.state["haunt"]["h27"]["captured"] == ["zed"]
