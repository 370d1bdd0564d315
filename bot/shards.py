"""Shards and leases: which bot process acts on which matches, guarded in the database.

Discord splits a large bot's servers into shards; a process runs some of them (`SHARD_COUNT`, `SHARD_IDS`) and
owns the matches of the servers they hold: a match belongs to shard `(guild_id >> 22) % SHARD_COUNT`, and
offline (terminal) matches to shard 0. Owning is not taken on trust: each shard has a lease row in the
database (owner, expiry) that its process takes at start and renews while it lives. A process acts on a
match (moves, flags, reminders, computer players, posts) only while it holds the match's shard, and every
change it commits re-checks the lease inside the change's own transaction (`fence`), so two processes
started by mistake with the same shard ids can never both commit for one match: the one without the lease
is refused. A process that cannot renew a lease in time drops those matches at once (`on_lost`); one that
gains a shard (its owner died, so the lease ran out) loads them (`on_gained`).

One process (the default, and SQLite) holds shard 0 of 1: every match is its own; it still takes the lease,
so two processes on one database file refuse to play the same matches too.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.background import Repeating
from bot.clock import TimeSource
from bot.errors import ServiceError

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0
"""How long a lease lasts unless renewed: how long a dead process's matches wait for another to take them."""
RENEW_EVERY = 10.0
"""How often a live process renews its leases (a third of a lease: two renewals may fail before it lapses)."""


class ShardError(ValueError):
    """SHARD_COUNT / SHARD_IDS that do not make sense."""


class NotOwner(ServiceError):
    """This process does not hold the lease of the match's shard: another process runs it."""


