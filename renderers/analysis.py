"""The after-the-game graph: each seat's chance of winning, move by move, with the largest swings marked.

Drawn from a `bot.analysis.Analysis` alone (numbers and public words, nothing of any game state), in the
boards' palette: one line per seat in its colour, carrying the seat's shape (`draw.seat_token`) along it
and named in the legend, so colour is never the only cue. Move numbers run along the bottom, 0-100% up
the side; each swing is a shaded band over the moves it covers with its number (1 the largest) on top,
as the message numbers them. Drawn at twice the size and reduced, so lines are smooth; deterministic, like
every picture here (the same analysis gives the same bytes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from bot.analysis import Analysis, Point, Report, message, percent
from bot.games.phrases import say
from bot.i18n import N_, _, ngettext, pgettext
from renderers.draw import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    Caption,
    Colour,
    and_list,
    colour_name,
    fit,
    length,
    seat_token,
    text,
)
from renderers.panel import break_lines
from renderers.png import to_png

WIDTH, HEIGHT = 800, 582
"""Like a board (800 wide), so it reads at the same scale beside one on a phone."""
SCALE = 2
"""Drawn at this many times the size, then reduced: smooth lines without per-shape supersampling."""
LEFT, TOP, RIGHT, BOTTOM = 80, 108, WIDTH - 24, HEIGHT - 78
"""The plot's box (px): 0-100% labels to its left (and "move" under them, clear of the edge), the title
and two lines of result above, move numbers and the legend below (a legend of several rows makes the
picture taller, never the plot smaller)."""
SUBTITLE_LINES = 2
MULTIPLES = 4
"""From this many seats on, the plot is small multiples: a panel per seat with its own line in its colour
over the others' in grey, so six lines never tangle."""
CELL_GAP = 14
LEGEND_ROW = 34
TITLE_SIZE, LABEL_SIZE, LEGEND_SIZE, BADGE_SIZE = 26, 19, 21, 19
MARKS = 10
"""Shapes drawn along each seat's line at most (evenly spread, the last point always)."""
GRID: Colour = (52, 80, 110)
Scale = Callable[[float], float]
LINES = (
    N_("{colour} line with dots"),
    N_("{colour} line with squares"),
    N_("{colour} line with triangles"),
    N_("{colour} line with diamonds"),
    N_("{colour} line with crosses"),
    N_("{colour} line with stars"),
)
"""Each seat's line in words, by its shape (`draw.SEAT_SHAPES`): say one with `_` and its colour."""


def report(analysis: Analysis) -> Report:
    """The analysis ready to post: its words (`bot.analysis.message`), the PNG and its alt text."""
    return Report(analysis, message(analysis), png(analysis), describe(analysis))


def png(analysis: Analysis, header: str | None = None) -> bytes:
    """The graph as PNG bytes."""
    return to_png(draw(analysis, header))


def draw(analysis: Analysis, header: str | None = None) -> Image.Image:
    seats = len(analysis.names)
    caption = Caption(names=analysis.names)
    names = [caption.name(seat) for seat in range(seats)]
    legend_rows = _legend_rows(analysis, names)
    height = HEIGHT + max(0, len(legend_rows) - 1) * LEGEND_ROW
    s = SCALE
    image = Image.new("RGB", (WIDTH * s, height * s), PANEL)
    pen = ImageDraw.Draw(image)

    def x_of(ply: float) -> float:
        return where(analysis, ply, 0)[0] * s

    def y_of(chance: float) -> float:
        return where(analysis, 0, chance)[1] * s

    # title and result
    if header:
        title = header
    elif analysis.match_id is not None:
        title = _("Match #{number} · {game} · chances to win").format(number=analysis.match_id, game=analysis.title)
    else:
        title = _("{game} · chances to win").format(game=analysis.title)
    text(pen, (18 * s, 14 * s), fit(title, TITLE_SIZE * s, (WIDTH - 36) * s, bold=True), TITLE_SIZE * s, bold=True)
    for k, line in enumerate(subtitle(analysis, names)):
        text(pen, (18 * s, (48 + k * 26) * s), line, LABEL_SIZE * s, MUTED)

    if seats >= MULTIPLES:
        _multiples(image, pen, analysis)
    else:
        _one_plot(image, pen, analysis, x_of, y_of)
    move = fit(pgettext("axis", "move"), LABEL_SIZE, LEFT - 18)
    text(pen, ((LEFT - 14) * s, (BOTTOM + 9) * s), move, LABEL_SIZE * s, MUTED, anchor="ra")

    # the legend: each seat's token, name and share of the result
    y = BOTTOM + 58
    for row in legend_rows:
        x = 18.0
        for seat, label in row:
            token = seat_token(seat, 11 * s, ring_width=2 * s)
            image.paste(token, (round((x + 11) * s - token.width / 2), round(y * s - token.height / 2)), token)
            text(pen, ((x + 28) * s, y * s), label, LEGEND_SIZE * s, TEXT, anchor="lm")
            x += 28 + length(label, LEGEND_SIZE) + 26
        y += LEGEND_ROW
    return image.reduce(s)


