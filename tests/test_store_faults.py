"""A database the bot cannot use, and a disk that fills during play.

At start, a damaged, unreadable or read-only database (or data folder) is refused: `python3 -m bot`, run
here as a real subprocess with stdin empty, exits non-zero within seconds with one line that names the
file and the way out, and no traceback, in terminal mode and in Discord mode (before connecting).

During play, a full disk is simulated with SQLite's `PRAGMA max_page_count` (set to the current size,
later raised), which fails writes with SQLITE_FULL exactly as a full disk does: the move is refused in
words, nothing of it is written, and play resumes once there is space.

Permissions: as root, file modes do not stop reads or writes. Then the bot's process drops
CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH before it starts (prctl PR_CAPBSET_DROP; the exec then leaves
them out), so modes apply to it as to the ordinary user a bot runs as. Where that is impossible, the
permission tests skip; the read-only file is also modelled with `chattr +i` (immutable) where that works.

These run on SQLite only: they are faults of a database file (its bytes, modes, folder, disk and lock), which
a PostgreSQL database does not have; the server's own faults that a test can bring about (no server, a lost
connection, a newer schema, a read-only login) are in tests/test_store_backends.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import app, discord_login
from bot.config import Config
from bot.games import GAMES
from bot.games.base import BadState
from bot.local import Terminal
from bot.service import DiskFull, MatchService
from bot.store import DAMAGED, Store, StoreUnusable
from tests.conftest import ALICE, BOB, MOD

ROOT = Path(__file__).resolve().parent.parent
FISH = GAMES["fish"]
BACKUP = "bot-20261129-120000.sqlite3"
MODES = {"terminal": "", "discord": "not-a-real-token"}
"""DISCORD_TOKEN per mode: a fake token, since the database must be refused before any connection."""

PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 24, 1, 2
PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None
"""Looked up here, not in the forked child: after a fork only simple calls are safe."""


def _drop_file_capabilities() -> None:
    """In the child, before exec: give up root's power to ignore file modes."""
    assert PRCTL is not None
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if PRCTL(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@functools.cache
def _as_ordinary_user() -> Callable[[], None] | None:
    """The preexec function that makes file modes apply to the bot's process (None: they already do).
    Skips the test if running as root and the capabilities cannot be dropped."""
    if os.name != "posix" or os.geteuid() != 0:
        return None
    if PRCTL is None:
        pytest.skip("running as root, and file modes cannot be made to apply to a child process here")
    probe = Path(os.environ.get("TMPDIR", "/tmp")) / f"store-faults-probe-{os.getpid()}"
    probe.write_text("secret")
    probe.chmod(0)
    try:
        result = subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}).read()"],
            preexec_fn=_drop_file_capabilities,
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        result = None
    finally:
        probe.unlink()
    if result is None or b"PermissionError" not in result.stderr:
        pytest.skip("running as root, and file modes cannot be made to apply to a child process here")
    return _drop_file_capabilities


