"""Event Horizon (prototype completed by our rulings): rules in docs/rules/horizon.md (binding:
shared/rules/event_horizon.md, every RULING included).

Two players race 3 tokens each out of a black hole along their own path of spaces 1..8 to escape at 9.
Cards placed face down on either player's path fire when a token ends a move on them, and chain.

Hidden information follows OpenSpiel's information states: the full state knows everything (hands, the
face-down cards, the deck order, the seed), and `view(state, seat)` is exactly what one seat may know,
with every unknown card written as `??`. Event text is public: it never names a card still hidden.
Chance (the shuffles and the 1-3 rolls) comes from the seed and counters in the state, so the same seed
and moves give the same game, and a view without the seed cannot foresee anything.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.games.base import Game, GameRules, IllegalMove, InvalidNotation, Option, Options, Outcome, card, check_new
from bot.games.phrases import Phrase, said, say
from bot.games.registration import Registration, Typed
from bot.games.stored import converting, listed, read, sound
from bot.i18n import N_, _

SPACES = 8
ESCAPE = 9
TOKENS = 3
HAND = 6
SETUP_PLACEMENTS = 3
CHAIN_CAP = 20
HIDDEN = "??"
DECK = tuple(
    [f"T{n}" for n in range(1, 9) for _ in range(2)]
    + [f"{kind}{n}" for kind in "FB" for n in range(1, 5) for _ in range(2)]
    + ["MI", "MI", "SW", "SW"]
)
"""The 36 cards (RULING deck): Move To 1-8, Forward 1-4, Backward 1-4, two of each; 2 Mimic, 2 Swap."""


def card_name(card: str) -> str:
    """A card in English words ("Move To 3"), as events store it (said by its `CARD` phrase)."""
    if card == HIDDEN:
        return "a hidden card"
    kind, rest = card[0], card[1:]
    return {"T": f"Move To {rest}", "F": f"Forward {rest}", "B": f"Backward {rest}"}.get(
        kind, {"MI": "Mimic", "SW": "Swap"}.get(card, card)
    )


def said_card(card: str) -> str:
    """A card in the reader's words."""
    return say(card_name(card))


# What the engine stores in its events and ends (English), said in the reader's language by `said`.
CARDS = (
    Phrase(N_("a hidden card")),
    Phrase(N_("Move To {number}")),
    Phrase(N_("Forward {number}")),
    Phrase(N_("Backward {number}")),
    Phrase(N_("Mimic")),
    Phrase(N_("Swap")),
)
SHUFFLED = Phrase.ngettext(
    "The discard pile ({count} card) is shuffled into a new deck.",
    "The discard pile ({count} cards) is shuffled into a new deck.",
    "count",
)
DRAWS = Phrase(N_("{seat} draws a card."))
NO_CARD = Phrase(N_("No card is left to draw."))
PAST_NINE = Phrase(N_("{why} (past 9, so it stops on 8)"), words=("why",))
ESCAPES = Phrase(N_("{why}: token {start} → 9, it escapes ({escaped} of {tokens})."), words=("why",))
MOVES = Phrase(N_("{why}: token {start} → {target}."), words=("why",))
CHAIN = Phrase(N_("The chain stops after {count} resolutions."))
REVEALS = Phrase(N_("Space {space} reveals {card}"), words=("card",))
COPIES = Phrase(N_("It copies {card}"), words=("card",))
EMPTY = Phrase(N_("{why}: {seat}'s space {space} is empty, so nothing happens."), words=("why",))
MIMIC_UP = Phrase(N_("{why}: {seat}'s space {space} turns face up (Mimic): nothing happens."), words=("why",))
TURNS_UP = Phrase(N_("{why}: {seat}'s space {space} turns face up ({card})."), words=("why", "card"))
ALREADY = Phrase(N_("{why}: the token is already on {target}."), words=("why",))
NOTHING = Phrase(N_("{why}: nothing happens."), words=("why",))
PLACES_OWN = Phrase(N_("{seat} places a card face down on their space {space}."))
PLACES_OPPONENT = Phrase(N_("{seat} places a card face down on {opponent}'s space {space}."))
SWAPS = Phrase(
    N_(
        "{seat} plays Swap on their space {space}: the face-down card there goes to their hand,"
        " and a card from their hand takes its place, face down and locked."
    )
)
PASSES = Phrase(N_("{seat} has no card to place and passes."))
SETUP_DONE = Phrase(N_("Setup is done: the race begins."))
ROLLS = Phrase(N_("{seat} rolls {roll}"))
ALL_OUT = Phrase(N_("{seat} wins: all 3 tokens escaped."))
CAP_WIN = Phrase(N_("The turn cap ({cap} each) is reached: {seat} wins with {what}."), words=("what",))
CAP_LEVEL = Phrase(N_("The turn cap ({cap} each) is reached with everything level: a draw."))
CAP_ENDS = Phrase(N_("turn cap: {what}"), words=("what",))
ENDS = (
    Phrase(N_("all 3 tokens escaped")),
    Phrase(N_("more tokens escaped")),
    Phrase(N_("the farther active token")),
    Phrase(N_("turn cap, level")),
    Phrase(N_("the game is over")),
)


@dataclass(frozen=True, slots=True)
class Slot:
    """A card on a mat: who placed it, who knows it, face up (after a Mimic) or not, locked (after a Swap)."""

    card: str
    placed_by: int
    known: frozenset[int]
    face_up: bool = False
    locked: bool = False


@dataclass(frozen=True, slots=True)
class HorizonState:
    """`mats[seat][space - 1]` is that seat's space; `positions` the active tokens (0 = the black hole).

    `deck` is drawn from the end. `rolls` and `shuffles` count the dice and the reshuffles so far (each
    comes from the seed and its number). `last_*` describe the last move for the picture and the text:
    what was played where (never which hidden card), the roll, and the chain as (space, card, from, to).
    """

    deck: tuple[str, ...]
    discard: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    mats: tuple[tuple[Slot | None, ...], tuple[Slot | None, ...]]
    positions: tuple[int, int] = (0, 0)
    escaped: tuple[int, int] = (0, 0)
    turn: int | None = 0
    first: int = 0
    placed: tuple[int, int] = (0, 0)
    turns: tuple[int, int] = (0, 0)
    turn_cap: int = 200
    winner: int | None = None
    end: str | None = None
    seed: int | None = None
    rolls: int = 0
    shuffles: int = 0
    last_seat: int | None = None
    last_play: tuple[Any, ...] | None = None
    last_roll: int | None = None
    last_chain: tuple[tuple[int, str, int, int], ...] = ()
    ply: int = 0
    events: tuple[str, ...] = ()

    @property
    def setup(self) -> bool:
        return sum(self.placed) < 2 * SETUP_PLACEMENTS


@dataclass(frozen=True, slots=True)
class HorizonMove:
    """A legal move: `kind` place, swap or pass; the card from the hand, and the space on the mover's own mat
    (`mine` True) or the opponent's. Relative to the mover, as the notation is, so it needs no state."""

    kind: str
    card: str | None = None
    mine: bool | None = None
    space: int | None = None

    def __str__(self) -> str:
        if self.kind == "place":
            return f"place {self.card} {'me' if self.mine else 'opp'}:{self.space}"
        if self.kind == "swap":
            return f"swap me:{self.space} {self.card}"
        return self.kind


PASS = HorizonMove("pass")


def _shuffled(cards: tuple[str, ...] | list[str], seed: int, number: int) -> tuple[str, ...]:
    order = list(cards)
    random.Random(f"horizon:{seed}:shuffle:{number}").shuffle(order)
    return tuple(order)


def _roll(seed: int, number: int) -> int:
    return random.Random(f"horizon:{seed}:roll:{number}").randint(1, 3)


_CARD = r"(t[1-8]|f[1-4]|b[1-4]|mi|sw)"
_SPACE = r"(me|opp)\s*:\s*([1-8])"
_PLACE = re.compile(rf"place\s+{_CARD}\s+{_SPACE}", re.IGNORECASE)
_SWAP = re.compile(rf"swap\s+me\s*:\s*([1-8])\s+{_CARD}", re.IGNORECASE)
_LOOSE_PLACE = re.compile(r"place\s+([a-z0-9]{1,3})\s+(me|opp)\s*:\s*([a-z0-9]{1,3})", re.IGNORECASE)
_LOOSE_SWAP = re.compile(r"swap\s+(me|opp)\s*:\s*([a-z0-9]{1,3})\s+([a-z0-9]{1,3})", re.IGNORECASE)
"""A move's shape with any card and space, so that a bad card or space gets a refusal of its own."""
HOW = N_("write place F2 opp:5 (a card from your hand onto a space), swap me:5 F2, or pass")
CARDS_HOW = N_("the cards are T1-T8 (Move To), F1-F4 (Forward), B1-B4 (Backward), MI (Mimic) and SW (Swap)")


