"""Buttons and menus share one path with the slash commands: who may click is checked before anything
else, a refusal is answered privately in its own words, and anything unexpected is apologised for and
logged, never left to fail silently after 3 s (discord.py swallows what a dynamic item raises)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord_app import GameBot
from bot.views import APOLOGY
from tests.discord_fake import DiscordFake
from tests.test_discord import start_challenge


def board_of(fake: DiscordFake, thread: Any) -> Any:
    return [m for m in fake.channel_messages(thread) if m.components][-1]


async def test_a_spectator_is_refused_before_anything_happens(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    board = board_of(fake, thread)
    for label in ("My moves", "Resign"):
        reply = await fake.click("carol", board, label=label)
        assert reply.ephemeral and reply.content == "You are not playing in match #1.", label
    assert (await bot.matches.get(1)).running


async def test_the_player_not_to_move_is_told_whose_turn_it_is(fake: DiscordFake, bot: GameBot) -> None:
    thread = await start_challenge(fake)
    reply = await fake.click("bob", board_of(fake, thread), label="My moves")
    assert reply.ephemeral and reply.content == "It is Alice's turn, not yours."


async def test_an_unexpected_error_in_a_click_is_apologised_for_and_logged(
    fake: DiscordFake, bot: GameBot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    thread = await start_challenge(fake)
    board = board_of(fake, thread)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setattr(bot.matches, "get", broken)
        with caplog.at_level(logging.ERROR, logger="bot.views"):
            reply = await fake.click("alice", board, label="My moves")
    assert reply.ephemeral and reply.content == APOLOGY
    assert any("the check of MovesButton failed" in r.getMessage() and r.exc_info for r in caplog.records)
    again = await fake.click("alice", board, label="My moves")  # and the bot goes on
    assert again.ephemeral and (again.content or "").startswith("30 legal moves")


async def test_a_menu_for_a_match_that_is_gone_is_refused_in_words(fake: DiscordFake, bot: GameBot) -> None:
    """Event Horizon's card menu on a match a moderator aborted: a refusal, not a silent failure."""
    challenge = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", challenge.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    seat = bot.matches.game(match).to_move(match.state)
    mover = ("alice", "bob")[seat]  # the challenger sits first
    menu = await fake.slash(mover, "horizon play", channel=thread)
    await fake.slash("mod", "mod abort", {"match": 1}, channel=thread)
    select = menu.message.components[0]["components"][0]
    reply = await fake.select(mover, menu.message, select["custom_id"], [select["options"][0]["value"]])
    assert reply.ephemeral
    assert reply.content == "The board has changed since this menu was sent: use /horizon play again."


async def test_each_cog_answers_the_components_it_owns(fake: DiscordFake, bot: GameBot) -> None:
    """Components are registered by the cogs that own them: unloading Event Horizon's cog takes its card
    menu with it, while the board controls and the challenge button, which the other games' cogs answer
    too, keep working."""
    challenge = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", challenge.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    mover = ("alice", "bob")[bot.matches.game(match).to_move(match.state)]
    menu = await fake.slash(mover, "horizon play", channel=thread)
    await bot.remove_cog("HorizonCog")
    select = menu.message.components[0]["components"][0]
    unanswered = await fake.select(
        mover, menu.message, select["custom_id"], [select["options"][0]["value"]], wait=False
    )
    moves = await fake.click(mover, board_of(fake, thread), label="My moves")
    assert moves.ephemeral and "legal moves" in (moves.content or "")
    assert not unanswered.done  # nobody answers the menu any more: Discord would say the interaction failed
    fish = await fake.slash("carol", "fish challenge", {"opponent": "mod"})
    accepted = await fake.click("mod", fish.message, label="Accept")
    assert "Match #2 is on" in (accepted.content or "")  # the challenge itself says so
