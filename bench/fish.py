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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, pipeline, settle, timed
from bot.games import GAMES
from bot.games.fish import NEIGHBOURS, solve_island
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded random games to sample (default 40)")
    args = parser.parse_args()
    states = positions(args.games)
    settle()
    print(f'"1, 2, 3" — {len(states)} positions from {args.games} seeded games')
    bench_engine(states)
    bench_islands()
    bench_render(states)
    print("pipeline    ", percentiles(asyncio.run(pipeline("fish", max(2, args.games // 4), lambda seed: 2))))


if __name__ == "__main__":
    main()
