"""The flag scheduler: a flag that has to wait (for its match's lock, for the database) must not hold up
the flags due after it; found by bench/load.py, where 10,000 clocks falling under load came seconds late."""

from __future__ import annotations

import asyncio

from bot.clock import FakeTime
from bot.service.flags import FlagScheduler


async def test_a_slow_flag_does_not_hold_up_the_next_one() -> None:
    time = FakeTime()
    release = asyncio.Event()
    handled: list[int] = []

    async def on_due(match_id: int, ply: int) -> None:
        if match_id == 1:
            await release.wait()  # e.g. waiting for the database behind a queue of moves
        handled.append(match_id)

    scheduler = FlagScheduler(time, on_due)
    scheduler.start()
    scheduler.arm(1, 0, time.now() + 10)
    scheduler.arm(2, 0, time.now() + 10)
    await asyncio.sleep(0)
    time.advance(11)
    for _ in range(20):
        await asyncio.sleep(0)
    assert handled == [2]
    release.set()
    await scheduler.stop()  # waits for the flag still being handled
    assert handled == [2, 1]


class CountingTime(FakeTime):
    """FakeTime that counts how often the scheduler goes to sleep (each pass of its loop sleeps once)."""

    def __init__(self) -> None:
        super().__init__()
        self.sleeps: list[float] = []

    async def sleep_until(self, when: float) -> None:
        self.sleeps.append(when)
        await super().sleep_until(when)


