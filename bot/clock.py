"""Match clocks: pure arithmetic over absolute times (the scheduler that flags timeouts is bot/service/flags.py).

A clock never counts down in storage. It keeps when the current turn started (the moment the board post
succeeded), how much of the turn was used before a pause, and each seat's reserve at the start of the turn.
Everything else (time left, deadline, who has flagged) is computed from an injected `now`, so the same code
runs against the wall clock in production and a fake clock in tests.
"""

from __future__ import annotations

import asyncio
import heapq
import math
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol

LAG_GRACE = 1.0
"""Seconds after a deadline before the flag falls, so a move sent just in time is not beaten by lag."""
MOVE_SECONDS = (1, 86_400)
"""The move allowance a match may set, in seconds (1 s to 24 h); the death match command's bounds too."""
RESERVE_SECONDS = (0, 86_400)
"""The reserve a match may set, in seconds (none to 24 h)."""
CLOCK_HELP = "seconds a move/reserve seconds, e.g. 30/60 (default none)"
"""What a clock option takes, in one line (the slash commands' `clock:` and the terminal's `--clock`)."""
NO_CLOCK = ("", "none", "off", "no")
"""Words for no clock at all (case does not count)."""


class ClockError(ValueError):
    """A clock written wrongly or out of range; the message says what is allowed."""


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
        (low, high), (least, most) = MOVE_SECONDS, RESERVE_SECONDS
        if not (low <= self.move_seconds <= high and least <= self.reserve_seconds <= most):
            raise ClockError("The move clock must be 1 s to 24 h and the reserve 0 s to 24 h.")

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


def parse_clock(text: str | None) -> ClockSettings | None:
    """A clock as typed, by Discord's `clock:` and the terminal's `--clock` alike: `30/60` (seconds a move /
    seconds of reserve), `30` (no reserve), or no clock (nothing, `none`, `off`, `no`). Anything else is a
    `ClockError` that says why. The one place a new way of writing a clock would go."""
    if text is None or text.strip().lower() in NO_CLOCK:
        return None
    move, _, reserve = text.strip().partition("/")
    return ClockSettings(parse_seconds(move, "the move clock"), parse_seconds(reserve or "0", "the reserve"))


def parse_seconds(text: str, what: str) -> float:
    """A number of seconds as typed (`30`, `7.5`), for the clock named `what` ("the move clock", "the
    reserve"); the range is `ClockSettings`' to check."""
    try:
        return float(text)
    except ValueError:
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "…"
        raise ClockError(
            f"{what[:1].upper()}{what[1:]} must be a number of seconds, not {shown}: write the clock as move/reserve"
            " seconds, like 30/60."
        ) from None


def format_seconds(seconds: float) -> str:
    """`0:45`, `1:00`, `1:02:03`; rounded up, so 0:00 shows only once the time is really gone."""
    whole = max(0, math.ceil(seconds - 1e-9))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
