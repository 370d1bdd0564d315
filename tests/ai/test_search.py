"""The search (bot/ai/mcts.py) on a game small enough to know the answers, and `think` on every game.

The toy game (tests/toygame.py): add 1 or 2 to a total, whoever reaches 5 wins, `draw` ends it drawn.
Totals of 2 are winning for the player who leaves them, so the best first move is 2.
"""

from __future__ import annotations

import gc
import itertools
import random
from typing import Any

import pytest

from bot.ai import LEVELS, Level, model_for, think
from bot.ai.mcts import search
from bot.ai.model import PublicModel, outcome_values, score_values
from bot.games import GAMES, Outcome
from tests.toygame import TOY, ToyState

TOY_MODEL = PublicModel(TOY)


def toy(total: int, turn: int = 0, seats: int = 2) -> ToyState:
    return ToyState(total, turn, 0, seats)


def test_it_takes_a_win_in_one_and_avoids_handing_one_over() -> None:
    assert search(TOY_MODEL, toy(3), 0, iterations=300, rng=random.Random(1)).move == "2"
    assert search(TOY_MODEL, toy(4), 0, iterations=300, rng=random.Random(1)).move in ("1", "2")
    # from 2 every move but `draw` lets the other player win, so the draw is best
    assert search(TOY_MODEL, toy(2), 0, iterations=2000, rng=random.Random(1)).move == "draw"


def test_it_finds_the_winning_first_move() -> None:
    choice = search(TOY_MODEL, toy(0), 0, iterations=3000, rng=random.Random(2))
    assert choice.move == "2"
    assert choice.visits["2"] == max(choice.visits.values())


def test_with_three_players_each_seat_plays_for_itself() -> None:
    """Seat 1 to move at 3: taking 2 wins for seat 1 itself (a two-player search would still say 2, so
    also check seat 1 at 4, where both steps win and `draw` would only be chosen by a confused search)."""
    assert search(TOY_MODEL, toy(3, turn=1, seats=3), 1, iterations=400, rng=random.Random(3)).move == "2"
    assert search(TOY_MODEL, toy(4, turn=2, seats=3), 2, iterations=400, rng=random.Random(3)).move != "draw"


def test_the_same_seed_gives_the_same_thoughts() -> None:
    first = search(TOY_MODEL, toy(0), 0, iterations=500, rng=random.Random(9))
    again = search(TOY_MODEL, toy(0), 0, iterations=500, rng=random.Random(9))
    assert (first.move, first.visits, first.iterations) == (again.move, again.visits, again.iterations)


def test_the_clock_ends_the_search_before_the_iterations_do() -> None:
    ticks = itertools.count()
    choice = search(
        TOY_MODEL, toy(0), 0, iterations=10_000, seconds=50, rng=random.Random(1), clock=lambda: next(ticks)
    )
    assert 1 <= choice.iterations <= 50 and choice.move in TOY.legal_moves(toy(0))


def test_one_legal_move_needs_no_thought_and_the_wrong_seat_is_refused() -> None:
    class Forced(PublicModel):
        def moves(self, position: Any) -> list[str]:
            return ["1"]

    choice = search(Forced(TOY), toy(0), 0, iterations=100, rng=random.Random(1))
    assert (choice.move, choice.iterations) == ("1", 0)
    with pytest.raises(ValueError, match="seat 1 is not to move"):
        search(TOY_MODEL, toy(0), 1, iterations=10, rng=random.Random(1))


def test_values_are_shares_of_a_result_or_of_the_points() -> None:
    assert outcome_values(Outcome((3.0, 1.0), frozenset({0}), "more"), 2) == (1.0, 0.0)
    assert outcome_values(Outcome((2.0, 2.0), frozenset(), "draw"), 2) == (0.5, 0.5)
    assert score_values((3.0, 1.0)) == (0.75, 0.25)
    assert score_values((0.0, 0.0, 0.0)) == pytest.approx((1 / 3,) * 3)


def sample_positions(game_key: str, games: int = 3, per_game: int = 3, plies: int = 120) -> list[tuple[Any, int]]:
    """(state, seat to move) from seeded random games: the opening, and random moments after it."""
    game = GAMES[game_key]
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new(2, seed)
        history = [state]
        for _ in range(plies):
            if game.to_move(state) is None:
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
            history.append(state)
        live = [s for s in history if game.to_move(s) is not None]
        found += [(s, game.to_move(s)) for s in [live[0], *rng.sample(live, min(per_game, len(live)))]]
    return found


