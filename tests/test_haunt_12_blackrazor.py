"""Haunt 12, Blackrazor (the revealer is the traitor), played through the
engine's actions: the face-down Ioun Stones, seen only by whoever finds one,
their uses, Devour Soul, and the traitor's death: a win with the Leadership
stone, else the killer inherits the curse."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import all_ready, revealed

NAMES = ("Leadership", "Mastery", "Strength", "Agility", "Intellect", "Insight")


def blackrazor(engine, event_tile=None):
    """Ann draws the Berserker Axe on the Arcane Retreat: haunt 12, Ann the
    traitor; the order is Bo, Cy, Ann. The stones are placed on the first
    tiles offered."""
    g = revealed(engine, "arcane_retreat", "berserker_axe")
    g.give("ann", "berserker_axe")
    if event_tile:
        g.place(event_tile, "city", 3, 0)
    h = g.state["haunt"]
    assert h["number"] == 12 and h["traitors"] == ["ann"]
    all_ready(g)
    return g


def stones(g):
    return [t for t in g.state["tokens"] if t["name"] == "Ioun Stone"]


def placed(engine, event_tile=None):
    g = blackrazor(engine, event_tile)
    g.decide_all(0)
    return g


def stone_on(g, tile, number):
    """Arrange: the stone on `tile` is the one numbered `number`."""
    for t in stones(g):
        if t["stone"] == number:
            t["stone"] = next(x for x in stones(g) if x["tile"] == tile)["stone"]
    next(x for x in stones(g) if x["tile"] == tile)["stone"] = number


def test_the_stones_are_placed_face_down_in_the_books_order(engine):
    # Secrets of Survival, haunt 12: "Right Now" (numbered 1 to the adventurers, shuffled; event tiles, then omen,
    # item and other tiles; never with an adventurer or another stone while a free tile is left)
    g = blackrazor(engine, event_tile="smithy")
    events = list(g.events)
    assert [t["tile"] for t in stones(g)] == ["smithy", "arcane_retreat"]  # the only event tile, then the omen tile
    assert g.state["pending"]["player"] == "bo"  # a hero chooses among the other tiles
    assert "Elfsong Tavern" not in g.state["pending"]["options"]
    g.decide_all(0)
    events += g.events
    assert sorted(t["stone"] for t in stones(g)) == [1, 2, 3]
    assert len({t["tile"] for t in stones(g)}) == 3
    assert not any(name in e["text"] for e in events for name in NAMES)  # face down: nobody is told
    sword = [e for e in events if "is Blackrazor" in e["text"]]  # the traitor's reconstructed Right Now
    assert sword and {e["to"] for e in sword} == {"ann"}


def test_a_hero_picks_up_a_stone_on_knowledge_3_and_only_they_learn_which(engine, dice):
    # Secrets of Survival, haunt 12: "How to Collect Ioun Stones" (Knowledge 3+, once per turn; look at the number)
    g = placed(engine)
    g.put("bo", "arcane_retreat")
    stone_on(g, "arcane_retreat", 1)
    dice.next(1, 1, 0, 0)  # Knowledge: 2
    g.do("task", "bo", trait="knowledge", task="ioun")
    assert len(stones(g)) == 3
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "bo", trait="knowledge", task="ioun")
    g.do("end", "bo")
    g.do("end", "cy")
    g.do("end", "ann")
    dice.next(2, 1, 0, 0)  # Knowledge: 3
    g.do("task", "bo", trait="knowledge", task="ioun")
    assert len(stones(g)) == 2 and g.state["haunt"]["h12"]["held"]["bo"] == [1]
    secret = [e for e in g.events if "Leadership" in e["text"]]
    assert secret and {e["to"] for e in secret} == {"bo"}
    assert any(e["to"] == "all" and "picks up an Ioun Stone" in e["text"] for e in g.events)


def test_a_strength_stone_mends_might_then_adds_two_and_is_spent(engine, dice):
    # Secrets of Survival, haunt 12: "How to Collect Ioun Stones", 3 (Strength); the stone may wait to be used
    g = placed(engine)
    g.put("bo", "arcane_retreat")
    stone_on(g, "arcane_retreat", 3)
    start = g.c.adventurers["lia"].tracks["might"].start
    g.p("bo")["traits"]["might"] = start - 2
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="ioun")
    assert g.p("bo")["traits"]["might"] == start - 2  # kept for later
    g.do("task", "bo", task="use", number=3)
    assert g.p("bo")["traits"]["might"] == start + 2
    assert g.state["haunt"]["h12"]["held"]["bo"] == []


def test_the_mastery_stone_looks_at_three_items_and_keeps_one(engine, dice):
    # Secrets of Survival, haunt 12: "How to Collect Ioun Stones", 2 (Mastery)
    g = placed(engine)
    g.put("bo", "arcane_retreat")
    stone_on(g, "arcane_retreat", 2)
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="ioun")
    top = g.state["decks"]["item"][:3]
    g.do("task", "bo", task="use", number=2)
    assert len(g.state["pending"]["options"]) == 3
    g.do("decide", "bo", choice=1)
    assert top[1] in g.p("bo")["cards"] and top[0] in g.state["discard"]["item"]


def kill_the_traitor(g, dice, hero="bo"):
    """`hero` attacks Ann, who is one step from the skull in Might and Speed."""
    g.put(hero, g.p("ann")["tile"])
    g.p("ann")["traits"].update(might=1, speed=1)
    dice.next(2, 2, 2)
    g.do("attack", hero, target="ann")
    while g.state["pending"]:
        pending = g.state["pending"]
        deal = [o for o in pending["options"] if o.startswith("Deal")]
        g.do("decide", pending["player"], choice=deal[0] if deal else 0)


def test_killing_the_traitor_with_the_leadership_stone_wins(engine, dice):
    # Secrets of Survival, haunt 12: "You Win When..." and "How to Collect Ioun Stones", 1 (Leadership)
    g = placed(engine)
    g.state["haunt"]["h12"]["held"]["bo"] = [1]
    kill_the_traitor(g, dice)
    assert not g.p("ann")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_killing_the_traitor_without_it_makes_the_killer_the_new_traitor(engine, dice):
    # Secrets of Survival and Traitor's Tome, haunt 12: "Special Attack Rules" (the killer takes the curse, the
    # Tome and Blackrazor)
    g = placed(engine)
    kill_the_traitor(g, dice)
    h = g.state["haunt"]
    assert g.state["phase"] == "haunt" and h["traitors"] == ["bo"]
    assert "berserker_axe" in g.p("bo")["cards"]
    assert g.state["order"] == ["cy", "ann", "bo", "monsters"]
    tome = g.c.haunts[12].raw["traitor"]["section"][1]["text"].strip()[:40]
    assert {e["to"] for e in g.events if tome in e["text"]} == {"bo"}
    assert any(e["to"] == "all" and "becomes the new traitor" in e["text"] for e in g.events)
    g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy"  # from the new traitor's left


def test_devour_soul_lets_the_traitor_pick_a_trait_to_gain_two(engine, dice):
    # Traitor's Tome, haunt 12: "Devour Soul"
    g = placed(engine)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    g.p("cy")["traits"].update(might=1, speed=1)
    g.put("cy", g.p("ann")["tile"])
    before = g.p("ann")["traits"]["sanity"]
    dice.next(2, 2, 2, 2, 2)
    g.do("attack", "ann", target="cy")
    while g.state["pending"] and g.state["pending"]["player"] != "ann" or \
            g.state["pending"] and "gain 2" not in g.state["pending"]["prompt"]:
        pending = g.state["pending"]
        deal = [o for o in pending["options"] if o.startswith("Deal")]
        g.do("decide", pending["player"], choice=deal[0] if deal else 0)
    assert not g.p("cy")["alive"]
    assert g.state["pending"]["options"] == ["Might", "Speed", "Knowledge", "Sanity"]
    g.do("decide", "ann", choice="Sanity")
    assert g.p("ann")["traits"]["sanity"] == before + 2


def test_the_traitor_wins_when_every_hero_is_dead(engine, dice):
    # Traitor's Tome, haunt 12: "You Win When..."
    g = placed(engine)
    g.p("cy")["alive"] = False
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    g.p("bo")["traits"].update(might=1, speed=1)
    g.put("bo", g.p("ann")["tile"])
    dice.next(2, 2, 2, 2, 2)
    g.do("attack", "ann", target="bo")
    g.decide_all(0)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_the_owner_dying_by_no_heros_hand_lets_the_heroes_win(engine):
    # Ruling: haunt 12, Blackrazor's owner killed by no hero (a tile, a card): nobody takes up the curse
    g = placed(engine)
    g.state["turn"] = {**g.state["turn"], "player": "ann"}
    g.do("trait", "ann", trait="sanity", delta=-8)
    assert not g.p("ann")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_dead_heros_stones_fall_face_down(engine, dice):
    # Ruling: haunt 12, the Ioun Stones a dead hero carried lie face down on their tile (picked up "like a dropped
    # item", Secrets of Survival, "How to Collect Ioun Stones")
    g = placed(engine)
    g.state["haunt"]["h12"]["held"]["cy"] = [1]
    g.do("trait", "cy", trait="sanity", delta=-8)
    assert {"name": "Ioun Stone", "tile": g.p("cy")["tile"], "stone": 1} in g.state["tokens"]
    assert not any("Leadership" in e["text"] for e in g.events)


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Secrets of Survival, haunt 12: "How to Collect Ioun Stones" (a hero on a stone's tile, once a turn; a stone
    # held may be used later): the buttons offer exactly what the engine allows, a stone's use only to its holder
    def offered():
        return {(a.get("trait"), a["task"], a.get("number")) for a in legal_actions(engine.content, g.state)
                if a["type"] == "task"}

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g = placed(engine)
    assert goals("bo") == {t["tile"] for t in stones(g)} and goals("ann") == set()
    g.put("bo", "arcane_retreat")
    stone_on(g, "arcane_retreat", 3)
    assert offered() == {("knowledge", "ioun", None)}
    dice.next(2, 2)
    g.do("task", "bo", trait="knowledge", task="ioun")
    assert offered() == {(None, "use", 3)}                   # tried this turn; the Strength stone to use
    g.do("end", "bo")
    assert offered() == set()                                # Cy holds nothing and stands on no stone
    g.do("end", "cy")
    g.put("ann", g.p("bo")["tile"])
    assert offered() == set()                                # the traitor takes no stone


def test_blackrazor_cannot_be_stolen_after_an_attack_while_the_traitor_lives(engine, dice):
    # Traitor's Tome, haunt 12: "A Cursed Weapon", L1409 (Blackrazor cannot be stolen until the traitor is killed)
    g = placed(engine)
    g.give("ann", "shiny_rock")
    g.put("bo", g.p("ann")["tile"])
    dice.next(2, 2, 2, 2)  # Bo's Might against Ann's 0: 2 or more damage, a steal may be taken instead
    g.do("attack", "bo", target="ann")
    pending = g.state["pending"]
    assert pending["kind"] == "steal"
    assert "Steal Shiny Rock" in pending["options"]
    assert not any("Berserker Axe" in o for o in pending["options"])


def test_the_shiny_rock_cannot_take_blackrazor_it_is_discarded_and_a_die_rolled(engine, dice):
    # Traitor's Tome, haunt 12: "A Cursed Weapon", L1409-1413 (a hero trying the Shiny Rock on Blackrazor discards
    # it and rolls a die: 2 the traitor takes 1 physical damage, 1 nothing, 0 the hero takes 1 mental damage)
    g = placed(engine)
    g.give("bo", "shiny_rock")
    g.put("bo", g.p("ann")["tile"])
    with pytest.raises(IllegalAction):
        g.do("use", "bo", card="shiny_rock")  # the card's own steal finds nothing it may take
    assert "berserker_axe" in g.p("ann")["cards"]
    before = dict(g.p("ann")["traits"])
    dice.next(2)
    g.do("task", "bo", task="rock")
    assert any(e.get("kind") == "roll" and e.get("player") == "bo" for e in g.events)
    g.decide_all(0)
    assert "shiny_rock" in g.state["discard"]["item"] and "shiny_rock" not in g.p("bo")["cards"]
    assert "berserker_axe" in g.p("ann")["cards"]
    after = g.p("ann")["traits"]
    assert after["might"] + after["speed"] == before["might"] + before["speed"] - 1
    with pytest.raises(IllegalAction):
        g.do("task", "bo", task="rock")  # the rock is gone


def test_a_zero_on_the_shiny_rock_die_hurts_the_hero(engine, dice):
    # Traitor's Tome, haunt 12: "A Cursed Weapon", L1413 (0: the hero takes 1 mental damage)
    g = placed(engine)
    g.give("bo", "shiny_rock")
    g.put("bo", g.p("ann")["tile"])
    before = dict(g.p("bo")["traits"])
    g.do("task", "bo", task="rock")
    g.decide_all(0)
    after = g.p("bo")["traits"]
    assert after["knowledge"] + after["sanity"] == before["knowledge"] + before["sanity"] - 1


def test_an_undeclared_move_is_refused(engine):
    # Secrets of Survival, haunt 12: only the haunt's own moves (ioun, use, rock) are accepted
    g = placed(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "bo", task="fly")
