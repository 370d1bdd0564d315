"""The SQLite backend (aiosqlite): the embedded default, one file, nothing to install.

The schema is `MIGRATIONS`, its version SQLite's `user_version`. WAL mode lets readers run while a write
commits; `synchronous=FULL` makes a commit survive a crash. Writes happen inside `transaction()` (BEGIN
IMMEDIATE, one at a time); reads share the one connection. A database the bot cannot use is refused when
opened (StoreUnusable: damaged, unreadable, read-only, locked, on a full disk, from a newer version), and a
write the disk cannot take during play is refused in words (DiskFull, NotSaved).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.db import DAMAGED, FULL, LOCKED, NEWER, READ_ONLY, SQLITE, UNREADABLE, StoreUnusable
from bot.errors import DiskFull, NotSaved

log = logging.getLogger("bot.store")

MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE series (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        players TEXT NOT NULL,              -- JSON [{"id", "name"}], by seat
        best_of INTEGER NOT NULL,
        first_seat INTEGER NOT NULL,        -- places first in game 1; alternates after
        options TEXT NOT NULL,              -- JSON engine options shared by every game
        clock TEXT,                         -- JSON ClockSettings, NULL for no clock
        house_wins INTEGER NOT NULL,        -- say "the house wins" for a level series
        guild_id INTEGER, channel_id INTEGER, thread_id INTEGER,
        status TEXT NOT NULL,
        wins TEXT NOT NULL,                 -- JSON [wins by seat]
        result TEXT,                        -- JSON Outcome once over
        created_at REAL NOT NULL
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        series_id INTEGER REFERENCES series(id),
        game_no INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        options TEXT NOT NULL,
        state TEXT NOT NULL,                -- the engine's dumps()
        ply INTEGER NOT NULL,
        status TEXT NOT NULL,               -- running / over / aborted
        result TEXT,
        guild_id INTEGER, channel_id INTEGER, thread_id INTEGER,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX matches_by_status ON matches(status);
    CREATE INDEX matches_by_series ON matches(series_id);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX seats_by_player ON seats(player_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ply INTEGER NOT NULL,               -- 1 for the first move
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,                 -- canonical notation
        at REAL NOT NULL,
        took REAL,                          -- seconds on the clock, NULL without a clock
        PRIMARY KEY (match_id, ply)
    );
    CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_append_only_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TABLE clocks (
        match_id INTEGER PRIMARY KEY REFERENCES matches(id),
        clock TEXT NOT NULL                 -- JSON MatchClock: absolute times, never countdowns
    );
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        match_id INTEGER REFERENCES matches(id),
        kind TEXT NOT NULL,                 -- pause, resume, addtime, flag, resign, abort, ...
        by_id TEXT,                         -- who did it (NULL: the bot itself)
        detail TEXT NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 2: undo as its own log row, and where the current board post is (so older posts lose their buttons)
    """
    ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';  -- 'move', or 'undo': takes back the
                                                                     -- last move still standing
    ALTER TABLE moves ADD COLUMN by_id TEXT;                        -- who undid it
    ALTER TABLE matches ADD COLUMN board_channel_id INTEGER;
    ALTER TABLE matches ADD COLUMN board_message_id INTEGER;
    """,
    # 3: lobbies, where players gather for games of more than two (or one) players
    """
    CREATE TABLE lobbies (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        creator TEXT NOT NULL,              -- JSON {"id", "name"}
        players TEXT NOT NULL,              -- JSON [{"id", "name"}] in join order: the seat order
        options TEXT NOT NULL,
        clock TEXT,                         -- JSON ClockSettings, NULL for no clock
        guild_id INTEGER, channel_id INTEGER, thread_id INTEGER,
        status TEXT NOT NULL,               -- open / started / cancelled
        match_id INTEGER REFERENCES matches(id),
        created_at REAL NOT NULL
    );
    CREATE INDEX lobbies_by_status ON lobbies(status);
    """,
    # 4: Glicko-2 ratings per game per server (bot/ratings.py), written with the result of each rated game
    """
    CREATE TABLE ratings (
        guild INTEGER NOT NULL,             -- the server's id; 0 offline (a NULL would defeat the key)
        game TEXT NOT NULL,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,                 -- the name of their latest rated game
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild, game, player_id)
    );
    CREATE INDEX ratings_by_player ON ratings(guild, player_id);
    """,
    # 5: challenges, so a challenge starts one match however often (and whenever) Accept is clicked and a
    #    player's open ones can be counted; open lobbies are found per server by index
    """
    CREATE TABLE challenges (
        message_id INTEGER PRIMARY KEY,     -- the challenge's message (Discord id)
        guild_id INTEGER,
        by_id TEXT,                         -- the challenger's player id (NULL: not recorded when sent)
        to_id TEXT,                         -- the challenged player's id: only they may accept
        created_at REAL,
        match_id INTEGER REFERENCES matches(id)  -- the match it started; NULL while open
    );
    CREATE INDEX challenges_open ON challenges(guild_id, by_id, match_id);
    CREATE INDEX lobbies_open ON lobbies(status, guild_id);
    """,
    # 6: Geyser games begun before two-player games started on f1 and f11 only and before the round cap keep
    #    the rules they began with (their logs replay as played): all four starting squares, 1,000 rounds
    """
    UPDATE matches SET options = json_set(options, '$.starts', 'four', '$.rounds', 1000)
        WHERE game = 'geyser' AND json_extract(options, '$.starts') IS NULL;
    """,
    # 7: results say how the game ended (Outcome.termination), for code to read instead of the reason's words.
    #    Results stored before say it in the action log: the service logged each game it ended off the board
    #    as a flag, resign, adjudicate or computers action; a result with none of them ended by the rules.
    """
    UPDATE matches SET result = json_set(result, '$.termination', CASE (
            SELECT kind FROM actions
                WHERE actions.match_id = matches.id AND kind IN ('flag', 'resign', 'adjudicate', 'computers')
                ORDER BY id DESC LIMIT 1)
        WHEN 'flag' THEN 'flag'
        WHEN 'resign' THEN 'resignation'
        WHEN 'adjudicate' THEN 'adjudication'
        WHEN 'computers' THEN 'abandoned'
        ELSE 'rules' END)
        WHERE result IS NOT NULL AND json_extract(result, '$.termination') IS NULL;
    UPDATE series SET result = json_set(result, '$.termination', 'rules')
        WHERE result IS NOT NULL AND json_extract(result, '$.termination') IS NULL;
    """,
    # 8: reminders of the turn in progress (bot/reminders.py, bot/service/reminding.py): deadlines armed like
    #    flags, each marked once sent so it never goes out twice, even after a restart; and how each person
    #    wants them (per person, not per server: a DM reaches them wherever they play), with when the last
    #    reminder DM went to them (one an hour at most, across restarts too)
    """
    CREATE TABLE reminders (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ply INTEGER NOT NULL,               -- the turn they belong to (the match's ply); other plies' are void
        kind TEXT NOT NULL,                 -- half / last / idle (bot/reminders.py)
        number INTEGER NOT NULL,            -- which idle reminder (1 to 3); 1 for the others
        due REAL NOT NULL,
        sent REAL,                          -- when it went out (or was passed over); NULL while armed
        PRIMARY KEY (match_id, ply, kind, number)
    );
    CREATE INDEX reminders_due ON reminders(due) WHERE sent IS NULL;
    CREATE TABLE notify_choices (
        player_id TEXT PRIMARY KEY,         -- a person ("discord:123"), in every server alike
        mode TEXT NOT NULL DEFAULT 'thread', -- dm / thread / off (/notify)
        last_dm REAL                        -- when the last reminder DM went to them
    );
    """,
    # 9: away time (bot/service/away.py): each player's periods away per server, so the yearly allowance counts
    #    what was really taken, and away time still running survives a restart and ends on time (the seats it
    #    stops are in each clock's JSON, `MatchClock.away`)
    """
    CREATE TABLE away (
        id INTEGER PRIMARY KEY,
        guild INTEGER NOT NULL,             -- the server's id; 0 offline (as in ratings)
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        started_at REAL NOT NULL,
        until REAL NOT NULL,                -- when it ends by itself (a later /away may move it on)
        ended_at REAL                       -- when it ended (on time, /back, or a move); NULL while away
    );
    CREATE INDEX away_by_player ON away(guild, player_id, started_at);
    """,
    # 10: takebacks by agreement (bot/service/takebacks.py): a player's request to take back their last move,
    #     who of the others has accepted it so far, and how it closed, so an open request (and its post with
    #     the Accept / Decline buttons) survives a restart
    """
    CREATE TABLE takebacks (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ply INTEGER NOT NULL,               -- the match's ply when asked: a later line of the log lapses it
        seat INTEGER NOT NULL,              -- the requester's seat
        by_id TEXT NOT NULL,                -- the requester's player id
        asked_at REAL NOT NULL,
        expires_at REAL NOT NULL,           -- the move allowance after asking, 10 minutes without a clock
        accepted TEXT NOT NULL,             -- JSON [player ids of those asked who accepted], in order
        status TEXT NOT NULL,               -- open / taken / declined / expired / lapsed
        channel_id INTEGER, message_id INTEGER  -- the request's post (Discord), NULL until posted
    );
    CREATE INDEX takebacks_by_status ON takebacks(status, match_id);
    """,
    # 11: server settings (bot/service/settings.py): what each server chose instead of the defaults (the
    #     environment's, else the code's), with who last set or reset each and when
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,          -- the server's id; 0 offline (as in ratings)
        key TEXT NOT NULL,                  -- the setting (bot/service/settings.py SETTINGS)
        value TEXT,                         -- as stored by the setting's spec; NULL: reset, the default applies
        set_by TEXT,                        -- the player id of who set or reset it
        set_at REAL NOT NULL,
        PRIMARY KEY (guild_id, key)
    );
    """,
    # 12: shard leases (bot/shards.py): which bot process acts on the matches of each shard, until when
    """
    CREATE TABLE leases (
        shard INTEGER PRIMARY KEY,          -- (guild_id >> 22) % SHARD_COUNT; offline matches are shard 0
        owner TEXT NOT NULL,                -- the process holding it (host:pid:random)
        expires_at REAL NOT NULL            -- free once past (the owner renews it well before)
    );
    """,
    # 13: tournaments (bot/service/tournaments.py): each tournament's place, sign-up post, status and closing
    #     time beside its whole document (bot/tournaments: `Tournament.to_json()`), and which match (or death
    #     match series) plays which board of which round, so a restart mid-round finds every game again
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,                   -- NULL offline
        channel_id INTEGER,                 -- where it was opened (its sign-up post)
        thread_id INTEGER,                  -- its thread (announcements), NULL until opened
        message_id INTEGER,                 -- the sign-up post with its Join / Leave buttons
        created_by TEXT NOT NULL,           -- JSON {"id", "name"} of the moderator who opened it
        status TEXT NOT NULL,               -- open (sign-up) / running / over / cancelled
        closes_at REAL,                     -- when sign-up closes and it starts by itself; NULL: by hand
        document TEXT NOT NULL,             -- JSON Tournament.to_json(): players, pairings, results
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tournaments_by_status ON tournaments(status);
    CREATE TABLE tournament_games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        match_id INTEGER REFERENCES matches(id),   -- the board's match (its first game for a death match)
        series_id INTEGER REFERENCES series(id),   -- the death match series, NULL for a single match
        voided INTEGER NOT NULL DEFAULT 0   -- 1: its round was voided or the game replaced; it counts for nothing
    );
    CREATE INDEX tournament_games_by_tournament ON tournament_games(tournament_id, round, board);
    CREATE INDEX tournament_games_by_match ON tournament_games(match_id);
    CREATE INDEX tournament_games_by_series ON tournament_games(series_id);
    """,
    # 14: challenges stored whole (their Accept button names only the id): game, clock and channel. Since this
    #     version a challenge's `message_id` is the id of the command that sent it (a Discord snowflake too),
    #     known before its post, so the button can carry it; rows from before have no game and are refused
    """
    ALTER TABLE challenges ADD COLUMN channel_id INTEGER;  -- where its post is: Accept works there only
    ALTER TABLE challenges ADD COLUMN game TEXT;           -- NULL: sent before this version
    ALTER TABLE challenges ADD COLUMN clock TEXT;          -- JSON ClockSettings, NULL: untimed
    """,
    # 15: quiet restarts (bot/service/downtime.py): when each shard's process last proved it was up, so a
    #     restart charges the time it was down to nobody; and which ply the board post is of, so a restart
    #     knows which boards are up as they are and need no repost
    """
    CREATE TABLE heartbeats (
        shard INTEGER PRIMARY KEY,          -- as in leases; shard 0 for one process
        alive_at REAL NOT NULL              -- the last time its process wrote here (every HEARTBEAT_EVERY)
    );
    ALTER TABLE matches ADD COLUMN board_ply INTEGER;      -- the ply of board_message_id; NULL: before this version
    """,
]
"""The SQLite schema, one script per version (its number is its place in the list, from 1). Each has its
PostgreSQL twin at the same number in bot/db_postgres.py: the same tables and columns, in that database's own
DDL (tests/test_store_backends.py compares them)."""


def _sqlite_code(error: sqlite3.Error) -> int:
    """The primary SQLite result code of an error (SQLITE_FULL, SQLITE_READONLY, ...), 0 if unknown."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(error).lower()
    if "disk is full" in text:
        return sqlite3.SQLITE_FULL
    return sqlite3.SQLITE_READONLY if "readonly" in text else 0