def start_bot(database: Path, mode: str = "terminal", *, ordinary_user: bool = False) -> tuple[int, str]:
    """`python -m bot` on `database` with stdin empty: its exit status and everything it printed."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": MODES[mode],
        "DATABASE_PATH": str(database),
        "BACKUP_DIR": str(database.parent.parent / "backups"),
        "BACKUP_HOURS": "0",
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,  # today's bug: a refused database kept the process alive for ever
        preexec_fn=_as_ordinary_user() if ordinary_user else None,
    )
    return result.returncode, (result.stdout + result.stderr).strip()


def assert_refused(status: int, output: str, file: Path, *words: str) -> None:
    assert status != 0, output
    assert "Traceback" not in output, output
    assert len(output.splitlines()) == 1, output  # one line, and nothing printed before it
    assert str(file) in output, output
    for word in words:
        assert word in output, output


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """tmp/data (the data folder) and tmp/backups, holding one good backup."""
    (tmp_path / "data").mkdir()
    (tmp_path / "backups").mkdir()
    (tmp_path / "backups" / BACKUP).write_bytes(b"")  # its name is enough: the refusal names the newest
    return tmp_path / "data"


def backup_of(database: Path) -> Path:
    return database.parent.parent / "backups" / BACKUP


@pytest.fixture
def good_database(data: Path) -> Path:
    """A sound database in WAL mode, as the bot leaves it, with one match in it."""
    path = data / "bot.sqlite3"

    async def make() -> None:
        store = await Store.open(path)
        await MatchService(store).create_match("fish", [ALICE, BOB], seed=5)
        await store.close()

    asyncio.run(make())
    return path


@pytest.mark.parametrize("mode", MODES)
def test_random_bytes_are_refused_with_the_restore_command(data: Path, mode: str) -> None:
    database = data / "bot.sqlite3"
    database.write_bytes(os.urandom(8192))
    status, output = start_bot(database, mode)
    backup = backup_of(database)
    assert_refused(status, output, database, "is damaged", f"cp {backup} {database}", "bot.sqlite3-wal", "Backups")


@pytest.mark.parametrize("mode", MODES)
def test_a_damaged_page_inside_is_refused_too(good_database: Path, mode: str) -> None:
    with open(good_database, "r+b") as file:  # page 3 is the root of the matches table; the header is sound
        file.seek(2 * 4096)
        file.write(os.urandom(4096))
    status, output = start_bot(good_database, mode)
    assert_refused(status, output, good_database, "is damaged", f"cp {backup_of(good_database)}")


@pytest.mark.parametrize("mode", MODES)
def test_a_file_nobody_may_read_is_refused(good_database: Path, mode: str) -> None:
    good_database.chmod(0)
    status, output = start_bot(good_database, mode, ordinary_user=True)
    assert_refused(status, output, good_database, "is unreadable (permission denied)", "readable and writable")


@pytest.mark.parametrize("mode", MODES)
def test_a_read_only_file_is_refused_before_the_first_move(good_database: Path, mode: str) -> None:
    good_database.chmod(0o444)
    status, output = start_bot(good_database, mode, ordinary_user=True)
    assert_refused(status, output, good_database, "is read-only", "writable", f"cp {backup_of(good_database)}")


@pytest.fixture
def immutable(good_database: Path) -> Iterator[Path]:
    """The database made immutable with `chattr +i`: even root cannot write it (a read-only disk, near enough)."""
    chattr = shutil.which("chattr")
    if os.name != "posix" or os.geteuid() != 0 or chattr is None:
        pytest.skip("chattr +i needs root and chattr")
    if subprocess.run([chattr, "+i", str(good_database)], capture_output=True).returncode != 0:
        pytest.skip("this file system does not take chattr +i")
    try:
        yield good_database
    finally:
        subprocess.run([chattr, "-i", str(good_database)], check=True)


@pytest.mark.parametrize("mode", MODES)
def test_an_immutable_file_is_refused_even_for_root(immutable: Path, mode: str) -> None:
    status, output = start_bot(immutable, mode)
    assert_refused(status, output, immutable, "is read-only (operation not permitted)")


@pytest.mark.parametrize("mode", MODES)
def test_a_read_only_data_folder_is_refused_for_its_log_file(good_database: Path, mode: str) -> None:
    good_database.parent.chmod(0o555)
    try:
        status, output = start_bot(good_database, mode, ordinary_user=True)
    finally:
        good_database.parent.chmod(0o755)
    assert_refused(status, output, good_database.parent / "bot.log", "Cannot write the log file", "permission denied")


@pytest.mark.parametrize("mode", MODES)
def test_a_read_only_data_folder_is_refused_for_the_database_beside_a_writable_log(
    good_database: Path, mode: str
) -> None:
    log = good_database.parent / "bot.log"
    log.touch(mode=0o666)
    log.chmod(0o666)
    good_database.parent.chmod(0o555)  # no room for bot.sqlite3-wal and -shm
    try:
        status, output = start_bot(good_database, mode, ordinary_user=True)
    finally:
        good_database.parent.chmod(0o755)
    assert_refused(status, output, good_database, "is read-only (its folder is not writable: permission denied)")


def test_a_database_refused_in_setup_hook_after_all_ends_in_the_same_line(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store is checked before connecting; should it fail only in GameBot.setup_hook (it changed in
    between), `run` still turns the refusal into the one line and exit status 1."""
    database = data / "bot.sqlite3"
    config = Config.load({"DISCORD_TOKEN": "x", "DATABASE_PATH": str(database)}, dotenv=None)

    async def sound(config: Config) -> None:
        pass

    def refused_in_setup_hook(config: Config) -> None:
        raise StoreUnusable(str(database), DAMAGED, "file is not a database")

    monkeypatch.setattr(app, "start_log", lambda config: data / "bot.log")
    monkeypatch.setattr(app, "check_store", sound)
    monkeypatch.setattr(discord_login, "run_discord", refused_in_setup_hook)
    with pytest.raises(SystemExit) as exit:
        app.run(config)
    assert isinstance(exit.value.code, str) and exit.value.code.startswith(f"The database {database} is damaged")


# --- a disk that fills during play ---


async def set_max_pages(store: Store, pages: int) -> None:
    """SQLite's page limit: writes beyond it fail with SQLITE_FULL ("database or disk is full").
    A limit below the current size is raised to the current size, so 1 means: not one page more."""
    await store._db.execute(f"PRAGMA max_page_count={pages}")


