"""Speed figures for Themiscyra: legal_moves by phase (opening, middle game, crowded board), play, render,
and the whole move pipeline.

Run: .venv/bin/python bench/themiscyra.py [--games N]
Targets (DESIGN.md and the issue, 2 cores): legal_moves < 50 ms in every phase, render < 40 ms, pipeline
p99 < 100 ms. Positions come from seeded random games, so runs are comparable.
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

THEMISCYRA = GAMES["themiscyra"]


def positions(games: int) -> list:
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = THEMISCYRA.new(2, seed)
        while THEMISCYRA.to_move(state) is not None:
            found.append(state)
            state = THEMISCYRA.play(state, rng.choice(THEMISCYRA.legal_moves(state)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded random games (default 20)")
    args = parser.parse_args()
    states = positions(args.games)
    settle()
    print(f"Themiscyra — {len(states)} positions from {args.games} seeded games")
    phases = {
        "opening (setup)": [s for s in states if s.setup],
        "middle (< 50 stones)": [s for s in states if not s.setup and s.ply < 25],
        "crowded (50+ stones)": [s for s in states if s.ply >= 25],
    }
    for name, group in phases.items():
        counts = sorted(len(THEMISCYRA.legal_moves(s)) for s in group)
        times = [timed(lambda s=s: THEMISCYRA.legal_moves(s)) for s in group]
        print(f"legal_moves {name:22} {percentiles(times)}   turns p50 {counts[len(counts) // 2]}, max {counts[-1]}")
    rng = random.Random(1)
    moves = [(s, rng.choice(THEMISCYRA.legal_moves(s))) for s in states]
    print(
        "play (checks the next player can move) ",
        percentiles([timed(lambda s=s, m=m: THEMISCYRA.play(s, m)) for s, m in moves]),
    )
    caption = Caption(
        names=("alice", "bob"), clocks=(SeatClock(30, 60, True), SeatClock(30, 45, False)), header="Match #7"
    )
    render("themiscyra", states[0], caption=caption)
    sample = states[:: max(1, len(states) // 200)]
    print(
        "render                                 ",
        percentiles([timed(lambda s=s: render("themiscyra", s, caption=caption)) for s in sample]),
    )
    areas = Caption(names=("alice", "bob"), overlays=frozenset({"areas"}))
    print(
        "render with areas                      ",
        percentiles([timed(lambda s=s: render("themiscyra", s, caption=areas)) for s in sample]),
    )
    samples = asyncio.run(pipeline("themiscyra", max(2, args.games // 4), lambda seed: 2))
    print("pipeline                               ", percentiles(samples))


if __name__ == "__main__":
    main()
