"""Computer player for "1, 2, 3" (Hey, That's My Fish!): a fast search model and a greedy opponent.

The search (bot/ai/mcts.py) sees a `FishPos`: the board as a bitmask over a padded axial grid (row r,
axial column q sits at bit r * 12 + q + 3), so the six straight lines are fixed shifts (E +1, W -1,
NE -11, NW -12, SE +12, SW +11). Tokens stay tile indices 0..59 as in the engine. Moves are ints:
a placement is its tile, a move is `(src + 1) * 64 + dst`.

`apply` follows the engine exactly (stuck tokens, islands of one player solved with the engine's own
`solve_island`, cached), so scores, tokens, whose turn and the end of the game agree with `FISH.play`.
Playouts approximate: they finish the placement with a cheap heuristic, play a few plies with an
epsilon-greedy policy in which stuck tokens are removed but islands are not settled, and then judge the
position by the scores plus a Voronoi count (tiles each player reaches first in fewer moves).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar

from bot.ai.model import PublicModel
from bot.games.fish import (
    FISH,
    ISLAND_LIMIT,
    NEIGHBOURS,
    RAYS,
    TILE_NAMES,
    TILES,
    TOKENS_PER_PLAYER,
    FishState,
    _axial,
    solve_island,
)

WIDTH = 12
"""Bits per row of the padded grid: axial q + 3 runs 0..10, bit 11 stays empty so shifts never wrap."""
BIT = tuple(1 << (_axial(t)[1] * WIDTH + _axial(t)[0] + 3) for t in range(TILES))
TILE_OF_BIT = {b.bit_length() - 1: t for t, b in enumerate(BIT)}
RAY_STEPS = tuple(tuple(tuple((n, BIT[n]) for n in ray) for ray in RAYS[t] if ray) for t in range(TILES))
"""RAY_STEPS[t]: for each direction with a tile, the (tile, bit) pairs along it, nearest first."""
FIRST_STEPS = tuple(tuple(ray[0][1] for ray in RAY_STEPS[t]) for t in range(TILES))
PLACING_PLIES = 2 * TOKENS_PER_PLAYER


def _grow(mask: int) -> int:
    """`mask` and every tile next to it (before masking with the tiles left)."""
    return mask | mask << 1 | mask >> 1 | mask >> 11 | mask >> 12 | mask << 11 | mask << 12


def _reach(frontier: int, empty: int) -> int:
    """Every empty tile one straight move from a tile of `frontier` (tokens on the way block)."""
    acc = 0
    g = frontier
    while g := (g << 1) & empty:
        acc |= g
    g = frontier
    while g := (g >> 1) & empty:
        acc |= g
    g = frontier
    while g := (g >> 11) & empty:
        acc |= g
    g = frontier
    while g := (g >> 12) & empty:
        acc |= g
    g = frontier
    while g := (g << 11) & empty:
        acc |= g
    g = frontier
    while g := (g << 12) & empty:
        acc |= g
    return acc


_ISLANDS: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}
"""Solved islands, shared by every search: (tiles mask, their values, tokens) -> (total, tiles collected)."""


def _solve(mask: int, values: Sequence[int], mine: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The engine's award for an island: its total and the tiles it removes (the same line as the engine)."""
    tiles = []
    m = mask
    while m:
        low = m & -m
        tiles.append(TILE_OF_BIT[low.bit_length() - 1])
        m ^= low
    tiles.sort()
    key = (mask, tuple(values[t] for t in tiles), mine)
    hit = _ISLANDS.get(key)
    if hit is None:
        total, line, finals = solve_island({t: values[t] for t in tiles}, mine)
        if len(_ISLANDS) > 50_000:
            _ISLANDS.clear()
        hit = _ISLANDS[key] = (total, tuple(a for a, _ in line) + tuple(finals))
    return hit


