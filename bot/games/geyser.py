"""Geyser (2011 game jam): rules in docs/rules/geyser.md (binding: shared/rules/geyser.md, every RULING included);
the island is data/geyser_map.txt.

2 to 4 players move tokens one square at a time across an island of geysers, claim geysers (and a new
token with each claim), fight battles with a die plus the geysers they control, and after every round
2d6 fire one ring of geysers, destroying what stands on it. A player on the Mother Geyser after a firing
phase wins; after the last round (option `rounds`, default 100) the most geysers win, equal most sharing.
With two players only the opposite starting squares f1 and f11 are used: the first player picks one and
the engine puts the second player's token on the other in the same move.

Chance follows OpenSpiel's idea of chance nodes, kept inside the engine: every die comes from the seed and
a counter in the state (`_die`), so the same seed and moves give the same game. Choices a roll or a claim
leaves open (place the new token or skip; retreat or roll again after a tie) are the same player's next
move. The canonical form of a move that rolled dice carries them in brackets (`f6-f7 [battle 4+2 v 3+1]`):
the move log shows every roll, and `play` ignores the brackets (the dice follow from the seed).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from bot.games.base import Game, GameRules, IllegalMove, InvalidNotation, Option, Options, Outcome, card, check_new
from bot.games.phrases import Phrase, listing, said
from bot.games.registration import Registration, Typed
from bot.games.stored import converting, listed, read, refuse, sound
from bot.i18n import N_, _

SIZE = 11
COLUMNS = "abcdefghijk"
MAP_FILE = Path(__file__).resolve().parents[2] / "data" / "geyser_map.txt"


def _load_map(path: Path) -> tuple[str, ...]:
    """The 121 map cells row by row from the top: `~` water, `.` land, `S` start, `M` Mother, `2`-`6` geysers."""
    rows = [line.split()[1:] for line in path.read_text().splitlines() if re.match(r"\s*\d+\s", line)]
    cells = tuple(cell for row in rows for cell in row)
    if len(rows) != SIZE or len(cells) != SIZE * SIZE:
        raise ValueError(f"{path} must hold an {SIZE}x{SIZE} map")
    return cells


CELLS = _load_map(MAP_FILE)
SQUARES = SIZE * SIZE
SQUARE_NAMES = tuple(f"{COLUMNS[s % SIZE]}{s // SIZE + 1}" for s in range(SQUARES))
_SQUARE_BY_NAME = {name: s for s, name in enumerate(SQUARE_NAMES)}
LAND = frozenset(s for s, cell in enumerate(CELLS) if cell != "~")
STARTS = tuple(s for s, cell in enumerate(CELLS) if cell == "S")
"""Every starting square of the map (f1, a6, k6, f11): a game of 3 or 4 players uses all four."""
MOTHER = CELLS.index("M")
RING_OF = {s: int(cell) for s, cell in enumerate(CELLS) if cell in "23456"}
"""Normal geyser square -> its ring, named by its lower number (6 = the 6/8 ring)."""
GEYSERS = frozenset(RING_OF)
RING_NAMES = {6: "6/8", 5: "5/9", 4: "4/10", 3: "3/11", 2: "2/12"}
FIRES = {2: 2, 12: 2, 3: 3, 11: 3, 4: 4, 10: 4, 5: 5, 9: 5, 6: 6, 8: 6}
"""2d6 sum -> the ring it fires (7: the Mother, or nothing with `seven: calm`)."""


def _neighbours(square: int, diagonal: bool) -> tuple[int, ...]:
    x, y = square % SIZE, square // SIZE
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    return tuple((y + dy) * SIZE + x + dx for dx, dy in steps if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE)


STEPS = {s: tuple(n for n in _neighbours(s, False) if n in LAND) for s in LAND}
AROUND = {s: tuple(n for n in _neighbours(s, True) if n in LAND) for s in LAND}


def _opposite(square: int) -> int:
    return SQUARES - 1 - square


TWO_PLAYER_STARTS = tuple(s for s in STARTS if SQUARE_NAMES[s] in ("f1", "f11"))
"""A two-player game's starting squares: the opposite pair f1 and f11 (a6 and k6 are plain land then)."""
ROUNDS = (10, 1000)
"""The `rounds` option's range (default 100)."""


HOW = N_("write a step like f6-f7, or start f1, place e6, skip, again, retreat or pass")
"""How a move is written (the squares are only examples: the refusals of a position name its own)."""


def start_squares(seats: int, starts: str = "two") -> tuple[int, ...]:
    """The starting squares a game of `seats` players uses, for setup and for re-entry alike."""
    return TWO_PLAYER_STARTS if seats == 2 and starts == "two" else STARTS


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    name = text.strip().lower()
    if name not in _SQUARE_BY_NAME:
        raise IllegalMove(_("{text} is not a square (columns a-k, rows 1-11).").format(text=text.strip()[:12]))
    square = _SQUARE_BY_NAME[name]
    if square not in LAND:
        raise IllegalMove(_("{square} is water.").format(square=name))
    return square


