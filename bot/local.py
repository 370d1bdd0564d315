"""The offline terminal front-end: the same commands as the slash commands, typed at a prompt.

Players are named by typed names (`fish new alice bob`); a move is made for whoever is to move unless
`--as NAME` says otherwise. Every post is saved as a PNG under data/renders/ and its path printed. Clocks
run in real time, and flags are announced as they fall, between prompts.
"""

from __future__ import annotations

import asyncio
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from bot import posts
from bot.clock import ClockSettings
from bot.config import ROOT
from bot.games import GameError
from bot.models import Match, Player
from bot.service import DM_CLOCK, MatchService, Notice, ServiceError

MODERATOR = Player("local:moderator", "moderator")
RENDERS = ROOT / "data" / "renders"

HELP = """\
Commands (the same as the Discord slash commands; players are typed names):
  fish new ALICE BOB [--clock 30/60] [--first NAME] [--seed N] [--board 60-DIGITS]   a casual match
  fish dm ALICE BOB --first NAME [--move 30] [--reserve 60] [--no-house]             a best-of-3 death match
  fish move D4-F3 [--as NAME]     place (D4) or move (D4-F3) for the player to move, or for NAME
  fish board | fish moves | fish history | fish rules | fish resign [--as NAME]
  games                          running matches;  use ID   switch to match ID (most commands take --match ID)
  mod list | mod pause | mod resume | mod addtime NAME SECONDS | mod undo | mod adjudicate NAME|draw | mod abort
  help | quit"""


class CommandError(ValueError):
    """Bad command syntax; the message says what would be right."""


