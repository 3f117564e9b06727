"""Haunt 20, They Hide Among Us, played through the engine's actions: the
traitor's setup, the secret Doppelganger replacement (told only to the two
players concerned), revealing, the Treasure Chests, deaths, succession and
both wins. Ann reveals on Murder Row with the Berserker Axe; Bo (Lia, the
lowest Speed) is the traitor; everyone starts on the Elfsong Tavern; the
order is Cy, Ann, Bo. Unqueued dice show 0."""
import pytest

from bot.games.babg.engine import IllegalAction, hooks
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.engine.view import view
from tests.test_haunt_play import all_ready, revealed


def hide_among_us(engine):
    g = revealed(engine, "murder_row", "berserker_axe")
    assert g.state["haunt"]["number"] == 20 and g.state["haunt"]["traitors"] == ["bo"]
    all_ready(g)
    return g


def secret(g):
    return g.state["haunt"]["h20"]


def seen_by(g, pid):
    return [e["text"] for e in g.events if e["to"] in ("all", pid)]


def swap(engine, dice, win):
    """Cy's turn ends on Bo's tile: Bo attacks Cy in secret (Speed: Lia's
    Speed is above her Might after the +2)."""
    g = hide_among_us(engine)
    dice.next(*([2] * 8) if win else [0])
    dice.next(0, 0, 0, 0, 0, 0, 0, 0)
    g.do("end", "cy")
    return g


def test_setup_the_traitor_gains_speed_and_places_the_chests(engine):
    # Traitor's Tome, haunt 20: "Right Now" (+2 Speed; chests numbered 1 to heroes+2, face down, 1 per tile)
    g = revealed(engine, "murder_row", "berserker_axe")
    speed = g.p("bo")["traits"]["speed"]
    for pid in ("ann", "bo", "cy"):
        g.do("ready", pid)
    assert g.p("bo")["traits"]["speed"] == speed + 2
    pending = g.state["pending"]
    assert pending["kind"] == "place_chosen" and pending["player"] == "bo"
    assert "Elfsong Tavern" in pending["options"]
    g.decide_all()
    chests = [t for t in g.state["tokens"] if t["name"] == "Treasure Chest"]
    assert len(chests) == 4 and len({t["tile"] for t in chests}) == 4
    assert sorted(secret(g)["pool"]) == [1, 2, 3, 4]
    assert "h20" not in view(g.state, "bo")["haunt"] and "h20" not in view(g.state, "ann")["haunt"]
    assert not any("by hand" in t for t in g.texts())


def test_the_secret_replacement_is_told_only_to_the_two_players(engine, dice):
    # Traitor's Tome, haunt 20: "You Must Do This at the End of Each Hero's Turn"
    # Ruling: the better of the traitor's Might and Speed, no damage either way
    g = swap(engine, dice, win=True)
    assert secret(g)["doubles"] == ["cy"] and g.state["haunt"]["traitors"] == ["bo"]
    assert any("Bo and Cy step away from the table" in t for t in seen_by(g, "ann"))
    private = [e for e in g.events if "A Doppelganger takes Cy's place" in e["text"]]
    assert sorted(e["to"] for e in private) == ["bo", "cy"]
    sections = [e for e in g.events if e["text"].startswith("REVEALING AS A DOPPELGANGER")]
    assert [e["to"] for e in sections] == ["cy"]


def test_a_third_player_cannot_tell_whether_the_replacement_worked(engine, dice):
    # Traitor's Tome, haunt 20: "You Must Do This at the End of Each Hero's Turn" (out of sight of everyone else)
    won = swap(engine, dice, win=True)
    lost = swap(engine, dice, win=False)
    assert secret(won)["doubles"] == ["cy"] and secret(lost)["doubles"] == []
    assert seen_by(won, "ann") == seen_by(lost, "ann")
    assert view(won.state, "ann") == view(lost.state, "ann")
    # Ruling: a hidden Doppelganger is a hero to the others: Ann may not attack Cy either way, with the same words
    for g in (won, lost):
        g.put("cy", "elfsong_tavern")
        with pytest.raises(IllegalAction) as refused:
            g.do("attack", "ann", target="cy")
        assert "on your side" in str(refused.value)


