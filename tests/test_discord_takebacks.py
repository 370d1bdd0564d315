"""Takebacks and claims through the real discord.py code against tests/discord_fake/: the request posted in
the match's thread with Accept / Decline buttons only the others may press, accepted (the board posted
again), declined, expired, lapsed by a move, answered after a restart; refused in a death match; a claim
refused with the time left, then the final board."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from bot.clock import FakeTime
from bot.discord_app import GameBot
from bot.games import GAMES, Termination
from bot.service import CLAIM_AFTER
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, custom_ids, make_bot, was_played

FISH = GAMES["fish"]


async def challenge(fake: DiscordFake, clock: str | None = None) -> Any:
    """alice challenges bob, bob accepts; returns the match thread (match #1)."""
    options: dict[str, Any] = {"opponent": "bob"} | ({"clock": clock} if clock else {})
    asked = await fake.slash("alice", "fish challenge", options)
    await fake.click("bob", asked.message, label="Accept")
    return fake.threads[-1]


async def move(fake: DiscordFake, bot: GameBot, thread: Any, user: str) -> str:
    match = await bot.matches.get(1)
    played = FISH.legal_moves(match.state)[0]
    reply = await fake.slash(user, "fish move", {"move": f"{played}@{match.ply}"}, channel=thread)
    assert was_played(reply), reply.content
    return played


async def ask(fake: DiscordFake, thread: Any, user: str = "alice") -> Any:
    """`user` asks for a takeback in the thread; returns the request's post."""
    after = fake.last_message_id()
    reply = await fake.slash(user, "fish takeback", channel=thread)
    assert reply.ephemeral and (reply.content or "").startswith("Asked: the others answer"), reply.content
    return await fake.wait_for_message(lambda m: "asks to take back" in m.content, channel=thread, after=after)


async def test_a_takeback_is_asked_in_the_thread_and_only_the_other_player_accepts_it(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await challenge(fake)
    first = await move(fake, bot, thread, "alice")
    request = await ask(fake, thread)
    bob = fake.user("bob")["id"]
    assert request.content.startswith(f"<@{bob}>\nAlice asks to take back their move {first}. Bob: accept or decline")
    until = math.ceil(bot.matches.takebacks.open_request(1).expires_at)  # type: ignore[union-attr]
    assert custom_ids(request) == [f"takeback:yes:1:1:0:{until}", f"takeback:no:1:1:0:{until}"]
    assert not request.ephemeral

    mine = await fake.click("alice", request, label="Accept")
    assert mine.ephemeral and "You asked for this takeback: the others answer it" in (mine.content or "")
    stranger = await fake.click("carol", request, label="Decline")
    assert stranger.ephemeral and "Only the players of match #1" in (stranger.content or "")
    assert bot.matches.takebacks.open_request(1) is not None

    boards_before = len(boards(fake, thread))
    accepted = await fake.click("bob", request, label="Accept")
    text = "".join(m.content for m in accepted.followups)
    assert f"Bob accepts: Alice takes back their move {first}." in text and accepted.followups[0].ephemeral
    assert len(boards(fake, thread)) == boards_before + 1
    board = boards(fake, thread)[-1]
    alice = fake.user("alice")["id"]
    assert (
        f"Bob accepts: Alice takes back their move {first}." in board.content and f"<@{alice}> to move" in board.content
    )
    await fake.wait_until(lambda: custom_ids(fake.messages[request.id]) == [], what="the request's buttons gone")
    match = await bot.matches.get(1)
    assert match.ply == 2 and await bot.matches.moves(1) == [] and FISH.to_move(match.state) == 0


async def test_a_declined_takeback_closes_its_buttons(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    await move(fake, bot, thread, "alice")
    request = await ask(fake, thread)
    declined = await fake.click("bob", request, label="Decline")
    assert "Bob declines Alice's takeback" in "".join(m.content for m in declined.followups)
    await fake.wait_for_message(
        lambda m: "Bob declines Alice's takeback" in m.content and not m.ephemeral, channel=thread
    )
    await fake.wait_until(lambda: custom_ids(fake.messages[request.id]) == [], what="the request's buttons gone")
    again = await fake.slash("alice", "fish takeback", channel=thread)
    assert again.ephemeral and "declined on this position" in "".join(
        [again.content or "", *(m.content for m in again.followups)]
    )
    assert (await bot.matches.get(1)).ply == 1


async def test_a_move_meanwhile_lapses_the_request_before_the_next_board(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    await move(fake, bot, thread, "alice")
    request = await ask(fake, thread)
    shown = list(request.components)
    await move(fake, bot, thread, "bob")
    lapsed = await fake.wait_for_message(lambda m: "takeback request lapsed" in m.content, channel=thread)
    assert lapsed.id < boards(fake, thread)[-1].id  # said before the new board
    await fake.wait_until(lambda: custom_ids(fake.messages[request.id]) == [], what="the request's buttons gone")
    fake.messages[request.id].components = shown  # a client that still shows them
    stale = await fake.click("bob", fake.messages[request.id], label="Accept")
    text = (stale.content or "") + "".join(m.content for m in stale.followups)
    assert "This takeback request has lapsed" in text and (await bot.matches.get(1)).ply == 2


async def test_a_request_expires_after_the_move_allowance(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake, clock="2/600")
    await move(fake, bot, thread, "alice")
    request = await ask(fake, thread)
    shown = list(request.components)
    assert "within 2 seconds" in request.content
    expired = await fake.wait_for_message(lambda m: "takeback request expired" in m.content, channel=thread, timeout=10)
    assert "Bob did not accept within 2 seconds" in expired.content
    await fake.wait_until(lambda: custom_ids(fake.messages[request.id]) == [], what="the request's buttons gone")
    fake.messages[request.id].components = shown  # a client that still shows them
    late = await fake.click("bob", fake.messages[request.id], label="Accept")
    assert late.ephemeral and "This takeback request has expired" in (late.content or "")
    assert (await bot.matches.get(1)).ply == 1


async def test_a_request_is_answered_after_a_restart(fake: DiscordFake, bot: GameBot, db_path: Path) -> None:
    thread = await challenge(fake)
    await move(fake, bot, thread, "alice")
    request = await ask(fake, thread)
    await fake.wait_until(lambda: bot.matches.takebacks.open_request(1).message is not None, what="the post recorded")  # type: ignore[union-attr]
    await bot.close()
    async with fake.run(make_bot(fake, db_path)) as restarted:
        again: GameBot = restarted  # type: ignore[assignment]
        await fake.wait_until(lambda: again._repost_task is not None and again._repost_task.done(), what="resumed")
        assert not any("back after a restart" in m.content for m in fake.channel_messages(thread))  # untimed: quiet
        accepted = await fake.click("bob", request, label="Accept")
        assert "Bob accepts: Alice takes back" in "".join(m.content for m in accepted.followups)
        await fake.wait_until(lambda: custom_ids(fake.messages[request.id]) == [], what="the request's buttons gone")
        assert await again.matches.moves(1) == []


async def test_a_death_match_refuses_takebacks(fake: DiscordFake, bot: GameBot) -> None:
    options = {"player1": "alice", "player2": "bob", "first": "alice", "move_seconds": 600, "reserve_seconds": 600}
    await fake.slash("mod", "fish dm", options)
    thread = fake.threads[-1]
    await move(fake, bot, thread, "alice")
    refused = await fake.slash("alice", "fish takeback", channel=thread)
    text = (refused.content or "") + "".join(m.content for m in refused.followups)
    assert "death match: takebacks are for casual games only" in text
    assert not any("asks to take back" in m.content for m in fake.channel_messages(thread))


async def test_a_claim_is_refused_with_the_time_left_then_ends_the_game(fake: DiscordFake, db_path: Path) -> None:
    clock = FakeTime(time.time())
    bot = make_bot(fake, db_path)
    bot.time = clock
    async with fake.run(bot):
        thread = await challenge(fake)
        await move(fake, bot, thread, "alice")
        clock.advance(CLAIM_AFTER - 3 * 3600)
        early = await fake.slash("alice", "fish claim", channel=thread)
        text = (early.content or "") + "".join(m.content for m in early.followups)
        assert early.ephemeral and "You can claim in 3 hours." in text
        clock.advance(3 * 3600)
        claimed = await fake.slash("alice", "fish claim", channel=thread)
        reason = "Alice claimed the win: Bob did not move for 7 days"
        assert f"Claimed: {reason}." in "".join(m.content for m in claimed.followups)
        final = await fake.wait_for_message(lambda m: "Game over" in m.content, channel=thread)
        assert f"Alice wins ({reason})" in final.content and "A moderator is told" in final.content
        assert custom_ids(final) == []
        match = await bot.matches.get(1)
        assert match.result is not None and match.result.termination is Termination.CLAIM
