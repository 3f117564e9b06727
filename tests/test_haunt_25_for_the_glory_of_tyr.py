"""Haunt 25, For the Glory of Tyr (one traitor, the Lich), played through the
engine's actions: the setup with its secret numbered tokens, immortality, the
heroes' search, the Lich's stunning, Life Drain and Dominate, Snap Out of It,
and both wins."""
import pytest

from bot.games.babg.engine import IllegalAction, effects, hooks
from bot.games.babg.engine import marks as mk
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.turns import start_haunt
from bot.games.babg.engine.view import view
from tests.conftest import Game
from tests.test_haunt_play import all_ready, revealed

SITE = "Obstacle token"


def tyr(engine):
    """Ann draws the Homunculus on the Arcane Retreat: haunt 25; Ann ties for
    the lowest Knowledge and, as the revealer, is the Lich. The order is Bo,
    Cy, Ann, the monsters."""
    g = revealed(engine, "arcane_retreat", "homunculus")
    assert g.state["haunt"]["number"] == 25 and g.state["haunt"]["traitors"] == ["ann"]
    all_ready(g)
    return g


def ready(engine):
    g = tyr(engine)
    g.decide_all(0)
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    return g


def site_here(g, tile, number):
    """Arrange: Obstacle token `number` lies on `tile`."""
    for t in [t for t in g.state["tokens"] if t["name"] == SITE]:
        g.state["tokens"].remove(t)
    g.state["tokens"].append({"name": SITE, "tile": tile, "number": number})


def h(g):
    return g.state["haunt"]["h25"]


def test_setup_raises_the_lich_and_lays_the_numbered_tokens_in_secret(engine):
    # Traitor's Tome, haunt 25: "Right Now" (Speed and Knowledge mended, +1 and +2; Obstacle tokens 1 to the
    # adventurers face down, one per tile if possible, the numbers seen by the traitor; the figure on any tile)
    g = revealed(engine, "arcane_retreat", "homunculus")
    start = dict(g.p("ann")["traits"])
    all_ready(g)
    events = list(g.events)
    assert g.p("ann")["traits"]["speed"] == min(8, start["speed"] + 1)
    assert g.p("ann")["traits"]["knowledge"] == min(8, start["knowledge"] + 2)
    placed = []
    while g.state["pending"]["kind"] == "h25_site":
        assert g.state["pending"]["player"] == "ann"
        assert not set(g.state["pending"]["data"]["tiles"]) & set(placed)
        g.do("decide", "ann", choice=0)
        events += g.events
        placed.append(g.state["tokens"][-1]["tile"])
    assert sorted(t["number"] for t in g.state["tokens"] if t["name"] == SITE) == [1, 2, 3]
    assert g.state["pending"]["kind"] == "h25_lich_tile"
    g.do("decide", "ann", choice="Kitchen")
    events += g.events
    assert g.p("ann")["tile"] == "kitchen" and g.state["turn"]["player"] == "bo"
    numbers = [e for e in events if "Obstacle token 1" in e["text"] or "token 2 lies" in e["text"]]
    assert numbers and {e["to"] for e in numbers} == {"ann"}
    seen = view(g.state, "bo")
    assert not any("number" in t for t in seen["tokens"]) and "h25_sites" not in seen["haunt"]
    assert {e["to"] for e in events if "{move:search}" in e["text"]} == {"bo", "cy"}
    assert {e["to"] for e in events if "{move:drain}" in e["text"]} == {"ann"}


def test_the_lich_cannot_die_until_the_phylactery_is_found(engine, dice):
    # Traitor's Tome, haunt 25: "Immortality"; Secrets of Survival, haunt 25: "Search the Battlefield" (1: the
    # Phylactery) and "You Win When..."
    g = ready(engine)
    g.p("ann")["traits"].update(might=1, speed=1)
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert g.p("ann")["alive"] and g.p("ann")["traits"]["might"] == 1
    g.do("end", "bo")
    site_here(g, "elfsong_tavern", 1)
    dice.next(2, 2)  # Cy's Knowledge: 4
    g.do("task", "cy", trait="knowledge", task="search")
    assert h(g)["phylactery"] and not any(t["name"] == SITE for t in g.state["tokens"])
    with pytest.raises(IllegalAction, match="attack"):
        g.do("attack", "cy", target="ann")  # the search was this turn's attack
    g.do("end", "cy")
    g.do("end", "ann")  # no Skeleton yet: no monster turn
    dice.next(2, 2, 2)
    g.do("attack", "bo", target="ann")
    g.decide_all(0)
    assert not g.p("ann")["alive"] and g.state["haunt"]["winner"] == "heroes"


