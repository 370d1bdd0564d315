"""Away time: a player who will be gone for days stops the long clocks of their games on a server.

`/away days:N` (1 to 14) makes the player away for N days from now, at most `AWAY_DAYS_A_YEAR` days in a
calendar year (UTC) per player and server. While they are away, in each of their running matches there
whose clock is long (`bot.reminders.is_long`: an hour a move or more) their seat's clock stops like a pause
for that seat alone (`MatchClock.away`): a turn of theirs under way stops where it is, and a turn that comes
to them waits, its allowance and reserve untouched, while the other seats' turns run as usual. Live clocks
(under an hour a move: death matches) never stop, and untimed games have nothing to stop; `away_until` says
who is away, for reminders not to nag them. A match with a long clock that starts while they are away waits
for them too (the "started" notice is heard before any front-end posts its board).

Away time ends by itself at its end (a `FlagScheduler.call_at` deadline, armed again after a restart), with
`/back`, or when the player moves in any game on that server. Days used count what was really taken: coming
back early gives the rest back. A period counts in the year it began, all of it; `/away` again while away
moves the end later (never sooner: that is `/back`), within the same allowance. With no long clock to stop,
the player is still recorded away (a game started meanwhile waits, and reminders leave them alone).

Each change is one transaction: the period's row (the `away` table) and every clock it stops or restarts,
with the matches' locks held (taken in match id order, after the player's own lock); opponents are told in
each match whose clock stopped or runs again.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot import posts
from bot.clock import MatchClock
from bot.errors import ServiceError
from bot.i18n import _
from bot.models import AwayPeriod, Match, Notice, NoticeKind, Player
from bot.reminders import DAY, is_long
from bot.service.flags import Flags
from bot.service.registry import Registry
from bot.service.reminding import Planned, Reminding

log = logging.getLogger(__name__)

AWAY_DAYS_A_YEAR = 14
"""Days of away time a player has in a calendar year (UTC) on each server, unless the server sets another
number (its `away_days` setting: bot/service/settings.py)."""
AWAY_DAYS = (1, 14)
"""The days one `/away` may ask for."""

RETRY = 60.0
"""Seconds before an end of away time that could not be stored is tried again."""

Key = tuple[int | None, str]
"""(server id, None offline; player id): away time is per player and server."""


@dataclass(frozen=True, slots=True)
class AwayAnswer:
    """What going away or coming back did, for the front-ends to say."""

    period: AwayPeriod
    matches: tuple[int, ...]
    """Going away: the matches whose clock waits for the player; coming back: those whose clock runs again."""
    left: float
    """Seconds of away time left in the period's year, once this period is over as it now stands."""
    extended: bool = False
    """Going away: the player was away already, and the end moved later."""


def year_start(when: float) -> float:
    """The start of the calendar year (UTC) that `when` falls in: the allowance counts per such year."""
    return dt.datetime(dt.datetime.fromtimestamp(when, dt.UTC).year, 1, 1, tzinfo=dt.UTC).timestamp()