class FishPos:
    """One position as the search sees it. `values` is the board as the root saw it: a tile counts only
    while its bit is in `alive`."""

    __slots__ = ("_moves", "alive", "first", "placed", "scores", "tokens", "turn", "values")

    def __init__(
        self,
        values: tuple[int, ...],
        alive: int,
        tokens: tuple[tuple[int, ...], tuple[int, ...]],
        scores: tuple[int, int],
        placed: tuple[int, int],
        first: int,
        turn: int | None,
    ) -> None:
        self.values = values
        self.alive = alive
        self.tokens = tokens
        self.scores = scores
        self.placed = placed
        self.first = first
        self.turn = turn
        self._moves: list[int] | None = None

    @classmethod
    def from_state(cls, state: FishState) -> FishPos:
        alive = 0
        for t in range(TILES):
            if state.values[t]:
                alive |= BIT[t]
        tokens = (tuple(sorted(state.tokens[0])), tuple(sorted(state.tokens[1])))
        return cls(state.values, alive, tokens, state.scores, state.placed, state.first, state.turn)

    @property
    def placing(self) -> bool:
        return self.placed[0] + self.placed[1] < PLACING_PLIES

    def occupied(self) -> int:
        occ = 0
        for side in self.tokens:
            for t in side:
                occ |= BIT[t]
        return occ


def _settle(values: tuple[int, ...], alive: int, tokens: list[list[int]], scores: list[int]) -> int:
    """The engine's `_settle` on bitmasks: remove stuck tokens, award one-player islands (mutates
    `tokens` and `scores`, returns the tiles left)."""
    while True:
        occ = 0
        for side in tokens:
            for t in side:
                occ |= BIT[t]
        free = alive & ~occ
        changed = False
        for seat in (0, 1):
            for t in list(tokens[seat]):
                for b in FIRST_STEPS[t]:
                    if free & b:
                        break
                else:
                    tokens[seat].remove(t)
                    scores[seat] += values[t]
                    alive &= ~BIT[t]
                    changed = True
        if changed:
            continue
        seen = 0
        for seat in (0, 1):
            for t in tokens[seat]:
                if seen & BIT[t]:
                    continue
                comp = BIT[t]
                while (grown := _grow(comp) & alive) != comp:
                    comp = grown
                seen |= comp
                if comp.bit_count() > ISLAND_LIMIT:
                    continue
                if any(comp & BIT[u] for u in tokens[1 - seat]):
                    continue
                mine = tuple(sorted(u for u in tokens[seat] if comp & BIT[u]))
                total, collected = _solve(comp, values, mine)
                changed = True
                scores[seat] += total
                for u in mine:
                    tokens[seat].remove(u)
                for u in collected:
                    alive &= ~BIT[u]
        if not changed:
            return alive


