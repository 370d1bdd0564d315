"""Drawing helpers every game's renderer shares: captions, fonts, palette, sprites, arrows, text, PNG.

Everything here is deterministic (bundled fonts, Pillow's basic text layout, PNG without metadata), so one
state renders to the same bytes on every machine. ImageDraw shapes have no anti-aliasing, so shapes are
painted at `SUPERSAMPLE` times their size and reduced; the results are cached where they do not change.
Cached sprites are shared by every render thread (the bot renders in `asyncio.to_thread`), so nothing
draws on them after they are made: copy one before changing it.
"""

from __future__ import annotations

import math
import os
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot import i18n
from bot.clock import format_short
from bot.i18n import N_, _

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
SUPERSAMPLE = 4
NAME_CAP = 64
"""Names are cut to this many characters before drawing (Discord's and the terminal's allow 32), so a
huge name costs no more to draw than a normal one; no panel shows this many anyway."""
TEXT_CAP = 2000
"""`fit` and the panel read at most this many characters (a whole panel holds far fewer): a text
longer than that is cut with an ellipsis, so no text costs more to measure than this much."""
FIT_PROBE = 64
"""`fit` first measures this many characters of a text, then twice as many, until a start is
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
LAST_MOVE: Colour = (255, 214, 64)
"""The last move's squares are tinted this (from and to, under the pieces, as lichess does); the mover is the
piece standing there, so one colour for every seat."""
FROM_SHARE, TO_SHARE = 0.3, 0.5
"""How much of the tint a move's squares take (`tint`): the square left lighter than the one reached, so the
way it went reads even where pieces stand on both."""
SEAT_COLOURS: tuple[Colour, ...] = (
    (232, 117, 26),
    (47, 111, 219),
    (115, 230, 220),
    (153, 76, 76),
    (255, 170, 128),
    (134, 13, 255),
)
"""Seats in every game: orange and blue first, then aqua, brick, peach and violet for games of up to six.
Chosen to keep every pair apart as seen with protanopia, deuteranopia and tritanopia as well as normal
vision (tests/renderers/test_colour_vision.py prints the smallest difference); each seat's token also
carries its own shape (`SEAT_SHAPES`), so colour is never the only cue."""
SEAT_COLOUR_NAMES = (N_("orange"), N_("blue"), N_("aqua"), N_("brick"), N_("peach"), N_("violet"))
"""Each seat's colour in words (English, marked: say one with `colour_name`)."""
SEAT_SHAPES = ("dot", "square", "triangle", "diamond", "cross", "star")
"""The mark inside each seat's tokens, in seat order: a second cue beside the colour."""


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock as the service sees it when the board is drawn."""

    move_seconds: float  # move allowance left for this seat's current turn (the full allowance otherwise)
    reserve_seconds: float  # reserve left
    running: bool  # True for the seat whose clock is running now

    @property
    def words(self) -> str:
        """`move 0:30 · reserve 1:00` (`move 1d · reserve 6d 18h`), as every panel writes it, in the reader's
        language."""
        return _("move {move} · reserve {reserve}").format(
            move=format_short(self.move_seconds), reserve=format_short(self.reserve_seconds)
        )

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

    def typed(self, seat: int) -> str:
        """The seat's name as typed (at most NAME_CAP characters), else Player N: for words, not pictures
        (the alt text reads an emoji or a script no font here has as it is)."""
        if seat < len(self.names) and self.names[seat].strip():
            name = self.names[seat].strip()
            return i18n.typed(name if len(name) <= NAME_CAP else name[:NAME_CAP].rstrip() + "…")  # a name: as typed
        return player_n(seat)

    def name(self, seat: int) -> str:
        """The seat's name, at most NAME_CAP characters (a longer one ends in an ellipsis), else Player N.

        A name mostly in characters no font here has (emoji, or CJK with no fallback font installed) is
        `Player N` too, so a picture never shows boxes or a name cut down to a stray letter.
        """
        if seat < len(self.names) and self.names[seat].strip():
            name = self.names[seat].strip()
            name = name if len(name) <= NAME_CAP else name[:NAME_CAP].rstrip() + "…"
            shown = drawable(name).strip()
            if 2 * len("".join(shown.split())) >= len("".join(name.split())):
                return i18n.typed(shown)  # a name: as typed, in every language
        return player_n(seat)


def player_n(seat: int) -> str:
    """The stand-in for a seat without a name we can show: `Player 2`, in the reader's language."""
    return _("Player {number}").format(number=i18n.number(seat + 1))


