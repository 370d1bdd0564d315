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
