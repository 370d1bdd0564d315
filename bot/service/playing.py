"""A turn, as players and front-ends drive it: the board is posted (the mover's clock starts then, at most
once a turn, or a match held because no board could be posted goes on: bot/service/holds.py); the player
to move moves, or anyone resigns.

A move is checked in this order, each refusal changing nothing: the player is in the match, the board they
saw is the current one (`ply`), it is their turn, the match is not paused or held, their time is not up
(a move sent before the flag counts, by its own timestamp), and the engine accepts it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot import posts
from bot.errors import MatchPaused, NotYourTurn, ServiceError, StaleBoard, TimeUp
from bot.games import IllegalMove, Termination
from bot.i18n import _
from bot.models import POSTING, Match, MoveRecord, Notice
from bot.move_log import RESIGN
from bot.service.ending import Ending
from bot.service.flags import Flags
from bot.service.holds import Holds
from bot.service.registry import Pending, Registry
from bot.service.reminding import Reminding

log = logging.getLogger(__name__)


class Playing:
    def __init__(self, registry: Registry, ending: Ending, flags: Flags, reminding: Reminding, holds: Holds) -> None:
        self.registry = registry
        self.ending = ending
        self.flags = flags
        self.reminding = reminding
        self.holds = holds

    async def move(
        self, match_id: int, player_id: str, text: str, *, ply: int | None = None, at: float | None = None
    ) -> Notice:
        """Play `text` for `player_id` in a match; `ply` is the ply the player saw (None: don't check).

        `at` is when the player sent the move (a Discord interaction's timestamp); default now.
        Refusals raise ServiceError or IllegalMove and change nothing. The move's trip through the pipeline is
        measured from here to its board's post (`board_posted`), which the notices below lead to.
        """
        metrics = self.registry.metrics
        began = metrics.now()
        pending = Pending()
        try:
            async with self.registry.lock(match_id):
                notice = await self._move_locked(match_id, player_id, text, ply, at, pending)
            metrics.move_accepted(notice.match.game, match_id, notice.match.ply, began)
            return notice
        finally:
            await self.registry.notify(pending.notices)

    async def _move_locked(
        self, match_id: int, player_id: str, text: str, ply: int | None, at: float | None, pending: Pending
    ) -> Notice:
        match = await self.registry.running_or_refuse(match_id)
        game, seat = self._turn_or_refuse(match, player_id, ply)
        now = self.registry.time.now()
        sent = now if at is None else min(at, now)
        if match.clock is not None and match.clock.flagged(sent):
            await self.flags.flag(match, pending)
            if match.running:  # a game that goes on without the seat (see Flags.flag)
                raise TimeUp(
                    _("Too late: your reserve time ran out, so you are out of match #{number}.").format(number=match.id)
                )
            raise TimeUp(
                _("Too late: your reserve time ran out and match #{number} is lost on time.").format(number=match.id)
            )
        move = game.parse(match.state, text)  # raises IllegalMove; nothing is changed
        state = game.play(match.state, move)  # a move parsed here is not computed again
        canonical = game.notation(move)
        took = None
        clock = match.clock
        if clock is not None:
            clock, took = clock.after_move(sent, game.to_move(state))
        record = MoveRecord(match.ply + 1, seat, canonical, sent, took)
        return await self.ending.advance(match, record, state, clock, pending)

    async def check(self, match_id: int, player_id: str, text: str, ply: int | None = None) -> None:
        """Raise what `move` would refuse now (but a flag, which `move` decides when it plays), changing
        nothing: a click is checked before it is acknowledged, so its refusal is its private answer."""
        match = await self.registry.running_or_refuse(match_id)
        game, _ = self._turn_or_refuse(match, player_id, ply)
        game.parse(match.state, text)

    def _turn_or_refuse(self, match: Match, player_id: str, ply: int | None) -> tuple[Any, int]:
        """The game and the seat to move, if `player_id` may move now on the board of `ply`."""
        game = self.registry.game(match)
        seats = self.registry.seats_or_refuse(match, player_id)
        if ply is not None and ply != match.ply:
            raise StaleBoard(_("The board has changed since you looked: look at the new board and try again."))
        seat = game.to_move(match.state)
        if seat not in seats:
            assert seat is not None
            raise NotYourTurn(_("It is {name}'s turn, not yours.").format(name=match.players[seat].name))
        if match.paused:
            raise MatchPaused(
                _("Match #{number} is paused by a moderator; wait until it is resumed.").format(number=match.id)
            )
        if match.held is not None:
            raise MatchPaused(match.held.refusal(match.id))
        return game, seat

    async def resign(self, match_id: int, player_id: str) -> Notice:
        """Leave a match. In a game whose seats can leave (several players), the others play on and
        the resignation is a line of the move log; otherwise the match ends and the others win."""
        registry = self.registry
        pending = Pending()
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            seats = registry.seats_or_refuse(match, player_id)
            game = registry.game(match)
            if self.ending.seat_leaves(match):
                try:
                    state = game.resign(match.state, seats[0])
                except IllegalMove:  # the match runs, so the seat has left already
                    raise ServiceError(
                        _("You have already resigned from match #{number}.").format(number=match.id)
                    ) from None
                clock = match.clock
                if clock is not None and clock.seat != game.to_move(state):
                    clock = clock.new_turn(game.to_move(state))  # the resigner's turn is charged to nobody
                record = MoveRecord(match.ply + 1, seats[0], RESIGN, registry.time.now(), None, RESIGN, player_id)
                await self.ending.advance(match, record, state, clock, pending)
            else:
                loser = match.players[seats[0]]
                winners = frozenset(s for s in range(len(match.players)) if s not in seats)
                reason = posts.end_reason(Termination.RESIGNATION, loser.name)
                await self.ending.end(match, winners, reason, Termination.RESIGNATION, player_id, pending)
        await registry.notify(pending.notices)
        return pending.told

    async def board_posted(
        self, match_id: int, ply: int, at: float | None = None, message: tuple[int, int] | None = None
    ) -> tuple[int, int] | None:
        """The front-end posted the board for `ply`: the mover's clock starts now (at most once a turn).

        `message` is the post's (channel id, message id); the previous board post is returned so the
        front-end can take its buttons away. Reports for an older ply are ignored. A match held because no
        board could be posted goes on (bot/service/holds.py); one held because the gateway is down keeps
        waiting for it, with this board remembered.
        """
        registry = self.registry
        async with registry.lock(match_id):
            match = registry.running_match(match_id)
            if match is None or match.ply != ply or not match.running:
                return None
            previous = match.board
            replaced = previous if message is not None and previous != message else None
            now = registry.time.now()
            began = now if at is None else at
            if match.held is not None:
                if match.held.cause == POSTING:
                    await self.holds.release_locked([match], began, message, "the board is posted again")
                elif replaced is not None:  # up, but nobody can reach the bot to move: the clock waits
                    async with registry.commit(match):
                        match.board, match.board_ply = message, ply
                        await registry.store.update_match(match, now)
                return replaced
            clock = match.clock.posted(began) if match.clock else None
            started = clock != match.clock  # the turn's clock starts
            unplanned = self.reminding.unplanned(match)  # an untimed turn's first post
            if not started and (message is None or message == previous) and not unplanned:
                return None
            async with registry.commit(match):
                match.clock = clock
                if message is not None:
                    match.board, match.board_ply = message, ply
                await registry.store.update_match(match, now)
                planned = await self.reminding.plan(match, began) if started or unplanned else None
            self.flags.arm(match)
            self.reminding.arm(match, planned)
            return replaced

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        """Remember where a front-end posts a match: the thread it opened, or None for the channel itself
        (persisted: it is found again after a restart). The games a death match starts next go there too."""
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            series = registry.series_of(match)
            async with registry.commit(match):
                match.place = replace(match.place, thread_id=thread_id)
                await registry.store.update_match(match, registry.time.now())
                if series is not None and series.place.thread_id != thread_id:
                    series.place = replace(series.place, thread_id=thread_id)
                    await registry.store.update_series(series)
