"""Where overlays go: a mark that explains the board (a step number, a badge, an arrow) never hides a piece.

The rule, shared by the renderers that draw such marks (Volcano, Geyser, Horizon):

- An overlay box (a label, a badge) goes at the first of its candidate positions, in the renderer's order
  of preference, whose box intersects no *blocked* box (the pieces' boxes, and what must stay readable
  beside them) and no box to *avoid* (other overlays, such as arrows). If every candidate meets something
  to avoid, it goes at the first one clear of the blocked boxes; if every candidate covers a piece, at the
  one that covers the least area of them (the earliest among equals). `place` is that rule.
- An arrow runs only where no piece is: `trim` cuts its centre line where it leaves the box of the piece
  it starts from and where it enters the box of the piece it points at, so it starts off the one and stops
  at the other's edge. Where that leaves too little, the renderer moves the arrow (Geyser: beside the
  step, chosen by `place`) or lets it grow back over the square it came from (Volcano), never over the
  piece it points at.

Boxes are (left, top, right, bottom) in image pixels, right and bottom excluded as `Image.crop` takes them,
so boxes that only touch do not intersect. Everything here is pure arithmetic: renderers compute their
overlays' places from the state with it, and tests check the same places.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Box = tuple[float, float, float, float]
Point = tuple[float, float]


def box_at(centre: Point, width: float, height: float | None = None) -> Box:
    """The box of `width` x `height` (square if no height) centred on `centre`."""
    half_w, half_h = width / 2, (width if height is None else height) / 2
    return centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h


def grow(box: Box, margin: float) -> Box:
    """`box` with `margin` more on every side (less, for a negative margin)."""
    return box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin


def intersects(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def place(candidates: Iterable[Box], blocked: Sequence[Box], avoid: Sequence[Box] = ()) -> Box:
    """The first candidate clear of `blocked` and `avoid`, else the first clear of `blocked`, else the one
    covering the least area of `blocked` (the earliest among equals). There must be a candidate."""
    first_clear: Box | None = None
    least: tuple[float, Box] | None = None
    for box in candidates:
        covered = sum(overlap(box, other) for other in blocked if intersects(box, other))
        if covered == 0:
            if not any(intersects(box, other) for other in avoid):
                return box
            first_clear = first_clear or box
        elif first_clear is None and (least is None or covered < least[0]):
            least = (covered, box)
    if first_clear is not None:
        return first_clear
    if least is None:
        raise ValueError("place() needs at least one candidate")
    return least[1]


def _crossing(start: Point, end: Point, box: Box) -> tuple[float, float] | None:
    """Where the segment start-end is inside `box`, as fractions (t_in, t_out) of its length, or None."""
    low, high = 0.0, 1.0
    for axis in (0, 1):
        origin, delta = start[axis], end[axis] - start[axis]
        lo, hi = box[axis], box[axis + 2]
        if delta == 0:
            if not lo < origin < hi:
                return None
            continue
        a, b = (lo - origin) / delta, (hi - origin) / delta
        low, high = max(low, min(a, b)), min(high, max(a, b))
    return (low, high) if low < high else None


def trim(start: Point, end: Point, blocked: Iterable[Box], gap: float = 0.0) -> tuple[float, float]:
    """How far along start-end (fractions 0-1) an arrow from `start` to `end` may run without crossing a
    blocked box grown by `gap`: a box the line crosses mostly in its first half (the piece it starts from)
    pushes the tail past it, one crossed mostly in its second half (the piece it points at, its badge)
    pulls the tip back before it. The span may come out empty (low >= high) between boxes that close."""
    low, high = 0.0, 1.0
    reach = grow((min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]), max(start[1], end[1])), gap)
    for box in blocked:
        if not (box[0] <= reach[2] and reach[0] <= box[2] and box[1] <= reach[3] and reach[1] <= box[3]):
            continue  # nowhere near the line
        inside = _crossing(start, end, grow(box, gap))
        if inside is None:
            continue
        if inside[0] + inside[1] < 1:
            low = max(low, inside[1])
        else:
            high = min(high, inside[0])
    return low, high


def arrow_box(start: Point, end: Point, shaft: float, head_width: float, head_length: float, rim: float) -> Box:
    """The box an arrow painted by renderers.draw (`arrow`, `arrow_layer`) inks: its seven corners, grown by
    its rim (the outline drawn around them) and a pixel of anti-aliasing."""
    length = math.dist(start, end) or 1.0
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    px, py = -uy, ux
    head_length = min(head_length, length)
    base = (end[0] - ux * head_length, end[1] - uy * head_length)
    corners = [end]
    for (x, y), half in ((start, shaft / 2), (base, head_width / 2)):
        corners += [(x + px * half, y + py * half), (x - px * half, y - py * half)]
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return grow((min(xs), min(ys), max(xs), max(ys)), rim + 1)


def line_boxes(start: Point, end: Point, width: float, step: float = 8.0) -> list[Box]:
    """Squares of side `width` centred every `step` px from `start` to `end`: a slanted arrow's shaft as
    boxes, which its one bounding box would overstate."""
    count = max(1, math.ceil(math.dist(start, end) / step))
    return [
        box_at((start[0] + (end[0] - start[0]) * k / count, start[1] + (end[1] - start[1]) * k / count), width)
        for k in range(count + 1)
    ]


def head_box(start: Point, end: Point, head_width: float, head_length: float, rim: float) -> Box:
    """The box of an arrow's head alone (what a label should not hide)."""
    length = math.dist(start, end) or 1.0
    k = min(head_length, length) / length
    base = (end[0] - (end[0] - start[0]) * k, end[1] - (end[1] - start[1]) * k)
    return arrow_box(base, end, head_width, head_width, head_length, rim)


__all__ = ["Box", "arrow_box", "box_at", "grow", "head_box", "intersects", "line_boxes", "overlap", "place", "trim"]
