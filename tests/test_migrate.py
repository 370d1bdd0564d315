"""`python3 -m bot migrate --to postgresql://…` (bot/migrate.py): a SQLite database with games running and over,
a death match, ratings, settings and the rest, copied into an empty PostgreSQL database (a fresh schema per
test) and checked; the PostgreSQL store then holds the same matches and the bot carries on there."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot import migrate
from bot.clock import ClockSettings, FakeTime
from bot.games import GAMES
from bot.models import Place, Player
from bot.service import MatchService
from bot.store import Store
from tests.conftest import ALICE, BOB, MOD, TEST_GAMES, Recorder

pytestmark = pytest.mark.backends("postgresql")

ROOT = Path(__file__).resolve().parent.parent
CAROL = Player("local:carol", "carol")
GUILD = Place(guild_id=900_000_000_000_000_042, channel_id=900_000_000_000_000_043)


async def play(service: MatchService, match_id: int, plies: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        match = await service.get(match_id)
        game = service.game(match)
        if not match.running:
            return
        seat = game.to_move(match.state)
        await service.move(match_id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))


async def fill(path: Path, fake_time: FakeTime) -> dict[str, int]:
    """A database as a server's bot leaves it: every table has rows. Returns some ids."""
    store = await Store.open(path, TEST_GAMES)
    service = MatchService(store, fake_time)
    await service.start()
    Recorder(service)
    try:
        fish = await service.create_match("fish", [ALICE, BOB], seed=5, place=GUILD, clock=ClockSettings(600, 3600))
        await play(service, fish.id, 5, 1)
        await service.moderation.undo(fish.id, MOD)
        volcano = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, place=GUILD)
        await play(service, volcano.id, 3, 2)
        await service.playing.resign(volcano.id, CAROL.id)
        rated = await service.create_match("toy", [ALICE, BOB], place=GUILD)
        for mover, move in [(ALICE, "2"), (BOB, "2"), (ALICE, "1")]:
            await service.move(rated.id, mover.id, move)
        aborted = await service.create_match("geyser", [ALICE, BOB], seed=7)
        await play(service, aborted.id, 2, 3)
        await service.moderation.abort(aborted.id, MOD)
        series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None, place=GUILD)
        first_game = (await service.registry.get_series(series.id)).games[0]
        while (game := await service.get(first_game)).running:  # alice wins the first game
            mover = game.players[TEST_GAMES["toy"].to_move(game.state)]
            await service.move(first_game, mover.id, "2" if mover == ALICE else "1")
        takeback = await service.create_match("toy", [ALICE, BOB, CAROL], place=GUILD)
        await service.move(takeback.id, ALICE.id, "2")
        await service.takebacks.request(takeback.id, ALICE.id)
        await service.lobbies.open_lobby("volcano", CAROL, place=GUILD)
        await service.challenges.record_challenge(900_000_000_000_000_777, GUILD.guild_id, ALICE, BOB)
        await service.settings.set(GUILD.guild_id, "rated", "on", MOD)
        await service.reminding.choose(BOB.id, "dm")
        await service.away.go_away(CAROL, GUILD.guild_id, 2)
        tournament = await service.tournaments.open("toy", "roundrobin", MOD, place=GUILD)
        for player in (ALICE, BOB, CAROL):
            await service.tournaments.join(tournament.id, player)
        await service.tournaments.start_tournament(tournament.id, MOD)  # round 1: a game and a bye
        return {"fish": fish.id, "volcano": volcano.id, "series": series.id, "tournament": tournament.id}
    finally:
        await service.close()
        await store.close()


