"""What a board post says and shows, shared by every front-end (Discord and the terminal).

A post is the rendered board plus a few lines: what just happened, whose turn it is, the scores, and the
clock. Front-ends decide only how to deliver it (a Discord message, a PNG file and printed text).

The words of the service's notices are here too (a match starting, a move taken back, a game or a death
match ending, a moderator's action, what resigning would do): the service takes its lines from these
functions, so this module reads the service only through `Matches` and never imports it. The board is
drawn by `renderers`, imported where it is drawn, so the service's import of these words brings no Pillow.
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from bot import i18n, move_log
from bot.clock import format_seconds
from bot.games import Game, Termination, seat_leaves
from bot.games.phrases import Phrase
from bot.i18n import N_, _, ngettext
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
    Place,
    Player,
    Series,
)
from bot.reminders import is_long
from bot.wording import listing

if TYPE_CHECKING:
    from renderers import Caption


P = ParamSpec("P")
T = TypeVar("T")


# --- which language a public post speaks (docs/translating.md) ---

PublicLanguage = Callable[[int | None], str]
"""A server's id -> the language of its public posts (bot/i18n.py's code)."""
_public_of: PublicLanguage | None = None
_public_here: ContextVar[str | None] = ContextVar("public language", default=None)


def speak_publicly(resolver: PublicLanguage | None) -> None:
    """How the front-end tells a server's public language: Discord's bot sets the server's `language`
    setting, else its language in Discord, else English (`bot.discord_i18n.public_language`); None (the
    terminal) leaves every post in the reader's language, which is the terminal's."""
    global _public_of
    _public_of = resolver


def set_public_here(language: str | None) -> None:
    """The public language of the server an interaction's task acts in (its `ServerTree.interaction_check`),
    for words that do not know their match's server (`paused_line`, a takeback's lines)."""
    _public_here.set(language)


def public_language(guild_id: int | None = None) -> str:
    """The language a server's public posts speak: the front-end's answer for `guild_id`, else that of the
    server this task acts in, else the reader's."""
    if _public_of is not None and guild_id is not None:
        return _public_of(guild_id)
    return _public_here.get() or i18n.current()


@contextlib.contextmanager
def publicly(guild_id: int | None = None) -> Iterator[None]:
    """Speak the server's public language inside the block: a board post, a notice, a reminder, whoever
    caused it (a German player's move in an English server is posted in English)."""
    with i18n.using(public_language(guild_id)):
        yield


