"""Haunt 36, The Big Score (no traitor until the Star of Thay is found),
played through the engine's actions: the search with helpers, the Speed
roll-off, the finder turned traitor in secret, the Star as an item
(stolen, dropped, taken, handed over), fencing it, and the last adventurer
alive."""
import pytest

from bot.games.babg.engine import IllegalAction, haunt_play
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.death import die
from tests.test_haunt_play import all_ready, revealed


def big_score(engine):
    """Ann draws the Figurine of Wondrous Power on the Sacrificial Chamber:
    haunt 36, nobody a traitor yet; play starts at Bo (the revealer's left).
    The Vacated Shop (a catacomb item tile) and the Marketplace are placed."""
    g = revealed(engine, "sacrificial_chamber", "figurine_of_wondrous_power")
    h = g.state["haunt"]
    assert h["number"] == 36 and h["traitors"] == [] and h["kind"] == "none_yet"
    g.place("vacated_shop", "catacomb", 3, -1)
    g.place("marketplace", "city", 6, 6)
    all_ready(g)
    return g


def star(g):
    return g.state["haunt"].get("h36", {}).get("holder")


def found_by(g, dice, pid="bo"):
    """`pid` searches alone on the Vacated Shop and finds the Star."""
    g.put(pid, "vacated_shop")
    dice.next(2, 2, 2, 1)  # 7
    g.do("task", pid, trait="knowledge", task="search")
    assert star(g) == pid


def test_setup_names_no_traitor_and_play_starts_left_of_the_revealer(engine):
    # Secrets of Survival, haunt 36: "Right Now" (the Star beside the board; the revealer's left begins)
    g = big_score(engine)
    assert g.state["turn"]["player"] == "bo"
    assert g.state["haunt"]["traitors"] == [] and star(g) is None
    texts = [e["text"] for e in g.events if e["to"] == "all"]
    assert any("{move:search}" in t for t in texts)


def test_the_search_needs_a_catacomb_item_tile_and_one_try_a_turn(engine, dice):
    # Secrets of Survival, haunt 36: "How to Search for the Star of Thay" (Knowledge or Speed 7+ on an item tile
    # of the catacomb level). Ruling: searching for the Star (once a turn, as every task roll).
    g = big_score(engine)
    with pytest.raises(IllegalAction, match="item tile of the catacomb"):
        g.do("task", "bo", trait="knowledge", task="search")
    g.put("bo", "vacated_shop")
    with pytest.raises(IllegalAction, match="knowledge or speed"):
        g.do("task", "bo", trait="might", task="search")
    dice.next(2, 2, 2)  # 6: short of 7
    g.do("task", "bo", trait="knowledge", task="search")
    assert star(g) is None
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", trait="speed", task="search")


def test_helpers_lower_the_target_and_the_speed_roll_off_gives_the_star(engine, dice):
    # Secrets of Survival, haunt 36: "How to Search" (each helper -1; on a success a Speed roll among the searcher
    # and helpers, ties rerolled; the winner takes the Star and becomes the traitor, the others +1 Speed, +1 Might)
    g = big_score(engine)
    for pid in ("bo", "cy"):
        g.put(pid, "vacated_shop")
    g.do("task", "bo", trait="knowledge", task="search")
    assert g.state["pending"]["player"] == "cy" and g.state["pending"]["kind"] == "h36_help"
    cy_before = dict(g.p("cy")["traits"])
    dice.next(2, 2, 2)  # Bo's Knowledge: 6, enough with one helper
    dice.next(2, 2)  # Bo's Speed: 4
    dice.next(2, 2)  # Cy's Speed: 4 - a tie
    dice.next(1)  # Bo again: 1
    dice.next(2)  # Cy again: 2
    events = g.do("decide", "cy", choice=0)
    assert star(g) == "cy" and g.state["haunt"]["traitors"] == ["cy"]
    assert g.p("bo")["traits"]["speed"] >= 1
    assert g.p("cy")["traits"]["speed"] == cy_before["speed"] + 1  # Traitor's Tome, haunt 36: "Right Now"
    tome = g.c.haunts[36].raw["traitor"]["section"][1]["text"].strip()[:40]
    assert {e["to"] for e in events if tome in e["text"]} == {"cy"}  # the Tome goes to the new traitor alone
    part_two = g.c.haunts[36].raw["heroes"]["section"][3]["text"].strip()[:40]
    assert {e["to"] for e in events if part_two in e["text"]} == {"ann", "bo"}


def test_the_star_can_be_stolen_and_the_thief_becomes_the_traitor(engine, dice):
    # Traitor's Tome, haunt 36: "If the Star of Thay Is Stolen" (-1 Speed, a hero again; the thief reads the Tome)
    # and Secrets of Survival, "Stealing the Star"
    g = big_score(engine)
    found_by(g, dice, "bo")
    g.do("end", "bo")
    g.put("cy", "vacated_shop")
    bo_speed = g.p("bo")["traits"]["speed"]
    dice.next(2, 2, 2)  # Cy: 6
    dice.next(0, 0, 0)  # Bo: 0
    g.do("attack", "cy", target="bo")
    while g.state["pending"]["kind"] != "steal":
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert "Steal the Star of Thay" in g.state["pending"]["options"]
    events = g.do("decide", "cy", choice="Steal the Star of Thay")
    assert star(g) == "cy" and g.state["haunt"]["traitors"] == ["cy"]
    assert g.p("bo")["traits"]["speed"] == bo_speed - 1
    tome = g.c.haunts[36].raw["traitor"]["section"][1]["text"].strip()[:40]
    assert {e["to"] for e in events if tome in e["text"]} == {"cy"}
    part_two = g.c.haunts[36].raw["heroes"]["section"][3]["text"].strip()[:40]
    assert {e["to"] for e in events if part_two in e["text"]} == {"bo"}  # the robbed one reads the heroes' side


