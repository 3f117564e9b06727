"""Where games live: one SQLite file (WAL), schema versions migrated at
start-up. Every action is committed before the bot answers, all of its rows
or none of them."""
import asyncio
import contextlib
import functools
import json
import logging
import pathlib
import sqlite3
import time
from dataclasses import dataclass

import aiosqlite

from . import jsontext  # a state's JSON text, with orjson; actions and settings stay on json

MIGRATIONS = pathlib.Path(__file__).with_name("migrations")

# games.active: 1 playing, 0 finished, SET_ASIDE a row that could not be read.
# It stays in the file for inspection (logged with its id) and out of play.
SET_ASIDE = -1

# A server's settings, chosen by its admins for all its games (table guild_settings), and their defaults.
GUILD_DEFAULTS = {"secrets": "dm"}  # where each player's secrets go: "dm" or "threads"

log = logging.getLogger("bot.store")


class StoreError(Exception):
    """The database cannot be used; the message says which file and why, for
    whoever runs the bot."""


def shard_of(guild_id: str | None, count: int) -> int:
    """The Discord shard that receives a server's events (Discord's own rule:
    the server id shifted right 22 bits, modulo the count; direct messages
    come to shard 0)."""
    return (int(guild_id) >> 22) % count if guild_id and str(guild_id).isdigit() else 0


class GameMovedOn(StoreError):
    """Another bot process recorded an action of the game since this one read
    it (several processes on one database): nothing was written; read the
    game again and retry."""


@dataclass
class GameRow:
    id: int
    channel_id: str
    guild_id: str | None
    creator_id: str
    seed: int
    state: dict
    settings: dict
    summary_message_id: str | None
    active: bool
    created_at: float = 0.0
    updated_at: float = 0.0
    seq: int | None = None  # actions recorded so far, once known (saves reading it back for every action)
    delivered: int = 0  # the last action whose private messages went out
    system: str = "babg"  # the game system it plays (bot.games), by id
    campaign_id: int | None = None  # played as a chapter of that campaign (bot.chronicle), or None: a plain game
    chapter: int | None = None  # which chapter (0 the prologue, then 1-13, then free play)
    turn_message_id: str | None = None  # the current turn's message on Discord (found again after a restart)

    def park(self, text: str):
        """Hold the state only as its JSON text, as just committed, until it
        is next read. A bot keeps every game in play in memory; as dicts and
        lists, a thousand games' states are some 100,000 objects that each
        of the garbage collector's full passes walks (a pause of a third of
        a second), while text is one object it never looks into. Reading it
        back costs a few hundredths of a millisecond, once an action."""
        self._state, self._text = None, text


def _read_state(game: GameRow) -> dict:
    if game._state is None:
        game._state = jsontext.loads(game._text)
    return game._state


def _set_state(game: GameRow, state: dict):
    game._state, game._text = state, None


# `state` is made, compared and shown like the dataclass's other fields; behind it, the dict or the parked text.
GameRow.state = property(_read_state, _set_state)


@dataclass
class CampaignRow:
    """A channel's Betrayal Legacy campaign: its record (bot.chronicle) as plain data."""
    id: int
    channel_id: str
    guild_id: str | None
    creator_id: str
    record: dict
    active: bool
    created_at: float = 0.0
    updated_at: float = 0.0


def campaign_row(row) -> CampaignRow:
    return CampaignRow(id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"],
                       creator_id=row["creator_id"], record=json.loads(row["record"]), active=row["active"] == 1,
                       created_at=row["created_at"], updated_at=row["updated_at"])


@dataclass
class _Write:
    """One action waiting to be committed."""
    game: GameRow
    action: dict
    state: dict
    events: list[dict]
    rename: tuple[str, str] | None
    finished: bool
    timers: list[tuple[str, str, int, float]] | None
    done: asyncio.Future
    seq: int = 0
    text: str = ""  # the state as written


