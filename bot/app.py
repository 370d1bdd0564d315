"""Starting the bot: read the config, open the store and the service, pick the front-end.

A database the bot cannot use (damaged, unreadable, read-only, locked, on a full disk) or a log file it
cannot write stops the start with one line naming the file and the way out, and exit status 1: no
traceback, and in Discord mode before connecting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot import i18n
from bot.backup import BackupSchedule, backups
from bot.computer import Analyst, ComputerPlayers
from bot.config import Config
from bot.db import redact
from bot.i18n import _, pgettext
from bot.local import Terminal
from bot.local.console import Console
from bot.metrics import Metrics, MetricsUnavailable, PrometheusMetrics
from bot.service import DiskFull, MatchService, NotSaved, ServerDefaults
from bot.store import DAMAGED, FULL, LOCKED, NEWER, READ_ONLY, UNREADABLE, Store, StoreUnusable

if TYPE_CHECKING:
    from bot.health import HealthServer

log = logging.getLogger("bot")


def log_path(config: Config) -> Path:
    """The log goes to a file beside the database."""
    return config.database_path.parent / "bot.log"


async def run_offline(config: Config) -> None:
    """The terminal front-end on the configured database: matches and clocks resume where they were. It
    speaks the language of LANG (bot/i18n.py; as far as it is translated yet)."""
    i18n.set_default(i18n.terminal_language())
    store = await Store.open(config.database)
    defaults = ServerDefaults(config.mod_role, config.house_wins, config.limits)  # the terminal's `settings` too
    metrics = PrometheusMetrics() if config.metrics_port is not None else Metrics()
    service = MatchService(store, defaults=defaults, metrics=metrics)
    analyst = Analyst(service, workers=max(1, config.analysis_workers))  # asked for by hand only, offline
    console = Console()
    terminal = Terminal(service, write=console.write, analyst=analyst)
    computers = ComputerPlayers(service, workers=config.computer_workers, hard_seconds=config.hard_seconds)
    terminal.backup_dir, terminal.backup_keep = config.backups, config.backup_keep
    backups = BackupSchedule.start(store, config.backups, config.backup_hours, config.backup_keep)
    health: HealthServer | None = None
    try:
        resumed = await service.start()
        if isinstance(metrics, PrometheusMetrics):
            health = await serve_health(config, service, metrics)
        terminal.write(_("No DISCORD_TOKEN set: starting the offline terminal mode (the same commands, typed here)."))
        terminal.write(
            _("Database: {database}  ·  log: {log}").format(database=database_name(config), log=log_path(config))
        )
        for match in resumed:
            await terminal.back(match)
            computers.poke(match)
        await terminal.repl(console)
    finally:
        if health is not None:
            await health.close()
        if backups is not None:
            await backups.close()
        await computers.close()
        await analyst.close()
        await service.close()
        await store.close()


async def serve_health(config: Config, service: MatchService, metrics: PrometheusMetrics) -> HealthServer:
    """The terminal's /healthz and /metrics (Discord mode's are GameBot's), on METRICS_HOST:METRICS_PORT."""
    from bot.health import Health, HealthServer  # aiohttp is loaded only when they are asked for

    assert config.metrics_port is not None
    health = Health(
        database=service.store.schema_version,
        open_matches=lambda: len(service.running()),
        shards=lambda: (0,),  # offline matches are shard 0's (bot/shards.py)
    )
    return await HealthServer.start(health, metrics, config.metrics_host, config.metrics_port)


async def check_store(config: Config) -> None:
    """Open and check the database (StoreUnusable if the bot cannot use it), then close it again."""
    store = await Store.open(config.database)
    await store.close()


def start_log(config: Config) -> Path:
    """Log to the file beside the database; a folder or file the bot cannot write stops the start."""
    log_file = log_path(config)
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_file, encoding="utf-8")
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise SystemExit(
            told(
                _(
                    "Cannot write the log file {file} ({reason}), so the bot will not start. Make {folder} writable"
                    " for the user running the bot, or set DATABASE_PATH to a database in a writable folder (the log"
                    " goes beside it)."
                ).format(file=log_file, reason=reason, folder=log_file.parent)
            )
        ) from None
    logging.basicConfig(
        handlers=[handler], level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # aiosqlite logs every SQL statement with its parameters at DEBUG: stored states, hidden cards and seeds
    # included. The bot's log must never hold those, whatever LOG_LEVEL says.
    for name in ("aiosqlite", "asyncpg"):
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLevelName(config.log_level)))
    return log_file


def database_name(config: Config) -> str:
    """The database as people may read it: the SQLite file, or the PostgreSQL URL without its password."""
    return redact(config.database_url) if config.database_url else str(config.database_path)


def refusal(config: Config, error: StoreUnusable | NotSaved) -> str:
    """One line for the person starting the bot: which file, what is wrong, and the way out."""
    if config.database_url is not None:
        return postgres_refusal(config.database_url, error)
    path = config.database_path
    if isinstance(error, DiskFull) or (isinstance(error, StoreUnusable) and error.problem == FULL):
        return _(
            "The database {path} cannot be written: its disk is full. Free some space, then start the bot again."
        ).format(path=path)
    if isinstance(error, NotSaved):
        error = StoreUnusable(str(path), READ_ONLY, _("it became read-only while starting"))
    restore = restore_hint(config)
    if error.problem == DAMAGED:
        way_out = restore_hint(config, sentence=True)
        return _("The database {path} is damaged ({detail}), so the bot will not start on it. {way_out}").format(
            path=path, detail=error.detail, way_out=way_out
        )
    if error.problem == LOCKED:
        return _("The database {path} is locked ({detail}). Stop the other program, then start the bot again.").format(
            path=path, detail=error.detail
        )
    if error.problem == NEWER:
        return _(
            "The database {path} is from a newer version of the bot ({detail}). Run that one, or {way_out}"
        ).format(path=path, detail=error.detail, way_out=restore)
    if error.problem == READ_ONLY:
        said = _(
            "The database {path} is read-only ({detail}), so the bot will not start on it. Make it and its folder"
            " writable for the user running the bot, or {way_out}"
        )
    else:
        said = _(
            "The database {path} is unreadable ({detail}), so the bot will not start on it. Make it and its folder"
            " readable and writable for the user running the bot, or {way_out}"
        )
    return said.format(path=path, detail=error.detail, way_out=restore)


