"""Buttons that survive restarts: each is a `DynamicItem` whose custom_id carries what it acts on.

Nothing is kept in memory between the post and the click, so a button works after a restart; the
service re-checks everything (a click on an old board is refused by the ply it carries).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any, ClassVar

import discord
from discord.ext import commands

from bot import answers, discord_ids, i18n, posts
from bot import discord_limits as limits
from bot.games import GameError
from bot.i18n import N_, _
from bot.models import Match, Place
from bot.service import ServiceError

log = logging.getLogger(__name__)


APOLOGY = N_("Something went wrong on our side; try again, or ask a moderator.")
"""Said with `_(APOLOGY)` in the reader's language."""


async def answer_error(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """The one error path of commands and components: a refusal (ServiceError, GameError) is answered
    privately in its own words; anything else is logged with `what` failed and apologised for."""
    if isinstance(error, (ServiceError, GameError)):
        message = str(error)
    else:
        log.error("%s failed", what, exc_info=error)
        message = _(APOLOGY)
    try:
        await refuse(interaction, message)
    except discord.HTTPException:
        log.info("could not send a refusal to %s", interaction.user)


class ComponentOwner:
    """A cog that answers restart-proof components: it registers them when it is loaded and removes them
    when it is unloaded, unless another loaded cog answers them too (every game's cog answers the board
    controls). Put it before the Cog class in the bases."""

    components: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()
    bot: commands.Bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.components)

    async def cog_unload(self) -> None:
        owners = [cog for cog in self.bot.cogs.values() if cog is not self and isinstance(cog, ComponentOwner)]
        still = {item for cog in owners for item in cog.components}
        self.bot.remove_dynamic_items(*(item for item in self.components if item not in still))


DIGITS = 19
"""The most digits a number in a custom_id may have: every id the bot writes (a Discord snowflake, a match,
a ply, a time) has fewer, and a longer one is refused before `int()` reads it."""


def number(text: str) -> int:
    """A number from a custom_id (its template saw digits), refused in words when no id could be that long."""
    if len(text) > DIGITS or int(text) >= 2**63:
        raise ServiceError(_("This button carries a number longer than any the bot writes: it does nothing."))
    return int(text)


def elsewhere(interaction: discord.Interaction, home: Place) -> str | None:
    """Why a click here cannot act on what belongs at `home` (None: it may): another server, or another
    channel than the one its post is in (a match's thread or the channel it opened in, as stored). An
    ephemeral message was only ever shown to the clicker, in answer to their own command anywhere in the
    server, so only its server counts."""
    if home.guild_id is None or interaction.guild_id != home.guild_id:
        return _("This button belongs to another server: it does nothing here.")
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        return None
    if interaction.channel_id is None or interaction.channel_id not in (home.channel_id, home.thread_id):
        return _("This button belongs to a post in another channel: use the one there.")
    return None


class Guarded:
    """Every button and menu: where it belongs (`home`) is checked first, then `check` (who may click, what
    must still hold) runs as the item's interaction_check, then `act` does the work; a refusal from any of
    them goes through `answer_error`. Each item is built from its custom_id by `from_match`, whose numbers
    go through `number`; a custom_id that cannot be read becomes a `Refused` item, refused in words.

    discord.py swallows what a dynamic item's check or callback raises (the click would fail silently
    after 3 s), so both are caught here."""

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Any:
        """The item its custom_id (read by the template into `match`) describes."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        try:
            return cls.from_match(match)
        except ServiceError as error:
            return Refused(item, str(error))

    async def home(self, interaction: discord.Interaction) -> Place:
        """Where what the item acts on belongs: its match's, lobby's, tournament's or challenge's place."""
        raise NotImplementedError

    async def check(self, interaction: discord.Interaction) -> None:
        """Raise ServiceError to refuse the click; the default lets everyone through."""

    async def act(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        try:
            if (why := elsewhere(interaction, await self.home(interaction))) is not None:
                raise ServiceError(why)
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


class Refused(Guarded, discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?s:.+)"):
    """What a custom_id that cannot be read becomes (never registered, so it matches nothing by itself):
    every click on it is refused with the reason."""

    def __init__(self, item: discord.ui.Item[Any], why: str) -> None:
        super().__init__(item)
        self.why = why

    async def home(self, interaction: discord.Interaction) -> Place:
        raise ServiceError(self.why)


async def match_home(interaction: discord.Interaction, match_id: int) -> Place:
    """The place of a match: where its board controls, takeback buttons and menus belong."""
    match: Match = await service_of(interaction).get(match_id)
    return match.place


def board_view(match: Match, game: Any) -> discord.ui.View:
    """The buttons under a running board: list my legal moves, resign, and the choices the game offers;
    their labels in the reader's language (a board is posted in the server's).

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


