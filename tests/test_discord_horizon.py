"""/horizon through the real discord.py code against the fake Discord: whole games played with the
private menus and typed moves, while every public message is searched for cards still hidden."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from bot import i18n, posts
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.horizon import card_name
from renderers import describe, render
from tests.discord_fake import DiscordFake
from tests.discord_helpers import PNG, boards, was_played

HORIZON = GAMES["horizon"]
CODE = re.compile(r"\b(T[1-8]|F[1-4]|B[1-4]|MI|SW)\b")
REVEALING = ("reveals", "copies", "turns face up")
"""Event lines that name a card because it has just been revealed to everyone."""


def public(fake: DiscordFake, channel: Any) -> list[Any]:
    return [m for m in fake.channel_messages(channel) if not m.ephemeral]


def assert_hides(text: str, card: str) -> None:
    """`card`, just placed face down, is named nowhere in `text` but in lines revealing a card."""
    for line in text.splitlines():
        if not any(word in line for word in REVEALING):
            assert card not in CODE.findall(line) and card_name(card) not in line, (card, line)


@pytest.mark.parametrize("choices", [7, 8, 9])
async def test_whole_games_through_the_menus_and_typed_moves_never_show_a_hidden_card(
    fake: DiscordFake, bot: GameBot, choices: int
) -> None:
    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    rng = random.Random(choices)
    while (match := await bot.matches.get(1)).running:
        seat = HORIZON.to_move(match.state)
        user = match.players[seat].name.lower()
        move = rng.choice(HORIZON.legal_moves(match.state))
        seen = len(public(fake, thread))
        if move.startswith("place") and rng.random() < 0.5:  # the private menus: card, then space
            _, card, space = move.split()
            menu = await fake.slash(user, "horizon play", channel=thread)
            assert menu.ephemeral and "Your hand:" in (menu.content or "")
            step = await fake.select(user, menu.message, f"hz-card:1:{match.ply}", [card])
            assert step.message is not None and custom_space(step.message) == f"hz-space:1:{match.ply}:{card}"
            done = await fake.select(user, menu.message, f"hz-space:1:{match.ply}:{card}", [space])
            assert "Played:" in (done.message.content if done.message else "")
        else:
            reply = await fake.slash(user, "horizon move", {"move": f"{move}@{match.ply}"}, channel=thread)
            assert was_played(reply), reply.content
        new = public(fake, thread)[seen:]
        assert new and new[0].attachments and new[0].attachments[0].data.startswith(PNG)
        # the posted picture is exactly the picture of a position whose hidden cards are all different (but
        # the final board's, which turns every card face up)
        after = await bot.matches.get(1)
        caption = posts.caption(bot.matches, after, 0.0)
        drawn = scrambled(after.state) if after.running else after.state
        assert new[0].attachments[0].data == render("horizon", drawn, caption=caption)
        assert new[0].attachments[0].description == i18n.unmarked(describe("horizon", drawn, caption))  # alt text too
        if move.startswith(("place", "swap")):
            card = move.split()[1] if move.startswith("place") else move.split()[2]
            for message in new:
                assert_hides(message.content, card)
    assert "Game over" in boards(fake, thread)[-1].content
    history = await fake.slash("carol", "horizon history", {"match": 1})
    assert history.ephemeral and not CODE.search((history.content or "").replace("Match #1", ""))


def scrambled(state: Any) -> Any:
    """The same position with every card nobody outside may see changed: hands, deck, face-down cards."""
    return replace(
        state,
        hands=tuple(("T1",) * len(hand) for hand in state.hands),
        deck=("B4",) * len(state.deck),
        mats=tuple(
            tuple(slot if slot is None or slot.face_up else replace(slot, card="T1") for slot in mat)
            for mat in state.mats
        ),
    )


def custom_space(message: Any) -> str:
    return next(c["custom_id"] for row in message.components for c in row["components"])


async def test_the_hand_is_private_and_refusals_reveal_nothing(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"})
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    match = await bot.matches.get(1)
    seat = HORIZON.to_move(match.state)
    mover, other = match.players[seat].name.lower(), match.players[1 - seat].name.lower()
    hand = await fake.slash(mover, "horizon hand", channel=thread)
    assert hand.ephemeral and hand.files[0].data.startswith(PNG)
    assert all(card_name(c) in (hand.content or "") for c in match.state.hands[seat])
    spectator = await fake.slash("carol", "horizon hand", {"match": 1})
    assert spectator.ephemeral and "only its players have a hand" in (spectator.content or "")
    card = match.state.hands[seat][0] if match.state.hands[seat][0] != "SW" else match.state.hands[seat][1]
    refused = await fake.slash(other, "horizon move", {"move": f"place {card} me:1"}, channel=thread)
    assert refused.ephemeral and "not yours" in (refused.content or "")
    not_mine = next(c for c in ("T1", "T2", "T3", "F1", "B1") if c not in match.state.hands[seat])
    missing = await fake.slash(mover, "horizon move", {"move": f"place {not_mine} me:1"}, channel=thread)
    assert missing.ephemeral and f"You have no {not_mine} in your hand." == missing.content
    assert len(public(fake, thread)) == 1  # only the first board: nothing was played or said in public
