"""Speed figures for "1, 2, 3": legal_moves, play, render, the island solver, and the whole move pipeline.

Run: .venv/bin/python bench/fish.py [--games N]
Prints p50/p99 (and max) in milliseconds. Targets (DESIGN.md, 2 cores): render < 40 ms, pipeline p99
< 100 ms, legal_moves < 50 ms. Positions come from seeded random games, so runs are comparable.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, timed
from bot import posts
from bot.clock import ClockSettings
from bot.games import GAMES
from bot.games.fish import NEIGHBOURS, solve_island
from bot.models import Player
from bot.service import MatchService
from bot.store import Store
from renderers import Caption, SeatClock, render

FISH = GAMES["fish"]


def positions(games: int) -> list:
    """Every position of `games` seeded random games."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = FISH.new(2, seed, first=seed % 2)
        while FISH.to_move(state) is not None:
            found.append(state)
            state = FISH.play(state, rng.choice(FISH.legal_moves(state)))
        found.append(state)
    return found


def bench_engine(states: list) -> None:
    live = [s for s in states if FISH.to_move(s) is not None]
    print("legal_moves ", percentiles([timed(lambda s=s: FISH.legal_moves(s)) for s in live]))
    rng = random.Random(1)
    moves = [(s, rng.choice(FISH.legal_moves(s))) for s in live]
    print("play        ", percentiles([timed(lambda s=s, m=m: FISH.play(s, m)) for s, m in moves]))


def bench_islands() -> None:
    rng = random.Random(3)
    samples = []
    for shape in range(300):
        blob = [rng.randrange(60)]
        while len(blob) < 16:
            base = blob[-1:] if shape % 3 else blob
            options = [n for t in base for n in NEIGHBOURS[t] if n not in blob]
            options = options or [n for t in blob for n in NEIGHBOURS[t] if n not in blob]
            blob.append(rng.choice(options))
        values = {t: rng.choice([1, 2, 3]) for t in blob}
        tokens = tuple(rng.sample(blob, rng.randint(1, 4)))
        samples.append(timed(lambda v=values, t=tokens: solve_island(v, t)))
    print("island(16)  ", percentiles(samples))


def bench_render(states: list) -> None:
    caption = Caption(
        names=("alice", "bob"),
        clocks=(SeatClock(30, 60, True), SeatClock(30, 45, False)),
        header="Death match · game 2 of 3 · alice 1 – bob 0",
    )
    sample = states[:: max(1, len(states) // 200)]
    render("fish", sample[0], caption=caption)  # fonts and sprites load once
    print("render      ", percentiles([timed(lambda s=s: render("fish", s, caption=caption)) for s in sample]))


async def bench_pipeline(games: int) -> None:
    """Validate, apply, render and commit, through the real service on a real database file."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = MatchService(store)
        await service.start()
        alice, bob = Player("local:alice", "alice"), Player("local:bob", "bob")
        samples = []
        for seed in range(games):
            rng = random.Random(seed)
            match = await service.create_match("fish", [alice, bob], seed=seed, clock=ClockSettings(3600, 3600))
            await service.board_posted(match.id, 0)
            while match.running:
                seat = FISH.to_move(match.state)
                move = rng.choice(FISH.legal_moves(match.state))
                start = time.perf_counter()
                notice = await service.move(match.id, match.players[seat].id, move, ply=match.ply)
                await asyncio.to_thread(posts.build, service, notice.match, notice.lines, time.time())
                await service.board_posted(match.id, notice.match.ply)
                samples.append(time.perf_counter() - start)
                match = notice.match
        await service.close()
        await store.close()
    print("pipeline    ", percentiles(samples))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded random games to sample (default 40)")
    args = parser.parse_args()
    states = positions(args.games)
    print(f'"1, 2, 3" — {len(states)} positions from {args.games} seeded games')
    bench_engine(states)
    bench_islands()
    bench_render(states)
    asyncio.run(bench_pipeline(max(2, args.games // 4)))


if __name__ == "__main__":
    main()
