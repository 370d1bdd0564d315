"""The databases tests run on: a SQLite file per test, and on PostgreSQL a fresh schema per test.

Suites marked `@pytest.mark.backends` (a module's `pytestmark`, or one test) run once per backend through the
`database` fixture (tests/conftest.py): `test_x[sqlite]` and `test_x[postgresql]`. The PostgreSQL server is
TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres); each PostgreSQL test gets a schema
of its own (`CREATE SCHEMA`, the store's URL naming it as search_path), dropped after the test. Without a
server answering there, every PostgreSQL case is skipped, and the run says so in one line at its end.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlencode, urlsplit, urlunsplit

BACKENDS = ("sqlite", "postgresql")
DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
SERVER_URL = os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_URL
"""Where the PostgreSQL tests run (TEST_DATABASE_URL)."""


def with_search_path(url: str, schema: str) -> str:
    """`url` with its connections' search_path set to `schema` (asyncpg passes it on as a server setting)."""
    parts = urlsplit(url)
    query = "&".join(part for part in (parts.query, urlencode({"search_path": schema})) if part)
    return urlunsplit(parts._replace(query=query))


def no_server(url: str = SERVER_URL) -> str | None:
    """Why the PostgreSQL tests cannot run (None: a server answers at `url`). Call with no event loop running."""

    async def probe() -> None:
        import asyncpg

        connection = await asyncpg.connect(url, timeout=3)
        await connection.close()

    try:
        asyncio.run(probe())
    except Exception as error:  # refused, timed out, login refused, no such database...
        from bot.db import redact

        why = f"{type(error).__name__}: {error}"[:200]
        return f"PostgreSQL tests skipped: no server at {redact(url)} (set TEST_DATABASE_URL); {why}"
    return None


@asynccontextmanager
async def fresh_schema(url: str = SERVER_URL) -> AsyncIterator[str]:
    """A new, empty schema on the server for one test: yields the URL whose search_path is that schema;
    drops the schema (and everything in it) afterwards."""
    import asyncpg

    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url, timeout=10)
    try:
        await admin.execute("SET lock_timeout = '10s'")  # a store left open in a transaction fails the drop
        await admin.execute(f'CREATE SCHEMA "{name}"')
        yield with_search_path(url, name)
    finally:
        try:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        finally:
            await admin.close()


@asynccontextmanager
async def fresh_database(url: str = SERVER_URL) -> AsyncIterator[str]:
    """A new, empty database on the server (for what a schema cannot hold apart, e.g. a pg_restore of a
    dump that names its schema): yields its URL; drops it afterwards."""
    import asyncpg

    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(url, timeout=10)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    finally:
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()
