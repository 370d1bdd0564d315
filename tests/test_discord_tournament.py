"""/tournament through the real discord.py code against the fake Discord (tests/discord_fake/): a whole
Swiss of 8 players, signed up with the buttons, every round announced in the tournament's thread with its
pairings and links to the games' threads, a restart of the bot in the middle of a round, the standings
picture with its alt text, the record, and refusals that are private."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import GameBot
from bot.tournaments.stored import FINISHED
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, RATE_SCALE, make_bot

NAMES = tuple(f"p{i}" for i in range(1, 9))
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+) \(match #(\d+)\)")


@pytest.fixture
async def fake8() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve(members=(*NAMES, "carol"), rate_scale=RATE_SCALE) as fake:
        yield fake


def quiet(bot: GameBot) -> GameBot:
    """No after-the-game analyses: they are not what this test is about, and each takes a worker's time."""
    bot.analyst = None
    return bot


async def announcements(fake: DiscordFake, thread: Any, count: int) -> list[Any]:
    """The round announcements in the tournament's thread, once there are `count`."""
    await fake.wait_until(
        lambda: len([m for m in fake.channel_messages(thread) if m.content.startswith("Round ")]) >= count,
        what=f"{count} round announcements",
    )
    return [m for m in fake.channel_messages(thread) if m.content.startswith("Round ")]


async def resign_all(fake: DiscordFake, bot: GameBot, announcement: str, keep: int = 0) -> list[int]:
    """In each game of a round's announcement, the second player resigns (in the game's thread), except the
    last `keep` games; returns the match ids of the games left running."""
    games = [(int(t), int(m)) for _, t, m in LINK.findall(announcement)]
    assert games, announcement
    for thread_id, match_id in games[: len(games) - keep]:
        match = await bot.matches.get(match_id)
        loser = match.players[1].name.lower()
        ask = await fake.slash(loser, "fish resign", channel=fake.channel(thread_id))
        assert ask.ephemeral and f"Resign match #{match_id}?" in (ask.content or "")
        done = await fake.click(loser, ask, f"resign-yes:{match_id}")
        assert done.ephemeral and "You resigned" in (done.content or "")
    return [match_id for _, match_id in games[len(games) - keep :]]


