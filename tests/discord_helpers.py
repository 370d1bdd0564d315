"""Helpers for tests that drive the real bot against tests/discord_fake/ (the fixtures are in conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.config import Config
from bot.discord_app import GameBot
from tests.discord_fake import DiscordFake

PNG = b"\x89PNG\r\n\x1a\n"

RATE_SCALE = 0.1
"""The bot's tests run Discord's rate limits ten times faster (5 posts per 0.5 s in a channel): on, but
quick. The fake's own tests and the benches keep Discord's real windows."""


def make_bot(fake: DiscordFake, db: Path) -> GameBot:
    config = Config(
        discord_token="fake-token",
        database_path=db,
        dev_guild_id=fake.guild.id,
        mod_role="Game Master",
        log_level="INFO",
        house_wins=True,
        analysis_workers=0,  # no analysis behind every finished game (tests/test_discord_analysis.py sets its own)
    )
    return GameBot(config)


def boards(fake: DiscordFake, channel: Any) -> list[Any]:
    """The board posts in a channel: messages that carry a PNG (the end-of-game replay is a GIF)."""
    return [m for m in fake.channel_messages(channel) if any(a.filename.endswith(".png") for a in m.attachments)]


def custom_ids(message: Any) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row.get("components", []) if "custom_id" in c]


def board_of(reply: Any) -> Any:
    """The new board a move's answer carried (bot/answers.py): the answer itself for a command, its first
    followup for a click; public, with its picture."""
    answered = reply.message if reply.type in (4, 5) else None  # a click's message is the board clicked
    messages = [m for m in (answered, *reply.followups) if m is not None and not m.ephemeral]
    with_board = [m for m in messages if any(a.filename.endswith(".png") for a in m.attachments)]
    assert with_board, f"no board in the answer: {reply}"
    return with_board[0]


def was_played(reply: Any) -> bool:
    """Whether a move's answer says it was played: the new board itself (bot/answers.py, where the move was
    made in the match's place), or privately "Played: …" (its board went to the match's thread)."""
    if (reply.content or "").startswith("Played"):
        return True
    answered = reply.message if reply.type in (4, 5) else None
    messages = [m for m in (answered, *reply.followups) if m is not None and not m.ephemeral]
    return any(any(a.filename.endswith(".png") for a in m.attachments) for m in messages)
