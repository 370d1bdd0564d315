"""The computer player for Event Horizon: a fast search model and the arena's greedy opponent.

The search never sees the truth. `determinize` starts from the seat's own view and decides what is hidden
from the rules of visibility alone (the other hand, every face-down card the seat does not know, the deck):
the cards the seat cannot see are the 36 of a game minus its hand, the discard pile and every card on a mat
it may read, and they are shuffled afresh into those places (a Swap never onto a mat, the rules forbid it).
Whatever the input holds in its hidden parts, `??` or real cards, is never read, so the move cannot
depend on it. Dice and reshuffles come from a generator drawn from the search's own `rng`, never from the
engine's seed.

Positions are small mutable objects (lists of ints: a card is 0..17, a mat slot packs card, who knows it,
face up and locked into one int) and moves are ints, turned into the engine's text only by `notation`.
Playouts follow an epsilon-greedy placement policy for a few turns, then `evaluate` judges the race by the
expected turns each seat still needs (a small Markov chain over the die, with the cards on the mats).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.ai.model import PublicModel
from bot.games.horizon import DECK, HIDDEN, HORIZON, HorizonState

# --- cards and slots ---------------------------------------------------------------------------------

CODES = tuple([f"T{n}" for n in range(1, 9)] + [f"F{n}" for n in range(1, 5)] + [f"B{n}" for n in range(1, 5)])
CODES = (*CODES, "MI", "SW")
"""Card ids 0..17 in the engine's canonical order: Move To 1-8, Forward 1-4, Backward 1-4, Mimic, Swap."""
CARD_ID = {code: i for i, code in enumerate(CODES)}
MI = CARD_ID["MI"]
SW = CARD_ID["SW"]
ESCAPE = 9
SPACES = 8
TOKENS = 3
CHAIN_CAP = 20
SETUP_TOTAL = 6

CARD_BITS = 31
"""A slot is 0 when empty, else (card + 1) | who knows it (KNOWN[seat]) | FACE_UP | LOCKED."""
KNOWN = (32, 64)
BOTH = 96
FACE_UP = 128
LOCKED = 256

SWAP_BASE = 512
PASS = -1
"""Moves are ints: a placement is card * 16 + (8 if on the opponent's mat) + space - 1, a Swap is
SWAP_BASE + card * 8 + space - 1, and PASS is -1."""


def _target(card: int, space: int) -> int:
    """Where a token on `space` goes when `card` (not Mimic or Swap) resolves, 9 for an escape."""
    if card < 8:
        return card + 1
    if card < 12:
        to = space + card - 7
        return SPACES if to > ESCAPE else to
    return max(0, space - (card - 11))


def _expected_turns() -> list[float]:
    """Expected turns for a token on each space (0..8) to escape on an empty path, by the die alone."""
    turns = [0.0] * (ESCAPE + 1)
    for position in range(SPACES, -1, -1):
        total = 0.0
        for roll in (1, 2, 3):
            to = position + roll
            if to != ESCAPE:
                total += turns[SPACES if to > ESCAPE else to]
        # a roll that overshoots from 8 stays on 8: solve turns = 1 + (stay / 3) * turns
        stay = sum(1 for roll in (1, 2, 3) if position == SPACES and position + roll > ESCAPE)
        if stay:
            turns[position] = 1.0 / (1.0 - stay / 3.0)
        else:
            turns[position] = 1.0 + total / 3.0
    return turns


TURNS = _expected_turns()
"""TURNS[p]: expected turns to escape from space p (6, 7 and 8 are all 3 turns; the hole is ~6.3)."""
TURNS[ESCAPE] = 0.0


def _gain_table() -> list[list[float]]:
    """GAIN[card][space]: turns saved by the token that lands on `space` and resolves `card` there."""
    table = [[0.0] * (SPACES + 1) for _ in range(len(CODES))]
    for card in range(16):
        for space in range(1, SPACES + 1):
            table[card][space] = TURNS[space] - TURNS[_target(card, space)]
    return table


GAIN = _gain_table()


def _landing() -> list[list[float]]:
    """LAND[p][s]: chance that the next roll from space p ends on space s (an overshoot ends on 8)."""
    table = [[0.0] * (SPACES + 1) for _ in range(SPACES + 1)]
    for position in range(SPACES + 1):
        for roll in (1, 2, 3):
            to = position + roll
            if to == ESCAPE:
                continue
            table[position][SPACES if to > ESCAPE else to] += 1 / 3
    return table


