"""Helpers to build readable "1, 2, 3" positions, and the board geometry re-derived from fish.md.

The geometry here is written from the rules text, independently of the engine, so tests can compare the
two: rows A, C, E, G hold 8 tiles, B, D, F, H hold 7 and sit half a tile to the right. In "doubled"
coordinates a tile is (x, y) with y the row (0 = A) and x = 2 * column + (1 on the short rows); the six
straight directions are then fixed steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games.fish import FISH, FishState

ROWS = "ABCDEFGH"
LENGTHS = {row: 8 if i % 2 == 0 else 7 for i, row in enumerate(ROWS)}
NAMES = tuple(f"{row}{c}" for row in ROWS for c in range(1, LENGTHS[row] + 1))
INDEX = {name: i for i, name in enumerate(NAMES)}
STEPS = {"E": (2, 0), "W": (-2, 0), "NE": (1, -1), "NW": (-1, -1), "SE": (1, 1), "SW": (-1, 1)}

BACKGROUND = {f"{row}{c}": 1 for row in "ABC" for c in range(1, LENGTHS[row] + 1)}
"""Rows A to C full of 1-tiles (23 tiles): a region big enough never to be solved as an island."""


def board(tiles: Mapping[str, int], fill: int = 0) -> str:
    """60 digits with the named tiles set and every other tile `fill` (0: a gap)."""
    digits = [fill] * len(NAMES)
    for name, worth in tiles.items():
        digits[INDEX[name.upper()]] = worth
    return "".join(map(str, digits))


def position(
    tiles: Mapping[str, int],
    mine: Iterable[str] = (),
    theirs: Iterable[str] = (),
    *,
    turn: int | None = 0,
    scores: tuple[int, int] = (0, 0),
    fill: int = 0,
) -> FishState:
    """A move-phase position: `mine` are seat 0's token tiles, `theirs` seat 1's."""
    return FISH.state_from_position(board(tiles, fill), (tuple(mine), tuple(theirs)), turn=turn, scores=scores)


def value(state: FishState, name: str) -> int:
    return state.values[INDEX[name]]


def tokens(state: FishState, seat: int) -> set[str]:
    return {NAMES[t] for t in state.tokens[seat]}


def xy(name: str) -> tuple[int, int]:
    row, col = ROWS.index(name[0]), int(name[1:]) - 1
    return 2 * col + row % 2, row


def at(x: int, y: int) -> str | None:
    if not 0 <= y < len(ROWS) or (x - y % 2) % 2:
        return None
    col = (x - y % 2) // 2
    row = ROWS[y]
    return f"{row}{col + 1}" if 0 <= col < LENGTHS[row] else None


def line(name: str, direction: str) -> list[str]:
    """The tiles from `name` (excluded) to the board edge in one direction, nearest first."""
    (x, y), (dx, dy) = xy(name), STEPS[direction]
    out = []
    while (nxt := at(x + dx, y + dy)) is not None:
        out.append(nxt)
        x, y = x + dx, y + dy
    return out


def rule_neighbours(name: str) -> set[str]:
    """Neighbours exactly as fish.md words them (same row c-1 and c+1; other rows c-1/c or c/c+1)."""
    row, c = ROWS.index(name[0]), int(name[1:])
    found = {f"{ROWS[row]}{c - 1}", f"{ROWS[row]}{c + 1}"}
    for other in (row - 1, row + 1):
        if 0 <= other < len(ROWS):
            cols = (c - 1, c) if LENGTHS[ROWS[row]] == 8 else (c, c + 1)
            found |= {f"{ROWS[other]}{k}" for k in cols}
    return {n for n in found if n in INDEX}


def reachable(name: str, present: set[str], occupied: set[str]) -> list[str]:
    """Every tile a token on `name` may move to: straight lines over present, unoccupied tiles."""
    out = []
    for direction in STEPS:
        for nxt in line(name, direction):
            if nxt not in present or nxt in occupied:
                break
            out.append(nxt)
    return out
