"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests
that drive the real discord.py client.

    server = FakeDiscord()
    await server.start()            # binds 127.0.0.1:<ephemeral>, patches discord.py
    guild = server.add_guild("Table")
    general = server.add_channel(guild, "general")
    ann = server.add_user("ann"); server.add_member(guild, ann)
    await server.start_bot(client)  # client.start(token) + wait until ready
    i = await server.slash(ann, general, "game", subcommand="new", options={"players": 3})
    assert "started" in i.content
    await server.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Optional, Union

import aiohttp
import orjson
import yarl
from aiohttp import web

import discord
import discord.gateway
import discord.http

from . import validation as V
from .gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES, GUILDS, MESSAGE_CONTENT, Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    FakeInteraction,
)
from .models import (
    ADD_REACTIONS,
    ATTACH_FILES,
    BOT_ROLE_DEFAULT,
    ARCHIVE_DURATIONS,
    CHANNEL_TYPES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    GUILD_TEXT,
    EMBED_LINKS,
    EPHEMERAL,
    EVERYONE_DEFAULT,
    LOADING,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PIN_MESSAGES,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    LogEntry,
    Overwrite,
    StoredAttachment,
    StoredMessage,
    base_permissions,
    channel_permissions,
    iso,
    perm_value,
    snowflake,
)
from .validation import ApiError, err

HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-", "discord.py: ")  # discord.py names its handlers' tasks so


def _interaction_ids(task: asyncio.Task) -> set[int]:
    """The ids of the discord.Interaction objects a handler task's coroutine
    holds (CommandTree's wrapper closes over it; the view store's and the
    event runner's coroutines take it as an argument)."""
    frame = getattr(task.get_coro(), "cr_frame", None)
    if frame is None:
        return set()
    found = set()
    for value in frame.f_locals.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, discord.Interaction):
                found.add(item.id)
    return found

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
MESSAGE_FLAGS_ALLOWED = (1 << 2) | (1 << 12) | (1 << 13) | (1 << 15)  # suppress embeds/notifications, voice, components v2
COMPONENTS_V2 = 1 << 15
_MENTION_RE = re.compile(r"<@!?(\d+)>")


class NetworkGuardError(RuntimeError):
    """Something tried to reach a host other than the fake server."""


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict
    status: int = 0
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class _Upload:
    index: int
    filename: str
    data: bytes


@dataclass
class _FailRule:
    method: str
    pattern: re.Pattern
    status: int
    body: dict
    headers: dict
    times: int

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and (self.method in ("*", method)) and bool(self.pattern.search(path))


class _ErrorCapture(logging.Handler):
    def __init__(self, sink: list[str]):
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.sink.append(f"[{record.name}] {text}")


def _json(data: Any, status: int = 200, headers: Optional[dict] = None) -> web.Response:
    # discord.py only parses bodies whose Content-Type is exactly application/json.
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    return web.Response(body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), status=status, headers=h)


def _no_content() -> web.Response:
    return web.Response(status=204)


UserLike = Union[FakeUser, FakeMember, int]