class _Work:
    """A mutable copy of a state while a move is applied."""

    def __init__(self, state: HorizonState) -> None:
        self.state = state
        self.deck = list(state.deck)
        self.discard = list(state.discard)
        self.hands = [list(state.hands[0]), list(state.hands[1])]
        self.mats = [list(state.mats[0]), list(state.mats[1])]
        self.positions = list(state.positions)
        self.escaped = list(state.escaped)
        self.rolls = state.rolls
        self.shuffles = state.shuffles
        self.events: list[str] = []
        self.chain: list[tuple[int, str, int, int]] = []
        self.winner: int | None = None

    def draw(self, seat: int) -> None:
        if not self.deck and self.discard:
            assert self.state.seed is not None, "a view cannot shuffle"
            self.deck = list(_shuffled(sorted(self.discard), self.state.seed, self.shuffles))
            self.shuffles += 1
            self.events.append(SHUFFLED(count=len(self.discard)))
            self.discard = []
        if self.deck:
            self.hands[seat].append(self.deck.pop())
            self.events.append(DRAWS(seat=f"{{{seat}}}"))
        else:
            self.events.append(NO_CARD())

    def move(self, seat: int, target: int, why: str) -> bool:
        """Move the token to `target` (past 9: space 8); returns True when it escaped."""
        start = self.positions[seat]
        if target > ESCAPE:
            target = SPACES
            why = PAST_NINE(why=why)
        target = max(0, target)
        if target == ESCAPE:
            self.escaped[seat] += 1
            self.positions[seat] = 0
            self.events.append(ESCAPES(why=why, start=start, escaped=self.escaped[seat], tokens=TOKENS))
            if self.escaped[seat] == TOKENS:
                self.winner = seat
            return True
        self.positions[seat] = target
        self.events.append(MOVES(why=why, start=start, target=target))
        return False

    def resolve(self, seat: int) -> None:
        """Resolve the card under the token, and whatever its moves land on, up to CHAIN_CAP cards."""
        for _resolution in range(CHAIN_CAP):
            space = self.positions[seat]
            slot = self.mats[seat][space - 1] if space >= 1 else None
            if slot is None:
                return
            self.mats[seat][space - 1] = None
            self.discard.append(slot.card)
            start = space
            escaped = self._apply(seat, space, slot.card)
            self.chain.append((space, slot.card, start, ESCAPE if escaped else self.positions[seat]))
            if escaped or self.winner is not None or self.positions[seat] == start:
                return
        space = self.positions[seat]
        if space >= 1 and self.mats[seat][space - 1] is not None:  # a card was still waiting
            self.events.append(CHAIN(count=CHAIN_CAP))

    def _apply(self, seat: int, space: int, card: str, mimicked: bool = False) -> bool:
        here = REVEALS(space=space, card=card_name(card)) if not mimicked else COPIES(card=card_name(card))
        position = self.positions[seat]
        if card == "MI" and not mimicked:
            other = self.mats[1 - seat][space - 1]
            if other is None:
                self.events.append(EMPTY(why=here, seat=f"{{{1 - seat}}}", space=space))
                return False
            if other.card == "MI":  # revealed, and it stays face up like any copied card
                self.mats[1 - seat][space - 1] = replace(other, face_up=True, known=frozenset({0, 1}))
                self.events.append(MIMIC_UP(why=here, seat=f"{{{1 - seat}}}", space=space))
                return False
            self.mats[1 - seat][space - 1] = replace(other, face_up=True, known=frozenset({0, 1}))
            self.events.append(TURNS_UP(why=here, seat=f"{{{1 - seat}}}", space=space, card=card_name(other.card)))
            return self._apply(seat, space, other.card, mimicked=True)
        if card[0] == "T":
            target = int(card[1:])
            if target == position:
                self.events.append(ALREADY(why=here, target=target))
                return False
            return self.move(seat, target, here)
        if card[0] == "F":
            return self.move(seat, position + int(card[1:]), here)
        if card[0] == "B":
            return self.move(seat, position - int(card[1:]), here)
        self.events.append(NOTHING(why=here))  # a Swap cannot be on a mat; kept safe anyway
        return False


