"""What moderators do to a running match: pause and resume its clock, add (or take) reserve time, take back
moves, decide the game (adjudicate), or stop it with no result (abort).

Each is one change under the match's lock, logged in the action log with who did it, and announced by a
notice. The rulings: an undo refunds the reserve the undone moves spent and the interrupted turn is charged
to nobody; against the computer it takes back the last person's move and every computer move after it; an
adjudicated draw scores half each and a series carries on; an abort ends the series too. `take_back`, the
undo's machinery, also carries out the takebacks players agree on (bot/service/takebacks.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import move_log, posts
from bot.errors import NotInMatch, ServiceError
from bot.games import Termination
from bot.i18n import _
from bot.models import ABORTED, Match, MoveRecord, Notice, NoticeKind, Player
from bot.service.ending import Ending
from bot.service.flags import Flags
from bot.service.registry import Pending, Registry
from bot.service.reminding import Reminding


class Moderation:
    def __init__(self, registry: Registry, ending: Ending, flags: Flags, reminding: Reminding) -> None:
        self.registry = registry
        self.ending = ending
        self.flags = flags
        self.reminding = reminding

    async def pause(self, match_id: int, by: Player) -> Notice:
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            if match.clock is None:
                raise ServiceError(
                    _("Match #{number} has no clock, so there is nothing to pause.").format(number=match.id)
                )
            if match.clock.paused:
                raise ServiceError(_("Match #{number} is already paused.").format(number=match.id))
            now = registry.time.now()
            match.clock = match.clock.pause(now)
            async with registry.commit(match):
                await registry.store.update_clock(match.id, match.clock)
                await registry.store.log_action(match.id, "pause", by.id, "paused", now)
                planned = await self.reminding.plan(match, None)  # a paused turn has none
            self.reminding.arm(match, planned)
            notice = Notice(NoticeKind.PAUSED, match, (posts.paused_line(by),), by)
        await registry.notify([notice])
        return notice

    async def resume(self, match_id: int, by: Player) -> Notice:
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            if match.clock is None or not match.clock.paused:
                raise ServiceError(_("Match #{number} is not paused.").format(number=match.id))
            now = registry.time.now()
            match.clock = match.clock.resume(now)
            async with registry.commit(match):
                await registry.store.update_clock(match.id, match.clock)
                await registry.store.log_action(match.id, "resume", by.id, "resumed", now)
                planned = await self.reminding.plan(match, None)
            self.flags.arm(match)
            self.reminding.arm(match, planned)
            notice = Notice(NoticeKind.RESUMED, match, (posts.resumed_line(by),), by)
        await registry.notify([notice])
        return notice

    async def add_time(self, match_id: int, by: Player, player_id: str, seconds: float) -> Notice:
        """Add (or with a negative number, take) reserve time for one player."""
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            if match.clock is None:
                raise ServiceError(_("Match #{number} has no clock.").format(number=match.id))
            seats = match.seats_of(player_id)
            if not seats:
                raise NotInMatch(_("That player is not in match #{number}.").format(number=match.id))
            if not -86_400 <= seconds <= 86_400 or seconds == 0:
                raise ServiceError(_("Add between 1 second and 24 hours (negative takes time away)."))
            now = registry.time.now()
            clock = match.clock
            for seat in seats:
                clock = clock.add_time(seat, seconds)
            match.clock = clock
            given = posts.time_given(seconds, match.players[seats[0]].name)
            async with registry.commit(match):
                await registry.store.update_clock(match.id, clock)
                await registry.store.log_action(match.id, "addtime", by.id, given, now)
                planned = await self.reminding.plan(match, None)  # the last one moves with the deadline
            self.flags.arm(match)
            self.reminding.arm(match, planned)
            line = posts.time_added_line(by, given, clock.reserve_at(seats[0], now))
            notice = Notice(NoticeKind.TIME_ADDED, match, (line,), by)
        await registry.notify([notice])
        return notice

    async def abort(self, match_id: int, by: Player) -> Notice:
        """Stop a match with no result (its series too)."""
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            now = registry.time.now()
            match.status = ABORTED
            series = registry.series_of(match)
            async with registry.commit(match):
                await registry.store.update_match(match, now)
                await registry.store.log_action(match.id, "abort", by.id, "aborted", now)
                if series is not None:
                    series.status = ABORTED
                    await registry.store.update_series(series)
            registry.finish(match)
            notice = Notice(NoticeKind.ABORTED, match, (posts.aborted_line(by, match),), by, series)
        await registry.notify([notice])
        return notice

    async def undo(self, match_id: int, by: Player) -> Notice:
        """Take back the last move still standing; that player moves again, with the reserve it spent back.

        Against the computer it takes back the last move of a person and every computer move after it, so
        that person is to move again (taking back only the computer's reply would just let it play again).
        The log keeps the moves and records each undo after them, so nothing is ever lost; the state is
        rebuilt from the seed and the moves still standing (engines are deterministic).
        """
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            standing = await registry.store.moves(match.id)
            if not standing:
                raise ServiceError(_("Match #{number} has no move to undo.").format(number=match.id))
            cut = len(standing) - 1
            while cut >= 0 and match.players[standing[cut].seat].is_computer:
                cut -= 1
            if cut < 0:
                raise ServiceError(
                    _("Match #{number} has no move by a person to take back: only the computer moved.").format(
                        number=match.id
                    )
                )
            taken = await self.take_back(match, standing, cut, by)
            notice = Notice(NoticeKind.UNDONE, match, (posts.taken_back(by, match, taken, registry.game(match)),), by)
        await registry.notify([notice])
        return notice

    async def take_back(
        self,
        match: Match,
        standing: list[MoveRecord],
        cut: int,
        by: Player,
        kind: str = "undo",
        also: Callable[[], Awaitable[None]] | None = None,
    ) -> list[MoveRecord]:
        """Take back `standing[cut:]`, the last lines still standing, in one transaction (call with the match's
        lock held): an undo line by `by` for each, newest first, each with an action-log line of `kind` (undo;
        `takeback` for a takeback by agreement, bot/service/takebacks.py), and `also` written with them. The
        reserve each move spent beyond its allowance is refunded and the turn they interrupt is charged to
        nobody: the next turn starts with its board post. In a game with chance the position gets a fresh
        secret seed (a `reseed` line, bot/move_log.py), so playing the same move again cannot show the dice
        or the card it showed. Returns the lines taken back."""
        registry = self.registry
        taken = standing[cut:]
        game = registry.game(match)
        log = await registry.store.log(match.id)
        state = move_log.positions(game, len(match.players), match.seed, match.options, log)[cut]
        now = registry.time.now()
        lines = [
            MoveRecord(match.ply + number, record.seat, record.move, now, None, move_log.UNDO, by.id)
            for number, record in enumerate(reversed(taken), start=1)
        ]
        if game.chance:
            seed = registry.seeds()
            state = game.reseed(state, seed)
            seat = game.to_move(state)  # whose turn the fresh chance waits for
            assert seat is not None  # a position a move was played on: someone was to move
            lines.append(MoveRecord(match.ply + len(lines) + 1, seat, str(seed), now, None, move_log.RESEED, by.id))
        clock = match.clock
        if clock is not None:
            for record in taken:
                clock = clock.add_time(record.seat, max(0.0, (record.took or 0.0) - clock.settings.move_seconds))
            clock = clock.new_turn(game.to_move(state))
        async with registry.commit(match):
            for line in lines:
                await registry.store.append_move(match.id, line)
                if line.kind == move_log.UNDO:
                    await registry.store.log_action(match.id, kind, by.id, f"undid {line.move}", now)
            match.state, match.ply, match.clock = state, match.ply + len(lines), clock
            await registry.store.update_match(match, now)
            if also is not None:
                await also()
        return taken

    async def adjudicate(self, match_id: int, by: Player, winner_id: str | None) -> Notice:
        """A moderator decides the game: `winner_id` wins, or None for a draw. A series carries on."""
        registry = self.registry
        pending = Pending()
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            if winner_id is None:
                winners: frozenset[int] = frozenset()
            else:
                seats = match.seats_of(winner_id)
                if not seats:
                    raise NotInMatch(_("That player is not in match #{number}.").format(number=match.id))
                winners = frozenset(seats)
            reason = posts.end_reason(Termination.ADJUDICATION, by.name)
            await self.ending.end(match, winners, reason, Termination.ADJUDICATION, by.id, pending)
        await registry.notify(pending.notices)
        return pending.told