def test_a_skeleton_rises_and_strikes_the_searcher(engine, dice):
    # Traitor's Tome, haunt 25: "Heroes Searching the Battlefield" (2, 4, 6)
    g = ready(engine)
    site_here(g, "elfsong_tavern", 2)
    dice.next(2, 2)  # Bo's Knowledge: 4
    dice.next(2, 2, 2)  # the Skeleton's Might: 6
    dice.next(0, 0, 0)  # Bo defends: 0
    g.do("task", "bo", trait="knowledge", task="search")
    skeletons = [m for m in g.state["monsters"] if m["name"] == "Skeleton"]
    assert len(skeletons) == 1 and skeletons[0]["tile"] == "elfsong_tavern"
    assert any("Skeleton 1 wins 6 to 0" in t for t in g.texts())


def test_a_found_item_is_drawn(engine, dice):
    # Traitor's Tome, haunt 25: "Heroes Searching the Battlefield" (3, 5)
    g = ready(engine)
    site_here(g, "elfsong_tavern", 3)
    top = g.state["decks"]["item"][0]
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="search")
    assert top in g.p("bo")["cards"]


def lich_turn(g):
    g.state["turn"] = {**g.state["turn"], "player": "ann"}


def test_the_knowledge_attack_stuns_instead_of_hurting(engine, dice):
    # Traitor's Tome, haunt 25: "Special Attack Rules"
    # Ruling: haunt 25, a stunned hero keeps taking their turns (only Life Drain and Dominate open up)
    g = ready(engine)
    lich_turn(g)
    before = dict(g.p("bo")["traits"])
    dice.next(2, 2, 2)  # the Lich's Knowledge
    dice.next(0)
    g.do("task", "ann", trait="knowledge", task="stun", target="bo")
    assert h(g)["stunned"] == ["bo"] and g.p("bo")["traits"] == before
    with pytest.raises(IllegalAction, match="already attacked"):
        g.do("task", "ann", trait="knowledge", task="stun", target="cy")


def test_life_drain_kills_a_stunned_hero_and_feeds_the_lich(engine, dice):
    # Traitor's Tome, haunt 25: "Additional Attack Rules" (Life Drain: 2 dice, 3+)
    g = ready(engine)
    lich_turn(g)
    with pytest.raises(IllegalAction, match="stunned hero"):
        g.do("task", "ann", task="drain", target="bo")
    h(g)["stunned"] = ["bo"]
    start = dict(g.p("ann")["traits"])
    dice.next(2, 1)
    g.do("task", "ann", task="drain", target="bo")
    assert not g.p("bo")["alive"]
    assert all(g.p("ann")["traits"][t] == min(8, start[t] + 1) for t in start)
    with pytest.raises(IllegalAction, match="already made"):
        g.do("task", "ann", trait="knowledge", task="dominate", target="cy")


def test_dominate_then_snap_out_of_it(engine, dice):
    # Traitor's Tome, haunt 25: "Additional Attack Rules" (Dominate); Secrets of Survival, haunt 25: "Stunned and
    # Dominated" (the heroes' opponent) and "Snap Out of It!" (4+ for a dominated hero)
    g = ready(engine)
    lich_turn(g)
    h(g)["stunned"] = ["bo"]
    dice.next(2, 2, 2)
    dice.next(0)
    g.do("task", "ann", trait="knowledge", task="dominate", target="bo")
    assert h(g)["dominated"] == ["bo"] and h(g)["stunned"] == []
    g.do("end", "ann")  # no Skeleton: no monster turn
    assert g.state["turn"]["player"] == "bo"
    dice.next(1)
    g.do("attack", "bo", target="cy")  # a dominated hero may go after the heroes
    g.decide_all(0)
    g.do("end", "bo")
    dice.next(1, 1, 1)  # Cy's Knowledge: 3, not enough
    g.do("task", "cy", trait="knowledge", task="free", target="bo")
    assert h(g)["dominated"] == ["bo"]
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("end", "bo")
    dice.next(2, 2)
    g.do("task", "cy", trait="knowledge", task="free", target="bo")
    assert h(g)["dominated"] == []


