"""/geyser: Geyser for 2 to 4 players, gathered in a lobby. Steps are typed (with autocomplete); a
starting square, the new token after a claim and retreat / again after a tied battle are buttons or a
menu under the board (bot/views.py), and every firing phase is posted as a message of its own."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import discord_app
from bot.clock import CLOCK_HELP
from bot.cogs.lobby import LobbyCog
from bot.cogs.options import choices, describe
from bot.games.geyser import GEYSER

TOKENS, ROUNDS = GEYSER.options.named("tokens"), GEYSER.options.named("rounds")


class GeyserCog(LobbyCog, group_name="geyser", group_description="Geyser: dice, battles and rings of geysers, 2 to 4"):
    game_key = "geyser"

    @app_commands.command(description="Open a Geyser lobby for 2 to 4 players; you start it when they have joined")
    @app_commands.describe(**describe(GEYSER), clock=CLOCK_HELP)
    @app_commands.choices(**choices(GEYSER))
    async def new(
        self,
        interaction: discord.Interaction,
        seven: str | None = None,
        tokens: app_commands.Range[int, TOKENS.minimum, TOKENS.maximum] | None = None,
        rounds: app_commands.Range[int, ROUNDS.minimum, ROUNDS.maximum] | None = None,
        clock: str | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"seven": seven, "tokens": tokens, "rounds": rounds}, clock)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(GeyserCog(bot))
