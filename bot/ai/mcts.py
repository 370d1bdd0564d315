"""Information-set Monte Carlo tree search, one implementation for every game.

Each iteration samples one full position the computer cannot tell from the truth (`determinize`: hidden
cards, deck order and future dice), walks the tree of moves from the root with UCB1, adds one new move,
plays on cheaply (`playout`) and credits every move on the path with how the end looked for the seat
that chose it. Moves are keyed by their identity, not by the sampled position, so one tree gathers what
every sample says about a move (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
2012: the single-observer variant with availability counts). Games without hidden parts or chance just
get the ordinary UCT.

Seats are numbered, so the same code serves two to six players: each node keeps the total reward of the
seat that moved into it, and each seat picks what is best for itself.

Where nothing is hidden and nothing is left to chance (a fixed game: `game.chance` and
`game.hidden_information` both False), there is nothing to sample and a move always leads to the same
position, so each node keeps its position and its moves: after the first walk through a node the search
never asks the model about it again, and `determinize` is called once. A child's availability there is
its parent's visits since the child was made, so each child keeps that moment (`born`); and since the
parent's visits + 1 bound every availability, mean + EXPLORATION * sqrt(log(parent's visits + 1)) /
sqrt(visits), kept up to date per child, is an upper bound of its UCB1 score: the exact score (the same float as the
general path's) is worked out only for children whose bound beats the best found so far. Both paths
choose the same moves from the same random numbers.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.model import Model

EXPLORATION = 0.7
"""UCB1's constant. Rewards lie in [0, 1]; 0.7 explores a little less than the textbook sqrt(2)."""


class _Node:
    __slots__ = (
        "avail",
        "born",
        "children",
        "kids",
        "mean",
        "move",
        "mover",
        "moves",
        "position",
        "reward",
        "spread",
        "turn",
        "untried",
        "visits",
    )

    def __init__(self, mover: int | None, move: Hashable = None) -> None:
        self.mover = mover
        self.move = move
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        # A fixed game's node also keeps (see the module docstring): its position, the seat to move there,
        # its moves, those not tried yet (in the same order), its children in that order once all are
        # tried, reward / visits and 1 / sqrt(visits), and its parent's visits when it was made.
        self.position: Any = None
        self.turn: int | None = None
        self.moves: list[Hashable] = []
        self.untried: list[Hashable] | None = None
        self.kids: list[_Node] = []
        self.mean = 0.0
        self.spread = 0.0
        self.born = 0


_LOG = [0.0, 0.0]
"""_LOG[n] is math.log(n) for n >= 1 (the same float): looked up, not computed per child per visit."""
_ROOT_LOG = [0.0, 0.0]
_INVERSE_ROOT = [0.0, 1.0]
"""sqrt(log(n)) and 1 / sqrt(n), for the fixed path's bound of UCB1 (sqrt(log(N) / n) factored)."""


def _tables_past(n: int) -> None:
    """Make sure the tables hold every count up to n + 1 (they only grow, shared by every search)."""
    if n + 1 >= len(_LOG):
        more = range(len(_LOG), 2 * n + 2)
        _LOG.extend(math.log(k) for k in more)
        _ROOT_LOG.extend(math.sqrt(math.log(k)) for k in more)
        _INVERSE_ROOT.extend(1.0 / math.sqrt(k) for k in more)


@dataclass(frozen=True, slots=True)
class Choice:
    """The move the search settled on, and what it cost."""

    move: str
    iterations: int
    seconds: float
    visits: dict[str, int]
    """Visits per root move (the share of thought each got), for tests and curious players."""
    values: tuple[float, ...] = ()
    """Each seat's mean reward over the playouts that began with the chosen move: the search's estimate of
    each seat's chance from here (the analysis graph's points). Empty when no playout ran."""

    @property
    def playouts_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


