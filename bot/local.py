"""The offline terminal front-end: the same commands as the slash commands, typed at a prompt.

Players are named by typed names (`fish new alice bob`, `volcano new alice bob carol`), and `computer`
(`computer:easy`, `computer:hard`) is a computer player, which moves by itself; a move is made for
whoever is to move unless `--as NAME` says otherwise. Each game's commands are its own `new` (and fish's `dm`,
volcano's `best`) plus the shared move, board, moves, history, rules and resign. Every post is saved as a
PNG under data/renders/ and its path printed. Clocks run in real time, and flags are announced as they fall,
between prompts.

Every line gets an answer and a refusal changes nothing: lines with control or bidirectional characters, or
longer than MAX_LINE, are refused whole; names are checked (`name_problem`: 1 to 32 printable characters, as
on Discord, no slashes); file names are built from match numbers and safe slugs, never from typed text; and a
failure inside the bot is logged and answered in one line, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import sys
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from bot import posts, records
from bot.backup import BackupError, backup, default_folder, size_text
from bot.clock import CLOCK_HELP, ClockError, ClockSettings, parse_clock, parse_seconds
from bot.computer import Analyst
from bot.config import ROOT
from bot.games import GAMES, BadOptions, Game, GameError
from bot.games.base import Option
from bot.models import Match, Player, computer
from bot.ratings import leaderboard_lines, stats_lines
from bot.service import DM_CLOCK, MatchService, Notice, ServiceError, TournamentNotice
from bot.service.settings import changed_count, settings_lines
from bot.solitaire import best_lines, best_scores
from bot.wording import a, listing
from renderers import Caption, render
from renderers.alt_text import text_board

log = logging.getLogger(__name__)
MODERATOR = Player("local:moderator", "moderator")
RENDERS = ROOT / "data" / "renders"


@dataclass(frozen=True, slots=True)
class NewCommand:
    """A game's `new` in the terminal. Its game options come from the engine's spec (`Game.options`: a
    flag each, `--turn-cap` for `turn_cap`); these are the terminal's own parts."""

    usage: str
    """How the players are named: "geyser new ALICE BOB [CAROL DAN]"."""
    example: str
    """An example, for a wrong number of players."""
    note: str
    """The end of its help line."""
    clock: bool = False
    """Whether it takes `--clock 30/60` (every game does: `1d/7d` too, bot/clock.py's notation)."""
    seed: bool = True
    """Whether it takes `--seed N` (Themiscyra has no chance: no seed)."""


NEW = {
    "fish": NewCommand("fish new ALICE BOB", "fish new alice bob", "a casual match", clock=True),
    "volcano": NewCommand(
        "volcano new ALICE [BOB ...]",
        "volcano new alice bob (one name plays solitaire)",
        "1 to 6 players (1: solitaire)",
        clock=True,
    ),
    "themiscyra": NewCommand(
        "themiscyra new BLACK WHITE",
        "themiscyra new alice bob (alice plays Black)",
        "Black moves first",
        clock=True,
        seed=False,
    ),
    "geyser": NewCommand(
        "geyser new ALICE BOB [CAROL DAN]", "geyser new alice bob carol", "2 to 4 players", clock=True
    ),
    "horizon": NewCommand("horizon new ALICE BOB", "horizon new alice bob", "Event Horizon", clock=True),
}
"""Each game's `new`; `new_help` writes its help lines from this and the game's options."""
NOTE_COLUMN = 85
"""Where the help's notes start (a longer command pushes its note on)."""


def metavar(option: Option) -> str:
    """What follows an option's flag in a usage line: a seat is a player's NAME, a number its default,
    a choice one that is not the default (`--seven calm`), a text its name in capitals."""
    if option.kind == "seat":
        return "NAME"
    if option.kind == "int":
        return str(option.default)
    if option.kind == "choice":
        return next((v for v in option.values if v != option.default), option.values[0])
    return option.name.upper()


def new_flags(key: str) -> list[str]:
    """The flags of `key new`, in the order the help lists them: the clock, the game's options, the seed."""
    command = NEW[key]
    options = [option.flag for option in GAMES[key].options.offered]
    return ["--clock"] * command.clock + options + ["--seed"] * command.seed


def new_usage(key: str) -> str:
    """`key new`'s usage, its flags built from the game's options: `[--tokens 12] [--seven calm]`."""
    command = NEW[key]
    parts = [command.usage] + ["[--clock 30/60]"] * command.clock
    parts += [f"[{o.flag} {metavar(o)}]" for o in GAMES[key].options.offered] + ["[--seed N]"] * command.seed
    return " ".join(parts)


def new_help(key: str) -> str:
    """The help lines of `key new`: the usage line with its note, then a line for each text option, which
    the usage line cannot say (`OPENING: where the caps start...`)."""
    lines = [f"{f'  {new_usage(key)}'.ljust(NOTE_COLUMN - 3)}   {NEW[key].note}"]
    lines += [f"      {metavar(o)}: {o.summary}" for o in GAMES[key].options.offered if o.kind == "text"]
    return "\n".join(lines)


def game_help(key: str) -> str:
    """`help GAME`: its `new`, then each of its flags, one a line, with what it takes."""
    rows = [("--clock 30/60", CLOCK_HELP)] if NEW[key].clock else []
    rows += [(f"{o.flag} {metavar(o)}", _takes(o)) for o in GAMES[key].options.offered]
    rows += [("--seed N", "the seed that decides the board, dice or cards (default: a random one)")] * NEW[key].seed
    width = max((len(flag) for flag, _ in rows), default=0)
    return "\n".join([f"{new_usage(key)}: {NEW[key].note}"] + [f"  {flag.ljust(width)}  {what}" for flag, what in rows])


