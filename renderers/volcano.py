"""Draws a Volcano board: the 5x5 grid of stacks on the left, scores, captures and clocks on the right.

Each stack is seen from the side, bottom to top, every piece a pyramid layer whose width, height and pips
(1-3) give its size and whose fill gives its colour; clear pieces are pale lavender with a dark rim. Stacks
taller than three show their top three pieces and a count badge. Caps are black pyramids with a white rim on
top of everything. The last turn is drawn as numbered arrows in the mover's colour, its landings as dashed
squares and its captures as gold badges holding the captured piece; steps of the turn in progress are white
arrows. Arrows run from stack edge to stack edge, side by side when they join the same two squares, and
their numbers sit where no piece is (`step_marks`, renderers/overlays.py). Piece, cap and badge sprites
depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from itertools import chain

from PIL import Image, ImageDraw

from bot.games.volcano import COLOURS, SIZE, VOLCANO, Step, VolcanoState
from bot.wording import listing
from renderers.draw import (
    INK,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    WHITE,
    Caption,
    Colour,
    Point,
    antialiased,
    arrow_layer,
    disc,
    font,
    paste,
    seat_token,
    text,
)
from renderers.overlays import Box, arrow_box, box_at, grow, head_box, intersects, line_boxes, place, trim
from renderers.panel import Line, Panel, Strip, Turn, captioned, draw_panel, seat_card

SQUARE = 104  # side of a board square
BOARD_LEFT = 34  # room for the row numbers
BOARD_TOP = 16
BOARD_SIDE = SIZE * SQUARE
PANEL_LEFT = BOARD_LEFT + BOARD_SIDE + 14
WIDTH = 800
HEIGHT = 590
STACK_BASE = 40  # the bottom piece rests this far below the square's centre
SHOWN = 3  # pieces drawn per stack; taller stacks get a count badge

BOARD_BG: Colour = (34, 28, 30)
SQUARE_LIGHT: Colour = (92, 80, 76)
SQUARE_DARK: Colour = (74, 63, 61)
GRID_LINE: Colour = (44, 36, 36)
CAP_FILL: Colour = (8, 8, 10)
CAPTURE_GOLD: Colour = (255, 196, 40)
PIECE_FILL: dict[str, Colour] = {
    "R": (222, 48, 48),
    "Y": (250, 210, 52),
    "G": (40, 168, 72),
    "B": (48, 112, 236),
    "C": (218, 212, 240),
}
PIP_INK: dict[str, Colour] = {"R": WHITE, "Y": INK, "G": WHITE, "B": WHITE, "C": INK}
PIECE_W = {"1": 30, "2": 44, "3": 58}  # base width of a piece on the board
PIECE_H = {"1": 14, "2": 18, "3": 22}
MINI_W = {"1": 11, "2": 16, "3": 21}  # captured pieces in the panel
MINI_H = {"1": 7, "2": 9, "3": 11}


def seat_colour(seat: int) -> Colour:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def square_centre(square: int) -> tuple[int, int]:
    """Pixel centre of a square (0..24, a1=0 ... e5=24) in the rendered image; row 5 is at the top."""
    col, row = divmod(square, SIZE)
    return BOARD_LEFT + SQUARE * col + SQUARE // 2, BOARD_TOP + SQUARE * (SIZE - 1 - row) + SQUARE // 2


def square_box(square: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a square, for cropping."""
    cx, cy = square_centre(square)
    half = SQUARE // 2
    return cx - half, cy - half, cx + half, cy + half


def _trapezoid(x: float, base: float, width: float, height: float, top_ratio: float, s: int) -> list[Point]:
    """Corners of a pyramid layer with its base centred on (x, base), scaled by s."""
    top = width * top_ratio / 2
    return [
        ((x - width / 2) * s, base * s),
        ((x + width / 2) * s, base * s),
        ((x + top) * s, (base - height) * s),
        ((x - top) * s, (base - height) * s),
    ]


@cache
def _piece(piece: str) -> Image.Image:
    """A board piece: a truncated pyramid with 1-3 pips, base centred on the sprite's bottom middle."""
    colour, size = piece[0], piece[1]
    w, h = PIECE_W[size], PIECE_H[size]
    side = (w + 4, h + 4)

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _trapezoid(side[0] / 2, h + 2, w, h, 0.55, s)
        draw.polygon(corners, fill=PIECE_FILL[colour], outline=INK, width=round(2 * s))
        pips = int(size)
        cy = 2 + h * 0.5
        for k in range(pips):
            cx = side[0] / 2 + (k - (pips - 1) / 2) * 8
            draw.ellipse(((cx - 2.4) * s, (cy - 2.4) * s, (cx + 2.4) * s, (cy + 2.4) * s), fill=PIP_INK[colour])

    return antialiased(side, paint)