LAND = _landing()


def _reach() -> list[list[float]]:
    """REACH[p][s]: chance that a token on p ever ends a die move on s before it escapes (empty path)."""
    table = [[0.0] * (SPACES + 1) for _ in range(SPACES + 1)]
    for target in range(1, SPACES + 1):
        # value iteration: the chain 0..8 is acyclic except for 8 staying on 8
        reach = [0.0] * (ESCAPE + 1)
        for _ in range(30):
            for position in range(SPACES, -1, -1):
                total = 0.0
                for roll in (1, 2, 3):
                    to = position + roll
                    if to == ESCAPE:
                        continue
                    to = SPACES if to > ESCAPE else to
                    total += 1.0 if to == target else reach[to]
                reach[position] = total / 3
        for position in range(SPACES + 1):
            table[position][target] = reach[position]
    return table


REACH = _reach()

NEXT_TOKEN = 0.5
"""How much a space behind the token counts (the next token will pass it, but later and less surely)."""
FAR = 0.6
"""How much a later landing counts against the next roll's (the board changes meanwhile)."""


def _weights(position: int, left: int) -> list[float]:
    """How much a card on each space of a path matters to that path's token now on `position`."""
    land = LAND[position]
    reach = REACH[position]
    later = REACH[0]
    out = [0.0] * (SPACES + 1)
    for space in range(1, SPACES + 1):
        soon = land[space]
        weight = soon + FAR * (reach[space] - soon)
        if left > 1:
            weight += NEXT_TOKEN * later[space] * (0.5 if space > position else 1.0)
        out[space] = weight
    return out


WEIGHTS = [[_weights(position, left) for left in range(TOKENS + 1)] for position in range(SPACES + 1)]
"""WEIGHTS[position][tokens left][space]."""
MIMIC_GUESS = -0.15
"""The gain guessed for a Mimic facing a card the placer cannot read (most unknown cards hurt a little)."""
UNKNOWN_GUESS = -1.0
"""The gain guessed for a face-down card the opponent put on my path (they chose it to hurt)."""
SWAP_COST = 0.1
"""A Swap spends a card that could do the same later: play it only for a clear gain."""


def _placements(sign: float) -> list[list[list[list[tuple[float, int]]]]]:
    """[position][tokens left][card]: (score, index) of every space, best first, for a card placed on the
    path of a token on `position` (sign 1: my own path, -1: the other's); Mimic and Swap get no list."""
    table = []
    for position in range(SPACES + 1):
        by_left = []
        for left in range(TOKENS + 1):
            weights = WEIGHTS[position][left]
            rows: list[list[tuple[float, int]]] = []
            for card in range(len(CODES)):
                if card >= 16:
                    rows.append([])
                    continue
                row = [(sign * weights[i + 1] * GAIN[card][i + 1], i) for i in range(SPACES)]
                rows.append(sorted(row, reverse=True))
            by_left.append(rows)
        table.append(by_left)
    return table


PLACE_ME = _placements(1.0)
PLACE_THEM = _placements(-1.0)


# --- the position ------------------------------------------------------------------------------------


class Position:
    """A full (determinized) position the search can change cheaply."""

    __slots__ = (
        "cap",
        "deck",
        "discard",
        "escaped",
        "first",
        "hands",
        "mats",
        "placed",
        "positions",
        "rng",
        "turn",
        "turns",
        "winner",
    )

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[], []]
        self.mats: list[list[int]] = [[0] * SPACES, [0] * SPACES]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.positions = [0, 0]
        self.escaped = [0, 0]
        self.turns = [0, 0]
        self.placed = [0, 0]
        self.turn: int | None = 0
        self.first = 0
        self.cap = 200
        self.winner: int | None = None
        self.rng = random.Random(0)

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.mats = [self.mats[0][:], self.mats[1][:]]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.positions = self.positions[:]
        other.escaped = self.escaped[:]
        other.turns = self.turns[:]
        other.placed = self.placed[:]
        other.turn = self.turn
        other.first = self.first
        other.cap = self.cap
        other.winner = self.winner
        other.rng = self.rng  # shared on purpose: the dice of one iteration run on from one generator
        return other

    @property
    def setup(self) -> bool:
        return self.placed[0] + self.placed[1] < SETUP_TOTAL


