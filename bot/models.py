"""The records the service keeps and the store persists: players, matches, series, moves; and the notices
it sends front-ends.

Plain data: no Discord objects (ids only) and no database handles, so they survive a restart unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot import i18n
from bot.clock import ClockSettings, MatchClock
from bot.games import Outcome
from bot.i18n import _

RUNNING, OVER, ABORTED = "running", "over", "aborted"


COMPUTER_LEVELS = ("easy", "normal", "hard")
"""How hard a computer seat thinks (bot/ai's LEVELS say what each costs)."""


@dataclass(frozen=True, slots=True)
class Player:
    """Someone in a seat. `id` is stable ("discord:1234", "local:alice", "computer:normal"); `name` is
    for display."""

    id: str
    name: str

    @property
    def mention(self) -> str:
        """A Discord mention for Discord users, else the name."""
        kind, _colon, raw = self.id.partition(":")
        return f"<@{raw}>" if kind == "discord" else self.name

    @property
    def level(self) -> str | None:
        """The level of a computer seat; None for a person."""
        kind, _colon, rest = self.id.partition(":")
        return rest.partition(":")[0] if kind == "computer" else None

    @property
    def is_computer(self) -> bool:
        return self.level is not None


def computer(level: str = "normal", number: int = 1) -> Player:
    """A computer seat: "Computer", "Easy computer", "Hard computer 2"... (short enough for a board's
    player panel); `number` tells several computers in one game apart."""
    if level not in COMPUTER_LEVELS:
        levels = i18n.typed(", ".join(COMPUTER_LEVELS))  # as typed
        said = _("There is no computer level {level}: choose {levels}.")
        raise ValueError(said.format(level=repr(level), levels=levels))
    name = "Computer" if level == "normal" else f"{level.capitalize()} computer"
    if number > 1:
        return Player(f"computer:{level}:{number}", f"{name} {number}")
    return Player(f"computer:{level}", name)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a match is shown (Discord ids; all None offline)."""

    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None


POSTING, GATEWAY = "posting", "gateway"
"""Why a match is held: no board of it could be posted anywhere (Discord refused every place, or answered
5xx), or the Discord gateway of its shard is down, so nobody can reach the bot to move."""


@dataclass(frozen=True, slots=True)
class Hold:
    """A match waiting, charged to nobody, since `since`: `cause` is POSTING or GATEWAY, `reason` says why in
    a few words (Discord's answer, "Discord's gateway is unreachable")."""

    cause: str
    reason: str
    since: float

    @property
    def what(self) -> str:
        """The hold in a few words, for listings (`/mod list`)."""
        if self.cause == GATEWAY:
            return _("on hold: {reason}").format(reason=self.said)
        return _("on hold: its board could not be posted ({reason})").format(reason=self.said)

    def refusal(self, match_id: int) -> str:
        """What a move made meanwhile is told."""
        if self.cause == GATEWAY:
            said = _(
                "Match #{number} is on hold: Discord has not been reachable for the bot ({reason}), so the clocks"
                " are stopped. It goes on as soon as Discord is back."
            )
        else:
            said = _(
                "Match #{number} is on hold: the bot could not post its board ({reason}). It goes on as soon as a"
                " board is posted; a moderator can try with /mod repost."
            )
        return said.format(number=match_id, reason=self.said)

    @property
    def said(self) -> str:
        """`reason` in the reader's language where the catalog has it (the gateway's is marked where it is
        made); a posting error's words from Discord stay as Discord wrote them."""
        return _(self.reason)


@dataclass(slots=True)
class Match:
    """One game being played (or finished). The service owns every change to it."""

    id: int
    game: str
    players: tuple[Player, ...]
    seed: int
    options: dict[str, Any]
    state: Any
    ply: int = 0
    """Lines in the move log (moves and undos): it only grows, so it names one version of the board."""
    status: str = RUNNING
    result: Outcome | None = None
    clock: MatchClock | None = None
    series_id: int | None = None
    game_no: int = 1
    place: Place = field(default_factory=Place)
    board: tuple[int, int] | None = None
    """(channel id, message id) of the current board post, so the previous one can lose its buttons."""
    board_ply: int | None = None
    """The ply `board` shows: when it is `ply`, the board is up as it stands, and a restart need not post it
    again (bot/service/downtime.py). None for a post from before the bot stored it."""
    created_at: float = 0.0
    held: Hold | None = None
    """Why the match waits, its clock stopped and charged to nobody, or None (bot/service/holds.py). Kept in
    memory only: after a restart a held board is posted again (its post failed) or its clock goes on with
    the downtime credited (the gateway was down)."""

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    @property
    def paused(self) -> bool:
        return self.clock is not None and self.clock.paused

    def seats_of(self, player_id: str) -> list[int]:
        return [seat for seat, player in enumerate(self.players) if player.id == player_id]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)


@dataclass(slots=True)
class Series:
    """A best-of-N death match: the same players, games started one after another."""

    id: int
    game: str
    players: tuple[Player, ...]
    best_of: int
    first: int
    """The seat that places first in game 1; it alternates after."""
    options: dict[str, Any]
    clock: ClockSettings | None
    house_wins: bool = True
    place: Place = field(default_factory=Place)
    status: str = RUNNING
    wins: list[int] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    """Match ids, in order."""
    result: Outcome | None = None
    created_at: float = 0.0

    @property
    def needed(self) -> int:
        """Wins that take the series (2 of 3)."""
        return self.best_of // 2 + 1

    def first_for(self, game_no: int) -> int:
        return (self.first + game_no - 1) % len(self.players)


@dataclass(frozen=True, slots=True)
class UserLimits:
    """What one person may have going at once in one server, so nobody can flood a server (or the bot):
    open lobbies they created, challenges nobody has accepted yet (sent in the last day), and running
    games against the computer. Offline (the terminal, no server) nothing is limited."""

    lobbies: int = 3
    challenges: int = 5
    computer_games: int = 3


OPEN, STARTED, CANCELLED = "open", "started", "cancelled"


@dataclass(slots=True)
class Lobby:
    """Players gathering for a game of 1 to N players; the creator starts it (alone, for solitaire)."""

    id: int
    game: str
    creator: Player
    players: list[Player]
    """In join order, the creator first: the seat order of the game."""
    options: dict[str, Any]
    clock: ClockSettings | None = None
    place: Place = field(default_factory=Place)
    status: str = OPEN
    match_id: int | None = None
    created_at: float = 0.0

    def has(self, player_id: str) -> bool:
        return any(p.id == player_id for p in self.players)


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as stored when it was sent (bot/service/challenges.py): its Accept button names only its
    `id`, and the game, the players, the clock and where it may be accepted come from here. `game` is None
    for one sent before challenges were stored whole: it cannot be accepted (the challenger asks again)."""

    id: int
    game: str | None
    by_id: str | None
    to_id: str | None
    clock: ClockSettings | None
    place: Place
    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One line of the append-only move log. An undo line repeats the seat and move it takes back."""

    ply: int
    seat: int
    move: str
    at: float
    took: float | None
    kind: str = "move"
    by_id: str | None = None


class NoticeKind(StrEnum):
    """What a `Notice` tells of: front-ends branch on it (which post, which buttons, whether a clock starts)."""

    STARTED = "started"
    MOVED = "moved"
    UNDONE = "undone"
    """Moves taken back: by a moderator's undo, or a takeback agreed or granted at once."""
    OVER = "over"
    SERIES_OVER = "series_over"
    """The death match is decided (after the `over` of its last game)."""
    PAUSED = "paused"
    RESUMED = "resumed"
    TIME_ADDED = "time_added"
    ABORTED = "aborted"
    REMINDER = "reminder"
    TAKEBACK = "takeback"
    """A takeback request, with its buttons."""
    TAKEBACK_ACCEPTED = "takeback_accepted"
    """Accepted by some of those asked, not yet all."""
    TAKEBACK_CLOSED = "takeback_closed"
    """Declined, expired or lapsed."""
    AWAY = "away"
    BACK = "back"
    BOARD = "board"
    """Not the service's: front-ends use it for a plain repost of the board as it stands."""


@dataclass(frozen=True, slots=True)
class Notice:
    """What just happened to a match, for front-ends to show. The service sends it once the change is
    committed (bot/service/registry.py); it is plain data here so that `bot.posts`, which words it, need
    not import the service.

    `kind` says what happened (a `NoticeKind`; its text is accepted too and read as one, so an unknown kind
    fails where it is made). `lines` are ready to post, with player names filled in. `series` is set for
    death-match games and `series_over` when this notice also ends the series.
    """

    kind: NoticeKind
    match: Match
    lines: tuple[str, ...] = ()
    by: Player | None = None
    series: Series | None = None
    series_over: bool = False
    to: Player | None = None
    """The one person a notice is for (a reminder: the player to move), who alone is pinged or messaged."""
    takeback: Takeback | None = None
    """The takeback request a notice is about (kinds takeback, takeback_accepted, takeback_closed, and the
    undone notice of one agreed), so a front-end can offer its buttons and take them away when it closes."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", NoticeKind(self.kind))


@dataclass(frozen=True, slots=True)
class AwayPeriod:
    """A player's away time on one server (bot/service/away.py): from `started_at` to `until`, when it ends
    by itself, unless it ended sooner (`ended_at`: `/back`, or the player moved). None while it runs."""

    id: int
    guild_id: int | None
    player: Player
    started_at: float
    until: float
    ended_at: float | None = None

    def taken(self, now: float) -> float:
        """Seconds of away time this period has used by `now` (all of it, once it has ended)."""
        end = self.ended_at if self.ended_at is not None else min(now, self.until)
        return max(0.0, end - self.started_at)


TAKEBACK_OPEN, TAKEN_BACK, DECLINED, EXPIRED, LAPSED = "open", "taken", "declined", "expired", "lapsed"
"""How a takeback request stands: open, or closed because every person asked accepted (the moves were taken
back), one declined, nobody answered in time, or the position changed first (a move, or the game ended)."""


@dataclass(frozen=True, slots=True)
class Takeback:
    """A player's request to take back their last move and every move after it (bot/service/takebacks.py),
    stored (the `takebacks` table) so that who accepted survives a restart."""

    id: int
    match_id: int
    ply: int
    """The match's ply when asked: once the log has another line, the request has lapsed."""
    seat: int
    """The requester's seat."""
    by_id: str
    asked_at: float
    expires_at: float
    accepted: tuple[str, ...] = ()
    """The player ids of those asked who have accepted so far, in order."""
    status: str = TAKEBACK_OPEN
    message: tuple[int, int] | None = None
    """(channel id, message id) of the request's post with its buttons, once posted (Discord)."""

    @property
    def open(self) -> bool:
        return self.status == TAKEBACK_OPEN
