"""Property-based fuzzing of bad input (hypothesis): the only outcome is a clear refusal, never a trace or a change.

Covered: every engine's `play` (arbitrary text, and near misses built from the game's own notation) on
positions from seeded random games; `new` with arbitrary seat counts and options; the terminal front-end's
`Terminal.handle` with arbitrary lines and with real commands given fuzzed arguments; and the pure parsing
helpers the Discord commands use (`parse_clock`, the `move@ply` value, `find_match`'s `match:` number).
Example counts are kept small so the whole file runs in well under a minute on two cores.
"""

from __future__ import annotations

import asyncio
import random
import re
import string
import warnings
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NonInteractiveExampleWarning

from bot.clock import ClockSettings, FakeTime
from bot.cogs.base import PLY_DIGITS, Refusal, find_match, parse_clock, split_ply
from bot.cogs.tournament import parse_places
from bot.games import GAMES, BadOptions, Game, IllegalMove
from bot.local import Terminal
from bot.models import Place, Player
from bot.service import MatchService, ServiceError
from bot.store import Store

KEYS = sorted(GAMES)
FAST = settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
TRACE = re.compile(r"Traceback|File \"|object at 0x|\b(Key|Index|Type|Attribute|Value|Zero\w*)Error\b|^<|\w+\(\w+=")
"""What a refusal must not look like: a trace, a Python repr, or a bare exception name."""
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
"""The player's own text, quoted in a refusal (`'lace T3 me:1(0=' is not a move`): not the refusal's words."""
MAX_MESSAGE = 1000
"""A refusal is read by people, and Discord's ephemeral replies hold 2,000 characters at most."""


# --- positions from seeded random games ---


@cache
def positions(key: str) -> tuple[Any, ...]:
    """A spread of positions of one game: fresh, early, middle and (where reached) over, for each seat count."""
    game = GAMES[key]
    found = []
    for seats in range(game.min_players, game.max_players + 1):
        for seed in (0, 1):
            rng = random.Random(f"{key}:{seats}:{seed}")
            state = game.new(seats, seed)
            for ply in range(80):
                if ply in (0, 3, 11, 40) or game.to_move(state) is None:
                    found.append(state)
                if game.to_move(state) is None:
                    break
                state = game.play(state, rng.choice(game.legal_moves(state)))
    return tuple(found)


@cache
def alphabet(key: str) -> str:
    """Every character the game's notation uses, for mutations that stay close to real moves."""
    chars = {c for state in positions(key) for move in GAMES[key].legal_moves(state)[:400] for c in move}
    return "".join(sorted(chars))


def mutate(draw: Callable[..., Any], move: str, key: str) -> str:
    """One near miss of a real move: a character changed, dropped or added, numbers out of range, junk around."""
    near = st.sampled_from(alphabet(key) + "@,:;-> 0123456789zZ\x00\t\n`'\"éİſ١²")
    kind = draw(st.integers(0, 9))
    i = draw(st.integers(0, len(move)))
    if kind == 0 and move:
        return move[: min(i, len(move) - 1)] + draw(near) + move[min(i, len(move) - 1) + 1 :]
    if kind == 1:
        return move[:i] + move[i + 1 :]
    if kind == 2:
        return move[:i] + draw(near) + move[i:]
    if kind == 3:  # numbers out of range
        big = draw(st.sampled_from(["0", "00", "99", "100", "-1", "12", "20", "10**9", str(2**64), "1e9", "٣"]))
        return re.sub(r"\d+", big, move, count=draw(st.integers(0, 3)))
    if kind == 4:  # letters out of range
        return re.sub(r"[A-Za-z]", draw(st.sampled_from(["z", "Z", "q", "I", "é", "ß"])), move, count=1)
    if kind == 5:
        return draw(st.text(max_size=4)) + move + draw(st.text(max_size=4))
    if kind == 6:
        return move.swapcase() if draw(st.booleans()) else move.upper()
    if kind == 7:
        return move + draw(st.sampled_from([", ", " ", ",", "; ", " and ", "-", ">"])) + move
    if kind == 8:
        return move[:i]
    return move.replace(" ", draw(st.sampled_from(["", "  ", "\t", "-", ",", "_"])))


