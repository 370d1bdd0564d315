"""/themiscyra: Themiscyra for two. The shared commands, a board that can shade the open areas, and a
move autocomplete that offers stone pairs first, then the complete turns of the pair typed."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot import discord_app
from bot.cogs.base import TEXT_HELP, TwoPlayerCog
from bot.games.themiscyra import SQUARE_NAMES, THEMISCYRA

_SQUARE = re.compile(r"[a-j](?:10|[1-9])(?!\d)")


class ThemiscyraCog(TwoPlayerCog, group_name="themiscyra", group_description="Themiscyra: stones and rings on 10x10"):
    game_key = "themiscyra"

    @app_commands.command(description="Show the board of a match; areas shades the open areas rings move through")
    @app_commands.describe(
        match="match number (default: this thread's match or yours)", areas="shade the open areas", text=TEXT_HELP
    )
    async def board(
        self, interaction: discord.Interaction, match: int | None = None, areas: bool = False, text: bool = False
    ) -> None:
        await self.show_board(interaction, match, frozenset({"areas"}) if areas else frozenset(), text=text)

    def suggest(self, state: Any, current: str) -> list[tuple[str, bool]]:
        """Stone pairs (partial: no ply) until two stones are typed, then that pair's complete turns."""
        typed = current.lower()
        squares = _SQUARE.findall(typed)
        turns = THEMISCYRA.turns(state)
        if len(squares) >= 2 and squares[0] != squares[1]:
            pair = sorted(squares[:2], key=lambda n: (n[0], int(n[1:])))
            rest = squares[2:]
            return [
                (str(turn), True)
                for turn in turns
                if [SQUARE_NAMES[s] for s in turn.stones] == pair
                and all(square in str(turn).split(" ", 2)[2] for square in rest)
            ]
        first = squares[0] if squares else typed.strip()
        pairs: dict[str, None] = {}
        for turn in turns:
            names = [SQUARE_NAMES[s] for s in turn.stones]
            if any(name.startswith(first) for name in names):
                pairs.setdefault(" ".join(names))
        return [(pair, False) for pair in pairs]


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(ThemiscyraCog(bot))
