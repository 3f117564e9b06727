"""Haunt 43, Stickleback, played through the engine (Traitor's Tome and
Secrets of Survival, haunt 43). Ann (Torskar) reveals it with the Meenlock
on the Beast's Lair and, with the highest Might, is the traitor: her
adventurer dies and she runs Stickleback and the Mind Ticklers. Bo is Lia
(Sanity 5), Cy is Gretchen (Sanity 5)."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.haunts import h43_stickleback as h43
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.text import status
from tests.test_haunt_play import revealed

ITEM_TILE, EVENT_TILE, OMEN_TILE = "storehouse", "mansion", "house_of_blood"


def stickleback_game(engine, extra_tiles=(), cards=None, answer=0):
    g = revealed(engine, "beasts_lair", "meenlock")
    assert g.state["haunt"]["number"] == 43 and g.state["haunt"]["traitors"] == ["ann"]
    for i, tile in enumerate(extra_tiles):
        g.place(tile, "city", 10 + 2 * i, 10)
    for pid, held in (cards or {}).items():
        for card in held:
            g.give(pid, card)
    events = []
    for pid in g.state["seats"]:
        g.do("ready", pid)
        events += g.events
    while g.state["pending"] and g.state["pending"]["kind"] == "h43_tickler_tile":
        g.do("decide", "ann", choice=answer)
        events += g.events
    g.events = events
    return g


def monsters(g, name):
    return [m for m in g.state["monsters"] if m["name"] == name and not m["dead"]]


def mon(g, mid):
    """A monster as the state has it now (each action returns a new state)."""
    return next(m for m in g.state["monsters"] if m["id"] == mid)


def to_hero_turn(g, pid):
    for _ in range(8):
        if g.state["turn"]["player"] == pid and not g.state["turn"].get("monsters"):
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError(f"no turn for {pid}")


def to_stickleback_turn(g):
    """On to the traitor's own turn, after the heroes, in which Stickleback acts."""
    for _ in range(8):
        if g.state["turn"].get("monsters") and g.state["haunt"]["h43"]["phase"] == "stickleback":
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError("no turn for Stickleback")


def slot(g):
    turn = g.state["turn"]
    if turn.get("monsters"):
        return "stickleback" if g.state["haunt"]["h43"]["phase"] == "stickleback" else "ticklers"
    return turn["player"]


def test_setup_the_traitor_dies_and_stickleback_takes_the_figures_place(engine):
    # Traitor's Tome, haunt 43: "Right Now" (the adventurer is dead, its figure replaced by Stickleback, its items
    # discarded); "Stickleback" (Might 5, Speed 5, Knowledge 7, Sanity 6)
    g = stickleback_game(engine, cards={"ann": ["crossbow"]})
    ann = g.p("ann")
    assert not ann["alive"] and "crossbow" not in ann["cards"] and "crossbow" in g.state["discard"]["item"]
    sb = monsters(g, "Stickleback")[0]
    assert sb["tile"] == ann["tile"] and sb["traits"] == {"might": 5, "speed": 5, "knowledge": 7, "sanity": 6}
    assert len(monsters(g, "Mind Tickler")) == 3
    assert not any("by hand" in e["text"] for e in g.events)


def test_wards_on_omen_tiles_and_two_mushrooms_on_each_item_tile(engine):
    # Secrets of Survival, haunt 43: "Right Now" (1 Magical Ward per omen tile, 2 Mushrooms per item tile)
    g = stickleback_game(engine, extra_tiles=(ITEM_TILE, OMEN_TILE))
    tokens = [(t["name"], t["tile"]) for t in g.state["tokens"]]
    assert sorted(x for x in tokens if x[0] == "Magical Ward") == [("Magical Ward", "beasts_lair"),
                                                                  ("Magical Ward", OMEN_TILE)]
    assert tokens.count(("Mushroom", ITEM_TILE)) == 2


