"""The computer's model of Themiscyra (bot/games/themiscyra.py) and the arena's greedy player.

The engine lists every whole turn (up to ~6,600) as text: far too slow for a search. This model keeps a
position as five ints (black, white, rings, turn, winner) and moves as (stone, stone, ring from or None,
ring to) tuples, and leans on two facts:

- A stone pair only ever lies inside one empty group (the squares between are empty), and a turn there is
  legal only if that group has 4+ squares and touches one of the mover's rings: a ring keeps to the groups
  it touches, and groups of 2 or 3 squares are spent.
- Two stones rarely split their group (the engine's `stays_whole` tells from the squares round them), so
  most pairs need no flood fill at all.

The search sees a pruned list of turns (the best few by the evaluation after the turn, out of a sample),
plays a few cheap random turns (one stone pair and ring move drawn at a time, retried when illegal) and
judges the end by territory: each empty group split between the players by distance from their rings
(the group's squares nearer to a player's rings are turns that player can still make), the player to
move needing strictly more to win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bot.ai.model import PublicModel
from bot.games.themiscyra import (
    NEIGHBOURS,
    RAYS,
    RINGS,
    SQUARE_NAMES,
    SQUARES,
    THEMISCYRA,
    ThemiscyraState,
    _dilate,
    _order,
    _squares,
    components,
    stays_whole,
)

Position = tuple[int, int, int, int | None, int | None]
"""(black stones, white stones, rings, seat to move or None, winner or None), masks as in the engine."""
Move = tuple[int, int, int | None, int]
"""(stone, stone, ring from or None in setup, ring to), stones in canonical order."""

FULL = (1 << SQUARES) - 1
BITS = tuple(1 << s for s in range(SQUARES))
_NOT_A = sum(1 << s for s in range(SQUARES) if s % 10 != 0)
_NOT_J = sum(1 << s for s in range(SQUARES) if s % 10 != 9)


def position_of(state: ThemiscyraState) -> Position:
    """The engine's state (or a view of it: nothing is hidden) as the model's position."""
    return (state.stones[0], state.stones[1], state.rings, state.turn, state.winner)


def _group(seed: int, region: int) -> int:
    """The 8-connected group of `region` that holds `seed` (a single bit of it)."""
    group = seed
    while True:
        row = group | ((group << 1) & _NOT_A) | ((group >> 1) & _NOT_J)
        grown = (row | (row << 10) | (row >> 10)) & region
        if grown == group:
            return group
        group = grown


def _split(comp: int, a: int, b: int) -> list[int]:
    """The open areas that the empty group `comp` leaves once stones go on a and b (both inside it)."""
    left = comp & ~BITS[a] & ~BITS[b]
    if stays_whole(left, a, b):
        return [left] if left & (left - 1) else []
    return [g for g in components(left) if g & (g - 1)]


def _pairs_in(comp: int) -> list[tuple[int, int]]:
    """Every stone pair inside the empty group `comp`: on one line with only empty squares between."""
    pairs = []
    for a in _squares(comp):
        for ray in RAYS[a]:
            for b in ray:
                if not comp >> b & 1:
                    break
                pairs.append((a, b))
    return pairs


def _live_groups(empty: int, own_rings: int) -> list[int]:
    """The empty groups of 4+ squares next to these rings: the only ones a turn can be played in."""
    out = []
    pending = _dilate(own_rings) & empty
    while pending:
        comp = _group(pending & -pending, empty)
        pending &= ~comp
        if comp.bit_count() >= 4:
            out.append(comp)
    return out


def _turns_in(comp: int, a: int, b: int, rings: list[int]) -> list[Move]:
    """The legal turns with stones on a and b (inside `comp`), for the mover's rings."""
    areas = _split(comp, a, b)
    out: list[Move] = []
    if not areas:
        return out
    a, b = _order(a, b)
    na, nb = NEIGHBOURS[a], NEIGHBOURS[b]
    for r in rings:
        nr = NEIGHBOURS[r]
        if not nr & comp:
            continue
        for area in areas:
            if area & nr and area & na:
                out.append((a, b, r, a))
                break
        for area in areas:
            if area & nr and area & nb:
                out.append((a, b, r, b))
                break
    return out


def setup_of(pos: Position) -> bool:
    """Rings are still being placed."""
    return pos[2].bit_count() < RINGS


def all_turns(pos: Position) -> list[Move]:
    """Every legal turn (any order): what the engine's legal_moves lists, as tuples."""
    black, white, rings, turn, _ = pos
    if turn is None:
        return []
    empty = FULL & ~(black | white)
    out: list[Move] = []
    if rings.bit_count() < RINGS:
        for a, b in _pairs_in(empty):
            a, b = _order(a, b)
            out.append((a, b, None, a))
            out.append((a, b, None, b))
        return out
    own = rings & (black, white)[turn]
    mine = _squares(own)
    for comp in _live_groups(empty, own):
        for a, b in _pairs_in(comp):
            out.extend(_turns_in(comp, a, b, mine))
    return out


