"""Shards: two bot processes on one PostgreSQL, each running its own shard's matches; one is killed and
restarted, and a third is started by mistake with both shards' ids. Then the checks that no move was lost or
doubled, no flag fell twice, every running match is loaded by exactly one live process, and the third
committed nothing (issue #21, "Processes").

Run: .venv/bin/python bench/shards.py [--seconds 60] [--matches 1000] [--url postgresql://…] [--quick]

What it does (times are fractions of --seconds, from the start of play):
- Setup, in this process: a fresh schema on the server (bench/databases.py, dropped afterwards), and
  `--matches` real two-seat matches of fish and themiscyra (seeded) created through a MatchService holding both
  leases, which it then hands back. Half are on servers of shard 0, half on shard 1 (guild ids whose
  `shard_of(guild, 2)` says so). One in five is idle: nobody moves in it, and its short clock
  (`ClockSettings(1, reserve)`, the reserves spread over the first half of the run) flags during the run. The
  others have long clocks (an hour a move) and are played.
- Children (this file with `--child`): the bot reduced to Store + Leases + MatchService, wired as
  tests/test_shards.py's `processes` fixture (the leases first, then on_gained -> `adopt`, on_lost ->
  `drop_unowned`), SHARD_COUNT 2 and SHARD_IDS from the environment (`ShardPlan.from_env`), the wall clock
  (`SystemTime`) and a short lease: `--lease` 5 s renewed every `--renew` 1 s, so that a dead process's shard
  is free in seconds rather than LEASE_SECONDS (30); keep --lease above --renew plus the time `adopt()` takes
  (printed), which runs inside the renewal, or a lease just taken lapses before it is renewed. A child
  reports the board posted for every match it loads or adopts (a front-end's repost: that starts its clock),
  then its simulated players, each with its own slice of the matches the child runs (so two never move one
  match at once), think a random time, pick a match and a random legal move for the seat to move, send it
  with `service.move(..., ply=...)` and report the next board posted. A match that ends is replaced by a new
  one on the same server. Every acknowledged move, flag (the notice the service sends once it is committed),
  refusal, lease renewal and lease gained or lost is one JSON line of the child's report file, written with
  one unbuffered write when it happens, so a killed child's file holds what it had been told.
- A (SHARD_IDS 0) and B (SHARD_IDS 1) play from 0. C (SHARD_IDS 0,1) starts at 0.2, while both live: it must
  take no lease; its players try moves in both shards' matches (and now and then to start a match) and
  must be refused. At 0.4 A is killed with SIGKILL, and A' (SHARD_IDS 0) starts `--down` seconds later: it
  holds nothing until A's lease runs out, then takes it (or C does: allowed, and then A' gets nothing),
  adopts every running match of shard 0 and reposts their boards. At 1.0 (and once every idle clock has
  flagged) each live child is told to stop (SIGTERM): its players and flag scheduler stop, it reports the
  matches it has loaded (`service.running()`) and the leases it holds, and a second SIGTERM has it hand them
  back and exit.
- Checks, from the database and the reports:
  no lost move: every acknowledged move is in the move log at its ply, seat and move;
  no doubled move: no ply acknowledged twice, logs are plies 1..n, each replays (bot/move_log.py, as
  `Registry.replay`) from its seed to the stored state at the stored ply, and the only lines nobody
  acknowledged are the killed process's, at most one per match, committed before the kill;
  no doubled flag: at most one `flag` action per match (`store.actions`), none reported twice, and every
  idle clock flagged;
  the restart: shard 0 committed nothing between the kill and the taking of its lease, which was taken only
  once the dead process's lease had run out, and the new owner adopted every match of shard 0 still running;
  every match running at the end is loaded by exactly one live process, the one whose lease the database
  holds for its shard; the owners' moves were never refused while they held their shard; and the third
  process committed nothing (a move, a match or a flag) in a shard it did not hold, and took no lease from a
  live process.
Exits 1 if any check fails (2 if no PostgreSQL server answers at --url).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentiles  # noqa: E402
from bench.databases import DEFAULT_URL, database, no_server  # noqa: E402
from bot import move_log  # noqa: E402
from bot.ai import themiscyra as themiscyra_ai  # noqa: E402
from bot.clock import ClockSettings, SystemTime  # noqa: E402
from bot.games import GAMES as ENGINES  # noqa: E402
from bot.games import GameError, Termination  # noqa: E402
from bot.models import Match, Notice, Place, Player  # noqa: E402
from bot.service import MatchNotRunning, MatchService, NotOwner, ServiceError  # noqa: E402
from bot.shards import LEASE_SECONDS, Leases, ShardPlan, shard_of  # noqa: E402
from bot.store import Store  # noqa: E402

SHARDS = 2
GAMES = ("fish", "themiscyra")
PLAY_CLOCK = ClockSettings(3600, 3600)  # played matches never flag during the run
IDLE_EVERY = 5  # one match in five is idle, with a clock that runs out
IDLE_SPREAD = 0.5  # their flags fall over this part of the run (an adopted one's later: its turn starts afresh)
GUILDS = 8  # servers per shard
GUILD_BASE = 250_000_000_000  # a snowflake's timestamp part (ms since Discord's epoch), about 2022
CREATE_TRY = 0.1  # how often a player picking a match of a shard not held here tries to start one there instead
KILL_AT, THIRD_AT = 0.4, 0.2
THIRD_REFUSALS = {"NotOwner", "MatchNotRunning", "NoSuchMatch"}


# --- the child: one bot process ---


class Report:
    """A child's report file: one JSON line per event, each one unbuffered write (a SIGKILL cuts at most the
    line being written, which the reader drops)."""

    def __init__(self, path: str, name: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self.name = name

    def write(self, kind: str, **fields: Any) -> None:
        os.write(self.fd, (json.dumps({"kind": kind, "t": time.time(), **fields}) + "\n").encode())


class ReportLog(logging.Handler):
    """The service's and the leases' warnings and errors, as report lines (lost leases, failed flags)."""

    def __init__(self, report: Report) -> None:
        super().__init__(logging.WARNING)
        self.report = report

    def emit(self, record: logging.LogRecord) -> None:
        self.report.write("log", level=record.levelname, logger=record.name, message=record.getMessage()[:300])


def random_move(game_key: str, state: object, rng: random.Random) -> str:
    """A random legal move, as a simulated player picks it; Themiscyra's players draw one turn with the
    computer player's cheap sampler (its full list of turns costs milliseconds: see bench/load.py)."""
    if game_key == "themiscyra":
        position = themiscyra_ai.position_of(state)  # type: ignore[arg-type]
        return themiscyra_ai.MODEL.notation(position, themiscyra_ai.random_turns(position, rng, 1)[0])
    return rng.choice(ENGINES[game_key].legal_moves(state))


