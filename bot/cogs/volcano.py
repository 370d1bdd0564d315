"""/volcano: Volcano for 1 to 6 players, gathered in a lobby; solitaire best scores per opening and layout."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import discord_app, solitaire
from bot import discord_limits as limits
from bot.clock import CLOCK_HELP
from bot.cogs.base import server_id
from bot.cogs.lobby import LobbyCog
from bot.cogs.options import describe, suggest
from bot.games.volcano import VOLCANO

OPENING, LAYOUT = VOLCANO.options.named("opening"), VOLCANO.options.named("layout")


class VolcanoCog(LobbyCog, group_name="volcano", group_description="Volcano: caps, eruptions and captures, 1 to 6"):
    game_key = "volcano"
    continues_turns = True  # a turn is steps until an eruption, and nothing in Volcano is left to chance

    @app_commands.command(description="Open a Volcano lobby: others join, you start (alone: solitaire)")
    @app_commands.describe(**describe(VOLCANO), clock=CLOCK_HELP)
    async def new(
        self,
        interaction: discord.Interaction,
        opening: str | None = None,
        layout: str | None = None,
        clock: str | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"opening": opening, "layout": layout}, clock)

    @new.autocomplete("opening")
    async def opening_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return suggest(OPENING, current)

    @new.autocomplete("layout")
    async def layout_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return suggest(LAYOUT, current)

    @app_commands.command(description="The best solitaire scores in this server, per opening and layout")
    @app_commands.describe(opening="only this opening (default: all)")
    async def best(self, interaction: discord.Interaction, opening: str | None = None) -> None:
        bests = await solitaire.best_scores(self.service, server_id(interaction), opening)
        await interaction.response.send_message(
            limits.and_more(solitaire.best_lines(bests, opening)), allowed_mentions=limits.NOBODY
        )

    @best.autocomplete("opening")
    async def best_opening_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return suggest(OPENING, current)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(VolcanoCog(bot))
