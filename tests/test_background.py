"""bot/background.py: a background loop that `stop` never cuts in the middle of a step (a lease renewal, a
heartbeat, a backup, a sweep), and the loops built on it (shard leases, scheduled backups)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.background import Repeating
from bot.clock import FakeTime
from bot.shards import Leases, ShardPlan


class Steps:
    """A step that records when it begins and ends, and waits for `go` in between."""

    def __init__(self) -> None:
        self.begun = 0
        self.done = 0
        self.go = asyncio.Event()
        self.begin = asyncio.Event()

    async def step(self) -> None:
        self.begun += 1
        self.begin.set()
        await self.go.wait()
        self.done += 1


async def test_stop_while_a_step_runs_lets_it_finish_and_then_ends_the_loop() -> None:
    steps = Steps()
    loop = Repeating("test", lambda: asyncio.sleep(0), steps.step, failed="step failed")
    loop.start()
    await steps.begin.wait()
    stopping = asyncio.create_task(loop.stop())
    await asyncio.sleep(0.01)
    assert not stopping.done()  # it waits for the step, it does not cancel it
    steps.go.set()
    await stopping
    assert (steps.begun, steps.done) == (1, 1) and not loop.running  # finished, and no step after stop


async def test_stop_while_waiting_ends_at_once_without_another_step() -> None:
    steps = Steps()
    steps.go.set()
    never = asyncio.Event()
    loop = Repeating("test", never.wait, steps.step, failed="step failed")
    loop.start()
    await asyncio.sleep(0.01)
    await asyncio.wait_for(loop.stop(), 1)
    assert steps.begun == 0 and not loop.running
    loop.start()  # it can start again
    await asyncio.sleep(0.01)
    assert loop.running
    await loop.stop()


async def test_a_step_that_fails_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    calls = 0
    again = asyncio.Event()

    async def flaky() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the database did not answer")
        again.set()

    loop = Repeating("test", lambda: asyncio.sleep(0), flaky, failed="the round failed")
    with caplog.at_level(logging.ERROR):
        loop.start()
        await asyncio.wait_for(again.wait(), 1)
        await loop.stop()
    assert calls >= 2 and "the round failed" in caplog.text and "the database did not answer" in caplog.text


class SlowLeases:
    """A lease store whose renewal is held up until `go`, recording the order of what reaches it."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.go = asyncio.Event()
        self.renewing = asyncio.Event()
        self.first = True

    async def take_lease(self, shard: int, owner: str, now: float, until: float) -> bool:
        if self.first:
            self.first = False
        else:
            self.renewing.set()
            await self.go.wait()
        self.calls.append(f"take {shard}")
        return True

    async def release_lease(self, shard: int, owner: str) -> None:
        self.calls.append(f"release {shard}")

    async def holds_lease(self, shard: int, owner: str, now: float) -> bool:
        return True


async def test_stopping_the_leases_mid_renewal_finishes_the_renewal_before_releasing() -> None:
    store = SlowLeases()
    time = FakeTime()
    leases = Leases(store, ShardPlan(), time)  # type: ignore[arg-type]
    await leases.start()
    await asyncio.sleep(0)  # the renewing loop starts its wait
    time.advance(leases.renew_every)
    await asyncio.wait_for(store.renewing.wait(), 1)  # the renewal's write is under way
    stopping = asyncio.create_task(leases.stop())
    await asyncio.sleep(0.01)
    assert not stopping.done() and store.calls == ["take 0"]
    store.go.set()
    await stopping
    # the write was not cut off, and the lease was handed back after it, not beside it
    assert store.calls == ["take 0", "take 0", "release 0"] and leases.held == set()


async def test_closing_the_backup_schedule_mid_backup_lets_the_backup_finish(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bot import backup as backups

    made = asyncio.Event()
    go = asyncio.Event()
    written: list[Path] = []

    async def slow_backup(store: object, folder: Path, keep: int) -> Path:
        made.set()
        await go.wait()
        written.append(folder / "backup.db")
        return written[-1]

    monkeypatch.setattr(backups, "backup", slow_backup)
    monkeypatch.setattr(backups, "unavailable", lambda store: None)
    schedule = backups.BackupSchedule(object(), tmp_path, 0, 3, sleep=lambda seconds: asyncio.sleep(0))  # type: ignore[arg-type]
    schedule.run()
    await asyncio.wait_for(made.wait(), 1)
    closing = asyncio.create_task(schedule.close())
    await asyncio.sleep(0.01)
    assert not closing.done()
    go.set()
    await closing
    assert schedule.made == written == [tmp_path / "backup.db"]
