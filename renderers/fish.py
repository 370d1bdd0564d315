"""Draws a "1, 2, 3" (Hey, That's My Fish!) board: hex ice floes on the left, scores and clocks on the right.

Pointy-top hexes, rows A (top) to H (bottom), the 7-tile rows shifted right by half a tile (fish.md). A tile
shows its worth twice, as 1-3 fish and as an ice shade, plus its name; a removed tile is open water with a
faint outline and name so players keep their bearings. The last move's tiles are tinted under the token
(`tints`), never crossed by an arrow, and tiles the engine scored are tinted in their scorer's colour and
dotted. Tile, token and marker sprites depend on few inputs, so they are painted once and pasted; a board
is a background copy, some pastes and the panel.
"""

from __future__ import annotations

import re
from functools import cache, partial

from PIL import Image, ImageDraw

from bot.games.fish import FISH, ROW_LETTERS, TILE_NAMES, TILES, FishMove, FishState, row_col
from bot.i18n import _
from renderers.draw import (
    LAST_MOVE,
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
    disc,
    paste,
    seat_token,
    text,
)
from renderers.panel import MIN_SIZE, KeyEntry, Line, Panel, Strip, Turn, canvas, captioned, draw_panel, seat_card

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


def _blend(base: Colour, tint: Colour, share: float) -> Colour:
    """`base` with `share` of `tint` mixed in."""
    return tuple(round(x + (y - x) * share) for x, y in zip(base, tint, strict=True))  # type: ignore[return-value]


TINT_SHARE = {True: 0.5, False: 0.75}  # how much of a tint ice (True) and water take: on dark water, more


@cache
def _floe(value: int, occupied: bool, tint: Colour | None = None) -> Image.Image:
    """A tile worth `value` (0: open water), centred at (HEX_W / 2, HEX_R); no fish under a token. `tint`
    colours the whole tile under what stands on it (the last move's tiles, a scored island's)."""
    cx, cy = HEX_W / 2, HEX_R

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _hex(cx, cy, ICE_SCALE)
        if not value:
            if tint is not None:
                draw.polygon(_scaled(corners, s), fill=_ice(0, tint))
            draw.line(_scaled([*corners, corners[0]], s), fill=GAP_LINE, width=2 * s)
            return
        draw.polygon(_scaled(_hex(cx, cy + ICE_DEPTH, ICE_SCALE), s), fill=ICE_EDGE[value])
        draw.polygon(_scaled(corners, s), fill=_ice(value, tint))
        for dx, dy in () if occupied else FISH_SPOTS[value]:
            _paint_fish(draw, s, cx + dx, cy + dy, FISH_INK[value], _ice(value, tint))

    return antialiased((HEX_W, 2 * HEX_R + ICE_DEPTH), paint)


def _ice(value: int, tint: Colour | None) -> Colour:
    """A tile's fill: its ice shade (or water), tinted if asked."""
    base = ICE.get(value, WATER)
    return base if tint is None else _blend(base, tint, TINT_SHARE[value > 0])


@cache
def _label(name: str, value: int, tint: Colour | None = None) -> Image.Image:
    """A tile's name with a rim of its own fill colour, so it stays readable over any mark."""
    rim = _ice(value, tint)
    sprite = Image.new("RGBA", (34, 20), (*rim, 0))  # transparent in the rim colour: no dark fringe
    draw = ImageDraw.Draw(sprite)
    ink = LABEL_INK[value] if tint is None or value else WHITE
    text(draw, (17, 10), name, MIN_SIZE, ink, bold=True, anchor="mm", outline=rim, outline_width=1.5)
    return sprite


@cache
def _value_badge(value: int) -> Image.Image:
    """The small disc that keeps a tile's worth visible under a token."""
    badge = disc(12, ICE[value], ring=None).copy()
    centre = (badge.width / 2, badge.height / 2)
    text(ImageDraw.Draw(badge), centre, str(value), MIN_SIZE, LABEL_INK[value], bold=True, anchor="mm")
    return badge


@cache
def _dotted_ring(colour: Colour) -> Image.Image:
    """A dotted hex ring around a whole cell: a tile the engine cleared on its own (a scored island)."""
    side = (HEX_W + 10, 2 * HEX_R + 10)
    cx, cy = side[0] / 2, side[1] / 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = _hex(cx, cy, 1.0)
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
            for k in range(5):
                x, y = ax + (bx - ax) * k / 5, ay + (by - ay) * k / 5
                draw.ellipse(((x - 2.5) * s, (y - 2.5) * s, (x + 2.5) * s, (y + 2.5) * s), fill=colour)

    return antialiased(side, paint)


@cache
def _key_tint() -> Image.Image:
    """The key's sample of a last-move tile: ice tinted in a seat's colour."""
    return _floe(1, True, LAST_MOVE).resize((16, 19), Image.Resampling.LANCZOS)


