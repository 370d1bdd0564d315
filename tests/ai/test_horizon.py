"""Tests for the Event Horizon computer player (bot/ai/horizon.py): the model against the engine, the search's
answers, the greedy player, and above all that no hidden card ever reaches the computer's decision.

The model's rules are checked on full positions copied from seeded random games, with the engine's own dice
and reshuffles fed to it, so `apply` must give exactly what `play` gives. The hidden-information tests give
the search a seat's view, the true state and states whose hidden parts were shuffled or replaced, and
require the very same determinizations and the very same move.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import replace

import pytest

from bot.ai import Level, think
from bot.ai import horizon as ai
from bot.games.horizon import DECK, HIDDEN, HORIZON, HorizonState, Slot, _roll, _shuffled

LEVEL = Level("test", 30, None)
"""A small iteration budget and no clock: the choice depends on the seed alone."""


@functools.cache
def random_games(games: int = 24) -> tuple[tuple[HorizonState, str, HorizonState], ...]:
    """(position, move, position after) of seeded games of random legal moves, some with a short cap."""
    plies = []
    for seed in range(games):
        rng = random.Random(seed)
        state = HORIZON.new(2, seed, turn_cap=4 if seed % 5 == 0 else 200)
        while HORIZON.to_move(state) is not None:
            move = rng.choice(HORIZON.legal_moves(state))
            after = HORIZON.play(state, move)
            plies.append((state, move, after))
            state = after
    return tuple(plies)


def sample(every: int) -> list[HorizonState]:
    return [before for before, _, _ in random_games()[::every]]


class _EngineDice:
    """Stands in for a position's generator: the engine's next roll and next reshuffle of this state."""

    def __init__(self, state: HorizonState) -> None:
        self.state = state

    def random(self) -> float:
        assert self.state.seed is not None
        return (_roll(self.state.seed, self.state.rolls) - 1) / 3 + 0.1

    def shuffle(self, cards: list[int]) -> None:
        assert self.state.seed is not None
        codes = sorted(ai.CODES[card] for card in cards)
        cards[:] = [ai.CARD_ID[code] for code in _shuffled(codes, self.state.seed, self.state.shuffles)]


def full_position(state: HorizonState) -> ai.Position:
    """The model's copy of a full state (for tests only: the search starts from views, never from this)."""
    position = ai.Position()
    for mat in (0, 1):
        for index, slot in enumerate(state.mats[mat]):
            if slot is not None:
                value = (ai.CARD_ID[slot.card] + 1) | sum(ai.KNOWN[s] for s in slot.known)
                value |= (ai.FACE_UP if slot.face_up else 0) | (ai.LOCKED if slot.locked else 0)
                position.mats[mat][index] = value
    position.hands = [[ai.CARD_ID[c] for c in hand] for hand in state.hands]
    position.deck = [ai.CARD_ID[c] for c in state.deck]
    position.discard = [ai.CARD_ID[c] for c in state.discard]
    position.positions, position.escaped = list(state.positions), list(state.escaped)
    position.turns, position.placed = list(state.turns), list(state.placed)
    position.turn, position.first, position.cap, position.winner = state.turn, state.first, state.turn_cap, state.winner
    position.rng = _EngineDice(state)  # type: ignore[assignment]
    return position


def summary(position: ai.Position) -> tuple:
    """Everything a position holds (hands as multisets: their order means nothing)."""
    return (
        tuple(tuple(sorted(hand)) for hand in position.hands),
        tuple(tuple(mat) for mat in position.mats),
        tuple(position.deck),
        tuple(position.discard),
        tuple(position.positions),
        tuple(position.escaped),
        tuple(position.turns),
        tuple(position.placed),
        position.turn,
        position.winner,
    )


def hidden(state: HorizonState, seat: int) -> tuple[list[str], list[tuple[int, int]]]:
    """The cards `seat` cannot see in a full state, and the mat places among them."""
    slots = [
        (mat, index)
        for mat in (0, 1)
        for index, slot in enumerate(state.mats[mat])
        if slot is not None and not slot.face_up and seat not in slot.known
    ]
    cards = list(state.hands[1 - seat]) + [state.mats[m][i].card for m, i in slots] + list(state.deck)  # type: ignore[union-attr]
    return cards, slots


def refill(state: HorizonState, seat: int, cards: list[str], seed: int | None) -> HorizonState:
    """`state` with its hidden places (other hand, unknown face-down cards, deck) filled from `cards`, in order."""
    _, slots = hidden(state, seat)
    hand_size, deck_size = len(state.hands[1 - seat]), len(state.deck)
    hand, on_mats, deck = cards[:hand_size], cards[hand_size : hand_size + len(slots)], cards[hand_size + len(slots) :]
    assert len(deck) == deck_size
    mats = [list(state.mats[0]), list(state.mats[1])]
    for (mat, index), card in zip(slots, on_mats, strict=True):
        mats[mat][index] = replace(mats[mat][index], card=card)  # type: ignore[type-var]
    hands = [state.hands[0], state.hands[1]]
    hands[1 - seat] = tuple(hand)
    return replace(state, hands=tuple(hands), mats=tuple(tuple(m) for m in mats), deck=tuple(deck), seed=seed)  # type: ignore[arg-type]


