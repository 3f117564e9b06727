"""Every turn message and its buttons are built from a view of the game
(bot.games.babg.engine.view), never from the state: the channel's lines,
who is pinged and the buttons from the view everyone shares, a player's own
lines from theirs. So no message can say what its reader may not see
(Rulebook: Haunts With a Hidden Traitor, the traitor's token stays face down;
Setup, the decks and stacks are shuffled face down)."""
import copy
import dataclasses
import random

from bot.games.babg import autoplay, vocabulary
from bot.games.babg.discord import messages, views
from bot.games.babg.engine.legal import across_barrier, legal_actions
from bot.games.babg.engine.view import HIDDEN, view
from tests.playout import new_auto_game
from tests.test_swap_hidden_traitor import at_reveal, hidden_haunts, spare_the_pair, swapped

SECRET = "PLANTED-SECRET"
# Each function a message or a button is worded by, and where its game argument is.
WORDING = ((vocabulary, "describe", 1), (vocabulary, "slash_hint", 1), (vocabulary, "spoken", 1),
           (vocabulary, "pending_key", 0), (vocabulary, "turn_number", 0), (messages, "prompt_line", 0),
           (messages, "reminder_line", 1), (messages, "bot_line", 0), (messages, "trait_value", 1))


def a_view(game: dict) -> bool:
    """Whether `game` is a view: no dice to come, no order of a deck or stack, no steps still to run."""
    return ("rng" not in game and "seed" not in game and game["queue"] == []
            and all(set(cards) <= {HIDDEN} for piles in ("decks", "stacks") for cards in game[piles].values()))


def spy_on_wording(monkeypatch) -> dict[str, list[dict]]:
    """What game each wording function is given, by its name."""
    given: dict[str, list[dict]] = {name: [] for _, name, _ in WORDING}
    for module, name, at in WORDING:
        def spied(*args, _real=getattr(module, name), _name=name, _at=at, **kwargs):
            given[_name].append(args[_at])
            return _real(*args, **kwargs)
        monkeypatch.setattr(module, name, spied)
    return given


def planted(state: dict) -> dict:
    """The game with a secret written into every field the channel's view leaves out or hides."""
    s = copy.deepcopy(state)
    s["rng"] = s["seed"] = SECRET
    s["queue"] = [{"step": SECRET}]
    for piles in ("decks", "stacks", "set_aside"):
        s[piles] = {name: [SECRET] * len(cards) for name, cards in s.get(piles, {}).items()}
    if s["pending"]:
        s["pending"]["data"] = {"secret": SECRET}
    return s


def played_for_a_while(engine, seed: int, actions: int):
    """A game of the built-in players, action by action: (before, state, events)."""
    rnd = random.Random(seed)
    state, _ = new_auto_game(engine, seed, rnd, players=4)
    for _, after, events in autoplay.play(engine, state, rnd, max_actions=actions):
        yield state, after, events
        state = after


def test_every_word_of_a_turn_message_and_its_buttons_comes_from_a_view(engine, monkeypatch):
    given = spy_on_wording(monkeypatch)
    for before, state, events in played_for_a_while(engine, 11, 60):
        messages.deliver(engine.content, before, state, events)
        views.turn_controls(engine.content, state, 7)
    assert given["describe"] and given["spoken"] and given["prompt_line"] and given["reminder_line"]
    for name, games in given.items():
        assert all(a_view(g) for g in games), f"{name} was given the state, not a view"


def test_a_secret_planted_where_the_view_looks_away_never_reaches_the_channel(engine):
    for before, state, events in played_for_a_while(engine, 12, 60):
        told = messages.deliver(engine.content, planted(before), planted(state), events)
        assert dataclasses.asdict(told) == dataclasses.asdict(messages.deliver(engine.content, before, state, events))
        assert SECRET not in repr((told.public, told.said, told.tail, told.private))
        # the controls: the engine says what is legal, from the whole game; the wording from the view alone
        seen = view(state)
        laid_out = views.controls(engine.content, seen, legal_actions(engine.content, state),
                                  across_barrier(engine.content, state), 7)
        made = views.turn_controls(engine.content, state, 7)
        if made[0] is not None:
            assert (laid_out[0].to_components(), laid_out[1]) == (made[0].to_components(), made[1])


def test_the_buttons_are_the_same_whoever_holds_the_traitors_token(engine):
    omen, tile = hidden_haunts(engine.content)[19]
    a = at_reveal(engine, omen, tile).state
    other = next(p for p in a["seats"] if p != a["haunt"]["traitors"][0])
    b = swapped(a, other)
    pair = {a["haunt"]["traitors"][0], other}
    rnd = random.Random(19)
    compared = 0
    for _ in range(40):
        action = spare_the_pair(engine.content, a, rnd, pair)
        if action is None or action["type"] == "unmask":
            break
        (a, events_a), (b, events_b) = engine.apply(a, action), engine.apply(b, action)
        if a["phase"] == "over" or any(not a["players"][p]["alive"] for p in pair):
            break  # a death or the end turns the tokens over
        shown_a, hints_a = views.turn_controls(engine.content, a, 7)
        shown_b, hints_b = views.turn_controls(engine.content, b, 7)
        assert hints_a == hints_b
        assert (shown_a and shown_a.to_components()) == (shown_b and shown_b.to_components())
        compared += 1
    assert compared > 10, "the haunt was played for a while"
