"""The engines in the reader's language (issue #37): refusals, events, outcomes and option words are said in
it, while everything stored or compared (the state, the legal moves, the event lines kept in the state, an
`Outcome.reason`) stays the same English whatever the language."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot import i18n
from bot.games import GAMES, BadOptions, IllegalMove
from bot.games.fish import FISH
from bot.games.geyser import GEYSER
from bot.games.horizon import HORIZON
from bot.games.phrases import say
from bot.games.themiscyra import THEMISCYRA
from bot.games.volcano import VOLCANO


def refusal(call: Any, *args: Any, language: str = "en") -> str:
    """The message of the GameError `call(*args)` raises, read in `language`."""
    with i18n.using(language), pytest.raises((IllegalMove, BadOptions)) as raised:
        call(*args)
    return str(raised.value)


# --- a refusal of each engine, in German with its values, and the English unchanged ---


def test_fish_refuses_in_german_with_its_tiles() -> None:
    state = FISH.new(2, 1)
    assert refusal(FISH.play, state, "Z9") == "Z9 is not on the board: rows go from A (top) to H (bottom)."
    german = refusal(FISH.play, state, "Z9", language="de")
    assert german == "Z9 liegt nicht auf dem Brett: die Reihen gehen von A (oben) bis H (unten)."
    two = next(name for name in FISH.legal_moves(FISH.new(2, 1)) if name)  # a 1-tile to take twice
    placed = FISH.play(state, two)
    assert refusal(FISH.play, placed, two, language="de") == f"Auf {two} steht schon ein Pinguin."


def test_volcano_refuses_in_german_with_its_step() -> None:
    state = VOLCANO.new(1, 3)
    english = refusal(VOLCANO.play, state, "a1-a3")
    assert english == "a1-a3: a cap moves one square, in one of the 8 directions."
    assert refusal(VOLCANO.play, state, "a1-a3", language="de") == (
        "a1-a3: eine Kappe zieht ein Feld weit, in eine der 8 Richtungen."
    )
    with i18n.using("de"), pytest.raises(BadOptions) as raised:
        VOLCANO.new(1, 3, opening="a1 a1 b2 c3 d4")
    assert str(raised.value) == "opening: a1 ist doppelt genannt; die fünf Kappen brauchen fünf verschiedene Felder."


def test_themiscyra_refuses_in_german_with_its_squares() -> None:
    state = THEMISCYRA.new(2, 0)
    assert refusal(THEMISCYRA.play, state, "e5 e5 @e5") == "e5 e5: the two stones go on two different squares."
    assert refusal(THEMISCYRA.play, state, "e5 e5 @e5", language="de") == (
        "e5 e5: die zwei Steine kommen auf zwei verschiedene Felder."
    )


def test_geyser_refuses_in_german_with_its_starting_squares() -> None:
    state = GEYSER.new(3, 5)
    english = refusal(GEYSER.play, state, "f6-f7")
    assert english == "First every player puts a token on a starting square: start f1, start a6, start k6 or start f11."
    assert refusal(GEYSER.play, state, "f6-f7", language="de") == (
        "Zuerst setzt jeder Spieler einen Spielstein auf ein Startfeld: start f1, start a6, start k6 oder start f11."
    )


def test_horizon_refuses_in_german_with_its_space() -> None:
    state = HORIZON.new(2, 4)
    assert refusal(HORIZON.play, state, "place T1 me:9") == (
        "me:9 is not a space: the spaces are 1-8, me:1 to me:8 (a token escapes at 9, past the last space)."
    )
    assert refusal(HORIZON.play, state, "place T1 me:9", language="de") == (
        "me:9 ist kein Feld: die Felder sind 1-8, me:1 bis me:8 "
        "(ein Spielstein entkommt bei 9, hinter dem letzten Feld)."
    )


def test_option_refusals_and_summaries_in_german() -> None:
    rounds = GEYSER.options.named("rounds")
    assert rounds.refusal(2) == (
        "rounds must be a whole number from 10 to 1000: after that many rounds the most geysers win (default 100)."
    )
    with i18n.using("de"):
        assert rounds.refusal(2) == (
            "rounds muss eine ganze Zahl von 10 bis 1000 sein: "
            "nach so vielen Runden gewinnt, wer die meisten Geysire hält (Standard 100)."
        )
        assert FISH.options.named("first").summary == "der Platz, der zuerst einsetzt (Standard: der erste Spieler)"
        assert GEYSER.score_label == "Gehaltene Geysire"
    with i18n.using("de"), pytest.raises(BadOptions, match="wird von 2 Spielern gespielt, nicht von 3"):
        FISH.new(3, 1)


# --- the same game whatever the language ---


def _random_line(key: str, seed: int, language: str) -> list[tuple[str, list[str], tuple[str, ...]]]:
    """(stored state, legal moves, stored events) after each move of a seeded random game, played in
    `language` (refused moves tried along the way too, so refusals are said in it)."""
    game = GAMES[key]
    seats = {"volcano": 2, "geyser": 3}.get(key, 2)
    chooser = random.Random(seed)
    found = []
    with i18n.using(language):
        state = game.new(seats, seed)
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            with pytest.raises(IllegalMove):
                game.play(state, "z99")
            legal = game.legal_moves(state)
            state = game.play(state, chooser.choice(legal))
            game.events(state)  # said, and not kept
            found.append((game.dumps(state), legal, state.events))
    return found


@pytest.mark.parametrize("key", list(GAMES))
def test_the_state_and_the_legal_moves_are_the_same_in_every_language(key: str) -> None:
    english = _random_line(key, 11, "en")
    for language in ("de", "qps"):
        assert _random_line(key, 11, language) == english


# --- events and outcomes: stored in English, said in the reader's language ---


def _finished(key: str, seed: int) -> list[Any]:
    """Every state of a seeded random game played to its end (at most 3000 moves)."""
    game = GAMES[key]
    seats = {"volcano": 3, "geyser": 2 + seed % 3}.get(key, 2)
    options = {"rounds": 10} if key == "geyser" else {"turn_cap": 8} if key == "horizon" and seed % 2 else {}
    state, chooser, states = game.new(seats, seed, **options), random.Random(seed), []
    while game.outcome(state) is None and len(states) < 3000:
        state = game.play(state, chooser.choice(game.legal_moves(state)))
        states.append(state)
        if key == "volcano" and len(states) == 30:
            state = game.resign(state, 2)
            states.append(state)
    return states


def _pseudo_only(text: str) -> bool:
    """Whether every word of `text` came through the catalog (pseudo-locale: inside ⟦ ⟧)."""
    outside = text
    while re.search(r"⟦[^⟦⟧]*⟧", outside):
        outside = re.sub(r"⟦[^⟦⟧]*⟧", "", outside)
    return not re.search(r"[A-Za-z]{2}", re.sub(r"\{\d\}", "", outside))


@pytest.mark.parametrize("key", list(GAMES))
def test_every_event_and_outcome_is_said_from_a_phrase(key: str) -> None:
    game = GAMES[key]
    for seed in range(3):
        states = _finished(key, seed)
        with i18n.using(i18n.PSEUDO):
            for state in states:
                for line in game.events(state):
                    assert line.startswith("⟦") and _pseudo_only(line), line
            outcome = game.outcome(states[-1])
            assert outcome is not None and _pseudo_only(outcome.said), outcome.reason
        assert outcome.reason == game.outcome(states[-1]).reason  # stored: the English, whoever read it


@pytest.mark.parametrize("key", list(GAMES))
def test_german_events_fill_every_value_and_take_player_names(key: str) -> None:
    game, names = GAMES[key], ["alice", "bob", "carol", "dan"]
    states = _finished(key, 1)
    for state in states:
        english = [line.format(*names) for line in state.events]
        with i18n.using("de"):
            german = [line.format(*names) for line in game.events(state)]
        assert len(german) == len(english)
        for said, stored in zip(german, english, strict=True):
            assert "{" not in said
            values = set(re.findall(r"\b[a-kA-H]\d{1,2}\b|\d+", stored))
            assert values <= set(re.findall(r"\b[a-kA-H]\d{1,2}\b|\d+", said)), (stored, said)
            named = r"\b(?:alice|bob|carol|dan)\b"
            assert set(re.findall(named, stored)) == set(re.findall(named, said))


def test_german_fish_lines_and_result() -> None:
    state = FISH.play(FISH.new(2, 1), FISH.legal_moves(FISH.new(2, 1))[0])
    with i18n.using("de"):
        assert FISH.events(state) == (f"{{0}} setzt einen Pinguin auf {state.last_move}.",)
    assert state.events == (f"{{0}} places a token on {state.last_move}.",)
    assert say("more fish, 45 to 33") == "more fish, 45 to 33"
    with i18n.using("de"):
        assert say("more fish, 45 to 33") == "mehr Fische, 45 zu 33"
        assert say("White cannot complete a turn") == "Weiß kann keinen Zug vollenden"
        assert say("a player's own words") == "a player's own words"  # no phrase wrote it: as it is


@pytest.mark.parametrize("language", [*i18n.TRANSLATED, "en"])
def test_a_firing_line_begins_with_the_own_message_prefix_in_every_language(language: str) -> None:
    states = _finished("geyser", 0)
    with i18n.using(language):
        prefixes = GEYSER.own_message
        firing = [line for state in states for line in GEYSER.events(state) if line.startswith(prefixes)]
    english = [line for state in states for line in state.events if line.startswith("Firing phase")]
    assert len(firing) == len(english) > 0


def test_a_volcano_eruption_in_german_names_its_pieces() -> None:
    line = "{0} steps b2-c3: b2 erupts (red small on c3, blue large on d4); {0} captures red small (c3)."
    with i18n.using("de"):
        assert say(line) == (
            "{0} zieht b2-c3: b2 bricht aus (kleine rote Pyramide auf c3, große blaue Pyramide auf d4); "
            "{0} schlägt kleine rote Pyramide (c3)."
        )
