"""Rules tests for Themiscyra: docs/rules/themiscyra.md, rule by rule and RULING by RULING.

Positions are drawn as pictures (row 10 on top, columns a-j): `.` empty, `b`/`w` a bare Black/White stone,
`B`/`W` a stone with a ring; or built with `filled`, a board full of stones but for the named empty
squares. Legal turns are compared with tests/games/themiscyra_reference.py, a slow generator written from
the rules text only (sets of squares, BFS flood fill per placement, clear lines walked square by square).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from dataclasses import replace

import pytest

from bot.games import GAMES, IllegalMove, InvalidNotation, Outcome
from bot.games.themiscyra import THEMISCYRA, ThemiscyraState
from tests.games import themiscyra_reference as ref

COLUMNS = "abcdefghij"
ALL_NAMES = [f"{c}{r}" for c in COLUMNS for r in range(1, 11)]
HOW = (
    "write the two stones, then @ and the stone that gets the ring in setup (e5 e8 @e8), "
    "or the ring's move (e5 e8 c3>e8)."
)


def picture(text: str, turn: int | None = 0) -> ThemiscyraState:
    """A position drawn row 10 first: `.` empty, b/w bare stones, B/W stones with a ring."""
    black, white, rings = [], [], []
    lines = text.strip().splitlines()
    assert len(lines) == 10
    for line in lines:
        row, *cells = line.split()
        assert len(cells) == 10, line
        for col, cell in zip(COLUMNS, cells, strict=True):
            name = f"{col}{row}"
            assert cell in ".bBwW", cell
            if cell in "bB":
                black.append(name)
            if cell in "wW":
                white.append(name)
            if cell in "BW":
                rings.append(name)
    return THEMISCYRA.state_from_position(" ".join(black), " ".join(white), " ".join(rings), turn)


FAR_RINGS = ("a10 c10 e10 g10", "b10 d10 f10 h10")
"""Rings on row 10, out of play when rows 9 and 10 are full."""


def filled(empty: str, black_rings: str = "", white_rings: str = "", turn: int | None = 0) -> ThemiscyraState:
    """Stones everywhere but on `empty` (Black where column + row is even, unless a ring says otherwise)."""
    blanks, black_rings_set, white_rings_set = set(empty.split()), set(black_rings.split()), set(white_rings.split())
    black, white = [], []
    for name in ALL_NAMES:
        if name in blanks:
            continue
        col, row = COLUMNS.index(name[0]), int(name[1:])
        if name in black_rings_set or (name not in white_rings_set and (col + row) % 2 == 1):
            black.append(name)
        else:
            white.append(name)
    rings = " ".join(sorted(black_rings_set | white_rings_set))
    return THEMISCYRA.state_from_position(" ".join(black), " ".join(white), rings, turn)


def reference(state: ThemiscyraState) -> set[str]:
    return ref.legal_turns(ref.position_of(THEMISCYRA.dumps(state)))


def legal(state: ThemiscyraState) -> set[str]:
    moves = THEMISCYRA.legal_moves(state)
    assert len(moves) == len(set(moves))
    return set(moves)


def refusal(state: ThemiscyraState, move: str) -> str:
    before = THEMISCYRA.dumps(state)
    with pytest.raises(IllegalMove) as caught:
        THEMISCYRA.play(state, move)
    assert THEMISCYRA.dumps(state) == before
    return str(caught.value)


def names(mask: int) -> set[str]:
    return {ref.name((s % 10, s // 10)) for s in range(100) if mask >> s & 1}


def random_game(seed: int, plies: int = 1000) -> list[ThemiscyraState]:
    """The states of a game of random legal turns (random.Random(seed)), the start included."""
    rng = random.Random(seed)
    states = [THEMISCYRA.new(2, seed)]
    while len(states) <= plies and THEMISCYRA.to_move(states[-1]) is not None:
        states.append(THEMISCYRA.play(states[-1], rng.choice(THEMISCYRA.legal_moves(states[-1]))))
    return states


# --- Positions -----------------------------------------------------------------------------------

SETUP_TURNS = [
    "c3 c7 @c3",
    "h3 h7 @h7",
    "e5 f6 @f6",
    "b9 i9 @b9",
    "j1 j10 @j10",
    "a1 a8 @a1",
    "d2 g2 @g2",
    "e8 g10 @g10",
]
AFTER_SETUP = """
10 . . . . . . W . . B
 9 . W . . . . . . w .
 8 w . . . w . . . . .
 7 . . b . . . . W . .
 6 . . . . . B . . . .
 5 . . . . b . . . . .
 4 . . . . . . . . . .
 3 . . B . . . . w . .
 2 . . . b . . B . . .
 1 W . . . . . . . . b