def _takes(option: Option) -> str:
    """What an option takes, for `help GAME`: its help, what it allows and its default."""
    if option.kind == "int":
        return f"{option.help}, {option.minimum} to {option.maximum} (default {option.default})"
    if option.kind == "choice":
        return f"{option.summary}: {option.allowed(2)}"
    return option.summary


HELP = """\
Commands (the same as the Discord slash commands; players are typed names, and `computer` (or
computer:easy, computer:hard) is a computer player: fish new alice computer):
{fish}
  fish dm ALICE BOB --first NAME [--move 30] [--reserve 60] [--no-house]             a best-of-3 death match
{volcano}
  volcano best [OPENING]         the best solitaire scores, per opening and layout
{themiscyra}
{geyser}
{horizon}
  horizon hand [--as NAME]       your hand and the cards you know, with a private picture (hot seat: look away!)
  GAME move MOVE [--as NAME]     GAME is fish, volcano, themiscyra, geyser or horizon: fish move D4 or D4-F3;
                                 volcano move b2-c3 (a step) or b2-c3, c3-d4 (a whole turn); themiscyra move
                                 e5 e8 @e8 (setup) or e5 e8 c3>e8; geyser move start f1, f6-f7, place e6, skip,
                                 again, retreat or pass; horizon move place F2 opp:5, swap me:5 F2 or pass;
                                 for the player to move, or for NAME
  GAME board [--areas] [--text] | GAME history | GAME rules | GAME resign [--as NAME]
                                 (--areas: themiscyra; --text: the position in words, for a screen reader)
  GAME takeback [--as NAME]      ask the others to let you take back your last move (casual games); they
                                 answer with GAME accept [--as NAME] or GAME decline [--as NAME]
  GAME claim [--as NAME]         claim an untimed game whose player to move has not moved for 7 days (claim_after)
  GAME moves [FILTER]            the legal moves, a group a line (by stone pair, token, cap or card); FILTER
                                 narrows them: themiscyra moves e5 e8, fish moves D4, horizon moves F2
  GAME record [--match ID]       a finished match's record (players, seed, every move, result) as data/records/*.json
  GAME analysis [ID]             a finished match's chances to win, move by move, with its largest swings (a PNG)
  replay FILE.json               replay a record: prints the result, saves the final board PNG and the replay GIF
  games                          running matches;  use ID   switch to match ID (most commands take --match ID)
  leaderboard GAME | stats NAME  Glicko-2 ratings of games between people (offline ones are rated on their own)
  notify NAME dm|thread|off      how NAME is reminded of a long turn (offline, dm and thread both print it here)
  mygames NAME                   NAME's running matches, NAME's turn first, with the deadlines
  away NAME DAYS | back NAME     away time: NAME's long clocks (an hour a move or more) wait 1 to 14 days (14 a year)
  mod list | mod pause | mod resume | mod addtime NAME SECONDS | mod undo | mod adjudicate NAME|draw | mod abort
  mod backup                     back the database up now (BACKUP_DIR; restore: see README)
  tournament new GAME FORMAT [--rounds N] [--clock C] [--seats N] [--series dm]   FORMAT: knockout, roundrobin
                                 or swiss; then tournament join NAME | leave NAME | start | standings | record
                                 (the newest tournament; its games open as matches, played as usual)
  settings                       the terminal's settings (house_wins, rated, default_clock, reminders, away_days,
                                 claim_after); settings set KEY VALUE changes one, settings reset KEY undoes it
  help | help GAME (a game's options, one a line) | quit""".format(**{key: new_help(key) for key in NEW})

SHARED = (
    "move",
    "board",
    "moves",
    "history",
    "rules",
    "resign",
    "record",
    "analysis",
    "takeback",
    "accept",
    "decline",
    "claim",
)
"""The commands every game has, written once (`play` is another name for `move`)."""
OWN = {
    "fish": ("new", "dm"),
    "volcano": ("new", "best"),
    "themiscyra": ("new",),
    "geyser": ("new",),
    "horizon": ("new", "hand"),
}
"""Each game's own commands, before the shared ones."""
AGREEMENTS: dict[str, Callable[[MatchService, int, str], Awaitable[Notice]]] = {
    "takeback": lambda service, match_id, player_id: service.request_takeback(match_id, player_id),
    "accept": lambda service, match_id, player_id: service.answer_takeback(match_id, player_id, True),
    "decline": lambda service, match_id, player_id: service.answer_takeback(match_id, player_id, False),
    "claim": lambda service, match_id, player_id: service.claim(match_id, player_id),
}
"""The shared commands one person does by name in a hot seat: ask for a takeback, answer it, claim."""
MOVE_USAGE = {
    "fish": "Give one move, like: fish move D4-F3 (or fish move D4 to place).",
    "volcano": "Give a step or a whole turn, like: volcano move b2-c3 (or volcano move b2-c3, c3-d4).",
    "themiscyra": "Give a whole turn, like: themiscyra move e5 e8 @e8 (setup) or themiscyra move e5 e8 c3>e8.",
    "geyser": "Give a move, like: geyser move f6-f7 (or start f1, place e6, skip, again, retreat, pass).",
    "horizon": "Give a move, like: horizon move place F2 opp:5 (or swap me:5 F2, or pass).",
}
GROUPS_SHOWN = 40
"""`moves` lists at most this many groups, one a line (a Themiscyra opening has 1,470 stone pairs)."""
MAX_LINE = 4_000
"""Characters in a typed line at most (the longest real command is a few hundred)."""
NAME_LIMIT = 32
"""Characters in a player's name at most, as in a Discord display name."""
MAX_ADDTIME = 86_400
"""`mod addtime` gives 1 s to 24 h, the range the service takes (the Discord command's bound too)."""
MAX_MESSAGE = 500
"""A refusal is one short line: a longer one (an engine's, quoting a long move) is cut to this."""


