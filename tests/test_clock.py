"""Clock arithmetic: absolute times in, time left and flags out; nothing counts down in storage."""

from __future__ import annotations

import pytest

from bot.clock import LAG_GRACE, ClockSettings, MatchClock, format_seconds

T0 = 1_000_000.0


def running(seat: int = 0) -> MatchClock:
    return MatchClock.start(ClockSettings(30, 60), 2, seat).posted(T0)


def test_time_beyond_the_move_allowance_comes_out_of_reserve() -> None:
    clock, took = running().after_move(T0 + 45, next_seat=1)
    assert took == 45 and clock.reserves == (45.0, 60.0) and clock.seat == 1 and clock.turn_started is None


def test_a_move_inside_the_allowance_costs_no_reserve() -> None:
    clock, _ = running().after_move(T0 + 29.9, next_seat=1)
    assert clock.reserves == (60.0, 60.0)


def test_the_deadline_is_allowance_plus_reserve_and_the_flag_waits_for_the_lag_grace() -> None:
    clock = running()
    assert clock.deadline() == T0 + 90
    assert not clock.flagged(T0 + 90 + LAG_GRACE)
    assert clock.flagged(T0 + 90 + LAG_GRACE + 0.01)


def test_nothing_runs_until_the_board_is_posted() -> None:
    clock = MatchClock.start(ClockSettings(30, 60), 2, 0)
    assert clock.deadline() is None and not clock.flagged(T0 + 10_000)
    assert clock.posted(T0).posted(T0 + 50).turn_started == T0  # a second post does not restart the turn


def test_a_pause_keeps_the_time_used_and_charges_the_pause_to_nobody() -> None:
    clock = running().pause(T0 + 20)
    assert clock.used == 20 and not clock.flagged(T0 + 10_000) and clock.posted(T0 + 500).turn_started is None
    clock = clock.resume(T0 + 1000)
    assert clock.move_left_at(T0 + 1005) == 5 and clock.deadline() == T0 + 1000 + 10 + 60


def test_a_restart_gives_a_fresh_allowance_and_keeps_reserves() -> None:
    clock, _ = running().after_move(T0 + 50, next_seat=1)
    clock = clock.posted(T0 + 60).after_restart()
    assert clock.reserves == (40.0, 60.0) and clock.turn_started is None and clock.used == 0


def test_added_time_moves_the_deadline_and_reserve_never_goes_below_zero() -> None:
    assert running().add_time(0, 30).deadline() == T0 + 120
    assert running().add_time(0, -500).reserves[0] == 0


def test_json_round_trip() -> None:
    clock = running().pause(T0 + 3)
    assert MatchClock.from_json(clock.to_json()) == clock


@pytest.mark.parametrize("settings", [(0, 60), (30, -1), (100_000, 0)])
def test_unreasonable_settings_are_refused(settings: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="move clock"):
        ClockSettings(*settings)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(30, "0:30"), (29.2, "0:30"), (60, "1:00"), (75, "1:15"), (0, "0:00"), (-3, "0:00"), (3725, "1:02:05")],
)
def test_clock_display_rounds_up_so_zero_means_gone(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown
