"""Draws a "1, 2, 3" (Hey, That's My Fish!) board: hex ice floes on the left, scores and clocks on the right.

Pointy-top hexes, rows A (top) to H (bottom), the 7-tile rows shifted right by half a tile (fish.md). A tile
shows its worth twice, as 1-3 fish and as an ice shade, plus its name; a removed tile is open water with a
faint outline and name so players keep their bearings. Tile, token and marker sprites depend on few inputs,
so they are painted once and pasted; a board is a background copy, some pastes, an arrow and the panel.
"""

from __future__ import annotations

import math
from functools import cache, partial

from PIL import Image, ImageDraw

from bot.games.fish import FISH, ROW_LETTERS, TILE_NAMES, TILES, FishMove, FishState, row_col
from renderers.draw import (
    INK,
    MUTED,
    PANEL,
    PANEL_BOX,
    SEAT_COLOURS,
    WHITE,
    Caption,
    Colour,
    Point,
    antialiased,
    arrow,
    disc,
    paste,
    seat_token,
    text,
)
from renderers.panel import Line, Panel, Strip, Turn, captioned, draw_panel, seat_card

HEX_W = 66  # across the flat sides; also the distance between neighbours in a row
HEX_R = 38  # centre to a pointy corner
ROW_STEP = 57  # 1.5 * HEX_R: rows interlock
ICE_SCALE = 0.95  # floes are drawn a little smaller than their cell, so water shows between them
ICE_DEPTH = 3  # px of darker ice below each floe
BOARD_LEFT = 30  # room for the row letters
BOARD_TOP = 12
PANEL_LEFT = 566
WIDTH = 800
HEIGHT = 2 * BOARD_TOP + 2 * HEX_R + 7 * ROW_STEP + ICE_DEPTH + 2
TOKEN_DROP = 8  # tokens sit below the centre so the tile name above them stays readable
TOKEN_RADIUS = 21
LABEL_RISE = 22  # the tile name sits this far above the centre

WATER: Colour = (16, 54, 86)
GAP_LINE: Colour = (44, 90, 128)
GAP_LABEL: Colour = (104, 146, 184)
ICE = {1: (232, 243, 251), 2: (160, 205, 238), 3: (84, 148, 212)}
ICE_EDGE = {1: (170, 196, 218), 2: (108, 152, 192), 3: (46, 96, 150)}
FISH_INK = {1: (36, 73, 110), 2: (22, 54, 90), 3: (255, 255, 255)}
LABEL_INK = {0: GAP_LABEL, 1: (30, 56, 84), 2: (18, 44, 74), 3: (255, 255, 255)}
CLEARED_DOTS: Colour = (255, 214, 120)
FISH_SPOTS: dict[int, tuple[Point, ...]] = {
    1: ((0, 8),),
    2: ((-13, 8), (13, 8)),
    3: ((-13, 1), (13, 1), (0, 15)),
}
"""Where each fish of a 1-, 2- or 3-tile sits, from the tile centre; the centre itself stays bare ice."""


def tile_centre(tile: int) -> tuple[int, int]:
    """Pixel centre of a tile (0..59) in the rendered image."""
    row, col = row_col(tile)
    return BOARD_LEFT + HEX_W // 2 * (2 * col + 1 + row % 2), BOARD_TOP + HEX_R + ROW_STEP * row


def _hex(cx: float, cy: float, scale: float) -> list[Point]:
    """Corners of a pointy-top hex, clockwise from the top."""
    w, r = HEX_W / 2 * scale, HEX_R * scale
    return [
        (cx, cy - r),
        (cx + w, cy - r / 2),
        (cx + w, cy + r / 2),
        (cx, cy + r),
        (cx - w, cy + r / 2),
        (cx - w, cy - r / 2),
    ]


def _scaled(points: list[Point], s: int) -> list[Point]:
    return [(x * s, y * s) for x, y in points]


def _paint_fish(draw: ImageDraw.ImageDraw, s: int, x: float, y: float, ink: Colour, eye: Colour) -> None:
    """A 22 x 12 px fish facing left, centred on (x, y)."""
    draw.ellipse(((x - 11) * s, (y - 5.5) * s, (x + 5) * s, (y + 5.5) * s), fill=ink)
    draw.polygon(_scaled([(x + 2, y), (x + 11, y - 6), (x + 8.5, y), (x + 11, y + 6)], s), fill=ink)
    draw.ellipse(((x - 8) * s, (y - 2.6) * s, (x - 5.2) * s, (y + 0.2) * s), fill=eye)


