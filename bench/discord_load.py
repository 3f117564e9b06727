"""Many games at once through the fake Discord: commands per second and the
time from an interaction to the bot's response (p50, p99).

Every game has three players who join, start and then play turns with
/move and /end, all games concurrently, against the real discord.py client
and the bot's real store (SQLite) and renderer. Players wait a random think
time (exponential, mean --think seconds) before each command, as people do;
--think 0 sends each command the moment the last one is answered, which
measures the most commands per second the process sustains.
Target: 200 concurrent games with p99 under 250 ms on a 2-core machine.

usage: python bench/discord_load.py [--games N] [--turns N]
"""
import argparse
import asyncio
import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.config import Config  # noqa: E402
from bot.content import load_content  # noqa: E402
from bot.discord.client import GameBot  # noqa: E402
from bot.engine import Engine  # noqa: E402
from bot.engine.legal import actor  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402

ADVENTURERS = ("torskar", "lia", "gretchen")


async def play_game(s, bot, guild, n, turns, latencies, rnd, think):
    channel = s.add_channel(guild, f"game-{n}")
    users = [s.add_user(f"p{n}-{i}") for i in range(3)]
    for u in users:
        s.add_member(guild, u)
    await s.wait_for(lambda: bot.get_channel(channel.id) is not None, what="channel known to the bot")
    by_id = {str(u.id): u for u in users}

    async def timed(user, command, **kw):
        if think:
            await asyncio.sleep(rnd.expovariate(1 / think))
        t0 = time.perf_counter()
        handle = await s.slash(user, channel, command, **kw)
        await handle
        latencies.append(time.perf_counter() - t0)
        return handle

    await timed(users[0], "game", subcommand="new")
    for u, adv in zip(users, ADVENTURERS):
        await timed(u, "game", subcommand="join", options={"adventurer": adv})
    await timed(users[1], "game", subcommand="start")
    for _ in range(turns):
        game = await bot.service.active_game(str(channel.id))
        if game is None:
            return
        who = by_id[actor(game.state)]
        if game.state["pending"]:
            await timed(who, "choose", options={"option": 1})
            continue
        ways = [w for w, i in bot.engine.ways_out(game.state, actor(game.state)).items() if "blocked" not in i]
        if ways and not game.state["turn"]["stopped"] and rnd.random() < 0.6:
            await timed(who, "move", options={"direction": rnd.choice(ways)})
        else:
            await timed(who, "end")


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--turns", type=int, default=6, help="commands per game after the start")
    ap.add_argument("--think", type=float, default=3.0,
                    help="mean seconds a player takes before each command (0: as fast as the bot answers)")
    args = ap.parse_args()
    engine = Engine(load_content())
    latencies = []
    async with FakeDiscord() as s:
        guild = s.add_guild("Load")
        config = Config(token="fake", data_dir=tempfile.mkdtemp(), dev_guild_id=guild.id, poll_seconds=3600)
        bot = await s.start_bot(GameBot(config, engine))
        rnd = random.Random(1)
        t0 = time.perf_counter()
        await asyncio.gather(*(play_game(s, bot, guild, n, args.turns, latencies, rnd, args.think) for n in range(args.games)))
        await s.settle()
        elapsed = time.perf_counter() - t0
        errors = len(s.client_errors)
        await s.stop_bot(bot)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000  # noqa: E731
    print(f"games: {args.games} concurrent, interactions: {len(latencies)}, bot errors: {errors}, "
          f"mean think time {args.think:g} s (the fake Discord runs in the same process)")
    print(f"commands per second: {len(latencies) / elapsed:.0f}")
    print(f"interaction to response: p50 {p(0.5):.0f} ms, p99 {p(0.99):.0f} ms, max {latencies[-1] * 1000:.0f} ms "
          f"(target p99 < 250 ms)")
    print(f"mean {statistics.mean(latencies) * 1000:.0f} ms over {elapsed:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
