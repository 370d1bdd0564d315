"""/games for everyone, and the owner's command sync (mention the bot: `@bot sync`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app
from bot import discord_limits as limits
from bot.cogs import START_COMMANDS
from bot.cogs.base import server_id
from bot.cogs.mod import games_line
from bot.wording import plural


class GeneralCog(commands.Cog):
    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Matches running in this server")
    @app_commands.describe(page="which page of the list, when it is long (default 1)")
    async def games(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        running = self.bot.matches.running(server_id(interaction))
        if not running:
            text = f"No matches are running here. Start one with {START_COMMANDS}."
        else:
            head = f"{plural(len(running), 'running match', 'running matches')}:"
            lines = [head, *(games_line(self.bot.matches, m) for m in running)]
            text = limits.page(lines, page, command="/games")
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=limits.NOBODY)

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[discord_app.GameBot]) -> None:
        """Publish the slash commands everywhere (takes up to an hour to show); the owner only."""
        synced = await self.bot.tree.sync()
        await ctx.reply(f"Synced {plural(len(synced), 'command')} globally.")


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(GeneralCog(bot))
