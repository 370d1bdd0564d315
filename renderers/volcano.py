"""Draws a Volcano board: the 5x5 grid of stacks on the left, scores, captures and clocks on the right.

Each stack is seen from the side, bottom to top, every piece a pyramid layer whose width, height and pips
(1-3) give its size and whose fill gives its colour; clear pieces are pale lavender with a dark rim. Stacks
taller than three show their top three pieces and a count badge. Caps are black pyramids with a white rim on
top of everything. The last turn is drawn as numbered arrows in the mover's colour, its landings as dashed
squares and its captures as gold badges holding the captured piece; steps of the turn in progress are white
arrows. Piece, cap and badge sprites depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.clock import format_short
from bot.games.volcano import COLOURS, SIZE, VOLCANO, Step, VolcanoState
from renderers.draw import (
    ALERT,
    INK,
    MUTED,
    PANEL,
    PANEL_BOX,
    SEAT_COLOURS,
    TEXT,
    WHITE,
    Caption,
    Colour,
    Point,
    antialiased,
    arrow_layer,
    clock_pill,
    disc,
    fit,
    font,
    header_lines,
    paste,
    paused_badge,
    result_box,
    rounded_box,
    text,
    wrap,
)

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


@cache
def _arrow(dx: int, dy: int, colour: Colour) -> Image.Image:
    """A step's arrow sprite: steps come in 8 directions and one length, so each is painted once per colour."""
    angle = -math.degrees(math.atan2(dy, dx))
    return arrow_layer(math.hypot(dx, dy), angle, colour, shaft=9, head_width=26, head_length=20)


def _step_points(step: str) -> tuple[Point, Point]:
    """Start and tip of a step's arrow: centre to centre, cut short at both ends."""
    parsed = Step.parse(step)
    (sx, sy), (dx, dy) = square_centre(parsed.src), square_centre(parsed.dst)
    return (sx + (dx - sx) * 0.22, sy + (dy - sy) * 0.22), (sx + (dx - sx) * 0.72, sy + (dy - sy) * 0.72)


