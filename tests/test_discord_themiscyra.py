"""/themiscyra through the real discord.py code against the fake Discord: a challenge, turns picked from
the pairs-then-turns autocomplete, the board with shaded areas, and refusals that say which part failed."""

from __future__ import annotations

from typing import Any

from bot.discord_app import GameBot
from bot.games import GAMES
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, board_of, boards

THEMISCYRA = GAMES["themiscyra"]


async def challenge(fake: DiscordFake) -> Any:
    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    return fake.threads[-1]


async def test_autocomplete_offers_pairs_then_turns_and_a_setup_turn_is_played(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    assert thread.name == "Themiscyra #1: Alice vs Bob"
    (first,) = boards(fake, thread)
    assert first.attachments[0].data.startswith(PNG) and "Score" not in first.content

    pairs = await fake.autocomplete("alice", "themiscyra move", {"move": "e5"}, channel=thread)
    assert len(pairs) == 25 and all("e5" in c["name"].split() and "@" not in c["value"] for c in pairs)
    turns = await fake.autocomplete("alice", "themiscyra move", {"move": "e8 E5 "}, channel=thread)
    assert [c["name"] for c in turns] == ["e5 e8 @e5", "e5 e8 @e8"]
    assert [c["value"] for c in turns] == ["e5 e8 @e5@0", "e5 e8 @e8@0"]  # the ring's @ survives the ply

    played = await fake.slash("alice", "themiscyra move", {"move": turns[1]["value"]}, channel=thread)
    assert not played.ephemeral and "Alice places e5 and e8 and puts a ring on e8." in board_of(played).content
    assert f"<@{fake.user('bob')['id']}> to move" in boards(fake, thread)[-1].content
    typed = await fake.slash("bob", "themiscyra move", {"move": "A1 a3 @A3"}, channel=thread)
    assert "Bob places a1 and a3 and puts a ring on a3." in board_of(typed).content
    history = await fake.slash("carol", "themiscyra history", {"match": 1})
    assert "1. Alice: e5 e8 @e8" in (history.content or "") and "2. Bob: a1 a3 @a3" in (history.content or "")


async def test_the_board_can_shade_the_open_areas(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    plain = await fake.slash("carol", "themiscyra board", channel=thread)
    shaded = await fake.slash("carol", "themiscyra board", {"areas": True}, channel=thread)
    assert not shaded.ephemeral and shaded.files[0].data.startswith(PNG)
    assert shaded.files[0].data != plain.files[0].data


async def test_refusals_say_which_part_of_the_turn_failed(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    await fake.slash("alice", "themiscyra move", {"move": "e5 e8 @e8"}, channel=thread)
    before = await bot.matches.get(1)
    snapshot = (before.ply, THEMISCYRA.dumps(before.state), len(fake.channel_messages(thread)))
    cases = [
        ("alice", {"move": "a1 a2 @a1"}, "It is Bob's turn, not yours."),
        ("bob", {"move": "e5 e6 @e6"}, "e5 is taken: stones go on empty squares."),
        ("bob", {"move": "a1 b3 @a1"}, "a1 b3: the two stones must lie on one row, column or diagonal."),
        ("bob", {"move": "e4 e9 @e9"}, "e4 e9: e5 and e8 between them are not empty."),
        ("bob", {"move": "a1 a2 @c3"}, "@c3: the ring goes on one of the two stones you place (a1 a2)."),
        ("bob", {"move": "a1 a2 e8>a2"}, "Rings are still being placed (1 of 8 are down)"),
        ("bob", {"move": "k1 a2 @a2"}, "k1 is not on the board (columns a-j, rows 1-10)."),
        ("bob", {"move": "hello"}, "'hello' is not a turn"),
    ]
    for user, options, message in cases:
        reply = await fake.slash(user, "themiscyra move", options, channel=thread)
        assert reply.ephemeral and message in (reply.content or ""), (options, reply.content)
    after = await bot.matches.get(1)
    assert (after.ply, THEMISCYRA.dumps(after.state), len(fake.channel_messages(thread))) == snapshot
