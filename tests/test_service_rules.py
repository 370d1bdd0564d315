"""What players would notice, at the service (bot/service.py), with exact values: the move path and its
refusals, clocks (charged on move, started by the board post, flags at deadline + LAG_GRACE, moderators'
pause, resume and added time), flags in games of two and of three, the end when only computers are left,
death-match bounds and wording, and Fish's game-over lines (issue #17)."""

from __future__ import annotations

import asyncio

import pytest

from bot import posts
from bot.clock import LAG_GRACE, ClockSettings
from bot.games import GAMES, BadOptions, Outcome, Termination
from bot.models import OVER, RUNNING, Player, computer
from bot.service import (
    DM_CLOCK,
    FlagScheduler,
    MatchNotRunning,
    MatchPaused,
    MatchService,
    NotInMatch,
    NotYourTurn,
    ServiceError,
    StaleBoard,
    TimeUp,
)
from tests.conftest import ALICE, BOB, MOD, Recorder, eventually
from tests.games.fish_positions import position

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

CAROL = Player("local:carol", "carol")
CLOCK = ClockSettings(30, 60)
"""30 s a move + 60 s reserve: a turn posted at t runs out at t + 90 and flags after t + 90 + LAG_GRACE."""
VOLCANO = GAMES["volcano"]


@pytest.fixture
async def timed(open_service) -> MatchService:
    """A service whose scheduler has no sweep: only the timers the service arms can flag a match, so a
    flag that falls proves it was armed (the sweep would find it within 30 s anyway)."""

    async def no_sweep() -> None:
        pass

    service = await open_service()
    service.flags.scheduler = FlagScheduler(service.time, service.flags.flag_if_due, no_sweep, sweep_every=10**9)
    await service.start()
    return service


async def settle() -> None:
    """Let the scheduler's tasks run (in real time; the fake clock does not move)."""
    await asyncio.sleep(0.05)


def ratings_line(notice) -> bool:
    return len(notice.lines) > 0 and notice.lines[-1].startswith("Ratings: alice ")


# --- the move path ---


async def test_refused_moves_say_why_exactly_and_change_nothing(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB])
    with pytest.raises(NotInMatch) as caught:
        await service.move(match.id, CAROL.id, "1")
    assert str(caught.value) == f"You are not playing in match #{match.id}."
    with pytest.raises(NotYourTurn) as caught:
        await service.move(match.id, BOB.id, "1")
    assert str(caught.value) == "It is alice's turn, not yours."
    with pytest.raises(StaleBoard) as caught:
        await service.move(match.id, ALICE.id, "1", ply=1)
    assert str(caught.value) == "The board has changed since you looked: look at the new board and try again."
    assert match.ply == 0 and match.state.total == 0 and await service.moves(match.id) == []

    await service.move(match.id, ALICE.id, "1", ply=0)  # the ply the player saw
    with pytest.raises(StaleBoard):  # a second click on the same board
        await service.move(match.id, BOB.id, "2", ply=0)
    await service.move(match.id, BOB.id, "2")  # no ply: not checked
    assert [(r.ply, r.seat, r.move) for r in await service.moves(match.id)] == [(1, 0, "1"), (2, 1, "2")]


async def test_a_move_is_logged_stored_and_announced(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB])
    notice = await service.move(match.id, ALICE.id, " 2 ")
    assert (notice.kind, notice.lines, notice.match.ply) == ("moved", ("The total is 2.",), 1)
    assert recorder.notices[-1] == notice
    (record,) = await service.moves(match.id)
    assert (record.ply, record.seat, record.move, record.kind, record.took) == (1, 0, "2", "move", None)
    stored = await service.store.load_match(match.id)
    assert stored is not None and stored.ply == 1 and stored.state.total == 2 and stored.status == RUNNING


async def test_the_move_that_ends_the_game_scores_it_and_later_moves_are_refused(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB])
    await service.move(match.id, ALICE.id, "2")
    await service.move(match.id, BOB.id, "1")
    over = await service.move(match.id, ALICE.id, "2")
    assert over.kind == "over" and over.lines[0] == "The total is 5." and ratings_line(over) and len(over.lines) == 2
    assert recorder.kinds() == ["started", "moved", "moved", "over"]
    assert match.result == Outcome((1.0, 0.0), frozenset({0}), "reached 5")
    assert posts.result_line(match) == "Game over: alice wins (reached 5)."
    assert posts.header(service, match) == f"Match #{match.id}"  # the board's header outside a death match
    stored = await service.store.load_match(match.id)
    assert stored is not None and stored.status == OVER and stored.result == match.result and stored.ply == 3
    assert service.running() == [] and service.running_match(match.id) is None
    with pytest.raises(MatchNotRunning) as caught:
        await service.move(match.id, BOB.id, "1")
    assert str(caught.value) == f"Match #{match.id} is over: it takes no more moves."
    assert len(await service.moves(match.id)) == 3