@cache
def _floe(value: int, occupied: bool) -> Image.Image:
    """A tile worth `value` (0: open water), centred at (HEX_W / 2, HEX_R); no fish under a token."""
    cx, cy = HEX_W / 2, HEX_R

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _hex(cx, cy, ICE_SCALE)
        if not value:
            draw.line(_scaled([*corners, corners[0]], s), fill=GAP_LINE, width=2 * s)
            return
        draw.polygon(_scaled(_hex(cx, cy + ICE_DEPTH, ICE_SCALE), s), fill=ICE_EDGE[value])
        draw.polygon(_scaled(corners, s), fill=ICE[value])
        for dx, dy in () if occupied else FISH_SPOTS[value]:
            _paint_fish(draw, s, cx + dx, cy + dy, FISH_INK[value], ICE[value])

    return antialiased((HEX_W, 2 * HEX_R + ICE_DEPTH), paint)


@cache
def _label(name: str, value: int) -> Image.Image:
    """A tile's name with a rim of its own ice (or water) colour, so it stays readable over the arrow."""
    rim = ICE.get(value, WATER)
    sprite = Image.new("RGBA", (34, 20), (*rim, 0))  # transparent in the rim colour: no dark fringe
    draw = ImageDraw.Draw(sprite)
    text(draw, (17, 10), name, 13, LABEL_INK[value], bold=True, anchor="mm", outline=rim, outline_width=1.5)
    return sprite


@cache
def _value_badge(value: int) -> Image.Image:
    """The small disc that keeps a tile's worth visible under a token."""
    badge = disc(9, ICE[value], ring=None).copy()
    centre = (badge.width / 2, badge.height / 2)
    text(ImageDraw.Draw(badge), centre, str(value), 12, LABEL_INK[value], bold=True, anchor="mm")
    return badge


@cache
def _hex_marker(colour: Colour, dotted: bool) -> Image.Image:
    """A hex ring around a whole cell: solid for a placement, dotted for tiles the engine cleared."""
    side = (HEX_W + 10, 2 * HEX_R + 10)
    cx, cy = side[0] / 2, side[1] / 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _hex(cx, cy, 1.0)
        if dotted:
            for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
                for k in range(5):
                    x, y = ax + (bx - ax) * k / 5, ay + (by - ay) * k / 5
                    draw.ellipse(((x - 2) * s, (y - 2) * s, (x + 2) * s, (y + 2) * s), fill=colour)
            return
        ring = _scaled([*corners, corners[0], corners[1]], s)
        draw.line(ring, fill=INK, width=8 * s, joint="curve")
        draw.line(ring, fill=colour, width=4 * s, joint="curve")

    return antialiased(side, paint)


@cache
def _background() -> Image.Image:
    """Water, the panel and the row letters: everything that never changes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), WATER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((PANEL_LEFT - 4, 0, WIDTH, HEIGHT), fill=PANEL)
    for row, letter in enumerate(ROW_LETTERS):
        y = BOARD_TOP + HEX_R + ROW_STEP * row
        text(draw, (BOARD_LEFT // 2 + (6 if row % 2 else 0), y), letter, 17, MUTED, bold=True, anchor="mm")
    return image


def _draw_last_move(image: Image.Image, state: FishState, move: FishMove) -> None:
    """An arrow for a move (from the gap it left), a ring for a placement, in the mover's colour."""
    seat = state.last_seat
    colour = WHITE if seat is None else SEAT_COLOURS[seat]
    dx, dy = tile_centre(move.dst)
    if move.src is None:
        paste(image, _hex_marker(colour, False), (dx, dy))
        return
    sx, sy = tile_centre(move.src)
    # Stop at the token's rim rather than hide it; short of the centre if the engine removed the token.
    stop = (TOKEN_RADIUS + 3 if state.owner(move.dst) is not None else 12) / math.dist((sx, sy), (dx, dy))
    arrow(image, (sx, sy), (dx - (dx - sx) * stop, dy - (dy - sy) * stop), colour)
    paste(image, disc(7, colour, ring=None), (sx, sy))  # a round tail marks where the token came from


