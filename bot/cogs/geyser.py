"""/geyser: Geyser for 2 to 4 players, gathered in a lobby. Steps are typed (with autocomplete); a
starting square, the new token after a claim and retreat / again after a tied battle are buttons or a
menu under the board (bot/views.py), and every firing phase is posted as a message of its own."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot import discord_app
from bot.cogs.lobby import LobbyCog


class GeyserCog(LobbyCog, group_name="geyser", group_description="Geyser: dice, battles and rings of geysers, 2 to 4"):
    game_key = "geyser"

    @app_commands.command(description="Open a Geyser lobby for 2 to 4 players; you start it when they have joined")
    @app_commands.describe(
        seven="what a 7 fires: the Mother Geyser (default) or nothing (calm)",
        tokens="tokens each player has, the starting one included (default 12)",
        rounds="rounds before the game ends and the most geysers held win (default 100)",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        seven: Literal["mother", "calm"] | None = None,
        tokens: app_commands.Range[int, 1, 40] | None = None,
        rounds: app_commands.Range[int, 10, 1000] | None = None,
    ) -> None:
        await self.open_lobby(interaction, {"seven": seven, "tokens": tokens, "rounds": rounds})


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(GeyserCog(bot))