async def test_a_whole_database_is_copied_checked_and_carries_on(
    tmp_path: Path, database: str, fake_time: FakeTime
) -> None:
    source = tmp_path / "bot.sqlite3"
    ids = await fill(source, fake_time)
    report = await migrate.migrate(source, database, TEST_GAMES)
    assert report.ok, report.lines()
    assert set(report.counts) == set(migrate.TABLES) and all(a == b > 0 for a, b in report.counts.values())
    assert report.replayed == 5  # fish, volcano, the takeback's game, the series' second game, the tournament's
    text = "\n".join(report.lines())
    assert text.startswith(f"Copied {source} into {database}.") and "OK: every table and every row" in text

    old, new = await Store.open(source, TEST_GAMES), await Store.open(database, TEST_GAMES)
    try:
        for match_id in await old.match_ids(None):
            before, after = await old.load_match(match_id), await new.load_match(match_id)
            assert before is not None and after is not None
            game = TEST_GAMES[before.game]
            assert (game.dumps(after.state), after.clock, after.result) == (
                game.dumps(before.state),
                before.clock,
                before.result,
            )
            assert await new.log(match_id) == await old.log(match_id)
        assert await new.load_series(ids["series"]) == await old.load_series(ids["series"])
        assert await new.top_ratings(GUILD.guild_id, "toy", 10) == await old.top_ratings(GUILD.guild_id, "toy", 10)
        assert await new.load_settings() == await old.load_settings()
        assert await new.takebacks() == await old.takebacks()
        assert await new.load_tournament(ids["tournament"]) == await old.load_tournament(ids["tournament"])
        assert await new.tournament_games(ids["tournament"]) == await old.tournament_games(ids["tournament"])

        service = MatchService(new, fake_time)  # the bot, started on PostgreSQL
        resumed = await service.start()
        assert sorted(m.id for m in resumed) == await old.match_ids()
        Recorder(service)
        await play(service, ids["fish"], 1, 9)
        fresh = await service.create_match("fish", [ALICE, BOB], seed=1)
        assert fresh.id == max(await old.match_ids(None)) + 1  # the identity sequence moved past the copied ids
        async with new.transaction():
            await new.log_action(fresh.id, "probe", None, "", 0.0)
        await service.close()
    finally:
        await old.close()
        await new.close()

    # a second run finds the database full and copies nothing
    assert await migrate.run(["--to", database, "--from", str(source)], tmp_path / "unused.sqlite3", TEST_GAMES) == 2


async def test_a_copy_whose_log_does_not_replay_to_its_state_is_a_mismatch(
    tmp_path: Path, database: str, fake_time: FakeTime, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bot.sqlite3"
    ids = await fill(source, fake_time)
    store = await Store.open(source, TEST_GAMES)
    fish = GAMES["fish"]
    async with store.transaction():  # a stored state its log does not lead to
        await store._db.execute("UPDATE matches SET state = ? WHERE id = ?", (fish.dumps(fish.new(2, 5)), ids["fish"]))
    await store.close()
    assert await migrate.run(["--to", database, "--from", str(source)], source, TEST_GAMES) == 1
    out = capsys.readouterr().out
    assert f"match #{ids['fish']}: its log replays to another state than the one stored" in out
    assert "MISMATCH (1): do not start the bot on this copy." in out


async def test_nothing_is_copied_from_a_missing_file_or_to_anything_but_postgresql(tmp_path: Path) -> None:
    with pytest.raises(migrate.Refused, match="there is no SQLite database at"):
        await migrate.migrate(tmp_path / "none.sqlite3", "postgresql://postgres@127.0.0.1:5432/postgres")
    with pytest.raises(migrate.Refused, match="--to must be a postgresql:// URL"):
        await migrate.migrate(tmp_path / "none.sqlite3", str(tmp_path / "other.sqlite3"))


async def test_the_command_line(tmp_path: Path, database: str, fake_time: FakeTime) -> None:
    source = tmp_path / "data" / "bot.sqlite3"
    store = await Store.open(source)
    service = MatchService(store, fake_time)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await play(service, match.id, 3, 1)
    await store.close()
    env = {**os.environ, "DATABASE_PATH": str(source), "DISCORD_TOKEN": ""}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--to", database], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Copied {source} into {database}." and "moves                     3           3" in lines
    assert lines[-2:] == [
        "running matches replayed from their logs to their stored states: 1",
        "OK: every table and every row is the same on both. Set DATABASE_URL to it to run the bot there.",
    ]
    again = subprocess.run(
        [sys.executable, "-m", "bot", "migrate", "--to", database], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert again.returncode == 2 and again.stdout.startswith(f"Nothing copied: {database} is not empty (matches: 1")