def public(words: Callable[P, T]) -> Callable[P, T]:
    """Words a whole server reads (a notice's lines): said in the public language of the server of the first
    argument with a `place` (a match, a series, a tournament), else of the server this task acts in. The
    service makes them inside a player's interaction, whose reader is that player."""

    @functools.wraps(words)
    def said(*args: P.args, **kwargs: P.kwargs) -> T:
        place = next((a.place for a in (*args, *kwargs.values()) if isinstance(getattr(a, "place", None), Place)), None)
        with publicly(place.guild_id if place is not None else None):
            return words(*args, **kwargs)

    return said


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
        result = result_line(match) if match.result is not None else _("Aborted: no result.")
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
        return _("Match #{number}").format(number=match.id)
    head = _("Death match · game {number} of {count}").format(number=match.game_no, count=series.best_of)
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
        label = _(game.score_label)  # what the numbers count, where it is not points
        each = ", ".join(f"{n} {i18n.number(s)}" for n, s in zip(match.names, scores, strict=True))
        lines.append(_("{label}: {scores}").format(label=label, scores=each))
    if not match.running:
        if match.result is not None:
            lines.append(result_line(match))
        return lines
    seat = game.to_move(match.state)
    if seat is None:
        return lines
    player = match.players[seat]
    who = player.mention if mention else player.name
    clock = match.clock
    if clock is None:
        turn = _("{name} to move.").format(name=who)
    elif clock.paused:
        turn = _("{name} to move — paused by a moderator.").format(name=who)
    elif seat in clock.away:  # away time (bot/service/away.py): the turn waits, its time untouched
        turn = _("{name} to move — away, so the clock waits ({move} a move + {reserve} reserve left).").format(
            name=who,
            move=format_seconds(clock.settings.move_seconds - clock.used),
            reserve=format_seconds(clock.reserves[seat]),
        )
    else:
        move_left = clock.settings.move_seconds - clock.used
        move, reserve = format_seconds(move_left), format_seconds(clock.reserves[seat])
        if deadline:
            start, dated = (time.time() if now is None else now), is_long(clock)
            out = start + move_left + clock.reserves[seat]
            turn = _("{name} to move — {move} a move + {reserve} reserve: move by {by}, out of time {out}.").format(
                name=who, move=move, reserve=reserve, by=stamp(start + move_left, dated), out=stamp(out, dated)
            )
        else:
            turn = _("{name} to move — {move} a move + {reserve} reserve.").format(name=who, move=move, reserve=reserve)
    lines.append(turn)
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
            if asked:
                said = _("(taken back at {asker}'s request: {name}'s {move})")
            else:
                said = _("(a moderator took back {name}'s {move})")
            lines.append(f"{record.ply}. " + said.format(asker=asked, name=name, move=record.move))
        elif record.kind == move_log.RESIGN:
            how = move_log.leaving(record)
            claimer = next((p.name for p in match.players if p.id == record.by_id), None)
            if how is Termination.FLAG:
                said = _("{name} ran out of time; the others play on")
            elif how is Termination.CLAIM and claimer is not None:
                said = _("{name} is out by {claimer}'s claim; the others play on")
            elif how is Termination.CLAIM:
                said = _("{name} is out by an opponent's claim; the others play on")
            else:
                said = _("{name} resigned; the others play on")
            lines.append(f"{record.ply}. " + said.format(name=name, claimer=claimer))
        else:
            took = f" ({format_seconds(record.took)})" if record.took is not None else ""
            lines.append(f"{record.ply}. {name}: {i18n.typed(record.move)}{took}")  # notation: as typed
    return lines


def summary_line(service: Matches, match: Match) -> str:
    """One running match in a list: `#3 "1, 2, 3": alice vs bob — bob to move`."""
    game = service.game(match)
    seat = game.to_move(match.state)
    if match.paused:
        turn = _("paused")
    elif seat is not None:
        turn = _("{name} to move").format(name=match.players[seat].name)
    else:
        turn = _("over")
    return f"#{match.id} {game.title}: {versus(match.names)} — {turn}"


def versus(names: list[str] | tuple[str, ...]) -> str:
    """`alice vs bob vs carol`, in the reader's language."""
    return _(" vs ").join(names)


def lobby_lines(service: Matches, lobby: Lobby, command: str) -> list[str]:
    """A lobby in words: its options, who joined, and how it starts (`command` is e.g. "/volcano")."""
    game = service.games[lobby.game]
    options = ", ".join(f"{key} {value}" for key, value in sorted(lobby.options.items()))
    fields = {"game": game.title, "number": lobby.id, "name": lobby.creator.name, "options": options}
    if options:
        lines = [_("{game} lobby #{number}, opened by {name} ({options}).").format(**fields)]
    else:
        lines = [_("{game} lobby #{number}, opened by {name}.").format(**fields)]
    if lobby.clock is not None:
        lines.append(_("Clock: {clock} per player.").format(clock=lobby.clock.describe()))
    names = ", ".join(p.name for p in lobby.players)
    lines.append(
        _("Players ({count}/{most}): {names}.").format(count=len(lobby.players), most=game.max_players, names=names)
    )
    if lobby.status == OPEN:
        if game.min_players == 1:
            how = _(
                "Join with `{command} join`; {name} adds computer players with `{command} computer` and starts it"
                " with `{command} start` (alone, it is a solitaire game)."
            )
        else:
            how = _(
                "Join with `{command} join`; {name} adds computer players with `{command} computer` and starts it"
                " with `{command} start`."
            )
        lines.append(how.format(command=command, name=lobby.creator.name))
    elif lobby.status == CANCELLED:
        lines.append(_("Cancelled: {name} left.").format(name=lobby.creator.name))
    else:
        lines.append(_("Started as match #{number}.").format(number=lobby.match_id))
    return lines


