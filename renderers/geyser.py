"""Draws a Geyser board: the island on the left, players, the round and clocks on the right.

The 11x11 grid is water (blue) and land (sage, with a sandy coast); rows run 1-11 from the TOP, as in
data/geyser_map.txt. A normal geyser is a pale crater with its ring ("6/8" ... "2/12") on a dark tag; the
Mother Geyser is a bigger, hot crater tagged "M·7". A controlled geyser's rim takes its controller's colour.
Starting squares have a cream inset outline and an "S" (only f1 and f11 in a two-player game: a6 and k6 are
plain land then). A square's label (ring tag, "S") sits along its bottom edge in type that still reads on a
phone (MIN_SIZE), and a token on a labelled square stands a little higher (`token_centre`), so neither ever
hides the other. The panel shows the round as "Round 17 of 100" (gold in the last round). Tokens are discs
in their seat colour with a white count badge when several share a square. The last move's squares are
tinted under the tokens as lichess does (`tints`: the square left lighter; a token put on the board tints
its square), a mark unlike any token that never covers one; the last battle's dice (attacker on top, each
die rimmed in its side's colour, with its +geysers bonus and total) sit in the top-left water corner, the
last firing phase's two dice in the top-right one (dark cards over the water), and the geysers they fired
boil: a red square and a gold pool (a red and gold star for the Mother). Squares a pending choice may use
(a new token, a start) get dotted rings.
Sprites depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, partial

from PIL import Image, ImageDraw

from bot.games.geyser import (
    AROUND,
    FIRES,
    GEYSER,
    GEYSERS,
    LAND,
    MOTHER,
    RING_NAMES,
    RING_OF,
    SIZE,
    SQUARE_NAMES,
    STARTS,
    TWO_PLAYER_STARTS,
    GeyserState,
)
from bot.i18n import _, pgettext
from renderers.draw import (
    FROM_SHARE,
    HIGHLIGHT,
    INK,
    LAST_MOVE,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    TO_SHARE,
    WHITE,
    Caption,
    Colour,
    and_list,
    antialiased,
    font,
    paste,
    seat_token,
    text,
    tint,
)
from renderers.overlays import Box, box_at
from renderers.panel import MIN_SIZE, KeyEntry, Line, Panel, Strip, Turn, canvas, captioned, draw_panel, seat_card

SQUARE = 48  # side of a board square
BOARD_LEFT = 30  # room for the row numbers
BOARD_TOP = 12
BOARD_SIDE = SIZE * SQUARE
PANEL_LEFT = BOARD_LEFT + BOARD_SIDE + 14
WIDTH = 800
HEIGHT = 590
TOKEN_R = 14  # token radius
CRATER_R = 22  # a normal geyser's crater
MOTHER_R = 27  # the Mother Geyser's crater: bigger than its square
DIE = 30  # side of a die face on the board
LABEL_SIZE = MIN_SIZE  # ring tags, "S" and count badges: 9 px once a phone shows the picture 450 px wide
LABEL_H = 16  # a label's height, along the bottom of its square
LIFT = 8  # how much higher a token stands on a labelled square, clear of the label
BADGE = 20  # a count badge's height (and its width, up to 9)

BOARD_BG: Colour = (16, 30, 44)
WATER: Colour = (36, 92, 146)
WATER_LINE: Colour = (48, 108, 164)
WAVE: Colour = (70, 132, 186)
LAND_LIGHT: Colour = (150, 170, 116)
LAND_DARK: Colour = (138, 158, 106)
GRID_LINE: Colour = (112, 132, 86)
COAST: Colour = (226, 204, 146)
COORD: Colour = (196, 212, 226)
START_MARK: Colour = (250, 240, 206)
CRATER_FILL: Colour = (206, 236, 240)
CRATER_RIM: Colour = (92, 84, 78)
MOTHER_FILL: Colour = (255, 186, 120)
MOTHER_RIM: Colour = (150, 40, 34)
BURST_OUT: Colour = (236, 64, 44)
BURST_IN: Colour = (255, 204, 64)
TAG: Colour = (24, 28, 36)
CARD: Colour = (18, 40, 64)
FIRE_RIM: Colour = (236, 64, 44)
DIE_FACE: Colour = (252, 250, 244)
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def seat_colour(seat: int) -> Colour:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def square_centre(square: int) -> tuple[int, int]:
    """Pixel centre of a square (row * 11 + col: a1 = 0 at the TOP left ... k11 = 120 at the bottom right)."""
    row, col = divmod(square, SIZE)
    return BOARD_LEFT + SQUARE * col + SQUARE // 2, BOARD_TOP + SQUARE * row + SQUARE // 2


def square_box(square: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of a square, for cropping; neighbouring boxes share no pixel."""
    cx, cy = square_centre(square)
    half = SQUARE // 2
    return cx - half, cy - half, cx + half, cy + half


