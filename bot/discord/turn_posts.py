"""One message per turn. While a turn is played, the bot edits that turn's
message in place (what happened, who acts now, fresh buttons) instead of
posting a message per click; a new message starts only when the next turn
begins (or the haunt is revealed, or someone else must be pinged to answer
a question), with the map attached when it is due. Edits wait a moment so
quick clicks share one edit: Discord allows 5 writes per 5 seconds in a
channel. The message a new one supersedes keeps what happened, its turn's
last lines included, and loses its buttons right after (the new message
goes first when the channel is at its limit); so no line of a turn sits
under another turn's header. The haunt's reading time is one message too:
each Ready edits its last line.

A click is acknowledged silently (the turn message shows its result); a
slash command is answered privately with what it did. Each game's current
turn message is remembered in the store (turn_message_id): after a restart
the bot finds it again and gives it live buttons (`refresh`), or posts a
fresh one if it is gone."""
import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field

import discord

from bot import games
from bot.discord import chronicle, controls, messages
from bot.discord.face import face_of
from bot.service import StoreError, seats

log = logging.getLogger("bot.discord")

TURN_MAP_WAIT = 2.0  # seconds a new turn's message waits for its map; a busy bot posts it without one
HINTS = "Not on the buttons:"  # how messages.hints_line begins
QUIET = 1.0  # seconds an edit waits for more of the same turn (at most one edit a second per channel)


@dataclass
class TurnPost:
    game_id: int
    turn: int
    channel: object
    message_id: int
    lines: list[str] = field(default_factory=list)
    tail: str = ""
    view: object = None
    dirty: bool = False
    flush: asyncio.Task | None = None
    shown: int = 0  # how many of the lines the message shows (the rest wait for an edit)
    seq: int | None = None  # the last action the post holds (the game's place in its log), when counted
    row: object = None  # the game's row, which counts the actions committed since (GameRow.seq)

    def absorb(self, outcome):
        """The post now holds this action's lines."""
        self.seq, self.row = outcome.seq, outcome.game

    def overtaken(self) -> bool:
        """Whether an action committed after the last one this post holds is still
        on its way to being shown (it may close the turn): an edit made now would
        show a state the game has left, buttons of a finished turn among it."""
        committed = getattr(self.row, "seq", None)
        return self.seq is not None and committed is not None and committed != self.seq


async def edit(bot, channel_id: int, message_id: int, content: str, view=discord.utils.MISSING):
    """Edit a message of the bot's (its text, and its buttons when `view`
    is given; None takes them off) without reading back the edited
    message: nobody uses it, and building it is much of an edit's cost."""
    with discord.http.handle_message_parameters(content=content, view=view,
                                                previous_allowed_mentions=bot.allowed_mentions) as params:
        await bot.http.edit_message(channel_id, message_id, params=params)


def in_play(outcome) -> bool:
    """An action of a started game (not the lobby or the start): from the
    first turn to the end, the reveal and its reading time included, these
    are shown in turn messages."""
    face = face_of(games.get(getattr(outcome.game, "system", None)))
    return face.in_play(outcome.before) and (face.in_play(outcome.state) or face.system.phase(outcome.state) == "over")


def lines_of(content: str | None) -> list[str]:
    """A turn message's lines without its tail (who acts now, what is not on
    the buttons, the map's excuse), to go on from after a restart."""
    lines = (content or "").splitlines()
    while lines and lines[-1] in (messages.MAP_LATER, messages.NO_ATTACH) or \
            lines and lines[-1].startswith(HINTS):
        lines.pop()
    return lines[:-1] if lines and lines[-1].startswith(("<@", "(")) else lines


