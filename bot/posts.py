"""What a board post says and shows, shared by every front-end (Discord and the terminal).

A post is the rendered board plus a few lines: what just happened, whose turn it is, the scores, and the
clock. Front-ends decide only how to deliver it (a Discord message, a PNG file and printed text).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from bot.clock import format_seconds
from bot.games import Game
from bot.models import CANCELLED, OPEN, Lobby, Match, MoveRecord, Series
from bot.service import RESIGN, MatchService, Notice
from bot.wording import plural
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
        label = game.score_label  # what the numbers count, where it is not points
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


def history_lines(match: Match, records: list[MoveRecord], game: Game) -> list[str]:
    """The move log in words, undos included: `3. alice: D4-F3 (0:12)`.

    A game with hidden information gives `public_move`, and only that shows (no hidden card's name)."""
    public = game.public_move
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
    prefixes = service.game(match).own_message
    separate = [line for line in lines if prefixes and line.startswith(prefixes)]
    return [line for line in lines if line not in separate], separate


def move_groups(game: Any, moves: list[str], typed: str = "") -> list[tuple[str, list[str]]]:
    """`moves` as (label, moves) by the engine's `move_group`, in the engine's order, keeping those that
    `typed` picks out (case-insensitive): every move of a group whose label has the typed words (in any
    order, each the start of a word: `e5` and `e8 e5` pick Themiscyra's pair `e5 e8`, `F2` Event Horizon's
    `place F2`), else the moves that start with the typed text (`e5 e8 @`, `D4-F`; and `e8 e5 @e8`: the
    label's words in any order, then the start of the rest). A typed word that is a whole word of some
    label matches only that word, so `a1` lists a1's pairs and not a10's (`a` lists both)."""
    group_of = game.move_group
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(group_of(move), []).append(move)
    wanted = " ".join(typed.split()).lower()
    if not wanted:
        return list(groups.items())
    words = wanted.split()
    whole = set(words) & {word for label in groups for word in label.lower().split()}
    kept = []
    for label, members in groups.items():
        if _has(label, words, whole):
            picked = members
        else:
            size = len(label.split())  # the label's words typed in any order, then the start of the rest
            after = " ".join(words[size:]) if sorted(words[:size]) == sorted(label.lower().split()) else ""
            picked = [
                m for m in members if _starts(m, wanted, whole) or (after and _rest(label, m).lower().startswith(after))
            ]
        if picked:
            kept.append((label, picked))
    return kept


def _has(label: str, words: list[str], whole: set[str]) -> bool:
    """Each of `words` is a different word of `label` (those in `whole`) or starts one, in any order."""
    free = label.lower().split()
    for word in words:
        hit = next((w for w in free if w == word or (word not in whole and w.startswith(word))), None)
        if hit is None:
            return False
        free.remove(hit)
    return True


def _starts(move: str, wanted: str, whole: set[str]) -> bool:
    """`move` starts with `wanted`, and not inside a word if its last word is a whole word (`a1` starts
    `a1 a2 @a1` but not `a10 b10 @a10`)."""
    move = move.lower()
    if not move.startswith(wanted):
        return False
    return wanted.split()[-1] not in whole or len(move) == len(wanted) or not move[len(wanted)].isalnum()


def _rest(label: str, move: str) -> str:
    """What a move adds to its group's label: `e5 e8 @e8` under `e5 e8` -> `@e8`; `swap me:5 F2` under
    `swap F2` -> `me:5`; a move the label does not begin (a Fish placement under `place`) is shown whole."""
    if move.startswith(label) and len(move) > len(label):
        return move[len(label) :].strip()
    words = move.split()
    for word in label.split():
        if word in words and len(words) > 1:
            words.remove(word)
    return " ".join(words)


def moves_lines(
    game: Any, moves: list[str], typed: str = "", *, most: int | None = None, command: str = "moves"
) -> list[str]:
    """The legal moves in words: a header with the total, then one group a line, `e5 e8 (2): @e5 @e8`
    (a group that is one move equal to its label, like `pass`, is just that).

    `typed` narrows the list (see `move_groups`); "No legal move starts with e9." when nothing matches.
    With `most`, at most that many groups are listed and a last line says how many more and how to narrow
    the list: `command` is what lists moves, e.g. "themiscyra moves", and the hint adds a word to `typed`.
    """
    if not moves:
        return ["No legal moves."]
    wanted = " ".join(typed.split())
    groups = move_groups(game, moves, wanted)
    if not groups:
        return [f"No legal move starts with {wanted if len(wanted) <= 40 else wanted[:39] + '…'}."]
    shown = sum(len(members) for _, members in groups)
    if wanted:
        verb = "matches" if shown == 1 else "match"
        head = f"{shown:,} of {plural(len(moves), 'legal move')} {verb} {wanted}, in {plural(len(groups), 'group')}:"
    else:
        head = f"{plural(len(moves), 'legal move')} in {plural(len(groups), 'group')}:"
    lines = [head]
    for label, members in groups[:most]:
        if members == [label]:
            lines.append(label)
        else:
            lines.append(f"{label} ({len(members)}): " + " ".join(_rest(label, m) or m for m in members))
    if most is not None and len(groups) > most:
        label = groups[most][0]
        hint = " ".join(label.split()[: len(wanted.split()) + 1])
        if hint.lower() == wanted.lower():
            hint = label
        more = len(groups) - most
        lines.append(f"… and {plural(more, 'more group')}: type more of the move to list fewer, like: {command} {hint}")
    return lines
