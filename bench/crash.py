"""Crash: kill the bot's service with SIGKILL at random moments while moves are being committed, restart it
on the same database, and check that nothing acknowledged was lost and everything resumes.

Run: .venv/bin/python bench/crash.py [--kills 200] [--matches 12] [--seed 1] [--backends sqlite,postgresql]
                                     [--database postgresql://…]

The kills run on SQLite, then on PostgreSQL (a fresh schema of --database's server: there the server rolls
back what the killed child had not committed), and the figures are printed side by side (bench/databases.py).

Each round starts a child process (this file with `--child DB`): the service and store on the database,
`service.start()` (which resumes every running match), boards reported posted, then several tasks play
random legal moves in many matches through `service.move(..., ply=...)` and write `ack <match> <ply>
<seat> <move>` (one unbuffered write) only after `service.move` returned, i.e. after the commit. A finished match is
replaced by a new one (a match past 150 plies is aborted first, so logs stay short to replay). The child
is killed with SIGKILL after a random delay: a quarter of the kills land while it starts up (loading
matches, resetting clocks), the rest while it plays. Then this process checks the database:
- `PRAGMA integrity_check` is ok;
- every acknowledged move is in the move log at its ply with its seat and move (lines committed but not yet
  acknowledged when the kill came may be there too: they were never promised);
- the log's plies are 1..n with no gap (the primary key refuses a doubled ply);
- a new service's `start()` resumes exactly the matches stored as running, each with the stored state equal
  to the replay of its log and ply equal to the log's length;
- clocks resume: each resumed clock keeps its seat and reserves and waits for the repost; once the board is
  reported posted it runs again with the full move allowance.
Children start cheaply (only the service, the store and the engines are imported).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.databases import add_options, on_each_backend, side_by_side  # noqa: E402
from bot.db import redact  # noqa: E402

GAMES = ("fish", "volcano", "themiscyra", "geyser", "horizon")
SEATS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 3, "horizon": 2}
MAX_PLIES = 150
PLAYERS = 6


async def child(db: str, matches: int, seed: int) -> None:
    """The bot, reduced to its service and store: resume, then play moves in a loop until killed."""
    from bot.clock import ClockSettings
    from bot.models import Player
    from bot.service import MatchService, ServiceError
    from bot.store import Store

    store = await Store.open(db)
    service = MatchService(store)
    resumed = await service.start()
    for match in resumed:
        await service.board_posted(match.id, match.ply)
    os.write(1, f"ready {len(resumed)}\n".encode())
    rng = random.Random(seed)
    clock = ClockSettings(600, 3600)

    async def new_match(n: int) -> int:
        game = GAMES[n % len(GAMES)]
        players = [Player(f"local:p{i}", f"p{i}") for i in rng.sample(range(PLAYERS), SEATS[game])]
        match = await service.create_match(game, players, seed=rng.randrange(2**32), clock=clock)
        await service.board_posted(match.id, 0)
        return match.id

    ids = [m.id for m in service.running()]
    while len(ids) < matches:
        ids.append(await new_match(len(ids)))

    async def player(slots: list[int]) -> None:
        while True:
            slot = rng.choice(slots)
            match = await service.get(ids[slot])
            if not match.running:
                ids[slot] = await new_match(slot)
                continue
            if match.ply >= MAX_PLIES:
                await service.moderation.abort(match.id, Player("local:mod", "mod"))
                continue
            game = service.games[match.game]
            seat = game.to_move(match.state)
            move = rng.choice(game.legal_moves(match.state))
            try:
                notice = await service.move(match.id, match.players[seat].id, move, ply=match.ply)
            except ServiceError as error:
                os.write(1, f"refused {match.id} {type(error).__name__}\n".encode())
                continue
            os.write(1, f"ack {match.id} {notice.match.ply} {seat} {move}\n".encode())  # one write: a whole line
            await service.board_posted(match.id, notice.match.ply)

    tasks = 4
    await asyncio.gather(*(player(list(range(t, len(ids), tasks))) for t in range(tasks)))


async def check(db: str, acked: list[tuple[int, int, int, str]]) -> list[str]:
    """After a kill: integrity, acknowledged moves, resumed matches and their clocks."""
    from bot.service import MatchService
    from bot.store import Store

    failures: list[str] = []
    store = await Store.open(db)
    try:
        integrity = await store.integrity_check()
        if integrity != "ok":
            failures.append(f"integrity_check: {integrity}")
        logs = {m: await store.log(m) for m in {a[0] for a in acked}}
        for match_id, ply, seat, move in acked:
            log = logs[match_id]
            record = log[ply - 1] if ply <= len(log) else None
            if record is None or record.ply != ply or record.seat != seat or record.move.split(" [")[0] != move:
                failures.append(f"acknowledged move {move!r} (match {match_id} ply {ply}) is not in the log: {record}")
        running = await store.match_ids()
        before = {m: await store.load_match(m) for m in running}
        service = MatchService(store)
        resumed = await service.start()
        if sorted(m.id for m in resumed) != running:
            failures.append(f"resumed {sorted(m.id for m in resumed)}, running in the store {running}")
        for match in resumed:
            log = await store.log(match.id)
            if [r.ply for r in log] != list(range(1, len(log) + 1)) or match.ply != len(log):
                failures.append(f"match {match.id}: ply {match.ply}, log plies {[r.ply for r in log]}")
            if service.replay(match, await store.log(match.id)) != match.state:
                failures.append(f"match {match.id}: the stored state is not the replay of its log")
            old = before[match.id]
            assert old is not None
            clock = match.clock
            if clock is None or old.clock is None:
                failures.append(f"match {match.id} lost its clock")
                continue
            if clock.seat != old.clock.seat or clock.reserves != old.clock.reserves or clock.turn_started is not None:
                failures.append(f"match {match.id}: clock {old.clock} did not resume as {clock}")
            await service.board_posted(match.id, match.ply)
            posted = (await service.get(match.id)).clock
            if posted is None or not posted.running or posted.move_left_at(service.time.now()) < 599:
                failures.append(f"match {match.id}: the clock does not run after the repost: {posted}")
        await service.close()
    finally:
        await store.close()
    return failures


async def round_(db: str, rng: random.Random, matches: int, number: int) -> tuple[int, list[str], bool]:
    """One child life: start, kill at a random moment, check. Returns (acks checked, failures, killed mid-play)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--child",
        db,
        "--matches",
        str(matches),
        "--seed",
        str(number),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    acked: list[tuple[int, int, int, str]] = []
    refused: list[str] = []  # each match is moved by one task only, so any refusal is a finding
    during_start = rng.random() < 0.25

    async def read() -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            words = line.decode().split(maxsplit=4)
            if not line.endswith(b"\n"):  # cut off by the kill: the write had not returned, so no promise
                break
            if words[0] == "ack":
                acked.append((int(words[1]), int(words[2]), int(words[3]), words[4].rstrip("\n")))
            elif words[0] == "refused":
                refused.append(line.decode().strip())
            elif words[0] == "ready":
                ready.set()

    ready = asyncio.Event()
    reader = asyncio.create_task(read())
    if during_start:
        await asyncio.sleep(rng.uniform(0, 0.4))
    else:
        await asyncio.wait_for(ready.wait(), 60)
        await asyncio.sleep(rng.uniform(0.05, 1.0))
    process.send_signal(signal.SIGKILL)
    await process.wait()
    await reader  # everything the child flushed before it died was acknowledged
    if process.returncode != -signal.SIGKILL:
        return len(acked), [f"the child ended by itself ({process.returncode})"], not during_start
    return len(acked), refused + await check(db, acked), not during_start


