"""Reviewing a match move by move (`/<game> review`, the terminal's `review`): the positions of its line of
play, what each reviewer may see of them, its key moments, and the pictures, kept in bounded caches.

What a review shows is decided here once, for both front-ends:
- a running game shows `view(state, None)`, or, in a game with hidden information, the reviewer's own
  seat's view (`view(state, seat)`: their hand as it was at that move, nobody else's);
- a finished game shows its positions as the final board does (the game's `revealed` hook, in its
  registration: Event Horizon's face-down cards face up), since its record publishes everything.
Positions are rebuilt from the stored log by `move_log.positions` (the seed never leaves this module, the
reseed lines are applied and never written out) and only ever leave it through a view. Every move and
roll they contain has happened already: a review cannot show what has not been drawn.

A replay is made once per match and length of log (`Reviews.replayed`) and each picture once per position
and viewer (`Reviews.frame`); both caches are bounded (least recently used goes first).
"""

from __future__ import annotations

import asyncio
import copy
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import i18n, move_log, posts
from bot.games import GAMES, REGISTRY, AnyGame
from bot.games.phrases import say
from bot.games.registration import resolve
from bot.i18n import _
from bot.models import Match, MoveRecord
from renderers import DRAWERS, Caption
from renderers.alt_text import describe
from renderers.png import to_png

