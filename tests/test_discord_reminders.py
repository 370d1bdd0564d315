"""Reminders in Discord (bot/discord_reminders.py), against tests/discord_fake/ with the bot on a fake clock
that the tests move in step with Discord's (`DiscordFake.advance_clock`): a thread reminder mentions only its
player, a DM links to the board, several games make one digest, one DM an hour at most, and closed DMs fall
back to the thread for good."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ClockSettings, FakeTime
from bot.discord_app import GameBot
from bot.models import Match, Place, Player
from bot.reminders import DAY, HOUR
from tests.discord_fake import DiscordFake, FakeMessage
from tests.discord_helpers import make_bot

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime(time.time())


@pytest.fixture
async def bot(fake: DiscordFake, db_path: Path, clock: FakeTime) -> AsyncIterator[GameBot]:
    made = make_bot(fake, db_path)
    made.time = clock
    async with fake.run(made) as running:
        yield running  # type: ignore[misc]


def person(fake: DiscordFake, name: str) -> Player:
    return Player(f"discord:{fake.user(name)['id']}", name.title())


async def start(fake: DiscordFake, bot: GameBot, first: str, second: str, clock: ClockSettings | None = None) -> Match:
    """A fish match with `first` to move, posted in a thread of its own in #general."""
    place = Place(fake.guild.id, fake.channel("general").id)
    players = [person(fake, first), person(fake, second)]
    created = await bot.matches.create_match("fish", players, place=place, clock=clock)
    match = await fake.wait_until(
        lambda: (m := bot.matches.running_match(created.id)) is not None and m.board is not None and m,
        what=f"match #{created.id}'s board",
    )
    assert isinstance(match, Match)
    return match


async def later(fake: DiscordFake, clock: FakeTime, seconds: float) -> None:
    """Time passes for the bot and for Discord alike."""
    fake.advance_clock(seconds)
    clock.advance(seconds)


def dms(fake: DiscordFake, name: str) -> list[FakeMessage]:
    return fake.channel_messages(fake.dm_channel(name))


def reminders_in(fake: DiscordFake, match: Match) -> list[FakeMessage]:
    assert match.place.thread_id is not None
    return [m for m in fake.channel_messages(match.place.thread_id) if "your turn in match" in m.content]


def board_link(fake: DiscordFake, match: Match) -> str:
    assert match.board is not None
    return f"https://discord.com/channels/{fake.guild.id}/{match.board[0]}/{match.board[1]}"


async def test_a_thread_reminder_mentions_only_its_player(fake: DiscordFake, bot: GameBot, clock: FakeTime) -> None:
    match = await start(fake, bot, "alice", "bob")
    await later(fake, clock, DAY + 60)
    message = await fake.wait_for_message(lambda m: "your turn in match" in m.content, channel=match.place.thread_id)
    alice = int(fake.user("alice")["id"])
    assert message.content == f"<@{alice}> your turn in match #{match.id}: it has been a day since your turn began."
    assert message.pings.users == {alice} and not message.pings.unsafe
    assert message.allowed_mentions is not None and message.allowed_mentions.get("users") == [alice]
    assert dms(fake, "alice") == []


async def test_a_dm_reminder_is_one_message_with_a_link_to_the_board(
    fake: DiscordFake, bot: GameBot, clock: FakeTime
) -> None:
    answer = await fake.slash("alice", "notify", {"mode": "dm"})
    assert answer.ephemeral and (answer.content or "").startswith("Reminders of your turn now come by direct message")
    match = await start(fake, bot, "alice", "bob", clock=ClockSettings(12 * HOUR, 12 * HOUR))
    deadline = match.clock.deadline() if match.clock is not None else None
    assert deadline is not None
    await later(fake, clock, 6 * HOUR + 60)
    message = await fake.wait_for_message(channel=fake.dm_channel("alice"))
    title = f'"1, 2, 3" #{match.id} (Alice vs Bob)'
    said = f"half your move time is used; your flag falls <t:{int(deadline)}:R>"
    assert message.content == f"Your turn in {title}: {said}.\n{board_link(fake, match)}"
    assert reminders_in(fake, match) == [] and len(fake.pinged("alice")) == 1  # the board's ping, no other


