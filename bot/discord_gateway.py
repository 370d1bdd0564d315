"""Discord's gateway, watched: while a shard's connection is down nobody on its servers can reach the bot (no
interaction arrives), so that shard's matches are held, their clocks stopped and charged to nobody
(bot/service/holds.py), until it is back; then each live board (a clock under an hour a move) is told for how
long Discord was unreachable.

Down is what discord.py says (`on_disconnect`, `on_shard_disconnect`) until READY or RESUMED, and what the
watchdog sees: a connection whose last heartbeat ACK is older than STALE_BEATS heartbeat intervals is a
zombie (Discord stopped answering without closing it), down since that ACK, until ACKs come again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot import discord_limits as limits
from bot import posts
from bot.background import Repeating
from bot.clock import format_seconds
from bot.discord_reminders import Send
from bot.i18n import _
from bot.models import Match
from bot.reminders import is_long
from bot.service import MatchService

log = logging.getLogger(__name__)

STALE_BEATS = 3.0
"""Heartbeat intervals without an ACK after which a connection counts as down."""
WATCH_EVERY = 5.0
"""Seconds between the watchdog's looks at each shard's last ACK."""
EVENT, WATCHDOG = "event", "watchdog"


def outage_line(seconds: float) -> str:
    return _(
        "Discord was unreachable for {wait}, so nobody could move: the clocks were stopped meanwhile and that"
        " time counts for nobody. Play on."
    ).format(wait=format_seconds(seconds))


class GatewayWatch:
    """Which of the bot's shards are down (and who said so), holding and releasing their matches in order."""

    def __init__(self, bot: discord.Client, service: Callable[[], MatchService | None], send: Send) -> None:
        self.bot = bot
        self.service = service
        """The bot's service, None until it has started (or once it is closed)."""
        self.send = send
        self.down: dict[int, str] = {}
        """Shard -> who saw it go down (EVENT or WATCHDOG); an event's word outranks the watchdog's."""
        self._locks: dict[int, asyncio.Lock] = {}
        self.watch_every = WATCH_EVERY
        self._watching = Repeating(
            "gateway-watchdog",
            lambda: asyncio.sleep(self.watch_every),  # the heartbeats are timed by perf_counter, as discord.py's
            self.look,
            failed="the gateway watchdog failed",
        )

    def _lock(self, shard: int) -> asyncio.Lock:
        return self._locks.setdefault(shard, asyncio.Lock())

    @property
    def count(self) -> int:
        return self.bot.shard_count or 1

    async def lost(self, shard: int, by: str = EVENT, since: float | None = None) -> None:
        """The shard's gateway is down (`since`: on the service's clock, default now): hold its matches."""
        service = self.service()
        if self.bot.is_closed() or service is None:
            return  # closing: the heartbeat's last beat covers the time until the next start
        async with self._lock(shard):
            if shard in self.down:
                if by == EVENT:
                    self.down[shard] = EVENT
                return
            self.down[shard] = by
            held = await service.gateway_down(shard, self.count, since)
        log.warning("Discord's gateway is down for shard %d (%s): %d matches held", shard, by, len(held))

    async def back(self, shard: int, by: str = EVENT) -> None:
        """The shard's gateway is back (READY, RESUMED, or ACKs again): its matches go on; live boards say so."""
        service = self.service()
        if self.bot.is_closed() or service is None:
            return
        async with self._lock(shard):
            state = self.down.get(shard)
            if state is None or (by == WATCHDOG and state != WATCHDOG):
                return  # not down, or down by an event: only READY or RESUMED ends that
            del self.down[shard]
            released = await service.gateway_up(shard, self.count)
        log.warning("Discord's gateway is back for shard %d: %d matches go on", shard, len(released))
        live = [(m, s) for m, s in released if m.clock is not None and not is_long(m.clock) and m.running]
        for match, seconds in sorted(live, key=lambda pair: _deadline(pair[0])):
            await self._tell(service, match, seconds)

    async def _tell(self, service: MatchService, match: Match, seconds: float) -> None:
        """One short message in the match's place: the outage, and where the match stands now (no ping)."""
        with posts.publicly(match.place.guild_id):  # the whole server reads it
            text = limits.clip("\n".join([outage_line(seconds), *posts.status_lines(service, match, deadline=True)]))
        await self.send(match, lambda place: place.send(text, allowed_mentions=limits.NOBODY))

    # --- the watchdog ---

    def start(self) -> None:
        self._watching.start()

    async def stop(self) -> None:
        await self._watching.stop()

    async def look(self) -> None:
        """Each shard's last heartbeat ACK: stale is down (since that ACK), fresh again is back."""
        for shard, ws in self._sockets():
            beats = getattr(ws, "_keep_alive", None)
            interval = getattr(beats, "interval", None)
            if beats is None or not interval:
                continue  # not connected: discord.py's own events say so
            age = time.perf_counter() - beats._last_ack
            service = self.service()
            if age > STALE_BEATS * interval and service is not None:
                await self.lost(shard, WATCHDOG, service.time.now() - age)
            elif self.down.get(shard) == WATCHDOG:
                await self.back(shard, WATCHDOG)

    def _sockets(self) -> list[tuple[int, Any]]:
        bot = self.bot
        shards = getattr(bot, "shards", None)
        if isinstance(shards, dict):
            return [(shard_id, info.ws) for shard_id, info in shards.items()]
        return [(bot.shard_id or 0, bot.ws)] if bot.ws is not None else []


def _deadline(match: Match) -> float:
    deadline = match.clock.deadline() if match.clock is not None else None
    return float("inf") if deadline is None else deadline
