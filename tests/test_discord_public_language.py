"""Public posts in the server's language, private answers in the user's (issue #37), through the real bot
and the fake Discord: a German server's thread name, board post and its buttons are German while an
English player's private answer there stays English; in an English server a German player's private
answer is German and the board stays English. `/settings set language` overrides Discord's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import i18n
from bot.discord_app import GameBot
from bot.discord_reminders import ReminderPoster
from tests.discord_fake import DiscordFake
from tests.discord_helpers import RATE_SCALE, boards, custom_ids

german = pytest.mark.parametrize("guild_locale", ["de"])


@pytest.fixture
def guild_locale() -> str:
    return "en-US"


@pytest.fixture
async def fake(guild_locale: str) -> AsyncIterator[DiscordFake]:
    """A server whose Discord language (its Primary Language) is `guild_locale` from the start."""
    async with DiscordFake.serve(rate_scale=RATE_SCALE) as fake:
        fake.guild.locale = guild_locale
        yield fake


async def challenge(fake: DiscordFake, locale: str = "en-US") -> Any:
    """alice (in `locale`) challenges bob to Fish and bob accepts: the match's thread."""
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, locale=locale)
    accept = next(button for button in custom_ids(asked.message) if button.startswith("challenge:"))
    await fake.click("bob", asked.message, accept)  # its label is in the server's language
    return fake.threads[-1]


def labels(message: Any) -> set[str]:
    return {c.get("label") for row in message.components for c in row.get("components", []) if c.get("label")}


@german
async def test_a_german_server_posts_in_german_and_an_english_player_is_answered_in_english(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await challenge(fake)
    assert thread.name.endswith("#1: Alice gegen Bob")
    (board,) = boards(fake, thread)
    assert "ist am Zug" in board.content and "to move" not in board.content
    assert {"Meine Züge", "Aufgeben"} <= labels(board)
    asked = await fake.slash("alice", "fish resign", {"match": 1})  # private, to an English user
    assert asked.ephemeral and (asked.content or "").startswith("Resign match #1? ")


async def test_an_english_server_posts_in_english_and_a_german_player_is_answered_in_german(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await challenge(fake, locale="de")
    assert " vs " in thread.name
    (board,) = boards(fake, thread)
    assert "to move" in board.content and {"My moves", "Resign"} <= labels(board)
    asked = await fake.slash("alice", "fish resign", {"match": 1}, locale="de")
    assert asked.ephemeral and (asked.content or "").startswith("Partie #1 aufgeben? ")


@german
async def test_the_language_setting_wins_over_discord_s(fake: DiscordFake, bot: GameBot) -> None:
    await fake.slash("mod", "settings set", {"setting": "language", "value": "fr"})
    thread = await challenge(fake)
    assert " contre " in thread.name
    (board,) = boards(fake, thread)
    assert "Au tour de" in board.content and {"Mes coups", "Abandonner"} <= labels(board)


@german
async def test_reminders_speak_the_server_s_language(fake: DiscordFake, bot: GameBot) -> None:
    """A reminder, in the thread or by DM, is worded in the server's language: a player's own Discord
    language is known only while they interact (bot/discord_reminders.py)."""
    await challenge(fake)
    match = await bot.matches.get(1)
    poster: ReminderPoster = bot.reminders
    with i18n.using(bot.public_language(match.place.guild_id)):
        said = i18n.unmarked(poster.digest([match], {}))
    assert said.startswith('Du bist am Zug in "1, 2, 3" #1 (Alice gegen Bob): du bist am Zug.')
