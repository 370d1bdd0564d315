"""The after-the-game graph (renderers/analysis.py): each seat's line where its chances say, in its colour
and with its shape, the swings' numbers on their bands, an end off the board drawn dashed, the legend
kept inside the picture, the alt text within Discord's limit, and the same bytes for the same analysis."""

from __future__ import annotations

import itertools

import pytest

from bot.analysis import Analysis, Point, Step, find_swings, result_chances
from renderers import analysis as chart
from renderers.draw import HIGHLIGHT, MUTED, PANEL, SEAT_COLOURS, length
from tests.renderers.pixels import count, ink_bounds, rgb


def made(
    series: list[tuple[float, ...]],
    *,
    names: tuple[str, ...] = ("alice", "bob"),
    winners: frozenset[int] = frozenset({0}),
    off_board: str | None = None,
) -> Analysis:
    points = [Point(ply, chances, "x") for ply, chances in enumerate(series)]
    steps = [Step(ply % len(names), f"m{ply + 1}") for ply in range(len(series) - 1)]
    result = result_chances(winners, len(names))
    return Analysis(
        "fish", names, len(series) - 1, tuple(points), tuple(find_swings(points, steps)), result, winners,
        "more fish" if off_board is None else off_board, off_board, 12, 7,
    )  # fmt: skip


def near(x: float, y: float, r: int = 6) -> tuple[int, int, int, int]:
    return (round(x) - r, round(y) - r, round(x) + r + 1, round(y) + r + 1)


def test_each_seat_s_line_runs_where_its_chances_say_in_its_colour() -> None:
    series = [(0.8, 0.2)] * 11 + [(0.3, 0.7)] * 10
    found = made(series, winners=frozenset({1}))
    image = rgb(chart.png(found))
    assert image.size == (chart.WIDTH, chart.HEIGHT)
    for ply, (mine, theirs) in ((5, (0.8, 0.2)), (16, (0.3, 0.7))):
        for seat, chance in ((0, mine), (1, theirs)):
            assert count(image, near(*chart.where(found, ply + 0.5, chance)), SEAT_COLOURS[seat], 40) > 10
            other = SEAT_COLOURS[1 - seat]
            assert count(image, near(*chart.where(found, ply + 0.5, chance), 3), other, 40) == 0


def test_the_swings_are_numbered_on_their_bands() -> None:
    series = [(0.5, 0.5), (0.55, 0.45), (0.2, 0.8), (0.25, 0.75), (0.9, 0.1), (0.85, 0.15), (1.0, 0.0)]
    found = made(series)
    assert [s.number for s in found.swings] == [1, 2, 3]
    image = rgb(chart.png(found))
    for swing in found.swings:
        x = (chart.where(found, swing.start, 0)[0] + chart.where(found, swing.end, 0)[0]) / 2
        column = (round(x) - 14, chart.TOP, round(x) + 15, chart.BOTTOM)
        assert count(image, column, HIGHLIGHT, 10) > 200  # the number's yellow disc in its band
    quiet = made([(0.5, 0.5)] * 8)
    assert quiet.swings == () and count(rgb(chart.png(quiet)), (chart.LEFT, chart.TOP, chart.RIGHT, chart.BOTTOM),
                                        HIGHLIGHT, 10) == 0  # fmt: skip


def test_an_end_off_the_board_is_a_dashed_drop_to_the_result() -> None:
    found = made([(0.6, 0.4)] * 10, winners=frozenset({1}), off_board="alice resigned")
    image = rgb(chart.png(found))
    x = round(chart.where(found, found.moves, 0)[0])
    top, bottom = round(chart.where(found, 0, 0.58)[1]), round(chart.where(found, 0, 0.05)[1])
    column = [count(image, (x - 6, y, x + 7, y + 1), SEAT_COLOURS[0], 40) > 0 for y in range(top, bottom)]
    assert any(column) and not all(column)  # alice's chance falls to 0 in dashes


