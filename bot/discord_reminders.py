"""Reminders in Discord: the service's `reminder` notices, delivered the way each person chose (/notify).

- thread (the default): a short message in the match's thread that mentions that player and pings nobody else.
- dm: one direct message with a link to the board. Where it is that player's turn in several running matches,
  one digest ("3 games await you") with a link to each board, rather than a message per game.
- At most one reminder DM per person an hour (when the last went out is stored, so a restart keeps to it).
  A reminder due sooner is dropped if that DM listed its turn already (with its deadline); one whose flag
  would fall before the hour is over goes to the thread at once; any other waits for the hour to end and
  goes out then, in one digest with every game still awaiting them. A waiting reminder whose turn is played
  meanwhile is dropped, and with none left no DM goes. A digest still waiting when the bot stops is lost:
  the restart reposts every board, which pings the player to move anyway.
- A DM that Discord refuses because the person's DMs are closed (403, code 50007) goes to the thread
  instead, their choice is stored as thread, and the thread message says so. Any other failed DM goes to
  the thread too, their choice unchanged.
- off: nothing (the service sends no notice). Computers are never reminded (nor sent a notice).

Every reminder speaks the server's language (`posts.publicly`), a DM too: a player's own Discord language
is known only while they interact, and a reminder comes when they do not; the server's is the one their
board posts and the reminder's own line (worded by the service) speak. A DM listing games of several
servers speaks the language of the first game's server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import discord_limits as limits
from bot import i18n
from bot.i18n import N_, _, ngettext
from bot.models import Match, Notice
from bot.posts import publicly, versus
from bot.service import MatchService
from bot.service.reminding import DM, THREAD

Send = Callable[[Match, Callable[[discord.abc.Messageable], Awaitable[discord.Message]]], Awaitable[object]]
"""`GameBot._send`: a message to a match's place, or where it moved to."""
log = logging.getLogger(__name__)

DM_EVERY = 3600.0
"""Seconds between two reminder DMs to one person at least."""
DMS_CLOSED = 50007
"""Discord's code for "Cannot send messages to this user" (their privacy settings refuse the bot's DMs)."""
CLOSED_LINE = N_("Your DMs are closed, so reminders come here (`/notify mode:dm` tries DMs again).")


def user_id(player_id: str) -> int | None:
    """The Discord user id of a player id ("discord:123"), None for anyone else."""
    kind, _colon, raw = player_id.partition(":")
    return int(raw) if kind == "discord" and raw.isdigit() else None


def jump_url(match: Match) -> str:
    """A link to the match's current board (https://discord.com/channels/guild/channel/message), else its place."""
    guild = match.place.guild_id
    if match.board is not None:
        return f"https://discord.com/channels/{guild}/{match.board[0]}/{match.board[1]}"
    return f"https://discord.com/channels/{guild}/{match.place.thread_id or match.place.channel_id}"


