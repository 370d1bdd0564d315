"""How fast `/<game> review` answers a click, through the real discord.py code against the strict fake Discord
of tests/ on 127.0.0.1: from sending the click to the review message edited with its new picture.

Run: .venv/bin/python bench/review.py [--steps 60] [--latency 0.0]

One finished game of each game (a 4-player Geyser game of 453 plies, the largest the bot sees) is played
into the database first, then reviewed from the start: the command itself (its first replay of the game,
cold), then `--steps` clicks on ▶ (a picture each, drawn once), jumps (⏭, ⏮, a key moment) and the same
positions again (cached). Discord allows 3 s for the first answer: a click answers at once (a deferred
update) and the edit follows; the figures are the whole way, click to edit.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles
from bot.games import GAMES
from bot.models import Place, Player
from bot.service import MatchService
from bot.store import Store
from tests.discord_fake import DiscordFake
from tests.discord_helpers import make_bot

NAMES = ("alice", "bob", "carol", "dave")
GAMES_PLAYED = {"fish": (2, 1), "volcano": (2, 1), "themiscyra": (2, 1), "geyser": (4, 3), "horizon": (2, 1)}
"""(seats, seed) of each game reviewed: seed 3 makes the 4-player Geyser game 453 plies long."""


async def played(fake: DiscordFake, path: Path) -> dict[str, int]:
    """One finished game of each game, played by random moves straight into the database (no posts)."""
    store = await Store.open(path)
    service = MatchService(store)
    await service.start()
    place = Place(fake.guild.id, fake.channel("games").id)
    ids = {}
    for key, (seats, seed) in GAMES_PLAYED.items():
        game, rng = GAMES[key], random.Random(seed)
        people = [Player(f"discord:{fake.user(name)['id']}", name) for name in NAMES[:seats]]
        match = await service.create_match(key, people, seed=seed, place=place)
        while match.running:
            seat = game.to_move(match.state)
            await service.move(match.id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))
            match = await service.get(match.id)
        ids[key] = match.id
    await service.close()
    return ids


async def click(fake: DiscordFake, message: object, **where: str) -> float:
    started = time.perf_counter()
    await fake.click("erin", message, **where)  # returns once the message is edited
    return time.perf_counter() - started


async def run(steps: int, latency: float) -> None:
    async with DiscordFake.serve(members=(*NAMES, "erin"), latency=latency, timeout=60) as fake:
        with tempfile.TemporaryDirectory() as folder:
            ids = await played(fake, Path(folder) / "bench.sqlite3")
            async with fake.run(make_bot(fake, Path(folder) / "bench.sqlite3")) as bot:
                for key, match_id in ids.items():
                    match = await bot.matches.get(match_id)
                    plies = len([line for line in await bot.matches.log(match_id)])
                    started = time.perf_counter()
                    opened = await fake.slash("erin", f"{key} review", {"match": match_id, "move": 0}, channel="games")
                    cold = time.perf_counter() - started
                    fresh = [await click(fake, opened.message, label="▶") for _ in range(min(steps, plies))]
                    jumps = [await click(fake, opened.message, label=label) for label in (*("⏮", "⏭") * 3, "⏮")]
                    again = [await click(fake, opened.message, label="▶") for _ in range(min(steps, plies))]
                    print(f"{GAMES[key].title} #{match.id}: {plies} plies, {len(match.players)} players")
                    print(f"  /{key} review (first replay)  {cold * 1000:7.2f} ms")
                    print(f"  ▶ new position     {percentiles(fresh)}")
                    print(f"  ⏭ / ⏮ jumps        {percentiles(jumps)}")
                    print(f"  ▶ seen before      {percentiles(again)}")
        if fake.rejected:
            print(f"Discord would have rejected {len(fake.rejected)} requests:", *fake.rejected, sep="\n  ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=60, help="clicks on ▶ per game (default 60)")
    parser.add_argument("--latency", type=float, default=0.0, help="simulated network latency per request, seconds")
    args = parser.parse_args()
    asyncio.run(run(args.steps, args.latency))


if __name__ == "__main__":
    main()
