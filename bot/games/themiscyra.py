"""Themiscyra (Rey Alicea, 2017): rules in docs/rules/themiscyra.md (binding: shared/rules/themiscyra.md, every
RULING included).

Two players (Black is seat 0) place two stones a turn on a clear straight line. While rings are still
being placed (setup) one of the two stones gets a ring; after that a ring on one of your stones moves onto
one of the two new stones, through an open area (two or more 8-connected empty squares) that both touch,
the areas being taken after the stones are placed. A player who cannot complete a turn loses.

The board is a pair of 100-bit masks (bit `row * 10 + col`, a1 = 0, j10 = 99), so open areas are found
with whole-board bit operations. Turn generation (`legal_moves`) uses what a placement can change:
removing two empty squares only splits the areas that held them, every other area stays as it was, and a
new stone touches no area but its own. So each stone pair needs one flood fill of one or two areas, done
once for all the rings.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from bot.games.base import BadOptions, Game, GameRules, IllegalMove, InvalidNotation, Options, Outcome, card, check_new
from bot.games.phrases import Phrase, listing, said
from bot.games.registration import Registration, Typed
from bot.games.stored import check_types, converting, listed, read, refuse
from bot.i18n import N_, _, ngettext

SIZE = 10
SQUARES = SIZE * SIZE
COLUMNS = "abcdefghij"
RINGS = 8
COLOUR_NAMES = ("Black", "White")
FULL = (1 << SQUARES) - 1

SQUARE_NAMES = tuple(f"{COLUMNS[s % SIZE]}{s // SIZE + 1}" for s in range(SQUARES))
_SQUARE_BY_NAME = {name: s for s, name in enumerate(SQUARE_NAMES)}
_NOT_A = sum(1 << s for s in range(SQUARES) if s % SIZE != 0)
_NOT_J = sum(1 << s for s in range(SQUARES) if s % SIZE != SIZE - 1)


def _dilate(mask: int) -> int:
    """`mask` grown by one square in all 8 directions (no wrapping round the board's edges)."""
    row = mask | ((mask << 1) & _NOT_A) | ((mask >> 1) & _NOT_J)
    return (row | (row << SIZE) | (row >> SIZE)) & FULL


NEIGHBOURS = tuple(_dilate(1 << s) & ~(1 << s) for s in range(SQUARES))
"""The 8-neighbourhood of each square, as a mask."""


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the squares along the 4 forward directions (E, N, NE, NW): every line once."""
    out = []
    for s in range(SQUARES):
        col, row = s % SIZE, s // SIZE
        rays = []
        for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            ray = []
            c, r = col + dc, row + dr
            while 0 <= c < SIZE and 0 <= r < SIZE:
                ray.append(r * SIZE + c)
                c, r = c + dc, r + dr
            rays.append(tuple(ray))
        out.append(tuple(rays))
    return tuple(out)


RAYS = _rays()


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_square(text: str) -> int:
    name = text.strip().lower()
    if name not in _SQUARE_BY_NAME:
        raise IllegalMove(_("{text} is not on the board (columns a-j, rows 1-10).").format(text=text.strip()[:12]))
    return _SQUARE_BY_NAME[name]


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _order(a: int, b: int) -> tuple[int, int]:
    """The canonical order of two stones: by column, then row (`c9 e5`)."""
    return (a, b) if (a % SIZE, a // SIZE) <= (b % SIZE, b // SIZE) else (b, a)


def components(region: int) -> list[int]:
    """The 8-connected groups of squares of `region`, as masks."""
    out = []
    while region:
        group = region & -region
        while True:
            grown = _dilate(group) & region
            if grown == group:
                break
            group = grown
        out.append(group)
        region &= ~group
    return out


def open_areas(empty: int) -> list[int]:
    """The open areas: groups of two or more contiguous empty squares."""
    return [group for group in components(empty) if group & (group - 1)]


@dataclass(frozen=True, slots=True)
class ThemiscyraState:
    """Stones by colour and the ring squares as masks; `turn` is the seat to move (None: over).

    `last` is the last turn as (stone, stone, ring from or None in setup, ring to), played by `last_seat`.
    """

    stones: tuple[int, int] = (0, 0)
    rings: int = 0
    turn: int | None = 0
    winner: int | None = None
    last: tuple[int, int, int | None, int] | None = None
    last_seat: int | None = None
    ply: int = 0
    events: tuple[str, ...] = ()

    @property
    def empty(self) -> int:
        return FULL & ~(self.stones[0] | self.stones[1])

    @property
    def setup(self) -> bool:
        """Rings are still being placed."""
        return self.rings.bit_count() < RINGS

    def rings_of(self, seat: int) -> list[int]:
        return _squares(self.rings & self.stones[seat])


@dataclass(frozen=True, slots=True)
class Turn:
    """A parsed turn: the two stones (canonical order), and the ring's move (`start` None in setup)."""

    stones: tuple[int, int]
    start: int | None
    end: int

    def __str__(self) -> str:
        a, b = (SQUARE_NAMES[s] for s in self.stones)
        if self.start is None:
            return f"{a} {b} @{SQUARE_NAMES[self.end]}"
        return f"{a} {b} {SQUARE_NAMES[self.start]}>{SQUARE_NAMES[self.end]}"


_SQ = r"([a-z]+\d+)"
_TURN = re.compile(rf"{_SQ}[\s,]*{_SQ}[\s,]*(?:@\s*{_SQ}|[\s,]{_SQ}\s*>\s*{_SQ})", re.IGNORECASE)
HOW = N_(
    "write the two stones, then @ and the stone that gets the ring in setup (e5 e8 @e8),"
    " or the ring's move (e5 e8 c3>e8)"
)
"""How a turn is written (said with `_` in the refusals of notation)."""

# What the engine stores in its events and outcomes (English), said in the reader's language by `said`.
PLACES = Phrase(N_("{seat} places {first} and {second} and puts a ring on {square}."))
MOVES = Phrase(N_("{seat} places {first} and {second} and moves the ring from {start} to {end}."))
RINGS_DOWN = Phrase(N_("All 8 rings are down: from now on a ring moves each turn."))
STUCK = Phrase(N_("{loser} cannot complete a turn: {winner} wins."))
LOST = (Phrase(N_("Black cannot complete a turn")), Phrase(N_("White cannot complete a turn")))
"""The reason of a won game, by the loser's seat."""


def parse_turn(text: str) -> Turn:
    """The turn `text` names (any case, stones in either order); InvalidNotation if it is not one."""
    if not isinstance(text, str) or len(text.strip()) > 40:
        raise InvalidNotation(_("That is not a turn: {how}.").format(how=_(HOW)))
    found = _TURN.fullmatch(text.strip())
    if found is None:
        if not text.strip():
            raise InvalidNotation(_("That is not a turn: {how}.").format(how=_(HOW)))
        raise InvalidNotation(_("{text} is not a turn: {how}.").format(text=repr(text.strip()[:40]), how=_(HOW)))
    a, b, ring, start, end = found.groups()
    first, second = parse_square(a), parse_square(b)
    if first == second:
        raise IllegalMove(
            _("{pair}: the two stones go on two different squares.").format(
                pair=f"{SQUARE_NAMES[first]} {SQUARE_NAMES[second]}"
            )
        )
    stones = _order(first, second)
    if ring is not None:
        return Turn(stones, None, parse_square(ring))
    return Turn(stones, parse_square(start), parse_square(end))


def _between(a: int, b: int) -> list[int] | None:
    """The squares strictly between a and b on their line, or None when they share no straight line."""
    for ray in RAYS[a]:
        if b in ray:
            return list(ray[: ray.index(b)])
    for ray in RAYS[b]:
        if a in ray:
            return list(ray[: ray.index(a)])
    return None


def stone_pairs(empty: int) -> list[tuple[int, int]]:
    """Every pair of empty squares on one line with only empty squares between them, canonical order."""
    pairs = []
    for a in _squares(empty):
        for ray in RAYS[a]:
            for b in ray:
                if not empty >> b & 1:
                    break
                pairs.append(_order(a, b))
    pairs.sort(key=lambda p: (p[0] % SIZE, p[0] // SIZE, p[1] % SIZE, p[1] // SIZE))
    return pairs


_WHOLE: dict[int, bool] = {}


def _one_group(mask: int) -> bool:
    """Whether `mask` (a few squares round one or two stones) is one 8-connected group; memoised, as
    the same small neighbourhoods come back all the time."""
    found = _WHOLE.get(mask)
    if found is None:
        found = not mask or components(mask)[0] == mask
        _WHOLE[mask] = found
    return found


def stays_whole(left: int, a: int, b: int) -> bool:
    """Whether stones on a and b leave their empty group in one piece (`left`: the group without them),
    judged from the squares round the stones only: if those stay connected among themselves, any path
    that went through a stone can go round it. Sufficient, not necessary: False means "look closer"."""
    na, nb = NEIGHBOURS[a], NEIGHBOURS[b]
    if na >> b & 1:  # neighbours: the squares round both must stay connected
        return _one_group((na | nb) & left)
    return _one_group(na & left) and _one_group(nb & left)


class _Areas:
    """The open areas of one position, ready to be split by the stones of each candidate pair."""

    def __init__(self, empty: int) -> None:
        self.empty = empty
        self.group_of: dict[int, int] = {}
        for group in components(empty):
            for square in _squares(group):
                self.group_of[square] = group

    def touched(self, a: int, b: int) -> list[int]:
        """After stones on a and b: the open areas next to a or b (only those can carry a ring to them)."""
        group = self.group_of[a]
        left = (group | self.group_of[b]) & ~(1 << a) & ~(1 << b)
        near = NEIGHBOURS[a] | NEIGHBOURS[b]
        if group >> b & 1 and stays_whole(left, a, b):  # most pairs: no flood fill needed
            return [left] if left & (left - 1) and left & near else []
        return [group for group in components(left) if group & (group - 1) and group & near]

    def live(self, rings: list[int]) -> set[int]:
        """The groups a turn can be played in: 4+ squares (two stones must leave an open area) next to
        one of these rings (a ring only reaches the areas it touches)."""
        reach = 0
        for ring in rings:
            reach |= NEIGHBOURS[ring]
        return {g for g in set(self.group_of.values()) if g & reach and g.bit_count() >= 4}


def _ring_moves(areas: list[int], rings: list[int], stones: tuple[int, int]) -> list[tuple[int, int]]:
    """(ring square, new stone) pairs whose ring and stone touch one same open area."""
    if len(areas) == 1:  # most pairs split nothing: one area, so no need to match ring and stone by area
        area = areas[0]
        ends = [end for end in stones if area & NEIGHBOURS[end]]
        return [(start, end) for start in rings if area & NEIGHBOURS[start] for end in ends] if ends else []
    out = []
    for start in rings:
        reach = NEIGHBOURS[start]
        near = [area for area in areas if area & reach]
        if not near:
            continue
        for end in stones:
            around = NEIGHBOURS[end]
            for area in near:
                if area & around:
                    out.append((start, end))
                    break
    return out


RULES_CARD = (
    N_(
        "Themiscyra (Rey Alicea) — 2 players, Black (moves first) and White, 10x10 board (a1 bottom left, j10 top "
        "right)."
    ),
    N_("• Pieces: stones of your colour (as many as needed) and 8 neutral rings; a ring always sits on a stone."),
    N_(
        "• A turn: place 2 of your stones on two empty squares of one row, column or diagonal, with only empty "
        "squares between them (adjacent is fine)."
    ),
    N_(
        "• Setup: put a ring on one of the two stones (themiscyra move e5 e8 @e8); 4 turns each, until all 8 rings "
        "are down."
    ),
    N_(
        "• Then: move a ring from one of your stones onto one of the two new stones (e5 e8 c3>e8). The ring and "
        "that stone must both touch the same open area: 2 or more connected empty squares (a square touches its 8 "
        "neighbours, diagonals included), counted after your two stones are down. A stone the ring leaves stays, "
        "bare."
    ),
    N_("• The whole turn must be legal. A player who cannot complete a turn loses: the last to move wins."),
)
"""The rules card (/rules): one catalog string a paragraph, said in the reader's language by `rules_card`."""


class Themiscyra(GameRules, Game[ThemiscyraState, Turn]):
    """The engine object registered as GAMES["themiscyra"]."""

    key = "themiscyra"
    title = "Themiscyra"
    min_players = 2
    max_players = 2
    options = Options()

    @property
    def rules_card(self) -> str:
        """The rules summary for players (/rules), in the reader's language."""
        return card(RULES_CARD)

    def new(self, seats: int, seed: int, **options: Any) -> ThemiscyraState:
        """The empty board, Black to move (the seed is not used: there is no chance in this game)."""
        check_new(self, seats, seed, options)
        return ThemiscyraState()

    def to_move(self, state: ThemiscyraState) -> int | None:
        return state.turn

    def legal_moves(self, state: ThemiscyraState) -> list[str]:
        names = SQUARE_NAMES
        return [
            f"{names[a]} {names[b]} @{names[end]}"
            if start is None
            else f"{names[a]} {names[b]} {names[start]}>{names[end]}"
            for a, b, start, end in self._generate(state, None)
        ]

    def move_group(self, move: str) -> str:
        """A turn's stone pair: `e5 e8 @e8` and `e5 e8 c3>e8` are listed under `e5 e8`."""
        return " ".join(move.split()[:2])

    def turns(self, state: ThemiscyraState, stones: tuple[int, int] | None = None) -> list[Turn]:
        """Every legal turn (or only those with these two stones), in canonical order."""
        return [Turn((a, b), start, end) for a, b, start, end in self._generate(state, stones)]

    def _generate(
        self, state: ThemiscyraState, stones: tuple[int, int] | None
    ) -> list[tuple[int, int, int | None, int]]:
        """(stone, stone, ring from or None, ring to) of every legal turn: plain tuples, for speed."""
        if state.turn is None:
            return []
        pairs = stone_pairs(state.empty) if stones is None else [stones]
        if state.setup:
            return [(a, b, None, end) for a, b in pairs for end in (a, b)]
        areas = _Areas(state.empty)
        rings = state.rings_of(state.turn)
        live = areas.live(rings)
        group_of = areas.group_of
        return [
            (a, b, start, end)
            for a, b in pairs
            if group_of[a] in live or group_of[a] != group_of[b]  # (a pair given from outside may span two)
            for start, end in _ring_moves(areas.touched(a, b), rings, (a, b))
        ]

    def can_move(self, state: ThemiscyraState) -> bool:
        """Whether the seat to move can complete any turn (stops at the first one found)."""
        if state.turn is None:
            return False
        pairs = stone_pairs(state.empty)
        if state.setup or not pairs:
            return bool(pairs)
        areas = _Areas(state.empty)
        rings = state.rings_of(state.turn)
        live = areas.live(rings)
        return any(_ring_moves(areas.touched(a, b), rings, (a, b)) for a, b in pairs if areas.group_of[a] in live)

    def parse(self, state: ThemiscyraState, text: str) -> Turn:
        """The turn `text` names if it is legal here, or IllegalMove saying which part is wrong."""
        if state.turn is None:
            raise IllegalMove(_("The game is over: no more turns."))
        turn = parse_turn(text)
        a, b = turn.stones
        pair = f"{SQUARE_NAMES[a]} {SQUARE_NAMES[b]}"
        for square in turn.stones:
            if not state.empty >> square & 1:
                raise IllegalMove(
                    _("{square} is taken: stones go on empty squares.").format(square=SQUARE_NAMES[square])
                )
        between = _between(a, b)
        if between is None:
            raise IllegalMove(_("{pair}: the two stones must lie on one row, column or diagonal.").format(pair=pair))
        blocked = [SQUARE_NAMES[s] for s in between if not state.empty >> s & 1]
        if blocked:
            raise IllegalMove(
                ngettext(
                    "{pair}: {squares} between them is not empty.",
                    "{pair}: {squares} between them are not empty.",
                    len(blocked),
                ).format(pair=pair, squares=listing(blocked))
            )
        end = SQUARE_NAMES[turn.end]
        placed = state.rings.bit_count()
        if state.setup:
            if turn.start is not None:
                raise IllegalMove(
                    _(
                        "Rings are still being placed ({placed} of {rings} are down): put one on a new stone, "
                        "like {example}."
                    ).format(placed=placed, rings=RINGS, example=f"{pair} @{SQUARE_NAMES[b]}")
                )
            if turn.end not in turn.stones:
                raise IllegalMove(
                    _("@{square}: the ring goes on one of the two stones you place ({pair}).").format(
                        square=end, pair=pair
                    )
                )
            return turn
        if turn.start is None:
            options = self.turns(state, turn.stones) or self.turns(state)  # a legal turn, onto the stone named first
            example = min(options, key=lambda t: t.end != turn.end, default=None)
            if example is None:
                raise IllegalMove(_("All {rings} rings are down: move one of yours instead.").format(rings=RINGS))
            raise IllegalMove(
                _("All {rings} rings are down: move one of yours instead, like {example}.").format(
                    rings=RINGS, example=example
                )
            )
        start = SQUARE_NAMES[turn.start]
        move = f"{start}>{end}"
        if not state.rings >> turn.start & 1:
            raise IllegalMove(_("{move}: there is no ring on {square}.").format(move=move, square=start))
        if not state.stones[state.turn] >> turn.start & 1:
            if state.turn == 0:
                theirs = _("{move}: the ring on {square} sits on a White stone; move one on yours.")
            else:
                theirs = _("{move}: the ring on {square} sits on a Black stone; move one on yours.")
            raise IllegalMove(theirs.format(move=move, square=start))
        if turn.end not in turn.stones:
            raise IllegalMove(
                _("{move}: a ring moves onto one of the two stones you place ({pair}).").format(move=move, pair=pair)
            )
        areas = open_areas(state.empty & ~(1 << a) & ~(1 << b))  # the definition itself: one turn, no hurry
        if not any(area & NEIGHBOURS[turn.start] for area in areas):
            raise IllegalMove(
                _("{move}: the ring on {square} touches no open area, so it cannot move.").format(
                    move=move, square=start
                )
            )
        if not any(area & NEIGHBOURS[turn.start] and area & NEIGHBOURS[turn.end] for area in areas):
            raise IllegalMove(
                _("{move}: the ring on {start} and {end} share no open area.").format(move=move, start=start, end=end)
            )
        return turn

    def notation(self, move: Turn) -> str:
        return str(move)

    def play(self, state: ThemiscyraState, move: Turn | str) -> ThemiscyraState:
        """The next state; a Turn is trusted to be legal here (from `parse`), text is parsed first."""
        turn = move if isinstance(move, Turn) else self.parse(state, move)
        seat = state.turn
        assert seat is not None
        a, b = turn.stones
        stones = list(state.stones)
        stones[seat] |= (1 << a) | (1 << b)
        rings = state.rings | (1 << turn.end)
        if turn.start is not None:
            rings &= ~(1 << turn.start)
        who, first, second = f"{{{seat}}}", SQUARE_NAMES[a], SQUARE_NAMES[b]
        if turn.start is None:
            events = [PLACES(seat=who, first=first, second=second, square=SQUARE_NAMES[turn.end])]
        else:
            events = [
                MOVES(seat=who, first=first, second=second, start=SQUARE_NAMES[turn.start], end=SQUARE_NAMES[turn.end])
            ]
        after = ThemiscyraState(
            stones=(stones[0], stones[1]),
            rings=rings,
            turn=1 - seat,
            last=(a, b, turn.start, turn.end),
            last_seat=seat,
            ply=state.ply + 1,
        )
        if state.setup and not after.setup:
            events.append(RINGS_DOWN())
        if not self.can_move(after):
            events.append(STUCK(loser=f"{{{1 - seat}}}", winner=who))
            after = replace(after, turn=None, winner=seat)
        return replace(after, events=tuple(events))

    def outcome(self, state: ThemiscyraState) -> Outcome | None:
        if state.winner is None:
            return None
        scores = tuple(1.0 if seat == state.winner else 0.0 for seat in range(2))
        return Outcome(scores, frozenset({state.winner}), LOST[1 - state.winner]())

    def scores(self, state: ThemiscyraState) -> tuple[float, ...]:
        """No points in this game: the last player to complete a turn wins."""
        return ()

    def events(self, state: ThemiscyraState) -> tuple[str, ...]:
        return said(state.events)

    def view(self, state: ThemiscyraState, seat: int | None) -> ThemiscyraState:
        """Nothing is hidden in this game."""
        return state

    def dumps(self, state: ThemiscyraState) -> str:
        return json.dumps(
            {
                "game": self.key,
                "black": " ".join(SQUARE_NAMES[s] for s in _squares(state.stones[0])),
                "white": " ".join(SQUARE_NAMES[s] for s in _squares(state.stones[1])),
                "rings": " ".join(SQUARE_NAMES[s] for s in _squares(state.rings)),
                "turn": state.turn,
                "winner": state.winner,
                "last": None if state.last is None else [None if s is None else SQUARE_NAMES[s] for s in state.last],
                "last_seat": state.last_seat,
                "ply": state.ply,
                "events": list(state.events),
            },
            separators=(",", ":"),
        )

    def loads(self, text: str) -> ThemiscyraState:
        """A state from `dumps`; BadState when the text is not a sound one (tampered, another game's)."""
        data = read(self, text, _STORED)
        with converting(self):
            last = data["last"]
            if last is not None:
                last = tuple(None if s is None else _SQUARE_BY_NAME[s] for s in listed(last))
            stored: dict[str, Any] = {
                **{name: data[name] for name in ("turn", "winner", "last_seat", "ply")},
                "stones": (_mask(data["black"]), _mask(data["white"])),
                "rings": _mask(data["rings"]),
                "last": last,
                "events": listed(data["events"]),
            }
            state = ThemiscyraState(**stored)
        check_types(self, state)
        black, white = state.stones
        checks = (
            (not black & white, "a square holds a black and a white stone"),
            (
                not state.rings & ~(black | white) and state.rings.bit_count() <= RINGS,
                f"rings: {RINGS} at most, on stones",
            ),
            (state.turn in (None, 0, 1) and state.winner in (None, 0, 1), "turn and winner must be None, 0 or 1"),
            (state.winner is None or state.turn is None, "a game with a winner has nobody to move"),
            (state.last_seat in (None, 0, 1) and state.ply >= 0, "last_seat must be None, 0 or 1 and ply not negative"),
        )
        broken = next((why for ok, why in checks if not ok), None)
        if broken:
            raise refuse(self, broken)
        return state

    def state_from_position(self, black: str, white: str, rings: str, turn: int | None = 0) -> ThemiscyraState:
        """A hand-built position (tests, puzzles): squares as space-separated names; rings sit on stones."""
        state = ThemiscyraState(stones=(_mask(black), _mask(white)), rings=_mask(rings), turn=turn)
        if state.stones[0] & state.stones[1]:
            raise BadOptions(_("A square cannot hold a black and a white stone."))
        if state.rings & ~(state.stones[0] | state.stones[1]):
            raise BadOptions(_("Rings sit on stones."))
        if state.rings.bit_count() > RINGS:
            raise BadOptions(_("There are only {rings} rings.").format(rings=RINGS))
        if turn is not None and not self.can_move(state):  # the player to move is stuck: the other has won
            state = replace(state, turn=None, winner=1 - turn)
        return state


def _mask(names: str) -> int:
    mask = 0
    for name in names.split():
        mask |= 1 << parse_square(name)
    return mask


_STORED = frozenset({"black", "white", "rings", "turn", "winner", "last", "last_seat", "ply", "events"})
"""The fields of a stored state (`dumps`)."""

THEMISCYRA = Themiscyra()

REGISTRATION = Registration(
    THEMISCYRA,
    renderer="renderers.themiscyra",
    words="renderers.alt_text:themiscyra",
    cog="bot.cogs.themiscyra",
    start="challenge",
    typed=Typed(
        "BLACK WHITE",
        N_("themiscyra new alice bob (alice plays Black)"),
        N_("Black moves first"),
        N_("a whole turn, like: themiscyra move e5 e8 @e8 (setup) or themiscyra move e5 e8 c3>e8"),
        seed=False,
    ),
    model="bot.ai.themiscyra:MODEL",
    analysis_iterations=200,
    overlays=("areas",),
    moments=("All 8 rings are down", "cannot complete a turn"),
)
