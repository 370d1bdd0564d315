"""Timing helpers shared by the bench scripts: p50/p99 in milliseconds, printed the same way."""

from __future__ import annotations

import time
from collections.abc import Callable


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return f"p50 {at(0.50):7.2f} ms   p99 {at(0.99):7.2f} ms   max {ordered[-1] * 1000:7.2f} ms   (n={len(ordered)})"


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
