"""End to end through the real discord.py client: a bot with more to do than
it can keep up with (bot/discord/line.py). Its work is bounded: an action
that must wait in line is acknowledged at once and answered when its turn
comes; one whose wait would be too long is told at once that the bot is
busy, and nothing of it is recorded. Every interaction is acknowledged
either way, never left for Discord to time out."""
import asyncio

from bot.discord import client as discord_client
from bot.games.babg.discord import messages
from bot.discord.line import Line
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


def hold_actions(bot, only_first: bool = True):
    """The service's actions wait for the returned `release` (only the first
    one, or every one): a bot busy with other games. `started` is set once
    one is held."""
    started, release = asyncio.Event(), asyncio.Event()
    act = bot.service.act

    async def held_act(*args, **kw):
        if not (only_first and started.is_set()):
            started.set()
            await release.wait()
        return await act(*args, **kw)
    bot.service.act = held_act
    return started, release


async def test_an_action_waits_in_line_acknowledged_and_one_past_the_longest_wait_hears_busy(
        fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    bot = await t.start(engine)
    await open_game(t)
    bot.line = Line(slots=1, longest_wait=60.0)
    bot.line.each = 5.0  # each action takes seconds: a wait in line passes the patience before deferring
    held, release = hold_actions(bot)  # the first action takes its time (a bot busy with other games)

    game = await t.game()
    number, log_size = game.state["turn"]["number"], len(await bot.service.store.actions(game.id))
    current = t.name_of(game.state["turn"]["player"])
    others = [n for n in ("ann", "bo", "cy") if n != current]

    first = await t.s.slash(t.users[others[0]], t.channel, "end", wait=False)  # takes the one slot
    await t.s.wait_for(held.is_set, timeout=60, what="the first action at work")
    second = await t.s.slash(t.users[current], t.channel, "end", wait=False)
    await asyncio.wait_for(second.answered.wait(), 60)
    assert second.deferred and second.loading and second.ephemeral, "acknowledged at once, privately"
    await t.s.wait_for(lambda: bot.line.taken == 2, timeout=60, what="the second action in line")

    bot.line.longest_wait = 0.0  # from now on any wait in line is too long
    third = await t.slash(others[1], "end")
    assert not third.deferred and third.ephemeral and third.content == messages.BUSY
    assert third.message in t.s.ephemeral_messages(t.users[others[1]])
    assert bot.line.turned_away == 1

    release.set()
    await t.handled(first)
    await t.handled(second)
    assert "not yours" in first.content
    assert second.ephemeral and not second.loading and "Turn" in second.content, "its answer replaced thinking"
    state = await t.state()
    assert state["turn"]["number"] == number + 1, "the action that waited was applied once"
    game = await t.game()
    assert len(await bot.service.store.actions(game.id)) == log_size + 1, "the turned-away one left no trace"
    assert bot.line.working == bot.line.taken == 0 and not bot.line.waiting and not bot.line.games
    assert not t.s.client_errors, t.s.client_errors


async def test_a_short_wait_in_line_is_not_deferred(fake_discord, tmp_path, engine, monkeypatch):
    monkeypatch.setattr(discord_client, "PATIENCE", 60.0)  # (a slow machine's wait stays short of it)
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    bot = await t.start(engine)
    await open_game(t)
    bot.line = Line(slots=1)
    held, release = hold_actions(bot)
    game = await t.game()
    current = t.name_of(game.state["turn"]["player"])
    other = next(n for n in ("ann", "bo", "cy") if n != current)
    first = await t.s.slash(t.users[other], t.channel, "end", wait=False)
    await t.s.wait_for(held.is_set, timeout=60, what="the first action at work")
    second = await t.s.slash(t.users[current], t.channel, "end", wait=False)
    await t.s.wait_for(lambda: bot.line.taken == 2, timeout=60, what="the second action in line")
    release.set()  # the action ahead was quick after all (the line's mean says so): no deferral needed
    await t.handled(first)
    await t.handled(second)
    assert not second.deferred and "Turn" in second.content


async def test_the_line_hands_each_slot_on_in_order_and_survives_a_cancelled_wait():
    line = Line(slots=1)
    order = []

    async def action(name, game, gate=None):
        async with line.take(game):
            order.append(name)
            if gate:
                await gate.wait()

    gate = asyncio.Event()
    a = asyncio.create_task(action("a", "g1", gate))
    await asyncio.sleep(0)
    assert not line.free() and line.expected_wait("g2") > 0
    b = asyncio.create_task(action("b", "g2"))
    c = asyncio.create_task(action("c", "g3"))
    d = asyncio.create_task(action("d", "g1"))  # behind a, in its game's turn (not in a slot's line)
    await asyncio.sleep(0)
    assert line.taken == 4 and line.games == {"g1": 2, "g2": 1, "g3": 1} and len(line.waiting) == 2
    assert line.expected_wait("g1") >= 2 * line.each
    b.cancel()  # a player's wait ended (say the bot is closing): the slot goes past it
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(a, c, d, return_exceptions=True)
    assert order == ["a", "c", "d"] and b.cancelled()
    assert line.free() and line.working == line.taken == 0 and not line.games and not line.turns


async def test_an_action_slow_past_its_patience_is_acknowledged_before_its_answer(fake_discord, tmp_path, engine):
    """Whatever holds an action up (the line, or its game's lock behind
    another click on the same game), it is deferred at PATIENCE and
    answered when done."""
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    bot = await t.start(engine)
    await open_game(t)
    acting, release = hold_actions(bot, only_first=False)
    game = await t.game()
    current, number = t.name_of(game.state["turn"]["player"]), game.state["turn"]["number"]
    h = await t.s.slash(t.users[current], t.channel, "end", wait=False)
    await asyncio.wait_for(acting.wait(), 60)  # taken on at once (the line is free)...
    await asyncio.wait_for(h.answered.wait(), 60)  # ... and acknowledged once PATIENCE passed
    assert h.deferred and h.loading and not release.is_set(), "acknowledged while the action was held up"
    release.set()
    await t.handled(h)
    assert not h.loading and "Turn" in h.content
    assert (await t.state())["turn"]["number"] == number + 1


async def test_a_deferral_that_reaches_discord_too_late_takes_nothing_on(fake_discord, tmp_path, engine, monkeypatch,
                                                                         caplog):
    """On a machine too busy to send it in time, the acknowledgement of an
    action that waited finds the interaction failed already (10062): the
    action is not taken on, and that is a warning, not a failed command."""
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    bot = await t.start(engine)
    await open_game(t)
    monkeypatch.setattr(discord_client, "QUEUED", -1.0)  # every action counts as having waited: deferred first
    game = await t.game()
    number, log_size = game.state["turn"]["number"], len(await bot.service.store.actions(game.id))
    t.s.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    late = await t.s.slash(t.users[t.name_of(game.state["turn"]["player"])], t.channel, "end", wait=False)
    await t.s.wait_for(lambda: any("after Discord's limit" in r.getMessage() for r in caplog.records), timeout=60,
                       what="the bot's warning")
    assert not late.answered.is_set()
    assert not [r for r in caplog.records if r.levelname == "ERROR"], "no failed command"
    game = await t.game()
    assert game.state["turn"]["number"] == number, "nothing taken on"
    assert len(await bot.service.store.actions(game.id)) == log_size

    on_time = await t.slash(t.name_of(game.state["turn"]["player"]), "end")  # the next one goes through
    assert on_time.deferred and "Turn" in on_time.content
    assert (await t.state())["turn"]["number"] == number + 1


async def test_an_answer_that_reaches_discord_too_late_is_a_warning_not_a_failed_command(
        fake_discord, tmp_path, engine, monkeypatch, caplog):
    """A "busy" answer, and a click's acknowledgement, that reach Discord
    after it failed the interaction (10062, on a machine too busy to send
    them in time) are warnings: nothing was taken on, nobody is left to
    tell, and the next command and click go through."""
    t = Table(fake_discord, tmp_path)
    t.unpaced = True
    bot = await t.start(engine)
    await open_game(t)
    game = await t.game()
    number = game.state["turn"]["number"]
    mover = t.name_of(game.state["turn"]["player"])

    monkeypatch.setattr(bot.line, "too_long", lambda waited, game=None: True)  # busy: turned away at once
    t.s.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    busy = await t.s.slash(t.users[mover], t.channel, "end", wait=False)
    await t.s.wait_for(lambda: any("answered" in r.getMessage() and "after Discord's limit" in r.getMessage()
                                   for r in caplog.records), timeout=60, what="the warning for the busy answer")
    assert not busy.answered.is_set()
    monkeypatch.undo()

    end = t.button_id(game, {"type": "end"})
    await t.s.wait_for(lambda: t.last_with(end), timeout=60, what="the turn message's End button")
    warned = len(caplog.records)
    held, release = hold_actions(bot)
    click = await t.s.click(t.users[mover], t.last_with(end), end, wait=False)
    await held.wait()  # taken on; Discord fails it before the silent acknowledgement arrives
    t.s.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    release.set()
    await t.s.wait_for(lambda: any("after Discord's limit" in r.getMessage() for r in caplog.records[warned:]),
                       timeout=60, what="the warning for the click")
    await t.done()
    assert not click.answered.is_set()
    assert not [r for r in caplog.records if r.levelname == "ERROR"], "no failed command or view"
    assert (await t.state())["turn"]["number"] == number + 1, "the click's action was committed before its answer"
    game = await t.game()
    assert t.last_with(t.button_id(game, {"type": "end"})), "the channel still sees it: the next turn's message"

    # A command held past its patience: its deferral and then its answer both come too late.
    warned = len(caplog.records)
    held, release = hold_actions(bot)
    t.s.fail_next("POST", r"^/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction", times=2)
    late = await t.s.slash(t.users[t.name_of(game.state["turn"]["player"])], t.channel, "end", wait=False)
    await held.wait()
    await t.s.wait_for(lambda: any("acknowledged" in r.getMessage() for r in caplog.records[warned:]), timeout=60,
                       what="the deferral's warning")
    release.set()
    await t.s.wait_for(lambda: any("answered" in r.getMessage() for r in caplog.records[warned:]), timeout=60,
                       what="the answer's warning")
    await t.done()
    assert not late.answered.is_set()
    assert not [r for r in caplog.records if r.levelname == "ERROR"], "no failed command"
    game = await t.game()
    assert game.state["turn"]["number"] == number + 2
    assert t.last_with(t.button_id(game, {"type": "end"})), "the channel sees the committed action"

    h = await t.slash(t.name_of(game.state["turn"]["player"]), "end")  # the next one goes through
    assert "Turn" in h.content and (await t.state())["turn"]["number"] == number + 3
