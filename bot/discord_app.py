"""The Discord front-end: the bot class, and the poster that turns service notices into messages.

Thin on purpose: cogs parse interactions and call the service; the poster renders boards off the event
loop and posts them in the match's thread (or channel), then tells the service the board is up, which
starts the clock. Only ids are persisted; channels are fetched again after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot import posts
from bot.backup import BackupSchedule
from bot.computer import ComputerPlayers
from bot.config import Config
from bot.games import GameError
from bot.models import Match, Player
from bot.service import MatchService, Notice, ServiceError
from bot.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.cogs.fish",
    "bot.cogs.volcano",
    "bot.cogs.themiscyra",
    "bot.cogs.geyser",
    "bot.cogs.horizon",
    "bot.cogs.mod",
    "bot.cogs.general",
    "bot.cogs.ratings",
)
RESTART_LINE = "The bot is back after a restart: a fresh move clock for the player to move, reserves unchanged."


def player(user: discord.abc.User) -> Player:
    """The service's view of a Discord user (ids persist; names are for display)."""
    return Player(f"discord:{user.id}", user.display_name)


class GameBot(commands.Bot):
    """Opens the store and service in `setup_hook`, loads the cogs and resumes every running match."""

    def __init__(self, config: Config) -> None:
        intents = discord.Intents.default()  # guilds and interactions; no privileged intents needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = config
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.store: Store | None = None
        self.service: MatchService | None = None
        self._resumed: list[Match] = []
        self._repost_task: asyncio.Task[None] | None = None
        self.computers: ComputerPlayers | None = None
        self.backups: BackupSchedule | None = None

    @property
    def matches(self) -> MatchService:
        assert self.service is not None, "setup_hook has not run"
        return self.service

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database_path)
        self.service = MatchService(self.store)
        self.service.subscribe(self.on_notice)  # first: a computer answers a move once its board is posted
        self.computers = ComputerPlayers(
            self.service, workers=self.config.computer_workers, hard_seconds=self.config.hard_seconds
        )
        from bot import views

        self.add_dynamic_items(*views.DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self._resumed = await self.service.start()
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        self._repost_task = asyncio.create_task(self._repost_resumed(), name="repost-after-restart")
        self.backups = BackupSchedule.start(
            self.store, self.config.backups, self.config.backup_hours, self.config.backup_keep
        )

    async def _repost_resumed(self) -> None:
        """After a restart: repost each running board (its clock starts with the post) and say why."""
        await self.wait_until_ready()
        for match in self._resumed:
            try:
                await self.post(Notice("board", match, (RESTART_LINE,)))
            except discord.HTTPException:
                log.exception("could not repost match %s", match.id)
            if self.computers is not None:
                self.computers.poke(match)
        self._resumed = []

    async def close(self) -> None:
        if self.backups is not None:
            await self.backups.close()
        if self.computers is not None:
            await self.computers.close()
        if self.service is not None:
            await self.service.close()
        if self.store is not None:
            await self.store.close()
        await super().close()

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Refusals go back ephemeral and plain; anything else is logged and apologised for."""
        from bot import views

        original = getattr(error, "original", error)
        if isinstance(original, (ServiceError, GameError)) or isinstance(error, app_commands.CheckFailure):
            message = str(original) or "You cannot use this command here."
        elif isinstance(error, app_commands.TransformerError):
            message = f"Can't read {error.value!r} as a {error.type.name.lower()}."
        else:
            log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=error)
            message = "Something went wrong on our side; try again, or ask a moderator."
        try:
            await views.refuse(interaction, message)
        except discord.HTTPException:
            log.info("could not send a refusal to %s", interaction.user)

    async def on_command_error(self, ctx: commands.Context[GameBot], error: commands.CommandError) -> None:  # type: ignore[override]
        """Mention commands (only `@bot sync`): unknown words are ignored, refusals answered plainly."""
        if isinstance(error, commands.CommandNotFound):
            return
        if isinstance(error, commands.CheckFailure):
            await ctx.reply("Only the bot's owner can do that.", mention_author=False)
            return
        log.error("text command %s failed", ctx.command, exc_info=error)

    # --- posting ---

    async def on_notice(self, notice: Notice) -> None:
        await self.post(notice)

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
        if isinstance(channel, discord.TextChannel) and channel.permissions_for(channel.guild.me).create_public_threads:
            title = self.matches.game(match).title
            name = f"{title} #{match.id}: {' vs '.join(match.names)}"[:100]
            try:
                thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
                )
            except discord.HTTPException:
                log.info("could not open a thread for match %s; posting in the channel", match.id)
                return channel
            await self.matches.set_thread(match.id, thread.id)
            return thread
        return channel

    async def post(self, notice: Notice) -> discord.Message | None:
        """Post a notice: a board image with its words, or the words alone; then start the clock."""
        match = notice.match
        if match.place.channel_id is None:
            return None  # not a Discord match
        service = self.matches
        post = await asyncio.to_thread(posts.for_notice, service, notice, discord.utils.utcnow().timestamp())
        channel = (
            await self.destination(match)
            if match.running
            else await self.channel(
                match.place.thread_id or match.place.channel_id  # type: ignore[arg-type]
            )
        )
        if post is None:
            return await channel.send("\n".join(notice.lines), allowed_mentions=discord.AllowedMentions.none())
        from bot import views

        lines, separate = posts.own_messages(service, match, notice.lines)
        text = "\n".join([*lines, *posts.status_lines(service, match, mention=True, deadline=True)])
        files = [discord.File(io.BytesIO(post.png), filename=f"{match.game}-{match.id}-{match.ply}.png")]
        if notice.kind == "over":  # the animated replay goes next to the final board (bot/records.py)
            files += await self._replay_file(match)
        message = await channel.send(
            text,
            files=files,
            view=views.board_view(match, service.game(match)) if match.running else discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        if separate:  # e.g. Geyser's firing phase: its dice and what it destroyed, as a message of its own
            await channel.send("\n".join(separate), allowed_mentions=discord.AllowedMentions.none())
        previous = await service.board_posted(
            match.id, match.ply, at=message.created_at.timestamp(), message=(message.channel.id, message.id)
        )
        if previous is not None:
            await self._strip_buttons(*previous)
        if not match.running and match.board is not None and match.board != (message.channel.id, message.id):
            await self._strip_buttons(*match.board)
        return message

    async def _replay_file(self, match: Match) -> list[discord.File]:
        """The end-of-game GIF, or nothing if it cannot be built (the final board is posted anyway)."""
        from bot.records import replay_for

        try:
            gif = await replay_for(self.matches, match)
        except Exception:
            log.exception("could not build the replay of match %s", match.id)
            return []
        return [discord.File(io.BytesIO(gif), filename=f"{match.game}-{match.id}-replay.gif")]

    async def _strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Earlier boards lose their buttons, so only the current one can be acted on."""
        try:
            channel = await self.channel(channel_id)
            await channel.get_partial_message(message_id).edit(view=None)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.info("could not remove the buttons of message %s", message_id)


def where(match: Match) -> str:
    """A channel mention for the match's thread or channel."""
    return f"<#{match.place.thread_id or match.place.channel_id}>"


def run_discord(config: Config) -> None:
    bot = GameBot(config)
    bot.run(config.discord_token or "", log_handler=None)
