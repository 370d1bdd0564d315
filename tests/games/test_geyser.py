"""Rules tests for Geyser: docs/rules/geyser.md (binding: shared/rules/geyser.md), rule by rule and RULING by RULING.

Positions are hand-built with `pos` ({"c3": (seat, count), ...}); every square not named is empty. The dice
are known in advance: every die is `_die(seed, counter)`, so `dice_at(...)` finds a counter from which the
seed's dice are exactly the ones a test needs, and the position starts there (`dice=`). The island is
re-derived here from the rules text (the land formula and the map picture) to compare with the engine.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.games import GAMES, BadOptions, IllegalMove, InvalidNotation, Outcome
from bot.games.geyser import (
    AROUND,
    CELLS,
    GEYSER,
    GEYSERS,
    LAND,
    MAP_FILE,
    MOTHER,
    RING_OF,
    SQUARE_NAMES,
    STARTS,
    STEPS,
    TWO_PLAYER_STARTS,
    GeyserState,
    _die,
    _load_map,
)

SEED = 7
COLUMNS = "abcdefghijk"
NAMES = [f"{c}{r}" for r in range(1, 12) for c in COLUMNS]
"""Square index = (row - 1) * 11 + column: rows 1-11 from the top."""

RULES_MAP = """\
    a b c d e f g h i j k
 1  ~ ~ ~ 2 . S . . ~ ~ ~
 2  ~ ~ . . . . . 3 . ~ ~
 3  ~ . . . 4 . . . . . ~
 4  . 3 . 5 . . . 5 . . 2
 5  . . . . 6 . 6 . 4 . .
 6  S . . . . M . . . . S
 7  . . 4 . 6 . 6 . . . .
 8  2 . . 5 . . . 5 . 3 .
 9  ~ . . . . . 4 . . . ~
10  ~ ~ . 3 . . . . . ~ ~
11  ~ ~ ~ . . S . 2 ~ ~ ~"""
"""The island as drawn in shared/rules/geyser.md."""

RINGS = {
    6: {"e5", "g5", "e7", "g7"},
    5: {"d4", "h4", "d8", "h8"},
    4: {"e3", "i5", "c7", "g9"},
    3: {"h2", "b4", "j8", "d10"},
    2: {"d1", "k4", "a8", "h11"},
}
RING_OF_SUM = {2: 2, 12: 2, 3: 3, 11: 3, 4: 4, 10: 4, 5: 5, 9: 5, 6: 6, 8: 6}
PLAIN = {"c3": (0, 1)}


def sq(name: str) -> int:
    return NAMES.index(name)


def xy(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def pos(tokens: dict[str, tuple[int, int]], seats: int = 2, **kw) -> GeyserState:
    kw.setdefault("seed", SEED)
    return GEYSER.state_from_position(seats, tokens, **kw)


def held(state: GeyserState, name: str) -> tuple[int, int] | None:
    return state.board[sq(name)]


def tokens(state: GeyserState) -> dict[str, tuple[int, int]]:
    return {SQUARE_NAMES[s]: h for s, h in enumerate(state.board) if h is not None}


def refusal(state: GeyserState, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        GEYSER.play(state, move)
    return str(caught.value)


@functools.cache
def dice_at(*wanted: int, seed: int = SEED) -> int:
    """The first dice counter from which the seed's dice are `wanted`."""
    k = 0
    while not all(_die(seed, k + i) == w for i, w in enumerate(wanted)):
        k += 1
    return k


def seed_with(test, count: int) -> int:
    """The first seed whose first `count` dice pass `test`."""
    return next(s for s in range(100_000) if test([_die(s, i) for i in range(count)]))


def play_all(state: GeyserState, *moves: str) -> GeyserState:
    for move in moves:
        state = GEYSER.play(state, move)
    return state


# --- The island ------------------------------------------------------------------------------------


def test_registry_and_identity():
    assert GAMES["geyser"] is GEYSER
    assert (GEYSER.key, GEYSER.title, GEYSER.min_players, GEYSER.max_players) == ("geyser", "Geyser", 2, 4)
    assert set(GEYSER.options.names) == {"seven", "tokens", "rounds", "starts"}
    assert "f6-f7" in GEYSER.rules_card and "start f1" in GEYSER.rules_card


def test_squares_are_named_row_by_row_from_the_top():
    assert list(SQUARE_NAMES) == NAMES
    assert SQUARE_NAMES[0] == "a1" and SQUARE_NAMES[10] == "k1" and SQUARE_NAMES[11] == "a2"
    assert SQUARE_NAMES[5 * 11 + 5] == "f6" and SQUARE_NAMES[120] == "k11"


def test_land_is_the_diamond_of_the_rules():
    expected = {sq(n) for n in NAMES if abs(xy(n)[0] - 5) + abs(xy(n)[1] - 5) <= 7}
    assert set(LAND) == expected and len(LAND) == 97
    for name in NAMES:
        assert (CELLS[sq(name)] != "~") == (sq(name) in expected), name


def test_twenty_normal_geysers_four_per_ring_exactly_where_the_map_shows():
    assert {SQUARE_NAMES[s]: ring for s, ring in RING_OF.items()} == {
        name: ring for ring, names in RINGS.items() for name in names
    }
    assert len(GEYSERS) == 20
    for ring in RINGS:
        assert sum(1 for r in RING_OF.values() if r == ring) == 4


def test_the_mother_and_the_starting_squares():
    assert SQUARE_NAMES[MOTHER] == "f6" and MOTHER not in GEYSERS
    assert {SQUARE_NAMES[s] for s in STARTS} == {"f1", "k6", "f11", "a6"}
    assert not set(STARTS) & set(GEYSERS)


def test_the_engine_reads_data_geyser_map_txt_which_is_the_rules_map():
    assert Path(__file__).resolve().parents[2] / "data" / "geyser_map.txt" == MAP_FILE
    assert _load_map(MAP_FILE) == CELLS
    picture = [line.split()[1:] for line in RULES_MAP.splitlines()[1:]]
    assert tuple(cell for row in picture for cell in row) == CELLS
    grid_lines = [line for line in MAP_FILE.read_text().splitlines() if not line.startswith("#")]
    assert "\n".join(grid_lines).rstrip() == RULES_MAP


def test_the_map_loader_reads_the_file_it_is_given(tmp_path):
    changed = tmp_path / "map.txt"
    changed.write_text(MAP_FILE.read_text().replace(" 1  ~ ~ ~ 2 . S", " 1  ~ ~ ~ . . S"))
    cells = _load_map(changed)
    assert cells[sq("d1")] == "." and cells[:3] == CELLS[:3] and cells[4:] == CELLS[4:]
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(MAP_FILE.read_text().splitlines()[:-1]))
    with pytest.raises(ValueError, match="11x11"):
        _load_map(broken)


def test_water_is_named_as_water():
    state = pos({"b3": (0, 1), "k6": (1, 1)})
    assert refusal(state, "b3-a3") == "a3 is water."
    assert refusal(state, "b3-b2") == "b2 is water."
    assert "is not a square" in refusal(state, "b3-l3")
    assert {m for m in GEYSER.legal_moves(state)} == {"b3-c3", "b3-b4"}


