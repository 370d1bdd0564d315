"""Starting in Discord mode when Discord says no, or cannot be reached: one line of our own (what happened,
what to do) and exit status 1; discord.py's traceback only with LOG_LEVEL=DEBUG.

The strict fake refuses a wrong token (REST 401 and gateway close 4004, as Discord does), privileged intents
the application has not enabled (close 4014) and command syncs for a server the bot is not in (403 50001).
"""

from __future__ import annotations

import contextlib
import socket
from pathlib import Path

import discord
import pytest
from discord.http import Route

from bot import app
from bot.config import Config
from bot.discord_login import NotConnected, serve
from tests.discord_fake import DiscordFake


def config_for(db: Path, **settings: str) -> Config:
    values = {"DISCORD_TOKEN": "fake-token", "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO", **settings}
    return Config.load(values, dotenv=None)


async def test_a_rejected_token_is_one_line_saying_where_to_get_a_new_one(fake: DiscordFake, db_path: Path) -> None:
    with pytest.raises(NotConnected) as refused:
        await serve(config_for(db_path, DISCORD_TOKEN="bogus", DEV_GUILD_ID=str(fake.guild.id)))
    line = str(refused.value)
    assert line.startswith("Discord rejected DISCORD_TOKEN (401 Unauthorized)")
    assert "Reset Token" in line and "\n" not in line
    assert fake.identify_payload is None  # refused at login, before the gateway


async def test_privileged_intents_not_enabled_in_the_portal(
    fake: DiscordFake, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our bot asks for none; should a version ask for the members intent, the portal must enable it."""
    monkeypatch.setattr(discord.Intents, "default", classmethod(lambda cls: cls(guilds=True, members=True)))
    with pytest.raises(NotConnected) as refused:
        await serve(config_for(db_path, DEV_GUILD_ID=str(fake.guild.id)))
    assert "privileged intents that are not enabled" in str(refused.value)
    assert "Privileged Gateway Intents" in str(refused.value)


async def test_a_dev_guild_the_bot_is_not_in(fake: DiscordFake, db_path: Path) -> None:
    with pytest.raises(NotConnected) as refused:
        await serve(config_for(db_path, DEV_GUILD_ID="123456789012345678"))
    line = str(refused.value)
    assert line.startswith("Discord refused to publish the bot's commands in server 123456789012345678 (DEV_GUILD_ID)")
    assert "applications.commands" in line
    assert [(r.status, r.code) for r in fake.rejected] == [(403, 50001)]
    fake.rejected.clear()  # what this test arranged


async def test_the_right_token_still_connects(fake: DiscordFake, db_path: Path) -> None:
    """The checks above refuse only what is wrong: the fake's own token logs in and identifies."""
    config = config_for(db_path, DEV_GUILD_ID=str(fake.guild.id))
    from bot.discord_app import GameBot

    async with fake.run(GameBot(config)) as bot:
        assert bot.is_ready() and fake.identify_payload is not None


@contextlib.contextmanager
def discord_at(base: str):  # type: ignore[no-untyped-def]
    saved = Route.BASE
    Route.BASE = base
    try:
        yield
    finally:
        Route.BASE = saved


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


def start(config: Config, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """`app.run` as `python3 -m bot` runs it; the exit message."""
    monkeypatch.setattr(app, "start_log", lambda config: tmp_path / "bot.log")
    with pytest.raises(SystemExit) as exit:
        app.run(config)
    assert isinstance(exit.value.code, str)
    return exit.value.code


def test_discord_unreachable_is_one_line_and_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    with discord_at(f"http://127.0.0.1:{closed_port()}/api/v10"):
        line = start(config_for(tmp_path / "bot.sqlite3"), monkeypatch, tmp_path)
    assert line.startswith("Cannot reach Discord: connecting to 127.0.0.1 failed (connect call failed")
    assert "internet connection" in line
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err


def test_a_name_that_does_not_resolve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with discord_at("http://discord.invalid/api/v10"):  # .invalid never resolves (RFC 6761)
        line = start(config_for(tmp_path / "bot.sqlite3"), monkeypatch, tmp_path)
    assert line.startswith("Cannot reach Discord: looking up discord.invalid failed.")


def test_debug_prints_the_traceback_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    with discord_at(f"http://127.0.0.1:{closed_port()}/api/v10"):
        line = start(config_for(tmp_path / "bot.sqlite3", LOG_LEVEL="DEBUG"), monkeypatch, tmp_path)
    assert line.startswith("Cannot reach Discord")
    assert "Traceback" in capfd.readouterr().err
