"""The slash commands every game shares; a game's cog subclasses `GameCog` with its group name.

Cogs stay thin: find the match, call the service, answer. Rules live in the engines, words for the
board posts in bot/posts.py, and refusals are raised as ServiceError/GameError and turned into ephemeral
replies by the bot's error handler.
"""

from __future__ import annotations

import asyncio
import io
import weakref
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import clock as clocks
from bot import discord_app, discord_ids, i18n, posts, views
from bot import discord_limits as limits
from bot.clock import CLOCK_HELP, ClockSettings
from bot.cogs import command_name, in_public
from bot.cogs.challenge import AcceptChallengeButton, ChallengeBeforeStoredButton, challenge_text
from bot.cogs.places import match_channel_refusal
from bot.cogs.review import REVIEW_CONTROLS, open_review
from bot.cogs.takeback import TakebackButton
from bot.games import GAMES, GameError
from bot.i18n import N_, _, ngettext
from bot.models import COMPUTER_LEVELS, Match, NoticeKind, Place, computer
from bot.service import CLAIM_AFTER, MatchService, ServiceError
from renderers import Caption, describe, render
from renderers.alt_text import text_board

LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in COMPUTER_LEVELS]
TEXT_HELP = "the position in words (for a screen reader), only for you, instead of the picture"


with i18n.using(i18n.ENGLISH):
    CLAIM_AFTER_WORDS = i18n.unmarked(posts.wait_words(CLAIM_AFTER))
    """The default wait in `/claim`'s description, in English: the description is the catalog's key."""


class Refusal(ServiceError):
    """A command that cannot be done as asked (bad argument, wrong place); the message says why."""


def parse_clock(text: str | None) -> ClockSettings | None:
    """A command's `clock:` as bot/clock.py reads it (`30/60`, `10m`, `1d/7d`, none); its refusal is the command's."""
    try:
        return clocks.parse_clock(text)
    except clocks.ClockError as error:
        raise Refusal(str(error)) from None


def clock_or_default(service: MatchService, interaction: discord.Interaction, text: str | None) -> ClockSettings | None:
    """A start command's `clock:`, or when it gave none the server's default clock (its default_clock
    setting; untimed unless set). `clock:none` is no clock, whatever the default."""
    return parse_clock(text) if text is not None else service.settings.default_clock(server_id(interaction))


def server_id(interaction: discord.Interaction) -> int:
    """The server an interaction comes from. The command tree already turns direct messages away; this
    makes sure no list ever falls back to every server's matches (`running(None)` means all of them)."""
    if interaction.guild_id is None:
        raise Refusal(discord_app.DM_LINE)
    return interaction.guild_id


PLY_DIGITS = 9
"""The most digits a board's ply mark (`@12`) may have: a billion lines of log is more than any match has."""


def split_ply(value: str) -> tuple[str, int | None]:
    """A move value and the ply of the board it was offered on: `D4-F3@12` -> ("D4-F3", 12).

    Only ASCII digits count: `str.isdigit` also accepts "²", which `int` refuses. A mark longer than
    PLY_DIGITS is refused before `int` reads it (it would refuse thousands of digits with an error)."""
    head, mark, seen = value.rpartition("@")
    if mark and seen.isascii() and seen.isdigit():
        if len(seen) > PLY_DIGITS:
            raise Refusal(
                _("`@{digits}…` names no board: the number after @ is the board's, as suggested.").format(
                    digits=seen[:12]
                )
            )
        return head, int(seen)
    return value, None


async def find_match(
    service: MatchService, interaction: discord.Interaction, game: str | None, match_id: int | None, mine: bool
) -> Match:
    """The match a command is about: the one named, the one whose thread this is, or the player's only one."""
    guild_id = server_id(interaction)
    if match_id is not None:
        match = await service.get(match_id)
        if match.place.guild_id != guild_id or (game is not None and match.game != game):
            raise Refusal(_("There is no match #{number} here.").format(number=match_id))
        return match
    here = [
        m
        for m in service.running(guild_id, game)
        if interaction.channel_id in (m.place.thread_id, m.place.channel_id if m.place.thread_id is None else None)
    ]
    if len(here) == 1:
        return here[0]
    if mine:
        player = discord_ids.player(interaction.user)
        own = [m for m in service.matches_of(player.id, game) if m.place.guild_id == guild_id]
        if len(own) == 1:
            return own[0]
        if own:
            ids = ", ".join(f"#{m.id}" for m in own)
            raise Refusal(
                _("You are in several matches ({matches}): add `match:` or use the match's thread.").format(matches=ids)
            )
    if here:
        ids = ", ".join(f"#{m.id}" for m in here)
        raise Refusal(_("Several matches run here ({matches}): add `match:` to say which.").format(matches=ids))
    raise Refusal(_("There is no running match here: use this in a match's thread, or add `match:`."))


