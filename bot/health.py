"""The health and metrics endpoint of one bot process: `GET /healthz` and `GET /metrics`, served by aiohttp
on METRICS_HOST:METRICS_PORT (127.0.0.1 unless told otherwise) while the bot runs.

`/healthz` answers 200 with a small JSON object while the process can do its work, and 503 when it cannot:
its database does not answer a cheap query within `DATABASE_TIMEOUT`, or it runs shards and holds none of
their leases (another process has taken them over). A Discord connection that dropped is reported, not a
503: discord.py reconnects by itself, and restarting the process would not be faster.

    {"ok": true, "mode": "discord", "connected": true, "shards": [0], "leases": [0],
     "database": "ok", "open_matches": 12}

`mode` is `discord` or `terminal` (then `connected` is null); `leases` is null when the process was given no
lease hook (`Health.leases`). `/metrics` is bot/metrics.py's registry in Prometheus's text format.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.metrics import MetricsUnavailable, PrometheusMetrics

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 2.0
"""Seconds the database has to answer `/healthz`'s query (a container healthcheck waits a few)."""

Leases = Callable[[], Collection[int] | None]
"""The shard leases this process holds now (bot/shards.py's `Leases.held`); None where it takes none."""


@dataclass
class Health:
    """What `/healthz` looks at, each a callable read on every request, so it always says how things are now.

    `database` runs a cheap query (the store's `schema_version`); `open_matches` counts the running matches;
    `connected` says whether Discord's gateway is up (None: the terminal); `shards` are the shard ids the
    process runs; `leases`, if given, the ones whose lease it holds (see `Leases`)."""

    database: Callable[[], Awaitable[object]]
    open_matches: Callable[[], int]
    mode: str = "terminal"
    connected: Callable[[], bool | None] = lambda: None
    shards: Callable[[], Sequence[int]] = lambda: ()
    leases: Leases | None = None
    timeout: float = DATABASE_TIMEOUT
    problems: list[str] = field(default_factory=list, init=False)
    """Why the last check failed (empty when it did not)."""

    async def check(self) -> tuple[int, dict[str, Any]]:
        """The status code and the JSON body of `/healthz`."""
        problems: list[str] = []
        database = "ok"
        try:
            await asyncio.wait_for(self.database(), self.timeout)
        except TimeoutError:
            database = f"no answer in {self.timeout:g} s"
        except Exception as error:  # closed, refused, gone: any failure means it does not answer
            database = f"{type(error).__name__}: {error}"[:200]
        if database != "ok":
            problems.append(f"database: {database}")
        held = self.leases() if self.leases is not None else None
        if held is not None and not held:
            problems.append("no shard lease held")
        self.problems = problems
        body = {
            "ok": not problems,
            "mode": self.mode,
            "connected": self.connected(),
            "shards": sorted(self.shards()),
            "leases": None if held is None else sorted(held),
            "database": database,
            "open_matches": self.open_matches(),
        }
        return (200 if not problems else 503), body


class HealthServer:
    """The aiohttp server of `/healthz` and `/metrics`; `start` it, `close` it when the bot stops."""

    def __init__(self, health: Health, metrics: PrometheusMetrics) -> None:
        self.health = health
        self.metrics = metrics
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)  # a healthcheck every few seconds is no news
        self.port: int | None = None

    @classmethod
    async def start(cls, health: Health, metrics: PrometheusMetrics, host: str, port: int) -> HealthServer:
        """Listen on host:port (port 0: any free one, then `port` says which). MetricsUnavailable if it cannot."""
        server = cls(health, metrics)
        await server._runner.setup()
        try:
            site = web.TCPSite(server._runner, host, port)
            await site.start()
        except OSError as error:
            await server._runner.cleanup()
            reason = (error.strerror or str(error)).lower()
            raise MetricsUnavailable(
                f"Cannot serve /healthz and /metrics on {host}:{port} ({reason}), so the bot will not start. Set"
                " METRICS_PORT to a free port (or leave it empty for none), or METRICS_HOST to an address of this"
                " machine."
            ) from None
        server.port = server._runner.addresses[0][1]
        log.info("serving /healthz and /metrics on %s:%s", host, server.port)
        return server

    async def close(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        status, body = await self.health.check()
        if status != 200:
            log.warning("unhealthy: %s", "; ".join(self.health.problems))
        return web.Response(status=status, text=json.dumps(body), content_type="application/json")

    async def _metrics(self, request: web.Request) -> web.Response:
        text, content_type = self.metrics.exposition()
        response = web.Response(body=text)
        response.headers["Content-Type"] = content_type  # with its version and charset, as Prometheus expects
        return response
