"""The two stores, SQLite (a file, the default) and PostgreSQL (DATABASE_URL),
behave alike through the service: nothing lost on a restart, migrations run
once, a wrong-shaped game set aside. And what only PostgreSQL promises, for
several bot processes over one database: a timer fires once, and a process
holding an old copy of a game cannot overwrite the newer one."""
import asyncio
import json
import re

import asyncpg
import pytest

import bot.store
import bot.store.postgres
from bot.config import from_env
from bot.games.babg.engine import IllegalAction
from bot.service import SET_ASIDE, GameService
from bot.store import GameMovedOn, Store, StoreError, open_store
from bot.store.postgres import PostgresStore
from tests.pg import Server, free_port, new_database, postgres_bin, postgres_server, postgres_url  # noqa: F401
from tests.test_store_faults import end_turn, hand_over, restarted, seat_three


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path) -> str:
    """A new, empty game database of each kind: a file's path or a URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return new_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def pg_database(postgres_server) -> str:
    return new_database(postgres_server)


async def query(store, sql: str, *args) -> list[tuple]:
    """SQL (with $1, $2... placeholders) on the store's own connection, past its methods."""
    if isinstance(store, Store):
        async with store.db.execute(re.sub(r"\$(\d+)", r"?\1", sql), args) as cur:
            return [tuple(r) for r in await cur.fetchall()]
    return [tuple(r) for r in await store.pool.fetch(sql, *args)]


def latest_migration(store) -> int:
    folder = bot.store.postgres.MIGRATIONS if isinstance(store, PostgresStore) else bot.store.MIGRATIONS
    return max(int(p.name.split("_", 1)[0]) for p in folder.glob("*.sql"))


# --- alike on both -------------------------------------------------------------------


async def test_a_game_survives_a_restart_and_its_log_replays(database, engine):
    svc = await GameService.open(database, engine)
    out = await seat_three(svc, "a")
    for step in (end_turn, end_turn, hand_over, end_turn):
        out = await svc.act("a", step(out.state))
    game = await svc.active_game("a")
    played = {"state": game.state, "actions": await svc.actions(game), "seq": game.seq,
              "log": await svc.log_lines(game, "all", limit=100)}
    await svc.close()  # the bot stops here

    svc = await GameService.open(database, engine)  # and starts again
    again = await svc.active_game("a")
    assert again.state == played["state"]
    assert await svc.actions(again) == played["actions"]
    assert again.seq in (played["seq"], None)  # SQLite counts it on the next action
    assert await svc.log_lines(again, "all", limit=100) == played["log"]
    assert engine.replay(again.seed, played["actions"])[0] == again.state

    out = await svc.act("a", end_turn(again.state))  # and play goes on from there
    assert out.seq == played["seq"] + 1
    assert engine.replay(again.seed, await svc.actions(again))[0] == out.state
    await svc.close()


async def test_migrations_run_once_to_the_latest_version(database):
    store = await open_store(database)
    assert isinstance(store, PostgresStore if database.startswith("postgresql://") else Store)
    latest = latest_migration(store)
    assert await store.schema_version() == latest
    await store.migrate()
    await store.close()
    store = await open_store(database)  # a restart migrates nothing
    assert await store.schema_version() == latest
    assert await query(store, "SELECT version FROM schema_version ORDER BY version") == \
        [(v,) for v in range(1, latest + 1)]
    await store.close()


