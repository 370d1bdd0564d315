"""After the game: each seat's chances of winning, move by move, and the three largest swings.

The pure part of the analysis (docs/analysis.md): the positions of a finished match, sampled to at most
`MAX_POINTS` (evenly, always with the first and the last), each evaluated by the computer players' own
search (`bot.ai.evaluate`) with a fixed number of playouts (`ITERATIONS`, no clock) from the spectator's
view (`view(state, None)`: what a spectator cannot see, Event Horizon's hands and face-down cards, is
sampled, never read), then the swings between evaluated points and the words for them. The same match
always gives the same analysis, whoever asks, and nothing in it depends on a hidden card: the search's
seed comes from the public view itself, and every move is shown as `public_move` writes it.

`evaluate` is what the worker process runs (bot/computer.py's `Analyst` sends one `Job` per position);
`analyse` does the whole thing in this process, for tests and the bench.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from babel.numbers import format_percent

from bot import i18n, move_log
from bot.errors import ServiceError
from bot.games import GAMES, REGISTRY, Game, Outcome, Termination
from bot.games.phrases import listing, say
from bot.i18n import N_, _, ngettext
from bot.models import ABORTED, RUNNING, Match, MoveRecord

if TYPE_CHECKING:
    from bot.records import GameRecord

MAX_POINTS = 100
"""Positions evaluated at most: a longer game is sampled evenly, its first and last positions kept."""
ITERATIONS = {key: registration.analysis_iterations for key, registration in REGISTRY.items()}
"""Playouts per evaluated position, per game, from its registration (a fixed count, never a time, so the
result is repeatable): about 50-150 ms a position on one core, so a long game takes 5-15 s in the analysis
worker."""
DEFAULT_ITERATIONS = 200
"""For a game without a registration (the tests' toy game)."""
SWINGS = 3
"""Swings marked on the graph and explained in the message."""
MIN_SWING = 0.01
"""A change of less than one percentage point is no swing."""
MOVE_CAP = 60
"""A move's text in the message is cut to this many characters (a whole Volcano turn can be long)."""
NICE = 10
"""How much lower the analysis worker's CPU priority is (Unix `nice`): a computer's move, a board render
and the event loop come first when they want the same core."""


class NotAnalysable(ServiceError):
    """An analysis asked of a match that has none (still running, aborted, solitaire); the message says why."""


def refusal(match: Match) -> str | None:
    """Why `match` has no analysis, in words for the asker (in the reader's language); None when it has one."""
    if match.status == RUNNING:
        why = _("Match #{number} is still running: its analysis comes once the game is over.")
    elif match.status == ABORTED or match.result is None:
        why = _("Match #{number} was aborted: with no result, there is nothing to analyse.")
    elif len(match.players) < 2:
        why = _("Match #{number} is a solitaire game: with nobody to beat, there are no chances to draw.")
    elif match.ply == 0:
        why = _("Match #{number} ended before its first move: with no moves, there are no chances to follow.")
    else:
        return None
    return why.format(number=match.id)


def lower_priority() -> None:
    """The analysis worker's initializer: run at a lower CPU priority where the system allows it."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(NICE)


def iterations_for(game_key: str) -> int:
    return ITERATIONS.get(game_key, DEFAULT_ITERATIONS)


@dataclass(frozen=True, slots=True)
class Step:
    """One standing line of the move log, as anyone may read it."""

    seat: int
    text: str
    """The move as `public_move` writes it (Event Horizon hides the card placed), or for a seat leaving, the
    English words of `LEFT` ("resigned", "ran out of time"), said in the reader's language when shown."""
    is_move: bool = True
    """False for a seat leaving the game (a `resign` line: resigned, out of time, claimed out)."""


@dataclass(frozen=True, slots=True)
class Job:
    """One position for the worker to evaluate: picklable, and all it needs."""

    game: str
    view: Any
    seat: int
    iterations: int
    seed: int


@dataclass(frozen=True, slots=True)
class Evaluation:
    values: tuple[float, ...]
    """Each seat's mean reward over the search's playouts, in [0, 1] (`bot.ai.Evaluation.values`)."""
    move: str | None
    """The move the computer preferred there, as anyone may read it."""


@dataclass(frozen=True, slots=True)
class Point:
    """An evaluated position: the one after `ply` standing moves."""

    ply: int
    chances: tuple[float, ...]
    """Each seat's chance of winning there, summing to 1."""
    preferred: str | None = None
    """The computer's move there (None where the game is over)."""


@dataclass(frozen=True, slots=True)
class Swing:
    """A large change of one seat's chance between two evaluated points."""

    number: int
    """1 for the largest, then 2 and 3: the marks on the graph."""
    seat: int
    start: int
    end: int
    """The plies of the two points: the swing covers moves start + 1 to end."""
    before: float
    after: float
    steps: tuple[Step, ...]
    preferred: str | None
    """What the computer preferred at the first of those moves."""

    @property
    def size(self) -> float:
        return abs(self.after - self.before)


@dataclass(frozen=True, slots=True)
class Analysis:
    game: str
    names: tuple[str, ...]
    moves: int
    """Standing moves of the game (the last point's ply)."""
    points: tuple[Point, ...]
    swings: tuple[Swing, ...]
    result: tuple[float, ...]
    """Each seat's share of the result: 1 for the winner (shared among several), 1/n each in a draw."""
    winners: frozenset[int]
    reason: str
    off_board: str | None
    """How the game ended when the final position does not show it ("bob resigned"): the graph drops from
    the last evaluated point to the result there, and that drop is no swing. None for an end by the rules."""
    iterations: int
    match_id: int | None = None

    @property
    def title(self) -> str:
        return GAMES[self.game].title if self.game in GAMES else self.game


# --- sampling and evaluating ---


def sample(count: int, most: int = MAX_POINTS) -> list[int]:
    """Indices of the positions to evaluate out of `count`: all of them if few, else `most` of them spread
    evenly, always with the first and the last."""
    if count <= most:
        return list(range(count))
    if most < 2:
        return [count - 1]
    step = (count - 1) / (most - 1)
    return sorted({round(i * step) for i in range(most)})


def seed_of(game: Game, view: Any) -> int:
    """The search's seed for a position: from its public view alone (never the match's secret seed), so
    the same position gets the same evaluation whatever the hidden cards are, in any process."""
    digest = hashlib.blake2b(f"{game.key}|{game.dumps(view)}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def jobs(game_key: str, states: Sequence[Any], indices: Sequence[int], iterations: int) -> list[Job | None]:
    """One job per sampled position; None for a position where the game is over (its result is known)."""
    game = GAMES[game_key]
    found: list[Job | None] = []
    for index in indices:
        state = states[index]
        seat = game.to_move(state)
        if seat is None:
            found.append(None)
            continue
        view = game.view(state, None)
        found.append(Job(game_key, view, seat, iterations, seed_of(game, view)))
    return found


def prepare(record: GameRecord, iterations: int) -> tuple[list[Any], list[int], list[Job | None]]:
    """The worker's first part: every position of the game (its log replayed), those to evaluate, and their
    jobs. Replaying is engine work (Themiscyra's checks are costly), so it stays out of the bot's process."""
    from bot import records

    states = records.replay_states(record)
    indices = sample(len(states))
    return states, indices, jobs(record.game, states, indices, iterations)


def evaluate(job: Job) -> Evaluation:
    """The worker's part: the search's values and preferred move for one position."""
    from bot.ai import evaluate as search

    found = search(job.game, job.view, job.seat, job.iterations, job.seed)
    return Evaluation(found.values, GAMES[job.game].public_move(found.choice.move))


def chances(values: Sequence[float], seats: int) -> tuple[float, ...]:
    """Values as chances: each seat's share of their sum (with several seats the search's values need not
    sum to 1); everyone equal when there is nothing to share."""
    values = [max(0.0, float(v)) for v in values][:seats]
    values += [0.0] * (seats - len(values))
    total = sum(values)
    if total <= 0:
        return (1.0 / seats,) * seats
    return tuple(v / total for v in values)


def result_chances(winners: frozenset[int], seats: int) -> tuple[float, ...]:
    """The result as chances: the winner 100%, shared winners equal shares, a draw 1/n each (50%)."""
    if not winners:
        return (1.0 / seats,) * seats
    return tuple(1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats))


def steps_of(game: Game, lines: Sequence[MoveRecord]) -> tuple[Step, ...]:
    """The standing lines of a move log as anyone may read them."""
    steps = []
    for line in move_log.standing(lines):
        if line.kind == move_log.RESIGN:
            how = move_log.leaving(line)
            text = {Termination.FLAG: "ran out of time", Termination.CLAIM: "was claimed out"}.get(how, "resigned")
            steps.append(Step(line.seat, text, is_move=False))
        else:
            steps.append(Step(line.seat, game.public_move(line.move)))
    return tuple(steps)


# --- the analysis ---


def build(
    game_key: str,
    states: Sequence[Any],
    steps: Sequence[Step],
    indices: Sequence[int],
    evaluations: Sequence[Evaluation | None],
    *,
    names: Sequence[str],
    result: Outcome | None,
    iterations: int,
    match_id: int | None = None,
) -> Analysis:
    """The analysis from the evaluated positions (`evaluations[i]` for `states[indices[i]]`, None where the
    game is over there); `result` is the match's (the engine's outcome if None)."""
    game = GAMES[game_key]
    seats = len(names)
    final = states[-1]
    outcome = result or game.outcome(final)
    if outcome is None:
        raise ValueError("an analysis is of a finished game")
    points = []
    for index, evaluation in zip(indices, evaluations, strict=True):
        if evaluation is None:  # the game is over here: the engine's own result
            ended = game.outcome(states[index])
            points.append(Point(index, result_chances(ended.winners if ended else outcome.winners, seats)))
        else:
            points.append(Point(index, chances(evaluation.values, seats), evaluation.move))
    off_board = None if outcome.termination is Termination.RULES else outcome.reason
    return Analysis(
        game=game_key,
        names=tuple(names),
        moves=len(states) - 1,
        points=tuple(points),
        swings=tuple(find_swings(points, steps)),
        result=result_chances(outcome.winners, seats),
        winners=outcome.winners,
        reason=outcome.reason,
        off_board=off_board,
        iterations=iterations,
        match_id=match_id,
    )


def find_swings(points: Sequence[Point], steps: Sequence[Step], most: int = SWINGS) -> list[Swing]:
    """The `most` largest changes of a seat's chance between consecutive evaluated points, numbered from
    the largest (an earlier one first among equals). Each is told for the seat that moved first between
    the two points when its chance changed the most, else for the seat whose chance changed the most."""
    found = []
    for a, b in itertools.pairwise(points):
        deltas = [after - before for before, after in zip(a.chances, b.chances, strict=True)]
        size = max((abs(d) for d in deltas), default=0.0)
        if size < MIN_SWING:
            continue
        between = tuple(steps[a.ply : b.ply])
        mover = between[0].seat if between else None
        if mover is not None and mover < len(deltas) and abs(deltas[mover]) >= size - 1e-9:
            seat = mover
        else:
            seat = max(range(len(deltas)), key=lambda s: (abs(deltas[s]), -s))
        found.append((size, a, b, seat, between))
    found.sort(key=lambda item: (-item[0], item[1].ply))
    return [
        Swing(number, seat, a.ply, b.ply, a.chances[seat], b.chances[seat], between, a.preferred)
        for number, (_, a, b, seat, between) in enumerate(found[:most], start=1)
    ]


def analyse(
    game_key: str,
    states: Sequence[Any],
    lines: Sequence[MoveRecord],
    *,
    names: Sequence[str],
    result: Outcome | None = None,
    iterations: int | None = None,
    match_id: int | None = None,
    run: Callable[[Job], Evaluation] = evaluate,
) -> Analysis:
    """The whole analysis in this process: `states` are the standing positions (`move_log.positions`),
    `lines` the move log they come from."""
    budget = iterations or iterations_for(game_key)
    indices = sample(len(states))
    evaluations = [None if job is None else run(job) for job in jobs(game_key, states, indices, budget)]
    steps = steps_of(GAMES[game_key], lines)
    return build(
        game_key,
        states,
        steps,
        indices,
        evaluations,
        names=names,
        result=result,
        iterations=budget,
        match_id=match_id,
    )


# --- words ---


def percent(chance: float) -> str:
    """A chance as the reader writes a percentage: `64%`, `64 %` in German and French."""
    return format_percent(round(chance * 100) / 100, locale=i18n.babel_locale())


def _cut(text: str, limit: int = MOVE_CAP) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


LEFT = {
    "resigned": N_("{name} resigned"),
    "ran out of time": N_("{name} ran out of time"),
    "was claimed out": N_("{name} was claimed out"),
}
"""A seat leaving the game (a `Step` that is no move), said as a whole clause."""


def _step_words(names: Sequence[str], step: Step) -> str:
    """What the first move of a swing did: `alice played D4-F3`, `alice resigned`."""
    name = names[step.seat]
    if step.is_move:
        return _("{name} played {move}").format(name=name, move=_cut(step.text))
    return _(LEFT[step.text]).format(name=name) if step.text in LEFT else f"{name} {step.text}"


def swing_line(analysis: Analysis, swing: Swing) -> str:
    """`move 23, alice played D4-F3: 64% → 31% for alice; the computer preferred E2-E5`."""
    names = analysis.names
    change = _("{before} → {after} for {name}").format(
        before=percent(swing.before), after=percent(swing.after), name=names[swing.seat]
    )
    if not swing.steps:
        return _("{number}. after move {move}: {change}").format(number=swing.number, move=swing.end, change=change)
    first = swing.steps[0]
    said = _step_words(names, first)
    if len(swing.steps) == 1:
        where = _("move {move}, {said}").format(move=swing.end, said=said)
    else:
        count = len(swing.steps)
        where = ngettext(
            "moves {first}–{last} ({count} move between evaluated positions; first {said})",
            "moves {first}–{last} ({count} moves between evaluated positions; first {said})",
            count,
        ).format(first=swing.start + 1, last=swing.end, count=i18n.number(count), said=said)
    line = _("{number}. {where}: {change}").format(number=swing.number, where=where, change=change)
    if first.is_move and swing.preferred is not None:
        if swing.preferred == first.text and GAMES[analysis.game].hidden_information:  # a hidden card may differ
            return _("{line}; the computer preferred the same, as far as a spectator can tell.").format(line=line)
        if swing.preferred == first.text:
            return _("{line}; the computer would have played the same.").format(line=line)
        if len(swing.steps) > 1:
            return _("{line}; the computer preferred {move} at move {number}.").format(
                line=line, move=_cut(swing.preferred), number=swing.start + 1
            )
        return _("{line}; the computer preferred {move}.").format(line=line, move=_cut(swing.preferred))
    return line + "."


def result_words(analysis: Analysis) -> str:
    names = analysis.names
    reason = say(analysis.reason)
    if not analysis.winners:
        return _("A draw ({reason}).").format(reason=reason)
    winners = listing([names[s] for s in sorted(analysis.winners)])
    if len(analysis.winners) == 1:
        return _("{names} won ({reason}).").format(names=winners, reason=reason)
    return _("{names} shared the win ({reason}).").format(names=winners, reason=reason)


def _heading(analysis: Analysis) -> str:
    """The first line: what the graph shows, of which match, and how it was judged."""
    evaluated = len(analysis.points)
    moves, title, playouts = analysis.moves, analysis.title, i18n.number(analysis.iterations)
    every = evaluated == analysis.moves + 1
    if analysis.match_id is None and every:
        text = ngettext(
            "Win chances ({game}), move by move: every position of {count} move, each judged by the "
            "computer's search ({playouts} playouts) from what a spectator sees.",
            "Win chances ({game}), move by move: every position of {count} moves, each judged by the "
            "computer's search ({playouts} playouts) from what a spectator sees.",
            moves,
        )
    elif analysis.match_id is None:
        text = ngettext(
            "Win chances ({game}), move by move: {positions} positions spread evenly of {count} move, each "
            "judged by the computer's search ({playouts} playouts) from what a spectator sees.",
            "Win chances ({game}), move by move: {positions} positions spread evenly of {count} moves, each "
            "judged by the computer's search ({playouts} playouts) from what a spectator sees.",
            moves,
        )
    elif every:
        text = ngettext(
            "Win chances of match #{match} ({game}), move by move: every position of {count} move, each judged "
            "by the computer's search ({playouts} playouts) from what a spectator sees.",
            "Win chances of match #{match} ({game}), move by move: every position of {count} moves, each judged "
            "by the computer's search ({playouts} playouts) from what a spectator sees.",
            moves,
        )
    else:
        text = ngettext(
            "Win chances of match #{match} ({game}), move by move: {positions} positions spread evenly of "
            "{count} move, each judged by the computer's search ({playouts} playouts) from what a spectator sees.",
            "Win chances of match #{match} ({game}), move by move: {positions} positions spread evenly of "
            "{count} moves, each judged by the computer's search ({playouts} playouts) from what a spectator sees.",
            moves,
        )
    return text.format(
        match=analysis.match_id,
        game=title,
        count=i18n.number(moves),
        positions=i18n.number(evaluated),
        playouts=playouts,
    )


def message(analysis: Analysis) -> str:
    """The words that go with the picture: what it shows, the result and the swings, numbered as marked."""
    lines = [_heading(analysis), result_words(analysis)]
    if analysis.off_board is not None:
        lines.append(
            _("The game ended off the board ({reason}): the graph's last drop is that, not a move.").format(
                reason=say(analysis.off_board)
            )
        )
    if analysis.swings:
        count = len(analysis.swings)  # 1 to SWINGS (3): never one of a language's forms for many
        largest = _("The largest swing:") if count == 1 else _("The {count} largest swings:")
        lines.append(largest.format(count=i18n.number(count)))
        lines += [swing_line(analysis, swing) for swing in analysis.swings]
    else:
        lines.append(_("No swings: the chances hardly moved."))
    return "\n".join(lines)


# --- the post ---


@dataclass(frozen=True, slots=True)
class Report:
    """An analysis ready to post: the message, the picture and its alt text (`renderers.analysis.report`)."""

    analysis: Analysis
    text: str
    png: bytes
    description: str

    @property
    def filename_stem(self) -> str:
        number = f"-{self.analysis.match_id}" if self.analysis.match_id is not None else ""
        return f"{self.analysis.game}{number}-analysis"
