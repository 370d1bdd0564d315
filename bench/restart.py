"""What a restart costs with many running matches: requests, pings, 429s and the time until the last live
board is up, through the real discord.py code against the strict fake Discord of tests/ on 127.0.0.1.

Run: .venv/bin/python bench/restart.py [--matches 10000] [--live 0.01]
A first bot starts the live matches (30 s + 60 s clocks, each in its own thread, as `/fish challenge`
opens them); the correspondence matches (1d/7d, their boards up) are written straight into the same SQLite
database, which is quicker than posting 9,900 boards and is what the bot would have stored. The bot is
stopped, and a second one started on the database: it posts again only the live boards (soonest deadline
first, one ping per player), while the rest go on quietly with the downtime credited. Requests are counted
by route from the second bot's login, at Discord's real rate limits as the fake models them
(tests/discord_fake/ratelimits.py); discord.py paces itself by their headers, and 429s are counted too.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.clock import ClockSettings, parse_clock
from bot.games import GAMES
from bot.models import Place, Player
from bot.service.registry import new_match
from tests.discord_fake import DiscordFake
from tests.discord_helpers import make_bot

FISH = GAMES["fish"]
PEOPLE = tuple(f"p{n}" for n in range(40))
LIVE_CLOCK = ClockSettings(30, 60)


def route(path: str) -> str:
    """A request's route with its ids taken out (`/channels/{id}/messages`)."""
    return re.sub(r"/\d{5,}", "/{id}", re.sub(r"/fake-interaction-token-\d+", "/{token}", path))


async def run(matches: int, live_share: float) -> None:
    live = max(1, round(matches * live_share))
    async with DiscordFake.serve(members=PEOPLE, timeout=600) as fake:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "bench.sqlite3"
            people = [Player(f"discord:{fake.user(name)['id']}", name) for name in PEOPLE]
            place = Place(fake.guild.id, fake.channel("general").id)
            first = make_bot(fake, db)
            first.hold_retries = ()
            async with fake.run(first):
                service = first.matches
                for n in range(live):
                    pair = [people[n % len(people)], people[(n * 7 + 1) % len(people)]]
                    if pair[0] == pair[1]:
                        pair[1] = people[(n + 1) % len(people)]
                    await service.create_match("fish", pair, clock=LIVE_CLOCK, place=place)
                await fake.wait_until(
                    lambda: all(m.board_ply == m.ply for m in service.running()), what="the live boards", timeout=600
                )
                now = service.time.now()
                store = service.store
                async with store.transaction():
                    for n in range(matches - live):
                        pair = (people[n % len(people)], people[(n // len(people) + n + 1) % len(people)])
                        if pair[0] == pair[1]:
                            pair = (pair[0], people[(n + 2) % len(people)])
                        match = new_match(FISH, pair, {}, n, parse_clock("1d/7d"), place, now)
                        match.id = await store.insert_match(match)
                        match.clock = match.clock.posted(now) if match.clock else None
                        match.board, match.board_ply = (place.channel_id or 0, 10**17 + n), 0
                        await store.update_match(match, now)
            before = len(fake.requests)
            second = make_bot(fake, db)
            second.hold_retries = ()
            began = time.perf_counter()
            async with fake.run(second):
                await fake.wait_until(
                    lambda: second._repost_task is not None and second._repost_task.done(),
                    what="the reposts",
                    timeout=600,
                )
                took = time.perf_counter() - began
                made = fake.requests[before:]
                running = len(second.matches.running())
            posted_again = [m for m in fake.messages.values() if "back after a restart" in m.content]
            pings = sum(len(m.pings.users) for m in posted_again)
            by_route = collections.Counter(f"{r.method} {route(r.path)}" for r in made)
            too_many = sum(1 for r in made if r.status == 429)
            print(f"restart with {matches} running matches ({live} on live clocks), {running} resumed:")
            print(f"  requests made: {len(made)}; boards posted again: {len(posted_again)}; pings sent: {pings}")
            print(f"  429 answers: {too_many}; time until the last live board is up: {took:.1f} s")
            for name, count in by_route.most_common():
                print(f"    {count:6d}  {name}")
            for refused in fake.rate_limited:
                print(f"    429: {refused.method} {route(refused.path)} {refused.error}")
            fake.rate_limited.clear()  # counted above: the bench reports them rather than failing on them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--live", type=float, default=0.01, help="the share on live clocks (default 0.01)")
    options = parser.parse_args()
    asyncio.run(run(options.matches, options.live))


if __name__ == "__main__":
    main()
