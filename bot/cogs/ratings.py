"""/leaderboard and /stats: the server's Glicko-2 ratings (bot/ratings.py), kept by the service.

Both answer in the channel for everyone to see (a leaderboard is for sharing); refusals are ephemeral.
Ratings are per server, so both are refused outside one (in a DM).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app, discord_ids
from bot.cogs.base import Refusal, in_public
from bot.games import GAMES
from bot.i18n import _
from bot.ratings import leaderboard_lines, stats_lines

GAME_CHOICES = [app_commands.Choice(name=game.title, value=key) for key, game in GAMES.items()]
LEADERBOARD_SIZE = 10


class RatingsCog(commands.Cog):
    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best-rated players of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        guild_id = _guild(interaction)
        top = await self.bot.matches.ratings.leaderboard(guild_id, game, LEADERBOARD_SIZE)
        title = self.bot.matches.games[game].title
        with in_public(interaction):  # a leaderboard is public: the server's language
            text = "\n".join(leaderboard_lines(title, top, bold=True))
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="stats", description="A player's ratings in this server, game by game")
    @app_commands.describe(user="Whose ratings (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        guild_id = _guild(interaction)
        who = user or interaction.user
        rows = await self.bot.matches.ratings.stats(guild_id, discord_ids.player(who).id)
        with in_public(interaction):
            text = "\n".join(stats_lines(discord_ids.player(who).name, rows, _titles(), bold=True))
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())


def _titles() -> dict[str, str]:
    return {key: game.title for key, game in GAMES.items()}


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise Refusal(_("Ratings are kept per server: ask in a server's channel, not in a direct message."))
    return interaction.guild_id


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(RatingsCog(bot))
