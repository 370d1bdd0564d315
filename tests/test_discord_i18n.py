"""Players in their own language on Discord, through the real discord.py code and the fake Discord: the command
tree syncs with every name, description and choice localized in German, Spanish, French and Brazilian
Portuguese and passes Discord's checks of localizations; the pseudo-locale finds no string of the tree that
skipped the catalog; and a German user's /settings answers and refusals come in German while an English
user's, at the same time, stay English."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from bot.discord_app import GameBot
from bot.discord_i18n import CHOICE, COMMAND_LOCALES, DESCRIPTION, NAME, CatalogTranslator, public_language
from bot.service import SETTINGS
from tests.discord_fake import DiscordFake
from tests.discord_helpers import RATE_SCALE

LOCALES = sorted(locale.value for locale in COMMAND_LOCALES)  # de, es-419, es-ES, fr, pt-BR
SUBCOMMAND, GROUP = 1, 2


def items(command: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (kind, item) of a synced command that Discord shows a user: the command, its groups,
    subcommands and options ("named": a name and a description), and their choices ("choice")."""
    yield "named", command
    for option in command.get("options") or []:
        yield from items(option)
    for choice in command.get("choices") or []:
        yield "choice", choice


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    """A server whose Discord language (its "Primary Language") is German."""
    async with DiscordFake.serve(rate_scale=RATE_SCALE) as fake:
        fake.guild.locale = "de"
        yield fake


async def test_every_command_name_description_and_choice_is_localized(fake: DiscordFake, bot: GameBot) -> None:
    """The bot synced its tree at setup (the fake checks localizations as Discord does: locale keys, the
    name rules, lengths); here each thing a user reads has a localization in each language."""
    synced = fake.registered_commands[fake.guild.id]
    assert len(synced) > 10
    wrong = []
    for command in synced:
        for kind, item in items(command):
            for key in ("name",) if kind == "choice" else ("name", "description"):
                context = CHOICE if kind == "choice" else NAME if key == "name" else DESCRIPTION
                localized = item.get(f"{key}_localizations") or {}
                for locale, language in COMMAND_LOCALES.items():
                    catalog = i18n.translations(language).pgettext(context, item[key])
                    if localized.get(locale.value, item[key]) != catalog:  # none: the same word (`dm`, `computer`)
                        wrong.append((command["name"], item[key], locale.value))
    assert wrong == []  # with tests/test_i18n.py (every string of the tree in the catalog, translated): all
    settings = next(c for c in synced if c["name"] == "settings")
    assert settings["name_localizations"] == {
        "de": "einstellungen",
        "es-ES": "ajustes",
        "es-419": "ajustes",
        "fr": "paramètres",
        "pt-BR": "configurações",
    }
    show = next(o for o in settings["options"] if o["name"] == "show")
    assert show["description_localizations"]["de"] == (
        "Die Einstellungen dieses Servers: jeder Wert und ob er der Standard ist"
    )


async def test_localized_names_are_unique_among_their_siblings(fake: DiscordFake, bot: GameBot) -> None:
    """Two commands (or two options of one command) may not look the same to a user in any language."""
    clashes = []

    def check(siblings: list[dict[str, Any]], where: str) -> None:
        for locale in LOCALES:
            names = [(s.get("name_localizations") or {}).get(locale, s["name"]) for s in siblings]
            clashes.extend((where, locale, n) for n in set(names) if names.count(n) > 1)
        for sibling in siblings:
            if sibling.get("type", SUBCOMMAND) in (SUBCOMMAND, GROUP) and sibling.get("options"):
                check(sibling["options"], f"{where} {sibling['name']}")

    check(fake.registered_commands[fake.guild.id], "")
    assert clashes == []


async def test_the_pseudo_locale_finds_no_string_that_skipped_the_catalog(bot: GameBot) -> None:
    """Translated into the pseudo-locale, every name comes back accented and every description and choice
    wrapped in ⟦ ⟧: a string missing from the catalog would come back as None (Discord's English)."""
    pseudo = CatalogTranslator(dict.fromkeys(COMMAND_LOCALES, i18n.PSEUDO))
    unmarked = []
    for command in bot.tree.get_commands():
        payload = await command.get_translated_payload(bot.tree, pseudo)  # type: ignore[arg-type]
        for kind, item in items(payload):
            for key in ("name",) if kind == "choice" else ("name", "description"):
                text = (item.get(f"{key}_localizations") or {}).get("de")
                marked = text is not None and (
                    text.startswith("⟦") if kind == "choice" or key == "description" else text != item[key]
                )
                if not marked:
                    unmarked.append(item[key])
    assert unmarked == []


