"""What a board post says and shows, shared by every front-end (Discord and the terminal).

A post is the rendered board plus a few lines: what just happened, whose turn it is, the scores, and the
clock. Front-ends decide only how to deliver it (a Discord message, a PNG file and printed text).

The words of the service's notices are here too (a match starting, a move taken back, a game or a death
match ending, a moderator's action, what resigning would do): the service takes its lines from these
functions, so this module reads the service only through `Matches` and never imports it. The board is
drawn by `renderers`, imported where it is drawn, so the service's import of these words brings no Pillow.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from bot import move_log
from bot.clock import format_seconds
from bot.games import Game, Termination, seat_leaves
from bot.models import (
    CANCELLED,
    DECLINED,
    EXPIRED,
    OPEN,
    TAKEN_BACK,
    Lobby,
    Match,
    MoveRecord,
    Notice,
    NoticeKind,
    Player,
    Series,
)
from bot.reminders import is_long
from bot.wording import listing, plural

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
    description: str = ""
    """The image's alt text (`renderers.alt_text.describe`, from the same caption), for Discord's attachment."""


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
    """The board's header: the match number, or the death match's game and score; on the last game of a
    finished death match, who won the series."""
    series = service.series_of(match)
    if series is None:
        return f"Match #{match.id}"
    head = f"Death match · game {match.game_no} of {series.best_of}"
    if series.result is not None and series.games and series.games[-1] == match.id:
        return f"{head} · {series_line(series)}"
    return f"{head} · {series_score(series)}"


def series_score(series: Series) -> str:
    return " – ".join(f"{p.name} {w}" for p, w in zip(series.players, series.wins, strict=True))


def status_lines(
    service: Matches, match: Match, mention: bool = False, deadline: bool = False, now: float | None = None
) -> list[str]:
    """Where the match stands: the scores, then whose turn (with the clock) or the result.

    Notices say what just happened; these lines follow them in every post, so neither repeats the other.

    `deadline` adds Discord timestamps for when the move allowance and the reserve run out, counted from
    `now` (default the wall clock: the board is about to be posted, which is when the clock starts); a long
    clock (`bot.reminders.is_long`: an hour a move or more) gives each as a date too (`<t:…:f>`).
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
        elif seat in clock.away:  # away time (bot/service/away.py): the turn waits, its time untouched
            left = format_seconds(clock.settings.move_seconds - clock.used)
            turn += f" — away, so the clock waits ({left} a move + {format_seconds(clock.reserves[seat])} reserve left)"
        else:
            move_left = clock.settings.move_seconds - clock.used
            turn += f" — {format_seconds(move_left)} a move + {format_seconds(clock.reserves[seat])} reserve"
            if deadline:
                start, dated = (time.time() if now is None else now), is_long(clock)
                out = start + move_left + clock.reserves[seat]
                turn += f": move by {stamp(start + move_left, dated)}, out of time {stamp(out, dated)}"
    lines.append(turn + ".")
    return lines


def stamp(when: float, dated: bool) -> str:
    """A Discord timestamp, `<t:…:R>` ("in 2 days"), with the date beside it (`<t:…:f>`) when `dated`."""
    return f"<t:{int(when)}:R>" + (f" (<t:{int(when)}:f>)" if dated else "")


def build(
    service: Matches,
    match: Match,
    lines: tuple[str, ...] | list[str],
    now: float,
    overlays: frozenset[str] = frozenset(),
) -> Post:
    """Render the board and put the words together. Pillow work: call it off the event loop.

    `overlays` asks for extra layers a game can draw (Themiscyra's open "areas")."""
    from renderers import describe, render

    text = "\n".join([*lines, *status_lines(service, match)])
    drawn = caption(service, match, now, overlays)
    png = render(match.game, match.state, None, caption=drawn)
    return Post(text, png, match.id, match.ply, describe(match.game, match.state, drawn))


def for_notice(service: Matches, notice: Notice, now: float, overlays: frozenset[str] = frozenset()) -> Post | None:
    """The post a notice calls for, or None when words alone will do."""
    if notice.kind in (NoticeKind.STARTED, NoticeKind.MOVED, NoticeKind.UNDONE, NoticeKind.OVER, NoticeKind.BOARD):
        return build(service, notice.match, notice.lines, now, overlays)
    return None


