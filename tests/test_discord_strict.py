"""The bot against a fake Discord as strict as the real one (tests/discord_fake/): the worst realistic input
for every limit, failed sends that a match recovers from, direct messages, private refusals and pings.

The fake refuses what Discord refuses (a message over 2,000 characters, a choice over 100, a late answer)
and records it in `fake.rejected`, which fails the test when it ends: so a test here that passes means the
bot stayed within Discord's limits, not only that the bot said nothing about it.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import discord_app, i18n
from bot.clock import FakeTime
from bot.discord_app import DM_LINE, GameBot
from bot.games import GAMES
from bot.models import Place, Player
from bot.service import ServiceError
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, RATE_SCALE, boards, make_bot, was_played

VOLCANO, THEMISCYRA, HORIZON, FISH = GAMES["volcano"], GAMES["themiscyra"], GAMES["horizon"], GAMES["fish"]
SIX = ("alice", "bob", "carol", "dave", "erin", "frank")
RAW_MENTION = re.compile(r"@everyone|@here|<@[!&]?\d+>")


def long_name(user: str) -> str:
    """A nickname of exactly 32 characters, Discord's longest."""
    return f"{user.title()} the Magnificent Volcanologist"[:32].ljust(32, "!")


@pytest.fixture
async def fake() -> AsyncIterator[DiscordFake]:
    async with DiscordFake.serve(members=SIX, rate_scale=RATE_SCALE) as fake:
        yield fake


@pytest.fixture
async def bot(fake: DiscordFake, db_path: Path) -> AsyncIterator[GameBot]:
    running = make_bot(fake, db_path)
    running.hold_retries = ()  # tests that want the automatic retries set their own
    async with fake.run(running):
        yield running


def uid(fake: DiscordFake, name: str) -> int:
    return int(fake.user(name)["id"])


def quiet_steps(state: Any, count: int | None = None, chars: int | None = None) -> list[str]:
    """Steps that erupt nothing, one after another from `state`, until `count` of them or `chars` of text."""
    steps: list[str] = []
    seat = VOLCANO.to_move(state)
    while (count is None or len(steps) < count) and (chars is None or len(", ".join(steps)) < chars - 8):
        step = next((s for s in VOLCANO.legal_moves(state) if VOLCANO.to_move(VOLCANO.play(state, s)) == seat), None)
        if step is None:
            break
        steps.append(step)
        state = VOLCANO.play(state, step)
    return steps


async def mover_of(bot: GameBot, match_id: int, game: Any) -> str:
    match = await bot.matches.get(match_id)
    return match.players[game.to_move(match.state)].id


# --- the worst realistic input -------------------------------------------------------------------------


async def test_six_long_names_and_the_longest_quiet_turns_stay_within_every_limit(
    fake: DiscordFake, bot: GameBot
) -> None:
    for user in SIX:
        await fake.set_nick(user, long_name(user))
    await fake.slash("alice", "volcano new", channel="games")
    for user in SIX[1:]:
        joined = await fake.slash(user, "volcano join", channel="games")
        assert f"{long_name(user)} joined" in (joined.content or "")
    started = await fake.slash("alice", "volcano start", channel="games")
    assert "is on" in (started.content or "")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    assert match.names == tuple(long_name(u) for u in SIX) and len(thread.name) <= 100

    # A hand-built position: one filled nest under a cap, so long runs of quiet steps exist.
    match.state = VOLCANO.state_from_position({"a1": "R3G2", "b5": "R1Y1G1B1C1"}, "a1 e1 a5 e5 c3", seats=6)
    steps = quiet_steps(match.state, count=30)
    assert len(steps) == 30

    # Typing the turn step by step: every answer fits; once the turn passes 100 characters the only choice
    # is to send the steps so far, which the player picks, and then goes on from there.
    for k in range(0, 31, 2):
        typed = ", ".join(steps[:k]) + (", " if k else "")
        choices = await fake.autocomplete("alice", "volcano move", {"move": typed}, channel=thread)
        assert choices and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices), (k, choices)
    typed = ", ".join(steps[:20]) + ", "
    (offer,) = await fake.autocomplete("alice", "volcano move", {"move": typed}, channel=thread)
    sent, _, ply = offer["value"].rpartition("@")
    assert offer["name"].startswith("Send the first ") and ", then go on" in offer["name"] and ply == "0"
    assert typed.startswith(sent + ", ") and len(sent.split(", ")) >= 13
    played = await fake.slash("alice", "volcano move", {"move": offer["value"]}, channel=thread)
    assert was_played(played)
    board = boards(fake, thread)[-1]
    assert f"{long_name('alice')} steps {sent}: no eruption." in board.content
    assert board.pings.users == {uid(fake, "alice")} and not board.pings.unsafe

    # The rest of the 30, typed as one move, then a turn at the engine's own input cap (600 characters).
    rest = ", ".join(steps[len(sent.split(", ")) :])
    assert was_played(await fake.slash("alice", "volcano move", {"move": rest}, channel=thread))
    assert f"steps {rest}: no eruption." in boards(fake, thread)[-1].content
    longest = ", ".join(quiet_steps((await bot.matches.get(1)).state, chars=600))
    assert len(longest) > 550
    reply = await fake.slash("alice", "volcano move", {"move": longest}, channel=thread)
    assert was_played(reply)
    last = boards(fake, thread)[-1]
    assert f"steps {longest}: no eruption." in last.content and len(last.content) <= 2000
    assert (await bot.matches.get(1)).clock is None and fake.rejected == []


