"""Many games at once against the bot, with the fake Discord in its own
process: interactions per second, the bot's CPU per interaction, and the
time from an interaction to the bot's response (p50, p99).

Two processes, as in production where Discord is somebody else's machine:
this one runs the fake Discord and the players; a second one runs the bot
(the real discord.py client, the real SQLite store and the map renderer),
pointed at the fake. Every game has three players who join, start and then
play with /move, /choose and /end. Players wait a random think time
(exponential, mean --think seconds) before each command, as people do;
--think 0 sends each command the moment the last one is answered, which
finds the most interactions per second the bot sustains (its saturation).

"Response" is the bot's first answer to the interaction, the one Discord
needs within 3 s (an answer, or a deferral when the bot is busy); "result"
is when the answer with what happened arrived. An error is an interaction
answered too late or not at all, or an ERROR the bot logged.
Players read whose turn it is from the bot's database (read-only), as they
would from the turn message.

Target on a 2-core machine: 1,000 concurrent games at 3 s mean think time,
p99 under 250 ms, no error.

usage: python bench/discord_load.py [--games N] [--turns N] [--think S]
"""
import argparse
import asyncio
import gc
import json
import os
import pathlib
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ADVENTURERS = ("torskar", "lia", "gretchen")
TICKS = os.sysconf("SC_CLK_TCK")


# --- the bot's process ---------------------------------------------------------------

def serve_bot(port: int, data_dir: str, guild_id: int):
    """Run the bot against the fake Discord listening on `port`."""
    import logging

    import discord
    import discord.gateway
    import discord.http
    import yarl

    from bot.config import Config
    from bot.content import load_content
    from bot.discord.client import GameBot
    from bot.engine import Engine

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    config = Config(token="fake-bot-token", data_dir=data_dir, dev_guild_id=guild_id, poll_seconds=3600)
    bot = GameBot(config, Engine(load_content()))
    bot._connection.guild_ready_timeout = 0.05
    bot.run(config.token, log_handler=None)


def cpu_seconds(pid: int, children: bool = True) -> float:
    """CPU time of a process and (unless told not to) its children still running (the render worker)."""
    total = 0.0
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICKS
        tasks = pathlib.Path(f"/proc/{pid}/task").iterdir() if children else ()
        for task in tasks:
            for child in (task / "children").read_text().split():
                total += cpu_seconds(int(child))
    except (OSError, IndexError, ValueError):
        pass
    return total


# --- the players ---------------------------------------------------------------------

class Players:
    def __init__(self, s, guild, database: str, think: float, rnd: random.Random, map_setting: str | None = None):
        from bot.content import load_content
        from bot.engine import Engine
        self.s, self.guild, self.think, self.rnd, self.map = s, guild, think, rnd, map_setting
        self.engine = Engine(load_content())
        self.db = None
        self.database = database
        self.channels: set[int] = set()
        self.by_command: dict[str, list[float]] = {}
        self.responses: list[float] = []
        self.results: list[float] = []
        self.late = 0
        self.unanswered = 0
        self.turn_ends: list[tuple[int, float]] = []  # (channel id, when the command that ended a turn was sent)

    def state(self, channel_id: int) -> dict | None:
        if self.db is None:
            self.db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        row = self.db.execute("SELECT state FROM games WHERE channel_id = ? AND active = 1",
                              (str(channel_id),)).fetchone()
        return json.loads(row[0]) if row else None

    async def command(self, user, channel, name, **kw):
        if self.think:
            await asyncio.sleep(self.rnd.expovariate(1 / self.think))
        t0 = time.perf_counter()
        handle = await self.s.slash(user, channel, name, wait=False, **kw)
        try:
            await asyncio.wait_for(handle.answered.wait(), 30)
        except (asyncio.TimeoutError, TimeoutError):
            self.unanswered += 1
            return handle
        self.responses.append(handle.responded_at - handle.dispatched_at)
        self.by_command.setdefault(name if name != "game" else "game " + kw.get("subcommand", ""), []).append(
            handle.responded_at - handle.dispatched_at)
        if handle.responded_at - handle.dispatched_at > 3.0:
            self.late += 1
        if handle.deferred:  # the answer with what happened follows the deferral
            try:
                await asyncio.wait_for(handle.followed_up.wait(), 30)
            except (asyncio.TimeoutError, TimeoutError):
                self.unanswered += 1
                return handle
        self.results.append(time.perf_counter() - t0)
        return handle

    async def play(self, channel, users, turns: int):
        self.channels.add(channel.id)
        by_id = {str(u.id): u for u in users}
        await self.command(users[0], channel, "game", subcommand="new",
                           options={"map": self.map} if self.map else {})
        for u, adventurer in zip(users, ADVENTURERS):
            await self.command(u, channel, "game", subcommand="join", options={"adventurer": adventurer})
        await self.command(users[1], channel, "game", subcommand="start")
        from bot.engine.legal import actor
        for _ in range(turns):
            state = self.state(channel.id)
            if state is None or actor(state) not in by_id:
                return
            who = by_id[actor(state)]
            if not state.get("turn"):  # still in the lobby: the start was refused (try again)
                await self.command(users[1], channel, "game", subcommand="start")
                continue
            if state["pending"]:
                await self.command(who, channel, "choose", options={"option": 1})
                continue
            ways = [w for w, i in self.engine.ways_out(state, actor(state)).items() if "blocked" not in i]
            if ways and not state["turn"]["stopped"] and self.rnd.random() < 0.6:
                await self.command(who, channel, "move", options={"direction": self.rnd.choice(ways)})
            else:
                handle = await self.command(who, channel, "end")
                self.turn_ends.append((channel.id, handle.dispatched_at))

    def turn_messages(self):
        """How long after a turn's end its next turn's message was posted,
        and how many of those messages carried the map."""
        posted: dict[int, list] = {}
        for entry in self.s.log:
            m = entry.message
            if entry.kind == "message" and m is not None and (entry.after or {}).get("components") \
                    and m.channel.id in self.channels:  # posted with buttons (a finished turn's lose theirs)
                posted.setdefault(m.channel.id, []).append((entry.at, any(a.filename == "map.png"
                                                                          for a in m.attachments)))
        lags, maps = [], 0
        for channel_id, sent in self.turn_ends:
            nxt = next(((at, has_map) for at, has_map in posted.get(channel_id, []) if at >= sent), None)
            if nxt:
                lags.append(nxt[0] - sent)
                maps += nxt[1]
        return lags, maps


