"""Players in their own language: gettext catalogs (Babel), which language a reader gets, and locale formats.

Strings are marked where they are written: `_("...")` for a sentence said now, `ngettext` for one with a
count, `pgettext` where one English word means two things, and `N_("...")` for a string defined at import
time (a setting's label) that is looked up later with `_(...)` when it is said. The catalogs are
`bot/locale/<lang>/LC_MESSAGES/bot.po`, compiled to `.mo` files shipped in the package; `python -m
bot.i18n_catalogs` extracts, updates and compiles them (docs/translating.md), and a test fails if a shipped
`.mo` is stale.

Who reads decides the language, and it is set once where the reader is known, in a context variable, so
nothing between the front-end and the words passes it along:
- a private answer: the interaction's `locale` (the user's Discord language), set for the interaction's task
  by the command tree (bot/discord_app.py);
- public posts, pictures and reminders: the server's `language` setting, default Discord's `guild_locale`,
  else English (`server_language`);
- the terminal: `LANG` (`terminal_language`).
A string no catalog translates yet is shown in English, never as a key.

`qps` is a pseudo-locale for tests: every string of the catalog comes back accented and wrapped in ⟦ ⟧, so a
test can see any English that skipped the catalog. The tests' marking run (`marking`) goes further over the
whole Discord and terminal suites: every looked-up string comes back wrapped in two invisible marks, and
what reaches a player (`said`: the fake Discord, the terminal's output, the words drawn in pictures) is
searched for English outside any mark before the marks are taken out.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import itertools
import math
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path

from babel import Locale
from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import Translations
from babel.units import format_unit

DOMAIN = "bot"
LOCALE_DIR = Path(__file__).parent / "locale"
ENGLISH = "en"
PSEUDO = "qps"
"""The pseudo-locale of the tests (never offered to players)."""
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
}
"""The languages the bot speaks (gettext's codes), each named in itself."""
TRANSLATED = tuple(code for code in LANGUAGES if code != ENGLISH)
"""The languages with a catalog (English is the source: it needs none)."""

_reader: ContextVar[str] = ContextVar("language")
_default = ENGLISH
"""The language when no reader was set: English, or the terminal's (`set_default`)."""


# --- which language ---


def language_for(locale: str | None) -> str:
    """Our language for a Discord locale (`de`, `es-ES`, `es-419`, `pt-BR`, `en-US`) or a POSIX one
    (`de_DE.UTF-8`, `pt_BR`): the exact language if we speak it, else its main language (`es-419` is
    Spanish, `pt_PT` Brazilian Portuguese), else English."""
    if not locale:
        return ENGLISH
    code = locale.split(".")[0].split("@")[0].replace("-", "_")
    if code == PSEUDO:
        return PSEUDO
    main, _, region = code.partition("_")
    main = main.lower()
    exact = f"{main}_{region.upper()}" if region else main
    if exact in LANGUAGES:
        return exact
    if main in LANGUAGES:
        return main
    found = [known for known in LANGUAGES if known.split("_")[0] == main]
    return found[0] if found else ENGLISH


def server_language(setting: str | None, guild_locale: str | None) -> str:
    """The language of a server's public posts: its `language` setting, else Discord's `guild_locale`
    (the server's "Primary Language"), else English."""
    return setting if setting in LANGUAGES else language_for(guild_locale)


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the environment, in gettext's order: LANGUAGE (a colon list, the first
    we speak), LC_ALL, LC_MESSAGES, LANG; `C` and `POSIX` are English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):
            if part and part not in ("C", "POSIX") and not part.startswith("C."):
                language = language_for(part)
                if language != ENGLISH or part.lower().startswith("en"):
                    return language
        return ENGLISH
    return ENGLISH


def current() -> str:
    """The language of whoever reads what is being written now."""
    return _reader.get(_default)


def set_reader(language: str) -> None:
    """Speak `language` for the rest of this task (an interaction's: discord.py runs each in its own)."""
    _reader.set(language if language in LANGUAGES or language == PSEUDO else ENGLISH)


