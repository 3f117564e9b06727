import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.state import trait_value


def join_all(engine, advs, seed=1):
    state = engine.new_game(seed)
    for i, adv in enumerate(advs):
        state, _ = engine.apply(state, {"type": "join", "player": f"p{i}", "name": f"P{i}", "adventurer": adv})
    return state


# Rulebook: Setup ("3-6 adventurers")
def test_needs_three_players_to_start(engine):
    state = join_all(engine, ["torskar", "lia"])
    with pytest.raises(IllegalAction, match="At least 3 players"):
        engine.apply(state, {"type": "start", "player": "p0"})


# Rulebook: Setup ("3-6 adventurers")
def test_no_seventh_player(engine):
    state = join_all(engine, ["torskar", "lia", "gretchen", "grim", "azadeh", "dhadius"])
    with pytest.raises(IllegalAction, match="full"):
        engine.apply(state, {"type": "join", "player": "p6", "name": "P6", "adventurer": "aldan"})


# Rulebook: Setup ("There's a different adventurer on each side of an adventurer card. Pick one.")
def test_two_sides_of_one_card_cannot_both_play(engine):
    state = join_all(engine, ["torskar"])
    with pytest.raises(IllegalAction, match="shares a card with Torskar"):
        engine.apply(state, {"type": "join", "player": "p1", "name": "P1", "adventurer": "aldan"})
    assert "aldan" not in engine.free_adventurers(state)


def test_unknown_adventurer_lists_the_choices(engine):
    state = engine.new_game(1)
    with pytest.raises(IllegalAction, match="Choose from: .*Torskar Stonecleaver"):
        engine.apply(state, {"type": "join", "player": "p0", "name": "P0", "adventurer": "gandalf"})


def test_a_short_name_matches_the_start_of_a_word_only(engine):
    # A player's own name is not an adventurer: "bo" is no fragment match for Tasha Brightbottle
    assert engine.find_adventurer("tor") == "torskar" and engine.find_adventurer("silversong") == "miska"
    with pytest.raises(IllegalAction, match="No adventurer called 'Bo'"):
        engine.find_adventurer("Bo")


# Rulebook: Setup (start tiles, everyone on the Elfsong Tavern, starting values, shuffled decks and stacks)
def test_setup_lays_the_table(engine, content):
    state = join_all(engine, ["torskar", "lia", "gretchen", "grim"])
    state, events = engine.apply(state, {"type": "start", "player": "p0"})
    assert state["phase"] == "exploring"
    assert set(state["board"]) == {"kitchen", "inner_chamber", "elfsong_tavern", "kitchen_basement",
                                   "catacomb_landing"}
    for pid in state["seats"]:
        p = state["players"][pid]
        adv = content.adventurers[p["adventurer"]]
        assert p["tile"] == "elfsong_tavern"
        for trait, track in adv.tracks.items():
            assert trait_value(content, state, pid, trait) == track.values[track.start - 1]
    assert sorted(state["decks"]["event"]) == sorted(content.deck("event"))
    assert sorted(state["decks"]["item"]) == sorted(content.deck("item"))
    assert sorted(state["decks"]["omen"]) == sorted(content.deck("omen"))
    for stack in ("building", "street", "catacomb"):
        assert sorted(state["stacks"][stack]) == sorted(content.stack(stack))
    assert state["decks"]["event"] != sorted(content.deck("event")), "the event deck should be shuffled"


# Rulebook: Setup ("See who goes first": aid cards 1-6, lowest first, then to the left)
@pytest.mark.parametrize("seed", range(10))
def test_lowest_aid_card_goes_first_then_left(engine, seed):
    state = join_all(engine, ["torskar", "lia", "gretchen", "grim"], seed)
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    cards = {pid: state["players"][pid]["aid_card"] for pid in state["seats"]}
    assert len(set(cards.values())) == 4 and set(cards.values()) <= set(range(1, 7))
    first = min(cards, key=cards.get)
    assert state["turn"]["player"] == first == state["order"][0]
    seats = state["seats"]
    i = seats.index(first)
    assert state["order"] == seats[i:] + seats[:i]


def test_cannot_act_before_start_or_join_after(engine):
    state = join_all(engine, ["torskar", "lia", "gretchen"])
    with pytest.raises(IllegalAction, match="not started"):
        engine.apply(state, {"type": "end", "player": "p0"})
    state, _ = engine.apply(state, {"type": "start", "player": "p0"})
    with pytest.raises(IllegalAction, match="already started"):
        engine.apply(state, {"type": "join", "player": "p9", "name": "Late", "adventurer": "grim"})


def test_names_that_differ_only_by_invisible_characters_are_told_apart(engine):
    # Rulebook: Setting Up (each player takes an adventurer): two seats must not read the same; a name that cleans to
    # a seated player's (a zero-width space, case, spacing) gets its adventurer's name after it
    state = engine.new_game(3, "stop")
    state, _ = engine.apply(state, {"type": "join", "player": "u1", "name": "Bo", "adventurer": "lia"})
    state, events = engine.apply(state, {"type": "join", "player": "u2", "name": "B\u200bo", "adventurer": "torskar"})
    state, _ = engine.apply(state, {"type": "join", "player": "u3", "name": " bo ", "adventurer": "gretchen"})
    names = [state["players"][p]["name"] for p in state["seats"]]
    assert names[0] == "Bo"
    assert names[1] == f"Bo ({engine.content.adventurers['torskar'].name})"
    assert len({n.casefold() for n in names}) == 3
    assert events[-1]["text"].startswith(names[1] + " joins")
