"""Rules tests for Volcano: docs/rules/volcano.md (binding: shared/rules/volcano.md), rule by rule and RULING by RULING.

Positions are hand-built with `position`, naming stacks like {"a3": "C1C2C3"} (pieces bottom to top, colour
letter + size digit 1-3) and caps like "a3 e1 a5 e5 c1"; every square not named is empty. The geometry and
an independent step model are re-derived here from the rules text so the engine can be compared with them.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bot.games import GAMES, BadOptions, IllegalMove, InvalidNotation, Outcome
from bot.games.volcano import (
    CLASSIC_LAYOUT,
    OPENINGS,
    SQUARE_NAMES,
    VOLCANO,
    VolcanoState,
    arrange,
    eruption_reachable,
    latin_layout,
    score_of,
)

NAMES = [f"{c}{r}" for c in "abcde" for r in range(1, 6)]
STEPS8 = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
CORNERS = "a1 e1 a5 e5"


def xy(name: str) -> tuple[int, int]:
    return "abcde".index(name[0]), int(name[1]) - 1


def at(x: int, y: int) -> str | None:
    return f"{'abcde'[x]}{y + 1}" if 0 <= x < 5 and 0 <= y < 5 else None


FILLER = {"b5": "R1Y1G1B1C1"}
"""One small of each colour on b5, out of the way of the tests' eruptions: with it on the board every colour
can still be captured, so sparse positions do not end at once by the RULING "nobody can complete"."""


def position(stacks: dict[str, str], caps: str, *, filler: bool = True, **kw) -> VolcanoState:
    return VOLCANO.state_from_position({**FILLER, **stacks} if filler else stacks, caps, **kw)


def stack(state: VolcanoState, name: str) -> str:
    return "".join(state.board[NAMES.index(name)])


def caps(state: VolcanoState) -> set[str]:
    return {SQUARE_NAMES[s] for s in state.caps}


def refusal(state: VolcanoState, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        VOLCANO.play(state, move)
    return str(caught.value)


def model_steps(state: VolcanoState) -> set[str]:
    """Legal steps written from the rules text, independently of the engine."""
    capset = caps(state)
    filled = {n for n in NAMES if stack(state, n)}
    seen = {frozenset(SQUARE_NAMES[s] for s in range(25) if m >> s & 1) for m in state.seen}
    out = set()
    for src in capset:
        x, y = xy(src)
        for dx, dy in STEPS8:
            dst = at(x + dx, y + dy)
            if dst is None or dst in capset:
                continue
            after = (capset - {src}) | {dst}
            beyond = at(x + 2 * dx, y + 2 * dy)
            erupts = src in filled and beyond is not None and beyond not in after
            if erupts or frozenset(after) not in seen:
                out.add(f"{src}-{dst}")
    return out


def neighbours_of(arrangement: set[str]) -> list[str]:
    """Every arrangement one step away, as "a1 b2 ..." texts."""
    out = []
    for src in arrangement:
        x, y = xy(src)
        for dx, dy in STEPS8:
            dst = at(x + dx, y + dy)
            if dst is not None and dst not in arrangement:
                out.append(" ".join(sorted((arrangement - {src}) | {dst})))
    return out


# --- Board, notation -------------------------------------------------------------------------------


def test_registry_and_identity():
    assert GAMES["volcano"] is VOLCANO
    assert (VOLCANO.key, VOLCANO.title, VOLCANO.min_players, VOLCANO.max_players) == ("volcano", "Volcano", 1, 6)
    assert set(VOLCANO.options.names) == {"opening", "layout"}
    assert "b2-c3" in VOLCANO.rules_card


def test_squares_are_named_column_by_column():
    assert list(SQUARE_NAMES) == NAMES
    assert SQUARE_NAMES[0] == "a1" and SQUARE_NAMES[4] == "a5" and SQUARE_NAMES[5] == "b1" and SQUARE_NAMES[24] == "e5"


def test_new_game_has_25_nests_large_on_top_and_diagonal_caps():
    state = VOLCANO.new(2, 5)
    for name in NAMES:
        s = stack(state, name)
        assert s[0] in "RYGBC" and s[0::2] == s[0] * 3 and s[1::2] == "123", s
    assert caps(state) == {"a1", "b2", "c3", "d4", "e5"}
    assert VOLCANO.to_move(state) == 0
    assert VOLCANO.outcome(state) is None and VOLCANO.scores(state) == (0.0, 0.0)


@pytest.mark.parametrize("text", ["B2-B3", "b2-b3", " b2 - b3 ", "b2 b3", "b2b3", "B2–B3", "b2 to b3"])
def test_step_notation_is_case_insensitive_and_canonical_is_lowercase(text):
    state = VOLCANO.new(2, 1)
    assert VOLCANO.canonical(state, text) == "b2-b3"
    assert VOLCANO.dumps(VOLCANO.play(state, text)) == VOLCANO.dumps(VOLCANO.play(state, "b2-b3"))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("f1-e1", "f1 is not on the board: columns a-e, rows 1-5"),
        ("e5-e6", "e6 is not on the board: columns a-e, rows 1-5"),
        ("a0-a1", "a0 is not on the board"),
        ("hello", "'hello' is not a step"),
        ("b2-c3 c3-d4", "is not a step"),
        ("b2-c3,", "A step is missing next to a comma"),
        ("b2-" * 300, "too long"),
    ],
)
def test_bad_notation_is_refused_quoting_the_input(text, words):
    assert words in refusal(VOLCANO.new(2, 1), text)


def test_every_step_message_quotes_the_step_and_says_why():
    state = VOLCANO.new(2, 1)  # caps a1 b2 c3 d4 e5
    assert refusal(state, "b2-d4") == "b2-d4: a cap moves one square, in one of the 8 directions."
    assert refusal(state, "b2-b2") == "b2-b2: a cap moves one square, in one of the 8 directions."
    assert refusal(state, "b2-c3") == "b2-c3: c3 already has a cap."
    assert refusal(state, "b3-c4") == "b3-c4: no cap on b3."
    with pytest.raises(InvalidNotation):
        VOLCANO.play(state, "zz")


# --- Steps -----------------------------------------------------------------------------------------


def test_a_cap_steps_in_all_8_directions_onto_free_squares():
    state = position({}, "c3 " + CORNERS)
    moves = {m for m in VOLCANO.legal_moves(state) if m.startswith("c3")}
    assert moves == {f"c3-{n}" for n in ("b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4")}


def test_a_cap_cannot_step_onto_a_cap_or_off_the_board():
    state = position({}, "a1 a2 b1 b2 e5")
    assert not any(m.startswith("a1") for m in VOLCANO.legal_moves(state))  # boxed in by caps
    assert {m for m in VOLCANO.legal_moves(state) if m.startswith("e5")} == {"e5-d5", "e5-d4", "e5-e4"}
    assert refusal(state, "a1-b2") == "a1-b2: b2 already has a cap."
    assert "not on the board" in refusal(state, "e5-f6")


@pytest.mark.parametrize("seed", range(6))
def test_legal_moves_match_the_independent_model_and_are_exactly_what_play_accepts(seed):
    rng = random.Random(seed)
    state = VOLCANO.new(3, seed)
    for _ in range(25):
        if VOLCANO.to_move(state) is None:
            break
        legal = VOLCANO.legal_moves(state)
        assert set(legal) == model_steps(state)
        accepted = set()
        for a, b in itertools.product(NAMES, NAMES):
            try:
                VOLCANO.play(state, f"{a}-{b}")
                accepted.add(f"{a}-{b}")
            except IllegalMove:
                pass
        assert accepted == set(legal)
        state = VOLCANO.play(state, rng.choice(legal))


def test_the_turn_continues_after_a_step_without_eruption_and_ends_at_the_first_eruption():
    state = position({"a3": "C1C2C3", "c1": "R1R2R3"}, "b1 a3 e1 a5 e5")
    after = VOLCANO.play(state, "b1-b2")  # b1 is empty: no eruption
    assert VOLCANO.to_move(after) == 0 and after.steps == ("b1-b2",)
    after = VOLCANO.play(after, "e1-d2")  # e1 empty
    assert VOLCANO.to_move(after) == 0 and after.steps == ("b1-b2", "e1-d2")
    after = VOLCANO.play(after, "a3-a4")  # a3 erupts north onto a5? a5 is capped: nothing
    assert VOLCANO.to_move(after) == 0
    erupted = VOLCANO.play(after, "a4-b4")  # a4 empty: no eruption
    assert VOLCANO.to_move(erupted) == 0
    done = VOLCANO.play(erupted, "b4-b3")  # b4 empty
    assert VOLCANO.to_move(done) == 0
    final = VOLCANO.play(position({"a3": "C1C2C3"}, "a3 e1 a5 e5 c1"), "a3-b3")
    assert VOLCANO.to_move(final) == 1 and final.steps == () and final.last_steps == ("a3-b3",)


def test_a_whole_turn_may_be_sent_at_once():
    state = position({"a3": "C1C2C3", "d3": "R1R2R3"}, "b1 a3 e1 a5 e5")
    whole = VOLCANO.play(state, "B1-B2, b2-c2 ; a3-b3")
    one_by_one = VOLCANO.play(VOLCANO.play(VOLCANO.play(state, "b1-b2"), "b2-c2"), "a3-b3")
    assert VOLCANO.canonical(state, "B1-B2, b2-c2 ; a3-b3") == "b1-b2, b2-c2, a3-b3"
    assert whole.board == one_by_one.board and whole.caps == one_by_one.caps
    assert whole.last_steps == ("b1-b2", "b2-c2", "a3-b3") and VOLCANO.to_move(whole) == 1
    assert whole.ply == 1


def test_a_whole_turn_with_an_illegal_step_is_refused_and_nothing_changes():
    state = position({"a3": "C1C2C3", "d3": "R1R2R3"}, "b1 a3 e1 a5 e5")
    before = VOLCANO.dumps(state)
    assert (
        refusal(state, "b1-b2, b2-b4")
        == "b1-b2, b2-b4: step 2, b2-b4: a cap moves one square, in one of the 8 directions."
    )
    assert refusal(state, "b1-b2, b2-b1") == (
        "b1-b2, b2-b1: step 2, b2-b1: that would repeat a cap arrangement from earlier this turn "
        "(only an erupting step may)."
    )
    assert "a3-b3 erupts, which ends the turn, so it must be the last step" in refusal(state, "a3-b3, b1-b2")
    assert VOLCANO.dumps(state) == before


def test_no_repeat_rule_includes_the_arrangement_at_the_start_of_the_turn():
    state = position({"e3": "R1R2R3"}, "c3 " + CORNERS)
    after = VOLCANO.play(state, "c3-c4")
    assert "c4-c3" not in VOLCANO.legal_moves(after)
    assert (
        refusal(after, "c4-c3")
        == "c4-c3: that would repeat a cap arrangement from earlier this turn (only an erupting step may)."
    )
    later = VOLCANO.play(VOLCANO.play(after, "c4-d4"), "d4-d3")
    assert "d3-d4" not in VOLCANO.legal_moves(later) and "d3-c4" not in VOLCANO.legal_moves(later)
    assert "d3-c3" not in VOLCANO.legal_moves(later)  # back to the start arrangement
    assert "d3-c2" in VOLCANO.legal_moves(later)  # that arrangement never occurred


def test_an_erupting_step_may_recreate_an_earlier_arrangement():
    state = position({"c4": "B1B2B3"}, "c3 " + CORNERS)
    after = VOLCANO.play(state, "c3-c4")  # c3 is empty: no eruption
    assert "c4-c3" in VOLCANO.legal_moves(after)
    done = VOLCANO.play(after, "c4-c3")  # back to the start arrangement, but c4 erupts onto c2
    assert stack(done, "c2") == "B3" and stack(done, "c1") == "B2" and stack(done, "c4") == "B1"
    assert VOLCANO.to_move(done) == 1


# --- Eruptions -------------------------------------------------------------------------------------


def test_seed_worked_example_clear_nest_erupts_over_green_blue_red():
    state = position({"a3": "C1C2C3", "b3": "Y1Y2Y3", "c3": "G1G2G3", "d3": "B1B2B3", "e3": "R1R2R3"}, "a3 a1 e1 a5 e5")
    after = VOLCANO.play(state, "a3-b3")
    assert stack(after, "a3") == ""  # spent
    assert stack(after, "b3") == "Y1Y2Y3"  # under the cap
    assert stack(after, "c3") == "G1G2G3"  # clear large landed on the green large: captured
    assert stack(after, "d3") == "B1B2B3C2"  # medium on large: stays
    assert stack(after, "e3") == "R1R2R3C1"  # small on large: stays
    assert after.captures == (("C3",), ())
    assert after.landings == ((NAMES.index("c3"), "C3"), (NAMES.index("d3"), "C2"), (NAMES.index("e3"), "C1"))
    assert after.captured_last == ((NAMES.index("c3"), "C3"),)
    assert VOLCANO.scores(after) == (1.0, 0.0)
    assert any("captures clear large" in e for e in VOLCANO.events(after))
    assert VOLCANO.events(after)[0].format("Ann", "Bob").startswith("Ann steps a3-b3")


def test_eruption_stops_at_the_edge_of_the_board():
    after = VOLCANO.play(position({"c3": "G1G2G3"}, "c3 " + CORNERS), "c3-d3")
    assert stack(after, "e3") == "G3" and stack(after, "c3") == "G1G2"
    assert VOLCANO.to_move(after) == 1


def test_eruption_stops_at_a_cap():
    after = VOLCANO.play(position({"a3": "G1G2G3"}, "a3 d3 e1 a5 e5"), "a3-b3")
    assert stack(after, "c3") == "G3" and stack(after, "a3") == "G1G2" and stack(after, "e3") == ""


def test_eruption_stops_when_the_stack_is_spent_and_lands_on_empty_squares():
    after = VOLCANO.play(position({"a3": "R2Y1"}, "a3 " + CORNERS), "a3-b3")
    assert stack(after, "c3") == "Y1" and stack(after, "d3") == "R2" and stack(after, "e3") == ""
    assert stack(after, "a3") == "" and after.captures == ((), ())


@pytest.mark.parametrize("blocker", ["offboard", "cap"])
def test_nothing_erupts_when_the_first_landing_square_is_off_the_board_or_capped(blocker):
    if blocker == "offboard":
        state, step = position({"d3": "G1G2G3"}, "d3 " + CORNERS), "d3-e3"
    else:
        state, step = position({"a3": "G1G2G3"}, "a3 c3 e1 a5 e5"), "a3-b3"
    after = VOLCANO.play(state, step)
    assert after.board == state.board
    assert VOLCANO.to_move(after) == 0 and after.steps == (step,)


def test_smaller_or_larger_pieces_landing_are_not_captured_and_several_same_size_are():
    state = position({"a1": "G1B3R3Y2", "b2": "C1", "c3": "C3", "d4": "B1B2"}, "a1 e1 a5 c1 d1")
    after = VOLCANO.play(state, "a1-b2")
    # Y2 lands on c3 (large: stays), R3 on d4 (medium: stays), B3 on e5 (empty: stays).
    assert stack(after, "c3") == "C3Y2" and stack(after, "d4") == "B1B2R3" and stack(after, "e5") == "B3"
    assert after.captures == ((), ())
    state = position({"a1": "R1Y2G3", "c3": "B3", "d4": "C2", "e5": "R1"}, "a1 e1 a5 c1 d1")
    after = VOLCANO.play(state, "a1-b2")
    assert sorted(after.captures[0]) == ["G3", "R1", "Y2"]
    assert stack(after, "c3") == "B3" and stack(after, "d4") == "C2" and stack(after, "e5") == "R1"
    assert len(after.captured_last) == 3 and VOLCANO.scores(after)[0] == 5.0


def test_a_cap_leaving_an_empty_square_causes_no_eruption():
    state = position({"c4": "R1R2R3"}, "c3 " + CORNERS)
    after = VOLCANO.play(state, "c3-b3")
    assert after.board == state.board and VOLCANO.to_move(after) == 0


# --- Layouts and openings --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(200))
def test_latin_layout_holds_each_colour_once_per_row_and_column(seed):
    letters = latin_layout(seed)
    for i in range(5):
        assert sorted(letters[i * 5 : i * 5 + 5]) == sorted("RYGBC")  # column
        assert sorted(letters[i::5]) == sorted("RYGBC")  # row


def test_same_seed_same_layout_and_seeds_vary():
    assert VOLCANO.new(2, 42).board == VOLCANO.new(2, 42).board
    assert len({latin_layout(s) for s in range(50)}) > 40


def test_classic_layout_is_the_listed_one_and_diagonal_caps_sit_on_red():
    listing = {"a": "RGCCC", "b": "YRGGC", "c": "BYRGC", "d": "BYYRG", "e": "BBBYR"}
    state = VOLCANO.new(2, 3, layout="classic")
    for col, colours in listing.items():
        for row, colour in enumerate(colours, 1):
            assert stack(state, f"{col}{row}") == f"{colour}1{colour}2{colour}3"
    assert "".join(listing.values()) == CLASSIC_LAYOUT
    assert all(stack(state, name)[0] == "R" for name in caps(state))


def test_explicit_layout_letters_are_accepted():
    letters = "RRRRR YYYYY GGGGG BBBBB CCCCC"
    state = VOLCANO.new(1, 0, layout=letters.lower())
    assert stack(state, "a5") == "R1R2R3" and stack(state, "e1") == "C1C2C3"
    assert state.layout == "RRRRRYYYYYGGGGGBBBBBCCCCC"


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ("RRRRRYYYYYGGGGGBBBBBCCCCX", "may only hold the colour letters"),
        ("RRRRRYYYYYGGGGGBBBBBCCCC", "needs 25 colour letters"),
        ("RRRRRRYYYYGGGGGBBBBBCCCCC", "each colour 5 times"),
        ("spiral", "not latin or classic"),
        (7, "layout must be"),
    ],
)
def test_bad_layouts_are_refused_saying_what_is_wrong(layout, words):
    with pytest.raises(BadOptions, match=words):
        VOLCANO.new(2, 0, layout=layout)


@pytest.mark.parametrize("name", sorted(OPENINGS))
def test_named_openings(name):
    assert caps(VOLCANO.new(2, 0, opening=name)) == set(OPENINGS[name])
    assert VOLCANO.new(2, 0, opening=name.upper()).opening == name


def test_named_openings_are_the_listed_squares():
    assert OPENINGS == {
        "diagonal": ("a1", "b2", "c3", "d4", "e5"),
        "cross": ("c2", "b3", "c3", "d3", "c4"),
        "x": ("b2", "d2", "c3", "b4", "d4"),
        "corners": ("a1", "e1", "c3", "a5", "e5"),
        "line": ("a3", "b3", "c3", "d3", "e3"),
    }


@pytest.mark.parametrize("text", ["a1 b3 c3 d2 e5", "A1, B3, C3, D2, E5", "custom a1 b3 c3 d2 e5"])
def test_custom_opening(text):
    state = VOLCANO.new(2, 0, opening=text)
    assert caps(state) == {"a1", "b3", "c3", "d2", "e5"} and state.opening == "a1 b3 c3 d2 e5"


@pytest.mark.parametrize(
    ("opening", "words"),
    [
        ("a1 a1 c3 d2 e5", "a1 is named twice"),
        ("a1 b3 c3 d2 f5", "f5 is not on the board"),
        ("a1 b3 c3 d2", "exactly 5 squares"),
        ("a1 b3 c3 d2 e5 e4", "exactly 5 squares"),
        ("spiral", "is neither one of diagonal"),
        (5, "opening must be"),
    ],
)
def test_bad_openings_are_refused(opening, words):
    with pytest.raises(BadOptions, match=words):
        VOLCANO.new(2, 0, opening=opening)


def test_bad_seed_and_seats_are_refused():
    with pytest.raises(BadOptions):
        VOLCANO.new(7, 0)
    with pytest.raises(BadOptions):
        VOLCANO.new(2, "x")  # type: ignore[arg-type]


# --- Scoring ---------------------------------------------------------------------------------------


def brute_force_score(pieces: list[str]) -> int:
    """Try every way to pull trees out of the collection (memoised on the sorted remainder)."""
    memo: dict[tuple[str, ...], int] = {}

    def best(rest: tuple[str, ...]) -> int:
        if rest in memo:
            return memo[rest]
        value = len(rest)
        smalls = {p for p in rest if p[1] == "1"}
        mediums = {p for p in rest if p[1] == "2"}
        larges = {p for p in rest if p[1] == "3"}
        for s, m, big in itertools.product(smalls, mediums, larges):
            left = list(rest)
            for p in (s, m, big):
                left.remove(p)
            worth = 7 if s[0] == m[0] == big[0] else 5
            value = max(value, worth + best(tuple(left)))
        memo[rest] = value
        return value

    return best(tuple(sorted(pieces)))


def test_scoring_examples():
    assert score_of([]) == 0
    assert score_of(["R1", "R2", "R3"]) == 7
    assert score_of(["R1", "Y2", "B3"]) == 5
    assert score_of(["R1", "R2", "R3", "Y1", "B2", "G3", "C3"]) == 13
    assert arrange(["R1", "R2", "R3", "Y1", "B2", "G3", "C3"]) == (1, 1, 1)


@pytest.mark.parametrize("seed", range(300))
def test_scoring_is_the_optimum_found_by_brute_force(seed):
    rng = random.Random(seed)
    colours = rng.sample("RYGBC", rng.randint(1, 3))
    pieces = [rng.choice(colours) + rng.choice("123") for _ in range(rng.randint(0, 9))]
    assert score_of(pieces) == brute_force_score(pieces)


# --- The end ---------------------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_in_which_a_player_holds_every_colour():
    state = position({"a3": "C3", "c3": "R3", "e1": "R1R2R3"}, "a3 a1 e2 a5 e5", captures=("R1Y1G1B1", "C1C2"))
    after = VOLCANO.play(state, "a3-b3")  # clear large lands on the red large: captured
    assert after.captures[0][-1] == "C3"
    assert VOLCANO.to_move(after) is None and VOLCANO.legal_moves(after) == []
    outcome = VOLCANO.outcome(after)
    assert outcome is not None and outcome.winners == {0} and outcome.scores == (5.0, 2.0)
    assert "every colour" in outcome.reason
    assert refusal(after, "a1-b1") == "The game is over: no more moves."


def test_holding_every_colour_by_a_non_mover_is_impossible_so_the_game_goes_on_until_a_turn_ends():
    state = position({"a3": "C3", "c3": "R2", "e1": "R1R2R3"}, "a3 a1 e2 a5 e5", captures=("R1Y1G1B1", ""))
    after = VOLCANO.play(state, "a3-b3")  # clear large lands on a medium: no capture
    assert VOLCANO.to_move(after) == 1


def test_no_eruption_reachable_at_the_start_of_a_turn_ends_the_game():
    assert not eruption_reachable(0, 0b11111)
    assert eruption_reachable(1 << 12, 0b11111)
    # Seat 0 steps on an empty board and is then stuck (every arrangement one step away was seen this
    # turn), so the turn passes; at the start of seat 1's turn no eruption can be reached: game over.
    start = {"a1", "e1", "a5", "e5", "c3"}
    after_step = (start - {"c3"}) | {"c4"}
    seen = tuple(neighbours_of(after_step))
    state = position({}, " ".join(sorted(start)), filler=False, seen=seen, captures=("R1", "Y1"))
    after = VOLCANO.play(state, "c3-c4")
    assert VOLCANO.to_move(after) is None
    outcome = VOLCANO.outcome(after)
    assert outcome is not None and outcome.reason.startswith("no eruption can be reached")
    assert outcome.winners == {0, 1}  # equal scores share the win


def test_a_player_with_no_legal_step_mid_turn_passes_the_turn():
    start = {"a1", "e1", "a5", "e5", "c3"}
    after_step = (start - {"c3"}) | {"c4"}
    state = position({"b2": "R1R2R3"}, " ".join(sorted(start)), seen=tuple(neighbours_of(after_step)))
    after = VOLCANO.play(state, "c3-c4")
    assert VOLCANO.to_move(after) == 1 and after.steps == () and after.last_steps == ("c3-c4",)
    assert after.board == state.board and after.landings == ()
    assert any("no legal step left" in e for e in VOLCANO.events(after))
    assert set(VOLCANO.legal_moves(after)) == model_steps(after)


def test_ruling_the_game_ends_when_nobody_can_complete_the_colours():
    # No clear piece is on the board; seat 1 holds no clear either: nobody can ever hold every colour.
    state = position(
        {"a3": "R3", "c3": "Y2", "e1": "G1G2G3"}, "a3 a1 e2 a5 e5", filler=False, captures=("R1Y1G1B1", "R2")
    )
    after = VOLCANO.play(state, "a3-b3")
    outcome = VOLCANO.outcome(after)
    assert outcome is not None and outcome.reason.startswith("nobody can complete the colours")
    # A clear piece whose size has no other piece on the board cannot be captured either.
    state = position(
        {"a3": "R3", "c3": "Y2", "e1": "C1G2G3"}, "a3 a1 e2 a5 e5", filler=False, captures=("R1Y1G1B1", "R2")
    )
    assert VOLCANO.outcome(VOLCANO.play(state, "a3-b3")) is not None
    # With a second small on the board the clear small could still be captured: play goes on.
    state = position(
        {"a3": "R3", "c3": "Y2", "e1": "C1G1G3"}, "a3 a1 e2 a5 e5", filler=False, captures=("R1Y1G1B1", "R2")
    )
    assert VOLCANO.to_move(VOLCANO.play(state, "a3-b3")) == 1


@pytest.mark.parametrize("seed", range(5))
def test_solitaire_plays_to_an_end(seed):
    rng = random.Random(seed)
    state = VOLCANO.new(1, seed)
    while VOLCANO.to_move(state) is not None:
        assert VOLCANO.to_move(state) == 0
        state = VOLCANO.play(state, rng.choice(VOLCANO.legal_moves(state)))
    outcome = VOLCANO.outcome(state)
    assert outcome is not None and outcome.winners == {0}
    assert outcome.scores == (float(score_of(state.captures[0])),)


def test_resign_in_three_player_game_keeps_captures_and_passes_play():
    state = position(
        {"a3": "C1C2C3", "c3": "G1G2G3", "e2": "R1R2R3"},
        "a3 a1 e1 a5 e5",
        seats=3,
        turn=1,
        captures=("R1", "R1R2R3", "Y1"),
    )
    mid = VOLCANO.play(state, "a1-b1")  # no eruption: seat 1 is mid-turn
    gone = VOLCANO.resign(mid, 1)
    assert VOLCANO.to_move(gone) == 2 and gone.resigned == {1}
    assert gone.captures[1] == ("R1", "R2", "R3") and VOLCANO.scores(gone) == (1.0, 7.0, 1.0)
    assert caps(gone) == caps(mid)  # the caps stepped stay where they are
    after = VOLCANO.play(gone, "a3-b3")  # seat 2 erupts; seat 1 is skipped
    assert VOLCANO.to_move(after) == 0
    with pytest.raises(IllegalMove, match="already resigned"):
        VOLCANO.resign(after, 1)
    over = VOLCANO.resign(after, 2)  # not its turn, and seat 0 is the last player left: it wins at once
    outcome = VOLCANO.outcome(over)
    assert VOLCANO.to_move(over) is None and over.resigned == {1, 2}
    assert outcome == Outcome((1.0, 7.0, 2.0), frozenset({0}), "every other player resigned")  # seat 2 took one


def test_the_last_of_two_players_wins_even_when_behind():
    state = position({"a3": "C3", "c3": "R3"}, "a3 a1 e2 a5 e5", seats=2, turn=0, captures=("R1", "R1R2R3"))
    over = VOLCANO.resign(state, 0)
    outcome = VOLCANO.outcome(over)
    assert outcome is not None and outcome.winners == {1} and outcome.reason == "every other player resigned"
    with pytest.raises(IllegalMove, match="game is over"):
        VOLCANO.resign(over, 1)


def test_a_solitaire_player_who_resigns_ends_the_game_with_no_winner():
    over = VOLCANO.resign(VOLCANO.new(1, 5), 0)
    outcome = VOLCANO.outcome(over)
    assert outcome is not None and outcome.winners == frozenset() and "every player resigned" in outcome.reason


def test_a_resigned_player_cannot_win_even_with_the_top_score():
    state = position(
        {"a3": "C3", "c3": "R3", "e1": "R1R2R3"}, "a3 a1 e2 a5 e5", seats=3, captures=("R1Y1G1B1", "R1R2R3", "")
    )
    state = VOLCANO.resign(state, 1)
    after = VOLCANO.play(state, "a3-b3")
    outcome = VOLCANO.outcome(after)
    assert outcome is not None and outcome.scores == (5.0, 7.0, 0.0) and outcome.winners == {0}


def test_outcome_ties_share_the_win():
    state = position(
        {"a3": "C3", "c3": "R3", "e1": "R1R2R3"}, "a3 a1 e2 a5 e5", seats=3, captures=("R1Y1G1B1", "Y1Y2Y3G1", "R1R2R3")
    )
    outcome = VOLCANO.outcome(VOLCANO.play(state, "a3-b3"))
    assert outcome is not None and outcome.scores == (5.0, 8.0, 7.0) and outcome.winners == {1}
    state = position(
        {"a3": "C3", "c3": "R3", "e1": "R1R2R3"}, "a3 a1 e2 a5 e5", seats=3, captures=("R1Y1G1B1", "Y1B2C3", "R1")
    )
    outcome = VOLCANO.outcome(VOLCANO.play(state, "a3-b3"))
    assert outcome is not None and outcome.winners == {0, 1} and "shared" in outcome.reason


def test_view_hides_only_the_seed():
    state = VOLCANO.new(2, 9)
    assert (
        VOLCANO.view(state, 0)
        == VOLCANO.view(state, None)
        == VolcanoState(**{**{f: getattr(state, f) for f in VolcanoState.__slots__}, "seed": None})
    )


# --- Random playouts -------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", range(1, 7))
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_terminate_round_trip_and_replay(seats, seed):
    rng = random.Random(seed * 10 + seats)
    options = {"opening": rng.choice([*OPENINGS, "a2 b4 c1 d5 e3"]), "layout": rng.choice(["latin", "classic"])}
    state = VOLCANO.new(seats, seed, **options)
    moves: list[str] = []
    for _ in range(3000):
        assert VOLCANO.loads(VOLCANO.dumps(state)) == state
        if VOLCANO.to_move(state) is None:
            break
        legal = VOLCANO.legal_moves(state)
        assert legal and len(set(legal)) == len(legal)
        move = rng.choice(legal)
        if rng.random() < 0.3:
            move = move.upper()
        moves.append(move)
        state = VOLCANO.play(state, move)
    else:
        pytest.fail("no end")
    assert VOLCANO.outcome(state) is not None
    replay = VOLCANO.new(seats, seed, **options)
    for move in moves:
        replay = VOLCANO.play(replay, move)
    assert VOLCANO.dumps(replay) == VOLCANO.dumps(state)
    pieces = sum(len(s) for s in state.board) + sum(len(c) for c in state.captures)
    assert pieces == 75


# --- Event text of a long turn -------------------------------------------------------------------


def test_quiet_steps_in_a_row_share_one_line_and_an_eruption_keeps_its_own() -> None:
    state = position({"a1": "R3G2"}, "a1 e1 a5 e5 c3")  # a1 is filled: stepping its cap off erupts
    quiet = "c3-c4, c4-d4, d4-d5"  # over empty squares: no eruption
    after = VOLCANO.play(state, quiet)
    assert VOLCANO.events(after) == ("{0} steps c3-c4, c4-d4, d4-d5: no eruption.",)
    assert VOLCANO.events(VOLCANO.play(state, "c3-c4")) == ("{0} steps c3-c4: no eruption.",)
    erupting = next(s for s in VOLCANO.legal_moves(after) if VOLCANO.to_move(VOLCANO.play(after, s)) != 0)
    events = VOLCANO.events(VOLCANO.play(state, f"{quiet}, {erupting}"))
    assert events[0] == "{0} steps c3-c4, c4-d4, d4-d5: no eruption."
    assert events[1].startswith(f"{{0}} steps {erupting}: ") and "erupts" in events[1]


def test_the_longest_quiet_turn_is_one_short_line() -> None:
    """A turn of quiet steps at the engine's input cap (600 characters) is one line, shorter than the text."""
    state = position({}, "a1 e1 a5 e5 c3")
    steps: list[str] = []
    while len(", ".join(steps)) < 590:
        step = next((s for s in VOLCANO.legal_moves(state) if VOLCANO.to_move(VOLCANO.play(state, s)) == 0), None)
        if step is None:
            break
        steps.append(step)
        state = VOLCANO.play(state, step)
    assert len(steps) >= 40
    start = position({}, "a1 e1 a5 e5 c3")
    (line,) = VOLCANO.events(VOLCANO.play(start, ", ".join(steps)))
    assert line == f"{{0}} steps {', '.join(steps)}: no eruption." and len(line) < 650
