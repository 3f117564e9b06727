"""Haunt 19, Thick as Thieves, played through the engine (Secrets of
Survival, haunt 19; rulebook: Haunts With a Hidden Traitor). Ann, the haunt
revealer, is Torskar; Bo is Lia; Cy is Gretchen. Each test makes one player
the hidden traitor (token 1) before the haunt begins."""
import random

import pytest

from bot.games.babg import autoplay
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine import board as bd
from bot.games.babg.engine import haunt_play as hp
from bot.games.babg.engine import hooks, moves
from bot.games.babg.engine.ctx import Ctx
from bot.games.babg.engine.geometry import distances
from bot.games.babg.engine.legal import legal_actions
from tests.invariants import check
from tests.test_haunt_play import all_ready, revealed
from tests.test_swap_hidden_traitor import at_reveal, seen_by, spare_the_pair, swapped


def thieves(engine, traitor="bo", tiles=None, cards=None):
    """Haunt 19 at the reveal, `traitor` holding token 1; players on `tiles`
    and holding `cards` before everyone is ready."""
    g = revealed(engine, "arcane_retreat", "whispering_skull", revealer="ann")
    h = g.state["haunt"]
    assert h["number"] == 19 and h["kind"] == "hidden_traitor"
    others = [p for p in g.state["seats"] if p != traitor]
    h["hidden_tokens"] = {traitor: 1, others[0]: 2, others[1]: 3}
    h["traitors"] = [traitor]
    g.give("ann", "whispering_skull")
    for pid, tile in (tiles or {}).items():
        g.put(pid, tile)
    for pid, held in (cards or {}).items():
        for card in held:
            g.give(pid, card)
    all_ready(g)
    while g.state["pending"] and g.state["pending"]["kind"] in ("place_chosen", "fetch_tile"):
        g.do("decide", g.state["pending"]["player"], choice=0)  # where the Shrine to Bhaal joins (equally far)
    return g


def cultists(g):
    return [m for m in g.state["monsters"] if m["name"] == "Cultist" and not m["dead"]]


def end_turns_until(g, pid):
    """End turns (answering nothing) until it is `pid`'s turn."""
    for _ in range(10):
        if g.state["turn"]["player"] == pid and not g.state["turn"].get("monsters"):
            return
        g.do("end", g.state["turn"]["player"])
        g.decide_all(0)
    raise AssertionError(f"never {pid}'s turn")


# --- Right Now ----------------------------------------------------------------------------------

def test_setup_cultists_on_every_adventurers_tile_and_the_skull_beside_the_board(engine):
    # Secrets of Survival, haunt 19: "Right Now" (a Cultist on each tile with an adventurer; the revealer gives up
    # the Whispering Skull; every other player discards a random stealable item or omen)
    g = thieves(engine, tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "elfsong_tavern"},
                cards={"ann": ["crossbow"], "bo": ["boots_of_elvenkind"], "cy": ["crossbow_bolts"]
                       if "crossbow_bolts" in engine.content.cards else ["ring_of_the_ram"]})
    s = g.state
    assert sorted(m["tile"] for m in cultists(g)) == ["elfsong_tavern", "kitchen"]
    assert all(m["traits"] == {"might": 3, "speed": 4, "knowledge": 2, "sanity": 2} for m in cultists(g))
    assert s["haunt"]["beside_board"] == ["whispering_skull"]
    assert "whispering_skull" not in g.p("ann")["cards"] and "crossbow" in g.p("ann")["cards"]  # the revealer keeps
    assert g.p("bo")["cards"] == [] and g.p("cy")["cards"] == []
    assert "boots_of_elvenkind" in s["discard"]["item"]
    check(engine.content, s)


