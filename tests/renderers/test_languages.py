"""Pictures keep fitting in every language (issue #37): each game's start, middle and end picture, laid out in
English, German, Spanish, French, Brazilian Portuguese and the pseudo-locale (the longest: every string
accented and wrapped in ⟦ ⟧), keeps every text inside its box at no less than the phone minimum, keeps one
picture size per match, and with ordinary names cuts no word of ours ("…" is for a name too long for its
slot, never for a translation). The words drawn and the alt text come out in the reader's language."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot import i18n
from bot.games import GAMES
from renderers import PANELS, render
from renderers.alt_text import describe, text_board
from renderers.analysis import describe as describe_graph
from renderers.draw import Caption, SeatClock
from renderers.panel import MIN_SIZE, Layout, lay_out
from tests.renderers.test_panel import WORST_NAMES, check, playout

LANGUAGES = ("en", *i18n.TRANSLATED, i18n.PSEUDO)
SEATS = {"fish": (2,), "volcano": (3, 6), "themiscyra": (2,), "geyser": (2, 4), "horizon": (2,)}
SHORT_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def moments(key: str, seats: int) -> list[Any]:
    """A match's start, middle and end (and the moves either side of the middle)."""
    states = playout(key, seats, seed=seats + 3, cap=20_000)
    middle = len(states) // 2
    return [states[0], states[1], states[middle], states[min(middle + 1, len(states) - 1)], states[-1]]


def captions(seats: int, names: tuple[str, ...]) -> list[Caption]:
    clocks = tuple(SeatClock(86_400 * 6 + 3_600, 86_400 * 29, running=seat == 0) for seat in range(seats))
    return [
        Caption(names=names[:seats], clocks=clocks, header="Match #1234"),
        Caption(names=names[:seats], clocks=clocks, header="Match #1234", paused=True),
        Caption(names=names[:seats]),
    ]


def laid_out(key: str, state: Any, viewer: int | None, caption: Caption) -> Layout:
    panel, left = PANELS[key]
    return lay_out(panel(GAMES[key].view(state, viewer), viewer, caption), left, 800)


CASES = [(key, seats, language) for key, counts in SEATS.items() for seats in counts for language in LANGUAGES]


@pytest.mark.parametrize(("key", "seats", "language"), CASES)
def test_every_text_fits_its_box_at_the_phone_minimum_in_every_language(key: str, seats: int, language: str) -> None:
    with i18n.using(language):
        for index, state in enumerate(moments(key, seats)):
            for names in (WORST_NAMES, SHORT_NAMES):
                for caption in captions(seats, names):
                    for viewer in (None, 0):
                        layout = laid_out(key, state, viewer, caption)
                        check(layout, f"{key} {seats} seats, {language}, moment {index}, viewer {viewer}")
                        assert all(placed.size >= MIN_SIZE for placed in layout.texts)


@pytest.mark.parametrize(("key", "seats", "language"), [case for case in CASES if case[2] != i18n.PSEUDO])
def test_no_word_of_ours_is_cut_with_ordinary_names(key: str, seats: int, language: str) -> None:
    """Translations wrap or shrink within their slots: with short names nothing is cut with "…" (in the real
    languages: the pseudo-locale, longer than any, is held inside its boxes above)."""
    with i18n.using(language):
        for state in moments(key, seats):
            for caption in captions(seats, SHORT_NAMES):
                for placed in laid_out(key, state, None, caption).texts:
                    assert not any(line.endswith("…") for line in placed.lines), (language, placed.words, placed.lines)


@pytest.mark.parametrize(("key", "seats"), [(key, counts[-1]) for key, counts in SEATS.items()])
def test_one_picture_size_per_match_in_every_language(key: str, seats: int) -> None:
    """The same size from start to end in each language (a key of two lines in German may make it taller than
    in English: the language is the server's, the same for the whole match)."""
    states = moments(key, seats)
    sizes = {}
    for language in LANGUAGES:
        with i18n.using(language):
            caption = captions(seats, WORST_NAMES)[0]
            found = {Image.open(io.BytesIO(render(key, state, caption=caption))).size for state in states}
        assert len(found) == 1, (language, found)
        sizes[language] = found.pop()
    assert all(width == 800 for width, _height in sizes.values()), sizes


def test_the_picture_and_the_alt_text_speak_the_readers_language() -> None:
    state = GAMES["fish"].new(2, 1)
    caption = Caption(names=("alice", "bob"))
    with i18n.using("de"):
        panel, _left = PANELS["fish"]
        words = [placed.words for placed in lay_out(panel(GAMES["fish"].view(state, None), 0, caption), 500, 800).texts]
        said = describe("fish", state, caption)
        board = text_board("fish", state, caption)
    assert "alice setzt einen Spielstein" in words and "alice\u00a0(du)\u00a0▶" in words
    assert "getönt: der letzte Zug" in words
    assert said.startswith('"1, 2, 3"-Brett. alice (Orange) ist am Zug, setzt Spielsteine auf 1-Fisch-Felder')
    assert "Noch kein Zug." in said and "Spielsteine von alice (Orange): keine; noch 4 zu setzen." in said
    assert "Reihe A: " in board and "to move" not in board
    with i18n.using("fr"):
        assert Caption().name(1) == "Joueur 2"
    assert Caption().name(1) == "Player 2"  # English again outside the block: nothing cached across languages


def test_the_pseudo_locale_leaves_no_english_in_the_alt_text() -> None:
    """Every sentence of the alt text and the text board comes from the catalog: in the pseudo-locale no
    English word of ours is left outside ⟦ ⟧ (the games' own words, the last move and the result's reason,
    are theirs to mark; names and notation are not words)."""
    for key, counts in SEATS.items():
        for state in moments(key, counts[-1])[:3]:
            caption = Caption(names=SHORT_NAMES[: counts[-1]])
            with i18n.using(i18n.PSEUDO):
                said = describe(key, state, caption) + "\n" + text_board(key, state, caption)
            outside = "".join(part.split("⟧")[-1] for part in said.split("⟦"))
            for word in ("move", "Row", "empty", "board", "none", "with", "path", "stones", "of"):
                assert f" {word} " not in f" {outside} ", (key, word, said)


def test_the_graphs_alt_text_speaks_the_readers_language() -> None:
    from bot.analysis import Analysis, Point

    analysis = Analysis(
        game="fish", names=("alice", "bob"), moves=2, winners=frozenset({0}), reason="more fish", match_id=3,
        points=(Point(0, (0.5, 0.5)), Point(1, (0.6, 0.4)), Point(2, (1.0, 0.0))), swings=(), result=(1.0, 0.0),
        off_board=None, iterations=1,
    )  # fmt: skip
    with i18n.using("es"):
        said = describe_graph(analysis)
    assert said.startswith("Gráfico de la probabilidad de ganar de cada jugador") and "línea naranja con puntos" in said