def subtitle(analysis: Analysis, names: Sequence[str]) -> list[str]:
    """The result in at most SUBTITLE_LINES lines, never cut: with the winners' names if they fit, else
    how many shared it (the legend names each seat and says who won), else without the reason."""
    count = len(analysis.winners)
    wordings = [_result(analysis, names)]
    if count > 1:
        wordings += [
            _("{count} players shared the win ({reason})").format(count=count, reason=say(analysis.reason)),
            _("{count} players shared the win").format(count=count),
        ]
    elif count:
        wordings.append(_("{name} won").format(name=names[min(analysis.winners)]))
    else:
        wordings.append(_("A draw"))
    for words in wordings:
        lines = break_lines(words, LABEL_SIZE, WIDTH - 36, False)
        if len(lines) <= SUBTITLE_LINES:
            return lines
    return break_lines(wordings[-1], LABEL_SIZE, WIDTH - 36, False)[:SUBTITLE_LINES]


def _one_plot(image: Image.Image, pen: ImageDraw.ImageDraw, analysis: Analysis, x_of: Scale, y_of: Scale) -> None:
    """Every seat's line in one plot (up to three seats), its shapes along it, the swings' numbers."""
    s = SCALE
    seats = len(analysis.names)
    left, top, right, bottom = LEFT, TOP, RIGHT, BOTTOM
    # the plot: background, swing bands, grid and axes
    pen.rectangle((left * s, top * s, right * s, bottom * s), fill=INK)
    for swing in analysis.swings:
        x0, x1 = x_of(swing.start), x_of(swing.end)
        if x1 - x0 < 10 * s:  # a band of a move or two is widened so it shows
            middle = (x0 + x1) / 2
            x0, x1 = middle - 5 * s, middle + 5 * s
        pen.rectangle((x0, top * s, x1, bottom * s), fill=_mix(INK, HIGHLIGHT, 0.22))
    for tenth in (0, 25, 50, 75, 100):
        y = y_of(tenth / 100)
        pen.line((left * s, y, right * s, y), fill=MUTED if tenth == 50 else GRID, width=s if tenth % 50 else 2 * s)
        text(pen, ((left - 8) * s, y), f"{tenth}%", LABEL_SIZE * s, TEXT, anchor="rm")
    for ply in _ticks(analysis.moves):
        x = x_of(ply)
        pen.line((x, bottom * s, x, (bottom + 6) * s), fill=MUTED, width=2 * s)
        text(pen, (x, (bottom + 9) * s), str(ply), LABEL_SIZE * s, TEXT, anchor="ma")

    # one line per seat, outlined so crossing lines stay apart, then its shapes along it
    paths = [[(x_of(p.ply), y_of(p.chances[seat])) for p in analysis.points] for seat in range(seats)]
    for seat in range(seats):
        if len(paths[seat]) > 1:
            pen.line(paths[seat], fill=INK, width=9 * s, joint="curve")
            pen.line(paths[seat], fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], width=5 * s, joint="curve")
    if analysis.off_board is not None:
        _dashed_drop(pen, analysis, x_of, y_of)
    for seat in range(seats):
        token = seat_token(seat, 9 * s, ring_width=2 * s)
        for point in _marked(analysis, seat):
            cx, cy = x_of(point.ply), y_of(point.chances[seat])
            image.paste(token, (round(cx - token.width / 2), round(cy - token.height / 2)), token)
        end = _end_chance(analysis, seat)
        cx, cy = x_of(analysis.moves), y_of(end)
        image.paste(token, (round(cx - token.width / 2), round(cy - token.height / 2)), token)

    # the swings' numbers over their bands, and a ring where each lands on its seat's line
    placed: list[tuple[float, float]] = []
    for swing in analysis.swings:
        cx = (x_of(swing.start) + x_of(swing.end)) / 2
        cy = _badge_height(analysis, swing.start, swing.end, cx, placed, y_of)
        placed.append((cx, cy))
        ex, ey = x_of(swing.end), y_of(swing.after)
        ring = 13 * s
        pen.ellipse((ex - ring, ey - ring, ex + ring, ey + ring), outline=HIGHLIGHT, width=3 * s)
        radius = 15 * s
        pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=HIGHLIGHT, outline=INK, width=2 * s)
        text(pen, (cx, cy), str(swing.number), BADGE_SIZE * s, INK, bold=True, anchor="mm")