def test_the_star_is_dropped_taken_and_handed_over_like_an_item(engine, dice):
    # Both books, haunt 36: "The Star of Thay" (treated like an item: dropped, traded; rulebook, Use Item and Omen
    # Cards: one action with each item a turn). Ruling: whoever takes the Star up becomes the traitor; only a theft
    # costs the former holder 1 Speed.
    g = big_score(engine)
    found_by(g, dice, "bo")
    g.do("task", "bo", task="drop")
    assert star(g) is None and any(t["name"] == "Star of Thay" for t in g.state["tokens"])
    with pytest.raises(IllegalAction, match="already handled"):  # rulebook: one action with an item a turn
        g.do("task", "bo", task="take")
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    g.do("task", "bo", task="take")
    assert star(g) == "bo"
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    g.put("cy", "vacated_shop")
    g.do("task", "bo", task="give", target="cy")
    assert g.state["pending"]["player"] == "cy"
    g.do("decide", "cy", choice=1)  # refused
    assert star(g) == "bo"
    with pytest.raises(IllegalAction, match="already handled"):  # Ruling: a refused offer spends the turn's action
        g.do("task", "bo", task="give", target="cy")
    for pid in ("bo", "cy", "ann"):
        g.do("end", pid)
    with pytest.raises(IllegalAction, match="cannot take that player"):
        g.do("task", "bo", task="give", target="ann")
    g.do("task", "bo", task="give", target="cy")
    g.do("decide", "cy", choice=0)
    assert star(g) == "cy" and g.state["haunt"]["traitors"] == ["cy"]


def test_fencing_on_the_marketplace_wins_or_teaches(engine, dice):
    # Traitor's Tome, haunt 36: "Fencing the Star of Thay" (Knowledge 2+, +1 per opponent on the tile; fail: +1
    # Knowledge)
    g = big_score(engine)
    found_by(g, dice, "bo")
    g.put("bo", "marketplace")
    g.put("cy", "marketplace")
    knowledge = g.p("bo")["traits"]["knowledge"]
    dice.next(2)  # 2: short of 3 with Cy there
    g.do("end", "bo")
    assert g.state["phase"] == "haunt" and g.p("bo")["traits"]["knowledge"] == knowledge + 1
    for pid in ("cy", "ann"):
        g.do("end", pid)
    g.put("cy", "elfsong_tavern")
    dice.next(2)  # 2
    g.do("end", "bo")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_the_star_falls_where_its_holder_dies(engine, dice):
    # Ruling: a dead holder drops the Star on their tile, like their items.
    g = big_score(engine)
    found_by(g, dice, "bo")
    die(Ctx(g.c, g.state), "bo", "a test")
    assert star(g) is None and any(t["name"] == "Star of Thay" and t["tile"] == "vacated_shop"
                                   for t in g.state["tokens"])


def test_the_last_adventurer_alive_wins_alone(engine, dice):
    # Secrets of Survival, haunt 36, "You Win When..." L4715 and the Traitor's Tome L2371: the last adventurer
    # alive wins; the closing message names that one winner, not "the heroes" (the dead share nothing)
    g = big_score(engine)
    found_by(g, dice, "bo")
    g.do("end", "bo")
    die(Ctx(g.c, g.state), "bo", "a test")  # the traitor
    g.do("end", "cy")
    assert g.state["phase"] == "haunt"
    ctx = Ctx(g.c, g.state)
    die(ctx, "ann", "a test")
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"  # Cy, a hero, is left
    assert g.state["result"]["winners"] == ["cy"] and g.state["result"]["condition"] == "last adventurer alive"
    closing = [e["text"] for e in ctx.ev if e["kind"] == "over"]
    assert closing[0].startswith("Cy wins alone!")
    assert not any("heroes win" in t.lower() for t in closing)


def test_the_traitor_left_alone_wins(engine, dice):
    # Traitor's Tome, haunt 36: "You Win When..." (or you are the last adventurer alive)
    g = big_score(engine)
    found_by(g, dice, "bo")
    ctx = Ctx(g.c, g.state)
    die(ctx, "ann", "a test")
    die(ctx, "cy", "a test")
    haunt_play.check_wins(ctx)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_an_undeclared_move_is_refused(engine):
    g = big_score(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fence")


def test_a_seat_handed_over_mid_search_and_holding_the_star(engine, dice):
    # Secrets of Survival, haunt 36, "How to Search" (helpers asked in turn) and the Star's holder: a seat handed
    # over keeps its place in the search under way and its hold on the Star
    g = big_score(engine)
    for pid in ("bo", "cy", "ann"):
        g.put(pid, "vacated_shop")
    g.do("task", "bo", trait="knowledge", task="search")
    assert g.state["pending"]["player"] == "ann"
    g.do("decide", "ann", choice=0)  # Ann helps
    assert g.state["pending"]["player"] == "cy"
    g.do("handover", "ann", to="zed", name="Zed")
    assert g.state["haunt"]["h36"]["helpers"] == ["zed"] and g.state["haunt"]["h36"]["asked"] == ["zed"]
    dice.next(2, 2, 1)  # Bo's Knowledge: 5, enough with two helpers
    dice.next(2, 2, 2)  # Bo's Speed: 6
    dice.next(0)  # Zed's Speed: 0
    dice.next(0)  # Cy's Speed: 0
    g.do("decide", "cy", choice=0)  # Cy helps too
    assert star(g) == "bo"
    g.do("handover", "bo", to="yan", name="Yan")
    assert star(g) == "yan" and g.state["haunt"]["traitors"] == ["yan"]
    g.do("task", "yan", task="drop")
    assert star(g) is None