class FishModel(PublicModel):
    """The search's view of Fish: exact `apply`, fast approximate playouts judged by a Voronoi count."""

    iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 1000, "hard": 20_000}
    depth = 4
    """Move plies a playout plays (after finishing the placement) before the position is judged."""
    epsilon = 0.25
    """Share of playout moves chosen uniformly; the rest take the best of a few by the fish they grab."""
    spread = 4.0
    """Fish difference that makes a judged position worth about 73% (logistic scale)."""

    def __init__(self) -> None:
        super().__init__(FISH)
        self._cache: tuple[object, FishPos] | None = None

    # The model protocol -------------------------------------------------------------------------

    def determinize(self, view: FishState, seat: int, rng: random.Random) -> FishPos:
        """Nothing is hidden but the seed, which the model never reads: the position is the view."""
        cached = self._cache
        if cached is not None and cached[0] is view:
            return cached[1]
        pos = FishPos.from_state(view)
        self._cache = (view, pos)
        return pos

    def to_move(self, position: FishPos) -> int | None:
        return position.turn

    def moves(self, position: FishPos) -> list[int]:
        if position._moves is not None:
            return position._moves
        found: list[int] = []
        seat = position.turn
        if seat is not None:
            occ = position.occupied()
            if position.placing:
                values = position.values
                found = [t for t in range(TILES) if values[t] == 1 and not occ & BIT[t] and position.alive & BIT[t]]
            else:
                free = position.alive & ~occ
                for src in position.tokens[seat]:
                    base = (src + 1) * 64
                    for ray in RAY_STEPS[src]:
                        for dst, b in ray:
                            if not free & b:
                                break
                            found.append(base + dst)
        position._moves = found
        return found

    def apply(self, position: FishPos, move: int) -> FishPos:
        seat = position.turn
        assert seat is not None
        tokens = [list(position.tokens[0]), list(position.tokens[1])]
        scores = list(position.scores)
        alive = position.alive
        values = position.values
        if move < 64:
            tokens[seat].append(move)
            placed = (position.placed[0] + (seat == 0), position.placed[1] + (seat == 1))
            if placed[0] + placed[1] < PLACING_PLIES:
                turn: int | None = 1 - seat
            else:
                alive = _settle(values, alive, tokens, scores)
                first = position.first
                turn = first if tokens[first] else (1 - first if tokens[1 - first] else None)
        else:
            placed = position.placed
            src, dst = move // 64 - 1, move % 64
            side = tokens[seat]
            side[side.index(src)] = dst
            scores[seat] += values[src]
            alive &= ~BIT[src]
            alive = _settle(values, alive, tokens, scores)
            turn = 1 - seat if tokens[1 - seat] else (seat if tokens[seat] else None)
        return FishPos(
            values,
            alive,
            (tuple(sorted(tokens[0])), tuple(sorted(tokens[1]))),
            (scores[0], scores[1]),
            placed,
            position.first,
            turn,
        )

    def notation(self, position: FishPos, move: int) -> str:
        if move < 64:
            return TILE_NAMES[move]
        return f"{TILE_NAMES[move // 64 - 1]}-{TILE_NAMES[move % 64]}"

    # Playouts -----------------------------------------------------------------------------------

    def playout(self, position: FishPos, rng: random.Random) -> Sequence[float]:
        values = position.values
        scores = list(position.scores)
        if position.turn is None:
            return _result(scores)
        tokens = [list(position.tokens[0]), list(position.tokens[1])]
        alive = position.alive
        occ = position.occupied()
        seat = position.turn
        if position.placing:
            placed = list(position.placed)
            spots = [t for t in range(TILES) if values[t] == 1 and not occ & BIT[t]]
            while placed[0] + placed[1] < PLACING_PLIES:
                best = -1
                pick = 0
                for _ in range(3):  # best of three random spots by the fish around them
                    k = rng.randrange(len(spots))
                    t = spots[k]
                    around = sum(values[n] for n in NEIGHBOURS[t] if not occ & BIT[n])
                    if around > best:
                        best, pick = around, k
                t = spots.pop(pick)
                tokens[seat].append(t)
                occ |= BIT[t]
                placed[seat] += 1
                seat = 1 - seat
            seat = position.first
        epsilon = self.epsilon
        plies = 0
        while plies < self.depth:
            free = alive & ~occ
            options: list[tuple[int, int]] = []
            side = tokens[seat]
            for src in list(side):
                before = len(options)
                for ray in RAY_STEPS[src]:
                    for dst, b in ray:
                        if not free & b:
                            break
                        options.append((src, dst))
                if len(options) == before:  # stuck: removed, its tile scored
                    side.remove(src)
                    scores[seat] += values[src]
                    alive &= ~BIT[src]
                    occ &= ~BIT[src]
            if not options:
                if not tokens[1 - seat]:
                    return _result(scores)
                seat = 1 - seat
                continue
            if rng.random() < epsilon:
                src, dst = options[rng.randrange(len(options))]
            else:
                src, dst = options[rng.randrange(len(options))]
                gain = values[src] + values[dst]
                for _ in range(2):
                    a, b = options[rng.randrange(len(options))]
                    if values[a] + values[b] > gain:
                        src, dst, gain = a, b, values[a] + values[b]
            side[side.index(src)] = dst
            scores[seat] += values[src]
            alive &= ~BIT[src]
            occ = occ & ~BIT[src] | BIT[dst]
            plies += 1
            if tokens[1 - seat]:
                seat = 1 - seat
        return self._judge(values, alive, occ, tokens, scores)

    def _judge(
        self, values: tuple[int, ...], alive: int, occ: int, tokens: list[list[int]], scores: list[int]
    ) -> tuple[float, float]:
        """Scores so far, plus the tiles under each player's tokens, plus the tiles each reaches in fewer
        moves than the other (ties split), squashed into a win chance per seat."""
        empty = alive & ~occ
        mine = [0, 0]
        lead = float(scores[0] - scores[1])
        for seat in (0, 1):
            for t in tokens[seat]:
                mine[seat] |= BIT[t]
                lead += values[t] if seat == 0 else -values[t]
        seen0, seen1 = mine
        f0, f1 = seen0, seen1
        own0 = own1 = tied = 0
        while f0 or f1:
            n0 = _reach(f0, empty) & ~seen0 if f0 else 0
            n1 = _reach(f1, empty) & ~seen1 if f1 else 0
            a0 = n0 & ~seen1
            a1 = n1 & ~seen0
            own0 |= a0 & ~a1
            own1 |= a1 & ~a0
            tied |= a0 & a1
            seen0 |= n0
            seen1 |= n1
            f0, f1 = n0, n1
        lead += _worth(own0, values) - _worth(own1, values)
        v = 1.0 / (1.0 + math.exp(-lead / self.spread))
        return (v, 1.0 - v)


