"""Several bot processes on one PostgreSQL database, through the real client
and the fake Discord: two bots (each as its own process would be), one
Discord shard each. Each answers only its shard's servers; a timer fires
once, from the bot of its game's server; a bot stopped in the middle of
play and started again finds its games as they were and plays on."""
import asyncio
import dataclasses

import pytest

from bot.config import Config, from_env, shard_list, shard_problem
from bot.discord.client import GameBot, ShardedGameBot, make_bot
from bot.store import shard_of
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.pg import new_database, postgres_server  # noqa: F401 - fixtures

LATER = 10 ** 12


async def two_servers(s):
    """Two servers, one on each of 2 shards (a server's shard comes from its id)."""
    found: dict[int, object] = {}
    for _ in range(200):
        guild = s.add_guild(f"Server {len(found)}")
        found.setdefault(shard_of(str(guild.id), 2), guild)
        if len(found) == 2:
            return found[0], found[1]
        await asyncio.sleep(0.003)  # the next id's time part moves on
    raise AssertionError("no server on the second shard")


async def test_two_processes_share_the_games_by_shard(fake_discord, tmp_path, engine, postgres_server):
    s = fake_discord
    database = await asyncio.to_thread(new_database, postgres_server)
    first, second = await two_servers(s)
    people = {}
    channels = {}
    for shard, guild in enumerate((first, second)):
        channels[shard] = s.add_channel(guild, "betrayal")
        for name in ("ann", "bo", "cy"):
            user = people.setdefault(name, s.add_user(name))
            s.add_member(guild, user)
    base = Config(token="fake", data_dir=str(tmp_path / "data"), dev_guild_id=None, poll_seconds=3600,
                  builtin_pause=0.0, database_url=database, shard_count=2)
    bots = {}
    for shard in (0, 1):
        bots[shard] = await s.start_bot(GameBot(dataclasses.replace(base, shard_id=shard), engine))

    async def slash(shard, who, command, **kw):
        handle = await s.slash(people[who], channels[shard], command, **kw)
        await s.wait_handled(handle, timeout=60)
        return handle

    for shard in (0, 1):
        await slash(shard, "ann", "game", subcommand="new")
        for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
            h = await slash(shard, who, "game", subcommand="join", options={"adventurer": adv})
            assert "joins as" in h.content
        await slash(shard, "bo", "game", subcommand="start")
    for shard in (0, 1):  # each server's game is run by its shard's bot alone
        mine = {g.channel_id for g in await bots[shard].service.active_games()}
        assert mine == {str(channels[shard].id)}

    # A timer fires once, from the bot of its game's server, however both poll.
    for bot in bots.values():
        bot.service.clock = lambda: LATER
    await asyncio.gather(*(bot.fire_timers() for bot in bots.values()))
    await s.wait_handled(timeout=60)
    for shard in (0, 1):
        await s.wait_for(lambda: any("a reminder" in m.content for m in s.channel_messages(channels[shard])),
                         timeout=60, what="the reminder")
        reminders = [m for m in s.channel_messages(channels[shard]) if "a reminder" in m.content]
        assert len(reminders) == 1, [m.content for m in reminders]

    # The first shard's bot stops mid-game (a deploy or a crash) and starts again: its game is as it was.
    before = (await bots[0].service.active_game(str(channels[0].id))).state
    await s.stop_bot(bots[0])
    bots[0] = await s.start_bot(GameBot(dataclasses.replace(base, shard_id=0), engine))
    assert (await bots[0].service.active_game(str(channels[0].id))).state == before
    mover = next(n for n, u in people.items() if str(u.id) == before["turn"]["player"])
    h = await slash(0, mover, "end")
    assert "not your turn" not in h.content.lower()
    after = (await bots[0].service.active_game(str(channels[0].id))).state
    assert after["turn"]["number"] == before["turn"]["number"] + 1 or after["pending"]
    assert not s.client_errors, s.client_errors