def fired_squares(state: GeyserState) -> list[int]:
    """The geysers the last firing phase fired (none without one, or for a calm 7)."""
    if state.last_fire is None:
        return []
    total = sum(state.last_fire)
    if total == 7:
        return [MOTHER] if state.seven == "mother" else []
    return sorted(s for s in GEYSERS if RING_OF[s] == FIRES[total])


def fired_label(state: GeyserState) -> str:
    """What the last firing phase fired, in words: "6/8 fires", "Mother fires", "7: calm"."""
    if state.last_fire is None:
        return ""
    total = sum(state.last_fire)
    if total == 7:
        return _("Mother fires") if state.seven == "mother" else _("7: calm")
    return _("{ring} fires").format(ring=RING_NAMES[FIRES[total]])


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: int, fill: Colour) -> None:
    draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=fill)


@cache
def _tag(label: str) -> Image.Image:
    """A geyser's ring on a dark pill with a thin light edge, readable on any square."""
    width = _label_width(label)
    tag = Image.new("RGBA", (width, LABEL_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tag)
    draw.rounded_rectangle((0, 0, width - 1, LABEL_H - 1), radius=7, fill=TAG, outline=(150, 160, 170), width=1)
    text(draw, (width / 2, LABEL_H / 2), label, LABEL_SIZE, WHITE, bold=True, anchor="mm")
    return tag


def _label_width(label: str) -> int:
    return round(font(LABEL_SIZE, True).getlength(label)) + 8


@cache
def _crater(mother: bool, owner: Colour | None, fired: bool = False) -> Image.Image:
    """A geyser's crater: a rock (or owner-coloured) rim around a pale pool; the Mother is bigger and hot.

    A crater that just fired boils: a gold pool.
    """
    radius = MOTHER_R if mother else CRATER_R
    side = 2 * radius + 4
    c = side / 2
    rim = owner or (MOTHER_RIM if mother else CRATER_RIM)
    width = 4.5 if owner else 3.5

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        _circle(draw, c, c, radius + 1, s, INK)
        _circle(draw, c, c, radius, s, rim)
        _circle(draw, c, c, radius - width, s, INK if owner else rim)
        pool = BURST_IN if fired else MOTHER_FILL if mother else CRATER_FILL
        _circle(draw, c, c, radius - width - (1 if owner else 0), s, pool)
        # a steam plume: three soft white puffs in the pool
        steam = (255, 244, 228) if mother else WHITE
        for dx, dy, r in ((-4, -3, 4.5), (3, -6, 3.5), (5, 1, 3)):
            k = radius / CRATER_R
            _circle(draw, c + dx * k, c + dy * k, r * k, s, steam)

    return antialiased((side, side), paint)


@cache
def _burst(mother: bool) -> Image.Image:
    """An eruption behind a geyser the last firing phase fired: a hot square, a red and gold star for the Mother."""
    half = SQUARE // 2
    side = SQUARE + 24 if mother else SQUARE
    c = side / 2
    points = 12
    outer = c - 1

    def star(r_out: float, r_in: float, s: int) -> list[tuple[float, float]]:
        corners = []
        for k in range(2 * points):
            r = r_out if k % 2 == 0 else r_in
            angle = math.pi * k / points
            corners.append(((c + r * math.sin(angle)) * s, (c - r * math.cos(angle)) * s))
        return corners

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        if not mother:
            draw.rectangle((1 * s, 1 * s, (side - 1) * s, (side - 1) * s), fill=BURST_OUT)
            return
        draw.polygon(star(outer, half + 2, s), fill=INK)
        draw.polygon(star(outer - 1.5, half + 1, s), fill=BURST_OUT)
        draw.polygon(star(outer - 4, outer - 9, s), fill=BURST_IN)

    return antialiased((side, side), paint)


@cache
def _token(seat: int) -> Image.Image:
    """A seat's token: its colour and its shape."""
    return seat_token(seat, TOKEN_R, ring_width=2.5)


@cache
def _count_badge(count: int) -> Image.Image:
    """How many tokens share a square: a white disc with the number (a pill from 10 on)."""
    width = max(BADGE, round(font(LABEL_SIZE, True).getlength(str(count))) + 8)

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0, 0, width * s - 1, BADGE * s - 1), radius=BADGE * s / 2, fill=INK)
        draw.rounded_rectangle((s, s, (width - 1) * s - 1, (BADGE - 1) * s - 1), radius=(BADGE / 2 - 1) * s,
                               fill=WHITE)  # fmt: skip

    badge = antialiased((width, BADGE), paint)
    text(ImageDraw.Draw(badge), (width / 2, BADGE / 2 + 0.5), str(count), LABEL_SIZE, INK, bold=True, anchor="mm")
    return badge