def _multiples(image: Image.Image, pen: ImageDraw.ImageDraw, analysis: Analysis) -> None:
    """A panel per seat (3 across, 2 for four seats): its line thick in its colour with its shape at the
    end, the others thin in grey under it, the swings' bands, and a swing's number in its seat's panel."""
    s = SCALE
    seats = len(analysis.names)
    pen.rectangle((LEFT * s, TOP * s, RIGHT * s, BOTTOM * s), fill=PANEL)
    for seat in range(seats):
        box = cell_box(seats, seat)
        x_of, y_of = _cell_scale(analysis, box)
        pen.rectangle(tuple(v * s for v in box), fill=INK)
        for swing in analysis.swings:
            x0, x1 = x_of(swing.start), x_of(swing.end)
            if x1 - x0 < 6 * s:
                x0, x1 = (x0 + x1) / 2 - 3 * s, (x0 + x1) / 2 + 3 * s
            pen.rectangle((x0, box[1] * s, x1, box[3] * s), fill=_mix(INK, HIGHLIGHT, 0.22))
        for tenth in (0, 50, 100):
            y = y_of(tenth / 100)
            pen.line((box[0] * s, y, box[2] * s, y), fill=MUTED if tenth == 50 else GRID, width=s)
            ends = (tenth == 100 and box[1] == TOP) or (tenth == 0 and box[3] == BOTTOM) or tenth == 50
            if box[0] == LEFT and ends:  # the first column says the scale (no two labels meet between rows)
                text(pen, ((LEFT - 8) * s, y), f"{tenth}%", LABEL_SIZE * s, TEXT, anchor="rm")
        if box[3] == BOTTOM:  # the bottom row says the moves: 0 once, the last under every panel
            for ply in (0, analysis.moves) if box[0] == LEFT else (analysis.moves,):
                x = x_of(ply)
                pen.line((x, BOTTOM * s, x, (BOTTOM + 6) * s), fill=MUTED, width=2 * s)
                text(pen, (x, (BOTTOM + 9) * s), str(ply), LABEL_SIZE * s, TEXT, anchor="ma")
        paths = [[(x_of(p.ply), y_of(p.chances[other])) for p in analysis.points] for other in range(seats)]
        for other in range(seats):
            if other != seat and len(paths[other]) > 1:
                pen.line(paths[other], fill=GRID, width=2 * s, joint="curve")
        if len(paths[seat]) > 1:
            pen.line(paths[seat], fill=INK, width=8 * s, joint="curve")
            pen.line(paths[seat], fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], width=4 * s, joint="curve")
        token = seat_token(seat, 9 * s, ring_width=2 * s)
        for cx, cy in ((box[0] + 14, box[1] + 14), (None, None)):
            if cx is None:
                cx, cy = x_of(analysis.moves) / s, y_of(_end_chance(analysis, seat)) / s
            image.paste(token, (round(cx * s - token.width / 2), round(cy * s - token.height / 2)), token)
        taken = [((box[0] + 14) * s, (box[1] + 14) * s)]  # the seat's token, then each number placed
        for swing in analysis.swings:
            if swing.seat == seat:
                cx = (x_of(swing.start) + x_of(swing.end)) / 2
                cy = next(
                    y
                    for y in [(box[1] + 14 + 30 * k) * s for k in range(12)]
                    if _clear_of(taken, cx, y) or y >= (box[3] - 14) * s
                )
                taken.append((cx, cy))
                radius = 13 * s
                pen.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=HIGHLIGHT, outline=INK,
                            width=2 * s)  # fmt: skip
                text(pen, (cx, cy), str(swing.number), (BADGE_SIZE - 2) * s, INK, bold=True, anchor="mm")