def _draw_steps(image: Image.Image, steps: tuple[str, ...], colour: Colour, badge: Colour) -> None:
    """One arrow per step; numbered on their tails when there are several."""
    points = [_step_points(step) for step in steps]
    for start, end in points:
        layer = _arrow(round(end[0] - start[0]), round(end[1] - start[1]), colour)
        paste(image, layer, (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2)))
    if len(steps) > 1:
        for k, (start, _) in enumerate(points):
            paste(image, _number(k + 1, badge), (round(start[0]), round(start[1])))


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
    if state.last_steps:
        _draw_steps(image, state.last_steps, mover, mover)
    if state.steps:
        turn_colour = seat_colour(state.turn) if state.turn is not None else WHITE
        _draw_steps(image, state.steps, WHITE, turn_colour)
    for square, stack in enumerate(state.board):  # over the arrows, like the capture badges
        if len(stack) > SHOWN:
            badge = _count_badge(len(stack))
            cx, cy = square_centre(square)
            image.paste(badge, (cx - SQUARE // 2 + 5, cy - SQUARE // 2 + 5), badge)
    for square, piece in state.captured_last:
        cx, cy = square_centre(square)
        paste(image, _capture_badge(piece), (cx + SQUARE // 2 - 20, cy - SQUARE // 2 + 20))
    _draw_panel(ImageDraw.Draw(image), image, state, viewer, caption)
    return image


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


def _draw_panel(
    draw: ImageDraw.ImageDraw, image: Image.Image, state: VolcanoState, viewer: int | None, caption: Caption
) -> None:
    """Title (and PAUSED), header, one box per seat, then whose turn or the result and the last turn."""
    left, right = PANEL_LEFT + 8, WIDTH - 10
    width = right - left
    text(draw, (left, 10), "Volcano", 26, TEXT, bold=True)
    if caption.paused:
        paused_badge(draw, right)
    y = 48
    y = header_lines(draw, caption.header, left, width, y)
    seats = state.seats
    clocks = caption.clocks
    compact = seats > 3
    name_size = 15 if compact else 17
    row = 22 if compact else 28  # name line
    pieces_row = 30 if compact else 36
    clock_row = 22 if clocks and not compact else 0  # compact boxes show the clock beside the captures
    box_height = row + pieces_row + clock_row + 8
    gap = 6 if compact else 10
    turn = VOLCANO.to_move(state)
    scores = VOLCANO.scores(state)
    for seat in range(seats):
        colour = seat_colour(seat)
        resigned = seat in state.resigned
        rounded_box(draw, (left, y, right, y + box_height), PANEL_BOX, border=colour if seat == turn else None)
        mid = y + 4 + row // 2
        paste(image, disc(8 if compact else 10, colour), (left + 16, mid))
        score = f"{scores[seat]:g}"
        score_size = 18 if compact else 22
        score_w = font(score_size, True).getlength(score)
        tags = (" (you)" if seat == viewer else "") + (" ▶" if seat == turn else "")
        room = width - 44 - score_w - font(name_size, True).getlength(tags)
        if resigned:
            resigned_w = font(12, True).getlength("resigned")
            room -= resigned_w + 8
            text(draw, (right - 16 - score_w, mid), "resigned", 12, ALERT, bold=True, anchor="rm")
        name = fit(caption.name(seat), name_size, room, bold=True)
        text(draw, (left + 30, mid), name + tags, name_size, MUTED if resigned else TEXT, bold=True, anchor="lm")
        text(draw, (right - 10, mid), score, score_size, TEXT, bold=True, anchor="rm")
        bottom = y + 4 + row + pieces_row - 6
        limit = right - 8
        clock = clocks[seat] if clocks and seat < len(clocks) else None
        if clock is not None and compact:
            short = f"{format_short(clock.move_seconds)} + {format_short(clock.reserve_seconds)}"
            short_w = round(font(12, True).getlength(short))
            clock_pill(draw, clock, short, (right - short_w - 16, bottom - 15, right - 6, bottom + 3), 12)
            limit = right - short_w - 22
        if state.captures[seat]:
            _draw_captures(image, state.captures[seat], left + 10, bottom, limit)
        else:
            text(draw, (left + 12, bottom), "no captures", 12, MUTED, anchor="ls")
        if clock is not None and not compact:
            line = clock.words
            top = y + 4 + row + pieces_row
            clock_pill(draw, clock, fit(line, 13, width - 24), (left + 6, top - 1, right - 6, top + 19), 13)
        y += box_height + gap
    _draw_status(draw, image, state, caption, left, right, y + 2)


def _draw_status(
    draw: ImageDraw.ImageDraw, image: Image.Image, state: VolcanoState, caption: Caption, left: int, right: int, y: int
) -> None:
    """The result (the caption's, or the game's), or whose turn it is; then the last turn and this turn."""
    width = right - left
    turn = VOLCANO.to_move(state)
    outcome = VOLCANO.outcome(state)
    lines: list[str] = []
    if caption.result is not None:
        lines = wrap(caption.result, 15, width - 20, bold=True, max_lines=3)
    elif outcome is not None:
        winners = sorted(outcome.winners)
        best = max((outcome.scores[s] for s in winners), default=0)
        if not winners:
            headline = "Game over: nobody wins"
        elif len(winners) == 1:
            headline = f"{caption.name(winners[0])} wins with {best:g}"
        else:
            headline = f"{', '.join(caption.name(s) for s in winners)} share the win with {best:g}"
        lines = wrap(headline, 15, width - 20, bold=True, max_lines=3)
    y = result_box(draw, lines, left, right, y)
    if lines:
        if caption.result is None and state.end:
            for line in wrap(f"({state.end})", 12, width, max_lines=2):
                text(draw, (left, y), line, 12, MUTED)
                y += 15
            y += 2
    elif turn is not None:
        paste(image, disc(8, seat_colour(turn)), (left + 9, y + 10))
        text(draw, (left + 24, y + 10), fit(f"{caption.name(turn)} to move", 15, width - 26, bold=True), 15, TEXT,
             bold=True, anchor="lm")  # fmt: skip
        y += 24
    if state.steps:
        for line in wrap(f"This turn (white): {', '.join(state.steps)}", 12, width, max_lines=2):
            text(draw, (left, y), line, 12, TEXT)
            y += 15
    if state.last_steps and state.last_seat is not None:
        taken = len(state.captured_last)
        got = f" · captured {taken}" if taken else ""
        last = f"Last: {caption.name(state.last_seat)} {', '.join(state.last_steps)}{got}"
        for line in wrap(last, 12, width, max_lines=2):
            if y + 14 > HEIGHT:
                break
            text(draw, (left, y), line, 12, MUTED)
            y += 15


__all__ = ["HEIGHT", "PANEL_LEFT", "WIDTH", "draw", "groups", "seat_colour", "square_box", "square_centre"]
