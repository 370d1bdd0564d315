"""Computer player for Volcano (bot/games/volcano.py): a fast whole-turn model for the search, and the
arena's greedy opponent.

The search thinks in whole turns. A turn is any number of quiet steps (no eruption) followed by one
erupting step, and what the turn does to the board depends only on the erupting step: the stack it
leaves, the direction, and how many pieces land before a cap or the edge stops them. So the tree's
moves are the distinct eruptions reachable this turn, each by the shortest path of quiet steps found by a
breadth-first search over cap arrangements; the engine reads such a turn as "b2-c3, c3-d4". A position
is plain ints: pieces are codes colour * 3 + size (colour in RYGBC order, size 0-2), the caps a 25-bit
mask, each seat's captures 15 counts. Nothing is hidden but the seed, which no move depends on, so the
positions met in one search are kept with their moves and children and every iteration after the first
walks the tree without recomputing it.

With about a hundred distinct eruptions a turn, the search only looks at the most promising ones: at the
root, ranked by the points a turn captures less what the next seat could capture straight after (a turn
that ends the game counts as its result); below the root, by the points captured alone.

Playouts pick each turn's eruption among those reachable in a step or two, mostly the one that captures
the most points (keeping the game going rather than completing one's colours while behind), and stop
after a few turns (Volcano can go round in circles when nobody captures), judged by each seat's lead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from bot.ai.model import PublicModel
from bot.games.volcano import (
    COLOURS,
    RAYS,
    SQUARE_NAMES,
    SQUARES,
    VOLCANO,
    VolcanoState,
    eruption_reachable,
    score_of,
)

Step = tuple[int, int]
Turn = tuple[Step, ...]

_CODE = {f"{c}{z}": 3 * i + int(z) - 1 for i, c in enumerate(COLOURS) for z in "123"}
_BIT = tuple(1 << s for s in range(SQUARES))
_ALL_COLOURS = (1 << len(COLOURS)) - 1


def _build_steps() -> tuple[tuple[tuple[int, int, int, tuple[int, ...]], ...], ...]:
    """Per square: (direction, destination, square beyond or -1, landing squares) of each on-board step."""
    table = []
    for s in range(SQUARES):
        row = []
        for d, ray in enumerate(RAYS[s]):
            if ray:
                row.append((d, ray[0], ray[1] if len(ray) > 1 else -1, ray[1:]))
        table.append(tuple(row))
    return tuple(table)


_STEPS = _build_steps()
_ERUPTING = tuple(
    tuple(
        ((s * 8 + d) * 4, _BIT[dst], _BIT[dst] | _BIT[beyond], tuple(_BIT[x] for x in landing[1:]))
        for d, dst, beyond, landing in _STEPS[s]
        if beyond >= 0
    )
    for s in range(SQUARES)
)
"""Per square, the steps that can erupt: (effect key base, destination bit, destination and beyond bits,
later landing bits)."""
_MOVES = tuple(
    tuple((dst, _BIT[dst], _BIT[beyond] if beyond >= 0 else 0) for _d, dst, beyond, _r in row) for row in _STEPS
)
"""Per square, each on-board step as (destination, its bit, the bit beyond it or 0 at the edge)."""
_LANDING = tuple(RAYS[s][d][1:] for s in range(SQUARES) for d in range(8))
"""_LANDING[square * 8 + direction]: where an eruption from the square lands, nearest first."""
_DIRECTION = {(s, dst): d for s in range(SQUARES) for d, dst, _b, _r in _STEPS[s]}


def _score(h: Sequence[int]) -> int:
    """Best arrangement of 15 capture counts (volcano.md): solid trees, then mixed trees, then singles."""
    solid = min(h[0], h[1], h[2]) + min(h[3], h[4], h[5]) + min(h[6], h[7], h[8])
    solid += min(h[9], h[10], h[11]) + min(h[12], h[13], h[14])
    left0 = h[0] + h[3] + h[6] + h[9] + h[12] - solid
    left1 = h[1] + h[4] + h[7] + h[10] + h[13] - solid
    left2 = h[2] + h[5] + h[8] + h[11] + h[14] - solid
    mixed = min(left0, left1, left2)
    return 7 * solid + 2 * mixed + left0 + left1 + left2


def _colours(held: Sequence[int]) -> int:
    """5-bit mask of the colours held."""
    mask = 0
    for c in range(5):
        if held[3 * c] or held[3 * c + 1] or held[3 * c + 2]:
            mask |= 1 << c
    return mask


class Position:
    """A Volcano position for the search; `kids` and `turns` remember what the tree already worked out."""

    __slots__ = (
        "board",
        "caps",
        "depth",
        "filled",
        "held",
        "kids",
        "resigned",
        "scores",
        "seen",
        "turn",
        "turns",
        "winners",
    )

    def __init__(
        self,
        board: tuple[tuple[int, ...], ...],
        caps: int,
        held: tuple[tuple[int, ...], ...],
        scores: tuple[int, ...],
        turn: int | None,
        seen: frozenset[int],
        resigned: frozenset[int],
        filled: int,
        winners: frozenset[int] = frozenset(),
    ) -> None:
        self.board = board
        self.caps = caps
        self.held = held
        self.scores = scores
        self.turn = turn
        self.seen = seen
        self.resigned = resigned
        self.winners = winners
        self.filled = filled
        self.depth = 0
        self.kids: dict[Turn, Position] = {}
        self.turns: list[Turn] | None = None


def _filled(board: tuple[tuple[int, ...], ...]) -> int:
    """Bit s set when square s holds a piece."""
    mask = 0
    for s, stack in enumerate(board):
        if stack:
            mask |= _BIT[s]
    return mask


def from_state(state: VolcanoState) -> Position:
    """The search's copy of an engine state (or a view of one: only the seed is missing, and unused)."""
    board = tuple(tuple(_CODE[p] for p in stack) for stack in state.board)
    held_lists = []
    for pieces in state.captures:
        counts = [0] * 15
        for p in pieces:
            counts[_CODE[p]] += 1
        held_lists.append(tuple(counts))
    held = tuple(held_lists)
    winners: frozenset[int] = frozenset()
    if state.turn is None:
        outcome = VOLCANO.outcome(state)
        winners = outcome.winners if outcome is not None else frozenset()
    return Position(
        board,
        state.cap_mask,
        held,
        tuple(_score(h) for h in held),
        state.turn,
        state.seen,
        state.resigned,
        _filled(board),
        winners,
    )


