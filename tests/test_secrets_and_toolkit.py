"""Regressions from probing the bot hard: secrets that leaked, choices that
were lost, decisions that crashed. Each test is named after what it protects."""
import json

import pytest

from bot.games.babg.engine import IllegalAction, effects
from bot.games.babg.engine import marks as mk
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.specials import combat
from tests.test_haunt_play import all_ready, attack_ready, revealed
from tests.test_swap_hidden_traitor import at_reveal, hidden_haunts


def hidden_game(engine, number=19):
    omen, tile = hidden_haunts(engine.content)[number]
    g = at_reveal(engine, omen, tile)
    all_ready(g)
    return g


# --- secrets --------------------------------------------------------------------

def test_a_claim_in_a_hidden_traitor_haunt_names_no_side(engine):
    # Found: "declare heroes" asked the hidden traitor, by name, in the channel
    g = hidden_game(engine)
    traitor = g.state["haunt"]["traitors"][0]
    claimant = next(p for p in g.state["seats"] if p != traitor and g.state["players"][p]["alive"])
    g.state["turn"] = {**g.state["turn"], "player": claimant}
    g.do("declare", claimant, side="heroes")
    public = [e["text"] for e in g.events if e["to"] == "all"]
    assert g.state["pending"] is None
    assert sorted(g.state["haunt"]["claim"]["waiting"]) == sorted(p for p in g.state["seats"] if p != claimant)
    assert not any(g.state["players"][traitor]["name"] in t for t in public)


def test_the_otyugh_treats_a_hidden_traitor_as_a_hero(engine):
    # Card: Otyugh Tentacle (a hero leaving the tile is attacked); Rulebook: Haunts With a Hidden Traitor;
    # Ruling: messages to a side before a hidden traitor is unmasked (treated as a hero by every rule).
    # Found: the hidden traitor walked off with no roll where a hero is attacked
    g = hidden_game(engine)
    traitor = g.state["haunt"]["traitors"][0]
    tile = g.state["players"][traitor]["tile"]
    g.state["tokens"].append({"name": "Otyugh Tentacle", "tile": tile, "card": "otyugh_tentacle"})
    ctx = Ctx(g.c, g.state)
    assert combat.otyugh_on_leave(ctx, traitor, tile)
    g.state["haunt"]["unmasked"] = True
    assert not combat.otyugh_on_leave(Ctx(g.c, g.state), traitor, tile)


def test_a_known_traitors_setup_words_reach_only_the_traitor(engine):
    # Traitor's Tome, haunt 32 (the Talisman goes on the traitor's card). Found: posted in the channel
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    h = g.state["haunt"]
    h["number"], h["kind"] = 32, "traitor"
    traitor = h["traitors"][0]
    g.events = []
    for pid in g.state["seats"]:
        g.do("ready", pid) if g.state["phase"] == "haunt" and not h["started"] else None
        h = g.state["haunt"]
    talisman = [e for e in g.events if "Talisman" in e["text"]]
    assert talisman, "the setup step ran"
    # the bot now carries the step out (haunt 32's rule set): the table learns who holds the Talisman, a known
    # traitor, and never the Tome's own words
    assert any(e["to"] == "all" and f"{g.state['players'][traitor]['name']} holds the Talisman" in e["text"]
               for e in talisman)
    assert all("adventurer card" not in e["text"] for e in g.events if e["to"] == "all")


def test_a_handed_over_seat_brings_its_secrets_to_the_new_holder(engine):
    # Ruling: a seat handed to someone else. Found: after a handover in haunt 37 the new holder never learned
    # they were the traitor
    g = hidden_game(engine, 37)
    traitor = g.state["haunt"]["traitors"][0]
    g.do("handover", traitor, to="zed", name="Zed")
    mine = [e["text"] for e in g.events if e["to"] == "zed"]
    assert any("You are the hidden traitor" in t for t in mine)
    assert any(t.startswith("Haunt 37") for t in mine), "their side's rules again"
    assert not any(e["to"] == traitor for e in g.events)
    assert g.state["haunt"]["traitors"] == ["zed"]


