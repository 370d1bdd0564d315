"""Matches started at once, with every player known: a challenge accepted, the terminal's `new`, a game
against the computer (`create_match`); and the bookkeeping that makes a challenge start one match only.

A challenge is recorded with its message id when sent (it counts against its sender's limit until it is
accepted, and only the challenged may accept it); the match it starts is stored with it in the match's own
transaction, so a double click or a click on an old message after a restart is refused.
"""

from __future__ import annotations

from typing import Any

from bot import posts
from bot.clock import ClockSettings
from bot.errors import ChallengeTaken, LimitReached, NotInMatch
from bot.models import Match, Notice, Place, Player
from bot.service.limits import Limits
from bot.service.registry import Registry, new_match


class Challenges:
    def __init__(self, registry: Registry, limits: Limits) -> None:
        self.registry = registry
        self.limits = limits

    async def create_match(
        self,
        game_key: str,
        players: list[Player],
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
        challenge: int | None = None,
    ) -> Match:
        """A casual match; refused with a readable ValueError for a bad game, seat count or option.

        `challenge` names the challenge it answers (a front-end's id for it): a challenge starts one match,
        so accepting it again (a double click, or after a restart) is refused, in the same transaction."""
        registry, store = self.registry, self.registry.store
        game = registry.game_or_refuse(game_key)
        match = new_match(game, tuple(players), options or {}, seed, clock, place or Place(), registry.time.now())
        if (why := self.limits.computer_games_refusal(players, match.place.guild_id)) is not None:
            raise LimitReached(why)
        async with store.transaction():
            await registry.ownership.fence(match.place.guild_id)  # a match starts where its shard is held
            if challenge is not None:
                await self._refuse_accepted(challenge)
            match.id = await store.insert_match(match)
            if challenge is not None:
                await store.accept_challenge(challenge, match.id)
        registry.add(match)
        await registry.notify([Notice("started", match, posts.start_lines(match, game))])
        return match

    async def check_challenge(self, challenge: int, by: Player) -> None:
        """Refuse a challenge accepted before, or one sent to someone else than `by` as it was recorded
        (front-ends ask before they answer in public)."""
        to = await self.registry.store.challenged(challenge)
        if to is not None and to != by.id:
            raise NotInMatch("This challenge is not yours to accept.")
        await self._refuse_accepted(challenge)

    async def record_challenge(self, challenge: int, guild_id: int | None, by: Player, to: Player) -> None:
        """A challenge was sent (its id is the front-end's): it counts as open until it is accepted, and
        only `to` may accept it."""
        store = self.registry.store
        async with store.transaction():
            await store.insert_challenge(challenge, guild_id, by.id, to.id, self.registry.time.now())

    async def _refuse_accepted(self, challenge: int) -> None:
        if (started := await self.registry.store.challenge_match(challenge)) is not None:
            raise ChallengeTaken(f"This challenge was accepted already: it is match #{started}.")
