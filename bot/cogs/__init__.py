"""Discord cogs: one GroupCog per game (on the shared GameCog), /mod, and general commands."""

from __future__ import annotations

import contextlib

import discord

from bot import i18n, posts
from bot.discord_i18n import NAME
from bot.games import REGISTRY
from bot.i18n import _
from bot.wording import listing

START_COMMANDS = listing([f"`/{key} {registration.start}`" for key, registration in REGISTRY.items()], "or")
"""Every game's start command, for the answers that find no match: "`/fish challenge`, `/volcano new`, ..."."""


def command_name(*words: str) -> str:
    """A slash command as the reader's Discord shows it (`/fish herausfordern`): each word's localized name,
    English where the catalog has none."""
    language = i18n.current()
    return "/" + " ".join(i18n.translate(language, NAME, word) or word for word in words)


def start_commands() -> str:
    """`START_COMMANDS` in the reader's language: "`/fish challenge`, `/volcano new` or `/geyser new`"."""
    named = [f"`{command_name(key, registration.start)}`" for key, registration in REGISTRY.items()]
    if len(named) == 1:
        return named[0]
    return _("{commands} or {last}").format(commands=", ".join(named[:-1]), last=named[-1])


def in_public(interaction: discord.Interaction) -> contextlib.AbstractContextManager[None]:
    """Words of a public post made from an interaction (read by the whole server): in the server's language,
    as every notice speaks it (`posts.publicly`), not the language of who caused it."""
    return posts.publicly(interaction.guild_id)
