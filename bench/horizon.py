"""Speed figures for Event Horizon: legal_moves, play (draw, roll and chains included), render of the public
and of a private view, and the whole move pipeline.

Run: .venv/bin/python bench/horizon.py [--games N]
Targets (DESIGN.md, 2 cores): legal_moves < 50 ms, render < 40 ms, pipeline p99 < 100 ms.
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

HORIZON = GAMES["horizon"]


def positions(games: int) -> list:
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = HORIZON.new(2, seed)
        while HORIZON.to_move(state) is not None:
            found.append(state)
            state = HORIZON.play(state, rng.choice(HORIZON.legal_moves(state)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="seeded random games (default 40)")
    args = parser.parse_args()
    states = positions(args.games)
    settle()
    print(f"Event Horizon — {len(states)} positions from {args.games} seeded games")
    print("legal_moves    ", percentiles([timed(lambda s=s: HORIZON.legal_moves(s)) for s in states]))
    rng = random.Random(1)
    moves = [(s, rng.choice(HORIZON.legal_moves(s))) for s in states]
    print("play           ", percentiles([timed(lambda s=s, m=m: HORIZON.play(s, m)) for s, m in moves]))
    caption = Caption(names=("alice", "bob"), clocks=(SeatClock(30, 60, True), SeatClock(30, 45, False)))
    sample = states[:: max(1, len(states) // 200)]
    for state in sample:  # sprites (card faces, arrows of each length) are built once, on first sight
        render("horizon", state, caption=caption)
        render("horizon", state, 0, caption=caption)
    print("render public  ", percentiles([timed(lambda s=s: render("horizon", s, caption=caption)) for s in sample]))
    print("render private ", percentiles([timed(lambda s=s: render("horizon", s, 0, caption=caption)) for s in sample]))
    print("pipeline       ", percentiles(asyncio.run(pipeline("horizon", max(2, args.games // 4), lambda seed: 2))))


if __name__ == "__main__":
    main()
