"""The databases a bench runs on, and its figures side by side: `--backends sqlite,postgresql` (default: both)
and `--database URL` (the PostgreSQL server; default $BENCH_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres).

SQLite runs on a file in a temporary folder; PostgreSQL on a fresh schema of that server (its URL names the
schema as search_path), dropped afterwards. Without a server answering there, the PostgreSQL run is left
out and the bench says so.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

BACKENDS = ("sqlite", "postgresql")
DEFAULT_URL = os.environ.get("BENCH_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backends",
        default=",".join(BACKENDS),
        help="the stores to run on, in order, comma-separated: sqlite, postgresql (default: both)",
    )
    parser.add_argument("--database", default=DEFAULT_URL, metavar="URL", help=f"the PostgreSQL server ({DEFAULT_URL})")


def backends(args: argparse.Namespace) -> list[str]:
    chosen = [name.strip() for name in args.backends.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(BACKENDS))
    if unknown or not chosen:
        raise SystemExit(f"--backends takes sqlite and/or postgresql, not {args.backends!r}")
    return chosen


async def no_server(url: str) -> str | None:
    """Why PostgreSQL cannot be benched at `url` (None: a server answers)."""
    import asyncpg

    try:
        connection = await asyncpg.connect(url, timeout=5)
    except Exception as error:
        from bot.db import redact

        return f"no PostgreSQL server at {redact(url)} ({type(error).__name__}: {error})"
    await connection.close()
    return None


@asynccontextmanager
async def database(backend: str, folder: Path, url: str, name: str) -> AsyncIterator[str]:
    """Where one run's store lives: a SQLite file `name`.sqlite3 in `folder`, or a fresh PostgreSQL schema."""
    if backend == "sqlite":
        yield str(folder / f"{name}.sqlite3")
        return
    import asyncpg

    schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(url, timeout=10)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        parts = urlsplit(url)
        query = "&".join(part for part in (parts.query, urlencode({"search_path": schema})) if part)
        yield urlunsplit(parts._replace(query=query))
    finally:
        try:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await admin.close()


def quantile(samples: list[float], q: float) -> float:
    """The q-quantile of `samples` in milliseconds (as bench.common.percentiles picks it)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def p50_p99(samples: list[float], digits: int = 2) -> str:
    """ "p50 / p99 ms" of `samples` (seconds)."""
    return f"{quantile(samples, 0.5):.{digits}f} / {quantile(samples, 0.99):.{digits}f} ms"


def side_by_side(title: str, columns: dict[str, dict[str, str]]) -> str:
    """A table of figures: one column per backend, one row per figure (in the first column's order)."""
    names = list(columns)
    rows = list(dict.fromkeys(label for figures in columns.values() for label in figures))
    width = max(len(label) for label in rows)
    cells = {name: max(len(name), *(len(value) for value in columns[name].values())) for name in names}
    lines = [f"\n{title}", "  ".join([" " * width, *(name.ljust(cells[name]) for name in names)]).rstrip()]
    for label in rows:
        values = [columns[name].get(label, "-").ljust(cells[name]) for name in names]
        lines.append("  ".join([label.ljust(width), *values]).rstrip())
    return "\n".join(lines)


Figures = tuple[dict[str, str], list[str]]
"""A run's figures (label -> value) and its failed checks."""


async def on_each_backend(
    args: argparse.Namespace, name: str, run_on: Callable[[str, str], Awaitable[Figures]]
) -> tuple[dict[str, dict[str, str]], bool]:
    """Runs `run_on(backend, target)` once per chosen backend, each on a fresh database (a server that does
    not answer is left out, saying so); returns each backend's figures and whether any check failed."""
    columns: dict[str, dict[str, str]] = {}
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for backend in backends(args):
            if backend == "postgresql" and (reason := await no_server(args.database)) is not None:
                print(f"\n=== postgresql: left out, {reason} (--database URL)")
                continue
            async with database(backend, Path(folder), args.database, name) as target:
                columns[backend], failures = await run_on(backend, target)
                failed = failed or bool(failures)
    return columns, failed