async def test_several_games_awaiting_make_one_digest(fake: DiscordFake, bot: GameBot, clock: FakeTime) -> None:
    await fake.slash("alice", "notify", {"mode": "dm"})
    games = [await start(fake, bot, "alice", other) for other in ("bob", "carol", "mod")]
    await later(fake, clock, DAY + 60)  # the three fall due together
    await fake.wait_for_message(channel=fake.dm_channel("alice"))
    await asyncio.sleep(0.3)  # the other two reminders come too: that DM listed their turns already
    (digest,) = dms(fake, "alice")
    lines = digest.content.split("\n")
    assert lines[0] == "3 games await you:"
    assert [LINK.search(line)[0] for line in lines[1:]] == [board_link(fake, m) for m in games]  # type: ignore[index]
    assert any("it has been a day since your turn began" in line for line in lines[1:])
    assert all(reminders_in(fake, m) == [] for m in games)


async def test_at_most_one_dm_an_hour_and_a_reminder_waits_for_the_next(
    fake: DiscordFake, bot: GameBot, clock: FakeTime
) -> None:
    await fake.slash("alice", "notify", {"mode": "dm"})
    first = await start(fake, bot, "alice", "bob")
    await later(fake, clock, DAY + 60)
    await fake.wait_for_message(channel=fake.dm_channel("alice"))
    sent = bot.matches.time.now()
    hourly = await start(fake, bot, "alice", "carol", clock=ClockSettings(HOUR, 0))  # half in 30 min, last at 54
    await later(fake, clock, 55 * 60)  # both are due within the hour after the DM: they wait
    (_,) = dms(fake, "alice")
    assert reminders_in(fake, hourly) == []
    await later(fake, clock, sent + HOUR - bot.matches.time.now())
    second = await fake.wait_for_message(channel=fake.dm_channel("alice"), after=dms(fake, "alice")[0])
    lines = second.content.split("\n")
    assert lines[0] == "2 games await you:"
    assert f"#{hourly.id} (Alice vs Carol): 6 minutes left: your flag falls" in lines[2]
    assert f"#{first.id} (Alice vs Bob): your turn — " in lines[1]
    for _ in range(50):  # the DM is stored as sent just after Discord took it
        if await bot.matches.reminding.last_dm(person(fake, "alice").id) == bot.matches.time.now():
            break
        await asyncio.sleep(0.02)
    assert await bot.matches.reminding.last_dm(person(fake, "alice").id) == sent + HOUR


async def test_a_reminder_that_cannot_wait_for_the_next_dm_goes_to_the_thread(
    fake: DiscordFake, bot: GameBot, clock: FakeTime
) -> None:
    untimed = await start(fake, bot, "alice", "bob")
    hourly = await start(fake, bot, "alice", "carol", clock=ClockSettings(HOUR, 0))
    await later(fake, clock, 30 * 60 + 30)  # (Discord's clock is a moment ahead of the bot's: the wall clock ran)
    await fake.wait_until(lambda: reminders_in(fake, hourly), what="the half, in the thread")
    await fake.slash("alice", "notify", {"mode": "dm"})
    await later(fake, clock, 5 * 60 - 30)  # 35 min used...
    await bot.matches.moderation.pause(hourly.id, person(fake, "mod"))  # ...then paused: it waits for nobody
    await later(fake, clock, DAY - 35 * 60 + 60)
    first = await fake.wait_for_message(channel=fake.dm_channel("alice"))
    assert first.content.startswith(f'Your turn in "1, 2, 3" #{untimed.id}'), "the paused game is not listed"
    await bot.matches.moderation.resume(
        hourly.id, person(fake, "mod")
    )  # the flag falls 25 min from now, before a DM may
    await later(fake, clock, 19 * 60 + 30)  # the last reminder: 6 min left
    message = await fake.wait_for_message(
        lambda m: "minutes left" in m.content, channel=hourly.place.thread_id, after=reminders_in(fake, hourly)[0]
    )
    assert "6 minutes left: your flag falls" in message.content and "DMs are closed" not in message.content
    assert len(dms(fake, "alice")) == 1
    assert await bot.matches.reminding.mode(person(fake, "alice").id) == "dm"


