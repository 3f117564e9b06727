"""Haunt 18, Rats on a Pier, played through the engine's actions: the city
rebuilt with the Waterfront at its far edge, the Wererats on the outer ring,
the Citizens and their NPC turn, turning and rescuing Citizens, and every
way the haunt is won."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine import board as bd
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.geometry import distances
from bot.games.babg.engine.haunts.h18_rats_on_a_pier import city_reach
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

CITIZEN, WERERAT = "Citizen", "Wererat"
TURNED, RESCUED = "Citizens turned", "Citizens rescued"


def rats(engine, before=None):
    """Bo reveals haunt 18 on the House of Blood and becomes the traitor.
    Order: Cy, Ann, the NPC turn, Bo, the monster turn."""
    g = revealed(engine, revealer="bo")
    if before:
        before(g)
    assert g.state["haunt"]["number"] == 18 and g.state["haunt"]["traitors"] == ["bo"]
    return g


def ready(g):
    events = []
    for pid in ("ann", "bo", "cy"):
        events += g.do("ready", pid)
    while g.state["pending"] and g.state["pending"]["kind"] == "place_chosen":
        events += g.do("decide", "bo", choice=0)
    return events


def pieces(g, name):
    return [m for m in g.state["monsters"] if m["name"] == name and not m["dead"]]


def mon(g, mid):
    """A monster as the game holds it now (every action works on a copy of the state)."""
    return next(m for m in g.state["monsters"] if m["id"] == mid)


def city(g):
    return [t for t, p in g.state["board"].items() if p["level"] == "city"]


def to_npc_turn(g):
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("npc") and g.state["turn"]["player"] == "ann"


def test_the_city_is_rebuilt_with_the_waterfront_farthest_out(engine):
    # Secrets of Survival, haunt 18: "Right Now" (the Waterfront set aside, the city built out evenly around the
    # Elfsong Tavern with no tile cut off, the Waterfront at the farthest open doorway)
    # Ruling: Haunt 18: building out the city
    g = rats(engine)
    ready(g)
    s = g.state
    assert not s["stacks"]["street"] and not s["stacks"]["building"]
    assert "waterfront" in s["board"]
    ctx = Ctx(g.c, s)
    assert city_reach(ctx, "elfsong_tavern") == set(city(g))
    far = distances(ctx, "elfsong_tavern")
    beside = [t for t in bd.exits(g.c, s["board"], "waterfront").values() if t]
    assert beside and far["waterfront"] == far[beside[0]] + 1
    assert far["waterfront"] >= max(far[t] for t in city(g) if t != "waterfront") - 1


def test_a_waterfront_already_in_play_is_moved_to_the_edge(engine):
    # Secrets of Survival, haunt 18: "Right Now" (third point: remove it and set it aside)
    # Ruling: Haunt 18: someone standing on the Waterfront when it is set aside
    def waterfront_north(g):
        g.place("waterfront", "city", 2, -1, rot=0)  # its south doorway faces the Elfsong Tavern's north one
    g = rats(engine, waterfront_north)
    ready(g)
    place = g.state["board"]["waterfront"]
    assert (place["x"], place["y"]) != (2, -1)
    assert "waterfront" in g.state["board"]


def test_setting_the_waterfront_aside_cuts_no_tile_off_when_the_city_stacks_are_empty(engine):
    # Secrets of Survival: Rats on a Pier, "Right Now" (third point: if removing it leaves tiles cut off, turn up
    # tiles until one fills its place; fourth point: never leave a tile cut off from the level).
    # Ruling: haunt 18, no city tile left to fill the Waterfront's place: the tiles cut off join the city again
    def cut_off_behind_the_waterfront(g):
        g.place("waterfront", "city", 2, -1, rot=0)   # its south doorway faces the Elfsong Tavern's north one
        g.place("spys_roost", "city", 2, -2, rot=2)   # its one doorway, turned south, opens onto the Waterfront only
        for pile in ("stacks", "set_aside"):
            g.state[pile]["building"], g.state[pile]["street"] = [], []
        g.put("cy", "spys_roost")
    g = rats(engine, cut_off_behind_the_waterfront)
    events = ready(g)
    tiles = city(g)
    assert "spys_roost" in tiles and "waterfront" in tiles
    assert city_reach(Ctx(g.c, g.state), "elfsong_tavern") >= set(tiles), "every city tile is reachable"
    assert g.p("cy")["tile"] == "spys_roost"                    # whoever stands on it goes with it
    assert any("Spy's Roost" in e["text"] and "joins the city again" in e["text"] for e in events)


def test_the_traitor_places_the_wererats_on_the_outer_ring(engine):
    # Traitor's Tome, haunt 18: "Right Now" (Might back to its start and +2; one Wererat per adventurer on the outer
    # ring of city tiles, one per tile if possible)
    g = rats(engine)
    start = g.c.adventurers["lia"].tracks["might"].start
    g.p("bo")["traits"]["might"] = start - 1
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    assert g.p("bo")["traits"]["might"] == start + 2
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "place_chosen"
    squares = bd.grid(g.state["board"])
    names = {g.c.tiles[t].name: t for t in city(g)}
    for option in pending["options"]:
        tile = names[option]
        assert any(bd.neighbour_square(g.state["board"][tile], side) not in squares for side in bd.SIDES)
    assert "Elfsong Tavern" not in pending["options"]
    first = pending["options"][0]
    g.do("decide", "bo", choice=0)
    assert first not in g.state["pending"]["options"]
    g.decide_all(0)
    assert len({m["tile"] for m in pieces(g, WERERAT)}) == 3


def test_the_citizens_are_spread_over_the_start_tile(engine):
    # Secrets of Survival, haunt 18: "Right Now" (one Citizen per adventurer, evenly over the three rooms)
    g = rats(engine)
    ready(g)
    assert sorted(m["tile"] for m in pieces(g, CITIZEN)) == ["elfsong_tavern", "inner_chamber", "kitchen"]
    assert all(m["ally"] == "heroes" and m["traits"]["might"] == 2 for m in pieces(g, CITIZEN))
    assert g.state["haunt"]["counters"] == {TURNED: 0, RESCUED: 0}
    assert not any("by hand" in t for t in g.texts())


def test_the_wererat_bite_is_discarded_without_changing_traits(engine):
    # Traitor's Tome, haunt 18: "Right Now" (last point)
    g = rats(engine)
    g.give("bo", "wererat_bite")
    before = dict(g.p("bo")["traits"])
    ready(g)
    assert "wererat_bite" not in g.p("bo")["cards"] and "wererat_bite" in g.state["discard"]["event"]
    assert {t: v for t, v in g.p("bo")["traits"].items() if t != "might"} == \
        {t: v for t, v in before.items() if t != "might"}


def test_the_words_to_type_reach_each_side_only(engine):
    # Traitor's Tome and Secrets of Survival, haunt 18: "Special Citizen Rules" (each side's own words)
    g = rats(engine)
    events = ready(g)
    heroes = [e for e in events if "runs the Citizens" in e["text"]]
    traitor = [e for e in events if "Beating a stunned Citizen" in e["text"] and "runs the Citizens" not in e["text"]]
    assert {e["to"] for e in heroes} == {"ann", "cy"}
    assert {e["to"] for e in traitor} == {"bo"}


def test_the_npc_turn_comes_after_the_last_hero_and_before_the_traitor(engine, dice):
    # Secrets of Survival, haunt 18: "Special Citizen Rules" (an NPC turn after the last hero's, before the traitor's)
    # Ruling: Haunt 18: which hero runs the Citizens' NPC turn
    g = rats(engine)
    ready(g)
    seen = []
    for _ in range(5):
        turn = g.state["turn"]
        seen.append("npc" if turn.get("npc") else "monsters" if turn.get("monsters") else turn["player"])
        g.do("end", turn["player"])
    assert seen == ["cy", "ann", "npc", "bo", "monsters"]


def test_only_the_citizens_move_in_the_npc_turn(engine, dice):
    # Secrets of Survival, haunt 18: "Special Citizen Rules" (the heroes run the Citizens as monsters move)
    g = rats(engine)
    ready(g)
    dice.next(1, 1)  # the Citizens' Speed: 2
    to_npc_turn(g)
    assert g.state["turn"]["moves"] == {CITIZEN: 2}
    rat = pieces(g, WERERAT)[0]
    way = next(side for side, t in bd.exits(g.c, g.state["board"], rat["tile"]).items() if t)
    with pytest.raises(IllegalAction, match="Only the Citizens"):
        g.do("monster", "ann", op="move", monster=rat["id"], way=way)
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "kitchen")
    g.do("monster", "ann", op="move", monster=citizen["id"], way="east")
    assert mon(g, citizen["id"])["tile"] == "inner_chamber"
    g.do("end", "ann")
    g.do("end", "bo")  # the traitor's monster turn: the Citizens stay put
    assert g.state["turn"].get("monsters") and not g.state["turn"].get("npc")
    with pytest.raises(IllegalAction, match="NPC turn"):
        g.do("monster", "bo", op="move", monster=citizen["id"], way="east")


def test_a_citizen_on_the_waterfront_is_rescued_and_two_win(engine, dice):
    # Secrets of Survival, haunt 18: "Rescuing Citizens" and "You Win When..." (half of 3, rounded up: 2)
    g = rats(engine)
    ready(g)
    dice.next(2, 2)  # the Citizens' Speed: 4
    to_npc_turn(g)
    exits = bd.exits(g.c, g.state["board"], "waterfront")
    side, next_door = next((side, t) for side, t in exits.items() if t)
    way = bd.OPPOSITE[side]
    first, second = pieces(g, CITIZEN)[:2]
    first["tile"] = next_door
    g.do("monster", "ann", op="move", monster=first["id"], way=way)
    assert mon(g, first["id"])["dead"] and g.state["haunt"]["counters"][RESCUED] == 1
    assert g.state["phase"] == "haunt"
    second = mon(g, second["id"])
    second["tile"] = next_door
    g.do("monster", "ann", op="move", monster=second["id"], way=way)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_citizens_defend_with_a_die_for_each_hero_beside_them(engine, dice):
    # Traitor's Tome, haunt 18: "Special Citizen Rules" (1 more defence die for each hero on its tile)
    g = rats(engine)
    ready(g)
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")  # the NPC turn
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "elfsong_tavern")
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    dice.next(2, 2, 2, 2)   # Bo's Might: 8
    dice.next(0, 0, 0, 0)   # the Citizen: Might 2 and 2 heroes
    g.do("attack", "bo", target=citizen["id"])
    assert any(f"{CITIZEN} {citizen['number']} to defend (4 dice)" in t for t in g.texts())
    assert mon(g, citizen["id"])["stunned"] and not mon(g, citizen["id"])["dead"]


def test_the_heroes_cannot_attack_citizens_and_are_not_slowed_by_them(engine):
    # Secrets of Survival, haunt 18: "Special Citizen Rules" (allies of the heroes, opponents of the traitor)
    g = rats(engine)
    ready(g)
    g.put("bo", "kitchen")
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "elfsong_tavern")
    with pytest.raises(IllegalAction, match="on your side"):
        g.do("attack", "cy", target=citizen["id"])
    assert g.engine.ways_out(g.state, "cy")["west"]["cost"] == 1
    g.put("bo", "elfsong_tavern")
    assert g.engine.ways_out(g.state, "bo")["west"]["cost"] == 4  # the Citizen, Ann and Cy stand in his way


def test_beating_a_stunned_citizen_turns_it_into_a_wererat(engine, dice):
    # Traitor's Tome, haunt 18: "Turning a Citizen" (the NPC token is kept; a new Wererat that cannot act this turn)
    # Ruling: Haunt 18: "the turn it is created" for a new Wererat
    g = rats(engine)
    ready(g)
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "kitchen")
    citizen["stunned"] = True
    g.put("bo", "kitchen")
    dice.next(2, 2, 2)  # Bo: 6 against 0
    g.do("attack", "bo", target=citizen["id"])
    assert mon(g, citizen["id"])["dead"] and g.state["haunt"]["counters"][TURNED] == 1
    new = next(m for m in pieces(g, WERERAT) if m["tile"] == "kitchen")
    g.state["turn"]["monsters"] = True  # as if the monster turn of the same turn
    g.state["turn"]["moves"] = {WERERAT: 3}
    with pytest.raises(IllegalAction, match="cannot move or attack"):
        g.do("monster", "bo", op="move", monster=new["id"], way="east")


def test_a_wererat_attacks_a_citizen_in_the_monster_turn(engine, dice):
    # Traitor's Tome, haunt 18: "Turning a Citizen" ("you or another Wererat")
    g = rats(engine)
    ready(g)
    for pid in ("cy", "ann", "ann", "bo"):
        g.do("end", pid)
    assert g.state["turn"].get("monsters")
    rat = pieces(g, WERERAT)[0]
    citizen = pieces(g, CITIZEN)[0]
    citizen["tile"] = rat["tile"]
    citizen["stunned"] = True
    dice.next(2, 2, 2, 2)  # the Wererat's Might: 8
    g.do("monster", "bo", op="attack", monster=rat["id"], target=f"{CITIZEN} {citizen['number']}")
    assert mon(g, citizen["id"])["dead"] and g.state["haunt"]["counters"][TURNED] == 1


def test_a_citizen_attacks_the_traitor_in_the_npc_turn(engine, dice):
    # Secrets of Survival, haunt 18: "Special Citizen Rules" (Citizens follow the monsters' rules as the
    # traitor's opponents)
    g = rats(engine)
    ready(g)
    to_npc_turn(g)
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "elfsong_tavern")
    g.put("bo", "elfsong_tavern")
    before = sum(g.p("bo")["traits"].values())
    dice.next(2, 2)  # the Citizen: 4 against the traitor's 0
    g.do("monster", "ann", op="attack", monster=citizen["id"], target="bo")
    g.decide_all(0)
    assert sum(g.p("bo")["traits"].values()) == before - 4
    with pytest.raises(IllegalAction, match="Citizens fight the traitor"):
        other = next(m for m in pieces(g, CITIZEN) if m["tile"] == "kitchen")
        g.put("cy", "kitchen")
        g.do("monster", "ann", op="attack", monster=other["id"], target="cy")


def test_the_traitor_wins_with_two_citizens_turned(engine, dice):
    # Traitor's Tome, haunt 18: "You Win When..." (half of 3 rounded down, plus 1: 2)
    g = rats(engine)
    ready(g)
    g.state["haunt"]["counters"][TURNED] = 1
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "ann")
    citizen = next(m for m in pieces(g, CITIZEN) if m["tile"] == "kitchen")
    citizen["stunned"] = True
    g.put("bo", "kitchen")
    dice.next(2)
    g.do("attack", "bo", target=citizen["id"])
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_heroes_win_when_the_traitor_and_every_wererat_are_dead(engine, dice):
    # Secrets of Survival, haunt 18: "You Win When..." (first way)
    g = rats(engine)
    ready(g)
    for rat in pieces(g, WERERAT)[1:]:
        rat["dead"] = True
    g.do("trait", "bo", trait="sanity", delta=-8)
    assert g.state["phase"] == "haunt"
    g.do("slay", "cy", monster=pieces(g, WERERAT)[0]["id"])
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Traitor's Tome, haunt 18: "Turning a Citizen" (a Wererat attacks a Citizen in the monster turn); Secrets of
    # Survival, haunt 18: "Special Citizen Rules" (the Citizens fight for the heroes in the NPC turn) and "Rescuing
    # Citizens" (the Waterfront)
    def fights():
        return {(a["monster"], a["target"]) for a in legal_actions(engine.content, g.state)
                if a["type"] == "monster" and a["op"] == "attack" and a["target"] not in g.state["players"]}

    g = rats(engine)
    ready(g)
    rat = pieces(g, WERERAT)[0]
    citizen = pieces(g, CITIZEN)[0]
    citizen["tile"] = rat["tile"]
    ctx = Ctx(engine.content, g.state)
    assert set().union(*hooks.fire("monster_goals", ctx, citizen)) == {"waterfront"}
    assert set().union(*hooks.fire("monster_goals", ctx, rat)) == {m["tile"] for m in pieces(g, CITIZEN)}
    assert fights() == set()                                       # Cy's own turn: no monster fights
    to_npc_turn(g)
    assert fights() == {(citizen["id"], rat["id"])}                # the NPC turn: the Citizen on the Wererat
    g.do("end", "ann")
    g.do("end", "bo")
    assert g.state["turn"].get("monsters")
    assert fights() == {(rat["id"], citizen["id"])}                # the monster turn: the Wererat on the Citizen
    assert not mon(g, citizen["id"])["stunned"]                    # offering tried copies only


def test_an_undeclared_move_is_refused(engine):
    # Traitor's Tome and Secrets of Survival, haunt 18: the haunt has no moves of its own (attacks are ordinary)
    g = rats(engine)
    ready(g)
    pid = g.state["turn"]["player"]
    with pytest.raises(IllegalAction, match="no special moves"):
        g.do("task", pid, trait="might", task="rescue")
