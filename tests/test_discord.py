"""The Discord front-end driven through the real discord.py code against a local fake of the Discord API
(tests/discord_fake/): players, spectators and moderators as they would use the bot."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.clock import FakeTime
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.models import OVER
from tests.conftest import eventually
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, board_of, boards, custom_ids, make_bot, was_played

FISH = GAMES["fish"]


async def start_challenge(fake: DiscordFake, clock: str | None = None) -> Any:
    """alice challenges bob and bob accepts; returns the match thread."""
    options: dict[str, Any] = {"opponent": "bob"}
    if clock:
        options["clock"] = clock
    challenge = await fake.slash("alice", "fish challenge", options)
    assert not challenge.ephemeral and "challenges you" in (challenge.content or "")
    accepted = await fake.click("bob", challenge.message, label="Accept")
    assert "is on" in (accepted.content or "")
    return fake.threads[-1]


async def play(fake: DiscordFake, bot: GameBot, match_id: int, channel: Any, plies: int | None = None) -> None:
    """Play random legal moves as whoever is to move, through /fish move with the board's ply."""
    rng = random.Random(match_id)
    played = 0
    while (match := await bot.matches.get(match_id)).running and (plies is None or played < plies):
        seat = FISH.to_move(match.state)
        user = match.players[seat].name.lower()  # display names are capitalised ("Alice")
        move = rng.choice(FISH.legal_moves(match.state))
        reply = await fake.slash(user, "fish move", {"move": f"{move}@{match.ply}"}, channel=channel)
        if match.clock is not None and not (await bot.matches.get(match_id)).running:
            # a 1-second clock on a loaded machine: the flag may fall between looking and moving
            assert was_played(reply) or (reply.content or "").startswith(("Too late", f"Match #{match_id} is over"))
            return
        assert was_played(reply), reply.content
        played += 1


async def test_a_challenge_is_accepted_and_played_in_its_own_thread(fake: DiscordFake, bot: GameBot) -> None:
    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    refused = await fake.click("carol", challenge.message, label="Accept")
    assert refused.ephemeral and "not yours to accept" in (refused.content or "") and fake.threads == []
    thread = await start_challenge(fake)
    assert "alice vs bob" in thread.name.lower()
    (first,) = boards(fake, thread)
    assert first.attachments[0].data.startswith(PNG)
    assert "alice" in first.content.lower() and "to move" in first.content
    assert {"moves:1:0", "resign:1"} <= set(custom_ids(first))

    choices = await fake.autocomplete("alice", "fish move", {"move": "a"}, channel=thread)
    assert 0 < len(choices) <= 25 and all(c["name"].startswith("A") and c["value"].endswith("@0") for c in choices)
    assert await fake.autocomplete("bob", "fish move", {"move": ""}, channel=thread) == []  # not bob's turn

    reply = await fake.slash("alice", "fish move", {"move": choices[0]["value"]}, channel=thread)
    first_again, second = boards(fake, thread)
    assert board_of(reply) is second  # the answer is the new board (itself, or after "Played" if the move was slow)
    bob = int(fake.user("bob")["id"])
    assert f"Alice places a token on {choices[0]['name']}" in second.content and bob in second.pings.users
    assert second.attachments[0].data.startswith(PNG)
    assert {"moves:1:0", "resign:1"} <= set(custom_ids(first_again))  # kept: taking them off costs a request
    stale = await fake.click("bob", first_again, "moves:1:0")
    assert stale.ephemeral and "out of date" in (stale.content or "")


async def test_every_kind_of_bad_command_is_refused_privately_and_changes_nothing(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread, plies=1)  # so that a move "@0" comes from an old board
    before = await bot.matches.get(1)
    snapshot = (before.ply, FISH.dumps(before.state), len(fake.channel_messages(thread)))
    seat = FISH.to_move(before.state)
    mover, other = before.players[seat].name.lower(), before.players[1 - seat].name.lower()
    legal = FISH.legal_moves(before.state)[0]
    cases = [
        (other, "fish move", {"move": legal}, "not yours"),
        ("carol", "fish move", {"move": legal, "match": 1}, "You are not playing in match #1"),
        (mover, "fish move", {"move": "A1-B1"}, "tokens are still being placed"),
        (mover, "fish move", {"move": "Z9"}, "is not"),
        (mover, "fish move", {"move": f"{legal}@0"}, "changed since you looked"),
        (mover, "fish board", {"match": 99}, "There is no match #99"),
        ("alice", "fish challenge", {"opponent": "alice"}, "cannot challenge yourself"),
        ("alice", "fish challenge", {"opponent": "bob", "clock": "fast"}, "like 30/60"),
        ("alice", "fish challenge", {"opponent": "bob", "clock": "0/60"}, "move clock must be"),
        ("mod", "fish dm", {"player1": "alice", "player2": "alice", "first": "alice"}, "two different players"),
        ("mod", "fish dm", {"player1": "alice", "player2": "bob", "first": "carol"}, "not one of the two players"),
        ("alice", "fish dm", {"player1": "alice", "player2": "bob", "first": "alice"}, "Only moderators"),
    ]
    for user, command, options, message in cases:
        reply = await fake.slash(user, command, options, channel=thread)
        assert reply.ephemeral, (command, options, reply.content)
        assert message in (reply.content or ""), (command, options, reply.content)
    after = await bot.matches.get(1)
    assert (after.ply, FISH.dumps(after.state), len(fake.channel_messages(thread))) == snapshot
    assert bot.matches.running() == [after]  # no death match was started by the refused /fish dm


