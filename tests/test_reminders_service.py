"""Reminders in the service (bot/service/reminding.py), on the fake clock: each one at its time and once, none
for a turn that was played, undone or paused, none for computers or solitaire, and the same after a restart
or with two schedulers on one database."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.clock import ClockSettings, FakeTime
from bot.models import Notice, computer
from bot.reminders import DAY, HOUR
from bot.service import MatchService, ServiceError
from tests.conftest import ALICE, BOB, MOD, Recorder, eventually

LONG = ClockSettings(12 * HOUR, 12 * HOUR)
"""12 h a move + 12 h reserve: half at 6 h, the last reminder an hour before the deadline at 24 h."""


class Reminded(Recorder):
    """A recorder that posts boards and keeps the reminder notices apart."""

    def reminders(self) -> list[Notice]:
        return [n for n in self.notices if n.kind == "reminder"]

    def said(self) -> list[tuple[str, int, str]]:
        """(who, match, what) of every reminder so far."""
        return [(n.to.name if n.to else "?", n.match.id, n.lines[0]) for n in self.reminders()]


async def settle() -> None:
    """Let the scheduler's tasks (and the database's thread) run; the fake clock does not move."""
    for _ in range(5):
        await asyncio.sleep(0.02)


async def at(fake_time: FakeTime, when: float) -> None:
    """Move the fake clock to `when` and let whatever fell due run."""
    fake_time.advance(when - fake_time.now())
    await settle()


async def test_a_long_turn_is_reminded_at_its_half_and_an_hour_before_the_flag(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    deadline = int(start + 24 * HOUR)
    await at(fake_time, start + 6 * HOUR - 1)
    assert recorder.reminders() == [], "not a moment early"
    await at(fake_time, start + 6 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 1)
    (half,) = recorder.reminders()
    assert half.to == ALICE and half.match.id == match.id
    assert half.lines == (f"half your move time is used; your flag falls <t:{deadline}:R>",)
    await at(fake_time, start + 23 * HOUR - 1)
    assert len(recorder.reminders()) == 1
    await at(fake_time, start + 23 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 2)
    assert recorder.said()[1] == ("alice", match.id, f"an hour left: your flag falls <t:{deadline}:R>")
    await at(fake_time, start + 24 * HOUR + 0.5)
    await service.flags.sweep()
    await settle()
    assert len(recorder.reminders()) == 2, "each once, the sweep finds nothing more"


async def test_a_short_turn_is_warned_a_tenth_of_its_time_before_the_flag(service, fake_time) -> None:
    recorder = Reminded(service)
    await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(2 * HOUR, 0))
    start = fake_time.now()
    await at(fake_time, start + HOUR)
    await at(fake_time, start + 2 * HOUR - 12 * 60)
    await eventually(lambda: len(recorder.reminders()) == 2)
    assert recorder.reminders()[1].lines[0].startswith("12 minutes left: your flag falls <t:")


async def test_a_move_voids_the_turns_reminders_and_the_next_turn_has_its_own(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await at(fake_time, start + HOUR)
    await service.move(match.id, ALICE.id, "1")  # bob's board is posted at once: his clock starts
    await at(fake_time, start + 6 * HOUR)  # alice's half: her turn is over
    assert recorder.reminders() == []
    await at(fake_time, start + 7 * HOUR)  # bob's half
    await eventually(lambda: len(recorder.reminders()) == 1)
    assert recorder.reminders()[0].to == BOB
    rows = await service.store.load_reminders()
    assert {row[1] for row in rows} == {1}, "only the turn in progress is stored"


async def test_an_undo_voids_the_undone_turns_reminders(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await at(fake_time, start + HOUR)
    await service.move(match.id, ALICE.id, "1")  # bob's turn, reminded at +7 h
    await at(fake_time, start + 2 * HOUR)
    await service.moderation.undo(match.id, MOD)  # alice again, with a fresh allowance from +2 h: half at +8 h
    await at(fake_time, start + 7 * HOUR)
    assert recorder.reminders() == [], "bob's turn was taken back"
    await at(fake_time, start + 8 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 1)
    assert recorder.reminders()[0].to == ALICE and recorder.reminders()[0].match.ply == 2


async def test_a_paused_turn_has_no_reminders_and_resuming_plans_them_again(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await at(fake_time, start + 2 * HOUR)
    await service.moderation.pause(match.id, MOD)
    assert await service.store.unsent_reminders(match.id, 0) == []
    await at(fake_time, start + 30 * HOUR)  # past every reminder and the flag of the unpaused turn
    assert recorder.reminders() == [] and match.running
    await service.moderation.resume(match.id, MOD)  # 2 h used: the half comes 4 h after the resume
    resumed = fake_time.now()
    await at(fake_time, resumed + 4 * HOUR - 1)
    assert recorder.reminders() == []
    await at(fake_time, resumed + 4 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 1)
    assert recorder.reminders()[0].lines[0].startswith("half your move time")


async def test_a_reminder_sent_before_a_pause_is_not_sent_again_after_it(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(2 * HOUR, 0))
    start = fake_time.now()
    await at(fake_time, start + HOUR)
    await at(fake_time, start + 2 * HOUR - 10 * 60)  # the last reminder (12 min before) is out
    await eventually(lambda: len(recorder.reminders()) == 2)
    await service.moderation.pause(match.id, MOD)
    await service.moderation.resume(match.id, MOD)
    await at(fake_time, fake_time.now() + 9 * 60)
    assert len(recorder.reminders()) == 2 and match.running


async def test_added_time_moves_the_last_reminder_with_the_deadline(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await at(fake_time, start + 6 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 1)
    await service.moderation.add_time(match.id, MOD, ALICE.id, 2 * HOUR)  # the deadline moves to +26 h
    await at(fake_time, start + 23 * HOUR)
    assert len(recorder.reminders()) == 1
    await at(fake_time, start + 25 * HOUR)
    await eventually(lambda: len(recorder.reminders()) == 2)
    assert recorder.reminders()[1].lines[0] == f"an hour left: your flag falls <t:{int(start + 26 * HOUR)}:R>"


async def test_an_untimed_turn_is_reminded_three_times_a_day_apart_then_never(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB])
    start = fake_time.now()
    await at(fake_time, start + DAY - 1)
    assert recorder.reminders() == []
    for day in (1, 2, 3):
        await at(fake_time, start + day * DAY)
        await eventually(lambda day=day: len(recorder.reminders()) == day)
    assert recorder.said() == [
        ("alice", match.id, "it has been a day since your turn began"),
        ("alice", match.id, "it has been 2 days since your turn began"),
        ("alice", match.id, "it has been 3 days since your turn began"),
    ]
    await service.board_posted(match.id, 0, message=(1, 2))  # a repost of the same turn plans nothing again
    for day in (4, 5, 10):
        await at(fake_time, start + day * DAY)
    await service.flags.sweep()
    await settle()
    assert len(recorder.reminders()) == 3


async def test_untimed_reminders_count_from_the_turns_board_post(service, fake_time) -> None:
    recorder = Reminded(service, post=False)
    match = await service.create_match("toy", [ALICE, BOB])
    await at(fake_time, fake_time.now() + 2 * DAY)  # nobody has seen the board: no turn has begun
    assert recorder.reminders() == []
    posted = fake_time.now()
    await service.board_posted(match.id, 0)
    await at(fake_time, posted + DAY)
    await eventually(lambda: len(recorder.reminders()) == 1)


async def test_nobody_is_reminded_to_play_a_computer_a_solitaire_game_or_a_live_clock(service, fake_time) -> None:
    recorder = Reminded(service)
    await service.create_match("toy", [computer(), BOB])  # the computer moves first (nobody plays it here)
    await service.create_match("volcano", [ALICE])
    await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(30 * 60, 10 * HOUR))
    await at(fake_time, fake_time.now() + 4 * DAY)
    await service.flags.sweep()
    await settle()
    assert [n.match.id for n in recorder.reminders()] == []
    assert await service.store.load_reminders() == []


async def test_a_person_who_chose_off_is_not_reminded(service, fake_time) -> None:
    recorder = Reminded(service)
    assert await service.reminding.mode(ALICE.id) == "thread"  # the default
    assert await service.reminding.choose(ALICE.id, " OFF ") == "off"
    assert await service.reminding.mode(ALICE.id) == "off"
    match = await service.create_match("toy", [ALICE, BOB])
    await at(fake_time, fake_time.now() + DAY)
    await settle()
    assert recorder.reminders() == []
    assert await service.store.unsent_reminders(match.id, 0) != [], "two more days to go"
    assert len(await service.store.load_reminders()) == 3
    with pytest.raises(ServiceError, match="Choose dm, thread or off"):
        await service.reminding.choose(ALICE.id, "email")
    with pytest.raises(ServiceError) as refused:  # typed text is quoted, cut to 20 characters
        await service.reminding.choose(ALICE.id, "d" * 30)
    assert str(refused.value).endswith(f"not {'d' * 20!r}.")
    assert await service.reminding.mode(ALICE.id) == "off"


async def test_nobody_is_reminded_while_away(service, fake_time) -> None:
    recorder = Reminded(service)
    untimed = await service.create_match("toy", [ALICE, BOB])
    clocked = await service.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await service.away.go_away(ALICE, None, 3)  # her long clock stops; the untimed game's reminders are passed over
    await at(fake_time, start + DAY)
    await service.flags.sweep()
    await settle()
    assert recorder.reminders() == []
    assert [row[3] for row in await service.store.load_reminders() if row[0] == untimed.id and row[5] is None] == [2, 3]
    assert clocked.clock is not None and not clocked.clock.running


async def test_the_last_dm_is_remembered(service, fake_time) -> None:
    assert await service.reminding.last_dm(ALICE.id) is None
    await service.reminding.choose(ALICE.id, "dm")
    await service.reminding.dm_sent(ALICE.id, 123.0)
    assert await service.reminding.last_dm(ALICE.id) == 123.0 and await service.reminding.mode(ALICE.id) == "dm"
    await service.reminding.dm_sent(BOB.id, 5.0)  # a DM before any choice keeps the default
    assert await service.reminding.mode(BOB.id) == "thread"


# --- restarts, and never twice ---


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_an_untimed_reminder_armed_before_a_restart_fires_once_after_it(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    before = Reminded(first)
    match = await first.create_match("toy", [ALICE, BOB])
    start = fake_time.now()
    await first.close()  # the crash, with the reminder armed
    await at(fake_time, start + DAY + HOUR)  # the bot is down when it falls due
    assert before.reminders() == []

    second = await open_service()
    after = Reminded(second)
    resumed = await second.start()
    await eventually(lambda: len(after.reminders()) == 1)
    for again in resumed:  # the front-end reposts every board: the untimed turn keeps its reminders
        await second.board_posted(again.id, again.ply, message=(1, 3))
    await second.flags.sweep()
    await at(fake_time, start + DAY + 2 * HOUR)
    assert after.said() == [("alice", match.id, "it has been a day since your turn began")]
    await at(fake_time, start + 2 * DAY)
    await eventually(lambda: len(after.reminders()) == 2)
    assert before.reminders() == []


async def test_reminders_that_fell_due_while_the_bot_was_down_go_out_as_one(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    Reminded(first)
    match = await first.create_match("toy", [ALICE, BOB])
    start = fake_time.now()
    await first.close()
    await at(fake_time, start + 2 * DAY + HOUR)  # down through two of them
    second = await open_service()
    after = Reminded(second)
    await second.start()
    await eventually(lambda: len(after.reminders()) == 1)
    await at(fake_time, start + 2 * DAY + 2 * HOUR)
    assert after.said() == [("alice", match.id, "it has been 2 days since your turn began")]
    assert [row[3] for row in await second.store.load_reminders() if row[5] is None] == [3]


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_restart_gives_a_clocked_turn_a_fresh_allowance_and_fresh_reminders(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    Reminded(first)
    match = await first.create_match("toy", [ALICE, BOB], clock=LONG)
    start = fake_time.now()
    await at(fake_time, start + 5 * HOUR)
    await first.close()
    await at(fake_time, start + 7 * HOUR)  # down past the half

    second = await open_service()
    after = Reminded(second, post=False)
    await second.start()
    await settle()
    assert after.reminders() == [], "its board is not reposted yet"
    reposted = fake_time.now()
    await second.board_posted(match.id, 0)  # a fresh 12 h from the repost
    await at(fake_time, reposted + 6 * HOUR - 1)
    assert after.reminders() == []
    await at(fake_time, reposted + 6 * HOUR)
    await eventually(lambda: len(after.reminders()) == 1)
    await settle()
    assert len(after.reminders()) == 1


async def test_two_services_on_one_database_send_a_reminder_once(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    one = Reminded(first)
    match = await first.create_match("toy", [ALICE, BOB])
    second = await open_service()
    two = Reminded(second)
    await second.start()  # it arms the same reminders from the database
    start = fake_time.now()
    await at(fake_time, start + DAY)
    await eventually(lambda: len(one.reminders()) + len(two.reminders()) >= 1)
    await first.flags.sweep()
    await second.flags.sweep()
    await settle()
    assert len(one.reminders()) + len(two.reminders()) == 1
    assert match.id in {n.match.id for n in one.reminders() + two.reminders()}


async def test_the_sweep_sends_what_no_timer_did_and_the_timer_then_finds_it_sent(service, fake_time) -> None:
    recorder = Reminded(service)
    await service.flags.scheduler.stop()  # no timer runs: only the sweep can send it
    match = await service.create_match("toy", [ALICE, BOB])
    fake_time.advance(DAY)
    await service.flags.sweep()
    assert len(recorder.reminders()) == 1
    await service.reminding.remind_if_due(match.id, 0)  # a timer that fires late
    await service.flags.sweep()
    assert len(recorder.reminders()) == 1


async def test_a_reminder_due_while_the_board_is_held_waits_for_the_board(service, fake_time) -> None:
    recorder = Reminded(service)
    match = await service.create_match("toy", [ALICE, BOB])
    start = fake_time.now()
    await service.hold(match.id, "it was deleted")
    await at(fake_time, start + DAY)
    await service.flags.sweep()
    assert recorder.reminders() == []
    await service.board_posted(match.id, 0, message=(1, 5))  # it is posted again: the reminder goes out
    await eventually(lambda: len(recorder.reminders()) == 1)


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_finished_matchs_reminders_are_never_sent_and_go_at_the_restart(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    recorder = Reminded(first)
    match = await first.create_match("toy", [ALICE, BOB])
    await first.playing.resign(match.id, BOB.id)
    await at(fake_time, fake_time.now() + DAY)
    await first.flags.sweep()
    assert recorder.reminders() == []
    await first.close()
    second = await open_service()
    await second.start()
    assert await second.store.load_reminders() == []


# --- the terminal ---


async def test_the_terminal_prints_reminders_and_takes_notify(service, terminal, out, fake_time) -> None:
    await terminal.handle("fish new alice bob --clock 43200/43200")
    out.clear()
    await at(fake_time, fake_time.now() + 6 * HOUR)
    await eventually(lambda: any("reminder for alice" in line for line in out))
    (line,) = [line for line in out if "reminder for alice" in line]
    assert line == "[#1] reminder for alice: half your move time is used; your flag falls in 18:00:00."
    await terminal.handle("notify Bob off")
    assert out[-1] == "Bob: no reminders of a turn."
    assert await service.reminding.mode("local:bob") == "off"
    await terminal.handle("notify bob sms")
    assert out[-1].startswith("✗ Choose dm, thread or off")
    await terminal.handle("notify bob")
    assert out[-1] == "✗ Use: notify NAME dm|thread|off (how NAME is reminded of a turn)."
