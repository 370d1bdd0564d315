"""Discord's numbers the fake answers by: API version, intents, flags, channel, interaction and
callback types, permissions."""

from __future__ import annotations

import contextvars
import re
from typing import TYPE_CHECKING, TypeVar

import discord

if TYPE_CHECKING:
    pass


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