"""
MIDDLE = """
10 . . b . w . . w . .
 9 . b . . b . . . . .
 8 w . B . w . . W . b
 7 . . . . b . . . w .
 6 b . W . w . B . . .
 5 . w . . b . . . . .
 4 . . . B w . w . b .
 3 . . . . b . . . W .
 2 b . w . w . . b . .
 1 . . . . b W . . . B
"""
CROWDED = """
10 b w b w b w b w b w
 9 w . . w b w b w b b
 8 b . . B w b w b w w
 7 w B w b w b w . w b
 6 b w W b w b . b . w
 5 w b . . . . . w b w
 4 b w b w B w b w b W
 3 w B w b w b w . b w
 2 b w . w b W b . . b
 1 W b . b w b w b w b
"""
SHUT = """
10 . . . . . . . . . .
 9 . . . . . . . W . .
 8 . . B . . . . . . .
 7 . . . . . . . . . .
 6 . . . . W . . . . .
 5 . . . . B . . . . .
 4 . . . . . . W . . .
 3 w b . . . . . . W .
 2 b b . . . . . w b b
 1 B b w . . . . b . B
"""
"""Black's ring on a1 is boxed in by stones; the one on j1 touches only i1, a lone empty square."""


def stuck(turn: int) -> ThemiscyraState:
    """Stone pairs exist (a1 a2, a2 a3, a1 a3) but each leaves one lone empty square: no ring can move.

    `state_from_position` sees at once that the player to move has lost; here the turn is put back so
    the refusals can be checked."""
    return replace(filled("a1 a2 a3 e5 j10", *FAR_RINGS, turn=turn), turn=turn, winner=None)


NO_TURN = stuck(0)


def test_a_built_position_whose_player_to_move_is_stuck_is_already_won_by_the_other():
    for turn in (0, 1):
        built = filled("a1 a2 a3 e5 j10", *FAR_RINGS, turn=turn)
        assert built.turn is None and built.winner == 1 - turn
        outcome = THEMISCYRA.outcome(built)
        assert outcome is not None and outcome.winners == {1 - turn}


PERFT = [
    ("empty board", THEMISCYRA.new(2, 0), 2940),
    ("empty board, built", THEMISCYRA.state_from_position("", "", ""), 2940),
    ("after setup, Black", picture(AFTER_SETUP, 0), 5318),
    ("after setup, White", picture(AFTER_SETUP, 1), 5320),
    ("middle game, Black", picture(MIDDLE, 0), 1164),
    ("middle game, White", picture(MIDDLE, 1), 1318),
    ("crowded, Black", picture(CROWDED, 0), 39),
    ("crowded, White", picture(CROWDED, 1), 13),
    ("crowded, still in setup", picture(CROWDED.replace("7 w B", "7 w b"), 0), 50),
    ("ring touching no open area, Black", picture(SHUT, 0), 3180),
    ("ring touching no open area, White", picture(SHUT, 1), 6360),
    ("no legal turn, Black", NO_TURN, 0),
    ("no legal turn, White", stuck(1), 0),
]


def test_registry_and_identity():
    assert GAMES["themiscyra"] is THEMISCYRA
    assert (THEMISCYRA.key, THEMISCYRA.title, THEMISCYRA.min_players, THEMISCYRA.max_players) == (
        "themiscyra",
        "Themiscyra",
        2,
        2,
    )
    assert THEMISCYRA.options.names == ()
    assert "e5 e8 @e8" in THEMISCYRA.rules_card and "e5 e8 c3>e8" in THEMISCYRA.rules_card


def test_the_empty_board_count_is_derived_from_the_lines():
    # Pairs on one line: 10 rows and 10 columns of 10 squares, and per diagonal direction lines of 1..10..1.
    def pairs(n: int) -> int:
        return n * (n - 1) // 2

    diagonals = pairs(10) + 2 * sum(pairs(n) for n in range(1, 10))
    assert (10 * pairs(10), diagonals) == (450, 285)
    assert 2 * (20 * pairs(10) + 2 * diagonals) == 2940  # two turns per pair: the ring on either stone


def test_the_setup_turns_lead_to_the_after_setup_picture():
    state = THEMISCYRA.new(2, 0)
    for move in SETUP_TURNS:
        state = THEMISCYRA.play(state, move)
    drawn = picture(AFTER_SETUP, 0)
    assert (state.stones, state.rings, state.turn) == (drawn.stones, drawn.rings, drawn.turn)


