"""What a board post says and shows, shared by every front-end (Discord and the terminal).

A post is the rendered board plus a few lines: what just happened, whose turn it is, the scores, and the
clock. Front-ends decide only how to deliver it (a Discord message, a PNG file and printed text).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from bot.clock import format_seconds
from bot.models import CANCELLED, OPEN, Lobby, Match, MoveRecord, Series
from bot.service import RESIGN, MatchService, Notice
from renderers import Caption, SeatClock, render


@dataclass(frozen=True, slots=True)
class Post:
    text: str
    png: bytes
    match_id: int
    ply: int


def caption(service: MatchService, match: Match, now: float, overlays: frozenset[str] = frozenset()) -> Caption:
    """Names, clocks and a header for the image: what the engine state does not know."""
    clocks = None
    if match.clock is not None:
        clock = match.clock
        clocks = tuple(
            SeatClock(
                move_seconds=clock.move_left_at(now) if seat == clock.seat else clock.settings.move_seconds,
                reserve_seconds=max(0.0, clock.reserve_at(seat, now)),
                running=seat == clock.seat and match.running,
            )
            for seat in range(len(match.players))
        )
    result = None
    if not match.running and service.game(match).outcome(match.state) is None:  # ended off the board
        result = service.result_line(match) if match.result is not None else "Aborted: no result."
    return Caption(
        names=match.names,
        clocks=clocks,
        header=header(service, match),
        paused=match.paused,
        result=result,
        overlays=overlays,
    )


def header(service: MatchService, match: Match) -> str:
    series = service.series_of(match)
    if series is None:
        return f"Match #{match.id}"
    return f"Death match · game {match.game_no} of {series.best_of} · {series_score(series)}"


def series_score(series: Series) -> str:
    return " – ".join(f"{p.name} {w}" for p, w in zip(series.players, series.wins, strict=True))


def status_lines(service: MatchService, match: Match, mention: bool = False, deadline: bool = False) -> list[str]:
    """Where the match stands: the scores, then whose turn (with the clock) or the result.

    Notices say what just happened; these lines follow them in every post, so neither repeats the other.

    `deadline` adds Discord timestamps for when the move allowance and the reserve run out, counted from
    now (the board is about to be posted, which is when the clock starts).
    """
    game = service.game(match)
    lines = []
    scores = game.scores(match.state)
    if scores:  # games without points (Themiscyra) have none to show
        label = getattr(game, "score_label", "Score")  # what the numbers count, where it is not points
        lines.append(f"{label}: " + ", ".join(f"{n} {s:g}" for n, s in zip(match.names, scores, strict=True)))
    if not match.running:
        if match.result is not None:
            lines.append(service.result_line(match))
        return lines
    seat = game.to_move(match.state)
    if seat is None:
        return lines
    player = match.players[seat]
    who = player.mention if mention else player.name
    turn = f"{who} to move"
    clock = match.clock
    if clock is not None:
        if clock.paused:
            turn += " — paused by a moderator"
        else:
            move_left = clock.settings.move_seconds - clock.used
            turn += f" — {format_seconds(move_left)} a move + {format_seconds(clock.reserves[seat])} reserve"
            if deadline:
                start = time.time()
                turn += (
                    f": move by <t:{int(start + move_left)}:R>,"
                    f" out of time <t:{int(start + move_left + clock.reserves[seat])}:R>"
                )
    lines.append(turn + ".")
    return lines


def build(
    service: MatchService,
    match: Match,
    lines: tuple[str, ...] | list[str],
    now: float,
    overlays: frozenset[str] = frozenset(),
) -> Post:
    """Render the board and put the words together. Pillow work: call it off the event loop.

    `overlays` asks for extra layers a game can draw (Themiscyra's open "areas")."""
    text = "\n".join([*lines, *status_lines(service, match)])
    png = render(match.game, match.state, None, caption=caption(service, match, now, overlays))
    return Post(text, png, match.id, match.ply)


def for_notice(
    service: MatchService, notice: Notice, now: float, overlays: frozenset[str] = frozenset()
) -> Post | None:
    """The post a notice calls for, or None when words alone will do."""
    if notice.kind in ("started", "moved", "undone", "over", "board"):
        return build(service, notice.match, notice.lines, now, overlays)
    return None


def history_lines(match: Match, records: list[MoveRecord], game: Any = None) -> list[str]:
    """The move log in words, undos included: `3. alice: D4-F3 (0:12)`.

    A game with hidden information gives `public_move`, and only that shows (no hidden card's name)."""
    public = getattr(game, "public_move", None) or (lambda move: move)
    lines = []
    for record in records:
        record = replace(record, move=public(record.move))
        name = match.players[record.seat].name
        if record.kind == "undo":
            lines.append(f"{record.ply}. (a moderator took back {name}'s {record.move})")
        elif record.kind == RESIGN:
            why = "resigned" if record.by_id is not None else "ran out of time"
            lines.append(f"{record.ply}. {name} {why}; the others play on")
        else:
            took = f" ({format_seconds(record.took)})" if record.took is not None else ""
            lines.append(f"{record.ply}. {name}: {record.move}{took}")
    return lines


def summary_line(service: MatchService, match: Match) -> str:
    """One running match in a list: `#3 "1, 2, 3": alice vs bob — bob to move`."""
    game = service.game(match)
    seat = game.to_move(match.state)
    turn = "paused" if match.paused else (f"{match.players[seat].name} to move" if seat is not None else "over")
    return f"#{match.id} {game.title}: {' vs '.join(match.names)} — {turn}"


def lobby_lines(service: MatchService, lobby: Lobby, command: str) -> list[str]:
    """A lobby in words: its options, who joined, and how it starts (`command` is e.g. "/volcano")."""
    game = service.games[lobby.game]
    options = ", ".join(f"{key} {value}" for key, value in sorted(lobby.options.items()))
    lines = [f"{game.title} lobby #{lobby.id}, opened by {lobby.creator.name}" + (f" ({options})." if options else ".")]
    names = ", ".join(p.name for p in lobby.players)
    lines.append(f"Players ({len(lobby.players)}/{game.max_players}): {names}.")
    if lobby.status == OPEN:
        alone = " (alone, it is a solitaire game)" if game.min_players == 1 else ""
        lines.append(
            f"Join with `{command} join`; {lobby.creator.name} adds computer players with `{command} computer` "
            f"and starts it with `{command} start`{alone}."
        )
    elif lobby.status == CANCELLED:
        lines.append(f"Cancelled: {lobby.creator.name} left.")
    else:
        lines.append(f"Started as match #{lobby.match_id}.")
    return lines


def own_messages(
    service: MatchService, match: Match, lines: tuple[str, ...] | list[str]
) -> tuple[list[str], list[str]]:
    """(lines for the board post, lines for a message of their own): a game may single some events out
    (Geyser's firing phase) with `own_message`, a tuple of line prefixes."""
    prefixes = tuple(getattr(service.game(match), "own_message", ()))
    separate = [line for line in lines if prefixes and line.startswith(prefixes)]
    return [line for line in lines if line not in separate], separate
