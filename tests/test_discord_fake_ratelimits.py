"""The fake Discord's rate limits (tests/discord_fake/ratelimits.py), at Discord's real numbers: the model
alone on a clock of its own, then with discord.py running against it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.discord_fake import DiscordFake
from tests.discord_fake.ratelimits import GLOBAL, INVALID, MESSAGES, RateLimits
from tests.test_discord_fake import TinyBot, text_channel

POST = ("POST", "/channels/{channel_id}/messages")
CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")


def post_to(limits: RateLimits, channel: int, now: float) -> object:
    return limits.check(*POST, {"channel_id": str(channel)}, now)


# --- the model ------------------------------------------------------------------------------------------


def test_five_messages_per_five_seconds_in_a_channel_then_a_429_until_the_window_ends() -> None:
    limits = RateLimits()
    remaining = []
    for i in range(MESSAGES.limit):
        verdict = limits.check(*POST, {"channel_id": "1"}, 100.0 + i * 0.5)
        assert verdict.refused is None
        remaining.append(verdict.headers["X-RateLimit-Remaining"])
        assert verdict.headers["X-RateLimit-Limit"] == "5"
    assert remaining == ["4", "3", "2", "1", "0"]
    refused = limits.check(*POST, {"channel_id": "1"}, 103.0)
    assert refused.refused is not None and refused.refused["global"] is False
    assert refused.refused["retry_after"] == pytest.approx(2.0)  # the window opened at 100.0
    assert (
        refused.headers["Retry-After"] == "2"
        and refused.headers["Via"]
        and refused.headers["X-RateLimit-Scope"] == "user"
    )
    assert limits.check(*POST, {"channel_id": "2"}, 103.0).refused is None  # another channel: a bucket of its own
    assert limits.check(*POST, {"channel_id": "1"}, 105.0).refused is None  # a new window
    assert limits.invalid_count == 1  # the 429 counts towards Discord's ban


def test_a_bucket_is_named_by_its_route_and_counted_per_top_level_resource() -> None:
    limits = RateLimits()
    first = limits.check(*POST, {"channel_id": "1"}, 0.0).headers["X-RateLimit-Bucket"]
    other_channel = limits.check(*POST, {"channel_id": "2"}, 0.0).headers["X-RateLimit-Bucket"]
    edit = limits.check(
        "PATCH", "/channels/{channel_id}/messages/{message_id}", {"channel_id": "1", "message_id": "9"}, 0
    )
    assert first == other_channel != edit.headers["X-RateLimit-Bucket"]
    assert float(edit.headers["X-RateLimit-Reset-After"]) == pytest.approx(MESSAGES.window)
    assert edit.headers["X-RateLimit-Remaining"] == "4"  # edits have their own 5 per 5 s


def test_fifty_requests_a_second_in_all_but_interaction_answers_are_exempt() -> None:
    limits = RateLimits()
    for channel in range(GLOBAL.limit):
        assert post_to(limits, channel, 10.0 + channel / 100).refused is None  # fifty channels, one request each
    over = limits.check(*POST, {"channel_id": "999"}, 10.6)
    assert over.refused is not None and over.refused["global"] is True
    assert over.headers["X-RateLimit-Global"] == "true" and over.headers["X-RateLimit-Scope"] == "global"
    assert over.refused["retry_after"] == pytest.approx(0.4)  # the oldest of the fifty leaves the window at 11.0
    for i in range(60):  # answers to interactions and their followups: never under the global limit
        params = {"interaction_id": str(i), "interaction_token": f"t{i}"}
        assert limits.check(*CALLBACK, params, 10.7).refused is None
        webhook = {"webhook_id": "1", "webhook_token": f"t{i}"}
        assert limits.check("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook, 10.7).refused is None
    assert post_to(limits, 999, 11.0).refused is None


def test_ten_thousand_invalid_requests_in_ten_minutes_ban_until_they_age_out() -> None:
    limits = RateLimits()
    for i in range(INVALID.limit - 1):
        limits.invalid(i * 0.01)
    assert post_to(limits, 1, 100.0).refused is None
    limits.invalid(100.0)
    banned = post_to(limits, 1, 100.0)
    assert banned.banned and banned.refused is not None and "Via" not in banned.headers
    assert not post_to(limits, 1, 100.0 + INVALID.window).banned  # the oldest have aged out


def test_a_smaller_scale_shrinks_the_windows_but_nothing_turns_them_off() -> None:
    limits = RateLimits(scale=0.1)
    for i in range(MESSAGES.limit):
        assert post_to(limits, 1, i * 0.01).refused is None
    refused = post_to(limits, 1, 0.1)
    assert refused.refused is not None and refused.refused["retry_after"] == pytest.approx(0.4)
    assert post_to(limits, 1, 0.5).refused is None
    for scale in (0.0, -1.0):
        with pytest.raises(ValueError, match="never turned off"):
            RateLimits(scale=scale)


# --- with discord.py ------------------------------------------------------------------------------------


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve() as fake:  # Discord's real numbers
        yield fake


@pytest.fixture
async def bot(fake: DiscordFake) -> AsyncIterator[TinyBot]:
    bot = TinyBot(fake.guild.id)
    async with fake.run(bot):
        yield bot


async def test_every_answer_carries_the_rate_limit_headers_and_a_429_its_body(fake: DiscordFake, bot: TinyBot) -> None:
    url = f"{fake.api_base}/channels/{fake.channel('general').id}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        answers = []
        for i in range(MESSAGES.limit + 1):
            async with session.post(url, json={"content": f"hi {i}"}) as response:
                answers.append((response.status, dict(response.headers), await response.json()))
    for status, headers, _ in answers[:-1]:
        assert status == 200
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After"} <= set(
            headers
        )
        assert headers["X-RateLimit-Bucket"]
    status, headers, body = answers[-1]
    assert status == 429 and body["retry_after"] > 0 and body["global"] is False
    assert headers["X-RateLimit-Scope"] == "user" and int(headers["Retry-After"]) >= 1
    assert len(fake.channel_messages("general")) == MESSAGES.limit  # the refused one was not posted
    assert [str(r) for r in fake.rate_limited] == [f"POST {url.removeprefix(fake.api_base)} -> 429"]
    with pytest.raises(AssertionError, match="answered 429"):
        fake.check()  # a test fails on any 429 the bot caused
    fake.rate_limited.clear()


async def test_discord_py_waits_out_a_full_bucket_before_it_is_refused(fake: DiscordFake, bot: TinyBot) -> None:
    channel = text_channel(bot, fake.channel("general"))
    await asyncio.gather(*(channel.send(f"move {i}") for i in range(MESSAGES.limit + 2)))  # all at once
    posts = fake.requests_to("POST", r"^/channels/\d+/messages$")
    assert len(fake.channel_messages("general")) == 7 and fake.rate_limited == []
    assert posts[-1].at - posts[0].at >= MESSAGES.window - 0.1  # the sixth waited for the next window


async def test_discord_py_retries_after_a_429_it_did_not_see_coming(fake: DiscordFake, bot: TinyBot) -> None:
    url = f"{fake.api_base}/channels/{fake.channel('general').id}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        for i in range(MESSAGES.limit):  # another process on the same token fills the bucket
            async with session.post(url, json={"content": f"move {i}"}) as response:
                assert response.status == 200
    await text_channel(bot, fake.channel("general")).send("one more")  # discord.py cannot know it is full
    assert [m.content for m in fake.channel_messages("general")][-1] == "one more"
    [refused] = fake.rate_limited
    assert refused.error is not None and refused.error["retry_after"] > 0
    fake.rate_limited.clear()
    assert fake.limits.invalid_count == 1


async def test_a_request_made_before_the_interaction_is_answered_is_listed(fake: DiscordFake, bot: TinyBot) -> None:
    await fake.slash("alice", "demo thread")  # defers first, then opens a thread and posts in it
    assert fake.early_requests == []
    reply = await fake.slash("alice", "demo eager")  # posts in the channel, then answers
    assert reply.content == "answered second"
    [early] = fake.early_requests
    assert early.method == "POST" and early.path.endswith("/messages") and early.cause == int(reply.interaction["id"])
    with pytest.raises(AssertionError, match="before the interaction that caused them was answered"):
        fake.check()
    fake.early_requests.clear()
