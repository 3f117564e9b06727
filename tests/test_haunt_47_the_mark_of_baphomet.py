"""Haunt 47, The Mark of Baphomet (the lowest Might, or Vort, becomes the
Minotaur), played through the engine's actions: the setup (the Minotaur in
the traitor's place, the Deck of Many Things shuffled away, the heroes'
flight), the Minotaur's rampage and its Unstoppable turn, weapon-only
attacks, searching omen tiles and the calming ritual."""
import pytest

from bot.games.babg import text
from bot.games.babg.discord import messages
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import legal_actions
from tests.test_haunt_play import revealed

DECK = "deck_of_many_things"


def baphomet(engine, before=None):
    """Ann draws the Deck of Many Things on the Neglected Shrine: haunt 47;
    Bo (Lia, the lowest Might) becomes the Minotaur; the order is Cy, Ann,
    then the Minotaur's turn."""
    g = revealed(engine, "neglected_shrine", DECK)
    g.give("ann", DECK)
    assert g.state["haunt"]["number"] == 47 and g.state["haunt"]["traitors"] == ["bo"]
    if before:
        before(g)
    for pid in g.state["seats"]:
        g.do("ready", pid)
    g.setup_events = list(g.events)
    return g


def minotaur(g):
    return next(m for m in g.state["monsters"] if m["name"] == "Minotaur")


def test_setup_turns_the_traitor_into_the_minotaur_and_hides_the_deck(engine):
    # Traitor's Tome, haunt 47: "Right Now" (the Minotaur token in the traitor's place, items dropped, the Deck shuffled
    # into the omen deck below its top 3); Secrets of Survival, haunt 47: "Right Now" (items dropped, flight)
    # Ruling: Haunt 47: the heroes' flight
    def arrange(g):
        g.give("bo", "crossbow")
        g.give("cy", "ring_of_the_ram")
        g.arrange_top = list(g.state["decks"]["omen"][:3])
    g = baphomet(engine, arrange)
    g.decide_all(0)
    assert minotaur(g)["tile"] == "elfsong_tavern" and minotaur(g)["traits"] == {"might": 6, "speed": 4}
    assert g.p("bo")["tile"] is None and g.p("bo")["cards"] == []
    assert "crossbow" in g.state["piles"]["elfsong_tavern"]
    assert "ring_of_the_ram" in g.state["piles"]["elfsong_tavern"] and g.p("cy")["cards"] == []
    omens = g.state["decks"]["omen"]
    assert omens[:3] == g.arrange_top and DECK in omens[3:] and DECK not in g.p("ann")["cards"]
    assert g.p("ann")["tile"] != "elfsong_tavern" and g.p("cy")["tile"] != "elfsong_tavern"


def test_the_traitors_turn_is_the_minotaurs(engine):
    # Traitor's Tome, haunt 47: "You Must Do This on Your Turn" (the Minotaur's move is the traitor's turn)
    g = baphomet(engine)
    g.decide_all(0)
    seen = []
    for _ in range(6):
        turn = g.state["turn"]
        seen.append("Minotaur" if turn.get("monsters") else turn["player"])
        g.do("end", turn["player"])
    assert seen == ["cy", "ann", "Minotaur", "cy", "ann", "Minotaur"]


def to_minotaur_turn(g):
    g.decide_all(0)
    g.do("end", "cy")
    g.do("end", "ann")
    assert g.state["turn"].get("monsters")


def test_the_minotaur_attacks_every_hero_on_each_tile_it_enters_once_a_turn(engine, dice):
    # Traitor's Tome, haunt 47: "You Must Do This on Your Turn" (each hero on an entered tile; once per turn)
    # Ruling: Haunt 47: the Minotaur's ordinary attack
    g = baphomet(engine)
    g.decide_all(0)
    g.put("ann", "inner_chamber")
    g.put("cy", "inner_chamber")
    g.do("end", "cy")
    dice.next(2)                          # Ann's turn passes; the Minotaur's Speed roll: 2
    g.do("end", "ann")
    dice.next(0)                          # Ann's defence (the Minotaur's zeros tie it)
    g.do("monster", "bo", op="move", monster=minotaur(g)["id"], way="west")
    attacked = [e["text"] for e in g.events if "charges" in e["text"]]
    assert attacked == ["The Minotaur charges Ann.", "The Minotaur charges Cy."]
    assert g.state["haunt"]["h47"]["hit"] == ["ann", "cy"]
    with pytest.raises(IllegalAction, match="already attacked that hero"):
        g.do("monster", "bo", op="attack", monster=minotaur(g)["id"], target="ann")
    g.put("ann", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    g.do("monster", "bo", op="move", monster=minotaur(g)["id"], way="east")  # onto them again: no second attack
    assert minotaur(g)["tile"] == "elfsong_tavern"
    assert not any("charges" in e["text"] for e in g.events)


def test_a_stunned_minotaur_acts_anyway_with_might_5(engine, dice):
    # Traitor's Tome, haunt 47: "Unstoppable"
    g = baphomet(engine)
    minotaur(g)["stunned"] = True
    to_minotaur_turn(g)
    m = minotaur(g)
    assert not m["stunned"] and m["traits"]["might"] == 5
    assert any("Might 5" in t for t in g.texts())
    g.do("end", "bo")
    assert minotaur(g)["traits"]["might"] == 6


def test_only_a_weapon_or_the_deck_lets_a_hero_attack_the_minotaur(engine, dice):
    # Traitor's Tome, haunt 47: "Special Minotaur Rules"; Secrets of Survival, haunt 47: "Special Attack Rules"
    g = baphomet(engine)
    g.decide_all(0)
    g.put("cy", "elfsong_tavern")
    m = minotaur(g)["id"]
    with pytest.raises(IllegalAction, match="Only a weapon"):
        g.do("attack", "cy", target=m)
    assert not any(a["type"] == "attack" for a in legal_actions(g.c, g.state))
    g.give("cy", "berserker_axe")
    offered = [a for a in legal_actions(g.c, g.state) if a["type"] == "attack"]
    assert offered == [{"type": "attack", "player": "cy", "target": m, "weapon": "berserker_axe"}]
    g.p("cy")["cards"].remove("berserker_axe")
    g.give("cy", DECK)
    g.do("attack", "cy", target=m)  # holding the Deck: an attack without a weapon
    assert any("attacks the Minotaur" in t for t in g.texts())


def test_searching_an_omen_tile_draws_an_omen_and_marks_the_tile(engine, dice):
    # Secrets of Survival, haunt 47: "Finding the Deck of Many Things" (Speed 4+, once a turn, a marked tile never again)
    g = baphomet(engine)
    g.decide_all(0)
    g.put("cy", "neglected_shrine")
    top = g.state["decks"]["omen"][0]
    dice.next(2, 2)
    g.do("task", "cy", trait="speed", task="search")
    assert top in g.p("cy")["cards"]
    assert {"name": "Searched", "tile": "neglected_shrine"} in g.state["tokens"]
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="already tried|marked"):
        g.do("task", "cy", trait="speed", task="search")
    g.do("end", "cy")
    g.put("ann", "neglected_shrine")
    with pytest.raises(IllegalAction, match="marked"):
        g.do("task", "ann", trait="speed", task="search")
    g.put("ann", "elfsong_tavern")
    with pytest.raises(IllegalAction, match="Only omen tiles"):
        g.do("task", "ann", trait="speed", task="search")


