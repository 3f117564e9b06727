"""Many games at once against the bot, with the fake Discord in its own
process: interactions per second, the bot's CPU per interaction, and the
time from an interaction to the bot's response (p50, p99).

Processes as in production, where Discord is somebody else's machine: this
one runs the fake Discord and the players; the bot (the real discord.py
client, the real store and the map renderer) runs in --processes others,
pointed at the fake. With one process its games are in an SQLite file
(--database sqlite, the default) or on PostgreSQL; several processes need
PostgreSQL and share one database, each running one of Discord's shards
(SHARD_COUNT, SHARD_ID and DATABASE_URL, as bot/config.py reads them): the
games are spread evenly over one server (guild) per shard, and the fake
sends each server's interactions to the process of its shard.
--database postgres starts a throwaway PostgreSQL server for the run
(tests/pg.py: initdb in a temporary folder, fsync off, stopped at the end);
--database postgresql://... uses that server instead.

Every game has three players who join, start and then play with /move,
/choose and /end. With --mix babg:ravenloft=1:1, half the games are
Castle Ravenloft's (three heroes, Find the Icon of Ravenloft): whoever
must act plays what the built-in heroes would (/move, /attack, /use,
/end with its exploration, /choose ...). Each system's figures are
printed side by side, with what a turn costs the channel: new channel
messages per turn, the most writes in any 5 s of one channel (Discord
allows 5) and the most rows of buttons under a message. Players wait a random think time (exponential, mean
--think seconds) before each command, as people do; --think 0 sends each
command the moment the last one is answered, which finds the most
interactions per second the bot sustains (its saturation).

"Response" is the bot's first answer to the interaction, the one Discord
needs within 3 s (an answer, or a deferral when the bot is busy); "result"
is when the answer with what happened arrived. An error is an interaction
answered too late or not at all, or an ERROR the bot logged.
Players read whose turn it is from the bot's database (read-only: the
SQLite file, or PostgreSQL through asyncpg), as they would from the turn
message. The bot's CPU is that of all its processes and their map workers;
the CPU of a throwaway PostgreSQL server is shown beside it.

--compare runs the SQLite, one-process configuration first and then the
one asked for, and prints each figure line of both, one under the other.

--overload 2 finds the saturation first (--think 0) and then sends commands
in an open loop at twice that rate for --seconds, whatever the answers: an
overloaded bot must still answer every interaction within 3 s (deferring,
or saying it is busy). The fake Discord needs about as much CPU per
interaction as the bot, so on a small machine it cannot send twice what the
bot serves: --bot-cpu 0.33 gives the bot's processes a third of a core in
all (a cgroup, as on a starved machine), and the fake the rest.

Target on a 2-core machine: 1,000 concurrent games at 3 s mean think time,
p99 under 250 ms, no error (and the same over 2 processes on PostgreSQL).

usage: python bench/discord_load.py [--games N] [--turns N] [--think S] [--mix babg:ravenloft=1:1]
       [--database sqlite|postgres|postgresql://...] [--processes N] [--compare]
       [--overload TIMES [--seconds S]] [--bot-cpu CORES]
"""
import argparse
import asyncio
import bisect
import contextlib
import collections
import gc
import os
import pathlib
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bot import games  # noqa: E402  (the registry: each system's actor, turn number, built-in choice)
from bot.discord import event_loop  # noqa: E402
from bot.discord.messages import BUSY  # noqa: E402  (the bot's "busy, try again")
from bot.store import jsontext  # noqa: E402  (the states as the bot writes them)
from tests.test_ravenloft_discord import as_command  # noqa: E402  (a person's command for an action)

BUSY_TRIES = 5  # times a player sends a command the bot keeps saying it is too busy for

ADVENTURERS = ("torskar", "lia", "gretchen")
HEROES = ("kat", "thorgrim", "immeril")  # Castle Ravenloft's three, in its adventure for 1 to 5 heroes
ADVENTURE = "2"  # Find the Icon of Ravenloft
WINDOW = 5.0  # seconds: Discord's window of 5 writes in a channel
TICKS = os.sysconf("SC_CLK_TCK")


# --- the bot's processes --------------------------------------------------------------

def serve_bot(port: int, data_dir: str, guild_id: int):
    """Run the bot against the fake Discord listening on `port`; its
    database and shard come from the environment (DATABASE_URL, SHARD_ID,
    SHARD_COUNT), as bot/config.py reads them in production."""
    import logging

    import discord
    import discord.gateway
    import discord.http
    import yarl

    from bot.config import Config, from_env
    from bot.games.babg.content import load_content
    from bot.discord.client import make_bot
    from bot.games.babg.engine import Engine

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    env = from_env()
    config = Config(token="fake-bot-token", data_dir=data_dir, dev_guild_id=guild_id, poll_seconds=3600,
                    database_url=env.database_url, shard_id=env.shard_id, shard_count=env.shard_count,
                    shard_ids=env.shard_ids)
    bot = make_bot(config, Engine(load_content()))
    bot._connection.guild_ready_timeout = 0.05
    bot.stop_on_sigterm = True  # as in production: SIGTERM answers what was taken, then stops
    event_loop.run_client(bot, config.token)  # as in production: uvloop's loop when installed


