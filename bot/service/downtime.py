"""Downtime: how the running matches go on after the bot was down (a restart, or a shard whose process died
taken over), and the heartbeat that says for how long it was down.

A match whose board is up as it stands (`Match.board_ply` is its ply) on a long clock (an hour a move or
more) or none goes on quietly: no repost, nobody pinged, its old board's buttons still work (they carry the
match and the ply), and its clock goes on from where it stood when the process last proved it was up
(`MatchClock.credited`): the time it was down is charged to nobody. Its flag and reminders are armed again
at once. Every other match (a live clock, under an hour a move, whose players are at the board; a board
never posted for this ply; or no heartbeat yet, the first start of this version) is posted again as
before: a fresh move allowance that starts with the post. Those come back soonest deadline first.

The heartbeat is one row per shard (`heartbeats`), written every HEARTBEAT_EVERY on the service's clock
and once more at a clean stop, for the shards whose matches this process has loaded (a shard taken over is
written only once its dead owner's last heartbeat has been read).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from bot.background import Repeating
from bot.models import Match
from bot.reminders import is_long
from bot.service.flags import Flags
from bot.service.registry import Registry
from bot.service.reminding import Planned, Reminding
from bot.shards import shard_of

log = logging.getLogger(__name__)

HEARTBEAT_EVERY = 10.0
"""Seconds between heartbeats: at most this much of a crash's downtime is charged to the player to move."""


def posts_again(match: Match, last_alive: float | None) -> bool:
    """Whether a restart posts this match's board again (else it goes on quietly, the downtime credited)."""
    if last_alive is None or match.board is None or match.board_ply != match.ply:
        return True  # no heartbeat to credit from, or the board of this turn never went up
    return match.clock is not None and not is_long(match.clock)


def soonest(match: Match) -> tuple[float, int]:
    """The order boards are posted again in (their clocks given a fresh allowance): the time to the flag
    each will have once posted, soonest first; clocks that will not run (paused, away, untimed) last."""
    clock = match.clock
    if clock is None or clock.seat is None or clock.paused or clock.seat in clock.away:
        return float("inf"), match.id
    return clock.settings.move_seconds + clock.reserves[clock.seat], match.id


class Downtime:
    def __init__(self, registry: Registry, flags: Flags, reminding: Reminding) -> None:
        self.registry = registry
        self.flags = flags
        self.reminding = reminding
        self.every = HEARTBEAT_EVERY
        self._shards: set[int] = set()
        """The shards whose matches this process has loaded: its heartbeat speaks for these."""
        self._beating = Repeating("heartbeat", self._until_next_beat, self.beat, failed="the heartbeat failed")

    def shard(self, match: Match) -> int:
        """The heartbeat a match's downtime is counted from: its shard's (shard 0 for a process owning all)."""
        scope = self.registry.ownership.scope()
        return 0 if scope is None else shard_of(match.place.guild_id, scope.count)

    async def resume(self, matches: list[Match]) -> list[Match]:
        """The matches just loaded go on (see the module docstring); returns those whose board is to be
        posted again, soonest deadline first. Call once reminders and away time are loaded."""
        registry = self.registry
        alive = await registry.store.last_alive()
        now = registry.time.now()
        again, quiet = [], []
        for match in matches:
            last = alive.get(self.shard(match))
            if posts_again(match, last):
                if match.clock is not None:
                    match.clock = match.clock.after_restart()
                again.append(match)
            else:
                assert last is not None
                if match.clock is not None:
                    match.clock = match.clock.credited(last, now)
                quiet.append(match)
        planned: dict[int, Planned | None] = {}
        async with registry.store.transaction():  # one commit for every clock, however many matches
            for match in matches:
                if match.clock is not None:
                    await registry.store.update_clock(match.id, match.clock)
            for match in quiet:
                if match.clock is not None and match.clock.running:
                    planned[match.id] = await self.reminding.plan(match, None)
        for match in quiet:
            self.flags.arm(match)
            self.reminding.arm(match, planned.get(match.id))
        scope = registry.ownership.scope()
        self._shards |= {0} if scope is None else set(scope.shards)
        await self.beat()
        if matches:
            log.info("after the downtime: %d boards to post again, %d going on quietly", len(again), len(quiet))
        return sorted(again, key=soonest)

    def drop_unowned(self) -> None:
        """Shards this process no longer holds: their heartbeat is their new holder's to write."""
        scope = self.registry.ownership.scope()
        if scope is not None:
            self._shards &= set(scope.shards)

    async def beat(self) -> None:
        """This process is up: say so for its shards (a failure is logged; the next beat tries again)."""
        if not self._shards:
            return
        try:
            await self.registry.store.beat(sorted(self._shards), self.registry.time.now())
        except Exception:
            log.exception("could not write the heartbeat")

    def start(self) -> None:
        self._beating.start()

    async def stop(self) -> None:
        """A clean stop: the last heartbeat is now, so the next start credits exactly the time it was down."""
        if self._beating.running:
            await self._beating.stop()  # a beat being written finishes first
            await self.beat()

    def _until_next_beat(self) -> Awaitable[None]:
        time = self.registry.time
        return time.sleep_until(time.now() + self.every)