def test_the_mind_ticklers_go_omen_item_event_in_turn_and_are_asked_of_the_traitor(engine):
    # Traitor's Tome, haunt 43: "Right Now" (one per adventurer, placed in the cycle omen, item, event tile; no two on
    # a tile while another eligible one is free)
    g = revealed(engine, "beasts_lair", "meenlock")
    for i, tile in enumerate((OMEN_TILE, ITEM_TILE, EVENT_TILE)):
        g.place(tile, "city", 10 + 2 * i, 10)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    pending = g.state["pending"]
    assert pending["player"] == "ann" and pending["kind"] == "h43_tickler_tile"
    assert pending["options"] == ["Beast's Lair", "House of Blood"]  # the omen tiles
    g.do("decide", "ann", choice=1)
    ticklers = monsters(g, "Mind Tickler")
    assert [m["tile"] for m in ticklers] == [OMEN_TILE, ITEM_TILE, EVENT_TILE]  # one item and one event tile


def test_play_opens_with_the_monster_turn_then_the_traitors_left(engine):
    # Traitor's Tome and Secrets of Survival, haunt 43: "Right Now" (the Mind Ticklers' monster turn first, then the
    # player to the traitor's left, L2626); Stickleback moves in the traitor's own turn (L2638), after the heroes
    g = stickleback_game(engine)
    seen, rounds = [], []
    for _ in range(6):
        seen.append(slot(g))
        rounds.append(g.state["round"])
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    assert seen == ["ticklers", "bo", "cy", "stickleback", "ticklers", "bo"]
    assert rounds[:4] == [rounds[0]] * 4 and rounds[4] == rounds[0] + 1  # the traitor's turn closes the round


def test_sticklebacks_turn_is_announced_as_its_own_in_the_round_it_closes(engine):
    # Traitor's Tome: Stickleback, "Right Now" (L2626) and "Special Movement Rules" (L2638): Stickleback acts in the
    # traitor's own turn, after the heroes of the same round; its announcement names it, with that round
    g = stickleback_game(engine)
    while slot(g) != "stickleback":
        heroes_round = g.state["round"]
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    told = [e for e in g.events if e["kind"] == "turn"]
    assert len(told) == 1, [e["text"] for e in told]
    number = g.state["turn"]["number"]
    assert told[0]["text"].startswith(f"Turn {number} (round {heroes_round}): Stickleback's turn")
    assert "the monster turn" not in told[0]["text"]
    assert told[0]["round"] == heroes_round == g.state["turn"]["round"] and "Stickleback" in told[0]["title"]


def test_stickleback_does_not_strike_before_the_heroes_have_moved(engine, dice):
    # Traitor's Tome, haunt 43: "Right Now" L2626 (play opens with the Mind Ticklers' monster turn, then the player to
    # the traitor's left) and "Special Movement Rules" L2636-2638 (Stickleback moves in the traitor's own turn):
    # Stickleback neither moves nor attacks in the Mind Ticklers' monster turn, and they do not act in its turn
    g = stickleback_game(engine)
    sb = monsters(g, "Stickleback")[0]
    g.put("bo", sb["tile"])
    with pytest.raises(IllegalAction, match="traitor's own turn"):
        g.do("monster", "ann", op="attack", monster=sb["id"], target="bo")
    with pytest.raises(IllegalAction, match="traitor's own turn"):
        g.do("monster", "ann", op="attack", monster=sb["id"], target="bo", trait="sanity")
    offered = [a for a in legal_actions(g.c, g.state) if a.get("monster") == sb["id"]]
    assert offered == []
    to_stickleback_turn(g)
    assert g.state["turn"]["player"] == "ann" and [slot(g)] == ["stickleback"]
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", sb["tile"])
    g.put("cy", tickler["tile"])
    with pytest.raises(IllegalAction, match="their own monster turn"):
        g.do("monster", "ann", op="attack", monster=tickler["id"], target="cy")
    assert any(a.get("monster") == sb["id"] for a in legal_actions(g.c, g.state))
    g.do("monster", "ann", op="attack", monster=sb["id"], target="bo")
    g.decide_all(0)


