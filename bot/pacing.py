"""Discord's global rate limit, kept by the bot itself.

Every bot token may make 50 requests a second in all (interaction callbacks and their webhooks exempt).
discord.py keeps each route's bucket from the ``X-RateLimit-*`` headers, but the global limit sends no
headers: it only learns of it from a 429, which Discord counts towards a ban. Bulk work (the reposts after a
restart, the notices after an outage) can reach it, so every request through `HTTPClient.request` waits its
turn here first (discord.js keeps the same limit, `globalRequestsPerSecond`, for the same reason).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

GLOBAL_PER_SECOND = 50
"""Discord's documented global limit for a bot (Discord raises it for some large bots on request)."""
MARGIN = 5
"""Requests a second left unused, and `SLACK` seconds added to the window: Discord's count and ours need
not start their seconds at the same instant."""
SLACK = 0.1


class Pace:
    """At most `per_second` requests in any `window` seconds, counted as Discord counts them: on arrival.

    A request reaches Discord somewhere between when it is sent and when its answer is back, and how long
    that takes varies (the network; a busy event loop that sends it late). So each request holds its turn
    from when it is sent until `window` seconds after its answer: whatever the delays, the requests that
    reached Discord within any `window` all held their turns at the same instant, and so number at most
    `per_second`. (Counting from when each was sent, a slow first batch and a quick second one could reach
    Discord within one second: a 429.)"""

    def __init__(self, per_second: int = GLOBAL_PER_SECOND - MARGIN, window: float = 1.0 + SLACK) -> None:
        self.per_second, self.window = per_second, window
        self._sending = 0
        """Requests sent whose answer is not back yet."""
        self._free_at: deque[float] = deque()
        """When each answered request gives its turn back, oldest first."""
        self._turn = asyncio.Lock()
        self._answered = asyncio.Event()

    async def wait(self) -> None:
        """Wait for a turn; the caller then sends its request and calls `done` once it is answered."""
        async with self._turn:  # one request decides at a time, in the order they came
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._free_at and self._free_at[0] <= now:
                    self._free_at.popleft()
                if self._sending + len(self._free_at) < self.per_second:
                    self._sending += 1
                    return
                self._answered.clear()
                if self._free_at:
                    await asyncio.sleep(self._free_at[0] - now)
                else:  # every turn is out with a request on its way: the first answer frees one
                    await self._answered.wait()

    def done(self) -> None:
        """The request of a turn is answered (or failed): its turn comes back `window` seconds from now."""
        self._sending -= 1
        self._free_at.append(asyncio.get_running_loop().time() + self.window)
        self._answered.set()


def paced(request: Callable[..., Awaitable[Any]], pace: Pace) -> Callable[..., Awaitable[Any]]:
    """discord.py's `HTTPClient.request`, each call waiting for `pace` first."""

    async def request_in_turn(*args: Any, **kwargs: Any) -> Any:
        await pace.wait()
        try:
            return await request(*args, **kwargs)
        finally:
            pace.done()

    return request_in_turn
