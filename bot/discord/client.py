"""The Discord adapter: slash commands and buttons in, messages out. It parses
input, asks the service, and shows what happened; the rules live in the
engine."""
import asyncio
import collections
import contextlib
import gc
import io
import logging
import os
import signal
import sys
import time

import discord
from discord import app_commands

from bot import games
from bot.discord import chronicle, controls, event_loop, join_form, messages, turn_posts
from bot.discord.at_scale import let_go, sweep_when_doubled
from bot.discord.line import Line
from bot.discord.map_queue import MapQueue
from bot.discord.pace import ChannelPace
from bot.discord.private_threads import PrivateThreads
from bot.discord.turn_posts import TurnPosts, in_play
from bot.discord.worker import render_pool
from bot.discord.face import face_of
from bot.kit.errors import ContentError, IllegalAction
from bot.service import GameService, StoreError, Superseded, seats

log = logging.getLogger("bot.discord")
DATABASE_AWAY = ("The game's database is not answering just now, so that was not recorded; your game is safe. "
                 "Try again in a moment.")
SUMMARY_EVERY = 30.0  # seconds: the pinned summary is edited at most this often (Discord: 5 writes per 5 s a channel)
QUEUED = 1.0  # seconds an interaction may have waited before its handler runs, past which it is deferred first
DISCORD_WAITS = 3.0  # seconds Discord waits for an interaction's first answer
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction it has failed or forgotten
PATIENCE = 1.5  # seconds after which an action still waiting in the line of actions is deferred (Discord: 3)
GIL_SWITCH = 0.0005  # seconds (see setup_hook)
GC_THRESHOLDS = (700, 10, 100)  # young collections as usual; a full one after 100 middle ones, not 10
STOP_WAIT = 3.0  # seconds the stop waits for the tasks it cancelled to end
DRAIN_WAIT = 25.0  # seconds a graceful stop waits for what it took to be shown (docker-compose.yml allows 30)
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-")  # discord.py's names for the tasks that run handlers
MAP_AFTER_ANSWER_WAIT = 30.0  # seconds a map posted after its answer may wait for the worker
NEWEST_WAIT = 1.0  # seconds a click on a superseded message waits for the newest one to be posted
RENDER_NICENESS = 19  # where the idle class is missing: the map worker yields the CPU as far as niceness goes


