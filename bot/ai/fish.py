"""Computer player for "1, 2, 3" (Hey, That's My Fish!): a fast search model and a greedy opponent.

The search (bot/ai/mcts.py) sees a `FishPos`: the board as a bitmask over a padded axial grid (row r,
axial column q sits at bit r * 12 + q + 3), so the six straight lines are fixed shifts (E +1, W -1,
NE -11, NW -12, SE +12, SW +11). Tokens stay tile indices 0..59 as in the engine. Moves are ints:
a placement is its tile, a move is `(src + 1) * 64 + dst`.

`apply` follows the engine exactly (stuck tokens, islands of one player solved exactly: `island_value`,
the engine's `solve_island` on bits, cached), so scores, tokens, whose turn and the end of the game agree
with `FISH.play`; so does the board, but for a solved island's leftovers, which no token can ever reach
and the model takes off with the rest of the island.
Playouts approximate: they finish the placement with a cheap heuristic, play a few plies with an
epsilon-greedy policy in which stuck tokens are removed but islands are not settled, and then judge the
position by the scores plus a Voronoi count (tiles each player reaches first in fewer moves).

Where the time goes (bench/arena.py --base measures it): a playout looks each token's moves up by the
free tiles on its lines (`_steps_from`) instead of walking them, draws with `rng.random`, and judges both
players' reach in one int (`_judge`); `apply` runs the full `_settle` only when a move may have changed
something: a token stuck, a group split (`ONE_ARC`, then a short flood fill) or the mover's group now an
island (`_still_settled`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

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
    _tile_at,
)

WIDTH = 12
"""Bits per row of the padded grid: axial q + 3 runs 0..10, bit 11 stays empty so shifts never wrap."""
BIT = tuple(1 << (_axial(t)[1] * WIDTH + _axial(t)[0] + 3) for t in range(TILES))
TILE_OF_BIT = {b.bit_length() - 1: t for t, b in enumerate(BIT)}
RAY_STEPS = tuple(tuple(tuple((n, BIT[n]) for n in ray) for ray in RAYS[t] if ray) for t in range(TILES))
"""RAY_STEPS[t]: for each direction with a tile, the (tile, bit) pairs along it, nearest first."""
NEAR = tuple(sum(BIT[n] for n in NEIGHBOURS[t]) for t in range(TILES))
"""NEAR[t]: the tiles next to t, as a mask (a token is stuck when none of them is free)."""
LINES = tuple(sum(b for ray in RAY_STEPS[t] for _, b in ray) for t in range(TILES))
"""LINES[t]: every tile on t's six straight lines, as a mask: all that decides the moves from t."""
PLACING_PLIES = 2 * TOKENS_PER_PLAYER
LANE = 128
LOW_LANE = (1 << LANE) - 1
"""`_judge` packs both players' masks in one int, seat 1's shifted up by LANE bits."""
_RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The six directions in turn around a hex (E, NE, NW, W, SW, SE): neighbours next in this order touch."""


def _one_arc_table(tile: int) -> frozenset[int]:
    """Every set of tile's neighbours (as a mask) that runs round it in one unbroken arc, or is empty:
    removing the tile then splits nothing, as any path through it can go round the arc instead."""
    q, r = _axial(tile)
    ring_bits = [BIT[n] if (n := _tile_at(q + dq, r + dr)) is not None else 0 for dq, dr in _RING]
    near = [b for b in ring_bits if b]
    found = set()
    for subset in range(1 << len(near)):
        mask = sum(b for i, b in enumerate(near) if subset >> i & 1)
        on = [bool(mask & b) for b in ring_bits]
        starts = sum(1 for i in range(len(on)) if on[i] and not on[i - 1])
        if starts <= 1:
            found.add(mask)
    return frozenset(found)


ONE_ARC = tuple(_one_arc_table(t) for t in range(TILES))
"""ONE_ARC[t]: the sets of t's neighbours still on the board for which taking t away splits no group."""


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


