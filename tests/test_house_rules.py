"""The table's options (a chosen haunt, the rulebook's optional rule
Selecting the Haunt) and the house rules from the Betrayal Legacy rulebook
(`rules: legacy-house-rules`), each against its source line; with the option
off, the Baldur's Gate rule holds."""
import pytest

from bot.games.babg.engine import IllegalAction, cards
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunt import choose_traitors, nearest_left
from bot.games.babg.engine.specials.house_rules import HOUSE_RULES, large_monsters
from bot.games.babg.engine.turns import start_haunt
from tests.conftest import Game
from tests.test_haunt_play import all_ready, revealed
from tests.test_haunt_roll import draw_omen_at_house_of_blood

LEGACY = {"rules": ["legacy-house-rules"]}


def with_options(g, **options):
    g.state["options"].update(options)
    return g


def haunt_roll(g, dice):
    g.state["omens_revealed"] = 4
    dice.next(2, 2, 1, 1)  # 6: the haunt begins
    g.do("end", "ann")


# --- the options ---------------------------------------------------------------------

def test_options_are_checked_and_kept_in_the_state(engine):
    s = engine.new_game(1, options={"chosen_haunt": 4, "rules": ["legacy-house-rules"], "avoid_repeats": True,
                                    "played": [3, 18]})
    assert s["options"] == {"haunt": "play", "chosen_haunt": 4, "rules": ["legacy-house-rules"],
                            "avoid_repeats": True, "played": [3, 18]}
    for bad in ({"chosen_haunt": 51}, {"chosen_haunt": 0}, {"rules": ["house"]}, {"colour": "red"}):
        with pytest.raises(IllegalAction):
            engine.new_game(1, options=bad)


def test_a_chosen_haunt_replaces_the_charts_at_the_haunt_roll(engine, dice):
    # Rulebook: Revealing the Haunt; the table's option `haunt`: the chart's haunt 18 gives way to haunt 4
    g = with_options(Game(engine), chosen_haunt=4)
    draw_omen_at_house_of_blood(g)
    haunt_roll(g, dice)
    assert g.state["haunt"]["number"] == 4
    assert any("the table chose haunt 4; the chart gave 18" in t for t in g.texts())
    # the traitor comes from the traitor table for haunt 4, as usual
    assert g.state["haunt"]["traitors"] == choose_traitors(g.c, g.state, 4, "ann")


def test_a_chosen_haunt_wins_over_the_search(engine, dice):
    # Ruling: A chosen haunt (`haunt:` option) together with `avoid_repeats`
    g = with_options(Game(engine), chosen_haunt=4, avoid_repeats=True, played=[4, 18])
    draw_omen_at_house_of_blood(g)
    haunt_roll(g, dice)
    assert g.state["haunt"]["number"] == 4


def test_without_options_the_chart_gives_the_haunt(engine, dice):
    # Rulebook: Revealing the Haunt
    g = with_options(Game(engine), played=[18])  # played, but the optional rule is off
    draw_omen_at_house_of_blood(g)
    haunt_roll(g, dice)
    assert g.state["haunt"]["number"] == 18


def test_avoid_repeats_searches_the_nearest_omen_tile(engine, dice, content):
    # Rulebook (000 L407-415): Optional Rule: Selecting the Haunt: the next omen tile closest to the revealer,
    # read with the same omen; the revealer is moved there.
    g = with_options(Game(engine), avoid_repeats=True, played=[18])
    g.place("beasts_lair", "city", 1, -2)
    draw_omen_at_house_of_blood(g)
    haunt_roll(g, dice)
    assert content.haunt_for("berserker_axe", "beasts_lair") == 12
    assert g.state["haunt"]["number"] == 12 and g.state["haunt"]["tile"] == "beasts_lair"
    assert g.p("ann")["tile"] == "beasts_lair"


def test_avoid_repeats_then_reveals_the_next_omen(engine, dice, content):
    # Rulebook (000 L413-415): no placed tile helps: the next omen card on the revealer's row; it replaces the
    # omen that triggered the roll.
    # Ruling: Selecting the Haunt (the optional rule, `avoid_repeats`): the omen that is replaced
    g = with_options(Game(engine), avoid_repeats=True, played=[18])
    draw_omen_at_house_of_blood(g)
    g.top_card("omen", "book_of_spells")
    haunt_roll(g, dice)
    n = content.haunt_for("book_of_spells", "house_of_blood")
    assert n != 18 and g.state["haunt"]["number"] == n
    assert "book_of_spells" in g.p("ann")["cards"] and "berserker_axe" not in g.p("ann")["cards"]
    assert g.state["decks"]["omen"][-1] == "berserker_axe"


