"""The registry of games: `GAMES[key]` is the engine object for that game.

Engines are pure: no I/O, no clock, no randomness except the seeded generator kept in the state.
"""

from __future__ import annotations

from bot.games.base import BadOptions, Game, GameError, IllegalMove, InvalidNotation, Outcome, Termination
from bot.games.fish import FISH
from bot.games.geyser import GEYSER
from bot.games.horizon import HORIZON
from bot.games.themiscyra import THEMISCYRA
from bot.games.volcano import VOLCANO

GAMES: dict[str, Game] = {game.key: game for game in (FISH, VOLCANO, THEMISCYRA, GEYSER, HORIZON)}

__all__ = ["GAMES", "BadOptions", "Game", "GameError", "IllegalMove", "InvalidNotation", "Outcome", "Termination"]