@pytest.mark.parametrize(("label", "state", "count"), PERFT, ids=[p[0] for p in PERFT])
def test_perft_legal_turns_equal_the_reference(label, state, count):
    expected = reference(state)
    assert legal(state) == expected
    assert len(expected) == count


def test_perft_two_plies_from_the_crowded_board():
    """Black's 39 turns, then White's replies; the engine ends the game exactly when White has none."""
    state = picture(CROWDED, 0)
    total, ended = 0, 0
    for move in sorted(reference(state)):
        after = THEMISCYRA.play(state, move)
        seen = ref.position_of(THEMISCYRA.dumps(after))
        replies = ref.legal_turns(ref.Position(seen.black, seen.white, seen.rings, 1))
        if replies:
            assert THEMISCYRA.to_move(after) == 1 and legal(after) == replies
        else:
            assert THEMISCYRA.to_move(after) is None and after.winner == 0
            ended += 1
        total += len(replies)
    assert (total, ended) == (291, 13)


@pytest.mark.parametrize(
    "label", ["crowded, Black", "crowded, White", "crowded, still in setup", "no legal turn, Black"]
)
def test_play_accepts_exactly_the_reference_turns(label):
    """Every spelling of a turn built from the few empty squares is accepted iff the reference lists it."""
    state = {p[0]: p[1] for p in PERFT}[label]
    empty = sorted(names(state.empty))
    starts = sorted(names(state.rings)) + ["a10", "b10", "e5"]  # rings of both colours, bare stones, a gap
    accepted = set()
    for a, b in itertools.permutations(empty, 2):
        for end in (a, b, empty[0], "j10"):
            texts = [f"{a} {b} @{end}"] + [f"{a} {b} {start}>{end}" for start in starts]
            for text in texts:
                with contextlib.suppress(IllegalMove):
                    accepted.add(THEMISCYRA.canonical(state, text))
    assert accepted == reference(state)


