"""How long `python3 -m bot` takes to reach the terminal prompt, the way a player starts it.

Run: python3 bench/startup.py [--runs N]   (the system Python, as in the README, not .venv's)
Each run starts `python3 -m bot` with no DISCORD_TOKEN on a fresh database in a temporary folder, waits for
the prompt's first line, then types `quit`. The .venv must be installed already (one `python3 -m bot`
first): this times the warm start, which reuses it without reinstalling. Prints p50/p99/max in seconds.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMPT_LINE = "No DISCORD_TOKEN set"


def one_start(database: Path) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "VIRTUAL_ENV", "BOT_BOOTSTRAPPED")}
    env["DATABASE_PATH"] = str(database)
    began = time.perf_counter()
    bot = subprocess.Popen(
        ["python3", "-m", "bot"], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert bot.stdout is not None and bot.stdin is not None
    for line in bot.stdout:
        if "Installing" in line:
            raise SystemExit("The .venv was not current: run `python3 -m bot` once, then time the warm start.")
        if line.startswith(PROMPT_LINE):
            break
    took = time.perf_counter() - began
    bot.communicate("quit\n", timeout=30)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        times = [one_start(Path(folder) / f"bot-{n}.sqlite3") for n in range(runs)]
    ordered = sorted(times)
    p50, p99 = (ordered[min(runs - 1, int(q * runs))] for q in (0.50, 0.99))
    figures = f"p50 {p50:.2f} s, p99 {p99:.2f} s, max {ordered[-1]:.2f} s"
    print(f"python3 -m bot to the prompt, {runs} warm starts: {figures}")


if __name__ == "__main__":
    main()
