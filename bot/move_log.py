"""The move log replayed: one function for the service, the store and records.

The log is append-only: a move, a resignation (`resign`, in games whose seats can leave), an undo, which
takes back the last line still standing, or a reseed (`reseed`, in games with chance): the fresh secret seed
a takeback or an undo gave the position it went back to, so the dice and cards to come are not the ones
the undone moves showed. Engines are pure, so the seed, the options and the log rebuild every position
exactly. A reseed line's move is its seed: like the match's seed it is secret while the game runs (no
post, view or history shows it) and is published with the record once it is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.games import Game, GameError, Termination
from bot.models import MoveRecord

RESIGN = "resign"
UNDO = "undo"
RESEED = "reseed"
SEED_DIGITS = 20
"""The most digits a reseed line's seed may have (the service draws 48 bits; records are read from files)."""
CLAIMED = "claim"
"""The move text of a `resign` line by which an opponent's claim put an idle seat out (its `by_id` is the
claimer); a resignation's and a flag's say `resign`."""


def leaving(record: MoveRecord) -> Termination:
    """How a seat left the game in a `resign` line: RESIGNATION when its player resigned, FLAG when its time
    ran out (the service logs that line by nobody), CLAIM when an opponent claimed it out (bot/service/claims.py)."""
    if record.move == CLAIMED:
        return Termination.CLAIM
    return Termination.RESIGNATION if record.by_id is not None else Termination.FLAG


class ReplayError(ValueError):
    """A log line that cannot be replayed; the message names the line and says why."""


def standing(log: Iterable[MoveRecord]) -> list[MoveRecord]:
    """The moves and resignations still standing: each undo takes back the last one before it (reseeds are
    not lines of play: `positions` applies them)."""
    lines: list[MoveRecord] = []
    for record in log:
        if record.kind == UNDO:
            if not lines:
                raise ReplayError(
                    f"line {record.ply} ({record.kind} {record.move!r}) takes back a move, but no move is standing."
                )
            lines.pop()
        elif record.kind != RESEED:
            lines.append(record)
    return lines


def positions(game: Game, seats: int, seed: int, options: dict[str, Any], log: Iterable[MoveRecord]) -> list[Any]:
    """Every position of the line of play that stands: the start, then one per standing line, each with the
    chance it was played with (a reseed line gives the position it follows fresh chance, `game.reseed`).

    Give the whole log: a list of standing lines leaves out the reseeds between them. Each move must be its
    seat's to make; a line the engine refuses raises ReplayError naming it."""
    states = [game.new(seats, seed, **options)]
    for line in log:
        if line.kind == RESEED:  # its seed is never written into a message
            states[-1] = game.reseed(states[-1], seed_of(line))
            continue
        where = f"line {line.ply} ({line.kind} {line.move!r})"
        if line.kind == UNDO:
            if len(states) == 1:
                raise ReplayError(f"{where} takes back a move, but no move is standing.")
            states.pop()
            continue
        state = states[-1]
        try:
            if line.kind == RESIGN:
                state = game.resign(state, line.seat)
            else:
                if game.to_move(state) != line.seat:
                    raise ReplayError(f"{where}: seat {line.seat} is not the one to move there.")
                state = game.play(state, line.move)
        except GameError as error:
            raise ReplayError(f"{where} cannot be replayed: {error}") from None
        states.append(state)
    return states


def seed_of(line: MoveRecord) -> int:
    """The seed of a reseed line; ReplayError for one that is not a whole number of at most SEED_DIGITS."""
    text = line.move
    if not (text.isascii() and text.isdigit() and len(text) <= SEED_DIGITS):
        raise ReplayError(f"line {line.ply} (reseed) holds no seed: a whole number of at most {SEED_DIGITS} digits.")
    return int(text)


def final_position(game: Game, seats: int, seed: int, options: dict[str, Any], log: Iterable[MoveRecord]) -> Any:
    return positions(game, seats, seed, options, log)[-1]