@pytest.mark.parametrize("seed", range(5))
def test_random_games_match_the_reference_at_every_ply(seed):
    states = random_game(seed)
    for state in states:
        assert legal(state) == reference(state), f"seed {seed}, ply {state.ply}"
        counts = (len(names(state.stones[0])), len(names(state.stones[1])))
        assert counts == (2 * ((state.ply + 1) // 2), 2 * (state.ply // 2))  # Black first, two stones a turn
        assert state.rings & ~(state.stones[0] | state.stones[1]) == 0  # rings sit on stones
        if not state.setup:  # each player keeps the 4 rings they placed, on their own stones
            assert (len(state.rings_of(0)), len(state.rings_of(1))) == (4, 4)
    final = states[-1]
    assert THEMISCYRA.to_move(final) is None and THEMISCYRA.legal_moves(final) == []
    assert final.winner == final.last_seat  # the last player to complete a turn wins
    loser = ("Black", "White")[1 - final.winner]
    assert THEMISCYRA.outcome(final) == Outcome(
        tuple(1.0 if seat == final.winner else 0.0 for seat in (0, 1)),
        frozenset({final.winner}),
        f"{loser} cannot complete a turn",
    )
    assert THEMISCYRA.events(final)[-1] == f"{{{1 - final.winner}}} cannot complete a turn: {{{final.winner}}} wins."
    stuck = ref.position_of(THEMISCYRA.dumps(final))
    assert ref.legal_turns(ref.Position(stuck.black, stuck.white, stuck.rings, 1 - final.winner)) == set()


# --- Stones on a line ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pair",
    [
        "e5 f5",  # row, adjacent
        "a5 j5",  # row, across the board
        "e5 e6",  # column, adjacent
        "e1 e10",  # column, across the board
        "e5 f6",  # diagonal, adjacent
        "a1 j10",  # diagonal, corner to corner
        "d6 e5",  # other diagonal, adjacent
        "a10 j1",  # other diagonal, corner to corner
        "b7 e4",  # other diagonal, some distance
    ],
)
def test_two_stones_on_a_row_column_or_diagonal_at_any_distance(pair):
    state = THEMISCYRA.new(2, 0)
    a, b = pair.split()
    assert {f"{pair} @{a}", f"{pair} @{b}"} <= legal(state)
    after = THEMISCYRA.play(state, f"{b} {a} @{a}")
    assert names(after.stones[0]) == {a, b} and names(after.rings) == {a}


def test_every_line_through_a_square_counts():
    # From e5 on the empty board: 9 along the row, 9 along the column, 9 and 8 along the two diagonals.
    with_e5 = {m for m in legal(THEMISCYRA.new(2, 0)) if m.endswith("@e5")}
    assert len(with_e5) == 35


@pytest.mark.parametrize(
    ("typed", "shown"),
    [("e5 f7", "e5 f7"), ("e5 g6", "e5 g6"), ("j6 e5", "e5 j6"), ("a1 j9", "a1 j9"), ("b1 a10", "a10 b1")],
)
def test_stones_not_on_one_line_are_refused(typed, shown):
    assert refusal(THEMISCYRA.new(2, 0), f"{typed} @{typed[:2]}") == (
        f"{shown}: the two stones must lie on one row, column or diagonal."
    )


@pytest.mark.parametrize(
    ("move", "between"),
    [
        ("a2 f2 c3>a2", "d2"),  # row
        ("c1 c9 c3>c1", "c3 and c7"),  # column, two stones in the way
        ("d4 g7 c3>d4", "e5 and f6"),  # diagonal
        ("b8 d6 c3>d6", "c7"),  # other diagonal
        ("i1 j2 c3>i1", None),  # adjacent: nothing between, allowed
    ],
)
def test_a_stone_between_blocks_the_line(move, between):
    state = picture(AFTER_SETUP, 0)
    pair = move.rsplit(" ", 1)[0]
    if between is None:
        assert move in legal(state)
    else:
        verb = "are" if " and " in between else "is"
        assert refusal(state, move) == f"{pair}: {between} between them {verb} not empty."
        assert not any(m.startswith(pair + " ") for m in legal(state))


def test_stones_go_on_empty_squares_and_on_two_different_ones():
    state = picture(AFTER_SETUP, 0)
    assert refusal(state, "c3 c4 c3>c4") == "c3 is taken: stones go on empty squares."
    assert refusal(state, "b3 c3 c3>b3") == "c3 is taken: stones go on empty squares."
    assert refusal(state, "h3 h4 c3>h4") == "h3 is taken: stones go on empty squares."  # a White stone too
    assert refusal(state, "e4 E4 c3>e4") == "e4 e4: the two stones go on two different squares."
    assert refusal(THEMISCYRA.new(2, 0), "e4 e4 @e4") == "e4 e4: the two stones go on two different squares."


# --- Setup -----------------------------------------------------------------------------------------


def test_setup_ring_goes_on_one_of_the_two_stones():
    state = THEMISCYRA.new(2, 0)
    assert {m for m in legal(state) if m.startswith("e5 e8 ")} == {"e5 e8 @e5", "e5 e8 @e8"}
    assert refusal(state, "e5 e8 @e6") == "@e6: the ring goes on one of the two stones you place (e5 e8)."
    assert refusal(state, "e5 e8 @a1") == "@a1: the ring goes on one of the two stones you place (e5 e8)."


def test_ring_moves_are_refused_during_setup():
    state = THEMISCYRA.new(2, 0)
    assert refusal(state, "e5 e8 c3>e8") == (
        "Rings are still being placed (0 of 8 are down): put one on a new stone, like e5 e8 @e8."
    )
    for move in SETUP_TURNS[:7]:
        state = THEMISCYRA.play(state, move)
    assert state.setup and THEMISCYRA.to_move(state) == 1
    assert refusal(state, "e8 g10 b9>e8") == (  # b9 holds a White ring: still no moving in setup
        "Rings are still being placed (7 of 8 are down): put one on a new stone, like e8 g10 @g10."
    )
    assert all("@" in m for m in legal(state))


def test_at_is_refused_once_all_8_rings_are_down():
    state = picture(AFTER_SETUP, 0)
    assert refusal(state, "d4 d5 @d5") == "All 8 rings are down: move one of yours instead, like d4 d5 g2>d5."
    assert "d4 d5 g2>d5" in legal(state)  # the example is a legal turn
    assert not any("@" in m for m in legal(state))


def test_setup_is_four_turns_each_black_first_then_black_starts_play():
    state = THEMISCYRA.new(2, 0)
    assert THEMISCYRA.to_move(state) == 0 and THEMISCYRA.outcome(state) is None
    for i, move in enumerate(SETUP_TURNS):
        assert THEMISCYRA.to_move(state) == i % 2 and state.setup
        state = THEMISCYRA.play(state, move)
        assert len(names(state.rings)) == i + 1
        assert len(state.rings_of(i % 2)) == i // 2 + 1  # the ring went on the mover's own stone
    assert not state.setup and THEMISCYRA.to_move(state) == 0
    assert THEMISCYRA.events(state) == (
        "{1} places e8 and g10 and puts a ring on g10.",
        "All 8 rings are down: from now on a ring moves each turn.",
    )
    after = THEMISCYRA.play(state, "d4 d5 c3>d4")
    assert THEMISCYRA.to_move(after) == 1 and len(names(after.rings)) == 8
    assert THEMISCYRA.events(after) == ("{0} places d4 and d5 and moves the ring from c3 to d4.",)


def test_ruling_no_open_area_condition_in_setup():
    state = picture(CROWDED.replace("7 w B", "7 w b"), 0)  # 7 rings: still setup
    after = THEMISCYRA.play(state, "c2 c1 @c1")  # nothing is left open near c1 and c2
    assert names(after.rings) >= {"c1"} and not after.setup
    message = refusal(picture(CROWDED, 0), "c1 c2 b3>c1")  # in play the same stones would not do
    assert message == "b3>c1: the ring on b3 touches no open area, so it cannot move."


# --- The ring's move -------------------------------------------------------------------------------


def test_the_ring_must_sit_on_one_of_your_own_stones():
    black = picture(AFTER_SETUP, 0)
    assert refusal(black, "e9 e10 h7>e9") == "h7>e9: the ring on h7 sits on a White stone; move one on yours."
    white = picture(AFTER_SETUP, 1)
    assert refusal(white, "d4 d5 c3>d4") == "c3>d4: the ring on c3 sits on a Black stone; move one on yours."
    assert "d4 d5 h7>d4" in legal(white)
    assert not any(m.split()[2].split(">")[0] in {"a1", "h7", "b9", "g10"} for m in legal(black))


def test_there_must_be_a_ring_on_the_start_square():
    state = picture(AFTER_SETUP, 0)
    assert refusal(state, "d4 d5 c7>d4") == "c7>d4: there is no ring on c7."  # a bare Black stone
    assert refusal(state, "d4 d5 b4>d4") == "b4>d4: there is no ring on b4."  # an empty square
    assert refusal(state, "d4 d5 h3>d4") == "h3>d4: there is no ring on h3."  # a bare White stone


def test_the_ring_lands_on_one_of_the_two_new_stones():
    state = picture(AFTER_SETUP, 0)
    assert refusal(state, "d4 d5 c3>e5") == "c3>e5: a ring moves onto one of the two stones you place (d4 d5)."
    assert refusal(state, "d4 d5 c3>b4") == "c3>b4: a ring moves onto one of the two stones you place (d4 d5)."
    assert {m for m in legal(state) if m.startswith("d4 d5 c3>")} == {"d4 d5 c3>d4", "d4 d5 c3>d5"}


def test_the_stone_the_ring_leaves_stays_bare_and_rings_stay_with_their_colour():
    state = picture(AFTER_SETUP, 0)
    after = THEMISCYRA.play(state, "d5 d4 c3>d5")
    assert names(after.stones[0]) == names(state.stones[0]) | {"d4", "d5"}
    assert "c3" in names(after.stones[0]) and "c3" not in names(after.rings)
    assert names(after.rings) == names(state.rings) - {"c3"} | {"d5"}
    assert after.stones[1] == state.stones[1]
    later = THEMISCYRA.play(after, "e3 f3 h7>f3")
    assert names(later.rings) & names(later.stones[1]) == {"a1", "b9", "g10", "f3"}
    assert names(later.rings) & names(later.stones[0]) == {"d5", "f6", "g2", "j10"}


CORRIDOR_RINGS = ("a4 a10 c10 e10", "b10 d10 f10 h10")


def test_ruling_open_areas_are_taken_after_the_stones_are_placed_split():
    # Row 5 is the only open area; a4 touches a5 and b5. Stones on c5 and h5 cut it in three.
    state = filled("a5 b5 c5 d5 e5 f5 g5 h5 i5 j5", *CORRIDOR_RINGS)
    assert any(len(area) == 10 for area in ref.open_areas({ref.square(n) for n in names(state.empty)}))
    assert {m for m in legal(state) if m.startswith("c5 h5 ")} == {"c5 h5 a4>c5"}
    assert refusal(state, "c5 h5 a4>h5") == "a4>h5: the ring on a4 and h5 share no open area."
    assert "d5 h5 a4>h5" not in legal(state) and "d5 h5 a4>d5" in legal(state)
    assert "f5 h5 a4>h5" not in legal(state) and "f5 h5 a4>f5" in legal(state)
    assert "g5 h5 a4>h5" not in legal(state) and "i5 j5 a4>i5" in legal(state)  # i5 j5 splits nothing


def test_ruling_open_areas_are_taken_after_the_stones_are_placed_no_split():
    # The reverse: with rows 5 and 6 open the same two stones leave one area, so a4 reaches h5.
    state = filled(" ".join(f"{c}{r}" for c in COLUMNS for r in (5, 6)), *CORRIDOR_RINGS)
    assert {m for m in legal(state) if m.startswith("c5 h5 ")} == {"c5 h5 a4>c5", "c5 h5 a4>h5"}
    THEMISCYRA.play(state, "c5 h5 a4>h5")


def test_ruling_open_areas_connect_diagonally():
    # a5-e5 and f6-j6 meet only corner to corner (e5, f6): still one area. h6 j6 leave i6 alone.
    state = filled("a5 b5 c5 d5 e5 f6 g6 h6 i6 j6", *CORRIDOR_RINGS)
    assert {m for m in legal(state) if m.startswith("h6 j6 ")} == {"h6 j6 a4>h6"}
    assert refusal(state, "h6 j6 a4>j6") == "a4>j6: the ring on a4 and j6 share no open area."


def test_placement_can_leave_the_ring_without_an_open_area():
    # b7 touches b8 and c8 of the 2x2 gap b8-c9; stones on b8 and c8 leave b9 c9, which b7 does not touch.
    state = picture(CROWDED, 0)
    assert refusal(state, "b8 c8 b7>b8") == "b7>b8: the ring on b7 touches no open area, so it cannot move."
    assert {m for m in legal(state) if m.startswith("b8 c8 ")} == {"b8 c8 d8>b8", "b8 c8 d8>c8"}
    assert "b8 c9 b7>b8" in legal(state)


def test_a_single_empty_square_is_not_an_open_area():
    state = picture(SHUT, 0)
    assert refusal(state, "d5 d6 j1>d5") == "j1>d5: the ring on j1 touches no open area, so it cannot move."
    # a1-a4 open, b3 touches a2 a3 a4: two squares left side by side are an open area, two apart are not.
    state = filled("a1 a2 a3 a4", "b3 a10 c10 e10", FAR_RINGS[1])
    assert legal(state) == {"a1 a2 b3>a2", "a1 a4 b3>a1", "a1 a4 b3>a4", "a3 a4 b3>a3"}
    assert refusal(state, "a1 a3 b3>a1") == "b3>a1: the ring on b3 touches no open area, so it cannot move."
    assert refusal(state, "a2 a4 b3>a4") == "b3>a4: the ring on b3 touches no open area, so it cannot move."
    assert refusal(state, "a1 a2 b3>a1") == "b3>a1: the ring on b3 and a1 share no open area."


def test_a_ring_touching_no_open_area_cannot_move():
    state = picture(SHUT, 0)
    assert refusal(state, "d5 d6 a1>d5") == "a1>d5: the ring on a1 touches no open area, so it cannot move."
    starts = {m.split()[2].split(">")[0] for m in legal(state)}
    assert starts == {"c8", "e5"}


def test_a_placement_that_leaves_no_ring_move_is_not_a_turn():
    state = picture(CROWDED, 0)
    pairs = {f"{ref.name(a)} {ref.name(b)}" for a, b in ref.stone_pairs(ref.position_of(THEMISCYRA.dumps(state)))}
    used = {m.rsplit(" ", 1)[0] for m in legal(state)}
    assert pairs - used == {"c1 c2", "d5 f5", "h2 h3", "h2 i2", "h3 i2"}
    assert refusal(state, "d5 f5 e4>f5") == "e4>f5: the ring on e4 touches no open area, so it cannot move."
    assert refusal(state, "d5 f5 d8>d5") == "d8>d5: the ring on d8 and d5 share no open area."
    assert refusal(NO_TURN, "a1 a3 a10>a1") == "a10>a1: the ring on a10 touches no open area, so it cannot move."
    assert legal(NO_TURN) == set() and not THEMISCYRA.can_move(NO_TURN)


# --- The end ---------------------------------------------------------------------------------------


def test_the_player_who_cannot_complete_a_turn_loses():
    # White's b4 ring reaches a4; a1 a2 a3 are then left, where Black can place stones but move no ring.
    state = filled("a1 a2 a3 a4 a5", FAR_RINGS[0], "b4 d10 f10 h10", turn=1)
    assert THEMISCYRA.outcome(state) is None
    after = THEMISCYRA.play(state, "a5 a4 b4>a4")
    assert THEMISCYRA.to_move(after) is None and after.turn is None and after.winner == 1
    assert THEMISCYRA.outcome(after) == Outcome((0.0, 1.0), frozenset({1}), "Black cannot complete a turn")
    assert THEMISCYRA.events(after) == (
        "{1} places a4 and a5 and moves the ring from b4 to a4.",
        "{0} cannot complete a turn: {1} wins.",
    )
    assert THEMISCYRA.events(after)[1].format("Ann", "Bob") == "Ann cannot complete a turn: Bob wins."
    assert THEMISCYRA.legal_moves(after) == []
    assert refusal(after, "a1 a2 a10>a1") == "The game is over: no more turns."
    assert refusal(after, "a1 a2 @a1") == "The game is over: no more turns."
    stuck = ref.position_of(THEMISCYRA.dumps(after))
    assert ref.stone_pairs(ref.Position(stuck.black, stuck.white, stuck.rings, 0))  # stones could go down
    assert ref.legal_turns(ref.Position(stuck.black, stuck.white, stuck.rings, 0)) == set()
    assert THEMISCYRA.scores(after) == ()


def test_the_game_goes_on_while_the_other_player_can_still_move():
    state = filled("a1 a2 a3 a4 a5 a6", FAR_RINGS[0], "b4 d10 f10 h10", turn=1)
    after = THEMISCYRA.play(state, "a5 a6 b4>a5")  # a1-a4 stay open, but Black has no ring near them
    assert THEMISCYRA.to_move(after) is None and after.winner == 1
    state = filled("a1 a2 a3 a4 a5 a6", "b2 a10 c10 e10", "b4 d10 f10 h10", turn=1)
    after = THEMISCYRA.play(state, "a5 a6 b4>a5")  # now b2 touches a1-a4
    assert THEMISCYRA.to_move(after) == 0 and THEMISCYRA.outcome(after) is None
    assert legal(after) == reference(after) and legal(after)


# --- Notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["c7 e5 @e5", "C7 E5 @E5", "e5 c7 @e5", "E5 c7 @e5", "  e5   c7   @e5  ", "e5 c7 @ e5", "e5\tc7 @e5", "e5,c7,@e5"],
)
def test_setup_notation_any_case_either_order_extra_spaces(text):
    state = THEMISCYRA.new(2, 0)
    assert THEMISCYRA.canonical(state, text) == "c7 e5 @e5"
    assert THEMISCYRA.play(state, text) == THEMISCYRA.play(state, "c7 e5 @e5")


