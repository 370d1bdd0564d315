"""Flags: the deadline scheduler, and what happens when a seat's time runs out.

The clock's arithmetic (deadlines, reserves, `LAG_GRACE`) is bot/clock.py's. Here a heap-driven
`FlagScheduler` holds one entry per started turn (`arm`, called whenever a turn's clock starts or changes)
and hands each due entry to `flag_if_due` in a task of its own, so a flag waiting for its match's lock or
the database does not hold up the flags due after it; a 30 s `sweep` is the safety net for anything a
timer missed. A flag loses the game (`Termination.FLAG`); in a game of three or more whose seats can leave,
it puts only that seat out, as a `resign` line of the move log by nobody, and the others play on.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot import posts
from bot.background import Repeating
from bot.clock import TimeSource
from bot.games import Termination
from bot.models import Match, MoveRecord
from bot.move_log import RESIGN
from bot.service.ending import Ending
from bot.service.registry import Pending, Registry

log = logging.getLogger(__name__)


class FlagScheduler:
    """Flags timeouts without anyone asking: one task, one heap entry per armed turn, plus a slow sweep.

    `arm(match_id, ply, when)` is called whenever a turn's clock starts; stale entries (the match moved
    on) are harmless because `on_due` re-checks the match under its lock. The sweep is the safety net
    for anything a timer missed. `call_at(when, call)` puts another kind of deadline on the same timer
    (the end of away time, bot/service/away.py), handled the same way.
    """

    def __init__(
        self,
        clock: TimeSource,
        on_due: Callable[[int, int], Awaitable[None]],
        sweep: Callable[[], Awaitable[None]] | None = None,
        sweep_every: float = 30.0,
    ) -> None:
        self._clock = clock
        self._on_due = on_due
        self._sweep = sweep
        self._sweep_every = sweep_every
        self._heap: list[tuple[float, int, int]] = []
        self._calls: list[tuple[float, int, Callable[[], Awaitable[None]]]] = []  # `call_at`'s, numbered in order
        self._called = 0
        self._wake = asyncio.Event()
        self._next_sweep = 0.0
        self._loop = Repeating(
            "flag-scheduler", self._until_due, self._hand_out_due, failed="the flag scheduler failed"
        )
        self._flagging: set[asyncio.Task[None]] = set()  # due entries being handled, each in its own task

    def arm(self, match_id: int, ply: int, when: float) -> None:
        heapq.heappush(self._heap, (when, match_id, ply))
        self._wake.set()

    def call_at(self, when: float, call: Callable[[], Awaitable[None]]) -> None:
        """Another kind of deadline on the same timer: `call()` at `when` (the end of away time), in a task of
        its own like a flag. Like a flag's, a call made stale by a later change must re-check and do nothing."""
        self._called += 1
        heapq.heappush(self._calls, (when, self._called, call))
        self._wake.set()

    @property
    def armed(self) -> int:
        return len(self._heap)

    def start(self) -> None:
        if not self._loop.running:
            self._next_sweep = self._clock.now() + self._sweep_every
            self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()  # a sweep under way finishes
        if self._flagging:  # let flags already being committed finish
            await asyncio.gather(*self._flagging, return_exceptions=True)

    async def _until_due(self) -> None:
        """Sleep until the soonest entry or sweep is due, or until `arm`/`call_at` adds a sooner one."""
        wake_at = min(self._next_sweep, self._heap[0][0] if self._heap else self._next_sweep)
        wake_at = min(wake_at, self._calls[0][0] if self._calls else wake_at)
        sleeper = asyncio.ensure_future(self._clock.sleep_until(wake_at))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()

    async def _hand_out_due(self) -> None:
        self._wake.clear()  # before looking: an entry armed while the sweep below runs wakes the next wait
        now = self._clock.now()
        while self._heap and self._heap[0][0] <= now:
            _, match_id, ply = heapq.heappop(self._heap)
            # One task each: a flag waiting for its match's lock or the database must not hold up the
            # flags due after it (awaited in turn, 10,000 clocks under load fell seconds late).
            self._spawn(self._on_due(match_id, ply))
        while self._calls and self._calls[0][0] <= now:
            self._spawn(heapq.heappop(self._calls)[2]())
        if now >= self._next_sweep:  # with no sweep too, or the loop would wake at a past time and spin
            self._next_sweep = now + self._sweep_every
            if self._sweep is not None:
                await self._guard(self._sweep())

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.create_task(self._guard(work))
        self._flagging.add(task)
        task.add_done_callback(self._flagging.discard)

    @staticmethod
    async def _guard(work: Awaitable[None]) -> None:
        try:
            await work
        except Exception:  # one bad match must not stop every other clock
            log.exception("flag check failed")


