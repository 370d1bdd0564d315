"""Rules tests for "1, 2, 3" (Hey, That's My Fish! for two): docs/rules/fish.md, rule by rule.

Positions are hand-built with `fish_positions.position`, naming tiles like {"G2": 1}; every tile not named
is a gap. Rows A to C full of 1-tiles (`BACKGROUND`) give a big shared region where the other tokens live,
so only the corner under test can become an island.
"""

from __future__ import annotations

import functools
import random
import re

import pytest

from bot.games import BadOptions, IllegalMove, Outcome
from bot.games.fish import (
    DIRECTIONS,
    FISH,
    ISLAND_LIMIT,
    NEIGHBOURS,
    RAYS,
    TILE_NAMES,
    FishMove,
    generate_board,
    parse_tile,
    solve_island,
)
from tests.games.fish_positions import (
    BACKGROUND,
    INDEX,
    NAMES,
    board,
    line,
    position,
    reachable,
    rule_neighbours,
    tokens,
    value,
)

SORTED_BOARD = "1" * 30 + "2" * 20 + "3" * 10
"""A valid explicit board: rows A-D are all 1-tiles, E, F and G1-G5 are 2s, G6-G8 and H are 3s."""
BOARD_TOTAL = 30 * 1 + 20 * 2 + 10 * 3


def names(tiles) -> set[str]:
    return {TILE_NAMES[t] for t in tiles}


def refusal(state, move: str) -> str:
    """The message of the IllegalMove that `move` raises in `state`."""
    with pytest.raises(IllegalMove) as caught:
        FISH.play(state, move)
    return str(caught.value)


def play_all(state, *moves: str):
    for move in moves:
        state = FISH.play(state, move)
    return state


def placed_game(first: int = 0, seed: int = 7):
    """A game on SORTED_BOARD right after the eight placements (no token stuck), `first` to move."""
    state = FISH.new(2, seed, board=SORTED_BOARD, first=first)
    return play_all(state, "A1", "A3", "A5", "A7", "C1", "C3", "C5", "C7")


# --- Board -----------------------------------------------------------------------------------------


def test_board_has_60_tiles_named_a1_to_h7_row_by_row():
    """Rows A, C, E, G hold 8 tiles; B, D, F, H hold 7; a tile is row letter + 1-based position."""
    assert len(TILE_NAMES) == 60
    assert TILE_NAMES == NAMES
    assert TILE_NAMES[:9] == ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "B1")
    assert TILE_NAMES[-1] == "H7"
    assert [sum(n[0] == row for n in TILE_NAMES) for row in "ABCDEFGH"] == [8, 7, 8, 7, 8, 7, 8, 7]


@pytest.mark.parametrize("tile", NAMES)
def test_neighbours_follow_the_row_offset_rule(tile):
    """From an 8-tile row, c touches c-1 and c of the rows above/below; from a 7-tile row, c and c+1."""
    assert names(NEIGHBOURS[INDEX[tile]]) == rule_neighbours(tile)


def test_neighbour_rule_examples():
    assert rule_neighbours("D4") == {"D3", "D5", "C4", "C5", "E4", "E5"}
    assert names(NEIGHBOURS[INDEX["E4"]]) == {"E3", "E5", "D3", "D4", "F3", "F4"}
    assert names(NEIGHBOURS[INDEX["A1"]]) == {"A2", "B1"}
    assert names(NEIGHBOURS[INDEX["A8"]]) == {"A7", "B7"}


@pytest.mark.parametrize("tile", NAMES)
def test_straight_lines_run_to_the_board_edge_in_each_named_direction(tile):
    for index, direction in enumerate(DIRECTIONS):
        assert [TILE_NAMES[t] for t in RAYS[INDEX[tile]][index]] == line(tile, direction), direction


def test_seed_island_g1_g2_h1_h2_is_one_connected_group():
    """fish.md: the seed's island example G1, G2, H1, H2 is one connected group."""
    group = {INDEX[n] for n in ("G1", "G2", "H1", "H2")}
    seen, stack = {INDEX["G2"]}, [INDEX["G2"]]
    while stack:
        for nb in NEIGHBOURS[stack.pop()]:
            if nb in group and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    assert seen == group


def test_h7_is_the_bottom_right_tile():
    """The seed: "the tile on the very bottom right is H7" (row H is shifted right by half a tile)."""
    h7 = INDEX["H7"]
    assert names(NEIGHBOURS[h7]) == {"H6", "G7", "G8"}
    for direction in ("E", "SE", "SW"):
        assert RAYS[h7][list(DIRECTIONS).index(direction)] == ()
    # G8 is the last tile of its row but H7 still touches it from below-right.
    assert "H7" in names(NEIGHBOURS[INDEX["G8"]])


@pytest.mark.parametrize("text", ["H7", "h7", " h7 ", "H 7"])
def test_tile_names_are_case_insensitive(text):
    assert parse_tile(text) == INDEX["H7"]


@pytest.mark.parametrize(
    ("text", "words"),
    [("H8", "row H has tiles 1 to 7"), ("A9", "row A has tiles 1 to 8"), ("I1", "rows go from A")],
)
def test_tiles_off_the_board_are_refused_in_words(text, words):
    with pytest.raises(IllegalMove, match=words):
        parse_tile(text)


