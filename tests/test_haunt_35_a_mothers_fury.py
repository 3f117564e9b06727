"""Haunt 35, A Mother's Fury (no traitor), played through the engine's
actions: the setup and the Dragon's runner, the egg hunt, eggs as items,
the Dragon's four-step turn, the ruins, and both ways the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_play import all_ready, revealed

CLOCK, LEFT = "Turn/Damage", "Dragon Eggs left to find"


def fury(engine, runner=1):
    """Ann reveals haunt 35 on the Kobold Hideout (Meenlock); Bo is named to
    run the Dragon. Order: Bo, Cy, Ann, then the Dragon."""
    g = revealed(engine, "kobold_hideout", "meenlock")
    assert g.state["haunt"]["number"] == 35
    g.state["board"]["kobold_hideout"]["rot"] = 2  # its one doorway joins the Catacomb Landing
    all_ready(g)
    g.do("decide", "ann", choice=runner)
    return g


def dragon(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Dragon")


def tokens(g, name):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == name)


def counters(g):
    return g.state["haunt"]["counters"]


def to_dragon_turn(g):
    """The three hero turns; the Dragon's turn then plays itself out."""
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)


def test_setup_places_the_dragon_and_asks_the_revealer_who_runs_it(engine):
    # Secrets of Survival, haunt 35: "Right Now" (the Dragon on the haunt's tile, the track on 5, eggs twice the
    # adventurers, one player chosen to run the Dragon)
    # Ruling: who runs the Dragon (the haunt revealer names the player)
    g = revealed(engine, "kobold_hideout", "meenlock")
    all_ready(g)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h35_runner"
    assert pending["options"] == ["Ann", "Bo", "Cy"]
    g.do("decide", "ann", choice=1)
    assert dragon(g)["tile"] == "kobold_hideout"
    assert counters(g) == {CLOCK: 5, LEFT: 6}
    assert g.state["haunt"]["h35"]["runner"] == "bo"
    assert g.state["turn"]["player"] == "bo"
    assert not any("by hand" in t for t in g.texts())


def test_searching_for_an_egg_needs_the_tiles_number_once_a_turn(engine, dice):
    # Secrets of Survival, haunt 35: "How to Collect Dragon Eggs" (3+ on an item tile; an Obstacle marks the find;
    # once per turn; a found tile cannot be searched again)
    g = fury(engine)
    g.place("storehouse", "city", 3, 0)           # an item tile
    assert g.c.tiles["storehouse"].symbol == "item"
    g.put("bo", "storehouse")
    dice.next(2, 1)                            # Knowledge roll: 3
    g.do("task", "bo", trait="knowledge", task="search")
    assert tokens(g, "Obstacle") == ["storehouse"]
    assert g.state["haunt"]["h35"]["eggs"] == {"bo": 1} and counters(g)[LEFT] == 5
    with pytest.raises(IllegalAction, match="already tried to search"):
        g.do("task", "bo", trait="knowledge", task="search")
    g.do("end", "bo")
    g.put("cy", "storehouse")
    with pytest.raises(IllegalAction, match="already been found"):
        g.do("task", "cy", trait="knowledge", task="search")
    with pytest.raises(IllegalAction, match="knowledge"):
        g.do("task", "cy", trait="might", task="search")


def test_a_blank_tile_needs_six(engine, dice):
    # Secrets of Survival, haunt 35: "How to Collect Dragon Eggs" (6+ on a blank tile)
    g = fury(engine)
    g.put("bo", "inner_chamber")
    dice.next(2, 2, 1)                        # 5: not enough
    g.do("task", "bo", trait="knowledge", task="search")
    assert counters(g)[LEFT] == 6 and any("needed 6+" in t for t in g.texts())


def test_eggs_are_items_given_dropped_and_picked_up_and_drop_on_death(engine, dice):
    # Secrets of Survival, haunt 35: "How to Collect Dragon Eggs" (Dragon Eggs are items: dropped and traded)
    g = fury(engine)
    g.state["haunt"]["h35"]["eggs"] = {"bo": 2}
    counters(g)[LEFT] = 4
    g.put("cy", "elfsong_tavern")
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task" and a["task"] == "give"]
    assert [a["target"] for a in offered] == ["ann", "cy"]  # seat order
    with pytest.raises(IllegalAction, match="rolls no trait"):
        g.do("task", "bo", trait="knowledge", task="give", target="cy")
    g.do("task", "bo", task="give", target="cy")
    assert g.state["haunt"]["h35"]["eggs"] == {"bo": 1, "cy": 1}
    g.do("task", "bo", task="drop")
    assert tokens(g, "Dragon Egg") == ["elfsong_tavern"] and counters(g)[LEFT] == 5
    with pytest.raises(IllegalAction, match="hold no"):
        g.do("task", "bo", task="give", target="cy")
    with pytest.raises(IllegalAction, match="once a turn"):  # rulebook: one action with an item a turn
        g.do("task", "bo", task="pickup")
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    g.decide_all(0)
    g.put("bo", "elfsong_tavern")
    g.do("task", "bo", task="pickup")
    assert g.state["haunt"]["h35"]["eggs"] == {"bo": 1, "cy": 1} and counters(g)[LEFT] == 4
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine.death import die
    die(ctx, "cy", "test")
    assert tokens(g, "Dragon Egg") == ["elfsong_tavern"] and counters(g)[LEFT] == 5