class TurnPosts:
    def __init__(self, bot):
        self.bot = bot
        self.posts: dict[str, TurnPost] = {}
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.busy = 0  # actions being shown now
        self.closing: set[asyncio.Task] = set()  # superseded messages waiting for the pace to lose their buttons

    def idle(self) -> bool:
        """Nothing being shown and no edit waiting: every turn message is up to date."""
        return self.busy == 0 and not self.closing and \
            all(p.flush is None or p.flush.done() for p in self.posts.values())

    def adopt(self, game, state: dict, channel, sent, said: list[str], tail: str, view, seq: int | None = None):
        """A message posted another way (a public answer with the turn's
        buttons) becomes the turn message; the one before loses its buttons."""
        message_id = getattr(getattr(sent, "resource", None), "id", None) or getattr(sent, "id", None)
        face = face_of(games.get(game.system))
        if message_id and face.in_play(state) and state.get("turn"):
            self.retire(game.channel_id)
            self.posts[game.channel_id] = TurnPost(game.id, face.system.turn_number(state), channel, int(message_id),
                                                   list(said), tail, view, seq=seq, row=game)

    async def remember(self, game, message_id):
        """The game's turn message is this one from now on (in the store: found again after a restart)."""
        try:
            await self.bot.service.set_turn_message(game, str(message_id))
        except StoreError as e:
            log.info("turn message of game %s not remembered: %s", game.id, e)

    async def refresh(self, game):
        """After a restart: the game's current turn message gets live
        buttons and who acts now, edited in place; a fresh one is posted if
        it is gone (or was never known). Nothing for a game not in play, or
        one whose turn message this process already holds."""
        bot = self.bot
        face = bot.face_of(bot.service.system(game))
        state = game.state
        if not face.in_play(state) or not state.get("turn") or game.channel_id in self.posts:
            return
        channel = bot.get_channel(int(game.channel_id)) or bot.get_partial_messageable(int(game.channel_id))
        played = seats.played_by_bot(state, game.settings)
        d = face.deliver(state, state, [], played)  # no event: only who acts now
        view, hints = face.turn_controls(state, game.id, played)
        tail = d.tail + ("\n" + messages.hints_line(hints) if hints else "")
        old = None
        if game.turn_message_id:
            try:
                old = await channel.fetch_message(int(game.turn_message_id))
            except discord.NotFound:
                old = None
        async with self.locks[game.channel_id]:
            if game.channel_id in self.posts:  # a click or an action got there first
                return
            lines = lines_of(old.content) if old is not None else []
            async with bot.pace.write(game.channel_id):
                if old is not None:
                    await edit(bot, channel.id, old.id, messages.turn_text(lines, tail), view=view)
                    message_id = old.id
                else:
                    message_id = (await channel.send(messages.turn_text(lines, tail), view=view,
                                                     allowed_mentions=discord.AllowedMentions.none())).id
            self.posts[game.channel_id] = TurnPost(game.id, face.system.turn_number(state), channel, message_id,
                                                   lines, tail, view, shown=len(lines), seq=game.seq, row=game)
            bot.remember_buttons(game, discord.Object(message_id))
            await self.remember(game, message_id)

    def drop(self, channel_id: str) -> TurnPost | None:
        post = self.posts.pop(channel_id, None)
        if post and post.flush:
            post.flush.cancel()
            post.flush = None  # the cancelled task's traceback holds the post: no cycle left for the collector
        return post

    def retire(self, channel_id: str):
        """The channel's turn message is superseded (its turn or game is
        over): it keeps what happened and loses its buttons, as soon as the
        channel's pace allows."""
        post = self.drop(channel_id)
        if post is not None:
            self.close_later(post)

    def tasks(self) -> list[asyncio.Task]:
        """Every task of the turn messages still running (edits waiting, closes)."""
        return [*self.closing, *(p.flush for p in self.posts.values() if p.flush is not None and not p.flush.done())]

    def close_later(self, post: TurnPost):
        if self.bot.stopping:
            return  # the bot is closing: the next process shows the turn (refresh)
        task = asyncio.create_task(self._close(post))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    async def show(self, interaction: discord.Interaction | None, outcome, answered: bool = False, extra: str = "",
                   channel=None):
        """Show an action of a started game in the channel's turn message.
        `answered`: the user was already answered privately; `extra`: a line
        to put before what happened. Without an interaction (what the bot
        played for a seat), in `channel`."""
        self.busy += 1
        try:
            await self._show(interaction, outcome, answered or interaction is None, extra, channel)
        finally:
            self.busy -= 1

    async def _show(self, interaction: discord.Interaction | None, outcome, answered: bool, extra: str, channel):
        bot, game, state, before = self.bot, outcome.game, outcome.state, outcome.before
        played = bot.played_by_bot(outcome)
        face = bot.face_of(bot.service.system(game))
        turn_number = face.system.turn_number
        d = face.deliver(before, state, outcome.events, played)
        view, hints = face.turn_controls(state, game.id, played)
        tail = d.tail + ("\n" + messages.hints_line(hints) if hints else "")
        lines = [extra, *d.said] if extra else list(d.said)
        opening = d.opening + (1 if extra else 0)
        clicked = interaction is not None and interaction.type == discord.InteractionType.component
        # The action is committed: the channel sees it even when its answer comes after Discord's limit.
        if clicked:
            await bot.defer(interaction)  # silently: the turn message shows what the click did
        elif not answered:
            await bot.private_if_in_time(interaction, (messages.chunks(lines) or d.public or ["Done."])[0])
        channel = channel or interaction.channel or bot.get_partial_messageable(int(game.channel_id))
        actor = str(interaction.user.id) if interaction is not None else None
        await bot.send_private(bot.channel_poster(channel), d.private, game, outcome.seq)  # first: a map may take a while
        over = face.system.phase(state) == "over"
        if over:
            lines.append(await bot.seed_reveal(game))
        stage = face.stage(before) != face.stage(state)
        async with self.locks[game.channel_id]:
            post = self.posts.get(game.channel_id)
            if post and (post.game_id != game.id or post.turn != turn_number(before)):
                self.retire(game.channel_id)  # its turn went on without it (e.g. a restart in between)
                post = None
            if post is None and clicked and interaction.message is not None:
                shown = lines_of(interaction.message.content)
                post = TurnPost(game.id, turn_number(before), channel, interaction.message.id, shown,
                                shown=len(shown))
                self.posts[game.channel_id] = post
                await self.remember(game, interaction.message.id)
            others = [] if face.asks_in_place(before, state) else [u for u in d.ping if u != actor]
            if post is not None and not outcome.turn_changed and not others and not stage:
                post.lines += lines
                post.tail, post.view, post.dirty = tail, view, True
                post.absorb(outcome)
                if post.flush is None or post.flush.done():
                    post.flush = asyncio.create_task(self._flush_later(game.channel_id, post))
            else:
                reveal = None
                if post is not None:
                    # what closes the turn (its end, the haunt roll) stays in its message; the next turn's
                    # message begins with that turn's first line, so no line sits under another turn's header
                    cut = opening if outcome.turn_changed else 0
                    closing = lines[:cut]
                    lines = lines[cut:]
                    self.drop(game.channel_id)
                    if d.steps and cut:  # told as it ran, in the turn's message, before the next turn's
                        ends = [k + (1 if extra else 0) for k in d.steps]
                        reveal = self._reveal(post, closing, [k for k in ends if 0 < k < cut] + [cut])
                    else:
                        post.lines += closing
                try:
                    await self._open(interaction, outcome, channel, d, lines, tail, view, first=reveal)
                finally:
                    if post is not None and reveal is None:  # after the new message: it goes first when the
                        self.close_later(post)                # channel is at its limit
        if over:  # everything that was hidden, for everyone (the system's story), and the replay
            await bot.send_ending(bot.channel_poster(channel), game, face, state)
        await chronicle.tell_news(bot, game.channel_id, bot.channel_poster(channel))  # a campaign's, if kept here
        if stage:
            bot.summary_due(game, now_too=True)
        elif outcome.turn_changed and face.new_round(before, state):
            bot.summary_due(game)

    async def _open(self, interaction, outcome, channel, d, lines: list[str], tail: str, view, first=None):
        """The next turn's message (or a question for someone else, the
        reveal, the end), with the map when it is due, pinging who must act.
        `first`: the reveal of the turn before (`_reveal`), shown while the map is drawn."""
        bot, game, state = self.bot, outcome.game, outcome.state
        face = bot.face_of(bot.service.system(game))
        due = face.map_due(outcome.before, state)
        whole = state["phase"] != outcome.before["phase"]  # the haunt's start and the end show the whole city
        lead = self.spacing() * len(d.steps) if first is not None else 0.0
        drawing = asyncio.ensure_future(bot.map_file(state, interaction, wait=TURN_MAP_WAIT + lead, whole=whole,
                                                     system=game.system)) if due else None
        try:
            if first is not None:
                await first
            picture = await drawing if drawing is not None else None
        finally:
            if drawing is not None and not drawing.done():
                drawing.cancel()
        body = messages.turn_text(lines, tail + ("\n" + messages.MAP_LATER if due and picture is None else ""))
        kwargs = {"view": view, "allowed_mentions": controls.pinging(d.ping)}
        try:
            async with bot.pace.write(game.channel_id):
                sent = await channel.send(body, file=picture, **kwargs) if picture else \
                    await channel.send(body, **kwargs)
        except discord.Forbidden:
            if picture is None:
                raise
            log.info("cannot attach the map in %s", game.channel_id)
            async with bot.pace.write(game.channel_id):
                sent = await channel.send(f"{body}\n{messages.NO_ATTACH}", **kwargs)
        if view is not None or face.in_play(state):  # (the end's message has nothing to edit later)
            self.posts[game.channel_id] = TurnPost(game.id, face.system.turn_number(state), channel, sent.id, lines,
                                                   tail, view, shown=len(lines), seq=outcome.seq, row=game)
            bot.remember_buttons(game, sent)
            await self.remember(game, sent.id)

    def spacing(self) -> float:
        """Seconds between the edits of a reveal: the channel's pace spread evenly."""
        return self.bot.pace.per / self.bot.pace.writes

    async def _reveal(self, post: TurnPost, closing: list[str], ends: list[int]):
        """What closes a turn (a phase the game plays by itself) told as it
        runs: the turn's message, without its buttons, shows closing[:k] for
        each k in turn, no faster than the channel's pace allows on average
        (one edit a second at Discord's) and each edit within that pace."""
        base = list(post.lines)
        for i, k in enumerate(ends):
            if i:
                await asyncio.sleep(self.spacing())
            post.lines = base + closing[:k]
            try:
                async with self.bot.pace.write(post.channel.id):
                    await edit(self.bot, post.channel.id, post.message_id, messages.turn_text(post.lines, ""),
                               view=None)
            except discord.HTTPException as e:
                log.info("turn message not revealed in %s: %s", post.channel.id, e)
            except Exception:  # noqa: BLE001 - as in _close
                if not self.bot.is_closed():
                    raise
                return

    async def _close(self, post: TurnPost):
        """A superseded turn message keeps what happened, without buttons."""
        try:
            async with self.bot.pace.write(post.channel.id):
                await edit(self.bot, post.channel.id, post.message_id, messages.turn_text(post.lines, ""), view=None)
        except discord.HTTPException as e:
            log.info("turn message not closed in %s: %s", post.channel.id, e)
        except Exception:  # noqa: BLE001 - the bot closed meanwhile (a stop past its wait): nothing to send with
            if not self.bot.is_closed():
                raise

    async def _flush_later(self, channel_id: str, post: TurnPost):
        """Edit the turn message once things have been quiet for a moment."""
        while post.dirty:
            await asyncio.sleep(QUIET)
            async with self.locks[channel_id]:
                if self.posts.get(channel_id) is not post:
                    return
                if post.overtaken():  # the action that overtook it shows it next (or closes it)
                    continue
                async with self.bot.pace.write(channel_id) as slot:
                    # While this edit waited for the channel's pace, a later action may have been committed
                    # (End turn, say): sent now, the edit would bring the finished turn's buttons back.
                    if self.posts.get(channel_id) is not post or post.overtaken():
                        self.bot.pace.unused(slot)  # for the write of the action that overtook it
                        if self.posts.get(channel_id) is not post:
                            return
                        continue
                    post.dirty, post.shown = False, len(post.lines)
                    try:
                        await edit(self.bot, channel_id, post.message_id,
                                   messages.turn_text(post.lines, post.tail), view=post.view)
                    except discord.HTTPException as e:
                        log.info("turn message not edited in %s: %s", channel_id, e)
                    except Exception:  # noqa: BLE001 - as in _close
                        if not self.bot.is_closed():
                            raise