# --- Generation ------------------------------------------------------------------------------------


def bands(values):
    return [values[start : start + 15] for start in (0, 15, 30, 45)]


@pytest.mark.parametrize("seed", range(300))
def test_generated_board_holds_30_ones_20_twos_10_threes_evenly(seed):
    """30/20/10 tiles; RULING: each 2-row band holds 7 or 8 ones, exactly 5 twos, 2 or 3 threes."""
    values = generate_board(seed)
    assert len(values) == 60
    assert (values.count(1), values.count(2), values.count(3)) == (30, 20, 10)
    for band in bands(values):
        assert band.count(1) in (7, 8)
        assert band.count(2) == 5
        assert band.count(3) in (2, 3)
        assert band.count(1) + band.count(3) == 10


def test_bands_are_the_two_row_pairs():
    """A-B is tiles 0-14, C-D 15-29, E-F 30-44, G-H 45-59."""
    assert [TILE_NAMES[s] for s in (0, 15, 30, 45)] == ["A1", "C1", "E1", "G1"]
    assert [TILE_NAMES[s + 14] for s in (0, 15, 30, 45)] == ["B7", "D7", "F7", "H7"]


def test_both_band_kinds_occur_in_every_position():
    """Which bands get the third 3 depends on the seed (the board is not always the same shape)."""
    heavy = {tuple(band.count(3) == 3 for band in bands(generate_board(seed))) for seed in range(100)}
    assert len(heavy) == 6  # every choice of 2 heavy bands among 4


def test_same_seed_gives_the_same_board():
    for seed in (0, 1, 12345, 2**40):
        assert generate_board(seed) == generate_board(seed)
        assert FISH.new(2, seed).values == FISH.new(2, seed).values == generate_board(seed)


def test_different_seeds_give_different_boards():
    boards = {generate_board(seed) for seed in range(300)}
    assert len(boards) >= 298


# --- Options ---------------------------------------------------------------------------------------


def test_explicit_board_is_used_and_spaces_and_slashes_are_ignored():
    rows = [SORTED_BOARD[0:8], SORTED_BOARD[8:15], SORTED_BOARD[15:23], SORTED_BOARD[23:30]]
    rows += [SORTED_BOARD[30:38], SORTED_BOARD[38:45], SORTED_BOARD[45:53], SORTED_BOARD[53:60]]
    for text in (SORTED_BOARD, " / ".join(rows), " ".join(rows), "/".join(rows) + "\n"):
        state = FISH.new(2, 3, board=text)
        assert "".join(map(str, state.values)) == SORTED_BOARD
    assert FISH.new(2, 3, board=SORTED_BOARD).values != generate_board(3)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (SORTED_BOARD[:-1], "needs 60 digits .*got 59"),
        (SORTED_BOARD + "3", "needs 60 digits .*got 61"),
        ("", "got 0"),
        ("0" + SORTED_BOARD[1:], "only hold the digits 1, 2 and 3"),
        (SORTED_BOARD[:-1] + "4", "only hold the digits 1, 2 and 3"),
        (SORTED_BOARD[:-1] + "x", "only hold the digits 1, 2 and 3"),
        ("1" * 31 + "2" * 19 + "3" * 10, "30 ones, 20 twos and 10 threes; it holds 31 ones, 19 twos and 10 threes"),
        ("1" * 30 + "2" * 19 + "3" * 11, "it holds 30 ones, 19 twos and 11 threes"),
        ("2" * 60, "it holds 0 ones, 60 twos and 0 threes"),
    ],
)
def test_bad_explicit_board_is_refused_saying_what_is_wrong(text, words):
    with pytest.raises(BadOptions, match=words):
        FISH.new(2, 0, board=text)


def test_board_option_must_be_text():
    with pytest.raises(BadOptions, match="60 digits"):
        FISH.new(2, 0, board=[1] * 60)


def test_bad_options_are_value_errors():
    assert issubclass(BadOptions, ValueError)


def test_unknown_option_is_refused_naming_the_known_ones():
    with pytest.raises(BadOptions, match=r"no option colour \(options: board, first\)"):
        FISH.new(2, 0, colour="red")


@pytest.mark.parametrize("first", [2, -1, "0", "1", None, True, False, 0.5, 1.0, 0.0])
def test_bad_first_is_refused(first):
    """Only the whole numbers 0 and 1 (a float seat once slipped through and crashed play)."""
    with pytest.raises(BadOptions, match="first must be seat 0 or seat 1"):
        FISH.new(2, 0, first=first)


@pytest.mark.parametrize("seats", [0, 1, 3, 4])
def test_wrong_seat_count_is_refused(seats):
    with pytest.raises(BadOptions, match=f"played by 2 players, not {seats}"):
        FISH.new(seats, 0)


@pytest.mark.parametrize("seed", [None, "7", 1.5, True])
def test_seed_must_be_a_whole_number(seed):
    with pytest.raises(BadOptions):
        FISH.new(2, seed)


# --- Placement -------------------------------------------------------------------------------------


