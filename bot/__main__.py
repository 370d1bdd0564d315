"""`python3 -m bot`: run the bot. With DISCORD_TOKEN set it connects to Discord; without, it starts the
offline terminal front-end and says so.

On a fresh machine it first makes its own virtualenv (.venv beside the project), installs the project
into it and restarts itself there, so the only thing needed beforehand is Python 3.11+.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _have_dependencies() -> bool:
    try:
        import aiosqlite  # noqa: F401
        import discord  # noqa: F401
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True


def _bootstrap() -> None:
    """Install into .venv and re-run there (once: BOT_BOOTSTRAPPED stops a loop if installing fails)."""
    if os.environ.get("BOT_BOOTSTRAPPED"):
        raise SystemExit("The dependencies are still missing after installing them; see the errors above.")
    print("First run: creating .venv and installing the bot's dependencies (this takes a minute)...", flush=True)
    if not VENV_PYTHON.exists():
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
    subprocess.check_call([str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    subprocess.check_call([str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "-e", str(ROOT)])
    os.environ["BOT_BOOTSTRAPPED"] = "1"
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), "-m", "bot", *sys.argv[1:]])


def main() -> None:
    if not _have_dependencies():
        _bootstrap()
    from bot.app import run

    run()


if __name__ == "__main__":
    main()
