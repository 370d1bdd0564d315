"""The game contract (docs/architecture.md), checked for every engine in GAMES (later games join automatically).

Only the contract is used here: new, to_move, legal_moves, play, outcome, dumps/loads, view, events (and,
to say where a view may differ from its state, the state's fields: every engine's state is a dataclass).
"""

from __future__ import annotations

import functools
import random
from dataclasses import fields, is_dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import GAMES, BadOptions, Game, IllegalMove, Outcome, seat_leaves
from bot.games.base import GameRules

ALL = [GAMES[key] for key in sorted(GAMES)]
each_game = pytest.mark.parametrize("game", ALL, ids=[g.key for g in ALL])
MAX_PLIES = 5000
LONG_GAMES = {"geyser": 100_000}
"""Uniformly random Geyser players wander for tens of thousands of plies before one reaches the Mother."""
ACCEPTED = 60
"""How many of a position's listed moves random play checks are accepted, at least (Themiscyra lists thousands)."""
FUZZ = settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def seat_counts(game: Game) -> range:
    return range(game.min_players, game.max_players + 1)


def random_moves(game: Game, state, rng: random.Random, plies: int):
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


FUZZ_PLIES = 40
"""The most random plies into a game the mid-game tests go."""


def midgame(game: Game, seed: int = 1, plies: int = 12):
    """`random_moves(game, game.new(game.min_players, seed), random.Random(seed), plies)`, at once: each
    seed's game is played once and kept (its first `plies` positions are those of any shorter playout)."""
    assert plies <= FUZZ_PLIES
    line = _random_line(game.key, seed)
    return line[min(plies, len(line) - 1)]


@functools.cache
def _random_line(key: str, seed: int) -> tuple:
    game, rng = GAMES[key], random.Random(seed)
    line = [game.new(game.min_players, seed)]
    while len(line) <= FUZZ_PLIES and game.to_move(line[-1]) is not None:
        line.append(game.play(line[-1], rng.choice(game.legal_moves(line[-1]))))
    return tuple(line)


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


VIEW_MAY_CHANGE = {"horizon": frozenset({"hands", "mats", "deck", "seed"})}
"""The state fields a view may change, by game: what its rules hide (docs/rules/horizon.md, "Hidden
information"). Every other game hides nothing but its seed (which would foresee chance); a new game with
hidden information fails here until its hidden fields are listed."""
HIDDEN = "??"


def horizon_hides_cards(state, view, viewer: int | None) -> None:
    """Event Horizon's view writes every card `viewer` may not know as `??`, keeping the sizes: the other
    hands, the face-down cards it did not place (or swap in), the deck. Once the game is over it hides no
    card (the final board turns them face up), only the seed."""
    if GAMES["horizon"].outcome(state) is not None:
        assert view == replace(state, seed=None)
        return
    for seat, hand in enumerate(state.hands):
        assert view.hands[seat] == (hand if seat == viewer else (HIDDEN,) * len(hand))
    for real, shown in zip(
        (slot for side in state.mats for slot in side), (slot for side in view.mats for slot in side), strict=True
    ):
        visible = real is None or real.face_up or viewer in real.known
        assert shown == (real if visible else replace(real, card=HIDDEN))
    assert view.deck == (HIDDEN,) * len(state.deck)
    if any(len(hand) for seat, hand in enumerate(state.hands) if seat != viewer):
        assert view.hands != state.hands


HIDES_CARDS = {"horizon": horizon_hides_cards}


def check_view(game: Game, state, seats: int) -> None:
    """Each seat's view (None: a spectator) is a state of the game that differs from `state` only where
    the game hides something, has no seed, and tells the same public facts; the mover's view lists the same
    moves; a view of a view is the view itself."""
    assert is_dataclass(state)
    may_change = VIEW_MAY_CHANGE.get(game.key, frozenset({"seed"}))
    mover, outcome, scores, events = game.to_move(state), game.outcome(state), game.scores(state), game.events(state)
    distinct: list = []
    for viewer in (None, *range(seats)):
        view = game.view(state, viewer)
        assert type(view) is type(state)
        changed = {f.name for f in fields(state) if getattr(view, f.name) != getattr(state, f.name)}
        assert changed <= may_change, (viewer, changed - may_change)
        assert getattr(view, "seed", None) is None
        if game.key in HIDES_CARDS:
            HIDES_CARDS[game.key](state, view, viewer)
        assert game.view(view, viewer) == view
        if viewer is not None and viewer == mover and view is not state:
            assert game.legal_moves(view) == game.legal_moves(state)
        if view in distinct:  # the same view as another seat's: its public facts are checked
            continue
        distinct.append(view)
        assert game.to_move(view) == mover and game.outcome(view) == outcome
        assert game.scores(view) == scores and game.events(view) == events
        assert game.loads(game.dumps(view)) == view


