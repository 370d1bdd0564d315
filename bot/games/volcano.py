"""Volcano, the Icehouse game by Kristin Looney, for 1 to 6 players (rules: docs/rules/volcano.md;
binding: shared/rules/volcano.md).

The board is 5x5: columns a-e (left to right), rows 1-5 (bottom to top). Squares are numbered column by
column, `square = 5 * column + row` (both 0-based), so a1=0, a2=1, ... a5=4, b1=5, ... e5=24; this is the
order of the `layout` option's 25 letters. `SQUARE_NAMES[i]` gives "c3".

A piece is a two-character text: a colour letter (R red, Y yellow, G green, B blue, C clear) and a size
digit (1 small, 2 medium, 3 large), so "C3" is a clear large. A stack is a tuple of pieces, bottom to top;
a nest is ("R1", "R2", "R3"). The five caps are not pieces: they are the sorted tuple `caps` of squares
(and the 25-bit mask `cap_mask`, bit i set for a cap on square i).

A move is a turn or part of one: one step "b2-c3", or several steps "b2-c3, c3-d4" applied in order, of
which only the last may erupt. The turn stays with the player until a step erupts, so steps may also be
sent one by one. `VOLCANO.play(state, "b2-c3")` returns the next state.

RULINGs taken here beyond volcano.md (each is tested in tests/games/test_volcano.py):
- (no end possible) Pieces only leave the board by capture, so a game could run for ever once nobody can
  complete the colours. At the start of every turn, if no player still in the game could ever hold every
  colour (for each such player some missing colour has no piece on the board that could still be captured,
  i.e. no piece of that colour whose size has another piece on the board to land on), the game ends.
- (resign) `resign(state, seat)`: the seat takes no more turns; its captures stay and keep scoring. A
  resigned player cannot win; the others are ranked by score. Play passes on if it was that seat's turn.
  The game ends when every seat has resigned (no winner) or by the normal end.
- (whole turns) If a whole turn is sent and the turn passes (eruption, or no legal step left) before its
  last step, the whole text is refused and nothing changes.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.games.base import (
    BadOptions,
    Game,
    GameRules,
    IllegalMove,
    InvalidNotation,
    Option,
    Options,
    Outcome,
    card,
    check_new,
)
from bot.games.phrases import Phrase, listing, said
from bot.games.registration import Registration, Typed
from bot.games.stored import converting, listed, read, refuse, sound
from bot.i18n import N_, _, ngettext

SIZE = 5
SQUARES = SIZE * SIZE
COLUMNS = "abcde"
COLOURS = "RYGBC"
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "C": "clear"}
SIZE_NAMES = {"1": "small", "2": "medium", "3": "large"}
SOLID_TREE, MIXED_TREE, SINGLE = 7, 5, 1

# (column step, row step) of the eight directions, clockwise from north (up the board, towards row 5).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}

OPENINGS: dict[str, tuple[str, ...]] = {
    "diagonal": ("a1", "b2", "c3", "d4", "e5"),
    "cross": ("c2", "b3", "c3", "d3", "c4"),
    "x": ("b2", "d2", "c3", "b4", "d4"),
    "corners": ("a1", "e1", "c3", "a5", "e5"),
    "line": ("a3", "b3", "c3", "d3", "e3"),
}
CLASSIC_LAYOUT = "RGCCCYRGGCBYRGCBYYRGBBBYR"
"""Boardspace's layout, column by column from a1 to e5 (volcano.md, RULING colour layout)."""


def square_name(square: int) -> str:
    return f"{COLUMNS[square // SIZE]}{square % SIZE + 1}"


def _square_at(col: int, row: int) -> int | None:
    return col * SIZE + row if 0 <= col < SIZE and 0 <= row < SIZE else None


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for square in range(SQUARES):
        col, row = divmod(square, SIZE)
        per_direction = []
        for dc, dr in DIRECTIONS.values():
            ray = []
            k = 1
            while (nxt := _square_at(col + dc * k, row + dr * k)) is not None:
                ray.append(nxt)
                k += 1
            per_direction.append(tuple(ray))
        rays.append(tuple(per_direction))
    return tuple(rays)


RAYS = _build_rays()
"""RAYS[square][d]: the squares along direction d (in DIRECTIONS order), nearest first, to the board edge."""
SQUARE_NAMES = tuple(square_name(s) for s in range(SQUARES))
_SQUARE_BY_NAME = {name: s for s, name in enumerate(SQUARE_NAMES)}
_STEP_TARGETS = tuple(tuple((ray[0], ray[1] if len(ray) > 1 else -1) for ray in RAYS[s] if ray) for s in range(SQUARES))
"""For each square: (the square one step away, the square two steps away or -1), per on-board direction."""
_DIRECTION_OF = {(s, ray[0]): d for s in range(SQUARES) for d, ray in enumerate(RAYS[s]) if ray}
"""(from, to) of every single step -> its direction index."""

_SQUARE_RE = r"([A-Za-z])\s*([0-9]{1,2})"
_STEP_RE = re.compile(rf"^{_SQUARE_RE}\s*(?:-|–|—|→|>|to)?\s*{_SQUARE_RE}$")
_LONGEST_TURN = 600  # longer text is refused before matching, so no input can make parsing slow


