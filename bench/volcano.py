"""Speed figures for the Volcano engine: legal_moves and play over seeded random games of 1 to 6 players.

Run: .venv/bin/python bench/volcano.py [--games N]   (render and the move pipeline come with its renderer)
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, timed
from bot.games import GAMES

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
    print(f"Volcano — {len(states)} positions from {args.games} seeded games of 1 to 6 players")
    print("legal_moves ", percentiles([timed(lambda s=s: VOLCANO.legal_moves(s)) for s in states]))
    rng = random.Random(1)
    moves = [(s, rng.choice(VOLCANO.legal_moves(s))) for s in states]
    print("play        ", percentiles([timed(lambda s=s, m=m: VOLCANO.play(s, m)) for s, m in moves]))


if __name__ == "__main__":
    main()