async def ticks(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def started(
    sweep_every: float = 30.0, with_sweep: bool = True
) -> tuple[CountingTime, FlagScheduler, list[tuple[int, int, float]], list[float]]:
    """A running scheduler on a fake clock; (time, scheduler, flags handled (match, ply, at), sweeps at)."""
    time = CountingTime()
    handled: list[tuple[int, int, float]] = []
    sweeps: list[float] = []

    async def on_due(match_id: int, ply: int) -> None:
        handled.append((match_id, ply, time.now()))

    async def sweep() -> None:
        sweeps.append(time.now())

    scheduler = FlagScheduler(time, on_due, sweep if with_sweep else None, sweep_every=sweep_every)
    scheduler.start()
    await ticks()
    return time, scheduler, handled, sweeps


async def test_a_flag_waits_for_its_time_then_fires_once() -> None:
    time, scheduler, handled, _ = await started(sweep_every=1000)
    start = time.now()
    scheduler.arm(7, 3, start + 10)
    await ticks()
    time.advance(9.99)
    await ticks()
    assert handled == [], "not a moment early"
    time.advance(0.01)
    await ticks()
    assert handled == [(7, 3, start + 10)]
    time.advance(100)
    await ticks()
    assert handled == [(7, 3, start + 10)], "once"
    assert scheduler.armed == 0
    await scheduler.stop()


async def test_an_earlier_flag_armed_while_sleeping_is_not_late() -> None:
    time, scheduler, handled, _ = await started(sweep_every=1000)
    start = time.now()
    scheduler.arm(1, 0, start + 500)
    await ticks()
    scheduler.arm(2, 0, start + 5)  # the loop sleeps until +500: arming must wake it
    await ticks()
    time.advance(5)
    await ticks()
    assert handled == [(2, 0, start + 5)]
    time.advance(495)
    await ticks()
    assert [h[0] for h in handled] == [2, 1]
    await scheduler.stop()


async def test_flags_fire_in_time_order() -> None:
    time, scheduler, handled, _ = await started(sweep_every=1000)
    start = time.now()
    for match_id, after in ((3, 30), (1, 10), (2, 20)):
        scheduler.arm(match_id, 0, start + after)
    for _ in range(3):
        time.advance(10)
        await ticks()
    assert [(m, at - start) for m, _, at in handled] == [(1, 10), (2, 20), (3, 30)]
    await scheduler.stop()


async def test_a_waiting_scheduler_sleeps_instead_of_spinning() -> None:
    time, scheduler, _, _ = await started(sweep_every=30)
    scheduler.arm(1, 0, time.now() + 100)
    await ticks(200)
    assert len(time.sleeps) <= 3, f"the loop woke {len(time.sleeps)} times with nothing due"
    assert time.sleeps[-1] == time.now() + 30, "it sleeps until the next sweep (sooner than the flag)"
    await scheduler.stop()


async def test_the_sweep_runs_every_interval_and_not_before() -> None:
    time, scheduler, _, sweeps = await started(sweep_every=30)
    start = time.now()
    time.advance(29.9)
    await ticks()
    assert sweeps == []
    time.advance(0.1)
    await ticks()
    assert sweeps == [start + 30]
    time.advance(30)
    await ticks()
    assert sweeps == [start + 30, start + 60]
    await scheduler.stop()


async def test_a_failing_flag_or_sweep_stops_no_other_clock(caplog: object) -> None:
    time = FakeTime()
    handled: list[int] = []
    sweeps: list[float] = []

    async def on_due(match_id: int, ply: int) -> None:
        if match_id == 1:
            raise RuntimeError("a broken match")
        handled.append(match_id)

    async def sweep() -> None:
        sweeps.append(time.now())
        raise RuntimeError("a broken sweep")

    scheduler = FlagScheduler(time, on_due, sweep, sweep_every=10)
    scheduler.start()
    await ticks()
    scheduler.arm(1, 0, time.now() + 5)
    scheduler.arm(2, 0, time.now() + 15)
    for _ in range(3):
        time.advance(5)
        await ticks()
    time.advance(10)
    await ticks()
    assert handled == [2] and len(sweeps) == 2
    await scheduler.stop()


async def test_stop_ends_the_clocks_and_start_twice_is_one_loop() -> None:
    time, scheduler, handled, sweeps = await started(sweep_every=30)
    scheduler.start()  # a second start must not run a second loop (every flag would fire twice)
    scheduler.arm(1, 0, time.now() + 10)
    await ticks()
    time.advance(10)
    await ticks()
    assert len(handled) == 1
    await scheduler.stop()
    scheduler.arm(2, 0, time.now() + 10)
    time.advance(100)
    await ticks()
    assert len(handled) == 1 and sweeps == [], "nothing after stop"
    await scheduler.stop()  # stopping twice is harmless


async def test_stop_waits_for_a_flag_being_committed() -> None:
    """A flag already due is being written when the bot stops: stop() lets it finish, so no flag is lost."""
    time = FakeTime()
    committed: list[int] = []

    async def on_due(match_id: int, ply: int) -> None:
        await ticks(50)  # the commit takes a while
        committed.append(match_id)

    scheduler = FlagScheduler(time, on_due)
    scheduler.start()
    await ticks()
    scheduler.arm(1, 0, time.now() + 1)
    time.advance(1)
    await ticks(10)
    assert committed == [] and len(scheduler._flagging) == 1, "being committed"
    await scheduler.stop()
    assert committed == [1]


async def test_handled_flags_are_forgotten() -> None:
    time, scheduler, handled, _ = await started(sweep_every=1000)
    for match_id in range(5):
        scheduler.arm(match_id, 0, time.now() + 1)
    time.advance(1)
    await ticks()
    assert len(handled) == 5
    assert scheduler._flagging == set(), "done flag tasks must not pile up"
    await scheduler.stop()


async def test_arming_many_flags_leaves_one_sleeper_not_one_per_arm() -> None:
    """Each arm wakes the loop; the sleep it was in must be cancelled, or 10,000 arms leave 10,000 timers."""
    time, scheduler, _, _ = await started(sweep_every=1000)
    for match_id in range(100):
        scheduler.arm(match_id, 0, time.now() + 500 - match_id)
        await ticks(3)
    await ticks()
    waiting = [future for _, _, future in time._sleepers if not future.done()]
    assert len(waiting) == 1
    await scheduler.stop()


async def test_the_default_sweep_is_every_30_seconds() -> None:
    time = FakeTime()
    sweeps: list[float] = []

    async def sweep() -> None:
        sweeps.append(time.now())

    async def on_due(match_id: int, ply: int) -> None:
        pass

    scheduler = FlagScheduler(time, on_due, sweep)
    scheduler.start()
    await ticks()
    start = time.now()
    time.advance(29.5)
    await ticks()
    time.advance(0.5)
    await ticks()
    assert sweeps == [start + 30]
    await scheduler.stop()


async def test_without_a_sweep_the_loop_still_sleeps() -> None:
    """A scheduler with no sweep must not spin once its first sweep time has passed."""
    time, scheduler, handled, _ = await started(sweep_every=30, with_sweep=False)
    time.advance(31)
    await ticks(200)
    assert len(time.sleeps) <= 3, f"the loop woke {len(time.sleeps)} times with nothing due"
    scheduler.arm(1, 0, time.now() + 5)
    time.advance(5)
    await ticks()
    assert [m for m, _, _ in handled] == [1]
    await scheduler.stop()
