"""/volcano through the real discord.py code against the fake Discord: lobbies, steps and whole turns,
resignations that let the others play on, solitaire and its best scores."""

from __future__ import annotations

import random
from typing import Any

from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.volcano import latin_layout
from bot.models import OVER
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, boards, custom_ids, was_played

VOLCANO = GAMES["volcano"]


async def open_game(fake: DiscordFake, players: list[str], options: dict[str, Any] | None = None) -> Any:
    """players[0] opens a lobby in #games, the others join, players[0] starts it; returns the thread."""
    lobby = await fake.slash(players[0], "volcano new", options or {}, channel="games")
    assert not lobby.ephemeral and "Volcano lobby #" in (lobby.content or ""), lobby.content
    for name in players[1:]:
        joined = await fake.slash(name, "volcano join", channel="games")
        assert not joined.ephemeral and f"{name.title()} joined" in (joined.content or ""), joined.content
    started = await fake.slash(players[0], "volcano start", channel="games")
    assert "is on" in (started.content or ""), started.content
    return fake.threads[-1]


async def step(fake: DiscordFake, bot: GameBot, match_id: int, move: str, channel: Any) -> Any:
    match = await bot.matches.get(match_id)
    user = match.players[VOLCANO.to_move(match.state)].name.lower()
    reply = await fake.slash(user, "volcano move", {"move": f"{move}@{match.ply}"}, channel=channel)
    assert was_played(reply), reply.content
    return reply


def quiet_step(state: Any) -> str:
    """A step that erupts nothing, so the turn stays with the same player."""
    seat = VOLCANO.to_move(state)
    return next(m for m in VOLCANO.legal_moves(state) if VOLCANO.to_move(VOLCANO.play(state, m)) == seat)


async def test_a_lobby_fills_with_buttons_and_commands_and_its_creator_starts_it(
    fake: DiscordFake, bot: GameBot
) -> None:
    opened = await fake.slash("alice", "volcano new", {"opening": "x", "layout": "classic"}, channel="games")
    lobby = opened.message
    assert "Volcano lobby #1, opened by Alice (layout classic, opening x)" in lobby.content
    assert "Players (1/6): Alice." in lobby.content
    assert custom_ids(lobby) == ["lobby:join:1", "lobby:leave:1", "lobby:computer:1", "lobby:start:1"]

    refused = await fake.click("bob", lobby, label="Start")
    assert refused.followups[0].ephemeral and "Only Alice, who opened lobby #1" in refused.followups[0].content
    again = await fake.click("alice", lobby, label="Join")
    assert again.ephemeral and "already in lobby #1" in (again.content or "")
    await fake.click("bob", lobby, label="Join")
    assert "Players (2/6): Alice, Bob." in lobby.content  # the lobby message itself shows who joined
    joined = await fake.slash("carol", "volcano join", channel="games")
    assert "Carol joined" in (joined.content or "") and "Players (3/6): Alice, Bob, Carol." in joined.content
    assert "You have no open Volcano lobby" in ((await fake.slash("bob", "volcano start")).content or "")
    assert bot.matches.running() == []

    await fake.click("alice", lobby, label="Start")
    assert "Started as match #1." in lobby.content and custom_ids(lobby) == []
    thread = fake.threads[-1]
    assert thread.name == "Volcano #1: Alice vs Bob vs Carol"
    (board,) = boards(fake, thread)
    assert board.attachments[0].data.startswith(PNG) and "Alice vs Bob vs Carol" in board.content
    assert f"<@{fake.user('alice')['id']}> to move" in board.content
    match = await bot.matches.get(1)
    assert match.state.opening == "x" and match.state.layout == "classic" and match.names == ("Alice", "Bob", "Carol")