def own_messages(service: Matches, match: Match, lines: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """(lines for the board post, lines for a message of their own): a game may single some events out
    (Geyser's firing phase) with `own_message`, a tuple of line prefixes."""
    prefixes = tuple(i18n.unmarked(prefix) for prefix in service.game(match).own_message)  # as events say them
    separate = [line for line in lines if prefixes and i18n.unmarked(line).startswith(prefixes)]
    return [line for line in lines if line not in separate], separate


# --- what the service's notices say (bot/service/ takes its lines from here) ---


@public
def event_lines(match: Match, game: Game) -> tuple[str, ...]:
    """The engine's event text for the last ply, with player names filled in."""
    return tuple(line.format(*match.names) for line in game.events(match.state))


@public
def start_lines(match: Match, game: Game) -> tuple[str, ...]:
    """`Fish #3: alice vs bob.` (a death match's game says which), then the clock if there is one."""
    names = versus(match.names) if len(match.players) > 1 else _("{name} plays solitaire").format(name=match.names[0])
    fields = {"game": game.title, "number": match.id, "names": names}
    if match.series_id is not None:
        lines = [
            _("{game} #{number}, game {game_no} of the death match: {names}.").format(game_no=match.game_no, **fields)
        ]
    else:
        lines = [_("{game} #{number}: {names}.").format(**fields)]
    if match.clock is not None:
        lines.append(_("Clock: {clock} per player.").format(clock=match.clock.settings.describe()))
    return tuple(lines)


def result_line(match: Match) -> str:
    """`Game over: alice wins (more fish).`; empty while the match has no result."""
    result = match.result
    if result is None:
        return ""
    reason = result.said  # stored in English, said in the reader's language (bot/games/phrases.py)
    if result.is_draw:
        if len(match.players) == 1:
            return _("Game over ({reason}).").format(reason=reason)
        return _("Game over: a draw ({reason}).").format(reason=reason)
    names = listing([match.players[s].name for s in sorted(result.winners)])
    return ngettext(
        "Game over: {names} wins ({reason}).", "Game over: {names} win ({reason}).", len(result.winners)
    ).format(names=names, reason=reason)


def ended_off_board(match: Match) -> bool:
    """The match is over and its final position does not show how: it was aborted (no result), or ended by
    time, a resignation, an adjudication or only computers being left (`Outcome.termination`)."""
    return not match.running and (match.result is None or match.result.termination is not Termination.RULES)


FLAGGED = Phrase(N_("{name}'s reserve time ran out"))
RESIGNED = Phrase(N_("{name} resigned"))
ADJUDICATED = Phrase(N_("adjudicated by {name}"))
ABANDONED = Phrase(N_("only computer players were left"))
"""The reasons of a game the service ends off the board: stored in English with the result (data, like a
move), said in the reader's language by `phrases.say` (`Outcome.said`)."""


def end_reason(termination: Termination, name: str = "") -> str:
    """`Outcome.reason` for a game the service ends off the board (or a seat its clock puts out): `name` is
    whose time ran out, who resigned, or the moderator who adjudicated."""
    match termination:
        case Termination.FLAG:
            return FLAGGED(name=name)
        case Termination.RESIGNATION:
            return RESIGNED(name=name)
        case Termination.ADJUDICATION:
            return ADJUDICATED(name=name)
        case Termination.ABANDONED:
            return ABANDONED()
    raise ValueError(f"the service does not end a game by {termination.value}")


@public
def ended_line(match: Match) -> str:
    """A game ended off the board, said first: `bob resigned.` (its reason, said as its readers speak)."""
    return f"{match.result.said}." if match.result is not None else ""


RESTART_LINE = N_("The bot is back after a restart: a fresh move clock for the player to move, reserves unchanged.")


@public
def restart_line(match: Match) -> str:
    """Said with a board posted again after a restart: a fresh move clock only where there is a clock (an
    untimed game whose board was not up yet has none to speak of)."""
    return _(RESTART_LINE) if match.clock is not None else _("The bot is back after a restart.")


@public
def out_of_time_line(player: Player) -> str:
    """A seat put out by its clock in a game the others play on (not "resigns": time did it)."""
    return _("{name}'s reserve time ran out: they are out of the game.").format(name=player.name)


def resign_effect(match: Match, game: Game) -> str:
    """What resigning would do, for the confirmation question."""
    if len(match.players) == 1:
        return _("This ends the game with no score.")
    if not seat_leaves(game, len(match.players)):
        return _("This ends the game as a loss.")
    return _("You leave the game: your captures stay on the record and the others play on.")


@public
def taken_back(by: Player, match: Match, taken: list[MoveRecord], game: Game) -> str:
    """`mod took back alice's move D4-F3 and Computer's moves E5-F6, F6-G7.`: each player's run of moves,
    in order (as `public_move` shows them: hidden cards stay hidden)."""
    return _("{name} took back {what}.").format(name=by.name, what=taken_words(match, taken, game))


@public
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
        resigned = len(moves) < len(records)
        if seat == own:
            if not moves:
                said = _("their resignation")
            elif resigned:
                said = ngettext("their move {moves} and resignation", "their moves {moves} and resignation", len(moves))
            else:
                said = ngettext("their move {moves}", "their moves {moves}", len(moves))
        elif not moves:
            said = _("{name}'s resignation")
        elif resigned:
            said = ngettext(
                "{name}'s move {moves} and resignation", "{name}'s moves {moves} and resignation", len(moves)
            )
        else:
            said = ngettext("{name}'s move {moves}", "{name}'s moves {moves}", len(moves))
        parts.append(said.format(name=name, moves=", ".join(moves)))
    return listing(parts)


@public
def paused_line(by: Player) -> str:
    return _("{name} paused the match: no clock is running.").format(name=by.name)


@public
def resumed_line(by: Player) -> str:
    return _("{name} resumed the match: the clock runs again.").format(name=by.name)


def time_given(seconds: float, name: str) -> str:
    """`+1:00 for alice` (a negative number takes time away): the action log's record, stored as it is
    (English: the log is data), and the notice's words in the reader's language (`time_added_line`)."""
    return f"{'+' if seconds > 0 else '-'}{format_seconds(abs(seconds))} for {name}"


@public
def time_added_line(by: Player, given: str, reserve: float) -> str:
    """`mod gave +1:00 for alice: reserve now 2:00.` (`given` is `time_given`'s record: its time and name)."""
    amount, _for, name = given.partition(" for ")
    return _("{name} gave {amount} for {player}: reserve now {reserve}.").format(
        name=by.name, amount=amount, player=name, reserve=format_seconds(reserve)
    )


@public
def aborted_line(by: Player, match: Match) -> str:
    return _("{name} aborted match #{number}: no result.").format(name=by.name, number=match.id)


def wait_words(seconds: float) -> str:
    """A wait in words, in its two largest units, rounded up so it is never less than the wait: `7 days`,
    `2 days 3 hours`, `10 minutes`, `4 minutes 30 seconds`, `1 second` (`2 Tage und 3 Stunden`)."""
    return i18n.duration(seconds)


# --- takebacks by agreement and claims (bot/service/takebacks.py, bot/service/claims.py) ---


@public
def takeback_asked(requester: Player, asked: list[Player], what: str, window: float) -> str:
    """`alice asks to take back their move D4-F3. bob: accept or decline within 10 minutes; ...`"""
    return _(
        "{name} asks to take back {what}. {asked}: accept or decline within {wait}; a move meanwhile cancels"
        " the request."
    ).format(name=requester.name, what=what, asked=listing([p.name for p in asked]), wait=wait_words(window))


@public
def takeback_at_once(requester: Player, what: str) -> str:
    """A takeback against computers only: nobody is asked (a computer has no say), so it is done at once."""
    return _("{name} took back {what} (a computer player has no say in a takeback).").format(
        name=requester.name, what=what
    )


@public
def takeback_accepted(by: Player, requester: Player, waiting: list[Player]) -> str:
    """One of several asked accepted; the others have not yet."""
    return _("{name} accepts {asker}'s takeback; waiting for {waiting}.").format(
        name=by.name, asker=requester.name, waiting=listing([p.name for p in waiting])
    )


@public
def takeback_agreed(by: Player, requester: Player, what: str, several: bool) -> str:
    """The last of those asked accepted: the moves are taken back."""
    if several:
        said = _("{name} accepts too: {asker} takes back {what}.")
    else:
        said = _("{name} accepts: {asker} takes back {what}.")
    return said.format(name=by.name, asker=requester.name, what=what)


@public
def takeback_declined(by: Player, requester: Player) -> str:
    return _("{name} declines {asker}'s takeback: the game goes on as it stands.").format(
        name=by.name, asker=requester.name
    )


@public
def takeback_expired(requester: Player, waiting: list[Player], window: float) -> str:
    return _("{asker}'s takeback request expired: {waiting} did not accept within {wait}.").format(
        asker=requester.name, waiting=listing([p.name for p in waiting]), wait=wait_words(window)
    )


@public
def takeback_lapsed(requester: Player, over: bool) -> str:
    if over:
        return _("{asker}'s takeback request lapsed: the game is over.").format(asker=requester.name)
    return _("{asker}'s takeback request lapsed: the position changed before everyone accepted.").format(
        asker=requester.name
    )


def takeback_closed_refusal(status: str) -> str:
    """An answer to a request that has closed (its buttons were still shown somewhere)."""
    if status == TAKEN_BACK:
        return _("This takeback request was accepted: the moves are taken back.")
    if status == DECLINED:
        return _("This takeback request was declined.")
    if status == EXPIRED:
        return _("This takeback request has expired.")
    return _("This takeback request has lapsed: the position changed.")


CLAIMED_WIN = Phrase(N_("{claimer} claimed the win: {idle} did not move for {after}"), words=("after",))
CLAIMED_GAME = Phrase(N_("{claimer} claimed the game: {idle} did not move for {after}"), words=("after",))
"""A claim's reason: stored in English with the result, the wait (`7 days`) said in the reader's words too."""


def claim_reason(claimer: Player, idle: Player, after: float, players: int) -> str:
    """The `Outcome.reason` of a game ended by a claim: `bob claimed the win: alice did not move for 7 days`
    (with three or more players the others share the win: `bob claimed the game: ...`). Stored with the
    result, so in English whoever reads (a reason is data, like a move)."""
    with i18n.using(i18n.ENGLISH):
        after_words = i18n.unmarked(wait_words(after))
    claimed = CLAIMED_WIN if players == 2 else CLAIMED_GAME
    return claimed(claimer=claimer.name, idle=idle.name, after=after_words)


@public
def claimed_out_line(claimer: Player, idle: Player, after: float) -> str:
    """A claim that puts the idle seat out of a game the others play on."""
    return _("{name} claimed {idle} out: {idle} did not move for {wait}, so they are out.").format(
        name=claimer.name, idle=idle.name, wait=wait_words(after)
    )


CLAIM_TOLD = N_("A moderator is told: the claim is in the match's action log (claim).")
"""The line after a claim, in the thread, for moderators to find it (`claim_told`)."""


@public
def claim_told(match: Match) -> str:
    return _(CLAIM_TOLD)


def claim_refusal(idle: Player, waited: float, after: float) -> str:
    """Too early to claim: exactly how long is left (rounded up) before the player to move has waited `after`."""
    return _(
        "Too early: a claim needs {wait} without a move, and {name}'s turn began less than that ago. You can"
        " claim in {left}."
    ).format(wait=wait_words(after), name=idle.name, left=wait_words(after - waited))


@public
def reminder_line(kind: str, number: int, due: float, deadline: float | None, every: float = 86_400.0) -> str:
    """What a reminder of a turn says (its `kind` and `number` are bot/reminders.py's; `due` is when it was
    due, `deadline` the turn's, None without a clock; `every` the wait between idle reminders, a server
    setting), with a Discord timestamp (`plain_times` for others)."""
    if kind == "idle" or deadline is None:
        since = number * every
        if since == 86_400:
            return _("it has been a day since your turn began")
        return _("it has been {wait} since your turn began").format(wait=wait_words(since))
    falls = f"<t:{int(deadline)}:R>"
    if kind == "half":
        return _("half your move time is used; your flag falls {when}").format(when=falls)
    minutes = max(1, round((deadline - due) / 60))
    hours, odd = divmod(minutes, 60)
    if odd or not hours:
        said = ngettext(
            "{count} minute left: your flag falls {when}", "{count} minutes left: your flag falls {when}", minutes
        )
        return said.format(count=i18n.number(minutes), when=falls)
    if hours == 1:
        return _("an hour left: your flag falls {when}").format(when=falls)
    said = ngettext("{count} hour left: your flag falls {when}", "{count} hours left: your flag falls {when}", hours)
    return said.format(count=i18n.number(hours), when=falls)


_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


def plain_times(text: str, now: float) -> str:
    """`text` with Discord's timestamps written out for a terminal: `<t:…:R>` as `in 1:00:00` (or `… ago`),
    any other style as a UTC date and time."""

    def written(found: re.Match[str]) -> str:
        when = int(found[1])
        if found[2] == "R":
            if when >= now:
                return _("in {time}").format(time=format_seconds(when - now))
            return _("{time} ago").format(time=format_seconds(now - when))
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))

    return _TIMESTAMP.sub(written, text)


SERIES_WON = Phrase(N_("{score} in games"))
SERIES_LEVEL = Phrase.ngettext("level at {score} after {count} game", "level at {score} after {count} games", "count")


def series_reason(series: Series) -> str:
    """The death match's `Outcome.reason`: `2–1 in games` (the winner's score first, whoever began), or
    `level at 1–1 after 3 games`. Stored with the series' result, so in English (a reason is data)."""
    score = "–".join(str(w) for w in sorted(series.wins, reverse=True))
    if len(set(series.wins)) == 1:
        return SERIES_LEVEL(score=score, count=series.best_of)
    return SERIES_WON(score=score)


@public
def series_line(series: Series) -> str:
    """How a death match ended; empty while it runs."""
    result = series.result
    if result is None:
        return ""
    reason = result.said
    if result.is_draw:
        if series.house_wins:
            return _("The death match is drawn — by DM rules the house wins ({reason}).").format(reason=reason)
        return _("The death match is drawn ({reason}).").format(reason=reason)
    winner = series.players[next(iter(result.winners))].name
    return _("{name} wins the death match, {reason}.").format(name=winner, reason=reason)


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
        return [_("No legal moves.")]
    wanted = " ".join(typed.split())
    groups = move_groups(game, moves, wanted)
    if not groups:
        shown_typed = wanted if len(wanted) <= 40 else wanted[:39] + "…"
        return [_("No legal move starts with {typed}.").format(typed=shown_typed)]
    shown = sum(len(members) for _label, members in groups)
    legal = ngettext("{count} legal move", "{count} legal moves", len(moves)).format(count=i18n.number(len(moves)))
    in_groups = ngettext("in {count} group", "in {count} groups", len(groups)).format(count=i18n.number(len(groups)))
    if wanted:
        head = ngettext(
            "{shown} of {legal} matches {typed}, {groups}:", "{shown} of {legal} match {typed}, {groups}:", shown
        ).format(shown=i18n.number(shown), legal=legal, typed=wanted, groups=in_groups)
    else:
        head = _("{legal} {groups}:").format(legal=legal, groups=in_groups)
    lines = [head]
    for label, members in groups[:most]:
        if members == [label]:
            lines.append(i18n.typed(label))  # notation: as typed
        else:
            typed_as = [_typed(label, m) for m in members]
            apart = ", " if any(" " in m for m in typed_as) else " "
            lines.append(i18n.typed(f"{label} ({len(members)}): " + apart.join(typed_as)))
    if most is not None and len(groups) > most:
        label = groups[most][0]
        hint = " ".join(label.split()[: len(wanted.split()) + 1])
        if hint.lower() == wanted.lower():
            hint = label
        more = len(groups) - most
        lines.append(
            ngettext(
                "… and {count} more group: type more of the move to list fewer, like: {example}",
                "… and {count} more groups: type more of the move to list fewer, like: {example}",
                more,
            ).format(count=i18n.number(more), example=f"{command} {hint}")
        )
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
    counts = {"count": i18n.number(len(matches)), "turns": i18n.number(turns), "name": name}
    if discord:
        lines = [_("Your running matches here: {count}, your turn in {turns}.").format(**counts)]
    else:
        lines = [_("{name}'s running matches: {count}, {name}'s turn in {turns}.").format(**counts)]
    for match in matches:
        game = service.game(match)
        others = [p.name for p in match.players if p.id != player_id]
        against = _("vs {names}").format(names=", ".join(others)) if others else _("solitaire")
        line = f"#{match.id} {game.title} {against} — {_turn_words(service, match, player_id, discord)}"
        if _my_turn(service, match, player_id):
            if discord:
                line = _("**Your turn**: {match}").format(match=line)
            else:
                line = _("{name}'s turn: {match}").format(name=name, match=line)
        link = board_link(match) if discord else None
        lines.append(_("{match} · [board]({link})").format(match=line, link=link) if link else line)
    return lines


