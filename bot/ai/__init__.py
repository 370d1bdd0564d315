"""Computer players: one search (bot/ai/mcts.py) and a model per game (bot/ai/<game>.py).

`think` is the whole interface the bot uses: a seat's own view in, a move in notation out. It is a plain
function of picklable values, so the bot runs it in a worker process, off the event loop.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from bot.ai.mcts import Choice, search
from bot.ai.model import Model, PublicModel
from bot.games import GAMES

__all__ = ["LEVELS", "Choice", "Level", "Model", "PublicModel", "model_for", "think"]


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
    """The game's own model from bot/ai/<game>.py (its `MODEL`), else the public-contract default."""
    if game_key not in _MODELS:
        try:
            module = importlib.import_module(f"bot.ai.{game_key}")
        except ModuleNotFoundError:
            _MODELS[game_key] = PublicModel(GAMES[game_key])
        else:
            _MODELS[game_key] = module.MODEL
    return _MODELS[game_key]


def think(game_key: str, view: Any, seat: int, level: Level, seed: int) -> Choice:
    """The move `seat` plays from its `view`, at `level`; `seed` makes the choice repeatable when the
    iteration budget, not the clock, ends the search."""
    model = model_for(game_key)
    iterations = getattr(model, "iterations", {}).get(level.name, level.iterations)
    return search(model, view, seat, iterations=iterations, seconds=level.seconds, rng=random.Random(seed))
