"""What the fake stores and records: requests, rejections, guilds, channels, messages, attachments, the
interactions and the `Reply` a test waits on, the gateway sessions."""

from __future__ import annotations

import asyncio
import logging
import re
import struct
import zlib
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from tests import discord_api
from tests.discord_fake.constants import (
    CB_AUTOCOMPLETE,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    CONTEXT_GUILD,
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    PNG_SIGNATURE,
    THREAD_TYPES,
)
from tests.discord_fake.errors import _ApiError, _flatten_errors

if TYPE_CHECKING:
    from tests.discord_fake.fake import DiscordFake


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, read from its IHDR chunk (Discord reports them for images)."""
    if data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return None


def _tiny_png() -> bytes:
    """A valid 1x1 grey PNG, served for every CDN asset (avatars) so nothing reaches the real CDN."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\x80")) + chunk(b"IEND", b"")


def _walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first: action rows, sections (with accessory) and containers nest others."""
    return (component for _, component in discord_api.walk_components(components))


def _offered_in(command: dict[str, Any], context: int) -> bool:
    """Whether Discord offers a synced command in a context: its ``contexts``, else ``dm_permission``."""
    contexts = command.get("contexts")
    if contexts is not None:
        return context in contexts
    return context == CONTEXT_GUILD or command.get("dm_permission") is not False


@dataclass
class Upload:
    """A file received in a multipart request; ``field`` is the form name discord.py used (``files[0]``)."""

    field: str
    filename: str
    data: bytes
    content_type: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def index(self) -> int | None:
        match = re.fullmatch(r"files\[(\d+)\]", self.field)
        return int(match.group(1)) if match else None


@dataclass
class RecordedRequest:
    """One REST request as the fake received it (``path`` is relative to ``/api/v10``)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[Upload]
    status: int = 0
    error: dict[str, Any] | None = None  # Discord's error body when it failed
    at: float = 0.0  # event-loop time when it was handled (after the simulated latency)
    cause: int = 0  # the interaction whose handler made it (`CAUSE_HEADER`), 0 if none

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass
class Rejection:
    """A bot request the fake refused as Discord would, through the bot's fault (see `DiscordFake.rejected`)."""

    request: RecordedRequest
    status: int
    code: int
    message: str
    errors: dict[str, Any] | None = None

    @property
    def fields(self) -> list[str]:
        """Each failing field as ``path: message (CODE)``, from Discord's ``errors`` object."""
        return list(_flatten_errors(self.errors or {}))

    def __str__(self) -> str:
        where = f"{self.request.method} {self.request.path}"
        detail = "; ".join(self.fields)
        return f"{where} -> {self.status} {self.code} {self.message}" + (f": {detail}" if detail else "")


@dataclass
class Pings:
    """Who a message notifies, as Discord decides from its content and ``allowed_mentions``."""

    users: set[int] = field(default_factory=set)
    roles: set[int] = field(default_factory=set)
    everyone: bool = False  # @everyone or @here

    @property
    def unsafe(self) -> bool:
        """Pings beyond named users: @everyone, @here or a role."""
        return self.everyone or bool(self.roles)


