"""The match service: every change to a match or series goes through here.

It knows no Discord and no Pillow. Front-ends (the Discord cogs, the terminal) call `MatchService`'s
methods with player ids and move text, and subscribe to the `Notice`s it sends after each committed change
so they can post boards, including for things nobody asked for (a flag, the next game of a series).

Rules it enforces for every game alike: only the seat to move may move, only against the ply it saw, and
only once (one asyncio lock per match; one database transaction per change). Clocks follow
docs/rules/fish.md: the turn starts when the front-end reports the board posted (`board_posted`), time
beyond the move allowance comes out of reserve, an exhausted reserve loses the game, and time while the
bot is down or a moderator has paused the match is charged to nobody.

`MatchService` is a facade: each concept is a module of this package, built here with what it depends on
and handed out as an attribute of the same name (`service.lobbies.join_lobby(...)`,
`service.moderation.pause(...)`). The facade's own methods are the lifecycle, the reads every front-end
needs, and the steps that combine parts (a move also ends its mover's away time; a start opens in the
server's match channel).

- `registry`: the running matches (a cache of the store), per-match locks, the commit that reloads on
  failure, the listeners and their notices
- `limits`: what one person may have open at once per server
- `challenges`: a match started at once, and one match per challenge
- `lobbies`: players gathering for games of one or of more than two
- `series` (series.py): death matches, scored and continued inside the game-ending transaction
- `ratings` (rating.py): Glicko-2 ratings written with each result; leaderboards; solitaire best scores
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
  stored per server; the facade hands each concept the reader it needs. What notices say is bot/posts.py's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

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
from bot.i18n import N_
from bot.metrics import Metrics
from bot.models import (
    GATEWAY,
    POSTING,
    AwayPeriod,
    Hold,
    Match,
    MoveRecord,
    Notice,
    NoticeKind,
    Place,
    Player,
    Series,
    UserLimits,
)
from bot.move_log import RESIGN
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
    "NoticeKind",
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
        ownership = ownership or EveryShard()
        defaults = defaults or ServerDefaults()
        defaults = replace(defaults, limits=limits) if limits else defaults
        self.settings = Settings(store, self.time, defaults, ownership)
        self.registry = Registry(store, self.time, self.metrics, ownership)
        self.limits = Limits(self.registry, self.settings.limits)
        self.challenges = Challenges(self.registry, self.limits)
        self.lobbies = Lobbies(self.registry, self.limits, self.settings.match_place)
        self.ratings = Ratings(self.registry, self.settings.rated)
        self.series = DeathMatches(self.registry)
        self.ending = Ending(self.registry, self.ratings, self.series)
        self.flags = Flags(self.registry, self.ending)
        self.reminding = Reminding(
            self.registry,
            self.flags,
            away_until=lambda player_id, guild_id: self.away.until(player_id, guild_id),  # left alone while away
            idle=self.settings.idle_reminders,
        )
        self.holds = Holds(self.registry, self.flags, self.reminding)
        self.downtime = Downtime(self.registry, self.flags, self.reminding)
        self.playing = Playing(self.registry, self.ending, self.flags, self.reminding, self.holds)
        self.moderation = Moderation(self.registry, self.ending, self.flags, self.reminding)
        self.away = AwayTime(self.registry, self.flags, self.reminding, self.settings.away_days)
        self.registry.subscribe(self.away.on_notice)  # first: a match starting waits for who is away
        self.takebacks = Takebacks(self.registry, self.ending, self.flags, self.moderation)
        self.registry.subscribe(self.takebacks.on_notice)  # before the front-ends: a request lapses first
        self.claims = Claims(self.registry, self.ending, self.away.until, self.settings.claim_after)
        self.tournaments = Tournaments(
            self.registry,
            self.series,
            self.playing,
            self.moderation,
            self.flags,
            self.settings.match_place,
            self.settings.house_wins,
        )
        self.metrics.watch_open(self.open_by_game)

    # --- lifecycle ---

    async def start(self) -> list[Match]:
        """Load every running match (after a restart too), start the flag scheduler and the heartbeat.

        The downtime is charged to nobody (bot/service/downtime.py): boards up as they stand on long clocks
        go on quietly, their flags and reminders armed; the returned matches (live clocks, or boards not up)
        need their board posted again, soonest deadline first, each with a fresh move allowance that starts
        when `board_posted` says so. Once the front-ends can post, they call `tournaments.resume()`.
        """
        await self.settings.start()  # first: what each server chose decides the rest
        loaded = await self.registry.load_running()
        log.info("resumed %d running matches", len(loaded))
        await self.reminding.start()
        await self.away.start()
        repost = await self.downtime.resume(loaded)  # after away time: a period that ended meanwhile goes on
        await self.takebacks.start()
        await self.tournaments.start()  # loaded; `tournaments.resume` catches up once front-ends can post
        self.flags.scheduler.start()
        self.downtime.start()
        return repost

    async def close(self) -> None:
        await self.downtime.stop()
        await self.flags.scheduler.stop()

    async def adopt(self) -> list[Match]:
        """This process has taken another shard (its process died): load its running matches and arm what
        they wait for, as after a restart. Returns the matches whose board needs (re)posting."""
        await self.settings.start()  # its servers' settings may have changed in the process that held it
        loaded = await self.registry.load_running()
        await self.reminding.start()
        await self.away.start(loaded)
        repost = await self.downtime.resume(loaded)  # counted from its dead owner's last heartbeat
        await self.takebacks.start()
        await self.tournaments.start()
        await self.tournaments.resume()
        log.info("took over %d running matches", len(loaded))
        return repost

    def drop_unowned(self) -> list[Match]:
        """This process lost a shard's lease: stop acting on its matches at once (their armed flags and
        reminders find nothing to do: they look the match up first)."""
        dropped = self.registry.drop_unowned()
        self.away.drop_unowned()
        self.downtime.drop_unowned()
        self.tournaments.drop_unowned()
        if dropped:
            log.warning("left %d matches to the process that holds their shard now", len(dropped))
        return dropped

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every notice, after the change it tells of is committed."""
        self.registry.subscribe(listener)

    # --- reading: what every front-end asks of a match ---

    def game(self, match: Match) -> Game:
        return self.registry.game(match)

    async def get(self, match_id: int) -> Match:
        """A match, running or not; NoSuchMatch if there is none."""
        return await self.registry.get(match_id)

    def running_match(self, match_id: int) -> Match | None:
        """The running match with this id, or None (over, aborted, unknown)."""
        return self.registry.running_match(match_id)

    def series_of(self, match: Match) -> Series | None:
        """The death match a running game belongs to, if any."""
        return self.registry.series_of(match)

    def running(self, guild_id: int | None = None, game: str | None = None) -> list[Match]:
        """Running matches, oldest first, optionally only one server's or one game's."""
        return self.registry.running(guild_id, game)

    def matches_of(self, player_id: str, game: str | None = None) -> list[Match]:
        return [m for m in self.running(game=game) if m.seats_of(player_id)]

    def open_by_game(self) -> dict[str, int]:
        """How many matches are running here, by game (every game named, 0 for none): the open-matches gauge."""
        counts = dict.fromkeys(self.games, 0)
        for match in self.registry.running():
            counts[match.game] = counts.get(match.game, 0) + 1
        return counts

    async def moves(self, match_id: int) -> list[MoveRecord]:
        """The moves still standing (undone ones taken out)."""
        return await self.store.moves(match_id)

    async def log(self, match_id: int) -> list[MoveRecord]:
        """The whole move log, in order: undone moves, undos, resignations and reseeds too (bot/move_log.py
        reads it; only a finished match's record shows a reseed's seed)."""
        return await self.store.log(match_id)

    def replay(self, match: Match, records: list[MoveRecord]) -> Any:
        """The state after `records` (the whole log: its reseeds too), rebuilt from the seed."""
        return self.registry.replay(match, records)

    # --- steps that combine parts ---

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
        set. `clock` is the match's (None: untimed): a front-end whose command gave none asks
        `settings.default_clock`."""
        place = self.settings.match_place(place or Place())
        return await self.challenges.create_match(
            game_key, players, options=options, seed=seed, clock=clock, place=place, challenge=challenge
        )

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
        place = self.settings.match_place(place or Place())
        return await self.series.create_series(
            game_key,
            players,
            first=first,
            best_of=best_of,
            clock=clock,
            options=options,
            house_wins=self.settings.house_wins(place.guild_id) if house_wins is None else house_wins,
            place=place,
        )

    async def move(
        self, match_id: int, player_id: str, text: str, *, ply: int | None = None, at: float | None = None
    ) -> Notice:
        """Play `text` for `player_id`; `ply` is the ply the player saw (None: don't check), `at` when they
        sent it (default now). Refusals raise ServiceError or IllegalMove and change nothing. A move ends the
        mover's away time on that server."""
        notice = await self.playing.move(match_id, player_id, text, ply=ply, at=at)
        await self.away.moved(player_id, notice.match.place.guild_id)
        return notice

    async def board_posted(
        self, match_id: int, ply: int, at: float | None = None, message: tuple[int, int] | None = None
    ) -> tuple[int, int] | None:
        """The board for `ply` is posted (as `message`): the mover's clock starts. Returns the previous
        board post, whose buttons the front-end takes away."""
        previous = await self.playing.board_posted(match_id, ply, at, message)
        self.metrics.board_posted(match_id, ply)  # the move that led here has been through the whole pipeline
        return previous

    async def hold(self, match_id: int, reason: str) -> None:
        """No board could be posted anywhere (`reason`: Discord's answer): the match waits, charged to nobody,
        until one is (bot/service/holds.py)."""
        await self.holds.hold(match_id, Hold(POSTING, reason, self.time.now()))

    async def gateway_down(self, shard: int, count: int, since: float | None = None) -> list[Match]:
        """Discord's gateway is down for shard `shard` of `count` since `since` (default now): nobody can
        reach the bot to move there, so its servers' matches are held, their clocks stopped as of `since`
        and charged to nobody. Returns those now held."""
        hold = Hold(GATEWAY, N_("Discord's gateway is unreachable"), self.time.now() if since is None else since)
        return await self.holds.hold_where(_on_shard(shard, count), hold)

    async def gateway_up(self, shard: int, count: int) -> list[tuple[Match, float]]:
        """The gateway of shard `shard` of `count` is back: its held matches go on from where they stopped.
        Returns each with how long it was held (seconds), for the front-end to say so."""
        now = self.time.now()
        released = await self.holds.release_where(_on_shard(shard, count), GATEWAY, now)
        return [(match, now - hold.since) for match, hold in released]


def _on_shard(shard: int, count: int) -> Callable[[Match], bool]:
    """The Discord matches of one gateway shard (a match's shard comes from its server)."""
    return lambda match: match.place.guild_id is not None and shard_of(match.place.guild_id, count) == shard
