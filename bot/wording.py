"""Small helpers for the words the bot writes: counts that agree with their noun, and "a" or "an".

Every message that interpolates a number before a noun uses `plural` ("1 move", "2 moves"), and every one
that puts a name or word after an indefinite article uses `a` ("an Event Horizon match", "a Geyser match").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from bot import i18n
from bot.i18n import _

_IRREGULAR = {
    "lobby": "lobbies",
    "entry": "entries",
    "match": "matches",
    "series": "series",
    "fish": "fish",
}
_VOWEL_LETTERS = frozenset("AEFHILMNORSX")
"""Letters whose spoken name begins with a vowel sound: an A, an F2, an S (but a B, a U)."""
_CONSONANT_SOUND = ("one", "once", "uni", "use", "usu", "uti", "eu", "ewe", "ubiq", "ura", "uro")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")


def plural(count: int | float, noun: str, plural_form: str | None = None) -> str:
    """`count` and `noun`, the noun in the plural unless the count is exactly 1: "1 move", "3 moves",
    "0 lobbies", "1,000 seconds" (counts of a thousand or more get thousands separators)."""
    number = f"{int(count):,}" if float(count).is_integer() else f"{count:g}"
    return f"{number} {noun_for(count, noun, plural_form)}"


def noun_for(count: int | float, noun: str, plural_form: str | None = None) -> str:
    """The noun alone, singular for a count of 1 and plural otherwise ("token" or "tokens")."""
    if count == 1:
        return noun
    if plural_form is not None:
        return plural_form
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    if re.search(r"(s|x|z|ch|sh)$", noun):
        return noun + "es"
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + "s"


def article(word: str) -> str:
    """ "a" or "an" for the sound `word` begins with: an Event Horizon, a Geyser, an F2, an 8, a one."""
    text = word.strip().lstrip("\"'(`*_")
    if not text:
        return "a"
    first = re.match(r"[A-Za-z]+|\d+", text)
    token = first[0] if first else text
    if token.isdigit():
        # eight, eleven, eighteen, eighty...; 11 and 18 (and 11,000, 18,000...) but not 110 or 1,100
        digits = re.match(r"[\d,]+", text)[0].replace(",", "")  # type: ignore[index]
        return "an" if digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2) else "a"
    lower = token.lower()
    spelled_out = len(token) == 1 or (token.isupper() and len(token) <= 4) or bool(re.match(r"[A-Za-z]\d", text))
    if spelled_out:
        return "an" if token[0].upper() in _VOWEL_LETTERS else "a"
    if lower.startswith(_VOWEL_SOUND):
        return "an"
    if lower.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if lower[0] in "aeiou" else "a"


def a(word: str) -> str:
    """`word` after its indefinite article: "an Event Horizon", "a Geyser"."""
    return f"{article(word)} {word}"


def capitalized(text: str) -> str:
    """`text` with its first letter upper case (a sentence that begins with a looked-up word: "The move
    clock ...", "Die Zugzeit ..."), past any invisible mark of the tests' marking run (bot/i18n.py)."""
    start = len(text) - len(text.lstrip(i18n.MARK + i18n.END))
    return text[:start] + text[start : start + 1].upper() + text[start + 1 :]


def uncapitalized(text: str) -> str:
    """`text` with its first letter lower case (a sentence said after a name: "alice: you are ..."), past
    any invisible mark of the tests' marking run."""
    start = len(text) - len(text.lstrip(i18n.MARK + i18n.END))
    return text[:start] + text[start : start + 1].lower() + text[start + 1 :]


def listing(items: list[str] | tuple[str, ...], last: str = "and") -> str:
    """Items in words, in the reader's language: "a", "a and b", "a, b and c" ("a, b und c"); `last` is
    "and" or "or" ("a, b or c", "a, b oder c"). The words around the last item are the catalog's
    (`{first} and {last}`), so each language writes its own."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    first = ", ".join(items[:-1])  # every language we speak writes the comma so
    if last == "or":
        return _("{first} or {last}").format(first=first, last=items[-1])
    return _("{first} and {last}").format(first=first, last=items[-1])


def did_you_mean(typed: str, choices: Iterable[str], before: str = "") -> str:
    """ " Did you mean fish?" when `typed` is close to one of `choices` (difflib's nearest, case aside), to add
    to a refusal; "" when none is close. `before` goes before the choice (`--` for an option)."""
    known = {choice.lower(): choice for choice in choices}
    close = difflib.get_close_matches(typed.lower(), list(known), n=1, cutoff=0.6)
    return " " + _("Did you mean {choice}?").format(choice=f"{before}{known[close[0]]}") if close else ""
