"""How a game goes on and how it ends: one committed line of the move log at a time (`advance`), and the end
of a game, either by the rules (the engine's outcome after a line) or off the board (`end`: a flag, a
resignation, an adjudication, a claim, or only computers left), each said by the `Outcome.termination` it
carries.

Whichever way a game ends, the same transaction stores the result, its action-log line (off the board),
the rating change (bot/service/rating.py) and the series' score and next game (bot/service/series.py).
Callers hold the match's lock; the notices wait in `Pending` until the lock is released.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import move_log, posts
from bot.clock import MatchClock
from bot.games import Outcome, Termination, seat_leaves
from bot.models import OVER, Match, MoveRecord, Notice, NoticeKind
from bot.service.rating import Ratings
from bot.service.registry import Pending, Registry
from bot.service.series import DeathMatches

ACTIONS = {
    Termination.FLAG: "flag",
    Termination.RESIGNATION: "resign",
    Termination.ADJUDICATION: "adjudicate",
    Termination.ABANDONED: "computers",
    Termination.CLAIM: "claim",
}
"""The action-log kind of each way the service ends a game off the board (store migration 7 reads them back
for results stored before `Outcome.termination`)."""


class Ending:
    def __init__(self, registry: Registry, ratings: Ratings, series: DeathMatches) -> None:
        self.registry = registry
        self.ratings = ratings
        self.series = series

    async def advance(
        self,
        match: Match,
        record: MoveRecord,
        state: Any,
        clock: MatchClock | None,
        pending: Pending,
        action: tuple[str, str | None, str] | None = None,
    ) -> Notice:
        """Commit one line of the move log with the state it leads to; a game it ends is scored in the
        same transaction, and `action` (kind, by whom, detail), if given, is logged in it too (a claim
        that puts a seat out). When the line was the last person leaving, the game ends with it (ABANDONED)."""
        registry = self.registry
        game = registry.game(match)
        outcome = game.outcome(state)  # the engine's: Termination.RULES
        now = registry.time.now()
        async with registry.commit(match, pending):
            await registry.store.append_move(match.id, record)
            if action is not None:
                await registry.store.log_action(match.id, *action, now)
            match.state, match.ply, match.clock = state, match.ply + 1, clock
            if outcome is not None:
                match.status, match.result = OVER, outcome
                await registry.store.update_match(match, now)
                await self._after_game(match, pending)
            else:
                await registry.store.update_match(match, now)
        if outcome is not None:
            registry.finish(match)
        lines = (*posts.event_lines(match, game), *pending.rated) if outcome else posts.event_lines(match, game)
        kind = NoticeKind.OVER if outcome else NoticeKind.MOVED
        notice = pending.main = Notice(kind, match, lines, series=registry.series_of(match))
        if (
            outcome is None
            and record.kind == move_log.RESIGN
            and not any(not match.players[s].is_computer for s in self.seats_in(match))
        ):
            reason = posts.end_reason(Termination.ABANDONED)
            await self.end(match, self.leaders(match), reason, Termination.ABANDONED, None, pending)
            over = pending.told  # one post: the resignation, then the end
            notice = pending.main = replace(over, lines=(*notice.lines, *over.lines))
        return notice

    async def end(
        self,
        match: Match,
        winners: frozenset[int],
        reason: str,
        termination: Termination,
        by_id: str | None,
        pending: Pending,
    ) -> None:
        """End a running match off the board, `winners` winning (none: a draw, half each); `by_id` is who
        did it, for the action log (None: the bot itself)."""
        registry = self.registry
        now = registry.time.now()
        share = 1.0 if winners else 0.5  # a draw gives everyone half
        scores = tuple(share if (s in winners or not winners) else 0.0 for s in range(len(match.players)))
        match.status, match.result = OVER, Outcome(scores, winners, reason, termination)
        if match.clock is not None:
            match.clock, _ = match.clock.after_move(now, None)
        async with registry.commit(match, pending):
            await registry.store.update_match(match, now)
            await registry.store.log_action(match.id, ACTIONS[termination], by_id, reason, now)
            await self._after_game(match, pending)
        registry.finish(match)
        series = registry.series_of(match)
        pending.main = Notice(NoticeKind.OVER, match, (posts.ended_line(match), *pending.rated), series=series)

    def seats_in(self, match: Match) -> tuple[int, ...]:
        """The seats still playing: every seat, or where seats can leave, those that have not left."""
        return self.registry.game(match).seats_in(match.state)

    def seat_leaves(self, match: Match) -> bool:
        """Whether a seat that is out (resigned, flagged, claimed against) leaves while the others play on
        rather than losing the game: the one decision (`bot.games.seat_leaves`)."""
        return seat_leaves(self.registry.game(match), len(match.players))

    def leaders(self, match: Match) -> frozenset[int]:
        """RULING (ours): when the last person leaves, nobody is left to play for, so the game ends and the
        computers still in with the best score win (all of them when the game keeps no score)."""
        scores = self.registry.game(match).scores(match.state)
        still_in = self.seats_in(match)
        best = max((scores[s] for s in still_in), default=0) if scores else 0
        return frozenset(s for s in still_in if not scores or scores[s] == best)

    async def _after_game(self, match: Match, pending: Pending) -> None:
        """Inside the game-ending transaction: rate it, score the series and start its next game if any."""
        await self.ratings.rate(match, pending)
        await self.series.after_game(match, pending)