_WORTH_MASKS: dict[tuple[int, ...], tuple[int, int, int]] = {}


def _worth(mask: int, values: tuple[int, ...]) -> int:
    """Fish on the tiles of `mask` (values as the root saw them)."""
    masks = _WORTH_MASKS.get(values)
    if masks is None:
        if len(_WORTH_MASKS) > 64:
            _WORTH_MASKS.clear()
        by = [0, 0, 0, 0]
        for t in range(TILES):
            by[values[t]] |= BIT[t]
        masks = _WORTH_MASKS[values] = (by[1], by[2], by[3])
    return (mask & masks[0]).bit_count() + 2 * (mask & masks[1]).bit_count() + 3 * (mask & masks[2]).bit_count()


def _result(scores: Sequence[int]) -> tuple[float, float]:
    """A finished game: 1 for the winner, 0.5 each in a draw."""
    if scores[0] == scores[1]:
        return (0.5, 0.5)
    return (1.0, 0.0) if scores[0] > scores[1] else (0.0, 1.0)


MODEL = FishModel()


def greedy(view: FishState, seat: int, rng: random.Random) -> str:
    """One ply, no search: place on the free 1-tile with the most fish around it; move so that the fish
    taken now plus the fish of the tile landed on (taken next) are largest. Ties are broken by `rng`."""
    values = view.values
    occupied = set(view.tokens[0]) | set(view.tokens[1])
    if view.placing:
        spots = [t for t in range(TILES) if values[t] == 1 and t not in occupied]
        gains = [sum(values[n] for n in NEIGHBOURS[t] if n not in occupied) for t in spots]
        top = max(gains)
        return TILE_NAMES[rng.choice([t for t, g in zip(spots, gains, strict=True) if g == top])]
    options: list[tuple[int, int]] = []
    for src in sorted(view.tokens[seat]):
        for ray in RAYS[src]:
            for dst in ray:
                if not values[dst] or dst in occupied:
                    break
                options.append((src, dst))
    top = max(values[s] + values[d] for s, d in options)
    src, dst = rng.choice([(s, d) for s, d in options if values[s] + values[d] == top])
    return f"{TILE_NAMES[src]}-{TILE_NAMES[dst]}"
