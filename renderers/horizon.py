"""Draws an Event Horizon board: both paths on the left, players, the turn and clocks on the right.

Drawn only from `HORIZON.view(state, viewer)`: every card the viewer may not know is "??" and is drawn as a
card back (dark violet, a small black hole on it); nothing else about hidden cards is read or drawn.

Each mat is a row of columns: the black hole (space 0) on the left, spaces 1-8, and the exit (9) on the
right, with the space numbers on one shared row between the two mats, so space N of both mats line up (what
a Mimic copies). The viewer's mat is at the bottom (seat 0's for a spectator). Going outwards from the
numbers, a mat has its card slots, its token lane (a track from the hole to the exit holding the active
token) and its name row. A known card is a face: a band in its kind's colour with the code
(T3, F2, B1, MI) over a cream body with the kind's symbol and the card's number (`SYMBOLS`: a pin and 3, an
arrow right and 2, an arrow left and 1, two cards), named by a key at the foot of the board; a face-up card
(shown by a Mimic) has a gold rim, and a face-down card only the viewer knows a violet rim. A small lock
marks a card a Swap put there, a dot in a seat's colour who placed it, and corner marks in the mover's
colour the slot the last play went to. Waiting tokens sit in the hole, escaped ones in the exit. The last roll is
a die in the mover's name row; the last chain is told in the slots its cards left on the mover's mat, each
numbered in order (two digits on a pill) with its code and where it sent the token ("→5"), so no two
links hide each other. The viewer's hand is drawn face up under the board ("Your hand"); a spectator sees
only counts and backs. Sprites depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

import random
from functools import cache

from PIL import Image, ImageDraw

from bot import i18n
from bot.games.horizon import CHAIN_CAP, DECK, ESCAPE, HIDDEN, SETUP_PLACEMENTS, SPACES, TOKENS, HorizonState
from bot.i18n import _, ngettext, pgettext
from renderers.draw import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    WHITE,
    Caption,
    Colour,
    antialiased,
    arrow_layer,
    disc,
    fit,
    length,
    paste,
    seat_token,
    text,
)
from renderers.overlays import Box, box_at
from renderers.panel import (
    BEARING,
    MIN_SIZE,
    PAD,
    KeyEntry,
    Line,
    Panel,
    PlacedText,
    Turn,
    canvas,
    captioned,
    draw_panel,
    fitted,
    paint_text,
    seat_card,
    shortened,
)

WIDTH = 800
HEIGHT = 590  # a hand of more than HAND_ROW cards adds rows below
BOARD_LEFT = 8
HOLE_W = 54  # the black hole's column (space 0)
SPACE_W = 57  # a space's column (1-8)
EXIT_W = 50  # the exit's column (9)
BOARD_RIGHT = BOARD_LEFT + HOLE_W + SPACES * SPACE_W + EXIT_W
PANEL_LEFT = BOARD_RIGHT + 12
CARD_W = 51
CARD_H = 80
TOP = 6
NAME_H = 30  # a mat's name row (name, escaped, the die)
LANE_H = 38  # a mat's token lane
CARD_ROW = CARD_H + 8
NUMBERS_H = 24
MAT_H = NAME_H + LANE_H + CARD_ROW
MID_TOP = TOP + MAT_H  # the numbers row
MID_BOTTOM = MID_TOP + NUMBERS_H
BOARD_BOTTOM = MID_BOTTOM + MAT_H
HAND_TOP = BOARD_BOTTOM + 14
HAND_LABEL_H = 22
HAND_LABEL_W = 120  # "Your hand" (its words cut short in a language too long for it); the other's count beside
HAND_GAP = 8
HAND_STEP = SPACE_W  # hand cards sit on the same grid as the slots
HAND_ROW = (BOARD_RIGHT - BOARD_LEFT) // HAND_STEP
TOKEN_R = 14
DIE = 26
PLACER_R = 5  # the dot in a card's corner saying who placed it
MARK_W = 7  # the last play's corner marks: lines this wide (a dark edge round the colour)

BOARD_BG: Colour = (10, 14, 30)
STAR: Colour = (96, 110, 150)
TRACK: Colour = (26, 36, 62)
TRACK_EDGE: Colour = (50, 64, 100)
CHEVRON: Colour = (58, 74, 114)
SLOT_FILL: Colour = (20, 28, 50)
SLOT_EDGE: Colour = (78, 94, 136)
NUMBER: Colour = (214, 224, 240)
CARD_FACE: Colour = (248, 243, 230)
KEY_FACE: Colour = (226, 220, 206)  # the card key's small faces: greyer, never taken for a card shown
BACK: Colour = (60, 40, 116)
BACK_LINE: Colour = (134, 104, 206)
BACK_CORE: Colour = (8, 6, 18)
BACK_RING: Colour = (206, 178, 255)
FACE_UP_RIM: Colour = HIGHLIGHT
KNOWN_RIM: Colour = (170, 140, 250)
HOLE_CORE: Colour = (0, 0, 0)
HOLE_GLOW: Colour = (92, 52, 160)
HOLE_RING: Colour = (226, 196, 255)
EXIT_FILL: Colour = (22, 74, 70)
EXIT_EDGE: Colour = (120, 232, 196)
DIE_FACE: Colour = (252, 250, 244)
KIND_COLOURS: dict[str, Colour] = {
    "T": (10, 124, 174),  # Move To: sea blue
    "F": (40, 196, 40),  # Forward: green
    "B": (186, 56, 50),  # Backward: red
    "M": (144, 56, 214),  # Mimic: purple
    "S": (66, 70, 88),  # Swap: slate
}
"""Apart by at least ΔE 25 under every common colour vision, as the seat colours; the code on the band
(T3, F2, B1, MI, SW) tells the kind without colour too."""
PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1))}


def seat_colour(seat: int) -> Colour:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def bottom_seat(viewer: int | None) -> int:
    """The seat whose mat is drawn at the bottom: the viewer's own, seat 0's for a spectator."""
    return viewer if viewer in (0, 1) else 0


def is_bottom(mat_seat: int, viewer: int | None) -> bool:
    return mat_seat == bottom_seat(viewer)


def column(k: int) -> tuple[int, int]:
    """(left, right) of column k: 0 the black hole, 1-8 the spaces, 9 the exit."""
    if k <= 0:
        return BOARD_LEFT, BOARD_LEFT + HOLE_W
    if k >= ESCAPE:
        left = BOARD_LEFT + HOLE_W + SPACES * SPACE_W
        return left, left + EXIT_W
    left = BOARD_LEFT + HOLE_W + (k - 1) * SPACE_W
    return left, left + SPACE_W


def column_x(k: int) -> int:
    left, right = column(k)
    return (left + right) // 2


def rows(mat_seat: int, viewer: int | None) -> dict[str, tuple[int, int]]:
    """(top, bottom) of a mat's rows: "name", "lane" (tokens) and "cards"; mirrored for the top mat."""
    order = ("cards", "lane", "name")
    heights = {"cards": CARD_ROW, "lane": LANE_H, "name": NAME_H}
    spans: dict[str, tuple[int, int]] = {}
    if is_bottom(mat_seat, viewer):
        y = MID_BOTTOM
        for row in order:
            spans[row] = (y, y + heights[row])
            y += heights[row]
    else:
        y = MID_TOP
        for row in order:
            spans[row] = (y - heights[row], y)
            y -= heights[row]
    return spans


