"""Settings from the environment, or from a `.env` file beside the project (the environment wins).

See `.env.example` for what each setting means.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, dotenv: Path | None = ROOT / ".env") -> Config:
        values = read_dotenv(dotenv) if dotenv is not None else {}
        values.update(os.environ if environ is None else environ)

        def get(key: str) -> str | None:
            value = values.get(key, "").strip()
            return value or None

        guild = get("DEV_GUILD_ID")
        if guild is not None and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise SystemExit(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        database = Path(get("DATABASE_PATH") or DEFAULT_DATABASE)
        hard = get("COMPUTER_HARD_SECONDS") or "5"
        try:
            hard_seconds = float(hard)
        except ValueError:
            hard_seconds = 0.0
        if not 0.1 <= hard_seconds <= 60:
            raise SystemExit(f"COMPUTER_HARD_SECONDS must be a number of seconds from 0.1 to 60, not {hard!r}.")
        workers = get("COMPUTER_WORKERS") or "1"
        if not workers.isdigit() or not 1 <= int(workers) <= 16:
            raise SystemExit(f"COMPUTER_WORKERS must be a whole number from 1 to 16, not {workers!r}.")
        return cls(
            discord_token=get("DISCORD_TOKEN"),
            database_path=database if database.is_absolute() else ROOT / database,
            dev_guild_id=int(guild) if guild else None,
            mod_role=get("MOD_ROLE"),
            log_level=level,
            house_wins=(get("HOUSE_WINS_WORDING") or "on").lower() not in ("off", "0", "false", "no"),
            hard_seconds=hard_seconds,
            computer_workers=int(workers),
        )


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