async def test_an_action_is_recorded_whole_its_events_in_order_and_its_timers_in_place(database, engine):
    """PostgreSQL writes an action in one statement: the state, the action,
    every event in the order made and the game's timers, or, when the game
    moved on, nothing at all (SQLite, in one transaction, alike)."""
    svc = await GameService.open(database, engine)
    await seat_three(svc, "a")
    game = await svc.active_game("a")
    store, before = svc.store, game.seq
    events = [{"to": "all", "text": f"event {i}"} for i in range(5)] + [{"to": "u2", "text": "a secret"}]
    timers = [("reminder", "u2", 2, 50.0), ("deadline", "u2", 2, 90.0)]
    await store.record(game, end_turn(game.state), game.state, events, timers=timers)
    assert game.seq == before + 1
    written_order = "id" if isinstance(store, PostgresStore) else "rowid"
    assert await query(store, "SELECT audience, text FROM events WHERE game_id = $1 AND seq = $2 "
                       f"ORDER BY {written_order}", game.id, game.seq) == [(e["to"], e["text"]) for e in events]
    assert await query(store, "SELECT kind, user_id, turn, due_at FROM timers WHERE game_id = $1 ORDER BY due_at",
                       game.id) == timers
    assert await query(store, "SELECT seq FROM actions WHERE game_id = $1 ORDER BY seq DESC LIMIT 1",
                       game.id) == [(game.seq,)]

    later = [("reminder", "u3", 3, 70.0)]
    await store.record(game, end_turn(game.state), game.state, [], timers=later)  # replaced, not added to
    assert await query(store, "SELECT kind, user_id, turn, due_at FROM timers WHERE game_id = $1", game.id) == later
    await store.record(game, end_turn(game.state), game.state, [])  # none given: those in place stay
    assert await query(store, "SELECT kind FROM timers WHERE game_id = $1", game.id) == [("reminder",)]

    if isinstance(store, PostgresStore):  # an old copy of the game: refused, and nothing of it written
        counts = "SELECT (SELECT COUNT(*) FROM actions), (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM timers)"
        written = await query(store, counts)
        stale = await store.game_by_id(game.id)
        stale.seq -= 1
        with pytest.raises(GameMovedOn):
            await store.record(stale, end_turn(game.state), game.state, events, timers=timers)
        assert await query(store, counts) == written

    await store.record(game, end_turn(game.state), {**game.state, "phase": "over"}, [], finished=True)
    assert await query(store, "SELECT kind FROM timers WHERE game_id = $1", game.id) == [], "an ended game has none"
    await svc.close()


@pytest.mark.parametrize("wrong", [
    "{not json",
    json.dumps({"name": "not a game at all"}),
    "players a list",
], ids=["not json", "another object", "players a list"])
async def test_a_wrong_shaped_game_is_set_aside_and_its_channel_goes_on(database, engine, wrong):
    svc = await GameService.open(database, engine)
    store = svc.store
    await seat_three(svc, "a")
    await seat_three(svc, "b")
    game = await store.active_game("a")
    if wrong == "players a list":
        wrong = json.dumps({**game.state, "players": []})
    await store.replace_timers(game.id, [("reminder", "u1", 1, 10.0)])
    await query(store, "UPDATE games SET state = $1 WHERE id = $2", wrong, game.id)
    svc = restarted(svc)

    with pytest.raises(IllegalAction) as told:
        await svc.act("a", end_turn(game.state))
    assert told.value.reason == SET_ASIDE
    assert await query(store, "SELECT state, active FROM games WHERE id = $1", game.id) == \
        [(wrong, bot.store.SET_ASIDE)], "kept for inspection, out of play"
    assert await store.due_timers(100.0) == []
    assert await store.latest_game("a") is None and await store.game_by_id(game.id) is None
    with pytest.raises(IllegalAction, match="no game"):  # told once; then the channel has no game
        await svc.end("a", "u1", can_manage=True)
    await svc.new_game("a", "g1", "u1", seed=3)
    assert sorted(g.channel_id for g in await svc.active_games()) == ["a", "b"]
    await svc.close()


async def what_the_store_answers(svc: GameService) -> dict:
    """The same moves on either store, and every reading of it the service makes."""
    store = svc.store
    out = await seat_three(svc, "a")
    out = await svc.act("a", end_turn(out.state))
    out = await svc.act("a", hand_over(out.state))
    game = await svc.active_game("a")
    answers = {"private": await svc.undelivered(game)}
    await svc.delivered(game, out.seq)
    answers["after delivery"] = await svc.undelivered(game)
    answers["votes"] = [await store.add_skip_vote(game.id, 2, v) for v in ("u1", "u1", "u2")]
    await store.replace_timers(game.id, [("reminder", "u2", 2, 5.0), ("deadline", "u2", 2, 3.0)])
    answers["due"] = await store.due_timers(4.0)
    for timer in answers["due"]:
        await store.delete_timer(timer["id"])
    answers["due later"] = await store.due_timers(10.0)
    await svc.set_summary_message(game, "m1")
    answers["guild before"] = await store.guild_settings("g1")
    await svc.set_secrets_place("g1", "threads")
    answers["guild after"] = await store.guild_settings("g1")
    await svc.remember_secret_thread(game, "u1", "t1")
    await svc.remember_secret_thread(game, "u1", "t2")
    answers["thread"] = [await svc.secret_thread(game, "u1"), await svc.secret_thread(game, "u9")]
    answers["log"] = await svc.log_lines(game, "u3", limit=50)

    await svc.end("a", "u1", can_manage=True)
    out = await seat_three(svc, "b")
    over = {**out.state, "phase": "over", "haunt": {"number": 7, "traitors": [out.state["seats"][0]]},
            "result": {"winner": "heroes", "reason": "haunt_won"}}
    await svc.overwrite_state(await svc.active_game("b"), over)
    await svc.new_game("c", "g1", "u1", seed=4)  # a lobby: neither finished nor in the records
    first = await store.latest_game("a")
    answers.update(
        latest=(first.id, first.active, first.summary_message_id, first.delivered),
        finished=[g.id for g in await store.finished_games("g1")],
        elsewhere=await store.finished_games("g2"),
        haunts=await store.played_haunts("g1"),
        records=await store.finished_records("g1"),
        stats=await svc.stats("g1", "u1"),
        active=sorted(g.channel_id for g in await store.active_games()),
        by_id=[(await store.game_by_id(i)).state["phase"] for i in (1, 2, 3)])
    return answers


