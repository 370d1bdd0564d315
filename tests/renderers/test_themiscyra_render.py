"""The Themiscyra board image: a valid, deterministic PNG whose pixels show stones, rings, the last turn,
the open areas on request, and the players."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.games import GAMES
from bot.games.themiscyra import SQUARE_NAMES, ThemiscyraState, open_areas, parse_square
from renderers import Caption, SeatClock, render, themiscyra
from renderers.draw import HIGHLIGHT, LAST_MOVE, TEXT
from renderers.panel import Layout, lay_out
from tests.renderers.pixels import (
    Box,
    cards,
    check_the_mover,
    count,
    ink_bounds,
    ink_right,
    name_text,
    rgb,
    same,
    seat_boxes,
)

THEMISCYRA = GAMES["themiscyra"]
NAMES = ("alice", "bob")
AREAS = frozenset({"areas"})
BLACK, WHITE = themiscyra.STONE_FILL
PLAIN_SQUARE = {themiscyra.SQUARE_LIGHT, themiscyra.SQUARE_DARK, themiscyra.GRID_LINE}


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes every row: a broken stream fails here
    return image


def crop(image: Image.Image, name: str) -> Image.Image:
    return image.crop(themiscyra.square_box(parse_square(name)))


def colours_in(image: Image.Image, name: str) -> set[tuple[int, ...]]:
    return {c for _, c in crop(image, name).getcolors(1 << 16) or []}


def centre(name: str) -> tuple[int, int]:
    return themiscyra.square_centre(parse_square(name))


def board(image: Image.Image) -> bytes:
    return image.crop((0, 0, themiscyra.PANEL_LEFT - 4, themiscyra.HEIGHT)).tobytes()


def panel(image: Image.Image) -> Image.Image:
    return image.crop((themiscyra.PANEL_LEFT, 0, themiscyra.WIDTH, themiscyra.HEIGHT))


def playout(seed: int) -> list[ThemiscyraState]:
    rng = random.Random(seed)
    states = [THEMISCYRA.new(2, seed)]
    while THEMISCYRA.to_move(states[-1]) is not None:
        states.append(THEMISCYRA.play(states[-1], rng.choice(THEMISCYRA.legal_moves(states[-1]))))
    return states


def position_with_holes(holes: str) -> ThemiscyraState:
    """Every square taken (black and white in stripes) except `holes`; no rings, Black to move."""
    empty = {parse_square(n) for n in holes.split()}
    taken = [s for s in range(100) if s not in empty]
    black = " ".join(SQUARE_NAMES[s] for s in taken if (s // 10) % 2 == 0)
    white = " ".join(SQUARE_NAMES[s] for s in taken if (s // 10) % 2 == 1)
    return THEMISCYRA.state_from_position(black, white, "")


def area_squares(state: ThemiscyraState) -> set[int]:
    return {s for area in open_areas(state.empty) for s in range(100) if area >> s & 1}


def test_a_valid_png_about_800_wide() -> None:
    image = open_png(render("themiscyra", THEMISCYRA.new(2, 1)))
    assert image.mode == "RGB"
    assert image.size == (themiscyra.WIDTH, themiscyra.HEIGHT)
    assert 760 <= image.width <= 840 and 560 <= image.height <= 700


def test_same_state_and_caption_give_identical_bytes() -> None:
    state = playout(3)[20]
    caption = Caption(names=NAMES, clocks=(SeatClock(30, 60, False), SeatClock(5, 4, True)), header="x", overlays=AREAS)
    assert render("themiscyra", state, caption=caption) == render("themiscyra", state, caption=caption)


def test_a1_is_bottom_left_and_j10_top_right_on_the_board() -> None:
    a1, a10, j1, j10 = (centre(n) for n in ("a1", "a10", "j1", "j10"))
    assert a1[0] == a10[0] < j1[0] == j10[0]
    assert a10[1] == j10[1] < a1[1] == j1[1]
    assert themiscyra.square_box(parse_square("j10"))[2] < themiscyra.PANEL_LEFT
    boxes = [themiscyra.square_box(s) for s in range(100)]
    assert all(b[2] - b[0] == b[3] - b[1] == themiscyra.square_box(0)[2] - themiscyra.square_box(0)[0] for b in boxes)
    _, top, right, _ = themiscyra.square_box(parse_square("e5"))
    assert themiscyra.square_box(parse_square("f5"))[0] == right  # neighbouring boxes touch, never overlap
    assert themiscyra.square_box(parse_square("e6"))[3] == top


def test_black_and_white_stones_and_rings_show_on_their_squares() -> None:
    state = THEMISCYRA.state_from_position("c3 d4", "e5 f6", "d4 f6")
    image = open_png(render("themiscyra", state))
    assert colours_in(image, "a1") <= PLAIN_SQUARE  # plainly empty
    assert BLACK in colours_in(image, "c3") and WHITE not in colours_in(image, "c3")
    assert WHITE in colours_in(image, "e5") and BLACK not in colours_in(image, "e5")
    assert image.getpixel(centre("c3")) == BLACK
    assert image.getpixel(centre("e5")) == WHITE
    for bare in ("c3", "e5"):
        assert themiscyra.RING_GOLD not in colours_in(image, bare)
    for ringed, stone in (("d4", BLACK), ("f6", WHITE)):
        assert themiscyra.RING_GOLD in colours_in(image, ringed)
        assert image.getpixel(centre(ringed)) == stone  # the ring goes round the stone, not over it
        x, y = centre(ringed)
        for dx, dy in ((22, 0), (-22, 0), (0, 22), (0, -22)):  # a whole circle around it
            assert image.getpixel((x + dx, y + dy)) == themiscyra.RING_GOLD
    # the white stone has a dark outline, so it does not melt into a light square
    x, y = centre("e5")
    edge = [image.getpixel((x + themiscyra.STONE_R - k, y)) for k in range(3)]
    assert any(sum(c) < 200 for c in edge)


def test_stones_and_rings_change_only_their_own_squares() -> None:
    empty = open_png(render("themiscyra", THEMISCYRA.state_from_position("", "", "")))
    one = open_png(render("themiscyra", THEMISCYRA.state_from_position("e5", "", "e5")))
    for name in SQUARE_NAMES:
        same = crop(one, name).tobytes() == crop(empty, name).tobytes()
        assert same == (name != "e5"), name


def nearer(image: Image.Image, bare: Image.Image, square: int) -> int:
    """How much nearer LAST_MOVE a square's corner (no stone or ring reaches it) came than without the turn."""
    left, top, _, _ = themiscyra.square_box(square)
    distance = lambda c: sum(abs(a - b) for a, b in zip(c[:3], LAST_MOVE, strict=True))  # noqa: E731
    return distance(bare.getpixel((left + 2, top + 2))) - distance(image.getpixel((left + 2, top + 2)))