def yield_cpu():
    """Runs in the render worker as it starts: it draws only with CPU time
    nothing else wants (Linux's idle class), so the bot's answers never wait
    for a map; a map that cannot start in time is skipped, not the answer."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux
        os.nice(RENDER_NICENESS)


class GameBot(discord.Client):
    # Runs in the map worker as it starts (pickled by name into it): into Linux's idle class. (The tests
    # start it their own way, tests/conftest.py: their machine is busy with other tests, not with answers.)
    start_renderer = staticmethod(yield_cpu)

    def __init__(self, config, engine=None, *, intents: discord.Intents | None = None, **options):
        # Nothing the bot sends pings anyone unless a message names who: a player
        # called "@everyone" or a role mention in a nickname stays plain text.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if config.shard_count:  # one of several processes: this one runs some shards (see README, several processes)
            if isinstance(self, discord.AutoShardedClient):
                options.setdefault("shard_ids", list(config.shards))
            else:
                options.setdefault("shard_id", config.shards[0])
            options.setdefault("shard_count", config.shard_count)
        super().__init__(intents=intents or read_no_messages(), **options)
        sweep_when_doubled(self.http)
        self.config = config
        self.engine = engine  # the default system's engine (tests give one over their content); None: as registered
        self.default = games.get(games.DEFAULT).over(engine) if engine is not None else games.get(games.DEFAULT)
        # every game this bot hosts (the default one over the given engine), each with its face on Discord
        self.systems = [self.default if s.id == self.default.id else s for s in games.systems()]
        self.service: GameService | None = None  # everything the bot reads or writes goes through it
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self.on_command_error
        self.tree.interaction_check = self.claim
        self.poller: asyncio.Task | None = None
        self.lag_watch: asyncio.Task | None = None
        self.newest_buttons: dict[str, str] = {}  # channel id -> link to the message with the newest buttons
        self.buttons_moved: dict[str, asyncio.Event] = {}  # channel id -> set when its newest buttons move on
        self.turn_posts = TurnPosts(self)  # each channel's current turn message, edited in place
        self.private_threads = PrivateThreads(self)  # players' secret threads, where the server chose them
        self.summary_edited: dict[str, float] = {}  # channel id -> when its pinned summary was last edited
        self.summary_waiting: set[str] = set()
        self.summary_locks: dict[str, asyncio.Lock] = collections.defaultdict(asyncio.Lock)  # one update at a time
        self.background: set[asyncio.Task] = set()
        self.driving: dict[str, bool] = {}  # channels where the bot plays its seats now -> look again when done
        self.thinking = Thinking()  # interactions deferred privately while the bot was busy
        self.line = Line()  # how many actions are applied at once; the rest wait, or hear the bot is busy
        self.draining = False  # stopping gracefully: no new interaction taken, those taken answered
        self.stop_on_sigterm = False  # (set by run(): a deploy's SIGTERM drains, then closes)
        self.stopping = False  # closing: no new background task is started
        self.stopped: asyncio.Future | None = None  # done once closed
        self.pace = ChannelPace()  # at most 5 writes per 5 s in a channel, as Discord allows
        self.renderer = render_pool(self.start_renderer)  # the map worker, which ends with the bot (see worker.py)
        self.maps = MapQueue(self.renderer)
        from bot.discord.commands import register
        register(self)

    @property
    def content(self):
        """The default system's content (tools and tests read it; the bot itself asks each game's system)."""
        return self.default.content()

    def face_of(self, system):
        """How a system's games look here (bot.discord.face)."""
        return face_of(system)

    async def setup_hook(self):
        # The database thread hands each statement's result back to the event loop, which needs the GIL;
        # Python's default 5 ms switch interval would make a busy loop keep it that long every time.
        sys.setswitchinterval(GIL_SWITCH)
        gc.set_threshold(*GC_THRESHOLDS)
        self.service = await GameService.open(self.config.database, self.engine)
        if self.config.shard_count:
            self.service.shard = (self.config.shards, self.config.shard_count)
        items = [controls.ViewButton, join_form.FormSelect, join_form.FormButton, chronicle.MemberButton]
        for system in self.systems:
            items += [i for i in self.face_of(system).dynamic_items if i not in items]
        self.add_dynamic_items(*items)
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.poller = asyncio.create_task(self.poll_timers())
        self.lag_watch = asyncio.create_task(self.line.watch_lag())
        if self.stop_on_sigterm:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.stop_gracefully)
        # The map worker starts now, not at the first map after a restart (loading the rules takes seconds).
        warming = asyncio.get_running_loop().run_in_executor(self.renderer, warm_renderer)
        warming.add_done_callback(lambda f: f.cancelled() or f.exception() is None or
                                  log.warning("map worker did not start: %r", f.exception()))

    async def on_ready(self):
        # The rules, the cards and Discord's caches live as long as the bot: moved out of the garbage
        # collector's sight, so that a full collection scans only what games make (a pause of
        # hundreds of milliseconds at a thousand games otherwise).
        gc.freeze()
        task = asyncio.create_task(self.pick_up())
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        task.add_done_callback(lambda _: self.drive_all())

    async def pick_up(self):
        """After a start: the secrets a stop kept back, then each game's turn message given live buttons again."""
        await self.send_undelivered()
        await self.refresh_turn_messages()

    async def refresh_turn_messages(self):
        """Every game in play finds its turn message again (bot.discord.turn_posts: refresh)."""
        for game in list(self.service.playing.values()):
            try:
                await self.turn_posts.refresh(game)
            except discord.HTTPException as e:
                log.info("turn message of game %s not refreshed: %s", game.id, e)

    def drive_all(self):
        """After a start: every game waiting for a seat the bot plays goes on."""
        for game in list(self.service.playing.values()):
            if self.service.bot_to_play(game):
                self.drive(game.channel_id)

    async def send_undelivered(self):
        """Private messages a game committed but the bot never sent (it
        stopped in between, say at the reveal): sent now, late but whole."""
        for game in await self.service.active_games():
            private, last = await self.service.undelivered(game)
            if not private:
                continue
            channel = self.get_channel(int(game.channel_id)) or self.get_partial_messageable(int(game.channel_id))
            try:
                await self.send_private(self.channel_poster(channel),
                                        {uid: [messages.LATE_SECRET, *(self.service.system(game).speak(
                                            t, game.state, "discord") for t in texts)]
                                         for uid, texts in private.items()},
                                        game, last)
            except discord.HTTPException as e:
                log.info("undelivered secrets of game %s still not sent: %s", game.id, e)

    async def claim(self, interaction: discord.Interaction) -> bool:
        """Whether this process handles the interaction. Discord sends it to
        every connection of its shard, and in a rolling restart two
        processes hold one: the first to claim it answers it, and one that
        is stopping takes none (the process replacing it does)."""
        if self.draining:
            return False
        try:
            return await self.service.claim(interaction.id)
        except StoreError:  # the database is away: answered here (its action is refused with why)
            return True

    def stop_gracefully(self):
        task = asyncio.create_task(self.drain())
        self.background.add(task)

    async def drain(self, wait: float = DRAIN_WAIT):
        """A graceful stop (a deploy's SIGTERM): take no new interaction,
        answer and show those taken, then close."""
        if self.draining:
            return
        self.draining = True
        log.info("stopping: answering the interactions already taken")
        deadline = time.monotonic() + wait
        while (handling() or not self.turn_posts.idle()) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if handling() or not self.turn_posts.idle():
            log.warning("stopping after %g s with %d commands or clicks still being shown", wait, len(handling()))
        await self.close()

    async def close(self):
        """Stop: every task the bot started (timers, pinned summaries' edits,
        built-in play, turn messages' edits, handlers still running) is
        cancelled and has ended before the database closes, so none runs
        against a closed store; then the map worker ends. (A second call,
        say discord.py's own as `async with` ends, waits for the first.)"""
        if self.stopped is not None:
            return await asyncio.shield(self.stopped)
        self.stopped = asyncio.get_running_loop().create_future()
        try:
            await self._close()
        finally:
            self.stopped.set_result(None)

    async def _close(self):
        self.stopping = True  # from now on nothing new is started (summary_due, drive, close_later)
        here = asyncio.current_task()
        pending = [t for t in (self.poller, self.lag_watch, *self.background, *self.turn_posts.tasks(), *handling())
                   if t is not None and t is not here and not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            _, late = await asyncio.wait(pending, timeout=STOP_WAIT)
            if late:
                log.warning("stopping with %d tasks that did not end in %g s", len(late), STOP_WAIT)
            for task in pending:  # retrieved: a task that failed as it ended is logged here, not at exit
                if task.done() and not task.cancelled() and task.exception() is not None:
                    log.info("task %s ended at the stop with %r", task.get_name(), task.exception())
        await super().close()
        if self.service:
            await self.service.close()
        self.renderer.shutdown(wait=False, cancel_futures=True)

    # --- the common path of every action -------------------------------------------

    async def act(self, interaction: discord.Interaction, action: dict, player: str | None = None,
                  unsigned: str | None = None, button=None, committed=None):
        """Apply `action` for the user (or, for kick and handover, for `player`)
        and show what happened; a refusal is answered privately. With
        `unsigned`, the user is answered privately with that text and the
        channel hears the outcome as a plain message, so nobody sees who
        acted (an answer to a claimed win). With `button`, the action comes
        from a click: it must belong to the game, turn and question the
        button was offered for. `committed(outcome)` is called as soon as the
        action is committed, before anything is shown (what must not wait
        for the channel's pace starts there)."""
        action = {**action, "player": player or str(interaction.user.id)}
        channel_id = str(interaction.channel_id)
        if not await self.admit(interaction, channel_id):
            return None
        if "name" in action and action["name"] is None:
            action["name"] = interaction.user.display_name
        where = {}
        if button is not None:
            where = {"game_id": button.game_id, "turn": button.turn,
                     "question": button.question if action["type"] == "decide" else None}
        async def apply():
            async with self.line.take(channel_id):
                return await self.service.act(channel_id, action, **where)
        try:
            outcome = await self.in_time(interaction, apply())
        except StoreError as e:  # (e.g. the database restarting): nothing was recorded
            log.warning("action not recorded in %s: %s", interaction.channel_id, e)
            await self.private(interaction, DATABASE_AWAY)
            return None
        except IllegalAction as e:
            if isinstance(e, Superseded):
                await self.private(interaction, await self.superseded(interaction, e.reason))
            else:
                await self.private(interaction, e.reason)
            if getattr(e, "back", None):  # the stand-in gave the seat back all the same
                await self.channel_poster(interaction.channel or self.get_partial_messageable(
                    interaction.channel_id))(e.back)
            return None
        if committed is not None:
            committed(outcome)
        back = " ".join(outcome.notes)  # the stand-in gave this player's seat back
        if unsigned:
            await self.private(interaction, unsigned)
            if in_play(outcome):
                await self.turn_posts.show(interaction, outcome, answered=True, extra=back)
            else:
                await self.announce(None, outcome, channel=interaction.channel
                                    or self.get_partial_messageable(interaction.channel_id), extra=back)
        elif in_play(outcome):
            await self.turn_posts.show(interaction, outcome, extra=back)
        else:
            await self.announce(interaction, outcome, extra=back)
        if self.service.bot_to_play(outcome.game, outcome.state):  # (most games have no seat the bot plays)
            self.drive(outcome.game.channel_id)
        return outcome

    # --- seats the bot plays (bot.service.seats) -------------------------------------

    @staticmethod
    def played_by_bot(outcome) -> set[str]:
        """The seats the bot plays in the outcome's game (read from the
        outcome's state: the game row keeps its state as text once committed)."""
        return seats.played_by_bot(outcome.state, outcome.game.settings)

    def drive(self, channel_id: str):
        """Let the bot play its seats in the channel's game, if it waits for
        one: in the background, one stretch at a time, each shown like a
        person's action and followed by a pause a person can follow."""
        if self.stopping:
            return  # the next process plays on (drive_all)
        if channel_id in self.driving:
            self.driving[channel_id] = True  # the running drive looks again before it stops
            return
        self.driving[channel_id] = False
        task = asyncio.create_task(self._drive(channel_id))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _drive(self, channel_id: str):
        try:
            while True:
                outcome = await self.service.play_builtin(channel_id)
                if outcome is None:
                    if not self.driving.get(channel_id):
                        return
                    self.driving[channel_id] = False
                    continue
                channel = self.get_channel(int(channel_id)) or self.get_partial_messageable(int(channel_id))
                if in_play(outcome):
                    await self.turn_posts.show(None, outcome, channel=channel)
                else:
                    await self.announce(None, outcome, channel=channel)
                await asyncio.sleep(self.config.builtin_pause)
        except Exception:  # noqa: BLE001 - the game is saved; the next action or restart drives again
            log.exception("built-in play failed in %s", channel_id)
        finally:
            self.driving.pop(channel_id, None)

    async def admit(self, interaction: discord.Interaction, channel_id: str) -> bool:
        """Whether to take on the interaction's action (bot/discord/line.py).
        Not when Discord has failed it already, nor when the bot has more to
        do than it can finish in time (the player is told so at once); taken
        on, it is deferred first when its answer would come late anyway: it
        waited, or its wait in line takes it past PATIENCE (a deferral is one
        more request, and its answer one more: not made when not needed)."""
        waited = waited_for(interaction)
        if waited > DISCORD_WAITS:  # Discord told the player it failed: no answer can reach them any more
            log.warning("interaction %s read %.1f s late, after Discord's limit: not taken", interaction.id, waited)
            return False
        if self.line.too_long(waited, channel_id):
            self.line.turned_away += 1
            await self.private(interaction, messages.BUSY)
            return False
        if waited > QUEUED or waited + self.line.expected_wait(channel_id) > PATIENCE:
            return await self.defer(interaction)
        return True

    async def in_time(self, interaction: discord.Interaction, work):
        """The result of `work` (waiting in the line of actions, then the
        action: nothing is answered before it ends), acknowledging the
        interaction first if it is not done when the interaction is
        PATIENCE seconds old."""
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait((task,), timeout=max(0.0, PATIENCE - waited_for(interaction)))
            if not done:
                await self.defer(interaction)
            return await task
        except asyncio.CancelledError:
            task.cancel()
            raise

    async def defer(self, interaction: discord.Interaction) -> bool:
        """Acknowledge now, answer later: a click silently (the turn message
        shows its result), a command with a private "thinking" that its
        answer replaces. False when Discord had failed the interaction before
        the acknowledgement reached it (on a machine too busy to send it in
        time): a warning, not an error, as when it is read too late."""
        if interaction.response.is_done():
            return True
        try:
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
                self.thinking.add(interaction.id)
        except discord.NotFound as e:
            if not failed_by_discord(e):
                raise
            log.warning("interaction %s acknowledged %.1f s after it was made, after Discord's limit",
                        interaction.id, waited_for(interaction))
            return False
        return True

    def channel_poster(self, channel):
        return poster(None, channel, pace=self.pace)

    async def public(self, interaction: discord.Interaction, content: str | None = None, **kwargs):
        """A public answer to the interaction, deferred or not."""
        return await poster(interaction, None, self.thinking, self.pace)(content, **kwargs)

    async def announce(self, interaction: discord.Interaction | None, outcome, extra: str = "",
                       channel=None):
        """Tell the channel what happened (the action is already committed),
        deliver private events by DM, post the map when a turn ended. Without
        an interaction the messages go to `channel` as plain messages."""
        post = poster(interaction, channel, self.thinking, self.pace)
        state = outcome.state
        played = self.played_by_bot(outcome)
        system = self.service.system(outcome.game)
        face = self.face_of(system)
        d = face.deliver(outcome.before, state, outcome.events, played)
        view, hints = face.turn_controls(state, outcome.game.id, played)
        lines = [extra] if extra else []
        lines += d.public or ["Done."]
        if hints:
            lines.append(messages.hints_line(hints))
        parts = messages.chunks(lines) if extra or hints else lines
        mentions = controls.pinging(d.ping)
        secrets = None  # sent while the channel's messages wait for its pace, once the answer is out
        try:
            for i, part in enumerate(parts):
                kwargs = {"allowed_mentions": mentions}
                last = i == len(parts) - 1
                if last and view is not None:
                    kwargs["view"] = view
                sent = await post(part, **kwargs)
                if secrets is None:
                    secrets = asyncio.ensure_future(self.send_private(post, d.private, outcome.game, outcome.seq))
                if "view" in kwargs:
                    self.remember_buttons(outcome.game, sent)
                if last and (view is not None or face.in_play(state)):
                    # the turn's message from now on (a seat the bot plays has no buttons: its lines come here too)
                    self.turn_posts.adopt(outcome.game, state, channel or interaction.channel
                                          or self.get_partial_messageable(int(outcome.game.channel_id)),
                                          sent, d.said, d.tail, view, seq=outcome.seq)
                    adopted = self.turn_posts.posts.get(outcome.game.channel_id)
                    if adopted is not None:
                        await self.turn_posts.remember(outcome.game, adopted.message_id)
            over = system.phase(state) == "over"
            if over and system.phase(outcome.before) != "over":
                await post(await self.seed_reveal(outcome.game))
                await self.send_ending(post, outcome.game, face, state)
        finally:
            if secrets is None:
                secrets = asyncio.ensure_future(self.send_private(post, d.private, outcome.game, outcome.seq))
            await secrets  # before the map, which may take a while
        await chronicle.tell_news(self, outcome.game.channel_id, post, interaction)  # the campaign's, if kept here
        if face.map_due(outcome.before, state):
            # The answer is out first; the map follows once drawn (if the worker, busy with newer maps,
            # has not begun it in half a minute, it is left to /map).
            picture = await self.map_file(state, interaction, wait=MAP_AFTER_ANSWER_WAIT, system=system.id)
            if picture is not None:
                try:
                    await post(file=picture)
                except discord.Forbidden:
                    log.info("cannot attach the map in %s", outcome.game.channel_id)
                    await post(messages.NO_ATTACH)
        if state["phase"] != outcome.before["phase"] or state["phase"] == "lobby" or \
                (outcome.turn_changed and face.new_round(outcome.before, state)):
            # the pinned summary is edited once a round at most, not every turn
            self.summary_due(outcome.game, now_too=state["phase"] != outcome.before["phase"] or state["phase"] == "lobby")

    def remember_buttons(self, game, sent):
        """Where the newest buttons of the channel's game are, to point a
        click on an older one there (kept in memory: after a restart, the
        turn message found again, see refresh_turn_messages)."""
        message_id = getattr(getattr(sent, "resource", None), "id", None) or getattr(sent, "id", None)
        if message_id:
            self.newest_buttons[game.channel_id] = ("https://discord.com/channels/"
                                                    f"{game.guild_id or '@me'}/{game.channel_id}/{message_id}")
            moved = self.buttons_moved.pop(game.channel_id, None)
            if moved is not None:
                moved.set()

    async def superseded(self, interaction: discord.Interaction, reason: str) -> str:
        """The refusal of a button the game has left behind, pointing to the
        newest buttons. A click on the message that is still the newest one
        known (the next turn's message is on its way, waiting for the
        channel's pace) waits a moment for it, and never links to itself."""
        channel_id = str(interaction.channel_id)
        clicked = getattr(getattr(interaction, "message", None), "id", None)

        def newest() -> str | None:
            link = self.newest_buttons.get(channel_id)
            return None if link and clicked is not None and link.endswith(f"/{clicked}") else link
        if newest() is None and channel_id in self.newest_buttons:
            moved = self.buttons_moved.setdefault(channel_id, asyncio.Event())
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(moved.wait(), NEWEST_WAIT)
            if newest() is None:
                return f"{reason} The newest buttons are on their way."
        link = newest()
        return f"{reason} The newest buttons: {link}" if link else reason

    async def private(self, interaction: discord.Interaction, message: str, **kwargs):
        self.thinking.pop_loading(interaction.id)  # a private answer takes the place of "thinking"
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(message, ephemeral=True, **kwargs)

    async def private_if_in_time(self, interaction: discord.Interaction, message: str, **kwargs):
        """The private answer to an action already committed: when it comes
        after Discord's limit, a warning, and what follows still goes out."""
        with unless_too_late(interaction):
            await self.private(interaction, message, **kwargs)

    async def send_private(self, post, private: dict[str, list[str]], game, seq: int | None):
        """Secrets go by DM, or into each player's private thread where the
        server chose threads (/server secrets; by DM if the thread fails);
        if a player's DMs are closed, they get a button that shows them
        privately instead. Once out, the game's private messages up to
        action `seq` count as delivered (those a crash kept back are sent
        after a restart: see send_undelivered)."""
        committed, private = bool(private), {uid: texts for uid, texts in private.items()
                                             if not uid.startswith(seats.BUILTIN)}  # the bot keeps its own seats'
        threads = bool(private) and await self.private_threads.chosen(game)

        async def send(uid: str, texts: list[str]):
            if threads and await self.private_threads.send(game, uid, texts):
                return
            try:
                user = await self.fetch_user(int(uid))
                for part in messages.chunks(texts):
                    await user.send(part)
            except (discord.Forbidden, discord.HTTPException, ValueError):
                log.info("DM to %s refused; offering the secret button", uid)
                await post(
                    f"<@{uid}>, I could not send you a private message (your DMs are closed). Press the button to "
                    "see it here, privately.", view=controls.secret_view(),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))]))
        # Everyone's at once: a DM does not count against the channel's pace, nor waits for another's.
        await asyncio.gather(*(send(uid, texts) for uid, texts in private.items()))
        if committed:
            await self.service.delivered(game, seq)

    async def map_file(self, state: dict, interaction, wait: float | None = None,
                       asked: bool = False, whole: bool = True, system: str | None = None) -> discord.File | None:
        """The map as an attachment, drawn in a worker process so a render
        never stalls the event loop (and the other games) behind the GIL.
        The worker draws only with CPU time the bot's answers leave, newest
        map first (see MapQueue). With `wait`, None once that many seconds
        pass (the map is not drawn if not begun); `asked`: a player asked for
        it (it goes first); `whole`: the whole city, else the turn's picture
        made for a phone (the tiles around whoever acts, with a locator)."""
        limit = getattr(getattr(interaction, "guild", None), "filesize_limit", 10 * 1024 * 1024)
        if self.draining:  # stopping: a map already drawn or none (the next process draws the next)
            wait = 0.0
        try:
            data = await self.maps.draw(render_png if whole else render_turn_png, system or self.default.id, state,
                                        limit, wait=wait, asked=asked)
        except Exception:  # noqa: BLE001 - a picture must never break a turn
            log.exception("map render failed")
            return None
        if data is None:
            log.info("map not drawn within %s s; the turn goes on without it", wait)
            return None
        return discord.File(io.BytesIO(data), filename="map.png")

    async def seed_reveal(self, game) -> str:
        """The secret seed, told once the game has ended, and how to check the dice."""
        seed = await self.service.revealed_seed(game)
        return (f"This game's secret seed was {seed} (its SHA-256 is the commitment posted at the start, "
                f"`{self.service.commitment(game)}`). Check every roll and draw: `/log file`, then "
                f"`python -m bot table --verify {seed} <the log file>`.")

    REPLAY_CAPTION = ("The game, turn by turn, as the table saw it (what was hidden shows only in the last picture, "
                      "after the end):")

    async def replay_file(self, game) -> discord.File | None:
        """The whole game as an animated picture, one frame per turn (None when it cannot be drawn)."""
        actions = await self.service.actions(game)
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                self.renderer, render_replay, game.system, game.seed, actions, game.state.get("options", {}))
        except Exception:  # noqa: BLE001 - a picture must never break the game's end
            if self.draining or self.is_closed():
                log.info("replay not drawn in %s: the bot is stopping", game.channel_id)
            else:
                log.exception("replay render failed")
            return None
        return None if data is None else discord.File(io.BytesIO(data), filename="replay.gif")

    async def send_replay(self, post, game):
        """The replay picture in a message of its own (/replay, /history)."""
        file = await self.replay_file(game)
        if file is None:
            return
        try:
            await post(self.REPLAY_CAPTION, file=file)
        except discord.HTTPException as e:
            log.info("replay not sent in %s: %s", game.channel_id, e)

    async def send_ending(self, post, game, face, state: dict):
        """The end's story, with the replay picture (when the game has one) under its last part: one
        message fewer than the picture on its own."""
        file = await self.replay_file(game) if face.replay_due(state) else None
        parts = messages.chunks(face.story(state) + ([self.REPLAY_CAPTION] if file is not None else []))
        for i, part in enumerate(parts):
            under = {"file": file} if file is not None and i == len(parts) - 1 else {}
            try:
                await post(part, allowed_mentions=discord.AllowedMentions.none(), **under)
            except discord.HTTPException as e:
                log.info("the end's story not sent in %s: %s", game.channel_id, e)
                return

    async def send_map(self, interaction, state: dict, ephemeral: bool, system: str | None = None):
        if not state or self.service.system_named(system).phase(state) == "lobby":
            if ephemeral:
                await self.private(interaction, "The map appears once the game has started.")
            else:
                await interaction.followup.send("The map appears once the game has started.")
            return
        file = await self.map_file(state, interaction, asked=True, system=system)
        if file is None:
            await self.private(interaction, "The map could not be drawn just now; try /map again.")
            return
        if ephemeral and not interaction.response.is_done():
            await interaction.response.send_message(file=file, ephemeral=True)
        else:
            await interaction.followup.send(file=file, ephemeral=ephemeral)

    def summary_due(self, game, now_too: bool = False):
        """Edit the pinned summary soon: at once if it has not been edited
        for SUMMARY_EVERY seconds (or `now_too`), else once that time is
        up, with the game as it is then. Quick rounds share one edit."""
        channel_id = game.channel_id
        if channel_id in self.summary_waiting or self.stopping:
            return
        wait = 0 if now_too else max(0.0, self.summary_edited.get(channel_id, 0) + SUMMARY_EVERY - time.monotonic())
        self.summary_waiting.add(channel_id)

        async def later():
            try:
                await asyncio.sleep(wait)
            finally:
                self.summary_waiting.discard(channel_id)
            self.summary_edited[channel_id] = time.monotonic()
            latest = await self.service.latest_game(channel_id)
            await self.update_summary(latest if latest and latest.id == game.id else game)
        task = asyncio.create_task(later())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def update_summary(self, game):
        """The pinned summary is edited in place, never reposted: one update
        at a time in a channel, so two quick ones (joins in a row) never
        both post the first summary."""
        async with self.summary_locks[game.channel_id]:
            if not game.summary_message_id:  # another update may have posted it meanwhile
                latest = await self.service.latest_game(game.channel_id)
                if latest is not None and latest.id == game.id and latest.summary_message_id:
                    game.summary_message_id = latest.summary_message_id
            await self._update_summary(game)

    async def _update_summary(self, game):
        channel = self.get_channel(int(game.channel_id))
        if channel is None:
            return
        body = self.face_of(self.service.system(game)).summary(game.state)
        try:
            if game.summary_message_id:
                async with self.pace.write(channel.id):
                    await turn_posts.edit(self, channel.id, int(game.summary_message_id), body)
                return
            async with self.pace.write(channel.id):
                msg = await channel.send(body)
            await self.service.set_summary_message(game, str(msg.id))
            async with self.pace.write(channel.id):
                await msg.pin()
        except discord.HTTPException as e:
            log.info("summary not updated in %s: %s", game.channel_id, e)

    # --- buttons ---------------------------------------------------------------------

    async def on_action_button(self, interaction: discord.Interaction, carried):
        """A click on a game's button: the action it carries, through the same
        door as a slash command (the service refuses one from an earlier
        turn or a finished game)."""
        try:
            with unless_too_late(interaction):
                if carried is None:
                    await self.private(interaction, "That button is from an older version of the bot; use the "
                                                    "newest buttons, or /help.")
                    return
                await self.act(interaction, dict(carried.action), button=carried)
        finally:
            let_go(interaction)

    async def on_view_button(self, interaction: discord.Interaction, kind: str):
        try:
            with unless_too_late(interaction):
                if kind == "sheet":
                    await self.show_sheet(interaction)
                elif kind == "map":
                    game = await self.service.latest_game(str(interaction.channel_id))
                    await self.send_map(interaction, game.state if game else {}, ephemeral=True,
                                        system=game.system if game else None)
                else:
                    await self.show_secrets(interaction, str(interaction.user.id))
        finally:
            let_go(interaction)

    async def on_app_command_completion(self, interaction: discord.Interaction, command):
        let_go(interaction)  # handled (see bot.discord.at_scale)

    async def channel_game(self, interaction, started: bool = False):
        """This channel's game (the running one, else the last), or None after
        telling the user privately that there is none."""
        game = await self.service.latest_game(str(interaction.channel_id))
        if game is None or (started and self.service.system(game).phase(game.state) == "lobby"):
            await self.private(interaction, "There is no started game in this channel." if started else
                               "There is no game in this channel. Start one with /game new.")
            return None
        return game

    async def show_sheet(self, interaction):
        game = await self.service.latest_game(str(interaction.channel_id))
        uid = str(interaction.user.id)
        if game is None or uid not in game.state["players"]:
            await self.private(interaction, "You are not playing in this channel's game.")
            return
        sheet = self.face_of(self.service.system(game)).sheet(game.state, uid)
        await self.private(interaction, f"```\n{sheet[:1900]}\n```")

    async def show_secrets(self, interaction, uid: str):
        game = await self.service.latest_game(str(interaction.channel_id))
        if game is None:
            await self.private(interaction, "There is no game in this channel.")
            return
        system = self.service.system(game)
        secrets = [system.speak(line, game.state, "discord")
                   for line in await self.service.private_lines(game, uid, limit=80)]
        not_yet = self.face_of(system).nothing_secret_yet(game.state)
        if not secrets and not_yet:
            await self.private(interaction, not_yet)
            return
        parts = messages.chunks(secrets) or ["You have no private messages yet."]
        for part in parts[:10]:
            await self.private(interaction, part)

    # --- reminders and deadlines ----------------------------------------------------

    async def poll_timers(self):
        while True:
            try:
                await self.fire_timers()
            except Exception:  # noqa: BLE001 - the poller must survive a bad row or a Discord hiccup
                log.exception("timer poll failed")
            await asyncio.sleep(self.config.poll_seconds)

    async def fire_timers(self):
        for timer, game in await self.service.due_timers():
            channel = self.get_channel(int(game.channel_id))
            if channel is None:
                continue
            uid = timer["user_id"]
            if timer["kind"] == "reminder":
                body = f"<@{uid}>, a reminder: the game in this channel is waiting for you."
            elif timer.get("stand_in"):
                body = (f"<@{uid}>'s turn deadline has passed: the stand-in plays their seat until they act again "
                        "(any command or button of theirs takes it back, or /game back).")
            else:
                body = (f"<@{uid}>'s turn deadline has passed. Other players may vote with /game skip to skip it.")
            try:
                async with self.pace.write(channel.id):
                    await channel.send(body, allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(uid))]))
            except discord.HTTPException as e:
                log.info("timer message not sent to %s: %s", game.channel_id, e)
            if timer.get("stand_in"):
                self.drive(game.channel_id)

    # --- errors --------------------------------------------------------------------

    async def on_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        if self.is_closed():  # stopped past DRAIN_WAIT: what was left unsent cannot be sent any more
            log.warning("command cut short by the stop: %r", getattr(error, "original", error))
            let_go(interaction)
            return
        if failed_by_discord(error):  # its answer, "busy" included, came after Discord's limit: nobody to tell
            answered_too_late(interaction)
            let_go(interaction)
            return
        if isinstance(error, app_commands.CheckFailure) and str(error):  # another game's command: say whose
            try:
                await self.private(interaction, str(error))
            finally:
                let_go(interaction)
            return
        log.exception("command failed", exc_info=error)
        try:
            await self.private(interaction, "Something went wrong on my side. Your game is safe; try again.")
        except discord.HTTPException:
            pass
        finally:
            let_go(interaction)

    async def on_error(self, event_method, *args, **kwargs):
        log.exception("error in %s", event_method)