@pytest.mark.parametrize(
    "text", ["d4 d5 c3>d5", "D5 D4 C3>D5", "d5 d4 c3 > d5", "d4 d5 c3> d5", "  d4  d5  c3  >  D5 ", "d5,d4,c3>d5"]
)
def test_play_notation_any_case_either_order_extra_spaces(text):
    state = picture(AFTER_SETUP, 0)
    assert THEMISCYRA.canonical(state, text) == "d4 d5 c3>d5"
    assert THEMISCYRA.play(state, text) == THEMISCYRA.play(state, "d4 d5 c3>d5")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("c9 c2 @c9", "c2 c9 @c9"),  # same column: by row
        ("a10 a9 @a10", "a9 a10 @a10"),  # rows compare as numbers, not as text
        ("j1 a10 @a10", "a10 j1 @a10"),  # column first, whatever the rows
        ("e5 c7 @c7", "c7 e5 @c7"),
        ("j10 a1 @j10", "a1 j10 @j10"),
    ],
)
def test_canonical_form_orders_the_stones_by_column_then_row(text, canonical):
    state = THEMISCYRA.new(2, 0)
    assert THEMISCYRA.canonical(state, text) == canonical
    assert canonical in legal(state)


def test_every_listed_turn_is_canonical():
    for state in (THEMISCYRA.new(2, 0), picture(MIDDLE, 1), picture(CROWDED, 0)):
        for move in THEMISCYRA.legal_moves(state):
            assert THEMISCYRA.canonical(state, move) == move
            first, second = (ref.square(n) for n in move.split()[:2])
            assert first < second  # (column, row) order


