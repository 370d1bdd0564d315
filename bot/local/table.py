"""The terminal's command table: each command's name, words, flags, help line and handler, from which the
terminal's parsing, its refusals and its help are all made (a command is one entry, never a branch).

A line is a command name (`games`), or a group and one of its commands (`mod pause`, `fish move`), then its
words and flags in any order: `--name value`, or a bare switch (`--areas`, `--text`, `--no-house`). Before
a handler runs, the words are counted and every flag is checked against the command's own.
"""

from __future__ import annotations

import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.clock import CLOCK_HELP
from bot.games import GAMES, REGISTRY
from bot.games.base import Option
from bot.games.registration import Typed
from bot.i18n import N_, _
from bot.local.checks import CommandError, clip, either, quote
from bot.wording import did_you_mean

NEW: dict[str, Typed] = {key: registration.typed for key, registration in REGISTRY.items()}
"""Each game's `new` in the terminal (its registration's); its flags and help come from this and the
game's options."""
NOTE_COLUMN = 85
"""Where the help's notes start for a long usage line (a longer one pushes its note on)."""
HELP_COLUMN = 33
"""Where the help's text starts after a short usage line."""
HELP_WIDTH = 116
"""Characters in a help line at most, where its text wraps (a long usage line does not)."""


@dataclass(frozen=True, slots=True)
class Flag:
    """`--name VALUE`, or a bare switch when it has no `value` (`--areas`)."""

    name: str
    value: str = ""
    """What follows it in the usage (`NAME`, `30/60`); empty for a switch."""
    required: bool = False
    """Shown without brackets in the usage (`--first NAME`); the handler says why it is needed."""
    listed: bool = True
    """Whether the usage shows it (`--match ID`, which most commands take, is said once in the help)."""

    def usage(self) -> str:
        text = f"--{self.name} {self.value}".strip()
        return text if self.required else f"[{text}]"


MATCH = Flag("match", "ID", listed=False)
AS = Flag("as", "NAME")


@dataclass(slots=True)
class Args:
    """A parsed command: its words and its flags (only the command's own; a switch's value is "")."""

    words: list[str]
    flags: dict[str, str]
    game: str = ""
    """The game of a game's command (`fish` for `fish move`)."""

    def flag(self, name: str) -> str | None:
        """A flag's value (None if it was not given)."""
        return self.flags.get(name)


Handler = Callable[[Any, Args], Awaitable[bool | None]]
"""Runs a command on the terminal's `Session` (bot/local/session.py, which builds on this module); False
means quit."""
Words = str | Callable[[], str]
"""A text of the table, said in the reader's language: a string marked with N_ (looked up when it is said),
or a function that words it then (a text made of the game's parts)."""


def said(text: Words) -> str:
    """A text of the table in the reader's language (empty stays empty)."""
    if callable(text):
        return text()
    return _(text) if text else ""


MISSING = N_("{name} what? {choices}.")
UNKNOWN = N_("Unknown {name} command {sub}: {choices}.")
"""A group's refusals unless it has its own."""