def eruptions_from(board: tuple[tuple[int, ...], ...], caps: int, filled: int) -> list[tuple[int, int, int]]:
    """The erupting steps from this cap arrangement, as (from, to, direction)."""
    found = []
    m = caps & filled
    while m:
        low = m & -m
        src = low.bit_length() - 1
        m ^= low
        for d, dst, beyond, _landing in _STEPS[src]:
            if beyond >= 0 and not caps & _BIT[dst] and not caps & _BIT[beyond]:
                found.append((src, dst, d))
    return found


def captured_by(board: tuple[tuple[int, ...], ...], caps: int, src: int, d: int) -> list[int]:
    """The piece codes an eruption of `src` in direction `d` captures (`caps` before or after the step)."""
    stack = board[src]
    landing = RAYS[src][d][1:]
    got = []
    i = len(stack) - 1
    for square in landing:
        if i < 0 or caps & _BIT[square]:
            break
        piece = stack[i]
        target = board[square]
        if target and target[-1] % 3 == piece % 3:
            got.append(piece)
        i -= 1
    return got


def turns_of(position: Position, limit: int) -> dict[int, Turn]:
    """Every distinct eruption reachable this turn, each by its shortest path of quiet steps.

    Breadth-first over cap arrangements joined by quiet steps, never back to one seen this turn; after
    `limit` arrangements it stops as soon as some eruption has been found. An eruption is known by
    (stack, direction, pieces landing), which fixes the board after it.
    """
    board, filled = position.board, position.filled
    effects: dict[int, Turn] = {}
    visited = set(position.seen)
    queue = [position.caps]
    # came[i]: the arrangement queue[i] was reached from and the step taken; a path is built only for an
    # arrangement an eruption is first found from
    came: list[tuple[int, Step]] = [(-1, (0, 0))]
    head = 0
    found: dict[int, int] = {}
    while head < len(queue):
        if head >= limit and effects:
            break
        caps = queue[head]
        found.clear()
        _scan(board, caps, filled, found)
        path: Turn | None = None
        for key, after in found.items():
            if key not in effects:
                if path is None:
                    path = _path(came, head)
                effects[key] = (*path, (key >> 5, (after & ~caps).bit_length() - 1))
        m = caps
        while m:  # the quiet steps from here (`_quiet`, inlined: this loop is the search's hottest)
            low = m & -m
            src = low.bit_length() - 1
            m ^= low
            here = filled & low
            for dst, dst_bit, beyond_bit in _MOVES[src]:
                if caps & dst_bit or (here and beyond_bit and not caps & beyond_bit):
                    continue
                after = caps ^ low ^ dst_bit
                if after not in visited:
                    visited.add(after)
                    queue.append(after)
                    came.append((head, (src, dst)))
        head += 1
    return effects


