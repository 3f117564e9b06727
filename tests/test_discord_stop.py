"""A stop, by SIGTERM (drain, then close) or SIGINT (the running client
cancelled, as asyncio.run does on Ctrl-C), with a pinned summary's delayed
edit and a turn message's edit pending: every task the bot started has
ended before the database closes, nothing is logged as an ERROR, and the
map worker ends quietly on a Ctrl-C at a terminal."""
import asyncio
import logging
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from bot.discord import turn_posts
from bot.discord.client import GameBot
from bot.games.babg.engine.legal import legal_actions
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("how", ["sigterm", "sigint"])
async def test_a_stop_ends_every_task_before_the_database_closes_and_logs_no_error(
        fake_discord, tmp_path, engine, monkeypatch, caplog, how):
    monkeypatch.setattr(turn_posts, "QUIET", 0.3)  # the move's edit waits while the stop comes
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    await t.done()
    await t.s.stop_bot(t.bot)

    # The bot as bot.discord.event_loop.run_client runs it: `async with client: await client.start(token)`.
    bot = GameBot(t.config, engine)
    bot._connection.guild_ready_timeout = 0.05

    async def runner():
        async with bot:
            await bot.start("fake-bot-token")
    running = asyncio.create_task(runner())
    await t.s.wait_for(bot.is_ready, timeout=60, what="the bot ready")
    t.bot = bot
    await t.done()
    game = await t.game()
    move = next(a for a in legal_actions(engine.content, game.state) if a["type"] == "move")
    await t.click(t.name_of(game.state["turn"]["player"]), t.button_id(game, move))
    bot.summary_edited[game.channel_id] = time.monotonic()  # (edited just now: the next one waits)
    bot.summary_due(game)  # a pinned summary's edit, SUMMARY_EVERY seconds from now
    assert bot.summary_waiting and not bot.turn_posts.idle(), "both pending as the stop comes"

    started = [*bot.background, *bot.turn_posts.tasks()]
    at_close = []
    close = bot.service.store.close

    async def closing():
        at_close.extend(task for task in [*started, *bot.background, *bot.turn_posts.tasks()]
                        if not task.done() and task is not asyncio.current_task())  # (the drain closes)
        await close()
    bot.service.store.close = closing
    caplog.set_level(logging.INFO)
    if how == "sigterm":
        bot.stop_gracefully()  # what the SIGTERM handler does
    else:
        running.cancel()  # what asyncio.run does on SIGINT
    with pytest.raises(asyncio.CancelledError) if how == "sigint" else open(os.devnull):
        await running
    assert bot.is_closed()
    assert at_close == [], f"still running as the database closed: {at_close}"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert errors == [], errors
    assert not t.s.client_errors, t.s.client_errors


WORKER = """
import os, sys, time
from bot.discord.worker import render_pool
from tests.test_worker_ends import mark_started
pool = render_pool(mark_started)
try:
    print(pool.submit(os.getpid).result(60), flush=True)
    sys.stdin.read()
except KeyboardInterrupt:  # the bot's own Ctrl-C: it stops quietly (bot.discord.event_loop.run_client)
    pool.shutdown(wait=True, cancel_futures=True)
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups")
def test_a_ctrl_c_at_a_terminal_ends_the_map_worker_quietly():
    bot = subprocess.Popen([sys.executable, "-c", WORKER], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        worker_pid = int(bot.stdout.readline())
        os.killpg(bot.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches every process of its group
        _, err = bot.communicate(timeout=60)
    finally:
        bot.kill()
        bot.wait()
    assert worker_pid != bot.pid
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
