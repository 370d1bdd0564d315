"""The computer's model of Geyser (bot/games/geyser.py) for the search, and the arena's greedy player.

The search sees a position as a small mutable record (`Pos`): one list of 121 ints for the board
(`count * 4 + seat`, 0 for an empty square), the supplies, and the turn bookkeeping of the engine. Moves
are ints (a step is `src * 128 + dst`), so the tree never parses text; `notation` gives the engine's text.

Dice: `apply` (the tree) rolls exactly the engine's dice for the determinized seed (`_die(seed, n)`), so
it agrees with `game.play`; each search iteration samples a fresh seed, so battles and firings are
averaged over many rolls.

Random games run for a hundred rounds (the round cap), so the search does not play on at all: each new
leaf is judged by `evaluate`, an estimate per seat of the turns still needed to win (claim geysers until 3
are held, then walk a free token onto the Mother), turned into shares of 1; as the last round nears and
nobody can reach the Mother in time, the geysers held (which win at the cap) take over. Short playouts (random, or a
goal-directed policy) were measured and lost more often against the greedy player. The tree looks only at
the few best moves by a one-ply judgement (`pruned`): with ~200 iterations, averaging over every reply
made quiet moves look as good as claims.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from bot.ai.model import PublicModel
from bot.games.geyser import (
    AROUND,
    GEYSER,
    GEYSERS,
    LAND,
    MOTHER,
    RING_OF,
    SQUARE_NAMES,
    SQUARES,
    STEPS,
    GeyserState,
    _die,
    start_squares,
)

# --- the island as flat tables ------------------------------------------------------------------------

START_BASE = 1 << 14
"""`start s` is START_BASE + s, `place s` is PLACE_BASE + s, a step is src * 128 + dst."""
PLACE_BASE = 1 << 15
SKIP, AGAIN, RETREAT, PASS = -1, -2, -3, -4
WORDS = {SKIP: "skip", AGAIN: "again", RETREAT: "retreat", PASS: "pass"}

PLAY, START, OVER = 0, 1, 2
PHASES = {"play": PLAY, "start": START, "over": OVER}

GEYSER_LIST = tuple(sorted(GEYSERS))
IS_GEYSER = tuple(s in GEYSERS for s in range(SQUARES))
STEP_LIST = tuple(STEPS.get(s, ()) for s in range(SQUARES))
LAND_LIST = tuple(sorted(LAND))
PLACEABLE = tuple(s in LAND and s not in GEYSERS and s != MOTHER for s in range(SQUARES))
AROUND_PLACE = tuple(tuple(n for n in AROUND[g] if PLACEABLE[n]) if g in GEYSERS else () for g in range(SQUARES))
FIRE_CHANCE = {6: 10 / 36, 5: 8 / 36, 4: 6 / 36, 3: 4 / 36, 2: 2 / 36}
RISK = tuple(FIRE_CHANCE[RING_OF[g]] for g in GEYSER_LIST)
"""Chance per round that each geyser (in GEYSER_LIST order) fires and destroys what stands on it."""
FIRES = {2: 2, 12: 2, 3: 3, 11: 3, 4: 4, 10: 4, 5: 5, 9: 5, 6: 6, 8: 6}
RING_SQUARES = {ring: tuple(g for g in GEYSER_LIST if RING_OF[g] == ring) for ring in (2, 3, 4, 5, 6)}


def _distances(source: int) -> list[int]:
    """Steps from `source` to every square, never through the Mother (which most tokens may not enter)."""
    far = 99
    dist = [far] * SQUARES
    dist[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for a in frontier:
            for b in STEP_LIST[a]:
                if dist[b] == far and b != MOTHER:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


_ALL = {s: _distances(s) for s in LAND}
DG = tuple(tuple(_ALL[s][g] for g in GEYSER_LIST) if s in LAND else (99,) * 20 for s in range(SQUARES))
"""DG[s][i]: steps from square s to the i-th geyser."""
DM = tuple(
    (0 if s == MOTHER else 1 + min(_ALL[s][n] for n in STEP_LIST[MOTHER])) if s in LAND else 99 for s in range(SQUARES)
)
"""DM[s]: steps from square s onto the Mother."""
DGP = tuple(
    tuple(min(col) for col in zip(*[DG[s] for s in AROUND_PLACE[g]], strict=True)) if AROUND_PLACE[g] else DG[g]
    for g in GEYSER_LIST
)
"""DGP[i]: steps to every geyser from the best square for the new token a claim of geyser i brings."""
DMP = tuple(min((DM[s] for s in AROUND_PLACE[g]), default=DM[g]) for g in GEYSER_LIST)
"""DMP[i]: steps onto the Mother from the best square for the new token a claim of geyser i brings."""


class Pos:
    """A mutable position for the search; `copy` before changing one the tree holds."""

    __slots__ = (
        "board",
        "dice",
        "first",
        "mother",
        "order",
        "out",
        "pending",
        "phase",
        "roller",
        "round",
        "rounds",
        "seats",
        "seed",
        "starts",
        "supply",
        "turn",
        "winners",
    )

    def __init__(self) -> None:
        self.seats = 2
        self.board: list[int] = []
        self.supply: list[int] = []
        self.out = 0
        self.phase = PLAY
        self.turn: int | None = 0
        self.pending: tuple[int, ...] | None = None
        self.first = 0
        self.order: tuple[int, ...] = ()
        self.round = 0
        self.roller = 0
        self.rounds = 100
        self.starts: tuple[int, ...] = start_squares(2)
        self.winners: tuple[int, ...] = ()
        self.mother = True
        self.seed = 0
        self.dice = 0

    def copy(self) -> Pos:
        p = Pos.__new__(Pos)
        p.seats, p.board, p.supply, p.out = self.seats, self.board[:], self.supply[:], self.out
        p.phase, p.turn, p.pending, p.first, p.order = self.phase, self.turn, self.pending, self.first, self.order
        p.round, p.roller, p.winners, p.mother = self.round, self.roller, self.winners, self.mother
        p.seed, p.dice, p.rounds, p.starts = self.seed, self.dice, self.rounds, self.starts
        return p

    def key(self) -> tuple[Any, ...]:
        """Everything that decides the game from here (for comparing with the engine)."""
        return (
            self.seats,
            tuple(self.board),
            tuple(self.supply),
            self.out,
            self.phase,
            self.turn,
            self.pending,
            self.first,
            self.order,
            self.round,
            self.roller,
            self.winners,
            self.dice,
            self.rounds,
            self.starts,
        )


def from_state(state: GeyserState, seed: int | None = None) -> Pos:
    """The engine's state as a `Pos` (with `seed` in place of the state's, if given)."""
    p = Pos()
    p.seats = state.seats
    p.board = [0 if h is None else h[1] * 4 + h[0] for h in state.board]
    p.supply = list(state.supply)
    p.out = sum(1 << s for s in state.out)
    p.phase = PHASES[state.phase]
    p.turn = state.turn
    pend = state.pending
    if pend is None:
        p.pending = None
    elif pend[0] == "place":
        p.pending = (0, pend[1])
    else:
        p.pending = (1, pend[1], pend[2])
    p.first, p.order, p.round, p.roller = state.first, tuple(state.order), state.round, state.roller
    p.winners, p.mother = state.winners, state.seven == "mother"
    p.rounds, p.starts = state.rounds, state.start_squares
    p.seed = state.seed if seed is None else seed  # type: ignore[assignment]
    p.dice = state.dice
    return p


def controls(board: list[int], seat: int) -> int:
    """Normal geysers holding a token of `seat`."""
    n = 0
    for g in GEYSER_LIST:
        v = board[g]
        if v and v & 3 == seat:
            n += 1
    return n


def _add(board: list[int], square: int, seat: int) -> None:
    v = board[square]
    board[square] = v + 4 if v else 4 + seat


def _remove(board: list[int], square: int) -> None:
    v = board[square]
    board[square] = v - 4 if v >= 8 else 0


# --- moves ----------------------------------------------------------------------------------------------


def legal(p: Pos) -> list[int]:
    """Every legal move, as the engine's `legal_moves` lists them (as ints)."""
    seat = p.turn
    if seat is None:
        return []
    board = p.board
    if p.phase == START:
        return [START_BASE + s for s in p.starts if not board[s]]
    pend = p.pending
    if pend is not None:
        if pend[0] == 1:
            return [AGAIN, RETREAT]
        return [PLACE_BASE + s for s in AROUND_PLACE[pend[1]] if not board[s] or board[s] & 3 == seat] + [SKIP]
    found = []
    mine = False
    mother_open = None
    for a in LAND_LIST:
        v = board[a]
        if not v or v & 3 != seat:
            continue
        mine = True
        if v < 8 and IS_GEYSER[a]:
            continue
        base = a * 128
        for b in STEP_LIST[a]:
            if b == MOTHER:
                if mother_open is None:
                    mother_open = controls(board, seat) >= 3
                if not mother_open:
                    continue
            found.append(base + b)
    if not mine:
        entries = [START_BASE + s for s in p.starts if not board[s]] if p.supply[seat] > 0 else []
        return entries or [PASS]
    return found or [PASS]


