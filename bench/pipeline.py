"""The move path per game, before and after a change, in one run: `service.move` alone (the checks, the
engine, one transaction) and the whole pipeline (with the board drawn and reported posted).

Run: .venv/bin/python bench/pipeline.py [--games N] [--base REV]

With `--base REV` (a commit, a branch, `HEAD~3`) the same measurement is made first on a checkout of
REV (a temporary `git worktree`, with this very script copied into it) and then on the working tree, and
both are printed side by side: the figures come from one machine in one sitting, which is the only fair
comparison. Seeded random games, the same moves for both versions.
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
    found: dict[str, list[float]] = {"move": [], "pipeline": []}
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
                start = time.perf_counter()
                notice = await service.move(match.id, match.players[seat].id, move, ply=match.ply)
                moved = time.perf_counter()
                await asyncio.to_thread(posts.build, service, notice.match, notice.lines, time.time())
                await service.board_posted(match.id, notice.match.ply)
                found["move"].append(moved - start)
                found["pipeline"].append(time.perf_counter() - start)
                match = notice.match
        await service.close()
        await store.close()
    return found


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return tuple(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 for q in (0.5, 0.99))  # type: ignore[return-value]


def run_here(games: int) -> dict[str, dict[str, tuple[float, float]]]:
    sys.path.insert(0, str(HERE))
    from bench.common import settle

    settle()
    return {key: {what: figures(s) for what, s in asyncio.run(measure(key, games)).items()} for key in GAMES}


def run_at(rev: str, games: int) -> dict[str, dict[str, tuple[float, float]]]:
    """The same measurement on a checkout of `rev`, in a child process (its own imports)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-base-"))
    try:
        subprocess.run(
            ["git", "-C", str(HERE), "worktree", "add", "--detach", str(folder), rev], check=True, capture_output=True
        )
        shutil.copy(Path(__file__), folder / "bench" / "pipeline.py")
        out = subprocess.run(
            [sys.executable, str(folder / "bench" / "pipeline.py"), "--games", str(games), "--json"],
            check=True,
            capture_output=True,
            text=True,
            cwd=folder,
        )
        return json.loads(out.stdout)
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per game (default 6)")
    parser.add_argument("--base", help="a commit to measure first, printed beside the working tree")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        sys.path.insert(0, str(Path.cwd()))
        print(json.dumps(run_here(args.games)))
        return
    base = run_at(args.base, args.games) if args.base else None
    now = run_here(args.games)
    print(f"ms per move, {args.games} seeded games a game, at most {MAX_PLIES} plies each")
    head = f"{'':11} {'':9}" + (f"{'base p50':>10} {'p99':>7}   " if base else "") + f"{'now p50':>9} {'p99':>7}"
    print(head)
    for key in GAMES:
        for what in ("move", "pipeline"):
            p50, p99 = now[key][what]
            was = f"{base[key][what][0]:10.2f} {base[key][what][1]:7.2f}   " if base else ""
            print(f"{key:11} {what:9}{was}{p50:9.2f} {p99:7.2f}")


if __name__ == "__main__":
    main()
