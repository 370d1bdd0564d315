"""/volcano: Volcano for 1 to 6 players, gathered in a lobby; solitaire best scores per opening and layout."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import discord_app, solitaire
from bot import discord_limits as limits
from bot.cogs.base import server_id
from bot.cogs.lobby import LobbyCog
from bot.games.volcano import OPENINGS

LAYOUTS = ("latin", "classic")


def _suggest(names: tuple[str, ...], current: str) -> list[app_commands.Choice[str]]:
    """The named values starting with what was typed; anything else (five squares, 25 letters) as typed."""
    typed = current.strip()
    found = [n for n in names if n.startswith(typed.lower())] or ([typed[:100]] if typed else [])
    return [app_commands.Choice(name=n, value=n) for n in found]


class VolcanoCog(LobbyCog, group_name="volcano", group_description="Volcano: caps, eruptions and captures, 1 to 6"):
    game_key = "volcano"
    continues_turns = True  # a turn is steps until an eruption, and nothing in Volcano is left to chance

    @app_commands.command(description="Open a Volcano lobby: others join, you start (alone: solitaire)")
    @app_commands.describe(
        opening="where the caps start: diagonal (default), cross, x, corners, line, or five squares",
        layout="colours of the nests: latin (random, default), classic, or 25 letters R Y G B C from a1 to e5",
    )
    async def new(
        self, interaction: discord.Interaction, opening: str | None = None, layout: str | None = None
    ) -> None:
        await self.open_lobby(interaction, {"opening": opening, "layout": layout})

    @new.autocomplete("opening")
    async def opening_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _suggest(tuple(OPENINGS), current)

    @new.autocomplete("layout")
    async def layout_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _suggest(LAYOUTS, current)

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
        return _suggest(tuple(OPENINGS), current)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(VolcanoCog(bot))
