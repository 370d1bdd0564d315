"""/mygames, /away and /back through the real discord.py code against the fake Discord: only the one who
asked sees the answer, the list puts your turns first with deadlines and links to the boards and keeps to
Discord's 2,000 characters, and away time stops the long clocks, tells the opponents in each match's thread
and ends with /back or a move."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.clock import ClockSettings
from bot.discord_app import GameBot
from bot.models import Place, Player
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, was_played

LONG = "3600/7200"  # an hour a move and two of reserve: play by post


def player(fake: DiscordFake, name: str) -> Player:
    return Player(f"discord:{fake.user(name)['id']}", name.title())


async def challenge(fake: DiscordFake, by: str, to: str, clock: str | None = LONG) -> Any:
    """`by` challenges `to`, who accepts; returns the match's thread (`by` moves first)."""
    options: dict[str, Any] = {"opponent": to}
    if clock:
        options["clock"] = clock
    sent = await fake.slash(by, "fish challenge", options)
    await fake.click(to, sent.message, label="Accept")
    return fake.threads[-1]


def texts(fake: DiscordFake, thread: Any) -> list[str]:
    return [m.content for m in fake.channel_messages(thread)]


async def test_mygames_lists_your_turns_first_with_deadlines_and_board_links(fake: DiscordFake, bot: GameBot) -> None:
    none = await fake.slash("alice", "mygames")
    assert none.ephemeral and (none.content or "").startswith("You have no running matches in this server.")

    theirs = await challenge(fake, "bob", "alice")  # match 1: bob to move
    mine = await challenge(fake, "alice", "carol")  # match 2: alice to move
    untimed = await challenge(fake, "carol", "alice", clock=None)  # match 3: carol to move
    reply = await fake.slash("alice", "mygames", channel="general")
    assert reply.ephemeral
    lines = (reply.content or "").splitlines()
    assert lines[0] == "Your running matches here: 3, your turn in 1."
    match = await bot.matches.get(2)
    assert match.clock is not None and (deadline := match.clock.deadline()) is not None
    board = boards(fake, mine)[-1]
    link = f"https://discord.com/channels/{fake.guild.id}/{mine.id}/{board.id}"
    assert (
        lines[1]
        == f'**Your turn**: #2 "1, 2, 3" vs Carol — you to move, out of time <t:{int(deadline)}:R> · [board]({link})'
    )
    assert lines[2].startswith('#1 "1, 2, 3" vs Bob — Bob to move, out of time <t:')
    assert lines[2].endswith(f"/{theirs.id}/{boards(fake, theirs)[-1].id})")
    assert lines[3].startswith('#3 "1, 2, 3" vs Carol — Carol to move (no clock) · [board](')
    assert str(untimed.id) in lines[3]
    assert "<@" not in (reply.content or "")  # names, never pings

    others = await fake.slash("mod", "mygames")
    assert others.content == (none.content or "")


async def test_mygames_pages_a_long_list_within_discords_limit(fake: DiscordFake, bot: GameBot) -> None:
    channel = fake.channel("games")
    me = player(fake, "alice")
    rival = Player(f"discord:{fake.user('bob')['id']}", "Bob the Magnificent Volcanologist"[:32])
    fake.other_names.add(rival.name)
    for _ in range(30):
        await bot.matches.create_match(
            "fish", [rival, me], place=Place(fake.guild.id, channel.id), clock=ClockSettings(3600, 7200)
        )
    await bot.matches.create_match("fish", [me, rival], place=Place(4242, None))  # another server's
    seen: list[int] = []
    page = 1
    while True:
        reply = await fake.slash("alice", "mygames", {"page": page} if page > 1 else {}, channel="general")
        text = reply.content or ""
        assert reply.ephemeral and len(text) <= 2000
        seen += [int(n) for n in re.findall(r"^#(\d+) ", text, re.M)]
        if "for the next" not in text:
            break
        assert f"`/mygames page:{page + 1}` for the next" in text
        page += 1
    assert page > 1 and sorted(seen) == list(range(1, 31))
    assert fake.rejected == []


