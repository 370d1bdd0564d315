"""The terminal's session: what it holds between lines (the current match, the pictures saved, the
tournament), how it prints the service's notices and saves their pictures, and the lookups its commands
share (the match a command is about, who it is for)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

from bot import i18n, posts, records
from bot.backup import default_folder
from bot.computer import Analyst
from bot.config import ROOT
from bot.db import is_postgres
from bot.i18n import _
from bot.local.checks import CommandError, both, either, number, player_named, slug
from bot.local.table import NEW, start_usage
from bot.models import Match, NoticeKind, Player
from bot.service import MatchService, Notice, TournamentNotice

log = logging.getLogger("bot.local")
Answer = Callable[[str], Awaitable[bool]]
"""The answer to a question the terminal asked (`Session.ask`): True if the line was the answer."""
MODERATOR = Player("local:moderator", "moderator")
IGNORED = "# the bot's output for this folder's database: kept out of git\n*\n"
"""The `.gitignore` of every folder the terminal writes, so its files never show in `git status`."""


def output_folders(database: Path | str) -> tuple[Path, Path]:
    """Where a database's pictures and records go: folders named for it under `renders/` and `records/`
    beside it (`data/renders/bot/` for `data/bot.sqlite3`), so two databases never overwrite each other's
    match #1; for PostgreSQL (a URL), under the project's `data/`, named for the database."""
    if is_postgres(str(database)):
        folder, name = ROOT / "data", "postgresql-" + (slug(urlsplit(str(database)).path) or "default")
    else:
        folder, name = Path(database).parent, slug(Path(database).stem) or "database"
    return folder / "renders" / name, folder / "records" / name


def ignored(folder: Path) -> Path:
    """`folder` made if needed, and kept out of git (a `.gitignore` of its own), wherever the database is."""
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / ".gitignore"
    if not marker.exists():
        marker.write_text(IGNORED, encoding="utf-8")
    return folder