def postgres_refusal(url: str, error: StoreUnusable | NotSaved) -> str:
    """The same line for a PostgreSQL database (DATABASE_URL): its server, not a file, is what to fix."""
    where = redact(url)
    if isinstance(error, NotSaved):
        return _(
            "The PostgreSQL database {where} did not take a write while starting ({reason}). Start the bot again."
        ).format(where=where, reason=error)
    if error.problem == NEWER:
        return _("The PostgreSQL database {where} is from a newer version of the bot ({detail}). Run that one.").format(
            where=where, detail=error.detail
        )
    if error.problem == FULL:
        said = _(
            "The PostgreSQL database {where} is full ({detail}), so the bot will not start. Free some space on its"
            " server."
        )
    elif error.problem == READ_ONLY:
        said = _(
            "The PostgreSQL database {where} is read-only ({detail}), so the bot will not start. Point DATABASE_URL at"
            " a primary server and a user that may create and write tables."
        )
    else:
        said = _(
            "The PostgreSQL database {where} is {problem} ({detail}), so the bot will not start. Check that its"
            " server runs and DATABASE_URL's host, port, user, password and database."
        )
    return said.format(where=where, problem=problem_word(error.problem), detail=error.detail)


def problem_word(problem: str) -> str:
    """What is wrong with a database, in a word of the reader's language ("damaged", "locked")."""
    words = {
        DAMAGED: pgettext("database", "damaged"),
        UNREADABLE: pgettext("database", "unreadable"),
        READ_ONLY: pgettext("database", "read-only"),
        LOCKED: pgettext("database", "locked"),
        FULL: pgettext("database", "full"),
    }
    return words.get(problem, problem)


def restore_hint(config: Config, sentence: bool = False) -> str:
    """How to put the newest backup in place (README.md, "Backups"), in one sentence: the end of one ("...,
    or restore the newest backup: ..."), or a sentence of its own (`sentence`)."""
    database = config.database_path
    try:
        newest = backups(config.backups)[-1:]
    except OSError:
        newest = []
    source = shlex.quote(str(newest[0])) if newest else "BACKUP"
    steps = _(
        '{copy}, delete {wal} and {shm} beside it if they are there, and start the bot again (README.md, "Backups").'
    ).format(copy=f"`cp {source} {shlex.quote(str(database))}`", wal=f"{database.name}-wal", shm=f"{database.name}-shm")
    if newest:
        said = _("Restore the newest backup: {steps}") if sentence else _("restore the newest backup: {steps}")
        return said.format(steps=steps)
    if sentence:
        return _("Restore a backup (none found in {folder}): {steps}").format(folder=config.backups, steps=steps)
    return _("restore a backup (none found in {folder}): {steps}").format(folder=config.backups, steps=steps)


def run(config: Config | None = None, argv: Sequence[str] = ()) -> None:
    """`python3 -m bot`: the bot; `python3 -m bot migrate --to postgresql://…` (argv), the copy to PostgreSQL."""
    admin = i18n.terminal_language()  # who starts the bot reads its words in the language of LANG
    with i18n.using(admin):
        config = config or Config.load()
        if argv:
            raise SystemExit(command(config, argv))
        log_file = start_log(config)
    try:
        if config.discord_token:
            asyncio.run(check_store(config))  # refused here, before connecting to Discord
            from bot.discord_login import NotConnected, run_discord

            with i18n.using(admin):
                said = _("Connecting to Discord (database: {database}, log: {log}).")
                print(told(said.format(database=database_name(config), log=log_file)))
            try:
                with contextlib.suppress(KeyboardInterrupt):
                    run_discord(config)  # a store refused in setup_hook after all ends up below too
            except NotConnected as error:
                log.error("not connected: %s", error, exc_info=error.__cause__)
                if config.log_level == "DEBUG":
                    traceback.print_exception(error.__cause__ or error)
                raise SystemExit(str(error)) from None
            return
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_offline(config))
    except (StoreUnusable, NotSaved) as error:
        with i18n.using(admin):
            line = told(refusal(config, error))
        log.error("not starting: %s", line)
        raise SystemExit(line) from None
    except MetricsUnavailable as error:  # METRICS_PORT taken, or METRICS_HOST not this machine's
        log.error("not starting: %s", error)
        raise SystemExit(str(error)) from None


def command(config: Config, argv: Sequence[str]) -> int:
    """A maintenance command instead of the bot; its exit status."""
    if argv[0] == "migrate":
        from bot import migrate

        return asyncio.run(migrate.run(argv[1:], config.database_path))
    said = _("Unknown command {typed}. Run {bot} for the bot, or {migrate}.").format(
        typed=repr(argv[0]), bot="`python3 -m bot`", migrate="`python3 -m bot migrate --to URL`"
    )
    print(told(said))
    return 2


def told(text: str) -> str:
    """A line for the person starting the bot, as they read it (the tests' marks read and taken out)."""
    return i18n.said(text, "start")