def _path(came: list[tuple[int, Step]], index: int) -> Turn:
    """The quiet steps from the start of the turn to arrangement `index` of `turns_of`'s queue."""
    steps = []
    while index > 0:
        index, step = came[index]
        steps.append(step)
    return tuple(reversed(steps))


def _quiet_steps(position: Position) -> list[Step]:
    """Legal single steps (all of them) when no eruption is reachable any more this turn."""
    caps, filled = position.caps, position.filled
    steps = []
    m = caps
    while m:
        low = m & -m
        src = low.bit_length() - 1
        m ^= low
        for _d, dst, beyond, _landing in _STEPS[src]:
            if caps & _BIT[dst]:
                continue
            erupts = filled & low and beyond >= 0 and not caps & _BIT[beyond]
            if erupts or (caps ^ low ^ _BIT[dst]) not in position.seen:
                steps.append((src, dst))
    return steps


def _someone_can_complete(
    board: tuple[tuple[int, ...], ...], held: tuple[tuple[int, ...], ...], resigned: frozenset[int]
) -> bool:
    """The engine's RULING: can some seat still playing come to hold every colour? A missing colour is
    still obtainable while a piece of it is on the board with another piece of its size."""
    counts = [0] * 15
    for stack in board:
        for p in stack:
            counts[p] += 1
    big = [counts[z] + counts[z + 3] + counts[z + 6] + counts[z + 9] + counts[z + 12] >= 2 for z in range(3)]
    open_colours = 0
    for c in range(5):
        if (counts[3 * c] and big[0]) or (counts[3 * c + 1] and big[1]) or (counts[3 * c + 2] and big[2]):
            open_colours |= 1 << c
    return any(_colours(h) | open_colours == _ALL_COLOURS for s, h in enumerate(held) if s not in resigned)


def _finish(
    board: tuple[tuple[int, ...], ...],
    caps: int,
    held: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    seat: int,
    resigned: frozenset[int],
) -> Position:
    """The position after `seat`'s turn ends: the game's end, or the next seat's fresh turn."""
    seats = len(held)
    if _colours(held[seat]) == _ALL_COLOURS:
        return _over(board, caps, held, scores, resigned)
    nxt = None
    for k in range(1, seats + 1):
        if (seat + k) % seats not in resigned:
            nxt = (seat + k) % seats
            break
    if nxt is None:
        return _over(board, caps, held, scores, resigned, nobody=True)
    filled = _filled(board)
    if not eruptions_from(board, caps, filled) and not eruption_reachable(filled, caps):
        return _over(board, caps, held, scores, resigned)
    if not _someone_can_complete(board, held, resigned):
        return _over(board, caps, held, scores, resigned)
    return Position(board, caps, held, scores, nxt, frozenset((caps,)), resigned, filled)


def _over(
    board: tuple[tuple[int, ...], ...],
    caps: int,
    held: tuple[tuple[int, ...], ...],
    scores: tuple[int, ...],
    resigned: frozenset[int],
    nobody: bool = False,
) -> Position:
    live = [s for s in range(len(held)) if s not in resigned]
    winners: frozenset[int] = frozenset()
    if live and not nobody:
        best = max(scores[s] for s in live)
        winners = frozenset(s for s in live if scores[s] == best)
    return Position(board, caps, held, scores, None, frozenset(), resigned, _filled(board), winners)


def _erupt(position: Position, caps: int, src: int, d: int) -> Position:
    """Erupt `src` in direction `d` (caps already moved), capture, and end the turn."""
    board = list(position.board)
    stack = board[src]
    i = len(stack) - 1
    got = []
    for square in RAYS[src][d][1:]:
        if i < 0 or caps & _BIT[square]:
            break
        piece = stack[i]
        target = board[square]
        if target and target[-1] % 3 == piece % 3:
            got.append(piece)
        else:
            board[square] = (*target, piece)
        i -= 1
    board[src] = stack[: i + 1]
    seat = position.turn
    assert seat is not None
    held, scores = position.held, position.scores
    if got:
        mine = list(held[seat])
        for p in got:
            mine[p] += 1
        held = (*held[:seat], tuple(mine), *held[seat + 1 :])
        scores = (*scores[:seat], _score(mine), *scores[seat + 1 :])
    return _finish(tuple(board), caps, held, scores, seat, position.resigned)


