"""Through the real client and the fake Discord: an edit of a turn message
overtaken by a later action. One person and two built-in seats; the person
clicks a move, then End turn, while the move's edit waits for the channel's
pace. The finished turn's message never shows its buttons again, a click on
it never links to itself as "the newest buttons", and the welcome DMs of a
start do not wait behind the channel's pace. After a restart, the current
turn's message is found again and given live buttons."""
import asyncio
import dataclasses
import re
import time

from bot.discord import turn_posts
from bot.discord.pace import ChannelPace
from bot.games.babg.engine.legal import actor, legal_actions
from bot.games.babg.vocabulary import turn_number
from bot.service import GameService
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game

PER = 0.05  # seconds: the channel's pace window in these tests (frozen while it matters)


class Frozen:
    """A channel pace whose clock the test stops and starts: a full window
    stays full until the test lets it go (an event, not a time)."""

    def __init__(self, pace: ChannelPace):
        self.pace, self.now = pace, time.monotonic()

    def close(self, channel_id):
        self.now = time.monotonic()
        self.pace.clock = lambda: self.now
        self.pace.recent[str(channel_id)] = [[self.now] for _ in range(self.pace.writes)]

    def open(self):
        self.pace.clock = time.monotonic  # the frozen slots lie in the past: they go within PER

    def waiting(self, channel_id) -> bool:
        return self.pace.locks[str(channel_id)].locked()


async def person_and_two_builtins(fake_discord, tmp_path, engine) -> tuple[Table, Frozen]:
    t = Table(fake_discord, tmp_path)
    t.config = dataclasses.replace(t.config, builtin_pause=0.0)
    t.pace = (5, PER)
    await t.start(engine)
    return t, Frozen(t.bot.pace)


async def test_an_edit_overtaken_by_end_turn_never_brings_the_finished_turns_buttons_back(
        fake_discord, tmp_path, engine, monkeypatch):
    monkeypatch.setattr(turn_posts, "QUIET", 0.05)
    t, frozen = await person_and_two_builtins(fake_discord, tmp_path, engine)
    await t.slash("ann", "game", subcommand="new", options={"builtin": 2, "map": "request"})
    await t.slash("ann", "game", subcommand="join", options={"adventurer": "torskar"})
    await t.slash("ann", "game", subcommand="start")
    ann = t.uid("ann")
    for _ in range(40):  # the built-in seats play until it is the person's turn, with a move to make
        await t.done()
        game = await t.game()
        moves = [a for a in legal_actions(engine.content, game.state) if a["type"] == "move"]
        if actor(game.state) == ann and not game.state["pending"] and moves and t.last_with(t.button_id(game, moves[0])):
            break
        end = t.button_id(game, {"type": "end"})
        if actor(game.state) == ann and t.last_with(end):
            await t.click("ann", end)
    else:
        raise AssertionError("the person never had a move to make")
    number = turn_number(game.state)
    move, end = t.button_id(game, moves[0]), t.button_id(game, {"type": "end"})
    message = t.last_with(move)
    assert t.last_with(end) is message

    frozen.close(t.channel.id)  # the channel is at its limit
    await t.click("ann", move)  # the move's edit waits a moment, then for the channel's pace
    await t.s.wait_for(lambda: frozen.waiting(t.channel.id), timeout=60, what="the move's edit waiting for the pace")
    logged = len(t.s.log)
    ended = await t.s.click(t.users["ann"], message, end)  # End turn, while the edit still waits
    channel = str(t.channel.id)
    await t.s.wait_for(lambda: turn_number(t.bot.service.playing[channel].state) != number,
                       timeout=60, what="End turn committed")
    # A click on the finished turn's message (its buttons still stand until it is closed): refused,
    # and never pointed at the very message clicked as the newest buttons.
    stale = await t.s.click(t.users["ann"], message, end)
    await t.handled(stale)
    assert f"This button is from turn {number}" in stale.content, stale.content
    assert not re.search(rf"/{message.id}\b", stale.content), stale.content

    frozen.open()
    await t.handled(ended)
    await t.done()
    after = [e.after for e in t.s.log[logged:] if e.kind == "edit" and e.message is message]
    assert after, "the finished turn's message was closed"
    assert all(not a["components"] for a in after), "an edit brought the finished turn's buttons back"
    assert "spaces left" not in after[-1]["content"]
    newest = t.s.channel_messages(t.channel)[-1]
    link = t.bot.newest_buttons[channel]
    assert link.endswith(f"/{t.bot.turn_posts.posts[channel].message_id}") or link.endswith(f"/{newest.id}")
    assert not t.s.client_errors, t.s.client_errors


