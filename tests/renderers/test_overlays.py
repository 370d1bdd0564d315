"""Marks never cover what they explain (issues #20 and #34): the shared placement rule (renderers/overlays.py),
and over many random legal positions of every game the marks each renderer computes and draws.

- Every game: the last move is a tint under the pieces (lichess-style), so every piece on the board is
  drawn pixel for pixel as without it, and nothing changes outside the move's own squares (and, in
  Event Horizon, the slots its chain's cards left).
- Volcano: a step's number (one digit on a disc, two on a wider pill) sits at the edge of the square the step
  reached, never over a stack (nor a count or capture badge, nor another number), and is drawn where it
  was placed.
- Horizon: the placer's dot and the last play's corner marks never meet.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.games import GAMES
from bot.games.volcano import VOLCANO, Step, parse_square
from renderers import fish, geyser, horizon, render, themiscyra, volcano
from renderers.overlays import Box, box_at, grow, intersects, overlap, place
from tests.renderers.pixels import same

HORIZON = GAMES["horizon"]


def playout(key: str, seats: int, seed: int, cap: int = 300) -> list[Any]:
    game, rng = GAMES[key], random.Random(seed)
    states = [game.new(seats, seed)]
    while game.to_move(states[-1]) is not None and len(states) < cap:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


@cache
def volcano_states() -> list[Any]:
    return [s for seed in range(36) for s in playout("volcano", seed % 6 + 1, seed) if s.last_steps or s.steps]


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


# --- Volcano ---


def test_volcano_step_numbers_never_cover_a_stack_a_badge_or_each_other() -> None:
    checked = two_digits = 0
    for state in volcano_states():
        marks = volcano.step_marks(state)
        pieces = volcano.piece_boxes(state)
        badges = volcano.badge_boxes(state)
        board = (volcano.BOARD_LEFT - 4, volcano.BOARD_TOP, volcano.BOARD_LEFT + volcano.BOARD_SIDE + 4,
                 volcano.BOARD_TOP + volcano.BOARD_SIDE)  # fmt: skip
        expected = [(k + 1, Step.parse(step).dst) for steps in (state.last_steps, state.steps) if len(steps) > 1
                    for k, step in enumerate(steps)]  # fmt: skip
        assert [(m.number, m.square) for m in marks] == expected
        for mark in marks:
            checked += 1
            assert intersects(mark.label, volcano.square_box(mark.square)), mark  # at its own square's edge
            for square, box in pieces.items():
                assert not intersects(mark.label, box), (state.last_steps, state.steps, square, mark, box)
            for box in badges:
                assert not intersects(mark.label, box), (state.last_steps, state.steps, mark, box)
            label = mark.label
            assert board[0] <= label[0] and label[2] <= board[2] and board[1] <= label[1] and label[3] <= board[3]
        for a, b in combinations(marks, 2):
            assert not intersects(a.label, b.label), (state.last_steps, state.steps, a, b)
        two_digits += sum(mark.number >= 10 for mark in marks)
    assert checked >= 500 and two_digits >= 100  # the wider pills of turns of 10 steps or more too


def test_volcano_numbers_are_drawn_where_they_were_placed() -> None:
    states = [s for s in volcano_states() if len(s.last_steps) > 1 or len(s.steps) > 1][::40]
    states.append(next(s for s in volcano_states() if len(s.last_steps) >= 12))  # pills for 10 to 12
    assert len(states) >= 10
    for state in states:
        image = png(render("volcano", state))
        for mark in volcano.step_marks(state):
            cx = round((mark.label[0] + mark.label[2]) / 2)
            above, below = round(mark.label[1]) + 3, round(mark.label[3]) - 4  # the disc or pill, off its digits
            assert image.getpixel((cx, above)) == mark.colour == image.getpixel((cx, below)), mark


def test_volcano_a_step_and_its_return_in_one_picture_are_both_numbered_apart() -> None:
    start = VOLCANO.state_from_position({"c1": "R1R2R3", "c2": "G1G2G3", "b3": "Y1Y2Y3"}, "a1 b2 e3 d4 e5")
    state = replace(start, last_seat=1, last_steps=("c3-b2", "b3-c3"), steps=("b2-c2", "c3-b3"), turn=0)
    marks = volcano.step_marks(state)
    assert [m.step for m in marks] == ["c3-b2", "b3-c3", "b2-c2", "c3-b3"]
    assert [m.number for m in marks] == [1, 2, 1, 2]
    assert [m.colour for m in marks] == [volcano.LAST_MOVE] * 2 + [volcano.IN_TURN] * 2
    assert all(not intersects(a.label, b.label) for a, b in combinations(marks, 2))
    tinted = volcano.tints(state)  # the turn in progress is the newer mark where both touched a square
    assert {square: colour for square, (colour, _) in tinted.items()} == {
        parse_square("c3"): volcano.IN_TURN, parse_square("b2"): volcano.IN_TURN,
        parse_square("b3"): volcano.IN_TURN, parse_square("c2"): volcano.IN_TURN,
    }  # fmt: skip


# --- every game: the last move hides no piece ---


@dataclass(frozen=True)
class Marked:
    """How to read one game's last move: the state without it, the boxes inside its pieces (only the piece
    is drawn there), and the boxes its marks may change (its own squares)."""

    seats: tuple[int, ...]
    bare: Callable[[Any], Any]
    cores: Callable[[Any], list[Box]]
    allowed: Callable[[Any], list[Box]]
    board_right: int


def _fish_cores(state: Any) -> list[Box]:
    boxes: list[Box] = []
    for tiles in state.tokens:
        for tile in tiles:
            x, y = fish.tile_centre(tile)
            boxes.append(box_at((x, y + fish.TOKEN_DROP), 24))
    return boxes


def _fish_allowed(state: Any) -> list[Box]:
    from bot.games.fish import FishMove

    move = FishMove.parse(state.last_move)
    boxes: list[Box] = []
    for tile in (move.src, move.dst):
        if tile is not None:
            x, y = fish.tile_centre(tile)
            boxes.append((x - fish.HEX_W // 2, y - fish.HEX_R, x + fish.HEX_W // 2, y + fish.HEX_R + 4))
    return boxes


def _volcano_cores(state: Any) -> list[Box]:
    """Inside each drawn piece's trapezoid (its middle half, clear of its slopes) and each cap's triangle."""
    boxes: list[Box] = []
    caps = set(state.caps)
    for square, stack in enumerate(state.board):
        cx, cy = volcano.square_centre(square)
        base = cy + volcano.STACK_BASE
        for piece in stack[-volcano.SHOWN :]:
            w, h = volcano.PIECE_W[piece[1]], volcano.PIECE_H[piece[1]]
            boxes.append((cx - w / 4, base - h + 3, cx + w / 4, base - 3))
            base -= h
        if square in caps:
            boxes.append((cx - 4, base - 10, cx + 4, base - 4))
    return boxes


def _volcano_allowed(state: Any) -> list[Box]:
    return [volcano.square_box(s) for s in volcano.tints(state)] + [m.label for m in volcano.step_marks(state)]


def _geyser_cores(state: Any) -> list[Box]:
    half = round(geyser.TOKEN_R * 0.65)
    starts = state.start_squares
    return [box_at(geyser.token_centre(s, starts), 2 * half) for s, held in enumerate(state.board) if held is not None]


def _themiscyra_cores(state: Any) -> list[Box]:
    stones = state.stones[0] | state.stones[1]
    return [box_at(themiscyra.square_centre(s), 22) for s in range(100) if stones >> s & 1]


def _themiscyra_allowed(state: Any) -> list[Box]:
    a, b, start, end = state.last
    return [themiscyra.square_box(s) for s in {a, b, end} | ({start} if start is not None else set())]


def _horizon_cores(state: Any) -> list[Box]:
    """Every card on the mats (inside its rim) and every active token, as a spectator sees them."""
    boxes: list[Box] = []
    for mat in (0, 1):
        for space in range(1, 9):
            if state.mats[mat][space - 1] is not None:
                boxes.append(grow(horizon.slot_box(mat, space, None), -4))
        if state.escaped[mat] < horizon.TOKENS:
            boxes.append(box_at(horizon.token_centre(mat, max(0, min(8, state.positions[mat])), None), 18))
    return boxes


def _horizon_allowed(state: Any) -> list[Box]:
    """The slots the chain's cards left, and the numbers row a Mimic's copy arrow crosses."""
    mover = state.last_seat
    numbers = (0, horizon.MID_TOP - 8, horizon.PANEL_LEFT, horizon.MID_BOTTOM + 8)
    return [horizon.slot_box(mover, space, None) for _, space, _, _ in horizon.chain_marks(state)] + [numbers]


MARKED = {
    "fish": Marked((2,), lambda s: replace(s, last_move=None), _fish_cores, _fish_allowed, fish.PANEL_LEFT - 4),
    "volcano": Marked(
        (2, 4, 6), lambda s: replace(s, last_steps=(), steps=()), _volcano_cores, _volcano_allowed,
        volcano.PANEL_LEFT - 4,
    ),
    "geyser": Marked(
        (2, 3, 4), lambda s: replace(s, last_move=None, events=()), _geyser_cores,
        lambda s: [geyser.square_box(t) for t in geyser.tints(s)], geyser.PANEL_LEFT - 4,
    ),
    "themiscyra": Marked(
        (2,), lambda s: replace(s, last=None), _themiscyra_cores, _themiscyra_allowed, themiscyra.PANEL_LEFT - 4
    ),
    "horizon": Marked(
        (2,), lambda s: replace(s, last_chain=()), _horizon_cores, _horizon_allowed, horizon.PANEL_LEFT - 4
    ),
}  # fmt: skip


def _marked(key: str, state: Any) -> bool:
    """Whether the state has a last move to mark (one that leaves a whole board to compare)."""
    if key == "fish":
        return state.last_move is not None and not state.cleared
    if key == "volcano":
        return bool(state.last_steps or state.steps)
    if key == "geyser":
        return bool(geyser.tints(state))
    if key == "themiscyra":
        return state.last is not None
    return bool(state.last_chain) and state.last_seat is not None


@pytest.mark.parametrize("key", sorted(MARKED))
def test_no_last_move_mark_covers_a_piece_or_changes_another_square(key: str) -> None:
    spec = MARKED[key]
    checked = 0
    for seed in range(12):
        states = playout(key, spec.seats[seed % len(spec.seats)], seed)
        for state in [s for s in states if _marked(key, s)][:: 3 if key != "horizon" else 1][:12]:
            view = GAMES[key].view(state, None)
            marked, bare = png(render(key, view)), png(render(key, spec.bare(view)))
            for core in spec.cores(view):  # every piece, pixel for pixel
                assert same(marked, bare, tuple(round(v) for v in core)), (seed, core)
            outside = Image.new("1", marked.size, 1)  # and nothing on the board outside the move's own squares
            outside.paste(0, (spec.board_right, 0, *marked.size))
            for box in spec.allowed(view):
                outside.paste(0, tuple(round(v) for v in box))
            changed = ImageChops.difference(marked, bare).convert("L").point(lambda v: 255 if v else 0).convert("1")
            assert not ImageChops.logical_and(changed, outside).getbbox(), (seed, key)
            checked += 1
    assert checked >= 40, checked


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
