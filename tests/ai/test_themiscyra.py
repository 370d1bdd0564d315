"""The Themiscyra model (bot/ai/themiscyra.py) against the engine: same turns, same positions after them,
legal and repeatable choices from `think`, and a greedy player that takes an obvious win."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai import Level, think
from bot.ai import themiscyra as ai
from bot.games.themiscyra import THEMISCYRA, ThemiscyraState, parse_turn

MODEL = ai.MODEL
QUICK = Level("test", 30, None)
"""A small iteration budget and no clock: the choice depends on the seed alone."""


def random_positions(seed: int) -> list[ThemiscyraState]:
    """Every position of one seeded random game, the finished one included."""
    rng = random.Random(seed)
    state = THEMISCYRA.new(2, seed)
    found = [state]
    while state.turn is not None:
        state = THEMISCYRA.play(state, rng.choice(THEMISCYRA.legal_moves(state)))
        found.append(state)
    return found


POSITIONS = [state for seed in range(3) for state in random_positions(seed)]


def as_move(text: str) -> ai.Move:
    turn = parse_turn(text)
    return (turn.stones[0], turn.stones[1], turn.start, turn.end)


def test_the_model_lists_exactly_the_engines_turns_and_knows_when_a_seat_can_move():
    for state in POSITIONS:
        position = MODEL.determinize(state, state.turn or 0, random.Random(0))
        listed = [MODEL.notation(position, move) for move in ai.all_turns(position)]
        assert len(listed) == len(set(listed))
        assert set(listed) == set(THEMISCYRA.legal_moves(state))
        assert ai.can_move(position) == THEMISCYRA.can_move(state)


def test_the_tree_only_sees_legal_turns():
    for state in POSITIONS[::3]:
        if state.turn is None:
            continue
        position = MODEL.determinize(state, state.turn, random.Random(0))
        legal = set(THEMISCYRA.legal_moves(state))
        offered = [MODEL.notation(position, move) for move in MODEL.moves(position)]
        assert offered
        assert set(offered) <= legal
        drawn = ai.random_turns(position, random.Random(1), 20)
        assert {MODEL.notation(position, move) for move in drawn} <= legal


def test_apply_matches_the_engines_play():
    rng = random.Random(7)
    for state in POSITIONS:
        if state.turn is None:
            continue
        position = MODEL.determinize(state, state.turn, rng)
        legal = THEMISCYRA.legal_moves(state)
        for text in rng.sample(legal, min(3, len(legal))):
            after = THEMISCYRA.play(state, text)
            assert MODEL.notation(position, as_move(text)) == text
            assert MODEL.apply(position, as_move(text)) == MODEL.determinize(after, 0, rng)


def test_the_evaluation_is_a_chance_per_seat():
    for state in POSITIONS:
        values = MODEL.evaluate(MODEL.determinize(state, 0, random.Random(0)))
        assert len(values) == 2
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
        if state.winner is not None:
            assert values[state.winner] == 1.0


@pytest.mark.parametrize("index", [0, 5, 9, 20, 30])
def test_think_returns_a_legal_turn_and_the_same_seed_the_same_turn(index):
    states = [s for s in POSITIONS if s.turn is not None]
    state = states[index % len(states)]
    first = think("themiscyra", THEMISCYRA.view(state, state.turn), state.turn, QUICK, seed=11)
    again = think("themiscyra", THEMISCYRA.view(state, state.turn), state.turn, QUICK, seed=11)
    assert first.move in THEMISCYRA.legal_moves(state)
    assert first.iterations <= QUICK.iterations
    assert again.move == first.move


def test_nothing_is_hidden_so_what_the_view_says_besides_the_board_does_not_matter():
    state = next(s for s in POSITIONS if not s.setup and s.turn is not None)
    scrambled = replace(state, events=("noise",), last=None, last_seat=None, ply=999)
    first = think("themiscyra", state, state.turn, QUICK, seed=3)
    other = think("themiscyra", scrambled, state.turn, QUICK, seed=3)
    assert first.move == other.move


ONE_CUT_WINS = """
10 b w b w B W B W B W
 9 w b w b w b w b w b
 8 b w b w b w b w b w
 7 w b w b w b w b w b
 6 b w b w b w b w b w
 5 w b w b w b W b w b
 4 b w b w b . . w b w
 3 . . . . . w b w b w
 2 . . . . . b w b w b
 1 B . . . . w b w b w
"""
"""White's only live ring (g5) reaches the open area through f4 and g4 alone: stones there shut it in."""


def picture(text: str) -> ThemiscyraState:
    black, white, rings = [], [], []
    for line in text.strip().splitlines():
        row, *cells = line.split()
        for col, cell in zip("abcdefghij", cells, strict=True):
            name = f"{col}{row}"
            (black if cell in "bB" else white if cell in "wW" else []).append(name)
            if cell in "BW":
                rings.append(name)
    return THEMISCYRA.state_from_position(" ".join(black), " ".join(white), " ".join(rings), 0)


def test_greedy_shuts_the_opponents_last_ring_in():
    state = picture(ONE_CUT_WINS)
    for seed in range(3):
        move = ai.greedy(THEMISCYRA.view(state, 0), 0, random.Random(seed))
        assert move == "f4 g4 a1>f4"
    assert THEMISCYRA.play(state, "f4 g4 a1>f4").winner == 0


def test_think_takes_the_immediate_win_too():
    state = picture(ONE_CUT_WINS)
    assert think("themiscyra", state, 0, QUICK, seed=5).move == "f4 g4 a1>f4"


def test_greedy_returns_legal_turns():
    rng = random.Random(2)
    for state in POSITIONS[::4]:
        if state.turn is None:
            continue
        assert ai.greedy(THEMISCYRA.view(state, state.turn), state.turn, rng) in THEMISCYRA.legal_moves(state)
