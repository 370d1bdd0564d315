"""The analysis after the game and `/<game> analysis`, through the real discord.py code against the fake
Discord: posted after the final board (and its replay), with alt text, the same picture on demand, and
every refusal private."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.computer import Analyst
from bot.discord_app import GameBot
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, boards
from tests.test_computer import InlineExecutor
from tests.test_discord import play, start_challenge

BUDGET = 12


@pytest.fixture
def analysed(bot: GameBot) -> GameBot:
    """The bot with an analyst of a small budget that searches on the event loop's thread."""
    bot.analyst = Analyst(bot.matches, executor=InlineExecutor(), iterations=BUDGET)
    return bot


def analysis_posts(fake: DiscordFake, channel: Any) -> list[Any]:
    return [m for m in fake.channel_messages(channel) if any("analysis" in a.filename for a in m.attachments)]


async def finish(fake: DiscordFake, bot: GameBot) -> Any:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread)
    assert not (await bot.matches.get(1)).running
    await fake.wait_until(lambda: analysis_posts(fake, thread), what="the analysis post")
    return thread


async def test_the_analysis_follows_the_final_board_with_alt_text(fake: DiscordFake, analysed: GameBot) -> None:
    thread = await finish(fake, analysed)
    final = next(m for m in reversed(boards(fake, thread)) if "Game over" in m.content)
    replay = next(m for m in fake.channel_messages(thread) if "replay of match #1" in m.content)
    (post,) = analysis_posts(fake, thread)
    assert final.id < replay.id < post.id  # after the final board, and after the replay that follows it
    (picture,) = post.attachments
    assert picture.filename == "fish-1-analysis.png" and picture.data.startswith(PNG)
    assert picture.description and len(picture.description) <= 1024
    assert picture.description.startswith("Graph of each player's chance to win, move by move")
    assert "Alice (orange line with dots) and Bob (blue line with squares)" in picture.description
    assert post.content.startswith("Win chances of match #1") and len(post.content) <= 2000
    assert not post.pings.users and not post.pings.unsafe
    match = await analysed.matches.get(1)
    assert f"{match.ply} moves" in post.content

    # on demand, for anyone, anywhere in the server: the same picture and words
    asked = await fake.slash("carol", "fish analysis", {"match": 1}, channel="general")
    assert not asked.ephemeral and asked.content == post.content
    assert [(f.filename, f.data) for f in asked.files] == [(picture.filename, picture.data)]


async def test_analysis_refusals_are_private(fake: DiscordFake, analysed: GameBot) -> None:
    missing = await fake.slash("carol", "fish analysis", {"match": 42})
    assert missing.ephemeral and "no match #42" in (missing.content or "") and not missing.files
    nothing = await fake.slash("carol", "fish analysis", channel="general")
    assert nothing.ephemeral and "/fish analysis match:12" in (nothing.content or "")
    thread = await start_challenge(fake)
    running = await fake.slash("carol", "fish analysis", {"match": 1})
    assert running.ephemeral and "still running" in (running.content or "") and not running.files
    here = await fake.slash("alice", "fish analysis", channel=thread)
    assert here.ephemeral and "still running" in (here.content or "")
    other = await fake.slash("carol", "volcano analysis", {"match": 1})
    assert other.ephemeral and "is a game of" in (other.content or "") and "/fish analysis match:1" in other.content
    await play(fake, analysed, 1, thread)
    busy = Analyst(analysed.matches, executor=InlineExecutor(), iterations=BUDGET, most_waiting=0)
    analysed.analyst = busy
    refused = await fake.slash("carol", "fish analysis", {"match": 1})
    assert refused.ephemeral and "ask again" in (refused.content or "")


class Failing(InlineExecutor):
    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the analysis worker is broken")


async def test_a_failed_analysis_leaves_the_game_s_end_alone(
    fake: DiscordFake, bot: GameBot, caplog: pytest.LogCaptureFixture
) -> None:
    bot.analyst = Analyst(bot.matches, executor=Failing(), iterations=BUDGET)
    thread = await start_challenge(fake)
    with caplog.at_level(logging.ERROR, logger="bot.discord_app"):
        await play(fake, bot, 1, thread)
        await fake.wait_until(lambda: "could not make the analysis of match 1" in caplog.text, what="the log line")
    assert "Game over" in boards(fake, thread)[-1].content
    assert not analysis_posts(fake, thread) and "the analysis worker is broken" in caplog.text
    assert (await bot.matches.get(1)).result is not None


async def test_with_analyses_turned_off_nothing_follows_the_final_board_and_the_command_says_why(
    fake: DiscordFake, bot: GameBot
) -> None:
    """ANALYSIS_WORKERS=0 (the tests' default bot): no analysis is made, and /analysis refuses in words."""
    assert bot.analyst is None
    reply = await fake.slash("alice", "fish analysis", {"match": 1})
    assert reply.ephemeral and "turned off" in (reply.content or "")
