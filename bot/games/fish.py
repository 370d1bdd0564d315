""" "1, 2, 3": Hey, That's My Fish! for two players (rules: docs/rules/fish.md; binding: shared/rules/fish.md).

The board is 60 hex tiles in rows A-H; rows A, C, E, G hold 8 tiles and B, D, F, H hold 7, drawn shifted
right by half a tile. Tiles are numbered 0..59 row by row; `tile_name(i)` gives "D4". Internally each tile
also has axial hex coordinates, so the six straight lines are fixed steps (see `DIRECTIONS`).

A state is an immutable `FishState`; `FISH.play(state, "D4-F3")` returns the next one. After the last
placement and after every move the engine settles the board: stuck tokens are removed and scored, and
islands held by one player only are solved exactly (`solve_island`) and awarded.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, replace
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
from bot.games.phrases import Phrase, said
from bot.games.registration import Registration, Typed
from bot.games.stored import converting, listed, read, refuse, sound
from bot.i18n import N_, _

ROW_LETTERS = "ABCDEFGH"
ROW_LENGTHS = (8, 7, 8, 7, 8, 7, 8, 7)
ROW_STARTS = tuple(sum(ROW_LENGTHS[:r]) for r in range(8))
TILES = sum(ROW_LENGTHS)  # 60
TOKENS_PER_PLAYER = 4
VALUE_COUNTS = {1: 30, 2: 20, 3: 10}
ISLAND_LIMIT = 16
"""Islands up to this many tiles are solved and awarded automatically; larger ones are played out."""

# Axial (q, r) steps of the six straight lines, with r growing downwards.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "E": (1, 0),
    "W": (-1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "SE": (0, 1),
    "SW": (-1, 1),
}


def row_col(tile: int) -> tuple[int, int]:
    """(row, column), both 0-based, of a tile index."""
    for row in range(7, -1, -1):
        if tile >= ROW_STARTS[row]:
            return row, tile - ROW_STARTS[row]
    raise ValueError(tile)


def tile_name(tile: int) -> str:
    row, col = row_col(tile)
    return f"{ROW_LETTERS[row]}{col + 1}"


def _axial(tile: int) -> tuple[int, int]:
    row, col = row_col(tile)
    return col - row // 2, row


def _tile_at(q: int, r: int) -> int | None:
    if not 0 <= r < 8:
        return None
    col = q + r // 2
    if not 0 <= col < ROW_LENGTHS[r]:
        return None
    return ROW_STARTS[r] + col


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for tile in range(TILES):
        q, r = _axial(tile)
        per_direction = []
        for dq, dr in DIRECTIONS.values():
            ray = []
            step = 1
            while (nxt := _tile_at(q + dq * step, r + dr * step)) is not None:
                ray.append(nxt)
                step += 1
            per_direction.append(tuple(ray))
        rays.append(tuple(per_direction))
    return tuple(rays)


RAYS = _build_rays()
"""RAYS[tile][d]: the tiles along direction d (in DIRECTIONS order), nearest first, to the board edge."""
NEIGHBOURS = tuple(tuple(ray[0] for ray in RAYS[t] if ray) for t in range(TILES))
TILE_NAMES = tuple(tile_name(t) for t in range(TILES))
_TILE_BY_NAME = {name: t for t, name in enumerate(TILE_NAMES)}

_TILE_RE = r"([a-z])\s*(\d{1,2})"
_MOVE_RE = re.compile(rf"^(?:place\s+)?{_TILE_RE}(?:\s*(?:-|–|—|→|>|to)?\s*{_TILE_RE})?$", re.I)
_LONGEST_MOVE = 40  # longer text is refused before matching, so no input can make parsing slow


def parse_tile(text: str) -> int:
    """Tile index of a name like "d4"; raises IllegalMove naming what is wrong."""
    match = re.fullmatch(r"\s*" + _TILE_RE + r"\s*", text, re.I)
    if not match:
        raise InvalidNotation(
            _("{text} is not a tile: write a row letter A-H and a number, like D4.").format(text=repr(text.strip()))
        )
    return _tile_from(match.group(1), match.group(2))


def _tile_from(letter: str, number: str) -> int:
    name = f"{letter.upper()}{int(number)}"
    if name in _TILE_BY_NAME:
        return _TILE_BY_NAME[name]
    if letter.upper() not in ROW_LETTERS:
        raise IllegalMove(_("{tile} is not on the board: rows go from A (top) to H (bottom).").format(tile=name))
    length = ROW_LENGTHS[ROW_LETTERS.index(letter.upper())]
    raise IllegalMove(
        _("{tile} is not on the board: row {row} has tiles 1 to {length}.").format(
            tile=name, row=letter.upper(), length=length
        )
    )


@dataclass(frozen=True, slots=True)
class FishMove:
    """A placement (`src` None) or a move from `src` to `dst`; `str()` gives canonical notation."""

    dst: int
    src: int | None = None

    @classmethod
    def parse(cls, text: str) -> FishMove:
        """Read `D4`, `place d4`, `D4-F3`, `d4 f3` (case-insensitive); no position needed."""
        stripped = text.strip() if isinstance(text, str) else ""
        match = _MOVE_RE.match(stripped) if len(stripped) <= _LONGEST_MOVE else None
        if not match:
            shown = stripped if len(stripped) <= _LONGEST_MOVE else stripped[:_LONGEST_MOVE] + "…"
            if not shown:
                raise InvalidNotation(
                    _("That is not a move: write a tile like D4 to place a token, or D4-F3 to move one.")
                )
            raise InvalidNotation(
                _("{text} is not a move: write a tile like D4 to place a token, or D4-F3 to move one.").format(
                    text=repr(shown)
                )
            )
        first = _tile_from(match.group(1), match.group(2))
        if match.group(3) is None:
            return cls(first)
        if stripped.lower().startswith("place"):
            raise InvalidNotation(
                _("{text}: place takes one tile (place D4); a move is written D4-F3.").format(text=repr(stripped))
            )
        return cls(_tile_from(match.group(3), match.group(4)), first)

    def __str__(self) -> str:
        if self.src is None:
            return TILE_NAMES[self.dst]
        return f"{TILE_NAMES[self.src]}-{TILE_NAMES[self.dst]}"


@dataclass(frozen=True, slots=True)
class FishState:
    """Everything about a game in progress. `values[t]` is 0 once tile t is removed (a gap)."""

    values: tuple[int, ...]
    tokens: tuple[tuple[int, ...], tuple[int, ...]]
    placed: tuple[int, int]
    scores: tuple[int, int]
    first: int
    turn: int | None
    ply: int = 0
    seed: int | None = None
    last_move: str | None = None
    last_seat: int | None = None
    """Who made `last_move` (the token may be gone since, so the board alone cannot tell)."""
    events: tuple[str, ...] = ()
    cleared: tuple[int, ...] = ()
    """Tiles the engine removed on its own during the last ply (stuck tokens, solved islands)."""

    @property
    def placing(self) -> bool:
        return sum(self.placed) < 2 * TOKENS_PER_PLAYER

    def owner(self, tile: int) -> int | None:
        for seat, tiles in enumerate(self.tokens):
            if tile in tiles:
                return seat
        return None

    def tokens_left(self, seat: int) -> int:
        """Tokens still to place plus tokens on the board."""
        return TOKENS_PER_PLAYER - self.placed[seat] + len(self.tokens[seat])


def generate_board(seed: int) -> tuple[int, ...]:
    """A board from a seed with the evenness guarantee of fish.md.

    Each 2-row band (15 tiles) gets 5 twos and either 8 ones + 2 threes or 7 ones + 3 threes; two bands
    of each kind, chosen by the seed, make the totals 30/20/10. Then each band is shuffled.
    """
    rng = random.Random(seed)
    heavy_bands = set(rng.sample(range(4), 2))
    values: list[int] = []
    for band in range(4):
        ones, threes = (7, 3) if band in heavy_bands else (8, 2)
        tiles = [1] * ones + [2] * 5 + [3] * threes
        rng.shuffle(tiles)
        values.extend(tiles)
    return tuple(values)


def parse_board(text: str) -> tuple[int, ...]:
    """An explicit board: 60 digits 1-3, rows A to H left to right (spaces and / are ignored)."""
    if not isinstance(text, str):
        raise BadOptions(_("board must be a text of 60 digits (1, 2 or 3), rows A to H."))
    digits = re.sub(r"[\s/,]", "", text)
    if not re.fullmatch(r"[123]*", digits):
        raise BadOptions(_("board may only hold the digits 1, 2 and 3 (spaces and / are ignored)."))
    if len(digits) != TILES:
        raise BadOptions(
            _("board needs {tiles} digits (rows A to H, left to right), got {count}.").format(
                tiles=TILES, count=len(digits)
            )
        )
    values = tuple(int(d) for d in digits)
    counts = {v: values.count(v) for v in VALUE_COUNTS}
    if counts != VALUE_COUNTS:
        raise BadOptions(
            _(
                "board must hold 30 ones, 20 twos and 10 threes; it holds {ones} ones, {twos} twos and {threes} threes."
            ).format(ones=counts[1], twos=counts[2], threes=counts[3])
        )
    return values


def _moves_from(values: tuple[int, ...] | list[int], occupied: set[int], tile: int) -> list[int]:
    """Every tile a token on `tile` can reach in one straight move."""
    targets = []
    for ray in RAYS[tile]:
        for nxt in ray:
            if not values[nxt] or nxt in occupied:
                break
            targets.append(nxt)
    return targets


def _can_move(values: list[int], occupied: set[int], tile: int) -> bool:
    for ray in RAYS[tile]:
        if ray and values[ray[0]] and ray[0] not in occupied:
            return True
    return False


def _components(values: list[int]) -> list[list[int]]:
    """Connected groups of the tiles still on the board."""
    seen = [False] * TILES
    groups = []
    for start in range(TILES):
        if seen[start] or not values[start]:
            continue
        seen[start] = True
        group, stack = [], [start]
        while stack:
            tile = stack.pop()
            group.append(tile)
            for nb in NEIGHBOURS[tile]:
                if values[nb] and not seen[nb]:
                    seen[nb] = True
                    stack.append(nb)
        groups.append(sorted(group))
    return groups


def solve_island(values: dict[int, int], tokens: tuple[int, ...]) -> tuple[int, list[tuple[int, int]], tuple[int, ...]]:
    """The most one player's tokens can collect on an island no opponent can reach, exactly.

    `values` maps each island tile to its worth; `tokens` are the tiles the player's tokens stand on.
    Returns (total, moves, final tiles): one best line of play as (from, to) moves, and the tiles the
    tokens end on. The total counts every tile left by a move plus the tiles the tokens finally stand on.

    How: a depth-first branch-and-bound over positions (remaining tiles as a bitmask, token tiles as a
    sorted tuple, since tokens are interchangeable). After every move the remaining tiles are split into
    connected parts; parts without a token are dropped (nobody can score them) and the others are solved
    independently and added. The sum of a part's tiles bounds what it can give, so a branch that cannot
    beat the best line found so far is skipped, and a position that collects every tile ends its search
    at once (most islands do). A memo keeps exact values and proven upper bounds per position. Moves to
    tiles with fewer onward moves are tried first (Warnsdorff's rule), which finds full tours early.
    Random 16-tile islands with one to four tokens solve in a few milliseconds to a few hundred.
    """
    tiles = sorted(values)
    index = {t: i for i, t in enumerate(tiles)}
    worth = [values[t] for t in tiles]
    rays = [[[index[n] for n in _takewhile_in(ray, index)] for ray in RAYS[t]] for t in tiles]
    neighbours = [[index[n] for n in NEIGHBOURS[t] if n in index] for t in tiles]
    # memo[(mask, pos)] = (value, exact); when not exact, value is an upper bound.
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, bool]] = {}
    best_move: dict[tuple[int, tuple[int, ...]], tuple[int, int, int, tuple[int, ...]]] = {}

    def mask_worth(mask: int) -> int:
        total, i = 0, 0
        while mask:
            if mask & 1:
                total += worth[i]
            mask >>= 1
            i += 1
        return total

    def parts(mask: int, pos: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """Split `mask` into connected parts that hold a token; tokenless parts are dropped."""
        result = []
        left = mask
        for p in pos:
            if not (left >> p) & 1:
                continue  # already in an earlier part
            part, stack = 1 << p, [p]
            while stack:
                i = stack.pop()
                for n in neighbours[i]:
                    if (left >> n) & 1 and not (part >> n) & 1:
                        part |= 1 << n
                        stack.append(n)
            left &= ~part
            result.append((part, tuple(q for q in pos if (part >> q) & 1)))
        return result

    def children(mask: int, pos: tuple[int, ...]) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """(gain, from, to, tokens after) for every move, most promising first."""
        occupied = 0
        for p in pos:
            occupied |= 1 << p
        found = []
        for k, p in enumerate(pos):
            for ray in rays[p]:
                for q in ray:
                    bit = 1 << q
                    if not mask & bit or occupied & bit:
                        break
                    exits = sum(1 for r in rays[q] if r and (mask >> r[0]) & 1 and not (occupied >> r[0]) & 1)
                    found.append((exits, -worth[q], p, q, tuple(sorted(pos[:k] + (q,) + pos[k + 1 :]))))
        found.sort()
        return [(worth[p], p, q, moved) for _, _, p, q, moved in found]

    def search(mask: int, pos: tuple[int, ...], floor: int) -> tuple[int, bool]:
        """(value, True) if the position's value beats `floor`; else maybe (upper bound <= floor, False)."""
        key = (mask, pos)
        cached = memo.get(key)
        if cached is not None and (cached[1] or cached[0] <= floor):
            return cached
        moves = children(mask, pos)
        if not moves:  # no token can move: each scores the tile it stands on
            memo[key] = (sum(worth[p] for p in pos), True)
            return memo[key]
        ceiling = mask_worth(mask)
        best = -1  # the best line known exactly
        cut = -1  # the highest upper bound of the lines not known exactly; never above max(best, floor)
        for gain, p, q, moved in moves:
            split = parts(mask & ~(1 << p), moved)
            bounds = [mask_worth(m) for m, _ in split]
            need = max(best, floor) - gain  # the parts must give more than this together to matter
            if sum(bounds) <= need:
                cut = max(cut, gain + sum(bounds))
                continue
            total = 0
            for i, (m, s) in enumerate(split):
                rest = sum(bounds[i + 1 :])
                part, exact = search(m, s, need - total - rest)
                total += part
                if not exact:
                    cut = max(cut, gain + total + rest)
                    break
            else:
                if gain + total > best:
                    best = gain + total
                    best_move[key] = (gain, p, q, moved)
                    if best == ceiling:
                        break
        memo[key] = (best, True) if best >= cut else (cut, False)
        return memo[key]

    def value(mask: int, pos: tuple[int, ...]) -> int:
        result, exact = search(mask, pos, -1)
        assert exact
        return result

    def line(mask: int, pos: tuple[int, ...]) -> tuple[int, list[tuple[int, int]], list[int]]:
        """The exact value of a position and one line of play that reaches it."""
        total = value(mask, pos)
        if (mask, pos) not in best_move:
            return total, [], list(pos)
        _, p, q, moved = best_move[(mask, pos)]
        moves, finals = [(p, q)], []
        for m, s in parts(mask & ~(1 << p), moved):
            _, sub_moves, sub_finals = line(m, s)
            moves += sub_moves
            finals += sub_finals
        return total, moves, finals

    full = (1 << len(tiles)) - 1
    start = tuple(sorted(index[t] for t in tokens))
    total, moves, finals = 0, [], []
    for m, s in parts(full, start):
        sub_total, sub_moves, sub_finals = line(m, s)
        total += sub_total
        moves += sub_moves
        finals += sub_finals
    return (
        total,
        [(tiles[a], tiles[b]) for a, b in moves],
        tuple(sorted(tiles[f] for f in finals)),
    )


def _takewhile_in(ray: tuple[int, ...], members: dict[int, int]) -> list[int]:
    out = []
    for t in ray:
        if t not in members:
            break
        out.append(t)
    return out


def _settle(
    values: list[int], tokens: list[list[int]], scores: list[int], events: list[str], cleared: list[int]
) -> None:
    """Remove stuck tokens and award one-player islands until nothing changes (mutates its arguments)."""
    changed = True
    while changed:
        changed = False
        occupied = {t for seat_tokens in tokens for t in seat_tokens}
        for seat in (0, 1):
            for tile in list(tokens[seat]):
                if _can_move(values, occupied, tile):
                    continue
                worth = values[tile]
                tokens[seat].remove(tile)
                scores[seat] += worth
                values[tile] = 0
                cleared.append(tile)
                events.append(STUCK(seat=f"{{{seat}}}", tile=TILE_NAMES[tile], worth=worth))
                changed = True
        if changed:
            continue
        for group in _components(values):
            members = set(group)
            owners = {seat for seat in (0, 1) for t in tokens[seat] if t in members}
            if len(owners) != 1 or len(group) > ISLAND_LIMIT:
                continue
            seat = owners.pop()
            mine = tuple(t for t in tokens[seat] if t in members)
            total, line, finals = solve_island({t: values[t] for t in group}, mine)
            collected = [a for a, _ in line] + list(finals)
            for t in mine:
                tokens[seat].remove(t)
            for t in collected:
                values[t] = 0
                cleared.append(t)
            scores[seat] += total
            played = ", ".join(f"{TILE_NAMES[a]}-{TILE_NAMES[b]}" for a, b in line) or NO_MOVE()
            events.append(
                ISLAND(
                    tiles=" ".join(TILE_NAMES[t] for t in group),
                    seat=f"{{{seat}}}",
                    count=len(mine),
                    tokens=" ".join(TILE_NAMES[t] for t in mine),
                    total=total,
                    played=played,
                    finals=" ".join(TILE_NAMES[t] for t in finals),
                )
            )
            changed = True


# What the engine stores in its events and outcomes (English), said in the reader's language by `said`.
STUCK = Phrase(N_("{seat}'s token on {tile} cannot move: removed, +{worth}."))
ISLAND = Phrase.ngettext(
    "Island {tiles} is {seat}'s alone: token on {tokens} removed, +{total} (best play: {played}; ending on {finals}).",
    "Island {tiles} is {seat}'s alone: tokens on {tokens} removed, +{total} (best play: {played}; ending on {finals}).",
    "count",
    words=("played",),
)
NO_MOVE = Phrase(N_("no move"))
PLACES = Phrase(N_("{seat} places a token on {tile}."))
MOVES = Phrase(N_("{seat} moves {move} and takes {tile}: +{worth}."))
NO_TOKENS = Phrase(N_("No tokens are left: the game is over, {first} to {second}."))
EQUAL = Phrase(N_("equal fish, {fish} each"))
MORE = Phrase(N_("more fish, {more} to {fewer}"))

RULES_CARD = (
    N_('"1, 2, 3" (Hey, That\'s My Fish!) — 2 players, 4 tokens each, most fish wins.'),
    N_(
        "• Board: 60 hex tiles in 8 rows, A (top) to H; A/C/E/G have 8 tiles, B/D/F/H have 7 (shifted right). H7 "
        "is bottom right. 30 tiles worth 1, 20 worth 2, 10 worth 3; each pair of rows (A-B, C-D, E-F, G-H) holds 7 "
        "or 8 ones, 5 twos and 2 or 3 threes."
    ),
    N_("• Setup: take turns placing one token on an empty 1-tile (fish move D4). The first placer moves first."),
    N_(
        "• Move: one token in a straight line in one of six directions, as far as you like (fish move D4-F3); no "
        "jumping over tokens or gaps. The tile you leave is removed and its fish are yours."
    ),
    N_(
        "• A token that cannot move is removed and scores its tile. An island of up to 16 tiles that only your "
        "tokens can reach is played out for you at its best and scored at once. The game ends when no token is "
        "left; equal fish is a draw."
    ),
    N_(
        "• Death match: best of 3 (first to 2 wins; level after 3 games: drawn), 30 s a move + 60 s reserve per "
        "game; running out of reserve loses the game (the flag falls 1 s after the deadline). Who places first "
        "alternates."
    ),
)
"""The rules card (/rules): one catalog string a paragraph, said in the reader's language by `rules_card`."""


def _next_with_tokens(tokens: list[list[int]], order: tuple[int, int]) -> int | None:
    """The first seat in `order` that still has a token on the board (None: the game is over)."""
    return next((seat for seat in order if tokens[seat]), None)


class Fish(GameRules, Game[FishState, FishMove]):
    """The engine object registered as GAMES["fish"]."""

    key = "fish"
    title = '"1, 2, 3"'
    min_players = 2
    max_players = 2
    options = Options(
        Option("first", "seat", N_("the seat that places first"), default=0),
        Option("board", "text", N_("60 digits 1 to 3, rows A to H, each left to right (default: dealt from the seed)")),
    )

    @property
    def rules_card(self) -> str:
        """The rules summary for players (/rules), in the reader's language."""
        return card(RULES_CARD)

    def new(self, seats: int, seed: int, **options: Any) -> FishState:
        given = check_new(self, seats, seed, options)
        first = given["first"]
        values = parse_board(given["board"]) if given["board"] is not None else generate_board(seed)
        return FishState(
            values=values, tokens=((), ()), placed=(0, 0), scores=(0, 0), first=first, turn=first, seed=seed
        )

    def to_move(self, state: FishState) -> int | None:
        return state.turn

    def legal_moves(self, state: FishState) -> list[str]:
        if state.turn is None:
            return []
        occupied = set(state.tokens[0]) | set(state.tokens[1])
        if state.placing:
            return [TILE_NAMES[t] for t in range(TILES) if state.values[t] == 1 and t not in occupied]
        moves = []
        for src in sorted(state.tokens[state.turn]):
            for dst in _moves_from(state.values, occupied, src):
                moves.append(f"{TILE_NAMES[src]}-{TILE_NAMES[dst]}")
        return moves

    def move_group(self, move: str) -> str:
        """By token: `D4-F3` is listed under the tile it leaves, `D4`; placements (`D4`) under `place`."""
        return move.split("-")[0].strip() if "-" in move else "place"

    def parse(self, state: FishState, text: str) -> FishMove:
        """The legal move `text` stands for in this position, or IllegalMove saying why not."""
        move = FishMove.parse(text)
        if state.turn is None:
            raise IllegalMove(_("The game is over: no more moves."))
        occupied = set(state.tokens[0]) | set(state.tokens[1])
        if state.placing:
            if move.src is not None:
                example = next(t for t in range(TILES) if state.values[t] == 1 and t not in occupied)
                raise IllegalMove(
                    _("{move}: tokens are still being placed; place one on a 1-tile, like {example}.").format(
                        move=move, example=TILE_NAMES[example]
                    )
                )
            name = TILE_NAMES[move.dst]
            if move.dst in occupied:
                raise IllegalMove(_("{tile} already holds a token.").format(tile=name))
            if state.values[move.dst] != 1:
                raise IllegalMove(
                    _("{tile} is worth {worth}: tokens are placed on 1-tiles.").format(
                        tile=name, worth=state.values[move.dst]
                    )
                )
            return move
        if move.src is None:
            mine = TILE_NAMES[min(state.tokens[state.turn])]
            raise IllegalMove(
                _(
                    "{move}: all tokens are placed, so move one in a straight line, like {tile}-… "
                    "(see the legal moves)."
                ).format(move=move, tile=mine)
            )
        src, dst = TILE_NAMES[move.src], TILE_NAMES[move.dst]
        if move.src not in occupied:
            raise IllegalMove(_("{move}: there is no token on {tile}.").format(move=move, tile=src))
        if move.src not in state.tokens[state.turn]:
            raise IllegalMove(_("{move}: the token on {tile} is not yours.").format(move=move, tile=src))
        if move.src == move.dst:
            raise IllegalMove(_("{move}: a token must move at least one tile.").format(move=move))
        ray = next((r for r in RAYS[move.src] if move.dst in r), None)
        if ray is None:
            raise IllegalMove(
                _("{move}: {to} is not in a straight line from {start}.").format(move=move, to=dst, start=src)
            )
        for tile in ray:
            here = TILE_NAMES[tile]
            if not state.values[tile]:
                if tile == move.dst:
                    raise IllegalMove(_("{move}: {tile} is a gap (its tile was taken).").format(move=move, tile=here))
                raise IllegalMove(
                    _("{move}: {tile} on the way is a gap (its tile was taken).").format(move=move, tile=here)
                )
            if tile in occupied:
                if tile == move.dst:
                    raise IllegalMove(_("{move}: {tile} already holds a token.").format(move=move, tile=here))
                raise IllegalMove(_("{move}: the token on {tile} blocks the way.").format(move=move, tile=here))
            if tile == move.dst:
                break
        return move

    def notation(self, move: FishMove) -> str:
        return str(move)

    def play(self, state: FishState, move: FishMove | str) -> FishState:
        """The next state; a FishMove is trusted to be legal here (from `parse`), text is parsed first."""
        parsed = move if isinstance(move, FishMove) else self.parse(state, move)
        seat = state.turn
        assert seat is not None  # parse refuses moves once the game is over
        values = list(state.values)
        tokens = [list(state.tokens[0]), list(state.tokens[1])]
        scores = list(state.scores)
        placed = list(state.placed)
        events: list[str] = []
        cleared: list[int] = []
        if parsed.src is None:
            tokens[seat].append(parsed.dst)
            placed[seat] += 1
            events.append(PLACES(seat=f"{{{seat}}}", tile=parsed))
            if sum(placed) < 2 * TOKENS_PER_PLAYER:
                nxt: int | None = 1 - seat
            else:
                _settle(values, tokens, scores, events, cleared)
                nxt = state.first if tokens[state.first] else (1 - state.first if tokens[1 - state.first] else None)
        else:
            worth = values[parsed.src]
            tokens[seat][tokens[seat].index(parsed.src)] = parsed.dst
            values[parsed.src] = 0
            scores[seat] += worth
            events.append(MOVES(seat=f"{{{seat}}}", move=parsed, tile=TILE_NAMES[parsed.src], worth=worth))
            _settle(values, tokens, scores, events, cleared)
            nxt = _next_with_tokens(tokens, (1 - seat, seat))
        if nxt is None:
            events.append(NO_TOKENS(first=scores[0], second=scores[1]))
        return replace(
            state,
            values=tuple(values),
            tokens=(tuple(sorted(tokens[0])), tuple(sorted(tokens[1]))),
            placed=(placed[0], placed[1]),
            scores=(scores[0], scores[1]),
            turn=nxt,
            ply=state.ply + 1,
            last_move=str(parsed),
            last_seat=seat,
            events=tuple(events),
            cleared=tuple(cleared),
        )

    def outcome(self, state: FishState) -> Outcome | None:
        if state.turn is not None:
            return None
        a, b = state.scores
        if a == b:
            return Outcome((a, b), frozenset(), EQUAL(fish=a))
        winner = 0 if a > b else 1
        return Outcome((a, b), frozenset({winner}), MORE(more=max(a, b), fewer=min(a, b)))

    def scores(self, state: FishState) -> tuple[float, ...]:
        return state.scores

    def events(self, state: FishState) -> tuple[str, ...]:
        return said(state.events)

    def view(self, state: FishState, seat: int | None) -> FishState:
        """Nothing is hidden in this game but the seed, which no player needs."""
        return replace(state, seed=None)

    def dumps(self, state: FishState) -> str:
        return json.dumps(
            {
                "game": self.key,
                "values": "".join(map(str, state.values)),
                "tokens": [list(state.tokens[0]), list(state.tokens[1])],
                "placed": list(state.placed),
                "scores": list(state.scores),
                "first": state.first,
                "turn": state.turn,
                "ply": state.ply,
                "seed": state.seed,
                "last_move": state.last_move,
                "last_seat": state.last_seat,
                "events": list(state.events),
                "cleared": list(state.cleared),
            },
            separators=(",", ":"),
        )

    def loads(self, text: str) -> FishState:
        """A state from `dumps`; BadState when the text is not a sound one (tampered, another game's)."""
        data = read(self, text, _STORED)
        if not isinstance(data["values"], str) or not re.fullmatch(r"[0-3]{60}", data["values"]):
            raise refuse(self, f"values is not {TILES} digits 0 to 3")
        with converting(self):
            stored: dict[str, Any] = {
                **data,
                "values": tuple(int(c) for c in data["values"]),
                "tokens": tuple(listed(tiles) for tiles in listed(data["tokens"])),
                **{name: listed(data[name]) for name in ("placed", "scores", "events", "cleared")},
            }
            state = FishState(**stored)
        return sound(self, state, _broken)

    def state_from_position(
        self,
        values: str | tuple[int, ...],
        tokens: tuple[tuple[str, ...], tuple[str, ...]],
        turn: int | None = 0,
        scores: tuple[int, int] = (0, 0),
        first: int = 0,
    ) -> FishState:
        """A hand-built position in the move phase (for tests, puzzles and moderator set-ups).

        `values` is 60 digits 0-3 (0 for a gap); `tokens` names each seat's token tiles.
        """
        if isinstance(values, str):
            values = tuple(int(c) for c in re.sub(r"[\s/]", "", values))
        return FishState(
            values=tuple(values),
            tokens=(
                tuple(sorted(parse_tile(t) for t in tokens[0])),
                tuple(sorted(parse_tile(t) for t in tokens[1])),
            ),
            placed=(TOKENS_PER_PLAYER, TOKENS_PER_PLAYER),
            scores=scores,
            first=first,
            turn=turn,
        )


_STORED = frozenset(
    ("values", "tokens", "placed", "scores", "first", "turn", "ply", "seed")
    + ("last_move", "last_seat", "events", "cleared")
)
"""The fields of a stored state (`dumps`)."""


def _broken(state: FishState) -> str | None:
    """What in a stored state no game can reach (a tampered one), or None."""
    tiles = [t for seat in state.tokens for t in seat]
    on_board = all(0 <= t < TILES and state.values[t] for t in tiles)
    seats = (0, 1)
    checks = (
        (on_board and len(set(tiles)) == len(tiles), "tokens must stand on distinct tiles that are not gaps"),
        (all(0 <= n <= TOKENS_PER_PLAYER for n in state.placed), f"placed counts run from 0 to {TOKENS_PER_PLAYER}"),
        (all(len(state.tokens[s]) <= state.placed[s] for s in seats), "a seat has more tokens than it placed"),
        (all(n >= 0 for n in state.scores) and state.ply >= 0, "scores and ply cannot be negative"),
        (state.first in seats and state.turn in (None, 0, 1), "first and turn must be seat 0 or 1 (turn: or None)"),
        (state.last_seat in (None, 0, 1), "last_seat must be None, 0 or 1"),
        (all(0 <= t < TILES for t in state.cleared), "cleared names a tile that is not on the board"),
        (state.last_move is None or _written(state.last_move), "last_move is not a move like D4-F3"),
    )
    found = next((why for ok, why in checks if not ok), None)
    if found is None and state.turn is not None:
        can_act = state.placed[state.turn] < TOKENS_PER_PLAYER if state.placing else bool(state.tokens[state.turn])
        found = None if can_act else f"seat {state.turn} is to move with nothing to place or move"
    return found


def _written(text: str) -> bool:
    """Whether `text` is a move in canonical notation (what `last_move` holds, and the renderer reads)."""
    try:
        return str(FishMove.parse(text)) == text
    except IllegalMove:
        return False


FISH = Fish()

REGISTRATION = Registration(
    FISH,
    renderer="renderers.fish",
    words="renderers.alt_text:fish",
    cog="bot.cogs.fish",
    start="challenge",
    typed=Typed(
        "ALICE BOB",
        "fish new alice bob",
        N_("a casual match"),
        N_("one move, like: fish move D4-F3 (or fish move D4 to place)"),
    ),
    model="bot.ai.fish:MODEL",
    analysis_iterations=300,
    death_matches=True,
    moments=("cannot move: removed", "Island "),
)
