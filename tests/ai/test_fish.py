"""Tests for the "1, 2, 3" computer player (bot/ai/fish.py): the model against the engine, the search's
answers (legal, repeatable, blind to the hidden seed) and the greedy opponent."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai import Level, think
from bot.ai.fish import BIT, MODEL, FishPos, greedy
from bot.games.fish import FISH, TILES, FishState
from tests.games.fish_positions import BACKGROUND, position

QUICK = Level("test", 150, None)
"""An iteration budget and no clock, so choices depend on the seed alone."""


def random_positions(games: int, every: int = 1) -> list[FishState]:
    """Positions (the game not over) of seeded random games, both seats moving first."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = FISH.new(2, seed, first=seed % 2)
        ply = 0
        while FISH.to_move(state) is not None:
            if ply % every == 0:
                found.append(state)
            state = FISH.play(state, rng.choice(FISH.legal_moves(state)))
            ply += 1
    return found


def assert_same(pos: FishPos, state: FishState) -> None:
    """The model's position says what the engine's state says."""
    assert pos.tokens == (tuple(sorted(state.tokens[0])), tuple(sorted(state.tokens[1])))
    assert pos.scores == state.scores
    assert pos.turn == state.turn
    assert pos.placed == state.placed
    assert pos.alive == sum(BIT[t] for t in range(TILES) if state.values[t])


def test_model_moves_are_the_engines_legal_moves_and_apply_matches_play():
    """Whole seeded random games: at every ply the same moves, and the same position after each."""
    for seed in range(40):
        rng = random.Random(seed)
        state = FISH.new(2, seed, first=seed % 2)
        pos = MODEL.determinize(FISH.view(state, state.turn), state.turn, rng)
        while state.turn is not None:
            moves = MODEL.moves(pos)
            texts = [MODEL.notation(pos, m) for m in moves]
            assert sorted(texts) == sorted(FISH.legal_moves(state))
            assert len(set(moves)) == len(moves)
            move = rng.choice(moves)
            state = FISH.play(state, MODEL.notation(pos, move))
            pos = MODEL.apply(pos, move)
            assert_same(pos, state)
            assert MODEL.to_move(pos) == FISH.to_move(state)


ISLAND = dict(BACKGROUND, D2=1, E2=1, F2=3, G1=1, G2=1, H1=2, H2=2)
"""The seed's island G1 G2 H1 H2, joined to the background rows through F2-E2-D2 (fish.md example)."""


@pytest.mark.parametrize(
    ("mine", "theirs", "turn", "move"),
    [
        (["F2", "A8"], ["A1"], 0, "F2-G2"),  # cutting oneself off: the island is solved (+6)
        (["G2", "A8"], ["F2", "A1"], 1, "F2-E2"),  # the opponent cuts it off
        (["F2", "A8"], ["H2", "A1"], 0, "F2-G2"),  # both players on it: not solved
    ],
)
def test_apply_settles_islands_like_the_engine(mine, theirs, turn, move):
    state = position(ISLAND, mine, theirs, turn=turn)
    pos = FishPos.from_state(state)
    code = next(m for m in MODEL.moves(pos) if MODEL.notation(pos, m) == move)
    assert_same(MODEL.apply(pos, code), FISH.play(state, move))


def test_playouts_give_values_per_seat_in_range():
    rng = random.Random(5)
    for state in random_positions(4, every=3):
        values = MODEL.playout(MODEL.determinize(state, state.turn, rng), rng)
        assert len(values) == 2 and all(0.0 <= v <= 1.0 for v in values)


def test_think_returns_a_legal_move_within_its_budget_and_repeats_with_the_seed():
    for state in random_positions(3, every=7):
        seat = FISH.to_move(state)
        view = FISH.view(state, seat)
        choice = think("fish", view, seat, QUICK, seed=11)
        assert choice.move in FISH.legal_moves(state)
        assert choice.iterations <= QUICK.iterations
        assert think("fish", view, seat, QUICK, seed=11).move == choice.move


def test_the_hidden_seed_does_not_change_the_move():
    """The seed is the game's only secret: a view carrying any other seed gets the same move."""
    for state in random_positions(2, every=9):
        seat = FISH.to_move(state)
        view = FISH.view(state, seat)
        scrambled = dataclasses.replace(view, seed=987654321)
        assert think("fish", scrambled, seat, QUICK, seed=3).move == think("fish", view, seat, QUICK, seed=3).move


def test_greedy_plays_legal_moves():
    rng = random.Random(2)
    for state in random_positions(3, every=2):
        seat = FISH.to_move(state)
        assert greedy(FISH.view(state, seat), seat, rng) in FISH.legal_moves(state)


def test_greedy_grabs_the_most_fish():
    """Leaving the 3-tile onto a 2-tile beats every move of the token on a 1-tile."""
    tiles = dict(BACKGROUND, E4=3, E5=2, E6=1, H1=1, H2=1, G1=1, G2=1)
    state = position(tiles, ["E4", "G1"], ["A1"])
    for seed in range(5):
        assert greedy(FISH.view(state, 0), 0, random.Random(seed)) == "E4-E5"


def test_greedy_places_next_to_the_most_fish():
    values = ["1"] * 30 + ["2"] * 20 + ["3"] * 10  # rows A-D 1s, E-F and G1-G5 2s, G6-G8 and H 3s
    state = FISH.new(2, 0, board="".join(values))
    # D2..D6 touch four 1-tiles and two 2-tiles of row E (8 fish); every other 1-tile touches fewer.
    for seed in range(5):
        assert greedy(FISH.view(state, 0), 0, random.Random(seed)) in {"D2", "D3", "D4", "D5", "D6"}
