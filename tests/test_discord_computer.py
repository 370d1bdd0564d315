"""Playing the computer through Discord: /fish challenge opponent:@the bot, a whole game, and lobbies
that fill seats with computers (the real discord.py code against tests/discord_fake/)."""

from __future__ import annotations

import random

from bot.discord_app import GameBot
from bot.games import GAMES
from bot.models import OVER
from tests.discord_fake import DiscordFake
from tests.discord_helpers import board_of, boards, custom_ids

FISH = GAMES["fish"]


async def test_a_whole_game_against_the_computer(fake: DiscordFake, bot: GameBot) -> None:
    assert bot.computers is not None
    reply = await fake.slash("alice", "fish challenge", {"opponent": fake.application_id, "level": "easy"})
    assert not reply.ephemeral and "against the computer (easy) is on" in (reply.content or "")
    thread = fake.threads[-1]
    assert "alice vs easy computer" in thread.name.lower()
    (match,) = bot.matches.running()
    rng = random.Random(7)
    while True:
        await bot.computers.idle()
        match = await bot.matches.get(match.id)
        if not match.running:
            break
        assert FISH.to_move(match.state) == 0, "the computer answered every move"
        move = rng.choice(FISH.legal_moves(match.state))
        played = await fake.slash("alice", "fish move", {"move": f"{move}@{match.ply}"}, channel=thread)
        assert board_of(played).content.startswith("Alice "), played.content  # answered with its board
    assert match.status == OVER and match.result is not None
    log = await bot.matches.moves(match.id)
    assert {record.seat for record in log} == {0, 1}
    posted = boards(fake, thread)
    assert len(posted) == len(log) + 1  # the first board, then one after every move, the computer's too
    assert any("Easy computer" in post.content and "places a token" in post.content for post in posted)
    assert "wins" in posted[-1].content or "draw" in posted[-1].content.lower()
    # Every board but the first went out through an interaction's webhook (the computer's replies too, as
    # followups of the move they answer): under no rate limit. The first is the one channel post.
    channel_posts = [r for r in fake.requests_to("POST", r"^/channels/\d+/messages$") if str(thread.id) in r.path]
    assert len(channel_posts) == 1, [str(r) for r in channel_posts]


async def test_other_bots_are_refused(fake: DiscordFake, bot: GameBot) -> None:
    other = fake.add_user("otherbot")
    other["bot"] = True
    fake.guild.members[int(other["id"])] = fake._new_member(other, [])
    refused = await fake.slash("alice", "fish challenge", {"opponent": "otherbot"})
    assert refused.ephemeral and "is a bot and cannot play" in (refused.content or "")
    assert bot.matches.running() == []


async def test_a_lobby_adds_computers_by_button_and_command_and_they_play(fake: DiscordFake, bot: GameBot) -> None:
    assert bot.computers is not None
    opened = await fake.slash("alice", "volcano new", {}, channel="games")
    lobby = opened.message
    assert "lobby:computer:1" in custom_ids(lobby)
    refused = await fake.click("bob", lobby, label="Add computer")
    assert refused.ephemeral and "Only Alice" in (refused.content or "")
    clicked = await fake.click("alice", lobby, label="Add computer")
    assert "Players (2/6): Alice, Computer." in (clicked.message.content if clicked.message else "")
    added = await fake.slash("alice", "volcano computer", {"level": "easy"}, channel="games")
    assert "Easy computer 2 joined." in (added.content or "")
    await fake.slash("alice", "volcano start", {}, channel="games")
    (match,) = bot.matches.running()
    assert [p.name for p in match.players] == ["Alice", "Computer", "Easy computer 2"]
    thread = fake.threads[-1]
    volcano = GAMES["volcano"]
    first = volcano.legal_moves(match.state)[0]
    await fake.slash("alice", "volcano move", {"move": f"{first}@{match.ply}"}, channel=thread)
    while (match := await bot.matches.get(match.id)).running and volcano.to_move(match.state) != 0:
        await bot.computers.idle()  # both computers take their turns, then it is Alice's again
    assert match.running and volcano.to_move(match.state) == 0
    seats = [record.seat for record in await bot.matches.moves(match.id)]
    assert seats[0] == 0 and {1, 2} <= set(seats)


async def test_a_moderator_may_seat_the_computer_in_a_death_match(fake: DiscordFake, bot: GameBot) -> None:
    assert bot.computers is not None
    options = {"player1": "alice", "player2": fake.application_id, "first": fake.application_id}
    started = await fake.slash("mod", "fish dm", options)
    assert "death match" in started.followups[0].content
    (match,) = bot.matches.running()
    assert [p.name for p in match.players] == ["Alice", "Computer"]
    await bot.computers.idle()  # the computer places first, at once
    match = await bot.matches.get(match.id)
    assert match.ply == 1 and FISH.to_move(match.state) == 0