def test_placement_offers_exactly_the_empty_1_tiles():
    state = FISH.new(2, 11)
    ones = {n for n in NAMES if value(state, n) == 1}
    assert len(ones) == 30
    assert set(FISH.legal_moves(state)) == ones
    target = sorted(ones)[0]
    state = FISH.play(state, target)
    assert set(FISH.legal_moves(state)) == ones - {target}


@pytest.mark.parametrize("first", [0, 1])
def test_placement_alternates_starting_with_first(first):
    """Players alternate placing one token at a time; `first` places first."""
    state = FISH.new(2, 5, board=SORTED_BOARD, first=first)
    seats = []
    for tile in ("A1", "A3", "A5", "A7", "C1", "C3", "C5", "C7"):
        seats.append(FISH.to_move(state))
        assert state.placing
        state = FISH.play(state, tile)
    assert seats == [first, 1 - first] * 4
    assert tokens(state, first) == {"A1", "A5", "C1", "C5"}
    assert tokens(state, 1 - first) == {"A3", "A7", "C3", "C7"}


@pytest.mark.parametrize("first", [0, 1])
def test_four_tokens_each_then_the_first_placer_moves_first(first):
    """Each player has 4 tokens; the player who placed first also moves first."""
    state = placed_game(first)
    assert not state.placing
    assert state.placed == (4, 4)
    assert FISH.to_move(state) == first
    moves = FISH.legal_moves(state)
    assert moves and all("-" in m for m in moves)
    assert {m.split("-")[0] for m in moves} == tokens(state, first)
    assert state.scores == (0, 0)  # nobody was stuck


def test_placing_on_a_2_tile_is_refused_saying_tokens_go_on_1_tiles():
    state = FISH.new(2, 0, board=SORTED_BOARD)
    assert value(state, "E2") == 2
    message = refusal(state, "E2")
    assert message == "E2 is worth 2: tokens are placed on 1-tiles."
    assert "worth 3" in refusal(state, "H7")


def test_placing_on_a_token_is_refused():
    state = play_all(FISH.new(2, 0, board=SORTED_BOARD), "D4")
    assert refusal(state, "D4") == "D4 already holds a token."
    assert refusal(state, "d4") == "D4 already holds a token."


def test_a_move_during_placement_is_refused_with_a_message():
    state = FISH.new(2, 0, board=SORTED_BOARD)
    message = refusal(state, "D4-F3")
    assert message.startswith("D4-F3: tokens are still being placed")
    assert "1-tile" in message


@pytest.mark.parametrize("text", ["D4", "d4", "place d4", "PLACE D4", "  place   d4  ", "Place D 4"])
def test_placement_notation_variants_are_accepted(text):
    state = FISH.play(FISH.new(2, 0, board=SORTED_BOARD), text)
    assert tokens(state, 0) == {"D4"}
    assert state.last_move == "D4"
    assert FISH.to_move(state) == 1


def test_a_placement_after_all_tokens_are_placed_is_refused():
    state = placed_game()
    message = refusal(state, "D4")
    assert message.startswith("D4: all tokens are placed, so move one in a straight line")


def test_tokens_stuck_at_the_end_of_placement_are_removed_for_both_players():
    """Checked after the placement phase ends: a token with no legal move is removed and scores its tile.

    A1 touches only A2 and B1, A8 only A7 and B7; with tokens on all of those, A1 (seat 0) and A8
    (seat 1) cannot move.
    """
    state = FISH.new(2, 1, board=SORTED_BOARD)
    state = play_all(state, "A1", "A2", "B1", "A8", "A7", "B7", "D4")
    assert state.placing and state.scores == (0, 0)  # no check before the last placement
    state = FISH.play(state, "D2")
    assert tokens(state, 0) == {"B1", "A7", "D4"}
    assert tokens(state, 1) == {"A2", "B7", "D2"}
    assert state.scores == (1, 1)
    assert value(state, "A1") == value(state, "A8") == 0
    assert names(state.cleared) == {"A1", "A8"}
    assert FISH.to_move(state) == 0
    text = " ".join(state.events)
    assert "{0}'s token on A1 cannot move: removed, +1." in state.events
    assert "{1}'s token on A8 cannot move: removed, +1." in state.events
    assert text.startswith("{1} places a token on D2.")


# --- Moves -----------------------------------------------------------------------------------------

FULL = {name: 1 for name in NAMES}


def test_a_token_moves_any_distance_along_all_six_straight_lines():
    """Move in a straight line, in one of the six directions, any number of tiles (at least one)."""
    state = position(FULL, ["D4"], ["H7"])
    expected = {f"D4-{t}" for direction in DIRECTIONS for t in line("D4", direction)}
    assert set(FISH.legal_moves(state)) == expected
    assert {"D4-D1", "D4-D7", "D4-A3", "D4-A6", "D4-H2", "D4-H6", "D4-E4", "D4-F3"} <= expected
    assert len(expected) == 3 + 3 + 3 + 3 + 4 + 4
    for move in expected:
        FISH.play(state, move)


def test_legal_moves_match_an_independent_model_in_a_crowded_position():
    rng = random.Random(3)
    present = set(rng.sample(NAMES, 40))
    mine, theirs = rng.sample(sorted(present), 4), []
    theirs = rng.sample(sorted(present - set(mine)), 4)
    state = position({n: 2 for n in present}, mine, theirs)
    occupied = set(mine) | set(theirs)
    expected = {f"{src}-{dst}" for src in mine for dst in reachable(src, present, occupied)}
    assert set(FISH.legal_moves(state)) == expected