def colour_name(seat: int) -> str:
    """A seat's colour in the reader's language (`orange`, `blau`), as a noun: "alice (blue)"."""
    return _(SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)])


def and_list(items: Sequence[str]) -> str:
    """Items in words in the reader's language: "a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def marked_lines(lines: Sequence[str]) -> list[str]:
    """Lines wrapped from one text, each closed and reopened within the catalog's marks (a marking run's:
    bot/i18n.py) as the whole text had them, so each drawn line is read on its own; unmarked text is
    returned as it is."""
    if not any(i18n.MARK in line or i18n.END in line for line in lines):
        return list(lines)
    out, depth = [], 0
    for line in lines:
        before = depth
        for char in line:
            if char == i18n.MARK:
                depth += 1
            elif char == i18n.END:
                depth = max(0, depth - 1)
        out.append(i18n.MARK * before + line + i18n.END * depth)
    return out


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font; the basic layout engine, because raqm may be missing or differ elsewhere."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(FONT_DIR / name, size, layout_engine=ImageFont.Layout.BASIC)


FALLBACK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc",
    "/usr/share/fonts/truetype/noto/NotoSans-{weight}.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansArabic-{weight}.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-{weight}.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-{weight}.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)
"""Fonts tried, in order, for a character DejaVu lacks (CJK names, say), if the machine has them (Debian:
`apt install fonts-noto-cjk`); `{weight}` is Regular or Bold. The BOARD_FONTS variable (paths separated by
`:`) replaces the list. A character no font has is left out (see `drawable`), so no box is ever drawn."""


@cache
def fallback_files(bold: bool) -> tuple[Path, ...]:
    """The fallback fonts this machine has, for regular or bold text (a bold one falls back to regular)."""
    listed = os.environ.get("BOARD_FONTS")
    patterns = listed.split(os.pathsep) if listed is not None else FALLBACK_FONTS
    found: list[Path] = []
    for pattern in filter(None, patterns):
        for weight in ("Bold", "Regular") if bold else ("Regular",):
            path = Path(pattern.replace("{weight}", weight))
            if path.is_file():
                found.append(path)
                break
    return tuple(found)


@cache
def _fallback_face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=0, layout_engine=ImageFont.Layout.BASIC)


def _signature(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


@cache
def _has(path: Path | None, bold: bool, char: str) -> bool:
    """Whether a font (None: DejaVu) draws `char` as itself rather than as its "missing" box."""
    face = font(20, bold) if path is None else _fallback_face(path, 20)
    return _signature(face, char) != _signature(face, "\U0010fffd")


def _source(char: str, bold: bool) -> Path | Literal[False] | None:
    """The font for `char`: None for DejaVu, a fallback's path, or False when no font has it."""
    if char.isascii() or _has(None, bold, char):
        return None
    return next((path for path in fallback_files(bold) if _has(path, bold, char)), False)


def runs(words: str, size: int, bold: bool = False) -> list[tuple[ImageFont.FreeTypeFont, str]]:
    """`words` as (font, text) runs: DejaVu where it has the glyphs, a fallback font where it does not.

    Characters no font has are dropped; a combining mark stays with the character before it.
    """
    if _dejavu_only(words, bold):
        return [(font(size, bold), words)] if words else []
    pieces: list[tuple[Path | None, str]] = []
    for char in words:
        source = pieces[-1][0] if pieces and unicodedata.combining(char) else _source(char, bold)
        if source is False:
            continue
        if pieces and pieces[-1][0] == source:
            pieces[-1] = (source, pieces[-1][1] + char)
        else:
            pieces.append((source, char))
    return [(font(size, bold) if path is None else _fallback_face(path, size), part) for path, part in pieces]


def drawable(words: str, bold: bool = False) -> str:
    """`words` without the characters no font here can draw (an emoji, a script no font covers)."""
    return "".join(part for _, part in runs(words, 12, bold))


@lru_cache(maxsize=4096)
def _dejavu_only(words: str, bold: bool) -> bool:
    """Whether DejaVu draws all of `words` (most texts): then one font measures and draws it."""
    return words.isascii() or all(char.isascii() or _has(None, bold, char) for char in words)


@lru_cache(maxsize=32_768)
def length(words: str, size: int, bold: bool = False) -> float:
    """How wide `words` is drawn by `text` (fallback fonts included). Cached: a match's boards measure the
    same names and lines again and again while the panel wraps and shrinks them."""
    if _dejavu_only(words, bold):
        return font(size, bold).getlength(words)
    return sum(face.getlength(part) for face, part in runs(words, size, bold))


