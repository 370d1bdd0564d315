"""The Discord bot and shards: on PostgreSQL it takes its shard's lease, plays under it and hands it back;
SHARD_COUNT above 1 makes it an AutoShardedBot running its SHARD_IDS."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from discord.ext import commands

from bot.config import Config
from bot.discord_app import GameBot, ShardedGameBot, bot_for
from bot.shards import ShardPlan
from bot.store import Store
from tests.conftest import TEST_GAMES
from tests.databases import SERVER_URL, fresh_schema, no_server
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, make_bot

WHY_NOT = no_server()


@pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
async def test_on_postgresql_the_bot_plays_under_its_shards_lease_and_hands_it_back(
    fake: DiscordFake, tmp_path: Path
) -> None:
    async with fresh_schema(SERVER_URL) as url:
        config = dataclasses.replace(make_bot(fake, tmp_path / "unused.sqlite3").config, database_url=url)
        async with fake.run(GameBot(config)) as running:
            bot = running
            assert bot.leases is not None and bot.leases.held == {0} and bot.held_leases() == frozenset({0})
            await fake.slash("alice", "fish challenge", {"opponent": fake.application_id, "level": "easy"})
            assert len(bot.matches.running()) == 1  # started under the lease (its fence passed)
            assert len(boards(fake, fake.threads[-1])) == 1
            owner = bot.leases.owner
            store = await Store.open(url, TEST_GAMES)
            try:
                row = await store._db.fetchrow("SELECT owner FROM leases WHERE shard = 0")
                assert row is not None and row["owner"] == owner
            finally:
                await store.close()
        store = await Store.open(url, TEST_GAMES)
        try:  # closed: the lease is handed back, so a process started next takes it at once
            assert await store._db.fetchrow("SELECT owner FROM leases WHERE shard = 0") is None
        finally:
            await store.close()


def test_several_shards_make_an_auto_sharded_bot_running_its_own_ids() -> None:
    base = Config(
        discord_token="x", database_path=Path("/tmp/x.sqlite3"), dev_guild_id=None,
        mod_role=None, log_level="INFO", house_wins=True,
    )  # fmt: skip
    one = bot_for(base)
    assert type(one) is GameBot and not isinstance(one, commands.AutoShardedBot)
    sharded = bot_for(dataclasses.replace(base, shards=ShardPlan(4, (1, 3))))
    assert isinstance(sharded, ShardedGameBot) and isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 3])


def sharded_config(fake: DiscordFake, db: Path, plan: ShardPlan, url: str | None = None) -> Config:
    """A bot's config for `plan`'s shards, its commands synced globally (they serve several guilds)."""
    config = make_bot(fake, db).config
    return dataclasses.replace(config, dev_guild_id=None, shards=plan, database_url=url)


async def no_identify_wait(shard_id: int, *, initial: bool = False) -> None:
    """discord.py waits 5 s between two shards' IDENTIFYs (Discord's rate for one bucket); the fake has none."""


async def challenge_in(fake: DiscordFake, channel: str) -> None:
    options = {"opponent": fake.application_id, "level": "easy"}
    reply = await fake.slash("alice", "fish challenge", options, channel=channel)
    assert not reply.ephemeral, reply.content


async def test_one_process_running_two_shards_serves_the_guilds_of_each(fake: DiscordFake, tmp_path: Path) -> None:
    """SHARD_COUNT 2, SHARD_IDS 0,1 in one process: two gateway sessions, each told of its own guilds only,
    and a command in a guild of either shard starts a match with its board posted there."""
    fake.add_guild("shard zero", channels=("zero-games",), shard=(0, 2))
    fake.add_guild("shard one", channels=("one-games",), shard=(1, 2))
    bot = bot_for(sharded_config(fake, tmp_path / "bot.sqlite3", ShardPlan(2, (0, 1))))
    assert isinstance(bot, ShardedGameBot)
    bot.before_identify_hook = no_identify_wait  # type: ignore[method-assign]
    async with fake.run(bot):
        await bot.tree.sync()  # global commands, as `@bot sync` publishes them
        identified = [f["d"]["shard"] for f in fake.gateway_received if f.get("op") == 2]
        assert sorted(identified) == [[0, 2], [1, 2]]
        for ready in (f["d"] for f in fake.gateway_sent if f.get("t") == "READY"):  # each told of its own guilds
            assert {(int(g["id"]) >> 22) % 2 for g in ready["guilds"]} == {ready["shard"][0]}
        for channel in ("zero-games", "one-games"):
            await challenge_in(fake, channel)
        threads = {fake.channel(t.parent_id).name for t in fake.threads}  # type: ignore[arg-type]
        assert threads >= {"zero-games", "one-games"}
        assert len(bot.matches.running()) == 2
        for thread in fake.threads:
            assert len(boards(fake, thread)) == 1


@pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
async def test_two_processes_one_shard_each_on_postgresql_each_plays_its_own_guilds_only(
    fake: DiscordFake, tmp_path: Path
) -> None:
    """Two bot processes over one PostgreSQL, each IDENTIFYing one shard of two: each holds its shard's lease,
    gets its own guilds' commands, and plays (and stores under its lease) only the matches there."""
    zero = fake.add_guild("shard zero", channels=("zero-games",), shard=(0, 2))
    one = fake.add_guild("shard one", channels=("one-games",), shard=(1, 2))
    async with fresh_schema(SERVER_URL) as url:
        first = bot_for(sharded_config(fake, tmp_path / "a.sqlite3", ShardPlan(2, (0,)), url))
        second = bot_for(sharded_config(fake, tmp_path / "b.sqlite3", ShardPlan(2, (1,)), url))
        async with fake.run(first), fake.run(second):
            await first.tree.sync()  # global commands, as `@bot sync` publishes them
            assert first.leases is not None and second.leases is not None
            assert first.leases.held == {0} and second.leases.held == {1}
            await challenge_in(fake, "zero-games")
            await challenge_in(fake, "one-games")
            assert [m.place.guild_id for m in first.matches.running()] == [zero.id]
            assert [m.place.guild_id for m in second.matches.running()] == [one.id]
            for thread in fake.threads:
                assert len(boards(fake, thread)) == 1
