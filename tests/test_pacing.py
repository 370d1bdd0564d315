"""The bot keeps Discord's global limit itself (bot/pacing.py): discord.py learns of it only from a 429."""

from __future__ import annotations

import asyncio

from bot.pacing import Pace, paced
from tests.discord_fake import DiscordFake
from tests.test_discord_fake import TinyBot


async def test_a_request_past_the_limit_waits_until_the_oldest_leaves_the_window() -> None:
    pace, loop = Pace(per_second=3, window=0.2), asyncio.get_running_loop()
    times = []
    for _ in range(7):
        await pace.wait()
        times.append(loop.time())
        pace.done()
    for i in range(3, 7):  # never more than 3 in any 0.2 s
        assert times[i] - times[i - 3] >= 0.2


async def test_requests_are_counted_as_they_arrive_however_late_the_first_ones_get_there() -> None:
    """A first batch that reaches Discord late (a slow network, a busy event loop) and a second batch that
    goes quickly must not meet within one window: each turn lasts until a window after its answer."""
    pace, loop = Pace(per_second=3, window=0.2), asyncio.get_running_loop()
    arrived: list[float] = []

    async def request(delay: float) -> None:
        await asyncio.sleep(delay)  # on its way
        arrived.append(loop.time())

    send = paced(request, pace)
    await asyncio.gather(*(send(0.15 if i < 3 else 0.0) for i in range(9)))
    arrived.sort()
    for i in range(3, 9):  # never more than 3 reach Discord in any 0.2 s
        assert arrived[i] - arrived[i - 3] >= 0.2


async def test_sixty_posts_at_once_in_sixty_channels_get_no_429() -> None:
    names = [f"room-{i}" for i in range(60)]
    async with DiscordFake.serve(channels=names) as fake:  # Discord's real limits: 50 a second in all
        bot = TinyBot(fake.guild.id)
        bot.http.request = paced(bot.http.request, Pace())  # type: ignore[method-assign]
        async with fake.run(bot):
            channels = [bot.get_channel(fake.channel(name).id) for name in names]
            await asyncio.gather(*(channel.send("♟ 1") for channel in channels))  # type: ignore[union-attr]
            assert all(fake.channel_messages(name) for name in names) and fake.rate_limited == []
