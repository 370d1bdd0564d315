"""Lobbies: where the players of a game of one or of more than two players gather before it starts.

A lobby lives in the database (it survives restarts): its creator opens it (bad options are refused then,
not at the start), others join or leave, the creator adds computer players and starts the game with
everyone who joined, in join order; the creator leaving cancels it. Lobbies change rarely, so one lock
serialises every change to all of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot import i18n, posts
from bot.clock import ClockSettings
from bot.errors import LimitReached, MatchNotRunning, NoSuchMatch, ServiceError
from bot.i18n import _, ngettext
from bot.models import CANCELLED, OPEN, STARTED, Lobby, Match, Notice, NoticeKind, Place, Player, computer
from bot.service.limits import Limits
from bot.service.registry import Registry, new_match


class Lobbies:
    def __init__(self, registry: Registry, limits: Limits, place_for: Callable[[Place], Place] = lambda p: p) -> None:
        self.registry = registry
        self.limits = limits
        self.place_for = place_for
        """Where a lobby's game goes (its server's match channel, a setting); the lobby stays where it was opened."""
        self._lock = asyncio.Lock()

    async def open_lobby(
        self,
        game_key: str,
        creator: Player,
        *,
        options: dict[str, Any] | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
    ) -> Lobby:
        """A lobby with its creator in the first seat; bad options are refused now, not at the start."""
        registry = self.registry
        game = registry.game_or_refuse(game_key)
        options = dict(options or {})
        game.new(game.min_players, 0, **options)  # raises BadOptions for an unknown option or a bad value
        now = registry.time.now()
        lobby = Lobby(0, game_key, creator, [creator], options, clock, place or Place(), created_at=now)
        async with self._lock:
            if (why := await self.limits.lobby_refusal(lobby)) is not None:
                raise LimitReached(why)
            async with registry.store.transaction():
                lobby.id = await registry.store.insert_lobby(lobby)
        return lobby

    async def join_lobby(self, lobby_id: int, player: Player) -> Lobby:
        async with self._lock:
            lobby = await self._open_lobby(lobby_id)
            game = self.registry.games[lobby.game]
            if lobby.has(player.id):
                raise ServiceError(_("You are already in lobby #{number}.").format(number=lobby.id))
            if len(lobby.players) >= game.max_players:
                raise ServiceError(self._full(lobby, game.title, game.max_players))
            lobby.players.append(player)
            await self._save(lobby)
        return lobby

    async def add_computer(self, lobby_id: int, by: Player, level: str = "normal") -> Lobby:
        """The creator fills a seat with a computer player (several may join, numbered)."""
        async with self._lock:
            lobby = await self._open_lobby(lobby_id)
            if by.id != lobby.creator.id:
                raise ServiceError(
                    _("Only {name}, who opened lobby #{number}, can add computers.").format(
                        name=lobby.creator.name, number=lobby.id
                    )
                )
            game = self.registry.games[lobby.game]
            if len(lobby.players) >= game.max_players:
                raise ServiceError(self._full(lobby, game.title, game.max_players))
            used = {int(p.id.split(":")[2]) if p.id.count(":") == 2 else 1 for p in lobby.players if p.is_computer}
            number = min(set(range(1, game.max_players + 1)) - used)  # "Computer 2", "Easy computer 3"...
            lobby.players.append(computer(level, number))
            await self._save(lobby)
        return lobby

    async def leave_lobby(self, lobby_id: int, player: Player) -> Lobby:
        """Leave a lobby; when its creator leaves, the lobby is cancelled."""
        async with self._lock:
            lobby = await self._open_lobby(lobby_id)
            if not lobby.has(player.id):
                raise ServiceError(_("You are not in lobby #{number}.").format(number=lobby.id))
            if player.id == lobby.creator.id:
                lobby.status = CANCELLED
            else:
                lobby.players = [p for p in lobby.players if p.id != player.id]
            await self._save(lobby)
        return lobby

    async def start_lobby(self, lobby_id: int, by: Player) -> Match:
        """The creator starts the game with everyone who joined, in join order (alone: solitaire)."""
        registry = self.registry
        async with self._lock:
            lobby = await self._open_lobby(lobby_id)
            game = registry.games[lobby.game]
            if (why := self.start_refusal(lobby, by)) is not None:
                raise ServiceError(why)
            now = registry.time.now()
            place = self.place_for(lobby.place)
            match = new_match(game, tuple(lobby.players), lobby.options, None, lobby.clock, place, now)
            async with registry.store.transaction():  # the match and the lobby's end are one change
                await registry.ownership.fence(match.place.guild_id)
                match.id = await registry.store.insert_match(match)
                lobby.status, lobby.match_id = STARTED, match.id
                await registry.store.update_lobby(lobby)
        registry.add(match)
        await registry.notify([Notice(NoticeKind.STARTED, match, posts.start_lines(match, game))])
        return match

    def start_refusal(self, lobby: Lobby, by: Player) -> str | None:
        """Why `by` may not start `lobby` now, or None: front-ends ask before they answer in public."""
        game = self.registry.games[lobby.game]
        if by.id != lobby.creator.id:
            return _("Only {name}, who opened lobby #{number}, can start it.").format(
                name=lobby.creator.name, number=lobby.id
            )
        if len(lobby.players) < game.min_players:
            return ngettext(
                "{game} needs at least {count} player; {joined} joined.",
                "{game} needs at least {count} players; {joined} joined.",
                game.min_players,
            ).format(game=game.title, count=i18n.number(game.min_players), joined=i18n.number(len(lobby.players)))
        return self.limits.computer_games_refusal(lobby.players, lobby.place.guild_id)

    async def get_lobby(self, lobby_id: int) -> Lobby:
        lobby = await self.registry.store.load_lobby(lobby_id)
        if lobby is None:
            raise NoSuchMatch(_("There is no lobby #{number}.").format(number=lobby_id))
        return lobby

    async def open_lobbies(self, guild_id: int | None = None) -> list[Lobby]:
        """One server's open lobbies (None: the offline ones)."""
        return await self.registry.store.open_lobbies(guild_id)

    async def _open_lobby(self, lobby_id: int) -> Lobby:
        lobby = await self.get_lobby(lobby_id)
        if lobby.status != OPEN:
            if lobby.status == STARTED:
                raise MatchNotRunning(
                    _("Lobby #{number} is started: it takes no more players.").format(number=lobby.id)
                )
            if lobby.status == CANCELLED:
                raise MatchNotRunning(
                    _("Lobby #{number} is cancelled: it takes no more players.").format(number=lobby.id)
                )
            raise MatchNotRunning(_("Lobby #{number} is closed: it takes no more players.").format(number=lobby.id))
        return lobby

    @staticmethod
    def _full(lobby: Lobby, title: str, most: int) -> str:
        return ngettext(
            "Lobby #{number} is full: {game} takes at most {count} player.",
            "Lobby #{number} is full: {game} takes at most {count} players.",
            most,
        ).format(number=lobby.id, game=title, count=i18n.number(most))

    async def _save(self, lobby: Lobby) -> None:
        async with self.registry.store.transaction():
            await self.registry.store.update_lobby(lobby)
