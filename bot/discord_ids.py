"""Who and where, in Discord terms: a Discord user as the service's Player, a match's place as a mention.

Imported by both sides of the Discord front-end (the bot in bot/discord_app.py, the buttons in bot/views.py,
the cogs), and importing neither, so those modules form no cycle.
"""

from __future__ import annotations

import discord

from bot import discord_limits as limits
from bot.models import Match, Player


def player(user: discord.abc.User) -> Player:
    """The service's view of a Discord user (ids persist; names are for display, with any mention in a
    nickname made inert, so `@everyone` or `<@123>` as a name pings nobody wherever it is shown)."""
    return Player(f"discord:{user.id}", limits.neutral(user.display_name))


def where(match: Match) -> str:
    """A channel mention for the match's thread or channel."""
    return f"<#{match.place.thread_id or match.place.channel_id}>"
