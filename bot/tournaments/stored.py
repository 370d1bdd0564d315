"""A tournament as the bot runs it: the pure `Tournament` with where it lives and how it stands, and the
games its boards are played in. Plain data, like bot/models.py: the store reads and writes them
(the `tournaments` and `tournament_games` tables), the service (bot/service/tournaments.py) changes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import Place, Player
from bot.tournaments.model import Tournament

SIGNUP, PLAYING, FINISHED, CANCELLED = "open", "running", "over", "cancelled"
"""How a tournament stands: open for sign-up, its rounds being played, over, or cancelled (nobody came)."""


@dataclass(slots=True)
class HeldTournament:
    """One tournament the bot holds: `tournament` is the whole document (players, pairings, results)."""

    id: int
    tournament: Tournament
    created_by: Player
    place: Place = field(default_factory=Place)
    """Where it was opened (channel) and its thread, where rounds are announced."""
    message_id: int | None = None
    """The sign-up post, with its Join / Leave buttons (Discord)."""
    status: str = SIGNUP
    closes_at: float | None = None
    """When sign-up closes and the tournament starts by itself (None: a moderator starts it)."""
    created_at: float = 0.0
    updated_at: float = 0.0

    @property
    def open(self) -> bool:
        return self.status == SIGNUP

    @property
    def running(self) -> bool:
        return self.status == PLAYING


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """The game a board of a round is played in: a match, or a death match series (`series_id`; `match_id`
    is then its first game). `voided`: its round was voided, or the game was replaced by a fresh one."""

    id: int
    tournament_id: int
    round: int
    board: int
    match_id: int | None
    series_id: int | None = None
    voided: bool = False


__all__ = ["CANCELLED", "FINISHED", "PLAYING", "SIGNUP", "HeldTournament", "TournamentGame"]


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board of a round as a front-end announces it: who plays, and in which game."""

    board: int
    players: tuple[Player, ...]
    match_id: int | None = None
    series_id: int | None = None
    result: str | None = None
    """"bye" or "forfeit" for a board decided without a game."""
