"""A rolling restart through the real client and the fake Discord: the new
process of a shard connects while the old one still runs (Discord then
sends each interaction to both), the first to claim an interaction answers
it, and the old one, told to stop (a deploy's SIGTERM), takes no new
interaction, answers those it took and closes. No interaction fails and
none is handled twice."""
import asyncio

from bot.config import Config
from bot.discord.client import GameBot
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.pg import new_database, postgres_server  # noqa: F401 - fixtures


async def test_a_rolling_restart_fails_no_interaction_and_handles_none_twice(
        fake_discord, tmp_path, engine, postgres_server):
    s = fake_discord
    guild = s.add_guild("Baldur's Gate")
    channel = s.add_channel(guild, "betrayal")
    people = {name: s.add_user(name) for name in ("ann", "bo", "cy")}
    for user in people.values():
        s.add_member(guild, user)
    config = Config(token="fake", data_dir=str(tmp_path / "data"), dev_guild_id=guild.id, poll_seconds=3600,
                    builtin_pause=0.0, database_url=await asyncio.to_thread(new_database, postgres_server))
    handled: dict[str, list[int]] = {"old": [], "new": []}

    def counting(bot, name):
        claim = bot.service.claim

        async def claimed(interaction_id):
            won = await claim(interaction_id)
            if won:
                handled[name].append(interaction_id)
            return won
        bot.service.claim = claimed

    old = await s.start_bot(GameBot(config, engine))
    counting(old, "old")

    async def slash(who, command, **kw):
        handle = await s.slash(people[who], channel, command, **kw)
        await s.wait_handled(handle, timeout=60)
        return handle

    await slash("ann", "game", subcommand="new")
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        assert "joins as" in (await slash(who, "game", subcommand="join", options={"adventurer": adv})).content
    await slash("bo", "game", subcommand="start")

    new = await s.start_bot(GameBot(config, engine))  # the deploy starts the new process first
    counting(new, "new")
    assert len(s.gateway.ready_sessions(guild.id)) == 2, "both connected: Discord sends to each"

    async def play(times: int):
        """Whoever must act ends their turn (answering a question first)."""
        for _ in range(times):
            state = (await new.service.active_game(str(channel.id))).state
            who = next(n for n, u in people.items() if str(u.id) == state["turn"]["player"])
            h = await slash(who, "choose", options={"option": 1}) if state["pending"] else await slash(who, "end")
            assert h.responded and "not your turn" not in (h.content or "").lower(), h.content

    await play(4)
    draining = asyncio.create_task(old.drain())  # SIGTERM to the old process, while play goes on
    await play(4)
    await draining
    assert old.is_closed()
    await s.stop_bot(old)
    await play(2)

    everyone = handled["old"] + handled["new"]
    assert len(everyone) == len(set(everyone)), "no interaction handled by both"
    answered = [i for i in s.interactions.values() if i.responded]
    assert len(answered) == len(s.interactions) == len(everyone), "every interaction answered, by one process"
    assert handled["new"], "the new process took over"
    assert not [e for e in s.api_errors if e[3] in (40060, 10062)], s.api_errors
    assert not s.client_errors, s.client_errors
    await s.wait_handled(timeout=60)
