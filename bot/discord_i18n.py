"""Slash commands in the user's language: the `Translator` discord.py asks for every command and group name,
description, parameter name and description and choice name when it syncs the command tree.

Each string is looked up in the catalogs (bot/i18n.py) under the context of its kind (bot/i18n_catalogs.py:
`discord name`, `discord description`, `discord choice`), so a name is translated as a name. Discord shows
a user the localization of their own client language and the English default where there is none: the
translator gives none where a catalog has no translation yet (never the English again, never a key).
Options keep their English names underneath: Discord sends the bot the default name whatever the user saw.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import server_language, translate

NAME, DESCRIPTION, CHOICE = "discord name", "discord description", "discord choice"
"""The contexts of the command tree's strings: Discord holds each kind to its own rules."""
CONTEXT_OF = {
    "command_name": NAME,
    "group_name": NAME,
    "parameter_name": NAME,
    "command_description": DESCRIPTION,
    "group_description": DESCRIPTION,
    "parameter_description": DESCRIPTION,
    "choice_name": CHOICE,
}
COMMAND_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.german: "de",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.french: "fr",
    discord.Locale.brazil_portuguese: "pt_BR",
}
"""Discord's locales the commands are localized for, and the catalog each reads (Latin American Spanish
reads the Spanish one: better than English for its players)."""


class CatalogTranslator(app_commands.Translator):
    """Command names, descriptions and choices from the catalogs; `locales` says which catalog answers each
    Discord locale (the tests give every locale the pseudo-locale's)."""

    def __init__(self, locales: dict[discord.Locale, str] | None = None) -> None:
        self.locales = COMMAND_LOCALES if locales is None else locales

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = self.locales.get(locale)
        kind = CONTEXT_OF.get(context.location.name)
        if language is None or kind is None:
            return None
        return translate(language, kind, string.message)


def public_language(language_setting: str | None, guild: discord.Guild | None) -> str:
    """The language of a server's public posts: its `language` setting, else Discord's language of the
    server (`preferred_locale`, the guild_locale of its interactions), else English."""
    return server_language(language_setting, str(guild.preferred_locale) if guild is not None else None)
