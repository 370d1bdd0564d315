"""Tournaments (issue #23, docs/tournaments.md): sign-up, the rounds' games, their results, moderators.

The pure core is bot/tournaments/ (`Tournament`: pairing, scoring, standings); this concept runs it. A
moderator opens a tournament (sign-up); players join and leave; it starts by hand or at its closing time
(armed on the flags' scheduler, like the end of away time). Each round's pairings become games at once:
a match a board (the pairing's first entry in the first seat; the tournament's clock), a death match
series for "1, 2, 3" with `series:dm`, or a pod of up to the table's seats for Volcano and Geyser. The
service listens to its own notices: a game that ends (`over`; `series_over` for a death match) is the
board's result (flags, resignations and claims too), and when a round's last result is in the next round
is paired and its games started, in the same transaction as the result.

A player who leaves after the start is withdrawn: their unplayed game of the round is forfeited (their
running game is resigned for them, or a death match aborted) and pairing goes on without them. Moderators
adjudicate a board (its running game ends with that result: adjudicated with two players, else aborted),
replace a player (the newcomer takes the entry over; a running game of theirs starts afresh with them),
or void the round (its running games are aborted and the round is paired again).

Every change is one transaction under the tournament's lock: the document (`Tournament.to_json()`), the
status, and every game it starts with its `tournament_games` row, fenced by the server's shard lease. A
game's end and its tournament result are two transactions (the result is recorded once the game's notice
is out), so after a restart `resume` reads the results of games that ended while the bot was down, starts
a tournament whose closing time passed, and pairs a round that completed meanwhile. Games are ended (a
withdrawal, an adjudication, a void) only after the tournament's lock is released: their notices come
back here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot import posts
from bot import tournament_posts as words
from bot.clock import ClockError, ClockSettings, parse_clock
from bot.errors import NoSuchMatch, ServiceError
from bot.games import Outcome
from bot.i18n import _
from bot.models import RUNNING, Match, Notice, NoticeKind, Place, Player, Series
from bot.service.flags import Flags
from bot.service.moderation import Moderation
from bot.service.playing import Playing
from bot.service.registry import Registry, new_match
from bot.service.series import DM_CLOCK, DeathMatches
from bot.tournaments import Tournament, TournamentError
from bot.tournaments.model import FORMATS
from bot.tournaments.stored import CANCELLED, FINISHED, PLAYING, SIGNUP, BoardGame, HeldTournament, TournamentGame
from bot.wording import did_you_mean

log = logging.getLogger(__name__)

SIGNUP_MOST = 30 * 86_400.0
"""The latest a closing time may be: 30 days ahead."""


class TournamentRefused(ServiceError):
    """A tournament change that cannot be made; the message says why (nothing changed)."""


@dataclass(frozen=True, slots=True)
class TournamentNotice:
    """What just happened to a tournament, once committed. `kind`: opened, joined, left, started, round,
    withdrawn, replaced, adjudicated, voided, aborted (a board's game was aborted), over, cancelled.
    `boards` (kind round): the round's boards; `to`: the people the notice is about, who alone may be pinged."""

    kind: str
    held: HeldTournament
    lines: tuple[str, ...] = ()
    boards: tuple[BoardGame, ...] = ()
    by: Player | None = None
    to: tuple[Player, ...] = ()


TournamentListener = Callable[[TournamentNotice], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament's record as JSON (`dumps`), like a match's (bot/records.py): the document with its id,
    status and the games each board was played in."""

    tournament_id: int
    data: dict[str, Any]

    @property
    def filename(self) -> str:
        return f"tournament-{self.tournament_id}.json"

    def dumps(self) -> str:
        import json

        return json.dumps(self.data, indent=2, sort_keys=False)


@dataclass
class _Work:
    """What a change has to do once committed and its lock released."""

    held: HeldTournament
    started: list[tuple[Match, Series | None]] = field(default_factory=list)
    notices: list[TournamentNotice] = field(default_factory=list)
    after: list[Callable[[], Awaitable[Any]]] = field(default_factory=list)


def entry_player(t: Tournament, entry: int) -> Player:
    e = t.entrants[entry]
    return Player(e.id, e.name)


class Tournaments:
    def __init__(
        self,
        registry: Registry,
        series: DeathMatches,
        playing: Playing,
        moderation: Moderation,
        flags: Flags,
        place_for: Callable[[Place], Place] = lambda p: p,
        house_wins: Callable[[int | None], bool] = lambda guild_id: True,
    ) -> None:
        self.registry = registry
        self.series = series
        self.playing = playing
        self.moderation = moderation
        self.flags = flags
        self.place_for = place_for
        """Where a tournament's games open (its server's match channel, a setting); else where it was opened."""
        self.house_wins = house_wins
        self._held: dict[int, HeldTournament] = {}
        """Open and running tournaments of the shards held here (a cache of the store)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._listeners: list[TournamentListener] = []
        self._subscribed = False

    # --- lifecycle ---

    async def start(self) -> None:
        """Load the open and running tournaments (after a restart too) and hear the games' notices. Nothing is
        started or posted here: `resume` does that once the front-ends can post."""
        if not self._subscribed:  # last: the front-ends post a game's end before the next round starts
            self.registry.subscribe(self.on_notice)
            self._subscribed = True
        for held in await self.registry.store.tournaments((SIGNUP, PLAYING)):
            if held.id not in self._held and self.registry.ownership.owns(held.place.guild_id):
                self._held[held.id] = held

    async def resume(self) -> None:
        """Catch up with what happened while the bot was down: closing times that passed start their
        tournament (the others are armed), results of games that ended are recorded, and a round they
        completed is paired. Safe to call again (after a shard is taken over)."""
        now = self.registry.time.now()
        for held in list(self._held.values()):
            try:
                if held.open and held.closes_at is not None:
                    if held.closes_at <= now:
                        await self.start_if_due(held.id)
                    else:
                        self._arm(held)
                elif held.running:
                    await self._catch_up(held.id)
            except Exception:  # one damaged tournament must not keep the others from going on
                log.exception("could not resume tournament %s", held.id)

    def drop_unowned(self) -> None:
        for tid in [tid for tid, h in self._held.items() if not self.registry.ownership.owns(h.place.guild_id)]:
            del self._held[tid]

    def subscribe(self, listener: TournamentListener) -> None:
        self._listeners.append(listener)

    # --- reading ---

    async def get(self, tournament_id: int) -> HeldTournament:
        held = self._held.get(tournament_id) or await self.registry.store.load_tournament(tournament_id)
        if held is None:
            raise NoSuchMatch(_("There is no tournament #{number}.").format(number=tournament_id))
        return held

    async def listing(self, guild_id: int | None, statuses: Sequence[str] = (SIGNUP, PLAYING)) -> list[HeldTournament]:
        """A server's tournaments in those statuses (None: the offline ones), oldest first."""
        found = await self.registry.store.tournaments(tuple(statuses), guild_id)
        return [self._held.get(h.id, h) for h in found if h.place.guild_id == guild_id]

    async def games(self, tournament_id: int) -> list[TournamentGame]:
        return await self.registry.store.tournament_games(tournament_id)

    async def boards(self, held: HeldTournament) -> tuple[BoardGame, ...]:
        """The current round's boards with their live games."""
        t = held.tournament
        if not t.started:
            return ()
        live = {
            (g.round, g.board): g for g in await self.games(held.id) if not g.voided and g.round == t.current.number
        }
        out = []
        for board, p in enumerate(t.current.pairings, 1):
            game = live.get((t.current.number, board))
            result = None
            if p.result is not None and p.result.kind in ("bye", "forfeit"):
                result = p.result.kind
            out.append(
                BoardGame(
                    board,
                    tuple(entry_player(t, e) for e in p.seats),
                    game.match_id if game else None,
                    game.series_id if game else None,
                    result,
                )
            )
        return tuple(out)

    async def record(self, tournament_id: int) -> TournamentRecord:
        """The whole tournament as JSON: the document (`Tournament.to_json()`: settings, players, seeds,
        every round's pairings and results, voided rounds), with its id, status and the games played."""
        held = await self.get(tournament_id)
        data = held.tournament.to_json()
        data.update(
            {
                "id": held.id,
                "status": held.status,
                "guild_id": held.place.guild_id,
                "created_by": {"id": held.created_by.id, "name": held.created_by.name},
                "created_at": held.created_at,
                "closes_at": held.closes_at,
                "games": [
                    {"round": g.round, "board": g.board, "match": g.match_id, "series": g.series_id, "voided": g.voided}
                    for g in await self.games(held.id)
                ],
            }
        )
        return TournamentRecord(held.id, data)

    # --- sign-up ---

    async def open(
        self,
        game_key: str,
        format: str,
        by: Player,
        *,
        place: Place | None = None,
        rounds: int | None = None,
        clock: str | None = None,
        series: str = "single",
        seats: int | None = None,
        closes_at: float | None = None,
    ) -> HeldTournament:
        """A tournament open for sign-up (front-ends check that `by` is a moderator). Refused in words, storing
        nothing, for a bad game, format, number of rounds, clock, series, seats or closing time."""
        registry = self.registry
        if game_key not in registry.games:
            known = sorted(registry.games)
            said = _("There is no game {name} (games: {games}).").format(name=repr(game_key), games=", ".join(known))
            said += did_you_mean(game_key, known)
            raise TournamentRefused(said)
        game = registry.games[game_key]
        if format not in FORMATS:
            raise TournamentRefused(
                _("The format is knockout, roundrobin or swiss, not {value}.").format(value=repr(format))
            )
        settings = _clock(clock)
        now = registry.time.now()
        if closes_at is not None and not now < closes_at <= now + SIGNUP_MOST:
            raise TournamentRefused(_("Sign-up closes between a minute and 30 days from now."))
        text = None if settings is None else _clock_text(clock)
        try:
            t = Tournament.new(
                game.key, format, seats=seats, rounds=rounds, clock=text, series=series, games=registry.games
            )
        except TournamentError as error:
            raise TournamentRefused(str(error)) from None
        if series == "dm" and game.key != "fish":
            raise TournamentRefused(_('Death-match series are for "1, 2, 3" (fish) only.'))
        held = HeldTournament(0, t, by, place or Place(), None, SIGNUP, closes_at, now, now)
        async with registry.store.transaction():
            await registry.ownership.fence(held.place.guild_id)
            held.id = await registry.store.insert_tournament(held)
        self._held[held.id] = held
        if closes_at is not None:
            self._arm(held)
        lines = (words.opened(held, registry.games),)
        await self._tell([TournamentNotice("opened", held, lines, by=by)])
        return held

    async def posted(self, tournament_id: int, message_id: int | None, thread_id: int | None) -> HeldTournament:
        """The front-end posted the sign-up (its buttons) and opened the tournament's thread: remember both."""

        def change(held: HeldTournament) -> HeldTournament:
            place = replace(held.place, thread_id=thread_id if thread_id is not None else held.place.thread_id)
            return replace(held, message_id=message_id if message_id is not None else held.message_id, place=place)

        work = await self._change(tournament_id, change, any_status=True)
        return work.held

    async def join(self, tournament_id: int, player: Player) -> HeldTournament:
        if player.is_computer:
            raise TournamentRefused(_("Computer players cannot enter a tournament."))
        rating = await self._rating(await self.get(tournament_id), player)

        def change(held: HeldTournament) -> HeldTournament:
            if not held.open:
                raise TournamentRefused(_closed(held))
            return replace(held, tournament=held.tournament.add_entrant(player.id, player.name, rating))

        work = await self._change(tournament_id, change)
        line = words.joined(player, work.held)
        work.notices.append(TournamentNotice("joined", work.held, (line,), to=(player,)))
        await self._after(work)
        return work.held

    async def leave(self, tournament_id: int, player: Player) -> HeldTournament:
        """Leave the sign-up; once the tournament has started, leaving withdraws the player."""
        held = await self.get(tournament_id)
        if held.running:
            return await self.withdraw(tournament_id, player.id, player)

        def change(held: HeldTournament) -> HeldTournament:
            if not held.open:
                raise TournamentRefused(_closed(held))
            if not any(e.id == player.id for e in held.tournament.entrants):
                raise TournamentRefused(_("You have not signed up for tournament #{number}.").format(number=held.id))
            return replace(held, tournament=held.tournament.remove_entrant(player.id))

        work = await self._change(tournament_id, change)
        line = words.left(player, work.held)
        work.notices.append(TournamentNotice("left", work.held, (line,), to=(player,)))
        await self._after(work)
        return work.held

    async def start_tournament(self, tournament_id: int, by: Player | None) -> HeldTournament:
        """Close sign-up, seed by rating and start round 1's games (front-ends check that `by` may)."""

        def change(held: HeldTournament) -> HeldTournament:
            if not held.open:
                raise TournamentRefused(_closed(held))
            return replace(held, tournament=held.tournament.start(), status=PLAYING)

        work = await self._change(tournament_id, change)
        line = words.started(work.held, self.registry.games)
        work.notices.insert(0, TournamentNotice("started", work.held, (line,), by=by))
        await self._after(work)
        return work.held

    async def start_if_due(self, tournament_id: int) -> None:
        """The closing time's entry on the scheduler: start the tournament if it is still open and its time
        has come; with fewer than two players it is cancelled."""
        held = self._held.get(tournament_id)
        now = self.registry.time.now()
        if held is None or not held.open or held.closes_at is None or held.closes_at > now:
            return
        if len(held.tournament.entrants) >= 2:
            try:
                await self.start_tournament(tournament_id, None)
            except TournamentRefused:  # started or cancelled meanwhile
                log.info("tournament %s did not start at its closing time", tournament_id, exc_info=True)
            return

        def cancel(held: HeldTournament) -> HeldTournament:
            if not held.open:
                raise TournamentRefused(_closed(held))
            return replace(held, status=CANCELLED)

        try:
            work = await self._change(tournament_id, cancel)
        except TournamentRefused:
            return
        line = words.cancelled(work.held, self.registry.games)
        work.notices.append(TournamentNotice("cancelled", work.held, (line,)))
        await self._after(work)

    # --- moderators ---

    async def withdraw(self, tournament_id: int, player_id: str, by: Player) -> HeldTournament:
        """The player leaves the running tournament: never paired again; an unplayed game of theirs in this
        round is forfeited (their running game resigned for them; a death match aborted)."""
        boards_before = await self.boards(await self.get(tournament_id))

        def change(held: HeldTournament) -> HeldTournament:
            if not held.running:
                raise TournamentRefused(_not_running(held))
            return replace(held, tournament=held.tournament.withdraw(player_id))

        work = await self._change(tournament_id, change)
        t = work.held.tournament
        player = entry_player(t, t.entry_of(player_id))
        for board in boards_before:
            if any(p.id == player_id for p in board.players) and board.match_id is not None:
                work.after.append(self._ender(board, by, leaver=player_id))
        line = words.withdrew(player, work.held, by)
        work.notices.insert(0, TournamentNotice("withdrawn", work.held, (line,), by=by, to=(player,)))
        await self._after(work)
        return work.held

    async def adjudicate(
        self, tournament_id: int, round_no: int, board: int, places: Sequence[int] | Literal["void"], by: Player
    ) -> HeldTournament:
        """A moderator's result for a board of the current round (places by seat, or "void"); its running game
        ends with it (adjudicated with two players; aborted for a pod, a void or a death match)."""
        held = await self.get(tournament_id)
        boards_before = await self.boards(held) if held.tournament.started else ()
        places = places if places == "void" else tuple(places)

        def change(held: HeldTournament) -> HeldTournament:
            if not held.running:
                raise TournamentRefused(_not_running(held))
            return replace(held, tournament=held.tournament.adjudicate(round_no, board, places))

        work = await self._change(tournament_id, change)
        current = held.tournament.current.number if held.tournament.started else 0
        for game in boards_before:
            if game.board == board and round_no == current and game.match_id is not None:
                work.after.append(self._ender(game, by, places=places))
        line = words.adjudicated(by, work.held, round_no, board, places)
        work.notices.insert(0, TournamentNotice("adjudicated", work.held, (line,), by=by))
        await self._after(work)
        return work.held

    async def replace_player(self, tournament_id: int, player_id: str, new: Player, by: Player) -> HeldTournament:
        """`new` takes over the entry of `player_id` (points, this round's unplayed game, the games to come);
        a running game of the entry starts afresh with the newcomer."""
        if new.is_computer:
            raise TournamentRefused(_("Computer players cannot enter a tournament."))
        held = await self.get(tournament_id)
        rating = await self._rating(held, new)
        boards_before = await self.boards(held) if held.tournament.started else ()
        replaced: list[BoardGame] = []

        async def voids(h: HeldTournament) -> list[TournamentGame]:
            live = [g for g in await self.games(h.id) if not g.voided]
            targets = {(h.tournament.current.number, b.board) for b in replaced}
            return [g for g in live if (g.round, g.board) in targets]

        def change(held: HeldTournament) -> HeldTournament:
            if not held.running:
                raise TournamentRefused(_not_running(held))
            t = held.tournament.replace_player(player_id, new.id, new.name, rating)
            for game in boards_before:
                running = game.match_id is not None and game.result is None
                pairing = t.current.pairings[game.board - 1]
                if running and pairing.result is None and any(p.id == player_id for p in game.players):
                    replaced.append(game)
            return replace(held, tournament=t)

        work = await self._change(tournament_id, change, void=voids)
        for game in replaced:
            work.after.append(self._ender(game, by, places="void"))
        old = next((f.name for e in work.held.tournament.entrants for f in e.formers if f.id == player_id), player_id)
        line = words.replaced(new, old, work.held, by)
        work.notices.insert(0, TournamentNotice("replaced", work.held, (line,), by=by, to=(new,)))
        await self._after(work)
        return work.held

    async def void_round(self, tournament_id: int, by: Player) -> HeldTournament:
        """Drop the current round's pairings and results (the record keeps them), abort its running games and
        pair the round again from the standings before it."""
        held = await self.get(tournament_id)
        boards_before = await self.boards(held) if held.tournament.started else ()

        async def voids(h: HeldTournament) -> list[TournamentGame]:
            number = held.tournament.current.number
            return [g for g in await self.games(h.id) if not g.voided and g.round == number]

        def change(held: HeldTournament) -> HeldTournament:
            if not held.running:
                raise TournamentRefused(_not_running(held))
            return replace(held, tournament=held.tournament.void_round())

        work = await self._change(tournament_id, change, void=voids, repaired=True)
        for game in boards_before:
            if game.match_id is not None and game.result is None:
                work.after.append(self._ender(game, by, places="void"))
        line = words.voided(by, work.held, held.tournament.current.number)
        work.notices.insert(0, TournamentNotice("voided", work.held, (line,), by=by))
        await self._after(work)
        return work.held

    # --- the games' notices ---

    async def on_notice(self, notice: Notice) -> None:
        """A game ended: if it plays a board of a running tournament, that is the board's result."""
        match = notice.match
        if notice.kind not in ("over", "series_over", "aborted"):
            return
        if not any(h.running and h.place.guild_id == match.place.guild_id for h in self._held.values()):
            return
        if notice.kind == NoticeKind.OVER and match.series_id is not None:
            return  # a game of a death match: its series' end is the result
        series_id = notice.series.id if notice.kind == NoticeKind.SERIES_OVER and notice.series else None
        if notice.kind == NoticeKind.ABORTED:
            series_id = match.series_id
        game = await self.registry.store.tournament_game_of(match.id, series_id)
        if game is None or game.voided or game.tournament_id not in self._held:
            return
        if notice.kind == NoticeKind.ABORTED:
            await self._aborted(game)
            return
        outcome = notice.series.result if notice.kind == NoticeKind.SERIES_OVER and notice.series else match.result
        if outcome is not None:
            await self._result(game, outcome)

    async def _result(self, game: TournamentGame, outcome: Outcome) -> None:
        def change(held: HeldTournament) -> HeldTournament:
            t = held.tournament
            if not held.running or not t.started or t.current.number != game.round:
                return held
            if t.pairing_at(game.round, game.board).result is not None:
                return held  # forfeited or adjudicated first: that stands
            return replace(held, tournament=t.record_outcome(game.round, game.board, outcome))

        try:
            work = await self._change(game.tournament_id, change)
        except (TournamentRefused, TournamentError):
            log.warning("tournament %s: could not record round %s board %s", game.tournament_id, game.round, game.board)
            return
        await self._after(work)

    async def _aborted(self, game: TournamentGame) -> None:
        held = self._held.get(game.tournament_id)
        if held is None or not held.running or held.tournament.current.number != game.round:
            return
        if held.tournament.pairing_at(game.round, game.board).result is not None:
            return
        line = words.game_aborted(held, game.round, game.board)
        await self._tell([TournamentNotice("aborted", held, (line,))])

    async def _catch_up(self, tournament_id: int) -> None:
        """Results of games that ended while the bot was down, then whatever they make due."""
        held = self._held[tournament_id]
        t = held.tournament
        found: list[tuple[TournamentGame, Outcome]] = []
        for game in await self.games(tournament_id):
            if game.voided or game.round != t.current.number or t.pairing_at(game.round, game.board).result:
                continue
            outcome = await self._ended(game)
            if outcome is not None:
                found.append((game, outcome))

        def change(held: HeldTournament) -> HeldTournament:
            t = held.tournament
            for game, outcome in found:
                if t.pairing_at(game.round, game.board).result is None:
                    t = t.record_outcome(game.round, game.board, outcome)
            return replace(held, tournament=t)

        await self._after(await self._change(tournament_id, change))

    async def _ended(self, game: TournamentGame) -> Outcome | None:
        """The result of a board's game if it has ended (None while it runs, or if it was aborted)."""
        store = self.registry.store
        if game.series_id is not None:
            series = await store.load_series(game.series_id)
            return series.result if series is not None and series.status != RUNNING else None
        match = await store.load_match(game.match_id) if game.match_id is not None else None
        return match.result if match is not None and match.status != RUNNING else None

    # --- inside ---

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _arm(self, held: HeldTournament) -> None:
        if held.closes_at is not None:
            tid = held.id
            self.flags.scheduler.call_at(held.closes_at, lambda: self.start_if_due(tid))

    async def _rating(self, held: HeldTournament, player: Player) -> float:
        found = await self.registry.store.ratings_of(held.place.guild_id, held.tournament.game, [player.id])
        return found[player.id].rating.rating if player.id in found else 1500.0

    async def _change(
        self,
        tournament_id: int,
        change: Callable[[HeldTournament], HeldTournament],
        *,
        void: Callable[[HeldTournament], Awaitable[list[TournamentGame]]] | None = None,
        repaired: bool = False,
        any_status: bool = False,
    ) -> _Work:
        """One change to a tournament under its lock, in one transaction: `change` gives the new value (or
        refuses); a round it completes is paired; the current round's boards without a game get one; `void`
        names games that count no more. Returns the work to do once the lock is released (`_after`)."""
        registry = self.registry
        async with self._lock(tournament_id):
            held = self._held.get(tournament_id)
            if held is None:
                stored = await registry.store.load_tournament(tournament_id)
                if stored is None:
                    raise NoSuchMatch(_("There is no tournament #{number}.").format(number=tournament_id))
                if not any_status or not registry.ownership.owns(stored.place.guild_id):
                    raise TournamentRefused(_not_running(stored))
                held = stored
            try:
                new = change(held)
                t = new.tournament
                if new.status == PLAYING and t.round_complete and not t.finished:
                    t = t.advance()
            except TournamentError as error:
                raise TournamentRefused(str(error)) from None
            status = FINISHED if new.status == PLAYING and t.finished else new.status
            now = registry.time.now()
            new = replace(new, tournament=t, status=status, updated_at=now)
            voided = await void(held) if void is not None else []
            gone = {g.id for g in voided}
            live = {(g.round, g.board) for g in await registry.store.tournament_games(held.id) if not g.voided}
            live = {key for key in live if key not in {(g.round, g.board) for g in voided}}
            work = _Work(new)
            to_start: list[tuple[int, Match, Series | None]] = []
            if new.status == PLAYING:
                for board, p in enumerate(t.current.pairings, 1):
                    if p.result is None and (t.current.number, board) not in live:
                        to_start.append((board, *self._game_for(new, p.seats)))
            if new == held and not to_start and not gone:
                return work  # nothing changed (a result recorded twice, a timer gone stale)
            async with registry.store.transaction():
                await registry.ownership.fence(new.place.guild_id)
                await registry.store.update_tournament(new)
                await registry.store.void_tournament_games(sorted(gone))
                for board, match, series in to_start:
                    if series is not None:
                        series.id = await registry.store.insert_series(series)
                        match.series_id = series.id
                    match.id = await registry.store.insert_match(match)
                    if series is not None:
                        series.games.append(match.id)
                    link = TournamentGame(0, new.id, t.current.number, board, match.id, series.id if series else None)
                    await registry.store.insert_tournament_game(link)
            for __, match, series in to_start:
                registry.add(match, series)
                work.started.append((match, series))
            if new.status in (SIGNUP, PLAYING):
                self._held[new.id] = new
            else:
                self._held.pop(new.id, None)
            before = held.tournament.current.number if held.tournament.started else 0
            if new.status == PLAYING and (t.current.number != before or repaired):
                work.notices.append(await self._round_notice(new))
            if new.status == FINISHED and held.status != FINISHED:
                work.notices.append(TournamentNotice("over", new, words.over_lines(new, self.registry.games)))
            return work

    def _game_for(self, held: HeldTournament, seats: Sequence[int]) -> tuple[Match, Series | None]:
        """A board's game, not yet stored: the pairing's first entry sits first; the tournament's clock."""
        registry = self.registry
        t = held.tournament
        game = registry.games[t.game]
        players = tuple(entry_player(t, e) for e in seats)
        options: dict[str, Any] = {"first": 0} if "first" in game.options.names else {}
        place = self.place_for(Place(held.place.guild_id, held.place.channel_id))
        now = registry.time.now()
        clock = _clock(t.clock)
        if t.series == "dm":
            series = Series(
                id=0,
                game=t.game,
                players=players,
                best_of=3,
                first=0,
                options={},
                clock=clock or DM_CLOCK,
                house_wins=self.house_wins(held.place.guild_id),
                place=place,
                wins=[0] * len(players),
                created_at=now,
            )
            return self.series._game(game, series, 1), series
        return new_match(game, players, options, None, clock, place, now), None

    async def _round_notice(self, held: HeldTournament) -> TournamentNotice:
        boards = await self.boards(held)
        to = tuple(dict.fromkeys(p for b in boards if b.result is None for p in b.players))
        return TournamentNotice("round", held, words.round_lines(held, self.registry.games, boards), boards, to=to)

    def _ender(
        self, board: BoardGame, by: Player, *, leaver: str | None = None, places: Sequence[int] | str | None = None
    ) -> Callable[[], Awaitable[Any]]:
        """Ends a board's running game once the lock is released: the leaver resigns (a death match is
        aborted); a moderator's two-player result is adjudicated; anything else is aborted."""

        async def end() -> None:
            match_id = board.match_id
            if board.series_id is not None:
                series = await self.registry.get_series(board.series_id)
                match_id = series.games[-1] if series.games else None
            match = self.registry.running_match(match_id) if match_id is not None else None
            if match is None:
                return
            try:
                if leaver is not None and board.series_id is None and match.seats_of(leaver):
                    await self.playing.resign(match.id, leaver)
                elif board.series_id is None and len(match.players) == 2 and places in ((1, 2), (2, 1), (1, 1)):
                    assert isinstance(places, tuple)
                    winner = None if places == (1, 1) else match.players[places.index(1)].id
                    await self.moderation.adjudicate(match.id, by, winner)
                else:
                    await self.moderation.abort(match.id, by)
            except ServiceError:  # it ended meanwhile, or the player had left it already
                log.info("tournament game %s was not ended: it had ended already", match.id)

        return end

    async def _after(self, work: _Work) -> None:
        """Once committed, with no lock held: the started games' notices, the tournament's, then the games
        to end (whose notices come back to `on_notice`)."""
        games = self.registry.games
        started = [
            Notice(NoticeKind.STARTED, m, posts.start_lines(m, games[m.game]), series=s) for m, s in work.started
        ]
        await self.registry.notify(started)
        await self._tell(work.notices)
        for end in work.after:
            await end()

    async def _tell(self, notices: list[TournamentNotice]) -> None:
        for notice in notices:
            for listener in self._listeners:
                try:
                    await listener(notice)
                except Exception:  # a front-end failing to post must not undo a committed change
                    log.exception("tournament listener failed on %s for tournament %s", notice.kind, notice.held.id)


def _clock(text: str | None) -> ClockSettings | None:
    try:
        return parse_clock(text)
    except ClockError as error:
        raise TournamentRefused(str(error)) from None


def _clock_text(text: str | None) -> str | None:
    return None if text is None else " ".join(text.split()).lower()


def _closed(held: HeldTournament) -> str:
    if held.status == PLAYING:
        return _("Tournament #{number} has started: sign-up is closed.").format(number=held.id)
    if held.status == CANCELLED:
        return _("Tournament #{number} was cancelled: sign-up is closed.").format(number=held.id)
    return _("Tournament #{number} is over: sign-up is closed.").format(number=held.id)


def _not_running(held: HeldTournament) -> str:
    if held.status == SIGNUP:
        return _("Tournament #{number} has not started yet.").format(number=held.id)
    if held.status == CANCELLED:
        return _("Tournament #{number} was cancelled.").format(number=held.id)
    return _("Tournament #{number} is over.").format(number=held.id)


__all__ = [
    "BoardGame",
    "TournamentListener",
    "TournamentNotice",
    "TournamentRecord",
    "TournamentRefused",
    "Tournaments",
]
