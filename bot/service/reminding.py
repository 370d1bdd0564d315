"""Reminders: the turn in progress's reminders (the policy is bot/reminders.py's), stored and armed like flags.

When a turn's clock starts (its board is posted; in an untimed game, the turn's first post) and when a
moderator pauses, resumes or adds time, the turn's reminders are computed and stored for (match, ply) in the
same transaction as the change, replacing every other turn's: a move, an undo or a takeback makes a new ply,
so what was stored for the old one is void, and a paused clock has none. Each is armed on the one deadline
scheduler (`FlagScheduler.call_at`); after a restart the unsent ones of untimed turns are armed again, and a
clocked turn, which the restart gives a fresh allowance, is planned again when its board is reposted.

When one is due, under the match's lock: it goes out only if the match still runs at that ply, is neither
paused nor held, its clock (if any) is running and a person is to move. It is then marked sent in a
transaction, which only one of two processes, timers or sweeps can win, and a `Notice(NoticeKind.REMINDER, ...)`
names that person (`Notice.to`). Several due at once (the bot was down) go out as one, the latest. A
reminder of a turn sent once is never stored again for that turn, however often it is planned again.

Each person chooses how they are reminded (`choose`: dm, thread or off; thread by default), once for every
server: `off` is passed over here, and the front-ends deliver the others. Nobody is reminded of a solitaire
game (nobody waits for it), for a computer, or while away (bot/service/away.py: a long clock stops then,
and an untimed game's reminder that falls due meanwhile is passed over).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from bot import posts
from bot.errors import ServiceError
from bot.i18n import _
from bot.models import Match, Notice, NoticeKind, Player
from bot.reminders import IDLE_EVERY, IDLE_REMINDERS, reminders
from bot.service.flags import Flags
from bot.service.registry import Registry

log = logging.getLogger(__name__)

DM, THREAD, OFF = "dm", "thread", "off"
MODES = (DM, THREAD, OFF)
DEFAULT_MODE = THREAD

Planned = list[tuple[str, int, float]]
"""Reminders stored for a turn and still to arm: (kind, number, due)."""


class Reminding:
    def __init__(
        self,
        registry: Registry,
        flags: Flags,
        *,
        away_until: Callable[[str, int | None], float | None] = lambda player_id, guild_id: None,
        idle: Callable[[int | None], tuple[float, int]] = lambda guild_id: (IDLE_EVERY, IDLE_REMINDERS),
    ) -> None:
        self.registry = registry
        self.flags = flags
        self._planned: dict[int, int] = {}
        """match id -> the ply whose reminders are stored (some of them maybe sent)."""
        self.away_until = away_until
        """When a player's away time on a server ends (None: not away); the facade gives away time's. A long
        clock stops while its player is away, so its reminders wait; an untimed game's are passed over."""
        self.idle = idle
        """A server's untimed reminders: the wait before each and how many at most (its settings, which the
        facade gives: bot/service/settings.py). A change applies to turns planned after it."""
        flags.other_sweeps.append(self.sweep)  # the safety net of its deadlines runs with the flags'

    async def start(self) -> None:
        """After a restart (the running matches loaded): arm what untimed turns still have to send. A clocked
        turn gets a fresh allowance (`MatchClock.after_restart`), so its reminders are planned again when its
        board is reposted."""
        for match_id, ply, _kind, _seat, due, sent in await self.registry.store.load_reminders():
            self._planned[match_id] = ply
            match = self.registry.running_match(match_id)
            if sent is None and match is not None and match.clock is None:
                self._arm(match_id, ply, due)

    def person_to_move(self, match: Match) -> Player | None:
        """Whom this turn keeps waiting: the person to move, if the game has others (nobody waits for a
        solitaire game) and it is not a computer."""
        if len(match.players) < 2:
            return None
        seat = self.registry.game(match).to_move(match.state)
        if seat is None:
            return None
        player = match.players[seat]
        return None if player.is_computer else player

    def unplanned(self, match: Match) -> bool:
        """An untimed turn whose reminders are not stored yet: its first board post plans them (later posts
        of the same turn, a restart's too, leave them as they are)."""
        if match.clock is not None or self._planned.get(match.id) == match.ply:
            return False
        return self.person_to_move(match) is not None

    async def plan(self, match: Match, began: float | None) -> Planned | None:
        """Store the reminders of the match's turn as it now stands (call inside the transaction that
        starts or changes its clock; `began` is when an untimed turn began). Returns what `arm` arms once
        that commits; None when nothing was stored."""
        idle = self.idle(match.place.guild_id)
        found = reminders(match.clock, began, *idle) if self.person_to_move(match) is not None else ()
        planned = self._planned.get(match.id)
        if not found and planned is None:
            return None  # nothing stored for this match, nothing to store
        rows = [(r.kind, r.number, r.when) for r in found]
        return await self.registry.store.replace_reminders(match.id, match.ply, rows, planned == match.ply)

    def arm(self, match: Match, planned: Planned | None) -> None:
        """After the commit of `plan`: the stored reminders go on the scheduler."""
        if planned is None:
            return
        self._planned[match.id] = match.ply
        for _kind, _seat, due in planned:
            self._arm(match.id, match.ply, due)

    async def rearm(self, match: Match) -> None:
        """Arm the turn's unsent reminders again (its board is posted again after a hold, during which any
        that came due were held back)."""
        for _kind, _seat, due in await self.registry.store.unsent_reminders(match.id, match.ply):
            self._arm(match.id, match.ply, due)

    def _arm(self, match_id: int, ply: int, due: float) -> None:
        self.flags.scheduler.call_at(due, partial(self.remind_if_due, match_id, ply))

    async def remind_if_due(self, match_id: int, ply: int) -> None:
        """A reminder of (match, ply) is due: send it if that turn still waits for its player."""
        registry = self.registry
        async with registry.lock(match_id):
            match = registry.running_match(match_id)
            if match is None:
                self._planned.pop(match_id, None)
                return
            if match.ply != ply or match.paused or match.held is not None:
                return
            if match.clock is not None and not match.clock.running:
                return  # its board is not posted yet (after a restart, after a hold)
            player = self.person_to_move(match)
            if player is None:
                return
            now = registry.time.now()
            if not await registry.store.unsent_reminders(match_id, ply, now):
                return  # sent already, or planned again for later
            async with registry.commit(match):
                claimed = await registry.store.claim_reminders(match_id, ply, now)
                mode, __ = await registry.store.notify_choice(player.id)
            if not claimed or mode == OFF or self.away_until(player.id, match.place.guild_id) is not None:
                return  # passed over: they chose no reminders, or they are away
            kind, number, due = claimed[-1]
            deadline = match.clock.deadline() if match.clock is not None else None
            every, __ = self.idle(match.place.guild_id)
            with posts.publicly(match.place.guild_id):  # the server's language, whoever armed the timer
                line = posts.reminder_line(kind, number, due, deadline, every)
            notice = Notice(NoticeKind.REMINDER, match, (line,), to=player)
        log.info("match %s: reminded %s (%s)", match_id, player.id, kind)
        await registry.notify([notice])

    async def sweep(self) -> None:
        """Send every reminder due and not sent (the safety net behind the scheduler)."""
        for match_id, ply in await self.registry.store.due_reminder_turns(self.registry.time.now()):
            match = self.registry.running_match(match_id)
            if match is not None and match.ply == ply:
                await self.remind_if_due(match_id, ply)

    # --- each person's choice ---

    async def mode(self, player_id: str) -> str:
        """How a person is reminded: dm, thread or off (thread until they choose)."""
        mode, __ = await self.registry.store.notify_choice(player_id)
        return mode or DEFAULT_MODE

    async def choose(self, player_id: str, mode: str) -> str:
        """A person chooses how they are reminded, in every server alike."""
        mode = mode.strip().lower()
        if mode not in MODES:
            raise ServiceError(
                _("Choose dm, thread or off (how reminders of your turn come), not {value}.").format(
                    value=repr(mode[:20])
                )
            )
        async with self.registry.store.transaction():
            await self.registry.store.set_notify_choice(player_id, mode)
        return mode

    async def last_dm(self, player_id: str) -> float | None:
        """When the last reminder DM went to this person (None: never)."""
        __, last = await self.registry.store.notify_choice(player_id)
        return last

    async def dm_sent(self, player_id: str, at: float) -> None:
        async with self.registry.store.transaction():
            await self.registry.store.set_last_dm(player_id, at)