def test_the_dragons_turn_flies_destroys_burns_and_ticks(engine, dice):
    # Secrets of Survival, haunt 35: "The Dragon's Turn" steps 1-4 and "Destroying a Tile"
    g = fury(engine)
    g.put("cy", "catacomb_landing")
    might_speed = g.p("cy")["traits"]["might"] + g.p("cy")["traits"]["speed"]
    g.do("end", "bo")
    g.do("end", "cy")
    dice.next(1, 1)                           # step 2: 2 tiles next to the Dragon
    g.do("end", "ann")
    said = g.texts()
    assert dragon(g)["tile"] == "catacomb_landing"         # stopped on Cy's tile
    assert "kobold_hideout" in tokens(g, "Destroyed")       # the tile it left
    assert "kitchen_basement" in tokens(g, "Destroyed")    # the only standing tile next to it
    while g.state["pending"]:                               # Cy splits 3 physical damage
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert any("scorches Cy" in t for t in said)
    assert g.p("cy")["traits"]["might"] + g.p("cy")["traits"]["speed"] == might_speed - 3
    assert counters(g)[CLOCK] == 4
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")
    check(g.c, g.state)


def test_the_dragon_moves_two_tiles_toward_the_nearest_hero(engine, dice):
    # Secrets of Survival, haunt 35: "The Dragon's Turn" step 1 (up to 2 tiles, any route the heroes can use)
    # Ruling: the Dragon's route (one tile at a time along a shortest way to the nearest hero)
    g = fury(engine)
    to_dragon_turn(g)
    assert dragon(g)["tile"] == "kitchen_basement"         # Landing, then the Kitchen Basement toward the stairs
    assert {"catacomb_landing", "kobold_hideout"} <= set(tokens(g, "Destroyed"))
    assert counters(g)[CLOCK] == 4 and g.state["turn"]["player"] == "bo"


def test_leaving_a_destroyed_tile_takes_might_or_speed_three(engine, dice):
    # Secrets of Survival, haunt 35: "Special Movement Rules" (3+, or 1 physical damage and the move goes on)
    g = fury(engine)
    g.state["tokens"].append({"name": "Destroyed", "tile": "elfsong_tavern"})
    before = [g.p("bo")["traits"][t] for t in ("might", "speed")]
    g.do("move", "bo", way="west")
    assert g.state["pending"]["options"] == ["Roll Might to leave the ruins", "Roll Speed to leave the ruins"]
    dice.next(0, 0, 0)                        # Speed roll fails
    g.do("decide", "bo", choice=1)
    while g.state["pending"]:
        g.do("decide", "bo", choice=0)
    assert g.p("bo")["tile"] == "inner_chamber"
    assert sum(g.p("bo")["traits"][t] for t in ("might", "speed")) == sum(before) - 1


def test_the_dragon_cannot_be_attacked_or_moved_by_hand(engine):
    # Secrets of Survival, haunt 35: "The Dragon's Turn" (no traits, cannot be attacked or stunned)
    g = fury(engine)
    g.put("bo", "kobold_hideout")
    assert not [a for a in legal_actions(g.c, g.state) if a["type"] == "attack"]
    with pytest.raises(IllegalAction):
        g.do("attack", "bo", target="Dragon")


def test_search_is_offered_as_a_button_and_goals_point_at_item_tiles(engine):
    # Secrets of Survival, haunt 35: "How to Collect Dragon Eggs" (the built-in players and the buttons)
    g = fury(engine)
    g.place("storehouse", "city", 3, 0)
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "task"]
    assert {"type": "task", "player": "bo", "trait": "knowledge", "task": "search"} in offered
    from bot.games.babg.engine import hooks
    goals = set().union(*hooks.fire("haunt_goals", Ctx(g.c, g.state), "bo"))
    assert goals == {"storehouse"}


def test_the_heroes_win_with_every_egg_in_hand(engine, dice):
    # Secrets of Survival, haunt 35: "You Win When..." (every egg held by a hero)
    g = fury(engine)
    g.place("storehouse", "city", 3, 0)
    g.put("bo", "storehouse")
    g.state["haunt"]["h35"]["pile"] = 1
    counters(g)[LEFT] = 1
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_heroes_lose_when_the_track_reaches_zero(engine, dice):
    # Secrets of Survival, haunt 35: "The Dragon's Turn" step 4 (at 0 the city is destroyed)
    g = fury(engine)
    counters(g)[CLOCK] = 1
    to_dragon_turn(g)
    g.decide_all()
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"
    assert any("The heroes are lost" in t for t in g.texts())


def test_an_undeclared_move_is_refused(engine):
    g = fury(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="hatch")


def test_the_dragons_runner_handed_over_still_runs_it_and_ends_its_turn(engine, dice):
    # Secrets of Survival, haunt 35, "Right Now" (one player runs the Dragon's turns): the runner's seat handed over
    # to someone new, the new holder runs the Dragon and the monster turn ends; eggs held follow the seat too
    g = fury(engine)
    g.state["haunt"]["h35"]["eggs"] = {"bo": 1}
    g.do("handover", "bo", to="zed", name="Zed")
    assert g.state["haunt"]["h35"]["runner"] == "zed" and g.state["haunt"]["h35"]["eggs"] == {"zed": 1}
    for pid in ("zed", "cy", "ann"):
        g.do("end", pid)
    g.decide_all(0)
    assert g.state["turn"]["player"] == "zed" and not g.state["turn"].get("monsters")
    assert counters(g)[CLOCK] == 4
