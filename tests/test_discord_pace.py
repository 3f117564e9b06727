"""Discord allows 5 writes (posts, edits, pins) per 5 seconds in a channel.
The bot keeps under it even when players are quick: writes wait their turn,
and a turn message edited meanwhile goes out once, as it stands then."""
import asyncio
import time

from bot.discord.pace import ChannelPace
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


def busiest_window(t, seconds: float = 5.0) -> int:
    """The most writes the bot made to the channel itself within any
    `seconds` (answers to interactions go by their own route, not the
    channel's, so Discord does not count them against it)."""
    times = sorted(e.at for e in t.s.log if e.kind in ("message", "edit", "pin") and e.message is not None
                   and e.message.channel is t.channel and not e.message.ephemeral
                   and e.message.interaction is None)
    return max((sum(1 for b in times[i:] if b - a < seconds) for i, a in enumerate(times)), default=0)


async def test_a_window_never_holds_more_writes_than_allowed():
    pace = ChannelPace(writes=3, per=0.3)
    went = []
    start = time.monotonic()

    async def write(n):
        await pace.wait("c")
        went.append(time.monotonic() - start)
    await asyncio.gather(*(write(n) for n in range(7)), pace.wait("other"))
    assert len(went) == 7
    assert all(sum(1 for b in went if a <= b < a + 0.3) <= 3 for a in went)
    assert went[-1] >= 0.6, "the 7th write waited for two windows to pass"


async def test_quick_players_never_exceed_five_writes_in_five_seconds(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    t.pace = None  # Discord's own pace, 5 writes per 5 s
    await t.start(engine)
    await open_game(t)
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the start shown")
    first = (await t.state())["turn"]["number"]
    t0 = time.monotonic()
    for _ in range(8):  # eight turns ended as fast as the bot answers
        # each player acts once the answer is in (what they played is committed), not once the bot's channel
        # writes, which wait for the pace, are out
        who = t.users[t.name_of((await t.state())["turn"]["player"])]
        h = await t.s.slash(who, t.channel, "end")
        await h.wait_until(lambda h: h.content and not h.loading, timeout=60)
        assert h.ephemeral and "Turn" in h.content
    assert (await t.state())["turn"]["number"] == first + 8, "every command was played at once"
    assert time.monotonic() - t0 < 5, "the players were not kept waiting"
    await t.done("every turn message out")
    assert busiest_window(t) <= 5
    last = t.s.channel_messages(t.channel)[-1]
    assert f"Turn {first + 8} " in last.content and last.components, "the newest turn's message came out last"
