"""The move log replayed: one function for the service, the store and records.

The log is append-only: a move, a resignation (`resign`, in games whose seats can leave) or an undo,
which takes back the last line still standing. Engines are pure, so the seed, the options and the
standing lines rebuild every position exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.games import Game, GameError, Termination
from bot.models import MoveRecord

RESIGN = "resign"
UNDO = "undo"
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
    """The lines still standing: each undo takes back the last one before it."""
    lines: list[MoveRecord] = []
    for record in log:
        if record.kind == UNDO:
            if not lines:
                raise ReplayError(
                    f"line {record.ply} ({record.kind} {record.move!r}) takes back a move, but no move is standing."
                )
            lines.pop()
        else:
            lines.append(record)
    return lines


def positions(game: Game, seats: int, seed: int, options: dict[str, Any], log: Iterable[MoveRecord]) -> list[Any]:
    """Every position of the line of play that stands: the start, then one per standing line.

    Each move must be its seat's to make; a line the engine refuses raises ReplayError naming it."""
    states = [game.new(seats, seed, **options)]
    for line in standing(log):
        where = f"line {line.ply} ({line.kind} {line.move!r})"
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


def final_position(game: Game, seats: int, seed: int, options: dict[str, Any], log: Iterable[MoveRecord]) -> Any:
    return positions(game, seats, seed, options, log)[-1]
