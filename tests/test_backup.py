"""Online backups (bot/backup.py): made while matches run and moves commit, checked, pruned, scheduled, restored.

Restoring follows the README's steps: copy a backup over the database file (no -wal/-shm beside it), or on
PostgreSQL `pg_restore` the dump into a database, and start a new store and service on it; every match and
move up to the backup is there and running matches resume with their clocks. On SQLite and on PostgreSQL
(with pg_dump; without it, the bot says backups are the database's job).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shutil
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.backup import (
    DUMP_PATTERN,
    PATTERN,
    BackupError,
    BackupSchedule,
    BackupsElsewhere,
    backup,
    backups,
    integrity,
    prune,
)
from bot.clock import ClockSettings, FakeTime
from bot.config import Config
from bot.db import SQLITE
from bot.db_postgres import libpq_environment
from bot.local import Terminal
from bot.models import Player
from bot.service import MatchService
from bot.store import Store
from tests.conftest import TEST_GAMES, Recorder, eventually
from tests.databases import fresh_database, with_search_path

pytestmark = pytest.mark.backends

CAROL = Player("local:carol", "carol")
PLAYERS = [Player("local:alice", "alice"), Player("local:bob", "bob"), CAROL]


async def start_matches(service: MatchService) -> list[int]:
    """A clocked Fish match, a Volcano game of three and a Geyser game, each a few moves in."""
    Recorder(service)  # posts every board at once, so clocks start
    fish = await service.create_match("fish", PLAYERS[:2], seed=5, clock=ClockSettings(30, 60))
    volcano = await service.create_match("volcano", PLAYERS, seed=5)
    geyser = await service.create_match("geyser", PLAYERS[:2], seed=5)
    ids = [fish.id, volcano.id, geyser.id]
    for match_id in ids:
        await play(service, match_id, 4, random.Random(match_id))
    return ids


async def play(service: MatchService, match_id: int, plies: int, rng: random.Random) -> None:
    """Random legal moves by whoever is to move."""
    for _ in range(plies):
        match = await service.get(match_id)
        game = service.game(match)
        seat = game.to_move(match.state)
        if not match.running or seat is None:
            return
        await service.move(match_id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))


async def logs(store: Store, ids: list[int]) -> dict[int, list]:
    return {match_id: await store.log(match_id) for match_id in ids}


def restore(copy: Path, database: Path) -> None:
    """The README's restore steps: the backup over the database file, and no stale -wal/-shm beside it."""
    shutil.copyfile(copy, database)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)


@asynccontextmanager
async def restorer(store: Store, tmp_path: Path) -> AsyncIterator[Callable[[Path], Awaitable[Path | str]]]:
    """Restores a backup the README's way, somewhere other than the running database; the function returns
    where to open a store on it. SQLite: a copy over a file. PostgreSQL: `pg_restore --clean --if-exists`
    into a database of its own (the dump names the schema it came from)."""
    if store.backend == SQLITE:
        target = tmp_path / "restored" / "bot.sqlite3"
        target.parent.mkdir(exist_ok=True)

        async def copy(path: Path) -> Path | str:
            restore(path, target)
            return target

        yield copy
        return
    _, schema = libpq_environment(store._db.url)  # type: ignore[attr-defined]
    assert schema is not None
    async with fresh_database() as url:
        environment, _ = libpq_environment(url)

        async def pg_restore(path: Path) -> Path | str:
            database = f"--dbname={environment['PGDATABASE']}"
            command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--exit-on-error", database, str(path)]
            result = await asyncio.to_thread(
                subprocess.run, command, env={**os.environ, **environment}, capture_output=True, text=True
            )
            assert result.returncode == 0, result.stderr
            return with_search_path(url, schema)

        yield pg_restore


async def test_a_backup_made_while_moves_commit_restores_every_match_and_clock(
    service: MatchService, tmp_path: Path, fake_time: FakeTime
) -> None:
    ids = await start_matches(service)
    folder = tmp_path / "backups"

    async def keep_playing() -> None:
        rng = random.Random(1)
        for _ in range(12):
            for match_id in ids:
                await play(service, match_id, 1, rng)

    mover = asyncio.create_task(keep_playing())
    made = []
    while not mover.done():  # backups taken while moves commit on the bot's own connection
        made.append(await backup(service.store, folder))
        await asyncio.sleep(0)
    await mover
    made.append(await backup(service.store, folder))
    assert len(made) >= 2 and all(path.exists() for path in made)
    final = await logs(service.store, ids)

    async with restorer(service.store, tmp_path) as restore_copy:
        for copy in made:
            assert integrity(copy) == "ok"
            assert not Path(f"{copy}-wal").exists()  # a single self-contained file
            store = await Store.open(await restore_copy(copy), TEST_GAMES)
            try:
                assert await store.integrity_check() == "ok"
                for match_id, log in (await logs(store, ids)).items():
                    assert log == final[match_id][: len(log)]  # every move up to the backup, none torn
                    match = await store.load_match(match_id)
                    assert match is not None and match.ply == len(log)
            finally:
                await store.close()

        # the newest backup holds everything; running matches resume with their clocks, and play goes on
        store = await Store.open(await restore_copy(made[-1]), TEST_GAMES)
        await resume_and_play(service, store, fake_time, ids, final)


