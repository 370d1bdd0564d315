"""The store's two backends (bot/db_sqlite.py, bot/db_postgres.py) behind one Store: the same schema at the
same versions, the same answers to the same queries, the move log append-only, ids beyond 32 bits, and what
two processes on one database may race for (reminders claimed once, shard leases). Each test that takes
`database` runs on a SQLite file and on a fresh PostgreSQL schema (tests/databases.py); those about one
backend say so. The faults only a file has (a full disk, a locked or unreadable file) are SQLite's, in
tests/test_store_faults.py."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot import app, db_postgres, db_sqlite
from bot.clock import ClockSettings, FakeTime
from bot.config import Config
from bot.db import NEWER, POSTGRESQL, READ_ONLY, SQLITE, UNREADABLE, StoreUnusable, redact
from bot.db_postgres import libpq_environment, numbered
from bot.errors import NotSaved
from bot.games import GAMES
from bot.models import Challenge, MoveRecord, Place, Player
from bot.ratings import PlayerRating, Rating
from bot.service import MatchService
from bot.store import MIGRATIONS, Store
from tests.conftest import ALICE, BOB, TEST_GAMES
from tests.databases import SERVER_URL, with_search_path

pytestmark = pytest.mark.backends

ROOT = Path(__file__).resolve().parent.parent
SNOWFLAKE = 1_234_567_890_123_456_789  # a Discord id: needs 61 bits
FISH = GAMES["fish"]


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(database, TEST_GAMES)
    yield opened
    await opened.close()


async def test_the_store_opens_on_the_backend_its_target_names(store: Store, database: Path | str) -> None:
    assert store.backend == (POSTGRESQL if isinstance(database, str) else SQLITE)
    assert await store.schema_version() == len(MIGRATIONS) == len(db_postgres.MIGRATIONS)
    assert await store.integrity_check() == "ok"


@pytest.mark.backends("postgresql")
async def test_postgresql_has_the_same_tables_and_columns_at_each_version(store: Store, tmp_path: Path) -> None:
    sqlite = await Store.open(tmp_path / "reference.sqlite3", TEST_GAMES)
    try:
        assert await store.tables() == await sqlite.tables()
        for table in await sqlite.tables():
            assert await store.columns(table) == await sqlite.columns(table), table
    finally:
        await sqlite.close()
    # each version's script makes the same tables on both (so a database at version n is the same on both)
    for number, (lite, postgres) in enumerate(zip(db_sqlite.MIGRATIONS, db_postgres.MIGRATIONS, strict=True), 1):
        made = [name for name in db_postgres.TABLES if f"CREATE TABLE {name} " in lite]
        assert made == [name for name in db_postgres.TABLES if f"CREATE TABLE {name} " in postgres], number


async def test_the_move_log_is_append_only_on_both(store: Store) -> None:
    service = MatchService(store, FakeTime())
    await service.start()
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    for statement in ("UPDATE moves SET move = 'A2'", "DELETE FROM moves"):
        with pytest.raises(Exception, match="append-only"):
            async with store.transaction():
                await store._db.execute(statement)
    if store.backend == POSTGRESQL:
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            async with store.transaction():
                await store._db.execute("TRUNCATE moves CASCADE")
    assert [r.move for r in await store.log(match.id)] == ["A1"]
    await service.close()


async def test_discord_ids_beyond_32_bits_and_times_come_back_exactly(store: Store) -> None:
    service = MatchService(store, FakeTime(1_700_000_000.123456))
    await service.start()
    place = Place(SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2)
    match = await service.create_match("fish", [ALICE, BOB], seed=2**48 - 1, place=place, clock=ClockSettings(30, 60))
    await service.board_posted(match.id, 0, message=(SNOWFLAKE + 3, SNOWFLAKE + 4))
    clock = ClockSettings(14 * 86_400, 30 * 86_400)
    await service.challenges.record_challenge(
        SNOWFLAKE + 5, SNOWFLAKE, ALICE, BOB, game="fish", clock=clock, channel_id=SNOWFLAKE
    )
    loaded = await store.load_match(match.id)
    assert loaded is not None and loaded.place == place and loaded.board == (SNOWFLAKE + 3, SNOWFLAKE + 4)
    assert loaded.seed == 2**48 - 1 and loaded.created_at == 1_700_000_000.123456
    challenge = await store.challenge(SNOWFLAKE + 5)  # stored whole: the Accept button names only its id
    assert challenge == Challenge(SNOWFLAKE + 5, "fish", ALICE.id, BOB.id, clock, Place(SNOWFLAKE, SNOWFLAKE))
    assert await store.challenge(SNOWFLAKE + 6) is None
    assert (
        await store.open_challenges(SNOWFLAKE, ALICE.id, 0) == 1 and await store.open_challenges(None, ALICE.id, 0) == 0
    )
    await service.close()


async def test_reads_sort_the_same_on_both(store: Store) -> None:
    async with store.transaction():
        for key in ("limit_lobbies", "Zebra", "limitless", "a_b", "ab", "é", "rated"):
            await store.save_setting(7, key, "1", MOD_ID, 1.0)
        for name, rating, games, at in (("c", 1600.0, 3, 5.0), ("a", 1600.0, 3, 5.0), ("b", 1600.0, 4, 9.0)):
            await store.save_rating(
                PlayerRating(7, "toy", f"p:{name}", name, Rating(rating, 80, 0.06), games, updated_at=at)
            )
        for game in ("volcano", "fish", "Fish", "geyser"):
            await store.save_rating(PlayerRating(7, game, "p:a", "a", Rating(1500, 350, 0.06), 1, updated_at=1.0))
    assert [key for _, key, *_ in await store.load_settings()] == sorted(
        ["limit_lobbies", "Zebra", "limitless", "a_b", "ab", "é", "rated"]
    )  # byte order, as SQLite compares: not the server locale's
    assert [r.name for r in await store.top_ratings(7, "toy", 10)] == ["b", "a", "c"]
    assert [r.game for r in await store.player_ratings(7, "p:a")] == ["Fish", "fish", "geyser", "toy", "volcano"]
    assert await store.ratings_of(7, "toy", []) == {}


MOD_ID = "local:mod"


async def test_reminders_are_claimed_once_by_two_processes_at_once(database: Path | str) -> None:
    one, two = await Store.open(database, TEST_GAMES), await Store.open(database, TEST_GAMES)
    try:
        service = MatchService(one, FakeTime())
        match = await service.create_match("fish", [ALICE, BOB], seed=5)
        async with one.transaction():
            await one.replace_reminders(match.id, 0, [("half", 1, 10.0), ("last", 1, 20.0), ("idle", 1, 30.0)], False)

        async def claim(store: Store) -> list[tuple[str, int, float]]:
            async with store.transaction():
                return await store.claim_reminders(match.id, 0, 25.0)

        first, second = await asyncio.gather(claim(one), claim(two))
        assert sorted(first + second) == [("half", 1, 10.0), ("last", 1, 20.0)]
        assert [] in (first, second)  # one process got both, the other none
        assert await one.unsent_reminders(match.id, 0) == [("idle", 1, 30.0)]
        assert await two.due_reminder_turns(100.0) == [(match.id, 0)]
    finally:
        await one.close()
        await two.close()


async def test_shard_leases_are_held_by_one_process_at_a_time(database: Path | str) -> None:
    one, two = await Store.open(database, TEST_GAMES), await Store.open(database, TEST_GAMES)
    try:
        assert await one.take_lease(0, "one", now=100.0, until=130.0)
        assert not await two.take_lease(0, "two", now=110.0, until=140.0)  # held
        assert await one.take_lease(0, "one", now=120.0, until=150.0)  # renewed
        assert await two.holds_lease(0, "two", 121.0) is False and await one.holds_lease(0, "one", 121.0)
        assert await two.take_lease(0, "two", now=150.0, until=180.0)  # it ran out: taken over
        assert not await one.holds_lease(0, "one", 151.0) and not await one.take_lease(0, "one", 151.0, 181.0)
        await one.release_lease(0, "one")  # not its own any more: nothing happens
        assert await two.holds_lease(0, "two", 151.0)
        await two.release_lease(0, "two")
        assert await one.take_lease(0, "one", now=152.0, until=182.0)  # handed back: free at once
        assert await two.take_lease(1, "two", now=152.0, until=182.0)  # another shard is another lease
    finally:
        await one.close()
        await two.close()


async def test_a_change_fenced_by_its_lease_commits_before_another_process_can_take_it(database: Path | str) -> None:
    """The fence reads the lease inside the change's transaction; another process taking the lease (it ran
    out) waits until that change has committed, so it then loads the match with the change in it."""
    one, two = await Store.open(database, TEST_GAMES), await Store.open(database, TEST_GAMES)
    try:
        assert await one.take_lease(0, "one", now=0.0, until=30.0)
        inside, order = asyncio.Event(), []

        async def change() -> None:
            async with one.transaction():
                assert await one.holds_lease(0, "one", 29.0)
                inside.set()
                await asyncio.sleep(0.3)
                await one.log_action(None, "fenced", None, "a change under the lease", 29.0)
                order.append("committed")

        async def take_over() -> None:
            await inside.wait()
            taken = await two.take_lease(0, "two", now=31.0, until=61.0)
            order.append(f"taken {taken}")

        await asyncio.gather(change(), take_over())
        assert order == ["committed", "taken True"]
    finally:
        await one.close()
        await two.close()


async def test_a_newer_schema_is_refused_on_both(database: Path | str) -> None:
    store = await Store.open(database, TEST_GAMES)
    async with store.transaction():
        if store.backend == SQLITE:
            await store._db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
        else:
            await store._db.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS) + 1,))
    await store.close()
    with pytest.raises(StoreUnusable, match="newer version of the bot") as refused:
        await Store.open(database, TEST_GAMES)
    assert refused.value.problem == NEWER


async def test_a_failed_change_leaves_nothing_and_the_next_one_goes_through(store: Store) -> None:
    with pytest.raises(RuntimeError, match="halfway"):
        async with store.transaction():
            await store.log_action(None, "first", None, "", 1.0)
            raise RuntimeError("halfway")
    async with store.transaction():
        await store.log_action(None, "second", None, "", 2.0)
    assert [row[0] for row in await store._db.fetch("SELECT kind FROM actions ORDER BY id")] == ["second"]


# --- PostgreSQL only ---


@pytest.mark.backends("postgresql")
async def test_a_transactions_reads_see_its_writes_and_nobody_else_does_until_it_commits(store: Store) -> None:
    seen_outside: list[int] = []
    async with store.transaction():
        await store.log_action(None, "inside", None, "", 1.0)
        assert await store.count_rows("actions") == 1  # the transaction's own connection
        seen_outside.append(await asyncio.create_task(store.count_rows("actions")))  # another task: the pool
    assert seen_outside == [0] and await store.count_rows("actions") == 1


@pytest.mark.backends("postgresql")
async def test_a_second_process_writing_the_same_ply_is_refused_in_words_and_leaves_nothing(database: str) -> None:
    """Reachable only past a failed fence (two processes both sure they own a match): the log's primary key
    refuses the second line, and the player sees NotSaved, not a database error."""
    first, second = await Store.open(database, TEST_GAMES), await Store.open(database, TEST_GAMES)
    try:
        service = MatchService(first, FakeTime())
        await service.start()
        match = await service.create_match("fish", [ALICE, BOB], seed=5)
        await service.move(match.id, ALICE.id, "A1")
        with pytest.raises(NotSaved, match="Another bot process"):
            async with second.transaction():
                await second.log_action(match.id, "doubled", None, "", 2.0)
                await second.append_move(match.id, MoveRecord(1, 0, "B1", 2.0, 0.0))
        assert [r.move for r in await second.log(match.id)] == ["A1"]
        assert [a["kind"] for a in await second.actions(match.id)] == []
        await service.close()
    finally:
        await first.close()
        await second.close()


@pytest.mark.backends("postgresql")
async def test_a_lost_connection_refuses_the_change_in_words_and_the_next_one_reconnects(
    store: Store, database: str
) -> None:
    admin = await asyncpg.connect(SERVER_URL)
    try:
        with pytest.raises(NotSaved, match="lost its connection to its database"):
            async with store.transaction():
                await store.log_action(None, "lost", None, "", 1.0)
                pid = await store._db.fetchval("SELECT pg_backend_pid()")
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
                await asyncio.sleep(0.2)  # the server's goodbye reaches the client: the connection is gone
                await store.log_action(None, "after", None, "", 2.0)
    finally:
        await admin.close()
    async with store.transaction():
        await store.log_action(None, "again", None, "", 3.0)
    assert [row[0] for row in await store._db.fetch("SELECT kind FROM actions ORDER BY id")] == ["again"]


@pytest.mark.backends("postgresql")
async def test_the_json_migrations_6_and_7_run_in_jsonb(database: str) -> None:
    """A PostgreSQL database at version 5 with a Geyser game begun under the old rules and results without
    their termination, as migrations 6 and 7 find them on SQLite (tests/test_service.py, test_termination.py)."""
    connection = await asyncpg.connect(database)
    try:
        await connection.execute(db_postgres.VERSION_TABLE)
        for script in db_postgres.MIGRATIONS[:5]:
            await connection.execute(script)
        await connection.execute("UPDATE schema_version SET version = 5")
        state = GAMES["geyser"].dumps(GAMES["geyser"].new(2, 5, starts="four"))
        result = json.dumps({"scores": [1, 0], "winners": [0], "reason": "alice ran out of time"})
        await connection.executemany(
            "INSERT INTO matches (id, game, game_no, seed, options, state, ply, status, result, created_at,"
            " updated_at) VALUES ($1, $2, 1, 5, $3, $4, 0, $5, $6, 0, 0)",
            [
                (1, "geyser", "{}", state, "running", None),
                (2, "geyser", '{"starts": "two"}', state, "over", result),
                (3, "geyser", '{"starts": null}', state, "over", result),
            ],
        )
        await connection.execute("INSERT INTO actions (match_id, kind, detail, at) VALUES (2, 'flag', '', 0)")
    finally:
        await connection.close()
    store = await Store.open(database, TEST_GAMES)
    try:
        options = {row[0]: json.loads(row[1]) for row in await store._db.fetch("SELECT id, options FROM matches")}
        assert options == {
            1: {"starts": "four", "rounds": 1000},
            2: {"starts": "two"},
            3: {"starts": "four", "rounds": 1000},
        }
        rows = await store._db.fetch("SELECT id, result FROM matches")
        results = {row[0]: json.loads(row[1]) if row[1] else None for row in rows}
        assert results[1] is None and results[2]["termination"] == "flag" and results[3]["termination"] == "rules"
        assert await store.schema_version() == len(MIGRATIONS) and await store.integrity_check() == "ok"
    finally:
        await store.close()


@pytest.mark.backends("postgresql")
async def test_a_server_that_takes_no_writes_is_refused_at_open(database: str) -> None:
    store = await Store.open(database, TEST_GAMES)  # the schema is there: only the write probe can fail
    await store.close()
    with pytest.raises(StoreUnusable, match="the server takes no writes") as refused:
        await Store.open(f"{database}&default_transaction_read_only=on", TEST_GAMES)
    assert refused.value.problem == READ_ONLY


@pytest.mark.backends("postgresql")
async def test_the_integrity_check_notices_a_missing_trigger(store: Store) -> None:
    async with store.transaction():
        await store._db.execute("DROP TRIGGER moves_append_only ON moves")
    assert await store.integrity_check() == "the move log's append-only trigger is missing"


@pytest.mark.backends("postgresql")
async def test_processes_starting_together_migrate_once(database: str) -> None:
    stores = await asyncio.gather(*(Store.open(database, TEST_GAMES) for _ in range(4)))
    try:
        assert {await store.schema_version() for store in stores} == {len(MIGRATIONS)}
    finally:
        for store in stores:
            await store.close()


# --- without a server ---


def test_placeholders_are_numbered_outside_quoted_text() -> None:
    assert (
        numbered("SELECT ? FROM t WHERE a = '?' AND b IN (?, ?)") == "SELECT $1 FROM t WHERE a = '?' AND b IN ($2, $3)"
    )
    assert numbered("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1"


def test_urls_lose_their_password_in_words_and_give_pg_dump_its_environment() -> None:
    url = "postgresql://bot:s3cret@db.example:6543/games?search_path=bot,public&sslmode=require"
    assert redact(url) == "postgresql://bot:***@db.example:6543/games?search_path=bot,public&sslmode=require"
    assert redact("postgresql://bot@db.example/games") == "postgresql://bot@db.example/games"
    environment, schema = libpq_environment(url)
    assert environment == {
        "PGHOST": "db.example",
        "PGPORT": "6543",
        "PGUSER": "bot",
        "PGPASSWORD": "s3cret",
        "PGDATABASE": "games",
        "PGSSLMODE": "require",
    }
    assert schema == "bot"
    assert with_search_path("postgresql://a@b/c?sslmode=off", "s") == "postgresql://a@b/c?sslmode=off&search_path=s"


async def test_no_server_is_refused_at_open_without_showing_the_password() -> None:
    with pytest.raises(StoreUnusable) as refused:
        await Store.open("postgresql://bot:s3cret@127.0.0.1:1/games")
    assert refused.value.problem == UNREADABLE and "s3cret" not in str(refused.value)
    assert "postgresql://bot:***@127.0.0.1:1/games" in str(refused.value)


def test_database_url_chooses_postgresql_and_is_checked() -> None:
    config = Config.load({"DATABASE_URL": "postgresql://bot:pw@db/games"}, dotenv=None)
    assert config.database == "postgresql://bot:pw@db/games"
    plain = Config.load({"DATABASE_PATH": "/tmp/x.sqlite3"}, dotenv=None)
    assert plain.database_url is None and plain.database == Path("/tmp/x.sqlite3")
    with pytest.raises(SystemExit, match="DATABASE_URL must be a postgresql://user:password@host:port/database URL"):
        Config.load({"DATABASE_URL": "mysql://bot:pw@db/games"}, dotenv=None)


def test_the_bot_refuses_to_start_on_an_unreachable_postgresql_in_one_line(tmp_path: Path) -> None:
    env = {
        "DATABASE_URL": "postgresql://bot:s3cret@127.0.0.1:1/games",
        "DATABASE_PATH": str(tmp_path / "data" / "bot.sqlite3"),
        "BACKUP_HOURS": "0",
        "DISCORD_TOKEN": "",
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 1 and len(output.splitlines()) == 1 and "Traceback" not in output, output
    assert output.startswith("The PostgreSQL database postgresql://bot:***@127.0.0.1:1/games is unreadable")
    assert "s3cret" not in output and "Check that its server runs" in output


def test_the_refusal_line_names_the_server_not_a_file() -> None:
    config = Config.load({"DATABASE_URL": "postgresql://bot:pw@db/games"}, dotenv=None)
    line = app.refusal(config, StoreUnusable(redact(config.database), NEWER, "schema 99"))
    assert line == (
        "The PostgreSQL database postgresql://bot:***@db/games is from a newer version of the bot (schema 99)."
        " Run that one."
    )


async def test_a_move_record_reads_the_same_from_either_backend(store: Store) -> None:
    service = MatchService(store, FakeTime(10.0))
    match = await service.create_match("fish", [ALICE, Player("local:bob", "bob")], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    (line,) = await store.log(match.id)
    assert line == MoveRecord(1, 0, "A1", 10.0, None, "move", None)
    assert await store.last_line_at(match.id) == 10.0 and await store.actions(match.id) == []


async def test_running_matches_are_read_for_the_shards_held_only(store: Store) -> None:
    """Start and takeover read their own shards' matches in SQL, by Discord's formula, offline in shard 0;
    the same ids as filtering every row by `shard_of`."""
    from bot.shards import Scope, shard_of

    service = MatchService(store, FakeTime())
    await service.start()
    guilds = [None, 0, 1 << 22, 2 << 22, 3 << 22, 5 << 22, SNOWFLAKE, SNOWFLAKE + (1 << 22)]
    made = {}
    for guild in guilds:
        match = await service.create_match("fish", [ALICE, BOB], seed=5, place=Place(guild_id=guild))
        made[match.id] = guild
    for count in (1, 2, 3, 4):
        for held in ({0}, {1}, {0, 2}, set(range(count)), set()):
            want = sorted(i for i, g in made.items() if shard_of(g, count) in held)
            assert await store.match_ids(scope=Scope(count, frozenset(held))) == want, (count, held)
    assert await store.match_ids(scope=None) == sorted(made)
    await service.close()