def test_not_in_a_straight_line_is_refused_with_the_exact_message():
    """A token cannot change direction. (D4-F3 *is* straight: D4, E4, F3 run south-west.)"""
    state = position(FULL, ["D4"], ["H7"])
    assert refusal(state, "D4-F4") == "D4-F4: F4 is not in a straight line from D4."
    assert refusal(state, "D4-E3") == "D4-E3: E3 is not in a straight line from D4."
    assert refusal(state, "D4-B4") == "D4-B4: B4 is not in a straight line from D4."
    FISH.play(state, "D4-F3")


def test_a_token_cannot_pass_over_or_land_on_a_token():
    state = position(FULL, ["D4", "D5"], ["E4"])
    assert refusal(state, "D4-D6") == "D4-D6: the token on D5 blocks the way."
    assert refusal(state, "D4-D5") == "D4-D5: D5 already holds a token."
    assert refusal(state, "D4-F3") == "D4-F3: the token on E4 blocks the way."
    assert refusal(state, "D4-E4") == "D4-E4: E4 already holds a token."
    assert not {"D4-D5", "D4-D6", "D4-D7", "D4-E4", "D4-F3"} & set(FISH.legal_moves(state))


def test_a_token_cannot_pass_over_or_land_on_a_gap():
    tiles = dict(FULL, D6=0, E4=0)
    state = position(tiles, ["D4"], ["H7"])
    assert refusal(state, "D4-D6") == "D4-D6: D6 is a gap (its tile was taken)."
    assert refusal(state, "D4-D7") == "D4-D7: D6 on the way is a gap (its tile was taken)."
    assert refusal(state, "D4-F3") == "D4-F3: E4 on the way is a gap (its tile was taken)."
    assert "D4-D5" in FISH.legal_moves(state)
    assert not {"D4-D6", "D4-D7", "D4-E4", "D4-F3", "D4-G3"} & set(FISH.legal_moves(state))


def test_moving_a_token_that_is_not_yours_or_not_there_is_refused():
    state = position(FULL, ["D4"], ["E4"])
    assert refusal(state, "E4-E5") == "E4-E5: the token on E4 is not yours."
    assert refusal(state, "B2-B3") == "B2-B3: there is no token on B2."
    assert refusal(state, "D4-D4") == "D4-D4: a token must move at least one tile."
    seat_1 = position(FULL, ["D4"], ["E4"], turn=1)
    assert refusal(seat_1, "D4-D5") == "D4-D5: the token on D4 is not yours."
    FISH.play(seat_1, "E4-E5")


def test_the_tile_left_is_removed_and_scored_by_the_mover():
    tiles = dict(FULL, D4=3, D5=2)
    state = position(tiles, ["D4", "A1"], ["H7"], scores=(4, 5))
    after = FISH.play(state, "D4-D6")
    assert after.scores == (7, 5)
    assert value(after, "D4") == 0
    assert value(after, "D5") == 2  # passed over, not taken
    assert tokens(after, 0) == {"D6", "A1"}
    assert FISH.to_move(after) == 1
    assert after.events == ("{0} moves D4-D6 and takes D4: +3.",)
    again = FISH.play(after, "H7-H1")
    assert again.scores == (7, 6)
    assert value(again, "H7") == 0


@pytest.mark.parametrize("text", ["d4-d6", "D4-D6", "d4 d6", "D4 to D6", "d4–d6", "D4>D6", " D4 - D6 "])
def test_move_notation_is_case_insensitive(text):
    state = position(FULL, ["D4"], ["H7"])
    assert FISH.play(state, text) == FISH.play(state, "D4-D6")
    assert str(FishMove.parse(text)) == "D4-D6"


def test_canonical_notation_round_trips_through_parse():
    for src in NAMES:
        assert str(FishMove.parse(src)) == src
        assert str(FishMove.parse(src.lower())) == src
        for dst in ("A1", "D4", "H7"):
            assert str(FishMove.parse(f"{src}-{dst}")) == f"{src}-{dst}"
            assert str(FishMove.parse(f"{src.lower()} {dst.lower()}")) == f"{src}-{dst}"
    assert str(FishMove.parse("place d4")) == "D4"


@pytest.mark.parametrize("seed", range(5))
def test_exactly_the_legal_moves_are_accepted(seed):
    """Every from-to pair and every placement is accepted iff legal_moves lists it."""
    rng = random.Random(seed)
    state = FISH.new(2, seed)
    for ply in range(30):
        if FISH.to_move(state) is None:
            break
        legal = set(FISH.legal_moves(state))
        if ply in (0, 5, 8, 12, 20):
            for text in [*NAMES, *(f"{a}-{b}" for a in NAMES for b in NAMES)]:
                try:
                    FISH.parse(state, text)
                except IllegalMove:
                    assert text not in legal
                else:
                    assert text in legal
        state = FISH.play(state, rng.choice(sorted(legal)))


# --- Stuck tokens ----------------------------------------------------------------------------------

