"""The stand-in through the real client: a player goes silent in the middle
of the haunt while a question waits for them (once a hero, once the
traitor); their deadline passes; the stand-in answers and plays their seat,
across a restart of the bot, and gives the seat back the moment they act."""
import dataclasses
import random

import pytest

from bot.games.babg import autoplay
from bot.discord import turn_posts
from bot.games.babg.engine.legal import actor
from bot.service import seats
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game, play_one

LATER = 10 ** 12  # a clock long after every deadline


def to_a_question(engine, state: dict, traitor: bool) -> dict:
    """Played on off the channel to a moment of the started haunt where a
    question waits for a traitor (or a hero) who has another turn to come."""
    for seed in range(200):
        rnd, s, began = random.Random(seed), state, None
        for _ in range(3000):
            h = s.get("haunt") or {}
            if s["phase"] == "over":
                break
            turn = s["turn"] or {}
            if h.get("started") and began is None and turn:
                began = turn["number"]
            p = (s["pending"] or {}).get("player")
            if p and began and turn and turn["number"] <= began + 2 and (p in h["traitors"]) == traitor \
                    and turn["player"] != p and all(s["players"][q]["alive"] for q in s["seats"]):
                return s  # (early in the haunt, everyone alive: the game goes on long enough to come back)
            s, _ = engine.apply(s, autoplay.choose(engine.content, s, rnd))
    raise AssertionError("no such moment found")


@pytest.mark.parametrize("traitor", [False, True], ids=["hero", "traitor"])
async def test_the_stand_in_answers_plays_on_and_gives_the_seat_back(fake_discord, tmp_path, engine, traitor,
                                                                     monkeypatch):
    # Rulebook: (none) a table's own rule for absent players: see docs/rulings.md, "The stand-in"
    monkeypatch.setattr(turn_posts, "QUIET", 0.1)  # quick players: an edit waits less for the next click
    t = Table(fake_discord, tmp_path)
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    moment = to_a_question(engine, game.state, traitor)
    await t.put_state(game, moment)
    silent = moment["pending"]["player"]
    name = moment["players"][silent]["name"]
    others = [n for n in ("ann", "bo", "cy") if t.uid(n) != silent]
    h = await t.slash(others[0], "game", subcommand="settings", options={"stand_in": "deadline"})
    assert "a stand-in plays an absent player's seat" in h.content

    # The deadline passes: the table is told, and the stand-in answers the question.
    t.bot.service.clock = lambda: LATER
    await t.bot.fire_timers()
    await t.done()
    said = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert f"<@{silent}>'s turn deadline has passed: the stand-in plays their seat" in said
    game = await t.game()
    assert game.settings["away"] == [silent]
    asked = await t.bot.service.actions(game)
    assert any(a["player"] == silent and a["type"] == "decide" for a in asked), "the stand-in answered"
    assert actor(game.state) != silent or game.state["phase"] == "over"

    # The bot restarts in the middle of it: nothing is lost, and the stand-in still holds the seat.
    before, log = game.state, len(asked)
    await t.restart(engine)
    t.bot.service.clock = lambda: LATER
    game = await t.game()
    assert game.state == before and game.settings["away"] == [silent]
    assert len(await t.bot.service.actions(game)) == log

    # The others play on; whenever the game waits for the silent seat, the stand-in plays it.
    rnd, played_for = random.Random(1), 0
    for step in range(400):
        await t.done()
        game = await t.game()
        if game is None or played_for:
            break
        assert actor(game.state) != silent, "the stand-in left the seat waiting"
        await play_one(t, autoplay.choose(engine.content, game.state, rnd), game, use_buttons=step % 2 == 0)
        played_for = sum(a["player"] == silent for a in (await t.bot.service.actions(game))[log:])
    game = await t.game()
    assert played_for and game is not None, "the stand-in played the seat after the restart; the game goes on"

    # The player comes back: any command of theirs, even one the rules refuse, gives the seat back at once.
    who = next(n for n in ("ann", "bo", "cy") if t.uid(n) == silent)
    h = await t.slash(who, "end")
    await t.done()
    game = await t.game()
    assert seats.away(game.settings) == []
    assert any(f"{name} is back: the stand-in gives the seat back." in m.content
               for m in t.s.channel_messages(t.channel))
    # From now on the game waits for them again: the bot plays nothing for them.
    for step in range(400):
        await t.done()
        game = await t.game()
        if game is None or actor(game.state) == silent:
            break
        await play_one(t, autoplay.choose(engine.content, game.state, rnd), game, use_buttons=False)
    if game is not None:
        await t.done()
        assert actor((await t.game()).state) == silent, "the seat waits for its owner"
    assert not t.s.client_errors, t.s.client_errors
