"""Connecting to Discord, and the one line to say when it fails.

Whoever starts the bot sees what went wrong and what to do about it (exit status 1), not discord.py's
traceback: the log file keeps the traceback, and with LOG_LEVEL=DEBUG it is printed too.
"""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import discord

from bot.config import Config
from bot.discord_app import bot_for

PORTAL = "https://discord.com/developers/applications"

CLOSE_CODES = {
    4004: "it rejected the bot's token",
    4010: "the shard number is invalid",
    4011: "the bot is in too many servers for one connection and must be sharded",
    4012: "the gateway version is not supported (update discord.py)",
    4013: "the intents the bot asked for are invalid",
    4014: "the bot asks for privileged intents that are not enabled for it",
}


class NotConnected(Exception):
    """The bot could not connect to Discord; the message says why and what to do, in one line."""


async def serve(config: Config) -> None:
    """Log in, connect and run until closed; NotConnected when Discord cannot be reached or refuses."""
    async with bot_for(config) as bot:
        try:
            await bot.start(config.discord_token or "")
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
            line = refusal(config, error)
            if line is None:
                raise
            raise NotConnected(line) from error


def run_discord(config: Config) -> None:
    asyncio.run(serve(config))


def refusal(config: Config, error: BaseException) -> str | None:
    """What went wrong connecting, and the way out; None for an error that is not about connecting."""
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot's token again from the developer"
            f" portal ({PORTAL} → your application → Bot → Reset Token) into .env, then start the bot again."
        )
    if isinstance(error, discord.PrivilegedIntentsRequired) or (
        isinstance(error, discord.ConnectionClosed) and error.code == 4014
    ):
        return (
            "Discord refused the connection: the bot asks for privileged intents that are not enabled for it."
            f" Enable them in the developer portal ({PORTAL} → your application → Bot → Privileged Gateway"
            " Intents), then start the bot again."
        )
    if isinstance(error, discord.ConnectionClosed):
        why = CLOSE_CODES.get(error.code or 0, f"close code {error.code}")
        return f"Discord closed the connection: {why}. See the log ({error.reason or 'no reason given'})."
    if isinstance(error, discord.Forbidden):
        where = f"server {config.dev_guild_id} (DEV_GUILD_ID)" if config.dev_guild_id else "Discord"
        return (
            f"Discord refused to publish the bot's commands in {where} ({error.status} {error.text or 'Forbidden'})."
            " Invite the bot to that server with the scopes `bot` and `applications.commands` (README.md,"
            ' "Running it in Discord"), or correct or unset DEV_GUILD_ID.'
        )
    if isinstance(error, (discord.DiscordServerError, discord.GatewayNotFound)):
        return "Discord is having trouble right now (see https://discordstatus.com): start the bot again later."
    if isinstance(error, discord.HTTPException):
        return f"Discord refused the bot while starting ({error.status} {error.text}). See the log for details."
    if isinstance(error, aiohttp.ClientConnectorError) and isinstance(error.os_error, socket.gaierror):
        return (
            f"Cannot reach Discord: looking up {error.host} failed. Check this machine's internet connection and DNS,"
            " then start the bot again (without DISCORD_TOKEN it starts the offline terminal mode)."
        )
    if isinstance(error, aiohttp.ClientConnectorError):
        reason = (error.strerror or str(error.os_error) or "no answer").lower()
        return (
            f"Cannot reach Discord: connecting to {error.host} failed ({reason}). Check this machine's internet"
            " connection (and any proxy or firewall), then start the bot again."
        )
    if isinstance(error, (aiohttp.ClientError, OSError, TimeoutError)):
        detail = str(error) or type(error).__name__
        return f"Cannot reach Discord ({detail}). Check this machine's internet connection, then start again."
    return None
