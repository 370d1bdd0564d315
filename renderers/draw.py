"""Drawing helpers every game's renderer shares: captions, fonts, palette, sprites, arrows, text, PNG.

Everything here is deterministic (bundled fonts, Pillow's basic text layout, PNG without metadata), so one
state renders to the same bytes on every machine. ImageDraw shapes have no anti-aliasing, so shapes are
painted at `SUPERSAMPLE` times their size and reduced; the results are cached where they do not change.
Cached sprites are shared by every render thread (the bot renders in `asyncio.to_thread`), so nothing
draws on them after they are made: copy one before changing it.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.clock import format_short

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
SUPERSAMPLE = 4
PNG_COMPRESS_LEVEL = 1
"""zlib level 1: about 5 ms and 80 KB for a board, against 10 ms and 65 KB at level 6."""
NAME_CAP = 64
"""Names are cut to this many characters before drawing (Discord's and the terminal's allow 32), so a
huge name costs no more to draw than a normal one; no panel shows this many anyway."""
TEXT_CAP = 2000
"""`fit` and `wrap` read at most this many characters (three lines of any panel hold far fewer): a text
longer than that is cut with an ellipsis, so no text costs more to measure than this much."""
FIT_PROBE = 64
"""`fit` and `wrap` first measure this many characters of a text, then twice as many, until a start is
too wide or the whole text is measured."""

Colour = tuple[int, int, int]
Point = tuple[float, float]

INK: Colour = (12, 22, 34)
WHITE: Colour = (255, 255, 255)
TEXT: Colour = (236, 243, 250)
MUTED: Colour = (150, 174, 198)
PANEL: Colour = (18, 36, 56)
PANEL_BOX: Colour = (28, 52, 78)
HIGHLIGHT: Colour = (255, 201, 64)
ALERT: Colour = (226, 62, 62)
SEAT_COLOURS: tuple[Colour, ...] = (
    (232, 117, 26),
    (47, 111, 219),
    (206, 72, 196),
    (22, 178, 160),
    (150, 98, 52),
    (120, 130, 150),
)
"""Seats in every game: orange and blue first (told apart under every common colour-vision deficiency and in
greyscale), then magenta, teal, brown and slate for games of up to six."""


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock as the service sees it when the board is drawn."""

    move_seconds: float  # move allowance left for this seat's current turn (the full allowance otherwise)
    reserve_seconds: float  # reserve left
    running: bool  # True for the seat whose clock is running now

    @property
    def words(self) -> str:
        """`move 0:30 · reserve 1:00` (`move 1d · reserve 6d 18h`), as every panel writes it."""
        return f"move {format_short(self.move_seconds)} · reserve {format_short(self.reserve_seconds)}"

    @property
    def low(self) -> bool:
        """The move allowance is spent and under 15 s of reserve is left: panels show it in alarm colours."""
        return self.move_seconds <= 0 and self.reserve_seconds < 15


@dataclass(frozen=True, slots=True)
class Caption:
    """What the engine does not know: who sits where, clocks, and a header line."""

    names: tuple[str, ...] = ()  # display name per seat; default "Player 1", "Player 2"
    clocks: tuple[SeatClock, ...] | None = None  # None: the match has no clock, show no clock lines
    header: str | None = None  # e.g. "Death match · game 2 of 3 · alice 1–0 bob"
    paused: bool = False  # show a clear PAUSED badge
    result: str | None = None  # how a game ended off the board (time, resignation, abort), shown instead of the turn
    overlays: frozenset[str] = frozenset()  # optional extra layers a game may draw, e.g. "areas" (Themiscyra)

    def name(self, seat: int) -> str:
        """The seat's name, at most NAME_CAP characters (a longer one ends in an ellipsis), else Player N."""
        if seat < len(self.names) and self.names[seat].strip():
            name = self.names[seat].strip()
            return name if len(name) <= NAME_CAP else name[:NAME_CAP].rstrip() + "…"
        return f"Player {seat + 1}"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font; the basic layout engine, because raqm may be missing or differ elsewhere."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(FONT_DIR / name, size, layout_engine=ImageFont.Layout.BASIC)