def test_the_last_play_turn_tints_its_squares_and_circles_where_the_ring_was() -> None:
    state = next(s for s in playout(2) if s.last is not None and s.last[2] is not None)
    assert state.last is not None
    a, b, start, end = state.last
    assert start is not None and end in (a, b)
    plain = replace(state, last=None, last_seat=None)
    image, bare = open_png(render("themiscyra", state)), open_png(render("themiscyra", plain))
    assert board(image) != board(bare)
    for stone in (a, b):  # each new stone's square tinted, the stone itself as it was
        assert nearer(image, bare, stone) > nearer(image, bare, start) > 30
        cx, cy = themiscyra.square_centre(stone)
        core = (cx - 11, cy - 11, cx + 11, cy + 11)
        assert image.crop(core).tobytes() == bare.crop(core).tobytes()
    # the stone the ring left is circled in red (dashed), though it keeps no ring
    ring_left = {c for _, c in image.crop(themiscyra.square_box(start)).getcolors(1 << 16) or []}
    assert themiscyra.LAST_MARK in ring_left and themiscyra.RING_GOLD not in ring_left
    for s in set(range(100)) - {a, b, start}:  # and nothing else changes: no arrow runs over other stones
        assert crop(image, SQUARE_NAMES[s]).tobytes() == crop(bare, SQUARE_NAMES[s]).tobytes(), SQUARE_NAMES[s]


