"""Correspondence load: 10,000 running play-by-post matches in one process, one MatchService on a real SQLite
file, every clock and reminder armed on the one deadline scheduler; then six hours of their play on a fake
clock. Prints how late reminders and flags were (p50/p99/max), memory, and the checks that no reminder went
out twice, early, or not at all.

Run: .venv/bin/python bench/correspondence.py [--matches 10000] [--hours 6] [--untimed 0.2] [--tracemalloc]

What it does:
- Matches: `--matches` two-player matches (fish, themiscyra, horizon and geyser in turn): 70% on a 1d/7d
  clock (a day a move, a week of reserve), 10% on 2h/3h (so last reminders, "30 minutes left", and flags
  fall within the run too) and `--untimed` (20%) with no clock. Each first board is reported posted
  (`board_posted`, which stores and arms the turn's reminders) with a post time spread over the past (up to
  12 h ago on 1d/7d, an hour on 2h/3h, a day untimed): all 10,000 are armed, and about a third of them
  fall due in the six hours, spread through them.
- Players: each seat is prompt (moves 2 to 30 h into its turn), slow (12 h to 7 days) or gone (never: every
  reminder, then the flag). A move's next board is reported posted at once, as a front-end does, which plans
  the next turn's reminders.
- Time: the service runs on a FakeTime that jumps from one due time (a reminder, a flag, a player's move)
  to the next; the bench notes the wall time of each jump, and a notice's lateness is the wall time from the
  jump that made it due to its arrival: the scheduler waking, the match lock, the reminder's transaction,
  the notice. Why not a scaled wall clock: days of 10,000 matches compressed into a minute multiply their
  moves and reminders by the scale too (thousands of times), far past what one SQLite file commits a
  second, so a scaled run measures the database's queue, not the timers (1,000 matches at x38,880:
  reminders p50 283 ms, p99 1.8 s, behind 160 moves/s). Here events come one at a time, as they do in
  production (10,000 matches moving once a day make an event every few seconds), and the 30 s sweep over
  every match runs as often in virtual time as it would in production.
- Checks: no reminder twice and none early; every reminder and flag due while its turn was still on came;
  `PRAGMA integrity_check` is ok.
- Memory: the process's resident size (RSS) before the matches and with all of them running and armed;
  `--tracemalloc` adds Python's own count of what they hold (and slows the setup down).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import heapq
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, settle
from bench.load import random_move
from bot.clock import ClockSettings, FakeTime
from bot.games import Termination
from bot.models import Match, Notice, Player
from bot.reminders import DAY, HOUR, reminders
from bot.service import MatchService, ServiceError
from bot.store import Store

GAMES = ("fish", "themiscyra", "horizon", "geyser")
LONG = ClockSettings(DAY, 7 * DAY)
SHORT = ClockSettings(2 * HOUR, 3 * HOUR)
KINDS = (("prompt", 0.5), ("slow", 0.3), ("gone", 0.2))
WAIT = 5.0
"""Real seconds to wait for a notice that is due before counting it missing."""


@dataclass
class Tally:
    expected: list[tuple[float, str, int, int]] = field(default_factory=list)  # heap: (due, kind, match, ply)
    moves: list[tuple[float, int, int]] = field(default_factory=list)  # heap: (when, match, ply)
    arrived: dict[tuple[str, int, int], list[float]] = field(default_factory=dict)  # (kind, match, ply) -> walls
    reached: dict[tuple[str, int, int], int] = field(default_factory=dict)  # how many of them have fallen due
    reminder_late: list[float] = field(default_factory=list)
    flag_late: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    moved: int = 0
    missed: int = 0


def kind_of(rng: random.Random) -> str:
    roll, total = rng.random(), 0.0
    for kind, share in KINDS:
        total += share
        if roll < total:
            return kind
    return KINDS[-1][0]


def think(kind: str, rng: random.Random) -> float | None:
    """Seconds into its turn a seat of this kind moves (None: never)."""
    if kind == "prompt":
        return rng.uniform(2 * HOUR, 30 * HOUR)
    if kind == "slow":
        return rng.uniform(12 * HOUR, 7 * DAY)
    return None


class Bench:
    """The front-end and the players: reports boards posted, plans the players' moves, and records what is
    due (from bot/reminders.py's policy, on the clock as posted) and what arrived."""

    def __init__(self, service: MatchService, clock: FakeTime, seats: dict[int, tuple[str, str]], seed: int) -> None:
        self.service = service
        self.clock = clock
        self.seats = seats
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.waiting: tuple[tuple[str, int, int], asyncio.Future[None]] | None = None
        """The notice `arrival` is waiting for, and what it waits on."""
        service.subscribe(self.on_notice)

    async def posted(self, match_id: int, ply: int, at: float) -> None:
        """The turn's board is up (at `at`): its clock starts, and what will fall due in it is noted."""
        await self.service.board_posted(match_id, ply, at=at)
        match = self.service.running_match(match_id)
        if match is None or match.ply != ply:
            return
        seat = self.service.game(match).to_move(match.state)
        assert seat is not None
        for reminder in reminders(match.clock, at if match.clock is None else None):
            heapq.heappush(self.tally.expected, (reminder.when, "reminder", match_id, ply))
        if match.clock is not None and (flag := match.clock.flag_time()) is not None:
            # a flag falls once its time has passed (`MatchClock.flagged`: now > flag time), so just after it
            heapq.heappush(self.tally.expected, (flag + 0.001, "flag", match_id, ply))
        delay = think(self.seats[match_id][seat], self.rng)
        if delay is not None:
            heapq.heappush(self.tally.moves, (max(self.clock.now() + 1, at + delay), match_id, ply))

    async def on_notice(self, notice: Notice) -> None:
        wall = time.perf_counter()
        match = notice.match
        if notice.kind == "moved" and match.running:
            await self.posted(match.id, match.ply, self.clock.now())
            return
        if notice.kind == "reminder":
            key = ("reminder", match.id, match.ply)
        elif notice.kind == "over" and match.result is not None and match.result.termination is Termination.FLAG:
            key = ("flag", match.id, match.ply)
        else:
            return
        arrived = self.tally.arrived.setdefault(key, [])
        arrived.append(wall)
        if self.waiting is not None and self.waiting[0] == key and not self.waiting[1].done():
            self.waiting[1].set_result(None)
        if len(arrived) > self.tally.reached.get(key, 0):
            self.tally.problems.append(f"{key[0]} of match {match.id} ply {match.ply}: early, or once too often")

    def current(self, match_id: int, ply: int) -> Match | None:
        match = self.service.running_match(match_id)
        return match if match is not None and match.ply == ply else None

    async def run(self, until: float) -> None:
        """Jump from one due time to the next until `until`, waiting at each for what fell due."""
        tally = self.tally
        while True:
            while tally.expected and self.current(tally.expected[0][2], tally.expected[0][3]) is None:
                heapq.heappop(tally.expected)  # its turn is over: it is void
            next_due = tally.expected[0][0] if tally.expected else until
            next_move = tally.moves[0][0] if tally.moves else until
            when = min(next_due, next_move, until)
            if when >= until:
                return
            self.clock.advance(max(0.0, when - self.clock.now()))
            wall = time.perf_counter()
            if next_move <= next_due:
                _, match_id, ply = heapq.heappop(tally.moves)
                await self.move(match_id, ply)
                continue
            due, kind, match_id, ply = heapq.heappop(tally.expected)
            key = (kind, match_id, ply)
            tally.reached[key] = tally.reached.get(key, 0) + 1
            await self.arrival(kind, match_id, ply, due, wall)

    async def move(self, match_id: int, ply: int) -> None:
        match = self.current(match_id, ply)
        if match is None:
            return
        seat = self.service.game(match).to_move(match.state)
        assert seat is not None
        try:
            await self.service.move(match_id, match.players[seat].id, random_move(match.game, match.state, self.rng))
            self.tally.moved += 1
        except ServiceError as error:
            self.tally.problems.append(f"match {match_id}: move refused: {error}")

    async def arrival(self, kind: str, match_id: int, ply: int, due: float, wall: float) -> None:
        """Wait for the notice of an event that has just fallen due; note its lateness."""
        tally = self.tally
        key = (kind, match_id, ply)
        before = len(tally.arrived.get(key, []))
        if len(tally.arrived.get(key, [])) == before:  # wait without spinning (a busy loop would take the GIL
            self.waiting = (key, asyncio.get_running_loop().create_future())  # from the database's thread)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.waiting[1], WAIT)
            self.waiting = None
        got = tally.arrived.get(key, [])
        if len(got) == before:
            if self.current(match_id, ply) is not None or kind == "flag":
                tally.missed += 1
                tally.problems.append(f"{kind} of match {match_id} ply {ply} due {due:.0f} did not come")
            return
        late = got[before] - wall
        (tally.reminder_late if kind == "reminder" else tally.flag_late).append(late)


def rss_mb() -> float:
    """The resident set size now (Linux /proc), else the peak (ru_maxrss), in MB."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def main_async(args: argparse.Namespace) -> int:
    clock = FakeTime()
    rng = random.Random(19)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "correspondence.sqlite3")
        service = MatchService(store, clock)
        await service.start()
        seats: dict[int, tuple[str, str]] = {}
        bench = Bench(service, clock, seats, seed=7)
        settle()
        before = rss_mb()
        if args.tracemalloc:
            tracemalloc.start()
        setup = time.perf_counter()
        t0 = clock.now()
        for i in range(args.matches):
            roll = rng.random()
            settings, back = (None, DAY) if roll < args.untimed else (SHORT, HOUR) if i % 8 == 0 else (LONG, 12 * HOUR)
            players = [Player(f"sim:{2 * i}", f"p{2 * i}"), Player(f"sim:{2 * i + 1}", f"p{2 * i + 1}")]
            match = await service.create_match(GAMES[i % len(GAMES)], players, seed=i, clock=settings)
            seats[match.id] = (kind_of(rng), kind_of(rng))
            await bench.posted(match.id, 0, t0 - rng.uniform(0, back))
        made = time.perf_counter() - setup
        armed = rss_mb()
        heap = tracemalloc.get_traced_memory() if args.tracemalloc else None
        tracemalloc.stop()
        planned = len(await store.load_reminders())
        print(f"setup: {args.matches} matches created and posted in {made:.1f} s; {planned} reminders stored")

        started = time.perf_counter()
        await bench.run(t0 + args.hours * HOUR)
        elapsed = time.perf_counter() - started
        running = len(service.running())
        await service.close()
        tally = bench.tally
        integrity = await store.integrity_check()
        await store.close()

    problems = list(tally.problems)
    if integrity != "ok":
        problems.append(f"integrity_check: {integrity}")
    print(f"\n{args.matches} correspondence matches, {args.hours:g} virtual hours in {elapsed:.0f} s")
    print(f"moves: {tally.moved}; still running at the end: {running}")
    print(f"reminders: {len(tally.reminder_late)}; lateness {percentiles(tally.reminder_late)}")
    if tally.flag_late:
        print(f"flags:     {len(tally.flag_late)}; lateness {percentiles(tally.flag_late)}")
    print(
        f"memory: RSS {before:.0f} MB before the matches, {armed:.0f} MB with all {args.matches} running and armed"
        f" ({(armed - before) * 1024 / args.matches:.1f} KB a match)"
    )
    if heap is not None:
        print(f"tracemalloc: {heap[0] / 2**20:.1f} MB held by Python for them (peak {heap[1] / 2**20:.1f} MB)")
    print(f"checks: {'all passed' if not problems else f'{len(problems)} FAILED'}")
    for problem in problems[:20]:
        print("  ", problem)
    return 1 if problems else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="running matches (default 10000)")
    parser.add_argument("--hours", type=float, default=6, help="virtual hours played (default 6)")
    parser.add_argument("--untimed", type=float, default=0.2, help="share of matches with no clock (default 0.2)")
    parser.add_argument("--tracemalloc", action="store_true", help="also count Python's allocations (slower)")
    args = parser.parse_args()
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