def antialiased(size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of `size`; `paint(draw, scale)` draws it at `scale` times that size."""
    big = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    # Reduce premultiplied, or transparent black would bleed into the edges as a dark fringe.
    return big.convert("RGBa").reduce(SUPERSAMPLE).convert("RGBA")


def paste(image: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    """Blend `sprite` onto `image` with its centre on `centre`."""
    image.paste(sprite, (centre[0] - sprite.width // 2, centre[1] - sprite.height // 2), sprite)


@cache
def disc(radius: int, fill: Colour, ring: Colour | None = WHITE, ring_width: float = 3) -> Image.Image:
    """A filled circle with an optional light ring and a thin dark outline, so it shows on any colour."""
    side = 2 * radius + 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        c = side * s / 2
        draw.ellipse((c - radius * s, c - radius * s, c + radius * s, c + radius * s), fill=INK)
        inner = (radius - 1) * s
        draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=fill if ring is None else ring)
        if ring is not None:
            core = inner - ring_width * s
            draw.ellipse((c - core, c - core, c + core, c + core), fill=fill)

    return antialiased((side, side), paint)


def _arrow_corners(start: Point, end: Point, shaft: float, head_width: float, head_length: float) -> list[Point]:
    """The seven corners of an arrow whose tip is at `end`."""
    length = math.dist(start, end) or 1.0
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    px, py = -uy, ux
    head_length = min(head_length, length)
    bx, by = end[0] - ux * head_length, end[1] - uy * head_length

    def at(x: float, y: float, side: float) -> Point:
        return x + px * side, y + py * side

    return [
        at(*start, shaft / 2),
        at(bx, by, shaft / 2),
        at(bx, by, head_width / 2),
        end,
        at(bx, by, -head_width / 2),
        at(bx, by, -shaft / 2),
        at(*start, -shaft / 2),
    ]


def arrow(
    image: Image.Image,
    start: Point,
    end: Point,
    colour: Colour,
    *,
    shaft: float = 10,
    head_width: float = 28,
    head_length: float = 24,
    outline: Colour = INK,
    outline_width: float = 2.5,
) -> None:
    """A thick arrow from `start` with its tip on `end`, in `colour` with a dark rim for any background.

    It is painted level on a strip just big enough, then turned into place: supersampling the whole
    bounding box of a long diagonal arrow would cost more than the rest of a board.
    """
    angle = -math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    layer = arrow_layer(
        math.dist(start, end),
        angle,
        colour,
        shaft=shaft,
        head_width=head_width,
        head_length=head_length,
        outline=outline,
        outline_width=outline_width,
    )
    paste(image, layer, (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2)))


def arrow_layer(
    length: float,
    angle: float,
    colour: Colour,
    *,
    shaft: float = 10,
    head_width: float = 28,
    head_length: float = 24,
    outline: Colour = INK,
    outline_width: float = 2.5,
) -> Image.Image:
    """The RGBA sprite `arrow` pastes, centred on the arrow's middle, turned `angle` degrees anticlockwise.

    Deterministic in its arguments, so a game whose arrows come in few lengths and angles may cache it.
    """
    pad = math.ceil(outline_width) + 2
    size = (math.ceil(length) + 2 * pad, math.ceil(head_width) + 2 * pad)
    left, mid = (size[0] - length) / 2, size[1] / 2

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        corners = [
            (x * s, y * s) for x, y in _arrow_corners((left, mid), (left + length, mid), shaft, head_width, head_length)
        ]
        # A round-jointed stroke centred on the edges, then the fill over it, leaves a rim outside.
        draw.line([*corners, corners[0], corners[1]], fill=outline, width=round(2 * outline_width * s), joint="curve")
        draw.polygon(corners, fill=colour)

    strip = antialiased(size, paint).convert("RGBa")
    return strip.rotate(angle, Image.Resampling.BICUBIC, expand=True).convert("RGBA")


def text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    words: str,
    size: int,
    fill: Colour = TEXT,
    *,
    bold: bool = False,
    anchor: str = "la",
    outline: Colour | None = None,
    outline_width: float = 2,
) -> None:
    """Text in a bundled font; `outline` adds a rim so it reads over busy backgrounds."""
    draw.text(
        xy,
        words,
        fill=fill,
        font=font(size, bold),
        anchor=anchor,
        stroke_width=outline_width if outline else 0,
        stroke_fill=outline,
    )


def fit(words: str, size: int, width: float, *, bold: bool = False) -> str:
    """`words`, cut short with an ellipsis if they would be wider than `width`.

    The cut is the longest start of `words` that fits with the ellipsis, as if characters were dropped
    from the end one at a time, but found in O(log n) measurements: `_overflow` finds a start already too
    wide (so no measurement is much longer than what fits, however long `words` is), then a binary search
    below it. A start's width never shrinks as it grows, which is what makes the search exact.
    """
    face = font(size, bold)
    head = words[:TEXT_CAP]
    high = _overflow(face, head, width)
    if high > len(head) == len(words):
        return words
    # head[:high] is too wide even without the ellipsis (or is TEXT_CAP long); the answer is the longest
    # start below it that fits with one (none at all: the ellipsis alone, as the one-at-a-time cut ends too)
    low, high = 0, min(high, len(head))
    while high - low > 1:
        middle = (low + high) // 2
        if face.getlength(head[:middle] + "…") <= width:
            low = middle
        else:
            high = middle
    return head[:low].rstrip() + "…"


def _overflow(face: ImageFont.FreeTypeFont, words: str, width: float) -> int:
    """A length at which `words` is already wider than `width`, or len(words) + 1 if it all fits.

    Measured at FIT_PROBE characters, then twice as many and so on, and at the end: a text that fits
    costs one measurement if short, and a long one that does not costs a few short ones.
    """
    probe = FIT_PROBE
    while probe < len(words):
        if face.getlength(words[:probe]) > width:
            return probe
        probe *= 2
    return len(words) if face.getlength(words) > width else len(words) + 1


def wrap(words: str, size: int, width: float, *, bold: bool = False, max_lines: int = 3) -> list[str]:
    """Greedy word wrap into at most `max_lines` lines; the last one is cut short if needed.

    Only the first TEXT_CAP characters are read, and measuring stops once the last line is known to
    overflow (the rest is joined to it and `fit` cuts it): a long text costs no more than a short one.
    """
    face = font(size, bold)
    lines: list[str] = []
    split = words[:TEXT_CAP].split()
    for index, word in enumerate(split):
        if lines and _overflow(face, line := f"{lines[-1]} {word}", width) > len(line):
            lines[-1] = line
        elif len(lines) == max_lines:  # a line too many: everything left goes on the last one
            lines[-1] = " ".join([lines[-1], *split[index:]])
            break
        else:
            lines.append(word)
    return [fit(line, size, width, bold=bold) for line in lines]


def rounded_box(
    draw: ImageDraw.ImageDraw, box: Sequence[float], fill: Colour, *, border: Colour | None = None, width: int = 3
) -> None:
    """A panel box with 8 px corners, optionally bordered (the seat to move, say)."""
    draw.rounded_rectangle(tuple(box), radius=8, fill=fill, outline=border, width=width if border else 0)


def result_box(draw: ImageDraw.ImageDraw, lines: Sequence[str], left: float, right: float, y: float) -> float:
    """The gold box that says how a game ended, one 15 px bold line each, at `y` in the side panel;
    returns the y below it (unchanged for no lines)."""
    if not lines:
        return y
    rounded_box(draw, (left, y, right, y + 12 + 20 * len(lines)), HIGHLIGHT)
    for k, line in enumerate(lines):
        text(draw, (left + 10, y + 16 + 20 * k), line, 15, INK, bold=True, anchor="lm")
    return y + 20 + 20 * len(lines)


def to_png(image: Image.Image) -> bytes:
    """PNG bytes holding only the pixels (no time, no dpi, no text), so equal images give equal bytes.

    Written by hand because Pillow's encoder tries five row filters per row: on these flat-coloured
    boards that more than doubles the encoding time (about 12 ms against 5) and makes files larger.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    raw, stride = memoryview(rgb.tobytes()), 3 * rgb.width
    # Each row starts with its filter byte, 0 (none): joining ["", row, row...] with b"\0" puts one before each.
    rows = b"\0".join([b"", *(raw[i : i + stride] for i in range(0, len(raw), stride))])
    header = struct.pack(">IIBBBBB", rgb.width, rgb.height, 8, 2, 0, 0, 0)  # 8-bit RGB, not interlaced
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, PNG_COMPRESS_LEVEL))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def paused_banner(
    draw: ImageDraw.ImageDraw, left: float, right: float, y: float, height: int, size: int, gap: int
) -> float:
    """A PAUSED bar across the panel at `y`; returns where the panel goes on, `gap` below it."""
    rounded_box(draw, (left, y, right, y + height), ALERT)
    text(draw, ((left + right) / 2, y + height / 2), "PAUSED", size, WHITE, bold=True, anchor="mm")
    return y + height + gap


