"""`DiscordFake`: its state, lifecycle (serve, start, close, check, patching discord.py, running a bot) and
waiting; the rest is mixed in by concern (world, actions, gateway, messages, rest)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.state import ConnectionState

from tests import strays
from tests.discord_fake.actions import _Actions
from tests.discord_fake.constants import API_PREFIX, CAUSE_HEADER, T, _cause
from tests.discord_fake.gateway import _Gateway
from tests.discord_fake.messages import _Messages
from tests.discord_fake.model import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    Handler,
    RecordedRequest,
    Rejection,
    _ErrorCapture,
    _Failure,
    _InteractionRecord,
    _Session,
    shard_of,
)
from tests.discord_fake.ratelimits import RateLimits
from tests.discord_fake.rest import _Rest
from tests.discord_fake.world import _World


class DiscordFake(_World, _Actions, _Gateway, _Messages, _Rest):
    """Plays Discord for one bot on 127.0.0.1; see the module docstring for what it does."""

    def __init__(
        self,
        *,
        members: Sequence[str] = ("alice", "bob", "carol"),
        moderators: Sequence[str] = ("mod",),
        guild_name: str = "Test Guild",
        channels: Sequence[str] = ("general", "games"),
        bot_name: str = "FakeBot",
        response_timeout: float = 3.0,
        followup_lifetime: float = 900.0,
        latency: float = 0.0,
        timeout: float = 60.0,
        heartbeat_interval: int = 45000,
        capture_loggers: Sequence[str] = ("discord",),
        privileged_intents: int = 0,
        rate_scale: float = 1.0,
    ) -> None:
        self.token = "fake-token"  # the bot's token: any other is refused, as Discord refuses a wrong one
        self.privileged_intents = privileged_intents  # those enabled in the developer portal (none by default)
        self.response_timeout = response_timeout
        self.followup_lifetime = followup_lifetime
        self.latency = latency
        self.timeout = timeout
        self.heartbeat_interval = heartbeat_interval
        self._capture_loggers = tuple(capture_loggers)
        self._last_id = 0
        self._back_ids = 0  # ids made in the past (`_snowflake(ago=...)`), numbered apart from the newest
        self.clock_ahead = 0.0  # seconds Discord's clock is ahead of the wall clock (`advance_clock`)

        self.application_id = self._snowflake()
        self.bot_user: dict[str, Any] = {
            "id": str(self.application_id),
            "username": bot_name,
            "discriminator": "1234",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "public_flags": 0,
            "flags": 0,
        }
        self.users: dict[str, dict[str, Any]] = {}
        self._users_by_id: dict[int, dict[str, Any]] = {self.application_id: self.bot_user}
        self._moderators = set(moderators)
        for name in ("owner", *members, *moderators):
            self.add_user(name)

        self.guilds: list[FakeGuild] = []
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.registered_commands: dict[int | None, list[dict[str, Any]]] = {}
        self._interactions: dict[int, _InteractionRecord] = {}
        self._interactions_by_token: dict[str, _InteractionRecord] = {}
        self.add_guild(guild_name, channels=channels)

        self.requests: list[RecordedRequest] = []
        self.limits = RateLimits(scale=rate_scale)  # Discord's rate limits; `rate_scale` shrinks the windows
        self.rate_limited: list[RecordedRequest] = []  # requests answered 429: the bot went over a limit
        self.locales: dict[int, str] = {}  # a user's client language (`set_locale`), else en-US
        self.other_names: set[str] = set()  # players a test stored without a Discord user (not English to read)
        self.strays: list[str] = []  # English a player read outside the catalog's marks (tests/discord_fake/heard.py)
        self.early_requests: list[RecordedRequest] = []  # made by an interaction's handler before its answer
        self.banned = False  # past Discord's 10,000 invalid requests in 10 minutes
        self._collecting: list[asyncio.Task[Any]] | None = None  # the handlers of the interaction being parsed
        self.unknown_requests: list[RecordedRequest] = []
        self.rejected: list[Rejection] = []
        self.errors: list[str] = []
        self._failures: list[_Failure] = []
        self._forbidden: set[int] = set()
        self._dms_closed: set[int] = set()  # users whose privacy settings refuse the bot's DMs
        self.gateway_received: list[dict[str, Any]] = []
        self.gateway_sent: list[dict[str, Any]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.identify_payload: dict[str, Any] | None = None
        self.command_overrides: dict[str, set[int]] = {}  # command name -> members allowed it past its defaults

        self._sessions: dict[int, _Session] = {}  # shard id -> its gateway session
        self._sessions_started = 0  # IDENTIFYs and RESUMEs, to wait for a reconnect
        self._gateway_down: set[int] = set()  # shards whose gateway answers nothing (`gateway_outage`)
        self._stalled: set[int] = set()  # shards whose heartbeats get no ACK (`stall`)
        self._unanswered: list[tuple[web.WebSocketResponse, dict[str, Any]]] = []  # IDENTIFY/RESUME held back
        self._send_lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._runner: web.AppRunner | None = None
        self._error_capture = _ErrorCapture(self)
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self._setup_routes()
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def serve(cls, **options: Any) -> AsyncIterator[DiscordFake]:
        """Start a fake, point discord.py at it, and on exit check for gaps (unknown routes, errors)."""
        fake = cls(**options)
        await fake.start()
        try:
            with fake.patched(), strays.marking():
                yield fake
        finally:
            await fake.close()
        fake.check()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("GET", "/cdn/{tail:.*}", self._cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        for name in self._capture_loggers:
            logging.getLogger(name).addHandler(self._error_capture)

    async def close(self) -> None:
        for name in self._capture_loggers:
            logging.getLogger(name).removeHandler(self._error_capture)
        for session in self._sessions.values():
            if session.ws is not None and not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def check(self) -> None:
        """Fail on requests the fake does not know (gaps to fill), on requests Discord would have refused
        (`rejected`, whether or not the bot noticed) and on errors the bot logged."""
        problems = []
        if self.unknown_requests:
            problems.append("unknown routes: " + ", ".join(f"{r.method} {r.path}" for r in self.unknown_requests))
        if self.rejected:
            problems.append("requests Discord would reject:\n" + "\n".join(str(r) for r in self.rejected))
        if self.errors:
            problems.append("errors logged while running:\n" + "\n".join(self.errors))
        if self.rate_limited:
            problems.append("requests answered 429 (over a rate limit): " + ", ".join(map(str, self.rate_limited)))
        if self.banned:
            problems.append(f"banned: {self.limits.invalid_count} invalid requests (401, 403, 429) in 10 minutes")
        if self.early_requests:
            problems.append(
                "requests made before the interaction that caused them was answered: "
                + ", ".join(f"{r.method} {r.path}" for r in self.early_requests)
            )
        if self.strays:
            problems += strays.found("DiscordFake", self.strays)
        if problems:
            raise AssertionError("DiscordFake: " + "\n".join(problems))

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        """Point discord.py's REST, webhook, gateway and CDN base URLs at the fake; restore them after.

        Also marks what each interaction causes: discord.py parses INTERACTION_CREATE and starts the
        handler's tasks inside `parse_interaction_create`, so a context variable set around it reaches
        every request the handler makes (tasks copy the context they start in), and the session adds it
        as `CAUSE_HEADER`."""
        saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE)
        parse, request = ConnectionState.parse_interaction_create, aiohttp.ClientSession._request

        def parse_interaction_create(state: ConnectionState, data: dict[str, Any]) -> None:
            record = self._interactions.get(int(data["id"]))
            token = _cause.set(int(data["id"]))
            self._collecting = record.handlers if record else None  # parsing is synchronous: only its tasks
            try:
                parse(state, data)
            finally:
                _cause.reset(token)
                self._collecting = None

        loop = asyncio.get_running_loop()
        factory = loop.get_task_factory()

        def handler_task(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Task[Any]:
            """Every task, and those discord.py starts to handle an interaction listed on its record."""
            task = factory(loop, coro, **options) if factory else asyncio.Task(coro, loop=loop, **options)
            if self._collecting is not None:
                self._collecting.append(task)
            return task  # type: ignore[return-value]

        def marked(session: aiohttp.ClientSession, method: str, url: Any, **kwargs: Any) -> Any:
            if cause := _cause.get():
                kwargs["headers"] = {**(kwargs.get("headers") or {}), CAUSE_HEADER: str(cause)}
            return request(session, method, url, **kwargs)

        Route.BASE = self.api_base
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        Asset.BASE = self.base_url + "/cdn"
        ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
        aiohttp.ClientSession._request = marked  # type: ignore[method-assign]
        loop.set_task_factory(handler_task)  # type: ignore[arg-type]
        try:
            yield
        finally:
            loop.set_task_factory(factory)
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE = saved
            ConnectionState.parse_interaction_create = parse  # type: ignore[method-assign]
            aiohttp.ClientSession._request = request  # type: ignore[method-assign]

    @contextlib.asynccontextmanager
    async def run(
        self, bot: discord.Client, *, token: str | None = None, guild_ready_timeout: float = 0.1
    ) -> AsyncIterator[discord.Client]:
        """Log ``bot`` in, connect it and wait until it is ready with every guild; close it on exit.

        discord.py waits ``guild_ready_timeout`` (2 s by default) after the last GUILD_CREATE before READY;
        the fake sends them all at once, so it is shortened (then the guilds are awaited explicitly).
        """
        bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, guild_ready_timeout)
        task: asyncio.Task[None] | None = None
        # A bot starting (again) knows nothing of the buckets an earlier one used: a real deploy takes longer
        # than their windows, so wait for them to be fresh rather than model an instant restart.
        await asyncio.sleep(self.limits.quiet_in(asyncio.get_running_loop().time()))
        try:
            await bot.login(token or self.token)
            task = asyncio.create_task(bot.connect(reconnect=True), name="discord-fake-bot")
            ready = asyncio.ensure_future(bot.wait_until_ready())
            try:
                done, _ = await asyncio.wait({ready, task}, timeout=self.timeout, return_when=asyncio.FIRST_COMPLETED)
            finally:
                ready.cancel()
            if task in done:
                task.result()  # raises what stopped the connection
                raise AssertionError("the bot stopped before it was ready")
            if not done:
                raise AssertionError(f"the bot was not ready within {self.timeout} s")
            count = bot.shard_count or 1
            served = set(getattr(bot, "shard_ids", None) or [bot.shard_id or 0])
            await self.wait_until(
                lambda: all(
                    (g := bot.get_guild(fg.id)) is not None and not g.unavailable
                    for fg in self.guilds
                    if shard_of(fg.id, count) in served
                ),
                what="the bot to see every guild of its shards",
            )
            yield bot
        finally:
            await bot.close()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(task, timeout=5)

    # --- waiting ---------------------------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _notify_threadsafe(self) -> None:
        if self._loop is None or threading.get_ident() == self._loop_thread:
            self._notify()
        else:
            self._loop.call_soon_threadsafe(self._notify)

    async def wait_until(
        self,
        condition: Callable[[], T | None],
        *,
        timeout: float | None = None,
        what: str = "the condition",
        record: _InteractionRecord | None = None,
    ) -> T:
        """Wait (real time) until ``condition()`` is truthy and return it; re-checked after every change.

        While waiting for an interaction's answer, an ERROR logged by the bot fails at once.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        while True:
            result = condition()
            if result:
                return result
            if record is not None and record.late is not None and record.callback is None:
                raise AssertionError(
                    f"the bot answered {record.label} {record.late:.2f} s after it was sent, past Discord's "
                    f"{self.response_timeout} s: it can no longer be answered (404 10062 Unknown interaction)"
                )
            if record is not None and len(self.errors) > record.errors_before:
                new = "\n".join(self.errors[record.errors_before :])
                raise AssertionError(f"the bot logged an error while handling {record.label}:\n{new}")
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}{self._diagnostics(record)}")
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.5))

    def _diagnostics(self, record: _InteractionRecord | None) -> str:
        lines = []
        if record is not None:
            lines.append(f"callback: {record.callback}")
            lines.append(f"original: {record.original!r}; followups: {record.followups}")
        lines.append("last requests: " + ", ".join(str(r) for r in self.requests[-8:]))
        if self.rejected:
            lines.append("rejected:\n" + "\n".join(str(r) for r in self.rejected))
        if self.errors:
            lines.append("errors:\n" + "\n".join(self.errors))
        return "\n" + "\n".join(lines)

    async def wait_for_message(
        self,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        channel: str | int | FakeChannel | None = None,
        after: int | FakeMessage | None = None,
        timeout: float | None = None,
    ) -> FakeMessage:
        """The first stored message (oldest first, including ones already there) that matches.

        Filter by ``channel``, by ``after`` (only messages newer than that id/message) and ``predicate``.
        """
        channel_id = self.channel(channel).id if channel is not None else None
        after_id = after.id if isinstance(after, FakeMessage) else (after or 0)

        def find() -> FakeMessage | None:
            for message in list(self.messages.values()):
                if message.deleted or message.id <= after_id:
                    continue
                if channel_id is not None and message.channel_id != channel_id:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        return await self.wait_until(find, timeout=timeout, what="a matching message")

    def last_message_id(self) -> int:
        """The newest id so far, to pass as ``after=`` when only later messages count."""
        return self._last_id
