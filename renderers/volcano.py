"""Draws a Volcano board: the 5x5 grid of stacks on the left, scores, captures and clocks on the right.

Each stack is seen from the side, bottom to top, every piece a pyramid layer whose width and height give its
size and whose fill gives its colour, with a pattern across it as a second cue for the colour (`PATTERNS`:
red diagonal stripes, yellow dots, green upright stripes, blue level stripes, clear plain); clear pieces are
pale lavender with a dark rim. Stacks taller than three show their top three pieces and a count badge. Caps
are black pyramids with a white rim on top of everything. The last turn tints the squares its steps left and
reached (the turn in progress in white), its landings are dashed squares and its captures gold badges holding
the captured piece; a turn of several steps numbers them at the edge of the square each reached, where no
piece is (`step_marks`, renderers/overlays.py): one digit on a disc, two on a pill. A key under the board says
what the marks mean and shows each colour's piece with its name. Piece, cap and badge sprites depend on few
inputs, so they are painted once and pasted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache, partial

from PIL import Image, ImageChops, ImageDraw

from bot import i18n
from bot.games.volcano import COLOURS, SIZE, VOLCANO, Step, VolcanoState
from bot.i18n import _, ngettext, pgettext
from renderers.draw import (
    FROM_SHARE,
    INK,
    LAST_MOVE,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    SUPERSAMPLE,
    TEXT,
    TO_SHARE,
    WHITE,
    Caption,
    Colour,
    Point,
    and_list,
    antialiased,
    disc,
    fit,
    font,
    paste,
    seat_token,
    text,
    tint,
)
from renderers.overlays import Box, box_at, grow, intersects, place
from renderers.panel import MIN_SIZE, Line, Panel, Strip, Turn, canvas, captioned, draw_panel, seat_card

SQUARE = 104  # side of a board square
BOARD_LEFT = 34  # room for the row numbers
BOARD_TOP = 16
BOARD_SIDE = SIZE * SQUARE
PANEL_LEFT = BOARD_LEFT + BOARD_SIDE + 14
WIDTH = 800
KEY_TOP = 572  # the key's first row (the others are KEY_ROW lower each)
KEY_ROW = 32
KEY_COLUMN = 176  # the key has three entries a row
HEIGHT = KEY_TOP + 3 * KEY_ROW + 22  # the board, its letters and the key's four rows under them
STACK_BASE = 40  # the bottom piece rests this far below the square's centre
SHOWN = 3  # pieces drawn per stack; taller stacks get a count badge

BOARD_BG: Colour = (34, 28, 30)
SQUARE_LIGHT: Colour = (92, 80, 76)
SQUARE_DARK: Colour = (74, 63, 61)
GRID_LINE: Colour = (44, 36, 36)
CAP_FILL: Colour = (8, 8, 10)
CAPTURE_GOLD: Colour = (255, 196, 40)
PIECE_FILL: dict[str, Colour] = {
    "R": (200, 36, 44),
    "Y": (250, 210, 52),
    "G": (110, 210, 120),
    "B": (48, 112, 236),
    "C": (218, 212, 240),
}
"""Apart by at least ΔE 25 under every common colour vision (a darker red, a lighter green: the pair
deuteranopia merges otherwise); each piece also carries its colour's pattern."""
PATTERNS: dict[str, str | None] = {"R": "diagonal", "Y": "dots", "G": "upright", "B": "level", "C": None}
"""Each colour's second cue, drawn across its pieces (on the board, in the captures, in the key) in a pale
tint of a dark colour or a dark shade of a light one: the colours are what a player collects, so they read
without colour vision too, and the pattern keeps the piece's hue. Clear pieces are plain. A text letter
was tried first: a small piece had room for 11 px type only (6 px on a phone)."""
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


def colour_name(colour: str) -> str:
    """A piece colour's name in the reader's language, as the key under the board writes it."""
    names = {
        "R": pgettext("Volcano piece colour", "red"),
        "Y": pgettext("Volcano piece colour", "yellow"),
        "G": pgettext("Volcano piece colour", "green"),
        "B": pgettext("Volcano piece colour", "blue"),
        "C": pgettext("Volcano piece colour", "clear"),
    }
    return names[colour]