class GameCog(views.ComponentOwner, commands.GroupCog):
    """Shared commands; a subclass sets `game_key` and its group: `class FishCog(GameCog, group_name="fish")`."""

    components = (*views.BOARD_CONTROLS, TakebackButton, *REVIEW_CONTROLS)

    game_key = ""
    continues_turns = False
    """Whether autocomplete continues a typed turn of several moves (see `suggest`); never for chance."""
    left_out: tuple[tuple[str, str], ...] = ()
    """(option, why) for the game's options its start command (`new`, or `challenge`) does not offer; it
    offers every other one, built from the spec (bot/cogs/options.py; tests/test_options.py checks both)."""

    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    @property
    def title(self) -> str:
        return self.service.games[self.game_key].title

    async def _match(self, interaction: discord.Interaction, match_id: int | None, mine: bool = True) -> Match:
        return await find_match(self.service, interaction, self.game_key, match_id, mine)

    @app_commands.command(description="Play a move (autocomplete lists your legal moves)")
    @app_commands.describe(move="your move: pick one of the suggestions", match="match number, if you play several")
    async def move(self, interaction: discord.Interaction, move: str, match: int | None = None) -> None:
        text, ply = split_ply(move)  # autocomplete values end with the ply of their board: "@12"
        found = await self._match(interaction, match)
        await views.play(interaction, found.id, text, ply)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Up to 25 suggestions for the player to move; complete moves carry the board's ply."""
        try:
            found = await self._match(interaction, None)
        except ServiceError:
            return []
        game = self.service.game(found)
        seat = game.to_move(found.state)
        if seat is None or seat not in found.seats_of(discord_ids.player(interaction.user).id):
            return []
        choices = []
        # From what the mover may see (no seed, no hidden card): no suggestion can tell a roll or a card to come.
        for text, complete in self.suggest(game.view(found.state, seat), current):
            value = f"{text}@{found.ply}" if complete else text
            if len(value) <= limits.CHOICE:  # Discord refuses the whole answer for one longer choice
                name = i18n.typed(limits.shorten(text, limits.CHOICE))  # notation: as the player types it
                choices.append(app_commands.Choice(name=name, value=value))
        if not choices and self.continues_turns and "," in current:
            choices = self.sendable_head(found, current.rpartition(",")[0])
        return choices[: limits.CHOICES]

    def sendable_head(self, match: Match, head: str) -> list[app_commands.Choice[str]]:
        """For a typed turn too long to be offered with its next step (a choice holds 100 characters): the
        most of its steps that one choice can carry, so the player sends them and goes on step by step."""
        game = self.service.games[self.game_key]
        state = game.view(match.state, game.to_move(match.state))
        try:
            steps = game.canonical(state, head).split(", ")
        except GameError:
            return []
        mark = f"@{match.ply}"
        count = len(steps)
        while count and len(", ".join(steps[:count]) + mark) > limits.CHOICE:
            count -= 1
        if not count:
            return []
        sent = ", ".join(steps[:count])
        goes_on = game.to_move(game.play(state, sent)) == game.to_move(state)
        whole = count == len(steps)
        if count == 1 and whole:  # one step: no count to say
            said = _("Send the step so far, then go on: {moves}") if goes_on else _("Send the step so far: {moves}")
        elif count == 1:
            said = (
                _("Send the first of {total} steps, then go on: {moves}")
                if goes_on
                else _("Send the first of {total} steps: {moves}")
            )
        elif whole and goes_on:
            said = ngettext(
                "Send the {count} step so far, then go on: {moves}",
                "Send the {count} steps so far, then go on: {moves}",
                count,
            )
        elif whole:
            said = ngettext("Send the {count} step so far: {moves}", "Send the {count} steps so far: {moves}", count)
        elif goes_on:
            said = ngettext(
                "Send the first {count} of {total} steps, then go on: {moves}",
                "Send the first {count} of {total} steps, then go on: {moves}",
                count,
            )
        else:
            said = ngettext(
                "Send the first {count} of {total} steps: {moves}",
                "Send the first {count} of {total} steps: {moves}",
                count,
            )
        text = said.format(count=i18n.number(count), total=i18n.number(len(steps)), moves=sent)
        name = limits.shorten(text, limits.CHOICE)
        return [app_commands.Choice(name=name, value=sent + mark)]

    def suggest(self, state: Any, current: str) -> list[tuple[str, bool]]:
        """(move, complete) for what was typed: legal moves starting with it first, then containing it.

        In games whose turn is several moves (`continues_turns`: Volcano's steps, sent as `b2-c3, c3-d4`),
        the moves typed before the last comma are kept and the suggestions continue from the position they
        lead to. Only games without chance may: playing a typed head in Geyser would roll its battle's dice,
        and the suggestions (or their absence) would tell them before the player decides.
        A game's cog may offer partial moves too (complete False: they carry no ply).
        """
        game = self.service.games[self.game_key]
        seat = game.to_move(state)
        done, typed = "", current.strip().lower().replace(" ", "")
        if "," in current and not self.continues_turns:
            return []
        if "," in current:
            head, __, tail = current.rpartition(",")
            try:
                after = game.play(state, head)
            except GameError:
                return []
            if game.to_move(after) != seat:  # those moves end the turn: nothing can follow them
                return []
            done, typed, state = game.canonical(state, head) + ", ", tail.strip().lower().replace(" ", ""), after
        moves = game.legal_moves(state)
        ranked = [m for m in moves if m.lower().startswith(typed)] + [
            m for m in moves if typed in m.lower() and not m.lower().startswith(typed)
        ]
        return [(done + m, True) for m in ranked[:25]]

    @app_commands.command(description="Show the board of a match; text gives the position in words instead")
    @app_commands.describe(match="match number (default: this thread's match or yours)", text=TEXT_HELP)
    async def board(self, interaction: discord.Interaction, match: int | None = None, text: bool = False) -> None:
        await self.show_board(interaction, match, text=text)

    async def show_board(
        self,
        interaction: discord.Interaction,
        match: int | None,
        overlays: frozenset[str] = frozenset(),
        *,
        text: bool = False,
    ) -> None:
        found = await self._match(interaction, match, mine=True)
        now = discord.utils.utcnow().timestamp()
        if text:  # the position in words, for a screen reader: only the asker sees it
            board = text_board(found.game, found.state, posts.caption(self.service, found, now))
            first, *more = limits.split(discord.utils.escape_markdown(board))
            await interaction.response.send_message(first, ephemeral=True, allowed_mentions=limits.NOBODY)
            for part in more:
                await interaction.followup.send(part, ephemeral=True, allowed_mentions=limits.NOBODY)
            return
        await views.defer_public(interaction)
        with posts.publicly(found.place.guild_id):  # posted for the channel: in the server's language
            post = await asyncio.to_thread(posts.build, self.service, found, [], now, overlays)
        await interaction.followup.send(
            post.text,
            file=discord.File(
                io.BytesIO(post.png), filename=f"{found.game}-{found.id}-{found.ply}.png", description=post.description
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(description="List your legal moves (only you see them)")
    @app_commands.describe(
        filter="only the moves it starts: a square, a stone pair or a card, e.g. D4, e5 e8, F2 (default: all)",
        page="which page of the list, when it is long (default 1)",
        match="match number, if you play several",
    )
    async def moves(
        self,
        interaction: discord.Interaction,
        filter: app_commands.Range[str, 1, 100] | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
        match: int | None = None,
    ) -> None:
        found = await self._match(interaction, match)
        game = self.service.game(found)
        seat = game.to_move(found.state)
        if not found.running or seat is None:
            raise Refusal(_("Match #{number} is over.").format(number=found.id))
        if seat not in found.seats_of(discord_ids.player(interaction.user).id):
            raise Refusal(_("It is {name}'s turn, not yours.").format(name=found.players[seat].name))
        typed = " ".join((filter or "").split())
        lines = posts.moves_lines(game, game.legal_moves(found.state), typed)
        # the filter is only repeated when it matched a move, so it is notation: short, and no markdown
        command = f"/{self.game_key} moves" + (f" filter:{typed}" if typed else "")
        command += f" match:{match}" if match is not None else ""
        room = limits.MESSAGE - max(0, len(command) - 30)  # `page` keeps 80 characters for a footer
        text = limits.page(lines, page, command=command, limit=room)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(description="The moves of a match so far")
    @app_commands.describe(match="match number (default: this thread's match or yours)")
    async def history(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        lines = posts.history_lines(found, await self.service.log(found.id), self.service.game(found))
        text = "\n".join(lines) or _("No moves yet.")
        if len(text) > 1900:
            text = "…\n" + text[-1900:].split("\n", 1)[1]
        head = _("Match #{number}:").format(number=found.id)
        await interaction.response.send_message(f"{head}\n{text}", ephemeral=True)

    @app_commands.command(description="Step through a match move by move, only for you, and jump to its key moments")
    @app_commands.describe(
        match="match number, running or finished (default: this thread's match or yours)",
        move="the move to show first: 0 is the start (default: the newest)",
    )
    async def review(
        self,
        interaction: discord.Interaction,
        match: int | None = None,
        move: app_commands.Range[int, 0, 100_000] | None = None,
    ) -> None:
        await open_review(interaction, await self._match(interaction, match), move)

    @app_commands.command(description="The record of a finished match as a JSON file (players, seed, moves, result)")
    @app_commands.describe(match="match number (default: the match of this thread)")
    async def record(self, interaction: discord.Interaction, match: int | None = None) -> None:
        from bot.records import build_record

        if match is None:  # without a number only a running match can be found, and that one is refused
            try:
                match = (await self._match(interaction, None)).id
            except Refusal:
                raise Refusal(
                    _("Name a finished match: `{command} match:12`.").format(
                        command=command_name(self.game_key, "record")
                    )
                ) from None
        record = await build_record(self.service, (await self._match(interaction, match)).id)
        await interaction.response.send_message(
            _("The record of {game} #{number}: replay it with `replay FILE` in the terminal bot.").format(
                game=self.title, number=record.match_id
            ),
            file=discord.File(io.BytesIO(record.dumps().encode()), filename=record.filename),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(description="A finished match's chances to win, move by move, and its largest swings")
    @app_commands.describe(match="the finished match's number (default: the match of this thread)")
    async def analysis(self, interaction: discord.Interaction, match: int | None = None) -> None:
        analyst = self.bot.analyst
        if analyst is None:
            raise Refusal(_("Analyses are turned off on this bot (its ANALYSIS_WORKERS setting is 0)."))
        if match is None:  # without a number only a running match can be found, and that one is refused
            try:
                match = (await self._match(interaction, None)).id
            except Refusal:
                raise Refusal(
                    _("Name a finished match: `{command} match:12`.").format(
                        command=command_name(self.game_key, "analysis")
                    )
                ) from None
        found = await self.service.get(match)
        if found.place.guild_id != server_id(interaction):
            raise Refusal(_("There is no match #{number} here.").format(number=match))
        if found.game != self.game_key:
            other = self.service.game(found).title
            raise Refusal(
                _("Match #{number} is a game of {other}, not {game}: use `{command} match:{number}`.").format(
                    number=found.id, other=other, game=self.title, command=command_name(found.game, "analysis")
                )
            )
        analyst.check(found)  # refused privately, before the public answer: running, aborted, solitaire, busy
        await interaction.response.defer(thinking=True)  # seconds of searching, in the analysis worker
        report = await analyst.report(found)
        await interaction.followup.send(**discord_app.analysis_message(report))

    @app_commands.command(description="Resign a match (asks you to confirm)")
    @app_commands.describe(match="match number, if you play several")
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        await views.ask_to_resign(interaction, found.id)

    @app_commands.command(description="Ask the others to let you take back your last move (casual games)")
    @app_commands.describe(match="match number, if you play several")
    async def takeback(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)  # against a computer: a new board
        notice = await self.service.takebacks.request(found.id, discord_ids.player(interaction.user).id)
        if notice.kind == NoticeKind.TAKEBACK:
            answer = _("Asked: the others answer with the buttons in {place}.").format(place=discord_ids.where(found))
        else:
            answer = notice.lines[0]
        await interaction.followup.send(answer, ephemeral=True)

    @app_commands.command(
        description=f"Claim an untimed game whose player to move has been idle {CLAIM_AFTER_WORDS} (or the"
        " server's wait)"
    )
    @app_commands.describe(match="match number, if you play several")
    async def claim(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the final board is posted first
        notice = await self.service.claims.claim(found.id, discord_ids.player(interaction.user).id)
        await interaction.followup.send(_("Claimed: {line}").format(line=notice.lines[0]), ephemeral=True)

    @app_commands.command(description="The rules in short, with the board's coordinates")
    async def rules(self, interaction: discord.Interaction) -> None:
        game: Any = self.service.games[self.game_key]
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(rules_picture, self.game_key)  # to_thread keeps the reader's language
        picture = discord.File(
            io.BytesIO(png), filename=f"{self.game_key}-board.png", description=rules_description(self.game_key)
        )
        await interaction.followup.send(game.rules_card, file=picture, ephemeral=True)


class TwoPlayerCog(GameCog):
    """Games for two: a player challenges another, who accepts with a button, or the bot, which plays."""

    components = (*GameCog.components, AcceptChallengeButton, ChallengeBeforeStoredButton)

    @app_commands.command(description="Challenge someone to a game (they accept with a button), or the bot itself")
    @app_commands.describe(
        opponent="who you challenge; choose the bot to play against the computer",
        clock=CLOCK_HELP,
        level="how hard the computer plays, when you challenge the bot (default normal)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        clock: str | None = None,
        level: str = "normal",
    ) -> None:
        if opponent.id == interaction.user.id:
            raise Refusal(_("You cannot challenge yourself."))
        settings = clock_or_default(self.service, interaction, clock)
        if (why := match_channel_refusal(interaction)) is not None:
            raise Refusal(why)
        if self.bot.user is not None and opponent.id == self.bot.user.id:
            await self._against_computer(interaction, settings, level)
            return
        if opponent.bot:
            name = discord_ids.player(opponent).name
            raise Refusal(_("{name} is a bot and cannot play; challenge me to play the computer.").format(name=name))
        me = discord_ids.player(interaction.user)
        guild_id = server_id(interaction)
        async with _challenger_lock(guild_id, interaction.user.id):  # counted and recorded one at a time
            if (why := await self.service.limits.challenge_refusal(guild_id, me)) is not None:
                raise Refusal(why)
            # stored first, under the command's id, so a click as soon as it shows finds it
            challenged, here = discord_ids.player(opponent), interaction.channel_id
            await self.service.challenges.record_challenge(
                interaction.id, guild_id, me, challenged, game=self.game_key, clock=settings, channel_id=here
            )
            with in_public(interaction):
                # a public post: the server's language, its button too
                text = challenge_text(opponent.mention, interaction.user.mention, self.title, settings)
                view = discord.ui.View(timeout=None)
                view.add_item(AcceptChallengeButton(interaction.id))
            try:
                await interaction.response.send_message(
                    text,
                    view=view,
                    allowed_mentions=limits.pinging(opponent.id),
                )
            except discord.HTTPException:
                await self.service.challenges.withdraw_challenge(interaction.id)  # never shown: it counts for nothing
                raise

    async def _against_computer(
        self, interaction: discord.Interaction, settings: ClockSettings | None, level: str
    ) -> None:
        """The bot accepts at once: the challenger takes the first seat, a computer the second."""
        if interaction.guild is None or interaction.channel is None:
            raise Refusal(_("Games are played in a server channel."))
        me = discord_ids.player(interaction.user)
        if (why := self.service.limits.computer_games_refusal([me, computer(level)], interaction.guild.id)) is not None:
            raise Refusal(why)  # before the public deferral, so only the asker sees it
        await views.defer_public(interaction)
        match = await self.service.create_match(
            self.game_key,
            [discord_ids.player(interaction.user), computer(level)],
            clock=settings,
            place=Place(interaction.guild.id, interaction.channel.id),
        )
        with in_public(interaction):
            text = _("{game} #{number} against the computer ({level}) is on: {place}.").format(
                game=self.title, number=match.id, level=level_word(level), place=discord_ids.where(match)
            )
        await interaction.followup.send(text, allowed_mentions=discord.AllowedMentions.none())


LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
"""The computer's levels as a player reads them (the level itself, a choice's value, stays English)."""


def level_word(level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


_CHALLENGERS: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = weakref.WeakValueDictionary()


def _challenger_lock(guild_id: int, user_id: int) -> asyncio.Lock:
    """One challenge at a time per person per server, so a burst of them cannot slip past the limit."""
    lock = _CHALLENGERS.get((guild_id, user_id))
    if lock is None:
        lock = _CHALLENGERS[(guild_id, user_id)] = asyncio.Lock()
    return lock


def rules_picture(game_key: str) -> bytes:
    """A fresh board from a fixed seed: it shows every coordinate."""
    game = GAMES[game_key]
    state = game.new(game.min_players, 0)
    return render(game_key, state, caption=rules_caption())


def rules_description(game_key: str) -> str:
    """The alt text of `rules_picture`."""
    game = GAMES[game_key]
    return describe(game_key, game.new(game.min_players, 0), rules_caption())


RULES_HEADER = N_("The board and its coordinates")
"""The rules picture's caption, said in the reader's language when it is drawn."""


def rules_caption() -> Caption:
    return Caption(header=_(RULES_HEADER))