@cache
def _key_dots() -> Image.Image:
    return _dotted_ring(CLEARED_DOTS).resize((18, 21), Image.Resampling.LANCZOS)


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


def tints(state: FishState) -> dict[int, Colour]:
    """The tiles drawn tinted, and in whose colour: the last move's (from and to, or the placement) in the
    mover's, and the tiles the engine cleared in their scorer's (read off its events, which name the seat
    and the tiles). Only the tiles' ground changes: a token stands on top, a fish is never on such a tile."""
    tinted: dict[int, Colour] = {}
    if state.last_move and state.last_seat is not None:
        move = FishMove.parse(state.last_move)
        for tile in (move.src, move.dst):
            if tile is not None:
                tinted[tile] = LAST_MOVE
    cleared = set(state.cleared)
    for event in state.events:
        seat = re.search(r"\{(\d)\}", event)
        if seat is None:
            continue
        named = {TILE_NAMES.index(word) for word in re.findall(r"\b[A-H]\d\b", event) if word in TILE_NAMES}
        for tile in named & cleared:
            tinted[tile] = SEAT_COLOURS[int(seat.group(1))]
    return tinted


def draw(state: FishState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: board, markers, last move, names, tokens, then the panel."""
    facts = panel(state, viewer, caption)
    image, layout = canvas(_background(), facts, PANEL_LEFT - 4)
    occupied = set(state.tokens[0]) | set(state.tokens[1])
    tinted = tints(state)
    for tile in range(TILES):
        cx, cy = tile_centre(tile)
        floe = _floe(state.values[tile], tile in occupied, tinted.get(tile))
        image.paste(floe, (cx - HEX_W // 2, cy - HEX_R), floe)
    for tile in state.cleared:
        paste(image, _dotted_ring(CLEARED_DOTS), tile_centre(tile))
    for tile in range(TILES):
        cx, cy = tile_centre(tile)
        paste(image, _label(TILE_NAMES[tile], state.values[tile], tinted.get(tile)), (cx, cy - LABEL_RISE))
    for seat, tiles in enumerate(state.tokens):
        for tile in tiles:
            cx, cy = tile_centre(tile)
            paste(image, seat_token(seat, TOKEN_RADIUS), (cx, cy + TOKEN_DROP))
            if state.values[tile]:
                paste(image, _value_badge(state.values[tile]), (cx + 19, cy + 21))
    return draw_panel(image, facts, PANEL_LEFT - 4, layout)


def panel(state: FishState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: one card per seat (name, score, tokens, clock), then whose turn or the result,
    the last move and what the engine scored. Every slot is there from the first move to the last."""
    outcome = FISH.outcome(state)
    live = caption.result is None and outcome is None
    turn = FISH.to_move(state) if live else None
    winners = outcome.winners if outcome is not None and caption.result is None else ()
    seats = [
        seat_card(
            caption, seat, viewer, turn,
            token=seat_token(seat, 12),
            score=str(state.scores[seat]),
            won=seat in winners,
            strip=Strip(18, partial(_paint_tokens, state, seat)),
        )
        for seat in (0, 1)
    ]  # fmt: skip
    banner = caption.result
    if banner is None and outcome is not None:
        a, b = state.scores
        if outcome.winners:
            (winner,) = outcome.winners
            banner = _("{name} wins {high}–{low}").format(name=caption.name(winner), high=max(a, b), low=min(a, b))
        else:
            banner = _("Draw, {first}–{second}").format(first=a, second=b)
    last = _("Last: {move}").format(move=state.last_move) if state.last_move else ""
    scored = " ".join(TILE_NAMES[t] for t in state.cleared)
    if turn is None:
        turn_words = ""
    elif state.placing:
        turn_words = _("{name} to place a token").format(name=caption.name(turn))
    else:
        turn_words = _("{name} to move").format(name=caption.name(turn))
    return captioned(
        "1, 2, 3",
        caption,
        seats=tuple(seats),
        banner=banner,
        turn=Turn(seat_token(turn, 9), turn_words) if turn is not None else None,
        notes=(
            Line(last, colour=TEXT, bold=True),
            Line(_("Scored: {tiles}").format(tiles=scored) if scored else "", colour=CLEARED_DOTS, max_lines=2),
        ),
        key=(KeyEntry(_("tinted: the last move"), _key_tint()), KeyEntry(_("dotted: scored alone"), _key_dots())),
    )


def _paint_tokens(state: FishState, seat: int, image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """The seat's tokens in a row: filled on the board, hollow still to place."""
    on_board, in_game = len(state.tokens[seat]), state.tokens_left(seat)
    colour = SEAT_COLOURS[seat]
    cy = (box[1] + box[3]) // 2
    for k in range(in_game):
        centre = (box[0] + 9 + 20 * k, cy)
        placed = seat_token(seat, 8, ring_width=2) if k < on_board else disc(8, PANEL_BOX, ring=colour, ring_width=2.5)
        paste(image, placed, centre)
