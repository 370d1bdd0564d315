"""Where a new match goes on Discord: its server's match channel (`/settings set setting:match_channel`), if one
is set, checked usable before anything is started there.

The service moves a new match to that channel (bot/service/settings.py, `match_place`); this is the part only
Discord can tell: whether the channel still exists and the bot may post boards (and open threads) in it. Every
start command asks `match_channel_refusal` before it answers in public, so a channel that went bad since it
was set is refused in words, privately, instead of a match that silently cannot post its board.
"""

from __future__ import annotations

import discord

from bot.cogs import command_name
from bot.i18n import N_, _
from bot.views import service_of

NEEDED = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("attach_files", N_("Attach Files")),
)
"""What the bot needs in a match channel to post a board there (its image is a file); each permission as
Discord names it (said with `_`: Discord's own translation in its settings)."""
THREADS = (
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)
"""What it needs to open a thread per match there (without them, boards go in the channel itself)."""


def channel_problem(guild: discord.Guild, channel_id: int) -> str | None:
    """Why the bot cannot post matches in this channel of `guild`, or None: gone (or another server's), not a
    text channel, or a permission missing."""
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return _(
            "{channel} is not a channel of this server that the bot can see (deleted, or another server's)"
        ).format(channel=f"<#{channel_id}>")
    if isinstance(channel, discord.Thread):
        return _("{channel} is a thread: choose the text channel where match threads should open").format(
            channel=channel.mention
        )
    if not isinstance(channel, discord.TextChannel):
        return _("{channel} is not a text channel: matches are posted in a text channel").format(
            channel=channel.mention
        )
    allowed = channel.permissions_for(guild.me)
    missing = [_(name) for flag, name in NEEDED if not getattr(allowed, flag)]
    if missing:
        return _("the bot may not post boards in {channel} (it lacks {permissions} there)").format(
            channel=channel.mention, permissions=", ".join(missing)
        )
    return None


def thread_note(guild: discord.Guild, channel_id: int) -> str | None:
    """A usable match channel where the bot may not open threads: boards will go in the channel itself."""
    channel = guild.get_channel(channel_id)
    if not isinstance(channel, discord.TextChannel):
        return None
    allowed = channel.permissions_for(guild.me)
    missing = [_(name) for flag, name in THREADS if not getattr(allowed, flag)]
    if not missing:
        return None
    return _(
        "The bot lacks {permissions} in {channel}, so matches will be posted in the channel itself, not in a"
        " thread each."
    ).format(permissions=", ".join(missing), channel=channel.mention)


def match_channel_refusal(interaction: discord.Interaction) -> str | None:
    """Why a match cannot start from this interaction now because of the server's match channel, or None (no
    match channel set, or a usable one)."""
    guild = interaction.guild
    if guild is None:
        return None
    channel_id = service_of(interaction).settings.match_channel(guild.id)
    if channel_id is None:
        return None
    problem = channel_problem(guild, channel_id)
    if problem is None:
        return None
    return _(
        "New matches here go to {channel} (the server's match_channel setting), but {problem}. A moderator can"
        " choose another with `{set} setting:match_channel`, or `{reset}` it to start matches where they are asked"
        " for."
    ).format(
        channel=f"<#{channel_id}>",
        problem=problem,
        set=command_name("settings", "set"),
        reset=command_name("settings", "reset"),
    )
