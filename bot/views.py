"""Buttons that survive restarts: each is a `DynamicItem` whose custom_id carries what it acts on.

Nothing is kept in memory between the post and the click, so a button works after a restart; the
service re-checks everything (a click on an old board is refused by the ply it carries).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

import discord

from bot import discord_ids, posts
from bot import discord_limits as limits
from bot.clock import ClockSettings
from bot.games import GameError
from bot.models import OPEN, Lobby, Match, Place
from bot.service import ServiceError

log = logging.getLogger(__name__)


APOLOGY = "Something went wrong on our side; try again, or ask a moderator."


async def answer_error(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """The one error path of commands and components: a refusal (ServiceError, GameError) is answered
    privately in its own words; anything else is logged with `what` failed and apologised for."""
    if isinstance(error, (ServiceError, GameError)):
        message = str(error)
    else:
        log.error("%s failed", what, exc_info=error)
        message = APOLOGY
    try:
        await refuse(interaction, message)
    except discord.HTTPException:
        log.info("could not send a refusal to %s", interaction.user)


class Guarded:
    """Every button and menu: `check` (who may click, what must still hold) runs as the item's
    interaction_check, then `act` does the work; a refusal from either goes through `answer_error`.

    discord.py swallows what a dynamic item's check or callback raises (the click would fail silently
    after 3 s), so both are caught here."""

    async def check(self, interaction: discord.Interaction) -> None:
        """Raise ServiceError to refuse the click; the default lets everyone through."""

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        try:
            await self.check(interaction)
        except Exception as error:
            await answer_error(interaction, error, f"the check of {type(self).__name__}")
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.act(interaction)
        except Exception as error:
            await answer_error(interaction, error, f"the click on {type(self).__name__}")


def board_view(match: Match, game: Any) -> discord.ui.View:
    """The buttons under a running board: list my legal moves, resign, and the choices the game offers.

    A game may offer a few moves to click (`choices(state)`, e.g. Geyser's retreat / again after a tied
    battle): up to four become buttons, more a select menu.
    """
    view = discord.ui.View(timeout=None)
    choices = game.choices(match.state)[:25]
    if 0 < len(choices) <= 4:
        for move in choices:
            view.add_item(PlayButton(match.id, match.ply, move))
    elif choices:
        view.add_item(PlaySelect(match.id, match.ply, choices))
    view.add_item(MovesButton(match.id, match.ply))
    view.add_item(ResignButton(match.id))
    return view


async def play_choice(interaction: discord.Interaction, match_id: int, ply: int, move: str) -> None:
    """Play a clicked or picked move through the service, as a typed one would be (ply checked)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    notice = await _service(interaction).move(
        match_id, discord_ids.player(interaction.user).id, move, ply=ply, at=interaction.created_at.timestamp()
    )
    await interaction.followup.send(f"Played: {notice.lines[0] if notice.lines else move}", ephemeral=True)


class PlayButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"play:(?P<match>\d+):(?P<ply>\d+):(?P<move>.+)"
):
    """One move offered by the game, played for whoever clicks it (the service checks it is theirs)."""

    def __init__(self, match_id: int, ply: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=move.capitalize(), style=discord.ButtonStyle.primary, custom_id=f"play:{match_id}:{ply}:{move}"
            )
        )
        self.match_id, self.ply, self.move = match_id, ply, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        return cls(int(match["match"]), int(match["ply"]), match["move"])

    async def act(self, interaction: discord.Interaction) -> None:
        await play_choice(interaction, self.match_id, self.ply, self.move)


class PlaySelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pick:(?P<match>\d+):(?P<ply>\d+)"):
    """The game's offered moves as a menu (more than four of them)."""

    def __init__(self, match_id: int, ply: int, moves: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=m.capitalize(), value=m) for m in moves or ["?"]]
        super().__init__(discord.ui.Select(placeholder="Choose…", options=options, custom_id=f"pick:{match_id}:{ply}"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlaySelect:
        return cls(int(match["match"]), int(match["ply"]))

    async def act(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            raise ServiceError("Pick one of the moves.")
        await play_choice(interaction, self.match_id, self.ply, str(values[0]))


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge now (the 3 s rule) with a public "thinking…" that the answer will fill in.

    Check what can be checked before this: a refusal decided later is still private (`refuse` takes the
    public placeholder away), but everyone saw the bot think."""
    await interaction.response.defer(thinking=True)
    interaction.extras["public_defer"] = True


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral refusal, whether or not the interaction was answered already.

    After a public deferral the first followup would fill the public placeholder (Discord keeps the
    deferral's visibility), so the placeholder is deleted and the refusal sent as a private followup."""
    message = limits.clip(message)
    if not interaction.response.is_done():
        await interaction.response.send_message(message, ephemeral=True)
        return
    if interaction.extras.pop("public_defer", False):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(message, ephemeral=True)


def _service(interaction: discord.Interaction) -> Any:
    return interaction.client.matches  # type: ignore[attr-defined]  # the GameBot's service


class MovesButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"moves:(?P<match>\d+):(?P<ply>\d+)"
):
    """Shows the clicker their legal moves on this board (ephemeral)."""

    def __init__(self, match_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My moves", style=discord.ButtonStyle.secondary, custom_id=f"moves:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MovesButton:
        return cls(int(match["match"]), int(match["ply"]))

    async def check(self, interaction: discord.Interaction) -> None:
        """Only the player to move, on the newest board."""
        match = await _service(interaction).get(self.match_id)
        me = discord_ids.player(interaction.user)
        if not match.running or match.ply != self.ply:
            raise ServiceError("This board is out of date: look at the newest one.")
        if not match.seats_of(me.id):
            raise ServiceError(f"You are not playing in match #{match.id}.")
        seat = _service(interaction).game(match).to_move(match.state)
        if seat not in match.seats_of(me.id):
            raise ServiceError(f"It is {match.players[seat].name}'s turn, not yours.")

    async def act(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        match = await service.get(self.match_id)
        game = service.game(match)
        lines = posts.moves_lines(game, game.legal_moves(match.state))  # the same list as `/game moves`
        play = f"\nPlay one with `/{match.game} move`."
        listing = limits.page(lines, 1, command=f"/{match.game} moves", limit=limits.MESSAGE - len(play))
        await interaction.response.send_message(
            listing + play,
            ephemeral=True,
            allowed_mentions=limits.NOBODY,
        )


class ResignButton(Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"resign:(?P<match>\d+)"):
    """Asks the player to confirm (ephemeral), so a stray click never ends a game."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Resign", style=discord.ButtonStyle.danger, custom_id=f"resign:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["match"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await ask_to_resign(interaction, self.match_id)


async def ask_to_resign(interaction: discord.Interaction, match_id: int) -> None:
    """The confirmation to resign (from the button or /game resign); ServiceError if it cannot be."""
    service = _service(interaction)
    match = await service.get(match_id)
    if not match.running:
        raise ServiceError(f"Match #{match.id} is already over.")
    if not match.seats_of(discord_ids.player(interaction.user).id):
        raise ServiceError(f"You are not playing in match #{match.id}.")
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResignButton(match_id))
    await interaction.response.send_message(
        f"Resign match #{match.id}? {service.resign_effect(match)}", view=view, ephemeral=True
    )


class ConfirmResignButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"resign-yes:(?P<match>\d+)"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Yes, resign", style=discord.ButtonStyle.danger, custom_id=f"resign-yes:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmResignButton:
        return cls(int(match["match"]))

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _service(interaction).resign(self.match_id, discord_ids.player(interaction.user).id)
        await interaction.followup.send("You resigned.", ephemeral=True)


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
        await _service(interaction).check_challenge(message_id, discord_ids.player(interaction.user))
        await defer_public(interaction)
        match = await _service(interaction).create_match(
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


LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "computer": ("Add computer", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


def lobby_view(lobby: Lobby) -> discord.ui.View | None:
    """Join, Leave and Start under an open lobby; nothing once it has started or been cancelled."""
    if lobby.status != OPEN:
        return None
    view = discord.ui.View(timeout=None)
    for action in LOBBY_BUTTONS:
        view.add_item(LobbyButton(action, lobby.id))
    return view


class LobbyButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lobby:(?P<action>join|leave|computer|start):(?P<id>\d+)",
):
    """The lobby message's buttons; the service checks who may do what (only the creator adds a computer,
    at the normal level, or starts)."""

    def __init__(self, action: str, lobby_id: int) -> None:
        label, style = LOBBY_BUTTONS[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"lobby:{action}:{lobby_id}"))
        self.action, self.lobby_id = action, lobby_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(match["action"], int(match["id"]))

    async def act(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        me = discord_ids.player(interaction.user)
        match = None
        if self.action == "join":
            lobby = await service.join_lobby(self.lobby_id, me)
        elif self.action == "leave":
            lobby = await service.leave_lobby(self.lobby_id, me)
        elif self.action == "computer":
            lobby = await service.add_computer(self.lobby_id, me)
        else:
            await interaction.response.defer()  # the first board is posted before the game is on
            match = await service.start_lobby(self.lobby_id, me)
            lobby = await service.get_lobby(self.lobby_id)
        text = "\n".join(posts.lobby_lines(service, lobby, f"/{lobby.game}"))
        none = discord.AllowedMentions.none()
        if match is None:
            await interaction.response.edit_message(content=text, view=lobby_view(lobby), allowed_mentions=none)
            return
        await interaction.edit_original_response(content=text, view=None, allowed_mentions=none)
        await interaction.followup.send(f"Match #{match.id} is on: {discord_ids.where(match)}.")


DYNAMIC_ITEMS = (
    MovesButton,
    ResignButton,
    ConfirmResignButton,
    AcceptChallengeButton,
    LobbyButton,
    PlayButton,
    PlaySelect,
)