class ReminderPoster:
    """Delivers reminder notices for the bot (`client`), keeping to one DM an hour per person. `service` gives
    the bot's service (made once the bot starts); `send` posts in a match's place (`GameBot._send`)."""

    def __init__(self, client: discord.Client, service: Callable[[], MatchService], send: Send) -> None:
        self.client = client
        self.service = service
        self.send = send
        self.dm_every = DM_EVERY
        self._waiting: dict[str, dict[int, tuple[int, str]]] = {}
        """player id -> match id -> (ply, what its reminder said), for their next DM."""
        self._timers: dict[str, asyncio.Task[None]] = {}
        """player id -> the task that sends their next DM once the hour since the last is over."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._listed: dict[str, set[tuple[int, int]]] = {}
        """player id -> the (match, ply) turns their last DM listed."""

    @property
    def waiting(self) -> int:
        """How many people have a DM waiting for the hour since their last to end."""
        return len(self._timers)

    def close(self) -> None:
        for task in self._timers.values():
            task.cancel()

    async def deliver(self, notice: Notice) -> None:
        """A reminder notice: to the thread or by DM, as its player chose."""
        match, player = notice.match, notice.to
        if player is None or match.place.channel_id is None or (uid := user_id(player.id)) is None:
            return  # not a Discord match, or not a Discord user
        line = "; ".join(notice.lines)
        service = self.service()
        if await service.reminding.mode(player.id) != DM:
            await self._in_thread(match, uid, line)
            return
        async with self._locks.setdefault(player.id, asyncio.Lock()):
            last = await service.reminding.last_dm(player.id)
            now = service.time.now()
            if last is None or now >= last + self.dm_every:
                self._waiting.setdefault(player.id, {})[match.id] = (match.ply, line)
                await self._send_dm(player.id, uid)
                return
            if (match.id, match.ply) in self._listed.get(player.id, ()):
                return  # the last DM, within the hour, listed this very turn with its deadline
            deadline = match.clock.deadline() if match.clock is not None else None
            if deadline is not None and deadline < last + self.dm_every:
                await self._in_thread(match, uid, line)  # it cannot wait for the next DM: the flag falls first
                return
            self._waiting.setdefault(player.id, {})[match.id] = (match.ply, line)
            if player.id not in self._timers:
                timer = asyncio.create_task(self._later(player.id, uid, last + self.dm_every), name=f"dm-{uid}")
                self._timers[player.id] = timer

    async def _later(self, player_id: str, uid: int, when: float) -> None:
        """The hour since the last DM is over: the reminders that waited for it go out in one DM."""
        await self.service().time.sleep_until(when)
        async with self._locks.setdefault(player_id, asyncio.Lock()):
            self._timers.pop(player_id, None)
            await self._send_dm(player_id, uid)

    def awaiting(self, player_id: str) -> list[Match]:
        """The running Discord matches whose turn is this person's, oldest first (paused ones wait for nobody)."""
        service = self.service()
        found = []
        for match in service.running():
            if match.place.channel_id is None or match.paused:
                continue
            seat = service.game(match).to_move(match.state)
            if seat is not None and match.players[seat].id == player_id:
                found.append(match)
        return found

    async def _send_dm(self, player_id: str, uid: int) -> None:
        """One DM: the reminders waiting for this person, with every other game that awaits them."""
        service = self.service()
        waiting = self._waiting.pop(player_id, {})
        games = self.awaiting(player_id)
        said = {match.id: waiting[match.id][1] for match in games if waiting.get(match.id, (None,))[0] == match.ply}
        if not said:
            return  # every turn reminded of was played meanwhile
        try:
            user = self.client.get_user(uid) or await self.client.fetch_user(uid)
            with publicly(games[0].place.guild_id):
                text = self.digest(games, said)
            await user.send(text, allowed_mentions=limits.NOBODY)
        except discord.HTTPException as error:
            closed = isinstance(error, discord.Forbidden) and error.code == DMS_CLOSED
            log.info("could not DM a reminder to %s (%s): to the thread instead", player_id, error.status)
            if closed:
                await service.reminding.choose(player_id, THREAD)
            for match_id, (ply, line) in waiting.items():
                match = service.running_match(match_id)
                if match is not None and match.ply == ply:
                    await self._in_thread(match, uid, line, closed=closed)
            return
        self._listed[player_id] = {(match.id, match.ply) for match in games}
        await service.reminding.dm_sent(player_id, service.time.now())

    def digest(self, games: list[Match], said: dict[int, str]) -> str:
        """The DM: one game with its reminder and a link to its board, or "3 games await you" and a line each."""
        service = self.service()

        def about(match: Match) -> str:
            clock = match.clock
            if match.id in said:
                return said[match.id]
            if clock is not None and (deadline := clock.deadline()) is not None:
                return _("your flag falls {when}").format(when=f"<t:{int(deadline)}:R>")
            return _("your turn")

        def title(match: Match) -> str:
            return f"{service.game(match).title} #{match.id} ({versus(match.names)})"

        if len(games) == 1:
            (match,) = games
            said = _("Your turn in {match}: {what}.").format(match=title(match), what=about(match))
            return limits.clip(f"{said}\n{jump_url(match)}")
        count = len(games)
        lines = [
            ngettext("{count} game awaits you:", "{count} games await you:", count).format(count=i18n.number(count))
        ]
        lines += [f"• {title(match)}: {about(match)} — {jump_url(match)}" for match in games]
        return limits.and_more(lines)

    async def _in_thread(self, match: Match, uid: int, line: str, *, closed: bool = False) -> None:
        """The reminder in the match's thread, pinging that player only."""
        with publicly(match.place.guild_id):
            said = _("{player} your turn in match #{number}: {what}.").format(
                player=f"<@{uid}>", number=match.id, what=line
            )
            text = limits.clip(said + (f"\n{_(CLOSED_LINE)}" if closed else ""))
        mentions = limits.pinging(uid)
        await self.send(match, lambda place: place.send(text, allowed_mentions=mentions))