def test_a_hidden_doppelganger_reveals_itself_by_attacking_a_hero(engine, dice):
    # Traitor's Tome, haunt 20: "Revealing as a Doppelganger" (+2 Speed, joins the traitor's side)
    g = swap(engine, dice, win=True)
    g.do("end", "ann")
    g.do("end", "bo")
    if g.state["turn"].get("monsters"):
        g.do("end", "bo")
    assert g.state["turn"]["player"] == "cy"
    speed = g.p("cy")["traits"]["speed"]
    g.do("attack", "cy", target="ann")
    assert "cy" in g.state["haunt"]["traitors"] and secret(g)["doubles"] == []
    assert g.p("cy")["traits"]["speed"] == speed + 2
    assert any("a Doppelganger has been wearing Cy's face" in t for t in seen_by(g, "ann"))


def test_a_revealed_doppelganger_may_attack_with_speed(engine, dice):
    # Traitor's Tome, haunt 20: "Doppelganger Speed"
    g = hide_among_us(engine)
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("attack", "bo", target="ann", trait="speed")
    assert any("attacks Ann with Speed" in t for t in g.texts())


def test_the_medallion_of_thoughts_adds_dice_and_stops_the_replacement(engine, dice):
    # Both books, haunt 20: "Opening a Treasure Chest", "Treasure Chests" (3) and "Using the Medallion of Thoughts"
    g = hide_among_us(engine)
    secret(g)["pool"] = [3, 1, 2, 4]
    g.put("cy", next(t["tile"] for t in g.state["tokens"] if t["name"] == "Treasure Chest"))
    dice.next(2, 2)                                  # Might 3+
    g.do("task", "cy", trait="might", task="open")
    assert g.state["haunt"]["h20_medallion"] == "cy"
    assert any("number 3" in t for t in seen_by(g, "ann"))
    with pytest.raises(IllegalAction, match="already tried to open"):
        g.do("task", "cy", trait="might", task="open")
    g.put("cy", g.p("bo")["tile"])
    dice.next(*[2] * 8)
    g.do("end", "cy")
    assert secret(g)["doubles"] == []
    assert any("carries the Medallion of Thoughts and cannot be replaced" in e["text"] and e["to"] == "cy"
               for e in g.events)
    g.do("end", "ann")
    g.put("bo", "elfsong_tavern")
    g.put("cy", "elfsong_tavern")
    n = g.value("cy", "might") + 2
    g.do("attack", "bo", target="cy")
    assert any("Cy rolls Might to defend" in t and f"({n} dice)" in t for t in g.texts())


def test_a_mimic_in_a_chest_may_attack_at_once(engine, dice):
    # Traitor's Tome, haunt 20: "Treasure Chests" (1-2) and "Revealing a Mimic"
    g = hide_among_us(engine)
    secret(g)["pool"] = [1, 2, 3, 4]
    g.put("cy", next(t["tile"] for t in g.state["tokens"] if t["name"] == "Treasure Chest"))
    dice.next(2, 2)
    g.do("task", "cy", trait="might", task="open")
    mimic = next(m for m in g.state["monsters"] if m["name"] == "Mimic")
    assert mimic["tile"] == g.p("cy")["tile"] and mimic["traits"] == {"might": 5, "speed": 2}
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"] == ["Attack Cy", "No"]
    dice.next(2, 2, 2, 2, 2)
    g.do("decide", "bo", choice=0)
    assert any("Mimic 1 wins" in t for t in g.texts())


def test_a_chest_of_four_or_more_holds_an_item(engine, dice):
    # Traitor's Tome, haunt 20: "Treasure Chests" (4+)
    g = hide_among_us(engine)
    secret(g)["pool"] = [4, 1, 2, 3]
    g.put("cy", next(t["tile"] for t in g.state["tokens"] if t["name"] == "Treasure Chest"))
    items = len([c for c in g.p("cy")["cards"] if g.c.cards[c].deck == "item"])
    dice.next(2, 2)
    g.do("task", "cy", trait="knowledge", task="open")
    g.decide_all()
    assert len([c for c in g.p("cy")["cards"] if g.c.cards[c].deck == "item"]) == items + 1
    assert len([t for t in g.state["tokens"] if t["name"] == "Treasure Chest"]) == 3


