"""How fast the bot acknowledges interactions (Discord's 3 s rule), through the real discord.py code against
the strict fake Discord of tests/ on 127.0.0.1, with an optional simulated network latency per request.

Run: .venv/bin/python bench/discord_ack.py [--latency 0.1] [--moves 60]
It prints, per kind of interaction, the time from sending it to the bot's first answer (its callback), and
for moves the time until the new board is posted. Target (DESIGN.md): every first answer within 3 s,
whatever follows (a game-ending move builds a replay GIF after it has answered).
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
from tests.discord_fake import DiscordFake
from tests.discord_helpers import boards, make_bot

FISH, THEMISCYRA, HORIZON = GAMES["fish"], GAMES["themiscyra"], GAMES["horizon"]


async def acked(reply: object, started: float) -> float:
    await reply.wait_callback(timeout=30)  # type: ignore[attr-defined]
    return time.perf_counter() - started


async def run(latency: float, moves: int) -> None:
    async with DiscordFake.serve(members=("alice", "bob"), latency=latency, timeout=60) as fake:
        with tempfile.TemporaryDirectory() as folder:
            bot = make_bot(fake, Path(folder) / "bench.sqlite3")
            bot.hold_retries = ()
            async with fake.run(bot):
                await measure(fake, bot, moves)
        if fake.rejected:
            print(f"Discord would have rejected {len(fake.rejected)} requests:", *fake.rejected, sep="\n  ")


async def measure(fake: DiscordFake, bot: object, moves: int) -> None:
    service = bot.matches  # type: ignore[attr-defined]
    first: dict[str, list[float]] = {}
    posted: list[float] = []

    asked = await fake.slash("alice", "fish challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    thread = fake.threads[-1]
    rng = random.Random(1)
    for _ in range(moves):
        match = await service.get(1)
        if not match.running:
            break
        user = "alice" if FISH.to_move(match.state) == 0 else "bob"
        move = rng.choice(FISH.legal_moves(match.state))
        seen = len(boards(fake, thread))
        started = time.perf_counter()
        reply = await fake.slash(user, "fish move", {"move": f"{move}@{match.ply}"}, channel=thread, wait=False)
        first.setdefault("/fish move", []).append(await acked(reply, started))
        await fake.wait_until(lambda seen=seen: len(boards(fake, thread)) > seen, what="the board", timeout=30)
        posted.append(time.perf_counter() - started)
        await reply.wait(timeout=30)

    asked = await fake.slash("alice", "themiscyra challenge", {"opponent": "bob"}, channel="games")
    await fake.click("bob", asked.message, label="Accept")
    mid = service.running(game="themiscyra")[0]
    for _ in range(16):
        mid = await service.get(mid.id)
        turn = rng.choice(THEMISCYRA.turns(mid.state))
        await service.move(mid.id, mid.players[THEMISCYRA.to_move(mid.state)].id, str(turn), ply=mid.ply)
    mid = await service.get(mid.id)
    user = "alice" if THEMISCYRA.to_move(mid.state) == 0 else "bob"
    for typed in ("", "a", "e5", "c3 d4", "f6", "j10"):
        started = time.perf_counter()
        await fake.autocomplete(user, "themiscyra move", {"match": mid.id, "move": typed}, channel="games")
        first.setdefault("themiscyra autocomplete", []).append(time.perf_counter() - started)

    ending: list[float] = []
    for _ in range(3):  # Event Horizon: the space menu of a card that ends the game (then a replay GIF)
        asked = await fake.slash("alice", "horizon challenge", {"opponent": "bob"}, channel="games")
        await fake.click("bob", asked.message, label="Accept")
        game = service.running(game="horizon")[-1]
        thread = fake.threads[-1]
        while True:
            game = await service.get(game.id)
            moves = HORIZON.legal_moves(game.state)
            last = [m for m in moves if m.startswith("place") and HORIZON.outcome(HORIZON.play(game.state, m))]
            if last:
                break
            await service.move(game.id, game.players[HORIZON.to_move(game.state)].id, rng.choice(moves), ply=game.ply)
        _, card, space = last[0].split()
        user = "alice" if HORIZON.to_move(game.state) == 0 else "bob"
        menu = await fake.slash(user, "horizon play", {"match": game.id}, channel="games")
        await fake.select(user, menu.message, f"hz-card:{game.id}:{game.ply}", [card])
        started = time.perf_counter()
        reply = await fake.select(user, menu.message, f"hz-space:{game.id}:{game.ply}:{card}", [space], wait=False)
        first.setdefault("horizon menu, game end", []).append(await acked(reply, started))
        await fake.wait_for_message(lambda m: any(a.filename.endswith(".gif") for a in m.attachments), channel=thread)
        ending.append(time.perf_counter() - started)
        await reply.wait(timeout=60)

    players = [Player(f"discord:{fake.user(u)['id']}", u) for u in ("alice", "bob")]
    for _ in range(200):
        await service.create_match("fish", players, place=Place(fake.guild.id, fake.channel("games").id))
    for page in range(1, 11):
        started = time.perf_counter()
        reply = await fake.slash("bob", "games", {"page": page} if page > 1 else {}, channel="general", wait=False)
        first.setdefault("/games (200+ running)", []).append(await acked(reply, started))

    for label, samples in first.items():
        print(f"{label:28} first answer {percentiles(samples)}")
    print(f"{'/fish move':28} board posted {percentiles(posted)}")
    print(f"{'horizon menu, game end':28} GIF posted   {percentiles(ending)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every request the bot makes")
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    print(f"simulated latency {args.latency * 1000:.0f} ms a request")
    asyncio.run(run(args.latency, args.moves))


if __name__ == "__main__":
    main()
