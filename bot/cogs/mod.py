"""/mod: moderator actions on a running match. Each is announced in the match's thread with who did it.

Moderators have the Manage Server permission or the server's moderator role (its `mod_role` setting,
/settings; MOD_ROLE, a role's name, by default); anyone else gets an ephemeral refusal and nothing changes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import backup, discord_app, discord_ids, i18n, posts, views
from bot import discord_limits as limits
from bot.cogs.base import Refusal, find_match, in_public, server_id
from bot.i18n import _, ngettext
from bot.models import Match, NoticeKind, Player
from bot.service import MatchService, Notice

log = logging.getLogger("bot.mod")


class NotModerator(app_commands.CheckFailure):
    pass


def is_moderator(interaction: discord.Interaction, mod_role: int | str | None) -> bool:
    """Manage Server, or the moderator role: a role id (a server's setting) or a role's name (MOD_ROLE)."""
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    if isinstance(mod_role, int):
        return any(role.id == mod_role for role in member.roles)
    return mod_role is not None and any(role.name == mod_role for role in member.roles)


def require_moderator(interaction: discord.Interaction) -> None:
    """Refuse anyone but a moderator of the interaction's server (its `mod_role` setting decides the role)."""
    mod_role = views.service_of(interaction).settings.mod_role(interaction.guild_id)
    if not is_moderator(interaction, mod_role):
        if mod_role is None:
            raise NotModerator(_("Only moderators (Manage Server permission) can do that."))
        raise NotModerator(
            _("Only moderators (Manage Server permission or the {role} role) can do that.").format(
                role=role_name(mod_role)
            )
        )


def role_name(mod_role: int | str) -> str:
    """A moderator role as a refusal names it: a mention (Discord shows its name; it pings nobody in an
    ephemeral answer) or MOD_ROLE's name."""
    return f"<@&{mod_role}>" if isinstance(mod_role, int) else limits.neutral(mod_role)


@app_commands.default_permissions(manage_guild=True)  # hidden from other members in Discord's command picker
class ModCog(commands.GroupCog, group_name="mod", group_description="Moderators: run and fix matches"):
    """/mod: offered by Discord only to members with Manage Server (a server's admins may also allow the
    moderator role under Server Settings → Integrations); every use is still checked here."""

    def __init__(self, bot: discord_app.GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        require_moderator(interaction)
        return True

    async def _match(self, interaction: discord.Interaction, match_id: int | None) -> Match:
        return await find_match(self.service, interaction, None, match_id, mine=False)

    async def _act(
        self,
        interaction: discord.Interaction,
        match_id: int | None,
        action: Callable[[Match, Player], Awaitable[Notice]],
    ) -> None:
        """Find the match, defer, act as this moderator, and confirm privately (the thread is told too)."""
        found = await self._match(interaction, match_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        notice = await action(found, discord_ids.player(interaction.user))
        await interaction.followup.send(_("Done: {line}").format(line=notice.lines[0]), ephemeral=True)

    @app_commands.command(description="Running matches in this server")
    @app_commands.describe(page="which page of the list, when it is long (default 1)")
    async def list(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        running = self.service.running(server_id(interaction))
        head = ngettext("{count} running match:", "{count} running matches:", len(running)).format(
            count=i18n.number(len(running))
        )
        lines = [head, *(games_line(self.service, m) for m in running)]
        text = limits.page(lines, page, command="/mod list") if running else _("No matches are running.")
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=limits.NOBODY)

    @app_commands.command(description="Pause a match's clock")
    @app_commands.describe(match="match number (default: this thread's match)")
    async def pause(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self._act(interaction, match, lambda found, by: self.service.moderation.pause(found.id, by))

    @app_commands.command(description="Resume a paused match")
    @app_commands.describe(match="match number (default: this thread's match)")
    async def resume(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self._act(interaction, match, lambda found, by: self.service.moderation.resume(found.id, by))

    @app_commands.command(description="Give a player reserve time (negative takes it away)")
    @app_commands.describe(player="whose reserve", seconds="seconds to add", match="match number")
    async def addtime(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        seconds: app_commands.Range[int, -86_400, 86_400],
        match: int | None = None,
    ) -> None:
        whose = discord_ids.player(player).id
        await self._act(
            interaction, match, lambda found, by: self.service.moderation.add_time(found.id, by, whose, seconds)
        )

    @app_commands.command(description="Take back the last move")
    @app_commands.describe(match="match number (default: this thread's match)")
    async def undo(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self._act(interaction, match, lambda found, by: self.service.moderation.undo(found.id, by))

    @app_commands.command(description="Stop a match with no result (its death match too)")
    @app_commands.describe(match="match number (default: this thread's match)")
    async def abort(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self._act(interaction, match, lambda found, by: self.service.moderation.abort(found.id, by))

    @app_commands.command(description="Decide a game: name the winner, or leave it empty for a draw")
    @app_commands.describe(winner="who wins (empty: a draw)", match="match number (default: this thread's match)")
    async def adjudicate(
        self, interaction: discord.Interaction, winner: discord.Member | None = None, match: int | None = None
    ) -> None:
        winner_id = discord_ids.player(winner).id if winner is not None else None
        await self._act(
            interaction, match, lambda found, by: self.service.moderation.adjudicate(found.id, by, winner_id)
        )

    @app_commands.command(description="Back the database up now (a checked copy in the backup folder)")
    async def backup(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        config = self.bot.config
        try:
            path = await backup.backup(self.service.store, config.backups, config.backup_keep)
        except backup.BackupError as error:
            log.error("backup asked by %s failed: %s", interaction.user, error)
            raise Refusal(_("The backup failed: {error}.").format(error=error)) from None
        size = backup.size_text(path.stat().st_size)
        log.info("backup %s (%s) made for %s (%s)", path, size, interaction.user, interaction.user.id)
        said = _("Backed up: `{file}` ({size}, integrity ok).").format(file=path.name, size=size)
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(description="Post the current board again (e.g. if the last post was deleted)")
    @app_commands.describe(match="match number (default: this thread's match)")
    async def repost(self, interaction: discord.Interaction, match: int | None = None) -> None:
        found = await self._match(interaction, match)
        if not found.running:
            raise Refusal(_("Match #{number} is over.").format(number=found.id))
        await interaction.response.defer(ephemeral=True, thinking=True)
        held = found.held
        name = discord_ids.player(interaction.user).name
        with in_public(interaction):  # the board's line is public: the server's language
            public = reposted_line(name, held is not None)
        message = await self.bot.post(Notice(NoticeKind.BOARD, found, (public,)))
        if message is None:
            hold = found.held or held
            reason = _(hold.reason) if hold is not None else _("Discord refused every place")
            raise Refusal(
                _(
                    "The board of match #{number} could not be posted anywhere ({reason}), so the match stays on"
                    " hold. Let the bot post in {place} (or its channel), then try again."
                ).format(number=found.id, reason=reason, place=discord_ids.where(found))
            )
        said = _("Done: {line}").format(line=reposted_line(name, held is not None))
        await interaction.followup.send(f"{said} {message.jump_url}", ephemeral=True)


def reposted_line(name: str, held: bool) -> str:
    if held:
        return _("{name} reposted the board. The match goes on: its clock starts with this board.").format(name=name)
    return _("{name} reposted the board.").format(name=name)


def games_line(service: MatchService, match: Match) -> str:
    held = f" — {match.held.what}" if match.held is not None else ""
    return f"{posts.summary_line(service, match)} — {discord_ids.where(match)}{held}"


async def setup(bot: discord_app.GameBot) -> None:
    await bot.add_cog(ModCog(bot))
