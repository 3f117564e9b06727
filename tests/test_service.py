"""The service: one game per channel, every action committed, nothing lost on
a restart, reminders and skip votes."""
import pytest

from bot.games.babg.engine import IllegalAction
from bot.service import GameService
from bot.store import MIGRATIONS, Store


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture(params=["file", "memory"])
async def service(request, tmp_path, engine):
    """The service over the game database, and over the in-memory store the
    local table uses: both behave the same."""
    if request.param == "file":
        svc = await GameService.open(str(tmp_path / "games.db"), engine, clock=Clock())
    else:
        svc = GameService.in_memory(engine, clock=Clock())
    yield svc
    await svc.close()


async def seat_three(svc, channel="c1"):
    await svc.new_game(channel, "g1", "u1", seed=5)
    for uid, adv in (("u1", "torskar"), ("u2", "lia"), ("u3", "gretchen")):
        await svc.act(channel, {"type": "join", "player": uid, "name": uid.upper(), "adventurer": adv})
    return await svc.act(channel, {"type": "start", "player": "u1"})


async def test_one_game_per_channel(service):
    await service.new_game("c1", "g1", "u1")
    with pytest.raises(IllegalAction, match="already has a game"):
        await service.new_game("c1", "g1", "u2")
    await service.new_game("c2", "g1", "u2")


async def test_no_game_here(service):
    with pytest.raises(IllegalAction, match="/game new"):
        await service.act("nowhere", {"type": "end", "player": "u1"})


async def test_every_action_survives_a_restart(tmp_path, engine):
    path = str(tmp_path / "games.db")
    store = await Store(path).open()
    svc = GameService(store, engine)
    out = await seat_three(svc)
    first = out.state["turn"]["player"]
    out = await svc.act("c1", {"type": "move", "player": first, "way": "west"})
    expected = out.state
    await store.close()  # the bot stops here

    store = await Store(path).open()  # and starts again
    svc = GameService(store, engine)
    game = await svc.game("c1")
    assert game.state == expected
    log = await store.actions(game.id)
    replayed, _ = engine.replay(game.seed, log)
    assert replayed == expected, "the stored log replays to the stored state"
    await store.close()


async def test_schema_is_versioned(tmp_path):
    store = await Store(str(tmp_path / "x.db")).open()
    latest = len(list(MIGRATIONS.glob("*.sql")))
    assert await store.schema_version() == latest
    await store.migrate()  # running again changes nothing
    assert await store.schema_version() == latest
    await store.close()


@pytest.mark.parametrize("kind", ["file", "memory"])
async def test_server_settings_and_secret_threads_are_kept(tmp_path, engine, kind):
    """Where a server's secrets go (direct messages unless its admins chose),
    and each player's secret thread of a game, kept across a restart."""
    path = str(tmp_path / "games.db")
    svc = GameService(await Store(path).open(), engine) if kind == "file" else GameService.in_memory(engine)
    assert (await svc.guild_settings("g1"))["secrets"] == "dm"
    assert (await svc.set_secrets_place("g1", "threads"))["secrets"] == "threads"
    with pytest.raises(IllegalAction):
        await svc.set_secrets_place("g1", "carrier pigeon")
    with pytest.raises(IllegalAction):
        await svc.set_secrets_place(None, "threads")
    assert (await svc.guild_settings("g2"))["secrets"] == "dm", "one server's choice is its own"
    game = await svc.new_game("c1", "g1", "u1")
    assert await svc.secret_thread(game, "u1") is None
    await svc.remember_secret_thread(game, "u1", "555")
    if kind == "file":
        await svc.close()  # the bot restarts
        svc = GameService(await Store(path).open(), engine)
    assert (await svc.guild_settings("g1"))["secrets"] == "threads"
    assert await svc.secret_thread(game, "u1") == "555" and await svc.secret_thread(game, "u2") is None
    await svc.set_secrets_place("g1", "dm")
    assert (await svc.guild_settings("g1"))["secrets"] == "dm"
    await svc.close()


async def test_only_the_creator_or_a_manager_ends_a_game(service):
    await service.new_game("c1", "g1", "u1")
    with pytest.raises(IllegalAction, match="Manage Channels"):
        await service.end("c1", "u2", can_manage=False)
    await service.end("c1", "u2", can_manage=True)
    await service.new_game("c1", "g1", "u3")


async def test_reminder_then_deadline_then_skip_vote(service):
    out = await seat_three(service)
    absent = out.state["turn"]["player"]
    others = [p for p in out.state["seats"] if p != absent]
    with pytest.raises(IllegalAction, match="still has time"):
        await service.vote_skip("c1", others[0])
    service.clock.now += 12 * 3600 + 1
    due = await service.due_timers()
    assert [(t["kind"], t["user_id"]) for t, _ in due] == [("reminder", absent)]
    assert await service.due_timers() == [], "a reminder fires once"
    service.clock.now += 36 * 3600
    due = await service.due_timers()
    assert [t["kind"] for t, _ in due] == ["deadline"]
    votes, needed, skipped = await service.vote_skip("c1", others[0])
    assert (votes, needed, skipped) == (1, 2, None)
    votes, needed, skipped = await service.vote_skip("c1", others[1])
    assert skipped is not None
    assert skipped.state["turn"]["player"] != absent
    game = await service.game("c1")
    log = await service.store.actions(game.id)
    assert log[-1] == {"type": "end", "player": absent}