def test_the_shrine_is_joined_farthest_from_the_kitchen_basement_and_nothing_is_left_by_hand(engine):
    # Secrets of Survival, haunt 19, "Right Now", L3893: the Shrine to Bhaal, not in play, is taken from the
    # catacomb stack and joined at an open catacomb door as far from the Kitchen Basement as possible; the stack
    # is shuffled. Nothing of the setup is left to the players by hand.
    g = revealed(engine, "arcane_retreat", "whispering_skull", revealer="ann")
    assert "shrine_to_bhaal" not in g.state["board"]
    g.give("ann", "whispering_skull")
    doors = hp.fetch_doors(Ctx(engine.content, g.state), "shrine_to_bhaal")
    far = distances(Ctx(engine.content, g.state), "kitchen_basement")
    most = max(far.get(t, -1) for t, _, _ in doors)
    events = []
    for pid in g.state["seats"]:
        g.do("ready", pid)
        events += g.events
    while g.state["pending"] and g.state["pending"]["kind"] in ("place_chosen", "fetch_tile"):
        events += g.do("decide", g.state["pending"]["player"], choice=0)
    assert not [e for e in events if e["kind"] == "by_hand"]
    assert "shrine_to_bhaal" in g.state["board"] and "shrine_to_bhaal" not in g.state["stacks"]["catacomb"]
    board = g.state["board"]
    beside = [t for t, side, _ in doors if bd.neighbour_square(board[t], side)[1:] ==
              (board["shrine_to_bhaal"]["x"], board["shrine_to_bhaal"]["y"])]
    assert beside and far.get(beside[0], -1) == most
    check(engine.content, g.state)


# --- the Cultists ------------------------------------------------------------------------------

def test_cultists_do_not_slow_adventurers(engine):
    # Secrets of Survival, haunt 19: "Special Cultist Rules"; rulebook: Moving Past Opponents
    g = thieves(engine, tiles={"ann": "inner_chamber", "bo": "kitchen", "cy": "kitchen"})
    assert any(m["tile"] == "inner_chamber" for m in cultists(g))
    ways = moves.ways_out(Ctx(g.c, g.state), "ann")
    assert ways["east"]["cost"] == 1 and ways["west"]["cost"] == 1


def test_the_cultists_turn_follows_the_revealers_and_attacks_with_speed(engine, dice):
    # Secrets of Survival, haunt 19: "You Must Do This at the End of the Haunt Revealer's Turn" (roll their Speed,
    # each goes toward the closest hero and attacks with Speed; the hero defends with Speed)
    g = thieves(engine, tiles={"ann": "elfsong_tavern", "bo": "elfsong_tavern", "cy": "elfsong_tavern"})
    (cultist,) = cultists(g)
    g.put("cy", "kitchen")  # Cy walked two tiles away; the Cultist stays with Ann and Bo at the Elfsong
    cultist["tile"] = "kitchen"
    assert g.state["order"] == ["bo", "cy", "ann", "monsters"]
    end_turns_until(g, "ann")
    dice.next(1, 1, 0, 0)  # the Cultists' Speed: 2
    dice.next(2, 2, 1, 0)  # Cultist 1 attacks Cy with Speed (4 dice): 5
    dice.next(2, 2, 0, 0)  # Cy (Gretchen) defends with Speed: 4
    g.do("end", "ann")
    texts = g.texts()
    assert any("the Cultists' turn" in t for t in texts)
    assert any("attacks Cy with Speed" in t for t in texts)
    assert any("Cy rolls Speed to defend" in t for t in texts)
    g.decide_all(0)
    assert g.state["turn"]["player"] == "bo" and not g.state["turn"].get("monsters")


def test_a_cultist_goes_toward_the_closest_hero(engine, dice):
    # Secrets of Survival, haunt 19: "You Must Do This at the End of the Haunt Revealer's Turn" ("moves toward the
    # closest hero")
    g = thieves(engine, tiles={"ann": "kitchen", "bo": "kitchen", "cy": "kitchen"})
    for pid in ("ann", "bo", "cy"):
        g.put(pid, "elfsong_tavern")
    end_turns_until(g, "ann")
    dice.next(1, 0, 0, 0)  # Speed 1: one tile
    g.do("end", "ann")
    assert cultists(g)[0]["tile"] == "inner_chamber"
    g.decide_all(0)


