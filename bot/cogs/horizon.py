"""/horizon: Event Horizon for two, the game with hidden hands.

Everything public (board posts, /horizon board, history, event text) is drawn or written from the
spectator's view, so it shows card backs only. A player's own cards reach them only ephemerally:
/horizon hand (a picture from their own view) and /horizon play, which places a card through two
menus (a card from the hand, then an empty space). The menus are DynamicItems whose custom_id carries
the match, the board's ply and the chosen card, so they need no memory and are refused once stale.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands

from bot import discord_app, discord_ids, views
from bot.cogs import command_name
from bot.cogs.base import Refusal, TwoPlayerCog
from bot.games.horizon import HORIZON, said_card
from bot.i18n import _
from bot.models import Match, Place
from bot.service import MatchService, ServiceError
from bot.views import Guarded, match_home, number
from renderers import Caption, describe, render


def _seat(match: Match, interaction: discord.Interaction) -> int:
    seats = match.seats_of(discord_ids.player(interaction.user).id)
    if not seats:
        raise Refusal(
            _("You are not playing in match #{number}: only its players have a hand.").format(number=match.id)
        )
    return seats[0]


def hand_text(match: Match, seat: int) -> str:
    """A player's private summary (ephemeral only): the hand, and the face-down cards they know."""
    return "\n".join(line.format(*match.names) for line in HORIZON.private_lines(match.state, seat))


def card_menu(match: Match, seat: int) -> discord.ui.View | None:
    cards = sorted({c for c in match.state.hands[seat] if c != "SW"})
    if not cards or HORIZON.to_move(match.state) != seat:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(CardSelect(match.id, match.ply, cards))
    return view


class CardSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"hz-card:(?P<match>\d+):(?P<ply>\d+)"
):
    """Step 1 of placing a card: which card (the options are the clicker's own hand, ephemeral)."""

    def __init__(self, match_id: int, ply: int, cards: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=said_card(c), value=c) for c in cards or ["T1"]]
        super().__init__(
            discord.ui.Select(
                placeholder=_("A card from your hand…"), options=options, custom_id=f"hz-card:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> CardSelect:
        return cls(number(match["match"]), number(match["ply"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def check(self, interaction: discord.Interaction) -> None:
        await menu_check(interaction, self.match_id, self.ply)

    async def act(self, interaction: discord.Interaction) -> None:
        service: MatchService = interaction.client.matches  # type: ignore[attr-defined]
        card = str(((interaction.data or {}).get("values") or [""])[0])
        match = await service.get(self.match_id)
        seat = match.seats_of(discord_ids.player(interaction.user).id)
        places = [m for m in HORIZON.legal(match.state) if m.kind == "place" and m.card == card]
        if not places:
            raise ServiceError(_("That card cannot be placed now."))
        other = match.players[1 - seat[0]].name
        options = [
            discord.SelectOption(
                label=_("your space {space}").format(space=m.space)
                if m.mine
                else _("{name}'s space {space}").format(name=other, space=m.space),
                value=f"{'me' if m.mine else 'opp'}:{m.space}",  # the space as the notation writes it
            )
            for m in places
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(SpaceSelect(self.match_id, self.ply, card, options))
        asked = _("Place {card} face down on which space?").format(card=said_card(card))
        await interaction.response.edit_message(content=asked, view=view)


async def menu_check(interaction: discord.Interaction, match_id: int, ply: int) -> None:
    """A menu is for the player to move, on the board it was sent for."""
    service: MatchService = interaction.client.matches  # type: ignore[attr-defined]
    match = await service.get(match_id)
    if match.ply != ply or not match.running:
        raise ServiceError(
            _("The board has changed since this menu was sent: use {command} again.").format(
                command=command_name("horizon", "play")
            )
        )
    seat = match.seats_of(discord_ids.player(interaction.user).id)
    if HORIZON.to_move(match.state) not in seat:  # the clicker, not the menu, decides whose hand this is
        raise ServiceError(_("It is not your turn: this menu is for the player to move."))


class SpaceSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"hz-space:(?P<match>\d+):(?P<ply>\d+):(?P<card>[A-Z0-9]{2})",
):
    """Step 2: which empty space; then the move goes through the service like a typed one."""

    def __init__(self, match_id: int, ply: int, card: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=_("An empty space…"),
                options=options or [discord.SelectOption(label="me:1", value="me:1")],
                custom_id=f"hz-space:{match_id}:{ply}:{card}",
            )
        )
        self.match_id, self.ply, self.card = match_id, ply, card

    @classmethod
    def from_match(cls, match: re.Match[str]) -> SpaceSelect:
        return cls(number(match["match"]), number(match["ply"]), match["card"])

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        space = str(((interaction.data or {}).get("values") or [""])[0])
        await views.play(interaction, self.match_id, f"place {self.card} {space}", self.ply)


class HorizonCog(TwoPlayerCog, group_name="horizon", group_description="Event Horizon: race out of a black hole, 2"):
    game_key = "horizon"
    components = (*TwoPlayerCog.components, CardSelect, SpaceSelect)
    left_out = (
        ("first", "drawn from the seed (terminal: --first)"),
        ("turn_cap", "200 turns each (terminal: --turn-cap)"),
    )

    @app_commands.command(description="Your hand and the cards you know, as a picture only you see")
    @app_commands.describe(match="match number, if you play several")
    async def hand(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        seat = _seat(found, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        caption = Caption(names=found.names, header=_("Match #{number} · only you see this").format(number=found.id))
        png = await asyncio.to_thread(render, self.game_key, found.state, seat, caption=caption)
        described = describe(self.game_key, found.state, caption, viewer=seat)  # its owner's cards, no one else's
        picture = discord.File(io.BytesIO(png), filename="hand.png", description=described)
        await interaction.followup.send(hand_text(found, seat), file=picture, ephemeral=True)

    @app_commands.command(description="Place a card from your hand face down: pick the card, then the space")
    @app_commands.describe(match="match number, if you play several")
    async def play(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        seat = _seat(found, interaction)
        if HORIZON.to_move(found.state) != seat:
            raise Refusal(_("It is not your turn."))
        menu = card_menu(found, seat)
        if menu is None:
            raise Refusal(
                _("You have no card to place: play Swap or pass with {command}.").format(
                    command=command_name("horizon", "move")
                )
            )
        await interaction.response.send_message(hand_text(found, seat), view=menu, ephemeral=True)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(HorizonCog(bot))
