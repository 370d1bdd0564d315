"""The terminal in German, as `LANG=de_DE.UTF-8 python -m bot` starts it (bot/app.py: the language of LANG
for the whole process): a short game, from the help to its end, in German; what is typed stays English."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot import i18n
from bot.games import GAMES
from bot.local import COMMANDS, Terminal
from bot.local.terminal import full_help
from bot.service import MatchService
from tests import german_words

FISH = GAMES["fish"]


@pytest.fixture
def german() -> Iterator[None]:
    """The terminal's language as the real start sets it from LANG (`run_offline`), put back afterwards."""
    i18n.set_default(i18n.terminal_language({"LANG": "de_DE.UTF-8"}))
    try:
        yield
    finally:
        i18n.set_default(i18n.ENGLISH)


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def test_a_short_game_in_german(german: None, terminal: Terminal, out: list[str]) -> None:
    """help, a new match, refusals, a move, the board in words, resigning (asked first) and the end: every
    line the terminal words itself is German (the posts' own words are bot/posts.py's)."""
    said = await run(terminal, out, "help")
    assert said.startswith("Befehle (dieselben wie die Slash-Befehle auf Discord;")
    assert "aufgeben, für den Spieler am Zug oder für NAME" in said and "beenden (auch exit)" in said
    assert "> fish new alice computer        alice setzt zuerst, der Computer antwortet von selbst" in said
    assert "leave (exit too)" not in said

    assert (await run(terminal, out, "fish new alice bob --seed 5")).endswith("match-1-ply-000-started.png")
    assert "[#1] Brett: " in out[-1]
    assert (await run(terminal, out, "fish moove A1")).startswith(
        "✗ Unbekannter Befehl von fish 'moove': new, dm, move, board, moves, history, rules, resign, record,"
        " analysis, takeback, accept, decline oder claim."
    )
    assert await run(terminal, out, "fish move A1 --colour red") == "✗ Unbekannte Option --colour für diesen Befehl."
    assert await run(terminal, out, "use x") == "✗ Die Partienummer muss eine Zahl sein, nicht 'x'."
    assert await run(terminal, out, "fish new alice") == (
        '✗ Nenne 2 Spieler für "1, 2, 3" (nicht 1), etwa: fish new alice bob.'
    )
    assert "[#1] Brett: " in await run(terminal, out, "fish move A1")
    assert "A1" in await run(terminal, out, "fish board --text")
    assert await run(terminal, out, "fish resign") == (
        'bob, Partie #1 ("1, 2, 3") aufgeben? Tipp yes zum Aufgeben, no zum Weiterspielen.'
    )
    assert await run(terminal, out, "no") == "Nicht aufgegeben: Partie #1 geht weiter."
    await run(terminal, out, "fish resign")
    ended = await run(terminal, out, "yes")
    assert "[#1] Wiederholung: " in ended and "match-1-ply-001-over.png" in ended
    assert await run(terminal, out, "games") == "Es laufen keine Partien."
    assert await run(terminal, out, "fish moves") == "Keine legalen Züge: das Spiel ist vorbei."


def test_every_help_line_of_the_terminal_s_own_is_german(german: None) -> None:
    """Each command's help line the terminal words itself (not a game's moves or options, which bot/games
    words) has its German, and the help shows it."""
    said = full_help()
    leaves = [leaf for command in COMMANDS for leaf in (command.commands or (command,))]
    own = [leaf.help for leaf in leaves if isinstance(leaf.help, str) and leaf.help]
    assert len(own) > 30
    for english in own:
        german = i18n.translate("de", None, english)
        assert german is not None, english
        assert german.split(";")[0][:30] in said, german


async def test_a_whole_game_to_its_end_by_the_rules_in_german(
    german: None, terminal: Terminal, out: list[str], service: MatchService
) -> None:
    """`LANG=de_DE.UTF-8`: a whole game of "1, 2, 3" played to its end by the rules, then its history, board,
    record and the games: no line printed holds a word only English has, and every sentence German words
    (the posts', the engine's and the pictures' words included, not only the terminal's own)."""
    await run(terminal, out, "fish new alice bob --seed 5")
    rng = random.Random(3)
    while (match := await service.get(1)).running:
        move = rng.choice(FISH.legal_moves(match.state))
        assert "✗" not in await run(terminal, out, f"fish move {move}")
    assert match.result is not None and match.ply > 20
    for line in ("fish history", "fish board --text", "games", "mygames alice"):
        await run(terminal, out, line)
    names = ("alice", "bob")
    assert [(line, found) for line in out if (found := german_words.english_in(line, names))] == []
    assert [line for line in out if german_words.not_german(line, names)] == []
    assert any("Spiel vorbei" in line or "gewinnt" in line for line in out)
