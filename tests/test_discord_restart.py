"""Restarts and outages in Discord (bot/service/downtime.py, bot/service/holds.py, bot/discord_gateway.py),
against tests/discord_fake/ with the bot on a fake clock moved in step with Discord's: a restart with 12
correspondence games posts nothing and pings nobody, their clocks charged nothing for the downtime, and an old
board's buttons still play; live games come back soonest deadline first, each player pinged once; a 16 s
gateway outage in a 5s/5s game flags nobody and its board then says how long Discord was unreachable; a
zombie connection (no heartbeat ACKs) is held too, by the watchdog."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ClockSettings, FakeTime, parse_clock
from bot.discord_app import RESTART_LINE, GameBot
from bot.games import GAMES
from bot.models import GATEWAY, Match, Place, Player
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, custom_ids, make_bot, was_played

PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank")
CORRESPONDENCE = parse_clock("1d/7d")


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime(time.time())


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve(members=PEOPLE) as fake:
        yield fake


def bot_on(fake: DiscordFake, db_path: Path, clock: FakeTime) -> GameBot:
    made = make_bot(fake, db_path)
    made.time = clock
    return made


def person(fake: DiscordFake, name: str) -> Player:
    return Player(f"discord:{fake.user(name)['id']}", name.title())


async def start(
    fake: DiscordFake, bot: GameBot, first: str, second: str, clock: ClockSettings | None, game: str = "fish"
) -> Match:
    """A match with `first` to move, its board posted in a thread of its own in #general."""
    place = Place(fake.guild.id, fake.channel("general").id)
    created = await bot.matches.create_match(
        game, [person(fake, first), person(fake, second)], place=place, clock=clock
    )
    match = await fake.wait_until(
        lambda: (m := bot.matches.running_match(created.id)) is not None and m.board_ply == m.ply and m,
        what=f"match #{created.id}'s board",
    )
    assert isinstance(match, Match)
    return match


def later(fake: DiscordFake, clock: FakeTime, seconds: float) -> None:
    """Time passes for the bot and for Discord alike."""
    fake.advance_clock(seconds)
    clock.advance(seconds)


def posts_made(fake: DiscordFake) -> list[str]:
    """Messages the bot created (REST), by path: what a restart costs."""
    return [r.path for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]


async def test_a_restart_with_12_correspondence_games_posts_nothing_pings_nobody_and_charges_nothing(
    fake: DiscordFake, db_path: Path, clock: FakeTime
) -> None:
    pairs = [(a, b) for a in PEOPLE[:4] for b in PEOPLE[:4] if a != b]  # 12 pairings, within the limits
    bot = bot_on(fake, db_path, clock)
    async with fake.run(bot):
        matches = [await start(fake, bot, a, b, CORRESPONDENCE) for a, b in pairs]
        later(fake, clock, 5 * 3600)  # five hours into every turn
        before = {m.id: bot.matches.running_match(m.id).clock for m in matches}  # type: ignore[union-attr]
        stopped_at = clock.now()
    later(fake, clock, 6 * 3600)  # the bot is down for six hours
    messages, pings, requests = (
        len(fake.messages),
        sum(len(m.pings.users) for m in fake.messages.values()),
        len(posts_made(fake)),
    )
    again = bot_on(fake, db_path, clock)
    async with fake.run(again):
        await fake.wait_until(lambda: again._repost_task is not None and again._repost_task.done(), what="the reposts")
        assert len(fake.messages) == messages and len(posts_made(fake)) == requests  # nothing posted
        assert sum(len(m.pings.users) for m in fake.messages.values()) == pings  # nobody pinged
        now = clock.now()
        for match in matches:
            clock_now = again.matches.running_match(match.id).clock  # type: ignore[union-attr]
            old = before[match.id]
            assert clock_now is not None and old is not None and clock_now.running
            assert clock_now.used_at(now) == pytest.approx(old.used_at(stopped_at), abs=0.01)  # 5 h, not 11
            assert clock_now.reserves == old.reserves
            assert clock_now.deadline() == pytest.approx(old.deadline() + (now - stopped_at), abs=0.01)  # type: ignore[operator]


