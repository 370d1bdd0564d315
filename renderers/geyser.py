"""Draws a Geyser board: the island on the left, players, the round and clocks on the right.

The 11x11 grid is water (blue) and land (sage, with a sandy coast); rows run 1-11 from the TOP, as in
data/geyser_map.txt. A normal geyser is a pale crater with its ring ("6/8" ... "2/12") on a dark tag; the
Mother Geyser is a bigger, hot crater tagged "M·7". A controlled geyser's rim takes its controller's colour.
Starting squares have a cream inset outline and an "S" (only f1 and f11 in a two-player game: a6 and k6 are
plain land then). The panel shows the round as "Round 17 of 100" (gold in the last round). Tokens are discs
in their seat colour with a white count badge when several share a square. The last move is an arrow in the
mover's colour; the last battle's dice (attacker on top, each die rimmed in its side's colour, with its
+geysers bonus and total) sit in the top-left water corner, the last firing phase's two dice in the
top-right one (dark cards over the water), and the geysers they fired boil: a red square and a gold pool (a
red and gold star for the Mother). Squares a pending choice may use (a new token, a start) get dotted rings.
Sprites depend on few inputs, so they are painted once and pasted.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.games.geyser import (
    AROUND,
    FIRES,
    GEYSERS,
    LAND,
    MOTHER,
    RING_NAMES,
    RING_OF,
    SIZE,
    SQUARE_NAMES,
    TWO_PLAYER_STARTS,
    GeyserState,
)
from renderers.draw import (
    ALERT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_BOX,
    SEAT_COLOURS,
    TEXT,
    WHITE,
    Caption,
    Colour,
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
        return "Mother fires" if state.seven == "mother" else "7: calm"
    return f"{RING_NAMES[FIRES[total]]} fires"


def _circle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, s: int, fill: Colour) -> None:
    draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=fill)


@cache
def _tag(label: str) -> Image.Image:
    """A geyser's ring on a dark pill with a thin light edge, readable on any square and over any token."""
    face = font(11, True)
    width = round(face.getlength(label)) + 8
    tag = Image.new("RGBA", (width, 14), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tag)
    draw.rounded_rectangle((0, 0, width - 1, 13), radius=6, fill=TAG, outline=(150, 160, 170), width=1)
    text(draw, (width / 2, 7), label, 11, WHITE, bold=True, anchor="mm")
    return tag


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
    return disc(TOKEN_R, seat_colour(seat), ring=WHITE, ring_width=2.5)


@cache
def _count_badge(count: int) -> Image.Image:
    """How many tokens share a square: a white disc with the number."""
    badge = disc(9, WHITE, ring=None).copy()
    size = 13 if count < 10 else 11
    text(ImageDraw.Draw(badge), (badge.width / 2, badge.height / 2 + 0.5), str(count), size, INK, bold=True,
         anchor="mm")  # fmt: skip
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