class ShardedGameBot(GameBot, discord.AutoShardedClient):
    """The bot in a process that runs several of Discord's shards (one
    gateway connection each; SHARD_IDS)."""


def make_bot(config, engine=None, **options) -> GameBot:
    """The bot for this process: one connection to Discord, or one per
    shard when it runs several."""
    several = config.shard_count and len(config.shards) > 1
    return (ShardedGameBot if several else GameBot)(config, engine, **options)


def handling() -> list[asyncio.Task]:
    """The tasks running a command's or a click's handler now."""
    return [task for task in asyncio.all_tasks() if not task.done() and task.get_name().startswith(HANDLER_TASKS)]


def waited_for(interaction: discord.Interaction) -> float:
    """Seconds since Discord made the interaction (its id's time)."""
    return discord.utils.utcnow().timestamp() - interaction.created_at.timestamp()


def failed_by_discord(error: BaseException) -> bool:
    """Whether Discord answered "unknown interaction" (10062): the answer
    reached it after its 3 s, on a machine too busy to send it in time.
    Discord has told the player already; nothing the bot sends can reach
    them through that interaction any more."""
    error = getattr(error, "original", error)  # (a command's error wraps the HTTP one)
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def answered_too_late(interaction: discord.Interaction):
    """A warning, not an error: the bot was too busy, and said nothing wrong."""
    log.warning("interaction %s answered %.1f s after it was made, after Discord's limit",
                interaction.id, waited_for(interaction))


