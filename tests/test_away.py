"""Away time (bot/service/away.py) on a real SQLite file with a fake clock: it stops a player's long clocks
(and only those), tells the opponents, ends on time by itself, with /back or with a move, keeps to the yearly
allowance, and survives restarts. Also `my_games`' order, and the clock arithmetic away time adds."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot import posts
from bot.clock import LAG_GRACE, ClockSettings, FakeTime, MatchClock
from bot.models import Match, Place, Player
from bot.service import AWAY_DAYS_A_YEAR, MatchService, ServiceError
from bot.service.away import year_start
from bot.service.flags import FlagScheduler
from tests.conftest import ALICE, BOB, MOD, Recorder, eventually

DAY = 86_400.0
LONG = ClockSettings(3600, 7200)  # an hour a move + 2 h reserve: play by post
LIVE = ClockSettings(30, 60)  # a death match's clock
HERE = Place(guild_id=1, channel_id=10)
ELSEWHERE = Place(guild_id=2, channel_id=20)
CAROL = Player("local:carol", "carol")


async def toy(
    service: MatchService,
    clock: ClockSettings | None = LONG,
    first: int = 0,
    place: Place = HERE,
    players: tuple[Player, ...] = (ALICE, BOB),
) -> Match:
    return await service.create_match("toy", list(players), clock=clock, place=place, options={"first": first})


async def current(service: MatchService, match: Match) -> MatchClock:
    clock = (await service.get(match.id)).clock
    assert clock is not None
    return clock


def lines(recorder: Recorder, kind: str, match: Match | None = None) -> list[str]:
    return [
        line
        for n in recorder.notices
        if n.kind == kind and (match is None or n.match.id == match.id)
        for line in n.lines
    ]


async def settle() -> None:
    for _ in range(30):
        await asyncio.sleep(0)


# --- what away time stops ---


async def test_away_stops_the_clock_of_a_turn_under_way_and_back_carries_on(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    fake_time.advance(1000)  # alice has used 1000 s of her hour
    answer = await service.away.go_away(ALICE, 1, 3)
    until = fake_time.now() + 3 * DAY
    assert answer.period.until == until and answer.matches == (match.id,) and not answer.extended
    assert answer.left == (AWAY_DAYS_A_YEAR - 3) * DAY
    assert service.away.until(ALICE.id, 1) == until and service.away.until(ALICE.id, 2) is None
    assert service.away.until(BOB.id, 1) is None
    clock = await current(service, match)
    assert clock.away == (0,) and clock.turn_started is None and clock.used == 1000 and not clock.running
    assert lines(recorder, "away", match) == [f"alice is away until <t:{int(until)}:f>; the clock waits for alice."]
    assert recorder.notices[-1].by == ALICE

    fake_time.advance(2 * DAY)  # far past her hour and reserve: nothing falls, nothing is spent
    await service.flags.sweep()
    await settle()
    assert (await service.get(match.id)).running
    clock = await current(service, match)
    assert clock.reserves == (7200, 7200) and clock.used == 1000 and clock.deadline() is None

    back = await service.away.come_back(ALICE, 1)
    assert back.matches == (match.id,) and back.period.ended_at == fake_time.now()
    assert back.left == pytest.approx((AWAY_DAYS_A_YEAR - 2) * DAY)  # two days taken, the third given back
    assert service.away.until(ALICE.id, 1) is None
    clock = await current(service, match)
    assert clock.away == () and clock.turn_started == fake_time.now() and clock.used == 1000
    assert clock.deadline() == fake_time.now() + 2600 + 7200
    assert lines(recorder, "back", match) == ["alice is back; the clock runs again on alice's turns."]
    fake_time.advance(2600 + 7200 + LAG_GRACE + 1)
    await eventually(lambda: "over" in recorder.kinds())  # and it flags as any clock does


async def test_a_turn_that_comes_while_away_waits_and_the_opponents_turns_run(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await toy(service, first=1)  # bob to move
    await service.away.go_away(ALICE, 1, 5)
    clock = await current(service, match)
    assert clock.away == (0,) and clock.running  # bob's turn runs as usual
    assert clock.deadline() == fake_time.now() + 3600 + 7200
    fake_time.advance(600)
    await service.move(match.id, BOB.id, "1")  # alice's turn comes: its board is posted, the clock waits
    clock = await current(service, match)
    assert clock.seat == 0 and clock.turn_started is None and clock.away == (0,)
    assert "away, so the clock waits (1:00:00 a move + 2:00:00 reserve left)" in "\n".join(
        posts.status_lines(service, await service.get(match.id))
    )
    fake_time.advance(4 * DAY)
    await service.flags.sweep()
    assert (await service.get(match.id)).running and (await current(service, match)).reserves == (7200, 7200)
    await service.away.come_back(ALICE, 1)
    clock = await current(service, match)
    assert clock.turn_started == fake_time.now() and clock.deadline() == fake_time.now() + 3600 + 7200
    assert recorder.kinds().count("back") == 1


async def test_live_and_untimed_games_do_not_stop_and_other_servers_are_untouched(
    service: MatchService, fake_time
) -> None:
    recorder = Recorder(service)
    live = await toy(service, LIVE)
    untimed = await toy(service, None)
    other = await toy(service, place=ELSEWHERE)
    answer = await service.away.go_away(ALICE, 1, 2)
    assert answer.matches == ()
    assert (await current(service, live)).away == () and (await current(service, other)).away == ()
    assert (await service.get(untimed.id)).clock is None
    assert "away" not in recorder.kinds()  # nobody to tell: no clock stopped
    words = posts.away_answer(answer.period.until, [], answer.left, False, "/back")
    assert "None of your games here has a long clock" in words[1]
    fake_time.advance(30 + 60 + LAG_GRACE + 1)  # a death match's clock never stops for away time
    await eventually(lambda: "over" in recorder.kinds())
    assert not (await service.get(live.id)).running
    assert (await service.get(other.id)).running and (await current(service, other)).running


async def test_every_seat_of_the_player_stops_and_only_theirs(service: MatchService, fake_time) -> None:
    Recorder(service)
    match = await toy(service, players=(ALICE, BOB, CAROL), first=1)
    await service.away.go_away(CAROL, 1, 1)
    clock = await current(service, match)
    assert clock.away == (2,) and clock.running and clock.seat == 1
    await service.away.go_away(ALICE, 1, 1)
    assert (await current(service, match)).away == (0, 2)
    await service.away.come_back(CAROL, 1)
    assert (await current(service, match)).away == (0,)


async def test_a_match_starting_waits_for_each_away_player_whatever_the_seat(service: MatchService) -> None:
    Recorder(service)
    await service.away.go_away(ALICE, 1, 2)
    await service.away.go_away(CAROL, 1, 2)
    match = await toy(service, players=(BOB, ALICE, CAROL))  # bob, who is not away, comes first
    assert (await current(service, match)).away == (1, 2)


async def test_a_match_starting_while_away_waits_from_the_start(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    await service.away.go_away(ALICE, 1, 2)
    until = service.away.until(ALICE.id, 1)
    assert until is not None
    match = await toy(service)
    clock = await current(service, match)
    assert clock.away == (0,) and clock.turn_started is None  # its board was posted, the clock did not start
    assert recorder.kinds()[:2] == ["away", "started"]  # told before the board goes up
    assert lines(recorder, "away", match) == [posts.away_line("alice", until)]
    live = await toy(service, LIVE)
    assert (await current(service, live)).away == () and (await current(service, live)).running
    elsewhere = await toy(service, place=ELSEWHERE)
    assert (await current(service, elsewhere)).running
    await service.away.come_back(ALICE, 1)
    assert (await current(service, match)).running


# --- how it ends ---


async def test_away_time_ends_by_itself_on_time(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    await service.away.go_away(ALICE, 1, 1)
    fake_time.advance(DAY - 1)
    await settle()
    assert "back" not in recorder.kinds()
    fake_time.advance(1)
    await eventually(lambda: "back" in recorder.kinds())  # the scheduler's call, nobody asked
    assert lines(recorder, "back", match) == ["alice's away time is over; the clock runs again on alice's turns."]
    assert service.away.until(ALICE.id, 1) is None
    clock = await current(service, match)
    assert clock.away == () and clock.turn_started == fake_time.now()
    [period] = await service.store.away_periods(1, ALICE.id, 0)
    assert period.ended_at == period.until == period.started_at + DAY
    with pytest.raises(ServiceError, match="You have 13 days of away time left this year"):
        await service.away.go_away(ALICE, 1, 14)


async def test_a_move_ends_away_time_in_every_game_on_that_server(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    mine = await toy(service)  # alice to move
    waiting = await toy(service)
    untimed = await toy(service, None)
    elsewhere = await toy(service, place=ELSEWHERE)
    await service.away.go_away(ALICE, 2, 3)  # away on the other server too
    await service.away.go_away(ALICE, 1, 3)
    fake_time.advance(DAY)
    await service.move(untimed.id, ALICE.id, "1")  # an untimed game's move counts too
    assert service.away.until(ALICE.id, 1) is None and service.away.until(ALICE.id, 2) is not None
    said = "alice moved and so is back; the clock runs again on alice's turns."
    assert lines(recorder, "back", mine) == [said] and lines(recorder, "back", waiting) == [said]
    assert lines(recorder, "back", elsewhere) == []
    assert (await current(service, mine)).running and (await current(service, waiting)).running
    assert not (await current(service, elsewhere)).running
    fake_time.advance(10)
    await service.move(mine.id, ALICE.id, "1")  # not away any more: nothing more to end
    assert recorder.kinds().count("back") == 2


async def test_moving_in_the_game_whose_clock_waits_charges_only_the_time_before(
    service: MatchService, fake_time
) -> None:
    Recorder(service)
    match = await toy(service)
    fake_time.advance(100)
    await service.away.go_away(ALICE, 1, 2)
    fake_time.advance(DAY)
    await service.move(match.id, ALICE.id, "1")
    [record] = await service.moves(match.id)
    assert record.took == 100  # the day away is charged to nobody
    clock = await current(service, match)
    assert clock.away == () and clock.seat == 1 and clock.running
    assert service.away.until(ALICE.id, 1) is None


async def test_a_stale_end_does_nothing(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    await service.away.go_away(ALICE, 1, 1)
    await service.away.go_away(ALICE, 1, 3)  # the end moves on: the first timer is stale
    fake_time.advance(DAY + 1)
    await settle()
    assert "back" not in recorder.kinds() and service.away.until(ALICE.id, 1) is not None
    await service.away.come_back(ALICE, 1)
    await service.away.go_away(ALICE, 1, 2)  # a new period: the 3-day timer of the old one must not end it
    fake_time.advance(2 * DAY - 1)
    await settle()
    assert service.away.until(ALICE.id, 1) is not None and not (await current(service, match)).running
    fake_time.advance(1)
    await eventually(lambda: service.away.until(ALICE.id, 1) is None)


# --- refusals and the allowance ---


@pytest.mark.parametrize("days", [0, -1, 15, 2.5, True])
async def test_days_out_of_range_are_refused(service: MatchService, days) -> None:
    with pytest.raises(ServiceError, match="Away time is 1 to 14 whole days at a time"):
        await service.away.go_away(ALICE, 1, days)
    assert service.away.until(ALICE.id, 1) is None
    assert await service.store.away_periods(1, ALICE.id, 0) == []


async def test_the_yearly_allowance_counts_what_was_taken(service: MatchService, fake_time) -> None:
    Recorder(service)
    await service.away.go_away(ALICE, 1, 10)
    fake_time.advance(4 * DAY + 5 * 3600)
    back = await service.away.come_back(ALICE, 1)  # 4 days 5 hours taken; the rest is given back
    assert back.left == pytest.approx(9 * DAY + 19 * 3600)
    assert posts.back_answer(4 * DAY + 5 * 3600, [], back.left) == (
        "Welcome back: you were away 4 days and 5 hours. Away time left this year: 9 days and 19 hours."
    )
    with pytest.raises(ServiceError) as refused:
        await service.away.go_away(ALICE, 1, 10)
    assert str(refused.value) == (
        "You have 9 days and 19 hours of away time left this year (14 days a year in each server): ask for 9 days"
        " or fewer."
    )
    answer = await service.away.go_away(ALICE, 1, 9)
    assert answer.left == pytest.approx(19 * 3600)
    fake_time.advance(9 * DAY)
    await eventually(lambda: service.away.until(ALICE.id, 1) is None)
    with pytest.raises(ServiceError) as none_left:
        await service.away.go_away(ALICE, 1, 1)
    assert str(none_left.value) == (
        "You have 19 hours of away time left this year (14 days a year in each server): not a whole day, so no"
        " more away time until 1 January (UTC)."
    )
    await service.away.go_away(BOB, 1, 14)  # each player has their own
    await service.away.go_away(ALICE, 2, 14)  # and each server its own


async def test_the_allowance_starts_again_each_calendar_year(open_service) -> None:
    time = FakeTime(dt.datetime(2027, 12, 20, tzinfo=dt.UTC).timestamp())
    store_service = await open_service()
    service = MatchService(store_service.store, time)
    await service.start()
    await service.away.go_away(ALICE, 1, 14)  # 20 to 31 December count in 2027, and so do the days in January
    assert service.away.until(ALICE.id, 1) == dt.datetime(2028, 1, 3, tzinfo=dt.UTC).timestamp()
    time.advance(14 * DAY)
    await eventually(lambda: service.away.until(ALICE.id, 1) is None)
    answer = await service.away.go_away(ALICE, 1, 14)  # 2028's allowance is whole
    assert answer.left == 0
    await service.close()


def test_years_are_calendar_years_in_utc() -> None:
    start = dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp()
    end = dt.datetime(2028, 1, 1, tzinfo=dt.UTC).timestamp()
    assert year_start(dt.datetime(2027, 6, 1, tzinfo=dt.UTC).timestamp()) == start
    assert year_start(start) == start and year_start(end - 1) == start and year_start(end) == end


async def test_already_away_extends_only_later_within_the_allowance(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    first = await service.away.go_away(ALICE, 1, 5)
    fake_time.advance(DAY)
    for days in (3, 4):  # 4 days from now is the end already set: not later
        with pytest.raises(ServiceError) as refused:
            await service.away.go_away(ALICE, 1, days)
        assert str(refused.value).startswith(f"You are already away until <t:{int(first.period.until)}:f>")
    later = await service.away.go_away(ALICE, 1, 6)
    assert later.extended and later.period.id == first.period.id and later.period.started_at == first.period.started_at
    assert later.period.until == fake_time.now() + 6 * DAY and later.matches == (match.id,)
    assert later.left == pytest.approx((AWAY_DAYS_A_YEAR - 7) * DAY)  # the day taken and the six to come
    assert lines(recorder, "away", match)[-1] == posts.away_line("alice", later.period.until)
    assert len(await service.store.away_periods(1, ALICE.id, 0)) == 1
    with pytest.raises(ServiceError, match=r"13 days of away time left this year \(counted from now, "):
        await service.away.go_away(ALICE, 1, 14)
    assert service.away.until(ALICE.id, 1) == later.period.until


async def test_exactly_what_is_left_may_be_taken_and_not_a_moment_more(service: MatchService, fake_time) -> None:
    await service.away.go_away(ALICE, 1, 4)
    fake_time.advance(4 * DAY)
    await eventually(lambda: service.away.until(ALICE.id, 1) is None)
    assert (await service.away.go_away(ALICE, 1, 10)).left == 0  # 4 + 10: the whole allowance, exactly
    await service.away.go_away(BOB, 1, 4)
    fake_time.advance(4 * DAY + 0.5)  # half a second more is taken, when back comes late
    await service.away.come_back(BOB, 1)
    with pytest.raises(ServiceError, match="ask for 9 days or fewer"):
        await service.away.go_away(BOB, 1, 10)


async def test_back_when_not_away_is_refused(service: MatchService) -> None:
    with pytest.raises(ServiceError, match="You are not away here"):
        await service.away.come_back(ALICE, 1)


async def test_a_failed_commit_changes_nothing(service: MatchService, fake_time, monkeypatch) -> None:
    Recorder(service)
    match = await toy(service)
    before = await current(service, match)

    async def broken(*args: object) -> None:
        raise ServiceError("the disk is full")

    monkeypatch.setattr(service.store, "update_clock", broken)
    with pytest.raises(ServiceError, match="disk is full"):
        await service.away.go_away(ALICE, 1, 2)
    monkeypatch.undo()
    assert service.away.until(ALICE.id, 1) is None
    assert service.running_match(match.id).clock == before  # type: ignore[union-attr]
    assert await service.store.away_periods(1, ALICE.id, 0) == []


async def test_a_move_stands_when_its_away_time_cannot_be_ended(service: MatchService, fake_time, monkeypatch) -> None:
    Recorder(service)
    match = await toy(service)
    await service.away.go_away(ALICE, 1, 2)

    async def broken(*args: object) -> None:
        raise ServiceError("the disk is full")

    monkeypatch.setattr(service.store, "update_away", broken)
    notice = await service.move(match.id, ALICE.id, "1")
    assert notice.kind == "moved" and (await service.get(match.id)).ply == 1
    assert service.away.until(ALICE.id, 1) is not None  # ends on time, or with /back
    monkeypatch.undo()
    await service.away.come_back(ALICE, 1)
    assert service.away.until(ALICE.id, 1) is None


async def test_away_waits_for_a_match_busy_elsewhere_and_skips_one_that_ended(service: MatchService, fake_time) -> None:
    Recorder(service)
    gone = await toy(service)
    busy = await toy(service)
    registry = service.registry
    lock = registry.lock(gone.id)
    async with lock:  # e.g. a move of the first being committed
        going = asyncio.create_task(service.away.go_away(ALICE, 1, 2))
        await eventually(lambda: bool(lock._waiters))  # type: ignore[attr-defined]  # it waits for this lock
        assert not going.done() and (await current(service, busy)).away == ()
        registry.finish(gone)  # the first one ended meanwhile
    answer = await going
    assert answer.matches == (busy.id,) and (await current(service, busy)).away == (0,)
    assert gone.clock is not None and gone.clock.away == ()


async def test_away_and_back_are_in_each_matchs_action_log_and_rearm_its_deadlines(
    service: MatchService, fake_time
) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    fake_time.advance(600)
    planned = await service.store.unsent_reminders(match.id, match.ply)
    assert [kind for kind, _, _ in planned] == ["half", "last"]
    answer = await service.away.go_away(ALICE, 1, 2)
    assert await service.store.unsent_reminders(match.id, match.ply) == []  # a stopped clock reminds of nothing
    fake_time.advance(DAY)
    armed = service.flags.scheduler.armed
    await service.away.come_back(ALICE, 1)
    assert service.flags.scheduler.armed == armed + 1  # the flag, armed for the deadline that moved on
    back = fake_time.now()
    assert [(kind, due) for kind, _, due in await service.store.unsent_reminders(match.id, match.ply)] == [
        ("half", back - 600 + 1800),
        ("last", back - 600 + 3600 + 7200 - 1080),
    ]
    fake_time.advance(1800 - 600 - 1)
    await settle()
    assert "reminder" not in recorder.kinds()
    fake_time.advance(1)
    await eventually(lambda: "reminder" in recorder.kinds())  # half the hour, counted without the day away
    actions = [a for a in await service.store.actions(match.id) if a["kind"] in ("away", "back")]
    assert actions == [
        {"kind": "away", "by_id": ALICE.id, "detail": f"away until {answer.period.until:.0f}", "at": back - DAY},
        {"kind": "back", "by_id": ALICE.id, "detail": "back", "at": back},
    ]


async def test_an_end_that_cannot_be_stored_is_tried_again(service: MatchService, fake_time, monkeypatch) -> None:
    recorder = Recorder(service)
    match = await toy(service)
    await service.away.go_away(ALICE, 1, 1)
    failing = True
    tried: list[float] = []
    update = service.store.update_away

    async def flaky(period: object) -> None:
        if failing:
            tried.append(fake_time.now())
            raise ServiceError("the disk is full")
        await update(period)  # type: ignore[arg-type]

    monkeypatch.setattr(service.store, "update_away", flaky)
    fake_time.advance(DAY)
    await eventually(lambda: bool(tried))
    await asyncio.sleep(0.2)  # real time: a retry at once would have failed again meanwhile
    assert tried == [fake_time.now()]
    assert service.away.until(ALICE.id, 1) is not None and not (await current(service, match)).running
    failing = False
    fake_time.advance(59)
    await asyncio.sleep(0.2)
    assert "back" not in recorder.kinds()
    fake_time.advance(1)
    await eventually(lambda: "back" in recorder.kinds())
    assert service.away.until(ALICE.id, 1) is None and (await current(service, match)).running
    [period] = await service.store.away_periods(1, ALICE.id, 0)
    assert period.ended_at == period.until  # taken as asked, not the minute more


# --- with moderators and holds ---


async def test_a_paused_match_resumed_while_away_still_waits(service: MatchService, fake_time) -> None:
    Recorder(service)
    match = await toy(service)
    await service.moderation.pause(match.id, MOD)
    await service.away.go_away(ALICE, 1, 2)
    await service.moderation.resume(match.id, MOD)
    assert not (await current(service, match)).running
    await service.moderation.pause(match.id, MOD)
    await service.away.come_back(ALICE, 1)
    assert not (await current(service, match)).running  # the moderator's pause still holds it
    await service.moderation.resume(match.id, MOD)
    assert (await current(service, match)).running


async def test_back_while_the_board_is_held_waits_for_the_board(service: MatchService, fake_time) -> None:
    recorder = Recorder(service, post=False)
    match = await toy(service)
    await service.board_posted(match.id, 0)
    await service.away.go_away(ALICE, 1, 2)
    await service.hold(match.id, "no permission")
    await service.away.come_back(ALICE, 1)
    assert (await current(service, match)).turn_started is None
    await service.board_posted(match.id, 0)
    assert (await current(service, match)).turn_started == fake_time.now()
    assert "back" in recorder.kinds()


# --- restarts ---


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_restart_while_away_keeps_the_clock_stopped_and_ends_on_time(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    match = await toy(first)
    fake_time.advance(500)
    await first.away.go_away(ALICE, 1, 3)
    until = first.away.until(ALICE.id, 1)
    await first.close()

    fake_time.advance(DAY)
    second = await open_service()
    await second.start()
    recorder = Recorder(second)
    assert second.away.until(ALICE.id, 1) == until
    await second.board_posted(match.id, match.ply)  # the repost after the restart: the clock still waits
    clock = await current(second, match)
    assert clock.away == (0,) and clock.turn_started is None
    fake_time.advance(2 * DAY - 1)
    await settle()
    assert second.away.until(ALICE.id, 1) == until
    fake_time.advance(1)
    await eventually(lambda: "back" in recorder.kinds())
    assert (await current(second, match)).turn_started == fake_time.now()


async def test_away_time_that_ended_while_the_bot_was_down_ends_as_of_its_end(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    match = await toy(first)
    answer = await first.away.go_away(ALICE, 1, 1)
    await first.close()

    fake_time.advance(3 * DAY)
    second = await open_service()
    recorder = Recorder(second)
    await second.start()
    assert second.away.until(ALICE.id, 1) is None
    [period] = await second.store.away_periods(1, ALICE.id, 0)
    assert period.ended_at == answer.period.until  # one day taken, not three
    assert lines(recorder, "back", match) == ["alice's away time is over; the clock runs again on alice's turns."]
    clock = await current(second, match)
    assert clock.away == () and clock.turn_started is None  # it starts with the board's repost
    await second.board_posted(match.id, match.ply)
    assert (await current(second, match)).turn_started == fake_time.now()


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_restart_ends_each_period_due_and_keeps_the_others(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    alices = await toy(first)
    bobs = await toy(first, first=1)
    await first.away.go_away(ALICE, 1, 1)
    await first.away.go_away(BOB, 1, 3)
    await first.close()

    fake_time.advance(DAY)  # exactly at the end of alice's
    second = await open_service()
    recorder = Recorder(second)
    await second.start()
    assert second.away.until(ALICE.id, 1) is None and second.away.until(BOB.id, 1) is not None
    assert (await current(second, alices)).away == (1,)  # bob's seat still waits
    assert (await current(second, bobs)).away == (1,) and (await current(second, bobs)).turn_started is None
    await settle()
    assert (await current(second, alices)).turn_started is None  # no clock starts before its board's repost
    fake_time.advance(2 * DAY)
    await eventually(lambda: second.away.until(BOB.id, 1) is None)
    assert lines(recorder, "back", bobs)[-1] == "bob's away time is over; the clock runs again on bob's turns."


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_restart_repairs_a_seat_left_stopped_for_nobody(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    match = await toy(first)
    stray = (await current(first, match)).stop_for(0, fake_time.now())
    async with first.store.transaction():
        await first.store.update_clock(match.id, stray)
    await first.close()

    second = await open_service()
    await second.start()
    clock = await current(second, match)
    assert clock.away == () and clock.turn_started is None  # it starts with its board's repost
    await second.board_posted(match.id, match.ply)
    assert (await current(second, match)).running


# --- my games ---


async def test_my_games_lists_my_turns_first_by_deadline(service: MatchService, fake_time) -> None:
    Recorder(service)
    theirs = await toy(service, first=1)
    later = await toy(service, ClockSettings(7200, 7200))
    stopped = await toy(service)
    sooner = await toy(service, first=1, players=(CAROL, ALICE))  # alice is seat 1, to move
    untimed = await toy(service, None)
    await service.moderation.pause(stopped.id, MOD)  # no deadline while paused
    fake_time.advance(60)
    other_turn = await toy(service, players=(CAROL, ALICE))
    await toy(service, place=ELSEWHERE)
    await toy(service, players=(BOB, CAROL))
    found = service.registry.turns_first(ALICE.id, 1)
    assert [m.id for m in found] == [sooner.id, later.id, stopped.id, untimed.id, theirs.id, other_turn.id]
    assert service.registry.turns_first("local:nobody", 1) == []
    assert [m.id for m in service.registry.turns_first(ALICE.id, 2)] != []


async def test_my_games_lines_say_whose_turn_the_deadline_and_link_the_board(service: MatchService, fake_time) -> None:
    Recorder(service)
    mine = await toy(service)
    await service.board_posted(mine.id, 0, message=(11, 12))
    theirs = await toy(service, None, first=1, players=(ALICE, BOB, CAROL))
    solo = await service.create_match("volcano", [ALICE], place=HERE)
    found = service.registry.turns_first(ALICE.id, 1)
    text = posts.my_games_lines(service, found, ALICE.id, discord=True)
    deadline = int(fake_time.now() + 3600 + 7200)
    assert text[0] == "Your running matches here: 3, your turn in 2."
    assert text[1] == (
        f"**Your turn**: #{mine.id} Toy vs bob — you to move, out of time <t:{deadline}:R>"
        " · [board](https://discord.com/channels/1/11/12)"
    )
    assert text[2].startswith(f"**Your turn**: #{solo.id} Volcano solitaire — you to move (no clock)")
    assert text[3] == f"#{theirs.id} Toy vs bob, carol — bob to move (no clock)"
    plain = posts.my_games_lines(service, found, ALICE.id, discord=False)
    assert plain[0] == "alice's running matches: 3, alice's turn in 2."  # the terminal's hot seat: named
    assert plain[1] == f"alice's turn: #{mine.id} Toy vs bob — alice to move, out of time <t:{deadline}:R>"
    await service.away.go_away(ALICE, 1, 1)
    waiting = posts.my_games_lines(service, service.registry.turns_first(ALICE.id, 1), ALICE.id, discord=False)
    assert waiting[1].endswith("alice to move, the clock waiting: alice is away")
    assert posts.my_games_lines(service, [], ALICE.id, discord=True) == []


# --- the clock's arithmetic and the scheduler's new entries ---


def test_the_clock_stops_for_one_seat_and_carries_on() -> None:
    clock = MatchClock.start(LONG, 2, 0).posted(100.0)
    gone = clock.stop_for(0, 400.0)
    assert gone.away == (0,) and gone.used == 300 and gone.turn_started is None and not gone.running
    assert gone.stop_for(0, 900.0) == gone  # twice is once
    assert gone.posted(500.0) == gone and gone.resume(500.0).turn_started is None
    back = gone.back(0, 1000.0)
    assert back.away == () and back.turn_started == 1000 and back.used == 300
    assert back.deadline() == 1000 - 300 + 3600 + 7200
    assert gone.back(0, 1000.0, start=False).turn_started is None
    assert clock.back(0, 1000.0) == clock  # nobody away: nothing to do
    other = clock.stop_for(1, 400.0)
    assert other.away == (1,) and other.turn_started == 100 and other.running  # seat 0's turn goes on
    assert other.back(1, 900.0) == clock  # and coming back does not restart seat 0's turn
    both = other.stop_for(0, 400.0)
    assert both.away == (0, 1) and both.back(1, 500.0).away == (0,) and both.back(1, 500.0).turn_started is None
    handed, _ = other.after_move(500.0, 1)
    assert handed.away == (1,) and handed.posted(600.0).turn_started is None
    paused = gone.pause(500.0).back(0, 600.0)
    assert paused.turn_started is None and paused.resume(700.0).turn_started == 700
    assert MatchClock.from_json(both.to_json()) == both
    old = clock.to_json()
    del old["away"]  # a clock stored before away time
    assert MatchClock.from_json(old) == clock


async def test_call_at_runs_each_call_once_at_its_time_between_flags() -> None:
    time = FakeTime()
    done: list[str] = []
    flagged: list[int] = []

    async def on_due(match_id: int, ply: int) -> None:
        flagged.append(match_id)

    def call(name: str):  # type: ignore[no-untyped-def]
        async def run() -> None:
            done.append(name)

        return run

    scheduler = FlagScheduler(time, on_due, sweep_every=1000.0)
    scheduler.start()
    start = time.now()
    scheduler.call_at(start + 20, call("b"))
    scheduler.call_at(start + 10, call("a"))
    scheduler.arm(7, 0, start + 15)
    scheduler.call_at(start + 20, call("c"))  # same time: in the order asked
    await settle()
    time.advance(9)
    await settle()
    assert done == [] and flagged == []
    time.advance(1)
    await settle()
    assert done == ["a"] and flagged == []
    time.advance(5)
    await settle()
    assert flagged == [7] and done == ["a"]
    time.advance(5)
    await settle()
    assert done == ["a", "b", "c"]
    assert scheduler.armed == 0
    time.advance(100)
    await settle()
    assert done == ["a", "b", "c"]
    await scheduler.stop()


# --- the terminal ---


async def test_the_terminal_has_mygames_away_and_back(terminal, out: list[str], fake_time) -> None:
    await terminal.handle("fish new alice bob --clock 3600/7200")
    await terminal.handle("themiscyra new bob alice")
    out.clear()
    await terminal.handle("mygames alice")
    assert out[-1].splitlines() == [
        "alice's running matches: 2, alice's turn in 1.",
        'alice\'s turn: #1 "1, 2, 3" vs bob — alice to move, out of time in 3:00:00',
        "#2 Themiscyra vs bob — bob to move (no clock)",
    ]
    await terminal.handle("mygames carol")
    assert out[-1] == "carol has no running matches."
    out.clear()
    await terminal.handle("away alice 3")
    until = time_text(fake_time.now() + 3 * DAY)
    assert out[0] == f"[#1] alice is away until {until}; the clock waits for alice."
    assert out[1].splitlines()[0] == f"alice: You are away until {until}."
    assert 'The clock waits for you in #1 "1, 2, 3"' in out[1] and "or back alice, ends it early" in out[1]
    for line, said in (
        ("away alice 2", f"✗ alice: you are already away until {until}"),
        ("away alice 15", "✗ alice: Away time is 1 to 14 whole days at a time, not 15."),
        ("away alice 2.5", "✗ DAYS is a whole number of days, 1 to 14, not '2.5'."),
        ("away alice", "✗ Use: away NAME DAYS (1 to 14)."),
        ("back", "✗ Use: back NAME."),
    ):
        await terminal.handle(line)
        assert out[-1].startswith(said), (line, out[-1])
    out.clear()
    await terminal.handle("back alice")
    assert out == [
        "[#1] alice is back; the clock runs again on alice's turns.",
        'alice: Welcome back: you were away less than an hour. The clock runs again in #1 "1, 2, 3". Away time left'
        " this year: 14 days.",
    ]
    await terminal.handle("back alice")
    assert out[-1] == "✗ alice: you are not away here, so there is nothing to end."


def time_text(when: float) -> str:
    return dt.datetime.fromtimestamp(int(when), dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


async def test_a_call_asked_for_while_the_scheduler_sleeps_wakes_it_and_then_it_sleeps_until_then() -> None:
    from tests.test_flag_scheduler import CountingTime, ticks

    time = CountingTime()
    done: list[float] = []

    async def on_due(match_id: int, ply: int) -> None:
        raise AssertionError("no flag was armed")

    async def call() -> None:
        done.append(time.now())

    scheduler = FlagScheduler(time, on_due, sweep_every=1000.0)
    scheduler.start()
    await ticks()
    start = time.now()
    assert time.sleeps == [start + 1000]  # asleep until the sweep
    scheduler.call_at(start + 10, call)  # must wake it, or it would sleep on past the call
    await ticks(50)
    assert time.sleeps == [start + 1000, start + 10]  # one more sleep, until the call: no spinning
    time.advance(10)
    await ticks()
    assert done == [start + 10]
    await scheduler.stop()
