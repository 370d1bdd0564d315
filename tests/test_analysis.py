"""The after-the-game analysis (bot/analysis.py, bot/computer.py's Analyst, the terminal's `GAME analysis`):
swings found on hand-built series, sampling, the same analysis for the same match in any process, hidden
cards that change nothing, and the refusals."""

from __future__ import annotations

import io
import itertools
import multiprocessing
import random
import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import analysis
from bot.analysis import Analysis, Evaluation, Job, Point, Step, find_swings
from bot.computer import AnalysisBusy, Analyst
from bot.games import GAMES, Outcome, Termination
from bot.local import Terminal
from bot.models import MoveRecord
from bot.service import MatchService
from renderers import analysis as chart
from tests.conftest import ALICE, BOB, MOD
from tests.test_computer import InlineExecutor
from tests.test_discord_horizon import scrambled

BUDGET = 12
"""Playouts per position in these tests: the analysis's logic, not its judgement, is under test."""
PNG = b"\x89PNG\r\n\x1a\n"


def played(key: str, seed: int, plies: int = 400, **options: Any) -> tuple[list[Any], list[MoveRecord]]:
    """A seeded random game of two to its end (or `plies`): its positions and its move log."""
    game = GAMES[key]
    state = game.new(2, seed, **options)
    states, lines, rng = [state], [], random.Random(seed)
    while game.to_move(state) is not None and len(lines) < plies:
        seat = game.to_move(state)
        move = game.canonical(state, rng.choice(game.legal_moves(state)))
        lines.append(MoveRecord(len(lines) + 1, seat, move, 0.0, None))
        state = game.play(state, move)
        states.append(state)
    return states, lines


def points(*series: tuple[float, ...], plies: list[int] | None = None) -> list[Point]:
    at = plies or list(range(len(series)))
    return [Point(ply, chances, preferred=f"best{ply}") for ply, chances in zip(at, series, strict=True)]


# --- the pure part ---


def test_the_three_largest_swings_in_order_with_the_mover_s_chance() -> None:
    series = points((0.5, 0.5), (0.55, 0.45), (0.2, 0.8), (0.25, 0.75), (0.9, 0.1), (0.85, 0.15), (1.0, 0.0))
    steps = [Step(ply % 2, f"m{ply + 1}") for ply in range(6)]
    swings = find_swings(series, steps)
    assert [(s.number, s.start, s.end) for s in swings] == [(1, 3, 4), (2, 1, 2), (3, 5, 6)]
    first, second, third = swings
    assert first.seat == 1 and (first.before, first.after) == (0.75, 0.1)  # bob moved: bob's chance, 75% -> 10%
    assert second.seat == 1 and (second.before, second.after) == (0.45, 0.8)
    assert third.seat == 1 and third.size == pytest.approx(0.15)
    assert first.steps == (Step(1, "m4"),) and first.preferred == "best3"


def test_equal_swings_go_by_time_and_small_changes_are_none() -> None:
    series = points((0.5, 0.5), (0.7, 0.3), (0.5, 0.5), (0.505, 0.495))
    swings = find_swings(series, [Step(0, "a"), Step(1, "b"), Step(0, "c")])
    assert [(s.start, s.end) for s in swings] == [(0, 1), (1, 2)]  # 0.005 is under MIN_SWING
    assert find_swings(points((0.5, 0.5), (0.5, 0.5)), [Step(0, "a")]) == []


def test_a_swing_of_several_moves_between_sampled_points_says_so() -> None:
    series = points((0.6, 0.4), (0.6, 0.4), (0.1, 0.9), plies=[0, 10, 13])
    steps = [Step(ply % 2, f"m{ply + 1}") for ply in range(13)]
    (swing,) = find_swings(series, steps)
    assert (swing.start, swing.end, len(swing.steps)) == (10, 13, 3)
    assert swing.seat == 0  # alice made the first of those moves, and her chance moved the most
    result = Analysis("fish", ("alice", "bob"), 13, tuple(series), (swing,), (0.0, 1.0), frozenset({1}), "x", None, 9)
    line = analysis.swing_line(result, swing)
    assert line == (
        "1. moves 11–13 (3 moves between evaluated positions; first alice played m11): 60% → 10% for alice; "
        "the computer preferred best10 at move 11."
    )


def test_several_players_the_seat_that_changed_most_and_resignations() -> None:
    series = points((0.4, 0.3, 0.3), (0.45, 0.05, 0.5))
    (swing,) = find_swings(series, [Step(0, "resigned", is_move=False)])
    assert swing.seat == 1 and swing.size == pytest.approx(0.25)  # bob's fell most, not the mover's
    result = Analysis(
        "volcano", ("alice", "bob", "carol"), 1, tuple(series), (swing,), (0, 0, 1), frozenset({2}), "x", None, 9
    )
    assert analysis.swing_line(result, swing) == "1. move 1, alice resigned: 30% → 5% for bob."


