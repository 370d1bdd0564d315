"""The game contract every engine follows, and the one error family players see.

Modelled on python-chess: engines are pure functions over small immutable states, a move is a small value
that `parse` reads from text and `notation` writes back canonically, and every refusal is a ValueError whose
message quotes the input and says why.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Protocol, TypeVar, cast, runtime_checkable

from bot.games.phrases import listing, say
from bot.i18n import N_, _, ngettext


class GameError(ValueError):
    """Base of every error an engine raises; the message is meant for players."""


class IllegalMove(GameError):
    """The text is not a legal move in this position (bad notation included)."""


class InvalidNotation(IllegalMove):
    """The text cannot be read as a move of this game at all."""


class BadOptions(GameError):
    """`new` was given an unknown option, a bad option value or a bad seat count."""


class BadState(ValueError):
    """`loads` was given text that is not a state of this game (not JSON, another game's, tampered, broken).
    Not a GameError: the message is for maintainers (players get an apology), and it never quotes hidden
    information."""


class Termination(StrEnum):
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
    CLAIM = "claim"
    """An opponent claimed the game: the player to move of an untimed game had not moved for the claim
    period (bot/service/claims.py)."""
    ABORT = "abort"
    """A moderator stopped the match with no result: no `Outcome` carries it (an aborted match has none),
    but records and lists name it."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    `scores` is indexed by seat. `winners` holds the seats that won; it is empty for a draw.
    `reason` is a short sentence for players ("more fish", "reserve time ran out"), stored in English (a
    record, the database); `said` is it in the reader's language. `termination` says the same for code.
    """

    scores: tuple[float, ...]
    winners: frozenset[int]
    reason: str
    termination: Termination = Termination.RULES

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def said(self) -> str:
        """`reason` in the reader's language (bot/games/phrases.py: a phrase of the engine's, or as it is)."""
        return say(self.reason)

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


OptionKind = Literal["int", "text", "choice", "seat"]


@dataclass(frozen=True, slots=True)
class Option:
    """One keyword option of `new`, declared by the engine: `check_new` checks a value against it, and the
    front-ends build their flags (`--turn-cap`), slash-command parameters, help and refusals from it.

    `kind` is one of:
    - "int": a whole number from `minimum` to `maximum` (digits in a text count too, as a terminal types
      them, and as older stored options hold them);
    - "choice": one of `choices`, pairs of (value, what it means; may be empty);
    - "text": read by the engine, which says what is wrong with it (a Fish board, a Volcano layout); its
      `choices` are named values the front-ends suggest, and other text may be allowed too;
    - "seat": a player of the match, by seat number (0 first); the terminal takes a player's name.
    `help` is one line, without the default (`summary` adds it), marked for the catalog (`N_`) and said in the
    reader's language by `summary`, `allowed` and `refusal` (and `described`), as are the meanings of
    `choices`; the values stay English (a player types them). `None` is a value like any other, allowed
    only where it is the default (Event Horizon's `first`: drawn from the seed). `offered` False: kept only so
    that older games replay (Geyser's `starts`); no front-end offers it.
    """

    name: str
    kind: OptionKind
    help: str
    default: Any = None
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    offered: bool = True

    @property
    def values(self) -> tuple[str, ...]:
        """The values of `choices`, in order."""
        return tuple(value for value, _ in self.choices)

    @property
    def flag(self) -> str:
        """The terminal's flag: `--turn-cap` for `turn_cap`."""
        return "--" + self.name.replace("_", "-")

    @property
    def described(self) -> str:
        """`help` in the reader's language."""
        return _(self.help)

    @property
    def shown_default(self) -> str | None:
        """The default in words ("12", "mother", "the first player"), None when `help` says it."""
        if self.default is None:
            return None
        if self.kind == "seat":
            return _("the first player") if self.default == 0 else _("seat {seat}").format(seat=self.default)
        return str(self.default)

    @property
    def summary(self) -> str:
        """`help` with the default: a slash command's description, a line of the terminal's help."""
        shown = self.shown_default
        if shown is None:
            return self.described
        if self.kind == "seat":
            return _("{help} (default: {default})").format(help=self.described, default=shown)
        return _("{help} (default {default})").format(help=self.described, default=shown)

    def allowed(self, seats: int) -> str:
        """What a value may be, in words: "a whole number from 1 to 40", "mother (...) or calm (...)"."""
        if self.kind == "int":
            return _("a whole number from {minimum} to {maximum}").format(minimum=self.minimum, maximum=self.maximum)
        if self.kind == "seat":
            return listing([_("seat {seat}").format(seat=seat) for seat in range(seats)], "or")
        if self.kind == "choice":
            return listing([f"{value} ({_(meaning)})" if meaning else value for value, meaning in self.choices], "or")
        return _("text")

    def refusal(self, seats: int, called: str | None = None) -> str:
        """Why a value is refused, naming what is allowed; `called`: the option as the front-end spells it."""
        name = called or self.name
        if self.kind == "choice":  # the meanings of the choices say it all
            return _("{option} must be {allowed}.").format(option=name, allowed=self.allowed(seats))
        return _("{option} must be {allowed}: {summary}.").format(
            option=name, allowed=self.allowed(seats), summary=self.summary
        )

    def read(self, value: Any, seats: int) -> Any:
        """`value` as `new` uses it (a whole number from its digits), or `BadOptions` (`refusal`)."""
        if value is None and self.default is None:
            return None
        if self.kind == "int":
            number, low, high = _whole(value), self.minimum, self.maximum
            if number is not None and (low is None or low <= number) and (high is None or number <= high):
                return number
        elif self.kind == "choice":
            if isinstance(value, str) and value in self.values:
                return value
        elif self.kind == "seat":
            if type(value) is int and 0 <= value < seats:  # not True, not 1.0: a seat indexes tuples
                return value
        elif self.kind == "text" and isinstance(value, str):  # what it says is the engine's to check
            return value
        raise BadOptions(self.refusal(seats))


class Options(tuple[Option, ...]):
    """A game's options, in the order front-ends list them: `Options(Option(...), ...)`."""

    def __new__(cls, *options: Option) -> Options:
        return super().__new__(cls, options)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(option.name for option in self)

    @property
    def offered(self) -> tuple[Option, ...]:
        """The options the front-ends offer (all but those kept for replays)."""
        return tuple(option for option in self if option.offered)

    def named(self, name: str) -> Option:
        """The option called `name` (KeyError if there is none)."""
        for option in self:
            if option.name == name:
                return option
        raise KeyError(name)


def _whole(value: Any) -> int | None:
    """A whole number given as an int (not a bool) or as digits in a text, else None."""
    if isinstance(value, str) and value.strip().isdigit():
        try:
            return int(value)
        except ValueError:  # "²" is a digit that int() refuses; so is a number of thousands of digits
            return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


S = TypeVar("S")
"""A game's state: a small immutable value of the engine's own (`FishState`)."""
M = TypeVar("M")
"""A game's move: a small frozen value of the engine's own (`FishMove`), whose fields front-ends read."""


@runtime_checkable
class Game(Protocol[S, M]):
    """What the service, the front-ends and the renderers may rely on (docs/architecture.md, "The game contract").
    `Game[FishState, FishMove]`: each engine names its state and move types (`Game[Any, Any]` where any game
    will do).

    Moves as python-chess has them: `parse(state, text)` is the legal move `text` stands for here (a small
    frozen value of the engine's own, or IllegalMove); `play(state, move)` trusts a move parsed on this
    state and parses a str first (so text works everywhere, like `push_san`); `notation(move)` is its
    canonical text, which parses back to the same move; `canonical(state, text)` is
    `notation(parse(state, text))`, what the move log stores. `legal_moves(state)` lists the legal moves in
    that notation (what a player types and autocomplete offers); `legal(state)` gives the same moves as
    values, for a front-end to read their fields rather than split text.

    Beyond DESIGN.md's table: `events(state)` says what the last move did, in the reader's language (the
    state keeps the lines in English, as it stores them: bot/games/phrases.py says them),
    with seats written as `{0}`, `{1}`... so a front-end can fill in player names with `str.format`;
    `options` declares the keyword options `new` accepts (`Option`s); `scores(state)` gives the points so far by seat;
    `rules_card` is a short rules summary for players (/rules); `move_group(move)` names the group a legal
    move is listed under (`moves`: one group a line).
    """

    key: str
    title: str
    min_players: int
    max_players: int
    options: Options

    @property
    def rules_card(self) -> str: ...

    def new(self, seats: int, seed: int, **options: Any) -> S: ...
    def to_move(self, state: S) -> int | None: ...
    def legal_moves(self, state: S) -> list[str]: ...
    def legal(self, state: S) -> list[M]: ...
    def parse(self, state: S, text: str) -> M: ...
    def play(self, state: S, move: M | str) -> S: ...
    def notation(self, move: M) -> str: ...
    def canonical(self, state: S, move: str) -> str: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def scores(self, state: S) -> tuple[float, ...]: ...
    def dumps(self, state: S) -> str: ...
    def loads(self, text: str) -> S: ...
    def view(self, state: S, seat: int | None) -> S: ...
    def events(self, state: S) -> tuple[str, ...]: ...

    # the optional members, with their defaults in GameRules:
    chance: bool
    hidden_information: bool
    seats_can_leave: bool

    @property
    def score_label(self) -> str: ...
    @property
    def own_message(self) -> tuple[str, ...]: ...

    def resign(self, state: S, seat: int) -> S: ...
    def seats_in(self, state: S) -> tuple[int, ...]: ...
    def reseed(self, state: S, seed: int) -> S: ...
    def choices(self, state: S) -> list[str]: ...
    def public_move(self, move: str) -> str: ...
    def private_lines(self, state: S, seat: int) -> tuple[str, ...]: ...
    def move_group(self, move: str) -> str: ...


AnyGame = Game[Any, Any]
"""Any game at all: what the registry, the service and the front-ends hold."""


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
    score_words: str = N_("Score")
    """What the numbers of `scores` count, where it is not points ("Geysers held"): marked, said by
    `score_label`."""

    @property
    def score_label(self) -> str:
        """`score_words` in the reader's language."""
        return _(self.score_words)

    own_words: tuple[str, ...] = ()
    """Event lines (by prefix) that front-ends post as a message of their own (Geyser's firing phases):
    marked, said by `own_message`."""

    @property
    def own_message(self) -> tuple[str, ...]:
        """`own_words` in the reader's language: the prefixes of the lines `events` says in it."""
        return tuple(_(words) for words in self.own_words)

    def canonical(self, state: Any, move: str) -> str:
        """The canonical text of a legal move typed in any accepted spelling (what the move log stores)."""
        game = cast(AnyGame, self)
        return game.notation(game.parse(state, move))

    def legal(self, state: Any) -> list[Any]:
        """The legal moves as the engine's values, in the order of `legal_moves` (each read from its text).
        Chance stays secret: a game whose `parse` plays a move to learn its dice (Geyser) gives them unplayed,
        so each value's notation is exactly its `legal_moves` text."""
        game = cast(AnyGame, self)
        return [game.parse(state, text) for text in game.legal_moves(state)]

    def resign(self, state: Any, seat: int) -> Any:
        """The state after `seat` leaves (only where `seats_can_leave`)."""
        raise IllegalMove(_("Nobody can leave this game and let the others play on."))

    def seats_in(self, state: Any) -> tuple[int, ...]:
        """The seats still in the game: every seat where nobody can leave (a game of a fixed seat count, or
        one that keeps its count in `state.seats`); games whose seats can leave give those that have not."""
        game = cast(AnyGame, self)
        return tuple(range(game.min_players if game.min_players == game.max_players else state.seats))

    def reseed(self, state: Any, seed: int) -> Any:
        """The same position with fresh chance behind it: every roll and every card nobody has seen yet now
        comes from `seed`, what anyone knows stays. A takeback or an undo reseeds the position it goes back
        to, so replaying a move cannot show again the dice or the card it showed (games with `chance`
        override this; a game without chance has nothing to redraw)."""
        return state

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


def seat_leaves(game: AnyGame, seats: int) -> bool:
    """The one decision for a seat that is out (it resigned, its time ran out, an opponent claimed the game):
    True if it leaves and the others play on, False if it loses and the game ends.

    RULING (volcano.md, confirmed): in a game of three or more whose seats can leave, an out seat leaves.
    In a game of two whoever is out has lost, as in every other game, and a solitaire game ends with no
    winner (and, not being ended by the rules, no best score)."""
    return game.seats_can_leave and seats > 2


def first_word(move: str) -> str:
    """A move's first word (the whole move if it has one): the default group (see `Game.move_group`)."""
    words = move.split()
    return words[0] if words else move


def check_seats(game: AnyGame, seats: int) -> None:
    """Refuse a seat count outside the game's limits, in words."""
    if not isinstance(seats, int) or not game.min_players <= seats <= game.max_players:
        lo, hi = game.min_players, game.max_players
        if lo == hi:
            raise BadOptions(
                ngettext(
                    "{game} is played by {count} player, not {seats}.",
                    "{game} is played by {count} players, not {seats}.",
                    lo,
                ).format(game=game.title, count=lo, seats=seats)
            )
        raise BadOptions(
            _("{game} is played by {low} to {high} players, not {seats}.").format(
                game=game.title, low=lo, high=hi, seats=seats
            )
        )


def check_options(game: AnyGame, options: dict[str, Any], known: Iterable[str] | None = None) -> None:
    """Refuse options the game does not have, naming the ones it does (`known`: by default the names of
    `game.options`)."""
    names = set(game.options.names if known is None else known)
    unknown = sorted(set(options) - names)
    if unknown and not names:
        raise BadOptions(
            _("{game} has no options (not even {unknown}).").format(game=game.title, unknown=", ".join(unknown))
        )
    if unknown:
        raise BadOptions(
            _("{game} has no option {unknown} (options: {options}).").format(
                game=game.title, unknown=", ".join(unknown), options=", ".join(sorted(names))
            )
        )


def read_options(game: AnyGame, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """Every option of `game`, as `new` reads it: the value given, checked against its `Option` (refused
    with `BadOptions` naming what is allowed), else the default."""
    return {o.name: o.read(options[o.name], seats) if o.name in options else o.default for o in game.options}


def check_new(game: AnyGame, seats: int, seed: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What every `new` checks first: the seat count, the option names, a whole-number seed, then each
    option's value against its declaration. Gives every option's value (`read_options`); what the spec
    cannot say (a Volcano layout's letters, a Fish board's digits) the engine checks after."""
    check_seats(game, seats)
    check_options(game, options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadOptions(_("seed must be a whole number."))
    return read_options(game, options, seats)


def card(paragraphs: Iterable[str]) -> str:
    """A rules card in the reader's language: its paragraphs (each marked `N_` where defined, so a
    translator works on one at a time) said now and written one a line."""
    return "\n".join(_(paragraph) for paragraph in paragraphs)