async def test_steps_keep_the_turn_until_an_eruption_and_autocomplete_continues_a_turn(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await open_game(fake, ["alice", "bob"], {"layout": "classic"})
    state = (await bot.matches.get(1)).state
    choices = await fake.autocomplete("alice", "volcano move", {"move": ""}, channel=thread)
    assert {c["name"] for c in choices} == set(VOLCANO.legal_moves(state)[:25]) and choices[0]["value"].endswith("@0")
    assert await fake.autocomplete("bob", "volcano move", {"move": ""}, channel=thread) == []

    first = quiet_step(state)
    typed = await fake.autocomplete("alice", "volcano move", {"move": f"{first}, "}, channel=thread)
    after = VOLCANO.play(state, first)
    assert [c["name"] for c in typed] == [f"{first}, {m}" for m in VOLCANO.legal_moves(after)][:25]
    assert all(c["value"].endswith("@0") for c in typed)

    await step(fake, bot, 1, first, thread)  # no eruption: Alice is still to move, the step shows
    posted = boards(fake, thread)[-1]
    assert f"<@{fake.user('alice')['id']}> to move" in posted.content and posted.attachments
    stale = await fake.click("alice", boards(fake, thread)[0], label="My moves")  # older boards keep buttons
    assert stale.ephemeral and "out of date" in (stale.content or "")
    # A whole turn in one command: another quiet step, then one that erupts and hands the turn to Bob.
    state = (await bot.matches.get(1)).state
    quiet = quiet_step(state)
    between = VOLCANO.play(state, quiet)
    erupting = next(m for m in VOLCANO.legal_moves(between) if VOLCANO.to_move(VOLCANO.play(between, m)) == 1)
    await step(fake, bot, 1, f"{quiet}, {erupting}", thread)
    assert VOLCANO.to_move((await bot.matches.get(1)).state) == 1
    assert f"<@{fake.user('bob')['id']}> to move" in boards(fake, thread)[-1].content
    history = await fake.slash("carol", "volcano history", {"match": 1})
    assert "1. Alice: " in (history.content or "") and "2. Alice: " in (history.content or "")


async def test_bad_volcano_commands_are_refused_privately_and_change_nothing(fake: DiscordFake, bot: GameBot) -> None:
    thread = await open_game(fake, ["alice", "bob"])
    before = await bot.matches.get(1)
    snapshot = (before.ply, VOLCANO.dumps(before.state), len(fake.channel_messages(thread)))
    cases = [
        ("alice", "volcano new", {"opening": "zigzag"}, "opening 'zigzag' is neither one of"),
        ("alice", "volcano new", {"layout": "RRRR"}, "layout needs 25 colour letters"),
        ("alice", "volcano new", {"layout": "purple"}, "may only hold the colour letters"),
        ("alice", "volcano new", {"opening": "a1 a1 b2 c3 d4"}, "a1 is named twice"),
        ("bob", "volcano move", {"move": VOLCANO.legal_moves(before.state)[0]}, "not yours"),
        ("carol", "volcano move", {"move": "a1-b1", "match": 1}, "You are not playing in match #1"),
        ("alice", "volcano move", {"move": "a1-a9"}, "a9 is not on the board"),
        ("alice", "volcano move", {"move": "c3-c4, c4"}, "'c4' is not a step"),
        ("carol", "volcano join", {}, "There is no Volcano lobby to join in this channel"),
        ("carol", "volcano join", {"lobby": 1}, "Lobby #1 is started"),
        ("carol", "volcano leave", {}, "You are not in an open Volcano lobby"),
        ("carol", "volcano best", {"opening": "zigzag"}, "opening 'zigzag' is neither one of"),
    ]
    for user, command, options, message in cases:
        reply = await fake.slash(user, command, options, channel=thread)
        assert reply.ephemeral, (command, options, reply.content)
        assert message in (reply.content or ""), (command, options, reply.content)
    after = await bot.matches.get(1)
    assert (after.ply, VOLCANO.dumps(after.state), len(fake.channel_messages(thread))) == snapshot
    assert await bot.matches.lobbies.open_lobbies(fake.guild.id) == []


async def test_a_resigned_player_keeps_their_captures_and_play_passes_on(fake: DiscordFake, bot: GameBot) -> None:
    thread = await open_game(fake, ["alice", "bob", "carol"])
    ask = await fake.click("bob", boards(fake, thread)[-1], "resign:1")
    assert ask.ephemeral and "the others play on" in (ask.content or "")
    done = await fake.click("bob", ask.message, "resign-yes:1")
    assert done.ephemeral and "You resigned" in (done.content or "")
    after = boards(fake, thread)[-1]
    assert "Bob resigns." in after.content and f"<@{fake.user('alice')['id']}> to move" in after.content
    match = await bot.matches.get(1)
    assert match.running and match.state.resigned == {1}

    # Alice finishes her turn: the turn skips Bob and goes to Carol.
    while VOLCANO.to_move((match := await bot.matches.get(1)).state) == 0:
        await step(fake, bot, 1, VOLCANO.legal_moves(match.state)[0], thread)
    assert VOLCANO.to_move(match.state) == 2
    again = await fake.slash("bob", "volcano resign", channel=thread)
    twice = await fake.click("bob", again.message, "resign-yes:1")
    assert twice.ephemeral and "You have already resigned from match #1" in (twice.content or "")
    history = await fake.slash("alice", "volcano history", channel=thread)
    assert "Bob resigned; the others play on" in (history.content or "")

    ask = await fake.slash("carol", "volcano resign", channel=thread)
    await fake.click("carol", ask.message, "resign-yes:1")
    final = boards(fake, thread)[-1]
    assert "Game over: Alice wins (every other player resigned)" in final.content and custom_ids(final) == []
    assert (await bot.matches.get(1)).status == OVER


async def test_a_solitaire_game_is_played_alone_and_its_score_tops_the_best_list(
    fake: DiscordFake, bot: GameBot
) -> None:
    empty = await fake.slash("carol", "volcano best", channel="games")
    assert not empty.ephemeral and "No Volcano solitaire game has been finished here yet" in (empty.content or "")
    thread = await open_game(fake, ["alice"], {"opening": "cross"})
    assert thread.name == "Volcano #1: Alice"
    assert "Alice plays solitaire" in boards(fake, thread)[0].content
    rng = random.Random(4)
    while (match := await bot.matches.get(1)).running:
        await step(fake, bot, 1, rng.choice(VOLCANO.legal_moves(match.state)), thread)
    score = VOLCANO.scores(match.state)[0]
    assert f"final score {score:g}" in boards(fake, thread)[-1].content

    best = await fake.slash("carol", "volcano best", channel="general")
    letters = latin_layout(match.seed)
    layout = "/".join(letters[i : i + 5] for i in range(0, 25, 5))
    assert f"1. {score:g} points by Alice: opening cross, layout {layout} (match #1)" in (best.content or "")
    other = await fake.slash("carol", "volcano best", {"opening": "x"})
    assert "No Volcano solitaire game with the x opening" in (other.content or "")
    choices = await fake.autocomplete("carol", "volcano best", {"opening": "c"})
    assert [c["name"] for c in choices] == ["cross", "corners"]
