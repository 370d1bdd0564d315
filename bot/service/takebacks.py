"""Takebacks by agreement: a player of a casual game asks to take back their last move and every line after
it, and the other people still in the game answer with Accept or Decline.

- Who may ask: a player still in a running casual game (a death match's games have none), with a move of
  theirs standing and nobody having left the game since it (that only a moderator's undo brings back); one
  request at a time per match, and not again on a position where the others declined it.
- Who answers: every other person still in the game. A computer player has no say, so a game whose only
  other players are computers takes the moves back at once (such games are not rated).
- Where the answers live: the `takebacks` table (store migration 10) keeps each request with its ply, the
  requester's seat, when it expires, the ids of those who accepted so far and how it stands, written in
  the transaction of each answer; a restart between the request and its answers loses nothing. The
  buttons carry the match, the ply, the requester's seat and the expiry in their custom_id.
- It closes when the last of those asked accepts (the lines are taken back by the moderator's undo,
  `Moderation.take_back`: an undo line each in the log, the reserve they spent refunded, the interrupted
  turn charged to nobody, the board posted again), when one declines, when it expires (after the move
  allowance of a clocked game, else TAKEBACK_WINDOW; a deadline on the flags' scheduler, armed again after
  a restart), or when the position changes first (any new line of the log, or the end of the game: heard
  from the service's own notices, before any front-end, so the request's post closes before the board).
"""

from __future__ import annotations

from dataclasses import replace

from bot import i18n, posts
from bot.errors import ServiceError
from bot.i18n import _
from bot.models import (
    DECLINED,
    EXPIRED,
    LAPSED,
    TAKEBACK_OPEN,
    TAKEN_BACK,
    Match,
    MoveRecord,
    Notice,
    NoticeKind,
    Player,
    Takeback,
)
from bot.move_log import RESIGN
from bot.service.ending import Ending
from bot.service.flags import Flags
from bot.service.moderation import Moderation
from bot.service.registry import Registry
from bot.wording import listing

TAKEBACK_WINDOW = 600.0
"""Seconds a takeback request waits for its answers in a game without a clock (with one: the move allowance)."""


def last_move(standing: list[MoveRecord], seat: int) -> int | None:
    """The index in `standing` of the seat's last move (not a resignation), or None if it has none."""
    mine = (i for i in range(len(standing) - 1, -1, -1) if standing[i].seat == seat and standing[i].kind == "move")
    return next(mine, None)


