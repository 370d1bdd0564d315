"""The games' option specs (`bot.games.base.Option`), the one check `new` makes with them, what the terminal
and the slash commands build from them, and the one clock parser both front-ends use (bot/clock.py)."""

from __future__ import annotations

from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot import discord_limits as limits
from bot import i18n
from bot.clock import CLOCK_HELP, ClockError, ClockSettings, parse_clock
from bot.cogs import fish, geyser, horizon, themiscyra, volcano
from bot.cogs.base import GameCog, Refusal
from bot.cogs.base import parse_clock as slash_clock
from bot.cogs.options import DESCRIPTION, option_choices
from bot.games import GAMES, BadOptions, Game
from bot.games.base import Option, Options
from bot.local import NEW, Terminal, full_help, game_help, new_flags
from bot.service import MatchService

KEYS = sorted(GAMES)
COGS: dict[str, type[GameCog]] = {
    "fish": fish.FishCog,
    "geyser": geyser.GeyserCog,
    "horizon": horizon.HorizonCog,
    "themiscyra": themiscyra.ThemiscyraCog,
    "volcano": volcano.VolcanoCog,
}
OWN_PARAMETERS = {"new": {"clock"}, "challenge": {"opponent", "clock", "level"}}
"""The front-ends' own parameters of a start command, beside the game's options."""


def options(key: str) -> list[Option]:
    return list(GAMES[key].options)


def each_option() -> list[tuple[str, Option]]:
    return [(key, option) for key in KEYS for option in options(key)]


# --- the specs -----------------------------------------------------------------------------------------


def test_every_game_declares_its_options_as_a_spec() -> None:
    names = {key: GAMES[key].options.names for key in KEYS}
    assert names == {
        "fish": ("first", "board"),
        "geyser": ("seven", "tokens", "rounds", "starts"),
        "horizon": ("first", "turn_cap"),
        "themiscyra": (),
        "volcano": ("opening", "layout"),
    }
    assert [o.name for o in GAMES["geyser"].options.offered] == ["seven", "tokens", "rounds"]  # starts: replays only
    for key in KEYS:
        assert isinstance(GAMES[key].options, Options) and isinstance(GAMES[key].options, tuple)


@pytest.mark.parametrize(("key", "option"), each_option(), ids=lambda v: getattr(v, "name", v))
def test_an_option_is_well_formed_and_fits_discord(key: str, option: Option) -> None:
    assert option.name.isidentifier() and option.name.islower()
    assert option.help and option.help == option.help.strip() and not option.help.endswith(".")
    assert len(option.summary) <= DESCRIPTION, f"{key} {option.name}: {len(option.summary)} characters"
    assert len(option.choices) <= limits.CHOICES
    assert all(len(choice.name) <= limits.CHOICE for choice in option_choices(option))
    if option.kind == "int":
        assert option.minimum is not None and option.maximum is not None
        assert option.minimum <= option.default <= option.maximum
    elif option.kind == "choice":
        assert option.default in option.values and len(set(option.values)) == len(option.values) >= 2
    elif option.kind == "seat":
        assert option.default in (None, 0) and not option.choices
    else:
        assert option.kind == "text" and (option.default is None or isinstance(option.default, str))
    assert option.flag == "--" + option.name.replace("_", "-")


@pytest.mark.parametrize("key", KEYS)
def test_every_default_given_is_the_game_without_options(key: str) -> None:
    game = GAMES[key]
    defaults = {o.name: o.default for o in game.options}
    for seats in range(game.min_players, game.max_players + 1):
        for seed in (0, 7):
            assert game.dumps(game.new(seats, seed, **defaults)) == game.dumps(game.new(seats, seed))