def antialiased(size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None]) -> Image.Image:
    """An RGBA sprite of `size`; `paint(draw, scale)` draws it at `scale` times that size."""
    big = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    # Reduce premultiplied, or transparent black would bleed into the edges as a dark fringe.
    return big.convert("RGBa").reduce(SUPERSAMPLE).convert("RGBA")


def paste(image: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    """Blend `sprite` onto `image` with its centre on `centre`."""
    image.paste(sprite, (centre[0] - sprite.width // 2, centre[1] - sprite.height // 2), sprite)


def tint(image: Image.Image, box: tuple[int, int, int, int], colour: Colour, share: float) -> None:
    """Mixes `share` of `colour` into every pixel of `box`: a square's ground, before its pieces are drawn."""
    region = image.crop(box)
    image.paste(Image.blend(region, Image.new(region.mode, region.size, colour), share), box[:2])


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


def _mark_ink(fill: Colour) -> Colour:
    """White on a dark seat colour, ink on a light one: the mark always stands out."""
    return INK if 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 150 else WHITE


def _paint_mark(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, ink: Colour) -> None:
    """One seat's shape, about 2r across, centred on (cx, cy), in already scaled coordinates."""
    if shape == "dot":
        draw.ellipse((cx - 0.55 * r, cy - 0.55 * r, cx + 0.55 * r, cy + 0.55 * r), fill=ink)
    elif shape == "square":
        draw.rectangle((cx - 0.75 * r, cy - 0.75 * r, cx + 0.75 * r, cy + 0.75 * r), fill=ink)
    elif shape == "triangle":
        draw.polygon([(cx, cy - r), (cx + 0.95 * r, cy + 0.7 * r), (cx - 0.95 * r, cy + 0.7 * r)], fill=ink)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + 0.8 * r, cy), (cx, cy + r), (cx - 0.8 * r, cy)], fill=ink)
    elif shape == "cross":
        arm = 0.32 * r
        draw.rectangle((cx - r, cy - arm, cx + r, cy + arm), fill=ink)
        draw.rectangle((cx - arm, cy - r, cx + arm, cy + r), fill=ink)
    else:  # star
        points = [
            (cx + (r if k % 2 == 0 else 0.45 * r) * math.sin(k * math.pi / 5),
             cy - (r if k % 2 == 0 else 0.45 * r) * math.cos(k * math.pi / 5))
            for k in range(10)
        ]  # fmt: skip
        draw.polygon(points, fill=ink)


@cache
def seat_token(seat: int, radius: int, ring: Colour | None = WHITE, ring_width: float = 3) -> Image.Image:
    """A seat's token: a disc in its colour (`disc`) with its shape inside, so it reads without colour."""
    fill = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    sprite = disc(radius, fill, ring, ring_width)
    side = sprite.width

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        inner = radius - 1 - (ring_width if ring is not None else 0)
        _paint_mark(draw, SEAT_SHAPES[seat % len(SEAT_SHAPES)], side * s / 2, side * s / 2, 0.5 * inner * s,
                    _mark_ink(fill))  # fmt: skip

    mark = antialiased((side, side), paint)
    token = sprite.copy()
    token.alpha_composite(mark)
    return token


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
    """Text in a bundled font (a fallback font for what DejaVu lacks); `outline` adds a rim for busy backgrounds."""
    stroke = outline_width if outline else 0
    parts = runs(i18n.said(words, "picture"), size, bold)
    if len(parts) == 1 and not stroke and draw.mode == "RGB":
        (fx, x), (fy, y) = math.modf(xy[0]), math.modf(xy[1])
        mask, (dx, dy) = _mask(parts[0][0], parts[0][1], anchor, fx, fy)
        draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=fill)
        return
    if len(parts) == 1:
        draw.text(xy, parts[0][1], fill=fill, font=parts[0][0], anchor=anchor, stroke_width=stroke, stroke_fill=outline)
        return
    if not parts:  # nothing any font here can draw
        return
    baseline = _baseline(xy[1], parts, anchor)
    for x, face, part in _placed(xy[0], parts, anchor):
        draw.text((x, baseline), part, fill=fill, font=face, anchor="ls", stroke_width=stroke, stroke_fill=outline)