@pytest.mark.parametrize(
    "text", ["hello", "e5 e8", "e5 e8 @", "e5 e8 e8", "e5 e8 c3-e8", "e5 e8 @e8 @e5", "e5 e8 @e8 x", "", "@e8"]
)
def test_garbage_is_invalid_notation_quoting_the_input(text):
    with pytest.raises(InvalidNotation) as caught:
        THEMISCYRA.play(THEMISCYRA.new(2, 0), text)
    assert str(caught.value) == f"{repr(text.strip()) if text.strip() else 'That'} is not a turn: {HOW}"


def test_spaces_around_a_turn_do_not_count_towards_its_length():
    assert THEMISCYRA.play(THEMISCYRA.new(2, 0), "  e5 e8 @e8" + " " * 40).last == (44, 74, None, 74)
    assert THEMISCYRA.canonical(THEMISCYRA.new(2, 0), "E8E5@e8") == "e5 e8 @e8"


@pytest.mark.parametrize("text", ["e5 e8 @e8 " + "please " * 6, "x" * 100_000, "e5 " * 20 + "@e5"])
def test_over_long_input_is_invalid_notation(text):
    with pytest.raises(InvalidNotation) as caught:
        THEMISCYRA.play(THEMISCYRA.new(2, 0), text)
    assert str(caught.value) == f"That is not a turn: {HOW}"


