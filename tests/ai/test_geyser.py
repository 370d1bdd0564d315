"""Tests for the Geyser computer player (bot/ai/geyser.py): the model agrees with the engine, the search
returns legal, repeatable moves that do not depend on the hidden seed, and the greedy player is honest."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.ai import LEVELS, think
from bot.ai import geyser as ai
from bot.games.geyser import GEYSER, GeyserState, parse_square

MODEL = ai.MODEL
BUDGET = dataclasses.replace(LEVELS["easy"], iterations=40, seconds=None)


def random_positions(
    games: int, plies: int, players: int | None = None, policy: str = "random", **options: object
) -> list[GeyserState]:
    """Positions of seeded games (2 to 4 seats) played by random or greedy players."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GEYSER.new(players or 2 + seed % 3, seed, **options)
        for _ in range(plies):
            if GEYSER.to_move(state) is None:
                break
            found.append(state)
            seat = GEYSER.to_move(state)
            if policy == "greedy":
                move = ai.greedy(GEYSER.view(state, seat), seat, rng)
            else:
                move = rng.choice(GEYSER.legal_moves(state))
            state = GEYSER.play(state, move)
        found.append(state)
    return found


@pytest.fixture(scope="module")
def positions() -> list[GeyserState]:
    capped = random_positions(6, 400, rounds=10) + random_positions(3, 200, players=2, rounds=10, starts="four")
    return random_positions(9, 150) + random_positions(12, 120, policy="greedy") + capped


def test_the_positions_reach_the_round_cap(positions):
    ends = {s.end for s in positions if GEYSER.to_move(s) is None}
    assert "the most geysers after 10 rounds" in ends and "the most geysers after 10 rounds, shared" in ends


def test_move_generator_is_the_engines(positions):
    for state in positions:
        p = ai.from_state(state)
        assert sorted(ai.notation(m) for m in ai.legal(p)) == sorted(GEYSER.legal_moves(state))
        assert MODEL.to_move(p) == state.turn


def test_tree_moves_are_legal_and_never_empty(positions):
    for state in positions:
        p = ai.from_state(state)
        moves = MODEL.moves(p)
        legal = set(GEYSER.legal_moves(state))
        assert {MODEL.notation(p, m) for m in moves} <= legal
        assert bool(moves) == bool(legal)


def test_apply_matches_play(positions):
    rng = random.Random(3)
    for state in positions:
        if GEYSER.to_move(state) is None:
            continue
        p = ai.from_state(state)
        for move in ai.legal(p):
            if rng.random() < 0.3:
                after = MODEL.apply(p, move)
                assert after.key() == ai.from_state(GEYSER.play(state, ai.notation(move))).key(), ai.notation(move)
        assert p.key() == ai.from_state(state).key()  # apply never changes its input


def test_games_played_to_the_end_agree_with_the_engine():
    """Greedy games end on the Mother within a few dozen plies: firings, battles and wins all agree."""
    ended = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = GEYSER.new(2 + seed % 3, seed)
        p = ai.from_state(state)
        while GEYSER.to_move(state) is not None:
            move = ai.greedy(GEYSER.view(state, state.turn), state.turn, rng)
            p = MODEL.apply(p, next(m for m in ai.legal(p) if ai.notation(m) == move))
            state = GEYSER.play(state, move)
            assert p.key() == ai.from_state(state).key()
        ended += 1
        assert MODEL.evaluate(p) == tuple(1.0 if s == state.winner else 0.0 for s in range(state.seats))
    assert ended == 8


