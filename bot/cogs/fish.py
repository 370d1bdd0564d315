"""/fish: "1, 2, 3" (Hey, That's My Fish!). The shared game commands, plus /fish dm for moderators."""

from __future__ import annotations

import discord
from discord import app_commands

from bot import discord_app, discord_ids, i18n, views
from bot import discord_limits as limits
from bot.clock import MOVE_SECONDS, RESERVE_SECONDS, ClockSettings
from bot.cogs.base import Refusal, TwoPlayerCog, in_public
from bot.cogs.mod import require_moderator
from bot.cogs.places import match_channel_refusal
from bot.i18n import _
from bot.models import Place, Player, computer
from bot.service import DM_CLOCK


class FishCog(TwoPlayerCog, group_name="fish", group_description='"1, 2, 3": Hey, That\'s My Fish! for two'):
    game_key = "fish"
    left_out = (
        ("first", "the challenger places first; /fish dm names who does (terminal: --first)"),
        ("board", "60 digits would not fit in the challenge's button (terminal: --board)"),
    )

    @app_commands.command(description="Moderators: start a best-of-3 death match (30 s a move + 60 s reserve)")
    @app_commands.describe(
        player1="first player",
        player2="second player",
        first="who places first in game 1 (it alternates after)",
        move_seconds="seconds a move (default 30)",
        reserve_seconds="reserve seconds per game (default 60)",
    )
    async def dm(
        self,
        interaction: discord.Interaction,
        player1: discord.Member,
        player2: discord.Member,
        first: discord.Member,
        move_seconds: app_commands.Range[int, MOVE_SECONDS[0], MOVE_SECONDS[1]] = int(DM_CLOCK.move_seconds),
        reserve_seconds: app_commands.Range[int, RESERVE_SECONDS[0], RESERVE_SECONDS[1]] = int(
            DM_CLOCK.reserve_seconds
        ),
    ) -> None:
        require_moderator(interaction)
        if player1.id == player2.id:
            raise Refusal(_("A death match needs two different players."))
        me = self.bot.user.id if self.bot.user is not None else None
        if any(p.bot and p.id != me for p in (player1, player2)):
            raise Refusal(_("Other bots cannot play; choose me for a computer player (normal level)."))
        if first.id not in (player1.id, player2.id):
            raise Refusal(_("{name} is not one of the two players.").format(name=discord_ids.player(first).name))
        assert interaction.guild is not None and interaction.channel is not None
        if (why := match_channel_refusal(interaction)) is not None:
            raise Refusal(why)
        await views.defer_public(interaction)
        series = await self.service.create_series(  # the house-wins wording and the channel: the server's settings
            self.game_key,
            [seat_for(player1, me), seat_for(player2, me)],
            first=0 if first.id == player1.id else 1,
            clock=ClockSettings(move_seconds, reserve_seconds),
            place=Place(interaction.guild.id, interaction.channel.id),
        )
        match = await self.service.get(series.games[0])
        with in_public(interaction):
            said = _(
                "{name} started a best-of-{count} death match: {player1} vs {player2}, {first} places first."
                " Follow it in {place}."
            ).format(
                name=discord_ids.player(interaction.user).name,
                count=i18n.number(series.best_of),
                player1=player1.mention,
                player2=player2.mention,
                first=first.mention,
                place=discord_ids.where(match),
            )
        await views.announce(
            interaction, said, allowed_mentions=limits.pinging(*(p.id for p in (player1, player2) if p.id != me))
        )


def seat_for(member: discord.Member, bot_id: int | None) -> Player:
    """A death-match seat: the member, or a computer when the moderator chose the bot itself."""
    return computer("normal") if member.id == bot_id else discord_ids.player(member)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(FishCog(bot))
