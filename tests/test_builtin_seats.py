"""Seats the bot plays (bot.service.seats), through the service the adapters
use: one person and built-in seats play a whole game; a built-in seat joins,
leaves and is handed over like a person's; it chooses from what its seat may
know; it never keeps a game waiting. (Through the real client:
tests/test_discord_builtin.py and tests/test_discord_stand_in.py.)"""
import asyncio
import copy
import random

import pytest

from bot import games
from bot.games.babg import autoplay
from bot.games.babg.discord import messages
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import actor
from bot.service import GameService, seats
from tests.conftest import Game

CHANNEL = "c1"


def run(coro):
    return asyncio.run(coro)


async def seated(engine, builtins: int, person_adventurer: str | None = None):
    svc = GameService.in_memory(engine)
    svc.fixed_seed = 4242
    await svc.new_game(CHANNEL, "g1", "ann")
    for _ in range(builtins):
        await svc.add_builtin(CHANNEL, "ann")
    game = await svc.game(CHANNEL)
    adventurer = person_adventurer or engine.free_adventurers(game.state)[0]
    await svc.act(CHANNEL, {"type": "join", "player": "ann", "adventurer": adventurer, "name": "Ann"})
    return svc


async def play_person(svc, engine, rnd, limit=2000):
    """The person's moves, scripted; the bot plays its seats after each one."""
    for _ in range(limit):
        while await svc.play_builtin(CHANNEL):
            pass
        game = await svc.active_game(CHANNEL)
        if game is None:
            return (await svc.latest_game(CHANNEL)).state
        assert actor(game.state) == "ann", f"the game waits for {actor(game.state)}, a seat the bot plays"
        await svc.act(CHANNEL, autoplay.choose(engine.content, game.state, rnd))
    raise AssertionError("no end")


@pytest.mark.parametrize("builtins,seed", [(2, 1), (3, 2), (5, 3)])
def test_one_person_and_built_in_seats_play_a_whole_game(engine, builtins, seed):
    async def go():
        svc = await seated(engine, builtins)
        svc.fixed_seed = seed
        game = await svc.game(CHANNEL)
        assert [game.state["players"][p]["name"] for p in seats.builtin_seats(game.state)] == \
            [f"Built-in {n}" for n in range(1, builtins + 1)]
        await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        final = await play_person(svc, engine, random.Random(seed))
        assert final["phase"] == "over" and final["result"]["reason"] in ("haunt_won", "haunt_ended")
        # each built-in seat's secret rules were committed like a person's (the bot keeps them; a person who
        # takes the seat over reads them)
        latest = await svc.latest_game(CHANNEL)
        if final.get("haunt"):
            for pid in seats.builtin_seats(final):
                assert await svc.private_lines(latest, pid, limit=1000), f"{pid} got its side's rules"
    run(go())


def test_a_built_in_seat_joins_leaves_and_is_handed_over_like_a_persons(engine):
    async def go():
        svc = await seated(engine, 2)
        game = await svc.game(CHANNEL)
        first, second = seats.builtin_seats(game.state)
        # Rulebook: Setup (3 to 6 players) - a built-in seat counts as a player
        await svc.act(CHANNEL, {"type": "leave", "player": second})  # kicked before the start
        assert seats.builtin_seats((await svc.game(CHANNEL)).state) == [first]
        with pytest.raises(IllegalAction, match="At least 3 players"):
            await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        await svc.add_builtin(CHANNEL, "ann")
        await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        with pytest.raises(IllegalAction, match="has already started"):
            await svc.add_builtin(CHANNEL, "ann")
        with pytest.raises(IllegalAction, match="handed to someone else"):
            await svc.act(CHANNEL, {"type": "leave", "player": first})  # after the start: as for people
        with pytest.raises(IllegalAction, match="not already playing"):
            await svc.act(CHANNEL, {"type": "handover", "player": first, "to": "ann"})
        out = await svc.act(CHANNEL, {"type": "handover", "player": first, "to": "bo", "name": "Bo"})
        state = out.state
        assert "bo" in state["players"] and not state["players"]["bo"].get("builtin")
        assert not seats.is_builtin(state, "bo") and first not in state["players"]
    run(go())


def test_only_the_creator_or_a_seated_player_adds_a_built_in_seat(engine):
    async def go():
        svc = GameService.in_memory(engine)
        await svc.new_game(CHANNEL, "g1", "ann")
        with pytest.raises(IllegalAction, match="creator or a seated player"):
            await svc.add_builtin(CHANNEL, "stranger")
        out = await svc.add_builtin(CHANNEL, "ann", "lia")
        assert out.state["players"]["builtin-1"]["adventurer"] == "lia"
    run(go())


