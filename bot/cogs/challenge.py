"""The Accept button of a challenge (`/<game> challenge`): restart-proof, it carries the whole challenge."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord

from bot import discord_ids
from bot.clock import ClockSettings
from bot.cogs.places import match_channel_refusal
from bot.models import Place
from bot.service import ServiceError
from bot.views import Guarded, defer_public, service_of

CHALLENGE = r"challenge:(?P<game>[a-z]+):(?P<by>\d+):(?P<to>\d+):(?P<move>\d+):(?P<reserve>\d+)"


class AcceptChallengeButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CHALLENGE):
    """Only the challenged player may accept; the match starts in the channel of the challenge.

    The clock rides in the custom_id (0/0 for none), so a challenge needs no storage until accepted.
    """

    def __init__(self, game: str, by: int, to: int, clock: ClockSettings | None) -> None:
        move, reserve = (int(clock.move_seconds), int(clock.reserve_seconds)) if clock else (0, 0)
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.success,
                custom_id=f"challenge:{game}:{by}:{to}:{move}:{reserve}",
            )
        )
        self.game, self.by, self.to, self.clock = game, by, to, clock

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AcceptChallengeButton:
        move = int(match["move"])
        clock = ClockSettings(move, int(match["reserve"])) if move else None
        return cls(match["game"], int(match["by"]), int(match["to"]), clock)

    async def check(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.to:
            raise ServiceError(f"Only <@{self.to}> can accept this challenge.")
        if interaction.guild is None or interaction.channel is None:
            raise ServiceError("Challenges are accepted in a server channel.")
        if (why := match_channel_refusal(interaction)) is not None:
            raise ServiceError(why)

    async def act(self, interaction: discord.Interaction) -> None:
        assert interaction.guild is not None and interaction.channel is not None  # check() saw to it
        try:
            challenger = interaction.guild.get_member(self.by) or await interaction.guild.fetch_member(self.by)
        except discord.NotFound:
            await interaction.response.edit_message(
                content="This challenge is void: the challenger has left the server.", view=None
            )
            return
        message_id = interaction.message.id if interaction.message is not None else interaction.id
        # the stored challenge decides who may accept, not only the custom_id; before answering in public
        await service_of(interaction).check_challenge(message_id, discord_ids.player(interaction.user))
        await defer_public(interaction)
        match = await service_of(interaction).create_match(
            self.game,
            [discord_ids.player(challenger), discord_ids.player(interaction.user)],
            clock=self.clock,
            place=Place(interaction.guild.id, interaction.channel.id),
            challenge=message_id,  # a second click, even a simultaneous one, is refused here
        )
        if interaction.message is not None:
            with contextlib.suppress(discord.HTTPException):  # gone meanwhile: the match is on all the same
                await interaction.message.edit(view=None)
        await interaction.followup.send(f"Match #{match.id} is on: {discord_ids.where(match)}.")