async def play(interaction: discord.Interaction, match_id: int, move: str, ply: int | None) -> None:
    """Play a typed, clicked or picked move for whoever acted (the service checks it is theirs, and the
    ply it was made on).

    Where the match is played in the channel the interaction came from, its new board is the answer
    (bot/answers.py: no rate-limited request): a command's answer is the board itself, a click is
    acknowledged at once and the board follows. Elsewhere the board is posted there and the player told
    privately. A menu in a private message (Event Horizon's) is turned into "Played: …"."""
    clicked = interaction.type == discord.InteractionType.component
    if clicked:  # a refusal is its private answer; a move, acknowledged at once, is followed by its board
        await service_of(interaction).playing.check(match_id, discord_ids.player(interaction.user).id, move, ply=ply)
        try:
            async with answers.first_answer(interaction):
                await interaction.response.defer()
        except discord.NotFound:
            if not answers.gone(interaction):
                raise  # else too late to acknowledge: the move still stands, and its board will say so
    async with answers.answering(interaction) as answer:
        notice = await service_of(interaction).move(
            match_id, discord_ids.player(interaction.user).id, move, ply=ply, at=interaction.created_at.timestamp()
        )
    played = _("Played: {move}").format(move=notice.lines[0] if notice.lines else move)
    if answers.gone(interaction):  # too late for any answer: its board, posted in the match's place, says it
        return
    if clicked and interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.edit_original_response(content=played, view=None)
    elif not interaction.response.is_done():
        await interaction.response.send_message(played, ephemeral=True)
    elif not (answer.used or answer.said):
        await interaction.followup.send(played, ephemeral=True)


class PlayButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"play:(?P<match>\d+):(?P<ply>\d+):(?P<move>.+)"
):
    """One move offered by the game, played for whoever clicks it (the service checks it is theirs)."""

    def __init__(self, match_id: int, ply: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=i18n.typed(move.capitalize()),
                style=discord.ButtonStyle.primary,
                custom_id=f"play:{match_id}:{ply}:{move}",
            )
        )
        self.match_id, self.ply, self.move = match_id, ply, move

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PlayButton:
        return cls(number(match["match"]), number(match["ply"]), match["move"])

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await play(interaction, self.match_id, self.move, self.ply)


