"""Haunt 45, Forever Mead, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 45). Ann (Torskar) reveals it with the Book of
Spells on the House of Blood; Bo (Lia), with the lowest Might, becomes the
Dungeon Master; Ann and Cy are the poisoned heroes."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import revealed


def mead_game(engine):
    g = revealed(engine, "house_of_blood", "book_of_spells")
    assert g.state["haunt"]["number"] == 45 and g.state["haunt"]["traitors"] == ["bo"]
    events = []
    for pid in g.state["seats"]:
        g.do("ready", pid)
        events += g.events
    while g.state["pending"] and g.state["pending"]["kind"] == "h45_potion_tile":
        g.do("decide", "bo", choice=0)
        events += g.events
    g.events = events
    return g


def mine(g):
    return g.state["haunt"]["h45"]


def test_setup_the_dm_dies_and_keeps_a_secret_sheet_of_potions(engine):
    # Traitor's Tome, haunt 45: "Right Now" (the adventurer is dead; heroes + 3 Potions: + for each hero, one X, two -,
    # written in secret, placed face down one per tile where possible; a hand of fate of heroes + 1 events)
    g = mead_game(engine)
    assert not g.p("bo")["alive"]
    marks = sorted(mine(g)["marks"].values())
    assert marks == ["+", "+", "-", "-", "X"]
    potions = [t for t in g.state["tokens"] if t["name"] == "Potion"]
    assert len(potions) == 5 and len({t["tile"] for t in potions}) == 5
    assert len(g.state["haunt"]["beside_board"]) == 3
    assert g.state["haunt"]["counters"]["Poison"] == 2
    sheet = [e for e in g.events if e["text"].startswith("Your sheet")]
    assert sheet and {e["to"] for e in sheet} == {"bo"}


def test_the_heroes_see_neither_the_marks_nor_the_hand_nor_the_numbers(engine):
    # Traitor's Tome, haunt 45: "Right Now" (the sheet and the hand of fate are the DM's secrets); visibility
    g = mead_game(engine)
    hand = [e for e in g.events if e["text"].startswith("Your hand of fate")]
    assert hand and {e["to"] for e in hand} == {"bo"}
    seen = view(g.state, "ann")
    assert "h45" not in seen["haunt"] and "beside_board" not in seen["haunt"]
    assert all("number" not in t for t in seen["tokens"] if t["name"] == "Potion")


def test_the_dm_picks_a_card_of_the_hand_for_each_hero_turn_by_position(engine):
    # Traitor's Tome, haunt 45: "You Must Do This at the Start of Each Hero's Turn" (a card from the hand, then a
    # replacement drawn); the options name no card, so the hand stays hidden
    g = mead_game(engine)
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["kind"] == "h45_fate"
    assert pending["options"] == ["Card 1", "Card 2", "Card 3"]
    first = g.state["haunt"]["beside_board"][0]
    g.do("decide", "bo", choice=0)
    assert first not in g.state["haunt"]["beside_board"] and len(g.state["haunt"]["beside_board"]) == 3
    assert any("The DM hands" in e["text"] and e["to"] == "all" for e in g.events)


def hero_turn(g, pid):
    for _ in range(8):
        g.decide_all(0)
        if g.state["turn"]["player"] == pid and g.state["phase"] == "haunt":
            return
        g.do("end", g.state["turn"]["player"])
    raise AssertionError(f"no turn for {pid}")


def test_searching_for_a_potion_is_knowledge_3_once_a_turn(engine, dice):
    # Secrets of Survival, haunt 45: "How to Find a Potion"
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    token = next(t for t in g.state["tokens"] if t["name"] == "Potion")
    g.put(pid, token["tile"])
    assert {"type": "task", "player": pid, "trait": "knowledge", "task": "search"} in legal_actions(g.c, g.state)
    dice.next(1, 1, 1)
    g.do("task", pid, trait="knowledge", task="search")
    assert mine(g)["held"][pid] == [token["number"]]
    found = [e for e in g.events if e["text"].startswith("It is Potion")]
    assert {e["to"] for e in found} == {pid}
    with pytest.raises(IllegalAction, match="this turn"):
        g.do("task", pid, trait="knowledge", task="search")


def test_testing_tells_only_the_hero_and_the_dm(engine, dice):
    # Traitor's Tome and Secrets of Survival, haunt 45: "Testing a Potion" (on the Arcane Retreat; 5+ the kind)
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    mine(g)["held"][pid] = ["1"]
    with pytest.raises(IllegalAction, match="Arcane Retreat"):
        g.do("task", pid, trait="knowledge", task="test", number=1)
    g.place("arcane_retreat", "catacomb", 5, 5)
    g.put(pid, "arcane_retreat")
    dice.next(2, 2, 2)
    g.do("task", pid, trait="knowledge", task="test", number=1)
    told = [e for e in g.events if e["text"].startswith("Potion 1 is")]
    assert told and {e["to"] for e in told} == {pid, "bo"}


def test_drinking_vitality_cures_and_stops_movement_and_enough_cures_win(engine):
    # Traitor's Tome, haunt 45: "Drinking a Potion"; Secrets of Survival, haunt 45: "Special Movement Rules" and "You
    # Win When..." (half the starting heroes, rounded up: 1 of 2)
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    good = next(n for n, m in mine(g)["marks"].items() if m == "+")
    mine(g)["held"][pid] = [good]
    g.do("task", pid, task="drink", number=int(good))
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_drinking_poison_kills(engine):
    # Traitor's Tome, haunt 45: "Drinking a Potion" (X: the hero dies)
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    bad = next(n for n, m in mine(g)["marks"].items() if m == "X")
    mine(g)["held"][pid] = [bad]
    g.do("task", pid, task="drink", number=int(bad))
    assert not g.p(pid)["alive"]


def test_the_poison_roll_at_the_end_of_each_hero_turn(engine, dice):
    # Secrets of Survival, haunt 45: "You Must Do This at the End of Your Turn" (Might against the slider, or 1 die of
    # physical damage)
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    before = dict(g.p(pid)["traits"])
    dice.next(0, 0, 0, 0)  # Might 0: fails the slider's 2
    dice.next(2)           # 2 physical damage
    g.do("end", pid)
    g.decide_all(0)
    after = g.p(pid)["traits"]
    assert after["might"] + after["speed"] == before["might"] + before["speed"] - 2


def test_the_slider_rises_once_a_round_in_the_dms_place(engine):
    # Traitor's Tome, haunt 45: "You Must Do This at the Start of Your Turn" (Ruling: the dead DM's turn comes after
    # the heroes', so the slider rises before each new round's first hero turn)
    g = mead_game(engine)
    first = g.state["turn"]["player"]
    assert g.state["haunt"]["counters"]["Poison"] == 2
    g.decide_all(0)
    g.do("end", first)
    hero_turn(g, first)
    assert g.state["haunt"]["counters"]["Poison"] == 3


def test_drink_and_test_take_the_potion_the_hero_names(engine, dice):
    # Secrets of Survival, haunt 45: "Testing a Potion" (the hero says which numbered Potion they test) and "Drinking
    # a Potion" (the hero uses the Potion they choose): a hero holding a known poison first can still drink another
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    bad = next(n for n, m in mine(g)["marks"].items() if m == "X")
    good = next(n for n, m in mine(g)["marks"].items() if m == "+")
    mine(g)["held"][pid] = [bad, good]
    g.place("arcane_retreat", "catacomb", 5, 5)
    g.put(pid, "arcane_retreat")
    assert {"type": "task", "player": pid, "task": "drink", "number": int(good)} in legal_actions(g.c, g.state)
    with pytest.raises(IllegalAction, match="Which Potion"):
        g.do("task", pid, task="drink")
    dice.next(2, 2, 2)
    g.do("task", pid, trait="knowledge", task="test", number=int(good))
    assert any(e["text"].startswith(f"Potion {good} is") for e in g.events)
    g.do("task", pid, task="drink", number=int(good))
    assert g.p(pid)["alive"] and g.state["result"]["winner"] == "heroes"
    assert mine(g)["held"][pid] == [bad]


def test_potions_are_dropped_picked_up_and_traded_like_items(engine, dice):
    # Secrets of Survival, haunt 45: "How to Find a Potion" L5186 (Potion tokens are items: used, traded, dropped or
    # stolen); rulebook, "Use Item and Omen Cards" (one drop, pick-up or trade of an item a turn)
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    other = next(p for p in ("ann", "cy") if p != pid)
    mine(g)["held"][pid] = ["1", "2"]
    here = g.p(pid)["tile"]
    g.put(other, here)
    g.do("task", pid, task="drop_potion", number=1)
    assert mine(g)["held"][pid] == ["2"]
    assert {"name": "Potion", "tile": here, "number": "1", "dropped": True} in g.state["tokens"]
    with pytest.raises(IllegalAction, match="already been dropped"):
        g.do("task", pid, task="pick_up_potion")
    g.do("task", pid, task="trade_potion", number=2, target=other)
    assert g.state["pending"]["player"] == other
    g.do("decide", other, choice=0)
    assert mine(g)["held"][pid] == [] and mine(g)["held"][other] == ["2"]
    assert {e["to"] for e in g.events if e["text"] == "It is Potion 2."} == {other}
    g.do("end", pid)
    hero_turn(g, other)
    g.put(other, here)
    g.do("task", other, task="pick_up_potion")
    assert mine(g)["held"][other] == ["2", "1"]
    assert not [t for t in g.state["tokens"] if t["name"] == "Potion" and t["tile"] == here and t.get("dropped")]


def test_a_potion_can_be_stolen_by_an_attack_instead_of_damage(engine, dice):
    # Secrets of Survival, haunt 45: L5186 (Potions may be stolen); rulebook, "Stealing Items" (an attack on your tile
    # that would deal 2 or more damage)
    from bot.games.babg.engine.ctx import Ctx
    from bot.games.babg.engine.haunts import h45_forever_mead as h45
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    pid = g.state["turn"]["player"]
    other = next(p for p in ("ann", "cy") if p != pid)
    mine(g)["held"][other] = ["3"]
    options = h45.ForeverMead().steal_instead(Ctx(g.c, g.state), pid, other, 2, False)
    assert len(options) == 1 and "3" not in options[0]["label"]
    assert h45.ForeverMead().steal_instead(Ctx(g.c, g.state), pid, other, 2, True) is None  # not from afar
    h45._steal(Ctx(g.c, g.state), {"player": other}, options[0]["steps"][0])
    assert mine(g)["held"][other] == [] and mine(g)["held"][pid] == ["3"]


def test_an_undeclared_move_is_refused(engine):
    g = mead_game(engine)
    hero_turn(g, g.state["turn"]["player"])
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="might", task="brew")
