"""A tiny game that is not in GAMES, used to prove the service needs nothing game-specific.

Players take turns adding 1 or 2 to a running total; whoever brings it to 5 or more wins. Either player
may also play `draw`, which ends the game drawn at once. That makes every result easy to arrange.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from bot.games import IllegalMove, Outcome
from bot.games.base import GameRules, Option, Options, check_new


@dataclass(frozen=True)
class ToyState:
    total: int
    turn: int | None
    first: int
    seats: int
    winner: int | None = None
    last: str | None = None


class Toy(GameRules):
    key = "toy"
    title = "Toy"
    min_players = 2
    max_players = 3
    options = Options(Option("first", "seat", "who moves first", default=0))
    rules_card = "Add 1 or 2; reach 5 to win."

    def new(self, seats: int, seed: int, **options: Any) -> ToyState:
        first = check_new(self, seats, seed, options)["first"]
        return ToyState(0, first, first, seats)

    def to_move(self, state: ToyState) -> int | None:
        return state.turn

    def legal_moves(self, state: ToyState) -> list[str]:
        return [] if state.turn is None else ["1", "2", "draw"]

    def parse(self, state: ToyState, text: str) -> str:
        """A move of this game is its canonical text itself: "1", "2" or "draw"."""
        if state.turn is None or text.strip().lower() not in self.legal_moves(state):
            raise IllegalMove(f"{text!r}: play 1, 2 or draw.")
        return text.strip().lower()

    def notation(self, move: str) -> str:
        return move

    def play(self, state: ToyState, move: str) -> ToyState:
        move = self.parse(state, move)  # a str is parsed, as the contract says (here every move is one)
        assert state.turn is not None
        if move == "draw":
            return replace(state, turn=None, last=move)
        total = state.total + int(move)
        if total >= 5:
            return replace(state, total=total, turn=None, winner=state.turn, last=move)
        return replace(state, total=total, turn=(state.turn + 1) % state.seats, last=move)

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.turn is not None:
            return None
        winners = frozenset() if state.winner is None else frozenset({state.winner})
        scores = tuple(1.0 if s == state.winner else 0.0 for s in range(state.seats))
        return Outcome(scores, winners, "drawn" if state.winner is None else "reached 5")

    def scores(self, state: ToyState) -> tuple[float, ...]:
        return (0.0,) * state.seats

    def events(self, state: ToyState) -> tuple[str, ...]:
        return () if state.last is None else (f"The total is {state.total}.",)

    def view(self, state: ToyState, seat: int | None) -> ToyState:
        return state

    def dumps(self, state: ToyState) -> str:
        return json.dumps(state.__dict__)

    def loads(self, text: str) -> ToyState:
        return ToyState(**json.loads(text))


TOY = Toy()
