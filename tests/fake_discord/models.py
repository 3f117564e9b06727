"""Data model of the fake Discord: users, guilds, channels, stored messages.

Everything here is plain Python state plus the code that turns it into the
JSON shapes Discord's API v10 uses (snowflakes as strings, ISO timestamps).
"""

from __future__ import annotations

import datetime as _dt
import itertools
import re
import mimetypes
import struct
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Optional

import discord
import orjson

if TYPE_CHECKING:  # pragma: no cover
    from .interactions import FakeInteraction

DISCORD_EPOCH_MS = 1420070400000

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Channel types
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)
CHANNEL_TYPES = {"text": GUILD_TEXT, "voice": GUILD_VOICE, "category": GUILD_CATEGORY}
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes a thread may stay quiet before it is archived

# Permissions (bit values taken from discord.py so they never drift).
P = discord.Permissions
ALL_PERMISSIONS = P.all().value
ADMINISTRATOR = P(administrator=True).value
VIEW_CHANNEL = P(view_channel=True).value
SEND_MESSAGES = P(send_messages=True).value
EMBED_LINKS = P(embed_links=True).value
ATTACH_FILES = P(attach_files=True).value
MANAGE_MESSAGES = P(manage_messages=True).value
PIN_MESSAGES = P(pin_messages=True).value
ADD_REACTIONS = P(add_reactions=True).value
READ_MESSAGE_HISTORY = P(read_message_history=True).value
SEND_MESSAGES_IN_THREADS = P(send_messages_in_threads=True).value
CREATE_PUBLIC_THREADS = P(create_public_threads=True).value
CREATE_PRIVATE_THREADS = P(create_private_threads=True).value
MANAGE_THREADS = P(manage_threads=True).value
EVERYONE_DEFAULT = P(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    create_instant_invite=True,
    change_nickname=True,
    connect=True,
    speak=True,
).value
BOT_ROLE_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | PIN_MESSAGES | P(manage_threads=True).value

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, strictly increasing snowflake with a realistic timestamp."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (1 << 17) | (next(_counter) & 0x1FFFF)


def iso(ts: Optional[_dt.datetime] = None) -> str:
    ts = ts or _dt.datetime.now(_dt.timezone.utc)
    return ts.isoformat(timespec="microseconds")


def perm_value(*names: str) -> int:
    return P(**{n: True for n in names}).value


# --------------------------------------------------------------------------
# Users, guilds, roles, members, channels
# --------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    global_name: Optional[str] = None
    dms_open: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        d = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if not self.bot else None,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            d["bot"] = True
        return d

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild: "FakeGuild"
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    managed: bool = False
    mentionable: bool = False
    hoist: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} id={self.id}>"


@dataclass(eq=False)
class FakeMember:
    guild: "FakeGuild"
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: Optional[str] = None
    joined_at: str = field(default_factory=iso)

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self, *, with_user: bool = True, permissions: Optional[int] = None) -> dict:
        d = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.user.payload()
        if permissions is not None:
            d["permissions"] = str(permissions)
        return d


