"""Computer players: one search (bot/ai/mcts.py) and a model per game (bot/ai/<game>.py).

`think` is the whole interface the bot uses: a seat's own view in, a move in notation out. It is a plain
function of picklable values, so the bot runs it in a worker process, off the event loop. `evaluate` is
the analysis's (bot/analysis.py): a fixed number of playouts from any view, a forced move searched too,
giving each seat's chances there and the move the computer prefers.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai.mcts import Choice, search
from bot.ai.model import Model, PublicModel
from bot.games import REGISTRY
from bot.games.registration import resolve

__all__ = ["LEVELS", "Choice", "Evaluation", "Level", "Model", "PublicModel", "evaluate", "model_for", "think"]


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the computer thinks: at most `iterations` playouts, and at most `seconds` (None: no
    time limit, so the choice depends on the seed alone)."""

    name: str
    iterations: int
    seconds: float | None


LEVELS = {
    "easy": Level("easy", 60, 1.0),
    "normal": Level("normal", 600, 2.0),
    "hard": Level("hard", 20_000, 5.0),
}
"""Easy looks a few moves deep at best; normal is what bench/arena.py measures; hard thinks the longest
(its seconds are the HARD_SECONDS setting)."""

_MODELS: dict[str, Model] = {}


def model_for(game_key: str) -> Model:
    """The game's own model, named by its registration (`bot.ai.<game>:MODEL`), else the public-contract default."""
    if game_key not in _MODELS:
        registration = REGISTRY[game_key]
        path = registration.model
        _MODELS[game_key] = resolve(path) if path is not None else PublicModel(registration.engine)
    return _MODELS[game_key]


def think(game_key: str, view: Any, seat: int, level: Level, seed: int) -> Choice:
    """The move `seat` plays from its `view`, at `level`; `seed` makes the choice repeatable when the
    iteration budget, not the clock, ends the search."""
    model = model_for(game_key)
    iterations = getattr(model, "iterations", {}).get(level.name, level.iterations)
    return search(model, view, seat, iterations=iterations, seconds=level.seconds, rng=random.Random(seed))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What `evaluate` found: the search's choice, and each seat's mean reward over all its playouts."""

    choice: Choice
    values: tuple[float, ...]
    """Each seat's mean reward in [0, 1] over every playout of the search, whichever move began it: the
    search's value of the position itself. (`choice.values`, through the chosen move alone, overrates the
    seat to move: the best of a dozen noisy means, and from a spectator's view one measured only on the
    sampled hands that hold the card it plays; docs/analysis.md has the figures.)"""


class _Recording:
    """A model that keeps the sum of every playout's values, for `evaluate`; otherwise the model itself."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.game = model.game
        self.sums: list[float] = []
        self.playouts = 0

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        return self.model.determinize(view, seat, rng)

    def to_move(self, position: Any) -> int | None:
        return self.model.to_move(position)

    def moves(self, position: Any) -> Sequence[Hashable]:
        return self.model.moves(position)

    def apply(self, position: Any, move: Any) -> Any:
        return self.model.apply(position, move)

    def notation(self, position: Any, move: Any) -> str:
        return self.model.notation(position, move)

    def playout(self, position: Any, rng: random.Random) -> Sequence[float]:
        values = self.model.playout(position, rng)
        if not self.sums:
            self.sums = [0.0] * len(values)
        for index, value in enumerate(values):
            self.sums[index] += value
        self.playouts += 1
        return values


def evaluate(game_key: str, view: Any, seat: int, iterations: int, seed: int) -> Evaluation:
    """Each seat's chances in `view`, where `seat` is to move, and the move it would play there, after
    exactly `iterations` playouts (a forced move is searched too): no clock, so the same arguments always
    give the same answer. `view` may be a spectator's (`view(state, None)`): what it hides is sampled."""
    recording = _Recording(model_for(game_key))
    choice = search(recording, view, seat, iterations=iterations, rng=random.Random(seed), skip_forced=False)
    values = tuple(total / recording.playouts for total in recording.sums) if recording.playouts else choice.values
    return Evaluation(choice, values)