@cache
def _arrow(dx: int, dy: int, colour: Colour) -> Image.Image:
    """The last move's arrow for a step of (dx, dy) squares: centre to centre, cut short at both ends.

    The mover's colour with a white rim and a dark edge, so it shows over the mover's own token too.
    """
    angle = -math.degrees(math.atan2(dy, dx))
    length = math.hypot(dx, dy) * SQUARE * 0.8
    rim = arrow_layer(length, angle, WHITE, shaft=8, head_width=22, head_length=16, outline_width=3.5)
    body = arrow_layer(length, angle, colour, shaft=8, head_width=22, head_length=16, outline=WHITE,
                       outline_width=1.5)  # fmt: skip
    rim.alpha_composite(body, ((rim.width - body.width) // 2, (rim.height - body.height) // 2))
    return rim


def _is_coast(square: int, dx: int, dy: int) -> bool:
    row, col = divmod(square, SIZE)
    r, c = row + dy, col + dx
    return not (0 <= r < SIZE and 0 <= c < SIZE) or (r * SIZE + c) not in LAND


@cache
def _background(starts: tuple[int, ...]) -> Image.Image:
    """Water, land, coast, the game's starting squares, unclaimed geysers, coordinates and the panel: what
    never changes in a game."""
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
        draw.rectangle((left + 4, top + 4, left + 15, top + 17), fill=INK)
        text(draw, (left + 10, top + 11), "S", 11, START_MARK, bold=True, anchor="mm")
    for square in GEYSERS:
        paste(image, _crater(False, None), square_centre(square))
    paste(image, _crater(True, None), square_centre(MOTHER))
    for k in range(SIZE):
        cx, _ = square_centre(k)
        text(draw, (cx, BOARD_TOP + BOARD_SIDE + 15), "abcdefghijk"[k], 18, COORD, bold=True, anchor="mm")
        _, cy = square_centre(k * SIZE)
        text(draw, (BOARD_LEFT // 2 - 1, cy), str(k + 1), 17, COORD, bold=True, anchor="mm")
    return image


def _paste_tag(image: Image.Image, square: int) -> None:
    cx, cy = square_centre(square)
    tag = _tag("M·7" if square == MOTHER else RING_NAMES[RING_OF[square]])
    drop = 19 if square == MOTHER else 16
    image.paste(tag, (cx - tag.width // 2, cy + drop - tag.height // 2), tag)


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
        paste(image, _choice_ring(seat_colour(seat)), square_centre(square))


def _draw_last_move(image: Image.Image, state: GeyserState) -> None:
    if state.last_move is None or state.last_seat is None:
        return
    src, dst = state.last_move
    (sr, sc), (dr, dc) = divmod(src, SIZE), divmod(dst, SIZE)
    (sx, sy), (ex, ey) = square_centre(src), square_centre(dst)
    layer = _arrow(dc - sc, dr - sr, seat_colour(state.last_seat))
    paste(image, layer, (round((sx + ex) / 2), round((sy + ey) / 2)))


def _outlined(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int, fill: Colour) -> None:
    text(draw, xy, words, size, fill, bold=True, anchor="lm", outline=INK, outline_width=2)


def _card(draw: ImageDraw.ImageDraw, *, left: bool) -> None:
    """A dark L-shaped card over a top water corner (three squares of row 1, two of row 2) for dice."""
    edge = BOARD_LEFT if left else BOARD_LEFT + BOARD_SIDE
    sign = 1 if left else -1
    for squares, rows in ((3, 1), (2, 2)):
        near, far = edge + sign * 2, edge + sign * (squares * SQUARE - 3)
        box = (min(near, far), BOARD_TOP + 2, max(near, far), BOARD_TOP + rows * SQUARE - 3)
        draw.rounded_rectangle(box, radius=7, fill=CARD)


def _draw_battle(image: Image.Image, draw: ImageDraw.ImageDraw, battle: tuple[int, ...]) -> None:
    """The last battle roll in the top-left water: attacker's die over the defender's, bonus and total."""
    attacker, a_die, a_bonus, defender, d_die, d_bonus = battle
    a_total, d_total = a_die + a_bonus, d_die + d_bonus
    _card(draw, left=True)
    x, y = BOARD_LEFT + 2, BOARD_TOP + SQUARE // 2
    text_x = x + DIE + 5
    room = BOARD_LEFT + 2 * SQUARE - 2 - text_x  # the second row has two water squares
    rows = ((attacker, a_die, a_bonus, a_total), (defender, d_die, d_bonus, d_total))
    sums = [f"+{bonus} = {total}" for _, _, bonus, total in rows]
    widest = max(sums, key=lambda words: font(15, True).getlength(words))
    size = 15 if font(15, True).getlength(widest) <= room else 13
    if font(size, True).getlength(widest) > room:
        sums = [words.replace(" ", "") for words in sums]
    for k, (seat, value, _, total) in enumerate(rows):
        cy = y + k * SQUARE
        paste(image, die_face(value, seat_colour(seat)), (x + DIE // 2 + 1, cy))
        won = total > (d_total if k == 0 else a_total)
        _outlined(draw, (text_x, cy), sums[k], size, HIGHLIGHT if won else WHITE)
    label = "tie!" if a_total == d_total else "battle"
    _outlined(draw, (BOARD_LEFT + 3 * SQUARE - 4 - font(12, True).getlength(label), y - 12), label, 12,
              HIGHLIGHT if a_total == d_total else WHITE)  # fmt: skip


def _draw_fire(image: Image.Image, draw: ImageDraw.ImageDraw, state: GeyserState) -> None:
    """The last firing phase in the top-right water: its two dice, their sum, and what fired."""
    assert state.last_fire is not None
    _card(draw, left=False)
    one, two = state.last_fire
    right = BOARD_LEFT + BOARD_SIDE - 4
    cy = BOARD_TOP + SQUARE // 2
    total = f"= {one + two}"
    total_w = font(16, True).getlength(total)
    x = right - total_w
    _outlined(draw, (x, cy), total, 16, WHITE)
    for k, value in enumerate((two, one)):
        paste(image, die_face(value, FIRE_RIM), (round(x - 6 - DIE // 2 - k * (DIE + 4)), cy))
    _outlined(draw, (right - 3 * SQUARE + 8, cy - 12), "fire", 12, WHITE)
    label = fired_label(state)
    size = 14 if font(14, True).getlength(label) <= 2 * SQUARE - 6 else 12
    _outlined(draw, (right - font(size, True).getlength(label), cy + SQUARE - 6), label, size, HIGHLIGHT)


def draw(state: GeyserState, viewer: int | None, caption: Caption) -> Image.Image:
    """The whole picture of a (viewed) state: island, eruptions, geysers, tokens, last move, dice, panel."""
    image = _background(state.start_squares).copy()
    board = ImageDraw.Draw(image)
    for square in fired_squares(state):
        paste(image, _burst(square == MOTHER), square_centre(square))
        paste(image, _crater(square == MOTHER, None, fired=True), square_centre(square))
    for square in [*sorted(GEYSERS), MOTHER]:
        held = state.board[square]
        if held is not None:
            paste(image, _crater(square == MOTHER, seat_colour(held[0])), square_centre(square))
    _draw_choices(image, state)
    for square, held in enumerate(state.board):
        if held is not None:
            paste(image, _token(held[0]), square_centre(square))
    _draw_last_move(image, state)
    for square in [*sorted(GEYSERS), MOTHER]:  # ring tags over tokens and arrows: always readable
        _paste_tag(image, square)
    for square, held in enumerate(state.board):
        if held is not None and held[1] > 1:
            cx, cy = square_centre(square)
            paste(image, _count_badge(held[1]), (cx + 13, cy - 13))
    if len(state.last_battle) == 6:
        _draw_battle(image, board, state.last_battle)
    if state.last_fire is not None:
        _draw_fire(image, board, state)
    _draw_panel(board, image, state, viewer, caption)
    return image


@cache
def _geyser_icon() -> Image.Image:
    """A small crater for the panel: 'geysers controlled'."""
    return _crater(False, None).resize((18, 18), Image.Resampling.LANCZOS)


def _draw_panel(
    draw: ImageDraw.ImageDraw, image: Image.Image, state: GeyserState, viewer: int | None, caption: Caption
) -> None:
    """Title (and PAUSED), header, one box per player, then the round, the status and the last move."""
    left, right = PANEL_LEFT + 8, WIDTH - 10
    width = right - left
    text(draw, (left, 10), "Geyser", 26, TEXT, bold=True)
    if caption.paused:
        paused_badge(draw, right)
    y = 48
    y = header_lines(draw, caption.header, left, width, y)
    seats = state.seats
    clocks = caption.clocks
    compact = seats > 2
    row = 24 if compact else 28
    info_row = 18 if compact else 22
    clock_row = 21 if clocks else 0
    box_height = row + info_row + clock_row + 6
    gap = 6 if compact else 10
    live = caption.result is None and state.phase != "over"
    turn = state.turn if live else None
    name_size = 16 if compact else 17
    for seat in range(seats):
        colour = seat_colour(seat)
        out = seat in state.out
        rounded_box(draw, (left, y, right, y + box_height), PANEL_BOX, border=colour if seat == turn else None)
        mid = y + 4 + row // 2
        paste(image, disc(9, colour), (left + 15, mid))
        held = state.controls(seat)
        count = str(held)
        count_size = 19 if compact else 21
        count_w = font(count_size, True).getlength(count)
        paste(image, _geyser_icon(), (round(right - 10 - count_w - 13), mid))
        text(draw, (right - 8, mid), count, count_size, HIGHLIGHT if held >= 3 else TEXT, bold=True, anchor="rm")
        tags = (" (you)" if seat == viewer else "") + (" ▶" if seat == turn else "")
        room = width - 40 - count_w - 26 - font(name_size, True).getlength(tags)
        if out:
            out_w = font(12, True).getlength("out")
            room -= out_w + 8
            text(draw, (right - count_w - 34, mid), "out", 12, ALERT, bold=True, anchor="rm")
        name = fit(caption.name(seat), name_size, room, bold=True)
        text(draw, (left + 30, mid), name + tags, name_size, MUTED if out else TEXT, bold=True, anchor="lm")
        info_mid = y + 4 + row + info_row // 2 - 2
        on_board = state.on_board(seat)
        info = f"{on_board} on the island · {state.supply[seat]} in supply"
        text(draw, (left + 12, info_mid), fit(info, 12, width - 20), 12, MUTED, anchor="lm")
        clock = clocks[seat] if clocks and seat < len(clocks) else None
        if clock is not None:
            line = clock.words
            top = y + 4 + row + info_row
            clock_pill(draw, clock, fit(line, 12, width - 24), (left + 6, top - 1, right - 6, top + 18), 12)
        y += box_height + gap
    y = _draw_status(draw, image, state, caption, left, right, y + 2)
    key = HEIGHT - 16
    if y + 8 <= key - 9:  # a key to the panel's numbers, if there is room
        paste(image, _geyser_icon(), (left + 9, key))
        text(draw, (left + 22, key), fit("= geysers held; 3 open Mother", 11, width - 22), 11, MUTED, anchor="lm")


def _choice_text(state: GeyserState, seat: int) -> str:
    """What the player to move has to do, in a line or two."""
    if state.phase == "start" and state.start_squares == TWO_PLAYER_STARTS:
        return "Start on f1 or f11 (dotted); the other player starts opposite."
    if state.phase == "start":
        return "Put a token on a free starting square (S, dotted)."
    if state.pending is not None and state.pending[0] == "place":
        return f"Place your new token around {SQUARE_NAMES[state.pending[1]]} (dotted) or skip."
    if state.pending is not None and state.pending[0] == "tie":
        _, src, dst = state.pending
        return f"Tie on {SQUARE_NAMES[dst]}: roll again, or retreat to {SQUARE_NAMES[src]}."
    if not state.tokens_of(seat):
        return "No token on the island: re-enter on a free starting square (dotted)."
    if state.controls(seat) >= 3:
        return f"Move a token one square. The Mother ({SQUARE_NAMES[MOTHER]}) is open to you."
    return f"Move a token one square. Mother ({SQUARE_NAMES[MOTHER]}) needs 3 geysers."


def _draw_status(
    draw: ImageDraw.ImageDraw,
    image: Image.Image,
    state: GeyserState,
    caption: Caption,
    left: int,
    right: int,
    y: int,
) -> int:
    """The round and the next fire roller; the result, or whose turn it is and what to do; the last move."""
    width = right - left
    if state.phase == "play":
        head = f"Round {state.round} of {state.rounds}"
        last = state.round >= state.rounds
        text(draw, (left, y), head, 15, HIGHLIGHT if last else TEXT, bold=True)
        head_w = font(15, True).getlength(head + " ")
        tail = "· last round" if last else f"· next fire roll: {caption.name(state.roller)}"
        if head_w + font(12).getlength(tail) > width:  # a long name: on a line of its own
            y += 19
            head_w, tail = 0, tail[2:]
        text(draw, (left + head_w, y + 2), fit(tail, 12, width - head_w), 12, MUTED)
        y += 22
    elif state.phase == "start":
        text(draw, (left, y), f"Setup · {state.rounds} rounds", 15, TEXT, bold=True)
        y += 22
    lines: list[str] = []
    if caption.result is not None:
        lines = wrap(caption.result, 15, width - 20, bold=True, max_lines=3)
    elif state.phase == "over":
        names = [caption.name(s) for s in state.winners]
        if len(names) > 1:  # a shared win: every name short enough that "share the win" still shows
            names = [fit(name, 15, (width - 20) / 2 - 10, bold=True) for name in names]
        if not names:
            headline = "Game over"
        elif len(names) == 1:
            headline = f"{names[0]} wins"
        else:
            headline = f"{', '.join(names[:-1])} and {names[-1]} share the win"
        lines = wrap(headline, 15, width - 20, bold=True, max_lines=3)
    y = result_box(draw, lines, left, right, y)
    if lines:
        if caption.result is None and state.end:
            for line in wrap(f"({state.end})", 12, width, max_lines=2):
                text(draw, (left, y), line, 12, MUTED)
                y += 15
            y += 4
    elif state.turn is not None:
        paste(image, disc(8, seat_colour(state.turn)), (left + 9, y + 10))
        status = fit(f"{caption.name(state.turn)} to move", 15, width - 26, bold=True)
        text(draw, (left + 24, y + 10), status, 15, TEXT, bold=True, anchor="lm")
        y += 24
        pending = state.pending is not None or state.phase == "start"
        for line in wrap(_choice_text(state, state.turn), 12, width, bold=pending, max_lines=2):
            text(draw, (left, y), line, 12, HIGHLIGHT if pending else MUTED, bold=pending)
            y += 15
        y += 4
    if state.last_move is not None and state.last_seat is not None and y + 15 <= HEIGHT:
        src, dst = state.last_move
        who = fit(caption.name(state.last_seat), 12, width / 2)
        held = state.board[dst]
        if held is not None and held[0] == state.last_seat:
            how = ""
        elif state.pending is not None and state.pending[0] == "tie":
            how = " (tied)"
        elif not state.last_battle:
            how = " (retreated)"
        else:
            how = " (lost the battle)"
        move = f"{SQUARE_NAMES[src]}-{SQUARE_NAMES[dst]}{how}"
        for line in wrap(f"Last: {who} {move}", 12, width, max_lines=2):
            if y + 15 > HEIGHT:
                break
            text(draw, (left, y), line, 12, MUTED)
            y += 15
    return y


__all__ = [
    "HEIGHT",
    "PANEL_LEFT",
    "WIDTH",
    "die_face",
    "draw",
    "fired_label",
    "fired_squares",
    "seat_colour",
    "square_box",
    "square_centre",
]