def _runs(src: int, ray: tuple[tuple[int, int], ...]) -> tuple[int, dict[int, tuple[tuple[int, int], ...]]]:
    """One line from src: its mask, and for every set of its tiles that may be free, the moves along it."""
    mask = sum(b for _, b in ray)
    table = {}
    for subset in range(1 << len(ray)):
        free = sum(b for i, (_, b) in enumerate(ray) if subset >> i & 1)
        steps = []
        for dst, b in ray:
            if not free & b:
                break
            steps.append((src, dst))
        table[free] = tuple(steps)
    return mask, table


RUNS = tuple(tuple(_runs(t, ray) for ray in RAY_STEPS[t]) for t in range(TILES))
"""RUNS[t]: per line from t (in RAY_STEPS order), its mask and the moves along it for each free subset."""


MEMO_LIMIT = 1000
"""Entries the memo of `_steps_from` keeps per tile before it starts again: about 150 kB each, under
10 MB in all (a limit of 20,000 searched no faster, at twenty times the memory)."""
_STEPS_FROM: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = tuple({} for _ in range(TILES))
"""_STEPS_FROM[src][free & LINES[src]]: the playout's (src, dst) moves from src, remembered."""


def _steps_from(src: int, free: int) -> tuple[tuple[int, int], ...]:
    """Every move of a token on `src` with these tiles free, in RAY_STEPS order (nearest first per line):
    the list a playout used to build each ply, looked up instead."""
    memo = _STEPS_FROM[src]
    key = free & LINES[src]
    found = memo.get(key)
    if found is None:
        found = ()
        for mask, table in RUNS[src]:
            found += table[key & mask]
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = found
    return found


class Board(NamedTuple):
    """What a playout needs to know of the board the root saw, worked out once per board."""

    worth: tuple[int, int, int]
    """The 1-, 2- and 3-fish tiles, as masks."""
    ones: tuple[int, ...]
    """The 1-fish tiles (where tokens are placed), in order."""
    around: tuple[int, ...]
    """around[t]: the fish on the tiles next to t."""


_BOARDS: dict[tuple[int, ...], Board] = {}


def board_of(values: tuple[int, ...]) -> Board:
    """The `Board` of these tile values (remembered: the search asks once per position it starts from)."""
    board = _BOARDS.get(values)
    if board is None:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        by = [0, 0, 0, 0]
        for t in range(TILES):
            by[values[t]] |= BIT[t]
        ones = tuple(t for t in range(TILES) if values[t] == 1)
        around = tuple(sum(values[n] for n in NEIGHBOURS[t]) for t in range(TILES))
        board = _BOARDS[values] = Board((by[1], by[2], by[3]), ones, around)
    return board


def _worth(mask: int, masks: tuple[int, int, int]) -> int:
    """Fish on the tiles of `mask`, by a `Board.worth`."""
    ones, twos, threes = masks
    return (mask & ones).bit_count() + 2 * (mask & twos).bit_count() + 3 * (mask & threes).bit_count()


_ISLANDS: dict[tuple[int, int, int, int], int] = {}
"""Solved islands, shared by every search: (tiles, tokens, its 2-fish tiles, its 3-fish tiles) -> total."""


def island_value(mask: int, occ: int, values: Sequence[int], worth: tuple[int, int, int]) -> int:
    """The most one player's tokens on `occ` can collect on the island `mask` (tiles as bits, those under
    the tokens included; `values` and `worth` the board's, as in a `FishPos`): the total of the engine's
    `solve_island`, on bits.

    The same exact branch-and-bound as the engine's (tiles under the tokens' feet, connected parts solved
    apart and added, the parts' fish as the bound, a memo of exact values and proven upper bounds, moves
    to tiles with fewer exits first) without the line of play: once an island is awarded, nobody can ever
    reach its tiles again, so the model takes them all off the board and never needs to know which ones
    the line collected. Grid shifts and bit counts replace the engine's per-tile loops, and a move from a
    tile whose other neighbours run round it in one arc (`ONE_ARC`) splits nothing, so needs no flood fill."""
    _, twos, threes = worth
    key = (mask, occ, mask & twos, mask & threes)
    total = _ISLANDS.get(key)
    if total is None:
        memo: dict[tuple[int, int], tuple[int, bool]] = {}
        total, exact = _island_search(mask, occ, -1, values, worth, memo)
        assert exact
        if len(_ISLANDS) > 50_000:
            _ISLANDS.clear()
        _ISLANDS[key] = total
    return total