def _my_turn(service: Matches, match: Match, player_id: str) -> bool:
    return service.game(match).to_move(match.state) in match.seats_of(player_id)


def _turn_words(service: Matches, match: Match, player_id: str, you: bool = True) -> str:
    """Whose turn, and what their clock is doing: `you to move, out of time <t:…:R>`, `bob to move` (not
    `you`: the player's name instead, as the terminal's hot seat says it)."""
    seat = service.game(match).to_move(match.state)
    if seat is None:
        return _("over")
    mine = you and match.players[seat].id == player_id
    name = match.players[seat].name
    clock = match.clock
    deadline = clock.deadline() if clock is not None and not clock.paused and seat not in clock.away else None
    if clock is None:
        said = _("you to move (no clock)") if mine else _("{name} to move (no clock)")
    elif clock.paused:
        said = _("you to move, paused by a moderator") if mine else _("{name} to move, paused by a moderator")
    elif seat in clock.away:
        if mine:
            said = _("you to move, the clock waiting: you are away")
        else:
            said = _("{name} to move, the clock waiting: {name} is away")
    elif deadline is None:
        said = _("you to move") if mine else _("{name} to move")
    else:
        said = _("you to move, out of time {when}") if mine else _("{name} to move, out of time {when}")
    return said.format(name=name, when=f"<t:{int(deadline)}:R>" if deadline is not None else "")


