"""The terminal: reads a line, finds its command in the table (`COMMANDS`), checks its words and flags, and
runs it; every line gets an answer, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

from bot import records
from bot.games import REGISTRY, GameError
from bot.local import games, moderation, people, review
from bot.local.checks import CommandError, clip, line_problem, number, quote
from bot.local.console import Console, ctrl_c
from bot.local.session import Session, ignored, log
from bot.local.table import NEW, Args, Command, game_help, help_text, split, switches
from bot.service import ServiceError
from bot.wording import did_you_mean, listing


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
            self.write(f"Can't read that: {error}.")
            return True
        if not words:
            return True
        try:
            return await self.run(words)
        except (CommandError, ServiceError, GameError) as error:
            self.write(f"✗ {clip(str(error))}")
        except Exception:  # a bug: the terminal goes on, and the log has the details
            log.exception("the terminal command %s failed", quote(line))
            self.write("✗ Something went wrong on our side (the details are in the log); try another command.")
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
        self.write(HELP)
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
        raise CommandError(
            f"help takes a game ({listing(list(NEW), 'or')}), not {quote(topic)}.{did_you_mean(topic, NEW)}"
        )
    session.write(game_help(topic) if topic else HELP)


async def quit_(session: Session, args: Args) -> bool:
    return False


async def running(session: Session, args: Args) -> None:
    session.list_matches()


async def use(session: Session, args: Args) -> None:
    session.current = (await session.service.get(number(args.words[0], "match id"))).id
    session.write(f"Now on match #{session.current}.")


async def replay(session: Session, args: Args) -> None:
    file = Path(args.words[0])
    lines = await asyncio.to_thread(records.replay_file, file, session.out_dir)  # a bad file: nothing written
    await asyncio.to_thread(ignored, session.out_dir)
    session.write("\n".join(lines))


COMMANDS: tuple[Command, ...] = (
    *(games.game_commands(key) for key in REGISTRY),
    Command(
        "replay",
        "replay a record: prints the result, saves the final board PNG and the replay GIF",
        replay,
        "FILE.json",
        (1, 1),
        use="Use: replay FILE.json (a record written by GAME record).",
    ),
    *review.COMMANDS,
    Command("games", "running matches (most commands take --match ID)", running, takes=(0, None)),
    Command("use", "switch to match ID", use, "ID", (1, 1)),
    *people.COMMANDS,
    moderation.MOD,
    moderation.TOURNAMENT,
    moderation.SETTINGS,
    Command("help", "this list; help GAME: a game's options, one a line", show_help, "[GAME]", (0, None)),
    Command("quit", "leave (exit too)", quit_, takes=(0, None), aliases=("exit",)),
)
"""Every command: each game's group (its own commands, then the shared ones), then the rest."""
FIRST_GAME = (
    'A first game in five lines ("1, 2, 3" against the computer; see docs/rules/fish.md):',
    "> fish new alice computer        alice places first, the computer answers by itself",
    "> fish moves                     the moves alice may make (tokens go on 1-tiles: place A2 B5 ...)",
    "> fish move A2                   one of them; every board is also saved as a PNG, its path printed",
    "> fish board --text              the position in words",
    "> fish resign                    give up (it asks first); then quit, or Ctrl-D",
)
"""The end of the help, printed at the start: a game to play at once (tests/test_local_newcomer.py plays it)."""
ROOT = Command("", "", commands=COMMANDS, unknown="Unknown command {sub}; type help for the list.")
SWITCHES = switches(COMMANDS)
HELP = "\n".join(
    [
        "Commands (the same as the Discord slash commands; players are typed names, and `computer` (or",
        "computer:easy, computer:hard) is a computer player: fish new alice computer):",
        help_text((*COMMANDS[: len(REGISTRY)], games.game_commands("GAME"), *COMMANDS[len(REGISTRY) :])),
        "",
        *FIRST_GAME,
    ]
)
"""Each game's own commands, the shared ones once for every GAME, then the rest; last, a first game."""
OWN = {key: tuple(c.word for c in group.commands if c.shown) for key, group in zip(REGISTRY, COMMANDS, strict=False)}
"""Each game's own commands (`new` and those its registration asks for), before the shared ones."""