def mat_box(mat_seat: int, viewer: int | None) -> tuple[int, int, int, int]:
    """The whole of a mat, name row included, for cropping."""
    spans = rows(mat_seat, viewer)
    top = min(a for a, _b in spans.values())
    bottom = max(b for _, b in spans.values())
    return BOARD_LEFT, top, BOARD_RIGHT, bottom


def slot_box(mat_seat: int, space: int, viewer: int | None) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the card on `space` (1-8) of `mat_seat`'s mat as `viewer` sees it."""
    left, right = column(space)
    top, bottom = rows(mat_seat, viewer)["cards"]
    x = (left + right - CARD_W) // 2
    y = (top + bottom - CARD_H) // 2
    return x, y, x + CARD_W, y + CARD_H


def cell_box(mat_seat: int, k: int, viewer: int | None) -> tuple[int, int, int, int]:
    """The card row's cell of column k (0: the hole, 9: the exit) on a mat."""
    left, right = column(k)
    top, bottom = rows(mat_seat, viewer)["cards"]
    return left, top, right, bottom


def token_centre(mat_seat: int, position: int, viewer: int | None) -> tuple[int, int]:
    """Where the active token on `position` (0-8) of a mat is drawn: its column in the token lane."""
    top, bottom = rows(mat_seat, viewer)["lane"]
    return column_x(position), (top + bottom) // 2


def die_box(mat_seat: int, viewer: int | None) -> tuple[int, int, int, int]:
    """Where the last roll's die is drawn: the right end of the mover's name row."""
    top, bottom = rows(mat_seat, viewer)["name"]
    cy = (top + bottom) // 2
    right = BOARD_RIGHT - 4
    return right - DIE - 2, cy - DIE // 2 - 1, right, cy + DIE // 2 + 1