def _clear_of(taken: list[tuple[float, float]], x: float, y: float) -> bool:
    """Whether a swing's number at (x, y) keeps clear of the token and numbers already in its panel."""
    return all(abs(x - tx) >= 28 * SCALE or abs(y - ty) >= 28 * SCALE for tx, ty in taken)


def cell_box(seats: int, seat: int) -> tuple[int, int, int, int]:
    """The panel of `seat` among `seats` small multiples, inside the plot's box."""
    columns = 2 if seats == 4 else 3
    rows = -(-seats // columns)
    row, column = divmod(seat, columns)
    width = (RIGHT - LEFT - (columns - 1) * CELL_GAP) / columns
    height = (BOTTOM - TOP - (rows - 1) * CELL_GAP) / rows
    left, top = LEFT + column * (width + CELL_GAP), TOP + row * (height + CELL_GAP)
    return round(left), round(top), round(left + width), round(top + height)


def _cell_scale(analysis: Analysis, box: tuple[int, int, int, int]) -> tuple[Scale, Scale]:
    s = SCALE

    def x_of(ply: float) -> float:
        return (box[0] + (box[2] - box[0]) * ply / max(1, analysis.moves)) * s

    def y_of(chance: float) -> float:
        return (box[3] - (box[3] - box[1]) * chance) * s

    return x_of, y_of


def where(analysis: Analysis, ply: float, chance: float) -> tuple[float, float]:
    """Where the graph puts `chance` after move `ply` (px in the picture)."""
    return LEFT + (RIGHT - LEFT) * ply / max(1, analysis.moves), BOTTOM - (BOTTOM - TOP) * chance


def describe(analysis: Analysis, limit: int = 1024) -> str:
    """The picture's alt text: who is which line, the result and the swings, within `limit` characters."""
    caption = Caption(names=analysis.names)
    names = [caption.name(seat) for seat in range(len(analysis.names))]
    seats = [
        f"{names[seat]} ({_(LINES[seat % len(LINES)]).format(colour=colour_name(seat))})" for seat in range(len(names))
    ]
    parts = [
        ngettext(
            "Graph of each player's chance to win, move by move, over {count} move: {seats}.",
            "Graph of each player's chance to win, move by move, over {count} moves: {seats}.",
            analysis.moves,
        ).format(count=analysis.moves, seats=and_list(seats)),
        _result(analysis, names) + ".",
    ]
    for swing in analysis.swings:
        said = {
            "number": swing.number,
            "name": names[swing.seat],
            "before": percent(swing.before),
            "after": percent(swing.after),
        }
        if swing.end - swing.start == 1:
            words = _("Swing {number}, move {move}: {name} {before} to {after}.").format(move=swing.end, **said)
        else:
            words = _("Swing {number}, moves {first} to {last}: {name} {before} to {after}.").format(
                first=swing.start + 1, last=swing.end, **said
            )
        parts.append(words)
    words = " ".join(parts)
    if len(words.encode("utf-16-le")) // 2 <= limit:
        return words
    while words and len((words + "…").encode("utf-16-le")) // 2 > limit:
        words = words[: max(0, min(len(words) - 1, limit - 1))]
    return words.rstrip() + "…"


# --- helpers ---


def _result(analysis: Analysis, names: Sequence[str]) -> str:
    if not analysis.winners:
        return _("A draw ({reason})").format(reason=say(analysis.reason))
    won = and_list([names[s] for s in sorted(analysis.winners)])
    if len(analysis.winners) == 1:
        return _("{name} won ({reason})").format(name=won, reason=say(analysis.reason))
    return _("{names} shared the win ({reason})").format(names=won, reason=say(analysis.reason))


def _end_chance(analysis: Analysis, seat: int) -> float:
    return analysis.result[seat] if analysis.off_board is not None else analysis.points[-1].chances[seat]


def _badge_height(
    analysis: Analysis, start: int, end: int, cx: float, placed: list[tuple[float, float]], y_of: Scale
) -> float:
    """Where a swing's number goes over its band: the height farthest from every line at the band's two
    ends and from the numbers already placed beside it (the top first among equals)."""
    s = SCALE
    ends = [p for p in analysis.points if p.ply in (start, end)]
    lines = [y_of(chance) for point in ends for chance in point.chances]
    if end == analysis.moves and analysis.off_board is not None:
        lines += [y_of(chance) for chance in analysis.result]
    others = [py for px, py in placed if abs(cx - px) < 30 * s]
    candidates = [(TOP + 18 + 32 * k) * s for k in range(int((BOTTOM - TOP - 36) / 32) + 1)]

    def room(y: float) -> float:
        badge = min((abs(y - other) for other in others), default=1e9)
        return min(min((abs(y - line) for line in lines), default=1e9), badge * 2)

    return max(candidates, key=lambda y: (min(room(y), 60 * s), -y))


def _dashed_drop(pen: ImageDraw.ImageDraw, analysis: Analysis, x_of: Scale, y_of: Scale) -> None:
    """An end off the board (resignation, time, adjudication): a dashed drop from each seat's last
    evaluated chance to its share of the result, at the last move."""
    s = SCALE
    x = x_of(analysis.moves)
    for seat in range(len(analysis.names)):
        start, end = y_of(analysis.points[-1].chances[seat]), y_of(analysis.result[seat])
        if abs(end - start) < 1:
            continue
        direction = 1 if end > start else -1
        y = start
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        offset = (seat - (len(analysis.names) - 1) / 2) * 6 * s  # side by side, not on top of each other
        while (end - y) * direction > 0:
            stop = y + direction * min(10 * s, abs(end - y))
            pen.line((x + offset, y, x + offset, stop), fill=colour, width=4 * s)
            y = stop + direction * 7 * s


def _marked(analysis: Analysis, seat: int) -> list[Point]:
    """The points that carry the seat's shape: up to MARKS spread along the line, shifted a little per seat
    so two lines that mirror each other do not hide each other's shapes."""
    points = analysis.points[:-1] if analysis.off_board is None else analysis.points
    if not points:
        return []
    count = min(MARKS, len(points))
    step = len(points) / count
    shift = (seat % 3) * step / 3
    return [points[min(len(points) - 1, int(i * step + shift))] for i in range(count)]


def _ticks(moves: int) -> list[int]:
    """Move numbers along the bottom: round steps, at most about eight labels, 0 and the last move too."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000):
        if moves / step <= 8:
            break
    ticks = list(range(0, moves + 1, step))
    if ticks[-1] != moves:
        if moves - ticks[-1] < step / 2:
            ticks.pop()
        ticks.append(moves)
    return ticks


def _legend_rows(analysis: Analysis, names: Sequence[str]) -> list[list[tuple[int, str]]]:
    """The legend's items, `name (share)`, in rows that fit the width."""
    rows: list[list[tuple[int, str]]] = [[]]
    width = 18.0
    for seat, name in enumerate(names):
        if not analysis.winners:
            said = _("{name} · draw")
        elif seat in analysis.winners:
            said = _("{name} · won") if len(analysis.winners) == 1 else _("{name} · shared the win")
        else:
            said = _("{name} · lost")
        label = fit(said.format(name=name), LEGEND_SIZE, WIDTH - 36 - 28)
        needed = 28 + length(label, LEGEND_SIZE) + 26
        if rows[-1] and width + needed > WIDTH - 18:
            rows.append([])
            width = 18.0
        rows[-1].append((seat, label))
        width += needed
    return rows


def _mix(a: Colour, b: Colour, share: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )
