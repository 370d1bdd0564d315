"""What a player reads of a request the bot sent, in the tests' marking run (bot/i18n.py `marking`): every
string a player sees is searched for English outside the catalog's marks (a string that skipped the
catalog), then every mark is taken out, so the fake stores, checks against Discord's limits and shows the
tests plain text, as Discord would have received it.

Identifiers (custom ids, option values, URLs, file names) are never read: a player does not see them.
Command syncs are not read either: a command's default name and description are English on purpose, their
translations are the localizations beside them."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from bot import i18n

UNREAD = frozenset({"custom_id", "url", "proxy_url", "filename", "id", "type", "style", "nonce", "sku_id"})
"""Keys whose strings no player reads (and a select option's or a choice's `value`: see `read`)."""


def heard(body: Any, where: str, strays: list[str], names: Collection[str]) -> Any:
    """`body` with every mark taken out; the English each string a player reads says outside the marks goes
    into `strays` (as `where key: word word: the text`). `names` are the people's (not English to translate)."""
    if i18n._marking:
        for key, text in read(body, where):
            found = i18n.stray_english(text, names)
            if found:
                strays.append(f"{where} {key}: {' '.join(found)}: {i18n.unmarked(text)!r}")
    return _unmarked(body)


def read(body: Any, where: str) -> Iterator[tuple[str, str]]:
    """(key, text) of every string of a request body that a player reads (none in a command sync)."""
    if "/commands" not in where:
        yield from _read(body, "")


def _read(value: Any, parent_key: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield parent_key, value
    elif isinstance(value, list):
        for item in value:
            yield from _read(item, parent_key)
    elif isinstance(value, dict):
        field = parent_key == "fields"  # an embed field's value is read; a select option's or choice's is an id
        for key, item in value.items():
            if key not in UNREAD and (key != "value" or field):
                yield from _read(item, key)


def _unmarked(value: Any) -> Any:
    if isinstance(value, str):
        return i18n.unmarked(value)
    if isinstance(value, list):
        return [_unmarked(item) for item in value]
    if isinstance(value, dict):
        return {key: _unmarked(item) for key, item in value.items()}
    return value
