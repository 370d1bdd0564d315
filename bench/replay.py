"""Speed and size of the end-of-game replay GIF (renderers/replay.py), per game.

Run: .venv/bin/python bench/replay.py [--games N] [--plies N]
Each game is a seeded random game cut at --plies (Geyser's random games would run for thousands of
plies; long games are exactly what the sampling is for), replayed from its moves as the bot does at the
end of a match, then turned into a GIF. Prints p50/p99 of the build time, the frame count and the size.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from bench.common import percentiles, settle
from bot.games import GAMES
from renderers.replay import MAX_BYTES, replay_gif

SEATS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 4, "horizon": 2}


def random_game(key: str, seed: int, plies: int) -> list[object]:
    game = GAMES[key]
    state = game.new(SEATS[key], seed)
    states, rng = [state], random.Random(seed)
    while len(states) <= plies and game.to_move(state) is not None:
        state = game.play(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games per engine")
    parser.add_argument("--plies", type=int, default=400, help="cut random games at this many plies")
    args = parser.parse_args()
    print(f"Replay GIF build time per game ({args.games} seeded random games each, cut at {args.plies} plies)")
    for key in GAMES:
        games = [random_game(key, seed, args.plies) for seed in range(args.games)]
        settle()
        samples, sizes, frames, moves = [], [], [], []
        names = tuple(f"player {i + 1}" for i in range(SEATS[key]))
        for states in games:
            start = time.perf_counter()
            data = replay_gif(key, states, names=names, title="Match #1")
            samples.append(time.perf_counter() - start)
            sizes.append(len(data))
            with Image.open(io.BytesIO(data)) as image:
                frames.append(image.n_frames)
            moves.append(len(states) - 1)
        print(
            f"{key:11} {percentiles(samples)}   moves {min(moves)}-{max(moves)}   frames {max(frames)}"
            f"   size max {max(sizes) / 1e6:.2f} MB (limit {MAX_BYTES / 1e6:.2f} MB)"
        )


if __name__ == "__main__":
    main()