async def test_a_paused_match_refuses_moves(service: MatchService) -> None:
    Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await service.moderation.pause(match.id, MOD)
    with pytest.raises(MatchPaused) as caught:
        await service.move(match.id, ALICE.id, "1")
    assert str(caught.value) == f"Match #{match.id} is paused by a moderator; wait until it is resumed."


async def test_a_match_on_hold_refuses_moves_until_its_board_is_posted(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB])  # no clock: only the hold changes
    await service.hold(match.id, "no channel")
    with pytest.raises(MatchPaused) as caught:
        await service.move(match.id, ALICE.id, "1")
    assert str(caught.value) == (
        f"Match #{match.id} is on hold: the bot could not post its board (no channel). "
        "It goes on as soon as a board is posted; a moderator can try with /mod repost."
    )
    assert await service.board_posted(match.id, 0) is None
    assert match.held is None
    await service.move(match.id, ALICE.id, "1")
    actions = [(a["kind"], a["by_id"], a["detail"]) for a in await service.store.actions(match.id)]
    assert actions == [("hold", None, "no channel"), ("unhold", None, "the board is posted again")]


# --- clocks: charged on move, started by the board post ---


async def test_a_slow_move_is_charged_and_the_next_clock_waits_for_its_board(service: MatchService, fake_time) -> None:
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    start = fake_time.now()
    await service.board_posted(match.id, 0)
    assert match.clock.turn_started == start and match.clock.deadline() == start + 90
    fake_time.advance(45)  # 15 s beyond the move allowance
    await service.move(match.id, ALICE.id, "1")
    assert match.clock.reserves == (45.0, 60.0) and match.clock.seat == 1 and match.clock.turn_started is None
    assert [r.took for r in await service.moves(match.id)] == [45.0]
    fake_time.advance(100)  # bob's board is not up yet: nothing runs
    assert match.clock.reserve_at(1, fake_time.now()) == 60.0 and match.clock.deadline() is None
    posted = fake_time.now()
    await service.board_posted(match.id, 1)
    assert match.clock.turn_started == posted and match.clock.deadline() == posted + 90
    stored = await service.store.load_match(match.id)
    assert stored is not None and stored.clock == match.clock  # the start of the turn is stored
    fake_time.advance(10)
    await service.board_posted(match.id, 1)  # a second report of the same board changes nothing
    assert match.clock.turn_started == posted
    fake_time.advance(30)  # 40 s in all
    await service.move(match.id, BOB.id, "1")
    assert match.clock.reserves == (45.0, 50.0)
    fake_time.advance(5)
    await service.board_posted(match.id, 2)
    fake_time.advance(12)  # within the move allowance: the reserve is untouched
    await service.move(match.id, ALICE.id, "1")
    assert match.clock.reserves == (45.0, 50.0)
    assert [r.took for r in await service.moves(match.id)] == [45.0, 40.0, 12.0]


async def test_the_clock_starts_when_the_post_says_it_went_up(service: MatchService, fake_time) -> None:
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    up = fake_time.now()
    fake_time.advance(5)  # the report arrives 5 s after the post succeeded
    await service.board_posted(match.id, 0, at=up)
    assert match.clock.turn_started == up
    fake_time.advance(40)
    await service.move(match.id, ALICE.id, "1")
    assert match.clock.reserves == (45.0, 60.0)


async def test_a_move_is_timed_when_it_was_sent_never_later_than_now(service: MatchService, fake_time) -> None:
    Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    fake_time.advance(80)
    await service.move(match.id, ALICE.id, "1", at=fake_time.now() - 10)  # sent at 70 s, arrived at 80 s
    assert match.clock.reserves == (20.0, 60.0)
    fake_time.advance(40)
    await service.move(match.id, BOB.id, "1", at=fake_time.now() + 20)  # a timestamp from the future: now
    assert match.clock.reserves == (20.0, 50.0)
    assert [r.took for r in await service.moves(match.id)] == [70.0, 40.0]


