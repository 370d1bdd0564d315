"""The terminal: reads a line, finds its command in the table (`COMMANDS`), checks its words and flags, and
runs it; every line gets an answer, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

from bot import i18n, records
from bot.games import REGISTRY, GameError
from bot.i18n import N_, _
from bot.local import games, moderation, people, review
from bot.local.checks import CommandError, clip, either, line_problem, number, quote
from bot.local.console import Console, ctrl_c
from bot.local.session import Session, ignored, log
from bot.local.table import HELP_WIDTH, NEW, Args, Command, fill, game_help, help_text, split, switches
from bot.service import ServiceError
from bot.wording import did_you_mean


class Terminal(Session):
    """Turns typed lines into service calls (and, as a `Session`, notices into printed posts)."""

    async def handle(self, line: str) -> bool:
        """Run one typed command; False means quit. Bad input is answered and changes nothing; a failure
        inside the bot is logged and answered too, so every line gets an answer and never a traceback."""
        question, self.question = self.question, None  # a question is answered by the next line, or dropped
        problem = line_problem(line)
        if problem is not None:
            self.write(f"✗ {problem}")
            return True
        try:
            if question is not None and await question(line.strip()):
                return True
            words = shlex.split(line)
        except (CommandError, ServiceError, GameError) as error:
            self.write(f"✗ {clip(str(error))}")
            return True
        except ValueError as error:
            self.write(_("Can't read that: {reason}.").format(reason=error))
            return True
        if not words:
            return True
        try:
            return await self.run(words)
        except (CommandError, ServiceError, GameError) as error:
            self.write(f"✗ {clip(str(error))}")
        except Exception:  # a bug: the terminal goes on, and the log has the details
            log.exception("the terminal command %s failed", quote(line))
            self.write("✗ " + _("Something went wrong on our side (the details are in the log); try another command."))
        return True

    async def run(self, words: list[str]) -> bool:
        """The command the words name, in the table: a group's takes the next word; its own words and flags
        are checked before it runs."""
        command, rest = ROOT, words
        while command.commands:
            if not rest and not command.default:
                raise command.refusal(command.missing)
            sub, rest = (rest[0].lower(), rest[1:]) if rest else (command.default, [])
            found = command.find(sub)
            if found is None:
                raise command.refusal(command.unknown, sub)
            command = found
        game = command.name.split(" ")[0]
        flags, rest = split(rest, SWITCHES)
        args = Args(rest, flags, game if game in REGISTRY else "")
        command.check(args)
        assert command.run is not None
        return await command.run(self, args) is not False

    async def repl(self, console: Console | None = None) -> None:
        """Read commands until quit, end of input (Ctrl-D) or Ctrl-C; the event loop keeps clocks and computers
        running meanwhile. Ctrl-C quits at once, in the middle of a command too."""
        console = console or Console()
        self.write(full_help())
        await self.service.tournaments.resume()  # a round or closing time that came while it was off
        interrupted = asyncio.Event()
        try:
            with ctrl_c(interrupted):
                while (line := await console.read(interrupted)) is not None:
                    command = asyncio.ensure_future(self.handle(line))
                    stop = asyncio.ensure_future(interrupted.wait())
                    await asyncio.wait({command, stop}, return_when=asyncio.FIRST_COMPLETED)
                    stop.cancel()
                    if not command.done():
                        command.cancel()
                        await asyncio.gather(command, return_exceptions=True)
                        break
                    if not command.result():
                        return
                self.write("")  # the shell's prompt starts on a line of its own
        finally:
            console.close()


# --- the commands of no game or group ---


async def show_help(session: Session, args: Args) -> None:
    topic = " ".join(args.words).lower()
    if topic and topic not in NEW:
        refused = _("help takes a game ({games}), not {typed}.").format(games=either(list(NEW)), typed=quote(topic))
        raise CommandError(refused + did_you_mean(topic, NEW))
    session.write(game_help(topic) if topic else full_help())


async def quit_(session: Session, args: Args) -> bool:
    return False


async def running(session: Session, args: Args) -> None:
    session.list_matches()


async def use(session: Session, args: Args) -> None:
    session.current = (await session.service.get(number(args.words[0], _("the match number")))).id
    session.write(_("Now on match #{number}.").format(number=session.current))


async def replay(session: Session, args: Args) -> None:
    file = Path(args.words[0])
    lines = await asyncio.to_thread(records.replay_file, file, session.out_dir)  # a bad file: nothing written
    await asyncio.to_thread(ignored, session.out_dir)
    session.write("\n".join(lines))


COMMANDS: tuple[Command, ...] = (
    *(games.game_commands(key) for key in REGISTRY),
    Command(
        "replay",
        N_("replay a record: prints the result, saves the final board PNG and the replay GIF"),
        replay,
        "FILE.json",
        (1, 1),
        use=N_("Use: replay FILE.json (a record written by GAME record)."),
    ),
    *review.COMMANDS,
    Command("games", N_("running matches (most commands take --match ID)"), running, takes=(0, None)),
    Command("use", N_("switch to match ID"), use, "ID", (1, 1)),
    *people.COMMANDS,
    moderation.MOD,
    moderation.TOURNAMENT,
    moderation.SETTINGS,
    Command("help", N_("this list; help GAME: a game's options, one a line"), show_help, "[GAME]", (0, None)),
    Command("quit", N_("leave (exit too)"), quit_, takes=(0, None), aliases=("exit",)),
)
"""Every command: each game's group (its own commands, then the shared ones), then the rest."""
FIRST_GAME_TITLE = N_('A first game in five lines ("1, 2, 3" against the computer; see docs/rules/fish.md):')
FIRST_GAME = (
    ("fish new alice computer", N_("{name} places first, the computer answers by itself")),
    ("fish moves", N_("the moves {name} may make (tokens go on 1-tiles: place A2 B5 ...)")),
    ("fish move A2", N_("one of them; every board is also saved as a PNG, its path printed")),
    ("fish board --text", N_("the position in words")),
    ("fish resign", N_("give up (it asks first); then quit, or Ctrl-D")),
)
"""The end of the help, printed at the start: a game to play at once (tests/test_local_newcomer.py plays it),
each line what is typed (English, as every command) and what it does (in the reader's language)."""
HELP_TITLE = N_(
    "Commands (the same as the Discord slash commands; players are typed names, and `computer` (or"
    " computer:easy, computer:hard) is a computer player: {example}):"
)
ROOT = Command("", "", commands=COMMANDS, unknown=N_("Unknown command {sub}; type help for the list."))
SWITCHES = switches(COMMANDS)
SHOWN = (*COMMANDS[: len(REGISTRY)], games.game_commands("GAME"), *COMMANDS[len(REGISTRY) :])
"""The commands as the help lists them: each game's own, the shared ones once for every GAME, then the rest."""


def first_game() -> list[str]:
    """The help's last lines: a first game, one typed line each, in the reader's language."""
    return [
        _(FIRST_GAME_TITLE),
        *(f"> {i18n.typed(typed.ljust(30))} {_(what).format(name='alice')}" for typed, what in FIRST_GAME),
    ]


def full_help() -> str:
    """The help, in the reader's language (`help`, and printed at the start): the commands, then a first game."""
    title = fill(_(HELP_TITLE).format(example=i18n.typed("fish new alice computer")), HELP_WIDTH - 16)
    return "\n".join([title, help_text(SHOWN), "", *first_game()])


OWN = {key: tuple(c.word for c in group.commands if c.shown) for key, group in zip(REGISTRY, COMMANDS, strict=False)}
"""Each game's own commands (`new` and those its registration asks for), before the shared ones."""
