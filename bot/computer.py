"""Computer players in matches: who they are, and the driver that moves for them.

A computer seat is an ordinary `Player` whose id says its level (`computer:normal`, `computer:hard:2`
for a second computer in one lobby; see `bot.models.computer`), so it is stored, resumed and shown like
anyone else. The driver
listens to the service's notices; when a computer is to move in a running, unpaused match it sends the
seat's own view (never the state: hidden cards stay hidden) to a worker process, which runs the search
(bot/ai), and plays the answer through `MatchService.move` with the ply it looked at, exactly as a
player's button would. The event loop only waits, so the bot keeps answering everyone else meanwhile.

`Analyst` makes the after-the-game analyses (bot/analysis.py) in a pool of its own: one worker process by
default, started on first use at a lower CPU priority (`nice`). Its own pool, so an analysis (up to 100
searches, seconds of work) never takes the worker a computer's move waits for, and analyses queue behind
each other rather than beside the moves; the lower priority, so on a machine with few cores the event
loop, the board renders and the computers' workers get the CPU first when they want it at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import multiprocessing
import signal
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot import analysis, i18n
from bot.ai import LEVELS, Choice, Level, think
from bot.games import GameError
from bot.i18n import _
from bot.models import Match
from bot.service import MatchNotRunning, MatchPaused, MatchService, Notice, NoticeKind, ServiceError, StaleBoard, TimeUp

log = logging.getLogger(__name__)

Done = TypeVar("Done")

WAKE_ON = (NoticeKind.STARTED, NoticeKind.MOVED, NoticeKind.UNDONE, NoticeKind.RESUMED, NoticeKind.TIME_ADDED)
"""Notices after which a computer may have a move to make."""


class ComputerPlayers:
    """Moves for every computer seat of a service's matches (see the module docstring).

    `executor` runs the search; by default a pool of `workers` processes, started on first use (spawned,
    not forked: the bot has threads of its own). `hard_seconds` caps the hard level's thinking time.
    """

    def __init__(
        self,
        service: MatchService,
        *,
        executor: Executor | None = None,
        workers: int = 1,
        hard_seconds: float = 5.0,
    ) -> None:
        self.service = service
        self.levels = dict(LEVELS, hard=dataclasses.replace(LEVELS["hard"], seconds=hard_seconds))
        self._executor = executor
        self._own_executor = executor is None
        self._workers = workers
        self._tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}
        """match id -> (the ply being thought about, the task doing it)"""
        service.subscribe(self.on_notice)

    async def on_notice(self, notice: Notice) -> None:
        if notice.kind in WAKE_ON:
            self.poke(notice.match)

    def poke(self, match: Match) -> None:
        """Start thinking if a computer is to move in `match` (and is not thinking about it already)."""
        if not match.running or match.paused:
            return
        seat = self.service.game(match).to_move(match.state)
        if seat is None or not match.players[seat].is_computer:
            return
        thinking = self._tasks.get(match.id)
        if thinking is not None and thinking[0] == match.ply and not thinking[1].done():
            return  # already on it (a task about an older ply finds the board changed and stops)
        task = asyncio.create_task(self._play(match.id, match.ply), name=f"computer-{match.id}-{match.ply}")
        self._tasks[match.id] = (match.ply, task)
        task.add_done_callback(lambda done: self._finished(match.id, done))

    def _finished(self, match_id: int, task: asyncio.Task[None]) -> None:
        if match_id in self._tasks and self._tasks[match_id][1] is task:
            del self._tasks[match_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("computer move failed in match %s", match_id, exc_info=task.exception())

    async def _play(self, match_id: int, ply: int) -> None:
        match = await self.service.get(match_id)
        if not match.running or match.ply != ply:
            return
        game = self.service.game(match)
        seat = game.to_move(match.state)
        if seat is None:
            return
        player = match.players[seat]
        level = self.within_clock(self.levels[player.level or "normal"], match)
        view = game.view(match.state, seat)
        seed = (match.seed * 1_000_003 + ply) % 2**63  # the same position of the same match, the same move
        metrics = self.service.metrics
        began = metrics.now()
        choice = await self._think(match.game, view, seat, level, seed)
        metrics.computer_thought(match.game, player.level or "normal", metrics.now() - began)  # a busy pool's wait too
        log.info(
            "computer (%s) plays %s in match %s after %d playouts in %.2f s",
            level.name,
            "a move" if game.hidden_information else choice.move,  # hidden cards stay out of logs
            match_id,
            choice.iterations,
            choice.seconds,
        )
        try:
            await self.service.move(match_id, player.id, choice.move, ply=ply)
        except (StaleBoard, MatchNotRunning, MatchPaused, TimeUp):
            pass  # undone, ended, paused or flagged while thinking: a later notice wakes it again if need be
        except (ServiceError, GameError) as error:  # a refusal quotes the move: not for a game with hidden cards
            why = type(error).__name__ if game.hidden_information else str(error)
            log.error("the computer's move was refused in match %s: %s", match_id, why)

    def within_clock(self, level: Level, match: Match) -> Level:
        """A computer on a clock thinks at most half the time it has left, so it never loses on time."""
        deadline = match.clock.deadline() if match.clock is not None else None
        if deadline is None:
            return level
        left = max(0.1, (deadline - self.service.time.now()) / 2)
        return (
            level if level.seconds is not None and level.seconds <= left else dataclasses.replace(level, seconds=left)
        )

    async def _think(self, game_key: str, view: object, seat: int, level: Level, seed: int) -> Choice:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self.executor, think, game_key, view, seat, level, seed)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start a fresh pool once
                if attempt == 2 or not self._own_executor:
                    raise
                log.warning("the computer's worker process died; starting a new one")
                self._executor = None
        raise AssertionError("unreachable")

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = Workers(max_workers=self._workers, mp_context=context)
        return self._executor

    async def idle(self) -> None:
        """Wait until no computer is thinking (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*(task for _, task in list(self._tasks.values())), return_exceptions=True)
            await asyncio.sleep(0)

    async def close(self) -> None:
        tasks = [task for _, task in self._tasks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_executor and self._executor is not None:
            stop(self._executor)


class AnalysisBusy(ServiceError):
    """Too many analyses are waiting already; the message says to try again."""


class Analyst:
    """The after-the-game analyses of a service's matches (see the module docstring).

    `report(match)` gives a finished match's `analysis.Report`, the same every time: made once, kept in
    memory for the `kept` latest matches (nothing is stored; it is made again on demand after a restart),
    and a second ask while one is being made waits for that one. The analysis itself (the searches) is the
    same in every language and made once; its words and picture are the reader's (`i18n.current()` when
    asked), each language's report kept apart. At most `most_waiting` are made or wait at
    once; past that an ask is refused with `AnalysisBusy`. `iterations` overrides every game's budget
    (tests); `executor` replaces the pool (tests, the bench)."""

    def __init__(
        self,
        service: MatchService,
        *,
        executor: Executor | None = None,
        workers: int = 1,
        iterations: int | None = None,
        most_waiting: int = 8,
        kept: int = 32,
    ) -> None:
        self.service = service
        self.iterations = iterations
        self.most_waiting = most_waiting
        self.kept = kept
        self._executor = executor
        self._own_executor = executor is None
        self._workers = workers
        self._done: OrderedDict[tuple[int, int, str], analysis.Report] = OrderedDict()
        """(match id, playouts, language) -> the report in that language"""
        self._making: dict[tuple[int, int, str], asyncio.Task[analysis.Report]] = {}
        self._built: OrderedDict[tuple[int, int], analysis.Analysis] = OrderedDict()
        """(match id, playouts) -> the analysis, in no language: a report in another language reuses it"""
        self._building: dict[tuple[int, int], asyncio.Task[analysis.Analysis]] = {}

    def budget(self, match: Match) -> int:
        return self.iterations or analysis.iterations_for(match.game)

    def _key(self, match: Match) -> tuple[int, int, str]:
        """A report's key: the match, its budget and the reader's language."""
        return (match.id, self.budget(match), i18n.current())

    def check(self, match: Match) -> None:
        """Refuse now (before a command answers publicly) what `report` would refuse."""
        why = analysis.refusal(match)
        if why is not None:
            raise analysis.NotAnalysable(why)
        key = self._key(match)
        if key not in self._done and key not in self._making and len(self._making) >= self.most_waiting:
            raise AnalysisBusy(_("Many analyses are being made right now: ask again in a minute or two."))

    async def report(self, match: Match) -> analysis.Report:
        self.check(match)
        key = self._key(match)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        task = self._making.get(key)
        if task is None:
            task = asyncio.create_task(self._make(match, key[1], key[2]), name=f"analysis-{match.id}")
            self._making[key] = task
            task.add_done_callback(lambda finished: self._finished(key, finished))
        return await asyncio.shield(task)  # one asker giving up does not stop it for the others

    def made(self, match: Match, *, start: bool = False) -> analysis.Report | None:
        """The match's analysis if it is made already, without waiting (a review's key moments, bot/review.py);
        with `start`, one that can be made and is not is started, so a later look finds it."""
        key = self._key(match)
        done = self._done.get(key)
        if done is None and start and key not in self._making and analysis.refusal(match) is None:
            try:
                self.check(match)
            except ServiceError:  # busy: nothing is started
                return None
            task = asyncio.create_task(self.report(match), name=f"analysis-for-review-{match.id}")
            task.add_done_callback(lambda finished: finished.cancelled() or finished.exception())
        return done

    def _finished(self, key: tuple[int, int, str], task: asyncio.Task[analysis.Report]) -> None:
        self._making.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        self._done[key] = task.result()
        while len(self._done) > self.kept:
            self._done.popitem(last=False)

    async def _make(self, match: Match, iterations: int, language: str) -> analysis.Report:
        key = (match.id, iterations)
        built = self._built.get(key)
        if built is None:
            building = self._building.get(key)
            if building is None:
                building = asyncio.create_task(self._build(match, iterations), name=f"analysis-build-{match.id}")
                self._building[key] = building
                building.add_done_callback(lambda finished: self._was_built(key, finished))
            built = await asyncio.shield(building)
        # drawn in the worker too (the event loop's process only waits), in the reader's language
        return await self._in_pool(_report_in, built, language)

    def _was_built(self, key: tuple[int, int], task: asyncio.Task[analysis.Analysis]) -> None:
        self._building.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        self._built[key] = task.result()
        while len(self._built) > self.kept:
            self._built.popitem(last=False)

    async def _build(self, match: Match, iterations: int) -> analysis.Analysis:
        """The analysis of a match, in no language: its positions replayed and searched in the worker."""
        from bot import records

        lines = await self.service.log(match.id)
        states, indices, jobs = await self._in_pool(analysis.prepare, records.record_of(match, lines), iterations)
        evaluations = await self._evaluate(jobs)
        return analysis.build(
            match.game,
            states,
            analysis.steps_of(self.service.game(match), lines),
            indices,
            evaluations,
            names=match.names,
            result=match.result,
            iterations=iterations,
            match_id=match.id,
        )

    async def _in_pool(self, work: Callable[..., Done], *args: Any) -> Done:
        """`work(*args)` in the analysis worker (a fresh pool once if the worker died)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)
        except BrokenProcessPool:
            if not self._own_executor:
                raise
            self._executor = None
            return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)

    async def _evaluate(self, jobs: list[analysis.Job | None]) -> list[analysis.Evaluation | None]:
        """Every job in the pool, one search each (so closing the pool drops the rest at once)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            executor = self.executor
            pending: list[asyncio.Future[analysis.Evaluation] | None] = []
            try:
                for job in jobs:
                    pending.append(None if job is None else loop.run_in_executor(executor, analysis.evaluate, job))
                return [None if future is None else await future for future in pending]
            except BrokenProcessPool:  # the worker died (killed, out of memory): a fresh pool, once
                if attempt == 2 or not self._own_executor:
                    raise
                log.warning("the analysis worker process died; starting a new one")
                self._executor = None
            finally:
                for future in pending:
                    if future is not None:
                        future.cancel()
        raise AssertionError("unreachable")

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = Workers(max_workers=self._workers, mp_context=context, initializer=analysis.lower_priority)
        return self._executor

    async def idle(self) -> None:
        """Wait until no analysis is being made (tests)."""
        while self._making:
            await asyncio.gather(*list(self._making.values()), return_exceptions=True)
            await asyncio.sleep(0)

    async def close(self) -> None:
        tasks = [*self._making.values(), *self._building.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_executor and self._executor is not None:
            stop(self._executor)
            self._executor = None


def _report_in(built: analysis.Analysis, language: str) -> analysis.Report:
    """The report of an analysis (its words, picture and alt text) in `language`: run in the analysis worker,
    where the asker's language (a context variable) does not reach by itself."""
    from renderers.analysis import report  # Pillow is loaded only where a picture is drawn

    with i18n.using(language):
        return report(built)


class Workers(ProcessPoolExecutor):
    """A process pool whose workers ignore Ctrl-C: in the terminal it reaches every process of the group,
    and the bot decides when its workers stop (`stop`), so none dies of it mid-search with a traceback.
    The workers are started by `submit`, and a spawned process keeps an ignored signal ignored."""

    def submit(self, fn: Callable[..., Done], /, *args: Any, **kwargs: Any) -> Future[Done]:
        try:
            before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: signals are not this thread's to change
            return super().submit(fn, *args, **kwargs)
        try:
            return super().submit(fn, *args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, before)


def stop(executor: Executor) -> None:
    """Shut a pool down at once: queued work cancelled, and a search under way ended (its worker
    terminated) rather than waited for, so quitting the bot is not held up by a computer thinking."""
    workers = list((getattr(executor, "_processes", None) or {}).values())  # a ProcessPoolExecutor's
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
