"""The after-the-game analysis (bot/analysis.py): how long one takes, per game, and that it never delays
another match's move.

Run: .venv/bin/python bench/analysis.py [--games N] [--plies N] [--moves N]

1. Time to analyse a game, per game, at the budget the bot uses (`bot.analysis.ITERATIONS`): seeded
   random games played to their end (cut at --plies and ended by a resignation, as Geyser's random games
   would run for thousands of plies), each sampled to at most 100 positions, searched and drawn in one
   process (the work the analysis worker does). Prints p50/p99 over the games (with a handful of games
   the p99 is the slowest).
2. The move pipeline (bench/common.py's `pipeline`: validate, apply, commit, render, posted) for Fish,
   p50/p99 per move, first alone, then with analyses running all the while beside it in the bot's own
   `Analyst` (its worker process at lower priority), one finished match after another; and the same for
   a computer's move (a normal-level Fish search in a computer worker of its own, as ComputerPlayers
   runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, pipeline, settle
from bot import analysis
from bot.ai import LEVELS, think
from bot.computer import Analyst
from bot.games import GAMES, Outcome, Termination
from bot.models import MoveRecord, Player
from bot.service import MatchService
from bot.store import Store
from renderers.analysis import report

SEATS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 2, "horizon": 2}


def random_game(key: str, seed: int, plies: int) -> tuple[list[object], list[MoveRecord], Outcome]:
    """A seeded random game to its end, or cut at `plies` and resigned by the player to move."""
    game = GAMES[key]
    state = game.new(SEATS[key], seed)
    states: list[object] = [state]
    lines: list[MoveRecord] = []
    rng = random.Random(seed)
    while game.to_move(state) is not None and len(lines) < plies:
        seat = game.to_move(state)
        move = game.canonical(state, rng.choice(game.legal_moves(state)))
        lines.append(MoveRecord(len(lines) + 1, seat, move, 0.0, None))
        state = game.play(state, move)
        states.append(state)
    outcome = game.outcome(state)
    if outcome is None:
        loser = game.to_move(state)
        winners = frozenset(s for s in range(SEATS[key]) if s != loser)
        outcome = Outcome((0.0,) * SEATS[key], winners, "resigned", Termination.RESIGNATION)
    return states, lines, outcome


def analyse_times(games: int, plies: int) -> None:
    print(f"Time to analyse a game ({games} seeded random games a game, at most {plies} plies, the bot's budgets):")
    for key in GAMES:
        samples, positions, moves = [], [], []
        for seed in range(games):
            states, lines, outcome = random_game(key, seed, plies)
            names = ("alice", "bob", "carol")[: SEATS[key]]
            started = time.perf_counter()
            found = analysis.analyse(key, states, lines, names=names, result=outcome)
            report(found)
            samples.append(time.perf_counter() - started)
            positions.append(len(found.points))
            moves.append(found.moves)
        budget = analysis.iterations_for(key)
        print(
            f"  {key:11} {percentiles(samples)}   {budget} playouts x {min(positions)}-{max(positions)} positions"
            f" ({min(moves)}-{max(moves)} moves)"
        )


async def finished_matches(service: MatchService, count: int, plies: int) -> list[int]:
    """Finished Fish matches through the service, for the analyst to work through."""
    players = [Player("local:alice", "alice"), Player("local:bob", "bob")]
    game = GAMES["fish"]
    found = []
    for seed in range(count):
        match = await service.create_match("fish", players, seed=1000 + seed)
        rng = random.Random(seed)
        played = 0
        while (match := await service.get(match.id)).running:
            seat = game.to_move(match.state)
            if played >= plies:
                await service.playing.resign(match.id, match.players[seat].id)
                continue
            await service.move(match.id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))
            played += 1
        found.append(match.id)
    return found


async def beside(moves: int) -> None:
    """The move pipeline and a computer's move, alone and with analyses running beside them."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "analyses.sqlite3")
        service = MatchService(store)
        await service.start()
        matches = await finished_matches(service, 12, 80)
        analyst = Analyst(service, kept=0)  # nothing kept: each ask is a fresh analysis
        await analyst.report(await service.get(matches[0]))  # the worker is up before anything is timed
        computer = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        view_states, _, _ = random_game("fish", 5, 30)
        fish = GAMES["fish"]
        positions = [(fish.view(s, seat), seat) for s in view_states if (seat := fish.to_move(s)) is not None]
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(computer, think, "fish", *positions[0], LEVELS["normal"], 0)

        async def thoughts() -> list[float]:
            took = []
            for index, (view, seat) in enumerate(positions[:12]):
                started = time.perf_counter()
                await loop.run_in_executor(computer, think, "fish", view, seat, LEVELS["normal"], index)
                took.append(time.perf_counter() - started)
            return took

        games = max(1, moves // 70)  # a random Fish game is about 35 moves; each half is measured twice
        await pipeline("fish", 1, lambda seed: 2)  # warm up (imports, caches) before either is timed
        made = 0
        stop = asyncio.Event()

        async def keep_analysing() -> None:
            nonlocal made
            while not stop.is_set():
                for match_id in matches:
                    if stop.is_set():
                        return
                    await analyst.report(await service.get(match_id))
                    made += 1

        # alone, beside, alone, beside: a machine whose load changes meanwhile weighs on both alike
        alone: list[float] = []
        with_analyses: list[float] = []
        thought_alone: list[float] = []
        thought_beside: list[float] = []
        for _ in range(2):
            alone += await pipeline("fish", games, lambda seed: 2)
            thought_alone += await thoughts()
            stop.clear()
            running = asyncio.create_task(keep_analysing())
            await asyncio.sleep(1.0)  # an analysis is well under way
            with_analyses += await pipeline("fish", games, lambda seed: 2)
            thought_beside += await thoughts()
            stop.set()
            await running
        print(f"\nFish, {len(alone)} moves through the whole pipeline; {made} analyses made meanwhile:")
        print(f"  move pipeline alone           {percentiles(alone)}")
        print(f"  move pipeline with analyses   {percentiles(with_analyses)}")
        print(f"  computer's move alone         {percentiles(thought_alone)}")
        print(f"  computer's move with analyses {percentiles(thought_beside)}")
        computer.shutdown()
        await analyst.close()
        await service.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games per game (default 4)")
    parser.add_argument("--plies", type=int, default=300, help="plies of a random game at most (default 300)")
    parser.add_argument("--moves", type=int, default=300, help="moves timed through the pipeline (default 300)")
    args = parser.parse_args()
    settle()
    analyse_times(args.games, args.plies)
    asyncio.run(beside(args.moves))


if __name__ == "__main__":
    main()