@st.composite
def position_and_text(draw: Callable[..., Any], key: str) -> tuple[Any, str]:
    state = draw(st.sampled_from(positions(key)))
    game = GAMES[key]
    moves = game.legal_moves(state) or [m for s in positions(key)[:1] for m in game.legal_moves(s)]
    if draw(st.integers(0, 3)) == 0:
        return state, draw(st.text(max_size=40))
    text = draw(st.sampled_from(moves[:2000]))
    for _ in range(draw(st.integers(1, 3))):
        text = mutate(draw, text, key)
    return state, text


def check_play(game: Game, state: Any, text: str) -> None:
    """A new state whose canonical move is legal, or IllegalMove with a readable message; the input untouched."""
    before = game.dumps(state)
    try:
        after = game.play(state, text)
    except IllegalMove as error:
        message = str(error)
        assert message.strip(), f"empty refusal for {text!r}"
        assert not TRACE.search(QUOTED.sub("''", message)), message  # the input it quotes may read like anything
        assert len(message) <= MAX_MESSAGE, f"a {len(message)}-character refusal for {text[:40]!r}"
    else:
        canonical = game.canonical(state, text)
        first = canonical.split(", ")[0] if game.key == "volcano" else canonical  # a Volcano turn is several steps
        first = re.sub(r" \[[^\]]*\]$", "", first)  # Geyser logs the dice a move rolled: "f6-f7 [fire 3+5]"
        assert first in game.legal_moves(state), (text, canonical)
        assert game.dumps(game.play(state, canonical)) == game.dumps(after)
    assert game.dumps(state) == before


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_play_with_any_text_is_a_move_or_a_clear_refusal(key: str, data: st.DataObject) -> None:
    state, text = data.draw(position_and_text(key))
    check_play(GAMES[key], state, text)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("text", ["x" * 5000, "A1-" * 2000, "a1 " * 3000, "place " * 900, ", ".join(["b2-c3"] * 800)])
def test_long_text_gets_a_short_refusal(key: str, text: str) -> None:
    for state in positions(key)[:3]:
        check_play(GAMES[key], state, text)


# --- new with arbitrary options ---

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.sampled_from(["", "0", "1", "-1", "calm", "latin", "classic", "diagonal", "a1 b3 c3 d2 e5", "nan", "x" * 70]),
)


@pytest.mark.parametrize("key", KEYS)
@FAST
@given(
    seats=st.one_of(st.integers(-3, 9), st.integers(), st.sampled_from([None, "2", 2.0, True])),
    seed=st.one_of(st.integers(), st.sampled_from([None, "1", 1.5])),
    data=st.data(),
)
def test_new_with_any_options_is_a_game_or_bad_options(key: str, seats: Any, seed: Any, data: st.DataObject) -> None:
    game = GAMES[key]
    anything = st.text(max_size=8).filter(lambda name: name not in ("seats", "seed"))  # new's own arguments
    names = st.one_of(st.sampled_from(sorted(game.options.names) or ["first"]), anything)
    options = data.draw(st.dictionaries(names, VALUES, max_size=3))
    try:
        state = game.new(seats, seed, **options)
    except BadOptions as error:
        assert str(error).strip() and not TRACE.search(str(error)), str(error)
        assert len(str(error)) <= MAX_MESSAGE
    else:
        assert game.to_move(state) is not None and game.legal_moves(state)


# --- the terminal front-end ---