async def test_a_waiting_reminder_whose_turn_is_played_is_dropped(
    fake: DiscordFake, bot: GameBot, clock: FakeTime
) -> None:
    await fake.slash("alice", "notify", {"mode": "dm"})
    await start(fake, bot, "alice", "bob")
    await later(fake, clock, DAY + 60)
    await fake.wait_for_message(channel=fake.dm_channel("alice"))
    hourly = await start(fake, bot, "alice", "carol", clock=ClockSettings(HOUR, 0))
    await later(fake, clock, 31 * 60)  # its half waits for the hour to end
    game = bot.matches.game(hourly)
    await bot.matches.move(hourly.id, person(fake, "alice").id, game.legal_moves(hourly.state)[0])
    await later(fake, clock, 30 * 60)
    await fake.wait_until(lambda: bot.reminders.waiting == 0, what="the waiting DM")
    assert len(dms(fake, "alice")) == 1, "nothing left to remind of: no second DM"


async def test_closed_dms_fall_back_to_the_thread_and_the_choice_is_remembered(
    fake: DiscordFake, bot: GameBot, clock: FakeTime
) -> None:
    await fake.slash("alice", "notify", {"mode": "dm"})
    fake.close_dms("alice")
    match = await start(fake, bot, "alice", "bob")
    await later(fake, clock, DAY + 60)
    message = await fake.wait_for_message(lambda m: "your turn in match" in m.content, channel=match.place.thread_id)
    alice = int(fake.user("alice")["id"])
    assert message.content == (
        f"<@{alice}> your turn in match #{match.id}: it has been a day since your turn began.\n"
        "Your DMs are closed, so reminders come here (`/notify mode:dm` tries DMs again)."
    )
    assert message.pings.users == {alice}
    refused = [r for r in fake.requests_to("POST", r"/channels/\d+/messages") if r.status == 403]
    assert len(refused) == 1 and refused[0].error == {"message": "Cannot send messages to this user", "code": 50007}
    assert await bot.matches.reminding.mode(person(fake, "alice").id) == "thread"
    await later(fake, clock, DAY)  # the next one comes to the thread straight away, with no DM tried
    await fake.wait_until(lambda: len(reminders_in(fake, match)) == 2, what="the second reminder")
    assert "DMs are closed" not in reminders_in(fake, match)[1].content
    assert len([r for r in fake.requests_to("POST", r"/channels/\d+/messages") if r.status == 403]) == 1


async def test_notify_off_sends_nothing_and_says_so(fake: DiscordFake, bot: GameBot, clock: FakeTime) -> None:
    answer = await fake.slash("alice", "notify", {"mode": "off"})
    assert answer.ephemeral and (answer.content or "").startswith("You now get no reminders of your turn")
    answer = await fake.slash("bob", "notify", {"mode": "thread"})
    assert (answer.content or "").startswith("Reminders of your turn now come in the match's thread")
    match = await start(fake, bot, "alice", "bob")
    await later(fake, clock, DAY + 60)
    for _ in range(50):
        if not await bot.matches.store.unsent_reminders(match.id, 0, bot.matches.time.now()):
            break  # passed over
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    assert reminders_in(fake, match) == [] and dms(fake, "alice") == []
    assert len(await bot.matches.store.unsent_reminders(match.id, 0)) == 2
