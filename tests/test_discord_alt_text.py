"""Boards everyone can read, through the real discord.py code against the fake Discord: every image the bot
sends carries alt text (the attachment's description, which the fake checks against Discord's 1,024 and
keeps), and `/<game> board text:True` answers with the position in words, privately, within 2,000
characters a message."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from bot import discord_limits as limits
from bot import posts
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.i18n import unmarked
from renderers import Caption, describe
from renderers.alt_text import ALT_LIMIT, text_board
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, boards
from tests.test_discord import play, start_challenge

FISH = GAMES["fish"]


async def test_every_board_post_carries_the_alt_text_of_its_position(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread, plies=5)
    posted = boards(fake, thread)
    assert len(posted) == 6
    for message in posted:
        (picture,) = message.attachments
        assert picture.data.startswith(PNG) and picture.description
        assert len(picture.description) <= ALT_LIMIT
        assert (
            picture.description.startswith('"1, 2, 3" board, Match #1. ')
            and "Tokens of Alice (orange)" in picture.description
        )
    match = await bot.matches.get(1)
    last = posted[-1].attachments[0].description
    assert last == unmarked(describe("fish", match.state, posts.caption(bot.matches, match, 0.0)))  # untimed: no clock
    assert f"{match.players[FISH.to_move(match.state)].name} (" in last and "Last move: " in last

    shown = await fake.slash("carol", "fish board", {"match": 1})
    assert not shown.ephemeral and shown.files[0].description == last
    rules = await fake.slash("carol", "fish rules")
    assert rules.ephemeral and rules.files[0].description.startswith('"1, 2, 3" board, The board and its coordinates.')


async def test_board_text_answers_privately_with_the_position_in_words(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread, plies=9)
    before = len(fake.channel_messages(thread))
    reply = await fake.slash("carol", "fish board", {"match": 1, "text": True}, channel=thread)
    assert reply.ephemeral and not reply.files
    match = await bot.matches.get(1)
    words = unmarked(text_board("fish", match.state, posts.caption(bot.matches, match, 0.0)))
    assert reply.content == discord.utils.escape_markdown(words)
    lines = (reply.content or "").split("\n")
    assert [line[:6] for line in lines if line.startswith("Row ")] == [f"Row {r}:" for r in "ABCDEFGH"]
    assert any(line.startswith("Score: Alice ") for line in lines) and "Last move: " in (reply.content or "")
    assert len(fake.channel_messages(thread)) == before  # nothing public

    # Themiscyra's board command (with its areas) takes text too
    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    stones = await fake.slash("carol", "themiscyra board", {"match": 2, "text": True})
    assert stones.ephemeral and (stones.content or "").startswith("Themiscyra board, Match #2.")
    assert "Row 10: a10 to j10 empty." in (stones.content or "")


async def test_a_long_text_board_comes_in_several_messages(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text board over 2,000 characters (the longest, six Volcano players with 32-character names, reach
    about 2,600) is sent as several private messages, each within the limit, cut between lines."""
    from bot.cogs import base

    def longer(key: str, state: Any, caption: Caption) -> str:
        return text_board(key, state, caption) + "".join(f"\n№ {n}: " + "lorem ipsum " * 13 for n in range(30))

    monkeypatch.setattr(base, "text_board", longer)
    thread = await start_challenge(fake)
    match = await bot.matches.get(1)
    said = discord.utils.escape_markdown(longer("fish", match.state, posts.caption(bot.matches, match, 0)))
    pages = [unmarked(page) for page in limits.split(said)]  # split as the cog does (a marking run's marks and all)
    expected = unmarked(said)
    assert len(pages) >= 3
    reply = await fake.slash("carol", "fish board", {"match": 1, "text": True}, channel=thread)
    messages = [reply.message, *await reply.wait_followups(len(pages) - 1)]
    assert all(m is not None and m.ephemeral for m in messages)
    texts = [m.content for m in messages if m is not None]
    assert all(len(text) <= 2000 for text in texts) and texts == pages
    assert "\n".join(texts) == expected


async def test_the_replay_gif_and_the_private_hand_have_alt_text(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread)
    replay = fake.channel_messages(thread)[-1]
    (gif,) = replay.attachments
    assert gif.filename.endswith(".gif") and gif.description
    assert gif.description.startswith('Replay of match #1, move by move, ending on this position. "1, 2, 3" board')
    assert "Game over" in gif.description and len(gif.description) <= ALT_LIMIT

    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    match = await bot.matches.get(2)
    seat = match.seats_of(match.players[0].id)[0]
    hand = await fake.slash("alice", "horizon hand", {"match": 2})
    assert hand.ephemeral and hand.files[0].data.startswith(PNG)
    caption = Caption(names=match.names, header="Match #2 · only you see this")
    assert hand.files[0].description == unmarked(describe("horizon", match.state, caption, viewer=seat))
    assert "Your hand: " in hand.files[0].description


@pytest.mark.parametrize("size", [1024, 1025])
async def test_the_fake_keeps_a_description_and_refuses_one_over_1024(
    fake: DiscordFake, bot: GameBot, size: int
) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    picture = discord.File(io.BytesIO(PNG), "board.png", description="d" * size)
    if size > 1024:
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("♟", file=picture)
        assert refused.value.status == 400 and "description" in refused.value.text
        fake.rejected.clear()  # the refusal was the point
        return
    sent = await channel.send("♟", file=picture)
    (kept,) = fake.channel_messages(fake.channel("general"))[-1].attachments
    assert sent.attachments[0].description == kept.description == "d" * 1024
