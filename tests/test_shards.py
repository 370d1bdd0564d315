"""Shards and leases (bot/shards.py): which process owns which matches, and that the database guards it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.clock import ClockSettings, FakeTime
from bot.models import Place
from bot.service import MatchNotRunning, MatchService, NotOwner
from bot.shards import LEASE_SECONDS, Leases, ShardError, ShardPlan, shard_of
from bot.store import Store
from tests.conftest import ALICE, BOB, TEST_GAMES, eventually


def test_a_server_belongs_to_the_shard_discord_gives_it_and_offline_to_shard_0() -> None:
    guild = 81384788765712384  # a real-looking snowflake
    assert shard_of(guild, 2) == (guild >> 22) % 2
    assert shard_of(guild, 16) == (guild >> 22) % 16
    assert {shard_of(g << 22, 4) for g in range(8)} == {0, 1, 2, 3}  # spread by the timestamp bits
    assert shard_of(None, 4) == 0 and shard_of(guild, 1) == 0


@pytest.mark.parametrize(
    ("environ", "plan"),
    [
        ({}, ShardPlan(1, (0,))),
        ({"SHARD_COUNT": "2"}, ShardPlan(2, (0, 1))),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3, 1,1"}, ShardPlan(4, (1, 3))),
        ({"SHARD_COUNT": " 2 ", "SHARD_IDS": "0"}, ShardPlan(2, (0,))),
    ],
)
def test_shard_count_and_ids_come_from_the_environment(environ: dict[str, str], plan: ShardPlan) -> None:
    assert ShardPlan.from_env(environ) == plan


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1 to 10000, not '0'."),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number from 1 to 10000, not 'two'."),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0;1"},
            "SHARD_IDS must be shard numbers separated by commas (like 0,1), not '0;1'.",
        ),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS '2' names shard 2, but SHARD_COUNT is 2 (0 to 1)."),
        ({"SHARD_IDS": "1"}, "SHARD_IDS '1' names shard 1, but SHARD_COUNT is 1 (0 to 0)."),
    ],
)
def test_shard_settings_that_make_no_sense_are_refused_in_words(environ: dict[str, str], words: str) -> None:
    with pytest.raises(ShardError) as caught:
        ShardPlan.from_env(environ)
    assert str(caught.value) == words


# --- leases, on both backends: two "processes" (two stores and services) on one database ---


ONE_SHARD = ShardPlan()


class Process:
    """One bot process as far as leases go: its own store, service and leases on the shared database."""

    def __init__(self, store: Store, service: MatchService, leases: Leases) -> None:
        self.store, self.service, self.leases = store, service, leases
        self.gained: list[int] = []
        self.lost: list[int] = []


def stall(process: Process) -> None:
    """The process stops renewing (hung, or cut off from the database) but goes on running."""
    renewing = process.leases._renewing
    assert renewing is not None and renewing._task is not None
    renewing._task.cancel()


@pytest.fixture
async def processes(database: Path | str, fake_time: FakeTime) -> AsyncIterator[Callable[..., Awaitable[Process]]]:
    opened: list[Process] = []

    async def start(plan: ShardPlan = ONE_SHARD, start_service: bool = True) -> Process:
        store = await Store.open(database, TEST_GAMES)
        leases = Leases(store, plan, fake_time)
        service = MatchService(store, fake_time, ownership=leases)
        process = Process(store, service, leases)
        await leases.start()  # before the service: it loads only what its shards hold

        async def gained(shard: int) -> None:
            process.gained.append(shard)
            await service.adopt()

        async def lost(shard: int) -> None:
            process.lost.append(shard)
            service.drop_unowned()

        leases.on_gained, leases.on_lost = gained, lost
        if start_service:
            await service.start()
        opened.append(process)
        return process

    yield start
    for process in opened:
        await process.leases.stop()
        await process.service.close()
        await process.store.close()


@pytest.mark.backends
async def test_one_process_holds_a_shard_and_a_second_with_the_same_ids_gets_nothing(
    processes: Callable[..., Awaitable[Process]],
) -> None:
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB])
    second = await processes()
    assert first.leases.held == {0} and second.leases.held == set()
    assert [m.id for m in first.service.running()] == [match.id] and second.service.running() == []
    # the second cannot start a match there either: the fence refuses it before anything is stored
    with pytest.raises(NotOwner):
        await second.service.create_match("toy", [ALICE, BOB])
    assert await first.store.match_ids() == [match.id]


@pytest.mark.backends
async def test_a_process_that_cannot_renew_is_fenced_out_and_the_other_takes_over_without_a_doubled_move(
    processes: Callable[..., Awaitable[Process]], fake_time: FakeTime
) -> None:
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB])
    await first.service.board_posted(match.id, match.ply)
    await first.service.move(match.id, ALICE.id, "1")
    second = await processes()
    stall(first)
    fake_time.advance(LEASE_SECONDS + 1)  # the first has stalled: its lease has run out, unrenewed
    await second.leases.renew()  # the second's next renewal takes the free lease and adopts the match
    await second.leases.settled()
    assert second.leases.held == {0} and second.gained == [0]
    assert [m.id for m in second.service.running()] == [match.id]
    assert second.service.running_match(match.id).ply == 1  # type: ignore[union-attr]
    # the first wakes up and tries a move: its fence finds another owner, refuses, and it lets the match go
    with pytest.raises(NotOwner):
        await first.service.move(match.id, BOB.id, "2")
    assert first.leases.held == set() and first.lost == [0] and first.service.running() == []
    assert len(await first.store.moves(match.id)) == 1  # nothing of the refused move was stored
    # the second plays on from the stored state
    await second.service.board_posted(match.id, 1)
    await second.service.move(match.id, BOB.id, "2")
    assert [r.move for r in await second.store.moves(match.id)] == ["1", "2"]
    # and the first, renewing, finds the lease taken and stays out
    await first.leases.renew()
    await first.leases.settled()
    assert first.leases.held == set()


@pytest.mark.backends
async def test_a_flag_falls_once_even_when_both_processes_had_armed_it(
    processes: Callable[..., Awaitable[Process]], fake_time: FakeTime
) -> None:
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB], clock=ClockSettings(60, 0))
    await first.service.board_posted(match.id, match.ply)  # the clock runs: first arms the flag
    second = await processes()
    stall(first)
    fake_time.advance(LEASE_SECONDS + 1)
    await second.leases.renew()  # takes over; its adopted clock waits for a repost
    await second.leases.settled()
    await second.service.board_posted(match.id, match.ply)
    for _ in range(12):  # two minutes, the second renewing as it goes: both schedulers have the flag armed,
        fake_time.advance(10)  # and only the lease holder may commit it
        await second.leases.renew()  # here, not left to its loop: a busy machine must not let the lease lapse
        await asyncio.sleep(0.01)
    await eventually(lambda: second.service.running_match(match.id) is None)
    await eventually(lambda: first.lost == [0])  # the first's scheduler tried too: fenced, it let go
    flags = [a for a in await second.store.actions(match.id) if a["kind"] == "flag"]
    assert len(flags) == 1 and (await second.store.load_match(match.id)).status == "over"  # type: ignore[union-attr]
    with pytest.raises(MatchNotRunning):
        await first.service.move(match.id, ALICE.id, "1")


@pytest.mark.backends
async def test_stopping_hands_the_lease_back_at_once_and_a_restart_takes_it_again(
    processes: Callable[..., Awaitable[Process]],
) -> None:
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB])
    await first.leases.stop()
    second = await processes()
    assert second.leases.held == {0} and [m.id for m in second.service.running()] == [match.id]


@pytest.mark.backends
async def test_each_process_runs_only_the_matches_of_its_own_shards(
    processes: Callable[..., Awaitable[Process]],
) -> None:
    guilds = [g << 22 for g in range(6)]  # shards 0, 1, 0, 1, ... of 2
    zero = await processes(ShardPlan(2, (0,)))
    made = {}
    for guild in guilds[0::2]:
        made[guild] = await zero.service.create_match("toy", [ALICE, BOB], place=Place(guild_id=guild))
    with pytest.raises(NotOwner):  # shard 1 is nobody's yet here
        await zero.service.create_match("toy", [ALICE, BOB], place=Place(guild_id=guilds[1]))
    one = await processes(ShardPlan(2, (1,)))
    for guild in guilds[1::2]:
        made[guild] = await one.service.create_match("toy", [ALICE, BOB], place=Place(guild_id=guild))
    # a restart of each: it loads its own shard's matches only
    again_zero, again_one = await processes(ShardPlan(2, (0,))), await processes(ShardPlan(2, (1,)))
    assert again_zero.leases.held == set() and again_one.leases.held == set()  # still held by the first two
    await zero.leases.stop()
    await one.leases.stop()
    await again_zero.leases.renew()
    await again_zero.leases.settled()
    await again_one.leases.renew()
    await again_one.leases.settled()
    assert sorted(m.id for m in again_zero.service.running()) == sorted(made[g].id for g in guilds[0::2])
    assert sorted(m.id for m in again_one.service.running()) == sorted(made[g].id for g in guilds[1::2])


@pytest.mark.backends
async def test_a_lease_that_lapsed_and_came_back_reloads_the_shard_rather_than_trust_what_it_knew(
    processes: Callable[..., Awaitable[Process]], fake_time: FakeTime
) -> None:
    """A-B-A: the first stalls, the second takes over, moves, and hands the lease back; the first's next
    renewal succeeds, but as a new lease: it drops and reloads the shard, so it plays on from the stored
    state instead of its stale copy."""
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB])
    await first.service.board_posted(match.id, match.ply)
    second = await processes()
    stall(first)
    fake_time.advance(LEASE_SECONDS + 1)
    await second.leases.renew()
    await second.leases.settled()
    await second.service.board_posted(match.id, 0)
    await second.service.move(match.id, ALICE.id, "1")
    await second.leases.stop()
    await first.leases.renew()
    await first.leases.settled()
    assert first.lost == [0] and first.leases.held == {0}
    reloaded = first.service.running_match(match.id)
    assert reloaded is not None and reloaded.ply == 1  # the stored state, not the stale ply 0
    await first.service.board_posted(match.id, 1)
    await first.service.move(match.id, BOB.id, "2")
    assert [r.move for r in await first.store.moves(match.id)] == ["1", "2"]


DAY = 86_400.0


@pytest.mark.backends
async def test_a_shard_taken_over_keeps_its_players_away_time_and_a_lapsed_lease_forgets_it(
    processes: Callable[..., Awaitable[Process]], fake_time: FakeTime
) -> None:
    """Away time is per shard too: the process that adopts a shard knows who is away there (their clocks stay
    stopped and `/back` works), and the process that lost it forgets, so a lease regained reloads it."""
    first = await processes()
    match = await first.service.create_match("toy", [ALICE, BOB], clock=ClockSettings(DAY, 0))
    await first.service.board_posted(match.id, match.ply)
    away = await first.service.away.go_away(ALICE, None, 3)
    assert away.matches == (match.id,)
    second = await processes()
    stall(first)
    fake_time.advance(LEASE_SECONDS + 1)
    await second.leases.renew()
    await second.leases.settled()
    assert second.service.away.until(ALICE.id, None) == away.period.until
    adopted = second.service.running_match(match.id)
    assert adopted is not None and adopted.clock is not None and 0 in adopted.clock.away  # still waits for her
    back = await second.service.away.come_back(ALICE, None)
    assert back.matches == (match.id,)
    # the first learns it lost the shard and forgets her away time; regaining the lease, it reads the store
    with pytest.raises(NotOwner):
        await first.service.move(match.id, ALICE.id, "1")
    assert first.service.away.until(ALICE.id, None) is None
    await second.leases.stop()
    await first.leases.renew()
    await first.leases.settled()
    assert first.leases.held == {0} and first.service.away.until(ALICE.id, None) is None
    regained = first.service.running_match(match.id)
    assert regained is not None and regained.clock is not None and not regained.clock.away


@pytest.mark.backends
async def test_a_shard_taken_over_reads_its_servers_settings_again_and_only_the_holder_may_change_them(
    processes: Callable[..., Awaitable[Process]], fake_time: FakeTime
) -> None:
    first = await processes()
    second = await processes()  # started (and read every setting) before the change below
    await first.service.settings.set(None, "house_wins", "off", ALICE)
    assert second.service.settings.state(None, "house_wins").value is True  # the default, as it read it
    with pytest.raises(NotOwner, match="serves this server"):  # the second holds no lease: refused, unstored
        await second.service.settings.set(None, "house_wins", "on", BOB)
    stall(first)
    fake_time.advance(LEASE_SECONDS + 1)
    await second.leases.renew()
    await second.leases.settled()
    state = second.service.settings.state(None, "house_wins")
    assert state.value is False and state.set_by == ALICE.id