@dataclass(frozen=True, slots=True)
class GeyserState:
    """The whole game. `board[s]` is (seat, tokens) for an occupied square, else None.

    `phase` is "start" (placing starting tokens), "play" or "over". `pending` is a choice the seat to
    move must make before its turn ends: ("place", geyser) after a claim, ("tie", from, to) after a tied
    battle. `order` holds the seats still to play this round; when it empties, the geysers fire; after
    the firing phase of round `rounds` the most geysers win. `winners` are the seats that won (several
    share a win on the round cap) and `starts` the option that says which starting squares are used.
    `dice` counts the dice rolled so far (the next die is `_die(seed, dice)`); `last_rolls` are the
    rolls of the last move, in words; `last_battle` is its last battle roll (attacker seat, die, geysers,
    defender seat, die, geysers) and `last_fire` the two dice of a firing phase it ended.
    """

    seats: int
    board: tuple[tuple[int, int] | None, ...]
    supply: tuple[int, ...]
    out: frozenset[int] = frozenset()
    phase: str = "start"
    turn: int | None = 0
    pending: tuple[Any, ...] | None = None
    first: int = 0
    order: tuple[int, ...] = ()
    round: int = 0
    roller: int = 0
    winners: tuple[int, ...] = ()
    end: str | None = None
    seven: str = "mother"
    rounds: int = 100
    starts: str = "two"
    seed: int | None = None
    dice: int = 0
    last_seat: int | None = None
    last_move: tuple[int, int] | None = None
    last_battle: tuple[int, ...] = ()
    last_fire: tuple[int, int] | None = None
    last_rolls: tuple[str, ...] = ()
    ply: int = 0
    events: tuple[str, ...] = ()

    @property
    def winner(self) -> int | None:
        """The one winner, or None while running, or when several share the win."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def start_squares(self) -> tuple[int, ...]:
        """The starting squares this game uses (f1 and f11 only with two players)."""
        return start_squares(self.seats, self.starts)

    def tokens_of(self, seat: int) -> list[int]:
        return [s for s, held in enumerate(self.board) if held is not None and held[0] == seat]

    def controls(self, seat: int) -> int:
        """Normal geysers with at least one of the seat's tokens."""
        return sum(1 for s in GEYSERS if (held := self.board[s]) is not None and held[0] == seat)

    def on_board(self, seat: int) -> int:
        return sum(held[1] for held in self.board if held is not None and held[0] == seat)


@dataclass(frozen=True, slots=True)
class GeyserMove:
    """A legal move: `kind` (step, start, place, skip, again, retreat, pass), its squares (a step's `a` to
    `b`; the square of a start or place) and `rolls`, the dice it rolled in words ("battle 4+2 v 3+1").

    The dice follow from the seed and are known only once the move is played, so `parse` plays it, and the
    move carries the state it was parsed on and the state it leads to (outside equality): `play` on that
    same state hands the result on. On a view (no seed) nothing is rolled: `rolls` stays empty.
    """

    kind: str
    a: int | None = None
    b: int | None = None
    rolls: tuple[str, ...] = ()
    # not init fields, so `dataclasses.replace` (a different move) does not carry the result over
    _source: GeyserState | None = field(default=None, init=False, compare=False, repr=False)
    _after: GeyserState | None = field(default=None, init=False, compare=False, repr=False)

    def _played(self, source: GeyserState, after: GeyserState) -> GeyserMove:
        """This move, remembering that on `source` it leads to `after`."""
        object.__setattr__(self, "_source", source)
        object.__setattr__(self, "_after", after)
        return self

    def __str__(self) -> str:
        text = _text((self.kind, self.a, self.b))
        return f"{text} [{'; '.join(self.rolls)}]" if self.rolls else text


def _text(move: tuple[str, int | None, int | None]) -> str:
    """A parsed move's canonical text, without dice."""
    kind, a, b = move
    if kind == "step" and a is not None and b is not None:
        return f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}"
    if kind in ("start", "place") and a is not None:
        return f"{kind} {SQUARE_NAMES[a]}"
    return kind


def _place_on(legal: list[str]) -> str:
    """The legal choices of a claim, in words: "place on e6, d6 or g6, or skip"."""
    return _("place on {squares}, or skip").format(squares=listing([m[6:] for m in legal if m != "skip"], "or"))


# What the engine stores in its events and ends (English), said in the reader's language by `said`.
RE_ENTERS = Phrase(N_("{seat} re-enters on {square}."))
PASSES = Phrase(N_("{seat} cannot move and passes."))
SKIPS = Phrase(N_("{seat} takes no new token."))
PLACES = Phrase(N_("{seat} places a new token on {square}."))
RETREATS = Phrase(N_("{seat} retreats: the token stays on {square}."))
STARTS_ON = Phrase(N_("{seat} starts on {square}."))
OPPOSITE = Phrase(N_("{seat} starts opposite, on {square}."))
OPENING = Phrase(N_("Opening roll: {rolls}."))
FIRST = Phrase(N_("{seat} starts; play goes on in seat order."))
FIGHT = Phrase(N_("Battle on {square}: {seat} {attack} = {total} against {enemy} {defence} = {defended}"))
TIE = Phrase(N_("{fight}: a tie. {seat} may roll again or retreat."), words=("fight",))
LOST = Phrase(N_("{fight}: {enemy} wins; {seat}'s token is destroyed."), words=("fight",))
WON = Phrase(N_("{fight}: {seat} wins; {enemy}'s token is destroyed."), words=("fight",))
WON_MORE = Phrase(N_("{fight}: {seat} wins; {enemy}'s token is destroyed ({left} more to beat)."), words=("fight",))
MOVES = Phrase(N_("{seat} moves {route}."))
CLAIMS = Phrase(N_("{seat} claims the {ring} geyser on {square} and may place a new token."))
CLAIMS_NO_SUPPLY = Phrase(N_("{seat} claims the {ring} geyser on {square} (no token left in supply for a new token)."))
CLAIMS_NO_ROOM = Phrase(N_("{seat} claims the {ring} geyser on {square} (no free square around it for a new token)."))
OUT = Phrase(N_("{seat} has no tokens left and is out."))
LAST_LEFT = Phrase(N_("{seat} is the last player left and wins."))
ON_MOTHER = Phrase(N_("{seat} stands on the Mother Geyser after the firing and wins."))
CAP_WINS = Phrase(N_("Round {round} of {rounds} is over: {seat} holds the most geysers ({top}) and wins."))
CAP_SHARE = Phrase(
    N_("Round {round} of {rounds} is over: {seats} hold the most geysers ({top} each) and share the win."),
    listed=("seats",),
)
CAP_NOBODY = Phrase(
    N_("Round {round} of {rounds} is over: nobody holds a geyser, so {seats} share the win."), listed=("seats",)
)
FIRING = Phrase(
    N_("Firing phase: {seat} rolls {one}+{two} = {total}: {what}; destroyed: {destroyed}."),
    words=("what",),
    lists={"destroyed": ", "},
)
FIRING_CALM = Phrase(
    N_("Firing phase: {seat} rolls {one}+{two} = {total}: {what}; nothing is destroyed."), words=("what",)
)
FIRES_MOTHER = Phrase(N_("the Mother Geyser fires"))
FIRES_NOTHING = Phrase(N_("7 fires nothing (calm sevens)"))
FIRES_RING = Phrase(N_("the {ring} ring fires"))
DESTROYED = Phrase(N_("{seat}'s token on {square}"))
DESTROYED_STACK = Phrase(N_("{seat}'s {count} tokens on {square}"))
"""A stack of two or more (so always a plural)."""
ENDS = (
    Phrase(N_("every other player is out")),
    Phrase(N_("on the Mother Geyser after the firing phase")),
    Phrase(N_("the most geysers after {rounds} rounds")),
    Phrase(N_("the most geysers after {rounds} rounds, shared")),
    Phrase(N_("the game is over")),
)


