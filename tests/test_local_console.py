"""`python -m bot` in a real (pseudo-)terminal, typed at as a person does: Ctrl-C and Ctrl-D quit at once and
cleanly, computers' workers included, and the prompt is drawn again under a computer's move."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60.0
"""Seconds to wait for the bot's output before the test fails (a loaded machine is slow to start it)."""
CTRL_C, CTRL_D = "\x03", "\x04"


def _controlling_terminal() -> None:
    """In the child: make the pseudo-terminal its controlling terminal, so Ctrl-C becomes SIGINT."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Screen:
    """The bot in a pseudo-terminal: what was typed and what it showed, as a person at a terminal sees it."""

    def __init__(self, database: Path, language: str = "C.UTF-8") -> None:
        env = {
            **os.environ,
            **{name: "" for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")},
            "LANG": language,  # the terminal speaks the language of LANG
            "DISCORD_TOKEN": "",
            "DATABASE_PATH": str(database),
            "BACKUP_HOURS": "0",
            "TERM": "xterm",
        }
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=ROOT,
            env=env,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            preexec_fn=_controlling_terminal,
        )
        os.close(slave)
        self.shown = ""
        self.ended = False

    def wait_for(self, text: str, after: int = 0) -> int:
        """Read until `text` is on the screen past position `after`; where it is."""
        while (where := self.shown.find(text, after)) < 0:
            assert self._read(), f"{text!r} never came; the screen ends:\n{self.shown[-1500:]}"
        return where

    def wait_for_prompt(self, after: int = 0) -> int:
        """Read until the prompt waits at the end of the screen, past `after` (the help shows "> " too)."""
        while not (self.shown.endswith("\n> ") and len(self.shown) - 2 > after and self._quiet()):
            assert self._read(), f"no prompt came; the screen ends:\n{self.shown[-1500:]}"
        return len(self.shown) - 2

    def _quiet(self) -> bool:
        """Nothing more to read for a moment (a long output may break just after a "> " of its own)."""
        return not select.select([self.master], [], [], 0.3)[0]

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def end(self) -> int:
        """Read to the end (the bot has quit) and give its exit status."""
        while self._read():
            pass
        assert self.ended, f"the bot is still running; the screen ends:\n{self.shown[-1500:]}"
        return self.process.wait(WAIT)

    def _read(self) -> bool:
        """One read of the screen; False when the bot quit or nothing came for WAIT seconds."""
        ready, _, _ = select.select([self.master], [], [], WAIT)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the bot quit: the terminal's other side is closed
            data = b""
        if not data:
            self.ended = True
            return False
        self.shown += data.decode(errors="replace").replace("\r\n", "\n")
        return True

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(WAIT)
        os.close(self.master)


@pytest.fixture
def screen(tmp_path: Path) -> Screen:
    started = Screen(tmp_path / "data" / "bot.sqlite3")
    yield started
    started.close()


def assert_clean(shown: str) -> None:
    assert "Traceback" not in shown and "KeyboardInterrupt" not in shown, shown[-2000:]


def test_ctrl_c_at_the_prompt_quits_at_once_with_a_computer_worker_started(screen: Screen) -> None:
    screen.wait_for_prompt()
    screen.type("fish new computer:easy alice\r")
    screen.wait_for("alice to move")  # the computer has placed: its worker process is running
    screen.wait_for_prompt(screen.wait_for("alice to move"))
    screen.type("fish mo")  # half a line, not entered: Ctrl-C does not wait for Enter
    screen.type(CTRL_C)
    assert screen.end() == 0
    assert_clean(screen.shown)


def test_ctrl_d_at_the_prompt_quits(screen: Screen) -> None:
    screen.wait_for_prompt()
    screen.type(CTRL_D)
    assert screen.end() == 0
    assert_clean(screen.shown)


def test_the_prompt_is_drawn_again_after_a_computers_move(screen: Screen) -> None:
    screen.wait_for_prompt()
    screen.type("fish new alice computer:easy --seed 5\r")
    screen.wait_for("alice to move")
    screen.type("fish move A1\r")
    moved = screen.wait_for("Easy computer places a token")
    screen.wait_for("alice to move", moved)
    screen.wait_for_prompt(moved)  # a prompt under the computer's move, ready for the next line
    screen.type("quit\r")
    assert screen.end() == 0


def test_after_a_restart_the_running_match_is_found_and_an_untimed_one_gets_no_clock(tmp_path: Path) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    before = Screen(database)
    try:
        before.wait_for_prompt()
        before.type("fish new alice bob --seed 5\r")
        before.wait_for("alice to move")
        before.type("quit\r")
        assert before.end() == 0
    finally:
        before.close()
    after = Screen(database)
    try:
        back = after.wait_for("Back after a restart")
        assert after.shown[back:].startswith("Back after a restart.")  # an untimed game: no clock to speak of
        after.wait_for_prompt(back)
        after.type("fish move A1\r")
        moved = after.wait_for('On match #1, the only running "1, 2, 3" match.')
        after.wait_for_prompt(after.wait_for("alice places a token on A1.", moved))
        assert list((tmp_path / "data" / "renders" / "bot").glob("match-1-ply-001-*.png"))  # beside the database
        after.type(CTRL_D)
        assert after.end() == 0
    finally:
        after.close()


def test_a_german_terminal_plays_a_game_in_german(tmp_path: Path) -> None:
    """`LANG=de_DE.UTF-8 python -m bot`: the start, the help, a refusal, the resign question and its answer
    come in German; what is typed stays the English commands."""
    screen = Screen(tmp_path / "data" / "bot.sqlite3", language="de_DE.UTF-8")
    try:
        screen.wait_for("Kein DISCORD_TOKEN gesetzt: der Offline-Terminalmodus startet")
        screen.wait_for("Ein erstes Spiel in fünf Zeilen")
        screen.wait_for_prompt()
        screen.type("fish new alice bob --seed 5\r")
        started = screen.wait_for_prompt(screen.wait_for("Brett: "))
        screen.type("fisch new alice bob\r")
        screen.wait_for("Unbekannter Befehl 'fisch'; tipp help für die Liste.", started)
        asked = screen.wait_for_prompt(started)
        screen.type("fish resign\r")
        screen.wait_for('alice, Partie #1 ("1, 2, 3") aufgeben? Tipp yes zum Aufgeben, no zum Weiterspielen.', asked)
        answered = screen.wait_for_prompt(asked)
        screen.type("no\r")
        screen.wait_for("Nicht aufgegeben: Partie #1 geht weiter.", answered)
        screen.wait_for_prompt(answered)
        screen.type("quit\r")
        assert screen.end() == 0
        assert "Unknown command" not in screen.shown and "Commands (" not in screen.shown
        assert_clean(screen.shown)
    finally:
        screen.close()
