"""Engine text that is stored in English and said in the reader's language.

An engine's event lines (`state.events`), the end of a game it keeps in its state, and an `Outcome.reason`
are stored (the state's JSON, a record, the database) and read back by code (the renderers tint the squares
an event names, a review picks its moments by an event's words, a record tells a resignation by its reason):
they stay English, the same in every language. Each is written from a `Phrase`, a catalog string with named
placeholders (`{seat} moves {move}.`), and `say(text)` finds the phrase a stored line was written from and
writes it again in the reader's language, the values (squares, numbers, `{0}` for a seat) as they were.

A value that is itself engine text (a colour, "the 2/12 ring", a list of destroyed tokens) is said too: the
phrase names those fields in `words` (a list of them: `lists`, split on the separator it was joined with; an
English listing of seats, "{0}, {1} and {2}": `listed`, said as the reader's language lists).
Text no phrase wrote (an older engine's, a player's name) comes back as it is: English, never a key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot import i18n
from bot.i18n import _, ngettext

_FIELD = re.compile(r"\{(\w+)\}")


class Phrase:
    """One sentence an engine stores in English and says in the reader's: `phrase(**values)` is the stored
    text, `say(text)` the reader's. Defined at import time, its message marked for the catalog:
    `Phrase(N_("{seat} passes."))`, or `Phrase.ngettext(singular, plural, "count")` for one with a count."""

    __slots__ = ("count", "listed", "lists", "message", "pattern", "plural", "weight", "words")

    def __init__(
        self,
        message: str,
        plural: str | None = None,
        count: str | None = None,
        *,
        words: Iterable[str] = (),
        lists: dict[str, str] | None = None,
        listed: Iterable[str] = (),
    ) -> None:
        self.message, self.plural, self.count = message, plural, count
        self.words = frozenset(words)
        self.lists = dict(lists or {})
        self.listed = frozenset(listed)
        forms = [message] if plural is None else [message, plural]
        self.pattern = re.compile("|".join(f"(?:{_regex(form, n)})" for n, form in enumerate(forms)), re.S)
        self.weight = min(len(_FIELD.sub("", form)) for form in forms)
        _PHRASES.append(self)
        _ORDERED.clear()

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: str, **kinds: object) -> Phrase:
        """A phrase with a count (the field `count`), marked for the catalog as a plural."""
        return cls(singular, plural, count, **kinds)  # type: ignore[arg-type]

    def __call__(self, **values: object) -> str:
        """The English text, as it is stored."""
        form = self.message
        if self.plural is not None and self.count is not None and values[self.count] != 1:
            form = self.plural  # English's rule: one is singular, any other count plural
        return form.format(**values)

    def match(self, text: str) -> dict[str, str] | None:
        found = self.pattern.fullmatch(text)
        if found is None:
            return None
        values: dict[str, str] = {}
        for group, value in found.groupdict().items():
            if value is not None:
                name, number = group.rsplit("__", 1)
                values.setdefault(name, value)
                values[_FORM] = number.split("_")[0]
        values.setdefault(_FORM, "0" if self.plural is None or found.group(0) == self.message else "1")
        return values

    def said(self, values: dict[str, str]) -> str:
        """This phrase in the reader's language, filled with `values` (read off the English)."""
        shown: dict[str, str] = {}
        for name, value in values.items():
            if name == _FORM:
                continue
            if name in self.listed:  # "{0}, {1} and {2}": said as the reader lists
                shown[name] = listing(re.split(r", | and ", value))
            elif name in self.lists:
                separator = self.lists[name]
                shown[name] = separator.join(say(part) for part in value.split(separator))
            elif name in self.words:
                shown[name] = say(value)
            else:
                shown[name] = value
        if self.plural is not None:
            if self.count is not None and values.get(self.count, "").isdigit():
                number = int(values[self.count])
            else:  # no count in the text: the English form it was written in tells one from many
                number = 1 if values[_FORM] == "0" else 2
            return ngettext(self.message, self.plural, number).format(**shown)
        return _(self.message).format(**shown)


def _regex(form: str, number: int) -> str:
    """The `number`-th form of a phrase as a pattern, each field a named group (unique in the pattern: a
    field may appear twice, and in both forms)."""
    out: list[str] = []
    seen: dict[str, int] = {}
    at = 0
    for field in _FIELD.finditer(form):
        out.append(re.escape(form[at : field.start()]))
        name = field.group(1)
        seen[name] = seen.get(name, 0) + 1
        out.append(f"(?P<{name}__{number}_{seen[name]}>.+?)")
        at = field.end()
    out.append(re.escape(form[at:]))
    return "".join(out)


_FORM = "__form"
"""Where `match` notes which form (0: singular, 1: plural) the English was written in."""
_PHRASES: list[Phrase] = []
_ORDERED: list[Phrase] = []


_WAIT = re.compile(r"(\d+) (day|hour|minute|second)s?(?: (\d+) (hour|minute|second)s?)?")
_UNIT_SECONDS = {"day": 86_400, "hour": 3_600, "minute": 60, "second": 1}


def say(text: str) -> str:
    """Engine text stored in English (`state.events`' lines, an `Outcome.reason`, a game's end) in the
    reader's language; text no phrase wrote comes back as it is."""
    waited = _WAIT.fullmatch(text)
    if waited is not None:  # a wait as bot/posts.py's `wait_words` writes it in English: "7 days", "2 days 3 hours"
        big, big_unit, small, small_unit = waited.groups()
        seconds = int(big) * _UNIT_SECONDS[big_unit] + (int(small) * _UNIT_SECONDS[small_unit] if small else 0)
        return i18n.duration(seconds)
    if not _ORDERED:  # the most specific phrase first: the most words besides its fields
        _ORDERED.extend(sorted(_PHRASES, key=lambda phrase: -phrase.weight))
    for phrase in _ORDERED:
        values = phrase.match(text)
        if values is not None:
            return phrase.said(values)
    return text


def said(lines: Iterable[str]) -> tuple[str, ...]:
    """Every line `say`s."""
    return tuple(say(line) for line in lines)


def listing(items: Iterable[str], last: str = "and") -> str:
    """Items in the reader's words: "a, b and c" in English (bot/wording.py's `listing`), "a, b und c" in
    German; `last` "or" for a choice ("a, b oder c"). For text said now: a stored line lists in English."""
    from babel.lists import format_list

    from bot import i18n
    from bot.wording import listing as english

    shown = list(items)
    if i18n.current() == i18n.ENGLISH or len(shown) <= 1:
        return english(shown, last)
    return format_list(shown, style="or" if last == "or" else "standard", locale=i18n.babel_locale())
