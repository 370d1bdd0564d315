"""What the store needs of a database, whichever it is: the two backends' shared interface (`Database`).

`bot/store.py` writes every query once, in SQL that SQLite and PostgreSQL both accept, with `?` placeholders;
a backend runs it: `bot/db_sqlite.py` (aiosqlite, the embedded default: one file) and `bot/db_postgres.py`
(asyncpg, chosen by a `postgresql://` DATABASE_URL; several bot processes may share one). Each backend
owns what cannot be written once: opening and checking the database, its schema (the same tables at the
same version numbers, in each one's own DDL), the version, transactions, the integrity check and backups.
Rows read the same on both: `row["column"]` and `row[0]` work on aiosqlite.Row and asyncpg.Record alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

DAMAGED, UNREADABLE, READ_ONLY, LOCKED, FULL, NEWER = "damaged", "unreadable", "read-only", "locked", "full", "newer"
"""Why `Store.open` refuses a database (StoreUnusable.problem)."""

SQLITE, POSTGRESQL = "sqlite", "postgresql"
"""The backends (`Database.backend`)."""

SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL target begins (anything else is a SQLite file)."""


class StoreUnusable(RuntimeError):
    """The bot must not start on this database: `problem` is one of DAMAGED, UNREADABLE, READ_ONLY, LOCKED,
    FULL, NEWER; `detail` says what the database or the system found. The message names the file (or the
    PostgreSQL URL, without its password)."""

    def __init__(self, path: str, problem: str, detail: str) -> None:
        super().__init__(f"database {path} is {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail


class Row(Protocol):
    """A row as both backends give it: by column name or by position."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Any: ...

    def keys(self) -> Any: ...


class Database(Protocol):
    """One open database. Every SQL text uses `?` placeholders (PostgreSQL's backend numbers them)."""

    backend: str
    """SQLITE or POSTGRESQL."""
    target: str
    """The SQLite file, or the PostgreSQL URL without its password (for messages and logs)."""
    for_update: str
    """Appended to a SELECT whose rows the transaction will write: " FOR UPDATE" on PostgreSQL (a row lock
    against another process); "" on SQLite, whose write transaction already locks the whole file."""
    for_share: str
    """Likewise " FOR SHARE": rows another process must not change until this transaction ends."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    async def fetchrow(self, sql: str, args: Sequence[Any] = ()) -> Any | None: ...

    async def fetchval(self, sql: str, args: Sequence[Any] = ()) -> Any: ...

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """Run one statement (awaitable)."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Everything written inside commits together or not at all; one at a time in this process."""

    async def schema_version(self) -> int: ...

    async def integrity_check(self) -> str: ...

    async def tables(self) -> list[str]:
        """The bot's tables (not the version's), by name."""

    async def columns(self, table: str) -> list[str]:
        """A table's columns, in their order."""

    async def copy_rows(self, table: str, columns: list[str], rows: Sequence[Sequence[Any]]) -> None:
        """Add rows as they are, ids included (inside transaction())."""

    async def reset_identities(self) -> None:
        """After `copy_rows`: the ids the database gives next come after the largest stored."""

    async def backup_to(self, path: Path) -> None: ...

    async def close(self) -> None: ...


def is_postgres(target: str | Path) -> bool:
    """Whether a store target is a PostgreSQL URL (else it is a SQLite file)."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def redact(url: str) -> str:
    """A PostgreSQL URL fit for messages and logs: the password replaced by ***."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return "postgresql://(an unreadable URL)"
