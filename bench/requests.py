"""Rate-limited requests per move, per game, through the real discord.py code against the fake Discord of
tests/ at Discord's real rate limits (5 messages per 5 s in a channel, 50 requests a second in all).

A rate-limited request is one under the global limit: everything but interaction callbacks and the
interaction webhooks (followups, ``@original``), which Discord exempts. Counted from the match's start
(its thread and first board) to its end (the replay), divided by the moves played, in four ways:

* command: every move typed with ``/<game> move`` in the match's thread;
* button: every move the board offers as a button or menu (Geyser's choices, Event Horizon's card menus)
  clicked, the others typed;
* computer: Alice against the easy computer, by command (the computer's moves count too);
* reminders: an untimed game where every turn waits a day, so each gets its reminder before the move.

Then a blitz death match of "1, 2, 3" where both players move every second: the time from each move's
interaction to its board in the thread (p50/p99), and any 429.

Run: .venv/bin/python bench/requests.py [--moves 40] [--games fish,volcano,...]
Target (issue 31): at most 1.0 rate-limited request per move on average in every game; the blitz board
latency p99 under 1 s; no 429. A reminder is a post of its own (it has to ping): the last line says what
the moves cost besides it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentiles
from bot.clock import FakeTime, parse_clock
from bot.discord_app import GameBot
from bot.games import GAMES
from bot.models import Match, Place, Player, computer
from bot.reminders import DAY
from tests.discord_fake import DiscordFake, RecordedRequest
from tests.discord_fake.ratelimits import exempt_from_global
from tests.discord_helpers import boards, make_bot

MODES = ("command", "button", "computer", "reminders")


def limited(requests: list[RecordedRequest]) -> int:
    return sum(1 for r in requests if not exempt_from_global(r.path))


def person(fake: DiscordFake, name: str) -> Player:
    return Player(f"discord:{fake.user(name)['id']}", name.title())


async def started(fake: DiscordFake, bot: GameBot, game: str, players: list[Player], **options: Any) -> Match:
    place = Place(fake.guild.id, fake.channel("games").id)
    created = await bot.matches.create_match(game, players, place=place, **options)
    found = await fake.wait_until(
        lambda: (m := bot.matches.running_match(created.id)) is not None and m.board is not None and m,
        what="the first board",
        timeout=30,
    )
    assert isinstance(found, Match)
    return found


async def click_move(fake: DiscordFake, user: str, match: Match, move: str) -> bool:
    """Play `move` by a button or menu if the board or the game's menus offer it; False if they do not."""
    game = GAMES[match.game]
    assert match.board is not None
    board = fake.messages[match.board[1]]
    ids = board.custom_ids
    if move in game.choices(match.state):
        button = f"play:{match.id}:{match.ply}:{move}"
        if button in ids:
            await (await fake.click(user, board, button, wait=False)).wait(timeout=60)
            return True
        pick = f"pick:{match.id}:{match.ply}"
        if pick in ids:
            await (await fake.select(user, board, pick, [move], wait=False)).wait(timeout=60)
            return True
    if match.game == "horizon" and move.startswith("place "):
        _, card, space = move.split()
        thread = match.place.thread_id
        menu = await fake.slash(user, "horizon play", {"match": match.id}, channel=thread)
        await fake.select(user, menu.message, f"hz-card:{match.id}:{match.ply}", [card])
        done = await fake.select(user, menu.message, f"hz-space:{match.id}:{match.ply}:{card}", [space], wait=False)
        await done.wait(timeout=60)
        return True
    return False


