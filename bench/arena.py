"""Arena: the computer (bot/ai) against simple players, or against an older version of itself.

Against simple players (the default):
    .venv/bin/python bench/arena.py [fish volcano ...] [--games 100] [--level normal] [--jobs 2]
prints, per game and opponent (--opponents, default random,greedy): wins, draws, losses and games cut at
MAX_PLIES; the computer's thinking time per move (p50/p99) and its playouts per second. Seeded: game k
uses seed k and the computer sits in seat k % 2, so both seats are measured. Iteration budgets (not the
clock) end the search, so the moves, and the win rates, are the same on any machine; only the times vary.
Targets (issue 8): 95%+ against random, 70%+ against greedy, at the normal level.

Against an older version (issue 22):
    .venv/bin/python bench/arena.py [games] --base d6375e5 [--games 100] [--move-time 0.05] [--jobs 2]
reads every bot/ai/*.py of commit BASE (`git show`) into a temporary package, its `bot.ai.` imports
rewritten to that package, so the old search and the new one run in the same process against the same
engines. Per game it prints, before and after in one run:
- speed: iterations per second of old and new on the same positions (taken from seeded greedy games),
  each searched at the level's iteration budget --rounds times in turns: the first search (the fair
  figure, since later rounds find this very search in the memos) and the fastest round (the least
  disturbed by the machine's other work), and how often both chose the same move;
- equal time: --games games of new against old with the same thinking time per move (--move-time, the
  search stops by its clock, iterations unlimited): the new version's score (a draw or a cut game counts
  half) with a 95% confidence interval, and each side's think time and iterations per move (p50/p99);
- equal iterations: --iteration-games games at the level's iteration budget and no clock, so the moves
  are repeatable: whether the new version is weaker where it is given no more work.
Seats alternate (game k: new in seat k % --players), and all players are old or new (use 2 players);
--first-seed starts the games elsewhere, for more of them.
Times are CPU time of the worker process (`time.process_time`, the search's `clock`), so other work on the
machine slows both sides alike; still, equal-time games depend on timing and do not repeat exactly.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import multiprocessing
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles
from bot.ai import LEVELS, Level, think
from bot.games import GAMES

ROOT = Path(__file__).resolve().parent.parent

MAX_PLIES = {"geyser": 4000, "volcano": 1500}
"""Where a game is cut (counted as not won): Volcano can cycle for ever, and Geyser runs long."""
BASE_PACKAGE = "bot_ai_base"
"""The name the old bot/ai is imported under."""
UNLIMITED = 10**9
"""The iteration budget of a search that only the clock ends."""


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


def finish(game_key: str, state: object, me: int) -> str:
    """won, drew, lost or cut, for seat `me`."""
    outcome = GAMES[game_key].outcome(state)
    if outcome is None:
        return "cut"
    if me in outcome.winners:
        return "won" if len(outcome.winners) == 1 else "drew"
    return "drew" if outcome.is_draw else "lost"


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
    return Result(game_key, opponent, seed, finish(game_key, state, me), plies, thinking, playouts)


def run_opponents(args: argparse.Namespace, level: Level) -> None:
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


# --- new against old --------------------------------------------------------------------------------


def write_base(commit: str, folder: Path) -> None:
    """bot/ai/*.py of `commit` as the package BASE_PACKAGE in `folder`, its imports of bot.ai rewritten."""
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", commit, "bot/ai/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    package = folder / BASE_PACKAGE
    package.mkdir()
    for path in listing:
        if path.endswith(".py"):
            text = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
            ).stdout
            (package / Path(path).name).write_text(text.replace("bot.ai.", f"{BASE_PACKAGE}."))


SIDES: dict[str, ModuleType] = {}
"""The two versions in this process, "new" (bot.ai) and "old" (the base package); see `load_sides`."""


def load_sides(folder: str) -> None:
    """Import both versions (the worker processes' initializer)."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    SIDES["new"] = importlib.import_module("bot.ai")
    SIDES["old"] = importlib.import_module(BASE_PACKAGE)


@dataclasses.dataclass(frozen=True)
class Budget:
    level: str
    seconds: float | None
    """None: the level's iteration budget ends each search; else this CPU time, iterations unlimited."""


def searched(side: str, game_key: str, view: Any, seat: int, budget: Budget, seed: int) -> Any:
    """One side's Choice for `view`, timed in CPU seconds."""
    package = SIDES[side]
    model = package.model_for(game_key)
    if budget.seconds is None:
        level = LEVELS[budget.level]
        iterations = getattr(model, "iterations", {}).get(level.name, level.iterations)
    else:
        iterations = UNLIMITED
    mcts = importlib.import_module(f"{package.__name__}.mcts")
    return mcts.search(
        model,
        view,
        seat,
        iterations=iterations,
        seconds=budget.seconds,
        rng=random.Random(seed),
        clock=time.process_time,
    )


def sample_positions(game_key: str, count: int, players: int) -> list[Any]:
    """`count` positions (a seat to move) spread over seeded games of the greedy player against itself."""
    game = GAMES[game_key]
    greedy = importlib.import_module(f"bot.ai.{game_key}").greedy
    found = []
    for seed in range(max(4, count // 4)):
        rng = random.Random(f"positions:{game_key}:{seed}")
        state = game.new(players, seed)
        plies = 0
        while (seat := game.to_move(state)) is not None and plies < 400:
            found.append(state)
            state = game.play(state, greedy(game.view(state, seat), seat, rng))
            plies += 1
    picked = random.Random(f"sample:{game_key}").sample(range(len(found)), min(count, len(found)))
    return [found[i] for i in sorted(picked)]


@dataclasses.dataclass
class Speed:
    iterations: dict[str, int]
    seconds: dict[str, float]
    """Each side's first search of the position."""
    fastest: dict[str, float]
    """Each side's fastest search of it over the rounds."""
    same: bool


def speed_one(task: tuple[str, Any, str, int]) -> Speed:
    """Both sides' search of one position, `rounds` times each in turns (old first, then new first, ...).
    The same seed gives the same search every time, so the fastest round is the least disturbed by the
    rest of the machine; but from the second round on, a side's memos already hold this very search, so
    the first round is the fair figure (a worker's memos hold earlier positions, never this one)."""
    game_key, state, level, rounds = task
    game = GAMES[game_key]
    seat = game.to_move(state)
    view = game.view(state, seat)
    budget = Budget(level, None)
    choices: dict[str, Any] = {}
    first: dict[str, float] = {}
    fastest: dict[str, float] = {}
    for round_ in range(rounds):
        for side in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
            choice = choices[side] = searched(side, game_key, view, seat, budget, seed=1)
            first.setdefault(side, choice.seconds)
            fastest[side] = min(fastest.get(side, math.inf), choice.seconds)
    return Speed(
        {side: c.iterations for side, c in choices.items()},
        first,
        fastest,
        choices["old"].move == choices["new"].move,
    )


@dataclasses.dataclass
class Match:
    seed: int
    result: str  # for the new version: won, drew, lost or cut
    plies: int
    think: dict[str, list[float]]
    iterations: dict[str, list[int]]


def versus_one(task: tuple[str, int, int, Budget]) -> Match:
    """One game: the new version in seat seed % players, the old one in the others."""
    game_key, seed, players, budget = task
    game = GAMES[game_key]
    state = game.new(players, seed)
    me = seed % players
    rng = random.Random(f"versus:{game_key}:{seed}:{budget}")
    think_times: dict[str, list[float]] = {"new": [], "old": []}
    iterations: dict[str, list[int]] = {"new": [], "old": []}
    plies = 0
    while (seat := game.to_move(state)) is not None and plies < MAX_PLIES.get(game_key, 3000):
        side = "new" if seat == me else "old"
        choice = searched(side, game_key, game.view(state, seat), seat, budget, rng.getrandbits(32))
        if choice.iterations:  # a forced move is not thought about
            think_times[side].append(choice.seconds)
            iterations[side].append(choice.iterations)
        state = game.play(state, choice.move)
        plies += 1
    return Match(seed, finish(game_key, state, me), plies, think_times, iterations)


def score_line(results: list[Match]) -> str:
    """Wins, draws, losses and cut games of the new version, its score and a 95% confidence interval."""
    points = [{"won": 1.0, "lost": 0.0}.get(r.result, 0.5) for r in results]
    n = len(points)
    mean = sum(points) / n
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / max(1, n - 1) / n)
    tally = {kind: sum(r.result == kind for r in results) for kind in ("won", "drew", "lost", "cut")}
    return (
        f"new won {tally['won']} drew {tally['drew']} lost {tally['lost']} cut {tally['cut']} of {n} "
        f"-> {mean:.1%} (95% CI {max(0.0, mean - 1.96 * spread):.1%}..{min(1.0, mean + 1.96 * spread):.1%})"
    )


def per_move(values: list[float], scale: float, unit: str, digits: int = 1) -> str:
    """p50 and p99 of `values` times `scale`, followed by `unit`."""
    if not values:
        return "none"
    ordered = sorted(values)
    at = [ordered[min(len(ordered) - 1, int(q * len(ordered)))] * scale for q in (0.5, 0.99)]
    return f"p50 {at[0]:,.{digits}f}{unit} p99 {at[1]:,.{digits}f}{unit}"


def print_speed(game_key: str, level: str, speeds: list[Speed], rounds: int, started: float) -> None:
    def rates(field: str) -> str:
        """Both sides' iterations per second over the searches' `field` ("seconds" or "fastest")."""
        rate = {
            side: sum(s.iterations[side] for s in speeds) / max(1e-9, sum(getattr(s, field)[side] for s in speeds))
            for side in ("old", "new")
        }
        return f"old {rate['old']:,.0f} it/s, new {rate['new']:,.0f} it/s -> x{rate['new'] / rate['old']:.2f}"

    fastest = f"; fastest of {rounds} rounds {rates('fastest')}" if rounds > 1 else ""
    print(
        f"{game_key:10} speed, {level} budget on {len(speeds)} positions: first search {rates('seconds')}"
        f"{fastest}; same move {sum(s.same for s in speeds)} of {len(speeds)}   "
        f"({time.perf_counter() - started:.0f} s)"
    )
    for side in ("old", "new"):
        print(f"{'':10}    {side} think per move: {percentiles([s.seconds[side] for s in speeds])}")
    sys.stdout.flush()


def run_base(args: argparse.Namespace, pool: Any) -> None:
    for game_key in args.games:
        started = time.perf_counter()
        positions = sample_positions(game_key, args.positions, args.players)
        tasks = [(game_key, state, args.level, args.rounds) for state in positions]
        speeds = [s for s in pool.imap_unordered(speed_one, tasks) if s.iterations["new"]]
        if speeds:
            print_speed(game_key, args.level, speeds, args.rounds, started)
        matches = [("equal time", Budget(args.level, args.move_time), args.count)]
        matches.append(("equal iterations", Budget(args.level, None), args.iteration_games))
        for name, budget, count in matches:
            if not count:
                continue
            started = time.perf_counter()
            games = [(game_key, seed, args.players, budget) for seed in range(args.first_seed, args.first_seed + count)]
            results = list(pool.imap_unordered(versus_one, games))
            what = f"{budget.seconds * 1000:.0f} ms CPU per move" if budget.seconds else f"{args.level} iterations"
            print(
                f"{game_key:10} {name} ({what}): {score_line(results)}   "
                f"plies p50 {sorted(r.plies for r in results)[len(results) // 2]}   "
                f"({time.perf_counter() - started:.0f} s)"
            )
            for side in ("new", "old"):
                times = [t for r in results for t in r.think[side]]
                counts = [float(i) for r in results for i in r.iterations[side]]
                print(
                    f"{'':10}    {side}: think per move {per_move(times, 1000, ' ms')}, "
                    f"iterations per move {per_move(counts, 1, '', 0)}"
                )
            sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), help="game keys (default: all five)")
    parser.add_argument("--games", dest="count", type=int, default=100, help="games per opponent or match")
    parser.add_argument("--level", default="normal", choices=list(LEVELS))
    parser.add_argument("--opponents", help="comma-separated (default random,greedy; none with --base)")
    parser.add_argument("--players", type=int, default=2, help="seats per game")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (one process each)")
    parser.add_argument("--no-time-limit", action="store_true", help="end each search by its iterations only")
    parser.add_argument("--base", help="a git commit: play bot/ai as it is against bot/ai as it was there")
    parser.add_argument("--move-time", type=float, default=0.05, help="CPU seconds per move, equal-time games")
    parser.add_argument("--iteration-games", type=int, default=40, help="games at equal iterations (with --base)")
    parser.add_argument("--positions", type=int, default=30, help="positions the speed is measured on")
    parser.add_argument(
        "--rounds", type=int, default=3, help="searches per position and side (first and fastest shown)"
    )
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first new-against-old game")
    args = parser.parse_args()
    level = LEVELS[args.level]
    level = dataclasses.replace(level, seconds=None if args.no_time_limit else level.seconds)
    if args.base is None or args.opponents:
        args.opponents = args.opponents or "random,greedy"
        run_opponents(args, level)
    if args.base is not None:
        with tempfile.TemporaryDirectory() as folder:
            write_base(args.base, Path(folder))
            context = multiprocessing.get_context("spawn")
            with context.Pool(args.jobs, initializer=load_sides, initargs=(folder,)) as pool:
                run_base(args, pool)


if __name__ == "__main__":
    main()