async def test_a_command_named_in_a_translation_is_the_localized_one(fake: DiscordFake, bot: GameBot) -> None:
    """A translated sentence that names a command in backticks (`/einstellungen setzen`) names it as that
    language's users see it in their command picker."""
    synced = fake.registered_commands[fake.guild.id]
    wrong = []
    for locale, language in COMMAND_LOCALES.items():
        paths: set[str] = set()

        def walk(item: dict[str, Any], prefix: str, locale: str = locale.value, paths: set[str] = paths) -> None:
            path = f"{prefix} {(item.get('name_localizations') or {}).get(locale, item['name'])}".strip()
            paths.add(path)
            for option in item.get("options") or []:
                if option.get("type") in (SUBCOMMAND, GROUP):
                    walk(option, path)

        for command in synced:
            walk(command, "")
        with (i18n.LOCALE_DIR / language / "LC_MESSAGES" / "bot.po").open("rb") as handle:
            strings = [m.string for m in read_po(handle) if m.id and isinstance(m.string, str)]
        named = [found for text in strings for found in re.findall(r"`/([^`]+)`", text)]
        assert named  # the /settings answers name commands
        wrong += [(language, name) for name in named if name not in paths]
    assert wrong == []


def setting(key: str, value: str) -> dict[str, Any]:
    return {"setting": key, "value": value}


async def test_a_german_user_gets_the_settings_answers_in_german(fake: DiscordFake, bot: GameBot) -> None:
    shown = await fake.slash("alice", "settings show", locale="de")
    lines = (shown.content or "").splitlines()
    assert shown.ephemeral and len(shown.content or "") <= 2000
    assert lines[0] == (
        "Die Einstellungen dieses Servers (jede Einstellung ist der Standard). Moderatoren ändern eine mit"
        " `/einstellungen setzen` und stellen sie mit `/einstellungen zurücksetzen` zurück."
    )
    assert "• rated (beendete Partien ändern die Wertungen der Spieler): an — der Standard" in lines
    assert "• reminder_every (Partien ohne Uhr: den Spieler nach dieser Zeit an seinen Zug erinnern, dann in" \
        " diesem Abstand): 1 Tag — der Standard" in lines  # fmt: skip
    assert "• language (die Sprache der öffentlichen Posts hier: Bretter, Erinnerungen, Ergebnisse): auto: die" \
        " Sprache des Servers in Discord, sonst Englisch — der Standard" in lines  # fmt: skip

    refused = await fake.slash("alice", "settings set", setting("rated", "off"), locale="de")
    assert refused.ephemeral and refused.content == (
        "Nur Moderatoren (Berechtigung „Server verwalten“ oder die Rolle Game Master) können das."
    )
    assert bot.matches.settings.rated(fake.guild.id)

    done = await fake.slash("mod", "settings set", setting("rated", "off"), locale="de")
    assert done.ephemeral and done.content == (
        "rated auf aus: Partien hier sind ungewertet, beendete Partien ändern keine Wertungen gesetzt (war an,"
        " der Standard)."
    )
    bad = await fake.slash("mod", "settings set", setting("limit_lobbies", "5000"), locale="de")
    assert bad.ephemeral and bad.content == (
        "limit_lobbies nimmt eine ganze Zahl von 1 bis 1.000, nicht '5000'; nichts wurde geändert."
    )
    late = await fake.slash("mod", "settings set", setting("claim_after", "2y"), locale="de")
    assert late.content == (
        "claim_after nimmt eine Zeit von 1 Stunde bis 365 Tage, etwa 3d, 7d, 14d, nicht '2y'; nichts wurde geändert."
    )
    mod_id = fake.user("mod")["id"]
    again = await fake.slash("bob", "settings show", locale="de")
    assert "1 Einstellung vom Standard geändert" in (again.content or "").splitlines()[0]
    assert f"gesetzt von <@{mod_id}> <t:" in (again.content or "")

    english = await fake.slash("bob", "settings show")  # the same server, an English user: English
    assert (english.content or "").startswith("This server's settings (1 setting changed from the defaults).")
    back = await fake.slash("mod", "settings reset", {"setting": "rated"}, locale="de")
    assert back.content == (
        "rated auf den Standard zurückgesetzt, an (war aus: Partien hier sind ungewertet, beendete Partien ändern"
        " keine Wertungen)."
    )
    assert fake.unsafe_pings() == []


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("es-ES", "el predeterminado"),
        ("es-419", "el predeterminado"),
        ("fr", "par défaut"),
        ("pt-BR", "o padrão"),
        ("ja", "the default"),  # a language we do not speak yet: English
    ],
)
async def test_each_language_answers_in_its_own_words(fake: DiscordFake, bot: GameBot, locale: str, words: str) -> None:
    shown = await fake.slash("alice", "settings show", locale=locale)
    assert f"— {words}" in (shown.content or "")