def test_the_traitor_wins_when_every_hero_is_dead_or_replaced(engine, dice):
    # Traitor's Tome, haunt 20: "You Win When..."
    g = swap(engine, dice, win=True)
    assert g.state["phase"] == "haunt"
    g.put("ann", g.p("bo")["tile"])
    dice.next(*[2] * 8)
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_dead_hero_is_told_to_be_a_doppelganger_or_not(engine, dice):
    # Traitor's Tome, haunt 20: "Killing a Doppelganger" (the player tells the table)
    g = swap(engine, dice, win=True)
    g.do("trait", "ann", trait="sanity", delta=-8)
    assert any("Ann was no Doppelganger." in t for t in seen_by(g, "cy"))


def test_when_the_lead_doppelganger_dies_a_hidden_one_takes_over(engine, dice):
    # Traitor's Tome, haunt 20: "Killing a Doppelganger" (another Doppelganger takes the Tome)
    # Ruling: the first living Doppelganger from the dead one's left takes the lead
    g = swap(engine, dice, win=True)
    g.do("end", "ann")
    g.do("trait", "bo", trait="sanity", delta=-8)
    assert not g.p("bo")["alive"]
    assert g.state["haunt"]["traitors"][0] == "cy" and secret(g)["doubles"] == []
    assert g.state["phase"] == "haunt"
    assert any(e["to"] == "cy" and "Your rules, as the traitor" in e["text"] for e in g.events)
    assert not any(e["to"] in ("all", "ann") and "Your rules, as the traitor" in e["text"] for e in g.events)


def test_the_heroes_win_when_the_last_doppelganger_is_dead(engine, dice):
    # Secrets of Survival, haunt 20: "You Win When..."
    g = hide_among_us(engine)
    g.do("end", "cy")
    g.do("end", "ann")
    g.do("trait", "bo", trait="sanity", delta=-8)
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_medallion_can_be_handed_over_dropped_and_taken(engine, dice):
    # Traitor's Tome, haunt 20: "Treasure Chests" (3: it can be traded or dropped like any item)
    g = hide_among_us(engine)
    g.state["haunt"]["h20_medallion"] = "cy"
    g.put("ann", g.p("cy")["tile"])
    g.do("task", "cy", task="give", target="ann")
    assert g.state["haunt"]["h20_medallion"] == "ann"
    with pytest.raises(IllegalAction, match="do not carry"):
        g.do("task", "cy", task="drop")
    g.do("end", "cy")
    g.do("task", "ann", task="drop")
    assert g.state["haunt"]["h20_medallion"] is None
    g.do("task", "ann", task="take")
    assert g.state["haunt"]["h20_medallion"] == "ann"


def test_the_haunts_actions_are_offered_while_they_are_open(engine, dice):
    # Both books, haunt 20: "Opening a Treasure Chest" (a chest on your tile, 3+ with Might, Speed or Knowledge) and
    # "Treasure Chests" (3: the Medallion traded, dropped or taken like an item). Ruling: haunt 20: one try a turn.
    # The same buttons whatever the side, so a hidden Doppelganger's look like a hero's.
    def offered():
        return [(a.get("trait") or a.get("target"), a["task"]) for a in legal_actions(engine.content, g.state)
                if a["type"] == "task"]

    g = hide_among_us(engine)
    secret(g)["pool"] = [3, 1, 2, 4]
    chest = next(t["tile"] for t in g.state["tokens"] if t["name"] == "Treasure Chest")
    assert set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), "cy")) == \
        {t["tile"] for t in g.state["tokens"] if t["name"] == "Treasure Chest"}   # the heroes look for it
    g.put("cy", chest)
    assert offered() == [("might", "open"), ("speed", "open"), ("knowledge", "open")]
    assert secret(g)["pool"] == [3, 1, 2, 4]                    # offering tried copies only
    dice.next(2, 2)
    g.do("task", "cy", trait="might", task="open")
    assert g.state["haunt"]["h20_medallion"] == "cy"
    assert offered() == [(None, "drop")]                         # tried once this turn; nobody here to take it
    g.put("ann", chest)
    assert offered() == [("ann", "give"), (None, "drop")]
    g.do("task", "cy", task="drop")
    g.do("end", "cy")
    assert offered() == [(None, "take")]                         # Ann's turn, the Medallion at her feet
    g.state["turn"]["monsters"] = True                          # as if in a monster turn
    with pytest.raises(IllegalAction, match="monster turn"):
        g.do("task", "ann", task="take")