def test_sampling_keeps_at_most_100_positions_with_both_ends() -> None:
    assert analysis.sample(7) == list(range(7))
    assert analysis.sample(100) == list(range(100))
    for count in (101, 257, 10_001):
        kept = analysis.sample(count)
        assert len(kept) == 100 and kept[0] == 0 and kept[-1] == count - 1 and kept == sorted(set(kept))
        gaps = {b - a for a, b in itertools.pairwise(kept)}
        assert max(gaps) - min(gaps) <= 1  # evenly spread


def test_values_read_as_chances_and_results_as_certainties() -> None:
    assert analysis.chances((0.6, 0.6, 0.3), 3) == pytest.approx((0.4, 0.4, 0.2))
    assert analysis.chances((0.0, 0.0), 2) == (0.5, 0.5)
    assert analysis.result_chances(frozenset({1}), 2) == (0.0, 1.0)
    assert analysis.result_chances(frozenset(), 2) == (0.5, 0.5)
    assert analysis.result_chances(frozenset({0, 2}), 3) == (0.5, 0.0, 0.5)


def test_a_long_game_is_sampled_and_its_swings_name_the_moves_between() -> None:
    states, lines = played("geyser", seed=3, plies=250, rounds=1000)
    assert len(states) == 251
    outcome = Outcome((0.0, 1.0), frozenset({1}), "alice resigned", Termination.RESIGNATION)
    calls: list[Job] = []

    def judge(job: Job) -> Evaluation:  # a made-up judge: alice is ahead until move 120, then far behind
        calls.append(job)
        ply = next(i for i, s in enumerate(states) if GAMES["geyser"].view(s, None) == job.view)
        return Evaluation((0.9, 0.1) if ply < 120 else (0.2, 0.8), "skip")

    found = analysis.analyse("geyser", states, lines, names=("alice", "bob"), result=outcome, iterations=5, run=judge)
    assert len(found.points) == 100 and found.points[0].ply == 0 and found.points[-1].ply == 250
    assert len(calls) == 100 and {job.iterations for job in calls} == {5}
    assert found.off_board == "alice resigned" and found.result == (0.0, 1.0)
    (swing,) = found.swings  # the drop from 20% to the result (the resignation) is no swing
    assert swing.start < 120 <= swing.end and swing.end - swing.start in (2, 3)
    assert swing.seat == swing.steps[0].seat  # told for the first mover of the gap
    assert (swing.before, swing.after) == pytest.approx((0.9, 0.2) if swing.seat == 0 else (0.1, 0.8))
    text = analysis.message(found)
    assert "100 positions spread evenly of 250 moves" in text
    assert "ended off the board (alice resigned)" in text
    assert (
        f"1. moves {swing.start + 1}–{swing.end} ({swing.end - swing.start} moves between evaluated positions" in text
    )


def test_the_same_game_gives_the_same_analysis_and_picture_in_any_process() -> None:
    states, lines = played("fish", seed=7)
    one = chart.report(analysis.analyse("fish", states, lines, names=("alice", "bob"), iterations=BUDGET))
    two = chart.report(analysis.analyse("fish", states, lines, names=("alice", "bob"), iterations=BUDGET))
    assert one.text == two.text and one.png == two.png and one.description == two.description
    assert one.png.startswith(PNG) and one.analysis.points[-1].chances in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    # a worker process (spawned: its own hash seed) finds exactly what this one does
    jobs = [job for job in analysis.jobs("fish", states, [0, 5, 20], BUDGET) if job is not None]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = list(pool.map(analysis.evaluate, jobs))
    assert there == [analysis.evaluate(job) for job in jobs]


def _hidden_changed_log(lines: list[MoveRecord]) -> list[MoveRecord]:
    """The log with every card placed face down or swapped in named differently (cards nobody saw)."""
    return [replace(line, move=re.sub(r"\b(T[1-8]|F[1-4]|B[1-4]|MI)\b", "T1", line.move)) for line in lines]


@pytest.mark.parametrize("seed", [5, 8])
def test_hidden_cards_change_nothing_in_an_event_horizon_analysis(seed: int) -> None:
    horizon = GAMES["horizon"]
    states, lines = played("horizon", seed=seed, plies=60)
    changed_states, changed_lines = [scrambled(s) for s in states], _hidden_changed_log(lines)
    assert any(horizon.dumps(a) != horizon.dumps(b) for a, b in zip(states, changed_states, strict=True))
    assert changed_lines != lines
    going = [k for k, s in enumerate(states) if horizon.outcome(s) is None]  # a finished game's view hides no card
    assert [horizon.view(states[k], None) for k in going] == [horizon.view(changed_states[k], None) for k in going]
    outcome = Outcome((0.0, 1.0), frozenset({1}), "alice resigned", Termination.RESIGNATION)
    kwargs: dict[str, Any] = {"names": ("alice", "bob"), "iterations": BUDGET, "result": outcome, "match_id": 3}
    one = chart.report(analysis.analyse("horizon", states, lines, **kwargs))
    two = chart.report(analysis.analyse("horizon", changed_states, changed_lines, **kwargs))
    assert one.text == two.text and one.png == two.png and one.description == two.description
    cards = re.compile(r"\b(T[1-8]|F[1-4]|B[1-4]|MI)\b")
    hidden = {line.move for line in lines if line.move.startswith("place")}
    assert hidden and not cards.search(one.text.replace("Match #3", ""))  # no placed card is named


