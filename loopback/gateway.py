"""The gateway websocket: HELLO, IDENTIFY, READY, heartbeats, RESUME and event delivery.

Each session keeps a log of its dispatches; one writer task per connection sends the log from
a cursor, so live delivery and the replay after a RESUME are the same code path and events
produced while the bot is disconnected are delivered, in order, when it comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from loopback.payloads import guild_payload, member_payload, user_payload
from loopback.state import MESSAGE_CONTENT, LoopbackState

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT = 0, 1, 2, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
# A heartbeat is acknowledged after about a network's round trip, as Discord's is.
# discord.py counts a beat as sent only once its keep-alive thread sees the send finish; an
# ACK that an instant loopback got in before that was measured against the beat before, and
# every bot logged "Can't keep up, websocket is 41.3s behind" once a minute or so.
HEARTBEAT_ACK_DELAY = 0.05
LOG_LIMIT = 10_000


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int]
    log: list[dict[str, Any]] = field(default_factory=list)
    first_seq: int = 1
    seq: int = 0
    cursor: int = 0
    ws: web.WebSocketResponse | None = None
    writer: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    invalid: bool = False

    def covers(self, guild_id: int | None) -> bool:
        index, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == index

    def append(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        self.log.append({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        if len(self.log) > LOG_LIMIT:
            drop = len(self.log) - LOG_LIMIT
            del self.log[:drop]
            self.first_seq += drop
        self.wake.set()

    def event(self, seq: int) -> dict[str, Any] | None:
        index = seq - self.first_seq
        return self.log[index] if 0 <= index < len(self.log) else None


class Gateway:
    def __init__(self, state: LoopbackState) -> None:
        self.state = state
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeat_count = 0
        self.invalid_session_count = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._locks: dict[web.WebSocketResponse, asyncio.Lock] = {}
        self._acks: set[asyncio.Task[None]] = set()

    # --- status --------------------------------------------------------------------------

    def session_for(self, guild_id: int | None) -> Session | None:
        """The newest valid session that receives this guild's (or DM) events."""
        for session in reversed(self.sessions.values()):
            if not session.invalid and session.covers(guild_id):
                return session
        return None

    @property
    def connected(self) -> bool:
        return any(s.ws is not None and not s.ws.closed and not s.invalid
                   for s in self.sessions.values())

    # --- events --------------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any], guild_id: int | None, intent: int) -> bool:
        """Queue an event for the bot; False when no session could ever receive it."""
        session = self.session_for(guild_id)
        if session is None:
            return False
        if intent and not session.intents & intent:
            return True
        if event.startswith("MESSAGE_") and guild_id is not None:
            data = self._without_content(session, data)
        session.append(event, data)
        return True

    def _without_content(self, session: Session, data: dict[str, Any]) -> dict[str, Any]:
        """Without the message content intent a bot sees guild messages with no content."""
        author = (data.get("author") or {}).get("id")
        if session.intents & MESSAGE_CONTENT or author == str(self.state.bot.id):
            return data
        mentioned = f"<@{self.state.bot.id}>" in (data.get("content") or "")
        if mentioned:
            return data
        return data | {"content": "", "embeds": [], "attachments": [], "components": []}

    # --- control from tests --------------------------------------------------------------

    async def close(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Drop the bot's connection as Discord does; it should RESUME (unless invalidated)."""
        for session in list(self.sessions.values()):
            ws = session.ws
            if ws is not None and not ws.closed:
                session.invalid = session.invalid or invalidate
                await ws.close(code=code, message=b"loopback closed the connection")

    async def reconnect(self) -> None:
        """Op 7: the bot should close and RESUME."""
        await self._send_to_active({"op": RECONNECT, "d": None})

    async def invalidate(self, *, resumable: bool = False) -> None:
        """Op 9: with `resumable=False` the bot must IDENTIFY again as a new session."""
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed and not resumable:
                session.invalid = True
        self.invalid_session_count += 1
        await self._send_to_active({"op": INVALID_SESSION, "d": resumable})

    async def _send_to_active(self, payload: dict[str, Any]) -> None:
        for ws in list(self._sockets):
            if not ws.closed:
                await self._send(ws, payload)

    async def shutdown(self) -> None:
        """Close every socket first: aiohttp's runner cleanup would wait on open ones."""
        for session in self.sessions.values():
            if session.writer is not None:
                session.writer.cancel()
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001, message=b"loopback shutting down")

    # --- the websocket -------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        self._locks[ws] = asyncio.Lock()
        session: Session | None = None
        try:
            await self._send(ws, {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == HEARTBEAT:
                    self.heartbeat_count += 1
                    ack = asyncio.create_task(self._ack(ws))
                    self._acks.add(ack)
                    ack.add_done_callback(self._acks.discard)
                elif op == IDENTIFY:
                    session = await self._identify(ws, data)
                elif op == RESUME:
                    session = await self._resume(ws, data)
                elif op == REQUEST_MEMBERS and session is not None:
                    self._chunk(session, data)
        finally:
            self._sockets.discard(ws)
            self._locks.pop(ws, None)
            if session is not None and session.ws is ws:
                self._detach(session)
            self.state.notify()
        return ws

    async def _ack(self, ws: web.WebSocketResponse) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        await self._send(ws, {"op": HEARTBEAT_ACK, "d": None})

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        lock = self._locks.get(ws)
        if lock is None or ws.closed:
            return
        async with lock:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(payload))

    def _token_ok(self, token: str | None) -> bool:
        return (token or "").removeprefix("Bot ") == self.state.token

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if not self._token_ok(data.get("token")):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = data.get("shard") or [0, 1]
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)),
                          (int(shard[0]), int(shard[1])))
        self.sessions[session.id] = session
        self.identify_count += 1
        guilds = [g for g in self.state.guilds.values() if session.covers(g.id)]
        bot = self.state.bot
        session.append("READY", {
            "v": 10,
            "user": user_payload(bot) | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "shard": list(session.shard),
            "application": {"id": str(self.state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["loopback"],
        })
        for guild in guilds:
            session.append("GUILD_CREATE", guild_payload(self.state, guild))
        self._attach(session, ws, cursor=0)
        self.state.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        seq = data.get("seq") or 0
        if (
            session is None
            or session.invalid
            or not self._token_ok(data.get("token"))
            or seq < session.first_seq - 1
            or seq > session.seq
        ):
            self.invalid_session_count += 1
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
            return None
        if session.ws is not None and session.ws is not ws:
            old = session.ws
            self._detach(session)
            await old.close(code=4000)
        self.resume_count += 1
        session.append("RESUMED", {"_trace": ["loopback"]})
        self._attach(session, ws, cursor=seq)
        self.state.notify()
        return session

    def _chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.state.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        users = [self.state.users[uid] for uid in guild.member_ids]
        members = [
            member_payload(guild, user) for user in users
            if (not wanted or user.id in wanted) and user.name.lower().startswith(query)
        ]
        session.append("GUILD_MEMBERS_CHUNK", {
            "guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1,
            "not_found": [], "nonce": data.get("nonce"),
        })

    def _attach(self, session: Session, ws: web.WebSocketResponse, *, cursor: int) -> None:
        session.ws = ws
        session.cursor = cursor
        session.writer = asyncio.create_task(self._write(session, ws))

    def _detach(self, session: Session) -> None:
        if session.writer is not None:
            session.writer.cancel()
        session.writer = None
        session.ws = None

    async def _write(self, session: Session, ws: web.WebSocketResponse) -> None:
        while not ws.closed:
            session.wake.clear()
            while session.cursor < session.seq and not ws.closed:
                event = session.event(session.cursor + 1)
                if event is None:
                    break
                await self._send(ws, event)
                session.cursor += 1
            await session.wake.wait()
