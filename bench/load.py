"""Load: one process, one MatchService on a real database, 1,000 running matches getting moves from
simulated players, and 10,000 armed clocks falling over the run. Prints throughput, move latency, flag
lateness, and the verdicts of the checks that nothing was lost or doubled; on SQLite and on PostgreSQL in
turn, then both side by side (bench/databases.py).

Run: .venv/bin/python bench/load.py [--seconds 60] [--matches 1000] [--clocks 10000] [--think 5]
                                    [--backends sqlite,postgresql] [--database postgresql://…]

What it does:
- Play: `--matches` casual matches (the five games in turn, 1 to 4 seats where the game allows) created
  through the service with clocks that do not run out. One task per match is the players at that board:
  it waits a random think time (uniform 0 to 2 x `--think` seconds), picks a random legal move for the seat
  to move and sends it with `service.move(..., ply=...)` and the ply it saw, the way a button does, then
  reports the board posted (`board_posted`, which starts the next clock), as a front-end does. One send
  in 20 is sent twice at once (a double click, or two front-ends): exactly one must win and the other be
  refused as stale. A match that ends is replaced by a new one, so the count stays the same.
- Clocks: `--clocks` two-player matches whose reserves are set so that, once their boards are reported
  posted at the start of the run, their flags fall at known times spread over the run. A listener on the
  service's notices records when each flag was committed and announced; lateness is that moment minus
  the flag time (`MatchClock.flag_time()`: deadline + LAG_GRACE). The service uses the wall clock.
- No rendering: drawing 1,000 matches' boards would keep one process on 2 cores busy drawing, not
  testing the service. The latency here is the service's share of a move: `service.move` (lock, checks,
  the engine, one transaction) and, separately, `service.move` + `board_posted` (a second transaction).
  The per-game scripts (bench/fish.py, ...) report the whole pipeline with the board drawn.
- Checks at the end: every acknowledged move is in the move log exactly once, at its ply, in order, with
  no line nobody acknowledged; replaying each log (`MatchService.replay`) gives the stored state; every
  double send had one winner and one stale refusal; every clock flagged, none early; `PRAGMA
  integrity_check` is ok.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles, settle
from bench.databases import add_options, on_each_backend, p50_p99, side_by_side
from bot.ai import themiscyra as themiscyra_ai
from bot.clock import ClockSettings
from bot.games import GAMES as ENGINES
from bot.models import Player
from bot.service import MatchNotRunning, MatchService, Notice, StaleBoard
from bot.store import Store

GAMES = ("fish", "volcano", "themiscyra", "geyser", "horizon")
SEATS = {"fish": (2,), "volcano": (1, 2, 3, 4), "themiscyra": (2,), "geyser": (2, 3, 4), "horizon": (2,)}
PLAY_CLOCK = ClockSettings(3600, 3600)  # play matches never flag during the run
DOUBLE_SEND = 0.05


@dataclass
class Tally:
    """What the simulated players and the flag listener saw."""

    acked: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)  # match -> (ply, seat, move)
    move_latency: list[float] = field(default_factory=list)
    pipeline_latency: list[float] = field(default_factory=list)
    doubles: int = 0
    double_failures: list[str] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    flag_due: dict[int, float] = field(default_factory=dict)  # match -> flag time
    flag_seen: dict[int, float] = field(default_factory=dict)  # match -> when the notice came
    games_ended: int = 0
    play_matches: list[int] = field(default_factory=list)


def players_for(rng: random.Random, index: int, seats: int) -> list[Player]:
    """Distinct simulated players; ids are reused across matches, as real players sit at several boards."""
    ids = rng.sample(range(3 * max(1, index // 3 + 1) + 10), seats)
    return [Player(f"sim:{n}", f"player{n}") for n in ids]


async def new_play_match(service: MatchService, rng: random.Random, index: int, tally: Tally) -> int:
    game = GAMES[index % len(GAMES)]
    seats = rng.choice(SEATS[game])
    match = await service.create_match(
        game, players_for(rng, index, seats), seed=rng.randrange(2**32), clock=PLAY_CLOCK
    )
    await service.board_posted(match.id, 0)
    tally.play_matches.append(match.id)
    tally.acked[match.id] = []
    return match.id


def random_move(game_key: str, state: object, rng: random.Random) -> str:
    """A random legal move, as a simulated player picks it. Real players think on their own machines, so
    their thinking must not stall the bot's event loop here: Themiscyra's full list of turns costs
    milliseconds, so its players draw one turn with the computer player's cheap sampler instead."""
    if game_key == "themiscyra":
        position = themiscyra_ai.position_of(state)  # type: ignore[arg-type]
        return themiscyra_ai.MODEL.notation(position, themiscyra_ai.random_turns(position, rng, 1)[0])
    return rng.choice(ENGINES[game_key].legal_moves(state))


