"""The side panel every game shares: title, header, one card per seat, the status, notes and a key.

A game says what to show (a `Panel` of facts: names, scores, lines of text, a strip of its own sprites);
`lay_out` places every text in a slot of its own in the panel's column, and `paint` draws exactly what was
laid out. Made for phones first: no text is smaller than `MIN_SIZE` (9 px once a phone shows the 800 px
picture 450 px wide), and every slot takes the same room whatever it holds, so a match's pictures all have
one size (the seats, the header and the clock decide it, never the position). A text too long for its slot
at `MIN_SIZE` is cut with "…"; the post's words and the alt text say it in full. Tests read the layout:
every text's drawn extent lies inside its box, and its lines join back to the text (or a start of it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.clock import format_short
from bot.i18n import _
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
    marked_lines,
    metrics,
    paste,
    rounded_box,
    seat_token,
    text,
    text_extent,
)

PICTURE_WIDTH = 800  # every game's board picture
PHONE_WIDTH = 450  # about how wide a phone shows an attachment
PHONE_SIZE = 9  # the smallest type (px) still read there without zooming
MIN_SIZE = math.ceil(PHONE_SIZE * PICTURE_WIDTH / PHONE_WIDTH)  # 16: no panel text is smaller
PAD = 10  # the panel's inner margin, and a card's
GAP = 8  # between blocks
STATUS_SIZE = 17  # whose turn, or the result
STATUS_LINES = 2
LEADING = 1.25  # line step as a share of the font size
BEARING = 1  # px kept free at each end of a line, for glyphs that ink past their advance
TEXT_LIMIT = 300
"""A panel text longer than this many characters is cut, with an ellipsis: no real one comes near (names are
at most 64), and it bounds what a runaway header costs to measure."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A text in a slot of `max_lines` lines: that much room whatever it says (an empty one draws nothing),
    wrapped, shrunk down to `MIN_SIZE` and then cut with "…" if it would need more."""

    words: str
    size: int = MIN_SIZE
    colour: Colour = MUTED
    bold: bool = False
    max_lines: int = 1


@dataclass(frozen=True, slots=True)
class Strip:
    """A row of a game's own sprites in a seat card (tokens to place, captured pieces, rings):
    `paint(image, box)` draws inside `box` and nowhere else."""

    height: int
    paint: Callable[[Image.Image, Box], None]


@dataclass(frozen=True, slots=True)
class SeatCard:
    """One seat: its token, name, score, what it holds and its clock; a winner's card is framed in gold."""

    token: Image.Image  # the seat's token sprite (colour and shape), about 24 px
    name: str
    border: Colour  # the card's border while this seat is to move
    to_move: bool = False
    you: bool = False
    won: bool = False
    paused: bool = False  # the match is paused: a running clock is drawn stopped
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
    """One line of the key at the panel's foot: a sprite and what it means."""

    words: str
    sprite: Image.Image | None = None


@dataclass(frozen=True, slots=True)
class Panel:
    """Everything a game's panel shows, in order. Which parts there are must not change during a match
    (a game gives every slot, empty or not), so that its pictures keep one size."""

    title: str
    header: str | None = None
    paused: bool = False
    seats: tuple[SeatCard, ...] = ()
    lead: tuple[Line, ...] = ()  # before the status: a round, a phase, the piles
    banner: str | None = None  # how the game ended (gold box); a finished game has no `turn`
    turn: Turn | None = None
    notes: tuple[Line, ...] = ()  # after the status: the last move
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
    or is the viewer, its clock); `facts` give the rest (score, info, strip, won...) or replace any of those."""
    clocks = caption.clocks
    common: dict[str, Any] = {
        "token": seat_token(seat, 11),
        "name": caption.name(seat),
        "border": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "to_move": seat == turn,
        "you": seat == viewer,
        "paused": caption.paused,
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
    those lines; at MIN_SIZE it takes as many lines as it needs (`cut_lines` then cuts them). Fewer lines
    never need a larger size, so the size is found by bisection: three or four wraps, not one per size.
    With `shrink`, a text that a size up to `shrink` px smaller keeps on one line is shrunk rather than
    wrapped (a name: "alice ▶")."""
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