@contextlib.contextmanager
def unless_too_late(interaction: discord.Interaction):
    """`with unless_too_late(interaction):` answering it, where an answer
    Discord has already failed (failed_by_discord) is answered_too_late."""
    try:
        yield
    except discord.NotFound as e:
        if not failed_by_discord(e):
            raise
        answered_too_late(interaction)


def read_no_messages() -> discord.Intents:
    """The bot acts on interactions only and reads no messages, so it asks
    Discord for none: a busy server's chat (and the echo of every message
    the bot itself posts or edits) never reaches it."""
    intents = discord.Intents.default()
    intents.messages = False
    intents.typing = False
    return intents


def poster(interaction: discord.Interaction | None, channel=None, thinking: "Thinking | None" = None,
           pace: ChannelPace | None = None):
    """How to say something in the channel: the interaction's answer, then its
    follow-ups; or, with no interaction, plain messages in `channel`. An
    interaction deferred privately (see Thinking) must not carry a public
    answer, which its user alone would see: its "thinking" message is
    removed and the answer goes to the channel as a plain message."""
    async def post(content: str | None = None, **kwargs):
        if interaction is not None and thinking is not None and interaction.id in thinking:
            if thinking.pop_loading(interaction.id):
                try:
                    await interaction.delete_original_response()
                except discord.HTTPException as e:
                    log.info("thinking message not removed: %s", e)
            return await plain(channel or interaction.channel, content, **kwargs)
        if interaction is None:
            return await plain(channel, content, **kwargs)
        if not interaction.response.is_done():
            return await interaction.response.send_message(content, **kwargs)  # (within 3 s: never waits)
        if pace is None:
            return await interaction.followup.send(content, wait=True, **kwargs)
        async with pace.write(interaction.channel_id):  # a public follow-up is one more write the channel sees
            return await interaction.followup.send(content, wait=True, **kwargs)

    async def plain(where, content, **kwargs):  # a message of the bot's own, within the channel's pace
        if pace is None:
            return await where.send(content, **kwargs)
        async with pace.write(where.id):
            return await where.send(content, **kwargs)
    return post