class AwayTime:
    """Who is away where (a cache of the store's running periods), and the clocks that wait for them."""

    def __init__(
        self,
        registry: Registry,
        flags: Flags,
        reminding: Reminding,
        days_a_year: Callable[[int | None], int] = lambda guild_id: AWAY_DAYS_A_YEAR,
    ) -> None:
        self.registry = registry
        self.flags = flags
        self.reminding = reminding
        self.days_a_year = days_a_year
        """A server's yearly allowance in days (its setting; AWAY_DAYS_A_YEAR by default)."""
        self._away: dict[Key, AwayPeriod] = {}
        self._locks: dict[Key, asyncio.Lock] = {}

    def until(self, player_id: str, guild_id: int | None) -> float | None:
        """When the player's away time on this server ends, or None if they are not away."""
        period = self._away.get((guild_id, player_id))
        return None if period is None else period.until

    def _lock(self, key: Key) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    # --- after a restart ---

    async def start(self, matches: list[Match] | None = None) -> None:
        """Load the periods still running and make every clock agree with them: a period that ended while
        the bot was down ends as of its end, the others are armed again. No clock starts here: every board is
        posted again after a restart, and each starts with its post.

        `matches`: a shard just taken over (`MatchService.adopt`): only its periods (those not known here
        yet) and these matches' clocks, leaving what this process already runs as it is."""
        registry = self.registry
        fresh: dict[Key, AwayPeriod] = {}
        for period in await registry.store.running_away():
            key = (period.guild_id, period.player.id)
            if key not in self._away and registry.ownership.owns(period.guild_id):  # others: another shard's
                fresh[key] = period
        self._away |= fresh
        keys = dict.fromkeys(fresh)  # in the order they began, then any seat left stopped for nobody
        for match in registry.running() if matches is None else matches:
            if match.clock is not None:
                keys |= dict.fromkeys((match.place.guild_id, match.players[seat].id) for seat in match.clock.away)
        notices: list[Notice] = []
        for key in keys:
            async with self._lock(key):
                running = self._away.get(key)
                if running is not None and running.until <= registry.time.now():
                    notices += await self._end(running, running.until, "time", start=False)
                    continue
                await self._commit(key, running, start=False)
                if running is not None:
                    self._arm(running)
        await registry.notify(notices)

    def drop_unowned(self) -> None:
        """Forget the periods of servers whose shard this process no longer holds: the holder keeps them
        now, and a lease that comes back reloads them from the store rather than trust this copy."""
        for key in [key for key in self._away if not self.registry.ownership.owns(key[0])]:
            del self._away[key]

    # --- going away and coming back ---

    async def go_away(self, player: Player, guild_id: int | None, days: int) -> AwayAnswer:
        """`player` is away for `days` days from now (see the module docstring); refused in words for a
        number of days out of range or past what is left of the year's allowance, and while away already
        until later than that."""
        low, high = AWAY_DAYS
        if isinstance(days, bool) or not isinstance(days, int) or not low <= days <= high:
            raise ServiceError(
                _("Away time is {low} to {high} whole days at a time, not {days}.").format(
                    low=low, high=high, days=repr(days)
                )
            )
        key = (guild_id, player.id)
        async with self._lock(key):
            now = self.registry.time.now()
            current = self._away.get(key)
            until = now + days * DAY
            if current is not None and until <= current.until:
                raise ServiceError(posts.already_away(current.until, days))
            per_year = self.days_a_year(guild_id)
            if per_year == 0:
                raise ServiceError(_("There is no away time here: the away_days setting is 0."))
            left = per_year * DAY - await self._taken(key, now if current is None else current.started_at, now)
            if days * DAY > left + 1e-6:
                raise ServiceError(posts.away_refused(left, per_year, current is not None))
            wanted = AwayPeriod(0, guild_id, player, now, until) if current is None else replace(current, until=until)
            stored, __, waiting = await self._commit(key, wanted, start=True)
            assert stored is not None
            self._away[key] = stored
            self._arm(stored)
        line = posts.away_line(player.name, until)
        await self.registry.notify([Notice(NoticeKind.AWAY, match, (line,), player) for match in waiting])
        return AwayAnswer(stored, tuple(m.id for m in waiting), left - days * DAY, current is not None)

    async def come_back(self, player: Player, guild_id: int | None) -> AwayAnswer:
        """`player` is back before their away time ends: their clocks run again now; the rest of the period
        is not counted (refused if they are not away)."""
        key = (guild_id, player.id)
        async with self._lock(key):
            current = self._away.get(key)
            if current is None:
                raise ServiceError(_("You are not away here, so there is nothing to end."))
            now = self.registry.time.now()
            notices = await self._end(current, now, "back", start=True)
            left = self.days_a_year(guild_id) * DAY - await self._taken(key, current.started_at, now)
        await self.registry.notify(notices)
        return AwayAnswer(replace(current, ended_at=now), tuple(n.match.id for n in notices), left)

    async def moved(self, player_id: str, guild_id: int | None) -> None:
        """The player moved in a match on this server: that ends their away time there (cheap when not away)."""
        key = (guild_id, player_id)
        if key not in self._away:
            return
        async with self._lock(key):
            current = self._away.get(key)
            if current is None:
                return
            try:
                notices = await self._end(current, self.registry.time.now(), "moved", start=True)
            except ServiceError:  # e.g. a full disk: the move stands; away time ends on time or with /back
                log.warning("could not end %s's away time after their move", player_id, exc_info=True)
                return
        await self.registry.notify(notices)

    async def end_if_due(self, key: Key, period_id: int) -> None:
        """The scheduler's entry for a period's end: end it if it is still the one running and its end has
        come (an earlier `/back`, a move or a later end leave the entry stale, and this does nothing)."""
        async with self._lock(key):
            current = self._away.get(key)
            now = self.registry.time.now()
            if current is None or current.id != period_id or current.until > now:
                return
            try:
                notices = await self._end(current, current.until, "time", start=True)
            except ServiceError:  # e.g. a full disk: try again in a minute rather than stay away for ever
                log.warning("could not end %s's away time; trying again in a minute", key[1], exc_info=True)
                self.flags.scheduler.call_at(now + RETRY, lambda: self.end_if_due(key, period_id))
                return
        await self.registry.notify(notices)

    async def on_notice(self, notice: Notice) -> None:
        """A match with a long clock started: the seats of players who are away wait for them from the start.
        Heard before any front-end (the service subscribes first), so no board is posted with their clock
        running."""
        match = notice.match
        if notice.kind != NoticeKind.STARTED or not is_long(match.clock):
            return
        notices: list[Notice] = []
        for player in dict.fromkeys(match.players):
            key = (match.place.guild_id, player.id)
            async with self._lock(key):
                period = self._away.get(key)
                if period is None:
                    continue
                _period, stopped, _waiting = await self._commit(key, period, start=True)
                line = posts.away_line(player.name, period.until)
                notices += [Notice(NoticeKind.AWAY, m, (line,), player) for m in stopped]
        await self.registry.notify(notices)

    # --- inside (the player's lock held) ---

    def _arm(self, period: AwayPeriod) -> None:
        key = (period.guild_id, period.player.id)
        self.flags.scheduler.call_at(period.until, lambda: self.end_if_due(key, period.id))

    async def _taken(self, key: Key, year_of: float, now: float) -> float:
        """Seconds of away time the player has used in the calendar year `year_of` falls in: the periods that
        began in it, a running one up to now. Those are all that began since its start: `year_of` is now, or
        the start of the period running now, and no other can have begun since (one runs at a time)."""
        guild_id, player_id = key
        periods = await self.registry.store.away_periods(guild_id, player_id, year_start(year_of))
        return sum(period.taken(now) for period in periods)

    async def _end(self, period: AwayPeriod, at: float, how: str, start: bool) -> list[Notice]:
        """End `period` as of `at` (`how`: "back", "moved" or "time"); returns the notices to send."""
        key = (period.guild_id, period.player.id)
        _period, restarted, _waiting = await self._commit(key, replace(period, ended_at=at), start=start)
        self._away.pop(key, None)
        with posts.publicly(period.guild_id):  # the server's language, whoever or whatever ended it
            line = posts.back_line(period.player.name, how)
        return [Notice(NoticeKind.BACK, match, (line,), period.player) for match in restarted]

    async def _commit(
        self, key: Key, period: AwayPeriod | None, start: bool
    ) -> tuple[AwayPeriod | None, list[Match], list[Match]]:
        """Store `period` (inserted if its id is 0; None: nothing to store) and make the player's clocks on
        the server agree with it, in one transaction: away while it has not ended, else not. `start`: a turn
        of theirs that no longer waits starts now (else with its next board post).

        Returns the period as stored, the matches whose clock changed, and those whose clock waits for the
        player now. The cache (`match.clock`) changes only once the transaction has committed."""
        guild_id, player_id = key
        registry, store = self.registry, self.registry.store
        away = period is not None and period.ended_at is None
        mine = [
            m.id
            for m in registry.running()
            if m.place.guild_id == guild_id and m.clock is not None and m.seats_of(player_id)
        ]
        changed: list[tuple[Match, MatchClock]] = []
        waiting: list[Match] = []
        async with contextlib.AsyncExitStack() as locks:
            for match_id in mine:  # ascending ids: every holder of several match locks takes them in one order
                await locks.enter_async_context(registry.lock(match_id))
            now = registry.time.now()
            for match_id in mine:
                match = registry.running_match(match_id)
                if match is None or match.clock is None:
                    continue  # ended while we waited for its lock
                clock = match.clock
                for seat in match.seats_of(player_id):
                    if away and is_long(clock):
                        clock = clock.stop_for(seat, now)
                    else:
                        clock = clock.back(seat, now, start and match.held is None)
                if clock != match.clock:
                    changed.append((match, clock))
            before = [(match, match.clock) for match, __ in changed]
            planned: list[tuple[Match, Planned | None]] = []
            try:
                async with store.transaction():
                    await registry.ownership.fence(guild_id)  # its clocks are this process's to change
                    if period is not None and period.id == 0:
                        period = replace(period, id=await store.insert_away(period))
                    elif period is not None:
                        await store.update_away(period)
                    for match, clock in changed:
                        match.clock = clock
                        await store.update_clock(match.id, clock)
                        detail = f"away until {period.until:.0f}" if away and period else "back"
                        await store.log_action(match.id, "away" if away else "back", player_id, detail, now)
                        planned.append((match, await self.reminding.plan(match, None)))  # as for a pause
            except BaseException:
                for match, clock_before in before:  # nothing was stored: the cache stays as the store is
                    match.clock = clock_before
                raise
            for match, plan in planned:
                self.flags.arm(match)
                self.reminding.arm(match, plan)
            for match_id in mine:
                match = registry.running_match(match_id)
                if match and match.clock and any(seat in match.clock.away for seat in match.seats_of(player_id)):
                    waiting.append(match)
        return period, [m for m, __ in changed], waiting
