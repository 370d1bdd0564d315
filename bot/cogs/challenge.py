"""The Accept button of a challenge (`/<game> challenge`): restart-proof, it names the stored challenge.

The challenge is stored whole when sent (game, players, clock, channel; bot/service/challenges.py) under
the id of the command that sent it, and the button carries only that id: what it starts is read from the
store, so a button whose custom_id was tampered with can name a challenge, never make one up.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import discord_ids, i18n
from bot import discord_limits as limits
from bot.clock import ClockSettings
from bot.cogs import command_name
from bot.cogs.places import match_channel_refusal
from bot.discord_i18n import public_language
from bot.i18n import _
from bot.models import Challenge, Place
from bot.service import ServiceError
from bot.views import Guarded, number, service_of

CHALLENGE = r"challenge:(?P<id>\d+)"
BEFORE_STORED = r"challenge:(?P<game>[a-z]+):\d+:\d+:\d+:\d+"
"""The custom_id of challenges sent before they were stored: game, challenger, challenged and clock."""


class AcceptChallengeButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=CHALLENGE):
    """Only the challenged player may accept, in the channel of the challenge, where the match starts."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Accept"), style=discord.ButtonStyle.success, custom_id=f"challenge:{challenge_id}"
            )
        )
        self.challenge_id = challenge_id
        self.challenge: Challenge | None = None

    @classmethod
    def from_match(cls, match: re.Match[str]) -> AcceptChallengeButton:
        return cls(number(match["id"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        self.challenge = await service_of(interaction).challenges.get_challenge(self.challenge_id)
        return self.challenge.place

    async def check(self, interaction: discord.Interaction) -> None:
        # the stored challenge decides who may accept; before answering in public
        await service_of(interaction).challenges.check_challenge(
            self.challenge_id, discord_ids.player(interaction.user)
        )
        if (why := match_channel_refusal(interaction)) is not None:
            raise ServiceError(why)

    async def act(self, interaction: discord.Interaction) -> None:
        challenge = self.challenge
        assert challenge is not None and challenge.game is not None and challenge.by_id is not None  # home()
        assert interaction.guild is not None and interaction.channel is not None  # home(): its server, its channel
        await interaction.response.defer()  # answered first (an update of the challenge, shown on success)
        service = service_of(interaction)
        public = public_language(service.settings.language(interaction.guild.id), interaction.guild)
        try:
            by = number(challenge.by_id.removeprefix("discord:"))
            challenger = interaction.guild.get_member(by) or await interaction.guild.fetch_member(by)
        except discord.NotFound:
            with i18n.using(public):  # the challenge is public: the server's language
                void = _("This challenge is void: the challenger has left the server.")
            await interaction.edit_original_response(content=void, view=None)
            return
        match = await service.create_match(
            challenge.game,
            [discord_ids.player(challenger), discord_ids.player(interaction.user)],
            clock=challenge.clock,
            place=Place(interaction.guild.id, interaction.channel.id),
            challenge=challenge.id,  # a second click, even a simultaneous one, is refused here
        )
        with i18n.using(public):  # the challenge as it was posted (in the server's language), and that it is on
            asked = challenge_text(
                interaction.user.mention, challenger.mention, service.game(match).title, challenge.clock
            )
            on = _("Match #{number} is on: {place}.").format(number=match.id, place=discord_ids.where(match))
        try:  # the challenge says so itself, through the interaction's webhook: no channel rate limit
            await interaction.edit_original_response(
                content=limits.clip(f"{asked}\n{on}"), view=None, allowed_mentions=limits.NOBODY
            )
        except discord.HTTPException:  # deleted meanwhile: the match is on all the same
            await interaction.followup.send(on, allowed_mentions=limits.NOBODY)


def challenge_text(opponent: str, challenger: str, title: str, settings: ClockSettings | None) -> str:
    """The public challenge: `@Bob, @Alice challenges you to Volcano (with a clock).`"""
    if settings is None:
        return _("{opponent}, {challenger} challenges you to {game}.").format(
            opponent=opponent, challenger=challenger, game=title
        )
    return _("{opponent}, {challenger} challenges you to {game} with {clock}.").format(
        opponent=opponent, challenger=challenger, game=title, clock=settings.describe()
    )


class ChallengeBeforeStoredButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BEFORE_STORED):
    """The Accept button of a challenge sent before challenges were stored: what it says cannot be trusted
    and nothing stored says otherwise, so it is refused and the challenger asked to challenge again."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"challenge:{game}:0:0:0:0"))  # never posted again
        self.game = game

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ChallengeBeforeStoredButton:
        return cls(match["game"])

    async def home(self, interaction: discord.Interaction) -> Place:
        raise ServiceError(
            _(
                "This challenge was sent before the bot's update and can no longer be accepted: ask for a new one"
                " (`{command}`)."
            ).format(command=command_name(self.game, "challenge"))
        )