async def run_on(db: str, args: argparse.Namespace) -> tuple[dict[str, str], list[str]]:
    """Every kill on one database; returns the figures (for the side-by-side table) and the failures."""
    rng = random.Random(args.seed)
    kills = acks = mid_play = 0
    failures: list[str] = []
    started = time.perf_counter()
    for number in range(args.kills):
        count, found, playing = await round_(db, rng, args.matches, number)
        kills += 1
        acks += count
        mid_play += playing
        failures += [f"kill {number + 1}: {f}" for f in found]
        if (number + 1) % 20 == 0:
            print(f"{number + 1} kills, {acks} acknowledged moves checked, {len(failures)} failures", flush=True)
    seconds = time.perf_counter() - started
    print(f"kills: {kills}; acknowledged moves checked: {acks}; failures: {len(failures)} ({seconds:.0f} s)")
    for failure in failures[:20]:
        print("  ", failure)
    survived = kills - len({failure.split(":")[0] for failure in failures})
    figures = {
        "kills (mid-play / at start-up)": f"{kills} ({mid_play} / {kills - mid_play})",
        "kills survived intact": f"{survived} of {kills}",
        "acknowledged moves checked": str(acks),
        "acknowledged moves lost": str(sum("is not in the log" in failure for failure in failures)),
        "failures": str(len(failures)),
        "time": f"{seconds:.0f} s",
    }
    return figures, failures


async def run(args: argparse.Namespace) -> int:
    async def on(backend: str, db: str) -> tuple[dict[str, str], list[str]]:
        print(f"\n=== {backend}: {redact(db)}", flush=True)
        return await run_on(db, args)

    columns, failed = await on_each_backend(args, "crash", on)
    print(side_by_side(f"Crash: SIGKILL at random moments, {args.kills} kills, {args.matches} matches", columns))
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200, help="how many times to kill the bot (default 200)")
    parser.add_argument("--matches", type=int, default=12, help="running matches the child plays in (default 12)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", metavar="DB", help=argparse.SUPPRESS)
    add_options(parser)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args.child, args.matches, args.seed))
    else:
        sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