def notation(move: int) -> str:
    if move < 0:
        return WORDS[move]
    if move >= PLACE_BASE:
        return f"place {SQUARE_NAMES[move - PLACE_BASE]}"
    if move >= START_BASE:
        return f"start {SQUARE_NAMES[move - START_BASE]}"
    return f"{SQUARE_NAMES[move >> 7]}-{SQUARE_NAMES[move & 127]}"


def _check_out(p: Pos, seat: int) -> None:
    if p.supply[seat] == 0 and not any(v and v & 3 == seat for v in p.board):
        p.out |= 1 << seat


def _seat_order(start: int, seats: int, out: int) -> tuple[int, ...]:
    return tuple((start + k) % seats for k in range(seats) if not out >> ((start + k) % seats) & 1)


def _live(p: Pos) -> list[int]:
    return [s for s in range(p.seats) if not p.out >> s & 1]


def play(p: Pos, move: int, roll: Callable[[], int]) -> None:
    """Apply a legal move to `p` in place, rolling dice with `roll` (the engine's `play`, in ints)."""
    seat = p.turn
    assert seat is not None
    board = p.board
    if p.phase == START:
        square = move - START_BASE
        p.supply[seat] -= 1
        _add(board, square, seat)
        if p.seats == 2:
            other = 1 - seat
            p.supply[other] -= 1
            _add(board, SQUARES - 1 - square, other)
        placed = {v & 3 for v in board if v}
        if len(placed) < p.seats:
            p.turn = seat + 1
            p.pending = None
            return
        rolling = list(range(p.seats))
        while True:
            rolls = [(s, roll()) for s in rolling]
            top = max(r for _, r in rolls)
            rolling = [s for s, r in rolls if r == top]
            if len(rolling) == 1:
                break
        first = rolling[0]
        p.turn, p.phase, p.first, p.round, p.roller, p.pending = first, PLAY, first, 1, first, None
        p.order = _seat_order(first, p.seats, 0)
        return
    done = True
    pending: tuple[int, ...] | None = None
    if move >= PLACE_BASE:
        p.supply[seat] -= 1
        _add(board, move - PLACE_BASE, seat)
    elif move >= START_BASE:
        p.supply[seat] -= 1
        _add(board, move - START_BASE, seat)
    elif move == AGAIN or move >= 0:
        if move == AGAIN:
            src, dst = p.pending[1], p.pending[2]  # type: ignore[index]
        else:
            src, dst = move >> 7, move & 127
        pending = _advance(p, seat, src, dst, roll)
        done = pending is None
    _finish(p, seat, pending, done, roll)


