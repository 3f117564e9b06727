"""The websocket gateway of the fake Discord (API v10, JSON encoding).

Supports HELLO, IDENTIFY -> READY + GUILD_CREATE, HEARTBEAT/ACK, RESUME
(replaying missed events), REQUEST_GUILD_MEMBERS, op 7 RECONNECT and op 9
INVALID_SESSION sent on demand, and zlib-stream / zstd-stream transport
compression (the one discord.py asks for through ``compress=`` in the URL).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import secrets
import zlib
from typing import TYPE_CHECKING, Any, Callable, Optional

import orjson
from aiohttp import WSMsgType, web

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

_log = logging.getLogger("fake_discord.gateway")

# Intents (bit values from the Discord docs / discord.Intents)
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15

CLEAN_CLOSE_CODES = (1000, 1001)
FATAL_CLOSE_CODES = (4004, 4010, 4011, 4012, 4013, 4014)


# --------------------------------------------------------------------------
# Transport compression
# --------------------------------------------------------------------------


def _zlib_factory() -> Callable[[bytes], bytes]:
    ctx = zlib.compressobj()

    def compress(data: bytes) -> bytes:
        return ctx.compress(data) + ctx.flush(zlib.Z_SYNC_FLUSH)

    return compress


def _zstd_factory() -> Optional[Callable[[], Callable[[bytes], bytes]]]:
    try:  # Python 3.14+
        from compression import zstd  # type: ignore

        def make() -> Callable[[bytes], bytes]:
            c = zstd.ZstdCompressor()
            return lambda data: c.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)

        return make
    except ImportError:
        pass
    try:
        import zstandard  # type: ignore

        def make() -> Callable[[bytes], bytes]:
            c = zstandard.ZstdCompressor().compressobj()
            return lambda data: c.compress(data) + c.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)

        return make
    except ImportError:
        return None


_FACTORIES: dict[str, Callable[[], Callable[[bytes], bytes]]] = {"zlib-stream": _zlib_factory}
_zstd = _zstd_factory()
if _zstd is not None:
    _FACTORIES["zstd-stream"] = _zstd
_VERIFIED: dict[str, bool] = {}


def _verified(kind: str) -> bool:
    """Round-trip two messages through our compressor and discord.py's own
    decompression context, once per process, before trusting a compressor."""
    if kind not in _VERIFIED:
        ok = False
        try:
            from discord import utils as dutils

            ctx_cls = dutils._ActiveDecompressionContext
            if ctx_cls.COMPRESSION_TYPE == kind:
                comp, ctx = _FACTORIES[kind](), ctx_cls()
                ok = all(ctx.decompress(comp(m.encode())) == m for m in ('{"a":1}', '{"b":"' + "x" * 5000 + '"}'))
        except Exception:  # pragma: no cover - defensive
            ok = False
        _VERIFIED[kind] = ok
    return _VERIFIED[kind]


def make_compressor(kind: Optional[str], enabled: bool) -> Optional[Callable[[bytes], bytes]]:
    """A compressor for the requested transport compression, or None for
    plain text frames (which discord.py accepts whatever it asked for)."""
    if not enabled or not kind or kind not in _FACTORIES or not _verified(kind):
        return None
    return _FACTORIES[kind]()


# --------------------------------------------------------------------------
# Sessions and connections
# --------------------------------------------------------------------------


class GatewayConnection:
    def __init__(self, ws: web.WebSocketResponse, compressor: Optional[Callable[[bytes], bytes]]):
        self.ws = ws
        self.compressor = compressor
        self.lock = asyncio.Lock()
        self.session: Optional[GatewaySession] = None
        self.ready = False
        self.sent: list[dict] = []
        self.server_close_code: Optional[int] = None

    async def close(self, code: int, message: bytes = b"") -> None:
        """Close from the server side; the code decides whether the session
        survives (anything but 1000/1001 keeps it resumable)."""
        if self.server_close_code is None:
            self.server_close_code = code
        await self.ws.close(code=code, message=message)

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: dict) -> None:
        data = orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
        async with self.lock:  # compression state and frame order must agree
            if self.ws.closed:
                return
            try:
                if self.compressor is not None:
                    await self.ws.send_bytes(self.compressor(data))
                else:
                    await self.ws.send_str(data.decode())
            except (ConnectionResetError, RuntimeError):
                return
        self.sent.append(payload)


class GatewaySession:
    def __init__(self, intents: int, shard: Optional[list[int]]):
        self.id = secrets.token_hex(16)
        self.seq = 0
        self.intents = intents
        self.shard = shard
        self.buffer: collections.deque[dict] = collections.deque(maxlen=5000)
        self.conn: Optional[GatewayConnection] = None
        self.alive = True  # resumable

    def covers(self, guild_id: Optional[int]) -> bool:
        if not self.shard or self.shard[1] <= 1:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    @property
    def connected_ready(self) -> bool:
        return self.alive and self.conn is not None and self.conn.open and self.conn.ready

    async def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        payload = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.buffer.append(payload)
        if self.conn is not None and self.conn.open:
            await self.conn.send(payload)


class Gateway:
    """Gateway half of the fake server. Owned by FakeDiscord."""

    def __init__(self, server: "FakeDiscord"):
        self.server = server
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: set[GatewayConnection] = set()
        self.identifies = 0
        self.resumes = 0
        # per connection: (compress= query parameter, whether frames were compressed)
        self.connection_log: list[tuple[Optional[str], bool]] = []

    # ---- queries ---------------------------------------------------------

    def ready_sessions(self, guild_id: Optional[int] = None) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.connected_ready and s.covers(guild_id)]

    # ---- fan-out -----------------------------------------------------------

    async def dispatch(self, event: str, data: Any, *, guild_id: Optional[int] = None, intent: int = 0) -> None:
        """Send a dispatch to every live session that covers guild_id and asked
        for the intent (0 = no intent needed)."""
        for s in list(self.sessions.values()):
            if s.alive and s.covers(guild_id) and (not intent or s.intents & intent):
                await s.dispatch(event, data)

    async def send_op(self, op: int, d: Any = None) -> None:
        for c in list(self.connections):
            await c.send({"op": op, "d": d, "s": None, "t": None})

    async def close_all(self, code: int = 1000) -> None:
        for c in list(self.connections):
            await c.close(code)

    # ---- websocket handler -------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Only JSON encoding is supported by the fake gateway")  # nothing to resume
            return ws
        requested = request.query.get("compress")
        conn = GatewayConnection(ws, make_compressor(requested, self.server.transport_compression))
        self.connection_log.append((requested, conn.compressor is not None))
        self.connections.add(conn)
        try:
            await conn.send(
                {"op": 10, "d": {"heartbeat_interval": self.server.heartbeat_interval, "_trace": ["fake-gateway"]}, "s": None, "t": None}
            )
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    raw = msg.data if isinstance(msg.data, str) else msg.data.decode()
                    try:
                        payload = orjson.loads(raw)
                    except ValueError:
                        await conn.close(4002, b"Error while decoding payload")
                        break
                    await self._on_payload(conn, payload)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.connections.discard(conn)
            s = conn.session
            if s is not None and s.conn is conn:
                s.conn = None
                code = conn.server_close_code if conn.server_close_code is not None else ws.close_code
                if code in CLEAN_CLOSE_CODES or code in FATAL_CLOSE_CODES:
                    s.alive = False
                    self.sessions.pop(s.id, None)
            self.server._notify()
        return ws

    async def _on_payload(self, conn: GatewayConnection, payload: dict) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(conn, d or {})
        elif op == 3:  # presence update
            self.server.presence = d
        elif op == 6:
            await self._resume(conn, d or {})
        elif op == 8:
            await self._request_members(conn, d or {})
        elif op == 4:  # voice state: not supported, ignored
            pass
        else:
            _log.warning("fake gateway: unknown op %r", op)

    def _token_ok(self, token: Optional[str]) -> bool:
        if not token:
            return False
        return self.server.token is None or token == self.server.token

    async def _identify(self, conn: GatewayConnection, d: dict) -> None:
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated.")
            return
        if not self._token_ok(d.get("token")):
            await conn.close(4004, b"Authentication failed.")
            return
        self.identifies += 1
        srv = self.server
        session = GatewaySession(int(d.get("intents") or 0), d.get("shard"))
        session.conn = conn
        conn.session = session
        guilds = [g for g in srv.guilds.values() if srv.bot_user.id in g.members and session.covers(g.id)]
        ready = {
            "v": 10,
            "user": {**srv.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": srv.gateway_url,
            "application": {"id": str(srv.application_id), "flags": srv.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-gateway"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        assert srv._dispatch_lock is not None
        async with srv._dispatch_lock:  # nothing else may slip in before READY / GUILD_CREATE
            self.sessions[session.id] = session
            await session.dispatch("READY", ready)
            for g in guilds:
                await session.dispatch("GUILD_CREATE", srv._guild_create_payload(g, session.intents))
            conn.ready = True
        srv._notify()

    async def _resume(self, conn: GatewayConnection, d: dict) -> None:
        session = self.sessions.get(d.get("session_id") or "")
        if session is None or not session.alive or not self._token_ok(d.get("token")):
            await conn.send({"op": 9, "d": False, "s": None, "t": None})
            return
        self.resumes += 1
        old = session.conn
        if old is not None and old is not conn and old.open:
            old.session = None
            await old.close(4000)
        assert self.server._dispatch_lock is not None
        async with self.server._dispatch_lock:
            session.conn = conn
            conn.session = session
            last = d.get("seq") or 0
            for p in list(session.buffer):
                if p["s"] > last:
                    await conn.send(p)
            await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})
            conn.ready = True
        self.server._notify()

    async def _request_members(self, conn: GatewayConnection, d: dict) -> None:
        srv = self.server
        if conn.session is None:
            return
        guild_ids = d.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        for gid in guild_ids:
            guild = srv.guilds.get(int(gid))
            if guild is None:
                continue
            members = list(guild.members.values())
            not_found: list[str] = []
            if d.get("user_ids"):
                wanted = [int(u) for u in d["user_ids"]]
                not_found = [str(u) for u in wanted if u not in guild.members]
                members = [m for m in members if m.id in wanted]
            elif d.get("query"):
                q = d["query"].lower()
                members = [m for m in members if m.user.name.lower().startswith(q) or (m.nick or "").lower().startswith(q)]
            limit = d.get("limit") or 0
            if limit:
                members = members[:limit]
            chunk = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": not_found,
            }
            if d.get("presences"):
                chunk["presences"] = []
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            await conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
