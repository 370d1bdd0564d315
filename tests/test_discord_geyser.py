"""/geyser through the real discord.py code against the fake Discord: a lobby of three, starting squares
and the tied battle's choices as buttons, and the firing phase as a message of its own."""

from __future__ import annotations

from typing import Any

from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.geyser import _die, parse_square
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, board_of, boards, custom_ids

GEYSER = GAMES["geyser"]


async def three_players(fake: DiscordFake) -> Any:
    opened = await fake.slash("alice", "geyser new", {"seven": "calm", "tokens": 10}, channel="games")
    assert "Geyser lobby #1, opened by Alice (seven calm, tokens 10)." in (opened.content or "")
    alone = await fake.click("alice", opened.message, label="Start")
    assert "Geyser needs at least 2 players; 1 joined" in alone.followups[0].content
    await fake.click("bob", opened.message, label="Join")
    await fake.click("carol", opened.message, label="Join")
    await fake.click("alice", opened.message, label="Start")
    return fake.threads[-1]


async def test_starting_squares_are_buttons_and_the_opening_roll_is_posted(fake: DiscordFake, bot: GameBot) -> None:
    thread = await three_players(fake)
    assert thread.name == "Geyser #1: Alice vs Bob vs Carol"
    first = boards(fake, thread)[-1]
    assert first.attachments[0].data.startswith(PNG)
    assert custom_ids(first)[:4] == [
        "play:1:0:start f1",
        "play:1:0:start a6",
        "play:1:0:start k6",
        "play:1:0:start f11",
    ]
    wrong = await fake.click("bob", first, "play:1:0:start a6")
    assert wrong.ephemeral and "It is Alice's turn, not yours." in (wrong.content or "")
    played = await fake.click("alice", first, "play:1:0:start a6")
    assert "Alice starts on a6." in board_of(played).content and board_of(played) is boards(fake, thread)[-1]
    assert custom_ids(first) == []  # the clicked board lost its buttons (free: the click's own webhook)
    await fake.click("bob", boards(fake, thread)[-1], "play:1:1:start k6")
    last = await fake.click("carol", boards(fake, thread)[-1], label="Start f11")
    assert "Carol starts on f11." in board_of(last).content
    opening = boards(fake, thread)[-1]
    assert "Opening roll: Alice " in opening.content and "starts; play goes on in seat order." in opening.content
    assert all(not c.startswith("play:") for c in custom_ids(opening))  # steps are typed, not clicked
    match = await bot.matches.get(1)
    assert match.state.supply == (9, 9, 9) and match.state.phase == "play"
    mover = match.players[GEYSER.to_move(match.state)].name.lower()
    choices = await fake.autocomplete(mover, "geyser move", {"move": ""}, channel=thread)
    assert {c["name"] for c in choices} == set(GEYSER.legal_moves(match.state))


async def test_a_tied_battle_offers_again_and_retreat_and_the_firing_phase_has_its_own_message(
    fake: DiscordFake, bot: GameBot
) -> None:
    thread = await three_players(fake)
    seed = next(s for s in range(10_000) if _die(s, 0) == _die(s, 1) and _die(s, 2) + _die(s, 3) == 6)
    match = await bot.matches.get(1)
    # A position: alice on b6 attacks bob on c6 with no geysers on either side; the dice tie.
    match.state = GEYSER.state_from_position(
        3, {"b6": (0, 1), "c6": (1, 1), "k6": (2, 1)}, turn=0, seed=seed, order=(0,), seven="calm"
    )
    await fake.slash("alice", "geyser move", {"move": f"b6-c6@{match.ply}"}, channel=thread)
    tied = boards(fake, thread)[-1]
    assert "a tie" in tied.content and "Alice may roll again or retreat" in tied.content
    assert custom_ids(tied)[:2] == [f"play:1:{match.ply}:again", f"play:1:{match.ply}:retreat"]
    refused = await fake.click("bob", tied, label="Retreat")
    assert refused.ephemeral and "It is Alice's turn, not yours." in (refused.content or "")
    retreat = await fake.click("alice", tied, label="Retreat")
    assert "Alice retreats: the token stays on b6." in board_of(retreat).content
    board, firing = fake.channel_messages(thread)[-2:]  # the round is over: the firing phase follows the board
    assert "Alice retreats: the token stays on b6." in board.content and board.attachments
    assert "Firing phase" not in board.content
    assert firing.content.startswith("Firing phase: Alice rolls") and "the 6/8 ring fires" in firing.content
    assert not firing.attachments
    state = (await bot.matches.get(1)).state
    assert state.round == 2 and state.board[parse_square("b6")] == (0, 1) and state.board[parse_square("c6")] == (1, 1)


async def test_a_claim_offers_the_new_token_squares_in_a_menu(fake: DiscordFake, bot: GameBot) -> None:
    thread = await three_players(fake)
    match = await bot.matches.get(1)
    # alice steps from d3 onto the free 4/10 geyser e3 and claims it
    match.state = GEYSER.state_from_position(3, {"d3": (0, 2), "k6": (1, 1), "f11": (2, 1)}, turn=0, order=(0, 1, 2))
    await fake.slash("alice", "geyser move", {"move": f"d3-e3@{match.ply}"}, channel=thread)
    claimed = boards(fake, thread)[-1]
    assert "Alice claims the 4/10 geyser on e3 and may place a new token." in claimed.content
    menu = f"pick:1:{match.ply}"
    assert menu in custom_ids(claimed)
    options = [o["value"] for row in claimed.components for c in row["components"] for o in c.get("options", [])]
    assert options == GEYSER.legal_moves(match.state) and options[-1] == "skip" and "place d3" in options
    picked = await fake.select("alice", claimed, menu, ["place d2"])
    assert "Alice places a new token on d2." in board_of(picked).content
    state = (await bot.matches.get(1)).state
    assert state.board[parse_square("d2")] == (0, 1) and state.supply[0] == 12 - 2 - 1 and GEYSER.to_move(state) == 1