@lru_cache(maxsize=4096)
def _mask(
    face: ImageFont.FreeTypeFont, words: str, anchor: str, fx: float, fy: float
) -> tuple[Image.Image, tuple[int, int]]:
    """A line's glyph coverage and its offset from the anchor point, as `ImageDraw.text` makes them for a
    point with these fractional parts: a board draws the same names, clocks and labels at the same places
    post after post, and rendering the glyphs each time was a tenth of the time a board takes."""
    core, offset = face.getmask2(words, "L", anchor=anchor, start=(fx, fy))
    return Image.frombytes("L", core.size, bytes(core)), offset


def metrics(words: str, size: int, bold: bool = False) -> tuple[int, int]:
    """(ascent, descent) of the line `words` makes: the largest of the fonts it is drawn in."""
    faces = [face for face, _ in runs(words, size, bold)] or [font(size, bold)]
    return max(face.getmetrics()[0] for face in faces), max(face.getmetrics()[1] for face in faces)


def _baseline(y: float, parts: list[tuple[ImageFont.FreeTypeFont, str]], anchor: str) -> float:
    """The shared baseline of runs in several fonts, for the vertical part of `anchor` (a, m, s, d)."""
    ascent = max(face.getmetrics()[0] for face, _ in parts)
    descent = max(face.getmetrics()[1] for face, _ in parts)
    return {"a": y + ascent, "t": y + ascent, "m": y + (ascent - descent) / 2, "d": y - descent, "b": y - descent}.get(
        anchor[1], y
    )


def _placed(
    x: float, parts: list[tuple[ImageFont.FreeTypeFont, str]], anchor: str
) -> list[tuple[float, ImageFont.FreeTypeFont, str]]:
    """Where each run starts, for runs drawn one after another as one text anchored at `x`."""
    total = sum(face.getlength(part) for face, part in parts)
    x -= {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
    placed = []
    for face, part in parts:
        placed.append((x, face, part))
        x += face.getlength(part)
    return placed


def text_extent(xy: Point, words: str, size: int, *, bold: bool = False, anchor: str = "la") -> tuple[float, ...]:
    """The box `text` inks for these arguments (left, top, right, bottom), fallback fonts included."""
    parts = runs(words, size, bold)
    if len(parts) == 1:
        left, top, right, bottom = parts[0][0].getbbox(parts[0][1], anchor=anchor)
        return (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom)
    baseline = _baseline(xy[1], parts, anchor) if parts else xy[1]
    boxes = [
        (x + left, baseline + top, x + right, baseline + bottom)
        for x, face, part in _placed(xy[0], parts, anchor)
        for left, top, right, bottom in [face.getbbox(part, anchor="ls")]
    ]
    if not boxes:
        return (xy[0], xy[1], xy[0], xy[1])
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def fit(words: str, size: int, width: float, *, bold: bool = False) -> str:
    """`words`, cut short with an ellipsis if they would be wider than `width`.

    The cut is the longest start of `words` that fits with the ellipsis, as if characters were dropped
    from the end one at a time, but found in O(log n) measurements: `_overflow` finds a start already too
    wide (so no measurement is much longer than what fits, however long `words` is), then a binary search
    below it. A start's width never shrinks as it grows, which is what makes the search exact.
    """
    head = words[:TEXT_CAP]
    high = _overflow(head, size, bold, width)
    if high > len(head) == len(words):
        return words
    # head[:high] is too wide even without the ellipsis (or is TEXT_CAP long); the answer is the longest
    # start below it that fits with one (none at all: the ellipsis alone, as the one-at-a-time cut ends too)
    low, high = 0, min(high, len(head))
    while high - low > 1:
        middle = (low + high) // 2
        if length(head[:middle] + "…", size, bold) <= width:
            low = middle
        else:
            high = middle
    return head[:low].rstrip() + "…"


def _overflow(words: str, size: int, bold: bool, width: float) -> int:
    """A length at which `words` is already wider than `width`, or len(words) + 1 if it all fits.

    Measured at FIT_PROBE characters, then twice as many and so on, and at the end: a text that fits
    costs one measurement if short, and a long one that does not costs a few short ones.
    """
    probe = FIT_PROBE
    while probe < len(words):
        if length(words[:probe], size, bold) > width:
            return probe
        probe *= 2
    return len(words) if length(words, size, bold) > width else len(words) + 1


def rounded_box(
    draw: ImageDraw.ImageDraw, box: Sequence[float], fill: Colour, *, border: Colour | None = None, width: int = 3
) -> None:
    """A panel box with 8 px corners, optionally bordered (the seat to move, say)."""
    draw.rounded_rectangle(tuple(box), radius=8, fill=fill, outline=border, width=width if border else 0)