@pytest.mark.parametrize(
    ("text", "square"),
    [
        ("k5 e5 @e5", "k5"),
        ("K5 e5 @e5", "K5"),
        ("a11 a10 @a10", "a11"),
        ("a0 a1 @a1", "a0"),
        ("a1 a01 @a1", "a01"),
        ("e5 e8 @e11", "e11"),
        ("d4 d5 z3>d5", "z3"),
        ("d4 d5 c3>d55", "d55"),
        ("aa1 a2 @a2", "aa1"),
    ],
)
def test_squares_off_the_board_are_refused(text, square):
    for state in (THEMISCYRA.new(2, 0), picture(AFTER_SETUP, 0)):
        assert refusal(state, text) == f"{square} is not on the board (columns a-j, rows 1-10)."


def test_every_refusal_names_the_part_that_failed():
    play, setup = picture(AFTER_SETUP, 0), THEMISCYRA.new(2, 0)
    crowded = picture(CROWDED, 0)
    corridor = filled("a5 b5 c5 d5 e5 f5 g5 h5 i5 j5", *CORRIDOR_RINGS)
    cases = [
        (setup, "e5 e5 @e5", "e5 e5: the two stones go on two different squares."),
        (play, "c3 c4 c3>c4", "c3 is taken: stones go on empty squares."),
        (play, "f7 d4 c3>d4", "d4 f7: the two stones must lie on one row, column or diagonal."),
        (play, "c1 c9 c3>c1", "c1 c9: c3 and c7 between them are not empty."),
        (setup, "e5 e8 @e6", "@e6: the ring goes on one of the two stones you place (e5 e8)."),
        (
            setup,
            "e8 e5 c3>e8",
            "Rings are still being placed (0 of 8 are down): put one on a new stone, like e5 e8 @e8.",
        ),
        (play, "d5 d4 @d5", "All 8 rings are down: move one of yours instead, like d4 d5 g2>d5."),
        (play, "d4 d5 c7>d4", "c7>d4: there is no ring on c7."),
        (play, "d4 d5 h7>d4", "h7>d4: the ring on h7 sits on a White stone; move one on yours."),
        (play, "d4 d5 c3>e5", "c3>e5: a ring moves onto one of the two stones you place (d4 d5)."),
        (crowded, "b8 c8 b7>b8", "b7>b8: the ring on b7 touches no open area, so it cannot move."),
        (corridor, "c5 h5 a4>h5", "a4>h5: the ring on a4 and h5 share no open area."),
    ]
    for state, text, message in cases:
        assert refusal(state, text) == message, text