# G4 slides west over G3 to G2; H1 touches only G1 (gap), H2 (gap) and G2. G3 hangs on a chain
# F3-E3-D3 to the background rows, where seat 1 has a token, so no island forms.
CORNER = dict(BACKGROUND, D3=1, E3=1, F3=1, G2=2, G3=2, G4=3, H1=1)


@pytest.mark.parametrize("owner", [0, 1])
def test_a_token_is_removed_when_a_move_lands_on_its_last_free_neighbour(owner):
    """A token with no legal move is removed; its owner scores its tile; the tile is removed too."""
    mine, theirs = (["G4", "H1"], ["A1"]) if owner == 0 else (["G4"], ["A1", "H1"])
    state = FISH.play(position(CORNER, mine, theirs, scores=(10, 20)), "G4-G2")
    scores = [13, 20]
    scores[owner] += 1
    assert state.scores == tuple(scores)
    assert "H1" not in tokens(state, owner)
    assert value(state, "H1") == 0 and value(state, "G4") == 0
    assert names(state.cleared) == {"H1"}
    assert state.events == (
        "{0} moves G4-G2 and takes G4: +3.",
        f"{{{owner}}}'s token on H1 cannot move: removed, +1.",
    )
    assert tokens(state, 0) >= {"G2"}
    assert FISH.to_move(state) == 1


@pytest.mark.parametrize("owner", [0, 1])
def test_a_token_is_removed_when_a_move_takes_its_last_neighbour_tile(owner):
    tiles = dict(CORNER, G2=3, G4=2)
    mine, theirs = (["G2", "H1"], ["A1"]) if owner == 0 else (["G2"], ["A1", "H1"])
    state = FISH.play(position(tiles, mine, theirs), "G2-G4")
    scores = [3, 0]
    scores[owner] += 1
    assert state.scores == tuple(scores)
    assert "H1" not in tokens(state, owner) and value(state, "H1") == 0
    assert f"{{{owner}}}'s token on H1 cannot move: removed, +1." in state.events


def test_the_moved_token_itself_is_removed_when_it_lands_stuck():
    """H1-H2: H2 then touches only gaps, so the token is removed at once and H2 is scored too."""
    tiles = dict(BACKGROUND, H1=1, H2=2)
    state = FISH.play(position(tiles, ["H1", "A1"], ["A8"]), "H1-H2")
    assert state.scores == (3, 0)
    assert tokens(state, 0) == {"A1"}
    assert value(state, "H2") == 0
    assert state.events[-1] == "{0}'s token on H2 cannot move: removed, +2."


def test_removing_a_stuck_token_can_cut_off_an_island_in_the_same_ply():
    """Checks repeat until nothing changes: a stuck token's tile goes, and that may leave an island.

    E4 (seat 1) touches only D3 and F3 (seat 0's token). Seat 1 moves C3-D3, so E4 is stuck and removed;
    without E4, seat 0's F3 is alone on F3 G3 G4 and collects all three (1 + 2 + 3).
    """
    tiles = dict(BACKGROUND, D3=1, E4=2, F3=1, G3=2, G4=3)
    before = position(tiles, ["F3", "A8"], ["C3", "E4", "A1"], turn=1)
    assert "E4-D3" in FISH.legal_moves(before)  # E4 can still move before the move
    state = FISH.play(before, "C3-D3")
    assert state.scores == (6, 1 + 2)
    assert tokens(state, 0) == {"A8"}
    assert tokens(state, 1) == {"D3", "A1"}
    assert state.events[0] == "{1} moves C3-D3 and takes C3: +1."
    assert state.events[1] == "{1}'s token on E4 cannot move: removed, +2."
    assert state.events[2].startswith("Island F3 G3 G4 is {0}'s alone: token on F3 removed, +6")
    assert len(state.events) == 3
    assert FISH.to_move(state) == 0


# --- Islands ---------------------------------------------------------------------------------------

SEED_ISLAND = {"G1": 1, "G2": 1, "H1": 2, "H2": 2}
# F2 (a 3) links G2 to the background through E2-D2-C2; moving F2-G2 (south-west) takes F2 and leaves
# the token alone on the seed's island.
BRIDGED_ISLAND = dict(BACKGROUND, D2=1, E2=1, F2=3, **SEED_ISLAND)


def test_seed_example_lone_token_on_g2_scores_6_when_its_island_is_cut_off():
    """RULING: a lone token on G2 with G1, H1, H2 beside it is removed and scores 6 (the seed's example)."""
    before = position(BRIDGED_ISLAND, ["F2", "A8"], ["A1"], scores=(5, 5))
    state = FISH.play(before, "F2-G2")
    assert state.scores == (5 + 3 + 6, 5)
    assert tokens(state, 0) == {"A8"}
    for tile in ("F2", "G1", "G2", "H1", "H2"):
        assert value(state, tile) == 0
    assert names(state.cleared) == set(SEED_ISLAND)
    award = state.events[-1]
    assert award.startswith("Island G1 G2 H1 H2 is {0}'s alone: token on G2 removed, +6")
    assert "best play:" in award
    assert FISH.to_move(state) == 1


