"""The websocket side: IDENTIFY, RESUME, heartbeats, member chunks and dispatches filtered by intents and
shard, and the outages a test arranges."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from tests.discord_fake.constants import API_VERSION, APPLICATION_FLAGS, INTENT_GUILD_MEMBERS, PRIVILEGED_INTENTS
from tests.discord_fake.model import GUILD_EVENTS, FakeGuild, _Session, shard_of

if TYPE_CHECKING:
    pass


class _Gateway:
    """The gateway (mixed into `DiscordFake`)."""

    async def disconnect(self, code: int = 4000, *, timeout: float | None = None, shard: int = 0) -> None:
        """Drop a shard's gateway connection (as Discord does now and then) and wait until the bot is back."""
        session = self._sessions.get(shard)
        if session is None or session.ws is None:
            raise RuntimeError("the bot is not connected")
        before = self._sessions_started
        await session.ws.close(code=code, message=b"fake disconnect")
        await self.wait_until(lambda: self._sessions_started > before, timeout=timeout, what="the bot to reconnect")

    @contextlib.asynccontextmanager
    async def gateway_outage(self, shard: int = 0) -> AsyncIterator[None]:
        """Discord's gateway is unreachable for one shard while inside: its connection is dropped (the bot
        hears it close), and the bot's attempts to come back (IDENTIFY or RESUME) get no answer, nor do
        its heartbeats, until the block ends; then the held attempt is answered and the bot is back. How
        long it lasts is the test's to say (advance the service's FakeTime inside), not the wall clock's."""
        session = self._sessions.get(shard)
        if session is None or session.ws is None:
            raise RuntimeError("the bot is not connected")
        self._gateway_down.add(shard)
        waiting = len(self._unanswered)
        try:
            await session.ws.close(code=4000, message=b"fake outage")
            await self.wait_until(lambda: len(self._unanswered) > waiting, what="the bot to try to reconnect")
            yield
        finally:
            self._gateway_down.discard(shard)
            before = self._sessions_started
            held, self._unanswered = self._unanswered, []
            for ws, frame in held:
                if not ws.closed:
                    await self._on_frame(ws, frame)
        await self.wait_until(lambda: self._sessions_started > before, what="the bot to reconnect")

    def stall(self, shard: int = 0) -> None:
        """The shard's connection stays open but Discord stops acknowledging its heartbeats (a zombie
        connection: only a watchdog on the ACKs notices) until `unstall`."""
        self._stalled.add(shard)

    def unstall(self, shard: int = 0) -> None:
        self._stalled.discard(shard)

    def _shard_of_socket(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> int | None:
        """The shard a frame speaks for: its session's, or the one it identifies or resumes as."""
        data = frame.get("d") if isinstance(frame.get("d"), dict) else {}
        if frame.get("op") == 2:
            return int((data.get("shard") or [0, 1])[0])
        if frame.get("op") == 6:
            found = next((x for x in self._sessions.values() if x.id == data.get("session_id")), None)
            return found.shard if found is not None else None
        return next((x.shard for x in self._sessions.values() if x.ws is ws), None)

    # --- gateway ---------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Every shard that identified is connected now (and at least one did)."""
        return bool(self._sessions) and all(s.ws is not None and not s.ws.closed for s in self._sessions.values())

    def _session_for(self, guild_id: int | None) -> _Session | None:
        """The session a guild's events go to: its shard's (DMs: shard 0's)."""
        for session in self._sessions.values():
            if session.shard == (0 if guild_id is None else shard_of(guild_id, session.count)):
                return session
        return None

    @property
    def _intents(self) -> int:
        return int((self.identify_payload or {}).get("intents", 0))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        await self._send(ws, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is aiohttp.WSMsgType.TEXT:
                    frame = json.loads(msg.data)
                    self.gateway_received.append(frame)
                    await self._on_frame(ws, frame)
        finally:
            for session in self._sessions.values():
                if session.ws is ws:
                    session.ws = None
            self._notify()
        return ws

    async def _send(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        async with self._send_lock:
            await self._send_text(ws, json.dumps(frame))
            self.gateway_sent.append(frame)

    @staticmethod
    async def _send_text(ws: web.WebSocketResponse, text: str) -> None:
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(text)

    async def _on_frame(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if self._gateway_down or self._stalled:
            shard = self._shard_of_socket(ws, frame)
            down = shard in self._gateway_down or (shard is None and bool(self._gateway_down))
            if op in (2, 6) and down:
                self._unanswered.append((ws, frame))
                self._notify()
                return
            if op == 1 and (down or shard in self._stalled):
                return  # no HEARTBEAT_ACK
        if op == 1:
            await self._send(ws, {"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(ws, data or {})
        elif op == 6:
            await self._resume(ws, data or {})
        elif op == 8:
            await self._member_chunk(data or {})
        # op 3 (presence) and 4 (voice state) are recorded and otherwise ignored.

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identify_payload = data
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if int(data.get("intents", 0)) & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard") or [0, 1]
        shard_id, count = int(shard[0]), int(shard[1])
        if count < 1 or not 0 <= shard_id < count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        session = _Session(shard_id, count, f"fake-session-{self._snowflake()}", ws)
        async with self._send_lock:
            self._sessions[shard_id] = session
        guilds = [g for g in self.guilds if shard_of(g.id, count) == shard_id]
        ready = {
            "v": API_VERSION,
            "user": self.bot_user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "shard": shard,
            "application": {"id": str(self.application_id), "flags": APPLICATION_FLAGS},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "session_type": "normal",
        }
        await self._dispatch("READY", ready, session=session)
        for guild in guilds:
            await self._dispatch("GUILD_CREATE", self._guild_create_payload(guild), session=session)
        self._sessions_started += 1
        self._notify()

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next((s for s in self._sessions.values() if s.id == data.get("session_id")), None)
        if session is None:
            await self._send(ws, {"op": 9, "d": False, "s": None, "t": None})
            return
        since = int(data.get("seq") or 0)
        async with self._send_lock:
            session.ws = ws
            for seq, text in session.events:
                if seq > since:
                    await self._send_text(ws, text)
        await self._dispatch("RESUMED", {}, session=session)
        self._sessions_started += 1
        self._notify()

    async def _member_chunk(self, data: dict[str, Any]) -> None:
        guild = self._guild(data.get("guild_id"))
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if int(m["user"]["id"]) in wanted]
        elif data.get("query"):
            members = [m for m in members if m["user"]["username"].startswith(data["query"])]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _guild_create_payload(self, guild: FakeGuild) -> dict[str, Any]:
        if self._intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members.values())
        else:  # like Discord: without the members intent only the bot itself comes along
            members = [guild.members[self.application_id]]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "roles": guild.roles,
            "channels": [self.channels[c].payload() for c in guild.channel_ids if not self.channels[c].deleted],
            "threads": [t.payload() for t in self.threads if t.guild_id == guild.id and not t.archived],
            "members": members,
            "member_count": len(guild.members),
            "large": False,
            "unavailable": False,
            "joined_at": guild.joined_at,
            "features": [],
            "emojis": [],
            "stickers": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": guild.locale,
            "system_channel_id": str(guild.channel_ids[0]) if guild.channel_ids else None,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "afk_timeout": 300,
        }

    async def _dispatch(
        self, event: str, data: dict[str, Any], *, intent: int | None = None, session: _Session | None = None
    ) -> None:
        """Send a DISPATCH to the session of the event's guild (or `session`) with its next sequence number;
        kept for RESUME if the bot is away."""
        if session is None:
            guild_id = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
            session = self._session_for(int(guild_id) if guild_id else None)
        if session is None:
            return  # that shard never identified: Discord would not have sent it either
        if intent is not None and not self._intents & intent:
            return
        async with self._send_lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            text = json.dumps(frame)
            session.events.append((session.seq, text))
            self.gateway_sent.append(frame)
            if session.ws is not None:
                await self._send_text(session.ws, text)