async def play(service: MatchService, index: int, match_id: int, stop: float, think: float, tally: Tally) -> None:
    """The players at one board: think, send a random legal move with the ply seen, report the post."""
    rng = random.Random(index)
    while True:
        await asyncio.sleep(min(rng.uniform(0, 2 * think), max(0.0, stop - time.time())))
        if time.time() >= stop:
            return
        match = await service.get(match_id)
        if not match.running:
            tally.games_ended += 1
            match_id = await new_play_match(service, rng, index, tally)
            continue
        game = service.games[match.game]
        seat = game.to_move(match.state)
        ply = match.ply
        move = random_move(match.game, match.state, rng)
        player = match.players[seat].id
        start = time.perf_counter()
        if rng.random() < DOUBLE_SEND:
            tally.doubles += 1
            results = await asyncio.gather(
                service.move(match_id, player, move, ply=ply),
                service.move(match_id, player, move, ply=ply),
                return_exceptions=True,
            )
            won = [r for r in results if isinstance(r, Notice)]
            lost = [r for r in results if not isinstance(r, Notice)]
            if len(won) != 1 or not isinstance(lost[0], StaleBoard | MatchNotRunning):
                tally.double_failures.append(f"match {match_id} ply {ply}: {results!r}")
                if not won:
                    continue
            notice = won[0]
        else:
            try:
                notice = await service.move(match_id, player, move, ply=ply)
            except Exception as error:  # nothing else moves this match, so any refusal is a finding
                kind = type(error).__name__
                tally.refused[kind] = tally.refused.get(kind, 0) + 1
                continue
        moved = time.perf_counter()
        tally.acked[match_id].append((notice.match.ply, seat, move))
        assert notice.match.ply == ply + 1
        await service.board_posted(match_id, notice.match.ply)
        tally.move_latency.append(moved - start)
        tally.pipeline_latency.append(time.perf_counter() - start)


async def post_clocks(service: MatchService, ids: list[int], tally: Tally) -> None:
    """The front-end reports every flag match's board posted (as after a restart): each clock is armed."""
    for match_id in ids:
        await service.board_posted(match_id, 0)
        match = await service.get(match_id)
        assert match.clock is not None
        flag_time = match.clock.flag_time()
        assert flag_time is not None
        tally.flag_due[match_id] = flag_time


async def check(service: MatchService, store: Store, tally: Tally) -> list[str]:
    """Every acknowledged move in the log once, in order; logs replay to the stored states."""
    failures: list[str] = []
    checked = 0
    for match_id in tally.play_matches:
        log = await store.log(match_id)
        acked = tally.acked[match_id]
        stored = await store.load_match(match_id)
        assert stored is not None
        game = service.games[stored.game]
        if [r.ply for r in log] != list(range(1, len(log) + 1)):
            failures.append(f"match {match_id}: log plies {[r.ply for r in log]} are not 1..n")
        if [a[0] for a in acked] != [r.ply for r in log]:
            failures.append(f"match {match_id}: acknowledged plies {[a[0] for a in acked]} != log {len(log)} lines")
            continue
        state = game.new(len(stored.players), stored.seed, **stored.options)
        for (_, seat, sent), record in zip(acked, log, strict=True):
            if record.seat != seat or record.move != game.canonical(state, sent) or record.kind != "move":
                failures.append(f"match {match_id} ply {record.ply}: log {record} but {sent!r} was acknowledged")
            state = game.play(state, sent)
            checked += 1
        if state != stored.state or service.replay(stored, await store.log(match_id)) != stored.state:
            failures.append(f"match {match_id}: the log does not replay to the stored state")
        if stored.ply != len(log):
            failures.append(f"match {match_id}: stored ply {stored.ply}, log {len(log)} lines")
    for match_id, due in tally.flag_due.items():
        stored = await store.load_match(match_id)
        assert stored is not None
        if stored.running or match_id not in tally.flag_seen:
            failures.append(f"clock of match {match_id} (due {due:.3f}) did not flag")
        elif tally.flag_seen[match_id] < due:
            failures.append(f"match {match_id} flagged {due - tally.flag_seen[match_id]:.3f} s early")
    integrity = await store.integrity_check()
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    print(f"checked {checked} acknowledged moves in {len(tally.play_matches)} matches' logs")
    return failures


