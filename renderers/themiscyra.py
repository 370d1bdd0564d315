"""Draws a Themiscyra board: the 10x10 board on the left, players, clocks and the last turn on the right.

Stones are black and white discs (white ones with a dark rim) on a grey-green board; a ring is a thick gold
band with dark edges around the stone that carries it. The last turn tints its squares under the stones, as
lichess does (`tints`): its two new stones' (the ring went to one of them), and lighter the stone the ring
left, which a dashed red circle rings where the ring was; a setup ring's square gets red corner marks. No
mark lies on a stone. With "areas" in `Caption.overlays` every open area
is tinted in its own colour and outlined, so players see where rings may move through. Stone, ring, mark
and arrow sprites depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

from functools import cache, partial

from PIL import Image, ImageDraw

from bot.games.themiscyra import RINGS, SIZE, SQUARE_NAMES, THEMISCYRA, ThemiscyraState, open_areas
from bot.i18n import N_, _, ngettext
from renderers.draw import (
    FROM_SHARE,
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    MUTED,
    PANEL,
    PANEL_BOX,
    TEXT,
    TO_SHARE,
    WHITE,
    Caption,
    Colour,
    antialiased,
    paste,
    text,
    tint,
)
from renderers.panel import KeyEntry, Line, Panel, Strip, Turn, canvas, captioned, draw_panel, seat_card

SQUARE = 52  # side of a board square
BOARD_LEFT = 34  # room for the row numbers
BOARD_TOP = 16
BOARD_SIDE = SIZE * SQUARE
PANEL_LEFT = BOARD_LEFT + BOARD_SIDE + 14
WIDTH = 800
HEIGHT = 590
STONE_R = 18  # stone radius
RING_IN = 19.5  # the ring band, dark edges included
RING_OUT = 25
SPRITE = SQUARE  # stone sprites are one square, centred on it
SIDES = (N_("Black"), N_("White"))  # seat 0 plays Black, seat 1 White (docs/rules/themiscyra.md); say with _()
PER_SEAT = RINGS // 2  # rings each player places in setup (and so owns)

BOARD_BG: Colour = (20, 30, 38)
SQUARE_LIGHT: Colour = (122, 150, 134)
SQUARE_DARK: Colour = (108, 136, 121)
GRID_LINE: Colour = (70, 92, 82)
COORD: Colour = (196, 212, 226)
STONE_FILL: tuple[Colour, Colour] = ((24, 24, 28), (244, 243, 236))
STONE_RIM: tuple[Colour, Colour] = ((78, 80, 88), INK)
RING_GOLD: Colour = (255, 196, 40)
LAST_MARK: Colour = (238, 52, 86)
AREA_TINTS: tuple[Colour, ...] = (
    (160, 222, 255),
    (255, 178, 206),
    (206, 188, 255),
    (255, 206, 150),
    (176, 250, 196),
    (236, 236, 150),
)
"""Open-area tints, cycled in the order of each area's lowest square; mixed into the square colour."""
AREA_MIX = 0.7  # how much of the tint goes into a tinted square
AREA_EDGE_DARKEN = 0.45  # an area's outline: its tint, this much darkened
AREA_EDGE = 3  # px


def square_centre(square: int) -> tuple[int, int]:
    """Pixel centre of a square (bit row * 10 + col: a1 = 0 ... j10 = 99); row 10 is at the top."""
    row, col = divmod(square, SIZE)
    return BOARD_LEFT + SQUARE * col + SQUARE // 2, BOARD_TOP + SQUARE * (SIZE - 1 - row) + SQUARE // 2