@dataclass(frozen=True, slots=True)
class Command:
    """A command of the table, or a group of them (`mod`, `fish`) when it has `commands`."""

    name: str
    """Its full name, as typed: `mod pause`, `fish move`, `GAME move` in the help of the shared ones."""
    help: Words
    """Its help line (marked with N_, said with `said`)."""
    run: Handler | None = None
    words: str = ""
    """Its words in the usage: `NAME DAYS`, `[FILTER]`."""
    takes: tuple[int, int | None] = (0, 0)
    """How many words it takes, fewest and most (None: any number)."""
    flags: tuple[Flag, ...] = ()
    use: Words = ""
    """The refusal for a wrong number of words, where `Use: <usage>.` would not say enough."""
    names_flags: bool = False
    """An unknown flag's refusal names the command and its flags (`... for fish new (it takes --clock, ...)`)."""
    aliases: tuple[str, ...] = ()
    commands: tuple[Command, ...] = ()
    default: str = ""
    """A group's command when none is typed (`settings` is `settings show`); else the group refuses."""
    missing: Words = MISSING
    unknown: Words = UNKNOWN
    """A group's refusals, with `{name}`, the typed `{sub}`, its commands' names `{choices}` and `{usages}`."""
    shown: bool = True
    """Whether the help lists it (a game's group is listed by its commands; `exit` is `quit`)."""
    notes: Callable[[], tuple[str, ...]] | None = None
    """Help lines under its usage line (a text option's meaning), worded when the help is said."""

    @property
    def word(self) -> str:
        """The name it is typed by within its group: `pause` for `mod pause`."""
        return self.name.rsplit(" ", 1)[-1]

    def usage(self) -> str:
        flags = " ".join(flag.usage() for flag in self.flags if flag.listed)
        return " ".join(part for part in (self.name, self.words, flags) if part)

    def find(self, typed: str) -> Command | None:
        """A group's command by the word typed (or an alias of it)."""
        return next((c for c in self.commands if typed == c.word or typed in c.aliases), None)

    def refusal(self, template: Words, sub: str = "") -> CommandError:
        """A group's refusal; for a word it does not know, with the nearest of its commands ("did you mean")."""
        choices = either([command.word for command in self.commands])
        usages = either([i18n.typed(f"{c.word} {c.words}".strip()) for c in self.commands])
        refused = said(template).format(name=self.name, sub=quote(sub), choices=choices, usages=usages)
        if sub:
            refused += did_you_mean(sub, [word for c in self.commands for word in (c.word, *c.aliases)])
        return CommandError(refused)

    def check(self, args: Args) -> None:
        """Refuse a wrong number of words, then any flag that is not the command's own."""
        fewest, most = self.takes
        if len(args.words) < fewest or (most is not None and len(args.words) > most):
            if self.use:
                raise CommandError(said(self.use))
            if most == 0:
                extra = quote(" ".join(args.words))
                raise CommandError(
                    _("{command} takes no words ({words} is too much); options start with --.").format(
                        command=self.name, words=extra
                    )
                )
            usage = " ".join(part for part in (self.name, self.words) if part)
            raise CommandError(_("Use: {usage}.").format(usage=i18n.typed(usage)))
        own = {flag.name for flag in self.flags}
        unknown = [name for name in args.flags if name not in own]
        if not unknown:
            return
        typed = clip(", ".join("--" + name for name in unknown), 80)
        mean = did_you_mean(unknown[0], [flag.name for flag in self.flags], "--")
        if not self.names_flags:
            raise CommandError(_("Unknown option {options} for this command.").format(options=typed) + mean)
        known = [f"--{flag.name}" for flag in self.flags]
        if known:
            refused = _("Unknown option {options} for {command} (it takes {known}).").format(
                options=typed, command=self.name, known=", ".join(known)
            )
        else:
            refused = _("Unknown option {options} for {command} (it takes none).").format(
                options=typed, command=self.name
            )
        raise CommandError(refused + mean)


def split(words: list[str], switches: frozenset[str]) -> tuple[dict[str, str], list[str]]:
    """Split `--name value` (and the bare switches) from the other words; a flag's name is not case-sensitive."""
    flags: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("--") and len(word) > 2:
            name = word[2:].lower()
            if name in switches:
                flags[name] = ""
            elif i + 1 < len(words):
                flags[name] = words[i + 1]
                i += 1
            else:
                raise CommandError(_("{option} needs a value.").format(option=clip(word, 40)))
        else:
            rest.append(word)
        i += 1
    return flags, rest


def switches(commands: tuple[Command, ...]) -> frozenset[str]:
    """Every bare switch in the table: a flag's name is read the same way after any command."""
    found: set[str] = set()
    for command in commands:
        found |= {flag.name for flag in command.flags if not flag.value} | switches(command.commands)
    return frozenset(found)


# --- the help ---


def help_text(commands: tuple[Command, ...]) -> str:
    """One line a command (and its notes), each group's commands in its place."""
    lines: list[str] = []
    for command in commands:
        if command.commands:
            lines += help_text(command.commands).split("\n") if command.shown else []
        elif command.shown:
            lines.append(help_line(i18n.typed(command.usage()), said(command.help)))
            lines += [f"      {note}" for note in (command.notes() if command.notes else ())]
    return "\n".join(line for line in lines if line)