class Horizon(GameRules, Game[HorizonState, HorizonMove]):
    """The engine object registered as GAMES["horizon"]."""

    key = "horizon"
    chance = True  # the dice and the shuffled deck
    hidden_information = True  # hands and face-down cards
    title = "Event Horizon"
    min_players = 2
    max_players = 2
    options = Options(
        Option("first", "seat", N_("the seat that starts (default: drawn from the seed)")),
        Option(
            "turn_cap", "int", N_("turns per player before the cap's tie-break"), default=200, minimum=1, maximum=10_000
        ),
    )

    @property
    def rules_card(self) -> str:
        """The rules summary for players (/rules), in the reader's language."""
        return card(RULES_CARD)

    def new(self, seats: int, seed: int, **options: Any) -> HorizonState:
        given = check_new(self, seats, seed, options)
        first, cap = given["first"], given["turn_cap"]
        if first is None:
            first = random.Random(f"horizon:{seed}:first").randrange(2)
        deck = list(_shuffled(DECK, seed, 0))
        hands = (tuple(deck[-HAND:]), tuple(deck[-2 * HAND : -HAND]))
        return HorizonState(
            deck=tuple(deck[: -2 * HAND]),
            discard=(),
            hands=hands,
            mats=((None,) * SPACES, (None,) * SPACES),
            turn=first,
            first=first,
            turn_cap=cap,
            seed=seed,
            shuffles=1,
        )

    # --- reading ---

    def to_move(self, state: HorizonState) -> int | None:
        return state.turn

    def legal_moves(self, state: HorizonState) -> list[str]:
        seat = state.turn
        if seat is None:
            return []
        hand = state.hands[seat]
        cards = sorted({c for c in hand if c != "SW"}, key=_card_order)
        empty = [(side, n) for side, mat in (("me", seat), ("opp", 1 - seat)) for n in range(1, 9)]
        empty = [(side, n) for side, n in empty if state.mats[seat if side == "me" else 1 - seat][n - 1] is None]
        moves = [f"place {c} {side}:{n}" for c in cards for side, n in empty]
        if not state.setup and "SW" in hand:
            for n in range(1, SPACES + 1):
                slot = state.mats[seat][n - 1]
                if slot is not None and not slot.face_up and not slot.locked:
                    moves += [f"swap me:{n} {c}" for c in cards]
        return moves or ["pass"]

    def move_group(self, move: str) -> str:
        """By card: `place F2 opp:5` is listed under `place F2`, `swap me:5 F2` under `swap F2`; `pass` alone."""
        words = move.split()
        if len(words) == 3 and words[0] in ("place", "swap"):
            return f"{words[0]} {words[1] if words[0] == 'place' else words[2]}"
        return move

    def private_lines(self, state: HorizonState, seat: int) -> tuple[str, ...]:
        """What only `seat` may read (its hand, the face-down cards it knows), seats written {0}, {1}."""
        view = self.view(state, seat)
        hand = ", ".join(f"{said_card(c)} ({c})" for c in view.hands[seat]) or _("no cards")
        known = [
            (
                _("your space {space}: {card}")
                if mat == seat
                else _("{seat}'s space {space}: {card}").replace("{seat}", "{{{seat}}}")
            ).format(seat=mat, space=n, card=said_card(slot.card))
            for mat in (seat, 1 - seat)
            for n, slot in enumerate(view.mats[mat], 1)
            if slot is not None and not slot.face_up and slot.card != HIDDEN
        ]
        lines = [_("Your hand: {hand}.").format(hand=hand)]
        if known:
            lines.append(_("Face-down cards you know: {cards}.").format(cards="; ".join(known)))
        return tuple(lines)

    @staticmethod
    def public_move(move: str) -> str:
        """A logged move as anyone may read it: which card was placed or swapped in stays private."""
        words = move.split()
        if words[:1] == ["place"] and len(words) == 3:
            return f"place a card on {words[2]}"
        if words[:1] == ["swap"] and len(words) == 3:
            return f"swap {words[1]}"
        return move

    def outcome(self, state: HorizonState) -> Outcome | None:
        if state.turn is not None:
            return None
        winners = frozenset() if state.winner is None else frozenset({state.winner})
        scores = tuple(float(state.escaped[s]) for s in range(2))
        return Outcome(scores, winners, state.end or "the game is over")

    score_words = N_("Tokens out")
    """What `scores` counts, for the line under the board."""

    def scores(self, state: HorizonState) -> tuple[float, ...]:
        """Tokens escaped, by seat."""
        return (float(state.escaped[0]), float(state.escaped[1]))

    def events(self, state: HorizonState) -> tuple[str, ...]:
        return said(state.events)

    def reseed(self, state: HorizonState, seed: int) -> HorizonState:
        """Fresh chance from `seed`: the deck, the only cards nobody has seen, is shuffled again, and the rolls
        and later shuffles come from `seed`. Hands and face-down cards stay: someone knows them. Every view
        stays as it was (the counters go on). A game over by the rules shows every card and has nothing left
        to draw: it stays as it is."""
        if self.outcome(state) is not None:
            return state
        deck = sorted(state.deck)
        random.Random(f"horizon:{seed}:reseed").shuffle(deck)
        return replace(state, deck=tuple(deck), seed=seed)

    def view(self, state: HorizonState, seat: int | None) -> HorizonState:
        """What `seat` may know (None: a spectator): other hands, unknown face-down cards and the deck order
        become `??`, and the seed goes. Once the game is over by the rules no card is hidden any more: the
        final board turns every card face up (nothing is left to draw, and the record publishes it all)."""
        if self.outcome(state) is not None:
            return replace(state, seed=None)
        hands = tuple(hand if s == seat else (HIDDEN,) * len(hand) for s, hand in enumerate(state.hands))
        mats = tuple(
            tuple(
                slot
                if slot is None or slot.face_up or (seat is not None and seat in slot.known)
                else replace(slot, card=HIDDEN)
                for slot in mat
            )
            for mat in state.mats
        )
        return replace(
            state,
            hands=hands,  # type: ignore[arg-type]
            mats=mats,  # type: ignore[arg-type]
            deck=(HIDDEN,) * len(state.deck),
            seed=None,
        )

    # --- playing ---

    def parse(self, state: HorizonState, text: str) -> HorizonMove:
        """The legal move `text` stands for here, or IllegalMove saying what is wrong.

        Refusals name only the mover's own cards and spaces, so they reveal nothing to anyone."""
        seat = state.turn
        if seat is None:
            raise IllegalMove(_("The game is over: no more moves."))
        if not isinstance(text, str) or len(text.strip()) > 40:
            raise InvalidNotation(_("That is not a move: {how}.").format(how=_(HOW)))
        words = " ".join(text.split())
        if words.lower() == "pass":
            if self.legal_moves(state) != ["pass"]:
                raise IllegalMove(_("You can still place a card (or Swap), so you cannot pass."))
            return PASS
        if placed := _PLACE.fullmatch(words):
            card, side, space = placed[1].upper(), placed[2].lower(), int(placed[3])
            where = f"{side}:{space}"
            if card == "SW":
                raise IllegalMove(_("Swap is never placed on a mat: play it with swap me:5 F2."))
            if card not in state.hands[seat]:
                raise IllegalMove(_("You have no {card} in your hand.").format(card=card))
            mat = seat if side == "me" else 1 - seat
            if state.mats[mat][space - 1] is not None:
                raise IllegalMove(_("{space} is not empty: cards go on empty spaces.").format(space=where))
            return HorizonMove("place", card, side == "me", space)
        if re.fullmatch(rf"swap\s+opp\s*:\s*[1-8]\s+{_CARD}", words, re.IGNORECASE):
            raise IllegalMove(_("Swap works on your own mat only: swap me:5 F2."))
        if swapped := _SWAP.fullmatch(words):
            space, card = int(swapped[1]), swapped[2].upper()
            if state.setup:
                raise IllegalMove(_("Setup is for placing cards: Swap is played only once the race has begun."))
            if "SW" not in state.hands[seat]:
                raise IllegalMove(_("You have no Swap card in your hand."))
            if card == "SW":
                raise IllegalMove(_("Swap puts a card from your hand on the mat, and a Swap cannot go on a mat."))
            if card not in state.hands[seat]:
                raise IllegalMove(_("You have no {card} in your hand.").format(card=card))
            slot = state.mats[seat][space - 1]
            if slot is None:
                raise IllegalMove(
                    _("me:{space} is empty: Swap exchanges a face-down card on your own mat.").format(space=space)
                )
            if slot.face_up:
                raise IllegalMove(_("me:{space} is face up: Swap exchanges a face-down card.").format(space=space))
            if slot.locked:
                raise IllegalMove(
                    _("me:{space} is locked: a card put there by a Swap cannot be swapped again.").format(space=space)
                )
            return HorizonMove("swap", card, True, space)
        self._refuse_parts(words)
        if not text.strip():
            raise InvalidNotation(_("That is not a move: {how}.").format(how=_(HOW)))
        raise InvalidNotation(_("{text} is not a move: {how}.").format(text=repr(text.strip()[:40]), how=_(HOW)))

    @staticmethod
    def _refuse_parts(words: str) -> None:
        """A move of the right shape with a card or a space that does not exist: say which part."""
        loose = _LOOSE_PLACE.fullmatch(words)
        card, side, space = (loose[1], loose[2], loose[3]) if loose else (None, None, None)
        if (swapped := _LOOSE_SWAP.fullmatch(words)) is not None:
            side, space, card = swapped[1], swapped[2], swapped[3]
        if card is None or side is None or space is None:
            return
        if not re.fullmatch(_CARD, card, re.IGNORECASE):
            raise InvalidNotation(_("{card} is not a card: {how}.").format(card=card.upper(), how=_(CARDS_HOW)))
        if not re.fullmatch(r"[1-8]", space):
            side = side.lower()
            if space == "9":
                why = _(
                    "{side}:{space} is not a space: the spaces are 1-8, {side}:1 to {side}:8 "
                    "(a token escapes at 9, past the last space)."
                )
            else:
                why = _("{side}:{space} is not a space: the spaces are 1-8, {side}:1 to {side}:8.")
            raise InvalidNotation(why.format(side=side, space=space))

    def notation(self, move: HorizonMove) -> str:
        return str(move)

    def play(self, state: HorizonState, move: HorizonMove | str) -> HorizonState:
        """The next state; a HorizonMove is trusted to be legal here (from `parse`), text is parsed first."""
        parsed = move if isinstance(move, HorizonMove) else self.parse(state, move)
        seat = state.turn
        assert seat is not None
        kind, card, space = parsed.kind, parsed.card, parsed.space
        mat = seat if parsed.mine else 1 - seat
        work = _Work(state)
        who = f"{{{seat}}}"
        play: tuple[Any, ...] | None = None
        if kind == "place":
            assert card is not None and space is not None
            work.hands[seat].remove(card)
            work.mats[mat][space - 1] = Slot(card, seat, frozenset({seat}))
            if mat == seat:
                work.events.append(PLACES_OWN(seat=who, space=space))
            else:
                work.events.append(PLACES_OPPONENT(seat=who, opponent=f"{{{1 - seat}}}", space=space))
            play = ("place", mat, space)
        elif kind == "swap":
            assert card is not None and space is not None
            work.hands[seat].remove("SW")
            work.discard.append("SW")
            old = work.mats[seat][space - 1]
            assert old is not None
            work.hands[seat].remove(card)
            work.hands[seat].append(old.card)
            work.mats[seat][space - 1] = Slot(card, seat, frozenset({seat}), locked=True)
            work.events.append(SWAPS(seat=who, space=space))
            play = ("swap", seat, space)
        else:
            work.events.append(PASSES(seat=who))
            play = ("pass",)
        placed = list(state.placed)
        turns = list(state.turns)
        roll = None
        if state.setup:
            placed[seat] += 1
            nxt: int | None = 1 - seat
            if sum(placed) == 2 * SETUP_PLACEMENTS:
                nxt = state.first
                work.events.append(SETUP_DONE())
        else:
            work.draw(seat)
            assert state.seed is not None, "a view cannot roll"
            roll = _roll(state.seed, work.rolls)
            work.rolls += 1
            escaped = work.move(seat, work.positions[seat] + roll, ROLLS(seat=who, roll=roll))
            if not escaped:
                work.resolve(seat)
            turns[seat] += 1
            nxt = 1 - seat
        winner, end = work.winner, None
        if winner is not None:
            nxt, end = None, "all 3 tokens escaped"
            work.events.append(ALL_OUT(seat=f"{{{winner}}}"))
        elif not state.setup and min(turns) >= state.turn_cap:
            nxt = None
            winner, end = self._cap_winner(work, state.turn_cap)
        return replace(
            state,
            deck=tuple(work.deck),
            discard=tuple(work.discard),
            hands=(tuple(work.hands[0]), tuple(work.hands[1])),
            mats=(tuple(work.mats[0]), tuple(work.mats[1])),
            positions=(work.positions[0], work.positions[1]),
            escaped=(work.escaped[0], work.escaped[1]),
            turn=nxt,
            placed=(placed[0], placed[1]),
            turns=(turns[0], turns[1]),
            winner=winner,
            end=end,
            rolls=work.rolls,
            shuffles=work.shuffles,
            last_seat=seat,
            last_play=play,
            last_roll=roll,
            last_chain=tuple(work.chain),
            ply=state.ply + 1,
            events=tuple(work.events),
        )

    @staticmethod
    def _cap_winner(work: _Work, cap: int) -> tuple[int | None, str]:
        """The turn cap's tie-break: more escaped tokens, then the farther active token, else a draw."""
        for values, what in ((work.escaped, "more tokens escaped"), (work.positions, "the farther active token")):
            if values[0] != values[1]:
                winner = 0 if values[0] > values[1] else 1
                work.events.append(CAP_WIN(cap=cap, seat=f"{{{winner}}}", what=what))
                return winner, CAP_ENDS(what=what)
        work.events.append(CAP_LEVEL(cap=cap))
        return None, "turn cap, level"

    # --- storing ---

    def dumps(self, state: HorizonState) -> str:
        data = {name: getattr(state, name) for name in HorizonState.__slots__}
        data["mats"] = [[None if s is None else _slot_json(s) for s in mat] for mat in state.mats]
        return json.dumps({"game": self.key, **data}, separators=(",", ":"))

    def loads(self, text: str) -> HorizonState:
        """A state (or a view) from `dumps`; BadState when the text is not a sound one. The refusal never
        names a card, so it cannot tell a hidden one."""
        data = read(self, text, _STORED)
        with converting(self):
            data["mats"] = tuple(
                tuple(None if s is None else _slot(s) for s in listed(mat)) for mat in listed(data["mats"])
            )
            for name in ("hands", "last_chain"):
                data[name] = tuple(listed(item) for item in listed(data[name]))
            for name in ("deck", "discard", "positions", "escaped", "placed", "turns", "events"):
                data[name] = listed(data[name])
            if data["last_play"] is not None:
                data["last_play"] = listed(data["last_play"])
            state = HorizonState(**data)
        return sound(self, state, _broken)


