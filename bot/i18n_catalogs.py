"""Keeping the translation catalogs: extract, update, compile (and check they are not stale).

    python -m bot.i18n_catalogs          # extract bot/locale/bot.pot, update every bot.po, compile every bot.mo
    python -m bot.i18n_catalogs --check  # change nothing; exit 1 naming what is out of date

Strings come from two places: every `_`, `ngettext`, `pgettext` and `N_` in the code (Babel's Python
extractor, babel.cfg), and every name, description and choice of the slash commands, which discord.py hands
to the `Translator` (bot/discord_i18n.py) and which no `_` marks: `extract_commands` builds the real command
tree and gives each its context (`discord name`, `discord description`, `discord choice`), so a name is
translated as a name (lowercase, no spaces, at most 32 characters). The pseudo-locale `qps` is generated from
the template, never written by hand.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.discord_i18n import CHOICE, CONTEXT_OF, DESCRIPTION, NAME
from bot.i18n import DOMAIN, LOCALE_DIR, PSEUDO, TRANSLATED, pseudo

ROOT = Path(__file__).resolve().parent.parent
DATED = datetime(2026, 1, 1, tzinfo=UTC)
"""The date every catalog header says: a real one would change the compiled files on every run."""
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
RULES = {
    NAME: "A slash-command name: lowercase letters, digits, - or _, no spaces, 1-32 characters.",
    DESCRIPTION: "A slash-command description: at most 100 characters.",
    CHOICE: "A choice of a slash-command option: at most 100 characters.",
}


# --- the command tree's strings ---


async def _command_tree_strings() -> list[tuple[str, str]]:
    """(context, English) of every string the real command tree sends Discord, in the tree's order."""
    from discord import Locale, app_commands

    from bot.config import Config
    from bot.discord_app import EXTENSIONS, GameBot
    from bot.service import MatchService
    from bot.store import Store

    found: dict[tuple[str, str], None] = {}

    class Collector(app_commands.Translator):
        async def translate(
            self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
        ) -> str | None:
            if locale is Locale.german:  # every string is asked once per locale: one is enough
                found.setdefault((CONTEXT_OF[context.location.name], string.message))
            return None

    with tempfile.TemporaryDirectory() as folder:
        config = Config(
            discord_token="-", database_path=Path(folder) / "x.db", dev_guild_id=None, mod_role=None,
            log_level="INFO", house_wins=True, analysis_workers=0,
        )  # fmt: skip
        bot = GameBot(config)
        bot.store = await Store.open(config.database)
        bot.service = MatchService(bot.store)
        try:
            for extension in EXTENSIONS:
                await bot.load_extension(extension)
            await bot.tree.set_translator(Collector())
            for command in bot.tree.get_commands():
                await command.get_translated_payload(bot.tree, bot.tree.translator)  # type: ignore[arg-type]
        finally:
            await bot.tree.set_translator(None)
            await bot.store.close()
            await bot.http.close()
    return list(found)


def command_tree_strings() -> list[tuple[str, str]]:
    return asyncio.run(_command_tree_strings())


def extract_commands(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """A Babel extraction method (babel.cfg's `commands`): the command tree's strings, each with its rule;
    then the strings its file (bot/discord_app.py) marks itself, which babel.cfg's first match would skip."""
    from babel.messages.extract import extract_python

    for context, message in command_tree_strings():
        yield 0, "pgettext", (context, message), [RULES[context]]
    yield from extract_python(fileobj, keywords, comment_tags, options)


# --- the pseudo-locale ---

# --- extract, update, compile ---


def fresh_template() -> Catalog:
    """The template as the code says it now (babel.cfg's methods over the repository)."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as mapping_file:
        method_map, options_map = parse_mapping_cfg(mapping_file)  # type: ignore[no-untyped-call]
    catalog = Catalog(project="boardgame-bot", charset="utf-8", fuzzy=False, creation_date=DATED, revision_date=DATED)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def updated(template: Catalog, language: str) -> Catalog:
    """A language's catalog with the template's strings: translations kept, new strings empty (English is
    shown until someone translates them), strings gone from the code dropped."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language)
    else:
        catalog = Catalog(locale=language, project="boardgame-bot", charset="utf-8", revision_date=DATED)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return catalog


def pseudo_catalog(template: Catalog) -> Catalog:
    catalog = Catalog(locale="en", project="boardgame-bot", charset="utf-8", creation_date=DATED, revision_date=DATED)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            text: Any = tuple(pseudo(form, message.context) for form in message.id)
        else:
            text = pseudo(message.id, message.context)
        catalog.add(message.id, text, context=message.context)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, omit_header=False, sort_output=False, include_lineno=False)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def planned() -> dict[Path, bytes]:
    """Every catalog file as it should be now, by path."""
    template = fresh_template()
    files = {TEMPLATE: _po_bytes(template)}
    for language in (*TRANSLATED, PSEUDO):
        catalog = pseudo_catalog(template) if language == PSEUDO else updated(template, language)
        folder = LOCALE_DIR / language / "LC_MESSAGES"
        files[folder / f"{DOMAIN}.po"] = _po_bytes(catalog)
        files[folder / f"{DOMAIN}.mo"] = mo_bytes(catalog)
    return files


def _without_dates(data: bytes) -> bytes:
    """A .pot/.po without the header lines that change on every run (creation and revision dates)."""
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith((b'"POT-Creation', b'"PO-Revision')))


def stale() -> list[Path]:
    """The catalog files that are missing or out of date (the dates in their headers do not count)."""
    out = []
    for path, data in planned().items():
        if not path.exists():
            out.append(path)
        elif path.suffix == ".mo":
            if path.read_bytes() != data:
                out.append(path)
        elif _without_dates(path.read_bytes()) != _without_dates(data):
            out.append(path)
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        old = stale()
        for path in old:
            print(f"out of date: {path.relative_to(ROOT)}")
        if old:
            print("run: python -m bot.i18n_catalogs")
        return 1 if old else 0
    changed = set(stale())
    for path, data in planned().items():
        if path in changed:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
