"""Online backups of the database while the bot runs: one now (`/mod backup`, terminal `mod backup`) or on a schedule.

On SQLite a backup is a copy made with SQLite's backup API (`Store.backup_to`), checked with `PRAGMA
integrity_check` before it gets its final name `bot-YYYYmmdd-HHMMSS.sqlite3` (UTC), so a file with that name
is always a whole, sound database. On PostgreSQL it is a `pg_dump` (custom format) of the database, checked
by reading every part of it back with `pg_restore`, named `bot-YYYYmmdd-HHMMSS.pgdump`; without pg_dump on
the PATH the bot makes no backups there (they are the database's job: its server's own backups), says so to
`/mod backup`, and the schedule logs it once. Either way the newest `keep` backups are kept; older ones are
deleted. Restoring is copying one over DATABASE_PATH, or `pg_restore` into the database, while the bot is
stopped (README, "Backups").
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from babel.numbers import format_decimal

from bot import i18n
from bot.background import Repeating
from bot.config import ROOT
from bot.db import POSTGRESQL, is_postgres
from bot.i18n import N_, _
from bot.store import Store

log = logging.getLogger("bot.backup")

PATTERN = "bot-????????-??????*.sqlite3"
"""SQLite backups' names; they sort by time (a second backup within the same second gets `-2`, `-3`...)."""
DUMP_PATTERN = "bot-????????-??????*.pgdump"
"""PostgreSQL backups' names (pg_dump's custom format), likewise."""

ELSEWHERE = N_(
    "on PostgreSQL, backups are the database's job: pg_dump is not on this machine's PATH, so the bot makes"
    " none (use the PostgreSQL server's own backups, or install its client tools to have the bot run pg_dump)"
)
"""Said with `_` to whoever asked for a backup (a moderator, in their language)."""


class BackupError(RuntimeError):
    """The copy could not be made or did not pass its integrity check; the message says why."""


class BackupsElsewhere(BackupError):
    """On PostgreSQL without pg_dump: the bot makes no backups (ELSEWHERE says why and what instead)."""


def unavailable(store: Store) -> str | None:
    """Why the bot cannot back this database up (None: it can)."""
    if store.backend == POSTGRESQL and shutil.which("pg_dump") is None:
        return ELSEWHERE
    return None


def default_folder(database_path: Path | str) -> Path:
    """Beside the database: `data/backups` for the default `data/bot.sqlite3`; for PostgreSQL (a URL: the
    store's `path`), the project's `data/backups`."""
    if is_postgres(str(database_path)):
        return ROOT / "data" / "backups"
    return Path(database_path).parent / "backups"


def backups(folder: Path) -> list[Path]:
    """The backups in `folder` (SQLite's and PostgreSQL's), oldest first."""
    found = [*folder.glob(PATTERN), *folder.glob(DUMP_PATTERN)]
    return sorted(found, key=lambda p: (p.name[:19], len(p.stem), p.name))


async def backup(store: Store, folder: Path, keep: int | None = None, now: datetime | None = None) -> Path:
    """Back the database up into `folder` now, check the copy, then keep only the newest `keep` backups.
    On PostgreSQL without pg_dump, BackupsElsewhere says that backups are the database's job."""
    if (reason := unavailable(store)) is not None:
        raise BackupsElsewhere(_(reason))
    suffix = ".pgdump" if store.backend == POSTGRESQL else ".sqlite3"
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"bot-{stamp}{suffix}"
        same = list(folder.glob(f"bot-{stamp}*{suffix}"))
        if same:  # another backup in the same second: number this one after every one of them
            numbers = [int(p.stem[20:]) for p in same if p.stem[20:].isdigit()]
            path = folder / f"bot-{stamp}-{max(numbers, default=1) + 1}{suffix}"
        partial = path.with_name(path.name + ".partial")
        partial.unlink(missing_ok=True)
        await store.backup_to(partial)
        verdict = await asyncio.to_thread(integrity, partial)
        if verdict != "ok":
            partial.unlink(missing_ok=True)
            raise BackupError(_("the copy failed its integrity check ({verdict})").format(verdict=verdict[:200]))
        partial.replace(path)
    except (OSError, sqlite3.Error, ValueError) as error:
        raise BackupError(
            _("could not write a backup in {folder}: {reason}").format(folder=folder, reason=error)
        ) from error
    log.info("backed up the database to %s (%s)", path, size_text(path.stat().st_size))
    if keep is not None:
        prune(folder, keep)
    return path