async def run_on(args: argparse.Namespace, backend: str, target: str) -> tuple[dict[str, str], list[str]]:
    """One load run on one store: prints its figures as it goes; returns them (for the side-by-side table)
    and the failed checks."""
    store = await Store.open(target)
    service = MatchService(store)
    await service.start()
    tally = Tally()
    rng = random.Random(2024)
    print(f"\n=== {backend}: {store.path}")

    setup = time.perf_counter()
    play_ids = [await new_play_match(service, rng, i, tally) for i in range(args.matches)]
    flag_ids = []
    for i in range(args.clocks):
        game = ("fish", "themiscyra", "geyser", "horizon")[i % 4]
        # Flags fall 2 s + reserve after the post; posting every clock takes a few seconds of the run.
        reserve = 1 + (args.seconds - 6) * i / max(1, args.clocks - 1)
        match = await service.create_match(game, players_for(rng, i, 2), seed=i, clock=ClockSettings(1, reserve))
        flag_ids.append(match.id)
    setup_seconds = time.perf_counter() - setup
    print(f"setup: {args.matches} play matches + {args.clocks} clock matches created in {setup_seconds:.1f} s")

    async def on_notice(notice: Notice) -> None:
        if notice.kind == "over" and notice.match.id in tally.flag_due:
            tally.flag_seen[notice.match.id] = time.time()

    service.subscribe(on_notice)
    settle()
    started = time.time()
    stop = started + args.seconds
    poster = asyncio.create_task(post_clocks(service, flag_ids, tally))
    await asyncio.gather(*(play(service, i, m, stop, args.think, tally) for i, m in enumerate(play_ids)))
    await poster
    elapsed = time.time() - started
    last_flag = max(tally.flag_due.values(), default=0)
    while len(tally.flag_seen) < len(tally.flag_due) and time.time() < last_flag + 5:
        await asyncio.sleep(0.1)
    await service.close()

    moves = len(tally.move_latency)
    print(f"Load for {elapsed:.1f} s: {args.matches} running matches, think time 0-{2 * args.think:g} s")
    print(f"moves acknowledged: {moves} ({moves / elapsed:.0f}/s); {tally.games_ended} games ended and replaced")
    print(f"service.move                 {percentiles(tally.move_latency)}")
    print(f"service.move + board_posted  {percentiles(tally.pipeline_latency)}   (no rendering)")
    print(f"double sends: {tally.doubles}, with not exactly one winner: {len(tally.double_failures)}")
    if tally.refused:
        print(f"refused single sends (should be none): {tally.refused}")
    lateness = [tally.flag_seen[m] - due for m, due in tally.flag_due.items() if m in tally.flag_seen]
    late = sum(1 for x in lateness if x > 0.1)
    if lateness:
        print(f"flags: {len(lateness)} of {len(tally.flag_due)}; lateness {percentiles(lateness)}")
        print(f"flags later than 100 ms: {late}")
    failures = tally.double_failures + await check(service, store, tally)
    failures += [f"{n} single sends refused ({k})" for k, n in tally.refused.items()]
    await store.close()
    print(f"checks: {'all passed' if not failures else f'{len(failures)} FAILED'}")
    for failure in failures[:20]:
        print("  ", failure)
    figures = {
        "setup (matches created)": f"{setup_seconds:.1f} s",
        "moves acknowledged": f"{moves} ({moves / elapsed:.0f}/s)",
        "service.move p50 / p99": p50_p99(tally.move_latency),
        "move + board_posted p50 / p99": p50_p99(tally.pipeline_latency),
        "flags fallen": f"{len(lateness)} of {len(tally.flag_due)}",
        "flag lateness p50 / p99": p50_p99(lateness, 1),
        "flags later than 100 ms": str(late),
        "double sends, one winner each": f"{tally.doubles - len(tally.double_failures)} of {tally.doubles}",
        "checks": "all passed" if not failures else f"{len(failures)} FAILED",
    }
    return figures, failures


async def run(args: argparse.Namespace) -> int:
    columns, failed = await on_each_backend(args, "load", lambda backend, target: run_on(args, backend, target))
    title = f"Load, {args.matches} matches, {args.clocks} clocks, {args.seconds:g} s, think 0-{2 * args.think:g} s"
    print(side_by_side(title, columns))
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the players play (default 60)")
    parser.add_argument("--matches", type=int, default=1000, help="running matches (default 1000)")
    parser.add_argument("--clocks", type=int, default=10000, help="armed clocks that fall during the run")
    parser.add_argument("--think", type=float, default=5.0, help="mean think time per move, s (default 5)")
    add_options(parser)
    args = parser.parse_args()
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
