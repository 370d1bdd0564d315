"""The shared side panel (renderers/panel.py): with the worst names, every text shows inside its box (whole,
or a start of it cut with "…" where its slot is full), no two texts overlap, the picture is tall enough for
the panel, and a finished game marks nobody to move but frames its winners."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games import GAMES
from renderers import PANELS, render
from renderers.draw import HIGHLIGHT, Caption, SeatClock, length
from renderers.panel import MIN_SIZE, Layout, break_lines, canvas, cut_lines, fit_lines, lay_out

SEATS = {"fish": (2,), "volcano": (1, 3, 6), "themiscyra": (2,), "geyser": (2, 4), "horizon": (2,)}
WORST_NAMES = (
    "W" * 32,
    "Hard computer (Mmmmmmmmmmmmmmmmm)",
    "山田太郎のアカウント名前山田太郎のアカウント名前",
    "M" * 32,
    "WWWW WWWW WWWW WWWW WWWW WWWW WW",
    "ÆØÅ Ŵŵ Ẅẅ ẀẁẂẃ ÆØÅ Ŵŵ Ẅẅ ẀẁẂẃ ÆØ",
)
HEADER = f"Death match · game 2 of 3 · {WORST_NAMES[0]} 1 – {WORST_NAMES[1]} 0"
RESULT = f"{WORST_NAMES[0]} wins on time ({WORST_NAMES[1]}'s reserve time ran out)"


def playout(key: str, seats: int, seed: int, cap: int = 400) -> list[object]:
    game, rng = GAMES[key], random.Random(seed)
    states = [game.new(seats, seed)]
    while game.to_move(states[-1]) is not None and len(states) < cap:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


def captions(seats: int) -> Iterator[Caption]:
    names = WORST_NAMES[:seats]
    clocks = tuple(SeatClock(86_400 * 6 + 3_600, 86_400 * 29, running=seat == 0) for seat in range(seats))
    yield Caption(names=names, clocks=clocks, header=HEADER)
    yield Caption(names=names, clocks=clocks, header=HEADER, paused=True, result=RESULT)
    yield Caption(names=names)
    yield Caption(names=tuple(f"p{seat}" for seat in range(seats)), clocks=clocks)  # one-line names beside scores


def cases() -> Iterator[tuple[str, int, int]]:
    for key, counts in SEATS.items():
        for seats in counts:
            yield key, seats, 0


def laid_out(key: str, state: object, viewer: int | None, caption: Caption) -> tuple[Layout, object]:
    panel, left = PANELS[key]
    view = GAMES[key].view(state, viewer)
    return lay_out(panel(view, viewer, caption), left, 800), view


def joined(words: str) -> str:
    return "".join(words.split())


def shown_or_cut(lines: tuple[str, ...] | list[str], words: str) -> bool:
    """The lines give the whole text, or a start of it that ends in "…" (a slot is full: the post's words
    and the alt text say the rest)."""
    drawn = joined("".join(lines))
    if drawn == joined(words):
        return True
    return drawn.endswith("…") and len(drawn) > 1 and joined(words).startswith(drawn[:-1])


@pytest.mark.parametrize(("key", "seats", "_"), list(cases()))
def test_every_text_shows_in_full_inside_its_box_with_the_worst_names(key: str, seats: int, _: int) -> None:
    states = playout(key, seats, seed=seats)
    picks = {0, 1, len(states) // 3, len(states) // 2, len(states) - 2, len(states) - 1}
    for index in sorted(p for p in picks if 0 <= p < len(states)):
        for caption in captions(seats):
            for viewer in (None, 0):
                layout, _view = laid_out(key, states[index], viewer, caption)
                check(layout, f"{key} {seats} seats, ply {index}, viewer {viewer}")


def check(layout: Layout, where: str) -> None:
    seen: list[tuple[int, int, int, int]] = []
    for placed in layout.texts:
        left, top, right, bottom = placed.box
        assert layout.left <= left and right <= layout.right and top >= 0 and bottom <= layout.height, (where, placed)
        x0, y0, x1, y1 = placed.extent()
        assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, (
            where,
            placed.words,
            placed.box,
            (x0, y0, x1, y1),
        )
        assert shown_or_cut(placed.lines, placed.words), (where, placed.words, placed.lines)
        assert placed.size >= MIN_SIZE, (where, placed.words)
        for other in seen:  # no text is drawn over another
            assert right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top, (where, placed)
        seen.append(placed.box)
    for _strip, (left, _top, right, bottom) in layout.strips:
        assert layout.left <= left and right <= layout.right and bottom <= layout.height, where


@pytest.mark.parametrize(("key", "seats", "_"), list(cases()))
def test_the_picture_is_tall_enough_for_its_panel(key: str, seats: int, _: int) -> None:
    state = playout(key, seats, seed=1)[1]
    caption = next(captions(seats))
    layout, _view = laid_out(key, state, None, caption)
    image = Image.open(io.BytesIO(render(key, state, caption=caption)))
    assert image.height >= layout.height and image.width == 800


@pytest.mark.parametrize(("key", "seats", "_"), list(cases()))
def test_a_finished_game_marks_nobody_to_move(key: str, seats: int, _: int) -> None:
    final = playout(key, seats, seed=2, cap=20_000)[-1]
    assert GAMES[key].to_move(final) is None
    layout, _view = laid_out(key, final, None, Caption(names=WORST_NAMES[:seats]))
    winners = GAMES[key].outcome(final).winners
    # only the winners' cards are framed, in gold, and say so
    assert [border for _box, _fill, border in layout.boxes if border] == [HIGHLIGHT] * len(winners)
    assert sum(t.words == "★ wins" for t in layout.texts) == len(winners)
    assert not any(t.words.endswith("▶") or t.words.endswith(" to move") for t in layout.texts)
    # and a result given by the caption (time, resignation) takes the turn away from a live position too
    live = playout(key, seats, seed=2)[1]
    layout, _view = laid_out(key, live, None, Caption(names=WORST_NAMES[:seats], result=RESULT))
    assert not any(border for _box, _fill, border in layout.boxes)
    assert any(t.words.startswith(RESULT[:8]) and "wins on time" in t.words for t in layout.texts)  # names cut


def test_a_word_wider_than_the_line_is_broken_between_characters_and_nothing_is_lost() -> None:
    lines = break_lines("W" * 40 + " and more", 17, 150, True)
    assert len(lines) >= 3 and joined("".join(lines)) == "W" * 40 + "andmore"
    size, fitted = fit_lines("Hard computer (Mmmmmmmmmmmmmmmmm)", 20, 250, bold=True, max_lines=2)
    assert size < 20 and len(fitted) <= 2 and "".join(fitted).replace(" ", "") == "Hardcomputer(Mmmmmmmmmmmmmmmmm)"
    # text that fits keeps its size; at the floor a text takes the lines it needs
    assert fit_lines("alice", 17, 150, bold=True) == (17, ["alice"])
    size, many = fit_lines("W" * 200, 17, 150, max_lines=2)
    assert size == MIN_SIZE and len(many) > 2
    # and a slot of two lines cuts them: the first line whole, the second ending in "…" within the width
    cut = cut_lines(many, size, 150, False, 2)
    assert cut[0] == many[0] and cut[1].endswith("…") and len(cut) == 2 and shown_or_cut(cut, "W" * 200)
    assert cut_lines(["alice"], size, 150, False, 2) == ["alice"]
    # a cut just after a name already cut short keeps one "…", not "……" (Geyser's four winners did)
    room = length("ann WWWWWWWW… ", size, True) + length("…", size, True) + 0.5
    assert cut_lines(["ann WWWWWWWW… bo share", "the win"], size, room, True, 1) == ["ann WWWWWWWW…"]


def test_event_horizons_board_names_show_inside_their_rows() -> None:
    from renderers.horizon import board_texts

    states = playout("horizon", 2, seed=5)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for viewer in (None, 0, 1):
            view = GAMES["horizon"].view(state, viewer)
            for caption in captions(2):
                for placed in board_texts(view, viewer, caption):
                    left, top, right, bottom = placed.box
                    x0, y0, x1, y1 = placed.extent()
                    assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, (placed.words, placed)
                    assert shown_or_cut(placed.lines, placed.words), (placed.words, placed.lines)
                    assert placed.size >= MIN_SIZE


@pytest.mark.parametrize(("key", "seats"), [("volcano", 6), ("geyser", 4), ("fish", 2)])
def test_canvas_is_the_background_as_tall_as_the_panel_and_a_fresh_copy_each_time(key: str, seats: int) -> None:
    """What `draw_panel` used to make after the board (the background's rows, then rows of its bottom-left
    colour down to the panel's height), made before it from a cached taller background: never the cached
    image itself, so what one board draws on it is not in the next."""
    import renderers

    module = getattr(renderers, key)
    state = playout(key, seats, seed=2)[5]
    background = module._background(*((state.start_squares,) if key == "geyser" else ()))
    panel = PANELS[key][0](GAMES[key].view(state, None), None, next(captions(seats)))
    image, layout = canvas(background, panel, module.PANEL_LEFT - 4)
    assert layout == lay_out(panel, module.PANEL_LEFT - 4, background.width)
    assert image.size == (background.width, max(background.height, layout.height))
    assert image.crop((0, 0, *background.size)).tobytes() == background.tobytes()
    below = image.crop((0, background.height, image.width, image.height))
    if key != "fish":  # the case it is for: the seats' cards are taller than the board
        assert layout.height > background.height
        assert below.getcolors() == [(below.width * below.height, background.getpixel((0, background.height - 1)))]
    image.paste((255, 0, 255), (0, 0, image.width, image.height))
    again, _ = canvas(background, panel, module.PANEL_LEFT - 4)
    assert again.crop((0, 0, *background.size)).tobytes() == background.tobytes()
