"""Is a text German? The words only English has (every word of the catalog's English that none of its
German uses) must not be in it, and a sentence holds German words: for the tests of a German server and a
German terminal, which catch English that went through the catalog untranslated too."""

from __future__ import annotations

import re
from collections.abc import Iterable

from babel.messages.pofile import read_po

from bot import i18n

WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
SAME_IN_BOTH = {"fish", "volcano", "themiscyra", "geyser", "event", "horizon", "match", "death", "best", "computer"}
"""Words German writes as English does (the games' names, "Death Match", "Best of 3")."""


def vocabulary(language: str) -> set[str]:
    """Every word (three letters or more, lower case) of a language's side of the catalog."""
    path = i18n.LOCALE_DIR / ("bot.pot" if language == "en" else f"{language}/LC_MESSAGES/bot.po")
    with path.open("rb") as source:
        catalog = read_po(source)
    words: set[str] = set()
    for message in catalog:
        texts = message.id if language == "en" else message.string
        for text in texts if isinstance(texts, tuple) else (texts,):
            words |= {word.lower() for word in WORD.findall(re.sub(r"\{[^}]*\}", " ", text or ""))}
    return words


ENGLISH_ONLY = vocabulary("en") - vocabulary("de") - SAME_IN_BOTH
GERMAN = vocabulary("de") - vocabulary("en")


def words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` (three letters or more), less people's names, links, paths and file names."""
    text = i18n._NOT_WORDS.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return WORD.findall(text)


def english_in(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of `text` only English has."""
    return [word for word in words(text, names) if word.lower() in ENGLISH_ONLY]


def not_german(text: str, names: Iterable[str] = ()) -> bool:
    """A sentence (four words or more) with no German word in it."""
    found = words(text, names)
    return len(found) >= 4 and not GERMAN & {word.lower() for word in found}