async def resume_and_play(
    service: MatchService, store: Store, fake_time: FakeTime, ids: list[int], final: dict[int, list]
) -> None:
    again = MatchService(store, fake_time)
    try:
        resumed = {match.id: match for match in await again.start()}
        assert await logs(store, ids) == final
        for match_id in ids:
            original = await service.get(match_id)
            if original.running:
                assert match_id in resumed
                assert service.game(original).dumps(original.state) == again.game(original).dumps(
                    resumed[match_id].state
                )
        fish, before = resumed[ids[0]], (await service.get(ids[0])).clock  # the clocked match is still running
        assert fish.clock is not None and before is not None and fish.clock.reserves == before.reserves
        Recorder(again)
        for match_id in resumed:
            await again.board_posted(match_id, resumed[match_id].ply)
            await play(again, match_id, 1, random.Random(0))
            assert len(await store.log(match_id)) == len(final[match_id]) + 1
    finally:
        await again.close()
        await store.close()


async def test_old_backups_beyond_keep_are_deleted(service: MatchService, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    suffix, pattern = (".sqlite3", PATTERN) if service.store.backend == SQLITE else (".pgdump", DUMP_PATTERN)
    start = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    for hour in range(5):
        await backup(service.store, folder, keep=3, now=start + timedelta(hours=hour))
    assert [p.name for p in backups(folder)] == [
        f"bot-20261129-140000{suffix}",
        f"bot-20261129-150000{suffix}",
        f"bot-20261129-160000{suffix}",
    ]
    # two in the same second get distinct names, and the later one counts as newer
    same = await backup(service.store, folder, keep=3, now=start + timedelta(hours=4))
    assert same.name == f"bot-20261129-160000-2{suffix}" and backups(folder)[-1] == same
    (folder / "notes.txt").write_text("not a backup")
    assert len(prune(folder, 1)) == 2  # 14:00 went when the fourth one came
    assert (folder / "notes.txt").exists() and [p.name for p in folder.glob(pattern)] == [same.name]


async def test_a_backup_that_cannot_be_written_is_refused_clearly(service: MatchService, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(BackupError, match="could not write a backup"):
        await backup(service.store, blocker)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("BACKUP_HOURS", "daily", "BACKUP_HOURS must be a number of hours"),
        ("BACKUP_HOURS", "-1", "BACKUP_HOURS must be a number of hours"),
        ("BACKUP_HOURS", "nan", "BACKUP_HOURS must be a number of hours"),
        ("BACKUP_HOURS", "9000", "BACKUP_HOURS must be a number of hours"),
        ("BACKUP_KEEP", "0", "BACKUP_KEEP must be a whole number"),
        ("BACKUP_KEEP", "two", "BACKUP_KEEP must be a whole number"),
        ("BACKUP_KEEP", "1.5", "BACKUP_KEEP must be a whole number"),
        ("BACKUP_KEEP", "²", "BACKUP_KEEP must be a whole number"),
    ],
)
def test_bad_backup_settings_are_refused(name: str, value: str, words: str) -> None:
    with pytest.raises(SystemExit, match=words):
        Config.load({name: value}, dotenv=None)


def test_backup_settings_and_their_defaults(tmp_path: Path) -> None:
    config = Config.load({}, dotenv=None)
    assert config.backup_hours == 24 and config.backup_keep == 7 and config.backups.parts[-2:] == ("data", "backups")
    config = Config.load({"BACKUP_DIR": str(tmp_path), "BACKUP_HOURS": "0.5", "BACKUP_KEEP": "30"}, dotenv=None)
    assert (config.backups, config.backup_hours, config.backup_keep) == (tmp_path, 0.5, 30)
    assert Config.load({"BACKUP_HOURS": "0"}, dotenv=None).backup_hours == 0
    (tmp_path / "file").write_text("")
    with pytest.raises(SystemExit, match="BACKUP_DIR must be a folder"):
        Config.load({"BACKUP_DIR": str(tmp_path / "file")}, dotenv=None)


