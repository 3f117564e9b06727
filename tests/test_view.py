"""One view per player: what the adapters draw and write from. Rulebook:
Haunts With a Hidden Traitor (tokens stay face down); Setup (the decks and
stacks are shuffled face down)."""
import json
import random

from bot.games.babg import autoplay
from bot.games.babg.engine.view import HIDDEN, view
from tests.playout import new_auto_game
from tests.test_swap_hidden_traitor import at_reveal, hidden_haunts


def test_the_channel_sees_no_deck_order_and_no_dice_to_come(engine):
    state, _ = new_auto_game(engine, 5, random.Random(5))
    seen = view(state)
    assert "rng" not in seen and "seed" not in seen
    assert all(set(cards) <= {HIDDEN} for cards in seen["decks"].values())
    assert {k: len(v) for k, v in seen["stacks"].items()} == {k: len(v) for k, v in state["stacks"].items()}
    assert state["rng"] and state["decks"]["event"][0] != HIDDEN, "the game itself is untouched"
    json.dumps(seen)


def test_a_hidden_traitor_sees_their_own_token_and_nobody_elses(engine):
    omen, tile = hidden_haunts(engine.content)[37]
    state = at_reveal(engine, omen, tile).state
    traitor = state["haunt"]["traitors"][0]
    other = next(p for p in state["seats"] if p != traitor)
    mine = state["haunt"]["hidden_tokens"][traitor]
    assert 1 in mine and len(mine) == 2  # Secrets of Survival, haunt 37: "Right Now" (2 tokens each)
    assert view(state, traitor)["haunt"]["hidden_tokens"] == {traitor: mine}
    assert view(state, traitor)["haunt"]["traitors"] == [traitor]
    assert traitor not in (view(state, other)["haunt"]["hidden_tokens"] or {})
    assert view(state, other)["haunt"]["traitors"] == [] and view(state)["haunt"]["traitors"] == []


def test_the_seed_is_shown_once_the_game_is_over(engine):
    rnd = random.Random(2)
    state, _ = new_auto_game(engine, 2, rnd, haunt="stop")
    for _, state, _ in autoplay.play(engine, state, rnd, max_actions=3000):
        pass
    assert state["phase"] == "over" and view(state)["seed"] == state["seed"]


def test_a_face_down_ioun_stone_shows_no_number(engine):
    # Secrets of Survival, haunt 12: "Right Now" (the stones lie face down)
    from bot.games.babg.engine.haunts.h12_blackrazor import STONE
    from bot.games.babg.engine import tokens as tk
    from tests.test_haunt_play import revealed
    g = revealed(engine, "gladiator_pit", "pipes_of_haunting")
    g.state["haunt"]["number"] = 12
    g.state["haunt"]["h12"] = {"to_place": [3], "held": {"ann": [2]}, "won": None}
    tk.place(g.state, STONE, "kitchen", stone=4)
    seen = view(g.state, "bo")
    assert "h12" not in seen["haunt"]
    assert [t for t in seen["tokens"] if t["name"] == STONE] == [{"name": STONE, "tile": "kitchen"}]
