"""Downtime and holds in the service (bot/service/downtime.py, bot/service/holds.py): a restart credits the
time the bot was down to long and untimed boards that are up, and posts the others again soonest deadline
first; without a heartbeat it posts every board as before; the quiet ones' flags and reminders are armed at
load; a shard's gateway outage holds its matches, charged to nobody, and releases them with how long."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import ClockSettings, FakeTime, parse_clock
from bot.models import GATEWAY, Place, Player
from bot.service import MatchPaused, MatchService
from bot.service.downtime import HEARTBEAT_EVERY
from tests.conftest import ALICE, BOB, eventually

CAROL = Player("local:carol", "carol")

pytestmark = pytest.mark.backends

DAY = 86_400.0
GUILD = 1 << 22  # shard 1 of 2 (Discord's formula: guild_id >> 22)


async def posted(service: MatchService, clock: ClockSettings | None, guild: int = 5, players=(ALICE, BOB)):  # type: ignore[no-untyped-def]
    match = await service.create_match("fish", list(players), seed=5, clock=clock, place=Place(guild, 7))
    await service.board_posted(match.id, 0, message=(7, 1000 + match.id))
    return match


async def test_a_restart_credits_the_downtime_to_boards_that_are_up_and_reposts_the_live_ones(
    open_service, fake_time: FakeTime
) -> None:
    service = await open_service()
    await service.start()
    long = await posted(service, parse_clock("1d/7d"))
    untimed = await posted(service, None, players=(ALICE, CAROL))
    slow = await posted(service, ClockSettings(600, 600), players=(BOB, CAROL))
    quick = await posted(service, ClockSettings(30, 60), players=(CAROL, ALICE))
    paused = await posted(service, ClockSettings(10, 10), players=(BOB, ALICE), guild=6)
    await service.moderation.pause(paused.id, CAROL)
    unseen = await service.create_match("fish", [BOB, ALICE], seed=5, clock=parse_clock("1d/7d"), place=Place(5, 7))
    fake_time.advance(20)
    used = service.running_match(long.id).clock.used_at(fake_time.now())
    await service.close()  # its last heartbeat: now
    fake_time.advance(2 * DAY)  # down for two days
    again = await open_service()
    repost = await again.start()
    assert [m.id for m in repost] == [quick.id, slow.id, unseen.id, paused.id]  # soonest first; paused last
    credited = again.running_match(long.id).clock
    assert credited.running and credited.used_at(fake_time.now()) == used == 20  # the two days: nobody's
    assert (await again.store.load_match(long.id)).clock == credited  # stored so
    assert again.running_match(untimed.id).clock is None and again.running_match(untimed.id) not in repost
    assert not again.running_match(quick.id).clock.running  # fresh allowance, with its post
    fake_time.advance(DAY - 20 + 7 * DAY - 5)  # just before the long game's flag (the sweep runs: nothing due)
    await asyncio.sleep(0.05)
    assert again.running_match(long.id) is not None
    fake_time.advance(7)  # past it, well before the next sweep: only the timer armed at load can flag it
    await eventually(lambda: again.running_match(long.id) is None)


async def test_without_a_heartbeat_every_board_is_posted_again(open_service, fake_time: FakeTime) -> None:
    service = await open_service()
    await service.start()
    long = await posted(service, parse_clock("1d/7d"))
    await service.close()
    async with service.store.transaction():
        await service.store._db.execute("DELETE FROM heartbeats")
    fake_time.advance(DAY)
    again = await open_service()
    (back,) = await again.start()
    assert back.id == long.id and back.clock.used == 0 and not back.clock.running  # today's fresh allowance


async def test_the_heartbeat_is_written_every_few_seconds_on_the_service_clock(service, fake_time) -> None:  # type: ignore[no-untyped-def]
    async def alive() -> float:
        return (await service.store.last_alive())[0]

    first = await alive()
    assert first == fake_time.now()  # written at the start
    fake_time.advance(HEARTBEAT_EVERY)
    for _ in range(200):
        if await alive() > first:
            break
        await asyncio.sleep(0.01)
    assert await alive() == first + HEARTBEAT_EVERY
    fake_time.advance(HEARTBEAT_EVERY / 2)
    await asyncio.sleep(0.05)
    assert await alive() == first + HEARTBEAT_EVERY  # not before its time
    fake_time.advance(1)
    await service.close()
    assert await alive() == fake_time.now()  # a clean stop says so last


async def test_a_quiet_long_games_reminders_are_armed_at_load(open_service, fake_time: FakeTime) -> None:
    service = await open_service()
    reminded = []
    await service.start()
    match = await posted(service, parse_clock("1d/7d"))
    await service.close()
    fake_time.advance(3600)
    again = await open_service()
    again.subscribe(lambda notice: reminded.append(notice) or asyncio.sleep(0))
    await again.start()
    fake_time.advance(DAY / 2 - 1800)  # 12.5 h since the post, but only 11.5 h of play: the hour down is nobody's
    await asyncio.sleep(0.05)
    assert [n.kind for n in reminded] == []
    fake_time.advance(3600)
    await eventually(lambda: [(n.kind, n.match.id) for n in reminded] == [("reminder", match.id)])  # its timer


async def test_a_gateway_outage_holds_its_shards_matches_charged_to_nobody(service, fake_time) -> None:  # type: ignore[no-untyped-def]
    here = await posted(service, ClockSettings(5, 5), guild=GUILD)
    other = await posted(service, ClockSettings(5, 5), guild=0, players=(CAROL, BOB))
    fake_time.advance(2)
    held = await service.gateway_down(1, 2, since=fake_time.now() - 1)  # down since the last ACK, 1 s ago
    assert [m.id for m in held] == [here.id] and here.held.cause == GATEWAY and other.held is None
    assert await service.gateway_down(1, 2) == []  # held already
    with pytest.raises(MatchPaused, match="Discord has not been reachable"):
        await service.move(here.id, ALICE.id, "A1")
    fake_time.advance(16)
    await service.flags.sweep()
    assert (here.running and other.running is False) or service.running_match(other.id) is None
    await service.hold(here.id, "a board post failed")  # held already: the gateway's hold stands
    assert here.held.cause == GATEWAY
    (released,) = await service.gateway_up(1, 2)
    assert released[0] is here and released[1] == 17
    assert here.held is None and here.clock.running and here.clock.used_at(fake_time.now()) == 1
    fake_time.advance(10.5)  # past its flag (1 s used, 9 left, 1 s grace), before the next sweep: its timer flags it
    await eventually(lambda: service.running_match(here.id) is None)
    assert await service.gateway_up(1, 2) == []
    kinds = [a["kind"] for a in await service.store.actions(here.id)]
    assert kinds[:2] == ["hold", "unhold"]


async def test_a_board_posted_while_the_gateway_is_down_keeps_the_match_held(service, fake_time) -> None:  # type: ignore[no-untyped-def]
    match = await posted(service, ClockSettings(5, 5), guild=GUILD)
    await service.gateway_down(1, 2)
    assert await service.board_posted(match.id, 0, message=(7, 5555)) == (7, 1000 + match.id)
    assert match.held is not None and not match.clock.running and match.board == (7, 5555)
    await service.gateway_up(1, 2)
    assert match.held is None and match.clock.running


async def test_holds_are_stored_and_wait_for_the_match_lock_and_their_ends_rearm_reminders(service, fake_time) -> None:  # type: ignore[no-untyped-def]
    await posted(service, None, guild=GUILD)  # an untimed game: its first reminder is due a day after its post
    timed = await posted(service, ClockSettings(5, 5), guild=GUILD, players=(CAROL, BOB))
    fake_time.advance(2)
    async with service.registry.lock(timed.id):  # a move under way: the outage waits for it
        holding = asyncio.ensure_future(service.gateway_down(1, 2))
        await asyncio.sleep(0.05)
        assert not holding.done() and timed.held is None
    assert len(await holding) == 2
    stored = await service.store.load_match(timed.id)
    assert stored is not None and stored.clock is not None and not stored.clock.running and stored.clock.used == 2
    reminded = []

    async def listen(notice):  # type: ignore[no-untyped-def]
        reminded.append(notice.kind)

    service.subscribe(listen)
    fake_time.advance(DAY + 60)  # the untimed game's reminder falls due during the hold: passed over
    await asyncio.sleep(0.05)
    assert reminded == []
    await service.gateway_up(1, 2)
    await eventually(lambda: reminded == ["reminder"])  # armed again with the release, not left to the sweep
    stored = await service.store.load_match(timed.id)
    assert stored is not None and stored.clock is not None and stored.clock.running
    (hold, unhold) = await service.store.actions(timed.id)
    assert (hold["kind"], unhold["kind"], unhold["detail"]) == ("hold", "unhold", "released")


async def test_a_board_that_gets_through_ends_a_posting_hold_and_is_remembered(service, fake_time) -> None:  # type: ignore[no-untyped-def]
    match = await posted(service, parse_clock("1d/7d"))
    await service.hold(match.id, "Discord answered 503")
    assert await service.board_posted(match.id, 0, message=(7, 4242)) == (7, 1000 + match.id)
    stored = await service.store.load_match(match.id)
    assert stored is not None and stored.board == (7, 4242) and stored.board_ply == 0 and match.held is None