def paused_badge(draw: ImageDraw.ImageDraw, right: float) -> None:
    """A small PAUSED badge in the panel's top right corner, beside the title."""
    rounded_box(draw, (right - 86, 12, right, 40), ALERT)
    text(draw, (right - 43, 26), "PAUSED", 15, WHITE, bold=True, anchor="mm")


def header_lines(
    draw: ImageDraw.ImageDraw, header: str | None, left: float, width: float, y: float, gap: int = 4
) -> float:
    """A caption's header under a panel's title, up to two lines; returns where the panel goes on."""
    if not header:
        return y
    for line in wrap(header, 13, width, max_lines=2):
        text(draw, (left, y), line, 13, MUTED)
        y += 17
    return y + gap


def clock_pill(
    draw: ImageDraw.ImageDraw, clock: SeatClock, line: str, box: tuple[int, int, int, int], size: int
) -> None:
    """A clock line in `box`: muted, or a bright pill while running (red once the reserve runs low)."""
    ink = MUTED
    if clock.running:
        low = clock.low
        rounded_box(draw, box, ALERT if low else HIGHLIGHT)
        ink = WHITE if low else INK
    text(draw, (box[0] + 8, (box[1] + box[3]) / 2), line, size, ink, bold=clock.running, anchor="lm")