async def child(args: argparse.Namespace) -> None:
    """Store + Leases + MatchService on the shared database, its players, and its report, until told to stop."""
    plan = ShardPlan.from_env()
    setup = json.loads(Path(args.plan).read_text())
    report = Report(args.report, args.child)
    logging.getLogger().addHandler(ReportLog(report))
    store = await Store.open(args.target)
    take_lease = store.take_lease

    async def timed_take_lease(shard: int, owner: str, now: float, until: float) -> bool:
        """The store's `take_lease`, timed: how long a renewal waits (behind this process's commits)."""
        began = time.perf_counter()
        try:
            taken = await take_lease(shard, owner, now, until)
        except Exception as error:
            report.write("lease", shard=shard, ok=False, error=type(error).__name__, ms=ms_since(began))
            raise
        report.write("lease", shard=shard, ok=taken, until=until, ms=ms_since(began))
        return taken

    store.take_lease = timed_take_lease  # type: ignore[method-assign]
    clock = SystemTime()
    leases = Leases(store, plan, clock, lease_seconds=args.lease, renew_every=args.renew)
    service = MatchService(store, clock, ownership=leases)
    players = args.players
    idle = {m["id"] for m in setup["matches"] if m["idle"]}
    slots: list[list[int]] = [[] for _ in range(players)]  # the matches run here, by player
    owned: set[int] = set()
    foreign: dict[int, list[list[int]]] = {  # the planned matches of each shard, by player, to try when not held
        shard: [
            [m["id"] for m in setup["matches"] if m["shard"] == shard and not m["idle"] and m["id"] % players == k]
            for k in range(players)
        ]
        for shard in plan.ids
    }
    tasks: set[asyncio.Task[None]] = set()

    def shard(match: Match) -> int:
        return plan.shard(match.place.guild_id)

    def take(match: Match) -> None:
        if match.id not in idle and match.id not in owned:
            owned.add(match.id)
            slots[match.id % players].append(match.id)

    def let_go(match_id: int) -> None:
        if match_id in owned:
            owned.discard(match_id)
            slots[match_id % players].remove(match_id)

    async def on_notice(notice: Notice) -> None:
        result = notice.match.result
        if notice.kind == "over" and result is not None and result.termination == Termination.FLAG:
            report.write("flag", match=notice.match.id, ply=notice.match.ply, shard=shard(notice.match))

    service.subscribe(on_notice)

    async def repost(matches: list[Match]) -> None:
        """What a front-end does for every match it loads: post its board, which starts its clock."""
        for match in matches:
            try:
                await service.board_posted(match.id, match.ply)
            except ServiceError as error:
                report.write("refused", op="post", match=match.id, shard=shard(match), error=type(error).__name__)
                continue
            take(match)

    async def gained(shard_id: int) -> None:
        report.write("gained", shard=shard_id)
        resumed = await service.adopt()
        report.write("adopted", shard=shard_id, ids=sorted(m.id for m in resumed))

        async def reposting() -> None:
            await repost(resumed)
            report.write("resumed", shard=shard_id, count=len(resumed))

        task = asyncio.create_task(reposting())  # not in the renewal: the other leases must be renewed meanwhile
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def lost(shard_id: int) -> None:
        report.write("lost", shard=shard_id)
        for match in service.drop_unowned():
            let_go(match.id)

    held = await leases.start()  # before the service: it loads only what its shards hold
    report.write("start", owner=leases.owner, held=sorted(held), pid=os.getpid(), ids=list(plan.ids))
    leases.on_gained, leases.on_lost = gained, lost
    resumed = await service.start()
    await repost(resumed)
    report.write("ready", held=sorted(leases.held), ids=sorted(m.id for m in resumed))

    async def try_move(rng: random.Random, match_id: int, mine: bool) -> None:
        try:
            match = await service.get(match_id)
        except ServiceError as error:
            report.write("refused", op="get", match=match_id, error=type(error).__name__)
            return
        if mine and not match.running:
            let_go(match_id)
            await replace_match(rng, match)
            return
        ply = match.ply
        if match.running:
            game = service.games[match.game]
            seat = game.to_move(match.state)
            assert seat is not None
            text = random_move(match.game, match.state, rng)
        else:  # over: a player who missed it sends a move anyway
            seat, text = 0, "1"
        began = time.perf_counter()
        try:
            notice = await service.move(match_id, match.players[seat].id, text, ply=ply)
        except (ServiceError, GameError) as error:
            kind = type(error).__name__
            report.write("refused", op="move", match=match_id, shard=shard(match), ply=ply, error=kind)
            if isinstance(error, NotOwner | MatchNotRunning):
                let_go(match_id)
            return
        took = ms_since(began)
        over = not notice.match.running
        report.write(
            "ack", match=match_id, shard=shard(match), seen=ply, ply=notice.match.ply, seat=seat, move=text, ms=took
        )
        if not over:
            try:
                await service.board_posted(match_id, notice.match.ply)
            except ServiceError as error:
                report.write("refused", op="post", match=match_id, shard=shard(match), error=type(error).__name__)
        elif match_id in owned:
            let_go(match_id)
            await replace_match(rng, notice.match)

    async def replace_match(rng: random.Random, over: Match) -> None:
        """A game ended: its players start another on the same server."""
        await start_match(rng, over.game, list(over.players), over.place.guild_id)

    async def start_match(rng: random.Random, game: str, seats: list[Player], guild: int | None) -> None:
        try:
            match = await service.create_match(
                game, seats, seed=rng.randrange(2**32), clock=PLAY_CLOCK, place=Place(guild_id=guild)
            )
        except ServiceError as error:
            report.write("refused", op="create", shard=plan.shard(guild), error=type(error).__name__)
            return
        report.write("created", match=match.id, shard=shard(match), guild=guild, game=game)
        try:
            await service.board_posted(match.id, 0)
        except ServiceError as error:
            report.write("refused", op="post", match=match.id, shard=shard(match), error=type(error).__name__)
            return
        take(match)

    stopping, exiting = asyncio.Event(), asyncio.Event()

    def on_term() -> None:
        (exiting if stopping.is_set() else stopping).set()

    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, on_term)

    async def player(k: int) -> None:
        rng = random.Random(f"{args.child}:{k}:{args.seed}")
        while not stopping.is_set():
            await asyncio.sleep(rng.uniform(0, 2 * args.think))
            if stopping.is_set():
                return
            away = [s for s in plan.ids if s not in leases.held and foreign[s][k]]
            try:
                if slots[k] and (not away or rng.random() >= args.foreign):
                    await try_move(rng, rng.choice(slots[k]), True)
                elif away:
                    match_id = rng.choice(foreign[rng.choice(away)][k])
                    if rng.random() < CREATE_TRY:  # a match on that server: the fence must refuse it
                        guild = next(m["guild"] for m in setup["matches"] if m["id"] == match_id)
                        seats = [Player(f"sim:{args.child}{k}a", "a"), Player(f"sim:{args.child}{k}b", "b")]
                        await start_match(rng, rng.choice(GAMES), seats, guild)
                    else:
                        await try_move(rng, match_id, False)
            except Exception as error:  # a bug of the service or of this bench: reported, and the player goes on
                report.write("error", error=f"{type(error).__name__}: {error}"[:300])

    playing = [asyncio.create_task(player(k)) for k in range(players)]
    await stopping.wait()
    await asyncio.gather(*playing)
    await asyncio.gather(*tasks)
    await service.close()  # the flag scheduler: flags being committed finish first
    report.write("final", running=sorted(m.id for m in service.running()), held=sorted(leases.held))
    await exiting.wait()
    await leases.stop()
    await store.close()
    report.write("exit")


