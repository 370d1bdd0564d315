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
"""

from __future__ import annotations

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
    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


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
    """
    started = clock()
    deadline = None if seconds is None else started + seconds
    first = model.determinize(view, seat, rng)
    if model.to_move(first) != seat:
        raise ValueError(f"seat {seat} is not to move in this position")
    root_moves = list(model.moves(first))
    if len(root_moves) == 1 and skip_forced:  # nothing to think about
        return Choice(model.notation(first, root_moves[0]), 0, clock() - started, {})
    root = _Node(None)
    totals: dict[Hashable, list[float]] = {}
    done = 0
    while done < iterations:
        if deadline is not None and done and clock() >= deadline:
            break
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
            child = children[move] = _Node(mover)
            if node is root:
                opening = move
            path.append(child)
            position = model.apply(position, move)
            break
        best_score = -1.0
        best_move: Hashable = None
        best_child = node
        for m in moves:
            child = children[m]
            child.avail += 1
            score = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best_score, best_move, best_child = score, m, child
        if node is root:
            opening = best_move
        node = best_child
        path.append(node)
        position = model.apply(position, best_move)
    values = model.playout(position, rng)
    for visited in path:
        visited.visits += 1
        if visited.mover is not None:
            visited.reward += values[visited.mover]
    return opening, values