def test_two_damage_from_a_cultist_costs_a_card_of_the_defenders_choice(engine, dice):
    # Secrets of Survival, haunt 19: "You Must Do This at the End of the Haunt Revealer's Turn" (2 or more damage:
    # discard a stealable item or omen of your choice instead; the Whispering Skull goes beside the board)
    g = thieves(engine, tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "inner_chamber"})
    g.give("bo", "boots_of_elvenkind")
    g.give("bo", "ring_of_the_ram")
    before = dict(g.p("bo")["traits"])
    end_turns_until(g, "ann")
    for m in cultists(g):
        m["dead"] = m["tile"] != "kitchen"  # only the Kitchen Cultist, already with Bo
    dice.next(0, 0, 0, 0)  # Speed 0: still 1 space
    dice.next(2, 2, 2, 2)  # 8
    dice.next(0, 0, 0, 0)  # Bo defends: 0
    g.do("end", "ann")
    pending = g.state["pending"]
    assert pending["player"] == "bo" and pending["options"] == ["Boots of Elvenkind", "Ring of the Ram"]
    g.do("decide", "bo", choice=1)
    assert g.p("bo")["cards"] == ["boots_of_elvenkind"] and "ring_of_the_ram" in g.state["discard"]["item"]
    assert g.p("bo")["traits"] == before


def test_a_cultists_damage_is_taken_when_there_is_no_card_to_give(engine, dice):
    # Secrets of Survival, haunt 19: "You Must Do This at the End of the Haunt Revealer's Turn" ("If they can't,
    # they take the damage")
    g = thieves(engine, tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "elfsong_tavern"})
    end_turns_until(g, "ann")
    for m in cultists(g):
        m["dead"] = m["tile"] != "kitchen"
    dice.next(0, 0, 0, 0)
    dice.next(2, 2, 2, 2)
    dice.next(0, 0, 0, 0)
    g.do("end", "ann")
    assert g.state["pending"]["player"] == "bo" and g.state["pending"]["kind"] == "damage"
    g.decide_all(0)


# --- the Fickle Skull -------------------------------------------------------------------------------

def test_the_fickle_skull_takes_the_place_of_a_picked_up_item(engine, dice):
    # Secrets of Survival, haunt 19: "The Fickle Skull" (4 dice on the city level; 5+ takes the Whispering Skull
    # instead, the item stays where it was)
    g = thieves(engine, tiles={"ann": "kitchen", "bo": "elfsong_tavern", "cy": "kitchen"})
    g.state["piles"]["elfsong_tavern"] = ["ring_of_the_ram"]
    g.state["decks"]["item"].remove("ring_of_the_ram")
    assert g.state["turn"]["player"] == "bo"
    dice.next(2, 2, 1, 0)  # 5
    g.do("pickup", "bo", card="Ring of the Ram")
    assert g.p("bo")["cards"] == ["whispering_skull"] and g.state["piles"]["elfsong_tavern"] == ["ring_of_the_ram"]
    assert g.state["haunt"]["beside_board"] == []
    check(engine.content, g.state)


def test_the_fickle_skull_roll_below_five_lets_the_card_be_gained(engine, dice):
    # Secrets of Survival, haunt 19: "The Fickle Skull"
    g = thieves(engine, tiles={"ann": "kitchen", "bo": "elfsong_tavern", "cy": "kitchen"})
    g.state["piles"]["elfsong_tavern"] = ["ring_of_the_ram"]
    g.state["decks"]["item"].remove("ring_of_the_ram")
    dice.next(2, 2, 0, 0)  # 4
    g.do("pickup", "bo", card="Ring of the Ram")
    assert g.p("bo")["cards"] == ["ring_of_the_ram"]


def test_the_fickle_skull_takes_it_from_another_player_and_rolls_five_dice_below(engine, dice):
    # Secrets of Survival, haunt 19: "The Fickle Skull" (5 dice on the catacomb level; "even if it is under the
    # control of another player")
    g = thieves(engine, tiles={"ann": "kitchen", "bo": "arcane_retreat", "cy": "kitchen"})
    g.state["haunt"]["beside_board"].remove("whispering_skull")
    g.give("cy", "whispering_skull")
    g.state["piles"]["arcane_retreat"] = ["ring_of_the_ram"]
    g.state["decks"]["item"].remove("ring_of_the_ram")
    dice.next(1, 1, 1, 1, 1)  # 5 with five dice
    g.do("pickup", "bo", card="Ring of the Ram")
    roll = next(e for e in g.events if e["kind"] == "roll")
    assert len(roll["faces"]) == 5
    assert g.p("bo")["cards"] == ["whispering_skull"] and "whispering_skull" not in g.p("cy")["cards"]