@dataclass(frozen=True, slots=True)
class Scope:
    """Some shards of `count`: what a process loads at start and takeover (`Store.match_ids`), so the cost
    grows with its own shards, not with every match in the database."""

    count: int
    shards: frozenset[int]


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard of a server (Discord's formula); offline and terminal matches (no server) are shard 0."""
    return 0 if guild_id is None or count <= 1 else (guild_id >> 22) % count


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """Which shards this process runs, of how many."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ShardPlan:
        """SHARD_COUNT (default 1) and SHARD_IDS (`0,1`; default: all of them)."""
        env = os.environ if environ is None else environ
        count_text = (env.get("SHARD_COUNT") or "1").strip()
        if not count_text.isdigit() or not 1 <= int(count_text) <= 10_000:
            raise ShardError(f"SHARD_COUNT must be a whole number from 1 to 10000, not {count_text!r}.")
        count = int(count_text)
        ids_text = (env.get("SHARD_IDS") or "").strip()
        if not ids_text:
            return cls(count, tuple(range(count)))
        parts = [part.strip() for part in ids_text.split(",")]
        if not all(part.isdigit() for part in parts):
            raise ShardError(f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_text!r}.")
        ids = tuple(sorted({int(part) for part in parts}))
        if ids[-1] >= count:
            raise ShardError(
                f"SHARD_IDS {ids_text!r} names shard {ids[-1]}, but SHARD_COUNT is {count} (0 to {count - 1})."
            )
        return cls(count, ids)

    def shard(self, guild_id: int | None) -> int:
        return shard_of(guild_id, self.count)


class LeaseStore(Protocol):
    """The three statements leases need (bot/store.py); each is atomic on its own."""

    async def take_lease(self, shard: int, owner: str, now: float, until: float) -> bool: ...

    async def release_lease(self, shard: int, owner: str) -> None: ...

    async def holds_lease(self, shard: int, owner: str, now: float) -> bool: ...


Callback = Callable[[int], Awaitable[None]]


@dataclass(slots=True)
class Leases:
    """This process's shard leases: taken at `start`, renewed every RENEW_EVERY, released at `stop`.

    `owns(guild_id)` answers from memory (what this process held at its last renewal), for deciding what to
    load and arm; `fence(guild_id)` asks the database, inside the caller's transaction, before a change
    commits. A shard whose renewal fails or finds another owner is dropped at once (`on_lost`); a shard
    whose lease becomes free is taken at the next renewal (`on_gained`).
    """

    store: LeaseStore
    plan: ShardPlan
    time: TimeSource
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}")
    lease_seconds: float = LEASE_SECONDS
    renew_every: float = RENEW_EVERY
    on_gained: Callback | None = None
    on_lost: Callback | None = None
    held: set[int] = field(default_factory=set)
    until: dict[int, float] = field(default_factory=dict)
    """When each held lease runs out, as this process last wrote it."""
    adopting: set[asyncio.Task[None]] = field(default_factory=set)
    _renewing: Repeating | None = None

    def owns(self, guild_id: int | None) -> bool:
        return self.plan.shard(guild_id) in self.held

    def owns_shard(self, shard: int) -> bool:
        return shard in self.held

    def scope(self) -> Scope:
        return Scope(self.plan.count, frozenset(self.held))

    async def fence(self, guild_id: int | None) -> None:
        """Inside a change's transaction: refuse it unless the database says this process holds the shard."""
        shard = self.plan.shard(guild_id)
        if shard not in self.held or not await self.store.holds_lease(shard, self.owner, self.time.now()):
            if shard in self.held:
                await self._lose(shard)
            raise NotOwner(
                "Another bot process runs this match now (its shard's lease is not held here); try again in a moment."
            )

    async def start(self) -> frozenset[int]:
        """Take every lease that is free (the others belong to a live process); start renewing."""
        await self.renew()
        if self._renewing is None:
            self._renewing = Repeating(
                "shard-leases",
                lambda: self.time.sleep_until(self.time.now() + self.renew_every),  # the service's clock (tests: fake)
                self.renew,
                failed="the lease renewal round failed",
            )
            self._renewing.start()
        return frozenset(self.held)

    async def renew(self) -> None:
        """Renew the held leases and take free ones; drop those another process holds or that fail.

        A renewal that comes after this process's own lease had run out is a new lease, not the old one
        renewed: another process may have held the shard meanwhile (and moved its matches on), so the shard
        is dropped and gained again, its matches reloaded. `on_gained` runs in the background (`adopting`),
        so loading a shard's matches never delays the renewal of the leases."""
        for shard in self.plan.ids:
            now = self.time.now()
            try:
                taken = await self.store.take_lease(shard, self.owner, now, now + self.lease_seconds)
            except Exception:  # the database did not answer: the lease cannot be trusted past its expiry
                log.exception("renewing the lease of shard %d failed", shard)
                taken = False
            if taken and shard in self.held and now >= self.until.get(shard, now):
                await self._lose(shard)  # it had lapsed: what this process knows of the shard may be stale
            if taken:
                self.until[shard] = now + self.lease_seconds
            if taken and shard not in self.held:
                self.held.add(shard)
                log.info("took the lease of shard %d (%s)", shard, self.owner)
                if self.on_gained is not None:
                    task = asyncio.create_task(self.on_gained(shard), name=f"adopt-shard-{shard}")
                    self.adopting.add(task)
                    task.add_done_callback(self._adopted)
            elif not taken and shard in self.held:
                await self._lose(shard)

    def _adopted(self, task: asyncio.Task[None]) -> None:
        self.adopting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("taking over a shard's matches failed", exc_info=task.exception())

    async def settled(self) -> None:
        """Wait until the shards just gained have their matches loaded (tests, and a clean stop)."""
        while self.adopting:
            await asyncio.gather(*list(self.adopting), return_exceptions=True)

    async def _lose(self, shard: int) -> None:
        self.held.discard(shard)
        log.warning("lost the lease of shard %d: its matches are left to the process that holds it", shard)
        if self.on_lost is not None:
            await self.on_lost(shard)

    async def stop(self) -> None:
        """Stop renewing and hand the leases back, so another process may take them at once."""
        if self._renewing is not None:
            await self._renewing.stop()  # a renewal under way finishes: releasing beside it could race it
            self._renewing = None
        await self.settled()
        for shard in sorted(self.held):
            try:
                await self.store.release_lease(shard, self.owner)
            except Exception:
                log.exception("releasing the lease of shard %d failed", shard)
        self.held.clear()


class Ownership(Protocol):
    """What the service asks before it loads, arms or commits anything for a match (`Leases`, `EveryShard`)."""

    def owns(self, guild_id: int | None) -> bool: ...

    def scope(self) -> Scope | None:
        """The shards held, for a query to read only their rows; None: every row is this process's."""
        ...

    async def fence(self, guild_id: int | None) -> None: ...


class EveryShard:
    """Ownership without leases: this process owns every match (tests, and a service built without Leases)."""

    def owns(self, guild_id: int | None) -> bool:
        return True

    def scope(self) -> Scope | None:
        return None

    async def fence(self, guild_id: int | None) -> None:
        return None