def wrong_values(option: Option, seats: int) -> list[Any]:
    """Values the generic check refuses for `option`, whatever the game."""
    wrong: list[Any] = [[1], 2.5, True]
    if option.default is not None:
        wrong.append(None)
    if option.kind == "int":
        assert option.minimum is not None and option.maximum is not None
        wrong += [option.minimum - 1, option.maximum + 1, "x", "", "²", "1.5", str(option.maximum + 1)]
    elif option.kind == "choice":
        wrong += ["nope", option.values[0].upper(), 0]
    elif option.kind == "seat":
        wrong += [seats, -1, "0", 1.0, False]
    else:
        wrong += [5]
    return wrong


@pytest.mark.parametrize(("key", "option"), each_option(), ids=lambda v: getattr(v, "name", v))
def test_the_generic_check_refuses_wrong_values_naming_the_option_and_what_it_allows(key: str, option: Option) -> None:
    game = GAMES[key]
    seats = game.min_players if option.kind != "seat" else 2
    for value in wrong_values(option, seats):
        with pytest.raises(BadOptions) as caught:
            game.new(seats, 0, **{option.name: value})
        assert str(caught.value) == option.refusal(seats), (option.name, value)
        assert str(caught.value).startswith(f"{option.name} must be {option.allowed(seats)}")


def test_the_refusals_read_as_before() -> None:
    geyser, horizon, fish = (GAMES[k].options for k in ("geyser", "horizon", "fish"))
    assert geyser.named("seven").refusal(2) == (
        "seven must be mother (7 fires the Mother Geyser) or calm (7 fires nothing)."
    )
    assert geyser.named("rounds").refusal(2) == (
        "rounds must be a whole number from 10 to 1000: after that many rounds the most geysers win (default 100)."
    )
    assert geyser.named("starts").refusal(2).startswith("starts must be two (a two-player game starts on f1 and f11")
    assert fish.named("first").refusal(2).startswith("first must be seat 0 or seat 1: ")
    assert horizon.named("turn_cap").refusal(2, "--turn-cap") == (
        "--turn-cap must be a whole number from 1 to 10000: turns per player before the cap's tie-break (default 200)."
    )


def test_whole_numbers_may_come_as_digits_and_come_out_as_numbers() -> None:
    assert GAMES["geyser"].new(2, 0, tokens=" 7 ", rounds="250").rounds == 250
    assert GAMES["horizon"].new(2, 0, turn_cap="9").turn_cap == 9
    tokens = GAMES["geyser"].options.named("tokens")
    assert tokens.read("7", 2) == 7 and tokens.read(7, 2) == 7
    with pytest.raises(BadOptions):
        tokens.read("9" * 5000, 2)  # more digits than int() takes: refused, never a ValueError of its own


def test_none_is_allowed_only_where_it_is_the_default() -> None:
    assert GAMES["horizon"].new(2, 0, first=None) == GAMES["horizon"].new(2, 0)
    assert GAMES["fish"].new(2, 0, board=None) == GAMES["fish"].new(2, 0)
    for key, name in [("fish", "first"), ("geyser", "rounds"), ("volcano", "opening"), ("horizon", "turn_cap")]:
        with pytest.raises(BadOptions, match=name):
            GAMES[key].new(2, 0, **{name: None})


def test_unknown_options_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(BadOptions, match=r"^Geyser has no option speed \(options: rounds, seven, starts, tokens\)\.$"):
        GAMES["geyser"].new(2, 0, speed=1)
    with pytest.raises(BadOptions, match=r"^Themiscyra has no options \(not even colour\)\.$"):
        GAMES["themiscyra"].new(2, 0, colour="red")


def test_the_deeper_checks_stay_the_engines() -> None:
    with pytest.raises(BadOptions, match="layout needs 25 colour letters"):
        GAMES["volcano"].new(2, 0, layout="RRRR")
    with pytest.raises(BadOptions, match="board needs 60 digits"):
        GAMES["fish"].new(2, 0, board="123")


def test_options_are_asked_for_by_name() -> None:
    fish_options = GAMES["fish"].options
    assert "first" in fish_options.names and "turn_cap" not in fish_options.names
    assert fish_options.named("board").kind == "text"
    with pytest.raises(KeyError):
        fish_options.named("colour")


# --- the slash commands ----------------------------------------------------------------------------------


