"""What a player reads of a request the bot sent, in the tests' marking run (bot/i18n.py `marking`): every
string a player sees is searched for English outside the catalog's marks (a string that skipped the
catalog), then every mark is taken out, so the fake stores, checks against Discord's limits and shows the
tests plain text, as Discord would have received it.

Identifiers (custom ids, option values, URLs, file names) are never read: a player does not see them.
Command syncs are not read either: a command's default name and description are English on purpose, their
translations are the localizations beside them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot import i18n

UNREAD = frozenset({"custom_id", "url", "proxy_url", "filename", "id", "type", "style", "nonce", "sku_id"})
"""Keys whose strings no player reads (and a select option's or a choice's `value`: see `_walk`)."""


def heard(body: Any, where: str, strays: list[str], names: Collection[str]) -> Any:
    """`body` with every mark taken out; the English each string a player reads says outside the marks goes
    into `strays` (as `where: word word: the text`). `names` are the people's (not English to translate)."""
    read = "/commands" not in where
    return _walk(body, where, strays, names, read, parent_key="")


def _walk(value: Any, where: str, strays: list[str], names: Collection[str], read: bool, parent_key: str) -> Any:
    if isinstance(value, str):
        if read and i18n._marking:
            found = i18n.stray_english(value, names)
            if found:
                strays.append(f"{where} {parent_key}: {' '.join(found)}: {i18n.unmarked(value)!r}")
        return i18n.unmarked(value)
    if isinstance(value, list):
        return [_walk(item, where, strays, names, read, parent_key) for item in value]
    if isinstance(value, dict):
        field = parent_key == "fields"  # an embed field's value is read; a select option's or choice's is an id
        return {
            key: _walk(item, where, strays, names, read and key not in UNREAD and (key != "value" or field), key)
            for key, item in value.items()
        }
    return value
