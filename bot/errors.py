"""The refusals of the service: each message is for the player, and nothing was changed.

A module of its own so the store can raise `NotSaved` and `DiskFull` without importing the service.
"""

from __future__ import annotations


class ServiceError(ValueError):
    """A refused command; the message is for the player and nothing was changed."""


class NoSuchMatch(ServiceError):
    pass


class NotInMatch(ServiceError):
    pass


class NotYourTurn(ServiceError):
    pass


class StaleBoard(ServiceError):
    pass


class MatchNotRunning(ServiceError):
    pass


class MatchPaused(ServiceError):
    pass


class TimeUp(ServiceError):
    pass


class ChallengeTaken(ServiceError):
    pass


class NoSuchChallenge(ServiceError):
    """A challenge's button names no challenge the bot can accept (never sent, or sent before they were stored)."""


class NotSaved(ServiceError):
    """The database could not take the change (it became read-only); it was rolled back (bot/store.py)."""


class DiskFull(NotSaved):
    """The database's disk is full; the change was rolled back and play resumes once there is space."""


class LimitReached(ServiceError):
    pass