def shuffled_hidden(state: HorizonState, seat: int, rng: random.Random) -> HorizonState:
    """The hidden cards moved among the hidden places (a Swap kept off the mats), and another seed."""
    cards, slots = hidden(state, seat)
    while True:
        rng.shuffle(cards)
        hand_size = len(state.hands[1 - seat])
        if "SW" not in cards[hand_size : hand_size + len(slots)]:
            return refill(state, seat, cards, rng.randrange(10**9))


def other_cards(state: HorizonState, seat: int, rng: random.Random) -> HorizonState:
    """The hidden places filled with arbitrary cards (not even the right multiset), and another seed."""
    cards, _ = hidden(state, seat)
    return refill(state, seat, [rng.choice(ai.CODES[:17]) for _ in cards], rng.randrange(10**9))


def race(
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    positions: tuple[int, int],
    mats: tuple[tuple[Slot | None, ...], tuple[Slot | None, ...]] = ((None,) * 8, (None,) * 8),
) -> HorizonState:
    """A race position with these hands, tokens and mats, the rest of the 36 cards in the deck."""
    on_mats = [slot.card for mat in mats for slot in mat if slot is not None]
    rest = Counter(DECK) - Counter(hands[0] + hands[1] + tuple(on_mats))
    deck = tuple(random.Random(2).sample(sorted(rest.elements()), rest.total()))
    start = HORIZON.new(2, 11, first=0)
    return replace(start, hands=hands, deck=deck, mats=mats, positions=positions, placed=(3, 3), turn=0)


# --- the model agrees with the engine ---------------------------------------------------------------


def test_card_ids_follow_the_engine():
    assert sorted(Counter(DECK).items()) == sorted(Counter(ai.CODES[c] for c in range(18) for _ in range(2)).items())
    assert Counter(DECK) == Counter({code: 2 for code in ai.CODES})


def test_legal_moves_and_apply_match_the_engine():
    for before, move, after in random_games():
        position = full_position(before)
        legal = HORIZON.legal_moves(before)
        assert [ai.notation(m) for m in ai.MODEL.legal(position)] == legal
        chosen = next(m for m in ai.MODEL.legal(position) if ai.notation(m) == move)
        assert summary(ai.MODEL.apply(position, chosen)) == summary(full_position(after))


def test_every_move_of_the_tree_and_the_playouts_is_legal_for_the_engine():
    rng = random.Random(3)
    for state in sample(5):
        seat = state.turn
        assert seat is not None
        view = HORIZON.view(state, seat)
        position = ai.MODEL.determinize(view, seat, rng)
        legal = set(HORIZON.legal_moves(view))
        offered = [ai.MODEL.notation(position, m) for m in ai.MODEL.moves(position)]
        assert offered and set(offered) <= legal
        assert ai.notation(ai.MODEL.rollout_move(position, rng)) in legal


def test_playouts_end_with_values_for_both_seats():
    rng = random.Random(4)
    for state in sample(7):
        seat = state.turn
        assert seat is not None
        position = ai.MODEL.determinize(HORIZON.view(state, seat), seat, rng)
        values = ai.MODEL.playout(position, rng)
        assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)
        assert abs(sum(values) - 1.0) < 1e-9


# --- determinization ---------------------------------------------------------------------------------


def test_a_determinization_is_a_full_game_consistent_with_the_view():
    rng = random.Random(5)
    for state in sample(3):
        seat = state.turn
        assert seat is not None
        view = HORIZON.view(state, seat)
        position = ai.MODEL.determinize(view, seat, rng)
        cards = (
            position.hands[0]
            + position.hands[1]
            + position.deck
            + position.discard
            + [(v & ai.CARD_BITS) - 1 for mat in position.mats for v in mat if v]
        )
        assert Counter(ai.CODES[c] for c in cards) == Counter(DECK)
        assert [ai.CODES[c] for c in position.hands[seat]] == list(view.hands[seat])
        assert len(position.hands[1 - seat]) == len(view.hands[1 - seat])
        assert len(position.deck) == len(view.deck)
        for mat in (0, 1):
            for slot, value in zip(view.mats[mat], position.mats[mat], strict=True):
                assert (slot is None) == (value == 0)
                if slot is not None:
                    card = ai.CODES[(value & ai.CARD_BITS) - 1]
                    assert card != "SW"  # a Swap never lies on a mat
                    if slot.card != HIDDEN:
                        assert card == slot.card
        assert position.positions == list(state.positions) and position.turn == seat


