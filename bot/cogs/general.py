"""/games for everyone, and the owner's command sync (mention the bot: `@bot sync`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app
from bot.cogs.mod import games_line


class GeneralCog(commands.Cog):
    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Matches running in this server")
    async def games(self, interaction: discord.Interaction) -> None:
        lines = [games_line(self.bot.matches, m) for m in self.bot.matches.running(interaction.guild_id)]
        await interaction.response.send_message(
            "\n".join(lines)
            or "No matches are running here. Start one with `/fish challenge`, `/volcano new`"
            " or `/themiscyra challenge`.",
            ephemeral=True,
        )

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[discord_app.GameBot]) -> None:
        """Publish the slash commands everywhere (takes up to an hour to show); the owner only."""
        synced = await self.bot.tree.sync()
        await ctx.reply(f"Synced {len(synced)} commands globally.")


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(GeneralCog(bot))