def _mask(squares: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


def _squares_of(mask: int) -> tuple[int, ...]:
    return tuple(s for s in range(SQUARES) if mask >> s & 1)


def _square_from(letter: str, number: str) -> int:
    name = f"{letter.lower()}{int(number)}"
    if name not in _SQUARE_BY_NAME:
        raise IllegalMove(_("{square} is not on the board: columns a-e, rows 1-5.").format(square=name))
    return _SQUARE_BY_NAME[name]


def parse_square(text: str) -> int:
    """Square index of a name like "c3" (case-insensitive); raises IllegalMove naming what is wrong."""
    match = re.fullmatch(r"\s*" + _SQUARE_RE + r"\s*", text) if isinstance(text, str) and len(text) < 20 else None
    if not match:
        raise InvalidNotation(
            _("{text} is not a square: write a column a-e and a row 1-5, like c3.").format(
                text=repr(str(text).strip()[:20])
            )
        )
    return _square_from(match.group(1), match.group(2))


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "…"


@dataclass(frozen=True, slots=True)
class Step:
    """One cap step from `src` to `dst`; `str()` gives canonical notation ("b2-c3")."""

    src: int
    dst: int

    @classmethod
    def parse(cls, text: str) -> Step:
        """Read `b2-c3`, `B2 C3`, `b2c3`, `b2–c3` (no position needed; the squares must be on the board)."""
        stripped = text.strip() if isinstance(text, str) else ""
        match = _STEP_RE.match(stripped) if len(stripped) <= 40 else None
        if not match:
            if not stripped:
                raise InvalidNotation(
                    _(
                        "A step is missing next to a comma: write the cap's square and the square it moves to, like "
                        "b2-c3 (several steps of one turn are separated by commas: b2-c3, c3-d4)."
                    )
                )
            raise InvalidNotation(
                _(
                    "{text} is not a step: write the cap's square and the square it moves to, like b2-c3 "
                    "(several steps of one turn are separated by commas: b2-c3, c3-d4)."
                ).format(text=repr(_shown(stripped)))
            )
        return cls(_square_from(match.group(1), match.group(2)), _square_from(match.group(3), match.group(4)))

    @property
    def direction(self) -> int | None:
        """Index into DIRECTIONS, or None when the squares are not one step apart."""
        return _DIRECTION_OF.get((self.src, self.dst))

    def __str__(self) -> str:
        return f"{SQUARE_NAMES[self.src]}-{SQUARE_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class VolcanoTurn:
    """A legal turn or part of one: its steps in order; `str()` gives canonical notation ("b2-c3, c3-d4").

    `parse` must apply the steps to know they are legal, so the turn carries the state it was parsed on
    and the state it leads to (outside equality), and `play` on that same state just hands the result on.
    """

    steps: tuple[Step, ...]
    # not init fields, so `dataclasses.replace` (a different turn) does not carry the result over
    _source: VolcanoState | None = field(default=None, init=False, compare=False, repr=False)
    _after: VolcanoState | None = field(default=None, init=False, compare=False, repr=False)

    def _played(self, source: VolcanoState, after: VolcanoState) -> VolcanoTurn:
        """This turn, remembering that on `source` it leads to `after`."""
        object.__setattr__(self, "_source", source)
        object.__setattr__(self, "_after", after)
        return self

    def __str__(self) -> str:
        return ", ".join(str(step) for step in self.steps)


def parse_turn(text: str) -> tuple[Step, ...]:
    """The steps of `b2-c3, c3-d4` (commas or semicolons between steps), without looking at a position."""
    stripped = text.strip() if isinstance(text, str) else ""
    if len(stripped) > _LONGEST_TURN:
        raise InvalidNotation(
            _("{text} is too long for a turn (at most {limit} characters).").format(
                text=repr(_shown(stripped)), limit=_LONGEST_TURN
            )
        )
    if not stripped:
        raise InvalidNotation(_("That is not a step: write the cap's square and the square it moves to, like b2-c3."))
    return tuple(Step.parse(part) for part in re.split(r"[,;]", stripped))


def _quiet_step_event(events: list[str], seat: int, step: Step) -> None:
    """Say a step caused no eruption; quiet steps in a row share one line ("{0} steps b2-c3, c3-d4: no
    eruption."), so a long turn typed at once stays short enough to post."""
    last = events[-1] if events else ""
    head, quiet = f"{{{seat}}} steps ", ": no eruption."
    if last.startswith(head) and last.endswith(quiet):
        events[-1] = f"{last[: -len(quiet)]}, {step}{quiet}"
    else:
        events.append(f"{head}{step}{quiet}")


def piece_name(piece: str) -> str:
    """A piece in English words ("red small"), as events store it (said by `PIECES`)."""
    return f"{COLOUR_NAMES[piece[0]]} {SIZE_NAMES[piece[1]]}"


# What the engine stores in its events and ends (English), said in the reader's language by `said`.
QUIET = Phrase(N_("{seat} steps {steps}: no eruption."))
STUCK = Phrase(N_("{seat} has no legal step left: the turn passes without an eruption."))
ERUPTS = Phrase(N_("{seat} steps {step}: {square} erupts ({flow}); nothing is captured."), lists={"flow": ", "})
CAPTURES = Phrase(
    N_("{seat} steps {step}: {square} erupts ({flow}); {captor} captures {taken}."), lists={"flow": ", ", "taken": ", "}
)
LANDS = Phrase(N_("{piece} on {square}"), words=("piece",))
TAKEN = Phrase(N_("{piece} ({square})"), words=("piece",))
PIECES = {
    "red small": Phrase(N_("red small")),
    "red medium": Phrase(N_("red medium")),
    "red large": Phrase(N_("red large")),
    "yellow small": Phrase(N_("yellow small")),
    "yellow medium": Phrase(N_("yellow medium")),
    "yellow large": Phrase(N_("yellow large")),
    "green small": Phrase(N_("green small")),
    "green medium": Phrase(N_("green medium")),
    "green large": Phrase(N_("green large")),
    "blue small": Phrase(N_("blue small")),
    "blue medium": Phrase(N_("blue medium")),
    "blue large": Phrase(N_("blue large")),
    "clear small": Phrase(N_("clear small")),
    "clear medium": Phrase(N_("clear medium")),
    "clear large": Phrase(N_("clear large")),
}
EVERY_COLOUR = Phrase(N_("{seat} holds every colour."))
RESIGNS = Phrase(N_("{seat} resigns."))
OVER = Phrase(N_("The game is over: {reason}."), words=("reason",))
ENDS = (
    Phrase(N_("a player holds every colour")),
    Phrase(N_("every other player resigned")),
    Phrase(N_("nobody still playing can complete the colours any more")),
    Phrase(N_("every player resigned")),
    Phrase(N_("no eruption can be reached any more")),
    Phrase(N_("nobody can complete the colours any more")),
)
NOBODY_WINS = Phrase(N_("{end}; nobody wins"), words=("end",))
FINAL_SCORE = Phrase(N_("{end}; final score {score}"), words=("end",))
TOP_SCORE = Phrase(N_("{end}; top score {score}"), words=("end",))
TOP_SCORE_SHARED = Phrase(N_("{end}; top score {score} (shared)"), words=("end",))


@dataclass(frozen=True, slots=True)
class VolcanoState:
    """Everything about a game in progress.

    `board[s]` is the stack on square s (bottom to top); `caps` the sorted cap squares; `captures[seat]`
    that seat's captured pieces in the order taken. `turn` is the seat to move (None: game over, `end`
    says why). Within the turn in progress, `steps` are the steps taken so far and `seen` the cap
    arrangements (as masks) that occurred, the turn's starting one included (the no-repeat RULING).
    For the renderer: `last_seat` made `last_steps`, the last finished turn; `landings` are the
    (square, piece) landings of its eruption, in order, and `captured_last` the ones captured.
    """

    board: tuple[tuple[str, ...], ...]
    caps: tuple[int, ...]
    captures: tuple[tuple[str, ...], ...]
    turn: int | None
    seen: frozenset[int] = frozenset()
    steps: tuple[str, ...] = ()
    resigned: frozenset[int] = frozenset()
    last_seat: int | None = None
    last_steps: tuple[str, ...] = ()
    landings: tuple[tuple[int, str], ...] = ()
    captured_last: tuple[tuple[int, str], ...] = ()
    end: str | None = None
    ply: int = 0
    seed: int | None = None
    opening: str = "diagonal"
    layout: str = "latin"
    events: tuple[str, ...] = ()

    @property
    def seats(self) -> int:
        return len(self.captures)

    @property
    def cap_mask(self) -> int:
        return _mask(self.caps)

    @property
    def filled_mask(self) -> int:
        """Bit s set when square s holds at least one piece."""
        return _mask([s for s in range(SQUARES) if self.board[s]])


# --- Setup -----------------------------------------------------------------------------------------


def latin_layout(seed: int) -> str:
    """A random Latin square of the five colours from the seed, as 25 letters column by column.

    Filled square by square with the colours in a random order, backtracking on a dead end; every
    row and column ends up holding each colour once, and the same seed gives the same layout.
    """
    rng = random.Random(seed)
    grid: list[str] = [""] * SQUARES

    def fill(square: int) -> bool:
        if square == SQUARES:
            return True
        col, row = divmod(square, SIZE)
        used = {grid[c * SIZE + row] for c in range(col)} | {grid[col * SIZE + r] for r in range(row)}
        options = [c for c in COLOURS if c not in used]
        rng.shuffle(options)
        for colour in options:
            grid[square] = colour
            if fill(square + 1):
                return True
        grid[square] = ""
        return False

    fill(0)
    return "".join(grid)


def parse_layout(value: Any, seed: int) -> tuple[str, str]:
    """(25 colour letters, canonical option text) for the `layout` option."""
    if value is None:
        value = "latin"
    if not isinstance(value, str):
        raise BadOptions(_("layout must be latin, classic, or 25 colour letters (R, Y, G, B, C), a1 to e5."))
    text = value.strip().lower()
    if text == "latin":
        return latin_layout(seed), "latin"
    if text == "classic":
        return CLASSIC_LAYOUT, "classic"
    letters = re.sub(r"[\s/,]", "", value).upper()
    if len(letters) > 200 or not re.fullmatch(r"[RYGBC]*", letters):
        raise BadOptions(
            _(
                "layout {text} is not latin or classic, and may only hold the colour letters "
                "R, Y, G, B, C (spaces and / are ignored)."
            ).format(text=repr(_shown(value)))
        )
    if len(letters) != SQUARES:
        raise BadOptions(
            _("layout needs 25 colour letters (a1 to a5, b1 to b5, ... e5), got {count}.").format(count=len(letters))
        )
    counts = {c: letters.count(c) for c in COLOURS}
    if any(n != SIZE for n in counts.values()):
        held = ", ".join(f"{n} {c}" for c, n in counts.items())
        raise BadOptions(
            _("layout must hold each colour 5 times (there are 5 nests of each); it holds {held}.").format(held=held)
        )
    return letters, letters


def parse_opening(value: Any) -> tuple[tuple[int, ...], str]:
    """(sorted cap squares, canonical option text) for the `opening` option."""
    if value is None:
        value = "diagonal"
    if not isinstance(value, str):
        openings = listing(list(OPENINGS), "or")
        raise BadOptions(
            _("opening must be one of {openings}, or five squares like 'a1 b3 c3 d2 e5'.").format(openings=openings)
        )
    text = value.strip().lower()
    if text in OPENINGS:
        return tuple(sorted(_SQUARE_BY_NAME[n] for n in OPENINGS[text])), text
    body = text.removeprefix("custom").strip()
    parts = [p for p in re.split(r"[\s,;]+", body) if p] if len(body) <= 200 else []
    if not parts or not all(re.fullmatch(r"[a-z][0-9]{1,2}", p) for p in parts):
        raise BadOptions(
            _("opening {text} is neither one of {openings}, nor five squares like 'a1 b3 c3 d2 e5'.").format(
                text=repr(_shown(value)), openings=listing(list(OPENINGS), "or")
            )
        )
    names = [f"{p[0]}{int(p[1:])}" for p in parts]
    off = [n for n in names if n not in _SQUARE_BY_NAME]
    if off:
        raise BadOptions(
            ngettext(
                "opening: {squares} is not on the board (columns a-e, rows 1-5).",
                "opening: {squares} are not on the board (columns a-e, rows 1-5).",
                len(off),
            ).format(squares=listing(off))
        )
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise BadOptions(
            ngettext(
                "opening: {squares} is named twice; the five caps need five different squares.",
                "opening: {squares} are each named twice; the five caps need five different squares.",
                len(twice),
            ).format(squares=listing(twice))
        )
    if len(names) != 5:
        raise BadOptions(_("opening needs exactly 5 squares, one per cap; got {count}.").format(count=len(names)))
    squares = tuple(sorted(_SQUARE_BY_NAME[n] for n in names))
    return squares, " ".join(SQUARE_NAMES[s] for s in squares)


# --- Rules -----------------------------------------------------------------------------------------


def score_of(pieces: tuple[str, ...] | list[str]) -> int:
    """The best score of a collection: solid trees first, then mixed trees, then single pieces.

    Greedy is optimal: breaking a solid tree frees one piece of each size, which adds at most one mixed
    tree (5 < 7), and a tree of any kind beats three singles.
    """
    solid, mixed, rest = arrange(pieces)
    return SOLID_TREE * solid + MIXED_TREE * mixed + SINGLE * rest


def arrange(pieces: tuple[str, ...] | list[str]) -> tuple[int, int, int]:
    """(solid trees, mixed trees, pieces left over) of the best arrangement."""
    counts = {(c, z): 0 for c in COLOURS for z in "123"}
    for piece in pieces:
        counts[(piece[0], piece[1])] += 1
    solid = 0
    left = {z: 0 for z in "123"}
    for colour in COLOURS:
        trees = min(counts[(colour, z)] for z in "123")
        solid += trees
        for z in "123":
            left[z] += counts[(colour, z)] - trees
    mixed = min(left.values())
    return solid, mixed, len(pieces) - 3 * (solid + mixed)


def _legal_steps(filled: int, caps: int, seen: frozenset[int]) -> list[tuple[int, int]]:
    """Every legal (from, to) step: onto a free square, and not back to a seen arrangement unless it erupts."""
    steps = []
    for src in range(SQUARES):
        if not caps >> src & 1:
            continue
        here = filled >> src & 1
        for dst, beyond in _STEP_TARGETS[src]:
            if caps >> dst & 1:
                continue
            erupts = here and beyond >= 0 and not caps >> beyond & 1
            if erupts or (caps ^ (1 << src) ^ (1 << dst)) not in seen:
                steps.append((src, dst))
    return steps


def eruption_reachable(filled: int, caps: int) -> bool:
    """Can some sequence of steps from this cap arrangement reach an eruption (volcano.md RULING)?

    Non-erupting steps never change the board, so this is a search over cap arrangements (25-bit masks)
    joined by non-erupting steps, stopping at the first arrangement that has an erupting step. A simple
    path never repeats an arrangement, so the no-repeat rule takes nothing away. In practice an eruption
    is found within a step or two; a board without pieces is answered at once.
    """
    if not filled:
        return False
    seen = {caps}
    queue = deque([caps])
    while queue:
        current = queue.popleft()
        for src in range(SQUARES):
            if not current >> src & 1:
                continue
            here = filled >> src & 1
            for dst, beyond in _STEP_TARGETS[src]:
                if current >> dst & 1:
                    continue
                if here and beyond >= 0 and not current >> beyond & 1:
                    return True
                nxt = current ^ (1 << src) ^ (1 << dst)
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
    return False


def completion_possible(board: tuple[tuple[str, ...], ...], captures: tuple[str, ...]) -> bool:
    """Could a player holding `captures` still come to hold every colour (RULING no end possible)?

    A piece can only be captured by landing on a piece of the same size, so a missing colour is still
    obtainable only while some piece of that colour is on the board and another piece of its size too.
    """
    missing = set(COLOURS) - {p[0] for p in captures}
    if not missing:
        return True
    on_board = [p for stack in board for p in stack]
    size_count = {z: sum(p[1] == z for p in on_board) for z in "123"}
    return all(any(p[0] == colour and size_count[p[1]] >= 2 for p in on_board) for colour in missing)


def holds_every_colour(captures: tuple[str, ...]) -> bool:
    return {p[0] for p in captures} >= set(COLOURS)


@dataclass(slots=True)
class _Work:
    """The mutable copy of a state that `play` works on; frozen back into a VolcanoState at the end."""

    board: list[tuple[str, ...]]
    caps: int
    captures: list[tuple[str, ...]]
    turn: int | None
    seen: frozenset[int]
    steps: list[str]
    last_seat: int | None
    last_steps: tuple[str, ...]
    landings: tuple[tuple[int, str], ...]
    captured_last: tuple[tuple[int, str], ...]
    end: str | None
    events: list[str]

    @classmethod
    def of(cls, state: VolcanoState) -> _Work:
        return cls(
            board=list(state.board),
            caps=state.cap_mask,
            captures=list(state.captures),
            turn=state.turn,
            seen=state.seen,
            steps=list(state.steps),
            last_seat=state.last_seat,
            last_steps=state.last_steps,
            landings=state.landings,
            captured_last=state.captured_last,
            end=state.end,
            events=[],
        )


RULES_CARD = (
    N_("Volcano (Icehouse, Kristin Looney) — 1 to 6 players, capture pieces, best collection wins."),
    N_(
        "• Pieces: 75 pyramids in 5 colours (red, yellow, green, blue, clear) and 3 sizes, 5 of each colour and "
        "size; plus 5 black caps."
    ),
    N_(
        "• Board 5x5, columns a-e, rows 1-5 (a1 bottom left). Each of the 25 squares starts with a nest of 3 "
        "(large on medium on small) of one colour; the caps sit on five nests (one of 5 openings: diagonal, cross, "
        "x, corners, line; or any five squares)."
    ),
    N_("• A step: move a cap one square in any of 8 directions onto a square without a cap (volcano move b2-c3)."),
    N_(
        "• Moving a cap off a stack makes it erupt in that direction: its top piece lands just beyond the cap, the "
        "next one a square further, and so on, until the stack is spent or the next square is off the board or "
        "capped."
    ),
    N_(
        "• Every erupting piece that lands on a piece of the same size is yours. A step that causes no eruption "
        "lets you step again (never back to a cap arrangement already seen this turn); your turn ends at the first "
        "eruption. Send a whole turn at once with commas: b2-c3, c3-d4."
    ),
    N_("• Score: 7 per solid tree (small+medium+large of one colour), 5 per mixed tree, 1 per other piece."),
    N_(
        "• The game ends after the turn in which someone holds every colour (or when no eruption can be reached, "
        "or no one can complete the colours any more). Highest score wins; ties share the win."
    ),
    N_("• Resigning keeps your captures on the record; the others play on, and the last player left wins."),
)
"""The rules card (/rules): one catalog string a paragraph, said in the reader's language by `rules_card`."""


class Volcano(GameRules, Game[VolcanoState, VolcanoTurn]):
    """The engine object registered as GAMES["volcano"]."""

    key = "volcano"
    seats_can_leave = True  # a resigned player's captures stay; the others play on
    title = "Volcano"
    min_players = 1
    max_players = 6
    options = Options(
        Option(
            "opening",
            "text",
            N_("where the caps start: diagonal, cross, x, corners, line, or five squares"),
            default="diagonal",
            choices=tuple((name, " ".join(squares)) for name, squares in OPENINGS.items()),
        ),
        Option(
            "layout",
            "text",
            N_("nest colours: latin (random), classic, or 25 letters R Y G B C from a1 to e5"),
            default="latin",
            choices=(("latin", N_("a random Latin square from the seed")), ("classic", N_("the classic layout"))),
        ),
    )

    @property
    def rules_card(self) -> str:
        """The rules summary for players (/rules), in the reader's language."""
        return card(RULES_CARD)

    def new(self, seats: int, seed: int, **options: Any) -> VolcanoState:
        given = check_new(self, seats, seed, options)
        letters, layout = parse_layout(given["layout"], seed)
        caps, opening = parse_opening(given["opening"])
        board = tuple((f"{c}1", f"{c}2", f"{c}3") for c in letters)
        mask = _mask(caps)
        return VolcanoState(
            board=board,
            caps=caps,
            captures=((),) * seats,
            turn=0,
            seen=frozenset({mask}),
            seed=seed,
            opening=opening,
            layout=layout,
        )

    def to_move(self, state: VolcanoState) -> int | None:
        return state.turn

    def legal_moves(self, state: VolcanoState) -> list[str]:
        if state.turn is None:
            return []
        steps = _legal_steps(state.filled_mask, state.cap_mask, state.seen)
        return [f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]}" for a, b in steps]

    def move_group(self, move: str) -> str:
        """By cap: `b2-c3` (and a turn `b2-c3, c3-d4`) is listed under the square the cap leaves, `b2`."""
        return move.split("-")[0].strip()

    def parse(self, state: VolcanoState, text: str) -> VolcanoTurn:
        """The steps `text` stands for if they are legal here in order, or IllegalMove saying why not."""
        steps = parse_turn(text)
        return VolcanoTurn(steps)._played(state, self._apply(state, steps))

    def notation(self, move: VolcanoTurn) -> str:
        return str(move)

    def play(self, state: VolcanoState, move: VolcanoTurn | str) -> VolcanoState:
        """The next state; a VolcanoTurn is trusted to be legal here (from `parse`), text is parsed first.
        A turn parsed on this very state already holds the result."""
        if not isinstance(move, VolcanoTurn):
            return self._apply(state, parse_turn(move))  # as parse, without building the turn
        if move._source is state and move._after is not None:
            return move._after
        return self._apply(state, move.steps)

    def _apply(self, state: VolcanoState, steps: tuple[Step, ...]) -> VolcanoState:
        """The state after these steps, or IllegalMove for the first one that is not legal."""
        if state.turn is None:
            raise IllegalMove(_("The game is over: no more moves."))
        work = _Work.of(state)
        seat = state.turn
        for i, step in enumerate(steps):
            if i and not work.steps:  # the previous step finished the turn
                done, turn = steps[i - 1], ", ".join(map(str, steps))
                if work.landings:
                    why = _("{turn}: {step} erupts, which ends the turn, so it must be the last step of the text.")
                else:
                    why = _(
                        "{turn}: {step} leaves no legal step, which ends the turn, "
                        "so it must be the last step of the text."
                    )
                raise IllegalMove(why.format(turn=turn, step=done))
            reason = self._refusal(work, step)
            if reason is not None:
                if len(steps) > 1:
                    raise IllegalMove(
                        _("{turn}: step {number}, {step}: {reason}.").format(
                            turn=_shown(", ".join(map(str, steps))), number=i + 1, step=step, reason=reason
                        )
                    )
                raise IllegalMove(_("{step}: {reason}.").format(step=step, reason=reason))
            self._step(work, step, seat, len(state.captures), state.resigned)
        return self._freeze(state, work, ply=state.ply + 1)

    @staticmethod
    def _refusal(work: _Work, step: Step) -> str | None:
        src, dst = SQUARE_NAMES[step.src], SQUARE_NAMES[step.dst]
        if step.direction is None:
            return _("a cap moves one square, in one of the 8 directions")
        if not work.caps >> step.src & 1:
            return _("no cap on {square}").format(square=src)
        if work.caps >> step.dst & 1:
            return _("{square} already has a cap").format(square=dst)
        if _erupting(work.board, work.caps, step):
            return None
        if (work.caps ^ (1 << step.src) ^ (1 << step.dst)) in work.seen:
            return _("that would repeat a cap arrangement from earlier this turn (only an erupting step may)")
        return None

    def _step(self, work: _Work, step: Step, seat: int, seats: int, resigned: frozenset[int]) -> None:
        """Apply one legal step to `work`: move the cap, erupt, capture, and end the turn if it is over."""
        caps = work.caps ^ (1 << step.src) ^ (1 << step.dst)
        work.caps = caps
        work.steps.append(str(step))
        direction = step.direction
        assert direction is not None
        remaining = list(work.board[step.src])
        landings: list[tuple[int, str]] = []
        for square in RAYS[step.src][direction][1:]:
            if not remaining or caps >> square & 1:
                break
            landings.append((square, remaining.pop()))
        if not landings:
            work.seen = work.seen | {caps}
            _quiet_step_event(work.events, seat, step)
            if not _legal_steps(_filled(work.board), caps, work.seen):
                work.events.append(STUCK(seat=f"{{{seat}}}"))
                self._finish_turn(work, seat, (), (), seats, resigned)
            return
        work.board[step.src] = tuple(remaining)
        captured: list[tuple[int, str]] = []
        for square, piece in landings:
            stack = work.board[square]
            if stack and stack[-1][1] == piece[1]:
                captured.append((square, piece))
            else:
                work.board[square] = stack + (piece,)
        work.captures[seat] = work.captures[seat] + tuple(p for _, p in captured)
        flow = ", ".join(LANDS(piece=piece_name(p), square=SQUARE_NAMES[s]) for s, p in landings)
        taken = ", ".join(TAKEN(piece=piece_name(p), square=SQUARE_NAMES[s]) for s, p in captured)
        who = f"{{{seat}}}"
        if captured:
            work.events.append(
                CAPTURES(seat=who, step=step, square=SQUARE_NAMES[step.src], flow=flow, captor=who, taken=taken)
            )
        else:
            work.events.append(ERUPTS(seat=who, step=step, square=SQUARE_NAMES[step.src], flow=flow))
        self._finish_turn(work, seat, tuple(landings), tuple(captured), seats, resigned)

    @staticmethod
    def _finish_turn(
        work: _Work,
        seat: int,
        landings: tuple[tuple[int, str], ...],
        captured: tuple[tuple[int, str], ...],
        seats: int,
        resigned: frozenset[int],
    ) -> None:
        work.last_seat, work.last_steps = seat, tuple(work.steps)
        work.landings, work.captured_last = landings, captured
        work.steps = []
        if holds_every_colour(work.captures[seat]):
            work.events.append(EVERY_COLOUR(seat=f"{{{seat}}}"))
            _end(work, "a player holds every colour")
            return
        _begin_turn(work, seat, seats, resigned)

    def resign(self, state: VolcanoState, seat: int) -> VolcanoState:
        """`seat` leaves the game: no more turns, its captures stay and still score.

        RULING: a resigned player cannot win; the others are ranked by score. If it was the seat's turn,
        the turn passes (caps stepped so far this turn stay where they are). When one player is left of
        several, that player wins at once; a solitaire player who resigns ends the game with no winner.
        """
        if state.turn is None:
            raise IllegalMove(_("The game is over: nobody can resign."))
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalMove(_("There is no seat {seat} in this game.").format(seat=seat))
        if seat in state.resigned:
            raise IllegalMove(_("Seat {seat} has already resigned.").format(seat=seat))
        resigned = state.resigned | {seat}
        work = _Work.of(state)
        work.events.append(RESIGNS(seat=f"{{{seat}}}"))
        live = [s for s in range(state.seats) if s not in resigned]
        if state.seats > 1 and len(live) == 1:
            _end(work, LAST_PLAYER_LEFT)
        elif state.turn == seat:
            if work.steps:
                work.last_seat, work.last_steps, work.landings, work.captured_last = seat, tuple(work.steps), (), ()
                work.steps = []
            _begin_turn(work, seat, state.seats, resigned)
        else:
            # Fewer players left can make the colours impossible to complete; check as at a turn's start.
            if not any(completion_possible(tuple(work.board), work.captures[s]) for s in live):
                _end(work, "nobody still playing can complete the colours any more")
        return replace(self._freeze(state, work, ply=state.ply + 1), resigned=resigned)

    def _freeze(self, state: VolcanoState, work: _Work, ply: int) -> VolcanoState:
        return replace(
            state,
            board=tuple(work.board),
            caps=_squares_of(work.caps),
            captures=tuple(work.captures),
            turn=work.turn,
            seen=work.seen,
            steps=tuple(work.steps),
            last_seat=work.last_seat,
            last_steps=work.last_steps,
            landings=work.landings,
            captured_last=work.captured_last,
            end=work.end,
            ply=ply,
            events=tuple(work.events),
        )

    def outcome(self, state: VolcanoState) -> Outcome | None:
        if state.turn is not None:
            return None
        scores = self.scores(state)
        live = [s for s in range(state.seats) if s not in state.resigned]
        if not live:
            return Outcome(scores, frozenset(), NOBODY_WINS(end=state.end))
        best = max(scores[s] for s in live)
        winners = frozenset(s for s in live if scores[s] == best)
        if state.seats == 1:
            return Outcome(scores, winners, FINAL_SCORE(end=state.end, score=f"{best:g}"))
        if state.end == LAST_PLAYER_LEFT:
            return Outcome(scores, winners, state.end)
        shared = TOP_SCORE_SHARED if len(winners) > 1 else TOP_SCORE
        return Outcome(scores, winners, shared(end=state.end, score=f"{best:g}"))

    def scores(self, state: VolcanoState) -> tuple[float, ...]:
        return tuple(float(score_of(c)) for c in state.captures)

    def seats_in(self, state: VolcanoState) -> tuple[int, ...]:
        """Every seat that has not resigned (nor run out of time, nor been claimed against: the same)."""
        return tuple(seat for seat in range(state.seats) if seat not in state.resigned)

    def events(self, state: VolcanoState) -> tuple[str, ...]:
        return said(state.events)

    def view(self, state: VolcanoState, seat: int | None) -> VolcanoState:
        """Nothing is hidden in this game but the seed, which no player needs."""
        return replace(state, seed=None)

    def dumps(self, state: VolcanoState) -> str:
        return json.dumps(
            {
                "game": self.key,
                "board": ["".join(stack) for stack in state.board],
                "caps": [SQUARE_NAMES[s] for s in state.caps],
                "captures": ["".join(c) for c in state.captures],
                "turn": state.turn,
                "seen": sorted(" ".join(SQUARE_NAMES[s] for s in _squares_of(m)) for m in state.seen),
                "steps": list(state.steps),
                "resigned": sorted(state.resigned),
                "last_seat": state.last_seat,
                "last_steps": list(state.last_steps),
                "landings": [[SQUARE_NAMES[s], p] for s, p in state.landings],
                "captured_last": [[SQUARE_NAMES[s], p] for s, p in state.captured_last],
                "end": state.end,
                "ply": state.ply,
                "seed": state.seed,
                "opening": state.opening,
                "layout": state.layout,
                "events": list(state.events),
            },
            separators=(",", ":"),
        )

    def loads(self, text: str) -> VolcanoState:
        """A state from `dumps`; BadState when the text is not a sound one (tampered, another game's)."""
        data = read(self, text, _STORED)

        def pieces(text: Any) -> tuple[str, ...]:
            if not isinstance(text, str) or not _PIECES.fullmatch(text):
                raise refuse(self, "a stack or a collection is not pieces like R1G3")
            return tuple(text[i : i + 2] for i in range(0, len(text), 2))

        def squares(names: str) -> int:
            found = [_SQUARE_BY_NAME[n] for n in names.split()]
            if len(set(found)) != len(found) or len(found) != CAPS:
                raise refuse(self, f"caps and seen arrangements are {CAPS} different squares")
            return _mask(found)

        with converting(self):
            stored: dict[str, Any] = {
                **data,
                "board": tuple(pieces(s) for s in listed(data["board"])),
                "caps": _squares_of(squares(" ".join(listed(data["caps"])))),
                "captures": tuple(pieces(c) for c in listed(data["captures"])),
                "seen": frozenset(squares(m) for m in listed(data["seen"])),
                "resigned": frozenset(listed(data["resigned"])),
                **{
                    name: tuple((_SQUARE_BY_NAME[s], p) for s, p in map(listed, listed(data[name])))
                    for name in ("landings", "captured_last")
                },
                **{name: listed(data[name]) for name in ("steps", "last_steps", "events")},
            }
            state = VolcanoState(**stored)
        return sound(self, state, _broken)

    def state_from_position(
        self,
        stacks: dict[str, str] | tuple[tuple[str, ...], ...],
        caps: str,
        *,
        seats: int = 2,
        turn: int | None = 0,
        captures: tuple[str, ...] | None = None,
        steps: tuple[str, ...] = (),
        seen: tuple[str, ...] = (),
        resigned: frozenset[int] = frozenset(),
    ) -> VolcanoState:
        """A hand-built position (for tests, puzzles and moderator set-ups).

        `stacks` maps square names to pieces bottom to top written together ("R1R2R3"), other squares
        empty (or is a full 25-tuple of stacks); `caps` names the cap squares ("a1 b2 c3 d4 e5");
        `captures` gives each seat's captured pieces written together. `steps` are the steps already
        taken this turn and `seen` extra arrangements seen this turn (each like "a1 b2 c3 d4 e5"); the
        current arrangement always counts as seen.
        """
        if isinstance(stacks, dict):
            board: list[tuple[str, ...]] = [()] * SQUARES
            for name, text in stacks.items():
                board[parse_square(name)] = tuple(text[i : i + 2].upper() for i in range(0, len(text), 2))
            stacks = tuple(board)
        cap_squares = tuple(sorted(parse_square(n) for n in caps.replace(",", " ").split()))
        seen_masks = {_mask(cap_squares)} | {_mask([parse_square(n) for n in m.split()]) for m in seen}
        held = captures if captures is not None else ("",) * seats
        return VolcanoState(
            board=tuple(stacks),
            caps=cap_squares,
            captures=tuple(tuple(c[i : i + 2].upper() for i in range(0, len(c), 2)) for c in held),
            turn=turn,
            seen=frozenset(seen_masks),
            steps=steps,
            resigned=resigned,
            opening="custom",
            layout="custom",
        )


