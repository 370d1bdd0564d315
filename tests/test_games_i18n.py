"""The games' words beyond the engines in the reader's language (issue #37): the analysis report, the rules
cards, the ratings tables, the best solitaire scores and the record files' refusals, said in German, while
what is stored or typed (the analysis itself, a record's JSON, notation) stays the same in every language."""

from __future__ import annotations

import json

import pytest

from bot import analysis, discord_limits, i18n, ratings, solitaire
from bot.analysis import Analysis, Point, Step, find_swings
from bot.computer import AnalysisBusy, Analyst
from bot.games import GAMES, REGISTRY
from bot.models import Player
from bot.records import RecordError, load_record
from bot.service import MatchService
from tests.conftest import ALICE, BOB
from tests.test_analysis import BUDGET, finished
from tests.test_computer import InlineExecutor


def swung() -> tuple[Analysis, analysis.Swing]:
    series = [Point(0, (0.6, 0.4), "best1"), Point(1, (0.1, 0.9))]
    (swing,) = find_swings(series, [Step(0, "D4-F3")])
    found = Analysis("fish", ("alice", "bob"), 1, tuple(series), (swing,), (0.0, 1.0), frozenset({1}), "x", None, 9)
    return found, swing


def test_an_analysis_report_line_in_german() -> None:
    found, swing = swung()
    assert analysis.swing_line(found, swing) == (
        "1. move 1, alice played D4-F3: 60% → 10% for alice; the computer preferred best1."
    )
    with i18n.using("de"):
        line = analysis.swing_line(found, swing)
        text = analysis.message(found)
    assert line == "1. Zug 1, alice spielte D4-F3: 60\xa0% → 10\xa0% für alice; der Computer bevorzugte best1."
    assert text.startswith('Gewinnchancen ("1, 2, 3"), Zug für Zug: jede Stellung aus 1 Zug,')
    assert "Der größte Umschwung:" in text and "bob hat gewonnen (x)." in text


def test_a_resignation_in_a_swing_is_said_whole_in_german() -> None:
    series = [Point(0, (0.5, 0.5)), Point(1, (0.0, 1.0))]
    (swing,) = find_swings(series, [Step(0, "resigned", is_move=False)])
    found = Analysis("fish", ("alice", "bob"), 1, tuple(series), (swing,), (0.0, 1.0), frozenset({1}), "x", None, 9)
    with i18n.using("de"):
        assert analysis.swing_line(found, swing) == "1. Zug 1, alice hat aufgegeben: 50\xa0% → 0\xa0% für alice."


async def test_the_analyst_says_a_report_in_each_reader_s_language_from_one_analysis(service: MatchService) -> None:
    match = await service.get(await finished(service))
    analyst = Analyst(service, executor=InlineExecutor(), iterations=BUDGET)
    english = await analyst.report(match)
    with i18n.using("de"):
        german = await analyst.report(match)
        assert await analyst.report(match) is german  # kept, per language
        refused = analysis.refusal(await service.create_match("fish", [ALICE, BOB], seed=1))
    assert english.text.startswith("Win chances of match #") and german.text.startswith("Gewinnchancen der Partie #")
    assert german.analysis is english.analysis  # the searches are made once, whatever the language
    assert await analyst.report(match) is english
    assert refused is not None and "läuft noch" in refused
    with i18n.using("de"), pytest.raises(AnalysisBusy, match="frag in ein, zwei Minuten"):
        Analyst(service, executor=InlineExecutor(), most_waiting=0).check(match)


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("language", i18n.TRANSLATED)
def test_every_rules_card_is_translated_and_fits_in_a_discord_message(key: str, language: str) -> None:
    english = GAMES[key].rules_card
    with i18n.using(language):
        card = GAMES[key].rules_card
    assert card != english and card.count("\n") == english.count("\n")  # one paragraph a line, each translated
    assert 0 < len(card) <= discord_limits.MESSAGE


def test_a_rules_card_in_german_keeps_its_notation() -> None:
    with i18n.using("de"):
        fish, geyser = GAMES["fish"].rules_card, GAMES["geyser"].rules_card
        note = REGISTRY["geyser"].typed.note
    assert "Pinguin" in fish and "fish move D4-F3" in fish
    assert "Muttergeysir" in geyser and "geyser move start f1" in geyser and "(again / retreat)" in geyser
    assert note == "2 bis 4 Spieler" and REGISTRY["geyser"].typed.note == "2 to 4 players"


def test_the_ratings_tables_in_german() -> None:
    entry = ratings.PlayerRating(None, "fish", "local:alice", "alice", ratings.Rating(1662, 300), 1, 1, 0, 0)
    with i18n.using("de"):
        board = ratings.leaderboard_lines("Geyser", [entry])
        stats = ratings.stats_lines("alice", [entry], {"fish": '"1, 2, 3"'})
        nobody = ratings.leaderboard_lines("Event Horizon", [])
    assert board[0].startswith("Rangliste Geyser (Glicko-2; ± sind zwei RDs;")
    assert board[1] == "1. alice: 1662? ±600 · 1 Spiel, 1-0-0 S-N-U"
    assert stats[0].startswith("Wertungen von alice") and stats[1].endswith("1 Spiel, 1-0-0 S-N-U")
    assert nobody == [
        "Hier hat noch niemand eine Wertung in Event Horizon: beende ein Spiel zwischen zwei oder mehr "
        "Menschen, um eine zu bekommen."
    ]


def test_the_best_solitaire_scores_in_german() -> None:
    best = solitaire.Best(37.0, Player("local:alice", "alice"), "diagonal", "classic", 4)
    with i18n.using("de"):
        lines = solitaire.best_lines([best], "diagonal")
        none = solitaire.best_lines([])
    assert lines[0].startswith("Beste Solitärergebnisse in Volcano mit der Eröffnung diagonal")
    assert lines[1] == "1. 37 Punkte von alice: Eröffnung diagonal, Aufbau classic (Partie #4)"
    assert none == ["Hier wurde noch keine Solitärpartie Volcano beendet."]


def test_a_record_error_in_german() -> None:
    with i18n.using("de"), pytest.raises(RecordError) as refused:
        load_record(json.dumps({"format": "boardgame-bot record", "version": 99}))
    assert str(refused.value) == "Protokollversion 99 kann dieser Bot nicht lesen (er liest 1)."
    with i18n.using("de"), pytest.raises(RecordError) as refused:
        load_record("[" * 10)
    assert str(refused.value).startswith("Das ist keine JSON-Datei:")