async def test_a_move_at_the_flag_time_or_sent_before_it_wins_the_race(service: MatchService, fake_time) -> None:
    await service.flags.scheduler.stop()  # only the move decides
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    start = fake_time.now()
    await service.board_posted(match.id, 0)
    fake_time.advance(90 + LAG_GRACE)  # exactly the flag time: not yet fallen
    await service.move(match.id, ALICE.id, "1")
    assert match.running and match.clock.reserves == (0.0, 60.0) and match.clock.seat == 1
    await service.board_posted(match.id, 1)
    bob_flag = fake_time.now() + 90 + LAG_GRACE
    fake_time.advance(90 + LAG_GRACE + 5)  # it arrives 5 s after the flag time, but was sent just before it
    await service.move(match.id, BOB.id, "1", at=bob_flag - 0.01)
    assert match.running and match.clock.reserves == (0.0, 0.0)
    assert [r.at for r in await service.moves(match.id)] == [start + 90 + LAG_GRACE, bob_flag - 0.01]


async def test_a_move_sent_after_the_flag_time_loses_the_game(service: MatchService, fake_time) -> None:
    await service.flags.scheduler.stop()
    recorder = Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    flag_time = fake_time.now() + 90 + LAG_GRACE
    fake_time.advance(95)
    with pytest.raises(TimeUp) as caught:
        await service.move(match.id, ALICE.id, "1", at=flag_time + 0.01)
    assert str(caught.value) == f"Too late: your reserve time ran out and match #{match.id} is lost on time."
    assert match.status == OVER and match.result == Outcome(
        (0.0, 1.0), frozenset({1}), "alice's reserve time ran out", Termination.FLAG
    )
    assert recorder.kinds() == ["started", "over"] and recorder.notices[-1].lines[0] == "alice's reserve time ran out."
    assert await service.moves(match.id) == []


async def test_a_late_move_in_a_game_of_three_puts_its_player_out(service: MatchService, fake_time) -> None:
    await service.flags.scheduler.stop()
    Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    with pytest.raises(TimeUp) as caught:
        await service.move(match.id, ALICE.id, VOLCANO.legal_moves(match.state)[0])
    assert str(caught.value) == f"Too late: your reserve time ran out, so you are out of match #{match.id}."
    assert match.running and match.state.resigned == {0} and match.clock.seat == 1


# --- flags: armed by the post, falling after deadline + LAG_GRACE ---


async def test_the_post_arms_the_flag_and_it_falls_only_after_deadline_plus_grace(timed, fake_time) -> None:
    recorder = Recorder(timed, post=False)
    match = await timed.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(500)  # nobody has seen the board: no clock runs
    await settle()
    assert match.running and timed.flags.scheduler.armed == 0
    posted = fake_time.now()
    await timed.board_posted(match.id, 0)
    assert timed.flags.scheduler.armed == 1 and match.clock.flag_time() == posted + 90 + LAG_GRACE
    fake_time.advance(90)  # the deadline
    await settle()
    assert match.running
    fake_time.advance(LAG_GRACE)  # exactly the flag time: still not fallen
    await settle()
    assert match.running and recorder.kinds() == ["started"]
    fake_time.advance(0.001)
    await eventually(lambda: "over" in recorder.kinds())
    over = recorder.notices[-1]
    assert over.kind == "over" and over.lines[0] == "alice's reserve time ran out." and ratings_line(over)
    assert len(over.lines) == 2
    assert match.result == Outcome((0.0, 1.0), frozenset({1}), "alice's reserve time ran out", Termination.FLAG)
    assert posts.result_line(match) == "Game over: bob wins (alice's reserve time ran out)."
    assert match.clock.reserves == (0.0, 60.0) and match.clock.seat is None
    actions = [(a["kind"], a["by_id"], a["detail"]) for a in await timed.store.actions(match.id)]
    assert actions == [("flag", None, "alice's reserve time ran out")]
    assert timed.running() == []