STARTS = [
    "fish new alice bob --seed 3",
    "volcano new alice bob carol --seed 3",
    "themiscyra new alice bob",
    "geyser new alice bob --seed 3",
    "horizon new alice bob --seed 3",
    "fish new carol dan --clock 30/60 --seed 4",
]
SUBS = ["new", "dm", "best", "hand", "move", "play", "board", "moves", "history", "rules", "resign", "x"]
SUBS += ["takeback", "accept", "decline", "claim"]
MODS = ["list", "pause", "resume", "addtime", "undo", "adjudicate", "abort", "backup", "x"]
WORDS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "alice",
            "bob",
            "computer",
            "computer:godlike",
            "--match",
            "--as",
            "--seed",
            "--clock",
            "--first",
            "--board",
            "--opening",
            "--layout",
            "--tokens",
            "--seven",
            "--turn-cap",
            "--move",
            "--reserve",
            "--areas",
            "--text",
            "--no-house",
            "1",
            "0",
            "-1",
            "2",
            "6",
            "99999",
            str(2**63),
            "1e400",
            "nan",
            "inf",
            "30/60",
            "0/0",
            "30/-1",
            "draw",
            "D4",
            "a1-a2",
            "b2-c3, c3-d4",
            "start f1",
            "place T1 me:1",
            "a1 a2 @a1",
            "'",
            '"',
            "\\",
            "",
        ]
    ),
)


@st.composite
def command_lines(draw: Callable[..., Any]) -> str:
    """Arbitrary lines, and real commands with fuzzed arguments (quoted so odd words reach the parser)."""
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.text(max_size=60))
    words = draw(st.lists(WORDS, max_size=5))
    if kind == 1:
        head = ["mod", draw(st.sampled_from(MODS))]
    elif kind == 2:
        head = ["use"]
    else:
        head = [draw(st.sampled_from([*KEYS, "FISH", "games", "help"])), draw(st.sampled_from(SUBS))]
    quoted = [w if draw(st.booleans()) else repr(w) for w in words]
    return " ".join(head + quoted)


async def snapshot(store: Store) -> list[Any]:
    """Everything the database holds about matches, series and lobbies, to compare before and after."""
    rows = []
    for table in ("matches", "seats", "moves", "clocks", "actions", "series", "lobbies"):
        async with store._db.execute(f"SELECT * FROM {table} ORDER BY rowid") as cursor:
            rows.append([tuple(row) for row in await cursor.fetchall()])
    return rows


