"""Haunt 26, Call of the Draakhorn (the revealer is the traitor), played
through the engine's actions: the Poison and how it spreads, the Treasure
Chests and the looting, the clues and the Draakhorn, the Orb of Dragonkind,
and every way the haunt ends."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.haunts.h26_call_of_the_draakhorn import spread_tiles
from tests.test_haunt_play import revealed

CHEST_TILES = {"smithy", "sorcerous_sundries", "storehouse", "trading_post", "weapon_shop", "forgotten_cache",
               "weapon_shop_basement"}
ROW = {"kitchen", "inner_chamber", "elfsong_tavern"}


def draakhorn(engine, answer=True):
    """Ann draws the Cursed Armor on the House of Blood: haunt 26, Ann the
    traitor; the order is Bo, Cy, Ann. Every setup question is answered
    with its first option."""
    g = revealed(engine, "house_of_blood", "cursed_armor")
    h = g.state["haunt"]
    assert h["number"] == 26 and h["traitors"] == ["ann"]
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    if answer:
        g.decide_all(0)
    return g


def tokens(g, name):
    return sorted(t["tile"] for t in g.state["tokens"] if t["name"] == name)


def mine(g):
    return g.state["haunt"]["h26"]


def counters(g):
    return g.state["haunt"]["counters"]


def test_setup_poison_orb_traits_and_counters(engine):
    # Traitor's Tome, haunt 26: "Right Now" (Might and Knowledge restored, +2 each; Poison on the start tile's
    # row; the Orb on the traitor); Secrets of Survival, haunt 26: "Right Now" (clues, Obstacle tokens)
    g = revealed(engine, "house_of_blood", "cursed_armor")
    g.p("ann")["traits"]["might"] = 1  # hurt during the exploration
    before = dict(g.p("ann")["traits"])
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    starts = g.c.adventurers[g.p("ann")["adventurer"]].tracks
    for t in ("might", "knowledge"):
        assert g.p("ann")["traits"][t] == min(8, max(before[t], starts[t].start) + 2)
    assert g.p("ann")["traits"]["speed"] == before["speed"]
    assert tokens(g, "Poison") == sorted(ROW)
    assert counters(g)["Poison tokens in reserve"] == 21
    assert counters(g)["Draakhorn clues left"] == 3 and counters(g)["Summons still needed"] == 2
    assert mine(g)["orb"] == "ann"


def test_the_traitor_searches_the_stacks_then_places_the_chests(engine):
    # Traitor's Tome, haunt 26: "Right Now" (1 Treasure Chest per adventurer on the named tiles, 1 per tile;
    # missing tiles searched for and joined to an open door of their level)
    g = draakhorn(engine, answer=False)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h26_search"
    assert len(pending["options"]) == 7
    g.decide_all(0)
    chests = tokens(g, "Treasure Chest")
    assert len(chests) == 3 and len(set(chests)) == 3 and set(chests) <= CHEST_TILES
    assert all(t in g.state["board"] for t in chests)
    assert g.state["turn"]["player"] == "bo"


def test_the_traitors_words_and_the_heroes_words_are_private(engine):
    # Both books: each side reads only its own special actions
    g = revealed(engine, "house_of_blood", "cursed_armor")
    for pid in list(g.state["seats"]):
        g.do("ready", pid)
    loot = [e for e in g.events if "{move:loot}" in e["text"]]
    clue = [e for e in g.events if "{move:clue}" in e["text"]]
    assert loot and {e["to"] for e in loot} == {"ann"}
    assert clue and {e["to"] for e in clue} == {"bo", "cy"}


def test_poison_spreads_only_next_to_poison(engine):
    # Traitor's Tome, haunt 26: "You Must Do This at the Start of Your Turn" (as many as the starting heroes,
    # each on a tile adjacent to a poisoned one)
    # Ruling: Haunt 26: Poison spreads to a city tile without Poison joined by a doorway to a poisoned one
    g = draakhorn(engine)
    g.place("haunted_alley", "city", 3, 0, rot=0)
    g.place("sorcerous_sundries", "city", 8, 8, rot=0)  # remote: joined to nothing poisoned
    g.do("end", "bo")
    g.do("end", "cy")
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h26_poison"
    ctx = Ctx(g.c, g.state)
    offered = set(pending["data"]["tiles"])
    assert "sorcerous_sundries" not in offered
    assert offered == set(spread_tiles(ctx))
    g.decide_all(0)
    assert len(tokens(g, "Poison")) == 3 + 2
    assert counters(g)["Poison tokens in reserve"] == 19
    assert "sorcerous_sundries" not in tokens(g, "Poison")


def test_a_hero_leaving_poison_rolls_speed_or_takes_damage(engine, dice):
    # Secrets of Survival, haunt 26: "Special Movement Rules" (Speed 3+ or 2 physical damage, movement goes on)
    g = draakhorn(engine)
    assert g.p("bo")["tile"] == "elfsong_tavern"
    before = sum(g.p("bo")["traits"][t] for t in ("might", "speed"))
    dice.next(0, 0, 0, 0)  # the Speed roll fails
    g.do("move", "bo", way="west")
    assert any("rolls Speed" in t for t in g.texts())
    g.decide_all(0)
    assert sum(g.p("bo")["traits"][t] for t in ("might", "speed")) == before - 2
    assert g.p("bo")["tile"] == "inner_chamber"


def test_the_traitor_is_not_hurt_by_poison(engine, dice):
    # Traitor's Tome, haunt 26: "Dragon Caller"
    g = draakhorn(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    before = dict(g.p("ann")["traits"])
    g.do("move", "ann", way="west")
    assert g.p("ann")["traits"] == before
    assert not any("Speed" in t and "rolls" in t for t in g.texts())


def test_clues_need_a_clean_tile_and_the_last_reveals_the_draakhorn(engine, dice):
    # Secrets of Survival, haunt 26: "How to Find a Clue" (Knowledge 5+ off the Poison; the last clue reveals a
    # building or street tile at the city door nearest the Elfsong Tavern, with the Draakhorn on it)
    # Ruling: Haunt 26: the revealed tile brings no card
    g = draakhorn(engine)
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="clue")  # the Elfsong Tavern has Poison
    g.put("bo", "house_of_blood")
    assert {"type": "task", "player": "bo", "trait": "knowledge", "task": "clue"} in legal_actions(g.c, g.state)
    counters(g)["Draakhorn clues left"] = 1
    dice.next(2, 2, 1)
    g.do("task", "bo", trait="knowledge", task="clue")
    g.decide_all(0)
    horn = tokens(g, "Draakhorn")
    assert len(horn) == 1 and horn[0] in g.state["board"]
    assert g.c.tiles[horn[0]].kind in ("building", "street")
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="clue")  # once per turn, and none left


def test_a_failed_clue_roll_finds_nothing(engine, dice):
    # Secrets of Survival, haunt 26: "How to Find a Clue" (5+)
    g = draakhorn(engine)
    g.put("bo", "house_of_blood")
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="clue")
    assert counters(g)["Draakhorn clues left"] == 3


def test_the_draakhorn_clears_poison_and_kills_the_dragon_with_the_orb_won(engine, dice):
    # Secrets of Survival, haunt 26: "How to Use the Draakhorn" and "You Win When..." (the Orb held by a hero as
    # the dragon dies)
    g = draakhorn(engine)
    g.state["tokens"].append({"name": "Draakhorn", "tile": "house_of_blood"})
    g.put("bo", "house_of_blood")
    g.state["haunt"]["h26"]["orb"] = "bo"
    counters(g)["Summons still needed"] = 1
    dice.next(2, 2)          # Knowledge 4
    dice.next(1, 1)          # 2 Poison tokens cleared
    g.do("task", "bo", trait="knowledge", task="horn")
    g.decide_all(0)
    assert tokens(g, "Obstacle") == ["elfsong_tavern"]
    assert tokens(g, "Poison") == []
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_a_summon_clears_the_rolled_poison_and_places_an_obstacle(engine, dice):
    # Secrets of Survival, haunt 26: "How to Use the Draakhorn" (dice = starting heroes)
    # Ruling: Haunt 26: the Draakhorn is sounded on its tile, once per turn; cleared Poison returns to the reserve
    g = draakhorn(engine)
    g.state["tokens"].append({"name": "Draakhorn", "tile": "house_of_blood"})
    g.put("bo", "house_of_blood")
    dice.next(2, 2)
    dice.next(1, 0)          # 1 Poison token cleared
    g.do("task", "bo", trait="knowledge", task="horn")
    assert g.state["pending"]["player"] == "bo" and g.state["pending"]["kind"] == "h26_cleanse"
    g.decide_all(0)
    assert len(tokens(g, "Poison")) == 2 and counters(g)["Summons still needed"] == 1
    assert g.state["phase"] == "haunt"


def test_the_dragon_dead_without_the_orb_is_no_win_yet(engine, dice):
    # Secrets of Survival, haunt 26: "You Win When..."
    # Ruling: Haunt 26: the green dragon dead, the heroes win once a hero holds the Orb
    g = draakhorn(engine)
    g.state["tokens"].append({"name": "Draakhorn", "tile": "house_of_blood"})
    g.put("bo", "house_of_blood")
    counters(g)["Summons still needed"] = 1
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="horn")
    g.decide_all(0)
    assert mine(g)["dead"] and g.state["phase"] == "haunt"
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["pending"] is None and len(tokens(g, "Poison")) == 0  # no more Poison for the traitor
    g.do("end", "ann")
    g.put("ann", "house_of_blood")
    dice.next(2, 2, 2, 2)    # Bo takes the Orb with a Knowledge attack
    g.do("attack", "bo", target="ann", trait="knowledge")
    g.do("decide", "bo", choice=0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_looting_is_the_traitors_and_harder_with_heroes_there(engine, dice):
    # Traitor's Tome, haunt 26: "Looting the City" (Knowledge or Speed 2+, +1 per hero on the tile; the chest
    # onto the card and an item card drawn); Secrets of Survival, haunt 26: "Treasure Chests"
    g = draakhorn(engine)
    chest = tokens(g, "Treasure Chest")[0]
    g.put("bo", chest)
    with pytest.raises(IllegalAction):
        g.do("task", "bo", trait="knowledge", task="loot")
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    g.put("ann", chest)
    dice.next(2)             # 2 is not enough: Bo is there (3+)
    g.do("task", "ann", trait="speed", task="loot")
    assert chest in tokens(g, "Treasure Chest")
    with pytest.raises(IllegalAction):
        g.do("task", "ann", trait="knowledge", task="loot")  # once per turn
    g.put("bo", "elfsong_tavern")
    g.state["turn"]["rolls"].clear()
    hand = len(g.p("ann")["cards"])
    dice.next(2)
    g.do("task", "ann", trait="speed", task="loot")
    g.decide_all(0)
    assert chest not in tokens(g, "Treasure Chest") and mine(g)["looted"] == 1
    assert len(g.p("ann")["cards"]) == hand + 1


def test_the_traitor_wins_ending_the_turn_on_the_house_of_blood_with_every_chest(engine, dice):
    # Traitor's Tome, haunt 26: "You Win When..."
    g = draakhorn(engine)
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    g.state["tokens"] = [t for t in g.state["tokens"] if t["name"] != "Treasure Chest"]
    mine(g)["looted"] = 3
    g.put("ann", "kitchen")
    g.do("end", "ann")
    assert g.state["phase"] == "haunt"
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    g.put("ann", "house_of_blood")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_knowledge_attacks_take_the_orb(engine, dice):
    # Both books, haunt 26: "Special Attack Rules" (Knowledge against the Orb's holder, who defends with
    # Knowledge; 2 or more damage may take the Orb instead)
    g = draakhorn(engine)
    g.put("bo", "house_of_blood")
    g.put("ann", "house_of_blood")
    dice.next(2, 2, 2, 2)    # Bo's Knowledge attack
    g.do("attack", "bo", target="ann", trait="knowledge")
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"][0] == "Take the Orb"
    g.do("decide", "bo", choice=0)
    assert mine(g)["orb"] == "bo"
    g.do("end", "bo")
    g.do("end", "cy")
    g.decide_all(0)
    g.put("ann", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    with pytest.raises(IllegalAction):
        g.do("attack", "ann", target="cy", trait="knowledge")  # Cy has no Orb


def test_a_hero_cannot_use_knowledge_once_the_orb_is_theirs(engine):
    # Secrets of Survival, haunt 26: "Special Attack Rules" (only to steal the Orb)
    g = draakhorn(engine)
    mine(g)["orb"] = "cy"
    g.put("bo", "house_of_blood")
    g.put("ann", "house_of_blood")
    with pytest.raises(IllegalAction):
        g.do("attack", "bo", target="ann", trait="knowledge")


def test_a_dead_holder_leaves_the_orb_on_the_tile(engine):
    # Ruling: Haunt 26: a dead holder's Orb stays on the tile; the declared move `orb` picks it up
    g = draakhorn(engine)
    mine(g)["orb"] = "cy"
    g.put("cy", "kitchen")
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine.death import die
    die(ctx, "cy", "test")
    assert tokens(g, "Orb of Dragonkind") == ["kitchen"] and mine(g)["orb"] is None
    g.put("bo", "kitchen")
    g.do("task", "bo", task="orb")
    assert mine(g)["orb"] == "bo" and tokens(g, "Orb of Dragonkind") == []


def test_the_heroes_win_when_the_traitor_dies(engine):
    # Secrets of Survival, haunt 26: "You Win When..." (the traitor killed)
    g = draakhorn(engine)
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine.death import die
    from bot.games.babg.engine.haunt_play import check_wins
    die(ctx, "ann", "test")
    check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_dies(engine):
    # Traitor's Tome, haunt 26: "You Win When..." (all the heroes killed)
    g = draakhorn(engine)
    ctx = Ctx(g.c, g.state)
    from bot.games.babg.engine.death import die
    from bot.games.babg.engine.haunt_play import check_wins
    die(ctx, "bo", "test")
    die(ctx, "cy", "test")
    check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_an_undeclared_move_is_refused(engine):
    # Declared moves only: a name the haunt does not declare is refused
    g = draakhorn(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="search")


def test_the_orb_holder_follows_a_seat_handover(engine):
    # Traitor's Tome, haunt 26: "Right Now" (the Orb starts on the traitor's card). Found: after the traitor's seat
    # was handed over, the record still named the old player and the next attack's check raised KeyError
    g = draakhorn(engine)
    g.do("handover", "ann", to="zed", name="Zed")
    assert mine(g)["orb"] == "zed"
    g.put("bo", "house_of_blood")
    g.put("zed", "house_of_blood")
    assert any(a["type"] == "attack" for a in legal_actions(g.c, g.state) if a["player"] == "bo")
    g.do("attack", "bo", target="zed", trait="knowledge")
