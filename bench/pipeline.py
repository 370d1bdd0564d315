"""The move path per game, before and after a change, in one run: `service.move` alone (the checks, the
engine, one transaction) and the whole pipeline (with the board drawn and reported posted).

Run: .venv/bin/python bench/pipeline.py [--games N] [--base REV] [--rounds R] [--only fish,volcano]

With `--base REV` (a commit, a branch, `HEAD~3`) the same measurement is made on a checkout of REV (a
temporary `git worktree`, with this very script copied into it) and on the working tree, each in a fresh
process, taking turns `--rounds` times (base, now, base, now...): on a machine others load, both versions
meet the same load, and the samples of all rounds are pooled. Seeded random games, the same moves for both.
Besides the wall-clock figures, `cpu` is the process's CPU time for the whole pipeline (its threads
included): it moves far less with the machine's load, so it says better which version does less work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
GAMES = {"fish": lambda seed: 2, "volcano": lambda seed: seed % 3 + 1, "themiscyra": lambda seed: 2}
GAMES |= {"geyser": lambda seed: seed % 3 + 2, "horizon": lambda seed: 2}
MAX_PLIES = 200


async def measure(game_key: str, games: int) -> dict[str, list[float]]:
    """Seconds per move for `service.move` alone and for the whole pipeline."""
    from bot import posts
    from bot.clock import ClockSettings
    from bot.models import Player
    from bot.service import MatchService
    from bot.store import Store

    names = ("alice", "bob", "carol", "dave")
    found: dict[str, list[float]] = {"move": [], "pipeline": [], "cpu": []}
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        service = MatchService(store)
        await service.start()
        game = service.games[game_key]
        for seed in range(games):
            rng = random.Random(seed)
            players = [Player(f"local:{name}", name) for name in names[: GAMES[game_key](seed)]]
            match = await service.create_match(game_key, players, seed=seed, clock=ClockSettings(3600, 3600))
            await service.board_posted(match.id, 0)
            for _ in range(MAX_PLIES):
                if not match.running:
                    break
                seat = game.to_move(match.state)
                move = rng.choice(game.legal_moves(match.state))
                start, cpu = time.perf_counter(), time.process_time()
                notice = await service.move(match.id, match.players[seat].id, move, ply=match.ply)
                moved = time.perf_counter()
                await asyncio.to_thread(posts.build, service, notice.match, notice.lines, time.time())
                await service.board_posted(match.id, notice.match.ply)
                found["move"].append(moved - start)
                found["pipeline"].append(time.perf_counter() - start)
                found["cpu"].append(time.process_time() - cpu)
                match = notice.match
        await service.close()
        await store.close()
    return found


WHAT = ("move", "pipeline", "cpu")
Samples = dict[str, dict[str, list[float]]]


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return tuple(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 for q in (0.5, 0.99))  # type: ignore[return-value]


def run_here(games: int, keys: list[str]) -> Samples:
    sys.path.insert(0, str(HERE))
    from bench.common import settle

    settle()
    return {key: asyncio.run(measure(key, games)) for key in keys}


def run_in(folder: Path, games: int, keys: list[str]) -> Samples:
    """The measurement in a fresh process on the code in `folder` (its own imports, cold caches)."""
    out = subprocess.run(
        [sys.executable, str(folder / "bench" / "pipeline.py"), "--games", str(games), "--only", ",".join(keys)]
        + ["--json"],
        check=True,
        capture_output=True,
        text=True,
        cwd=folder,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def pooled(into: Samples | None, more: Samples) -> Samples:
    if into is None:
        return more
    for key, found in more.items():
        for what, samples in found.items():
            into[key][what] += samples
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per game (default 6)")
    parser.add_argument("--base", help="a commit to measure too, taking turns with the working tree")
    parser.add_argument("--rounds", type=int, default=3, help="turns each version takes with --base (default 3)")
    parser.add_argument("--only", help="the games to measure, by key, comma-separated (default all)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    keys = args.only.split(",") if args.only else list(GAMES)
    if args.json:
        sys.path.insert(0, str(Path.cwd()))
        print(json.dumps(run_here(args.games, keys)))
        return
    base: Samples | None = None
    now: Samples | None = None
    if args.base:
        folder = Path(tempfile.mkdtemp(prefix="bench-base-"))
        try:
            subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(folder), args.base], check=True,
                           capture_output=True)  # fmt: skip
            shutil.copy(Path(__file__), folder / "bench" / "pipeline.py")
            for _ in range(args.rounds):
                base = pooled(base, run_in(folder, args.games, keys))
                now = pooled(now, run_in(HERE, args.games, keys))
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(folder)], capture_output=True)
            shutil.rmtree(folder, ignore_errors=True)
    else:
        now = run_here(args.games, keys)
    assert now is not None
    rounds = f", {args.rounds} rounds each version, taking turns" if base else ""
    print(f"ms per move, {args.games} seeded games a game, at most {MAX_PLIES} plies each{rounds}")
    head = f"{'':11} {'':9}" + (f"{'base p50':>10} {'p99':>7}   " if base else "") + f"{'now p50':>9} {'p99':>7}"
    print(head)
    for key in keys:
        for what in WHAT:
            p50, p99 = figures(now[key][what])
            was = "{:10.2f} {:7.2f}   ".format(*figures(base[key][what])) if base else ""
            print(f"{key:11} {what:9}{was}{p50:9.2f} {p99:7.2f}")


if __name__ == "__main__":
    main()