# --- Setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_players_place_in_seat_order_on_free_starting_squares(seats):
    state = GEYSER.new(seats, 1)
    assert state.phase == "start" and GEYSER.to_move(state) == 0
    assert set(GEYSER.legal_moves(state)) == {"start f1", "start k6", "start f11", "start a6"}
    assert "First every player puts a token on a starting square" in refusal(state, "c3-c4")
    assert refusal(state, "start c3") == "c3 is not a free starting square: start on f1, a6, k6 or f11."
    chosen = ["a6", "f1", "k6", "f11"][:seats]
    for seat, name in enumerate(chosen):
        assert GEYSER.to_move(state) == seat and state.phase == "start"
        free = {f"start {n}" for n in ("f1", "k6", "f11", "a6")} - {f"start {n}" for n in chosen[:seat]}
        assert set(GEYSER.legal_moves(state)) == free
        if seat:
            assert "is not a free starting square" in refusal(state, f"start {chosen[0]}")
        state = GEYSER.play(state, f"start {name}")
        assert f"{{{seat}}} starts on {name}." in GEYSER.events(state)
    assert state.phase == "play"
    assert tokens(state) == {name: (seat, 1) for seat, name in enumerate(chosen)}
    assert state.supply == (11,) * seats


@pytest.mark.parametrize(("first", "second"), [("f1", "f11"), ("f11", "f1")])
def test_with_two_players_the_second_starts_opposite_without_a_choice(first, second):
    state = GEYSER.play(GEYSER.new(2, 1), f"start {first}")
    assert tokens(state) == {first: (0, 1), second: (1, 1)}
    assert state.phase == "play" and state.supply == (11, 11) and state.ply == 1  # no setup move for seat 1
    assert GEYSER.events(state)[:2] == (f"{{0}} starts on {first}.", f"{{1}} starts opposite, on {second}.")


def test_two_players_start_on_f1_or_f11_only_a6_and_k6_are_plain_land():
    assert {SQUARE_NAMES[s] for s in TWO_PLAYER_STARTS} == {"f1", "f11"}
    state = GEYSER.new(2, 1)
    assert state.start_squares == TWO_PLAYER_STARTS and GEYSER.new(3, 1).start_squares == STARTS
    assert GEYSER.legal_moves(state) == ["start f1", "start f11"] == GEYSER.choices(state)
    for name in ("a6", "k6"):
        assert refusal(state, f"start {name}") == f"{name} is plain land in a two-player game: start on f1 or f11."
    assert refusal(state, "start c3") == "c3 is not a free starting square: start on f1 or f11."


@pytest.mark.parametrize(("first", "second"), [("a6", "k6"), ("k6", "a6"), ("f1", "f11")])
def test_the_starts_four_option_keeps_the_setup_older_matches_began_with(first, second):
    four = {f"start {n}" for n in ("f1", "a6", "k6", "f11")}
    state = GEYSER.new(2, 1, starts="four")
    assert state.starts == "four" and set(GEYSER.legal_moves(state)) == four
    state = GEYSER.play(state, f"start {first}")
    assert tokens(state) == {first: (0, 1), second: (1, 1)} and state.phase == "play"
    reenter = pos({"c3": (1, 1)}, supply=(3, 10), starts="four")
    assert set(GEYSER.legal_moves(reenter)) == four
    with pytest.raises(BadOptions, match=r"starts must be two .* or four"):
        GEYSER.new(2, 1, starts="three")


def test_the_opening_roll_highest_starts_and_it_is_logged():
    seed = seed_with(lambda d: d[0] < d[1], 2)
    a, b = _die(seed, 0), _die(seed, 1)
    state = GEYSER.new(2, seed)
    assert GEYSER.canonical(state, "start f1") == f"start f1 [opening {a} {b}]"
    state = GEYSER.play(state, "start f1")
    assert GEYSER.to_move(state) == 1 and state.first == 1 and state.roller == 1
    assert state.order == (1, 0) and state.round == 1 and state.dice == 2
    assert GEYSER.events(state)[-2:] == (
        f"Opening roll: {{0}} {a}, {{1}} {b}.",
        "{1} starts; play goes on in seat order.",
    )


def test_opening_ties_re_roll_among_the_tied_only():
    def tie_of_two(d):  # seats 0 and 2 tie on top, seat 1 lower; the re-roll differs
        return d[0] == d[2] > d[1] and d[3] != d[4]

    seed = seed_with(tie_of_two, 5)
    d = [_die(seed, i) for i in range(5)]
    first = 0 if d[3] > d[4] else 2
    state = play_all(GEYSER.new(3, seed), "start f1", "start k6")
    assert GEYSER.canonical(state, "start f11") == f"start f11 [opening {d[0]} {d[1]} {d[2]}; opening {d[3]} {d[4]}]"
    state = GEYSER.play(state, "start f11")
    assert state.dice == 5 and state.first == first and GEYSER.to_move(state) == first
    assert state.order == tuple((first + k) % 3 for k in range(3))
    assert GEYSER.events(state)[-3:] == (
        f"Opening roll: {{0}} {d[0]}, {{1}} {d[1]}, {{2}} {d[2]}.",
        f"Opening roll: {{0}} {d[3]}, {{2}} {d[4]}.",
        f"{{{first}}} starts; play goes on in seat order.",
    )


def test_play_goes_round_in_seat_order_from_the_starting_player():
    seed = seed_with(lambda d: d[2] > max(d[0], d[1], d[3]), 4)
    state = play_all(GEYSER.new(4, seed), "start f1", "start k6", "start f11", "start a6")
    assert state.first == 2 and state.order == (2, 3, 0, 1)
    seen = []
    for _ in range(4):
        seen.append(GEYSER.to_move(state))
        state = GEYSER.play(state, GEYSER.legal_moves(state)[0])
    assert seen == [2, 3, 0, 1]


def test_supply_is_twelve_including_the_starting_token_and_the_tokens_option():
    assert GEYSER.new(3, 0).supply == (12, 12, 12)
    assert GEYSER.play(GEYSER.new(2, 0), "start f1").supply == (11, 11)
    assert GEYSER.new(2, 0, tokens=5).supply == (5, 5)
    assert GEYSER.new(2, 0, tokens="7").supply == (7, 7)
    assert GEYSER.play(GEYSER.new(2, 0, tokens=1), "start f1").supply == (0, 0)
    for bad in (0, 41, "x", True, 2.5):
        with pytest.raises(BadOptions, match="tokens"):
            GEYSER.new(2, 0, tokens=bad)
    with pytest.raises(BadOptions, match="seven"):
        GEYSER.new(2, 0, seven="loud")
    assert GEYSER.new(2, 0, seven="calm").seven == "calm" and GEYSER.new(2, 0).seven == "mother"


def test_the_rounds_option_defaults_to_100_and_takes_10_to_1000():
    assert GEYSER.new(2, 0).rounds == 100 and GEYSER.new(4, 0).rounds == 100
    assert [GEYSER.new(3, 0, rounds=n).rounds for n in (10, 57, 1000)] == [10, 57, 1000]
    assert GEYSER.new(2, 0, rounds=" 250 ").rounds == 250  # as the terminal gives it
    for bad in (9, 1001, 0, -5, "x", "", True, 2.5, None, "10.5"):
        with pytest.raises(BadOptions) as caught:
            GEYSER.new(2, 0, rounds=bad)
        assert str(caught.value) == (
            "rounds must be a whole number from 10 to 1000: after that many rounds the most geysers win (default 100)."
        )
    capped = GEYSER.new(2, 0, rounds=12)
    assert GEYSER.loads(GEYSER.dumps(capped)) == capped and '"rounds":12' in GEYSER.dumps(capped)


# --- Steps -----------------------------------------------------------------------------------------


def test_a_token_steps_orthogonally_onto_land_only():
    state = pos({"c3": (0, 1), "k6": (1, 1)})
    assert set(GEYSER.legal_moves(state)) == {"c3-c2", "c3-c4", "c3-b3", "c3-d3"}
    why = "a token moves one square up, down, left or right onto land."
    assert refusal(state, "c3-d4") == f"c3-d4: {why}"
    assert refusal(state, "c3-c5") == f"c3-c5: {why}"
    assert refusal(state, "c3-c3") == f"c3-c3: {why}"
    assert refusal(state, "d3-d4") == "You have no token on d3."
    assert refusal(state, "k6-j6") == "You have no token on k6."
    after = GEYSER.play(state, "c3-c4")
    assert tokens(after) == {"c4": (0, 1), "k6": (1, 1)} and GEYSER.to_move(after) == 1