class Takebacks:
    """The open requests (one per match at most, a cache of the store's), their answers and their ends."""

    def __init__(self, registry: Registry, ending: Ending, flags: Flags, moderation: Moderation) -> None:
        self.registry = registry
        self.ending = ending
        self.flags = flags
        self.moderation = moderation
        self._open: dict[int, Takeback] = {}

    async def start(self) -> None:
        """After a restart: the open requests again, each with its deadline (one past due closes at once)."""
        for takeback in await self.registry.store.takebacks(status=TAKEBACK_OPEN):
            if self.registry.running_match(takeback.match_id) is None or takeback.match_id in self._open:
                continue  # another process's match (or armed already, when a shard is taken over)
            self._open[takeback.match_id] = takeback
            self._arm(takeback)

    def _arm(self, takeback: Takeback) -> None:
        self.flags.scheduler.call_at(takeback.expires_at, lambda: self.expire_if_due(takeback.match_id, takeback.id))

    # --- reading ---

    def open_request(self, match_id: int) -> Takeback | None:
        """The match's open takeback request, if any."""
        return self._open.get(match_id)

    def asked(self, match: Match, takeback: Takeback) -> list[Player]:
        """Who answers a request: every person still in the game but its requester, by seat."""
        seats = self.ending.seats_in(match)
        return [match.players[s] for s in seats if s != takeback.seat and not match.players[s].is_computer]

    def waiting(self, match: Match, takeback: Takeback) -> list[Player]:
        """Those asked who have not accepted yet."""
        return [p for p in self.asked(match, takeback) if p.id not in takeback.accepted]

    # --- asking and answering ---

    async def request(self, match_id: int, by_id: str) -> Notice:
        """`by_id` asks to take back their last move and every line after it; refused in words when they may
        not. Returns the request's notice, or, with only computers to ask, the undone notice."""
        registry = self.registry
        notices: list[Notice] = []
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            seats = registry.seats_or_refuse(match, by_id)
            if match.series_id is not None:
                raise ServiceError(
                    _(
                        "Match #{number} is a game of a death match: takebacks are for casual games only"
                        " (a moderator can take back a mistake)."
                    ).format(number=match.id)
                )
            playing = [s for s in seats if s in self.ending.seats_in(match)]
            if not playing:
                raise ServiceError(
                    _("You have left match #{number}: there is nothing for you to take back.").format(number=match.id)
                )
            seat = playing[0]
            now = registry.time.now()
            current = self._open.get(match.id)
            if current is not None and self._live(current, match, now):
                left = i18n.duration(current.expires_at - now)
                raise ServiceError(
                    _(
                        "{name}'s takeback request in match #{number} is waiting for its answers already"
                        " (for {wait} more)."
                    ).format(name=match.players[current.seat].name, number=match.id, wait=left)
                )
            declined = await registry.store.takebacks(match.id, DECLINED)
            if any(t.ply == match.ply and t.seat == seat for t in declined):
                raise ServiceError(_("Your takeback was declined on this position: ask again after the next move."))
            standing = await registry.store.moves(match.id)
            cut = last_move(standing, seat)
            if cut is None:
                raise ServiceError(
                    _("You have no move standing in match #{number} to take back.").format(number=match.id)
                )
            gone = next((r for r in standing[cut:] if r.kind == RESIGN), None)
            if gone is not None:
                raise ServiceError(
                    _("{name} has left the game since your move: only a moderator can take that back.").format(
                        name=match.players[gone.seat].name
                    )
                )
            if current is not None:  # expired or lapsed, and its deadline or notice not heard yet
                notices.append(await self._close_stale(match, current, now))
            game = registry.game(match)
            requester = match.players[seat]
            what = posts.taken_words(match, standing[cut:], game, own=seat)
            window = match.clock.settings.move_seconds if match.clock is not None else TAKEBACK_WINDOW
            takeback = Takeback(0, match.id, match.ply, seat, by_id, now, now + window)
            asked = self.asked(match, takeback)
            if not asked:  # only computers besides: they have no say
                await self.moderation.take_back(match, standing, cut, requester, "takeback")
                notices.append(Notice(NoticeKind.UNDONE, match, (posts.takeback_at_once(requester, what),), requester))
            else:
                async with registry.commit(match):
                    takeback = replace(takeback, id=await registry.store.insert_takeback(takeback))
                self._open[match.id] = takeback
                self._arm(takeback)
                line = posts.takeback_asked(requester, asked, what, window)
                notices.append(Notice(NoticeKind.TAKEBACK, match, (line,), requester, takeback=takeback))
        await registry.notify(notices)
        return notices[-1]

    async def answer(
        self, match_id: int, by_id: str, accept: bool, ply: int | None = None, seat: int | None = None
    ) -> Notice:
        """One of those asked accepts or declines the open request (`ply` and `seat`: the ply and requester
        its buttons name, None: don't check). The last acceptance takes the moves back; a decline closes it."""
        registry = self.registry
        async with registry.lock(match_id):
            match = await registry.running_or_refuse(match_id)
            seats = registry.seats_or_refuse(match, by_id)
            takeback = self._open.get(match.id)
            if takeback is None or ply not in (None, takeback.ply) or seat not in (None, takeback.seat):
                named = [t for t in await registry.store.takebacks(match.id) if t.ply == ply and seat in (None, t.seat)]
                if named:  # the buttons of a request that has closed, still shown somewhere
                    raise ServiceError(posts.takeback_closed_refusal(named[-1].status))
                raise ServiceError(
                    _("No takeback request is waiting for an answer in match #{number}.").format(number=match.id)
                )
            if takeback.seat in seats:
                raise ServiceError(_("You asked for this takeback: the others answer it."))
            if match.ply != takeback.ply:
                raise ServiceError(_("This takeback request has lapsed: the position changed."))
            if registry.time.now() >= takeback.expires_at:
                raise ServiceError(_("This takeback request has expired."))
            me = match.players[seats[0]]
            asked = self.asked(match, takeback)
            if me not in asked:
                raise ServiceError(
                    _("You have left match #{number}: the others answer this takeback.").format(number=match.id)
                )
            requester = match.players[takeback.seat]
            if by_id in takeback.accepted:
                waiting = listing([p.name for p in self.waiting(match, takeback)])
                raise ServiceError(
                    _("You have accepted this takeback already; it waits for {names}.").format(names=waiting)
                )
            if not accept:
                notice = await self._close(match, takeback, DECLINED, posts.takeback_declined(me, requester), me)
            else:
                notice = await self._accept(match, replace(takeback, accepted=(*takeback.accepted, by_id)), me)
        await registry.notify([notice])
        return notice

    async def _accept(self, match: Match, takeback: Takeback, by: Player) -> Notice:
        registry = self.registry
        requester = match.players[takeback.seat]
        waiting = self.waiting(match, takeback)
        if waiting:
            async with registry.commit(match):
                await registry.store.update_takeback(takeback)
            self._open[match.id] = takeback
            line = posts.takeback_accepted(by, requester, waiting)
            return Notice(NoticeKind.TAKEBACK_ACCEPTED, match, (line,), by, takeback=takeback)
        done = replace(takeback, status=TAKEN_BACK)
        standing = await registry.store.moves(match.id)
        cut = last_move(standing, takeback.seat)  # as when asked: the ply has not moved since
        assert cut is not None
        what = posts.taken_words(match, standing[cut:], registry.game(match), own=takeback.seat)
        await self.moderation.take_back(
            match, standing, cut, requester, "takeback", lambda: registry.store.update_takeback(done)
        )
        del self._open[match.id]
        several = len(self.asked(match, takeback)) > 1
        return Notice(
            NoticeKind.UNDONE, match, (posts.takeback_agreed(by, requester, what, several),), by, takeback=done
        )

    async def posted(self, match_id: int, takeback_id: int, message: tuple[int, int]) -> bool:
        """The request is posted as `message` (channel, message): stored, so its buttons go when it closes.
        False if it closed meanwhile: the front-end takes them away at once."""
        registry = self.registry
        async with registry.lock(match_id):
            takeback = self._open.get(match_id)
            if takeback is None or takeback.id != takeback_id:
                return False
            takeback = replace(takeback, message=message)
            async with registry.store.transaction():
                running = registry.running_match(match_id)
                await registry.ownership.fence(running.place.guild_id if running else None)
                await registry.store.update_takeback(takeback)
            self._open[match_id] = takeback
            return True

    # --- closing by itself ---

    async def expire_if_due(self, match_id: int, takeback_id: int) -> None:
        """The request's deadline (the flags' scheduler calls this): it expires, unless it closed already."""
        registry = self.registry
        async with registry.lock(match_id):
            takeback = self._open.get(match_id)
            if takeback is None:  # it closed before its deadline
                return
            if takeback.id != takeback_id:  # another request's deadline (an earlier one's, which closed)
                return
            now = registry.time.now()
            if now < takeback.expires_at:  # never so on the scheduler's own call, which comes on time
                return
            notice = await self._close_stale(await registry.get(match_id), takeback, now)
        await registry.notify([notice])

    async def on_notice(self, notice: Notice) -> None:
        """Every notice, before any front-end's: a request whose position changed (a move, an undo, the end of
        the game) lapses, so its post closes before the next board is posted."""
        if notice.match.id not in self._open:  # nearly always: no request is open
            return
        registry = self.registry
        async with registry.lock(notice.match.id):
            takeback = self._open.get(notice.match.id)
            if takeback is None:  # it closed while this waited for the lock
                return
            match = await registry.get(notice.match.id)
            if match.running and match.ply == takeback.ply:  # the request's own notices, a clock's
                return
            closed = await self._close_stale(match, takeback, registry.time.now())
        await registry.notify([closed])

    def _live(self, takeback: Takeback, match: Match, now: float) -> bool:
        return match.running and match.ply == takeback.ply and now < takeback.expires_at

    async def _close_stale(self, match: Match, takeback: Takeback, now: float) -> Notice:
        """Close a request that can no longer be answered: lapsed (the position changed, or the game ended),
        else expired (call only once it is past its deadline or lapsed)."""
        requester = match.players[takeback.seat]
        if not match.running or match.ply != takeback.ply:
            return await self._close(match, takeback, LAPSED, posts.takeback_lapsed(requester, not match.running))
        window = takeback.expires_at - takeback.asked_at
        with posts.publicly(match.place.guild_id):  # a timer's: no reader of its own
            line = posts.takeback_expired(requester, self.waiting(match, takeback), window)
        return await self._close(match, takeback, EXPIRED, line)

    async def _close(
        self, match: Match, takeback: Takeback, status: str, line: str, by: Player | None = None
    ) -> Notice:
        closed = replace(takeback, status=status)
        async with self.registry.commit(match):
            await self.registry.store.update_takeback(closed)
        self._open.pop(match.id, None)
        return Notice(NoticeKind.TAKEBACK_CLOSED, match, (line,), by, takeback=closed)