class CommandError(ValueError):
    """Bad command syntax; the message says what would be right."""


class Terminal:
    """Turns typed lines into service calls and notices into printed posts with saved PNGs."""

    def __init__(
        self,
        service: MatchService,
        out_dir: Path = RENDERS,
        write: Callable[[str], None] = print,
        analyst: Analyst | None = None,
    ) -> None:
        self.service = service
        self.out_dir = out_dir
        self.write = write
        self.analyst = analyst or Analyst(service)
        """`GAME analysis`: its worker process starts on the first one."""
        self.current: int | None = None
        self.saved: list[Path] = []
        self.backup_dir: Path = default_folder(service.store.path)  # run_offline sets BACKUP_DIR and BACKUP_KEEP
        self.backup_keep: int | None = None
        self.tournament: int | None = None
        """The tournament the `tournament` commands are about (the newest offline one, by default)."""
        service.subscribe(self.on_notice)
        service.subscribe_tournaments(self.on_tournament)

    # --- output ---

    async def on_notice(self, notice: Notice, overlays: frozenset[str] = frozenset()) -> None:
        """Print what happened; for board posts render and save the PNG, then start the clock."""
        match = notice.match
        if notice.kind == "reminder" and notice.to is not None:  # no DM offline: every reminder is printed
            said = posts.plain_times("; ".join(notice.lines), self.service.time.now())
            self.write(f"[#{match.id}] reminder for {notice.to.name}: {said}.")
            return
        if notice.kind == "started":
            self.current = match.id
        now = self.service.time.now()
        post = await asyncio.to_thread(posts.for_notice, self.service, notice, now, overlays)
        if post is None:
            plain = (posts.plain_times(line, now) for line in notice.lines)  # away time's end is a timestamp
            self.write("\n".join(f"[#{match.id}] {line}" for line in plain))
            return
        # named by what the post was too, so a final board does not overwrite the first one of its ply
        kind = "-".join([notice.kind, *sorted(overlays)])
        path = self._file(f"match-{match.id}-ply-{match.ply:03d}-{kind}.png")
        await asyncio.to_thread(_save, path, post.png)
        self.saved.append(path)
        replay = ""
        if notice.kind == "over":  # the animated replay, beside the board PNGs
            gif = self._file(f"match-{match.id}-replay.gif")
            try:
                await asyncio.to_thread(_save, gif, await records.replay_for(self.service, match))
                self.saved.append(gif)
                replay = f"\n[#{match.id}] replay: {gif}"
            except Exception:  # the final board is shown anyway
                log.exception("could not build the replay of match %s", match.id)
        self.write(
            f"[#{match.id}] " + post.text.replace("\n", f"\n[#{match.id}] ") + replay + f"\n[#{match.id}] board: {path}"
        )
        if match.running:
            await self.service.board_posted(match.id, match.ply)

    async def repost(self, match: Match, reason: str) -> None:
        await self.on_notice(Notice("board", match, (reason,)))

    # --- input ---

    async def handle(self, line: str) -> bool:
        """Run one typed command; False means quit. Bad input is answered and changes nothing; a failure
        inside the bot is logged and answered too, so every line gets an answer and never a traceback."""
        problem = _line_problem(line)
        if problem is not None:
            self.write(f"✗ {problem}")
            return True
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
            self.write(f"✗ {_clip(str(error))}")
        except Exception:  # a bug: the terminal goes on, and the log has the details
            log.exception("the terminal command %s failed", _quote(line))
            self.write("✗ Something went wrong on our side (the details are in the log); try another command.")
        return True

    async def _dispatch(self, words: list[str]) -> bool:
        head, args = words[0].lower(), words[1:]
        if head in ("quit", "exit"):
            return False
        if head == "help":
            topic = " ".join(args).lower()
            if topic and topic not in NEW:
                raise CommandError(f"help takes a game ({listing(list(NEW), 'or')}), not {_quote(topic)}.")
            self.write(game_help(topic) if topic else HELP)
        elif head == "leaderboard":
            await self._leaderboard(args)
        elif head == "stats":
            await self._stats(args)
        elif head in ("mygames", "away", "back"):
            await self._player(head, args)
        elif head == "notify":
            await self._notify(args)
        elif head == "games":
            self._list()
        elif head == "replay":
            file = Path(_one(args, "replay FILE.json (a record written by GAME record)"))
            self.write("\n".join(await asyncio.to_thread(records.replay_file, file, self.out_dir)))
        elif head == "use":
            self.current = (await self.service.get(_number(_one(args, "use ID"), "match id"))).id
            self.write(f"Now on match #{self.current}.")
        elif head in OWN:
            await self._game(head, args)
        elif head == "mod":
            await self._mod(args)
        elif head == "settings":
            await self._settings(args)
        elif head == "tournament":
            await self._tournament(args)
        else:
            raise CommandError(f"Unknown command {_quote(head)}; type help for the list.")
        return True

    async def _game(self, key: str, args: list[str]) -> None:
        """`fish ...` or `volcano ...`: the game's own commands, else the shared ones."""
        names = (*OWN[key], *SHARED)
        choices = listing(list(names), "or")
        if not args:
            raise CommandError(f"{key} what? {choices}.")
        sub, rest = args[0].lower(), args[1:]
        flags, words = _flags(rest)
        own = {
            ("fish", "dm"): self._fish_dm,
            ("volcano", "best"): self._volcano_best,
            ("horizon", "hand"): self._horizon_hand,
        }
        if sub == "new" and key in NEW:
            await self._new(key, flags, words)
        elif (key, sub) in own:
            await own[key, sub](flags, words)
        elif sub in SHARED or sub == "play":
            await self._shared(key, "move" if sub == "play" else sub, flags, words)
        else:
            raise CommandError(f"Unknown {key} command {_quote(sub)}: {choices}.")

    async def _shared(self, key: str, sub: str, flags: dict[str, str], words: list[str]) -> None:
        """move, board, moves, history, rules and resign, the same for every game."""
        if sub == "move":
            if not words:
                raise CommandError(MOVE_USAGE[key])
            match = await self._match(flags, key)
            player = self._actor(match, flags.pop("as", None))
            _no_more(flags)
            # a whole Volcano turn arrives as several words (b2-c3, c3-d4); the engine reads the joined text
            try:
                await self.service.move(match.id, player.id, " ".join(words))
            except (ServiceError, GameError) as error:
                raise CommandError(_addressed(match, player, str(error))) from None
            return
        if sub == "analysis":
            await self._analysis(key, flags, words)
            return
        typed = " ".join(words) if sub == "moves" else ""  # `themiscyra moves e5 e8`: only those moves
        _no_words([] if sub == "moves" else words, f"{key} {sub}")
        if sub == "rules":
            _no_more(flags)
            self.write(self.service.games[key].rules_card)
            return
        match = await self._match(flags, key)
        if sub in AGREEMENTS:
            player = await self._agreeing(match, sub, flags.pop("as", None))
            _no_more(flags)
            try:
                notice = await AGREEMENTS[sub](self.service, match.id, player.id)
            except (ServiceError, GameError) as error:
                raise CommandError(_addressed(match, player, str(error))) from None
            if notice.kind == "takeback":
                self.write(f"[#{match.id}] (answer with {key} accept --as NAME or {key} decline --as NAME)")
            return
        if sub == "resign":
            player = self._actor(match, flags.pop("as", None), doing="resign")
            _no_more(flags)
            try:
                await self.service.resign(match.id, player.id)
            except (ServiceError, GameError) as error:
                raise CommandError(_addressed(match, player, str(error))) from None
            return
        areas = key == "themiscyra" and sub == "board" and flags.pop("areas", None) is not None
        overlays = frozenset({"areas"}) if areas else frozenset()
        text = sub == "board" and flags.pop("text", None) is not None
        _no_more(flags)
        if text:  # the position in words (renderers/alt_text.py), for a screen reader; no picture
            caption = posts.caption(self.service, match, self.service.time.now())
            self.write(text_board(match.game, match.state, caption))
        elif sub == "board":
            await self.on_notice(Notice("board", match, ("The board as it stands:",)), overlays)
        elif sub == "moves":
            game = self.service.game(match)
            moves = game.legal_moves(match.state) if match.running else []
            lines = posts.moves_lines(game, moves, typed, most=GROUPS_SHOWN, command=f"{key} moves")
            self.write("\n".join(lines) if moves else "No legal moves: the game is over.")
        elif sub == "history":
            lines = posts.history_lines(match, await self.service.store.log(match.id), self.service.game(match))
            self.write("\n".join(lines) if lines else f"Match #{match.id}: no moves yet.")
        elif sub == "record":  # bot/records.py: refused while the match runs (the seed is still secret)
            record = await records.build_record(self.service, match.id)
            path = await asyncio.to_thread(records.save_record, record, self.out_dir.parent / "records")
            self.write(f"Record of match #{match.id}: {path}")

    async def _analysis(self, key: str, flags: dict[str, str], words: list[str]) -> None:
        """`GAME analysis [ID]` (or `--match ID`, or the current match): the words, and the graph as a PNG."""
        if len(words) > 1:
            raise CommandError(f"Use: {key} analysis [ID] (a finished match's number; default: the current match).")
        if words:
            flags["match"] = words[0]
        match = await self._match(flags, key)
        _no_more(flags)
        self.analyst.check(match)  # still running, aborted, solitaire: refused before any work
        self.write(f"[#{match.id}] analysing (a few seconds)…")
        report = await self.analyst.report(match)
        path = self._file(f"match-{match.id}-analysis.png")
        await asyncio.to_thread(_save, path, report.png)
        self.saved.append(path)
        said = report.text.replace("\n", f"\n[#{match.id}] ")
        self.write(f"[#{match.id}] {said}\n[#{match.id}] picture: {path}")

    async def _new(self, key: str, flags: dict[str, str], names: list[str]) -> None:
        """`GAME new`, for every game: the players, the clock and seed where it takes them, and a flag for
        each option of the game's spec, checked against it (the engine checks what a text says)."""
        command, game = NEW[key], self.service.games[key]
        players = _players(game, names, command.example)
        clock = None
        if command.clock:  # without --clock, the terminal's default_clock setting (none unless set)
            clock = _clock(flags.pop("clock")) if "clock" in flags else self.service.default_clock(None)
        options: dict[str, object] = {}
        for option in game.options.offered:
            if option.flag[2:] in flags:
                options[option.name] = _option_value(option, flags.pop(option.flag[2:]), players)
        seed = _seed(flags) if command.seed else None
        _no_more(flags, f"{key} new", new_flags(key))
        await self.service.create_match(key, players, options=options, seed=seed, clock=clock)

    async def _horizon_hand(self, flags: dict[str, str], words: list[str]) -> None:
        """The hot-seat terminal's private view: the hand in words and a picture drawn from that seat."""
        _no_words(words, "horizon hand")
        match = await self._match(flags, "horizon")
        player = self._actor(match, flags.pop("as", None), doing="look")
        _no_more(flags)
        seat = match.seats_of(player.id)[0]
        game = self.service.games["horizon"]
        lines = [line.format(*match.names) for line in game.private_lines(match.state, seat)]  # type: ignore[attr-defined]
        caption = Caption(names=match.names, header=f"Match #{match.id} · {player.name}'s private view")
        png = await asyncio.to_thread(render, "horizon", match.state, seat, caption=caption)
        slug = _slug(player.name)  # the seat keeps two names of one slug apart (zoë and zoé: zo)
        path = self._file(f"match-{match.id}-ply-{match.ply:03d}-hand-{seat + 1}{f'-{slug}' if slug else ''}.png")
        await asyncio.to_thread(_save, path, png)
        self.saved.append(path)
        self.write("\n".join([f"{player.name}, for your eyes only:", *lines, f"picture: {path}"]))

    async def _fish_dm(self, flags: dict[str, str], names: list[str]) -> None:
        players = _players(self.service.games["fish"], names, "fish dm alice bob --first alice")
        if "first" not in flags:
            raise CommandError("A death match needs --first NAME: who places first in game 1.")
        first = _seat_named(players, flags.pop("first"))
        try:  # the seconds as bot/clock.py reads them, like a --clock's
            move = parse_seconds(flags.pop("move"), "the move clock") if "move" in flags else DM_CLOCK.move_seconds
            reserve = parse_seconds(flags.pop("reserve"), "the reserve") if "reserve" in flags else None
            clock = ClockSettings(move, DM_CLOCK.reserve_seconds if reserve is None else reserve)
        except ClockError as error:
            raise CommandError(str(error)) from None
        house = False if flags.pop("no-house", None) is not None else None  # None: the house_wins setting
        _no_more(flags)
        await self.service.create_series("fish", players, first=first, clock=clock, house_wins=house)

    async def _volcano_best(self, flags: dict[str, str], words: list[str]) -> None:
        _no_more(flags)
        opening = " ".join(words) or None  # five squares may come unquoted: volcano best a1 b3 c3 d2 e5
        # offline matches have no server (guild None), so these are the terminal's own records
        self.write("\n".join(best_lines(await best_scores(self.service, None, opening), opening)))

    async def _leaderboard(self, args: list[str]) -> None:
        key = _one(args, f"leaderboard GAME ({', '.join(sorted(self.service.games))})").lower()
        top = await self.service.leaderboard(None, key)  # refuses an unknown game
        self.write("\n".join(leaderboard_lines(self.service.games[key].title, top)))

    async def _stats(self, args: list[str]) -> None:
        name = _checked_name(_one(args, "stats NAME"))
        rows = await self.service.stats(None, f"local:{name.lower()}")  # the id `_players` gives a typed name
        titles = {key: game.title for key, game in self.service.games.items()}
        self.write("\n".join(stats_lines(rows[0].name if rows else name, rows, titles)))

    async def _player(self, head: str, args: list[str]) -> None:
        """`mygames NAME`, `away NAME DAYS` and `back NAME`: Discord's /mygames, /away and /back for a typed
        name, offline (the terminal is a server of its own)."""
        usage = {"mygames": "mygames NAME", "away": "away NAME DAYS (1 to 14)", "back": "back NAME"}[head]
        if len(args) != (2 if head == "away" else 1):
            raise CommandError(f"Use: {usage}.")
        name = _checked_name(args[0])
        player = Player(f"local:{name.lower()}", name)  # the id `_players` gives a typed name
        now = self.service.time.now()
        if head == "mygames":
            found = self.service.my_games(player.id, None)
            lines = posts.my_games_lines(self.service, found, player.id, discord=False)
            self.write("\n".join(posts.plain_times(line, now) for line in lines) or f"{name} has no running matches.")
            return
        try:
            if head == "away":
                days = args[1]
                if not (days.isascii() and days.isdigit() and len(days) <= 3):
                    raise CommandError(f"DAYS is a whole number of days, 1 to 14, not {_quote(days)}.")
                answer = await self.service.away(player, None, int(days))
                said = posts.away_answer(
                    answer.period.until, self._named(answer.matches), answer.left, answer.extended, f"back {name}"
                )
            else:
                answer = await self.service.back(player, None)
                taken = answer.period.taken(answer.period.ended_at or now)
                said = [posts.back_answer(taken, self._named(answer.matches), answer.left)]
        except ServiceError as error:
            raise CommandError(_addressed_to(name, posts.plain_times(str(error), now))) from None
        self.write(
            "\n".join(posts.plain_times(f"{name}: {line}" if i == 0 else line, now) for i, line in enumerate(said))
        )

    def _named(self, match_ids: tuple[int, ...]) -> list[str]:
        named = []
        for match_id in match_ids:
            match = self.service.running_match(match_id)
            named.append(f"#{match_id} {self.service.game(match).title}" if match else f"#{match_id}")
        return named

    async def _notify(self, args: list[str]) -> None:
        """`notify NAME dm|thread|off`: the choice Discord's /notify makes, for a typed name."""
        if len(args) != 2:
            raise CommandError("Use: notify NAME dm|thread|off (how NAME is reminded of a turn).")
        name = _checked_name(args[0])
        mode = await self.service.set_notify_choice(f"local:{name.lower()}", args[1])  # the id `_players` gives
        said = {
            "off": "no reminders of a turn",
            "dm": "reminders of a turn printed here (offline there is no DM)",
            "thread": "reminders of a turn printed here",
        }
        self.write(f"{name}: {said[mode]}.")

    async def _mod(self, args: list[str]) -> None:
        if not args:
            raise CommandError(
                "mod what? list, pause, resume, addtime NAME SECONDS, undo, adjudicate NAME, abort or backup."
            )
        sub, rest = args[0].lower(), args[1:]
        flags, words = _flags(rest)
        if sub == "list":
            _no_more(flags)
            self._list()
            return
        if sub == "backup":
            _no_more(flags)
            _no_words(words, "mod backup")
            try:
                path = await backup(self.service.store, self.backup_dir, self.backup_keep)
            except BackupError as error:
                raise CommandError(f"The backup failed: {error}.") from None
            self.write(f"Backed up to {path} ({size_text(path.stat().st_size)}, integrity ok).")
            return
        match = await self._match(flags)
        _no_more(flags)
        if sub == "pause":
            await self.service.pause(match.id, MODERATOR)
        elif sub == "resume":
            await self.service.resume(match.id, MODERATOR)
        elif sub == "addtime":
            if len(words) != 2:
                raise CommandError(f"Use: mod addtime NAME SECONDS (whole seconds, 1 to {MAX_ADDTIME:,}).")
            player = _player_named(match, words[0])
            await self.service.add_time(match.id, MODERATOR, player.id, _added_seconds(words[1]))
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
            raise CommandError(
                f"Unknown mod command {sub!r}: list, pause, resume, addtime, undo, adjudicate, abort or backup."
            )

    async def on_tournament(self, notice: TournamentNotice) -> None:
        """Print what happened to an offline tournament (a new round's pairings, a withdrawal, its end)."""
        if notice.held.place.guild_id is None:
            self.write("\n".join(f"[tournament #{notice.held.id}] {line}" for line in notice.lines))

    async def _tournament(self, args: list[str]) -> None:
        """`tournament new GAME FORMAT ...`, `join NAME`, `leave NAME`, `start`, `standings`, `record`."""
        usage = "tournament new GAME FORMAT [--rounds N] [--clock C] [--seats N] [--series dm], or join NAME,"
        usage += " leave NAME, start, standings or record"
        if not args:
            raise CommandError(f"Use: {usage}.")
        sub, (flags, words) = args[0].lower(), _flags(args[1:])
        service = self.service
        if sub == "new":
            if len(words) != 2:
                raise CommandError("Use: tournament new GAME FORMAT (FORMAT: knockout, roundrobin or swiss).")
            rounds = _number(flags.pop("rounds"), "--rounds") if "rounds" in flags else None
            seats = _number(flags.pop("seats"), "--seats") if "seats" in flags else None
            clock, series = flags.pop("clock", None), flags.pop("series", "single")
            _no_more(flags, "tournament new", ["--rounds", "--clock", "--seats", "--series"])
            held = await service.open_tournament(
                words[0].lower(), words[1].lower(), MODERATOR, rounds=rounds, clock=clock, series=series, seats=seats
            )
            self.tournament = held.id
            self.write(f"Tournament #{held.id} is open: tournament join NAME signs a player up; then tournament start.")
            return
        _no_more(flags)
        tid = await self._tournament_id()
        if sub in ("join", "leave"):
            name = _checked_name(_one(words, f"tournament {sub} NAME"))
            player = Player(f"local:{name.lower()}", name)
            if sub == "join":
                held = await service.join_tournament(tid, player)
                self.write(f"{name} signed up ({len(held.tournament.entrants)} so far).")
            else:
                held = await service.leave_tournament(tid, player)
                self.write(f"{name} {'left the sign-up' if held.status == 'open' else 'withdrew'}.")
        elif sub == "start":
            _no_words(words, "tournament start")
            await service.start_tournament(tid, MODERATOR)
        elif sub == "standings":
            from renderers import tournament as picture

            _no_words(words, "tournament standings")
            t = (await service.get_tournament(tid)).tournament
            path = self._file(f"tournament-{tid}-standings.png")
            await asyncio.to_thread(_save, path, await asyncio.to_thread(picture.render, t))
            self.saved.append(path)
            self.write(picture.as_text(t) + f"\npicture: {path}")
        elif sub == "record":
            _no_words(words, "tournament record")
            record = await service.tournament_record(tid)
            folder = self.out_dir.parent / "records"
            path = folder / record.filename
            await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
            await asyncio.to_thread(path.write_text, record.dumps(), "utf-8")
            self.write(f"Record of tournament #{tid}: {path}")
        else:
            raise CommandError(f"Use: {usage}.")

    async def _tournament_id(self) -> int:
        if self.tournament is None:
            found = await self.service.tournaments(None, ("open", "running", "over"))
            if not found:
                raise CommandError("There is no tournament yet: tournament new GAME FORMAT opens one.")
            self.tournament = found[-1].id
        return self.tournament

    async def _settings(self, args: list[str]) -> None:
        """`settings`, `settings set KEY VALUE`, `settings reset KEY`: Discord's /settings for the terminal,
        whose games are a server of their own (offline, guild None) and whose typist is its moderator."""
        usage = "settings, settings set KEY VALUE or settings reset KEY"
        sub = args[0].lower() if args else "show"
        now = self.service.time.now()
        if sub == "show" and len(args) <= 1:
            states = self.service.settings(None)
            head = (
                f"The terminal's settings ({changed_count(states)}). Change one with settings set KEY VALUE, put it"
                " back with settings reset KEY."
            )
            lines = settings_lines(states, lambda by: by.partition(":")[2] or by, lambda at: f"<t:{int(at)}:f>")
            self.write(posts.plain_times("\n".join([head, *lines]), now))
        elif sub == "set" and len(args) >= 3:
            change = await self.service.set_setting(None, args[1], " ".join(args[2:]), MODERATOR)
            self.write(change.line)
        elif sub == "reset" and len(args) == 2:
            change = await self.service.reset_setting(None, args[1], MODERATOR)
            self.write(change.line)
        else:
            raise CommandError(f"Use: {usage}.")

    # --- helpers ---

    async def _match(self, flags: dict[str, str], key: str | None = None) -> Match:
        """The match named by --match, else the current one; for a game's command, a match of that game."""
        if "match" in flags:
            match = await self.service.get(_number(flags.pop("match"), "--match"))
        elif self.current is None:
            start = NEW[key].usage if key else listing([command.usage for command in NEW.values()], "or")
            raise CommandError(f"No match yet: start one with {start} (or pick one with use ID).")
        else:
            match = await self.service.get(self.current)
        if key is not None and match.game != key:
            title = self.service.games[key].title
            raise CommandError(
                f"Match #{match.id} is a game of {self.service.game(match).title}, not {title}: "
                f"use {match.game} commands for it, or pick {a(title)} match with --match ID or use ID."
            )
        return match

    def _actor(self, match: Match, name: str | None, doing: str = "move") -> Player:
        """Who a typed command is for: `--as NAME`, else whoever is to move (never a computer). `doing` is
        what the command does for them (move, resign, or look at the hand), for the refusal's words."""
        if name is not None:
            player = _player_named(match, name)
        else:
            seat = self.service.game(match).to_move(match.state) if match.running else None
            if seat is None:
                whose = " (say whose hand with --as NAME)" if doing == "look" else ""
                raise CommandError(f"Match #{match.id} is over: nobody is to move{whose}.")
            player = match.players[seat]
        if player.is_computer and doing == "look":
            raise CommandError(
                f"{player.name}'s hand is hidden: a computer player shows its cards to nobody "
                "(see a person's hand with --as NAME)."
            )
        if player.is_computer and doing == "resign":
            raise CommandError(f"{player.name} plays for itself: only a person can resign, so name one with --as NAME.")
        if player.is_computer:
            raise CommandError(f"{player.name} plays for itself: wait for its move, or play as someone else (--as).")
        return player

    async def _agreeing(self, match: Match, sub: str, name: str | None) -> Player:
        """Who a takeback, an answer to one or a claim is for: `--as NAME`, else the one person it can be (who
        moved last asks, the one person still to answer answers, the one person not to move claims)."""
        if name is not None:
            player = _player_named(match, name)
            if player.is_computer:
                raise CommandError(f"{player.name} plays for itself: name a person with --as NAME.")
            return player
        people: list[Player] = []
        if sub == "takeback":
            moved = [match.players[r.seat] for r in await self.service.moves(match.id)]
            people = [p for p in moved if not p.is_computer][-1:]
        elif sub == "claim" and match.running:
            mover = self.service.game(match).to_move(match.state)
            people = [p for s, p in enumerate(match.players) if s != mover and not p.is_computer]
        elif sub != "claim":
            takeback = self.service.open_takeback(match.id)
            if takeback is None:
                raise CommandError(f"No takeback request is waiting for an answer in match #{match.id}.")
            people = self.service.takeback_waiting(match, takeback)
        people = list(dict.fromkeys(people))
        if len(people) != 1:
            who = {"takeback": "asks", "claim": "claims"}.get(sub, "answers")
            names = f" ({listing([p.name for p in people], 'or')})" if people else ""
            raise CommandError(f"Say who {who} with --as NAME{names}.")
        return people[0]

    def _file(self, name: str) -> Path:
        """A file directly in out_dir (data/renders/): the name is built here, never typed, and one that
        would lead anywhere else is a bug, refused rather than written."""
        if Path(name).name != name or name in (".", "..") or "\0" in name or len(name.encode()) > 200:
            raise ValueError(f"not a plain file name: {name!r}")
        return self.out_dir / name

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
        await self.service.resume_tournaments()  # a round or closing time that came while it was off
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
    """Split `--name value` (and the bare `--no-house`, `--areas` and `--text`) from positional words."""
    flags: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--") and len(word) > 2:
            name = word[2:].lower()
            if name in ("no-house", "areas", "text"):
                flags[name] = ""
            elif i + 1 < len(words):
                flags[name] = words[i + 1]
                i += 1
            else:
                raise CommandError(f"{_clip(word, 40)} needs a value.")
        else:
            rest.append(word)
        i += 1
    return flags, rest