def test_every_land_square_steps_to_its_orthogonal_land_neighbours():
    for s in LAND:
        x, y = s % 11, s // 11
        expected = {
            (y + dy) * 11 + x + dx
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < 11 and 0 <= y + dy < 11 and (y + dy) * 11 + x + dx in LAND
        }
        assert set(STEPS[s]) == expected


def test_own_tokens_stack_and_a_stack_splits():
    state = pos({"c3": (0, 1), "c4": (0, 1), "k6": (1, 1)})
    after = GEYSER.play(state, "c3-c4")
    assert held(after, "c4") == (0, 2) and held(after, "c3") is None
    assert after.dice == state.dice and not after.last_rolls
    split = GEYSER.play(replace(after, turn=0, order=(0, 1)), "c4-c5")
    assert held(split, "c4") == (0, 1) and held(split, "c5") == (0, 1)


def test_the_last_token_on_a_controlled_geyser_cannot_leave_but_one_of_two_can():
    state = pos({"e3": (0, 1), "c3": (0, 1), "k6": (1, 1)})
    assert not [m for m in GEYSER.legal_moves(state) if m.startswith("e3")]
    assert refusal(state, "e3-e2") == "e3-e2: your last token on the geyser e3 must stay to keep it."
    two = pos({"e3": (0, 2), "k6": (1, 1)})
    assert {m for m in GEYSER.legal_moves(two)} == {"e3-e2", "e3-e4", "e3-d3", "e3-f3"}
    after = GEYSER.play(two, "e3-e2")
    assert held(after, "e3") == (0, 1) and held(after, "e2") == (0, 1)


@pytest.mark.parametrize("count", [0, 1, 2])
def test_the_mother_is_closed_below_three_geysers_and_says_how_many_you_have(count):
    state = pos({"f5": (0, 1), "k6": (1, 1), **{g: (0, 1) for g in ["d1", "k4", "a8"][:count]}})
    assert "f5-f6" not in GEYSER.legal_moves(state)
    assert refusal(state, "f5-f6") == (
        f"f5-f6: the Mother Geyser needs 3 geysers under your control to enter (you have {count})."
    )