async def test_an_old_boards_buttons_still_play_after_a_quiet_restart(
    fake: DiscordFake, db_path: Path, clock: FakeTime
) -> None:
    bot = bot_on(fake, db_path, clock)
    async with fake.run(bot):
        match = await start(fake, bot, "alice", "bob", CORRESPONDENCE, game="geyser")
        thread = match.place.thread_id
        (board,) = boards(fake, thread)
        assert "play:1:0:start f1" in custom_ids(board)
    later(fake, clock, 3600)
    again = bot_on(fake, db_path, clock)
    async with fake.run(again):
        clicked = await fake.click("alice", board, "play:1:0:start f1")
        (answer,) = await clicked.wait_followups(1)
        assert answer is boards(fake, thread)[-1] and "Alice starts on f1" in answer.content  # the new board
        moved = again.matches.running_match(1)
        assert moved is not None and moved.ply == 1
        assert len(boards(fake, thread)) == 2  # the move's board, and no repost before it
        assert custom_ids(fake.messages[board.id]) == []  # the clicked board lost its buttons, as always


async def test_live_games_come_back_soonest_deadline_first_with_one_ping_per_player(
    fake: DiscordFake, db_path: Path, clock: FakeTime
) -> None:
    bot = bot_on(fake, db_path, clock)
    async with fake.run(bot):
        slow = await start(fake, bot, "alice", "bob", ClockSettings(600, 600))  # 20 min to its flag
        quick = await start(fake, bot, "alice", "carol", ClockSettings(30, 60))  # 1.5 min
        middle = await start(fake, bot, "dave", "alice", ClockSettings(300, 0))  # 5 min, dave to move
        long = await start(fake, bot, "alice", "erin", CORRESPONDENCE)  # quiet
    later(fake, clock, 60)
    seen = set(fake.messages)
    again = bot_on(fake, db_path, clock)
    async with fake.run(again):
        await fake.wait_until(lambda: again._repost_task is not None and again._repost_task.done(), what="the reposts")
        posted = [m for i, m in sorted(fake.messages.items()) if i not in seen]
        assert all(RESTART_LINE in m.content for m in posted)
        order = [next(x.id for x in (slow, quick, middle, long) if x.place.thread_id == m.channel_id) for m in posted]
        assert order == [quick.id, middle.id, slow.id]  # the correspondence game is not posted
        alice, dave = int(fake.user("alice")["id"]), int(fake.user("dave")["id"])
        assert [m.pings.users for m in posted] == [{alice}, {dave}, set()]  # alice once, on her first board


async def test_a_16_second_gateway_outage_in_a_5s_game_flags_nobody_and_says_so(
    fake: DiscordFake, db_path: Path, clock: FakeTime
) -> None:
    bot = bot_on(fake, db_path, clock)
    async with fake.run(bot):
        match = await start(fake, bot, "alice", "bob", ClockSettings(5, 5))
        later(fake, clock, 2)
        used = match.clock.used_at(clock.now())  # type: ignore[union-attr]
        async with fake.gateway_outage():
            await fake.wait_until(lambda: match.held is not None, what="the match to be held")
            assert match.held is not None and match.held.cause == GATEWAY
            later(fake, clock, 16)  # Discord unreachable for 16 s: the 5 s + 5 s clock would have flagged
            await bot.matches.flags.sweep()
            assert match.running
        told = await fake.wait_for_message(
            lambda m: "Discord was unreachable" in m.content, channel=match.place.thread_id
        )
        assert "for 0:16" in told.content and "clocks were stopped" in told.content and not told.pings.users
        assert match.held is None and match.running and match.clock is not None and match.clock.running
        assert match.clock.used_at(clock.now()) == pytest.approx(used, abs=0.01)  # the 16 s counted for nobody
        actions = [a["kind"] for a in await bot.matches.store.actions(match.id)]
        assert actions[-2:] == ["hold", "unhold"]
        mover = GAMES["fish"].legal_moves(match.state)[0]
        played = await fake.slash("alice", "fish move", {"move": f"{mover}@0", "match": match.id}, channel="general")
        assert was_played(played)


async def test_a_zombie_connection_is_held_by_the_watchdog_until_acks_come_again(
    db_path: Path, clock: FakeTime
) -> None:
    async with DiscordFake.serve(heartbeat_interval=100) as fake:  # 0.1 s heartbeats: stale after 0.3 s
        bot = bot_on(fake, db_path, clock)
        bot.gateway.watch_every = 0.05
        async with fake.run(bot):
            match = await start(fake, bot, "alice", "bob", ClockSettings(5, 5))
            fake.stall()
            await fake.wait_until(lambda: match.held is not None, what="the watchdog to hold the match")
            later(fake, clock, 30)
            await bot.matches.flags.sweep()
            assert match.running and match.clock is not None and not match.clock.running
            fake.unstall()
            await fake.wait_until(lambda: match.held is None, what="the watchdog to release the match")
            assert match.clock.running  # type: ignore[union-attr]
            await fake.wait_for_message(lambda m: "Discord was unreachable" in m.content, channel=match.place.thread_id)
