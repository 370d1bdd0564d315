"""Time controls for play by post (issue #19): the one clock notation `MOVE[/RESERVE]` with units s, m, h
and d, read alike by the slash commands and the terminal; its caps (14 days a move, 30 days of reserve);
day-long clocks charged and flagged exactly (FakeTime); deadlines shown as Discord timestamps, dated for
long clocks; and clocks for the lobby games (/volcano new, /geyser new, the terminal's --clock)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
from discord import app_commands

from bot import posts
from bot.clock import (
    CLOCK_HELP,
    DAY,
    LAG_GRACE,
    MOVE_SECONDS,
    RESERVE_SECONDS,
    ClockError,
    ClockSettings,
    FakeTime,
    format_short,
    in_words,
    parse_clock,
    parse_seconds,
)
from bot.cogs.base import Refusal
from bot.cogs.base import parse_clock as slash_clock
from bot.cogs.challenge import CHALLENGE, AcceptChallengeButton
from bot.cogs.fish import FishCog
from bot.cogs.geyser import GeyserCog
from bot.cogs.options import DESCRIPTION
from bot.cogs.volcano import VolcanoCog
from bot.discord_app import GameBot
from bot.games import GAMES, Termination
from bot.local import Terminal
from bot.models import OVER, Player
from bot.service import MatchService
from renderers import SeatClock
from tests.conftest import ALICE, BOB, Recorder, eventually
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, custom_ids

HOUR = 3600
CAROL = Player("local:carol", "carol")
FISH = GAMES["fish"]

# --- the notation -------------------------------------------------------------------------------------

ACCEPTED = [
    # the old forms keep working: bare numbers are seconds, a lone move has no reserve
    ("30/60", 30, 60),
    ("30", 30, 0),
    ("30/", 30, 0),
    (" 30 / ", 30, 0),
    ("7.5/0", 7.5, 0),
    (" 30 / 60 ", 30, 60),
    ("1/0", 1, 0),
    # units
    ("30s/60s", 30, 60),
    ("30s", 30, 0),
    ("10m", 600, 0),
    ("2h", 7200, 0),
    ("1d/7d", DAY, 7 * DAY),
    ("1d/3d", DAY, 3 * DAY),
    ("90m/1h", 5400, HOUR),
    ("1.5h", 5400, 0),
    ("0.5m/30", 30, 30),
    ("10m/0s", 600, 0),
    # several units, largest first, each once; spaces and case do not count
    ("1h30m", 5400, 0),
    ("1h 30m", 5400, 0),
    ("1 h 30 m", 5400, 0),
    ("1d12h", 36 * HOUR, 0),
    ("1d 2h 3m 4s/1m1s", DAY + 2 * HOUR + 3 * 60 + 4, 61),
    ("1d30s", DAY + 30, 0),
    ("1D/7D", DAY, 7 * DAY),
    ("30S/1M", 30, 60),
    ("\t2H / 1D\n", 2 * HOUR, DAY),
    # the caps themselves
    ("14d", 14 * DAY, 0),
    ("14d/30d", 14 * DAY, 30 * DAY),
    ("1209600/2592000", 14 * DAY, 30 * DAY),
    ("336h/720h", 14 * DAY, 30 * DAY),
    ("13d23h59m59s/29d23h59m59s", 14 * DAY - 1, 30 * DAY - 1),
    ("1s/0", 1, 0),
]
NO_CLOCK = [None, "", "  ", "none", "NONE", " Off ", "no"]

LIKE = "must be a time like 30s, 10m, 2h, 1d or 1h30m (a bare number is seconds), not"
HOW = ": write the clock as move/reserve, like 30/60, 10m or 1d/7d."
MOVE_RANGE = "The move clock must be at least 1 second and at most 14 days."
RESERVE_RANGE = "The reserve must be at most 30 days, and not negative."


def bad_move(shown: str) -> str:
    return f"The move clock {LIKE} {shown}{HOW}"


def bad_reserve(shown: str) -> str:
    return f"The reserve {LIKE} {shown}{HOW}"


REFUSED = [
    # not a time
    ("x", bad_move("'x'")),
    ("x/60", bad_move("'x'")),
    ("30/y", bad_reserve("'y'")),
    ("/60", bad_move("''")),
    ("30/ x ", bad_reserve("' x'")),  # the whole text is stripped, then each part
    ("30/60/90", bad_reserve("'60/90'")),
    ("30//60", bad_reserve("'/60'")),
    ("h", bad_move("'h'")),
    ("1w", bad_move("'1w'")),
    ("1day", bad_move("'1day'")),
    ("10min", bad_move("'10min'")),
    ("1h1h", bad_move("'1h1h'")),  # a unit twice
    ("30m1h", bad_move("'30m1h'")),  # smaller before larger
    ("1 0s", bad_move("'1 0s'")),  # a space inside a number
    ("1e3", bad_move("'1e3'")),
    ("1_000", bad_move("'1_000'")),
    ("0x1e/0", bad_move("'0x1e'")),
    (".5", bad_move("'.5'")),
    ("5.", bad_move("'5.'")),
    ("1.5.5", bad_move("'1.5.5'")),
    ("-5", bad_move("'-5'")),
    ("+5", bad_move("'+5'")),
    ("30/-1", bad_reserve("'-1'")),
    ("nan", bad_move("'nan'")),
    ("inf/0", bad_move("'inf'")),
    ("٣٠", bad_move("'٣٠'")),  # only ASCII digits
    ("30s 60s", bad_move("'30s 60s'")),
    ("x" * 50, bad_move(f"{'x' * 40!r}…")),
    # out of range
    ("0", MOVE_RANGE),
    ("0s", MOVE_RANGE),
    ("0/60", MOVE_RANGE),
    ("0.5", MOVE_RANGE),
    ("0d0h0m0s", MOVE_RANGE),
    ("14d1s", MOVE_RANGE),
    ("14d 0h 0m 1s/0", MOVE_RANGE),
    ("1209601", MOVE_RANGE),
    ("336h1s", MOVE_RANGE),
    ("15d", MOVE_RANGE),
    ("9" * 400, MOVE_RANGE),  # too large for a float: infinite, so out of range
    ("1d/30d1s", RESERVE_RANGE),
    ("1d/2592001", RESERVE_RANGE),
    ("1d/31d", RESERVE_RANGE),
    ("1d/721h", RESERVE_RANGE),
]


@pytest.mark.parametrize(("text", "move", "reserve"), ACCEPTED)
def test_every_form_reads_the_same_in_both_front_ends(text: str, move: float, reserve: float) -> None:
    assert parse_clock(text) == ClockSettings(move, reserve)
    assert slash_clock(text) == ClockSettings(move, reserve)  # what /fish challenge, /volcano new... call


@pytest.mark.parametrize("text", NO_CLOCK)
def test_no_clock(text: str | None) -> None:
    assert parse_clock(text) is None and slash_clock(text) is None


@pytest.mark.parametrize(("text", "message"), REFUSED)
def test_every_refusal_says_why_in_both_front_ends(text: str, message: str) -> None:
    with pytest.raises(ClockError) as caught:
        parse_clock(text)
    assert str(caught.value) == message
    with pytest.raises(Refusal) as refused:
        slash_clock(text)
    assert str(refused.value) == message


async def test_the_terminal_reads_every_form_and_refuses_every_wrong_one(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    for number, (text, move, reserve) in enumerate(ACCEPTED, start=1):
        before = len(out)
        assert await terminal.handle(f"volcano new alice --clock {quoted(text)}")
        assert not any(line.startswith("✗") for line in out[before:]), (text, out[before:])
        match = await service.get(number)
        assert match.clock is not None and match.clock.settings == ClockSettings(move, reserve), text
        assert match.clock.reserves == (reserve,)  # solitaire: one seat
    started = len(ACCEPTED)
    for text, message in REFUSED:
        before = len(out)
        assert await terminal.handle(f"geyser new alice bob --clock {quoted(text)}")
        assert out[before:] == [f"✗ {message}"], text
    for text in ("none", "off", "''"):
        assert await terminal.handle(f"horizon new alice bob --clock {text}")
        started += 1
        assert (await service.get(started)).clock is None
    assert len(service.running()) == started  # no refused line started anything


def quoted(text: str) -> str:
    """`text` as one shell word (the terminal splits its line with shlex)."""
    return "'" + text.replace("'", "'\\''") + "'"


def test_the_caps_are_14_days_a_move_and_30_days_of_reserve_exactly() -> None:
    assert MOVE_SECONDS == (1, 14 * DAY) and RESERVE_SECONDS == (0, 30 * DAY)
    assert parse_clock("14d/30d") == ClockSettings(14 * DAY, 30 * DAY)
    for refused in (f"{14 * DAY + 1}", "14d1s", "1/30d1s", f"1/{30 * DAY + 1}"):
        with pytest.raises(ClockError, match=r"at most (14|30) days"):
            parse_clock(refused)
    assert parse_seconds("1s", "the move clock") == 1.0 and parse_clock("1s") == ClockSettings(1, 0)
    with pytest.raises(ClockError, match="at least 1 second"):
        parse_clock("0.999")


def test_parse_seconds_adds_up_each_unit() -> None:
    assert parse_seconds("1d", "x") == 86_400
    assert parse_seconds("1h", "x") == 3_600
    assert parse_seconds("1m", "x") == 60
    assert parse_seconds("1s", "x") == 1
    assert parse_seconds("2d3h4m5s", "x") == 2 * 86_400 + 3 * 3_600 + 4 * 60 + 5
    assert parse_seconds("0.25d", "x") == 6 * 3_600
    assert parse_seconds("007", "x") == 7
    assert isinstance(parse_seconds("30", "x"), float) and isinstance(parse_seconds("30s", "x"), float)
    with pytest.raises(ClockError) as caught:
        parse_seconds("soon", "the reserve")
    assert str(caught.value) == bad_reserve("'soon'")  # `what` names the clock, with a capital
    with pytest.raises(ClockError) as caught:
        parse_seconds("x" * 41, "the move clock")
    assert str(caught.value) == bad_move(f"{'x' * 40!r}…")  # 41 characters are cut to 40
    with pytest.raises(ClockError) as caught:
        parse_seconds("x" * 40, "the move clock")
    assert str(caught.value) == bad_move(repr("x" * 40))  # 40 are shown whole


def test_the_limits_are_written_in_words() -> None:
    assert [in_words(s) for s in (1, 2, 59, 60, 61, 120, 3600, 7200, 86_400, 14 * DAY, 30 * DAY, 90_000)] == [
        "1 second",
        "2 seconds",
        "59 seconds",
        "1 minute",
        "61 seconds",
        "2 minutes",
        "1 hour",
        "2 hours",
        "1 day",
        "14 days",
        "30 days",
        "25 hours",
    ]


def test_the_clock_parameters_say_the_units_within_discord_s_limit() -> None:
    assert len(CLOCK_HELP) <= DESCRIPTION
    assert all(unit in CLOCK_HELP for unit in ("s, m, h or d", "30s/60s", "1d/7d", "bare number is seconds"))
    for cog in (VolcanoCog, GeyserCog):
        new = next(c for c in cog.__cog_app_commands__ if c.name == "new")
        assert isinstance(new, app_commands.Command)
        parameter = next(p for p in new.parameters if p.name == "clock")
        assert parameter.description == CLOCK_HELP and not parameter.required


def test_the_death_match_keeps_its_seconds_and_defaults_with_the_new_caps() -> None:
    dm = next(c for c in FishCog.__cog_app_commands__ if c.name == "dm")
    assert isinstance(dm, app_commands.Command)
    parameters = {p.name: p for p in dm.parameters}
    move, reserve = parameters["move_seconds"], parameters["reserve_seconds"]
    assert (move.min_value, move.max_value, move.default) == (1, 14 * DAY, 30)
    assert (reserve.min_value, reserve.max_value, reserve.default) == (0, 30 * DAY, 60)


def test_the_challenge_button_names_only_the_stored_challenge() -> None:
    biggest = 2**63 - 1  # the largest id either database keeps
    button = AcceptChallengeButton(biggest)
    custom_id = button.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    found = re.fullmatch(CHALLENGE, custom_id)
    assert found is not None and found.groupdict() == {"id": str(biggest)}  # no game, player or clock in it


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (30, "0:30"),
        (86_399, "23:59:59"),  # under a day as format_seconds
        (86_399.5, "1d"),
        (86_400, "1d"),
        (86_400.5, "1d 1h"),  # rounded up to the hour
        (86_400 + 3600, "1d 1h"),
        (6 * DAY + 18 * HOUR, "6d 18h"),
        (7 * DAY - 59, "7d"),
        (14 * DAY - 1, "14d"),
        (30 * DAY, "30d"),
    ],
)
def test_the_board_pictures_write_long_times_short(seconds: float, shown: str) -> None:
    assert format_short(seconds) == shown


def test_a_seat_s_clock_on_the_board_reads_in_days() -> None:
    assert SeatClock(DAY, 6 * DAY + 18 * HOUR, True).words == "move 1d · reserve 6d 18h"
    assert SeatClock(30, 60, True).words == "move 0:30 · reserve 1:00"


# --- a day-long clock, end to end with the fake clock ---------------------------------------------------


async def test_a_day_long_clock_charges_reserve_only_past_the_day_and_flags_after_8_days(
    terminal: Terminal, out: list[str], service: MatchService, fake_time: FakeTime
) -> None:
    await terminal.handle("fish new alice bob --clock 1d/7d --seed 5")
    match = await service.get(1)
    assert match.clock is not None and match.clock.settings == ClockSettings(DAY, 7 * DAY)
    text = "\n".join(out)
    assert "Clock: 1 d a move + 7 d reserve per player." in text
    assert "alice to move — 1 d a move + 7 d reserve." in text  # the terminal says it in words

    fake_time.advance(20 * HOUR)  # within the day: no reserve spent
    await terminal.handle(f"fish move {FISH.legal_moves(match.state)[0]}")
    assert match.clock.reserves == (7 * DAY, 7 * DAY)
    assert "bob to move — 1 d a move + 7 d reserve." in out[-1]

    fake_time.advance(30 * HOUR)  # 6 h past the day: 6 h of reserve
    await terminal.handle(f"fish move {FISH.legal_moves(match.state)[0]}")
    assert match.clock.reserves == (7 * DAY, 7 * DAY - 6 * HOUR)
    assert [r.took for r in await service.moves(1)] == [20 * HOUR, 30 * HOUR]
    await terminal.handle(f"fish move {FISH.legal_moves(match.state)[0]}")  # alice, at once
    assert "bob to move — 1 d a move + 6 d 18 h reserve." in out[-1]
    assert [line for line in out if line.startswith("✗")] == []  # every move was taken

    # bob, with 6 d 18 h of reserve, is to move: his flag falls 1 d + 6 d 18 h + LAG_GRACE after the post
    deadline = match.clock.deadline()
    assert deadline == fake_time.now() + DAY + 7 * DAY - 6 * HOUR
    fake_time.advance(DAY + 7 * DAY - 6 * HOUR + LAG_GRACE)  # exactly the flag time: not yet
    await settle()
    assert match.running
    fake_time.advance(0.01)
    await eventually(lambda: match.status == OVER)
    assert match.result is not None and match.result.termination is Termination.FLAG
    assert match.result.winners == {0}
    await eventually(lambda: any("bob's reserve time ran out" in line for line in out))


async def settle() -> None:
    """Let the flag scheduler's tasks run (in real time; the fake clock does not move)."""
    await asyncio.sleep(0.05)


