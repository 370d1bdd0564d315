"""When a player is reminded of their turn: pure arithmetic over the match clock, like bot/clock.py.

Play-by-post turns last hours or days, and a player who forgets loses on time or stalls a game. The
policy (its numbers are the issue's, and the README's):

- a clocked turn whose move allowance is at least an hour: once when half the allowance is used, and
  once when an hour, or a tenth of the turn's whole time if that is shorter, is left before the flag;
- an untimed game: 24 h after the turn began without a move, then every 24 h, at most three times (a
  server may choose another wait and count: bot/service/settings.py);
- live clocks (allowances under an hour: death matches) are never reminded: the player is at the board.

A reminder belongs to one turn (match and ply): a move, an undo or a takeback makes a new ply, so an
older turn's reminders are void, and a paused clock has no deadline to remind of.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import MatchClock

HOUR = 3600.0
DAY = 24 * HOUR
LONG_CLOCK = HOUR
"""A move allowance of at least this is play by post: it is reminded of, and away time stops it."""
IDLE_EVERY = DAY
IDLE_REMINDERS = 3


@dataclass(frozen=True, slots=True)
class Reminder:
    """One reminder of one turn: `kind` says what it tells ("half", "last", "idle")."""

    when: float
    kind: str
    number: int = 1
    """Which idle reminder this is (1 to 3); 1 for the others."""


def is_long(clock: MatchClock | None) -> bool:
    """A correspondence clock (an hour a move or more), the kind reminders and away time are for."""
    return clock is not None and clock.settings.move_seconds >= LONG_CLOCK


def reminders(
    clock: MatchClock | None, turn_began: float | None, every: float = IDLE_EVERY, most: int = IDLE_REMINDERS
) -> tuple[Reminder, ...]:
    """The reminders of the turn in progress, in time order.

    `clock` is the match's (None: untimed); `turn_began` is when an untimed turn began (its board was
    posted), ignored with a clock, which knows its own start. An untimed turn is reminded `every` seconds,
    `most` times at most (a server's settings; the defaults above). Nothing while the clock is not running
    (paused, or its board not yet posted)."""
    if clock is None:
        if turn_began is None:
            return ()
        return tuple(Reminder(turn_began + n * every, "idle", n) for n in range(1, most + 1))
    deadline = clock.deadline()
    if deadline is None or not is_long(clock):
        return ()
    assert clock.seat is not None and clock.turn_started is not None  # a deadline means a running clock
    allowance = clock.settings.move_seconds
    found = []
    if clock.used < allowance / 2:  # a turn resumed past its half was reminded before the pause
        found.append(Reminder(clock.turn_started - clock.used + allowance / 2, "half"))
    whole = allowance + clock.reserves[clock.seat]  # so the last reminder comes after the half one
    found.append(Reminder(deadline - min(HOUR, whole / 10), "last"))
    return tuple(found)