async def test_forty_running_matches_page_through_games_and_mod_list_and_other_servers_stay_out(
    fake: DiscordFake, bot: GameBot
) -> None:
    channel = fake.channel("games")
    players = [Player(f"discord:{uid(fake, u)}", long_name(u)) for u in SIX]
    fake.other_names |= {player.name for player in players}
    for _ in range(40):
        await bot.matches.create_match("volcano", players, place=Place(fake.guild.id, channel.id))
    elsewhere = await bot.matches.create_match("fish", players[:2], place=Place(4242, None))  # another server
    for command, user in (("games", "carol"), ("mod list", "mod")):
        seen: list[int] = []
        page = 1
        while True:
            reply = await fake.slash(user, command, {"page": page} if page > 1 else {}, channel="general")
            assert reply.ephemeral and len(reply.content or "") <= 2000
            seen += [int(n) for n in re.findall(r"^#(\d+) ", reply.content or "", re.M)]
            if "for the next" not in (reply.content or ""):
                break
            page += 1
        assert sorted(seen) == list(range(1, 41)) and page > 3, (command, page)
        assert elsewhere.id not in seen
    assert fake.rejected == []


async def test_a_whole_themiscyra_middle_game_autocompletes_within_the_limits(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    rng = random.Random(3)
    for _ in range(16):  # into the middle game: many stones and rings, thousands of turns
        match = await bot.matches.get(1)
        mover = match.players[THEMISCYRA.to_move(match.state)].id
        turn = rng.choice(THEMISCYRA.turns(match.state))
        await bot.matches.move(1, mover, str(turn), ply=match.ply)
    match = await bot.matches.get(1)
    user = "alice" if match.players[THEMISCYRA.to_move(match.state)].id.endswith(fake.user("alice")["id"]) else "bob"
    assert len(THEMISCYRA.legal_moves(match.state)) > 100
    pairs = await fake.autocomplete(user, "themiscyra move", {"move": ""}, channel=thread)
    assert 0 < len(pairs) <= 25
    for typed in [p["value"] for p in pairs] + ["a", "e5", "j10", "zz", "a1 a2 a3 a4 a5 a6 a7 " * 8]:
        choices = await fake.autocomplete(user, "themiscyra move", {"move": typed[:6000]}, channel=thread)
        assert len(choices) <= 25 and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    turns = await fake.autocomplete(user, "themiscyra move", {"move": pairs[0]["value"]}, channel=thread)
    assert turns and all(c["value"].endswith(f"@{match.ply}") for c in turns)
    assert fake.rejected == []


async def test_event_horizon_menus_at_game_end_answer_in_time_on_a_slow_network(
    fake: DiscordFake, bot: GameBot
) -> None:
    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    rng = random.Random(0)
    while True:  # random moves until a card placed from the menus ends the game
        match = await bot.matches.get(1)
        moves = HORIZON.legal_moves(match.state)
        ending = [m for m in moves if m.startswith("place") and HORIZON.outcome(HORIZON.play(match.state, m))]
        if ending:
            break
        # the match seed is secret and fresh, so any other move that would end the game is left out
        going_on = [m for m in moves if not HORIZON.outcome(HORIZON.play(match.state, m))]
        assert going_on, "every move ends the game, none by a card placed from the menus"
        await bot.matches.move(1, await mover_of(bot, 1, HORIZON), rng.choice(going_on), ply=match.ply)
    _, card, space = ending[0].split()
    user = "alice" if (await mover_of(bot, 1, HORIZON)).endswith(fake.user("alice")["id"]) else "bob"
    menu = await fake.slash(user, "horizon play", channel=thread)
    await fake.select(user, menu.message, f"hz-card:1:{match.ply}", [card])

    fake.latency = 0.6  # every request: the board post, the old board's buttons, the GIF all take longer
    done = await fake.select(user, menu.message, f"hz-space:1:{match.ply}:{card}", [space], wait=False)
    callback = await done.wait_callback(timeout=3)
    assert callback.type == 6  # acknowledged at once, before the move is played and posted
    await fake.wait_for_message(lambda m: any(a.filename.endswith(".gif") for a in m.attachments), channel=thread)
    await done.wait(timeout=20)
    fake.latency = 0.0
    assert "Played:" in (menu.message.content or "")
    final = boards(fake, thread)[-1]
    replay = fake.channel_messages(thread)[-1]
    assert "Game over" in final.content and replay.id > final.id and replay.attachments[0].data[:3] == b"GIF"
    assert not (await bot.matches.get(1)).running and fake.rejected == []


# --- failed sends ----------------------------------------------------------------------------------


async def challenge(fake: DiscordFake, clock: str | None = "30/60") -> Any:
    options: dict[str, Any] = {"opponent": "bob", **({"clock": clock} if clock else {})}
    asked = await fake.slash("alice", "fish challenge", options, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    return fake.threads[-1]


async def move(fake: DiscordFake, bot: GameBot, channel: Any = "games") -> Any:
    """The player to move plays their first legal move (from `channel`, naming the match)."""
    match = await bot.matches.get(1)
    seat = FISH.to_move(match.state)
    user = "alice" if seat == 0 else "bob"
    legal = FISH.legal_moves(match.state)[0]
    return await fake.slash(user, "fish move", {"move": f"{legal}@{match.ply}", "match": 1}, channel=channel)


@pytest.mark.parametrize("trouble", ["deleted", "locked"])
async def test_a_thread_that_went_away_or_was_locked_gives_way_to_a_new_one(
    fake: DiscordFake, bot: GameBot, trouble: str
) -> None:
    old = await challenge(fake)
    await move(fake, bot)
    if trouble == "deleted":
        await fake.delete_channel(old)
    else:
        await fake.lock_thread(old)
    reply = await move(fake, bot)
    assert was_played(reply)
    new = fake.threads[-1]
    assert new.id != old.id and new.parent_id == fake.channel("games").id
    note, board = fake.channel_messages(new)[:2]
    assert "Match #1" in note.content and "goes on here" in note.content and board.attachments
    match = await bot.matches.get(1)
    assert match.place.thread_id == new.id and match.held is None
    assert match.clock is not None and match.clock.running  # the clock started with the board in the new thread
    assert was_played(await move(fake, bot, channel=new))
    assert len(boards(fake, new)) == 2


async def test_an_archived_thread_is_posted_in_again(fake: DiscordFake, bot: GameBot) -> None:
    thread = await challenge(fake)
    await move(fake, bot)
    await fake.archive(thread)  # a day without a move
    assert was_played(await move(fake, bot))
    assert not thread.archived and len(boards(fake, thread)) == 3 and fake.threads == [thread]


async def test_a_board_that_cannot_be_posted_anywhere_holds_the_match_until_a_repost(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await challenge(fake)
    await move(fake, bot)
    games = fake.channel("games")
    await fake.delete_channel(thread)
    fake.forbid(games)  # and the bot lost Send Messages in the channel
    played = await move(fake, bot)
    assert was_played(played)  # the move stands; its board has nowhere to go
    match = await bot.matches.get(1)
    assert match.held is not None and match.clock is not None and not match.clock.running
    refused = await move(fake, bot)
    assert refused.ephemeral and "on hold" in (refused.content or "") and match.ply == 2
    listed = await fake.slash("mod", "mod list", channel="general")
    assert "on hold" in (listed.content or "")
    still = await fake.slash("mod", "mod repost", {"match": 1}, channel="general")
    assert still.ephemeral and "could not be posted anywhere" in (still.content or "")

    fake.allow(games)
    repost = await fake.slash("mod", "mod repost", {"match": 1}, channel="general")
    assert repost.ephemeral and (repost.content or "").startswith("Done")
    match = await bot.matches.get(1)
    assert match.held is None and match.clock is not None and match.clock.running
    new = fake.threads[-1]
    assert match.place.thread_id == new.id and boards(fake, new)
    assert was_played(await move(fake, bot, channel=new))


async def test_a_failing_discord_holds_the_match_and_the_bot_retries_by_itself(fake: DiscordFake, bot: GameBot) -> None:
    bot.hold_retries = (0.3, 0.3)
    thread = await challenge(fake)
    fake.fail_next("POST", rf"^/channels/{thread.id}/messages$", 503, count=1)
    assert was_played(await move(fake, bot))
    assert (await bot.matches.get(1)).held is not None
    await fake.wait_until(lambda: bot.matches.running_match(1).held is None, what="the retried board")  # type: ignore[union-attr]
    match = await bot.matches.get(1)
    assert len(boards(fake, thread)) == 2
    assert match.held is None and match.clock is not None and match.clock.running
    assert "can post here again" in boards(fake, thread)[-1].content
    assert fake.threads == [thread]  # Discord's 5xx is no reason to move the match


async def test_accepting_a_challenge_whose_challenger_left_says_so(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.remove_member("alice")
    reply = await fake.click("bob", asked.message, label="Accept")
    assert "left the server" in (reply.content or "") and reply.components == []
    assert bot.matches.running() == [] and fake.threads == []


# --- direct messages, private refusals, pings ------------------------------------------------------


async def test_every_command_is_a_server_command_and_a_dm_gets_one_line(fake: DiscordFake, bot: GameBot) -> None:
    await challenge(fake)
    commands = fake.commands(fake.guild)
    assert commands and all(c.get("contexts") == [0] and c.get("integration_types") == [0] for c in commands)
    with pytest.raises((LookupError, PermissionError)):
        await fake.slash("carol", "games", dm=True)  # Discord does not even offer it there
    for command in ("games", "mod list", "fish board", "fish rules", "leaderboard"):
        user = "mod" if command.startswith("mod") else "carol"
        options = {"game": "fish"} if command == "leaderboard" else {}
        reply = await fake.slash(user, command, options, dm=True, force=True)  # an old client does anyway
        assert reply.content == DM_LINE and "#1" not in (reply.content or "")
    assert await fake.autocomplete("alice", "fish move", {"move": ""}, dm=True, force=True) == []
    assert (await bot.matches.get(1)).ply == 0


async def test_a_refusal_after_a_public_deferral_stays_private(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fake.slash("alice", "volcano new", channel="games")
    await fake.slash("bob", "volcano join", channel="games")
    early = await fake.slash("bob", "volcano start", {"lobby": 1}, channel="games")  # decided before deferring
    assert early.ephemeral and "Only Alice, who opened lobby #1" in (early.content or "")

    async def refuse_match(*args: Any, **kwargs: Any) -> Any:
        raise ServiceError(i18n.typed("No room for another match right now."))  # the test's own words

    monkeypatch.setattr(bot.matches, "create_match", refuse_match)  # a refusal only known after the deferral
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    reply = await fake.click("bob", asked.message, label="Accept", wait=False)
    (followup,) = await reply.wait_followups(1)
    assert followup.ephemeral and "No room for another match" in followup.content
    assert reply.type == 6 and reply.message is asked.message and not asked.message.deleted  # a silent answer
    assert asked.message.custom_ids  # and the challenge can still be accepted once there is room
    public = [m.content for m in fake.channel_messages("games")]
    assert not any("No room" in text for text in public)


async def test_pings_reach_only_the_player_to_move_whatever_the_nicknames(fake: DiscordFake, bot: GameBot) -> None:
    alice, bob = uid(fake, "alice"), uid(fake, "bob")
    moderator_role = fake.guild.role("Moderator")["id"]
    await fake.set_nick("bob", f"<@{alice}> @everyone"[:32])
    await fake.set_nick("mod", f"@everyone <@&{moderator_role}>"[:32])
    thread = await challenge(fake, clock=None)
    asked = fake.channel_messages("games")[0]
    assert asked.pings.users == {bob} and not asked.pings.unsafe  # the challenge pings the challenged only
    for _ in range(4):
        await move(fake, bot, channel=thread)
    for board in boards(fake, thread):
        mover = alice if f"<@{alice}> to move" in board.content else bob
        assert board.pings.users == {mover} and not board.pings.unsafe, board.content
        assert board.allowed_mentions == {"parse": [], "users": [mover]}  # said, not left to the default
    names = [m for m in fake.channel_messages(thread) if "@\u200beveryone" in m.content]
    assert names and all(f"<\u200b@{alice}>" in m.content for m in names)  # bob's name, shown inert

    started = await fake.slash("mod", "fish dm", {"player1": "alice", "player2": "carol", "first": "carol"})
    (announcement,) = [m for m in fake.channel_messages("general") if "death match" in m.content]
    carol = uid(fake, "carol")
    assert announcement.pings.users == {alice, carol} and not announcement.pings.unsafe
    others = announcement.content.replace(f"<@{alice}>", "").replace(f"<@{carol}>", "")
    assert RAW_MENTION.search(others) is None and "@\u200beveryone" in others  # the moderator's name, inert
    assert "death match" in started.followups[0].content and fake.unsafe_pings() == []


async def test_every_name_the_bot_stores_is_inert(fake: DiscordFake, bot: GameBot) -> None:
    await fake.set_nick("alice", "@here <@&1> <#2>")
    await challenge(fake, clock=None)
    match = await bot.matches.get(1)
    assert RAW_MENTION.search(match.names[0]) is None and match.names[0].replace("\u200b", "") == "@here <@&1> <#2>"
    assert discord_app.limits.neutral(match.names[0]) == match.names[0]
    await asyncio.sleep(0)
    assert boards(fake, fake.threads[-1])[0].attachments[0].data.startswith(PNG)


async def test_after_a_restart_a_match_that_cannot_be_posted_waits_unflagged(fake: DiscordFake, db_path: Path) -> None:
    clock = FakeTime(time.time())  # the bot's clock moves only when told: a slow machine flags nothing
    bot = make_bot(fake, db_path)
    bot.time = clock
    async with fake.run(bot):
        await challenge(fake, clock="1/0")  # a one-second clock: any time charged would flag it at once
        await move(fake, bot)
    games = fake.channel("games")
    await fake.delete_channel(fake.threads[-1])
    fake.forbid(games)
    restarted = make_bot(fake, db_path)
    restarted.time = clock
    restarted.hold_retries = ()
    async with fake.run(restarted):
        await fake.wait_until(lambda: (m := restarted.matches.running_match(1)) is not None and m.held is not None)
        clock.advance(3)  # past the 1 s allowance and its grace: no flag for a board nobody saw
        await asyncio.sleep(0.05)  # the flag scheduler would have run
        match = await restarted.matches.get(1)
        assert match.running and match.clock is not None and not match.clock.running
        fake.allow(games)
        repost = await fake.slash("mod", "mod repost", {"match": 1}, channel="general")
        assert (repost.content or "").startswith("Done")
        assert (await restarted.matches.get(1)).clock.running  # type: ignore[union-attr]
        assert boards(fake, fake.threads[-1])


async def test_threads_archive_after_a_week_and_are_reopened_to_take_buttons_off(
    fake: DiscordFake, bot: GameBot
) -> None:
    """Games by post go days between moves: a match's thread asks for Discord's longest auto-archive (a
    week), and an old board in an archived thread loses its buttons after the bot reopens the thread
    (Discord refuses to edit a message in an archived thread)."""
    thread = await challenge(fake)
    assert thread.auto_archive_duration == 10080
    board = boards(fake, thread)[-1]
    assert board.components
    await fake.archive(thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id) is None, what="THREAD_UPDATE")  # leaves the cache
    await bot._strip_buttons(thread.id, board.id)
    assert not board.components and not thread.archived
