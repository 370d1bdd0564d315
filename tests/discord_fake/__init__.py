r"""A local fake of the Discord API, so tests can drive a real discord.py bot without a network.

How it works
------------
`DiscordFake` is an aiohttp server on 127.0.0.1 (a free port) that plays Discord for one bot:

* REST under ``/api/v10``: the routes a bot uses to log in, sync its command tree, answer interactions
  (callback, ``@original``, followups), post/edit/delete channel messages, create threads and look up
  guilds, members, roles and users. Every request is recorded (`RecordedRequest`: method, path, query,
  JSON body or the multipart ``payload_json``, the uploaded files with their bytes, and Discord's error
  body if it failed). Unknown routes answer 404 and are listed by `check()`.
* Rate limits as Discord's (ratelimits.py): per-route buckets with their headers, 5
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
in the user's DM with the bot. An interaction returns a `Reply` that waits (real time, at most `timeout`
seconds: 60, a bound against a hang that a slow but working bot on a loaded machine never meets) until
the bot answered: the callback arrived and, for a deferral, the deferred message was filled in (or,
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

Layout
------
One class, `DiscordFake` (fake.py: state, lifecycle, waiting), with its concerns mixed in from a module
each: world.py (users, guilds, channels, failures a test arranges, permissions), actions.py (what a user
does: `slash`, `click`, ...), gateway.py (the websocket), rest.py (routing and the REST routes),
messages.py (validation, mentions, storing and editing messages shared by the routes). model.py holds the
stored and recorded objects, constants.py Discord's numbers, errors.py Discord's error answers,
ratelimits.py the rate limits. Everything a test uses is importable from ``tests.discord_fake``.
"""

from __future__ import annotations

from tests.discord_fake.constants import (
    ALL_PERMISSIONS,
    ALLOWED_CALLBACKS,
    API_PREFIX,
    API_VERSION,
    APPLICATION_COMMAND,
    APPLICATION_FLAGS,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    CAUSE_HEADER,
    CB_AUTOCOMPLETE,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    DM,
    DM_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    MANAGE_THREADS,
    MAX_FILE_SIZE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    MODERATOR_PERMISSIONS,
    NEWS,
    NEWS_THREAD,
    PNG_SIGNATURE,
    PRIVATE_THREAD,
    PRIVILEGED_INTENTS,
    PUBLIC_THREAD,
    SETTABLE_FLAGS,
    TEXT,
    THREAD_TYPES,
)
from tests.discord_fake.fake import DiscordFake
from tests.discord_fake.model import (
    GUILD_EVENTS,
    Callback,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    Pings,
    RecordedRequest,
    Rejection,
    Reply,
    Upload,
    shard_of,
)

__all__ = [
    "ALLOWED_CALLBACKS",
    "ALL_PERMISSIONS",
    "API_PREFIX",
    "API_VERSION",
    "APPLICATION_COMMAND",
    "APPLICATION_FLAGS",
    "AUTOCOMPLETE",
    "BOT_PERMISSIONS",
    "CAUSE_HEADER",
    "CB_AUTOCOMPLETE",
    "CB_DEFERRED",
    "CB_DEFERRED_UPDATE",
    "CB_MESSAGE",
    "CB_MODAL",
    "CB_UPDATE",
    "CONTEXT_BOT_DM",
    "CONTEXT_GUILD",
    "DM",
    "DM_PERMISSIONS",
    "EVERYONE_PERMISSIONS",
    "FLAG_COMPONENTS_V2",
    "FLAG_EPHEMERAL",
    "FLAG_LOADING",
    "FLAG_SUPPRESS_EMBEDS",
    "FLAG_SUPPRESS_NOTIFICATIONS",
    "GUILD_EVENTS",
    "INTENT_DIRECT_MESSAGES",
    "INTENT_GUILDS",
    "INTENT_GUILD_MEMBERS",
    "INTENT_GUILD_MESSAGES",
    "INTENT_GUILD_PRESENCES",
    "INTENT_MESSAGE_CONTENT",
    "MANAGE_THREADS",
    "MAX_FILE_SIZE",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "MODERATOR_PERMISSIONS",
    "NEWS",
    "NEWS_THREAD",
    "PNG_SIGNATURE",
    "PRIVATE_THREAD",
    "PRIVILEGED_INTENTS",
    "PUBLIC_THREAD",
    "SETTABLE_FLAGS",
    "TEXT",
    "THREAD_TYPES",
    "Callback",
    "DiscordFake",
    "FakeAttachment",
    "FakeChannel",
    "FakeGuild",
    "FakeMessage",
    "Pings",
    "RecordedRequest",
    "Rejection",
    "Reply",
    "Upload",
    "shard_of",
]