class Flags:
    """Arms the scheduler for every started turn and flags the seats whose time is up."""

    def __init__(self, registry: Registry, ending: Ending) -> None:
        self.registry = registry
        self.ending = ending
        self.scheduler = FlagScheduler(registry.time, self.flag_if_due, self.sweep)
        self.other_sweeps: list[Callable[[], Awaitable[None]]] = []
        """The safety nets of the other deadlines on the scheduler (reminders), run after the flags'."""

    def arm(self, match: Match) -> None:
        """The match's turn clock started or changed (posted, resumed, time added): flag it on time."""
        if match.clock is not None and (flag_time := match.clock.flag_time()) is not None:
            self.scheduler.arm(match.id, match.ply, flag_time)

    async def sweep(self) -> None:
        """Flag every running match whose time is up (the safety net behind the scheduler)."""
        now = self.registry.time.now()
        for match in self.registry.running():
            if match.clock is not None and match.clock.flagged(now):
                await self.flag_if_due(match.id, match.ply)
        for sweep in self.other_sweeps:
            await sweep()

    async def flag_if_due(self, match_id: int, ply: int) -> None:
        """The scheduler's entry for (match, ply) is due: flag the match if that turn's time is really up."""
        registry = self.registry
        pending = Pending()
        async with registry.lock(match_id):
            match = registry.running_match(match_id)
            if match is None or match.ply != ply or match.clock is None:
                return
            now = registry.time.now()
            if not match.clock.flagged(now):
                self.arm(match)  # e.g. time was added since this timer was armed
                return
            flag_time = match.clock.flag_time()
            assert flag_time is not None  # flagged
            await self.flag(match, pending)
            registry.metrics.flag_fired(now - flag_time)  # how late the scheduler (or the sweep) got to it
        await registry.notify(pending.notices)

    async def flag(self, match: Match, pending: Pending) -> None:
        """The seat to move is out of time: it loses (call with the match lock held).

        In a game of three or more whose seats can leave, only that seat is out and the others play
        on, exactly as if it had resigned (a `resign` line of the move log, by nobody)."""
        assert match.clock is not None and match.clock.seat is not None
        seat = match.clock.seat
        player = match.players[seat]
        game = self.registry.game(match)
        now = self.registry.time.now()
        if self.ending.seat_leaves(match):
            state = game.resign(match.state, seat)
            clock, _ = match.clock.after_move(now, game.to_move(state))
            record = MoveRecord(match.ply + 1, seat, RESIGN, now, None, RESIGN, None)
            notice = await self.ending.advance(match, record, state, clock, pending)
            with posts.publicly(match.place.guild_id):  # a timer's: no reader of its own
                lines = (posts.out_of_time_line(player), *notice.lines[1:])  # not "resigns": time did it
            pending.main = replace(notice, lines=lines)
            return
        winners = frozenset(s for s in range(len(match.players)) if s != seat)
        reason = posts.end_reason(Termination.FLAG, player.name)
        await self.ending.end(match, winners, reason, Termination.FLAG, None, pending)
