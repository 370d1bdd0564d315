"""Helpers for tests that drive the real bot against tests/discord_fake.py (the fixtures are in conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.config import Config
from bot.discord_app import GameBot
from tests.discord_fake import DiscordFake

PNG = b"\x89PNG\r\n\x1a\n"


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
