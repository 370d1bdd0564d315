"""The Accept and Decline buttons of a takeback request (`/<game> takeback`): restart-proof, each carries the
match, the ply it was asked on, the requester's seat and when it expires; who accepted is the service's
(the `takebacks` table), so a click after a restart counts like any other."""

from __future__ import annotations

import math
import re
from typing import Any

import discord

from bot import discord_ids
from bot.i18n import _
from bot.models import Place, Takeback
from bot.service import ServiceError
from bot.views import Guarded, match_home, number, service_of

TAKEBACK = r"takeback:(?P<answer>yes|no):(?P<match>\d+):(?P<ply>\d+):(?P<seat>\d+):(?P<until>\d+)"


class TakebackButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TAKEBACK):
    """Accept (`yes`) or Decline (`no`): only the other players may press; the service checks the rest
    (still open, on this ply, one of those asked, not answered yet)."""

    def __init__(self, answer: str, match_id: int, ply: int, seat: int, until: int) -> None:
        accept = answer == "yes"
        super().__init__(
            discord.ui.Button(
                label=_("Accept") if accept else _("Decline"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"takeback:{answer}:{match_id}:{ply}:{seat}:{until}",
            )
        )
        self.accept, self.match_id, self.ply, self.seat, self.until = accept, match_id, ply, seat, until

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TakebackButton:
        numbers = (number(match[field]) for field in ("match", "ply", "seat", "until"))
        return cls(match["answer"], *numbers)

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def check(self, interaction: discord.Interaction) -> None:
        match = await service_of(interaction).get(self.match_id)
        seats = match.seats_of(discord_ids.player(interaction.user).id)
        if not seats:
            raise ServiceError(
                _("Only the players of match #{number} answer its takeback requests.").format(number=match.id)
            )
        if self.seat in seats:
            raise ServiceError(_("You asked for this takeback: the others answer it."))
        if interaction.created_at.timestamp() >= self.until:
            raise ServiceError(_("This takeback request has expired."))

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # an acceptance reposts the board
        me = discord_ids.player(interaction.user)
        service = service_of(interaction)
        notice = await service.takebacks.answer(self.match_id, me.id, self.accept, ply=self.ply, seat=self.seat)
        await interaction.followup.send(notice.lines[0], ephemeral=True)


def takeback_view(takeback: Takeback) -> discord.ui.View:
    """The request's buttons (its expiry rounded up to the second: a button never refuses what the service
    would still take)."""
    view = discord.ui.View(timeout=None)
    until = math.ceil(takeback.expires_at)
    for answer in ("yes", "no"):
        view.add_item(TakebackButton(answer, takeback.match_id, takeback.ply, takeback.seat, until))
    return view