def test_nothing_can_attack_a_mind_tickler(engine):
    # Traitor's Tome, haunt 43: "Mind Ticklers"; Secrets of Survival, haunt 43: "Mind Ticklers"
    g = stickleback_game(engine)
    to_hero_turn(g, "bo")
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", tickler["tile"])
    with pytest.raises(IllegalAction):
        g.do("attack", "bo", target=tickler["id"])


def test_a_mind_tickler_attaches_to_the_lowest_sanity_hero_who_fails_sanity_4(engine, dice):
    # Traitor's Tome, haunt 43: "Special Mind Tickler Attack Rules"
    g = stickleback_game(engine)
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", tickler["tile"])
    g.put("cy", tickler["tile"])
    g.p("bo")["traits"]["sanity"] = 7  # Bo's Sanity is now the higher
    with pytest.raises(IllegalAction, match="lowest Sanity"):
        g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")
    dice.next(1, 1)  # Cy's Sanity roll: 2, a failure
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="cy")
    assert g.state["haunt"]["h43"]["attached"] == {"cy": tickler["id"]}
    attached = h43.attached_to(Ctx(g.c, g.state), "cy")
    assert attached["tile"] is None  # on Cy's adventurer card
    assert f"Mind Tickler {attached['number']}" in status(g.c, g.state)  # the status says where it is
    assert f"attached to {g.p('cy')['name']}" in status(g.c, g.state)
    other = monsters(g, "Mind Tickler")[1]
    other["tile"] = g.p("cy")["tile"]
    with pytest.raises(IllegalAction, match="already has a Mind Tickler"):
        g.do("monster", "ann", op="attack", monster=other["id"], target="cy")


def test_a_hero_who_rolls_4_resists_the_mind_tickler(engine, dice):
    # Traitor's Tome, haunt 43: "Special Mind Tickler Attack Rules" (Sanity 4+)
    g = stickleback_game(engine)
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", tickler["tile"])
    dice.next(2, 2)
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")
    assert not mon(g, tickler["id"]).get("attached") and mon(g, tickler["id"])["tile"] == g.p("bo")["tile"]


def test_stickleback_is_blind_until_a_mind_tickler_is_attached(engine, dice):
    # Traitor's Tome, haunt 43: "Special Movement Rules"
    g = stickleback_game(engine)
    sb = monsters(g, "Stickleback")[0]
    to_stickleback_turn(g)
    with pytest.raises(IllegalAction, match="blind"):
        g.do("monster", "ann", op="move", monster=sb["id"], way="west")
    g.do("end", "ann")  # the Mind Ticklers' monster turn
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", tickler["tile"])
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")  # dice show 0: it attaches
    to_stickleback_turn(g)
    g.do("monster", "ann", op="move", monster=sb["id"], way="west")
    assert mon(g, sb["id"])["tile"] == "inner_chamber"


def test_stickleback_attacks_with_sanity_up_to_two_tiles_away(engine, dice):
    # Traitor's Tome, haunt 43: "Special Attack Rules" (a hero within 2 tiles, Sanity against Sanity, mental damage;
    # no damage to Stickleback when it loses from another tile)
    g = stickleback_game(engine)
    to_stickleback_turn(g)
    sb = monsters(g, "Stickleback")[0]
    sb["tile"] = "kitchen"
    g.put("bo", "beasts_lair")
    with pytest.raises(IllegalAction, match="more than 2 tiles"):
        g.do("monster", "ann", op="attack", monster=sb["id"], target="bo", trait="sanity")
    g.put("bo", "elfsong_tavern")  # two rooms from the Kitchen
    dice.next(0)        # Stickleback: 0
    dice.next(2, 2, 2)  # Bo defends: 6
    g.do("monster", "ann", op="attack", monster=sb["id"], target="bo", trait="sanity")
    assert not mon(g, sb["id"])["stunned"] and any("takes no damage" in t for t in g.texts())
    g2 = stickleback_game(engine)
    to_stickleback_turn(g2)
    sb2 = monsters(g2, "Stickleback")[0]
    g2.put("bo", "inner_chamber")
    sanity = g2.p("bo")["traits"]["sanity"]
    dice.next(2, 2, 2, 2)  # Stickleback: 8
    dice.next(0)           # Bo: 0
    g2.do("monster", "ann", op="attack", monster=sb2["id"], target="bo", trait="sanity")
    g2.decide_all(0)
    traits = g2.p("bo")["traits"]
    assert traits["sanity"] + traits["knowledge"] < sanity + 4  # mental damage