def start_command(cog: type[GameCog]) -> app_commands.Command[Any, ..., Any]:
    commands = {c.name: c for c in cog.__cog_app_commands__ if isinstance(c, app_commands.Command)}
    return commands["new"] if "new" in commands else commands["challenge"]


@pytest.mark.parametrize("key", KEYS)
def test_every_cog_s_start_command_offers_exactly_its_game_s_options_from_the_spec(key: str) -> None:
    game: Game = GAMES[key]
    cog = COGS[key]
    command = start_command(cog)
    left_out = dict(cog.left_out)
    assert set(left_out) <= set(game.options.names) and all(left_out.values()), "left out: options, with why"
    parameters = {p.name: p for p in command.parameters}
    own = OWN_PARAMETERS[command.name]
    expected = {o.name for o in game.options.offered} - set(left_out)
    assert set(parameters) - own == expected
    assert own <= set(parameters)
    for name in expected:
        option, parameter = game.options.named(name), parameters[name]
        assert parameter.description == option.summary
        assert not parameter.required
        if option.kind == "choice":
            assert parameter.type is AppCommandOptionType.string
            assert [(c.name, c.value) for c in parameter.choices] == [(c.name, c.value) for c in option_choices(option)]
        else:
            assert not parameter.choices
        if option.kind == "int":
            assert parameter.type is AppCommandOptionType.integer
            assert (parameter.min_value, parameter.max_value) == (option.minimum, option.maximum)
        if option.kind == "text":
            assert parameter.type is AppCommandOptionType.string
            assert parameter.autocomplete == bool(option.choices)
    if "clock" in parameters:
        assert parameters["clock"].description == CLOCK_HELP


def test_the_choices_say_what_they_mean() -> None:
    seven = GAMES["geyser"].options.named("seven")
    assert [(c.name, c.value) for c in option_choices(seven)] == [
        ("mother: 7 fires the Mother Geyser", "mother"),
        ("calm: 7 fires nothing", "calm"),
    ]


# --- the terminal ----------------------------------------------------------------------------------------


def test_the_help_lists_each_game_s_options_from_its_spec() -> None:
    assert set(NEW) == set(GAMES)
    for key in KEYS:
        for option in GAMES[key].options.offered:
            assert option.flag in i18n.unmarked(full_help()) and option.flag in new_flags(key)
            assert option.help in game_help(key)
    assert "--starts" not in i18n.unmarked(full_help()) and "--starts" not in game_help("geyser")
    line = next(line for line in i18n.unmarked(full_help()).split("\n") if line.startswith("  geyser new"))
    assert line == (
        "  geyser new ALICE BOB [CAROL DAN] [--clock 30/60] [--seven calm] [--tokens 12] [--rounds 100] [--seed N]"
        "   2 to 4 players"
    )
    said = i18n.unmarked(full_help())
    assert "  horizon new ALICE BOB [--clock 30/60] [--first NAME] [--turn-cap 200] [--seed N]" in said
    assert "      LAYOUT: nest colours: latin (random), classic" in i18n.unmarked(full_help())


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def test_the_terminal_takes_each_option_as_a_flag_and_refuses_naming_what_is_allowed(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    await run(terminal, out, "horizon new alice bob --turn-cap 5 --first bob --seed 3")
    assert (await service.get(1)).options == {"turn_cap": 5, "first": 1}
    await run(terminal, out, "geyser new alice bob --tokens 7 --seven calm")
    assert (await service.get(2)).options == {"tokens": 7, "seven": "calm"}  # a number, not its digits
    cases = {
        "geyser new alice bob --tokens 41": "✗ --tokens must be a whole number from 1 to 40: tokens each player has,"
        " the starting one included (default 12).",
        "geyser new alice bob --seven loud": "✗ --seven must be mother (7 fires the Mother Geyser) or calm (7 fires"
        " nothing).",
        "geyser new alice bob --starts four": "✗ Unknown option --starts for geyser new (it takes --clock, --seven,"
        " --tokens, --rounds, --seed).",
        "themiscyra new alice bob --seed 3": "✗ Unknown option --seed for themiscyra new (it takes --clock).",
        "horizon new alice bob --first carol": "✗ --first must be one of the players (alice, bob), not 'carol'.",
        "help chess": "✗ help takes a game (fish, volcano, themiscyra, geyser or horizon), not 'chess'.",
    }
    for line, answer in cases.items():
        assert await run(terminal, out, line) == answer, line
    assert [m.id for m in service.running()] == [1, 2]
    assert (await run(terminal, out, "help volcano")).startswith(
        "volcano new ALICE [BOB ...] [--clock 30/60] [--opening OPENING]"
    )


# --- one clock parser ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        (None, None),
        ("", None),
        ("none", None),
        (" Off ", None),
        ("no", None),
        ("30/60", ClockSettings(30, 60)),
        ("30", ClockSettings(30, 0)),
        (" 30 / 60 ", ClockSettings(30, 60)),
        ("7.5/0", ClockSettings(7.5, 0)),
        ("86400/86400", ClockSettings(86_400, 86_400)),
        ("1/0", ClockSettings(1, 0)),
        ("1d/7d", ClockSettings(86_400, 7 * 86_400)),  # the rest of the notation: tests/test_time_controls.py
    ],
)
def test_the_clock_parser_reads_what_both_front_ends_took(text: str | None, clock: ClockSettings | None) -> None:
    assert parse_clock(text) == clock
    assert slash_clock(text) == clock


