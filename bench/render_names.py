"""How long names change render time: every game's board drawn with normal, 32-character, 2,000-character
and 100 KB names, clocks, a header naming the players and (for a finished game) the winner.

Run: .venv/bin/python bench/render_names.py [--runs N] [--budget SECONDS]
Prints p50/p99 of render() (draw + PNG) per game and name length, then the time per frame of a replay
GIF (renderers/replay.py) with normal and 1,000-character names. A case stops after --runs renders or
--budget seconds, whichever comes first; a single render still running after the budget is cut off by
an alarm and reported as "> budget" (before text fitting was a binary search, a 100 KB name never ended).
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, settle
from bot.games import GAMES
from renderers import Caption, SeatClock, render
from renderers.replay import replay_gif

SEATS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 4, "horizon": 2}
LENGTHS = {"normal": 0, "32 chars": 32, "2,000 chars": 2_000, "100 KB": 100_000}


class TooSlow(Exception):
    pass


def position(key: str, plies: int = 30) -> object:
    """A mid-game position of a seeded random game."""
    game, rng = GAMES[key], random.Random(key)
    state = game.new(SEATS[key], 3)
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def names(seats: int, length: int) -> tuple[str, ...]:
    """Seat names: alice, bob... or that many characters of a wide letter with the seat's own start."""
    if not length:
        return ("alice", "bob", "carol", "dave")[:seats]
    return tuple((f"{'ABCD'[seat]}-" + "W" * length)[:length] for seat in range(seats))


def caption(seats: int, length: int) -> Caption:
    who = names(seats, length)
    clocks = tuple(SeatClock(30, 60, running=seat == 0) for seat in range(seats))
    return Caption(names=who, clocks=clocks, header=f"Death match · game 2 of 3 · {who[0]} 1–0 {who[1]}")


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TooSlow


def case(key: str, length: int, runs: int, budget: float) -> str:
    state, seats = position(key), SEATS[key]
    cap = caption(seats, length)
    samples: list[float] = []
    signal.signal(signal.SIGALRM, _alarm)
    began = time.perf_counter()
    try:
        while len(samples) < runs and time.perf_counter() - began < budget:
            signal.setitimer(signal.ITIMER_REAL, budget)
            start = time.perf_counter()
            render(key, state, 0, caption=cap)
            samples.append(time.perf_counter() - start)
            signal.setitimer(signal.ITIMER_REAL, 0)
    except TooSlow:
        return f"one render > {budget:.0f} s (cut off){f' after {len(samples)} renders' if samples else ''}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return percentiles(samples)


def replay_case(length: int, budget: float) -> str:
    """Milliseconds per frame of the replay GIF of a 12-ply game of fish, names of `length` characters."""
    game, rng = GAMES["fish"], random.Random(5)
    states = [game.new(2, 5)]
    while len(states) < 13:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        start = time.perf_counter()
        replay_gif("fish", states, names=names(2, length), title="Match #1")
        took = time.perf_counter() - start
    except TooSlow:
        return f"> {budget:.0f} s for {len(states)} frames (cut off)"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return f"{took / len(states) * 1000:8.2f} ms a frame ({len(states)} frames)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40, help="renders per case at most")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per case at most")
    args = parser.parse_args()
    print(f"render() with long names (at most {args.runs} renders or {args.budget:g} s per case)")
    for key in GAMES:
        render(key, position(key), 0, caption=caption(SEATS[key], 0))  # warm the sprite caches
        settle()
        for label, length in LENGTHS.items():
            print(f"{key:<11} {label:<12} {case(key, length, args.runs, args.budget)}", flush=True)
    for label, length in (("normal", 0), ("1,000 chars", 1_000)):
        print(f"{'replay GIF':<11} {label:<12} {replay_case(length, args.budget)}", flush=True)


if __name__ == "__main__":
    main()
