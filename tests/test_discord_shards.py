"""Several bot processes on one PostgreSQL database, through the real client
and the fake Discord: two bots (each as its own process would be), one
Discord shard each. Each answers only its shard's servers; a timer fires
once, from the bot of its game's server; a bot stopped in the middle of
play and started again finds its games as they were and plays on."""
import asyncio
import dataclasses

from bot.config import Config
from bot.discord.client import GameBot
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