def _filled(board: list[tuple[str, ...]] | tuple[tuple[str, ...], ...]) -> int:
    return _mask([s for s in range(SQUARES) if board[s]])


def _erupting(board: list[tuple[str, ...]], caps: int, step: Step) -> bool:
    """Does this (legal) step make the stack it leaves erupt? Only if a piece can land just beyond the cap."""
    direction = step.direction
    assert direction is not None
    ray = RAYS[step.src][direction]
    return bool(board[step.src]) and len(ray) > 1 and not caps >> ray[1] & 1


LAST_PLAYER_LEFT = "every other player resigned"
CAPS = 5
_PIECES = re.compile(r"(?:[RYGBC][123])*")
_STORED = frozenset(f.name for f in fields(VolcanoState))
"""The fields of a stored state (`dumps`)."""


def _broken(state: VolcanoState) -> str | None:
    """What in a stored state no game can reach (a tampered one), or None."""
    seats = range(state.seats)
    held = [p for stack in (*state.board, *state.captures) for p in stack]
    moved = [p for _, p in (*state.landings, *state.captured_last)]
    checks = (
        (len(state.board) == SQUARES, f"the board has {SQUARES} squares"),
        (1 <= state.seats <= 6, "a game has 1 to 6 seats"),
        (all(held.count(p) <= 5 for p in set(held)), "a piece is there more than 5 times"),
        (all(_PIECES.fullmatch(p) and len(p) == 2 for p in moved), "landings hold pieces like R1"),
        (state.turn is None or (state.turn in seats and state.turn not in state.resigned), "turn is not a live seat"),
        (state.turn is None or state.cap_mask in state.seen, "the caps' arrangement is not among those seen"),
        (state.resigned <= set(seats) and state.last_seat in (None, *seats), "a seat is not in the game"),
        (all(_is_step(t) for t in (*state.steps, *state.last_steps)), "steps are not steps like b2-c3"),
        (state.ply >= 0, "ply is negative"),
    )
    return next((why for ok, why in checks if not ok), None)


