"""The store under faults: an action is committed whole or not at all, a
migration with its version row, a database the bot cannot use stops it at
start-up with a clear message, and one unreadable game is set aside without
breaking its channel."""
import asyncio
import json
import os
import shutil
import sqlite3
import subprocess
import sys

import aiosqlite
import pytest
from aiosqlite.context import Result

import bot.store
from bot.config import Config
from bot.games.babg.engine import IllegalAction
from bot.games.babg.engine.legal import actor
from bot.service import SET_ASIDE, GameService
from bot.store import Store, StoreError, statements
from tests.conftest import arrange_hidden_traitor_reveal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Faults:
    """Makes the Nth statement on the store's connection fail, as a full disk
    or an I/O error would, before the statement runs; statements starting
    with one of `broken` fail every time. Statements reach the database
    through the connection's execute/executemany, or, in a group commit,
    through Store.statement on the database thread."""

    def __init__(self, monkeypatch, store: Store):
        self.fail_at = 0
        self.calls = 0
        self.prefix = ""
        self.broken: tuple[str, ...] = ()
        self.failed: str | None = None
        for name in ("execute", "executemany"):
            monkeypatch.setattr(store.db, name, self._wrap(getattr(store.db, name)))
        statement = store.statement

        def faulty(db, sql, *args, **kwargs):
            if self._fails(sql):
                raise sqlite3.OperationalError(f"injected fault before: {sql.split()[0]}")
            return statement(db, sql, *args, **kwargs)
        monkeypatch.setattr(store, "statement", faulty)

    def _fails(self, sql: str) -> bool:
        self.calls += sql.startswith(self.prefix)
        if self.calls == self.fail_at:
            self.fail_at, self.failed = 0, sql
            return True
        return bool(self.broken) and sql.startswith(self.broken)

    def arm(self, n: int, prefix: str = ""):
        """Fail the nth call from now (counting only statements starting with prefix)."""
        self.fail_at, self.calls, self.prefix, self.failed = n, 0, prefix, None

    def disarm(self):
        self.fail_at, self.broken = 0, ()

    def _wrap(self, original):
        def call(sql, *args, **kwargs):
            if self._fails(sql):
                return Result(_raise(sql))
            return original(sql, *args, **kwargs)
        return call


async def _raise(sql: str):
    raise sqlite3.OperationalError(f"injected fault before: {sql.split()[0]}")


def committed(path: str, game_id: int) -> dict:
    """What another connection sees of a game: only what was committed."""
    with sqlite3.connect(path) as db:
        state, active = db.execute("SELECT state, active FROM games WHERE id = ?", (game_id,)).fetchone()
        return {"state": json.loads(state), "active": active,
                "actions": [json.loads(a) for (a,) in
                            db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))],
                "events": db.execute("SELECT seq, audience, text FROM events WHERE game_id = ? ORDER BY rowid",
                                     (game_id,)).fetchall()}


async def seat_three(svc, channel):
    await svc.new_game(channel, "g1", "u1", seed=5)
    for uid, adv in (("u1", "torskar"), ("u2", "lia"), ("u3", "gretchen")):
        await svc.act(channel, {"type": "join", "player": uid, "name": uid.upper(), "adventurer": adv})
    return await svc.act(channel, {"type": "start", "player": "u1"})


@pytest.fixture
async def two_games(tmp_path, engine):
    """A service with a started game in channels a and b."""
    path = str(tmp_path / "games.db")
    store = await Store(path).open()
    svc = GameService(store, engine)
    await seat_three(svc, "a")
    await seat_three(svc, "b")
    yield svc, path
    await store.close()


def restarted(svc: GameService) -> GameService:
    """The service after a restart. A running service keeps each game in play
    in memory (and writes it whole with the next action), so a row damaged
    on disk is found when the game is read again: at a restart."""
    return GameService(svc.store, svc.engine)


def end_turn(state: dict) -> dict:
    return {"type": "end", "player": state["turn"]["player"]}


def hand_over(state: dict) -> dict:
    player = state["turn"]["player"]
    return {"type": "handover", "player": player, "to": player + "x", "name": "Newcomer"}


# --- an action: all of its rows or none ----------------------------------------------


@pytest.mark.parametrize("next_action", [end_turn, hand_over], ids=["end", "handover"])
async def test_a_fault_at_any_statement_of_an_action_commits_none_of_it(two_games, engine, monkeypatch,
                                                                        next_action):
    svc, path = two_games
    store = svc.store
    faults = Faults(monkeypatch, store)
    failures = []
    for n in range(1, 20):
        game, other = await store.active_game("a"), await store.active_game("b")
        action = next_action(game.state)
        state, events = engine.apply(game.state, action)
        rename = (action["player"], action["to"]) if action["type"] == "handover" else None
        before, saved = game.state, committed(path, game.id)
        faults.arm(n)
        try:
            await store.record(game, action, state, events, rename=rename)
        except sqlite3.OperationalError:
            faults.disarm()
            failures.append(faults.failed.split()[0])
            assert game.state is before, "the game in memory keeps its state when the write failed"
            assert not store.db.in_transaction
            assert committed(path, game.id) == saved, f"nothing of the action after a fault at {faults.failed}"
            # Another game's action commits only itself, never the failed one's leftovers.
            other_action = end_turn(other.state)
            await store.record(other, other_action, *engine.apply(other.state, other_action))
            assert committed(path, game.id) == saved
            await store.record(game, action, state, events, rename=rename)  # the retry goes through whole
        else:
            faults.disarm()
            assert faults.failed is None
            assert game.state == state  # (held as the text just written: see GameRow.park)
        now = committed(path, game.id)
        assert now["actions"] == saved["actions"] + [action]
        assert now["state"] == state
        assert len(now["events"]) == len(saved["events"]) + len(events)
        if faults.failed is None:
            break
    assert {"BEGIN", "SELECT", "INSERT", "UPDATE", "COMMIT"} <= set(failures), failures
    for channel in ("a", "b"):
        game = await store.active_game(channel)
        replayed, _ = engine.replay(game.seed, await store.actions(game.id))
        assert replayed == game.state == committed(path, game.id)["state"], "the log replays to the stored state"


@pytest.mark.parametrize("rollback_fails", [False, True])
async def test_a_failed_action_through_the_service_is_not_committed_by_another_channel(two_games, engine,
                                                                                       monkeypatch, rollback_fails):
    svc, path = two_games
    game = await svc.store.active_game("a")
    saved = committed(path, game.id)
    faults = Faults(monkeypatch, svc.store)
    faults.arm(1, prefix="UPDATE games SET state")  # the action's row is in, its state fails
    if rollback_fails:  # the transaction stays open on the shared connection
        faults.broken = ("ROLLBACK",)
    with pytest.raises(sqlite3.OperationalError):
        await svc.act("a", end_turn(game.state))
    assert faults.failed.startswith("UPDATE games SET state")
    faults.disarm()
    other = await svc.store.active_game("b")
    await svc.act("b", end_turn(other.state))
    assert committed(path, game.id) == saved
    again = await svc.act("a", end_turn(game.state))  # the player tries again, and it counts once
    assert committed(path, game.id)["actions"] == saved["actions"] + [end_turn(game.state)]
    replayed, _ = engine.replay(game.seed, await svc.store.actions(game.id))
    assert replayed == again.state


@pytest.mark.parametrize("n", [1, 2, 3, 4])
async def test_timers_are_replaced_whole_or_kept(two_games, monkeypatch, n):
    svc, path = two_games
    store = svc.store
    game = await store.active_game("a")
    await store.replace_timers(game.id, [("reminder", "u1", 1, 10.0), ("deadline", "u1", 1, 20.0)])
    faults = Faults(monkeypatch, store)
    faults.arm(n)  # BEGIN, DELETE, INSERT (executemany), COMMIT
    with pytest.raises(sqlite3.OperationalError):
        await store.replace_timers(game.id, [("reminder", "u2", 2, 30.0)])
    faults.disarm()
    assert [t["user_id"] for t in await store.due_timers(100.0)] == ["u1", "u1"]


async def test_a_transaction_left_open_is_rolled_back_not_committed(two_games):
    svc, path = two_games
    store = svc.store
    game = await store.active_game("a")
    await store.db.execute("BEGIN")
    await store.db.execute("UPDATE games SET state = '{}' WHERE id = ?", (game.id,))
    await store.set_settings(game.id, {"reminder_hours": 1.0})
    assert committed(path, game.id)["state"] == game.state
    assert (await store.active_game("a")).settings == {"reminder_hours": 1.0}


# --- migrations ----------------------------------------------------------------------


def test_a_kill_between_a_migration_and_its_version_row_leaves_nothing_behind(tmp_path):
    """The process dies after the script ran, before its version row: the next
    start runs the script again instead of failing on 'table games already exists'."""
    path = str(tmp_path / "games.db")
    killer = (
        "import asyncio, os, sys, aiosqlite\n"
        "from bot.store import Store\n"
        "execute = aiosqlite.Connection.execute\n"
        "def dying(self, sql, *args, **kwargs):\n"
        "    if sql.startswith('INSERT INTO schema_version'):\n"
        "        os._exit(9)\n"
        "    return execute(self, sql, *args, **kwargs)\n"
        "aiosqlite.Connection.execute = dying\n"
        "asyncio.run(Store(sys.argv[1]).open())\n")
    done = subprocess.run([sys.executable, "-c", killer, path], cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 9, done.stderr.decode()
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "games" not in tables, "the killed migration left no half-made schema"
    check_opens(path, version=len(list(bot.store.MIGRATIONS.glob("*.sql"))))  # every migration, once reopened


def check_opens(path: str, version: int):
    """Opening works (the test is synchronous: it waits for a subprocess)."""
    async def opened():
        store = await Store(path).open()
        try:
            assert await store.schema_version() == version
            assert await store.active_games() == []
        finally:
            await store.close()
    asyncio.run(opened())


async def test_a_migration_failing_half_way_is_undone_and_runs_again(tmp_path, monkeypatch):
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    shutil.copy(bot.store.MIGRATIONS / "001_games.sql", migrations)
    monkeypatch.setattr(bot.store, "MIGRATIONS", migrations)
    (migrations / "002_extra.sql").write_text("CREATE TABLE extra (x);\nINSERT INTO missing VALUES (1);\n")
    path = str(tmp_path / "games.db")
    with pytest.raises(StoreError, match="games.db"):
        await Store(path).open()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (1,)
        assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'extra'").fetchall()
    (migrations / "002_extra.sql").write_text("CREATE TABLE extra (x);\nINSERT INTO extra VALUES (1);\n")
    store = await Store(path).open()
    assert await store.schema_version() == 2
    await store.close()


def test_migration_scripts_split_into_statements():
    script = ("-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
              "CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END;\n-- trailing comment\n")
    assert statements(script) == ["-- a comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');",
                                  "CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END;"]
    with pytest.raises(ValueError, match="unfinished"):
        statements("CREATE TABLE t (x);\nCREATE TABLE u (y)")


# --- a database the bot cannot use ---------------------------------------------------


async def test_a_read_only_database_refuses_to_start(tmp_path, monkeypatch):
    path = tmp_path / "games.db"
    await (await Store(str(path)).open()).close()
    path.chmod(0o444)
    try:
        if os.access(path, os.W_OK):  # root writes whatever the mode says: open the file read-only instead
            connect = aiosqlite.connect
            monkeypatch.setattr(aiosqlite, "connect",
                                lambda p, **kw: connect(f"file:{p}?mode=ro", uri=True, **kw))
        with pytest.raises(StoreError) as refused:
            await Store(str(path)).open()
    finally:
        path.chmod(0o644)
    message = str(refused.value)
    assert str(path) in message and "read-only" in message


async def test_a_data_dir_that_cannot_be_made_refuses_to_start(tmp_path):
    (tmp_path / "taken").write_text("a file where the folder should be")
    with pytest.raises(StoreError, match="DATA_DIR") as refused:
        await Store(str(tmp_path / "taken" / "data" / "games.db")).open()
    assert str(tmp_path / "taken" / "data") in str(refused.value)


async def test_a_file_that_is_not_a_database_refuses_to_start(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"not a database at all " * 400)
    with pytest.raises(StoreError, match="damaged") as refused:
        await Store(str(path)).open()
    assert str(path) in str(refused.value)


async def test_a_damaged_database_fails_its_integrity_check(tmp_path):
    path = tmp_path / "games.db"
    await (await Store(str(path)).open()).close()
    with sqlite3.connect(path) as db:  # enough pages to damage one in the middle
        db.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, x TEXT)")
        db.executemany("INSERT INTO filler (x) VALUES (?)", [(f"row {i} " * 5,) for i in range(2000)])
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = path.stat().st_size // page_size
    with open(path, "r+b") as f:
        f.seek((pages * 3 // 4) * page_size + 100)
        f.write(bytes((i * 37) % 256 for i in range(200)))
    with pytest.raises(StoreError, match="damaged") as refused:
        await Store(str(path)).open()
    assert str(path) in str(refused.value)


@pytest.mark.parametrize("step", ["_check_integrity", "_check_writable", "migrate"])
async def test_a_failed_open_closes_its_connection(tmp_path, monkeypatch, step):
    opened = []
    connect = aiosqlite.connect

    def recording(*args, **kwargs):
        opened.append(connect(*args, **kwargs))
        return opened[-1]

    async def failing(self):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(aiosqlite, "connect", recording)
    monkeypatch.setattr(Store, step, failing)
    store = Store(str(tmp_path / "games.db"))
    with pytest.raises(StoreError, match="disk I/O error"):
        await store.open()
    assert store.db is None
    assert len(opened) == 1 and opened[0]._connection is None, "the connection was closed"
    opened[0]._thread.join(timeout=5)
    assert not opened[0]._thread.is_alive()


def test_the_bot_exits_with_a_clear_message_when_the_store_refuses(tmp_path, caplog):
    from bot.discord.client import run
    (tmp_path / "taken").write_text("")
    config = Config(token="not-used", data_dir=str(tmp_path / "taken" / "data"), dev_guild_id=None,
                    poll_seconds=60)
    with pytest.raises(SystemExit) as stopped:
        run(config)
    assert stopped.value.code == 1
    assert f"{tmp_path / 'taken' / 'data'} cannot be created" in caplog.text


# --- a game row that cannot be read --------------------------------------------------


@pytest.mark.parametrize("column", ["state", "settings"])
async def test_an_unreadable_game_is_set_aside_and_its_channel_goes_on(two_games, column):
    svc, path = two_games
    store = svc.store
    game = await store.active_game("a")
    await store.replace_timers(game.id, [("reminder", "u1", 1, 10.0)])
    await store.db.execute(f"UPDATE games SET {column} = '{{not json' WHERE id = ?", (game.id,))
    svc = restarted(svc)

    with pytest.raises(IllegalAction) as told:
        await svc.act("a", end_turn(game.state))
    assert told.value.reason == SET_ASIDE
    with sqlite3.connect(path) as db:
        kept = db.execute(f"SELECT {column}, active FROM games WHERE id = ?", (game.id,)).fetchone()
    assert kept == ("{not json", bot.store.SET_ASIDE), "kept for inspection, out of play"
    assert await store.due_timers(100.0) == []
    # Told once; then the channel has no game, and a new one starts.
    with pytest.raises(IllegalAction, match="no game"):
        await svc.end("a", "u1", can_manage=True)
    assert await store.latest_game("a") is None
    assert await store.game_by_id(game.id) is None
    new = await svc.new_game("a", "g1", "u1", seed=3)
    assert (await store.latest_game("a")).id == new.id
    await svc.end("a", "u1", can_manage=False)
    assert [g.channel_id for g in await store.active_games()] == ["b"]


async def test_reading_functions_never_raise_on_a_bad_row(two_games):
    svc, path = two_games
    store = svc.store
    game = await store.active_game("a")
    await store.db.execute("UPDATE games SET state = '[1, 2' WHERE id = ?", (game.id,))
    svc = restarted(svc)
    assert [g.channel_id for g in await store.active_games()] == ["b"]  # e.g. the timer poll found it first
    assert await store.active_game("a") is None
    assert await store.latest_game("a") is None
    assert await store.game_by_id(game.id) is None
    with pytest.raises(IllegalAction) as told:  # the channel is still told, once
        await svc.end("a", "u1", can_manage=True)
    assert told.value.reason == SET_ASIDE
    await svc.new_game("a", "g1", "u1", seed=3)


async def test_an_unreadable_finished_game_gives_way_to_the_previous_one(two_games):
    svc, path = two_games
    store = svc.store
    first = await store.active_game("a")
    await svc.end("a", "u1", can_manage=True)
    second = await svc.new_game("a", "g1", "u1", seed=3)
    await svc.end("a", "u1", can_manage=True)
    await store.db.execute("UPDATE games SET state = 'null' WHERE id = ?", (second.id,))
    assert (await store.latest_game("a")).id == first.id
    with pytest.raises(IllegalAction, match="no game"):  # a finished game set aside: nothing to tell
        await svc.end("a", "u1", can_manage=True)


# --- handing a seat over -------------------------------------------------------------


async def test_a_handed_over_seat_takes_its_secrets_along(two_games):
    svc, path = two_games
    store = svc.store
    game = await store.active_game("a")
    s = game.state
    pid = arrange_hidden_traitor_reveal(s)
    await store.db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(s), game.id))
    svc = restarted(svc)  # reads the arranged state
    out = await svc.act("a", {"type": "end", "player": pid})
    secrets = {e["to"]: e["text"] for e in out.events if e["kind"] == "secret"}
    assert len(secrets) == 3, out.events
    old = next(p for p, text in secrets.items() if "You are the hidden traitor" in text)

    await svc.act("a", {"type": "handover", "player": old, "to": "u9", "name": "U9"})
    assert secrets[old] in await store.recent_events(game.id, ["u9"], limit=80), "the new holder reads them"
    assert await store.recent_events(game.id, [old], limit=80) == [], "the old holder no longer does"
    others = [p for p in secrets if p != old]
    for p in others:
        assert secrets[p] in await store.recent_events(game.id, [p], limit=80)
    if actor((await store.active_game("a")).state) == "u9":
        assert {t["user_id"] for t in await store.due_timers(float("inf"))} <= {"u9"}