def _no_more(flags: dict[str, str], command: str = "", known: list[str] | None = None) -> None:
    """Refuse the flags left over; for `command` (`geyser new`), naming the `known` ones it takes."""
    if flags:
        unknown = _clip(", ".join("--" + f for f in flags), 80)
        if not command:
            raise CommandError(f"Unknown option {unknown} for this command.")
        takes = f"it takes {', '.join(known)}" if known else "it takes none"
        raise CommandError(f"Unknown option {unknown} for {command} ({takes}).")


def _no_words(words: list[str], command: str) -> None:
    if words:
        raise CommandError(f"{command} takes no words ({_quote(' '.join(words))} is too much); options start with --.")


def _one(words: list[str], usage: str) -> str:
    if len(words) != 1:
        raise CommandError(f"Use: {usage}.")
    return words[0]


def _number(text: str, what: str) -> int:
    try:
        number = int(text) if text.strip().lstrip("+-").isdigit() else int(float(text))
    except (ValueError, OverflowError):
        what = what[:1].upper() + what[1:]  # a sentence: "The move clock must be a number"
        raise CommandError(f"{what} must be a number, not {_quote(text)}.") from None
    if abs(number) >= 2**53:  # the database keeps 64-bit numbers; nothing here needs more than this
        raise CommandError(f"{what[:1].upper() + what[1:]} is too large: {_clip(text, 40)}.")
    return number


