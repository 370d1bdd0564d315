"""What one bot process measures, for Prometheus: the metric objects, and the calls that move them.

`Metrics` is what the service, the computer players and the Discord poster call; it measures nothing (the
default everywhere, so a service built without one costs nothing). `PrometheusMetrics` is the real one:
its metrics live in a `CollectorRegistry` of its own, never prometheus_client's global one, so two bots in
one process (tests, restarts) never share a count. bot/health.py serves it at `GET /metrics`.

prometheus_client is imported only when a `PrometheusMetrics` is built: the service imports this module,
and a process that serves no metrics (the terminal without METRICS_PORT, bench/load.py) loads nothing more.

| metric | kind | labels | what |
|---|---|---|---|
| `boardgame_moves_total` | counter | game | moves committed (people's and computers') |
| `boardgame_move_pipeline_seconds` | histogram | game | from the service taking a move to its board post succeeding |
| `boardgame_flag_lateness_seconds` | histogram | | how long after its flag time (deadline + `LAG_GRACE`) a flag fell |
| `boardgame_open_matches` | gauge | game | running matches this process holds |
| `boardgame_computer_thinking_seconds` | histogram | game, level | from asking a worker for a move to its answer |
| `boardgame_failed_posts_total` | counter | reason | Discord sends that failed: `403`, `404`, `50083`, `5xx`, `other` |
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

PIPELINE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: 5 ms (a move in the terminal) to 10 s (Discord retrying a send)."""
LATENESS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Seconds: the target is 50 ms; a flag only the 30 s sweep caught shows up in the last ones."""
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds: COMPUTER_HARD_SECONDS goes up to 60."""
FAILED_REASONS = ("403", "404", "50083", "5xx", "other")
"""Why a post failed: Forbidden, Not Found, a thread archived (Discord's code 50083), Discord's 5xx, the rest."""
PENDING_LIMIT = 100_000
"""Moves waiting for their board post that are remembered (one a match): a board never posted is forgotten."""


class MetricsUnavailable(RuntimeError):
    """The health and metrics endpoint cannot listen where METRICS_HOST and METRICS_PORT say (one line)."""


class Metrics:
    """The calls that measure a process; this one measures nothing (see `PrometheusMetrics`)."""

    def now(self) -> float:
        """A monotonic time in seconds, for `move_accepted`'s `began`."""
        return 0.0

    def move_accepted(self, game: str, match_id: int, ply: int, began: float) -> None:
        """A move of `game` was committed as `ply` of the match; the service took it at `began` (`now`)."""

    def board_posted(self, match_id: int, ply: int) -> None:
        """A front-end posted the board of `ply`: the move that led there has gone through the pipeline."""

    def flag_fired(self, late: float) -> None:
        """A flag fell `late` seconds after its flag time."""

    def computer_thought(self, game: str, level: str, seconds: float) -> None:
        """A computer player of `level` took `seconds` to choose a move of `game`."""

    def post_failed(self, reason: str) -> None:
        """A post failed, for one of `FAILED_REASONS`."""

    def watch_open(self, count: Callable[[], Mapping[str, int]]) -> None:
        """`count()` gives the running matches by game, read whenever the metrics are scraped."""


class PrometheusMetrics(Metrics):
    """Every metric of the module docstring, in a registry of its own (`registry`); `exposition` is the
    text `GET /metrics` answers. `timer` is the clock of the pipeline and of thinking (a test may fake it)."""

    def __init__(self, timer: Callable[[], float] = time.perf_counter) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self._timer = timer
        self.registry = CollectorRegistry()
        self.moves = Counter("boardgame_moves", "Moves committed, by game.", ["game"], registry=self.registry)
        self.pipeline = Histogram(
            "boardgame_move_pipeline_seconds",
            "From the service taking a move to its board post succeeding.",
            ["game"],
            buckets=PIPELINE_BUCKETS,
            registry=self.registry,
        )
        self.flag_lateness = Histogram(
            "boardgame_flag_lateness_seconds",
            "How long after its flag time (deadline plus the lag grace) a flag fell.",
            buckets=LATENESS_BUCKETS,
            registry=self.registry,
        )
        self.thinking = Histogram(
            "boardgame_computer_thinking_seconds",
            "From asking a worker process for a computer's move to its answer.",
            ["game", "level"],
            buckets=THINKING_BUCKETS,
            registry=self.registry,
        )
        self.failed_posts = Counter(
            "boardgame_failed_posts", "Discord sends that failed, by reason.", ["reason"], registry=self.registry
        )
        for reason in FAILED_REASONS:  # every reason is listed from the start, at 0
            self.failed_posts.labels(reason)
        self._open: Callable[[], Mapping[str, int]] = dict
        self.registry.register(_OpenMatches(lambda: self._open()))
        self._moving: dict[int, tuple[int, str, float]] = {}
        """match id -> (the ply a move made, its game, when the service took it), until its board is posted"""

    def now(self) -> float:
        return self._timer()

    def move_accepted(self, game: str, match_id: int, ply: int, began: float) -> None:
        self.moves.labels(game).inc()
        self._moving.pop(match_id, None)  # re-inserted last, so the oldest are forgotten first
        self._moving[match_id] = (ply, game, began)
        if len(self._moving) > PENDING_LIMIT:
            del self._moving[next(iter(self._moving))]

    def board_posted(self, match_id: int, ply: int) -> None:
        moving = self._moving.get(match_id)
        if moving is None or moving[0] != ply:
            return  # a board nobody moved to (a start, a repost) or an older one
        del self._moving[match_id]
        self.pipeline.labels(moving[1]).observe(max(0.0, self._timer() - moving[2]))

    def flag_fired(self, late: float) -> None:
        self.flag_lateness.observe(max(0.0, late))

    def computer_thought(self, game: str, level: str, seconds: float) -> None:
        self.thinking.labels(game, level).observe(max(0.0, seconds))

    def post_failed(self, reason: str) -> None:
        self.failed_posts.labels(reason if reason in FAILED_REASONS else "other").inc()

    def watch_open(self, count: Callable[[], Mapping[str, int]]) -> None:
        self._open = count

    def exposition(self) -> tuple[bytes, str]:
        """The registry in Prometheus's text format, and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class _OpenMatches:
    """The `boardgame_open_matches` gauge, counted when scraped (the service's cache is the truth)."""

    def __init__(self, count: Callable[[], Mapping[str, int]]) -> None:
        self._count = count

    def describe(self) -> list[Any]:
        return [self._family()]

    def collect(self) -> Iterator[Any]:
        family = self._family()
        for game, open_matches in sorted(self._count().items()):
            family.add_metric([game], open_matches)
        yield family

    @staticmethod
    def _family() -> Any:
        from prometheus_client.core import GaugeMetricFamily

        return GaugeMetricFamily("boardgame_open_matches", "Running matches held here, by game.", labels=["game"])
