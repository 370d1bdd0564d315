"""Server settings in the service (bot/service/settings.py): the defaults (the environment's where there is one),
set and reset with who and when, bad values refused in exact words with nothing stored, each server on its own,
kept across a restart, and every setting changing what it says it changes: limits, ratings, the default clock,
the house-wins wording, reminders, away time, claims, the moderator role and the match channel. The terminal's
`settings` commands too; docs/settings.md and the README name every setting."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import posts
from bot.clock import ClockSettings, FakeTime
from bot.local import Terminal
from bot.models import Place, Player, UserLimits, computer
from bot.service import SETTINGS, BadSetting, LimitReached, MatchService, ServerDefaults, ServiceError
from bot.store import Store
from tests.conftest import ALICE, BOB, TEST_GAMES, Recorder, eventually

ROOT = Path(__file__).resolve().parent.parent
G1, G2 = 1001, 2002
MOD = Player("discord:7", "Mo")
DAY, HOUR = 86_400, 3_600
KEYS = [
    "mod_role",
    "match_channel",
    "house_wins",
    "rated",
    "default_clock",
    "reminder_every",
    "reminder_count",
    "away_days",
    "claim_after",
    "limit_lobbies",
    "limit_challenges",
    "limit_computer_games",
    "language",
]


def here(guild: int = G1, channel: int = 10) -> Place:
    return Place(guild, channel)


async def stored(service: MatchService) -> list[tuple[int, str, str | None, str | None, float]]:
    return await service.store.load_settings()


# --- defaults, set and reset ---


async def test_every_setting_starts_at_its_default_from_the_environment(db_path: Path, fake_time: FakeTime) -> None:
    store = await Store.open(db_path, TEST_GAMES)
    defaults = ServerDefaults(mod_role="Referees", house_wins=False, limits=UserLimits(2, 4, 1))
    service = MatchService(store, fake_time, defaults=defaults)
    try:
        await service.start()
        states = service.settings.states(G1)
        assert [s.setting.key for s in states] == KEYS == list(SETTINGS)
        assert all(s.default and s.set_by is None for s in states)
        values = {s.setting.key: s.value for s in states}
        assert values == {
            "mod_role": "Referees",
            "match_channel": None,
            "house_wins": False,
            "rated": True,
            "default_clock": None,
            "reminder_every": DAY,
            "reminder_count": 3,
            "away_days": 14,
            "claim_after": 7 * DAY,
            "limit_lobbies": 2,
            "limit_challenges": 4,
            "limit_computer_games": 1,
            "language": None,
        }
        shown = {s.setting.key: s.shown for s in states}
        assert shown["mod_role"] == "the role named 'Referees' (MOD_ROLE)"
        assert shown["match_channel"] == "the channel where each match is started"
        assert shown["default_clock"] == "none (untimed)" and shown["reminder_every"] == "1 day"
        assert service.settings.defaults.limits == UserLimits(2, 4, 1) and service.settings.limits(G1) == UserLimits(
            2, 4, 1
        )
        offline = [s.setting.key for s in service.settings.states(None)]  # no roles, channels or limits offline
        assert offline == ["house_wins", "rated", "default_clock", "reminder_every", "reminder_count", "away_days",
                           "claim_after"]  # fmt: skip
    finally:
        await service.close()
        await store.close()


async def test_a_setting_is_set_and_reset_with_who_and_when(
    service: MatchService, fake_time: FakeTime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="bot.service.settings")
    change = await service.settings.set(G1, "rated", "off", MOD)
    assert (
        change.line
        == "Set rated to off: games here are unrated, finished games change no ratings (was on, the default)."
    )
    state = service.settings.state(G1, "rated")
    assert state.value is False and not state.default and (state.set_by, state.set_at) == (MOD.id, fake_time.now())
    assert "server 1001: Mo (discord:7) set rated to off (was on)" in caplog.text
    assert await stored(service) == [(G1, "rated", "off", MOD.id, fake_time.now())]

    fake_time.advance(60)
    again = await service.settings.set(G1, "default_clock", " 1D / 7d ", MOD)
    assert again.line == "Set default_clock to 1 d a move + 7 d reserve (was none (untimed), the default)."
    assert service.settings.default_clock(G1) == ClockSettings(DAY, 7 * DAY)

    fake_time.advance(60)
    back = await service.settings.reset(G1, "RATED", Player("discord:8", "Ann"))
    assert (
        back.line
        == "Reset rated to its default, on (was off: games here are unrated, finished games change no ratings)."
    )
    state = service.settings.state(G1, "rated")
    assert state.value is True and state.default and state.set_by == "discord:8"  # who reset it is kept
    assert (G1, "rated", None, "discord:8", fake_time.now()) in await stored(service)
    assert "server 1001: Ann (discord:8) reset rated to on (was off)" in caplog.text
    line = state.line("Ann", "now")
    assert line == "rated (finished games change the players' ratings): on — the default"
    assert service.settings.state(G1, "default_clock").line("Mo", "today") == (
        "default_clock (the clock of a casual match started without clock:): 1 d a move + 7 d reserve — set by Mo today"
    )


@pytest.mark.parametrize(
    ("key", "value", "refusal"),
    [
        ("limit_lobbies", "0", "limit_lobbies takes a whole number from 1 to 1,000, not '0'; nothing changed."),
        ("limit_lobbies", "1001", "limit_lobbies takes a whole number from 1 to 1,000, not '1001'; nothing changed."),
        ("away_days", "²", "away_days takes a whole number from 0 to 366, not '²'; nothing changed."),
        ("reminder_count", "-1", "reminder_count takes a whole number from 0 to 10, not '-1'; nothing changed."),
        ("rated", "maybe", "rated takes on or off, not 'maybe'; nothing changed."),
        (
            "claim_after",
            "30m",
            "claim_after takes a time from 1 hour to 365 days, like 3d, 7d, 14d, not '30m'; nothing changed.",
        ),
        (
            "reminder_every",
            "soon",
            "reminder_every takes a time from 1 hour to 14 days, like 12h, 1d, 3d, not 'soon'; nothing changed.",
        ),
        (
            "default_clock",
            "15d",
            "default_clock: The move clock must be at least 1 second and at most 14 days. Or none, for no clock;"
            " nothing changed.",
        ),
        (
            "mod_role",
            "Game Master",
            "mod_role takes a role (mention it or give its id), or none for Manage Server only, not 'Game Master';"
            " nothing changed.",
        ),
        (
            "match_channel",
            "<#abc>",
            "match_channel takes a text channel (mention it or give its id), or here for the channel where each match"
            " is started, not '<#abc>'; nothing changed.",
        ),
        (
            "colour",
            "red",
            "There is no setting 'colour': the settings are mod_role, match_channel, house_wins, rated, default_clock,"
            " reminder_every, reminder_count, away_days, claim_after, limit_lobbies, limit_challenges,"
            " limit_computer_games, language.",
        ),
    ],
)
async def test_a_bad_value_is_refused_in_words_and_nothing_is_stored(
    service: MatchService, key: str, value: str, refusal: str
) -> None:
    with pytest.raises(BadSetting) as refused:
        await service.settings.set(G1, key, value, MOD)
    assert str(refused.value) == refusal
    assert isinstance(refused.value, ServiceError)  # so every front-end answers it as a refusal
    assert await stored(service) == [] and all(s.default for s in service.settings.states(G1))


async def test_offline_the_discord_only_settings_are_refused(service: MatchService) -> None:
    for key, why in (
        ("mod_role", "offline there are no roles (whoever types at the terminal is its moderator)"),
        ("match_channel", "offline there are no channels"),
        ("limit_lobbies", "offline nothing is limited"),
    ):
        with pytest.raises(BadSetting) as refused:
            await service.settings.set(None, key, "1", MOD)
        assert str(refused.value) == (
            f"{key} is a Discord server's setting: {why}. The terminal's are house_wins, rated, default_clock,"
            " reminder_every, reminder_count, away_days, claim_after."
        )
    assert await stored(service) == []


async def test_each_server_has_its_own_settings(service: MatchService) -> None:
    await service.settings.set(G1, "away_days", "3", MOD)
    await service.settings.set(None, "away_days", "20", MOD)
    assert (service.settings.away_days(G1), service.settings.away_days(G2)) == (3, 14)
    assert service.settings.away_days(None) == 20
    assert not service.settings.state(G1, "away_days").default and service.settings.state(G2, "away_days").default
    await service.settings.reset(G1, "away_days", MOD)
    assert service.settings.away_days(G1) == 14 and service.settings.away_days(None) == 20


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_settings_survive_a_restart_on_the_same_file(
    open_service: Callable[[], Awaitable[MatchService]], fake_time: FakeTime
) -> None:
    first = await open_service()
    await first.start()
    await first.settings.set(G1, "mod_role", "123456789012345678", MOD)
    await first.settings.set(G1, "limit_challenges", "9", MOD)
    await first.settings.set(G2, "rated", "no", MOD)
    await first.settings.reset(G2, "rated", Player("discord:8", "Ann"))
    await first.settings.set(None, "claim_after", "3d", MOD)
    await first.close()

    second = await open_service()
    await second.start()
    assert second.settings.mod_role(G1) == 123456789012345678 and second.settings.limits(G1).challenges == 9
    assert second.settings.state(G1, "mod_role").set_by == MOD.id
    rated = second.settings.state(G2, "rated")
    assert rated.value is True and rated.default and rated.set_by == "discord:8"
    assert second.settings.claim_after(None) == 3 * DAY and second.settings.claim_after(G1) == 7 * DAY


async def test_a_stored_value_this_version_no_longer_takes_falls_back_to_the_default(
    open_service: Callable[[], Awaitable[MatchService]], fake_time: FakeTime, caplog: pytest.LogCaptureFixture
) -> None:
    first = await open_service()
    async with first.store.transaction():
        await first.store.save_setting(G1, "away_days", "9999", MOD.id, fake_time.now())
        await first.store.save_setting(G1, "no_such_setting", "1", MOD.id, fake_time.now())
    await first.start()
    assert first.settings.away_days(G1) == 14
    assert "stored away_days '9999' is not a value it takes now" in caplog.text


# --- what each setting changes ---


async def test_the_limits_are_each_servers(service: MatchService) -> None:
    await service.settings.set(G1, "limit_lobbies", "1", MOD)
    await service.settings.set(G1, "limit_challenges", "1", MOD)
    await service.settings.set(G1, "limit_computer_games", "1", MOD)
    await service.lobbies.open_lobby("volcano", ALICE, place=here())
    with pytest.raises(LimitReached, match=r"You have 1 open lobby here \(#1\)"):
        await service.lobbies.open_lobby("volcano", ALICE, place=here())
    await service.lobbies.open_lobby("volcano", ALICE, place=here(G2))  # another server: its default, 3
    await service.challenges.record_challenge(1, G1, ALICE, BOB)
    assert await service.limits.challenge_refusal(G1, ALICE) == (
        "You have 1 challenge here that nobody has accepted yet: wait until one is accepted (challenges older"
        " than a day no longer count)."
    )
    assert await service.limits.challenge_refusal(G2, ALICE) is None
    await service.create_match("fish", [ALICE, computer()], place=here())
    assert "already plays 1 game against the computer here" in (
        service.limits.computer_games_refusal([ALICE, computer()], G1) or ""
    )
    assert service.limits.computer_games_refusal([ALICE, computer()], G2) is None


async def test_an_unrated_server_changes_no_ratings(service: MatchService) -> None:
    await service.settings.set(G1, "rated", "off", MOD)
    unrated = await service.create_match("fish", [ALICE, BOB], place=here())
    over = await service.playing.resign(unrated.id, BOB.id)
    assert over.kind == "over" and not any(line.startswith("Ratings:") for line in over.lines)
    assert await service.ratings.leaderboard(G1, "fish") == []
    rated = await service.create_match("fish", [ALICE, BOB], place=here(G2))
    again = await service.playing.resign(rated.id, BOB.id)
    assert any(line.startswith("Ratings: ") for line in again.lines)
    assert [r.player_id for r in await service.ratings.leaderboard(G2, "fish")] == [ALICE.id, BOB.id]


async def test_the_default_clock_is_what_a_start_without_clock_gets(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    assert service.settings.default_clock(G1) is None
    await service.settings.set(G1, "default_clock", "12h/3d", MOD)
    assert (
        service.settings.default_clock(G1) == ClockSettings(12 * HOUR, 3 * DAY)
        and service.settings.default_clock(G2) is None
    )
    await terminal.handle("settings set default_clock 1d/7d")
    assert out[-1] == "Set default_clock to 1 d a move + 7 d reserve (was none (untimed), the default)."
    await terminal.handle("fish new alice bob")
    await terminal.handle("fish new carol dan --clock none")
    await terminal.handle("fish new erin fred --clock 30/60")
    clocks = [m.clock.settings if m.clock else None for m in service.running()]
    assert clocks == [ClockSettings(DAY, 7 * DAY), None, ClockSettings(30, 60)]


async def drawn_series(service: MatchService, guild: int, **house: bool) -> str:
    """A toy death match on `guild`, every game drawn: the series line it ends with."""
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None, place=here(guild), **house)
    for _ in range(3):
        game = await service.get((await service.registry.get_series(series.id)).games[-1])
        await service.move(game.id, game.players[service.game(game).to_move(game.state)].id, "draw")
    return posts.series_line(await service.registry.get_series(series.id))


async def test_a_death_match_takes_the_servers_house_wins_wording(service: MatchService) -> None:
    await service.settings.set(G1, "house_wins", "off", MOD)
    assert await drawn_series(service, G1) == "The death match is drawn (level at 0–0 after 3 games)."
    assert await drawn_series(service, G2) == (
        "The death match is drawn — by DM rules the house wins (level at 0–0 after 3 games)."
    )
    told = await drawn_series(service, G1, house_wins=True)  # a front-end may still say (the terminal's flag)
    assert "the house wins" in told


async def test_untimed_reminders_follow_the_servers_wait_and_count(service: MatchService, fake_time: FakeTime) -> None:
    await service.settings.set(G1, "reminder_every", "12h", MOD)
    await service.settings.set(G1, "reminder_count", "1", MOD)
    await service.settings.set(G2, "reminder_count", "0", MOD)
    recorder = Recorder(service)
    mine = await service.create_match("toy", [ALICE, BOB], place=here())
    quiet = await service.create_match("toy", [ALICE, BOB], place=here(G2))
    start = fake_time.now()
    rows = [(r[0], r[2], r[3], r[4]) for r in await service.store.load_reminders()]
    assert rows == [(mine.id, "idle", 1, start + 12 * HOUR)]  # one, after 12 hours; none at all on G2
    fake_time.advance(12 * HOUR)
    await eventually(lambda: any(n.kind == "reminder" for n in recorder.notices))
    (reminder,) = [n for n in recorder.notices if n.kind == "reminder"]
    assert reminder.match.id == mine.id and reminder.lines == ("it has been 12 hours since your turn began",)
    fake_time.advance(3 * DAY)
    await service.flags.sweep()
    await asyncio.sleep(0.05)
    assert [n.match.id for n in recorder.notices if n.kind == "reminder"] == [mine.id]
    assert quiet.running


async def test_the_away_allowance_is_the_servers(service: MatchService) -> None:
    await service.settings.set(G1, "away_days", "3", MOD)
    await service.settings.set(G2, "away_days", "0", MOD)
    with pytest.raises(ServiceError) as refused:
        await service.away.go_away(ALICE, G1, 4)
    assert str(refused.value) == (
        "You have 3 days of away time left this year (3 days a year in each server): ask for 3 days or fewer."
    )
    answer = await service.away.go_away(ALICE, G1, 3)
    assert answer.left == 0
    with pytest.raises(ServiceError, match=r"^There is no away time here: the away_days setting is 0\.$"):
        await service.away.go_away(ALICE, G2, 1)
    assert (await service.away.go_away(BOB, None, 14)).left == 0  # offline: the default, 14


async def test_the_claim_wait_is_the_servers(service: MatchService, fake_time: FakeTime) -> None:
    await service.settings.set(G1, "claim_after", "1d", MOD)
    soon = await service.create_match("fish", [ALICE, BOB], seed=5, place=here())
    late = await service.create_match("fish", [ALICE, BOB], seed=5, place=here(G2))
    for match in (soon, late):
        await service.move(match.id, ALICE.id, "A1")
    fake_time.advance(DAY)
    with pytest.raises(ServiceError, match="a claim needs 7 days without a move"):
        await service.claims.claim(late.id, ALICE.id)
    notice = await service.claims.claim(soon.id, ALICE.id)
    assert notice.kind == "over" and notice.lines[0] == "alice claimed the win: bob did not move for 1 day."


async def test_the_moderator_role_is_an_id_a_name_or_none(db_path: Path, fake_time: FakeTime) -> None:
    store = await Store.open(db_path, TEST_GAMES)
    service = MatchService(store, fake_time, defaults=ServerDefaults(mod_role="Game Master"))
    try:
        await service.start()
        assert service.settings.mod_role(G1) == "Game Master"  # MOD_ROLE's name, until a server sets its own
        with pytest.raises(BadSetting):  # a mention is Discord's: its front-end gives the service the id
            await service.settings.set(G1, "mod_role", "<@&42>", MOD)
        change = await service.settings.set(G1, "mod_role", "42", MOD)
        assert change.line == "Set mod_role to role 42 (was the role named 'Game Master' (MOD_ROLE), the default)."
        mention = change.said(lambda kind, number: f"[{kind} {number}]")  # as a front-end writes one
        assert mention == "Set mod_role to [role 42] (was the role named 'Game Master' (MOD_ROLE), the default)."
        assert service.settings.mod_role(G1) == 42 and service.settings.mod_role(G2) == "Game Master"
        await service.settings.set(G2, "mod_role", "none", MOD)
        assert service.settings.mod_role(G2) is None
        assert service.settings.state(G2, "mod_role").shown == "none (Manage Server only)"
    finally:
        await service.close()
        await store.close()


async def test_new_matches_go_to_the_servers_match_channel(service: MatchService) -> None:
    await service.settings.set(G1, "match_channel", "77", MOD)
    match = await service.create_match("fish", [ALICE, BOB], place=here(G1, 10))
    other = await service.create_match("fish", [ALICE, BOB], place=here(G2, 10))
    assert (match.place, other.place) == (Place(G1, 77), Place(G2, 10))
    lobby = await service.lobbies.open_lobby("volcano", ALICE, place=here(G1, 10))
    assert lobby.place == Place(G1, 10)  # the lobby stays where it was opened...
    started = await service.lobbies.start_lobby(lobby.id, ALICE)
    assert started.place == Place(G1, 77)  # ...its game goes to the match channel
    series = await service.create_series("fish", [ALICE, BOB], first=0, place=here(G1, 10))
    first_game = await service.get(series.games[0])
    assert series.place == first_game.place == Place(G1, 77)
    await service.settings.set(G1, "match_channel", "here", MOD)
    assert (await service.create_match("fish", [ALICE, BOB], place=here(G1, 10))).place == Place(G1, 10)
    assert (await service.create_match("fish", [ALICE, BOB])).place == Place()  # offline: nowhere to move it


# --- the terminal ---


async def test_the_terminal_shows_sets_and_resets_its_own_settings(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    await terminal.handle("settings")
    lines = out[-1].splitlines()
    assert lines[0] == (
        "The terminal's settings (every setting is the default). Change one with settings set KEY VALUE, put it"
        " back with settings reset KEY."
    )
    assert lines[1:] == [f"• {s.line()}" for s in service.settings.states(None)] and len(lines) == 8
    await terminal.handle("settings set away_days 30")
    assert out[-1] == "Set away_days to 30 (was 14, the default)."
    await terminal.handle("settings")
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(service.time.now()))
    assert f"• away_days (days of away time each player has a year (/away)): 30 — set by moderator {when}" in out[-1]
    await terminal.handle("settings set mod_role 5")
    assert out[-1].startswith("✗ mod_role is a Discord server's setting: offline there are no roles")
    await terminal.handle("settings set rated perhaps")
    assert out[-1] == "✗ rated takes on or off, not 'perhaps'; nothing changed."
    await terminal.handle("settings reset away_days")
    assert out[-1] == "Reset away_days to its default, 14 (was 30)."
    await terminal.handle("settings set rated")
    assert out[-1] == "✗ Use: settings, settings set KEY VALUE or settings reset KEY."
    assert service.settings.away_days(None) == 14


async def test_the_terminal_death_match_takes_the_house_wins_setting(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    await terminal.handle("settings set house_wins off")
    await terminal.handle("fish dm alice bob --first alice")
    series = await service.registry.get_series(1)
    assert series.house_wins is False


# --- one table for everything ---


def test_the_specs_fit_discord_and_say_what_they_take() -> None:
    for key, setting in SETTINGS.items():
        assert key == setting.key and key.isidentifier() and key.islower()
        assert len(f"{key}: {setting.label}") <= 100, key  # a /settings set choice
        assert setting.takes and setting.default_text
        for example in setting.examples:
            setting.read(example)  # every suggestion is a value it takes
        default = setting.default(ServerDefaults())
        if setting.kind not in ("role", "channel"):
            assert setting.read(setting.dump(default)) == default, key  # stored text reads back


async def test_show_fits_one_message_with_every_setting_changed(service: MatchService) -> None:
    values = {
        "mod_role": "123456789012345678",
        "match_channel": "123456789012345678",
        "house_wins": "off",
        "rated": "off",
        "default_clock": "1h30m/29d23h",
        "reminder_every": "13h59m",
        "reminder_count": "10",
        "away_days": "366",
        "claim_after": "364d23h",
        "limit_lobbies": "1000",
        "limit_challenges": "1000",
        "limit_computer_games": "1000",
        "language": "pt-BR",
    }
    for key, value in values.items():
        await service.settings.set(G1, key, value, MOD)
    from bot.cogs.settings import show_text

    text = show_text(service.settings.states(G1))
    assert len(text) <= 2000 and text.count("\n•") == len(SETTINGS) and "…" not in text
    assert "13 settings changed from the defaults" in text.splitlines()[0]
    assert "<@&123456789012345678>" in text and "<#123456789012345678>" in text  # Discord writes mentions


@pytest.mark.parametrize("doc", ["docs/settings.md", "README.md"])
def test_the_docs_name_every_setting(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    missing = [key for key in SETTINGS if f"`{key}`" not in text]
    assert missing == []


def test_the_docs_table_says_what_the_specs_say() -> None:
    """docs/settings.md's table: a row per setting, in order, with what it takes and its default as the spec says."""
    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `") and line.split("`")[1] in SETTINGS]
    assert [row.split("`")[1] for row in rows] == list(SETTINGS)
    for row, setting in zip(rows, SETTINGS.values(), strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[2:] == [setting.takes, setting.default_text, "yes" if setting.offline else "no"], setting.key