def history_lines(match: Match, records: list[MoveRecord], game: Game) -> list[str]:
    """The move log in words, undos included: `3. alice: D4-F3 (0:12)`.

    A game with hidden information gives `public_move`, and only that shows (no hidden card's name); a
    reseed line (a takeback's fresh chance) is never shown: its move is a secret seed."""
    public = game.public_move
    lines = []
    for record in records:
        if record.kind == move_log.RESEED:  # its move is the secret seed behind the chance to come
            continue
        record = replace(record, move=public(record.move))
        name = match.players[record.seat].name
        if record.kind == "undo":
            # a takeback's undo lines are by its requester, a player; a moderator's by the moderator
            asked = next((p.name for p in match.players if p.id == record.by_id), None)
            who = f"taken back at {asked}'s request:" if asked else "a moderator took back"
            lines.append(f"{record.ply}. ({who} {name}'s {record.move})")
        elif record.kind == move_log.RESIGN:
            how = move_log.leaving(record)
            claimer = next((p.name for p in match.players if p.id == record.by_id), "an opponent")
            why = {Termination.FLAG: "ran out of time", Termination.CLAIM: f"is out by {claimer}'s claim"}
            lines.append(f"{record.ply}. {name} {why.get(how, 'resigned')}; the others play on")
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
    if lobby.clock is not None:
        lines.append(f"Clock: {lobby.clock.describe()} per player.")
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


RESTART_LINE = "The bot is back after a restart: a fresh move clock for the player to move, reserves unchanged."


def restart_line(match: Match) -> str:
    """Said with a board posted again after a restart: a fresh move clock only where there is a clock (an
    untimed game whose board was not up yet has none to speak of)."""
    return RESTART_LINE if match.clock is not None else "The bot is back after a restart."


def out_of_time_line(player: Player) -> str:
    """A seat put out by its clock in a game the others play on (not "resigns": time did it)."""
    return f"{end_reason(Termination.FLAG, player.name)}: they are out of the game."


def resign_effect(match: Match, game: Game) -> str:
    """What resigning would do, for the confirmation question."""
    if len(match.players) == 1:
        return "This ends the game with no score."
    if not seat_leaves(game, len(match.players)):
        return "This ends the game as a loss."
    return "You leave the game: your captures stay on the record and the others play on."


def taken_back(by: Player, match: Match, taken: list[MoveRecord], game: Game) -> str:
    """`mod took back alice's move D4-F3 and Computer's moves E5-F6, F6-G7.`: each player's run of moves,
    in order (as `public_move` shows them: hidden cards stay hidden)."""
    return f"{by.name} took back {taken_words(match, taken, game)}."


def taken_words(match: Match, taken: list[MoveRecord], game: Game, own: int | None = None) -> str:
    """`alice's move D4-F3 and Computer's moves E5-F6, F6-G7`: the lines taken back, each player's run of
    moves in order, as `public_move` shows them; the seat `own` (the requester of a takeback) says `their`."""
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
        whose = "their" if seat == own else f"{name}'s"
        parts.append(f"{whose} {' and '.join(said)}")
    return listing(parts)


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


_WAIT_UNITS = (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))


