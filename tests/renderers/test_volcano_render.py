"""The Volcano board image: a valid, deterministic PNG whose pixels show stacks, caps, the last turn and seats."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot import i18n
from bot.games import GAMES
from bot.games.volcano import VolcanoState, parse_square
from renderers import Caption, SeatClock, render, volcano
from renderers.draw import LAST_MOVE, MUTED, TEXT, WHITE
from renderers.overlays import grow, intersects
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
    words_drawn,
)

VOLCANO = GAMES["volcano"]
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes every row: a broken stream fails here
    return image


def square(image: Image.Image, name: str) -> bytes:
    return image.crop(volcano.square_box(parse_square(name))).tobytes()


def colours_in(image: Image.Image, name: str) -> set[tuple[int, ...]]:
    return {c for _, c in image.crop(volcano.square_box(parse_square(name))).getcolors(1 << 16) or []}


def board(image: Image.Image) -> bytes:
    return image.crop((0, 0, volcano.PANEL_LEFT - 4, volcano.HEIGHT)).tobytes()


def laid_out(state: VolcanoState, viewer: int | None, caption: Caption) -> Layout:
    """The side panel of `state` as `draw` lays it out for `viewer`."""
    return lay_out(volcano.panel(VOLCANO.view(state, viewer), viewer, caption), volcano.PANEL_LEFT - 4, volcano.WIDTH)


def playout(seats: int, seed: int) -> list[VolcanoState]:
    rng = random.Random(seed)
    states = [VOLCANO.new(seats, seed)]
    while VOLCANO.to_move(states[-1]) is not None:
        states.append(VOLCANO.play(states[-1], rng.choice(VOLCANO.legal_moves(states[-1]))))
    return states


def test_a_valid_png_about_800_wide() -> None:
    image = open_png(render("volcano", VOLCANO.new(2, 1)))
    assert image.mode == "RGB"
    assert image.size == (volcano.WIDTH, volcano.HEIGHT)
    assert 760 <= image.width <= 840


def test_same_state_and_caption_give_identical_bytes() -> None:
    state = playout(3, 3)[20]
    caption = Caption(names=NAMES[:3], clocks=(SeatClock(30, 60, False),) * 2 + (SeatClock(5, 4, True),), header="x")
    assert render("volcano", state, caption=caption) == render("volcano", state, caption=caption)


def test_square_centres_are_on_the_board_with_row_5_at_the_top() -> None:
    a1, a5, e1 = (volcano.square_centre(parse_square(n)) for n in ("a1", "a5", "e1"))
    assert a1[0] == a5[0] and a1[1] > a5[1]  # same column, row 5 above row 1
    assert e1[1] == a1[1] and e1[0] > a1[0]
    assert volcano.square_box(parse_square("e1"))[2] < volcano.PANEL_LEFT


def test_cap_empty_and_stack_squares_look_different() -> None:
    state = VOLCANO.state_from_position({"b2": "R1R2R3", "c3": "R1R2R3"}, "c3 a5 e5 e1 d1")
    image = open_png(render("volcano", state))
    empty, cap_only, stack, capped_stack = (square(image, n) for n in ("a1", "a5", "b2", "c3"))
    assert len({empty, cap_only, stack, capped_stack}) == 4
    assert colours_in(image, "a1") <= {volcano.SQUARE_DARK, volcano.GRID_LINE}  # plainly empty
    assert volcano.CAP_FILL in colours_in(image, "a5")
    assert volcano.PIECE_FILL["R"] in colours_in(image, "b2")
    assert volcano.CAP_FILL in colours_in(image, "c3") and volcano.PIECE_FILL["R"] in colours_in(image, "c3")
    assert volcano.CAP_FILL not in colours_in(image, "b2")


@pytest.mark.parametrize("colour", "RYGBC")
def test_each_colour_of_the_top_piece_shows_and_differs(colour: str) -> None:
    stacks = {"b2": f"R1R2{colour}3"}
    image = open_png(render("volcano", VOLCANO.state_from_position(stacks, "a5 b5 c5 d5 e5")))
    assert volcano.PIECE_FILL[colour] in colours_in(image, "b2")
    others = [c for c in "RYGBC" if c != colour]
    for other in others:
        alt = open_png(render("volcano", VOLCANO.state_from_position({"b2": f"R1R2{other}3"}, "a5 b5 c5 d5 e5")))
        assert square(alt, "b2") != square(image, "b2")


def test_sizes_differ_and_tall_stacks_get_a_count_badge() -> None:
    sizes = {n: f"B{n}" for n in ("1", "2", "3")}
    state = VOLCANO.state_from_position(
        {"a1": sizes["1"], "b1": sizes["2"], "c1": sizes["3"], "d1": "R1R2R3Y1Y2Y3", "e1": "Y1Y2Y3"}, "a5 b5 c5 d5 e5"
    )
    image = open_png(render("volcano", state))
    assert len({square(image, n) for n in ("a1", "b1", "c1")}) == 3
    blue = volcano.PIECE_FILL["B"]
    counts = [image.crop(volcano.square_box(parse_square(n))).getcolors(1 << 16) for n in ("a1", "b1", "c1")]
    areas = [sum(k for k, c in cs or [] if c == blue) for cs in counts]
    assert areas[0] < areas[1] < areas[2]  # larger pieces are bigger
    # d1 shows its top three pieces (like e1) plus a badge with its height
    assert square(image, "d1") != square(image, "e1")
    assert volcano.PIECE_FILL["R"] not in colours_in(image, "d1")


@pytest.mark.parametrize("seats", [1, 2, 4, 6])
def test_renders_for_one_to_six_seats(seats: int) -> None:
    states = playout(seats, 11)
    caption = Caption(names=NAMES[:seats], clocks=tuple(SeatClock(30, 60, i == 0) for i in range(seats)), header="h")
    for state in (states[0], states[len(states) // 2], states[-1]):
        image = rgb(render("volcano", state, caption=caption))
        layout = laid_out(state, None, caption)
        assert image.size == (volcano.WIDTH, max(volcano.HEIGHT, layout.height))  # taller when the panel is
        # every seat's card is drawn, whole, with the seat's token in its colour
        assert len(cards(layout)) == seats
        for seat, (box, _) in enumerate(cards(layout)):
            assert box[3] <= image.height, seat
            assert count(image, box, volcano.seat_colour(seat)) >= 20, seat


def ground(image: Image.Image, name: str) -> tuple[int, int, int]:
    """A pixel of a square's ground no stack, number, badge or landing outline reaches."""
    cx, cy = volcano.square_centre(parse_square(name))
    return image.getpixel((cx - volcano.SQUARE // 2 + 2, cy - 20))  # type: ignore[no-any-return]


def towards(image: Image.Image, bare: Image.Image, name: str, colour: tuple[int, int, int]) -> float:
    """How much nearer `colour` the square's ground came than it is without the marks (0: not at all)."""
    was, now = ground(bare, name), ground(image, name)
    distance = lambda c: sum(abs(a - b) for a, b in zip(c, colour, strict=True))  # noqa: E731
    return distance(was) - distance(now)


def test_the_last_turn_tints_its_squares_and_its_landings_and_captures_change_the_board() -> None:
    state = next(s for s in playout(2, 0) if len(s.last_steps) >= 2 and s.captured_last and not s.steps)
    bare = replace(state, last_steps=(), landings=(), captured_last=())
    image, plain = open_png(render("volcano", state)).convert("RGB"), open_png(render("volcano", bare)).convert("RGB")
    assert board(image) != board(plain)
    src, dst = state.last_steps[0].split("-")
    assert towards(image, plain, dst, LAST_MOVE) > towards(image, plain, src, LAST_MOVE) > 20  # from, lighter
    for sq, _piece in state.captured_last:
        cx, cy = volcano.square_centre(sq)
        box = image.crop((cx, cy - volcano.SQUARE // 2, cx + volcano.SQUARE // 2, cy)).getcolors(1 << 16) or []
        assert volcano.CAPTURE_GOLD in {c for _, c in box}
    only_landings = replace(state, last_steps=(), captured_last=())
    assert board(open_png(render("volcano", only_landings))) != board(plain)


def test_steps_of_the_turn_in_progress_are_tinted_apart_from_the_last_turn() -> None:
    state = VOLCANO.state_from_position({"c1": "R1R2R3"}, "a1 b2 c3 d4 e5")
    stepped = VOLCANO.play(state, "a1-a2")  # no eruption: the turn goes on
    assert stepped.steps == ("a1-a2",) and stepped.turn == 0
    image = open_png(render("volcano", stepped)).convert("RGB")
    bare = open_png(render("volcano", replace(stepped, steps=()))).convert("RGB")
    assert board(image) != board(bare)
    assert towards(image, bare, "a2", WHITE) > towards(image, bare, "a1", WHITE) > 20
    assert towards(image, bare, "a2", LAST_MOVE) < towards(image, bare, "a2", WHITE)  # white, not the last turn's
    assert not volcano.step_marks(stepped)  # one step: nothing to number


@pytest.mark.parametrize(
    "caption",
    [
        Caption(names=NAMES[:2], clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False))),
        Caption(names=NAMES[:2], clocks=(SeatClock(0, 9.5, True), SeatClock(30, 60, False))),
        Caption(names=NAMES[:2], paused=True),
        Caption(names=NAMES[:2], header="Death match · game 2 of 3 · alice 1–0 bob " * 3),
        Caption(names=NAMES[:2], result="bob wins on time"),
        Caption(names=("a name far too long to fit in the panel of the board image", "")),
    ],
)
def test_captions_change_the_panel_only(caption: Caption) -> None:
    state = playout(2, 5)[12]
    plain = open_png(render("volcano", state, caption=Caption(names=NAMES[:2])))
    shown = open_png(render("volcano", state, caption=caption))
    assert shown.size == (volcano.WIDTH, volcano.HEIGHT)
    assert board(shown) == board(plain)
    assert shown.tobytes() != plain.tobytes()


def test_a_finished_game_shows_the_winner_and_a_shared_win() -> None:
    final = playout(2, 7)[-1]
    outcome = VOLCANO.outcome(final)
    assert outcome is not None
    image = open_png(render("volcano", final, caption=Caption(names=NAMES[:2])))
    panel = image.crop((volcano.PANEL_LEFT, 0, volcano.WIDTH, volcano.HEIGHT))
    assert (255, 201, 64) in {c for _, c in panel.getcolors(1 << 16) or []}  # the result box
    shared = replace(final, captures=(final.captures[0], final.captures[0]))
    assert render("volcano", shared) != render("volcano", final)


def test_resigned_seats_and_the_viewer_are_marked() -> None:
    state = VOLCANO.new(3, 2)
    resigned = VOLCANO.resign(state, 1)
    assert render("volcano", resigned) != render("volcano", replace(resigned, resigned=frozenset()))
    assert render("volcano", state, viewer=0) != render("volcano", state, viewer=None)


RENDERED = 40
"""How many plies of a playout the render test draws (each takes a fiftieth of a second; a game has hundreds)."""


def plies_to_render(states: list[VolcanoState], seed: int) -> list[int]:
    """The first and last ply, the first that shows each thing the board draws (a turn in progress, a last
    turn of several steps, a landing, a capture), the tallest stack and the most captures, then a seeded
    sample of the other plies: `RENDERED` plies in all (every one of a shorter game)."""
    last = len(states) - 1
    shown = [
        lambda s: s.steps,
        lambda s: len(s.last_steps) > 1,
        lambda s: s.landings,
        lambda s: s.captured_last,
    ]
    picked = {0, last}
    picked |= {next((i for i, s in enumerate(states) if shows(s)), last) for shows in shown}
    picked.add(max(range(len(states)), key=lambda i: max(map(len, states[i].board))))
    picked.add(max(range(len(states)), key=lambda i: sum(map(len, states[i].captures))))
    others = sorted(set(range(len(states))) - picked)
    picked |= set(random.Random(seed).sample(others, max(0, min(len(others), RENDERED - len(picked)))))
    return sorted(picked)


@pytest.mark.parametrize("seats", [2, 5])
def test_every_ply_of_a_random_playout_renders(seats: int) -> None:
    """A sample of a playout's plies (`plies_to_render`: its first and last, what each marker needs, and
    seeded others) renders as a valid PNG."""
    states = playout(seats, 8)
    assert VOLCANO.outcome(states[-1]) is not None
    plies = plies_to_render(states, seats)
    assert len(plies) == min(RENDERED, len(states))
    for ply in plies:
        open_png(render("volcano", states[ply], caption=Caption(names=NAMES[:seats])))


def test_captures_are_grouped_as_they_score() -> None:
    solid, mixed, loose = volcano.groups(("R1", "R2", "R3", "Y1", "G2", "B3", "C1", "C1"))
    assert solid == [("R3", "R2", "R1")]
    assert len(mixed) == 1 and sorted(p[1] for p in mixed[0]) == ["1", "2", "3"]
    assert sorted(loose) == ["C1", "C1"]


# --- each marker at the pixels where it is drawn (issue #17) ---

SEAT_LEFT, SEAT_RIGHT = volcano.PANEL_LEFT + 6, volcano.WIDTH - 10  # the seat boxes' left and right edges
QUIET = {"c1": "R1R2R3", "d3": "Y1Y2Y3"}, "a1 b2 c3 d4 e5"  # stacks and caps of a plain position


def name_row(box: Box) -> Box:
    """The line of a seat box with the name and its tags: right of the seat's disc, left of the score."""
    left, top, right, _ = box
    return left + 28, top + 4, right - 40, top + 32


@pytest.mark.parametrize("turn", [0, 1, 2])
def test_the_seat_to_move_has_a_border_in_its_colour_and_an_arrow_after_its_name(turn: int) -> None:
    stacks, caps = QUIET
    state = VOLCANO.state_from_position(stacks, caps, seats=3, turn=turn)
    image = rgb(render("volcano", state, caption=Caption(names=NAMES[:3])))
    layout = laid_out(state, None, Caption(names=NAMES[:3]))
    check_the_mover(image, layout, NAMES[:3], turn, volcano.seat_colour(turn))
    # the " ▶" tag: the mover's name line reaches further than when another seat is to move
    other = rgb(render("volcano", replace(state, turn=(turn + 1) % 3), caption=Caption(names=NAMES[:3])))
    name = name_text(layout, cards(layout)[turn][0], NAMES[turn])
    assert ink_right(image, name.box, TEXT) - ink_right(other, name.box, TEXT) >= 12


def test_the_viewer_is_called_you_in_its_own_box_and_nowhere_else() -> None:
    stacks, caps = QUIET
    state = VOLCANO.state_from_position(stacks, caps, seats=3, turn=2)
    spectator = rgb(render("volcano", state, caption=Caption(names=NAMES[:3])))
    for viewer in (0, 1, 2):
        image = rgb(render("volcano", state, viewer, caption=Caption(names=NAMES[:3])))
        boxes = seat_boxes(image, SEAT_LEFT, SEAT_RIGHT, seats=3)
        mine = name_row(boxes[viewer])
        name_end = ink_right(spectator, mine, TEXT)
        assert ink_right(image, mine, TEXT) - name_end >= 40  # " (you)"
        if viewer != state.turn:  # (the mover's " ▶" moves right of " (you)")
            assert same(image, spectator, (mine[0], mine[1], name_end, mine[3]))  # the name itself as before
        for seat in set(range(3)) - {viewer}:
            assert same(image, spectator, name_row(boxes[seat])), seat
        assert same(image, spectator, (0, 0, volcano.PANEL_LEFT - 4, volcano.HEIGHT))


@pytest.mark.parametrize("turn", [0, 1])
def test_the_last_turn_marks_its_steps_landing_and_capture_and_no_other_square(turn: int) -> None:
    start = VOLCANO.state_from_position({"b3": "G1G2G3", "b1": "R3", "d3": "Y1Y2Y3"}, "a1 b3 e1 e5 d1", turn=turn)
    state = VOLCANO.play(start, "a1-a2, b3-b2")  # a quiet step, then b3 erupts: its G3 lands on b1's R3
    assert state.last_steps == ("a1-a2", "b3-b2") and state.captured_last == ((parse_square("b1"), "G3"),)
    image = rgb(render("volcano", state))
    bare = rgb(render("volcano", replace(state, last_steps=(), landings=(), captured_last=())))
    mover = volcano.seat_colour(turn)
    for left, went in (("a1", "a2"), ("b3", "b2")):  # each step tints the square a cap left, and more the one
        assert towards(image, bare, went, LAST_MOVE) > towards(image, bare, left, LAST_MOVE) > 20, (left, went)
    marks = volcano.step_marks(state)  # two steps: numbered 1 and 2 at the edges of the squares they reached
    assert [(m.number, m.square) for m in marks] == [(1, parse_square("a2")), (2, parse_square("b2"))]
    for mark in marks:
        assert intersects(mark.label, volcano.square_box(mark.square))
        centre = (round((mark.label[0] + mark.label[2]) / 2) - 7, round((mark.label[1] + mark.label[3]) / 2))
        assert image.getpixel(centre) == LAST_MOVE, mark  # the disc, left of its digit

    def in_square(img: Image.Image, name: str, colour: tuple[int, int, int]) -> int:
        return count(img, volcano.square_box(parse_square(name)), colour)

    assert in_square(image, "b1", mover) >= 200  # the dashed outline of the landing
    assert in_square(image, "b1", volcano.CAPTURE_GOLD) >= 60 and in_square(bare, "b1", volcano.CAPTURE_GOLD) == 0
    numbers = [grow(m.label, 1) for m in marks]
    for square in range(25):
        name = "abcde"[square // 5] + str(square % 5 + 1)
        if name not in ("a1", "a2", "b3", "b2", "b1"):
            box = volcano.square_box(square)
            assert same(image, bare, box) or any(intersects(box, n) for n in numbers), name


def test_the_column_letters_and_row_numbers_are_drawn_at_the_board_edges() -> None:
    image = rgb(render("volcano", VOLCANO.new(2, 1)))
    half = volcano.SQUARE // 2
    bottom = volcano.BOARD_TOP + volcano.BOARD_SIDE
    marks = []
    for k in range(5):
        cx, _ = volcano.square_centre(k * 5)  # column k's letter, under row 1
        _, cy = volcano.square_centre(k)  # row k + 1's number, left of column a
        for box, axis, middle in (
            ((cx - half + 2, bottom + 3, cx + half - 2, bottom + 30), 0, cx),
            ((0, cy - half + 2, volcano.BOARD_LEFT - 2, cy + half - 2), 1, cy),
        ):
            bounds = ink_bounds(image, box, MUTED)
            assert bounds is not None, (k, box)
            assert count(image, box, MUTED) >= 25, (k, box)
            assert bounds[3] - bounds[1] >= 10, (k, box)  # an x-height or digit height readable on a phone
            assert abs((bounds[axis] + bounds[axis + 2]) / 2 - middle) <= 3, (k, box)
            marks.append(image.crop(bounds).tobytes())
    assert len(set(marks)) == 10


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_the_key_names_every_colour_in_the_readers_language_whole(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key under the board shows each colour's piece (its fill and its pattern) and names it in the
    reader's language, uncut in every language (German is the longest)."""
    drawn = words_drawn(monkeypatch, volcano)
    volcano._background_in.cache_clear()
    with i18n.using(language):
        names = [volcano.colour_name(colour) for colour in volcano.PIECE_FILL]
        words = [words for row in volcano.key_entries() for _sprite, words in row]
        render("volcano", VOLCANO.new(2, 1))
    volcano._background_in.cache_clear()
    assert all(name in drawn for name in names), (names, drawn)
    assert all(word in drawn for word in words), (words, drawn)  # every mark's words too, none cut short
    assert len(set(names)) == 5
    if language == "de":
        assert names == ["rot", "gelb", "grün", "blau", "transparent"]
        assert words[:6] == ["letzter Zug", "dieser Zug", "sein 2. Schritt", "Landefeld", "geschlagen", "Stapelhöhe"]


def test_a_german_key_is_drawn_in_german_and_the_english_one_stays_english() -> None:
    """Each language's background (the key has words) is its own: drawing a German board between two
    English ones changes neither, and the German one differs from them in the key only."""
    state = playout(4, 3)[30]
    english = open_png(render("volcano", state))
    with i18n.using("de"):
        german = open_png(render("volcano", state))
    assert open_png(render("volcano", state)).tobytes() == english.tobytes()
    key = (0, volcano.KEY_TOP - 16, volcano.PANEL_LEFT - 4, volcano.HEIGHT)
    assert not same(english, german, key)
    above = (0, 0, volcano.PANEL_LEFT - 4, key[1])
    assert same(english, german, above)  # the board itself has no words to translate


def test_a_german_six_seat_panel_speaks_german_from_start_to_end() -> None:
    """Whose turn, the turn in progress, the last turn and what it took, a resignation and the end: every
    word of the panel in the server's language (German here), the names and the steps as they are."""
    states = playout(6, 5)
    words: set[str] = set()
    with i18n.using("de"):
        for state in states:
            words |= {placed.words for placed in laid_out(state, None, Caption(names=NAMES)).texts}
        resigned = replace(states[len(states) // 2], resigned=frozenset({2}))
        words |= {placed.words for placed in laid_out(resigned, None, Caption(names=NAMES)).texts}
        took = replace(states[1], last_steps=("a1-a2", "a2-a3"), captured_last=((0, "R1"), (1, "G2")))
        assert volcano.last_words(took) == "Zuletzt: a1-a2, a2-a3 · 2 geschlagen"
    assert "alice ist am Zug" in words and "aufgegeben" in words
    assert any(w.startswith("Zuletzt: ") for w in words) and any(w.startswith("Dieser Zug (weiß): ") for w in words)
    assert any(" gewinnt mit " in w or " teilen sich den Sieg mit " in w or w == "Spiel vorbei: niemand gewinnt"
               for w in words), words  # fmt: skip
    english = " ".join(words)
    for word in ("to move", "Last:", "This turn", "wins", "share", "resigned", "took"):
        assert word not in english, (word, words)