# --- Saving, replaying -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10, 13))
def test_dumps_loads_round_trip(seed):
    for state in random_game(seed):
        text = THEMISCYRA.dumps(state)
        back = THEMISCYRA.loads(text)
        assert back == state and THEMISCYRA.dumps(back) == text
        assert THEMISCYRA.legal_moves(back) == THEMISCYRA.legal_moves(state)
        assert THEMISCYRA.view(state, 0) is state and THEMISCYRA.view(state, None) is state
    for _, state, _ in PERFT:
        assert THEMISCYRA.loads(THEMISCYRA.dumps(state)) == state


def test_same_turns_give_the_same_game():
    states = random_game(7)
    assert [THEMISCYRA.dumps(s) for s in random_game(7)] == [THEMISCYRA.dumps(s) for s in states]
    assert THEMISCYRA.new(2, 0) == THEMISCYRA.new(2, 12345)  # no chance in this game: the seed changes nothing
    replay = THEMISCYRA.new(2, 99)
    for state in states[1:]:
        a, b, start, end = (None if s is None else ref.name((s % 10, s // 10)) for s in state.last)
        move = f"{a} {b} @{end}" if start is None else f"{a} {b} {start}>{end}"
        replay = THEMISCYRA.play(replay, move.upper())
        assert replay == state
