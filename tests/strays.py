"""The marking run over the Discord and terminal suites (bot/i18n.py `marking`): English a player reads that
skipped the catalog fails the test that made it be said.

`BOT_I18N_STRAYS` says what a stray does: `fail` (the default), `report` (appended to the file named by
`BOT_I18N_STRAYS_FILE`, default `strays.txt` in the temporary folder: a list to work through while marking
strings), or `off` (no marks at all)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bot import i18n
from bot.models import COMPUTER_LEVELS, computer

MODE = os.environ.get("BOT_I18N_STRAYS", "fail")
REPORT = Path(os.environ.get("BOT_I18N_STRAYS_FILE") or Path(tempfile.gettempdir()) / "strays.txt")


@contextlib.contextmanager
def marking() -> Iterator[None]:
    """Marks every looked-up string inside the block, unless the run is `off`."""
    with contextlib.nullcontext() if MODE == "off" else i18n.marking():
        yield


COMPUTER_NAMES = frozenset(computer(level, n).name for level in COMPUTER_LEVELS for n in range(1, 7))
"""The computer players' names ("Easy computer"): names as stored, like a person's, not English to read."""

NOT_THE_BOT = ("tests/test_discord_fake.py", "tests/test_discord_fake_ratelimits.py")
"""The fake's own tests: they send Discord English of their own through discord.py, not the bot's words."""


def found(who: str, strays: list[str]) -> list[str]:
    """What fails the test: the strays (in `fail` mode), each once; in `report` mode they go to the report."""
    unique = list(dict.fromkeys(strays))
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0]
    if not unique or MODE == "off" or test.startswith(NOT_THE_BOT):
        return []
    if MODE == "report":
        with REPORT.open("a", encoding="utf-8") as report:
            report.writelines(f"{test}\t{who}\t{line}\n" for line in unique)
        return []
    return ["English that skipped the catalog (mark it with _()):\n  " + "\n  ".join(unique)]
