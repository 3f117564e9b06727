"""End to end through the real discord.py client: a busy bot. An
interaction that waited in the bot's queue is acknowledged before the work
(Discord fails one not acknowledged within 3 s): a command shows "thinking"
privately until its answer replaces it, and a public answer goes to the
channel, never to its user alone. A turn whose map is not drawn in time
goes on without it, and says how to see it."""
from bot.discord import client as discord_client
from bot.discord import turn_posts
from bot.games.babg.discord import messages
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)
from tests.test_discord_e2e import Table, open_game


async def test_a_queued_command_is_deferred_and_its_answers_still_reach_the_right_eyes(
        fake_discord, tmp_path, engine, monkeypatch):
    monkeypatch.setattr(discord_client, "QUEUED", -1.0)  # every interaction counts as having waited
    t = Table(fake_discord, tmp_path)
    t.unpaced = True  # (the channel's pace: tests/test_discord_pace.py)
    await t.start(engine)
    h = await t.slash("ann", "game", subcommand="new")  # deferred too; its public answer goes to the channel
    assert h.deferred and h.message.deleted
    opened = [m for m in t.s.channel_messages(t.channel) if "opened a game" in m.content and not m.deleted]
    assert opened and not opened[-1].ephemeral
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        h = await t.slash(who, "game", subcommand="join", options={"adventurer": adv})
        assert h.callback_type == 5 and h.ephemeral, "deferred first, privately"
        # the public answer went to the channel, and the private "thinking" message is gone
        assert h.message.deleted
        said = [m for m in t.s.channel_messages(t.channel) if "joins as" in m.content and not m.deleted]
        assert said and not said[-1].ephemeral and said[-1].visible_to(t.users["stranger"])
    h = await t.slash("bo", "game", subcommand="start")
    assert h.deferred
    dice = await t.s.wait_for(lambda: [m for m in t.s.channel_messages(t.channel)
                                       if "Dice anyone can check" in m.content], timeout=60, what="the dice message")
    assert not dice[-1].ephemeral, "the start's public follow-up reaches the channel"

    game = await t.game()
    number = game.state["turn"]["number"]  # the game row is kept in memory: its state moves on with play
    current = t.name_of(game.state["turn"]["player"])
    other = next(n for n in ("ann", "bo", "cy") if n != current)
    h = await t.slash(other, "end")  # refused: the refusal replaces "thinking", for the player alone
    assert h.deferred and h.ephemeral and not h.loading and "not yours" in h.content
    assert h.message in t.s.ephemeral_messages(t.users[other])
    h = await t.slash(current, "end")  # played: the private answer replaces "thinking"
    assert h.deferred and h.ephemeral and not h.loading and "Turn" in h.content
    assert (await t.state())["turn"]["number"] == number + 1

    game = await t.game()
    number = game.state["turn"]["number"]
    end = t.button_id(game, {"type": "end"})
    await t.s.wait_for(lambda: t.last_with(end), timeout=60, what="the new turn's message")
    h = await t.click(t.name_of(game.state["turn"]["player"]), end)
    assert h.callback_type == 6, "a click is acknowledged silently; the turn message shows its result"
    assert (await t.state())["turn"]["number"] == number + 1
    assert not t.s.client_errors, t.s.client_errors


async def test_a_turn_goes_on_without_a_map_drawn_too_late(fake_discord, tmp_path, engine, monkeypatch):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    monkeypatch.setattr(turn_posts, "TURN_MAP_WAIT", 0.0)  # a bot too busy to draw in time
    game = await t.game()
    await t.slash(t.name_of(game.state["turn"]["player"]), "end")
    game = await t.game()
    end = t.button_id(game, {"type": "end"})
    message = await t.s.wait_for(lambda: t.last_with(end), timeout=60, what="the new turn's message")
    assert not message.attachments and messages.MAP_LATER in message.content
    h = await t.slash("ann", "map")
    await t.s.wait_for(lambda: any(a.filename == "map.png" for m in [h.message, *h.followups] if m
                                   for a in m.attachments), timeout=60, what="the map on request")


def test_a_deferred_interaction_is_forgotten_after_discords_fifteen_minutes(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(discord_client.time, "monotonic", lambda: now[0])
    thinking = discord_client.Thinking()
    thinking.add(1)
    now[0] += 60
    thinking.add(2)
    now[0] += discord_client.Thinking.KEEP - 30  # the first is past its 15 minutes, the second is not
    thinking.add(3)
    assert 1 not in thinking and not thinking.pop_loading(1)
    assert 2 in thinking and 3 in thinking and thinking.pop_loading(2) and not thinking.pop_loading(2)
