"""Haunt 40, Infernal Machine (Traitor's Tome; Secrets of Survival), played
through the engine's actions: the setup, the Machine that neither moves nor
suffers, rearranging the city, the board-wide attack, the instructions
gathered, handed over and fed in, and both sides' wins."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.death import die
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_play import all_ready, revealed

FED = "Instructions fed"


def machine_game(engine, where=0):
    """Ann reveals haunt 40 on the House of Blood (Iron Flask) and becomes the
    Machine there; order: Bo, Cy, Ann, then the (empty) monster turn."""
    g = revealed(engine, "house_of_blood", "iron_flask_of_tuerny")
    assert g.state["haunt"]["number"] == 40 and g.state["haunt"]["traitors"] == ["ann"]
    g.put("ann", "house_of_blood")
    g.give("ann", "potion_of_healing")
    all_ready(g, where)
    return g


def machine(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Infernal Machine")


def pages(g, tile=None):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == "Instruction" and (tile is None or t["tile"] == tile))


def held(g):
    return g.state["haunt"]["h40"]["pages"]


def test_setup_takes_the_traitor_off_the_board_and_asks_them_where_the_pages_go(engine):
    # Traitor's Tome, haunt 40: "Right Now" (figure removed, items dropped, the Machine on your tile, one quest
    # token per adventurer on tiles of your choice, no more than 1 per tile if possible)
    g = revealed(engine, "house_of_blood", "iron_flask_of_tuerny")
    g.put("ann", "house_of_blood")
    g.give("ann", "potion_of_healing")
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "place_chosen"
    assert "House of Blood" in pending["options"] and "Kitchen Basement" in pending["options"]
    assert g.state["piles"]["house_of_blood"] == ["potion_of_healing"] and g.p("ann")["cards"] == []
    assert machine(g)["tile"] == "house_of_blood"
    assert any(e["to"] == "ann" and "{move:rearrange}" in e["text"] for e in g.events)
    assert not any(e["to"] in ("bo", "cy", "all") and "rearrange" in e["text"] for e in g.events)
    assert any(e["to"] == "bo" and "{move:collect}" in e["text"] for e in g.events)
    g.do("decide", "ann", choice=0)
    assert "Catacomb Landing" not in g.state["pending"]["options"]   # 1 per tile while tiles are free
    all_ready(g)
    assert len(pages(g)) == 3 and len(set(pages(g))) == 3
    assert g.state["turn"]["player"] == "bo"
    assert not any("by hand" in t for t in g.texts())


def test_the_machine_cannot_move_be_hurt_or_attack_normally(engine, dice):
    # Traitor's Tome, haunt 40: "Infernal Machine" (cannot take damage or be stunned) and "Special Movement Rules"
    g = machine_game(engine)
    g.put("bo", "house_of_blood")
    dice.next(2, 2, 2)                        # Bo's Might attack
    g.do("attack", "bo", target="Infernal Machine")
    assert not machine(g)["stunned"] and any("cannot be damaged" in t for t in g.texts())
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")                        # the monster turn passes by itself
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")


def city_of_four(g):
    g.place("storehouse", "city", 3, 0)       # joined to the Elfsong Tavern's east door
    g.place("fountain", "city", 2, 1)         # joined to its south door
    g.put("bo", "storehouse")
    g.state["tokens"].append({"name": "Caltrops", "tile": "storehouse"})


def test_rearranging_moves_a_tile_with_what_is_on_it(engine, dice):
    # Traitor's Tome, haunt 40: "Rearranging the City" (move or swap, heroes and tokens travel with the tile;
    # never the start tile or the Machine's tile; once a turn)
    # Ruling: how often the city is rearranged and the Machine attacks (once each per traitor turn)
    g = machine_game(engine)
    city_of_four(g)
    with pytest.raises(IllegalAction, match="Only the traitor's side"):
        g.do("task", "bo", task="rearrange")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("task", "ann", task="rearrange")
    assert g.state["pending"]["options"] == ["Fountain", "Storehouse"]
    g.do("decide", "ann", choice=1)
    options = g.state["pending"]["options"]
    assert "trading places with the Fountain" in options
    assert not any("Elfsong" in o and "trading" in o for o in options)
    g.do("decide", "ann", choice=options.index("trading places with the Fountain"))
    board = g.state["board"]
    assert (board["storehouse"]["x"], board["storehouse"]["y"]) == (2, 1)
    assert (board["fountain"]["x"], board["fountain"]["y"]) == (3, 0)
    assert g.p("bo")["tile"] == "storehouse" and {"name": "Caltrops", "tile": "storehouse"} in g.state["tokens"]
    check(g.c, g.state)
    with pytest.raises(IllegalAction, match="already tried to rearrange"):
        g.do("task", "ann", task="rearrange")


def test_a_move_that_cuts_the_city_apart_is_not_offered(engine):
    # Traitor's Tome, haunt 40: "Rearranging the City" (you cannot cut off any tiles from the rest of the level)
    g = machine_game(engine)
    g.place("storehouse", "city", 3, 0)            # joined to the Elfsong Tavern
    g.place("spys_roost", "city", 4, 0, rot=3)     # its one doorway joins only the Storehouse
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine import city
    assert city.cut_off(ctx, g.state["board"], "city") == 0
    found = list(city.shifts(ctx, "storehouse", ["storehouse", "spys_roost"]))
    assert found == []                             # every move of the Storehouse strands the Spy's Roost
    assert list(city.shifts(ctx, "spys_roost", ["storehouse", "spys_roost"]))
    check(g.c, g.state)


def test_the_machine_attacks_every_hero_on_the_board_with_street_dice(engine, dice):
    # Traitor's Tome, haunt 40: "Special Attack Rules" (one Might roll against all heroes, +1 die per adjacent
    # street tile; read aloud before the first attack)
    g = machine_game(engine)
    g.place("fountain", "city", 1, -2)        # a street tile next to the House of Blood
    g.put("bo", "kitchen_basement")
    g.put("cy", "house_of_blood")
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(2, 2, 2)                        # the Machine: 3 dice (2 + 1 street)
    dice.next(2, 2)                           # Bo defends: 4
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)         # Cy defends: 16
    before = g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"]
    g.do("task", "ann", task="attack")
    said = g.texts()
    assert any("street rises like a wave" in t for t in said)
    assert any("+1 for the streets" in t for t in said)
    g.decide_all()
    assert g.p("bo")["traits"]["might"] + g.p("bo")["traits"]["speed"] == before - 2
    assert not machine(g)["stunned"]
    with pytest.raises(IllegalAction, match="already tried to shake"):
        g.do("task", "ann", task="attack")


def test_gathering_handing_and_feeding_instructions(engine, dice):
    # Secrets of Survival, haunt 40: "How to Collect the Machine's Instructions" and "How to Deactivate the Machine"
    # Ruling: feeding and gathering pages (task rolls once per turn)
    g = machine_game(engine)
    tile = pages(g)[0]
    g.put("bo", tile)
    g.put("cy", tile)
    dice.next(2, 2)                           # 4: a page
    g.do("task", "bo", trait="knowledge", task="collect")
    assert held(g) == {"bo": 1} and len(pages(g)) == 2
    with pytest.raises(IllegalAction, match="already"):
        g.do("task", "bo", trait="knowledge", task="collect")
    g.do("task", "bo", task="give", target="cy")
    assert held(g) == {"cy": 1}
    g.do("end", "bo")
    g.put("cy", "house_of_blood")
    knowledge = g.p("cy")["traits"]["knowledge"]
    dice.next(2, 2)
    g.do("task", "cy", trait="knowledge", task="feed")
    assert g.state["haunt"]["counters"][FED] == 1 and held(g) == {}
    assert g.p("cy")["traits"]["knowledge"] == knowledge + 1
    with pytest.raises(IllegalAction):
        g.do("task", "cy", trait="knowledge", task="feed")


def test_a_dead_hero_drops_their_pages(engine):
    # Secrets of Survival, haunt 40: "How to Collect the Machine's Instructions" (if you are killed, drop them)
    g = machine_game(engine)
    g.state["haunt"]["h40"]["pages"] = {"bo": 2}
    g.put("bo", "kitchen")
    die(Ctx(g.c, g.state), "bo", "test")
    assert pages(g, "kitchen") == ["kitchen", "kitchen"] and held(g) == {}


def test_the_heroes_win_once_every_page_is_fed(engine, dice):
    # Secrets of Survival, haunt 40: "You Win When..."
    g = machine_game(engine)
    g.state["haunt"]["counters"][FED] = 2
    g.state["haunt"]["h40"]["pages"] = {"bo": 1}
    g.put("bo", "house_of_blood")
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="feed")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_machine_wins_when_every_hero_is_dead(engine):
    # Traitor's Tome, haunt 40: "You Win When..."
    g = machine_game(engine)
    ctx = Ctx(g.c, g.state)
    die(ctx, "bo", "test")
    die(ctx, "cy", "test")
    from bot.games.babg.engine import haunt_play
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_buttons_and_goals(engine):
    # Secrets of Survival, haunt 40 (what the buttons and the built-in players are offered)
    g = machine_game(engine)
    tile = pages(g)[0]
    g.put("bo", tile)
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert offered == [{"type": "task", "player": "bo", "trait": "knowledge", "task": "collect"}]
    ctx = Ctx(g.c, g.state)
    assert set().union(*hooks.fire("haunt_goals", ctx, "bo")) == set(pages(g))
    g.state["haunt"]["h40"]["pages"] = {"bo": 1}
    assert set().union(*hooks.fire("haunt_goals", ctx, "bo")) == {"house_of_blood"}


def test_an_undeclared_move_is_refused(engine):
    g = machine_game(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="sabotage")


def test_pages_held_follow_a_seat_handed_over(engine, dice):
    # Secrets of Survival, haunt 40, "How to Deactivate the Machine": the pages a seat holds go with it to its new
    # holder, who can still feed them in
    g = machine_game(engine)
    g.state["haunt"]["h40"]["pages"] = {"bo": 1}
    g.do("handover", "bo", to="zed", name="Zed")
    assert held(g) == {"zed": 1}
    g.put("zed", "house_of_blood")
    dice.next(2, 2)
    g.do("task", "zed", trait="knowledge", task="feed")
    assert g.state["haunt"]["counters"][FED] == 1 and held(g) == {}