async def test_a_flag_checked_for_a_finished_or_unknown_match_does_nothing(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await service.playing.resign(match.id, ALICE.id)
    await service.flags.flag_if_due(match.id, 0)  # a timer armed before the game ended
    await service.flags.flag_if_due(999, 0)
    assert match.result is not None and match.result.reason == "alice resigned"


async def test_the_sweep_flags_clocked_matches_and_leaves_the_others(service: MatchService, fake_time) -> None:
    await service.flags.scheduler.stop()
    casual = await service.create_match("toy", [ALICE, BOB])
    timed_match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await service.board_posted(timed_match.id, 0)
    fake_time.advance(90 + LAG_GRACE)
    await service.flags.sweep()
    assert timed_match.running
    fake_time.advance(0.001)
    await service.flags.sweep()
    assert casual.running and timed_match.status == OVER and timed_match.result.winners == {1}


async def test_a_flag_in_a_two_player_volcano_game_ends_it(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB], seed=1, clock=CLOCK)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    assert recorder.kinds() == ["started", "over"]  # no "out of the game" first: the game is simply lost
    assert recorder.notices[-1].lines[0] == "alice's reserve time ran out."
    assert match.status == OVER
    assert match.result == Outcome((0.0, 1.0), frozenset({1}), "alice's reserve time ran out", Termination.FLAG)
    assert posts.result_line(match) == "Game over: bob wins (alice's reserve time ran out)."
    assert await service.moves(match.id) == []  # no resignation line
    assert [a["kind"] for a in await service.store.actions(match.id)] == ["flag"]


async def test_a_flag_in_a_game_of_three_without_resignations_ends_it_for_the_others(service, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB, CAROL], clock=CLOCK)  # the toy game has no `resign`
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    assert match.result == Outcome((0.0, 1.0, 1.0), frozenset({1, 2}), "alice's reserve time ran out", Termination.FLAG)
    assert posts.result_line(match) == "Game over: bob and carol win (alice's reserve time ran out)."