def _is_step(text: str) -> bool:
    try:
        return str(Step.parse(text)) == text
    except IllegalMove:
        return False


def _end(work: _Work, reason: str) -> None:
    work.turn = None
    work.end = reason
    work.seen = frozenset()
    work.events.append(OVER(reason=reason))


def _begin_turn(work: _Work, after: int, seats: int, resigned: frozenset[int]) -> None:
    """Hand the turn to the next seat still playing after `after`, or end the game (volcano.md RULINGs)."""
    nxt = next(((after + k) % seats for k in range(1, seats + 1) if (after + k) % seats not in resigned), None)
    if nxt is None:
        _end(work, "every player resigned")
        return
    board = tuple(work.board)
    if not eruption_reachable(_filled(board), work.caps):
        _end(work, "no eruption can be reached any more")
        return
    live = [s for s in range(seats) if s not in resigned]
    if not any(completion_possible(board, work.captures[s]) for s in live):
        _end(work, "nobody can complete the colours any more")
        return
    work.turn = nxt
    work.seen = frozenset({work.caps})


VOLCANO = Volcano()

REGISTRATION = Registration(
    VOLCANO,
    renderer="renderers.volcano",
    words="renderers.alt_text:volcano",
    cog="bot.cogs.volcano",
    start="new",
    typed=Typed(
        "ALICE [BOB ...]",
        N_("volcano new alice bob (one name plays solitaire)"),
        N_("1 to 6 players (1: solitaire)"),
        N_("a step or a whole turn, like: volcano move b2-c3 (or volcano move b2-c3, c3-d4)"),
        commands=("best",),
    ),
    model="bot.ai.volcano:MODEL",
    analysis_iterations=150,
    moments=(" captures ", "holds every colour"),
)