def hidden_places(view: HorizonState, seat: int) -> tuple[int, list[tuple[int, int]], int]:
    """What `seat` cannot see, by the rules of visibility (never by the `??` markers): the size of the other
    hand, the (mat, index) of every face-down card it does not know, and the size of the deck."""
    slots = [
        (mat, index)
        for mat in (0, 1)
        for index, slot in enumerate(view.mats[mat])
        if slot is not None and not slot.face_up and seat not in slot.known
    ]
    return len(view.hands[1 - seat]), slots, len(view.deck)


def unseen_cards(view: HorizonState, seat: int | None) -> list[int]:
    """The cards of a game that `seat` cannot see: all 36 minus its hand, the discard and the mat cards it
    may read (None: a spectator, who sees no hand and only the face-up cards). Sorted, so it depends on
    nothing but what the seat sees."""
    counts = [0] * len(CODES)
    for code in DECK:
        counts[CARD_ID[code]] += 1
    seen = (list(view.hands[seat]) if seat is not None else []) + list(view.discard)
    seen += [
        slot.card
        for mat in view.mats
        for slot in mat
        if slot is not None and (slot.face_up or (seat is not None and seat in slot.known))
    ]
    for code in seen:
        counts[CARD_ID[code]] -= 1
    if min(counts) < 0:
        raise ValueError("this view shows more copies of a card than the game has")
    return [card for card, count in enumerate(counts) for _ in range(count)]


@dataclass(slots=True)
class _Template:
    """The parts of a view's determinizations that do not depend on the draw."""

    view: HorizonState
    seat: int
    base: Position
    slots: list[tuple[int, int]]
    other_hand: int
    others: list[int]
    swaps: list[int]
    own_hand: int = 0
    """Cards of the seat's own hand to sample: all of it from a spectator's view, none from its own."""