def _advance(p: Pos, seat: int, src: int, dst: int, roll: Callable[[], int]) -> tuple[int, ...] | None:
    board = p.board
    while (v := board[dst]) and v & 3 != seat:
        enemy = v & 3
        total_a = roll() + controls(board, seat)
        total_d = roll() + controls(board, enemy)
        if total_a == total_d:
            return (1, src, dst)
        if total_a < total_d:
            _remove(board, src)
            p.supply[seat] += 1  # a loser's supply just grew, so it is never out here
            return None
        _remove(board, dst)
        p.supply[enemy] += 1
    claimed = IS_GEYSER[dst] and not (board[dst] and board[dst] & 3 == seat)
    _remove(board, src)
    _add(board, dst, seat)
    if claimed and p.supply[seat] > 0:
        for s in AROUND_PLACE[dst]:
            w = board[s]
            if not w or w & 3 == seat:
                return (0, dst)
    return None


def _finish(p: Pos, seat: int, pending: tuple[int, ...] | None, done: bool, roll: Callable[[], int]) -> None:
    if p.out and len(_live(p)) == 1:
        p.winners, p.phase, p.turn, p.pending = (_live(p)[0],), OVER, None, None
        return
    if not done:
        p.pending = pending
        return
    p.pending = None
    out = p.out
    order = tuple(s for s in p.order if s != seat and not out >> s & 1)
    if not order:
        winner = _fire(p, roll)
        if winner is not None:
            p.winners, p.phase, p.turn = (winner,), OVER, None
            return
        if p.out and len(_live(p)) == 1:
            p.winners, p.phase, p.turn = (_live(p)[0],), OVER, None
            return
        if p.round >= p.rounds:  # the round cap: the most normal geysers among the players still in win
            live = _live(p)
            held = [controls(p.board, s) for s in live]
            top = max(held)
            p.winners, p.phase, p.turn = tuple(s for s, h in zip(live, held, strict=True) if h == top), OVER, None
            return
        order = _seat_order(p.first, p.seats, p.out)
        p.round += 1
        p.roller = _seat_order(p.roller + 1, p.seats, p.out)[0]
    p.order = order
    p.turn = order[0]


