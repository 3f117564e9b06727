"""One game's fault stays with that game: a group commit that fails is
committed again game by game, so the other channels' actions go through;
and a saved game of the wrong shape is set aside like an unreadable one."""
import asyncio
import json
import sqlite3

import pytest

import bot.store
from bot.games.babg.engine import IllegalAction
from bot.service import SET_ASIDE, GameService
from bot.store import Store
from tests.test_store_faults import Faults, committed, end_turn, restarted, seat_three

CHANNELS = ("a", "b", "c")


@pytest.fixture
async def three_games(tmp_path, engine):
    """A service with a started game in channels a, b and c."""
    path = str(tmp_path / "games.db")
    store = await Store(path).open()
    svc = GameService(store, engine)
    for channel in CHANNELS:
        await seat_three(svc, channel)
    yield svc, path
    await store.close()


async def break_row(store: Store, game_id: int):
    """Every write of that game's state fails, as a fault in its row would
    (a trigger on the store's own connection; other games write as usual)."""
    await store.db.execute(f"CREATE TEMP TRIGGER faulty BEFORE UPDATE OF state ON games WHEN NEW.id = {game_id}"
                           " BEGIN SELECT RAISE(ABORT, 'injected write fault'); END")


def commits(monkeypatch, store: Store) -> list[set[int]]:
    """The games of each commit the store attempts, in order."""
    seen = []
    commit = store._commit

    async def recording(batch):
        seen.append({w.game.id for w in batch})
        return await commit(batch)
    monkeypatch.setattr(store, "_commit", recording)
    return seen


# --- a write fault in one game's row ---------------------------------------------------


@pytest.mark.parametrize("faulty", CHANNELS)
async def test_a_write_fault_in_one_game_fails_that_game_alone(three_games, engine, monkeypatch, faulty):
    svc, path = three_games
    store = svc.store
    games = {c: await svc.active_game(c) for c in CHANNELS}  # the rows the service keeps and moves on
    saved = {c: committed(path, g.id) for c, g in games.items()}
    before = games[faulty].state
    await break_row(store, games[faulty].id)
    seen = commits(monkeypatch, store)

    results = await asyncio.gather(*(svc.act(c, end_turn(games[c].state)) for c in CHANNELS),
                                   return_exceptions=True)
    assert seen[0] == {g.id for g in games.values()}, "the three actions were committed together first"
    for channel, result in zip(CHANNELS, results):
        game = games[channel]
        if channel == faulty:
            assert isinstance(result, sqlite3.Error) and "injected write fault" in str(result), result
            assert committed(path, game.id) == saved[channel], "nothing of the refused action is written"
            assert game.state is before, "the game in memory keeps its state"
        else:
            assert not isinstance(result, BaseException), f"{channel} was refused for {faulty}'s fault: {result!r}"
            now = committed(path, game.id)
            assert now["actions"] == saved[channel]["actions"] + [end_turn(saved[channel]["state"])]
            assert now["state"] == result.state == game.state
            assert result.seq == len(now["actions"])

    await store.db.execute("DROP TRIGGER faulty")  # mended: the player tries again, and it counts once
    await svc.act(faulty, end_turn(before))
    for channel, game in games.items():
        now = committed(path, game.id)
        assert len(now["actions"]) == len(saved[channel]["actions"]) + 1
        replayed, _ = engine.replay(game.seed, await store.actions(game.id))
        assert replayed == game.state == now["state"], "the log replays to the stored state"


async def test_a_games_actions_stay_together_when_a_group_commit_is_split(three_games, engine):
    """Two actions of one game in a failed group commit are committed again
    together and in order (the second follows from the first)."""
    svc, path = three_games
    store = svc.store
    a, b = await store.active_game("a"), await store.active_game("b")
    saved_b = committed(path, b.id)
    first = end_turn(a.state)
    after_first, first_events = engine.apply(a.state, first)
    second = end_turn(after_first)
    after_second, second_events = engine.apply(after_first, second)
    await break_row(store, b.id)
    results = await asyncio.gather(
        store.record(a, first, after_first, first_events),
        store.record(a, second, after_second, second_events),
        store.record(b, end_turn(b.state), *engine.apply(b.state, end_turn(b.state))),
        return_exceptions=True)
    assert results[:2] == [None, None] and isinstance(results[2], sqlite3.Error), results
    assert committed(path, a.id)["actions"][-2:] == [first, second]
    assert a.state == after_second == committed(path, a.id)["state"]
    assert committed(path, b.id) == saved_b
    replayed, _ = engine.replay(a.seed, await store.actions(a.id))
    assert replayed == a.state


async def test_a_fault_of_the_whole_database_still_fails_every_action_and_writes_none(three_games, engine,
                                                                                    monkeypatch):
    svc, path = three_games
    store = svc.store
    games = {c: await svc.active_game(c) for c in CHANNELS}  # the rows the service keeps and moves on
    saved = {c: committed(path, g.id) for c, g in games.items()}
    faults = Faults(monkeypatch, store)
    faults.broken = ("COMMIT",)  # a full disk: no commit goes through, together or apart
    results = await asyncio.gather(*(svc.act(c, end_turn(games[c].state)) for c in CHANNELS),
                                   return_exceptions=True)
    faults.disarm()
    assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    assert {c: committed(path, g.id) for c, g in games.items()} == saved
    assert not store.db.in_transaction


# --- a saved game of the wrong shape ------------------------------------------------------


def missing(key):
    def change(state):
        del state[key]
        return state
    return change


@pytest.mark.parametrize("change", [
    missing("pending"),
    missing("phase"),
    lambda state: {**state, "players": []},
    lambda state: {"name": "not a game at all"},
], ids=["no pending", "no phase", "players a list", "another object"])
async def test_a_wrong_shaped_game_is_set_aside_and_its_channel_goes_on(three_games, change):
    svc, path = three_games
    store = svc.store
    game = await store.active_game("a")
    await store.replace_timers(game.id, [("reminder", "u1", 1, 10.0)])
    wrong = json.dumps(change(dict(game.state)))
    await store.db.execute("UPDATE games SET state = ? WHERE id = ?", (wrong, game.id))
    svc = restarted(svc)

    with pytest.raises(IllegalAction) as told:
        await svc.act("a", end_turn(game.state))
    assert told.value.reason == SET_ASIDE
    with sqlite3.connect(path) as db:
        kept = db.execute("SELECT state, active FROM games WHERE id = ?", (game.id,)).fetchone()
    assert kept == (wrong, bot.store.SET_ASIDE), "kept for inspection, out of play"
    assert await store.due_timers(100.0) == []
    with pytest.raises(IllegalAction, match="no game"):  # told once; then the channel has no game
        await svc.end("a", "u1", can_manage=True)
    new = await svc.new_game("a", "g1", "u1", seed=3)
    assert (await store.latest_game("a")).id == new.id
    assert sorted(g.channel_id for g in await svc.active_games()) == ["a", "b", "c"]


async def test_a_wrong_shaped_game_found_by_the_timer_poll_is_told_to_its_channel(three_games):
    svc, path = three_games
    store = svc.store
    game = await store.active_game("b")
    state = dict(game.state)
    del state["pending"]
    await store.db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game.id))
    svc = restarted(svc)
    assert sorted(g.channel_id for g in await svc.active_games()) == ["a", "c"]
    with pytest.raises(IllegalAction) as told:
        await svc.act("b", end_turn(game.state), game_id=game.id)  # a button of the set-aside game
    assert told.value.reason == SET_ASIDE