def test_determinizations_ignore_the_hidden_parts_and_the_seed():
    """The view, the true state and states with other hidden cards give the same determinizations."""
    scrambler = random.Random(6)
    for state in sample(4):
        seat = state.turn
        assert seat is not None
        inputs = [
            HORIZON.view(state, seat),
            state,
            shuffled_hidden(state, seat, scrambler),
            other_cards(state, seat, scrambler),
        ]
        draws = []
        for given in inputs:
            rng = random.Random(99)
            draws.append([summary(ai.MODEL.determinize(given, seat, rng)) for _ in range(3)])
        assert all(draw == draws[0] for draw in draws)


def test_the_hidden_cards_are_resampled_each_time():
    state = next(s for s in sample(1) if not s.setup and len(s.deck) > 5)
    seat = state.turn
    assert seat is not None
    rng = random.Random(7)
    decks = {tuple(ai.MODEL.determinize(HORIZON.view(state, seat), seat, rng).deck) for _ in range(20)}
    assert len(decks) > 1
    dice = {ai.MODEL.determinize(HORIZON.view(state, seat), seat, rng).rng.random() for _ in range(20)}
    assert len(dice) > 1  # a fresh generator for the dice every time


def test_cards_the_seat_placed_on_the_other_mat_stay_what_they_are():
    mats = ((None,) * 8, (Slot("B4", 0, frozenset({0})), Slot("F1", 1, frozenset({1})), *(None,) * 6))
    state = race((("T1", "T2", "T3"), ("T4", "T5", "T6")), (0, 0), mats)
    rng = random.Random(8)
    seen = set()
    for _ in range(20):
        position = ai.MODEL.determinize(HORIZON.view(state, 0), 0, rng)
        assert ai.CODES[(position.mats[1][0] & ai.CARD_BITS) - 1] == "B4"
        seen.add(ai.CODES[(position.mats[1][1] & ai.CARD_BITS) - 1])
    assert len(seen) > 1  # the card the other seat placed is sampled


def test_a_view_that_does_not_add_up_is_refused_without_naming_a_card():
    state = sample(1)[10]
    seat = state.turn
    assert seat is not None
    view = HORIZON.view(state, seat)
    broken = replace(view, discard=(*view.discard, *("F4",) * 3))
    with pytest.raises(ValueError) as caught:
        ai.MODEL.determinize(broken, seat, random.Random(1))
    message = str(caught.value)
    assert not any(code in message.upper().split() for code in ai.CODES)


# --- the search --------------------------------------------------------------------------------------


def test_think_returns_a_legal_move_within_its_budget_and_repeats_with_the_seed():
    for state in sample(23):
        seat = state.turn
        assert seat is not None
        view = HORIZON.view(state, seat)
        choice = think("horizon", view, seat, LEVEL, 1234)
        assert choice.move in HORIZON.legal_moves(state)
        assert choice.iterations <= LEVEL.iterations
        assert think("horizon", view, seat, LEVEL, 1234).move == choice.move


def test_scrambled_hidden_parts_never_change_the_move():
    scrambler = random.Random(9)
    for state in sample(13):
        seat = state.turn
        assert seat is not None
        if len(HORIZON.legal_moves(state)) == 1:
            continue
        move = think("horizon", HORIZON.view(state, seat), seat, LEVEL, 77).move
        assert think("horizon", state, seat, LEVEL, 77).move == move
        assert think("horizon", shuffled_hidden(state, seat, scrambler), seat, LEVEL, 77).move == move
        assert think("horizon", other_cards(state, seat, scrambler), seat, LEVEL, 77).move == move


def test_the_normal_level_is_cheap_and_the_budgets_scale():
    assert ai.MODEL.iterations["easy"] < ai.MODEL.iterations["normal"] < ai.MODEL.iterations["hard"]


# --- greedy ------------------------------------------------------------------------------------------


def test_greedy_plays_legal_moves():
    rng = random.Random(10)
    for state in sample(4):
        seat = state.turn
        assert seat is not None
        assert ai.greedy(HORIZON.view(state, seat), seat, rng) in HORIZON.legal_moves(state)


def test_greedy_takes_an_escape_in_reach():
    """From 7, Forward 1 on space 8 escapes on a roll of 1 or 3 (3 overshoots onto 8): the obvious play."""
    state = race((("B1", "F1", "T2"), ("B2", "B3", "B4")), (7, 0))
    for seed in range(5):
        assert ai.greedy(HORIZON.view(state, 0), 0, random.Random(seed)) == "place F1 me:8"


def test_greedy_hurts_the_other_token_when_it_cannot_help_its_own():
    """Nothing in the hand helps my token on 0, but Move To 1 where the other token (on 7) lands is a blow."""
    state = race((("B1", "T1", "B2"), ("F2", "F3", "F4")), (0, 7))
    assert ai.greedy(HORIZON.view(state, 0), 0, random.Random(1)) == "place T1 opp:8"


def test_the_model_sees_the_same_obvious_gain():
    state = race((("B1", "F1", "T2"), ("B2", "B3", "B4")), (7, 0))
    position = ai.MODEL.determinize(HORIZON.view(state, 0), 0, random.Random(1))
    assert ai.notation(max(ai.MODEL.scored(position))[1]) == "place F1 me:8"