class PlaySelect(Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pick:(?P<match>\d+):(?P<ply>\d+)"):
    """The game's offered moves as a menu (more than four of them)."""

    def __init__(self, match_id: int, ply: int, moves: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=i18n.typed(m.capitalize()), value=m) for m in moves or ["?"]]
        select = discord.ui.Select(placeholder=_("Choose…"), options=options, custom_id=f"pick:{match_id}:{ply}")
        super().__init__(select)
        self.match_id, self.ply = match_id, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> PlaySelect:
        return cls(number(match["match"]), number(match["ply"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            raise ServiceError(_("Pick one of the moves."))
        await play(interaction, self.match_id, str(values[0]), self.ply)


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge now (the 3 s rule) with a public "thinking…" that the answer will fill in.

    Check what can be checked before this: a refusal decided later is still private (`refuse` takes the
    public placeholder away), but everyone saw the bot think."""
    await interaction.response.defer(thinking=True)
    interaction.extras["public_defer"] = True


async def announce(
    interaction: discord.Interaction, content: str, *, allowed_mentions: discord.AllowedMentions
) -> None:
    """The public answer to a command deferred by `defer_public` that pings someone: the "thinking…"
    placeholder goes and the words come as a new message, since filling the placeholder is an edit, and an
    edit notifies nobody. (Two requests through the interaction's webhook, under no rate limit.)"""
    if interaction.extras.pop("public_defer", False):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(content, allowed_mentions=allowed_mentions)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """An ephemeral refusal, whether or not the interaction was answered already.

    After a public deferral the first followup would fill the public placeholder (Discord keeps the
    deferral's visibility), so the placeholder is deleted and the refusal sent as a private followup."""
    message = limits.clip(message)
    if answers.gone(interaction):
        log.info("a refusal came too late for its interaction: %s", message)
        return
    if not interaction.response.is_done():
        async with answers.first_answer(interaction):
            await interaction.response.send_message(message, ephemeral=True)
        return
    if interaction.extras.pop("public_defer", False):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(message, ephemeral=True)


def service_of(interaction: discord.Interaction) -> Any:
    return interaction.client.matches  # type: ignore[attr-defined]  # the GameBot's service


class MovesButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"moves:(?P<match>\d+):(?P<ply>\d+)"
):
    """Shows the clicker their legal moves on this board (ephemeral)."""

    def __init__(self, match_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("My moves"), style=discord.ButtonStyle.secondary, custom_id=f"moves:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> MovesButton:
        return cls(number(match["match"]), number(match["ply"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def check(self, interaction: discord.Interaction) -> None:
        """Only the player to move, on the newest board."""
        match = await service_of(interaction).get(self.match_id)
        me = discord_ids.player(interaction.user)
        if not match.running or match.ply != self.ply:
            raise ServiceError(_("This board is out of date: look at the newest one."))
        if not match.seats_of(me.id):
            raise ServiceError(_("You are not playing in match #{number}.").format(number=match.id))
        seat = service_of(interaction).game(match).to_move(match.state)
        if seat not in match.seats_of(me.id):
            raise ServiceError(_("It is {name}'s turn, not yours.").format(name=match.players[seat].name))

    async def act(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        match = await service.get(self.match_id)
        game = service.game(match)
        lines = posts.moves_lines(game, game.legal_moves(match.state))  # the same list as `/game moves`
        play = "\n" + _("Play one with `{command}`.").format(command=f"/{match.game} move")
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
            discord.ui.Button(label=_("Resign"), style=discord.ButtonStyle.danger, custom_id=f"resign:{match_id}")
        )
        self.match_id = match_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ResignButton:
        return cls(number(match["match"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await ask_to_resign(interaction, self.match_id)


async def ask_to_resign(interaction: discord.Interaction, match_id: int) -> None:
    """The confirmation to resign (from the button or /game resign); ServiceError if it cannot be."""
    service = service_of(interaction)
    match = await service.get(match_id)
    if not match.running:
        raise ServiceError(_("Match #{number} is already over.").format(number=match.id))
    if not match.seats_of(discord_ids.player(interaction.user).id):
        raise ServiceError(_("You are not playing in match #{number}.").format(number=match.id))
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResignButton(match_id))
    await interaction.response.send_message(
        _("Resign match #{number}? {effect}").format(
            number=match.id, effect=posts.resign_effect(match, service.game(match))
        ),
        view=view,
        ephemeral=True,
    )


class ConfirmResignButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"resign-yes:(?P<match>\d+)"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Yes, resign"), style=discord.ButtonStyle.danger, custom_id=f"resign-yes:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ConfirmResignButton:
        return cls(number(match["match"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await service_of(interaction).playing.resign(self.match_id, discord_ids.player(interaction.user).id)
        await interaction.followup.send(_("You resigned."), ephemeral=True)


BOARD_CONTROLS = (MovesButton, ResignButton, ConfirmResignButton, PlayButton, PlaySelect)
"""The components under every running board, whatever the game: each game's cog answers them."""