def hand_rows(view: HorizonState, viewer: int | None) -> int:
    if viewer not in (0, 1):
        return 1
    return max(1, -(-len(view.hands[viewer]) // HAND_ROW))


def image_height(view: HorizonState, viewer: int | None) -> int:
    """HEIGHT, or more when the viewer's hand needs more than one row."""
    return HEIGHT + (hand_rows(view, viewer) - 1) * (CARD_H + HAND_GAP)


def hand_box(k: int) -> tuple[int, int, int, int]:
    """The k-th card of the viewer's hand (rows of HAND_ROW)."""
    row, col = divmod(k, HAND_ROW)
    x = BOARD_LEFT + col * HAND_STEP + (SPACE_W - CARD_W) // 2
    y = HAND_TOP + HAND_LABEL_H + row * (CARD_H + HAND_GAP)
    return x, y, x + CARD_W, y + CARD_H


def hand_area(view: HorizonState, viewer: int | None) -> tuple[int, int, int, int]:
    return BOARD_LEFT, HAND_TOP, BOARD_RIGHT, image_height(view, viewer)


SYMBOLS = {"F": "forward", "B": "back", "T": "to", "M": "mimic", "S": "swap"}
"""What a card's face draws under its code, by the card's kind: an arrow right towards the exit (Forward), an
arrow left towards the hole (Backward), a map pin (Move To), two overlapping cards (Mimic: it copies the card
across) and two opposite arrows (Swap), with the card's number beside the first three. The key under the
board names them (`card_key`); a card's words ("Fwd 3") had no room for phone-sized type."""


def face(card: str) -> tuple[str, str]:
    """(symbol, number) a card's face draws under its code: ("forward", "3") for F3, ("mimic", "") for MI."""
    symbol = SYMBOLS.get(card[0], "")
    return symbol, card[1:] if symbol in ("forward", "back", "to") else ""


def card_key() -> tuple[tuple[str, str], ...]:
    """The key under the board: each card symbol (`SYMBOLS`) and the card it stands for, in the reader's
    language (the card names the rules use)."""
    return (
        ("forward", pgettext("Event Horizon card", "Forward")),
        ("back", pgettext("Event Horizon card", "Backward")),
        ("to", pgettext("Event Horizon card", "Move To")),
        ("swap", pgettext("Event Horizon card", "Swap")),
        ("mimic", pgettext("Event Horizon card", "Mimic: copies the card across")),
    )


def _paint_arrow(draw: ImageDraw.ImageDraw, tail: float, tip: float, y: float, shaft: float, head: float,
                 neck: float, ink: Colour) -> None:  # fmt: skip
    """A level arrow from x `tail` to x `tip` on `y`: a shaft `shaft` thick, a head `head` wide and `neck` long."""
    d = 1 if tip > tail else -1
    n = tip - neck * d
    corners = [(tail, y - shaft / 2), (n, y - shaft / 2), (n, y - head / 2), (tip, y), (n, y + head / 2),
               (n, y + shaft / 2), (tail, y + shaft / 2)]  # fmt: skip
    draw.polygon(corners, fill=ink)


def _paint_symbol(
    draw: ImageDraw.ImageDraw, symbol: str, cx: float, cy: float, u: float, ink: Colour, ground: Colour
) -> None:
    """A card symbol centred on (cx, cy), `u` px a unit (about 20 units wide and tall), in scaled coordinates,
    on `ground` (the colour of the face under it)."""
    if symbol in ("forward", "back"):
        d = 1 if symbol == "forward" else -1
        _paint_arrow(draw, cx - 10 * u * d, cx + 10 * u * d, cy, 5.2 * u, 15 * u, 8 * u, ink)
    elif symbol == "to":  # a map pin: a round head with a hole, pointing down at the space
        r, top = 6.5 * u, cy - 10 * u
        draw.polygon([(cx - r * 0.86, top + r * 1.5), (cx + r * 0.86, top + r * 1.5), (cx, cy + 10 * u)], fill=ink)
        draw.ellipse((cx - r, top, cx + r, top + 2 * r), fill=ink)
        hole = 2.6 * u
        draw.ellipse((cx - hole, top + r - hole, cx + hole, top + r + hole), fill=ground)
    elif symbol == "mimic":  # two cards, one over the other: a copy
        w, h, off = 11 * u, 15 * u, 3.5 * u
        back = (cx - w / 2 - off, cy - h / 2 - off, cx + w / 2 - off, cy + h / 2 - off)
        draw.rounded_rectangle(back, radius=2.5 * u, outline=ink, width=round(2.4 * u))
        front = (cx - w / 2 + off, cy - h / 2 + off, cx + w / 2 + off, cy + h / 2 + off)
        draw.rounded_rectangle(front, radius=2.5 * u, fill=ink)
    elif symbol == "swap":  # an arrow right over an arrow left
        _paint_arrow(draw, cx - 10 * u, cx + 10 * u, cy - 4.5 * u, 3.4 * u, 10 * u, 6 * u, ink)
        _paint_arrow(draw, cx + 10 * u, cx - 10 * u, cy + 4.5 * u, 3.4 * u, 10 * u, 6 * u, ink)


# --- sprites ---

RIM = 3  # a card sprite has this margin around the card, for its rim
FACE_Y = 61  # the middle of a card face's symbol and number, from the card's top
FACE_SIZE = 20  # the number's type beside the symbol
SYMBOL_SHIFT, NUMBER_SHIFT = 8, 13  # from the card's middle: the symbol left of it, the number right


@cache
def card_sprite(card: str, rim: Colour | None = None) -> Image.Image:
    """A card (a face, or a back for "??") with an optional rim just outside it; CARD_W x CARD_H + margins."""
    size = (CARD_W + 2 * RIM, CARD_H + 2 * RIM)
    hidden = card == HIDDEN
    band = KIND_COLOURS.get(card[0], (120, 120, 120))

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        if rim is not None:
            draw.rounded_rectangle((0, 0, size[0] * s, size[1] * s), radius=8 * s, fill=INK)
            draw.rounded_rectangle((0.8 * s, 0.8 * s, (size[0] - 0.8) * s, (size[1] - 0.8) * s), radius=8 * s,
                                   fill=rim)  # fmt: skip
        box = (RIM * s, RIM * s, (RIM + CARD_W) * s, (RIM + CARD_H) * s)
        draw.rounded_rectangle(box, radius=6 * s, fill=INK)
        inner = (box[0] + 1.5 * s, box[1] + 1.5 * s, box[2] - 1.5 * s, box[3] - 1.5 * s)
        if hidden:
            draw.rounded_rectangle(inner, radius=5 * s, fill=BACK)
            frame = (inner[0] + 3 * s, inner[1] + 3 * s, inner[2] - 3 * s, inner[3] - 3 * s)
            draw.rounded_rectangle(frame, radius=3 * s, outline=BACK_LINE, width=round(1.5 * s))
            cx, cy = size[0] / 2 * s, size[1] / 2 * s
            for r, colour in ((15, BACK_LINE), (12, BACK), (10, BACK_RING), (7.5, BACK_CORE)):
                draw.ellipse((cx - r * s, cy - r * s, cx + r * s, cy + r * s), fill=colour)
            for dx, dy in ((-13, -24), (12, -20), (-10, 23), (14, 26), (0, -30), (1, 30)):
                x, y = cx + dx * s, cy + dy * s
                draw.ellipse((x - 1.3 * s, y - 1.3 * s, x + 1.3 * s, y + 1.3 * s), fill=BACK_RING)
            return
        draw.rounded_rectangle(inner, radius=5 * s, fill=CARD_FACE)
        split = box[1] + 44 * s
        draw.rounded_rectangle((inner[0], inner[1], inner[2], split), radius=5 * s, fill=band)
        draw.rectangle((inner[0], split - 6 * s, inner[2], split), fill=band)
        symbol, number = face(card)
        x = size[0] / 2 - (SYMBOL_SHIFT if number else 0)
        _paint_symbol(draw, symbol, x * s, (RIM + FACE_Y) * s, (1.1 if number else 1.3) * s, INK, CARD_FACE)

    sprite = antialiased(size, paint)
    if not hidden:
        layer = ImageDraw.Draw(sprite)
        cx = size[0] / 2
        text(layer, (cx, RIM + 23), card, 21, WHITE, bold=True, anchor="mm", outline=INK, outline_width=1)
        number = face(card)[1]
        if number:
            text(layer, (cx + NUMBER_SHIFT, RIM + FACE_Y + 0.5), number, FACE_SIZE, INK, bold=True, anchor="mm")
    return sprite


@cache
def _every_card() -> None:
    """Every card sprite a board can show (18 cards, each plain, face up and known), drawn once in a process,
    at its first board: otherwise the end of a game, which turns the face-down cards over, paid for the
    sprites it had not met yet (about 1 ms each: the slowest boards of a match)."""
    for card in sorted(set(DECK)):
        for rim in (None, FACE_UP_RIM, KNOWN_RIM):
            card_sprite(card, rim)


@cache
def _mini_back() -> Image.Image:
    """A small card back for hand counts."""
    return card_sprite(HIDDEN).resize((22, 34), Image.Resampling.LANCZOS)


@cache
def _empty_slot() -> Image.Image:
    size = (CARD_W, CARD_H)

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0, 0, size[0] * s - 1, size[1] * s - 1), radius=6 * s, fill=SLOT_EDGE)
        draw.rounded_rectangle((2 * s, 2 * s, (size[0] - 2) * s, (size[1] - 2) * s), radius=5 * s, fill=SLOT_FILL)

    return antialiased(size, paint)


