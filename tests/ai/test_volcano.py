"""Tests for the Volcano computer player (bot/ai/volcano.py): the model agrees with the engine, the search
returns legal, repeatable moves, the seed (the only hidden part) cannot change them, and greedy is greedy.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai import Level, think
from bot.ai.volcano import MODEL, Position, from_state, greedy, turns_of
from bot.games.volcano import VOLCANO, VolcanoState

BUDGET = Level("test", 40, None)
"""A small iteration budget and no clock, so every choice depends on the seed alone."""


def key(position: Position) -> tuple:
    """What a position means for the game (not the search's caches)."""
    seen = position.seen if position.turn is not None else None
    return position.board, position.caps, position.held, position.scores, position.turn, seen, position.winners


def random_positions(seeds: range, plies: int, seats: int = 2) -> list[VolcanoState]:
    """Positions met along seeded random games, each with a seat to move (mid-turn ones included)."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = VOLCANO.new(seats, seed)
        for _ in range(plies):
            if VOLCANO.to_move(state) is None:
                break
            found.append(state)
            state = VOLCANO.play(state, rng.choice(VOLCANO.legal_moves(state)))
    return found


@pytest.mark.parametrize("seats", [1, 2, 3, 6])
def test_model_turns_are_legal_and_apply_like_the_engine(seats: int) -> None:
    for state in random_positions(range(3), 30, seats)[::3]:
        position = from_state(VOLCANO.view(state, state.turn))
        assert key(position) == key(from_state(state))
        moves = MODEL.moves(position)
        every = list(turns_of(position, 400).values()) or moves
        assert moves and len(set(every)) == len(every) and set(moves) <= set(every)
        for move in every:
            text = MODEL.notation(position, move)
            after = VOLCANO.play(state, text)  # raises IllegalMove if the engine refuses the turn
            assert key(MODEL.apply(position, move)) == key(from_state(after)), text


def test_every_eruption_step_from_the_start_is_offered() -> None:
    """The turns include every eruption the engine allows as a single step (none is lost to the search)."""
    for state in random_positions(range(4), 30):
        position = from_state(state)
        turns = list(turns_of(position, 400).values())
        single = {MODEL.notation(position, t) for t in turns if len(t) == 1}
        for move in VOLCANO.legal_moves(state):
            after = VOLCANO.play(state, move)
            if after.turn != state.turn or after.end is not None:  # the step ended the turn: it erupted
                effect = key(from_state(after))
                assert move in single or any(key(MODEL.apply(position, t)) == effect for t in turns), move


def test_turns_reach_eruptions_several_steps_away() -> None:
    """With caps on empty squares far from the stacks, a turn needs quiet steps before it can erupt."""
    state = VOLCANO.state_from_position({"e5": "R1R2R3", "e3": "G3", "a3": "Y1Y2B1B2C1C2"}, "a1 b1 c1 d1 e1")
    turns = list(turns_of(from_state(state), 400).values())
    assert turns and min(len(t) for t in turns) >= 3
    for turn in turns[:10]:
        after = VOLCANO.play(state, MODEL.notation(from_state(state), turn))
        assert after.turn == 1


def test_think_returns_a_legal_repeatable_move() -> None:
    for state in random_positions(range(5, 8), 24)[::6]:
        view = VOLCANO.view(state, state.turn)
        first = think("volcano", view, state.turn, BUDGET, 7)
        assert first.iterations <= BUDGET.iterations
        VOLCANO.play(state, first.move)
        again = think("volcano", view, state.turn, BUDGET, 7)
        assert again.move == first.move


def test_mid_turn_and_other_seat_counts() -> None:
    """The computer plays on from a turn begun step by step, and in games of 1, 3 and 6 seats."""
    for seats in (1, 3, 6):
        state = VOLCANO.new(seats, 11)
        for _ in range(3):
            choice = think("volcano", VOLCANO.view(state, state.turn), state.turn, BUDGET, 1)
            state = VOLCANO.play(state, choice.move)
    quiet = VOLCANO.state_from_position(
        {"e5": "R1R2R3", "e3": "G3", "a3": "Y1Y2B1B2C1C2"}, "a1 b1 c1 d1 e1", steps=("a2-a1",), seen=("a2 b1 c1 d1 e1",)
    )
    choice = think("volcano", quiet, 0, BUDGET, 3)
    assert VOLCANO.play(quiet, choice.move).turn == 1


def test_the_seed_is_ignored() -> None:
    """Nothing is hidden but the seed: scrambling it in the view cannot change the move."""
    for state in random_positions(range(20, 23), 16)[::5]:
        view = VOLCANO.view(state, state.turn)
        moves = {
            think("volcano", dataclasses.replace(view, seed=seed), state.turn, BUDGET, 5).move
            for seed in (None, 1, 987654321)
        }
        assert len(moves) == 1


def test_evaluate_judges_the_lead_and_the_end() -> None:
    state = VOLCANO.state_from_position({"c3": "R1R2R3"}, "a1 b1 c1 d1 e1", captures=("R1R2R3", "G1"))
    values = MODEL.evaluate(from_state(state))
    assert values[0] > 0.5 > values[1] and all(0 <= v <= 1 for v in values)
    over = from_state(dataclasses.replace(state, turn=None, end="a player holds every colour"))
    assert tuple(MODEL.evaluate(over)) == (1.0, 0.0)


def test_greedy_plays_legal_moves() -> None:
    rng = random.Random(4)
    for state in random_positions(range(30, 33), 30):
        assert greedy(VOLCANO.view(state, state.turn), state.turn, rng) in VOLCANO.legal_moves(state)


def test_greedy_takes_the_biggest_capture() -> None:
    """b2-c3 erupts b2 onto d4 and e5: a large on a large and a medium on a medium, two points; no other
    step captures anything."""
    state = VOLCANO.state_from_position(
        {"b2": "R1R2R3", "d4": "G3", "e5": "B2", "d1": "Y1C1C3", "a2": "G1B1"},
        "b2 a5 e1 a4 b5",
        captures=("", "Y1"),
    )
    for seed in range(5):
        assert greedy(VOLCANO.view(state, 0), 0, random.Random(seed)) == "b2-c3"
