"""Hostile players through the fake Discord: no suggestion tells a roll or a card before the player decides,
a challenge starts one match however it is clicked, and menus check who clicks."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.discord_app import GameBot
from bot.games import GAMES
from bot.games.geyser import SQUARE_NAMES
from bot.models import Place, Player
from tests.ai.test_horizon import shuffled_hidden
from tests.discord_fake import DiscordFake
from tests.discord_helpers import make_bot

GEYSER, HORIZON = GAMES["geyser"], GAMES["horizon"]
GEYSER_SQUARES = {name: index for index, name in enumerate(SQUARE_NAMES)}


def players(fake: DiscordFake, *names: str) -> list[Player]:
    return [Player(f"discord:{fake.user(n)['id']}", n.title()) for n in names]


def user_to_move(match: Any, game: Any) -> str:
    return match.players[game.to_move(match.state)].name.lower()


async def suggestions(fake: DiscordFake, user: str, command: str, typed: list[str], thread: Any) -> list[Any]:
    return [await fake.autocomplete(user, command, {"move": text}, channel=thread) for text in typed]


async def test_geyser_suggestions_are_the_same_whatever_the_dice(fake: DiscordFake, bot: GameBot) -> None:
    match = await bot.matches.create_match(
        "geyser", players(fake, "alice", "bob"), seed=11, place=Place(fake.guild.id, fake.channel("games").id)
    )
    rng = random.Random(4)
    while True:  # random play until the player to move can start a battle (step onto the other's token)
        match = await bot.matches.get(match.id)
        seat = GEYSER.to_move(match.state)
        battles = [
            m
            for m in GEYSER.legal_moves(match.state)
            if "-" in m and (held := match.state.board[GEYSER_SQUARES[m.split("-")[1]]]) and held[0] != seat
        ]
        if battles:
            break
        await bot.matches.move(match.id, match.players[seat].id, rng.choice(GEYSER.legal_moves(match.state)))
    thread = fake.threads[-1]
    step = battles[0]
    typed = ["", step[:1], step, f"{step}, ", f"{step}, pl", f"{step},again", f"{step}, place {step[-2:]}"]
    user = user_to_move(match, GEYSER)
    seen = await suggestions(fake, user, "geyser move", typed, thread)
    assert any(seen) and not any("[" in c["name"] for answer in seen for c in answer)  # no dice, ever
    cached = bot.matches.running_match(match.id)
    assert cached is not None
    for seed in (1, 2, 3, 99):  # other dice to come: exactly the same suggestions
        cached.seed, cached.state = seed, replace(cached.state, seed=seed)
        assert await suggestions(fake, user, "geyser move", typed, thread) == seen


async def test_event_horizon_suggestions_ignore_every_card_the_mover_cannot_see(
    fake: DiscordFake, bot: GameBot
) -> None:
    match = await bot.matches.create_match(
        "horizon", players(fake, "alice", "bob"), seed=5, place=Place(fake.guild.id, fake.channel("games").id)
    )
    rng = random.Random(2)
    for _ in range(14):
        match = await bot.matches.get(match.id)
        mover = match.players[HORIZON.to_move(match.state)].id
        await bot.matches.move(match.id, mover, rng.choice(HORIZON.legal_moves(match.state)))
    match = await bot.matches.get(match.id)
    seat = HORIZON.to_move(match.state)
    user = user_to_move(match, HORIZON)
    typed = ["", "p", "place", "swap", "pass", "place T", "swap me:1"]
    thread = fake.threads[-1]
    seen = await suggestions(fake, user, "horizon move", typed, thread)
    assert any(seen)
    cached = bot.matches.running_match(match.id)
    assert cached is not None
    truth = cached.state
    for _ in range(5):  # the other hand, unknown face-down cards and the deck reshuffled, another seed
        cached.state = shuffled_hidden(truth, seat, rng)
        assert HORIZON.view(cached.state, seat) == replace(HORIZON.view(truth, seat), seed=None)
        assert await suggestions(fake, user, "horizon move", typed, thread) == seen


async def test_a_challenge_starts_one_match_however_often_and_whenever_accept_is_clicked(
    fake: DiscordFake, bot: GameBot, db_path: Path
) -> None:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    button = asked.message.component(label="Accept")
    clicks = [await fake.click("bob", asked.message, label="Accept", wait=False) for _ in range(2)]
    await asyncio.gather(*(c.wait() for c in clicks))
    await fake.wait_until(lambda: any(c.followups for c in clicks), what="the second click's refusal")
    assert bot.matches.running() != [] and len(bot.matches.running()) == 1 and len(fake.threads) == 1
    assert "Match #1 is on" in (asked.message.content or "")  # the challenge says so, once
    assert asked.message.content.count("is on") == 1
    (refused,) = [c for c in clicks if c.followups]
    assert refused.followups[0].ephemeral and "accepted already" in refused.followups[0].content
    assert "match #1" in refused.followups[0].content

    # After a restart the button of an old message (still shown somewhere) is refused as well.
    await bot.close()
    asked.message.components = [{"type": 1, "components": [button]}]  # as if the edit had never happened
    async with fake.run(make_bot(fake, db_path)) as restarted:
        again = await fake.click("bob", asked.message, label="Accept")
        assert again.ephemeral and "accepted already: it is match #1" in (again.content or "")
        assert len(restarted.matches.running()) == 1  # type: ignore[attr-defined]


async def test_the_card_menu_answers_only_the_player_to_move(fake: DiscordFake, bot: GameBot) -> None:
    asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    match = await bot.matches.get(1)
    mover = user_to_move(match, HORIZON)
    other = "bob" if mover == "alice" else "alice"
    menu = await fake.slash(mover, "horizon play", channel=fake.threads[-1])
    card = menu.message.component(f"hz-card:1:{match.ply}")["options"][0]["value"]
    # The same menu, as a forged or replayed click by the other player, in a message of their own:
    forged = await fake.slash(other, "horizon hand", channel=fake.threads[-1])
    forged.message.components = menu.message.components
    reply = await fake.select(other, forged.message, f"hz-card:1:{match.ply}", [card])
    text = (reply.content or "") + "".join(m.content for m in reply.followups)
    assert "not your turn" in text and "Place" not in text


async def test_who_may_accept_comes_from_the_stored_challenge_not_only_the_button(
    fake: DiscordFake, bot: GameBot
) -> None:
    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    carol = f"discord:{fake.user('carol')['id']}"
    for _ in range(100):  # the bot records the challenge just after answering
        if await bot.matches.store.challenge(int(asked.interaction["id"])) is not None:
            break
        await asyncio.sleep(0.02)
    async with bot.matches.store.transaction():  # the record says carol; the button still says bob
        await bot.matches.store._db.execute("UPDATE challenges SET to_id = ?", (carol,))
    reply = await fake.click("bob", asked.message, label="Accept")
    assert reply.ephemeral and "not yours to accept" in (reply.content or "")
    assert bot.matches.running() == []
