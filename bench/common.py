"""Timing helpers shared by the bench scripts: p50/p99 in milliseconds, printed the same way."""

from __future__ import annotations

import asyncio
import gc
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot import posts
from bot.clock import ClockSettings
from bot.models import Player
from bot.service import MatchService
from bot.store import Store

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def settle() -> None:
    """Move everything built so far out of the garbage collector's sight: the thousands of sampled
    positions a bench holds would otherwise make full collections, and so the timings, far slower than
    in the bot, which holds a few states per match."""
    gc.collect()
    gc.freeze()


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return f"p50 {at(0.50):7.2f} ms   p99 {at(0.99):7.2f} ms   max {ordered[-1] * 1000:7.2f} ms   (n={len(ordered)})"


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


async def pipeline(game_key: str, games: int, seats: Callable[[int], int], max_plies: int | None = None) -> list[float]:
    """Seconds per move through the real service on a real database file: validate, apply, commit,
    render the post and report it posted (which starts the clock). Random legal moves, seeded games,
    each cut at `max_plies` if given."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = MatchService(store)
        await service.start()
        game = service.games[game_key]
        samples = []
        for seed in range(games):
            rng = random.Random(seed)
            players = [Player(f"local:{name}", name) for name in NAMES[: seats(seed)]]
            match = await service.create_match(game_key, players, seed=seed, clock=ClockSettings(3600, 3600))
            await service.board_posted(match.id, 0)
            played = 0
            while match.running and (max_plies is None or played < max_plies):
                played += 1
                seat = game.to_move(match.state)
                move = rng.choice(game.legal_moves(match.state))
                start = time.perf_counter()
                notice = await service.move(match.id, match.players[seat].id, move, ply=match.ply)
                await asyncio.to_thread(posts.build, service, notice.match, notice.lines, time.time())
                await service.board_posted(match.id, notice.match.ply)
                samples.append(time.perf_counter() - start)
                match = notice.match
        await service.close()
        await store.close()
    return samples
