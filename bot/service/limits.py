"""Limits per person per server (`UserLimits`): open lobbies, challenges nobody has accepted, running games
against the computer, so that nobody can flood a server (or the bot).

Each is asked before anything is created (the cogs ask before they answer in public, so a refusal stays
private); offline (no server, the terminal) nothing is limited. They live together because each counts
what one person has going in one server, whatever starts it.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import i18n
from bot.i18n import ngettext
from bot.models import Lobby, Player, UserLimits
from bot.service.registry import Registry

CHALLENGE_WINDOW = 24 * 3600.0
"""Seconds a challenge nobody accepted counts against its sender's limit."""


class Limits:
    def __init__(self, registry: Registry, limits: Callable[[int | None], UserLimits]) -> None:
        self.registry = registry
        self.limits = limits
        """Each server's limits (its settings: bot/service/settings.py, LIMIT_* by default)."""

    async def challenge_refusal(self, guild_id: int | None, by: Player) -> str | None:
        """Why `by` may not send another challenge here now (too many nobody accepted), or None."""
        if guild_id is None:
            return None
        store, most = self.registry.store, self.limits(guild_id).challenges
        since = self.registry.time.now() - CHALLENGE_WINDOW
        if await store.open_challenges(guild_id, by.id, since) >= most:
            return ngettext(
                "You have {count} challenge here that nobody has accepted yet: wait until one is accepted"
                " (challenges older than a day no longer count).",
                "You have {count} challenges here that nobody has accepted yet: wait until one is accepted"
                " (challenges older than a day no longer count).",
                most,
            ).format(count=i18n.number(most))
        return None

    def computer_games_refusal(self, players: list[Player] | tuple[Player, ...], guild_id: int | None) -> str | None:
        """Why these players may not start another game with a computer here, or None."""
        if guild_id is None or not any(p.is_computer for p in players):
            return None
        most = self.limits(guild_id).computer_games
        for person in (p for p in players if not p.is_computer):
            playing = [
                m
                for m in self.registry.running(guild_id)
                if m.seats_of(person.id) and any(p.is_computer for p in m.players)
            ]
            if len(playing) >= most:
                ids = ", ".join(f"#{m.id}" for m in playing)
                return ngettext(
                    "{name} already plays {count} game against the computer here ({matches}): finish or resign one"
                    " first.",
                    "{name} already plays {count} games against the computer here ({matches}): finish or resign one"
                    " first.",
                    len(playing),
                ).format(name=person.name, count=i18n.number(len(playing)), matches=ids)
        return None

    async def lobby_refusal(self, lobby: Lobby) -> str | None:
        """Why its creator may not open `lobby` (too many open here already), or None; ask under the lobby
        lock, so two lobbies opened at once cannot both slip past."""
        if lobby.place.guild_id is None:
            return None
        here = await self.registry.store.open_lobbies(lobby.place.guild_id)
        mine = [lb for lb in here if lb.creator.id == lobby.creator.id]
        if len(mine) < self.limits(lobby.place.guild_id).lobbies:
            return None
        ids = ", ".join(f"#{lb.id}" for lb in mine)
        return ngettext(
            "You have {count} open lobby here ({lobbies}): start one, or leave it to cancel it, first.",
            "You have {count} open lobbies here ({lobbies}): start one, or leave it to cancel it, first.",
            len(mine),
        ).format(count=i18n.number(len(mine)), lobbies=ids)