def _unusable(path: str, error: sqlite3.Error) -> StoreUnusable:
    """What an error met while opening and checking the database means for the person starting the bot."""
    code = _sqlite_code(error)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return StoreUnusable(path, DAMAGED, str(error))
    if code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM):
        return StoreUnusable(path, READ_ONLY, str(error))
    if code == sqlite3.SQLITE_BUSY:
        return StoreUnusable(path, LOCKED, f"{error}: another program is writing it (is the bot already running?)")
    if code == sqlite3.SQLITE_FULL:
        return StoreUnusable(path, FULL, str(error))
    return StoreUnusable(path, UNREADABLE, str(error))


def _file_problem(path: str) -> StoreUnusable | None:
    """What the system says before SQLite does: a file (or its folder, where SQLite keeps the -wal and -shm
    files) that the bot may not read or write."""
    file = Path(path)
    for mode, problem in (("rb", UNREADABLE), ("r+b", READ_ONLY)):
        try:
            if file.exists():
                with open(file, mode):
                    pass
        except OSError as error:
            return StoreUnusable(path, problem, _reason(error))
    try:
        with tempfile.TemporaryFile(dir=file.parent):
            pass
    except OSError as error:
        if error.errno == errno.ENOSPC:
            return StoreUnusable(path, FULL, _reason(error))
        return StoreUnusable(path, READ_ONLY, f"its folder is not writable: {_reason(error)}")
    return None


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _not_saved(path: str, error: sqlite3.Error) -> Exception | None:
    """The player-facing refusal for a write the database could not take (full disk, read-only), or None."""
    code = _sqlite_code(error)
    if code == sqlite3.SQLITE_FULL:
        log.error("database %s: the disk is full (%s); the change was rolled back, nothing saved", path, error)
        return DiskFull(
            "The bot's disk is full: the move was not saved, and nothing changed. "
            "Try again once whoever runs the bot has freed some space."
        )
    if code == sqlite3.SQLITE_READONLY:
        log.error("database %s became read-only (%s); the change was rolled back, nothing saved", path, error)
        return NotSaved(
            "The bot's database has become read-only: the move was not saved, and nothing changed. "
            "Tell whoever runs the bot."
        )
    return None


