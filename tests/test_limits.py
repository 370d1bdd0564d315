"""Limits per person per server (bot/models.py UserLimits): open lobbies, unanswered challenges and games
against the computer, refused in words and privately; lobby look-ups by index, not by scanning them all."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.clock import FakeTime
from bot.discord_app import GameBot
from bot.models import Place, Player, UserLimits, computer
from bot.service import CHALLENGE_WINDOW, MatchService
from tests.discord_fake import DiscordFake


async def test_a_fourth_open_lobby_is_refused_until_one_is_gone(fake: DiscordFake, bot: GameBot) -> None:
    for number in range(1, 4):
        opened = await fake.slash("alice", "volcano new", channel="games")
        assert f"lobby #{number}" in (opened.content or "")
    refused = await fake.slash("alice", "geyser new", channel="games")
    assert refused.ephemeral and "You have 3 open lobbies here (#1, #2, #3)" in (refused.content or "")
    other = await fake.slash("bob", "volcano new", channel="games")  # the limit is per person
    assert not other.ephemeral and "lobby #4" in (other.content or "")
    await fake.slash("alice", "volcano leave", {"lobby": 2}, channel="games")  # its creator leaves: cancelled
    again = await fake.slash("alice", "geyser new", channel="games")
    assert not again.ephemeral and "Geyser lobby #5" in (again.content or "")


async def test_unanswered_challenges_are_limited_and_an_accepted_one_frees_a_place(
    fake: DiscordFake, bot: GameBot
) -> None:
    sent = [await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games") for _ in range(5)]
    assert all(not s.ephemeral for s in sent)
    refused = await fake.slash("alice", "themiscyra challenge", {"opponent": "carol"}, channel="games")
    assert refused.ephemeral and "5 challenges here that nobody has accepted" in (refused.content or "")
    assert len([m for m in fake.channel_messages("games") if "challenges you" in m.content]) == 5
    await fake.click("bob", sent[0].message, label="Accept")
    freed = await fake.slash("alice", "themiscyra challenge", {"opponent": "carol"}, channel="games")
    assert not freed.ephemeral and "challenges you" in (freed.content or "")
    alice = f"discord:{fake.user('alice')['id']}"
    await eventually_async(lambda: bot.matches.store.open_challenges(fake.guild.id, alice, 0), 5)


async def eventually_async(count: Any, wanted: int) -> None:
    """Wait until the bot has recorded what it sent (it does so just after answering)."""
    for _ in range(200):
        if await count() == wanted:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never reached {wanted}")


async def test_a_day_old_challenge_no_longer_counts(service: MatchService, fake_time: FakeTime) -> None:
    alice = Player("discord:1", "alice")
    for message in range(5):
        await service.challenges.record_challenge(message, 7, alice, Player("discord:2", "bob"))
    assert await service.limits.challenge_refusal(7, alice) is not None
    assert await service.limits.challenge_refusal(8, alice) is None  # another server
    assert await service.limits.challenge_refusal(None, alice) is None  # offline: no limits
    fake_time.advance(CHALLENGE_WINDOW + 1)
    assert await service.limits.challenge_refusal(7, alice) is None


async def test_games_against_the_computer_are_limited_before_anything_is_posted(
    fake: DiscordFake, bot: GameBot
) -> None:
    for _ in range(3):
        started = await fake.slash("alice", "fish challenge", {"opponent": fake.bot_user}, channel="games")
        assert "against the computer" in (started.content or "")
    public_before = len(fake.channel_messages("games"))
    refused = await fake.slash("alice", "horizon challenge", {"opponent": fake.bot_user}, channel="games")
    assert refused.ephemeral and "already plays 3 games against the computer here (#1, #2, #3)" in refused.content
    assert len(fake.channel_messages("games")) == public_before and len(bot.matches.running()) == 3
    await fake.slash("alice", "volcano new", channel="games")
    added = await fake.slash("alice", "volcano computer", channel="games")
    assert "joined" in (added.content or "")
    start = await fake.slash("alice", "volcano start", channel="games")
    assert start.ephemeral and "against the computer" in (start.content or "")
    assert len(bot.matches.running()) == 3


async def test_the_service_applies_the_limits_it_was_given(
    open_service: object, fake_time: FakeTime, db_path: object
) -> None:
    from bot.store import Store
    from tests.conftest import TEST_GAMES

    store = await Store.open(db_path, TEST_GAMES)  # type: ignore[arg-type]
    service = MatchService(store, fake_time, UserLimits(lobbies=1, challenges=1, computer_games=1))
    try:
        alice = Player("discord:1", "alice")
        await service.create_match("fish", [alice, computer()], place=Place(7, 1))
        assert service.limits.computer_games_refusal([alice, computer()], 7) is not None
        assert service.limits.computer_games_refusal([alice, computer()], 9) is None
        assert service.limits.computer_games_refusal([alice, Player("discord:2", "bob")], 7) is None
    finally:
        await service.close()
        await store.close()


async def test_open_lobbies_come_from_an_index_for_one_server(service: MatchService) -> None:
    for guild in range(300):
        await service.lobbies.open_lobby("volcano", Player(f"discord:{guild}", "p"), place=Place(guild, 1))
    here = await service.lobbies.open_lobbies(42)
    assert [lobby.place.guild_id for lobby in here] == [42]
    async with service.store._db.execute(  # the query the look-up runs, planned by SQLite
        "EXPLAIN QUERY PLAN SELECT * FROM lobbies WHERE status = 'open' AND guild_id IS ? ORDER BY id", (42,)
    ) as cursor:
        plan = " ".join(str(row[-1]) for row in await cursor.fetchall())
    assert "USING INDEX lobbies_open" in plan, plan
