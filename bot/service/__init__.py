"""The match service: every change to a match or series goes through here.

It knows no Discord and no Pillow. Front-ends (the Discord cogs, the terminal) call `MatchService`'s
methods with player ids and move text, and subscribe to the `Notice`s it sends after each committed change
so they can post boards, including for things nobody asked for (a flag, the next game of a series).

Rules it enforces for every game alike: only the seat to move may move, only against the ply it saw, and
only once (one asyncio lock per match; one database transaction per change). Clocks follow
docs/rules/fish.md: the turn starts when the front-end reports the board posted (`board_posted`), time
beyond the move allowance comes out of reserve, an exhausted reserve loses the game, and time while the
bot is down or a moderator has paused the match is charged to nobody.

`MatchService` is a facade: each concept is a module of this package, and the facade only builds them
and passes calls on.

- `registry`: the running matches (a cache of the store), per-match locks, the commit that reloads on
  failure, the listeners and their notices
- `limits`: what one person may have open at once per server
- `challenges`: a match started at once, and one match per challenge
- `lobbies`: players gathering for games of one or of more than two
- `series`: death matches, scored and continued inside the game-ending transaction
- `rating`: Glicko-2 ratings written with each result; leaderboards; solitaire best scores
- `ending`: a committed line of the move log, and the end of a game with its `Termination`
- `flags`: the deadline scheduler, and a flag's effect
- `playing`: a turn: the board posted, a move, a resignation
- `holds`: a match waits, charged to nobody, while no board of it can be posted or its shard's gateway is
  down (one idea for both)
- `downtime`: after a restart (or a shard taken over), which boards are posted again and which go on
  quietly with the downtime credited; the heartbeat that measures it
- `reminding`: the reminders of the turn in progress, armed on the flags' scheduler; how each person wants them
- `moderation`: pause, resume, added time, undo, adjudication, abort
- `takebacks`: a player asks to take back their last move, the others accept or decline (casual games)
- `claims`: an opponent claims an untimed game whose player to move has not moved for `CLAIM_AFTER`
- `away`: away time, which stops a player's long clocks on a server for days (`/away`, `/back`)
- `settings`: what each server chose (moderator role, match channel, rated or not, limits, reminders...),
  stored per server; the facade hands each concept the reader it needs

What their notices say is bot/posts.py's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal

from bot.clock import ClockSettings, SystemTime, TimeSource
from bot.errors import (  # re-exported (__all__): the front-ends catch them from here
    ChallengeTaken,
    DiskFull,
    LimitReached,
    MatchNotRunning,
    MatchPaused,
    NoSuchMatch,
    NotInMatch,
    NotSaved,
    NotYourTurn,
    ServiceError,
    StaleBoard,
    TimeUp,
)
from bot.games import Game
from bot.metrics import Metrics
from bot.models import (
    GATEWAY,
    POSTING,
    AwayPeriod,
    Challenge,
    Hold,
    Lobby,
    Match,
    MoveRecord,
    Notice,
    Place,
    Player,
    Series,
    Takeback,
    UserLimits,
)
from bot.move_log import RESIGN
from bot.ratings import PlayerRating
from bot.service.away import AWAY_DAYS, AWAY_DAYS_A_YEAR, AwayAnswer, AwayTime
from bot.service.challenges import Challenges
from bot.service.claims import CLAIM_AFTER, Claims
from bot.service.downtime import Downtime
from bot.service.ending import Ending
from bot.service.flags import Flags, FlagScheduler
from bot.service.holds import Holds
from bot.service.limits import CHALLENGE_WINDOW, Limits
from bot.service.lobbies import Lobbies
from bot.service.moderation import Moderation
from bot.service.playing import Playing
from bot.service.rating import Ratings
from bot.service.registry import Listener, Pending, Registry
from bot.service.reminding import Reminding
from bot.service.series import DM_CLOCK, DeathMatches
from bot.service.settings import SETTINGS, BadSetting, ServerDefaults, Setting, SettingChange, Settings, SettingState
from bot.service.takebacks import TAKEBACK_WINDOW, Takebacks
from bot.service.tournaments import (
    BoardGame,
    TournamentListener,
    TournamentNotice,
    TournamentRecord,
    TournamentRefused,
    Tournaments,
)
from bot.shards import EveryShard, NotOwner, Ownership, shard_of
from bot.store import Store
from bot.tournaments.stored import HeldTournament

__all__ = [
    "AWAY_DAYS",
    "AWAY_DAYS_A_YEAR",
    "CHALLENGE_WINDOW",
    "CLAIM_AFTER",
    "DM_CLOCK",
    "RESIGN",
    "SETTINGS",
    "TAKEBACK_WINDOW",
    "AwayAnswer",
    "AwayPeriod",
    "BadSetting",
    "BoardGame",
    "ChallengeTaken",
    "DiskFull",
    "FlagScheduler",
    "LimitReached",
    "Listener",
    "MatchNotRunning",
    "MatchPaused",
    "MatchService",
    "NoSuchMatch",
    "NotInMatch",
    "NotOwner",
    "NotSaved",
    "NotYourTurn",
    "Notice",
    "Pending",
    "ServerDefaults",
    "ServiceError",
    "Setting",
    "SettingChange",
    "SettingState",
    "StaleBoard",
    "TimeUp",
    "TournamentListener",
    "TournamentNotice",
    "TournamentRecord",
    "TournamentRefused",
]

log = logging.getLogger(__name__)


class MatchService:
    """Owns matches and series; see the module docstring. Built on a store, a time source (the wall clock
    unless a test gives a fake one) and the defaults of every server's settings (`defaults`: the
    environment's; `limits`, if given, the per-person limits among them). `metrics` measures moves, flags
    and open matches (bot/metrics.py; by default nothing); the front-ends reach it as `service.metrics`."""

    def __init__(
        self,
        store: Store,
        clock: TimeSource | None = None,
        limits: UserLimits | None = None,
        defaults: ServerDefaults | None = None,
        ownership: Ownership | None = None,
        metrics: Metrics | None = None,
    ):
        self.store = store
        self.time = clock or SystemTime()
        self.metrics = metrics or Metrics()
        self.games: dict[str, Game] = store.games
        defaults = defaults or ServerDefaults()
        self._settings = Settings(store, self.time, replace(defaults, limits=limits) if limits else defaults)
        self._registry = Registry(store, self.time, self.metrics)
        self._registry.ownership = self._settings.ownership = ownership or EveryShard()
        self._limits = Limits(self._registry, self._settings.limits)
        self._challenges = Challenges(self._registry, self._limits)
        self._lobbies = Lobbies(self._registry, self._limits, self._settings.match_place)
        self._ratings = Ratings(self._registry, self._settings.rated)
        self._series = DeathMatches(self._registry)
        self._ending = Ending(self._registry, self._ratings, self._series)
        self._flags = Flags(self._registry, self._ending)
        self._reminding = Reminding(self._registry, self._flags)
        self._reminding.idle = self._settings.idle_reminders
        self._flags.other_sweeps.append(self._reminding.sweep)
        self._holds = Holds(self._registry, self._flags, self._reminding)
        self._downtime = Downtime(self._registry, self._flags, self._reminding)
        self._playing = Playing(self._registry, self._ending, self._flags, self._reminding, self._holds)
        self._moderation = Moderation(self._registry, self._ending, self._flags, self._reminding)
        self._away = AwayTime(self._registry, self._flags, self._reminding, self._settings.away_days)
        self._reminding.away_until = self._away.until  # an untimed game's reminders leave them alone
        self._registry.subscribe(self._away.on_notice)  # first: a match starting waits for who is away
        self._takebacks = Takebacks(self._registry, self._ending, self._flags, self._moderation)
        self._registry.subscribe(self._takebacks.on_notice)  # before the front-ends: a request lapses first
        self._claims = Claims(self._registry, self._ending, self._away.until, self._settings.claim_after)
        self._tournaments = Tournaments(
            self._registry,
            self._series,
            self._playing,
            self._moderation,
            self._flags,
            self._settings.match_place,
            self._settings.house_wins,
        )
        self.metrics.watch_open(self.open_by_game)

    @property
    def limits(self) -> UserLimits:
        """The per-person limits a server has until it sets its own (`server_limits`)."""
        return self._settings.defaults.limits

    @property
    def scheduler(self) -> FlagScheduler:
        """The flag scheduler; a test may replace it (before `start`) with one built on `_flag_if_due`."""
        return self._flags.scheduler

    @scheduler.setter
    def scheduler(self, scheduler: FlagScheduler) -> None:
        self._flags.scheduler = scheduler

    # --- lifecycle ---

    async def start(self) -> list[Match]:
        """Load every running match (after a restart too), start the flag scheduler and the heartbeat.

        The downtime is charged to nobody (bot/service/downtime.py): boards up as they stand on long clocks
        go on quietly, their flags and reminders armed; the returned matches (live clocks, or boards not up)
        need their board posted again, soonest deadline first, each with a fresh move allowance that starts
        when `board_posted` says so.
        """
        await self._settings.start()  # first: what each server chose decides the rest
        loaded = await self._registry.load_running()
        log.info("resumed %d running matches", len(loaded))
        await self._reminding.start()
        await self._away.start()
        repost = await self._downtime.resume(loaded)  # after away time: a period that ended meanwhile goes on
        await self._takebacks.start()
        await self._tournaments.start()  # loaded; `resume_tournaments` catches up once front-ends can post
        self.scheduler.start()
        self._downtime.start()
        return repost

    async def close(self) -> None:
        await self._downtime.stop()
        await self.scheduler.stop()

    async def adopt(self) -> list[Match]:
        """This process has taken another shard (its process died): load its running matches and arm what
        they wait for, as after a restart. Returns the matches whose board needs (re)posting."""
        await self._settings.start()  # its servers' settings may have changed in the process that held it
        loaded = await self._registry.load_running()
        await self._reminding.start()
        await self._away.start(loaded)
        repost = await self._downtime.resume(loaded)  # counted from its dead owner's last heartbeat
        await self._takebacks.start()
        await self._tournaments.start()
        await self._tournaments.resume()
        log.info("took over %d running matches", len(loaded))
        return repost

    def drop_unowned(self) -> list[Match]:
        """This process lost a shard's lease: stop acting on its matches at once (their armed flags and
        reminders find nothing to do: they look the match up first)."""
        dropped = self._registry.drop_unowned()
        self._away.drop_unowned()
        self._downtime.drop_unowned()
        self._tournaments.drop_unowned()
        if dropped:
            log.warning("left %d matches to the process that holds their shard now", len(dropped))
        return dropped

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every notice, after the change it tells of is committed."""
        self._registry.subscribe(listener)

    # --- reading ---

    def game(self, match: Match) -> Game:
        return self._registry.game(match)

    async def get(self, match_id: int) -> Match:
        """A match, running or not; NoSuchMatch if there is none."""
        return await self._registry.get(match_id)

    def running_match(self, match_id: int) -> Match | None:
        """The running match with this id, or None (over, aborted, unknown)."""
        return self._registry.running_match(match_id)

    def series_of(self, match: Match) -> Series | None:
        """The death match a running game belongs to, if any."""
        return self._registry.series_of(match)

    async def get_series(self, series_id: int) -> Series:
        return await self._registry.get_series(series_id)

    def running(self, guild_id: int | None = None, game: str | None = None) -> list[Match]:
        """Running matches, oldest first, optionally only one server's or one game's."""
        return self._registry.running(guild_id, game)

    def open_by_game(self) -> dict[str, int]:
        """How many matches are running here, by game (every game named, 0 for none): the open-matches gauge."""
        counts = dict.fromkeys(self.games, 0)
        for match in self._registry.running():
            counts[match.game] = counts.get(match.game, 0) + 1
        return counts

    def matches_of(self, player_id: str, game: str | None = None) -> list[Match]:
        return [m for m in self.running(game=game) if m.seats_of(player_id)]

    async def moves(self, match_id: int) -> list[MoveRecord]:
        """The moves still standing (undone ones taken out)."""
        return await self.store.moves(match_id)

    def replay(self, match: Match, records: list[MoveRecord]) -> Any:
        """The state after `records` (the whole log: its reseeds too), rebuilt from the seed."""
        return self._registry.replay(match, records)

    # --- starting: challenges and casual matches, limits, lobbies, death matches ---

    async def create_match(
        self,
        game_key: str,
        players: list[Player],
        *,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
        challenge: int | None = None,
    ) -> Match:
        """A casual match (refused in words for a bad game, seat count or option); `challenge` names the
        challenge it answers, which starts one match only. It opens in its server's match channel, if one is
        set. `clock` is the match's (None: untimed): a front-end whose command gave none asks `default_clock`."""
        place = self._settings.match_place(place or Place())
        return await self._challenges.create_match(
            game_key, players, options=options, seed=seed, clock=clock, place=place, challenge=challenge
        )

    async def get_challenge(self, challenge: int) -> Challenge:
        """A stored challenge, refused in words if there is none (or it was sent before they were stored)."""
        return await self._challenges.get_challenge(challenge)

    async def check_challenge(self, challenge: int, by: Player) -> None:
        """Refuse a challenge `by` may not accept now: none stored, accepted before, or someone else's."""
        await self._challenges.check_challenge(challenge, by)

    async def record_challenge(
        self,
        challenge: int,
        guild_id: int | None,
        by: Player,
        to: Player,
        *,
        game: str | None = None,
        clock: ClockSettings | None = None,
        channel_id: int | None = None,
    ) -> None:
        """A challenge was sent: it counts as open until accepted, and only `to` may accept it (in
        `channel_id`, for `game` with `clock`, as stored: the button names only `challenge`)."""
        await self._challenges.record_challenge(
            challenge, guild_id, by, to, game=game, clock=clock, channel_id=channel_id
        )

    async def withdraw_challenge(self, challenge: int) -> None:
        """A challenge that could not be posted: it no longer counts, and nobody can accept it."""
        await self._challenges.withdraw_challenge(challenge)

    async def challenge_refusal(self, guild_id: int | None, by: Player) -> str | None:
        """Why `by` may not send another challenge here now, or None."""
        return await self._limits.challenge_refusal(guild_id, by)

    def computer_games_refusal(self, players: list[Player] | tuple[Player, ...], guild_id: int | None) -> str | None:
        """Why these players may not start another game with a computer here, or None."""
        return self._limits.computer_games_refusal(players, guild_id)

    async def open_lobby(
        self,
        game_key: str,
        creator: Player,
        *,
        options: dict[str, Any] | None = None,
        clock: ClockSettings | None = None,
        place: Place | None = None,
    ) -> Lobby:
        """A lobby with its creator in the first seat; bad options are refused now, not at the start."""
        return await self._lobbies.open_lobby(game_key, creator, options=options, clock=clock, place=place)

    async def join_lobby(self, lobby_id: int, player: Player) -> Lobby:
        return await self._lobbies.join_lobby(lobby_id, player)

    async def add_computer(self, lobby_id: int, by: Player, level: str = "normal") -> Lobby:
        """The creator fills a seat with a computer player."""
        return await self._lobbies.add_computer(lobby_id, by, level)

    async def leave_lobby(self, lobby_id: int, player: Player) -> Lobby:
        """Leave a lobby; its creator leaving cancels it."""
        return await self._lobbies.leave_lobby(lobby_id, player)

    async def start_lobby(self, lobby_id: int, by: Player) -> Match:
        """The creator starts the game with everyone who joined, in join order."""
        return await self._lobbies.start_lobby(lobby_id, by)

    def start_refusal(self, lobby: Lobby, by: Player) -> str | None:
        """Why `by` may not start `lobby` now, or None."""
        return self._lobbies.start_refusal(lobby, by)

    async def get_lobby(self, lobby_id: int) -> Lobby:
        return await self._lobbies.get_lobby(lobby_id)

    async def open_lobbies(self, guild_id: int | None = None) -> list[Lobby]:
        """One server's open lobbies (None: the offline ones)."""
        return await self._lobbies.open_lobbies(guild_id)

    async def create_series(
        self,
        game_key: str,
        players: list[Player],
        *,
        first: int,
        best_of: int = 3,
        clock: ClockSettings | None = DM_CLOCK,
        options: dict[str, Any] | None = None,
        house_wins: bool | None = None,
        place: Place | None = None,
    ) -> Series:
        """A death match: best of `best_of`, `first` places first in game 1 and it alternates after. Its
        games open in the server's match channel, if one is set; `house_wins` None is the server's setting."""
        place = self._settings.match_place(place or Place())
        return await self._series.create_series(
            game_key,
            players,
            first=first,
            best_of=best_of,
            clock=clock,
            options=options,
            house_wins=self._settings.house_wins(place.guild_id) if house_wins is None else house_wins,
            place=place,
        )

    # --- playing ---

    async def check_move(self, match_id: int, player_id: str, text: str, *, ply: int | None = None) -> None:
        """Raise what `move` would refuse now, changing nothing (see `Playing.check`)."""
        await self._playing.check(match_id, player_id, text, ply)

    async def move(
        self, match_id: int, player_id: str, text: str, *, ply: int | None = None, at: float | None = None
    ) -> Notice:
        """Play `text` for `player_id`; `ply` is the ply the player saw (None: don't check), `at` when they
        sent it (default now). Refusals raise ServiceError or IllegalMove and change nothing. A move ends the
        mover's away time on that server."""
        notice = await self._playing.move(match_id, player_id, text, ply=ply, at=at)
        await self._away.moved(player_id, notice.match.place.guild_id)
        return notice

    async def resign(self, match_id: int, player_id: str) -> Notice:
        """Leave a match: the others play on where seats can leave, else the match ends and they win."""
        return await self._playing.resign(match_id, player_id)

    async def board_posted(
        self, match_id: int, ply: int, at: float | None = None, message: tuple[int, int] | None = None
    ) -> tuple[int, int] | None:
        """The board for `ply` is posted (as `message`): the mover's clock starts. Returns the previous
        board post, whose buttons the front-end takes away."""
        previous = await self._playing.board_posted(match_id, ply, at, message)
        self.metrics.board_posted(match_id, ply)  # the move that led here has been through the whole pipeline
        return previous

    async def hold(self, match_id: int, reason: str) -> None:
        """No board could be posted anywhere (`reason`: Discord's answer): the match waits, charged to nobody,
        until one is (bot/service/holds.py)."""
        await self._holds.hold(match_id, Hold(POSTING, reason, self.time.now()))

    async def gateway_down(self, shard: int, count: int, since: float | None = None) -> list[Match]:
        """Discord's gateway is down for shard `shard` of `count` since `since` (default now): nobody can
        reach the bot to move there, so its servers' matches are held, their clocks stopped as of `since`
        and charged to nobody. Returns those now held."""
        hold = Hold(GATEWAY, "Discord's gateway is unreachable", self.time.now() if since is None else since)
        return await self._holds.hold_where(_on_shard(shard, count), hold)

    async def gateway_up(self, shard: int, count: int) -> list[tuple[Match, float]]:
        """The gateway of shard `shard` of `count` is back: its held matches go on from where they stopped.
        Returns each with how long it was held (seconds), for the front-end to say so."""
        now = self.time.now()
        released = await self._holds.release_where(_on_shard(shard, count), GATEWAY, now)
        return [(match, now - hold.since) for match, hold in released]

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        """Remember where a front-end posts a match (and the death match's next games)."""
        await self._playing.set_thread(match_id, thread_id)

    # --- takebacks by agreement, and claims ---

    async def request_takeback(self, match_id: int, player_id: str) -> Notice:
        """Ask the other people in a casual game to let `player_id` take back their last move and every line
        after it (a `takeback` notice); against computers only, it is done at once (an `undone` notice)."""
        return await self._takebacks.request(match_id, player_id)

    async def answer_takeback(
        self, match_id: int, player_id: str, accept: bool, ply: int | None = None, seat: int | None = None
    ) -> Notice:
        """One of those asked accepts or declines the open request (`ply`, `seat`: the ply and the requester's
        seat its buttons name; None: the open one, whichever it is)."""
        return await self._takebacks.answer(match_id, player_id, accept, ply, seat)

    def open_takeback(self, match_id: int) -> Takeback | None:
        """The match's takeback request waiting for answers, if any."""
        return self._takebacks.open_request(match_id)

    def takeback_waiting(self, match: Match, takeback: Takeback) -> list[Player]:
        """The people a request still waits for (those asked who have not accepted)."""
        return self._takebacks.waiting(match, takeback)

    async def takeback_posted(self, match_id: int, takeback_id: int, message: tuple[int, int]) -> bool:
        """A request is posted as (channel, message), so it loses its buttons when it closes; False if it
        closed meanwhile (take them away now)."""
        return await self._takebacks.posted(match_id, takeback_id, message)

    async def _expire_takeback_if_due(self, match_id: int, takeback_id: int) -> None:
        """The callback of a request's deadline on the scheduler (tests call it directly)."""
        await self._takebacks.expire_if_due(match_id, takeback_id)

    async def claim(self, match_id: int, player_id: str) -> Notice:
        """Claim an untimed game whose player to move has not moved for `CLAIM_AFTER`: the win with two
        players, that player out with more."""
        return await self._claims.claim(match_id, player_id)

    # --- moderators ---

    async def pause(self, match_id: int, by: Player) -> Notice:
        return await self._moderation.pause(match_id, by)

    async def resume(self, match_id: int, by: Player) -> Notice:
        return await self._moderation.resume(match_id, by)

    async def add_time(self, match_id: int, by: Player, player_id: str, seconds: float) -> Notice:
        """Add (or with a negative number, take) reserve time for one player."""
        return await self._moderation.add_time(match_id, by, player_id, seconds)

    async def abort(self, match_id: int, by: Player) -> Notice:
        """Stop a match with no result (its series too)."""
        return await self._moderation.abort(match_id, by)

    async def undo(self, match_id: int, by: Player) -> Notice:
        """Take back the last move still standing (against the computer, the last person's and after)."""
        return await self._moderation.undo(match_id, by)

    async def adjudicate(self, match_id: int, by: Player, winner_id: str | None) -> Notice:
        """A moderator decides the game: `winner_id` wins, or None for a draw."""
        return await self._moderation.adjudicate(match_id, by, winner_id)

    # --- clocks ---

    async def sweep(self) -> None:
        """Flag every running match whose time is up (the safety net behind the scheduler)."""
        await self._flags.sweep()

    async def _flag_if_due(self, match_id: int, ply: int) -> None:
        """The scheduler's callback (a test building its own `FlagScheduler` passes it)."""
        await self._flags.flag_if_due(match_id, ply)

    # --- reminders ---

    async def remind_if_due(self, match_id: int, ply: int) -> None:
        """Send the reminder of (match, ply) that is due, if that turn still waits (what its timer calls)."""
        await self._reminding.remind_if_due(match_id, ply)

    async def notify_choice(self, player_id: str) -> str:
        """How a person is reminded of their turn: dm, thread or off (thread until they choose)."""
        return await self._reminding.mode(player_id)

    async def set_notify_choice(self, player_id: str, mode: str) -> str:
        """A person chooses how they are reminded (dm, thread or off), for every server alike."""
        return await self._reminding.choose(player_id, mode)

    async def last_reminder_dm(self, player_id: str) -> float | None:
        """When the last reminder DM went to this person (None: never); the front-end sends one an hour."""
        return await self._reminding.last_dm(player_id)

    async def reminder_dm_sent(self, player_id: str, at: float) -> None:
        await self._reminding.dm_sent(player_id, at)

    # --- players: their games, away time ---

    def my_games(self, player_id: str, guild_id: int | None) -> list[Match]:
        """A player's running matches on one server (None: offline): those where it is their turn first,
        the nearest deadline first, then the others; each group oldest first."""
        return self._registry.turns_first(player_id, guild_id)

    async def away(self, player: Player, guild_id: int | None, days: int) -> AwayAnswer:
        """`player` is away for `days` days (1 to 14, within 14 a year per server): the long clocks of
        their games there stop for them (bot/service/away.py). Refused in words; again while away, it moves
        the end later."""
        return await self._away.go_away(player, guild_id, days)

    async def back(self, player: Player, guild_id: int | None) -> AwayAnswer:
        """`player` is back before their away time ends: their clocks run again; the rest is not counted."""
        return await self._away.come_back(player, guild_id)

    def away_until(self, player_id: str, guild_id: int | None) -> float | None:
        """When the player's away time on this server ends; None if they are not away (e.g. for reminders,
        which should not nag a player who is away)."""
        return self._away.until(player_id, guild_id)

    # --- server settings (bot/service/settings.py) ---

    def settings(self, guild_id: int | None) -> list[SettingState]:
        """Every setting of a server (None: offline, the ones that apply there), its value and whether that
        is the default, in the order `/settings show` lists them."""
        return self._settings.states(guild_id)

    def setting(self, guild_id: int | None, key: str) -> SettingState:
        return self._settings.state(guild_id, key)

    async def set_setting(self, guild_id: int | None, key: str, value: str, by: Player) -> SettingChange:
        """Change a server's setting (refused in words, storing nothing, for an unknown setting or a value it
        does not take); stored with who and when, and logged. Front-ends check who may (moderators)."""
        return await self._settings.set(guild_id, key, value, by)

    async def reset_setting(self, guild_id: int | None, key: str, by: Player) -> SettingChange:
        """Put a server's setting back to its default (who and when are stored, and logged)."""
        return await self._settings.reset(guild_id, key, by)

    def mod_role(self, guild_id: int | None) -> int | str | None:
        """A server's moderator role: an id, a role name (MOD_ROLE, the default), or None (Manage Server only)."""
        return self._settings.mod_role(guild_id)

    def match_channel(self, guild_id: int | None) -> int | None:
        """The channel where a server's new matches open their threads (None: where each is started)."""
        return self._settings.match_channel(guild_id)

    def default_clock(self, guild_id: int | None) -> ClockSettings | None:
        """The clock of a casual match whose start command gave none (None: untimed)."""
        return self._settings.default_clock(guild_id)

    def server_limits(self, guild_id: int | None) -> UserLimits:
        """What one person may have open at once on a server (its settings)."""
        return self._settings.limits(guild_id)

    def rated(self, guild_id: int | None) -> bool:
        """Whether a server's finished games change ratings."""
        return self._settings.rated(guild_id)

    # --- ratings and records ---

    async def leaderboard(self, guild_id: int | None, game_key: str, limit: int = 10) -> list[PlayerRating]:
        """A server's best-rated players of one game (None: offline), best first."""
        return await self._ratings.leaderboard(guild_id, game_key, limit)

    async def stats(self, guild_id: int | None, player_id: str) -> list[PlayerRating]:
        """One player's ratings on a server, a line per game they have played rated."""
        return await self._ratings.stats(guild_id, player_id)

    async def solitaire_results(self, game_key: str, guild_id: int | None) -> list[tuple[Match, float]]:
        """A server's finished one-player games that ended by the rules, with their scores, oldest first."""
        return await self._ratings.solitaire_results(game_key, guild_id)

    # --- tournaments (bot/service/tournaments.py; docs/tournaments.md) ---

    async def resume_tournaments(self) -> None:
        """After `start`, once the front-ends can post: start the tournaments whose closing time passed while
        the bot was down (arm the others), record the results of games that ended meanwhile and pair the
        rounds they completed."""
        await self._tournaments.resume()

    def subscribe_tournaments(self, listener: TournamentListener) -> None:
        """Call `listener` with every tournament notice (a new round, a withdrawal...), once committed."""
        self._tournaments.subscribe(listener)

    async def open_tournament(
        self,
        game_key: str,
        format: str,
        by: Player,
        *,
        place: Place | None = None,
        rounds: int | None = None,
        clock: str | None = None,
        series: str = "single",
        seats: int | None = None,
        closes_at: float | None = None,
    ) -> HeldTournament:
        """A tournament open for sign-up (front-ends check that `by` is a moderator); refused in words for a
        bad game, format, rounds, clock, series, seats or closing time."""
        return await self._tournaments.open(
            game_key,
            format,
            by,
            place=place,
            rounds=rounds,
            clock=clock,
            series=series,
            seats=seats,
            closes_at=closes_at,
        )

    async def tournament_posted(
        self, tournament_id: int, message_id: int | None, thread_id: int | None
    ) -> HeldTournament:
        """Where a front-end posted the sign-up (its buttons) and opened the tournament's thread."""
        return await self._tournaments.posted(tournament_id, message_id, thread_id)

    async def get_tournament(self, tournament_id: int) -> HeldTournament:
        return await self._tournaments.get(tournament_id)

    async def tournaments(
        self, guild_id: int | None, statuses: tuple[str, ...] = ("open", "running")
    ) -> list[HeldTournament]:
        """One server's tournaments in those statuses (None: the offline ones), oldest first."""
        return await self._tournaments.listing(guild_id, statuses)

    async def tournament_boards(self, held: HeldTournament) -> tuple[BoardGame, ...]:
        """The current round's boards, each with its game."""
        return await self._tournaments.boards(held)

    async def join_tournament(self, tournament_id: int, player: Player) -> HeldTournament:
        return await self._tournaments.join(tournament_id, player)

    async def leave_tournament(self, tournament_id: int, player: Player) -> HeldTournament:
        """Leave the sign-up; after the start, leaving withdraws the player (their unplayed game forfeited)."""
        return await self._tournaments.leave(tournament_id, player)

    async def start_tournament(self, tournament_id: int, by: Player | None) -> HeldTournament:
        """Close sign-up, seed by rating and start round 1's games."""
        return await self._tournaments.start_tournament(tournament_id, by)

    async def withdraw_from_tournament(self, tournament_id: int, player_id: str, by: Player) -> HeldTournament:
        return await self._tournaments.withdraw(tournament_id, player_id, by)

    async def adjudicate_board(
        self, tournament_id: int, round_no: int, board: int, places: Sequence[int] | Literal["void"], by: Player
    ) -> HeldTournament:
        """A moderator's result for a board of the current round: places by seat, or "void"."""
        return await self._tournaments.adjudicate(tournament_id, round_no, board, places, by)

    async def replace_in_tournament(
        self, tournament_id: int, player_id: str, new: Player, by: Player
    ) -> HeldTournament:
        return await self._tournaments.replace_player(tournament_id, player_id, new, by)

    async def void_tournament_round(self, tournament_id: int, by: Player) -> HeldTournament:
        return await self._tournaments.void_round(tournament_id, by)

    async def tournament_record(self, tournament_id: int) -> TournamentRecord:
        """The tournament as JSON: players, pairings, results, and the games each board was played in."""
        return await self._tournaments.record(tournament_id)


def _on_shard(shard: int, count: int) -> Callable[[Match], bool]:
    """The Discord matches of one gateway shard (a match's shard comes from its server)."""
    return lambda match: match.place.guild_id is not None and shard_of(match.place.guild_id, count) == shard
