"""The registry of games: `REGISTRY[key]` is the game's `Registration` (bot/games/registration.py), its
engine and the parts above it, and `GAMES[key]` the engine object alone.

Engines are pure: no I/O, no clock, no randomness except the seeded generator kept in the state.
"""

from __future__ import annotations

from bot.games import fish, geyser, horizon, themiscyra, volcano
from bot.games.base import (
    AnyGame,
    BadOptions,
    Game,
    GameError,
    IllegalMove,
    InvalidNotation,
    Outcome,
    Termination,
    seat_leaves,
)
from bot.games.registration import Registration

REGISTRY: dict[str, Registration] = {
    game.REGISTRATION.key: game.REGISTRATION for game in (fish, volcano, themiscyra, geyser, horizon)
}
"""Every game, in the order lists name them; adding a game is one entry here."""
GAMES: dict[str, AnyGame] = {key: registration.engine for key, registration in REGISTRY.items()}

__all__ = [
    "GAMES",
    "REGISTRY",
    "AnyGame",
    "BadOptions",
    "Game",
    "GameError",
    "IllegalMove",
    "InvalidNotation",
    "Outcome",
    "Registration",
    "Termination",
    "seat_leaves",
]