class Thinking:
    """Interactions the bot deferred privately because they had waited in its
    queue, and whether their "thinking" message still stands (the first
    private answer replaces it). Kept for 15 minutes, as long as Discord
    keeps an interaction's token."""
    KEEP = 15 * 60

    def __init__(self):
        self.since: dict[int, float] = {}
        self.loading: set[int] = set()

    def add(self, interaction_id: int):
        now = time.monotonic()
        while self.since:  # oldest first (a dict keeps the order they came in): those past Discord's 15 minutes go
            oldest, at = next(iter(self.since.items()))
            if now - at < self.KEEP:
                break
            del self.since[oldest]
            self.loading.discard(oldest)
        self.since[interaction_id] = now
        self.loading.add(interaction_id)

    def __contains__(self, interaction_id: int) -> bool:
        return interaction_id in self.since

    def pop_loading(self, interaction_id: int) -> bool:
        """Whether the "thinking" message still stands (it no longer will)."""
        if interaction_id in self.loading:
            self.loading.discard(interaction_id)
            return True
        return False


def warm_renderer():
    """Runs in the render worker: load what drawing needs, ahead of the first map."""
    for system in games.systems():
        system.content()


def render_png(system_id: str, state: dict, max_bytes: int) -> bytes | None:
    """Runs in the render worker: the whole board for this state, within Discord's upload limit
    (read from the guild at run time)."""
    return games.get(system_id).render_map(state, max_bytes=max_bytes)


def render_turn_png(system_id: str, state: dict, max_bytes: int) -> bytes | None:
    """Runs in the render worker: the turn's picture, sized for a phone."""
    return games.get(system_id).render_turn(state, max_bytes=max_bytes)


def render_replay(system_id: str, seed: int, actions: list[dict], options: dict) -> bytes | None:
    """Runs in the render worker: the replay GIF of a game from its log."""
    return games.get(system_id).render_replay(seed, actions, options)


def run(config):
    """Start the bot; exit with a clear message (no traceback, no login)
    when the game database or rules_data cannot be used."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        for system in games.systems():  # first: bad content leaves no database behind
            system.content()
        asyncio.run(GameService.check_database(config.database))
        bot = make_bot(config)
        bot.stop_on_sigterm = True
        event_loop.run_client(bot, config.token)
    except (StoreError, ContentError) as e:
        log.critical("not starting: %s", e)
        raise SystemExit(1) from None
