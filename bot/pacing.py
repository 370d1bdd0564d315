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
"""Requests a second left unused, and `SLACK` seconds added to the window, for the way to Discord (two
requests sent a second apart may arrive closer, and concurrent ones in another order)."""
SLACK = 0.1


class Pace:
    """At most `per_second` requests in any second: a sliding window of when the last ones went."""

    def __init__(self, per_second: int = GLOBAL_PER_SECOND - MARGIN, window: float = 1.0 + SLACK) -> None:
        self.per_second, self.window = per_second, window
        self._sent: deque[float] = deque()
        self._turn = asyncio.Lock()

    async def wait(self) -> None:
        async with self._turn:  # one request decides at a time, in the order they came
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._sent and self._sent[0] <= now - self.window:
                    self._sent.popleft()
                if len(self._sent) < self.per_second:
                    self._sent.append(now)
                    return
                await asyncio.sleep(self._sent[0] + self.window - now)


def paced(request: Callable[..., Awaitable[Any]], pace: Pace) -> Callable[..., Awaitable[Any]]:
    """discord.py's `HTTPClient.request`, each call waiting for `pace` first."""

    async def request_in_turn(*args: Any, **kwargs: Any) -> Any:
        await pace.wait()
        return await request(*args, **kwargs)

    return request_in_turn