def test_a_spectator_view_of_event_horizon_is_searched_from_what_a_spectator_knows() -> None:
    horizon = GAMES["horizon"]
    states, _ = played("horizon", seed=5, plies=30)
    state = states[-1]
    seat = horizon.to_move(state)
    view = horizon.view(state, None)
    job = Job("horizon", view, seat, BUDGET, analysis.seed_of(horizon, view))
    found = analysis.evaluate(job)
    assert found == analysis.evaluate(replace(job, view=horizon.view(scrambled(state), None)))
    assert len(found.values) == 2 and all(0 <= v <= 1 for v in found.values)
    assert found.move is not None and not re.search(r"\b(T[1-8]|F[1-4]|B[1-4]|MI)\b", found.move)


# --- the Analyst and the terminal, on a real service ---


async def finished(service: MatchService, key: str = "fish", seed: int = 3, resign_at: int | None = None) -> int:
    """A seeded random game through the service to its end (a resignation at `resign_at` plies)."""
    match = await service.create_match(key, [ALICE, BOB], seed=seed)
    game, rng, plies = GAMES[key], random.Random(seed), 0
    while (match := await service.get(match.id)).running:
        seat = game.to_move(match.state)
        if resign_at is not None and plies >= resign_at:
            await service.playing.resign(match.id, match.players[seat].id)
            continue
        await service.move(match.id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))
        plies += 1
    return match.id


def analyst_for(service: MatchService, **kwargs: Any) -> Analyst:
    return Analyst(service, executor=InlineExecutor(), iterations=BUDGET, **kwargs)


async def test_the_analyst_makes_it_once_and_keeps_it(service: MatchService) -> None:
    match_id = await finished(service)
    analyst = analyst_for(service)
    match = await service.get(match_id)
    report = await analyst.report(match)
    assert report.analysis.match_id == match_id and report.analysis.moves == match.ply
    assert report.png.startswith(PNG) and f"Win chances of match #{match_id}" in report.text
    assert await analyst.report(match) is report  # kept in memory
    assert analyst_for(service).executor is not analyst.executor
    again = await analyst_for(service).report(match)  # made afresh: the same
    assert again.png == report.png and again.text == report.text
    with Image.open(io.BytesIO(report.png)) as image:
        assert image.width == 800


async def test_the_analyst_refuses_running_aborted_solitaire_and_too_many(service: MatchService) -> None:
    analyst = analyst_for(service)
    running = await service.create_match("fish", [ALICE, BOB], seed=1)
    with pytest.raises(analysis.NotAnalysable, match="still running"):
        await analyst.report(running)
    await service.moderation.abort(running.id, MOD)
    with pytest.raises(analysis.NotAnalysable, match="was aborted"):
        await analyst.report(await service.get(running.id))
    alone = await service.create_match("volcano", [ALICE], seed=1)
    await service.playing.resign(alone.id, ALICE.id)
    with pytest.raises(analysis.NotAnalysable, match="solitaire"):
        await analyst.report(await service.get(alone.id))
    done = await service.get(await finished(service))
    with pytest.raises(AnalysisBusy, match="ask again"):
        await analyst_for(service, most_waiting=0).report(done)


async def test_a_resigned_game_s_analysis_ends_on_its_result(service: MatchService) -> None:
    match_id = await finished(service, resign_at=9)
    report = await analyst_for(service).report(await service.get(match_id))
    found = report.analysis
    assert found.moves == 9 and found.off_board is not None and "resigned" in found.off_board
    assert sorted(found.result) == [0.0, 1.0] and all(s.end <= 9 for s in found.swings)
    assert "ended off the board" in report.text


async def test_the_terminal_analyses_a_finished_match(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append, analyst=analyst_for(service))

    async def run(line: str) -> str:
        before = len(out)
        assert await terminal.handle(line)
        return "\n".join(out[before:])

    await run("fish new alice bob --seed 4")
    assert "still running: its analysis comes once the game is over" in await run("fish analysis")
    match_id = await finished(service, seed=6)
    said = await run(f"fish analysis {match_id}")
    assert f"[#{match_id}] Win chances of match #{match_id}" in said
    path = tmp_path / "renders" / f"match-{match_id}-analysis.png"
    assert said.endswith(f"picture: {path}") and path.read_bytes().startswith(PNG)
    assert said == await run(f"fish analysis --match {match_id}")  # the same, from memory
    assert f"Match #{match_id} is a game of {GAMES['fish'].title}" in await run(f"volcano analysis {match_id}")
    assert "There is no match #99" in await run("fish analysis 99")
    assert "Use: fish analysis [ID]" in await run("fish analysis 1 2")