RANGE = "The move clock must be at least 1 second and at most 14 days."
RESERVE = "The reserve must be at most 30 days, and not negative."
LIKE = "must be a time like 30s, 10m, 2h, 1d or 1h30m (a bare number is seconds), not"
HOW = ": write the clock as move/reserve, like 30/60, 10m or 1d/7d."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x/60", f"The move clock {LIKE} 'x'{HOW}"),
        ("30/y", f"The reserve {LIKE} 'y'{HOW}"),
        ("30/60/90", f"The reserve {LIKE} '60/90'{HOW}"),
        ("/60", f"The move clock {LIKE} ''{HOW}"),
        ("0x1e/0", f"The move clock {LIKE} '0x1e'{HOW}"),
        ("x" * 50, f"The move clock {LIKE} {'x' * 40!r}…{HOW}"),
        ("0/60", RANGE),
        ("30/-1", f"The reserve {LIKE} '-1'{HOW}"),  # no sign: a negative time is not a time
        ("1209601/0", RANGE),
        ("30/2592001", RESERVE),
        ("nan/nan", f"The move clock {LIKE} 'nan'{HOW}"),
        ("1e400/1", f"The move clock {LIKE} '1e400'{HOW}"),
        ("9" * 400, RANGE),  # a number too large for a float is infinite: out of range
    ],
)
def test_each_clock_refusal(text: str, message: str) -> None:
    with pytest.raises(ClockError) as caught:
        parse_clock(text)
    assert str(caught.value) == message
    with pytest.raises(Refusal) as refused:  # the slash commands' refusal is the parser's
        slash_clock(text)
    assert str(refused.value) == message


async def test_the_terminal_s_clock_is_the_same_parser(terminal: Terminal, out: list[str]) -> None:
    assert await run(terminal, out, "fish new alice bob --clock x/60") == f"✗ The move clock {LIKE} 'x'{HOW}"
    assert await run(terminal, out, "themiscyra new alice bob --clock 0/60") == f"✗ {RANGE}"
    assert await run(terminal, out, "fish dm alice bob --first alice --move 0") == f"✗ {RANGE}"
    assert await run(terminal, out, "fish dm alice bob --first alice --reserve soon") == (
        f"✗ The reserve {LIKE} 'soon'{HOW}"
    )
    await run(terminal, out, "fish new alice bob --clock 10/5 --seed 5")
    match = await terminal.service.get(terminal.current or 0)
    assert match.clock is not None and match.clock.settings == ClockSettings(10, 5)
