"""The match service: every change to a match or series goes through here.

It knows no Discord and no Pillow. Front-ends (the Discord cogs, the terminal) call its methods with
player ids and move text, and subscribe to the `Notice`s it sends after each committed change so they can
post boards, including for things nobody asked for (a flag, the next game of a series).

Rules it enforces for every game alike: only the seat to move may move, only against the ply it saw, and
only once (one asyncio lock per match; one database transaction per change). Clocks follow
docs/rules/fish.md: the turn starts when the front-end reports the board posted (`board_posted`), time
beyond the move allowance comes out of reserve, an exhausted reserve loses the game, and time while the
bot is down or a moderator has paused the match is charged to nobody.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot import move_log, ratings
from bot.clock import ClockSettings, FlagScheduler, MatchClock, SystemTime, TimeSource, format_seconds
from bot.errors import (  # noqa: F401  (re-exported: the front-ends catch them from here)
    ChallengeTaken,
    DiskFull,
    LimitReached,
    MatchNotRunning,
    MatchPaused,
    NoSuchMatch,
    NotInMatch,
    NotSaved,
    NotYourTurn,
    ServiceError,
    StaleBoard,
    TimeUp,
)
from bot.games import BadOptions, Game, IllegalMove, Outcome
from bot.models import (
    ABORTED,
    CANCELLED,
    OPEN,
    OVER,
    RUNNING,
    STARTED,
    Lobby,
    Match,
    MoveRecord,
    Place,
    Player,
    Series,
    UserLimits,
    computer,
)
from bot.store import Store
from bot.wording import plural

log = logging.getLogger(__name__)

RESIGN = move_log.RESIGN
"""The kind (and text) of a move-log line where a player leaves a game that goes on without them."""

DM_CLOCK = ClockSettings(move_seconds=30, reserve_seconds=60)
"""The death-match time control of docs/rules/fish.md."""


CHALLENGE_WINDOW = 24 * 3600.0
"""Seconds a challenge nobody accepted counts against its sender's limit."""


@dataclass(frozen=True, slots=True)
class Notice:
    """What just happened to a match, for front-ends to show. Sent after the change is committed.

    `kind` is one of: started, moved, undone, over, series_over, paused, resumed, time_added, aborted (and
    "board", which front-ends use for a plain repost).
    `lines` are ready to post, with player names filled in. `series` is set for death-match games and
    `series_over` when this notice also ends the series.
    """

    kind: str
    match: Match
    lines: tuple[str, ...] = ()
    by: Player | None = None
    series: Series | None = None
    series_over: bool = False


Listener = Callable[[Notice], Awaitable[None]]


@dataclass
class _Pending:
    """Notices to send once the lock is released and the transaction committed."""

    notices: list[Notice] = field(default_factory=list)
    started: list[Match] = field(default_factory=list)
    rated: tuple[str, ...] = ()  # the game-over post's rating change line, if the game was rated