def help_line(usage: str, text: str) -> str:
    """`  usage   text`: the text at HELP_COLUMN (wrapped under itself), or at NOTE_COLUMN after a long usage."""
    if len(usage) > HELP_COLUMN - 4:
        return f"{f'  {usage}'.ljust(NOTE_COLUMN - 3)}   {text}"
    indent = " " * HELP_COLUMN
    return fill(f"  {usage.ljust(HELP_COLUMN - 3)} {text}", HELP_WIDTH, subsequent_indent=indent)


def fill(text: str, width: int, **options: str) -> str:
    """`textwrap.fill`, wrapping where the reader's text wraps: the tests' invisible marks (bot/i18n.py) take
    no room, and stay around the words they mark."""
    plain = i18n.unmarked(text)
    if plain == text:
        return textwrap.fill(text, width, **options)
    marks = [""] * (len(plain) + 1)  # the marks before each character of the plain text, and at its end
    at = 0
    for char in text:
        if char in (i18n.MARK, i18n.END):
            marks[at] += char
        else:
            at += 1
    out, at = [], 0
    for char in textwrap.fill(plain, width, **options):
        while at < len(plain) and plain[at] != char and plain[at].isspace():  # a space the wrapping dropped
            out.append(marks[at])
            at += 1
        if at < len(plain) and plain[at] == char:
            out += [marks[at], char]
            at += 1
        else:  # a line break or an indent the wrapping put in
            out.append(char)
    return "".join(out + marks[at:])


# --- a game's `new` ---


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


def new_options(key: str) -> tuple[Flag, ...]:
    """The flags of `key new`, in the order the help lists them: the clock, the game's options, the seed."""
    options = tuple(Flag(option.flag[2:], metavar(option)) for option in GAMES[key].options.offered)
    return (Flag("clock", "30/60"), *options, *[Flag("seed", "N")] * NEW[key].seed)


def new_flags(key: str) -> list[str]:
    return [f"--{flag.name}" for flag in new_options(key)]


def new_usage(key: str) -> str:
    """`key new`'s usage, its flags built from the game's options: `[--tokens 12] [--seven calm]`."""
    return " ".join([start_usage(key), *(flag.usage() for flag in new_options(key))])


def start_usage(key: str) -> str:
    """How a match of `key` is started: `geyser new ALICE BOB [CAROL DAN]`."""
    return f"{key} new {NEW[key].players}"


def text_notes(key: str) -> Callable[[], tuple[str, ...]]:
    """A line for each text option of `key new`, which the usage line cannot say (`OPENING: where...`)."""
    return lambda: tuple(f"{metavar(o)}: {_(o.summary)}" for o in GAMES[key].options.offered if o.kind == "text")


SEED_HELP = N_("the seed that decides the board, dice or cards (default: a random one)")


def game_help(key: str) -> str:
    """`help GAME`: its `new`, then each of its flags, one a line, with what it takes."""
    rows = [("--clock 30/60", _(CLOCK_HELP))]
    rows += [(f"{o.flag} {metavar(o)}", _takes(o)) for o in GAMES[key].options.offered]
    rows += [("--seed N", _(SEED_HELP))] * NEW[key].seed
    width = max(len(flag) for flag, _what in rows)
    head = f"{i18n.typed(new_usage(key))}: {_(NEW[key].note)}"
    return "\n".join([head] + [f"  {i18n.typed(flag.ljust(width))}  {what}" for flag, what in rows])


def _takes(option: Option) -> str:
    """What an option takes, for `help GAME`: its help, what it allows and its default."""
    if option.kind == "int":
        return _("{help}, {fewest} to {most} (default {default})").format(
            help=_(option.help),
            fewest=i18n.number(option.minimum or 0),
            most=i18n.number(option.maximum or 0),
            default=i18n.number(option.default) if isinstance(option.default, int) else option.default,
        )
    if option.kind == "choice":
        return f"{_(option.summary)}: {option.allowed(2)}"
    return _(option.summary)