def test_island_cut_off_by_the_opponents_move_is_awarded_to_its_owner():
    """Checked for both players after every move: seat 1 takes the bridge F2, seat 0's G2 island scores."""
    before = position(BRIDGED_ISLAND, ["G2", "A8"], ["F2", "A1"], turn=1)
    state = FISH.play(before, "F2-E2")
    assert state.scores == (6, 3)
    assert tokens(state, 0) == {"A8"}
    assert tokens(state, 1) == {"E2", "A1"}
    assert "{0}'s alone" in state.events[-1] and "+6" in state.events[-1]
    assert FISH.to_move(state) == 0


def test_island_event_names_the_best_line_and_formats_with_player_names():
    state = FISH.play(position(BRIDGED_ISLAND, ["F2", "A8"], ["A1"]), "F2-G2")
    text = state.events[-1].format("Ann", "Bob")
    assert text.startswith("Island G1 G2 H1 H2 is Ann's alone: token on G2 removed, +6 (best play: ")
    line_text = re.search(r"best play: (.*); ending on (\S+)\)\.$", text)
    assert line_text, text
    moves = line_text.group(1).split(", ")
    # The line is playable from G2 and visits every tile: three moves, ending on the fourth tile.
    assert len(moves) == 3 and moves[0].startswith("G2-")
    visited = [m.split("-")[0] for m in moves] + [line_text.group(2)]
    assert sorted(visited) == sorted(SEED_ISLAND)


def test_island_holding_both_players_tokens_is_not_resolved():
    """RULING: only a group holding tokens of one player only is solved."""
    before = position(BRIDGED_ISLAND, ["F2", "A8"], ["H2", "A1"])
    state = FISH.play(before, "F2-G2")
    assert state.scores == (3, 0)
    assert tokens(state, 0) == {"G2", "A8"}
    assert tokens(state, 1) == {"H2", "A1"}
    assert all(value(state, t) for t in SEED_ISLAND)
    assert state.events == ("{0} moves F2-G2 and takes F2: +3.",)


def test_two_tokens_of_one_player_on_an_island_are_solved_jointly():
    """G1 G2 G3 G4 in a row, tokens on G1 and G4: together they take all four tiles (7), not 14 or 11."""
    tiles = dict(BACKGROUND, C4=1, D4=1, E4=1, F4=2, G1=1, G2=3, G3=1, G4=2)
    state = FISH.play(position(tiles, ["F4", "G1", "A8"], ["A1"]), "F4-G4")
    assert state.scores == (2 + 7, 0)
    assert tokens(state, 0) == {"A8"}
    assert all(value(state, t) == 0 for t in ("G1", "G2", "G3", "G4"))
    award = state.events[-1]
    assert re.search(r"is \{0\}'s alone: tokens on (G1 G4|G4 G1) removed, \+7 ", award), award
    assert sum("alone" in e for e in state.events) == 1


def test_tiles_an_island_token_cannot_reach_stay_and_are_not_scored():
    """On G1 G2 G3 a token on G2 can go one way only: it scores G2 + the better end (1 + 3), G3 stays."""
    tiles = dict(BACKGROUND, D2=1, E2=1, F2=2, G1=3, G2=1, G3=2)
    state = FISH.play(position(tiles, ["F2", "A8"], ["A1"]), "F2-G2")
    assert state.scores == (2 + 4, 0)
    assert value(state, "G1") == value(state, "G2") == 0
    assert value(state, "G3") == 2
    assert names(state.cleared) == {"G1", "G2"}
    assert "+4" in state.events[-1]


def test_a_tokenless_group_is_left_alone():
    tiles = dict(BACKGROUND, G1=3, G2=3, D2=1, E2=1, F2=1, F1=2)
    # F1 is the only link between G1-G2 and the rest; taking it leaves G1 G2 with no token.
    state = FISH.play(position(tiles, ["F1", "A8"], ["A1"]), "F1-F2")
    assert value(state, "G1") == value(state, "G2") == 3
    assert state.scores == (2, 0)


# An L of rows G and H (15 tiles) plus F7 (16) or F6 + F7 (17), reached from D7 through E8; the token
# slides E8-F7 (south-west), which takes E8 and cuts the region off.
STRIP = {f"G{c}": 1 for c in range(1, 9)} | {f"H{c}": 2 for c in range(1, 8)} | {"F7": 1}


def test_island_of_16_tiles_is_solved():
    """RULING: exact solving for islands up to at least 16 tiles."""
    assert ISLAND_LIMIT >= 16
    assert len(STRIP) == 16
    tiles = dict(BACKGROUND, D7=1, E8=3, **STRIP)
    state = FISH.play(position(tiles, ["E8", "A1"], ["A8"]), "E8-F7")
    total = solve_island({INDEX[t]: v for t, v in STRIP.items()}, (INDEX["F7"],))[0]
    assert total == sum(STRIP.values())  # a zig-zag takes every tile
    assert state.scores == (3 + total, 0)
    assert tokens(state, 0) == {"A1"}
    assert "is {0}'s alone" in state.events[-1]


def test_island_larger_than_the_limit_is_played_out_by_hand():
    """Islands larger than ISLAND_LIMIT (16) are not auto-resolved."""
    big = dict(STRIP, F6=1)
    assert len(big) == ISLAND_LIMIT + 1
    tiles = dict(BACKGROUND, D7=1, E8=3, **big)
    state = FISH.play(position(tiles, ["E8", "A1"], ["A8"]), "E8-F7")
    assert state.scores == (3, 0)
    assert tokens(state, 0) == {"A1", "F7"}
    assert all(value(state, t) for t in big)
    assert len(state.events) == 1


