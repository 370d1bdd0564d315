"""Challenges stored whole (bot/service/challenges.py, migration 14): accepting reads the game, the players and
the clock from the stored challenge; one that was never stored, or stored before challenges kept their game,
is refused in words, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from bot.clock import ClockSettings
from bot.errors import ChallengeTaken, NoSuchChallenge, NotInMatch
from bot.models import Challenge, Place, Player
from bot.service import MatchService
from tests.conftest import ALICE, BOB

pytestmark = pytest.mark.backends

CAROL = Player("local:carol", "carol")


async def test_a_stored_challenge_is_read_back_whole_and_starts_one_match(service: MatchService) -> None:
    clock = ClockSettings(3600, 7200)
    await service.challenges.record_challenge(41, 7, ALICE, BOB, game="themiscyra", clock=clock, channel_id=8)
    assert await service.challenges.get_challenge(41) == Challenge(
        41, "themiscyra", ALICE.id, BOB.id, clock, Place(7, 8)
    )
    with pytest.raises(NotInMatch, match="not yours to accept"):
        await service.challenges.check_challenge(41, CAROL)
    await service.challenges.check_challenge(41, BOB)  # bob may
    match = await service.create_match("themiscyra", [ALICE, BOB], clock=clock, place=Place(7, 8), challenge=41)
    with pytest.raises(ChallengeTaken, match=f"accepted already: it is match #{match.id}"):
        await service.challenges.check_challenge(41, BOB)
    assert (await service.challenges.get_challenge(41)).match_id == match.id


async def test_a_challenge_never_stored_or_stored_before_whole_ones_is_refused(service: MatchService) -> None:
    with pytest.raises(NoSuchChallenge, match=r"^There is no such challenge: ask for a new one\.$"):
        await service.challenges.get_challenge(404)
    await service.challenges.record_challenge(42, 7, ALICE, BOB)  # as challenges were kept before migration 14
    refusal = "This challenge was sent before the bot's update and can no longer be accepted: ask for a new one."
    for ask in (service.challenges.get_challenge(42), service.challenges.check_challenge(42, BOB)):
        with pytest.raises(NoSuchChallenge) as refused:
            await ask
        assert str(refused.value) == refusal


async def test_a_challenge_whose_post_failed_is_withdrawn_and_counts_for_nothing(service: MatchService) -> None:
    await service.challenges.record_challenge(43, 7, ALICE, BOB, game="fish", channel_id=8)
    await service.challenges.withdraw_challenge(43)
    with pytest.raises(NoSuchChallenge):
        await service.challenges.get_challenge(43)
    assert await service.store.open_challenges(7, ALICE.id, 0) == 0
