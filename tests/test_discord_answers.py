"""A move's answer (bot/answers.py) when the move is slow: deferred privately in time, then the board as a
followup of its own (so it pings), never as the filled placeholder (an edit pings nobody)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import answers
from bot.discord_app import GameBot
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards


async def test_a_slow_move_is_deferred_in_time_and_its_board_still_pings(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    move = bot.matches.move

    async def slow(*args: Any, **kwargs: Any) -> Any:
        """The move is not ready until the deadline has deferred its interaction."""
        playing = answers.current()
        assert playing is not None
        while not playing.interaction.response.is_done():
            await asyncio.sleep(0.01)
        return await move(*args, **kwargs)

    monkeypatch.setattr(answers, "DEFER_AFTER", 0.0)
    monkeypatch.setattr(bot.matches, "move", slow)
    match = await bot.matches.get(1)
    reply = await fake.slash(
        "alice", "fish move", {"move": f"{bot.matches.game(match).legal_moves(match.state)[0]}"}, channel=thread
    )
    assert reply.type == 5 and reply.ephemeral and (reply.content or "").startswith("Played: Alice places a token")
    (board,) = reply.followups
    assert board is boards(fake, thread)[-1] and not board.ephemeral
    assert int(fake.user("bob")["id"]) in board.pings.users  # a new message: the player to move is notified


async def test_a_move_ready_in_time_is_answered_with_its_board_itself(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answers, "DEFER_AFTER", 60.0)  # however loaded the machine, the move is in time
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    move = bot.matches.game(match).legal_moves(match.state)[0]
    reply = await fake.slash("alice", "fish move", {"move": move}, channel=thread, wait=False)
    await asyncio.wait_for(reply.wait(), timeout=10)  # not held up by the 60 s deadline: it was called off
    assert reply.type == 4 and not reply.ephemeral and reply.followups == []  # one callback, the board
    assert reply.message is boards(fake, thread)[-1] and int(fake.user("bob")["id"]) in reply.message.pings.users


async def test_a_computer_reply_after_the_webhook_lapsed_is_a_channel_post(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert bot.computers is not None
    monkeypatch.setattr(answers, "FOLLOWUPS_FOR", 0.0)  # as if the computer had thought for 15 minutes
    await fake.slash("alice", "fish challenge", {"opponent": fake.application_id, "level": "easy"})
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    move = bot.matches.game(match).legal_moves(match.state)[0]
    await fake.slash("alice", "fish move", {"move": move}, channel=thread)
    await bot.computers.idle()
    await fake.wait_until(lambda: len(boards(fake, thread)) == 3, what="the computer's board")
    reply = boards(fake, thread)[-1]
    assert reply.webhook_id is None and "Easy computer" in reply.content  # a channel post, not a followup
