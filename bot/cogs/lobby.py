"""Games of one or of more than two players gather in a lobby first: `/<game> new`, join, leave, start.

A game's cog subclasses `LobbyCog` and writes its own `new` command (its options differ from game to
game), which calls `open_lobby`. The lobby message carries the Join / Leave / Add computer / Start buttons defined here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot import discord_ids, posts, views
from bot.cogs import command_name
from bot.cogs.base import LEVEL_CHOICES, GameCog, Refusal, clock_or_default, in_public, server_id
from bot.cogs.places import match_channel_refusal
from bot.i18n import N_, _
from bot.models import OPEN, Lobby, Place, Player

LOBBY_BUTTONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "computer": (N_("Add computer"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
}
"""Each button's label (said with `_` where the lobby is posted: the server's language) and style."""


def lobby_view(lobby: Lobby) -> discord.ui.View | None:
    """Join, Leave and Start under an open lobby; nothing once it has started or been cancelled."""
    if lobby.status != OPEN:
        return None
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(action, lobby.id))
    return view


class LobbyButton(
    views.Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lobby:(?P<action>join|leave|computer|start):(?P<id>\d+)",
):
    """The lobby message's buttons; the service checks who may do what (only the creator adds a computer,
    at the normal level, or starts)."""

    def __init__(self, action: str, lobby_id: int) -> None:
        label, style = LOBBY_BUTTONS[action]
        super().__init__(discord.ui.Button(label=_(label), style=style, custom_id=f"lobby:{action}:{lobby_id}"))
        self.action, self.lobby_id = action, lobby_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> LobbyButton:
        return cls(match["action"], views.number(match["id"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        lobby: Lobby = await views.service_of(interaction).lobbies.get_lobby(self.lobby_id)
        return lobby.place

    async def act(self, interaction: discord.Interaction) -> None:
        service = views.service_of(interaction)
        me = discord_ids.player(interaction.user)
        match = None
        if self.action == "join":
            lobby = await service.lobbies.join_lobby(self.lobby_id, me)
        elif self.action == "leave":
            lobby = await service.lobbies.leave_lobby(self.lobby_id, me)
        elif self.action == "computer":
            lobby = await service.lobbies.add_computer(self.lobby_id, me)
        else:
            if (why := match_channel_refusal(interaction)) is not None:
                raise Refusal(why)  # before the deferral: the refusal stays private
            await interaction.response.defer()  # the first board is posted before the game is on
            match = await service.lobbies.start_lobby(self.lobby_id, me)
            lobby = await service.lobbies.get_lobby(self.lobby_id)
        with in_public(interaction):  # the lobby message is public: the server's language
            text = "\n".join(posts.lobby_lines(service, lobby, f"/{lobby.game}"))
            view = lobby_view(lobby)
            on = "" if match is None else _("Match #{number} is on: {place}.")
            on = on.format(number=match.id, place=discord_ids.where(match)) if match is not None else on
        none = discord.AllowedMentions.none()
        if match is None:
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=none)
            return
        await interaction.edit_original_response(content=text, view=None, allowed_mentions=none)
        await interaction.followup.send(on)


class LobbyCog(GameCog):
    """The lobby commands and buttons; `new` is the subclass's."""

    components = (*GameCog.components, LobbyButton)

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], clock: str | None = None
    ) -> None:
        """Open a lobby here with the given engine options and `clock:` (bad ones are refused now) and post
        it; the clock is every seat's in the game it starts."""
        if interaction.guild is None or interaction.channel is None:
            raise Refusal(_("Lobbies are opened in a server channel."))
        if (why := match_channel_refusal(interaction)) is not None:
            raise Refusal(why)
        lobby = await self.service.lobbies.open_lobby(
            self.game_key,
            discord_ids.player(interaction.user),
            options={k: v for k, v in options.items() if v is not None},
            clock=clock_or_default(self.service, interaction, clock),
            place=Place(interaction.guild.id, interaction.channel.id),
        )
        await self._show(interaction, lobby)

    async def _show(self, interaction: discord.Interaction, lobby: Lobby, *firsts: tuple[str, str]) -> None:
        """The lobby posted (publicly: in the server's language), after `first` (who joined or left, said in
        it too)."""
        with in_public(interaction):
            lines = posts.lobby_lines(self.service, lobby, f"/{self.game_key}")
            said = [_(first).format(name=name) for first, name in firsts]
            view = lobby_view(lobby) or discord.utils.MISSING
        await interaction.response.send_message(
            "\n".join([*said, *lines]), view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def _lobby(
        self, interaction: discord.Interaction, lobby_id: int | None, fits: Callable[[Lobby], bool], none: str
    ) -> Lobby:
        """The lobby named, or the only open one here that `fits`; `none` says what to do if there is none."""
        if lobby_id is not None:
            lobby = await self.service.lobbies.get_lobby(lobby_id)
            if lobby.place.guild_id != server_id(interaction) or lobby.game != self.game_key:
                raise Refusal(_("There is no {game} lobby #{number} here.").format(game=self.title, number=lobby_id))
            return lobby
        found = [
            lobby
            for lobby in await self.service.lobbies.open_lobbies(server_id(interaction))
            if lobby.game == self.game_key and fits(lobby)
        ]
        if len(found) == 1:
            return found[0]
        if found:
            ids = ", ".join(f"#{lobby.id}" for lobby in found)
            raise Refusal(
                _("There are several {game} lobbies ({lobbies}): add `lobby:` to say which.").format(
                    game=self.title, lobbies=ids
                )
            )
        raise Refusal(none)

    async def _own_lobby(self, interaction: discord.Interaction, me: Player, lobby_id: int | None) -> Lobby:
        """The lobby named, or the only open one `me` created."""
        return await self._lobby(
            interaction,
            lobby_id,
            lambda lb: lb.creator.id == me.id,
            _("You have no open {game} lobby: open one with `{command}`.").format(
                game=self.title, command=command_name(self.game_key, "new")
            ),
        )

    @app_commands.command(description="Join an open lobby")
    @app_commands.describe(lobby="lobby number (default: the one open in this channel)")
    async def join(self, interaction: discord.Interaction, lobby: int | None = None) -> None:
        me = discord_ids.player(interaction.user)
        found = await self._lobby(
            interaction,
            lobby,
            lambda lb: lb.place.channel_id == interaction.channel_id and not lb.has(me.id),
            _("There is no {game} lobby to join in this channel: open one with `{command}`.").format(
                game=self.title, command=command_name(self.game_key, "new")
            ),
        )
        joined = await self.service.lobbies.join_lobby(found.id, me)
        await self._show(interaction, joined, (JOINED, me.name))

    @app_commands.command(description="Add a computer player to the lobby you opened")
    @app_commands.describe(
        level="how hard it plays (default normal)", lobby="lobby number (default: the one you opened)"
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def computer(self, interaction: discord.Interaction, level: str = "normal", lobby: int | None = None) -> None:
        me = discord_ids.player(interaction.user)
        found = await self._own_lobby(interaction, me, lobby)
        added = await self.service.lobbies.add_computer(found.id, me, level)
        await self._show(interaction, added, (JOINED, added.players[-1].name))

    @app_commands.command(description="Leave a lobby (when its creator leaves, it is cancelled)")
    @app_commands.describe(lobby="lobby number (default: the one you are in)")
    async def leave(self, interaction: discord.Interaction, lobby: int | None = None) -> None:
        me = discord_ids.player(interaction.user)
        found = await self._lobby(
            interaction,
            lobby,
            lambda lb: lb.has(me.id),
            _("You are not in an open {game} lobby.").format(game=self.title),
        )
        left = await self.service.lobbies.leave_lobby(found.id, me)
        await self._show(interaction, left, (LEFT, me.name))

    @app_commands.command(description="Start your lobby's game with everyone who joined (alone: solitaire)")
    @app_commands.describe(lobby="lobby number (default: the one you opened)")
    async def start(self, interaction: discord.Interaction, lobby: int | None = None) -> None:
        me = discord_ids.player(interaction.user)
        found = await self._own_lobby(interaction, me, lobby)
        if (why := self.service.lobbies.start_refusal(found, me) or match_channel_refusal(interaction)) is not None:
            raise Refusal(why)  # before the public deferral: private
        await views.defer_public(interaction)  # the first board is posted before we answer
        match = await self.service.lobbies.start_lobby(found.id, me)
        with in_public(interaction):
            on = _("{game} #{number} is on: {place}.").format(
                game=self.title, number=match.id, place=discord_ids.where(match)
            )
        await interaction.followup.send(on, allowed_mentions=discord.AllowedMentions.none())


JOINED, LEFT = N_("{name} joined."), N_("{name} left.")
"""What the lobby post says first after someone joined or left (in the server's language)."""
