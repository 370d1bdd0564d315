"""Death matches: a best-of-N series of games between the same players, each started when the last ends.

The game's `first` option alternates game by game; a drawn game counts for nobody; the series ends at
`best_of // 2 + 1` wins or after `best_of` games (level: drawn, worded "the house wins" if the series says
so). Scoring a game and starting the next happen inside the transaction that stores the game's end
(`after_game`, called by bot/service/ending.py), so a series never misses a game or counts one twice.
"""

from __future__ import annotations

from typing import Any

from bot import posts
from bot.clock import ClockSettings
from bot.games import BadOptions, Game, Outcome
from bot.i18n import _
from bot.models import OVER, Match, Notice, NoticeKind, Place, Player, Series
from bot.service.registry import Pending, Registry, new_match

DM_CLOCK = ClockSettings(move_seconds=30, reserve_seconds=60)
"""The death-match time control of docs/rules/fish.md."""


class DeathMatches:
    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def create_series(
        self,
        game_key: str,
        players: list[Player],
        *,
        first: int,
        best_of: int = 3,
        clock: ClockSettings | None = DM_CLOCK,
        options: dict[str, Any] | None = None,
        house_wins: bool = True,
        place: Place | None = None,
    ) -> Series:
        """A death match: best of `best_of`, `first` places first in game 1 and it alternates after."""
        registry = self.registry
        game = registry.game_or_refuse(game_key)
        if best_of < 1 or best_of % 2 == 0:
            raise BadOptions(_("A series is best of an odd number of games (1, 3, 5...)."))
        if first not in range(len(players)):
            raise BadOptions(_("The first player must be one of the players."))
        if len({p.id for p in players}) != len(players):
            raise BadOptions(_("A death match needs two different players."))
        series = Series(
            id=0,
            game=game_key,
            players=tuple(players),
            best_of=best_of,
            first=first,
            options=dict(options or {}),
            clock=clock,
            house_wins=house_wins,
            place=place or Place(),
            wins=[0] * len(players),
            created_at=registry.time.now(),
        )
        match = self._game(game, series, 1)  # refuses bad options before anything is stored
        async with registry.store.transaction():
            await registry.ownership.fence(series.place.guild_id)
            series.id = await registry.store.insert_series(series)
            match.series_id = series.id
            match.id = await registry.store.insert_match(match)
        series.games.append(match.id)
        registry.add(match, series)
        await registry.notify([Notice(NoticeKind.STARTED, match, posts.start_lines(match, game), series=series)])
        return series

    async def after_game(self, match: Match, pending: Pending) -> None:
        """Inside the game-ending transaction: score the game for its series, then end the series or start
        its next game (running once the transaction commits)."""
        registry = self.registry
        series = registry.series_of(match)
        if series is None or match.result is None:
            return
        for seat in match.result.winners if len(match.result.winners) == 1 else ():
            series.wins[seat] += 1
        played = match.game_no
        top = max(series.wins)
        if top >= series.needed or played >= series.best_of:
            leaders = frozenset(s for s, w in enumerate(series.wins) if w == top)
            winners = leaders if len(leaders) == 1 else frozenset()
            series.status = OVER
            series.result = Outcome(tuple(float(w) for w in series.wins), winners, posts.series_reason(series))
            await registry.store.update_series(series)
            line = posts.series_line(series)
            pending.more.append(Notice(NoticeKind.SERIES_OVER, match, (line,), series=series, series_over=True))
            return
        await registry.store.update_series(series)
        game = registry.games[series.game]
        nxt = self._game(game, series, played + 1)
        nxt.id = await registry.store.insert_match(nxt)
        series.games.append(nxt.id)
        pending.started.append(nxt)
        pending.more.append(Notice(NoticeKind.STARTED, nxt, posts.start_lines(nxt, game), series=series))

    def _game(self, game: Game, series: Series, game_no: int) -> Match:
        """Game `game_no` of the series, not yet stored: its `first` option says who places first."""
        options = dict(series.options)
        if "first" in game.options.names:
            options["first"] = series.first_for(game_no)
        now, series_id = self.registry.time.now(), series.id or None
        return new_match(game, series.players, options, None, series.clock, series.place, now, series_id, game_no)
