"""End to end: the real discord.py client running the bot against the fake
Discord on 127.0.0.1. Three people play from /game new to the haunt roll with
slash commands and buttons; the bot restarts mid-game; DMs; strangers."""
import random

import pytest

from bot.games.babg import autoplay, vocabulary
from bot.config import Config
from bot.discord import turn_posts
from bot.games.babg.discord import messages
from bot.discord.client import GameBot
from bot.discord.pace import ChannelPace
from bot.games.babg.discord.views import BUTTON_CHOICES, PER_SELECT, SELECTS, pending_key
from bot.games.babg.engine.legal import legal_actions
from bot.games.babg.vocabulary import from_custom_id, from_select, select_value, to_custom_id, to_select_id, turn_number
from tests.conftest import arrange_hidden_traitor_reveal
from tests.fake_discord.fixtures import fake_discord  # noqa: F401  (the fixture)

WAY_NAMES = {"north": "north", "east": "east", "south": "south", "west": "west", "stairs": "stairs",
             "grate": "grate"}


QUICK_PACE = (5, 0.5)  # (writes, per seconds): Discord's channel pace, ten times quicker


class Table:
    """A guild with one channel, three players and a stranger."""

    def __init__(self, server, tmp_path, closed_dms=()):
        self.s = server
        self.guild = server.add_guild("Baldur's Gate")
        self.channel = server.add_channel(self.guild, "betrayal")
        self.users = {}
        for name in ("ann", "bo", "cy", "stranger"):
            user = server.add_user(name)
            server.add_member(self.guild, user)
            self.users[name] = user
        for name in closed_dms:
            server.close_dms(self.users[name])
        self.config = Config(token="fake", data_dir=str(tmp_path / "data"), dev_guild_id=self.guild.id,
                             poll_seconds=3600)
        self.bot = None
        self.unpaced = False  # players far quicker than people: no channel pace (tests/test_discord_pace.py)
        # Test players act the moment the bot answers: Discord's pace of 5 writes per 5 s would stretch their
        # games to minutes, so each bot started here keeps the same pace ten times quicker; None: Discord's own.
        self.pace: tuple[int, float] | None = QUICK_PACE

    async def start(self, engine):
        self.bot = await self.s.start_bot(GameBot(self.config, engine))
        self.bot.service.fixed_seed = 20261122
        if self.unpaced:
            self.bot.pace = ChannelPace(per=0.0)
        elif self.pace:
            self.bot.pace = ChannelPace(*self.pace)
        return self.bot

    async def restart(self, engine):
        await self.done()
        await self.s.stop_bot(self.bot)
        return await self.start(engine)

    def uid(self, name):
        return str(self.users[name].id)

    def name_of(self, uid):
        return next(n for n, u in self.users.items() if str(u.id) == uid)

    async def slash(self, who, command, **kw):
        handle = await self.s.slash(self.users[who], self.channel, command, **kw)
        await self.handled(handle)
        return handle

    async def handled(self, handle):
        """Wait until the bot has finished with this command or click (its answers are in, what it played is
        committed): an event, where a quiet spell could come first on a slow machine."""
        await self.s.wait_handled(handle, timeout=60)

    def at_rest(self, summaries: bool = False) -> bool:
        """Whether the bot has nothing left to post: no command or click being handled, every turn message
        up to date and closed, nobody waiting for the channel's pace, and no background task running but a
        pinned summary's edit waiting for its time (SUMMARY_EVERY; with `summaries`, not even that)."""
        bot = self.bot
        return not self.s.handling() and bot.turn_posts.idle() \
            and not any(lock.locked() for lock in bot.pace.locks.values()) \
            and len(bot.background) <= (0 if summaries else len(bot.summary_waiting))

    async def done(self, what: str = "the bot done posting", summaries: bool = False):
        """Wait until the bot is at rest (see at_rest): before checking that something did NOT happen."""
        await self.s.wait_handled(timeout=60)
        await self.s.wait_for(lambda: self.at_rest(summaries), timeout=60, what=what)

    def last_with(self, custom_id):
        for msg in reversed(self.s.channel_messages(self.channel)):
            for row in msg.components:
                for comp in row.get("components", []):
                    if comp.get("custom_id") == custom_id:
                        return msg
        return None

    async def click(self, who, custom_id, message=None):
        message = message or self.last_with(custom_id)
        assert message is not None, f"no message offers {custom_id}"
        handle = await self.s.click(self.users[who], message, custom_id)
        await self.handled(handle)
        return handle

    async def game(self):
        return await self.bot.service.active_game(str(self.channel.id))

    async def state(self):
        return (await self.game()).state

    async def put_state(self, game, state):
        """Set up a moment of the game (the state written as it is)."""
        await self.bot.service.overwrite_state(game, state)

    @staticmethod
    def button_id(game, action: dict) -> str:
        """The custom_id of the button that does `action` in the game as it stands."""
        carried = {k: v for k, v in action.items() if k != "player"}
        question = pending_key(game.state) if action["type"] == "decide" else ""
        return to_custom_id(carried, game.id, turn_number(game.state), question)

    @staticmethod
    def select_id(game, action: dict) -> str:
        """The custom_id of the select menu that offers the answer `action`, when the question is long."""
        return to_select_id(game.id, turn_number(game.state), pending_key(game.state),
                            action["choice"] // PER_SELECT)

    def buttons(self, message) -> list[dict]:
        """The actions a message's buttons carry."""
        return [from_custom_id(c["custom_id"]).action for row in message.components
                for c in row.get("components", []) if from_custom_id(c.get("custom_id", ""))]

    def offered(self, message) -> list[dict]:
        """The actions a message offers: its buttons, then its menus' options."""
        return self.buttons(message) + [
            carried.action for row in message.components for c in row.get("components", [])
            for o in c.get("options", []) if (carried := from_select(c["custom_id"], o["value"]))]

    @staticmethod
    def more_id(game) -> str:
        """The custom_id of the turn's "More actions…" menu."""
        return to_select_id(game.id, turn_number(game.state), "", 0)

    async def choose_more(self, who, game, action: dict):
        """Pick `action` in the turn's "More actions…" menu."""
        message = self.last_with(self.more_id(game))
        value = select_value({k: v for k, v in action.items() if k != "player"})
        handle = await self.s.select(self.users[who], message, self.more_id(game), [value])
        await self.handled(handle)
        return handle


def channel_writes(t) -> int:
    """Messages created, edited or pinned in the game's channel (what Discord's per-channel limit counts)."""
    return sum(1 for e in t.s.log if e.kind in ("message", "edit", "pin") and e.message is not None
               and e.message.channel is t.channel and not e.message.ephemeral)


def busiest(t, since: float, seconds: float) -> int:
    """The most writes in the channel within any `seconds` after `since`: every public message, edit and pin,
    the answers to interactions included (a player sees them all come)."""
    times = sorted(e.at for e in t.s.log if e.kind in ("message", "edit", "pin") and e.message is not None
                   and e.message.channel is t.channel and not e.message.ephemeral and e.at > since)
    return max((sum(1 for b in times[i:] if b - a < seconds) for i, a in enumerate(times)), default=0)


async def open_game(t: Table):
    await t.slash("ann", "game", subcommand="new")
    for who, adv in (("ann", "torskar"), ("bo", "lia"), ("cy", "gretchen")):
        h = await t.slash(who, "game", subcommand="join", options={"adventurer": adv})
        assert "joins as" in h.content
    return await t.slash("bo", "game", subcommand="start")


async def play_one(t: Table, action: dict, game, use_buttons: bool):
    state = game.state
    who = t.name_of(action["player"])
    kind = action["type"]
    button = t.button_id(game, action)
    menu = t.select_id(game, action) if kind == "decide" else None
    if use_buttons or kind in ("ready", "monster"):
        # a turn message is edited a moment after the click before it (quick clicks share one edit):
        # like a player, click what the message shows once it is up to date
        await t.s.wait_for(lambda: t.last_with(button) or (menu and t.last_with(menu)) or t.bot.turn_posts.idle(),
                           timeout=60, what=f"the turn message up to date for {action}")
    if kind in ("ready", "monster") or (use_buttons and kind != "decide"):
        if t.last_with(button):  # the buttons show every legal action that fits
            return await t.click(who, button)
        assert kind not in ("ready", "end"), f"no button for {action}"
        more = t.last_with(t.more_id(game))  # the rest is in the "More actions…" menu
        if more is not None and {k: v for k, v in action.items() if k != "player"} in t.offered(more):
            return await t.choose_more(who, game, action)
    if kind == "move":
        return await t.slash(who, "move", options={"direction": action["way"]})
    if kind == "decide":
        if not use_buttons or action["choice"] >= PER_SELECT * SELECTS:  # past the menus: /choose
            return await t.slash(who, "choose", options={"option": action["choice"] + 1})
        if len(legal_actions(t.bot.content, state)) > BUTTON_CHOICES:  # a long question (with Undo): select menus
            message = t.last_with(menu)
            assert message is not None, f"no menu offers {action}"
            handle = await t.s.select(t.users[who], message, menu,
                                      [select_value({k: v for k, v in action.items() if k != "player"})])
            await t.handled(handle)
            return handle
        return await t.click(who, button)  # a short one: a button each
    if kind == "end":
        return await t.slash(who, "end")
    if kind == "roll":
        return await t.slash(who, "roll")
    if kind == "power":
        return await t.slash(who, "power")
    if kind == "unmask":
        return await t.slash(who, "haunt", subcommand="unmask")
    if kind == "attack":
        trait = {"trait": action["trait"]} if action.get("trait") else {}
        if action["target"] in state["players"]:
            return await t.slash(who, "attack", options={**seat_option(t, action["target"], "player"), **trait})
        m = next(m for m in state["monsters"] if m["id"] == action["target"])
        return await t.slash(who, "attack", options={"monster": f"{m['name']} {m['number']}", **trait})
    if kind == "monster":
        m = next(m for m in state["monsters"] if m["id"] == action["monster"])
        name = f"{m['name']} {m['number']}"
        if action["op"] == "move":
            return await t.slash(who, "monster", subcommand="move", options={"monster": name,
                                                                           "direction": action["way"]})
        return await t.slash(who, "monster", subcommand="attack",
                             options={"monster": name, **seat_option(t, action["target"], "player")})
    if kind == "task":  # a haunt's own move: the /haunt task list's entry that makes it
        value = next(v for _, v in vocabulary.move_choices(t.bot.content, state, action["player"])
                     if vocabulary.move_from_value(v, state, t.bot.content, action["player"]) == action)
        return await t.slash(who, "haunt", subcommand="task", options={"move": value})
    assert "card" in action, f"no way to play {action} here"
    card = t.bot.content.cards[action["card"]].name
    if kind == "trade":
        return await t.slash(who, "item", subcommand="trade", options={"item": card, **seat_option(t, action["to"], "to")})
    return await t.slash(who, "item", subcommand={"use": "use", "drop": "drop", "pickup": "pickup"}[kind],
                         options={"item": card})


def seat_option(t: Table, pid: str, person_option: str) -> dict:
    """The command option naming a seat: a person as a member, a built-in seat by its id."""
    if pid.startswith("builtin-"):
        return {"builtin": pid}
    return {person_option: t.users[t.name_of(pid)]}


async def test_three_players_play_a_haunt_to_a_win_with_commands_and_buttons(fake_discord, tmp_path, engine,
                                                                            monkeypatch):
    t = Table(fake_discord, tmp_path)
    # The channel's pace ten times quicker (QUICK_PACE), before the restart and after it, and every write in
    # the channel must keep to it; so does the moment a turn message's edit waits for more clicks.
    assert t.pace == (5, 0.5)
    monkeypatch.setattr(turn_posts, "QUIET", turn_posts.QUIET / 10)
    await t.start(engine)
    start = await open_game(t)
    assert "The game begins" in start.content
    await t.done("the start shown")
    writes_before = channel_writes(t)
    messages_before = len(t.s.channel_messages(t.channel))
    since = t.s.log[-1].at
    rnd = random.Random(1)
    restarted = False
    for step in range(1500):
        game = await t.game()
        if game is None:
            break
        state = game.state
        action = autoplay.choose(t.bot.content, state, rnd)
        if action["type"] == "trade":
            action = {"type": "end", "player": state["turn"]["player"]}
        handle = await play_one(t, action, game, use_buttons=step % 2 == 0)
        after = await t.game()  # None once the game is over
        assert after is None or after.state != state, f"{action} was refused: {handle.content}"
        if step == 25 and not restarted:
            # The bot stops mid-game and starts again: nothing is lost.
            before = await t.state()
            await t.restart(engine)
            assert await t.state() == before
            restarted = True
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the end shown")
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert restarted
    # Quiet: one message per turn, edited in place as the turn is played (quick clicks share an edit)
    turns = (await t.bot.service.latest_game(str(t.channel.id))).state["turn"]["number"]
    writes = channel_writes(t) - writes_before
    posted = len(t.s.channel_messages(t.channel)) - messages_before
    print(f"channel writes: {writes} in {turns} turns: {writes / turns:.2f} a turn; "
          f"{posted / turns:.2f} new messages a turn; at most {busiest(t, since, 0.5)} writes in 0.5 s")
    # (each turn's message is posted, edited as it goes, and closed when the next one comes: about 3 writes a turn)
    assert writes / turns <= 3.5, f"{writes} channel writes in {turns} turns"
    assert posted / turns <= 1.2, f"{posted} new messages in {turns} turns"
    assert busiest(t, since, 0.5) <= 5, "every write in the channel (answers to interactions too) kept the pace"
    assert "The haunt begins!" in public
    assert "press Ready" in public
    assert any(w in public for w in ("The traitor wins!", "The heroes win!", "The heroes are lost!")), public[-800:]
    assert any(a.filename == "map.png" for m in t.s.channel_messages(t.channel) for a in m.attachments)
    await t.s.wait_for(lambda: any(a.filename == "replay.gif" for m in t.s.channel_messages(t.channel)
                                   for a in m.attachments), timeout=60, what="the replay at the end")
    gif = next(a for m in t.s.channel_messages(t.channel) for a in m.attachments if a.filename == "replay.gif")
    assert gif.data[:6] in (b"GIF89a", b"GIF87a")
    assert t.s.pins(t.channel), "the game summary is pinned"
    # a question is asked once: the prompt line that pings who must answer, not also the engine's own line
    asked_twice = [m.content for m in t.s.channel_messages(t.channel)
                   if "your choice: " in m.content and ", choose: " in m.content]
    assert not asked_twice, asked_twice[:1]
    # At the reveal the secret rules go out before the reveal's message and its map, which may take a while to draw
    created = [e for e in t.s.log if e.kind == "message" and e.message is not None]
    reveal = next(i for i, e in enumerate(created) if "The haunt begins!" in e.after["content"])
    rules = next(i for i, e in enumerate(created) if e.message.channel.is_dm and "Your rules, as" in e.after["content"])
    assert rules < reveal, "the secrets first, then the map"
    assert "map.png" in created[reveal].after["attachments"] or messages.MAP_LATER in created[reveal].after["content"]
    assert not t.s.client_errors, t.s.client_errors
    assert "Traceback" not in public


async def test_an_old_button_works_after_a_restart(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    first = t.name_of(game.state["turn"]["player"])
    west = t.button_id(game, {"type": "move", "way": "west"})
    old = t.last_with(west)
    await t.restart(engine)
    handle = await t.click(first, west, message=old)
    assert not handle.ephemeral
    await t.s.wait_for(lambda: "moves to the Inner Chamber" in old.content, timeout=60,
                       what="the turn message edited with the move")
    assert (await t.state())["players"][t.uid(first)]["tile"] == "inner_chamber"


async def test_strangers_and_wrong_players_are_refused_privately(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    game = await t.game()
    current = t.name_of(game.state["turn"]["player"])
    other = next(n for n in ("ann", "bo", "cy") if n != current)
    h = await t.click("stranger", t.button_id(game, {"type": "move", "way": "west"}))
    assert h.ephemeral and "not playing in this game" in h.content
    assert h.message in t.s.ephemeral_messages(t.users["stranger"])
    h = await t.click(other, t.button_id(game, {"type": "end"}))
    assert h.ephemeral and "turn, not yours" in h.content
    h = await t.slash(other, "move", options={"direction": "north"})
    assert h.ephemeral
    assert (await t.state())["turn"]["player"] == t.uid(current), "nothing changed"


async def test_sheet_is_private_and_rules_answer(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    h = await t.slash("bo", "sheet")
    assert h.ephemeral and "Lia Faen Tlabbar" in h.content
    assert h.message not in t.s.visible_messages(t.users["ann"], t.channel)
    h = await t.slash("cy", "rules", options={"topic": "haunt_roll"})
    assert h.ephemeral and "6 or more" in h.content
    h = await t.slash("stranger", "sheet")
    assert h.ephemeral and "not playing" in h.content


async def test_closed_dms_get_the_fallback_and_secrets_stay_private(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path, closed_dms=("cy",))
    await t.start(engine)
    start = await open_game(t)
    await start.wait_until(lambda h: any("cannot send you private" in m.content for m in h.followups), timeout=60)
    warnings = [m for m in start.followups if "cannot send you private messages" in m.content]
    assert warnings and f"<@{t.uid('cy')}>" in warnings[0].content
    game = await t.game()
    s = game.state
    pid = arrange_hidden_traitor_reveal(s)
    await t.put_state(game, s)
    await t.slash(t.name_of(pid), "end")  # the reveal: the fallback comes in the channel, with the reveal
    await t.s.wait_for(lambda: any("could not send you" in m.content for m in t.s.channel_messages(t.channel)),
                       timeout=60, what="the fallback for closed DMs")
    await t.s.wait_for(t.bot.turn_posts.idle, timeout=60, what="the reveal shown")
    public = "\n".join(m.content for m in t.s.channel_messages(t.channel))
    assert "hidden traitor" in public.lower()
    assert "Your token" not in public and "You are the hidden traitor" not in public
    for name in ("ann", "bo"):
        dms = [m.content for m in t.s.dm_messages(t.users[name])]
        assert any("Your token shows" in d for d in dms), name
    assert not any("Your token" in m.content for m in t.s.dm_messages(t.users["cy"]))
    fallback = [m for m in t.s.channel_messages(t.channel) if "could not send you a private message" in m.content]
    assert fallback
    press = await t.click("cy", "bgv:secret", message=fallback[0])
    assert press.ephemeral and "Your token shows" in press.content
    assert press.message in t.s.ephemeral_messages(t.users["cy"])
    peek = await t.click("ann", "bgv:secret", message=fallback[0])
    assert peek.ephemeral
    cy_secret = press.content
    assert cy_secret not in peek.content


@pytest.mark.parametrize("who", ["bo"])
async def test_only_creator_or_manager_ends_the_game(fake_discord, tmp_path, engine, who):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    h = await t.slash(who, "game", subcommand="end")
    assert h.ephemeral and "Manage Channels" in h.content
    h = await t.slash("ann", "game", subcommand="end")
    assert "has ended" in h.content


async def test_a_channel_the_bot_cannot_post_in_still_plays(fake_discord, tmp_path, engine):
    # Interaction answers still work; what needs the channel (the pinned summary, reminders) is skipped quietly.
    t = Table(fake_discord, tmp_path)
    t.s.deny_bot(t.channel, "send_messages")
    await t.start(engine)
    start = await open_game(t)
    assert "The game begins" in start.content
    t.bot.service.clock = lambda: 10 ** 12
    await t.bot.fire_timers()  # (it returns once the reminders are sent, or given up)
    await t.done("the summary and the timers' messages tried", summaries=True)
    assert not t.s.pins(t.channel)
    assert all("Traceback" not in m.content and "went wrong" not in m.content for m in t.s.sent)


async def test_reminders_come_from_stored_timers(fake_discord, tmp_path, engine):
    t = Table(fake_discord, tmp_path)
    await t.start(engine)
    await open_game(t)
    state = await t.state()
    waiting = state["turn"]["player"]
    t.bot.service.clock = lambda: 10 ** 12  # long after every reminder and deadline
    await t.bot.fire_timers()
    await t.s.wait_for(lambda: any("deadline has passed" in m.content for m in t.s.channel_messages(t.channel)),
                       timeout=60, what="the reminder and the deadline")
    texts = [m.content for m in t.s.channel_messages(t.channel)]
    assert any(f"<@{waiting}>, a reminder" in x for x in texts)
    assert any("deadline has passed" in x for x in texts)
    other = next(n for n in ("ann", "bo", "cy") if t.uid(n) != waiting)
    h = await t.slash(other, "game", subcommand="skip")
    assert "Vote to skip recorded (1 of 2 needed)" in h.content