class HorizonModel(PublicModel):
    """Event Horizon for the search: int moves, list positions, a placement policy and a race evaluation."""

    depth = 14
    """Plies a playout plays (placements, draws, dice and chains) before `evaluate` judges the race."""
    epsilon = 0.25
    """How often a playout move is a random placement instead of the policy's best."""
    root_width = 12
    """Moves the tree considers in a position: the policy's best ones (by the mover's own knowledge)."""
    iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 400, "hard": 20_000}
    """Playouts per level: 400 keep a normal move near 0.2 s (about 2,000 playouts/s on one core)."""

    def __init__(self) -> None:
        super().__init__(HORIZON)
        self._cache: _Template | None = None

    # --- hidden information ---

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Position:
        """One full position `seat` cannot tell from the truth; only the visible parts of `view` are read."""
        template = self._template(view, seat)
        slots, other_hand, others, swaps = template.slots, template.other_hand, template.others[:], template.swaps
        rng.shuffle(others)
        rest = others[len(slots) :] + swaps
        rng.shuffle(rest)
        position = template.base.copy()
        for (mat, index), card in zip(slots, others, strict=False):
            position.mats[mat][index] |= card + 1
        own = template.own_hand  # from a spectator's view the seat's own hand is sampled too
        position.hands[1 - seat] = rest[:other_hand]
        if own:
            position.hands[seat] = rest[other_hand : other_hand + own]
        position.deck = rest[other_hand + own :]
        position.rng = random.Random(rng.getrandbits(64))  # a fresh seed for the dice and reshuffles
        return position

    def _template(self, view: HorizonState, seat: int) -> _Template:
        """What every determinization of this view shares, worked out once per search (the search hands the
        same view object to every iteration)."""
        cached = self._cache
        if cached is not None and cached.view is view and cached.seat == seat:
            return cached
        # a spectator's view (`view(state, None)`, for the analysis) shows `??` where the seat's own cards are:
        # then both hands and every face-down card are sampled, from the cards a spectator cannot see
        spectator = any(code == HIDDEN for code in view.hands[seat]) or any(
            slot is not None and not slot.face_up and seat in slot.known and slot.card == HIDDEN
            for mat in view.mats
            for slot in mat
        )
        own_hand = len(view.hands[seat]) if spectator else 0
        other_hand, slots, deck_size = hidden_places(view, seat)
        if spectator:
            slots = [(m, i) for m in (0, 1) for i, s in enumerate(view.mats[m]) if s is not None and not s.face_up]
        unseen = unseen_cards(view, None if spectator else seat)
        if len(unseen) != other_hand + own_hand + len(slots) + deck_size:
            raise ValueError("this view does not add up to the cards of a game")
        swaps = [card for card in unseen if card == SW]
        others = [card for card in unseen if card != SW]
        if len(others) < len(slots):
            raise ValueError("this view has more face-down cards than cards that may lie on a mat")
        base = Position()
        for mat in (0, 1):
            for index, slot in enumerate(view.mats[mat]):
                if slot is None:
                    continue
                value = sum(KNOWN[s] for s in slot.known if s in (0, 1))
                value |= (FACE_UP if slot.face_up else 0) | (LOCKED if slot.locked else 0)
                if slot.face_up or (seat in slot.known and not spectator):
                    value |= CARD_ID[slot.card] + 1
                base.mats[mat][index] = value  # a hidden card is filled in by each determinization
        base.hands[seat] = [] if spectator else [CARD_ID[code] for code in view.hands[seat]]
        base.discard = [CARD_ID[code] for code in view.discard]
        base.positions = list(view.positions)
        base.escaped = list(view.escaped)
        base.turns = list(view.turns)
        base.placed = list(view.placed)
        base.turn = view.turn
        base.first = view.first
        base.cap = view.turn_cap
        base.winner = view.winner
        self._cache = _Template(view, seat, base, slots, other_hand, others, swaps, own_hand)
        return self._cache

    # --- rules ---

    def to_move(self, position: Position) -> int | None:
        return position.turn

    def legal(self, position: Position) -> list[int]:
        """Every legal move, as the engine lists them (same order)."""
        seat = position.turn
        if seat is None:
            return []
        hand = position.hands[seat]
        cards = sorted({card for card in hand if card != SW})
        mine, theirs = position.mats[seat], position.mats[1 - seat]
        empty = [index for index in range(SPACES) if not mine[index]]
        empty += [8 + index for index in range(SPACES) if not theirs[index]]
        moves = [card * 16 + where for card in cards for where in empty]
        if SW in hand and not position.setup:
            for index in range(SPACES):
                slot = mine[index]
                if slot and not slot & (FACE_UP | LOCKED):
                    moves += [SWAP_BASE + card * 8 + index for card in cards]
        return moves or [PASS]

    def apply(self, position: Position, move: Any) -> Position:
        position = position.copy()
        self._play(position, move)
        return position

    def _play(self, p: Position, move: int) -> None:
        """Play `move` on `p` in place: the placement or Swap, then draw, roll, move and resolve."""
        seat = p.turn
        assert seat is not None
        hand = p.hands[seat]
        if move >= SWAP_BASE:
            card, index = (move - SWAP_BASE) >> 3, move & 7
            hand.remove(SW)
            p.discard.append(SW)
            old = p.mats[seat][index]
            hand.remove(card)
            hand.append((old & CARD_BITS) - 1)
            p.mats[seat][index] = (card + 1) | KNOWN[seat] | LOCKED
        elif move >= 0:
            card = move >> 4
            mat = seat if move & 8 == 0 else 1 - seat
            hand.remove(card)
            p.mats[mat][move & 7] = (card + 1) | KNOWN[seat]
        if p.placed[0] + p.placed[1] < SETUP_TOTAL:
            p.placed[seat] += 1
            p.turn = p.first if p.placed[0] + p.placed[1] == SETUP_TOTAL else 1 - seat
            return
        if not p.deck and p.discard:
            p.deck = p.discard
            p.discard = []
            p.rng.shuffle(p.deck)
        if p.deck:
            hand.append(p.deck.pop())
        roll = int(p.rng.random() * 3) + 1
        if not self._move(p, seat, p.positions[seat] + roll):
            self._resolve(p, seat)
        p.turns[seat] += 1
        if p.winner is not None:
            p.turn = None
        elif min(p.turns) >= p.cap:
            p.turn = None
            for values in (p.escaped, p.positions):
                if values[0] != values[1]:
                    p.winner = 0 if values[0] > values[1] else 1
                    break
        else:
            p.turn = 1 - seat

    @staticmethod
    def _move(p: Position, seat: int, target: int) -> bool:
        if target > ESCAPE:
            target = SPACES
        if target == ESCAPE:
            p.escaped[seat] += 1
            p.positions[seat] = 0
            if p.escaped[seat] == TOKENS:
                p.winner = seat
            return True
        p.positions[seat] = max(0, target)
        return False

    def _resolve(self, p: Position, seat: int) -> None:
        mine, theirs = p.mats[seat], p.mats[1 - seat]
        for _ in range(CHAIN_CAP):
            space = p.positions[seat]
            if space < 1:
                return
            slot = mine[space - 1]
            if not slot:
                return
            mine[space - 1] = 0
            card = (slot & CARD_BITS) - 1
            p.discard.append(card)
            if card == MI:
                other = theirs[space - 1]
                if not other:
                    return
                theirs[space - 1] = other | FACE_UP | BOTH
                card = (other & CARD_BITS) - 1
                if card == MI:
                    return
            if card >= 16:  # a Swap cannot lie on a mat; kept safe as the engine does
                return
            target = _target(card, space)
            if card < 8 and target == space:
                return
            if self._move(p, seat, target) or p.positions[seat] == space:
                return

    # --- search ---

    def scored(self, p: Position) -> list[tuple[float, int]]:
        """(score, move) for every legal move, judged with what the mover knows only (its hand, the cards it
        may read, where the tokens are): the turns a placement is expected to save it or cost the other."""
        seat = p.turn
        assert seat is not None
        other = 1 - seat
        moves = self.legal(p)
        if moves[0] == PASS:
            return [(0.0, PASS)]
        me_w = WEIGHTS[p.positions[seat]][TOKENS - p.escaped[seat]]
        them_w = WEIGHTS[p.positions[other]][TOKENS - p.escaped[other]]
        mine = p.mats[seat]
        knows = KNOWN[seat]
        mimic_me = self._mimic_row(p, seat, seat)
        mimic_them = self._mimic_row(p, other, seat)
        out = []
        for move in moves:
            if move >= SWAP_BASE:
                card, index = (move - SWAP_BASE) >> 3, move & 7
                space = index + 1
                slot = mine[index]
                old_card = (slot & CARD_BITS) - 1
                old = (GAIN[old_card][space] if old_card < 16 else 0.0) if slot & knows else UNKNOWN_GUESS
                new = mimic_me[space] if card == MI else GAIN[card][space]
                out.append((me_w[space] * (new - old) - SWAP_COST, move))
                continue
            card = move >> 4
            space = (move & 7) + 1
            if move & 8:
                out.append((-them_w[space] * (mimic_them[space] if card == MI else GAIN[card][space]), move))
            else:
                out.append((me_w[space] * (mimic_me[space] if card == MI else GAIN[card][space]), move))
        return out

    @staticmethod
    def _mimic_row(p: Position, lander: int, judge: int) -> list[float]:
        """What a Mimic on each space of `lander`'s path is worth to it, as `judge` can tell."""
        facing_mat = p.mats[1 - lander]
        sees = FACE_UP | KNOWN[judge]
        row = [0.0] * (SPACES + 1)
        for index in range(SPACES):
            facing = facing_mat[index]
            if facing:
                copied = (facing & CARD_BITS) - 1
                row[index + 1] = (GAIN[copied][index + 1] if copied < 16 else 0.0) if facing & sees else MIMIC_GUESS
        return row

    def moves(self, position: Position) -> Sequence[int]:
        scored = self.scored(position)
        if len(scored) <= self.root_width:
            return [move for _, move in scored]
        scored.sort(key=lambda item: -item[0])
        return [move for _, move in scored[: self.root_width]]

    def rollout_move(self, p: Position, rng: random.Random) -> int:
        """Epsilon-greedy placement: the best (card, space) by the precomputed tables, or a random one."""
        seat = p.turn
        assert seat is not None
        hand = p.hands[seat]
        cards = [card for card in hand if card != SW]
        mine, theirs = p.mats[seat], p.mats[1 - seat]
        if cards and rng.random() < self.epsilon:
            for _ in range(4):
                where = int(rng.random() * 16)
                if not (theirs[where - 8] if where >= 8 else mine[where]):
                    return cards[int(rng.random() * len(cards))] * 16 + where
        best, top = PASS, -1e9
        other = 1 - seat
        mine_row = PLACE_ME[p.positions[seat]][TOKENS - p.escaped[seat]]
        theirs_row = PLACE_THEM[p.positions[other]][TOKENS - p.escaped[other]]
        for card in set(cards):
            if card == MI:
                continue  # judged by the full scoring below when it is all the hand holds
            for score, index in mine_row[card]:
                if score <= top:
                    break
                if not mine[index]:
                    best, top = card * 16 + index, score
                    break
            for score, index in theirs_row[card]:
                if score <= top:
                    break
                if not theirs[index]:
                    best, top = card * 16 + 8 + index, score
                    break
        if best == PASS or MI in cards:
            scored = self.scored(p)
            return max(scored)[1]
        return best

    def playout(self, position: Position, rng: random.Random) -> Sequence[float]:
        position = position.copy()
        for _ in range(self.depth):
            if position.turn is None:
                break
            self._play(position, self.rollout_move(position, rng))
        return self.evaluate(position)

    def evaluate(self, p: Position) -> Sequence[float]:
        """The result if the game is over, else the chance of winning the race from here, guessed from the
        expected turns each seat still needs with the cards now on its path."""
        if p.turn is None:
            if p.winner is None:
                return (0.5, 0.5)
            return (1.0, 0.0) if p.winner == 0 else (0.0, 1.0)
        need = [self.turns_left(p, seat) for seat in (0, 1)]
        lead = need[1] - need[0] + (0.5 if p.turn == 0 else -0.5)
        spread = 1.2 + 0.35 * math.sqrt(need[0] + need[1])
        value = 1.0 / (1.0 + math.exp(-lead / spread))
        return (value, 1.0 - value)

    @staticmethod
    def turns_left(p: Position, seat: int) -> float:
        """Expected turns for `seat` to get all its tokens out, with the cards on its path resolving once."""
        mine, theirs = p.mats[seat], p.mats[1 - seat]
        turns = [0.0] * (ESCAPE + 1)
        for position in range(SPACES, -1, -1):
            total = 0.0
            stay = 0
            for roll in (1, 2, 3):
                to = position + roll
                if to == ESCAPE:
                    continue
                if to > ESCAPE:
                    to = SPACES
                slot = mine[to - 1]
                if slot:
                    card = (slot & CARD_BITS) - 1
                    if card == MI:
                        facing = theirs[to - 1]
                        card = (facing & CARD_BITS) - 1 if facing else MI
                    if card < 16:
                        end = _target(card, to)
                        total += turns[end] if end > position else TURNS[end]
                        continue
                if to == position:
                    stay += 1
                else:
                    total += turns[to]
            turns[position] = (1.0 + total / 3.0) / (1.0 - stay / 3.0)
        left = TOKENS - p.escaped[seat]
        return turns[p.positions[seat]] + (left - 1) * (0.5 * turns[0] + 0.5 * TURNS[0])

    def notation(self, position: Any, move: Any) -> str:
        return notation(move)