def square_box(square: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a square, for cropping; neighbouring boxes share no pixel."""
    cx, cy = square_centre(square)
    half = SQUARE // 2
    return cx - half, cy - half, cx + half, cy + half


def _square_fill(square: int) -> Colour:
    row, col = divmod(square, SIZE)
    return SQUARE_LIGHT if (row + col) % 2 else SQUARE_DARK


def _mix(a: Colour, b: Colour, share: float) -> Colour:
    """`share` of b mixed into a."""
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _circle(draw: ImageDraw.ImageDraw, c: float, r: float, s: int, fill: Colour) -> None:
    draw.ellipse(((c - r) * s, (c - r) * s, (c + r) * s, (c + r) * s), fill=fill)


@cache
def _stone(seat: int, ringed: bool) -> Image.Image:
    """A stone (0 black, 1 white), with a gold ring band around it when it carries a ring."""
    c = SPRITE / 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        if ringed:
            _circle(draw, c, RING_OUT, s, INK)
            _circle(draw, c, RING_OUT - 1.6, s, RING_GOLD)
            _circle(draw, c, RING_IN, s, INK)
        _circle(draw, c, STONE_R, s, STONE_RIM[seat])
        _circle(draw, c, STONE_R - 1.6, s, STONE_FILL[seat])
        # a soft highlight up and left, so the stones read as stones, not holes
        shine = (58, 58, 66) if seat == 0 else WHITE
        draw.ellipse(((c - 11) * s, (c - 12) * s, (c - 3) * s, (c - 6) * s), fill=shine)

    return antialiased((SPRITE, SPRITE), paint)


@cache
def _icon(seat: int, radius: int) -> Image.Image:
    """A small stone for the panel, rimmed so a black one shows on the dark panel too."""
    side = 2 * radius + 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c = side / 2
        _circle(draw, c, radius, s, MUTED if seat == 0 else INK)
        _circle(draw, c, radius - 1.5, s, STONE_FILL[seat])

    return antialiased((side, side), paint)


@cache
def _ring_icon(placed: bool) -> Image.Image:
    """A ring for the panel: gold when on the board, a dim outline while still to be placed."""
    side = 20

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c = side / 2
        if placed:
            _circle(draw, c, 9, s, INK)
            _circle(draw, c, 8, s, RING_GOLD)
            _circle(draw, c, 4.6, s, INK)
            _circle(draw, c, 3.6, s, PANEL_BOX)
        else:
            _circle(draw, c, 8, s, MUTED)
            _circle(draw, c, 6.4, s, PANEL_BOX)

    return antialiased((side, side), paint)


@cache
def _ghost_ring() -> Image.Image:
    """A dashed red circle where the moved ring was: the stone it left stays, bare."""
    c = SPRITE / 2
    r = (RING_IN + RING_OUT) / 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        box = ((c - r) * s, (c - r) * s, (c + r) * s, (c + r) * s)
        for k in range(12):
            start = k * 30 + 4
            draw.arc(box, start, start + 18, fill=INK, width=round(5.5 * s))
        for k in range(12):
            start = k * 30 + 4
            draw.arc(box, start + 1.5, start + 16.5, fill=LAST_MARK, width=round(3 * s))

    return antialiased((SPRITE, SPRITE), paint)


@cache
def _corners() -> Image.Image:
    """Red corner brackets inside a square: where a ring was put down in setup."""
    sprite = Image.new("RGBA", (SQUARE, SQUARE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    lo, hi, arm = 1, SQUARE - 2, 13
    for x, dx in ((lo, 1), (hi, -1)):
        for y, dy in ((lo, 1), (hi, -1)):
            for box in ((x, y, x + dx * arm, y + dy * 4), (x, y, x + dx * 4, y + dy * arm)):
                left, right = sorted((box[0], box[2]))
                top, bottom = sorted((box[1], box[3]))
                draw.rectangle((left, top, right, bottom), fill=INK)
                draw.rectangle((left + 1, top + 1, right - 1, bottom - 1), fill=LAST_MARK)
    return sprite


@cache
def _background() -> Image.Image:
    """The board squares, coordinates and the panel: everything that never changes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((PANEL_LEFT - 4, 0, WIDTH, HEIGHT), fill=PANEL)
    for square in range(SIZE * SIZE):
        left, top, right, bottom = square_box(square)
        draw.rectangle((left, top, right - 1, bottom - 1), fill=_square_fill(square))
    for k in range(SIZE + 1):
        x, y = BOARD_LEFT + SQUARE * k, BOARD_TOP + SQUARE * k
        draw.line((x, BOARD_TOP, x, BOARD_TOP + BOARD_SIDE), fill=GRID_LINE, width=1)
        draw.line((BOARD_LEFT, y, BOARD_LEFT + BOARD_SIDE, y), fill=GRID_LINE, width=1)
    for k in range(SIZE):
        cx, _y = square_centre(k)
        text(draw, (cx, BOARD_TOP + BOARD_SIDE + 18), "abcdefghij"[k], 19, COORD, bold=True, anchor="mm")
        _x, cy = square_centre(k * SIZE)
        text(draw, (BOARD_LEFT // 2, cy), str(k + 1), 19, COORD, bold=True, anchor="mm")
    return image


def _squares(mask: int) -> list[int]:
    return [s for s in range(SIZE * SIZE) if mask >> s & 1]


def _draw_areas(draw: ImageDraw.ImageDraw, empty: int) -> None:
    """Each open area in its own flat tint, outlined along its edges; lone empty squares stay plain.

    Everything is painted inside the boxes of the area's squares: a square's own grid lines (left and top)
    take the tint when the neighbour there is in the same area, so an area reads as one region.
    """
    for k, area in enumerate(open_areas(empty)):
        tint = AREA_TINTS[k % len(AREA_TINTS)]
        fill = _mix(SQUARE_LIGHT, tint, AREA_MIX)
        edge = _mix(tint, INK, AREA_EDGE_DARKEN)
        for square in _squares(area):
            left, top, right, bottom = square_box(square)
            row, col = divmod(square, SIZE)
            up = row < SIZE - 1 and bool(area >> (square + SIZE) & 1)
            down = row > 0 and bool(area >> (square - SIZE) & 1)
            west = col > 0 and bool(area >> (square - 1) & 1)
            east = col < SIZE - 1 and bool(area >> (square + 1) & 1)
            corner = up and west and bool(area >> (square + SIZE - 1) & 1)
            draw.rectangle((left + (0 if west else 1), top + (0 if up else 1), right - 1, bottom - 1), fill=fill)
            if not corner:  # the grid crossing at the top left stays unless all four squares are the area's
                draw.point((left, top), fill=GRID_LINE)
            x0, y0, x1, y1 = left + 1, top + 1, right - 1, bottom - 1
            w = AREA_EDGE - 1
            if not up:
                draw.rectangle((x0, y0, x1, y0 + w), fill=edge)
            if not down:
                draw.rectangle((x0, y1 - w, x1, y1), fill=edge)
            if not west:
                draw.rectangle((x0, y0, x0 + w, y1), fill=edge)
            if not east:
                draw.rectangle((x1 - w, y0, x1, y1), fill=edge)


def tints(state: ThemiscyraState) -> dict[int, float]:
    """The last turn's squares, tinted under their stones as lichess tints a move (how much of LAST_MOVE):
    its two new stones, and lighter the stone the moved ring left."""
    if state.last is None:
        return {}
    a, b, start, _end = state.last
    tinted = {a: TO_SHARE, b: TO_SHARE}
    if start is not None:
        tinted.setdefault(start, FROM_SHARE)
    return tinted


def _draw_tints(image: Image.Image, state: ThemiscyraState) -> None:
    for square, share in tints(state).items():
        left, top, right, bottom = square_box(square)
        tint(image, (left + 1, top + 1, right, bottom), LAST_MOVE, share)


def _draw_last(image: Image.Image, state: ThemiscyraState) -> None:
    """Beside the tints, around the stones (never on one): a dashed circle where the moved ring was, or a
    setup ring's corner marks on its square."""
    if state.last is None:
        return
    _a, _b, start, end = state.last
    if start is None:
        paste(image, _corners(), square_centre(end))
    else:
        paste(image, _ghost_ring(), square_centre(start))


def turn_text(last: tuple[int, int, int | None, int]) -> str:
    """The canonical notation of a turn: stones by column then row, then `@ring` or `from>to`."""
    a, b, start, end = last
    first, second = sorted((a, b), key=lambda s: (s % SIZE, s // SIZE))
    stones = f"{SQUARE_NAMES[first]} {SQUARE_NAMES[second]}"
    if start is None:
        return f"{stones} @{SQUARE_NAMES[end]}"
    return f"{stones} {SQUARE_NAMES[start]}>{SQUARE_NAMES[end]}"


def draw(state: ThemiscyraState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: board, open areas, stones and rings, last turn, then the panel."""
    facts = panel(state, viewer, caption)
    image, layout = canvas(_background(), facts, PANEL_LEFT - 4)
    board = ImageDraw.Draw(image)
    if "areas" in caption.overlays:
        _draw_areas(board, state.empty)
    _draw_tints(image, state)
    for seat in (0, 1):
        for square in _squares(state.stones[seat]):
            paste(image, _stone(seat, bool(state.rings >> square & 1)), square_centre(square))
    _draw_last(image, state)
    return draw_panel(image, facts, PANEL_LEFT - 4, layout)


def panel(state: ThemiscyraState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: a card per player (stone, rings, stones, clock), the status, the last turn."""
    outcome = THEMISCYRA.outcome(state)
    live = caption.result is None and outcome is None and state.winner is None
    turn = THEMISCYRA.to_move(state) if live else None
    winner = state.winner if caption.result is None else None
    seats = []
    for seat in (0, 1):
        stones = state.stones[seat].bit_count()
        seats.append(
            seat_card(
                caption,
                seat,
                viewer,
                turn,
                token=_icon(seat, 11),
                border=HIGHLIGHT,
                won=seat == winner,
                info=(Line(_stones_words(seat, stones), colour=TEXT),),
                strip=Strip(20, partial(_paint_rings, len(state.rings_of(seat)))),
            )
        )
    banner = caption.result
    if banner is None and state.winner is not None:
        banner = _("{name} ({side}) wins").format(name=caption.name(state.winner), side=_(SIDES[state.winner]))
    setup = (
        _("Setup: {placed} of {rings} rings").format(placed=state.rings.bit_count(), rings=RINGS) if state.setup else ""
    )
    last = _("Last: {move}").format(move=turn_text(state.last)) if state.last is not None else ""
    areas = "areas" in caption.overlays
    return captioned(
        "Themiscyra",
        caption,
        seats=tuple(seats),
        banner=banner,
        turn=(
            Turn(_icon(turn, 8), _("{name} ({side}) to move").format(name=caption.name(turn), side=_(SIDES[turn])))
            if turn is not None
            else None
        ),
        notes=(Line(setup, colour=TEXT, bold=True, max_lines=2), Line(last, colour=TEXT, bold=True)),
        key=(KeyEntry(_("shaded: open areas") if areas else "", _area_swatch() if areas else None),),
    )


def _stones_words(seat: int, stones: int) -> str:
    """`Black · 12 stones`, in the reader's language."""
    if seat == 0:
        return ngettext("Black · {count} stone", "Black · {count} stones", stones).format(count=stones)
    return ngettext("White · {count} stone", "White · {count} stones", stones).format(count=stones)


def _paint_rings(placed: int, image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A player's rings: gold on the board, outlined still to place."""
    for k in range(max(PER_SEAT, placed)):
        paste(image, _ring_icon(k < placed), (box[0] + 8 + 21 * k, (box[1] + box[3]) // 2))


@cache
def _area_swatch() -> Image.Image:
    """The key's sample of an open area's shading."""
    swatch = Image.new("RGBA", (17, 15), (0, 0, 0, 0))
    ImageDraw.Draw(swatch).rectangle(
        (0, 0, 16, 14),
        fill=_mix(SQUARE_LIGHT, AREA_TINTS[0], AREA_MIX),
        outline=_mix(AREA_TINTS[0], INK, AREA_EDGE_DARKEN),
        width=2,
    )
    return swatch


__all__ = [
    "AREA_TINTS",
    "HEIGHT",
    "PANEL_LEFT",
    "RING_GOLD",
    "STONE_FILL",
    "WIDTH",
    "draw",
    "square_box",
    "square_centre",
    "turn_text",
]