class FakeDiscord:
    """The fake Discord server. See README.md next to this file."""

    def __init__(
        self,
        *,
        bot_name: str = "GameMaster",
        token: Optional[str] = None,
        heartbeat_interval: int = 41250,
        transport_compression: bool = True,
        interaction_deadline: Optional[float] = 3.0,
        default_timeout: float = 60.0,  # a deadline, not a wait: a slow, busy machine still passes
        guard_network: bool = True,
        max_file_size: int = 10 * 1024 * 1024,
    ):
        self.token = token  # None: any non-empty token is accepted
        self.heartbeat_interval = heartbeat_interval
        self.transport_compression = transport_compression
        self.interaction_deadline = interaction_deadline
        self.default_timeout = default_timeout
        self.guard_network = guard_network
        self.max_file_size = max_file_size
        self.max_pins = 250

        self.bot_user = FakeUser(snowflake(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        # GATEWAY_PRESENCE_LIMITED | GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED
        self.application_flags = (1 << 13) | (1 << 15) | (1 << 19)
        self.app_owner = FakeUser(snowflake(), "owner")
        self.presence: Optional[dict] = None

        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.app_owner.id: self.app_owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.roles: dict[int, FakeRole] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.attachments: dict[int, StoredAttachment] = {}
        # scope (guild id or None for global) -> command id -> command payload
        self.commands: dict[Optional[int], dict[int, dict]] = {}
        self._command_ids: dict[tuple, int] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}

        self.log: list[LogEntry] = []
        self.requests: list[RecordedRequest] = []
        self.api_errors: list[tuple[str, str, int, int, str]] = []
        self.unhandled: list[str] = []
        self.blocked: list[str] = []
        self.client_errors: list[str] = []
        self._fail_rules: list[_FailRule] = []

        self.gateway = Gateway(self)
        self._change = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self._bots: dict[discord.Client, asyncio.Task] = {}
        self._dispatch_lock: Optional[asyncio.Lock] = None
        self._runner: Optional[web.AppRunner] = None
        self._patched: Optional[tuple] = None
        self._log_handler: Optional[_ErrorCapture] = None
        self._last_activity = time.monotonic()
        self.port = 0

    # ======================================================================
    # lifecycle
    # ======================================================================

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self, *, patch: bool = True) -> "FakeDiscord":
        self._dispatch_lock = asyncio.Lock()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._log_handler = _ErrorCapture(self.client_errors)
        logging.getLogger("discord").addHandler(self._log_handler)
        if patch:
            self.install_patches()
        return self

    async def close(self) -> None:
        for client in list(self._bots):
            with contextlib.suppress(Exception):
                await self.stop_bot(client)
        await self.gateway.close_all(1001)
        for t in list(self._tasks):
            t.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.remove_patches()
        if self._log_handler is not None:
            logging.getLogger("discord").removeHandler(self._log_handler)
            self._log_handler = None
        if self.unhandled:
            warnings.warn(f"fake_discord: the bot called routes the fake does not implement: {sorted(set(self.unhandled))}")

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # ---- pointing discord.py at us ----------------------------------------

    def install_patches(self) -> None:
        """Route discord.py's REST and gateway to this server, and (with
        guard_network) make any aiohttp request to a non-loopback host fail."""
        if self._patched is not None:
            return
        orig_request = aiohttp.ClientSession._request
        self._patched = (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            orig_request,
        )
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        if self.guard_network:
            server = self

            async def guarded(session, method, str_or_url, *args, **kwargs):  # type: ignore[no-untyped-def]
                url = yarl.URL(str(str_or_url))
                if url.host not in LOOPBACK_HOSTS:
                    server.blocked.append(f"{method} {url}")
                    raise NetworkGuardError(f"fake_discord blocked a request to a non-loopback host: {method} {url}")
                return await orig_request(session, method, str_or_url, *args, **kwargs)

            aiohttp.ClientSession._request = guarded  # type: ignore[method-assign]

    def remove_patches(self) -> None:
        if self._patched is None:
            return
        base, gw, orig_request = self._patched
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gw
        aiohttp.ClientSession._request = orig_request  # type: ignore[method-assign]
        self._patched = None

    # ---- running a bot ----------------------------------------------------

    async def start_bot(
        self,
        client: discord.Client,
        token: str = "fake-bot-token",
        *,
        timeout: Optional[float] = None,
        fast_ready: bool = True,
    ) -> discord.Client:
        """Run ``client.start(token)`` in a task and wait until the client is
        ready (on_ready fired). fast_ready shortens discord.py's 2 s wait for
        further GUILD_CREATEs (guild_ready_timeout) to 50 ms."""
        if fast_ready and client._connection.guild_ready_timeout == 2.0:
            client._connection.guild_ready_timeout = 0.05
        task = asyncio.create_task(client.start(token), name=f"fake-discord-bot-{id(client)}")
        self._bots[client] = task
        deadline = time.monotonic() + (timeout or self.default_timeout)
        while not client.is_ready():
            if task.done():
                self._bots.pop(client, None)
                exc = task.exception()
                raise RuntimeError(f"the client stopped before becoming ready: {exc!r}\n{self._diagnostics()}") from exc
            if time.monotonic() > deadline:
                await self.stop_bot(client)
                raise TimeoutError(f"the client did not become ready\n{self._diagnostics()}")
            await asyncio.sleep(0.005)
        return client

    async def stop_bot(self, client: discord.Client, timeout: float = 5.0) -> None:
        """Close the client and wait for its start() task to finish."""
        task = self._bots.pop(client, None)
        await client.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout)
            except asyncio.CancelledError:
                pass

    @contextlib.asynccontextmanager
    async def bot(self, client: discord.Client, token: str = "fake-bot-token", **kw: Any):
        await self.start_bot(client, token, **kw)
        try:
            yield client
        finally:
            await self.stop_bot(client)

    # ======================================================================
    # world building
    # ======================================================================

    def add_user(self, name: str, *, dms_open: bool = True, bot: bool = False, global_name: Optional[str] = None) -> FakeUser:
        user = FakeUser(snowflake(), name, bot=bot, global_name=global_name or (None if bot else name.capitalize()), dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: Optional[FakeUser] = None) -> FakeGuild:
        """A guild with @everyone, a managed bot role, the bot and the owner as
        members (owner defaults to server.app_owner)."""
        owner = owner or self.app_owner
        gid = snowflake()
        guild = FakeGuild(gid, name, owner)
        everyone = FakeRole(gid, guild, "@everyone", EVERYONE_DEFAULT, position=0)
        bot_role = FakeRole(snowflake(), guild, self.bot_user.name, BOT_ROLE_DEFAULT, position=1, managed=True)
        guild.roles += [everyone, bot_role]
        self.roles.update({everyone.id: everyone, bot_role.id: bot_role})
        guild.members[self.bot_user.id] = FakeMember(guild, self.bot_user, [bot_role])
        guild.members[owner.id] = FakeMember(guild, owner, [])
        self.guilds[gid] = guild
        self._spawn(self._gw_guild_create(guild))
        return guild

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0, **perm_flags: bool) -> FakeRole:
        if perm_flags:
            permissions |= discord.Permissions(**perm_flags).value
        role = FakeRole(snowflake(), guild, name, permissions, position=len(guild.roles))
        guild.roles.append(role)
        self.roles[role.id] = role
        self._spawn(self.gateway_dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, guild_id=guild.id, intent=GUILDS))
        return role

    def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        kind: str = "text",
        category: Optional[FakeChannel] = None,
        topic: Optional[str] = None,
    ) -> FakeChannel:
        ch = FakeChannel(snowflake(), name, CHANNEL_TYPES[kind], guild=guild, topic=topic,
                         position=len(guild.channels), parent=category)
        guild.channels.append(ch)
        self.channels[ch.id] = ch
        self._spawn(self.gateway_dispatch("CHANNEL_CREATE", ch.payload(), guild_id=guild.id, intent=GUILDS))
        return ch

    def add_member(self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = (), nick: Optional[str] = None) -> FakeMember:
        member = guild.members.get(user.id)
        if member is None:
            member = FakeMember(guild, user, list(roles), nick=nick)
            guild.members[user.id] = member
            data = {**member.payload(), "guild_id": str(guild.id)}
            self._spawn(self.gateway_dispatch("GUILD_MEMBER_ADD", data, guild_id=guild.id, intent=GUILD_MEMBERS))
        return member

    def close_dms(self, user: FakeUser) -> None:
        """Sending this user a DM now fails with 403 / 50007."""
        user.dms_open = False

    def open_dms(self, user: FakeUser) -> None:
        user.dms_open = True

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        ch = self._dm_channels.get(user.id)
        if ch is None:
            ch = FakeChannel(snowflake(), "", DM, recipient=user)
            self._dm_channels[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    def threads(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads of a text channel (any created by the bot), oldest first."""
        return [t for t in self.channels.values() if t.is_thread and t.parent is channel]

    def delete_channel(self, channel: FakeChannel) -> None:
        """A channel or thread disappears (deleted by a moderator): the bot
        gets CHANNEL_DELETE / THREAD_DELETE and 10003 Unknown Channel after."""
        guild = channel.guild
        assert guild is not None, "only guild channels and threads can be deleted"
        self.channels.pop(channel.id, None)
        if channel.is_thread:
            guild.threads = [t for t in guild.threads if t is not channel]
            data = {"id": str(channel.id), "guild_id": str(guild.id), "parent_id": str(channel.parent.id),
                    "type": channel.type}
            self._spawn(self.gateway_dispatch("THREAD_DELETE", data, guild_id=guild.id, intent=GUILDS))
        else:
            guild.channels = [c for c in guild.channels if c is not channel]
            self._spawn(self.gateway_dispatch("CHANNEL_DELETE", channel.payload(), guild_id=guild.id, intent=GUILDS))

    def set_permissions(self, channel: FakeChannel, target: Union[FakeUser, FakeRole, FakeGuild],
                        *, allow: Iterable[str] = (), deny: Iterable[str] = ()) -> None:
        """Add/replace a permission overwrite on a guild channel, by permission
        names as in discord.Permissions (e.g. deny=["send_messages"])."""
        assert channel.guild is not None, "overwrites only exist on guild channels"
        if isinstance(target, FakeGuild):
            oid, otype = target.id, 0
        elif isinstance(target, FakeRole):
            oid, otype = target.id, 0
        else:
            oid, otype = target.id, 1
        channel.overwrites = [o for o in channel.overwrites if o.id != oid]
        channel.overwrites.append(Overwrite(oid, otype, perm_value(*allow) if allow else 0, perm_value(*deny) if deny else 0))
        self._spawn(self.gateway_dispatch("CHANNEL_UPDATE", channel.payload(), guild_id=channel.guild.id, intent=GUILDS))

    def deny_bot(self, channel: FakeChannel, *perms: str) -> None:
        """Take permissions (default: send_messages) from the bot in a channel;
        sending there then fails with 403 / 50013 Missing Permissions."""
        self.set_permissions(channel, self.bot_user, deny=perms or ("send_messages",))

    # ---- failure injection -------------------------------------------------

    def fail_next(self, method: str, path: str, status: int, code: int = 0, message: str = "",
                  *, times: int = 1, body: Optional[dict] = None, headers: Optional[dict] = None) -> None:
        """The next `times` requests matching method ("*" for any) and the path
        regex (searched in the path after /api/v10) get this error."""
        self._fail_rules.append(_FailRule(method.upper(), re.compile(path), status,
                                          body or {"message": message or f"{status}", "code": code},
                                          headers or {}, times))

    def rate_limit_next(self, method: str = "POST", path: str = r"^/channels/\d+/messages$",
                        *, retry_after: float = 0.05, times: int = 1, is_global: bool = False) -> None:
        """Answer the next matching request(s) with 429 and retry_after (the
        headers discord.py needs to retry: Via, X-RateLimit-*)."""
        self.fail_next(
            method, path, 429, times=times,
            body={"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global, "code": 0},
            headers={
                "Via": "1.1 google",
                "Retry-After": str(max(1, int(retry_after + 0.999))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": str(retry_after),
                "X-RateLimit-Bucket": "fake-bucket",
                "X-RateLimit-Scope": "shared" if not is_global else "global",
                **({"X-RateLimit-Global": "true"} if is_global else {}),
            },
        )

    # ---- gateway control ---------------------------------------------------

    async def gateway_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py reconnects and RESUMEs."""
        await self.gateway.send_op(7)

    async def gateway_drop(self, code: int = 4000) -> None:
        """Close every gateway connection with a resumable error code."""
        await self.gateway.close_all(code)

    async def gateway_invalidate(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION."""
        if not resumable:
            for s in self.gateway.sessions.values():
                s.alive = False
            self.gateway.sessions.clear()
        await self.gateway.send_op(9, resumable)

    async def wait_gateway_ready(self, guild: Optional[FakeGuild] = None, timeout: Optional[float] = None) -> None:
        gid = guild.id if guild else None
        await self.wait_for(lambda: self.gateway.ready_sessions(gid), timeout=timeout, what="a ready gateway session")

    async def gateway_dispatch(self, event: str, data: Any, *, guild_id: Optional[int] = None, intent: int = 0) -> None:
        assert self._dispatch_lock is not None, "server not started"
        async with self._dispatch_lock:
            await self.gateway.dispatch(event, data, guild_id=guild_id, intent=intent)

    # ======================================================================
    # driving the bot like a user would
    # ======================================================================

    async def slash(
        self,
        user: UserLike,
        channel: Optional[FakeChannel],
        name: str,
        subcommand: Optional[str] = None,
        *,
        group: Optional[str] = None,
        options: Optional[dict[str, Any]] = None,
        wait: bool = True,
        timeout: Optional[float] = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Run a slash command as `user` in `channel` (None = the user's DM
        with the bot). `name` may also be a path: "game new" / "admin game new".
        The command must have been synced (its id and guild_id come from the
        sync). With wait=True, returns once the bot sent its initial callback."""
        return await self._command_interaction(APPLICATION_COMMAND, user, channel, name, subcommand, group,
                                               options or {}, None, wait, timeout, locale)

    async def autocomplete(
        self,
        user: UserLike,
        channel: Optional[FakeChannel],
        name: str,
        subcommand: Optional[str] = None,
        *,
        group: Optional[str] = None,
        options: Optional[dict[str, Any]] = None,
        focused: str,
        wait: bool = True,
        timeout: Optional[float] = None,
    ) -> FakeInteraction:
        """Autocomplete (type 4) for option `focused` (its value in `options` is
        the partially typed text). Await -> .choices."""
        return await self._command_interaction(AUTOCOMPLETE, user, channel, name, subcommand, group,
                                               options or {}, focused, wait, timeout, "en-US")

    async def click(
        self,
        user: UserLike,
        message: Union[StoredMessage, int, Any],
        custom_id: str,
        *,
        values: Optional[list] = None,
        wait: bool = True,
        timeout: Optional[float] = None,
    ) -> FakeInteraction:
        """Press a button (or choose `values` in a select) on a message the
        user can see. `message` is a StoredMessage, a message id or anything
        with an .id (e.g. a discord.Message)."""
        u = self._user(user)
        msg = self._message(message)
        if msg.deleted:
            raise AssertionError(f"{msg!r} was deleted")
        if not msg.visible_to(u):
            raise AssertionError(f"{u.name} cannot see {msg!r}")
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"no component {custom_id!r} on {msg!r}; it has {msg.custom_ids}")
        if comp.get("disabled"):
            raise AssertionError(f"component {custom_id!r} on {msg!r} is disabled")
        ctype = comp["type"]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        guild = msg.guild
        if ctype == 2:
            if values:
                raise ValueError("buttons take no values")
        elif ctype in (3, 5, 6, 7, 8):
            vals = list(values or [])
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not lo <= len(vals) <= hi:
                raise ValueError(f"select {custom_id!r} needs between {lo} and {hi} values, got {vals}")
            if ctype == 3:
                opts = comp.get("options") or []
                by_label = {o["label"]: o["value"] for o in opts}
                allowed = {o["value"] for o in opts}
                vals = [by_label.get(v, v) if v not in allowed else v for v in vals]
                bad = [v for v in vals if v not in allowed]
                if bad:
                    raise ValueError(f"{bad} are not options of select {custom_id!r}: {sorted(allowed)}")
                data["values"] = vals
            else:
                resolved: dict[str, dict] = {}
                data["values"] = [str(self._resolve_entity(v, guild, resolved, self._SELECT_KINDS[ctype])) for v in vals]
                data["resolved"] = resolved
        else:
            raise ValueError(f"component type {ctype} is not interactive")
        inter = self._new_interaction(MESSAGE_COMPONENT, u, msg.channel, guild, data, custom_id, source_message=msg)
        return await self._run(inter, wait, timeout)

    async def select(self, user: UserLike, message: Any, custom_id: str, values: list, **kw: Any) -> FakeInteraction:
        return await self.click(user, message, custom_id, values=values, **kw)

    async def submit_modal(
        self,
        interaction: FakeInteraction,
        values: dict[str, Any],
        *,
        user: Optional[UserLike] = None,
        wait: bool = True,
        timeout: Optional[float] = None,
    ) -> FakeInteraction:
        """Submit the modal the bot opened in response to `interaction`.
        values: custom_id -> text (text inputs) or list (selects)."""
        modal = interaction.modal
        if modal is None:
            raise AssertionError(f"{interaction!r} did not open a modal")
        u = self._user(user) if user is not None else interaction.user
        if u is not interaction.user:
            raise AssertionError("only the user the modal was shown to can submit it")
        unknown = set(values)

        def fill(c: dict) -> dict:
            t = c.get("type")
            out: dict[str, Any] = {"type": t}
            if "id" in c:
                out["id"] = c["id"]
            if t == 1:
                out["components"] = [fill(x) for x in c.get("components", [])]
            elif t == 18:
                out["component"] = fill(c["component"])
            elif t == 4:
                cid = c["custom_id"]
                unknown.discard(cid)
                v = str(values.get(cid, c.get("value") or ""))
                if c.get("required", True) and not v:
                    raise ValueError(f"text input {cid!r} is required")
                if c.get("max_length") and len(v) > c["max_length"] or c.get("min_length") and len(v) < c["min_length"]:
                    raise ValueError(f"text input {cid!r}: length {len(v)} out of bounds")
                out.update(custom_id=cid, value=v)
            elif t in (3, 5, 6, 7, 8):
                cid = c["custom_id"]
                unknown.discard(cid)
                out.update(custom_id=cid, values=[str(v) for v in values.get(cid, [])])
            return out

        comps = [fill(c) for c in modal.get("components", [])]
        if unknown:
            raise LookupError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": comps}
        inter = self._new_interaction(MODAL_SUBMIT, u, interaction.channel, interaction.guild, data, modal["custom_id"],
                                      source_message=interaction.source_message)
        return await self._run(inter, wait, timeout)

    async def post(self, user: UserLike, channel: FakeChannel, content: str) -> StoredMessage:
        """A user writes a message (dispatched as MESSAGE_CREATE)."""
        u = self._user(user)
        if channel.is_dm:
            assert channel.recipient is u, "a user can only write in their own DM with the bot"
        else:
            assert channel.guild is not None and u.id in channel.guild.members, f"{u.name} is not in {channel.guild}"
        msg = StoredMessage(snowflake(), channel, u, content=content)
        self._store(msg)
        await self._gw_message("MESSAGE_CREATE", msg)
        self._notify()
        return msg

    # ======================================================================
    # waiting
    # ======================================================================

    def _notify(self) -> None:
        self._last_activity = time.monotonic()
        self._change.set()
        self._change = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], Any], timeout: Optional[float] = None, what: str = "condition") -> Any:
        """Wait until predicate() is truthy (re-checked on every server event)."""
        timeout = self.default_timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}\n{self._diagnostics()}")
            ev = self._change
            try:
                await asyncio.wait_for(ev.wait(), min(remaining, 0.25))
            except asyncio.TimeoutError:
                pass

    async def wait_for_message(
        self,
        predicate: Optional[Callable[[StoredMessage], Any]] = None,
        *,
        channel: Optional[FakeChannel] = None,
        user: Optional[FakeUser] = None,
        after: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> StoredMessage:
        """Wait for a new bot message (after the message id `after`, default:
        any message sent from now on) in `channel` / visible to `user`."""
        after = after if after is not None else max(self.messages, default=0)

        def find() -> Optional[StoredMessage]:
            for m in self.messages.values():
                if m.id <= after or m.author is not self.bot_user or m.deleted:
                    continue
                if channel is not None and m.channel is not channel:
                    continue
                if user is not None and not m.visible_to(user):
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout=timeout, what="a bot message")

    @staticmethod
    def handling(interaction: Any = None) -> list[asyncio.Task]:
        """discord.py's tasks that run the client's handlers and are not done
        yet: slash commands (CommandTree-invoker), buttons, selects and modals
        (discord-ui-...), events (discord.py: on_...). With `interaction` (a
        FakeInteraction or its id), only those handling that interaction."""
        wanted = getattr(interaction, "id", interaction)
        return [task for task in asyncio.all_tasks()
                if not task.done() and task.get_name().startswith(HANDLER_TASKS)
                and (wanted is None or wanted in _interaction_ids(task))]

    async def wait_handled(self, interaction: Any = None, timeout: Optional[float] = None,
                           what: Optional[str] = None) -> None:
        """Wait until the client has finished handling `interaction` (default:
        every interaction and event it got): its handler tasks are done. An
        event, not a quiet spell, so a slow, busy machine waits as long as it
        takes (and no longer)."""
        timeout = self.default_timeout if timeout is None else timeout
        what = what or (f"the handling of {interaction!r}" if interaction is not None else "the client's handlers")
        deadline = time.monotonic() + timeout
        while True:
            running = self.handling(interaction)
            if not running:
                return
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                names = sorted({t.get_name() for t in running})
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}: {names}\n{self._diagnostics()}")
            await asyncio.wait(running, timeout=remaining)
            del running  # (no reference to a finished handler's task is kept)

    async def settle(self, quiet: float = 0.05, timeout: Optional[float] = None) -> None:
        """Wait until nothing reached the server for `quiet` seconds. (A quiet
        spell is not an event: a slow machine may be quiet before the bot's
        next write. Prefer wait_for / wait_handled.)"""
        deadline = time.monotonic() + (timeout or self.default_timeout)
        while time.monotonic() - self._last_activity < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError("the bot kept talking to the server")
            await asyncio.sleep(quiet / 2)

    def _diagnostics(self) -> str:
        lines = []
        if self.client_errors:
            lines.append("errors logged by discord.py (last 3):")
            lines += ["  " + e.replace("\n", "\n  ") for e in self.client_errors[-3:]]
        if self.api_errors:
            lines.append(f"API errors returned to the bot (last 5): {self.api_errors[-5:]}")
        if self.unhandled:
            lines.append(f"unimplemented routes called: {self.unhandled[-5:]}")
        if self.blocked:
            lines.append(f"blocked non-loopback requests: {self.blocked[-5:]}")
        lines.append(f"last requests: {self.requests[-8:]}")
        lines.append(f"gateway sessions ready: {len(self.gateway.ready_sessions())}")
        return "\n".join(lines)

    # ======================================================================
    # what users can see
    # ======================================================================

    @property
    def sent(self) -> list[StoredMessage]:
        """Every message the bot created (channels, DMs, interaction responses,
        ephemeral ones; deleted ones included, flagged .deleted)."""
        return [m for m in self.messages.values() if m.author is self.bot_user]

    def channel_messages(self, channel: FakeChannel, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Public (non-ephemeral) messages in a channel, oldest first, any author."""
        return [m for m in self.messages.values()
                if m.channel is channel and not m.ephemeral and (include_deleted or not m.deleted)]

    def dm_messages(self, user: FakeUser) -> list[StoredMessage]:
        ch = self._dm_channels.get(user.id)
        return [] if ch is None else self.channel_messages(ch)

    def ephemeral_messages(self, user: FakeUser) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.ephemeral and m.ephemeral_to is user and not m.deleted]

    def visible_messages(self, user: FakeUser, channel: Optional[FakeChannel] = None) -> list[StoredMessage]:
        """Everything `user` can see: public messages of channels they can
        view, their DMs with the bot, ephemeral messages shown to them."""
        return [m for m in self.messages.values()
                if m.visible_to(user) and (channel is None or m.channel is channel)]

    def pins(self, channel: FakeChannel) -> list[StoredMessage]:
        """Pinned messages, most recently pinned first."""
        pinned = [m for m in self.messages.values() if m.channel is channel and m.pinned and not m.deleted]
        return sorted(pinned, key=lambda m: m.pinned_at or "", reverse=True)

    @property
    def edits(self) -> list[LogEntry]:
        return [e for e in self.log if e.kind == "edit"]

    @property
    def deletions(self) -> list[LogEntry]:
        return [e for e in self.log if e.kind == "delete"]

    def last_message(self, channel: Optional[FakeChannel] = None) -> Optional[StoredMessage]:
        for m in reversed(list(self.messages.values())):
            if m.author is self.bot_user and not m.deleted and (channel is None or m.channel is channel):
                return m
        return None

    # ======================================================================
    # internals: lookups
    # ======================================================================

    def _user(self, user: UserLike) -> FakeUser:
        if isinstance(user, FakeMember):
            return user.user
        if isinstance(user, FakeUser):
            return user
        return self.users[int(user)]

    def _message(self, message: Any) -> StoredMessage:
        if isinstance(message, StoredMessage):
            return message
        mid = message if isinstance(message, int) else getattr(message, "id", None)
        if mid is None or int(mid) not in self.messages:
            raise LookupError(f"no such message: {message!r}")
        return self.messages[int(mid)]

    def _spawn(self, coro: Awaitable[Any]) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # world built before the loop runs: nothing connected yet
            coro.close()  # type: ignore[attr-defined]
            return
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _bot_member(self, guild: FakeGuild) -> FakeMember:
        return guild.members[self.bot_user.id]

    def _bot_perms(self, channel: FakeChannel) -> int:
        if channel.is_dm:
            return channel_permissions(channel, None)
        assert channel.guild is not None
        return channel_permissions(channel, channel.guild.members.get(self.bot_user.id))

    # ======================================================================
    # internals: interactions
    # ======================================================================

    def _context(self, user: FakeUser, channel: Optional[FakeChannel]) -> tuple[Optional[FakeGuild], FakeChannel]:
        if channel is None or channel.is_dm:
            if channel is not None and channel.recipient is not user:
                raise AssertionError(f"{user.name} cannot use {channel!r}")
            return None, self.dm_channel(user)
        guild = channel.guild
        assert guild is not None
        member = guild.members.get(user.id)
        if member is None:
            raise AssertionError(f"{user.name} is not a member of {guild!r}")
        if not channel_permissions(channel, member) & VIEW_CHANNEL:
            raise AssertionError(f"{user.name} cannot see {channel!r}")
        return guild, channel

    def _find_command(self, name: str, ctype: int, guild: Optional[FakeGuild]) -> tuple[dict, Optional[int]]:
        if guild is not None:
            for cmd in self.commands.get(guild.id, {}).values():
                if cmd["name"] == name and cmd.get("type", 1) == ctype:
                    return cmd, guild.id
        for cmd in self.commands.get(None, {}).values():
            if cmd["name"] == name and cmd.get("type", 1) == ctype:
                contexts = cmd.get("contexts")
                if guild is not None and contexts is not None and 0 not in contexts:
                    break
                if guild is None:
                    if contexts is not None and 1 not in contexts:
                        break
                    if contexts is None and cmd.get("dm_permission") is False:
                        break
                return cmd, None
        known = {scope: sorted(c["name"] for c in cmds.values()) for scope, cmds in self.commands.items()}
        where = f"guild {guild.name!r}" if guild else "DMs"
        raise LookupError(f"no command /{name} available in {where} (was it synced?); synced: {known}")

    # option type / select component type -> what kind of entity it takes
    _OPTION_KINDS = {6: {"user"}, 7: {"channel"}, 8: {"role"}, 9: {"user", "role"}, 11: {"attachment"}}
    _SELECT_KINDS = {5: {"user"}, 6: {"role"}, 7: {"user", "role"}, 8: {"channel"}}

    def _resolve_entity(self, value: Any, guild: Optional[FakeGuild], resolved: dict, kinds: set[str]) -> int:
        """Put a user/member/role/channel/attachment into `resolved`; return its id."""
        if isinstance(value, FakeMember):
            value = value.user
        if isinstance(value, int) and not isinstance(value, bool):
            value = self.users.get(value) or self.roles.get(value) or self.channels.get(value) or value
        if isinstance(value, FakeUser) and "user" in kinds:
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                m = guild.members[value.id]
                resolved.setdefault("members", {})[str(value.id)] = m.payload(
                    with_user=False, permissions=base_permissions(guild, m))
            return value.id
        if isinstance(value, FakeRole) and "role" in kinds:
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return value.id
        if isinstance(value, FakeChannel) and "channel" in kinds:
            resolved.setdefault("channels", {})[str(value.id)] = value.payload(permissions=self._bot_perms(value))
            return value.id
        if "attachment" in kinds:
            if isinstance(value, StoredAttachment):
                att = value
            elif isinstance(value, (bytes, bytearray, tuple)):
                filename, data = value if isinstance(value, tuple) else ("file.bin", value)
                aid = snowflake()
                att = StoredAttachment(aid, filename, bytes(data), f"{self.base_url}/attachments/0/{aid}/{filename}",
                                       ephemeral=True)
                self.attachments[aid] = att
            else:
                raise ValueError(f"an attachment option takes bytes or (filename, bytes), got {value!r}")
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return att.id
        raise ValueError(f"cannot use {value!r} where a {'/'.join(sorted(kinds))} is expected")

    def _coerce(self, opt: dict, value: Any, guild: Optional[FakeGuild], resolved: dict) -> Any:
        t = opt["type"]
        name = opt["name"]
        choices = opt.get("choices")
        if choices:
            by_name = {c["name"]: c["value"] for c in choices}
            values = [c["value"] for c in choices]
            if value not in values and value in by_name:
                value = by_name[value]
            if value not in values:
                raise ValueError(f"option {name!r}: {value!r} is not one of the choices {values}")
        if t == 3:
            if not isinstance(value, str):
                raise ValueError(f"option {name!r} is a string option, got {value!r}")
            lo, hi = opt.get("min_length"), opt.get("max_length")
            if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
                raise ValueError(f"option {name!r}: length of {value!r} out of [{lo}, {hi}]")
            return value
        if t in (4, 10):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (t == 4 and int(value) != value):
                raise ValueError(f"option {name!r} needs a {'n integer' if t == 4 else ' number'}, got {value!r}")
            value = int(value) if t == 4 else value
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r}: {value!r} out of [{lo}, {hi}]")
            return value
        if t == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} needs a bool, got {value!r}")
            return value
        if t in (6, 7, 8, 9, 11):
            if t == 7 and isinstance(value, FakeChannel) and opt.get("channel_types"):
                if value.type not in opt["channel_types"]:
                    raise ValueError(f"option {name!r}: channel type {value.type} not in {opt['channel_types']}")
            return str(self._resolve_entity(value, guild, resolved, self._OPTION_KINDS[t]))
        raise ValueError(f"option {name!r} has unsupported type {t}")

    def _leaf_options(self, schema: list[dict], values: dict, guild: Optional[FakeGuild], resolved: dict,
                      focused: Optional[str], path: str) -> list[dict]:
        by_name = {o["name"]: o for o in schema}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(f"/{path} has no options {sorted(unknown)}; it has {list(by_name)}")
        out = []
        for o in schema:
            if o["name"] not in values:
                if o.get("required") and focused is None:
                    raise ValueError(f"/{path}: option {o['name']!r} is required")
                continue
            if o["name"] == focused:
                if not o.get("autocomplete"):
                    raise ValueError(f"/{path}: option {focused!r} has no autocomplete")
                out.append({"name": o["name"], "type": o["type"], "value": str(values[o["name"]]), "focused": True})
            else:
                out.append({"name": o["name"], "type": o["type"], "value": self._coerce(o, values[o["name"]], guild, resolved)})
        if focused is not None and focused not in values:
            raise ValueError(f"the focused option {focused!r} needs a (partial) value in options")
        return out

    async def _command_interaction(self, itype: int, user: UserLike, channel: Optional[FakeChannel], name: str,
                                   subcommand: Optional[str], group: Optional[str], options: dict,
                                   focused: Optional[str], wait: bool, timeout: Optional[float],
                                   locale: str) -> FakeInteraction:
        parts = name.split()
        name = parts[0]
        if len(parts) == 2:
            subcommand = parts[1]
        elif len(parts) == 3:
            group, subcommand = parts[1], parts[2]
        u = self._user(user)
        guild, ch = self._context(u, channel)
        cmd, scope = self._find_command(name, 1, guild)
        schema = cmd.get("options") or []
        resolved: dict[str, dict] = {}
        path = " ".join(x for x in (name, group, subcommand) if x)

        def find(opts: list[dict], n: str, t: int) -> dict:
            for o in opts:
                if o["name"] == n and o["type"] == t:
                    return o
            kinds = {1: "subcommand", 2: "subcommand group"}
            have = [o["name"] for o in opts if o["type"] == t]
            raise LookupError(f"/{name} has no {kinds[t]} {n!r}; it has {have}")

        if group:
            g = find(schema, group, 2)
            s = find(g.get("options") or [], subcommand or "", 1)
            leaf = self._leaf_options(s.get("options") or [], options, guild, resolved, focused, path)
            opts = [{"name": group, "type": 2, "options": [{"name": subcommand, "type": 1, "options": leaf}]}]
        elif subcommand:
            s = find(schema, subcommand, 1)
            leaf = self._leaf_options(s.get("options") or [], options, guild, resolved, focused, path)
            opts = [{"name": subcommand, "type": 1, "options": leaf}]
        else:
            subs = [o["name"] for o in schema if o["type"] in (1, 2)]
            if subs:
                raise ValueError(f"/{name} needs a subcommand (one of {subs})")
            opts = self._leaf_options(schema, options, guild, resolved, focused, path)
        data: dict[str, Any] = {"id": str(cmd["id"]), "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        inter = self._new_interaction(itype, u, ch, guild, data, path, locale=locale)
        return await self._run(inter, wait, timeout)

    def _new_interaction(self, itype: int, user: FakeUser, channel: FakeChannel, guild: Optional[FakeGuild],
                         data: dict, name: str, *, source_message: Optional[StoredMessage] = None,
                         locale: str = "en-US") -> FakeInteraction:
        iid = snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(60)
        p: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "app_permissions": str(self._bot_perms(channel)),
            "attachment_size_limit": self.max_file_size,
            "channel_id": str(channel.id),
        }
        if guild is not None:
            member = guild.members[user.id]
            perms = channel_permissions(channel, member)
            p.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.payload(permissions=perms),
                channel=channel.payload(permissions=perms),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        else:
            p.update(
                user=user.payload(),
                channel=channel.payload(permissions=channel_permissions(channel, None)),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        if source_message is not None:
            p["message"] = source_message.payload()
        inter = FakeInteraction(self, id=iid, token=token, type=itype, user=user, channel=channel, guild=guild,
                                payload=p, name=name, source_message=source_message)
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter

    async def _run(self, inter: FakeInteraction, wait: bool, timeout: Optional[float]) -> FakeInteraction:
        gid = inter.guild.id if inter.guild else None
        sessions = await self.wait_for(lambda: self.gateway.ready_sessions(gid), timeout=timeout,
                                       what="a connected bot to deliver the interaction to")
        assert self._dispatch_lock is not None
        async with self._dispatch_lock:
            inter.dispatched_at = time.monotonic()
            for session in sessions:  # as Discord: to every connection of the shard (the first to answer wins)
                await session.dispatch("INTERACTION_CREATE", inter.payload)
        if wait:
            await inter.wait(timeout)
        return inter

    # ======================================================================
    # internals: messages
    # ======================================================================

    def _store(self, msg: StoredMessage) -> StoredMessage:
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            msg.channel.last_message_id = msg.id
            msg.channel.message_count += 1
        return msg

    def _make_attachments(self, channel: FakeChannel, spec: Optional[list[dict]], uploads: list[_Upload],
                          existing: list[StoredAttachment], ephemeral: bool) -> list[StoredAttachment]:
        for u in uploads:
            if len(u.data) > self.max_file_size:
                raise err(V.TOO_LARGE)
        by_index = {u.index: u for u in uploads}
        old = {a.id: a for a in existing}
        result: list[StoredAttachment] = []
        used: set[int] = set()

        def new(u: _Upload, meta: dict) -> StoredAttachment:
            aid = snowflake()
            filename = meta.get("filename") or u.filename
            att = StoredAttachment(aid, filename, u.data, f"{self.base_url}/attachments/{channel.id}/{aid}/{filename}",
                                   description=meta.get("description"), title=meta.get("title"), ephemeral=ephemeral)
            self.attachments[aid] = att
            return att

        if spec is None:
            result = list(existing)
        else:
            for i, a in enumerate(spec):
                aid = int(a["id"])
                if aid in old:
                    result.append(old[aid])
                elif aid in by_index:
                    result.append(new(by_index[aid], a))
                    used.add(aid)
                else:
                    raise V.form_error(["attachments", i, "id"], "ATTACHMENT_NOT_FOUND", f"Unknown attachment id {aid}")
        for u in uploads:
            if u.index not in used:
                result.append(new(u, {}))
        if len(result) > 10:
            raise V.form_error(["attachments"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        return result

    def _resolve_embed_attachments(self, embeds: list[dict], atts: list[StoredAttachment]) -> list[dict]:
        by_name = {a.filename: a for a in atts}
        out = []
        for e in embeds:
            e = dict(e)
            e.setdefault("type", "rich")
            e.setdefault("content_scan_version", 0)
            for key in ("image", "thumbnail"):
                media = e.get(key)
                if isinstance(media, dict) and str(media.get("url", "")).startswith("attachment://"):
                    a = by_name.get(media["url"][len("attachment://"):])
                    if a is not None:
                        ap = a.payload()
                        e[key] = {"url": a.url, "proxy_url": a.url, "width": ap.get("width", 0),
                                  "height": ap.get("height", 0), "content_type": a.content_type, "flags": 0}
            out.append(e)
        return out

    def _create_message(self, channel: FakeChannel, payload: dict, uploads: list[_Upload], *,
                        interaction: Optional[FakeInteraction] = None, allow_ephemeral: bool = False,
                        extra_flags: int = 0, allow_empty: bool = False, mtype: int = 0) -> StoredMessage:
        flags = int(payload.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL) and allow_ephemeral
        v2 = bool(flags & COMPONENTS_V2)
        V.validate_message_fields(payload, v2=v2)
        atts = self._make_attachments(channel, payload.get("attachments"), uploads, [], ephemeral)
        content = payload.get("content") or ""
        embeds = payload.get("embeds") or []
        components = payload.get("components") or []
        if not allow_empty and not (content or embeds or atts or components or payload.get("sticker_ids") or payload.get("poll")):
            raise err(V.EMPTY_MESSAGE)
        ref = payload.get("message_reference")
        if ref is not None:
            ref_id = int(ref.get("message_id") or 0)
            target = self.messages.get(ref_id)
            if (target is None or target.deleted or target.ephemeral) and ref.get("fail_if_not_exists", True):
                raise V.form_error(["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
            ref = {"type": ref.get("type", 0), "message_id": str(ref_id), "channel_id": str(ref.get("channel_id") or channel.id)}
            if channel.guild is not None:
                ref["guild_id"] = str(channel.guild.id)
            if mtype == 0 and ref["type"] == 0:
                mtype = 19
        msg = StoredMessage(
            snowflake(),
            channel,
            self.bot_user,
            content=content,
            embeds=self._resolve_embed_attachments(embeds, atts),
            components=components,
            attachments=atts,
            flags=(flags & MESSAGE_FLAGS_ALLOWED) | (EPHEMERAL if ephemeral else 0) | extra_flags,
            type=mtype,
            tts=bool(payload.get("tts")),
            interaction=interaction,
            message_reference=ref,
            sticker_ids=payload.get("sticker_ids") or [],
            poll=payload.get("poll"),
        )
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            if ephemeral:
                msg.ephemeral_to = interaction.user
        msg.notify(payload.get("allowed_mentions"))
        self._store(msg)
        self.log.append(LogEntry("message", msg, after=msg.snapshot()))
        return msg

    def _edit_message(self, msg: StoredMessage, payload: dict, uploads: list[_Upload], *, clear_loading: bool = False) -> None:
        before = msg.snapshot()
        flags = msg.flags
        if "flags" in payload and payload["flags"] is not None:
            keep = flags & ~MESSAGE_FLAGS_ALLOWED
            flags = keep | (int(payload["flags"]) & MESSAGE_FLAGS_ALLOWED)
        if clear_loading:
            flags &= ~LOADING
        v2 = bool(flags & COMPONENTS_V2)
        merged = {
            "content": payload.get("content", msg.content) if "content" in payload else msg.content,
            "embeds": payload["embeds"] if "embeds" in payload else msg.embeds,
            "components": payload["components"] if "components" in payload else msg.components,
        }
        merged = {k: (v if v is not None else ("" if k == "content" else [])) for k, v in merged.items()}
        V.validate_message_fields(merged, v2=v2)
        atts = self._make_attachments(msg.channel, payload.get("attachments"), uploads, msg.attachments, msg.ephemeral)
        if not (merged["content"] or merged["embeds"] or atts or merged["components"] or msg.poll or msg.sticker_ids):
            raise err(V.EMPTY_MESSAGE)
        msg.history.append(before)
        msg.content = merged["content"]
        msg.embeds = self._resolve_embed_attachments(merged["embeds"], atts)
        msg.components = merged["components"]
        msg.attachments = atts
        msg.flags = flags
        msg.notify(payload.get("allowed_mentions"))
        if not (before["flags"] & LOADING):
            msg.edited_timestamp = iso()
        self.log.append(LogEntry("edit", msg, before=before, after=msg.snapshot()))

    def _check_send(self, channel: FakeChannel, payload: dict, uploads: list[_Upload]) -> None:
        if channel.is_dm:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise err(V.CANNOT_DM)
            return
        perms = self._bot_perms(channel)
        if not perms & VIEW_CHANNEL:
            raise err(V.MISSING_ACCESS)
        need = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if channel.is_thread and channel.locked and not perms & MANAGE_THREADS:
            raise err(V.THREAD_LOCKED)
        if uploads:
            need |= ATTACH_FILES
        if payload.get("embeds"):
            need |= EMBED_LINKS
        if payload.get("message_reference"):
            need |= READ_MESSAGE_HISTORY
        if perms & need != need:
            raise err(V.MISSING_PERMISSIONS)

    async def _gw_message(self, event: str, msg: StoredMessage) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE to sessions with the right intents."""
        if msg.ephemeral:
            return
        data = msg.payload()
        guild = msg.guild
        if guild is not None and msg.author.id in guild.members:
            data["member"] = guild.members[msg.author.id].payload(with_user=False)
        intent = DIRECT_MESSAGES if msg.is_dm else GUILD_MESSAGES
        assert self._dispatch_lock is not None
        async with self._dispatch_lock:
            for s in list(self.gateway.sessions.values()):
                if not (s.alive and s.covers(guild.id if guild else None) and s.intents & intent):
                    continue
                d = data
                privileged = msg.is_dm or msg.author is self.bot_user or str(self.bot_user.id) in _MENTION_RE.findall(msg.content)
                if not (s.intents & MESSAGE_CONTENT) and not privileged:
                    d = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
                await s.dispatch(event, d)

    async def _gw_guild_create(self, guild: FakeGuild) -> None:
        assert self._dispatch_lock is not None
        async with self._dispatch_lock:
            for s in list(self.gateway.sessions.values()):
                if s.alive and s.covers(guild.id) and s.intents & GUILDS:
                    await s.dispatch("GUILD_CREATE", self._guild_create_payload(guild, s.intents))

    def _guild_create_payload(self, guild: FakeGuild, intents: int) -> dict:
        members = list(guild.members.values())
        if not intents & GUILD_MEMBERS:  # like Discord: only ourselves without the privileged intent
            members = [m for m in members if m.user is self.bot_user]
        d = guild.base_payload()
        d.update(
            member_count=len(guild.members),
            members=[m.payload() for m in members],
            channels=[c.payload(include_guild_id=False) for c in guild.channels],
            # like Discord: the active threads the bot can see
            threads=[t.payload() for t in guild.threads if not t.archived and self._bot_perms(t) & VIEW_CHANNEL],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            large=len(guild.members) >= 250,
            lazy=True,
            unavailable=False,
            joined_at=self._bot_member(guild).joined_at,
        )
        return d

    # ======================================================================
    # HTTP plumbing
    # ======================================================================

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        self._last_activity = time.monotonic()
        if not request.path.startswith("/api/v10"):
            return await handler(request)
        path = request.path[len("/api/v10"):]
        rec = RecordedRequest(request.method, path, dict(request.query))
        self.requests.append(rec)
        try:
            if self._needs_auth(path):
                auth = request.headers.get("Authorization", "")
                tok = auth[4:] if auth.startswith("Bot ") else ""
                if not tok or (self.token is not None and tok != self.token):
                    raise err(V.UNAUTHORIZED)
            for rule in self._fail_rules:
                if rule.matches(request.method, path):
                    rule.times -= 1
                    self.api_errors.append((request.method, path, rule.status, rule.body.get("code", 0), rule.body.get("message", "")))
                    resp: web.StreamResponse = _json(rule.body, rule.status, rule.headers)
                    break
            else:
                try:
                    resp = await handler(request)
                except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
                    self.unhandled.append(f"{request.method} {path}")
                    resp = _json({"message": "404: Not Found", "code": 0}, 404)
        except ApiError as e:
            self.api_errors.append((request.method, path, e.status, e.code, e.message))
            inter = self._interaction_for_path(path)
            if inter is not None:
                inter.errors.append(e)
            resp = _json(e.body(), e.status)
        rec.status = resp.status
        self._notify()
        return resp

    @staticmethod
    def _needs_auth(path: str) -> bool:
        return not (path.startswith("/interactions/") or path.startswith("/webhooks/") or path.startswith("/gateway"))

    def _interaction_for_path(self, path: str) -> Optional[FakeInteraction]:
        parts = path.split("/")
        if len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
            return self._by_token.get(parts[3])
        return None

    async def _read_body(self, request: web.Request) -> tuple[dict, list[_Upload]]:
        if request.content_type.startswith("multipart/"):
            payload: dict = {}
            uploads: list[_Upload] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ""
                if name == "payload_json":
                    payload = orjson.loads(await part.text())  # type: ignore[union-attr]
                elif part.filename is not None:  # type: ignore[union-attr]
                    m = re.match(r"files\[(\d+)\]", name)
                    index = int(m.group(1)) if m else len(uploads)
                    uploads.append(_Upload(index, part.filename, bytes(await part.read())))  # type: ignore[union-attr]
                else:
                    payload[name] = await part.text()  # type: ignore[union-attr]
            return payload, uploads
        body = await request.read()
        if not body:
            return {}, []
        try:
            data = orjson.loads(body)
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        return (data if isinstance(data, dict) else {"__list__": data}), []

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        A = "/api/v10"
        r.add_get("/", self.gateway.handle)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.h_attachment)
        # gateway discovery
        r.add_get(A + "/gateway", self.h_gateway)
        r.add_get(A + "/gateway/bot", self.h_gateway_bot)
        # users
        r.add_get(A + "/users/@me", self.h_me)
        r.add_patch(A + "/users/@me", self.h_me)
        r.add_get(A + "/users/@me/guilds", self.h_my_guilds)
        r.add_post(A + "/users/@me/channels", self.h_create_dm)
        r.add_get(A + "/users/{user_id}", self.h_user)
        # application
        r.add_get(A + "/oauth2/applications/@me", self.h_application)
        r.add_get(A + "/applications/@me", self.h_application)
        for prefix in (A + "/applications/{app_id}/commands", A + "/applications/{app_id}/guilds/{guild_id}/commands"):
            r.add_get(prefix, self.h_commands_list)
            r.add_put(prefix, self.h_commands_put)
            r.add_post(prefix, self.h_command_upsert)
            r.add_get(prefix + "/{command_id:\\d+}", self.h_command_get)
            r.add_patch(prefix + "/{command_id:\\d+}", self.h_command_patch)
            r.add_delete(prefix + "/{command_id:\\d+}", self.h_command_delete)
        r.add_get(A + "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.h_empty_list)
        r.add_get(A + "/applications/{app_id}/entitlements", self.h_empty_list)
        r.add_get(A + "/applications/{app_id}/emojis", self.h_app_emojis)
        # interactions + webhooks
        r.add_post(A + "/interactions/{interaction_id}/{token}/callback", self.h_callback)
        r.add_post(A + "/webhooks/{app_id}/{token}", self.h_followup)
        r.add_get(A + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        r.add_patch(A + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        r.add_delete(A + "/webhooks/{app_id}/{token}/messages/{message_id}", self.h_webhook_message)
        # channels
        C = A + "/channels/{channel_id}"
        r.add_get(C, self.h_channel)
        r.add_post(C + "/typing", self.h_typing)
        r.add_get(C + "/messages", self.h_history)
        r.add_post(C + "/messages", self.h_send)
        r.add_post(C + "/messages/bulk-delete", self.h_bulk_delete)
        r.add_get(C + "/messages/pins", self.h_pins_new)
        r.add_put(C + "/messages/pins/{message_id}", self.h_pin)
        r.add_delete(C + "/messages/pins/{message_id}", self.h_pin)
        r.add_get(C + "/pins", self.h_pins_old)
        r.add_put(C + "/pins/{message_id}", self.h_pin)
        r.add_delete(C + "/pins/{message_id}", self.h_pin)
        r.add_get(C + "/messages/{message_id:\\d+}", self.h_message)
        r.add_patch(C + "/messages/{message_id:\\d+}", self.h_message)
        r.add_delete(C + "/messages/{message_id:\\d+}", self.h_message)
        r.add_post(C + "/threads", self.h_create_thread)
        r.add_put(C + "/thread-members/{user_id}", self.h_thread_member)
        r.add_put(C + "/messages/{message_id:\\d+}/reactions/{emoji}/@me", self.h_reaction)
        r.add_delete(C + "/messages/{message_id:\\d+}/reactions/{emoji}/@me", self.h_reaction)
        # guilds
        G = A + "/guilds/{guild_id}"
        r.add_get(G, self.h_guild)
        r.add_get(G + "/channels", self.h_guild_channels)
        r.add_get(G + "/roles", self.h_guild_roles)
        r.add_get(G + "/members", self.h_guild_members)
        r.add_get(G + "/members/{user_id}", self.h_guild_member)

    # ---- lookups that raise Discord errors ---------------------------------

    def _channel(self, request: web.Request) -> FakeChannel:
        try:
            ch = self.channels[int(request.match_info["channel_id"])]
        except (KeyError, ValueError):
            raise err(V.UNKNOWN_CHANNEL)
        if not ch.is_dm and not self._bot_perms(ch) & VIEW_CHANNEL:
            raise err(V.MISSING_ACCESS)
        return ch

    def _guild(self, request: web.Request) -> FakeGuild:
        try:
            return self.guilds[int(request.match_info["guild_id"])]
        except (KeyError, ValueError):
            raise err(V.UNKNOWN_GUILD)

    def _channel_message(self, ch: FakeChannel, request: web.Request) -> StoredMessage:
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.channel is not ch or msg.deleted or msg.ephemeral:
            raise err(V.UNKNOWN_MESSAGE)
        return msg

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app_id") != str(self.application_id):
            raise err(V.UNKNOWN_WEBHOOK if "webhooks" in request.path else (403, 50001, "Missing Access"))

    # ======================================================================
    # REST handlers
    # ======================================================================

    async def h_attachment(self, request: web.Request) -> web.StreamResponse:
        att = self.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    async def h_gateway(self, request: web.Request) -> web.StreamResponse:
        return _json({"url": self.gateway_url.rstrip("/")})

    async def h_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        return _json({
            "url": self.gateway_url.rstrip("/"),
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        })

    async def h_me(self, request: web.Request) -> web.StreamResponse:
        if request.method == "PATCH":
            body, _ = await self._read_body(request)
            if body.get("username"):
                self.bot_user.name = body["username"]
        return _json({**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None,
                      "locale": "en-US", "premium_type": 0})

    async def h_my_guilds(self, request: web.Request) -> web.StreamResponse:
        return _json([{"id": str(g.id), "name": g.name, "icon": None, "banner": None, "owner": False,
                       "permissions": str(BOT_ROLE_DEFAULT), "features": []}
                      for g in self.guilds.values() if self.bot_user.id in g.members])

    async def h_user(self, request: web.Request) -> web.StreamResponse:
        try:
            return _json(self.users[int(request.match_info["user_id"])].payload())
        except (KeyError, ValueError):
            raise err(V.UNKNOWN_USER)

    async def h_create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await self._read_body(request)
        user = self.users.get(int(body.get("recipient_id") or 0))
        if user is None:
            raise V.form_error(["recipient_id"], "USER_UNKNOWN", "Unknown user")
        return _json(self.dm_channel(user).payload())

    async def h_application(self, request: web.Request) -> web.StreamResponse:
        return _json({
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.payload(),
            "owner": self.app_owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        })

    async def h_empty_list(self, request: web.Request) -> web.StreamResponse:
        return _json([])

    async def h_app_emojis(self, request: web.Request) -> web.StreamResponse:
        return _json({"items": []})

    # ---- application commands --------------------------------------------

    def _command_scope(self, request: web.Request) -> Optional[int]:
        self._check_app(request)
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        guild = self.guilds.get(int(gid))
        if guild is None or self.bot_user.id not in guild.members:
            raise err(V.MISSING_ACCESS)
        return guild.id

    def _materialize_command(self, scope: Optional[int], cmd: dict) -> dict:
        ctype = cmd.get("type", 1)
        key = (scope, cmd["name"], ctype)
        cid = self._command_ids.setdefault(key, snowflake())
        out = {
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": ctype,
            "name": cmd["name"],
            "name_localizations": cmd.get("name_localizations"),
            "description": cmd.get("description", ""),
            "description_localizations": cmd.get("description_localizations"),
            "default_member_permissions": cmd.get("default_member_permissions"),
            "dm_permission": cmd.get("dm_permission", True),
            "contexts": cmd.get("contexts"),
            "integration_types": cmd.get("integration_types") or [0],
            "nsfw": cmd.get("nsfw", False),
            "options": cmd.get("options") or [],
        }
        if scope is not None:
            out["guild_id"] = str(scope)
        return out

    async def h_commands_list(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        return _json(list(self.commands.get(scope, {}).values()))

    async def h_commands_put(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        cmds = body.get("__list__", [])
        if not isinstance(cmds, list):
            raise V.form_error([], "BASE_TYPE_ARRAY", "Must be an array")
        counts: dict[int, int] = {}
        seen: set[tuple] = set()
        for i, c in enumerate(cmds):
            V.validate_command(c, [i])
            t = c.get("type", 1)
            counts[t] = counts.get(t, 0) + 1
            if (c["name"], t) in seen:
                raise V.form_error([i, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Application command names must be unique: {c['name']}")
            seen.add((c["name"], t))
        if counts.get(1, 0) > 100 or counts.get(2, 0) > 15 or counts.get(3, 0) > 15:
            raise ApiError(400, 30032, "Maximum number of application commands reached")
        out = [self._materialize_command(scope, c) for c in cmds]
        self.commands[scope] = {int(c["id"]): c for c in out}
        return _json(out)

    async def h_command_upsert(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        V.validate_command(body, [])
        out = self._materialize_command(scope, body)
        existed = int(out["id"]) in self.commands.get(scope, {})
        self.commands.setdefault(scope, {})[int(out["id"])] = out
        return _json(out, 200 if existed else 201)

    def _command(self, request: web.Request) -> tuple[Optional[int], dict]:
        scope = self._command_scope(request)
        cmd = self.commands.get(scope, {}).get(int(request.match_info["command_id"]))
        if cmd is None:
            raise err(V.UNKNOWN_COMMAND)
        return scope, cmd

    async def h_command_get(self, request: web.Request) -> web.StreamResponse:
        return _json(self._command(request)[1])

    async def h_command_patch(self, request: web.Request) -> web.StreamResponse:
        scope, cmd = self._command(request)
        body, _ = await self._read_body(request)
        merged = {**cmd, **body}
        V.validate_command(merged, [])
        out = self._materialize_command(scope, merged)
        self.commands[scope].pop(int(cmd["id"]))
        self.commands[scope][int(out["id"])] = out
        return _json(out)

    async def h_command_delete(self, request: web.Request) -> web.StreamResponse:
        scope, cmd = self._command(request)
        del self.commands[scope][int(cmd["id"])]
        return _no_content()

    # ---- interactions ----------------------------------------------------

    async def h_callback(self, request: web.Request) -> web.StreamResponse:
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or str(inter.id) != request.match_info["interaction_id"]:
            raise err(V.UNKNOWN_INTERACTION)
        if inter.responded:
            raise err(V.ALREADY_ACKED)
        if self.interaction_deadline is not None and time.monotonic() - inter.dispatched_at > self.interaction_deadline:
            raise err(V.UNKNOWN_INTERACTION)  # what Discord answers after the 3 s window
        payload, uploads = await self._read_body(request)
        ctype = payload.get("type")
        data = payload.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {4, 5, 9},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7} if inter.source_message is not None else {4, 5},
        }[inter.type]
        if ctype not in allowed:
            raise V.form_error(["type"], "INTERACTION_CALLBACK_TYPE_INVALID",
                               f"Callback type {ctype} is not valid for interaction type {inter.type}")
        resource: Optional[dict] = None
        mtype = {APPLICATION_COMMAND: 20}.get(inter.type, 19 if inter.source_message is not None else 0)
        if ctype == 4:
            msg = self._create_message(inter.channel, data, uploads, interaction=inter, allow_ephemeral=True, mtype=mtype)
            if mtype == 19 and inter.source_message is not None:
                msg.message_reference = {"type": 0, "message_id": str(inter.source_message.id), "channel_id": str(inter.channel.id),
                                         **({"guild_id": str(inter.guild.id)} if inter.guild else {})}
            inter.message = msg
        elif ctype == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            msg = self._create_message(inter.channel, {"flags": flags}, [], interaction=inter, allow_ephemeral=True,
                                       extra_flags=LOADING, allow_empty=True, mtype=mtype)
            inter.message = msg
        elif ctype in (6, 7):
            src = inter.source_message
            assert src is not None
            inter.message = src
            if ctype == 7:
                if src.deleted:
                    raise err(V.UNKNOWN_MESSAGE)
                self._edit_message(src, data, uploads)
        elif ctype == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise V.form_error(["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for i, c in enumerate(choices):
                if not 1 <= len(str(c.get("name", ""))) <= 100:
                    raise V.form_error(["data", "choices", i, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            inter.choices = choices
        elif ctype == 9:
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise V.form_error(["data"], "BASE_TYPE_REQUIRED", "custom_id, title and components are required")
            if len(data["title"]) > 45:
                raise V.form_error(["data", "title"], "BASE_TYPE_MAX_LENGTH", "Must be 45 or fewer in length.")
            inter.modal = data
        inter.callback_type = ctype
        inter.callback = payload
        inter.callback_files = {u.filename: u.data for u in uploads}
        inter.responded_at = time.monotonic()
        inter.answered.set()
        self.log.append(LogEntry("interaction_response", inter.message if ctype in (4, 5, 7) else None, data=payload))
        if ctype in (4, 5) and inter.message is not None:
            await self._gw_message("MESSAGE_CREATE", inter.message)
            resource = {"type": ctype, "message": inter.message.payload()}
        elif ctype == 7 and inter.message is not None:
            await self._gw_message("MESSAGE_UPDATE", inter.message)
            resource = {"type": ctype, "message": inter.message.payload()}
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return _no_content()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "activity_instance_id": None,
                "response_message_id": str(inter.message.id) if inter.message is not None and ctype in (4, 5, 7) else None,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(inter.message is not None and inter.message.ephemeral and ctype in (4, 5)),
            }
        }
        if resource is not None:
            body["resource"] = resource
        return _json(body)

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        self._check_app(request)
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or not inter.responded:
            raise err(V.UNKNOWN_WEBHOOK)
        return inter

    async def h_followup(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        payload, uploads = await self._read_body(request)
        orig = inter.message
        if inter.callback_type == 5 and orig is not None and orig.flags & LOADING and not orig.deleted:
            # Discord: the first follow-up after a "thinking" defer *becomes*
            # the deferred message, keeping the defer's ephemerality.
            payload = {k: v for k, v in payload.items() if k != "flags"}
            self._edit_message(orig, payload, uploads, clear_loading=True)
            msg = orig
            inter.followed_up.set()
            await self._gw_message("MESSAGE_UPDATE", msg)
        else:
            mtype = 20 if inter.type == APPLICATION_COMMAND else 0
            msg = self._create_message(inter.channel, payload, uploads, interaction=inter, allow_ephemeral=True, mtype=mtype)
            inter.followups.append(msg)
            inter.followed_up.set()
            await self._gw_message("MESSAGE_CREATE", msg)
        if request.query.get("wait", "true").lower() in ("0", "false"):
            return _no_content()
        return _json(msg.payload())

    async def h_webhook_message(self, request: web.Request) -> web.StreamResponse:
        inter = self._webhook_interaction(request)
        mid = request.match_info["message_id"]
        if mid == "@original":
            msg = inter.message
        else:
            msg = next((m for m in [inter.message, *inter.followups] if m is not None and str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise err(V.UNKNOWN_MESSAGE)
        if request.method == "GET":
            return _json(msg.payload())
        thinking = msg is inter.message and bool(msg.flags & LOADING)
        if request.method == "DELETE":
            self._delete(msg)
            if thinking:  # the bot took back its "thinking" to answer in the channel instead
                inter.followed_up.set()
            await self._gw_delete(msg)
            return _no_content()
        payload, uploads = await self._read_body(request)
        if msg.flags & LOADING:
            payload.pop("flags", None)  # the defer decided ephemerality
        self._edit_message(msg, payload, uploads, clear_loading=True)
        if thinking:  # its answer replaces "thinking"
            inter.followed_up.set()
        await self._gw_message("MESSAGE_UPDATE", msg)
        return _json(msg.payload())

    # ---- channels --------------------------------------------------------

    async def h_channel(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        return _json(ch.payload())

    async def h_typing(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        self._check_send(ch, {}, [])
        self.log.append(LogEntry("typing", data={"channel_id": ch.id}))
        return _no_content()

    async def h_send(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        payload, uploads = await self._read_body(request)
        self._check_send(ch, payload, uploads)
        if ch.is_thread and ch.archived:  # like Discord: a message unarchives a thread that is not locked
            ch.archived = False
            await self._gw_thread("THREAD_UPDATE", ch)
        msg = self._create_message(ch, payload, uploads)
        await self._gw_message("MESSAGE_CREATE", msg)
        return _json(msg.payload())

    async def h_history(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        if not ch.is_dm and not self._bot_perms(ch) & READ_MESSAGE_HISTORY:
            return _json([])
        limit = max(1, min(100, int(request.query.get("limit", 50))))
        msgs = [m for m in self.channel_messages(ch)]
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
            msgs = msgs[:limit]
        if "around" in q:
            a = int(q["around"])
            older = [m for m in msgs if m.id <= a][-(limit // 2 + 1):]
            newer = [m for m in msgs if m.id > a][: limit - len(older)]
            msgs = older + newer
        msgs = msgs[-limit:]
        return _json([m.payload() for m in reversed(msgs)])

    async def h_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self._channel_message(ch, request)
        if request.method == "GET":
            if not ch.is_dm and not self._bot_perms(ch) & READ_MESSAGE_HISTORY:
                raise err(V.MISSING_PERMISSIONS)
            return _json(msg.payload())
        if request.method == "DELETE":
            if msg.author is not self.bot_user:
                if ch.is_dm:
                    raise err(V.CANNOT_EXECUTE_ON_DM)
                if not self._bot_perms(ch) & MANAGE_MESSAGES:
                    raise err(V.MISSING_PERMISSIONS)
            self._delete(msg)
            await self._gw_delete(msg)
            return _no_content()
        payload, uploads = await self._read_body(request)
        if msg.author is not self.bot_user and set(payload) - {"flags"}:
            raise err(V.EDIT_OTHERS)
        self._edit_message(msg, payload, uploads)
        await self._gw_message("MESSAGE_UPDATE", msg)
        return _json(msg.payload())

    async def h_bulk_delete(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        if ch.is_dm:
            raise err(V.CANNOT_EXECUTE_ON_DM)
        if not self._bot_perms(ch) & MANAGE_MESSAGES:
            raise err(V.MISSING_PERMISSIONS)
        body, _ = await self._read_body(request)
        ids = [int(i) for i in body.get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise V.form_error(["messages"], "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100 in length.")
        for i in ids:
            m = self.messages.get(i)
            if m is not None and m.channel is ch and not m.deleted:
                self._delete(m)
                await self._gw_delete(m)
        return _no_content()

    def _delete(self, msg: StoredMessage) -> None:
        msg.deleted = True
        msg.pinned = False
        self.log.append(LogEntry("delete", msg, before=msg.snapshot()))

    async def _gw_delete(self, msg: StoredMessage) -> None:
        if msg.ephemeral:
            return
        data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        if msg.guild is not None:
            data["guild_id"] = str(msg.guild.id)
        await self.gateway_dispatch("MESSAGE_DELETE", data, guild_id=msg.guild.id if msg.guild else None,
                                    intent=DIRECT_MESSAGES if msg.is_dm else GUILD_MESSAGES)

    async def h_pin(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self._channel_message(ch, request)
        if not ch.is_dm and not self._bot_perms(ch) & (MANAGE_MESSAGES | PIN_MESSAGES):
            raise err(V.MISSING_PERMISSIONS)
        pin = request.method == "PUT"
        if pin and not msg.pinned:
            if len(self.pins(ch)) >= self.max_pins:
                raise err(V.MAX_PINS)
            msg.pinned, msg.pinned_at = True, iso()
            ch.last_pin_timestamp = msg.pinned_at
            self.log.append(LogEntry("pin", msg))
        elif not pin and msg.pinned:
            msg.pinned, msg.pinned_at = False, None
            self.log.append(LogEntry("unpin", msg))
        else:
            return _no_content()
        data = {"channel_id": str(ch.id), "last_pin_timestamp": ch.last_pin_timestamp}
        if ch.guild is not None:
            data["guild_id"] = str(ch.guild.id)
        await self.gateway_dispatch("CHANNEL_PINS_UPDATE", data, guild_id=ch.guild.id if ch.guild else None,
                                    intent=DIRECT_MESSAGES if ch.is_dm else GUILDS)
        await self._gw_message("MESSAGE_UPDATE", msg)
        return _no_content()

    async def h_pins_new(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        pins = self.pins(ch)
        before = request.query.get("before")
        if before:
            pins = [m for m in pins if (m.pinned_at or "") < before]
        limit = int(request.query.get("limit", 50))
        return _json({"items": [{"pinned_at": m.pinned_at, "message": m.payload()} for m in pins[:limit]],
                      "has_more": len(pins) > limit})

    async def h_pins_old(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        return _json([m.payload() for m in self.pins(ch)])

    async def h_reaction(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self._channel_message(ch, request)
        need = ADD_REACTIONS | READ_MESSAGE_HISTORY
        if not ch.is_dm and (self._bot_perms(ch) & need) != need:
            raise err(V.MISSING_PERMISSIONS)
        emoji = request.match_info["emoji"]
        users = msg.reactions.setdefault(emoji, set())
        if request.method == "PUT":
            users.add(self.bot_user.id)
            self.log.append(LogEntry("reaction", msg, data={"emoji": emoji}))
        else:
            users.discard(self.bot_user.id)
            self.log.append(LogEntry("unreaction", msg, data={"emoji": emoji}))
        return _no_content()

    # ---- threads ---------------------------------------------------------

    async def h_create_thread(self, request: web.Request) -> web.StreamResponse:
        """POST /channels/{id}/threads: a thread without a starter message
        (type 12, private, by default, as in API v10)."""
        parent = self._channel(request)
        if parent.type != GUILD_TEXT:
            raise err(V.INVALID_CHANNEL_TYPE)
        body, _ = await self._read_body(request)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise V.form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        kind = body.get("type")
        kind = PRIVATE_THREAD if kind is None else kind
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise V.form_error(["type"], "BASE_TYPE_CHOICES", f"Value must be one of {{{PUBLIC_THREAD}, {PRIVATE_THREAD}}}.")
        duration = body.get("auto_archive_duration")
        duration = 1440 if duration is None else duration
        if duration not in ARCHIVE_DURATIONS:
            raise V.form_error(["auto_archive_duration"], "BASE_TYPE_CHOICES",
                               f"Value must be one of {set(ARCHIVE_DURATIONS)}.")
        invitable = body.get("invitable")
        if invitable is not None and not isinstance(invitable, bool):
            raise V.form_error(["invitable"], "BASE_TYPE_BAD_BOOLEAN", "Must be either true or false.")
        need = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not self._bot_perms(parent) & need:
            raise err(V.MISSING_PERMISSIONS)
        assert parent.guild is not None
        thread = FakeChannel(snowflake(), name, kind, guild=parent.guild, parent=parent, owner=self.bot_user,
                             invitable=invitable is not False, auto_archive_duration=duration)
        thread.members[self.bot_user.id] = iso()  # the creator is in it
        parent.guild.threads.append(thread)
        self.channels[thread.id] = thread
        self.log.append(LogEntry("thread_create", data={"thread_id": thread.id, "parent_id": parent.id, "type": kind}))
        await self._gw_thread("THREAD_CREATE", thread, newly_created=True)
        return _json(thread.payload(), 201)

    async def h_thread_member(self, request: web.Request) -> web.StreamResponse:
        """PUT /channels/{thread_id}/thread-members/{user_id|@me}."""
        thread = self._channel(request)
        if not thread.is_thread:
            raise err(V.INVALID_CHANNEL_TYPE)
        assert thread.guild is not None and thread.parent is not None
        raw = request.match_info["user_id"]
        try:
            uid = self.bot_user.id if raw == "@me" else int(raw)
        except ValueError:
            raise err(V.UNKNOWN_USER)
        member = thread.guild.members.get(uid)
        if member is None:
            raise err(V.UNKNOWN_MEMBER)
        if thread.archived:
            raise err(V.THREAD_ARCHIVED)
        perms = self._bot_perms(thread)
        if not perms & SEND_MESSAGES_IN_THREADS:
            raise err(V.MISSING_PERMISSIONS)
        if uid != self.bot_user.id and thread.type == PRIVATE_THREAD and self.bot_user.id not in thread.members:
            raise err(V.MISSING_ACCESS)
        if (uid != self.bot_user.id and thread.type == PRIVATE_THREAD and not thread.invitable
                and thread.owner is not self.bot_user and not perms & MANAGE_THREADS):
            raise err(V.MISSING_PERMISSIONS)  # only moderators (and its creator) add people to a closed thread
        if not channel_permissions(thread.parent, member) & VIEW_CHANNEL:
            raise err(V.MISSING_ACCESS)  # one who cannot see the channel cannot be in its threads
        if uid in thread.members:
            return _no_content()
        thread.members[uid] = iso()
        self.log.append(LogEntry("thread_member_add", data={"thread_id": thread.id, "user_id": uid}))
        data = {"id": str(thread.id), "guild_id": str(thread.guild.id), "member_count": min(len(thread.members), 50),
                "added_members": [{**thread.thread_member_payload(uid), "member": member.payload()}]}
        # like Discord: others joining reach only sessions with the members intent; the bot's own join, any
        await self.gateway_dispatch("THREAD_MEMBERS_UPDATE", data, guild_id=thread.guild.id,
                                    intent=GUILDS if uid == self.bot_user.id else GUILD_MEMBERS)
        if uid == self.bot_user.id:  # joining: the thread itself reaches the bot
            await self._gw_thread("THREAD_CREATE", thread)
        return _no_content()

    async def _gw_thread(self, event: str, thread: FakeChannel, *, newly_created: bool = False) -> None:
        """THREAD_CREATE / THREAD_UPDATE. Like Discord, a private thread's
        events go only to sessions of members (the bot) or moderators."""
        assert thread.guild is not None
        if not self._bot_perms(thread) & VIEW_CHANNEL:
            return
        data = thread.payload()
        if self.bot_user.id in thread.members:
            data["member"] = thread.thread_member_payload(self.bot_user.id)
        if newly_created:
            data["newly_created"] = True
        await self.gateway_dispatch(event, data, guild_id=thread.guild.id, intent=GUILDS)

    def archive_thread(self, thread: FakeChannel, *, locked: bool = False) -> None:
        """The thread goes quiet long enough to be archived (or a moderator
        locks it): THREAD_UPDATE; a message unarchives it unless locked."""
        thread.archived, thread.locked = True, locked
        self._spawn(self._gw_thread("THREAD_UPDATE", thread))

    # ---- guilds ----------------------------------------------------------

    async def h_guild(self, request: web.Request) -> web.StreamResponse:
        g = self._guild(request)
        return _json({**g.base_payload(), "approximate_member_count": len(g.members)})

    async def h_guild_channels(self, request: web.Request) -> web.StreamResponse:
        g = self._guild(request)
        return _json([c.payload() for c in g.channels])

    async def h_guild_roles(self, request: web.Request) -> web.StreamResponse:
        g = self._guild(request)
        return _json([r.payload() for r in g.roles])

    async def h_guild_members(self, request: web.Request) -> web.StreamResponse:
        g = self._guild(request)
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        ms = sorted((m for m in g.members.values() if m.id > after), key=lambda m: m.id)[:limit]
        return _json([m.payload() for m in ms])

    async def h_guild_member(self, request: web.Request) -> web.StreamResponse:
        g = self._guild(request)
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise err(V.UNKNOWN_MEMBER)
        return _json(m.payload())
