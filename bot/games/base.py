"""The game contract every engine follows, and the one error family players see.

Modelled on python-chess: engines are pure functions over small immutable states, moves are text in
canonical notation, and every refusal is a ValueError whose message quotes the input and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, runtime_checkable


class GameError(ValueError):
    """Base of every error an engine raises; the message is meant for players."""


class IllegalMove(GameError):
    """The text is not a legal move in this position (bad notation included)."""


class InvalidNotation(IllegalMove):
    """The text cannot be read as a move of this game at all."""


class BadOptions(GameError):
    """`new` was given an unknown option, a bad option value or a bad seat count."""


class Termination(str, Enum):
    """How a game ended, for code to branch on (posts, records, ratings) where `Outcome.reason` is for
    people. Engines only ever end a game by the rules; the others are the service's."""

    RULES = "rules"
    """The position ended the game (the engine's own outcome)."""
    RESIGNATION = "resignation"
    FLAG = "flag"
    """The seat to move ran out of reserve time."""
    ADJUDICATION = "adjudication"
    """A moderator named the result."""
    ABANDONED = "abandoned"
    """Every person left; only computer players remained."""
    ABORT = "abort"
    """A moderator stopped the match with no result: no `Outcome` carries it (an aborted match has none),
    but records and lists name it."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    `scores` is indexed by seat. `winners` holds the seats that won; it is empty for a draw.
    `reason` is a short sentence for players ("more fish", "reserve time ran out"); `termination` says
    the same for code.
    """

    scores: tuple[float, ...]
    winners: frozenset[int]
    reason: str
    termination: Termination = Termination.RULES

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": sorted(self.winners),
            "reason": self.reason,
            "termination": self.termination.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Read `to_json`'s dict; one stored before `termination` existed reads as ended by the rules."""
        termination = Termination(data.get("termination", Termination.RULES.value))
        return cls(tuple(data["scores"]), frozenset(data["winners"]), data["reason"], termination)


@runtime_checkable
class Game(Protocol):
    """What the service, the front-ends and the renderers may rely on (docs/architecture.md, "The game contract").

    Beyond DESIGN.md's table: `canonical(state, move)` is the canonical notation of a legal move given
    in any accepted spelling (what the move log stores); `events(state)` says what the last move did,
    with seats written as `{0}`, `{1}`... so a front-end can fill in player names with `str.format`;
    `options` names the keyword options `new` accepts; `scores(state)` gives the points so far by seat;
    `rules_card` is a short rules summary for players (/rules); `move_group(move)` names the group a legal
    move is listed under (`moves`: one group a line).
    """

    key: str
    title: str
    min_players: int
    max_players: int
    options: frozenset[str]
    rules_card: str

    def new(self, seats: int, seed: int, **options: Any) -> Any: ...
    def to_move(self, state: Any) -> int | None: ...
    def legal_moves(self, state: Any) -> list[str]: ...
    def play(self, state: Any, move: str) -> Any: ...
    def canonical(self, state: Any, move: str) -> str: ...
    def outcome(self, state: Any) -> Outcome | None: ...
    def scores(self, state: Any) -> tuple[float, ...]: ...
    def dumps(self, state: Any) -> str: ...
    def loads(self, text: str) -> Any: ...
    def view(self, state: Any, seat: int | None) -> Any: ...
    def events(self, state: Any) -> tuple[str, ...]: ...

    # the optional members, with their defaults in GameRules:
    chance: bool
    hidden_information: bool
    seats_can_leave: bool
    score_label: str
    own_message: tuple[str, ...]

    def resign(self, state: Any, seat: int) -> Any: ...
    def choices(self, state: Any) -> list[str]: ...
    def public_move(self, move: str) -> str: ...
    def private_lines(self, state: Any, seat: int) -> tuple[str, ...]: ...
    def move_group(self, move: str) -> str: ...


class GameRules:
    """The contract's optional members, declared once with their defaults: every engine subclasses this and
    overrides what it has, so no caller ever asks a game `hasattr` (OpenSpiel declares a game's type the
    same way: chance, information, how players leave)."""

    chance: bool = False
    """Dice or a shuffled deck: what comes next depends on a seed the state carries, which views hide."""
    hidden_information: bool = False
    """Some of the state is not every seat's to see: `view` hides it, `public_move` and `private_lines`
    keep it out of public posts, logs and errors."""
    seats_can_leave: bool = False
    """In a game of three or more, a seat may leave (`resign`) while the others play on; otherwise
    resigning ends the game as a loss."""
    score_label: str = "Score"
    """What the numbers of `scores` count, where it is not points ("Geysers held")."""
    own_message: tuple[str, ...] = ()
    """Event lines (by prefix) that front-ends post as a message of their own (Geyser's firing phases)."""

    def resign(self, state: Any, seat: int) -> Any:
        """The state after `seat` leaves (only where `seats_can_leave`)."""
        raise IllegalMove("Nobody can leave this game and let the others play on.")

    def choices(self, state: Any) -> list[str]:
        """Moves to offer as buttons or a menu under the board (Geyser's again / retreat); none by default."""
        return []

    def public_move(self, move: str) -> str:
        """A legal move as everyone may read it (Event Horizon hides the card placed face down)."""
        return move

    def private_lines(self, state: Any, seat: int) -> tuple[str, ...]:
        """What only `seat` may read about the position (its hand); nothing in a game of open information."""
        return ()

    def move_group(self, move: str) -> str:
        """The group `move` is listed under, a short label in the game's notation (Themiscyra's stone
        pair `e5 e8`, a Fish token's square `D4`); the moves of a group differ in the rest. Engines know
        their notation and give their own; the default is the move's first word."""
        return first_word(move)


def first_word(move: str) -> str:
    """A move's first word (the whole move if it has one): the default group (see `Game.move_group`)."""
    words = move.split()
    return words[0] if words else move


def check_seats(game: Game, seats: int) -> None:
    """Refuse a seat count outside the game's limits, in words."""
    if not isinstance(seats, int) or not game.min_players <= seats <= game.max_players:
        lo, hi = game.min_players, game.max_players
        wanted = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise BadOptions(f"{game.title} is played by {wanted} players, not {seats}.")


def check_options(game: Game, options: dict[str, Any], known: set[str]) -> None:
    """Refuse options the game does not have, naming the ones it does."""
    unknown = sorted(set(options) - known)
    if unknown and not known:
        raise BadOptions(f"{game.title} has no options (not even {', '.join(unknown)}).")
    if unknown:
        raise BadOptions(f"{game.title} has no option {', '.join(unknown)} (options: {', '.join(sorted(known))}).")


def check_new(game: Game, seats: int, seed: Any, options: dict[str, Any]) -> None:
    """What every `new` checks first: the seat count, the option names and a whole-number seed."""
    check_seats(game, seats)
    check_options(game, options, set(game.options))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadOptions("seed must be a whole number.")
