"""Clause-by-clause audit of the event cards: the clauses no other test
checks that are either notable rules or suspected to be wrong, played
through the real actions. Ann plays Torskar (Might 5, Speed 4, Knowledge 3,
Sanity 3), Bo Lia, Cy Gretchen; Ann's right-hand neighbour is Cy."""
from bot.games.babg.engine import tokens as tk
from bot.games.babg.engine.ctx import Ctx
from tests.test_effects_events import end_round
from tests.test_effects_haunt_cards import wererat
from tests.test_effects_kit import draw_event, resolve_event
from tests.test_haunt_play import attack_ready


def pos(g, pid):
    return dict(g.p(pid)["traits"])


# --- Explosive Runes -------------------------------------------------------------------------------


def test_explosive_runes_blast_does_not_pass_through_an_arcane_gate(game, dice):
    # Card: Explosive Runes (0: everyone on your tile and on each connected adjacent tile takes 1 die)
    # Card: Arcane Gate (the two tiles are 1 space apart for movement; they are not adjacent)
    tk.place(game.state, "Arcane Gate", "dead_end", link="kitchen_basement")
    tk.place(game.state, "Arcane Gate", "kitchen_basement", link="dead_end")
    game.put("bo", "kitchen_basement")
    before_bo = pos(game, "bo")
    dice.next(0, 0, 0)  # Knowledge roll: 0, the runes go off
    dice.next(1)        # Ann's die
    dice.next(1)        # a die for Bo, should the engine (wrongly) hurt him
    draw_event(game, "explosive_runes")
    game.decide_all()
    assert "dead_end" in game.state["board"]
    assert pos(game, "bo") == before_bo, "the Kitchen Basement is only gate-linked to the Dead End"


def test_explosive_runes_blast_hits_monsters_too(engine, dice):
    # Card: Explosive Runes (0: "you and every adventurer, monster and NPC on your tile ... take 1 die")
    g = attack_ready(engine)
    m = wererat(g, g.p("ann")["tile"])
    dice.next(0, 0, 0)  # Ann's Knowledge roll: 0
    for _ in range(4):  # a die of damage each for Ann, Bo, Cy and the monster
        dice.next(2)
    resolve_event(g, "explosive_runes", pid="ann")
    g.decide_all()
    assert next(x for x in g.state["monsters"] if x["id"] == m["id"])["stunned"]


# --- Familiar Echoes in the haunt --------------------------------------------------------------------


def test_familiar_echoes_in_the_haunt_spares_the_opponent_on_your_tile(engine, dice):
    # Card: Familiar Echoes (5+: you and every other adventurer on your tile who is not your opponent gain 1
    # Sanity)
    g = attack_ready(engine)  # haunt 18: Bo is the traitor; everyone on the Elfsong Tavern
    before = {p: pos(g, p) for p in ("ann", "bo", "cy")}
    dice.next(2, 2, 1)  # Ann's Sanity roll: 5
    resolve_event(g, "familiar_echoes", pid="ann")
    g.decide_all()
    assert g.p("ann")["tile"] == "elfsong_tavern"
    assert pos(g, "ann")["sanity"] == before["ann"]["sanity"] + 1
    assert pos(g, "cy")["sanity"] == before["cy"]["sanity"] + 1
    assert pos(g, "bo") == before["bo"], "the traitor is Ann's opponent"


def test_familiar_echoes_is_ignored_when_everyone_else_is_an_opponent(engine, dice):
    # Card: Familiar Echoes ("If every other adventurer on the board is your opponent, ignore this card")
    g = attack_ready(engine)
    g.put("ann", "kitchen")
    before = {p: pos(g, p) for p in ("ann", "bo", "cy")}
    dice.next(2, 2, 2)  # a Sanity roll, were one made
    resolve_event(g, "familiar_echoes", pid="bo")
    g.decide_all()
    assert g.p("bo")["tile"] == "elfsong_tavern"
    assert {p: pos(g, p) for p in ("ann", "bo", "cy")} == before
    assert not any("rolls Sanity" in t for t in g.texts())
    assert "familiar_echoes" in g.state["discard"]["event"]


# --- Otyugh Tentacle once the haunt has begun ---------------------------------------------------------


def _way_out(g, pid):
    return next(w for w, i in g.engine.ways_out(g.state, pid).items() if "blocked" not in i and i.get("to"))


