"""Tournaments (issue #23): knockout, round robin and Swiss, for two-player games and for pods.

The pure core: `Tournament` (model.py) is an immutable value whose operations return a new one, pairing.py
pairs rounds, standings.py ranks players with their tie-breaks. No clock, no I/O, no randomness; the
service stores `Tournament.to_json()` and rebuilds it with `Tournament.from_json`. docs/tournaments.md
says how each format pairs, scores and breaks ties.
"""

from __future__ import annotations

from bot.tournaments.model import (
    FORMATS,
    Entrant,
    Former,
    Pairing,
    Result,
    Round,
    Tournament,
    TournamentError,
    places_from_outcome,
    points_for_places,
)
from bot.tournaments.standings import Standing, standings

__all__ = [
    "FORMATS",
    "Entrant",
    "Former",
    "Pairing",
    "Result",
    "Round",
    "Standing",
    "Tournament",
    "TournamentError",
    "places_from_outcome",
    "points_for_places",
    "standings",
]