def check_state(game: Game, state, seats: int) -> None:
    """Round trip, views and, while running, the seat to move and its moves."""
    text = game.dumps(state)
    assert isinstance(text, str)
    assert game.dumps(game.loads(text)) == text
    check_view(game, state, seats)
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
            if seed == 0 and ply < MAX_PLIES:  # listed moves are accepted: all, or ACCEPTED or so of thousands
                step = max(1, len(moves) // ACCEPTED)  # spread over the list, from another start each ply
                for move in moves[ply % step :: step]:
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
@given(text=st.one_of(st.text(), MOVE_LIKE), seed=st.integers(0, 3), plies=st.integers(0, FUZZ_PLIES))
def test_any_text_mid_game_is_a_move_or_an_illegal_move(game, text, seed, plies):
    refuses_cleanly(game, midgame(game, seed, plies), text)


# --- fresh chance (GameRules.reseed: a takeback's new seed, bot/move_log.py) ---


@each_game
def test_a_reseed_redraws_only_what_nobody_knows(game):
    """Every view is the same after a reseed (nothing anyone saw changes), and so are the moves; in a game
    with chance what comes next differs with the seed, and a game without chance keeps its state."""
    seats = game.min_players
    for plies in (0, 7, FUZZ_PLIES):
        state = midgame(game, 2, plies)
        again = game.reseed(state, 424_242)
        check_state(game, again, seats)
        assert game.reseed(state, 424_242) == again  # pure: the log's seed replays it
        for viewer in (None, *range(seats)):
            assert game.view(again, viewer) == game.view(state, viewer)
        assert game.legal_moves(again) == game.legal_moves(state)
        if not game.chance:
            assert again == state
            continue
        if game.to_move(state) is None:  # over: nothing is left to chance (Event Horizon shows every card)
            continue
        assert again != state
        futures = {game.dumps(random_moves(game, game.reseed(state, s), random.Random(5), 30)) for s in range(8)}
        assert len(futures) > 1


# --- declared, not discovered: every game says what it has (bot/games/base.py, GameRules) ---


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_declares_its_type(key: str) -> None:
    game = GAMES[key]
    assert isinstance(game, GameRules) and isinstance(game, Game)
    state = game.new(game.max_players, 5)
    spectator = game.view(state, None)
    hides_more_than_the_seed = any(getattr(spectator, f) != getattr(state, f) for f in fields_of(state) if f != "seed")
    assert game.hidden_information == hides_more_than_the_seed, "hidden_information says whether views hide cards"
    own = type(game).__dict__
    assert game.hidden_information == ("public_move" in own and "private_lines" in own), "they come together"
    assert game.seats_can_leave == ("resign" in type(game).__dict__) == ("seats_in" in type(game).__dict__)
    assert game.chance == (key in ("geyser", "horizon")), "dice or a deck"


@each_game
def test_legal_gives_the_legal_moves_as_values_written_back_as_their_notation(game):
    for seed in (1, 2):
        state = midgame(game, seed)
        values = game.legal(state)
        assert [game.notation(move) for move in values] == game.legal_moves(state)
        assert all(not isinstance(move, str) and hash(move) == hash(replace(move)) for move in values)
        assert game.play(state, values[0]) == game.play(state, game.legal_moves(state)[0])


@each_game
def test_every_seat_is_in_until_it_leaves(game):
    for seats in seat_counts(game):
        state = game.new(seats, 3)
        assert game.seats_in(state) == tuple(range(seats))
        if game.seats_can_leave and seats > 2:
            assert game.seats_in(game.resign(state, 1)) == tuple(s for s in range(seats) if s != 1)


def test_a_seat_that_is_out_leaves_only_in_games_of_three_or_more_whose_seats_can_leave() -> None:
    volcano = GAMES["volcano"]
    assert [seat_leaves(volcano, seats) for seats in (1, 2, 3, 6)] == [False, False, True, True]
    assert not any(seat_leaves(GAMES[key], seats) for key in ("fish", "geyser") for seats in (2, 3, 4))


def test_no_caller_asks_a_game_what_it_has() -> None:
    """No hasattr/getattr on a game anywhere: the optional members are declared with defaults."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = [
        f"{path.relative_to(root)}: {line.strip()}"
        for folder in ("bot", "renderers")
        for path in (root / folder).rglob("*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"\b(hasattr|getattr)\((self\.)?(game|engine|self\.game\(match\)|service\.game)", line)
    ]
    assert found == []


def fields_of(state: object) -> list[str]:
    return [f.name for f in fields(state)] if is_dataclass(state) else list(type(state).__slots__)
