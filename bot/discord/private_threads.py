"""Secrets in private threads, where a server's admins chose so (/server
secrets): each player's secrets of a game go to a private thread of the
game's channel that only they and the bot are in (and, as Discord has it,
the server's moderators: those who may Manage Threads). Nobody can invite
anyone else into it. The thread is opened on the first secret, its id kept
in the game's store, and reused for the rest of the game, after a restart
too. When a thread cannot be opened or written to, `send` says so and the
caller sends the secret by DM instead."""
import asyncio
import logging
from collections import defaultdict

import discord

from bot.discord import messages

log = logging.getLogger("bot.discord")
ARCHIVE_AFTER = 10080  # minutes without a message before Discord archives the thread (the longest: a week)
NEEDED = ("create_private_threads", "send_messages_in_threads")  # the bot's permissions in the game's channel


def thread_name(player: str) -> str:
    return f"Secrets: {player}"[:100]


def welcome(uid: str) -> str:
    return (f"<@{uid}>, this private thread holds your secrets for this game. Only you and I are in it, "
            "and nobody can be invited.")


def can_open(permissions: discord.Permissions | None) -> bool:
    """Whether these permissions (the bot's in a channel) let it keep secrets in private threads there."""
    return bool(permissions) and all(getattr(permissions, p) for p in NEEDED)


class PrivateThreads:
    def __init__(self, bot):
        self.bot = bot
        self.locks: dict[tuple[int, str], asyncio.Lock] = defaultdict(asyncio.Lock)  # one thread opened at a time

    async def chosen(self, game) -> bool:
        """Whether the game's server keeps secrets in private threads (else: DMs)."""
        if game.guild_id in (None, "None"):
            return False
        return (await self.bot.service.guild_settings(game.guild_id))["secrets"] == "threads"

    async def send(self, game, uid: str, texts: list[str]) -> bool:
        """Post the player's secrets in their private thread of the game;
        False (after logging why) if that cannot be done."""
        mention = discord.AllowedMentions(users=[discord.Object(int(uid))])
        try:
            async with self.locks[(game.id, uid)]:
                thread, new = await self._thread(game, uid)
                if thread is None:
                    return False
                if new:  # added before the first message, which pings them to it
                    await thread.add_user(discord.Object(int(uid)))
                for part in messages.chunks([welcome(uid) if new else f"<@{uid}>", *texts]):
                    await thread.send(part, allowed_mentions=mention)
                if not new:  # (still) in it: a player who left the thread cannot come back alone
                    await thread.add_user(discord.Object(int(uid)))
            return True
        except (discord.HTTPException, ValueError) as e:
            log.info("secret thread for %s in channel %s not usable (%s); sending by DM", uid, game.channel_id, e)
            return False

    async def _thread(self, game, uid: str) -> tuple[discord.Thread | None, bool]:
        """The player's thread of this game (reused), else a new one: (thread, new)."""
        known = await self.bot.service.secret_thread(game, uid)
        if known:
            thread = await self._fetch(int(known))
            if thread is not None and thread.type is discord.ChannelType.private_thread:
                return thread, False
            log.info("secret thread %s of %s is gone; opening another", known, uid)
        parent = await self._parent(game)
        if parent is None:
            return None, False
        player = game.state.get("players", {}).get(uid, {}).get("name") or "a player"
        thread = await parent.create_thread(name=thread_name(player), type=discord.ChannelType.private_thread,
                                            invitable=False, auto_archive_duration=ARCHIVE_AFTER,
                                            reason="A player's secrets for a game")
        if thread.type is not discord.ChannelType.private_thread:  # never a secret where others can read it
            log.warning("thread %s came back as %s, not private; not using it", thread.id, thread.type)
            return None, False
        await self.bot.service.remember_secret_thread(game, uid, str(thread.id))
        return thread, True

    async def _fetch(self, thread_id: int) -> discord.Thread | None:
        for guild in self.bot.guilds:
            cached = guild.get_thread(thread_id)
            if cached is not None:
                return cached
        try:
            found = await self.bot.fetch_channel(thread_id)
        except (discord.NotFound, discord.Forbidden):
            return None
        return found if isinstance(found, discord.Thread) else None

    async def _parent(self, game) -> discord.TextChannel | None:
        """The text channel the threads open in: the game's channel, or the
        channel of the thread the game is played in."""
        channel = self.bot.get_channel(int(game.channel_id))
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(int(game.channel_id))
            except discord.HTTPException as e:
                log.info("channel %s not found for secret threads: %s", game.channel_id, e)
                return None
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            log.info("channel %s has no private threads; sending secrets by DM", game.channel_id)
            return None
        return channel