async def wait_ready(s, guild, bot, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while not s.commands.get(guild.id) or not s.gateway.identifies:
        if bot.poll() is not None:
            raise SystemExit(f"the bot stopped before it was ready (exit {bot.returncode})")
        if time.monotonic() > deadline:
            raise SystemExit("the bot did not connect and sync its commands in time")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # GUILD_CREATE read, on_ready fired


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("nan")


async def main(args):
    from tests.fake_discord import FakeDiscord
    data_dir = tempfile.mkdtemp(prefix="load-")
    async with FakeDiscord(default_timeout=60) as s:
        guild = s.add_guild("Load")
        tables = []
        for n in range(args.games):
            channel = s.add_channel(guild, f"game-{n}")
            users = [s.add_user(f"p{n}-{i}") for i in range(3)]
            for u in users:
                s.add_member(guild, u)
            tables.append((channel, users))
        log_path = pathlib.Path(data_dir) / "bot.log"
        with open(log_path, "w") as log:
            bot = subprocess.Popen([sys.executable, __file__, "--serve-bot", str(s.port), data_dir, str(guild.id)],
                                   stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        try:
            await wait_ready(s, guild, bot)
            players = Players(s, guild, os.path.join(data_dir, "games.db"), args.think, random.Random(1), args.map)
            gc.freeze()  # the players' process must not pause to collect while it times the bot
            gc.disable()
            cpu0, own0, t0 = cpu_seconds(bot.pid), time.process_time(), time.perf_counter()
            loop0 = cpu_seconds(bot.pid, children=False)
            await asyncio.gather(*(players.play(channel, users, args.turns) for channel, users in tables))
            elapsed = time.perf_counter() - t0
            cpu, own = cpu_seconds(bot.pid) - cpu0, time.process_time() - own0
            loop = cpu_seconds(bot.pid, children=False) - loop0
        finally:
            bot.terminate()
            bot.wait(10)
    bot_errors = [line for line in log_path.read_text().splitlines() if line.startswith(("ERROR", "CRITICAL"))]
    api_late = sum(1 for e in s.api_errors if e[3] == 10062)
    n = len(players.responses)
    errors = players.late + players.unanswered + len(bot_errors) + api_late
    print(f"games: {args.games} concurrent, mean think time {args.think:g} s, {n} interactions in {elapsed:.1f} s "
          f"(the fake Discord and the players in one process, the bot in another)")
    print(f"interactions per second: {n / elapsed:.0f}")
    print(f"bot CPU per interaction: {cpu / max(n, 1) * 1000:.1f} ms (the bot and its render worker; "
          f"{cpu / elapsed * 100:.0f}% of one core), of which the map worker {(cpu - loop) / max(n, 1) * 1000:.1f} ms; "
          f"fake Discord and players: {own / max(n, 1) * 1000:.1f} ms")
    print(f"interaction to response: p50 {percentile(players.responses, 0.5):.0f} ms, "
          f"p99 {percentile(players.responses, 0.99):.0f} ms, max {percentile(players.responses, 1):.0f} ms "
          f"(target p99 < 250 ms)")
    print(f"interaction to result: p50 {percentile(players.results, 0.5):.0f} ms, "
          f"p99 {percentile(players.results, 0.99):.0f} ms")
    print("  by command: " + ", ".join(f"{name} p99 {percentile(values, 0.99):.0f} ms"
                                     for name, values in sorted(players.by_command.items())))
    lags, maps = players.turn_messages()
    print(f"a turn's end to the next turn's message: p50 {percentile(lags, 0.5):.0f} ms, "
          f"p99 {percentile(lags, 0.99):.0f} ms; {maps} of {len(lags)} carried the map")
    print(f"errors: {errors} (answered after 3 s: {players.late}, unanswered: {players.unanswered}, "
          f"10062 from the fake: {api_late}, bot ERROR lines: {len(bot_errors)})")
    for line in bot_errors[:5]:
        print("  ", line)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-bot":
        serve_bot(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        ap = argparse.ArgumentParser()
        ap.add_argument("--games", type=int, default=1000)
        ap.add_argument("--turns", type=int, default=20, help="commands per game after the start")
        ap.add_argument("--map", choices=("turn", "round", "request"),
                        help="the games' map setting (/game new map:); the default draws a map after every turn")
        ap.add_argument("--think", type=float, default=3.0,
                        help="mean seconds a player takes before each command (0: as fast as the bot answers)")
        asyncio.run(main(ap.parse_args()))