@dataclass(eq=False)
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild: Optional["FakeGuild"] = None
    recipient: Optional[FakeUser] = None  # DMs
    topic: Optional[str] = None
    position: int = 0
    parent: Optional["FakeChannel"] = None
    overwrites: list[Overwrite] = field(default_factory=list)
    last_message_id: Optional[int] = None
    last_pin_timestamp: Optional[str] = None
    # Threads only: `parent` is the text channel, `owner` who created it, `members` the user ids in it
    # (a private thread is seen by its members and by whoever may Manage Threads in the parent).
    owner: Optional[FakeUser] = None
    members: dict[int, str] = field(default_factory=dict)  # user id -> when they joined (ISO)
    invitable: bool = True
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created: str = field(default_factory=iso)
    message_count: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def thread_member_payload(self, user_id: int) -> dict:
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": self.members[user_id], "flags": 0}

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, include_guild_id: bool = True, permissions: Optional[int] = None) -> dict:
        if self.is_dm:
            assert self.recipient is not None
            d: dict[str, Any] = {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        elif self.is_thread:
            assert self.parent is not None and self.guild is not None
            d = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner.id if self.owner else 0),
                "name": self.name,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "rate_limit_per_user": 0,
                "message_count": self.message_count,
                "total_message_sent": self.message_count,
                "member_count": min(len(self.members), 50),
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created,
                    "locked": self.locked,
                    "create_timestamp": self.created,
                    **({"invitable": self.invitable} if self.type == PRIVATE_THREAD else {}),
                },
            }
        else:
            d = {
                "id": str(self.id),
                "type": self.type,
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [o.payload() for o in self.overwrites],
                "parent_id": str(self.parent.id) if self.parent else None,
                "flags": 0,
            }
            if self.type == GUILD_TEXT:
                d.update(
                    topic=self.topic,
                    nsfw=False,
                    last_message_id=str(self.last_message_id) if self.last_message_id else None,
                    rate_limit_per_user=0,
                    default_thread_rate_limit_per_user=0,
                    last_pin_timestamp=self.last_pin_timestamp,
                )
            elif self.type == GUILD_VOICE:
                d.update(bitrate=64000, user_limit=0, rtc_region=None, nsfw=False, rate_limit_per_user=0)
            if include_guild_id and self.guild is not None:
                d["guild_id"] = str(self.guild.id)
        if permissions is not None:
            d["permissions"] = str(permissions)
        return d

    def __repr__(self) -> str:
        where = f"dm:{self.recipient.name}" if self.is_dm and self.recipient else f"#{self.name}"
        if self.is_thread and self.parent is not None:
            where = f"#{self.parent.name} > {'private' if self.type == PRIVATE_THREAD else 'public'} thread {self.name!r}"
        return f"<FakeChannel {where} id={self.id}>"


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    threads: list[FakeChannel] = field(default_factory=list)  # not in `channels`, as in Discord's payloads
    members: dict[int, FakeMember] = field(default_factory=dict)
    created: str = field(default_factory=iso)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels if c.type == GUILD_TEXT]

    def channel(self, name: str) -> FakeChannel:
        for c in self.channels:
            if c.name == name:
                return c
        raise KeyError(name)

    def member(self, user: "FakeUser | int") -> Optional[FakeMember]:
        uid = user if isinstance(user, int) else user.id
        return self.members.get(uid)

    def base_payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "icon_hash": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": str(self.text_channels()[0].id) if self.text_channels() else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "application_id": None,
            "widget_enabled": False,
            "widget_channel_id": None,
            "incidents_data": None,
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} id={self.id}>"


# --------------------------------------------------------------------------
# Permission arithmetic (the same algorithm Discord documents)
# --------------------------------------------------------------------------


def base_permissions(guild: FakeGuild, member: FakeMember) -> int:
    if guild.owner is member.user:
        return ALL_PERMISSIONS
    perms = guild.everyone.permissions
    for r in member.roles:
        perms |= r.permissions
    if perms & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return perms


def channel_permissions(channel: FakeChannel, member: Optional[FakeMember]) -> int:
    if channel.is_dm:
        return EVERYONE_DEFAULT & ~(MANAGE_MESSAGES)
    if member is None or channel.guild is None:
        return 0
    if channel.is_thread:
        # A thread has no overwrites of its own: its parent's permissions hold. A private thread is
        # seen only by its members and by whoever may Manage Threads there.
        assert channel.parent is not None
        perms = channel_permissions(channel.parent, member)
        if channel.type == PRIVATE_THREAD and member.id not in channel.members and not perms & MANAGE_THREADS:
            return 0
        return perms
    guild = channel.guild
    perms = base_permissions(guild, member)
    if perms == ALL_PERMISSIONS:
        return perms
    role_ids = {r.id for r in member.roles}
    allow = deny = 0
    for o in channel.overwrites:
        if o.type == 0 and o.id == guild.id:
            perms = (perms & ~o.deny) | o.allow
    for o in channel.overwrites:
        if o.type == 0 and o.id in role_ids:
            allow |= o.allow
            deny |= o.deny
    perms = (perms & ~deny) | allow
    for o in channel.overwrites:
        if o.type == 1 and o.id == member.id:
            perms = (perms & ~o.deny) | o.allow
    if not perms & VIEW_CHANNEL:
        return 0
    return perms