def integrity(path: Path) -> str:
    """A backup's check, "ok" or what is wrong: `PRAGMA integrity_check` of a SQLite file; for a pg_dump
    (`.pgdump`, `.pgdump.partial`), `pg_restore` reads every part of it (written to nowhere)."""
    if path.name.removesuffix(".partial").endswith(".pgdump"):
        return _dump_integrity(path)
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = db.execute("PRAGMA integrity_check").fetchone()
    finally:
        db.close()
    return str(row[0]) if row else "no answer"


def _dump_integrity(path: Path) -> str:
    tool = shutil.which("pg_restore")
    if tool is None:
        return "pg_restore is not on this machine's PATH to check the dump"
    try:
        result = subprocess.run(
            [tool, f"--file={os.devnull}", str(path)], capture_output=True, text=True, timeout=3600, check=False
        )
    except subprocess.TimeoutExpired:
        return "pg_restore did not finish reading the dump within an hour"
    return "ok" if result.returncode == 0 else " ".join(result.stderr.split())[:300] or f"exit {result.returncode}"


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups; returns what was deleted."""
    old = backups(folder)[: max(0, len(backups(folder)) - keep)]
    for path in old:
        path.unlink(missing_ok=True)
        log.info("deleted the old backup %s", path)
    return old


def size_text(size: int) -> str:
    """A file size for people, in the reader's language: 812 bytes, 45.3 KB, 2.1 MB (`45,3 KB` in German)."""
    if size < 1000:
        return i18n.ngettext("{count} byte", "{count} bytes", size).format(count=i18n.number(size))
    locale = i18n.babel_locale()
    if size < 1_000_000:
        return _("{size} KB").format(size=format_decimal(round(size / 1000, 1), "#,##0.0", locale=locale))
    return _("{size} MB").format(size=format_decimal(round(size / 1_000_000, 1), "#,##0.0", locale=locale))


class BackupSchedule:
    """Backs up every `interval` seconds while the bot runs (the first one an interval after the start).

    A failed backup is logged and tried again at the next interval; the bot goes on either way.
    `sleep` is injectable so tests need not wait real hours.
    """

    def __init__(
        self,
        store: Store,
        folder: Path,
        interval: float,
        keep: int,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.folder = folder
        self.interval = interval
        self.keep = keep
        self.sleep = sleep
        self.made: list[Path] = []
        self._schedule = Repeating(
            "scheduled-backups",
            lambda: self.sleep(self.interval),
            self._back_up,
            failed=f"the scheduled backup failed; trying again in {interval} s",
        )

    @classmethod
    def start(cls, store: Store, folder: Path, hours: float, keep: int) -> BackupSchedule | None:
        """The running schedule, or None when backups are off (hours 0)."""
        if hours <= 0:
            return None
        schedule = cls(store, folder, hours * 3600, keep)
        schedule.run()
        return schedule

    def run(self) -> None:
        if (reason := unavailable(self.store)) is not None:
            log.warning("no scheduled backups: %s", reason)
            return
        self._schedule.start()

    async def _back_up(self) -> None:
        self.made.append(await backup(self.store, self.folder, self.keep))

    async def close(self) -> None:
        """Stop the schedule; a backup being written is finished first, never left half a file."""
        await self._schedule.stop()
