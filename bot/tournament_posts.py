"""Every sentence a tournament's notices say, as bot/posts.py has a match's: bot/service/tournaments.py decides
what happened and sends the notices, both front-ends post them, and this module words them (it imports no
`bot.service` module)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot import i18n
from bot.i18n import N_, _, ngettext
from bot.models import Player
from bot.posts import public, versus
from bot.tournaments import standings
from bot.tournaments.stored import BoardGame, HeldTournament
from bot.wording import listing

FORMAT_NAMES = {"knockout": N_("knockout"), "roundrobin": N_("round robin"), "swiss": N_("Swiss")}
"""Each format's name, said with `_(...)` in the reader's language (the keys are what a moderator types)."""


def title(held: HeldTournament, games: dict[str, Any]) -> str:
    """`Tournament #3 ("1, 2, 3", Swiss)`."""
    t = held.tournament
    return _("Tournament #{number} ({game}, {format})").format(
        number=held.id, game=games[t.game].title, format=_(FORMAT_NAMES[t.format])
    )


@public
def opened(held: HeldTournament, games: dict[str, Any]) -> str:
    return _("{tournament} is open: sign up!").format(tournament=title(held, games))


@public
def joined(player: Player, held: HeldTournament) -> str:
    count = len(held.tournament.entrants)
    return ngettext(
        "{name} signed up for tournament #{number} ({count} player so far).",
        "{name} signed up for tournament #{number} ({count} players so far).",
        count,
    ).format(name=player.name, number=held.id, count=i18n.number(count))


@public
def left(player: Player, held: HeldTournament) -> str:
    count = len(held.tournament.entrants)
    return ngettext(
        "{name} left the sign-up of tournament #{number} ({count} player left).",
        "{name} left the sign-up of tournament #{number} ({count} players left).",
        count,
    ).format(name=player.name, number=held.id, count=i18n.number(count))


@public
def started(held: HeldTournament, games: dict[str, Any]) -> str:
    count = len(held.tournament.entrants)
    return ngettext(
        "{tournament} has started with {count} player.", "{tournament} has started with {count} players.", count
    ).format(tournament=title(held, games), count=i18n.number(count))


@public
def cancelled(held: HeldTournament, games: dict[str, Any]) -> str:
    count = len(held.tournament.entrants)
    return ngettext(
        "{tournament} is cancelled: only {count} player signed up.",
        "{tournament} is cancelled: only {count} players signed up.",
        count,
    ).format(tournament=title(held, games), count=i18n.number(count))


@public
def withdrew(player: Player, held: HeldTournament, by: Player) -> str:
    """`bob withdrew from tournament #2 (mod).` (the moderator named only when it was not the player)."""
    if by.id != player.id:
        return _("{name} withdrew from tournament #{number} ({by}).").format(
            name=player.name, number=held.id, by=by.name
        )
    return _("{name} withdrew from tournament #{number}.").format(name=player.name, number=held.id)


@public
def adjudicated(by: Player, held: HeldTournament, round_no: int, board: int, places: Sequence[int] | str) -> str:
    said = _("void") if places == "void" else "-".join(str(p) for p in places)
    return _("{name} adjudicated round {round}, board {board} of tournament #{number}: {result}.").format(
        name=by.name, round=round_no, board=board, number=held.id, result=said
    )


@public
def replaced(new: Player, old: str, held: HeldTournament, by: Player) -> str:
    return _("{name} takes over from {old} in tournament #{number} ({by}).").format(
        name=new.name, old=old, number=held.id, by=by.name
    )


@public
def voided(by: Player, held: HeldTournament, number: int) -> str:
    return _("{name} voided round {round} of tournament #{number}: it is paired again.").format(
        name=by.name, round=number, number=held.id
    )


@public
def game_aborted(held: HeldTournament, round_no: int, board: int) -> str:
    return _(
        "The game of round {round}, board {board} of tournament #{number} was aborted: a moderator gives it a"
        " result with `/tournament adjudicate round:{round} board:{board}`."
    ).format(round=round_no, board=board, number=held.id)


@public
def round_lines(held: HeldTournament, games: dict[str, Any], boards: Sequence[BoardGame]) -> tuple[str, ...]:
    """A round's pairings: its head, then a line a board (a bye, a forfeit, or the game it is played in)."""
    t = held.tournament
    lines = [
        _("Round {round} of {rounds} of {tournament}:").format(
            round=t.current.number, rounds=t.planned_rounds, tournament=title(held, games)
        )
    ]
    for b in boards:
        names = versus([p.name for p in b.players])
        if b.result == "bye":
            lines.append(_("Bye: {names}").format(names=names))
        elif b.result == "forfeit":
            lines.append(_("Board {board}: {names} (decided by forfeit)").format(board=b.board, names=names))
        elif b.series_id:
            lines.append(
                _("Board {board}: {names} (death match #{number})").format(
                    board=b.board, names=names, number=b.series_id
                )
            )
        else:
            lines.append(
                _("Board {board}: {names} (match #{number})").format(board=b.board, names=names, number=b.match_id)
            )
    return tuple(lines)


@public
def over_lines(held: HeldTournament, games: dict[str, Any]) -> tuple[str, ...]:
    t = held.tournament
    top = [t.entrants[s.entry].name for s in standings(t) if s.rank == 1]
    if not top:
        return (_("{tournament} is over: nobody wins.").format(tournament=title(held, games)),)
    said = ngettext("{tournament} is over: {names} wins.", "{tournament} is over: {names} share first place.", len(top))
    return (said.format(tournament=title(held, games), names=listing(top)),)