def _badge_offset(tile: int, move: FishMove | None) -> tuple[int, int]:
    """Lower right of the token, or lower left when the last move's arrow comes in from the lower right."""
    if move is not None and move.src is not None and move.dst == tile:
        (sx, sy), (dx, dy) = tile_centre(move.src), tile_centre(tile)
        if sx > dx and sy > dy:
            return -18, 20
    return 18, 20


def draw(state: FishState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: board, markers, last move, names, tokens, then the panel."""
    image = _background().copy()
    occupied = set(state.tokens[0]) | set(state.tokens[1])
    for tile in range(TILES):
        cx, cy = tile_centre(tile)
        floe = _floe(state.values[tile], tile in occupied)
        image.paste(floe, (cx - HEX_W // 2, cy - HEX_R), floe)
    for tile in state.cleared:
        paste(image, _hex_marker(CLEARED_DOTS, True), tile_centre(tile))
    move = FishMove.parse(state.last_move) if state.last_move else None
    if move is not None:
        _draw_last_move(image, state, move)
    for tile in range(TILES):
        cx, cy = tile_centre(tile)
        paste(image, _label(TILE_NAMES[tile], state.values[tile]), (cx, cy - LABEL_RISE))
    for seat, tiles in enumerate(state.tokens):
        for tile in tiles:
            cx, cy = tile_centre(tile)
            paste(image, seat_token(seat, TOKEN_RADIUS), (cx, cy + TOKEN_DROP))
            if state.values[tile]:
                bx, by = _badge_offset(tile, move)
                paste(image, _value_badge(state.values[tile]), (cx + bx, cy + by))
    return draw_panel(image, panel(state, viewer, caption), PANEL_LEFT - 4)


def panel(state: FishState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: one card per seat (name, score, tokens, clock), then whose turn or the result."""
    outcome = FISH.outcome(state)
    live = caption.result is None and outcome is None
    turn = FISH.to_move(state) if live else None
    seats = [
        seat_card(
            caption, seat, viewer, turn,
            token=seat_token(seat, 12),
            score=str(state.scores[seat]),
            info=(Line(_tokens_words(state, seat), 12),),
            strip=Strip(18, partial(_paint_tokens, state, seat)),
        )
        for seat in (0, 1)
    ]  # fmt: skip
    banner = caption.result
    if banner is None and outcome is not None:
        a, b = state.scores
        if outcome.winners:
            (winner,) = outcome.winners
            banner = f"{caption.name(winner)} wins {max(a, b)}–{min(a, b)}"
        else:
            banner = f"Draw, {a}–{b}"
    notes: list[Line] = []
    if state.last_move:
        seat = state.last_seat
        by = "" if seat is None else f" ({caption.name(seat)})"
        notes.append(Line(f"Last move: {state.last_move}{by}", 13))
    if state.cleared:
        names = " ".join(TILE_NAMES[t] for t in state.cleared)
        notes.append(Line(f"Scored by the engine (dotted): {names}", 12, CLEARED_DOTS, max_lines=3))
    verb = "to place a token" if state.placing else "to move"
    return captioned(
        "1, 2, 3",
        caption,
        subtitle="Hey, That's My Fish!",
        seats=tuple(seats),
        banner=banner,
        turn=Turn(seat_token(turn, 9), f"{caption.name(turn)} {verb}") if turn is not None else None,
        notes=tuple(notes),
    )


def _tokens_words(state: FishState, seat: int) -> str:
    on_board, in_game = len(state.tokens[seat]), state.tokens_left(seat)
    if on_board < in_game:
        return f"{on_board} placed · {in_game - on_board} to place"
    return f"{on_board} token{'' if on_board == 1 else 's'} on the ice"


def _paint_tokens(state: FishState, seat: int, image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """The seat's tokens in a row: filled on the board, hollow still to place."""
    on_board, in_game = len(state.tokens[seat]), state.tokens_left(seat)
    colour = SEAT_COLOURS[seat]
    cy = (box[1] + box[3]) // 2
    for k in range(in_game):
        centre = (box[0] + 9 + 20 * k, cy)
        placed = seat_token(seat, 8, ring_width=2) if k < on_board else disc(8, PANEL_BOX, ring=colour, ring_width=2.5)
        paste(image, placed, centre)
