"""The match registry: the running matches in memory, one lock per match, the transaction that changes one,
and the notices sent to front-ends once it is committed.

Every other part of the service changes a match the same way: take its `lock`, check, compute with the pure
engine, then `commit` (one store transaction), and `notify` the front-ends after the lock is released. The
store is the source of truth and this is its cache of what is running: if a commit fails, the cached match
and its series are reloaded from the store, so memory never keeps a change the database refused.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from bot import move_log
from bot.clock import ClockSettings, MatchClock, TimeSource
from bot.errors import MatchNotRunning, NoSuchMatch, NotInMatch
from bot.games import BadOptions, Game
from bot.games.base import BadState
from bot.i18n import _
from bot.metrics import Metrics
from bot.models import ABORTED, RUNNING, Match, MoveRecord, Notice, Place, Player, Series
from bot.shards import EveryShard, NotOwner, Ownership
from bot.store import Store
from bot.wording import did_you_mean

log = logging.getLogger(__name__)

Listener = Callable[[Notice], Awaitable[None]]
"""A front-end's callback for every notice (`MatchService.subscribe`)."""


@dataclass
class Pending:
    """What a change has to announce once its lock is released and its transaction committed."""

    main: Notice | None = None
    """The notice of the change itself (the move, the game's end), which its caller returns: told first."""
    more: list[Notice] = field(default_factory=list)
    """What the change caused besides (a death match decided, its next game started): told after `main`."""
    started: list[Match] = field(default_factory=list)
    """Games started inside the transaction (a death match's next game): running once it commits."""
    rated: tuple[str, ...] = ()
    """The game-over post's rating change line, if the game was rated."""

    @property
    def notices(self) -> list[Notice]:
        """Everything to tell, in order."""
        return [self.main, *self.more] if self.main is not None else list(self.more)

    @property
    def told(self) -> Notice:
        """`main`, for a change that always has one (a move, a resignation, an end)."""
        if self.main is None:
            raise RuntimeError("this change has no notice of its own")
        return self.main


def fresh_seed() -> int:
    """A secret random seed: a new match's, and the fresh chance a takeback or an undo gives (bot/move_log.py)."""
    return secrets.randbits(48)


def new_match(
    game: Game,
    players: tuple[Player, ...],
    options: dict[str, Any],
    seed: int | None,
    clock: ClockSettings | None,
    place: Place,
    now: float,
    series_id: int | None = None,
    game_no: int = 1,
) -> Match:
    """A fresh match, not yet stored: every way a game starts (a challenge, a lobby, a death match) builds it
    here. A secret random seed unless one is given; bad options raise BadOptions before anything is stored."""
    seed = fresh_seed() if seed is None else seed
    state = game.new(len(players), seed, **options)
    return Match(
        id=0,
        game=game.key,
        players=players,
        seed=seed,
        options=dict(options),
        state=state,
        clock=MatchClock.start(clock, len(players), game.to_move(state)) if clock else None,
        series_id=series_id,
        game_no=game_no,
        place=place,
        created_at=now,
    )