def search(
    model: Model,
    view: Any,
    seat: int,
    *,
    iterations: int,
    seconds: float | None = None,
    rng: random.Random,
    clock: Callable[[], float] = time.perf_counter,
    skip_forced: bool = True,
) -> Choice:
    """The move `seat` should play in `view` (its own view of a position where it is to move).

    Stops after `iterations`, or at `seconds` if that comes first; an iteration budget alone makes the
    choice repeatable (same view, seed and budget, same move). A position with one legal move is not
    searched unless `skip_forced` is False (an analysis still wants its `values`).

    Python's cycle collector is off while it searches: nothing here makes a cycle (the tree only points
    down, and reference counting frees it), but each of the collector's passes walks every node made so
    far and every entry of the models' memos, which cost "1, 2, 3" 7% of its search.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(model, view, seat, iterations, seconds, rng, clock, skip_forced)
    finally:
        if collecting:
            gc.enable()


def _search(
    model: Model,
    view: Any,
    seat: int,
    iterations: int,
    seconds: float | None,
    rng: random.Random,
    clock: Callable[[], float],
    skip_forced: bool,
) -> Choice:
    started = clock()
    deadline = None if seconds is None else started + seconds
    first = model.determinize(view, seat, rng)
    if model.to_move(first) != seat:
        raise ValueError(f"seat {seat} is not to move in this position")
    root_moves = list(model.moves(first))
    if len(root_moves) == 1 and skip_forced:  # nothing to think about
        return Choice(model.notation(first, root_moves[0]), 0, clock() - started, {})
    fixed = not (model.game.chance or model.game.hidden_information)
    root = _Node(None)
    root.position = first
    totals: dict[Hashable, list[float]] = {}
    done = 0
    while done < iterations:
        if deadline is not None and done and clock() >= deadline:
            break
        if done + 1 >= len(_LOG):
            _tables_past(done)
        if fixed:  # nothing to sample: every iteration starts from `first`
            opening, values = _iterate_fixed(model, root, rng)
        else:
            position = first if done == 0 else model.determinize(view, seat, rng)
            opening, values = _iterate(model, root, position, rng)
        sums = totals.get(opening)
        if sums is None:
            totals[opening] = list(values)
        else:
            for index, value in enumerate(values):
                sums[index] += value
        done += 1
    best = max(
        root_moves,
        key=lambda m: (root.children[m].visits, root.children[m].reward) if m in root.children else (-1, 0.0),
    )
    visits = {model.notation(first, m): node.visits for m, node in root.children.items()}
    sums = totals.get(best)
    values = tuple(total / root.children[best].visits for total in sums) if sums else ()
    return Choice(model.notation(first, best), done, clock() - started, visits, values)


def _iterate(model: Model, root: _Node, position: Any, rng: random.Random) -> tuple[Hashable, Sequence[float]]:
    """One descent, expansion, playout and update; returns the root move it began with and the playout's
    values for every seat."""
    log, sqrt = _LOG, math.sqrt
    path = [root]
    node = root
    opening: Hashable = None
    while True:
        mover = model.to_move(position)
        if mover is None:
            break
        moves = model.moves(position)
        children = node.children
        untried = [m for m in moves if m not in children]
        if untried:
            move = rng.choice(untried)
            for m in moves:
                if m in children:
                    children[m].avail += 1
            child = children[move] = _Node(mover, move)
            if node is root:
                opening = move
            path.append(child)
            position = model.apply(position, move)
            break
        best_score = -1.0
        best_child = node
        for m in moves:
            child = children[m]
            child.avail += 1
            visits = child.visits
            score = child.reward / visits + EXPLORATION * sqrt(log[child.avail] / visits)
            if score > best_score:
                best_score, best_child = score, child
        if node is root:
            opening = best_child.move
        node = best_child
        path.append(node)
        position = model.apply(position, node.move)
    values = model.playout(position, rng)
    _update(path, values)
    return opening, values


def _iterate_fixed(model: Model, root: _Node, rng: random.Random) -> tuple[Hashable, Sequence[float]]:
    """`_iterate` for a fixed game, on the positions and moves the nodes keep."""
    log, root_log, sqrt, explore = _LOG, _ROOT_LOG, math.sqrt, EXPLORATION
    path = [root]
    node = root
    opening: Hashable = None
    while True:
        untried = node.untried
        if untried is None:  # the first walk through this node: ask the model once
            node.turn = model.to_move(node.position)
            node.moves = [] if node.turn is None else list(model.moves(node.position))
            untried = node.untried = node.moves[:]
        if untried:
            move = untried.pop(rng.randrange(len(untried)))  # rng.choice(untried), keeping the rest in order
            child = node.children[move] = _Node(node.turn, move)
            child.position = model.apply(node.position, move)
            child.born = node.visits
            if not untried:
                node.kids = [node.children[m] for m in node.moves]
            if node is root:
                opening = move
            path.append(child)
            node = child
            break
        if not node.kids:  # the game is over here
            break
        top = node.visits + 1  # bounds every child's availability (the root's first child has just this)
        width = explore * root_log[top]
        best_score = limit = -1.0
        best_child = node
        for child in node.kids:
            if child.mean + width * child.spread > limit:  # it may beat the best so far
                visits = child.visits
                score = child.reward / visits + explore * sqrt(log[top - child.born] / visits)
                if score > best_score:
                    best_score, best_child = score, child
                    limit = score - 1e-9  # a margin far above the bound's rounding
        if node is root:
            opening = best_child.move
        node = best_child
        path.append(node)
    values = model.playout(node.position, rng)
    inverse_root = _INVERSE_ROOT
    root.visits += 1
    for visited in path[1:]:  # every node below the root has a mover
        visits = visited.visits = visited.visits + 1
        reward = visited.reward = visited.reward + values[visited.mover]  # type: ignore[index]
        visited.mean = reward / visits
        visited.spread = inverse_root[visits]
    return opening, values


def _update(path: list[_Node], values: Sequence[float]) -> None:
    """Credit every node on the path with the playout's value for the seat that moved into it."""
    for visited in path:
        visited.visits += 1
        if visited.mover is not None:
            visited.reward += values[visited.mover]
