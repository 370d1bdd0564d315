"""The tournament standings picture and its words: valid, deterministic PNGs that show what they should."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.tournaments import Tournament, standings
from renderers import tournament as R
from renderers.draw import ALERT, HIGHLIGHT
from tests.renderers.pixels import count, rgb
from tests.tournaments import built, entered, play_out


def finished(fmt: str, players: int, seed: int, **options: object) -> Tournament:
    rng = random.Random(seed)
    return play_out(entered(fmt, players, rng, **options), rng)  # type: ignore[arg-type]


@pytest.mark.parametrize(("fmt", "players", "options"), [
    ("swiss", 13, {}), ("roundrobin", 8, {}), ("knockout", 11, {}), ("swiss", 10, {"game": "volcano", "seats": 4}),
    ("knockout", 33, {}), ("roundrobin", 33, {}),
])  # fmt: skip
def test_every_format_renders_a_deterministic_png(fmt: str, players: int, options: dict[str, object]) -> None:
    t = finished(fmt, players, 4, **options)
    data = R.render(t)
    image = rgb(data)
    assert image.width >= R.WIDTH and image.height > 200
    assert R.render(Tournament.from_json(t.to_json())) == data
    assert count(image, (0, 50, image.width, 80), HIGHLIGHT, 40) > 0  # the final status line, in gold


def test_a_round_robin_adds_its_crosstable_and_a_knockout_its_bracket() -> None:
    rng = random.Random(9)
    base = entered("swiss", 8, rng)
    swiss = play_out(base, random.Random(1))
    robin = play_out(replace(base, format="roundrobin"), random.Random(1))
    knockout = play_out(replace(base, format="knockout"), random.Random(1))
    height = R.draw(swiss).height
    assert R.draw(robin).height > height + 8 * 30
    assert R.draw(knockout).height > height + 4 * 50


def test_a_crosstable_too_big_to_read_is_left_to_the_text() -> None:
    big = finished("roundrobin", 33, 2)
    assert R._grid_height(33) == 0 and R._grid_height(16) > 0
    assert len(R.draw(big).getcolors(1 << 20) or []) > 0


def test_withdrawn_players_are_marked() -> None:
    rng = random.Random(11)
    t = entered("swiss", 6, rng).start()
    clean = rgb(R.render(t))
    assert count(clean, (0, 0, clean.width, clean.height), ALERT) == 0
    gone = rgb(R.render(t.withdraw("id2")))
    assert count(gone, (0, 0, gone.width, gone.height), ALERT) > 50  # the red "withdrawn" tag
    assert "(withdrawn)" in R.as_text(t.withdraw("id2"))


def test_names_no_font_has_and_huge_names_still_render() -> None:
    t = Tournament.new("fish", "knockout")
    for k, name in enumerate(["🐟🐟🐟", "x" * 100, "名前", "bob"]):
        t = t.add_entrant(f"id{k}", name)
    image = R.draw(t.start())
    assert image.width == R.WIDTH
    assert R.name_of(t, 0) == "Player 1"


def test_the_alt_text_fits_and_says_the_top_first() -> None:
    t = Tournament.new("fish", "swiss")
    for k in range(64):
        t = t.add_entrant(f"id{k}", f"{'w' * 90} {k}", 1500 + k)
    t = play_out(t, random.Random(3))
    words = R.describe(t)
    assert len(words) <= R.ALT_LIMIT
    assert words.startswith('"1, 2, 3" · Swiss\nFinal standings after 6 rounds')
    assert words.endswith("more players")
    top = standings(t)[0]
    assert f"1. {t.entrants[top.entry].name}: " in words
    assert len(R.as_text(t).splitlines()) == 2 + 64


def test_the_text_reads_like_the_picture() -> None:
    t = Tournament.new("fish", "knockout")
    for k, name in enumerate("ABCD"):
        t = t.add_entrant(f"id{k}", name, 2000 - k)
    t = t.start().record_result(1, 1, (1, 2)).record_result(1, 2, (1, 1)).advance().record_result(2, 1, (2, 1))
    assert R.as_text(t).splitlines() == [
        '"1, 2, 3" · Knockout',
        "Final standings after 2 rounds · winner: B",
        "1. B: champion",
        "2. A: out in round 2",
        "3= C: out in round 1",
        "3= D: out in round 1",
    ]
    assert R.status(Tournament.new("fish", "swiss")) == "Sign-up: 0 players"


A, B, C, D, E = range(5)
WITH_BYES = [  # five players, three rounds: E, then D, then C have the bye
    [((A, B), (1, 2)), ((C, D), (1, 1)), ((E,), None)],
    [((E, A), (1, 1)), ((C, B), (1, 2)), ((D,), None)],
    [((A, D), (2, 1)), ((B, E), (1, 2)), ((C,), None)],
]


def test_byes_are_shown_in_the_picture_and_the_words() -> None:
    t = built("swiss", "ABCDE", WITH_BYES)
    headings, rows = R.table(t)
    assert headings == ["#", "Player", "Pts", "Bh", "SB", "W-L-D", "Bye"]
    assert rows[1] == ["2", "C", "2½", "6", "4¾", "1-0-1", "1"]  # 2½ points from one win, one draw (W-L-D), a bye
    assert rows[4] == ["5", "B", "1", "5½", "1½", "1-2-0", ""]
    assert "Bye byes" in R.key(t, standings(t))
    assert R.as_text(t).splitlines()[3] == "2. C: 2½ with 1 bye (Bh 6, SB 4¾)"
    assert "5. B: 1 (Bh 5½, SB 1½)" in R.describe(t)
    no_byes = built("swiss", "ABCD", [[((A, B), (1, 2)), ((C, D), (1, 1))]])
    assert "Bye" not in R.table(no_byes)[0] and "bye" not in R.as_text(no_byes)


def test_a_round_robin_shows_sonneborn_berger_and_no_buchholz() -> None:
    t = built("roundrobin", "ABCDE", WITH_BYES)
    headings, rows = R.table(t)
    assert headings == ["#", "Player", "Pts", "SB", "W-L-D", "Bye"]
    assert rows[0][:4] == ["1", "D", "2½", "5¼"]
    assert "Bh" not in R.key(t, standings(t)) and "SB Sonneborn-Berger" in R.key(t, standings(t))
    assert R.as_text(t).splitlines()[2] == "1. D: 2½ with 1 bye (SB 5¼)"


def test_a_knockout_shows_its_byes() -> None:
    t = Tournament.new("fish", "knockout")
    for k, name in enumerate("ABCDE"):
        t = t.add_entrant(f"id{k}", name, 2000 - 100 * k)
    t = t.start().record_result(1, 2, (2, 1)).advance()  # A, B and C have byes; E beats D
    headings, rows = R.table(t)
    assert headings == ["#", "Player", "W-L-D", "Bye", "Out in"]
    assert [row[1] for row in rows if row[3] == "1"] == ["A", "B", "C"]
    assert R.as_text(t).splitlines()[2:4] == ["1= A: still in with 1 bye", "1= B: still in with 1 bye"]