async def servers_on(s, count: int) -> list:
    """One server on each of `count` shards."""
    found: dict[int, object] = {}
    for _ in range(100 * count):
        guild = s.add_guild(f"Server {len(found)}")
        found.setdefault(shard_of(str(guild.id), count), guild)
        if len(found) == count:
            return [found[i] for i in range(count)]
        await asyncio.sleep(0.003)
    raise AssertionError(f"no server on each of {count} shards")


async def test_a_process_runs_a_range_of_shards(fake_discord, tmp_path, engine, postgres_server):
    """SHARD_IDS: one process runs shards 0 and 1 of 3 (one gateway
    connection each), another runs shard 2; each answers its servers' games
    and fires their timers alone."""
    s = fake_discord
    database = await asyncio.to_thread(new_database, postgres_server)
    guilds = await servers_on(s, 3)
    people, channels = {}, []
    for guild in guilds:
        channels.append(s.add_channel(guild, "betrayal"))
        for name in ("ann", "bo", "cy"):
            s.add_member(guild, people.setdefault(name, s.add_user(name)))
    base = Config(token="fake", data_dir=str(tmp_path / "data"), dev_guild_id=None, poll_seconds=3600,
                  builtin_pause=0.0, database_url=database, shard_count=3)
    made = [make_bot(dataclasses.replace(base, shard_ids=ids), engine) for ids in ((0, 1), (2,))]
    assert isinstance(made[0], ShardedGameBot) and not isinstance(made[1], ShardedGameBot)

    async def at_once(shard_id, *, initial=False):  # (Discord wants 5 s between a process's identifies)
        return None
    made[0].before_identify_hook = at_once
    bots = [await s.start_bot(bot) for bot in made]
    assert sorted(made[0].shards) == [0, 1]
    runs = {0: bots[0], 1: bots[0], 2: bots[1]}
    for shard, channel in enumerate(channels):
        for who in ("ann",):
            h = await s.slash(people[who], channel, "game", subcommand="new")
            await s.wait_handled(h, timeout=60)
        for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
            h = await s.slash(people[who], channel, "game", subcommand="join", options={"adventurer": adv})
            await s.wait_handled(h, timeout=60)
            assert "joins as" in h.content
        h = await s.slash(people["bo"], channel, "game", subcommand="start")
        await s.wait_handled(h, timeout=60)
    for bot in bots:
        mine = {g.channel_id for g in await bot.service.active_games()}
        assert mine == {str(channels[shard].id) for shard, runner in runs.items() if runner is bot}

    for bot in bots:
        bot.service.clock = lambda: LATER
    await asyncio.gather(*(bot.fire_timers() for bot in bots))
    await s.wait_handled(timeout=60)
    for channel in channels:
        await s.wait_for(lambda: any("a reminder" in m.content for m in s.channel_messages(channel)),
                         timeout=60, what="the reminder")
        assert len([m for m in s.channel_messages(channel) if "a reminder" in m.content]) == 1
    assert not s.client_errors, s.client_errors


def test_shard_settings_are_read_and_checked():
    assert shard_list("0-2,5") == (0, 1, 2, 5) and shard_list(" 3 ") == (3,) and shard_list("") is None
    with pytest.raises(ValueError, match="SHARD_IDS"):
        shard_list("a-b")
    config = from_env({"SHARD_IDS": "0-1", "SHARD_COUNT": "4"})
    assert config.shards == (0, 1) and shard_problem(config) is None
    assert from_env({"SHARD_ID": "2", "SHARD_COUNT": "4"}).shards == (2,)
    assert from_env({}).shards is None and shard_problem(from_env({})) is None
    assert "SHARD_COUNT" in shard_problem(from_env({"SHARD_IDS": "0,1"}))
    assert "0 to 1" in shard_problem(from_env({"SHARD_IDS": "1-2", "SHARD_COUNT": "2"}))
