"""Claims: in an untimed game, once the player to move has not moved for CLAIM_AFTER, any opponent still in
the game may claim. A house rule of the bot, not of any game (no clock means nobody would ever lose on time).

With two players the claimer wins (`Termination.CLAIM`, reason "bob claimed the win: alice did not move for
7 days"). With three or more the idle player is out, as a flag puts a seat out: in a game whose seats can
leave (Volcano) the others play on (a `resign` line of the move log whose move is `move_log.CLAIMED`, by the
claimer); in any other the game ends and the others share the win. Either way a moderator is told: the
claim is logged in the action log (kind `claim`) in the same transaction, and the post says so.

The wait counts from when the turn began: the newest line of the move log (a move, an undo, a resignation),
or the start of the game. Refused: in a clocked game (its clock decides), while a moderator pauses the match
or its board is on hold, by the player to move, by someone who has left, against a player who is away
(bot/service/away.py), and before the wait is over (saying exactly how long is left).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot import i18n, posts
from bot.errors import MatchPaused, ServiceError
from bot.games import Termination
from bot.i18n import _
from bot.models import MoveRecord, Notice
from bot.move_log import CLAIMED, RESIGN
from bot.service.ending import Ending
from bot.service.registry import Pending, Registry

CLAIM_AFTER = 7 * 86_400.0
"""Seconds the player to move of an untimed game may go without moving before an opponent may claim: 7 days,
unless the server sets another wait (its `claim_after` setting: bot/service/settings.py; `Claims.after` is
what the service reads)."""


def _not_away(player_id: str, guild_id: int | None) -> float | None:
    return None


def _claim_after(guild_id: int | None) -> float:
    return CLAIM_AFTER


class Claims:
    def __init__(
        self,
        registry: Registry,
        ending: Ending,
        away_until: Callable[[str, int | None], float | None] = _not_away,
        after: Callable[[int | None], float] = _claim_after,
    ) -> None:
        self.registry = registry
        self.ending = ending
        self.away_until = away_until  # when a player's away time on a server ends (None: not away)
        self.after = after  # a server's wait before a claim (its setting)

    async def claim(self, match_id: int, by_id: str) -> Notice:
        """`by_id` claims the game (two players) or that the player to move is out (three or more)."""
        registry = self.registry
        pending = Pending()
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            seats = registry.seats_or_refuse(match, by_id)
            if match.paused:
                raise MatchPaused(
                    _("Match #{number} is paused by a moderator: nothing can be claimed while it is.").format(
                        number=match.id
                    )
                )
            if match.held is not None:
                raise MatchPaused(
                    _(
                        "Match #{number} is on hold (the bot could not post its board): nothing can be claimed until"
                        " its board is posted."
                    ).format(number=match.id)
                )
            if match.clock is not None:
                raise ServiceError(
                    _(
                        "Match #{number} has a clock: a player who does not move runs out of time, so there is"
                        " nothing to claim."
                    ).format(number=match.id)
                )
            playing = self.ending.seats_in(match)
            mine = [s for s in seats if s in playing]
            if not mine:
                raise ServiceError(
                    _("You have left match #{number}: only a player still in it may claim.").format(number=match.id)
                )
            game = registry.game(match)
            seat = game.to_move(match.state)
            assert seat is not None  # a running game has a seat to move
            if seat in seats:
                raise ServiceError(_("It is your turn: move instead of claiming."))
            idle, claimer = match.players[seat], match.players[mine[0]]
            now = registry.time.now()
            away = self.away_until(idle.id, match.place.guild_id)
            if away is not None and away > now:
                raise ServiceError(
                    _("{name} is away for {wait} more: nobody can claim against a player who is away.").format(
                        name=idle.name, wait=i18n.duration(away - now)
                    )
                )
            began = await registry.store.last_line_at(match.id)
            waited = now - (match.created_at if began is None else began)
            after = self.after(match.place.guild_id)
            if waited < after:
                raise ServiceError(posts.claim_refusal(idle, waited, after))
            if self.ending.seat_leaves(match):
                line = posts.claimed_out_line(claimer, idle, after)
                record = MoveRecord(match.ply + 1, seat, CLAIMED, now, None, RESIGN, by_id)
                state = game.resign(match.state, seat)
                notice = await self.ending.advance(match, record, state, None, pending, ("claim", by_id, line))
                pending.main = replace(notice, lines=(line, *notice.lines[1:], posts.claim_told(match)))
            else:
                winners = frozenset(s for s in range(len(match.players)) if s != seat)
                reason = posts.claim_reason(claimer, idle, after, len(match.players))
                await self.ending.end(match, winners, reason, Termination.CLAIM, by_id, pending)
                over = pending.told
                pending.main = replace(over, lines=(over.lines[0], posts.claim_told(match), *over.lines[1:]))
        await registry.notify(pending.notices)
        return pending.told