@pytest.mark.parametrize("game_key", sorted(GAMES))
def test_think_answers_a_legal_move_within_its_budget_in_every_game(game_key: str) -> None:
    game = GAMES[game_key]
    budget = Level("test", 12, None)
    for state, seat in sample_positions(game_key):
        choice = think(game_key, game.view(state, seat), seat, budget, seed=5)
        assert choice.iterations <= budget.iterations
        game.play(state, choice.move)  # raises IllegalMove if the computer cheated the rules


@pytest.mark.parametrize("game_key", sorted(GAMES))
def test_a_thinking_clock_is_respected_in_every_game(game_key: str) -> None:
    """With a clock that jumps a second per look, a 3-second budget allows only a few playouts."""
    game = GAMES[game_key]
    state, seat = sample_positions(game_key, games=1, per_game=1)[-1]
    ticks = itertools.count()
    choice = search(
        model_for(game_key),
        game.view(state, seat),
        seat,
        iterations=LEVELS["hard"].iterations,
        seconds=3,
        rng=random.Random(1),
        clock=lambda: next(ticks),
    )
    assert choice.iterations <= 3
    game.play(state, choice.move)


class Generic(PublicModel):
    """The toy game declared as a game of chance, so the search takes its general path (nothing is
    actually sampled: `determinize` hands the view back)."""

    def __init__(self) -> None:
        super().__init__(TOY)
        self.game = _Chancy()  # type: ignore[assignment]

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        return view


class _Chancy:
    """TOY's rules, declared as a game of chance."""

    chance = True
    hidden_information = False

    def __getattr__(self, name: str) -> Any:
        return getattr(TOY, name)


@pytest.mark.parametrize("seats", [2, 3])
def test_a_fixed_game_searches_exactly_as_the_general_path_would(seats: int) -> None:
    """Kept positions, availability from `born` and the bound that skips most UCB1 scores change nothing:
    the same visits, values and move as the general path, from the same random numbers."""
    for seed in range(6):
        start = toy(seed % 3, seats=seats)
        fixed = search(TOY_MODEL, start, 0, iterations=500, rng=random.Random(seed))
        general = search(Generic(), start, 0, iterations=500, rng=random.Random(seed))
        assert (fixed.move, fixed.visits, fixed.values) == (general.move, general.visits, general.values)


class _Watching(PublicModel):
    """The toy game's model, noting whether the cycle collector ran during each playout."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__(TOY)
        self.collecting: set[bool] = set()
        self.fail = fail

    def playout(self, position: Any, rng: random.Random) -> Any:
        self.collecting.add(gc.isenabled())
        if self.fail:
            raise RuntimeError("a model that breaks")
        return super().playout(position, rng)


def test_the_cycle_collector_is_off_while_searching_and_as_it_was_after() -> None:
    """Off during the search (its passes over the tree cost time and find nothing), then back as it was:
    on after a search that ended or failed, and still off if the caller had turned it off."""
    assert gc.isenabled()
    model = _Watching()
    search(model, toy(0), 0, iterations=50, rng=random.Random(1))
    assert model.collecting == {False}
    assert gc.isenabled()
    with pytest.raises(RuntimeError, match="breaks"):
        search(_Watching(fail=True), toy(0), 0, iterations=50, rng=random.Random(1))
    assert gc.isenabled()
    gc.disable()
    try:
        search(_Watching(), toy(0), 0, iterations=50, rng=random.Random(1))
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("game_key", sorted(GAMES))
def test_a_search_leaves_nothing_for_the_cycle_collector_in_every_game(game_key: str) -> None:
    """With the collector off during a search, a model that made reference cycles would grow the memory
    of a long search: none does (what the search made is all freed by reference counting). The first search
    imports the game's model, whose classes are garbage of that kind once: it only warms up."""
    game = GAMES[game_key]
    positions = sample_positions(game_key)
    budget = Level("test", 60, None)
    think(game_key, game.view(*positions[0]), positions[0][1], budget, seed=5)
    gc.collect()
    for state, seat in positions:
        think(game_key, game.view(state, seat), seat, budget, seed=5)
    assert gc.collect() == 0
