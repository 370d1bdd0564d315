"""/leaderboard and /stats through the real discord.py code against the fake Discord: a rated game's end
posts the rating changes, and both commands show the server's ratings to everyone."""

from __future__ import annotations

import pytest

from bot.discord_app import GameBot
from bot.games import GAMES
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards

TITLE = GAMES["fish"].title


async def test_a_finished_game_shows_on_the_leaderboard_and_in_stats(fake: DiscordFake, bot: GameBot) -> None:
    empty = await fake.slash("carol", "leaderboard", {"game": "fish"})
    assert not empty.ephemeral and f"Nobody has a {TITLE} rating here yet" in (empty.content or "")
    nothing = await fake.slash("carol", "stats")
    assert "Carol has no rated games here yet." in (nothing.content or "")

    challenge = await fake.slash("alice", "fish challenge", {"opponent": "bob"})
    await fake.click("bob", challenge.message, label="Accept")
    thread = fake.threads[-1]
    await fake.slash("mod", "mod adjudicate", {"winner": "alice"}, channel=thread)
    final = boards(fake, thread)[-1]
    assert "Ratings: Alice 1500? → 1662?, Bob 1500? → 1338?." in final.content

    board = await fake.slash("carol", "leaderboard", {"game": "fish"}, channel="general")
    text = board.content or ""
    assert not board.ephemeral and f"**{TITLE} leaderboard**" in text
    lines = text.splitlines()
    assert lines[1].startswith("1. Alice: 1662? ±") and "1 game, 1-0-0 W-L-D" in lines[1]
    assert lines[2].startswith("2. Bob: 1338? ±") and "1 game, 0-1-0 W-L-D" in lines[2]
    assert "<@" not in text  # names, never pings

    stats = await fake.slash("carol", "stats", {"user": "bob"})
    assert not stats.ephemeral and "**Bob**'s ratings" in (stats.content or "")
    assert f"{TITLE}: 1338? ±" in (stats.content or "") and "0-1-0 W-L-D" in (stats.content or "")
    own = await fake.slash("alice", "stats")
    assert f"{TITLE}: 1662? ±" in (own.content or "")
    other_game = await fake.slash("carol", "leaderboard", {"game": "volcano"})
    assert "Nobody has a" in (other_game.content or "")


async def test_the_game_option_offers_only_real_games(fake: DiscordFake, bot: GameBot) -> None:
    with pytest.raises(ValueError, match="must be one of"):
        await fake.slash("carol", "leaderboard", {"game": "chess"})
