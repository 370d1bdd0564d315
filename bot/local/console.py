"""The terminal's screen and keyboard: lines are read with the standard library's `readline` (line editing and
history) in a thread of their own, so the event loop keeps clocks and computers running meanwhile.

Why not prompt_toolkit: the three things the prompt needs are a line editor, quitting at once on Ctrl-C or
Ctrl-D, and the prompt drawn again under output that comes while one types (a computer's move, a flag); the
standard library does all three in this module, so no dependency has to be added for them.

- Ctrl-D (end of input) and Ctrl-C quit at once: the reader thread is a daemon, never waited for, and
  Ctrl-C is the event loop's signal (not a KeyboardInterrupt in the middle of a command); the terminal's
  modes are put back as they were.
- Output that comes while the prompt waits clears the prompt's line, prints, and draws the prompt again
  with what was typed so far (only on a real terminal; piped output gets plain lines).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from typing import Any, TextIO

try:
    import readline
except ImportError:  # Windows: input() still reads a line, without editing or history
    readline = None  # type: ignore[assignment]

try:
    import termios
except ImportError:
    termios = None  # type: ignore[assignment]

PROMPT = "> "
CLEAR_LINE = "\r\x1b[K"
"""Back to the line's start and erase it (ANSI, which every terminal the bot runs in understands)."""


class Console:
    """Reads typed lines and prints the terminal's output without mixing the two (see the module docstring)."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, prompt: str = PROMPT) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.prompt = prompt
        self.waiting = False
        """Whether the prompt is on the screen, waiting for a line (output then draws it again below)."""
        self.redraw = _is_tty(self.stdin) and _is_tty(self.stdout)
        self._modes: Any = None
        if self.redraw and termios is not None:
            with contextlib.suppress(termios.error, OSError, ValueError):
                self._modes = termios.tcgetattr(self.stdin.fileno())

    def write(self, text: str) -> None:
        """Print `text`; while the prompt waits, above it, with the prompt and the typed text drawn again."""
        if self.waiting and self.redraw:
            typed = readline.get_line_buffer() if readline is not None else ""
            self.stdout.write(f"{CLEAR_LINE}{text}\n{self.prompt}{typed}")
        else:
            self.stdout.write(text + "\n")
        self.stdout.flush()

    async def read(self, interrupted: asyncio.Event) -> str | None:
        """The next typed line; None at the end of input (Ctrl-D) or when `interrupted` is set (Ctrl-C)."""
        loop = asyncio.get_running_loop()
        line: asyncio.Future[str | None] = loop.create_future()

        def deliver(text: str | None) -> None:
            if not line.done():
                line.set_result(text)

        def reader() -> None:
            try:
                text: str | None = self._input()
            except (EOFError, KeyboardInterrupt, OSError, ValueError):
                text = None
            with contextlib.suppress(RuntimeError):  # the loop is closed: the terminal has quit
                loop.call_soon_threadsafe(deliver, text)

        self.waiting = True
        threading.Thread(target=reader, name="terminal-input", daemon=True).start()
        stop = asyncio.ensure_future(interrupted.wait())
        try:
            await asyncio.wait([line, stop], return_when=asyncio.FIRST_COMPLETED)  # type: ignore[type-var]
        finally:
            stop.cancel()
            self.waiting = False
        return line.result() if line.done() else None

    def _input(self) -> str:
        if self.stdin is sys.stdin and self.stdout is sys.stdout:
            return input(self.prompt)  # readline's line editing where there is a terminal
        self.stdout.write(self.prompt)
        self.stdout.flush()
        text = self.stdin.readline()
        if not text:
            raise EOFError
        return text.rstrip("\n")

    def close(self) -> None:
        """Put the terminal's modes back as they were (a line being read is left unfinished) and end the line."""
        if self._modes is not None:
            with contextlib.suppress(termios.error, OSError, ValueError):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._modes)


@contextlib.contextmanager
def ctrl_c(interrupted: asyncio.Event) -> Any:
    """While inside, Ctrl-C (SIGINT) sets `interrupted` instead of raising KeyboardInterrupt somewhere."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, interrupted.set)
    except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread (tests)
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