def _parts(mask: int, occ: int) -> list[tuple[int, int]]:
    """`mask` split into connected parts that hold a token, with their tokens; tokenless parts dropped."""
    found = []
    left = occ
    while left:
        comp = front = left & -left
        while front:
            front = _grow(front) & mask & ~comp
            comp |= front
        found.append((comp, occ & comp))
        left &= ~comp
    return found


def _island_search(
    mask: int,
    occ: int,
    floor: int,
    values: Sequence[int],
    worth: tuple[int, int, int],
    memo: dict[tuple[int, int], tuple[int, bool]],
) -> tuple[int, bool]:
    """(value, True) if the position's value beats `floor`; else maybe (an upper bound <= floor, False)."""
    key = (mask, occ)
    cached = memo.get(key)
    if cached is not None and (cached[1] or cached[0] <= floor):
        return cached
    free = mask & ~occ
    ordered = []
    tokens = occ
    while tokens:
        low = tokens & -tokens
        tokens ^= low
        src = TILE_OF_BIT[low.bit_length() - 1]
        for _, dst in _steps_from(src, free):
            ordered.append(((NEAR[dst] & free).bit_count(), -values[dst], src, dst))
    if not ordered:  # no token can move: each scores the tile it stands on
        memo[key] = result = (_worth(occ, worth), True)
        return result
    ordered.sort()
    ceiling = _worth(mask, worth)
    best = -1  # the best line known exactly
    cut = -1  # the highest upper bound of the lines not known exactly; never above max(best, floor)
    for _, _, src, dst in ordered:
        gain = values[src]
        left, held = mask & ~BIT[src], occ & ~BIT[src] | BIT[dst]
        split = [(left, held)] if mask & NEAR[src] in ONE_ARC[src] else _parts(left, held)
        bounds = [_worth(part, worth) for part, _ in split]
        need = max(best, floor) - gain  # the parts must give more than this together to matter
        if sum(bounds) <= need:
            cut = max(cut, gain + sum(bounds))
            continue
        total = 0
        for i, (part, held) in enumerate(split):
            rest = sum(bounds[i + 1 :])
            value, exact = _island_search(part, held, need - total - rest, values, worth, memo)
            total += value
            if not exact:
                cut = max(cut, gain + total + rest)
                break
        else:
            if gain + total > best:
                best = gain + total
                if best == ceiling:
                    break
    memo[key] = result = (best, True) if best >= cut else (cut, False)
    return result


class FishPos:
    """One position as the search sees it. `values` is the board as the root saw it: a tile counts only
    while its bit is in `alive`."""

    __slots__ = ("_moves", "_occ", "alive", "board", "first", "placed", "scores", "tokens", "turn", "values")

    def __init__(
        self,
        values: tuple[int, ...],
        alive: int,
        tokens: tuple[tuple[int, ...], tuple[int, ...]],
        scores: tuple[int, int],
        placed: tuple[int, int],
        first: int,
        turn: int | None,
        board: Board,
    ) -> None:
        self.values = values
        self.alive = alive
        self.tokens = tokens
        self.scores = scores
        self.placed = placed
        self.first = first
        self.turn = turn
        self.board = board
        self._moves: list[int] | None = None
        self._occ = -1

    @classmethod
    def from_state(cls, state: FishState) -> FishPos:
        alive = 0
        for t in range(TILES):
            if state.values[t]:
                alive |= BIT[t]
        tokens = (tuple(sorted(state.tokens[0])), tuple(sorted(state.tokens[1])))
        return cls(
            state.values, alive, tokens, state.scores, state.placed, state.first, state.turn, board_of(state.values)
        )

    @property
    def placing(self) -> bool:
        return self.placed[0] + self.placed[1] < PLACING_PLIES

    def occupied(self) -> int:
        """The tiles under the tokens (worked out once; `apply` often knows it already)."""
        if self._occ < 0:
            occ = 0
            for side in self.tokens:
                for t in side:
                    occ |= BIT[t]
            self._occ = occ
        return self._occ