class Registry:
    """The running matches and series (a cache of the store), their locks, commits and listeners; `metrics`
    is what every concept measures with (bot/metrics.py; by default nothing)."""

    def __init__(
        self, store: Store, time: TimeSource, metrics: Metrics | None = None, ownership: Ownership | None = None
    ) -> None:
        self.store = store
        self.time = time
        self.metrics = metrics or Metrics()
        self.games: dict[str, Game] = store.games
        self._matches: dict[int, Match] = {}
        self._series: dict[int, Series] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self.seeds: Callable[[], int] = fresh_seed
        """Where the fresh seeds of takebacks and undos come from (tests give a seeded generator)."""
        self.ownership: Ownership = ownership or EveryShard()
        """Which matches this process acts on (bot/shards.py): only those are loaded, and every change to one
        checks, inside its transaction, that this process still holds its shard's lease."""

    async def load_running(self) -> list[Match]:
        """Load every running match (and its series) from the store, as after a restart; their clocks are
        as stored (bot/service/downtime.py decides how each goes on)."""
        resumed = []
        for match_id in await self.store.match_ids(RUNNING, self.ownership.scope()):
            if match_id in self._matches:  # already running here (a shard taken over while this process ran)
                continue
            try:
                match = await self.store.load_match(match_id)
            except BadState as error:  # one damaged row must not keep every other match from resuming
                log.error("cannot resume a match: %s; its row is left in the database as it is", error)
                continue
            if match is None or match.game not in self.games or not self.ownership.owns(match.place.guild_id):
                continue
            self._matches[match.id] = match
            if match.series_id is not None and match.series_id not in self._series:
                series = await self.store.load_series(match.series_id)
                if series is not None:
                    self._series[series.id] = series
            resumed.append(match)
        return resumed

    # --- reading ---

    def game(self, match: Match) -> Game:
        return self.games[match.game]

    def game_or_refuse(self, game_key: str) -> Game:
        if game_key not in self.games:
            known = sorted(self.games)
            raise BadOptions(
                _("There is no game {name} (games: {games}).").format(name=repr(game_key), games=", ".join(known))
                + did_you_mean(game_key, known)
            )
        return self.games[game_key]

    async def get(self, match_id: int) -> Match:
        match = self._matches.get(match_id) or await self.store.load_match(match_id)
        if match is None:
            raise NoSuchMatch(_("There is no match #{number}.").format(number=match_id))
        return match

    def running_match(self, match_id: int) -> Match | None:
        """The running match with this id, or None (over, aborted, unknown)."""
        return self._matches.get(match_id)

    async def running_or_refuse(self, match_id: int) -> Match:
        """The running match with this id; refused in words if it is unknown or no longer running."""
        match = self._matches.get(match_id)
        if match is not None:
            return match
        stored = await self.store.load_match(match_id)
        if stored is None:
            raise NoSuchMatch(_("There is no match #{number}.").format(number=match_id))
        if stored.running:  # running, but not here: its shard is another process's
            raise NotOwner(
                _("Match #{number} is run by another bot process now; try again in a moment.").format(number=match_id)
            )
        if stored.status == ABORTED:
            raise MatchNotRunning(_("Match #{number} was aborted: it takes no more moves.").format(number=match_id))
        raise MatchNotRunning(_("Match #{number} is over: it takes no more moves.").format(number=match_id))

    @staticmethod
    def seats_or_refuse(match: Match, player_id: str) -> list[int]:
        """The seats `player_id` holds in `match`; refused in words if none."""
        seats = match.seats_of(player_id)
        if not seats:
            raise NotInMatch(_("You are not playing in match #{number}.").format(number=match.id))
        return seats

    def running(self, guild_id: int | None = None, game: str | None = None) -> list[Match]:
        """Running matches, oldest first, optionally only one server's or one game's."""
        return sorted(
            (
                m
                for m in self._matches.values()
                if (guild_id is None or m.place.guild_id == guild_id) and (game is None or m.game == game)
            ),
            key=lambda m: m.id,
        )

    def turns_first(self, player_id: str, guild_id: int | None) -> list[Match]:
        """A player's running matches on one server (None: offline), those where it is their turn first, by
        deadline (the nearest first; a turn whose clock is not running comes after), then the rest, each
        group oldest first."""
        mine = [m for m in self._matches.values() if m.place.guild_id == guild_id and m.seats_of(player_id)]

        def order(match: Match) -> tuple[bool, float, int]:
            turn = self.game(match).to_move(match.state) in match.seats_of(player_id)
            deadline = match.clock.deadline() if match.clock is not None else None
            return not turn, deadline if turn and deadline is not None else float("inf"), match.id

        return sorted(mine, key=order)

    def series_of(self, match: Match) -> Series | None:
        """The death match a running game belongs to, if any."""
        return self._series.get(match.series_id) if match.series_id is not None else None

    async def get_series(self, series_id: int) -> Series:
        series = self._series.get(series_id) or await self.store.load_series(series_id)
        if series is None:
            raise NoSuchMatch(_("There is no death match series #{number}.").format(number=series_id))
        return series

    def replay(self, match: Match, records: list[MoveRecord]) -> Any:
        """The state after `records` (the whole log: its reseeds too), rebuilt from the seed."""
        return move_log.final_position(self.game(match), len(match.players), match.seed, match.options, records)

    # --- changing ---

    def lock(self, match_id: int) -> asyncio.Lock:
        """The match's lock: every change to it is made holding this."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def add(self, match: Match, series: Series | None = None) -> None:
        """A match (and the death match it starts) is running: call once its insert is committed."""
        self._matches[match.id] = match
        if series is not None:
            self._series[series.id] = series

    def drop_unowned(self) -> list[Match]:
        """Forget the matches of shards this process no longer holds (another process runs them now)."""
        dropped = [m for m in self._matches.values() if not self.ownership.owns(m.place.guild_id)]
        for match in dropped:
            self._matches.pop(match.id, None)
        return dropped

    def finish(self, match: Match) -> None:
        """The match is no longer running (over or aborted): forget it (the store keeps it)."""
        self._matches.pop(match.id, None)

    @asynccontextmanager
    async def commit(self, match: Match, pending: Pending | None = None) -> AsyncIterator[None]:
        """One transaction for a change to `match`. The cached match (and its series) may be changed
        inside; if the commit fails they are reloaded from the store, which stays the source of truth.
        Games a series starts inside (`pending.started`) become running only once committed."""
        try:
            async with self.store.transaction():
                await self.ownership.fence(match.place.guild_id)  # in the same transaction as the change
                yield
        except BaseException:
            await self.reload(match)
            raise
        for started in pending.started if pending else ():
            self._matches[started.id] = started

    async def reload(self, match: Match) -> None:
        """A change to `match` failed to commit: the cached match (and series) as the store has them."""
        stored = await self.store.load_match(match.id)
        if stored is not None and stored.running and self.ownership.owns(stored.place.guild_id):
            self._matches[match.id] = stored
        else:
            self._matches.pop(match.id, None)
        if match.series_id is not None and (series := await self.store.load_series(match.series_id)):
            self._series[series.id] = series

    # --- telling the front-ends ---

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def notify(self, notices: list[Notice]) -> None:
        """Send each notice to every listener, in order (call with no lock held: a listener posts boards
        and reports them with `board_posted`, which takes the match's lock)."""
        for notice in notices:
            for listener in self._listeners:
                try:
                    await listener(notice)
                except Exception:  # a front-end failing to post must not undo a committed move
                    log.exception("listener failed on %s for match %s", notice.kind, notice.match.id)
