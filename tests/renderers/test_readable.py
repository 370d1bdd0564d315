"""Boards everyone can read: seat colours and every game's piece colours apart under colour-vision
deficiencies, a shape on every seat's token and a pattern on every Volcano piece, and names in scripts
DejaVu lacks drawn with a fallback font, or a stand-in, never as boxes."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw, ImageFont

from renderers import draw, horizon, themiscyra, volcano
from renderers.draw import (
    FONT_DIR,
    SEAT_COLOURS,
    SEAT_SHAPES,
    Caption,
    drawable,
    fallback_files,
    length,
    runs,
    seat_token,
    text,
)
from tests.renderers.colour_vision import VISIONS, closest_pair, delta_e, simulate

SMALLEST_SEAT_DIFFERENCE = 25.0
"""CIE76 ΔE every pair of seat colours keeps under every simulated vision (the palette gives 28.8; the one
before it gave 9.7, magenta against violet-blue under tritanopia)."""


def test_the_six_seat_colours_stay_apart_for_every_common_colour_vision() -> None:
    smallest, vision, i, j = closest_pair(SEAT_COLOURS)
    print(f"smallest seat colour difference: ΔE {smallest:.1f} ({vision}, seats {i + 1} and {j + 1})")
    assert smallest >= SMALLEST_SEAT_DIFFERENCE, (vision, SEAT_COLOURS[i], SEAT_COLOURS[j])
    # the two-player seats are far apart for everyone
    assert min(delta_e(simulate(SEAT_COLOURS[0], v), simulate(SEAT_COLOURS[1], v)) for v in VISIONS) > 60


def test_the_simulation_matches_known_confusions() -> None:
    red, green = (200, 40, 40), (60, 140, 40)
    normal = delta_e(red, green)
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < normal / 2
    assert delta_e(simulate(red, "protanopia"), simulate(green, "protanopia")) < normal / 2
    yellow, pink = (255, 230, 0), (255, 170, 190)  # a tritan confusion
    assert delta_e(simulate(yellow, "tritanopia"), simulate(pink, "tritanopia")) < delta_e(yellow, pink) / 2
    assert simulate((10, 20, 30), "normal") == (10, 20, 30)


@pytest.mark.parametrize(("radius", "apart"), [(11, 0.2), (14, 0.25), (21, 0.3)])
def test_every_seat_token_carries_its_own_shape(radius: int, apart: float) -> None:
    """Without colour at all, no two seats' tokens look alike: of the pixels either mark covers, at least
    `apart` are covered by one mark only (panel tokens are 11 px in radius, board tokens 14 to 21)."""
    assert len(set(SEAT_SHAPES)) == len(SEAT_COLOURS)
    marks = [_mark(seat, radius) for seat in range(len(SEAT_COLOURS))]
    for a in range(len(marks)):
        assert sum(marks[a]) >= radius, SEAT_SHAPES[a]  # the mark is there at all
        for b in range(a + 1, len(marks)):
            differing = sum(1 for p, q in zip(marks[a], marks[b], strict=True) if p != q)
            either = sum(1 for p, q in zip(marks[a], marks[b], strict=True) if p or q)
            assert differing >= apart * either, (SEAT_SHAPES[a], SEAT_SHAPES[b], differing, either)


PIECE_COLOURS = {
    "volcano": tuple(volcano.PIECE_FILL.values()),
    "themiscyra": themiscyra.STONE_FILL,
    "horizon": tuple(horizon.KIND_COLOURS.values()),
}
"""Every game's own piece colours ("1, 2, 3" and Geyser use the seat tokens themselves)."""


@pytest.mark.parametrize("key", sorted(PIECE_COLOURS))
def test_every_games_piece_colours_stay_apart_for_every_common_colour_vision(key: str) -> None:
    smallest, vision, i, j = closest_pair(PIECE_COLOURS[key])
    print(f"{key}: smallest piece colour difference ΔE {smallest:.1f} ({vision})")
    assert smallest >= SMALLEST_SEAT_DIFFERENCE, (key, vision, PIECE_COLOURS[key][i], PIECE_COLOURS[key][j])


PHONE_SCALE = 450 / 800  # as a phone shows the 800 px picture
VOLCANO_PATTERN_CASES = [
    *[("board", size, 1.0) for size in "123"],
    *[("board", size, PHONE_SCALE) for size in "123"],
    *[("captured", size, 1.0) for size in "123"],
]


@pytest.mark.parametrize(("where", "size", "scale"), VOLCANO_PATTERN_CASES)
def test_every_volcano_piece_carries_its_colours_pattern(where: str, size: str, scale: float) -> None:
    """Without colour at all, no two colours' pieces of a size look alike: in the middle of a piece, of the
    pixels either pattern inks (lighter or darker than the piece's fill: seen in grey), at least 30% are
    inked by one pattern only, as the seat tokens' shapes differ; clear pieces are plain. So on the board
    as drawn and as a phone shows it (450 px wide: the likest, dots and level stripes, differ by 45%), and
    for the captured pieces in the seat cards as drawn."""
    marks = {colour: _pattern(f"{colour}{size}", where, scale) for colour in volcano.PIECE_FILL}
    for colour, mark in marks.items():
        if volcano.PATTERNS[colour] is None:
            continue
        assert sum(mark) >= 0.2 * len(mark), colour  # the pattern is there at all
    assert volcano.PATTERNS["C"] is None and sum(marks["C"]) <= 0.35 * len(marks["C"])  # plain (an edge or two)
    for a, b in itertools.combinations(marks, 2):
        differing = sum(1 for p, q in zip(marks[a], marks[b], strict=True) if p != q)
        either = sum(1 for p, q in zip(marks[a], marks[b], strict=True) if p or q)
        assert differing >= 0.3 * either, (a, b, differing, either)