def test_the_medallion_is_stolen_like_an_item_in_place_of_damage(engine, dice):
    # Traitor's Tome, haunt 20: "Treasure Chests" (3: the Medallion is an item); Rulebook: Stealing Items (in place
    # of 2 or more damage, on the same tile)
    g = hide_among_us(engine)
    g.state["haunt"]["h20_medallion"] = "bo"
    assert g.p("bo")["tile"] == g.p("cy")["tile"]
    dice.next(*[2] * 8)   # Cy's Might attack
    dice.next(*[0] * 8)   # Bo's defence, the Medallion's 2 dice included
    g.do("attack", "cy", target="bo")
    pending = g.state["pending"]
    assert pending["player"] == "cy" and "Steal the Medallion of Thoughts" in pending["options"]
    g.do("decide", "cy", choice=pending["options"].index("Steal the Medallion of Thoughts"))
    assert g.state["haunt"]["h20_medallion"] == "cy"
    assert any("steals the Medallion of Thoughts from" in e["text"] and e["to"] == "all" for e in g.events)


def test_an_undeclared_move_is_refused(engine):
    # Both books, haunt 20: the haunt's own moves are the chests and the Medallion, nothing else
    g = hide_among_us(engine)
    with pytest.raises(IllegalAction, match="no move"):
        g.do("task", "cy", trait="might", task="search")


def test_opening_a_chest_leaves_a_lost_and_found_token_and_its_card_alone(engine, dice):
    # Traitor's Tome, haunt 20, "Right Now", L1699: the haunt's chests are its numbered Obstacle tokens; the
    # Lost and Found event's Treasure Chest token keeps its card beside it until its own roll takes it away
    # (event card Lost and Found). Before: opening took that token, and its card was in no place at all.
    g = hide_among_us(engine)
    tile = g.p("cy")["tile"]
    g.state["tokens"] = [t for t in g.state["tokens"] if not (t["name"] == "Treasure Chest" and t["tile"] == tile)]
    g.state["decks"]["event"].remove("lost_and_found")
    tk.place(g.state, "Treasure Chest", tile, card="lost_and_found")
    pool = list(secret(g)["pool"])
    dice.next(2, 2)
    with pytest.raises(IllegalAction, match="no Treasure Chest"):
        g.do("task", "cy", trait="might", task="open")
    assert tk.with_card(g.state, "lost_and_found") and secret(g)["pool"] == pool
    assert places_of(g, "lost_and_found") == 1
    # with one of the haunt's chests there too, that one is opened and the event's stays
    tk.place(g.state, "Treasure Chest", tile)
    secret(g)["pool"] = [4] + pool
    dice.next(2, 2)
    g.do("task", "cy", trait="might", task="open")
    g.decide_all(0)
    assert tk.with_card(g.state, "lost_and_found")["tile"] == tile
    assert places_of(g, "lost_and_found") == 1 and any("number 4" in t for t in g.texts())


def places_of(g, card):
    """In how many places the card is: decks, discards, hands, piles, beside a token."""
    s = g.state
    places = [c for d in s["decks"].values() for c in d] + [c for d in s["discard"].values() for c in d]
    places += [c for p in s["players"].values() for c in p["cards"]] + [c for pl in s["piles"].values() for c in pl]
    places += [t["card"] for t in s["tokens"] if t.get("card")]
    return places.count(card)