class Session:
    """Turns notices into printed posts with saved PNGs, and holds what the commands share."""

    def __init__(
        self,
        service: MatchService,
        out_dir: Path | None = None,
        write: Callable[[str], None] = print,
        analyst: Analyst | None = None,
    ) -> None:
        self.service = service
        renders, records_dir = output_folders(service.store.path)
        self.out_dir = out_dir or renders
        """Where pictures go: a folder of this database's (`output_folders`) unless one is given."""
        self.records_dir = records_dir if out_dir is None else out_dir.parent / "records"
        self.write: Callable[[str], None] = lambda text: write(i18n.said(text, "terminal"))
        self.analyst = analyst or Analyst(service)
        """`GAME analysis`: its worker process starts on the first one."""
        self.current: int | None = None
        self.saved: list[Path] = []
        self.backup_dir: Path = default_folder(service.store.path)  # run_offline sets BACKUP_DIR and BACKUP_KEEP
        self.backup_keep: int | None = None
        self.tournament: int | None = None
        """The tournament the `tournament` commands are about (the newest offline one, by default)."""
        self.question: Answer | None = None
        """What the next line answers (`ask`), if a command asked something."""
        service.subscribe(self.on_notice)
        service.tournaments.subscribe(self.on_tournament)

    def ask(self, question: str, answer: Answer) -> None:
        """Ask before doing something: the next line typed is given to `answer` (stripped), which says whether
        it took it; a line it does not take (`fish move A1` instead of yes) runs as the command it is."""
        self.write(question)
        self.question = answer

    # --- output ---

    async def on_notice(self, notice: Notice, overlays: frozenset[str] = frozenset()) -> None:
        """Print what happened; for board posts render and save the PNG, then start the clock."""
        match = notice.match
        if notice.kind == NoticeKind.REMINDER and notice.to is not None:  # no DM offline: every reminder is printed
            said = posts.plain_times("; ".join(notice.lines), self.service.time.now())
            self.write(
                f"[#{match.id}] " + _("reminder for {name}: {reminder}.").format(name=notice.to.name, reminder=said)
            )
            return
        if notice.kind == NoticeKind.STARTED:
            self.current = match.id
        now = self.service.time.now()
        post = await asyncio.to_thread(posts.for_notice, self.service, notice, now, overlays)
        if post is None:
            plain = (posts.plain_times(line, now) for line in notice.lines)  # away time's end is a timestamp
            self.write("\n".join(f"[#{match.id}] {line}" for line in plain))
            return
        # named by what the post was too, so a final board does not overwrite the first one of its ply
        kind = "-".join([notice.kind, *sorted(overlays)])
        path = await self.save(f"match-{match.id}-ply-{match.ply:03d}-{kind}.png", post.png)
        replay = ""
        if notice.kind == NoticeKind.OVER:  # the animated replay, beside the board PNGs
            try:
                gif = await self.save(f"match-{match.id}-replay.gif", await records.replay_for(self.service, match))
                replay = f"\n[#{match.id}] " + _("replay: {path}").format(path=gif)
            except Exception:  # the final board is shown anyway
                log.exception("could not build the replay of match %s", match.id)
        board = _("board: {path}").format(path=path)
        self.write(
            f"[#{match.id}] " + post.text.replace("\n", f"\n[#{match.id}] ") + replay + f"\n[#{match.id}] {board}"
        )
        if match.running:
            await self.service.board_posted(match.id, match.ply)

    async def repost(self, match: Match, reason: str) -> None:
        await self.on_notice(Notice(NoticeKind.BOARD, match, (reason,)))

    async def back(self, match: Match) -> None:
        """A running match's board shown again after a restart; a clock's turn starts afresh (an untimed
        game has none to speak of)."""
        if match.clock is not None:
            await self.repost(match, _("Back after a restart: a fresh move clock, reserves unchanged."))
        else:
            await self.repost(match, _("Back after a restart."))

    async def on_tournament(self, notice: TournamentNotice) -> None:
        """Print what happened to an offline tournament (a new round's pairings, a withdrawal, its end)."""
        if notice.held.place.guild_id is None:
            where = _("[tournament #{number}]").format(number=notice.held.id)
            self.write("\n".join(f"{where} {line}" for line in notice.lines))

    async def match(self, flags: dict[str, str], key: str | None = None) -> Match:
        """The match named by --match, else the current one; for a game's command, a match of that game."""
        if "match" in flags:
            match = await self.service.get(number(flags["match"], "--match"))
        elif self.current is None:
            match = self.lone_match(key, flags.get("as"))
        else:
            match = await self.service.get(self.current)
        if key is not None and match.game != key:
            refused = _(
                "Match #{number} is a game of {game}, not {wanted}: use {key} commands for it, or pick a match of"
                " {wanted} with --match ID or use ID."
            )
            raise CommandError(
                refused.format(
                    number=match.id,
                    game=self.service.game(match).title,
                    wanted=self.service.games[key].title,
                    key=match.game,
                )
            )
        return match

    def lone_match(self, key: str | None, name: str | None) -> Match:
        """No match chosen yet (as after a restart): the one running match of the game (`key`), or the one
        `name` plays in; it becomes the current match, and the terminal says so."""
        running = [m for m in self.service.running() if key is None or m.game == key]
        if name is not None:
            running = [m for m in running if any(p.name.casefold() == name.casefold() for p in m.players)]
        if len(running) == 1:
            self.current = running[0].id
            title = self.service.games[key].title if key else ""
            if key and name is not None:
                said = _("On match #{number}, the only running {game} match that {name} plays in.")
            elif key:
                said = _("On match #{number}, the only running {game} match.")
            elif name is not None:
                said = _("On match #{number}, the only running match that {name} plays in.")
            else:
                said = _("On match #{number}, the only running match.")
            self.write(said.format(number=self.current, game=title, name=name))
            return running[0]
        if running:
            numbers = both([f"#{m.id}" for m in running])
            refused = _("{count} matches are running ({numbers}): pick one with use ID or --match ID.")
            raise CommandError(refused.format(count=len(running), numbers=numbers))
        start = start_usage(key) if key else either([start_usage(key) for key in NEW])
        raise CommandError(_("No match yet: start one with {start} (or pick one with use ID).").format(start=start))

    def actor(self, match: Match, name: str | None, doing: str = "move") -> Player:
        """Who a typed command is for: `--as NAME`, else whoever is to move (never a computer). `doing` is
        what the command does for them (move, resign, or look at the hand), for the refusal's words."""
        if name is not None:
            player = player_named(match, name)
        else:
            seat = self.service.game(match).to_move(match.state) if match.running else None
            if seat is None:
                if doing == "look":
                    refused = _("Match #{number} is over: nobody is to move (say whose hand with --as NAME).")
                else:
                    refused = _("Match #{number} is over: nobody is to move.")
                raise CommandError(refused.format(number=match.id))
            player = match.players[seat]
        if player.is_computer and doing == "look":
            refused = _(
                "{name}'s hand is hidden: a computer player shows its cards to nobody (see a person's hand with"
                " --as NAME)."
            )
            raise CommandError(refused.format(name=player.name))
        if player.is_computer and doing == "resign":
            refused = _("{name} plays for itself: only a person can resign, so name one with --as NAME.")
            raise CommandError(refused.format(name=player.name))
        if player.is_computer:
            refused = _("{name} plays for itself: wait for its move, or play as someone else (--as).")
            raise CommandError(refused.format(name=player.name))
        return player

    async def agreeing(self, match: Match, sub: str, name: str | None) -> Player:
        """Who a takeback, an answer to one or a claim is for: `--as NAME`, else the one person it can be (who
        moved last asks, the one person still to answer answers, the one person not to move claims)."""
        if name is not None:
            player = player_named(match, name)
            if player.is_computer:
                raise CommandError(_("{name} plays for itself: name a person with --as NAME.").format(name=player.name))
            return player
        people: list[Player] = []
        if sub == "takeback":
            moved = [match.players[r.seat] for r in await self.service.moves(match.id)]
            people = [p for p in moved if not p.is_computer][-1:]
        elif sub == "claim" and match.running:
            mover = self.service.game(match).to_move(match.state)
            people = [p for s, p in enumerate(match.players) if s != mover and not p.is_computer]
        elif sub != "claim":
            takeback = self.service.takebacks.open_request(match.id)
            if takeback is None:
                refused = _("No takeback request is waiting for an answer in match #{number}.")
                raise CommandError(refused.format(number=match.id))
            people = self.service.takebacks.waiting(match, takeback)
        people = list(dict.fromkeys(people))
        if len(people) != 1:
            if sub == "takeback":
                refused = _("Say who asks with --as NAME ({names}).") if people else _("Say who asks with --as NAME.")
            elif sub == "claim":
                refused = (
                    _("Say who claims with --as NAME ({names}).") if people else _("Say who claims with --as NAME.")
                )
            else:
                refused = (
                    _("Say who answers with --as NAME ({names}).") if people else _("Say who answers with --as NAME.")
                )
            refused = refused.format(names=either([p.name for p in people]))
            raise CommandError(refused)
        return people[0]

    def _file(self, name: str) -> Path:
        """A file directly in out_dir (data/renders/bot/): the name is built here, never typed, and one that
        would lead anywhere else is a bug, refused rather than written."""
        if Path(name).name != name or name in (".", "..") or "\0" in name or len(name.encode()) > 200:
            raise ValueError(f"not a plain file name: {name!r}")
        return self.out_dir / name

    def list_matches(self) -> None:
        running = self.service.running()
        if not running:
            self.write(_("No matches are running."))
            return
        for match in running:
            clock = f" · {match.clock.settings.describe()}" if match.clock is not None else ""
            mark = "*" if match.id == self.current else " "
            self.write(f"{mark}{posts.summary_line(self.service, match)}{clock}")

    def named(self, match_ids: tuple[int, ...]) -> list[str]:
        named = []
        for match_id in match_ids:
            match = self.service.running_match(match_id)
            named.append(f"#{match_id} {self.service.game(match).title}" if match else f"#{match_id}")
        return named

    async def save(self, name: str, png: bytes) -> Path:
        """Save a picture under out_dir as `name` (built here, never typed) and remember it."""
        path = self._file(name)
        await asyncio.to_thread(_save, path, png)
        self.saved.append(path)
        return path


def _save(path: Path, png: bytes) -> None:
    ignored(path.parent)
    path.write_bytes(png)
