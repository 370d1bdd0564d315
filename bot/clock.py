"""Match clocks: pure arithmetic over absolute times, and the scheduler that flags timeouts.

A clock never counts down in storage. It keeps when the current turn started (the moment the board post
succeeded), how much of the turn was used before a pause, and each seat's reserve at the start of the turn.
Everything else (time left, deadline, who has flagged) is computed from an injected `now`, so the same code
runs against the wall clock in production and a fake clock in tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

log = logging.getLogger(__name__)

LAG_GRACE = 1.0
"""Seconds after a deadline before the flag falls, so a move sent just in time is not beaten by lag."""


class TimeSource(Protocol):
    def now(self) -> float: ...
    async def sleep_until(self, when: float) -> None: ...


class SystemTime:
    """The wall clock (seconds since the epoch)."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - time.time()))


class FakeTime:
    """A clock for tests that moves only when told to; sleepers wake when it passes their time."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = 0

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._count += 1
        heapq.heappush(self._sleepers, (when, self._count, future))
        await future

    def advance(self, seconds: float) -> None:
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Per-match time control: a move allowance each turn, plus a reserve per seat per game."""

    move_seconds: float = 30.0
    reserve_seconds: float = 60.0

    def __post_init__(self) -> None:
        if not (1 <= self.move_seconds <= 86_400 and 0 <= self.reserve_seconds <= 86_400):
            raise ValueError("The move clock must be 1 s to 24 h and the reserve 0 s to 24 h.")

    def describe(self) -> str:
        return f"{format_seconds(self.move_seconds)} a move + {format_seconds(self.reserve_seconds)} reserve"


