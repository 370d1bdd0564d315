"""The side panel every game shares: title, header, one card per seat, the status, notes and a key.

A game says what to show (a `Panel` of facts: names, scores, lines of text, a strip of its own sprites);
`lay_out` measures every text and places it in the panel's column, wrapping it and shrinking it down to a
floor so that every word shows, never cut; `paint` draws exactly what was laid out. When the panel needs
more room than the board, the picture grows taller rather than losing text. Tests read the layout: every
text's drawn extent lies inside its box, and its lines join back to the whole text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

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
    SeatClock,
    length,
    metrics,
    paste,
    rounded_box,
    seat_token,
    text,
    text_extent,
)

PAD = 10  # the panel's inner margin, and a card's
GAP = 8  # between blocks
MIN_SIZE = 11  # no text is shrunk below this (px): still readable on a phone
LEADING = 1.25  # line step as a share of the font size
BEARING = 1  # px kept free at each end of a line, for glyphs that ink past their advance
TEXT_LIMIT = 300
"""A panel text longer than this many characters is cut, with an ellipsis: no real one comes near (names are
at most 64), and it bounds what a runaway header costs to measure and how tall it can make the picture."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A text shown in full: wrapped, then shrunk down to `MIN_SIZE` if it would take over `max_lines`."""

    words: str
    size: int = 12
    colour: Colour = MUTED
    bold: bool = False
    max_lines: int = 2


@dataclass(frozen=True, slots=True)
class Strip:
    """A row of a game's own sprites in a seat card (tokens to place, captured pieces, rings):
    `paint(image, box)` draws inside `box` and nowhere else."""

    height: int
    paint: Callable[[Image.Image, Box], None]


@dataclass(frozen=True, slots=True)
class SeatCard:
    """One seat: its token, name, score, what it holds and its clock."""

    token: Image.Image  # the seat's token sprite (colour and shape), about 24 px
    name: str
    border: Colour  # the card's border while this seat is to move
    to_move: bool = False
    you: bool = False
    score: str | None = None
    score_colour: Colour = TEXT
    score_icon: Image.Image | None = None  # drawn left of the score (Geyser's crater: "geysers held")
    tag: str | None = None  # "out", "resigned": shown in alarm colours, and the name is muted
    info: tuple[Line, ...] = ()
    strip: Strip | None = None
    clock: SeatClock | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn it is: their token and the words ("alice to place a token")."""

    token: Image.Image
    words: str


@dataclass(frozen=True, slots=True)
class KeyEntry:
    """One line of the key at the panel's foot: a sprite (or a swatch painter) and what it means."""

    words: str
    sprite: Image.Image | None = None


