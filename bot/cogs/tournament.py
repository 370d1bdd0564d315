"""/tournament: tournaments in a server (docs/tournaments.md; the service's bot/service/tournaments.py).

A moderator opens one with `/tournament new` (its sign-up post carries Join / Leave buttons that survive
restarts) and starts it with `/tournament start`, or it starts at its closing time. Each round is announced
in the tournament's thread with its pairings, a mention for each player paired and a link to each game's
thread; the games themselves are ordinary matches in threads of their own. `/tournament standings` posts
the picture (renderers/tournament.py, with its words as alt text), `/tournament record` the JSON, and
moderators adjudicate a board, replace or withdraw a player, or void the round. Every refusal is private.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import discord_app, discord_ids, i18n, views
from bot import discord_limits as limits
from bot.clock import ClockError, parse_seconds
from bot.cogs import command_name, in_public
from bot.cogs.base import Refusal, server_id
from bot.cogs.mod import require_moderator
from bot.discord_i18n import public_language
from bot.games import GAMES
from bot.i18n import N_, _, ngettext
from bot.models import Place, Player
from bot.service import BoardGame, MatchService, TournamentNotice
from bot.tournament_posts import FORMAT_NAMES, title
from bot.tournaments.stored import CANCELLED, PLAYING, SIGNUP, HeldTournament

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=f"{game.title} ({key})", value=key) for key, game in GAMES.items()]
FORMAT_CHOICES = [app_commands.Choice(name=name, value=key) for key, name in FORMAT_NAMES.items()]
SERIES_CHOICES = [
    app_commands.Choice(name="single: one game a pairing", value="single"),
    app_commands.Choice(name='dm: a best-of-3 death match a pairing ("1, 2, 3")', value="dm"),
]
BUTTONS = {"join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), discord.ButtonStyle.secondary)}
"""Each button's label (said with `_` where the sign-up is posted: the server's language) and style."""


def signup_text(service: MatchService, held: HeldTournament) -> str:
    """The sign-up post: what the tournament is, how it starts, and who has signed up (public: say it in the
    server's language, `in_public` or `TournamentCog.public`)."""
    t = held.tournament
    details = [FORMAT_NAMES[t.format]]
    if t.format == "swiss" and t.rounds_wanted:
        details.append(
            ngettext("{count} round", "{count} rounds", t.rounds_wanted).format(count=i18n.number(t.rounds_wanted))
        )
    if t.pods:
        details.append(_("pods of up to {count}").format(count=i18n.number(t.seats)))
    if t.series == "dm":
        details.append(_("death matches (best of 3)"))
    details.append(_("clock {clock}").format(clock=t.clock) if t.clock else _("no clock"))
    head = _("**Tournament #{number}**: {game}, {details}.").format(
        number=held.id, game=service.games[t.game].title, details=", ".join(details)
    )
    start = command_name("tournament", "start")
    if held.status == SIGNUP and held.closes_at:
        how = _(
            "Sign up with **{join}** (and **{leave}** to change your mind); it starts {when} (`{command}`)."
        ).format(join=_("Join"), leave=_("Leave"), when=f"<t:{held.closes_at:.0f}:R>", command=start)
    elif held.status == SIGNUP:
        how = _(
            "Sign up with **{join}** (and **{leave}** to change your mind); a moderator starts it (`{command}`)."
        ).format(join=_("Join"), leave=_("Leave"), command=start)
    elif held.status == PLAYING:
        how = _("Sign-up is closed: the tournament is on. Rounds are announced in its thread.")
    elif held.status == CANCELLED:
        how = _("The tournament was cancelled.")
    else:
        how = _("The tournament is over.")
    names = [limits.neutral(e.name) for e in t.entrants]
    who = _("Signed up ({count}): {names}").format(
        count=i18n.number(len(names)), names=", ".join(names) if names else _("nobody yet")
    )
    return limits.clip("\n".join([head, how, who]))


def signup_view(held: HeldTournament) -> discord.ui.View | None:
    if held.status != SIGNUP:
        return None
    view = discord.ui.View(timeout=None)
    for action in BUTTONS:
        view.add_item(TournamentButton(action, held.id))
    return view


class TournamentButton(
    views.Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tournament:(?P<action>join|leave):(?P<id>\d+)",
):
    """Join / Leave under a sign-up post; the service refuses what cannot be (signed up twice, closed)."""

    def __init__(self, action: str, tournament_id: int) -> None:
        label, style = BUTTONS[action]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_(label), style=style, custom_id=f"tournament:{action}:{tournament_id}"
        )
        super().__init__(button)
        self.action, self.tournament_id = action, tournament_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TournamentButton:
        return cls(match["action"], views.number(match["id"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        held: HeldTournament = await views.service_of(interaction).tournaments.get(self.tournament_id)
        return held.place

    async def act(self, interaction: discord.Interaction) -> None:
        service: MatchService = views.service_of(interaction)
        me = discord_ids.player(interaction.user)
        if self.action == "leave" and (await service.tournaments.get(self.tournament_id)).running:
            # Answered first: a withdrawal resigns a game, whose final board, replay and the withdrawal's
            # announcement are posted before `leave_tournament` returns.
            await interaction.response.defer(ephemeral=True, thinking=True)
            held = await service.tournaments.leave(self.tournament_id, me)
            await interaction.followup.send(
                _("You withdrew from tournament #{number}.").format(number=held.id),
                ephemeral=True,
                allowed_mentions=limits.NOBODY,
            )
            return
        if self.action == "join":  # in the sign-up only the sign-up changes: answered by that change
            held = await service.tournaments.join(self.tournament_id, me)
        else:
            held = await service.tournaments.leave(self.tournament_id, me)
        with in_public(interaction):  # the sign-up post is public: the server's language
            text, view = signup_text(service, held), signup_view(held)
        await interaction.response.edit_message(content=text, view=view, allowed_mentions=limits.NOBODY)


PLACE_DIGITS = 3
"""The most digits a place may have (a game seats a handful): longer is refused before `int()` reads it."""


def parse_places(text: str, seats: int) -> list[int] | str:
    """A moderator's result: `1-0`, `0-1`, `draw` (two players), places by seat `2,1,3`, or `void`."""
    words = text.strip().lower().replace(" ", "")
    if words == "void":
        return "void"
    if seats == 2:
        known = {"1-0": [1, 2], "0-1": [2, 1], "draw": [1, 1], "½-½": [1, 1], "0.5-0.5": [1, 1]}
        if words in known:
            return known[words]
    parts = words.split(",")
    if not all(p.isascii() and p.isdigit() and len(p) <= PLACE_DIGITS for p in parts):
        typed = repr(limits.shorten(text, 40))
        if seats == 2:
            raise Refusal(
                _(
                    "Give the result as `1-0` (the first seat won), `0-1`, `draw`, places by seat like `2,1,3`,"
                    " or `void`, not {value}."
                ).format(value=typed)
            )
        raise Refusal(_("Give the result as places by seat like `2,1,3`, or `void`, not {value}.").format(value=typed))
    return [int(p) for p in parts]


class TournamentCog(views.ComponentOwner, commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    """/tournament: open, join, start, standings, record; moderators fix results and players."""

    components = (TournamentButton,)
    bot: discord_app.GameBot

    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    async def cog_load(self) -> None:
        await super().cog_load()
        self.service.tournaments.subscribe(self.on_tournament)

    # --- finding the tournament a command is about ---

    async def _find(
        self,
        interaction: discord.Interaction,
        tournament_id: int | None,
        statuses: tuple[str, ...] = ("open", "running"),
    ) -> HeldTournament:
        guild_id = server_id(interaction)
        if tournament_id is not None:
            held = await self.service.tournaments.get(tournament_id)
            if held.place.guild_id != guild_id:
                raise Refusal(_("There is no tournament #{number} here.").format(number=tournament_id))
            return held
        found = await self.service.tournaments.listing(guild_id, statuses)
        here = [h for h in found if interaction.channel_id in (h.place.thread_id, h.place.channel_id)]
        if len(here) == 1:
            return here[0]
        chosen = here or found
        if len(chosen) == 1:
            return chosen[0]
        if chosen:
            ids = ", ".join(f"#{h.id}" for h in chosen)
            raise Refusal(
                _("Several tournaments are on here ({tournaments}): add `tournament:` to say which.").format(
                    tournaments=ids
                )
            )
        raise Refusal(
            _("There is no tournament on here: a moderator opens one with `{command}`.").format(
                command=command_name("tournament", "new")
            )
        )

    # --- sign-up ---

    @app_commands.command(name="new", description="Moderators: open a tournament's sign-up here")
    @app_commands.describe(
        game="the game",
        format="knockout, round robin or Swiss",
        rounds="Swiss: how many rounds (default: enough for the players, log2)",
        clock="every game's clock, like 30/60, 10m or 1d/7d (default none)",
        series='"1, 2, 3": dm plays each pairing as a best-of-3 death match',
        seats="Volcano and Geyser: players a table (default the game's most; 2 plays them two a table)",
        closes="sign-up closes and the tournament starts after this long, like 2h or 1d (default: by hand)",
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, series=SERIES_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, 64] | None = None,
        clock: str | None = None,
        series: str = "single",
        seats: app_commands.Range[int, 2, 6] | None = None,
        closes: str | None = None,
    ) -> None:
        require_moderator(interaction)
        if interaction.guild is None or interaction.channel is None:
            raise Refusal(_("Tournaments are opened in a server channel."))
        closes_at = None
        if closes is not None:
            try:
                closes_at = interaction.created_at.timestamp() + parse_seconds(closes, "the closing time")
            except ClockError:
                raise Refusal(
                    _("Give `closes:` as a time like 30m, 2h or 1d, not {value}.").format(
                        value=repr(limits.shorten(closes, 40))
                    )
                ) from None
        held = await self.service.tournaments.open(
            game,
            format,
            discord_ids.player(interaction.user),
            place=Place(interaction.guild.id, interaction.channel.id),
            rounds=rounds,
            clock=clock,
            series=series,
            seats=seats,
            closes_at=closes_at,
        )
        with in_public(interaction):
            text, view = signup_text(self.service, held), signup_view(held)
        await interaction.response.send_message(
            text, view=view or discord.utils.MISSING, allowed_mentions=limits.NOBODY
        )
        message = await interaction.original_response()
        with in_public(interaction):
            thread = await self._open_thread(interaction.channel, held)
        await self.service.tournaments.posted(held.id, message.id, thread.id if thread else None)

    async def _open_thread(self, channel: Any, held: HeldTournament) -> discord.Thread | None:
        if (
            not isinstance(channel, discord.TextChannel)
            or not channel.permissions_for(channel.guild.me).create_public_threads
        ):
            return None
        name = limits.shorten(
            _("Tournament #{number}: {game}").format(number=held.id, game=GAMES[held.tournament.game].title), 100
        )
        try:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException:
            log.info("could not open a thread for tournament %s; announcing in the channel", held.id)
            return None
        await self._quietly(
            thread.send(
                _("Tournament #{number}: rounds, pairings and results are announced here.").format(number=held.id),
                allowed_mentions=limits.NOBODY,
            )
        )
        return thread

    @app_commands.command(description="Sign up for the tournament here (or use its Join button)")
    @app_commands.describe(tournament="tournament number (default: the one open here)")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        held = await self._find(interaction, tournament, ("open",))
        joined = await self.service.tournaments.join(held.id, discord_ids.player(interaction.user))
        count = len(joined.tournament.entrants)
        await interaction.response.send_message(
            ngettext(
                "You signed up for tournament #{number} ({count} player so far).",
                "You signed up for tournament #{number} ({count} players so far).",
                count,
            ).format(number=joined.id, count=i18n.number(count)),
            ephemeral=True,
        )
        await self._refresh_signup(joined)

    @app_commands.command(description="Leave the sign-up; once the tournament has started, withdraw from it")
    @app_commands.describe(tournament="tournament number (default: the one here)")
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        held = await self._find(interaction, tournament)
        me = discord_ids.player(interaction.user)
        if not any(e.id == me.id for e in held.tournament.entrants):
            raise Refusal(_("You are not in tournament #{number}.").format(number=held.id))
        await interaction.response.defer(ephemeral=True, thinking=True)  # a withdrawal posts a final board first
        left = await self.service.tournaments.leave(held.id, me)
        if left.status == SIGNUP:
            said = _("You left the sign-up of tournament #{number}.").format(number=left.id)
        else:
            said = _("You withdrew from tournament #{number}.").format(number=left.id)
        await interaction.followup.send(said, ephemeral=True)
        await self._refresh_signup(left)

    @app_commands.command(description="Moderators: close the sign-up and start round 1")
    @app_commands.describe(tournament="tournament number (default: the one open here)")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        require_moderator(interaction)
        held = await self._find(interaction, tournament, ("open",))
        if (too_few := held.tournament.too_few()) is not None:
            raise Refusal(too_few)  # privately, before the public deferral
        await views.defer_public(interaction)  # round 1's boards are posted before we answer
        begun = await self.service.tournaments.start_tournament(held.id, discord_ids.player(interaction.user))
        with in_public(interaction):
            if begun.place.thread_id:
                said = _("Tournament #{number} has started: round 1's pairings are in {place}.").format(
                    number=begun.id, place=f"<#{begun.place.thread_id}>"
                )
            else:
                said = _("Tournament #{number} has started: round 1's pairings are in this channel.").format(
                    number=begun.id
                )
        await interaction.followup.send(said, allowed_mentions=limits.NOBODY)

    # --- reading ---

    @app_commands.command(description="The tournament's standings as a picture")
    @app_commands.describe(tournament="tournament number (default: the one here)")
    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        from renderers import tournament as picture

        held = await self._find(interaction, tournament, ("open", "running", "over"))
        await interaction.response.defer(thinking=True)
        t = held.tournament
        with in_public(interaction):  # a public answer: picture and words in the server's language
            png = await asyncio.to_thread(picture.render, t)
            said = _("Standings of {tournament}.").format(tournament=title(held, self.service.games))
            described = picture.describe(t)
        await interaction.followup.send(
            said,
            file=discord.File(io.BytesIO(png), filename=f"tournament-{held.id}-standings.png", description=described),
            allowed_mentions=limits.NOBODY,
        )

    @app_commands.command(description="The tournament's record as a JSON file (players, pairings, results)")
    @app_commands.describe(tournament="tournament number (default: the one here)")
    async def record(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        held = await self._find(interaction, tournament, ("open", "running", "over", "cancelled"))
        record = await self.service.tournaments.record(held.id)
        with in_public(interaction):
            said = _("The record of tournament #{number}.").format(number=held.id)
        await interaction.response.send_message(
            said,
            file=discord.File(io.BytesIO(record.dumps().encode()), filename=record.filename),
            allowed_mentions=limits.NOBODY,
        )

    # --- moderators ---

    @app_commands.command(description="Moderators: set the result of a board of the current round")
    @app_commands.describe(
        round="the round (the current one)",
        board="the board",
        result="1-0 (first seat won), 0-1, draw; places by seat like 2,1,3; or void",
        tournament="tournament number (default: the one here)",
    )
    async def adjudicate(
        self, interaction: discord.Interaction, round: int, board: int, result: str, tournament: int | None = None
    ) -> None:
        require_moderator(interaction)
        held = await self._find(interaction, tournament, ("running",))
        t = held.tournament
        if not 1 <= round <= len(t.rounds) or not 1 <= board <= len(t.rounds[round - 1].pairings):
            raise Refusal(
                _("Tournament #{number} has no board {board} in round {round}.").format(
                    number=held.id, board=board, round=round
                )
            )
        places = parse_places(result, len(t.rounds[round - 1].pairings[board - 1].seats))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.tournaments.adjudicate(held.id, round, board, places, discord_ids.player(interaction.user))  # type: ignore[arg-type]
        await interaction.followup.send(
            _("Round {round}, board {board}: {result}. Announced in the thread.").format(
                round=round, board=board, result=result
            ),
            ephemeral=True,
        )

    @app_commands.command(description="Moderators: a newcomer takes over a player's place")
    @app_commands.describe(player="who leaves", newcomer="who takes over", tournament="tournament number")
    async def replace(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        newcomer: discord.Member,
        tournament: int | None = None,
    ) -> None:
        require_moderator(interaction)
        if newcomer.bot:
            raise Refusal(_("A bot cannot play in a tournament."))
        held = await self._find(interaction, tournament, ("running",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        old, new = discord_ids.player(player), discord_ids.player(newcomer)
        await self.service.tournaments.replace_player(held.id, old.id, new, discord_ids.player(interaction.user))
        await interaction.followup.send(
            _("{newcomer} takes over from {name}.").format(newcomer=new.name, name=old.name), ephemeral=True
        )

    @app_commands.command(description="Moderators: withdraw a player (their unplayed game is forfeited)")
    @app_commands.describe(player="who is withdrawn", tournament="tournament number")
    async def withdraw(
        self, interaction: discord.Interaction, player: discord.Member, tournament: int | None = None
    ) -> None:
        require_moderator(interaction)
        held = await self._find(interaction, tournament, ("running",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = discord_ids.player(player)
        await self.service.tournaments.withdraw(held.id, who.id, discord_ids.player(interaction.user))
        await interaction.followup.send(_("{name} is withdrawn.").format(name=who.name), ephemeral=True)

    @app_commands.command(description="Moderators: void the current round and pair it again")
    @app_commands.describe(tournament="tournament number")
    async def void(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        require_moderator(interaction)
        held = await self._find(interaction, tournament, ("running",))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.tournaments.void_round(held.id, discord_ids.player(interaction.user))
        await interaction.followup.send(
            _("Round {round} is voided and paired again.").format(round=held.tournament.current.number),
            ephemeral=True,
        )

    # --- announcements ---

    def public(self, held: HeldTournament) -> contextlib.AbstractContextManager[None]:
        """The tournament's server's language, for what is posted there (whoever caused it)."""
        guild_id = held.place.guild_id
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        setting = self.service.settings.language(guild_id) if guild_id is not None else None
        return i18n.using(public_language(setting, guild))

    async def on_tournament(self, notice: TournamentNotice) -> None:
        held = notice.held
        if held.place.channel_id is None:
            return  # not a Discord tournament
        with self.public(held):  # every announcement is public: the server's language
            await self._announced(notice)

    async def _announced(self, notice: TournamentNotice) -> None:
        held = notice.held
        if notice.kind in ("opened", "joined", "left"):
            return  # the sign-up post says it (edited by the button or command)
        if notice.kind in ("started", "cancelled", "over"):
            await self._refresh_signup(held)
        if notice.kind == "round":
            await self._announce_round(notice)
            return
        await self._post(held, "\n".join(limits.neutral(line) for line in notice.lines), ())

    async def _announce_round(self, notice: TournamentNotice) -> None:
        """The round's pairings, each player mentioned, each game with a link to its thread."""
        held = notice.held
        lines = [notice.lines[0]]
        for board in notice.boards:
            names = " vs ".join(_mention(p) for p in board.players)
            if board.result == "bye":
                lines.append(_("Bye: {names}").format(names=names))
            elif board.result == "forfeit":
                lines.append(_("Board {board}: {names} (decided by forfeit)").format(board=board.board, names=names))
            else:
                link = await self._link(board)
                lines.append(_("Board {board}: {names}: {link}").format(board=board.board, names=names, link=link))
        await self._post(held, "\n".join(lines), [p for b in notice.boards if b.result is None for p in b.players])

    async def _link(self, board: BoardGame) -> str:
        if board.match_id is None:
            return _("no game")
        match = await self.service.get(board.match_id)
        where = match.place.thread_id or match.place.channel_id
        return _("{link} (match #{number})").format(
            link=f"https://discord.com/channels/{match.place.guild_id}/{where}", number=match.id
        )

    async def _post(self, held: HeldTournament, text: str, players: Any) -> None:
        """Into the tournament's thread (else its channel), split into messages of 2,000 characters, each
        pinging only the paired players it mentions."""
        place_id = held.place.thread_id or held.place.channel_id
        assert place_id is not None
        try:
            place = await self.bot.channel(place_id)
        except discord.HTTPException:
            log.info("tournament %s: its thread and channel are gone", held.id)
            return
        ids = [int(raw) for p in players if (raw := _discord_id(p)) is not None]
        for chunk in limits.split(text):
            pinged = [i for i in ids if f"<@{i}>" in chunk]
            await self._quietly(
                place.send(chunk, allowed_mentions=limits.pinging(*pinged) if pinged else limits.NOBODY)
            )

    async def _refresh_signup(self, held: HeldTournament) -> None:
        """The sign-up post shows who has signed up, and loses its buttons once sign-up is over."""
        if held.message_id is None or held.place.channel_id is None:
            return
        try:
            channel = await self.bot.channel(held.place.channel_id)
            with self.public(held):
                text, view = signup_text(self.service, held), signup_view(held)
            await channel.get_partial_message(held.message_id).edit(  # type: ignore[attr-defined]
                content=text, view=view, allowed_mentions=limits.NOBODY
            )
        except discord.HTTPException:
            log.info("could not update the sign-up post of tournament %s", held.id)

    async def _quietly(self, sending: Any) -> None:
        try:
            await sending
        except discord.HTTPException:
            log.info("could not post a tournament message")


def _discord_id(player: Player) -> str | None:
    kind, _, raw = player.id.partition(":")
    return raw if kind == "discord" and raw.isdigit() else None


def _mention(player: Player) -> str:
    raw = _discord_id(player)
    return f"<@{raw}>" if raw is not None else limits.neutral(player.name)


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(TournamentCog(bot))