async def test_the_welcome_dms_of_a_start_do_not_wait_for_the_channels_pace(fake_discord, tmp_path, engine):
    t, frozen = await person_and_two_builtins(fake_discord, tmp_path, engine)
    await t.slash("ann", "game", subcommand="new", options={"map": "request"})
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        await t.slash(who, "game", subcommand="join", options={"adventurer": adv})
    await t.done(summaries=True)
    frozen.close(t.channel.id)  # the channel is at its limit while the game starts
    started = await t.s.slash(t.users["bo"], t.channel, "game", subcommand="start")

    def welcomed(name):
        return any("You are seated in the game" in m.content for m in t.s.dm_messages(t.users[name]))
    await t.s.wait_for(lambda: all(welcomed(n) for n in ("ann", "bo", "cy")), timeout=10,
                       what="every player's welcome DM, while the channel waits for its pace")
    assert not any("Dice anyone can check" in m.content for m in t.s.channel_messages(t.channel)), \
        "(the channel was still waiting)"
    frozen.open()
    await t.handled(started)
    await t.done()
    assert not t.s.client_errors, t.s.client_errors


async def test_after_a_restart_the_current_turns_message_gets_live_buttons_again(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    await t.done()
    game = await t.game()
    number, first = turn_number(game.state), game.state["turn"]["player"]
    message = t.last_with(t.button_id(game, {"type": "end"}))
    assert message is not None
    await t.s.stop_bot(t.bot)
    # While the bot is away, the game moves on (another process on the database, say): its turn message
    # still shows the buttons of the turn before.
    service = await GameService.open(t.config.database, engine)
    await service.act(str(t.channel.id), {"type": "end", "player": first})
    await service.close()

    await t.start(engine)
    await t.done()
    game = await t.game()
    assert turn_number(game.state) == number + 1
    end = t.button_id(game, {"type": "end"})
    assert t.last_with(end) is message, "the turn message was found again, with the current turn's buttons"
    h = await t.click(t.name_of(game.state["turn"]["player"]), end, message=message)
    assert "This button is from turn" not in (h.content or ""), h.content
    assert turn_number((await t.state())) == number + 2
    assert not t.s.client_errors, t.s.client_errors


async def test_two_quick_updates_of_the_lobbys_summary_post_it_once(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await t.slash("ann", "game", subcommand="new")
    await t.slash("ann", "game", subcommand="join", options={"adventurer": "torskar"})
    await t.done(summaries=True)
    game = await t.game()
    first = game.summary_message_id
    assert first and len(t.s.pins(t.channel)) == 1
    # As when joins come in quickly: two updates at once, before the first summary's message is known.
    await t.bot.service.set_summary_message(game, None)
    before = len(t.s.channel_messages(t.channel))
    await asyncio.gather(t.bot.update_summary(game), t.bot.update_summary(game))
    await t.done(summaries=True)
    assert len(t.s.channel_messages(t.channel)) == before + 1, "the summary posted once"
    assert len(t.s.pins(t.channel)) == 2  # (the one forgotten above, and the new one)
    assert not t.s.client_errors, t.s.client_errors