def play_turn(position: Position, turn: Turn) -> Position:
    """Apply a turn (or the first steps of one) exactly as the engine would."""
    caps = position.caps
    seen = set(position.seen)
    board = position.board
    current = position
    for src, dst in turn:
        d = _DIRECTION[(src, dst)]
        caps = caps ^ _BIT[src] ^ _BIT[dst]
        ray = RAYS[src][d]
        if board[src] and len(ray) > 1 and not caps & _BIT[ray[1]]:
            return _erupt(current, caps, src, d)
        seen.add(caps)
        current = Position(
            board, caps, current.held, current.scores, current.turn, frozenset(seen), current.resigned, current.filled
        )
        if not _quiet_steps(current):
            seat = current.turn
            assert seat is not None
            return _finish(board, caps, current.held, current.scores, seat, current.resigned)
    return current


class VolcanoModel(PublicModel):
    """Whole turns for the tree, greedy-with-noise playouts cut after `depth` turns."""

    depth = 3
    """Playout turns before the position is judged by `evaluate`."""
    epsilon = 0.15
    """Share of playout turns that take a random reachable eruption instead of the best capture."""
    root_limit = 400
    tree_limit = 40
    """Cap arrangements the move search looks through (at the root, below it) before settling for what it
    found: deeper nodes get fewer visits, so a cheaper, less complete list of turns does."""
    root_width = 24
    tree_width = 10
    """How many of the ranked turns the search considers at the root and below it: with some hundred
    distinct eruptions a turn, a few hundred iterations would otherwise try each about once."""
    scale = 6.0
    """Points of lead worth about 0.73 in `evaluate` (a tree is 5 to 7 points)."""
    look_further = 0.3
    """Share of playout turns that also consider eruptions one quiet step away."""
    iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 300, "hard": 6000}

    def __init__(self) -> None:
        super().__init__(VOLCANO)
        self._view: Any = None
        self._root: Position | None = None

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Position:
        """The view as a Position; the seed is the only hidden part and no move depends on it.

        The same view object gives the same root during one search, so the tree it grows is reused.
        """
        if view is not self._view or self._root is None:
            self._view, self._root = view, from_state(view)
        return self._root

    def to_move(self, position: Position) -> int | None:
        return position.turn

    def moves(self, position: Position) -> Sequence[Turn]:
        """The turns worth searching: the best few by a quick look, or the single steps left mid-turn."""
        if position.turns is None:
            if position.turn is None:
                position.turns = []
            elif position.depth == 0:
                position.turns = self._root_turns(position)
            else:
                found = turns_of(position, self.tree_limit)
                if not found:
                    position.turns = [(step,) for step in _quiet_steps(position)]
                else:
                    gains = _gains(position, found)
                    order = sorted(found, key=lambda k: -gains[k])
                    position.turns = [found[k] for k in order[: self.tree_width]]
        return position.turns

    def _root_turns(self, position: Position) -> list[Turn]:
        """Every distinct eruption, ranked by what it captures less what the next seat could capture
        straight after; the search looks at the best `root_width` of them."""
        found = turns_of(position, self.root_limit)
        if not found:
            return [(step,) for step in _quiet_steps(position)]
        seat = position.turn
        assert seat is not None
        gains = _gains(position, found)
        ranked = {}
        for k, turn in found.items():
            child = self.apply(position, turn)
            value = gains[k]
            if child.turn is None:
                if seat not in child.winners:
                    value -= 100.0
                elif len(child.winners) == 1:
                    value += 100.0
            elif child.turn != seat:
                reply: dict[int, int] = {}
                _scan(child.board, child.caps, child.filled, reply)
                for near in _near(child.caps, child.filled, child.seen):
                    _scan(child.board, near, child.filled, reply)
                value -= 0.8 * max(_gains(child, reply).values(), default=0.0)
            ranked[k] = value
        order = sorted(found, key=lambda k: -ranked[k])
        return [found[k] for k in order[: self.root_width]]

    def apply(self, position: Position, move: Turn) -> Position:
        child = position.kids.get(move)
        if child is None:
            child = position.kids[move] = play_turn(position, move)
            child.depth = position.depth + 1
        return child

    def notation(self, position: Position, move: Turn) -> str:
        return ", ".join(f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}" for a, b in move)

    def playout(self, position: Position, rng: random.Random) -> Sequence[float]:
        for _ in range(self.depth):
            if position.turn is None:
                break
            position = self._rollout_turn(position, rng)
        return self.evaluate(position)

    def _rollout_turn(self, position: Position, rng: random.Random) -> Position:
        """One playout turn: mostly the best-capturing eruption reachable in at most one quiet step."""
        seat = position.turn
        assert seat is not None
        board, caps, filled = position.board, position.caps, position.filled
        effects: dict[int, int] = {}
        _scan(board, caps, filled, effects)
        if not effects or rng.random() < self.look_further:
            for near in _near(caps, filled, position.seen):
                _scan(board, near, filled, effects)
        if not effects:
            turns = list(turns_of(position, 10_000).values())
            return play_turn(position, rng.choice(turns) if turns else (rng.choice(_quiet_steps(position)),))
        if rng.random() < self.epsilon:
            key = rng.choice(list(effects))
            return _erupt(position, effects[key], key >> 5, key >> 2 & 7)
        gains = _gains(position, effects)
        random_ = rng.random
        pick = max(gains, key=lambda key: gains[key] + random_() * 0.5)  # a little noise between equals
        return _erupt(position, effects[pick], pick >> 5, pick >> 2 & 7)

    def evaluate(self, position: Position) -> Sequence[float]:
        """Each seat's chance, guessed from its lead over the best other seat (exact once the game is over)."""
        seats = len(position.scores)
        if position.turn is None:
            if not position.winners:
                return (0.5,) * seats
            share = 1.0 / len(position.winners)
            return tuple(share if s in position.winners else 0.0 for s in range(seats))
        if seats == 1:
            return (1.0 - math.exp(-position.scores[0] / 30.0),)
        values = []
        scores = position.scores
        for s in range(seats):
            other = max(scores[o] for o in range(seats) if o != s)
            values.append(1.0 / (1.0 + math.exp(-(scores[s] - other) / self.scale)))
        return tuple(values)