def notation(move: int) -> str:
    """The engine's canonical text for a move int."""
    if move == PASS:
        return "pass"
    if move >= SWAP_BASE:
        return f"swap me:{(move & 7) + 1} {CODES[(move - SWAP_BASE) >> 3]}"
    return f"place {CODES[move >> 4]} {'opp' if move & 8 else 'me'}:{(move & 7) + 1}"


MODEL = HorizonModel()


# --- the arena's greedy opponent ---------------------------------------------------------------------


def _greedy_value(space: int, card: str) -> int:
    """Spaces a token gains by resolving `card` on `space` (an escape counts as 12, past the end)."""
    if card == "MI":
        return 0
    kind, n = card[0], int(card[1:])
    to = n if kind == "T" else space + n if kind == "F" else max(0, space - n)
    if to > ESCAPE:
        to = SPACES
    return (12 if to == ESCAPE else to) - space


def greedy(view: HorizonState, seat: int, rng: random.Random) -> str:
    """One ply: the placement whose card most helps my token, or hurts the other token, on the spaces the
    next roll can reach (gain in spaces times the chance of landing there); ties broken by `rng`."""
    moves = HORIZON.legal_moves(view)
    best: list[str] = []
    top = -math.inf
    for move in moves:
        words = move.split()
        score = 0.0
        if words[0] == "place":
            card, (side, space_text) = words[1], words[2].split(":")
            space = int(space_text)
            if side == "me":
                score = LAND[view.positions[seat]][space] * _greedy_value(space, card)
            else:
                score = -LAND[view.positions[1 - seat]][space] * _greedy_value(space, card)
        elif words[0] == "swap":
            space = int(words[1].split(":")[1])
            slot = view.mats[seat][space - 1]
            old = _greedy_value(space, slot.card) if slot is not None and seat in slot.known else 0
            score = LAND[view.positions[seat]][space] * (_greedy_value(space, words[2]) - old)
        if score > top + 1e-9:
            top, best = score, [move]
        elif abs(score - top) <= 1e-9:
            best.append(move)
    return rng.choice(best)
