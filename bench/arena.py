"""Arena: the computer (bot/ai) against a uniformly random player and against each game's greedy player.

Run: .venv/bin/python bench/arena.py [fish volcano ...] [--games 100] [--level normal] [--jobs 2]
Prints, per game and opponent: wins, draws, losses and games cut at --max-plies; the computer's thinking
time per move (p50/p99) and its playouts per second. Seeded: game k uses seed k and the computer sits
in seat k % 2, so both seats are measured. Iteration budgets (not the clock) end the search, so the
moves, and the win rates, are the same on any machine; only the times vary.
Targets (issue 8): 95%+ against random, 70%+ against greedy, at the normal level.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles
from bot.ai import LEVELS, Level, think
from bot.games import GAMES

MAX_PLIES = {"geyser": 4000, "volcano": 1500}
"""Where a game is cut (counted as not won): Volcano can cycle for ever, and Geyser runs long."""


@dataclasses.dataclass
class Result:
    game: str
    opponent: str
    seed: int
    result: str  # won, drew, lost or cut
    plies: int
    think: list[float]
    playouts: int


def opponent_move(kind: str, game_key: str, state: object, seat: int, rng: random.Random) -> str:
    game = GAMES[game_key]
    view = game.view(state, seat)
    if kind == "random":
        return rng.choice(game.legal_moves(view))
    module = importlib.import_module(f"bot.ai.{game_key}")
    return module.greedy(view, seat, rng)


def play_one(task: tuple[str, str, int, Level, int]) -> Result:
    game_key, opponent, seed, level, players = task
    game = GAMES[game_key]
    state = game.new(players, seed)
    me = seed % players
    rng = random.Random(f"arena:{game_key}:{opponent}:{seed}")
    thinking: list[float] = []
    playouts = 0
    plies = 0
    while (seat := game.to_move(state)) is not None and plies < MAX_PLIES.get(game_key, 3000):
        if seat == me:
            choice = think(game_key, game.view(state, seat), seat, level, rng.getrandbits(32))
            thinking.append(choice.seconds)
            playouts += choice.iterations
            move = choice.move
        else:
            move = opponent_move(opponent, game_key, state, seat, rng)
        state = game.play(state, move)
        plies += 1
    outcome = game.outcome(state)
    if outcome is None:
        result = "cut"
    elif me in outcome.winners:
        result = "won" if len(outcome.winners) == 1 else "drew"
    else:
        result = "drew" if outcome.is_draw else "lost"
    return Result(game_key, opponent, seed, result, plies, thinking, playouts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help="game keys (default: all five)")
    parser.add_argument("--games", dest="count", type=int, default=100, help="games per opponent")
    parser.add_argument("--level", default="normal", choices=list(LEVELS))
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--players", type=int, default=2, help="seats per game (the others are opponents)")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (one process each)")
    parser.add_argument("--no-time-limit", action="store_true", help="end each search by its iterations only")
    args = parser.parse_args()
    level = LEVELS[args.level]
    level = dataclasses.replace(level, seconds=None if args.no_time_limit else level.seconds)
    for game_key in args.games:
        for opponent in args.opponents.split(","):
            tasks = [(game_key, opponent, seed, level, args.players) for seed in range(args.count)]
            started = time.perf_counter()
            with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
                results = list(pool.imap_unordered(play_one, tasks))
            tally = {kind: sum(r.result == kind for r in results) for kind in ("won", "drew", "lost", "cut")}
            thinking = [t for r in results for t in r.think]
            playouts = sum(r.playouts for r in results)
            rate = (tally["won"] + 0.5 * tally["drew"]) / len(results)
            print(
                f"{game_key:10} vs {opponent:6} {args.level}: won {tally['won']} drew {tally['drew']} "
                f"lost {tally['lost']} cut {tally['cut']} of {len(results)} -> {rate:.0%}   "
                f"plies p50 {sorted(r.plies for r in results)[len(results) // 2]}   "
                f"({time.perf_counter() - started:.0f} s)"
            )
            if thinking:
                print(f"{'':10}    think per move: {percentiles(thinking)}")
                print(f"{'':10}    playouts/s: {playouts / max(sum(thinking), 1e-9):,.0f}")
            losses = [r.seed for r in results if r.result in ("lost", "cut")]
            if losses:
                print(f"{'':10}    seeds not won: {losses[:20]}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