def can_move(pos: Position) -> bool:
    """Whether the seat to move can complete a turn (stops at the first one)."""
    black, white, rings, turn, _ = pos
    if turn is None:
        return False
    empty = FULL & ~(black | white)
    if rings.bit_count() < RINGS:
        return any(empty & NEIGHBOURS[s] for s in _squares(empty))
    own = rings & (black, white)[turn]
    mine = _squares(own)
    for comp in _live_groups(empty, own):
        for a in _squares(comp):
            for ray in RAYS[a]:
                for b in ray:
                    if not comp >> b & 1:
                        break
                    if _turns_in(comp, a, b, mine):
                        return True
    return False


def place(pos: Position, move: Move) -> Position:
    """The position after `move`, without asking whether the next seat can move (playouts find out)."""
    black, white, rings, turn, _ = pos
    a, b, start, end = move
    placed = BITS[a] | BITS[b]
    if turn == 0:
        black |= placed
    else:
        white |= placed
    rings |= BITS[end]
    if start is not None:
        rings &= ~BITS[start]
    return (black, white, rings, 1 - turn, None)  # type: ignore[operator]


def apply(pos: Position, move: Move) -> Position:
    """The position after a legal `move`, the game over (won by the mover) if the other seat is stuck."""
    after = place(pos, move)
    if not can_move(after):
        return (after[0], after[1], after[2], None, pos[3])
    return after


def territory(pos: Position) -> tuple[float, float]:
    """Turns each seat can still expect to make: every live empty group split by distance from the rings
    (a group only one side touches is all that side's), two squares a turn, two left over per group."""
    black, white, rings, _, _ = pos
    empty = FULL & ~(black | white)
    not_a, not_j = _NOT_A, _NOT_J
    reach_b = _dilate(rings & black) & empty
    reach_w = _dilate(rings & white) & empty
    count_b = count_w = 0.0
    pending = reach_b | reach_w
    while pending:
        comp = _group(pending & -pending, empty)
        pending &= ~comp
        size = comp.bit_count()
        if size < 4:
            continue
        sb, sw = reach_b & comp, reach_w & comp
        if not sw:
            count_b += (size - 2) / 2
            continue
        if not sb:
            count_w += (size - 2) / 2
            continue
        seen_b, seen_w = sb, sw
        front_b, front_w = sb, sw
        own_b = (sb & ~sw).bit_count()
        own_w = (sw & ~sb).bit_count()
        while front_b or front_w:
            if front_b:
                row = front_b | ((front_b << 1) & not_a) | ((front_b >> 1) & not_j)
                front_b = (row | (row << 10) | (row >> 10)) & comp & ~seen_b
            if front_w:
                row = front_w | ((front_w << 1) & not_a) | ((front_w >> 1) & not_j)
                front_w = (row | (row << 10) | (row >> 10)) & comp & ~seen_w
            seen_b |= front_b
            seen_w |= front_w
            # a square counts for the side that got there first; both at once: nobody's
            own_b += (front_b & ~seen_w).bit_count()
            own_w += (front_w & ~seen_b).bit_count()
            taken = seen_b & seen_w
            front_b &= ~taken
            front_w &= ~taken
        scale = (size - 2) / size / 2
        count_b += own_b * scale
        count_w += own_w * scale
    return count_b, count_w


SHARPNESS = 0.8
"""How fast a lead in expected turns becomes a sure win in `evaluate`."""


def evaluate(pos: Position) -> tuple[float, float]:
    """Each seat's chance in [0, 1]: the result if the game is over, else the territory race, where the
    seat to move must have strictly more turns left (with equal counts it runs out first)."""
    _, _, _, turn, winner = pos
    if turn is None:
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    count_b, count_w = territory(pos)
    lead = count_b - count_w + (-0.5 if turn == 0 else 0.5)
    p = 1.0 / (1.0 + math.exp(-SHARPNESS * lead))
    return (p, 1.0 - p)


def random_turns(pos: Position, rng: random.Random, count: int, tries: int = 30) -> list[Move]:
    """Up to `count` legal turns drawn cheaply, with repeats: a square of a live group, a line from it, a
    ring, redrawn when the draw is illegal (at most `tries` misses in a row, then the full list is used).
    Empty only if there is no turn."""
    black, white, rings, turn, _ = pos
    empty = FULL & ~(black | white)
    setup = rings.bit_count() < RINGS
    own = rings & (black, white)[turn]  # type: ignore[index]
    mine = _squares(own)
    groups = [empty] if setup else _live_groups(empty, own)
    out: list[Move] = []
    if not groups:
        return out
    squares = _squares(sum(groups))
    random_ = rng.random  # int(random_() * n) draws as evenly as rng.choice, in a fraction of the time
    misses = 0
    while len(out) < count:
        if misses >= tries:
            options = all_turns(pos)
            return out + [rng.choice(options) for _ in range(count - len(out))] if options else out
        a = squares[int(random_() * len(squares))]
        rays = RAYS[a]
        ray = rays[int(random_() * len(rays))]
        length = 0
        for s in ray:
            if not empty >> s & 1:
                break
            length += 1
        if not length:
            misses += 1
            continue
        b = ray[int(random_() * length)]
        if setup:
            a, b = _order(a, b)
            out.append((a, b, None, a if random_() < 0.5 else b))
            continue
        comp = next(g for g in groups if g >> a & 1)
        options = _turns_in(comp, a, b, mine)
        if options:
            out.append(options[int(random_() * len(options))])
            misses = 0
        else:
            misses += 1
    return out


