"""Pixel probes for the renderer tests: count a colour in a box, find the panel's seat boxes, measure text ink.

They let a test say where a marker is drawn and in what colour, rather than only that the image changed.
Boxes are (left, top, right, bottom) with right and bottom excluded, as `Image.crop` takes them. The side
panel's parts are found on its layout (renderers/panel.py `lay_out`): `cards`, `texts_in`, `name_text`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest
from PIL import Image, ImageChops

from renderers.draw import PANEL, PANEL_BOX, Colour
from renderers.panel import Layout, PlacedText, Strip

Box = tuple[int, int, int, int]

SEAT_BOX_MIN = 40
"""A seat's box in a panel is at least this tall; text lines, pills and banners are shorter."""
CORNER = 8
"""`rounded_box` corners: frame strips leave this much out at each end."""
BORDER = 3
"""`rounded_box`'s border width for the seat to move."""


def rgb(data: bytes) -> Image.Image:
    """A rendered PNG, decoded to RGB."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def mask(image: Image.Image, box: Box, colour: Colour, tolerance: int = 0) -> Image.Image:
    """An L image of `box`: 255 where the pixel is within `tolerance` of `colour` on every channel, else 0."""
    crop = image.crop(box)
    red, green, blue = ImageChops.difference(crop, Image.new("RGB", crop.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda v: 255 if v <= tolerance else 0)


def count(image: Image.Image, box: Box, colour: Colour, tolerance: int = 0) -> int:
    """How many pixels in `box` are within `tolerance` of `colour` (on every channel)."""
    return mask(image, box, colour, tolerance).histogram()[255]


def area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def same(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return a.crop(box).tobytes() == b.crop(box).tobytes()


def seat_boxes(image: Image.Image, left: int, right: int, seats: int | None = None) -> list[Box]:
    """The seat boxes of a panel whose boxes run from x `left` to x `right` (both drawn), top to bottom.

    Found down the column 4 px inside the right edge (inside a border, clear of scores and pills): each run
    of at least SEAT_BOX_MIN rows that is not the panel's background and is mostly box fill is one box; its
    top and bottom are then read in the middle of the box, past the rounded corners. With `seats`, there
    must be exactly that many.
    """
    x, mid = right - 4, (left + right) // 2
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for y in range(image.height + 1):
        inside = y < image.height and image.getpixel((x, y)) != PANEL
        if inside and start is None:
            start = y
        elif not inside and start is not None:
            runs.append((start, y))
            start = None
    boxes: list[Box] = []
    for top, bottom in runs:
        if bottom - top < SEAT_BOX_MIN:
            continue
        if count(image, (x, top, x + 1, bottom), PANEL_BOX) * 2 < bottom - top:
            continue  # a filled bar of another colour, such as a result box
        while top > 0 and image.getpixel((mid, top - 1)) != PANEL:
            top -= 1
        while bottom < image.height and image.getpixel((mid, bottom)) != PANEL:
            bottom += 1
        boxes.append((left, top, right + 1, bottom))
    assert seats is None or len(boxes) == seats, boxes
    return boxes


def frame(box: Box, width: int = BORDER) -> list[Box]:
    """The four straight strips of a box's border, `width` px deep, without the rounded corners."""
    left, top, right, bottom = box
    return [
        (left + CORNER, top, right - CORNER, top + width),
        (left + CORNER, bottom - width, right - CORNER, bottom),
        (left, top + CORNER, left + width, bottom - CORNER),
        (right - width, top + CORNER, right, bottom - CORNER),
    ]


def frame_share(image: Image.Image, box: Box, colour: Colour) -> float:
    """The share of a box's border strips that is exactly `colour`: 1.0 for a box bordered in it."""
    strips = frame(box)
    return sum(count(image, strip, colour) for strip in strips) / sum(area(strip) for strip in strips)


def ink_bounds(image: Image.Image, box: Box, colour: Colour, tolerance: int = 24) -> Box | None:
    """The bounding box (in image coordinates) of the pixels in `box` near `colour`, or None if there are none."""
    bounds = mask(image, box, colour, tolerance).getbbox()
    if bounds is None:
        return None
    return bounds[0] + box[0], bounds[1] + box[1], bounds[2] + box[0], bounds[3] + box[1]


def ink_right(image: Image.Image, box: Box, colour: Colour, tolerance: int = 24) -> int:
    """The x just right of the last pixel near `colour` in `box` (its left edge if there is none)."""
    bounds = ink_bounds(image, box, colour, tolerance)
    return box[0] if bounds is None else bounds[2]


# --- the side panel, as laid out ---


def cards(layout: Layout) -> list[tuple[Box, Colour | None]]:
    """The seat cards of a laid-out panel, top to bottom: each card's box as `Image.crop` takes it (a rounded
    box is drawn on its right and bottom edges too, so those are one more) and its border (None: no border)."""
    return [((x0, y0, x1 + 1, y1 + 1), border) for (x0, y0, x1, y1), fill, border in layout.boxes if fill == PANEL_BOX]


def inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def texts_in(layout: Layout, box: Box) -> list[PlacedText]:
    """The laid-out texts whose boxes lie inside `box`, in layout order."""
    return [placed for placed in layout.texts if inside(placed.box, box)]


def name_text(layout: Layout, box: Box, name: str) -> PlacedText:
    """The name line of the seat card at `box`: its one text that starts with the seat's name."""
    (found,) = [placed for placed in texts_in(layout, box) if placed.words.startswith(name)]
    return found


def strip_box(layout: Layout, strip: Strip) -> Box:
    """Where a panel strip (a row of sprites, such as dice) was laid out, as `Image.crop` takes it."""
    (found,) = [box for placed, box in layout.strips if placed is strip]
    return found[0], found[1], found[2] + 1, found[3] + 1


def shown_whole(placed: PlacedText) -> bool:
    """A laid-out text's lines hold every character of its words (wrapping only drops the spaces)."""
    return "".join("".join(placed.lines).split()) == "".join(placed.words.split())


def check_the_mover(
    image: Image.Image, layout: Layout, names: Sequence[str], mover: int | None, colour: Colour
) -> None:
    """The seat cards of `layout`, painted on `image`, mark seat `mover` (None: nobody) and no other: its
    card alone has a border, in `colour`, painted on every straight edge of the laid-out box, and its name
    alone ends in " ▶"; every other card is unbordered (its edges all box fill) and its name has no ▶."""
    laid = cards(layout)
    assert len(laid) == len(names), laid
    for seat, (box, border) in enumerate(laid):
        name = name_text(layout, box, names[seat]).words
        if seat == mover:
            assert border == colour, seat
            assert frame_share(image, box, colour) == 1.0, seat
            assert name.endswith("\u00a0▶"), (seat, name)  # a no-break space: ▶ never wraps alone
        else:
            assert border is None, seat
            assert frame_share(image, box, PANEL_BOX) == 1.0, seat
            assert "▶" not in name, (seat, name)
    assert not any("▶" in placed.words for placed in layout.texts if not any(inside(placed.box, b) for b, _ in laid))


def words_drawn(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[str]:
    """Every text `module` draws from now on (its `text` recorded, then drawn as ever), in order."""
    drawn: list[str] = []
    real = module.text

    def recording(*args: Any, **kwargs: Any) -> None:
        drawn.append(args[2])
        real(*args, **kwargs)

    monkeypatch.setattr(module, "text", recording)
    return drawn