# --- solve_island against brute force ----------------------------------------------------------------


def brute_force(values: dict[str, int], start: tuple[str, ...]) -> int:
    """The best total by trying every line of play (slow, obviously correct)."""

    @functools.cache
    def best(remaining: frozenset[str], toks: tuple[str, ...]) -> int:
        results = []
        for i, tile in enumerate(toks):
            for dst in reachable(tile, set(remaining), set(toks)):
                moved = tuple(sorted((*toks[:i], dst, *toks[i + 1 :])))
                results.append(values[tile] + best(remaining - {tile}, moved))
        return max(results) if results else sum(values[t] for t in toks)

    return best(frozenset(values), tuple(sorted(start)))


def random_island(rng: random.Random, size: int) -> dict[str, int]:
    island = {rng.choice(NAMES)}
    while len(island) < size:
        frontier = sorted({n for t in island for n in rule_neighbours(t)} - island)
        island.add(rng.choice(frontier))
    return {t: rng.randint(1, 3) for t in sorted(island)}


def check_line(values: dict[str, int], start: tuple[str, ...], result) -> None:
    """The returned line is playable, scores the returned total, and leaves every token stuck."""
    total, moves, finals = result
    present, toks, collected = set(values), set(start), 0
    for src, dst in moves:
        src, dst = TILE_NAMES[src], TILE_NAMES[dst]
        assert src in toks, (src, toks)
        assert dst in reachable(src, present, toks), (src, dst)
        present.discard(src)
        toks = (toks - {src}) | {dst}
        collected += values[src]
    assert toks == names(finals)
    assert total == collected + sum(values[t] for t in toks)
    for tile in toks:
        assert not reachable(tile, present, toks)


def test_solve_island_seed_example():
    values = {INDEX[t]: v for t, v in SEED_ISLAND.items()}
    result = solve_island(values, (INDEX["G2"],))
    assert result[0] == 6
    check_line(SEED_ISLAND, ("G2",), result)


def test_solve_island_matches_brute_force_on_random_islands():
    rng = random.Random(20240601)
    short = 0
    for _ in range(300):
        values = random_island(rng, rng.randint(2, 11))
        start = tuple(rng.sample(sorted(values), rng.randint(1, min(4, len(values)))))
        result = solve_island({INDEX[t]: v for t, v in values.items()}, tuple(INDEX[t] for t in start))
        expected = brute_force(values, start)
        assert result[0] == expected, (values, start)
        check_line(values, start, result)
        short += expected < sum(values.values())
    assert short >= 30  # many of the islands have tiles nobody can collect


def test_solve_island_16_tiles_with_4_tokens():
    rng = random.Random(16)
    for _ in range(3):
        values = random_island(rng, 16)
        start = tuple(rng.sample(sorted(values), 4))
        result = solve_island({INDEX[t]: v for t, v in values.items()}, tuple(INDEX[t] for t in start))
        assert result[0] <= sum(values.values())
        check_line(values, start, result)


# --- End of the game -------------------------------------------------------------------------------


@pytest.mark.parametrize(("scores", "winners"), [((10, 12), {0}), ((9, 12), set()), ((8, 12), {1})])
def test_game_ends_when_no_token_is_left_and_more_points_wins(scores, winners):
    """The game ends when no token is left; more points wins; equal points is a draw."""
    # Seat 0's last token: H1-H2 takes H1 (+1); H2 is then stuck and scores 2.
    state = FISH.play(position({"H1": 1, "H2": 2}, ["H1"], [], scores=scores), "H1-H2")
    assert FISH.to_move(state) is None
    assert FISH.legal_moves(state) == []
    assert state.tokens == ((), ())
    with pytest.raises(IllegalMove, match="game is over"):
        FISH.play(state, "H1-H2")
    with pytest.raises(IllegalMove, match="game is over"):
        FISH.play(state, "A1")
    final = (scores[0] + 3, scores[1])
    assert state.events[-1] == f"No tokens are left: the game is over, {final[0]} to {final[1]}."
    outcome = FISH.outcome(state)
    assert isinstance(outcome, Outcome)
    assert outcome.scores == final
    assert outcome.winners == frozenset(winners)
    assert outcome.is_draw == (not winners)


def test_outcome_is_none_while_the_game_runs():
    assert FISH.outcome(FISH.new(2, 0)) is None
    assert FISH.outcome(position(FULL, ["D4"], ["H7"], scores=(50, 0))) is None


@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_without_tokens_gets_no_turns(seat):
    """A player whose tokens are all gone has no more turns; the other keeps moving."""
    mine, theirs = (["A1"], []) if seat == 0 else ([], ["A1"])
    state = position(BACKGROUND, mine, theirs, turn=seat)
    for move in ("A1-A2", "A2-A3", "A3-B3"):
        state = FISH.play(state, move)
        assert FISH.to_move(state) == seat
        assert FISH.outcome(state) is None


