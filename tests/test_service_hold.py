"""A match whose board could not be posted anywhere is held: nobody's clock runs, no move is taken, and the
next board post that succeeds lets it go on (bot/service.py `hold`)."""

from __future__ import annotations

import pytest

from bot.clock import ClockSettings, FakeTime
from bot.games import GAMES
from bot.service import MatchPaused, MatchService
from tests.conftest import ALICE, BOB

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

FISH = GAMES["fish"]


async def test_a_held_turn_is_charged_to_nobody_and_refuses_moves(service: MatchService, fake_time: FakeTime) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=ClockSettings(30, 60))
    await service.board_posted(match.id, 0)  # the first board is up: alice's clock runs
    fake_time.advance(12)
    await service.hold(match.id, "it was deleted")  # then the repost of the board failed everywhere
    held = await service.get(match.id)
    assert held.held is not None and held.held.reason == "it was deleted"
    assert held.clock is not None and not held.clock.running
    fake_time.advance(10_000)  # far past every deadline: no flag falls while nobody can see the board
    await service.flags.sweep()
    assert (await service.get(match.id)).running
    with pytest.raises(MatchPaused, match="on hold: the bot could not post its board \\(it was deleted\\)"):
        await service.move(match.id, ALICE.id, "A1")
    assert await service.moves(match.id) == []

    await service.board_posted(match.id, 0)  # a board got through (a retry or /mod repost)
    back = await service.get(match.id)
    assert back.held is None and back.clock is not None and back.clock.running
    assert back.clock.move_left_at(fake_time.now()) == 18  # the 12 s used before the hold, nothing since
    fake_time.advance(1)
    notice = await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0], ply=0)
    assert notice.kind == "moved"
    actions = await service.store.actions(match.id)
    assert [a["kind"] for a in actions][-2:] == ["hold", "unhold"]


async def test_a_hold_before_the_turn_started_keeps_the_whole_allowance(
    service: MatchService, fake_time: FakeTime
) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=ClockSettings(30, 60))
    await service.hold(match.id, "the bot may not post there any more")  # the first board never got up
    await service.hold(match.id, "a second failure")  # already held: the first reason stands
    fake_time.advance(500)
    assert (hold := (await service.get(match.id)).held) is not None
    assert hold.reason == "the bot may not post there any more"
    await service.board_posted(match.id, 0)
    clock = (await service.get(match.id)).clock
    assert clock is not None and clock.move_left_at(fake_time.now()) == 30 and clock.reserves == (60, 60)


async def test_an_untimed_match_is_held_too(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.hold(match.id, "it is locked")
    with pytest.raises(MatchPaused, match="on hold"):
        await service.move(match.id, ALICE.id, "A1")
    await service.board_posted(match.id, 0)
    assert (await service.get(match.id)).held is None
    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