def ms_since(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 3)


# --- the parent: setup, the run, the checks ---


@dataclass
class Child:
    """One child process as the parent drives it."""

    name: str
    stem: str
    shard_ids: str
    process: asyncio.subprocess.Process
    report: Path
    spawned: float
    killed: float | None = None

    def lines(self) -> list[dict[str, Any]]:
        """What it reported so far (a line cut off by a kill is dropped)."""
        out = []
        for line in self.report.read_text().splitlines() if self.report.exists() else ():
            with contextlib.suppress(json.JSONDecodeError):
                out.append(json.loads(line))
        return out

    def first(self, kind: str) -> dict[str, Any] | None:
        return next((line for line in self.lines() if line["kind"] == kind), None)

    async def wait_for(self, kind: str, timeout: float) -> dict[str, Any]:
        deadline = time.time() + timeout
        while (line := self.first(kind)) is None:
            if self.process.returncode is not None or time.time() > deadline:
                err = (self.report.parent / f"{self.stem}.err").read_text()[-3000:]
                raise SystemExit(f"{self.name} did not report {kind!r} (exit {self.process.returncode}):\n{err}")
            await asyncio.sleep(0.05)
        return line


def guild_ids() -> dict[int, list[int]]:
    """GUILDS real-looking server ids per shard: (timestamp << 22) | low bits, the shard from the timestamp."""
    guilds: dict[int, list[int]] = {s: [] for s in range(SHARDS)}
    n = 0
    while any(len(g) < GUILDS for g in guilds.values()):
        guild = ((GUILD_BASE + n * 7919) << 22) | (n * 613 % 4096)
        if len(guilds[shard_of(guild, SHARDS)]) < GUILDS:
            guilds[shard_of(guild, SHARDS)].append(guild)
        n += 1
    return guilds


