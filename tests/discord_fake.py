r"""A local fake of the Discord API, so tests can drive a real discord.py bot without a network.

How it works
------------
`DiscordFake` is an aiohttp server on 127.0.0.1 (a free port) that plays Discord for one bot:

* REST under ``/api/v10``: the routes a bot uses to log in, sync its command tree, answer interactions
  (callback, ``@original``, followups), post/edit/delete channel messages, create threads and look up
  guilds, members, roles and users. Every request is recorded (`RecordedRequest`: method, path, query,
  JSON body or the multipart ``payload_json``, the uploaded files with their bytes, and Discord's error
  body if it failed). Unknown routes answer 404 and are listed by `check()`.
* Rate limits as Discord's (tests/discord_fake_ratelimits.py): per-route buckets with their headers, 5
  messages per 5 s in a channel, the global 50 a second (interaction callbacks and webhooks exempt), 429s
  with ``retry_after``, and the invalid-request count that gets a bot banned. discord.py's own handling
  runs for real; `check()` fails on any 429. ``rate_scale`` shrinks every window (0.1: 5 posts per 0.5 s)
  to keep a test fast; nothing turns them off.
* Answer first: every request a handler of an interaction makes before that interaction's first answer
  is listed in ``early_requests`` and fails `check()` (the fake marks what each interaction causes, see
  `DiscordFake.patched`).
* A gateway websocket at ``/gateway`` speaking plain JSON text frames (discord.py asks for
  ``compress=zlib-stream`` but decodes text frames as they are): HELLO, HEARTBEAT_ACK, READY followed
  by one GUILD_CREATE per guild on IDENTIFY, RESUME with a replay of the events the bot missed,
  GUILD_MEMBERS_CHUNK for member requests, and dispatches (INTERACTION_CREATE, MESSAGE_*, THREAD_*,
  CHANNEL_*, GUILD_MEMBER_*), filtered by the bot's intents as Discord does.
* Outages: `gateway_outage(shard)` drops a shard's connection and leaves the bot's IDENTIFY or RESUME (and
  its heartbeats) unanswered until the block ends, so a test says how long Discord was away on its own
  fake clock; `stall(shard)` stops only the HEARTBEAT_ACKs (a zombie connection) until `unstall`.
* Shards: each IDENTIFY names its shard ``[id, count]`` (an id out of range is closed with 4010, as
  Discord does); a session gets READY and GUILD_CREATE for its own guilds only (``(guild_id >> 22) %
  count``), and every guild event, interactions included, goes to the session of the guild's shard (DMs
  to shard 0). One bot may run several shards, or several bots one each; `add_guild(shard=...)` puts a
  guild on a chosen shard.
* discord.py is pointed at the fake by patching class attributes while it runs (`DiscordFake.patched`):
  ``discord.http.Route.BASE`` (REST; the webhook adapter that sends interaction callbacks and followups
  imports the same ``Route`` class), ``DiscordWebSocket.DEFAULT_GATEWAY`` (discord.py 2.7's non-sharded
  ``Client.connect`` never asks ``/gateway/bot``, it dials this default) and ``Asset.BASE`` (avatars are
  served as a 1x1 PNG). ``/gateway/bot`` answers too, for ``AutoShardedClient``.

Tests act as users (`slash`, `autocomplete`, `click`, `select`, `say`), in a guild or, with ``dm=True``,
in the user's DM with the bot. An interaction returns a `Reply` that waits (real time, `timeout` seconds)
until the bot answered: the callback arrived and, for a deferral, the deferred message was filled in (or,
for a deferred update, something was edited or sent). Messages (`FakeMessage`), threads (`FakeChannel`)
and attachments (`FakeAttachment`, with bytes) live in memory and are current after edits. An ERROR
logged by discord.py (e.g. a command raised) or a late first answer fails the waiting `Reply` at once.

Strict as Discord
-----------------
Every request body is validated against Discord's own OpenAPI description of the route
(tests/discord_api: openapi.json, JSON Schema 2020-12) and against the documented limits the spec does
not state; a failure answers 400 50035 "Invalid Form Body" with Discord's ``errors`` object naming the
field (``components.0.components.0.label``). On top of the spec:

* commands (bulk and single sync): chat-input and option names ``^[-_'\w]{1,32}$`` and lowercase,
  descriptions 1-100, at most 25 options per level, required options first, unique names per level, at
  most 25 choices (names 1-100, string values 1-100), 100 chat-input commands, and 4,000 characters of
  name, description and choice texts per command (DESIGN.md's figure; Discord raised it to 8,000 in
  2024, so a bot within the fake is within both);
* messages (create, edit, interaction callbacks, followups, webhook edits): content 2,000, at most 10
  attachments (alt text 1,024) of 10 MiB, 5 action rows of 1-5 buttons or one select alone, button
  labels 80, custom ids 1-100 and unique, selects with 1-25 options (label/value/description 100),
  placeholders 150, min/max values 0-25 and not more than the options, no empty messages;
* ``allowed_mentions``: ``parse: ["users"]`` together with a ``users`` list (or roles) is a 400;
* autocomplete answers: at most 25 choices, names and string values 1-100; thread names 1-100;
* interactions: the first answer within ``response_timeout`` (3 s) from the dispatch to the callback's
  arrival, simulated ``latency`` included, else 404 10062; answered once (40060); callback types that fit
  the interaction; the token lives ``followup_lifetime`` (15 min), then 401 50027 for followups and
  ``@original``; the first followup after a deferral fills the deferred message and keeps its ephemeral
  flag (unless the bot deleted it); channel routes cannot see ephemeral messages; only the bot's own
  messages can be edited; messages in archived threads cannot be edited (50083);
* users can only run commands Discord would offer them: synced to their guild or globally (in DMs: global
  ones whose ``contexts`` include 1, or without ``contexts`` whose ``dm_permission`` is not false; a
  ``force=True`` stale client gets any), with their ``default_member_permissions``, registered options
  (typed, required, choices, min/max), components that are on the message and enabled, and private
  threads they were added to (or Manage Threads); DMs are their recipient's;
* intents: GUILD_CREATE carries every member only with the members intent (otherwise just the bot),
  message events need the messages intents, other users' message content the message-content intent.

Every request refused through the bot's fault is recorded in ``fake.rejected`` (`Rejection`: the
request, status, code and failing fields), whether or not the bot noticed (discord.py raises, but a bot
may swallow it), and `check()`, run when `serve()` exits, fails the test on them, on unknown routes and on
logged errors. A test that expects a rejection takes it off: ``fake.rejected.clear()`` (likewise
``fake.errors`` / ``fake.unknown_requests``). Failures a test arranges are answered but not recorded.

Failures and changes on demand
------------------------------
`fail_next` (any status for matching requests; mind discord.py's 5xx retries), `forbid`/`allow` (the
bot's Send Messages in a channel: 403 50013), `lock_thread` (400 50083 while archived, 160005 once
unarchived), `archive` (a post unarchives, an edit is refused), `delete_channel` (404 10003 on every
route), `remove_member` (404 10007, GUILD_MEMBER_REMOVE), `close_dms`/`open_dms` (a user who allows no DMs
from the server's members: the bot's DM to them answers 403 50007), `set_nick`, ``add_user(global_name=...)``
and `age_interactions` (make interactions older, e.g. to expire their tokens); `advance_clock` moves Discord's
clock (new ids and timestamps) ahead, in step with a bot running on a fake clock.

Pings: each `FakeMessage` records ``allowed_mentions`` as sent and ``pings`` (`Pings`: users, roles,
everyone) as Discord decides them from the content when the message is created (an edit notifies
nobody, even the followup that fills a deferred "thinking…" message); ``mentions`` and the private-thread
rule (pinged users are added) follow them. `pinged` lists the messages that notified a user, `unsafe_pings` the
bot's messages that pinged @everyone, @here or a role.

Not supported: modals (callback type 9 is recorded, but there is no submit helper), context-menu
commands, group DMs, forum/voice/stage channels, permission overwrites (but `forbid`), reactions beyond
recording them, polls, pins, stickers, presences, voice, audit logs, and webhooks other than interaction
webhooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import http
import json
import logging
import mimetypes
import re
import socket
import struct
import threading
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from urllib.parse import unquote

import aiohttp
import discord
import yarl
from aiohttp import web
from discord.asset import Asset
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.state import ConnectionState

from tests import discord_api
from tests.discord_api import InvalidForm
from tests.discord_fake_ratelimits import RateLimits, Verdict

T = TypeVar("T")

API_VERSION = 10
API_PREFIX = f"/api/v{API_VERSION}"

CAUSE_HEADER = "X-Fake-Interaction"
"""Added by the patched aiohttp session to every request a handler of an interaction makes (the fake's
own bookkeeping, never sent by a real client): which interaction caused it, so `check()` can fail on a
request made before that interaction's first answer."""
_cause: contextvars.ContextVar[int] = contextvars.ContextVar("discord_fake_cause", default=0)

# Gateway intents (bit values from the Discord docs) that decide which events the fake dispatches.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_GUILD_PRESENCES = 1 << 8
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
SETTABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2

# Channel types.
TEXT, DM, NEWS = 0, 1, 5
NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = (NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

# Interaction contexts (where a command was run).
CONTEXT_GUILD, CONTEXT_BOT_DM = 0, 1

# Interaction types and callback types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED, CB_MODAL},
    MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
    AUTOCOMPLETE: {CB_AUTOCOMPLETE},
    MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE},
}