def test_the_model_knows_the_two_player_starting_squares():
    state = GEYSER.new(2, 5)
    p = ai.from_state(state)
    assert [ai.notation(m) for m in ai.legal(p)] == ["start f1", "start f11"]
    after = MODEL.apply(p, ai.START_BASE + parse_square("f11"))  # the other token goes on f1 in the same move
    assert after.key() == ai.from_state(GEYSER.play(state, "start f11")).key()
    assert after.board[parse_square("f1")] == 4 + 1 and after.phase == ai.PLAY
    reenter = GEYSER.state_from_position(2, {"c3": (1, 1)}, supply=(3, 10))
    assert [ai.notation(m) for m in ai.legal(ai.from_state(reenter))] == ["start f1", "start f11"]
    blocked = GEYSER.state_from_position(2, {"f1": (1, 1), "f11": (1, 1)}, supply=(3, 10))
    assert ai.legal(ai.from_state(blocked)) == [ai.PASS]
    four = GEYSER.state_from_position(2, {"c3": (1, 1)}, supply=(3, 10), starts="four")
    assert len(ai.legal(ai.from_state(four))) == 4
    three = GEYSER.state_from_position(3, {"c3": (1, 1), "h9": (2, 1)}, supply=(3, 10, 11))
    assert len(ai.legal(ai.from_state(three))) == 4


def last_turn(tokens: dict[str, tuple[int, int]], seats: int = 2) -> GeyserState:
    """Seat 0 plays the last turn of round 100 of 100."""
    return GEYSER.state_from_position(seats, tokens, turn=0, first=1 % seats, order=(0,), round=100)


@pytest.mark.parametrize(
    ("tokens", "seats", "values"),
    [
        ({"c3": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (1, 1)}, 2, (1.0, 0.0)),
        ({"c3": (0, 1), "d1": (0, 1), "a8": (1, 1), "k6": (2, 1)}, 3, (0.5, 0.5, 0.0)),
        ({"c3": (0, 1), "k6": (1, 1), "f11": (2, 1)}, 3, (1 / 3, 1 / 3, 1 / 3)),
    ],
)
def test_the_model_ends_at_the_round_cap_like_the_engine(tokens, seats, values):
    state = last_turn(tokens, seats)
    for seed in range(6):  # whatever the firing destroys, the model and the engine agree on the winners
        state = dataclasses.replace(state, seed=seed)
        p = MODEL.apply(ai.from_state(state), parse_square("c3") * 128 + parse_square("c4"))
        after = GEYSER.play(state, "c3-c4")
        assert after.phase == "over" and p.key() == ai.from_state(after).key()
        share = 1 / len(after.winners)
        assert MODEL.evaluate(p) == pytest.approx(tuple(share if s in after.winners else 0 for s in range(seats)))
    quiet = dataclasses.replace(state, seed=next(s for s in range(99) if ai._die(s, 0) + ai._die(s, 1) == 7))
    step = parse_square("c3") * 128 + parse_square("c4")
    assert ai.notation(step) == "c3-c4"
    assert MODEL.evaluate(MODEL.apply(ai.from_state(quiet), step)) == pytest.approx(values)


