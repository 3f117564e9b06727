"""Games on a PostgreSQL server (DATABASE_URL=postgresql://...), with the
methods and meaning of bot.store.Store, for a bot that may run as several
processes over one database. Each action is committed in a transaction of
its own; a process holding an old copy of a game is refused its write (the
game's seq), and each due timer is claimed by one process only."""
import contextlib
import json
import logging
import pathlib
import time
from urllib.parse import unquote, urlsplit

import asyncpg

# A server restarting or gone: the action fails whole, and the pool connects again by itself.
GONE = (asyncpg.CannotConnectNowError, asyncpg.ConnectionDoesNotExistError, asyncpg.ConnectionFailureError,
        asyncpg.InterfaceError)

from . import (GUILD_DEFAULTS, SET_ASIDE, CampaignRow, GameMovedOn, GameRow, Store, StoreError, campaign_row,
               finished_record, jsontext)

MIGRATIONS = pathlib.Path(__file__).with_name("migrations_pg")

# Held for each migration's transaction: processes starting at once migrate one after the other.
MIGRATION_LOCK = 0x62675F626F74  # any constant shared by every process of the bot

log = logging.getLogger("bot.store")

# An action in one statement, so one round trip: the state over the seq this process read (the version
# check; the row's lock until it ends: the next writer waits, then finds seq moved), the action, its events
# in order, and the game's timers replaced when given. Nothing is written when the version check fails.
RECORD = """
WITH game AS (
    UPDATE games SET state = $1::text, updated_at = $2::float8, seq = seq + 1,
        active = CASE WHEN $3::boolean THEN 0 ELSE active END
    WHERE id = $4::bigint AND ($5::bigint IS NULL OR seq = $5::bigint) RETURNING seq),
logged AS (
    INSERT INTO actions (game_id, seq, action, at) SELECT $4::bigint, seq, $6::text, $2::float8 FROM game),
said AS (
    INSERT INTO events (game_id, seq, audience, text, at)
    SELECT $4::bigint, game.seq, e.audience, e.text, $2::float8
    FROM game, unnest($7::text[], $8::text[]) WITH ORDINALITY AS e(audience, text, n) ORDER BY e.n),
cleared AS (
    DELETE FROM timers WHERE $9::boolean AND game_id = $4::bigint AND EXISTS (SELECT 1 FROM game)),
timed AS (
    INSERT INTO timers (game_id, kind, user_id, turn, due_at)
    SELECT $4::bigint, t.kind, t.user_id, t.turn, t.due_at
    FROM game, unnest($10::text[], $11::text[], $12::integer[], $13::float8[]) AS t(kind, user_id, turn, due_at))
SELECT seq FROM game
"""


async def keep_session(connection: asyncpg.Connection):
    """The pool's reset of a connection given back, instead of asyncpg's
    query (unlock advisory locks, close cursors, unlisten, reset settings):
    a round trip at every release for session state this store never makes
    (its only lock is a transaction's). An open transaction is still rolled
    back by the pool before this."""