def _seat_order(start: int, seats: int, out: set[int] | frozenset[int]) -> tuple[int, ...]:
    """The seats still in, in seat order from `start` (or the first one in after it)."""
    return tuple((start + k) % seats for k in range(seats) if (start + k) % seats not in out)


def _die(seed: int, index: int) -> int:
    """The `index`-th die of a game: a fresh generator per die, so the state needs only a counter."""
    return random.Random(f"geyser:{seed}:{index}").randint(1, 6)


class _Work:
    """A mutable copy of a state while a move is applied."""

    def __init__(self, state: GeyserState) -> None:
        self.state = state
        self.board = list(state.board)
        self.supply = list(state.supply)
        self.out = set(state.out)
        self.dice = state.dice
        self.events: list[str] = []
        self.rolls: list[str] = []
        self.battle: tuple[int, ...] = ()
        self.fire: tuple[int, int] | None = None
        self.changes: dict[str, Any] = {}

    def roll(self) -> int:
        assert self.state.seed is not None, "a spectator's view cannot roll dice"
        value = _die(self.state.seed, self.dice)
        self.dice += 1
        return value

    def controls(self, seat: int) -> int:
        return sum(1 for s in GEYSERS if (held := self.board[s]) is not None and held[0] == seat)

    def add(self, square: int, seat: int, count: int = 1) -> None:
        held = self.board[square]
        self.board[square] = (seat, (held[1] if held else 0) + count)

    def remove(self, square: int, count: int = 1) -> None:
        held = self.board[square]
        assert held is not None
        self.board[square] = (held[0], held[1] - count) if held[1] > count else None


