"""What the search needs to know about a game, and the default that asks the public contract.

A `Model` is the game as the search sees it. It may keep its own, faster representation of a position
(bitmasks, lists) as long as every move it names is a legal move of the real engine: the search only
ever hands back `notation(...)` text, which the service checks again like any player's move.

Hidden information (OpenSpiel's "observer" idea): the search starts from `view(state, seat)`, never the
state. `determinize` turns that view into one full position the seat cannot tell apart from the truth,
sampling everything it may not know (hidden cards, the order of a deck, the seed behind future dice). A
model must sample every hidden part afresh, whatever the view holds there, so scrambling the hidden
parts of its input cannot change what the computer does.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from bot.games import AnyGame, Outcome


class Model(Protocol):
    """One game for the search. `S` is the model's position type, moves are hashable tree keys."""

    game: AnyGame

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        """A full position consistent with what `seat` sees in `view`, hidden parts sampled from `rng`."""
        ...

    def to_move(self, position: Any) -> int | None:
        """The seat to move, or None once the game is over."""
        ...

    def moves(self, position: Any) -> Sequence[Hashable]:
        """The moves the tree considers here: all legal moves, or a sensible subset of them."""
        ...

    def apply(self, position: Any, move: Any) -> Any:
        """The position after `move` (a new value: the search keeps the old one)."""
        ...

    def playout(self, position: Any, rng: random.Random) -> Sequence[float]:
        """Play on cheaply from `position` and say how good the end is for each seat, in [0, 1]."""
        ...

    def notation(self, position: Any, move: Any) -> str:
        """The move as the engine's `play` reads it."""
        ...


def outcome_values(outcome: Outcome, seats: int) -> tuple[float, ...]:
    """1 for each winner and 0 for the others; 0.5 for everyone in a draw."""
    if not outcome.winners:
        return (0.5,) * seats
    return tuple(1.0 if seat in outcome.winners else 0.0 for seat in range(seats))


def score_values(scores: Sequence[float]) -> tuple[float, ...]:
    """A cut-off position judged by the scores so far: each seat's share of the points, in [0, 1]
    (everyone equal when nobody has scored)."""
    total = sum(max(0.0, s) for s in scores)
    if total <= 0:
        return (1.0 / len(scores),) * len(scores) if scores else ()
    return tuple(max(0.0, s) / total for s in scores)


class PublicModel:
    """A model made of the public contract alone: slow (text moves, full checks) but correct.

    Games whose only secret is the seed behind their dice use it as it is: `determinize` puts a fresh
    seed in the view. Per-game models subclass it to play faster or smarter.
    """

    depth = 200
    """Playout plies before the position is judged by `evaluate` instead of played to the end."""

    def __init__(self, game: AnyGame):
        self.game = game

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        if self.game.chance:  # the view hides the seed behind the dice: any seed is as likely
            return dataclasses.replace(view, seed=rng.getrandbits(48))
        return view

    def to_move(self, position: Any) -> int | None:
        return self.game.to_move(position)

    def moves(self, position: Any) -> Sequence[Hashable]:
        return self.game.legal_moves(position)

    def apply(self, position: Any, move: Any) -> Any:
        return self.game.play(position, str(move))

    def rollout_move(self, position: Any, rng: random.Random) -> Hashable:
        """The playout policy: uniformly random unless a model knows better."""
        return rng.choice(self.moves(position))

    def playout(self, position: Any, rng: random.Random) -> Sequence[float]:
        for _ in range(self.depth):
            if self.to_move(position) is None:
                break
            position = self.apply(position, self.rollout_move(position, rng))
        return self.evaluate(position)

    def evaluate(self, position: Any) -> Sequence[float]:
        """The end of a playout: the result if the game is over, else the scores so far."""
        outcome = self.game.outcome(position)
        scores = self.game.scores(position) or (0.0, 0.0)  # a game that keeps no score has two seats
        if outcome is not None:
            return outcome_values(outcome, len(scores))
        return score_values(scores)

    def notation(self, position: Any, move: Any) -> str:
        return str(move)
