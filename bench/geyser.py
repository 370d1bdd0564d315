"""Speed figures for Geyser: legal_moves, play (battles and firing phases included), render, and the whole
move pipeline, over seeded random games of 2 to 4 players.

Run: .venv/bin/python bench/geyser.py [--games N]
Targets (DESIGN.md, 2 cores): legal_moves < 50 ms, render < 40 ms, pipeline p99 < 100 ms. Random players
wander for thousands of plies, so games are cut at --plies (default 600).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import NAMES, percentiles, pipeline, settle, timed
from bot.games import GAMES
from renderers import Caption, SeatClock, render

GEYSER = GAMES["geyser"]


def positions(games: int, plies: int) -> list:
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GEYSER.new(seed % 3 + 2, seed)
        while GEYSER.to_move(state) is not None and len(found) < (seed + 1) * plies:
            found.append(state)
            state = GEYSER.play(state, rng.choice(GEYSER.legal_moves(state)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="seeded random games (default 12)")
    parser.add_argument("--plies", type=int, default=600, help="plies sampled per game (default 600)")
    args = parser.parse_args()
    states = positions(args.games, args.plies)
    settle()
    print(f"Geyser — {len(states)} positions from {args.games} seeded games of 2 to 4 players")
    print("legal_moves ", percentiles([timed(lambda s=s: GEYSER.legal_moves(s)) for s in states]))
    rng = random.Random(1)
    moves = [(s, rng.choice(GEYSER.legal_moves(s))) for s in states]
    print("play        ", percentiles([timed(lambda s=s, m=m: GEYSER.play(s, m)) for s, m in moves]))
    sample = states[:: max(1, len(states) // 200)]

    def caption(state: object) -> Caption:
        seats = state.seats  # type: ignore[attr-defined]
        return Caption(names=NAMES[:seats], clocks=tuple(SeatClock(30, 60, s == 0) for s in range(seats)))

    render("geyser", sample[0], caption=caption(sample[0]))
    print("render      ", percentiles([timed(lambda s=s: render("geyser", s, caption=caption(s))) for s in sample]))
    samples = asyncio.run(pipeline("geyser", max(2, args.games // 4), lambda seed: seed % 3 + 2, max_plies=300))
    print("pipeline    ", percentiles(samples))


if __name__ == "__main__":
    main()