def test_a_persons_action_on_a_built_in_seats_turn_is_refused_with_who_plays_it(engine):
    async def go():
        svc = await seated(engine, 2)
        await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        game = await svc.game(CHANNEL)
        first = game.state["turn"]["player"]
        if first == "ann":  # the person goes first: end, and the bot's seat is next
            await svc.act(CHANNEL, {"type": "end", "player": "ann"})
            game = await svc.game(CHANNEL)
        who = actor(game.state)
        assert seats.is_builtin(game.state, who)
        with pytest.raises(IllegalAction, match=f"It is {game.state['players'][who]['name']} \\("):
            await svc.act(CHANNEL, {"type": "end", "player": "ann"})
    run(go())


def test_the_bot_plays_fair_its_choice_does_not_depend_on_what_its_seat_cannot_know(engine):
    # The dice to come and the order of every deck and stack are hidden (Rulebook: Cards, Tiles): two games
    # that differ only there get the same choice from the same seat.
    g = Game(engine, haunt="play")
    rnd = random.Random(5)
    for _ in range(60):  # some way into the exploration
        g.state, _ = engine.apply(g.state, autoplay.choose(engine.content, g.state, rnd))
    other = copy.deepcopy(g.state)
    other["rng"] = (other["rng"] * 7 + 13) % (1 << 64)
    for piles in ("decks", "stacks"):
        for cards in other[piles].values():
            cards.reverse()
    assert other != g.state
    for k in range(20):
        assert autoplay.choose(engine.content, g.state, random.Random(k), fair=True) == \
            autoplay.choose(engine.content, other, random.Random(k), fair=True)


def test_a_seat_the_bot_plays_ends_its_turn_after_patience_runs_out(engine):
    g = Game(engine)
    pid = g.state["turn"]["player"]
    assert seats.pick(games.get("babg").over(engine), g.state, pid, random.Random(1), seats.PATIENCE) == {"type": "end", "player": pid}
    g.state["pending"] = {"player": pid, "kind": "x", "prompt": "?", "options": ["a", "b"]}
    assert seats.pick(games.get("babg").over(engine), g.state, pid, random.Random(1), seats.PATIENCE)["type"] == "decide"


def test_no_reminder_or_deadline_for_a_seat_the_bot_plays(engine):
    async def go():
        svc = await seated(engine, 2)
        await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        game = await svc.game(CHANNEL)
        if actor(game.state) == "ann":
            await svc.act(CHANNEL, {"type": "end", "player": "ann"})
            game = await svc.game(CHANNEL)
        assert seats.is_builtin(game.state, actor(game.state))
        assert svc._timers(game, game.state) == []
        assert svc._timers(game, {**game.state, "turn": {**game.state["turn"], "player": "ann"}, "pending": None})
    run(go())


def test_away_and_back(engine):
    # The stand-in, asked for: the seat is played until its owner acts again.
    async def go():
        svc = await seated(engine, 2)
        with pytest.raises(IllegalAction, match="once the game has started"):
            await svc.set_away(CHANNEL, "ann", True)
        await svc.act(CHANNEL, {"type": "start", "player": "ann"})
        await svc.set_away(CHANNEL, "ann", True)
        with pytest.raises(IllegalAction, match="already playing your seat"):
            await svc.set_away(CHANNEL, "ann", True)
        for _ in range(3):  # the bot plays every seat now, the person's too
            assert await svc.play_builtin(CHANNEL) is not None
        game = await svc.game(CHANNEL)
        assert any(a["player"] == "ann" for a in await svc.actions(game)) or game.state["turn"]["number"] > 3
        out = None
        while out is None:
            try:
                out = await svc.act(CHANNEL, {"type": "end", "player": "ann"})
            except IllegalAction as e:
                assert e.back and "Ann is back" in e.back  # refused, and the seat is hers again all the same
                break
        else:
            assert out.notes and "Ann is back" in out.notes[0]
        assert seats.away((await svc.game(CHANNEL)).settings) == []
        with pytest.raises(IllegalAction, match="yours already"):
            await svc.set_away(CHANNEL, "ann", False)
    run(go())


def test_an_absent_persons_secrets_still_reach_them_and_a_built_in_seats_reach_nobody(engine):
    # The stand-in plays an absent person's seat, but what is said to that seat is still theirs.
    g = Game(engine)
    state = g.state
    bot_seat = state["seats"][0]
    state["players"][bot_seat]["builtin"] = True
    person = state["seats"][1]
    events = [{"to": person, "kind": "secret", "text": "for the person"},
              {"to": bot_seat, "kind": "secret", "text": "for the bot's seat"}]
    d = messages.deliver(engine.content, state, state, events, played={person, bot_seat})
    assert d.private == {person: ["for the person"]}
