"""Every sentence a tournament's notices say, as bot/posts.py has a match's: bot/service/tournaments.py decides
what happened and sends the notices, both front-ends post them, and this module words them (it imports no
`bot.service` module)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.models import Player
from bot.tournaments import standings
from bot.tournaments.stored import BoardGame, HeldTournament
from bot.wording import plural

FORMAT_NAMES = {"knockout": "knockout", "roundrobin": "round robin", "swiss": "Swiss"}


def title(held: HeldTournament, games: dict[str, Any]) -> str:
    """`Tournament #3 ("1, 2, 3", Swiss)`."""
    t = held.tournament
    return f"Tournament #{held.id} ({games[t.game].title}, {FORMAT_NAMES[t.format]})"


def opened(held: HeldTournament, games: dict[str, Any]) -> str:
    return f"{title(held, games)} is open: sign up!"


def joined(player: Player, held: HeldTournament) -> str:
    count = len(held.tournament.entrants)
    return f"{player.name} signed up for tournament #{held.id} ({plural(count, 'player')} so far)."


def left(player: Player, held: HeldTournament) -> str:
    count = len(held.tournament.entrants)
    return f"{player.name} left the sign-up of tournament #{held.id} ({plural(count, 'player')} left)."


def started(held: HeldTournament, games: dict[str, Any]) -> str:
    return f"{title(held, games)} has started with {plural(len(held.tournament.entrants), 'player')}."


def cancelled(held: HeldTournament, games: dict[str, Any]) -> str:
    count = len(held.tournament.entrants)
    return f"{title(held, games)} is cancelled: only {plural(count, 'player')} signed up."


def withdrew(player: Player, held: HeldTournament, by: Player) -> str:
    """`bob withdrew from tournament #2 (mod).` (the moderator named only when it was not the player)."""
    return f"{player.name} withdrew from tournament #{held.id}" + (f" ({by.name})." if by.id != player.id else ".")


def adjudicated(by: Player, held: HeldTournament, round_no: int, board: int, places: Sequence[int] | str) -> str:
    said = "void" if places == "void" else "-".join(str(p) for p in places)
    return f"{by.name} adjudicated round {round_no}, board {board} of tournament #{held.id}: {said}."


def replaced(new: Player, old: str, held: HeldTournament, by: Player) -> str:
    return f"{new.name} takes over from {old} in tournament #{held.id} ({by.name})."


def voided(by: Player, held: HeldTournament, number: int) -> str:
    return f"{by.name} voided round {number} of tournament #{held.id}: it is paired again."


def game_aborted(held: HeldTournament, round_no: int, board: int) -> str:
    return (
        f"The game of round {round_no}, board {board} of tournament #{held.id} was aborted: a moderator "
        f"gives it a result with `/tournament adjudicate round:{round_no} board:{board}`."
    )


def round_lines(held: HeldTournament, games: dict[str, Any], boards: Sequence[BoardGame]) -> tuple[str, ...]:
    """A round's pairings: its head, then a line a board (a bye, a forfeit, or the game it is played in)."""
    t = held.tournament
    lines = [f"Round {t.current.number} of {t.planned_rounds} of {title(held, games)}:"]
    for b in boards:
        names = " vs ".join(p.name for p in b.players)
        if b.result == "bye":
            lines.append(f"Bye: {names}")
        elif b.result == "forfeit":
            lines.append(f"Board {b.board}: {names} (decided by forfeit)")
        else:
            game = f"death match #{b.series_id}" if b.series_id else f"match #{b.match_id}"
            lines.append(f"Board {b.board}: {names} ({game})")
    return tuple(lines)


def over_lines(held: HeldTournament, games: dict[str, Any]) -> tuple[str, ...]:
    t = held.tournament
    top = [t.entrants[s.entry].name for s in standings(t) if s.rank == 1]
    who = " and ".join(top) if top else "nobody"
    verb = "wins" if len(top) == 1 else "share first place"
    return (f"{title(held, games)} is over: {who} {verb}.",)