def test_otyugh_tentacle_attacks_a_leaving_hero_who_can_tear_it_off(engine, dice):
    # Card: Otyugh Tentacle (once the haunt has started, a hero leaving the tile is attacked, Might 3, by the
    # player on their right; a win discards the token and card; a win by 3 or more also gains 1 Might or Speed)
    g = attack_ready(engine)
    resolve_event(g, "otyugh_tentacle", pid="ann")
    assert tk.with_card(g.state, "otyugh_tentacle")["tile"] == "elfsong_tavern"
    before = pos(g, "ann")
    dice.next(0, 0, 0)        # 3 dice for the tentacle, rolled by Cy (on Ann's right)
    dice.next(2, 2, 2, 0, 0)  # Ann's Might 5: 6, a win by 6
    g.do("move", "ann", way=_way_out(g, "ann"))
    assert any("Cy rolls 3 dice for the Otyugh" in t for t in g.texts())
    g.do("decide", "ann", choice="Speed")
    g.decide_all()
    assert tk.with_card(g.state, "otyugh_tentacle") is None
    assert "otyugh_tentacle" in g.state["discard"]["event"]
    assert pos(g, "ann")["speed"] == before["speed"] + 1


def test_otyugh_tentacle_lets_the_traitor_pass(engine, dice):
    # Card: Otyugh Tentacle ("whenever a hero tries to leave this tile")
    g = attack_ready(engine)
    resolve_event(g, "otyugh_tentacle", pid="ann")
    g.state["turn"] = {**g.state["turn"], "player": "bo"}
    g.do("move", "bo", way=_way_out(g, "bo"))
    g.decide_all()
    assert not any("Otyugh" in t for t in g.texts())
    assert tk.with_card(g.state, "otyugh_tentacle")["tile"] == "elfsong_tavern"


# --- Wererat Bite ----------------------------------------------------------------------------------


def test_wererat_bite_infecting_is_the_attackers_choice(engine, dice):
    # Card: Wererat Bite ("When you deal physical damage with an attack to an adventurer on your tile, you may
    # infect them"); Ruling: Wererat Bite: when the infected winner is asked
    g = attack_ready(engine)
    resolve_event(g, "wererat_bite", pid="ann")
    dice.next(1)  # 1 damage: Bo lives to be bitten
    dice.next(0)
    g.do("attack", "ann", target="bo")
    asked = False
    for _ in range(10):
        pending = g.state["pending"]
        if not pending:
            break
        if pending["player"] == "ann" and any("nfect" in o for o in pending["options"]):
            asked = True
            g.do("decide", "ann", choice=len(pending["options"]) - 1)
        else:
            g.do("decide", pending["player"], choice=0)
    assert asked, "Ann was never asked whether to infect Bo"


# --- Rogue Air Elemental ---------------------------------------------------------------------------


def test_rogue_air_elemental_on_an_already_slowed_turn_slows_the_next_one(game, dice):
    # Card: Rogue Air Elemental (0-1: "on your next turn you can move only 1 space")
    from bot.games.babg.engine import moves
    dice.next(0, 0, 0, 0, 0)
    dice.next(1)
    draw_event(game, "rogue_air_elemental")
    end_round(game)  # Ann's slowed turn: she is still on the Dead End, a street
    assert moves.allowance(Ctx(game.c, game.state), "ann") == 1
    game.state["discard"]["event"].remove("rogue_air_elemental")
    game.state["decks"]["event"].insert(0, "rogue_air_elemental")
    dice.next(0, 0, 0, 0)  # the second Might roll: 0 again
    dice.next(1)
    resolve_event(game, "rogue_air_elemental", pid="ann")
    end_round(game)
    assert moves.allowance(Ctx(game.c, game.state), "ann") == 1, "this is the turn after the second draw"


# --- Sound of Looming Doom ------------------------------------------------------------------------


def test_sound_of_looming_doom_nobody_is_both_highest_and_lowest(game, dice):
    # Card: Sound of Looming Doom ("Adventurers tied for highest or for lowest roll again among themselves")
    dice.next(1)        # Ann 1
    dice.next(1)        # Bo 1
    dice.next(1)        # Cy 1: everyone ties
    dice.next(2, 2)     # re-roll for highest: Ann 4
    dice.next(0)        # Bo 0
    dice.next(0)        # Cy 0
    dice.next(0)        # re-roll for lowest: Ann 0
    dice.next(2, 2)     # Bo 4
    dice.next(2, 2)     # Cy 4
    draw_event(game, "sound_of_looming_doom")
    texts = game.texts()
    highest = next(t.removeprefix("Sound of Looming Doom: ").split()[0] for t in texts if "rolled highest" in t)
    lowest = next(t.removeprefix("Sound of Looming Doom: ").split()[0] for t in texts if "rolled lowest" in t)
    assert highest == "Ann" and lowest != highest
