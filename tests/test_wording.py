"""A grammar pass over what players read (issue #16): refusals and notices, collected and checked.

`slips` is a strict checker of one message: doubled words, "a"/"an" against the sound that follows, a
count that disagrees with its noun, odd whitespace and punctuation, leftover placeholders, and verbs used
as nouns ("nothing to again"). The collectors gather the messages of many bad inputs, all seeded:

- engine refusals of near misses (legal moves with a square, a number or a card changed, words dropped,
  doubled or swapped, moves of other positions) in positions of random seeded games at every stage, the
  game-over refusal, and `new`'s refusals of bad options; the events of those games as posted;
- service refusals (no such match, not yours, not your turn, over, nothing to undo, limits of 1...);
- terminal answers to bad lines.

Every message must pass `slips`; the hints of engine refusals must name legal moves only.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ClockSettings, FakeTime
from bot.games import GAMES, GameError
from bot.games.base import InvalidNotation
from bot.local import Terminal
from bot.models import Place, Player, UserLimits, computer
from bot.service import MatchService, ServiceError
from bot.store import Store
from bot.wording import a, article, listing, noun_for, plural

# --- the checker ---

NOUNS = [
    *("move", "step", "turn", "token", "card", "player", "game", "round", "match", "lobby", "challenge", "ring"),
    *("stone", "line", "point", "geyser", "tile", "square", "space", "second", "minute", "hour", "character"),
    *("byte", "entry", "command", "seat", "option", "digit", "letter", "roll", "cap", "nest", "colour"),
    *("rating", "win", "loss", "draw", "record", "file"),
]
"""Countable nouns whose count must agree with them ("1 move", "2 moves")."""
PLURALS = {noun: noun_for(2, noun) for noun in NOUNS} | {"die": "dice"}
SINGULAR_OF = {p: s for s, p in PLURALS.items()}
ADJECTIVES = (
    "(?:more|open|legal|running|other|free|normal|rated|new|hidden|active|starting|whole|empty|log|face-down|colour)"
)
"""Words that may stand between a count and its noun ("1 open lobby", "2 more tokens")."""
VERBS_AS_NOUNS = (
    r"\bto again\b",
    r"\bnothing to (?:retreat|pass)\b",
    r"\b(?:the|an?|no) again\b",
    r"\bto (?:place|start) now\b",
)
_LEFTOVERS = re.compile(r"[{}]|\[\]|\(\)|''|(?<![A-Za-z])(?:None|nan|Traceback)(?![A-Za-z])|<bot\.| object at 0x")
"""Placeholders and reprs that were never filled in or meant for players."""
_QUOTED = re.compile(r"(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|\"[^\"\n]*\"|`[^`\n]*`")
_WORD_AFTER_ARTICLE = re.compile(r"\b([Aa]n?)\s+([^\s]+)")


def slips(message: str, *, sentence: bool = True) -> list[str]:
    """What is wrong with `message` (empty: nothing). `sentence`: it must end like one (. ! ?)."""
    found: list[str] = []
    if not message.strip():
        return ["empty message"]
    for leftover in _LEFTOVERS.findall(message):
        found.append(f"leftover {leftover!r}")
    if sentence and not re.search(r"[.!?…]$", message):
        found.append("no final punctuation")
    for line in message.split("\n"):
        if line != line.strip():
            found.append(f"space at an end of {line!r}")
        if "\t" in line:
            found.append("a tab")
    text = _QUOTED.sub("QUOTED", message)  # quoted input is the player's own text, not ours
    text = text.replace("? marks", "QUOTED marks")  # the mark itself, named in the ratings' legend
    for line in text.split("\n"):
        if "  " in line.strip():
            found.append("double space")
        if re.search(r"\s[,;:!?)]|\s\.(?!\.\.)", line) or "( " in line:
            found.append("space before punctuation")
        if re.search(r"(?<!\.)\.\.(?!\.)|,,|;;|::|[,;:]\.|\.,|\. \.", line):
            found.append("doubled punctuation")
        if re.search(r",(?=[A-Za-z])", line):
            found.append("no space after a comma")
        if line.count("(") != line.count(")"):
            found.append("unbalanced brackets")
    for match in re.finditer(r"\b([A-Za-z]+)\s+(?=([A-Za-z]+)\b)", text):
        if match[1].lower() == match[2].lower() and match[1].lower() not in ("that", "had"):
            found.append(f"doubled word {match[1]!r}")
    for match in _WORD_AFTER_ARTICLE.finditer(text):
        word = match[2].strip("(\"'`*_,.;:")
        if not word or word == "QUOTED":
            continue
        if match[1].lower() != article(word):
            found.append(f"{match[1]} {word}")
    for match in re.finditer(rf"(?<![#/\-+.,\d])\b(\d[\d,]*)(?:\.\d+)?\s+(?:{ADJECTIVES}\s+){{0,2}}([a-z]+)\b", text):
        number, noun = match[1], match[2]
        one = number == "1" and not match[0][len(number) :].startswith(".")
        if one and noun in SINGULAR_OF:
            found.append(f"1 {noun}")
        if not one and noun in PLURALS:
            found.append(f"{number} {noun}")
    for pattern in VERBS_AS_NOUNS:
        if re.search(pattern, text, re.IGNORECASE):
            found.append(f"a verb used as a noun: {re.search(pattern, text, re.IGNORECASE)[0]!r}")  # type: ignore[index]
    if re.search(r"\b([a-k]\d{1,2})\b is not [^.:;]*\b(?:around|next to|from) \1\b", text):
        found.append("a square described by itself")
    return found


ORIGINAL_SLIPS = [
    "There is nothing to again now.",
    "Match #2 is a game of Geyser, not Event Horizon: use geyser commands for it, or pick a Event Horizon match "
    "with --match ID or use ID.",
    "Replayed Fish #3 (alice vs bob, seed 5): 1 moves standing (1 log lines, 0 undone).",
    "a8 is not free around a8: place on b7, or skip.",
    "You have 1 open lobbies here (#3): start one, or leave it to cancel it, first.",
    "alice already plays 1 games against the computer here (#4): finish or resign one first.",
    "Can't read 'x' as a integer.",
    "The discard pile (1 cards) is shuffled into a new deck.",
]
OTHER_SLIPS = [
    "Move the the token.",
    "Place it on a 8.",
    "That is an token.",
    "Wait 3 second.",
    "Match #{0} is over.",
    "None is not a move.",
    "place  e5 or skip.",
    "x is not a move .",
    "no final stop",
    "",
    " Leading space.",
    "Rows 1-11 (columns a-k.",
    "Skip,or place.",
    "There are 2 token left.",
]
GOOD = [
    "pick an Event Horizon match with --match ID.",
    "It is a one-off, an hour at most, a useful unit.",
    "1 move, 2 moves, 0 moves, 1 second and 24 hours.",
    "Firing phase: the 6/8 ring fires; nothing is destroyed.",
    "D4-F3: tokens are still being placed; place one on a 1-tile, like D4.",
    "z9 is not a square (columns a-k, rows 1-11).",
    "It is alice's turn, not yours.",
    "'a a1 a8 ' is not a move: write a step like f6-f7.",
    "Give one move, like: fish move D4-F3 (or fish move D4 to place).",
    "an F2, a T6, an 8, an 11, a 12, a 1-tile, an f1 and a b4.",
]


def test_the_checker_catches_the_original_slips_and_others() -> None:
    for message in ORIGINAL_SLIPS + OTHER_SLIPS:
        assert slips(message), message


def test_the_checker_passes_good_wording() -> None:
    for message in GOOD:
        assert slips(message) == [], (message, slips(message))


def test_the_wording_helpers() -> None:
    assert [plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert plural(1, "lobby") == "1 lobby" and plural(3, "lobby") == "3 lobbies" and plural(2, "match") == "2 matches"
    assert plural(1_000, "byte") == "1,000 bytes" and plural(1.5, "second") == "1.5 seconds"
    assert [listing(items, "or") for items in ([], ["a1"], ["a1", "b2"], ["a1", "b2", "c3"])] == [
        "",
        "a1",
        "a1 or b2",
        "a1, b2 or c3",
    ]
    assert [a(w) for w in ("Event Horizon", "Geyser", '"1, 2, 3"', "F2", "T6", "8", "11", "hour", "one")] == [
        "an Event Horizon",
        "a Geyser",
        'a "1, 2, 3"',
        "an F2",
        "a T6",
        "an 8",
        "an 11",
        "an hour",
        "a one",
    ]


# --- engine refusals and events from random seeded games ---

NAMES = ("alice", "bob", "carol", "dan", "erin", "frank")
SEATS = {"fish": (2,), "volcano": (1, 3), "themiscyra": (2,), "geyser": (2, 3), "horizon": (2,)}
FAST = {"geyser": {"rounds": 10}, "horizon": {"turn_cap": 12}}
"""Options that bring an end sooner, so end positions are reached too."""
KEYWORDS = {
    "fish": ["pass", "place D4", "place D4-F3", "D4 F3 G2", "A0", "I1", "H9", "A1-A1", "D4 to"],
    "volcano": ["pass", "a1-a1", "a1-f1", "a0-a1", "c3", "c3-c3-c4", "a1-b2, ", ", a1-b2", "a1-b2,, b2-c3"],
    "themiscyra": ["pass", "a1 a1 @a1", "a1 b1", "a1 j10 @a1", "a1 a2 @a3", "a1 a2 a3>a1", "k1 a1 @a1", "a0 a1 @a1"],
    "geyser": [
        "pass",
        "skip",
        "again",
        "retreat",
        "start a6",
        "start f1",
        "start f11",
        "start k6",
        "place e5",
        "place f6",
        "place a1",
        "start",
        "place",
        "f6-f6",
        "a1-a2",
        "l1-l2",
        "f1-f3",
        "e6-f6",
    ],
    "horizon": [
        "pass",
        "place T6 opp:9",
        "place T6 me:0",
        "place T9 me:1",
        "place F5 opp:1",
        "place B0 me:2",
        "place MI me:9",
        "place SW me:1",
        "place XX me:1",
        "swap me:9 T1",
        "swap me:1 T9",
        "swap opp:1 T1",
        "swap me:1 SW",
        "swap me:1",
        "place T1",
        "place me:1 T1",
        "T1 me:1",
    ],
}


def _near_misses(move: str, rng: random.Random) -> Iterator[str]:
    """Texts close to a legal move: one number, letter or card changed, a word dropped, doubled or swapped."""
    for found in re.finditer(r"\d+", move):
        n = int(found[0])
        for other in {n - 1, n + 1, 0, 9, 10, 11, 12, 99, rng.randint(0, 20)} - {n}:
            yield move[: found.start()] + str(max(other, 0)) + move[found.end() :]
    for found in re.finditer(r"[A-Za-z](?=\d)", move):
        for other in {chr(ord(found[0]) + 1), chr(ord(found[0]) - 1), "z", "l", rng.choice("abcdefghijk")} - {found[0]}:
            yield move[: found.start()] + other + move[found.end() :]
    for found in re.finditer(r"\b[TFB](?=\d)|\bMI\b|\bSW\b", move):
        for other in ("T", "F", "B", "X", "SW", "MI"):
            yield move[: found.start()] + other + move[found.end() :]
    words = move.split()
    for i in range(len(words)):
        yield " ".join(words[:i] + words[i + 1 :])
        yield " ".join(words[: i + 1] + words[i:])
    if len(words) > 1:
        yield " ".join(reversed(words))
    yield move + " x"
    yield move.replace("-", " - ") + " -"


def _games(key: str, seeds: range) -> Iterator[tuple[int, list[Any]]]:
    """(seats, the positions of one random seeded game) per seat count and seed."""
    game = GAMES[key]
    for seats in SEATS[key]:
        for seed in seeds:
            rng = random.Random(f"{key}:{seats}:{seed}")
            state = game.new(seats, seed, **FAST.get(key, {}))
            states = [state]
            while game.outcome(state) is None and len(states) < 400:
                state = game.play(state, rng.choice(game.legal_moves(state)))
                states.append(state)
            yield seats, states


def _refusal(game: Any, state: Any, text: str) -> GameError | None:
    try:
        game.play(state, text)
    except GameError as error:
        return error
    return None


Refusals = dict[str, tuple[Any, str, bool]]
"""refusal -> (the state, the input, whether it refuses the notation: its examples are not about the state)"""


def engine_messages(key: str) -> tuple[dict[str, str], Refusals]:
    """({event line: where}, refusals) of seeded random games of `key` (a few thousand tries)."""
    game = GAMES[key]
    rng = random.Random(key)
    events: dict[str, str] = {}
    refusals: Refusals = {}
    all_moves: list[str] = []
    for seats, states in _games(key, range(2 if key == "themiscyra" else 4)):  # a Themiscyra turn is costly
        for ply, state in enumerate(states):
            for line in game.events(state):
                events.setdefault(line.format(*NAMES[:seats]), f"seats {seats}, ply {ply}")
            moves = game.legal_moves(state)
            all_moves += rng.sample(moves, min(3, len(moves)))
        picked = sorted({0, 1, 2, 3, len(states) // 3, len(states) // 2, len(states) - 2, len(states) - 1})
        for index in [i for i in picked if 0 <= i < len(states)] + rng.sample(range(len(states)), min(8, len(states))):
            state = states[index]
            moves = game.legal_moves(state) or [rng.choice(all_moves)]
            tries = [t for m in rng.sample(moves, min(6, len(moves))) for t in _near_misses(m, rng)]
            tries += KEYWORDS[key] + rng.sample(all_moves, min(20, len(all_moves))) + ["", " ", "x" * 100]
            for text in tries:
                refusal = _refusal(game, state, text)
                if refusal is not None:
                    refusals.setdefault(str(refusal), (state, text, isinstance(refusal, InvalidNotation)))
    for seats, options in BAD_OPTIONS[key]:
        try:
            game.new(seats, 0, **options)
        except GameError as error:
            refusals.setdefault(str(error), (None, f"new({seats}, {options})", True))
        else:
            raise AssertionError(f"{key}: new({seats}, {options}) was not refused")
    return events, refusals


BAD_OPTIONS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "fish": [(1, {}), (3, {}), (2, {"board": "123"}), (2, {"board": "4" * 60}), (2, {"first": 2}), (2, {"x": 1})],
    "volcano": [(0, {}), (7, {}), (2, {"opening": "spiral"}), (2, {"opening": "a1 a1 b2 c3 d4"}), (2, {"layout": "R"})],
    "themiscyra": [(1, {}), (3, {}), (2, {"colour": "red"})],
    "geyser": [(1, {}), (5, {}), (2, {"seven": "x"}), (2, {"tokens": 0}), (2, {"rounds": 5}), (2, {"speed": 1})],
    "horizon": [(1, {}), (2, {"first": 2}), (2, {"turn_cap": 0}), (2, {"deck": 1})],
}
COLLECTED: dict[str, tuple[dict[str, str], Refusals]] = {}


def collected(key: str) -> tuple[dict[str, str], Refusals]:
    if key not in COLLECTED:
        COLLECTED[key] = engine_messages(key)
    return COLLECTED[key]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_engine_refusals_read_well(key: str) -> None:
    _, refusals = collected(key)
    assert len(refusals) >= 25, f"{key}: only {len(refusals)} different refusals collected"
    bad = {message: (text, slips(message)) for message, (_, text, _) in refusals.items() if slips(message)}
    assert not bad, f"{key}: {len(bad)} of {len(refusals)} refusals slip: {bad}"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_engine_events_read_well(key: str) -> None:
    events, _ = collected(key)
    assert len(events) >= 10, f"{key}: only {len(events)} different event lines collected"
    bad = {line: (where, slips(line)) for line, where in events.items() if slips(line)}
    assert not bad, f"{key}: {len(bad)} of {len(events)} event lines slip: {bad}"


def suggestions(key: str, message: str) -> list[str]:
    """The moves a refusal suggests ("like D4", "place on b7, c8, or skip", "start on f1 or f11")."""
    found: list[str] = []
    if key == "geyser":
        if (places := re.search(r"place on ([a-k0-9, or]+?), or skip", message)) is not None:
            found += [f"place {s}" for s in re.split(r", | or ", places[1])]
        if (starts := re.search(r"start on ([a-k0-9, or]+)\.", message)) is not None:
            found += [f"start {s}" for s in re.split(r", | or ", starts[1])]
        found += re.findall(r"\((place [a-k]\d+)\b", message)
    else:
        found += [m for m in re.findall(r"\blike (.+?)(?:[.)]$|\)| \(|\.$)", message) if "…" not in m]
    return found


@pytest.mark.parametrize("key", sorted(GAMES))
def test_refusals_suggest_only_legal_moves(key: str) -> None:
    game = GAMES[key]
    _, refusals = collected(key)
    checked = 0
    for message, (state, text, notation) in refusals.items():
        if notation or game.outcome(state) is not None:
            continue
        for move in suggestions(key, message):
            checked += 1
            try:
                game.canonical(state, move)
            except GameError as error:
                raise AssertionError(
                    f"{key}: {text!r} is refused with {message!r}, whose {move!r} is {error}"
                ) from None
    assert checked or key in ("horizon", "volcano"), f"{key}: no suggestion was checked"


# --- service refusals ---

ALICE, BOB, CAROL = Player("local:alice", "alice"), Player("local:bob", "bob"), Player("local:carol", "carol")
MOD = Player("local:mod", "mod")


async def _refused(messages: list[str], call: Any) -> None:
    try:
        await call
    except (ServiceError, GameError) as error:
        messages.append(str(error))
    else:
        raise AssertionError("not refused")


async def service_refusals(tmp_path: Path) -> list[str]:
    store = await Store.open(tmp_path / "wording.sqlite3", GAMES)
    service = MatchService(store, FakeTime(), UserLimits(lobbies=1, challenges=1, computer_games=1))
    await service.start()
    out: list[str] = []
    try:
        fish = await service.create_match("fish", [ALICE, BOB], seed=5)
        horizon = await service.create_match("horizon", [ALICE, BOB], seed=5)
        volcano = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=5)
        clocked = await service.create_match("geyser", [ALICE, BOB], seed=5, clock=ClockSettings(30, 60))
        await _refused(out, service.move(fish.id, CAROL.id, "A1"))
        await _refused(out, service.move(fish.id, BOB.id, "A1"))
        await _refused(out, service.move(fish.id, ALICE.id, "A1", ply=3))
        await _refused(out, service.move(fish.id, ALICE.id, "Z9"))
        await _refused(out, service.move(horizon.id, ALICE.id, "swap me:1 T1"))
        await _refused(out, service.moderation.undo(fish.id, MOD))
        await _refused(out, service.moderation.pause(fish.id, MOD))
        await _refused(out, service.moderation.resume(fish.id, MOD))
        await _refused(out, service.moderation.resume(clocked.id, MOD))
        await service.moderation.pause(clocked.id, MOD)
        await _refused(out, service.moderation.pause(clocked.id, MOD))
        await _refused(out, service.move(clocked.id, ALICE.id, "start f1"))
        await _refused(out, service.moderation.add_time(fish.id, MOD, ALICE.id, 10))
        await _refused(out, service.moderation.add_time(clocked.id, MOD, CAROL.id, 10))
        await _refused(out, service.moderation.add_time(clocked.id, MOD, ALICE.id, 0))
        await _refused(out, service.moderation.adjudicate(fish.id, MOD, CAROL.id))
        await _refused(out, service.playing.resign(fish.id, CAROL.id))
        await service.playing.resign(volcano.id, CAROL.id)
        await _refused(out, service.playing.resign(volcano.id, CAROL.id))
        await service.moderation.abort(fish.id, MOD)
        for call in (
            service.move(fish.id, ALICE.id, "A1"),
            service.moderation.undo(fish.id, MOD),
            service.playing.resign(fish.id, ALICE.id),
            service.moderation.abort(fish.id, MOD),
            service.get(999),
            service.lobbies.get_lobby(999),
            service.registry.get_series(999),
            service.create_match("chess", [ALICE, BOB]),
            service.create_match("fish", [ALICE]),
            service.create_match("fish", [ALICE, BOB], options={"first": 5}),
            service.create_match("geyser", [ALICE, BOB], options={"rounds": 1}),
            service.create_series("fish", [ALICE, BOB], first=0, best_of=2),
            service.create_series("fish", [ALICE, BOB], first=3),
            service.create_series("fish", [ALICE, ALICE], first=0),
            service.ratings.leaderboard(None, "fish", limit=0),
            service.ratings.leaderboard(None, "chess"),
        ):
            await _refused(out, call)
        here = Place(guild_id=1, channel_id=2)
        lobby = await service.lobbies.open_lobby("volcano", ALICE, place=here)
        for call in (
            service.lobbies.open_lobby("volcano", ALICE, place=here),
            service.lobbies.join_lobby(lobby.id, ALICE),
            service.lobbies.leave_lobby(lobby.id, BOB),
            service.lobbies.add_computer(lobby.id, BOB),
            service.lobbies.start_lobby(lobby.id, BOB),
            service.lobbies.open_lobby("volcano", BOB, options={"opening": "spiral"}),
        ):
            await _refused(out, call)
        small = await service.lobbies.open_lobby("geyser", BOB, place=here)
        await _refused(out, service.lobbies.start_lobby(small.id, BOB))
        for player in (CAROL, Player("local:dan", "dan"), Player("local:erin", "erin")):
            await service.lobbies.join_lobby(small.id, player)
        await _refused(out, service.lobbies.join_lobby(small.id, Player("local:frank", "frank")))
        await _refused(out, service.lobbies.add_computer(small.id, BOB))
        await service.lobbies.leave_lobby(small.id, BOB)
        await _refused(out, service.lobbies.join_lobby(small.id, ALICE))
        await service.challenges.record_challenge(77, 1, ALICE, BOB, game="fish", channel_id=2)
        out.append(await service.limits.challenge_refusal(1, ALICE) or "")
        await service.create_match("fish", [ALICE, computer()], place=here)
        await _refused(out, service.create_match("fish", [ALICE, computer("hard")], place=here))
        await _refused(out, service.challenges.check_challenge(77, CAROL))
    finally:
        await service.close()
        await store.close()
    return out


async def test_service_refusals_read_well(tmp_path: Path) -> None:
    messages = await service_refusals(tmp_path)
    assert len(messages) >= 40
    bad = {message: slips(message) for message in messages if slips(message)}
    assert not bad, f"{len(bad)} of {len(messages)} service refusals slip: {bad}"


# --- terminal answers ---

TERMINAL_LINES = [
    "dance",
    "fish",
    "fish jump",
    "fish move",
    "fish board",
    "mod",
    "mod jump",
    "use x",
    "use 99",
    "stats",
    "leaderboard chess",
    "replay",
    "replay nowhere.json",
    "fish new alice",
    "fish new alice alice",
    "fish new alice bob --clock x/60",
    "fish new alice bob --colour red",
    "fish new alice bob --seed",
    "fish dm alice bob",
    "fish dm alice bob --first carol",
    "volcano new",
    "volcano new a b c d e f g",
    "geyser new alice",
    "geyser new alice bob --rounds 1",
    "horizon new alice bob --turn-cap x",
    "horizon new alice bob --first carol",
    "horizon new alice bob --seed 3",
    "horizon move place T6 opp:9",
    "horizon move place T6 opp:0",
    "horizon move place T9 opp:5",
    "horizon move place F5 me:1",
    "horizon move swap me:9 T1",
    "horizon move swap me:1 T1",
    "horizon move pass",
    "horizon move place T6 opp:5 --as carol",
    "horizon move place T6 opp:5 --as bob",
    "horizon hand extra",
    "horizon board extra",
    "horizon rules --areas",
    "geyser board",
    "geyser moves",
    "fish record",
    "geyser new alice bob --seed 1",
    "geyser move again",
    "geyser move retreat",
    "geyser move skip",
    "geyser move place e5",
    "geyser move start a6",
    "geyser move start z9",
    "geyser move f1-f2",
    "horizon board",
    "mod pause",
    "mod addtime alice",
    "mod addtime alice 0",
    "mod addtime carol 10",
    "mod adjudicate",
    "mod undo",
    "horizon new alice computer --seed 3",
    "horizon hand --as computer",
    "horizon move pass --as computer",
    "horizon resign --as computer",
    "mod abort",
    "horizon move pass",
    "horizon hand",
    "mod undo",
    "geyser move start f1 --match 2",
    "geyser history --match 2",
    "games",
    "fish new alice bob --seed 5 --clock 30/60",
    "fish move A1",
    "fish move A1",
    "mod pause",
    "mod pause",
    "fish move A2",
    "mod addtime bob 90",
    "mod resume",
    "mod undo",
    "fish history",
    "mod adjudicate alice",
    "fish record",
    "replay {records}/fish-match-4.json",
    "volcano new solo --seed 2",
    "volcano move b2-c3, c3-d4",
    "volcano best",
    "volcano resign",
    "stats alice",
    "leaderboard fish",
]
"""Bad lines, and a few good ones around them (their posts are checked too); {records}: the records folder."""


async def terminal_answers(tmp_path: Path) -> list[str]:
    store = await Store.open(tmp_path / "terminal.sqlite3", GAMES)
    service = MatchService(store, FakeTime())
    await service.start()
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    answers, posts = [], []
    try:
        for line in TERMINAL_LINES:
            before = len(out)
            await terminal.handle(line.format(records=tmp_path / "records"))
            answers += [text[2:] for text in out[before:] if text.startswith("✗ ")]
            posts += [text for text in out[before:] if not text.startswith("✗ ")]
    finally:
        await service.close()
        await store.close()
    return answers, posts


async def test_terminal_answers_read_well(tmp_path: Path) -> None:
    answers, posts = await terminal_answers(tmp_path)
    assert len(answers) >= 50
    bad = {answer: slips(answer) for answer in answers if slips(answer)}
    assert not bad, f"{len(bad)} of {len(answers)} terminal answers slip: {bad}"
    lines = [re.sub(r"^\[#\d+\] ", "", line).strip() for post in posts for line in post.split("\n")]  # (layout)
    lines = [line for line in lines if not re.match(r"(board|picture|replay): ", line)]  # paths
    bad = {line: slips(line, sentence=False) for line in lines if slips(line, sentence=False)}
    assert not bad, f"{len(bad)} of {len(lines)} lines of the terminal's posts slip: {bad}"


# --- the slips of issue #16, one by one ---


async def test_the_issue_s_terminal_answers(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "issue.sqlite3", GAMES)
    service = MatchService(store, FakeTime())
    await service.start()
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)

    async def run(line: str) -> str:
        before = len(out)
        await terminal.handle(line)
        return "\n".join(out[before:])

    try:
        await run("geyser new alice bob --seed 1")
        await run("geyser move start f1")
        assert await run("geyser move again") == "✗ There is no tied battle to fight again now."
        assert "or pick a match of Event Horizon with" in await run("horizon hand")
        await run("horizon new alice computer --seed 3")
        hidden = await run("horizon hand --as computer")
        assert "Computer's hand is hidden" in hidden and "wait" not in hidden
        assert await run("horizon move place T6 opp:9") == (
            "✗ opp:9 is not a space: the spaces are 1-8, opp:1 to opp:8 (a token escapes at 9, past the last space)."
        )
        # hot seat: a refusal that says "you" says to whom
        seed = next(s for s in range(50) if "SW" not in after_setup(s).hands[after_setup(s).turn])
        await run(f"horizon new alice bob --seed {seed}")
        state = GAMES["horizon"].new(2, seed)
        for _ in range(6):
            move = GAMES["horizon"].legal_moves(state)[0]
            await run(f"horizon move {move}")
            state = GAMES["horizon"].play(state, move)
        mover = ("alice", "bob")[state.turn]
        assert await run("horizon move swap me:1 T1") == f"✗ {mover}, you have no Swap card in your hand."
    finally:
        await service.close()
        await store.close()


def after_setup(seed: int) -> Any:
    game = GAMES["horizon"]
    state = game.new(2, seed)
    for _ in range(6):
        state = game.play(state, game.legal_moves(state)[0])
    return state


def test_a_claim_s_refusals_give_the_reason_and_suggest_only_legal_squares() -> None:
    geyser: Any = GAMES["geyser"]
    state = geyser.state_from_position(2, {"b8": (0, 1), "f11": (1, 1)}, seed=3)
    state = geyser.play(state, "b8-a8")  # claims the 2/12 geyser on a8
    legal = geyser.legal_moves(state)
    assert state.pending == ("place", 7 * 11) and "place a8" not in legal
    with pytest.raises(GameError) as refused:
        geyser.play(state, "place a8")
    message = str(refused.value)
    assert message.startswith("a8 is the geyser you claimed, and the new token goes on a square next to it: place on ")
    assert all(f"place {square}" in legal for square in re.findall(r"\b[a-k]\d+\b", message.split(": ", 1)[1]))
    with pytest.raises(GameError) as refused:
        geyser.play(state, "pass")
    hint = str(refused.value)
    assert re.search(r"\((place [a-k]\d+)\)", hint)[1] in legal  # type: ignore[index]


async def test_the_restart_line_speaks_of_a_fresh_move_clock_only_where_there_is_a_clock(
    service: MatchService,
) -> None:
    from bot import posts

    timed = await service.create_match(
        "toy", [Player("local:a", "a"), Player("local:b", "b")], clock=ClockSettings(60, 60)
    )
    untimed = await service.create_match("toy", [Player("local:c", "c"), Player("local:d", "d")])
    assert posts.restart_line(timed) == posts.RESTART_LINE and "fresh move clock" in posts.RESTART_LINE
    assert posts.restart_line(untimed) == "The bot is back after a restart."
