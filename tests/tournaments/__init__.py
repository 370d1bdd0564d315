"""Tournament tests: random tournaments played out with seeded generators, and hand-computed examples."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.tournaments import Tournament
from bot.tournaments.model import Entrant, Pairing, Result, Round

Check = Callable[[Tournament, Tournament], None]
"""Called as check(before, after) each time a round has been paired (`before` is the tournament without it)."""


def entered(fmt: str, count: int, rng: random.Random, game: str = "fish", seats: int | None = None,
            rounds: int | None = None) -> Tournament:  # fmt: skip
    """A tournament with `count` players of random ratings (some equal), not started."""
    t = Tournament.new(game, fmt, seats=seats, rounds=rounds)
    for i in range(count):
        t = t.add_entrant(f"id{i}", f"player {i}", rng.choice((1200, 1500, 1500, 1800)) + rng.randint(0, 3))
    return t


def play_out(
    t: Tournament,
    rng: random.Random,
    *,
    draws: float = 0.25,
    withdrawals: float = 0.08,
    check: Check | None = None,
) -> Tournament:
    """Starts `t` (if need be) and plays it to the end with random results: each game a win for a random seat
    or (with probability `draws`) a shared place; after any result a random active player may withdraw."""
    if not t.started:
        before, t = t, t.start()
        if check:
            check(before, t)
    guard = 0
    while not t.finished:
        guard += 1
        assert guard < 500, "the tournament never ends"
        number = t.current.number
        for board, p in enumerate(t.current.pairings, 1):
            if t.pairing_at(number, board).result is not None:
                continue
            k = len(p.seats)
            drawn = rng.random() < draws
            places = [rng.randint(1, 2) for _ in range(k)] if drawn else rng.sample(range(1, k + 1), k)
            t = t.record_result(number, board, places)
            if rng.random() < withdrawals and len(t.active()) > 2 and not t.finished:
                t = t.withdraw(t.entrants[rng.choice(t.active())].id)
        while t.round_complete and not t.finished:
            before, t = t, t.next_round()
            if check:
                check(before, t)
    return t


def built(fmt: str, names: str, rounds: list[list[tuple[tuple[int, ...], tuple[int, ...] | None]]],
          game: str = "fish", seats: int = 2) -> Tournament:  # fmt: skip
    """A tournament with the given pairings and places (None: a bye), players A, B, C... seeded in order."""
    entrants = tuple(Entrant(f"id{k}", name, 2000 - k) for k, name in enumerate(names))
    made = tuple(
        Round(n, tuple(Pairing(s, Result("bye", (1,)) if p is None else Result("played", p)) for s, p in r))
        for n, r in enumerate(rounds, 1)
    )
    return Tournament(game, fmt, seats, len(rounds) if fmt == "swiss" else None, entrants=entrants,
                      seeds=tuple(range(len(names))), rounds=made)  # fmt: skip