def test_the_mother_opens_with_three_geysers_and_entering_it_claims_nothing():
    state = pos({"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "k6": (1, 1)})
    assert "f5-f6" in GEYSER.legal_moves(state)
    after = GEYSER.play(state, "f5-f6")
    assert held(after, "f6") == (0, 1) and after.pending is None and GEYSER.to_move(after) == 1
    assert after.supply == state.supply


def test_controls_counts_normal_geysers_with_a_token_stack_or_not():
    state = pos({"d1": (0, 2), "k4": (0, 1), "f6": (0, 1), "c3": (0, 1), "a8": (1, 1)})
    assert state.controls(0) == 2 and state.controls(1) == 1
    assert GEYSER.scores(state) == (2.0, 1.0)


# --- Claiming --------------------------------------------------------------------------------------


def claim_position(**kw) -> GeyserState:
    """{0} steps e6-e5 onto the 6/8 geyser e5; own token on d5, an enemy on f4."""
    return pos({"e6": (0, 1), "d5": (0, 1), "f4": (1, 1), "k6": (1, 1)}, **kw)


def model_place_squares(state: GeyserState, seat: int, geyser: str) -> set[str]:
    gx, gy = xy(geyser)
    out = set()
    for name in NAMES:
        x, y = xy(name)
        if max(abs(x - gx), abs(y - gy)) != 1 or sq(name) not in LAND:
            continue
        if sq(name) in GEYSERS or name == "f6":
            continue
        h = held(state, name)
        if h is None or h[0] == seat:
            out.add(name)
    return out


def test_landing_on_an_uncontrolled_geyser_claims_it_and_offers_a_new_token():
    state = GEYSER.play(claim_position(), "e6-e5")
    assert state.pending == ("place", sq("e5")) and GEYSER.to_move(state) == 0
    assert held(state, "e5") == (0, 1) and state.controls(0) == 1
    legal = GEYSER.legal_moves(state)
    assert legal[-1] == "skip"
    assert {m[6:] for m in legal[:-1]} == {"d5", "d6", "e4", "e6", "f5"} == model_place_squares(state, 0, "e5")
    assert "{0} claims the 6/8 geyser on e5 and may place a new token." in GEYSER.events(state)


@pytest.mark.parametrize(
    ("move", "why"),
    [
        ("place f4", "f4 holds another player's token: place on "),
        ("place d4", "d4 is a geyser, and the new token goes on plain land next to e5: place on "),
        ("place f6", "f6 is the Mother Geyser, and the new token goes on plain land next to e5"),
        ("place c3", "c3 is not next to e5, the geyser you claimed"),
        ("place e5", "e5 is the geyser you claimed, and the new token goes on a square next to it"),
        ("e5-e4", "You claimed e5: place your new token (place f5) or skip."),  # a square it may go on
        ("pass", "You claimed e5"),
        ("again", "You claimed e5"),
    ],
)
def test_the_place_choice_refuses_everything_else(move, why):
    state = GEYSER.play(claim_position(), "e6-e5")
    assert why in refusal(state, move)
    assert refusal(state, "place f4").endswith(", or skip.")


def test_place_puts_a_supply_token_own_tokens_allowed_and_ends_the_turn():
    state = GEYSER.play(claim_position(), "e6-e5")
    onto_own = GEYSER.play(state, "PLACE D5")
    assert held(onto_own, "d5") == (0, 2) and onto_own.supply == (9, 10)
    assert GEYSER.to_move(onto_own) == 1 and onto_own.pending is None
    assert GEYSER.events(onto_own) == ("{0} places a new token on d5.",)
    fresh = GEYSER.play(state, "place e6")
    assert held(fresh, "e6") == (0, 1) and fresh.supply == (9, 10)
    assert GEYSER.canonical(state, "place e6") == "place e6"


def test_skip_declines_the_new_token():
    state = GEYSER.play(claim_position(), "e6-e5")
    skipped = GEYSER.play(state, " Skip ")
    assert skipped.supply == state.supply == (10, 10) and skipped.board == state.board
    assert GEYSER.to_move(skipped) == 1 and GEYSER.events(skipped) == ("{0} takes no new token.",)
    assert GEYSER.canonical(state, "skip") == "skip"


def test_no_place_choice_with_an_empty_supply():
    state = claim_position(supply=(0, 10))
    after = GEYSER.play(state, "e6-e5")
    assert after.pending is None and GEYSER.to_move(after) == 1 and after.controls(0) == 1
    assert "{0} claims the 6/8 geyser on e5 (no token left in supply for a new token)." in GEYSER.events(after)


def test_no_permissible_square_means_no_choice_but_play_never_gets_there():
    # No normal geyser touches another geyser or the Mother orthogonally, so the square a token came from is
    # always around the claimed geyser and free (or still its own): "no permissible square" never happens in
    # play. The rule itself is checked on a blocked board.
    for g in GEYSERS:
        assert not [n for n in STEPS[g] if n in GEYSERS or n == MOTHER]
    board = [None] * 121
    for name in ("g11", "g10", "h10", "i10"):
        board[sq(name)] = (1, 1)
    assert GEYSER._place_squares(board, 0, sq("h11")) == []
    assert sorted(SQUARE_NAMES[s] for s in GEYSER._place_squares(board, 1, sq("h11"))) == ["g10", "g11", "h10", "i10"]


def test_place_squares_match_the_rule_for_every_geyser():
    rng = random.Random(3)
    for g in GEYSERS:
        name = SQUARE_NAMES[g]
        board = {n: (rng.randrange(2), 1) for n in NAMES if sq(n) in LAND and rng.random() < 0.4}
        state = pos(board)
        got = {SQUARE_NAMES[s] for s in GEYSER._place_squares(state.board, 0, g)}
        assert got == model_place_squares(state, 0, name)
        assert {SQUARE_NAMES[s] for s in AROUND[g]} >= got


def test_landing_on_a_geyser_you_already_control_gives_no_new_token():
    state = pos({"e3": (0, 1), "e4": (0, 1), "k6": (1, 1)})
    after = GEYSER.play(state, "e4-e3")
    assert held(after, "e3") == (0, 2) and after.pending is None and GEYSER.to_move(after) == 1
    assert after.supply == state.supply
    assert not any("claims" in e for e in GEYSER.events(after))


# --- Battles ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defend", "mine", "theirs", "wins"),
    [
        (4, 2, 0, 0, True),
        (2, 4, 3, 0, True),  # 2+3 = 5 beats 4+0
        (5, 3, 0, 3, False),  # 5+0 = 5 loses to 3+3 = 6
        (1, 6, 0, 0, False),
        (6, 1, 0, 2, True),
    ],
)
def test_a_battle_is_a_die_plus_geysers_controlled_each(attack, defend, mine, theirs, wins):
    own = {g: (0, 1) for g in ["d1", "k4", "a8"][:mine]}
    enemy = {g: (1, 1) for g in ["h11", "d10", "j8"][:theirs]}
    state = pos({"c3": (0, 1), "c4": (1, 1), **own, **enemy}, dice=dice_at(attack, defend))
    after = GEYSER.play(state, "c3-c4")
    assert after.dice == state.dice + 2
    assert after.last_battle == (0, attack, mine, 1, defend, theirs)
    assert GEYSER.canonical(state, "c3-c4") == f"c3-c4 [battle {attack}+{mine} v {defend}+{theirs}]"
    fight = f"Battle on c4: {{0}} {attack}+{mine} = {attack + mine} against {{1}} {defend}+{theirs} = {defend + theirs}"
    if wins:
        assert held(after, "c4") == (0, 1) and held(after, "c3") is None
        assert after.supply == (state.supply[0], state.supply[1] + 1)
        assert GEYSER.events(after)[:2] == (
            f"{fight}: {{0}} wins; {{1}}'s token is destroyed.",
            "{0} moves c3-c4.",
        )
    else:
        assert held(after, "c4") == (1, 1) and held(after, "c3") is None
        assert after.supply == (state.supply[0] + 1, state.supply[1])
        assert GEYSER.events(after)[0] == f"{fight}: {{1}} wins; {{0}}'s token is destroyed."
    assert GEYSER.to_move(after) == 1 and after.pending is None


def test_a_losing_attacker_from_a_stack_loses_one_token():
    state = pos({"c3": (0, 2), "c4": (1, 1)}, dice=dice_at(1, 2))
    after = GEYSER.play(state, "c3-c4")
    assert held(after, "c3") == (0, 1) and held(after, "c4") == (1, 1) and after.supply == (11, 11)


def test_a_winning_attacker_occupies_and_claims_a_geyser():
    state = pos({"e4": (0, 1), "e3": (1, 1), "k6": (1, 1)}, dice=dice_at(6, 1))
    after = GEYSER.play(state, "e4-e3")
    assert after.last_battle == (0, 6, 0, 1, 1, 1)  # the defender's geyser counts for the defender
    assert held(after, "e3") == (0, 1) and after.controls(0) == 1 and after.controls(1) == 0
    assert after.pending == ("place", sq("e3")) and GEYSER.to_move(after) == 0
    assert "e4" in {m[6:] for m in GEYSER.legal_moves(after)}


def test_several_defending_tokens_are_fought_one_at_a_time():
    state = pos({"c3": (0, 1), "c4": (1, 3)}, dice=dice_at(6, 1, 5, 2, 4, 3))
    after = GEYSER.play(state, "c3-c4")
    assert after.dice == state.dice + 6 and held(after, "c4") == (0, 1) and held(after, "c3") is None
    assert after.supply == (state.supply[0], state.supply[1] + 3)
    assert GEYSER.canonical(state, "c3-c4") == "c3-c4 [battle 6+0 v 1+0; battle 5+0 v 2+0; battle 4+0 v 3+0]"
    events = GEYSER.events(after)
    assert events[0].endswith("{0} wins; {1}'s token is destroyed (2 more to beat).")
    assert events[1].endswith("{0} wins; {1}'s token is destroyed (1 more to beat).")
    assert events[2].endswith("{0} wins; {1}'s token is destroyed.")
    assert events[3] == "{0} moves c3-c4."


def test_against_several_defenders_the_attacker_enters_only_when_none_is_left():
    state = pos({"c3": (0, 1), "c4": (1, 3)}, dice=dice_at(6, 1, 1, 6))
    after = GEYSER.play(state, "c3-c4")
    assert held(after, "c4") == (1, 2) and held(after, "c3") is None  # one beaten, then the attacker fell
    assert after.supply == (state.supply[0] + 1, state.supply[1] + 1)
    assert GEYSER.canonical(state, "c3-c4") == "c3-c4 [battle 6+0 v 1+0; battle 1+0 v 6+0]"


def test_a_tie_leaves_the_same_player_to_choose_again_or_retreat():
    state = pos({"c3": (0, 1), "c4": (1, 1)}, dice=dice_at(3, 3))
    tied = GEYSER.play(state, "c3-c4")
    assert tied.pending == ("tie", sq("c3"), sq("c4")) and GEYSER.to_move(tied) == 0
    assert GEYSER.legal_moves(tied) == ["again", "retreat"]
    assert tokens(tied) == tokens(state) and tied.supply == state.supply
    assert GEYSER.events(tied)[-1] == (
        "Battle on c4: {0} 3+0 = 3 against {1} 3+0 = 3: a tie. {0} may roll again or retreat."
    )
    for move in ("c3-c2", "skip", "pass", "place c2"):
        assert refusal(tied, move) == "The battle is tied: choose again (roll again) or retreat."
    assert refusal(state, "retreat") == "There is no tied battle to retreat from now."
    assert refusal(state, "again") == "There is no tied battle to fight again now."


def test_retreat_leaves_the_token_in_place_and_ends_the_turn():
    state = pos({"c3": (0, 1), "c4": (1, 1)}, dice=dice_at(3, 3))
    tied = GEYSER.play(state, "c3-c4")
    back = GEYSER.play(tied, "retreat")
    assert tokens(back) == {"c3": (0, 1), "c4": (1, 1)} and back.supply == state.supply
    assert GEYSER.to_move(back) == 1 and back.pending is None and back.dice == tied.dice
    assert GEYSER.events(back) == ("{0} retreats: the token stays on c3.",)
    assert GEYSER.canonical(tied, "retreat") == "retreat"


def test_again_rolls_again_until_someone_loses():
    state = pos({"c3": (0, 1), "c4": (1, 1)}, dice=dice_at(3, 3, 2, 2, 5, 1))
    tied = GEYSER.play(state, "c3-c4")
    assert GEYSER.canonical(tied, "again") == "again [battle 2+0 v 2+0]"
    still = GEYSER.play(tied, "again")
    assert still.pending == ("tie", sq("c3"), sq("c4")) and GEYSER.to_move(still) == 0
    assert GEYSER.canonical(still, "AGAIN") == "again [battle 5+0 v 1+0]"
    won = GEYSER.play(still, "again")
    assert tokens(won) == {"c4": (0, 1)} and GEYSER.to_move(won) == 1 and won.pending is None


def test_a_tie_after_beating_one_of_several_defenders_keeps_the_beaten_ones_beaten():
    state = pos({"c3": (0, 1), "c4": (1, 2)}, dice=dice_at(6, 1, 4, 4, 6, 2))
    tied = GEYSER.play(state, "c3-c4")
    assert held(tied, "c4") == (1, 1) and tied.pending == ("tie", sq("c3"), sq("c4"))
    retreated = GEYSER.play(tied, "retreat")
    assert tokens(retreated) == {"c3": (0, 1), "c4": (1, 1)}
    won = GEYSER.play(tied, "again")
    assert tokens(won) == {"c4": (0, 1)}


def test_a_tied_battle_for_a_geyser_won_on_again_claims_it():
    state = pos({"e4": (0, 1), "e3": (1, 1), "k6": (1, 1)}, dice=dice_at(4, 3, 6, 1))
    tied = GEYSER.play(state, "e4-e3")  # 4+0 against 3+1
    assert tied.pending[0] == "tie"
    won = GEYSER.play(tied, "again")
    assert won.pending == ("place", sq("e3")) and GEYSER.to_move(won) == 0


# --- Rounds and the Geyser Firing Phase -------------------------------------------------------------


def everywhere(seat: int = 1, count: int = 2) -> dict[str, tuple[int, int]]:
    return {SQUARE_NAMES[g]: (seat, count) for g in GEYSERS}


ALL_SUMS_BUT_7 = [(1, 1), (1, 2), (2, 2), (1, 4), (3, 3), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6)]