def test_near_the_round_cap_the_judge_counts_geysers_held():
    tokens = {"d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "b9": (0, 1)}  # three geysers, far from the Mother
    tokens |= {"e5": (1, 1), "f5": (1, 1), "g5": (1, 1), "g6": (1, 1)}  # three too, and next to it...
    tokens |= {"h4": (0, 1)}  # ...but seat 0 holds a fourth
    early = GEYSER.state_from_position(2, tokens, turn=1, round=5)
    late = dataclasses.replace(early, round=100)
    assert MODEL.evaluate(ai.from_state(early))[1] > 0.5  # the race: seat 1 steps onto the Mother next
    assert MODEL.evaluate(ai.from_state(late))[0] > MODEL.evaluate(ai.from_state(early))[0]


def test_on_the_last_turn_the_computer_claims_a_geyser_instead_of_racing_to_the_mother():
    """Seat 0 holds 3 geysers and has a token two steps from the Mother; seat 1 holds 4. Early on, the
    race is worth more; on the last turn of the last round only a 4th geyser (c7, a shared win) counts."""
    tokens = {"d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "f4": (0, 1), "c6": (0, 1)}
    tokens |= {"h11": (1, 1), "j8": (1, 1), "d10": (1, 1), "b4": (1, 1), "i9": (1, 1)}
    state = last_turn(tokens)
    assert think("geyser", GEYSER.view(state, 0), 0, BUDGET, 1).move == "c6-c7"
    early = dataclasses.replace(state, round=5)
    assert think("geyser", GEYSER.view(early, 0), 0, BUDGET, 1).move == "f4-f5"


def test_evaluate_gives_shares_and_favours_the_seat_nearer_the_win():
    near = GEYSER.state_from_position(2, {"e5": (0, 1), "g5": (0, 1), "e7": (0, 1), "f5": (0, 1), "f11": (1, 1)})
    values = MODEL.evaluate(ai.from_state(near))
    assert sum(values) == pytest.approx(1.0) and values[0] > 0.8
    for state in random_positions(3, 40, players=4):
        values = MODEL.evaluate(ai.from_state(state))
        assert len(values) == 4 and sum(values) == pytest.approx(1.0) and all(0 <= v <= 1 for v in values)


def test_think_returns_a_legal_repeatable_move(positions):
    rng = random.Random(5)
    sample = [s for s in positions if GEYSER.to_move(s) is not None]
    for state in rng.sample(sample, 12):
        seat = GEYSER.to_move(state)
        view = GEYSER.view(state, seat)
        first = think("geyser", view, seat, BUDGET, 11)
        assert first.move in GEYSER.legal_moves(state)
        assert first.iterations <= BUDGET.iterations
        GEYSER.play(state, first.move)
        assert think("geyser", view, seat, BUDGET, 11).move == first.move


def test_the_hidden_seed_does_not_change_the_move(positions):
    rng = random.Random(6)
    sample = [s for s in positions if GEYSER.to_move(s) is not None]
    for state in rng.sample(sample, 8):
        seat = GEYSER.to_move(state)
        view = GEYSER.view(state, seat)
        scrambled = dataclasses.replace(view, seed=rng.getrandbits(48))
        assert think("geyser", view, seat, BUDGET, 3).move == think("geyser", scrambled, seat, BUDGET, 3).move
        assert MODEL.determinize(scrambled, seat, random.Random(1)).key() == (
            MODEL.determinize(view, seat, random.Random(1)).key()
        )


def test_determinize_samples_a_fresh_seed():
    state = GEYSER.state_from_position(2, {"c3": (0, 1), "f11": (1, 1)}, seed=99)
    view = GEYSER.view(state, 0)
    seeds = {MODEL.determinize(view, 0, random.Random(k)).seed for k in range(5)}
    assert len(seeds) == 5 and 99 not in seeds


def test_greedy_plays_legal_moves(positions):
    rng = random.Random(8)
    for state in positions:
        seat = GEYSER.to_move(state)
        if seat is not None:
            assert ai.greedy(GEYSER.view(state, seat), seat, rng) in GEYSER.legal_moves(state)


def test_greedy_takes_the_obvious_gain():
    rng = random.Random(1)
    claim = GEYSER.state_from_position(2, {"c6": (0, 1), "k6": (1, 1)})
    assert ai.greedy(GEYSER.view(claim, 0), 0, rng) == "c6-c7"  # the only step onto a geyser
    mother = GEYSER.state_from_position(2, {"d4": (0, 1), "e5": (0, 1), "g5": (0, 1), "f5": (0, 1), "k6": (1, 1)})
    assert ai.greedy(GEYSER.view(mother, 0), 0, rng) == "f5-f6"
    battle = GEYSER.state_from_position(2, {"d4": (0, 1), "h4": (0, 1), "c4": (0, 1), "b4": (1, 1), "k6": (1, 1)})
    assert ai.greedy(GEYSER.view(battle, 0), 0, rng) == "c4-b4"  # 2 geysers against 1, and it is a geyser
    placed = GEYSER.play(claim, "c6-c7")
    assert ai.greedy(GEYSER.view(placed, 0), 0, rng) == "place d6"  # the free square nearest the Mother


def test_the_computer_steps_onto_the_mother_in_a_race():
    """Both hold 3 geysers next to the Mother; seat 0 moves last in the round, so the firing comes next."""
    tokens = {"b4": (0, 1), "a8": (0, 1), "h11": (0, 1), "e6": (0, 1)}
    tokens |= {"d10": (1, 1), "j8": (1, 1), "k4": (1, 1), "g6": (1, 1)}
    state = GEYSER.state_from_position(2, tokens, turn=0, first=1, order=(0,))
    choice = think("geyser", GEYSER.view(state, 0), 0, BUDGET, 1)
    assert choice.move == "e6-f6"