async def set_up(args: argparse.Namespace, target: str) -> dict[str, Any]:
    """The matches, created by a service holding both leases, which it then hands back."""
    rng = random.Random(args.seed)
    store = await Store.open(target)
    leases = Leases(store, ShardPlan(SHARDS, tuple(range(SHARDS))), SystemTime())
    service = MatchService(store, ownership=leases)
    await leases.start()
    await service.start()
    guilds = guild_ids()
    idle_count = args.matches // IDLE_EVERY
    matches = []
    for i in range(args.matches):
        shard = i % SHARDS
        guild = guilds[shard][(i // SHARDS) % GUILDS]
        game = GAMES[(i // SHARDS) % len(GAMES)]
        idle = i % IDLE_EVERY == IDLE_EVERY - 1
        if idle:  # flags fall 1 s + reserve + 1 s grace after the post, over the first half of the run
            j = i // IDLE_EVERY
            reserve = 2 + max(0.0, IDLE_SPREAD * args.seconds - 4) * j / max(1, idle_count - 1)
            clock = ClockSettings(1, round(reserve, 2))
        else:
            clock = PLAY_CLOCK
        pool = 40 * shard
        a, b = rng.sample(range(pool, pool + 40), 2)
        seats = [Player(f"sim:{a}", f"player{a}"), Player(f"sim:{b}", f"player{b}")]
        match = await service.create_match(
            game, seats, seed=rng.randrange(2**32), clock=clock, place=Place(guild_id=guild)
        )
        assert shard_of(guild, SHARDS) == shard
        matches.append({"id": match.id, "shard": shard, "guild": guild, "game": game, "idle": idle})
    await leases.stop()  # handed back: the children take them at once
    await service.close()
    await store.close()
    return {"matches": matches, "guilds": {str(s): g for s, g in guilds.items()}}


async def spawn(name: str, shard_ids: str, args: argparse.Namespace, folder: Path, target: str, **extra: Any) -> Child:
    stem = name.replace("'", "2").lower()
    report = folder / f"{stem}.jsonl"
    options = {"players": args.players, "think": args.think, "foreign": 0.0, **extra}
    command = [sys.executable, __file__, "--child", name, "--target", target, "--plan", str(folder / "plan.json")]
    command += ["--report", str(report), "--lease", str(args.lease), "--renew", str(args.renew)]
    command += ["--seed", str(args.seed)]
    for key, value in options.items():
        command += [f"--{key}", str(value)]
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=ROOT,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=(folder / f"{stem}.err").open("wb"),
        env={**os.environ, "PYTHONPATH": str(ROOT), "SHARD_COUNT": str(SHARDS), "SHARD_IDS": shard_ids},
    )
    return Child(name, stem, shard_ids, process, report, time.time())


async def until(when: float) -> None:
    await asyncio.sleep(max(0.0, when - time.time()))


async def idle_left(target: str, idle: list[int]) -> int:
    """How many idle matches still run (their clocks not yet fallen)."""
    import asyncpg

    connection = await asyncpg.connect(target)
    try:
        return int(
            await connection.fetchval("SELECT COUNT(*) FROM matches WHERE status = 'running' AND id = ANY($1)", idle)
        )
    finally:
        await connection.close()


async def bench(args: argparse.Namespace, target: str, folder: Path) -> int:
    began = time.perf_counter()
    setup = await set_up(args, target)
    (folder / "plan.json").write_text(json.dumps(setup))
    idle = [m["id"] for m in setup["matches"] if m["idle"]]
    print(
        f"setup: {args.matches} matches ({len(idle)} idle with short clocks, {args.matches - len(idle)} played) on"
        f" {GUILDS} servers per shard, {SHARDS} shards, created in {time.perf_counter() - began:.1f} s"
    )
    print(
        f"leases: {args.lease:g} s, renewed every {args.renew:g} s (the bot's default: {LEASE_SECONDS:g} s);"
        f" {args.players} players per process, think 0-{2 * args.think:g} s; the third: {args.third_players}"
        f" players, half their tries in the other shard"
    )
    children: dict[str, Child] = {}
    try:
        children["A"] = await spawn("A", "0", args, folder, target)
        children["B"] = await spawn("B", "1", args, folder, target)
        for name in ("A", "B"):
            await children[name].wait_for("ready", 120)
        start = time.time()
        print(f"A (shard 0) and B (shard 1) ready {start - children['A'].spawned:.1f} s after starting them")
        await until(start + THIRD_AT * args.seconds)
        children["C"] = await spawn("C", "0,1", args, folder, target, players=args.third_players, foreign=0.5)
        await until(start + KILL_AT * args.seconds)
        a = children["A"]
        a.killed = time.time()
        a.process.send_signal(signal.SIGKILL)
        await a.process.wait()
        await until(a.killed + args.down)
        children["A'"] = await spawn("A'", "0", args, folder, target)
        await until(start + args.seconds)
        drained = time.time()
        while (left := await idle_left(target, idle)) and time.time() < drained + args.drain:
            await asyncio.sleep(0.5)
        stop = time.time()
        live = [c for c in children.values() if c.killed is None]
        for c in live:
            c.process.send_signal(signal.SIGTERM)
        for c in live:
            await c.wait_for("final", 120)
        waited = f", then {stop - drained:.1f} s more until the last idle clocks fell ({left} left)"
        print(f"played {drained - start:.1f} s{waited if stop - drained > 0.5 else ''}")
        failed = await check(args, target, setup, children, start, stop)
        for c in live:
            c.process.send_signal(signal.SIGTERM)
        for c in live:
            try:
                await asyncio.wait_for(c.process.wait(), 30)
            except TimeoutError:
                print(f"{c.name} did not exit when told to; killed")
                c.process.kill()
                failed = True
            else:
                if c.process.returncode != 0:
                    print(
                        f"{c.name} exited with {c.process.returncode}: {(folder / f'{c.stem}.err').read_text()[-2000:]}"
                    )
                    failed = True
        return 1 if failed else 0
    finally:
        for c in children.values():
            if c.process.returncode is None:
                c.process.kill()
                await c.process.wait()


@dataclass
class Holding:
    """When a process held each shard (from its reports): (from, to) intervals, `to` None while it still does.
    `usable` starts at `adopted` for a shard gained during the run (its matches are loaded only then)."""

    held: dict[int, list[list[float | None]]] = field(default_factory=lambda: defaultdict(list))
    usable: dict[int, list[list[float | None]]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, lines: list[dict[str, Any]], end: float | None) -> Holding:
        holding = cls()
        for line in lines:
            if line["kind"] == "start":
                for s in line["held"]:
                    holding.held[s].append([line["t"], None])
                    holding.usable[s].append([line["t"], None])
            elif line["kind"] == "gained":
                holding.held[line["shard"]].append([line["t"], None])
            elif line["kind"] == "adopted":
                holding.usable[line["shard"]].append([line["t"], None])
            elif line["kind"] == "lost":
                for spans in (holding.held[line["shard"]], holding.usable[line["shard"]]):
                    if spans and spans[-1][1] is None:
                        spans[-1][1] = line["t"]
        for spans in (*holding.held.values(), *holding.usable.values()):
            if spans and spans[-1][1] is None and end is not None:
                spans[-1][1] = end
        return holding

    @staticmethod
    def within(spans: list[list[float | None]], t: float) -> bool:
        return any(a is not None and a <= t and (b is None or t <= b) for a, b in spans)

    def holds(self, shard: int, t: float) -> bool:
        return self.within(self.held[shard], t)

    def can_use(self, shard: int, t: float) -> bool:
        return self.within(self.usable[shard], t)


async def check(
    args: argparse.Namespace,
    target: str,
    setup: dict[str, Any],
    children: dict[str, Child],
    start: float,
    stop: float,
) -> bool:
    """Read the reports and the database, print the figures and the verdicts; True if any check failed."""
    import asyncpg

    reports = {name: c.lines() for name, c in children.items()}
    holding = {name: Holding.of(reports[name], c.killed) for name, c in children.items()}
    owner_of = {next(line["owner"] for line in reports[n] if line["kind"] == "start"): n for n in children}
    kill = children["A"].killed
    assert kill is not None
    planned = {m["id"]: m for m in setup["matches"]}
    idle = {m for m, info in planned.items() if info["idle"]}

    store = await Store.open(target)
    connection = await asyncpg.connect(target)
    try:
        lease_rows = {r["shard"]: r["owner"] for r in await connection.fetch("SELECT shard, owner FROM leases")}
        updated = {r["id"]: r["updated_at"] for r in await connection.fetch("SELECT id, updated_at FROM matches")}
        created_at = {r["id"]: r["created_at"] for r in await connection.fetch("SELECT id, created_at FROM matches")}
        ids = await store.match_ids(None)
        matches = {m: await store.load_match(m) for m in ids}
        logs = {m: await store.log(m) for m in ids}
        actions = {m: await store.actions(m) for m in ids}
    finally:
        await connection.close()
        await store.close()

    def shard(match_id: int) -> int:
        stored = matches[match_id]
        assert stored is not None
        return shard_of(stored.place.guild_id, SHARDS)

    checks: list[tuple[str, list[str]]] = []
    acks = [(name, line) for name, lines in reports.items() for line in lines if line["kind"] == "ack"]
    flags = [(name, line) for name, lines in reports.items() for line in lines if line["kind"] == "flag"]
    created = [(name, line) for name, lines in reports.items() for line in lines if line["kind"] == "created"]
    refused = [(name, line) for name, lines in reports.items() for line in lines if line["kind"] == "refused"]
    errors = [(name, line) for name, lines in reports.items() for line in lines if line["kind"] == "error"]

    # no lost move: every acknowledged move in the log at its ply, seat and move (the canonical spelling)
    states: dict[int, list[Any]] = {}
    replay_failures: list[str] = []
    for match_id in ids:
        stored = matches[match_id]
        assert stored is not None
        game = ENGINES[stored.game]
        try:
            states[match_id] = move_log.positions(
                game, len(stored.players), stored.seed, stored.options, logs[match_id]
            )
        except move_log.ReplayError as error:
            replay_failures.append(f"match {match_id}: {error}")
            states[match_id] = []
    lost = []
    for name, ack in acks:
        log, match_id, ply = logs.get(ack["match"], []), ack["match"], ack["ply"]
        record = log[ply - 1] if 0 < ply <= len(log) else None
        before = states.get(match_id, [])
        stored = matches[match_id]
        assert stored is not None
        wanted = ENGINES[stored.game].canonical(before[ply - 1], ack["move"]) if len(before) >= ply else None
        if record is None or record.ply != ply or record.seat != ack["seat"] or record.move != wanted:
            lost.append(f"{name}'s move {ack['move']!r} (match {match_id} ply {ply}) is not in the log: {record}")
        if ply != ack["seen"] + 1:
            lost.append(f"{name}'s move in match {match_id} was sent at ply {ack['seen']} and acknowledged at {ply}")
    checks.append(("no lost move (every acknowledged move is in the move log)", lost))

    # no doubled move: each ply acknowledged once; logs are 1..n and replay to the stored state and ply;
    # the lines nobody acknowledged are the killed process's last, before the kill, at most one per match
    doubled = list(replay_failures)
    by_ply: dict[tuple[int, int], list[str]] = defaultdict(list)
    for name, ack in acks:
        by_ply[(ack["match"], ack["ply"])].append(name)
    doubled += [f"match {m} ply {p} acknowledged by {', '.join(n)}" for (m, p), n in by_ply.items() if len(n) > 1]
    unacked: dict[int, list[int]] = defaultdict(list)
    for match_id in ids:
        stored, log = matches[match_id], logs[match_id]
        assert stored is not None
        if [r.ply for r in log] != list(range(1, len(log) + 1)):
            doubled.append(f"match {match_id}: log plies {[r.ply for r in log]} are not 1..n")
        if stored.ply != len(log):
            doubled.append(f"match {match_id}: stored ply {stored.ply}, {len(log)} log lines")
        if states[match_id] and states[match_id][-1] != stored.state:
            doubled.append(f"match {match_id}: the log does not replay to the stored state")
        for record in log:
            if (match_id, record.ply) not in by_ply:
                unacked[match_id].append(record.ply)
                if shard(match_id) != 0 or record.at >= kill:
                    doubled.append(f"match {match_id} ply {record.ply} ({record.move}) was committed unacknowledged")
    doubled += [f"match {m}: {len(p)} unacknowledged lines {p}" for m, p in unacked.items() if len(p) > 1]
    if sum(map(len, unacked.values())) > args.players:
        doubled.append(f"{sum(map(len, unacked.values()))} unacknowledged lines, more than A had players")
    checks.append(("no doubled move (one ack per ply; every log replays to its stored state)", doubled))

    # no doubled flag: at most one flag action per match, reported once; every idle clock flagged
    flag_failures = []
    reported = Counter(line["match"] for _, line in flags)
    flag_actions = {m: [a for a in actions[m] if a["kind"] == "flag"] for m in ids}
    for match_id, rows in flag_actions.items():
        if len(rows) > 1:
            flag_failures.append(f"match {match_id}: {len(rows)} flag actions {rows}")
        if rows and not reported[match_id] and (shard(match_id) != 0 or rows[0]["at"] >= kill):
            flag_failures.append(f"match {match_id}: a flag nobody reported ({rows[0]})")
    flag_failures += [f"match {m}: flag reported {n} times" for m, n in reported.items() if n > 1]
    flag_failures += [f"match {m}: a reported flag is not in the actions" for m in reported if not flag_actions[m]]
    not_fallen = sorted(m for m in idle if not flag_actions[m])
    if not_fallen:
        flag_failures.append(f"{len(not_fallen)} idle clocks did not flag: {not_fallen[:10]}")
    checks.append(("no doubled flag (at most one flag action per match; every idle clock fell)", flag_failures))

    # the restart: shard 0 waits while nobody holds it, its lease is taken once the dead one's ran out,
    # and the new owner adopts every match of shard 0 still running
    restart = []
    dead_until = max(
        (line["until"] for line in reports["A"] if line["kind"] == "lease" and line["ok"] and line["shard"] == 0),
        default=None,
    )
    takers = sorted(
        (line["t"], name, line)
        for name in ("A'", "C")
        if name in reports
        for line in reports[name]
        if line["kind"] == "gained" and line["shard"] == 0
    )
    new_owner = takers[0][1] if takers else None
    taken_at = takers[0][0] if takers else None
    adopted_line = next(
        (x for x in reports.get(new_owner or "", []) if x["kind"] == "adopted" and x["shard"] == 0), None
    )
    resumed_line = next(
        (x for x in reports.get(new_owner or "", []) if x["kind"] == "resumed" and x["shard"] == 0), None
    )
    if taken_at is None or adopted_line is None or resumed_line is None:
        restart.append(f"nobody took shard 0 back after the kill (gained: {takers})")
    else:
        if dead_until is None or taken_at < dead_until:
            restart.append(f"shard 0 taken at {taken_at - kill:.3f} s, before the dead lease ran out ({dead_until})")
        expected = sorted(
            m
            for m in ids
            if shard(m) == 0 and created_at[m] < taken_at and (matches[m].running or updated[m] > taken_at)  # type: ignore[union-attr]
        )
        if adopted_line["ids"] != expected:
            missing, extra = (
                sorted(set(expected) - set(adopted_line["ids"])),
                sorted(set(adopted_line["ids"]) - set(expected)),
            )
            restart.append(
                f"{new_owner} adopted {len(adopted_line['ids'])} matches, {len(expected)} were running:"
                f" missing {missing[:10]}, extra {extra[:10]}"
            )
        for m in ids:
            if shard(m) != 0:
                continue
            early = [r for r in logs[m] if kill <= r.at < taken_at] + [
                a for a in actions[m] if kill <= a["at"] < taken_at
            ]
            if early:
                restart.append(f"match {m}: committed while shard 0 was nobody's: {early}")
        if len(takers) > 1:
            restart.append(f"shard 0 was gained more than once after the kill: {[(t[1], t[0] - kill) for t in takers]}")
    checks.append(("restart: shard 0 waited, its lease was taken back after it ran out, every match resumed", restart))

    # every running match loaded by exactly one live process, the one the database says holds its shard
    live = [n for n, c in children.items() if c.killed is None]
    finals = {n: next(x for x in reports[n] if x["kind"] == "final") for n in live}
    loaded = []
    running = [m for m in ids if matches[m].running]  # type: ignore[union-attr]
    where: dict[int, list[str]] = defaultdict(list)
    for n in live:
        for m in finals[n]["running"]:
            where[m].append(n)
    for m in running:
        holder = owner_of.get(lease_rows.get(shard(m), ""), "nobody")
        if where[m] != [holder]:
            loaded.append(f"match {m} (shard {shard(m)}, lease {holder}) is loaded by {where[m] or 'no process'}")
    loaded += [f"match {m} is not running but {n} has it loaded" for m, n in where.items() if m not in set(running)]
    for n in live:
        mine = sorted(s for s, owner in lease_rows.items() if owner_of.get(owner) == n)
        if finals[n]["held"] != mine:
            loaded.append(f"{n} says it holds {finals[n]['held']}, the database says {mine}")
    for s in range(SHARDS):
        if owner_of.get(lease_rows.get(s, "")) not in live:
            loaded.append(f"shard {s}'s lease is held by {owner_of.get(lease_rows.get(s, ''), lease_rows.get(s))}")
    checks.append(("every running match is loaded by exactly one live process, its shard's lease holder", loaded))

    # the owners were never refused while they held (and had loaded) their shard
    owners_refused = [
        f"{n} refused {x['op']} in match {x.get('match')} (shard {x['shard']}): {x['error']}"
        for n, x in refused
        if n != "C" and "shard" in x and holding[n].can_use(x["shard"], x["t"])
    ]
    owners_refused += [f"{n}: {x['error']}" for n, x in errors]
    checks.append(("the owners' moves were never refused while they held the shard", owners_refused))

    # the third: no lease taken from a live process, nothing committed in a shard it did not hold
    third = []
    c_start = next(x for x in reports["C"] if x["kind"] == "start")
    if c_start["held"]:
        third.append(f"C took {c_start['held']} at its start, while A and B lived")
    for x in reports["C"]:
        if x["kind"] == "gained" and (x["shard"] != 0 or x["t"] < kill):
            third.append(f"C took shard {x['shard']} at {x['t'] - start:.1f} s, from a live process")
    for what, events in (("move", acks), ("flag", flags), ("match", created)):
        for n, row in events:
            if n == "C" and not holding["C"].holds(row["shard"], row["t"]):
                third.append(f"C committed a {what} in shard {row['shard']} it did not hold: {row}")
    third += [
        f"C refused with {x['error']} ({x['op']})" for n, x in refused if n == "C" and x["error"] not in THIRD_REFUSALS
    ]
    checks.append(("the third process took no live lease and committed nothing", third))

    # --- the figures ---
    seconds = stop - start
    print(f"\nShards: {SHARDS} shards, processes {', '.join(children)} on one PostgreSQL, {seconds:.0f} s of play")
    print(
        f"matches: {len(ids)} ({args.matches} at the start, {len(created)} started during the run);"
        f" {len(running)} running at the end"
    )
    print(f"moves acknowledged: {len(acks)} ({len(acks) / seconds:.0f}/s)")
    unreported = sum(map(len, unacked.values()))
    print(f"  and {unreported} committed by A but not yet reported when it was killed (allowed: never promised)")
    for name in children:
        mine = [x for n, x in acks if n == name]
        life_end = children[name].killed or stop
        life_start = max(start, next((x["t"] for x in reports[name] if x["kind"] == "ready"), start))
        rate = len(mine) / max(0.001, life_end - life_start)
        shards_held = ",".join(str(s) for s in sorted(holding[name].held) if holding[name].held[s]) or "none"
        line = (
            f"  {name:3} (SHARD_IDS {children[name].shard_ids}; held {shards_held}): {len(mine):6} moves ({rate:.0f}/s)"
        )
        if mine:
            line += f"   service.move {percentiles([x['ms'] / 1000 for x in mine])}"
        print(line)
    if acks:
        print(f"service.move, all: {percentiles([x['ms'] / 1000 for _, x in acks])}")
    by_flagger = Counter(n for n, _ in flags)
    print(
        f"flags: {len(flags)} reported ({', '.join(f'{n} {k}' for n, k in sorted(by_flagger.items()))});"
        f" {sum(1 for m in ids if flag_actions[m])} matches with a flag action"
    )
    c_refusals = Counter(f"{x['op']} {x['error']}" for n, x in refused if n == "C")
    print(f"refusals by the third process (C): {sum(c_refusals.values())} ({dict(sorted(c_refusals.items()))})")
    for name in children:
        if name == "C":
            continue
        theirs = Counter(f"{x['op']} {x['error']}" for n, x in refused if n == name)
        if theirs:
            print(f"refusals by {name}: {dict(sorted(theirs.items()))}")
    for name in children:
        renewals = [x["ms"] / 1000 for x in reports[name] if x["kind"] == "lease"]
        if renewals:
            print(f"lease take/renew, {name:3}: {percentiles(renewals)}")
    warnings = Counter(f"{n}: {x['message'][:90]}" for n, lines in reports.items() for x in lines if x["kind"] == "log")
    for text, count in warnings.most_common(8):
        print(f"log  {count:4} x {text}")
    a2 = children.get("A'")
    print(f"kill: A (SIGKILL) at {kill - start:.1f} s; A' started {a2.spawned - kill:.1f} s later" if a2 else "")
    if dead_until is not None:
        print(f"  A's last lease ran until kill + {dead_until - kill:.2f} s")
    if taken_at is not None and adopted_line and resumed_line:
        restarted = new_owner == "A'" and a2 is not None
        since = f" ({taken_at - a2.spawned:.2f} s after A' started)" if restarted and a2 else " (A' gets nothing)"
        print(
            f"  shard 0 taken by {new_owner} at kill + {taken_at - kill:.2f} s{since};"
            f" {len(adopted_line['ids'])} matches adopted in {adopted_line['t'] - taken_at:.2f} s,"
            f" boards reposted {resumed_line['t'] - adopted_line['t']:.2f} s later"
        )
        since = f", {resumed_line['t'] - a2.spawned:.2f} s after A' started" if restarted and a2 else ""
        print(
            f"  resumed by {new_owner} (every adopted board reposted): kill + {resumed_line['t'] - kill:.2f} s{since}"
        )
        adopting = adopted_line["t"] - taken_at
        print(f"  adopt() took {adopting:.2f} s, beside the lease renewals (they go on while it loads)")
        shard0 = sorted(x["t"] for n, x in acks if x["shard"] == 0)
        before, after = [t for t in shard0 if t < kill], [t for t in shard0 if t >= kill]
        if before and after:
            print(
                f"  shard 0's moves stopped {after[0] - before[-1]:.2f} s (last ack before the kill to the first after)"
            )
    for s in range(SHARDS):
        print(f"shard {s}: lease held at the end by {owner_of.get(lease_rows.get(s, ''), lease_rows.get(s))}")
    failed = False
    print()
    for label, failures in checks:
        print(f"{'PASS' if not failures else 'FAIL'}  {label}")
        for failure in failures[:10]:
            print(f"        {failure}")
        if len(failures) > 10:
            print(f"        ... and {len(failures) - 10} more")
        failed = failed or bool(failures)
    return failed


async def run(args: argparse.Namespace) -> int:
    if (reason := await no_server(args.url)) is not None:
        print(reason)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        async with database("postgresql", Path(folder), args.url, "shards") as target:
            return await bench(args, target, Path(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, help="how long the players play (default 60; --quick 15)")
    parser.add_argument("--matches", type=int, help="running matches at the start (default 1000; --quick 100)")
    parser.add_argument("--url", default=DEFAULT_URL, help=f"the PostgreSQL server (default {DEFAULT_URL})")
    parser.add_argument("--quick", action="store_true", help="a short run: 15 s, 100 matches")
    parser.add_argument("--players", type=int, default=25, help="simulated players per process (default 25)")
    parser.add_argument("--third-players", type=int, default=10, help="the third process's players (default 10)")
    parser.add_argument("--think", type=float, default=0.2, help="mean think time per move, s (default 0.2)")
    parser.add_argument("--lease", type=float, default=5.0, help="the children's lease, s (default 5)")
    parser.add_argument("--renew", type=float, default=1.0, help="how often they renew it, s (default 1)")
    parser.add_argument("--down", type=float, default=1.0, help="seconds between the kill and the restart")
    parser.add_argument("--drain", type=float, default=30.0, help="at most this long more for idle clocks to fall")
    parser.add_argument("--seed", type=int, default=21)
    for hidden in ("--child", "--target", "--plan", "--report"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    parser.add_argument("--foreign", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child(args))
        return
    args.seconds = args.seconds or (15.0 if args.quick else 60.0)
    args.matches = args.matches or (100 if args.quick else 1000)
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