# --------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------


def _png_size(data: bytes) -> Optional[tuple[int, int]]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _guess_content_type(filename: str, data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    guessed, _ = mimetypes.guess_type(filename)
    if guessed:
        return guessed + ("; charset=utf-8" if guessed.startswith("text/") else "")
    return "application/octet-stream"


@dataclass(eq=False)
class StoredAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str = ""
    description: Optional[str] = None
    title: Optional[str] = None
    ephemeral: bool = False

    def __post_init__(self) -> None:
        if not self.content_type:
            self.content_type = _guess_content_type(self.filename, self.data)

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def spoiler(self) -> bool:
        return self.filename.startswith("SPOILER_")

    def payload(self) -> dict:
        d: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            d["description"] = self.description
        if self.title is not None:
            d["title"] = self.title
        if self.ephemeral:
            d["ephemeral"] = True
        dims = _png_size(self.data)
        if dims:
            d["width"], d["height"] = dims
            d["placeholder"] = ""
            d["placeholder_version"] = 1
        return d

    def __repr__(self) -> str:
        return f"<StoredAttachment {self.filename} {self.content_type} {self.size}B>"


def iter_components(components: list[dict]) -> Iterator[dict]:
    """Every component in a (possibly nested, components-v2) tree, depth first."""
    for c in components or []:
        yield c
        if "components" in c:
            yield from iter_components(c["components"])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]
        if isinstance(c.get("component"), dict):  # Label (type 18)
            yield from iter_components([c["component"]])