def test_the_fickle_skull_is_rolled_for_a_stolen_item_too(engine, dice):
    # Secrets of Survival, haunt 19, "The Fickle Skull", L3926: gaining an item or omen in any way, a steal from
    # another player included, first takes the roll; on 5+ the thief takes the Whispering Skull instead
    # and the item stays with its owner (rulebook: Special Attacks, "Stealing Items")
    g = thieves(engine, traitor="cy", tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "elfsong_tavern"})
    g.give("ann", "ring_of_the_ram")
    g.do("unmask", "cy")
    end_turns_until(g, "cy")
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)   # Cy's Speed attack
    dice.next()                         # Ann defends with 0
    dice.next(2, 2, 1, 0)               # the Fickle Skull, 4 dice on the city level: 5
    g.do("attack", "cy", target="ann", trait="speed")
    pending = g.state["pending"]
    assert pending["kind"] == "steal" and "ring_of_the_ram" in pending["data"]["cards"]
    g.do("decide", "cy", choice=1 + pending["data"]["cards"].index("ring_of_the_ram"))
    assert any("for the Fickle Skull" in t for t in g.texts())
    assert "whispering_skull" in g.p("cy")["cards"] and "ring_of_the_ram" not in g.p("cy")["cards"]
    assert "ring_of_the_ram" in g.p("ann")["cards"] and g.state["haunt"]["beside_board"] == []
    check(engine.content, g.state)


def test_a_stolen_item_is_gained_when_the_fickle_skull_roll_is_below_five(engine, dice):
    # Secrets of Survival, haunt 19, "The Fickle Skull", L3926 (below 5 the steal goes ahead)
    g = thieves(engine, traitor="cy", tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "elfsong_tavern"})
    g.give("ann", "ring_of_the_ram")
    g.do("unmask", "cy")
    end_turns_until(g, "cy")
    dice.next(2, 2, 2, 2, 2, 2, 2, 2)
    dice.next()
    dice.next(1, 1, 1, 0)               # 3: no Skull
    g.do("attack", "cy", target="ann", trait="speed")
    g.do("decide", "cy", choice=1 + g.state["pending"]["data"]["cards"].index("ring_of_the_ram"))
    assert "ring_of_the_ram" in g.p("cy")["cards"] and "ring_of_the_ram" not in g.p("ann")["cards"]
    assert g.state["haunt"]["beside_board"] == ["whispering_skull"]
    check(engine.content, g.state)


# --- revealing ------------------------------------------------------------------------------------

def test_revealing_gives_two_speed_the_cultists_and_speed_attacks(engine, dice):
    # Secrets of Survival, haunt 19: "Revealing as the Traitor" (gain 2 Speed, control the Cultists, attack with
    # Speed instead of Might)
    g = thieves(engine, traitor="cy", tiles={"ann": "elfsong_tavern", "bo": "kitchen", "cy": "elfsong_tavern"})
    speed = g.p("cy")["traits"]["speed"]
    g.do("unmask", "cy")
    assert g.p("cy")["traits"]["speed"] == speed + 2
    end_turns_until(g, "cy")
    g.do("attack", "cy", target="ann", trait="speed")
    assert any("attacks Ann with Speed" in t for t in g.texts())
    g.decide_all(0)
    if g.state["phase"] != "haunt":
        return
    end_turns_until(g, "ann")
    dice.next(0, 0, 0, 0)
    g.do("end", "ann")
    assert any("the Cultists' turn (run for Cy)" in t for t in g.texts())  # the revealed traitor runs them