async def test_mod_is_not_offered_to_members_and_refused_to_them_anyway(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake, clock="30/60")
    before = await bot.matches.get(1)
    (mod,) = [c for c in fake.commands(fake.guild.id) if c["name"] == "mod"]
    assert int(mod["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    with pytest.raises(PermissionError, match="alice cannot use /mod"):
        await fake.slash("alice", "mod list", channel=thread)  # Discord does not even offer it to her
    fake.allow_command("mod", "alice")  # an admin let her see it: the bot still checks every use
    for command, options in [
        ("mod list", {}),
        ("mod pause", {}),
        ("mod resume", {}),
        ("mod addtime", {"player": "alice", "seconds": 30}),
        ("mod undo", {}),
        ("mod abort", {}),
        ("mod adjudicate", {"winner": "alice"}),
        ("mod repost", {}),
    ]:
        reply = await fake.slash("alice", command, options, channel=thread)
        assert reply.ephemeral and "Only moderators" in (reply.content or ""), command
    after = await bot.matches.get(1)
    assert after.running and after.clock == before.clock and after.ply == before.ply
    assert await bot.matches.store.actions(1) == []


async def test_board_moves_history_rules_games_and_resign(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    await play(fake, bot, 1, thread, plies=3)
    board = await fake.slash("carol", "fish board", {"match": 1}, channel="general")  # a spectator, elsewhere
    assert not board.ephemeral and board.files[0].data.startswith(PNG)
    moves = await fake.slash("bob", "fish moves", channel=thread)
    assert moves.ephemeral and " legal moves in " in (moves.content or "")
    history = await fake.slash("carol", "fish history", {"match": 1})
    assert history.ephemeral and "1. Alice:" in (history.content or "") and "3. Alice:" in (history.content or "")
    rules = await fake.slash("carol", "fish rules")
    assert rules.ephemeral and "straight line" in (rules.content or "") and rules.files[0].data.startswith(PNG)
    games = await fake.slash("carol", "games")
    assert "#1" in (games.content or "") and "Alice vs Bob" in (games.content or "")

    current = boards(fake, thread)[-1]
    ask = await fake.click("bob", current, "resign:1")
    assert ask.ephemeral and "Resign match #1?" in (ask.content or "")
    done = await fake.click("bob", ask.message, "resign-yes:1")
    assert done.ephemeral and "You resigned" in (done.content or "")
    *older, last_running, final = boards(fake, thread)
    assert "Alice wins (Bob resigned)" in final.content and custom_ids(final) == []
    assert custom_ids(last_running) == []  # the last board of the game loses its buttons at the end
    assert custom_ids(older[0]) != []  # older ones keep theirs (one edit each is not worth it), and say so:
    late = await fake.click("bob", older[0], label="Resign")
    assert late.ephemeral and "already over" in (late.content or "")
    assert (await bot.matches.get(1)).status == OVER


async def until_clock_runs(bot: GameBot, match_id: int) -> float:
    """When the turn's flag falls, once the bot has started its clock (the board is up)."""
    await eventually(
        lambda: (
            (m := bot.matches.running_match(match_id)) is not None
            and m.clock is not None
            and m.clock.flag_time() is not None
        )
    )
    match = bot.matches.running_match(match_id)
    assert match is not None and match.clock is not None
    flag_time = match.clock.flag_time()
    assert flag_time is not None
    return flag_time


async def test_a_whole_death_match_with_a_flag_a_pause_added_time_and_a_restart(
    fake: DiscordFake, db_path: Path
) -> None:
    # The bot's clock is a fake one: a 1 s clock flags when the test says, never because the machine was slow.
    clock = FakeTime(time.time())
    bot = make_bot(fake, db_path)
    bot.time = clock
    async with fake.run(bot):
        started = await fake.slash(
            "mod",
            "fish dm",
            {"player1": "alice", "player2": "bob", "first": "alice", "move_seconds": 1, "reserve_seconds": 1},
        )
        (announced,) = started.followups  # a new message, so it pings (filling "thinking…" would not)
        assert not announced.ephemeral and "death match" in announced.content and started.message.deleted
        thread = fake.threads[-1]
        # Game 1: alice never moves and is flagged without anyone asking; game 2 starts with bob placing first.
        first_game = (await bot.matches.registry.get_series(1)).games[0]
        flag_time = await until_clock_runs(bot, first_game)
        clock.advance(flag_time - clock.now() - 0.01)
        await asyncio.sleep(0.05)
        assert bot.matches.running_match(first_game) is not None  # a hair before its flag time: still on
        clock.advance(0.02)
        flag = await fake.wait_for_message(lambda m: "reserve time ran out" in m.content, channel=thread)
        assert "Bob wins (Alice's reserve time ran out)" in flag.content and flag.attachments
        game2 = await fake.wait_for_message(lambda m: "game 2 of the death match" in m.content, channel=thread)
        assert "<@" in game2.content.split("to move")[0].splitlines()[-1]
        series = await bot.matches.registry.get_series(1)
        assert series.wins == [0, 1] and len(series.games) == 2
        match_id = series.games[1]

        # Moderators: generous time for both, then a pause that refuses moves, then resume.
        for name in ("alice", "bob"):
            reply = await fake.slash("mod", "mod addtime", {"player": name, "seconds": 3600}, channel=thread)
            assert reply.ephemeral and f"+1:00:00 for {name.title()}" in (reply.content or "")
        assert any("Mod gave +1:00:00 for Bob" in m.content for m in fake.channel_messages(thread))
        await fake.slash("mod", "mod pause", channel=thread)
        assert any("Mod paused the match" in m.content for m in fake.channel_messages(thread))
        refused = await fake.slash(
            "bob", "fish move", {"move": FISH.legal_moves((await bot.matches.get(match_id)).state)[0]}, channel=thread
        )
        assert refused.ephemeral and "paused" in (refused.content or "")
        await fake.slash("mod", "mod resume", channel=thread)
        await play(fake, bot, match_id, thread, plies=10)

        # A restart in the middle: a new bot on the same database reposts the board and carries on.
        ply_before = (await bot.matches.get(match_id)).ply
        reserves_before = (await bot.matches.get(match_id)).clock.reserves  # type: ignore[union-attr]
    restarted = make_bot(fake, db_path)
    restarted.time = clock
    async with fake.run(restarted):
        back = await fake.wait_for_message(lambda m: "back after a restart" in m.content, channel=thread)
        assert back.attachments and back.attachments[0].data.startswith(PNG)
        resumed = await restarted.matches.get(match_id)
        assert resumed.ply == ply_before and resumed.clock is not None and resumed.clock.reserves == reserves_before
        await play(fake, restarted, match_id, thread)
        while (series := await restarted.matches.registry.get_series(1)).status != OVER:
            await play(fake, restarted, series.games[-1], thread)
        assert max(series.wins) == 2 or len(series.games) == 3
        moves = sum([len(await restarted.matches.store.log(game)) for game in series.games])
        await fake.wait_for_message(
            lambda m: "the death match" in m.content and ("wins" in m.content or "drawn" in m.content), channel=thread
        )
    posts = [m for m in fake.channel_messages(thread) if "to move" in m.content or "Game over" in m.content]
    # a board for every move, every game's start, the flag and the restart (games are random: count them)
    assert len(posts) == moves + len(series.games) + 2
    for post in posts:  # each board post carries its image
        assert post.attachments and post.attachments[0].data.startswith(PNG), post.content


async def test_only_the_application_owner_can_sync_commands_globally(fake: DiscordFake, bot: GameBot) -> None:
    mention = f"<@{fake.bot_user['id']}>"
    await fake.say("alice", f"{mention} sync")
    refused = await fake.wait_for_message(lambda m: "Only the bot's owner" in m.content)
    await fake.say("owner", f"{mention} sync")
    await fake.say("owner", f"{mention} hello")  # not a command: ignored
    reply = await fake.wait_for_message(lambda m: m.content.startswith("Synced"))
    assert reply.content == f"Synced {len(fake.commands(None))} commands globally."
    games = {"fish", "volcano", "themiscyra", "geyser", "horizon"}
    others = {"mod", "games", "leaderboard", "stats", "notify", "mygames", "away", "back", "settings", "tournament"}
    assert {c["name"] for c in fake.commands(None)} == games | others
    assert refused.channel_id == reply.channel_id and fake.errors == []


async def test_without_thread_permission_the_match_is_played_in_the_channel(fake: DiscordFake, db_path: Path) -> None:
    no_threads = ~discord.Permissions(create_public_threads=True).value
    for role in fake.guild.roles:
        role["permissions"] = str(int(role["permissions"]) & no_threads)
    async with fake.run(make_bot(fake, db_path)):
        await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
        challenge = fake.channel_messages("games")[-1]
        await fake.click("bob", challenge, label="Accept")
        assert fake.threads == []
        (board,) = boards(fake, "games")
        assert board.attachments[0].data.startswith(PNG) and "to move" in board.content
