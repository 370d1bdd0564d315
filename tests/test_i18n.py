"""The translation machinery (bot/i18n.py, bot/i18n_catalogs.py): the shipped catalogs are those the code
asks for (never stale), every string is translated in every language with its placeholders kept, a string
no catalog has is shown in English (never a key), which language each reader gets, and numbers and
durations written as each locale writes them."""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from bot import i18n, i18n_catalogs, posts
from bot.discord_i18n import CHOICE, DESCRIPTION, NAME
from bot.i18n import LOCALE_DIR, TRANSLATED
from bot.local import Terminal


def catalog(language: str):  # type: ignore[no-untyped-def]
    with (LOCALE_DIR / language / "LC_MESSAGES" / "bot.po").open("rb") as handle:
        return read_po(handle, locale=language)


def fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_the_shipped_catalogs_are_what_the_code_asks_for() -> None:
    """The template is a fresh extraction (code and command tree), each .po has its strings, each .mo is
    the .po compiled: run `python -m bot.i18n_catalogs` after changing a string."""
    assert i18n_catalogs.stale() == []


def test_the_template_holds_the_command_tree_and_the_marked_strings() -> None:
    template = {(m.context, m.id) for m in i18n_catalogs.fresh_template() if m.id}
    assert (NAME, "settings") in template and (NAME, "move") in template
    assert (DESCRIPTION, "Moderators: change one of this server's settings") in template
    assert (CHOICE, "rated: finished games change the players' ratings") in template
    assert (None, "Set {key} to {value} (was {was}).") in template  # a `_` in bot/service/settings.py
    assert (None, "the moderator role (Manage Server always moderates)") in template  # an N_ label


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated_keeping_its_placeholders(language: str) -> None:
    missing, broken = [], []
    for message in catalog(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(texts) or message.fuzzy:  # a fuzzy one is a guess gettext never shows: English again
            missing.append(ids[0])
        elif any(fields(text) != fields(ids[0]) for text in texts):
            broken.append(ids[0])
    assert missing == [] and broken == []


def test_a_string_without_a_translation_is_english_never_a_key() -> None:
    with i18n.using("de"):
        assert i18n._("Set {key} to {value} (was {was}).") == "{key} auf {value} gesetzt (war {was})."
        assert i18n._("A sentence nobody translated yet.") == "A sentence nobody translated yet."
        assert i18n.ngettext("one apple", "{count} apples", 3) == "{count} apples"
    assert i18n.translate("de", NAME, "settings") == "einstellungen"
    assert i18n.translate("de", NAME, "no-such-command") is None  # Discord then shows the English default
    assert i18n.translate("en", NAME, "settings") is None
    with i18n.using("xx"):  # not a language we speak: English
        assert i18n.current() == "en" and i18n._("the default") == "the default"


def test_plural_forms_follow_each_languages_rules() -> None:
    one, many = "{count} setting changed from the defaults", "{count} settings changed from the defaults"
    said = {}
    for language in TRANSLATED:
        with i18n.using(language):
            said[language] = [i18n.ngettext(one, many, n).format(count=n) for n in (0, 1, 2)]
    assert said["de"] == [
        "0 Einstellungen vom Standard geändert",
        "1 Einstellung vom Standard geändert",
        "2 Einstellungen vom Standard geändert",
    ]
    assert said["fr"][0] == "0 paramètre modifié par rapport aux défauts"  # French: 0 is singular
    assert said["pt_BR"][2] == "2 configurações alteradas do padrão"
    assert said["es"][0] == "0 ajustes cambiados respecto al predeterminado"


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("de", "de"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("fr", "fr"),
        ("pt-BR", "pt_BR"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("ja", "en"),
        ("de_AT.UTF-8", "de"),
        ("pt_PT.UTF-8", "pt_BR"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_locale_picks_our_language(locale: str | None, language: str) -> None:
    assert i18n.language_for(locale) == language


def test_public_posts_take_the_servers_setting_then_its_discord_language() -> None:
    assert i18n.server_language("fr", "de") == "fr"
    assert i18n.server_language(None, "de") == "de"
    assert i18n.server_language(None, "pt-BR") == "pt_BR"
    assert i18n.server_language(None, "ko") == "en"
    assert i18n.server_language(None, None) == "en"


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8", "LC_ALL": "es_ES.UTF-8"}, "es"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"}, "pt_BR"),
        ({"LANGUAGE": "nl:fr", "LANG": "nl_NL.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_speaks_the_language_of_lang(environ: dict[str, str], language: str) -> None:
    assert i18n.terminal_language(environ) == language


def test_numbers_and_durations_are_written_as_each_locale_writes_them() -> None:
    written = {}
    for language in ("en", *TRANSLATED):
        with i18n.using(language):
            written[language] = (i18n.number(1000), i18n.duration(86_400 + 2 * 3_600), i18n.duration(1))
    assert written == {
        "en": ("1,000", "1 day 2 hours", "1 second"),
        "de": ("1.000", "1 Tag und 2 Stunden", "1 Sekunde"),
        "es": ("1.000", "1 día y 2 horas", "1 segundo"),
        "fr": ("1\u202f000", "1\xa0jour et 2\xa0heures", "1\xa0seconde"),  # non-breaking spaces, as French sets them
        "pt_BR": ("1.000", "1 dia e 2 horas", "1 segundo"),
    }


def test_dates_are_written_as_each_locale_writes_them() -> None:
    at = 1_796_624_400  # 2026-12-07 06:20 UTC
    written = {}
    for language in ("en", "de", "fr"):
        with i18n.using(language):
            written[language] = i18n.date_time(at)
    assert written == {
        "en": "Dec 7, 2026, 6:20:00\u202fAM",
        "de": "07.12.2026, 06:20:00",
        "fr": "7 déc. 2026, 06:20:00",
    }


@pytest.mark.parametrize("seconds", [0, 0.2, 1, 59, 61, 3_600, 3_601, 86_399, 86_400, 7 * 86_400 + 5, 365 * 86_400])
def test_english_durations_are_the_posts_wording(seconds: float) -> None:
    """`i18n.duration` is `posts.wait_words` in every language: in English the very same words."""
    with i18n.using("en"):
        assert i18n.duration(seconds) == posts.wait_words(seconds)


def test_the_pseudo_locale_marks_text_and_keeps_placeholders() -> None:
    marked = i18n.pseudo("Set {key} to {value} with `/settings set`.")
    assert marked.startswith("⟦") and marked.endswith("⟧")
    assert "{key}" in marked and "{value}" in marked and "Set" not in marked and "settings" not in marked
    name = i18n.pseudo("settings", NAME)
    assert name != "settings" and "⟦" not in name and name == name.lower() and len(name) == len("settings")
    with i18n.using("qps"):
        assert i18n._("the default") == i18n.pseudo("the default")
        assert i18n.duration(3_600).startswith("⟦")


@pytest.fixture
def german_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal started with LANG=de_DE.UTF-8, as bot/app.py's `run_offline` starts it."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    i18n.set_default(i18n.terminal_language())
    yield
    i18n.set_default(i18n.ENGLISH)


async def test_the_terminal_speaks_german_with_lang_de(
    german_terminal: None, terminal: Terminal, out: list[str]
) -> None:
    await terminal.handle("settings set reminder_count 5")
    assert out[-1] == "reminder_count auf 5 gesetzt (war 3, der Standard)."
    await terminal.handle("settings set rated vielleicht")
    assert out[-1] == "✗ rated nimmt on oder off, nicht 'vielleicht'; nichts wurde geändert."
    await terminal.handle("settings set language fr")
    assert out[-1] == (
        "✗ language ist eine Einstellung eines Discord-Servers: das Terminal spricht die Sprache von LANG. Die des"
        " Terminals sind house_wins, rated, default_clock, reminder_every, reminder_count, away_days, claim_after."
    )
    await terminal.handle("settings")
    shown = out[-1].splitlines()
    assert shown[0] == (
        "Die Einstellungen des Terminals (1 Einstellung vom Standard geändert). Ändere eine mit settings set KEY"
        " VALUE und stelle sie mit settings reset KEY zurück."
    )
    assert "• claim_after (Partien ohne Uhr: ein Gegner darf nach dieser Zeit ohne Zug einfordern): 7 Tage — der" \
        " Standard" in shown  # fmt: skip


@pytest.mark.parametrize(
    ("reason", "german"),
    [
        (("flag", "bob"), "die Reservezeit von bob ist abgelaufen"),
        (("resignation", "Zoë the Bold"), "Zoë the Bold hat aufgegeben"),
        (("adjudication", "mod"), "entschieden von mod"),
        (("abandoned", ""), "nur noch Computerspieler waren übrig"),
    ],
)
def test_a_reason_the_service_stores_in_english_is_said_in_the_readers_language(
    reason: tuple[str, str], german: str
) -> None:
    """A result's reason is data (stored with the result, in English, whoever reads); each reader gets it in
    their language, the name in it as typed."""
    from bot import posts
    from bot.games import Outcome, Termination

    termination, name = Termination(reason[0]), reason[1]
    stored = posts.end_reason(termination, name)
    with i18n.using("de"):
        assert posts.end_reason(termination, name) == stored  # the stored text never depends on the reader
        assert Outcome((1, 0), frozenset({0}), stored, termination).said == german
    assert Outcome((1, 0), frozenset({0}), stored, termination).said == stored


def test_a_death_match_score_is_said_in_the_readers_language() -> None:
    from bot import posts
    from bot.games.phrases import say

    assert posts.SERIES_LEVEL(score="1–1", count=2) == "level at 1–1 after 2 games"
    with i18n.using("de"):
        assert say(posts.SERIES_LEVEL(score="1–1", count=2)) == "Gleichstand 1–1 nach 2 Spielen"
        assert say(posts.SERIES_WON(score="2–1")) == "2–1 in Spielen"
    with i18n.using("fr"):
        assert say(posts.SERIES_LEVEL(score="1–1", count=3)) == "égalité 1–1 après 3 parties"


@pytest.mark.parametrize(
    ("after", "german"), [(7 * 86_400, "7 Tage"), (2 * 86_400 + 3 * 3_600, "2 Tage und 3 Stunden")]
)
def test_a_claims_reason_says_its_wait_in_the_readers_words(after: float, german: str) -> None:
    from bot import posts
    from bot.games.phrases import say
    from bot.models import Player

    alice, bob = Player("local:alice", "alice"), Player("local:bob", "bob")
    stored = posts.claim_reason(alice, bob, after, 2)
    assert stored.startswith("alice claimed the win: bob did not move for ")
    with i18n.using("de"):
        assert posts.claim_reason(alice, bob, after, 2) == stored
        assert say(stored) == f"alice hat den Sieg beansprucht: bob hat {german} lang nicht gezogen"
        assert say(posts.claim_reason(alice, bob, after, 3)).startswith("alice hat die Partie beansprucht")
