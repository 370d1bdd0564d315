"""Text fitting (renderers/draw.py `fit` and `wrap`): the same cut as dropping one character at a time,
found in a few short measurements, so a long name costs no more to draw than a normal one."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot.games import GAMES
from renderers import Caption, SeatClock, render
from renderers.draw import NAME_CAP, fit, font, length, text
from renderers.panel import fit_lines
from renderers.replay import replay_gif

SEATS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 4, "horizon": 2}


def one_at_a_time(words: str, size: int, width: float, *, bold: bool = False) -> str:
    """The cut as it was first written: measure, drop the last character, measure again."""
    if length(words, size, bold) <= width:
        return words
    while words and length(words + "…", size, bold) > width:
        words = words[:-1]
    return words.rstrip() + "…"


ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz ",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-'·–",
    "WMiIl1 AVTo",
    "éüßçÅØæœİſ ",
    "日本語中文한국어 ",
    "🙂🎲♟★…",
    "ae\u0301\u0308 ",
]
TEXTS = st.one_of(
    [st.text(alphabet=a, max_size=90) for a in ALPHABETS] + [st.text(alphabet="".join(ALPHABETS), max_size=300)]
)


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    words=TEXTS,
    size=st.sampled_from([11, 12, 13, 14, 15, 16, 17, 18, 26]),
    width=st.floats(0, 420),
    bold=st.booleans(),
)
def test_fit_cuts_where_dropping_one_character_at_a_time_did(words: str, size: int, width: float, bold: bool) -> None:
    assert fit(words, size, width, bold=bold) == one_at_a_time(words, size, width, bold=bold)


class Measured:
    """Counts text measurements (`getlength`) and the characters measured; too many fails at once, so
    the slow cut fails this test instead of hanging it."""

    def __init__(self, limit: int) -> None:
        self.limit, self.calls, self.chars = limit, 0, 0

    def reset(self) -> None:
        self.calls = self.chars = 0
        length.cache_clear()  # count every measurement, not only the ones the cache has not seen


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[Measured]:
    counter = Measured(limit=400)
    original = ImageFont.FreeTypeFont.getlength

    def getlength(self: ImageFont.FreeTypeFont, text: str, *args: object, **kwargs: object) -> float:
        counter.calls += 1
        counter.chars += len(text)
        if counter.calls > counter.limit:
            raise AssertionError(f"more than {counter.limit} text measurements")
        return original(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getlength", getlength)
    yield counter


@pytest.mark.parametrize("length", [2_000, 100_000])
def test_fitting_a_long_text_takes_a_few_short_measurements(measured: Measured, length: int) -> None:
    for words in ("W" * length, "i" * length, "word " * (length // 5), "\u0301" * length):
        measured.reset()
        cut = fit(words, 17, 200, bold=True)
        assert "\u0301" in words or (cut.endswith("…") and len(cut) < 70)
        # (zero-width marks all fit: only they are measured up to TEXT_CAP, 2,000 characters)
        assert measured.calls <= 20 and measured.chars <= 30_000, (words[:8], measured.calls, measured.chars)
        measured.reset()
        _, lines = fit_lines(f"Death match · game 2 of 3 · {words} 1–0 bob", 13, 300, max_lines=2)
        assert len(lines) <= 20 and measured.calls <= 400 and measured.chars <= 40_000, (measured.calls, measured.chars)


def position(key: str) -> object:
    game, rng = GAMES[key], random.Random(key)
    state = game.new(SEATS[key], 3)
    for _ in range(30):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


@pytest.mark.parametrize("key", sorted(SEATS))
def test_a_huge_name_is_cut_before_drawing_and_costs_what_a_normal_one_does(measured: Measured, key: str) -> None:
    state, seats = position(key), SEATS[key]
    clocks = tuple(SeatClock(30, 60, running=seat == 0) for seat in range(seats))
    measured.limit = 3_000  # a panel wraps and shrinks each text: a few hundred measurements a board

    def drawn(names: tuple[str, ...]) -> tuple[bytes, int]:
        measured.reset()
        png = render(key, state, 0, caption=Caption(names=names, clocks=clocks, header=f"{names[0]} vs {names[1]}"))
        return png, measured.calls

    normal, normal_calls = drawn(tuple(f"player {seat}" for seat in range(seats)))
    cut = tuple(f"{seat}" + "W" * (NAME_CAP - 1) + "…" for seat in range(seats))
    huge = tuple(f"{seat}" + "W" * 100_000 for seat in range(seats))
    # the caption cuts the name; only the header, which is not a name, is measured longer (up to 300 characters)
    assert Caption(names=huge).name(0) == cut[0]
    _, cut_calls = drawn(cut)
    huge_png, huge_calls = drawn(huge)
    assert normal != huge_png and huge_calls <= 2 * cut_calls, (normal_calls, cut_calls, huge_calls)


def test_a_replay_with_long_names_measures_as_little_as_one_with_short_names(measured: Measured) -> None:
    game = GAMES["fish"]
    states = [game.new(2, 1)]
    for move in ("A1", "A2", "B1", "B2"):
        states.append(game.play(states[-1], next(m for m in game.legal_moves(states[-1]) if m.startswith(move[0]))))
    measured.limit = 2_000
    measured.reset()
    replay_gif("fish", states, names=("a" * NAME_CAP, "b" * NAME_CAP), title="Match #1")
    longest_kept = measured.calls
    measured.reset()
    replay_gif("fish", states, names=("a" * 1000, "b" * 1000), title="Match #1")
    assert measured.calls <= longest_kept * 1.1, (longest_kept, measured.calls)  # a header may run to 300 characters


@pytest.mark.parametrize("anchor", ["la", "mm", "rm", "ls", "ra"])
def test_cached_text_draws_what_pillow_draws(anchor: str) -> None:
    """`text` draws a line from a cached glyph mask: the very pixels `ImageDraw.text` draws, at whole and
    fractional points alike, and again from the cache."""
    for xy in ((60, 20), (60.5, 20.25), (61.7, -3.5), (-4.25, 30.75)):
        for words, size, bold in (("Wilhelmina 5:01 ½", 16, True), ("move 0:25 + 5:01:02", 17, False)):
            ours, pillows = Image.new("RGB", (160, 50), (20, 30, 40)), Image.new("RGB", (160, 50), (20, 30, 40))
            for _ in range(2):
                text(ImageDraw.Draw(ours), xy, words, size, (250, 200, 10), bold=bold, anchor=anchor)
            for _ in range(2):
                ImageDraw.Draw(pillows).text(xy, words, fill=(250, 200, 10), font=font(size, bold), anchor=anchor)
            assert ours.tobytes() == pillows.tobytes(), (xy, words)
