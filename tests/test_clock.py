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


def test_downtime_credited_goes_on_from_where_the_turn_stood_when_the_bot_went_down() -> None:
    clock = running().credited(T0 + 20, T0 + 5000)  # 20 s used, then down until T0 + 5000
    assert clock.running and clock.used_at(T0 + 5003) == 23 and clock.deadline() == T0 + 5000 - 20 + 30 + 60
    paused = running().pause(T0 + 5).credited(T0 + 20, T0 + 5000)
    assert paused.paused and paused.used == 5 and not paused.running  # a pause stays a pause
    away = running().stop_for(0, T0 + 7).credited(T0 + 20, T0 + 5000)
    assert not away.running and away.used == 7  # so does away time


def test_added_time_moves_the_deadline_and_reserve_never_goes_below_zero() -> None:
    assert running().add_time(0, 30).deadline() == T0 + 120
    assert running().add_time(0, -500).reserves[0] == 0


def test_json_round_trip() -> None:
    clock = running().pause(T0 + 3)
    assert MatchClock.from_json(clock.to_json()) == clock


MOVE_RANGE = "The move clock must be at least 1 second and at most 14 days."
RESERVE_RANGE = "The reserve must be at most 30 days, and not negative."


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ((0, 60), MOVE_RANGE),
        ((0.999, 0), MOVE_RANGE),
        ((14 * 86_400 + 1, 0), MOVE_RANGE),
        ((float("nan"), 0), MOVE_RANGE),
        ((0, -1), MOVE_RANGE),  # the move is checked first
        ((30, -1), RESERVE_RANGE),
        ((30, 30 * 86_400 + 0.5), RESERVE_RANGE),
        ((30, float("inf")), RESERVE_RANGE),
    ],
)
def test_unreasonable_settings_are_refused(settings: tuple[float, float], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        ClockSettings(*settings)
    assert str(caught.value) == message


def test_the_limits_are_1_second_to_14_days_and_up_to_30_days_of_reserve() -> None:
    assert ClockSettings(1, 0) and ClockSettings(14 * 86_400, 30 * 86_400)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(30, "0:30"), (29.2, "0:30"), (60, "1:00"), (75, "1:15"), (0, "0:00"), (-3, "0:00"), (3725, "1:02:05")],
)
def test_clock_display_rounds_up_so_zero_means_gone(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown


# --- exact figures at several moments of a turn, for both seats ---


@pytest.mark.parametrize(
    ("after", "move_left", "reserve_mover"),
    [(0, 30, 60), (0.5, 29.5, 60), (10, 20, 60), (30, 0, 60), (30.5, 0, 59.5), (45, 0, 45), (90, 0, 0), (95, 0, -5)],
)
def test_the_mover_spends_the_allowance_then_the_reserve(after: float, move_left: float, reserve_mover: float) -> None:
    clock = running()
    assert clock.move_left_at(T0 + after) == move_left
    assert clock.reserve_at(0, T0 + after) == reserve_mover
    assert clock.reserve_at(1, T0 + after) == 60, "the waiting seat's reserve never drains"
    assert clock.used_at(T0 + after) == after


def test_the_waiting_seat_keeps_its_own_reserve_whatever_it_is() -> None:
    clock, _ = running().after_move(T0 + 50, next_seat=1)  # seat 0 spent 20 s of reserve
    clock = clock.posted(T0 + 60)
    assert clock.reserve_at(0, T0 + 200) == 40 and clock.reserve_at(1, T0 + 100) == 50
    assert clock.deadline() == T0 + 60 + 30 + 60


def test_a_quick_move_is_charged_what_it_took() -> None:
    clock, took = running().after_move(T0 + 0.25, next_seat=1)
    assert took == 0.25 and clock.reserves == (60.0, 60.0)


def test_a_move_in_the_lag_grace_leaves_zero_reserve_not_less() -> None:
    clock, took = running().after_move(T0 + 90 + LAG_GRACE / 2, next_seat=1)
    assert took == 90 + LAG_GRACE / 2 and clock.reserves == (0.0, 60.0)


def test_the_next_turn_starts_fresh_with_its_post() -> None:
    clock, _ = running().after_move(T0 + 10, next_seat=1)
    assert clock.used == 0 and clock.deadline() is None and not clock.running
    clock = clock.posted(T0 + 15)
    assert clock.running and clock.used_at(T0 + 15) == 0 and clock.deadline() == T0 + 15 + 90


def test_the_game_over_clock_has_no_deadline() -> None:
    clock, _ = running().after_move(T0 + 10, next_seat=None)
    assert clock.posted(T0 + 20).deadline() is None and not clock.flagged(T0 + 10_000)


def test_a_zero_reserve_is_allowed_and_flags_right_after_the_allowance() -> None:
    clock = MatchClock.start(ClockSettings(30, 0), 2, 0).posted(T0)
    assert clock.deadline() == T0 + 30 and clock.flag_time() == T0 + 30 + LAG_GRACE
    assert not clock.flagged(T0 + 30 + LAG_GRACE) and clock.flagged(T0 + 30 + LAG_GRACE + 0.001)


@pytest.mark.parametrize("settings", [(1, 0), (14 * 86_400, 30 * 86_400), (30, 0), (1, 30 * 86_400)])
def test_the_bounds_themselves_are_allowed(settings: tuple[float, float]) -> None:
    assert ClockSettings(*settings).move_seconds == settings[0]


@pytest.mark.parametrize("settings", [(0.99, 0), (14 * 86_400 + 0.5, 0), (30, 30 * 86_400 + 1), (30, -0.5)])
def test_just_past_the_bounds_is_refused(settings: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match=r"at most (14|30) days"):
        ClockSettings(*settings)


def test_a_paused_clock_shows_the_same_figures_however_long_the_pause() -> None:
    clock = running().pause(T0 + 40)
    for later in (41, 100, 10_000):
        assert clock.reserve_at(0, T0 + later) == 50 and clock.move_left_at(T0 + later) == 0
    assert clock.deadline() is None and not clock.running


def test_an_unposted_board_stops_the_turn_and_the_repost_carries_on() -> None:
    clock = running().unposted(T0 + 12)
    assert not clock.running and clock.used == 12 and not clock.paused
    assert clock.reserve_at(0, T0 + 500) == 60
    clock = clock.posted(T0 + 100)
    assert clock.move_left_at(T0 + 100) == 18 and clock.deadline() == T0 + 100 - 12 + 90


def test_time_added_to_the_waiting_seat_is_its_own() -> None:
    clock = running().add_time(1, 15)
    assert clock.reserves == (60.0, 75.0) and clock.deadline() == T0 + 90


def test_a_new_turn_forgets_the_time_used() -> None:
    clock = running().pause(T0 + 20).new_turn(1)
    assert (clock.seat, clock.used, clock.turn_started) == (1, 0.0, None)


def test_settings_describe_themselves() -> None:
    assert ClockSettings(30, 60).describe() == "0:30 a move + 1:00 reserve"
    assert ClockSettings(86_400, 7 * 86_400).describe() == "1 d a move + 7 d reserve"
    assert ClockSettings(600, 0).describe() == "10:00 a move, no reserve"
    assert ClockSettings(5400, 36 * 3600).describe() == "1:30:00 a move + 1 d 12 h reserve"


@pytest.mark.parametrize(("seconds", "shown"), [(59.5, "1:00"), (3600, "1:00:00"), (0.4, "0:01"), (61, "1:01")])
def test_more_display_boundaries(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (86_399, "23:59:59"),  # under a day: hours, minutes, seconds as before
        (86_399.5, "1 d"),  # rounded up to the second, that is a day
        (86_400, "1 d"),
        (86_400.5, "1 d 0 h 1 m"),  # from a day up rounded up to the minute
        (86_460, "1 d 0 h 1 m"),
        (86_400 + 3600, "1 d 1 h"),
        (86_400 + 3660, "1 d 1 h 1 m"),
        (6 * 86_400 + 18 * 3600, "6 d 18 h"),
        (7 * 86_400 - 1, "7 d"),
        (30 * 86_400, "30 d"),
    ],
)
def test_long_times_show_in_days_hours_and_minutes(seconds: float, shown: str) -> None:
    assert format_seconds(seconds) == shown
