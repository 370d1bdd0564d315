"""The reminder policy, on hand-built clocks: when each reminder of a turn falls, and when none does."""

from __future__ import annotations

from dataclasses import replace

from bot.clock import LAG_GRACE, ClockSettings, MatchClock
from bot.reminders import DAY, HOUR, Reminder, is_long, reminders

T0 = 1_800_000_000.0


def running(move: float, reserve: float, used: float = 0.0) -> MatchClock:
    """Seat 0's turn, posted at T0 with `used` seconds already spent before a pause."""
    return replace(MatchClock.start(ClockSettings(move, reserve), 2, 0).posted(T0), used=used)


def test_a_long_clock_reminds_at_half_the_allowance_and_an_hour_before_the_flag() -> None:
    clock = running(12 * HOUR, 12 * HOUR)
    assert reminders(clock, None) == (Reminder(T0 + 6 * HOUR, "half"), Reminder(T0 + 23 * HOUR, "last"))


def test_a_short_turn_is_warned_a_tenth_of_its_time_before_the_flag() -> None:
    clock = running(2 * HOUR, 0)  # 2 h in all: a tenth is 12 min, shorter than an hour
    assert reminders(clock, None) == (Reminder(T0 + HOUR, "half"), Reminder(T0 + 2 * HOUR - 12 * 60, "last"))


def test_the_last_reminder_counts_to_the_deadline_not_the_flag() -> None:
    clock = running(HOUR, 9 * HOUR)
    last = reminders(clock, None)[-1]
    assert last.when == clock.deadline() - HOUR and clock.flag_time() == clock.deadline() + LAG_GRACE


def test_a_turn_resumed_past_its_half_gets_only_the_last_reminder() -> None:
    clock = running(4 * HOUR, 0, used=3 * HOUR)  # paused after 3 h, resumed at T0
    assert reminders(clock, None) == (Reminder(T0 + HOUR - 24 * 60, "last"),)


def test_a_resumed_turn_keeps_its_half_at_the_same_share_of_the_allowance() -> None:
    clock = running(4 * HOUR, 0, used=1.5 * HOUR)
    assert reminders(clock, None)[0] == Reminder(T0 + HOUR / 2, "half")
    at_half = running(4 * HOUR, 0, used=2 * HOUR)  # paused exactly at the half: reminded before the pause
    assert [r.kind for r in reminders(at_half, None)] == ["last"]


def test_live_clocks_are_never_reminded() -> None:
    assert reminders(running(30, 60), None) == ()
    assert reminders(running(HOUR - 1, 20 * HOUR), None) == ()
    assert not is_long(running(HOUR - 1, 0)) and is_long(running(HOUR, 0)) and not is_long(None)


def test_no_reminder_while_the_clock_is_stopped() -> None:
    clock = running(6 * HOUR, 0)
    assert reminders(clock.pause(T0 + 60), None) == ()
    assert reminders(MatchClock.start(ClockSettings(6 * HOUR, 0), 2, 0), None) == ()  # board not posted yet


def test_an_untimed_turn_is_reminded_three_times_a_day_apart() -> None:
    assert reminders(None, T0) == tuple(Reminder(T0 + n * 86_400, "idle", n) for n in (1, 2, 3))
    assert DAY == 86_400
    assert reminders(None, None) == ()