@pytest.mark.parametrize(("one", "two"), ALL_SUMS_BUT_7)
def test_each_sum_fires_its_ring_and_destroys_every_token_on_it(one, two):
    total = one + two
    ring = RING_OF_SUM[total]
    state = pos({"c3": (0, 1), **everywhere()}, order=(0,), supply=(11, 0), dice=dice_at(one, two))
    after = GEYSER.play(state, "c3-c2")
    assert after.dice == state.dice + 2 and after.last_fire == (one, two)
    assert GEYSER.canonical(state, "c3-c2") == f"c3-c2 [fire {one}+{two}]"
    left = tokens(after)
    for ring_no, names in RINGS.items():
        for name in names:
            assert (name in left) == (ring_no != ring), name
    assert after.supply == (11, 8)
    ring_name = {6: "6/8", 5: "5/9", 4: "4/10", 3: "3/11", 2: "2/12"}[ring]
    event = next(e for e in GEYSER.events(after) if e.startswith("Firing phase"))
    assert event.startswith(f"Firing phase: {{0}} rolls {one}+{two} = {total}: the {ring_name} ring fires; destroyed: ")
    for name in sorted(RINGS[ring], key=sq):
        assert f"{{1}}'s 2 tokens on {name}" in event


def test_a_fired_ring_with_nothing_on_it_destroys_nothing():
    state = pos({"c3": (0, 1), "k6": (1, 1)}, turn=1, order=(1,), dice=dice_at(3, 3))
    after = GEYSER.play(state, "k6-j6")
    assert GEYSER.events(after)[-1] == "Firing phase: {0} rolls 3+3 = 6: the 6/8 ring fires; nothing is destroyed."


def test_the_geysers_fire_only_after_every_player_took_a_turn():
    state = pos({"c3": (0, 1), "k6": (1, 1), "f11": (2, 1)}, seats=3, dice=dice_at(2, 3))
    one = GEYSER.play(state, "c3-c4")
    two = GEYSER.play(one, "k6-j6")
    assert one.dice == two.dice == state.dice and one.last_fire is None and two.last_fire is None
    assert two.round == 1 and two.order == (2,)
    three = GEYSER.play(two, "f11-e11")
    assert three.dice == state.dice + 2 and three.last_fire == (2, 3)
    assert three.round == 2 and three.order == (0, 1, 2) and GEYSER.to_move(three) == 0


def test_a_pending_choice_delays_the_firing_phase_until_it_is_made():
    state = pos({"e6": (0, 1), "k6": (1, 1)}, order=(0,), dice=dice_at(1, 2))
    claimed = GEYSER.play(state, "e6-e5")
    assert claimed.pending is not None and claimed.dice == state.dice and claimed.round == 1
    fired = GEYSER.play(claimed, "skip")
    assert fired.dice == state.dice + 2 and fired.round == 2
    assert GEYSER.canonical(claimed, "place e6") == "place e6 [fire 1+2]"
    tie = pos({"c3": (0, 1), "c4": (1, 1)}, order=(0,), dice=dice_at(3, 3, 1, 2))
    tied = GEYSER.play(tie, "c3-c4")
    assert tied.pending is not None and tied.round == 1 and tied.last_fire is None
    assert GEYSER.canonical(tied, "retreat") == "retreat [fire 1+2]"
    assert GEYSER.play(tied, "retreat").round == 2


def test_the_starting_player_rolls_after_round_one_then_the_roller_passes_left():
    state = pos({"c3": (0, 1), "k6": (1, 1), "f11": (2, 1)}, seats=3, turn=1, first=1)
    assert state.order == (1, 2, 0) and state.roller == 1
    shuttle = {0: ("c3-c4", "c4-c3"), 1: ("k6-j6", "j6-k6"), 2: ("f11-e11", "e11-f11")}
    rollers = []
    for round_no in range(1, 5):
        assert state.round == round_no and state.order == (1, 2, 0)
        for seat in (1, 2, 0):
            assert GEYSER.to_move(state) == seat
            state = GEYSER.play(state, shuttle[seat][(round_no - 1) % 2])
        rollers.append(re.match(r"Firing phase: \{(\d)\} rolls", GEYSER.events(state)[-1])[1])
    assert rollers == ["1", "2", "0", "1"]
    assert state.first == 1 and state.roller == 2


def test_a_new_game_starts_with_the_first_player_as_roller():
    seed = seed_with(lambda d: d[1] > d[0], 2)
    state = GEYSER.play(GEYSER.new(2, seed), "start f1")
    assert state.first == state.roller == 1
    state = play_all(state, "f11-e11", "f1-e1")
    assert GEYSER.events(state)[-1].startswith("Firing phase: {1} rolls ") and state.roller == 0