def test_the_opponent_moves_again_when_my_last_token_is_removed():
    state = position(dict(BACKGROUND, H1=1, H2=1), ["H1"], ["A1"], scores=(0, 0))
    state = FISH.play(state, "H1-H2")
    assert tokens(state, 0) == set()
    assert FISH.to_move(state) == 1
    state = FISH.play(state, "A1-A2")
    assert FISH.to_move(state) == 1


def test_island_awards_end_the_game_when_they_take_the_last_tokens():
    state = FISH.play(position(BRIDGED_ISLAND, ["F2"], [], scores=(0, 9)), "F2-G2")
    # The rest of the board (rows A-C, D2, E2) holds no token: nothing more to play.
    assert FISH.to_move(state) is None
    assert state.scores == (9, 9)
    assert FISH.outcome(state).is_draw


# --- Random playouts -------------------------------------------------------------------------------


def random_game(seed: int):
    """Plays random legal moves from a fresh game; yields every state and the moves played."""
    rng = random.Random(seed)
    state = FISH.new(2, seed, first=seed % 2)
    states, moves = [state], []
    while FISH.to_move(state) is not None:
        move = rng.choice(FISH.legal_moves(state))
        state = FISH.play(state, move)
        states.append(state)
        moves.append(move)
        assert len(moves) <= 8 + 60, "every move takes a tile, so a game cannot last longer"
    return states, moves


@pytest.mark.parametrize("chunk", range(10))
def test_random_playouts_terminate_legally_and_round_trip(chunk):
    for seed in range(chunk * 20, chunk * 20 + 20):
        states, moves = random_game(seed)
        for state in states:
            assert FISH.loads(FISH.dumps(state)) == state
            assert sum(state.scores) + sum(state.values) == BOARD_TOTAL
            mine, theirs = set(state.tokens[0]), set(state.tokens[1])
            assert not mine & theirs and all(state.values[t] for t in mine | theirs)
            seat = FISH.to_move(state)
            legal = FISH.legal_moves(state)
            if seat is None:
                assert legal == [] and not (mine or theirs)
                continue
            assert legal, "the seat to move always has a move"
            assert FISH.outcome(state) is None
            assert state.placing or state.tokens[seat]
            for move in legal:
                FISH.play(state, move)
        final = states[-1]
        outcome = FISH.outcome(final)
        assert outcome.scores == final.scores
        assert sum(final.scores) <= BOARD_TOTAL
        assert outcome.is_draw == (final.scores[0] == final.scores[1])
        replay = play_all(FISH.new(2, seed, first=seed % 2), *moves)
        assert replay == final


# --- Events ----------------------------------------------------------------------------------------


def test_events_use_seat_placeholders_that_format_with_player_names():
    seen = 0
    for seed in range(20):
        for state in random_game(seed)[0][1:]:
            assert state.events, "every ply says what happened"
            for event in state.events:
                text = event.format("Ann", "Bob")
                assert "{" not in text and "}" not in text
                placeholders = set(re.findall(r"\{(\d)\}", event))
                assert placeholders <= {"0", "1"}
                seen += bool(placeholders)
    assert seen > 100
    first = FISH.play(FISH.new(2, 0, board=SORTED_BOARD, first=1), "D4")
    assert [e.format("Ann", "Bob") for e in first.events] == ["Bob places a token on D4."]


def test_view_hides_only_the_seed():
    state = placed_game()
    assert state.seed == 7
    for seat in (None, 0, 1):
        seen = FISH.view(state, seat)
        assert seen.seed is None
        assert seen.values == state.values and seen.tokens == state.tokens


def test_board_helper_builds_the_named_position():
    """Guard for the test helpers themselves."""
    digits = board({"A1": 2, "H7": 3})
    assert len(digits) == 60 and digits[0] == "2" and digits[-1] == "3" and digits.count("0") == 58


def test_place_takes_one_tile():
    """`place D4` places; `place D4-F3` is neither a placement nor a move."""
    with pytest.raises(IllegalMove, match="place takes one tile"):
        FishMove.parse("place D4-F3")


def test_the_state_remembers_who_made_the_last_move():
    """The mover's token may be gone after the move, so the state keeps the seat (the renderer needs it)."""
    state = FISH.new(2, 7, first=1)
    assert state.last_seat is None
    state = FISH.play(state, FISH.legal_moves(state)[0])
    assert state.last_seat == 1
    state = FISH.play(state, FISH.legal_moves(state)[0])
    assert state.last_seat == 0 and FISH.loads(FISH.dumps(state)) == state


@pytest.mark.parametrize(
    ("scores", "winners", "reason"),
    [
        ((27, 27), {0}, "more fish, 30 to 27"),
        ((20, 27), {1}, "more fish, 27 to 23"),
        ((24, 27), set(), "equal fish, 27 each"),
    ],
)
def test_the_result_says_more_fish_winner_first_or_equal_fish(scores, winners, reason):
    """More fish wins; equal fish is a drawn game (fish.md has no tie-break). The reason is what the
    game-over post says: the winner's fish first."""
    state = FISH.play(position({"H1": 1, "H2": 2}, ["H1"], [], scores=scores), "H1-H2")  # seat 0 scores 3
    assert FISH.outcome(state) == Outcome((scores[0] + 3, scores[1]), frozenset(winners), reason)