def test_the_volcano_key_shows_every_colours_piece_with_its_name() -> None:
    entries = [entry for row in volcano.key_entries() for entry in row]
    for colour in volcano.PIECE_FILL:
        assert (volcano._piece(f"{colour}2"), volcano.colour_name(colour)) in entries
    assert [volcano.colour_name(c) for c in "RYGBC"] == ["red", "yellow", "green", "blue", "clear"]


def _grey(colour: tuple[int, ...]) -> float:
    return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]


def _pattern(piece: str, where: str, scale: float) -> list[bool]:
    """Which pixels in the middle of a piece's sprite (a board piece or a captured one, scaled as a phone
    shows it) are its pattern: lighter or darker in grey than its fill (by 50, or 25 once scaled down)."""
    sprite = (volcano._piece if where == "board" else volcano._mini)(piece)
    if scale != 1.0:
        sprite = sprite.resize((round(sprite.width * scale), round(sprite.height * scale)), Image.Resampling.LANCZOS)
    sprite = sprite.convert("RGB")
    fill, apart = _grey(volcano.PIECE_FILL[piece[0]]), 50 if scale == 1.0 else 25
    w, h = sprite.size
    box = (round(w * 0.3), round(h * 0.25), round(w * 0.7), round(h * 0.8))  # inside the outline
    return [
        abs(_grey(sprite.getpixel((x, y))) - fill) > apart for y in range(box[1], box[3]) for x in range(box[0], box[2])
    ]


def _mark(seat: int, radius: int) -> list[bool]:
    """Which pixels of the token's inner disc are the mark (far from the seat colour)."""
    token = seat_token(seat, radius).convert("RGB")
    fill = SEAT_COLOURS[seat]
    centre, inner = token.width / 2, (radius - 4) * 0.8
    mask = []
    for y in range(token.height):
        for x in range(token.width):
            if (x + 0.5 - centre) ** 2 + (y + 0.5 - centre) ** 2 > inner**2:
                mask.append(False)
                continue
            r, g, b = token.getpixel((x, y))
            mask.append(abs(r - fill[0]) + abs(g - fill[1]) + abs(b - fill[2]) > 120)
    return mask


CJK = "山田太郎"


def _missing_box(size: int) -> Image.Image:
    """What DejaVu draws for a character it lacks (its 'missing glyph' box)."""
    face = ImageFont.truetype(FONT_DIR / "DejaVuSans.ttf", size, layout_engine=ImageFont.Layout.BASIC)
    image = Image.new("L", (60, 40))
    ImageDraw.Draw(image).text((5, 5), "\U0010fffd", fill=255, font=face)
    return image


def _drawn(words: str, size: int = 20) -> Image.Image:
    image = Image.new("RGB", (400, 40))
    text(ImageDraw.Draw(image), (5, 5), words, size, (255, 255, 255))
    return image.convert("L")


@pytest.fixture
def no_fallback(monkeypatch: pytest.MonkeyPatch) -> object:
    """A machine without Noto (BOARD_FONTS empty): only DejaVu."""
    monkeypatch.setenv("BOARD_FONTS", "")
    for cached in (fallback_files, draw._has, length):
        cached.cache_clear()
    yield None
    monkeypatch.delenv("BOARD_FONTS")
    for cached in (fallback_files, draw._has, length):
        cached.cache_clear()


def test_without_a_fallback_font_a_name_dejavu_cannot_draw_becomes_a_readable_stand_in(no_fallback: object) -> None:
    caption = Caption(names=(CJK, "alice 🙂", "🙂🙂", "Zoë Ωmega"))
    assert [caption.name(seat) for seat in range(4)] == ["Player 1", "alice", "Player 3", "Zoë Ωmega"]
    assert drawable(f"{CJK} vs bob") == " vs bob"
    # nothing drawn is ever the missing-glyph box: the characters are left out
    assert _drawn(CJK).getbbox() is None
    assert _drawn(f"a{CJK}b").getbbox() == _drawn("ab").getbbox()
    assert length(CJK, 15) == 0


@pytest.mark.skipif(
    not fallback_files(False), reason="no fallback font here (Debian: apt install fonts-noto-cjk); .ci/run installs it"
)
def test_with_noto_installed_cjk_names_are_drawn_in_it_not_as_boxes() -> None:
    assert Caption(names=(CJK,)).name(0) == CJK
    parts = runs(f"alice {CJK}!", 15)
    assert [part for _, part in parts] == ["alice ", CJK, "!"]
    assert parts[1][0].path != parts[0][0].path  # the CJK run is in the fallback font
    inked = _drawn(CJK)
    assert inked.getbbox() is not None
    # each character drawn differs from the box DejaVu would have drawn
    box = _missing_box(20).crop(_missing_box(20).getbbox())
    for char in CJK:
        glyph = _drawn(char)
        assert glyph.crop(glyph.getbbox()).tobytes() != box.tobytes()
    assert length(CJK, 15) > 40


THAI = "สมชาย ใจดี"


@pytest.mark.skipif(
    not any("Thai" in path.name for path in fallback_files(False)),
    reason="no Thai font here (Debian: apt install fonts-noto-core); .ci/run installs it",
)
def test_with_notos_core_fonts_a_thai_name_is_drawn_not_replaced() -> None:
    assert Caption(names=(THAI,)).name(0) == THAI  # not "Player 1"
    parts = runs(f"bob {THAI}", 15)
    assert "".join(part for _, part in parts) == f"bob {THAI}"
    assert any("Thai" in str(face.path) for face, _ in parts)
    assert _drawn(THAI).getbbox() is not None and length(THAI, 15) > 30