@cache
def _lock() -> Image.Image:
    """A small white padlock with a dark rim: a card a Swap put there (it cannot be swapped again)."""
    w, h = 16, 19

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.arc((3.2 * s, 0.8 * s, 12.8 * s, 12 * s), 180, 360, fill=INK, width=round(4.2 * s))
        draw.arc((4.4 * s, 2 * s, 11.6 * s, 10.8 * s), 180, 360, fill=WHITE, width=round(2 * s))
        draw.line((4.4 * s, 6.4 * s, 4.4 * s, 9 * s), fill=INK, width=round(4 * s))
        draw.line((11.6 * s, 6.4 * s, 11.6 * s, 9 * s), fill=INK, width=round(4 * s))
        draw.rounded_rectangle((0.5 * s, 7.5 * s, 15.5 * s, 18.5 * s), radius=2.5 * s, fill=INK)
        draw.rounded_rectangle((2 * s, 9 * s, 14 * s, 17 * s), radius=1.5 * s, fill=WHITE)
        draw.ellipse((6.6 * s, 11.2 * s, 9.4 * s, 14 * s), fill=INK)

    return antialiased((w, h), paint)


@cache
def _placer_dot(seat: int) -> Image.Image:
    return disc(PLACER_R, seat_colour(seat), ring=WHITE, ring_width=1.5)


@cache
def _token(seat: int) -> Image.Image:
    return seat_token(seat, TOKEN_R, ring_width=2.5)


@cache
def _small_token(seat: int) -> Image.Image:
    return seat_token(seat, 8, ring_width=1.5)


@cache
def _hole() -> Image.Image:
    """The black hole: a violet glow, a pale ring and a black core."""
    r = 24
    side = 2 * r + 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c = side / 2 * s
        for radius, colour in ((r, HOLE_GLOW), (r - 5, (150, 104, 220)), (r - 8, HOLE_RING), (r - 10.5, HOLE_CORE)):
            draw.ellipse((c - radius * s, c - radius * s, c + radius * s, c + radius * s), fill=colour)

    return antialiased((side, side), paint)


@cache
def _exit_cell() -> Image.Image:
    """The exit (9): a glowing green doorway."""
    w, h = EXIT_W - 6, CARD_H

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=9 * s, fill=EXIT_EDGE)
        draw.rounded_rectangle((2.5 * s, 2.5 * s, (w - 2.5) * s, (h - 2.5) * s), radius=7 * s, fill=EXIT_FILL)

    return antialiased((w, h), paint)


@cache
def die_face(value: int, rim: Colour) -> Image.Image:
    """A die showing `value` (1-3) in pips, rimmed in the roller's colour."""
    side = DIE + 2
    value = max(1, min(3, value))

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0.5 * s, 0.5 * s, (side - 0.5) * s, (side - 0.5) * s), radius=7 * s, fill=INK)
        draw.rounded_rectangle((1.5 * s, 1.5 * s, (side - 1.5) * s, (side - 1.5) * s), radius=6 * s, fill=rim)
        draw.rounded_rectangle((4.5 * s, 4.5 * s, (side - 4.5) * s, (side - 4.5) * s), radius=4 * s, fill=DIE_FACE)
        step = (DIE - 8) / 4 + 0.5
        for dx, dy in PIPS[value]:
            x, y, r = side / 2 + dx * step, side / 2 + dy * step, DIE / 11
            draw.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=INK)

    return antialiased((side, side), paint)


@cache
def _number(n: int, colour: Colour) -> Image.Image:
    """A chain link's number on a white disc rimmed in the mover's colour; two digits (a chain of 10 links or
    more) on a pill as wide as they need, in the same 16 px type (an empty slot is 51 px wide)."""
    words = str(n)
    if n < 10:
        badge = disc(10, WHITE, ring=colour, ring_width=2.5).copy()
    else:
        w, h = round(length(words, MIN_SIZE, True)) + 12, 22

        def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
            draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=h * s / 2, fill=INK)
            draw.rounded_rectangle((s, s, (w - 1) * s - 1, (h - 1) * s - 1), radius=(h / 2 - 1) * s, fill=colour)
            draw.rounded_rectangle((3.5 * s, 3.5 * s, (w - 3.5) * s - 1, (h - 3.5) * s - 1), radius=(h / 2 - 3.5) * s,
                                   fill=WHITE)  # fmt: skip

        badge = antialiased((w, h), paint)
    text(ImageDraw.Draw(badge), (badge.width / 2, badge.height / 2 + 0.5), words, MIN_SIZE, INK, bold=True,
         anchor="mm")  # fmt: skip
    return badge


KEY_ROW = 30  # the card key's rows, at the foot of the board
KEY_COLUMN = (BOARD_RIGHT - BOARD_LEFT) // 3


KEY_PLACES = {"forward": (0, 0, 1), "back": (0, 1, 1), "to": (0, 2, 1), "swap": (1, 0, 1), "mimic": (1, 1, 2)}
"""Each card key entry's (row, column, columns it takes): Mimic's words take two."""