MAX_FILE_SIZE = 10 * 1024 * 1024
ALL_PERMISSIONS = discord.Permissions.all().value
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
).value
MODERATOR_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(manage_guild=True, manage_messages=True).value
# The bot's role has what README.md asks for at invite time, no more: no Manage Threads (so a locked thread
# is closed to it) and no Mention Everyone (pings are recorded as if it had it, see `Pings`).
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    attach_files=True,
    embed_links=True,
    read_message_history=True,
).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
# What the app may do in its DM with a user (app_permissions of a DM interaction, per the docs).
DM_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    add_reactions=True,
    attach_files=True,
    embed_links=True,
    mention_everyone=True,
    use_external_emojis=True,
).value
APPLICATION_FLAGS = 1 << 23  # APPLICATION_COMMAND_BADGE

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE_MENTION = re.compile(r"@(everyone|here)\b")


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


def _json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """JSON with exactly ``Content-Type: application/json``: discord.py parses nothing else (no charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json", headers=headers)


class _ApiError(Exception):
    """An error answered the way Discord does: ``{"message", "code", "errors"}`` with an HTTP status.

    ``expected`` marks failures a test arranged (`fail_next`, `forbid`, `lock_thread`, `delete_channel`,
    `remove_member`): they are answered but not counted against the bot in `DiscordFake.rejected`.
    """

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None, *, expected: bool = False
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.expected = expected

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def invalid_form(cls, error: InvalidForm) -> _ApiError:
        return cls(400, 50035, "Invalid Form Body", error.errors())


def _invalid_form(path: str, message: str, code: str = "BASE_TYPE_INVALID") -> _ApiError:
    """A 50035 error at a dotted field path (``data.choices.0.name``), nested as Discord nests it."""
    parts = tuple(int(part) if part.isdigit() else part for part in path.split(".") if part)
    return _ApiError.invalid_form(InvalidForm(parts, code, message))


def _flatten_errors(errors: dict[str, Any], path: str = "") -> Iterator[str]:
    """``components.0.label: Must be 80 or fewer in length.`` lines from Discord's nested ``errors``."""
    for key, value in errors.items():
        if key == "_errors":
            for error in value:
                yield f"{path or '<body>'}: {error.get('message')} ({error.get('code')})"
        elif isinstance(value, dict):
            yield from _flatten_errors(value, f"{path}.{key}" if path else key)


# ---------------------------------------------------------------------------------------------------
# Recorded and stored objects


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