class Terminal:
    """Turns typed lines into service calls and notices into printed posts with saved PNGs."""

    def __init__(self, service: MatchService, out_dir: Path = RENDERS, write: Callable[[str], None] = print) -> None:
        self.service = service
        self.out_dir = out_dir
        self.write = write
        self.current: int | None = None
        self.saved: list[Path] = []
        service.subscribe(self.on_notice)

    # --- output ---

    async def on_notice(self, notice: Notice) -> None:
        """Print what happened; for board posts render and save the PNG, then start the clock."""
        match = notice.match
        if notice.kind == "started":
            self.current = match.id
        post = await asyncio.to_thread(posts.for_notice, self.service, notice, self.service.time.now())
        if post is None:
            self.write("\n".join(f"[#{match.id}] {line}" for line in notice.lines))
            return
        # named by what the post was too, so a final board does not overwrite the first one of its ply
        path = self.out_dir / f"match-{match.id}-ply-{match.ply:03d}-{notice.kind}.png"
        await asyncio.to_thread(_save, path, post.png)
        self.saved.append(path)
        self.write(f"[#{match.id}] " + post.text.replace("\n", f"\n[#{match.id}] ") + f"\n[#{match.id}] board: {path}")
        if match.running:
            await self.service.board_posted(match.id, match.ply)

    async def repost(self, match: Match, reason: str) -> None:
        await self.on_notice(Notice("board", match, (reason,)))

    # --- input ---

    async def handle(self, line: str) -> bool:
        """Run one typed command; False means quit. Bad input is answered and changes nothing."""
        try:
            words = shlex.split(line)
        except ValueError as error:
            self.write(f"Can't read that: {error}.")
            return True
        if not words:
            return True
        try:
            return await self._dispatch(words)
        except (CommandError, ServiceError, GameError) as error:
            self.write(f"✗ {error}")
        return True

    async def _dispatch(self, words: list[str]) -> bool:
        head, args = words[0].lower(), words[1:]
        if head in ("quit", "exit"):
            return False
        if head == "help":
            self.write(HELP)
        elif head == "games":
            self._list()
        elif head == "use":
            self.current = (await self.service.get(_number(_one(args, "use ID"), "match id"))).id
            self.write(f"Now on match #{self.current}.")
        elif head == "fish":
            await self._fish(args)
        elif head == "mod":
            await self._mod(args)
        else:
            raise CommandError(f"Unknown command {head!r}; type help for the list.")
        return True

    async def _fish(self, args: list[str]) -> None:
        if not args:
            raise CommandError("fish what? new, dm, move, board, moves, history, rules or resign.")
        sub, rest = args[0].lower(), args[1:]
        flags, names = _flags(rest)
        if sub == "new":
            players = _players(names)
            clock = _clock_flag(flags.pop("clock", None))
            options: dict[str, object] = {}
            if "first" in flags:
                options["first"] = _seat_named(players, flags.pop("first"))
            if "board" in flags:
                options["board"] = flags.pop("board")
            seed = _number(flags.pop("seed"), "seed") if "seed" in flags else None
            _no_more(flags)
            await self.service.create_match("fish", players, options=options, seed=seed, clock=clock)
        elif sub == "dm":
            players = _players(names)
            if "first" not in flags:
                raise CommandError("A death match needs --first NAME: who places first in game 1.")
            first = _seat_named(players, flags.pop("first"))
            move = _number(flags.pop("move", str(DM_CLOCK.move_seconds)), "--move")
            reserve = _number(flags.pop("reserve", str(DM_CLOCK.reserve_seconds)), "--reserve")
            house = flags.pop("no-house", None) is None
            _no_more(flags)
            await self.service.create_series(
                "fish", players, first=first, clock=_settings(move, reserve), house_wins=house
            )
        elif sub in ("move", "play"):
            if len(names) != 1:
                raise CommandError("Give one move, like: fish move D4-F3 (or fish move D4 to place).")
            match = await self._match(flags)
            player = self._actor(match, flags.pop("as", None))
            _no_more(flags)
            await self.service.move(match.id, player.id, names[0])
        elif sub == "board":
            match = await self._match(flags)
            _no_more(flags)
            await self.on_notice(Notice("board", match, ("The board as it stands:",)))
        elif sub == "moves":
            match = await self._match(flags)
            _no_more(flags)
            moves = self.service.game(match).legal_moves(match.state)
            self.write(
                f"{len(moves)} legal moves: " + " ".join(moves) if moves else "No legal moves: the game is over."
            )
        elif sub == "history":
            match = await self._match(flags)
            _no_more(flags)
            lines = posts.history_lines(match, await self.service.store.log(match.id))
            self.write("\n".join(lines) if lines else f"Match #{match.id}: no moves yet.")
        elif sub == "rules":
            self.write(self.service.games["fish"].rules_card)
        elif sub == "resign":
            match = await self._match(flags)
            player = self._actor(match, flags.pop("as", None))
            _no_more(flags)
            await self.service.resign(match.id, player.id)
        else:
            raise CommandError(f"Unknown fish command {sub!r}: new, dm, move, board, moves, history, rules, resign.")

    async def _mod(self, args: list[str]) -> None:
        if not args:
            raise CommandError("mod what? list, pause, resume, addtime NAME SECONDS, undo, adjudicate NAME or abort.")
        sub, rest = args[0].lower(), args[1:]
        flags, words = _flags(rest)
        if sub == "list":
            _no_more(flags)
            self._list()
            return
        match = await self._match(flags)
        _no_more(flags)
        if sub == "pause":
            await self.service.pause(match.id, MODERATOR)
        elif sub == "resume":
            await self.service.resume(match.id, MODERATOR)
        elif sub == "addtime":
            if len(words) != 2:
                raise CommandError("Use: mod addtime NAME SECONDS (negative seconds take time away).")
            player = _player_named(match, words[0])
            await self.service.add_time(match.id, MODERATOR, player.id, _number(words[1], "seconds"))
        elif sub == "undo":
            await self.service.undo(match.id, MODERATOR)
        elif sub == "adjudicate":
            if len(words) != 1:
                raise CommandError("Use: mod adjudicate NAME (the winner) or mod adjudicate draw.")
            winner = None if words[0].lower() == "draw" else _player_named(match, words[0]).id
            await self.service.adjudicate(match.id, MODERATOR, winner)
        elif sub == "abort":
            await self.service.abort(match.id, MODERATOR)
        else:
            raise CommandError(f"Unknown mod command {sub!r}: list, pause, resume, addtime, undo, adjudicate or abort.")

    # --- helpers ---

    async def _match(self, flags: dict[str, str]) -> Match:
        if "match" in flags:
            return await self.service.get(_number(flags.pop("match"), "--match"))
        if self.current is None:
            raise CommandError("No match yet: start one with fish new ALICE BOB (or pick one with use ID).")
        return await self.service.get(self.current)

    def _actor(self, match: Match, name: str | None) -> Player:
        if name is not None:
            return _player_named(match, name)
        seat = self.service.game(match).to_move(match.state) if match.running else None
        if seat is None:
            raise CommandError(f"Match #{match.id} is over: nobody is to move.")
        return match.players[seat]

    def _list(self) -> None:
        running = self.service.running()
        if not running:
            self.write("No matches are running.")
            return
        for match in running:
            clock = f" · {match.clock.settings.describe()}" if match.clock is not None else ""
            mark = "*" if match.id == self.current else " "
            self.write(f"{mark}{posts.summary_line(self.service, match)}{clock}")

    async def repl(self) -> None:
        """Read commands until quit or end of input; the event loop keeps clocks running meanwhile."""
        self.write(HELP)
        while True:
            try:
                line = await asyncio.to_thread(_prompt)
            except EOFError:
                return
            if not await self.handle(line):
                return


