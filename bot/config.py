"""Settings from the environment, or from a `.env` file beside the project (the environment wins).

See `.env.example` for what each setting means.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.i18n import _
from bot.models import UserLimits
from bot.shards import ShardError, ShardPlan

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = ROOT / "data" / "bot.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True, slots=True)
class Config:
    discord_token: str | None
    database_path: Path
    dev_guild_id: int | None
    mod_role: str | None
    log_level: str
    house_wins: bool
    hard_seconds: float = 5.0
    """The longest a hard computer player thinks about one move."""
    computer_workers: int = 1
    """Processes that think for computer players (each uses one core while thinking)."""
    analysis_workers: int = 1
    """Processes that make the after-the-game analyses (ANALYSIS_WORKERS); 0 turns analyses off."""
    backup_dir: Path | None = None
    """Where backups go (bot/backup.py); None: a `backups` folder beside the database."""
    backup_hours: float = 24.0
    """Hours between scheduled backups; 0 turns them off."""
    backup_keep: int = 7
    """How many backups are kept (the oldest go first)."""
    limits: UserLimits = field(default_factory=UserLimits)
    """What one person may have open at once in a server (LIMIT_LOBBIES, LIMIT_CHALLENGES, LIMIT_COMPUTER_GAMES)."""
    metrics_port: int | None = None
    """The port of GET /healthz and GET /metrics (bot/health.py); None (METRICS_PORT empty): not served."""
    metrics_host: str = "127.0.0.1"
    """The address they listen on (METRICS_HOST): this machine only unless told otherwise."""
    database_url: str | None = None
    """DATABASE_URL: a `postgresql://` URL puts the store on that PostgreSQL; None: the SQLite file database_path."""
    shards: ShardPlan = field(default_factory=ShardPlan)
    """SHARD_COUNT and SHARD_IDS (bot/shards.py): the Discord shards this process runs, and so its matches."""

    @property
    def backups(self) -> Path:
        return self.backup_dir if self.backup_dir is not None else self.database_path.parent / "backups"

    @property
    def database(self) -> Path | str:
        """What `Store.open` is given: the PostgreSQL URL when DATABASE_URL is set, else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, dotenv: Path | None = ROOT / ".env") -> Config:
        values = read_dotenv(dotenv) if dotenv is not None else {}
        values.update(os.environ if environ is None else environ)

        def get(key: str) -> str | None:
            value = values.get(key, "").strip()
            return value or None

        guild = get("DEV_GUILD_ID")
        if guild is not None and not guild.isdigit():
            raise SystemExit(_("DEV_GUILD_ID must be a server id (digits), not {typed}.").format(typed=repr(guild)))
        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise SystemExit(
                _("LOG_LEVEL must be one of {levels}, not {typed}.").format(
                    levels=", ".join(LOG_LEVELS), typed=repr(level)
                )
            )
        database = Path(get("DATABASE_PATH") or DEFAULT_DATABASE)
        hard = get("COMPUTER_HARD_SECONDS") or "5"
        try:
            hard_seconds = float(hard)
        except ValueError:
            hard_seconds = 0.0
        if not 0.1 <= hard_seconds <= 60:
            raise SystemExit(
                _("COMPUTER_HARD_SECONDS must be a number of seconds from 0.1 to 60, not {typed}.").format(
                    typed=repr(hard)
                )
            )
        workers = get("COMPUTER_WORKERS") or "1"
        if not workers.isdigit() or not 1 <= int(workers) <= 16:
            raise SystemExit(
                _("COMPUTER_WORKERS must be a whole number from 1 to 16, not {typed}.").format(typed=repr(workers))
            )
        analysts = get("ANALYSIS_WORKERS") or "1"
        if not analysts.isdigit() or not 0 <= int(analysts) <= 16:
            raise SystemExit(
                _("ANALYSIS_WORKERS must be a whole number from 0 (no analyses) to 16, not {typed}.").format(
                    typed=repr(analysts)
                )
            )
        backup_dir, backup_hours, backup_keep = _backup_settings(get)
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            database_path=database if database.is_absolute() else ROOT / database,
            dev_guild_id=int(guild) if guild else None,
            mod_role=get("MOD_ROLE"),
            log_level=level,
            house_wins=(get("HOUSE_WINS_WORDING") or "on").lower() not in ("off", "0", "false", "no"),
            hard_seconds=hard_seconds,
            computer_workers=int(workers),
            analysis_workers=int(analysts),
            backup_dir=backup_dir,
            backup_hours=backup_hours,
            backup_keep=backup_keep,
            limits=UserLimits(*(_count(get, key, default) for key, default in LIMITS)),
            metrics_port=_port(get("METRICS_PORT")),
            metrics_host=get("METRICS_HOST") or "127.0.0.1",
            database_url=_database_url(get("DATABASE_URL")),
            shards=_shards(values),
        )


def _shards(values: Mapping[str, str]) -> ShardPlan:
    try:
        return ShardPlan.from_env(values)
    except ShardError as error:
        raise SystemExit(str(error)) from None


LIMITS = (("LIMIT_LOBBIES", 3), ("LIMIT_CHALLENGES", 5), ("LIMIT_COMPUTER_GAMES", 3))


def _count(get: Callable[[str], str | None], key: str, default: int) -> int:
    text = get(key) or str(default)
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 1000:
        raise SystemExit(
            _("{setting} must be a whole number from 1 to 1000, not {typed}.").format(setting=key, typed=repr(text))
        )
    return int(text)


def _database_url(text: str | None) -> str | None:
    """DATABASE_URL: empty (the SQLite file DATABASE_PATH), or a PostgreSQL URL."""
    if text is None:
        return None
    if not text.startswith(("postgresql://", "postgres://")):
        shown = text.split("://")[0] + "://…" if "://" in text else text[:40]
        raise SystemExit(
            _(
                "DATABASE_URL must be a postgresql://user:password@host:port/database URL, or empty for the SQLite"
                " file DATABASE_PATH; not {typed}."
            ).format(typed=repr(shown))
        )
    return text


def _port(text: str | None) -> int | None:
    """METRICS_PORT: a port from 1 to 65535, or None when it is empty (no /healthz or /metrics)."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise SystemExit(
            _("METRICS_PORT must be a port number from 1 to 65535 (or empty for none), not {typed}.").format(
                typed=repr(text)
            )
        )
    return int(text)


def _backup_settings(get: Callable[[str], str | None]) -> tuple[Path, float, int]:
    """BACKUP_DIR (default data/backups), BACKUP_HOURS (default 24, 0 = off), BACKUP_KEEP (default 7)."""
    folder = Path(get("BACKUP_DIR") or "data/backups")
    folder = folder if folder.is_absolute() else ROOT / folder
    if folder.exists() and not folder.is_dir():
        raise SystemExit(_("BACKUP_DIR must be a folder, but {path} is a file.").format(path=repr(str(folder))))
    text = get("BACKUP_HOURS") or "24"
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 <= hours <= 8760:  # NaN fails too
        raise SystemExit(
            _("BACKUP_HOURS must be a number of hours from 0 (no scheduled backups) to 8760, not {typed}.").format(
                typed=repr(text)
            )
        )
    keep = get("BACKUP_KEEP") or "7"
    if not keep.isascii() or not keep.isdigit() or not 1 <= int(keep) <= 1000:
        raise SystemExit(
            _("BACKUP_KEEP must be a whole number of backups from 1 to 1000, not {typed}.").format(typed=repr(keep))
        )
    return folder, hours, int(keep)


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped; surrounding quotes removed."""
    if not path.is_file():
        return {}
    values = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values