def test_an_attached_hero_rolls_sanity_at_the_start_of_the_turn(engine, dice):
    # Secrets of Survival, haunt 43: "You Must Do This at the Start of Your Turn" (Sanity 4+, or 1 mental damage and
    # no more than 1 space of movement)
    g = stickleback_game(engine)
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", "elfsong_tavern")
    g.put("cy", "kitchen")
    tickler["tile"] = "elfsong_tavern"
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")  # attaches (dice show 0)
    before = dict(g.p("bo")["traits"])
    g.do("end", "ann")  # Bo's turn: his Sanity roll shows 0
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo"
    after = g.p("bo")["traits"]
    assert after["sanity"] + after["knowledge"] == before["sanity"] + before["knowledge"] - 1
    g.do("move", "bo", way="west")
    with pytest.raises(IllegalAction):
        g.do("move", "bo", way="west")


def test_a_new_omen_tile_gets_a_ward_that_the_hero_collects(engine):
    # Secrets of Survival, haunt 43: "Discovering New Tiles"; Ruling: Wards and Mushrooms are collected on entering
    g = stickleback_game(engine)
    to_hero_turn(g, "bo")
    ctx = Ctx(g.c, g.state)
    g.place(OMEN_TILE, "city", 10, 10)
    g.put("bo", OMEN_TILE)
    h43.Stickleback().entered(ctx, "bo", OMEN_TILE)
    assert h43.carried(ctx, "bo", "Magical Ward") == 1
    assert not [t for t in g.state["tokens"] if t["tile"] == OMEN_TILE]


def test_eating_a_mushroom_offers_the_rolled_effect_or_a_lower_one(engine, dice):
    # Secrets of Survival, haunt 43: "Eating a Mushroom" (4 dice; 3-4 the Mind Tickler lets go, stunned, onto the tile;
    # any lower effect may be picked instead)
    g = stickleback_game(engine, extra_tiles=(ITEM_TILE,))
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", "elfsong_tavern")
    g.put("cy", "kitchen")
    tickler["tile"] = "elfsong_tavern"
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")  # attaches
    dice.next(2, 2)  # Bo's start-of-turn Sanity: 4, passed
    g.do("end", "ann")
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="no Mushroom"):
        g.do("task", "bo", task="eat")
    g.put("bo", ITEM_TILE)
    h43.Stickleback().entered(Ctx(g.c, g.state), "bo", ITEM_TILE)
    assert {"type": "task", "player": "bo", "task": "eat"} in legal_actions(g.c, g.state)
    with pytest.raises(IllegalAction, match="rolls no trait"):
        g.do("task", "bo", trait="knowledge", task="eat")
    dice.next(1, 1, 1, 1)  # 4
    g.do("task", "bo", task="eat")
    assert g.state["pending"]["options"] == [h43.EFFECTS[3][1], h43.EFFECTS[4][1]]
    g.do("decide", "bo", choice=0)
    tickler = mon(g, tickler["id"])
    assert tickler.get("attached") is None and tickler["stunned"] and tickler["tile"] == ITEM_TILE