def candidates(pos: Position, width: int, sample: int) -> list[Move]:
    """The turns the tree looks at: the `width` best by the evaluation just after them, out of all turns
    when there are few, else out of `sample` draws from a generator seeded by the position (repeatable)."""
    black, white, rings, seat, _ = pos
    assert seat is not None
    rng = random.Random((black << 200) | (white << 100) | rings)
    turns = list(dict.fromkeys(random_turns(pos, rng, sample)))
    if len(turns) < sample // 2:  # few distinct turns: look at them all
        turns = all_turns(pos)
    if len(turns) <= width:
        return turns
    scored = sorted(turns, key=lambda m: -evaluate(place(pos, m))[seat])
    return scored[:width]


class ThemiscyraModel(PublicModel):
    """Themiscyra for the search: int positions, pruned candidate turns, short random playouts."""

    depth = 2
    """Random turns played after the tree before the territory evaluation."""
    width = 16
    """Candidate turns the tree considers below the root."""
    sample = 48
    """Turns drawn and evaluated to pick the candidates below the root."""
    root_width = 30
    root_sample = 600
    """The same at the root, looked at once per search, so more of them."""
    iterations: ClassVar[dict[str, int]] = {"easy": 40, "normal": 250, "hard": 5000}
    """Playouts per level: each costs about a millisecond, the framework's defaults are for cheaper games."""

    def __init__(self) -> None:
        super().__init__(THEMISCYRA)
        self._root: Position | None = None
        self._moves: dict[Position, list[Move]] = {}
        self._after: dict[tuple[Position, Move], Position] = {}

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Position:
        """Nothing is hidden: the view is the position (also remembered as the search's root)."""
        root = position_of(view)
        if root != self._root:  # a new search: what the last one cached is of no more use
            self._moves.clear()
            self._after.clear()
            self._root = root
        return root

    def to_move(self, position: Position) -> int | None:
        return position[3]

    def moves(self, position: Position) -> Sequence[Move]:
        found = self._moves.get(position)
        if found is None:
            if position == self._root:
                found = candidates(position, self.root_width, self.root_sample)
            else:
                found = candidates(position, self.width, self.sample)
            self._moves[position] = found
        return found

    def apply(self, position: Position, move: Move) -> Position:
        key = (position, move)
        found = self._after.get(key)  # the tree walks the same moves again
        if found is None:
            found = self._after[key] = apply(position, move)
        return found

    def playout(self, position: Position, rng: random.Random) -> Sequence[float]:
        for _ in range(self.depth):
            seat = position[3]
            if seat is None:
                break
            drawn = random_turns(position, rng, 1)
            if not drawn:  # the seat to move is stuck: the other has won
                return (0.0, 1.0) if seat == 0 else (1.0, 0.0)
            position = place(position, drawn[0])
        return evaluate(position)

    def evaluate(self, position: Position) -> Sequence[float]:
        return evaluate(position)

    def notation(self, position: Position, move: Move) -> str:
        a, b, start, end = move
        if start is None:
            return f"{SQUARE_NAMES[a]} {SQUARE_NAMES[b]} @{SQUARE_NAMES[end]}"
        return f"{SQUARE_NAMES[a]} {SQUARE_NAMES[b]} {SQUARE_NAMES[start]}>{SQUARE_NAMES[end]}"


MODEL = ThemiscyraModel()


def greedy(view: ThemiscyraState, seat: int, rng: random.Random) -> str:
    """One ply: the turn after which the mover's rings touch the most open-area squares minus the
    opponent's (every legal turn looked at), ties broken by `rng`."""
    pos = position_of(view)
    best: list[Move] = []
    best_score = -math.inf
    for move in all_turns(pos):
        score = reach_difference(pos, move, seat)
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return MODEL.notation(pos, rng.choice(best))


def reach_difference(pos: Position, move: Move, seat: int) -> int:
    """After `move`: open-area squares next to `seat`'s rings minus those next to the other seat's."""
    black, white, rings, _, _ = pos
    a, b, start, end = move
    placed = BITS[a] | BITS[b]
    empty = FULL & ~(black | white) & ~placed
    rings = rings | BITS[end]
    if start is not None:
        rings &= ~BITS[start]
    stones = (black | placed, white) if seat == 0 else (black, white | placed)
    reach = (_dilate(rings & stones[seat]), _dilate(rings & stones[1 - seat]))
    totals = [0, 0]
    pending = empty & (reach[0] | reach[1])
    while pending:
        comp = _group(pending & -pending, empty)
        pending &= ~comp
        size = comp.bit_count()
        if size < 2:
            continue
        for side in (0, 1):
            if comp & reach[side]:
                totals[side] += size
    return totals[0] - totals[1]