@contextlib.contextmanager
def using(language: str) -> Iterator[None]:
    """Speak `language` inside the block (a public post in the server's language, say)."""
    token = _reader.set(language if language in LANGUAGES or language == PSEUDO else ENGLISH)
    try:
        yield
    finally:
        _reader.reset(token)


def set_default(language: str) -> None:
    """The language wherever no reader was set: the terminal's, from LANG, for the whole process."""
    global _default
    _default = language if language in LANGUAGES or language == PSEUDO else ENGLISH


# --- looking strings up ---


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language; English (and any language without one) translates nothing."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    return Translations.load(str(LOCALE_DIR), [language], DOMAIN)


def _(message: str) -> str:
    """`message` in the reader's language (English where it has no translation yet)."""
    found = translations(current()).gettext(message)
    return f"{MARK}{found}{END}" if _marking else found


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count` in the reader's language (its plural rules, not English's)."""
    found = translations(current()).ngettext(singular, plural, count)
    return f"{MARK}{found}{END}" if _marking else found


def pgettext(context: str, message: str) -> str:
    """`message` in the reader's language, where `context` tells apart two uses of the same English."""
    found = translations(current()).pgettext(context, message)
    return f"{MARK}{found}{END}" if _marking else found


def translate(language: str, context: str | None, message: str) -> str | None:
    """`message` in `language`, or None where the catalog has no translation (not the English again)."""
    catalog = translations(language)
    found = catalog.pgettext(context, message) if context else catalog.gettext(message)
    return None if found == message else found


def N_(message: str) -> str:
    """Marks a string for the catalog without translating it yet: it is looked up with `_` when said."""
    return message


# --- the pseudo-locale ---

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþɋŕšŧûʋŵẋýžÀßÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŦÛṼŴẊÝŽ",
)


def pseudo(text: str, context: str | None = None) -> str:
    """`text` visibly marked: accented (placeholders such as {name} kept as they are: the code fills them)
    and, unless it is a command name (which Discord holds to letters), wrapped in ⟦ ⟧. A `/command` in
    backticks is accented too: each language writes its own command names there."""
    out, depth = [], 0
    for char in text:
        depth += char == "{"
        out.append(char if depth else char.translate(_ACCENTED))
        depth -= char == "}"
    marked = "".join(out)
    if context == "discord name":
        return unicodedata.normalize("NFC", marked).lower()
    return f"⟦{marked}⟧"


# --- the marking run of the tests ---

MARK, END = "\ue000", "\ue001"
"""Private-use characters around every looked-up string in a marking run: no player ever sees them."""
_marking = 0
tracer: Callable[[str, str, list[str]], None] | None = None
"""Told (where, text, the English words) of every text said outside the marks in a marking run (the tests')."""


@contextlib.contextmanager
def marking() -> Iterator[None]:
    """Mark every looked-up string inside the block (the tests' run over the Discord and terminal suites)."""
    global _marking
    _marking += 1
    try:
        yield
    finally:
        _marking -= 1


def typed(words: str) -> str:
    """Words a user types as they are (a command, a flag, notation): the same in every language, so never in
    the catalog; a marking run marks them as English on purpose."""
    return f"{MARK}{words}{END}" if _marking else words


def said(text: str, where: str) -> str:
    """`text` as its reader sees it: in a marking run, English outside the marks is told to the `tracer`,
    then the marks are taken out. Every way out to a player calls it (the terminal's output, the words
    drawn in pictures; the fake Discord does the same with what it receives)."""
    if _marking and tracer is not None:
        found = stray_english(text)
        if found:
            tracer(where, text, found)
    return unmarked(text)


def unmarked(text: str) -> str:
    return text.replace(MARK, "").replace(END, "") if MARK in text or END in text else text


_WORD = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?")
_NOT_WORDS = re.compile(r"<[@#:atr!&/][^>]*>|https?://\S+|[\w.-]*(?:/[\w.@-]+){2,}|[\w-]+\.(?:png|gif|json|txt|db)\b")
"""Mentions, channels, custom emoji and timestamps, links, paths and file names: never English to translate."""


def stray_english(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of `text` outside every mark: words the catalogs' English uses (and a few common
    ones) that no looked-up string brought. Notation and numbers are not in that vocabulary; `names` (the
    players', which may hold English words) are not read."""
    outside, depth = [], 0
    for char in text:
        if char == MARK:
            depth += 1
        elif char == END:
            depth = max(0, depth - 1)
        elif not depth:
            outside.append(char)
    plain = _NOT_WORDS.sub(" ", "".join(outside)).replace("\u200b", "")  # a name's escaped @here reads as typed
    for name in sorted(names, key=len, reverse=True):
        for end in range(len(name), min(len(name), 8) - 1, -1):  # a name cut short (a thread's, a title's) too
            if name[:end] in plain:
                plain = plain.replace(name[:end], " ")
                break
    words = _WORD.findall(plain)
    vocabulary = _english()
    return [word for word in words if word.lower() in vocabulary]


_COMMON = """a an the and or but not no yes is are was be been it its this that these those you your yours
we our they their he she his her of to in on at by for with from as if then than so all any some every each
can cannot can't don't won't isn't there here what which who whose when where why how only also still now
game games match matches move moves turn player players seat board round wins won lost draw resign time left
clock reserve paused running finished started waiting ends ended score points"""


@functools.cache
def _english() -> frozenset[str]:
    """The words English speaks in this bot: every word of the catalog's source strings (lower case, three
    letters or more), and the common short ones; less the words notation and game names write."""
    from babel.messages.pofile import read_po

    with open(LOCALE_DIR / f"{DOMAIN}.pot", "rb") as source:
        catalog = read_po(source)
    words = set(_COMMON.split())
    for message in catalog:
        for text in message.id if isinstance(message.id, (tuple, list)) else (message.id,):
            if message.context in ("discord name", "discord choice"):
                continue  # command names and choices: English words a user types as they are
            for word in _WORD.findall(re.sub(r"\{[^}]*\}", " ", str(text or ""))):
                if len(word) >= 3:
                    words.add(word.lower())
    return frozenset(words - _NOT_ENGLISH)


_NOT_ENGLISH = frozenset(["volcano", "themiscyra", "geyser", "horizon", "event", "fish", "dm", "alice", "bob", "carol"])
"""Names the bot writes the same in every language: the games', and the players' of the help's examples."""


# --- numbers, dates, durations ---


def babel_locale(language: str | None = None) -> Locale:
    code = language or current()
    return Locale.parse("en" if code == PSEUDO else code)


def number(value: float) -> str:
    """`1,000` in English, `1.000` in German, `1 000` in French."""
    return format_decimal(value, locale=babel_locale())


def date_time(at: float) -> str:
    """A moment (a Unix time, shown in UTC) as the reader's locale writes it."""
    from datetime import UTC

    return format_datetime(datetime.fromtimestamp(at, UTC), "medium", tzinfo=UTC, locale=babel_locale())


_UNITS = (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))


def duration(seconds: float) -> str:
    """A wait in its two largest units, rounded up so it is never less than the wait (`2 days 3 hours`,
    `2 Tage und 3 Stunden`): bot/posts.py's `wait_words` in the reader's language."""
    whole = max(0, math.ceil(seconds - 1e-9))
    parts: list[tuple[int, str]] = [(whole, "second")]
    for (name, size), (small_name, small) in itertools.pairwise(_UNITS):
        if whole >= size:
            big, rest = divmod(math.ceil(whole / small), size // small)
            parts = [(big, name)] + ([(rest, small_name)] if rest else [])
            break
    if current() == PSEUDO:
        with using(ENGLISH):
            return pseudo(duration(seconds))
    locale = babel_locale()
    words = [format_unit(count, f"duration-{unit}", length="long", locale=locale) for count, unit in parts]
    said = " ".join(words) if locale.language == "en" else format_list(words, style="standard", locale=locale)
    return f"{MARK}{said}{END}" if _marking else said  # Babel's words for the reader: as good as looked up