async def test_a_whole_swiss_of_8_with_a_restart_in_the_middle(fake8: DiscordFake, db_path: Path) -> None:
    fake = fake8
    async with fake.run(quiet(make_bot(fake, db_path))) as running:
        bot: GameBot = running  # type: ignore[assignment]
        refused = await fake.slash("p1", "tournament new", {"game": "fish", "format": "swiss"})
        assert refused.ephemeral and "Only moderators" in (refused.content or "")
        bad = await fake.slash("mod", "tournament new", {"game": "fish", "format": "knockout", "rounds": 3})
        assert bad.ephemeral and "Only Swiss takes a number of rounds" in (bad.content or "")
        late = await fake.slash("mod", "tournament new", {"game": "fish", "format": "swiss", "closes": "soon"})
        assert late.ephemeral and "closes:" in (late.content or "")
        assert await bot.matches.tournaments.listing(fake.guild.id) == []  # refusals store nothing

        opened = await fake.slash("mod", "tournament new", {"game": "fish", "format": "swiss"})
        assert not opened.ephemeral and "**Tournament #1**" in (opened.content or "")
        signup = opened.message
        assert signup is not None and signup.custom_ids == ["tournament:join:1", "tournament:leave:1"]
        await fake.wait_until(lambda: any(t.name.startswith("Tournament #1") for t in fake.threads), what="its thread")
        (thread,) = [t for t in fake.threads if t.name.startswith("Tournament #1")]
        await fake.wait_until(lambda: len(fake.channel_messages(thread)) == 1, what="the thread's first line")
        early = await fake.slash("mod", "tournament start", channel=thread)
        assert early.ephemeral and "at least 2 players" in (early.content or "")

        for name in NAMES:
            joined = await fake.click(name, signup, "tournament:join:1")
            assert not joined.ephemeral
        twice = await fake.click("p1", signup, "tournament:join:1")
        assert twice.ephemeral and "p1 has already signed up" in (twice.content or "").lower()
        left = await fake.click("carol", signup, "tournament:leave:1")
        assert left.ephemeral and "have not signed up" in (left.content or "")
        assert "Signed up (8): P1, P2" in fake.channel_messages(signup.channel_id)[0].content
        not_mod = await fake.slash("p1", "tournament start", channel=thread)
        assert not_mod.ephemeral and "Only moderators" in (not_mod.content or "")

        begun = await fake.slash("mod", "tournament start", channel=thread)
        assert not begun.ephemeral and "Tournament #1 has started" in (begun.content or "")
        (first,) = await announcements(fake, thread, 1)
        assert first.content.startswith("Round 1 of 3 of Tournament #1") and first.content.count("Board ") == 4
        players = {int(fake.user(name)["id"]) for name in NAMES}
        assert set(first.pings.users) == players  # the players paired, and nobody else
        for guild_id, thread_id, match_id in LINK.findall(first.content):  # each link leads to its game's board
            match = await bot.matches.get(int(match_id))
            assert int(guild_id) == fake.guild.id and match.place.thread_id == int(thread_id)
            board = fake.channel_messages(fake.channel(int(thread_id)))[0]
            assert board.attachments and board.attachments[0].data.startswith(PNG)
        assert fake.channel_messages(signup.channel_id)[0].custom_ids == []  # sign-up is over: no buttons
        closed = await fake.slash("carol", "tournament join", channel=thread)
        assert closed.ephemeral and "no tournament on here" in (closed.content or "")

        await resign_all(fake, bot, first.content)
        (_, second) = await announcements(fake, thread, 2)
        running_ids = await resign_all(fake, bot, second.content, keep=2)
        await bot.close()

    async with fake.run(quiet(make_bot(fake, db_path))) as running:
        bot = running  # type: ignore[assignment]
        await fake.wait_until(lambda: bot._repost_task is not None and bot._repost_task.done(), what="resumed")
        for match_id in running_ids:  # the round's games go on after the restart, untimed: without a repost
            match = await bot.matches.get(match_id)
            assert match.running
            texts = [m.content for m in fake.channel_messages(fake.channel(match.place.thread_id))]
            assert not any("back after a restart" in text for text in texts)
        standing = await fake.slash("p1", "tournament standings", channel=thread)
        assert not standing.ephemeral and standing.files[0].data.startswith(PNG)
        for match_id in running_ids:
            match = await bot.matches.get(match_id)
            loser = match.players[1].name.lower()
            ask = await fake.slash(loser, "fish resign", {"match": match_id})
            await fake.click(loser, ask, f"resign-yes:{match_id}")
        (_, _, third) = await announcements(fake, thread, 3)
        assert third.content.startswith("Round 3 of 3")
        moderator = await fake.slash("p2", "tournament void", channel=thread)
        assert moderator.ephemeral and "Only moderators" in (moderator.content or "")
        wrong = await fake.slash(
            "mod", "tournament adjudicate", {"round": 3, "board": 1, "result": "win"}, channel=thread
        )
        assert wrong.ephemeral and "1-0" in (wrong.content or "")
        games = [int(m) for _, _, m in LINK.findall(third.content)]
        adjudicated = await fake.slash(
            "mod", "tournament adjudicate", {"round": 3, "board": 1, "result": "0-1"}, channel=thread
        )
        assert adjudicated.ephemeral and "Round 3, board 1: 0-1" in (adjudicated.content or "")
        assert not (await bot.matches.get(games[0])).running
        await resign_all(fake, bot, "\n".join(third.content.splitlines()[2:]))  # board 1 is adjudicated
        await fake.wait_for_message(lambda m: "is over" in m.content, channel=thread)
        held = await bot.matches.tournaments.get(1)
        assert held.status == FINISHED and len(held.tournament.rounds) == 3
        assert sum(len(r.pairings) for r in held.tournament.rounds) == 12

        final = await fake.slash("carol", "tournament standings", {"tournament": 1})
        (picture,) = final.files
        assert picture.data.startswith(PNG) and picture.description and "Tournament #1" not in picture.description
        assert picture.description.splitlines()[0].startswith('"1, 2, 3"')
        given = await fake.slash("carol", "tournament record", {"tournament": 1})
        (record,) = given.files
        data = json.loads(record.data)
        assert record.filename == "tournament-1.json" and data["status"] == "over" and len(data["games"]) == 12
        missing = await fake.slash("carol", "tournament record", {"tournament": 9})
        assert missing.ephemeral and "no tournament #9" in (missing.content or "")
    assert fake.unsafe_pings() == []


async def test_leaving_a_running_tournament_is_answered_before_its_game_ends(fake8: DiscordFake, db_path: Path) -> None:
    """The withdrawal resigns the leaver's game: its final board, the old board's buttons, the replay GIF
    and the announcement all come after the answer (Discord's 3 s are for the answer alone)."""
    fake = fake8
    async with fake.run(quiet(make_bot(fake, db_path))) as running:
        bot: GameBot = running  # type: ignore[assignment]
        opened = await fake.slash("mod", "tournament new", {"game": "fish", "format": "swiss"})
        assert opened.message is not None
        for name in NAMES[:4]:
            await fake.click(name, opened.message, "tournament:join:1")
        await fake.wait_until(lambda: any(t.name.startswith("Tournament #1") for t in fake.threads), what="its thread")
        (thread,) = [t for t in fake.threads if t.name.startswith("Tournament #1")]
        await fake.slash("mod", "tournament start", channel=thread)
        (first,) = await announcements(fake, thread, 1)
        (game_thread, match_id) = next((int(t), int(m)) for _, t, m in LINK.findall(first.content))
        match = await bot.matches.get(match_id)
        leaver = match.players[0].name.lower()

        left = await fake.slash(leaver, "tournament leave", channel=thread)
        assert left.ephemeral and "You withdrew from tournament #1." in (left.content or "")
        caused = [r for r in fake.requests if r.cause == int(left.interaction["id"])]
        assert caused[0].path.endswith("/callback") and len(caused) > 1  # the answer first, then the rest
        assert not (await bot.matches.get(match_id)).running
        posted = fake.channel_messages(fake.channel(game_thread))
        assert any("resigned" in m.content for m in posted if m.attachments)  # the final board
        assert any(a.filename.endswith(".gif") for m in posted for a in m.attachments)  # and its replay
        assert fake.early_requests == []
