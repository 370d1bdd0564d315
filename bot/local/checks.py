"""What the terminal checks in what is typed: a line, a name, a number, the players of a new match; each
refusal a `CommandError` whose message says what would be right, in one short line."""

from __future__ import annotations

import re
import unicodedata

from bot import i18n, records
from bot.clock import ClockError, ClockSettings, parse_clock
from bot.games import BadOptions, Game
from bot.games.base import Option
from bot.models import Match, Player, computer
from bot.wording import listing, uncapitalized

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


def number(text: str, what: str) -> int:
    try:
        number = int(text) if text.strip().lstrip("+-").isdigit() else int(float(text))
    except (ValueError, OverflowError):
        what = what[:1].upper() + what[1:]  # a sentence: "The move clock must be a number"
        raise CommandError(f"{what} must be a number, not {quote(text)}.") from None
    if abs(number) >= 2**53:  # the database keeps 64-bit numbers; nothing here needs more than this
        raise CommandError(f"{what[:1].upper() + what[1:]} is too large: {clip(text, 40)}.")
    return number


def addressed(match: Match, player: Player, message: str) -> str:
    """A refusal that says "you", named for `player` when several people share the keyboard (hot seat):
    "bob, you have no Swap card in your hand." (a match with one person keeps it as it is)."""
    people = {p.id for p in match.players if not p.is_computer}
    if len(people) < 2 or not re.search(r"\b(?:you|your|yours)\b", message, re.IGNORECASE):
        return message
    if message.startswith("You "):
        return f"{player.name}, you {message[4:]}"
    return f"{player.name}: {message}"


def addressed_to(name: str, message: str) -> str:
    """A refusal to a typed name (`away`, `back`): `alice: you are not away here, …`."""
    return f"{name}: {uncapitalized(message)}" if i18n.unmarked(message).startswith("You ") else f"{name}: {message}"


def added_seconds(text: str) -> int:
    """`mod addtime`'s SECONDS: a whole number from 1 to MAX_ADDTIME (the terminal gives time, never takes it)."""
    digits = text.removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and 1 <= int(digits) <= MAX_ADDTIME):
        raise CommandError(f"mod addtime gives 1 to {MAX_ADDTIME:,} whole seconds (24 hours), not {quote(text)}.")
    return int(digits)


def line_problem(line: str) -> str | None:
    """Why a typed line is refused whole (None if it is not): too long, or holding a control character (NUL,
    escape...) or a bidirectional override, which no command needs and which would garble what is printed."""
    text = line.rstrip("\r\n")
    if len(text) > MAX_LINE:
        return f"That line is {len(text):,} characters long; a command is at most {MAX_LINE:,}."
    for char in text:
        if char not in "\t\r\n" and (char in records.BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp")):
            return f"That line holds {spelled(char)}, a control or bidirectional character; type plain text."
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None if it can): as on Discord, 1 to NAME_LIMIT characters,
    all printable (no control, invisible or bidirectional ones), and no slashes (a name is never a path)."""
    if not name.strip():
        return "A player's name cannot be empty."
    shown = quote(name)
    if len(name) > NAME_LIMIT:
        return f"A player's name is 1 to {NAME_LIMIT} characters, as on Discord ({shown} has {len(name):,})."
    if name != name.strip():
        return f"A player's name cannot start or end with a space ({shown})."
    odd = next((char for char in name if not char.isprintable()), None)
    if odd is not None:
        return f"A player's name must be printable: {shown} holds {spelled(odd)}."
    if "/" in name or "\\" in name:
        return f"A player's name cannot hold / or \\ ({shown})."
    return None


def checked_name(name: str) -> str:
    problem = name_problem(name)
    if problem is not None:
        raise CommandError(problem)
    return name


def quote(text: str, limit: int = 40) -> str:
    """`text` quoted for a message (control characters escaped), cut short if long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def spelled(char: str) -> str:
    """A character by its code point and name: U+202E (right-to-left override), U+0000."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name.lower()})" if name else "")


def slug(name: str) -> str:
    """A file-name-safe form of a name: lower-case ASCII letters and digits joined by dashes (may be empty)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:NAME_LIMIT]


def new_players(game: Game, names: list[str], example: str) -> list[Player]:
    """Players for a new match of `game`, named by distinct typed names (case does not count)."""
    low, high = game.min_players, game.max_players
    if not low <= len(names) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise CommandError(f"Name {count} players for {game.title} (not {len(names)}), like: {example}.")
    seen: set[str] = set()
    players: list[Player] = []
    for name in names:
        kind, _, level = name.lower().partition(":")
        if kind == "computer":  # computer, computer:easy, computer:hard; several are numbered
            try:
                players.append(computer(level or "normal", 1 + sum(p.is_computer for p in players)))
            except ValueError as error:
                raise CommandError(str(error)) from None
            continue
        checked_name(name)
        if name.lower() in seen:
            raise CommandError(f"The players need different names: {name!r} is named twice.")
        seen.add(name.lower())
        players.append(Player(f"local:{name.lower()}", name))
    return players


def is_named(player: Player, name: str) -> bool:
    """A player by the name shown, or a computer by `computer` (the first one) or its full name."""
    return player.name.lower() == name.lower() or (player.is_computer and name.lower() in ("computer", "cpu"))


def seat_named(players: list[Player], name: str, flag: str = "--first") -> int:
    checked_name(name)
    for seat, player in enumerate(players):
        if is_named(player, name):
            return seat
    raise CommandError(f"{flag} must be one of the players ({', '.join(p.name for p in players)}), not {name!r}.")


def option_value(option: Option, text: str, players: list[Player]) -> object:
    """A typed option's value, as its spec reads it: a seat by its player's name, a number from its digits;
    refused naming the flag and what it allows (`--tokens must be a whole number from 1 to 40: ...`)."""
    if option.kind == "seat":
        return seat_named(players, text, option.flag)
    try:
        return option.read(text, len(players))
    except BadOptions:
        raise CommandError(option.refusal(len(players), option.flag)) from None


def player_named(match: Match, name: str) -> Player:
    checked_name(name)
    for player in match.players:
        if is_named(player, name):
            return player
    raise CommandError(f"{name!r} is not playing in match #{match.id} ({listing(match.names)} are).")


def clock(text: str | None) -> ClockSettings | None:
    """`--clock` as bot/clock.py reads it (`30/60`, `10m`, `1d/7d`, `none`), its refusal as the terminal's."""
    try:
        return parse_clock(text)
    except ClockError as error:
        raise CommandError(str(error)) from None
