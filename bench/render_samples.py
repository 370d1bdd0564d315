"""Times board renders and writes sample images to look at.

Run from the repository root: `.venv/bin/python -m bench.render_samples [out_dir]` (default /tmp).
Prints p50/p99 render time (draw + PNG) over mid-game positions of random games.

`--phone` writes instead every game's start, middle and end at its most seats with 32-character names
(Latin, CJK, Thai, an emoji), each also scaled to 450 px wide as a phone shows it (`*_phone.png`): the
pictures to open when judging a board as a player would. `--lang de` (or es, fr, pt_BR, qps) draws them in that
language, as a server set to it sees them; the files are named with it (`volcano_end_de.png`).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

from bot import i18n
from bot.games import GAMES
from bot.games.fish import FishMove, FishState
from renderers import Caption, SeatClock, render
from renderers.fish import tile_centre

FISH = GAMES["fish"]


def playout(seed: int) -> list[FishState]:
    """Every state of one game of random legal moves, from the empty board to the end."""
    rng = random.Random(seed)
    states = [FISH.new(2, seed)]
    while FISH.to_move(states[-1]) is not None:
        states.append(FISH.play(states[-1], rng.choice(FISH.legal_moves(states[-1]))))
    return states


def diagonal_length(state: FishState) -> float:
    """How long the last move's arrow is, if it is a diagonal (0 otherwise): the hardest arrow to draw."""
    move = FishMove.parse(state.last_move or "")
    if move.src is None or tile_centre(move.src)[1] == tile_centre(move.dst)[1]:
        return 0.0
    return math.dist(tile_centre(move.src), tile_centre(move.dst))


def samples(out: Path) -> list[Path]:
    names = ("alice", "bob")
    clocks = (SeatClock(30, 41.2, running=False), SeatClock(12.4, 60, running=True))
    game = playout(7)
    auto = next((s for s in game if s.cleared and FISH.to_move(s) is not None), game[-1])
    longest = max(game[10:30], key=diagonal_length)
    wanted = {
        "fish_placement_done.png": (game[8], Caption(names=names)),
        "fish_midgame.png": (longest, Caption(names=names, header="Casual game")),
        "fish_auto_scored.png": (auto, Caption(names=names)),
        "fish_finished.png": (game[-1], Caption(names=names, header="Death match · game 2 of 3 · alice 1–0 bob")),
        "fish_clock_paused.png": (
            game[15],
            Caption(names=names, clocks=clocks, header="Death match · game 1 of 3", paused=True),
        ),
    }
    paths = []
    for file_name, (state, caption) in wanted.items():
        path = out / file_name
        path.write_bytes(render("fish", state, caption=caption))
        paths.append(path)
    return paths


def bench(runs: int = 100) -> tuple[float, float]:
    """p50 and p99 milliseconds of render() over mid-game positions, sprite caches warm as in a running bot."""
    positions = [s for seed in range(20) for s in playout(seed)[10:40:6]]
    caption = Caption(names=("alice", "bob"), clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False)))
    for state in positions:
        render("fish", state, caption=caption)
    times = []
    for k in range(runs):
        start = time.perf_counter()
        render("fish", positions[k % len(positions)], caption=caption)
        times.append((time.perf_counter() - start) * 1000)
    percentiles = statistics.quantiles(times, n=100)
    return percentiles[49], percentiles[98]


def phone_samples(out: Path, seed: int = 3, language: str = i18n.ENGLISH) -> list[Path]:
    """Each game's start, middle and end (a random game at its most seats), full size and 450 px wide."""
    out.mkdir(parents=True, exist_ok=True)
    from tests.renderers.test_phone import NAMES  # the phone test's long names: one list for both

    paths = []
    for key, game in sorted(GAMES.items()):
        seats, rng = game.max_players, random.Random(seed)
        states = [game.new(seats, seed)]
        while game.to_move(states[-1]) is not None and len(states) < 3000:
            states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
        for when, state in (("start", states[0]), ("middle", states[len(states) // 2]), ("end", states[-1])):
            turn = game.to_move(state)
            clocks = tuple(SeatClock(25, 3_600 * 5 + 62, running=seat == turn) for seat in range(seats))
            caption = Caption(names=NAMES[:seats], clocks=clocks, header="Match #1234")
            tail = "" if language == i18n.ENGLISH else f"_{language}"
            full = out / f"{key}_{when}{tail}.png"
            with i18n.using(language):
                full.write_bytes(render(key, game.view(state, None), caption=caption))
            image = Image.open(full)
            phone = out / f"{key}_{when}{tail}_phone.png"
            image.resize((450, round(image.height * 450 / image.width)), Image.Resampling.LANCZOS).save(phone)
            paths += [full, phone]
    return paths


if __name__ == "__main__":
    language = i18n.ENGLISH
    if "--lang" in sys.argv:
        at = sys.argv.index("--lang")
        language = sys.argv[at + 1]
        del sys.argv[at : at + 2]
    if "--phone" in sys.argv:
        sys.argv.remove("--phone")
        for path in phone_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp"), language=language):
            print(path)
        sys.exit()
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp")
    for path in samples(out_dir):
        print(path)
    p50, p99 = bench()
    print(f"render fish: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
