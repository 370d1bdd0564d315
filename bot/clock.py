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
import re
import time
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot import i18n
from bot.i18n import _, ngettext
from bot.wording import capitalized

LAG_GRACE = 1.0
"""Seconds after a deadline before the flag falls, so a move sent just in time is not beaten by lag."""
DAY = 86_400
UNITS = {"d": DAY, "h": 3_600, "m": 60, "s": 1}
"""The units a clock is written in (`1d`, `12h`, `10m`, `30s`); a bare number is seconds."""
MOVE_SECONDS = (1, 14 * DAY)
"""The move allowance a match may set, in seconds (1 s to 14 days); the death match command's bounds too."""
RESERVE_SECONDS = (0, 30 * DAY)
"""The reserve a match may set, in seconds (none to 30 days)."""
CLOCK_HELP = "MOVE[/RESERVE] in s, m, h or d, e.g. 30s/60s, 1d/7d; a bare number is seconds (default: server's)"
"""What a clock option takes, in one line of at most 100 characters (Discord's limit for a description):
the slash commands' `clock:` and the terminal's `--clock`. Without one a casual match gets its server's
default clock (bot/service/settings.py's default_clock: none unless set); `none` is no clock."""
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
            _when, _order, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Per-match time control: a move allowance each turn, plus a reserve per seat per game."""

    move_seconds: float = 30.0
    reserve_seconds: float = 60.0

    def __post_init__(self) -> None:
        (low, high), (least, most) = MOVE_SECONDS, RESERVE_SECONDS
        if not low <= self.move_seconds <= high:
            raise ClockError(
                _("The move clock must be at least {least} and at most {most}.").format(
                    least=in_words(low), most=in_words(high)
                )
            )
        if not least <= self.reserve_seconds <= most:
            raise ClockError(_("The reserve must be at most {most}, and not negative.").format(most=in_words(most)))

    def describe(self) -> str:
        """`0:30 a move + 1:00 reserve`, `1 d a move + 7 d reserve`, `10:00 a move, no reserve` (in the
        reader's language)."""
        move = format_seconds(self.move_seconds)
        if not self.reserve_seconds:
            return _("{move} a move, no reserve").format(move=move)
        return _("{move} a move + {reserve} reserve").format(move=move, reserve=format_seconds(self.reserve_seconds))


@dataclass(frozen=True, slots=True)
class MatchClock:
    """The clock of one game. `turn_started` is None while the board is not yet posted, or while paused, or
    while the seat to move is `away`."""

    settings: ClockSettings
    reserves: tuple[float, ...]
    seat: int | None
    turn_started: float | None = None
    used: float = 0.0
    paused: bool = False
    away: tuple[int, ...] = ()
    """Seats whose player is away (bot/service/away.py): a pause for that seat alone. Its turn's clock does
    not run, whether the turn was under way when they left (`stop_for`) or comes while they are away, until
    `back`; the other seats' turns run as usual."""

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
        """The board is up: the turn's clock starts now (unless paused, already started, or its seat away)."""
        if self.paused or self.turn_started is not None or self.seat is None or self.seat in self.away:
            return self
        return replace(self, turn_started=now)

    def pause(self, now: float) -> MatchClock:
        return replace(self, used=self.used_at(now), turn_started=None, paused=True)

    def unposted(self, now: float) -> MatchClock:
        """The board is gone (its post failed everywhere): the turn stops where it is, charged to nobody,
        until the board is posted again (`posted` carries on from the time already used)."""
        return replace(self, used=self.used_at(now), turn_started=None)

    def resume(self, now: float) -> MatchClock:
        """Carry on from where the pause stopped the turn; the paused time is charged to nobody (a seat that
        is away still waits for `back`)."""
        waits = self.seat is None or self.seat in self.away
        return replace(self, paused=False, turn_started=None if waits else now)

    def stop_for(self, seat: int, now: float) -> MatchClock:
        """`seat`'s player goes away: if it is their turn, it stops where it is (like a pause, charged to
        nobody); either way their turns wait until `back`."""
        if seat in self.away:
            return self
        clock = replace(self, away=tuple(sorted((*self.away, seat))))
        return clock.unposted(now) if seat == self.seat else clock

    def back(self, seat: int, now: float, start: bool = True) -> MatchClock:
        """`seat`'s player is back: if it is their turn (and no moderator paused the match), it carries on
        from where it stopped, now; with `start` False it waits for its board post instead (`posted`: after
        a restart, or while the board cannot be posted)."""
        if seat not in self.away:
            return self
        clock = replace(self, away=tuple(s for s in self.away if s != seat))
        return clock.posted(now) if start and seat == self.seat else clock

    def add_time(self, seat: int, seconds: float) -> MatchClock:
        reserves = list(self.reserves)
        reserves[seat] = max(0.0, reserves[seat] + seconds)
        return replace(self, reserves=tuple(reserves))

    def new_turn(self, seat: int | None) -> MatchClock:
        """A fresh turn for `seat` that starts with its board post; the turn it replaces is charged to nobody."""
        return replace(self, seat=seat, turn_started=None, used=0.0)

    def after_restart(self) -> MatchClock:
        """The bot was down and the board is reposted: the seat to move gets a fresh move allowance once it is
        (a live clock, whose downtime nobody can tell from the board)."""
        return self.new_turn(self.seat)

    def credited(self, down: float, up: float) -> MatchClock:
        """Nobody could play from `down` to `up` (the bot or Discord was down) and the board is up as it was:
        the turn goes on at `up` from where it stood at `down`, that time charged to nobody. A turn a pause or
        away time stops stays stopped."""
        return self.unposted(down).posted(up)

    def to_json(self) -> dict[str, Any]:
        return {
            "move_seconds": self.settings.move_seconds,
            "reserve_seconds": self.settings.reserve_seconds,
            "reserves": list(self.reserves),
            "seat": self.seat,
            "turn_started": self.turn_started,
            "used": self.used,
            "paused": self.paused,
            "away": list(self.away),
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
            tuple(data.get("away", ())),  # a clock stored before away time has nobody away
        )


def parse_clock(text: str | None) -> ClockSettings | None:
    """A clock as typed, by Discord's `clock:` and the terminal's `--clock` alike: MOVE[/RESERVE], each a
    time (`parse_seconds`: `30s`, `10m`, `1d`, `1h30m`, a bare number of seconds), so `30/60`, `30s/60s`,
    `10m` and `1d/7d`; a MOVE alone has no reserve; no clock is nothing, `none`, `off` or `no`. Case and
    spaces do not count. Anything else, or a clock out of range (1 s to 14 days a move, up to 30 days of
    reserve), is a `ClockError` that says why. The one place a new way of writing a clock would go."""
    if text is None or text.strip().lower() in NO_CLOCK:
        return None
    move, _slash, reserve = text.strip().partition("/")
    return ClockSettings(parse_seconds(move, _("the move clock")), parse_seconds(reserve or "0", _("the reserve")))


_NUMBER = r"\d+(?:\.\d+)?"
_TIME = re.compile(
    rf"(?P<bare>{_NUMBER})|" + r"\s*".join(rf"(?:(?P<{unit}>{_NUMBER})\s*{unit})?" for unit in UNITS), re.ASCII
)
"""A bare number, or numbers with units, each unit at most once and from days down: `1d 12h`, `1h30m`."""


def parse_seconds(text: str, what: str) -> float:
    """A time as typed, in seconds: a bare number of seconds (`30`, `7.5`), or numbers with units `d`,
    `h`, `m` and `s`, largest first, each once (`30s`, `10m`, `1.5h`, `1d`, `1h30m`, `1d 12h`); case and
    spaces do not count. `what` names the clock ("the move clock", "the reserve") in the refusal; the
    range is `ClockSettings`' to check. `what` is said in the reader's language (`_("the move clock")`)."""
    found = _TIME.fullmatch(text.strip().lower())
    if found is None or not any(found.groups()):
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "…"
        said = _(
            "{what} must be a time like 30s, 10m, 2h, 1d or 1h30m (a bare number is seconds), not {typed}: write"
            " the clock as move/reserve, like 30/60, 10m or 1d/7d."
        ).format(what=what, typed=shown)
        raise ClockError(capitalized(said))
    if found["bare"] is not None:
        return float(found["bare"])
    return sum(float(found[unit]) * size for unit, size in UNITS.items() if found[unit] is not None)


def in_words(seconds: int) -> str:
    """A whole number of seconds in its largest exact unit, for refusals: `14 days`, `24 hours`, `61 seconds`
    (`14 Tage`)."""
    if seconds >= DAY and seconds % DAY == 0:
        said, count = ngettext("{count} day", "{count} days", seconds // DAY), seconds // DAY
    elif seconds >= 3_600 and seconds % 3_600 == 0:
        said, count = ngettext("{count} hour", "{count} hours", seconds // 3_600), seconds // 3_600
    elif seconds >= 60 and seconds % 60 == 0:
        said, count = ngettext("{count} minute", "{count} minutes", seconds // 60), seconds // 60
    else:
        said, count = ngettext("{count} second", "{count} seconds", seconds), seconds
    return said.format(count=i18n.number(count))


def format_seconds(seconds: float) -> str:
    """`0:45`, `1:00`, `1:02:03` under a day; from a day up in days, hours and minutes, `7 d`, `6 d 18 h`,
    `1 d 0 h 1 m`. Rounded up (a day or more to the minute), so 0:00 shows only once the time is really gone."""
    whole = max(0, math.ceil(seconds - 1e-9))
    if whole >= DAY:
        days, rest = divmod(math.ceil(whole / 60), 24 * 60)
        hours, minutes = divmod(rest, 60)
        return f"{days} d" + (f" {hours} h" if hours or minutes else "") + (f" {minutes} m" if minutes else "")
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_short(seconds: float) -> str:
    """`format_seconds` for the board pictures, where room is short: from a day up `7d`, `6d 18h`, rounded
    up to the hour (the post's words say the minutes); under a day the same as `format_seconds`."""
    if math.ceil(seconds - 1e-9) < DAY:
        return format_seconds(seconds)
    days, hours = divmod(math.ceil(seconds / 3600 - 1e-9), 24)
    return f"{days}d" + (f" {hours}h" if hours else "")
