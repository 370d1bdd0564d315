"""Tests for the "1, 2, 3" computer player (bot/ai/fish.py): the model against the engine, the search's
answers (legal, repeatable, blind to the hidden seed) and the greedy opponent."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from bot.ai import Level, think
from bot.ai import fish as fish_ai
from bot.ai.fish import BIT, MODEL, FishPos, greedy
from bot.games.fish import FISH, ISLAND_LIMIT, NEIGHBOURS, RAYS, TILES, FishState, solve_island
from tests.games.fish_positions import BACKGROUND, INDEX, position

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
    """The model's position says what the engine's state says. Its board may lack tiles the engine still
    has, but only where no token can ever go: a solved island's leftovers, which the model takes off."""
    assert [sorted(side) for side in pos.tokens] == [sorted(side) for side in state.tokens]
    assert pos.scores == state.scores
    assert pos.turn == state.turn
    assert pos.placed == state.placed
    engine = sum(BIT[t] for t in range(TILES) if state.values[t])
    assert pos.alive & ~engine == 0
    tokens = sum(BIT[t] for side in state.tokens for t in side)
    for group in slow_components(engine):
        if group & tokens:
            assert group & pos.alive == group  # the part still in play is the same tile for tile


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


def random_island(rng: random.Random, size: int) -> list[int]:
    """A connected group of `size` tiles grown from a random one."""
    island = {rng.randrange(TILES)}
    while len(island) < size:
        island.add(rng.choice(sorted({n for t in island for n in NEIGHBOURS[t]} - island)))
    return sorted(island)


def test_island_value_is_the_engines_total():
    """The model's own island solver gives `solve_island`'s exact total on random islands of up to 16
    tiles (the most the engine solves) with one to four tokens and random fish."""
    rng = random.Random(1)
    short = 0
    for _ in range(600):
        tiles = random_island(rng, rng.randint(1, ISLAND_LIMIT))
        values = {t: rng.randint(1, 3) for t in tiles}
        mine = tuple(sorted(rng.sample(tiles, rng.randint(1, min(4, len(tiles))))))
        board_values = tuple(values.get(t, 0) for t in range(TILES))
        worth = fish_ai.board_of(board_values).worth
        expected = solve_island(values, mine)[0]
        mask = sum(BIT[t] for t in tiles)
        assert fish_ai.island_value(mask, sum(BIT[t] for t in mine), board_values, worth) == expected, (values, mine)
        short += expected < sum(values.values())
    assert short >= 50  # many islands have tiles their tokens cannot all collect


def test_apply_takes_a_solved_island_off_the_board():
    """The seed's island G1 G2 H1 H2 cut off by F2-G2: the engine leaves what its line did not collect;
    the model takes every tile of it off, and scores the same."""
    state = position(ISLAND, ["F2", "A8"], ["A1"], turn=0)
    pos = FishPos.from_state(state)
    code = next(m for m in MODEL.moves(pos) if MODEL.notation(pos, m) == "F2-G2")
    after = MODEL.apply(pos, code)
    assert after.scores == FISH.play(state, "F2-G2").scores
    assert not after.alive & sum(BIT[INDEX[t]] for t in ("G1", "G2", "H1", "H2"))


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


# --- the fast paths against plain versions of the same thing ------------------------------------------------

MIDGAME = [s for s in random_positions(12, every=2) if not s.placing]
"""Positions of the move phase (settled: the engine settles after every move)."""


def slow_components(alive: int) -> list[int]:
    """The connected groups of `alive`, one tile at a time."""
    groups, left = [], alive
    while left:
        group, todo = 0, [left & -left]
        while todo:
            bit = todo.pop()
            if group & bit:
                continue
            group |= bit
            tile = fish_ai.TILE_OF_BIT[bit.bit_length() - 1]
            todo += [BIT[n] for n in NEIGHBOURS[tile] if alive & BIT[n]]
        groups.append(group)
        left &= ~group
    return groups