def _fire(p: Pos, roll: Callable[[], int]) -> int | None:
    total = roll() + roll()
    board = p.board
    if total == 7:
        squares: tuple[int, ...] = (MOTHER,) if p.mother else ()
    else:
        squares = RING_SQUARES[FIRES[total]]
    for square in squares:
        v = board[square]
        if v:
            board[square] = 0
            p.supply[v & 3] += v >> 2
    for s in range(p.seats):
        if not p.supply[s] and not p.out >> s & 1:
            _check_out(p, s)
    v = board[MOTHER]
    return v & 3 if v else None


def exact_roll(p: Pos) -> Callable[[], int]:
    """The engine's dice for `p`'s seed, advancing its counter."""

    def roll() -> int:
        value = _die(p.seed, p.dice)
        p.dice += 1
        return value

    return roll


# --- judging a position ---------------------------------------------------------------------------------

BATTLE_COST = 2.0
"""Extra turns to take a geyser another player holds (a battle, maybe lost)."""
HOLD_RISK = 2.0
"""Turns lost per unit of per-round firing chance on the geysers a seat holds."""
TEMPERATURE = 1.6
"""How sharply a lead in turns turns into a share of the win."""
SPARE = 0.4
"""Turns saved by each geyser beyond the three the Mother asks for (battle bonus, a spare if one fires)."""
STUCK = 8.0
"""Turns lost when no token can move (each stands alone on a geyser it holds): passes until they all fire."""
TEMPO = 0.5
"""Turns the seat to move is ahead of its count (it moves first)."""


def turns_to_win(p: Pos) -> list[float]:
    """Per seat, a rough count of the turns it still needs to stand on the Mother with 3 geysers held."""
    seats = p.seats
    board = p.board
    free: list[list[int]] = [[] for _ in range(seats)]
    held: list[list[int]] = [[] for _ in range(seats)]
    owner = [-1] * 20
    on_mother = [False] * seats
    for i, g in enumerate(GEYSER_LIST):
        v = board[g]
        if v:
            s = v & 3
            owner[i] = s
            held[s].append(i)
            if v >= 8:
                free[s].append(g)
    for a in LAND_LIST:
        v = board[a]
        if v and not IS_GEYSER[a]:
            free[v & 3].append(a)
            if a == MOTHER:
                on_mother[v & 3] = True
    pend = p.pending
    if pend is not None and pend[0] == 0 and p.turn is not None:  # the claim's new token, about to be placed
        free[p.turn].extend(x for x in AROUND_PLACE[pend[1]] if not board[x] or board[x] & 3 == p.turn)
    result = []
    for s in range(seats):
        if on_mother[s]:
            result.append(0.0)
            continue
        frontier = free[s]
        cost = 0.0
        if not frontier:
            if held[s]:  # every token stands alone on a geyser: stuck until they are all fired away
                frontier = [GEYSER_LIST[i] for i in held[s]]
                cost += STUCK
            else:
                frontier = [x for x in p.starts if not board[x]] or list(p.starts)
                cost += 1.0
        mine = held[s]
        cost += HOLD_RISK * sum(RISK[i] for i in mine)
        near_mother = min(DM[f] for f in frontier)
        need = 3 - len(mine)
        if need > 0:
            best = (
                [min(col) for col in zip(*[DG[f] for f in frontier], strict=True)]
                if len(frontier) > 1
                else list(DG[frontier[0]])
            )
            taken = set(mine)
            bring = p.supply[s] > 0
            for _ in range(need):
                pick, pick_cost = -1, 1e9
                for i in range(20):
                    if i in taken:
                        continue
                    c = best[i] + RISK[i] * HOLD_RISK
                    if owner[i] >= 0:
                        c += BATTLE_COST
                    if c < pick_cost:
                        pick, pick_cost = i, c
                taken.add(pick)
                cost += pick_cost
                row = DGP[pick] if bring else DG[GEYSER_LIST[pick]]
                best = [x if x < y else y for x, y in zip(best, row, strict=True)]
                d = DMP[pick] if bring else DM[GEYSER_LIST[pick]]
                if d < near_mother:
                    near_mother = d
            cost += near_mother
        else:
            cost += near_mother - SPARE * (len(mine) - 3)
        result.append(cost)
    if p.turn is not None:
        result[p.turn] -= TEMPO
    return result


