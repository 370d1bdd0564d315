"""The rules docs (docs/rules/<key>.md) against the engines and the in-bot rules cards.

Each doc opens with an "At a glance" table of countable facts. For every fact in it this test
(a) computes the fact from the engine (a new game, a short scripted play, or the engine's constants) and
    compares it with the doc, and
(b) finds the same value in the game's rules card (`GAMES[key].rules_card`, shown by /rules and the
    terminal's `rules`), in the fact's own context (a regex around the value).
A fact in a table with no check here fails the test, and so does a check whose fact left the table. Every check
is also shown to be able to fail: with the fact's value changed (`_changed`), both (a) and (b) must refuse it.
The test also checks that each doc's example moves are accepted by the engine, that the README links every
doc and needs nothing outside the project, and that the terminal's `rules` command prints the card.
"""

from __future__ import annotations

import inspect
import math
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import discord_limits
from bot.clock import LAG_GRACE
from bot.games import GAMES, BadOptions, fish, geyser, horizon, themiscyra, volcano
from bot.local import Terminal
from bot.models import Series
from bot.service import MatchService

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rules"
KEYS = ("fish", "volcano", "themiscyra", "geyser", "horizon")

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


# --- reading a doc ---------------------------------------------------------------------------------------


def doc(key: str) -> str:
    return (DOCS / f"{key}.md").read_text(encoding="utf-8")


