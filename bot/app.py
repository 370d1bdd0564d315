"""Starting the bot: read the config, open the store and the service, pick the front-end."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.backup import BackupSchedule
from bot.computer import ComputerPlayers
from bot.config import Config
from bot.local import Terminal
from bot.service import MatchService
from bot.store import Store

log = logging.getLogger("bot")


async def run_offline(config: Config) -> None:
    """The terminal front-end on the configured database: matches and clocks resume where they were."""
    store = await Store.open(config.database_path)
    service = MatchService(store)
    terminal = Terminal(service)
    computers = ComputerPlayers(service, workers=config.computer_workers, hard_seconds=config.hard_seconds)
    terminal.backup_dir, terminal.backup_keep = config.backups, config.backup_keep
    backups = BackupSchedule.start(store, config.backups, config.backup_hours, config.backup_keep)
    try:
        resumed = await service.start()
        for match in resumed:
            await terminal.repost(match, "Back after a restart: a fresh move clock, reserves unchanged.")
            computers.poke(match)
        await terminal.repl()
    finally:
        if backups is not None:
            await backups.close()
        await computers.close()
        await service.close()
        await store.close()


def run(config: Config | None = None) -> None:
    config = config or Config.load()
    log_file = config.database_path.parent / "bot.log"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    # The terminal is for the game; the log goes to a file beside the database.
    logging.basicConfig(
        filename=log_file, level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if config.discord_token:
        from bot.discord_app import run_discord

        print(f"Connecting to Discord (database: {config.database_path}, log: {log_file}).")
        run_discord(config)
        return
    print("No DISCORD_TOKEN set: starting the offline terminal mode (the same commands, typed here).")
    print(f"Database: {config.database_path}  ·  log: {log_file}")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_offline(config))