def _addressed(match: Match, player: Player, message: str) -> str:
    """A refusal that says "you", named for `player` when several people share the keyboard (hot seat):
    "bob, you have no Swap card in your hand." (a match with one person keeps it as it is)."""
    people = {p.id for p in match.players if not p.is_computer}
    if len(people) < 2 or not re.search(r"\b(?:you|your|yours)\b", message, re.IGNORECASE):
        return message
    if message.startswith("You "):
        return f"{player.name}, you {message[4:]}"
    return f"{player.name}: {message}"


def _addressed_to(name: str, message: str) -> str:
    """A refusal to a typed name (`away`, `back`): `alice: you are not away here, …`."""
    return f"{name}: {message[:1].lower()}{message[1:]}" if message.startswith("You ") else f"{name}: {message}"


def _added_seconds(text: str) -> int:
    """`mod addtime`'s SECONDS: a whole number from 1 to MAX_ADDTIME (the terminal gives time, never takes it)."""
    digits = text.removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and 1 <= int(digits) <= MAX_ADDTIME):
        raise CommandError(f"mod addtime gives 1 to {MAX_ADDTIME:,} whole seconds (24 hours), not {_quote(text)}.")
    return int(digits)


def _line_problem(line: str) -> str | None:
    """Why a typed line is refused whole (None if it is not): too long, or holding a control character (NUL,
    escape...) or a bidirectional override, which no command needs and which would garble what is printed."""
    text = line.rstrip("\r\n")
    if len(text) > MAX_LINE:
        return f"That line is {len(text):,} characters long; a command is at most {MAX_LINE:,}."
    for char in text:
        if char not in "\t\r\n" and (char in records.BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp")):
            return f"That line holds {_char(char)}, a control or bidirectional character; type plain text."
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None if it can): as on Discord, 1 to NAME_LIMIT characters,
    all printable (no control, invisible or bidirectional ones), and no slashes (a name is never a path)."""
    if not name.strip():
        return "A player's name cannot be empty."
    shown = _quote(name)
    if len(name) > NAME_LIMIT:
        return f"A player's name is 1 to {NAME_LIMIT} characters, as on Discord ({shown} has {len(name):,})."
    if name != name.strip():
        return f"A player's name cannot start or end with a space ({shown})."
    odd = next((char for char in name if not char.isprintable()), None)
    if odd is not None:
        return f"A player's name must be printable: {shown} holds {_char(odd)}."
    if "/" in name or "\\" in name:
        return f"A player's name cannot hold / or \\ ({shown})."
    return None


def _checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise CommandError(problem)
    return name


def _quote(text: str, limit: int = 40) -> str:
    """`text` quoted for a message (control characters escaped), cut short if long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


