"""The flag scheduler: a flag that has to wait (for its match's lock, for the database) must not hold up
the flags due after it; found by bench/load.py, where 10,000 clocks falling under load came seconds late."""

from __future__ import annotations

import asyncio

from bot.clock import FakeTime, FlagScheduler


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
