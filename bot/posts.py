"""What a board post says and shows, shared by every front-end (Discord and the terminal).

A post is the rendered board plus a few lines: what just happened, whose turn it is, the scores, and the
clock. Front-ends decide only how to deliver it (a Discord message, a PNG file and printed text).

The words of the service's notices are here too (a match starting, a move taken back, a game or a death
match ending, a moderator's action, what resigning would do): the service takes its lines from these
functions, so this module reads the service only through `Matches` and never imports it. The board is
drawn by `renderers`, imported where it is drawn, so the service's import of these words brings no Pillow.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from bot import move_log
from bot.clock import format_seconds
from bot.games import Game, Termination
from bot.models import CANCELLED, OPEN, Lobby, Match, MoveRecord, Notice, Player, Series
from bot.wording import plural

if TYPE_CHECKING:
    from renderers import Caption


class Matches(Protocol):
    """What posts read from the service (`bot.service.MatchService` is one): the engines, and the death
    match a running game belongs to."""

    games: dict[str, Game]

    def game(self, match: Match) -> Game: ...

    def series_of(self, match: Match) -> Series | None: ...


@dataclass(frozen=True, slots=True)
class Post:
    text: str
    png: bytes
    match_id: int
    ply: int


def caption(service: Matches, match: Match, now: float, overlays: frozenset[str] = frozenset()) -> Caption:
    """Names, clocks and a header for the image: what the engine state does not know; and how the game
    ended when the final position does not show it (time, resignation, adjudication, abort)."""
    from renderers import Caption, SeatClock

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
    if ended_off_board(match):
        result = result_line(match) if match.result is not None else "Aborted: no result."
    return Caption(
        names=match.names,
        clocks=clocks,
        header=header(service, match),
        paused=match.paused,
        result=result,
        overlays=overlays,
    )


def header(service: Matches, match: Match) -> str:
    series = service.series_of(match)
    if series is None:
        return f"Match #{match.id}"
    return f"Death match · game {match.game_no} of {series.best_of} · {series_score(series)}"


def series_score(series: Series) -> str:
    return " – ".join(f"{p.name} {w}" for p, w in zip(series.players, series.wins, strict=True))


def status_lines(service: Matches, match: Match, mention: bool = False, deadline: bool = False) -> list[str]:
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
            lines.append(result_line(match))
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
    service: Matches,
    match: Match,
    lines: tuple[str, ...] | list[str],
    now: float,
    overlays: frozenset[str] = frozenset(),
) -> Post:
    """Render the board and put the words together. Pillow work: call it off the event loop.

    `overlays` asks for extra layers a game can draw (Themiscyra's open "areas")."""
    from renderers import render

    text = "\n".join([*lines, *status_lines(service, match)])
    png = render(match.game, match.state, None, caption=caption(service, match, now, overlays))
    return Post(text, png, match.id, match.ply)


def for_notice(service: Matches, notice: Notice, now: float, overlays: frozenset[str] = frozenset()) -> Post | None:
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
        elif record.kind == move_log.RESIGN:
            why = "ran out of time" if move_log.leaving(record) is Termination.FLAG else "resigned"
            lines.append(f"{record.ply}. {name} {why}; the others play on")
        else:
            took = f" ({format_seconds(record.took)})" if record.took is not None else ""
            lines.append(f"{record.ply}. {name}: {record.move}{took}")
    return lines


def summary_line(service: Matches, match: Match) -> str:
    """One running match in a list: `#3 "1, 2, 3": alice vs bob — bob to move`."""
    game = service.game(match)
    seat = game.to_move(match.state)
    turn = "paused" if match.paused else (f"{match.players[seat].name} to move" if seat is not None else "over")
    return f"#{match.id} {game.title}: {' vs '.join(match.names)} — {turn}"


def lobby_lines(service: Matches, lobby: Lobby, command: str) -> list[str]:
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


def own_messages(service: Matches, match: Match, lines: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """(lines for the board post, lines for a message of their own): a game may single some events out
    (Geyser's firing phase) with `own_message`, a tuple of line prefixes."""
    prefixes = service.game(match).own_message
    separate = [line for line in lines if prefixes and line.startswith(prefixes)]
    return [line for line in lines if line not in separate], separate


# --- what the service's notices say (bot/service/ takes its lines from here) ---


def event_lines(match: Match, game: Game) -> tuple[str, ...]:
    """The engine's event text for the last ply, with player names filled in."""
    return tuple(line.format(*match.names) for line in game.events(match.state))


def start_lines(match: Match, game: Game) -> tuple[str, ...]:
    """`Fish #3: alice vs bob.` (a death match's game says which), then the clock if there is one."""
    names = " vs ".join(match.names) if len(match.players) > 1 else f"{match.names[0]} plays solitaire"
    lines = [f"{game.title} #{match.id}: {names}."]
    if match.series_id is not None:
        lines[0] = f"{game.title} #{match.id}, game {match.game_no} of the death match: {names}."
    if match.clock is not None:
        lines.append(f"Clock: {match.clock.settings.describe()} per player.")
    return tuple(lines)


def result_line(match: Match) -> str:
    """`Game over: alice wins (more fish).`; empty while the match has no result."""
    result = match.result
    if result is None:
        return ""
    if result.is_draw:
        if len(match.players) == 1:
            return f"Game over ({result.reason})."
        return f"Game over: a draw ({result.reason})."
    names = " and ".join(match.players[s].name for s in sorted(result.winners))
    return f"Game over: {names} {'wins' if len(result.winners) == 1 else 'win'} ({result.reason})."


def ended_off_board(match: Match) -> bool:
    """The match is over and its final position does not show how: it was aborted (no result), or ended by
    time, a resignation, an adjudication or only computers being left (`Outcome.termination`)."""
    return not match.running and (match.result is None or match.result.termination is not Termination.RULES)


def end_reason(termination: Termination, name: str = "") -> str:
    """`Outcome.reason` for a game the service ends off the board (or a seat its clock puts out): `name` is
    whose time ran out, who resigned, or the moderator who adjudicated."""
    match termination:
        case Termination.FLAG:
            return f"{name}'s reserve time ran out"
        case Termination.RESIGNATION:
            return f"{name} resigned"
        case Termination.ADJUDICATION:
            return f"adjudicated by {name}"
        case Termination.ABANDONED:
            return "only computer players were left"
    raise ValueError(f"the service does not end a game by {termination.value}")


def out_of_time_line(player: Player) -> str:
    """A seat put out by its clock in a game the others play on (not "resigns": time did it)."""
    return f"{end_reason(Termination.FLAG, player.name)}: they are out of the game."


def resign_effect(match: Match, game: Game) -> str:
    """What resigning would do, for the confirmation question."""
    if not game.seats_can_leave or len(match.players) == 2:
        return "This ends the game as a loss."
    if len(match.players) == 1:
        return "This ends the game with no score."
    return "You leave the game: your captures stay on the record and the others play on."


def taken_back(by: Player, match: Match, taken: list[MoveRecord], game: Game) -> str:
    """`mod took back alice's move D4-F3 and Computer's moves E5-F6, F6-G7.`: each player's run of moves,
    in order (as `public_move` shows them: hidden cards stay hidden)."""
    runs: list[tuple[int, list[MoveRecord]]] = []
    for record in taken:
        if runs and runs[-1][0] == record.seat:
            runs[-1][1].append(record)
        else:
            runs.append((record.seat, [record]))
    parts = []
    for seat, records in runs:
        name = match.players[seat].name
        moves = [game.public_move(r.move) for r in records if r.kind != move_log.RESIGN]
        said = [f"move{'s' if len(moves) > 1 else ''} {', '.join(moves)}"] if moves else []
        said += ["resignation"] if len(moves) < len(records) else []
        parts.append(f"{name}'s {' and '.join(said)}")
    what = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{by.name} took back {what}."


def paused_line(by: Player) -> str:
    return f"{by.name} paused the match: no clock is running."


def resumed_line(by: Player) -> str:
    return f"{by.name} resumed the match: the clock runs again."


def time_given(seconds: float, name: str) -> str:
    """`+1:00 for alice` (a negative number takes time away): the notice's and the action log's words."""
    return f"{'+' if seconds > 0 else '-'}{format_seconds(abs(seconds))} for {name}"


def time_added_line(by: Player, given: str, reserve: float) -> str:
    return f"{by.name} gave {given}: reserve now {format_seconds(reserve)}."


def aborted_line(by: Player, match: Match) -> str:
    return f"{by.name} aborted match #{match.id}: no result."


def series_reason(series: Series) -> str:
    """The death match's `Outcome.reason`: `2–1 in games`, or `level at 1–1 after 3 games`."""
    score = "–".join(str(w) for w in series.wins)
    if len(set(series.wins)) == 1:
        return f"level at {score} after {plural(series.best_of, 'game')}"
    return f"{score} in games"


def series_line(series: Series) -> str:
    """How a death match ended; empty while it runs."""
    result = series.result
    if result is None:
        return ""
    if result.is_draw:
        house = " — by DM rules the house wins" if series.house_wins else ""
        return f"The death match is drawn{house} ({result.reason})."
    winner = series.players[next(iter(result.winners))].name
    return f"{winner} wins the death match, {result.reason}."


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