async def test_flags_in_volcano_of_three_put_players_out_until_one_is_left(service, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await eventually(lambda: "moved" in recorder.kinds())
    out = recorder.notices[-1]
    assert out.kind == "moved" and out.lines == ("alice's reserve time ran out: they are out of the game.",)
    assert match.running and match.state.resigned == {0} and match.clock.seat == 1
    assert match.clock.reserves == (0.0, 60.0, 60.0)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    over = recorder.notices[-1]
    assert over.lines[:2] == (
        "bob's reserve time ran out: they are out of the game.",
        "The game is over: every other player resigned.",
    )
    assert ratings_line(over) and len(over.lines) == 3
    assert match.result is not None and match.result.winners == {2}
    assert posts.result_line(match) == "Game over: carol wins (every other player resigned)."
    log = [(r.ply, r.seat, r.kind, r.by_id) for r in await service.moves(match.id)]
    assert log == [(1, 0, "resign", None), (2, 1, "resign", None)]


# --- moderators: pause, resume, add time ---


async def test_pause_stops_the_flag_and_resume_arms_it_again(timed, fake_time) -> None:
    recorder = Recorder(timed)
    match = await timed.create_match("toy", [ALICE, BOB], clock=CLOCK)
    start = fake_time.now()
    fake_time.advance(20)
    paused = await timed.moderation.pause(match.id, MOD)
    assert (paused.kind, paused.lines) == ("paused", ("mod paused the match: no clock is running.",))
    assert recorder.notices[-1] == paused
    assert match.clock.deadline() is None and match.clock.used == 20
    fake_time.advance(1000)  # the timer armed by the post fires while paused: nothing falls, nothing is re-armed
    await eventually(lambda: timed.flags.scheduler.armed == 0)
    await settle()
    assert match.running
    with pytest.raises(ServiceError) as caught:
        await timed.moderation.pause(match.id, MOD)
    assert str(caught.value) == f"Match #{match.id} is already paused."
    resumed = await timed.moderation.resume(match.id, MOD)
    assert (resumed.kind, resumed.lines) == ("resumed", ("mod resumed the match: the clock runs again.",))
    assert recorder.notices[-1] == resumed
    assert match.clock.deadline() == start + 1020 + 70  # 20 s used before the pause
    fake_time.advance(70 + LAG_GRACE)
    await settle()
    assert match.running
    fake_time.advance(0.001)
    await eventually(lambda: "over" in recorder.kinds())
    actions = [(a["kind"], a["by_id"], a["detail"]) for a in await timed.store.actions(match.id)]
    assert actions == [("pause", MOD.id, "paused"), ("resume", MOD.id, "resumed"), ("flag", None, actions[2][2])]


async def test_pause_and_resume_are_refused_without_a_paused_clock(service: MatchService) -> None:
    casual = await service.create_match("toy", [ALICE, BOB])
    timed_match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    for match in (casual, timed_match):
        with pytest.raises(ServiceError) as caught:
            await service.moderation.resume(match.id, MOD)
        assert str(caught.value) == f"Match #{match.id} is not paused."
    with pytest.raises(ServiceError) as caught:
        await service.moderation.pause(casual.id, MOD)
    assert str(caught.value) == f"Match #{casual.id} has no clock, so there is nothing to pause."


async def test_pause_and_resume_survive_a_restart(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    match = await first.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await first.moderation.pause(match.id, MOD)
    await first.close()
    second = await open_service()
    await second.start()
    assert (await second.get(match.id)).clock.paused
    with pytest.raises(MatchPaused):
        await second.move(match.id, ALICE.id, "1")
    await second.moderation.resume(match.id, MOD)
    await second.close()
    third = await open_service()
    await third.start()
    assert not (await third.get(match.id)).clock.paused
    await third.move(match.id, ALICE.id, "1")


async def test_added_time_moves_the_flag_later(timed, fake_time) -> None:
    recorder = Recorder(timed)
    match = await timed.create_match("toy", [ALICE, BOB], clock=CLOCK)
    start = fake_time.now()
    notice = await timed.moderation.add_time(match.id, MOD, ALICE.id, 30)
    assert (notice.kind, notice.lines) == ("time_added", ("mod gave +0:30 for alice: reserve now 1:30.",))
    assert recorder.notices[-1] == notice
    assert match.clock.reserves == (90.0, 60.0) and match.clock.deadline() == start + 120
    fake_time.advance(90 + LAG_GRACE + 5)  # the old flag time has passed
    await settle()
    assert match.running
    fake_time.advance(30 - 5)  # exactly the new flag time
    await settle()
    assert match.running
    fake_time.advance(0.001)
    await eventually(lambda: "over" in recorder.kinds())
    actions = [(a["kind"], a["by_id"], a["detail"]) for a in await timed.store.actions(match.id)]
    assert actions[0] == ("addtime", MOD.id, "+0:30 for alice")


async def test_time_taken_away_brings_the_flag_forward(timed, fake_time) -> None:
    recorder = Recorder(timed)
    match = await timed.create_match("toy", [ALICE, BOB], clock=CLOCK)
    start = fake_time.now()
    notice = await timed.moderation.add_time(match.id, MOD, ALICE.id, -50)
    assert notice.lines == ("mod gave -0:50 for alice: reserve now 0:10.",)
    assert match.clock.deadline() == start + 40
    fake_time.advance(40 + LAG_GRACE)
    await settle()
    assert match.running
    fake_time.advance(0.001)  # long before the flag time armed by the post (start + 91)
    await eventually(lambda: "over" in recorder.kinds())


async def test_added_time_words_bounds_and_storage(open_service, fake_time) -> None:
    service = await open_service()
    await service.start()
    Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    fake_time.advance(50)  # alice is 20 s into her reserve
    notice = await service.moderation.add_time(match.id, MOD, ALICE.id, 1)
    assert notice.lines == ("mod gave +0:01 for alice: reserve now 0:41.",)
    notice = await service.moderation.add_time(match.id, MOD, BOB.id, 86_400)
    assert notice.lines == ("mod gave +1 d for bob: reserve now 1 d 0 h 1 m.",)  # a day or more: in days
    notice = await service.moderation.add_time(match.id, MOD, BOB.id, -86_400)
    assert notice.lines == ("mod gave -1 d for bob: reserve now 1:00.",)
    for seconds in (0, 86_401, -86_401):
        with pytest.raises(ServiceError) as caught:
            await service.moderation.add_time(match.id, MOD, BOB.id, seconds)
        assert str(caught.value) == "Add between 1 second and 24 hours (negative takes time away)."
    with pytest.raises(NotInMatch) as caught:
        await service.moderation.add_time(match.id, MOD, CAROL.id, 10)
    assert str(caught.value) == f"That player is not in match #{match.id}."
    casual = await service.create_match("toy", [ALICE, BOB])
    with pytest.raises(ServiceError) as caught:
        await service.moderation.add_time(casual.id, MOD, ALICE.id, 10)
    assert str(caught.value) == f"Match #{casual.id} has no clock."
    assert match.clock.reserves == (61.0, 60.0)
    await service.close()
    again = await open_service()
    await again.start()
    assert (await again.get(match.id)).clock.reserves == (61.0, 60.0)


async def test_board_posts_for_an_unknown_finished_or_old_board_are_ignored(service: MatchService, fake_time) -> None:
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    assert await service.board_posted(999, 0) is None
    assert await service.board_posted(match.id, 0, message=(1, 100)) is None
    await service.move(match.id, ALICE.id, "1")
    assert await service.board_posted(match.id, 0, message=(1, 999)) is None  # an old board
    assert match.clock.turn_started is None and match.board == (1, 100)
    assert await service.board_posted(match.id, 1) is None  # no message: nothing to take buttons from
    assert match.clock.turn_started == fake_time.now() and match.board == (1, 100)
    assert await service.board_posted(match.id, 1, message=(1, 101)) == (1, 100)
    await service.playing.resign(match.id, BOB.id)
    assert await service.board_posted(match.id, 1, message=(1, 102)) is None
    assert match.board == (1, 101)


async def test_a_repeated_report_of_the_same_post_arms_no_second_timer(timed, fake_time) -> None:
    match = await timed.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await timed.board_posted(match.id, 0, message=(1, 100))
    assert timed.flags.scheduler.armed == 1
    fake_time.advance(5)
    await timed.board_posted(match.id, 0)  # the same turn reported again, without its message
    await timed.board_posted(match.id, 0, message=(1, 100))  # and with the same message
    assert timed.flags.scheduler.armed == 1 and match.clock.turn_started == fake_time.now() - 5


async def test_a_board_posted_again_after_a_hold_starts_where_the_turn_stopped(service, fake_time) -> None:
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await service.board_posted(match.id, 0)
    fake_time.advance(20)
    await service.hold(match.id, "no channel")
    fake_time.advance(500)  # charged to nobody
    again = fake_time.now()
    await service.board_posted(match.id, 0)
    assert match.held is None and match.clock.deadline() == again - 20 + 90


# --- the last person leaves: the best-scoring computers win ---

EASY, EASY2 = computer("easy"), computer("easy", 2)
SEED10 = ["d4-c4", "a1-b1", "c3-c2", "c4-c5", "c5-b4", "b1-c1", "b4-b5", "c2-c3"]
"""Volcano, seed 10, three seats: after these steps the scores are 2, 1 and 3, and alice is to move."""


async def test_when_the_last_person_resigns_only_the_best_scoring_computer_wins(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, EASY, EASY2], seed=10)
    for step in SEED10:
        await service.move(match.id, match.players[VOLCANO.to_move(match.state)].id, step)
    assert VOLCANO.scores(match.state) == (2.0, 1.0, 3.0) and VOLCANO.to_move(match.state) == 0
    before = len(recorder.notices)
    notice = await service.playing.resign(match.id, ALICE.id)
    assert notice.kind == "over"
    assert notice.lines == ("alice resigns.", "only computer players were left.")
    assert recorder.notices[before:] == [notice]  # one post: the resignation, then the end
    assert match.status == OVER
    assert match.result == Outcome(
        (0.0, 0.0, 1.0), frozenset({2}), "only computer players were left", Termination.ABANDONED
    )
    assert posts.result_line(match) == "Game over: Easy computer 2 wins (only computer players were left)."
    actions = [(a["kind"], a["by_id"], a["detail"]) for a in await service.store.actions(match.id)]
    assert actions == [("computers", None, "only computer players were left")]
    assert service.running() == []


async def test_when_the_last_person_runs_out_of_time_the_best_scoring_computer_wins(service, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, EASY, EASY2], seed=10, clock=CLOCK)
    for step in SEED10:
        await service.move(match.id, match.players[VOLCANO.to_move(match.state)].id, step)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    assert recorder.notices[-1].lines == (
        "alice's reserve time ran out: they are out of the game.",
        "only computer players were left.",
    )
    assert match.result == Outcome(
        (0.0, 0.0, 1.0), frozenset({2}), "only computer players were left", Termination.ABANDONED
    )