def committed(path: Path, match_id: int) -> tuple[object, ...]:
    """What another connection sees committed for a match: its row, log, actions and clock."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return (
            db.execute("SELECT state, ply, status, updated_at FROM matches WHERE id = ?", (match_id,)).fetchall(),
            db.execute("SELECT * FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)).fetchall(),
            db.execute("SELECT * FROM actions WHERE match_id = ? ORDER BY id", (match_id,)).fetchall(),
            db.execute("SELECT clock FROM clocks WHERE match_id = ?", (match_id,)).fetchall(),
        )
    finally:
        db.close()


async def test_a_full_disk_refuses_the_move_in_words_and_play_resumes_once_there_is_space(
    service: MatchService, db_path: Path, tmp_path: Path
) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    await set_max_pages(service.store, 1)

    def next_move() -> tuple[str, str]:
        running = service.running_match(match.id)
        assert running is not None
        seat = FISH.to_move(running.state)
        assert seat is not None
        return running.players[seat].id, FISH.legal_moves(running.state)[0]

    # Move and take back, again and again, until the log no longer fits: a move that was refused.
    for _ in range(2000):
        before = committed(db_path, match.id)
        player, move = next_move()
        try:
            await service.move(match.id, player, move)
        except DiskFull as refusal:
            assert str(refusal).startswith("The bot's disk is full: the move was not saved")
            break
        with contextlib.suppress(DiskFull):  # then the next move is refused too: the disk is as full as ever
            await service.moderation.undo(match.id, MOD)
    else:
        pytest.fail("the page limit never filled")
    assert committed(db_path, match.id) == before  # nothing of the move was written
    running = service.running_match(match.id)
    stored = await service.store.load_match(match.id)
    assert running is not None and stored is not None
    assert (running.ply, FISH.dumps(running.state)) == (stored.ply, FISH.dumps(stored.state))  # cache reloaded

    # The terminal says so in words, and still nothing is written.
    name = "alice" if player == ALICE.id else "bob"
    assert await terminal.handle(f"fish move {move} --match {match.id} --as {name}")
    assert out[-1].startswith("✗ The bot's disk is full: the move was not saved"), out[-1]
    assert committed(db_path, match.id) == before

    await set_max_pages(service.store, 1_000_000)  # space is back
    ply, printed = running.ply, len(out)
    assert await terminal.handle(f"fish move {move} --match {match.id} --as {name}")
    assert not any("✗" in line for line in out[printed:]), out[printed:]
    after = service.running_match(match.id)
    assert after is not None and after.ply == ply + 1
    assert (await service.store.log(match.id))[-1].move == move
    assert await service.store.integrity_check() == "ok"


async def test_the_log_never_holds_sql_parameters_even_at_debug(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """aiosqlite logs each statement with its parameters (states with hidden cards, seeds) at DEBUG."""
    import logging

    from bot.app import start_log
    from bot.config import Config
    from bot.store import Store

    config = Config(None, tmp_path / "bot.sqlite3", None, None, "DEBUG", True)
    before = logging.getLogger("aiosqlite").level
    try:
        with caplog.at_level(logging.DEBUG):
            start_log(config)
            store = await Store.open(config.database_path)
            async with store.transaction():
                await store.log_action(None, "probe", None, "a secret seed 123456789", 0.0)
            await store.close()
        assert not [r for r in caplog.records if r.name.startswith("aiosqlite")]
        assert "123456789" not in caplog.text
    finally:
        logging.getLogger("aiosqlite").setLevel(before)


async def test_a_tampered_state_is_kept_out_of_play_and_the_other_matches_resume(
    open_service: Callable[[], Any], db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A row whose state no longer reads as one (edited by hand, another game's) is refused by `loads`:
    the service resumes every other match, logs which one it left, and keeps the row untouched."""
    service = await open_service()
    await service.start()
    damaged = await service.create_match("fish", [ALICE, BOB], seed=1)
    sound = await service.create_match("fish", [ALICE, BOB], seed=2)
    await service.close()
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET state = replace(state, '\"turn\":0', '\"turn\":7') WHERE id = ?", (damaged.id,))
        tampered = db.execute("SELECT state FROM matches WHERE id = ?", (damaged.id,)).fetchone()[0]
    again = await open_service()
    with caplog.at_level(logging.ERROR, logger="bot.service.registry"):
        resumed = await again.start()
    assert [m.id for m in resumed] == [sound.id]
    assert any(f"match #{damaged.id}" in r.getMessage() for r in caplog.records)
    with pytest.raises(BadState, match=f"match #{damaged.id}"):
        await again.get(damaged.id)
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT state FROM matches WHERE id = ?", (damaged.id,)).fetchone()[0] == tampered