def test_the_calming_ritual_wins_with_a_die_per_token_on_the_deck(engine, dice):
    # Secrets of Survival, haunt 47: "How to Perform the Calming Ritual" and "You Win When..."
    g = baphomet(engine)
    g.decide_all(0)
    g.put("cy", "neglected_shrine")
    with pytest.raises(IllegalAction, match="need the Deck"):
        g.do("task", "cy", trait="knowledge", task="ritual")
    g.give("cy", DECK)
    g.state.setdefault("card_state", {})[DECK] = {"tokens": 2}
    dice.next(2, 2, 2)
    g.do("task", "cy", trait="knowledge", task="ritual")
    roll = next(e for e in g.events if e["kind"] == "roll")
    assert len(roll["faces"]) == g.value("cy", "knowledge") + 2
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_a_failed_ritual_is_once_a_turn(engine, dice):
    # Secrets of Survival, haunt 47: "How to Perform the Calming Ritual" (a task roll: once per turn)
    g = baphomet(engine)
    g.decide_all(0)
    g.put("cy", "neglected_shrine")
    g.give("cy", DECK)
    g.do("task", "cy", trait="knowledge", task="ritual")
    assert g.state["phase"] == "haunt"
    with pytest.raises(IllegalAction, match="already tried"):
        g.do("task", "cy", trait="knowledge", task="ritual")


def test_the_minotaur_wins_when_every_hero_is_dead(engine):
    # Traitor's Tome, haunt 47: "You Win When..."
    g = baphomet(engine)
    g.decide_all(0)
    for pid in ("ann", "cy"):
        g.p(pid)["alive"] = False
    g.do("end", "cy") if g.state["turn"]["player"] == "cy" else None
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_becoming_the_minotaur_drops_the_omens_held_like_items_too(engine):
    # Traitor's Tome, haunt 47, "Right Now" L2845 (drop all your items on your tile); rulebook, "Use Item and Omen
    # Cards" L286 (most omens are treated like items): the figure leaves the board, so nothing it held stays with it.
    # The heroes drop only their item cards (Secrets of Survival, haunt 47, "Right Now").
    def arrange(g):
        g.give("bo", "crossbow")
        g.give("bo", "ring_of_the_ram")
        g.give("bo", "berserker_axe")
        g.give("cy", "meenlock")
    g = baphomet(engine, arrange)
    g.decide_all(0)
    pile = g.state["piles"]["elfsong_tavern"]
    assert g.p("bo")["cards"] == [] and {"crossbow", "ring_of_the_ram", "berserker_axe"} <= set(pile)
    assert "meenlock" in g.p("cy")["cards"]  # a hero keeps the omens


def test_an_undeclared_move_is_refused(engine):
    g = baphomet(engine)
    g.decide_all(0)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "cy", trait="speed", task="fly")


def test_the_texts_show_the_traitor_whose_figure_the_minotaur_replaced(engine):
    # Traitor's Tome, haunt 47: "Right Now" (the Minotaur token takes the traitor's figure's place). Found by the
    # failover bench: the channel's pinned summary failed on the traitor's empty place (KeyError: None).
    g = baphomet(engine)
    g.decide_all(0)
    assert g.p("bo")["tile"] is None
    status = text.status(engine.content, g.state)
    bo_line = next(line for line in status.splitlines() if line.strip().startswith("Bo"))
    assert text.OFF_THE_BOARD in bo_line
    assert text.OFF_THE_BOARD.capitalize() in text.sheet(engine.content, g.state, "bo")
    assert "Bo" in messages.summary(engine.content, g.state)