async def test_away_stops_long_clocks_tells_the_opponents_and_back_ends_it(fake: DiscordFake, bot: GameBot) -> None:
    long = await challenge(fake, "alice", "bob")  # match 1: alice to move, an hour a move
    live = await challenge(fake, "alice", "carol", clock="30/60")  # match 2: a live clock
    reply = await fake.slash("alice", "away", {"days": 3}, channel="general")
    text = reply.content or ""
    assert reply.ephemeral and text.startswith("You are away until <t:")
    assert 'The clock waits for you in #1 "1, 2, 3"; your opponents are told.' in text
    assert "Away time left this year: 11 days." in text and "/back" in text
    until = bot.matches.away.until(player(fake, "alice").id, fake.guild.id)
    assert until is not None
    said = f"Alice is away until <t:{int(until)}:f>; the clock waits for Alice."
    assert texts(fake, long)[-1] == said and said not in texts(fake, live)
    first = await bot.matches.get(1)
    assert first.clock is not None and first.clock.away == (0,) and not first.clock.running
    second = await bot.matches.get(2)
    assert second.clock is not None and second.clock.away == () and second.clock.running

    mine = await fake.slash("alice", "mygames")
    assert "you to move, the clock waiting: you are away" in (mine.content or "")

    again = await fake.slash("alice", "away", {"days": 2})
    assert again.ephemeral and (again.content or "").startswith(f"You are already away until <t:{int(until)}:f>")
    longer = await fake.slash("alice", "away", {"days": 5})
    extended = longer.content or ""  # 5 days from now, after the moments already away: rounded down
    assert "now (later than before)" in extended and "Away time left this year: 8 days and 23 hours." in extended
    assert texts(fake, long)[-1].startswith("Alice is away until <t:")

    back = await fake.slash("alice", "back")
    assert back.ephemeral and (back.content or "").startswith("Welcome back: you were away less than an hour.")
    assert 'The clock runs again in #1 "1, 2, 3".' in (back.content or "")
    assert texts(fake, long)[-1] == "Alice is back; the clock runs again on Alice's turns."
    resumed = await bot.matches.get(1)
    assert resumed.clock is not None and resumed.clock.away == () and resumed.clock.running
    not_away = await fake.slash("alice", "back")
    assert not_away.ephemeral and not_away.content == "You are not away here, so there is nothing to end."
    assert fake.unsafe_pings() == [] and fake.rejected == []


async def test_a_move_ends_away_time(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake, "alice", "bob")
    other = await challenge(fake, "bob", "alice")  # bob to move: alice's seat waits for her turn
    await fake.slash("alice", "away", {"days": 1})
    assert (await bot.matches.get(2)).clock.away == (1,)  # type: ignore[union-attr]
    match = await bot.matches.get(1)
    move = bot.matches.game(match).legal_moves(match.state)[0]
    played = await fake.slash("alice", "fish move", {"move": f"{move}@{match.ply}"}, channel=thread)
    assert was_played(played)
    assert bot.matches.away.until(player(fake, "alice").id, fake.guild.id) is None
    said = "Alice moved and so is back; the clock runs again on Alice's turns."
    assert said in texts(fake, thread) and said in texts(fake, other)
    assert (await bot.matches.get(2)).clock.away == ()  # type: ignore[union-attr]


async def test_away_refuses_days_out_of_range_and_with_nothing_running_still_records(
    fake: DiscordFake, bot: GameBot
) -> None:
    for days in (0, 15):
        with pytest.raises(ValueError, match=r"min_value|max_value"):
            await fake.slash("alice", "away", {"days": days})
    reply = await fake.slash("alice", "away", {"days": 2})
    assert "None of your games here has a long clock" in (reply.content or "")
    assert bot.matches.away.until(player(fake, "alice").id, fake.guild.id) is not None
    thread = await challenge(fake, "bob", "alice")  # a game started while away waits for her turn too
    assert (await bot.matches.get(1)).clock.away == (1,)  # type: ignore[union-attr]
    assert any(t.startswith("Alice is away until <t:") for t in texts(fake, thread))