def wait_words(seconds: float) -> str:
    """A wait in words, in its two largest units, rounded up so it is never less than the wait: `7 days`,
    `2 days 3 hours`, `10 minutes`, `4 minutes 30 seconds`, `1 second`."""
    whole = max(0, math.ceil(seconds - 1e-9))
    for (name, size), (small_name, small) in itertools.pairwise(_WAIT_UNITS):
        if whole >= size:
            big, rest = divmod(math.ceil(whole / small), size // small)
            return plural(big, name) + (f" {plural(rest, small_name)}" if rest else "")
    return plural(whole, "second")


# --- takebacks by agreement and claims (bot/service/takebacks.py, bot/service/claims.py) ---


def takeback_asked(requester: Player, asked: list[Player], what: str, window: float) -> str:
    """`alice asks to take back their move D4-F3. bob: accept or decline within 10 minutes; ...`"""
    names = listing([p.name for p in asked])
    return (
        f"{requester.name} asks to take back {what}. {names}: accept or decline within {wait_words(window)};"
        " a move meanwhile cancels the request."
    )


def takeback_at_once(requester: Player, what: str) -> str:
    """A takeback against computers only: nobody is asked (a computer has no say), so it is done at once."""
    return f"{requester.name} took back {what} (a computer player has no say in a takeback)."


def takeback_accepted(by: Player, requester: Player, waiting: list[Player]) -> str:
    """One of several asked accepted; the others have not yet."""
    return f"{by.name} accepts {requester.name}'s takeback; waiting for {listing([p.name for p in waiting])}."


def takeback_agreed(by: Player, requester: Player, what: str, several: bool) -> str:
    """The last of those asked accepted: the moves are taken back."""
    return f"{by.name} accepts{' too' if several else ''}: {requester.name} takes back {what}."


def takeback_declined(by: Player, requester: Player) -> str:
    return f"{by.name} declines {requester.name}'s takeback: the game goes on as it stands."


def takeback_expired(requester: Player, waiting: list[Player], window: float) -> str:
    names = listing([p.name for p in waiting])
    return f"{requester.name}'s takeback request expired: {names} did not accept within {wait_words(window)}."


def takeback_lapsed(requester: Player, over: bool) -> str:
    why = "the game is over" if over else "the position changed before everyone accepted"
    return f"{requester.name}'s takeback request lapsed: {why}."


def takeback_closed_refusal(status: str) -> str:
    """An answer to a request that has closed (its buttons were still shown somewhere)."""
    how = {TAKEN_BACK: "was accepted: the moves are taken back", DECLINED: "was declined", EXPIRED: "has expired"}
    return f"This takeback request {how.get(status, 'has lapsed: the position changed')}."


def claim_reason(claimer: Player, idle: Player, after: float, players: int) -> str:
    """The `Outcome.reason` of a game ended by a claim: `bob claimed the win: alice did not move for 7 days`
    (with three or more players the others share the win: `bob claimed the game: ...`)."""
    what = "the win" if players == 2 else "the game"
    return f"{claimer.name} claimed {what}: {idle.name} did not move for {wait_words(after)}"


def claimed_out_line(claimer: Player, idle: Player, after: float) -> str:
    """A claim that puts the idle seat out of a game the others play on."""
    return f"{claimer.name} claimed {idle.name} out: {idle.name} did not move for {wait_words(after)}, so they are out."


CLAIM_TOLD = "A moderator is told: the claim is in the match's action log (claim)."
"""The line after a claim, in the thread, for moderators to find it."""


def claim_refusal(idle: Player, waited: float, after: float) -> str:
    """Too early to claim: exactly how long is left (rounded up) before the player to move has waited `after`."""
    return (
        f"Too early: a claim needs {wait_words(after)} without a move, and {idle.name}'s turn began less than"
        f" that ago. You can claim in {wait_words(after - waited)}."
    )


def reminder_line(kind: str, number: int, due: float, deadline: float | None, every: float = 86_400.0) -> str:
    """What a reminder of a turn says (its `kind` and `number` are bot/reminders.py's; `due` is when it was
    due, `deadline` the turn's, None without a clock; `every` the wait between idle reminders, a server
    setting), with a Discord timestamp (`plain_times` for others)."""
    if kind == "idle" or deadline is None:
        since = number * every
        return f"it has been {'a day' if since == 86_400 else wait_words(since)} since your turn began"
    falls = f"your flag falls <t:{int(deadline)}:R>"
    if kind == "half":
        return f"half your move time is used; {falls}"
    minutes = max(1, round((deadline - due) / 60))
    hours, odd = divmod(minutes, 60)
    left = plural(minutes, "minute") if odd or not hours else "an hour" if hours == 1 else plural(hours, "hour")
    return f"{left} left: {falls}"


_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


def plain_times(text: str, now: float) -> str:
    """`text` with Discord's timestamps written out for a terminal: `<t:…:R>` as `in 1:00:00` (or `… ago`),
    any other style as a UTC date and time."""

    def written(found: re.Match[str]) -> str:
        when = int(found[1])
        if found[2] == "R":
            return f"in {format_seconds(when - now)}" if when >= now else f"{format_seconds(now - when)} ago"
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))

    return _TIMESTAMP.sub(written, text)


