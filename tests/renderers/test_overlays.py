"""Overlays never cover what they explain (issue #20): the shared placement rule (renderers/overlays.py),
and over many random legal positions the marks each renderer computes and draws.

- Volcano: a step's number never covers a stack (or a count or capture badge, or another number) and is
  drawn where it was placed; arrows over the same two squares (a step and its return, two turns) lie at
  least LANE_APART px apart; no arrow's tip lies over the stack it points at.
- Geyser: the last move's arrow never covers the token it moved (nor one left where it came from, nor any
  other), and the token's pixels are exactly those drawn without the arrow.
- Horizon: the placer's dot and the last play's corner marks never meet.
- "1, 2, 3" (issue #34): the last move is a tint under the tokens, so every token and every fish on the
  board is drawn exactly as without it, and only the move's own tiles change.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import replace
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from PIL import Image

from bot.games import GAMES
from bot.games.volcano import VOLCANO, Step
from renderers import geyser, horizon, render, volcano
from renderers.overlays import arrow_box, box_at, grow, intersects, line_boxes, overlap, place, trim
from tests.renderers.pixels import same

HORIZON = GAMES["horizon"]
LANE_APART = 20
"""Centre lines of two arrows over the same two squares are at least this far apart: a shaft is 14 px
wide with its rim, so a step and its return leave a gap between them."""


def playout(key: str, seats: int, seed: int, cap: int = 300) -> list[Any]:
    game, rng = GAMES[key], random.Random(seed)
    states = [game.new(seats, seed)]
    while game.to_move(states[-1]) is not None and len(states) < cap:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


@cache
def volcano_states() -> list[Any]:
    return [s for seed in range(36) for s in playout("volcano", seed % 6 + 1, seed) if s.last_steps or s.steps]


@cache
def geyser_states() -> list[Any]:
    return [s for seed in range(16) for s in playout("geyser", seed % 3 + 2, seed) if s.last_move is not None]


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


# --- the rule ---


def test_boxes_intersect_only_when_they_share_area() -> None:
    a = (0.0, 0.0, 10.0, 10.0)
    assert intersects(a, (5, 5, 15, 15)) and overlap(a, (5, 5, 15, 15)) == 25
    assert not intersects(a, (10, 0, 20, 10)) and overlap(a, (10, 0, 20, 10)) == 0  # touching edges
    assert not intersects(a, (0, 11, 10, 20))
    assert intersects(a, (2, 2, 3, 3))  # one inside the other
    assert box_at((5, 5), 10) == a and box_at((5, 5), 10, 4) == (0, 3, 10, 7)
    assert grow(a, 2) == (-2, -2, 12, 12) and grow(a, -1) == (1, 1, 9, 9)


def test_place_takes_the_first_candidate_clear_of_blocked_and_avoided_boxes() -> None:
    piece, arrow = (0.0, 0.0, 10.0, 10.0), (20.0, 0.0, 30.0, 10.0)
    first, second, third = (5.0, 5.0, 15.0, 15.0), (20.0, 5.0, 30.0, 15.0), (40.0, 0.0, 50.0, 10.0)
    assert place([first, second, third], [piece], [arrow]) == third  # clear of both
    assert place([first, second], [piece], [arrow]) == second  # clear of the piece at least
    assert place([third, second], [piece], [arrow]) == third  # order is preference
    assert place([second, third], [piece]) == second


def test_place_falls_back_to_the_candidate_covering_least_of_the_pieces() -> None:
    pieces = [(0.0, 0.0, 10.0, 10.0), (20.0, 0.0, 30.0, 10.0)]
    much, little, also_little = (0.0, 0.0, 8.0, 8.0), (8.0, 8.0, 12.0, 12.0), (18.0, 8.0, 22.0, 12.0)
    assert place([much, little, also_little], pieces) == little  # 4 px² against 64; the earliest of equals
    assert place([much, also_little, little], pieces) == also_little
    with pytest.raises(ValueError):
        place([], pieces)


def test_trim_starts_an_arrow_off_its_piece_and_stops_it_at_the_next() -> None:
    start, end = (0.0, 0.0), (100.0, 0.0)
    assert trim(start, end, []) == (0.0, 1.0)
    tail, tip = (-10.0, -10.0, 20.0, 10.0), (70.0, -10.0, 110.0, 10.0)
    assert trim(start, end, [tail, tip]) == pytest.approx((0.2, 0.7))
    assert trim(start, end, [tail, tip], gap=5) == pytest.approx((0.25, 0.65))
    badge = (80.0, -2.0, 90.0, 2.0)  # crossed in the second half, not at the end: the tip stops before it too
    assert trim(start, end, [badge]) == pytest.approx((0.0, 0.8))
    assert trim(start, end, [(40.0, 5.0, 60.0, 20.0)]) == (0.0, 1.0)  # off the line: no effect
    assert trim((0, 0), (0, 100), [(-5.0, 60.0, 5.0, 120.0)]) == pytest.approx((0.0, 0.6))  # vertical


def test_an_arrow_box_holds_its_corners_and_rim() -> None:
    box = arrow_box((0, 0), (50, 0), 8, 22, 16, 3)
    assert box == (-4, -15, 54, 15)  # half the head, the rim and a pixel each way; tail and tip likewise
    slanted = arrow_box((0, 0), (30, 40), 8, 20, 10, 0)
    assert slanted[0] < 0 < 30 < slanted[2] and slanted[1] < 0 < 40 < slanted[3]
    shaft = line_boxes((0, 0), (30, 40), 6)
    assert shaft[0] == box_at((0, 0), 6) and shaft[-1] == box_at((30, 40), 6) and len(shaft) == 8


# --- Volcano ---


def test_volcano_step_numbers_never_cover_a_stack_a_badge_or_each_other() -> None:
    checked = 0
    for state in volcano_states():
        marks = volcano.step_marks(state)
        pieces = volcano.piece_boxes(state)
        badges = volcano.badge_boxes(state)
        board = (volcano.BOARD_LEFT, volcano.BOARD_TOP) * 2
        board = (*board[:2], board[2] + volcano.BOARD_SIDE, board[3] + volcano.BOARD_SIDE)
        labels = [m.label for m in marks if m.label is not None]
        assert len(labels) == (len(state.last_steps) > 1) * len(state.last_steps) + (len(state.steps) > 1) * len(
            state.steps
        )
        for label in labels:
            checked += 1
            for square, box in pieces.items():
                assert not intersects(label, box), (state.last_steps, state.steps, square, label, box)
            for box in badges:
                assert not intersects(label, box), (state.last_steps, state.steps, label, box)
            assert board[0] <= label[0] and label[2] <= board[2] and board[1] <= label[1] and label[3] <= board[3]
        for a, b in combinations(labels, 2):
            assert not intersects(a, b), (state.last_steps, state.steps, a, b)
    assert checked >= 500


def test_volcano_a_step_and_its_return_and_two_turns_arrows_lie_apart() -> None:
    pairs = 0
    for state in volcano_states():
        marks = volcano.step_marks(state)
        for a, b in combinations(marks, 2):
            sa, sb = Step.parse(a.step), Step.parse(b.step)
            if {sa.src, sa.dst} != {sb.src, sb.dst}:
                continue
            pairs += 1
            (ax, ay), (hx, hy) = a.tail, a.tip
            length = math.dist(a.tail, a.tip)
            # both arrows run parallel: the distance of b's tip from a's centre line is the distance apart
            apart = abs((hx - ax) * (b.tip[1] - ay) - (hy - ay) * (b.tip[0] - ax)) / length
            assert apart >= LANE_APART, (a.step, b.step, apart)
    assert pairs >= 100


def test_volcano_arrows_stop_at_the_stack_they_point_at() -> None:
    for state in volcano_states():
        pieces = volcano.piece_boxes(state)
        for mark in volcano.step_marks(state):
            target = pieces.get(Step.parse(mark.step).dst)
            if target is not None:
                assert not intersects(box_at(mark.tip, 2 * volcano.ARROW_RIM), target), (mark, target)


def test_volcano_numbers_are_drawn_where_they_were_placed() -> None:
    states = [s for s in volcano_states() if len(s.last_steps) > 1 or len(s.steps) > 1][::40]
    assert len(states) >= 10
    for state in states:
        image = png(render("volcano", state))
        for mark in volcano.step_marks(state):
            if mark.label is not None:
                cx, cy = (mark.label[0] + mark.label[2]) / 2, (mark.label[1] + mark.label[3]) / 2
                assert image.getpixel((round(cx - 7), round(cy))) == mark.badge, mark  # the disc, left of its digit


def test_volcano_a_step_and_its_return_in_one_picture_are_both_seen() -> None:
    start = VOLCANO.state_from_position({"c1": "R1R2R3", "c2": "G1G2G3", "b3": "Y1Y2Y3"}, "a1 b2 e3 d4 e5")
    state = replace(start, last_seat=1, last_steps=("c3-b2", "b3-c3"), steps=("b2-c2", "c3-b3"), turn=0)
    marks = volcano.step_marks(state)
    assert [m.step for m in marks] == ["c3-b2", "b3-c3", "b2-c2", "c3-b3"]
    assert [m.number for m in marks] == [1, 2, 1, 2] and all(m.label is not None for m in marks)
    there, back = marks[1], marks[3]  # b3-c3 last turn, c3-b3 this turn: lanes above and below the centre
    assert abs(there.tip[1] - back.tail[1]) >= LANE_APART
    image, bare = png(render("volcano", state)), png(render("volcano", replace(state, last_steps=(), steps=())))
    for mark in (there, back):  # each arrow shows its own colour at its middle
        middle = (round((mark.tail[0] + mark.tip[0]) / 2), round((mark.tail[1] + mark.tip[1]) / 2))
        assert image.getpixel(middle) == mark.colour != bare.getpixel(middle), mark


# --- Geyser ---


def test_geyser_the_last_move_arrow_never_covers_a_token() -> None:
    beside = 0
    for state in geyser_states():
        arrow = geyser.last_move_arrow(state)
        assert arrow is not None
        src, dst = state.last_move
        for square in (src, dst):  # the moved token, and one left where it came from
            if state.board[square] is not None:
                assert not intersects(arrow.box, geyser.token_box(square)), (state.last_move, arrow)
        for square, held in enumerate(state.board):  # nor, in these games, any other
            if held is not None:
                assert not intersects(arrow.box, geyser.token_box(square)), (state.last_move, square, arrow)
        beside += arrow.shape == geyser.SMALL
    assert beside >= 5  # some moves between two held squares: the arrow goes beside them


def test_geyser_the_moved_token_looks_the_same_with_and_without_the_arrow() -> None:
    states = [s for s in geyser_states() if s.board[s.last_move[1]] is not None][::60]
    assert len(states) >= 10
    for state in states:
        image, bare = png(render("geyser", state)), png(render("geyser", replace(state, last_move=None)))
        for square in state.last_move:
            if state.board[square] is not None:
                left, top, right, bottom = (round(v) for v in geyser.token_box(square))
                assert same(image, bare, (left, top, right, bottom)), state.last_move


# --- Horizon ---


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_horizon_the_placer_dot_and_the_last_play_marks_never_meet(viewer: int | None) -> None:
    met = 0
    for seed in range(12):
        for state in playout("horizon", 2, seed):
            view = HORIZON.view(state, viewer)
            marks = horizon.last_play_marks(view, viewer)
            if not marks:
                continue
            _, mat, space = view.last_play
            slot = view.mats[mat][space - 1]
            if slot is None or slot.placed_by not in (0, 1):
                continue
            met += 1
            dot = horizon.placer_dot_box(mat, space, viewer)
            card = horizon.slot_box(mat, space, viewer)
            assert card[0] <= dot[0] and dot[2] <= card[2] and card[1] <= dot[1] and dot[3] <= card[3]
            for box in marks:
                assert not intersects(dot, box), (view.last_play, dot, box)
    assert met >= 50


# --- "1, 2, 3" ---


def test_fish_the_last_move_tint_changes_only_its_own_tiles_and_never_a_token() -> None:
    from bot.games.fish import FishMove
    from renderers import fish

    checked = 0
    for seed in range(10):
        for state in playout("fish", 2, seed)[1::4]:
            if state.last_move is None or state.cleared:
                continue
            marked, bare = png(render("fish", state)), png(render("fish", replace(state, last_move=None)))
            move = FishMove.parse(state.last_move)
            own = [fish.tile_centre(t) for t in (move.src, move.dst) if t is not None]
            boxes = [(x - fish.HEX_W // 2, y - fish.HEX_R, x + fish.HEX_W // 2, y + fish.HEX_R + 4) for x, y in own]
            for seat, tiles in enumerate(state.tokens):  # every token, the moved one included, pixel for pixel
                for tile in tiles:
                    x, y = fish.tile_centre(tile)
                    token = (x - 13, y + fish.TOKEN_DROP - 13, x + 13, y + fish.TOKEN_DROP + 13)  # inside the disc
                    assert same(marked, bare, token), (seed, state.last_move, seat, tile)
            outside = Image.new("1", marked.size, 1)  # and nothing on the board outside the move's own tiles
            outside.paste(0, (fish.PANEL_LEFT - 4, 0, *marked.size))  # (the panel says "Last: ...")
            for box in boxes:
                outside.paste(0, tuple(round(v) for v in box))
            difference = Image.new("1", marked.size, 0)
            difference.paste(1, mask=_differs(marked, bare))
            assert not Image.composite(difference, Image.new("1", marked.size, 0), outside).getbbox(), state.last_move
            checked += 1
    assert checked >= 60


def _differs(a: Image.Image, b: Image.Image) -> Image.Image:
    """A mask of the pixels where two images differ."""
    from PIL import ImageChops

    return ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0).convert("1")