def pattern_ink(colour: str) -> Colour:
    """The pattern's colour on a piece: a pale tint of a dark fill, a dark shade of a light one."""
    fill = PIECE_FILL[colour]
    light = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 120
    towards, share = (INK, 0.6) if light else (WHITE, 0.5)
    r, g, b = (round(a + (c - a) * share) for a, c in zip(fill, towards, strict=True))
    return r, g, b


def _pattern_mask(kind: str, size: tuple[int, int], base: float, period: float, line: float) -> Image.Image:
    """The pattern's ink as an "L" mask of `size` (already scaled), anchored on the piece's base line and
    its middle, so every piece of a colour shows it alike."""
    mask = Image.new("L", size, 0)
    draw = ImageDraw.Draw(mask)
    w, h = size
    if kind == "upright":
        x = (w / 2) % period - period
        while x < w:
            draw.rectangle((x - line / 2, 0, x + line / 2, h), fill=255)
            x += period
    elif kind == "level":
        y = base - period / 2
        while y > -line:
            draw.rectangle((0, y - line / 2, w, y + line / 2), fill=255)
            y -= period
    elif kind == "diagonal":  # rising to the right
        step, thick = period * 1.41, line * 1.41
        x = (w / 2) % step - h - step
        while x < w + step:
            draw.polygon([(x, h), (x + thick, h), (x + thick + h, 0), (x + h, 0)], fill=255)
            x += step
    elif kind == "dots":
        radius, row, y = line * 0.75, 0, base - period / 2
        while y > -radius:
            x = (w / 2) % period + (period / 2 if row % 2 else 0) - period
            while x < w + period:
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=255)
                x += period
            y -= period * 0.87
            row += 1
    return mask


def _pyramid(piece: str, w: int, h: int, *, margin: int, top: float, outline: float, period: float,
             line: float) -> Image.Image:  # fmt: skip
    """A piece as a truncated pyramid of `w` x `h` filled in its colour, its colour's pattern across it
    (clipped inside the outline), its base centred on the sprite's bottom middle, `margin` px all round."""
    colour = piece[0]
    side = (w + 2 * margin, h + 2 * margin)
    s = SUPERSAMPLE
    big = Image.new("RGBA", (side[0] * s, side[1] * s), (0, 0, 0, 0))
    corners = _trapezoid(side[0] / 2, h + margin, w, h, top, s)
    ImageDraw.Draw(big).polygon(corners, fill=PIECE_FILL[colour])
    kind = PATTERNS[colour]
    if kind is not None:
        inside = Image.new("L", big.size, 0)
        ImageDraw.Draw(inside).polygon(corners, fill=255)
        mask = _pattern_mask(kind, big.size, (h + margin) * s, period * s, line * s)
        big.paste((*pattern_ink(colour), 255), (0, 0), ImageChops.multiply(mask, inside))
    ImageDraw.Draw(big).polygon(corners, outline=INK, width=round(outline * s))
    return big.convert("RGBa").reduce(s).convert("RGBA")  # premultiplied, as `antialiased` reduces


@cache
def _piece(piece: str) -> Image.Image:
    """A board piece: a truncated pyramid whose width gives its size and whose fill and pattern (`PATTERNS`)
    its colour, so the colour reads without colour vision; base centred on the sprite's bottom middle."""
    size = piece[1]
    return _pyramid(piece, PIECE_W[size], PIECE_H[size], margin=2, top=0.55, outline=2, period=6, line=2.2)