def _clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _char(char: str) -> str:
    """A character by its code point and name: U+202E (right-to-left override), U+0000."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def _slug(name: str) -> str:
    """A file-name-safe form of a name: lower-case ASCII letters and digits joined by dashes (may be empty)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:NAME_LIMIT]


def _seed(flags: dict[str, str]) -> int | None:
    return _number(flags.pop("seed"), "--seed") if "seed" in flags else None


def _players(game: Game, names: list[str], example: str) -> list[Player]:
    """Players for a new match of `game`, named by distinct typed names (case does not count)."""
    low, high = game.min_players, game.max_players
    if not low <= len(names) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise CommandError(f"Name {count} players for {game.title} (not {len(names)}), like: {example}.")
    seen: set[str] = set()
    players = []
    for name in names:
        kind, _, level = name.lower().partition(":")
        if kind == "computer":  # computer, computer:easy, computer:hard; several are numbered
            try:
                players.append(computer(level or "normal", 1 + sum(p.is_computer for p in players)))
            except ValueError as error:
                raise CommandError(str(error)) from None
            continue
        _checked_name(name)
        if name.lower() in seen:
            raise CommandError(f"The players need different names: {name!r} is named twice.")
        seen.add(name.lower())
        players.append(Player(f"local:{name.lower()}", name))
    return players


