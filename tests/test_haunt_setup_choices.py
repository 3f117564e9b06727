"""Setup pieces a side places where it chooses (at = "chosen"): the bot asks
that side, privately answerable, with only the tiles the book allows, one
piece at a time, and the first turn waits for the answers."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt_play import allowed_tiles
from tests.test_haunt_play import revealed


def at_haunt_7(engine):
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")  # the chart's haunt for these
    h = g.state["haunt"]
    h["number"], h["kind"], h["title"] = 7, "traitor", "Tonight's Special: Brains!"
    for pid in g.state["seats"]:
        g.do("ready", pid)
    return g


def test_the_traitor_places_each_intellect_devourer_away_from_heroes_and_each_other(engine):
    # Traitor's Tome, haunt 7, Right Now: one Intellect Devourer per adventurer, on a tile with no hero and no
    # other Intellect Devourer
    g = at_haunt_7(engine)
    traitor = g.state["haunt"]["traitors"][0]
    pending = g.state["pending"]
    assert pending["kind"] == "place_chosen" and pending["player"] == traitor
    assert g.state["turn"] is None, "the first turn waits for the setup"
    hero_tiles = {g.state["players"][p]["tile"] for p in g.state["seats"] if p != traitor}
    placed = []
    while g.state["pending"] and g.state["pending"]["kind"] == "place_chosen":
        tiles = g.state["pending"]["data"]["tiles"]
        assert not set(tiles) & hero_tiles and not set(tiles) & set(placed)
        with pytest.raises(IllegalAction):
            g.do("decide", next(p for p in g.state["seats"] if p != traitor), choice=0)
        placed.append(tiles[-1])
        g.do("decide", traitor, choice=len(tiles) - 1)
    devourers = [m for m in g.state["monsters"] if m["name"] == "Intellect Devourer"]
    assert len(devourers) == len(g.state["seats"]) or len(devourers) == len(placed)
    assert sorted(m["tile"] for m in devourers) == sorted(placed)
    assert g.state["turn"] is not None, "play starts once every piece is placed"


def test_the_minotaur_goes_on_a_catacomb_tile(engine):
    # Traitor's Tome, haunt 5, Right Now: the Minotaur on any catacomb tile
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    g.state["haunt"]["number"] = 5
    step = next(x for x in g.c.haunts[5].raw["setup"] if x.get("monster") == "Minotaur")
    tiles = allowed_tiles(Ctx(g.c, g.state), step)
    assert tiles and all(g.c.tiles[t].level == "catacomb" for t in tiles)


def test_a_counter_win_is_met_past_its_value_too(engine):
    # Found: counter wins tested equality, so a count down that jumped past 0 never won
    from bot.games.babg.engine.haunt_play import condition_met
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    h = g.state["haunt"]
    h.update({"counters": {"Hit points": -2}, "counter_start": {"Hit points": 5}})
    win = {"side": "heroes", "when": "counter_at", "counter": "Hit points", "value": 0}
    assert condition_met(Ctx(g.c, g.state), win)
    h["counters"]["Hit points"] = 1
    assert not condition_met(Ctx(g.c, g.state), win)
    h.update({"counters": {"Rituals": 7}, "counter_start": {"Rituals": 0}})
    assert condition_met(Ctx(g.c, g.state), {**win, "counter": "Rituals", "value": 6})


def test_a_token_count_win_counts_only_the_tiles_it_names(engine):
    # Found: token-count wins ignored the tile the book names
    from bot.games.babg.engine.haunt_play import condition_met
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    g.state["tokens"] += [{"name": "Ward", "tile": "kitchen_basement"}, {"name": "Ward", "tile": "kitchen"}]
    win = {"side": "heroes", "when": "token_count", "token": "quest", "label": "Ward", "op": ">=", "value": 2}
    assert condition_met(Ctx(g.c, g.state), win)
    assert not condition_met(Ctx(g.c, g.state), {**win, "on": ["catacomb"]})


def test_turn_numbers_run_on_through_the_haunt(engine):
    # Found: the turn number restarted at 1 when the haunt began
    from tests.test_haunt_play import all_ready
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    before = g.state["haunt"]["turns_before"]
    assert before >= 1
    all_ready(g)
    assert g.state["turn"]["number"] == before + 1


def test_a_chosen_haunt_brings_the_tile_its_setup_names(engine):
    # Ruling: a haunt whose setup names a tile not in play gets it at the first open door it fits (a haunt the
    # table chose, rather than the chart: haunt 10 comes from the chart only on the Neglected Shrine)
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    h = g.state["haunt"]
    h["number"], h["kind"], h["title"] = 10, "traitor", "Rabble Rousers"
    assert "neglected_shrine" not in g.state["board"]
    for pid in g.state["seats"]:
        g.do("ready", pid)
    assert "neglected_shrine" in g.state["board"]


def test_a_counter_is_found_whatever_the_case(engine):
    # Found: counter names had to be typed exactly, case included (the toolkit made a second counter)
    from tests.test_haunt_play import attack_ready
    g = attack_ready(engine)
    g.state["haunt"]["counters"] = {"Troll hit points": 5}
    g.do("counter", "ann", name="troll HIT points", delta=-2)
    assert g.state["haunt"]["counters"] == {"Troll hit points": 3}