@dataclass(frozen=True, slots=True)
class MatchClock:
    """The clock of one game. `turn_started` is None while the board is not yet posted, or while paused."""

    settings: ClockSettings
    reserves: tuple[float, ...]
    seat: int | None
    turn_started: float | None = None
    used: float = 0.0
    paused: bool = False

    @classmethod
    def start(cls, settings: ClockSettings, seats: int, seat: int | None) -> MatchClock:
        return cls(settings, (settings.reserve_seconds,) * seats, seat)

    @property
    def running(self) -> bool:
        return self.seat is not None and self.turn_started is not None and not self.paused

    def used_at(self, now: float) -> float:
        """Seconds of the current turn used by `now` (pauses and waiting for the post excluded)."""
        if self.turn_started is None:
            return self.used
        return self.used + max(0.0, now - self.turn_started)

    def reserve_at(self, seat: int, now: float) -> float:
        """Reserve left for `seat` at `now`; negative once that seat has run out."""
        if seat != self.seat:
            return self.reserves[seat]
        return self.reserves[seat] - max(0.0, self.used_at(now) - self.settings.move_seconds)

    def move_left_at(self, now: float) -> float:
        return max(0.0, self.settings.move_seconds - self.used_at(now))

    def deadline(self) -> float | None:
        """When the seat to move runs out of reserve, if its clock is running."""
        if not self.running:
            return None
        assert self.seat is not None and self.turn_started is not None
        return self.turn_started - self.used + self.settings.move_seconds + self.reserves[self.seat]

    def flag_time(self) -> float | None:
        deadline = self.deadline()
        return None if deadline is None else deadline + LAG_GRACE

    def flagged(self, now: float) -> bool:
        flag_time = self.flag_time()
        return flag_time is not None and now > flag_time

    def after_move(self, now: float, next_seat: int | None) -> tuple[MatchClock, float]:
        """Charge the mover and hand the turn on; the next turn waits for its board post.

        Returns the new clock and the seconds the move took. A move in the lag grace leaves 0 reserve.
        """
        took = self.used_at(now)
        reserves = list(self.reserves)
        if self.seat is not None:
            over = max(0.0, took - self.settings.move_seconds)
            reserves[self.seat] = max(0.0, reserves[self.seat] - over)
        return replace(self, reserves=tuple(reserves), seat=next_seat, turn_started=None, used=0.0), took

    def posted(self, now: float) -> MatchClock:
        """The board is up: the turn's clock starts now (unless paused or already started)."""
        if self.paused or self.turn_started is not None or self.seat is None:
            return self
        return replace(self, turn_started=now)

    def pause(self, now: float) -> MatchClock:
        return replace(self, used=self.used_at(now), turn_started=None, paused=True)

    def unposted(self, now: float) -> MatchClock:
        """The board is gone (its post failed everywhere): the turn stops where it is, charged to nobody,
        until the board is posted again (`posted` carries on from the time already used)."""
        return replace(self, used=self.used_at(now), turn_started=None)

    def resume(self, now: float) -> MatchClock:
        """Carry on from where the pause stopped the turn; the paused time is charged to nobody."""
        return replace(self, paused=False, turn_started=now if self.seat is not None else None)

    def add_time(self, seat: int, seconds: float) -> MatchClock:
        reserves = list(self.reserves)
        reserves[seat] = max(0.0, reserves[seat] + seconds)
        return replace(self, reserves=tuple(reserves))

    def new_turn(self, seat: int | None) -> MatchClock:
        """A fresh turn for `seat` that starts with its board post; the turn it replaces is charged to nobody."""
        return replace(self, seat=seat, turn_started=None, used=0.0)

    def after_restart(self) -> MatchClock:
        """The bot was down: the seat to move gets a fresh move allowance once the board is reposted."""
        return self.new_turn(self.seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "move_seconds": self.settings.move_seconds,
            "reserve_seconds": self.settings.reserve_seconds,
            "reserves": list(self.reserves),
            "seat": self.seat,
            "turn_started": self.turn_started,
            "used": self.used,
            "paused": self.paused,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchClock:
        return cls(
            ClockSettings(data["move_seconds"], data["reserve_seconds"]),
            tuple(data["reserves"]),
            data["seat"],
            data["turn_started"],
            data["used"],
            data["paused"],
        )


def format_seconds(seconds: float) -> str:
    """`0:45`, `1:00`, `1:02:03`; rounded up, so 0:00 shows only once the time is really gone."""
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class FlagScheduler:
    """Flags timeouts without anyone asking: one task, one heap entry per armed turn, plus a slow sweep.

    `arm(match_id, ply, when)` is called whenever a turn's clock starts; stale entries (the match moved
    on) are harmless because `on_due` re-checks the match under its lock. The sweep is the safety net
    for anything a timer missed.
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
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._flagging: set[asyncio.Task[None]] = set()  # due entries being handled, each in its own task

    def arm(self, match_id: int, ply: int, when: float) -> None:
        heapq.heappush(self._heap, (when, match_id, ply))
        self._wake.set()

    @property
    def armed(self) -> int:
        return len(self._heap)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="flag-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._flagging:  # let flags already being committed finish
            await asyncio.gather(*self._flagging, return_exceptions=True)

    async def _run(self) -> None:
        next_sweep = self._clock.now() + self._sweep_every
        while True:
            now = self._clock.now()
            while self._heap and self._heap[0][0] <= now:
                _, match_id, ply = heapq.heappop(self._heap)
                # One task each: a flag waiting for its match's lock or the database must not hold up the
                # flags due after it (awaited in turn, 10,000 clocks under load fell seconds late).
                task = asyncio.create_task(self._guard(self._on_due(match_id, ply)))
                self._flagging.add(task)
                task.add_done_callback(self._flagging.discard)
            if now >= next_sweep:  # with no sweep too, or the loop would wake at a past time and spin
                next_sweep = now + self._sweep_every
                if self._sweep is not None:
                    await self._guard(self._sweep())
            wake_at = min(self._heap[0][0], next_sweep) if self._heap else next_sweep
            self._wake.clear()
            sleeper = asyncio.ensure_future(self._clock.sleep_until(wake_at))
            waker = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                waker.cancel()

    @staticmethod
    async def _guard(work: Awaitable[None]) -> None:
        try:
            await work
        except Exception:  # one bad match must not stop every other clock
            log.exception("flag check failed")
