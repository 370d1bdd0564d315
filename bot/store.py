"""SQLite persistence (aiosqlite): the schema, its migrations, and the reads and writes the service makes.

The database is the source of truth; the service's memory is a cache of running matches. Writes happen
inside `transaction()`, so a move, its new state, the clock and the log line commit together or not at
all. WAL mode lets readers run while a write commits; `synchronous=FULL` makes a commit survive a crash.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import sqlite3
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot import move_log
from bot.clock import ClockSettings, MatchClock
from bot.errors import DiskFull, NotSaved
from bot.games import GAMES, Game, Outcome
from bot.games.base import BadState
from bot.models import OVER, RUNNING, AwayPeriod, Lobby, Match, MoveRecord, Place, Player, Series, Takeback
from bot.ratings import PlayerRating, Rating

log = logging.getLogger(__name__)

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
]

DAMAGED, UNREADABLE, READ_ONLY, LOCKED, FULL, NEWER = "damaged", "unreadable", "read-only", "locked", "full", "newer"
"""Why `Store.open` refuses a database (StoreUnusable.problem)."""


class StoreUnusable(RuntimeError):
    """The bot must not start on this database: `problem` is one of DAMAGED, UNREADABLE, READ_ONLY, LOCKED,
    FULL, NEWER; `detail` says what SQLite or the system found. The message names the file."""

    def __init__(self, path: str, problem: str, detail: str) -> None:
        super().__init__(f"database {path} is {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail


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


class Store:
    """One aiosqlite connection; writes are serialised by `transaction()`."""

    def __init__(self, db: aiosqlite.Connection, path: str, games: dict[str, Game]) -> None:
        self._db = db
        self.path = path
        self.games = games
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, games: dict[str, Game] | None = None) -> Store:
        """Open (creating and migrating if needed) the database; `games` defaults to every game.

        A database the bot cannot use is refused here with StoreUnusable, its connection closed (an open
        one would keep the process alive): damaged (`PRAGMA quick_check`), unreadable, locked, from a
        newer version, or read-only (a write probe, rolled back), so it fails at start, not at the first move.
        """
        path = str(path)
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
            store = cls(db, path, GAMES if games is None else games)
            await store._check()
            await store._migrate()
            await store._probe_write()
        except BaseException as error:
            try:
                await db.close()
            except sqlite3.Error:
                log.exception("closing the refused database %s failed", path)
            if isinstance(error, sqlite3.Error):
                raise _unusable(path, error) from None
            raise
        return store

    async def _check(self) -> None:
        """`PRAGMA quick_check` (the cheap one: no index cross-checks); a damaged database is refused."""
        async with self._db.execute("PRAGMA quick_check(3)") as cursor:
            verdict = " ".join("; ".join(str(row[0]) for row in await cursor.fetchall()).split())  # one line
        if verdict != "ok":
            raise StoreUnusable(self.path, DAMAGED, f"PRAGMA quick_check found: {verdict[:300]}")

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
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = row[0] if row else 0
        if version > len(MIGRATIONS):
            raise StoreUnusable(self.path, NEWER, f"it is from a newer version of the bot (schema {version})")
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
                refusal = _not_saved(self.path, error)
                if refusal is None:
                    raise
                raise refusal from error

    # --- writes (call inside transaction()) ---

    async def insert_series(self, series: Series) -> int:
        cursor = await self._db.execute(
            "INSERT INTO series (game, players, best_of, first_seat, options, clock, house_wins, guild_id,"
            " channel_id, thread_id, status, wins, result, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                series.game,
                _players_json(series.players),
                series.best_of,
                series.first,
                json.dumps(series.options),
                _settings_json(series.clock),
                int(series.house_wins),
                series.place.guild_id,
                series.place.channel_id,
                series.place.thread_id,
                series.status,
                json.dumps(series.wins),
                _outcome_json(series.result),
                series.created_at,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def update_series(self, series: Series) -> None:
        await self._db.execute(
            "UPDATE series SET status = ?, wins = ?, result = ?, thread_id = ? WHERE id = ?",
            (
                series.status,
                json.dumps(series.wins),
                _outcome_json(series.result),
                series.place.thread_id,
                series.id,
            ),
        )

    async def insert_match(self, match: Match) -> int:
        game = self.games[match.game]
        cursor = await self._db.execute(
            "INSERT INTO matches (game, series_id, game_no, seed, options, state, ply, status, result,"
            " guild_id, channel_id, thread_id, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                match.game,
                match.series_id,
                match.game_no,
                match.seed,
                json.dumps(match.options),
                game.dumps(match.state),
                match.ply,
                match.status,
                _outcome_json(match.result),
                match.place.guild_id,
                match.place.channel_id,
                match.place.thread_id,
                match.created_at,
                match.created_at,
            ),
        )
        match_id = cursor.lastrowid
        assert match_id is not None
        await self._db.executemany(
            "INSERT INTO seats (match_id, seat, player_id, name) VALUES (?, ?, ?, ?)",
            [(match_id, seat, p.id, p.name) for seat, p in enumerate(match.players)],
        )
        if match.clock is not None:
            await self._db.execute(
                "INSERT INTO clocks (match_id, clock) VALUES (?, ?)",
                (match_id, json.dumps(match.clock.to_json())),
            )
        return match_id

    async def update_match(self, match: Match, now: float) -> None:
        """Write the state, ply, status, result, place and clock of a match."""
        await self._db.execute(
            "UPDATE matches SET state = ?, ply = ?, status = ?, result = ?, thread_id = ?, board_channel_id = ?,"
            " board_message_id = ?, updated_at = ? WHERE id = ?",
            (
                self.games[match.game].dumps(match.state),
                match.ply,
                match.status,
                _outcome_json(match.result),
                match.place.thread_id,
                *(match.board or (None, None)),
                now,
                match.id,
            ),
        )
        if match.clock is not None:
            await self.update_clock(match.id, match.clock)

    async def update_clock(self, match_id: int, clock: MatchClock) -> None:
        await self._db.execute(
            "UPDATE clocks SET clock = ? WHERE match_id = ?", (json.dumps(clock.to_json()), match_id)
        )

    async def append_move(self, match_id: int, record: MoveRecord) -> None:
        await self._db.execute(
            "INSERT INTO moves (match_id, ply, seat, move, at, took, kind, by_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, record.ply, record.seat, record.move, record.at, record.took, record.kind, record.by_id),
        )

    async def log_action(self, match_id: int | None, kind: str, by_id: str | None, detail: str, at: float) -> None:
        await self._db.execute(
            "INSERT INTO actions (match_id, kind, by_id, detail, at) VALUES (?, ?, ?, ?, ?)",
            (match_id, kind, by_id, detail, at),
        )

    async def insert_lobby(self, lobby: Lobby) -> int:
        cursor = await self._db.execute(
            "INSERT INTO lobbies (game, creator, players, options, clock, guild_id, channel_id, thread_id, status,"
            " match_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                lobby.game,
                json.dumps({"id": lobby.creator.id, "name": lobby.creator.name}),
                _players_json(tuple(lobby.players)),
                json.dumps(lobby.options),
                _settings_json(lobby.clock),
                lobby.place.guild_id,
                lobby.place.channel_id,
                lobby.place.thread_id,
                lobby.status,
                lobby.match_id,
                lobby.created_at,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def update_lobby(self, lobby: Lobby) -> None:
        await self._db.execute(
            "UPDATE lobbies SET players = ?, status = ?, match_id = ? WHERE id = ?",
            (_players_json(tuple(lobby.players)), lobby.status, lobby.match_id, lobby.id),
        )

    # --- reads ---

    async def load_lobby(self, lobby_id: int) -> Lobby | None:
        async with self._db.execute("SELECT * FROM lobbies WHERE id = ?", (lobby_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _lobby(row)

    async def open_lobbies(self, guild_id: int | None) -> list[Lobby]:
        """A server's open lobbies, oldest first (one indexed query, however many are open elsewhere)."""
        async with self._db.execute(
            "SELECT * FROM lobbies WHERE status = 'open' AND guild_id IS ? ORDER BY id", (guild_id,)
        ) as cursor:
            return [_lobby(row) for row in await cursor.fetchall()]

    async def lobby_ids(self, status: str) -> list[int]:
        async with self._db.execute("SELECT id FROM lobbies WHERE status = ? ORDER BY id", (status,)) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def match_ids(self, status: str | None = RUNNING) -> list[int]:
        sql = "SELECT id FROM matches" + (" WHERE status = ?" if status else "") + " ORDER BY id"
        async with self._db.execute(sql, (status,) if status else ()) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def solo_match_ids(self, game: str, guild_id: int | None) -> list[int]:
        """Finished one-player matches of a game in one server (None: offline), oldest first."""
        async with self._db.execute(
            "SELECT m.id FROM matches m WHERE m.game = ? AND m.status = ? AND m.guild_id IS ?"
            " AND (SELECT COUNT(*) FROM seats s WHERE s.match_id = m.id) = 1 ORDER BY m.id",
            (game, OVER, guild_id),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def insert_challenge(self, message_id: int, guild_id: int | None, by_id: str, to_id: str, at: float) -> None:
        await self._db.execute(
            "INSERT OR IGNORE INTO challenges (message_id, guild_id, by_id, to_id, created_at) VALUES (?, ?, ?, ?, ?)",
            (message_id, guild_id, by_id, to_id, at),
        )

    async def challenged(self, message_id: int) -> str | None:
        """Who a recorded challenge was sent to (None: not recorded)."""
        async with self._db.execute("SELECT to_id FROM challenges WHERE message_id = ?", (message_id,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def accept_challenge(self, message_id: int, match_id: int) -> None:
        """Record the match a challenge started (a challenge sent before this was recorded gets a row now)."""
        await self._db.execute(
            "INSERT INTO challenges (message_id, match_id) VALUES (?, ?)"
            " ON CONFLICT(message_id) DO UPDATE SET match_id = excluded.match_id",
            (message_id, match_id),
        )

    async def challenge_match(self, message_id: int) -> int | None:
        """The match an accepted challenge started, or None if it was never accepted."""
        async with self._db.execute("SELECT match_id FROM challenges WHERE message_id = ?", (message_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row and row[0] is not None else None

    async def open_challenges(self, guild_id: int | None, by_id: str, since: float) -> int:
        """How many challenges `by_id` sent in a server since `since` that nobody has accepted."""
        async with self._db.execute(
            "SELECT COUNT(*) FROM challenges WHERE guild_id IS ? AND by_id = ? AND match_id IS NULL"
            " AND created_at >= ?",
            (guild_id, by_id, since),
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def load_match(self, match_id: int) -> Match | None:
        async with self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT player_id, name FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
        ) as cursor:
            players = tuple(Player(r["player_id"], r["name"]) for r in await cursor.fetchall())
        async with self._db.execute("SELECT clock FROM clocks WHERE match_id = ?", (match_id,)) as cursor:
            clock_row = await cursor.fetchone()
        try:
            state = self.games[row["game"]].loads(row["state"])
        except BadState as error:
            raise BadState(f"match #{match_id}: {error}") from error
        return Match(
            id=row["id"],
            game=row["game"],
            players=players,
            seed=row["seed"],
            options=json.loads(row["options"]),
            state=state,
            ply=row["ply"],
            status=row["status"],
            result=_outcome(row["result"]),
            clock=MatchClock.from_json(json.loads(clock_row["clock"])) if clock_row else None,
            series_id=row["series_id"],
            game_no=row["game_no"],
            place=Place(row["guild_id"], row["channel_id"], row["thread_id"]),
            board=(row["board_channel_id"], row["board_message_id"]) if row["board_message_id"] else None,
            created_at=row["created_at"],
        )

    async def load_series(self, series_id: int) -> Series | None:
        async with self._db.execute("SELECT * FROM series WHERE id = ?", (series_id,)) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT id FROM matches WHERE series_id = ? ORDER BY game_no", (series_id,)
        ) as cursor:
            games = [r[0] for r in await cursor.fetchall()]
        clock = json.loads(row["clock"]) if row["clock"] else None
        return Series(
            id=row["id"],
            game=row["game"],
            players=tuple(Player(p["id"], p["name"]) for p in json.loads(row["players"])),
            best_of=row["best_of"],
            first=row["first_seat"],
            options=json.loads(row["options"]),
            clock=ClockSettings(**clock) if clock else None,
            house_wins=bool(row["house_wins"]),
            place=Place(row["guild_id"], row["channel_id"], row["thread_id"]),
            status=row["status"],
            wins=json.loads(row["wins"]),
            games=games,
            result=_outcome(row["result"]),
            created_at=row["created_at"],
        )

    async def log(self, match_id: int) -> list[MoveRecord]:
        """Every line of the move log, undos included, in order."""
        async with self._db.execute(
            "SELECT ply, seat, move, at, took, kind, by_id FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        ) as cursor:
            return [MoveRecord(*row) for row in await cursor.fetchall()]

    async def moves(self, match_id: int) -> list[MoveRecord]:
        """The moves still standing: the log with every undo taking back the last move before it."""
        return move_log.standing(await self.log(match_id))

    async def actions(self, match_id: int) -> list[dict[str, Any]]:
        async with self._db.execute(
            "SELECT kind, by_id, detail, at FROM actions WHERE match_id = ? ORDER BY id", (match_id,)
        ) as cursor:
            return [dict(row) for row in await cursor.fetchall()]

    # --- reminders (bot/service/reminding.py): the turn in progress's, and each person's choice ---

    async def load_reminders(self) -> list[tuple[int, int, str, int, float, float | None]]:
        """Every stored reminder of a running match: (match, ply, kind, number, due, sent). Those of matches
        no longer running are deleted first (they can never be sent)."""
        async with self.transaction():
            await self._db.execute(
                "DELETE FROM reminders WHERE match_id NOT IN (SELECT id FROM matches WHERE status = ?)", (RUNNING,)
            )
        async with self._db.execute(
            "SELECT match_id, ply, kind, number, due, sent FROM reminders ORDER BY match_id, due"
        ) as cursor:
            return [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in await cursor.fetchall()]

    async def replace_reminders(
        self, match_id: int, ply: int, reminders: list[tuple[str, int, float]], planned_before: bool
    ) -> list[tuple[str, int, float]]:
        """The reminders (kind, number, due) of a match's turn `ply`, instead of every unsent one it had and
        every row of its other turns (call inside transaction()). A reminder of this turn sent already stays
        sent and is not stored again (`planned_before`: this turn may have rows). Returns those stored."""
        await self._db.execute(
            "DELETE FROM reminders WHERE match_id = ? AND (ply != ? OR sent IS NULL)", (match_id, ply)
        )
        if planned_before:
            async with self._db.execute(
                "SELECT kind, number FROM reminders WHERE match_id = ? AND ply = ?", (match_id, ply)
            ) as cursor:
                sent = {(row[0], row[1]) for row in await cursor.fetchall()}
            reminders = [r for r in reminders if (r[0], r[1]) not in sent]
        await self._db.executemany(
            "INSERT INTO reminders (match_id, ply, kind, number, due) VALUES (?, ?, ?, ?, ?)",
            [(match_id, ply, kind, number, due) for kind, number, due in reminders],
        )
        return reminders

    async def unsent_reminders(
        self, match_id: int, ply: int, due_by: float | None = None
    ) -> list[tuple[str, int, float]]:
        """A turn's reminders not yet sent (kind, number, due), by due time; only those due by `due_by` if given."""
        sql = "SELECT kind, number, due FROM reminders WHERE match_id = ? AND ply = ? AND sent IS NULL"
        args: tuple[Any, ...] = (match_id, ply) if due_by is None else (match_id, ply, due_by)
        sql += " ORDER BY due" if due_by is None else " AND due <= ? ORDER BY due"
        async with self._db.execute(sql, args) as cursor:
            return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]

    async def claim_reminders(self, match_id: int, ply: int, now: float) -> list[tuple[str, int, float]]:
        """Mark a turn's reminders due by `now` sent, and return them (kind, number, due) by due time (call
        inside transaction(): another connection that claims them at the same time gets none)."""
        due = await self.unsent_reminders(match_id, ply, now)
        await self._db.execute(
            "UPDATE reminders SET sent = ? WHERE match_id = ? AND ply = ? AND sent IS NULL AND due <= ?",
            (now, match_id, ply, now),
        )
        return due

    async def due_reminder_turns(self, now: float) -> list[tuple[int, int]]:
        """The (match, ply) of every unsent reminder due by `now` (the sweep's question; one indexed query)."""
        async with self._db.execute(
            "SELECT DISTINCT match_id, ply FROM reminders WHERE sent IS NULL AND due <= ? ORDER BY match_id", (now,)
        ) as cursor:
            return [(row[0], row[1]) for row in await cursor.fetchall()]

    async def notify_choice(self, player_id: str) -> tuple[str | None, float | None]:
        """A person's reminder choice (None: never chosen) and when their last reminder DM went out."""
        async with self._db.execute(
            "SELECT mode, last_dm FROM notify_choices WHERE player_id = ?", (player_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return (None, None) if row is None else (row[0], row[1])

    async def set_notify_choice(self, player_id: str, mode: str) -> None:
        await self._db.execute(
            "INSERT INTO notify_choices (player_id, mode) VALUES (?, ?)"
            " ON CONFLICT(player_id) DO UPDATE SET mode = excluded.mode",
            (player_id, mode),
        )

    async def set_last_dm(self, player_id: str, at: float) -> None:
        await self._db.execute(
            "INSERT INTO notify_choices (player_id, last_dm) VALUES (?, ?)"
            " ON CONFLICT(player_id) DO UPDATE SET last_dm = excluded.last_dm",
            (player_id, at),
        )

    # --- ratings (bot/ratings.py; guild None, offline, is stored as 0) ---

    async def ratings_of(self, guild_id: int | None, game: str, player_ids: list[str]) -> dict[str, PlayerRating]:
        """The stored ratings of these players in one game on one server (the unrated are missing)."""
        marks = ", ".join("?" * len(player_ids))
        async with self._db.execute(
            f"SELECT * FROM ratings WHERE guild = ? AND game = ? AND player_id IN ({marks})",
            (guild_id or 0, game, *player_ids),
        ) as cursor:
            return {row["player_id"]: _rating(row) for row in await cursor.fetchall()}

    async def save_rating(self, rating: PlayerRating) -> None:
        """Insert or replace one player's rating (call inside transaction(), with the game's end)."""
        await self._db.execute(
            "INSERT OR REPLACE INTO ratings (guild, game, player_id, name, rating, rd, volatility, games, wins,"
            " losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rating.guild_id or 0,
                rating.game,
                rating.player_id,
                rating.name,
                rating.rating.rating,
                rating.rating.rd,
                rating.rating.volatility,
                rating.games,
                rating.wins,
                rating.losses,
                rating.draws,
                rating.updated_at,
            ),
        )

    async def top_ratings(self, guild_id: int | None, game: str, limit: int) -> list[PlayerRating]:
        """One game's ratings on one server, best first (ties: more games, then who got there first)."""
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild = ? AND game = ? ORDER BY rating DESC, games DESC, updated_at LIMIT ?",
            (guild_id or 0, game, limit),
        ) as cursor:
            return [_rating(row) for row in await cursor.fetchall()]

    async def player_ratings(self, guild_id: int | None, player_id: str) -> list[PlayerRating]:
        """Every game one player is rated in on one server, by game key."""
        async with self._db.execute(
            "SELECT * FROM ratings WHERE guild = ? AND player_id = ? ORDER BY game", (guild_id or 0, player_id)
        ) as cursor:
            return [_rating(row) for row in await cursor.fetchall()]

    # --- away time (bot/service/away.py; guild None, offline, is stored as 0) ---

    async def insert_away(self, period: AwayPeriod) -> int:
        cursor = await self._db.execute(
            "INSERT INTO away (guild, player_id, name, started_at, until, ended_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                period.guild_id or 0,
                period.player.id,
                period.player.name,
                period.started_at,
                period.until,
                period.ended_at,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def update_away(self, period: AwayPeriod) -> None:
        """Write when an away period ends by itself (`until`) and when it ended (`ended_at`)."""
        await self._db.execute(
            "UPDATE away SET until = ?, ended_at = ? WHERE id = ?", (period.until, period.ended_at, period.id)
        )

    async def away_periods(self, guild_id: int | None, player_id: str, since: float) -> list[AwayPeriod]:
        """One player's away periods on one server that began at `since` or later, oldest first."""
        async with self._db.execute(
            "SELECT * FROM away WHERE guild = ? AND player_id = ? AND started_at >= ? ORDER BY started_at, id",
            (guild_id or 0, player_id, since),
        ) as cursor:
            return [_away(row) for row in await cursor.fetchall()]

    async def running_away(self) -> list[AwayPeriod]:
        """Every away period that has not ended, on every server."""
        async with self._db.execute("SELECT * FROM away WHERE ended_at IS NULL ORDER BY id") as cursor:
            return [_away(row) for row in await cursor.fetchall()]

    # --- server settings (bot/service/settings.py; guild None, offline, is stored as 0) ---

    async def load_settings(self) -> list[tuple[int, str, str | None, str | None, float]]:
        """Every stored setting of every server: (server, key, value or None once reset, set by, set at)."""
        async with self._db.execute(
            "SELECT guild_id, key, value, set_by, set_at FROM guild_settings ORDER BY guild_id, key"
        ) as cursor:
            return [(row[0], row[1], row[2], row[3], row[4]) for row in await cursor.fetchall()]

    async def save_setting(self, guild_id: int | None, key: str, value: str | None, by_id: str, at: float) -> None:
        """Store one server's setting (None: reset to the default) with who and when (call inside transaction())."""
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, key, value, set_by, set_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(guild_id, key) DO UPDATE SET value = excluded.value, set_by = excluded.set_by,"
            " set_at = excluded.set_at",
            (guild_id or 0, key, value, by_id, at),
        )

    # --- takebacks by agreement (bot/service/takebacks.py) ---

    async def insert_takeback(self, takeback: Takeback) -> int:
        cursor = await self._db.execute(
            "INSERT INTO takebacks (match_id, ply, seat, by_id, asked_at, expires_at, accepted, status, channel_id,"
            " message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                takeback.match_id,
                takeback.ply,
                takeback.seat,
                takeback.by_id,
                takeback.asked_at,
                takeback.expires_at,
                json.dumps(list(takeback.accepted)),
                takeback.status,
                *(takeback.message or (None, None)),
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def update_takeback(self, takeback: Takeback) -> None:
        """Write who has accepted a request, how it stands and where it is posted."""
        await self._db.execute(
            "UPDATE takebacks SET accepted = ?, status = ?, channel_id = ?, message_id = ? WHERE id = ?",
            (json.dumps(list(takeback.accepted)), takeback.status, *(takeback.message or (None, None)), takeback.id),
        )

    async def takebacks(self, match_id: int | None = None, status: str | None = None) -> list[Takeback]:
        """Takeback requests, oldest first: one match's (None: every match's), of one status (None: any)."""
        sql = "SELECT * FROM takebacks WHERE (? IS NULL OR match_id = ?) AND (? IS NULL OR status = ?) ORDER BY id"
        async with self._db.execute(sql, (match_id, match_id, status, status)) as cursor:
            return [_takeback(row) for row in await cursor.fetchall()]

    async def last_line_at(self, match_id: int) -> float | None:
        """When the newest line of a match's move log (a move, a resignation or an undo) was written."""
        async with self._db.execute(
            "SELECT at FROM moves WHERE match_id = ? ORDER BY ply DESC LIMIT 1", (match_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return float(row[0]) if row else None

    async def integrity_check(self) -> str:
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else "no answer"

    async def backup_to(self, path: str | Path) -> None:
        """Copy the database as last committed to `path` with SQLite's online backup API (bot/backup.py).

        The copy reads through a connection of its own: in WAL mode that is one snapshot of whole
        transactions, taken while the bot's own connection goes on writing. The copy is a single file
        (rollback journal, no -wal beside it).
        """
        if self.path == ":memory:":
            raise ValueError("an in-memory database cannot be backed up")

        def copy() -> None:
            source = sqlite3.connect(self.path, timeout=30)
            target = sqlite3.connect(str(path))
            try:
                source.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")
            finally:
                target.close()
                source.close()

        await asyncio.to_thread(copy)


def _players_json(players: tuple[Player, ...]) -> str:
    return json.dumps([{"id": p.id, "name": p.name} for p in players])


def _settings_json(settings: ClockSettings | None) -> str | None:
    if settings is None:
        return None
    return json.dumps({"move_seconds": settings.move_seconds, "reserve_seconds": settings.reserve_seconds})


def _outcome_json(outcome: Outcome | None) -> str | None:
    return None if outcome is None else json.dumps(outcome.to_json())


def _rating(row: aiosqlite.Row) -> PlayerRating:
    return PlayerRating(
        guild_id=row["guild"] or None,
        game=row["game"],
        player_id=row["player_id"],
        name=row["name"],
        rating=Rating(row["rating"], row["rd"], row["volatility"]),
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
        updated_at=row["updated_at"],
    )


def _outcome(text: str | None) -> Outcome | None:
    return None if text is None else Outcome.from_json(json.loads(text))


def _away(row: Any) -> AwayPeriod:
    player = Player(row["player_id"], row["name"])
    return AwayPeriod(row["id"], row["guild"] or None, player, row["started_at"], row["until"], row["ended_at"])


def _takeback(row: Any) -> Takeback:
    message = (row["channel_id"], row["message_id"]) if row["message_id"] is not None else None
    return Takeback(
        id=row["id"],
        match_id=row["match_id"],
        ply=row["ply"],
        seat=row["seat"],
        by_id=row["by_id"],
        asked_at=row["asked_at"],
        expires_at=row["expires_at"],
        accepted=tuple(json.loads(row["accepted"])),
        status=row["status"],
        message=message,
    )


def _lobby(row: Any) -> Lobby:
    creator = json.loads(row["creator"])
    clock = json.loads(row["clock"]) if row["clock"] else None
    return Lobby(
        id=row["id"],
        game=row["game"],
        creator=Player(creator["id"], creator["name"]),
        players=[Player(p["id"], p["name"]) for p in json.loads(row["players"])],
        options=json.loads(row["options"]),
        clock=ClockSettings(**clock) if clock else None,
        place=Place(row["guild_id"], row["channel_id"], row["thread_id"]),
        status=row["status"],
        match_id=row["match_id"],
        created_at=row["created_at"],
    )