class FakeSleep:
    """Stands in for asyncio.sleep: records each interval and lets `rounds` of them pass at once; the next
    one parks for good, and `parked` says so (a test waits for that, not for a wall-clock while: each round
    is a real backup, which a loaded machine may take seconds to write)."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.asked: list[float] = []
        self.never = asyncio.Event()
        self.parked = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        if len(self.asked) > self.rounds:
            self.parked.set()
            await self.never.wait()
        await asyncio.sleep(0)

    async def all_passed(self) -> None:
        """Every round has passed and the schedule waits for the next (a bound only against a hang)."""
        await asyncio.wait_for(self.parked.wait(), timeout=300)


async def test_the_schedule_backs_up_every_interval_and_keeps_the_newest(service: MatchService, tmp_path: Path) -> None:
    assert BackupSchedule.start(service.store, tmp_path, hours=0, keep=7) is None  # 0 hours: off
    sleep = FakeSleep(rounds=4)
    schedule = BackupSchedule(service.store, tmp_path / "backups", interval=6 * 3600, keep=2, sleep=sleep)
    schedule.run()
    try:
        await sleep.all_passed()
        assert len(schedule.made) == 4 and sleep.asked == [6 * 3600] * 5
        assert backups(tmp_path / "backups") == schedule.made[-2:]
    finally:
        await schedule.close()


async def test_a_failed_scheduled_backup_is_logged_and_tried_again(
    service: MatchService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    sleep = FakeSleep(rounds=2)
    schedule = BackupSchedule(service.store, blocker, interval=60, keep=2, sleep=sleep)
    schedule.run()
    try:
        await sleep.all_passed()
        assert schedule.made == [] and caplog.text.count("the scheduled backup failed") == 2
    finally:
        await schedule.close()


async def test_terminal_mod_backup(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    terminal.backup_dir, terminal.backup_keep = tmp_path / "saved", 2
    assert await terminal.handle("fish new alice bob --seed 3")
    for _ in range(3):
        assert await terminal.handle("mod backup")
    assert out[-1].startswith("Backed up to ") and "integrity ok" in out[-1]
    assert len(backups(tmp_path / "saved")) == 2
    assert await terminal.handle("mod backup now")
    assert out[-1].startswith("✗ mod backup takes no words")
    terminal.backup_dir = tmp_path / "renders" / "match-1-ply-000-started.png"  # a file, not a folder
    assert await terminal.handle("mod backup")
    assert out[-1].startswith("✗ The backup failed: could not write a backup")


async def test_mod_backup_on_discord(fake, bot, db_path: Path) -> None:
    fake.allow_command("mod", "alice")  # past Discord's default permissions, the bot checks her itself
    refused = await fake.slash("alice", "mod backup")
    assert refused.ephemeral and "Only moderators" in (refused.content or "")
    assert not (db_path.parent / "backups").exists()
    reply = await fake.slash("mod", "mod backup")
    made = backups(db_path.parent / "backups")  # BACKUP_DIR unset: beside the database
    assert len(made) == 1 and integrity(made[0]) == "ok"
    assert reply.ephemeral and f"Backed up: `{made[0].name}`" in (reply.content or "")


@pytest.mark.backends("postgresql")
async def test_without_pg_dump_postgresql_backups_are_the_databases_job(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools-here"))
    with pytest.raises(BackupsElsewhere, match="on PostgreSQL, backups are the database's job: pg_dump is not"):
        await backup(service.store, tmp_path / "backups")
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    terminal.backup_dir = tmp_path / "backups"
    assert await terminal.handle("mod backup")
    assert out[-1].startswith("✗ The backup failed: on PostgreSQL, backups are the database's job")
    caplog.set_level(logging.INFO, logger="bot.backup")
    sleep = FakeSleep(rounds=3)
    schedule = BackupSchedule(service.store, tmp_path / "backups", interval=60, keep=2, sleep=sleep)
    schedule.run()
    try:
        await eventually(lambda: "no scheduled backups" in caplog.text)
        await asyncio.sleep(0.05)
        assert sleep.asked == [] and schedule.made == []  # it never even waits for a first one
        assert caplog.text.count("backups are the database's job") == 1
    finally:
        await schedule.close()
    assert not (tmp_path / "backups").exists()