def _settle(
    values: tuple[int, ...], worth: tuple[int, int, int], alive: int, tokens: list[list[int]], scores: list[int]
) -> int:
    """The engine's `_settle` on bitmasks: remove stuck tokens, award one-player islands (mutates
    `tokens` and `scores`, returns the tiles left). A group's flood fill stops as soon as it holds an
    opponent's token or more than ISLAND_LIMIT tiles: early in a game every group is one of those."""
    while True:
        occ = 0
        for side in tokens:
            for t in side:
                occ |= BIT[t]
        free = alive & ~occ
        changed = False
        for seat in (0, 1):
            for t in list(tokens[seat]):
                if not free & NEAR[t]:
                    tokens[seat].remove(t)
                    scores[seat] += values[t]
                    alive &= ~BIT[t]
                    changed = True
        if changed:
            continue
        seen = 0
        for seat in (0, 1):
            theirs = 0
            for u in tokens[1 - seat]:
                theirs |= BIT[u]
            for t in tokens[seat]:
                if seen & BIT[t]:
                    continue
                comp = front = BIT[t]
                while front and not comp & theirs and comp.bit_count() <= ISLAND_LIMIT:
                    front = _grow(front) & alive & ~comp
                    comp |= front
                seen |= comp
                if comp & theirs or comp.bit_count() > ISLAND_LIMIT:
                    continue
                mine = [u for u in tokens[seat] if comp & BIT[u]]
                changed = True
                scores[seat] += island_value(comp, sum(BIT[u] for u in mine), values, worth)
                for u in mine:
                    tokens[seat].remove(u)
                alive &= ~comp  # what the line left behind nobody can reach: off the board with the rest
        if not changed:
            return alive