@cache
def _choice_ring(colour: Colour) -> Image.Image:
    """A dotted ring on a square the player to move may choose (a new token, a starting square)."""
    side = SQUARE
    c = side / 2
    r = 10

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        for k in range(10):
            angle = 2 * math.pi * k / 10
            x, y = c + r * math.cos(angle), c + r * math.sin(angle)
            _circle(draw, x, y, 3.2, s, INK)
            _circle(draw, x, y, 2.2, s, colour)

    return antialiased((side, side), paint)


@cache
def die_face(value: int, rim: Colour, size: int = DIE) -> Image.Image:
    """A die showing `value` in pips: a white face with a dark outline inside a rim of `rim`'s colour."""
    side = size + 2
    value = max(1, min(6, value))

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((0.5 * s, 0.5 * s, (side - 0.5) * s, (side - 0.5) * s), radius=7 * s, fill=INK)
        draw.rounded_rectangle((1.5 * s, 1.5 * s, (side - 1.5) * s, (side - 1.5) * s), radius=6 * s, fill=rim)
        draw.rounded_rectangle((4.5 * s, 4.5 * s, (side - 4.5) * s, (side - 4.5) * s), radius=4 * s, fill=DIE_FACE)
        step = (size - 8) / 4 + 0.5
        for dx, dy in PIPS[value]:
            _circle(draw, side / 2 + dx * step, side / 2 + dy * step, size / 12, s, INK)

    return antialiased((side, side), paint)


def label_of(square: int, starts: tuple[int, ...] = STARTS) -> str | None:
    """A square's label: its ring ("3/11", "M·7" for the Mother), "S" for a starting square in play, or None."""
    if square == MOTHER:
        return "M·7"
    if square in GEYSERS:
        return RING_NAMES[RING_OF[square]]
    return "S" if square in starts else None


def token_centre(square: int, starts: tuple[int, ...] = STARTS) -> tuple[int, int]:
    """Where a token on `square` stands: the square's centre, or LIFT higher on a labelled square."""
    cx, cy = square_centre(square)
    return (cx, cy - LIFT) if label_of(square, starts) else (cx, cy)


def token_box(square: int, starts: tuple[int, ...] = STARTS) -> Box:
    """The box of the token disc drawn on a square (its count badge is `badge_box`)."""
    return box_at(token_centre(square, starts), 2 * TOKEN_R)