@dataclass
class FakeAttachment:
    """An uploaded file as Discord stores it; ``data`` holds the bytes (open PNGs with Pillow)."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            body["description"] = self.description
        dimensions = _png_size(self.data)
        if dimensions:
            body["width"], body["height"] = dimensions
        return body


@dataclass
class FakeChannel:
    """A guild text channel, a thread (type 10/11/12, ``parent_id`` set) or a DM channel (type 1)."""

    id: int
    type: int
    name: str
    guild_id: int | None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    rate_limit_per_user: int = 0
    member_ids: set[int] = field(default_factory=set)
    recipients: list[dict[str, Any]] = field(default_factory=list)
    message_count: int = 0
    last_message_id: int | None = None
    created_at: str = field(default_factory=_now_iso)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == DM:
            return {"id": str(self.id), "type": DM, "recipients": self.recipients, "last_message_id": last, "flags": 0}
        body: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": last,
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
        }
        if self.is_thread:
            body.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=len(self.member_ids),
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            body.update(
                position=self.position,
                topic=self.topic,
                nsfw=False,
                permission_overwrites=[],
                default_auto_archive_duration=1440,
            )
        return body


@dataclass
class FakeGuild:
    """A guild: roles (@everyone has the guild's id), text channels and members keyed by user id."""

    id: int
    name: str
    owner_id: int
    roles: list[dict[str, Any]]
    channel_ids: list[int]
    members: dict[int, dict[str, Any]]
    joined_at: str = field(default_factory=_now_iso)
    left: set[int] = field(default_factory=set)  # users `remove_member` took out
    locale: str = "en-US"
    """The server's "Primary Language" (preferred_locale; interactions' guild_locale)."""

    def role(self, name: str) -> dict[str, Any]:
        for role in self.roles:
            if role["name"] == name:
                return role
        raise KeyError(f"no role {name!r} in guild {self.name!r}; roles: {[r['name'] for r in self.roles]}")


@dataclass
class FakeMessage:
    """A message as Discord stores it, current after edits (``components`` are the live ones)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    member: dict[str, Any] | None = None
    mentions: list[dict[str, Any]] = field(default_factory=list)  # the users it pings, as in Discord's payload
    allowed_mentions: dict[str, Any] | None = None  # as the bot sent it (None: absent, so everything pings)
    pings: Pings = field(default_factory=Pings)
    reactions: list[str] = field(default_factory=list)
    thread_id: int | None = None
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False

    @property
    def timestamp(self) -> str:
        return discord.utils.snowflake_time(self.id).isoformat()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred response the bot has not filled in yet."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def all_components(self) -> list[dict[str, Any]]:
        return list(_walk_components(self.components))

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components if "custom_id" in c]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any]:
        """The component with this custom_id (or button label); KeyError listing what is there if none."""
        for component in self.all_components:
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            if label is not None and component.get("label") == label:
                return component
        wanted = custom_id if custom_id is not None else f"label {label!r}"
        raise KeyError(f"message {self.id} has no component {wanted!r}; custom ids: {self.custom_ids}")

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.pings.everyone,
            "mentions": self.mentions,
            "mention_roles": [str(role) for role in sorted(self.pings.roles)],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            body["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            body["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            body["interaction_metadata"] = self.interaction_metadata
        if self.member is not None:
            body["member"] = self.member
        if self.reactions:
            body["reactions"] = [
                {"emoji": {"id": None, "name": e}, "count": 1, "me": True, "count_details": {"burst": 0, "normal": 1}}
                for e in self.reactions
            ]
        return body

    def __repr__(self) -> str:
        extra = " ephemeral" if self.ephemeral else ""
        extra += " loading" if self.loading else ""
        files = [a.filename for a in self.attachments]
        return f"<FakeMessage {self.id} in {self.channel_id}{extra} content={self.content!r} files={files}>"


@dataclass
class Callback:
    """What the bot answered to an interaction: the callback ``type`` (4..9) and its ``data``."""

    type: int
    data: dict[str, Any]
    files: list[Upload]

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)


@dataclass
class _Failure:
    """An error `DiscordFake.fail_next` arranged: the next ``remaining`` matching requests answer it."""

    method: str
    pattern: re.Pattern[str]
    error: _ApiError
    remaining: int


@dataclass
class _InteractionRecord:
    payload: dict[str, Any]
    label: str
    sent_at: float
    errors_before: int
    callback: Callback | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    activity: int = 0  # edits/followups/deletes after the callback (what a deferred update waits for)
    late: float | None = None  # seconds after the dispatch at which a refused (late) callback arrived
    handlers: list[asyncio.Task[Any]] = field(default_factory=list)  # the bot's tasks that handle it

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def token(self) -> str:
        return str(self.payload["token"])

    def done(self) -> bool:
        """Whether the bot has answered, deferrals included (see the module docstring)."""
        callback = self.callback
        if callback is None:
            return False
        if callback.type == CB_DEFERRED:
            original = self.original
            return original is None or original.deleted or not original.loading
        if callback.type == CB_DEFERRED_UPDATE:
            return self.activity > 0
        return True


class Reply:
    """The bot's answer to one interaction; the properties read live state, so later edits show up."""

    def __init__(self, fake: DiscordFake, record: _InteractionRecord) -> None:
        self._fake = fake
        self._record = record

    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload that was sent to the bot."""
        return self._record.payload

    @property
    def callback(self) -> Callback | None:
        return self._record.callback

    @property
    def type(self) -> int | None:
        return self._record.callback.type if self._record.callback else None

    @property
    def message(self) -> FakeMessage | None:
        """The original response: the new message (types 4, 5) or the component's message (types 6, 7)."""
        return self._record.original

    @property
    def ephemeral(self) -> bool:
        if self.message is not None:
            return self.message.ephemeral
        return bool(self.callback and self.callback.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        """The original response's content after any edit (a deferral is filled by its first followup)."""
        return self.message.content if self.message is not None else None

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message is not None else []

    @property
    def followups(self) -> list[FakeMessage]:
        """Messages posted through the followup webhook (the first one after a deferral is `message`)."""
        return list(self._record.followups)

    @property
    def files(self) -> list[FakeAttachment]:
        """Attachments of the original response and of every followup, in order."""
        seen: dict[int, FakeAttachment] = {}
        messages = [self.message, *self._record.followups] if self.message else self._record.followups
        for message in messages:
            for attachment in message.attachments:
                seen.setdefault(attachment.id, attachment)
        return list(seen.values())

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        if self.callback is None or self.callback.type != CB_AUTOCOMPLETE:
            return []
        return list(self.callback.data.get("choices", []))

    @property
    def done(self) -> bool:
        return self._record.done()

    async def wait(self, timeout: float | None = None) -> Reply:
        """Wait until the bot answered (callback, and the deferred work for deferrals), then until the bot's
        handler of the interaction has finished: an answer that carries a result (a move's board) reaches
        Discord before the bot is done with what follows it (recording that board, say)."""
        await self._fake.wait_until(
            self._record.done, timeout=timeout, what=f"the bot to answer {self._record.label}", record=self._record
        )
        if self._record.handlers:
            await asyncio.wait(self._record.handlers, timeout=timeout or self._fake.timeout)
        return self

    async def wait_callback(self, timeout: float | None = None) -> Callback:
        """Wait for the callback only (e.g. a bare ``defer()`` on a button, which edits nothing)."""
        await self._fake.wait_until(
            lambda: self._record.callback,
            timeout=timeout,
            what=f"a callback to {self._record.label}",
            record=self._record,
        )
        assert self._record.callback is not None
        return self._record.callback

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[FakeMessage]:
        """Wait until at least ``count`` followups were sent; returns them."""
        await self._fake.wait_until(
            lambda: len(self._record.followups) >= count,
            timeout=timeout,
            what=f"{count} followup(s) to {self._record.label}",
            record=self._record,
        )
        return self.followups

    def __repr__(self) -> str:
        files = [f.filename for f in self.files]
        return (
            f"<Reply to {self._record.label}: callback={self.type} ephemeral={self.ephemeral} "
            f"content={self.content!r} followups={len(self._record.followups)} files={files}>"
        )


class _ErrorCapture(logging.Handler):
    """Collects ERROR records (discord.py logs exceptions from commands, views and events this way)."""

    def __init__(self, fake: DiscordFake) -> None:
        super().__init__(logging.ERROR)
        self._fake = fake
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self._fake.errors.append(self.format(record))
        self._fake._notify_threadsafe()


Handler = Callable[..., Awaitable[Any]]


# ---------------------------------------------------------------------------------------------------
# The fake


GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Events whose guild is the payload's own `id` (the others carry `guild_id`)."""


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % count


@dataclass
class _Session:
    """One shard's gateway session: its socket (None while the bot is away), and the events it was sent, by
    sequence number, replayed on RESUME."""

    shard: int
    count: int
    id: str
    ws: web.WebSocketResponse | None
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)