@cache
def _mini(piece: str) -> Image.Image:
    """A captured piece in the panel: a small pyramid layer, its colour's pattern finer."""
    size = piece[1]
    return _pyramid(piece, MINI_W[size], MINI_H[size], margin=1, top=0.5, outline=1.2, period=4, line=1.4)


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
    text(draw, (width / 2, 10), label, MIN_SIZE, INK, bold=True, anchor="mm")
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
    """A step number: a dark digit on a disc of its turn's tint; two digits (a turn of 10 steps or more) on
    a pill, in the same 16 px type drawn 12% narrower, so they keep clear of its rim."""
    if n < 10:
        badge = disc(LABEL // 2 - 1, colour, ring=None).copy()
        text(ImageDraw.Draw(badge), (badge.width / 2, badge.height / 2 + 0.5), str(n), MIN_SIZE, INK, bold=True,
             anchor="mm")  # fmt: skip
        return badge
    w, h = PILL, LABEL

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=h * s / 2, fill=INK)
        draw.rounded_rectangle((s, s, (w - 1) * s - 1, (h - 1) * s - 1), radius=(h / 2 - 1) * s, fill=colour)

    badge = antialiased((w, h), paint)
    words = Image.new("RGBA", (2 * w, h), (0, 0, 0, 0))
    text(ImageDraw.Draw(words), (w, h / 2 + 0.5), str(n), MIN_SIZE, INK, bold=True, anchor="mm")
    words = words.resize((round(words.width * 0.88), h), Image.Resampling.LANCZOS)
    badge.alpha_composite(words, ((w - words.width) // 2, 0))
    return badge


def _background() -> Image.Image:
    """The board squares, coordinates, the key and the panel: everything that never changes, in the reader's
    language (the key names the colours)."""
    return _background_in(i18n.current())


@cache
def _background_in(language: str) -> Image.Image:
    """`_background` in `language` (the cache's key: the key's words are drawn in the language current now)."""
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
        _x, cy = square_centre(k)
        text(draw, (BOARD_LEFT // 2, cy), str(k + 1), 20, MUTED, bold=True, anchor="mm")
    _draw_key(image)
    return image


def key_entries() -> tuple[tuple[tuple[Image.Image, str], ...], ...]:
    """The key under the board, four rows of at most three: what each of the board's marks means, then each
    colour's piece (its fill and pattern) with its name."""
    colours = [(_piece(f"{colour}2"), colour_name(colour)) for colour in PIECE_FILL]
    return (
        ((_key_square(LAST_MOVE, TO_SHARE), pgettext("Volcano key", "last turn")),
         (_key_square(IN_TURN, IN_TURN_SHARES[1]), pgettext("Volcano key", "this turn")),
         (_number(2, LAST_MOVE), pgettext("Volcano key", "its 2nd step"))),
        ((_key_dashes(), pgettext("Volcano key", "a piece landed")),
         (_capture_badge("R2"), pgettext("Volcano key", "captured")),
         (_count_badge(7), pgettext("Volcano key", "stack height"))),
        tuple(colours[:3]),
        tuple(colours[3:]),
    )  # fmt: skip


def _draw_key(image: Image.Image) -> None:
    """The key in a grid of KEY_COLUMN-wide entries (a sprite, then its words, cut short if a language's
    words would not fit)."""
    draw = ImageDraw.Draw(image)
    for row, entries in enumerate(key_entries()):
        y = KEY_TOP + row * KEY_ROW
        for column, (sprite, words) in enumerate(entries):
            x = BOARD_LEFT + column * KEY_COLUMN
            paste(image, sprite, (x + sprite.width // 2, y))
            room = KEY_COLUMN - sprite.width - 6 - 10
            text(draw, (x + sprite.width + 6, y), fit(words, MIN_SIZE, room), MIN_SIZE, MUTED, anchor="lm")


@cache
def _key_square(colour: Colour, share: float) -> Image.Image:
    """A small square of the board's ground, tinted as a turn tints its squares."""
    sprite = Image.new("RGBA", (24, 24), (*SQUARE_LIGHT, 255))
    tint(sprite, (0, 0, 24, 24), (*colour, 255), share)  # type: ignore[arg-type]
    ImageDraw.Draw(sprite).rectangle((0, 0, 23, 23), outline=GRID_LINE, width=1)
    return sprite


@cache
def _key_dashes() -> Image.Image:
    """The landing's dashed outline, small (the board's is in the mover's colour)."""
    sprite = Image.new("RGBA", (24, 24), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    for pos in range(0, 24, 8):
        end = min(pos + 5, 23)
        for box in ((pos, 0, end, 2), (pos, 21, end, 23), (0, pos, 2, end), (21, pos, 23, end)):
            draw.rectangle(box, fill=TEXT)
    return sprite


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


LABEL = 22  # a step number's disc, the side of its box
IN_TURN: Colour = WHITE
"""The turn in progress tints its squares white (the last turn's are LAST_MOVE), so the two never mix."""
IN_TURN_SHARES = (0.18, 0.3)  # white shows strongly on the dark squares: less of it
PILL = 25  # a step number of two digits: a pill this wide, LABEL high
_LABEL_SPOTS = ((-1, 41), (1, 41), (-1, 0), (1, 0), (-1, -41), (1, -41), (0, -41), (0, 41))
"""Where a step's number may go, from its square's centre, best first: at the square's left (-1), right (1)
or middle (0), reaching 4 px over its grid line at the sides, where no stack reaches (a stack's box is at
most 62 px wide: 21 px of the square's side are free, 25 with the 4 over the line, a pill's width) and the
corners' badges are not."""


def label_box(square: int, spot: tuple[int, int], number: int) -> Box:
    """The box of step `number`'s mark at `spot` (one of `_LABEL_SPOTS`) of `square`: a disc for one digit, a
    pill for two, its outer edge 4 px over the grid line at a side spot."""
    cx, cy = square_centre(square)
    width = LABEL if number < 10 else PILL
    x = cx + spot[0] * (SQUARE // 2 + 4 - width / 2) + (width % 2 / 2 if spot[0] == 0 else 0)
    return box_at((x, cy + spot[1]), width, LABEL)  # on whole pixels


@dataclass(frozen=True, slots=True)
class StepMark:
    """One step's number: the square it went to, where the disc goes (`label`, inside `overlays.place`'s
    rule) and its colour (the tint of its turn). Only a turn of several steps numbers them."""

    step: str
    square: int
    number: int
    colour: Colour
    label: Box


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
    for square, _piece_taken in state.captured_last:
        cx, cy = square_centre(square)
        boxes.append(box_at((cx + SQUARE // 2 - 20, cy - SQUARE // 2 + 20), 38))
    return boxes


def tints(state: VolcanoState) -> dict[int, tuple[Colour, float]]:
    """The squares drawn tinted under their stacks, as lichess tints a move's squares: every square a step
    of the last turn left (lighter) and went to, in LAST_MOVE, then the turn in progress's, in white (the
    newer mark wins a square both turns touched)."""
    tinted: dict[int, tuple[Colour, float]] = {}
    for steps, colour, (left, went) in (
        (state.last_steps, LAST_MOVE, (FROM_SHARE, TO_SHARE)),
        (state.steps, IN_TURN, IN_TURN_SHARES),
    ):
        reached: set[int] = set()
        for step in steps:
            parsed = Step.parse(step)
            reached.add(parsed.dst)
            tinted[parsed.dst] = (colour, went)
            if parsed.src not in reached:
                tinted[parsed.src] = (colour, left)
    return tinted


def step_marks(state: VolcanoState) -> tuple[StepMark, ...]:
    """The numbers of a turn of several steps (the last turn's, then the turn in progress's): number k at
    the edge of the square step k went to, at the first of `_LABEL_SPOTS` clear of every stack, badge and
    number placed before it (`overlays.place`), so it never covers a piece."""
    blocked = [*piece_boxes(state).values(), *badge_boxes(state)]
    board = (BOARD_LEFT - 4, BOARD_TOP, BOARD_LEFT + BOARD_SIDE + 4, BOARD_TOP + BOARD_SIDE)
    marks = []
    for steps, colour in ((state.last_steps, LAST_MOVE), (state.steps, IN_TURN)):
        if len(steps) < 2:
            continue
        for k, step in enumerate(steps):
            square = Step.parse(step).dst
            spots = [label_box(square, spot, k + 1) for spot in _LABEL_SPOTS]
            inside = [
                b for b in spots if board[0] <= b[0] and b[2] <= board[2] and board[1] <= b[1] and b[3] <= board[3]
            ]
            label = place(inside, [box for box in blocked if intersects(box, grow(square_box(square), 8))])
            blocked.append(label)
            marks.append(StepMark(step, square, k + 1, colour, label))
    return tuple(marks)


def _draw_numbers(image: Image.Image, marks: tuple[StepMark, ...]) -> None:
    """Each step's number with its top-left on its box's (the boxes lie on whole pixels)."""
    for mark in marks:
        badge = _number(mark.number, mark.colour)
        image.paste(badge, (round(mark.label[0]), round(mark.label[1])), badge)


def draw(state: VolcanoState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: board, landings, stacks, caps, arrows, captures, then the panel."""
    facts = panel(state, viewer, caption)
    image, layout = canvas(_background(), facts, PANEL_LEFT - 4)
    for square, (colour, share) in tints(state).items():
        left, top, right, bottom = square_box(square)
        tint(image, (left + 1, top + 1, right - 1, bottom - 1), colour, share)
    mover = seat_colour(state.last_seat) if state.last_seat is not None else WHITE
    for square, _landed in state.landings:
        paste(image, _dashed_square(mover), square_centre(square))
    caps = set(state.caps)
    for square, stack in enumerate(state.board):
        if stack or square in caps:
            _draw_stack(image, square, stack, square in caps)
    for square, stack in enumerate(state.board):
        if len(stack) > SHOWN:
            badge = _count_badge(len(stack))
            cx, cy = square_centre(square)
            image.paste(badge, (cx - SQUARE // 2 + 5, cy - SQUARE // 2 + 5), badge)
    for square, piece in state.captured_last:
        cx, cy = square_centre(square)
        paste(image, _capture_badge(piece), (cx + SQUARE // 2 - 20, cy - SQUARE // 2 + 20))
    _draw_numbers(image, step_marks(state))
    return draw_panel(image, facts, PANEL_LEFT - 4, layout)


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
    left = {z: [f"{c}{z}" for c in COLOURS for _k in range(counts[(c, z)])] for z in "123"}
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
    face = font(MIN_SIZE, True)
    last_gap = False
    for item in items:
        if item is None:
            if shown and not last_gap:
                x += 6
                last_gap = True
            continue
        width = max(MINI_W[p[1]] for p in item) + 2
        if x + width > right - (0 if shown == total - 1 else face.getlength(f"+{total - shown}") + 4):
            text(
                ImageDraw.Draw(image), (x + 2, bottom - 1), f"+{total - shown}", MIN_SIZE, MUTED, bold=True, anchor="ls"
            )
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
                score=i18n.number(scores[seat]),
                won=seat in winners,
                tag=pgettext("player", "resigned") if seat in state.resigned else None,
                strip=Strip(30, partial(_paint_captures, state.captures[seat])),
            )
        )
    banner = caption.result
    if banner is None and outcome is not None:
        ranked = sorted(outcome.winners)
        best = i18n.number(max((outcome.scores[s] for s in ranked), default=0))
        if not ranked:
            banner = _("Game over: nobody wins")
        elif len(ranked) == 1:
            banner = _("{name} wins with {score}").format(name=caption.name(ranked[0]), score=best)
        else:
            names = and_list([caption.name(s) for s in ranked])
            banner = _("{names} share the win with {score}").format(names=names, score=best)
    return captioned(
        "Volcano",
        caption,
        seats=tuple(seats),
        banner=banner,
        turn=_turn(turn, caption),
        notes=(Line(_turn_words(state), colour=TEXT, max_lines=2), Line(last_words(state), max_lines=2)),
    )


def _turn_words(state: VolcanoState) -> str:
    """The turn in progress's steps, in the reader's language ("" before its first step)."""
    if not state.steps:
        return ""
    return _("This turn (white): {steps}").format(steps=", ".join(state.steps))


def last_words(state: VolcanoState) -> str:
    """The last turn's steps and how many pieces its eruption took, in the reader's language ("" before the
    first turn)."""
    if not state.last_steps:
        return ""
    steps = ", ".join(state.last_steps)
    taken = len(state.captured_last)
    if not taken:
        return _("Last: {move}").format(move=steps)
    return ngettext("Last: {steps} · took {count}", "Last: {steps} · took {count}", taken).format(
        steps=steps, count=i18n.number(taken)
    )


def _turn(turn: int | None, caption: Caption) -> Turn | None:
    """Whose turn it is, in the reader's language (None once the game is over)."""
    if turn is None:
        return None
    return Turn(seat_token(turn, 9), _("{name} to move").format(name=caption.name(turn)))


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
    "tints",
]