def test_avoid_repeats_with_every_haunt_played_keeps_the_charts(engine, dice):
    # Ruling: Selecting the Haunt: every haunt the search reaches has been played
    g = with_options(Game(engine), avoid_repeats=True, played=list(range(1, 51)))
    draw_omen_at_house_of_blood(g)
    omens = len(g.state["decks"]["omen"])
    haunt_roll(g, dice)
    assert g.state["haunt"]["number"] == 18 and len(g.state["decks"]["omen"]) == omens


# --- house rules from the Betrayal Legacy rulebook ---------------------------------------------

def test_house_rules_are_listed_with_their_source():
    assert [r[0] for r in HOUSE_RULES] == ["large_obstacles", "take_five", "skip_event", "random_tie", "bury"]
    assert all("Betrayal Legacy" in r[1] for r in HOUSE_RULES)


def hulk_beside_ann(engine, **options):
    g = with_options(revealed(engine, "beasts_lair", "dimensional_shackles", revealer="bo"), **options)
    assert g.state["haunt"]["number"] == 3  # Umber Hulk: "the large Umber Hulk monster token"
    tile = g.p("ann")["tile"]
    g.state["monsters"] = [{"id": "m1", "name": "Umber Hulk", "number": 1, "tile": tile, "traits": {"might": 8},
                            "stunned": False, "dead": False}]
    return g, tile


def leave_costs(g, pid="ann"):
    return {w: i["cost"] for w, i in g.engine.ways_out(g.state, pid).items()}


def test_large_monsters_cost_two_extra_to_leave(engine):
    # Betrayal Legacy rulebook L376, L805: a large monster is a large obstacle, 2 extra moves to leave
    # Ruling: Legacy house rules: which monsters are large
    g, _ = hulk_beside_ann(engine, **LEGACY)
    off, _ = hulk_beside_ann(engine)
    assert large_monsters(Ctx(g.c, g.state)) == {"umber hulk"}
    on_costs, off_costs = leave_costs(g), leave_costs(off)
    assert on_costs and all(on_costs[w] == off_costs[w] + 1 for w in on_costs)
    # Rulebook: Moving Past Opponents: with the option off, 1 extra for the monster, as for any opponent
    g.state["monsters"] = []
    assert all(leave_costs(g)[w] == off_costs[w] - 1 for w in on_costs)


def test_large_obstacle_tokens_cost_two_extra_to_leave(engine):
    # Betrayal Legacy rulebook L376: each small obstacle costs 1 extra move, each large one 2
    g, tile = hulk_beside_ann(engine, **LEGACY)
    g.state["monsters"] = []
    before = leave_costs(g)
    tk.place(g.state, "Rubble", tile, obstacle="large")
    tk.place(g.state, "Crates", tile, obstacle="small")
    assert all(leave_costs(g)[w] == before[w] + 3 for w in before)
    g.state["options"]["rules"] = []  # Baldur's Gate: tokens do not slow anyone
    assert leave_costs(g) == before


def traitor_on(engine, tile, **options):
    """Haunt 1 under way (Aldan's player, Ann, the traitor), on her turn on `tile`."""
    g = with_options(revealed(engine, "gladiator_pit", "pipes_of_haunting", advs=("aldan", "lia", "gretchen"),
                              revealer="bo"), **options)
    all_ready(g)
    assert g.state["haunt"]["traitors"] == ["ann"]
    if tile not in g.state["board"]:
        g.place(tile, "catacomb", 2, 0)
    g.put("ann", tile)
    g.state["turn"] = {**g.state["turn"], "player": "ann", "moved": 0, "stopped": False, "rolls": []}
    return g


def test_traitor_may_take_a_five_for_a_tiles_roll(engine, dice):
    # Betrayal Legacy rulebook L767: the traitor may use a result of 5 instead of a trait roll on a tile
    # Ruling: Legacy house rules: the traitor's result of 5
    g = traitor_on(engine, "forgotten_cache", **LEGACY)
    g.do("roll", "ann")
    assert g.state["pending"]["options"] == ["Roll the dice", "Take a result of 5"]
    items = len(g.p("ann")["cards"])
    g.do("decide", "ann", choice=1)
    g.decide_all()
    assert any("takes a result of 5 instead of rolling Knowledge" in t for t in g.texts())
    assert not any(e["kind"] == "roll" and e.get("faces") for e in g.events), "no dice rolled"
    assert len(g.p("ann")["cards"]) == items + 1, "the 5+ band: an item"


def test_traitor_rolls_for_a_tile_without_the_house_rule(engine, dice):
    # Rulebook: Attempt a Die Roll: the dice are rolled
    g = traitor_on(engine, "forgotten_cache")
    g.do("roll", "ann")
    assert g.state["pending"] is None or g.state["pending"]["kind"] != "house_take_five"
    assert any(e["kind"] == "roll" and "faces" in e for e in g.events)