async def test_a_day_long_clock_flags_after_8_days_and_the_grace(service: MatchService, fake_time: FakeTime) -> None:
    recorder = Recorder(service)
    match = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(DAY, 7 * DAY))
    posted = fake_time.now()
    assert match.clock is not None and match.clock.flag_time() == posted + 8 * DAY + LAG_GRACE
    fake_time.advance(8 * DAY)
    await settle()
    assert match.running
    fake_time.advance(LAG_GRACE)  # the flag falls only after the grace
    assert match.running and not match.clock.flagged(fake_time.now())
    fake_time.advance(0.01)
    await eventually(lambda: "over" in recorder.kinds())
    assert match.result is not None and match.result.winners == {1}
    assert posts.result_line(match) == "Game over: bob wins (alice's reserve time ran out)."


# --- deadlines ----------------------------------------------------------------------------------------


async def test_a_long_clock_s_deadlines_are_dated_and_a_short_one_s_are_not(
    service: MatchService, fake_time: FakeTime
) -> None:
    Recorder(service)
    now = int(fake_time.now())
    long = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(DAY, 7 * DAY))
    (line,) = posts.status_lines(service, long, deadline=True, now=now)[-1:]
    move_by, out_at = now + DAY, now + 8 * DAY
    assert line == (
        f"alice to move — 1 d a move + 7 d reserve: move by <t:{move_by}:R> (<t:{move_by}:f>),"
        f" out of time <t:{out_at}:R> (<t:{out_at}:f>)."
    )
    short = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(30, 60))
    assert posts.status_lines(service, short, deadline=True, now=now)[-1] == (
        f"alice to move — 0:30 a move + 1:00 reserve: move by <t:{now + 30}:R>, out of time <t:{now + 90}:R>."
    )
    assert posts.status_lines(service, long, now=now)[-1] == "alice to move — 1 d a move + 7 d reserve."
    # an hour a move is long (bot.reminders.is_long); a second less is not
    hour = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(HOUR, 0))
    assert posts.status_lines(service, hour, deadline=True, now=now)[-1] == (
        f"alice to move — 1:00:00 a move + 0:00 reserve: move by <t:{now + HOUR}:R> (<t:{now + HOUR}:f>),"
        f" out of time <t:{now + HOUR}:R> (<t:{now + HOUR}:f>)."
    )
    under = await service.create_match("toy", [ALICE, BOB], clock=ClockSettings(HOUR - 1, 0))
    assert ":f>" not in posts.status_lines(service, under, deadline=True, now=now)[-1]
    before = int(time.time())  # without `now`, the wall clock (the board is about to be posted)
    stamps = [int(s) for s in re.findall(r"<t:(\d+):R>", posts.status_lines(service, short, deadline=True)[-1])]
    assert before + 30 <= stamps[0] <= int(time.time()) + 30 and stamps[1] == stamps[0] + 60