class Geyser(GameRules, Game[GeyserState, GeyserMove]):
    """The engine object registered as GAMES["geyser"]."""

    key = "geyser"
    chance = True  # the dice
    title = "Geyser"
    min_players = 2
    max_players = 4
    options = Options(
        Option(
            "seven",
            "choice",
            N_("what a 7 fires"),
            default="mother",
            choices=(("mother", N_("7 fires the Mother Geyser")), ("calm", N_("7 fires nothing"))),
        ),
        Option(
            "tokens", "int", N_("tokens each player has, the starting one included"), default=12, minimum=1, maximum=40
        ),
        Option(
            "rounds",
            "int",
            N_("after that many rounds the most geysers win"),
            default=100,
            minimum=ROUNDS[0],
            maximum=ROUNDS[1],
        ),
        Option(
            "starts",
            "choice",
            N_("the starting squares of a two-player game"),
            default="two",
            choices=(
                ("two", N_("a two-player game starts on f1 and f11 only")),
                ("four", N_("all four starting squares, the setup before that ruling")),
            ),
            offered=False,  # four: set on games begun before the ruling (migration 6), so their logs replay
        ),
    )

    @property
    def rules_card(self) -> str:
        """The rules summary for players (/rules), in the reader's language."""
        return card(RULES_CARD)

    # --- setting up ---

    def new(self, seats: int, seed: int, **options: Any) -> GeyserState:
        given = check_new(self, seats, seed, options)
        seven, tokens, rounds, starts = given["seven"], given["tokens"], given["rounds"], given["starts"]
        return GeyserState(
            seats=seats,
            board=(None,) * SQUARES,
            supply=(tokens,) * seats,
            seven=seven,
            rounds=rounds,
            starts=starts,
            seed=seed,
        )

    # --- reading ---

    def to_move(self, state: GeyserState) -> int | None:
        return state.turn

    def legal_moves(self, state: GeyserState) -> list[str]:
        seat = state.turn
        if seat is None:
            return []
        if state.phase == "start":
            return [f"start {SQUARE_NAMES[s]}" for s in state.start_squares if state.board[s] is None]
        if state.pending is not None:
            if state.pending[0] == "tie":
                return ["again", "retreat"]
            return [f"place {SQUARE_NAMES[s]}" for s in self._place_squares(state.board, seat, state.pending[1])] + [
                "skip"
            ]
        if not state.tokens_of(seat):  # re-entry from the supply (an empty supply is out: it never gets here)
            entries = [f"start {SQUARE_NAMES[s]}" for s in state.start_squares if state.board[s] is None]
            return (entries if state.supply[seat] > 0 else []) or ["pass"]
        steps = [f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}" for a, b in self._steps(state, seat)]
        return steps or ["pass"]

    def move_group(self, move: str) -> str:
        """By token: `f6-f7` is listed under the square it leaves, `f6`; the other moves under their word
        (`start f1` under `start`, `place e5` under `place`; `skip`, `again`, `retreat`, `pass` alone)."""
        if "-" in move:
            return move.split("-")[0].strip()
        words = move.split()
        return words[0] if words else move

    def _steps(self, state: GeyserState, seat: int) -> list[tuple[int, int]]:
        found = []
        mother_open = state.controls(seat) >= 3
        for a in state.tokens_of(seat):
            held = state.board[a]
            assert held is not None
            if a in GEYSERS and held[1] == 1:
                continue  # your last token on a geyser you control must stay
            for b in STEPS[a]:
                if b == MOTHER and not mother_open:
                    continue
                found.append((a, b))
        return found

    @staticmethod
    def _place_squares(board: Sequence[tuple[int, int] | None], seat: int, geyser: int) -> list[int]:
        """Where a claim's new token may go: around the geyser, land, no geyser or Mother, no other player."""
        return [
            s
            for s in AROUND[geyser]
            if s not in GEYSERS and s != MOTHER and ((held := board[s]) is None or held[0] == seat)
        ]

    own_words = (N_("Firing phase"),)
    """Event lines starting with these are posted as a message of their own (front-ends may): each language's
    firing line begins with its "Firing phase" (a test holds the translations to it)."""

    def choices(self, state: GeyserState) -> list[str]:
        """The moves worth buttons or a menu: every move but steps (a starting square, a pending choice, a
        forced pass); none while steps are possible (those are typed, with autocomplete)."""
        moves = self.legal_moves(state)
        return [] if any("-" in move for move in moves) else moves

    def outcome(self, state: GeyserState) -> Outcome | None:
        if state.phase != "over":
            return None
        winners = frozenset(state.winners)
        scores = tuple(1.0 if s in winners else 0.0 for s in range(state.seats))
        return Outcome(scores, winners, state.end or "the game is over")

    score_words = N_("Geysers held")
    """What `scores` counts, for the line under the board."""

    def scores(self, state: GeyserState) -> tuple[float, ...]:
        """Geysers controlled, by seat (they add to every battle roll)."""
        return tuple(float(state.controls(s)) for s in range(state.seats))

    def events(self, state: GeyserState) -> tuple[str, ...]:
        return said(state.events)

    def reseed(self, state: GeyserState, seed: int) -> GeyserState:
        """Every die from here on comes from `seed` (the counter goes on): no die was rolled before it is."""
        return replace(state, seed=seed)

    def view(self, state: GeyserState, seat: int | None) -> GeyserState:
        """Nothing is hidden but the seed, which would tell the dice to come."""
        return replace(state, seed=None)

    # --- playing ---

    def legal(self, state: GeyserState) -> list[GeyserMove]:
        """The legal moves as values, unplayed: what each move is, never the dice it would roll."""
        return [GeyserMove(*self._read(state, text)) for text in self.legal_moves(state)]

    def parse(self, state: GeyserState, text: str) -> GeyserMove:
        """The legal move `text` stands for here (played, to know its dice), or IllegalMove saying why not."""
        kind, a, b = self._read(state, text)
        if state.seed is None:  # a view cannot roll: the move is played afresh by `play`, if it can be
            return GeyserMove(kind, a, b)
        after = self._apply(state, kind, a, b)
        return GeyserMove(kind, a, b, after.last_rolls)._played(state, after)

    def _read(self, state: GeyserState, text: str) -> tuple[str, int | None, int | None]:
        """(kind, square, square) of a legal move here, or IllegalMove saying why not."""
        if state.turn is None:
            raise IllegalMove(_("The game is over: no more moves."))
        if not isinstance(text, str) or len(text) > 80:
            raise InvalidNotation(_("That is not a move: {how}.").format(how=_(HOW)))
        words = re.sub(r"\[.*\]\s*$", "", text).strip().lower().split()  # [dice] of a logged move: ignored
        legal = self.legal_moves(state)
        joined = " ".join(words)
        step = re.fullmatch(r"([a-z]\d{1,2})\s*-\s*([a-z]\d{1,2})", joined)
        move: tuple[str, int | None, int | None]
        if step:
            move = ("step", parse_square(step[1]), parse_square(step[2]))
        elif len(words) == 2 and words[0] in ("start", "place"):
            move = (words[0], parse_square(words[1]), None)
        elif len(words) == 1 and words[0] in ("skip", "retreat", "again", "pass"):
            move = (words[0], None, None)
        else:
            if not text.strip():
                raise InvalidNotation(_("That is not a move: {how}.").format(how=_(HOW)))
            raise InvalidNotation(_("{text} is not a move: {how}.").format(text=repr(text.strip()[:40]), how=_(HOW)))
        shown = _text(move)
        if shown not in legal:
            raise IllegalMove(self._why_not(state, move, shown, legal))
        return move

    def _why_not(
        self, state: GeyserState, move: tuple[str, int | None, int | None], shown: str, legal: list[str]
    ) -> str:
        seat = state.turn
        assert seat is not None
        kind, a, b = move
        if state.phase == "start":
            if kind != "start":
                return _("First every player puts a token on a starting square: {squares}.").format(
                    squares=listing(legal, "or")
                )
            if a in STARTS and a not in state.start_squares:
                return _("{square} is plain land in a two-player game: start on {squares}.").format(
                    square=shown[6:], squares=listing([m[6:] for m in legal], "or")
                )
            return _("{square} is not a free starting square: start on {squares}.").format(
                square=shown[6:], squares=listing([m[6:] for m in legal], "or")
            )
        if state.pending is not None:
            if state.pending[0] == "tie":
                return _("The battle is tied: choose again (roll again) or retreat.")
            geyser = state.pending[1]
            if kind == "place":
                return _("{why}: {choices}.").format(
                    why=self._why_not_here(state, a, geyser),  # type: ignore[arg-type]
                    choices=_place_on(legal),
                )
            return _("You claimed {square}: place your new token ({move}) or skip.").format(
                square=SQUARE_NAMES[geyser], move=legal[0]
            )
        if kind == "skip":
            return _("There is no new token to place or skip now: that comes only after claiming a geyser.")
        if kind == "again":
            return _("There is no tied battle to fight again now.")
        if kind == "retreat":
            return _("There is no tied battle to retreat from now.")
        if kind == "pass":
            return _("You can move, so you cannot pass.")
        if kind == "place":
            return _("A new token is placed only after claiming a geyser.")
        if kind == "start":
            if state.tokens_of(seat):
                return _("You still have tokens on the island: move one.")
            assert a is not None
            if a in STARTS and a not in state.start_squares:
                return _("{square} is plain land in a two-player game: the starting squares are f1 and f11.").format(
                    square=SQUARE_NAMES[a]
                )
            free = listing([m[6:] for m in legal if m.startswith("start ")], "or")
            if free:
                return _("{square} is not a free starting square: re-enter on {squares}.").format(
                    square=SQUARE_NAMES[a], squares=free
                )
            return _("{square} is not a free starting square: none is free, so pass.").format(square=SQUARE_NAMES[a])
        assert a is not None and b is not None
        held = state.board[a]
        if held is None or held[0] != seat:
            return _("You have no token on {square}.").format(square=SQUARE_NAMES[a])
        if b not in STEPS[a]:
            return _("{move}: a token moves one square up, down, left or right onto land.").format(move=shown)
        if b == MOTHER:
            held_now = state.controls(seat)
            return _("{move}: the Mother Geyser needs 3 geysers under your control to enter (you have {held}).").format(
                move=shown, held=held_now
            )
        return _("{move}: your last token on the geyser {square} must stay to keep it.").format(
            move=shown, square=SQUARE_NAMES[a]
        )

    @staticmethod
    def _why_not_here(state: GeyserState, square: int, geyser: int) -> str:
        """Why the new token of a claim on `geyser` may not go on `square` (which is land)."""
        name, around = SQUARE_NAMES[square], SQUARE_NAMES[geyser]
        if square == geyser:
            return _("{square} is the geyser you claimed, and the new token goes on a square next to it").format(
                square=name
            )
        if square not in AROUND[geyser]:
            return _("{square} is not next to {geyser}, the geyser you claimed").format(square=name, geyser=around)
        if square == MOTHER:
            return _("{square} is the Mother Geyser, and the new token goes on plain land next to {geyser}").format(
                square=name, geyser=around
            )
        if square in GEYSERS:
            return _("{square} is a geyser, and the new token goes on plain land next to {geyser}").format(
                square=name, geyser=around
            )
        return _("{square} holds another player's token").format(square=name)

    def notation(self, move: GeyserMove) -> str:
        return str(move)

    def play(self, state: GeyserState, move: GeyserMove | str) -> GeyserState:
        """The next state; a GeyserMove is trusted to be legal here (from `parse`), text is parsed first.
        A move parsed on this very state already holds the result."""
        if not isinstance(move, GeyserMove):
            kind, a, b = self._read(state, move)  # as parse, without building the move
            return self._apply(state, kind, a, b)
        if move._source is state and move._after is not None:
            return move._after
        return self._apply(state, move.kind, move.a, move.b)

    def _apply(self, state: GeyserState, kind: str, a: int | None, b: int | None) -> GeyserState:
        """The state after a legal move (rolling its dice)."""
        seat = state.turn
        assert seat is not None
        work = _Work(state)
        who = f"{{{seat}}}"
        last_move: tuple[int, int] | None = None
        done = True  # the seat's turn is over after this move
        pending: tuple[Any, ...] | None = None
        if kind == "start" and state.phase == "start":
            self._place_start(work, seat, a)  # type: ignore[arg-type]
            return self._after_start(state, work, seat)
        if kind == "start":
            work.supply[seat] -= 1
            work.add(a, seat)  # type: ignore[arg-type]
            work.events.append(RE_ENTERS(seat=who, square=SQUARE_NAMES[a]))  # type: ignore[index]
        elif kind == "pass":
            work.events.append(PASSES(seat=who))
        elif kind == "skip":
            work.events.append(SKIPS(seat=who))
        elif kind == "place":
            work.supply[seat] -= 1
            work.add(a, seat)  # type: ignore[arg-type]
            work.events.append(PLACES(seat=who, square=SQUARE_NAMES[a]))  # type: ignore[index]
        elif kind == "retreat":
            src, dst = state.pending[1], state.pending[2]  # type: ignore[index]
            work.events.append(RETREATS(seat=who, square=SQUARE_NAMES[src]))
            last_move = (src, dst)
        elif kind in ("again", "step"):
            src, dst = (state.pending[1], state.pending[2]) if kind == "again" else (a, b)  # type: ignore[index]
            last_move = (src, dst)  # type: ignore[assignment]
            pending = self._advance(work, seat, src, dst)  # type: ignore[arg-type]
            done = pending is None
        return self._finish(state, work, seat, pending, done, last_move)

    def _place_start(self, work: _Work, seat: int, square: int) -> None:
        work.supply[seat] -= 1
        work.add(square, seat)
        work.events.append(STARTS_ON(seat=f"{{{seat}}}", square=SQUARE_NAMES[square]))
        if work.state.seats == 2:  # the other player takes the opposite starting square, no choice to make
            other = 1 - seat
            work.supply[other] -= 1
            work.add(_opposite(square), other)
            work.events.append(OPPOSITE(seat=f"{{{other}}}", square=SQUARE_NAMES[_opposite(square)]))

    def _after_start(self, state: GeyserState, work: _Work, seat: int) -> GeyserState:
        placed = [s for s in range(state.seats) if any(h and h[0] == s for h in work.board)]
        if len(placed) < state.seats:
            return self._freeze(state, work, turn=seat + 1, last_seat=seat)
        # the opening roll: highest starts, ties roll again among the tied
        rolling = list(range(state.seats))
        while True:
            rolls = {s: work.roll() for s in rolling}
            work.rolls.append("opening " + " ".join(str(r) for r in rolls.values()))
            work.events.append(OPENING(rolls=", ".join(f"{{{s}}} {r}" for s, r in rolls.items())))
            top = max(rolls.values())
            rolling = [s for s, r in rolls.items() if r == top]
            if len(rolling) == 1:
                break
        first = rolling[0]
        work.events.append(FIRST(seat=f"{{{first}}}"))
        order = _seat_order(first, state.seats, frozenset())
        return self._freeze(
            state, work, turn=first, phase="play", first=first, order=order, round=1, roller=first, last_seat=seat
        )

    def _advance(self, work: _Work, seat: int, src: int, dst: int) -> tuple[Any, ...] | None:
        """Move a token from src to dst, fighting whoever is there; returns a pending choice or None."""
        who = f"{{{seat}}}"
        route = f"{SQUARE_NAMES[src]}-{SQUARE_NAMES[dst]}"
        while (held := work.board[dst]) is not None and held[0] != seat:
            enemy = held[0]
            mine, theirs = work.controls(seat), work.controls(enemy)
            a, d = work.roll(), work.roll()
            total_a, total_d = a + mine, d + theirs
            work.battle = (seat, a, mine, enemy, d, theirs)
            work.rolls.append(f"battle {a}+{mine} v {d}+{theirs}")
            them = f"{{{enemy}}}"
            fight = FIGHT(
                square=SQUARE_NAMES[dst],
                seat=who,
                attack=f"{a}+{mine}",
                total=total_a,
                enemy=them,
                defence=f"{d}+{theirs}",
                defended=total_d,
            )
            if total_a == total_d:
                work.events.append(TIE(fight=fight, seat=who))
                return ("tie", src, dst)
            if total_a < total_d:
                work.remove(src)
                work.supply[seat] += 1
                work.events.append(LOST(fight=fight, enemy=them, seat=who))
                self._check_out(work, seat)
                return None
            work.remove(dst)
            work.supply[enemy] += 1
            left = work.board[dst][1] if work.board[dst] is not None else 0  # type: ignore[index]
            if left:
                work.events.append(WON_MORE(fight=fight, seat=who, enemy=them, left=left))
            else:
                work.events.append(WON(fight=fight, seat=who, enemy=them))
            self._check_out(work, enemy)
        claimed = dst in GEYSERS and not (work.board[dst] is not None and work.board[dst][0] == seat)  # type: ignore[index]
        work.remove(src)
        work.add(dst, seat)
        work.events.append(MOVES(seat=who, route=route))
        if claimed:
            places = self._place_squares(work.board, seat, dst)
            ring = RING_NAMES[RING_OF[dst]]
            if work.supply[seat] > 0 and places:
                work.events.append(CLAIMS(seat=who, ring=ring, square=SQUARE_NAMES[dst]))
                return ("place", dst)
            claims = CLAIMS_NO_SUPPLY if work.supply[seat] == 0 else CLAIMS_NO_ROOM
            work.events.append(claims(seat=who, ring=ring, square=SQUARE_NAMES[dst]))
        return None

    def _check_out(self, work: _Work, seat: int) -> None:
        if work.supply[seat] == 0 and not any(h and h[0] == seat for h in work.board):
            work.out.add(seat)
            work.events.append(OUT(seat=f"{{{seat}}}"))

    def _finish(
        self,
        state: GeyserState,
        work: _Work,
        seat: int,
        pending: tuple[Any, ...] | None,
        done: bool,
        last_move: tuple[int, int] | None,
    ) -> GeyserState:
        """Hand the turn on after a move: the same seat for a pending choice, else the next one this
        round; after the round's last turn the geysers fire. The game ends when one player is left or
        someone stands on the Mother after a firing."""

        def over(winner: int, end: str, event: Phrase) -> GeyserState:
            work.events.append(event(seat=f"{{{winner}}}"))
            return ended((winner,), end)

        def ended(winners: tuple[int, ...], end: str) -> GeyserState:
            return self._freeze(
                state, work, turn=None, phase="over", winners=winners, end=end, last_seat=seat, last_move=last_move
            )

        def live() -> list[int]:
            return [s for s in range(state.seats) if s not in work.out]

        if len(live()) == 1:
            return over(live()[0], "every other player is out", LAST_LEFT)
        if not done:
            return self._freeze(state, work, turn=seat, pending=pending, last_seat=seat, last_move=last_move)
        order = tuple(s for s in state.order if s != seat and s not in work.out)
        round_no, roller = state.round, state.roller
        if not order:  # the round is over: the geysers fire
            winner = self._fire(work, roller, state.seven)
            if winner is not None:
                return over(winner, "on the Mother Geyser after the firing phase", ON_MOTHER)
            if len(live()) == 1:
                return over(live()[0], "every other player is out", LAST_LEFT)
            if round_no >= state.rounds:  # the round cap: the most normal geysers win, equal most share
                winners, end = self._round_cap(work, live(), round_no, state.rounds)
                return ended(winners, end)
            order = _seat_order(state.first, state.seats, work.out)
            round_no += 1
            roller = _seat_order(roller + 1, state.seats, work.out)[0]
        return self._freeze(
            state, work, turn=order[0], order=order, round=round_no, roller=roller, last_seat=seat, last_move=last_move
        )

    @staticmethod
    def _round_cap(work: _Work, live: list[int], round_no: int, rounds: int) -> tuple[tuple[int, ...], str]:
        """The end after the firing phase of the last round: the players still in who control the most
        normal geysers win (none held by anyone: they all share it). Returns the winners and the end."""
        held = {s: work.controls(s) for s in live}
        top = max(held.values())
        winners = tuple(s for s in live if held[s] == top)
        names = [f"{{{s}}}" for s in winners]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        if len(winners) == 1:
            work.events.append(CAP_WINS(round=round_no, rounds=rounds, seat=who, top=top))
            return winners, ENDS[2](rounds=round_no)
        if top:
            work.events.append(CAP_SHARE(round=round_no, rounds=rounds, seats=who, top=top))
        else:
            work.events.append(CAP_NOBODY(round=round_no, rounds=rounds, seats=who))
        return winners, ENDS[3](rounds=round_no)

    def _fire(self, work: _Work, roller: int, seven: str) -> int | None:
        """The Geyser Firing Phase: the roller rolls 2d6 and that ring's geysers destroy their tokens."""
        one, two = work.roll(), work.roll()
        total = one + two
        work.rolls.append(f"fire {one}+{two}")
        if total == 7:
            squares = [MOTHER] if seven == "mother" else []
            ring = 7
            what = FIRES_MOTHER() if squares else FIRES_NOTHING()
        else:
            ring = FIRES[total]
            squares = sorted(s for s in GEYSERS if RING_OF[s] == ring)
            what = FIRES_RING(ring=RING_NAMES[ring])
        work.fire = (one, two)
        destroyed = []
        for square in squares:
            held = work.board[square]
            if held is not None:
                owner, count = held
                work.board[square] = None
                work.supply[owner] += count
                lost = DESTROYED_STACK if count > 1 else DESTROYED
                destroyed.append(lost(seat=f"{{{owner}}}", count=count, square=SQUARE_NAMES[square]))
        roll = {"seat": f"{{{roller}}}", "one": one, "two": two, "total": total, "what": what}
        if destroyed:
            work.events.append(FIRING(**roll, destroyed=", ".join(destroyed)))
        else:
            work.events.append(FIRING_CALM(**roll))
        for owner in range(work.state.seats):
            if owner not in work.out:
                self._check_out(work, owner)
        held = work.board[MOTHER]
        return held[0] if held is not None else None

    def _freeze(self, state: GeyserState, work: _Work, **changes: Any) -> GeyserState:
        changes.setdefault("pending", None)
        return replace(
            state,
            board=tuple(work.board),
            supply=tuple(work.supply),
            out=frozenset(work.out),
            dice=work.dice,
            last_battle=work.battle,
            last_fire=work.fire,
            last_rolls=tuple(work.rolls),
            ply=state.ply + 1,
            events=tuple(work.events),
            **changes,
        )

    def state_from_position(
        self,
        seats: int,
        tokens: dict[str, tuple[int, int]],
        *,
        turn: int = 0,
        seed: int = 0,
        supply: tuple[int, ...] | None = None,
        first: int = 0,
        round: int = 1,
        order: tuple[int, ...] | None = None,
        seven: str = "mother",
        dice: int = 0,
        rounds: int = 100,
        starts: str = "two",
    ) -> GeyserState:
        """A hand-built position in the play phase (tests, puzzles): `tokens` maps squares to (seat, count).

        `order` is the seats still to play this round, `turn` first (default: from `turn` round to `first`);
        `supply` defaults to 12 less the tokens on the board.
        """
        board: list[tuple[int, int] | None] = [None] * SQUARES
        for name, (seat, count) in tokens.items():
            board[parse_square(name)] = (seat, count)
        if supply is None:
            supply = tuple(12 - sum(c for s, c in tokens.values() if s == seat) for seat in range(seats))
        if order is None:
            order = tuple((turn + k) % seats for k in range((first - turn) % seats or seats))
        return GeyserState(
            seats=seats,
            board=tuple(board),
            supply=supply,
            phase="play",
            turn=turn,
            first=first,
            order=order,
            round=round,
            roller=first,
            seven=seven,
            rounds=rounds,
            starts=starts,
            seed=seed,
            dice=dice,
        )

    # --- storing ---

    def dumps(self, state: GeyserState) -> str:
        data = {name: getattr(state, name) for name in GeyserState.__slots__}
        data["board"] = {SQUARE_NAMES[s]: list(h) for s, h in enumerate(state.board) if h is not None}
        data["out"] = sorted(state.out)
        return json.dumps({"game": self.key, **data}, separators=(",", ":"))

    def loads(self, text: str) -> GeyserState:
        """A state from `dumps`; BadState when the text is not a sound one (tampered, another game's). A
        state saved before the round cap and the two-player starting squares has no `rounds` (it gets the
        default, 100), no `starts` (it began with all four starting squares in use: "four") and a single
        `winner` (now `winners`)."""
        data = read(self, text, _STORED - _ADDED, _ADDED | {"winner"})
        if ("winner" in data) == ("winners" in data):
            raise refuse(self, "it must hold winners (or, saved before the round cap, winner)")
        with converting(self):
            if "winner" in data:
                winner = data.pop("winner")
                data["winners"] = [] if winner is None else [winner]
            data.setdefault("starts", "four")
            board: list[tuple[int, int] | None] = [None] * SQUARES
            for name, held in data["board"].items():
                seat, count = listed(held)
                square = _SQUARE_BY_NAME[name]
                if square not in LAND:
                    raise refuse(self, f"{name} is water")
                board[square] = (seat, count)
            data["board"] = tuple(board)
            data["out"] = frozenset(listed(data["out"]))
            for name in ("supply", "order", "winners", "last_battle", "last_rolls", "events"):
                data[name] = listed(data[name])
            for name in ("pending", "last_move", "last_fire"):
                data[name] = listed(data[name]) if data[name] is not None else None
            state = GeyserState(**data)
        return sound(self, state, _broken)