async def test_handover_gives_the_seat_to_someone_new(service, engine):
    import json
    out = await seat_three(service)
    await service.act("c1", {"type": "handover", "player": "u2", "to": "u9", "name": "Nine"})
    game = await service.game("c1")
    assert "u2" not in json.dumps(game.state)
    assert game.state["players"]["u9"]["adventurer"] == "lia"
    assert out is not None


async def test_a_button_is_refused_once_its_turn_or_game_is_past(service):
    # A button carries the game and turn it was offered in (and a question's fingerprint)
    from bot.service import GAME_OVER, Superseded
    from bot.games.babg.vocabulary import pending_key
    out = await seat_three(service)
    game, first = out.game, out.state["turn"]["player"]
    turn = out.state["turn"]["number"]
    out = await service.act("c1", {"type": "end", "player": first}, game_id=game.id, turn=turn)
    second = out.state["turn"]["player"]
    with pytest.raises(Superseded, match=f"This button is from turn {turn}; the game is now at turn {turn + 1}."):
        await service.act("c1", {"type": "end", "player": second}, game_id=game.id, turn=turn)
    with pytest.raises(Superseded, match="already been answered"):
        await service.act("c1", {"type": "decide", "player": second, "choice": 0}, game_id=game.id, turn=turn + 1,
                          question="abc")
    assert pending_key(out.state) == "0"
    assert (await service.active_game("c1")).state == out.state, "nothing changed"
    assert len(await service.actions(game)) == 5  # three joins, the start and one end
    await service.end("c1", "u1", can_manage=False)
    with pytest.raises(IllegalAction, match=GAME_OVER):
        await service.act("c1", {"type": "end", "player": second}, game_id=game.id, turn=turn + 1)
    await service.new_game("c1", "g1", "u1")
    with pytest.raises(IllegalAction, match=GAME_OVER):
        await service.act("c1", {"type": "end", "player": second}, game_id=game.id, turn=turn + 1)
    assert (await service.latest_game("c1")).id != game.id


async def test_what_the_adapters_read_comes_through_the_service(service):
    out = await seat_three(service)
    game = out.game
    assert (await service.latest_game("c1")).id == game.id
    assert await service.log_lines(game, "u1") == await service.store.recent_events(game.id, ["all", "u1"])
    assert await service.private_lines(game, "u1") == await service.store.recent_events(game.id, ["u1"], limit=80)
    await service.set_summary_message(game, "555")
    assert (await service.active_game("c1")).summary_message_id == "555"
    state = {**game.state, "omens_revealed": 7}
    await service.overwrite_state(game, state)
    assert (await service.active_game("c1")).state == state


async def test_games_stored_before_the_delivery_mark_count_as_delivered(tmp_path, engine):
    # A database from before private messages were tracked: its secrets went out then, and must not be
    # sent again by the first start after the upgrade.
    path = str(tmp_path / "old.db")
    store = await Store(path).open()
    svc = GameService(store, engine)
    await seat_three(svc)
    await store.db.execute("ALTER TABLE games DROP COLUMN delivered")
    await store.db.execute("DELETE FROM schema_version WHERE version = 3")
    await store.close()
    store = await Store(path).open()
    svc = GameService(store, engine)
    game = await svc.game("c1")
    assert game.delivered == len(await svc.actions(game)) == 4  # the three joins and the start
    assert await svc.undelivered(game) == ({}, game.delivered)
    await store.close()


async def test_a_handed_over_seats_secrets_show_once_to_the_new_holder(service):
    # The store moves the seat's past secrets to the new holder, and the engine sends them again (so they reach
    # the new holder's DMs): what the new holder reads back (/haunt rules) holds each of them once.
    from tests.conftest import arrange_hidden_traitor_reveal
    await seat_three(service)
    game = await service.game("c1")
    state = game.state
    pid = arrange_hidden_traitor_reveal(state)
    await service.overwrite_state(game, state)
    out = await service.act("c1", {"type": "end", "player": pid})
    old = next(e["to"] for e in out.events if e["kind"] == "secret" and "You are the hidden traitor" in e["text"])
    had = await service.private_lines(game, old)
    assert had
    out = await service.act("c1", {"type": "handover", "player": old, "to": "u9", "name": "Nine"})
    assert any(e["to"] == "u9" for e in out.events), "the new holder is sent the seat's secrets"
    now = await service.private_lines(game, "u9")
    assert sorted(set(now)) == sorted(now), "each secret once"
    assert set(had) <= set(now)