# --- lobbies with a clock -------------------------------------------------------------------------------


async def test_a_lobby_s_clock_is_every_seat_s_and_its_post_says_it(service: MatchService) -> None:
    Recorder(service)
    lobby = await service.lobbies.open_lobby("geyser", ALICE, clock=ClockSettings(DAY, 3 * DAY))
    assert "Clock: 1 d a move + 3 d reserve per player." in posts.lobby_lines(service, lobby, "/geyser")
    stored = await service.lobbies.get_lobby(lobby.id)
    assert stored.clock == ClockSettings(DAY, 3 * DAY)  # the lobby table keeps it
    untimed = await service.lobbies.open_lobby("geyser", BOB)
    assert not any(line.startswith("Clock") for line in posts.lobby_lines(service, untimed, "/geyser"))
    await service.lobbies.join_lobby(lobby.id, BOB)
    await service.lobbies.join_lobby(lobby.id, CAROL)
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    assert match.clock is not None and match.clock.reserves == (3 * DAY,) * 3


async def test_a_flag_in_a_geyser_lobby_of_three_ends_the_game_as_geyser_s_rules_say(
    service: MatchService, fake_time: FakeTime
) -> None:
    """Geyser's seats cannot leave (docs/rules/geyser.md: a player who runs out of time ends the game and
    the others share the win); Volcano's can, below."""
    recorder = Recorder(service)
    lobby = await service.lobbies.open_lobby("geyser", ALICE, clock=ClockSettings(DAY, 3 * DAY))
    await service.lobbies.join_lobby(lobby.id, BOB)
    await service.lobbies.join_lobby(lobby.id, CAROL)
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    seat = GAMES["geyser"].to_move(match.state)
    fake_time.advance(4 * DAY + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    assert match.result is not None and match.result.termination is Termination.FLAG
    assert match.result.winners == frozenset({0, 1, 2} - {seat})


async def test_a_flag_in_a_volcano_lobby_of_three_puts_only_that_seat_out(
    service: MatchService, fake_time: FakeTime
) -> None:
    recorder = Recorder(service)
    lobby = await service.lobbies.open_lobby("volcano", ALICE, clock=ClockSettings(DAY, 3 * DAY))
    await service.lobbies.join_lobby(lobby.id, BOB)
    await service.lobbies.join_lobby(lobby.id, CAROL)
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    fake_time.advance(4 * DAY + LAG_GRACE + 0.5)
    await eventually(lambda: "moved" in recorder.kinds())
    assert recorder.notices[-1].lines == ("alice's reserve time ran out: they are out of the game.",)
    assert match.running and match.state.resigned == {0} and match.clock is not None
    assert match.clock.seat == 1 and match.clock.reserves == (0.0, 3 * DAY, 3 * DAY)
    fake_time.advance(20 * HOUR)  # bob plays on, within his day
    await service.move(match.id, BOB.id, GAMES["volcano"].legal_moves(match.state)[0])
    assert match.running and match.clock.reserves == (0.0, 3 * DAY, 3 * DAY)


async def test_solitaire_volcano_with_a_clock_has_one_seat_and_can_flag(
    service: MatchService, fake_time: FakeTime
) -> None:
    recorder = Recorder(service)
    lobby = await service.lobbies.open_lobby("volcano", ALICE, clock=ClockSettings(HOUR, 0))
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    assert match.clock is not None and match.clock.reserves == (0.0,) and match.clock.seat == 0
    fake_time.advance(HOUR + LAG_GRACE + 0.5)
    await eventually(lambda: "over" in recorder.kinds())
    assert match.result is not None and match.result.termination is Termination.FLAG
    assert match.result.winners == frozenset()


# --- through the fake Discord ---------------------------------------------------------------------------


async def test_volcano_new_with_a_day_clock_starts_and_its_board_shows_the_deadline(
    fake: DiscordFake, bot: GameBot
) -> None:
    opened = await fake.slash("alice", "volcano new", {"clock": "1d/3d"}, channel="games")
    assert not opened.ephemeral and opened.message is not None
    assert "Clock: 1 d a move + 3 d reserve per player." in opened.message.content
    await fake.slash("bob", "volcano join", channel="games")
    before = int(time.time())
    started = await fake.slash("alice", "volcano start", channel="games")
    assert "is on" in (started.content or "")
    thread = fake.threads[-1]
    (board,) = boards(fake, thread)
    assert "Clock: 1 d a move + 3 d reserve per player." in board.content
    assert f"<@{fake.user('alice')['id']}> to move — 1 d a move + 3 d reserve: move by <t:" in board.content
    stamps = re.findall(r"<t:(\d+):([Rf])>", board.content)
    assert [kind for _, kind in stamps] == ["R", "f", "R", "f"]
    move_by, _, out_at, _ = (int(at) for at, _ in stamps)
    assert before + DAY <= move_by <= int(time.time()) + DAY and out_at == move_by + 3 * DAY
    match = await bot.matches.get(1)
    assert match.clock is not None and match.clock.settings == ClockSettings(DAY, 3 * DAY)
    assert fake.rejected == []


async def test_geyser_new_takes_a_clock_and_a_wrong_clock_is_refused_privately(fake: DiscordFake, bot: GameBot) -> None:
    opened = await fake.slash("alice", "geyser new", {"clock": "12h/2d", "tokens": 7}, channel="games")
    assert opened.message is not None and "Clock: 12:00:00 a move + 2 d reserve per player." in opened.message.content
    lobby = await bot.matches.lobbies.get_lobby(1)
    assert lobby.clock == ClockSettings(12 * HOUR, 2 * DAY) and lobby.options == {"tokens": 7}
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("bob", {"clock": "15d"}, MOVE_RANGE),
        ("bob", {"clock": "1d/31d"}, RESERVE_RANGE),
        ("carol", {"clock": "soon"}, bad_move("'soon'")),
    ]
    for user, options, message in cases:
        for command in ("geyser new", "volcano new"):
            refused = await fake.slash(user, command, options, channel="games")
            assert refused.ephemeral and refused.content == message, (command, options)
    assert [lobby.id for lobby in await bot.matches.lobbies.open_lobbies(fake.guild.id)] == [1]
    assert fake.rejected == []


async def test_a_14_day_30_day_challenge_is_kept_with_the_challenge(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob", "clock": "14d/30d"}, channel="games")
    assert asked.message is not None and "with 14 d a move + 30 d reserve" in asked.message.content
    (custom_id,) = custom_ids(asked.message)
    assert custom_id == f"challenge:{asked.interaction['id']}"  # the stored challenge's id, and nothing else
    await fake.click("bob", asked.message, label="Accept")
    match = await bot.matches.get(1)
    assert match.clock is not None and match.clock.settings == ClockSettings(14 * DAY, 30 * DAY)
    assert fake.rejected == []