_STORED = frozenset(f.name for f in fields(HorizonState))
"""The fields of a stored state (`dumps`)."""
_IN_DECK = {card: DECK.count(card) for card in DECK}


def _broken(state: HorizonState) -> str | None:
    """What in a stored state or view no game can reach (a tampered one), or None; never names a card."""
    slots = [slot for mat in state.mats for slot in mat if slot is not None]
    cards = [*state.deck, *state.discard, *state.hands[0], *state.hands[1], *(slot.card for slot in slots)]
    known = [card for card in cards if card != HIDDEN]
    seats = (0, 1)
    play = state.last_play
    checks = (
        (all(len(mat) == SPACES for mat in state.mats), f"a mat does not have {SPACES} spaces"),
        (all(card in _IN_DECK for card in known), "a card is not one of the deck's"),
        (all(known.count(card) <= n for card, n in _IN_DECK.items()), "a card is there more often than in the deck"),
        (len(cards) <= len(DECK), f"there are more than {len(DECK)} cards"),
        (state.seed is None or len(known) == len(cards), "a state with its seed hides no card (only a view does)"),
        (all(slot.card != "SW" for slot in slots), "a Swap lies on a mat"),
        (all(s.placed_by in s.known and s.known <= {0, 1} for s in slots), "a slot's seats are not 0 and 1"),
        (all(s.card != HIDDEN for s in slots if s.face_up), "a face-up card is hidden"),
        (all(0 <= p <= SPACES for p in state.positions), f"token positions run from 0 to {SPACES}"),
        (all(0 <= n <= TOKENS for n in state.escaped), f"escaped counts run from 0 to {TOKENS}"),
        (all(0 <= n <= SETUP_PLACEMENTS for n in state.placed), f"placed counts run from 0 to {SETUP_PLACEMENTS}"),
        (all(n >= 0 for n in (*state.turns, state.rolls, state.shuffles, state.ply)), "a counter is negative"),
        (1 <= state.turn_cap <= 10_000, "turn_cap runs from 1 to 10000"),
        (state.first in seats and {state.turn, state.winner, state.last_seat} <= {None, 0, 1}, "a seat is wrong"),
        (state.winner is None or state.turn is None, "a game with a winner has nobody to move"),
        (state.last_roll in (None, 1, 2, 3), "last_roll is not a roll of 1 to 3"),
        (play in (None, ("pass",)) or _mat_play(play), "last_play is not a play"),
        (all(_link(link) for link in state.last_chain), "last_chain is not a chain of revealed cards"),
    )
    return next((why for ok, why in checks if not ok), None)


