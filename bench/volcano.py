"""Speed figures for Volcano: legal_moves, play and render over seeded random games of 1 to 6 players.

Run: .venv/bin/python bench/volcano.py [--games N]
Targets (DESIGN.md, 2 cores): legal_moves < 50 ms, render < 40 ms, whole move pipeline p99 < 100 ms.
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
from renderers import Caption, SeatClock, render

VOLCANO = GAMES["volcano"]


def positions(games: int) -> list:
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = VOLCANO.new(seed % 6 + 1, seed)
        while VOLCANO.to_move(state) is not None:
            found.append(state)
            state = VOLCANO.play(state, rng.choice(VOLCANO.legal_moves(state)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="seeded random games (default 24)")
    args = parser.parse_args()
    states = positions(args.games)
    settle()
    print(f"Volcano — {len(states)} positions from {args.games} seeded games of 1 to 6 players")
    print("legal_moves ", percentiles([timed(lambda s=s: VOLCANO.legal_moves(s)) for s in states]))
    rng = random.Random(1)
    moves = [(s, rng.choice(VOLCANO.legal_moves(s))) for s in states]
    print("play        ", percentiles([timed(lambda s=s, m=m: VOLCANO.play(s, m)) for s, m in moves]))
    sample = states[:: max(1, len(states) // 200)]
    names = ("alice", "bob", "carol", "dave", "erin", "frank")

    def caption(state: object) -> Caption:
        seats = VOLCANO.view(state, None).seats  # type: ignore[attr-defined]
        clocks = tuple(SeatClock(30, 60, seat == 0) for seat in range(seats))
        return Caption(names=names[:seats], clocks=clocks, header="Volcano night")

    render("volcano", sample[0], caption=caption(sample[0]))  # sprites are built once
    print("render      ", percentiles([timed(lambda s=s: render("volcano", s, caption=caption(s))) for s in sample]))
    samples = asyncio.run(pipeline("volcano", max(2, args.games // 4), lambda seed: seed % 6 + 1))
    print("pipeline    ", percentiles(samples))


if __name__ == "__main__":
    main()
