"""Where overlays go: a mark that explains the board (a step number, a badge) never hides a piece.

The last move itself is no overlay: every game tints its squares under the pieces, as lichess does
(`renderers.draw.tint`). What is drawn over the board follows one rule, `place`:

- An overlay box (a label, a badge) goes at the first of its candidate positions, in the renderer's order
  of preference, whose box intersects no *blocked* box (the pieces' boxes, and what must stay readable
  beside them) and no box to *avoid* (other overlays). If every candidate meets something to avoid, it
  goes at the first one clear of the blocked boxes; if every candidate covers a piece, at the one that
  covers the least area of them (the earliest among equals). Volcano's step numbers are placed so.

Boxes are (left, top, right, bottom) in image pixels, right and bottom excluded as `Image.crop` takes them,
so boxes that only touch do not intersect. Everything here is pure arithmetic: renderers compute their
overlays' places from the state with it, and tests check the same places.
"""

from __future__ import annotations

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


__all__ = ["Box", "box_at", "grow", "intersects", "overlap", "place"]