class Bench:
    """A service with a running match of each game, a terminal on it, and the lines it printed."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.out: list[str] = []

    async def open(self) -> None:
        self.store = await Store.open(self.tmp / "fuzz.sqlite3")
        self.service = MatchService(self.store, FakeTime())
        await self.service.start()
        self.terminal = Terminal(self.service, self.tmp / "renders", self.out.append)
        self.terminal.saved = []
        await self.restock()

    async def restock(self) -> None:
        """Start a match of every game that has none running (an accepted abort or resign ends one)."""
        running = {m.game for m in self.service.running()}
        for line in STARTS[:5]:
            if line.split()[0] not in running:
                assert await self.terminal.handle(line)
        if not any(m.clock for m in self.service.running()):
            assert await self.terminal.handle(STARTS[5])

    async def close(self) -> None:
        await self.service.close()
        await self.store.close()

    async def check(self, line: str) -> None:
        """handle never raises; a refusal is one ✗ line (or Can't read) and changes nothing in the database."""
        before = await snapshot(self.store)
        start = len(self.out)
        keep_going = await self.terminal.handle(line)  # any exception fails the test: that is the point
        printed = self.out[start:]
        text = "\n".join(printed)
        assert not TRACE.search(text.split("\n")[0]) or not printed[0].startswith("✗"), text
        assert "Traceback" not in text
        refused = len(printed) == 1 and (printed[0].startswith("✗ ") or printed[0].startswith("Can't read that"))
        if refused:
            assert printed[0].removeprefix("✗ ").strip(), line
            assert await snapshot(self.store) == before, f"refused but changed: {line!r} -> {printed[0]}"
        elif keep_going is False:
            assert line.split()[0].lower() in ("quit", "exit")
        else:
            self.terminal.saved.clear()
            await self.restock()


def run_bench(tmp: Path, body: Callable[[Bench, asyncio.Runner], None]) -> None:
    """One event loop across every hypothesis example, so matches and clocks persist between them."""
    with asyncio.Runner() as runner:
        bench = Bench(tmp)
        runner.run(bench.open())
        try:
            body(bench, runner)
        finally:
            runner.run(bench.close())


def test_terminal_lines_are_answered_or_refused_without_change(tmp_path: Path) -> None:
    def body(bench: Bench, runner: asyncio.Runner) -> None:
        @settings(max_examples=250, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(line=command_lines())
        @example(line="fish move D4 --match 99999999999999999999999")
        @example(line="fish new alice bob --seed 1e400")
        @example(line="mod addtime alice 1e400")
        @example(line="use -0")
        def fuzz(line: str) -> None:
            runner.run(bench.check(line))

        fuzz()

    run_bench(tmp_path, body)


@pytest.mark.parametrize("key", KEYS)
def test_terminal_near_miss_moves_are_refused_without_change(tmp_path: Path, key: str) -> None:
    def body(bench: Bench, runner: asyncio.Runner) -> None:
        start = next(m for m in bench.service.running() if m.game == key)
        moves = GAMES[key].legal_moves(start.state)[:2000]  # fixed: hypothesis replays draws from the same list

        @SLOW
        @given(data=st.data())
        def fuzz(data: st.DataObject) -> None:
            match = next(m for m in bench.service.running() if m.game == key)
            text = data.draw(st.sampled_from(moves))
            for _ in range(data.draw(st.integers(1, 2))):
                text = mutate(data.draw, text, key)
            runner.run(bench.check(f"{key} move {text!r} --match {match.id}"))

        fuzz()

    run_bench(tmp_path, body)


# --- hostile terminal lines: control and bidirectional characters, huge strings, paths that climb out ---

HOSTILE_PIECES = st.sampled_from(
    [
        "\x00",
        "\x07",
        "\x1b[2J",
        "\x7f",
        "\x85",
        "\u2028",
        "\u202e",
        "\u202a",
        "\u2066",
        "\u2069",
        "\u200b",
        "\u200d",
        "\u200f",
        "\ufeff",
        "\xa0",
        "../../../escaped",
        "..\\..\\escaped",
        "data/../../escaped",
        "/tmp/escaped",
        "..",
        ".",
        "~",
        "a/b",
        "x" * 33,
        "é" * 32,
        "y" * 300,
        "z" * 3000,
        "w" * 100_000,
        "alice",
        "bob",
        "computer",
        "Zoë",
        "-1000",
        "86401",
        "",
    ]
)
HOSTILE_WORDS = st.builds(
    lambda pieces, tail: "".join(pieces) + tail, st.lists(HOSTILE_PIECES, min_size=1, max_size=3), st.text(max_size=4)
)
TEMPLATES = [
    "fish new {} bob",
    "volcano new alice {}",
    "horizon new {} bob --seed 1",
    "geyser new alice {}",
    "themiscyra new {} bob",
    "fish dm alice {} --first alice",
    "fish new alice bob --first {}",
    "horizon hand --as {}",
    "fish move D4 --as {}",
    "volcano move {}",
    "mod addtime {} 30",
    "mod addtime carol {}",
    "mod adjudicate {}",
    "stats {}",
    "replay {}",
    "replay {}.json",
    "use {}",
    "fish {}",
    "leaderboard {}",
    "{}",
]
SHOWN_BADLY = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters that must never reach the terminal raw: controls (tab and newline aside), line separators and
bidirectional overrides. A refusal quotes input with repr(), which escapes them."""


@st.composite
def hostile_lines(draw: Callable[..., Any]) -> str:
    word = draw(HOSTILE_WORDS)
    quoting = draw(st.sampled_from([str, repr, lambda w: "'" + w.replace("'", "") + "'"]))
    return draw(st.sampled_from(TEMPLATES)).format(quoting(word))


def test_terminal_hostile_lines_are_answered_and_refusals_change_nothing(tmp_path: Path) -> None:
    """Every hostile line gets an answer (a refusal in one short line that leaves the database as it was,
    or what the command does), nothing printed holds a raw control or bidirectional character, and every
    file written stays in the terminal's folders."""

    def body(bench: Bench, runner: asyncio.Runner) -> None:
        clocked = next(m for m in bench.service.running() if m.clock)  # carol vs dan, for mod addtime
        bench.terminal.current = clocked.id

        @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(line=hostile_lines())
        @example(line="fish new al\x00ice bob")
        @example(line="horizon new ../../../escaped bob --seed 1")
        @example(line="fish new " + "a" * 300 + " bob")
        @example(line="replay " + "../" * 30 + "escaped.json")
        @example(line="mod addtime carol -1000")
        @example(line="stats " + "w" * 100_000)
        @example(line="replay '\u200b\n'")  # a path with a line break: its refusal stays on one line
        def fuzz(line: str) -> None:
            start = len(bench.out)
            runner.run(bench.check(line))
            printed = bench.out[start:]
            if line.strip(" \t\r\n"):
                assert printed and all(p.strip() for p in printed), f"no answer to {line[:60]!r}"
            if len(printed) == 1 and printed[0].startswith("✗ "):
                assert len(printed[0]) <= 600 and "\n" not in printed[0], printed[0][:200]
            for text in printed:
                assert not SHOWN_BADLY.search(text), f"{line[:60]!r} printed {text[:200]!r}"

        fuzz()

    run_bench(tmp_path, body)
    written = {path.relative_to(tmp_path).parts[0] for path in tmp_path.rglob("*") if path.is_file()}
    assert written <= {"renders", "records", "backups", "fuzz.sqlite3", "fuzz.sqlite3-wal", "fuzz.sqlite3-shm"}
    assert not [path for path in tmp_path.parent.rglob("*escaped*")]


# --- the Discord commands' argument parsing ---

CLOCKS = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.builds(lambda a, b, sep: f"{a}{sep}{b}", WORDS, WORDS, st.sampled_from(["/", "//", " / ", "/-", ""])),
    st.sampled_from(["30/60", "nan/nan", "inf/0", "1e400/1", "30/60/90", "٣٠/٦٠", "30s", " 30 ", "0x1e/0"]),
)


ECHO = re.compile(r"""not ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")…?""")
"""The typed text a clock refusal quotes back (`not '0(0='`), which may look like anything."""


@FAST
@given(text=CLOCKS)
@example(text="9" * 5000)  # thousands of digits: read as a float (no digit limit), refused by its range
@example(text="1/" + "9" * 5000 + "d")
def test_parse_clock_gives_settings_or_a_refusal(text: str | None) -> None:
    try:
        clock = parse_clock(text)
    except Refusal as error:
        assert str(error).strip() and not TRACE.search(ECHO.sub("not …", str(error)))
        assert len(str(error)) <= MAX_MESSAGE
    else:
        assert clock is None or isinstance(clock, ClockSettings)


@settings(max_examples=200, deadline=None, database=None)
@given(
    value=st.one_of(
        st.text(max_size=30),
        st.builds(lambda m, p: f"{m}@{p}", st.text(max_size=10), st.text(max_size=6)),
        st.builds(lambda m, p: f"{m}@{p}", st.sampled_from(["D4-F3", "a1 a2 @a1", ""]), st.integers()),
    )
)
@example(value="D4-F3@²")  # a superscript two is a digit to str.isdigit, but int() refuses it
@example(value="D4-F3@١٢")
@example(value="a1 a2 @a1@12")
@example(value="A1@" + "9" * 5000)  # int() refuses more than 4,300 digits: refused in words before it
@example(value="A1@1234567890")
def test_move_values_split_into_text_and_ply(value: str) -> None:
    try:
        text, ply = split_ply(value)
    except Refusal as error:
        mark = value.rpartition("@")[2]
        assert mark.isascii() and mark.isdigit() and len(mark) > PLY_DIGITS
        assert "names no board" in str(error) and len(str(error)) <= MAX_MESSAGE
        return
    if ply is None:
        assert text == value
    else:
        assert value == f"{text}@{value.rpartition('@')[2]}" and ply >= 0
        assert value.rpartition("@")[2].isascii()


@FAST
@given(text=st.one_of(st.text(max_size=20), st.from_regex(r"[0-9]{1,6000}(,[0-9]{1,10}){0,3}", fullmatch=True)))
@example(text="9" * 5000)  # `/tournament adjudicate result:` with 5,000 digits
def test_tournament_results_are_places_or_a_refusal(text: str) -> None:
    for seats in (2, 3):
        try:
            places = parse_places(text, seats)
        except Refusal as error:
            assert "Give the result as" in str(error) and len(str(error)) <= MAX_MESSAGE
        else:
            assert places == "void" or all(isinstance(p, int) and 0 <= p < 1000 for p in places)


def interaction(guild: int | None, channel: int | None) -> Any:
    """What find_match reads of an interaction: the server, the channel and the user."""
    user = SimpleNamespace(id=77, display_name="zed")
    return SimpleNamespace(guild_id=guild, channel_id=channel, user=user)


def test_find_match_with_any_match_number_finds_it_or_refuses(tmp_path: Path) -> None:
    async def open_bench() -> tuple[Store, MatchService, int]:
        store = await Store.open(tmp_path / "find.sqlite3")
        service = MatchService(store, FakeTime())
        await service.start()
        players = [Player("discord:77", "zed"), Player("discord:78", "yve")]
        match = await service.create_match("fish", players, place=Place(5, 6))
        return store, service, match.id

    with asyncio.Runner() as runner:
        store, service, match_id = runner.run(open_bench())

        @FAST
        @given(
            number=st.one_of(st.none(), st.integers(-(2**53), 2**53), st.sampled_from([0, -1, match_id])),
            game=st.sampled_from([None, "fish", "volcano"]),
            guild=st.sampled_from([None, 5, 9]),
            channel=st.sampled_from([6, 7]),
            mine=st.booleans(),
        )
        def fuzz(number: int | None, game: str | None, guild: int | None, channel: int, mine: bool) -> None:
            if guild is None:  # a direct message: Discord always names the channel, here a DM channel of its own
                channel = 8
            try:
                found = runner.run(find_match(service, interaction(guild, channel), game, number, mine))
            except ServiceError as error:
                assert str(error).strip() and not TRACE.search(str(error))
            else:
                assert found.id == match_id and found.place.guild_id == guild
                assert number in (None, match_id) and game in (None, "fish")

        try:
            fuzz()
        finally:
            runner.run(service.close())
            runner.run(store.close())


# --- a few hypothesis-made bad values through the fake Discord (slow: few examples) ---


BAD_VALUES = st.lists(
    st.one_of(
        st.text(alphabet=string.printable + "é²١", min_size=1, max_size=20),
        st.builds(
            lambda m, p: f"{m}@{p}", st.sampled_from(["D4", "A1-C1", "zz"]), st.sampled_from(["²", "-1", "9" * 30])
        ),
    ),
    min_size=4,
    max_size=4,
    unique=True,
)


async def test_bad_values_through_discord_are_refused_ephemerally(fake: Any, bot: Any) -> None:
    """Bad move values and clocks reach the real command code; each gets an ephemeral refusal, nothing changes."""
    with warnings.catch_warnings():  # .example() outside @given is what we want here: the fake is too slow for more
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        values = BAD_VALUES.example() + ["D4-F3@²", "A1@99999999999999999999999999"]
    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    await fake.click("bob", challenge.message, label="Accept")
    thread = fake.threads[-1]
    match = bot.matches.running()[0]
    log = await bot.matches.store.log(match.id)
    for value in values:
        reply = await fake.slash("alice", "fish move", {"move": value}, channel=thread)
        assert reply.ephemeral and reply.content and "went wrong" not in reply.content, (value, reply.content)
    for value in values[:2] + ["30/-60", "nan/nan", "1e400"]:
        reply = await fake.slash("alice", "fish challenge", {"opponent": "bob", "clock": value})
        if reply.ephemeral:
            assert "went wrong" not in (reply.content or ""), (value, reply.content)
    assert await bot.matches.store.log(match.id) == log