def test_the_cultists_leave_a_revealed_traitor_alone(engine, dice):
    # Secrets of Survival, haunt 19: "Revealing as the Traitor" (the Cultists are the traitor's);
    # Rulebook: How Monsters Work (monsters attack the traitor's opponents)
    g = thieves(engine, traitor="bo", tiles={"ann": "kitchen", "bo": "elfsong_tavern", "cy": "kitchen"})
    g.do("unmask", "bo")
    end_turns_until(g, "ann")
    dice.next(0, 0, 0, 0)
    g.do("end", "ann")
    assert not any("attacks Bo" in t for t in g.texts())
    g.decide_all(0)


# --- the wins -----------------------------------------------------------------------------------------

def test_heroes_win_with_the_skull_on_the_elfsong_as_the_revealers_turn_ends(engine):
    # Secrets of Survival, haunt 19: "The Heroes Win When" (a hero controls the Skull on the Elfsong Tavern at the
    # end of the haunt revealer's turn)
    g = thieves(engine, traitor="bo", tiles={"ann": "kitchen", "bo": "kitchen", "cy": "elfsong_tavern"})
    g.state["haunt"]["beside_board"].remove("whispering_skull")
    g.give("cy", "whispering_skull")
    end_turns_until(g, "ann")
    assert g.state["phase"] == "haunt"
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"


def test_the_traitor_wins_with_the_skull_on_the_shrine_but_not_in_the_round_revealed(engine, dice):
    # Secrets of Survival, haunt 19: "The Traitor Wins When" (the revealed traitor controls the Skull on the Shrine
    # to Bhaal at the end of the revealer's turn; not in the round of the reveal)
    g = thieves(engine, traitor="cy", tiles={"ann": "kitchen", "bo": "kitchen", "cy": "kitchen"})
    g.place("shrine_to_bhaal", "catacomb", 0, -1)
    g.state["haunt"]["beside_board"].remove("whispering_skull")
    g.give("cy", "whispering_skull")
    g.put("cy", "shrine_to_bhaal")
    for m in cultists(g):
        m["dead"] = True  # out of the way
    g.do("unmask", "cy")
    end_turns_until(g, "ann")
    g.do("end", "ann")
    assert g.state["phase"] == "haunt" and any("round they were revealed" in t for t in g.texts())
    end_turns_until(g, "ann")
    g.do("end", "ann")
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "traitor"


def test_a_hidden_traitor_on_the_shrine_does_not_win(engine):
    # Secrets of Survival, haunt 19: "The Traitor Wins When" ("the revealed traitor")
    g = thieves(engine, traitor="cy", tiles={"ann": "kitchen", "bo": "kitchen", "cy": "kitchen"})
    g.place("shrine_to_bhaal", "catacomb", 0, -1)
    g.state["haunt"]["beside_board"].remove("whispering_skull")
    g.give("cy", "whispering_skull")
    g.put("cy", "shrine_to_bhaal")
    for m in cultists(g):
        m["dead"] = True
    end_turns_until(g, "ann")
    g.do("end", "ann")
    assert g.state["phase"] == "haunt"


def test_killing_the_traitor_wins_for_the_heroes(engine, dice):
    # Secrets of Survival, haunt 19: "Killing an Adventurer" and "The Heroes Win When" (the traitor is killed; the
    # dead adventurer's token is turned over)
    g = thieves(engine, traitor="cy", tiles={"ann": "kitchen", "bo": "elfsong_tavern", "cy": "elfsong_tavern"})
    g.p("cy")["traits"]["might"] = 1
    g.p("cy")["traits"]["speed"] = 1
    dice.next(2, 2, 2)  # Bo (Lia) attacks with Might
    dice.next(0, 0, 0)
    g.do("attack", "bo", target="cy")
    g.decide_all(0)
    assert not g.p("cy")["alive"]
    assert g.state["phase"] == "over" and g.state["haunt"]["winner"] == "heroes"
    assert any("token is turned over: 1" in t for t in g.texts())


# --- the hidden traitor stays hidden ----------------------------------------------------------------