_STORED = frozenset(f.name for f in fields(GeyserState))
"""The fields of a stored state (`dumps`)."""
_ADDED = frozenset({"rounds", "starts", "winners"})
"""Fields a state saved before the round cap and the two-player starting squares lacks (see `loads`)."""


def _broken(state: GeyserState) -> str | None:
    """What in a stored state no game can reach (a tampered one), or None."""
    seats = range(state.seats)
    held = [h for h in state.board if h is not None]
    tokens = [supply + sum(n for seat, n in held if seat == s) for s, supply in enumerate(state.supply)]
    pending = state.pending
    checks = (
        (2 <= state.seats <= 4 and len(tokens) == state.seats, "seats run from 2 to 4, each with a supply"),
        (all(seat in seats and n >= 1 for seat, n in held), "a square holds tokens of no seat, or none"),
        (all(n >= 0 for n in state.supply) and all(1 <= n <= 40 for n in tokens), "a seat has more than 40 tokens"),
        (state.phase in ("start", "play", "over"), "phase is not start, play or over"),
        ((state.turn is None) == (state.phase == "over"), "exactly a game that is over has nobody to move"),
        (state.turn in (None, *seats) and {state.first, state.roller} <= set(seats), "a seat is not in the game"),
        (state.out | set(state.order) | set(state.winners) <= set(seats), "a seat is not in the game"),
        (state.last_seat in (None, *seats), "last_seat is not in the game"),
        (pending is None or _pending(pending), "pending is not a claim's place or a tie"),
        (state.seven in ("mother", "calm") and state.starts in ("two", "four"), "seven or starts is unknown"),
        (ROUNDS[0] <= state.rounds <= ROUNDS[1], f"rounds run from {ROUNDS[0]} to {ROUNDS[1]}"),
        (all(n >= 0 for n in (state.round, state.dice, state.ply)), "a counter is negative"),
        (state.last_move is None or all(s in LAND for s in state.last_move), "last_move is not a step on land"),
        (len(state.last_battle) in (0, 6), "last_battle is not a battle roll"),
        (state.last_fire is None or all(1 <= d <= 6 for d in state.last_fire), "last_fire is not two dice"),
    )
    return next((why for ok, why in checks if not ok), None)


