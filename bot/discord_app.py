"""The Discord front-end: the bot class, and the poster that turns service notices into messages.

Thin on purpose: cogs parse interactions and call the service; the poster renders boards off the event
loop and posts them in the match's thread (or channel), then tells the service the board is up, which
starts the clock. Only ids are persisted; channels are fetched again after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import analysis, answers, i18n, posts, views
from bot import discord_limits as limits
from bot.analysis import Report
from bot.answers import Answer
from bot.backup import BackupSchedule
from bot.clock import SystemTime, TimeSource
from bot.cogs.takeback import takeback_view
from bot.computer import AnalysisBusy, Analyst, ComputerPlayers
from bot.config import Config
from bot.db import POSTGRESQL
from bot.discord_gateway import GatewayWatch
from bot.discord_i18n import CatalogTranslator, public_language
from bot.discord_reminders import ReminderPoster
from bot.games import REGISTRY
from bot.health import Health, HealthServer
from bot.i18n import N_, _
from bot.metrics import PrometheusMetrics
from bot.models import Match, NoticeKind, Player, Takeback
from bot.pacing import Pace, paced
from bot.service import MatchService, Notice, ServerDefaults, ServiceError
from bot.shards import Leases
from bot.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = (
    *(registration.cog for registration in REGISTRY.values()),
    "bot.cogs.mod",
    "bot.cogs.general",
    "bot.cogs.ratings",
    "bot.cogs.players",
    "bot.cogs.settings",
    "bot.cogs.tournament",
)
RESTART_LINE = posts.RESTART_LINE
"""Said on each live board posted again after a restart (boards on long clocks are not: bot/service/downtime.py)."""


DM_LINE = N_("These commands work in a server's channels, where the matches are: use them there.")


class ServerTree(app_commands.CommandTree["GameBot"]):
    """Every command is a server command (synced with guild-only contexts); an interaction that reaches
    us from a direct message anyway (an old client, a stale command) gets one line and touches nothing.
    Each interaction's task speaks its user's language from here on (bot/i18n.py), and knows its server's
    public language for what it posts publicly (`posts.publicly`)."""

    async def interaction_check(self, interaction: discord.Interaction[GameBot], /) -> bool:
        i18n.set_reader(i18n.language_for(interaction.locale.value))  # its answers speak the user's language
        if interaction.guild_id is not None:
            posts.set_public_here(interaction.client.public_language(interaction.guild_id, interaction.guild_locale))
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(_(DM_LINE), ephemeral=True)
        return False


class GameBot(commands.Bot):
    """Opens the store and service in `setup_hook`, loads the cogs and resumes every running match."""

    def __init__(self, config: Config, **shards: Any) -> None:
        intents = discord.Intents.default()  # guilds and interactions; no privileged intents needed
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=ServerTree,
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            allowed_mentions=limits.NOBODY,  # a send that names whom to ping says so itself
        )
        self.config = config
        self.http.request = paced(self.http.request, Pace())  # type: ignore[method-assign]  # Discord's global limit
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.hold_retries: tuple[float, ...] = (30.0, 120.0, 600.0)
        """Seconds before each automatic retry of a held match's board (tests shorten them)."""
        self._retrying: dict[int, asyncio.Task[None]] = {}
        self._posting = 0
        self._posted = asyncio.Event()
        """Set while no notice is being posted (`close` waits for it)."""
        self._posted.set()
        self.store: Store | None = None
        self.service: MatchService | None = None
        self._resumed: list[Match] = []
        self._repost_task: asyncio.Task[None] | None = None
        self.computers: ComputerPlayers | None = None
        self.analyst: Analyst | None = None
        """The after-the-game analyses (bot/computer.py), posted after each final board and by /<game> analysis."""
        self._analysing: set[asyncio.Task[None]] = set()
        self.backups: BackupSchedule | None = None
        self.reminders = ReminderPoster(self, lambda: self.matches, self._send)
        self.time: TimeSource | None = None
        """The service's time source: the wall clock unless a test sets a fake one before the bot starts."""
        self.metrics = PrometheusMetrics()
        """What this process measures (bot/metrics.py), served with /healthz when METRICS_PORT is set."""
        self.health: HealthServer | None = None
        self.gateway = GatewayWatch(self, lambda: self.service, self._send)
        """Which shards' gateways are down, their matches held meanwhile (bot/discord_gateway.py)."""
        self.leases: Leases | None = None
        """This process's shard leases (bot/shards.py), on PostgreSQL; None on SQLite, which one process uses."""
        self.held_leases: Callable[[], Collection[int] | None] = lambda: None
        """The shard leases this process holds now, for /healthz (bot/shards.py's `Leases.held`; None: it
        takes none): with none held it answers 503."""

    @property
    def matches(self) -> MatchService:
        assert self.service is not None, "setup_hook has not run"
        return self.service

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database)
        defaults = ServerDefaults(self.config.mod_role, self.config.house_wins, self.config.limits)
        if self.store.backend == POSTGRESQL:  # several processes may share it: each acts only on its shards
            self.leases = Leases(self.store, self.config.shards, self.time or SystemTime())
            self.held_leases = lambda: frozenset(self.leases.held) if self.leases else None
            await self.leases.start()  # before the service starts: it loads only the matches of held shards
        # `defaults` are only defaults: each server may set its own
        self.service = MatchService(
            self.store, self.time, defaults=defaults, metrics=self.metrics, ownership=self.leases
        )
        self.service.subscribe(self.on_notice)  # first: a computer answers a move once its board is posted
        posts.speak_publicly(self.public_language)  # every notice's words in its server's language
        self.computers = ComputerPlayers(
            self.service, workers=self.config.computer_workers, hard_seconds=self.config.hard_seconds
        )
        if self.config.analysis_workers:  # its worker processes start with the first analysis
            self.analyst = Analyst(self.service, workers=self.config.analysis_workers)
        await self.tree.set_translator(CatalogTranslator())  # commands in each user's language (bot/discord_i18n.py)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self._resumed = await self.service.start()
        if self.leases is not None:
            self.leases.on_gained, self.leases.on_lost = self._shard_gained, self._shard_lost
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        self._repost_task = asyncio.create_task(self._repost_resumed(), name="repost-after-restart")
        self.gateway.start()
        self.backups = BackupSchedule.start(
            self.store, self.config.backups, self.config.backup_hours, self.config.backup_keep
        )
        if self.config.metrics_port is not None:
            self.health = await HealthServer.start(
                self.health_check(), self.metrics, self.config.metrics_host, self.config.metrics_port
            )

    def public_language(self, guild_id: int | None, guild_locale: discord.Locale | None = None) -> str:
        """The language of a server's public posts (boards, notices, reminders, pictures, thread names): its
        `language` setting, else its language in Discord (`guild_locale`: the cached guild's, or the one an
        interaction brought), else English."""
        setting = self.service.settings.language(guild_id) if self.service is not None and guild_id else None
        guild = self.get_guild(guild_id) if guild_id is not None else None
        if guild is None and guild_locale is not None:
            return i18n.server_language(setting, guild_locale.value)
        return public_language(setting, guild)

    def health_check(self) -> Health:
        """What /healthz reports for this process (bot/health.py)."""
        service = self.matches
        return Health(
            database=service.store.schema_version,
            open_matches=lambda: len(service.running()),
            mode="discord",
            connected=self.connected,
            shards=self.running_shards,
            leases=lambda: self.held_leases(),
        )

    def connected(self) -> bool:
        """Whether the gateway is up now (every shard's): discord.py reconnects by itself when it is not."""
        if self.is_closed() or not self.is_ready():
            return False
        if isinstance(self, commands.AutoShardedBot):
            return bool(self.shards) and not any(shard.is_closed() for shard in self.shards.values())
        return self.ws is not None and self.ws.open

    def running_shards(self) -> list[int]:
        """The Discord shards this process runs."""
        if isinstance(self, commands.AutoShardedBot):
            return sorted(self.shard_ids or self.shards)
        return [self.shard_id or 0]

    async def _shard_gained(self, shard: int) -> None:
        """Another process's shard became ours (it died): resume its matches and repost their boards."""
        self._resumed = [*self._resumed, *await self.matches.adopt()]
        if self._repost_task is None or self._repost_task.done():
            self._repost_task = asyncio.create_task(self._repost_resumed(), name=f"repost-shard-{shard}")

    async def _shard_lost(self, shard: int) -> None:
        """This process may no longer act on the shard's matches: forget them at once."""
        self.matches.drop_unowned()

    async def _repost_resumed(self) -> None:
        """After a restart: post the boards that need it again (live clocks, and boards that were not up),
        soonest deadline first as the service gives them, each clock starting with its post, and say why.
        Each player is pinged once, on the first of their boards; discord.py paces the posts by Discord's
        rate-limit headers. The quiet matches' computers think again too."""
        await self.wait_until_ready()
        pinged: set[int] = set()
        while self._resumed:  # a shard gained meanwhile adds its boards here
            match = self._resumed.pop(0)
            try:
                await self.post(Notice(NoticeKind.BOARD, match, (posts.restart_line(match),)), pinged=pinged)
            except Exception:
                log.exception("could not repost match %s", match.id)
        if self.computers is not None:
            for match in self.matches.running():
                self.computers.poke(match)
        try:  # tournaments whose closing time or round came while the bot was down go on, now it can post
            await self.matches.tournaments.resume()
        except Exception:
            log.exception("could not resume the tournaments")

    # --- the gateway (bot/discord_gateway.py): a shard's matches wait while it is down ---

    async def on_disconnect(self) -> None:
        if not isinstance(self, commands.AutoShardedBot):  # a sharded bot hears on_shard_disconnect too
            await self.gateway.lost(self.shard_id or 0)

    async def on_ready(self) -> None:
        if not isinstance(self, commands.AutoShardedBot):
            await self.gateway.back(self.shard_id or 0)

    async def on_resumed(self) -> None:
        if not isinstance(self, commands.AutoShardedBot):
            await self.gateway.back(self.shard_id or 0)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        await self.gateway.lost(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        await self.gateway.back(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        await self.gateway.back(shard_id)

    async def close(self) -> None:
        await self.gateway.stop()
        # A move answered with its board may still be recording that board: let it finish (a few seconds
        # at most), so a shutdown never cuts a post off from its store.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._posted.wait(), timeout=10)
        if self.health is not None:
            await self.health.close()
        for task in list(self._retrying.values()):
            task.cancel()
        self.reminders.close()
        if self.backups is not None:
            await self.backups.close()
        if self.computers is not None:
            await self.computers.close()
        for analysing in list(self._analysing):
            analysing.cancel()
        if self.analyst is not None:
            await self.analyst.close()
        if self.service is not None:
            await self.service.close()
        if self.leases is not None:
            await self.leases.stop()  # handed back: a process started next takes them at once
        if self.store is not None:
            await self.store.close()
        posts.speak_publicly(None)
        await super().close()

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Refusals go back ephemeral and plain; anything else is logged and apologised for."""
        original: BaseException = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure):
            original = ServiceError(str(error) or _("You cannot use this command here."))
        elif isinstance(error, app_commands.TransformerError):
            kind = _(VALUE_KINDS.get(error.type.name.lower(), N_("a value of that kind")))
            original = ServiceError(_("Can't read {value} as {kind}.").format(value=repr(error.value), kind=kind))
        command = interaction.command.qualified_name if interaction.command else "?"
        await views.answer_error(interaction, original, f"command {command}")

    async def on_command_error(self, ctx: commands.Context[GameBot], error: commands.CommandError) -> None:  # type: ignore[override]
        """Mention commands (only `@bot sync`): unknown words are ignored, refusals answered plainly."""
        if isinstance(error, commands.CommandNotFound):
            return
        if isinstance(error, commands.CheckFailure):
            await ctx.reply(_("Only the bot's owner can do that."), mention_author=False)
            return
        log.error("text command %s failed", ctx.command, exc_info=error)

    # --- posting ---

    async def on_notice(self, notice: Notice) -> None:
        self._posting += 1
        self._posted.clear()
        try:
            if notice.kind == NoticeKind.REMINDER:  # bot/discord_reminders.py: in the thread or by DM, as chosen
                await answers.answer_first(None)
                with posts.publicly(notice.match.place.guild_id):
                    await self.reminders.deliver(notice)
                return
            await self.post(notice)
        finally:
            self._posting -= 1
            if not self._posting:
                self._posted.set()

    async def channel(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.get_channel(channel_id) or await self.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def destination(self, match: Match) -> discord.abc.Messageable:
        """The match's thread, else its channel (fetched by id: nothing is kept across restarts).

        A new match gets a thread of its own where the bot may create one.
        """
        if match.place.thread_id is not None:
            return await self.channel(match.place.thread_id)
        assert match.place.channel_id is not None
        channel = await self.channel(match.place.channel_id)
        if match.running and (thread := await self._open_thread(match, channel)) is not None:
            await self.matches.playing.set_thread(match.id, thread.id)
            return thread
        return channel

    async def _open_thread(self, match: Match, channel: discord.abc.Messageable) -> discord.Thread | None:
        """A public thread for the match in `channel`, or None where the bot may not open one."""
        if not isinstance(channel, discord.TextChannel):
            return None
        if not channel.permissions_for(channel.guild.me).create_public_threads:
            return None
        title = self.matches.game(match).title
        with posts.publicly(match.place.guild_id):  # a thread's name is read by the whole server
            name = f"{title} #{match.id}: {posts.versus(match.names)}"[: limits.THREAD_NAME]
        try:
            return await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=limits.LONGEST_ARCHIVE
            )
        except discord.HTTPException as error:
            log.info("could not open a thread for match %s (%s); posting in the channel", match.id, _why(error))
            return None

    async def post(self, notice: Notice, *, pinged: set[int] | None = None) -> discord.Message | None:
        """Post a notice: a board image with its words, or the words alone; then start the clock.

        The board goes up first; at the end of a game the replay GIF follows in a message of its own, so
        building it never holds the final board back. Returns None when nothing could be posted. `pinged`:
        people pinged already by other posts of a batch (the reposts after a restart), not pinged again;
        those this post pings are added. Everything posted speaks the server's language (`posts.publicly`),
        whoever caused it; the private "Played: …" to the player who moved speaks theirs."""
        if notice.match.place.channel_id is None:
            return None  # not a Discord match
        mover = i18n.current()
        with posts.publicly(notice.match.place.guild_id):
            return await self._post(notice, pinged, mover)

    async def _post(self, notice: Notice, pinged: set[int] | None, mover: str) -> discord.Message | None:
        match = notice.match
        service = self.matches
        post = await asyncio.to_thread(posts.for_notice, service, notice, discord.utils.utcnow().timestamp())
        await answers.answer_first((match.place.thread_id or match.place.channel_id) if post is not None else None)
        if post is None:
            if notice.kind == NoticeKind.TAKEBACK and notice.takeback is not None:
                return await self._ask_takeback(notice, notice.takeback)
            words = limits.clip("\n".join(notice.lines))
            sent = await self._send(match, lambda place: place.send(words, allowed_mentions=limits.NOBODY))
            await self._close_takeback(notice)
            return sent
        lines, separate = posts.own_messages(service, match, notice.lines)
        text = limits.clip("\n".join([*lines, *posts.status_lines(service, match, mention=True, deadline=True)]))
        filename = f"{match.game}-{match.id}-{match.ply}.png"

        answer: Answer | None = None
        to_ping = [user for user in _to_ping(service, match) if pinged is None or user not in pinged]

        async def send_board(place: discord.abc.Messageable) -> discord.Message:
            nonlocal answer
            fields: dict[str, Any] = {
                "file": discord.File(io.BytesIO(post.png), filename=filename, description=post.description),
                "view": views.board_view(match, service.game(match)) if match.running else discord.utils.MISSING,
                "allowed_mentions": limits.pinging(*to_ping),
            }
            # the answer to the move that made it, where that is the match's place: no rate-limited request;
            # else one more followup of the interaction that caused it (a computer's reply, say)
            channel = getattr(place, "id", 0)
            try:
                if (answer := answers.claim(channel)) is not None:
                    with i18n.using(mover):  # the mover's own answer
                        played = _("Played: {move}").format(move=notice.lines[0] if notice.lines else _("done"))
                    return await answer.send(text, played=played, **fields)
                if (answer := answers.caused(channel)) is not None:
                    return await answer.more(text, **fields)
            except discord.HTTPException as error:  # too late, or its webhook is gone: a channel post after all
                log.info("match %s: the board could not answer its interaction (%s)", match.id, _why(error))
                answer = None
                fields["file"].reset()
            return await place.send(text, **fields)

        message = await self._send(match, send_board, board=notice.kind in BOARD_KINDS)
        if message is None:
            return None
        if pinged is not None:
            pinged.update(to_ping)
        send_more = answer.more if answer is not None else message.channel.send  # the board's way, for what follows
        if separate:  # e.g. Geyser's firing phase: its dice and what it destroyed, as a message of its own
            await self._quietly(send_more(limits.clip("\n".join(separate)), allowed_mentions=limits.NOBODY))
        here = (message.channel.id, message.id)
        previous = await service.board_posted(match.id, match.ply, at=message.created_at.timestamp(), message=here)
        await self._take_buttons_off(match, {previous, match.board} - {None, here})
        await self._close_takeback(notice)
        if notice.kind == NoticeKind.OVER:
            await self._post_replay(match, send_more)
            self._analyse_later(match, message.channel)
        return message

    async def _take_buttons_off(self, match: Match, boards: set[tuple[int, int] | None]) -> None:
        """Older boards keep their buttons while the game goes on (a click on one is refused by its ply):
        taking them off would cost a rate-limited edit per move. The clicked board loses them, as that
        is free (the click's own webhook); at the end of the game the last one loses them too."""
        clicking = answers.current()
        for board in boards:
            if board is None:
                continue
            if clicking is not None and clicking.clicked == board and not answers.gone(clicking.interaction):
                await self._quietly(clicking.take_buttons_off())
            elif not match.running:
                await self._strip_buttons(*board)

    async def _ask_takeback(self, notice: Notice, takeback: Takeback) -> discord.Message | None:
        """A takeback request with its Accept / Decline buttons (bot/cogs/takeback.py), pinging those asked;
        the service keeps where it is, so it loses the buttons when it closes."""
        match = notice.match
        ids = [int(raw) for p in self.matches.takebacks.waiting(match, takeback) if (raw := _discord_id(p)) is not None]
        text = limits.clip("\n".join([" ".join(f"<@{i}>" for i in ids), *notice.lines] if ids else notice.lines))

        async def send(place: discord.abc.Messageable) -> discord.Message:
            return await place.send(text, view=takeback_view(takeback), allowed_mentions=limits.pinging(*ids))

        message = await self._send(match, send)
        if message is not None:
            where = (message.channel.id, message.id)
            if not await self.matches.takebacks.posted(match.id, takeback.id, where):
                await self._strip_buttons(*where)  # answered (or lapsed) before it was even posted
        return message

    async def _close_takeback(self, notice: Notice) -> None:
        """A takeback request closed (taken back, declined, expired, lapsed): its post loses its buttons."""
        takeback = notice.takeback
        if takeback is not None and not takeback.open and takeback.message is not None:
            await self._strip_buttons(*takeback.message)

    async def _send(
        self,
        match: Match,
        send: Callable[[discord.abc.Messageable], Awaitable[discord.Message]],
        *,
        board: bool = False,
    ) -> discord.Message | None:
        """Send to the match's place; where that is gone or closed to the bot (deleted, locked, permission
        removed), fall back to a new thread in its channel, then to the channel itself, remember the new
        place and say so there. A board that cannot be posted anywhere puts the match on hold
        (`MatchService.hold`): its clock does not start until a board is posted."""
        try:
            return await send(await self.destination(match))
        except discord.HTTPException as error:
            problem = error
            self.metrics.post_failed(_failure(error))
        if _place_unusable(problem) and match.place.channel_id is not None:
            moved = await self._send_elsewhere(match, send, _why(problem))
            if moved is not None:
                return moved
        reason = _why(problem)
        if board and match.running:
            await self.matches.hold(match.id, reason)
            self._retry_held(match.id)
        else:
            log.warning("match %s: could not post a message anywhere (%s)", match.id, reason)
        return None

    async def _send_elsewhere(
        self, match: Match, send: Callable[[discord.abc.Messageable], Awaitable[discord.Message]], why: str
    ) -> discord.Message | None:
        """The fallbacks of `_send`: a new thread in the match's channel (when its thread failed), then the
        channel itself; each starts with a line saying why the match moved."""
        assert match.place.channel_id is not None
        try:
            channel = await self.channel(match.place.channel_id)
        except discord.HTTPException as error:
            log.info("match %s: its channel is gone too (%s)", match.id, _why(error))
            return None
        had_thread = match.place.thread_id is not None
        fields = {"number": match.id, "names": posts.versus(match.names), "why": why}
        if had_thread:
            note = _("Match #{number} ({names}) goes on here: the bot could not post in its thread ({why}).")
        else:
            note = _("Match #{number} ({names}) goes on here: the bot could not post in this channel ({why}).")
        note = note.format(**fields)
        places: list[discord.abc.Messageable] = []
        if had_thread and match.running and (thread := await self._open_thread(match, channel)) is not None:
            places.append(thread)
        if had_thread:
            places.append(channel)
        for place in places:
            try:
                await place.send(limits.clip(note), allowed_mentions=limits.NOBODY)
                message = await send(place)
            except discord.HTTPException as error:
                self.metrics.post_failed(_failure(error))
                log.info("match %s: could not post in %s either (%s)", match.id, getattr(place, "id", "?"), _why(error))
                continue
            new_thread = place.id if isinstance(place, discord.Thread) else None
            log.warning("match %s: could not post in its place (%s); moved to %s", match.id, why, place.id)
            if match.running:
                await self.matches.playing.set_thread(match.id, new_thread)
            return message
        return None

    def _retry_held(self, match_id: int) -> None:
        """Try a held match's board again a few times (Discord's own failures pass); /mod repost any time."""
        if match_id in self._retrying or not self.hold_retries:
            return
        task = asyncio.create_task(self._repost_held(match_id), name=f"repost-held-{match_id}")
        self._retrying[match_id] = task
        task.add_done_callback(lambda _: self._retrying.pop(match_id, None))

    async def _repost_held(self, match_id: int) -> None:
        for delay in self.hold_retries:
            await asyncio.sleep(delay)
            match = self.matches.running_match(match_id)
            if match is None or match.held is None:
                return
            with contextlib.suppress(discord.HTTPException):
                with posts.publicly(match.place.guild_id):
                    line = _(HELD_LINE)
                if await self.post(Notice(NoticeKind.BOARD, match, (line,))) is not None:
                    return

    async def _post_replay(self, match: Match, send: Callable[..., Awaitable[discord.Message]]) -> None:
        """The end-of-game GIF, after the final board (never holding it back); nothing if it cannot be built."""
        from bot.records import replay_for
        from renderers import describe

        try:
            gif = await replay_for(self.matches, match)
        except Exception:
            log.exception("could not build the replay of match %s", match.id)
            return
        caption = posts.caption(self.matches, match, discord.utils.utcnow().timestamp())
        lead = _("Replay of match #{number}, move by move, ending on this position.").format(number=match.id)
        described = describe(match.game, match.state, caption, lead=lead)
        await self._quietly(
            send(
                _("The replay of match #{number}, move by move.").format(number=match.id),
                file=discord.File(
                    io.BytesIO(gif), filename=f"{match.game}-{match.id}-replay.gif", description=described
                ),
                allowed_mentions=limits.NOBODY,
            )
        )

    def _analyse_later(self, match: Match, place: discord.abc.Messageable) -> None:
        """The analysis of a finished game, in the background after its final board (and replay): it takes
        seconds in its own worker, and nothing of the move path waits for it or hears of its failures."""
        if self.analyst is None or analysis.refusal(match) is not None:  # solitaire: no chances to draw
            return
        task = asyncio.create_task(self._post_analysis(match, place), name=f"post-analysis-{match.id}")
        self._analysing.add(task)
        task.add_done_callback(self._analysing.discard)

    async def _post_analysis(self, match: Match, place: discord.abc.Messageable) -> None:
        assert self.analyst is not None
        try:
            report = await self.analyst.report(match)
        except AnalysisBusy:
            log.info("no analysis for match %s: too many are being made", match.id)
            return
        except Exception:
            log.exception("could not make the analysis of match %s", match.id)
            return
        await self._quietly(place.send(**analysis_message(report)))

    async def _quietly(self, sending: Awaitable[Any]) -> None:
        """A message that may fail without harm (the board is up already): logged, not raised."""
        try:
            await sending
        except discord.HTTPException as error:
            self.metrics.post_failed(_failure(error))
            log.info("could not post a message (%s)", _why(error))

    async def _strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Earlier boards lose their buttons, so only the current one can be acted on."""
        try:
            channel = await self.channel(channel_id)
            if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
                await channel.edit(archived=False)  # a message in an archived thread cannot be edited
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.info("could not remove the buttons of message %s", message_id)


def analysis_message(report: Report) -> dict[str, Any]:
    """The keyword arguments of an analysis post (after a game, and `/<game> analysis`): its words, and
    the graph with its alt text. Names in the words are plain text: markdown is escaped, nobody pinged."""
    return {
        "content": limits.clip(discord.utils.escape_markdown(report.text)),
        "file": discord.File(
            io.BytesIO(report.png), filename=f"{report.filename_stem}.png", description=report.description
        ),
        "allowed_mentions": limits.NOBODY,
    }


BOARD_KINDS = frozenset({NoticeKind.STARTED, NoticeKind.MOVED, NoticeKind.UNDONE, NoticeKind.BOARD})
"""Notices whose post starts a turn's clock: if it cannot be posted anywhere, the match is held."""
HELD_LINE = N_("The bot can post here again: the match goes on.")
"""Said with `_(HELD_LINE)` in the server's language."""
VALUE_KINDS = {
    "string": N_("text"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("yes or no"),
    "user": N_("a member"),
    "channel": N_("a channel"),
    "role": N_("a role"),
    "mentionable": N_("a member or a role"),
    "attachment": N_("a file"),
}
"""What an option of each of Discord's kinds takes, for a value Discord could not read as one."""

_UNUSABLE_CODES = frozenset({10003, 50001, 50013, 50083, 160005})
"""Unknown Channel, Missing Access, Missing Permissions, Thread is archived, Thread is locked."""


def _place_unusable(error: discord.HTTPException) -> bool:
    """The place itself refuses us (gone, locked, no permission): another place may work. Anything else
    (Discord's 5xx, a body it rejects) would fail there too."""
    return isinstance(error, (discord.Forbidden, discord.NotFound)) or error.code in _UNUSABLE_CODES


def _why(error: discord.HTTPException) -> str:
    """A failed request in a few words, for the log and for the line that says a match moved."""
    if isinstance(error, discord.NotFound):
        return "it was deleted"
    if error.code == 160005:
        return "it is locked"
    if error.code == 50083:
        return "it is archived"
    if isinstance(error, discord.Forbidden):
        return "the bot may not post there any more"
    return f"Discord answered {error.status}: {error.text or 'no reason given'}"[:200]


def _failure(error: discord.HTTPException) -> str:
    """A failed post for the failed-posts metric (bot/metrics.py FAILED_REASONS)."""
    if error.code == 50083:
        return "50083"  # the thread is archived (a 400)
    if error.status in (403, 404):
        return str(error.status)
    return "5xx" if error.status >= 500 else "other"


def _discord_id(player: Player) -> int | None:
    """A person's Discord user id, None for anyone else (a computer, a terminal player)."""
    kind, _, raw = player.id.partition(":")
    return int(raw) if kind == "discord" and raw.isdigit() else None


def _to_ping(service: MatchService, match: Match) -> list[int]:
    """The Discord user id of the player to move, the only one a board post pings."""
    if not match.running:
        return []
    seat = service.game(match).to_move(match.state)
    if seat is None:
        return []
    kind, _, raw = match.players[seat].id.partition(":")
    return [int(raw)] if kind == "discord" and raw.isdigit() else []


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot running several Discord shards in one process (SHARD_COUNT above 1, SHARD_IDS)."""


def bot_for(config: Config) -> GameBot:
    """The bot for this process: one connection, or (SHARD_COUNT > 1) its SHARD_IDS of SHARD_COUNT shards."""
    plan = config.shards
    if plan.count > 1:
        return ShardedGameBot(config, shard_count=plan.count, shard_ids=list(plan.ids))
    return GameBot(config)