class BotProcesses:
    """The bot's processes, one per shard (guilds[i] is shard i's server, to
    which process i syncs its commands); each writes its own log file."""

    def __init__(self, port: int, data_dir: str, database_url: str, guilds: list, cpu: float | None = None):
        self.port, self.data_dir, self.database_url, self.guilds = port, data_dir, database_url, guilds
        self.procs: list[subprocess.Popen | None] = [None] * len(guilds)
        self.logs = [pathlib.Path(data_dir) / f"bot-{i}.log" for i in range(len(guilds))]
        self.cgroup = cpu_quota(cpu) if cpu else None  # all the bot's processes together get `cpu` cores

    def start(self, i: int) -> subprocess.Popen:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_ID", "SHARD_COUNT")}
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        if len(self.guilds) > 1:
            env.update(SHARD_COUNT=str(len(self.guilds)), SHARD_ID=str(i))
        with open(self.logs[i], "a") as log:
            self.procs[i] = subprocess.Popen(
                [sys.executable, __file__, "--serve-bot", str(self.port), self.data_dir, str(self.guilds[i].id)],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        if self.cgroup:  # before it starts its map worker, which inherits the group
            (self.cgroup / "cgroup.procs").write_text(str(self.procs[i].pid))
        return self.procs[i]

    def start_all(self):
        for i in range(len(self.guilds)):
            self.start(i)

    def kill(self, i: int):
        """kill -9 (a crash): no goodbye to the gateway or the database."""
        proc = self.procs[i]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def stop_all(self):
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            if proc is not None:
                try:
                    proc.wait(30)  # SIGTERM: it shows what it took first (bot.discord.client.DRAIN_WAIT)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
        if self.cgroup:  # once its last process (a map worker ends with its bot) has left it
            for _ in range(100):
                try:
                    self.cgroup.rmdir()
                    break
                except OSError:
                    time.sleep(0.05)

    def cpu(self, children: bool = True) -> float:
        return sum(cpu_seconds(p.pid, children) for p in self.procs if p is not None)

    def dead(self) -> list[int]:
        return [i for i, p in enumerate(self.procs) if p is not None and p.poll() is not None]

    def error_lines(self) -> list[str]:
        return [line for log in self.logs if log.exists() for line in log.read_text().splitlines()
                if line.startswith(("ERROR", "CRITICAL"))]


def cpu_quota(cores: float) -> pathlib.Path:
    """A CPU control group (cgroup v1's cpu controller) whose processes
    together get `cores` of CPU time: a starved machine, made on purpose."""
    group = pathlib.Path("/sys/fs/cgroup/cpu") / f"bench-bot-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        period = int((group / "cpu.cfs_period_us").read_text())
        (group / "cpu.cfs_quota_us").write_text(str(int(period * cores)))
    except OSError as e:
        raise SystemExit(f"--bot-cpu needs a writable cgroup v1 cpu controller (/sys/fs/cgroup/cpu): {e}")
    return group


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


# --- where the games live -------------------------------------------------------------

class Database:
    """The run's database: SQLite (the bot's file in the data folder), a
    throwaway PostgreSQL server with one new database, or a given one."""

    def __init__(self, choice: str, data_dir: str):
        self.choice, self.data_dir = choice, data_dir
        self.server = None
        self.url = ""  # empty: SQLite
        self.pool = None
        self.sqlite = None

    @property
    def label(self) -> str:
        if not self.url:
            return "SQLite"
        return "PostgreSQL (throwaway, fsync off)" if self.server else "PostgreSQL (given)"

    async def __aenter__(self) -> "Database":
        if self.choice == "postgres":
            from tests.pg import Server, new_database, postgres_bin
            bin_dir = postgres_bin()
            if bin_dir is None or not (bin_dir / "pg_ctl").exists():
                raise SystemExit("--database postgres: PostgreSQL's initdb/pg_ctl not found "
                                 "(on PATH or in /usr/lib/postgresql/*/bin); pass a postgresql:// URL instead")
            self.server = Server(bin_dir)
            await asyncio.to_thread(self.server.start)
            self.url = await asyncio.to_thread(new_database, self.server)
        elif self.choice.startswith(("postgresql://", "postgres://")):
            self.url = self.choice
        if self.url:  # the players' reads (made here: a thousand first reads at once must share one pool)
            import asyncpg

            from bot.store.postgres import keep_session  # (single reads: no session state to reset)
            self.pool = await asyncpg.create_pool(self.url, min_size=1, max_size=4, reset=keep_session)
        return self

    async def __aexit__(self, *exc):
        if self.pool is not None:
            await self.pool.close()
        if self.sqlite is not None:
            self.sqlite.close()
        if self.server is not None:
            await asyncio.to_thread(self.server.stop)

    def server_pid(self) -> int | None:
        """The throwaway server's postmaster (its backends are its children)."""
        try:
            return int((self.server.data / "postmaster.pid").read_text().split()[0]) if self.server else None
        except (OSError, ValueError, IndexError):
            return None

    def server_cpu(self) -> float | None:
        pid = self.server_pid()
        return cpu_seconds(pid) if pid else None

    async def state(self, channel_id: int) -> dict | None:
        """The channel's game in play, as the bot last committed it (read-only)."""
        if self.url:
            text = await self.pool.fetchval("SELECT state FROM games WHERE channel_id = $1 AND active = 1",
                                            str(channel_id))
        else:
            if self.sqlite is None:
                self.sqlite = sqlite3.connect(f"file:{os.path.join(self.data_dir, 'games.db')}?mode=ro", uri=True)
            row = self.sqlite.execute("SELECT state FROM games WHERE channel_id = ? AND active = 1",
                                      (str(channel_id),)).fetchone()
            text = row[0] if row else None
        return jsontext.loads(text) if text else None

    async def query(self, sql: str) -> list[tuple]:
        """Rows of a read-only query without arguments (the same SQL on both databases)."""
        if self.url:
            import asyncpg
            db = await asyncpg.connect(self.url)
            try:
                return [tuple(r) for r in await db.fetch(sql)]
            finally:
                await db.close()
        with contextlib.closing(sqlite3.connect(f"file:{os.path.join(self.data_dir, 'games.db')}?mode=ro",
                                                uri=True)) as db:
            return db.execute(sql).fetchall()


# --- the players ---------------------------------------------------------------------

class Sent:
    """One interaction a player sent, and what came of it."""
    __slots__ = ("channel_id", "guild_id", "user_id", "name", "kw", "handle", "wall", "outcome", "note")

    def __init__(self, channel, user, name, kw, handle, wall, note=None):
        self.channel_id, self.guild_id, self.user_id = channel.id, channel.guild.id, user.id
        self.name, self.kw, self.handle, self.wall, self.note = name, kw, handle, wall, note
        # "waiting", then "answered" (its result too, when deferred) or "unanswered" (given up on); see Players.command
        self.outcome = "waiting"


class Players:
    def __init__(self, s, database: Database, think: float, rnd: random.Random, map_setting: str | None = None,
                 answer_timeout: float = 30, result_timeout: float = 30, systems: dict | None = None):
        from bot.games.babg.content import load_content
        from bot.games.babg.engine import Engine
        self.s, self.think, self.rnd, self.map = s, think, rnd, map_setting
        self.engine = Engine(load_content())
        self.database = database
        self.answer_timeout, self.result_timeout = answer_timeout, result_timeout
        self.channels: set[int] = set()
        self.by_command: dict[str, list[float]] = {}
        self.responses: list[float] = []
        self.results: list[float] = []
        self.late = 0
        self.unanswered = 0
        self.busy = 0  # answered at once that the bot is busy (nothing taken on)
        self.arrivals = self.idle_games = 0  # (the open loop: commands due, and those for a game with none to send)
        self.busy_tries = BUSY_TRIES
        self.deferred = 0
        self.sent: list[Sent] = []
        self.turn_ends: list[tuple[int, float]] = []  # (channel id, when the command that ended a turn was sent)
        self.systems = systems or {}  # channel id -> the system its games play (default: Baldur's Gate)
        self.playing: dict[int, float] = {}  # channel id -> when its first turn's end was sent
        self.first_turn: dict[int, int] = {}  # channel id -> that turn's number
        self.per_system: dict[str, dict] = {}  # system id -> its responses and errors
        self.lags: dict[str, list[float]] = {}  # system id -> a turn's end to the next turn's message (turn_messages)

    async def state(self, channel_id: int) -> dict | None:
        return await self.database.state(channel_id)

    async def command(self, user, channel, name, think: bool = True, note=None, **kw):
        """Send a slash command (after a think time) and wait for its answer;
        `note` is kept with it in self.sent (bench/failover.py's checks). A
        command the bot said it was too busy for is sent again a moment
        later, as a person would (each try is counted)."""
        if self.think and think:
            await asyncio.sleep(self.rnd.expovariate(1 / self.think))
        for _ in range(self.busy_tries - 1):
            handle = await self._command(user, channel, name, note, **kw)
            if handle.content != BUSY:
                return handle
            await asyncio.sleep(self.rnd.uniform(0.5, 1.5))
        return await self._command(user, channel, name, note, **kw)

    async def _command(self, user, channel, name, note=None, **kw):
        t0 = time.perf_counter()
        wall = time.time()
        handle = await self.s.slash(user, channel, name, wait=False, **kw)
        sent = Sent(channel, user, name, kw, handle, wall, note)
        self.sent.append(sent)
        try:
            await asyncio.wait_for(handle.answered.wait(), self.answer_timeout)
        except (asyncio.TimeoutError, TimeoutError):
            self.unanswered += 1
            self.by_system(channel.id)["errors"] += 1
            sent.outcome = "unanswered"
            return handle
        self.responses.append(handle.responded_at - handle.dispatched_at)
        self.by_system(channel.id)["responses"].append(handle.responded_at - handle.dispatched_at)
        self.by_command.setdefault(name if name != "game" else "game " + kw.get("subcommand", ""), []).append(
            handle.responded_at - handle.dispatched_at)
        if handle.responded_at - handle.dispatched_at > 3.0:
            self.late += 1
            self.by_system(channel.id)["errors"] += 1
        if handle.content == BUSY:
            self.busy += 1
        if handle.deferred:
            self.deferred += 1  # the answer with what happened follows the deferral
            try:
                await asyncio.wait_for(handle.followed_up.wait(), self.result_timeout)
            except (asyncio.TimeoutError, TimeoutError):
                self.unanswered += 1
                self.by_system(channel.id)["errors"] += 1
                sent.outcome = "unanswered"
                return handle
        sent.outcome = "answered"
        self.results.append(time.perf_counter() - t0)
        return handle

    async def play(self, channel, users, turns: int):
        await self.open(channel, users)
        for _ in range(turns):
            if not await self.step(channel, users):
                return

    async def open(self, channel, users, think: bool = True):
        """A new game in the channel: its three players join and start it."""
        self.channels.add(channel.id)
        if self.system_of(channel.id) == "ravenloft":
            await self.command(users[0], channel, "game", subcommand="new", think=think,
                               options={"game": "ravenloft", "adventure": ADVENTURE})
            for u, hero in zip(users, HEROES):
                await self.command(u, channel, "game", subcommand="join", think=think, options={"hero": hero})
        else:
            await self.command(users[0], channel, "game", subcommand="new", think=think,
                               options={"map": self.map} if self.map else {})
            for u, adventurer in zip(users, ADVENTURERS):
                await self.command(u, channel, "game", subcommand="join", think=think,
                                   options={"adventurer": adventurer})
        await self.command(users[1], channel, "game", subcommand="start", think=think)

    def turn_ended(self, channel_id: int, handle, turn: int):
        """A command that ends turn `turn` was sent; the per-turn figures count from the first (the game's
        start, with its own messages, is not a turn's cost)."""
        self.turn_ends.append((channel_id, handle.dispatched_at))
        if channel_id not in self.playing:
            self.playing[channel_id], self.first_turn[channel_id] = handle.dispatched_at, turn

    def system_of(self, channel_id: int) -> str:
        return self.systems.get(channel_id, "babg")

    def by_system(self, channel_id: int) -> dict:
        """The figures kept for the channel's system."""
        return self.per_system.setdefault(self.system_of(channel_id), {"responses": [], "errors": 0})

    async def step(self, channel, users, think: bool = True) -> bool:
        """The game's next command, by whoever must act (False: the game is over)."""
        from bot.games.babg.engine.legal import actor
        by_id = {str(u.id): u for u in users}
        state = await self.state(channel.id)
        system = games.get(self.system_of(channel.id))
        if state is None or system.actor(state) not in by_id:
            return False
        who = by_id[system.actor(state)]
        if not state.get("turn"):  # still in the lobby: the start was refused (try again)
            await self.command(users[1], channel, "game", subcommand="start", think=think)
        elif system.id == "ravenloft":
            name, options = ravenloft_command(system.builtin_action(state, system.actor(state), None))
            handle = await self.command(who, channel, name, think=think, options=options)
            if name == "end":
                self.turn_ended(channel.id, handle, system.turn_number(state))
        elif state["pending"]:
            await self.command(who, channel, "choose", think=think, options={"option": 1})
        else:
            ways = [w for w, i in self.engine.ways_out(state, actor(state)).items() if "blocked" not in i]
            if ways and not state["turn"]["stopped"] and self.rnd.random() < 0.6:
                await self.command(who, channel, "move", think=think, options={"direction": self.rnd.choice(ways)})
            else:
                handle = await self.command(who, channel, "end", think=think)
                self.turn_ended(channel.id, handle, system.turn_number(state))
        return True

    async def flood(self, made, rate: float, seconds: float):
        """Open loop: commands arrive at `rate` a second for `seconds`,
        whether or not the bot has answered the ones before (as when more
        people play than the bot can serve). Each goes to a game with no
        command waiting, when there is one, as its next command."""
        self.busy_tries = 1  # each arrival is one interaction: a person trying again is another arrival
        idle = list(range(len(made)))
        waiting = [0] * len(made)  # commands of each game sent and not yet answered
        running: set[asyncio.Task] = set()

        async def one(k: int):
            waiting[k] += 1
            try:
                if not await self.step(*made[k], think=False):
                    self.idle_games += 1
            finally:
                waiting[k] -= 1
                if not waiting[k]:
                    idle.append(k)
        t0 = time.perf_counter()
        due = t0
        while due - t0 < seconds:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            while due <= time.perf_counter() and due - t0 < seconds:  # all that are due (this process is busy too)
                k = idle.pop(self.rnd.randrange(len(idle))) if idle else self.rnd.randrange(len(made))
                task = asyncio.create_task(one(k))
                self.arrivals += 1
                running.add(task)
                task.add_done_callback(running.discard)
                due += self.rnd.expovariate(rate)
        if running:
            await asyncio.gather(*running)

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
        self.lags = collections.defaultdict(list)  # system id -> its lags
        for channel_id, sent in self.turn_ends:
            nxt = next(((at, has_map) for at, has_map in posted.get(channel_id, []) if at >= sent), None)
            if nxt:
                lags.append(nxt[0] - sent)
                self.lags[self.system_of(channel_id)].append(nxt[0] - sent)
                maps += nxt[1]
        return lags, maps


def ravenloft_command(action: dict) -> tuple[str, dict]:
    """The slash command a person uses for a Castle Ravenloft action (the shared verbs and its own)."""
    return as_command(action)


def parse_mix(text: str) -> list[tuple[str, int]]:
    """`babg:ravenloft=1:1` -> [("babg", 1), ("ravenloft", 1)]: the systems and their shares of the games."""
    try:
        names, shares = text.split("=")
        pairs = list(zip(names.split(":"), (int(x) for x in shares.split(":")), strict=True))
    except ValueError:
        raise argparse.ArgumentTypeError("systems and their shares, e.g. babg:ravenloft=1:1")
    known = {sys_.id for sys_ in games.systems()}
    for name, share in pairs:
        if name not in known or share < 0:
            raise argparse.ArgumentTypeError(f"{name}: one of {', '.join(sorted(known))}, with a share of 0 or more")
    return pairs


def assign(mix: list[tuple[str, int]], count: int) -> list[str]:
    """Each of `count` games' system, the shares spread evenly (1:1 alternates)."""
    total = sum(share for _, share in mix) or 1
    out, given = [], {name: 0 for name, _ in mix}
    for n in range(count):  # the system furthest behind its share gets the next game
        name = min(mix, key=lambda m: (given[m[0]] - (n + 1) * m[1] / total, -m[1]))[0]
        given[name] += 1
        out.append(name)
    return out


def per_turn(s, players: "Players", finals: dict[int, dict]) -> dict[str, dict]:
    """Each system's figures of what a turn costs the channel, from everything the fake Discord logged:
    new channel messages per turn (from each game's first turn's end: its start has messages of its own),
    the most writes (posts, edits, pins, not the answers to interactions) in any 5 s of one channel, the
    most rows of buttons under one message (these two over the whole game)."""
    times: dict[int, list[float]] = collections.defaultdict(list)
    posted: dict[int, int] = collections.Counter()
    answers: dict[int, int] = collections.Counter()  # public answers to commands (the start's late note, say)
    rows: dict[int, int] = collections.Counter()
    for entry in s.log:
        m = entry.message
        if entry.kind not in ("message", "edit", "pin") or m is None or m.ephemeral \
                or m.channel.id not in players.playing:
            continue
        rows[m.channel.id] = max(rows[m.channel.id], len((entry.after or {}).get("components") or []))
        if entry.kind == "message" and entry.at >= players.playing[m.channel.id]:
            (posted if m.interaction is None else answers)[m.channel.id] += 1
        if m.interaction is None:
            times[m.channel.id].append(entry.at)
    out: dict[str, dict] = {}
    for channel_id, since in players.playing.items():
        name = players.system_of(channel_id)
        figures = out.setdefault(name, {"messages": 0, "answers": 0, "turns": 0, "busiest": 0, "rows": 0})
        state = finals.get(channel_id)
        if state is not None:
            figures["turns"] += games.get(name).turn_number(state) - players.first_turn[channel_id]
        figures["messages"] += posted[channel_id]
        figures["answers"] += answers[channel_id]
        figures["rows"] = max(figures["rows"], rows[channel_id])
        at = sorted(times[channel_id])
        figures["busiest"] = max(figures["busiest"], max((bisect.bisect_left(at, a + WINDOW) - i
                                                          for i, a in enumerate(at)), default=0))
    return out


async def final_states(database: "Database") -> dict[int, dict]:
    """Each channel's newest game as it stands (finished or not)."""
    rows = await database.query("SELECT channel_id, state FROM games ORDER BY id")
    return {int(channel_id): jsontext.loads(text) for channel_id, text in rows}


async def shard_guilds(s, count: int, name: str = "Load") -> list:
    """One server (guild) on each of `count` shards: guilds[i] is shard i's.
    A server's shard comes from its id's time part, so servers are made
    until every shard has one (the spares stay empty)."""
    from bot.store import shard_of
    found: dict[int, object] = {}
    for _ in range(100 * count + 100):
        guild = s.add_guild(f"{name} {len(found)}")
        found.setdefault(shard_of(str(guild.id), count) if count > 1 else 0, guild)
        if len(found) == count:
            return [found[i] for i in range(count)]
        await asyncio.sleep(0.002)  # the next id's time part moves on
    raise SystemExit(f"could not make a server on each of {count} shards")


async def wait_ready(s, guilds, bots: BotProcesses, timeout: float = 60):
    """Every process connected (a live gateway session for each server) and
    its commands synced; a moment more for on_ready."""
    deadline = time.monotonic() + timeout
    while not all(s.commands.get(g.id) and s.gateway.ready_sessions(g.id) for g in guilds):
        if bots.dead():
            i = bots.dead()[0]
            raise SystemExit(f"bot process {i} stopped before it was ready (exit {bots.procs[i].returncode}); "
                             f"see {bots.logs[i]}:\n" + bots.logs[i].read_text()[-2000:])
        if time.monotonic() > deadline:
            raise SystemExit("the bot did not connect and sync its commands in time")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # GUILD_CREATE read, on_ready fired


def request_routes(requests) -> list[tuple[str, int]]:
    """The requests by route (ids and tokens as {id}), most made first."""
    routes = collections.Counter(f"{r.method} " + re.sub(r"/(\d+|[A-Za-z0-9_.-]{40,})(?=/|$)", "/{id}", r.path)
                                 for r in requests)
    return routes.most_common()


def windows(sent: list, width: float = 10.0) -> list[float]:
    """The p99 of interaction to response in each `width` seconds of the
    run (by when each was sent): whether the slow ones bunch together."""
    answered = [(x.handle.dispatched_at, x.handle.responded_at - x.handle.dispatched_at) for x in sent
                if x.handle.responded_at is not None]
    if not answered:
        return []
    t0 = min(at for at, _ in answered)
    slices: dict[int, list[float]] = {}
    for at, took in answered:
        slices.setdefault(int((at - t0) // width), []).append(took)
    return [percentile(slices.get(i, []), 0.99) for i in range(max(slices) + 1)]


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("nan")


def tables(s, guilds, games: int):
    """`games` channels with three members each, spread evenly over the servers."""
    made = []
    for n in range(games):
        guild = guilds[n % len(guilds)]
        channel = s.add_channel(guild, f"game-{n}")
        users = [s.add_user(f"p{n}-{i}") for i in range(3)]
        for u in users:
            s.add_member(guild, u)
        made.append((channel, users))
    return made


def configuration(database: str, processes: int) -> str:
    kind = "SQLite" if database == "sqlite" else "PostgreSQL"
    return f"{kind}, {processes} process{'es' if processes > 1 else ''}"


async def run(args, database: str, processes: int, rate: float | None = None) -> tuple[list[str], list[str], float]:
    """One configuration: its figure lines, the first of the bot's error
    lines and the interactions a second it served. With `rate`, the games
    are opened first (not counted) and then commands sent in an open loop
    at that rate for --seconds (Players.flood)."""
    from tests.fake_discord import FakeDiscord
    data_dir = tempfile.mkdtemp(prefix="load-")
    async with Database(database, data_dir) as db, FakeDiscord(default_timeout=60) as s:
        guilds = await shard_guilds(s, processes)
        made = tables(s, guilds, args.games)
        systems = {channel.id: name for (channel, _), name in zip(made, assign(args.mix, len(made)))}
        bots = BotProcesses(s.port, data_dir, db.url, guilds, cpu=args.bot_cpu)
        bots.start_all()
        try:
            await wait_ready(s, guilds, bots)
            players = Players(s, db, args.think, random.Random(1), args.map, systems=systems)
            if rate:
                await asyncio.gather(*(players.open(channel, users, think=False) for channel, users in made))
                await wait_rested(s)
                players = Players(s, db, 0, random.Random(1), args.map, systems=systems)  # count from here
                players.channels = {channel.id for channel, _ in made}
                api0 = len(s.api_errors)
            gc.freeze()  # the players' process must not pause to collect while it times the bot
            gc.disable()
            requests0 = len(s.requests)
            cpu0, own0, t0 = bots.cpu(), time.process_time(), time.perf_counter()
            loop0, pg0 = bots.cpu(children=False), db.server_cpu()
            if rate:
                await players.flood(made, rate, args.seconds)
            else:
                await asyncio.gather(*(players.play(channel, users, args.turns) for channel, users in made))
            elapsed = time.perf_counter() - t0
            cpu, own = bots.cpu() - cpu0, time.process_time() - own0
            loop = bots.cpu(children=False) - loop0
            pg = db.server_cpu() - pg0 if pg0 is not None else None
            await wait_rested(s)  # the last turns' messages and edits out (paced), for the per-turn figures
            finals = await final_states(db)
        finally:
            bots.stop_all()
            gc.enable()
            gc.unfreeze()
        label = db.label
    bot_errors = bots.error_lines()
    api_late = sum(1 for e in s.api_errors[api0 if rate else 0:] if e[3] == 10062)
    n = len(players.responses)
    errors = players.late + players.unanswered + len(bot_errors) + api_late
    per = 1000 / max(n, 1)
    load = (f"commands due at {rate:.0f} a second whatever the answers (open loop): {players.arrivals} due, "
            f"{len(players.sent)} sent ({players.idle_games} for a game that had none to send)"
            if rate else f"mean think time {args.think:g} s")
    lines = [
        f"games: {args.games} concurrent, {load}, {n} interactions answered in {elapsed:.1f} s "
        f"(the fake Discord and the players in one process, the bot in {processes} other"
        f"{'s' if processes > 1 else ''}; {label})",
        f"interactions per second: {n / elapsed:.0f}",
        f"bot CPU per interaction: {cpu * per:.1f} ms ("
        + (f"the bot's {processes} processes and their render workers" if processes > 1
           else "the bot and its render worker")
        + f"; {cpu / elapsed * 100:.0f}% of one core), of which the map worker{'s' if processes > 1 else ''} "
        f"{(cpu - loop) * per:.1f} ms; fake Discord and players: {own * per:.1f} ms"
        + (f"; PostgreSQL server: {pg * per:.1f} ms ({pg / elapsed * 100:.0f}% of one core)" if pg is not None
           else ""),
        f"interaction to response: p50 {percentile(players.responses, 0.5):.0f} ms, "
        f"p99 {percentile(players.responses, 0.99):.0f} ms, max {percentile(players.responses, 1):.0f} ms "
        f"(target p99 < 250 ms)",
        f"interaction to result: p50 {percentile(players.results, 0.5):.0f} ms, "
        f"p99 {percentile(players.results, 0.99):.0f} ms",
        "  by command: " + ", ".join(f"{name} p99 {percentile(values, 0.99):.0f} ms"
                                     for name, values in sorted(players.by_command.items())),
        "  p99 by 10 s of the run: " + ", ".join(f"{p:.0f}" for p in windows(players.sent)) + " ms",
    ]
    lags, maps = players.turn_messages()
    lines += [
        f"requests to Discord per interaction: {(len(s.requests) - requests0) / max(n, 1):.2f} ("
        + ", ".join(f"{route} {count / max(n, 1):.2f}" for route, count in request_routes(s.requests[requests0:]))
        + ")",
        f"a turn's end to the next turn's message: p50 {percentile(lags, 0.5):.0f} ms, "
        f"p99 {percentile(lags, 0.99):.0f} ms; {maps} of {len(lags)} carried the map",
        f"acknowledged first and answered later: {players.deferred}; told the bot is busy (nothing taken on): "
        f"{players.busy}",
        f"errors: {errors} (answered after 3 s: {players.late}, unanswered: {players.unanswered}, "
        f"10062 from the fake: {api_late}, bot ERROR lines: {len(bot_errors)})",
    ]
    lines += system_lines(players, per_turn(s, players, finals))
    return lines, bot_errors[:5], n / elapsed


def system_lines(players: "Players", turns: dict[str, dict]) -> list[str]:
    """The figures of each system, side by side (`a | b`)."""
    names = list(dict.fromkeys(players.systems.values())) or ["babg"]
    rows = []
    for name in names:
        mine = players.per_system.get(name, {"responses": [], "errors": 0})
        cost = turns.get(name, {"messages": 0, "answers": 0, "turns": 0, "busiest": 0, "rows": 0})
        played, lags = max(cost["turns"], 1), players.lags.get(name, [])
        rows.append([
            games.get(name).title,
            str(len(mine["responses"])),
            f"{percentile(mine['responses'], 0.5):.0f} / {percentile(mine['responses'], 0.99):.0f} ms",
            str(mine["errors"]),
            f"{cost['messages'] / played:.2f} ({cost['messages']} in {cost['turns']} turns; "
            f"{(cost['messages'] + cost['answers']) / played:.2f})",
            str(cost["busiest"]),
            str(cost["rows"]),
            f"{percentile(lags, 0.5):.0f} / {percentile(lags, 0.99):.0f} ms",
        ])
    labels = ["per system:", "  interactions answered:", "  interaction to response p50 / p99:",
              "  errors (answered after 3 s or not at all):",
              "  new channel messages per turn (the bot's posts; with public answers to commands too):",
              "  most writes in any 5 s of one channel (Discord allows 5):",
              "  most rows of buttons under a message:",
              "  a turn's end to the next turn's message p50 / p99 (a villain phase is told first):"]
    return [f"{label} " + " | ".join(row[k] for row in rows) for k, label in enumerate(labels)]


async def wait_rested(s, quiet: float = 2.0, timeout: float = 600):
    """Until the bot has posted nothing for `quiet` seconds (the games'
    openings shown, their maps drawn)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = len(s.log)
        await asyncio.sleep(quiet)
        if len(s.log) == seen:
            return


async def main(args):
    asked = ("sqlite" if args.database == "sqlite" else args.database, args.processes)
    runs = [("sqlite", 1)] if args.compare and asked != ("sqlite", 1) else []
    runs.append(asked)
    results = []
    for database, processes in runs:
        label = configuration(database, processes)
        if args.overload:  # its saturation first (as fast as answered), then the open loop at that many times it
            saturation = argparse.Namespace(**{**vars(args), "think": 0.0})
            lines, errors, served = await run(saturation, database, processes)
            results.append((f"{label}, saturation", lines, errors))
            lines, errors, _ = await run(args, database, processes, rate=args.overload * served)
            results.append((f"{label}, {args.overload:g}x saturation", lines, errors))
        else:
            results.append((label, *(await run(args, database, processes))[:2]))
    width = max(len(label) for label, _, _ in results) + 2
    for k in range(min(len(lines) for _, lines, _ in results)):  # each figure line of every run, one under the other
        for label, lines, _ in results:
            print(f"{'[' + label + ']':<{width}} {lines[k]}")
    for label, _, bot_errors in results:
        for line in bot_errors:
            print(f"  [{label}]", line)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--turns", type=int, default=20, help="commands per game after the start")
    ap.add_argument("--mix", type=parse_mix, default=[("babg", 1)], metavar="SYSTEMS=SHARES",
                    help="the systems the games play and their shares, e.g. babg:ravenloft=1:1 (default: babg)")
    ap.add_argument("--map", choices=("turn", "round", "request"),
                    help="the games' map setting (/game new map:); the default draws a map after every turn")
    ap.add_argument("--think", type=float, default=3.0,
                    help="mean seconds a player takes before each command (0: as fast as the bot answers)")
    add_database_options(ap, "sqlite")
    ap.add_argument("--processes", type=int, default=1,
                    help="bot processes, one Discord shard each (more than one needs PostgreSQL)")
    ap.add_argument("--overload", type=float, metavar="TIMES",
                    help="find the saturation (--think 0) first, then send commands in an open loop at TIMES its "
                         "rate for --seconds (e.g. 2: twice what the bot can serve)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long the open loop of --overload sends")
    ap.add_argument("--bot-cpu", type=float, metavar="CORES",
                    help="the bot's processes get this much CPU in all (e.g. 0.33: a third of a core, a starved "
                         "machine; needs cgroup v1's cpu controller), so that the fake Discord can send it twice "
                         "what it can serve")
    ap.add_argument("--compare", action="store_true",
                    help="run SQLite in one process first, then this configuration, and print them together")
    return ap


def add_database_options(ap: argparse.ArgumentParser, default: str):
    def database(text: str) -> str:
        if text in ("sqlite", "postgres") or text.startswith(("postgresql://", "postgres://")):
            return text
        raise argparse.ArgumentTypeError("sqlite, postgres (a throwaway server) or a postgresql:// URL")
    ap.add_argument("--database", type=database, default=default,
                    help="sqlite, postgres (a throwaway server started for the run) or a postgresql://... URL")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-bot":
        serve_bot(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    else:
        options = parser().parse_args()
        if options.processes < 1:
            parser().error("--processes must be 1 or more")
        if options.processes > 1 and options.database == "sqlite":
            parser().error("several processes share one PostgreSQL database: add --database postgres "
                           "(or a postgresql:// URL)")
        event_loop.run(main(options))  # the fake Discord on the bot's loop too: less of the 2 cores for it