def test_a_setup_turn_tints_its_stones_and_marks_the_rings_corners() -> None:
    state = THEMISCYRA.play(THEMISCYRA.new(2, 1), "e5 e8 @e8")
    assert state.last == (parse_square("e5"), parse_square("e8"), None, parse_square("e8"))
    image = open_png(render("themiscyra", state))
    bare = open_png(render("themiscyra", replace(state, last=None, last_seat=None)))
    for name in ("e5", "e8"):
        assert image.getpixel(centre(name)) == bare.getpixel(centre(name))  # the stone, untouched
        assert nearer(image, bare, parse_square(name)) > 30
    left, top, _, _ = themiscyra.square_box(parse_square("e8"))
    assert image.getpixel((left + 4, top + 4)) == themiscyra.LAST_MARK  # corner marks on the ring's stone
    assert bare.getpixel((left + 4, top + 4)) != themiscyra.LAST_MARK
    left, top, _, _ = themiscyra.square_box(parse_square("e5"))
    assert image.getpixel((left + 4, top + 4)) != themiscyra.LAST_MARK
    for name in SQUARE_NAMES:
        if name not in ("e5", "e8"):
            assert crop(image, name).tobytes() == crop(bare, name).tobytes(), name


def test_turn_text_is_the_canonical_notation() -> None:
    e5, e8, c3, c9 = (parse_square(n) for n in ("e5", "e8", "c3", "c9"))
    assert themiscyra.turn_text((e8, e5, c3, e8)) == "e5 e8 c3>e8"
    assert themiscyra.turn_text((e5, c9, None, e5)) == "c9 e5 @e5"
    for before, after in zip(playout(4), playout(4)[1:], strict=False):
        assert after.last is not None
        assert themiscyra.turn_text(after.last) == THEMISCYRA.canonical(before, themiscyra.turn_text(after.last))


def test_the_areas_overlay_shades_exactly_the_open_areas() -> None:
    state = position_with_holes("a1 b2 e5 e6 f6 h3 j10")  # areas a1-b2 (diagonal) and e5-e6-f6; h3, j10 alone
    plain = open_png(render("themiscyra", state))
    shaded = open_png(render("themiscyra", state, caption=Caption(overlays=AREAS)))
    inside = {"a1", "b2", "e5", "e6", "f6"}
    for name in SQUARE_NAMES:
        changed = crop(plain, name).tobytes() != crop(shaded, name).tobytes()
        assert changed == (name in inside), name
    for lone in ("h3", "j10"):
        assert colours_in(shaded, lone) <= PLAIN_SQUARE
    # nothing else on the board moved: blank out the areas' boxes and compare the rest
    for image in (plain, shaded):
        for name in inside:
            image.paste((0, 0, 0), themiscyra.square_box(parse_square(name)))
    assert board(plain) == board(shaded)
    # two areas, two tints; one area, one tint
    fresh = open_png(render("themiscyra", state, caption=Caption(overlays=AREAS)))
    tint = {name: fresh.getpixel(centre(name)) for name in inside}
    assert tint["a1"] == tint["b2"] and tint["e5"] == tint["e6"] == tint["f6"]
    assert tint["a1"] != tint["e5"]
    assert tint["a1"] not in PLAIN_SQUARE and tint["e5"] not in PLAIN_SQUARE