@cache
def _mini(piece: str) -> Image.Image:
    """A captured piece in the panel: a small pyramid layer without pips."""
    colour, size = piece[0], piece[1]
    w, h = MINI_W[size], MINI_H[size]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _trapezoid((w + 2) / 2, h + 1, w, h, 0.5, s)
        draw.polygon(corners, fill=PIECE_FILL[colour], outline=INK, width=round(1.2 * s))

    return antialiased((w + 2, h + 2), paint)


@cache
def _cap() -> Image.Image:
    """A cap: a black pyramid with a thick white rim, so it shows on any piece and on the board."""
    w, h = 34, 26

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        outer = [(2 * s, (h + 3) * s), ((w + 2) * s, (h + 3) * s), ((w / 2 + 2) * s, 1.5 * s)]
        draw.polygon(outer, fill=WHITE)
        inner = [(6.5 * s, (h + 0.5) * s), ((w - 2.5) * s, (h + 0.5) * s), ((w / 2 + 2) * s, 8.5 * s)]
        draw.polygon(inner, fill=CAP_FILL)

    return antialiased((w + 4, h + 5), paint)


@cache
def _count_badge(count: int) -> Image.Image:
    """The height of a stack taller than three, as a white pill."""
    label = str(count)
    width = 26 if count < 10 else 32
    badge = Image.new("RGBA", (width, 20), (0, 0, 0, 0))
    draw = ImageDraw.Draw(badge)
    draw.rounded_rectangle((0, 0, width - 1, 19), radius=9, fill=WHITE, outline=INK, width=2)
    text(draw, (width / 2, 10), label, 13, INK, bold=True, anchor="mm")
    return badge


