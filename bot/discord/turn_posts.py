"""One message per turn. While a turn is played, the bot edits that turn's
message in place (what happened, who acts now, fresh buttons) instead of
posting a message per click; a new message starts only when the next turn
begins (or when someone else must be pinged to answer a question), with the
map attached when it is due. Edits wait a moment so quick clicks share one
edit: Discord allows 5 writes per 5 seconds in a channel.

A click is acknowledged silently (the turn message shows its result); a
slash command is answered privately with what it did. The record of each
channel's turn message lives in memory: after a restart, the first click on
the current turn's message picks it up again (a slash command starts a new
one)."""
import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass, field

import discord

from bot.discord import messages, views
from bot.vocabulary import turn_number

log = logging.getLogger("bot.discord")

TURN_MAP_WAIT = 2.0  # seconds a new turn's message waits for its map; a busy bot posts it without one
QUIET = 1.0  # seconds an edit waits for more of the same turn (at most one edit a second per channel)
PLAYING = ("exploring", "haunt")


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


def in_play(outcome) -> bool:
    """An action inside the turns of a running game (not the lobby, the
    reveal's reading time or the end): these are shown in turn messages."""
    before, state = outcome.before, outcome.state

    def playing(s):
        return s.get("phase") in PLAYING and bool(s.get("turn")) and (s.get("haunt") or {}).get("started", True)
    return playing(before) and playing(state) and before["phase"] == state["phase"]


def lines_of(content: str | None) -> list[str]:
    """A turn message's lines without its last line (who acts now), to go on
    from after a restart."""
    lines = (content or "").splitlines()
    return lines[:-1] if lines and lines[-1].startswith(("<@", "(")) else lines


class TurnPosts:
    def __init__(self, bot):
        self.bot = bot
        self.posts: dict[str, TurnPost] = {}
        self.locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.busy = 0  # actions being shown now

    def idle(self) -> bool:
        """Nothing being shown and no edit waiting: every turn message is up to date."""
        return self.busy == 0 and all(p.flush is None or p.flush.done() for p in self.posts.values())

    def adopt(self, game, state: dict, channel, sent, said: list[str], tail: str, view):
        """A message posted another way (a public answer with the turn's
        buttons) becomes the turn message."""
        message_id = getattr(getattr(sent, "resource", None), "id", None) or getattr(sent, "id", None)
        if message_id and state.get("phase") in PLAYING and state.get("turn"):
            self.drop(game.channel_id)
            self.posts[game.channel_id] = TurnPost(game.id, turn_number(state), channel, int(message_id),
                                                   list(said), tail, view)

    def drop(self, channel_id: str):
        post = self.posts.pop(channel_id, None)
        if post and post.flush:
            post.flush.cancel()
            post.flush = None  # the cancelled task's traceback holds the post: no cycle left for the collector

    async def show(self, interaction: discord.Interaction, outcome):
        self.busy += 1
        try:
            await self._show(interaction, outcome)
        finally:
            self.busy -= 1

    async def _show(self, interaction: discord.Interaction, outcome):
        bot, game, state = self.bot, outcome.game, outcome.state
        d = messages.deliver(bot.content, outcome.before, state, outcome.events)
        view, hints = views.turn_controls(bot.content, state, game.id)
        tail = d.tail + ("\n" + messages.hints_line(hints) if hints else "")
        clicked = interaction.type == discord.InteractionType.component
        if clicked:
            if not interaction.response.is_done():
                await interaction.response.defer()  # the turn message shows what the click did
        else:
            await bot.private(interaction, messages.chunks(d.said or ["Done."])[0])
        channel = interaction.channel or bot.get_partial_messageable(int(game.channel_id))
        actor = str(interaction.user.id)
        await bot.send_private(bot.channel_poster(channel), d.private, game, outcome.seq)  # first: a map may take a while
        async with self.locks[game.channel_id]:
            post = self.posts.get(game.channel_id)
            if post and (post.game_id != game.id or post.turn != turn_number(outcome.before)):
                self.drop(game.channel_id)
                post = None
            if post is None and clicked and interaction.message is not None:
                shown = lines_of(interaction.message.content)
                post = TurnPost(game.id, turn_number(outcome.before), channel, interaction.message.id, shown,
                                shown=len(shown))
                self.posts[game.channel_id] = post
            others = [u for u in d.ping if u != actor]
            if post is not None and not outcome.turn_changed and not others:
                post.lines += d.said
                post.tail, post.view, post.dirty = tail, view, True
                if post.flush is None or post.flush.done():
                    post.flush = asyncio.create_task(self._flush_later(game.channel_id, post))
            else:
                carried = []
                if post is not None and bot.pace.free(game.channel_id):
                    await self._close(game.channel_id, post)
                elif post is not None:
                    # Quick play and the channel is at Discord's limit: the finished turn's message keeps its
                    # (now stale) buttons, and what it did not yet show opens the next turn's message.
                    carried = post.lines[post.shown:]
                    self.drop(game.channel_id)
                await self._open(interaction, outcome, channel, d, tail, view, carried)
        if outcome.turn_changed and messages.new_round(outcome.before, state):
            bot.summary_due(game)

    async def _open(self, interaction, outcome, channel, d, tail: str, view, carried: list[str] = ()):
        """The next turn's message (or a question for someone else), with the
        map when it is due, pinging who must act; `carried`: lines of the
        turn before that its message did not show."""
        bot, game, state = self.bot, outcome.game, outcome.state
        due = messages.map_due(outcome.before, state)
        picture = await bot.map_file(state, interaction, wait=TURN_MAP_WAIT) if due else None
        lines = [*carried, *d.said]
        body = messages.turn_text(lines, tail + ("\n" + messages.MAP_LATER if due and picture is None else ""))
        kwargs = {"view": view, "allowed_mentions": views.pinging(d.ping)}
        await bot.pace.wait(game.channel_id)
        try:
            sent = await channel.send(body, file=picture, **kwargs) if picture else await channel.send(body, **kwargs)
        except discord.Forbidden:
            if picture is None:
                raise
            log.info("cannot attach the map in %s", game.channel_id)
            sent = await channel.send(f"{body}\n{messages.NO_ATTACH}", **kwargs)
        self.posts[game.channel_id] = TurnPost(game.id, turn_number(state), channel, sent.id, lines, tail, view,
                                               shown=len(lines))
        bot.remember_buttons(game, sent)

    async def _close(self, channel_id: str, post: TurnPost):
        """The turn is over: its message keeps what happened, without buttons."""
        self.drop(channel_id)
        await self.bot.pace.wait(channel_id)
        try:
            await post.channel.get_partial_message(post.message_id).edit(
                content=messages.turn_text(post.lines, ""), view=None)
        except discord.HTTPException as e:
            log.info("turn message not closed in %s: %s", channel_id, e)

    async def _flush_later(self, channel_id: str, post: TurnPost):
        """Edit the turn message once things have been quiet for a moment."""
        while post.dirty:
            await asyncio.sleep(QUIET)
            async with self.locks[channel_id]:
                if self.posts.get(channel_id) is not post:
                    return
                await self.bot.pace.wait(channel_id)
                if self.posts.get(channel_id) is not post:
                    return
                post.dirty, post.shown = False, len(post.lines)
                try:
                    await post.channel.get_partial_message(post.message_id).edit(
                        content=messages.turn_text(post.lines, post.tail), view=post.view)
                except discord.HTTPException as e:
                    log.info("turn message not edited in %s: %s", channel_id, e)