def mother_position(**kw) -> GeyserState:
    """{0} controls 3 geysers and steps f5-f6, the last move of the round."""
    return pos({"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "k6": (1, 1)}, order=(0,), **kw)


@pytest.mark.parametrize(("one", "two"), [(1, 1), (2, 6), (4, 6), (6, 6)])
def test_a_player_on_the_mother_after_the_firing_phase_wins(one, two):
    state = mother_position(dice=dice_at(one, two))
    over = GEYSER.play(state, "f5-f6")
    assert over.phase == "over" and GEYSER.to_move(over) is None and over.winner == 0
    assert GEYSER.outcome(over) == Outcome((1.0, 0.0), frozenset({0}), "on the Mother Geyser after the firing phase")
    assert GEYSER.events(over)[-1] == "{0} stands on the Mother Geyser after the firing and wins."
    assert GEYSER.legal_moves(over) == []
    assert refusal(over, "k6-j6") == "The game is over: no more moves."
    assert refusal(over, "pass") == "The game is over: no more moves."


@pytest.mark.parametrize(("one", "two"), [(1, 6), (3, 4), (5, 2)])
def test_seven_fires_the_mother_by_default_and_destroys_who_stands_there(one, two):
    state = mother_position(dice=dice_at(one, two))
    after = GEYSER.play(state, "f5-f6")
    assert after.phase == "play" and GEYSER.outcome(after) is None and held(after, "f6") is None
    assert after.supply == (state.supply[0] + 1, state.supply[1]) and held(after, "d1") == (0, 1)
    assert GEYSER.events(after)[-1] == (
        f"Firing phase: {{0}} rolls {one}+{two} = 7: the Mother Geyser fires; destroyed: {{0}}'s token on f6."
    )
    assert GEYSER.to_move(after) == 0 and after.round == 2


def test_with_calm_sevens_seven_fires_nothing_and_the_mother_player_wins():
    state = mother_position(dice=dice_at(3, 4), seven="calm")
    over = GEYSER.play(state, "f5-f6")
    assert over.winner == 0 and over.phase == "over"
    assert "Firing phase: {0} rolls 3+4 = 7: 7 fires nothing (calm sevens); nothing is destroyed." in GEYSER.events(
        over
    )
    quiet = pos({"e5": (1, 2), "c3": (0, 1)}, seven="calm", turn=1, order=(1,), dice=dice_at(2, 5))
    after = GEYSER.play(quiet, "e5-e4")
    assert held(after, "e5") == (1, 1) and held(after, "e4") == (1, 1)


def test_the_mother_is_won_only_after_the_firing_not_on_entering_it():
    state = pos({"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "k6": (1, 1)}, dice=dice_at(2, 2))
    entered = GEYSER.play(state, "f5-f6")
    assert entered.phase == "play" and GEYSER.to_move(entered) == 1
    over = GEYSER.play(entered, "k6-j6")
    assert over.winner == 0


def test_a_player_on_the_mother_can_be_attacked_there_before_the_firing():
    board = {"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1)}
    board.update({"f7": (1, 1), "h11": (1, 1), "d10": (1, 1), "j8": (1, 1)})
    entered = GEYSER.play(pos(board, dice=dice_at(6, 1, 2, 2)), "f5-f6")
    assert entered.phase == "play" and GEYSER.to_move(entered) == 1
    over = GEYSER.play(entered, "f7-f6")  # 6+3 against 1+3, then the 4/10 ring fires
    assert over.last_rolls == ("battle 6+3 v 1+3", "fire 2+2")
    assert held(over, "f6") == (1, 1) and over.winner == 1


# --- The round cap --------------------------------------------------------------------------------


def last_round(tokens: dict[str, tuple[int, int]], seats: int = 2, **kw) -> GeyserState:
    """The last turn of round 100 (of 100 by default): seat 0 steps c3-c4, then the geysers fire 3+3 (the
    6/8 ring) unless `dice` says otherwise."""
    kw.setdefault("round", 100)
    kw.setdefault("dice", dice_at(3, 3))
    return pos({"c3": (0, 1), **tokens}, seats=seats, order=(0,), **kw)


def test_after_the_firing_of_the_last_round_the_most_geysers_win():
    state = last_round({"d1": (0, 1), "k4": (0, 2), "a8": (1, 1)})
    over = GEYSER.play(state, "c3-c4")
    assert over.phase == "over" and GEYSER.to_move(over) is None and over.round == 100
    assert over.winners == (0,) and over.winner == 0 and over.last_fire == (3, 3)
    assert GEYSER.outcome(over) == Outcome((1.0, 0.0), frozenset({0}), "the most geysers after 100 rounds")
    assert GEYSER.events(over)[-2:] == (
        "Firing phase: {0} rolls 3+3 = 6: the 6/8 ring fires; nothing is destroyed.",
        "Round 100 of 100 is over: {0} holds the most geysers (2) and wins.",
    )
    assert GEYSER.legal_moves(over) == [] and refusal(over, "c4-c3") == "The game is over: no more moves."
    # one round earlier the game goes on into the last round
    before = GEYSER.play(replace(state, round=99), "c3-c4")
    assert before.phase == "play" and before.round == 100 and GEYSER.outcome(before) is None


def test_the_rounds_option_sets_the_last_round():
    state = last_round({"d1": (1, 1)}, round=10, rounds=10)
    assert GEYSER.play(state, "c3-c4").winners == (1,)
    longer = GEYSER.play(replace(state, rounds=11), "c3-c4")
    assert longer.phase == "play" and longer.round == 11
    new = GEYSER.new(2, 0, rounds=10)
    assert new.rounds == 10 and GEYSER.play(new, "start f1").rounds == 10


def test_geysers_fired_in_the_last_firing_phase_no_longer_count():
    state = last_round({"e5": (0, 1), "g5": (0, 1), "e7": (0, 1), "h11": (1, 1)})  # 3+3 fires the 6/8 ring
    over = GEYSER.play(state, "c3-c4")
    assert over.winners == (1,) and held(over, "e5") is None
    assert GEYSER.events(over)[-1] == "Round 100 of 100 is over: {1} holds the most geysers (1) and wins."


def test_equal_most_geysers_share_the_win():
    state = last_round({"d1": (0, 1), "k4": (0, 1), "a8": (1, 1), "h11": (2, 1), "b4": (2, 1)}, seats=3)
    over = GEYSER.play(state, "c3-c4")
    assert over.winners == (0, 2) and over.winner is None
    outcome = GEYSER.outcome(over)
    assert outcome == Outcome((1.0, 0.0, 1.0), frozenset({0, 2}), "the most geysers after 100 rounds, shared")
    assert not outcome.is_draw
    assert GEYSER.events(over)[-1] == (
        "Round 100 of 100 is over: {0} and {2} hold the most geysers (2 each) and share the win."
    )
    assert GEYSER.loads(GEYSER.dumps(over)) == over and '"winners":[0,2]' in GEYSER.dumps(over)


def test_with_no_geyser_held_every_player_still_in_shares_and_an_out_player_does_not():
    state = replace(last_round({"k6": (1, 1), "f11": (2, 1)}, seats=4, supply=(11, 11, 11, 0)), out=frozenset({3}))
    over = GEYSER.play(state, "c3-c4")
    assert over.winners == (0, 1, 2)
    assert GEYSER.outcome(over).scores == (1.0, 1.0, 1.0, 0.0)
    shared = "nobody holds a geyser, so {0}, {1} and {2} share the win."
    assert GEYSER.events(over)[-1] == f"Round 100 of 100 is over: {shared}"


def test_a_player_on_the_mother_after_the_last_firing_wins_over_more_geysers():
    board = {"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1)}
    board |= {"h11": (1, 1), "b4": (1, 1), "j8": (1, 1), "d10": (1, 1)}
    state = pos(board, order=(0,), round=10, rounds=10, dice=dice_at(2, 2))  # 4: the 4/10 ring, nobody on it
    over = GEYSER.play(state, "f5-f6")
    assert over.winners == (0,) and over.end == "on the Mother Geyser after the firing phase"


def test_random_players_are_stopped_by_the_round_cap():
    rng = random.Random(4)
    state = GEYSER.new(3, 4, rounds=10)
    log = []
    while GEYSER.to_move(state) is not None:
        move = rng.choice(GEYSER.legal_moves(state))
        log.append(GEYSER.canonical(state, move))
        state = GEYSER.play(state, move)
    assert state.round == 10 and state.end.startswith("the most geysers after 10 rounds")
    assert set(state.winners) == {s for s in range(3) if state.controls(s) == max(map(state.controls, range(3)))}
    assert GEYSER.dumps(play_all(GEYSER.new(3, 4, rounds=10), *log)) == GEYSER.dumps(state)


# --- Stored games from before the round cap and the two-player starting squares ---------------------

OLD_LOG = (
    "start a6 [opening 5 6]", "k6-k7", "a6-a7 [fire 5+5]", "k7-j7", "a7-a8", "skip [fire 2+2]", "j7-j6",
    "pass [fire 4+4]", "j6-j7", "pass [fire 6+2]", "j7-j8", "place j7", "pass [fire 2+6]", "j7-j8",
    "pass [fire 5+6]", "start a6", "pass [fire 4+6]", "a6-a5", "pass [fire 5+5]", "a5-a4", "pass [fire 6+5]",
    "a4-a5", "pass [fire 2+1]", "a5-a4", "pass [fire 3+6]", "a4-a5", "pass [fire 1+1]", "a5-a4",
    "start a6 [fire 2+3]", "a4-b4", "place c3", "a6-a7 [fire 2+4]", "c3-c4", "a7-a6 [fire 3+4]", "c4-b4",
    "a6-a5 [fire 5+5]", "b4-b3", "a5-a6 [fire 2+2]", "b3-b4", "a6-b6 [fire 1+3]", "b4-c4",
)  # fmt: skip
"""The move log of a two-player game (seed 0, tokens 2) played before the ruling: it starts on a6 (so
the other player got k6) and re-enters on a6 three times."""
OLD_STATE = (
    '{"game":"geyser","seats":2,"board":{"b4":[1,1],"c4":[1,1],"b6":[0,1]},"supply":[1,0],"out":[],'
    '"phase":"play","turn":0,"pending":null,"first":1,"order":[0],"round":19,"roller":1,"winner":null,'
    '"end":null,"seven":"mother","seed":0,"dice":38,"last_seat":1,"last_move":[34,35],"last_battle":[],'
    '"last_fire":null,"last_rolls":[],"ply":41,"events":["{1} moves b4-c4."]}'
)
"""Its final state as the engine saved it then (no rounds, no starts, a single `winner`)."""
OLD_OVER = (
    '{"game":"geyser","seats":2,"board":{"d1":[0,1],"k4":[0,1],"f6":[0,1],"k6":[1,1],"a8":[0,1]},'
    '"supply":[8,11],"out":[],"phase":"over","turn":null,"pending":null,"first":0,"order":[0],"round":1,'
    '"roller":0,"winner":0,"end":"on the Mother Geyser after the firing phase","seven":"mother","seed":7,'
    '"dice":17,"last_seat":0,"last_move":[49,60],"last_battle":[],"last_fire":[2,2],"last_rolls":["fire 2+2"],'
    '"ply":1,"events":["{0} moves f5-f6.","Firing phase: {0} rolls 2+2 = 4: the 4/10 ring fires; nothing is '
    'destroyed.","{0} stands on the Mother Geyser after the firing and wins."]}'
)
"""A finished game as the engine saved it then."""


def test_a_state_saved_before_the_change_loads_with_the_default_rounds_and_its_four_starts():
    old = GEYSER.loads(OLD_STATE)
    assert old.rounds == 100 and old.starts == "four" and old.winners == () and old.round == 19
    assert GEYSER.to_move(old) == 0 and set(GEYSER.legal_moves(old)) == {"b6-a6", "b6-b5", "b6-b7", "b6-c6"}
    assert GEYSER.loads(GEYSER.dumps(old)) == old
    over = GEYSER.loads(OLD_OVER)
    assert over.winners == (0,) and over.winner == 0 and over.rounds == 100
    assert GEYSER.outcome(over) == Outcome((1.0, 0.0), frozenset({0}), "on the Mother Geyser after the firing phase")


def test_an_old_two_player_log_that_used_a6_replays_with_starts_four():
    with pytest.raises(IllegalMove, match="a6 is plain land in a two-player game"):
        GEYSER.play(GEYSER.new(2, 0, tokens=2), OLD_LOG[0])  # the rules today refuse its first move...
    replayed = play_all(GEYSER.new(2, 0, tokens=2, starts="four"), *OLD_LOG)  # ...the option keeps it
    assert replayed == GEYSER.loads(OLD_STATE)


# --- Passing, re-entry, players out -----------------------------------------------------------------


def test_pass_only_when_there_is_no_legal_move():
    state = pos({"d1": (0, 1), "k6": (1, 1)})
    assert GEYSER.legal_moves(state) == ["pass"]
    after = GEYSER.play(state, "pass")
    assert GEYSER.to_move(after) == 1 and after.board == state.board
    assert GEYSER.events(after) == ("{0} cannot move and passes.",)
    movable = pos({"d1": (0, 1), "c3": (0, 1), "k6": (1, 1)})
    assert "pass" not in GEYSER.legal_moves(movable)
    assert refusal(movable, "pass") == "You can move, so you cannot pass."


def test_re_entry_on_a_free_starting_square_when_no_token_is_on_the_board():
    state = pos({"f1": (1, 1), "c3": (1, 1), "h9": (2, 1)}, seats=3, supply=(3, 10, 11))
    assert set(GEYSER.legal_moves(state)) == {"start k6", "start f11", "start a6"}
    assert "is not a free starting square" in refusal(state, "start f1")
    assert "is not a free starting square" in refusal(state, "start c4")
    assert refusal(state, "c3-c4") == "You have no token on c3."
    after = GEYSER.play(state, "Start A6")
    assert held(after, "a6") == (0, 1) and after.supply == (2, 10, 11) and GEYSER.to_move(after) == 1
    assert GEYSER.events(after) == ("{0} re-enters on a6.",)
    on_board = pos({"c3": (0, 1), "k6": (1, 1)})
    assert refusal(on_board, "start f1") == "You still have tokens on the island: move one."


def test_with_two_players_re_entry_is_on_f1_or_f11_only():
    state = pos({"c3": (1, 1)}, supply=(3, 10))
    assert GEYSER.legal_moves(state) == ["start f1", "start f11"]
    why = "is plain land in a two-player game: the starting squares are f1 and f11."
    assert refusal(state, "start a6") == f"a6 {why}" and refusal(state, "start k6") == f"k6 {why}"
    after = GEYSER.play(state, "start f11")
    assert held(after, "f11") == (0, 1) and GEYSER.events(after) == ("{0} re-enters on f11.",)
    one_free = pos({"f1": (1, 1), "c3": (1, 1)}, supply=(3, 10))
    assert GEYSER.legal_moves(one_free) == ["start f11"]
    # f1 and f11 taken: a6 and k6 are free, but a two-player game does not use them, so the player passes
    blocked = pos({"f1": (1, 1), "f11": (1, 1)}, supply=(3, 10))
    assert GEYSER.legal_moves(blocked) == ["pass"]
    assert GEYSER.events(GEYSER.play(blocked, "pass")) == ("{0} cannot move and passes.",)


def test_with_every_starting_square_taken_a_player_with_no_token_passes():
    state = pos({name: (1, 1) for name in ("f1", "k6", "f11", "a6")})
    assert GEYSER.legal_moves(state) == ["pass"]
    assert GEYSER.to_move(GEYSER.play(state, "pass")) == 1


def test_a_player_with_no_token_anywhere_is_out_and_skipped_afterwards():
    state = pos({"c3": (0, 1), "k6": (1, 1)}, seats=3, supply=(11, 11, 0), turn=1, order=(1,))
    after = GEYSER.play(state, "k6-j6")
    assert after.out == frozenset({2}) and "{2} has no tokens left and is out." in GEYSER.events(after)
    assert after.order == (0, 1) and after.roller == 1
    state = play_all(after, "c3-c4", "j6-k6")
    assert state.round == 3 and state.order == (0, 1) and state.roller == 0
    assert GEYSER.events(state)[-1].startswith("Firing phase: {1} rolls")


def test_the_last_player_left_wins():
    state = pos({"c3": (0, 1)}, supply=(11, 0), turn=0, order=(0,))
    over = GEYSER.play(state, "c3-c4")
    assert over.phase == "over" and over.winner == 0 and GEYSER.to_move(over) is None
    assert GEYSER.outcome(over) == Outcome((1.0, 0.0), frozenset({0}), "every other player is out")
    assert GEYSER.events(over)[-1] == "{0} is the last player left and wins."


def test_a_player_with_nothing_left_is_not_offered_a_re_entry():
    state = pos({"c3": (0, 1)}, supply=(11, 0), turn=1, order=(1, 0))
    assert not [m for m in GEYSER.legal_moves(state) if m.startswith("start")]
    with pytest.raises(IllegalMove):
        GEYSER.play(state, "start f1")


# --- Contract details: pending moves, canonical text, views ----------------------------------------


def candidate_texts() -> list[str]:
    texts = ["skip", "retreat", "again", "pass"]
    for s in sorted(LAND):
        name = SQUARE_NAMES[s]
        texts += [f"start {name}", f"place {name}"]
        x, y = s % 11, s // 11
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)):
            if 0 <= x + dx < 11 and 0 <= y + dy < 11:
                texts.append(f"{name}-{SQUARE_NAMES[(y + dy) * 11 + x + dx]}")
    return texts


CANDIDATES = candidate_texts()


def accepted(state: GeyserState) -> set[str]:
    out = set()
    for text in CANDIDATES:
        try:
            GEYSER.play(state, text)
        except IllegalMove:
            continue
        out.add(text)
    return out


def sample_states() -> list[GeyserState]:
    states = [
        GEYSER.new(3, 0),
        GEYSER.play(GEYSER.new(3, 0), "start f1"),
        GEYSER.play(claim_position(), "e6-e5"),
        GEYSER.play(pos({"c3": (0, 1), "c4": (1, 1)}, dice=dice_at(3, 3)), "c3-c4"),
        pos({"d1": (0, 1), "k6": (1, 1)}),
        pos({"f1": (1, 1), "c3": (1, 1)}),
        pos({"f5": (0, 1), "d1": (0, 1), "k4": (0, 1), "a8": (0, 1), "e3": (0, 2), "k6": (1, 1)}),
    ]
    rng = random.Random(5)
    state = GEYSER.new(4, 5)
    for ply in range(400):
        if GEYSER.to_move(state) is None:
            break
        if ply % 25 == 0 or state.pending is not None:
            states.append(state)
        state = GEYSER.play(state, rng.choice(GEYSER.legal_moves(state)))
    return states


def test_legal_moves_are_exactly_what_play_accepts():
    for state in sample_states():
        legal = GEYSER.legal_moves(state)
        assert len(set(legal)) == len(legal)
        assert accepted(state) == set(legal), GEYSER.dumps(state)


def test_pending_choices_belong_to_the_same_player_and_keep_the_round():
    claimed = GEYSER.play(claim_position(), "e6-e5")
    assert GEYSER.to_move(claimed) == 0 and claimed.order == (0, 1)
    tied = GEYSER.play(pos({"c3": (0, 1), "c4": (1, 1)}, dice=dice_at(3, 3)), "c3-c4")
    assert GEYSER.to_move(tied) == 0 and tied.order == (0, 1)
    for state in (claimed, tied):
        assert GEYSER.dumps(GEYSER.loads(GEYSER.dumps(state))) == GEYSER.dumps(state)
        assert GEYSER.loads(GEYSER.dumps(state)) == state


def test_canonical_moves_carry_every_roll_and_play_accepts_them_back():
    state = pos({"c3": (0, 1), "c4": (1, 1), "k6": (1, 1)}, order=(0,), dice=dice_at(5, 2, 3, 3))
    text = GEYSER.canonical(state, "C3 - C4")
    assert text == "c3-c4 [battle 5+0 v 2+0; fire 3+3]"
    assert GEYSER.dumps(GEYSER.play(state, text)) == GEYSER.dumps(GEYSER.play(state, "c3-c4"))
    assert GEYSER.play(state, text).last_rolls == ("battle 5+0 v 2+0", "fire 3+3")
    # the brackets are only a record: the dice follow from the seed
    assert GEYSER.dumps(GEYSER.play(state, "c3-c4 [battle 1+0 v 6+0]")) == GEYSER.dumps(GEYSER.play(state, text))
    assert GEYSER.canonical(pos(PLAIN | {"k6": (1, 1)}), "c3-c4") == "c3-c4"


@pytest.mark.parametrize("text", ["hello", "c3", "c3-c4-c5", "place", "start", "", "c3-c4 extra"])
def test_unreadable_text_is_invalid_notation(text):
    with pytest.raises(InvalidNotation):
        GEYSER.play(pos(PLAIN | {"k6": (1, 1)}), text)


def test_view_hides_only_the_seed():
    state = GEYSER.play(pos({"c3": (0, 1), "c4": (1, 1)}, seed=42, dice=dice_at(3, 3, seed=42)), "c3-c4")
    for seat in (None, 0, 1):
        seen = GEYSER.view(state, seat)
        assert seen.seed is None and replace(seen, seed=42) == state
        assert '"seed":null' in GEYSER.dumps(seen)


# --- Whole seeded games ----------------------------------------------------------------------------


def distance(a: int, b: int) -> int:
    return abs(a % 11 - b % 11) + abs(a // 11 - b // 11)


def greedy(state: GeyserState, rng: random.Random) -> str:
    """Claim geysers, fight, and head for the Mother once it is open; random among equals."""
    seat = state.turn
    mother_open = state.controls(seat) >= 3

    def score(move: str) -> float:
        if move == "again":
            return 5.0
        if move.startswith("place"):
            return 4.0 - distance(sq(move[6:]), MOTHER) / 10
        if "-" not in move:
            return 0.0
        a, b = (sq(n) for n in move.split("-"))
        h = state.board[b]
        value = 0.0
        if b == MOTHER:
            value += 100
        if b in GEYSERS and not (h and h[0] == seat):
            value += 10
        if h and h[0] != seat:
            value += 3
        if mother_open:
            value += 2 * (distance(a, MOTHER) - distance(b, MOTHER))
        return value + rng.random()

    return max(GEYSER.legal_moves(state), key=score)


def dice_in(canonical: str) -> int:
    rolls = re.search(r"\[(.*)\]$", canonical)
    if not rolls:
        return 0
    count = 0
    for roll in rolls[1].split("; "):
        kind, rest = roll.split(" ", 1)
        count += {"opening": len(rest.split()), "battle": 2, "fire": 2}[kind]
    return count


@pytest.mark.parametrize(("seats", "seed"), [(2, 11), (3, 12), (4, 13), (2, 14), (3, 15)])
def test_a_seeded_game_replays_from_its_canonical_moves(seats, seed):
    rng = random.Random(seed)
    options = {"seven": "calm"} if seed % 2 else {}
    state = GEYSER.new(seats, seed, **options)
    log = []
    for _ in range(3000):
        if GEYSER.to_move(state) is None:
            break
        move = greedy(state, rng) if rng.random() < 0.9 else rng.choice(GEYSER.legal_moves(state))
        text = GEYSER.canonical(state, move)
        after = GEYSER.play(state, move)
        assert dice_in(text) == after.dice - state.dice  # every die rolled is in the log
        for seat in range(seats):  # destroyed tokens go back to the supply: none is ever lost
            assert after.supply[seat] + after.on_board(seat) == 12
            assert after.supply[seat] >= 0
        log.append(text)
        state = after
    assert GEYSER.outcome(state) is not None, "the greedy players should reach the Mother"
    assert state.end == "on the Mother Geyser after the firing phase"
    replay = GEYSER.new(seats, seed, **options)
    for text in log:
        replay = GEYSER.play(replay, text)
    assert GEYSER.dumps(replay) == GEYSER.dumps(state)
    assert GEYSER.loads(GEYSER.dumps(state)) == state


def test_a_random_seeded_game_replays_from_its_canonical_moves():
    rng = random.Random(21)
    state = GEYSER.new(4, 21, tokens=3)
    log = []
    for _ in range(1500):
        if GEYSER.to_move(state) is None:
            break
        move = rng.choice(GEYSER.legal_moves(state))
        log.append(GEYSER.canonical(state, move))
        state = GEYSER.play(state, move)
    replay = play_all(GEYSER.new(4, 21, tokens=3), *log)
    assert GEYSER.dumps(replay) == GEYSER.dumps(state)
    assert state.ply == len(log)