async def test_both_stores_answer_alike(tmp_path, engine, pg_database):
    found = {}
    for database in (str(tmp_path / "games.db"), pg_database):
        svc = await GameService.open(database, engine, clock=Clock())
        svc.fixed_seed = 11
        found[type(svc.store).__name__] = await what_the_store_answers(svc)
        await svc.close()
    assert found["Store"] == found["PostgresStore"]


def test_database_url_chooses_postgres():
    url = "postgresql://bot:pw@db:5432/games"
    assert from_env({"DATABASE_URL": url}).database == url
    assert from_env({"DATA_DIR": "/data"}).database == "/data/games.db"


async def test_an_unreachable_server_is_told_in_one_line_without_the_password():
    port = free_port()  # nothing listens there
    with pytest.raises(StoreError) as told:
        await GameService.check_database(f"postgresql://bot:s3cret-pw@127.0.0.1:{port}/games")
    message = str(told.value)
    assert f"PostgreSQL at 127.0.0.1:{port} is not reachable" in message
    assert "\n" not in message and "s3cret-pw" not in message


async def test_a_missing_database_is_told_in_one_line_without_the_password(postgres_url):
    url = postgres_url.rsplit("/", 1)[0].replace("postgres@", "postgres:s3cret-pw@") + "/no_such_database"
    with pytest.raises(StoreError) as told:
        await GameService.open(url, None)
    message = str(told.value)
    assert "cannot be used" in message and "no_such_database" in message
    assert "\n" not in message and "s3cret-pw" not in message


# --- several processes over one PostgreSQL database ----------------------------------------


async def test_processes_starting_together_migrate_once(pg_database):
    stores = await asyncio.gather(*(open_store(pg_database) for _ in range(3)))
    scripts = [(int(path.name.split("_", 1)[0]),) for path in sorted(bot.store.postgres.MIGRATIONS.glob("*.sql"))]
    assert len(scripts) >= 4
    assert await query(stores[0], "SELECT version FROM schema_version ORDER BY version") == scripts
    for store in stores:
        await store.close()


async def test_an_interaction_is_claimed_by_one_process_alone(pg_database):
    """Discord sends an interaction to each connection of its shard (two in
    a rolling restart): the first process to claim it handles it."""
    stores = await asyncio.gather(*(open_store(pg_database) for _ in range(2)))
    won = await asyncio.gather(*(store.claim_interaction(7001, 100.0) for store in stores))
    assert sorted(won) == [False, True]
    assert await stores[0].claim_interaction(7002, 200.0) and not await stores[1].claim_interaction(7002, 201.0)
    await stores[1].forget_claims(before=150.0)  # past Discord's 15 minutes: of no more use
    assert await query(stores[0], "SELECT id FROM interaction_claims ORDER BY id") == [(7002,)]
    for store in stores:
        await store.close()


async def test_a_migration_failing_half_way_is_undone(pg_database, tmp_path, monkeypatch):
    monkeypatch.setattr(bot.store.postgres, "MIGRATIONS", tmp_path)
    (tmp_path / "001_first.sql").write_text("CREATE TABLE first (x INTEGER);")
    (tmp_path / "002_second.sql").write_text("CREATE TABLE second (x INTEGER);\nSELECT 1 / 0;")
    with pytest.raises(StoreError, match="could not be migrated: division by zero"):
        await open_store(pg_database)
    db = await asyncpg.connect(pg_database)
    try:
        assert await db.fetchval("SELECT MAX(version) FROM schema_version") == 1
        assert await db.fetchval("SELECT to_regclass('second')") is None, "none of the failed script is left"
    finally:
        await db.close()
    (tmp_path / "002_second.sql").write_text("CREATE TABLE second (x INTEGER);")
    store = await open_store(pg_database)  # mended: it runs again, whole
    assert await store.schema_version() == 2
    await store.close()


