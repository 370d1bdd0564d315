"""Pixel probes for the renderer tests: count a colour in a box, find the panel's seat boxes, measure text ink.

They let a test say where a marker is drawn and in what colour, rather than only that the image changed.
Boxes are (left, top, right, bottom) with right and bottom excluded, as `Image.crop` takes them.
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from renderers.draw import PANEL, PANEL_BOX

Box = tuple[int, int, int, int]
Colour = tuple[int, int, int]

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