def _mat_play(play: tuple[Any, ...] | None) -> bool:
    """A place or swap as `last_play` holds it: (kind, the mat's seat, space)."""
    if play is None or len(play) != 3 or play[0] not in ("place", "swap"):
        return False
    seat, space = play[1:]
    return type(seat) is int and type(space) is int and seat in (0, 1) and 1 <= space <= SPACES


def _link(link: tuple[int, str, int, int]) -> bool:
    space, card, start, end = link
    return 1 <= space <= SPACES and card in _IN_DECK and 0 <= start <= ESCAPE and 0 <= end <= ESCAPE


def _card_order(card: str) -> tuple[int, int]:
    return ("TFBMS".index(card[0]), int(card[1:]) if card[1:].isdigit() else 0)


def _slot_json(slot: Slot) -> list[Any]:
    return [slot.card, slot.placed_by, sorted(slot.known), slot.face_up, slot.locked]


def _slot(data: list[Any]) -> Slot:
    card, placed_by, known, face_up, locked = listed(data)
    return Slot(card, placed_by, frozenset(listed(known)), face_up, locked)


RULES_CARD = (
    N_("Event Horizon — 2 players race 3 tokens each out of a black hole: along your path of 8 spaces to escape at 9."),
    N_("• Deck: 36 cards, two of each: Move To 1-8 (16), Forward 1-4 (8), Backward 1-4 (8), Mimic (2), Swap (2)."),
    N_(
        "• Setup: 6 cards each; take turns placing 3 face down on any empty space of either path (horizon move "
        "place F2 opp:5); 3 stay in your hand."
    ),
    N_(
        "• A turn: place a card from your hand face down (or play Swap: swap me:5 F2), then draw, roll 1-3 and "
        "move your token. A card under the token when it stops is revealed and resolved, and chains (at most 20 "
        "cards): Move To N, Forward X, Backward X (below 1: back into the hole), Mimic (copies the card on the "
        "same space of the other path). No card to place and no Swap: pass."
    ),
    N_("• Escape needs exactly 9; a move past 9 stops on 8. All 3 tokens out first wins."),
    N_(
        "• Turn cap: after 200 turns each (a match may set 1 to 10000), more tokens out wins, then the farther "
        "token; else a draw."
    ),
    N_("• Your hand and the cards you placed are yours to see: /horizon hand. Everyone else sees card backs."),
)
"""The rules card (/rules): one catalog string a paragraph, said in the reader's language by `rules_card`."""

HORIZON = Horizon()


def revealed(state: HorizonState) -> HorizonState:
    """A finished game's earlier position as its final board shows one: no card hidden, no seed (the record
    publishes both); a review shows them so once the game is over (bot/review.py)."""
    return replace(state, seed=None)


REGISTRATION = Registration(
    HORIZON,
    renderer="renderers.horizon",
    words="renderers.alt_text:horizon",
    cog="bot.cogs.horizon",
    start="challenge",
    typed=Typed(
        "ALICE BOB",
        "horizon new alice bob",
        "Event Horizon",
        N_("a move, like: horizon move place F2 opp:5 (or swap me:5 F2, or pass)"),
        commands=("hand",),
    ),
    model="bot.ai.horizon:MODEL",
    analysis_iterations=300,
    moments=("Setup is done", "escapes", "turns face up", "shuffled into a new deck", "wins"),
    revealed="bot.games.horizon:revealed",
)