def board_link(match: Match) -> str | None:
    """The Discord link to the match's board post, or None (not posted, or not a Discord match)."""
    if match.board is None or match.place.guild_id is None:
        return None
    channel, message = match.board
    return f"https://discord.com/channels/{match.place.guild_id}/{channel}/{message}"


@public
def away_line(name: str, until: float) -> str:
    """Told in each match whose clock stops for an away player (and again when the end moves later)."""
    return _("{name} is away until {until}; the clock waits for {name}.").format(name=name, until=f"<t:{int(until)}:f>")


@public
def back_line(name: str, how: str) -> str:
    """Told in each match whose clock runs again: `how` is "back" (/back), "moved" or "time" (the end came)."""
    if how == "back":
        said = _("{name} is back; the clock runs again on {name}'s turns.")
    elif how == "moved":
        said = _("{name} moved and so is back; the clock runs again on {name}'s turns.")
    else:
        said = _("{name}'s away time is over; the clock runs again on {name}'s turns.")
    return said.format(name=name)


def away_left(seconds: float) -> str:
    """Away time in days and whole hours, rounded down (never more than is there): `11 days and 5 hours`."""
    hours = max(0, int(seconds + 1e-6) // 3600)
    days, hours = divmod(hours, 24)
    parts = [
        ngettext("{count} day", "{count} days", days).format(count=i18n.number(days)) if days else "",
        ngettext("{count} hour", "{count} hours", hours).format(count=i18n.number(hours)) if hours else "",
    ]
    parts = [part for part in parts if part]
    return listing(parts) if parts else _("less than an hour")


def away_refused(left: float, per_year: int, extending: bool) -> str:
    """Asked for more days than are left of the year's allowance (`left` seconds)."""
    whole = int(left + 1e-6) // 86_400
    fields = {"left": away_left(left), "days": i18n.number(per_year)}
    if extending:
        head = _(
            "You have {left} of away time left this year (counted from now, {days} days a year in each server)"
        ).format(**fields)
    else:
        head = _("You have {left} of away time left this year ({days} days a year in each server)").format(**fields)
    if whole < 1:
        return _("{head}: not a whole day, so no more away time until 1 January (UTC).").format(head=head)
    return ngettext("{head}: ask for {count} day or fewer.", "{head}: ask for {count} days or fewer.", whole).format(
        head=head, count=i18n.number(whole)
    )


def already_away(until: float, days: int) -> str:
    """Asked, while away, for an end no later than the one set."""
    return ngettext(
        "You are already away until {until}, which {count} day from now would not move on: ask for more days to"
        " stay away longer, or come back with /back.",
        "You are already away until {until}, which {count} days from now would not move on: ask for more days to"
        " stay away longer, or come back with /back.",
        days,
    ).format(until=f"<t:{int(until)}:f>", count=i18n.number(days))


def away_answer(until: float, matches: list[str], left: float, extended: bool, back: str) -> list[str]:
    """What the player is told on going away: `matches` are the waiting ones (`#3 Themiscyra`), `back` how
    to come back early (`/back`)."""
    when = f"<t:{int(until)}:f>"
    if extended:
        head = _("You are away until {until} now (later than before).").format(until=when)
    else:
        head = _("You are away until {until}.").format(until=when)
    if matches:
        waits = _("The clock waits for you in {matches}; your opponents are told.").format(matches=", ".join(matches))
    else:
        waits = _(
            "None of your games here has a long clock (an hour a move or more) to stop; one that starts while"
            " you are away waits for you."
        )
    return [
        head,
        waits,
        _(
            "Moving in a game here, or {back}, ends it early (the days you do not use are given back). Live clocks"
            " (under an hour a move) never stop."
        ).format(back=back),
        _("Away time left this year: {left}.").format(left=away_left(left)),
    ]


def back_answer(taken: float, matches: list[str], left: float) -> str:
    """What the player is told on coming back."""
    fields = {"taken": away_left(taken), "left": away_left(left), "matches": ", ".join(matches)}
    if matches:
        return _(
            "Welcome back: you were away {taken}. The clock runs again in {matches}. Away time left this year: {left}."
        ).format(**fields)
    return _("Welcome back: you were away {taken}. Away time left this year: {left}.").format(**fields)