async def test_public_posts_speak_the_servers_setting_else_its_discord_language(
    fake: DiscordFake, bot: GameBot
) -> None:
    guild = bot.get_guild(fake.guild.id)
    settings = bot.matches.settings
    assert public_language(settings.language(fake.guild.id), guild) == "de"  # the server's Primary Language
    done = await fake.slash("mod", "settings set", setting("language", "Français"), locale="de")
    assert done.content == "language auf Français (fr) gesetzt (war auto: die Sprache des Servers in Discord, sonst" \
        " Englisch, der Standard)."  # fmt: skip
    assert public_language(settings.language(fake.guild.id), guild) == "fr"
    refused = await fake.slash("mod", "settings set", setting("language", "Klingon"))
    assert refused.content == (
        "language takes auto, or a language: en, de, es, fr, pt-BR, not 'Klingon'; nothing changed."
    )
    await fake.slash("mod", "settings set", setting("language", "pt-br"))
    assert settings.language(fake.guild.id) == "pt_BR"
    await fake.slash("mod", "settings reset", {"setting": "language"})
    assert public_language(settings.language(fake.guild.id), guild) == "de"
    assert public_language(None, None) == "en"


async def test_the_language_suggestions_name_each_language_in_itself(fake: DiscordFake, bot: GameBot) -> None:
    offered = await fake.autocomplete("mod", "settings set", {"setting": "language", "value": ""}, locale="de")
    assert offered == [
        {"name": "auto: die Sprache des Servers in Discord, sonst Englisch", "value": "auto"},
        {"name": "English (en)", "value": "en"},
        {"name": "Deutsch (de)", "value": "de"},
        {"name": "Español (es)", "value": "es"},
        {"name": "Français (fr)", "value": "fr"},
        {"name": "Português (Brasil) (pt-BR)", "value": "pt-BR"},
    ]
    typed = await fake.autocomplete("mod", "settings set", {"setting": "language", "value": "portu"})
    assert typed[1:] == [{"name": "Português (Brasil) (pt-BR)", "value": "pt-BR"}]


_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[A-Za-z_]{2,}")
KEPT = {*SETTINGS, *i18n.LANGUAGES, *_WORD.findall(" ".join(i18n.LANGUAGES.values()))}
"""Words every language keeps: the setting keys (identifiers a moderator types) and each language's own name
(`Deutsch (de)`, as a language picker writes them)."""


def unmarked_words(text: str) -> list[str]:
    """The words of `text` outside every ⟦ ⟧ (nested ones too) and mentions, less those every language keeps."""
    while _MARKED.search(text):
        text = _MARKED.sub(" ", text)
    text = re.sub(r"<[@#&t:]\S*?>", " ", text)
    return [word for word in _WORD.findall(text) if word not in KEPT]


async def test_the_pseudo_locale_finds_no_english_in_the_settings_answers(fake: DiscordFake, bot: GameBot) -> None:
    """Every answer of /settings, refusals included, read in the pseudo-locale: any English word outside
    ⟦ ⟧ skipped the catalog."""
    said = [
        await fake.slash("alice", "settings show", locale="qps"),
        await fake.slash("alice", "settings set", setting("rated", "off"), locale="qps"),
        await fake.slash("mod", "settings set", setting("rated", "off"), locale="qps"),
        await fake.slash("mod", "settings set", setting("reminder_every", "3d"), locale="qps"),
        await fake.slash("mod", "settings set", setting("limit_lobbies", "0"), locale="qps"),
        await fake.slash("mod", "settings set", setting("claim_after", "soon"), locale="qps"),
        await fake.slash("mod", "settings set", setting("mod_role", "nobody"), locale="qps"),
        await fake.slash("mod", "settings set", setting("mod_role", "@everyone"), locale="qps"),
        await fake.slash("mod", "settings set", setting("match_channel", "#nowhere"), locale="qps"),
        await fake.slash("mod", "settings set", setting("language", "xx"), locale="qps"),
        await fake.slash("mod", "settings set", setting("language", "de"), locale="qps"),
        await fake.slash("mod", "settings reset", {"setting": "rated"}, locale="qps"),
        await fake.slash("bob", "settings show", locale="qps"),
    ]
    texts = [reply.content or "" for reply in said]
    assert all(reply.ephemeral for reply in said) and all("⟦" in text for text in texts)
    leaks = [words for text in texts if (words := unmarked_words(text))]
    assert leaks == []