@dataclass(frozen=True, slots=True)
class Panel:
    """Everything a game's panel shows, in order; empty parts take no room."""

    title: str
    subtitle: str | None = None
    header: str | None = None
    paused: bool = False
    seats: tuple[SeatCard, ...] = ()
    lead: tuple[Line, ...] = ()  # before the status: a round, a phase, the piles
    banner: str | None = None  # how the game ended (gold box); a finished game has no `turn`
    banner_note: str | None = None  # the ending's reason, under the banner
    turn: Turn | None = None
    notes: tuple[Line, ...] = ()  # after the status: what to do, the last move
    blocks: tuple[Strip | Line, ...] = ()  # pictures (and their words) after the notes: Geyser's dice
    key: tuple[KeyEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class PlacedText:
    """A text as laid out: the box it may ink, its lines, and how each line is drawn."""

    box: Box
    words: str
    lines: tuple[str, ...]
    size: int
    bold: bool
    colour: Colour
    origins: tuple[tuple[float, float], ...]  # each line's top left ("la" anchor)

    def extent(self) -> tuple[float, float, float, float]:
        """The box the drawn lines actually ink."""
        boxes = [
            text_extent(xy, line, self.size, bold=self.bold) for xy, line in zip(self.origins, self.lines, strict=True)
        ]
        boxes = [b for b in boxes if b[2] > b[0]] or [(self.box[0], self.box[1], self.box[0], self.box[1])]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@dataclass(slots=True)
class Layout:
    """What `paint` draws: rounded boxes, texts, sprites and strips, and the panel's needed height."""

    left: int
    right: int
    height: int = 0
    boxes: list[tuple[Box, Colour, Colour | None]] = field(default_factory=list)
    texts: list[PlacedText] = field(default_factory=list)
    sprites: list[tuple[Image.Image, tuple[int, int]]] = field(default_factory=list)
    strips: list[tuple[Strip, Box]] = field(default_factory=list)


def seat_card(caption: Caption, seat: int, viewer: int | None, turn: int | None, **facts: Any) -> SeatCard:
    """A seat's card with what every game shows alike (its token and colour, its name, whether it is to move
    or is the viewer, its clock); `facts` give the rest (score, info, strip...) or replace any of those."""
    clocks = caption.clocks
    common: dict[str, Any] = {
        "token": seat_token(seat, 11),
        "name": caption.name(seat),
        "border": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "to_move": seat == turn,
        "you": seat == viewer,
        "clock": clocks[seat] if clocks and seat < len(clocks) else None,
    }
    return SeatCard(**(common | facts))


def captioned(title: str, caption: Caption, **facts: Any) -> Panel:
    """A game's panel: its title, the caption's header and pause, and the game's `facts`."""
    return Panel(title=title, header=caption.header, paused=caption.paused, **facts)


def step(size: int) -> int:
    """The line step for a font size."""
    return round(size * LEADING)


def break_lines(words: str, size: int, width: float, bold: bool) -> list[str]:
    """Greedy word wrap; a word wider than a line is broken between characters, its start filling what is
    left of the line before it. Nothing is dropped."""
    lines: list[str] = []
    for word in filter(None, capped(words).split(" ")):  # not split(): a no-break space holds
        if lines and length(candidate := f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = candidate
            continue
        if length(word, size, bold) > width:
            if lines and (cut := _longest_start(word, size, bold, width, f"{lines[-1]} ")) >= 3:
                lines[-1] = f"{lines[-1]} {word[:cut]}"
                word = word[cut:]
            while len(word) > 1 and length(word, size, bold) > width:
                cut = max(1, _longest_start(word, size, bold, width))
                lines.append(word[:cut])
                word = word[cut:]
        lines.append(word)
    return lines


def capped(words: str) -> str:
    """`words`, cut to TEXT_LIMIT characters with an ellipsis if longer."""
    return words if len(words) <= TEXT_LIMIT else words[:TEXT_LIMIT] + "…"


def _longest_start(word: str, size: int, bold: bool, width: float, before: str = "") -> int:
    """How many characters of `word` fit in `width` after `before` (0 if none): a binary search, since
    a text's width never shrinks as it grows."""
    low, high = 0, len(word) + 1  # low fits, high does not
    while high - low > 1:
        middle = (low + high) // 2
        if length(before + word[:middle], size, bold) <= width:
            low = middle
        else:
            high = middle
    return low


def fit_lines(
    words: str, size: int, width: float, *, bold: bool = False, max_lines: int = 2, shrink: int = 0
) -> tuple[int, list[str]]:
    """The largest size from `size` down to MIN_SIZE at which `words` wraps into `max_lines` lines, and
    those lines; at MIN_SIZE it takes as many lines as it needs. Fewer lines never need a larger size, so
    the size is found by bisection: three or four wraps, not one per size. With `shrink`, a text that a
    size up to `shrink` px smaller keeps on one line is shrunk rather than wrapped (a name: "alice ▶")."""
    for smaller in range(size, max(MIN_SIZE, size - shrink) - 1, -1) if shrink else ():
        if length(words, smaller, bold) <= width:
            return smaller, [words]
    lines = break_lines(words, size, width, bold)
    if len(lines) <= max_lines or size <= MIN_SIZE:
        return size, lines
    best = (MIN_SIZE, break_lines(words, MIN_SIZE, width, bold))
    low, high = MIN_SIZE, size  # low fits (or is the floor), high does not
    if len(best[1]) > max_lines:
        return best
    while high - low > 1:
        middle = (low + high) // 2
        attempt = break_lines(words, middle, width, bold)
        if len(attempt) <= max_lines:
            low, best = middle, (middle, attempt)
        else:
            high = middle
    return best


class _Flow:
    """Places blocks top to bottom in a column, recording them in a Layout."""

    def __init__(self, layout: Layout, top: int) -> None:
        self.layout, self.y = layout, top

    def text(
        self, words: str, left: float, right: float, y: float, size: int, *, bold: bool = False,
        colour: Colour = TEXT, max_lines: int = 2, shrink: int = 0,
    ) -> float:  # fmt: skip
        """Lays `words` out in [left, right] from `y`; returns the y below it. Lines start BEARING px in and
        measure that much less on each side, since a glyph may ink a pixel beyond its advance."""
        words = capped(words)
        width = right - left - 2 * BEARING
        size, lines = fit_lines(words, size, width, bold=bold, max_lines=max_lines, shrink=shrink)
        ascent, descent = metrics(words, size, bold)  # a fallback font (CJK) may need more room than DejaVu
        line_step = max(step(size), ascent + descent + 1)
        origins = tuple((left + BEARING, y + k * line_step) for k in range(len(lines)))
        bottom = y + max(1, len(lines)) * line_step
        box = (int(left), int(y), int(right + 0.999), int(bottom + 0.999))
        self.layout.texts.append(PlacedText(box, words, tuple(lines), size, bold, colour, origins))
        return bottom


def lay_out(panel: Panel, left: int, right: int, top: int = 10) -> Layout:
    """Places everything in the column [left, right] from `top`; `layout.height` is where it ends."""
    layout = Layout(left, right)
    flow = _Flow(layout, top)
    inner_left, inner_right = left + PAD, right - PAD
    y: float = top
    title_size = 26 if length(panel.title, 26, True) <= inner_right - inner_left else 22
    y = flow.text(panel.title, inner_left, inner_right, y, title_size, bold=True, max_lines=2)
    if panel.subtitle:
        y = flow.text(panel.subtitle, inner_left, inner_right, y, 11, colour=MUTED)
    y += 4
    if panel.paused:
        layout.boxes.append(((inner_left, int(y), inner_right, int(y) + 30), ALERT, None))
        flow.text("PAUSED", inner_left + 10, inner_right - 10, y + 6, 17, bold=True, colour=WHITE, max_lines=1)
        y += 30 + GAP
    if panel.header:
        y = flow.text(panel.header, inner_left, inner_right, y, 13, colour=MUTED, max_lines=3) + GAP
    compact = len(panel.seats) > 3
    for card in panel.seats:
        y = _seat_card(layout, flow, card, inner_left, inner_right, int(y), compact) + (6 if compact else GAP)
    for line in panel.lead:
        y = flow.text(line.words, inner_left, inner_right, y, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines)  # fmt: skip
    if panel.lead:
        y += 4
    if panel.banner:
        start = int(y)
        bottom = flow.text(panel.banner, inner_left + 10, inner_right - 10, y + 8, 16, bold=True, colour=INK,
                           max_lines=4)  # fmt: skip
        layout.boxes.insert(0, ((inner_left, start, inner_right, int(bottom) + 8), HIGHLIGHT, None))
        y = bottom + 8 + 6
        if panel.banner_note:
            y = flow.text(panel.banner_note, inner_left, inner_right, y, 12, colour=MUTED, max_lines=3) + 4
    elif panel.turn is not None:
        layout.sprites.append((panel.turn.token, (inner_left + 10, int(y) + 10)))
        y = flow.text(panel.turn.words, inner_left + 26, inner_right, y + 1, 15, bold=True, max_lines=3) + 6
    for line in panel.notes:
        y = flow.text(line.words, inner_left, inner_right, y, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines)  # fmt: skip
    for block in panel.blocks:
        if isinstance(block, Line):
            y = flow.text(block.words, inner_left, inner_right, y, block.size, bold=block.bold, colour=block.colour,
                          max_lines=block.max_lines)  # fmt: skip
            continue
        y += GAP
        layout.strips.append((block, (inner_left, int(y), inner_right, int(y) + block.height)))
        y += block.height + 2
    if panel.key:
        y += GAP
        for entry in panel.key:
            if entry.sprite is not None:
                layout.sprites.append((entry.sprite, (inner_left + 8, int(y) + 8)))
            y = flow.text(entry.words, inner_left + 22, inner_right, y, 11, colour=MUTED, max_lines=2) + 2
    layout.height = int(y) + PAD
    return layout


def _seat_card(layout: Layout, flow: _Flow, card: SeatCard, left: int, right: int, top: int, compact: bool) -> int:
    """A seat's rounded card: token, name (and you, ▶), tag, score; info lines; strip; clock pill."""
    box_index = len(layout.boxes)
    layout.boxes.append(((left, top, right, top), PANEL_BOX, None))  # sized below, once its content is known
    name_size = 15 if compact else 17
    score_size = 18 if compact else 22
    right_edge = right - 8
    y_mid = top + 6 + step(name_size) / 2
    head_bottom = top + 6.0  # the lowest of the first row's texts: what follows starts below all of them
    if card.score is not None:
        score_w = length(card.score, score_size, True)
        head_bottom = flow.text(card.score, right_edge - score_w, right_edge + 1, y_mid - step(score_size) / 2,
                                score_size, bold=True, colour=card.score_colour, max_lines=1)  # fmt: skip
        right_edge -= int(score_w) + 4
        if card.score_icon is not None:
            layout.sprites.append((card.score_icon, (right_edge - card.score_icon.width // 2, int(y_mid))))
            right_edge -= card.score_icon.width + 4
    if card.tag:
        tag_w = length(card.tag, 12, True)
        flow.text(card.tag, right_edge - tag_w, right_edge + 1, y_mid - step(12) / 2, 12, bold=True, colour=ALERT,
                  max_lines=1)  # fmt: skip
        right_edge -= int(tag_w) + 6
    layout.sprites.append((card.token, (left + 16, int(y_mid))))
    name = card.name + ("\u00a0(you)" if card.you else "") + ("\u00a0▶" if card.to_move else "")
    y = flow.text(name, left + 32, right_edge, top + 6, name_size, bold=True,
                  colour=MUTED if card.tag else TEXT, max_lines=2, shrink=4)  # fmt: skip
    y = max(y, head_bottom)  # a one-line name is shorter than the score beside it
    for line in card.info:
        y = flow.text(line.words, left + 12, right - 8, y + 1, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines)  # fmt: skip
    if card.strip is not None:
        layout.strips.append((card.strip, (left + 10, int(y) + 2, right - 8, int(y) + 2 + card.strip.height)))
        y += card.strip.height + 4
    if card.clock is not None:
        y = _clock_pill(layout, flow, card.clock, left + 6, right - 6, int(y) + 2)
    bottom = int(y) + 6
    layout.boxes[box_index] = ((left, top, right, bottom), PANEL_BOX, card.border if card.to_move else None)
    return bottom


def _clock_pill(layout: Layout, flow: _Flow, clock: SeatClock, left: int, right: int, top: int) -> float:
    """The clock line: muted, or a bright pill while it runs (red once the reserve runs low)."""
    ink = MUTED
    index = len(layout.boxes)
    if clock.running:
        ink = WHITE if clock.low else INK
    bottom = flow.text(clock.words, left + 8, right - 6, top + 3, 13, bold=clock.running, colour=ink, max_lines=1)
    if clock.running:
        layout.boxes.insert(index, ((left, top, right, int(bottom) + 3), ALERT if clock.low else HIGHLIGHT, None))
    return bottom + 3


def fitted(
    words: str, box: Box, size: int, *, bold: bool = False, colour: Colour = TEXT, align: str = "left"
) -> PlacedText:
    """`words` laid out in a fixed box off the panel (a name row on a board): the largest size, down to
    MIN_SIZE, whose lines fit the box's width and height, centred on it; `align` "right" ends each line
    at the box's right. Too long even at MIN_SIZE, it takes the lines it needs (never cut)."""
    left, top, right, bottom = box
    width, words = right - left - 2 * BEARING, capped(words)
    for candidate in range(size, min(size, MIN_SIZE) - 1, -1):
        ascent, descent = metrics(words, candidate, bold)
        line_step = max(step(candidate), ascent + descent + 1)
        lines = break_lines(words, candidate, width, bold)
        if len(lines) * line_step <= bottom - top:
            break
    y = (top + bottom - line_step * len(lines)) / 2 + (line_step - ascent - descent) / 2
    origins = []
    for k, line in enumerate(lines):
        x = right - BEARING - length(line, candidate, bold) if align == "right" else left + BEARING
        origins.append((x, y + k * line_step))
    return PlacedText(box, words, tuple(lines), candidate, bold, colour, tuple(origins))


def paint_text(draw: ImageDraw.ImageDraw, placed: PlacedText) -> None:
    """Draws a laid-out text, line by line."""
    for origin, line in zip(placed.origins, placed.lines, strict=True):
        text(draw, origin, line, placed.size, placed.colour, bold=placed.bold, anchor="la")


def draw_panel(image: Image.Image, panel: Panel, left: int) -> Image.Image:
    """Lays the panel out in the column from `left` to the image's right edge and paints it; returns the
    image, made taller (the board's column filled with its bottom-left colour) if the panel needs it."""
    layout = lay_out(panel, left, image.width)
    if layout.height > image.height:
        taller = Image.new(image.mode, (image.width, layout.height), image.getpixel((0, image.height - 1)))
        taller.paste(image, (0, 0))
        image = taller
    paint(image, layout)
    return image


def paint(image: Image.Image, layout: Layout) -> None:
    """Draws a laid-out panel: its column, boxes, sprites, strips, then every text."""
    draw = ImageDraw.Draw(image)
    draw.rectangle((layout.left, 0, image.width, image.height), fill=PANEL)
    for box, fill, border in layout.boxes:
        rounded_box(draw, box, fill, border=border)
    for sprite, centre in layout.sprites:
        paste(image, sprite, centre)
    for strip, box in layout.strips:
        strip.paint(image, box)
    for placed in layout.texts:
        paint_text(draw, placed)


def notes(*items: tuple[str, Colour] | str | None, size: int = 12, max_lines: int = 3) -> tuple[Line, ...]:
    """Muted note lines from strings (or (text, colour) pairs); empty ones are left out."""
    out = []
    for item in items:
        if not item:
            continue
        words, colour = (item, MUTED) if isinstance(item, str) else item
        out.append(Line(words, size, colour, max_lines=max_lines))
    return tuple(out)


__all__ = [
    "KeyEntry",
    "Layout",
    "Line",
    "Panel",
    "PlacedText",
    "SeatCard",
    "Strip",
    "Turn",
    "break_lines",
    "captioned",
    "draw_panel",
    "fit_lines",
    "fitted",
    "lay_out",
    "notes",
    "paint",
    "paint_text",
    "seat_card",
]