async def test_a_due_timer_fires_once_when_two_processes_poll_together(pg_database, engine):
    first = await GameService.open(pg_database, engine, clock=Clock())
    second = await GameService.open(pg_database, engine, clock=Clock())
    for channel in ("a", "b", "c"):
        await seat_three(first, channel)
    timers = await query(first.store, "SELECT id FROM timers")
    assert len(timers) == 6  # each game: a reminder and a deadline for whoever must act
    first.clock.now = second.clock.now = 2_000_000.0
    fired = [t["id"] for found in await asyncio.gather(first.due_timers(), second.due_timers()) for t, _ in found]
    assert sorted(fired) == sorted(t for (t,) in timers)
    assert await first.due_timers() == await second.due_timers() == []
    await first.close()
    await second.close()


async def test_a_process_with_an_old_copy_of_a_game_cannot_overwrite_it(pg_database, engine):
    first = await GameService.open(pg_database, engine)
    second = await GameService.open(pg_database, engine)
    await seat_three(first, "a")
    stale = await second.active_game("a")  # the second process reads the game ...
    newer = await first.act("a", end_turn(stale.state))  # ... and the first one moves it on

    with pytest.raises(GameMovedOn, match="moved on in another process"):  # the store writes nothing over it
        await second.store.record(stale, end_turn(stale.state), newer.state, [])
    game = await first.active_game("a")
    assert (await first.store.active_game("a")).state == newer.state, "the newer state stands"
    assert engine.replay(game.seed, await first.actions(game))[0] == newer.state

    # Through the service, the second process reads the game again and tries the action against it: here
    # refused, that turn being over; then it plays on from the game as it stands.
    second.playing["a"] = stale
    with pytest.raises(IllegalAction, match="turn"):
        await second.act("a", end_turn(stale.state))
    out = await second.act("a", end_turn(newer.state))
    assert out.seq == newer.seq + 1
    assert engine.replay(game.seed, await second.actions(game))[0] == out.state
    await first.close()
    await second.store.close()


async def test_a_refusal_is_never_made_against_an_old_copy_of_the_game(pg_database, engine):
    """In a rolling restart both processes keep the game: the one that did
    not record the last action would refuse the next player ("not your
    turn") from its old copy. It reads the game again first."""
    first = await GameService.open(pg_database, engine)
    second = await GameService.open(pg_database, engine)
    await seat_three(first, "a")
    stale = await second.active_game("a")  # kept by the second process
    newer = await first.act("a", end_turn(stale.state))  # the first one moves the game on
    assert newer.state["turn"]["player"] != stale.state["turn"]["player"]
    out = await second.act("a", end_turn(newer.state))  # the new turn's player, to the second process
    assert out.seq == newer.seq + 1
    with pytest.raises(IllegalAction, match="turn"):  # a refusal against the game as it stands still comes
        await second.act("a", end_turn(newer.state))
    await first.close()
    await second.close()


async def test_postgresql_restarting_mid_play_fails_the_action_cleanly_and_the_bot_goes_on(engine):
    # A server of its own: this one is stopped and started again in the middle of play.
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL's binaries not found")
    server = Server(bin_dir)
    await asyncio.to_thread(server.start)
    try:
        url = await asyncio.to_thread(new_database, server)
        svc = await GameService.open(url, engine)
        await seat_three(svc, "a")
        game = await svc.active_game("a")
        before = game.state
        await asyncio.to_thread(server.run, "pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop")
        with pytest.raises(StoreError, match="not answering just now|not reachable") as told:
            await svc.act("a", end_turn(before))
        assert "\n" not in str(told.value)
        await asyncio.to_thread(server.run, "pg_ctl", "-D", str(server.data), "-l", str(server.folder / "server.log"),
                                "-w", "-t", "60", "-o", f"-F -p {server.port} -h 127.0.0.1 -k {server.folder}",
                                "start")
        assert (await svc.active_game("a")).state == before, "nothing of the failed action stays"
        out = await svc.act("a", end_turn(before))  # the pool connects again by itself
        replayed, _ = engine.replay(game.seed, await svc.actions(game))
        assert replayed == out.state
        await svc.close()
    finally:
        await asyncio.to_thread(server.stop)