class PostgresStore:
    def __init__(self, url: str, pool_size: int = 10):
        self.url = url
        self.pool_size = pool_size
        self.pool: asyncpg.Pool | None = None
        self.set_aside: set[str] = set()  # channels whose active game was set aside and not yet told
        parts = urlsplit(url)
        self.password = parts.password
        try:
            self.where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        except ValueError:  # a port that is not a number: asyncpg says so when connecting
            self.where = parts.hostname or "localhost"

    async def open(self):
        """Connect and migrate. Raises StoreError (and leaves nothing open)
        when the server cannot be reached or used."""
        try:
            self.pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size, timeout=10,
                                                  reset=keep_session)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise self._unusable(e) from None  # from None: the cause's text could hold the URL
        try:
            await self.migrate()
        except BaseException as e:
            pool, self.pool = self.pool, None
            pool.terminate()
            if isinstance(e, (asyncpg.PostgresError, asyncpg.InterfaceError)):
                raise StoreError(f"The PostgreSQL database at {self.where} could not be migrated: "
                                 f"{self._reason(e)}.") from None
            raise
        return self

    async def close(self):
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await pool.close()

    def _reason(self, error: Exception) -> str:
        """The error in one line, without the URL's password."""
        reason = " ".join(str(error).split()).rstrip(".") or type(error).__name__
        for secret in {self.password, unquote(self.password or "")} - {None, ""}:  # as written, and decoded
            reason = reason.replace(secret, "***")
        return reason

    def _unusable(self, error: Exception) -> StoreError:
        if isinstance(error, OSError):
            return StoreError(f"PostgreSQL at {self.where} is not reachable: {self._reason(error)}. "
                              "Check DATABASE_URL and that the server is running.")
        return StoreError(f"PostgreSQL at {self.where} cannot be used: {self._reason(error)}. Check DATABASE_URL.")

    @contextlib.asynccontextmanager
    async def _connection(self):
        try:
            db = await self.pool.acquire()
        except OSError as e:  # the server went away since the start
            raise self._unusable(e) from None
        except GONE as e:  # restarting: the pool connects again by itself once it is back
            raise StoreError(f"PostgreSQL at {self.where} is not answering just now: {self._reason(e)}.") from None
        try:
            yield db
        except (OSError, *GONE) as e:  # the server went away in the middle: nothing of this was committed
            raise StoreError(f"PostgreSQL at {self.where} is not answering just now: {self._reason(e)}.") from None
        finally:
            await self.pool.release(db)

    @contextlib.asynccontextmanager
    async def transaction(self):
        """A pooled connection in a transaction: committed at the end,
        rolled back on any failure."""
        async with self._connection() as db, db.transaction():
            yield db

    async def _fetch(self, sql: str, *args) -> list:
        async with self._connection() as db:
            return await db.fetch(sql, *args)

    async def migrate(self):
        """Each script and its version row in one transaction, under an
        advisory lock: a failure leaves the schema as it was, and two
        processes starting together run each script once."""
        for path in sorted(MIGRATIONS.glob("*.sql")):
            version = int(path.name.split("_", 1)[0])
            async with self.transaction() as db:
                await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                if await db.fetchval("SELECT 1 FROM schema_version WHERE version = $1", version):
                    continue
                await db.execute(path.read_text())  # no arguments: the script's statements go as one query
                await db.execute("INSERT INTO schema_version VALUES ($1)", version)
                log.info("PostgreSQL database at %s migrated to version %d", self.where, version)

    async def schema_version(self) -> int:
        async with self._connection() as db:
            return await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")

    # --- games ------------------------------------------------------------------

    async def create_game(self, channel_id, guild_id, creator_id, seed, state, settings,
                          system: str = "babg", campaign_id: int | None = None,
                          chapter: int | None = None) -> GameRow:
        now = time.time()
        async with self.transaction() as db:
            game_id = await db.fetchval(
                "INSERT INTO games (channel_id, guild_id, creator_id, seed, state, settings, created_at, updated_at,"
                " system, campaign_id, chapter) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                channel_id, guild_id, creator_id, seed, jsontext.dumps(state), json.dumps(settings), now, now, system,
                campaign_id, chapter)
        self.set_aside.discard(channel_id)
        return await self._game_where("id = $1", game_id)

    async def active_game(self, channel_id: str) -> GameRow | None:
        return await self._game_where("channel_id = $1 AND active = 1", channel_id)

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The channel's active game, else its most recent one."""
        rows = await self._fetch("SELECT id FROM games WHERE channel_id = $1 AND active >= 0"
                                 " ORDER BY active DESC, id DESC", channel_id)
        for row in rows:  # an unreadable one is set aside and the next one tried
            game = await self._game_where("id = $1", row["id"])
            if game:
                return game
        return None

    async def finished_games(self, guild_id: str | None, limit: int = 10) -> list[GameRow]:
        """The server's finished games that were started, newest first."""
        rows = await self._fetch(
            "SELECT * FROM games WHERE guild_id IS NOT DISTINCT FROM $1 AND active = 0"
            " AND jsonb_or_null(state) ->> 'phase' <> 'lobby' ORDER BY id DESC LIMIT $2", guild_id, limit)
        return await self._readable_ones(rows)

    async def played_haunts(self, guild_id: str | None) -> list[int]:
        """The haunt numbers the server's games have revealed."""
        rows = await self._fetch(
            "SELECT DISTINCT jsonb_or_null(state) #>> '{haunt,number}' AS haunt FROM games"
            " WHERE guild_id IS NOT DISTINCT FROM $1 AND active >= 0", guild_id)
        return sorted(int(r["haunt"]) for r in rows if r["haunt"] is not None)

    async def finished_records(self, guild_id: str | None) -> list[dict]:
        """The server's ended games, oldest first, as bot.store.finished_record
        makes them; a row whose state is not JSON is left out."""
        rows = await self._fetch(
            "SELECT id, s ->> 'phase' AS phase, s -> 'seats' AS seats, s #> '{haunt,number}' AS haunt,"
            " s #> '{haunt,traitors}' AS traitors, s -> 'result' AS result,"
            " (SELECT jsonb_object_agg(key, value -> 'adventurer') FROM jsonb_each(CASE jsonb_typeof(s -> 'players')"
            "  WHEN 'object' THEN s -> 'players' ELSE '{}' END)) AS adventurers, system"
            " FROM (SELECT id, system, jsonb_or_null(state) AS s FROM games"
            "       WHERE guild_id IS NOT DISTINCT FROM $1 AND active = 0) AS ended"
            " WHERE s ->> 'phase' <> 'lobby' ORDER BY id", guild_id)
        return [finished_record(r["id"], r["phase"], *(_json(r[k]) for k in ("seats", "haunt", "traitors", "result",
                                                                             "adventurers")), system=r["system"])
                for r in rows]

    async def ended_states(self, guild_id: str | None, system: str) -> list[dict]:
        """The states of the server's ended games of one system, oldest first (as Store's)."""
        rows = await self._fetch(
            "SELECT state FROM (SELECT id, state, jsonb_or_null(state) AS s FROM games"
            "       WHERE guild_id IS NOT DISTINCT FROM $1 AND active = 0 AND system = $2) AS ended"
            " WHERE s IS NOT NULL AND s ->> 'phase' <> 'lobby' ORDER BY id", guild_id, system)
        return [jsontext.loads(r["state"]) for r in rows]

    async def game_by_id(self, game_id: int) -> GameRow | None:
        return await self._game_where("id = $1 AND active >= 0", game_id)

    async def active_games(self) -> list[GameRow]:
        return await self._readable_ones(await self._fetch("SELECT * FROM games WHERE active = 1"))

    async def _game_where(self, where: str, *args) -> GameRow | None:
        rows = await self._fetch(f"SELECT * FROM games WHERE {where}", *args)
        return await self._readable(rows[0]) if rows else None

    async def _readable_ones(self, rows) -> list[GameRow]:
        games = [await self._readable(r) for r in rows]
        return [g for g in games if g]

    async def _readable(self, row) -> GameRow | None:
        """Store's check of the row (set aside when it fails), and the seq
        this process will write its next action over."""
        game = await Store._readable(self, row)
        if game:
            game.seq = row["seq"]
        return game

    async def _set_aside(self, row, error: Exception):
        log.error("game %s (channel %s) could not be read and is set aside for inspection: %r",
                  row["id"], row["channel_id"], error)
        try:
            async with self.transaction() as db:
                await db.execute("UPDATE games SET active = $1 WHERE id = $2", SET_ASIDE, row["id"])
                await db.execute("DELETE FROM timers WHERE game_id = $1", row["id"])
        except (asyncpg.PostgresError, asyncpg.InterfaceError, StoreError):
            log.exception("could not set game %s aside", row["id"])
            return
        if row["active"] == 1:
            self.set_aside.add(row["channel_id"])

    take_set_aside = Store.take_set_aside

    async def record(self, game: GameRow, action: dict, state: dict, events: list[dict],
                     rename: tuple[str, str] | None = None, finished: bool = False,
                     timers: list[tuple[str, str, int, float]] | None = None):
        """Commit one action with the state after it, its events, a seat
        handed over, the game's end and its timers, as Store.record does;
        `game` takes the new state only once committed. StoreError if
        another process recorded an action of this game since it was read."""
        now, text = time.time(), jsontext.dumps(state)
        if rename:
            seq = await self._record_handover(game, action, text, events, rename, finished, timers, now)
        else:
            async with self._connection() as db:  # one statement: atomic without BEGIN and COMMIT
                kept = [] if finished else timers or []
                seq = await db.fetchval(
                    RECORD, text, now, finished, game.id, game.seq, json.dumps(action),
                    [e["to"] for e in events], [e["text"] for e in events], finished or timers is not None,
                    [t[0] for t in kept], [t[1] for t in kept], [t[2] for t in kept], [t[3] for t in kept])
            if seq is None:
                raise self._moved_on(game)
        game.park(text)
        game.seq = seq
        if finished:
            game.active = False

    async def _record_handover(self, game: GameRow, action: dict, text: str, events: list[dict],
                               rename: tuple[str, str], finished: bool, timers, now: float) -> int:
        """record's rare case, a seat handed over: the player's events,
        timers and votes move to the new player in the same transaction."""
        async with self.transaction() as db:
            # The version check, and the row's lock until the commit: the next writer waits, then finds seq moved.
            seq = await db.fetchval(
                "UPDATE games SET state = $1, updated_at = $2, seq = seq + 1,"
                " active = CASE WHEN $3 THEN 0 ELSE active END"
                " WHERE id = $4 AND ($5::bigint IS NULL OR seq = $5) RETURNING seq",
                text, now, finished, game.id, game.seq)
            if seq is None:
                raise self._moved_on(game)
            await db.execute("INSERT INTO actions (game_id, seq, action, at) VALUES ($1, $2, $3, $4)",
                             game.id, seq, json.dumps(action), now)
            old, new = rename
            await db.execute("UPDATE events SET audience = $1 WHERE game_id = $2 AND audience = $3",
                             new, game.id, old)
            await db.execute("UPDATE timers SET user_id = $1 WHERE game_id = $2 AND user_id = $3",
                             new, game.id, old)
            # Store's UPDATE OR IGNORE: a vote the new player already cast stays single.
            await db.execute("UPDATE skip_votes AS v SET voter_id = $1 WHERE game_id = $2 AND voter_id = $3"
                             " AND NOT EXISTS (SELECT 1 FROM skip_votes AS w WHERE w.game_id = v.game_id"
                             " AND w.turn = v.turn AND w.voter_id = $1)", new, game.id, old)
            if events:
                await db.executemany(
                    "INSERT INTO events (game_id, seq, audience, text, at) VALUES ($1, $2, $3, $4, $5)",
                    [(game.id, seq, e["to"], e["text"], now) for e in events])
            if finished or timers is not None:
                await db.execute("DELETE FROM timers WHERE game_id = $1", game.id)
            if timers and not finished:
                await self._insert_timers(db, game.id, timers)
        return seq

    @staticmethod
    def _moved_on(game: GameRow) -> GameMovedOn:
        return GameMovedOn(f"Game {game.id} moved on in another process since this one read it "
                           f"(at action {game.seq}); this action was not recorded.")

    async def set_state(self, game_id: int, state: dict, active: bool):
        """Put a state in place without an action (tests and tools)."""
        async with self.transaction() as db:
            await db.execute("UPDATE games SET state = $1, active = $2, updated_at = $3 WHERE id = $4",
                             jsontext.dumps(state), 1 if active else 0, time.time(), game_id)

    async def actions(self, game_id: int) -> list[dict]:
        rows = await self._fetch("SELECT action FROM actions WHERE game_id = $1 ORDER BY seq", game_id)
        return [json.loads(r["action"]) for r in rows]

    async def recent_events(self, game_id: int, audience: list[str], limit: int = 15) -> list[str]:
        rows = await self._fetch("SELECT text FROM events WHERE game_id = $1 AND audience = ANY($2::text[])"
                                 " ORDER BY id DESC LIMIT $3", game_id, list(audience), limit)
        return [r["text"] for r in reversed(rows)]

    async def undelivered(self, game_id: int, after_seq: int) -> list[tuple[int, str, str]]:
        """Private events (seq, audience, text) of the actions after `after_seq`, oldest first."""
        rows = await self._fetch("SELECT seq, audience, text FROM events WHERE game_id = $1 AND seq > $2"
                                 " AND audience <> 'all' ORDER BY id", game_id, after_seq)
        return [(r["seq"], r["audience"], r["text"]) for r in rows]

    async def _write(self, sql: str, *args):
        """One statement: atomic by itself, without BEGIN and COMMIT."""
        async with self._connection() as db:
            await db.execute(sql, *args)

    async def set_delivered(self, game_id: int, seq: int):
        await self._write("UPDATE games SET delivered = GREATEST(delivered, $1) WHERE id = $2", seq, game_id)

    async def set_summary_message(self, game_id: int, message_id: str | None):
        await self._write("UPDATE games SET summary_message_id = $1 WHERE id = $2", message_id, game_id)

    async def set_turn_message(self, game_id: int, message_id: str | None):
        await self._write("UPDATE games SET turn_message_id = $1 WHERE id = $2", message_id, game_id)

    async def set_settings(self, game_id: int, settings: dict):
        await self._write("UPDATE games SET settings = $1 WHERE id = $2", json.dumps(settings), game_id)

    async def finish(self, game_id: int):
        async with self.transaction() as db:
            await db.execute("UPDATE games SET active = 0 WHERE id = $1 AND active = 1", game_id)
            await db.execute("DELETE FROM timers WHERE game_id = $1", game_id)

    # --- timers and votes -----------------------------------------------------------

    @staticmethod
    async def _insert_timers(db, game_id: int, timers: list[tuple[str, str, int, float]]):
        await db.executemany("INSERT INTO timers (game_id, kind, user_id, turn, due_at) VALUES ($1, $2, $3, $4, $5)",
                             [(game_id, *t) for t in timers])

    async def replace_timers(self, game_id: int, timers: list[tuple[str, str, int, float]]):
        async with self.transaction() as db:
            await db.execute("DELETE FROM timers WHERE game_id = $1", game_id)
            if timers:
                await self._insert_timers(db, game_id, timers)

    async def due_timers(self, now: float, shard: tuple[tuple[int, ...], int] | None = None) -> list[dict]:
        """The timers that came due, claimed: removed as they are read, so
        that of several processes polling at once only one fires each (rows
        another poll holds are skipped, not waited for). With `shard` (ids,
        count), only those of games in the servers of those shards, which
        this process alone can post in (bot.store.shard_of, in SQL)."""
        rows = await self._fetch(
            "DELETE FROM timers WHERE id IN (SELECT timers.id FROM timers JOIN games ON games.id = timers.game_id"
            " WHERE due_at <= $1 AND ($2::int IS NULL OR (CASE WHEN games.guild_id ~ '^[0-9]+$'"
            " THEN (games.guild_id::bigint >> 22) % $2 ELSE 0 END) = ANY($3::int[]))"
            " FOR UPDATE OF timers SKIP LOCKED) RETURNING *",
            now, shard[1] if shard else None, list(shard[0]) if shard else [])
        return sorted((dict(r) for r in rows), key=lambda t: (t["due_at"], t["id"]))

    async def moved_on(self, game: GameRow) -> bool:
        """Whether another process recorded an action of the game since this
        one read it."""
        async with self._connection() as db:
            return await db.fetchval("SELECT seq FROM games WHERE id = $1", game.id) != game.seq

    async def claim_interaction(self, interaction_id: int, now: float) -> bool:
        """Whether this process is the first to take the interaction (Discord
        sends it to every connection of the shard; see 004_interaction_claims)."""
        async with self._connection() as db:
            return await db.fetchval("INSERT INTO interaction_claims VALUES ($1, $2) ON CONFLICT DO NOTHING"
                                     " RETURNING TRUE", interaction_id, now) is not None

    async def forget_claims(self, before: float):
        await self._write("DELETE FROM interaction_claims WHERE claimed_at < $1", before)

    async def delete_timer(self, timer_id: int):
        await self._write("DELETE FROM timers WHERE id = $1", timer_id)

    async def add_skip_vote(self, game_id: int, turn: int, voter: str) -> int:
        async with self.transaction() as db:
            await db.execute("INSERT INTO skip_votes VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", game_id, turn, voter)
            return await db.fetchval("SELECT COUNT(*) FROM skip_votes WHERE game_id = $1 AND turn = $2", game_id, turn)

    # --- campaigns (bot.chronicle) ------------------------------------------------------

    async def create_campaign(self, channel_id: str, guild_id: str | None, creator_id: str,
                              record: dict) -> CampaignRow:
        now = time.time()
        try:
            rows = await self._fetch(
                "INSERT INTO campaigns (channel_id, guild_id, creator_id, record, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) RETURNING *", channel_id, guild_id, creator_id, json.dumps(record),
                now, now)
        except asyncpg.UniqueViolationError:
            raise StoreError(f"channel {channel_id} already has an active campaign") from None
        return campaign_row(rows[0])

    async def active_campaign(self, channel_id: str) -> CampaignRow | None:
        rows = await self._fetch("SELECT * FROM campaigns WHERE channel_id = $1 AND active = 1", channel_id)
        return campaign_row(rows[0]) if rows else None

    async def campaign_by_id(self, campaign_id: int) -> CampaignRow | None:
        rows = await self._fetch("SELECT * FROM campaigns WHERE id = $1", campaign_id)
        return campaign_row(rows[0]) if rows else None

    async def save_campaign(self, campaign_id: int, record: dict, active: bool = True):
        await self._write("UPDATE campaigns SET record = $1, active = $2, updated_at = $3 WHERE id = $4",
                          json.dumps(record), 1 if active else 0, time.time(), campaign_id)

    async def chapter_games(self, campaign_id: int) -> list[GameRow]:
        """The campaign's games that have ended (over or stopped), oldest first."""
        return await self._readable_ones(await self._fetch(
            "SELECT * FROM games WHERE campaign_id = $1 AND active = 0 ORDER BY id", campaign_id))

    # --- server settings and secret threads ---------------------------------------------

    async def guild_settings(self, guild_id: str) -> dict:
        """The server's settings (GUILD_DEFAULTS for those never set)."""
        rows = await self._fetch("SELECT * FROM guild_settings WHERE guild_id = $1", guild_id)
        return {**GUILD_DEFAULTS, **({k: rows[0][k] for k in GUILD_DEFAULTS} if rows else {})}

    async def set_guild_settings(self, guild_id: str, **values):
        unknown = set(values) - set(GUILD_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown server settings: {sorted(unknown)}")
        names = sorted(values)
        marks = ", ".join(f"${i}" for i in range(2, len(names) + 2))
        await self._write(
            f"INSERT INTO guild_settings (guild_id, {', '.join(names)}) VALUES ($1, {marks})"
            f" ON CONFLICT (guild_id) DO UPDATE SET {', '.join(f'{n} = excluded.{n}' for n in names)}",
            guild_id, *(values[n] for n in names))

    async def secret_thread(self, game_id: int, user_id: str) -> str | None:
        rows = await self._fetch("SELECT thread_id FROM secret_threads WHERE game_id = $1 AND user_id = $2",
                                 game_id, user_id)
        return rows[0]["thread_id"] if rows else None

    async def set_secret_thread(self, game_id: int, user_id: str, thread_id: str):
        await self._write("INSERT INTO secret_threads (game_id, user_id, thread_id) VALUES ($1, $2, $3)"
                          " ON CONFLICT (game_id, user_id) DO UPDATE SET thread_id = excluded.thread_id",
                          game_id, user_id, thread_id)


def _json(text: str | None):
    """A jsonb column as asyncpg hands it over (text), or None for SQL NULL."""
    return None if text is None else json.loads(text)
