"""Commands about a player rather than one match: /notify (how reminders of your turn come), /mygames
(your running matches here, your turn first) and /away, /back (away time: bot/service/away.py). All answer
only the one who asked."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app, discord_ids, posts
from bot import discord_limits as limits
from bot.cogs import command_name, start_commands
from bot.cogs.base import server_id
from bot.i18n import N_, _
from bot.service import AWAY_DAYS, AwayAnswer

NOTIFY_CHOICES = [
    app_commands.Choice(name="dm: a direct message with a link to the board", value="dm"),
    app_commands.Choice(name="thread: a mention in the match's thread (the default)", value="thread"),
    app_commands.Choice(name="off: no reminders", value="off"),
]
NOTIFY_SAID = {
    "dm": N_(
        "Reminders of your turn now come by direct message, in every server: one message with a link to the "
        "board, one listing them all when several games await you, at most one an hour. If Discord refuses it "
        "(your DMs are closed), the reminder goes to the match's thread and your choice goes back to thread."
    ),
    "thread": N_("Reminders of your turn now come in the match's thread, mentioning you (in every server)."),
    "off": N_(
        "You now get no reminders of your turn (in every server); a new board still mentions you when it is your turn."
    ),
}
"""What /notify answers: the choice and what it means (said with `_`)."""


class PlayersCog(commands.Cog):
    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How the bot reminds you of your turn in a long game")
    @app_commands.describe(mode="dm, thread (the default) or off; one choice for every server")
    @app_commands.choices(mode=NOTIFY_CHOICES)
    async def notify(self, interaction: discord.Interaction, mode: str) -> None:
        player = discord_ids.player(interaction.user)
        chosen = await self.bot.matches.reminding.choose(player.id, mode)
        await interaction.response.send_message(_(NOTIFY_SAID[chosen]), ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(name="mygames", description="Your running matches in this server, your turn first")
    @app_commands.describe(page="which page of the list, when it is long (default 1)")
    async def mygames(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        player = discord_ids.player(interaction.user)
        found = self.bot.matches.registry.turns_first(player.id, server_id(interaction))
        if found:
            lines = posts.my_games_lines(self.bot.matches, found, player.id, discord=True)
            text = limits.page(lines, page, command="/mygames")
        else:
            text = no_games()
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(name="away", description="Stop the clocks of your long games here while you are away")
    @app_commands.describe(
        days=f"how many days from now ({AWAY_DAYS[0]} to {AWAY_DAYS[1]}; the server sets how many a year)"
    )
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 14]) -> None:
        guild_id = server_id(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # each match's thread is told first
        answer = await self.bot.matches.away.go_away(discord_ids.player(interaction.user), guild_id, days)
        said = posts.away_answer(
            answer.period.until, self._named(answer), answer.left, answer.extended, command_name("back")
        )
        await interaction.followup.send(limits.clip("\n".join(said)), ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(name="back", description="End your away time now: your clocks run again")
    async def back(self, interaction: discord.Interaction) -> None:
        guild_id = server_id(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        answer = await self.bot.matches.away.come_back(discord_ids.player(interaction.user), guild_id)
        taken = answer.period.taken(answer.period.ended_at or answer.period.until)
        said = posts.back_answer(taken, self._named(answer), answer.left)
        await interaction.followup.send(limits.clip(said), ephemeral=True, allowed_mentions=limits.NOBODY)

    def _named(self, answer: AwayAnswer) -> list[str]:
        """The matches of an answer as `#3 Themiscyra`, for the player's reply."""
        named = []
        for match_id in answer.matches:
            match = self.bot.matches.running_match(match_id)
            named.append(f"#{match_id} {self.bot.matches.game(match).title}" if match else f"#{match_id}")
        return named


def no_games() -> str:
    return _("You have no running matches in this server. Start one with {commands}.").format(commands=start_commands())


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(PlayersCog(bot))