def series_reason(series: Series) -> str:
    """The death match's `Outcome.reason`: `2–1 in games` (the winner's score first, whoever began), or
    `level at 1–1 after 3 games`."""
    score = "–".join(str(w) for w in sorted(series.wins, reverse=True))
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
    label's words in any order, then the start of the rest), else the moves that name every typed word,
    anywhere (`opp:5` picks `place F2 opp:5` and `swap me:2 T6` is found by `me:2`). A typed word that is a
    whole word of some label matches only that word, so `a1` lists a1's pairs and not a10's (`a` both)."""
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
                m
                for m in members
                if _starts(m, wanted, whole)
                or (after and _rest(label, m).lower().startswith(after))
                or _names(m, words)
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


def _names(move: str, words: list[str]) -> bool:
    """Each of `words` is a different whole word of `move`, in any order (`opp:5` names `place F2 opp:5`)."""
    said = move.lower().split()
    for word in words:
        if word not in said:
            return False
        said.remove(word)
    return True


def _starts(move: str, wanted: str, whole: set[str]) -> bool:
    """`move` starts with `wanted`, and not inside a word if its last word is a whole word (`a1` starts
    `a1 a2 @a1` but not `a10 b10 @a10`)."""
    move = move.lower()
    if not move.startswith(wanted):
        return False
    return wanted.split()[-1] not in whole or len(move) == len(wanted) or not move[len(wanted)].isalnum()


def _typed(label: str, move: str) -> str:
    """A move as the listing shows it under its group's label: what it adds to the label when the label
    begins it (`@e8` under `e5 e8`), else whole, as one types it (`swap me:2 T6` under `swap T6`)."""
    if move.startswith(label) and len(move) > len(label):
        return move[len(label) :].strip()
    return move


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
    """The legal moves in words: a header with the total, then one group a line, `e5 e8 (2): @e5 @e8`, each
    move in the notation one types (`swap T6 (2): swap me:2 T6, swap me:6 T6`; a group that is one move
    equal to its label, like `pass`, is just that).

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
            typed_as = [_typed(label, m) for m in members]
            apart = ", " if any(" " in m for m in typed_as) else " "
            lines.append(f"{label} ({len(members)}): " + apart.join(typed_as))
    if most is not None and len(groups) > most:
        label = groups[most][0]
        hint = " ".join(label.split()[: len(wanted.split()) + 1])
        if hint.lower() == wanted.lower():
            hint = label
        more = len(groups) - most
        lines.append(f"… and {plural(more, 'more group')}: type more of the move to list fewer, like: {command} {hint}")
    return lines


# --- a player's games, and away time (bot/service/away.py) ---


def my_games_lines(service: Matches, matches: list[Match], player_id: str, *, discord: bool) -> list[str]:
    """`/mygames`: a header, then one match a line in the service's order (your turn first): game, number,
    opponents, whose turn with its deadline (`<t:…:R>`, where a clock runs), and on Discord a link to the
    board post. Empty when there are none (the front-end says so in its own words). The terminal's hot seat
    names the player (`alice's running matches: 2`) where Discord says "your ... here" to the one asking."""
    if not matches:
        return []
    turns = sum(_my_turn(service, match, player_id) for match in matches)
    name = next(p.name for p in matches[0].players if p.id == player_id)
    if discord:
        lines = [f"Your running matches here: {len(matches)}, your turn in {turns}."]
    else:
        lines = [f"{name}'s running matches: {len(matches)}, {name}'s turn in {turns}."]
    for match in matches:
        game = service.game(match)
        others = [p.name for p in match.players if p.id != player_id]
        versus = f"vs {', '.join(others)}" if others else "solitaire"
        line = f"#{match.id} {game.title} {versus} — {_turn_words(service, match, player_id, discord)}"
        if _my_turn(service, match, player_id):
            line = ("**Your turn**: " if discord else f"{name}'s turn: ") + line
        link = board_link(match) if discord else None
        lines.append(f"{line} · [board]({link})" if link else line)
    return lines