def test_six_long_names_wrap_the_legend_inside_the_picture_and_the_alt_text_fits() -> None:
    names = tuple(f"{'ÉÖ' * 13}{seat} player" for seat in range(6))
    series = [tuple(1 / 6 for _ in range(6))] * 5 + [(0.5, 0.1, 0.1, 0.1, 0.1, 0.1)]
    found = made(series, names=names, winners=frozenset({0}))
    image = rgb(chart.png(found))
    assert image.width == chart.WIDTH and image.height > chart.HEIGHT  # more legend rows, the same plot
    assert count(image, (chart.WIDTH - 6, chart.BOTTOM + 30, chart.WIDTH, image.height), PANEL) == 6 * (
        image.height - chart.BOTTOM - 30
    )  # nothing of the legend runs off the right edge
    alt = chart.describe(found)
    assert len(alt) <= 1024 and alt.startswith("Graph of each player's chance to win")
    assert "(violet line with stars)" in alt


def test_the_same_analysis_gives_the_same_bytes() -> None:
    series = [(0.5, 0.5), (0.6, 0.4), (0.1, 0.9), (0.0, 1.0)]
    won = frozenset({1})
    assert chart.png(made(series, winners=won)) == chart.png(made(series, winners=won))
    assert chart.png(made(series, winners=won)) != chart.png(made([*series[:-1], (0.5, 0.5)], winners=frozenset()))


@pytest.mark.parametrize("moves", [0, 1, 7, 99, 1234])
def test_any_length_is_drawn(moves: int) -> None:
    series = [(0.5, 0.5)] * (min(moves, 99) + 1)
    found = made(series)
    assert chart.png(found).startswith(b"\x89PNG") and chart._ticks(found.moves)[-1] == found.moves


LONG = ("Wilhelmina Featherstonehaugh-Wyn", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "Bartholomew Montgomery-Smythe IV")


@pytest.mark.parametrize("winners", [frozenset({0}), frozenset({0, 2, 4}), frozenset(range(6)), frozenset()])
def test_the_result_under_the_title_fits_in_two_lines_without_an_ellipsis(winners: frozenset[int]) -> None:
    names = tuple(f"{LONG[seat % 3][:30]}{seat}" for seat in range(6))
    found = made([tuple(1 / 6 for _ in range(6))] * 4, names=names, winners=winners)
    lines = chart.subtitle(found, list(names))
    assert 1 <= len(lines) <= chart.SUBTITLE_LINES and "…" not in " ".join(lines)
    assert all(length(line, chart.LABEL_SIZE) <= chart.WIDTH - 36 for line in lines)
    if len(winners) == 1:
        assert names[0] in " ".join(lines)  # one winner keeps its name
    two = made([(0.5, 0.5)] * 4, names=LONG[:2])
    assert chart.subtitle(two, list(LONG[:2])) == [f"{LONG[0]} won (more fish)"]


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_four_to_six_seats_are_small_multiples_each_with_only_its_own_line_in_colour(seats: int) -> None:
    series = [tuple((k + seat) % seats / seats + 0.05 for seat in range(seats)) for k in range(12)]
    found = made(series, names=tuple(f"p{seat}" for seat in range(seats)), winners=frozenset({1}))
    image = rgb(chart.png(found))
    boxes = [chart.cell_box(seats, seat) for seat in range(seats)]
    for a, b in itertools.combinations(boxes, 2):  # panels apart, inside the plot
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    for seat, box in enumerate(boxes):
        assert box[0] >= chart.LEFT and box[2] <= chart.RIGHT and box[1] >= chart.TOP and box[3] <= chart.BOTTOM
        assert count(image, box, SEAT_COLOURS[seat], 30) > 150, seat  # its line, thick
        for other in set(range(seats)) - {seat}:
            assert count(image, box, SEAT_COLOURS[other], 8) == 0, (seat, other)  # the others' in grey


def test_the_move_label_keeps_clear_of_the_left_edge() -> None:
    image = rgb(chart.png(made([(0.5, 0.5)] * 8)))
    bounds = ink_bounds(image, (0, chart.BOTTOM + 5, chart.LEFT - 4, chart.BOTTOM + 32), MUTED)
    assert bounds is not None and bounds[0] >= 14
