"""Matches started at once, with every player known: a challenge accepted, the terminal's `new`, a game
against the computer (`create_match`); and the bookkeeping that makes a challenge start one match only.

A challenge is stored whole when sent (game, players, clock, where: `Challenge`), under an id the front-end
gives (Discord: the sending command's); it counts against its sender's limit until it is accepted, and
only the challenged may accept it. Accepting reads everything from the stored challenge, never from the
button that names it. The match it starts is stored with it in the match's own transaction, so a double
click or a click on an old message after a restart is refused.
"""

from __future__ import annotations

from typing import Any

from bot import posts
from bot.clock import ClockSettings
from bot.errors import ChallengeTaken, LimitReached, NoSuchChallenge, NotInMatch
from bot.i18n import _
from bot.models import Challenge, Match, Notice, NoticeKind, Place, Player
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
        await registry.notify([Notice(NoticeKind.STARTED, match, posts.start_lines(match, game))])
        return match

    async def get_challenge(self, challenge: int) -> Challenge:
        """The stored challenge; refused in words if none was sent with that id, or if it was sent before
        challenges were stored whole (nothing says what it was, so the challenger asks again)."""
        found = await self.registry.store.challenge(challenge)
        if found is None:
            raise NoSuchChallenge(_("There is no such challenge: ask for a new one."))
        if found.game is None:  # a challenge stored whole has its game, and its players
            raise NoSuchChallenge(
                _("This challenge was sent before the bot's update and can no longer be accepted: ask for a new one.")
            )
        return found

    async def check_challenge(self, challenge: int, by: Player) -> None:
        """Refuse a challenge `by` may not accept now: none stored, sent to someone else, or accepted before
        (front-ends ask before they answer in public)."""
        found = await self.get_challenge(challenge)
        if found.to_id != by.id:
            raise NotInMatch(_("This challenge is not yours to accept."))
        await self._refuse_accepted(challenge)

    async def record_challenge(
        self,
        challenge: int,
        guild_id: int | None,
        by: Player,
        to: Player,
        *,
        game: str | None = None,
        clock: ClockSettings | None = None,
        channel_id: int | None = None,
    ) -> None:
        """A challenge was sent (its id is the front-end's): it counts as open until it is accepted, and
        only `to` may accept it, in `channel_id`, for `game` with `clock`."""
        store = self.registry.store
        async with store.transaction():
            await store.insert_challenge(
                challenge,
                guild_id,
                by.id,
                to.id,
                self.registry.time.now(),
                game=game,
                clock=clock,
                channel_id=channel_id,
            )

    async def withdraw_challenge(self, challenge: int) -> None:
        """Forget a challenge nobody accepted (its post failed): it no longer counts against its sender."""
        store = self.registry.store
        async with store.transaction():
            await store.delete_challenge(challenge)

    async def _refuse_accepted(self, challenge: int) -> None:
        if (started := await self.registry.store.challenge_match(challenge)) is not None:
            raise ChallengeTaken(
                _("This challenge was accepted already: it is match #{number}.").format(number=started)
            )