CAP_TEMPERATURE = 0.8
"""How sharply a lead in geysers held turns into a share of a win at the round cap."""
CAP_SPAN = 3.0
"""Rounds over which the judge turns from the race to the Mother to the geysers held at the cap."""


def _softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def evaluate(p: Pos) -> tuple[float, ...]:
    """Each seat's share of the win: split among the winners once the game is over, else a softmax of
    the turns it needs, blended into a softmax of the geysers held as the round cap comes nearer than
    the quickest win (a seat's turns are about the rounds it needs)."""
    if p.phase == OVER:
        share = 1.0 / len(p.winners) if p.winners else 0.0
        return tuple(share if s in p.winners else 0.0 for s in range(p.seats))
    turns = turns_to_win(p)
    race = _softmax([-t for t in turns], TEMPERATURE)
    left = p.rounds - p.round + 1  # rounds still to play, this one included
    cap = min(1.0, max(0.0, (min(turns) - left) / CAP_SPAN + 0.5))
    if cap == 0.0:
        return tuple(race)
    held = [-1e3 if p.out >> s & 1 else float(controls(p.board, s)) for s in range(p.seats)]
    most = _softmax(held, CAP_TEMPERATURE)
    return tuple((1 - cap) * r + cap * m for r, m in zip(race, most, strict=True))


# --- choosing which moves the tree looks at --------------------------------------------------------------


def _battle_odds(edge: int) -> float:
    """Chance the attacker wins a battle (rolling again on every tie) with `edge` more geysers."""
    win = sum(1 for a in range(1, 7) for d in range(1, 7) if a + edge > d)
    lose = sum(1 for a in range(1, 7) for d in range(1, 7) if a + edge < d)
    return win / (win + lose) if win + lose else 0.5


BATTLE_ODDS = {edge: _battle_odds(edge) for edge in range(-21, 22)}


def _after(p: Pos, board: list[int], pending: tuple[int, ...] | None) -> float:
    """The mover's share in `p` with `board` and `pending` swapped in (no dice, no firing)."""
    q = Pos.__new__(Pos)
    q.seats, q.board, q.supply, q.phase, q.turn, q.pending = p.seats, board, p.supply, PLAY, p.turn, pending
    q.starts, q.round, q.rounds, q.out = p.starts, p.round, p.rounds, p.out
    return evaluate(q)[p.turn]  # type: ignore[index]


def move_value(p: Pos, move: int) -> float:
    """A quick judgement of `move` for the seat to move, before any dice: the share it would have just
    after the move (a battle weighs its two outcomes by their odds)."""
    seat = p.turn
    assert seat is not None
    board = p.board
    if move < 0 or move >= START_BASE:
        if move >= PLACE_BASE:
            after = board[:]
            _add(after, move - PLACE_BASE, seat)
            return _after(p, after, None)
        if move >= START_BASE:
            after = board[:]
            _add(after, move - START_BASE, seat)
            return _after(p, after, None)
        return _after(p, board, None)
    src, dst = move >> 7, move & 127
    if dst == MOTHER:
        return 2.0
    v = board[dst]
    if v and v & 3 != seat:
        win = BATTLE_ODDS[controls(board, seat) - controls(board, v & 3)]
        lost = board[:]
        _remove(lost, src)
        won = board[:]
        _remove(won, dst)
        if not won[dst]:
            _remove(won, src)
            _add(won, dst, seat)
        entered = won[dst] & 3 == seat and won[dst] >> 2 == 1  # the last defender beaten, the attacker in
        pend = (0, dst) if entered and IS_GEYSER[dst] and p.supply[seat] > 0 else None
        return win * _after(p, won, pend) + (1 - win) * _after(p, lost, None)
    after = board[:]
    _remove(after, src)
    _add(after, dst, seat)
    claim = IS_GEYSER[dst] and not v and p.supply[seat] > 0
    return _after(p, after, (0, dst) if claim else None)