@cache
def _capture_badge(piece: str) -> Image.Image:
    """A dark disc with a gold ring holding the captured piece: where the last eruption took a piece."""
    sprite = disc(18, INK, ring=CAPTURE_GOLD, ring_width=3).copy()
    mini = _piece(piece)
    if mini.width > 26:
        mini = mini.resize((26, round(mini.height * 26 / mini.width)), Image.Resampling.LANCZOS)
    sprite.alpha_composite(mini, ((sprite.width - mini.width) // 2, (sprite.height - mini.height) // 2 + 1))
    return sprite


@cache
def _dashed_square(colour: Colour) -> Image.Image:
    """A dashed outline just inside a square: a landing of the last eruption."""
    side = SQUARE
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    inset, dash, gap = 4, 12, 7
    lo, hi = inset, side - 1 - inset
    pos = lo
    while pos < hi:
        end = min(pos + dash, hi)
        for box in ((pos, lo, end, lo + 3), (pos, hi - 3, end, hi), (lo, pos, lo + 3, end), (hi - 3, pos, hi, end)):
            draw.rectangle(box, fill=INK)
            draw.rectangle((box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), fill=colour)
        pos += dash + gap
    return sprite


@cache
def _number(n: int, colour: Colour) -> Image.Image:
    """A step number on a small disc."""
    badge = disc(10, colour, ring=None).copy()
    ink = INK if sum(colour) > 480 else WHITE
    text(ImageDraw.Draw(badge), (badge.width / 2, badge.height / 2), str(n), 13, ink, bold=True, anchor="mm")
    return badge


@cache
def _background() -> Image.Image:
    """The board squares, coordinates and the panel: everything that never changes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((PANEL_LEFT - 4, 0, WIDTH, HEIGHT), fill=PANEL)
    for square in range(SIZE * SIZE):
        col, row = divmod(square, SIZE)
        left, top, right, bottom = square_box(square)
        draw.rectangle((left, top, right - 1, bottom - 1), fill=SQUARE_LIGHT if (col + row) % 2 else SQUARE_DARK)
    for k in range(SIZE + 1):
        x, y = BOARD_LEFT + SQUARE * k, BOARD_TOP + SQUARE * k
        draw.line((x, BOARD_TOP, x, BOARD_TOP + BOARD_SIDE), fill=GRID_LINE, width=2)
        draw.line((BOARD_LEFT, y, BOARD_LEFT + BOARD_SIDE, y), fill=GRID_LINE, width=2)
    for k in range(SIZE):
        cx, _ = square_centre(k * SIZE)
        text(draw, (cx, BOARD_TOP + BOARD_SIDE + 16), "abcde"[k], 20, MUTED, bold=True, anchor="mm")
        _, cy = square_centre(k)
        text(draw, (BOARD_LEFT // 2, cy), str(k + 1), 20, MUTED, bold=True, anchor="mm")
    return image


def _draw_stack(image: Image.Image, square: int, stack: tuple[str, ...], capped: bool) -> None:
    cx, cy = square_centre(square)
    base = cy + STACK_BASE
    for piece in stack[-SHOWN:]:
        sprite = _piece(piece)
        image.paste(sprite, (cx - sprite.width // 2, base - sprite.height + 2), sprite)
        base -= PIECE_H[piece[1]]
    if capped:
        cap = _cap()
        image.paste(cap, (cx - cap.width // 2, base - cap.height + 3), cap)


ARROW_SHAFT, ARROW_HEAD_W, ARROW_HEAD_L, ARROW_RIM = 9, 26, 20, 2.5
ARROW_GAP = 4  # an arrow stops this far short of a stack's box
ARROW_MIN = 28  # shortest arrow: its head and a stub of shaft, even between two tall stacks
LANE = 28  # arrows over the same two squares (a step and its return, two turns) are this far apart: a
# number on one clears the heads of the next
LABEL = 22  # a step number's disc, the side of its box
_BESIDE = (0, 15, -15, 24, -24, 33, -33, 42, -42)  # label candidates: px beside the arrow, outer side first


@dataclass(frozen=True, slots=True)
class StepMark:
    """One step's arrow as drawn (tail to tip, trimmed to the stacks and moved into its lane) and where its
    number goes (`label`, None when the turn has one step)."""

    step: str
    tail: Point
    tip: Point
    colour: Colour
    badge: Colour
    number: int
    label: Box | None

    @property
    def head(self) -> Box:
        return head_box(self.tail, self.tip, ARROW_HEAD_W, ARROW_HEAD_L, ARROW_RIM)

    @property
    def box(self) -> Box:
        return arrow_box(self.tail, self.tip, ARROW_SHAFT, ARROW_HEAD_W, ARROW_HEAD_L, ARROW_RIM)


@lru_cache(maxsize=4096)
def stack_box(square: int, stack: tuple[str, ...], capped: bool) -> Box | None:
    """The box a square's drawn stack covers (its top three pieces and its cap), None for an empty square."""
    if not stack and not capped:
        return None
    cx, cy = square_centre(square)
    base = cy + STACK_BASE
    left, right, top, bottom = float(cx), float(cx), float(base), float(base + 2)
    for piece in stack[-SHOWN:]:  # the sprites _draw_stack pastes
        side = PIECE_W[piece[1]] + 4
        left, right = min(left, cx - side // 2), max(right, cx - side // 2 + side)
        top = base - PIECE_H[piece[1]] - 2
        base -= PIECE_H[piece[1]]
    if capped:  # the cap sprite is 38 x 31
        left, right, top, bottom = min(left, cx - 19), max(right, cx + 19), base - 28, max(bottom, base + 3)
    return left, top, right, bottom


def piece_boxes(state: VolcanoState) -> dict[int, Box]:
    """Each occupied square's stack box: what no step number may cover."""
    caps = set(state.caps)
    boxes = {s: stack_box(s, stack, s in caps) for s, stack in enumerate(state.board)}
    return {s: box for s, box in boxes.items() if box is not None}


def badge_boxes(state: VolcanoState) -> list[Box]:
    """The count badges of tall stacks and the capture badges: they explain their squares, so stay clear too."""
    boxes: list[Box] = []
    for square, stack in enumerate(state.board):
        if len(stack) > SHOWN:
            cx, cy = square_centre(square)
            left, top = cx - SQUARE // 2 + 5, cy - SQUARE // 2 + 5
            boxes.append((left, top, left + (26 if len(stack) < 10 else 32), top + 20))
    for square, _ in state.captured_last:
        cx, cy = square_centre(square)
        boxes.append(box_at((cx + SQUARE // 2 - 20, cy - SQUARE // 2 + 20), 38))
    return boxes


def _arrow_line(src: int, dst: int, lane: float, blocked: list[Box]) -> tuple[Point, Point]:
    """Tail and tip of a step's arrow: centre to centre moved `lane` px sideways, from where it leaves the
    stack it starts on to where it meets the stack (or badge) it points at (`overlays.trim`), no nearer
    either centre than a fifth of the way. One shorter than ARROW_MIN grows backwards, over the square the
    cap left, never over the one it explains. Its length is rounded to 4 px so that sprites repeat."""
    (sx, sy), (ex, ey) = square_centre(src), square_centre(dst)
    low_x, low_y = square_centre(min(src, dst))
    high_x, high_y = square_centre(max(src, dst))
    norm = math.dist((low_x, low_y), (high_x, high_y))
    nx, ny = -(high_y - low_y) / norm * lane, (high_x - low_x) / norm * lane  # sideways, the same for a return
    start, end = (sx + nx, sy + ny), (ex + nx, ey + ny)
    low, high = trim(start, end, blocked, ARROW_GAP)
    low, high = max(low, 0.2), min(high, 0.8)
    low = min(low, high - ARROW_MIN / norm)
    length = max(4, round((high - low) * norm / 4) * 4)
    ux, uy = (ex - sx) / norm, (ey - sy) / norm
    tip = (start[0] + (end[0] - start[0]) * high, start[1] + (end[1] - start[1]) * high)
    return (tip[0] - ux * length, tip[1] - uy * length), tip


def _distance(point: Point, start: Point, end: Point) -> float:
    """How far `point` is from the segment start-end."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    t = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / ((dx * dx + dy * dy) or 1.0)
    t = max(0.0, min(1.0, t))
    return math.dist(point, (start[0] + dx * t, start[1] + dy * t))


def _label_candidates(tail: Point, tip: Point, outward: float, squares: tuple[int, int], within: Box) -> Iterator[Box]:
    """Where a step's number may go, best first: on the shaft from its tail on (up to the head's base,
    never over its point), beside it (its outer side first) or a little behind the tail; last, on the grid
    lines at the sides of the two squares it joins, which no stack reaches, nearest the arrow first. Only
    boxes inside `within`."""
    length = math.dist(tail, tip) or 1.0
    ux, uy = (tip[0] - tail[0]) / length, (tip[1] - tail[1]) / length
    side = -1 if outward < 0 else 1
    centres = (
        (round(tail[0] + ux * along - uy * beside * side), round(tail[1] + uy * along + ux * beside * side))
        for along, beside in _offsets(max(0, round(length) - ARROW_HEAD_L - 4))
    )
    for centre in chain(centres, _slots(squares, tail, tip)):
        box = box_at(centre, LABEL)
        if within[0] <= box[0] and box[2] <= within[2] and within[1] <= box[1] and box[3] <= within[3]:
            yield box


def _slots(squares: tuple[int, int], tail: Point, tip: Point) -> Iterator[tuple[int, int]]:
    """Points on the grid lines at the sides of these squares, nearest the arrow first (made when asked)."""
    slots = []
    for square in squares:
        left, top, right, _ = square_box(square)
        slots += [(edge, top + SQUARE // 2 + dy) for dy in (0, 36, -36) for edge in (left, right)]
    yield from sorted(slots, key=lambda centre: _distance(centre, tail, tip))


@cache
def _offsets(reach: int) -> tuple[tuple[int, int], ...]:
    """(along, beside) px from a tail for a number's places, cheapest first: along the shaft up to `reach`
    costs its length, behind the tail twice that, and beside it one and a half times the distance."""
    scored: list[tuple[float, int, tuple[int, int]]] = []
    for along in range(-24, reach + 1, 4):
        for beside in _BESIDE:
            cost = (2 * -along if along < 0 else along) + 1.5 * abs(beside)
            scored.append((cost, len(scored), (along, beside)))
    return tuple(offset for _, _, offset in sorted(scored))


def step_marks(state: VolcanoState) -> tuple[StepMark, ...]:
    """The arrows of the last turn (the mover's colour) and of the turn in progress (white), and their numbers.

    Arrows over the same two squares share them in lanes LANE px apart, so a step and its return, or the
    same step in two turns, never lie on top of each other. Numbers follow `overlays.place`: on or beside
    their arrow, clear of every stack and badge and of the numbers placed before them, and of arrow heads
    and other arrows where they can be.
    """
    mover = seat_colour(state.last_seat) if state.last_seat is not None else WHITE
    turn = seat_colour(state.turn) if state.turn is not None else WHITE
    wanted = [(step, mover, mover, k, len(state.last_steps) > 1) for k, step in enumerate(state.last_steps)]
    wanted += [(step, WHITE, turn, k, len(state.steps) > 1) for k, step in enumerate(state.steps)]
    parsed = [Step.parse(step) for step, *_ in wanted]
    pairs = [frozenset((p.src, p.dst)) for p in parsed]
    blocked = [*piece_boxes(state).values(), *badge_boxes(state)]
    lines, lanes = [], []
    for k, parsed_step in enumerate(parsed):
        lane = (pairs[:k].count(pairs[k]) - (pairs.count(pairs[k]) - 1) / 2) * LANE
        lanes.append(lane)
        lines.append(_arrow_line(parsed_step.src, parsed_step.dst, lane, blocked))
    heads = [head_box(tail, tip, ARROW_HEAD_W, ARROW_HEAD_L, 0) for tail, tip in lines]  # their fill, not rim
    shafts = [line_boxes(tail, tip, ARROW_SHAFT) for tail, tip in lines]
    board = (BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD_SIDE, BOARD_TOP + BOARD_SIDE)
    marks = []
    for k, (step, colour, badge, number, numbered) in enumerate(wanted):
        tail, tip = lines[k]
        label = None
        if numbered:
            outward = lanes[k] if parsed[k].src < parsed[k].dst else -lanes[k]
            ends = (*square_box(parsed[k].src), *square_box(parsed[k].dst))
            near = grow((min(ends[0::4]), min(ends[1::4]), max(ends[2::4]), max(ends[3::4])), 60)
            within = (max(near[0], board[0]), max(near[1], board[1]), min(near[2], board[2]), min(near[3], board[3]))
            others = chain(heads[:k], heads[k + 1 :], *shafts[:k], *shafts[k + 1 :])  # the other arrows
            label = place(
                _label_candidates(tail, tip, outward, (parsed[k].src, parsed[k].dst), within),
                [box for box in blocked if intersects(box, near)],
                [box for box in others if intersects(box, near)],
            )
            blocked.append(label)
        marks.append(StepMark(step, tail, tip, colour, badge, number + 1, label))
    return tuple(marks)


@lru_cache(maxsize=512)
def _arrow(dx: int, dy: int, length: int, colour: Colour) -> Image.Image:
    """A step's arrow sprite, for a direction (dx, dy in -1..1) and a length (a multiple of 4 px)."""
    angle = -math.degrees(math.atan2(dy, dx))
    return arrow_layer(length, angle, colour, shaft=ARROW_SHAFT, head_width=ARROW_HEAD_W, head_length=ARROW_HEAD_L,
                       outline_width=ARROW_RIM)  # fmt: skip


def _draw_steps(image: Image.Image, marks: tuple[StepMark, ...]) -> None:
    """Every arrow, then every number over them."""
    for mark in marks:
        (tx, ty), (hx, hy) = mark.tail, mark.tip
        direction = (round(math.copysign(1, hx - tx)) if abs(hx - tx) > 1 else 0,
                     round(math.copysign(1, hy - ty)) if abs(hy - ty) > 1 else 0)  # fmt: skip
        layer = _arrow(*direction, round(math.dist(mark.tail, mark.tip)), mark.colour)
        paste(image, layer, (round((tx + hx) / 2), round((ty + hy) / 2)))
    for mark in marks:
        if mark.label is not None:
            centre = (round((mark.label[0] + mark.label[2]) / 2), round((mark.label[1] + mark.label[3]) / 2))
            paste(image, _number(mark.number, mark.badge), centre)


def draw(state: VolcanoState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: board, landings, stacks, caps, arrows, captures, then the panel."""
    image = _background().copy()
    mover = seat_colour(state.last_seat) if state.last_seat is not None else WHITE
    for square, _ in state.landings:
        paste(image, _dashed_square(mover), square_centre(square))
    caps = set(state.caps)
    for square, stack in enumerate(state.board):
        if stack or square in caps:
            _draw_stack(image, square, stack, square in caps)
    _draw_steps(image, step_marks(state))  # both turns at once: their arrows share lanes
    for square, stack in enumerate(state.board):  # over the arrows, like the capture badges
        if len(stack) > SHOWN:
            badge = _count_badge(len(stack))
            cx, cy = square_centre(square)
            image.paste(badge, (cx - SQUARE // 2 + 5, cy - SQUARE // 2 + 5), badge)
    for square, piece in state.captured_last:
        cx, cy = square_centre(square)
        paste(image, _capture_badge(piece), (cx + SQUARE // 2 - 20, cy - SQUARE // 2 + 20))
    return draw_panel(image, panel(state, viewer, caption), PANEL_LEFT - 4)


def groups(pieces: tuple[str, ...]) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]], list[str]]:
    """(solid trees, mixed trees, loose pieces) of the best arrangement, as `arrange` counts them.

    Trees are (large, medium, small); mixed trees take the leftover pieces in colour order.
    """
    counts = {(c, z): 0 for c in COLOURS for z in "123"}
    for piece in pieces:
        counts[(piece[0], piece[1])] += 1
    solid: list[tuple[str, ...]] = []
    for colour in COLOURS:
        trees = min(counts[(colour, z)] for z in "123")
        solid += [(f"{colour}3", f"{colour}2", f"{colour}1")] * trees
        for z in "123":
            counts[(colour, z)] -= trees
    left = {z: [f"{c}{z}" for c in COLOURS for _ in range(counts[(c, z)])] for z in "123"}
    m = min(len(v) for v in left.values())
    mixed: list[tuple[str, ...]] = [(left["3"][k], left["2"][k], left["1"][k]) for k in range(m)]
    loose = [p for z in "321" for p in left[z][m:]]
    loose.sort(key=lambda p: (COLOURS.index(p[0]), -int(p[1])))
    return solid, mixed, loose


def _paint_captures(pieces: tuple[str, ...], image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A seat card's strip: its captured pieces standing on the box's floor."""
    _draw_captures(image, pieces, box[0], box[3] - 1, box[2])


def _draw_captures(image: Image.Image, pieces: tuple[str, ...], x: int, bottom: int, right: int) -> None:
    """Captured pieces on one row, standing on `bottom`: solid trees, mixed trees, then loose pieces."""
    solid, mixed, loose = groups(pieces)
    items: list[tuple[str, ...] | None] = [*solid, None, *mixed, None, *[(p,) for p in loose]]
    shown = 0
    total = len(solid) + len(mixed) + len(loose)
    face = font(12, True)
    last_gap = False
    for item in items:
        if item is None:
            if shown and not last_gap:
                x += 6
                last_gap = True
            continue
        width = max(MINI_W[p[1]] for p in item) + 2
        if x + width > right - (0 if shown == total - 1 else face.getlength(f"+{total - shown}") + 4):
            text(ImageDraw.Draw(image), (x + 2, bottom - 1), f"+{total - shown}", 12, MUTED, bold=True, anchor="ls")
            return
        y = bottom
        for piece in item:  # a tree stands large first
            sprite = _mini(piece)
            image.paste(sprite, (x + (width - sprite.width) // 2, y - sprite.height), sprite)
            y -= MINI_H[piece[1]]
        x += width + 2
        shown += 1
        last_gap = False


def panel(state: VolcanoState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: a card per seat (score, captures, clock), the result or the turn, the turns."""
    outcome = VOLCANO.outcome(state)
    live = caption.result is None and outcome is None
    turn = VOLCANO.to_move(state) if live else None
    scores = VOLCANO.scores(state)
    winners = outcome.winners if outcome is not None and caption.result is None else ()
    seats = []
    for seat in range(state.seats):
        seats.append(
            seat_card(
                caption,
                seat,
                viewer,
                turn,
                score=f"{scores[seat]:g}",
                won=seat in winners,
                tag="resigned" if seat in state.resigned else None,
                strip=Strip(30, partial(_paint_captures, state.captures[seat])),
            )
        )
    banner = caption.result
    if banner is None and outcome is not None:
        ranked = sorted(outcome.winners)
        best = max((outcome.scores[s] for s in ranked), default=0)
        if not ranked:
            banner = "Game over: nobody wins"
        elif len(ranked) == 1:
            banner = f"{caption.name(ranked[0])} wins with {best:g}"
        else:
            banner = f"{listing([caption.name(s) for s in ranked])} share the win with {best:g}"
    this_turn = f"This turn (white): {', '.join(state.steps)}" if state.steps else ""
    taken = f" · took {len(state.captured_last)}" if state.captured_last else ""
    last = f"Last: {', '.join(state.last_steps)}{taken}" if state.last_steps else ""
    return captioned(
        "Volcano",
        caption,
        seats=tuple(seats),
        banner=banner,
        turn=Turn(seat_token(turn, 9), f"{caption.name(turn)} to move") if turn is not None else None,
        notes=(Line(this_turn, colour=TEXT, max_lines=2), Line(last, max_lines=2)),
    )


__all__ = [
    "HEIGHT",
    "PANEL_LEFT",
    "WIDTH",
    "StepMark",
    "badge_boxes",
    "draw",
    "groups",
    "piece_boxes",
    "seat_colour",
    "square_box",
    "square_centre",
    "stack_box",
    "step_marks",
]