# --- a group commit: the actions of several games in one transaction ------------------


async def test_actions_of_several_games_share_one_commit_and_a_fault_is_retried_alone(two_games, engine, monkeypatch):
    svc, path = two_games
    store = svc.store
    games = [await store.active_game("a"), await store.active_game("b")]
    begins = []
    statement = store.statement

    def counting(db, sql, *args, **kwargs):
        begins.extend([sql] if sql.startswith("BEGIN") else [])
        return statement(db, sql, *args, **kwargs)
    monkeypatch.setattr(store, "statement", counting)

    def next_actions():
        return [(g, end_turn(g.state), *engine.apply(g.state, end_turn(g.state))) for g in games]

    moves = next_actions()
    await asyncio.gather(*(store.record(g, action, state, events) for g, action, state, events in moves))
    assert len(begins) == 1, "two games' actions arriving together are committed in one transaction"
    for g, action, state, _ in moves:
        assert g.state == state and committed(path, g.id)["state"] == state
        assert committed(path, g.id)["actions"][-1] == action

    # A fault that strikes the shared commit is rolled back, and each game commits again on its own
    # (one game's fault fails that game alone: tests/test_store_isolation.py).
    faults = Faults(monkeypatch, store)
    faults.arm(1, prefix="INSERT INTO events")
    moves = next_actions()
    begins.clear()
    await asyncio.gather(*(store.record(g, action, state, events) for g, action, state, events in moves))
    faults.disarm()
    assert len(begins) == 3, "the shared commit, then one for each game"
    for g, action, state, _ in moves:  # each counts once, and the log still replays to the state
        assert committed(path, g.id)["actions"][-1] == action
        replayed, _ = engine.replay(g.seed, await store.actions(g.id))
        assert replayed == g.state == state == committed(path, g.id)["state"]