def discover_event_tile(engine, **options):
    g = traitor_on(engine, "inner_chamber", **options)
    event_tile = next(x for x in g.state["stacks"]["building"] if g.c.tiles[x].symbol == "event")
    g.top("building", event_tile)
    top_event = g.state["decks"]["event"][0]
    g.do("move", "ann", way="north")
    while g.state["pending"] and g.state["pending"]["kind"] == "place_tile":
        g.do("decide", "ann", choice=0)
    return g, top_event


def test_traitor_may_leave_the_event_card_and_keep_moving(engine):
    # Betrayal Legacy rulebook L768: the traitor may choose not to draw the event card and go on moving
    g, top_event = discover_event_tile(engine, **LEGACY)
    assert g.state["pending"]["kind"] == "house_skip_event"
    g.do("decide", "ann", choice=1)
    assert g.state["decks"]["event"][0] == top_event, "the card stays on the deck"
    assert not g.state["turn"]["stopped"], "movement goes on"


def test_traitor_who_draws_the_event_resolves_it(engine):
    # Betrayal Legacy rulebook L768: a drawn event card is resolved as normal (and drawing ends movement)
    g, top_event = discover_event_tile(engine, **LEGACY)
    g.do("decide", "ann", choice=0)
    assert any(e["kind"] == "draw" and e.get("card") == top_event for e in g.events)
    assert g.state["turn"]["stopped"]


def test_without_the_house_rule_the_event_card_is_drawn(engine):
    # Rulebook: Discover a New Tile: the symbol's card is drawn, and drawing ends movement
    g, top_event = discover_event_tile(engine)
    assert not g.state["pending"] or g.state["pending"]["kind"] != "house_skip_event"
    assert top_event not in g.state["decks"]["event"]


def tie_game(engine):
    g = Game(engine, adventurers=("lia", "gretchen", "grim"), haunt="play")  # haunt 5: lowest Knowledge
    for pid in ("ann", "bo", "cy"):
        g.p(pid)["traits"]["knowledge"] = 1  # Lia 1, Gretchen 2, Grim 1: Ann and Cy tie
    g.place("beasts_lair", "city", 1, -1)
    return g


def reveal_5(g):
    ctx = Ctx(g.c, g.state)
    omen = next(o for o in g.c.chart_omens if g.c.haunt_for(o, "beasts_lair") == 5)
    start_haunt(ctx, "bo", omen, "beasts_lair")
    g.events = ctx.ev
    return g.state["haunt"]["traitors"]


def test_traitor_ties_are_broken_at_random(engine):
    # Betrayal Legacy rulebook L625: a tie for the traitor is decided by a random draw among the tied
    picked = set()
    for seed in range(12):
        g = with_options(tie_game(engine), **LEGACY)
        g.state["rng"] = seed
        picked.update(reveal_5(g))
        assert any("chance picks" in t for t in g.texts())
    assert picked == {"ann", "cy"}


def test_traitor_ties_without_the_house_rule(engine):
    # Ruling: traitor ties (the revealer, else the tied one nearest the revealer's left)
    for seed in range(4):
        g = tie_game(engine)
        g.state["rng"] = seed
        assert reveal_5(g) == [nearest_left(g.state, "bo", ["ann", "cy"])] == ["cy"]


def test_used_cards_are_buried_under_their_deck(engine):
    # Betrayal Legacy rulebook L82: no discard piles; a discarded card goes face down under its deck
    g = with_options(Game(engine), **LEGACY)
    item = next(c for c in g.state["decks"]["item"])
    g.give("ann", item)
    ctx = Ctx(g.c, g.state)
    cards.discard(ctx, item)
    assert g.state["decks"]["item"][-1] == item and item not in g.state["discard"]["item"]
    assert any("buried under the item deck" in e["text"] for e in ctx.ev)


def test_events_are_buried_and_never_reshuffled(engine):
    # Betrayal Legacy rulebook L82: the event read goes under its deck, so there is no pile to reshuffle
    g = with_options(Game(engine), **LEGACY)
    g.put("ann", "inner_chamber")
    g.top("building", next(x for x in g.state["stacks"]["building"] if g.c.tiles[x].symbol == "event"))
    first = g.state["decks"]["event"][0]
    g.do("move", "ann", way="north")
    g.decide_all()
    kept = first in g.p("ann")["cards"]
    assert kept or g.state["decks"]["event"][-1] == first
    assert g.state["discard"]["event"] == []


def test_without_the_house_rule_cards_are_discarded(engine):
    # Rulebook: Drawing Event, Item, and Omen Cards; Ruling: the event deck runs out (discards reshuffled)
    g = Game(engine)
    item = g.state["decks"]["item"][0]
    g.give("ann", item)
    cards.discard(Ctx(g.c, g.state), item)
    assert g.state["discard"]["item"] == [item] and item not in g.state["decks"]["item"]