async def play(
    fake: DiscordFake,
    bot: GameBot,
    match: Match,
    users: dict[str, str],
    moves: int,
    mode: str,
    before_move: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Play up to `moves` of the humans' moves (random, seeded) the way `mode` says; returns how many."""
    rng = random.Random(7)
    game = GAMES[match.game]
    played = 0
    while played < moves:
        if bot.computers is not None:
            await bot.computers.idle()
        match = await bot.matches.get(match.id)
        if not match.running:
            break
        seat = game.to_move(match.state)
        player = match.players[seat]
        if player.id not in users:  # the computer's turn that `idle` has not seen start yet
            await asyncio.sleep(0.01)
            continue
        if before_move is not None:
            await before_move()
            match = await bot.matches.get(match.id)
        user = users[player.id]
        move = rng.choice(game.legal_moves(match.state))
        seen = len(fake.requests)
        if not (mode == "button" and await click_move(fake, user, match, move)):
            reply = await fake.slash(
                user, f"{match.game} move", {"move": f"{move}@{match.ply}", "match": match.id},
                channel=match.place.thread_id, wait=False,
            )  # fmt: skip
            await reply.wait(timeout=60)
        played += 1
        await fake.wait_until(lambda seen=seen: len(fake.requests) > seen, what="the move's requests", timeout=30)
    if bot.computers is not None:
        await bot.computers.idle()
    return played


async def one_game(game: str, mode: str, moves: int) -> tuple[float, float, int, int]:
    """(rate-limited requests per move, of which reminders, moves, 429s) for one game played in `mode`."""
    async with DiscordFake.serve(members=("alice", "bob"), timeout=120) as fake:
        with tempfile.TemporaryDirectory() as folder:
            bot = make_bot(fake, Path(folder) / "bench.sqlite3")
            clock = FakeTime(time.time()) if mode == "reminders" else None
            bot.time = clock
            async with fake.run(bot):
                alice, bob = person(fake, "alice"), person(fake, "bob")
                users = {alice.id: "alice", bob.id: "bob"}
                players = [alice, computer("easy")] if mode == "computer" else [alice, bob]
                before = len(fake.requests)
                match = await started(fake, bot, game, players)
                ply = match.ply

                async def a_day_later() -> None:
                    assert clock is not None
                    thread = fake.channel(match.place.thread_id)
                    seen = len(fake.channel_messages(thread))
                    fake.advance_clock(DAY + 60)
                    clock.advance(DAY + 60)
                    await fake.wait_until(lambda: len(fake.channel_messages(thread)) > seen, what="the reminder")

                await play(fake, bot, match, users, moves, mode, a_day_later if mode == "reminders" else None)
                final = await bot.matches.get(match.id)
                if not final.running:  # the final board's replay and the analysis (if any) are part of the game
                    await fake.wait_until(
                        lambda: any(a.filename.endswith(".gif") for m in fake.messages.values() for a in m.attachments),
                        what="the replay",
                        timeout=60,
                    )
                count = limited(fake.requests[before:])
                made = max(1, final.ply - ply)
                reminded = sum(1 for m in fake.messages.values() if "your turn in match" in m.content)
        rate_limited = len(fake.rate_limited)
        fake.rate_limited.clear()
    return count / made, reminded / made, made, rate_limited


async def blitz(moves: int) -> tuple[list[float], int]:
    """A 30/60 death match of "1, 2, 3" where each player moves a second after the other's board."""
    latencies: list[float] = []
    async with DiscordFake.serve(members=("alice", "bob"), timeout=120) as fake:
        with tempfile.TemporaryDirectory() as folder:
            bot = make_bot(fake, Path(folder) / "bench.sqlite3")
            async with fake.run(bot):
                alice, bob = person(fake, "alice"), person(fake, "bob")
                users = {alice.id: "alice", bob.id: "bob"}
                match = await started(fake, bot, "fish", [alice, bob], clock=parse_clock("30/60"))
                rng = random.Random(3)
                replies = []
                thread = match.place.thread_id
                for _ in range(moves):
                    match = await bot.matches.get(match.id)
                    if not match.running:
                        break
                    seat = GAMES["fish"].to_move(match.state)
                    move = rng.choice(GAMES["fish"].legal_moves(match.state))
                    seen = len(boards(fake, thread))
                    await asyncio.sleep(0.5)  # both move every second: half a second each
                    begun = time.perf_counter()
                    reply = await fake.slash(
                        users[match.players[seat].id], "fish move", {"move": f"{move}@{match.ply}"},
                        channel=thread, wait=False,
                    )  # fmt: skip
                    await fake.wait_until(lambda seen=seen: len(boards(fake, thread)) > seen, what="board", timeout=60)
                    latencies.append(time.perf_counter() - begun)
                    replies.append(reply)  # the next player moves on seeing the board, whatever the bot does next
                for reply in replies:
                    await reply.wait(timeout=60)
        rate_limited = len(fake.rate_limited)
        fake.rate_limited.clear()
    return latencies, rate_limited


async def main(games: list[str], moves: int) -> None:
    print(f"rate-limited requests per move (Discord's real limits; up to {moves} moves a game, 2 players)")
    print(f"{'game':12}" + "".join(f"{mode:>14}" for mode in MODES) + "      429s")
    worst = worst_reminded = 0.0
    for game in games:
        cells, refused = [], 0
        for mode in MODES:
            per_move, reminders, made, limited_count = await one_game(game, mode, moves)
            worst = max(worst, per_move - reminders)
            worst_reminded = max(worst_reminded, per_move)
            refused += limited_count
            cells.append(f"{per_move:8.2f} ({made:3})")
        print(f"{game:12}" + "".join(f"{cell:>14}" for cell in cells) + f"{refused:10}")
    print(f"worst average: {worst:.2f} requests per move besides reminders (target at most 1.00);")
    print(f"  {worst_reminded:.2f} with a reminder every turn, each reminder being one post of its own")
    latencies, refused = await blitz(moves)
    print(f"blitz death match, a move every half second each: board latency {percentiles(latencies)}, 429s {refused}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--games", default=",".join(GAMES))
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games.split(","), arguments.moves))
