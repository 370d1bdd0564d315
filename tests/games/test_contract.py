"""The game contract of shared/DESIGN.md, checked for every engine in GAMES (later games join automatically).

Only the contract is used here: new, to_move, legal_moves, play, outcome, dumps/loads, view, events.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES, BadOptions, Game, IllegalMove, Outcome

ALL = [GAMES[key] for key in sorted(GAMES)]
each_game = pytest.mark.parametrize("game", ALL, ids=[g.key for g in ALL])
MAX_PLIES = 5000
LONG_GAMES = {"geyser": 100_000}
"""Uniformly random Geyser players wander for tens of thousands of plies before one reaches the Mother."""
FUZZ = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def seat_counts(game: Game) -> range:
    return range(game.min_players, game.max_players + 1)


def random_moves(game: Game, state, rng: random.Random, plies: int):
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


def midgame(game: Game, seed: int = 1, plies: int = 12):
    return random_moves(game, game.new(game.min_players, seed), random.Random(seed), plies)


def test_registry_holds_the_fish_engine():
    assert "fish" in GAMES


@each_game
def test_identity_and_seat_limits_are_declared(game):
    assert isinstance(game, Game)
    assert GAMES[game.key] is game
    assert isinstance(game.title, str) and game.title
    assert isinstance(game.min_players, int) and isinstance(game.max_players, int)
    assert 1 <= game.min_players <= game.max_players


@each_game
def test_new_works_for_every_allowed_seat_count(game):
    for seats in seat_counts(game):
        state = game.new(seats, 0)
        assert game.to_move(state) in range(seats)
        assert game.legal_moves(state)
        assert game.outcome(state) is None


@each_game
def test_seat_counts_outside_the_limits_are_refused(game):
    for seats in {0, game.min_players - 1, game.max_players + 1, game.max_players + 5} - {*seat_counts(game)}:
        with pytest.raises(BadOptions):
            game.new(seats, 0)
        with pytest.raises(ValueError):
            game.new(seats, 0)


@each_game
def test_unknown_options_are_refused(game):
    with pytest.raises(BadOptions, match="no_such_option"):
        game.new(game.min_players, 0, no_such_option=1)


@each_game
def test_same_seed_and_moves_give_the_same_game(game):
    for seats in seat_counts(game):
        for seed in (0, 1, 99):
            a = random_moves(game, game.new(seats, seed), random.Random(seed), 20)
            b = random_moves(game, game.new(seats, seed), random.Random(seed), 20)
            assert game.dumps(a) == game.dumps(b)


def check_state(game: Game, state, seats: int) -> None:
    """Round trip, views and, while running, the seat to move and its moves."""
    text = game.dumps(state)
    assert isinstance(text, str)
    assert game.dumps(game.loads(text)) == text
    for viewer in (None, *range(seats)):
        assert game.view(state, viewer) is not None
    for event in game.events(state):
        event.format(*(f"player{seat}" for seat in range(seats)))
    seat = game.to_move(state)
    if seat is None:
        assert game.legal_moves(state) == []
        return
    assert seat in range(seats)
    assert game.outcome(state) is None
    moves = game.legal_moves(state)
    assert moves and all(isinstance(m, str) for m in moves)
    assert len(set(moves)) == len(moves)


@each_game
@pytest.mark.parametrize("seed", range(4))
def test_random_play_reaches_an_outcome(game, seed):
    """Like OpenSpiel's random_sim_test: random legal moves until the game ends."""
    rng = random.Random(seed)
    for seats in seat_counts(game):
        state = game.new(seats, seed)
        for ply in range(LONG_GAMES.get(game.key, MAX_PLIES)):
            if ply < MAX_PLIES:
                check_state(game, state, seats)
            if game.to_move(state) is None:
                break
            moves = game.legal_moves(state)
            if seed == 0 and ply < MAX_PLIES:  # every listed move is accepted (200 spread over thousands)
                for move in moves[:: max(1, len(moves) // 200)]:
                    game.play(state, move)
            state = game.play(state, rng.choice(moves))
        else:
            pytest.fail(f"no end after {LONG_GAMES.get(game.key, MAX_PLIES)} plies")
        outcome = game.outcome(state)
        assert isinstance(outcome, Outcome)
        assert len(outcome.scores) == seats
        assert outcome.winners <= frozenset(range(seats))
        assert isinstance(outcome.reason, str) and outcome.reason
        assert game.outcome(game.loads(game.dumps(state))) == outcome


TARGETED = [
    "",
    " ",
    "A",
    "Z9",
    "A1-A1",
    "A9",
    "place",
    "place ",
    "d4--f3",
    "\x00",
    "\n",
    "-",
    "A1-",
    "-A1",
    "A1-B2-C3",
    "A-1",
    "1A",
    "A01",
    "A100",
    "a١",  # an Arabic-Indic digit one
    "ſ1",  # long s, which folds to "s" case-insensitively
    "K1",  # the Kelvin sign, which folds to "k"
    "İ1",
    "A1\x00",
    "{0}",
    "%s",
    "x" * 100_000,
    "A1-" * 1000,
    " " * 2000 + "A1",
]


def refuses_cleanly(game: Game, state, text: str) -> None:
    """`play` either accepts the text or raises IllegalMove; the state itself is untouched."""
    before = game.dumps(state)
    try:
        game.play(state, text)
    except IllegalMove as error:
        assert str(error)
    assert game.dumps(state) == before
    if game.to_move(state) is not None:
        game.play(state, game.legal_moves(state)[0])


@each_game
@pytest.mark.parametrize("text", TARGETED, ids=range(len(TARGETED)))
def test_targeted_text_is_a_move_or_an_illegal_move(game, text):
    refuses_cleanly(game, game.new(game.min_players, 0), text)
    refuses_cleanly(game, midgame(game), text)


MOVE_LIKE = st.from_regex(r"\s?(place )?[A-Za-z]?\d{0,3}\s?[-–>to ]{0,3}\s?[A-Za-z]?\d{0,3}\s?", fullmatch=True)


@each_game
@FUZZ
@given(text=st.one_of(st.text(), MOVE_LIKE))
def test_any_text_on_a_fresh_game_is_a_move_or_an_illegal_move(game, text):
    refuses_cleanly(game, game.new(game.min_players, 0), text)


@each_game
@FUZZ
@given(text=st.one_of(st.text(), MOVE_LIKE), seed=st.integers(0, 3), plies=st.integers(0, 40))
def test_any_text_mid_game_is_a_move_or_an_illegal_move(game, text, seed, plies):
    state = random_moves(game, game.new(game.min_players, seed), random.Random(seed), plies)
    refuses_cleanly(game, state, text)