async def test_computers_level_on_score_all_win_when_the_last_person_leaves(service: MatchService) -> None:
    match = await service.create_match("volcano", [ALICE, BOB, EASY, EASY2], seed=10)
    notice = await service.playing.resign(match.id, BOB.id)  # a person is still in: the game goes on
    assert notice.kind == "moved" and match.running
    notice = await service.playing.resign(match.id, ALICE.id)
    assert notice.kind == "over" and notice.lines == ("alice resigns.", "only computer players were left.")
    assert match.result == Outcome(
        (0.0, 0.0, 1.0, 1.0), frozenset({2, 3}), "only computer players were left", Termination.ABANDONED
    )
    assert posts.result_line(match) == (
        "Game over: Easy computer and Easy computer 2 win (only computer players were left)."
    )


# --- death matches: bounds and wording ---


async def _win(service: MatchService, match_id: int, winner: Player) -> None:
    """Play toy moves until `winner` reaches 5: the loser adds 1s, the winner 2s."""
    while (match := await service.get(match_id)).running:
        mover = match.players[service.game(match).to_move(match.state)]
        await service.move(match_id, mover.id, "2" if mover == winner else "1")


async def _draw(service: MatchService, match_id: int) -> None:
    match = await service.get(match_id)
    await service.move(match_id, match.players[service.game(match).to_move(match.state)].id, "draw")


