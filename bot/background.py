"""A step run again and again in the background: the flag scheduler, the heartbeat, the shard leases and the
gateway watchdog are each one.

`stop` cuts short only the wait between two steps, never a step: a lease renewal or a heartbeat cancelled in
the middle of a database write leaves its transaction to the connection's next user, and a sweep cut halfway
sends half its reminders. A step that is running when `stop` is called finishes, then the loop ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Repeating:
    """`step()` after every `wait()`, in a task named `name`, from `start` until `stop`. A step that raises is
    logged as `failed` and the loop goes on (one bad round must not end the renewals for good)."""

    def __init__(
        self, name: str, wait: Callable[[], Awaitable[object]], step: Callable[[], Awaitable[None]], failed: str
    ) -> None:
        self.name = name
        self._wait = wait
        self._step = step
        self._failed = failed
        self._task: asyncio.Task[None] | None = None
        self._waiting = False
        self._stopping = False

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """End the loop: at once if it is waiting, else once the step in progress is done."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        if self._waiting:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        while not self._stopping:
            self._waiting = True
            try:
                await self._wait()
            finally:
                self._waiting = False
            if self._stopping:
                return
            try:
                await self._step()
            except Exception:
                log.exception(self._failed)