class SqliteDatabase:
    """One aiosqlite connection; writes are serialised by `transaction()`."""

    backend = SQLITE
    for_update = ""
    for_share = ""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self.target = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        """Open (creating and migrating if needed) the database file.

        A database the bot cannot use is refused here with StoreUnusable, its connection closed (an open
        one would keep the process alive): damaged (`PRAGMA quick_check`), unreadable, locked, from a
        newer version, or read-only (a write probe, rolled back), so it fails at start, not at the first move.
        """
        if path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreUnusable(path, UNREADABLE, f"its folder cannot be made ({_reason(error)})") from None
            if (problem := _file_problem(path)) is not None:
                raise problem
        connection = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connection
        except sqlite3.Error as error:
            # aiosqlite stops its worker thread after a failed connect: let it finish while this loop runs
            if (thread := getattr(connection, "_thread", None)) is not None:
                await asyncio.to_thread(thread.join, 5)
            raise _unusable(path, error) from None
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=FULL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            database = cls(db, path)
            await database._check()
            await database._migrate()
            await database._probe_write()
        except BaseException as error:
            try:
                await db.close()
            except sqlite3.Error:
                log.exception("closing the refused database %s failed", path)
            if isinstance(error, sqlite3.Error):
                raise _unusable(path, error) from None
            raise
        return database

    async def _check(self) -> None:
        """`PRAGMA quick_check` (the cheap one: no index cross-checks); a damaged database is refused."""
        async with self._db.execute("PRAGMA quick_check(3)") as cursor:
            verdict = " ".join("; ".join(str(row[0]) for row in await cursor.fetchall()).split())  # one line
        if verdict != "ok":
            raise StoreUnusable(self.target, DAMAGED, f"PRAGMA quick_check found: {verdict[:300]}")

    async def _probe_write(self) -> None:
        """Write one harmless change and roll it back: a read-only database fails here, not at the first move."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._db.execute(f"PRAGMA user_version={await self.schema_version()}")
        finally:
            await self._rollback()

    async def _rollback(self) -> None:
        """Roll back the open transaction, unless SQLite already has (it does by itself on a full disk)."""
        if self._db.in_transaction:
            await self._db.execute("ROLLBACK")

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StoreUnusable(self.target, NEWER, f"it is from a newer version of the bot (schema {version})")
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            # executescript commits first; the version bump lands in the same script so a crash
            # between the two cannot leave a half-applied migration marked as done.
            await self._db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Everything written inside commits together, or nothing does.

        A write the database cannot take (its disk is full, or it has become read-only) rolls the whole
        transaction back and is raised as `bot.service.DiskFull` / `NotSaved`, ServiceErrors that
        front-ends show as a plain refusal; the next transaction, once there is space, goes through as usual.
        """
        async with self._write_lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            except sqlite3.OperationalError as error:
                refusal = _not_saved(self.target, error)
                if refusal is None:
                    raise
                raise refusal from error

    # --- statements ---

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """aiosqlite's own: await it, or use it as `async with ... as cursor` (SQLite-only tests do)."""
        return self._db.execute(sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        async with self._db.execute(sql, args) as cursor:
            return list(await cursor.fetchall())

    async def fetchrow(self, sql: str, args: Sequence[Any] = ()) -> Any | None:
        rows = await self.fetch(sql, args)  # every row read: a RETURNING statement is finished before COMMIT
        return rows[0] if rows else None

    async def fetchval(self, sql: str, args: Sequence[Any] = ()) -> Any:
        row = await self.fetchrow(sql, args)
        return None if row is None else row[0]

    # --- the database as a whole ---

    async def integrity_check(self) -> str:
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else "no answer"

    async def tables(self) -> list[str]:
        rows = await self.fetch("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return [row[0] for row in rows if not row[0].startswith("sqlite_")]

    async def columns(self, table: str) -> list[str]:
        return [row["name"] for row in await self.fetch(f"PRAGMA table_info({table})")]

    async def copy_rows(self, table: str, columns: list[str], rows: Sequence[Sequence[Any]]) -> None:
        marks = ", ".join("?" * len(columns))
        await self._db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def reset_identities(self) -> None:
        """Nothing to do: an INTEGER PRIMARY KEY's next id is always after the largest."""

    async def backup_to(self, path: Path) -> None:
        """Copy the database as last committed to `path` with SQLite's online backup API (bot/backup.py).

        The copy reads through a connection of its own: in WAL mode that is one snapshot of whole
        transactions, taken while the bot's own connection goes on writing. The copy is a single file
        (rollback journal, no -wal beside it).
        """
        if self.target == ":memory:":
            raise ValueError("an in-memory database cannot be backed up")

        def copy() -> None:
            source = sqlite3.connect(self.target, timeout=30)
            target = sqlite3.connect(str(path))
            try:
                source.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")
            finally:
                target.close()
                source.close()

        await asyncio.to_thread(copy)