async def _current(service: MatchService, series_id: int):
    return await service.get((await service.registry.get_series(series_id)).games[-1])


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3)])
async def test_a_series_of_an_odd_number_of_games_is_accepted(service, best_of, needed) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, best_of=best_of, clock=None)
    assert series.best_of == best_of and series.needed == needed and series.status == RUNNING


@pytest.mark.parametrize("best_of", [0, 2, 4, -1])
async def test_a_series_of_an_even_or_no_number_of_games_is_refused(service: MatchService, best_of: int) -> None:
    with pytest.raises(BadOptions) as caught:
        await service.create_series("toy", [ALICE, BOB], first=0, best_of=best_of, clock=None)
    assert str(caught.value) == "A series is best of an odd number of games (1, 3, 5...)."
    assert service.running() == []


async def test_a_series_refuses_a_first_player_out_of_range_and_the_same_player_twice(service) -> None:
    for first in (2, -1):
        with pytest.raises(BadOptions) as caught:
            await service.create_series("toy", [ALICE, BOB], first=first, clock=None)
        assert str(caught.value) == "The first player must be one of the players."
    with pytest.raises(BadOptions) as caught:
        await service.create_series("toy", [ALICE, ALICE], first=0, clock=None)
    assert str(caught.value) == "A death match needs two different players."
    assert service.running() == []


async def test_a_series_starts_best_of_3_on_the_death_match_clock(service: MatchService) -> None:
    recorder = Recorder(service, post=False)
    series = await service.create_series("toy", [ALICE, BOB], first=1)
    assert (series.best_of, series.clock, series.house_wins, series.wins) == (3, DM_CLOCK, True, [0, 0])
    (started,) = recorder.notices
    game = await service.get(series.games[0])
    assert started.kind == "started" and started.match is game and started.series is series
    assert started.lines == (
        f"Toy #{game.id}, game 1 of the death match: alice vs bob.",
        "Clock: 0:30 a move + 1:00 reserve per player.",
    )
    assert game.game_no == 1 and game.series_id == series.id and game.state.first == 1
    assert posts.series_line(series) == ""  # nothing to say while it runs


async def test_a_2_0_series_is_won_in_two_games_in_these_words(open_service) -> None:
    service = await open_service()
    await service.start()
    recorder = Recorder(service)
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    await _win(service, (await _current(service, series.id)).id, ALICE)
    assert recorder.kinds()[-2:] == ["over", "started"] and series.wins == [1, 0] and series.status == RUNNING
    assert recorder.notices[-1].match.game_no == 2 and posts.series_line(series) == ""
    await _win(service, (await _current(service, series.id)).id, ALICE)
    assert recorder.kinds()[-2:] == ["over", "series_over"]
    end = recorder.notices[-1]
    assert end.series_over and end.series is series and end.lines == ("alice wins the death match, 2–0 in games.",)
    assert series.result == Outcome((2.0, 0.0), frozenset({0}), "2–0 in games") and len(series.games) == 2
    await service.close()
    again = await open_service()
    stored = await again.registry.get_series(series.id)
    assert (stored.status, stored.wins, stored.result) == (OVER, [2, 0], series.result)


