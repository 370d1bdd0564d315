"""What the terminal checks in what is typed: a line, a name, a number, the players of a new match; each
refusal a `CommandError` whose message says what would be right, in one short line."""

from __future__ import annotations

import re
import unicodedata

from bot import i18n, records
from bot.clock import ClockError, ClockSettings, parse_clock
from bot.games import BadOptions, Game
from bot.games.base import Option
from bot.i18n import _
from bot.models import Match, Player, computer
from bot.wording import uncapitalized

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
    """`text` as a whole number; `what` names it in the refusal: a flag (`--seed`) as it is typed, or a
    translated phrase (`_("the match number")`) written at the start of a sentence."""
    try:
        number = int(text) if text.strip().lstrip("+-").isdigit() else int(float(text))
    except (ValueError, OverflowError):
        raise CommandError(
            _("{what} must be a number, not {typed}.").format(what=capital(what), typed=quote(text))
        ) from None
    if abs(number) >= 2**53:  # the database keeps 64-bit numbers; nothing here needs more than this
        raise CommandError(_("{what} is too large: {typed}.").format(what=capital(what), typed=clip(text, 40)))
    return number


def capital(text: str) -> str:
    """A phrase at the start of a sentence (its first letter, past any invisible mark of the tests)."""
    plain = i18n.unmarked(text)
    if not plain:
        return text
    at = text.index(plain[0])
    return text[:at] + text[at].upper() + text[at + 1 :]


def either(items: list[str] | tuple[str, ...]) -> str:
    """Items as a choice: "a", "a or b", "a, b or c", in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def both(items: list[str] | tuple[str, ...]) -> str:
    """Items together: "a", "a and b", "a, b and c", in the reader's language."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def addressed(match: Match, player: Player, message: str) -> str:
    """A refusal that says "you", named for `player` when several people share the keyboard (hot seat):
    "bob, you have no Swap card in your hand." (a match with one person keeps it as it is). In another
    language than English every refusal of a hot seat is named (`bob: ...`): which words say "you" is the
    language's business."""
    people = {p.id for p in match.players if not p.is_computer}
    if len(people) < 2:
        return message
    plain = i18n.unmarked(message)
    if i18n.current() == i18n.ENGLISH and not re.search(r"\b(?:you|your|yours)\b", plain, re.IGNORECASE):
        return message
    if plain.startswith("You "):
        return f"{player.name}, {message.replace('You ', 'you ', 1)}"
    return f"{player.name}: {message}"


def addressed_to(name: str, message: str) -> str:
    """A refusal to a typed name (`away`, `back`): `alice: you are not away here, …`."""
    return f"{name}: {uncapitalized(message)}" if i18n.unmarked(message).startswith("You ") else f"{name}: {message}"


def added_seconds(text: str) -> int:
    """`mod addtime`'s SECONDS: a whole number from 1 to MAX_ADDTIME (the terminal gives time, never takes it)."""
    digits = text.removeprefix("+")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and 1 <= int(digits) <= MAX_ADDTIME):
        raise CommandError(
            _("mod addtime gives 1 to {most} whole seconds (24 hours), not {typed}.").format(
                most=i18n.number(MAX_ADDTIME), typed=quote(text)
            )
        )
    return int(digits)


def line_problem(line: str) -> str | None:
    """Why a typed line is refused whole (None if it is not): too long, or holding a control character (NUL,
    escape...) or a bidirectional override, which no command needs and which would garble what is printed."""
    text = line.rstrip("\r\n")
    if len(text) > MAX_LINE:
        return _("That line is {count} characters long; a command is at most {most}.").format(
            count=i18n.number(len(text)), most=i18n.number(MAX_LINE)
        )
    for char in text:
        if char not in "\t\r\n" and (char in records.BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp")):
            return _("That line holds {character}, a control or bidirectional character; type plain text.").format(
                character=spelled(char)
            )
    return None


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None if it can): as on Discord, 1 to NAME_LIMIT characters,
    all printable (no control, invisible or bidirectional ones), and no slashes (a name is never a path)."""
    if not name.strip():
        return _("A player's name cannot be empty.")
    shown = quote(name)
    if len(name) > NAME_LIMIT:
        return _("A player's name is 1 to {most} characters, as on Discord ({name} has {count}).").format(
            most=i18n.number(NAME_LIMIT), name=shown, count=i18n.number(len(name))
        )
    if name != name.strip():
        return _("A player's name cannot start or end with a space ({name}).").format(name=shown)
    odd = next((char for char in name if not char.isprintable()), None)
    if odd is not None:
        return _("A player's name must be printable: {name} holds {character}.").format(
            name=shown, character=spelled(odd)
        )
    if "/" in name or "\\" in name:
        return _("A player's name cannot hold / or \\ ({name}).").format(name=shown)
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
        if low == high:
            said = _("Name {count} players for {game} (not {given}), like: {example}.").format(
                count=i18n.number(low), game=game.title, given=i18n.number(len(names)), example=example
            )
        else:
            said = _("Name {fewest} to {most} players for {game} (not {given}), like: {example}.").format(
                fewest=i18n.number(low),
                most=i18n.number(high),
                game=game.title,
                given=i18n.number(len(names)),
                example=example,
            )
        raise CommandError(said)
    seen: set[str] = set()
    players: list[Player] = []
    for name in names:
        kind, _colon, level = name.lower().partition(":")
        if kind == "computer":  # computer, computer:easy, computer:hard; several are numbered
            try:
                players.append(computer(level or "normal", 1 + sum(p.is_computer for p in players)))
            except ValueError as error:
                raise CommandError(str(error)) from None
            continue
        checked_name(name)
        if name.lower() in seen:
            raise CommandError(_("The players need different names: {name} is named twice.").format(name=repr(name)))
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
    raise CommandError(
        _("{flag} must be one of the players ({players}), not {name}.").format(
            flag=flag, players=", ".join(p.name for p in players), name=repr(name)
        )
    )


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
    raise CommandError(
        _("{name} is not playing in match #{number} ({players} are).").format(
            name=repr(name), number=match.id, players=both(match.names)
        )
    )


def clock(text: str | None) -> ClockSettings | None:
    """`--clock` as bot/clock.py reads it (`30/60`, `10m`, `1d/7d`, `none`), its refusal as the terminal's."""
    try:
        return parse_clock(text)
    except ClockError as error:
        raise CommandError(str(error)) from None