@dataclass(eq=False)
class StoredMessage:
    """A message as the fake server holds it (including ephemeral ones)."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: str = field(default_factory=iso)
    edited_timestamp: Optional[str] = None
    pinned: bool = False
    pinned_at: Optional[str] = None
    deleted: bool = False
    interaction: Optional["FakeInteraction"] = None
    webhook_id: Optional[int] = None
    application_id: Optional[int] = None
    message_reference: Optional[dict] = None
    sticker_ids: list = field(default_factory=list)
    poll: Optional[dict] = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    history: list[dict] = field(default_factory=list)  # earlier versions (snapshots)
    # The user this message is visible to when ephemeral.
    ephemeral_to: Optional[FakeUser] = None
    # Who the last create/edit let it notify (Discord's allowed_mentions; None: not given, so all parse).
    allowed_mentions: Optional[dict] = None
    pinged: dict = field(default_factory=dict)  # every notification sent: {"everyone": bool, "users": set, "roles": set}

    def notify(self, allowed: Optional[dict]) -> None:
        """Record who the content notifies, by Discord's rules: mentions in
        the text, filtered by allowed_mentions (absent: everything parses)."""
        self.allowed_mentions = allowed
        users = {int(u) for u in re.findall(r"<@!?(\d+)>", self.content)}
        roles = {int(r) for r in re.findall(r"<@&(\d+)>", self.content)}
        everyone = "@everyone" in self.content or "@here" in self.content
        if allowed is not None:
            parse = set(allowed.get("parse") or [])
            users = users if "users" in parse else users & {int(u) for u in allowed.get("users") or []}
            roles = roles if "roles" in parse else roles & {int(r) for r in allowed.get("roles") or []}
            everyone = everyone and "everyone" in parse
        seen = self.pinged or {"everyone": False, "users": set(), "roles": set()}
        self.pinged = {"everyone": seen["everyone"] or everyone, "users": seen["users"] | users,
                       "roles": seen["roles"] | roles}

    # ---- convenience for assertions -------------------------------------

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def is_dm(self) -> bool:
        return self.channel.is_dm

    @property
    def guild(self) -> Optional[FakeGuild]:
        return self.channel.guild

    @property
    def files(self) -> dict[str, bytes]:
        """filename -> bytes of every attachment."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def text(self) -> str:
        """Content plus the text of every embed and text display, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            for k in ("title", "description"):
                if e.get(k):
                    parts.append(e[k])
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if e.get("footer", {}).get("text"):
                parts.append(e["footer"]["text"])
            if e.get("author", {}).get("name"):
                parts.append(e["author"]["name"])
        for c in iter_components(self.components):
            if c.get("type") == 10 and c.get("content"):  # text display (components v2)
                parts.append(c["content"])
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict]:
        return list(iter_components(self.components))

    def component(self, custom_id: str) -> Optional[dict]:
        for c in iter_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    @property
    def buttons(self) -> list[dict]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def visible_to(self, user: FakeUser) -> bool:
        if self.deleted:
            return False
        if self.ephemeral:
            return self.ephemeral_to is user
        if self.channel.is_dm:
            return self.channel.recipient is user or user.bot
        guild = self.channel.guild
        if guild is None or user.id not in guild.members:
            return False
        return bool(channel_permissions(self.channel, guild.members[user.id]) & VIEW_CHANNEL)

    def snapshot(self) -> dict:
        return {
            "content": self.content,
            "embeds": orjson.loads(orjson.dumps(self.embeds, option=orjson.OPT_NON_STR_KEYS)),
            "components": orjson.loads(orjson.dumps(self.components, option=orjson.OPT_NON_STR_KEYS)),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
        }

    # ---- wire format ----------------------------------------------------

    def payload(self) -> dict:
        guild = self.channel.guild
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "content": self.content,
            "author": self.author.payload(),
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "flags": self.flags,
            "nonce": None,
            "reactions": [
                {
                    "emoji": _emoji_payload(e),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "burst_colors": [],
                    "me": False,
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
                for e, users in self.reactions.items()
                if users
            ],
        }
        if not d["reactions"]:
            del d["reactions"]
        if guild is not None:
            d["guild_id"] = str(guild.id)
        if self.webhook_id is not None:
            d["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            d["application_id"] = str(self.application_id)
        if self.message_reference is not None:
            d["message_reference"] = self.message_reference
        if self.poll is not None:
            d["poll"] = self.poll
        inter = self.interaction
        if inter is not None:
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.payload(),
                "authorizing_integration_owners": inter.payload.get("authorizing_integration_owners", {}),
            }
            if inter.type == 2:
                meta["name"] = inter.name
                meta["command_type"] = 1
                d["interaction"] = {
                    "id": str(inter.id),
                    "type": inter.type,
                    "name": inter.name,
                    "user": inter.user.payload(),
                }
            if inter.type == 3 and inter.source_message is not None:
                meta["interacted_message_id"] = str(inter.source_message.id)
            if inter.message is not None and inter.message is not self:
                meta["original_response_message_id"] = str(inter.message.id)
            d["interaction_metadata"] = meta
        return d

    def __repr__(self) -> str:
        vis = "ephemeral" if self.ephemeral else ("dm" if self.is_dm else "public")
        return f"<StoredMessage id={self.id} {self.channel!r} {vis} content={self.content[:40]!r}>"


def _emoji_payload(key: str) -> dict:
    # key is either a unicode emoji or "name:id"
    if ":" in key:
        name, _, eid = key.rpartition(":")
        animated = name.startswith("a:")
        return {"id": eid, "name": name[2:] if animated else name, "animated": animated}
    return {"id": None, "name": key}


@dataclass
class LogEntry:
    """One thing the bot did, in order. kind is one of: message, edit, delete,
    pin, unpin, reaction, unreaction, interaction_response, typing,
    thread_create, thread_member_add (these two carry ids in `data`)."""

    kind: str
    message: Optional[StoredMessage] = None
    before: Optional[dict] = None
    after: Optional[dict] = None
    data: Optional[dict] = None
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<LogEntry {self.kind} {self.message!r}>"