async def test_a_series_won_2_1_after_three_games(service: MatchService) -> None:
    recorder = Recorder(service)
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    for winner in (BOB, ALICE, BOB):
        await _win(service, (await _current(service, series.id)).id, winner)
    assert recorder.notices[-1].lines == ("bob wins the death match, 2–1 in games.",)
    assert series.result == Outcome((1.0, 2.0), frozenset({1}), "2–1 in games")
    games = [await service.get(match_id) for match_id in series.games]
    # the final board says who won the series; the boards of earlier games keep their score
    assert [posts.header(service, game) for game in games] == [
        "Death match · game 1 of 3 · alice 1 – bob 2",
        "Death match · game 2 of 3 · alice 1 – bob 2",
        "Death match · game 3 of 3 · bob wins the death match, 2–1 in games.",
    ]


async def test_one_win_and_two_draws_win_the_series_1_0(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    await _win(service, (await _current(service, series.id)).id, BOB)
    await _draw(service, (await _current(service, series.id)).id)
    await _draw(service, (await _current(service, series.id)).id)
    assert posts.series_line(series) == "bob wins the death match, 1–0 in games."
    assert len(series.games) == 3


async def test_a_level_series_is_drawn_and_the_house_wins_unless_switched_off(service: MatchService) -> None:
    recorder = Recorder(service)
    for house in (True, False):
        series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None, house_wins=house)
        await _win(service, (await _current(service, series.id)).id, ALICE)
        await _win(service, (await _current(service, series.id)).id, BOB)
        await _draw(service, (await _current(service, series.id)).id)
        assert series.result == Outcome((1.0, 1.0), frozenset(), "level at 1–1 after 3 games")
        assert recorder.notices[-1].lines == (
            "The death match is drawn — by DM rules the house wins (level at 1–1 after 3 games)."
            if house
            else "The death match is drawn (level at 1–1 after 3 games).",
        )


async def test_a_best_of_1_series_ends_after_one_game(service: MatchService) -> None:
    recorder = Recorder(service)
    won = await service.create_series("toy", [ALICE, BOB], first=0, best_of=1, clock=None)
    await _win(service, (await _current(service, won.id)).id, BOB)
    assert recorder.kinds()[-2:] == ["over", "series_over"] and len(won.games) == 1
    assert recorder.notices[-1].lines == ("bob wins the death match, 1–0 in games.",)
    drawn = await service.create_series("toy", [ALICE, BOB], first=0, best_of=1, clock=None)
    await _draw(service, (await _current(service, drawn.id)).id)
    assert recorder.kinds()[-2:] == ["over", "series_over"] and len(drawn.games) == 1
    assert recorder.notices[-1].lines == (
        "The death match is drawn — by DM rules the house wins (level at 0–0 after 1 game).",
    )
    assert service.running() == []


async def test_a_best_of_5_series_needs_three_wins(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, best_of=5, clock=None)
    for winner in (ALICE, BOB, ALICE):
        await _win(service, (await _current(service, series.id)).id, winner)
    assert series.status == RUNNING and len(series.games) == 4
    game4 = await _current(service, series.id)
    assert game4.game_no == 4 and game4.state.first == 1
    await _win(service, game4.id, ALICE)
    assert posts.series_line(series) == "alice wins the death match, 3–1 in games."


# --- Fish: the score line and the game-over line ---

FISH = GAMES["fish"]


@pytest.mark.parametrize(
    ("before", "score", "result"),
    [
        ((27, 27), "Score: alice 30, bob 27", "Game over: alice wins (more fish, 30 to 27)."),
        ((20, 27), "Score: alice 23, bob 27", "Game over: bob wins (more fish, 27 to 23)."),
        ((24, 27), "Score: alice 27, bob 27", "Game over: a draw (equal fish, 27 each)."),
    ],
)
async def test_a_fish_game_over_post_keeps_the_score_and_says_who_won(service, before, score, result) -> None:
    """Equal fish is a draw: docs/rules/fish.md has no tie-break."""
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    assert posts.status_lines(service, match) == ["Score: alice 0, bob 0", "alice to move."]
    # alice's last token: H1-H2 takes H1 (+1), then H2 is stuck and scores 2; bob has no token left
    match.state = position({"H1": 1, "H2": 2}, ["H1"], [], scores=before)
    over = await service.move(match.id, ALICE.id, "H1-H2")
    total = (before[0] + 3, before[1])
    assert over.kind == "over" and ratings_line(over)
    assert over.lines[:-1] == (
        "alice moves H1-H2 and takes H1: +1.",
        "alice's token on H2 cannot move: removed, +2.",
        f"No tokens are left: the game is over, {total[0]} to {total[1]}.",
    )
    assert posts.status_lines(service, match) == [score, result]