def _badge_centre(square: int, count: int, starts: tuple[int, ...]) -> tuple[int, int]:
    """On the token's top-right, kept inside its square."""
    (tx, ty), (_left, top, right, _bottom) = token_centre(square, starts), square_box(square)
    width = _count_badge(count).width
    return min(tx + 13, right - 1 - width // 2), max(ty - 13, top + 1 + BADGE // 2)


def badge_box(square: int, count: int = 2, starts: tuple[int, ...] = STARTS) -> Box:
    """The box of the count badge of a square where `count` tokens stand."""
    return box_at(_badge_centre(square, count, starts), _count_badge(count).width, BADGE)


def tag_box(square: int, starts: tuple[int, ...] = STARTS) -> Box:
    """The box of a square's label (`label_of`), centred along the square's bottom edge."""
    label = label_of(square, starts)
    assert label is not None
    cx, _y = square_centre(square)
    width, bottom = _label_width(label), square_box(square)[3] - 1
    left = cx - width // 2
    return left, bottom - LABEL_H, left + width, bottom


@dataclass(frozen=True, slots=True)
class Label:
    """A text drawn on the island, in the box it fills."""

    square: int
    box: Box
    words: str
    size: int
    badge: bool  # a count badge, which sits on its token; a square's label never touches one


def labels(state: GeyserState) -> list[Label]:
    """Every text on the island but its coordinates: the squares' labels and the count badges."""
    starts = state.start_squares
    found = [
        Label(s, tag_box(s, starts), label_of(s, starts) or "", LABEL_SIZE, False)
        for s in (*sorted(GEYSERS), MOTHER, *starts)
    ]
    for square, held in enumerate(state.board):
        if held is not None and held[1] > 1:
            found.append(Label(square, badge_box(square, held[1], starts), str(held[1]), LABEL_SIZE, True))
    return found


RINGED = (*sorted(GEYSERS), MOTHER)
"""The squares with a ring tag."""

PLACED = re.compile(r"(?:starts on|starts opposite, on|re-enters on|places a new token on) ([a-k]\d+)")
"""How the engine's events name a square a token was put on (`GeyserRules._apply`)."""


def tints(state: GeyserState) -> dict[int, float]:
    """The squares the last move tints under its tokens, as lichess does, and how much of LAST_MOVE each
    takes: a step's square left (lighter) and the one it went to; a token put on the board (a start, a
    re-entry, a new token after a claim, read off the move's events) its square. A mark unlike any token."""
    if state.last_seat is None:
        return {}
    tinted: dict[int, float] = {}
    if state.last_move is not None:
        src, dst = state.last_move
        tinted = {src: FROM_SHARE, dst: TO_SHARE}
    for event in state.events:
        for name in PLACED.findall(event):
            tinted[SQUARE_NAMES.index(name)] = TO_SHARE
    return tinted


def _draw_tints(image: Image.Image, state: GeyserState) -> None:
    """The last move's squares tinted: each square's bare ground (`_ground`) takes the tint and gets its
    craters back, clipped to the square (the Mother's is wider than its own), so only the ground changes,
    never a crater, a token or a tag, nor a pixel outside the square."""
    for square, share in tints(state).items():
        left, top, right, bottom = square_box(square)
        box = (left + 1, top + 1, right - 1, bottom - 1)
        region = _ground(state.start_squares).crop(box)
        tint(region, (0, 0, *region.size), LAST_MOVE, share)
        for crater in (square, MOTHER):
            if crater in GEYSERS or crater == MOTHER:
                sprite = _crater(crater == MOTHER, None)
                cx, cy = square_centre(crater)
                region.paste(sprite, (cx - sprite.width // 2 - box[0], cy - sprite.height // 2 - box[1]), sprite)
        image.paste(region, box[:2])


def _is_coast(square: int, dx: int, dy: int) -> bool:
    row, col = divmod(square, SIZE)
    r, c = row + dy, col + dx
    return not (0 <= r < SIZE and 0 <= c < SIZE) or (r * SIZE + c) not in LAND


@cache
def _background(starts: tuple[int, ...]) -> Image.Image:
    """Water, land, coast, the game's starting squares, unclaimed geysers with their ring tags, coordinates
    and the panel: what never changes in a game."""
    image = _ground(starts).copy()
    for square in GEYSERS:
        paste(image, _crater(False, None), square_centre(square))
    paste(image, _crater(True, None), square_centre(MOTHER))
    for square in RINGED:
        _paste_tag(image, square)
    return image


@cache
def _ground(starts: tuple[int, ...]) -> Image.Image:
    """The background without its craters: what a tinted square is painted from."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((PANEL_LEFT - 4, 0, WIDTH, HEIGHT), fill=PANEL)
    for square in range(SIZE * SIZE):
        left, top, right, bottom = square_box(square)
        row, col = divmod(square, SIZE)
        if square not in LAND:
            draw.rectangle((left, top, right - 1, bottom - 1), fill=WATER, outline=WATER_LINE)
            for k, wy in enumerate((top + 15, top + 31)):  # two little waves
                wx = left + (9 if (row + col + k) % 2 else 19)
                draw.arc((wx, wy - 4, wx + 10, wy + 4), 200, 340, fill=WAVE, width=2)
                draw.arc((wx + 10, wy - 4, wx + 20, wy + 4), 200, 340, fill=WAVE, width=2)
            continue
        draw.rectangle((left, top, right - 1, bottom - 1), fill=LAND_LIGHT if (row + col) % 2 else LAND_DARK)
        draw.rectangle((left, top, right - 1, bottom - 1), outline=GRID_LINE)
        for dx, dy, box in (
            (-1, 0, (left, top, left + 3, bottom - 1)),
            (1, 0, (right - 4, top, right - 1, bottom - 1)),
            (0, -1, (left, top, right - 1, top + 3)),
            (0, 1, (left, bottom - 4, right - 1, bottom - 1)),
        ):
            if _is_coast(square, dx, dy):
                draw.rectangle(box, fill=COAST)
    for square in starts:
        left, top, right, bottom = square_box(square)
        draw.rectangle((left + 4, top + 4, right - 5, bottom - 5), outline=INK, width=4)
        draw.rectangle((left + 5, top + 5, right - 6, bottom - 6), outline=START_MARK, width=2)
        x0, y0, x1, y1 = tag_box(square, starts)
        draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=4, fill=INK)
        text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "S", LABEL_SIZE, START_MARK, bold=True, anchor="mm")
    for k in range(SIZE):
        cx, _y = square_centre(k)
        text(draw, (cx, BOARD_TOP + BOARD_SIDE + 15), "abcdefghijk"[k], 18, COORD, bold=True, anchor="mm")
        _x, cy = square_centre(k * SIZE)
        text(draw, (BOARD_LEFT // 2 - 1, cy), str(k + 1), 17, COORD, bold=True, anchor="mm")
    return image


def _paste_tag(image: Image.Image, square: int) -> None:
    left, top, _right, _bottom = tag_box(square)
    tag = _tag(label_of(square) or "")
    image.paste(tag, (left, top), tag)


def _draw_choices(image: Image.Image, state: GeyserState) -> None:
    """Dotted rings where the player to move may put a token: a start, or a new token after a claim."""
    seat = state.turn
    if seat is None:
        return
    squares: list[int] = []
    if state.phase == "start" or (state.pending is None and not state.tokens_of(seat) and seat not in state.out):
        squares = [s for s in state.start_squares if state.board[s] is None]
    elif state.pending is not None and state.pending[0] == "place":
        geyser = state.pending[1]
        squares = [
            s
            for s in AROUND.get(geyser, ())
            if s not in GEYSERS and s != MOTHER and ((held := state.board[s]) is None or held[0] == seat)
        ]
    for square in squares:
        paste(image, _choice_ring(seat_colour(seat)), token_centre(square, state.start_squares))


def draw(state: GeyserState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: island, eruptions, geysers, tokens, last move, dice, panel."""
    facts = panel(state, viewer, caption)
    image, layout = canvas(_background(state.start_squares), facts, PANEL_LEFT - 4)
    _draw_tints(image, state)
    fired = fired_squares(state)
    for square in fired:
        paste(image, _burst(square == MOTHER), square_centre(square))
        paste(image, _crater(square == MOTHER, None, fired=True), square_centre(square))
    for square in [*sorted(GEYSERS), MOTHER]:
        held = state.board[square]
        if held is not None:
            paste(image, _crater(square == MOTHER, seat_colour(held[0])), square_centre(square))
    _draw_choices(image, state)
    repainted = {*tints(state), *fired, *(s for s in RINGED if state.board[s] is not None)}
    for square in RINGED if MOTHER in fired else [s for s in RINGED if s in repainted]:
        _paste_tag(image, square)  # again where a crater was painted over its tag (the Mother's star is wide)
    starts = state.start_squares
    for square, held in enumerate(state.board):
        if held is not None:
            paste(image, _token(held[0]), token_centre(square, starts))
            if held[1] > 1:
                paste(image, _count_badge(held[1]), _badge_centre(square, held[1], starts))
    return draw_panel(image, facts, PANEL_LEFT - 4, layout)


@cache
def _geyser_icon() -> Image.Image:
    """A small crater for the panel: 'geysers controlled'."""
    return _crater(False, None).resize((18, 18), Image.Resampling.LANCZOS)


def panel(state: GeyserState, viewer: int | None, caption: Caption) -> Panel:
    """The side panel's facts: a card per player, the round, the result or the turn, the last move, the dice."""
    live = caption.result is None and state.phase != "over"
    turn = state.turn if live else None
    winners = state.winners if state.phase == "over" and caption.result is None else ()
    seats = []
    for seat in range(state.seats):
        held = state.controls(seat)
        seats.append(
            seat_card(
                caption,
                seat,
                viewer,
                turn,
                score=str(held),
                score_colour=HIGHLIGHT if held >= 3 else TEXT,
                score_icon=_geyser_icon(),
                won=seat in winners,
                tag=pgettext("player", "out") if seat in state.out else None,
                info=(
                    Line(
                        ""
                        if seat in state.out or state.phase == "over"  # the tag and the result say what counts
                        else _("{on_board} in play · {supply} left").format(
                            on_board=state.on_board(seat), supply=state.supply[seat]
                        ),
                        max_lines=2,  # beside the score: wraps in a longer language
                    ),
                ),
            )
        )
    last_round = state.phase == "play" and state.round >= state.rounds
    if state.phase == "start":
        setup = _("Setup · {rounds} rounds").format(rounds=state.rounds)
        lead = (Line(setup, colour=TEXT, bold=True, max_lines=2), Line("", max_lines=2))
    else:
        ending = last_round or state.phase == "over"
        roller = _("Last round") if ending else _("Next fire roll: {name}").format(name=caption.name(state.roller))
        round_words = _("Round {round} of {rounds}").format(round=state.round, rounds=state.rounds)
        lead = (
            Line(round_words, colour=HIGHLIGHT if last_round else TEXT, bold=True, max_lines=2),
            Line(roller, max_lines=2),
        )
    banner = caption.result
    if banner is None and state.phase == "over":
        names = [caption.name(s) for s in state.winners]
        if len(names) == 1:
            banner = _("{name} wins").format(name=names[0])
        elif names:
            banner = _("{names} share the win").format(names=and_list(names))
        else:
            banner = _("Game over")
    pending = turn is not None and banner is None and (state.pending is not None or state.phase == "start")
    choice = _choice_text(state, turn) if pending and turn is not None else ""
    moved = state.last_move is not None and state.last_seat is not None
    last = _("Last: {move}").format(move=_move_words(state)) if moved else ""
    return captioned(
        "Geyser",
        caption,
        seats=tuple(seats),
        lead=lead,
        banner=banner,
        turn=(
            None
            if turn is None or banner is not None
            else Turn(seat_token(turn, 9), _("{name} to move").format(name=caption.name(turn)))
        ),
        notes=(Line(choice, colour=HIGHLIGHT, bold=True, max_lines=3), Line(last, colour=TEXT)),
        blocks=_dice_blocks(state, caption),
        key=(KeyEntry(_("geysers held"), _geyser_icon()),),
    )


def _move_words(state: GeyserState) -> str:
    """The last move as `f5-f6`, with what became of it: tied, retreated, lost the battle."""
    assert state.last_move is not None
    src, dst = state.last_move
    held = state.board[dst]
    step = f"{SQUARE_NAMES[src]}-{SQUARE_NAMES[dst]}"
    if held is not None and held[0] == state.last_seat:
        return step
    if state.pending is not None and state.pending[0] == "tie":
        return _("{step} (tied)").format(step=step)
    if not state.last_battle:
        return _("{step} (retreated)").format(step=step)
    return _("{step} (lost the battle)").format(step=step)


def _dice_blocks(state: GeyserState, caption: Caption) -> tuple[Strip | Line, ...]:
    """The last battle's dice (each rimmed in its side's colour) and the last firing phase's, each with a
    line of words; both slots are there while nothing was rolled, so the picture keeps its size."""
    battle: tuple[tuple[int, Colour], ...] = ()
    battle_words = ""
    if len(state.last_battle) == 6:
        attacker, a_die, a_bonus, defender, d_die, d_bonus = state.last_battle
        a_total, d_total = a_die + a_bonus, d_die + d_bonus
        battle = ((a_die, seat_colour(attacker)), (d_die, seat_colour(defender)))
        sides = {
            "attacker": caption.name(attacker),
            "attack": f"{a_die}+{a_bonus}",
            "defender": caption.name(defender),
            "defence": f"{d_die}+{d_bonus}",
        }
        if a_total == d_total:
            battle_words = _("Battle: {attacker} {attack} v {defender} {defence}: tie!").format(**sides)
        else:
            winner = caption.name(attacker if a_total > d_total else defender)
            battle_words = _("Battle: {attacker} {attack} v {defender} {defence}: {winner} wins").format(
                winner=winner, **sides
            )
    fire: tuple[tuple[int, Colour], ...] = ()
    fire_words = ""
    if state.last_fire is not None:
        one, two = state.last_fire
        fire = ((one, FIRE_RIM), (two, FIRE_RIM))
        dice = {"one": one, "two": two, "total": one + two}
        if one + two == 7 and state.seven != "mother":
            fire_words = _("Fire {one}+{two} = {total}: calm").format(**dice)
        else:
            fire_words = _("Fire {one}+{two} = {total}: {fired}").format(fired=fired_label(state), **dice)
    return (
        Strip(DIE + 2, partial(_paint_dice, battle)),
        Line(battle_words, colour=TEXT, max_lines=2),
        Strip(DIE + 2, partial(_paint_dice, fire)),
        Line(fire_words, colour=HIGHLIGHT, max_lines=2),
    )


def _paint_dice(dice: tuple[tuple[int, Colour], ...], image: Image.Image, box: tuple[int, int, int, int]) -> None:
    for k, (value, rim) in enumerate(dice):
        paste(image, die_face(value, rim), (box[0] + DIE // 2 + 1 + k * (DIE + 6), (box[1] + box[3]) // 2))


def _choice_text(state: GeyserState, seat: int) -> str:
    """What the player to move has to do, in a line or two."""
    if state.phase == "start" and state.start_squares == TWO_PLAYER_STARTS:
        return _("Start on f1 or f11 (dotted); the other player starts opposite.")
    if state.phase == "start":
        return _("Put a token on a free start (S, dotted).")
    if state.pending is not None and state.pending[0] == "place":
        return _("Place a token around {square} (dotted) or skip.").format(square=SQUARE_NAMES[state.pending[1]])
    if state.pending is not None and state.pending[0] == "tie":
        _kind, src, dst = state.pending
        return _("Tie on {square}: roll again, or retreat to {back}.").format(
            square=SQUARE_NAMES[dst], back=SQUARE_NAMES[src]
        )
    if GEYSER.legal_moves(state) == ["pass"]:  # boxed in, or no start free to re-enter on
        return _("No move is possible: pass.")
    if not state.tokens_of(seat):
        return _("No token on the island: re-enter on a free start (dotted).")
    if state.controls(seat) >= 3:
        return _("Move a token one square. The Mother ({square}) is open to you.").format(square=SQUARE_NAMES[MOTHER])
    return _("Move a token one square. Mother ({square}) needs 3 geysers.").format(square=SQUARE_NAMES[MOTHER])


__all__ = [
    "HEIGHT",
    "PANEL_LEFT",
    "WIDTH",
    "badge_box",
    "die_face",
    "draw",
    "fired_label",
    "fired_squares",
    "label_of",
    "labels",
    "seat_colour",
    "square_box",
    "square_centre",
    "tag_box",
    "tints",
    "token_box",
    "token_centre",
]