def _still_settled(alive: int, occ: int, tokens: list[list[int]], seat: int, src: int, dst: int) -> bool:
    """Whether `_settle` would change nothing after `seat` moved src -> dst (src already gone from
    `alive`) in a settled position. True when no token is stuck, src's remaining neighbours are still
    joined (round it in one arc, or further out), so its removal split no group, and the mover's group,
    one tile smaller, is still no island (it holds an opponent's token or too many tiles): every other
    group is as it was. Only dst was freed of nothing but taken: a token can newly be stuck only there
    or next to it. `occ`: the tiles under the tokens after the move."""
    free = alive & ~occ
    if not free & NEAR[dst]:
        return False
    nearby = occ & NEAR[dst]
    while nearby:
        low = nearby & -nearby
        if not free & NEAR[TILE_OF_BIT[low.bit_length() - 1]]:
            return False
        nearby ^= low
    around = alive & NEAR[src]
    if around not in ONE_ARC[src]:  # they may still meet further out
        comp = front = around & -around
        while front and around & ~comp:
            front = _grow(front) & alive & ~comp
            comp |= front
        if around & ~comp:
            return False
    theirs = 0
    for u in tokens[1 - seat]:
        theirs |= BIT[u]
    comp = front = BIT[dst]
    while front and not comp & theirs and comp.bit_count() <= ISLAND_LIMIT:
        front = _grow(front) & alive & ~comp
        comp |= front
    return bool(comp & theirs) or comp.bit_count() > ISLAND_LIMIT


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
                found = [(src + 1) * 64 + dst for src in position.tokens[seat] for _, dst in _steps_from(src, free)]
        position._moves = found
        return found

    def apply(self, position: FishPos, move: int) -> FishPos:
        seat = position.turn
        assert seat is not None
        tokens = [list(position.tokens[0]), list(position.tokens[1])]
        scores = list(position.scores)
        alive = position.alive
        values = position.values
        occ = -1
        if move < 64:
            tokens[seat].append(move)
            placed = (position.placed[0] + (seat == 0), position.placed[1] + (seat == 1))
            if placed[0] + placed[1] < PLACING_PLIES:
                turn: int | None = 1 - seat
            else:
                alive = _settle(values, position.board.worth, alive, tokens, scores)
                first = position.first
                turn = first if tokens[first] else (1 - first if tokens[1 - first] else None)
        else:
            placed = position.placed
            src, dst = move // 64 - 1, move % 64
            side = tokens[seat]
            side[side.index(src)] = dst
            scores[seat] += values[src]
            alive &= ~BIT[src]
            occ = position.occupied() & ~BIT[src] | BIT[dst]
            if not _still_settled(alive, occ, tokens, seat, src, dst):
                alive = _settle(values, position.board.worth, alive, tokens, scores)
                occ = -1
            turn = 1 - seat if tokens[1 - seat] else (seat if tokens[seat] else None)
        after = FishPos(
            values,
            alive,
            (tuple(tokens[0]), tuple(tokens[1])),
            (scores[0], scores[1]),
            placed,
            position.first,
            turn,
            position.board,
        )
        after._occ = occ
        return after

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
        random_ = rng.random  # int(random_() * n) draws as evenly as randrange(n), in a fifth of the time
        if position.placing:
            placed = list(position.placed)
            board = position.board
            spots = [t for t in board.ones if not occ & BIT[t]]
            around, worth = board.around, board.worth
            while placed[0] + placed[1] < PLACING_PLIES:
                best = -1
                pick = 0
                for _ in range(3):  # best of three random spots by the fish around them (free tiles only)
                    k = int(random_() * len(spots))
                    t = spots[k]
                    fish = around[t]
                    if taken := NEAR[t] & occ:
                        fish -= _worth(taken, worth)
                    if fish > best:
                        best, pick = fish, k
                t = spots.pop(pick)
                tokens[seat].append(t)
                occ |= BIT[t]
                placed[seat] += 1
                seat = 1 - seat
            seat = position.first
        epsilon, depth = self.epsilon, self.depth
        memo, lines, bits = _STEPS_FROM, LINES, BIT
        plies = 0
        while plies < depth:
            free = alive & ~occ
            options: list[tuple[int, int]] = []
            side = tokens[seat]
            stuck: list[int] = []
            for src in side:
                found = memo[src].get(free & lines[src])
                if found is None:
                    found = _steps_from(src, free)
                if found:
                    options += found
                else:
                    stuck.append(src)
            if stuck:  # removed, their tiles scored
                for src in stuck:
                    side.remove(src)
                    scores[seat] += values[src]
                    alive &= ~bits[src]
                    occ &= ~bits[src]
            if not options:
                if not tokens[1 - seat]:
                    return _result(scores)
                seat = 1 - seat
                continue
            count = len(options)
            src, dst = options[int(random_() * count)]
            if random_() >= epsilon:  # the best of three by the fish taken now and next
                gain = values[src] + values[dst]
                a, b = options[int(random_() * count)]
                if values[a] + values[b] > gain:
                    src, dst, gain = a, b, values[a] + values[b]
                a, b = options[int(random_() * count)]
                if values[a] + values[b] > gain:
                    src, dst = a, b
            side[side.index(src)] = dst
            scores[seat] += values[src]
            alive &= ~bits[src]
            occ = occ & ~bits[src] | bits[dst]
            plies += 1
            if tokens[1 - seat]:
                seat = 1 - seat
        return self._judge(position.board.worth, alive, occ, tokens, scores)

    def _judge(
        self, worth: tuple[int, int, int], alive: int, occ: int, tokens: list[list[int]], scores: list[int]
    ) -> tuple[float, float]:
        """Scores so far, plus the tiles under each player's tokens, plus the tiles each reaches in fewer
        moves than the other (ties split), squashed into a win chance per seat.

        Both players' searches run at once, seat 1's copy of the board 128 bits above seat 0's (a step
        moves at most 12 bits, into the empty gap between them). A tile one player reached in an earlier
        round leads the other nowhere it has not been first, so each round goes on only from the tiles
        nobody had reached before: the same count, with fronts that die out sooner."""
        empty = alive & ~occ
        mine = 0
        for t in tokens[0]:
            mine |= BIT[t]
        for t in tokens[1]:
            mine |= BIT[t] << LANE
        both = empty | empty << LANE
        seen = front = mine
        own = 0
        while front:
            new = _reach(front, both) & ~seen
            front = new & ~(seen >> LANE | (seen & LOW_LANE) << LANE)  # not reached by the other before
            own |= front & ~(front >> LANE | (front & LOW_LANE) << LANE)  # nor by the other now
            seen |= new
        held = mine | own  # the tiles under the tokens and those reached first: disjoint
        lead = float(scores[0] - scores[1]) + _worth(held & LOW_LANE, worth) - _worth(held >> LANE, worth)
        v = 1.0 / (1.0 + math.exp(-lead / self.spread))
        return (v, 1.0 - v)


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