def _quiet(caps: int, filled: int) -> Iterator[tuple[int, int, int]]:
    """(from, to, caps after) of every quiet step from this cap arrangement."""
    m = caps
    while m:
        low = m & -m
        src = low.bit_length() - 1
        m ^= low
        here = filled & low
        for dst, dst_bit, beyond_bit in _MOVES[src]:
            if caps & dst_bit or (here and beyond_bit and not caps & beyond_bit):
                continue
            yield src, dst, caps ^ low ^ dst_bit


def _near(caps: int, filled: int, seen: frozenset[int]) -> list[int]:
    """Cap arrangements one quiet step away (not seen this turn)."""
    return [after for _src, _dst, after in _quiet(caps, filled) if after not in seen]


def _scan(board: tuple[tuple[int, ...], ...], caps: int, filled: int, effects: dict[int, int]) -> None:
    """Add the eruptions from this cap arrangement to `effects`: key (from * 8 + direction) * 4 + pieces
    landing, value the caps after the step (the first arrangement found that gives this eruption)."""
    m = caps & filled
    while m:
        low = m & -m
        src = low.bit_length() - 1
        m ^= low
        n = len(board[src])
        for base, dst_bit, both_bits, further in _ERUPTING[src]:
            if caps & both_bits:
                continue
            k = 1
            for bit in further:
                if k == n or caps & bit:
                    break
                k += 1
            key = base + k
            if key not in effects:
                effects[key] = caps ^ low ^ dst_bit


def _gains(position: Position, effects: dict[int, Any]) -> dict[int, float]:
    """Each eruption's points for the seat to move; completing the colours while behind (which ends the
    game lost) counts as a big loss."""
    seat = position.turn
    assert seat is not None
    board, scores = position.board, position.scores
    mine = position.held[seat]
    base = scores[seat]
    behind = len(scores) > 1 and base < max(s for i, s in enumerate(scores) if i != seat)
    gains = {}
    for key in effects:
        stack = board[key >> 5]
        i = len(stack) - 1
        counts = None
        for square in _LANDING[key >> 2][: key & 3]:
            target = board[square]
            if target and target[-1] % 3 == stack[i] % 3:
                if counts is None:
                    counts = list(mine)
                counts[stack[i]] += 1
            i -= 1
        gain = 0.0
        if counts is not None:
            gain = float(_score(counts) - base)
            if behind and _colours(counts) == _ALL_COLOURS:
                gain -= 20.0
        gains[key] = gain
    return gains


MODEL = VolcanoModel()


def greedy(view: VolcanoState, seat: int, rng: random.Random) -> str:
    """The step that captures the most points now (ties at random); a random step when none captures."""
    moves = VOLCANO.legal_moves(view)
    before = score_of(view.captures[seat])
    best, picks = 0, []
    for move in moves:
        after = VOLCANO.play(view, move)
        gain = score_of(after.captures[seat]) - before
        if gain > best:
            best, picks = gain, [move]
        elif gain == best and gain > 0:
            picks.append(move)
    return rng.choice(picks or moves)