def pruned(p: Pos, keep_steps: int, keep_places: int) -> list[int]:
    """The legal moves worth a look: the best few by `move_value`, never `skip` when a place is free."""
    moves = legal(p)
    if len(moves) <= 2 or p.phase != PLAY:
        return moves
    keep = keep_places if p.pending is not None else keep_steps
    if p.pending is not None:
        moves = moves[:-1]  # skip: a new token never hurts
    if len(moves) <= keep:
        return moves
    ranked = sorted(moves, key=lambda m: -move_value(p, m))
    return ranked[:keep]


class GeyserModel(PublicModel):
    """Geyser for the search: int moves, the engine's dice for the sampled seed, a turns-to-win judge."""

    depth = 0
    keep_steps = 6
    """Steps (or entries) the tree considers per position, best first by `move_value`."""
    keep_places = 3
    """Squares for a claim's new token the tree considers."""
    iterations: ClassVar[dict[str, int]] = {"easy": 40, "normal": 200, "hard": 20_000}
    """Search budgets: the judge does most of the work, so normal needs few iterations."""

    def __init__(self) -> None:
        super().__init__(GEYSER)
        self._cache: tuple[Any, Pos] | None = None
        self._moves: dict[tuple[Any, ...], list[int]] = {}

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Pos:
        """The view with a fresh seed (the seed is all that is hidden); the view's own seed is ignored."""
        cached = self._cache
        if cached is None or cached[0] is not view:
            cached = self._cache = (view, from_state(view, seed=0))
        p = cached[1].copy()
        p.seed = rng.getrandbits(48)
        return p

    def to_move(self, position: Pos) -> int | None:
        return position.turn

    def moves(self, position: Pos) -> list[int]:
        left = position.rounds - position.round  # the judge ranking the moves looks at the round cap
        key = (tuple(position.board), position.turn, position.pending, tuple(position.supply), position.starts, left)
        found = self._moves.get(key)
        if found is None:
            if len(self._moves) > 20_000:
                self._moves.clear()
            found = self._moves[key] = pruned(position, self.keep_steps, self.keep_places)
        return found

    def apply(self, position: Pos, move: int) -> Pos:
        p = position.copy()
        play(p, move, exact_roll(p))
        return p

    def playout(self, position: Pos, rng: random.Random) -> Sequence[float]:
        """No playing on: the judge alone (short random or goal-directed playouts measured weaker)."""
        return evaluate(position)

    def evaluate(self, position: Pos) -> Sequence[float]:
        return evaluate(position)

    def notation(self, position: Pos, move: int) -> str:
        return notation(move)


MODEL = GeyserModel()


# --- the arena's greedy player ------------------------------------------------------------------------


def greedy(view: GeyserState, seat: int, rng: random.Random) -> str:
    """One ply of obvious gains: step onto the Mother, claim a free geyser, attack when the geyser bonus
    favours us (geysers first); place new tokens towards the Mother; roll again on a tie when not behind;
    otherwise a random move."""
    p = from_state(view, seed=0)
    moves = legal(p)
    board = p.board
    if p.phase != PLAY or (moves[0] < 0 and len(moves) == 1):
        return notation(rng.choice(moves))
    if p.pending is not None:
        if p.pending[0] == 1:
            enemy = board[p.pending[2]] & 3
            return "again" if controls(board, seat) >= controls(board, enemy) else "retreat"
        places = [m for m in moves if m != SKIP]
        best = min(DM[m - PLACE_BASE] for m in places)
        return notation(rng.choice([m for m in places if DM[m - PLACE_BASE] == best]))
    if moves[0] >= START_BASE:
        return notation(rng.choice(moves))
    mine = controls(board, seat)
    scored = []
    for m in moves:
        b = m & 127
        v = board[b]
        if b == MOTHER:
            gain = 100.0
        elif v and v & 3 != seat:
            edge = mine - controls(board, v & 3)
            gain = (10.0 if IS_GEYSER[b] else 5.0) + edge if edge > 0 else 0.0
        elif IS_GEYSER[b] and not v:
            gain = 20.0
        else:
            gain = 0.0
        scored.append((gain, m))
    top = max(g for g, _ in scored)
    return notation(rng.choice([m for g, m in scored if g == top]))
