"""Standings: points, Buchholz, Sonneborn-Berger and head to head, and the ranking they make.

Every game is read as *encounters*, one for each two players who met in it: in a two-player game the
encounter is the game (1 for a win, ½ a draw, 0 a loss); a pod of k players is k(k-1)/2 encounters, each
won by whoever finished ahead (½ each on a shared place), which is exactly how pods score (a point for
every player you finish ahead of). A player who forfeits loses the encounter; two who both forfeit both
lose it. So a player's points are the sum of their encounters, and every tie-break is defined once:

- Buchholz: the sum, over your encounters, of the opponent's points.
- Sonneborn-Berger: the sum, over your encounters, of what you scored times the opponent's points.
- Head to head: among the players still tied on points and the format's other tie-breaks, the points
  each scored in encounters with the others of that group.

Which tie-breaks a format uses is `TIE_BREAKS`: a Swiss ranks by Buchholz, then Sonneborn-Berger; a round
robin by Sonneborn-Berger alone, since there everyone meets everyone and Buchholz is the total of all points
less your own, the same for all who are tied (it tells nothing).

An unplayed encounter (a bye, a forfeit either way) is counted as if against a virtual opponent with
your own points, as the FIDE tie-break regulations do for unplayed rounds (a bye counts as a win against
them). Voided games count for nothing. Players still tied after head to head share the place ("3=").

A knockout ranks by how far each player got: the champion, the finalist, then the players who went out
in the same round, sharing the place (3=, 5=...); points there are games won.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.tournaments.model import Pairing, Tournament

TIE_BREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "sonneborn_berger"),
    "roundrobin": ("sonneborn_berger",),
    "knockout": (),
}
"""The `Standing` fields each format ranks by after points, in order (a knockout ranks by the round
reached), before head to head; the picture shows these columns and no others."""


@dataclass(frozen=True, slots=True)
class Encounter:
    """One player's side of one encounter."""

    round: int
    opponent: int | None  # None: a bye
    score: float  # 1, ½ or 0
    played: bool  # False: a bye or a forfeit (unplayed)


@dataclass(frozen=True, slots=True)
class Standing:
    entry: int
    rank: int
    shared: bool  # the place is shared ("3=")
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float | None  # only for players tied on points and the format's TIE_BREAKS
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool
    out_in: int | None = None  # knockout: the round the player went out in (None: still in, or champion)

    @property
    def place(self) -> str:
        return f"{self.rank}=" if self.shared else str(self.rank)


def encounters(t: Tournament) -> dict[int, list[Encounter]]:
    """Every entry's encounters, in round order."""
    out: dict[int, list[Encounter]] = {i: [] for i in range(len(t.entrants))}
    for number, p in t.scored():
        for entry, encounter in _encounters_of(number, p):
            out[entry].append(encounter)
    return out


def _encounters_of(number: int, p: Pairing) -> list[tuple[int, Encounter]]:
    result = p.result
    assert result is not None
    if p.is_bye:
        return [(p.seats[0], Encounter(number, None, 1.0, False))]
    forfeited = set(result.forfeited)
    points = result.points
    played = result.kind == "played"
    out = []
    for a, entry in enumerate(p.seats):
        for b, other in enumerate(p.seats):
            if a == b:
                continue
            if a in forfeited:
                score = 0.0
            elif b in forfeited:
                score = 1.0
            else:
                score = 1.0 if points[a] > points[b] else 0.5 if points[a] == points[b] else 0.0
            fair = played and a not in forfeited and b not in forfeited
            out.append((entry, Encounter(number, other, score, fair)))
    return out


def standings(t: Tournament) -> list[Standing]:
    """Everyone, best first."""
    met = encounters(t)
    points = t.points()
    games = _games(t)
    rows: dict[int, Standing] = {}
    for entry in range(len(t.entrants)):
        own = points[entry]
        buchholz = sum(points[e.opponent] if e.played and e.opponent is not None else own for e in met[entry])
        sb = sum(e.score * (points[e.opponent] if e.played and e.opponent is not None else own) for e in met[entry])
        wins, draws, losses, byes = games[entry]
        rows[entry] = Standing(
            entry, 0, False, own, buchholz, sb, None, wins, draws, losses, byes, t.entrants[entry].withdrawn
        )
    if t.format == "knockout":
        return _knockout_ranking(t, rows)
    return _ranking(t, rows, met)


def _games(t: Tournament) -> dict[int, tuple[int, int, int, int]]:
    """Wins, draws, losses and byes by entry; a pod counts as a win for first place alone, a draw for a
    shared first place, a loss otherwise. A forfeit is a loss, also when both sides forfeit (0 each: no
    draw)."""
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for _, p in t.scored():
        assert p.result is not None
        if p.is_bye:
            tally[p.seats[0]][3] += 1
            continue
        forfeited = set(p.result.forfeited)
        points = [None if k in forfeited else x for k, x in enumerate(p.result.points)]
        best = max((x for x in points if x is not None), default=None)
        leaders = sum(1 for x in points if x == best)
        for entry, x in zip(p.seats, points, strict=True):
            tally[entry][2 if x is None or x != best else 0 if leaders == 1 else 1] += 1
    return {i: (w, d, lo, b) for i in range(len(t.entrants)) for w, d, lo, b in [tally[i]]}


def _ranking(t: Tournament, rows: dict[int, Standing], met: dict[int, list[Encounter]]) -> list[Standing]:
    seed = {entry: i for i, entry in enumerate(t.seeds or range(len(t.entrants)))}

    breaks = TIE_BREAKS[t.format]

    def main_key(entry: int) -> tuple[float, ...]:
        row = rows[entry]
        return (-row.points, *(-getattr(row, name) for name in breaks))

    order = sorted(rows, key=lambda e: (main_key(e), seed[e]))
    ranked: list[Standing] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and main_key(order[end]) == main_key(order[start]):
            end += 1
        group = order[start:end]
        if len(group) == 1:
            ranked.append(replace(rows[group[0]], rank=start + 1))
        else:
            h2h = {e: sum(x.score for x in met[e] if x.opponent in group) for e in group}
            group.sort(key=lambda e: (-h2h[e], seed[e]))
            for entry in group:
                first = next(j for j, other in enumerate(group) if h2h[other] == h2h[entry])
                shared = sum(1 for other in group if h2h[other] == h2h[entry]) > 1
                ranked.append(replace(rows[entry], rank=start + 1 + first, shared=shared, head_to_head=h2h[entry]))
        start = end
    return ranked


def knockout_exits(t: Tournament) -> dict[int, int]:
    """Knockout: entry -> the round it went out in (lost, or forfeited); entries still in are absent."""
    out: dict[int, int] = {}
    for r in t.rounds:
        for p in r.pairings:
            winner = t.winner_of(p)
            if winner is None:
                continue
            for entry in p.seats:
                if entry != winner:
                    out[entry] = r.number
    return out


def _knockout_ranking(t: Tournament, rows: dict[int, Standing]) -> list[Standing]:
    exits = knockout_exits(t)
    seed = {entry: i for i, entry in enumerate(t.seeds or range(len(t.entrants)))}
    last = len(t.rounds) + 1

    def lasted(entry: int) -> int:
        return exits.get(entry, last)

    order = sorted(rows, key=lambda e: (-lasted(e), seed[e]))
    ranked = []
    for entry in order:
        better = sum(1 for other in rows if lasted(other) > lasted(entry))
        shared = sum(1 for other in rows if lasted(other) == lasted(entry)) > 1
        ranked.append(replace(rows[entry], rank=better + 1, shared=shared, out_in=exits.get(entry)))
    return ranked


def results_grid(t: Tournament) -> dict[tuple[int, int], list[Encounter]]:
    """(entry, opponent) -> the entry's encounters with that opponent, for a round robin's crosstable."""
    grid: dict[tuple[int, int], list[Encounter]] = defaultdict(list)
    for entry, found in encounters(t).items():
        for e in found:
            if e.opponent is not None:
                grid[(entry, e.opponent)].append(e)
    return dict(grid)


def cell(found: Sequence[Encounter]) -> str:
    """A crosstable cell: 1, ½ or 0 (summed over meetings), "+" / "−" for a forfeit won or lost, "" unplayed."""
    if not found:
        return ""
    if len(found) == 1 and not found[0].played:
        return "+" if found[0].score else "−"
    return number(sum(e.score for e in found))


def number(value: float) -> str:
    """Points as players write them: 3, 2½, ½, and quarters where Sonneborn-Berger makes them (96¼)."""
    whole = int(value)
    part = value - whole
    fraction = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(part)
    if part == 0:
        return str(whole)
    if fraction is None:
        return f"{value:g}"
    return fraction if whole == 0 else f"{whole}{fraction}"


__all__ = [
    "TIE_BREAKS",
    "Encounter",
    "Standing",
    "cell",
    "encounters",
    "knockout_exits",
    "number",
    "results_grid",
    "standings",
]