def cut_lines(lines: list[str], size: int, width: float, bold: bool, max_lines: int) -> list[str]:
    """`lines` if they are at most `max_lines`, else the first ones and a last one ending in "…" (one: a
    name already cut short where the line ends gives its own, not "……")."""
    if len(lines) <= max_lines:
        return lines
    rest = " ".join(lines[max_lines - 1 :])
    cut = _longest_start(rest, size, bold, width - length("…", size, bold))
    return [*lines[: max_lines - 1], rest[:cut].rstrip().removesuffix("…") + "…"]


class _Flow:
    """Places texts in slots, recording them in a Layout."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def text(
        self, words: str, left: float, right: float, y: float, size: int, *, bold: bool = False,
        colour: Colour = TEXT, max_lines: int = 1, shrink: int = 0, like: str = "",
    ) -> float:  # fmt: skip
        """Lays `words` out in [left, right] from `y` in a slot of `max_lines` lines; returns the y below the
        slot. The slot's line step fits `like` too (the names its words may hold), so it does not depend on
        which of them it shows. Lines start BEARING px in and measure that much less on each side, since a
        glyph may ink a pixel beyond its advance."""
        words, nominal = capped(words), size
        width = right - left - 2 * BEARING
        size, lines = fit_lines(words, size, width, bold=bold, max_lines=max_lines, shrink=shrink)
        lines = cut_lines(lines, size, width, bold, max_lines)
        ascent, descent = metrics(f"{words} {like}", nominal, bold)  # a fallback font (CJK) may need more room
        line_step = max(step(nominal), ascent + descent + 1)  # the slot's, whatever size its words shrank to
        origins = tuple(
            (left + BEARING + _overhang(line, size, bold), y + k * line_step) for k, line in enumerate(lines)
        )
        bottom = y + max_lines * line_step
        box = (int(left), int(y), int(right + 0.999), int(bottom + 0.999))
        if words:
            self.layout.texts.append(PlacedText(box, words, tuple(lines), size, bold, colour, origins))
        return bottom


def _overhang(line: str, size: int, bold: bool) -> int:
    """How far past BEARING the line's first glyph inks left of where it starts (a hooked ƒ does): the line
    starts that much further in, so it never inks outside its box."""
    return _glyph_overhang(line[:1], size, bold) if line and not line[0].isascii() else 0


@functools.lru_cache(maxsize=1024)
def _glyph_overhang(char: str, size: int, bold: bool) -> int:
    return max(0, math.ceil(-text_extent((0, 0), char, size, bold=bold)[0]) - BEARING)


def lay_out(panel: Panel, left: int, right: int, top: int = 10) -> Layout:
    """Places everything in the column [left, right] from `top`; `layout.height` is where it ends."""
    layout = Layout(left, right)
    flow = _Flow(layout)
    inner_left, inner_right = left + PAD, right - PAD
    names = " ".join(card.name for card in panel.seats)  # what the status and the notes may name
    title_size = 26 if length(panel.title, 26, True) <= inner_right - inner_left else 22
    y = flow.text(panel.title, inner_left, inner_right, top, title_size, bold=True) + 4
    if panel.header:
        header = shortened(panel.header, [card.name for card in panel.seats], MIN_SIZE,
                           inner_right - inner_left - 2 * BEARING, 2, bold=False)  # fmt: skip
        y = flow.text(header, inner_left, inner_right, y, MIN_SIZE, colour=MUTED, max_lines=2, like=names)
        y += GAP
    compact = len(panel.seats) > 3
    for card in panel.seats:
        y = _seat_card(layout, flow, card, inner_left, inner_right, int(y), compact) + (6 if compact else GAP)
    for line in panel.lead:
        y = flow.text(line.words, inner_left, inner_right, y, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines, like=names)  # fmt: skip
    if panel.lead:
        y += 4
    y = _status(layout, flow, panel, inner_left, inner_right, y, names)
    for line in panel.notes:
        y = flow.text(line.words, inner_left, inner_right, y, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines, like=names)  # fmt: skip
    for block in panel.blocks:
        if isinstance(block, Line):
            y = flow.text(block.words, inner_left, inner_right, y, block.size, bold=block.bold, colour=block.colour,
                          max_lines=block.max_lines, like=names)  # fmt: skip
            continue
        y += GAP
        layout.strips.append((block, (inner_left, int(y), inner_right, int(y) + block.height)))
        y += block.height + 2
    if panel.key:
        y += GAP
        for entry in panel.key:
            if entry.sprite is not None:
                layout.sprites.append((entry.sprite, (inner_left + 9, int(y) + step(MIN_SIZE) // 2)))
            width = inner_right - inner_left - 22 - 2 * BEARING
            lines = 1 if length(entry.words, MIN_SIZE) <= width else 2  # a longer word in another language wraps
            y = flow.text(entry.words, inner_left + 22, inner_right, y, MIN_SIZE, colour=MUTED, max_lines=lines) + 2
    layout.height = int(y) + PAD
    return layout


def _status(layout: Layout, flow: _Flow, panel: Panel, left: int, right: int, y: float, names: str) -> float:
    """The status slot, the same room for any of: the result (a gold box), the pause (a red one: nothing
    moves), whose turn (their token and the words); nothing once the game is over without a banner."""
    start = int(y)
    if panel.banner:
        words, fill, ink, x = panel.banner, HIGHLIGHT, INK, left + 10
    elif panel.paused and panel.turn is not None:
        words, fill, ink, x = _("Paused · {turn}").format(turn=panel.turn.words), ALERT, WHITE, left + 10
    elif panel.turn is not None:
        words, fill, ink, x = panel.turn.words, None, TEXT, left + 26
        layout.sprites.append((panel.turn.token, (left + 10, start + 8 + step(STATUS_SIZE) // 2)))
    else:
        words, fill, ink, x = "", None, TEXT, left + 10
    words = shortened(words, [card.name for card in panel.seats], STATUS_SIZE, right - 10 - x - 2 * BEARING)
    bottom = flow.text(words, x, right - 10, start + 8, STATUS_SIZE, bold=True, colour=ink, max_lines=STATUS_LINES,
                       like=names)  # fmt: skip
    if fill is not None:
        layout.boxes.insert(0, ((left, start, right, int(bottom) + 8), fill, None))
    return bottom + 8 + GAP


SHORTEST_NAME = 8  # a name cut to fit a line keeps at least this many characters


def shortened(
    words: str, names: list[str], size: int, width: float, max_lines: int = STATUS_LINES, bold: bool = True
) -> str:
    """`words` if they fit `max_lines` lines at `size`, else with the names in them cut short with "…", the
    longest first, just enough that they do: "Wilhelmina Feathersto… to move" keeps what the line says."""

    def fits(candidate: str) -> bool:
        return len(break_lines(candidate, size, width, bold)) <= max_lines

    if fits(words):
        return words
    for name in sorted({n for n in names if len(n) > SHORTEST_NAME and n in words}, key=len, reverse=True):
        low, high = SHORTEST_NAME, len(name)  # high does not fit; low is as short as a name goes
        while high - low > 1:
            middle = (low + high) // 2
            if fits(words.replace(name, name[:middle].rstrip() + "…")):
                low = middle
            else:
                high = middle
        words = words.replace(name, name[:low].rstrip() + "…")
        if fits(words):
            return words
    return words


def _seat_card(layout: Layout, flow: _Flow, card: SeatCard, left: int, right: int, top: int, compact: bool) -> int:
    """A seat's rounded card: its token and name (and you, ▶) across the card; below, its strip on the left
    and its tag and score on the right; then info lines and the clock pill. Its height depends only on what
    kinds of things it holds, never on the words."""
    box_index = len(layout.boxes)
    layout.boxes.append(((left, top, right, top), PANEL_BOX, None))  # sized below, once its content is known
    name_size = MIN_SIZE if compact else 17
    score_size = 20 if compact else 24
    layout.sprites.append((card.token, (left + 16, top + 6 + step(name_size) // 2)))
    name = _("{name}\u00a0(you)").format(name=card.name) if card.you else card.name
    name += "\u00a0▶" if card.to_move else ""
    y = flow.text(name, left + 32, right - 8, top + 6, name_size, bold=True,
                  colour=MUTED if card.tag else TEXT, max_lines=2, shrink=1)  # fmt: skip
    beside = card.info[0] if card.strip is None and card.info else None  # the first info line, beside the score
    row = max(
        card.strip.height if card.strip is not None else 0,
        step(score_size) if card.score is not None else 0,
        beside.max_lines * step(beside.size) if beside is not None and beside.max_lines > 1 else 0,
    )
    right_edge = right - 8
    if card.score is not None:
        score_w = length(card.score, score_size, True)
        flow.text(card.score, right_edge - score_w - 2, right_edge + 1, y + (row - step(score_size)) / 2, score_size,
                  bold=True, colour=card.score_colour)  # fmt: skip
        right_edge -= int(score_w) + 6
        if card.score_icon is not None:
            layout.sprites.append((card.score_icon, (right_edge - card.score_icon.width // 2, int(y + row / 2))))
            right_edge -= card.score_icon.width + 4
    tag = _("★ wins") if card.won and not card.tag else card.tag
    if tag:
        tag_w = length(tag, MIN_SIZE, True)
        flow.text(tag, right_edge - tag_w - 2, right_edge + 1, y + (row - step(MIN_SIZE)) / 2, MIN_SIZE, bold=True,
                  colour=HIGHLIGHT if card.won else ALERT)  # fmt: skip
        right_edge -= int(tag_w) + 6
    info = card.info
    if card.strip is not None:
        strip_top = int(y + (row - card.strip.height) / 2)
        layout.strips.append((card.strip, (left + 10, strip_top, right_edge, strip_top + card.strip.height)))
    elif info:  # no strip: the first info line takes its place, beside the score
        first, info = info[0], info[1:]
        flow.text(first.words, left + 12, right_edge, y + (row - first.max_lines * step(first.size)) / 2, first.size,
                  bold=first.bold, colour=first.colour, max_lines=first.max_lines)  # fmt: skip
    y += row + 2
    for line in info:
        y = flow.text(line.words, left + 12, right - 8, y, line.size, bold=line.bold, colour=line.colour,
                      max_lines=line.max_lines)  # fmt: skip
    if card.clock is not None:
        y = _clock_pill(layout, flow, card.clock, card.paused, left + 6, right - 6, int(y) + 2)
    bottom = int(y) + 6
    border = HIGHLIGHT if card.won else card.border if card.to_move else None
    layout.boxes[box_index] = ((left, top, right, bottom), PANEL_BOX, border)
    return bottom


def clock_words(clock: SeatClock, paused: bool) -> str:
    """The clock in a card: `move 0:30 + 1:00` (the move allowance left, then the reserve), `❚❚ ...` (stopped)
    while a moderator holds the match."""
    move, reserve = format_short(clock.move_seconds), format_short(clock.reserve_seconds)
    if paused and clock.running:
        return f"❚❚ {move} + {reserve}"
    return _("move {move} + {reserve}").format(move=move, reserve=reserve)


def _clock_pill(layout: Layout, flow: _Flow, clock: SeatClock, paused: bool, left: int, right: int, top: int) -> float:
    """The clock line: muted, or a bright pill while it runs (red once the reserve runs low); while the
    match is paused the running clock is a hollow grey pill saying so."""
    ink, fill, border = MUTED, None, None
    if clock.running and paused:
        border = MUTED
    elif clock.running:
        ink, fill = (WHITE, ALERT) if clock.low else (INK, HIGHLIGHT)
    index = len(layout.boxes)
    bottom = flow.text(clock_words(clock, paused), left + 8, right - 6, top + 2, MIN_SIZE, colour=ink)
    if fill is not None or border is not None:
        layout.boxes.insert(index, ((left, top, right, int(bottom) + 2), fill or PANEL_BOX, border))
    return bottom + 2


def fitted(
    words: str, box: Box, size: int, *, bold: bool = False, colour: Colour = TEXT, align: str = "left"
) -> PlacedText:
    """`words` laid out in a fixed box off the panel (a name row on a board): the largest size, down to
    MIN_SIZE, whose lines fit the box's width and height, centred on it; `align` "right" ends each line
    at the box's right. Too long even at MIN_SIZE, it is cut with "…" to the lines the box holds."""
    left, top, right, bottom = box
    width, words = right - left - 2 * BEARING, capped(words)
    for candidate in range(max(size, MIN_SIZE), MIN_SIZE - 1, -1):
        ascent, descent = metrics(words, candidate, bold)
        line_step = max(step(candidate), ascent + descent + 1)
        lines = break_lines(words, candidate, width, bold)
        if len(lines) * line_step <= bottom - top:
            break
    lines = cut_lines(lines, candidate, width, bold, max(1, (bottom - top) // line_step))
    y = (top + bottom - line_step * len(lines)) / 2 + (line_step - ascent - descent) / 2
    origins = []
    for k, line in enumerate(lines):
        x = right - BEARING - length(line, candidate, bold) if align == "right" else left + BEARING
        origins.append((x, y + k * line_step))
    return PlacedText(box, words, tuple(lines), candidate, bold, colour, tuple(origins))


def paint_text(draw: ImageDraw.ImageDraw, placed: PlacedText) -> None:
    """Draws a laid-out text, line by line."""
    for origin, line in zip(placed.origins, marked_lines(placed.lines), strict=True):
        text(draw, origin, line, placed.size, placed.colour, bold=placed.bold, anchor="la")


def draw_panel(image: Image.Image, panel: Panel, left: int, layout: Layout | None = None) -> Image.Image:
    """Lays the panel out in the column from `left` to the image's right edge (or takes the `layout` made for
    it by `canvas`) and paints it; returns the image, made taller (the board's column filled with its
    bottom-left colour) if the panel needs it."""
    layout = layout or lay_out(panel, left, image.width)
    if layout.height > image.height:
        taller = Image.new(image.mode, (image.width, layout.height), image.getpixel((0, image.height - 1)))
        taller.paste(image, (0, 0))
        image = taller
    paint(image, layout)
    return image


_TALLER: dict[tuple[int, int], tuple[Image.Image, Image.Image]] = {}
"""Backgrounds made as tall as a panel needs, by the background's id and the height (with the background
itself, so the id stays its own); a game has a few heights, one per number of seats or so."""


def canvas(background: Image.Image, panel: Panel, left: int) -> tuple[Image.Image, Layout]:
    """A copy of a game's cached background, already as tall as `draw_panel` would make the picture, and the
    panel's layout for `draw_panel`: a panel taller than the board no longer costs a second whole-picture
    fill and copy after the board is drawn (about a millisecond). The same pixels: the added rows are the
    background's bottom-left colour, which no board draws over."""
    layout = lay_out(panel, left, background.width)
    if layout.height <= background.height:
        return background.copy(), layout
    key = (id(background), layout.height)
    found = _TALLER.get(key)
    if found is None:
        taller = Image.new(
            background.mode, (background.width, layout.height), background.getpixel((0, background.height - 1))
        )
        taller.paste(background, (0, 0))
        if len(_TALLER) >= 64:
            _TALLER.clear()
        found = _TALLER[key] = (background, taller)
    return found[1].copy(), layout


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


__all__ = [
    "MIN_SIZE",
    "KeyEntry",
    "Layout",
    "Line",
    "Panel",
    "PlacedText",
    "SeatCard",
    "Strip",
    "Turn",
    "break_lines",
    "canvas",
    "captioned",
    "clock_words",
    "cut_lines",
    "draw_panel",
    "fit_lines",
    "fitted",
    "lay_out",
    "paint",
    "paint_text",
    "seat_card",
]
