"""/games for everyone, and the owner's command sync (mention the bot: `@bot sync`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app, i18n
from bot import discord_limits as limits
from bot.cogs import start_commands
from bot.cogs.base import server_id
from bot.cogs.mod import games_line
from bot.i18n import _, ngettext


class GeneralCog(commands.Cog):
    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Matches running in this server")
    @app_commands.describe(page="which page of the list, when it is long (default 1)")
    async def games(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        running = self.bot.matches.running(server_id(interaction))
        if not running:
            text = _("No matches are running here. Start one with {commands}.").format(commands=start_commands())
        else:
            head = ngettext("{count} running match:", "{count} running matches:", len(running)).format(
                count=i18n.number(len(running))
            )
            lines = [head, *(games_line(self.bot.matches, m) for m in running)]
            text = limits.page(lines, page, command="/games")
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=limits.NOBODY)

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[discord_app.GameBot]) -> None:
        """Publish the slash commands everywhere (takes up to an hour to show); the owner only."""
        synced = await self.bot.tree.sync()
        said = ngettext("Synced {count} command globally.", "Synced {count} commands globally.", len(synced))
        await ctx.reply(said.format(count=i18n.number(len(synced))))


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(GeneralCog(bot))