def _prompt() -> str:
    sys.stdout.write("> ")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def _save(path: Path, png: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)


def _flags(words: list[str]) -> tuple[dict[str, str], list[str]]:
    """Split `--name value` (and bare `--no-house`) from positional words."""
    flags: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--") and len(word) > 2:
            name = word[2:].lower()
            if name == "no-house":
                flags[name] = ""
            elif i + 1 < len(words):
                flags[name] = words[i + 1]
                i += 1
            else:
                raise CommandError(f"{word} needs a value.")
        else:
            rest.append(word)
        i += 1
    return flags, rest


def _no_more(flags: dict[str, str]) -> None:
    if flags:
        raise CommandError(f"Unknown option {', '.join('--' + f for f in flags)} for this command.")


def _one(words: list[str], usage: str) -> str:
    if len(words) != 1:
        raise CommandError(f"Use: {usage}.")
    return words[0]


def _number(text: str, what: str) -> int:
    try:
        return int(float(text))
    except ValueError:
        raise CommandError(f"{what} must be a number, not {text!r}.") from None


def _players(names: list[str]) -> list[Player]:
    if len(names) != 2:
        raise CommandError("Name two players, like: fish new alice bob.")
    if names[0].lower() == names[1].lower():
        raise CommandError("The two players need different names.")
    return [Player(f"local:{name.lower()}", name) for name in names]


def _seat_named(players: list[Player], name: str) -> int:
    for seat, player in enumerate(players):
        if player.name.lower() == name.lower():
            return seat
    raise CommandError(f"--first must be one of the players ({', '.join(p.name for p in players)}), not {name!r}.")


def _player_named(match: Match, name: str) -> Player:
    for player in match.players:
        if player.name.lower() == name.lower():
            return player
    raise CommandError(f"{name!r} is not playing in match #{match.id} ({', '.join(match.names)} are).")


def _clock_flag(text: str | None) -> ClockSettings | None:
    if text is None or text.lower() in ("none", "off"):
        return None
    move, _, reserve = text.partition("/")
    return _settings(_number(move, "the move clock"), _number(reserve or "0", "the reserve"))


def _settings(move: float, reserve: float) -> ClockSettings:
    try:
        return ClockSettings(move, reserve)
    except ValueError as error:
        raise CommandError(str(error)) from None