def test_the_new_rules_run_in_the_swap_test_and_give_nobody_away(engine):
    # Rulebook: Haunts With a Hidden Traitor; Ruling: messages to a side before a hidden traitor is unmasked.
    # The Cultists' turn, their attacks and the Fickle Skull are played in both games of the swap test.
    seen = set()
    for seed in range(8):  # enough games for every mark (a death of the pair ends one early)
        g = at_reveal(engine, "whispering_skull", "arcane_retreat")
        a = g.state
        traitor = a["haunt"]["traitors"][0]
        other = next(p for p in a["seats"] if p != traitor)
        b = swapped(a, other)
        pair = {traitor, other}
        viewers = [p for p in a["seats"] if p not in pair]
        rnd = random.Random(190 + seed)
        for _ in range(250):
            action = spare_the_pair(engine.content, a, rnd, pair)
            if action is None or action["type"] == "unmask":
                break
            before_a, before_b = a, b
            a, ev_a = engine.apply(a, action)
            b, ev_b = engine.apply(b, action)
            if any(not a["players"][p]["alive"] or not b["players"][p]["alive"] for p in pair):
                break
            for text in (e["text"] for e in ev_a):
                for mark in ("the Cultists' turn", "Fickle Skull", "Cultist 1 attacks", "laid beside the board"):
                    if mark in text:
                        seen.add(mark)
            if a["phase"] == "over":
                break  # the end of the game shows every token (bot.games.babg.engine.view): nothing left to compare
            for viewer in viewers:
                assert seen_by(engine.content, before_a, a, ev_a, viewer) == \
                    seen_by(engine.content, before_b, b, ev_b, viewer)
    assert {"the Cultists' turn", "Fickle Skull", "Cultist 1 attacks", "laid beside the board"} <= seen


def test_auto_played_games_of_this_haunt_keep_the_invariants(engine):
    for seed in range(3):
        g = at_reveal(engine, "whispering_skull", "arcane_retreat")
        rnd = random.Random(seed)
        for _ in range(600):
            action = autoplay.choose(engine.content, g.state, rnd)
            if action is None:
                break
            g.state, _ = engine.apply(g.state, action)
            check(engine.content, g.state)
            if g.state["phase"] == "over":
                break


def test_the_goals_and_the_unmasking_stay_with_each_players_own_bot(engine):
    # Secrets of Survival, haunt 19: "The Heroes Win When" (the Skull to the Elfsong Tavern) and "The Traitor Wins
    # When" (the revealed traitor with the Skull on the Shrine to Bhaal); Rulebook: Haunts With a Hidden Traitor
    # (token 1 turned face up at any time). The haunt has no action of its own: nothing new is offered, and the
    # hidden traitor's aim and unmasking come from its own built-in player only, never from the public buttons.
    g = thieves(engine, traitor="cy", tiles={"ann": "kitchen", "bo": "kitchen", "cy": "kitchen"})
    g.place("shrine_to_bhaal", "catacomb", 0, -1)

    def goals(pid):
        return set().union(*hooks.fire("haunt_goals", Ctx(engine.content, g.state), pid))

    g.state["haunt"]["beside_board"].remove("whispering_skull")
    g.give("bo", "whispering_skull")
    assert goals("bo") == {"elfsong_tavern"}                    # a hero carries it home
    assert goals("cy") == {"kitchen"}                           # the traitor goes for it
    g.give("cy", "whispering_skull")
    g.p("bo")["cards"].remove("whispering_skull")
    assert goals("cy") == {"shrine_to_bhaal"} and goals("ann") == {"elfsong_tavern"}   # Cy looks like a hero
    g.put("cy", "shrine_to_bhaal")
    end_turns_until(g, "cy")
    offered = legal_actions(engine.content, g.state)
    assert not any(a["type"] in ("unmask", "task") for a in offered)
    assert autoplay.choose(engine.content, g.state, random.Random(0)) == {"type": "unmask", "player": "cy"}
    g.put("cy", "kitchen")
    assert autoplay.choose(engine.content, g.state, random.Random(0))["type"] != "unmask"


def test_an_undeclared_move_is_refused(engine):
    # Secrets of Survival, haunt 19: the haunt has no moves of its own
    g = thieves(engine, tiles={"ann": "kitchen", "bo": "elfsong_tavern", "cy": "kitchen"})
    with pytest.raises(IllegalAction, match="no special moves"):
        g.do("task", g.state["turn"]["player"], task="steal")