class DiscordFake:
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
        timeout: float = 10.0,
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
            with fake.patched():
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

    # --- people and places -----------------------------------------------------------------------

    def _snowflake(self) -> int:
        """Ids encode the current time like Discord's (so ``created_at`` works) and always increase."""
        now = datetime.now(UTC) + timedelta(seconds=self.clock_ahead)
        self._last_id = max(discord.utils.time_snowflake(now), self._last_id + 1)
        return self._last_id

    def advance_clock(self, seconds: float) -> None:
        """Discord's clock runs ``seconds`` further ahead of the wall clock from now on: the ids made next, and
        so the timestamps of new messages and interactions, carry the later time. A test that moves the bot's
        fake clock (`GameBot.time`) by days moves Discord's with it, so a board posted after that is dated then."""
        if seconds < 0:
            raise ValueError("Discord's clock only goes forward (ids always increase)")
        self.clock_ahead += seconds

    def add_user(self, name: str, *, global_name: str | None = None) -> dict[str, Any]:
        """A user known to the fake (and a member of guilds added afterwards).

        ``global_name`` is the display name (default: the name in title case), at most 32 characters.
        """
        global_name = name.title() if global_name is None else global_name
        if not 1 <= len(global_name) <= 32:
            raise ValueError(f"a display name has 1 to 32 characters, got {len(global_name)}")
        user: dict[str, Any] = {
            "id": str(self._snowflake()),
            "username": name,
            "discriminator": "0",
            "global_name": global_name,
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        self.users[name] = user
        self._users_by_id[int(user["id"])] = user
        return user

    def user(self, name: str) -> dict[str, Any]:
        """A user payload by name (``alice``, ``bob``, ``carol``, ``mod``, ``owner`` by default)."""
        try:
            return self.users[name]
        except KeyError:
            raise KeyError(f"no user {name!r}; users: {sorted(self.users)}") from None

    def add_guild(
        self, name: str, *, channels: Sequence[str] = ("general",), shard: tuple[int, int] | None = None
    ) -> FakeGuild:
        """A guild with @everyone, Moderator (Manage Server) and bot roles, text channels and all users;
        `shard` (id, count): an id that puts it on that shard."""
        guild_id = self._snowflake()
        while shard is not None and shard_of(guild_id, shard[1]) != shard[0]:
            self._last_id = guild_id = guild_id + (1 << 22)  # a millisecond later

        def role(role_id: int, role_name: str, permissions: int, position: int, **extra: Any) -> dict[str, Any]:
            return {
                "id": str(role_id),
                "name": role_name,
                "permissions": str(permissions),
                "position": position,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "icon": None,
                "unicode_emoji": None,
                "flags": 0,
                **extra,
            }

        moderator = role(self._snowflake(), "Moderator", MODERATOR_PERMISSIONS, 1)
        bot_role = role(self._snowflake(), self.bot_user["username"], BOT_PERMISSIONS, 2, managed=True)
        bot_role["tags"] = {"bot_id": str(self.application_id)}
        guild = FakeGuild(
            id=guild_id,
            name=name,
            owner_id=int(self.users["owner"]["id"]),
            roles=[role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0), moderator, bot_role],
            channel_ids=[],
            members={},
        )
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(
                id=self._snowflake(), type=TEXT, name=channel_name, guild_id=guild_id, position=position
            )
            self.channels[channel.id] = channel
            guild.channel_ids.append(channel.id)
        for user_name, user in self.users.items():
            roles = [moderator["id"]] if user_name in self._moderators else []
            guild.members[int(user["id"])] = self._new_member(user, roles)
        guild.members[self.application_id] = self._new_member(self.bot_user, [bot_role["id"]])
        self.guilds.append(guild)
        return guild

    @staticmethod
    def _new_member(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
        return {
            "user": user,
            "roles": roles,
            "nick": None,
            "avatar": None,
            "joined_at": _now_iso(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }

    @property
    def guild(self) -> FakeGuild:
        """The first (default) guild."""
        return self.guilds[0]

    def _guild(self, guild_id: int | str | None) -> FakeGuild:
        for guild in self.guilds:
            if guild.id == int(guild_id or 0):
                return guild
        raise _ApiError(404, 10004, "Unknown Guild")

    def member(self, user: str | dict[str, Any], guild: FakeGuild | None = None) -> dict[str, Any]:
        """A member payload (with ``user``) of the default guild."""
        guild = guild or self.guild
        return guild.members[self._user_id(user)]

    def _user_id(self, user: str | int | dict[str, Any]) -> int:
        if isinstance(user, dict):
            return int(user["id"])
        if isinstance(user, int):
            return user
        return int(self.user(user)["id"])

    def channel(self, channel: str | int | FakeChannel | None = None) -> FakeChannel:
        """A channel or thread by name or id (the default guild's first text channel when None)."""
        if isinstance(channel, FakeChannel):
            return channel
        if channel is None:
            return self.channels[self.guild.channel_ids[0]]
        for candidate in self.channels.values():
            if not candidate.deleted and (candidate.id == channel or candidate.name == channel):
                return candidate
        names = [c.name for c in self.channels.values() if not c.deleted]
        raise KeyError(f"no channel {channel!r}; channels: {names}")

    @property
    def threads(self) -> list[FakeChannel]:
        """Threads in creation order (deleted ones left out)."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def thread(self, name: str) -> FakeChannel:
        for candidate in self.threads:
            if candidate.name == name:
                return candidate
        raise KeyError(f"no thread {name!r}; threads: {[t.name for t in self.threads]}")

    def channel_messages(
        self, channel: str | int | FakeChannel, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel or thread, oldest first, without deleted (and ephemeral) ones."""
        channel_id = self.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced: global ones (``guild=None``) or a guild's."""
        key = guild.id if isinstance(guild, FakeGuild) else guild
        return list(self.registered_commands.get(key, []))

    def requests_to(self, method: str, path_pattern: str) -> list[RecordedRequest]:
        """Recorded requests whose path matches the regular expression (``re.search``)."""
        return [r for r in self.requests if r.method == method and re.search(path_pattern, r.path)]

    def dm_channel(self, user: str | int | dict[str, Any]) -> FakeChannel:
        """The DM channel between ``user`` and the bot (type 1), opened on first use as Discord does."""
        user_id = self._user_id(user)
        for place in self.channels.values():
            if place.type == DM and int(place.recipients[0]["id"]) == user_id:
                return place
        recipient = self._users_by_id[user_id]
        place = FakeChannel(
            id=self._snowflake(), type=DM, name=f"dm-{recipient['username']}", guild_id=None, recipients=[recipient]
        )
        self.channels[place.id] = place
        return place

    def pinged(self, user: str | int | dict[str, Any]) -> list[FakeMessage]:
        """Messages that notified ``user``, oldest first (deleted ones too: the notification went out)."""
        user_id = self._user_id(user)
        return [m for m in self.messages.values() if user_id in m.pings.users]

    def unsafe_pings(self) -> list[FakeMessage]:
        """The bot's messages that pinged @everyone, @here or a role (DESIGN.md: never)."""
        return [m for m in self.messages.values() if m.pings.unsafe and int(m.author["id"]) == self.application_id]

    # --- failures and changes a test arranges ----------------------------------------------------

    def fail_next(
        self,
        method: str,
        path_pattern: str,
        status: int,
        code: int | None = None,
        message: str | None = None,
        count: int = 1,
    ) -> None:
        """The next ``count`` ``method`` requests whose path (relative to /api/v10) matches ``path_pattern``
        (``re.search``) answer ``status`` with Discord's JSON error body, before any other check.

        Defaults by status: 403 -> 50013 "Missing Permissions", 404 -> 10003 "Unknown Channel", 5xx -> 0
        "Internal Server Error". Mind discord.py's retries: its REST client retries 500, 502, 504 and 524
        (sleeping 1, 3, 5, 7 s; 5 tries) and raises 503 at once, while its webhook client (interaction
        callbacks, followups, ``@original``) retries every 5xx, 503 included. Rate limits (429) are not modelled.
        """
        if status == 429:
            raise ValueError("the fake does not model rate limits (discord.py would wait for retry_after)")
        defaults = {403: (50013, "Missing Permissions"), 404: (10003, "Unknown Channel")}
        phrase = "Internal Server Error" if status >= 500 else http.HTTPStatus(status).phrase
        default_code, default_message = defaults.get(status, (0, phrase))
        error = _ApiError(status, default_code if code is None else code, message or default_message, expected=True)
        self._failures.append(_Failure(method.upper(), re.compile(path_pattern), error, count))

    def forbid(self, channel: str | int | FakeChannel) -> None:
        """Take Send Messages away from the bot in ``channel`` (a moderator's overwrite) until `allow`.

        Posting a message or creating a thread there answers 403 50013 Missing Permissions, and interactions
        there carry ``app_permissions`` without it. Interaction responses still work: they go through the
        interaction's webhook, which channel permissions do not govern.
        """
        self._forbidden.add(self.channel(channel).id)

    def allow(self, channel: str | int | FakeChannel) -> None:
        """Give back what `forbid` took."""
        self._forbidden.discard(self.channel(channel).id)

    def close_dms(self, user: str | int | dict[str, Any]) -> None:
        """The user turns off "Allow direct messages from server members" (or blocks the bot) until `open_dms`.

        Opening the DM channel still works, as on Discord; posting in it answers 403 50007 "Cannot send
        messages to this user".
        """
        self._dms_closed.add(self._user_id(user))

    def open_dms(self, user: str | int | dict[str, Any]) -> None:
        """Give back what `close_dms` took."""
        self._dms_closed.discard(self._user_id(user))

    async def lock_thread(self, thread: str | int | FakeChannel) -> None:
        """Lock and archive a thread as a moderator does (THREAD_UPDATE dispatched).

        The bot has no Manage Threads, so it can no longer post there: Discord answers 400 50083 "Thread is
        archived" for a locked and archived thread (what its API returns; see discord/discord-api-docs
        issues 5517 and 6884), and 400 160005 "Thread is locked" once the bot has unarchived it (it may, as
        the thread's creator, by PATCHing ``archived: false``). Editing its messages there answers 50083.
        """
        place = self._thread(thread)
        place.locked = place.archived = True
        await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    async def archive(self, thread: str | int | FakeChannel) -> None:
        """Archive a thread as Discord does after inactivity (THREAD_UPDATE dispatched).

        The bot posting a message there unarchives it; editing a message there answers 400 50083 "Thread is
        archived" (the bot should unarchive first), which counts as a rejection.
        """
        place = self._thread(thread)
        place.archived = True
        await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    async def delete_channel(self, channel: str | int | FakeChannel) -> None:
        """Delete a channel or thread as a moderator does (CHANNEL_DELETE / THREAD_DELETE dispatched).

        Every route on it, its messages included, then answers 404 10003 Unknown Channel. A channel's
        threads go with it.
        """
        await self._remove_channel(self.channel(channel))

    async def remove_member(self, user: str | int | dict[str, Any], guild: FakeGuild | None = None) -> None:
        """The user left the server: GUILD_MEMBER_REMOVE (with the members intent), GET member answers 404
        10007 Unknown Member, and they are gone from its threads."""
        guild = guild or self.guild
        user_id = self._user_id(user)
        member = guild.members.pop(user_id, None)
        if member is None:
            raise ValueError(f"{user!r} is not a member of {guild.name!r}")
        guild.left.add(user_id)
        for thread in self.threads:
            if thread.guild_id == guild.id:
                thread.member_ids.discard(user_id)
        data = {"guild_id": str(guild.id), "user": member["user"]}
        await self._dispatch("GUILD_MEMBER_REMOVE", data, intent=INTENT_GUILD_MEMBERS)

    async def set_nick(
        self, user: str | int | dict[str, Any], nick: str | None, guild: FakeGuild | None = None
    ) -> None:
        """Set a member's server nickname (None clears it): interactions carry it in ``member.nick``, so
        discord.py's ``Member.display_name`` returns it; GUILD_MEMBER_UPDATE goes out with the members intent."""
        if nick is not None and not 1 <= len(nick) <= 32:
            raise ValueError(f"a nickname has 1 to 32 characters, got {len(nick)}")
        guild = guild or self.guild
        member = self.member(user, guild)
        member["nick"] = nick
        data = dict(member, guild_id=str(guild.id))
        await self._dispatch("GUILD_MEMBER_UPDATE", data, intent=INTENT_GUILD_MEMBERS)

    def age_interactions(self, seconds: float) -> None:
        """Make every interaction so far ``seconds`` older: 3 to miss the first answer, 900 to expire tokens."""
        for record in self._interactions.values():
            record.sent_at -= seconds

    def _thread(self, thread: str | int | FakeChannel) -> FakeChannel:
        place = self.channel(thread)
        if not place.is_thread:
            raise TypeError(f"{place.name!r} is not a thread")
        return place

    # --- permissions -----------------------------------------------------------------------------

    def allow_command(self, name: str, user: str) -> None:
        """What a server admin does in Server Settings → Integrations: let `user` use the top-level command
        `name` although they lack its default_member_permissions."""
        self.command_overrides.setdefault(name, set()).add(self._user_id(user))

    def permissions(self, user: str | int | dict[str, Any], guild: FakeGuild | None = None) -> int:
        """Guild-level permissions (no channel overwrites in the fake); owners and admins get all."""
        guild = guild or self.guild
        user_id = self._user_id(user)
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        if member is None:
            return 0
        value = int(guild.roles[0]["permissions"])
        for role in guild.roles:
            if role["id"] in member["roles"]:
                value |= int(role["permissions"])
        if value & discord.Permissions(administrator=True).value:
            return ALL_PERMISSIONS
        return value

    def _check_can_see(self, user_id: int, channel: FakeChannel) -> None:
        """A DM is its recipient's; private threads are visible to their members and to Manage Threads."""
        if channel.type == DM:
            if int(channel.recipients[0]["id"]) != user_id:
                raise PermissionError(f"{channel.name!r} is another user's DM with the bot")
            return
        if channel.type != PRIVATE_THREAD or user_id in channel.member_ids:
            return
        guild = self._guild(channel.guild_id)
        if not self.permissions(user_id, guild) & discord.Permissions(manage_threads=True).value:
            name = self._users_by_id[user_id]["username"]
            raise PermissionError(f"{name} cannot see private thread {channel.name!r} (not added to it)")

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

    # --- acting as users -------------------------------------------------------------------------

    async def slash(
        self,
        user: str | dict[str, Any],
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel: str | int | FakeChannel | None = None,
        dm: bool = False,
        force: bool = False,
        wait: bool = True,
        locale: str = "en-US",
    ) -> Reply:
        """Run ``/command`` (1-3 words: command, group, subcommand) as ``user``; returns the `Reply`.

        Option values are typed from the synced command: str, int, float, bool; users (name, payload or
        id) for user/mentionable options, channels (name, id, FakeChannel) and roles (name) likewise, and
        ``(filename, bytes)`` for attachments. With ``wait=False`` it returns once the payload is sent.
        ``dm=True`` runs it in the user's DM with the bot. Only commands Discord would offer there can be
        run (a LookupError or PermissionError says why not) unless ``force=True``, a stale client.
        """
        place = self._interaction_place(user, channel, dm)
        data = self._command_data(user, place, command, dict(options or {}), focused=None, force=force)
        return await self._interact(
            APPLICATION_COMMAND, user, place, data, label=f"/{command}", wait=wait, locale=locale
        )

    async def autocomplete(
        self,
        user: str | dict[str, Any],
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str | None = None,
        channel: str | int | FakeChannel | None = None,
        dm: bool = False,
        force: bool = False,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (default: the last option given); returns the bot's choices."""
        options = dict(options or {})
        if focused is None:
            if not options:
                raise ValueError("autocomplete needs at least the focused option's text")
            focused = list(options)[-1]
        options.setdefault(focused, "")
        place = self._interaction_place(user, channel, dm)
        data = self._command_data(user, place, command, options, focused=focused, force=force)
        reply = await self._interact(AUTOCOMPLETE, user, place, data, label=f"autocomplete /{command} {focused}")
        return reply.choices

    async def click(
        self,
        user: str | dict[str, Any],
        message: FakeMessage | Reply | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        dm: bool = False,
        wait: bool = True,
    ) -> Reply:
        """Press the button with ``custom_id`` (or ``label``) on ``message``, as ``user``.

        A bare ``defer()`` (type 6) that edits nothing never counts as done: pass ``wait=False`` and
        ``await reply.wait_callback()`` for that. A message in a DM channel makes a DM interaction
        (``dm=True`` only asserts that it is one).
        """
        stored = self._component_message(user, message, dm)
        component = stored.component(custom_id, label=label)
        if component.get("type") != 2:
            raise TypeError(f"component {component.get('custom_id')!r} is not a button: {component}")
        if component.get("disabled"):
            raise ValueError(f"button {component.get('custom_id')!r} is disabled")
        if "custom_id" not in component:
            raise ValueError(f"button {component.get('label')!r} is a link/premium button without custom_id")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        return await self._component_interaction(user, stored, data, f"click {component['custom_id']!r}", wait)

    async def select(
        self,
        user: str | dict[str, Any],
        message: FakeMessage | Reply | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        dm: bool = False,
        wait: bool = True,
    ) -> Reply:
        """Choose ``values`` in a select menu: option values for string selects, users/roles/channels else."""
        stored = self._component_message(user, message, dm)
        component = stored.component(custom_id)
        kind = component.get("type")
        if kind not in (3, 5, 6, 7, 8):
            raise TypeError(f"component {custom_id!r} is not a select menu: {component}")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        guild_id = self.channel(stored.channel_id).guild_id
        guild = self._guild(guild_id) if guild_id is not None else None
        if kind == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise ValueError(f"select {custom_id!r} has no options {unknown}; options: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, Any] = {}
            ids = []
            for value in values:
                resolved_type = {5: 6, 6: 8, 7: 9, 8: 7}[kind]
                ids.append(self._resolve_value(resolved_type, value, resolved, guild))
            data["values"] = ids
            data["resolved"] = resolved
        return await self._component_interaction(user, stored, data, f"select {custom_id!r}", wait)

    async def say(
        self, user: str | dict[str, Any], content: str, *, channel: str | int | FakeChannel | None = None
    ) -> FakeMessage:
        """Post a plain message as ``user`` (dispatched as MESSAGE_CREATE, content only with the intent)."""
        place = self.channel(channel)
        author = self._users_by_id[self._user_id(user)]
        member = None
        if place.guild_id is not None:
            member = {k: v for k, v in self.member(author, self._guild(place.guild_id)).items() if k != "user"}
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=place.id,
            guild_id=place.guild_id,
            author=author,
            content=content,
            member=member,
        )
        self._set_mentions(message, None)
        self._store_message(message, place)
        await self._emit_message("MESSAGE_CREATE", message)
        return message

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

    def _interaction_place(
        self, user: str | dict[str, Any], channel: str | int | FakeChannel | None, dm: bool
    ) -> FakeChannel:
        if not dm:
            return self.channel(channel)
        if channel is not None:
            raise ValueError("dm=True runs in the user's DM with the bot: leave out channel")
        return self.dm_channel(user)

    def _component_message(
        self, user: str | dict[str, Any], message: FakeMessage | Reply | int, dm: bool = False
    ) -> FakeMessage:
        if isinstance(message, Reply):
            if message.message is None:
                raise ValueError(f"{message!r} has no message to click on")
            message = message.message
        message_id = message.id if isinstance(message, FakeMessage) else int(message)
        stored = self.messages.get(message_id)
        if stored is None or stored.deleted:
            raise KeyError(f"message {message_id} does not exist (or was deleted)")
        place = self.channel(stored.channel_id)
        if dm and place.type != DM:
            raise ValueError(f"message {message_id} is in {place.name!r}, not in a DM")
        self._check_can_see(self._user_id(user), place)
        return stored

    async def _component_interaction(
        self, user: str | dict[str, Any], message: FakeMessage, data: dict[str, Any], label: str, wait: bool
    ) -> Reply:
        place = self.channel(message.channel_id)
        return await self._interact(MESSAGE_COMPONENT, user, place, data, label=label, wait=wait, message=message)

    def _app_permissions(self, place: FakeChannel) -> int:
        """The bot's permissions in a channel: its roles', less what `forbid` took there."""
        if place.guild_id is None:
            return DM_PERMISSIONS
        value = self.permissions(self.application_id, self._guild(place.guild_id))
        if place.id in self._forbidden:
            taken = discord.Permissions(
                send_messages=True,
                send_messages_in_threads=True,
                create_public_threads=True,
                create_private_threads=True,
            )
            value &= ~taken.value
        return value

    async def _interact(
        self,
        kind: int,
        user: str | dict[str, Any],
        place: FakeChannel,
        data: dict[str, Any],
        *,
        label: str,
        wait: bool = True,
        message: FakeMessage | None = None,
        locale: str = "en-US",
    ) -> Reply:
        """Dispatch INTERACTION_CREATE as Discord builds it: with ``member`` in a guild, ``user`` in a DM."""
        session = self._session_for(place.guild_id)
        if session is None or session.ws is None:
            raise RuntimeError(
                "no bot is connected to the fake gateway for this guild's shard (use `async with fake.run(bot)`)"
            )
        user_id = self._user_id(user)
        interaction_id = self._snowflake()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(place.id),
            "token": f"fake-interaction-token-{interaction_id}",
            "version": 1,
            "app_permissions": str(self._app_permissions(place)),
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": MAX_FILE_SIZE,
        }
        if place.guild_id is None:
            self._check_can_see(user_id, place)
            payload.update(
                channel=dict(place.payload(), permissions=str(DM_PERMISSIONS)),
                user=self._users_by_id[user_id],
                authorizing_integration_owners={"0": "0"},  # "0": from the DM with the app's bot user
                context=CONTEXT_BOT_DM,
            )
        else:
            guild = self._guild(place.guild_id)
            if user_id not in guild.members:
                raise ValueError(f"{user!r} is not a member of {guild.name!r}")
            self._check_can_see(user_id, place)
            member = dict(guild.members[user_id], permissions=str(self.permissions(user_id, guild)))
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                channel=dict(place.payload(), permissions=member["permissions"]),
                member=member,
                guild_locale="en-US",
                authorizing_integration_owners={"0": str(guild.id)},
                context=CONTEXT_GUILD,
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
        loop = asyncio.get_running_loop()
        record = _InteractionRecord(payload=payload, label=label, sent_at=loop.time(), errors_before=len(self.errors))
        self._interactions[interaction_id] = record
        self._interactions_by_token[record.token] = record
        await self._dispatch("INTERACTION_CREATE", payload)
        reply = Reply(self, record)
        if wait:
            await reply.wait()
        return reply

    # --- slash command payloads ------------------------------------------------------------------

    def _find_command(self, name: str, guild: FakeGuild | None, *, force: bool = False) -> tuple[dict[str, Any], bool]:
        """The synced chat-input command as the client offers it: in a guild the guild's, then the global
        ones; in a DM only global ones (``force``: any, the first guild's too). Returns (command, is_guild)."""

        def lookup(scope: int | None) -> dict[str, Any] | None:
            commands = self.registered_commands.get(scope, [])
            return next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)

        context = CONTEXT_GUILD if guild is not None else CONTEXT_BOT_DM
        scopes = [guild.id, None] if guild is not None else [None]
        if force and guild is None and self.guilds:
            scopes.append(self.guild.id)
        for scope in scopes:
            command = lookup(scope)
            if command is None:
                continue
            if not force and scope is None and not _offered_in(command, context):  # contexts govern global ones
                where = "in DMs" if guild is None else f"in {guild.name!r}"
                raise PermissionError(
                    f"Discord would not offer /{name} {where}: contexts={command.get('contexts')}, "
                    f"dm_permission={command.get('dm_permission')} (force=True models a stale client)"
                )
            return command, scope is not None
        known = sorted({c["name"] for cs in self.registered_commands.values() for c in cs})
        if guild is None and any(lookup(g.id) for g in self.guilds):
            raise LookupError(
                f"Discord would not offer /{name} in DMs: it is a guild command, and DMs only offer global ones "
                "(force=True models a stale client)"
            )
        where = f"in {guild.name!r} or globally" if guild is not None else "globally"
        raise LookupError(f"/{name} is not registered {where} (did the bot sync?); known: {known}")

    def _command_data(
        self,
        user: str | dict[str, Any],
        place: FakeChannel,
        path: str,
        options: dict[str, Any],
        *,
        focused: str | None,
        force: bool = False,
    ) -> dict[str, Any]:
        words = path.strip().lstrip("/").split()
        if not 1 <= len(words) <= 3:
            raise ValueError(f"a command path has 1 to 3 words, got {path!r}")
        guild = self._guild(place.guild_id) if place.guild_id is not None else None
        command, is_guild_command = self._find_command(words[0], guild, force=force)
        user_id = self._user_id(user)
        # default_member_permissions govern guilds only (in DMs there are no members); "0": administrators only
        raw = command.get("default_member_permissions") if guild is not None else None
        if user_id in self.command_overrides.get(words[0], set()):
            raw = None  # a server admin allowed this member the command (Server Settings → Integrations)
        if guild is not None and raw is not None:
            required, held = int(raw), self.permissions(user_id, guild)
            if held != ALL_PERMISSIONS and (required == 0 or held & required != required):
                missing = [name for name, on in discord.Permissions(required) if on] or ["administrator"]
                username = self._users_by_id[user_id]["username"]
                raise PermissionError(f"{username} cannot use /{words[0]}: needs {missing}")
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if is_guild_command:
            data["guild_id"] = command["guild_id"]
        container, schema = data, command.get("options", [])
        for word in words[1:]:
            sub = next((o for o in schema if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise LookupError(f"/{path}: no subcommand {word!r}; there are {subs}")
            node: dict[str, Any] = {"name": word, "type": sub["type"]}
            container["options"] = [node]
            container, schema = node, sub.get("options", [])
        if any(o["type"] in (1, 2) for o in schema):
            raise LookupError(f"/{path} is a group: name one of {[o['name'] for o in schema]}")
        resolved: dict[str, Any] = {}
        values = []
        for name, value in options.items():
            spec = next((o for o in schema if o["name"] == name), None)
            if spec is None:
                raise KeyError(f"/{path} has no option {name!r}; options: {[o['name'] for o in schema]}")
            if name == focused:
                if spec["type"] == 3 and not isinstance(value, str):
                    raise TypeError(f"the text typed into {name!r} must be a str")
                values.append({"name": name, "type": spec["type"], "value": value, "focused": True})
            else:
                values.append(
                    {"name": name, "type": spec["type"], "value": self._option_value(spec, value, resolved, guild)}
                )
        if focused is None:
            missing_options = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing_options:
                raise ValueError(f"/{path}: required options missing: {missing_options}")
        container["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, spec: dict[str, Any], value: Any, resolved: dict[str, Any], guild: FakeGuild | None) -> Any:
        """Type-check one option value as the Discord client would, filling ``resolved`` for entities."""
        kind, name = spec["type"], spec["name"]
        if kind == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length {len(value)} outside min/max_length")
        elif kind == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
        elif kind == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"option {name!r} is a number, got {value!r}")
        elif kind == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif kind in (6, 7, 8, 9, 11):
            return self._resolve_value(kind, value, resolved, guild)
        else:
            raise TypeError(f"option {name!r} has unsupported type {kind}")
        if kind in (4, 10):
            if "min_value" in spec and value < spec["min_value"]:
                raise ValueError(f"option {name!r}: {value} < min_value {spec['min_value']}")
            if "max_value" in spec and value > spec["max_value"]:
                raise ValueError(f"option {name!r}: {value} > max_value {spec['max_value']}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
        return value

    def _resolve_value(self, kind: int, value: Any, resolved: dict[str, Any], guild: FakeGuild | None) -> str:
        """The id for a user (6), channel (7), role (8), mentionable (9) or attachment (11) option.

        In a DM (``guild`` None) users come without members and there are no roles.
        """
        if kind == 9:
            is_role = (
                guild is not None
                and isinstance(value, str)
                and any(r["name"] == value for r in guild.roles)
                and value not in self.users
            )
            kind = 8 if is_role or (isinstance(value, dict) and "permissions" in value) else 6
        if kind == 6:
            user_id = self._user_id(value)
            user = self._users_by_id[user_id]
            resolved.setdefault("users", {})[str(user_id)] = user
            if guild is not None and user_id in guild.members:
                member = {k: v for k, v in guild.members[user_id].items() if k != "user"}
                member["permissions"] = str(self.permissions(user_id, guild))
                resolved.setdefault("members", {})[str(user_id)] = member
            return str(user_id)
        if kind == 7:
            place = self.channel(value)
            resolved.setdefault("channels", {})[str(place.id)] = dict(place.payload(), permissions=str(ALL_PERMISSIONS))
            return str(place.id)
        if kind == 8:
            if guild is None:
                raise ValueError("there are no roles in a DM")
            role = value if isinstance(value, dict) else guild.role(str(value))
            resolved.setdefault("roles", {})[str(role["id"])] = role
            return str(role["id"])
        filename, data = value
        attachment = self._new_attachment(0, filename, bytes(data), None)
        resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        return str(attachment.id)

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
            "preferred_locale": "en-US",
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

    # --- REST plumbing ---------------------------------------------------------------------------

    def _setup_routes(self) -> None:
        """The REST routes, written as the spec's path templates so each finds its request schema."""
        app = "/applications/{application_id}"
        webhook = "/webhooks/{webhook_id}/{webhook_token}"
        message = "/channels/{channel_id}/messages/{message_id}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", f"{app}/commands", self._get_commands),
            ("PUT", f"{app}/commands", self._put_commands),
            ("POST", f"{app}/commands", self._post_command),
            ("GET", f"{app}/guilds/{{guild_id}}/commands", self._get_commands),
            ("PUT", f"{app}/guilds/{{guild_id}}/commands", self._put_commands),
            ("POST", f"{app}/guilds/{{guild_id}}/commands", self._post_command),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._interaction_callback),
            ("GET", f"{webhook}/messages/@original", self._get_original),
            ("PATCH", f"{webhook}/messages/@original", self._edit_original),
            ("DELETE", f"{webhook}/messages/@original", self._delete_original),
            ("POST", webhook, self._post_followup),
            ("GET", f"{webhook}/messages/{{message_id}}", self._get_followup),
            ("PATCH", f"{webhook}/messages/{{message_id}}", self._edit_followup),
            ("DELETE", f"{webhook}/messages/{{message_id}}", self._delete_followup),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_messages),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", message, self._get_message),
            ("PATCH", message, self._edit_message),
            ("DELETE", message, self._delete_message),
            ("POST", f"{message}/threads", self._thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("GET", "/channels/{channel_id}/thread-members", self._get_thread_members),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("PUT", f"{message}/reactions/{{emoji_name}}/@me", self._add_reaction),
            ("DELETE", f"{message}/reactions/{{emoji_name}}/@me", self._remove_reaction),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_roles),
            ("GET", "/guilds/{guild_id}/members", self._get_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/guilds/{guild_id}/threads/active", self._get_active_threads),
        ]
        for method, template, handler in table:
            assert discord_api.has_operation(method, template), f"{method} {template} is not in Discord's spec"
            regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
            self._routes.append((method, re.compile(f"^{regex}$"), template, handler))

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, uploads = await self._read_body(request)
        cause = request.headers.get(CAUSE_HEADER)
        record = RecordedRequest(request.method, path, dict(request.query), body, uploads, cause=int(cause or 0))
        self.requests.append(record)
        if self.latency > 0:
            await asyncio.sleep(self.latency)  # a slow network: it counts against every deadline
        record.at = asyncio.get_running_loop().time()
        headers: dict[str, str] = {}
        try:
            for method, pattern, template, handler in self._routes:
                match = pattern.match(path)
                if method == request.method and match:
                    verdict = self.limits.check(method, template, match.groupdict(), record.at)
                    headers = verdict.headers
                    if verdict.refused is not None:
                        return self._rate_limited(record, verdict)
                    self._check_answered_first(record, template)
                    self._injected_failure(record)
                    needs_auth = not path.startswith(("/webhooks/", "/interactions/"))
                    if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                        raise _ApiError(401, 0, "401: Unauthorized", expected=True)  # the bot fails to log in
                    try:
                        discord_api.check_body(method, template, body)
                    except InvalidForm as error:
                        raise _ApiError.invalid_form(error) from None
                    result = await handler(record, **match.groupdict())
                    break
            else:
                self.unknown_requests.append(record)
                raise _ApiError(404, 0, "404: Not Found", expected=True)  # listed in unknown_requests
        except _ApiError as error:
            record.status, record.error = error.status, error.payload()
            if error.status in (401, 403):
                self.limits.invalid(record.at)  # Discord counts them towards its ban
            if not error.expected:
                self.rejected.append(Rejection(record, error.status, error.code, error.message, error.errors))
            return _json_response(error.payload(), status=error.status, headers=headers)
        except Exception as error:  # a bug in the fake: fail the test, but answer 400 (a 5xx makes discord.py retry)
            logging.getLogger(__name__).exception("DiscordFake failed on %s %s", request.method, path)
            self.errors.append(f"DiscordFake failed on {request.method} {path}: {error!r}")
            record.status = 400
            return _json_response({"message": f"DiscordFake internal error: {error!r}", "code": 0}, status=400)
        finally:
            self._notify()
        if result is None:
            record.status = 204
            return web.Response(status=204, headers=headers)
        record.status = 200
        return _json_response(result, headers=headers)

    def _rate_limited(self, record: RecordedRequest, verdict: Verdict) -> web.Response:
        """A 429 as Discord sends it (or, banned, as Cloudflare does: no Via header, a text body)."""
        record.status = 429
        self._notify()
        if verdict.banned:
            self.banned = True
            return web.Response(status=429, text="error code: 1015")
        record.error = dict(verdict.refused or {})
        self.rate_limited.append(record)
        return _json_response(verdict.refused, status=429, headers=verdict.headers)

    def _check_answered_first(self, record: RecordedRequest, template: str) -> None:
        """A request caused by an interaction (discord.py ran the handler that made it) before that
        interaction's first answer reached Discord: the 3 s window is spent on other work first."""
        interaction = self._interactions.get(record.cause) if record.cause else None
        if interaction is None or interaction.callback is not None:
            return
        if template == "/interactions/{interaction_id}/{interaction_token}/callback":
            return
        self.early_requests.append(record)

    def _injected_failure(self, record: RecordedRequest) -> None:
        """Raise the first `fail_next` failure that matches this request, using one of its count."""
        for failure in self._failures:
            if failure.method == record.method and failure.pattern.search(record.path):
                failure.remaining -= 1
                if failure.remaining <= 0:
                    self._failures.remove(failure)
                raise failure.error

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body: Any = None
            uploads = []
            for name, value in form.items():
                if isinstance(value, web.FileField):
                    uploads.append(Upload(name, value.filename, value.file.read(), value.content_type))
                elif name == "payload_json":
                    body = json.loads(value)
            return body, uploads
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode("utf-8", "replace"), []

    async def _attachment(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    async def _cdn(self, request: web.Request) -> web.Response:
        return web.Response(body=_tiny_png(), content_type="image/png")

    # --- messages (shared by channel and webhook routes) -----------------------------------------

    def _new_attachment(self, channel_id: int, filename: str, data: bytes, description: str | None) -> FakeAttachment:
        attachment_id = self._snowflake()
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}",
            content_type=mimetypes.guess_type(filename)[0],
            description=description,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    def _uploads_to_attachments(
        self, channel_id: int, body: dict[str, Any], uploads: list[Upload], existing: list[FakeAttachment]
    ) -> list[FakeAttachment]:
        """New attachment list: ``attachments`` entries keep existing ones (by id) or name uploads (by index)."""
        by_index = {u.index if u.index is not None else i: u for i, u in enumerate(uploads)}
        existing_by_id = {a.id: a for a in existing}
        entries = body.get("attachments")
        if entries is None:
            result = list(existing)
            for upload in uploads:
                result.append(self._new_attachment(channel_id, upload.filename, upload.data, None))
            return result
        result = []
        used: set[int] = set()
        for entry in entries:
            entry_id = int(entry["id"])
            if entry_id in existing_by_id:
                result.append(existing_by_id[entry_id])
            elif entry_id in by_index:
                upload = by_index[entry_id]
                used.add(entry_id)
                filename = entry.get("filename") or upload.filename
                result.append(self._new_attachment(channel_id, filename, upload.data, entry.get("description")))
            else:
                raise _invalid_form("attachments", f"unknown attachment id {entry_id}")
        for index, upload in by_index.items():
            if index not in used:
                result.append(self._new_attachment(channel_id, upload.filename, upload.data, None))
        return result

    def _validate_message(
        self,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        edit: FakeMessage | None = None,
        prefix: tuple[str, ...] = (),
    ) -> None:
        """Reject what Discord rejects, so a bot bug shows up here rather than in production.

        The spec has checked types and most lengths already; this adds files, layout and the rest
        (`discord_api.check_message`). ``edit``: the message being edited (its flags count).
        """
        if len(uploads) > 10:
            raise _invalid_form(".".join((*prefix, "attachments")), "Must be 10 or fewer in length.")
        for upload in uploads:
            if upload.size > MAX_FILE_SIZE:
                raise _ApiError(413, 40005, "Request entity too large")
        flags = int(body.get("flags") or 0) | (edit.flags if edit is not None else 0)
        try:
            discord_api.check_message(body, prefix=prefix, components_v2=bool(flags & FLAG_COMPONENTS_V2))
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        has_body = any(
            body.get(key) for key in ("content", "embeds", "components", "sticker_ids", "poll", "attachments")
        )
        if edit is None and not has_body and not uploads:
            raise _ApiError(400, 50006, "Cannot send an empty message")

    def _set_mentions(self, message: FakeMessage, allowed: dict[str, Any] | None, reply_to: Any = None) -> None:
        """Decide who the message pings (`Pings`) and its ``mentions``, as Discord does.

        Without ``allowed_mentions`` every user, role, @everyone and @here in the content pings (as if the
        bot had Mention Everyone: many servers grant it); with it, only the kinds in ``parse`` and the ids
        listed in ``users``/``roles``. A reply pings the replied-to author unless ``allowed_mentions`` is
        given without ``replied_user: true``. Ephemeral messages notify nobody.
        """
        message.allowed_mentions = allowed
        if message.ephemeral:
            message.pings, message.mentions = Pings(), []
            return
        content = message.content or ""
        users = [u for u in dict.fromkeys(int(m) for m in _USER_MENTION.findall(content)) if u in self._users_by_id]
        guild_roles = {int(r["id"]) for r in self._guild(message.guild_id).roles} if message.guild_id else set()
        roles = {int(m) for m in _ROLE_MENTION.findall(content)} & guild_roles
        everyone = message.guild_id is not None and bool(_EVERYONE_MENTION.search(content))
        if allowed is not None:
            parse = set(allowed.get("parse") or [])
            listed_users = {int(u) for u in allowed.get("users") or []}
            listed_roles = {int(r) for r in allowed.get("roles") or []}
            users = [u for u in users if "users" in parse or u in listed_users]
            roles = {r for r in roles if "roles" in parse or r in listed_roles}
            everyone = everyone and "everyone" in parse
        replied = self.messages.get(int(reply_to.get("message_id") or 0)) if isinstance(reply_to, dict) else None
        if replied is not None and (allowed is None or allowed.get("replied_user")):
            author_id = int(replied.author["id"])
            if author_id not in users and author_id != self.application_id:
                users.append(author_id)
        message.pings = Pings(users=set(users), roles=roles, everyone=everyone)
        message.mentions = [self._users_by_id[u] for u in users]

    def _create_message(
        self,
        place: FakeChannel,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        flags: int,
        record: _InteractionRecord | None = None,
        message_type: int = 0,
    ) -> FakeMessage:
        message = FakeMessage(
            id=self._snowflake(),
            channel_id=place.id,
            guild_id=place.guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            type=message_type,
        )
        self._set_mentions(message, body.get("allowed_mentions"), body.get("message_reference"))
        message.attachments = self._uploads_to_attachments(place.id, body, uploads, [])
        if record is not None:
            payload = record.payload
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            message.interaction_metadata = {
                "id": payload["id"],
                "type": payload["type"],
                "user": payload["member"]["user"] if "member" in payload else payload["user"],
                "authorizing_integration_owners": payload["authorizing_integration_owners"],
            }
        self._store_message(message, place)
        if place.type == PRIVATE_THREAD:  # Discord adds the users a message pings to a private thread
            place.member_ids |= message.pings.users
        return message

    def _store_message(self, message: FakeMessage, place: FakeChannel) -> None:
        self.messages[message.id] = message
        if not message.ephemeral:
            place.last_message_id = message.id
            if place.is_thread:
                place.message_count += 1

    def _apply_edit(
        self, message: FakeMessage, body: dict[str, Any], uploads: list[Upload], *, prefix: tuple[str, ...] = ()
    ) -> None:
        self._validate_message(body, uploads, edit=message, prefix=prefix)
        if "content" in body:
            message.content = body["content"] or ""
        if "content" in body or "allowed_mentions" in body:
            # Discord rebuilds the mentions from the edit's own allowed_mentions, but an edit notifies nobody:
            # not even the one that fills a deferred "thinking…" message (who it pings was decided, empty,
            # when the placeholder was created).
            notified = message.pings
            self._set_mentions(message, body.get("allowed_mentions"))
            message.pings = notified
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if body.get("flags") is not None:
            settable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            message.flags = (message.flags & ~settable) | (int(body["flags"]) & settable)
        if "attachments" in body or uploads:
            attachments = self._uploads_to_attachments(message.channel_id, body, uploads, message.attachments)
            if len(attachments) > 10:
                raise _invalid_form(".".join((*prefix, "attachments")), "Must be 10 or fewer in length.")
            message.attachments = attachments
        message.flags &= ~FLAG_LOADING
        message.edited_timestamp = _now_iso()
        message.edits += 1

    def _check_can_post(self, place: FakeChannel, *, webhook: bool = False) -> None:
        """Whether the bot may create a (non-ephemeral) message there: `forbid` (channel routes only: an
        interaction's webhook is not governed by channel permissions) and locked threads."""
        if not webhook and place.id in self._forbidden:
            raise _ApiError(403, 50013, "Missing Permissions", expected=True)
        if place.type == DM and int(place.recipients[0]["id"]) in self._dms_closed:
            raise _ApiError(403, 50007, "Cannot send messages to this user", expected=True)
        if place.is_thread and place.locked and not self._app_permissions(place) & MANAGE_THREADS:
            if place.archived:
                raise _ApiError(400, 50083, "Thread is archived", expected=True)
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    async def _unarchive_for_post(self, place: FakeChannel) -> None:
        """A message posted in an archived thread unarchives it (THREAD_UPDATE), as on Discord."""
        if place.is_thread and place.archived:
            place.archived = False
            await self._dispatch("THREAD_UPDATE", place.payload(), intent=INTENT_GUILDS)

    def _check_can_edit(self, message: FakeMessage) -> None:
        """Messages in archived (or locked) threads cannot be edited; a deleted channel's are gone."""
        place = self.channels[message.channel_id]
        if place.deleted:
            raise _ApiError(404, 10003, "Unknown Channel", expected=True)
        if message.ephemeral or not place.is_thread:
            return
        if place.archived:
            raise _ApiError(400, 50083, "Thread is archived", expected=place.locked)
        if place.locked and not self._app_permissions(place) & MANAGE_THREADS:
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    def _message_payload(self, message: FakeMessage) -> dict[str, Any]:
        body = message.payload()
        if message.thread_id is not None and message.thread_id in self.channels:
            body["thread"] = self.channels[message.thread_id].payload()
        return body

    async def _emit_message(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE as the bot would get them: never for ephemeral messages."""
        if message.ephemeral:
            return
        intent = INTENT_GUILD_MESSAGES if message.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            await self._dispatch(event, data, intent=intent)
            return
        data = self._message_payload(message)
        is_own = int(message.author["id"]) == self.application_id
        mentions_bot = any(int(u["id"]) == self.application_id for u in message.mentions)
        if not (is_own or mentions_bot or message.guild_id is None or self._intents & INTENT_MESSAGE_CONTENT):
            data.update(content="", embeds=[], attachments=[], components=[])
        await self._dispatch(event, data, intent=intent)

    def _channel_or_404(self, channel_id: str | int) -> FakeChannel:
        """A channel the bot may address; one a test deleted answers 404 too, but not as the bot's fault."""
        place = self.channels.get(int(channel_id))
        if place is None or place.deleted:
            raise _ApiError(404, 10003, "Unknown Channel", expected=place is not None)
        return place

    def _channel_message_or_404(self, channel_id: str, message_id: str) -> FakeMessage:
        """Channel routes cannot see ephemeral messages, as on Discord."""
        self._channel_or_404(channel_id)
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.ephemeral or message.channel_id != int(channel_id):
            raise _ApiError(404, 10008, "Unknown Message")
        return message

    # --- REST: users, application, commands ------------------------------------------------------

    async def _get_gateway(self, record: RecordedRequest) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    async def _get_me(self, record: RecordedRequest) -> dict[str, Any]:
        return self.bot_user

    async def _get_user(self, record: RecordedRequest, user_id: str) -> dict[str, Any]:
        user = self._users_by_id.get(int(user_id))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return user

    async def _open_dm(self, record: RecordedRequest) -> dict[str, Any]:
        user_id = int((record.json or {}).get("recipient_id") or 0)
        if user_id not in self._users_by_id or user_id == self.application_id:
            raise _ApiError(400, 50033, "Invalid Recipient(s)")
        return self.dm_channel(user_id).payload()

    async def _get_application(self, record: RecordedRequest) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.users["owner"],
            "team": None,
            "verify_key": "0" * 64,
            "flags": APPLICATION_FLAGS,
            "bot": self.bot_user,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }

    def _check_application(self, application_id: str) -> None:
        if int(application_id) != self.application_id:
            raise _ApiError(404, 10002, "Unknown Application")

    async def _get_commands(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        self._check_application(application_id)
        return self.commands(int(guild_id) if guild_id else None)

    def _registered(self, body: dict[str, Any], guild_id: int | None, old: list[dict[str, Any]]) -> dict[str, Any]:
        previous = next((c for c in old if c["name"] == body["name"] and c.get("type", 1) == body.get("type", 1)), None)
        command = dict(body)
        command.setdefault("type", 1)
        command.setdefault("description", "")
        command["id"] = previous["id"] if previous else str(self._snowflake())
        command["application_id"] = str(self.application_id)
        command["version"] = str(self._snowflake())
        command.setdefault("default_member_permissions", None)
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        return command

    async def _put_commands(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> list[dict[str, Any]]:
        """Bulk overwrite; ids stay stable for commands that keep their name and type, as on Discord."""
        self._check_application(application_id)
        scope = int(guild_id) if guild_id else None
        if scope is not None and not any(guild.id == scope for guild in self.guilds):
            raise _ApiError(403, 50001, "Missing Access")  # not in that server, or without applications.commands
        body = record.json or []
        try:
            discord_api.check_commands(body)
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        old = self.registered_commands.get(scope, [])
        self.registered_commands[scope] = [self._registered(c, scope, old) for c in body]
        return self.commands(scope)

    async def _post_command(
        self, record: RecordedRequest, application_id: str, guild_id: str | None = None
    ) -> dict[str, Any]:
        self._check_application(application_id)
        scope = int(guild_id) if guild_id else None
        old = self.registered_commands.get(scope, [])
        command = self._registered(record.json or {}, scope, old)
        commands = [c for c in old if c["id"] != command["id"]] + [command]
        try:
            discord_api.check_command(record.json or {})
            discord_api.check_commands(commands)
        except InvalidForm as error:
            raise _ApiError.invalid_form(error) from None
        self.registered_commands[scope] = commands
        return command

    # --- REST: interactions and their webhooks ---------------------------------------------------

    async def _interaction_callback(
        self, record: RecordedRequest, interaction_id: str, interaction_token: str
    ) -> dict[str, Any] | None:
        interaction = self._interactions.get(int(interaction_id))
        if interaction is None or interaction.token != interaction_token:
            raise _ApiError(404, 10062, "Unknown interaction")
        if interaction.callback is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if record.at - interaction.sent_at > self.response_timeout:
            # Discord's 3 s for the first answer, from the dispatch until the callback arrives (latency included).
            interaction.late = record.at - interaction.sent_at
            raise _ApiError(404, 10062, "Unknown interaction")
        body = record.json or {}
        callback_type = int(body.get("type", 0))
        data = body.get("data") or {}
        kind = interaction.payload["type"]
        if callback_type not in ALLOWED_CALLBACKS.get(kind, set()):
            raise _invalid_form("type", f"callback type {callback_type} is not valid for interaction type {kind}")
        place = self._channel_or_404(interaction.payload["channel_id"])
        flags = int(data.get("flags") or 0) & SETTABLE_FLAGS
        event: tuple[str, FakeMessage] | None = None
        if callback_type in (CB_MESSAGE, CB_DEFERRED) and not flags & FLAG_EPHEMERAL:
            self._check_can_post(place, webhook=True)
        if callback_type == CB_MESSAGE:
            self._validate_message(data, record.files, prefix=("data",))
            message_type = 20 if kind == APPLICATION_COMMAND else 0
            interaction.original = self._create_message(
                place, data, record.files, flags=flags, record=interaction, message_type=message_type
            )
            event = ("MESSAGE_CREATE", interaction.original)
        elif callback_type == CB_DEFERRED:
            message_type = 20 if kind == APPLICATION_COMMAND else 0
            interaction.original = self._create_message(
                place,
                {},
                [],
                flags=(flags & FLAG_EPHEMERAL) | FLAG_LOADING,
                record=interaction,
                message_type=message_type,
            )
            event = ("MESSAGE_CREATE", interaction.original)
        elif callback_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
            interaction.original = self.messages[int(interaction.payload["message"]["id"])]
            if callback_type == CB_UPDATE:
                self._apply_edit(interaction.original, data, record.files, prefix=("data",))
                event = ("MESSAGE_UPDATE", interaction.original)
        elif callback_type == CB_AUTOCOMPLETE:
            try:
                discord_api.check_autocomplete(data)
            except InvalidForm as error:
                raise _ApiError.invalid_form(error) from None
        interaction.callback = Callback(callback_type, data, record.files)
        if event is not None:
            if event[0] == "MESSAGE_CREATE":
                await self._unarchive_for_post(place)
            await self._emit_message(*event)
        if record.query.get("with_response") not in ("1", "true", "True"):
            return None
        original = interaction.original
        response: dict[str, Any] = {"interaction": {"id": str(interaction.id), "type": kind}}
        if original is not None and callback_type in (CB_MESSAGE, CB_DEFERRED, CB_UPDATE):
            response["interaction"].update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
            response["resource"] = {"type": callback_type, "message": self._message_payload(original)}
        return response

    def _interaction_for(self, webhook_id: str, webhook_token: str) -> _InteractionRecord:
        """The interaction behind a webhook token; after ``followup_lifetime`` (15 min) the token is dead."""
        interaction = self._interactions_by_token.get(webhook_token)
        if int(webhook_id) != self.application_id or interaction is None:
            raise _ApiError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() - interaction.sent_at > self.followup_lifetime:
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    def _original_of(self, webhook_id: str, webhook_token: str) -> tuple[_InteractionRecord, FakeMessage]:
        interaction = self._interaction_for(webhook_id, webhook_token)
        original = interaction.original
        if original is None or original.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        self._channel_or_404(original.channel_id)
        return interaction, original

    async def _get_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> dict[str, Any]:
        return self._message_payload(self._original_of(webhook_id, webhook_token)[1])

    async def _edit_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> dict[str, Any]:
        interaction, original = self._original_of(webhook_id, webhook_token)
        self._check_can_edit(original)
        self._apply_edit(original, record.json or {}, record.files)
        interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", original)
        return self._message_payload(original)

    async def _delete_original(self, record: RecordedRequest, webhook_id: str, webhook_token: str) -> None:
        interaction, original = self._original_of(webhook_id, webhook_token)
        original.deleted = True
        interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", original)

    async def _post_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str
    ) -> dict[str, Any] | None:
        interaction = self._interaction_for(webhook_id, webhook_token)
        if interaction.callback is None:
            raise _ApiError(404, 10015, "Unknown Webhook")  # a followup needs an answered interaction
        body = record.json or {}
        original = interaction.original
        place = self._channel_or_404(interaction.payload["channel_id"])
        self._validate_message(body, record.files)
        if (
            interaction.callback.type == CB_DEFERRED
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first followup fills the deferred message; its ephemeral flag comes from the deferral
            # (once the bot deleted the placeholder, a followup is a message of its own again).
            self._check_can_edit(original)
            self._apply_edit(original, body, record.files)
            message = original
            await self._emit_message("MESSAGE_UPDATE", message)
        else:
            flags = int(body.get("flags") or 0) & SETTABLE_FLAGS
            if not flags & FLAG_EPHEMERAL:
                self._check_can_post(place, webhook=True)
            message = self._create_message(place, body, record.files, flags=flags, record=interaction)
            if not message.ephemeral:
                await self._unarchive_for_post(place)
            await self._emit_message("MESSAGE_CREATE", message)
        interaction.followups.append(message)
        interaction.activity += 1
        if record.query.get("wait") in ("1", "true", "True"):
            return self._message_payload(message)
        return None

    def _followup_of(
        self, webhook_id: str, webhook_token: str, message_id: str
    ) -> tuple[_InteractionRecord, FakeMessage]:
        interaction = self._interaction_for(webhook_id, webhook_token)
        for message in [interaction.original, *interaction.followups]:
            if message is not None and message.id == int(message_id) and not message.deleted:
                self._channel_or_404(message.channel_id)
                return interaction, message
        raise _ApiError(404, 10008, "Unknown Message")

    async def _get_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> dict[str, Any]:
        return self._message_payload(self._followup_of(webhook_id, webhook_token, message_id)[1])

    async def _edit_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> dict[str, Any]:
        interaction, message = self._followup_of(webhook_id, webhook_token, message_id)
        self._check_can_edit(message)
        self._apply_edit(message, record.json or {}, record.files)
        interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._message_payload(message)

    async def _delete_followup(
        self, record: RecordedRequest, webhook_id: str, webhook_token: str, message_id: str
    ) -> None:
        interaction, message = self._followup_of(webhook_id, webhook_token, message_id)
        message.deleted = True
        interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", message)

    # --- REST: channels, messages, threads -------------------------------------------------------

    async def _get_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        return self._channel_or_404(channel_id).payload()

    async def _edit_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        """Channel and thread settings; threads follow Discord's archive and lock rules (docs: Threads)."""
        place = self._channel_or_404(channel_id)
        body = record.json or {}
        if place.is_thread:
            self._check_thread_edit(place, body)
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration", "rate_limit_per_user"):
            if key in body:
                setattr(place, key, body[key])
        event = "THREAD_UPDATE" if place.is_thread else "CHANNEL_UPDATE"
        await self._dispatch(event, place.payload(), intent=INTENT_GUILDS)
        return place.payload()

    def _check_thread_edit(self, thread: FakeChannel, body: dict[str, Any]) -> None:
        """Setting ``locked`` needs Manage Threads; unarchiving a locked thread needs it or being its
        creator; an archived thread takes no other change; a locked one none without Manage Threads."""
        manage = bool(self._app_permissions(thread) & MANAGE_THREADS)
        if "name" in body and not 1 <= len(body["name"] or "") <= 100:
            raise _invalid_form("name", "Must be between 1 and 100 in length.")
        if "locked" in body and bool(body["locked"]) != thread.locked and not manage:
            raise _ApiError(403, 50013, "Missing Permissions")
        unarchives = thread.archived and body.get("archived") is False
        if unarchives and thread.locked and not manage and thread.owner_id != self.application_id:
            raise _ApiError(403, 50013, "Missing Permissions")
        others = set(body) - {"archived", "locked"}
        if thread.archived and not unarchives and body.get("archived") is not True:
            raise _ApiError(400, 50083, "Thread is archived", expected=thread.locked)
        if thread.locked and others and not manage:
            raise _ApiError(400, 160005, "Thread is locked", expected=True)

    async def _delete_channel(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        place = self._channel_or_404(channel_id)
        await self._remove_channel(place)
        return place.payload()

    async def _remove_channel(self, place: FakeChannel) -> None:
        """Delete a channel (and its threads) or a thread, and tell the bot (THREAD_DELETE/CHANNEL_DELETE)."""
        place.deleted = True
        payload = place.payload()
        if place.is_thread:
            data = {"id": payload["id"], "guild_id": payload["guild_id"], "parent_id": payload["parent_id"]}
            await self._dispatch("THREAD_DELETE", dict(data, type=place.type), intent=INTENT_GUILDS)
            return
        for thread in self.threads:
            if thread.parent_id == place.id:
                thread.deleted = True
        if place.guild_id is not None:
            await self._dispatch("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)

    async def _get_messages(self, record: RecordedRequest, channel_id: str) -> list[dict[str, Any]]:
        place = self._channel_or_404(channel_id)
        limit = int(record.query.get("limit", 50))
        before = int(record.query.get("before", 0)) or None
        after = int(record.query.get("after", 0))
        found = [m for m in self.channel_messages(place) if (before is None or m.id < before) and m.id > after]
        found.sort(key=lambda m: m.id, reverse=True)
        return [self._message_payload(m) for m in found[:limit]]

    async def _post_message(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        place = self._channel_or_404(channel_id)
        self._check_can_post(place)
        body = record.json or {}
        self._validate_message(body, record.files)
        flags = int(body.get("flags") or 0) & (FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2)
        message = self._create_message(place, body, record.files, flags=flags)
        await self._unarchive_for_post(place)
        await self._emit_message("MESSAGE_CREATE", message)
        return self._message_payload(message)

    async def _get_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        return self._message_payload(self._channel_message_or_404(channel_id, message_id))

    async def _edit_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        message = self._channel_message_or_404(channel_id, message_id)
        if int(message.author["id"]) != self.application_id:
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._check_can_edit(message)
        self._apply_edit(message, record.json or {}, record.files)
        for interaction in self._interactions.values():  # a deferred update may be finished this way
            if interaction.original is message:
                interaction.activity += 1
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._message_payload(message)

    async def _delete_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        message.deleted = True
        for interaction in self._interactions.values():
            if interaction.original is message:
                interaction.activity += 1
        await self._emit_message("MESSAGE_DELETE", message)

    def _new_thread(self, parent: FakeChannel, body: dict[str, Any], thread_id: int, thread_type: int) -> FakeChannel:
        if parent.type not in (TEXT, NEWS):
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if parent.id in self._forbidden:
            raise _ApiError(403, 50013, "Missing Permissions", expected=True)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise _invalid_form("name", "Must be between 1 and 100 in length.")
        thread = FakeChannel(
            id=thread_id,
            type=thread_type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.application_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
            member_ids={self.application_id},
        )
        self.channels[thread.id] = thread
        return thread

    def _thread_create_payload(self, thread: FakeChannel) -> dict[str, Any]:
        member = {"id": str(thread.id), "user_id": str(self.application_id), "join_timestamp": _now_iso(), "flags": 0}
        return dict(thread.payload(), newly_created=True, member=member)

    async def _create_thread(self, record: RecordedRequest, channel_id: str) -> dict[str, Any]:
        parent = self._channel_or_404(channel_id)
        body = record.json or {}
        thread = self._new_thread(parent, body, self._snowflake(), int(body.get("type") or PRIVATE_THREAD))
        await self._dispatch("THREAD_CREATE", self._thread_create_payload(thread), intent=INTENT_GUILDS)
        return self._thread_create_payload(thread)

    async def _thread_from_message(self, record: RecordedRequest, channel_id: str, message_id: str) -> dict[str, Any]:
        parent = self._channel_or_404(channel_id)
        message = self._channel_message_or_404(channel_id, message_id)
        if message.thread_id is not None:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread_type = NEWS_THREAD if parent.type == NEWS else PUBLIC_THREAD
        thread = self._new_thread(parent, record.json or {}, message.id, thread_type)  # same id as the message
        message.thread_id = thread.id
        await self._dispatch("THREAD_CREATE", self._thread_create_payload(thread), intent=INTENT_GUILDS)
        await self._emit_message("MESSAGE_UPDATE", message)
        return self._thread_create_payload(thread)

    def _thread_or_404(self, channel_id: str) -> FakeChannel:
        place = self._channel_or_404(channel_id)
        if not place.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        return place

    async def _get_thread_members(self, record: RecordedRequest, channel_id: str) -> list[dict[str, Any]]:
        thread = self._thread_or_404(channel_id)
        return [
            {"id": str(thread.id), "user_id": str(u), "join_timestamp": thread.created_at, "flags": 0}
            for u in sorted(thread.member_ids)
        ]

    async def _add_thread_member(self, record: RecordedRequest, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_404(channel_id)
        member_id = self.application_id if user_id == "@me" else int(user_id)
        if member_id not in self._users_by_id:
            raise _ApiError(404, 10013, "Unknown User")
        thread.member_ids.add(member_id)

    async def _remove_thread_member(self, record: RecordedRequest, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_404(channel_id)
        thread.member_ids.discard(self.application_id if user_id == "@me" else int(user_id))

    async def _typing(self, record: RecordedRequest, channel_id: str) -> None:
        self._channel_or_404(channel_id)

    async def _add_reaction(self, record: RecordedRequest, channel_id: str, message_id: str, emoji_name: str) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        if unquote(emoji_name) not in message.reactions:
            message.reactions.append(unquote(emoji_name))

    async def _remove_reaction(
        self, record: RecordedRequest, channel_id: str, message_id: str, emoji_name: str
    ) -> None:
        message = self._channel_message_or_404(channel_id, message_id)
        with contextlib.suppress(ValueError):
            message.reactions.remove(unquote(emoji_name))

    # --- REST: guilds ----------------------------------------------------------------------------

    async def _get_guild(self, record: RecordedRequest, guild_id: str) -> dict[str, Any]:
        payload = self._guild_create_payload(self._guild(guild_id))
        for key in ("channels", "threads", "members", "presences", "voice_states", "joined_at", "large"):
            payload.pop(key, None)
        return payload

    async def _get_guild_channels(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        guild = self._guild(guild_id)
        return [self.channels[c].payload() for c in guild.channel_ids if not self.channels[c].deleted]

    async def _get_roles(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        return self._guild(guild_id).roles

    async def _get_members(self, record: RecordedRequest, guild_id: str) -> list[dict[str, Any]]:
        guild = self._guild(guild_id)
        after = int(record.query.get("after", 0))
        limit = int(record.query.get("limit", 1))
        members = sorted(guild.members.items())
        return [m for user_id, m in members if user_id > after][:limit]

    async def _get_member(self, record: RecordedRequest, guild_id: str, user_id: str) -> dict[str, Any]:
        guild = self._guild(guild_id)
        member = guild.members.get(int(user_id))
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member", expected=int(user_id) in guild.left)
        return member

    async def _get_active_threads(self, record: RecordedRequest, guild_id: str) -> dict[str, Any]:
        guild = self._guild(guild_id)
        threads = [t for t in self.threads if t.guild_id == guild.id and not t.archived]
        return {"threads": [t.payload() for t in threads], "members": []}
