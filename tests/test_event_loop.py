"""The bot runs on uvloop's event loop when it is installed (the default
install on Linux and macOS): the whole bot, through the real discord.py
client against the fake Discord, opens and plays a game on it. The bot
runs in a thread with its own loop, as `python -m bot` runs it; the fake
Discord stays on the test's loop, so the two only meet over sockets."""
import asyncio
import threading

import pytest

from bot.discord import event_loop
from bot.discord.client import GameBot
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table

uvloop = pytest.importorskip("uvloop")


def test_the_loop_is_uvloops_and_runs_a_coroutine_to_its_result():
    async def which():
        await asyncio.sleep(0)
        return type(asyncio.get_running_loop())
    assert event_loop.run(which()) is uvloop.Loop


async def test_the_bot_plays_on_uvloops_loop(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    bot = GameBot(t.config, engine)
    bot._connection.guild_ready_timeout = 0.05  # (as the fake's start_bot does)
    thread = threading.Thread(target=event_loop.run_client, args=(bot, "fake-bot-token"), daemon=True)
    thread.start()
    try:
        await t.s.wait_for(lambda: bot.is_ready() and t.s.commands.get(t.guild.id), timeout=60,
                           what="the bot ready on its own loop")
        assert isinstance(bot.loop, uvloop.Loop)
        h = await t.s.slash(t.users["ann"], t.channel, "game", subcommand="new")
        await t.s.wait_handled(h, timeout=60)
        for who, adventurer in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
            h = await t.s.slash(t.users[who], t.channel, "game", subcommand="join", options={"adventurer": adventurer})
            await t.s.wait_handled(h, timeout=60)
            assert "joins as" in h.content
        h = await t.s.slash(t.users["bo"], t.channel, "game", subcommand="start")
        await t.s.wait_handled(h, timeout=60)
        game = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
            bot.service.active_game(str(t.channel.id)), bot.loop))
        assert game.state["phase"] == "exploring" and game.state["turn"]["number"] == 1
        mover = next(n for n in ("ann", "bo", "cy") if str(t.users[n].id) == game.state["turn"]["player"])
        h = await t.s.slash(t.users[mover], t.channel, "end")
        await t.s.wait_handled(h, timeout=60)
        assert h.ephemeral and "Turn" in h.content
        assert not t.s.client_errors, t.s.client_errors
    finally:
        if bot.loop is not None and thread.is_alive():
            asyncio.run_coroutine_threadsafe(bot.close(), bot.loop)
        await asyncio.to_thread(thread.join, 60)
    assert not thread.is_alive(), "run_client returns once the bot is closed"
