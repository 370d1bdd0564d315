"""`python3 -m bot`: run the bot. With DISCORD_TOKEN set it connects to Discord; without, it starts the
offline terminal front-end and says so.

On a fresh machine it first makes its own virtualenv (.venv beside the project), installs the project
into it and restarts itself there, so the only thing needed beforehand is Python 3.11+. Later starts reuse
that .venv at once: it is installed again only when pyproject.toml changed (a stamp in .venv holds the
hash of the pyproject.toml it was installed from), and if that install fails (no package index reachable)
a .venv that still has every dependency is used as it is.
"""

from __future__ import annotations

import gettext
import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
STAMP = VENV / "boardgame-bot.installed"
DEPENDENCIES = ("aiosqlite", "asyncpg", "discord", "PIL", "prometheus_client")
_ = gettext.translation("bot", ROOT / "bot" / "locale", fallback=True).gettext
"""Words said before the dependencies are there (Babel among them): the standard library's gettext reads the
same compiled catalogs, in the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG, as bot/i18n.py does."""


def _have_dependencies() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in DEPENDENCIES)


def fingerprint() -> str:
    """What an install depends on: the project's pyproject.toml."""
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def venv_is_current() -> bool:
    """Whether .venv was installed by us from this very pyproject.toml."""
    try:
        return VENV_PYTHON.exists() and STAMP.read_text(encoding="utf-8").strip() == fingerprint()
    except OSError:
        return False


def _venv_has_dependencies() -> bool:
    imports = "; ".join(f"import {name}" for name in DEPENDENCIES)
    return (
        VENV_PYTHON.exists() and subprocess.run([str(VENV_PYTHON), "-c", imports], capture_output=True).returncode == 0
    )


def _install() -> bool:
    """Create .venv if needed and install the project into it; True when it worked (then stamped)."""
    print(_("Installing the bot's dependencies into .venv (only when pyproject.toml changed)..."), flush=True)
    try:
        if not VENV_PYTHON.exists():
            subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
        subprocess.check_call([str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "-e", str(ROOT)])
    except (OSError, subprocess.CalledProcessError):
        return False
    STAMP.write_text(fingerprint() + "\n", encoding="utf-8")
    return True


def _restart_in_venv() -> None:
    """Run `python -m bot` again with .venv's Python (BOT_BOOTSTRAPPED stops a loop if that one lacks them)."""
    if os.environ.get("BOT_BOOTSTRAPPED"):
        raise SystemExit(
            _("The bot's dependencies are still missing in {folder}; delete that folder and start again.").format(
                folder=VENV
            )
        )
    os.environ["BOT_BOOTSTRAPPED"] = "1"
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), "-m", "bot", *sys.argv[1:]])


def bootstrap() -> None:
    """From a Python without the dependencies: into .venv, installing it first only when it is not current."""
    if not venv_is_current() and not _install():
        if not _venv_has_dependencies():
            raise SystemExit(
                _(
                    "Could not install the bot's dependencies into .venv (see pip's errors above): check that this"
                    " machine can reach the Python package index (pypi.org), then run `python3 -m bot` again."
                )
            )
        print(_("Could not update .venv (see above); starting with the dependencies it already has."), flush=True)
    _restart_in_venv()


def main() -> None:
    if not _have_dependencies():
        bootstrap()
    from bot.app import run

    run(argv=sys.argv[1:])


if __name__ == "__main__":
    main()