@pytest.mark.parametrize("seed", [1, 6])
def test_the_areas_overlay_matches_the_engines_open_areas_in_real_games(seed: int) -> None:
    states = playout(seed)
    for state in (states[len(states) // 2], states[-1]):
        plain = open_png(render("themiscyra", state))
        shaded = open_png(render("themiscyra", state, caption=Caption(overlays=AREAS)))
        expected = area_squares(state)
        changed = {
            s for s in range(100) if crop(plain, SQUARE_NAMES[s]).tobytes() != crop(shaded, SQUARE_NAMES[s]).tobytes()
        }
        assert changed == expected


@pytest.mark.parametrize(
    "caption",
    [
        Caption(names=NAMES, clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, clocks=(SeatClock(0, 9.5, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, paused=True),
        Caption(names=NAMES, header="Death match · game 2 of 3 · alice 1–0 bob " * 3),
        Caption(names=NAMES, result="bob wins on time"),
        Caption(names=("a name far too long to fit in the panel of the board image, really far too long", "")),
        Caption(names=("Ørjan Søndergård-Ĳsselmeer", "王小明 · Дмитрий · محمد 🙂")),
    ],
)
def test_captions_change_the_panel_only(caption: Caption) -> None:
    state = playout(5)[12]
    plain = open_png(render("themiscyra", state, caption=Caption(names=NAMES)))
    shown = open_png(render("themiscyra", state, caption=caption))
    assert shown.size == (themiscyra.WIDTH, themiscyra.HEIGHT)
    assert board(shown) == board(plain)
    assert shown.tobytes() != plain.tobytes()


def gold_pixels(image: Image.Image) -> int:
    return sum(n for n, c in panel(image).getcolors(1 << 16) or [] if c == (255, 201, 64))


def test_a_finished_game_shows_its_winner() -> None:
    states = playout(7)
    final = states[-1]
    assert final.winner is not None and THEMISCYRA.to_move(final) is None
    image = open_png(render("themiscyra", final, caption=Caption(names=NAMES)))
    running = open_png(render("themiscyra", states[-2], caption=Caption(names=NAMES)))
    assert gold_pixels(image) > gold_pixels(running) + 4000  # the filled result box, not just a turn border
    other = open_png(render("themiscyra", replace(final, winner=1 - final.winner), caption=Caption(names=NAMES)))
    assert panel(other).tobytes() != panel(image).tobytes()


def test_the_viewer_and_the_player_to_move_are_marked() -> None:
    state = playout(2)[10]
    assert render("themiscyra", state, viewer=0) != render("themiscyra", state, viewer=None)
    assert render("themiscyra", state, viewer=0) != render("themiscyra", state, viewer=1)
    flipped = replace(state, turn=1 - (state.turn or 0))
    assert (
        panel(open_png(render("themiscyra", flipped))).tobytes()
        != panel(open_png(render("themiscyra", state))).tobytes()
    )


def test_random_positions_of_random_games_render_with_any_caption() -> None:
    rng = random.Random(20240611)
    for seed in range(4):
        states = playout(seed)
        assert states[-1].winner is not None
        for state in rng.sample(states, 8) + [states[0], states[-1]]:
            clocks = tuple(SeatClock(rng.uniform(0, 60), rng.uniform(0, 600), seat == state.turn) for seat in (0, 1))
            caption = Caption(
                names=(rng.choice(NAMES + ("", "x" * 80, "Zoë")), rng.choice(NAMES + ("李", "  "))),
                clocks=rng.choice((None, clocks)),
                header=rng.choice((None, "Casual", "Ladder · game 3 of 5 · " * 4)),
                paused=rng.random() < 0.3,
                result=rng.choice((None, None, "alice resigned", "bob wins on time " * 6)),
                overlays=rng.choice((frozenset(), AREAS)),
            )
            viewer = rng.choice((None, 0, 1))
            image = open_png(render("themiscyra", state, viewer, caption=caption))
            assert image.size == (themiscyra.WIDTH, themiscyra.HEIGHT)


def test_render_draws_through_the_registry_and_rejects_nothing_it_knows() -> None:
    from renderers import DRAWERS

    assert DRAWERS["themiscyra"] is themiscyra.draw
    state = playout(3)[5]
    assert render("themiscyra", state) == render("themiscyra", THEMISCYRA.view(state, None))


# --- each marker at the pixels where it is drawn (issue #17) ---

SEAT_LEFT, SEAT_RIGHT = themiscyra.PANEL_LEFT + 6, themiscyra.WIDTH - 10  # the seat boxes' left and right edges


def laid_out(state: ThemiscyraState, viewer: int | None = None, caption: Caption | None = None) -> Layout:
    """The side panel of `state` as `draw` lays it out for `viewer` (named alice and bob, as `render` is here)."""
    facts = themiscyra.panel(THEMISCYRA.view(state, viewer), viewer, caption or Caption(names=NAMES))
    return lay_out(facts, themiscyra.PANEL_LEFT - 4, themiscyra.WIDTH)


def name_row(box: Box) -> Box:
    """The line of a seat box with the name and its tags, right of the seat's stone."""
    left, top, right, _ = box
    return left + 32, top + 4, right - 8, top + 34


def stones_to_move(turn: int) -> ThemiscyraState:
    state = THEMISCYRA.state_from_position("c3 d4", "g7 h8", "", turn=turn)
    assert THEMISCYRA.to_move(state) == turn
    return state


@pytest.mark.parametrize("turn", [0, 1])
def test_the_seat_to_move_has_a_gold_border_and_an_arrow_after_its_name(turn: int) -> None:
    image = rgb(render("themiscyra", stones_to_move(turn), caption=Caption(names=NAMES)))
    other = rgb(render("themiscyra", stones_to_move(1 - turn), caption=Caption(names=NAMES)))
    layout = laid_out(stones_to_move(turn))
    check_the_mover(image, layout, NAMES, turn, HIGHLIGHT)
    name = name_text(layout, cards(layout)[turn][0], NAMES[turn])
    assert ink_right(image, name.box, TEXT) - ink_right(other, name.box, TEXT) >= 12  # " ▶" painted


def test_a_result_in_the_caption_takes_the_turn_border_away() -> None:
    caption = Caption(names=NAMES, result="bob wins on time")
    image = rgb(render("themiscyra", stones_to_move(0), caption=caption))
    layout = laid_out(stones_to_move(0), caption=caption)
    check_the_mover(image, layout, NAMES, None, HIGHLIGHT)  # no border, no ▶, on any card
    assert not any(placed.words.endswith("to move") for placed in layout.texts)  # nor "alice to move"
    (result,) = [placed for placed in layout.texts if placed.words == "bob wins on time"]
    assert result.box[1] > cards(layout)[-1][0][3]  # the result under the cards, instead
    gold = [box for box, fill, _ in layout.boxes if fill == HIGHLIGHT]
    assert len(gold) == 1 and gold[0][1] <= result.box[1] and result.box[3] <= gold[0][3]


def test_the_viewer_is_called_you_in_its_own_box_and_nowhere_else() -> None:
    state = stones_to_move(0)
    spectator = rgb(render("themiscyra", state, caption=Caption(names=NAMES)))
    for viewer in (0, 1):
        image = rgb(render("themiscyra", state, viewer, caption=Caption(names=NAMES)))
        boxes = seat_boxes(image, SEAT_LEFT, SEAT_RIGHT, seats=2)
        mine = name_row(boxes[viewer])
        name_end = ink_right(spectator, mine, TEXT)
        assert ink_right(image, mine, TEXT) - name_end >= 40  # " (you)"
        if viewer != state.turn:  # (the mover's " ▶" moves right of " (you)")
            assert same(image, spectator, (mine[0], mine[1], name_end, mine[3]))
        assert same(image, spectator, name_row(boxes[1 - viewer]))
        assert same(image, spectator, (0, 0, themiscyra.PANEL_LEFT - 4, themiscyra.HEIGHT))


def test_the_column_letters_and_row_numbers_are_drawn_at_the_board_edges() -> None:
    image = rgb(render("themiscyra", stones_to_move(0)))
    half = themiscyra.SQUARE // 2
    bottom = themiscyra.BOARD_TOP + themiscyra.BOARD_SIDE
    letters, numbers = [], []
    for k in range(10):
        cx, _ = themiscyra.square_centre(k)  # column k's letter, under row 1
        _, cy = themiscyra.square_centre(k * 10)  # row k + 1's number, left of column a
        for marks, box, axis, middle, tall in (
            (letters, (cx - half + 2, bottom + 3, cx + half - 2, themiscyra.HEIGHT), 0, cx, 9),
            (numbers, (0, cy - half + 2, themiscyra.BOARD_LEFT - 2, cy + half - 2), 1, cy, 11),
        ):
            bounds = ink_bounds(image, box, themiscyra.COORD)
            assert bounds is not None, (k, box)
            assert count(image, box, themiscyra.COORD) >= 12, (k, box)
            assert bounds[3] - bounds[1] >= tall, (k, box)  # an x-height or digit height readable on a phone
            assert abs((bounds[axis] + bounds[axis + 2]) / 2 - middle) <= 3, (k, box)
            marks.append(bounds)
    assert len({image.crop(b).tobytes() for b in letters + numbers}) == 20
    widths = [b[2] - b[0] for b in numbers]
    assert widths[9] > widths[0] + 6  # "10" is two digits, at the top; "1" at the bottom