def test_a_player_id_cannot_be_an_audience_word(engine):
    # Events go to "all", a player, "traitors" or "heroes": a player called so would read or leak others' secrets
    state = engine.new_game(1)
    for word in ("all", "heroes", "traitors"):
        with pytest.raises(IllegalAction, match="keeps for itself"):
            engine.apply(state, {"type": "join", "player": word, "adventurer": "lia"})


# --- choices are never lost ---------------------------------------------------------

def test_a_claim_never_replaces_someone_elses_question(engine):
    # Found: "declare" then "No, play on" wiped p2's pending choice (the Shrine to Bhaal's turn)
    g = attack_ready(engine)
    ctx = Ctx(g.c, g.state)
    effects.ask(ctx, "cy", "option", "which option?", ["A", "B"], choices=[{"label": "A"}, {"label": "B"}])
    pending = json.dumps(g.state["pending"])
    for action in ({"type": "declare", "side": "traitor"}, {"type": "trait", "trait": "might", "delta": -1},
                   {"type": "counter", "name": "x", "delta": 1}):
        with pytest.raises(IllegalAction, match="Waiting for Cy"):
            g.do(action.pop("type"), "ann", **action)
    assert json.dumps(g.state["pending"]) == pending


def test_cursed_armor_answers_even_after_a_curse_queued_its_damage(engine, dice):
    # Card: Cursed Armor (lose 1 Sanity to add 1 to a defence roll). Found: KeyError 'defence' when the Book of
    # Vile Darkness's price was queued in front of the attack before the question
    g = attack_ready(engine)
    g.give("ann", "cursed_armor")
    ctx = Ctx(g.c, g.state)
    mk.add(ctx, "ann", "next_roll_dice", dice=2, card="book_of_vile_darkness",
           then_damage={"kind": "mental", "amount": 1})
    dice.next(2, 2, 2)  # the card's attack: 6
    dice.next(0, 0)     # Ann's defence: 0
    combat.card_attack(ctx, "ann", "bo", 3, "might", "bhaals_call")
    effects.run(ctx)
    assert g.state["pending"]["kind"] == "cursed_armor"
    g.do("decide", "ann", choice=0)
    assert any("Cursed Armor takes 1 Sanity and adds 1 to the defence" in t for t in g.texts())


# --- the toolkit is a game-master override ----------------------------------------------

def test_the_toolkit_belongs_to_the_player_whose_turn_it_is(engine):
    # Ruling: who uses the toolkit. Found: counter, token and slay were open to any seated player at any time
    g = attack_ready(engine)  # Ann's turn
    for kind, fields in (("counter", {"name": "x", "delta": 1}), ("token", {"name": "quest"}),
                         ("slay", {"monster": "Wererat"})):
        with pytest.raises(IllegalAction, match="turn, not yours"):
            g.do(kind, "cy", **fields)
    g.do("counter", "ann", name="x", delta=1)
    assert g.state["haunt"]["counters"]["x"] == 1


def test_no_traitor_haunts_need_the_others_yes_too(engine):
    # Found: in a no-traitor haunt one "declare heroes" ended the game unconfirmed
    g = revealed(engine, "cursed_statue", "symbol_of_bhaal")
    all_ready(g)
    who = g.state["turn"]["player"]
    g.state["haunt"]["kind"] = "no_traitor"
    g.do("declare", who, side="heroes")
    assert g.state["phase"] == "haunt" and g.state["haunt"]["claim"]["by"] == who


def test_a_trait_order_is_bounded(engine):
    g = attack_ready(engine)
    with pytest.raises(IllegalAction, match="at most 8"):
        g.do("trait", "ann", trait="might", delta=10 ** 3)
    with pytest.raises(IllegalAction, match="whole number"):
        g.do("trait", "ann", trait="might", delta=float("inf"))