def _is_named(player: Player, name: str) -> bool:
    """A player by the name shown, or a computer by `computer` (the first one) or its full name."""
    return player.name.lower() == name.lower() or (player.is_computer and name.lower() in ("computer", "cpu"))


def _seat_named(players: list[Player], name: str, flag: str = "--first") -> int:
    _checked_name(name)
    for seat, player in enumerate(players):
        if _is_named(player, name):
            return seat
    raise CommandError(f"{flag} must be one of the players ({', '.join(p.name for p in players)}), not {name!r}.")


def _option_value(option: Option, text: str, players: list[Player]) -> object:
    """A typed option's value, as its spec reads it: a seat by its player's name, a number from its digits;
    refused naming the flag and what it allows (`--tokens must be a whole number from 1 to 40: ...`)."""
    if option.kind == "seat":
        return _seat_named(players, text, option.flag)
    try:
        return option.read(text, len(players))
    except BadOptions:
        raise CommandError(option.refusal(len(players), option.flag)) from None


def _player_named(match: Match, name: str) -> Player:
    _checked_name(name)
    for player in match.players:
        if _is_named(player, name):
            return player
    raise CommandError(f"{name!r} is not playing in match #{match.id} ({listing(match.names)} are).")


def _clock(text: str | None) -> ClockSettings | None:
    """`--clock` as bot/clock.py reads it (`30/60`, `10m`, `1d/7d`, `none`), its refusal as the terminal's."""
    try:
        return parse_clock(text)
    except ClockError as error:
        raise CommandError(str(error)) from None
