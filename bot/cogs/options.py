"""Slash-command parameters built from a game's option spec (`bot.games.base.Option`).

discord.py reads a command's parameters from its signature, so each cog still writes its start command's
parameters by hand; their descriptions, choices and ranges come from here, and tests/test_options.py checks
that every cog's start command offers exactly its game's options (less those it declares `left_out`):

    TOKENS = GEYSER.options.named("tokens")

    @app_commands.describe(**describe(GEYSER))
    @app_commands.choices(**choices(GEYSER))
    async def new(self, interaction, tokens: app_commands.Range[int, TOKENS.minimum, TOKENS.maximum] | None = None)
"""

from __future__ import annotations

from discord import app_commands

from bot import discord_limits as limits
from bot import i18n
from bot.games import Game
from bot.games.base import Option

DESCRIPTION = 100
"""Characters in a slash-command option's description at most (Discord's limit)."""


def offered(game: Game, names: tuple[str, ...] = ()) -> list[Option]:
    """The options called `names` (by default every option the front-ends offer), in the spec's order."""
    return [o for o in game.options if (o.name in names if names else o.offered)]


def describe(game: Game, *names: str) -> dict[str, str]:
    """`app_commands.describe` text for the options named (default: every offered one): each one's help
    with its default (`Option.summary`), in English: the text is the catalog's key, which the `Translator`
    (bot/discord_i18n.py) localizes for each user."""
    with i18n.using(i18n.ENGLISH):
        return {o.name: limits.shorten(i18n.unmarked(o.summary), DESCRIPTION) for o in offered(game, names)}


def choices(game: Game, *names: str) -> dict[str, list[app_commands.Choice[str]]]:
    """`app_commands.choices` for the "choice" options among those named: each value, shown with what it
    means ("calm: 7 fires nothing")."""
    return {o.name: option_choices(o) for o in offered(game, names) if o.kind == "choice"}


def option_choices(option: Option) -> list[app_commands.Choice[str]]:
    named = [(value, f"{value}: {meaning}" if meaning else value) for value, meaning in option.choices]
    return [app_commands.Choice(name=limits.shorten(name, limits.CHOICE), value=value) for value, name in named]


def suggest(option: Option, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a "text" option: its named values starting with what was typed; anything else
    (five squares, 25 letters) offered as typed, for the engine to read."""
    typed = current.strip()
    found = [v for v in option.values if v.startswith(typed.lower())] or ([typed[: limits.CHOICE]] if typed else [])
    return [app_commands.Choice(name=i18n.typed(v), value=v) for v in found[: limits.CHOICES]]  # values as typed