def _pending(pending: tuple[Any, ...]) -> bool:
    """("place", geyser) after a claim or ("tie", from, to) after a tied battle, as `GeyserState` says."""
    if not pending or not all(type(s) is int for s in pending[1:]):
        return False
    kind, *squares = pending
    if kind == "place":
        return len(squares) == 1 and squares[0] in GEYSERS
    return kind == "tie" and len(squares) == 2 and all(s in LAND for s in squares)


RULES_CARD = (
    N_(
        "Geyser — 2 to 4 players, 2 dice, an island of 97 land squares on an 11x11 grid (columns a-k, rows 1-11 "
        "from the top)."
    ),
    N_("• Geysers: 20, in 5 rings of 4 (6/8, 5/9, 4/10, 3/11, 2/12), and the Mother Geyser (f6) in the middle."),
    N_(
        "• Start: 12 tokens each (a match may set 1 to 40). Put one on a free starting square (geyser move start "
        "f1): 4 starting squares, but with two players only 2, f1 and f11: the first player picks one, the other "
        "starts opposite. An opening roll decides who starts; play goes round in seat order. With no token left on "
        "the island, re-enter on a free starting square (start f1); with no move at all, pass."
    ),
    N_(
        "• A turn: move one token one square onto land, in one of 4 directions: up, down, left, right (geyser move "
        "f6-f7). Your tokens may share a square."
    ),
    N_(
        "• Landing on a geyser you do not control claims it: you may place a new token on one of the 8 squares "
        "around it that is land, no geyser and free of other players (place e2, or skip). You may not move your "
        "last token off a geyser you control."
    ),
    N_("• The Mother Geyser may be entered only with 3 geysers under your control."),
    N_(
        "• Battle: moving onto another player's token: each side rolls a die (1-6) + geysers controlled; the "
        "loser's token is destroyed. A tie: the attacker rolls again or retreats (again / retreat)."
    ),
    N_(
        "• After each round 2d6 fire a ring (6 or 8: the 6/8 ring, ... 7: the Mother): tokens on it are destroyed. "
        "Standing on the Mother Geyser after a firing phase wins."
    ),
    N_(
        "• After the last round (100 unless the match says otherwise: 10 to 1000) the most geysers held win; equal "
        "most share."
    ),
)
"""The rules card (/rules): one catalog string a paragraph, said in the reader's language by `rules_card`."""

GEYSER = Geyser()

REGISTRATION = Registration(
    GEYSER,
    renderer="renderers.geyser",
    words="renderers.alt_text:geyser",
    cog="bot.cogs.geyser",
    start="new",
    typed=Typed(
        "ALICE BOB [CAROL DAN]",
        "geyser new alice bob carol",
        N_("2 to 4 players"),
        N_("a move, like: geyser move f6-f7 (or start f1, place e6, skip, again, retreat, pass)"),
    ),
    model="bot.ai.geyser:MODEL",
    analysis_iterations=300,
    moments=("Battle on", "destroyed:", "is out", "wins"),
)
