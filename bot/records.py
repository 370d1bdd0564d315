"""Game records: everything needed to replay a finished match, as a JSON file anyone may keep.

A record holds the game, the players, the options, the seed, every line of the move log with its time
(moves, resignations and undos), the result, and how the match ended (`termination`: by the rules, a
flag, a resignation, an adjudication, abandoned to the computers, or aborted with no result). Engines are
pure, so (seed, options, moves) rebuild the game exactly: `replay(record)` gives the final state,
`replay_states(record)` every position on the way.

Only a match that is no longer running has a record. The seed predicts dice and decks, and in Event
Horizon the move log names the card each player placed face down, so both stay secret while the game
runs; once it is over they are history (with the seed public, the whole deal could be recomputed anyway),
and the record publishes the moves exactly as logged, hidden cards included.
"""

from __future__ import annotations

import asyncio
import json
import math
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot import i18n, move_log, posts
from bot.games import GAMES, Game, GameError, Outcome, Termination
from bot.games.phrases import listing
from bot.i18n import _, ngettext
from bot.models import RUNNING, Match, MoveRecord, Player
from bot.service import RESIGN, MatchService, ServiceError

FORMAT = "boardgame-bot record"
VERSION = 1
KINDS = ("move", RESIGN, "undo", move_log.RESEED)
"""A reseed line holds the fresh seed a takeback gave (bot/move_log.py), published like the match's seed."""

# What a record may hold, so an absurd file is refused in words before anything is replayed or drawn.
MAX_BYTES = 16_000_000
"""A record file's size at most: a long Event Horizon (10,000 turns each) writes about 3 MB."""
MAX_MOVES = 60_000
"""Move-log lines at most: two players' 10,000-turn caps, setup and undos fit with room to spare."""
MAX_NAME = 100
"""Characters in a player's name or id (Discord and the terminal allow 32 in a name)."""
MAX_TEXT = 1_000
"""Characters in a move, an option's text or a result's reason (a whole Volcano turn is far shorter)."""
MAX_OPTIONS = 20
MAX_INT = 2**63
"""Whole numbers (seeds, match numbers) as the database keeps them: 64-bit."""
MAX_TIME = 1e11
"""Seconds since 1970 (about the year 5100): the times in a record are never more."""
MAX_SCORE = 1e9
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional embeddings, overrides and isolates: in a name they would reorder the text around it."""


class RecordError(ServiceError):
    """A record file that cannot be read or replayed; the message says where and why."""


class StillRunning(ServiceError):
    """The record of a running match was asked for: its seed and hidden cards are still secret."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished match, as published. `moves` is the whole log, undos included, in order."""

    game: str
    match_id: int
    players: tuple[Player, ...]
    options: dict[str, Any]
    seed: int
    moves: tuple[MoveRecord, ...]
    result: Outcome | None
    status: str
    created_at: float = 0.0
    series_id: int | None = None
    game_no: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "title": GAMES[self.game].title if self.game in GAMES else self.game,
            "match": self.match_id,
            "series": self.series_id,
            "game_no": self.game_no,
            "status": self.status,
            "created_at": self.created_at,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "options": self.options,
            "seed": self.seed,
            "moves": [
                {
                    "ply": m.ply,
                    "seat": m.seat,
                    "move": m.move,
                    "at": m.at,
                    "took": m.took,
                    "kind": m.kind,
                    "by": m.by_id,
                }
                for m in self.moves
            ],
            "result": None if self.result is None else self.result.to_json(),
            "termination": self.termination.value,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    @property
    def termination(self) -> Termination:
        """How the match ended: its result's termination, or ABORT for an aborted match (no result)."""
        return Termination.ABORT if self.result is None else self.result.termination

    @property
    def filename(self) -> str:
        return f"{self.game}-match-{self.match_id}.json"


async def build_record(service: MatchService, match_id: int) -> GameRecord:
    """The record of a finished (or aborted) match; a running match is refused (its seed is secret)."""
    match = await service.get(match_id)
    if match.status == RUNNING:
        raise StillRunning(
            _(
                "Match #{number} is still running: its record (with the seed and every card) is published "
                "once the game is over."
            ).format(number=match.id)
        )
    return record_of(match, await service.log(match.id))


