"""Where games live: one SQLite file (WAL), schema versions migrated at
start-up. Every action is committed before the bot answers."""
import asyncio
import functools
import json
import pathlib
import time
from dataclasses import dataclass

import aiosqlite

MIGRATIONS = pathlib.Path(__file__).with_name("migrations")


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

    async def open(self):
        pathlib.Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = await aiosqlite.connect(self.path)
        self.db.row_factory = aiosqlite.Row
        await self.db.execute("PRAGMA journal_mode=WAL")
        await self.db.execute("PRAGMA synchronous=NORMAL")
        await self.db.execute("PRAGMA foreign_keys=ON")
        await self.migrate()
        return self

    async def close(self):
        if self.db:
            await self.db.close()
            self.db = None

    async def migrate(self):
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            current = (await cur.fetchone())[0] or 0
        for path in sorted(MIGRATIONS.glob("*.sql")):
            version = int(path.name.split("_", 1)[0])
            if version > current:
                await self.db.executescript(path.read_text())
                await self.db.execute("INSERT INTO schema_version VALUES (?)", (version,))
        await self.db.commit()

    @serialized
    async def schema_version(self) -> int:
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            return (await cur.fetchone())[0]

    # --- games ------------------------------------------------------------------

    @serialized
    async def create_game(self, channel_id, guild_id, creator_id, seed, state, settings) -> GameRow:
        now = time.time()
        cur = await self.db.execute(
            "INSERT INTO games (channel_id, guild_id, creator_id, seed, state, settings, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (channel_id, guild_id, creator_id, seed, json.dumps(state), json.dumps(settings), now, now))
        await self.db.commit()
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (cur.lastrowid,)) as found:
            return _game(await found.fetchone())

    @serialized
    async def active_game(self, channel_id: str) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE channel_id = ? AND active = 1", (channel_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    @serialized
    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The channel's active game, else its most recent one (for looking
        back at a finished game: its log, map, sheets and secrets)."""
        async with self.db.execute("SELECT * FROM games WHERE channel_id = ? ORDER BY active DESC, id DESC LIMIT 1",
                                   (channel_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    @serialized
    async def game_by_id(self, game_id: int) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    @serialized
    async def active_games(self) -> list[GameRow]:
        async with self.db.execute("SELECT * FROM games WHERE active = 1") as cur:
            return [_game(r) for r in await cur.fetchall()]

    @serialized
    async def record(self, game: GameRow, action: dict, state: dict, events: list[dict]):
        """Commit one action, the state after it and its events, together."""
        now = time.time()
        async with self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game.id,)) as cur:
            seq = (await cur.fetchone())[0] + 1
        await self.db.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                              (game.id, seq, json.dumps(action), now))
        await self.db.execute("UPDATE games SET state = ?, updated_at = ? WHERE id = ?",
                              (json.dumps(state), now, game.id))
        await self.db.executemany(
            "INSERT INTO events (game_id, seq, audience, text, at) VALUES (?, ?, ?, ?, ?)",
            [(game.id, seq, e["to"], e["text"], now) for e in events])
        await self.db.commit()
        game.state = state

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
    async def set_summary_message(self, game_id: int, message_id: str | None):
        await self.db.execute("UPDATE games SET summary_message_id = ? WHERE id = ?", (message_id, game_id))
        await self.db.commit()

    @serialized
    async def set_settings(self, game_id: int, settings: dict):
        await self.db.execute("UPDATE games SET settings = ? WHERE id = ?", (json.dumps(settings), game_id))
        await self.db.commit()

    @serialized
    async def finish(self, game_id: int):
        await self.db.execute("UPDATE games SET active = 0 WHERE id = ?", (game_id,))
        await self.db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        await self.db.commit()

    # --- timers and votes -----------------------------------------------------------

    @serialized
    async def replace_timers(self, game_id: int, timers: list[tuple[str, str, int, float]]):
        await self.db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        await self.db.executemany("INSERT INTO timers (game_id, kind, user_id, turn, due_at) VALUES (?, ?, ?, ?, ?)",
                                  [(game_id, *t) for t in timers])
        await self.db.commit()

    @serialized
    async def due_timers(self, now: float) -> list[dict]:
        async with self.db.execute("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at", (now,)) as cur:
            return [dict(r) for r in await cur.fetchall()]

    @serialized
    async def delete_timer(self, timer_id: int):
        await self.db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))
        await self.db.commit()

    @serialized
    async def add_skip_vote(self, game_id: int, turn: int, voter: str) -> int:
        await self.db.execute("INSERT OR IGNORE INTO skip_votes VALUES (?, ?, ?)", (game_id, turn, voter))
        await self.db.commit()
        async with self.db.execute("SELECT COUNT(*) FROM skip_votes WHERE game_id = ? AND turn = ?",
                                   (game_id, turn)) as cur:
            return (await cur.fetchone())[0]


def _game(row) -> GameRow:
    return GameRow(id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"], creator_id=row["creator_id"],
                   seed=row["seed"], state=json.loads(row["state"]), settings=json.loads(row["settings"]),
                   summary_message_id=row["summary_message_id"], active=bool(row["active"]))