def key_boxes(height: int) -> list[tuple[str, str, tuple[int, int, int, int]]]:
    """(symbol, words, box) of each entry of the card key at the foot of a board `height` tall: two rows of
    three columns, Forward, Backward and Move To, then Swap and Mimic."""
    boxes = []
    for symbol, words in card_key():
        row, column, span = KEY_PLACES[symbol]
        left, top = BOARD_LEFT + column * KEY_COLUMN, height - 2 * KEY_ROW - 4 + row * KEY_ROW
        boxes.append((symbol, words, (left, top, left + span * KEY_COLUMN, top + KEY_ROW)))
    return boxes


@cache
def _key_card(symbol: str) -> Image.Image:
    """The key's sample of a card symbol: a small card face (a little greyer than a card's) with the symbol."""
    w, h = 30, 26

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=5 * s, fill=INK)
        draw.rounded_rectangle((1.5 * s, 1.5 * s, (w - 1.5) * s, (h - 1.5) * s), radius=4 * s, fill=KEY_FACE)
        _paint_symbol(draw, symbol, w * s / 2, h * s / 2, 0.9 * s, INK, KEY_FACE)

    return antialiased((w, h), paint)


def _draw_card_key(image: Image.Image, height: int) -> None:
    """What each card symbol means, at the foot of the board (below the hands)."""
    draw = ImageDraw.Draw(image)
    for symbol, words, (left, top, right, bottom) in key_boxes(height):
        sprite, cy = _key_card(symbol), (top + bottom) // 2
        paste(image, sprite, (left + sprite.width // 2, cy))
        x = left + sprite.width + 6
        room = right - x - (0 if right >= BOARD_RIGHT - 2 else 10)  # the last column's words may reach the edge
        text(draw, (x, cy), fit(words, MIN_SIZE, room), MIN_SIZE, MUTED, anchor="lm")


def _background(height: int) -> Image.Image:
    """Space, the tracks, empty slots, the holes, the exits, the numbers, the card key and the panel: what
    never changes, in the reader's language (the key has words)."""
    return _background_in(height, i18n.current())


@cache
def _background_in(height: int, language: str) -> Image.Image:
    """`_background` in `language` (the cache's key: the key's words are drawn in the language current now)."""
    image = Image.new("RGB", (WIDTH, height), BOARD_BG)
    draw = ImageDraw.Draw(image)
    stars = random.Random(20240917)  # fixed: the same sky everywhere
    for _star in range(70):
        x, y = stars.randrange(BOARD_RIGHT), stars.randrange(height)
        draw.point((x, y), fill=STAR)
    draw.rectangle((PANEL_LEFT - 4, 0, WIDTH, height), fill=PANEL)
    for mat in (0, 1):
        spans = rows(mat, 0)
        top, bottom = spans["lane"]
        draw.rounded_rectangle((BOARD_LEFT + 2, top + 4, BOARD_RIGHT - 2, bottom - 4), radius=12, fill=TRACK,
                               outline=TRACK_EDGE, width=2)  # fmt: skip
        cy = (top + bottom) // 2
        for k in range(ESCAPE):  # chevrons between columns: the way out
            x = column(k)[1]
            draw.line((x - 3, cy - 6, x + 2, cy, x - 3, cy + 6), fill=CHEVRON, width=2)
        for space in range(1, SPACES + 1):
            left, stop, _r, _b = slot_box(mat, space, 0)
            image.paste(_empty_slot(), (left, stop), _empty_slot())
        _l, ctop, _r, cbottom = cell_box(mat, 0, 0)
        cy = (ctop + cbottom) // 2
        paste(image, _hole(), (column_x(0), cy + (-8 if mat == 0 else 8)))
        exit_sprite = _exit_cell()
        ex = column_x(ESCAPE) - exit_sprite.width // 2
        image.paste(exit_sprite, (ex, (ctop + cbottom - CARD_H) // 2), exit_sprite)
        word_y = (ctop + cbottom) // 2 + (-CARD_H // 2 + 10 if mat == 0 else CARD_H // 2 - 10)
        exit_word = fit(pgettext("Event Horizon exit", "OUT"), MIN_SIZE, EXIT_W - 8, bold=True)  # inside its rim
        text(draw, (column_x(ESCAPE), word_y), exit_word, MIN_SIZE, EXIT_EDGE, bold=True, anchor="mm")
    cy = (MID_TOP + MID_BOTTOM) // 2
    for k in range(ESCAPE + 1):
        words = str(k)
        text(draw, (column_x(k), cy), words, 17, NUMBER if 1 <= k <= SPACES else MUTED, bold=True, anchor="mm")
    _draw_card_key(image, height)
    return image


# --- the board ---


def _draw_slots(image: Image.Image, view: HorizonState, viewer: int | None) -> None:
    for mat in (0, 1):
        for space in range(1, SPACES + 1):
            slot = view.mats[mat][space - 1]
            if slot is None:
                continue
            rim: Colour | None = None
            if slot.card != HIDDEN:
                rim = FACE_UP_RIM if slot.face_up else KNOWN_RIM
            left, top, _r, _b = slot_box(mat, space, viewer)
            sprite = card_sprite(slot.card, rim)
            image.paste(sprite, (left - RIM, top - RIM), sprite)
            if 0 <= slot.placed_by < 2:
                dot = placer_dot_box(mat, space, viewer)
                paste(image, _placer_dot(slot.placed_by), (round(dot[0]) + PLACER_R, round(dot[1]) + PLACER_R))
            if slot.locked:
                paste(image, _lock(), (left + 5, top + 6))


def placer_dot_box(mat: int, space: int, viewer: int | None) -> Box:
    """The dot that says who placed the card on a slot: inside the card's top-right corner, clear of the
    last play's corner mark there (which lies just outside the card) and of the card's code."""
    _l, top, right, _b = slot_box(mat, space, viewer)
    return box_at((right - 2 - PLACER_R, top + 1 + PLACER_R), 2 * PLACER_R)


def _last_play_corners(view: HorizonState, viewer: int | None) -> list[tuple[int, int, int, int]]:
    """(x, y, dx, dy) of each corner mark of the last play's slot: its corner and its two arms' reach."""
    play = view.last_play
    if not play or play[0] not in ("place", "swap") or view.last_seat is None or len(play) < 3:
        return []
    mat, space = play[1], play[2]
    if mat not in (0, 1) or not 1 <= space <= SPACES:
        return []
    left, top, right, bottom = slot_box(mat, space, viewer)
    pad, arm = RIM + 1, 14
    x0, y0, x1, y1 = left - pad, top - pad, right + pad - 1, bottom + pad - 1
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    return [(x, y, arm if x == x0 else -arm, arm if y == y0 else -arm) for x, y in corners]


def last_play_marks(view: HorizonState, viewer: int | None) -> list[Box]:
    """The boxes the last play's corner marks ink, an arm each (none without a place or a Swap)."""
    half = MARK_W / 2
    boxes: list[Box] = []
    for x, y, dx, dy in _last_play_corners(view, viewer):
        boxes.append((min(x, x + dx) - half, y - half, max(x, x + dx) + half, y + half))
        boxes.append((x - half, min(y, y + dy) - half, x + half, max(y, y + dy) + half))
    return boxes


def _draw_last_play(draw: ImageDraw.ImageDraw, view: HorizonState, viewer: int | None) -> None:
    """Corner marks in the mover's colour around the slot the last play went to (a place or a Swap)."""
    if view.last_seat is None:
        return
    colour = seat_colour(view.last_seat)
    for x, y, dx, dy in _last_play_corners(view, viewer):
        for width, fill in ((MARK_W, INK), (4, colour)):
            draw.line((x + dx, y, x, y, x, y + dy), fill=fill, width=width, joint="curve")


def _draw_copies(image: Image.Image, view: HorizonState, viewer: int | None) -> None:
    """A purple arrow across the numbers row from each card a Mimic of the last chain copied (now face up)."""
    mover = view.last_seat
    if mover is None:
        return
    other = 1 - mover
    for space, card, _start, _end in view.last_chain[:CHAIN_CAP]:
        if card != "MI" or not 1 <= space <= SPACES:
            continue
        slot = view.mats[other][space - 1]
        if slot is None or not slot.face_up or slot.card == HIDDEN:
            continue
        down = is_bottom(mover, viewer)  # from the copied card towards the mover's mat
        x = column(space)[1] - 9
        start, end = (MID_TOP - 2, MID_BOTTOM + 2) if down else (MID_BOTTOM + 2, MID_TOP - 2)
        paste(image, _copy_arrow(down), (x, (start + end) // 2))


@cache
def _copy_arrow(down: bool) -> Image.Image:
    """The Mimic's copy arrow: short, vertical, purple."""
    length = NUMBERS_H + 12
    return arrow_layer(length, -90.0 if down else 90.0, KIND_COLOURS["M"], shaft=5, head_width=13, head_length=9,
                       outline=WHITE, outline_width=1.5)  # fmt: skip


def _draw_tokens(image: Image.Image, view: HorizonState, viewer: int | None) -> None:
    for seat in (0, 1):
        escaped = max(0, min(TOKENS, view.escaped[seat]))
        active = escaped < TOKENS
        waiting = max(0, TOKENS - escaped - (1 if active else 0))
        left, top, right, bottom = cell_box(seat, 0, viewer)
        cx = (left + right) // 2
        far = bottom - 10 if is_bottom(seat, viewer) else top + 10  # the hole's far edge, away from the numbers
        for k in range(waiting):
            paste(image, _small_token(seat), (round(cx + (k - (waiting - 1) / 2) * 18), far))
        left, top, right, bottom = cell_box(seat, ESCAPE, viewer)
        cx = (left + right) // 2  # below the OUT on the numbers side: towards the far side
        cy = (top + bottom) // 2 + (8 if is_bottom(seat, viewer) else -8)
        for k in range(escaped):
            paste(image, _small_token(seat), (cx, round(cy + (k - (escaped - 1) / 2) * 19)))
        if active:
            position = max(0, min(SPACES, view.positions[seat]))
            paste(image, _token(seat), token_centre(seat, position, viewer))


def chain_marks(view: HorizonState) -> list[tuple[int, int, str, str]]:
    """(number, space, card, where it sent the token) for each card of the last chain, in order. Each
    card resolves once and leaves, so every link has a slot of its own, now empty, to be drawn in."""
    marks = []
    for k, (space, card, _start, end) in enumerate(view.last_chain[:CHAIN_CAP]):
        where = _out() if end >= ESCAPE else str(max(0, end))
        marks.append((k + 1, space, card, where))
    return marks


def _draw_chain(image: Image.Image, draw: ImageDraw.ImageDraw, view: HorizonState, viewer: int | None) -> None:
    """The last chain, in the mover's own slots its cards left: each numbered in order (a disc rimmed in the
    mover's colour), with the card's code and where it sent the token ("→ 5"). No mark meets another, nor a
    card or a token."""
    mover = view.last_seat
    if mover is None:
        return
    colour = seat_colour(mover)
    for number, space, card, where in chain_marks(view):
        if not 1 <= space <= SPACES or view.mats[mover][space - 1] is not None:
            continue
        left, top, right, _ = slot_box(mover, space, viewer)
        cx = (left + right) // 2
        paste(image, _number(number, colour), (cx, top + 15))
        text(draw, (cx, top + 42), card, MIN_SIZE, TEXT, bold=True, anchor="mm")
        text(draw, (cx, top + 64), f"→{where}", MIN_SIZE, HIGHLIGHT, bold=True, anchor="mm")


def _draw_names(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: HorizonState, viewer: int | None, caption: Caption
) -> None:
    """Each mat's name row: whose path it is, escaped count, and the die for the last mover."""
    for seat in (0, 1):
        top, bottom = rows(seat, viewer)["name"]
        cy = (top + bottom) // 2
        paste(image, seat_token(seat, 8, ring_width=1.5), (BOARD_LEFT + 12, cy))
        roll = view.last_roll if seat == view.last_seat and view.last_roll else None
        if roll:
            die = die_box(seat, viewer)
            paste(image, die_face(roll, seat_colour(seat)), ((die[0] + die[2]) // 2, (die[1] + die[3]) // 2))
            text(draw, (die[0] - 6, cy), _rolled(), MIN_SIZE, MUTED, bold=True, anchor="rm")
    for placed in board_texts(view, viewer, caption):
        paint_text(draw, placed)


def _rolled() -> str:
    """The word beside the last roll's die, in the reader's language."""
    return pgettext("Event Horizon die", "rolled")


def board_texts(view: HorizonState, viewer: int | None, caption: Caption) -> list[PlacedText]:
    """The board's own texts with names in them, laid out to show whole: each path's name and escaped
    count, and the hand rows' names (shrunk, then wrapped, never cut)."""
    placed = []
    for seat in (0, 1):
        top, bottom = rows(seat, viewer)["name"]
        right = BOARD_RIGHT - 6
        if seat == view.last_seat and view.last_roll:
            right = die_box(seat, viewer)[0] - 6 - round(length(_rolled(), MIN_SIZE, True)) - 10
        tail = _("escaped {escaped}/{tokens}").format(escaped=view.escaped[seat], tokens=TOKENS)
        tail_left = right - round(length(tail, MIN_SIZE, True)) - 2
        placed.append(fitted(tail, (tail_left, top, right, bottom), MIN_SIZE, bold=True,
                             colour=HIGHLIGHT if view.escaped[seat] else TEXT, align="right"))  # fmt: skip
        name = caption.name(seat)
        words = _("Your path ({name})").format(name=name) if seat == viewer else _("{name}'s path").format(name=name)
        placed.append(fitted(words, (BOARD_LEFT + 24, top, tail_left - 12, bottom), 17, bold=True))
    y = HAND_TOP + HAND_LABEL_H // 2
    if viewer in (0, 1):
        other = 1 - viewer
        held = len(view.hands[other])
        words = ngettext("{name} holds {count} card", "{name} holds {count} cards", held).format(
            name=caption.name(other), count=i18n.number(held)
        )
        box = (BOARD_LEFT + HAND_LABEL_W + 10, y - 11, BOARD_RIGHT - 4, y + 11)
        placed.append(fitted(words, box, MIN_SIZE, colour=MUTED, align="right"))
        return placed
    for k, seat in enumerate((bottom_seat(viewer), 1 - bottom_seat(viewer))):
        row_y = HAND_TOP + HAND_LABEL_H + 8 + k * 44
        placed.append(
            fitted(caption.name(seat), (BOARD_LEFT + 24, row_y, BOARD_LEFT + 244, row_y + 36), MIN_SIZE, bold=True)
        )
    return placed


def _draw_hand(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: HorizonState, viewer: int | None, caption: Caption
) -> None:
    """The viewer's hand face up; for a spectator, each hand as a count and small backs, or by the cards' codes
    once the game is over by the rules (its view then hides no card)."""
    y = HAND_TOP + HAND_LABEL_H // 2
    if viewer in (0, 1):
        hand = view.hands[viewer]
        words = fit(_("Your hand"), MIN_SIZE, HAND_LABEL_W, bold=True)
        text(draw, (BOARD_LEFT + 4, y), words, MIN_SIZE, TEXT, bold=True, anchor="lm")
        if not hand:
            text(draw, (BOARD_LEFT + 4, y + 40), _("no cards"), MIN_SIZE, MUTED, anchor="lm")
        for k, card in enumerate(hand):
            left, top, _r, _b = hand_box(k)
            sprite = card_sprite(card)  # "??" here would be a back: nothing but the view is drawn
            image.paste(sprite, (left - RIM, top - RIM), sprite)
        return
    shown_up = not any(card == HIDDEN for hand in view.hands for card in hand)  # the game is over by the rules
    words = _("Hands") if shown_up else _("Hands (hidden)")
    text(draw, (BOARD_LEFT + 4, y), words, MIN_SIZE, TEXT, bold=True, anchor="lm")
    back = _mini_back()
    for k, seat in enumerate((bottom_seat(viewer), 1 - bottom_seat(viewer))):
        row_y = HAND_TOP + HAND_LABEL_H + 8 + k * 44
        paste(image, seat_token(seat, 8, ring_width=1.5), (BOARD_LEFT + 12, row_y + 17))
        count = len(view.hands[seat])
        x = BOARD_LEFT + 250  # the backs: room for two lines of a long name before them
        if shown_up:  # the cards left in hand, by their codes, in the type of the cards' own codes' key
            words = fit(" ".join(view.hands[seat]) or _("no cards"), MIN_SIZE, BOARD_RIGHT - x, bold=True)
            text(draw, (x, row_y + 17), words, MIN_SIZE, TEXT if view.hands[seat] else MUTED, bold=True, anchor="lm")
            continue
        shown = min(count, 8)
        for j in range(shown):
            image.paste(back, (x + j * 26, row_y), back)
        cards = ngettext("{count} card", "{count} cards", count).format(count=i18n.number(count))
        left = x + shown * 26 + 6
        cards = fit(cards, MIN_SIZE, BOARD_RIGHT - 2 - left, bold=True)
        text(draw, (left, row_y + 17), cards, MIN_SIZE, MUTED, bold=True, anchor="lm")


def draw(view: HorizonState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a viewed state: paths, cards, the last play, tokens, chain, die, hand, panel."""
    _every_card()
    height = image_height(view, viewer)
    facts = panel(view, viewer, caption)
    image, layout = canvas(_background(height), facts, PANEL_LEFT - 4)
    board = ImageDraw.Draw(image)
    _draw_slots(image, view, viewer)
    _draw_last_play(board, view, viewer)
    _draw_chain(image, board, view, viewer)
    _draw_copies(image, view, viewer)
    _draw_tokens(image, view, viewer)
    _draw_names(image, board, view, viewer, caption)
    _draw_hand(image, board, view, viewer, caption)
    return draw_panel(image, facts, PANEL_LEFT - 4, layout)


# --- the panel ---


def _info(view: HorizonState, seat: int) -> str:
    """A seat card's line, beside its score: its cards placed in the setup, else where its token is (the cards
    each holds and the last roll are on the board)."""
    if view.setup:
        return _("placed {placed}/{total}").format(placed=view.placed[seat], total=SETUP_PLACEMENTS)
    if view.escaped[seat] >= TOKENS:  # the score says 3/3, and the card is narrow beside it and "★ wins"
        return ""
    position = view.positions[seat]
    return _("in the hole") if position == 0 else _("on space {space}").format(space=position)


def panel(view: HorizonState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: a card per player, the phase and piles, the status, the last play and chain."""
    live = caption.result is None and view.turn is not None
    turn = view.turn if live else None
    seats = []
    for seat in (0, 1):
        info = _info(view, seat)
        seats.append(
            seat_card(
                caption,
                seat,
                viewer,
                turn,
                score=f"{view.escaped[seat]}/{TOKENS}",
                score_colour=HIGHLIGHT if view.escaped[seat] else TEXT,
                won=view.winner == seat and caption.result is None and view.turn is None,
                info=(Line(info),),
            )
        )
    deck, discard = i18n.number(len(view.deck)), i18n.number(len(view.discard))
    piles = _("Deck {deck} · discard {discard}").format(deck=deck, discard=discard)  # the alt text names the top
    lead = (Line(_phase_line(view), colour=TEXT, bold=True), Line(piles))
    banner = caption.result
    if banner is None and view.turn is None:
        if view.winner is None:
            banner = pgettext("result", "Draw")
        else:
            banner = _("{name} wins").format(name=caption.name(view.winner))
    names = [caption.name(seat) for seat in (0, 1)]
    room = WIDTH - (PANEL_LEFT - 4) - 2 * PAD - 2 * BEARING  # a long name is cut short, not the space it names
    play, chain = shortened(_play_words(view, caption), names, MIN_SIZE, room, 2, bold=False), _chain_words(view)
    key = [KeyEntry(_("face up (a Mimic)"), _rim_swatch(FACE_UP_RIM))]
    if viewer in (0, 1):
        key.append(KeyEntry(_("known to you"), _rim_swatch(KNOWN_RIM)))
    key += [KeyEntry(_("locked by a Swap"), _lock()), KeyEntry(_("who placed it"), _placer_dot(0))]
    return captioned(
        "Event Horizon",
        caption,
        seats=tuple(seats),
        lead=lead,
        banner=banner,
        turn=_turn(turn, caption),
        notes=(Line(play, max_lines=2), Line(chain, max_lines=2)),
        key=tuple(key),
    )


@cache
def _rim_swatch(colour: Colour) -> Image.Image:
    """The key's sample of a card rim."""
    swatch = Image.new("RGBA", (16, 16), (0, 0, 0, 0))
    draw = ImageDraw.Draw(swatch)
    draw.rounded_rectangle((1, 1, 15, 15), radius=3, fill=colour, outline=INK)
    draw.rectangle((5, 5, 11, 11), fill=CARD_FACE)
    return swatch


def _phase_line(view: HorizonState) -> str:
    """The phase: the setup, the turn of the seat to move, or how many turns were played."""
    if view.setup:
        return pgettext("Event Horizon phase", "Setup")  # the seat cards say how many each placed
    if view.turn is not None:
        return _("Turn {turn} of {cap} each").format(turn=view.turns[view.turn] + 1, cap=view.turn_cap)
    played = max(view.turns)
    return ngettext("{count} turn of {cap}", "{count} turns of {cap}", played).format(
        count=i18n.number(played), cap=view.turn_cap
    )


def _play_words(view: HorizonState, caption: Caption) -> str:
    """The last play in public words, a whole sentence in the past ("alice placed a card on bob's space 5."):
    never which hidden card. The roll is the die's, on the mover's path."""
    seat, play = view.last_seat, view.last_play
    if seat is None or not play:
        return ""
    who = caption.name(seat)
    if play[0] == "place" and len(play) >= 3 and play[1] == seat:
        return _("{name} placed a card on their own space {space}.").format(name=who, space=play[2])
    if play[0] == "place" and len(play) >= 3:
        words = _("{name} placed a card on {owner}'s space {space}.")
        return words.format(name=who, owner=caption.name(play[1]), space=play[2])
    if play[0] == "swap" and len(play) >= 3:
        return _("{name} swapped on space {space}.").format(name=who, space=play[2])
    return _("{name} passed.").format(name=who)


def _out() -> str:
    """Where a chain sends a token that escapes (the exit), in the reader's language."""
    return pgettext("Event Horizon exit", "out")


def _chain_words(view: HorizonState) -> str:
    """The last chain, link by link ("" without one)."""
    links = []
    for k, (space, card, _start, end) in enumerate(view.last_chain[:CHAIN_CAP]):
        where = _out() if end == ESCAPE else str(end)
        link = _("{number}. {card} on {space} → {where}")
        links.append(link.format(number=k + 1, card=card, space=space, where=where))
    return _("Chain: {links}").format(links=", ".join(links)) if links else ""


def _turn(turn: int | None, caption: Caption) -> Turn | None:
    """Whose turn it is, in the reader's language (None once the game is over)."""
    if turn is None:
        return None
    return Turn(seat_token(turn, 9), _("{name} to move").format(name=caption.name(turn)))


__all__ = [
    "HEIGHT",
    "PANEL_LEFT",
    "WIDTH",
    "card_key",
    "card_sprite",
    "chain_marks",
    "die_box",
    "draw",
    "face",
    "hand_box",
    "image_height",
    "key_boxes",
    "last_play_marks",
    "mat_box",
    "placer_dot_box",
    "seat_colour",
    "slot_box",
    "token_centre",
]