def record_of(match: Match, log: list[MoveRecord]) -> GameRecord:
    return GameRecord(
        game=match.game,
        match_id=match.id,
        players=match.players,
        options=dict(match.options),
        seed=match.seed,
        moves=tuple(log),
        result=match.result,
        status=match.status,
        created_at=match.created_at,
        series_id=match.series_id,
        game_no=match.game_no,
    )


# --- reading ---


def load_record(text: str | bytes) -> GameRecord:
    """Read a record file, checking every field; a bad file raises RecordError saying what is wrong.

    Sizes and numbers are bounded (MAX_BYTES, MAX_MOVES, MAX_NAME, MAX_TEXT...), so an absurd file is
    refused quickly, before anything is replayed or drawn. The file's words (fields, kinds, statuses) are
    English in every language; the refusals are the reader's.
    """
    if len(text) > MAX_BYTES:
        raise RecordError(
            _("This file is too large for a record ({size} bytes; at most {most}).").format(
                size=i18n.number(len(text)), most=i18n.number(MAX_BYTES)
            )
        )
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError(_("This file is nested far too deeply for a record.")) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordError(_("This is not a JSON file: {error}.").format(error=_short(str(error)))) from None
    if not isinstance(data, dict):
        raise RecordError(_("A record is a JSON object; this file holds something else."))
    if data.get("format") != FORMAT:
        raise RecordError(_("This is not a game record (its format should be {format}).").format(format=repr(FORMAT)))
    if data.get("version") != VERSION:
        raise RecordError(
            _("Record version {version} is not one this bot reads (it reads {readable}).").format(
                version=_shown(data.get("version")), readable=VERSION
            )
        )
    game_key = data.get("game")
    if not isinstance(game_key, str) or game_key not in GAMES:
        raise RecordError(
            _("There is no game {game} (games: {games}).").format(game=_shown(game_key), games=", ".join(sorted(GAMES)))
        )
    game = GAMES[game_key]
    players = _players(data.get("players"), game)
    options = _options(data.get("options"))
    seed = data.get("seed")
    if not _is_int(seed) or not -MAX_INT < seed < MAX_INT:
        raise RecordError(_("`seed` must be a whole number (64-bit)."))
    match_id = data.get("match")
    if not _is_int(match_id) or not 1 <= match_id < MAX_INT:
        raise RecordError(_("`match` must be the match's number."))
    status = data.get("status")
    if status not in ("over", "aborted"):
        raise RecordError(_("`status` must be 'over' or 'aborted', not {value}.").format(value=_shown(status)))
    raw_moves = data.get("moves")
    if not isinstance(raw_moves, list):
        raise RecordError(_("`moves` must be a list of move-log lines."))
    if len(raw_moves) > MAX_MOVES:
        raise RecordError(
            ngettext(
                "`moves` has {count} line; a record holds at most {most}.",
                "`moves` has {count} lines; a record holds at most {most}.",
                len(raw_moves),
            ).format(count=i18n.number(len(raw_moves)), most=i18n.number(MAX_MOVES))
        )
    moves = tuple(_move(i, line, len(players)) for i, line in enumerate(raw_moves, start=1))
    result = _result(data.get("result"), players)
    _check_termination(data, status, result)
    series, game_no = data.get("series"), data.get("game_no", 1)
    if _is_int(series) and not 1 <= series < MAX_INT:
        raise RecordError(_("`series` must be the series' number or null."))
    if _is_int(game_no) and not 1 <= game_no <= 1000:
        raise RecordError(_("`game_no` must be the game's number in its series (1, 2, 3...)."))
    return GameRecord(
        game=game_key,
        match_id=match_id,
        players=players,
        options=options,
        seed=seed,
        moves=moves,
        result=result,
        status=status,
        created_at=_time(data.get("created_at", 0.0), "created_at"),
        series_id=series if _is_int(series) else None,
        game_no=game_no if _is_int(game_no) else 1,
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(value: Any, field: str, line: int | None = None) -> float:
    """A time in seconds (since 1970, or a move's duration): a finite number from 0 to MAX_TIME. `field` is
    the record's own (English) name for it; `line` the move-log line it is in, if any."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_TIME:
        if line is None:
            why = _("`{field}` must be a number of seconds, not {value}.")
        else:
            why = _("`{field}` of move-log line {line} must be a number of seconds, not {value}.")
        raise RecordError(why.format(field=field, line=line, value=_shown(value)))
    return float(value)


def _shown(value: Any) -> str:
    """A value for a message: its repr, cut short (a refusal is one line people read)."""
    return _short(repr(value)) if not isinstance(value, (list, dict)) else type(value).__name__


def _short(text: str, limit: int = 60) -> str:
    """`text` for a one-line refusal: line breaks and other unprintable characters written as escapes, cut
    to `limit`."""
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text_problem(text: str, limit: int, seat: int, field: str) -> str | None:
    """Why `text` cannot be player `seat`'s `field` ("name" or "id") in a record, in words (None if it can):
    empty, too long, or holding control characters, line breaks or bidirectional overrides (which would
    garble the lines that show it)."""
    name = field == "name"
    if not text.strip():
        why = _("Player {seat}'s name is empty.") if name else _("Player {seat}'s id is empty.")
    elif len(text) > limit:
        if name:
            why = _("Player {seat}'s name is {length} characters long (at most {most}).")
        else:
            why = _("Player {seat}'s id is {length} characters long (at most {most}).")
    elif any(ch in BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text):
        if name:
            why = _("Player {seat}'s name holds control or bidirectional characters.")
        else:
            why = _("Player {seat}'s id holds control or bidirectional characters.")
    else:
        return None
    return why.format(seat=seat, length=i18n.number(len(text)), most=limit)


def _players(raw: Any, game: Game) -> tuple[Player, ...]:
    if not isinstance(raw, list) or not all(
        isinstance(p, dict) and isinstance(p.get("id"), str) and isinstance(p.get("name"), str) for p in raw
    ):
        raise RecordError(
            _("`players` must be a list of {example} objects.").format(example='{"id": ..., "name": ...}')
        )
    if not game.min_players <= len(raw) <= game.max_players:
        lo, hi = game.min_players, game.max_players
        if lo == hi:
            why = _("{game} is played by {most} players, not {count}.")
        else:
            why = _("{game} is played by {least} to {most} players, not {count}.")
        raise RecordError(why.format(game=game.title, least=lo, most=hi, count=len(raw)))
    for seat, p in enumerate(raw, start=1):
        for field in ("name", "id"):
            problem = _text_problem(p[field], MAX_NAME, seat, field)
            if problem is not None:
                raise RecordError(problem)
    return tuple(Player(p["id"], p["name"]) for p in raw)


def _options(raw: Any) -> dict[str, Any]:
    """The game's options as the match stored them: a few names with numbers, short texts or short lists
    of them (the engine checks their meaning when the record is replayed)."""
    if not isinstance(raw, dict):
        raise RecordError(_("`options` must be an object of the game's options."))
    if len(raw) > MAX_OPTIONS:
        raise RecordError(
            _("`options` has {count} entries; no game has more than {most}.").format(
                count=i18n.number(len(raw)), most=MAX_OPTIONS
            )
        )
    for name, value in raw.items():
        values = value if isinstance(value, list) and len(value) <= 100 else [value]
        if len(name) > 40 or not all(_plain(v) for v in values):
            raise RecordError(
                _("Option {name} must be a number, a short text or a short list of them.").format(name=_shown(name))
            )
    return raw


def _plain(value: Any) -> bool:
    """One option value: null, true/false, a 64-bit whole number, a finite number or a short text."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -MAX_INT < value < MAX_INT
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _move(index: int, line: Any, seats: int) -> MoveRecord:
    if not isinstance(line, dict):
        raise RecordError(_("Move-log line {line} must be an object.").format(line=index))
    ply, seat, move, kind, by = (line.get(k) for k in ("ply", "seat", "move", "kind", "by"))
    if ply != index or not _is_int(ply):
        raise RecordError(
            _("Move-log line {line} has ply {ply}; the lines must be numbered 1, 2, 3... in order.").format(
                line=index, ply=_short(repr(ply))
            )
        )
    if not _is_int(seat) or not 0 <= seat < seats:
        raise RecordError(
            _("Move-log line {line} has seat {seat}; seats go from 0 to {last}.").format(
                line=index, seat=_short(repr(seat)), last=seats - 1
            )
        )
    if not isinstance(move, str):
        raise RecordError(_("Move-log line {line} has no move text.").format(line=index))
    if len(move) > MAX_TEXT:
        raise RecordError(
            _("Move-log line {line} has a move of {length} characters; a move is at most {most}.").format(
                line=index, length=i18n.number(len(move)), most=MAX_TEXT
            )
        )
    if kind not in KINDS:
        raise RecordError(
            _("Move-log line {line} has kind {kind}; it must be one of {kinds}.").format(
                line=index, kind=_shown(kind), kinds=", ".join(KINDS)
            )
        )
    if by is not None and (not isinstance(by, str) or len(by) > MAX_NAME):
        raise RecordError(_("Move-log line {line}: `by` must be a player id or null.").format(line=index))
    took = line.get("took")
    return MoveRecord(
        ply,
        seat,
        move,
        _time(line.get("at"), "at", index),
        None if took is None else _time(took, "took", index),
        kind,
        by,
    )


def _result(raw: Any, players: tuple[Player, ...]) -> Outcome | None:
    if raw is None:
        return None
    seats = len(players)
    try:
        if not isinstance(raw, dict):
            raise TypeError("a result is an object")
        outcome = Outcome.from_json(raw)
        ok = (
            len(outcome.scores) == seats
            and all(
                isinstance(s, (int, float)) and not isinstance(s, bool) and abs(s) <= MAX_SCORE for s in outcome.scores
            )
            and all(_is_int(w) and 0 <= w < seats for w in outcome.winners)
            and isinstance(outcome.reason, str)
            and len(outcome.reason) <= MAX_TEXT
            and outcome.termination is not Termination.ABORT  # an aborted match has no result
        )
    except (TypeError, KeyError, ValueError):
        ok = False
    if not ok:
        raise RecordError(
            _("`result` must be {example} or null.").format(
                example='{"scores": [...], "winners": [...], "reason": "...", "termination": "..."}'
            )
        )
    if "termination" not in raw:  # a record written before records said how a game ended
        outcome = replace(outcome, termination=_termination_of_old(outcome.reason, players))
    return outcome


def _termination_of_old(reason: str, players: tuple[Player, ...]) -> Termination:
    """How a game ended, for a record file written before records said so. Such a file holds no action log
    (the store's migration 7 reads that), only the result's reason, which the service wrote in fixed words
    for each way it ended a game off the board; any other reason is the engine's, by the rules."""
    for player in players:
        if reason == f"{player.name}'s reserve time ran out":
            return Termination.FLAG
        if reason == f"{player.name} resigned":
            return Termination.RESIGNATION
    if reason.startswith("adjudicated by "):
        return Termination.ADJUDICATION
    if reason == "only computer players were left":
        return Termination.ABANDONED
    return Termination.RULES


def _check_termination(data: dict[str, Any], status: str, result: Outcome | None) -> None:
    """The record's `termination` (absent from files written before it) must say what its status and
    result say: `abort` for an aborted match, else the result's own."""
    if "termination" not in data:
        return
    expected = Termination.ABORT if result is None else result.termination
    if data["termination"] != expected.value:
        raise RecordError(
            _("`termination` is {value}, but the record's result says {expected}.").format(
                value=_shown(data["termination"]), expected=repr(expected.value)
            )
        )
    if (status == "aborted") != (result is None):
        raise RecordError(_("An aborted match has a null result, and only an aborted match has one."))


# --- replaying ---


def replay_states(record: GameRecord) -> list[Any]:
    """Every position of the line of play that stands: the start, then one per standing move.

    An undo line takes back the last move still standing, as `MatchService.undo` does (it rebuilds from
    the seed, which with pure engines is the same as stepping back). A line the engine refuses raises
    RecordError naming it.
    """
    game = GAMES[record.game]
    try:
        game.new(len(record.players), record.seed, **record.options)
    except (GameError, TypeError, ValueError) as error:
        raise RecordError(
            _("The record's options cannot start a game of {game}: {error}").format(game=game.title, error=error)
        ) from None
    try:
        return move_log.positions(game, len(record.players), record.seed, record.options, record.moves)
    except move_log.ReplayError as error:
        raise RecordError(str(error)) from None


def replay(record: GameRecord) -> Any:
    """The final position of a record."""
    return replay_states(record)[-1]


def result_line(record: GameRecord) -> str:
    """How the recorded game ended, in the reader's words (the record keeps the reason in English)."""
    result = record.result
    if result is None:  # record.termination is ABORT
        return _("No result (the match was aborted).")
    reason = result.said
    if result.is_draw:
        if len(record.players) > 1:
            return _("A draw ({reason}).").format(reason=reason)
        return _("Game over ({reason}).").format(reason=reason)
    names = listing([record.players[s].name for s in sorted(result.winners)])
    return _("{names} won ({reason}).").format(names=names, reason=reason)


async def match_states(service: MatchService, match: Match) -> list[Any]:
    """The positions of a match's standing line of play (for the animated replay at its end)."""
    return replay_states(record_of(match, await service.log(match.id)))


async def replay_for(service: MatchService, match: Match) -> bytes:
    """The animated replay posted at the end of a match (built off the event loop)."""
    from renderers.replay import replay_gif

    states = await match_states(service, match)
    off_board = match.result is not None and posts.ended_off_board(match)
    return await asyncio.to_thread(
        replay_gif,
        match.game,
        states,
        names=match.names,
        title=_("Match #{number}").format(number=match.id),
        result=posts.result_line(match) if off_board else None,
    )


# --- the terminal's files ---


def save_record(record: GameRecord, folder: Path) -> Path:
    """Write a record as `folder/<game>-match-<id>.json` and return the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / record.filename
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def replay_file(path: Path, out_dir: Path) -> list[str]:
    """Load a record file, replay it to the final position and save that board (PNG) and the animated
    replay (GIF) in `out_dir`; returns the lines to print. Pillow work: call it off the event loop."""
    from renderers import Caption, render
    from renderers.replay import replay_gif

    try:
        with path.open("rb") as file:
            text = file.read(MAX_BYTES + 1)  # no more than a record may hold: load_record refuses a longer one
    except (OSError, ValueError) as error:  # ValueError: a NUL in the path
        raise RecordError(
            _("Cannot read {path}: {error}.").format(
                path=_short(str(path)), error=getattr(error, "strerror", None) or error
            )
        ) from None
    record = load_record(text)
    states = replay_states(record)
    game = GAMES[record.game]
    names = tuple(p.name for p in record.players)
    off_board = result_line(record) if record.termination is not Termination.RULES else None
    title = _("Match #{number}").format(number=record.match_id)
    caption = Caption(
        names=names, header=_("Match #{number} · replayed").format(number=record.match_id), result=off_board
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"replay-{record.game}-match-{record.match_id}"
    board, gif = stem.with_suffix(".png"), stem.with_suffix(".gif")
    board.write_bytes(render(record.game, states[-1], None, caption=caption))
    gif.write_bytes(replay_gif(record.game, states, names=names, title=title, result=off_board))
    undone = sum(line.kind == "undo" for line in record.moves)
    standing, logged = len(states) - 1, len(record.moves)
    return [
        _("Replayed {game} #{number} ({players}, seed {seed}): {standing} ({logged}, {undone} undone).").format(
            game=game.title,
            number=record.match_id,
            players=_(" vs ").join(names),
            seed=record.seed,
            standing=ngettext("{count} move standing", "{count} moves standing", standing).format(
                count=i18n.number(standing)
            ),
            logged=ngettext("{count} log line", "{count} log lines", logged).format(count=i18n.number(logged)),
            undone=i18n.number(undone),
        ),
        result_line(record),
        _("final board: {path}").format(path=board),
        _("replay: {path}").format(path=gif),
    ]
