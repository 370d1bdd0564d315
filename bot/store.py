"""Persistence: the schema's readers and writers the service uses, written once for both backends.

`Store.open(target)` takes a SQLite file (the embedded default, bot/db_sqlite.py) or a `postgresql://` URL
(bot/db_postgres.py; DATABASE_URL) and returns the same Store: the service, cogs, records, ratings and
backups never know which one they run on. The SQL here is what both accept (`?` placeholders, `ON CONFLICT`
upserts, `RETURNING id`, an ORDER BY wherever order matters); bot/db.py says what a backend provides.

The database is the source of truth; the service's memory is a cache of running matches. Writes happen
inside `transaction()`, so a move, its new state, the clock and the log line commit together or not at
all.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot import move_log
from bot.clock import ClockSettings, MatchClock
from bot.db import (
    DAMAGED,
    FULL,
    LOCKED,
    NEWER,
    POSTGRESQL,
    READ_ONLY,
    SQLITE,
    UNREADABLE,
    Database,
    StoreUnusable,
    is_postgres,
)
from bot.db_sqlite import MIGRATIONS, SqliteDatabase
from bot.games import GAMES, Game, Outcome
from bot.games.base import BadState
from bot.models import OVER, RUNNING, AwayPeriod, Challenge, Lobby, Match, MoveRecord, Place, Player, Series, Takeback
from bot.ratings import PlayerRating, Rating
from bot.shards import Scope
from bot.tournaments.model import Tournament
from bot.tournaments.stored import HeldTournament, TournamentGame

__all__ = [
    "DAMAGED",
    "FULL",
    "LOCKED",
    "MIGRATIONS",
    "NEWER",
    "POSTGRESQL",
    "READ_ONLY",
    "SQLITE",
    "UNREADABLE",
    "Store",
    "StoreUnusable",
]


def _same(column: str, value: int | None) -> tuple[str, tuple[Any, ...]]:
    """`column` equal to `value`, NULL matching NULL: `= ?` or `IS NULL`, so both databases use the index."""
    return (f"{column} IS NULL", ()) if value is None else (f"{column} = ?", (value,))


class Store:
    """The bot's reads and writes on one database (`Database`, either backend); writes go through
    `transaction()`, one at a time in this process."""

    def __init__(self, db: Database, games: dict[str, Game]) -> None:
        self._db = db
        self.path = db.target
        """The SQLite file, or the PostgreSQL URL without its password."""
        self.games = games

    @classmethod
    async def open(cls, target: str | Path, games: dict[str, Game] | None = None) -> Store:
        """Open (creating and migrating if needed) the database: a SQLite file's path, or a `postgresql://`
        URL; `games` defaults to every game. A database the bot cannot use is refused with StoreUnusable."""
        db: Database
        if is_postgres(target):
            from bot.db_postgres import PostgresDatabase  # asyncpg is loaded only for PostgreSQL

            db = await PostgresDatabase.open(str(target))
        else:
            db = await SqliteDatabase.open(str(target))
        return cls(db, GAMES if games is None else games)

    @property
    def backend(self) -> str:
        """SQLITE or POSTGRESQL."""
        return self._db.backend

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Everything written inside commits together, or nothing does.

        A write the database cannot take (its disk is full, it has become read-only, or on PostgreSQL the
        connection was lost) rolls the whole transaction back and is raised as `bot.service.DiskFull` /
        `NotSaved`, ServiceErrors that front-ends show as a plain refusal; the next transaction goes through
        as usual once the database can take it.
        """
        async with self._db.transaction():
            yield

    async def _insert(self, sql: str, args: tuple[Any, ...]) -> int:
        """Run an INSERT and return the id the database gave the new row."""
        return int(await self._db.fetchval(sql + " RETURNING id", args))

    # --- writes (call inside transaction()) ---

    async def insert_series(self, series: Series) -> int:
        return await self._insert(
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
        match_id = await self._insert(
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
            " board_message_id = ?, board_ply = ?, updated_at = ? WHERE id = ?",
            (
                self.games[match.game].dumps(match.state),
                match.ply,
                match.status,
                _outcome_json(match.result),
                match.place.thread_id,
                *(match.board or (None, None)),
                match.board_ply,
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
        return await self._insert(
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

    async def update_lobby(self, lobby: Lobby) -> None:
        await self._db.execute(
            "UPDATE lobbies SET players = ?, status = ?, match_id = ? WHERE id = ?",
            (_players_json(tuple(lobby.players)), lobby.status, lobby.match_id, lobby.id),
        )

    # --- reads ---

    async def load_lobby(self, lobby_id: int) -> Lobby | None:
        row = await self._db.fetchrow("SELECT * FROM lobbies WHERE id = ?", (lobby_id,))
        return None if row is None else _lobby(row)

    async def open_lobbies(self, guild_id: int | None) -> list[Lobby]:
        """A server's open lobbies, oldest first (one indexed query, however many are open elsewhere)."""
        guild, args = _same("guild_id", guild_id)
        rows = await self._db.fetch(f"SELECT * FROM lobbies WHERE status = 'open' AND {guild} ORDER BY id", args)
        return [_lobby(row) for row in rows]

    async def lobby_ids(self, status: str) -> list[int]:
        rows = await self._db.fetch("SELECT id FROM lobbies WHERE status = ? ORDER BY id", (status,))
        return [row[0] for row in rows]

    async def match_ids(self, status: str | None = RUNNING, scope: Scope | None = None) -> list[int]:
        """Matches with `status` (None: all), of the shards in `scope` only when given (a server's shard is
        Discord's `(guild_id >> 22) % count`, offline matches shard 0: bot/shards.py `shard_of`)."""
        where: list[str] = ["status = ?"] if status else []
        args: list[Any] = [status] if status else []
        if scope is not None and scope.count > 1:
            if not scope.shards:
                return []
            where.append(f"(COALESCE(guild_id, 0) >> 22) % ? IN ({', '.join('?' * len(scope.shards))})")
            args += [scope.count, *sorted(scope.shards)]
        elif scope is not None and 0 not in scope.shards:  # one shard, not held
            return []
        sql = "SELECT id FROM matches" + (f" WHERE {' AND '.join(where)}" if where else "") + " ORDER BY id"
        return [row[0] for row in await self._db.fetch(sql, tuple(args))]

    async def solo_match_ids(self, game: str, guild_id: int | None) -> list[int]:
        """Finished one-player matches of a game in one server (None: offline), oldest first."""
        guild, args = _same("m.guild_id", guild_id)
        rows = await self._db.fetch(
            f"SELECT m.id FROM matches m WHERE m.game = ? AND m.status = ? AND {guild}"
            " AND (SELECT COUNT(*) FROM seats s WHERE s.match_id = m.id) = 1 ORDER BY m.id",
            (game, OVER, *args),
        )
        return [row[0] for row in rows]

    async def insert_challenge(
        self,
        message_id: int,
        guild_id: int | None,
        by_id: str,
        to_id: str,
        at: float,
        *,
        game: str | None = None,
        clock: ClockSettings | None = None,
        channel_id: int | None = None,
    ) -> None:
        """Store a challenge sent (`message_id`: its id, the sending command's since migration 14)."""
        await self._db.execute(
            "INSERT INTO challenges (message_id, guild_id, by_id, to_id, created_at, game, clock, channel_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING",
            (message_id, guild_id, by_id, to_id, at, game, _settings_json(clock), channel_id),
        )

    async def challenge(self, message_id: int) -> Challenge | None:
        """A stored challenge (None: no such challenge was ever sent)."""
        row = await self._db.fetchrow("SELECT * FROM challenges WHERE message_id = ?", (message_id,))
        if row is None:
            return None
        clock = json.loads(row["clock"]) if row["clock"] else None
        return Challenge(
            id=row["message_id"],
            game=row["game"],
            by_id=row["by_id"],
            to_id=row["to_id"],
            clock=ClockSettings(**clock) if clock else None,
            place=Place(row["guild_id"], row["channel_id"]),
            match_id=row["match_id"],
        )

    async def delete_challenge(self, message_id: int) -> None:
        """Forget a challenge that started no match (its post failed)."""
        await self._db.execute("DELETE FROM challenges WHERE message_id = ? AND match_id IS NULL", (message_id,))

    async def accept_challenge(self, message_id: int, match_id: int) -> None:
        """Record the match a challenge started (a challenge sent before this was recorded gets a row now)."""
        await self._db.execute(
            "INSERT INTO challenges (message_id, match_id) VALUES (?, ?)"
            " ON CONFLICT (message_id) DO UPDATE SET match_id = excluded.match_id",
            (message_id, match_id),
        )

    async def challenge_match(self, message_id: int) -> int | None:
        """The match an accepted challenge started, or None if it was never accepted."""
        match_id = await self._db.fetchval("SELECT match_id FROM challenges WHERE message_id = ?", (message_id,))
        return None if match_id is None else int(match_id)

    async def open_challenges(self, guild_id: int | None, by_id: str, since: float) -> int:
        """How many challenges `by_id` sent in a server since `since` that nobody has accepted."""
        guild, args = _same("guild_id", guild_id)
        count = await self._db.fetchval(
            f"SELECT COUNT(*) FROM challenges WHERE {guild} AND by_id = ? AND match_id IS NULL AND created_at >= ?",
            (*args, by_id, since),
        )
        return int(count or 0)

    async def load_match(self, match_id: int) -> Match | None:
        row = await self._db.fetchrow("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            return None
        seats = await self._db.fetch("SELECT player_id, name FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
        players = tuple(Player(r["player_id"], r["name"]) for r in seats)
        clock = await self._db.fetchval("SELECT clock FROM clocks WHERE match_id = ?", (match_id,))
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
            clock=MatchClock.from_json(json.loads(clock)) if clock else None,
            series_id=row["series_id"],
            game_no=row["game_no"],
            place=Place(row["guild_id"], row["channel_id"], row["thread_id"]),
            board=(row["board_channel_id"], row["board_message_id"]) if row["board_message_id"] else None,
            board_ply=row["board_ply"],
            created_at=row["created_at"],
        )

    async def load_series(self, series_id: int) -> Series | None:
        row = await self._db.fetchrow("SELECT * FROM series WHERE id = ?", (series_id,))
        if row is None:
            return None
        games = await self._db.fetch("SELECT id FROM matches WHERE series_id = ? ORDER BY game_no", (series_id,))
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
            games=[r[0] for r in games],
            result=_outcome(row["result"]),
            created_at=row["created_at"],
        )

    async def log(self, match_id: int) -> list[MoveRecord]:
        """Every line of the move log, undos included, in order."""
        rows = await self._db.fetch(
            "SELECT ply, seat, move, at, took, kind, by_id FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        return [MoveRecord(*row) for row in rows]

    async def moves(self, match_id: int) -> list[MoveRecord]:
        """The moves still standing: the log with every undo taking back the last move before it."""
        return move_log.standing(await self.log(match_id))

    async def actions(self, match_id: int) -> list[dict[str, Any]]:
        rows = await self._db.fetch(
            "SELECT kind, by_id, detail, at FROM actions WHERE match_id = ? ORDER BY id", (match_id,)
        )
        return [dict(row) for row in rows]

    # --- reminders (bot/service/reminding.py): the turn in progress's, and each person's choice ---

    async def load_reminders(self) -> list[tuple[int, int, str, int, float, float | None]]:
        """Every stored reminder of a running match: (match, ply, kind, number, due, sent). Those of matches
        no longer running are deleted first (they can never be sent)."""
        async with self.transaction():
            await self._db.execute(
                "DELETE FROM reminders WHERE match_id NOT IN (SELECT id FROM matches WHERE status = ?)", (RUNNING,)
            )
        rows = await self._db.fetch(
            "SELECT match_id, ply, kind, number, due, sent FROM reminders ORDER BY match_id, due, ply, kind, number"
        )
        return [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

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
            rows = await self._db.fetch(
                "SELECT kind, number FROM reminders WHERE match_id = ? AND ply = ?", (match_id, ply)
            )
            sent = {(row[0], row[1]) for row in rows}
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
        sql += " ORDER BY due, kind, number" if due_by is None else " AND due <= ? ORDER BY due, kind, number"
        return [(row[0], row[1], row[2]) for row in await self._db.fetch(sql, args)]

    async def claim_reminders(self, match_id: int, ply: int, now: float) -> list[tuple[str, int, float]]:
        """Mark a turn's reminders due by `now` sent, and return them (kind, number, due) by due time (call
        inside transaction()). One statement marks and returns them, so of two processes (or connections)
        claiming at the same time, only one gets each reminder."""
        rows = await self._db.fetch(
            "UPDATE reminders SET sent = ? WHERE match_id = ? AND ply = ? AND sent IS NULL AND due <= ?"
            " RETURNING kind, number, due",
            (now, match_id, ply, now),
        )
        return sorted(((row[0], row[1], row[2]) for row in rows), key=lambda r: (r[2], r[0], r[1]))

    async def due_reminder_turns(self, now: float) -> list[tuple[int, int]]:
        """The (match, ply) of every unsent reminder due by `now` (the sweep's question; one indexed query)."""
        rows = await self._db.fetch(
            "SELECT DISTINCT match_id, ply FROM reminders WHERE sent IS NULL AND due <= ? ORDER BY match_id, ply",
            (now,),
        )
        return [(row[0], row[1]) for row in rows]

    async def notify_choice(self, player_id: str) -> tuple[str | None, float | None]:
        """A person's reminder choice (None: never chosen) and when their last reminder DM went out."""
        row = await self._db.fetchrow("SELECT mode, last_dm FROM notify_choices WHERE player_id = ?", (player_id,))
        return (None, None) if row is None else (row[0], row[1])

    async def set_notify_choice(self, player_id: str, mode: str) -> None:
        await self._db.execute(
            "INSERT INTO notify_choices (player_id, mode) VALUES (?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET mode = excluded.mode",
            (player_id, mode),
        )

    async def set_last_dm(self, player_id: str, at: float) -> None:
        await self._db.execute(
            "INSERT INTO notify_choices (player_id, last_dm) VALUES (?, ?)"
            " ON CONFLICT (player_id) DO UPDATE SET last_dm = excluded.last_dm",
            (player_id, at),
        )

    # --- ratings (bot/ratings.py; guild None, offline, is stored as 0) ---

    async def ratings_of(self, guild_id: int | None, game: str, player_ids: list[str]) -> dict[str, PlayerRating]:
        """The stored ratings of these players in one game on one server (the unrated are missing). Inside
        transaction(), on PostgreSQL, the rows stay locked until it ends: the game's end rewrites them."""
        if not player_ids:
            return {}
        marks = ", ".join("?" * len(player_ids))
        rows = await self._db.fetch(
            f"SELECT * FROM ratings WHERE guild = ? AND game = ? AND player_id IN ({marks}) ORDER BY player_id"
            + self._db.for_update,
            (guild_id or 0, game, *player_ids),
        )
        return {row["player_id"]: _rating(row) for row in rows}

    async def save_rating(self, rating: PlayerRating) -> None:
        """Insert or replace one player's rating (call inside transaction(), with the game's end)."""
        await self._db.execute(
            "INSERT INTO ratings (guild, game, player_id, name, rating, rd, volatility, games, wins, losses, draws,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild, game, player_id) DO UPDATE SET name = excluded.name, rating = excluded.rating,"
            " rd = excluded.rd, volatility = excluded.volatility, games = excluded.games, wins = excluded.wins,"
            " losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at",
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
        rows = await self._db.fetch(
            "SELECT * FROM ratings WHERE guild = ? AND game = ?"
            " ORDER BY rating DESC, games DESC, updated_at, player_id LIMIT ?",
            (guild_id or 0, game, limit),
        )
        return [_rating(row) for row in rows]

    async def player_ratings(self, guild_id: int | None, player_id: str) -> list[PlayerRating]:
        """Every game one player is rated in on one server, by game key."""
        rows = await self._db.fetch(
            "SELECT * FROM ratings WHERE guild = ? AND player_id = ? ORDER BY game", (guild_id or 0, player_id)
        )
        return [_rating(row) for row in rows]

    # --- away time (bot/service/away.py; guild None, offline, is stored as 0) ---

    async def insert_away(self, period: AwayPeriod) -> int:
        return await self._insert(
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

    async def update_away(self, period: AwayPeriod) -> None:
        """Write when an away period ends by itself (`until`) and when it ended (`ended_at`)."""
        await self._db.execute(
            "UPDATE away SET until = ?, ended_at = ? WHERE id = ?", (period.until, period.ended_at, period.id)
        )

    async def away_periods(self, guild_id: int | None, player_id: str, since: float) -> list[AwayPeriod]:
        """One player's away periods on one server that began at `since` or later, oldest first."""
        rows = await self._db.fetch(
            "SELECT * FROM away WHERE guild = ? AND player_id = ? AND started_at >= ? ORDER BY started_at, id",
            (guild_id or 0, player_id, since),
        )
        return [_away(row) for row in rows]

    async def running_away(self) -> list[AwayPeriod]:
        """Every away period that has not ended, on every server."""
        return [_away(row) for row in await self._db.fetch("SELECT * FROM away WHERE ended_at IS NULL ORDER BY id")]

    # --- server settings (bot/service/settings.py; guild None, offline, is stored as 0) ---

    async def load_settings(self) -> list[tuple[int, str, str | None, str | None, float]]:
        """Every stored setting of every server: (server, key, value or None once reset, set by, set at)."""
        rows = await self._db.fetch(
            "SELECT guild_id, key, value, set_by, set_at FROM guild_settings ORDER BY guild_id, key"
        )
        return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    async def save_setting(self, guild_id: int | None, key: str, value: str | None, by_id: str, at: float) -> None:
        """Store one server's setting (None: reset to the default) with who and when (call inside transaction())."""
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, key, value, set_by, set_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, set_by = excluded.set_by,"
            " set_at = excluded.set_at",
            (guild_id or 0, key, value, by_id, at),
        )

    # --- takebacks by agreement (bot/service/takebacks.py) ---

    async def insert_takeback(self, takeback: Takeback) -> int:
        return await self._insert(
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

    async def update_takeback(self, takeback: Takeback) -> None:
        """Write who has accepted a request, how it stands and where it is posted."""
        await self._db.execute(
            "UPDATE takebacks SET accepted = ?, status = ?, channel_id = ?, message_id = ? WHERE id = ?",
            (json.dumps(list(takeback.accepted)), takeback.status, *(takeback.message or (None, None)), takeback.id),
        )

    async def takebacks(self, match_id: int | None = None, status: str | None = None) -> list[Takeback]:
        """Takeback requests, oldest first: one match's (None: every match's), of one status (None: any)."""
        where = [sql for sql, value in (("match_id = ?", match_id), ("status = ?", status)) if value is not None]
        args = tuple(value for value in (match_id, status) if value is not None)
        sql = "SELECT * FROM takebacks" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
        return [_takeback(row) for row in await self._db.fetch(sql, args)]

    async def last_line_at(self, match_id: int) -> float | None:
        """When the newest line of a match's move log (a move, a resignation or an undo) was written."""
        at = await self._db.fetchval("SELECT at FROM moves WHERE match_id = ? ORDER BY ply DESC LIMIT 1", (match_id,))
        return None if at is None else float(at)

    # --- tournaments (bot/service/tournaments.py): the document, and the game each board is played in ---

    async def insert_tournament(self, held: HeldTournament) -> int:
        return await self._insert(
            "INSERT INTO tournaments (guild_id, channel_id, thread_id, message_id, created_by, status, closes_at,"
            " document, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                held.place.guild_id,
                held.place.channel_id,
                held.place.thread_id,
                held.message_id,
                json.dumps({"id": held.created_by.id, "name": held.created_by.name}),
                held.status,
                held.closes_at,
                json.dumps(held.tournament.to_json()),
                held.created_at,
                held.updated_at,
            ),
        )

    async def update_tournament(self, held: HeldTournament) -> None:
        """Write the tournament's document, status, closing time, thread and sign-up post."""
        await self._db.execute(
            "UPDATE tournaments SET thread_id = ?, message_id = ?, status = ?, closes_at = ?, document = ?,"
            " updated_at = ? WHERE id = ?",
            (
                held.place.thread_id,
                held.message_id,
                held.status,
                held.closes_at,
                json.dumps(held.tournament.to_json()),
                held.updated_at,
                held.id,
            ),
        )

    async def load_tournament(self, tournament_id: int) -> HeldTournament | None:
        row = await self._db.fetchrow("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row, self.games)

    async def tournaments(self, statuses: tuple[str, ...], guild_id: int | None = None) -> list[HeldTournament]:
        """The tournaments in one of `statuses`, oldest first: on one server (None: on every server)."""
        marks = ", ".join("?" for _ in statuses)
        sql, args = f"SELECT * FROM tournaments WHERE status IN ({marks})", tuple[Any, ...](statuses)
        if guild_id is not None:
            sql, args = sql + " AND guild_id = ?", (*args, guild_id)
        return [_tournament(row, self.games) for row in await self._db.fetch(sql + " ORDER BY id", args)]

    async def insert_tournament_game(self, game: TournamentGame) -> int:
        return await self._insert(
            "INSERT INTO tournament_games (tournament_id, round, board, match_id, series_id, voided)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game.tournament_id, game.round, game.board, game.match_id, game.series_id, int(game.voided)),
        )

    async def void_tournament_games(self, ids: list[int]) -> None:
        """These boards' games count for nothing any more (their round was voided, or they were replaced)."""
        for game_id in ids:
            await self._db.execute("UPDATE tournament_games SET voided = 1 WHERE id = ?", (game_id,))

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every game of a tournament, voided ones too, by round, board and the order they were started."""
        rows = await self._db.fetch(
            "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board, id", (tournament_id,)
        )
        return [_tournament_game(row) for row in rows]

    async def tournament_game_of(self, match_id: int | None, series_id: int | None) -> TournamentGame | None:
        """The board a match (or, given `series_id`, a death match series) plays, if it plays one."""
        column, value = ("series_id", series_id) if series_id is not None else ("match_id", match_id)
        row = await self._db.fetchrow(
            f"SELECT * FROM tournament_games WHERE {column} = ? ORDER BY id DESC LIMIT 1", (value,)
        )
        return None if row is None else _tournament_game(row)

    # --- shard leases (bot/shards.py): each statement is atomic on its own ---

    async def take_lease(self, shard: int, owner: str, now: float, until: float) -> bool:
        """Take or renew a shard's lease until `until`: True if `owner` holds it now (it was free, had run
        out by `now`, or was `owner`'s already), False if another process holds it. One upsert decides."""
        async with self.transaction():
            row = await self._db.fetchrow(
                "INSERT INTO leases (shard, owner, expires_at) VALUES (?, ?, ?) ON CONFLICT (shard) DO UPDATE"
                " SET owner = excluded.owner, expires_at = excluded.expires_at"
                " WHERE leases.owner = excluded.owner OR leases.expires_at <= ? RETURNING owner",
                (shard, owner, until, now),
            )
        return row is not None

    async def release_lease(self, shard: int, owner: str) -> None:
        """Hand a shard's lease back (if `owner` still holds it), so another process may take it at once."""
        async with self.transaction():
            await self._db.execute("DELETE FROM leases WHERE shard = ? AND owner = ?", (shard, owner))

    async def holds_lease(self, shard: int, owner: str, now: float) -> bool:
        """Whether `owner` holds the shard's lease at `now`. Inside a transaction (the fence of a change), on
        PostgreSQL the row stays share-locked until it commits: no other process can take the lease (and
        then load the match) while this change is on its way in."""
        row = await self._db.fetchrow(
            "SELECT owner FROM leases WHERE shard = ? AND owner = ? AND expires_at > ?" + self._db.for_share,
            (shard, owner, now),
        )
        return row is not None

    # --- heartbeats (bot/service/downtime.py): when each shard's process was last known to be up ---

    async def beat(self, shards: Iterable[int], at: float) -> None:
        """This process is up at `at` for these shards."""
        async with self.transaction():
            await self._db.executemany(
                "INSERT INTO heartbeats (shard, alive_at) VALUES (?, ?)"
                " ON CONFLICT (shard) DO UPDATE SET alive_at = excluded.alive_at",
                [(shard, at) for shard in shards],
            )

    async def last_alive(self) -> dict[int, float]:
        """Each shard's last heartbeat (none: no process of this version has run it yet)."""
        return {row["shard"]: row["alive_at"] for row in await self._db.fetch("SELECT shard, alive_at FROM heartbeats")}

    # --- whole tables (python3 -m bot migrate, bot/migrate.py) ---

    async def tables(self) -> list[str]:
        """The bot's tables in this database, by name."""
        return await self._db.tables()

    async def columns(self, table: str) -> list[str]:
        return await self._db.columns(table)

    async def count_rows(self, table: str) -> int:
        return int(await self._db.fetchval(f"SELECT COUNT(*) FROM {await self._known(table)}"))

    async def table_rows(
        self, table: str, columns: list[str], order: tuple[str, ...], limit: int, offset: int
    ) -> list[tuple[Any, ...]]:
        """One page of a table's rows (those columns, in that order), sorted by `order` (its key)."""
        known = set(await self._db.columns(await self._known(table)))
        if not set(columns) | set(order) <= known:
            raise ValueError(f"{table} has no column {sorted(set(columns) | set(order) - known)[0]}")
        sql = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {', '.join(order)} LIMIT ? OFFSET ?"
        return [tuple(row) for row in await self._db.fetch(sql, (limit, offset))]

    async def insert_rows(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        """Add rows as they are, ids included (inside transaction(); then `reset_ids`)."""
        await self._db.copy_rows(await self._known(table), columns, rows)

    async def reset_ids(self) -> None:
        """After rows came in with their ids: new rows get ids after the largest (PostgreSQL's identity
        sequences; SQLite finds the largest by itself)."""
        await self._db.reset_identities()

    async def _known(self, table: str) -> str:
        if table not in await self._db.tables():
            raise ValueError(f"the database has no table {table!r}")
        return table

    # --- the database as a whole ---

    async def integrity_check(self) -> str:
        """The verdict, "ok" or what is wrong: SQLite's `PRAGMA integrity_check`; on PostgreSQL, the schema's version,
        tables and the move log's trigger (the server keeps its own pages)."""
        return await self._db.integrity_check()

    async def backup_to(self, path: str | Path) -> None:
        """Copy the database as last committed to `path` (bot/backup.py): SQLite's online backup API, one
        self-contained file made from one snapshot while the bot goes on writing; on PostgreSQL, `pg_dump`."""
        await self._db.backup_to(Path(path))


def _players_json(players: tuple[Player, ...]) -> str:
    return json.dumps([{"id": p.id, "name": p.name} for p in players])


def _settings_json(settings: ClockSettings | None) -> str | None:
    if settings is None:
        return None
    return json.dumps({"move_seconds": settings.move_seconds, "reserve_seconds": settings.reserve_seconds})


def _outcome_json(outcome: Outcome | None) -> str | None:
    return None if outcome is None else json.dumps(outcome.to_json())


def _rating(row: Any) -> PlayerRating:
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


def _tournament(row: Any, games: dict[str, Game]) -> HeldTournament:
    by = json.loads(row["created_by"])
    return HeldTournament(
        id=row["id"],
        tournament=Tournament.from_json(json.loads(row["document"]), games),
        created_by=Player(by["id"], by["name"]),
        place=Place(row["guild_id"], row["channel_id"], row["thread_id"]),
        message_id=row["message_id"],
        status=row["status"],
        closes_at=row["closes_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _tournament_game(row: Any) -> TournamentGame:
    return TournamentGame(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        board=row["board"],
        match_id=row["match_id"],
        series_id=row["series_id"],
        voided=bool(row["voided"]),
    )


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