def slow_judge(values, alive, occ, tokens, scores, spread=MODEL.spread):
    """The Voronoi judge as first written: both searches apart, every tile reached expanded again."""
    empty = alive & ~occ
    seen = [sum(BIT[t] for t in side) for side in tokens]
    lead = scores[0] - scores[1] + sum(values[t] for t in tokens[0]) - sum(values[t] for t in tokens[1])
    fronts, own = list(seen), [0, 0]
    while fronts[0] or fronts[1]:
        new = [fish_ai._reach(f, empty) & ~s if f else 0 for f, s in zip(fronts, seen, strict=True)]
        first = [new[0] & ~seen[1], new[1] & ~seen[0]]
        own = [own[0] | first[0] & ~first[1], own[1] | first[1] & ~first[0]]
        seen = [seen[0] | new[0], seen[1] | new[1]]
        fronts = new
    lead += sum(values[t] for t in range(TILES) if own[0] & BIT[t]) - sum(
        values[t] for t in range(TILES) if own[1] & BIT[t]
    )
    v = 1.0 / (1.0 + math.exp(-lead / spread))
    return (v, 1.0 - v)


def test_the_judge_counts_the_same_tiles_as_the_plain_voronoi_search():
    rng = random.Random(4)
    for state in MIDGAME:
        pos = FishPos.from_state(state)
        alive = pos.alive
        tokens = [list(pos.tokens[0]), list(pos.tokens[1])]
        for _ in range(3):  # and with some tiles taken away, as a playout leaves them
            args = (alive, pos.occupied(), tokens, list(pos.scores))
            assert MODEL._judge(pos.board.worth, *args) == pytest.approx(slow_judge(state.values, *args), abs=1e-12)
            alive &= ~BIT[rng.choice([t for t in range(TILES) if alive & BIT[t]])] | pos.occupied()


def test_looked_up_moves_are_every_straight_move_in_order():
    rng = random.Random(5)
    for _ in range(3000):
        src = rng.randrange(TILES)
        free = sum(BIT[t] for t in range(TILES) if rng.random() < 0.7)
        listed = []
        for ray in RAYS[src]:
            for dst in ray:
                if not free & BIT[dst]:
                    break
                listed.append((src, dst))
        assert fish_ai._steps_from(src, free) == tuple(listed)


def test_one_arc_of_neighbours_means_removing_a_tile_splits_nothing():
    rng = random.Random(6)
    for _ in range(1500):
        alive = sum(BIT[t] for t in range(TILES) if rng.random() < 0.6)
        tile = rng.randrange(TILES)
        if alive & fish_ai.NEAR[tile] in fish_ai.ONE_ARC[tile]:
            with_it, without = alive | BIT[tile], alive & ~BIT[tile]
            assert len(slow_components(without)) <= len(slow_components(with_it))


def test_the_quick_settled_check_is_right_whenever_it_says_nothing_changes():
    """After every move of many settled positions: when `_still_settled` says so, the full `_settle` changes
    nothing; and the check does say so for most moves (else it would save nothing)."""
    quick = 0
    moves = 0
    for state in MIDGAME:
        pos = FishPos.from_state(state)
        seat = pos.turn
        for move in MODEL.moves(pos):
            src, dst = move // 64 - 1, move % 64
            tokens = [list(pos.tokens[0]), list(pos.tokens[1])]
            tokens[seat][tokens[seat].index(src)] = dst
            alive = pos.alive & ~BIT[src]
            occ = pos.occupied() & ~BIT[src] | BIT[dst]
            moves += 1
            if fish_ai._still_settled(alive, occ, tokens, seat, src, dst):
                quick += 1
                settled_tokens = [side[:] for side in tokens]
                assert (
                    fish_ai._settle(state.values, fish_ai.board_of(state.values).worth, alive, settled_tokens, [0, 0])
                    == alive
                )
                assert settled_tokens == tokens
    assert quick > moves / 2
