"""Haunt 29, Bottled Lightning (the revealer is the traitor), played through
the engine's actions: the setup (traits, the Flask, the Sea Spawn, the two
tiles), the flood and its spreading, the Sea Spawn clearing water, the
Flask that cannot attack, its empowering and delivery, and the wins."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine import moves
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.geometry import distances
from bot.games.babg.engine.haunts.h29_bottled_lightning import water_path
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

SHRINE, CHAMBER = "neglected_shrine", "flooded_chamber"


def lightning(engine):
    """Ann draws the Iron Flask of Tuerny on the Gladiator Pit: haunt 29,
    Ann the traitor; the order is Bo, Cy, Ann, then the monsters."""
    g = revealed(engine, "gladiator_pit", "iron_flask_of_tuerny")
    h = g.state["haunt"]
    assert h["number"] == 29 and h["traitors"] == ["ann"]
    all_ready(g)
    g.decide_all(0)
    return g


def floods(g, tile=None):
    return [t["tile"] for t in g.state["tokens"] if t["name"] == "Flood" and (tile is None or t["tile"] == tile)]


def spawn(g):
    return [m for m in g.state["monsters"] if m["name"] == "Sea Spawn"]


def test_setup_traits_flask_sea_spawn_and_tiles(engine):
    # Traitor's Tome, haunt 29: "Right Now" (Might restored and +2, Speed -1 never to the skull; a Sea Spawn per
    # hero on the Catacomb Landing, then the Kitchen Basement); Secrets of Survival, haunt 29: "Right Now" (the
    # Neglected Shrine and the Flooded Chamber fetched, as far apart as possible)
    # Ruling: Haunt 29: the traitor takes the Iron Flask when no adventurer holds it
    g = revealed(engine, "gladiator_pit", "iron_flask_of_tuerny")
    g.p("ann")["traits"]["speed"] = 1
    before = dict(g.p("ann")["traits"])
    all_ready(g)
    g.decide_all(0)
    start = g.c.adventurers[g.p("ann")["adventurer"]].tracks["might"].start
    assert g.p("ann")["traits"]["might"] == min(8, max(before["might"], start) + 2)
    assert g.p("ann")["traits"]["speed"] == 1 and g.p("ann")["alive"]
    assert "iron_flask_of_tuerny" in g.p("ann")["cards"]
    assert sorted(m["tile"] for m in spawn(g)) == ["catacomb_landing", "kitchen_basement"]
    assert SHRINE in g.state["board"] and CHAMBER in g.state["board"]
    assert g.state["haunt"]["counters"]["Obstacle tokens on the Neglected Shrine"] == 0


def test_the_speed_loss_is_made_when_it_is_safe(engine):
    # Traitor's Tome, haunt 29: "Right Now" (lose 1 Speed)
    g = revealed(engine, "gladiator_pit", "iron_flask_of_tuerny")
    g.p("ann")["traits"]["speed"] = 4
    all_ready(g)
    g.decide_all(0)
    assert g.p("ann")["traits"]["speed"] == 3


def test_each_side_reads_only_its_own_words(engine):
    # Both books, haunt 29: each side's special actions
    g = revealed(engine, "gladiator_pit", "iron_flask_of_tuerny")
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    release = [e for e in g.events if "{move:release}" in e["text"]]
    drain = [e for e in g.events if "{move:drain}" in e["text"]]
    assert release and {e["to"] for e in release} == {"ann"}
    assert drain and {e["to"] for e in drain} == {"bo", "cy"}


def test_the_flask_cannot_be_opened_to_attack(engine):
    # Both books, haunt 29: "Stealing the Iron Flask of Tuerny" (it cannot be used to attack)
    g = lightning(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    with pytest.raises(IllegalAction):
        g.do("use", "ann", card="iron_flask_of_tuerny")
    assert not any(a["type"] == "use" and a["card"] == "iron_flask_of_tuerny" for a in legal_actions(g.c, g.state))


def test_draining_the_chamber_starts_a_flood_that_flows_each_hero_turn(engine, dice):
    # Secrets of Survival, haunt 29: "How to Start the Flood" (Knowledge 4+ on the Flooded Chamber) and "You Must
    # Do This at the Start of Your Turn" (a die of tokens along the shortest way, one per dry tile)
    # Ruling: Haunt 29: the water takes the first of equally short ways by tile name
    g = lightning(engine)
    g.put("bo", "elfsong_tavern")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="drain")
    g.put("bo", CHAMBER)
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="drain")
    assert floods(g) == [CHAMBER]
    path = water_path(Ctx(g.c, g.state))
    assert path[0] == CHAMBER and path[-1] == SHRINE
    dice.next(2)             # Cy's turn begins: a die of 2
    g.do("end", "bo")
    placed = set(floods(g))
    assert placed == set(path[:3]) or (len(path) <= 3 and SHRINE in placed)


def test_a_flooded_tile_costs_one_more_space_to_enter(engine):
    # Secrets of Survival, haunt 29: "Special Movement Rules"
    g = lightning(engine)
    ctx = Ctx(g.c, g.state)
    ways = moves.ways_out(ctx, "bo")
    way, info = next((w, i) for w, i in ways.items() if i.get("to"))
    g.state["tokens"].append({"name": "Flood", "tile": info["to"], "enter_cost": 2})
    assert moves.ways_out(Ctx(g.c, g.state), "bo")[way]["cost"] == info["cost"] + 1


def test_three_flood_tokens_on_the_shrine_win_for_the_heroes(engine, dice):
    # Secrets of Survival, haunt 29: "Flooding the Shrine"
    g = lightning(engine)
    g.state["haunt"]["h29"]["started"] = True
    for _ in range(2):
        g.state["tokens"].append({"name": "Flood", "tile": SHRINE, "enter_cost": 2})
    for tile in water_path(Ctx(g.c, g.state))[:-1]:
        g.state["tokens"].append({"name": "Flood", "tile": tile, "enter_cost": 2})
    dice.next(1)
    g.do("end", "bo")        # Cy's turn begins: the water reaches the shrine a third time
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_a_sea_spawn_may_clear_water_instead_of_attacking(engine, dice):
    # Traitor's Tome, haunt 29: "Special Attack Rules" (Speed 4+ to take 1 Obstacle token off its tile)
    g = lightning(engine)
    m = spawn(g)[0]
    g.state["tokens"].append({"name": "Flood", "tile": m["tile"], "enter_cost": 2})
    g.put("bo", m["tile"])
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="speed", task="bail", target=m["id"])  # not in the monster turn
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["turn"].get("monsters")
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert {"type": "task", "player": "ann", "trait": "speed", "task": "bail", "target": m["id"]} in offered
    dice.next(1, 1, 1, 1)
    g.do("task", "ann", trait="speed", task="bail", target=m["id"])
    assert floods(g, m["tile"]) == []
    with pytest.raises(IllegalAction):
        g.do("monster", "ann", op="attack", monster=m["id"], target="bo")


def test_the_flask_is_empowered_on_a_street_and_sea_spawn_reroll_blanks(engine, dice):
    # Traitor's Tome, haunt 29: "How to Empower the Iron Flask of Tuerny" and "Using the Empowered Flask"
    g = lightning(engine)
    g.place("haunted_alley", "city", 3, 0, rot=0)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", "haunted_alley")
    g.do("end", "ann")
    assert g.state["haunt"]["h29"]["empowered"]
    g.decide_all(0)
    while g.state["turn"].get("monsters"):
        g.do("end", g.state["turn"]["player"])
    m = spawn(g)[0]
    g.put("bo", m["tile"])
    dice.next(2, 2)          # Bo attacks: 4
    dice.next(0, 0, 2)       # the Sea Spawn defends: 2, with two blanks
    dice.next(1, 1)          # the blanks again: 2 more
    g.do("attack", "bo", target=m["id"])
    assert any("blank dice again" in t for t in g.texts())
    assert any("A tie (4 to 4)" in t for t in g.texts())


def test_the_traitor_frees_the_marid_on_the_shrine(engine, dice):
    # Traitor's Tome, haunt 29: "Delivering the Flask" (Knowledge 4+, +1 per hero on the tile)
    g = lightning(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.put("ann", SHRINE)
    with pytest.raises(IllegalAction):
        g.do("task", "ann", trait="knowledge", task="release")  # not yet empowered
    g.state["haunt"]["h29"]["empowered"] = True
    g.put("bo", SHRINE)
    dice.next(2, 2)          # 4 is not enough with Bo there (5+)
    g.do("task", "ann", trait="knowledge", task="release")
    assert g.state["phase"] == "haunt"
    g.state["turn"]["rolls"].clear()
    dice.next(2, 2, 1)
    g.do("task", "ann", trait="knowledge", task="release")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_the_heroes_win_when_the_traitor_dies(engine):
    # Secrets of Survival, haunt 29: "You Win When..."
    from bot.games.babg.engine.death import die
    from bot.games.babg.engine.haunt_play import check_wins
    g = lightning(engine)
    ctx = Ctx(g.c, g.state)
    die(ctx, "ann", "test")
    check_wins(ctx)
    assert g.state["result"]["winner"] == "heroes"


def test_the_shrine_and_chamber_lie_far_apart(engine):
    # Secrets of Survival, haunt 29: "Right Now" ("as far from each other as possible")
    g = lightning(engine)
    d = distances(Ctx(g.c, g.state), SHRINE).get(CHAMBER, 99)
    assert d >= 2


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = lightning(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="flood")
