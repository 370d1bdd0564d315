"""Holds: a match waits, its clock stopped and charged to nobody, because nobody can play it.

One idea for two causes (`bot.models.Hold`): no board of it could be posted anywhere (POSTING: Discord
refused every place, or answered 5xx), or Discord's gateway is down for its shard (GATEWAY: no interaction
reaches the bot, so nobody can move). While held a match refuses moves in words (`Hold.refusal`), its flag
timer finds no running clock and waits, and its reminders are passed over. `release` ends a hold: the turn
goes on from where it stopped, its flag and reminders armed again. A POSTING hold ends with the next board
post that succeeds (`Playing.board_posted`), a GATEWAY hold when the shard's gateway is back
(`MatchService.gateway_up`); a board posted while the gateway is down leaves the match held.

A shard's matches are held and released together, under their locks (taken in id order, as every holder
of several match locks takes them) and in one transaction, so a gateway outage costs two commits however
many matches the shard runs.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from bot.models import Hold, Match
from bot.service.flags import Flags
from bot.service.registry import Registry
from bot.service.reminding import Planned, Reminding

log = logging.getLogger(__name__)


class Holds:
    def __init__(self, registry: Registry, flags: Flags, reminding: Reminding) -> None:
        self.registry = registry
        self.flags = flags
        self.reminding = reminding

    async def hold(self, match_id: int, hold: Hold) -> None:
        """Hold one match (its board could not be posted anywhere)."""
        async with self.registry.lock(match_id):
            match = self.registry.running_match(match_id)
            if match is not None:
                await self.hold_locked([match], hold)

    async def hold_where(self, which: Callable[[Match], bool], hold: Hold) -> list[Match]:
        """Hold every running match `which` picks that is not held already (a shard's, its gateway down);
        returns those now held."""
        async with self._locked(which) as matches:
            return await self.hold_locked([m for m in matches if m.held is None], hold)

    async def release_where(self, which: Callable[[Match], bool], cause: str, at: float) -> list[tuple[Match, Hold]]:
        """End the holds of `cause` on the matches `which` picks, at `at`; returns each match released with
        the hold it was under."""
        async with self._locked(which) as matches:
            held = [(m, m.held) for m in matches if m.held is not None and m.held.cause == cause]
            await self.release_locked([m for m, _ in held], at)
            return held

    @contextlib.asynccontextmanager
    async def _locked(self, which: Callable[[Match], bool]) -> AsyncIterator[list[Match]]:
        """The running matches `which` picks, their locks held."""
        registry = self.registry
        ids = sorted(m.id for m in registry.running() if which(m))
        async with contextlib.AsyncExitStack() as locks:
            for match_id in ids:
                await locks.enter_async_context(registry.lock(match_id))
            yield [m for match_id in ids if (m := registry.running_match(match_id)) is not None]

    async def hold_locked(self, matches: list[Match], hold: Hold) -> list[Match]:
        """Hold these matches (their locks held): each clock stops where it stood at `hold.since`."""
        registry = self.registry
        matches = [m for m in matches if m.held is None]
        if not matches:
            return []
        clocks = {m.id: m.clock.unposted(hold.since) if m.clock else None for m in matches}  # charged to nobody
        async with registry.store.transaction():
            for match in matches:
                await registry.ownership.fence(match.place.guild_id)
                clock = clocks[match.id]
                if clock is not None and clock != match.clock:
                    await registry.store.update_clock(match.id, clock)
                await registry.store.log_action(match.id, "hold", None, hold.reason, hold.since)
        for match in matches:  # committed: memory follows
            match.clock, match.held = clocks[match.id], hold
        for match in matches:
            log.warning("match %s: on hold, charged to nobody (%s)", match.id, hold.reason)
        return matches

    async def release_locked(
        self, matches: list[Match], at: float, board: tuple[int, int] | None = None, note: str = "released"
    ) -> None:
        """End these matches' holds (their locks held) at `at`: each turn goes on from where it stopped, its
        flag and reminders armed again. `board` is the post that ended a POSTING hold (one match)."""
        registry = self.registry
        if not matches:
            return
        planned: dict[int, Planned | None] = {}
        try:
            async with registry.store.transaction():
                for match in matches:
                    await registry.ownership.fence(match.place.guild_id)
                    if match.clock is not None:
                        match.clock = match.clock.posted(at)
                    if board is not None:
                        match.board, match.board_ply = board, match.ply
                    await registry.store.update_match(match, at)
                    assert match.held is not None
                    await registry.store.log_action(match.id, "unhold", None, note, at)
                    started = match.clock is not None and match.clock.running
                    if started or self.reminding.unplanned(match):
                        planned[match.id] = await self.reminding.plan(match, at)
        except BaseException:
            for match in matches:
                await registry.reload(match)
            raise
        for match in matches:
            match.held = None
            self.flags.arm(match)
            self.reminding.arm(match, planned.get(match.id))
            if planned.get(match.id) is None:
                await self.reminding.rearm(match)  # reminders that came due meanwhile were held back
            log.info("match %s: goes on (%s)", match.id, note)
