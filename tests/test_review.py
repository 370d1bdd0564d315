"""bot/review.py on a real service: a replay made once however many ask at once, made again when the log
grows, and both caches bounded."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

from bot import review
from bot.games import GAMES
from bot.models import Player
from bot.service import MatchService
from renderers import DRAWERS
from renderers.png import to_png

FISH = GAMES["fish"]


async def test_a_replay_is_made_once_and_again_only_when_the_log_grows(service: MatchService) -> None:
    match = await service.create_match("fish", [Player("local:a", "a"), Player("local:b", "b")], seed=1)
    rng = random.Random(1)
    for _ in range(6):
        match = await service.get(match.id)
        await service.move(
            match.id, match.players[FISH.to_move(match.state)].id, rng.choice(FISH.legal_moves(match.state))
        )
    reviews = review.Reviews(service)
    first, second = await asyncio.gather(reviews.replayed(match.id), reviews.replayed(match.id))
    assert first is second and reviews.replays_made == 1 and first.last == 6
    assert (await reviews.replayed(match.id)) is first and reviews.replays_made == 1
    match = await service.get(match.id)
    await service.move(match.id, match.players[FISH.to_move(match.state)].id, FISH.legal_moves(match.state)[0])
    grown = await reviews.replayed(match.id)
    assert grown.last == 7 and reviews.replays_made == 2 and len(reviews._replays) == 1  # the old one dropped


async def test_the_caches_are_bounded(service: MatchService) -> None:
    people = [Player("local:a", "a"), Player("local:b", "b")]
    ids = [(await service.create_match("fish", people, seed=seed)).id for seed in range(3)]
    reviews = review.Reviews(service, replays_kept=2, frames_kept=2)
    for match_id in ids:
        replayed = await reviews.replayed(match_id)
        for viewer in (None, 0, 1):
            frame = await reviews.frame(replayed, 0, viewer)
            assert frame.png.startswith(b"\x89PNG")
    assert len(reviews._replays) == 2 and len(reviews._frames) == 2
    assert list(reviews._replays) == [(ids[1], 0, True), (ids[2], 0, True)]  # the least recently used went


async def test_a_game_ended_without_a_line_of_log_is_replayed_as_over(service: MatchService) -> None:
    match = await service.create_match("horizon", [Player("local:a", "a"), Player("local:b", "b")], seed=4)
    horizon = GAMES["horizon"]
    for _ in range(4):  # setup: cards placed face down
        match = await service.get(match.id)
        seat = horizon.to_move(match.state)
        placing = [m for m in horizon.legal_moves(match.state) if m.startswith("place")]
        await service.move(match.id, match.players[seat].id, placing[0])
    reviews = review.Reviews(service)
    running = await reviews.replayed(match.id)
    assert not running.over
    hidden = await reviews.frame(running, 2, None)
    await service.playing.resign(match.id, "local:a")  # two players: the match ends, the log does not grow
    over = await reviews.replayed(match.id)
    assert over.over and over.log_length == running.log_length and reviews.replays_made == 2
    shown = await reviews.frame(over, 2, None)  # drawn again: the face-down cards face up, as on the final board
    caption = review.caption(over, 2)
    assert shown.png == to_png(DRAWERS["horizon"](replace(over.positions[2], seed=None), None, caption))
    assert shown.png != to_png(DRAWERS["horizon"](horizon.view(over.positions[2], None), None, caption))
    assert hidden.png == to_png(DRAWERS["horizon"](horizon.view(over.positions[2], None), None, caption))


async def test_a_position_drawn_for_one_language_is_drawn_again_for_another(service: MatchService) -> None:
    """The frames are kept per language: a German reviewer after an English one gets German words in the
    picture and its alt text, not the English frame from the cache (and the English one stays English)."""
    from bot import i18n

    match = await service.create_match("fish", [Player("local:a", "a"), Player("local:b", "b")], seed=1)
    await service.move(match.id, "local:a", FISH.legal_moves(match.state)[0])
    reviews = review.Reviews(service)
    replayed = await reviews.replayed(match.id)
    english = await reviews.frame(replayed, 1, None)
    with i18n.using("de"):
        german = await reviews.frame(replayed, 1, None)
    assert german.png != english.png and german.alt != english.alt
    assert "Letzter Zug" in german.alt and "Last move" in english.alt
    assert await reviews.frame(replayed, 1, None) is english  # each language's frame kept apart
