"""A move's answer (bot/answers.py) when the move is slow: deferred privately in time, then the board as a
followup of its own (so it pings), never as the filled placeholder (an edit pings nobody)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot import answers
from bot.discord_app import GameBot
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, custom_ids


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


async def test_a_move_delivered_too_late_to_answer_still_posts_its_board_where_the_match_is(
    fake: DiscordFake, bot: GameBot
) -> None:
    """The gateway (or a busy bot) hands the move over after Discord's 3 s: the interaction can no longer be
    answered (404 10062), which says nothing of the thread. The board is posted there as a message of its
    own; the match is not moved to a new thread as if its thread had been deleted."""
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    before = len(boards(fake, thread))
    move = bot.matches.game(match).legal_moves(match.state)[0]
    reply = await fake.slash("alice", "fish move", {"move": move}, channel=thread, wait=False, arrives_after=3.5)
    await fake.wait_until(lambda: match.board_ply == 1, what="the board in the match's thread, its clock started")
    board = boards(fake, thread)[-1]
    assert len(boards(fake, thread)) == before + 1 and match.board == (thread.id, board.id)
    assert board.webhook_id is None and int(fake.user("bob")["id"]) in board.pings.users  # a post that pings
    assert reply.callback is None and fake.threads[-1] is thread and match.place.thread_id == thread.id
    assert not any("moved" in m.content.lower() for m in fake.channel_messages(thread))
    # Discord refused the one try to answer it (the bot cannot know it is late before asking), and no more
    assert [(r.status, r.code) for r in fake.rejected] == [(404, 10062)]
    fake.rejected.clear()


async def test_a_click_delivered_too_late_to_acknowledge_still_plays_and_posts_its_board(
    fake: DiscordFake, bot: GameBot
) -> None:
    opened = await fake.slash("alice", "geyser new", channel="games")
    await fake.click("bob", opened.message, label="Join")
    await fake.click("alice", opened.message, label="Start")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    board = boards(fake, thread)[-1]
    button = next(c for c in custom_ids(board) if c.startswith("play:"))  # a starting square, offered as a button
    reply = await fake.click("alice", board, button, wait=False, arrives_after=3.5)
    await fake.wait_until(lambda: match.board_ply == 1, what="the board in the match's thread, its clock started")
    new = boards(fake, thread)[-1]
    assert new is not board and match.board == (thread.id, new.id) and new.webhook_id is None
    assert reply.callback is None and fake.threads[-1] is thread and match.place.thread_id == thread.id
    assert [(r.status, r.code) for r in fake.rejected] == [(404, 10062)]  # the one try to acknowledge it
    fake.rejected.clear()