def test_empowering_the_portal_needs_knowledge_3_and_4_with_stickleback_there(engine, dice):
    # Secrets of Survival, haunt 43: "How to Empower the Rose Portal" and "You Win When..."
    g = stickleback_game(engine, extra_tiles=("rose_portal",))
    to_hero_turn(g, "bo")
    g.put("bo", "rose_portal")
    with pytest.raises(IllegalAction, match="no Magical Ward"):
        g.do("task", "bo", trait="knowledge", task="empower")
    g.state["haunt"]["h43"]["carry"]["bo"] = {"Magical Ward": 3}
    sb = monsters(g, "Stickleback")[0]
    sb["tile"] = "rose_portal"
    dice.next(1, 1, 1)  # 3: not enough with Stickleback there
    g.do("task", "bo", trait="knowledge", task="empower")
    assert g.state["haunt"]["counters"].get(h43.COUNTER, 0) == 0
    with pytest.raises(IllegalAction, match="this turn"):
        g.do("task", "bo", trait="knowledge", task="empower")
    mon(g, sb["id"])["tile"] = "kitchen"
    g.state["haunt"]["counters"][h43.COUNTER] = 2
    g.state["turn"]["rolls"].clear()
    dice.next(1, 1, 1)  # 3: enough without it
    g.do("task", "bo", trait="knowledge", task="empower")
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "heroes"


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 43: "You Win When..."
    g = stickleback_game(engine)
    to_stickleback_turn(g)
    sb = monsters(g, "Stickleback")[0]
    g.p("cy")["alive"] = False
    g.put("bo", sb["tile"])
    g.p("bo")["traits"]["might"] = 1
    g.p("bo")["traits"]["speed"] = 1
    dice.next(2, 2, 2, 2, 2)
    g.do("monster", "ann", op="attack", monster=sb["id"], target="bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["result"]["winner"] == "traitor"


def test_the_words_to_type_go_only_to_each_side(engine):
    # Visibility: each side's own instructions reach only that side
    g = stickleback_game(engine)
    hero_words = [e for e in g.events if "{move:empower}" in e["text"]]
    traitor_words = [e for e in g.events if "Stickleback moves and attacks" in e["text"]]
    assert {e["to"] for e in hero_words} == {"bo", "cy"}
    assert {e["to"] for e in traitor_words} == {"ann"}


def test_a_seat_handed_over_keeps_its_wards_and_its_mind_tickler(engine, dice):
    # A seat handed over to another person: the Wards Bo carried and the Mind Tickler on his card follow the seat
    # (Secrets of Survival, haunt 43: "You Must Do This at the Start of Your Turn"; "How to Empower the Rose Portal")
    g = stickleback_game(engine, extra_tiles=("rose_portal",))
    tickler = monsters(g, "Mind Tickler")[0]
    g.put("bo", "rose_portal")
    tickler["tile"] = "rose_portal"
    g.do("monster", "ann", op="attack", monster=tickler["id"], target="bo")  # dice show 0: it attaches
    g.state["haunt"]["h43"]["carry"]["bo"] = {"Magical Ward": 1}
    g.do("handover", "bo", to="zed", name="Zed")
    assert g.state["haunt"]["h43"]["attached"] == {"zed": tickler["id"]}
    dice.next(2, 2)  # Zed's start-of-turn Sanity: 4
    g.do("end", "ann")
    g.decide_all(0)
    assert g.state["turn"]["player"] == "zed"
    assert any("Zed" in t and "Mind Tickler attached" in t for t in g.texts())
    assert f"attached to {g.p('zed')['name']}" in status(g.c, g.state)
    dice.next(2, 2, 2)
    g.do("task", "zed", trait="knowledge", task="empower")
    assert g.state["haunt"]["counters"][h43.COUNTER] == 1
    assert g.state["haunt"]["h43"]["carry"] == {"zed": {"Magical Ward": 0}}


def test_an_undeclared_move_is_refused(engine):
    g = stickleback_game(engine)
    to_hero_turn(g, "bo")
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", trait="knowledge", task="dance")