def test_every_hero_dead_or_dominated_wins_for_the_lich(engine, dice):
    # Traitor's Tome, haunt 25: "You Win When..." and "Additional Attack Rules"
    g = ready(engine)
    lich_turn(g)
    g.p("cy")["alive"] = False
    h(g)["stunned"] = ["bo"]
    dice.next(2, 2, 2)
    dice.next(0)
    g.do("task", "ann", trait="knowledge", task="dominate", target="bo")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_stunned_hero_still_plays_and_a_lost_stun_hurts_the_lich(engine, dice):
    # Ruling: haunt 25, a stunned hero keeps taking their turns; a lost stunning attack hurts the Lich
    g = ready(engine)
    h(g)["stunned"] = ["bo"]
    assert g.state["turn"]["player"] == "bo"
    g.do("end", "bo")
    g.do("end", "cy")
    assert g.state["turn"]["player"] == "ann"
    h(g)["stunned"] = []
    before = g.p("ann")["traits"]["knowledge"] + g.p("ann")["traits"]["sanity"]
    dice.next(0)
    dice.next(2, 2)  # Bo's Knowledge: 4 against 0
    g.do("task", "ann", trait="knowledge", task="stun", target="bo")
    g.decide_all(0)
    assert g.p("ann")["traits"]["knowledge"] + g.p("ann")["traits"]["sanity"] == before - 4
    assert h(g)["stunned"] == []


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 25: "Search the Battlefield" (a face-down token on your tile, in place of the attack)
    # and "Snap Out of It!"; Traitor's Tome, haunt 25: "Special Attack Rules" (the stunning Knowledge attack) and
    # "Additional Attack Rules" (Life Drain or Dominate on a stunned hero, once a turn)
    def offered():
        return {(a.get("trait"), a["task"] + (" " + a["target"] if a.get("target") else ""))
                for a in legal_actions(engine.content, g.state) if a["type"] == "task"}

    g = ready(engine)
    site_here(g, "elfsong_tavern", 2)
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "bo")) == {"elfsong_tavern"}
    assert offered() == {("knowledge", "search")}
    g.do("end", "bo")
    g.do("end", "cy")
    assert offered() == {("knowledge", "stun bo"), ("knowledge", "stun cy")}
    assert h(g)["stunned"] == []                                  # offering tried copies only
    h(g)["stunned"] = ["bo"]
    assert offered() == {("knowledge", "stun bo"), ("knowledge", "stun cy"), ("knowledge", "dominate bo"),
                         (None, "drain bo")}
    dice.next(0, 0)
    g.do("task", "ann", task="drain", target="bo")           # 0: Bo holds on
    assert offered() == {("knowledge", "stun bo"), ("knowledge", "stun cy")}   # one of the two a turn
    g.do("end", "ann")
    assert offered() == {("knowledge", "search")}                 # Bo, stunned, still searches; nobody to free
    g.do("end", "bo")
    assert offered() == {("knowledge", "search"), ("knowledge", "free bo")}
    g.state["turn"]["monsters"] = True                            # as if in a monster turn
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "cy", trait="knowledge", task="search")


def test_an_undeclared_move_is_refused(engine):
    # Both books, haunt 25: the search, Snap Out of It, and the Lich's stun, Life Drain and Dominate
    g = ready(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", g.state["turn"]["player"], trait="knowledge", task="pray")


def test_a_lich_freed_of_the_wererat_bite_no_longer_passes_the_curse_on(engine, dice):
    # Rulebook: The Traitor's New Powers, L457 (a new traitor is freed from a hindering event such as the Wererat
    # Bite); event card Wererat Bite (the curse is passed on by its carrier). Before: the card was discarded but its
    # mark stayed, and the Lich was later asked to infect a hero it hurt.
    g = Game(engine, adventurers=("torskar", "lia", "gretchen"), haunt="play")
    g.place("arcane_retreat", "catacomb", 1, -1, rot=0)
    g.give("ann", "wererat_bite")
    mk.add(Ctx(g.c, g.state), "ann", "wererat")
    g.state["players"]["ann"]["once"].append("wererat_bite")
    ctx = Ctx(g.c, g.state)
    start_haunt(ctx, "ann", "homunculus", "arcane_retreat")
    assert g.state["haunt"]["number"] == 25 and g.state["haunt"]["traitors"] == ["ann"]
    effects.run(ctx)
    assert g.state["pending"]["kind"] == "traitor_shed"  # "if you would like to be": the Lich chooses
    g.do("decide", "ann", choice=0)
    assert "wererat_bite" not in g.p("ann")["cards"] and "wererat_bite" in g.state["discard"]["event"]
    assert not mk.find(Ctx(g.c, g.state), "ann", "wererat")
    all_ready(g)
    g.decide_all(0)
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    lich_turn(g)
    g.p("bo")["traits"]["might"] = 2
    dice.next(*[2] * 8)   # the Lich's Might
    dice.next()           # Bo's 0
    g.do("attack", "ann", target="bo")
    asked = []
    while g.state["pending"]:
        asked.append(g.state["pending"]["kind"])
        g.do("decide", g.state["pending"]["player"], choice=0)
    assert "wererat_bite" not in asked