REPLAYS_KEPT = 16
"""Matches whose positions are kept (a 400-ply Geyser game's positions weigh about a megabyte)."""
FRAMES_KEPT = 256
"""Pictures kept (about 30-60 kB each): every position a few reviewers step through."""
AROUND = 3
"""Moves listed on each side of the shown one."""
MOMENT_LABEL = 100
"""Discord's limit for a menu option's label (the terminal prints the same words)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """A position worth jumping to: `ply` standing moves into match `match_id` (another game of the series
    for a death match's other games)."""

    match_id: int
    ply: int
    label: str
    series: bool = False
    """A game of the death match (at its start), rather than a moment of this game."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """A match's line of play, rebuilt once. `positions` are whole states (seed, hidden cards): they never
    leave this module but through `shown`."""

    match: Match
    log_length: int
    positions: tuple[Any, ...]
    lines: tuple[MoveRecord, ...]
    """The standing lines: position k is the one after lines[:k]."""
    events: tuple[Moment, ...]

    @property
    def last(self) -> int:
        return len(self.positions) - 1

    @property
    def over(self) -> bool:
        return not self.match.running


@dataclass(frozen=True, slots=True)
class Frame:
    """One position as one viewer sees it: the picture and its alt text."""

    png: bytes
    alt: str


def viewer_of(game: AnyGame, match: Match, player_id: str | None) -> int | None:
    """The seat whose private view a reviewer gets: their own in a game with hidden information, else None
    (so every reviewer shares the spectator's pictures)."""
    if not game.hidden_information or player_id is None:
        return None
    seats = match.seats_of(player_id)
    return seats[0] if seats else None


def revealed(key: str, state: Any) -> Any:
    """A finished game's position as its final board shows it: nothing hidden (and no seed)."""
    hook = REGISTRY[key].revealed
    if hook is None:
        return GAMES[key].view(state, None)
    return resolve(hook)(state)


def shown(replayed: Replayed, ply: int, viewer: int | None) -> Any:
    """What `viewer` (None: a spectator) may see of position `ply`: the only way a position leaves here."""
    key = replayed.match.game
    state = replayed.positions[ply]
    if replayed.over:
        return revealed(key, state)
    return GAMES[key].view(state, viewer)


def replay(match: Match, log: Sequence[MoveRecord]) -> Replayed:
    """Every position of the match's standing line of play, and the game events worth a jump (pure)."""
    game = GAMES[match.game]
    positions = move_log.positions(game, len(match.players), match.seed, match.options, log)
    lines = move_log.standing(log)
    marks = REGISTRY[match.game].moments
    events = []
    for ply, state in enumerate(positions[1:], 1):
        # the marks are words of the stored English lines; the label keeps one, said when the moments are
        marked = [line for line in game.view(state, None).events if any(mark in line for mark in marks)]
        if marked:
            events.append(Moment(match.id, ply, marked[0]))
    return Replayed(match, len(log), tuple(positions), tuple(lines), tuple(events))


def event_moment(match: Match, moment: Moment) -> Moment:
    """A moment of the game's events (its label the English event line, as `replay` keeps it, for every
    language) in the reader's words: `Move 12: alice claims the 6/8 geyser on e5...`."""
    line = say(moment.label).format(*match.names)
    return Moment(moment.match_id, moment.ply, _cut(_("Move {number}: {event}").format(number=moment.ply, event=line)))


def move_lines(replayed: Replayed) -> list[str]:
    """Line k says how position k was reached, as anyone may read it: `0. Start`, `12. alice: D4-F3`."""
    match, game = replayed.match, GAMES[replayed.match.game]
    lines = [_("0. Start")]
    for number, record in enumerate(replayed.lines, 1):
        name = match.players[record.seat].name if 0 <= record.seat < len(match.players) else "?"
        if record.kind == move_log.RESIGN:
            lines.append(_("{number}. {name} leaves the game").format(number=number, name=name))
        else:
            lines.append(f"{number}. {name}: {i18n.typed(game.public_move(record.move))}")  # notation: as typed
    return lines


def window(replayed: Replayed, ply: int, around: int = AROUND) -> tuple[list[str], int]:
    """The move lines around position `ply`, and the index of the shown one among them."""
    lines = move_lines(replayed)
    end = min(len(lines), max(ply - around, 0) + 2 * around + 1)
    start = max(0, end - 2 * around - 1)
    return lines[start:end], ply - start


def title(replayed: Replayed, ply: int) -> str:
    match = replayed.match
    if replayed.over:
        words = _("Review of {game} #{match} (over): move {number} of {last}")
    else:
        words = _("Review of {game} #{match} (running): move {number} of {last}")
    return words.format(game=GAMES[match.game].title, match=match.id, number=ply, last=replayed.last)


def caption(replayed: Replayed, ply: int) -> Caption:
    """Names and a header; how the game ended only on the final position of one that ended off the board."""
    match = replayed.match
    result = None
    if ply == replayed.last and posts.ended_off_board(match):
        result = posts.result_line(match) if match.result is not None else _("Aborted: no result.")
    header = _("Match #{match} · move {number} of {last}").format(match=match.id, number=ply, last=replayed.last)
    return Caption(names=match.names, header=header, result=result)


def draw(replayed: Replayed, ply: int, viewer: int | None) -> Frame:
    """The picture and alt text of position `ply` for `viewer` (pure; slow: run it off the event loop)."""
    key = replayed.match.game
    view, words = shown(replayed, ply, viewer), caption(replayed, ply)
    png = to_png(DRAWERS[key](view, viewer, words))
    private = viewer if not replayed.over else None  # a running game's own hand, in words too
    lead = _("Move {number} of {last} of match #{match}.").format(
        number=ply, last=replayed.last, match=replayed.match.id
    )
    state = replayed.positions[ply]
    alt = describe(key, state, words, viewer=private, lead=lead, public=view if replayed.over else None)
    return Frame(png, alt)


def swing_moments(match: Match, report: Any) -> list[Moment]:
    """The analysis' largest swings (bot/analysis.py), each at the move that began it."""
    found = []
    for swing in report.analysis.swings:
        who = match.names[swing.seat] if swing.seat < len(match.names) else "?"
        label = _("Swing {number}: move {move}, {before}% → {after}% for {name}").format(
            number=swing.number,
            move=swing.start + 1,
            before=round(100 * swing.before),
            after=round(100 * swing.after),
            name=who,
        )
        found.append(Moment(match.id, swing.start + 1, _cut(label)))
    return found


def series_moments(match: Match, games: Sequence[int]) -> list[Moment]:
    """Each game of a death match, at its start (the shown game's too, to come back to it)."""
    return [
        Moment(
            game_id,
            0,
            _("Game {number} of the death match (#{match})").format(number=number, match=game_id),
            series=True,
        )
        for number, game_id in enumerate(games, 1)
    ]


def _cut(text: str) -> str:
    return text if len(text) <= MOMENT_LABEL else text[: MOMENT_LABEL - 1] + "…"


class Reviews:
    """The replays and pictures of reviews under way, made once and kept in bounded caches."""

    def __init__(self, service: Any, *, replays_kept: int = REPLAYS_KEPT, frames_kept: int = FRAMES_KEPT) -> None:
        self.service = service
        self.replays_kept, self.frames_kept = replays_kept, frames_kept
        self._replays: OrderedDict[tuple[int, int, bool], Replayed] = OrderedDict()
        self._making: dict[tuple[int, int, bool], asyncio.Task[Replayed]] = {}
        self._frames: OrderedDict[tuple[int, int, bool, int, int | None], Frame] = OrderedDict()
        self.replays_made = 0
        """How many replays were made (tests check a review replays once)."""

    async def replayed(self, match_id: int) -> Replayed:
        """The match's positions as its log stands now: from the cache while the log has not grown."""
        match = copy.copy(await self.service.get(match_id))  # as it is now: the cached one changes in place
        key = (match.id, match.ply, match.running)  # a flag ends a game without a line of log
        done = self._replays.get(key)
        if done is not None:
            self._replays.move_to_end(key)
            return done
        task = self._making.get(key)
        if task is None:
            task = asyncio.create_task(self._make(match, key))
            self._making[key] = task
        return await asyncio.shield(task)

    async def _make(self, match: Match, key: tuple[int, int, bool]) -> Replayed:
        try:
            log = await self.service.log(match.id)
            made = await asyncio.to_thread(replay, match, log)
            self.replays_made += 1
            for old in [k for k in self._replays if k[0] == match.id]:  # the log grew: the old one is done with
                del self._replays[old]
            self._replays[key] = made
            while len(self._replays) > self.replays_kept:
                self._replays.popitem(last=False)
            return made
        finally:
            self._making.pop(key, None)

    async def frame(self, replayed: Replayed, ply: int, viewer: int | None) -> Frame:
        """The picture of position `ply` for `viewer`, drawn once (in a worker thread)."""
        key = (replayed.match.id, replayed.log_length, replayed.over, ply, viewer, i18n.current())
        done = self._frames.get(key)
        if done is not None:
            self._frames.move_to_end(key)
            return done
        made = await asyncio.to_thread(draw, replayed, ply, viewer)
        self._frames[key] = made
        while len(self._frames) > self.frames_kept:
            self._frames.popitem(last=False)
        return made

    async def moments(self, replayed: Replayed, report: Any | None = None) -> list[Moment]:
        """The key moments: each game of a death match, the analysis' swings of a finished game (when
        `report`, its analysis, is at hand), then the game's events (battles, eruptions...)."""
        match = replayed.match
        found: list[Moment] = []
        if match.series_id is not None:
            series = await self.service.registry.get_series(match.series_id)
            found += series_moments(match, series.games)
        if report is not None:
            found += swing_moments(match, report)
        found += [event_moment(match, moment) for moment in replayed.events]
        return found


_REVIEWS: weakref.WeakKeyDictionary[Any, Reviews] = weakref.WeakKeyDictionary()


def reviews_of(service: Any) -> Reviews:
    """The service's reviews (one cache per service, for every front-end that serves it)."""
    found = _REVIEWS.get(service)
    if found is None:
        found = _REVIEWS[service] = Reviews(service)
    return found


def clamp(replayed: Replayed, ply: int | None) -> int:
    """A move number within the line of play (None: the newest position)."""
    return replayed.last if ply is None else max(0, min(ply, replayed.last))
