"""A slow, obviously-correct generator of legal Themiscyra turns, written from shared/rules/themiscyra.md.

Nothing here uses the engine's internals: a position is three sets of (column, row) squares (0-based, a1 is
(0, 0)) plus the seat to move, read from the engine's public `dumps` text. Clear lines are checked by walking
the squares between the two stones, and open areas are found by a plain BFS flood fill, recomputed from
scratch for every stone placement (after the two stones are placed).
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from dataclasses import dataclass

SIZE = 10
COLUMNS = "abcdefghij"
RINGS = 8
BOARD = frozenset((c, r) for c in range(SIZE) for r in range(SIZE))
STEPS8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

Square = tuple[int, int]


def name(square: Square) -> str:
    col, row = square
    return f"{COLUMNS[col]}{row + 1}"


def square(text: str) -> Square:
    return COLUMNS.index(text[0]), int(text[1:]) - 1


def _neighbours(sq: Square) -> frozenset[Square]:
    col, row = sq
    return frozenset((col + dc, row + dr) for dc, dr in STEPS8 if (col + dc, row + dr) in BOARD)


NEIGHBOURS = {sq: _neighbours(sq) for sq in BOARD}


def neighbours(sq: Square) -> frozenset[Square]:
    """The up to 8 squares touching `sq` (rules: "adjacent" is 8-adjacency)."""
    return NEIGHBOURS[sq]


@dataclass(frozen=True)
class Position:
    black: frozenset[Square]
    white: frozenset[Square]
    rings: frozenset[Square]
    turn: int | None

    @property
    def empty(self) -> frozenset[Square]:
        return BOARD - self.black - self.white


def position_of(dumped: str) -> Position:
    """The position in an engine `dumps` text (only its public JSON fields are read)."""
    data = json.loads(dumped)

    def squares(text: str) -> frozenset[Square]:
        return frozenset(square(n) for n in text.split())

    return Position(squares(data["black"]), squares(data["white"]), squares(data["rings"]), data["turn"])


def clear_line(a: Square, b: Square, empty: frozenset[Square] | set[Square]) -> bool:
    """a and b share a row, column or diagonal and every square strictly between them is empty."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if (dc, dr) == (0, 0) or not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
        return False
    step = ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))
    at = (a[0] + step[0], a[1] + step[1])
    while at != b:
        if at not in empty:
            return False
        at = (at[0] + step[0], at[1] + step[1])
    return True


def open_areas(empty: set[Square] | frozenset[Square]) -> list[set[Square]]:
    """Groups of two or more 8-connected empty squares, by BFS flood fill."""
    seen: set[Square] = set()
    areas = []
    for start in sorted(empty):
        if start in seen:
            continue
        group = {start}
        queue = deque([start])
        while queue:
            for nxt in neighbours(queue.popleft()):
                if nxt in empty and nxt not in group:
                    group.add(nxt)
                    queue.append(nxt)
        seen |= group
        if len(group) >= 2:
            areas.append(group)
    return areas


def canonical_pair(a: Square, b: Square) -> tuple[Square, Square]:
    """Stones ordered by column, then row: (col, row) tuples sort exactly that way."""
    return (a, b) if a <= b else (b, a)


def stone_pairs(pos: Position) -> list[tuple[Square, Square]]:
    """Every placement of two stones allowed by the line rule, in canonical order."""
    empty = pos.empty
    return [canonical_pair(a, b) for a, b in itertools.combinations(sorted(empty), 2) if clear_line(a, b, empty)]


def touches(sq: Square, area: set[Square]) -> bool:
    return bool(neighbours(sq) & area)


def legal_turns(pos: Position) -> set[str]:
    """Every legal turn of the seat to move, as canonical turn strings."""
    if pos.turn is None:
        return set()
    out = set()
    own = pos.black if pos.turn == 0 else pos.white
    setup = len(pos.rings) < RINGS
    for a, b in stone_pairs(pos):
        stones = f"{name(a)} {name(b)}"
        if setup:
            out |= {f"{stones} @{name(a)}", f"{stones} @{name(b)}"}
            continue
        areas = open_areas(set(pos.empty) - {a, b})  # from scratch, after the two stones are placed
        for ring in pos.rings & own:
            for end in (a, b):
                if any(touches(ring, area) and touches(end, area) for area in areas):
                    out.add(f"{stones} {name(ring)}>{name(end)}")
    return out