def _my_turn(service: Matches, match: Match, player_id: str) -> bool:
    return service.game(match).to_move(match.state) in match.seats_of(player_id)


def _turn_words(service: Matches, match: Match, player_id: str, you: bool = True) -> str:
    """Whose turn, and what their clock is doing: `you to move, out of time <t:…:R>`, `bob to move` (not
    `you`: the player's name instead, as the terminal's hot seat says it)."""
    seat = service.game(match).to_move(match.state)
    if seat is None:
        return "over"
    who = "you" if you and match.players[seat].id == player_id else match.players[seat].name
    clock = match.clock
    if clock is None:
        return f"{who} to move (no clock)"
    if clock.paused:
        return f"{who} to move, paused by a moderator"
    if seat in clock.away:
        return f"{who} to move, the clock waiting: {'you are' if who == 'you' else f'{who} is'} away"
    deadline = clock.deadline()
    if deadline is None:
        return f"{who} to move"
    return f"{who} to move, out of time <t:{int(deadline)}:R>"


def board_link(match: Match) -> str | None:
    """The Discord link to the match's board post, or None (not posted, or not a Discord match)."""
    if match.board is None or match.place.guild_id is None:
        return None
    channel, message = match.board
    return f"https://discord.com/channels/{match.place.guild_id}/{channel}/{message}"


def away_line(name: str, until: float) -> str:
    """Told in each match whose clock stops for an away player (and again when the end moves later)."""
    return f"{name} is away until <t:{int(until)}:f>; the clock waits for {name}."


def back_line(name: str, how: str) -> str:
    """Told in each match whose clock runs again: `how` is "back" (/back), "moved" or "time" (the end came)."""
    said = {"back": f"{name} is back", "moved": f"{name} moved and so is back", "time": f"{name}'s away time is over"}
    return f"{said[how]}; the clock runs again on {name}'s turns."


def away_left(seconds: float) -> str:
    """Away time in days and whole hours, rounded down (never more than is there): `11 days and 5 hours`."""
    hours = max(0, int(seconds + 1e-6) // 3600)
    days, hours = divmod(hours, 24)
    parts = [plural(n, unit) for n, unit in ((days, "day"), (hours, "hour")) if n]
    return " and ".join(parts) if parts else "less than an hour"


def away_refused(left: float, per_year: int, extending: bool) -> str:
    """Asked for more days than are left of the year's allowance (`left` seconds)."""
    whole = int(left + 1e-6) // 86_400
    counted = "counted from now, " if extending else ""
    head = f"You have {away_left(left)} of away time left this year ({counted}{per_year} days a year in each server)"
    if whole < 1:
        return f"{head}: not a whole day, so no more away time until 1 January (UTC)."
    return f"{head}: ask for {plural(whole, 'day')} or fewer."


def already_away(until: float, days: int) -> str:
    """Asked, while away, for an end no later than the one set."""
    return (
        f"You are already away until <t:{int(until)}:f>, which {plural(days, 'day')} from now would not move on:"
        " ask for more days to stay away longer, or come back with /back."
    )


def away_answer(until: float, matches: list[str], left: float, extended: bool, back: str) -> list[str]:
    """What the player is told on going away: `matches` are the waiting ones (`#3 Themiscyra`), `back` how
    to come back early (`/back`)."""
    head = f"You are away until <t:{int(until)}:f>" + (" now (later than before)." if extended else ".")
    if matches:
        waits = f"The clock waits for you in {', '.join(matches)}; your opponents are told."
    else:
        waits = (
            "None of your games here has a long clock (an hour a move or more) to stop; one that starts while"
            " you are away waits for you."
        )
    return [
        head,
        waits,
        f"Moving in a game here, or {back}, ends it early (the days you do not use are given back). Live clocks"
        " (under an hour a move) never stop.",
        f"Away time left this year: {away_left(left)}.",
    ]


def back_answer(taken: float, matches: list[str], left: float) -> str:
    """What the player is told on coming back."""
    runs = f" The clock runs again in {', '.join(matches)}." if matches else ""
    return f"Welcome back: you were away {away_left(taken)}.{runs} Away time left this year: {away_left(left)}."
