"""A real crash: a process playing moves is killed with SIGKILL; a new service on the same database must
find every move it acknowledged, an intact database, and the match running with its clock. On SQLite and
on PostgreSQL (where the server rolls back the killed process's open transaction)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.models import RUNNING
from bot.service import MatchService
from bot.store import Store

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.backends

PLAYER = textwrap.dedent(
    """
    import asyncio, random, sys
    from bot.clock import ClockSettings
    from bot.games import GAMES
    from bot.models import Player
    from bot.service import MatchService
    from bot.store import Store

    async def main():
        store = await Store.open(sys.argv[1])
        service = MatchService(store)
        await service.start()
        players = [Player("local:alice", "alice"), Player("local:bob", "bob")]
        match = await service.create_match("fish", players, seed=9, clock=ClockSettings(300, 600))
        await service.board_posted(match.id, 0)
        rng = random.Random(9)
        fish = GAMES["fish"]
        while match.running:
            seat = fish.to_move(match.state)
            notice = await service.move(match.id, players[seat].id, rng.choice(fish.legal_moves(match.state)))
            match = notice.match
            await service.board_posted(match.id, match.ply)
            print("ack", match.id, match.ply, flush=True)  # acknowledged only after the commit
            if match.ply == 12:
                print("waiting", flush=True)
                await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


async def test_sigkill_mid_game_loses_no_acknowledged_move(database: Path | str) -> None:
    db = str(database)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        PLAYER,
        db,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acked: list[tuple[int, int]] = []
    assert process.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode().split()
        assert line, "the player process ended early"
        if line[0] == "waiting":
            break
        acked.append((int(line[1]), int(line[2])))
    process.send_signal(signal.SIGKILL)
    await process.wait()

    store = await Store.open(db)
    try:
        assert await store.integrity_check() == "ok"
        service = MatchService(store)
        resumed = await service.start()
        match_id, last_ply = acked[-1]
        assert [m.id for m in resumed] == [match_id]
        match = resumed[0]
        assert match.status == RUNNING and match.ply == last_ply == 12
        assert [r.ply for r in await store.moves(match_id)] == list(range(1, 13))
        fish = GAMES["fish"]
        state = fish.new(2, match.seed, **match.options)
        for record in await store.moves(match_id):
            state = fish.play(state, record.move)
        assert state == match.state
        assert match.clock is not None and match.clock.turn_started is None  # waits for the repost
        await service.close()
    finally:
        await store.close()