def serialized(method):
    """One statement sequence at a time on the shared connection, so that
    concurrent games never interleave inside a transaction."""
    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        async with self.lock:
            return await method(self, *args, **kwargs)
    return wrapper


class Store:
    def __init__(self, path: str):
        self.path = path
        self.db: aiosqlite.Connection | None = None
        self.lock = asyncio.Lock()
        self.set_aside: set[str] = set()  # channels whose active game was set aside and not yet told
        self.queued: list[_Write] = []  # actions waiting for the next commit
        self.writer: asyncio.Task | None = None

    async def open(self):
        """Connect, check the file is sound and writable, migrate. Raises
        StoreError (and leaves nothing open) when the database cannot be used."""
        folder = pathlib.Path(self.path).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"The game database folder {folder} cannot be created ({e.strerror or e}). "
                             "Set DATA_DIR to a folder this user may write to.") from e
        try:
            # isolation_level=None: no implicit transactions; every write says BEGIN and COMMIT itself.
            self.db = await aiosqlite.connect(self.path, isolation_level=None)
            self.db.row_factory = aiosqlite.Row
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=NORMAL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self._check_integrity()
            await self._check_writable()
            await self.migrate()
        except BaseException as e:
            await self.close()
            if isinstance(e, sqlite3.Error):
                raise StoreError(_explain(self.path, e)) from e
            raise
        return self

    async def close(self):
        if self.writer is not None and not self.writer.done():
            await asyncio.wait([self.writer])  # the actions queued for a commit are written first
        if self.db:
            db, self.db = self.db, None
            await db.close()

    async def _check_integrity(self):
        async with self.db.execute("PRAGMA quick_check") as cur:
            problems = [r[0] for r in await cur.fetchall()]
        if problems != ["ok"]:
            first = " ".join(problems[0].split())[:200]  # quick_check can report thousands of lines
            raise StoreError(f"The game database {self.path} is damaged ({first}). Restore a backup, or move "
                             "the file aside to start with an empty one.")

    async def _check_writable(self):
        """A write that is rolled back, so that a read-only file or folder
        stops the bot at start-up rather than failing every action later."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute("CREATE TABLE write_probe (x)")
        finally:
            await self.db.execute("ROLLBACK")

    @contextlib.asynccontextmanager
    async def transaction(self):
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any failure, so a failed
        write leaves nothing behind for the next commit to pick up. Callers
        hold the lock (every public method is serialized)."""
        await self._rollback()  # a rollback that failed earlier must never be committed by this one
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
            await self.db.execute("COMMIT")
        except BaseException:
            await self._rollback()
            raise

    async def _rollback(self):
        if self.db.in_transaction:
            try:
                await self.db.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed in %s", self.path)

    @serialized
    async def migrate(self):
        """Each migration script and its version row in one transaction: a
        kill half-way leaves the schema as it was, and the next start runs
        the script again."""
        for path in sorted(MIGRATIONS.glob("*.sql")):
            version = int(path.name.split("_", 1)[0])
            async with self.transaction():
                await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                async with self.db.execute("SELECT 1 FROM schema_version WHERE version = ?", (version,)) as cur:
                    if await cur.fetchone():  # each script once, by its own version (not all below the highest)
                        continue
                for statement in statements(path.read_text()):
                    await self.db.execute(statement)
                await self.db.execute("INSERT INTO schema_version VALUES (?)", (version,))
                log.info("database %s migrated to version %d", self.path, version)

    async def _version(self) -> int:
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            return (await cur.fetchone())[0] or 0

    @serialized
    async def schema_version(self) -> int:
        return await self._version()

    # --- games ------------------------------------------------------------------

    @serialized
    async def create_game(self, channel_id, guild_id, creator_id, seed, state, settings,
                          system: str = "babg", campaign_id: int | None = None,
                          chapter: int | None = None) -> GameRow:
        now = time.time()
        async with self.transaction():
            cur = await self.db.execute(
                "INSERT INTO games (channel_id, guild_id, creator_id, seed, state, settings, created_at, updated_at,"
                " system, campaign_id, chapter) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (channel_id, guild_id, creator_id, seed, jsontext.dumps(state), json.dumps(settings), now, now,
                 system, campaign_id, chapter))
            game_id = cur.lastrowid
        self.set_aside.discard(channel_id)
        return await self._game_where("id = ?", (game_id,))

    @serialized
    async def active_game(self, channel_id: str) -> GameRow | None:
        return await self._game_where("channel_id = ? AND active = 1", (channel_id,))

    @serialized
    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The channel's active game, else its most recent one (for looking
        back at a finished game: its log, map, sheets and secrets)."""
        async with self.db.execute("SELECT id FROM games WHERE channel_id = ? AND active >= 0"
                                   " ORDER BY active DESC, id DESC", (channel_id,)) as cur:
            ids = [r[0] for r in await cur.fetchall()]
        for game_id in ids:  # an unreadable one is set aside and the next one tried
            game = await self._game_where("id = ?", (game_id,))
            if game:
                return game
        return None

    @serialized
    async def finished_games(self, guild_id: str | None, limit: int = 10) -> list[GameRow]:
        """The server's finished games that were started (a board was laid), newest first."""
        async with self.db.execute(
                "SELECT * FROM games WHERE guild_id IS ? AND active = 0 AND json_extract(state, '$.phase') != 'lobby'"
                " ORDER BY id DESC LIMIT ?", (guild_id, limit)) as cur:
            rows = await cur.fetchall()
        games = [await self._readable(r) for r in rows]
        return [g for g in games if g]

    @serialized
    async def played_haunts(self, guild_id: str | None) -> list[int]:
        """The haunt numbers the server's games have revealed (any game, running or finished)."""
        async with self.db.execute(
                "SELECT DISTINCT json_extract(state, '$.haunt.number') FROM games WHERE guild_id IS ? AND active >= 0"
                " AND json_extract(state, '$.haunt.number') IS NOT NULL", (guild_id,)) as cur:
            return sorted(int(r[0]) for r in await cur.fetchall())

    @serialized
    async def finished_records(self, guild_id: str | None) -> list[dict]:
        """The server's games that are over or were ended (/game end) after
        the start, oldest first, each as the few fields statistics read (see
        `finished_record`); a game in play is not among them, nor a row whose
        state is not JSON (left to be set aside when it is opened)."""
        async with self.db.execute(
                "SELECT id, json_extract(state, '$.phase', '$.seats', '$.haunt.number', '$.haunt.traitors',"
                " '$.result'), (SELECT json_group_object(key, json_extract(value, '$.adventurer'))"
                " FROM json_each(state, '$.players')), system FROM games WHERE guild_id IS ? AND active = 0"
                " AND json_valid(state) AND json_extract(state, '$.phase') != 'lobby' ORDER BY id", (guild_id,)) as cur:
            rows = await cur.fetchall()
        return [finished_record(r[0], *json.loads(r[1]), json.loads(r[2]), system=r[3]) for r in rows]

    @serialized
    async def ended_states(self, guild_id: str | None, system: str) -> list[dict]:
        """The states of the server's ended games of one system (those `finished_records` lists), oldest
        first: for a system whose figures its own `record` reads from the whole state."""
        async with self.db.execute(
                "SELECT state FROM games WHERE guild_id IS ? AND active = 0 AND system = ? AND json_valid(state)"
                " AND json_extract(state, '$.phase') != 'lobby' ORDER BY id", (guild_id, system)) as cur:
            rows = await cur.fetchall()
        return [jsontext.loads(r[0]) for r in rows]

    @serialized
    async def game_by_id(self, game_id: int) -> GameRow | None:
        return await self._game_where("id = ? AND active >= 0", (game_id,))

    @serialized
    async def active_games(self) -> list[GameRow]:
        async with self.db.execute("SELECT * FROM games WHERE active = 1") as cur:
            rows = await cur.fetchall()
        games = [await self._readable(r) for r in rows]
        return [g for g in games if g]

    async def _game_where(self, where: str, params: tuple) -> GameRow | None:
        async with self.db.execute(f"SELECT * FROM games WHERE {where}", params) as cur:
            row = await cur.fetchone()
        return await self._readable(row) if row else None

    async def _readable(self, row) -> GameRow | None:
        """The row as a game, or None after setting it aside: one bad row must
        not break its channel (or the timer poll) for good."""
        try:
            return _game(row)
        except Exception as e:  # noqa: BLE001 - whatever is wrong with the stored text, the row goes aside
            await self._set_aside(row, e)
            return None

    async def _set_aside(self, row, error: Exception):
        log.error("game %s (channel %s) could not be read and is set aside for inspection: %r",
                  row["id"], row["channel_id"], error)
        try:
            async with self.transaction():
                await self.db.execute("UPDATE games SET active = ? WHERE id = ?", (SET_ASIDE, row["id"]))
                await self.db.execute("DELETE FROM timers WHERE game_id = ?", (row["id"],))
        except sqlite3.Error:
            log.exception("could not set game %s aside", row["id"])
            return
        if row["active"] == 1:
            self.set_aside.add(row["channel_id"])

    def take_set_aside(self, channel_id: str) -> bool:
        """Whether this channel's game was set aside since it was last told."""
        if channel_id in self.set_aside:
            self.set_aside.discard(channel_id)
            return True
        return False

    async def record(self, game: GameRow, action: dict, state: dict, events: list[dict],
                     rename: tuple[str, str] | None = None, finished: bool = False,
                     timers: list[tuple[str, str, int, float]] | None = None):
        """Commit one action, the state after it and its events, together or
        not at all; `game` takes the new state only once it is committed.
        rename=(old, new) hands a seat over: the seat's past private events,
        timers and skip votes follow it to the new player. finished: the game
        is over, so it leaves play in the same commit. timers: the game's
        reminders and deadlines from now on (None keeps them).

        Actions of other games that arrive while the database is busy are
        committed with it, in one transaction (a group commit): each
        statement costs a round trip to the database thread, so a busy bot
        writes many actions for the price of one. If that commit fails,
        each game's actions are committed again in a transaction of their
        own: a fault in one game's rows fails that game's action alone."""
        write = _Write(game, action, state, events, rename, finished, timers,
                       asyncio.get_running_loop().create_future())
        self.queued.append(write)
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write_queued())
        await write.done

    async def _write_queued(self):
        while self.queued:
            batch, self.queued = self.queued, []
            try:
                async with self.lock:
                    failed = await self._commit_apart(batch)
            except BaseException as e:  # cancelled: each waiting action is told, and the task stops
                for w in batch:
                    if not w.done.done():
                        w.done.set_exception(e)
                raise
            for w in batch:
                error = failed.get(w.game.id)
                if error is None:  # committed: the game moves on even if its caller stopped waiting
                    w.game.park(w.text)
                    w.game.seq = w.seq
                    if w.finished:
                        w.game.active = False
                if w.done.done():
                    continue
                if error is None:
                    w.done.set_result(None)
                else:
                    w.done.set_exception(error)

    async def _commit_apart(self, batch: list["_Write"]) -> dict[int, Exception]:
        """Commit the batch; if that fails (rolled back: nothing of it is
        written), commit each game's actions again on their own, so that the
        others are not refused for one game's fault. Returns the games that
        could not be committed, each with its error."""
        try:
            await self._commit(batch)
            return {}
        except Exception as e:  # noqa: BLE001 - a fault of any kind may belong to one game alone
            if len({w.game.id for w in batch}) == 1:
                return {batch[0].game.id: e}
            log.warning("a commit of several games' actions failed (%r); committing each game alone", e)
        games: dict[int, list[_Write]] = {}
        for w in batch:  # a game's actions stay together and in order: each follows the one before
            games.setdefault(w.game.id, []).append(w)
        failed = {}
        for game_id, writes in games.items():
            try:
                await self._commit(writes)
            except Exception as e:  # noqa: BLE001 - told to this game's actions only
                failed[game_id] = e
        return failed

    async def _commit(self, batch: list["_Write"]):
        # aiosqlite runs a function on its database thread with _execute, the step under each of its
        # statements; the whole commit goes as one function, so it costs one round trip, not one a statement.
        await self.db._execute(self._commit_in_thread, batch, time.time())

    def _commit_in_thread(self, batch: list["_Write"], now: float):
        """The whole group commit, on the database thread."""
        db = self.db._conn
        run = self.statement
        self._rollback_in_thread(db)  # a rollback that failed earlier must never be committed by this one
        run(db, "BEGIN IMMEDIATE")
        try:
            unknown = sorted({w.game.id for w in batch if w.game.seq is None})
            counts = {}
            if unknown:
                marks = ",".join("?" * len(unknown))
                counts = dict(run(db, f"SELECT game_id, COALESCE(MAX(seq), 0) FROM actions WHERE game_id IN "
                                      f"({marks}) GROUP BY game_id", unknown).fetchall())
            for w in batch:  # two actions of one game in a commit follow each other
                w.seq = counts[w.game.id] = counts.get(w.game.id, w.game.seq or 0) + 1
            run(db, "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [(w.game.id, w.seq, json.dumps(w.action), now) for w in batch], many=True)
            for w in batch:
                if w.rename:
                    old, new = w.rename
                    run(db, "UPDATE events SET audience = ? WHERE game_id = ? AND audience = ?", (new, w.game.id, old))
                    run(db, "UPDATE timers SET user_id = ? WHERE game_id = ? AND user_id = ?", (new, w.game.id, old))
                    # OR IGNORE: a vote the new player already cast stays single.
                    run(db, "UPDATE OR IGNORE skip_votes SET voter_id = ? WHERE game_id = ? AND voter_id = ?",
                        (new, w.game.id, old))
            for w in batch:
                w.text = jsontext.dumps(w.state)
            run(db, "UPDATE games SET state = ?, updated_at = ? WHERE id = ?",
                [(w.text, now, w.game.id) for w in batch], many=True)
            over = [(w.game.id,) for w in batch if w.finished]
            if over:
                run(db, "UPDATE games SET active = 0 WHERE id = ?", over, many=True)
                run(db, "DELETE FROM timers WHERE game_id = ?", over, many=True)
            run(db, "INSERT INTO events (game_id, seq, audience, text, at) VALUES (?, ?, ?, ?, ?)",
                [(w.game.id, w.seq, e["to"], e["text"], now) for w in batch for e in w.events], many=True)
            timed = [w for w in batch if w.timers is not None and not w.finished]
            if timed:
                run(db, "DELETE FROM timers WHERE game_id = ?", [(w.game.id,) for w in timed], many=True)
                run(db, "INSERT INTO timers (game_id, kind, user_id, turn, due_at) VALUES (?, ?, ?, ?, ?)",
                    [(w.game.id, *t) for w in timed for t in w.timers], many=True)
            run(db, "COMMIT")
        except BaseException:
            self._rollback_in_thread(db)
            raise

    def _rollback_in_thread(self, db: sqlite3.Connection):
        if db.in_transaction:
            try:
                self.statement(db, "ROLLBACK")
            except sqlite3.Error:
                log.exception("rollback failed in %s", self.path)

    @staticmethod
    def statement(db: sqlite3.Connection, sql: str, params=(), many: bool = False):
        """Run one statement of a group commit (on the database thread)."""
        return db.executemany(sql, params) if many else db.execute(sql, params)

    @serialized
    async def set_state(self, game_id: int, state: dict, active: bool):
        """Put a state in place without an action (tests and tools set up a
        moment of a game this way; the action log no longer replays to it)."""
        async with self.transaction():
            await self.db.execute("UPDATE games SET state = ?, active = ?, updated_at = ? WHERE id = ?",
                                  (jsontext.dumps(state), 1 if active else 0, time.time(), game_id))

    @serialized
    async def actions(self, game_id: int) -> list[dict]:
        async with self.db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)) as cur:
            return [json.loads(r[0]) for r in await cur.fetchall()]

    @serialized
    async def recent_events(self, game_id: int, audience: list[str], limit: int = 15) -> list[str]:
        marks = ",".join("?" * len(audience))
        async with self.db.execute(
                f"SELECT text FROM events WHERE game_id = ? AND audience IN ({marks}) ORDER BY rowid DESC LIMIT ?",
                (game_id, *audience, limit)) as cur:
            return [r[0] for r in reversed(await cur.fetchall())]

    @serialized
    async def undelivered(self, game_id: int, after_seq: int) -> list[tuple[int, str, str]]:
        """Private events (seq, audience, text) of the actions after `after_seq`, oldest first."""
        async with self.db.execute("SELECT seq, audience, text FROM events WHERE game_id = ? AND seq > ? "
                                   "AND audience != 'all' ORDER BY rowid", (game_id, after_seq)) as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    @serialized
    async def set_delivered(self, game_id: int, seq: int):
        async with self.transaction():
            await self.db.execute("UPDATE games SET delivered = MAX(delivered, ?) WHERE id = ?", (seq, game_id))

    @serialized
    async def set_summary_message(self, game_id: int, message_id: str | None):
        async with self.transaction():
            await self.db.execute("UPDATE games SET summary_message_id = ? WHERE id = ?", (message_id, game_id))

    @serialized
    async def set_turn_message(self, game_id: int, message_id: str | None):
        async with self.transaction():
            await self.db.execute("UPDATE games SET turn_message_id = ? WHERE id = ?", (message_id, game_id))

    @serialized
    async def set_settings(self, game_id: int, settings: dict):
        async with self.transaction():
            await self.db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))

    @serialized
    async def finish(self, game_id: int):
        async with self.transaction():
            await self.db.execute("UPDATE games SET active = 0 WHERE id = ? AND active = 1", (game_id,))
            await self.db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    # --- timers and votes -----------------------------------------------------------

    @serialized
    async def replace_timers(self, game_id: int, timers: list[tuple[str, str, int, float]]):
        async with self.transaction():
            await self.db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await self.db.executemany(
                "INSERT INTO timers (game_id, kind, user_id, turn, due_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, *t) for t in timers])

    @serialized
    async def due_timers(self, now: float, shard: tuple[tuple[int, ...], int] | None = None) -> list[dict]:
        """The timers that came due; with `shard` (ids, count), only those of
        games in the servers of those shards."""
        async with self.db.execute("SELECT timers.*, games.guild_id AS guild FROM timers JOIN games ON"
                                   " games.id = timers.game_id WHERE due_at <= ? ORDER BY due_at", (now,)) as cur:
            found = [dict(r) for r in await cur.fetchall()]
        return [{k: v for k, v in t.items() if k != "guild"} for t in found
                if shard is None or shard_of(t["guild"], shard[1]) in shard[0]]

    async def moved_on(self, game: GameRow) -> bool:
        """Never: one process alone uses an SQLite file."""
        return False

    async def claim_interaction(self, interaction_id: int, now: float) -> bool:
        """Always this process's: one process alone uses an SQLite file."""
        return True

    async def forget_claims(self, before: float):
        return None

    @serialized
    async def delete_timer(self, timer_id: int):
        async with self.transaction():
            await self.db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))

    @serialized
    async def add_skip_vote(self, game_id: int, turn: int, voter: str) -> int:
        async with self.transaction():
            await self.db.execute("INSERT OR IGNORE INTO skip_votes VALUES (?, ?, ?)", (game_id, turn, voter))
            async with self.db.execute("SELECT COUNT(*) FROM skip_votes WHERE game_id = ? AND turn = ?",
                                       (game_id, turn)) as cur:
                return (await cur.fetchone())[0]

    # --- campaigns (bot.chronicle) ------------------------------------------------------

    @serialized
    async def create_campaign(self, channel_id: str, guild_id: str | None, creator_id: str,
                              record: dict) -> CampaignRow:
        """A new active campaign in the channel (StoreError if it has one: one a channel)."""
        now = time.time()
        try:
            async with self.transaction():
                cur = await self.db.execute(
                    "INSERT INTO campaigns (channel_id, guild_id, creator_id, record, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)", (channel_id, guild_id, creator_id, json.dumps(record), now, now))
                campaign_id = cur.lastrowid
        except sqlite3.IntegrityError as e:
            raise StoreError(f"channel {channel_id} already has an active campaign") from e
        async with self.db.execute("SELECT * FROM campaigns WHERE id = ?", (campaign_id,)) as cur:
            return campaign_row(await cur.fetchone())

    @serialized
    async def active_campaign(self, channel_id: str) -> CampaignRow | None:
        async with self.db.execute("SELECT * FROM campaigns WHERE channel_id = ? AND active = 1", (channel_id,)) as cur:
            row = await cur.fetchone()
        return campaign_row(row) if row else None

    @serialized
    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        async with self.db.execute("SELECT * FROM campaigns WHERE id = ?", (campaign_id,)) as cur:
            row = await cur.fetchone()
        return campaign_row(row) if row else None

    @serialized
    async def save_campaign(self, campaign_id: int, record: dict, active: bool = True):
        async with self.transaction():
            await self.db.execute("UPDATE campaigns SET record = ?, active = ?, updated_at = ? WHERE id = ?",
                                  (json.dumps(record), 1 if active else 0, time.time(), campaign_id))

    @serialized
    async def chapter_games(self, campaign_id: int) -> list[GameRow]:
        """The campaign's games that have ended (over or stopped), oldest first."""
        async with self.db.execute("SELECT * FROM games WHERE campaign_id = ? AND active = 0 ORDER BY id",
                                   (campaign_id,)) as cur:
            rows = await cur.fetchall()
        games = [await self._readable(r) for r in rows]
        return [g for g in games if g]

    # --- server settings and secret threads ---------------------------------------------

    @serialized
    async def guild_settings(self, guild_id: str) -> dict:
        """The server's settings (GUILD_DEFAULTS for those never set)."""
        async with self.db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        return {**GUILD_DEFAULTS, **({k: row[k] for k in GUILD_DEFAULTS} if row else {})}

    @serialized
    async def set_guild_settings(self, guild_id: str, **values):
        unknown = set(values) - set(GUILD_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        names = sorted(values)
        async with self.transaction():
            await self.db.execute(
                f"INSERT INTO guild_settings (guild_id, {', '.join(names)}) VALUES (?{', ?' * len(names)})"
                f" ON CONFLICT (guild_id) DO UPDATE SET {', '.join(f'{n} = excluded.{n}' for n in names)}",
                (guild_id, *(values[n] for n in names)))

    @serialized
    async def secret_thread(self, game_id: int, user_id: str) -> str | None:
        async with self.db.execute("SELECT thread_id FROM secret_threads WHERE game_id = ? AND user_id = ?",
                                   (game_id, user_id)) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    @serialized
    async def set_secret_thread(self, game_id: int, user_id: str, thread_id: str):
        async with self.transaction():
            await self.db.execute("INSERT OR REPLACE INTO secret_threads (game_id, user_id, thread_id) VALUES (?, ?, ?)",
                                  (game_id, user_id, thread_id))


async def open_store(database: str):
    """The store for `database`, opened (checked and migrated): PostgresStore
    for a postgresql:// or postgres:// URL, else Store on that SQLite file.
    StoreError says why it cannot be used."""
    if database.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore  # asyncpg is loaded only by a bot that uses it
        return await PostgresStore(database).open()
    return await Store(database).open()


def statements(script: str) -> list[str]:
    """A migration script's statements, one by one. executescript() would
    COMMIT first and so split the migration from its version row."""
    found, current = [], ""
    for piece in script.split(";")[:-1]:
        current += piece + ";"
        if sqlite3.complete_statement(current):  # false for a ";" inside a string, comment or trigger body
            found.append(current.strip())
            current = ""
    rest = current + script.split(";")[-1]
    if any(line.strip() and not line.strip().startswith("--") for line in rest.splitlines()):
        raise ValueError(f"unfinished SQL statement at the end of a migration: {rest.strip()[:80]!r}")
    return found


def _explain(path: str, error: sqlite3.Error) -> str:
    """What went wrong with the database file, in words for whoever runs the bot."""
    reason = str(error)
    if "readonly" in reason or "read-only" in reason:
        hint = "The file or its folder is read-only for this user: give it write access, or set DATA_DIR elsewhere."
    elif "not a database" in reason or "malformed" in reason:
        hint = "The file is damaged or not a game database: restore a backup, or move it aside to start afresh."
    elif "unable to open" in reason:
        hint = "Check that DATA_DIR is a folder this user may read and write."
    else:
        hint = "Check the file, its folder and the free disk space."
    return f"The game database {path} cannot be used ({reason}). {hint}"


def finished_record(game_id: int, phase: str, seats: list, haunt: int | None, traitors: list | None,
                    result: dict | None, adventurers: dict, system: str = "babg") -> dict:
    """One ended game for statistics: its system, who sat with which adventurer, the
    haunt, and, only for a game played to its end, who the traitors were
    and how it ended (a game stopped half-way keeps its hidden traitor).
    (These fields are the default system's; another system's figures come from
    its own `record` of the state: `ended_states`.)"""
    over = phase == "over"
    return {"id": game_id, "system": system, "over": over, "seats": seats or [], "adventurers": adventurers or {},
            "haunt": haunt, "traitors": (traitors or []) if over else [], "result": (result or {}) if over else {}}


# What every game state has from its first moment (bot.games.babg.engine.state.new_state) and every action reads, with
# the types it must be (None: only present). A row without them would load and then fail each action.
# What every system's state has (bot.kit.contract): a row without it is no game's and is set aside.
STATE_SHAPE = {"phase": str, "seats": list, "players": dict, "turn": None, "pending": None}


def _game(row) -> GameRow:
    state, settings = jsontext.loads(row["state"]), json.loads(row["settings"])
    if not isinstance(state, dict) or not isinstance(settings, dict):
        raise ValueError("state and settings must be JSON objects")
    wrong = [k for k, kind in STATE_SHAPE.items() if k not in state or kind and not isinstance(state[k], kind)]
    if wrong:
        raise ValueError(f"the state is not a game's: missing or wrong {', '.join(wrong)}")
    game = GameRow(id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"], creator_id=row["creator_id"],
                   seed=row["seed"], state=state, settings=settings,
                   summary_message_id=row["summary_message_id"], active=row["active"] == 1,
                   created_at=row["created_at"], updated_at=row["updated_at"], delivered=row["delivered"],
                   system=row["system"], campaign_id=row["campaign_id"], chapter=row["chapter"],
                   turn_message_id=row["turn_message_id"])
    game.park(row["state"])  # checked; kept as text like a game just played (a restart loads every game in play)
    return game