class MatchService:
    """Owns matches and series; see the module docstring."""

    def __init__(self, store: Store, clock: TimeSource | None = None, limits: UserLimits | None = None):
        self.store = store
        self.time = clock or SystemTime()
        self.limits = limits or UserLimits()
        self.games: dict[str, Game] = store.games
        self._matches: dict[int, Match] = {}
        self._series: dict[int, Series] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._lobby_lock = asyncio.Lock()  # lobbies change rarely: one lock for all of them
        self.scheduler = FlagScheduler(self.time, self._flag_if_due, self.sweep)

    # --- lifecycle ---

    async def start(self) -> list[Match]:
        """Load every running match (after a restart too) and start the flag scheduler.

        Clocks get a fresh move allowance with reserve unchanged: the downtime is charged to nobody. The
        returned matches need their board (re)posted; each clock starts when `board_posted` says so.
        """
        resumed = []
        for match_id in await self.store.match_ids(RUNNING):
            match = await self.store.load_match(match_id)
            if match is None or match.game not in self.games:
                continue
            if match.clock is not None:
                match.clock = match.clock.after_restart()
            self._matches[match.id] = match
            if match.series_id is not None and match.series_id not in self._series:
                series = await self.store.load_series(match.series_id)
                if series is not None:
                    self._series[series.id] = series
            resumed.append(match)
        async with self.store.transaction():  # one commit for every clock, however many matches
            for match in resumed:
                if match.clock is not None:
                    await self.store.update_clock(match.id, match.clock)
        log.info("resumed %d running matches", len(resumed))
        self.scheduler.start()
        return resumed

    async def close(self) -> None:
        await self.scheduler.stop()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # --- reading ---

    def game(self, match: Match) -> Game:
        return self.games[match.game]

    async def get(self, match_id: int) -> Match:
        match = self._matches.get(match_id) or await self.store.load_match(match_id)
        if match is None:
            raise NoSuchMatch(f"There is no match #{match_id}.")
        return match

    def running_match(self, match_id: int) -> Match | None:
        """The running match with this id, or None (over, aborted, unknown)."""
        return self._matches.get(match_id)

    def series_of(self, match: Match) -> Series | None:
        """The death match a running game belongs to, if any."""
        return self._series.get(match.series_id) if match.series_id is not None else None

    async def get_series(self, series_id: int) -> Series:
        series = self._series.get(series_id) or await self.store.load_series(series_id)
        if series is None:
            raise NoSuchMatch(f"There is no death match series #{series_id}.")
        return series

    def running(self, guild_id: int | None = None, game: str | None = None) -> list[Match]:
        """Running matches, oldest first, optionally only one server's or one game's."""
        return sorted(
            (
                m
                for m in self._matches.values()
                if (guild_id is None or m.place.guild_id == guild_id) and (game is None or m.game == game)
            ),
            key=lambda m: m.id,
        )

    def matches_of(self, player_id: str, game: str | None = None) -> list[Match]:
        return [m for m in self.running(game=game) if m.seats_of(player_id)]

    async def moves(self, match_id: int) -> list[MoveRecord]:
        return await self.store.moves(match_id)

    def lines(self, match: Match) -> tuple[str, ...]:
        """The engine's event text for the last ply, with player names filled in."""
        names = match.names
        return tuple(line.format(*names) for line in self.game(match).events(match.state))

    # --- creating ---

    async def create_match(
        self,
        game_key: str,
        players: list[Player],
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
        challenge: int | None = None,
    ) -> Match:
        """A casual match; refused with a readable ValueError for a bad game, seat count or option.

        `challenge` names the challenge it answers (a front-end's id for it): a challenge starts one match,
        so accepting it again (a double click, or after a restart) is refused, in the same transaction."""
        game = self._game_or_refuse(game_key)
        match = self._new_match(game, tuple(players), options or {}, seed, clock, place or Place())
        if (why := self.computer_games_refusal(players, match.place.guild_id)) is not None:
            raise LimitReached(why)
        async with self.store.transaction():
            if challenge is not None:
                await self._refuse_accepted(challenge)
            match.id = await self.store.insert_match(match)
            if challenge is not None:
                await self.store.accept_challenge(challenge, match.id)
        self._matches[match.id] = match
        await self._notify([Notice("started", match, self._start_lines(match))])
        return match

    async def _refuse_accepted(self, challenge: int) -> None:
        if (started := await self.store.challenge_match(challenge)) is not None:
            raise ChallengeTaken(f"This challenge was accepted already: it is match #{started}.")

    async def check_challenge(self, challenge: int, by: Player) -> None:
        """Refuse a challenge accepted before, or one sent to someone else than `by` as it was recorded
        (front-ends ask before they answer in public)."""
        to = await self.store.challenged(challenge)
        if to is not None and to != by.id:
            raise NotInMatch("This challenge is not yours to accept.")
        await self._refuse_accepted(challenge)

    # --- limits per person per server (UserLimits) ---

    async def challenge_refusal(self, guild_id: int | None, by: Player) -> str | None:
        """Why `by` may not send another challenge here now (too many nobody accepted), or None."""
        if guild_id is None:
            return None
        since = self.time.now() - CHALLENGE_WINDOW
        if await self.store.open_challenges(guild_id, by.id, since) >= self.limits.challenges:
            return (
                f"You have {plural(self.limits.challenges, 'challenge')} here that nobody has accepted yet: wait "
                "until one is accepted (challenges older than a day no longer count)."
            )
        return None

    async def record_challenge(self, challenge: int, guild_id: int | None, by: Player, to: Player) -> None:
        """A challenge was sent (its id is the front-end's): it counts as open until it is accepted, and
        only `to` may accept it."""
        async with self.store.transaction():
            await self.store.insert_challenge(challenge, guild_id, by.id, to.id, self.time.now())

    def computer_games_refusal(self, players: list[Player] | tuple[Player, ...], guild_id: int | None) -> str | None:
        """Why these players may not start another game with a computer here, or None."""
        if guild_id is None or not any(p.is_computer for p in players):
            return None
        for person in (p for p in players if not p.is_computer):
            playing = [
                m for m in self.running(guild_id) if m.seats_of(person.id) and any(p.is_computer for p in m.players)
            ]
            if len(playing) >= self.limits.computer_games:
                ids = ", ".join(f"#{m.id}" for m in playing)
                return (
                    f"{person.name} already plays {plural(len(playing), 'game')} against the computer here ({ids}): "
                    "finish or resign one first."
                )
        return None

    async def create_series(
        self,
        game_key: str,
        players: list[Player],
        *,
        first: int,
        best_of: int = 3,
        clock: ClockSettings | None = DM_CLOCK,
        options: dict[str, Any] | None = None,
        house_wins: bool = True,
        place: Place | None = None,
    ) -> Series:
        """A death match: best of `best_of`, `first` places first in game 1 and it alternates after."""
        game = self._game_or_refuse(game_key)
        if best_of < 1 or best_of % 2 == 0:
            raise BadOptions("A series is best of an odd number of games (1, 3, 5...).")
        if first not in range(len(players)):
            raise BadOptions("The first player must be one of the players.")
        if len({p.id for p in players}) != len(players):
            raise BadOptions("A death match needs two different players.")
        series = Series(
            id=0,
            game=game_key,
            players=tuple(players),
            best_of=best_of,
            first=first,
            options=dict(options or {}),
            clock=clock,
            house_wins=house_wins,
            place=place or Place(),
            wins=[0] * len(players),
            created_at=self.time.now(),
        )
        match = self._series_game(game, series, 1)  # refuses bad options before anything is stored
        async with self.store.transaction():
            series.id = await self.store.insert_series(series)
            match.series_id = series.id
            match.id = await self.store.insert_match(match)
        series.games.append(match.id)
        self._series[series.id] = series
        self._matches[match.id] = match
        await self._notify([Notice("started", match, self._start_lines(match), series=series)])
        return series

    def _game_or_refuse(self, game_key: str) -> Game:
        if game_key not in self.games:
            raise BadOptions(f"There is no game {game_key!r} (games: {', '.join(sorted(self.games))}).")
        return self.games[game_key]

    def _new_match(
        self,
        game: Game,
        players: tuple[Player, ...],
        options: dict[str, Any],
        seed: int | None,
        clock: ClockSettings | None,
        place: Place,
        series_id: int | None = None,
        game_no: int = 1,
    ) -> Match:
        seed = secrets.randbits(48) if seed is None else seed
        state = game.new(len(players), seed, **options)  # raises BadOptions
        to_move = game.to_move(state)
        return Match(
            id=0,
            game=game.key,
            players=players,
            seed=seed,
            options=dict(options),
            state=state,
            clock=MatchClock.start(clock, len(players), to_move) if clock else None,
            series_id=series_id,
            game_no=game_no,
            place=place,
            created_at=self.time.now(),
        )

    def _series_game(self, game: Game, series: Series, game_no: int) -> Match:
        options = dict(series.options)
        if "first" in game.options:
            options["first"] = series.first_for(game_no)
        return self._new_match(
            game, series.players, options, None, series.clock, series.place, series.id or None, game_no
        )

    def _start_lines(self, match: Match) -> tuple[str, ...]:
        game = self.game(match)
        names = " vs ".join(match.names) if len(match.players) > 1 else f"{match.names[0]} plays solitaire"
        lines = [f"{game.title} #{match.id}: {names}."]
        if match.series_id is not None:
            lines[0] = f"{game.title} #{match.id}, game {match.game_no} of the death match: {names}."
        if match.clock is not None:
            lines.append(f"Clock: {match.clock.settings.describe()} per player.")
        return tuple(lines)

    # --- lobbies (games of one or of more than two players gather here first) ---

    async def open_lobby(
        self,
        game_key: str,
        creator: Player,
        *,
        options: dict[str, Any] | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
    ) -> Lobby:
        """A lobby with its creator in the first seat; bad options are refused now, not at the start."""
        game = self._game_or_refuse(game_key)
        options = dict(options or {})
        game.new(game.min_players, 0, **options)  # raises BadOptions for an unknown option or a bad value
        lobby = Lobby(0, game_key, creator, [creator], options, clock, place or Place(), created_at=self.time.now())
        async with self._lobby_lock:
            if lobby.place.guild_id is not None:
                here = await self.store.open_lobbies(lobby.place.guild_id)
                mine = [lb for lb in here if lb.creator.id == creator.id]
                if len(mine) >= self.limits.lobbies:
                    ids = ", ".join(f"#{lb.id}" for lb in mine)
                    raise LimitReached(
                        f"You have {plural(len(mine), 'open lobby', 'open lobbies')} here ({ids}): start one, or leave "
                        "it to cancel it, first."
                    )
            async with self.store.transaction():
                lobby.id = await self.store.insert_lobby(lobby)
        return lobby

    async def join_lobby(self, lobby_id: int, player: Player) -> Lobby:
        async with self._lobby_lock:
            lobby = await self._open_lobby(lobby_id)
            game = self.games[lobby.game]
            if lobby.has(player.id):
                raise ServiceError(f"You are already in lobby #{lobby.id}.")
            if len(lobby.players) >= game.max_players:
                raise ServiceError(f"Lobby #{lobby.id} is full: {game.title} takes at most {game.max_players} players.")
            lobby.players.append(player)
            async with self.store.transaction():
                await self.store.update_lobby(lobby)
        return lobby

    async def add_computer(self, lobby_id: int, by: Player, level: str = "normal") -> Lobby:
        """The creator fills a seat with a computer player (several may join, numbered)."""
        async with self._lobby_lock:
            lobby = await self._open_lobby(lobby_id)
            if by.id != lobby.creator.id:
                raise ServiceError(f"Only {lobby.creator.name}, who opened lobby #{lobby.id}, can add computers.")
            game = self.games[lobby.game]
            if len(lobby.players) >= game.max_players:
                raise ServiceError(f"Lobby #{lobby.id} is full: {game.title} takes at most {game.max_players} players.")
            used = {int(p.id.split(":")[2]) if p.id.count(":") == 2 else 1 for p in lobby.players if p.is_computer}
            number = min(set(range(1, game.max_players + 1)) - used)  # "Computer 2", "Easy computer 3"...
            lobby.players.append(computer(level, number))
            async with self.store.transaction():
                await self.store.update_lobby(lobby)
        return lobby

    async def leave_lobby(self, lobby_id: int, player: Player) -> Lobby:
        """Leave a lobby; when its creator leaves, the lobby is cancelled."""
        async with self._lobby_lock:
            lobby = await self._open_lobby(lobby_id)
            if not lobby.has(player.id):
                raise ServiceError(f"You are not in lobby #{lobby.id}.")
            if player.id == lobby.creator.id:
                lobby.status = CANCELLED
            else:
                lobby.players = [p for p in lobby.players if p.id != player.id]
            async with self.store.transaction():
                await self.store.update_lobby(lobby)
        return lobby

    async def start_lobby(self, lobby_id: int, by: Player) -> Match:
        """The creator starts the game with everyone who joined, in join order (alone: solitaire)."""
        async with self._lobby_lock:
            lobby = await self._open_lobby(lobby_id)
            game = self.games[lobby.game]
            if (why := self.start_refusal(lobby, by)) is not None:
                raise ServiceError(why)
            match = self._new_match(game, tuple(lobby.players), lobby.options, None, lobby.clock, lobby.place)
            async with self.store.transaction():  # the match and the lobby's end are one change
                match.id = await self.store.insert_match(match)
                lobby.status, lobby.match_id = STARTED, match.id
                await self.store.update_lobby(lobby)
        self._matches[match.id] = match
        await self._notify([Notice("started", match, self._start_lines(match))])
        return match

    def start_refusal(self, lobby: Lobby, by: Player) -> str | None:
        """Why `by` may not start `lobby` now, or None: front-ends ask before they answer in public."""
        game = self.games[lobby.game]
        if by.id != lobby.creator.id:
            return f"Only {lobby.creator.name}, who opened lobby #{lobby.id}, can start it."
        if len(lobby.players) < game.min_players:
            return f"{game.title} needs at least {plural(game.min_players, 'player')}; {len(lobby.players)} joined."
        return self.computer_games_refusal(lobby.players, lobby.place.guild_id)

    async def get_lobby(self, lobby_id: int) -> Lobby:
        lobby = await self.store.load_lobby(lobby_id)
        if lobby is None:
            raise NoSuchMatch(f"There is no lobby #{lobby_id}.")
        return lobby

    async def open_lobbies(self, guild_id: int | None = None) -> list[Lobby]:
        """One server's open lobbies (None: the offline ones)."""
        return await self.store.open_lobbies(guild_id)

    async def solitaire_results(self, game_key: str, guild_id: int | None) -> list[tuple[Match, float]]:
        """A server's finished one-player games that ended by the rules (not resigned, adjudicated or
        aborted), with their scores, oldest first."""
        game = self._game_or_refuse(game_key)
        results = []
        for match_id in await self.store.solo_match_ids(game_key, guild_id):
            match = await self.store.load_match(match_id)
            outcome = game.outcome(match.state) if match is not None else None
            if match is not None and outcome is not None and outcome.winners:
                results.append((match, outcome.scores[0]))
        return results

    async def _open_lobby(self, lobby_id: int) -> Lobby:
        lobby = await self.get_lobby(lobby_id)
        if lobby.status != OPEN:
            raise MatchNotRunning(f"Lobby #{lobby.id} is {lobby.status}: it takes no more players.")
        return lobby

    # --- playing ---

    async def move(
        self, match_id: int, player_id: str, text: str, *, ply: int | None = None, at: float | None = None
    ) -> Notice:
        """Play `text` for `player_id` in a match; `ply` is the ply the player saw (None: don't check).

        `at` is when the player sent the move (a Discord interaction's timestamp); default now.
        Refusals raise ServiceError or IllegalMove and change nothing.
        """
        pending = _Pending()
        try:
            async with self._lock(match_id):
                return await self._move_locked(match_id, player_id, text, ply, at, pending)
        finally:
            await self._notify(pending.notices)

    async def _move_locked(
        self, match_id: int, player_id: str, text: str, ply: int | None, at: float | None, pending: _Pending
    ) -> Notice:
        match = await self._running_match(match_id)
        game = self.game(match)
        seats = match.seats_of(player_id)
        if not seats:
            raise NotInMatch(f"You are not playing in match #{match.id}.")
        if ply is not None and ply != match.ply:
            raise StaleBoard("The board has changed since you looked: look at the new board and try again.")
        seat = game.to_move(match.state)
        if seat not in seats:
            assert seat is not None
            raise NotYourTurn(f"It is {match.players[seat].name}'s turn, not yours.")
        if match.paused:
            raise MatchPaused(f"Match #{match.id} is paused by a moderator; wait until it is resumed.")
        if match.held is not None:
            raise MatchPaused(
                f"Match #{match.id} is on hold: the bot could not post its board ({match.held}). "
                "It goes on as soon as a board is posted; a moderator can try with /mod repost."
            )
        now = self.time.now()
        sent = now if at is None else min(at, now)
        if match.clock is not None and match.clock.flagged(sent):
            await self._flag(match, pending)
            if match.running:  # a game that goes on without the seat (see _flag)
                raise TimeUp(f"Too late: your reserve time ran out, so you are out of match #{match.id}.")
            raise TimeUp(f"Too late: your reserve time ran out and match #{match.id} is lost on time.")
        state = game.play(match.state, text)  # raises IllegalMove; nothing is changed
        canonical = game.canonical(match.state, text)
        took = None
        clock = match.clock
        if clock is not None:
            clock, took = clock.after_move(sent, game.to_move(state))
        return await self._advance(match, MoveRecord(match.ply + 1, seat, canonical, sent, took), state, clock, pending)

    async def _advance(
        self, match: Match, record: MoveRecord, state: Any, clock: MatchClock | None, pending: _Pending
    ) -> Notice:
        """Commit one line of the move log with the state it leads to; a game it ends is scored in the
        same transaction (call with the match lock held)."""
        game = self.game(match)
        outcome = game.outcome(state)
        now = self.time.now()
        async with self._commit(match, pending):
            await self.store.append_move(match.id, record)
            match.state, match.ply, match.clock = state, match.ply + 1, clock
            if outcome is not None:
                match.status, match.result = OVER, outcome
                await self.store.update_match(match, now)
                await self._after_game(match, pending)
            else:
                await self.store.update_match(match, now)
        if outcome is not None:
            self._matches.pop(match.id, None)
        lines = (*self.lines(match), *pending.rated) if outcome else self.lines(match)
        notice = Notice("over" if outcome else "moved", match, lines, series=self.series_of(match))
        pending.notices.insert(0, notice)
        if (
            outcome is None
            and record.kind == RESIGN
            and not any(not match.players[s].is_computer for s in self._in(match))
        ):
            await self._end(match, self._leaders(match), "only computer players were left", "computers", None, pending)
            over = pending.notices.pop(0)  # one post: the resignation, then the end
            notice = replace(over, lines=(*notice.lines, *over.lines))
            pending.notices[0] = notice
        return notice

    def _in(self, match: Match) -> list[int]:
        """The seats still in a game that goes on without those who resigned (the engine refuses to let
        a seat resign twice)."""
        game: Any = self.game(match)
        seats = []
        for seat in range(len(match.players)):
            try:
                game.resign(match.state, seat)
            except IllegalMove:
                continue
            seats.append(seat)
        return seats

    def _leaders(self, match: Match) -> frozenset[int]:
        """RULING (ours): when the last person leaves, nobody is left to play for, so the game ends and the
        computers still in with the best score win (all of them when the game keeps no score)."""
        scores = self.game(match).scores(match.state)
        still_in = self._in(match)
        best = max((scores[s] for s in still_in), default=0) if scores else 0
        return frozenset(s for s in still_in if not scores or scores[s] == best)

    async def board_posted(
        self, match_id: int, ply: int, at: float | None = None, message: tuple[int, int] | None = None
    ) -> tuple[int, int] | None:
        """The front-end posted the board for `ply`: the mover's clock starts now (at most once a turn).

        `message` is the post's (channel id, message id); the previous board post is returned so the
        front-end can take its buttons away. Reports for an older ply are ignored.
        """
        async with self._lock(match_id):
            match = self._matches.get(match_id)
            if match is None or match.ply != ply or not match.running:
                return None
            previous = match.board
            now = self.time.now()
            clock = match.clock.posted(now if at is None else at) if match.clock else None
            held = match.held
            if clock == match.clock and (message is None or message == previous) and held is None:
                return None
            async with self._commit(match):
                match.clock = clock
                if message is not None:
                    match.board = message
                await self.store.update_match(match, now)
                if held is not None:
                    await self.store.log_action(match.id, "unhold", None, "the board is posted again", now)
            match.held = None
            if held is not None:
                log.info("match %s: its board is posted again, so it goes on", match.id)
            self._arm(match)
            return previous if message is not None and previous != message else None

    async def hold(self, match_id: int, reason: str) -> None:
        """No board could be posted anywhere: nobody can see the position, so the match waits, its clock
        stopped and charged to nobody, and moves are refused until a board post succeeds (`board_posted`)."""
        async with self._lock(match_id):
            match = self._matches.get(match_id)
            if match is None or match.held is not None:
                return
            now = self.time.now()
            async with self._commit(match):
                if match.clock is not None and match.clock.turn_started is not None:
                    match.clock = match.clock.unposted(now)
                    await self.store.update_clock(match.id, match.clock)
                await self.store.log_action(match.id, "hold", None, reason, now)
            match.held = reason
        log.warning(
            "match %s: its board could not be posted anywhere (%s); on hold, charged to nobody, until a board is "
            "posted (/mod repost)",
            match_id,
            reason,
        )

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        """Remember where a front-end posts a match: the thread it opened, or None for the channel itself
        (persisted: it is found again after a restart). The games a death match starts next go there too."""
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            series = self.series_of(match)
            async with self._commit(match):
                match.place = replace(match.place, thread_id=thread_id)
                await self.store.update_match(match, self.time.now())
                if series is not None and series.place.thread_id != thread_id:
                    series.place = replace(series.place, thread_id=thread_id)
                    await self.store.update_series(series)

    def resign_effect(self, match: Match) -> str:
        """What resigning would do, for the confirmation question."""
        if not self.game(match).seats_can_leave or len(match.players) == 2:
            return "This ends the game as a loss."
        if len(match.players) == 1:
            return "This ends the game with no score."
        return "You leave the game: your captures stay on the record and the others play on."

    async def resign(self, match_id: int, player_id: str) -> Notice:
        """Leave a match. In a game whose seats can leave (several players), the others play on and
        the resignation is a line of the move log; otherwise the match ends and the others win."""
        pending = _Pending()
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            seats = match.seats_of(player_id)
            if not seats:
                raise NotInMatch(f"You are not playing in match #{match.id}.")
            game: Any = self.game(match)
            if game.seats_can_leave:
                try:
                    state = game.resign(match.state, seats[0])
                except IllegalMove:  # the match runs, so the seat has left already
                    raise ServiceError(f"You have already resigned from match #{match.id}.") from None
                clock = match.clock
                if clock is not None and clock.seat != game.to_move(state):
                    clock = clock.new_turn(game.to_move(state))  # the resigner's turn is charged to nobody
                record = MoveRecord(match.ply + 1, seats[0], RESIGN, self.time.now(), None, RESIGN, player_id)
                await self._advance(match, record, state, clock, pending)
            else:
                loser = match.players[seats[0]]
                winners = frozenset(s for s in range(len(match.players)) if s not in seats)
                await self._end(match, winners, f"{loser.name} resigned", "resign", player_id, pending)
        await self._notify(pending.notices)
        return pending.notices[0]

    # --- moderators ---

    async def pause(self, match_id: int, by: Player) -> Notice:
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            if match.clock is None:
                raise ServiceError(f"Match #{match.id} has no clock, so there is nothing to pause.")
            if match.clock.paused:
                raise ServiceError(f"Match #{match.id} is already paused.")
            now = self.time.now()
            match.clock = match.clock.pause(now)
            async with self._commit(match):
                await self.store.update_clock(match.id, match.clock)
                await self.store.log_action(match.id, "pause", by.id, "paused", now)
            notice = Notice("paused", match, (f"{by.name} paused the match: no clock is running.",), by)
        await self._notify([notice])
        return notice

    async def resume(self, match_id: int, by: Player) -> Notice:
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            if match.clock is None or not match.clock.paused:
                raise ServiceError(f"Match #{match.id} is not paused.")
            now = self.time.now()
            match.clock = match.clock.resume(now)
            async with self._commit(match):
                await self.store.update_clock(match.id, match.clock)
                await self.store.log_action(match.id, "resume", by.id, "resumed", now)
            self._arm(match)
            notice = Notice("resumed", match, (f"{by.name} resumed the match: the clock runs again.",), by)
        await self._notify([notice])
        return notice

    async def add_time(self, match_id: int, by: Player, player_id: str, seconds: float) -> Notice:
        """Add (or with a negative number, take) reserve time for one player."""
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            if match.clock is None:
                raise ServiceError(f"Match #{match.id} has no clock.")
            seats = match.seats_of(player_id)
            if not seats:
                raise NotInMatch(f"That player is not in match #{match.id}.")
            if not -86_400 <= seconds <= 86_400 or seconds == 0:
                raise ServiceError("Add between 1 second and 24 hours (negative takes time away).")
            now = self.time.now()
            clock = match.clock
            for seat in seats:
                clock = clock.add_time(seat, seconds)
            match.clock = clock
            name = match.players[seats[0]].name
            reserve = format_seconds(clock.reserve_at(seats[0], now))
            detail = f"{'+' if seconds > 0 else '-'}{format_seconds(abs(seconds))} for {name}"
            async with self._commit(match):
                await self.store.update_clock(match.id, clock)
                await self.store.log_action(match.id, "addtime", by.id, detail, now)
            self._arm(match)
            notice = Notice("time_added", match, (f"{by.name} gave {detail}: reserve now {reserve}.",), by)
        await self._notify([notice])
        return notice

    async def abort(self, match_id: int, by: Player) -> Notice:
        """Stop a match with no result (its series too)."""
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            now = self.time.now()
            match.status = ABORTED
            series = self.series_of(match)
            async with self._commit(match):
                await self.store.update_match(match, now)
                await self.store.log_action(match.id, "abort", by.id, "aborted", now)
                if series is not None:
                    series.status = ABORTED
                    await self.store.update_series(series)
            self._matches.pop(match.id, None)
            notice = Notice("aborted", match, (f"{by.name} aborted match #{match.id}: no result.",), by, series)
        await self._notify([notice])
        return notice

    async def undo(self, match_id: int, by: Player) -> Notice:
        """Take back the last move still standing; that player moves again, with the reserve it spent back.

        Against the computer it takes back the last move of a person and every computer move after it, so
        that person is to move again (taking back only the computer's reply would just let it play again).
        The log keeps the moves and records each undo after them, so nothing is ever lost; the state is
        rebuilt from the seed and the moves still standing (engines are deterministic).
        """
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            standing = await self.store.moves(match.id)
            if not standing:
                raise ServiceError(f"Match #{match.id} has no move to undo.")
            cut = len(standing) - 1
            while cut >= 0 and match.players[standing[cut].seat].is_computer:
                cut -= 1
            if cut < 0:
                raise ServiceError(f"Match #{match.id} has no move by a person to take back: only the computer moved.")
            taken = standing[cut:]
            game = self.game(match)
            state = self.replay(match, standing[:cut])
            now = self.time.now()
            clock = match.clock
            if clock is not None:
                for record in taken:
                    clock = clock.add_time(record.seat, max(0.0, (record.took or 0.0) - clock.settings.move_seconds))
                clock = clock.new_turn(game.to_move(state))
            async with self._commit(match):
                for number, record in enumerate(reversed(taken), start=1):
                    undo = MoveRecord(match.ply + number, record.seat, record.move, now, None, "undo", by.id)
                    await self.store.append_move(match.id, undo)
                    await self.store.log_action(match.id, "undo", by.id, f"undid {record.move}", now)
                match.state, match.ply, match.clock = state, match.ply + len(taken), clock
                await self.store.update_match(match, now)
            notice = Notice("undone", match, (f"{by.name} took back {self._taken_back(match, taken)}.",), by)
        await self._notify([notice])
        return notice

    def _taken_back(self, match: Match, taken: list[MoveRecord]) -> str:
        """ "Alice's move D4-F3 and Computer's moves E5-F6, F6-G7": each player's run of moves, in order."""
        public = self.game(match).public_move  # hidden cards stay hidden
        runs: list[tuple[int, list[MoveRecord]]] = []
        for record in taken:
            if runs and runs[-1][0] == record.seat:
                runs[-1][1].append(record)
            else:
                runs.append((record.seat, [record]))
        parts = []
        for seat, records in runs:
            name = match.players[seat].name
            moves = [public(r.move) for r in records if r.kind != RESIGN]
            said = [f"move{'s' if len(moves) > 1 else ''} {', '.join(moves)}"] if moves else []
            said += ["resignation"] if len(moves) < len(records) else []
            parts.append(f"{name}'s {' and '.join(said)}")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    async def adjudicate(self, match_id: int, by: Player, winner_id: str | None) -> Notice:
        """A moderator decides the game: `winner_id` wins, or None for a draw. A series carries on."""
        pending = _Pending()
        async with self._lock(match_id):
            match = await self._running_match(match_id)
            if winner_id is None:
                winners: frozenset[int] = frozenset()
            else:
                seats = match.seats_of(winner_id)
                if not seats:
                    raise NotInMatch(f"That player is not in match #{match.id}.")
                winners = frozenset(seats)
            await self._end(match, winners, f"adjudicated by {by.name}", "adjudicate", by.id, pending)
        await self._notify(pending.notices)
        return pending.notices[0]

    def replay(self, match: Match, records: list[MoveRecord]) -> Any:
        """The state after `records` (the log, or the moves still standing), rebuilt from the seed."""
        return move_log.final_position(self.game(match), len(match.players), match.seed, match.options, records)

    # --- clocks ---

    async def sweep(self) -> None:
        """Flag every running match whose time is up (the safety net behind the scheduler)."""
        now = self.time.now()
        for match in list(self._matches.values()):
            if match.clock is not None and match.clock.flagged(now):
                await self._flag_if_due(match.id, match.ply)

    async def _flag_if_due(self, match_id: int, ply: int) -> None:
        pending = _Pending()
        async with self._lock(match_id):
            match = self._matches.get(match_id)
            if match is None or match.ply != ply or match.clock is None:
                return
            if not match.clock.flagged(self.time.now()):
                self._arm(match)  # e.g. time was added since this timer was armed
                return
            await self._flag(match, pending)
        await self._notify(pending.notices)

    async def _flag(self, match: Match, pending: _Pending) -> None:
        """The seat to move is out of time: it loses (call with the match lock held).

        In a game of three or more whose seats can leave, only that seat is out and the others play
        on, exactly as if it had resigned (a `resign` line of the move log, by nobody)."""
        assert match.clock is not None and match.clock.seat is not None
        seat = match.clock.seat
        reason = f"{match.players[seat].name}'s reserve time ran out"
        game: Any = self.game(match)
        if game.seats_can_leave and len(match.players) > 2:
            state = game.resign(match.state, seat)
            clock, _ = match.clock.after_move(self.time.now(), game.to_move(state))
            record = MoveRecord(match.ply + 1, seat, RESIGN, self.time.now(), None, RESIGN, None)
            notice = await self._advance(match, record, state, clock, pending)
            lines = (f"{reason}: they are out of the game.", *notice.lines[1:])  # not "resigns": time did it
            pending.notices[0] = replace(notice, lines=lines)
            return
        winners = frozenset(s for s in range(len(match.players)) if s != seat)
        await self._end(match, winners, reason, "flag", None, pending)

    async def _end(
        self,
        match: Match,
        winners: frozenset[int],
        reason: str,
        kind: str,
        by_id: str | None,
        pending: _Pending,
    ) -> None:
        """End a match off the board (flag, resignation); call with the match lock held."""
        now = self.time.now()
        share = 1.0 if winners else 0.5  # a draw gives everyone half
        scores = tuple(share if (s in winners or not winners) else 0.0 for s in range(len(match.players)))
        match.status, match.result = OVER, Outcome(scores, winners, reason)
        if match.clock is not None:
            match.clock, _ = match.clock.after_move(now, None)
        async with self._commit(match, pending):
            await self.store.update_match(match, now)
            await self.store.log_action(match.id, kind, by_id, reason, now)
            await self._after_game(match, pending)
        self._matches.pop(match.id, None)
        series = self.series_of(match)
        pending.notices.insert(0, Notice("over", match, (f"{reason}.", *pending.rated), series=series))

    def _arm(self, match: Match) -> None:
        if match.clock is not None and (flag_time := match.clock.flag_time()) is not None:
            self.scheduler.arm(match.id, match.ply, flag_time)

    # --- series ---

    async def _after_game(self, match: Match, pending: _Pending) -> None:
        """Inside the game-ending transaction: rate it, score the series and start its next game if any."""
        await self._rate(match, pending)
        series = self.series_of(match)
        if series is None or match.result is None:
            return
        for seat in match.result.winners if len(match.result.winners) == 1 else ():
            series.wins[seat] += 1
        played = match.game_no
        top = max(series.wins)
        if top >= series.needed or played >= series.best_of:
            leaders = frozenset(s for s, w in enumerate(series.wins) if w == top)
            winners = leaders if len(leaders) == 1 else frozenset()
            series.status = OVER
            series.result = Outcome(tuple(float(w) for w in series.wins), winners, self._series_reason(series))
            await self.store.update_series(series)
            pending.notices.append(
                Notice("series_over", match, (self.series_line(series),), series=series, series_over=True)
            )
            return
        await self.store.update_series(series)
        nxt = self._series_game(self.games[series.game], series, played + 1)
        nxt.id = await self.store.insert_match(nxt)
        series.games.append(nxt.id)
        pending.started.append(nxt)
        pending.notices.append(Notice("started", nxt, self._start_lines(nxt), series=series))

    # --- ratings (bot/ratings.py) ---

    async def _rate(self, match: Match, pending: _Pending) -> None:
        """Inside the game-ending transaction: update the Glicko-2 ratings of a rated game's players, so
        a result is never stored without its rating change, nor the reverse. Death-match games are rated
        one by one, like any game."""
        if not ratings.is_rated(match.players, match.result):
            return
        assert match.result is not None
        guild = match.place.guild_id
        stored = await self.store.ratings_of(guild, match.game, [p.id for p in match.players])
        fresh = [ratings.PlayerRating(guild, match.game, p.id, p.name) for p in match.players]
        before = [replace(stored.get(p.id, new), name=p.name) for p, new in zip(match.players, fresh, strict=True)]
        after = ratings.after_game(before, match.result, self.time.now())
        for rating in after:
            await self.store.save_rating(rating)
        pending.rated = (ratings.change_line(before, after),)

    async def leaderboard(self, guild_id: int | None, game_key: str, limit: int = 10) -> list[ratings.PlayerRating]:
        """A server's best-rated players of one game (None: offline), best first."""
        self._game_or_refuse(game_key)
        if not 1 <= limit <= 100:
            raise ServiceError("A leaderboard shows 1 to 100 players.")
        return await self.store.top_ratings(guild_id, game_key, limit)

    async def stats(self, guild_id: int | None, player_id: str) -> list[ratings.PlayerRating]:
        """One player's ratings on a server, a line per game they have played rated."""
        return [r for r in await self.store.player_ratings(guild_id, player_id) if r.game in self.games]

    def _series_reason(self, series: Series) -> str:
        score = "–".join(str(w) for w in series.wins)
        if len(set(series.wins)) == 1:
            return f"level at {score} after {plural(series.best_of, 'game')}"
        return f"{score} in games"

    # --- words ---

    def result_line(self, match: Match) -> str:
        result = match.result
        if result is None:
            return ""
        if result.is_draw:
            if len(match.players) == 1:
                return f"Game over ({result.reason})."
            return f"Game over: a draw ({result.reason})."
        names = " and ".join(match.players[s].name for s in sorted(result.winners))
        return f"Game over: {names} {'wins' if len(result.winners) == 1 else 'win'} ({result.reason})."

    def series_line(self, series: Series) -> str:
        result = series.result
        if result is None:
            return ""
        if result.is_draw:
            house = " — by DM rules the house wins" if series.house_wins else ""
            return f"The death match is drawn{house} ({result.reason})."
        winner = series.players[next(iter(result.winners))].name
        return f"{winner} wins the death match, {result.reason}."

    # --- plumbing ---

    @asynccontextmanager
    async def _commit(self, match: Match, pending: _Pending | None = None) -> AsyncIterator[None]:
        """One transaction for a change to `match`. The cached match (and its series) may be changed
        inside; if the commit fails they are reloaded from the store, which stays the source of truth.
        Games a series starts inside become running only once committed."""
        try:
            async with self.store.transaction():
                yield
        except BaseException:
            await self._reload(match)
            raise
        for started in pending.started if pending else ():
            self._matches[started.id] = started
            self._arm(started)

    async def _reload(self, match: Match) -> None:
        stored = await self.store.load_match(match.id)
        if stored is not None and stored.running:
            self._matches[match.id] = stored
        else:
            self._matches.pop(match.id, None)
        if match.series_id is not None and (series := await self.store.load_series(match.series_id)):
            self._series[series.id] = series

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    async def _running_match(self, match_id: int) -> Match:
        match = self._matches.get(match_id)
        if match is not None:
            return match
        stored = await self.store.load_match(match_id)
        if stored is None:
            raise NoSuchMatch(f"There is no match #{match_id}.")
        raise MatchNotRunning(f"Match #{match_id} is {stored.status}: it takes no more moves.")

    async def _notify(self, notices: list[Notice]) -> None:
        for notice in notices:
            for listener in self._listeners:
                try:
                    await listener(notice)
                except Exception:  # a front-end failing to post must not undo a committed move
                    log.exception("listener failed on %s for match %s", notice.kind, notice.match.id)