def glance(key: str) -> dict[str, str]:
    """The `| fact | value |` rows of the doc's "## At a glance" section."""
    text = doc(key)
    section = text.split("\n## At a glance\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows[:2] == ["| fact | value |", "|---|---|"], f"{key}: the table starts | fact | value |"
    facts: dict[str, str] = {}
    for line in rows[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 2 and all(cells), f"{key}: a row of two cells, not {line!r}"
        assert cells[0] not in facts, f"{key}: {cells[0]!r} twice"
        facts[cells[0]] = cells[1]
    return facts


def _changed(value: str) -> str:
    """The value with its first number one higher (a word swapped for another): what a typo would give."""
    if re.search(r"\d", value):
        return re.sub(r"\d+", lambda m: str(int(m[0]) + 1), value, count=1)
    return {"Black": "White"}.get(value, value + "x")


def value_pattern(value: str) -> str:
    """A regex for a value as a card may write it: a small number also as a word, `1 to 6` also as `1-6`."""
    parts = []
    for word in value.split():
        if word == "to":
            parts.append(r"(?:\s+to\s+|\s*[-–]\s*)")
            continue
        if parts and not parts[-1].startswith(r"(?:\s+to"):
            parts.append(r"\s+")
        if word.isdigit() and int(word) < len(WORDS):
            parts.append(rf"(?:{word}|{WORDS[int(word)]})")
        else:
            parts.append(re.escape(word))
    return r"(?<![\w.])" + "".join(parts) + r"(?!\w)"


def in_card(card: str, context: str, value: str) -> bool:
    """Does the card state `value` where `context` (a regex with {v} for the value) says it should?"""
    pattern = context.replace("{v}", value_pattern(value))
    return re.search(pattern, " ".join(card.split()), re.IGNORECASE) is not None


def one(values: Any) -> str:
    """The single value a set of observations agrees on (several: the test fails here)."""
    found = set(values)
    assert len(found) == 1, f"expected one value, got {sorted(found)}"
    return _fmt(found.pop())


def _fmt(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def either(values: Any) -> str:
    return " or ".join(str(v) for v in sorted(set(values)))


def span(values: list[int]) -> str:
    """`lo to hi` of a contiguous run of accepted numbers."""
    assert values and values == list(range(values[0], values[-1] + 1)), "the accepted values are one range"
    return f"{values[0]} to {values[-1]}"


def _faces(rolls: set[int]) -> str:
    """How many faces a die has, from many rolls of it (numbered from 1, none missing)."""
    assert rolls == set(range(1, max(rolls) + 1)), sorted(rolls)
    return str(len(rolls))


def players(key: str) -> str:
    game = GAMES[key]
    return (
        str(game.min_players) if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
    )


def accepted(key: str, seats: int, option: str, candidates: range) -> list[int]:
    found = []
    for n in candidates:
        try:
            GAMES[key].new(seats, 1, **{option: n})
        except BadOptions:
            continue
        found.append(n)
    return found


# --- engine facts: fish ------------------------------------------------------------------------------------

FISH = GAMES["fish"]
SEEDS = range(40)


def _fish_placements() -> tuple[fish.FishState, Counter[int], set[int]]:
    """A game played through its placement phase: the state after it, placements per seat, placed tile values."""
    state = FISH.new(2, 3)
    per_seat: Counter[int] = Counter()
    worth = set()
    while state.placing:
        move = FISH.legal_moves(state)[0]
        worth |= {state.values[fish.FishMove.parse(m).dst] for m in FISH.legal_moves(state)}
        per_seat[FISH.to_move(state)] += 1
        state = FISH.play(state, move)
    return state, per_seat, worth


def _fish_band(value: int) -> str:
    """Tiles of a value in each pair of rows (15 tiles), over many dealt boards."""
    return either(
        FISH.new(2, seed).values[band * 15 : band * 15 + 15].count(value) for seed in SEEDS for band in range(4)
    )


def _fish_directions() -> str:
    """The lines a lone token in the middle of a full board can move along."""
    board = FISH.new(2, 0).values
    state = FISH.state_from_position(board, (("D4",), ("A1",)))
    start = fish._TILE_BY_NAME["D4"]
    targets = {fish.FishMove.parse(m).dst for m in FISH.legal_moves(state) if m.startswith("D4-")}
    return str(sum(1 for ray in fish.RAYS[start] if targets & set(ray)))


def _series_default(name: str) -> Any:
    return inspect.signature(MatchService.create_series).parameters[name].default


FISH_FACTS: dict[str, tuple[Callable[[], str], str]] = {
    "players": (lambda: players("fish"), r"{v} players"),
    "tiles": (lambda: one(len(FISH.new(2, s).values) for s in SEEDS), r"{v} hex tiles"),
    "rows": (lambda: str(len({name[0] for name in fish.TILE_NAMES})), r"in {v} rows"),
    "tiles in rows A, C, E, G": (
        lambda: one(sum(n[0] == row for n in fish.TILE_NAMES) for row in "ACEG"),
        r"A/C/E/G have {v} tiles",
    ),
    "tiles in rows B, D, F, H": (
        lambda: one(sum(n[0] == row for n in fish.TILE_NAMES) for row in "BDFH"),
        r"B/D/F/H have {v}",
    ),
    "tiles worth 1": (lambda: one(FISH.new(2, s).values.count(1) for s in SEEDS), r"{v} tiles worth 1"),
    "tiles worth 2": (lambda: one(FISH.new(2, s).values.count(2) for s in SEEDS), r"{v} worth 2"),
    "tiles worth 3": (lambda: one(FISH.new(2, s).values.count(3) for s in SEEDS), r"{v} worth 3"),
    "ones in each pair of rows": (lambda: _fish_band(1), r"holds {v} ones"),
    "twos in each pair of rows": (lambda: _fish_band(2), r"{v} twos"),
    "threes in each pair of rows": (lambda: _fish_band(3), r"{v} threes"),
    "tokens per player": (lambda: one(_fish_placements()[1].values()), r"{v} tokens each"),
    "tokens are placed on tiles worth": (lambda: one(_fish_placements()[2]), r"empty {v}-tile"),
    "directions a token can move": (_fish_directions, r"one of {v} directions"),
    "largest island played out for you, tiles": (lambda: str(fish.ISLAND_LIMIT), r"island of up to {v} tiles"),
    "death match games, best of": (lambda: str(_series_default("best_of")), r"best of {v}"),
    "death match wins needed": (
        lambda: str(Series(0, "fish", (), _series_default("best_of"), 0, {}, None).needed),
        r"first to {v} wins",
    ),
    "death match move clock, seconds": (lambda: _fmt(_series_default("clock").move_seconds), r"{v} s a move"),
    "death match reserve per game, seconds": (
        lambda: _fmt(_series_default("clock").reserve_seconds),
        r"{v} s reserve per game",
    ),
    "flag falls after the deadline, seconds": (lambda: _fmt(LAG_GRACE), r"flag falls {v} s after the deadline"),
}


# --- engine facts: volcano ---------------------------------------------------------------------------------

VOLCANO = GAMES["volcano"]


def _volcano_pieces() -> list[str]:
    return [piece for stack in VOLCANO.new(2, 4).board for piece in stack]


def _volcano_steps_from_middle() -> str:
    """Legal steps of a lone cap on c3 of a full board."""
    board = VOLCANO.new(2, 4).board
    state = VOLCANO.state_from_position(board, "c3")
    return str(len([m for m in VOLCANO.legal_moves(state) if m.startswith("c3-")]))


def _volcano_openings() -> str:
    for name in volcano.OPENINGS:
        assert VOLCANO.new(2, 1, opening=name).opening == name
    return str(len(volcano.OPENINGS))


VOLCANO_FACTS: dict[str, tuple[Callable[[], str], str]] = {
    "players": (lambda: players("volcano"), r"{v} players"),
    "board": (lambda: f"{math.isqrt(len(VOLCANO.new(2, 4).board))}x{volcano.SIZE}", r"Board {v}"),
    "squares": (lambda: str(len(VOLCANO.new(2, 4).board)), r"each of the {v} squares"),
    "pyramids": (lambda: str(len(_volcano_pieces())), r"{v} pyramids"),
    "colours": (lambda: str(len({p[0] for p in _volcano_pieces()})), r"{v} colours"),
    "sizes": (lambda: str(len({p[1] for p in _volcano_pieces()})), r"{v} sizes"),
    "pyramids of each colour and size": (
        lambda: one(Counter(_volcano_pieces()).values()),
        r"{v} of each colour and size",
    ),
    "pieces in a nest": (lambda: one(len(stack) for stack in VOLCANO.new(2, 4).board), r"a nest of {v}"),
    "caps": (lambda: str(len(VOLCANO.new(2, 4).caps)), r"{v} black caps"),
    "directions a cap can step": (_volcano_steps_from_middle, r"any of {v} directions"),
    "named openings": (_volcano_openings, r"one of {v} openings"),
    "points per solid tree": (lambda: str(volcano.score_of(("R1", "R2", "R3"))), r"{v} per solid tree"),
    "points per mixed tree": (lambda: str(volcano.score_of(("R1", "Y2", "G3"))), r"{v} per mixed tree"),
    "points per other piece": (lambda: str(volcano.score_of(("B2",))), r"{v} per other piece"),
}


# --- engine facts: themiscyra ------------------------------------------------------------------------------

THEMISCYRA = GAMES["themiscyra"]


def _themiscyra_setup() -> tuple[themiscyra.ThemiscyraState, Counter[int]]:
    """A game played through its setup: the state after it and the setup turns per seat."""
    state = THEMISCYRA.new(2, 0)
    turns: Counter[int] = Counter()
    while state.setup:
        turns[THEMISCYRA.to_move(state)] += 1
        state = THEMISCYRA.play(state, THEMISCYRA.legal_moves(state)[0])
    return state, turns


def _themiscyra_smallest_area() -> str:
    """The fewest empty squares in a row that make an open area."""
    return str(next(n for n in range(1, 5) if themiscyra.open_areas((1 << n) - 1)))


THEMISCYRA_FACTS: dict[str, tuple[Callable[[], str], str]] = {
    "players": (lambda: players("themiscyra"), r"{v} players"),
    "board": (
        lambda: f"{themiscyra.SIZE}x{math.isqrt(THEMISCYRA.new(2, 0).empty.bit_count())}",
        r"{v} board",
    ),
    "rings": (lambda: str(_themiscyra_setup()[0].rings.bit_count()), r"{v} neutral rings"),
    "setup turns per player": (lambda: one(_themiscyra_setup()[1].values()), r"{v} turns each"),
    "stones placed each turn": (
        lambda: str(THEMISCYRA.play(THEMISCYRA.new(2, 0), "e5 e8 @e8").stones[0].bit_count()),
        r"place {v} of your stones",
    ),
    "squares adjacent to a square": (
        lambda: str(themiscyra.NEIGHBOURS[themiscyra.parse_square("e5")].bit_count()),
        r"its {v} neighbours",
    ),
    "empty squares in an open area, at least": (_themiscyra_smallest_area, r"{v} or more connected empty squares"),
    "moves first": (lambda: themiscyra.COLOUR_NAMES[THEMISCYRA.new(2, 0).turn], r"{v} \(moves first\)"),
}


# --- engine facts: geyser ----------------------------------------------------------------------------------

GEYSER = GAMES["geyser"]


def _geyser_starts(seats: int) -> str:
    return str(len([m for m in GEYSER.legal_moves(GEYSER.new(seats, 1)) if m.startswith("start ")]))


def _geyser_fire_dice() -> str:
    """The dice of a firing phase: the last player of round 1 steps, and the round's end rolls them."""
    state = GEYSER.state_from_position(2, {"f1": (0, 1), "f11": (1, 1)}, turn=1, first=0, order=(1,))
    after = GEYSER.play(state, "f11-f10")
    assert after.last_fire is not None and after.round == 2
    return str(len(after.last_fire))


def _geyser_mother_needs() -> str:
    """The fewest controlled geysers with which a token next to the Mother may step onto it."""
    for n in range(6):
        tokens = {"e6": (0, 1), "f11": (1, 1)} | {square: (0, 1) for square in ("b4", "d4", "e3", "b8", "c7")[:n]}
        if "e6-f6" in GEYSER.legal_moves(GEYSER.state_from_position(2, tokens)):
            return str(n)
    return "never"


def _geyser_steps() -> str:
    """Steps of a lone token on open land."""
    state = GEYSER.state_from_position(2, {"c6": (0, 1), "f11": (1, 1)})
    return str(len(GEYSER.legal_moves(state)))


GEYSER_FACTS: dict[str, tuple[Callable[[], str], str]] = {
    "players": (lambda: players("geyser"), r"{v} players"),
    "dice": (_geyser_fire_dice, r"{v} dice"),
    "die faces": (lambda: _faces({geyser._die(7, n) for n in range(600)}), r"a die \(1-{v}\)"),
    "grid": (lambda: f"{geyser.SIZE}x{math.isqrt(len(geyser.CELLS))}", r"{v} grid"),
    "land squares": (lambda: str(len(geyser.LAND)), r"{v} land squares"),
    "normal geysers": (lambda: str(len(geyser.GEYSERS)), r"Geysers: {v}"),
    "rings of geysers": (lambda: str(len(set(geyser.RING_OF.values()))), r"in {v} rings"),
    "geysers in each ring": (lambda: one(Counter(geyser.RING_OF.values()).values()), r"rings of {v}"),
    "Mother Geyser square": (lambda: geyser.SQUARE_NAMES[geyser.MOTHER], r"Mother Geyser \({v}\)"),
    "starting squares": (lambda: one(_geyser_starts(n) for n in (3, 4)), r"{v} starting squares"),
    "starting squares with two players": (lambda: _geyser_starts(2), r"with two players only {v}"),
    "tokens per player": (lambda: one(GEYSER.new(4, 1).supply), r"{v} tokens each"),
    "tokens per player, a match may set": (
        lambda: span(accepted("geyser", 2, "tokens", range(0, 60))),
        r"tokens each \(a match may set {v}\)",
    ),
    "directions a token can step": (_geyser_steps, r"one of {v} directions"),
    "squares around a geyser": (
        lambda: str(max(len(geyser.AROUND[s]) for s in geyser.GEYSERS)),
        r"one of the {v} squares around",
    ),
    "geysers needed to enter the Mother": (_geyser_mother_needs, r"only with {v} geysers"),
    "rounds": (lambda: str(GEYSER.new(2, 1).rounds), r"\({v} unless the match says otherwise"),
    "rounds, a match may set": (
        lambda: span(accepted("geyser", 2, "rounds", range(0, 1100))),
        r"otherwise: {v}\)",
    ),
}


# --- engine facts: horizon ---------------------------------------------------------------------------------

HORIZON = GAMES["horizon"]


def _horizon_cards() -> Counter[str]:
    state = HORIZON.new(2, 5)
    return Counter([*state.deck, *state.hands[0], *state.hands[1]])


def _horizon_kind(prefix: str) -> str:
    return str(sum(n for card, n in _horizon_cards().items() if card.startswith(prefix)))


def _horizon_setup() -> tuple[horizon.HorizonState, Counter[int]]:
    """A game played through its setup: the state after it and the cards each seat placed."""
    state = HORIZON.new(2, 5)
    placed: Counter[int] = Counter()
    while state.setup:
        placed[HORIZON.to_move(state)] += 1
        state = HORIZON.play(state, HORIZON.legal_moves(state)[0])
    return state, placed


HORIZON_FACTS: dict[str, tuple[Callable[[], str], str]] = {
    "players": (lambda: players("horizon"), r"{v} players"),
    "tokens per player": (lambda: str(horizon.TOKENS), r"race {v} tokens each"),
    "spaces on each path": (lambda: one(len(mat) for mat in HORIZON.new(2, 5).mats), r"path of {v} spaces"),
    "escape at space": (lambda: str(horizon.ESCAPE), r"escape at {v}"),
    "cards in the deck": (lambda: str(sum(_horizon_cards().values())), r"Deck: {v} cards"),
    "Move To cards": (lambda: _horizon_kind("T"), r"Move To 1-8 \({v}\)"),
    "Forward cards": (lambda: _horizon_kind("F"), r"Forward 1-4 \({v}\)"),
    "Backward cards": (lambda: _horizon_kind("B"), r"Backward 1-4 \({v}\)"),
    "Mimic cards": (lambda: _horizon_kind("MI"), r"Mimic \({v}\)"),
    "Swap cards": (lambda: _horizon_kind("SW"), r"Swap \({v}\)"),
    "cards dealt to each player": (lambda: one(len(h) for h in HORIZON.new(2, 5).hands), r"{v} cards each"),
    "cards each player places in setup": (lambda: one(_horizon_setup()[1].values()), r"placing {v} face down"),
    "cards in hand after setup": (lambda: one(len(h) for h in _horizon_setup()[0].hands), r"{v} stay in your hand"),
    "die roll": (lambda: span(sorted({horizon._roll(7, n) for n in range(300)})), r"roll {v} and move"),
    "cards resolved in one chain, at most": (lambda: str(horizon.CHAIN_CAP), r"at most {v} cards"),
    "turns per player before the cap": (lambda: str(HORIZON.new(2, 5).turn_cap), r"after {v} turns each"),
    "turn cap, a match may set": (
        lambda: span(accepted("horizon", 2, "turn_cap", range(0, 10_100))),
        r"a match may set {v}\)",
    ),
}

FACTS = {
    "fish": FISH_FACTS,
    "volcano": VOLCANO_FACTS,
    "themiscyra": THEMISCYRA_FACTS,
    "geyser": GEYSER_FACTS,
    "horizon": HORIZON_FACTS,
}


# --- the facts -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_every_fact_at_a_glance_has_a_check(key: str) -> None:
    table = glance(key)
    unchecked = sorted(set(table) - set(FACTS[key]))
    assert not unchecked, f"docs/rules/{key}.md: no check for {unchecked}; add one to FACTS[{key!r}]"
    missing = sorted(set(FACTS[key]) - set(table))
    assert not missing, f"docs/rules/{key}.md: the table lost {missing}"


@pytest.mark.parametrize(("key", "fact"), [(key, fact) for key in KEYS for fact in FACTS[key]])
def test_the_engine_agrees_with_the_doc(key: str, fact: str) -> None:
    stated = glance(key).get(fact)
    engine, _ = FACTS[key][fact]
    found = engine()
    assert stated == found, f"docs/rules/{key}.md says {fact}: {stated}; the engine: {found}"
    assert _changed(stated) != found, "a changed value must not pass"


@pytest.mark.parametrize(("key", "fact"), [(key, fact) for key in KEYS for fact in FACTS[key]])
def test_the_rules_card_states_the_fact(key: str, fact: str) -> None:
    stated = glance(key)[fact]
    _, context = FACTS[key][fact]
    card = GAMES[key].rules_card
    assert in_card(card, context, stated), f"{key}'s rules card does not say {fact}: {stated} (/{context}/)"
    assert not in_card(card, context, _changed(stated)), f"{fact}: the card check would pass a wrong value too"


@pytest.mark.parametrize("key", KEYS)
def test_a_rules_card_fits_in_a_discord_message(key: str) -> None:
    assert 0 < len(GAMES[key].rules_card) <= discord_limits.MESSAGE


def test_the_card_checks_read_numbers_as_words_and_ranges() -> None:
    assert in_card("in one of six directions", r"one of {v} directions", "6")
    assert in_card("roll 1-3 and move", r"roll {v} and move", "1 to 3")
    assert not in_card("roll 1-3 and move", r"roll {v} and move", "1 to 4")
    assert not in_card("36 cards each", r"{v} cards each", "6")


# --- the docs' shape and examples --------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_each_doc_opens_with_a_title_a_sentence_and_the_facts(key: str) -> None:
    text = doc(key)
    assert text.startswith("# ")
    head = text.split("\n## ", 1)[0].splitlines()[1:]
    paragraphs = [p for p in "\n".join(head).split("\n\n") if p.strip()]
    assert len(paragraphs) == 1 and paragraphs[0].strip().endswith("."), "one intro sentence before the facts"
    assert text.split("\n## ", 1)[1].startswith("At a glance\n")
    assert "../shared" not in text and "RULING" not in text, "our own words, needing nothing outside the project"


def _fish_examples() -> list[tuple[Any, str]]:
    state = FISH.new(2, 0)
    examples = [(state, "D4"), (state, "place D4")]
    state = FISH.play(state, "D4")
    while state.placing:
        state = FISH.play(state, next(m for m in FISH.legal_moves(state) if m not in ("E4", "F3")))
    return [*examples, *((state, m) for m in ("D4-F3", "d4-f3", "D4 F3", "D4 to F3"))]


def _volcano_examples() -> list[tuple[Any, str]]:
    state = VOLCANO.new(2, 1)
    return [(state, "b2-a2"), (state, "b2-a2, a2-a3"), (state, "B2 A2"), (state, "b2a2")]


def _themiscyra_examples() -> list[tuple[Any, str]]:
    state = THEMISCYRA.new(2, 0)
    examples = [(state, "e5 e8 @e8"), (state, "E8 e5 @E8")]
    for turn in ("c3 c2 @c3", "h1 h2 @h1", "a10 b10 @a10", "j10 j9 @j10", "a1 a2 @a1", "j1 j2 @j1", "h10 g10 @h10"):
        state = THEMISCYRA.play(state, turn)
    state = THEMISCYRA.play(state, "e1 f1 @e1")
    return [*examples, (state, "e5 e8 c3>e8")]


def _geyser_examples() -> list[tuple[Any, str]]:
    two = GEYSER.new(2, 3)
    claimed = GEYSER.play(GEYSER.state_from_position(2, {"e1": (0, 1), "f11": (1, 1)}, seed=1), "e1-d1")
    battle = GEYSER.state_from_position(2, {"f2": (0, 1), "f3": (1, 1)}, seed=2)
    tied = GEYSER.play(battle, "f2-f3")
    assert tied.pending is not None, "seed 2 ties this battle"
    stepping = GEYSER.state_from_position(2, {"f1": (0, 1), "f11": (1, 1)})
    alone = GEYSER.state_from_position(2, {"f11": (1, 1)}, supply=(11, 11))
    return [
        (two, "start f1"),
        (GEYSER.new(3, 3), "start a6"),
        (GEYSER.new(4, 3), "start k6"),
        (stepping, "f1-f2"),
        (GEYSER.state_from_position(2, {"e1": (0, 1), "f11": (1, 1)}), "e1-d1"),
        (claimed, "place e2"),
        (claimed, "skip"),
        (tied, "again"),
        (tied, "retreat"),
        (alone, "start f1"),
        (GEYSER.state_from_position(2, {"c6": (1, 1)}, supply=(11, 11)), "start f11"),
    ]


def _horizon_examples() -> list[tuple[Any, str]]:
    state = HORIZON.new(2, 99, first=0)
    assert {"F2", "SW"} <= set(state.hands[0])
    examples = [(state, "place F2 opp:5")]
    others = [c for c in state.hands[0] if c not in ("F2", "SW")]
    for n, card in enumerate(others[:3]):
        state = HORIZON.play(state, f"place {card} me:{5 + n}")
        state = HORIZON.play(state, next(m for m in HORIZON.legal_moves(state) if "me:" not in m))
    return [*examples, (state, "swap me:5 F2")]


EXAMPLES: dict[str, Callable[[], list[tuple[Any, str]]]] = {
    "fish": _fish_examples,
    "volcano": _volcano_examples,
    "themiscyra": _themiscyra_examples,
    "geyser": _geyser_examples,
    "horizon": _horizon_examples,
}


@pytest.mark.parametrize("key", KEYS)
def test_the_docs_example_moves_are_legal(key: str) -> None:
    text = doc(key)
    game = GAMES[key]
    for state, move in EXAMPLES[key]():
        assert f"`{move}`" in text or f"move:{move}`" in text, f"docs/rules/{key}.md shows `{move}`"
        game.canonical(state, move)  # raises IllegalMove if the engine refuses it
    assert f"`/{key} move move:" in text and f"`{key} move " in text, "Discord and terminal forms"


# --- README and terminal -----------------------------------------------------------------------------------


def test_the_readme_links_every_rules_doc_and_needs_nothing_outside() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in KEYS:
        assert f"](docs/rules/{key}.md)" in readme, f"README links docs/rules/{key}.md"
        assert (DOCS / f"{key}.md").is_file()
    assert "../shared" not in readme
    assert "](docs/architecture.md)" in readme
    assert "../shared" not in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("key", KEYS)
async def test_the_terminal_rules_command_prints_the_card(key: str, service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    assert await terminal.handle(f"{key} rules")
    assert out == [GAMES[key].rules_card.replace(f"/{key} ", f"{key} ")]  # its commands as the terminal's
