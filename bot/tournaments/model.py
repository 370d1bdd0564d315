"""A tournament as one immutable value: its settings, its entrants and its rounds of pairings and results.

Every operation returns a new `Tournament` (or raises `TournamentError`, whose message is for players and
moderators, leaving the value as it was). Nothing here reads a clock, does I/O or draws a random number:
the same calls in the same order give the same tournament, so the service can store `to_json()` after
each change and rebuild it with `from_json` after a restart, mid-round too.

Entrants are numbered by entry (0 first, in the order they signed up); pairings name entry numbers, so a
replaced player's successor takes over the entry (its points, its place in the draw) and the record still
says who played which game (`Entrant.formers`). Rounds and boards are numbered from 1 in the API, as
players see them. Pairing rules are in bot/tournaments/pairing.py, standings in standings.py, and
docs/tournaments.md says it all for players.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot import i18n
from bot.games import GAMES, Game, Outcome
from bot.i18n import _, ngettext
from bot.tournaments import pairing

FORMAT = "boardgame-bot tournament"
VERSION = 1
FORMATS = ("knockout", "roundrobin", "swiss")
SERIES = ("single", "dm")
MAX_ENTRANTS = 64
"""A bracket of 64 lines and a standings picture of 64 rows are as much as a picture can show."""
MAX_NAME = 100
MAX_ROUNDS = 64

ResultKind = Literal["played", "forfeit", "bye", "void"]
RESULT_KINDS: tuple[str, ...] = ("played", "forfeit", "bye", "void")


class TournamentError(ValueError):
    """A refused operation; the message says why, in words for players and moderators."""


@dataclass(frozen=True, slots=True)
class Former:
    """A player who held an entry before being replaced: they played its games of rounds before `until`."""

    id: str
    name: str
    until: int


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry: the player holding it now, their rating at sign-up, and whether they withdrew."""

    id: str
    name: str
    rating: float = 1500.0
    withdrawn: bool = False
    withdrawn_in: int | None = None
    """The round in which the entry withdrew (0: before round 1 was paired)."""
    formers: tuple[Former, ...] = ()


def points_for_places(places: Sequence[int], forfeited: Iterable[int] = ()) -> tuple[float, ...]:
    """Tournament points from finishing places (1 = first, equal places for a tie), seat by seat: one point
    for every seat finished ahead of, half for every seat tied with. A forfeited seat finishes behind every
    seat that did not forfeit and scores nothing. Two players: a win is 1, a draw ½ each, a loss 0."""
    out = frozenset(forfeited)
    points = []
    for seat, place in enumerate(places):
        if seat in out:
            points.append(0.0)
            continue
        total = 0.0
        for other, theirs in enumerate(places):
            if other == seat:
                continue
            if other in out or theirs > place:
                total += 1
            elif theirs == place:
                total += 0.5
        points.append(total)
    return tuple(points)


def places_from_outcome(outcome: Outcome) -> tuple[int, ...]:
    """Finishing places from a game's outcome: the winners share first place (everybody, on a draw), the
    others follow by their scores, higher first, equal scores sharing a place."""
    seats = range(len(outcome.scores))
    if not outcome.winners:
        return tuple(1 for __ in seats)
    others = sorted({outcome.scores[s] for s in seats if s not in outcome.winners}, reverse=True)
    start = 1 + len(outcome.winners)
    place_of_score: dict[float, int] = {}
    for score in others:
        place_of_score[score] = start
        start += sum(1 for s in seats if s not in outcome.winners and outcome.scores[s] == score)
    return tuple(1 if s in outcome.winners else place_of_score[outcome.scores[s]] for s in seats)


@dataclass(frozen=True, slots=True)
class Result:
    """How a pairing ended. `places` per seat (1 = first; empty for a void, (1,) for a bye); `forfeited`
    are seats that did not play it out (withdrew); `points` follow from both (`points_for_places`)."""

    kind: ResultKind
    places: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()
    adjudicated: bool = False

    @property
    def points(self) -> tuple[float, ...]:
        if self.kind == "void":
            return ()
        if self.kind == "bye":
            return (1.0,)
        return points_for_places(self.places, self.forfeited)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind != "void":
            data["places"] = list(self.places)
            data["points"] = list(self.points)
        if self.forfeited:
            data["forfeited"] = list(self.forfeited)
        if self.adjudicated:
            data["adjudicated"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], seats: int) -> Result:
        kind = data.get("kind")
        if kind not in RESULT_KINDS:
            raise TournamentError(f"not a result kind: {kind!r}")
        places = tuple(_int(p, "place") for p in data.get("places", ()))
        forfeited = tuple(_int(s, "seat") for s in data.get("forfeited", ()))
        result = cls(kind, places, forfeited, bool(data.get("adjudicated", False)))
        if kind == "void":
            if places:
                raise TournamentError("a void result has no places")
        elif len(places) != seats or any(not 1 <= p <= seats for p in places):
            raise TournamentError(f"a result needs a place from 1 to {seats} for each of {seats} seats")
        if any(not 0 <= s < seats for s in forfeited) or len(set(forfeited)) != len(forfeited):
            raise TournamentError("forfeited seats must be distinct seats of the pairing")
        if "points" in data and [float(p) for p in data["points"]] != list(result.points):
            raise TournamentError("the stored points do not follow from the places")
        return result


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: entries in seat order (the first moves first); one entry alone is a bye."""

    seats: tuple[int, ...]
    result: Result | None = None

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seats": list(self.seats)}
        if self.result is not None:
            data["result"] = self.result.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pairing:
        seats = tuple(_int(s, "entry") for s in data["seats"])
        if not seats:
            raise TournamentError("a pairing has at least one seat")
        raw = data.get("result")
        result = None if raw is None else Result.from_json(raw, len(seats))
        if result is not None and (result.kind == "bye") != (len(seats) == 1):
            raise TournamentError("a bye is a pairing of one, and only a bye is")
        return cls(seats, result)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's pairings, board 1 first."""

    number: int
    pairings: tuple[Pairing, ...]

    @property
    def complete(self) -> bool:
        return all(p.result is not None for p in self.pairings)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "pairings": [p.to_json() for p in self.pairings]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return cls(_int(data["number"], "round"), tuple(Pairing.from_json(p) for p in data["pairings"]))


@dataclass(frozen=True, slots=True)
class Tournament:
    """The whole tournament. Build one with `Tournament.new`, add entrants, `start`, then record results and
    call `next_round` (or `advance`) whenever `round_complete`, until `finished`."""

    game: str
    format: str
    seats: int = 2
    """Seats per pairing: 2, or the largest pod (3 or more; Volcano and Geyser)."""
    rounds_wanted: int | None = None
    """Swiss only: the rounds to play (None: ceil(log2 n), fixed at `start`)."""
    clock: str | None = None
    series: str = "single"
    entrants: tuple[Entrant, ...] = ()
    seeds: tuple[int, ...] = ()
    """Entries in seed order (rating, then entry), fixed at `start`."""
    rounds: tuple[Round, ...] = ()
    voided: tuple[Round, ...] = ()
    """Rounds a moderator voided, kept for the record; they count for nothing."""

    # ------------------------------------------------------------------------------------------ building

    @classmethod
    def new(
        cls,
        game: str,
        format: str,
        *,
        seats: int | None = None,
        rounds: int | None = None,
        clock: str | None = None,
        series: str = "single",
        games: Mapping[str, Game] | None = None,
    ) -> Tournament:
        """A tournament open for sign-up. `seats` defaults to the game's largest table (2 for two-player
        games); knockout needs two seats a pairing; `rounds` is for Swiss only. `games`: the games there are
        (default every game; the service passes its own, which tests extend with a toy game)."""
        games = GAMES if games is None else games
        if game not in games:
            raise TournamentError(
                _("There is no game {name} (games: {games}).").format(name=repr(game), games=", ".join(sorted(games)))
            )
        rules = games[game]
        if format not in FORMATS:
            raise TournamentError(
                _("The format is knockout, roundrobin or swiss, not {value}.").format(value=repr(format))
            )
        top = rules.max_players
        seats = top if seats is None else seats
        if not 2 <= seats <= top:
            if top == 2:
                said = _("A {game} pairing seats 2 players, not {seats}.")
            else:
                said = _("A {game} pairing seats 2 to {most} players, not {seats}.")
            raise TournamentError(said.format(game=rules.title, most=top, seats=seats))
        if format == "knockout" and seats > 2:
            raise TournamentError(
                _(
                    "Knockout needs one winner a pairing, so it seats two players: use seats:2, or swiss or"
                    " roundrobin for {game} pods of up to {seats}."
                ).format(game=rules.title, seats=seats)
            )
        if rounds is not None and format != "swiss":
            raise TournamentError(
                _("Only Swiss takes a number of rounds; {format} sets its own.").format(format=_format_name(format))
            )
        if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                _("A Swiss has 1 to {most} rounds, not {rounds}.").format(most=MAX_ROUNDS, rounds=rounds)
            )
        if series not in SERIES:
            raise TournamentError(_("The series is single or dm, not {value}.").format(value=repr(series)))
        if series == "dm" and seats != 2:
            raise TournamentError(_("A death-match series is for two players a pairing."))
        return cls(game, format, seats, rounds, clock, series)

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def pods(self) -> bool:
        """Pairings of three or more seats (points by finishing place)."""
        return self.seats > 2

    def entry_of(self, player_id: str) -> int:
        """The entry number the player holds now; TournamentError if none."""
        for index, entrant in enumerate(self.entrants):
            if entrant.id == player_id:
                return index
        raise TournamentError(_("That player is not in this tournament."))

    def add_entrant(self, player_id: str, name: str, rating: float = 1500.0) -> Tournament:
        self._before_start(_("Sign-up is closed: the tournament has started."))
        if any(e.id == player_id for e in self.entrants):
            raise TournamentError(_("{name} has already signed up.").format(name=name))
        if len(self.entrants) >= MAX_ENTRANTS:
            raise TournamentError(
                _("The tournament is full ({count} players).").format(count=i18n.number(MAX_ENTRANTS))
            )
        _check_player(player_id, name, rating)
        return replace(self, entrants=(*self.entrants, Entrant(player_id, name, float(rating))))

    def remove_entrant(self, player_id: str) -> Tournament:
        self._before_start(_("The tournament has started: a player who leaves now is withdrawn instead."))
        index = self.entry_of(player_id)
        return replace(self, entrants=self.entrants[:index] + self.entrants[index + 1 :])

    def _before_start(self, refusal: str) -> None:
        if self.started:
            raise TournamentError(refusal)

    def too_few(self) -> str | None:
        """Why the tournament cannot start yet (fewer than 2 players signed up), or None."""
        count = len(self.entrants)
        if count >= 2:
            return None
        return ngettext(
            "A tournament needs at least 2 players; {count} has signed up.",
            "A tournament needs at least 2 players; {count} have signed up.",
            count,
        ).format(count=i18n.number(count))

    def start(self) -> Tournament:
        """Closes sign-up, fixes the seeds (and a Swiss's rounds) and pairs round 1."""
        self._before_start(_("The tournament has already started."))
        if (too_few := self.too_few()) is not None:
            raise TournamentError(too_few)
        count = len(self.entrants)
        rounds = self.rounds_wanted
        if self.format == "swiss":
            rounds = rounds or max(1, math.ceil(math.log2(count)))
            most = count if self.pods else count - 1 + count % 2
            if rounds > most:
                raise TournamentError(
                    ngettext(
                        "A Swiss of {players} players has at most {count} round.",
                        "A Swiss of {players} players has at most {count} rounds.",
                        most,
                    ).format(players=i18n.number(count), count=i18n.number(most))
                )
        seeds = tuple(sorted(range(count), key=lambda i: (-self.entrants[i].rating, i)))
        begun = replace(self, seeds=seeds, rounds_wanted=rounds)
        return begun._with_round(begun._pair(1))

    # ------------------------------------------------------------------------------------------ rounds

    @property
    def current(self) -> Round:
        if not self.rounds:
            raise TournamentError(_("The tournament has not started."))
        return self.rounds[-1]

    @property
    def round_complete(self) -> bool:
        return self.started and self.current.complete

    @property
    def planned_rounds(self) -> int:
        """How many rounds the tournament will have (for pods in round robin: as far as is known now)."""
        if not self.started:
            return 0
        if self.format == "knockout":
            return pairing.knockout_rounds(len(self.seeds))
        if self.format == "swiss":
            return self.rounds_wanted or 1
        if not self.pods:
            return pairing.round_robin_rounds(len(self.seeds))
        return len(self.rounds) + (0 if self._pods_all_met() else self._pod_rounds_left())

    @property
    def finished(self) -> bool:
        if not self.round_complete:
            return False
        if self.format == "knockout" or (self.format == "roundrobin" and not self.pods):
            return len(self.rounds) >= self.planned_rounds
        if len(self.active()) < 2:
            return True
        if self.format == "swiss":
            return len(self.rounds) >= self.planned_rounds
        return self._pods_all_met()

    def next_round(self) -> Tournament:
        """Pairs the next round; refused until every pairing of this one has a result, and once finished."""
        if not self.started:
            raise TournamentError(_("The tournament has not started."))
        if not self.current.complete:
            waiting = sum(1 for p in self.current.pairings if p.result is None)
            raise TournamentError(
                ngettext(
                    "Round {round} still has {count} game to finish.",
                    "Round {round} still has {count} games to finish.",
                    waiting,
                ).format(round=self.current.number, count=i18n.number(waiting))
            )
        if self.finished:
            raise TournamentError(_("The tournament is over."))
        return self._with_round(self._pair(len(self.rounds) + 1))

    def advance(self) -> Tournament:
        """`next_round` for as long as rounds complete by themselves (byes and forfeits) and it is not over."""
        t = self
        while t.started and t.round_complete and not t.finished:
            t = t.next_round()
        return t

    def _with_round(self, pairings: Sequence[Pairing]) -> Tournament:
        return replace(self, rounds=(*self.rounds, Round(len(self.rounds) + 1, tuple(pairings))))

    def active(self) -> list[int]:
        """Entries still playing (not withdrawn; in a knockout, also not yet eliminated)."""
        entries = [i for i in self.seeds if not self.entrants[i].withdrawn]
        if self.format == "knockout" and self.rounds:
            alive = set(self.knockout_alive())
            entries = [i for i in entries if i in alive]
        return entries

    # ------------------------------------------------------------------------------------------ results

    def pairing_at(self, round_no: int, board: int) -> Pairing:
        if not 1 <= round_no <= len(self.rounds):
            raise TournamentError(_("There is no round {round}.").format(round=round_no))
        pairings = self.rounds[round_no - 1].pairings
        if not 1 <= board <= len(pairings):
            raise TournamentError(_("Round {round} has no board {board}.").format(round=round_no, board=board))
        return pairings[board - 1]

    def board_of(self, entry: int) -> int | None:
        """The board (1-based) of `entry` in the current round, if it is paired."""
        for board, p in enumerate(self.current.pairings, 1):
            if entry in p.seats:
                return board
        return None

    def record_result(self, round_no: int, board: int, places: Sequence[int]) -> Tournament:
        """A game's result, as finishing places per seat (two players: (1, 2) the first won, (1, 1) a draw);
        flags, resignations and claims are results like any other. Recording the same result again changes
        nothing (safe to repeat after a restart); a different one is refused: that is for a moderator."""
        existing = self._open_pairing(round_no, board, "record")
        result = self._result(existing, places, adjudicated=False)
        if existing.result is not None and existing.result.kind == "forfeit":
            return self  # decided when a player withdrew; the game's own end changes nothing
        if existing.result is not None:
            if replace(existing.result, adjudicated=False) == result:
                return self
            raise TournamentError(
                _("Round {round}, board {board} already has a result; a moderator can adjudicate.").format(
                    round=round_no, board=board
                )
            )
        return self._set(round_no, board, replace(existing, result=result))

    def record_outcome(self, round_no: int, board: int, outcome: Outcome) -> Tournament:
        """`record_result` with the places of a game's `Outcome` (`places_from_outcome`)."""
        return self.record_result(round_no, board, places_from_outcome(outcome))

    def adjudicate(self, round_no: int, board: int, places: Sequence[int] | Literal["void"]) -> Tournament:
        """A moderator's result for a board of the current round, replacing any result it had; "void" makes
        the game count for nobody (refused in a knockout, which needs a winner: adjudicate one instead)."""
        existing = self._open_pairing(round_no, board, "adjudicate")
        if existing.is_bye:
            raise TournamentError(_("A bye has no game to adjudicate."))
        if places == "void":
            if self.format == "knockout":
                raise TournamentError(_("A knockout pairing needs a winner: adjudicate one, or void the round."))
            result = Result("void", adjudicated=True)
        else:
            result = self._result(existing, places, adjudicated=True)
        return self._set(round_no, board, replace(existing, result=result))

    def _open_pairing(self, round_no: int, board: int, what: str) -> Pairing:
        if not self.started:
            raise TournamentError(_("The tournament has not started."))
        existing = self.pairing_at(round_no, board)
        if round_no != len(self.rounds):
            current = len(self.rounds)
            raise TournamentError(
                _("Only the current round ({current}) can be changed; round {round} is over.").format(
                    current=current, round=round_no
                )
            )
        if existing.is_bye and what == "record":
            raise TournamentError(_("A bye has no game to record."))
        return existing

    def _result(self, existing: Pairing, places: Sequence[int], adjudicated: bool) -> Result:
        seats = len(existing.seats)
        try:
            cleaned = tuple(int(p) for p in places)
        except (TypeError, ValueError):
            raise TournamentError(_("Places are whole numbers, 1 for first.")) from None
        if len(cleaned) != seats or any(not 1 <= p <= seats for p in cleaned):
            raise TournamentError(
                _("Give a place from 1 to {seats} for each of the {seats} players.").format(seats=seats)
            )
        # a seat whose player withdrew during the game finishes last; a moderator's places stand as given
        forfeited = () if adjudicated else tuple(s for s, e in enumerate(existing.seats) if self.entrants[e].withdrawn)
        return Result("played", _normal_places(cleaned), forfeited, adjudicated)

    def _set(self, round_no: int, board: int, new: Pairing) -> Tournament:
        current = self.rounds[round_no - 1]
        pairings = current.pairings[: board - 1] + (new,) + current.pairings[board:]
        return replace(self, rounds=self.rounds[: round_no - 1] + (replace(current, pairings=pairings),))

    # ------------------------------------------------------------------------------------------ moderators

    def withdraw(self, player_id: str) -> Tournament:
        """The player leaves: never paired again, and each unplayed pairing of theirs in this round is
        forfeited to the opponents (a pod plays on without them while two or more remain)."""
        index = self.entry_of(player_id)
        entrant = self.entrants[index]
        if entrant.withdrawn:
            raise TournamentError(_("{name} has already withdrawn.").format(name=entrant.name))
        if not self.started:
            raise TournamentError(_("The tournament has not started: remove the player from the sign-up instead."))
        if self.finished:
            raise TournamentError(_("The tournament is over."))
        round_no = len(self.rounds)
        entrants = list(self.entrants)
        entrants[index] = replace(entrant, withdrawn=True, withdrawn_in=round_no)
        t = replace(self, entrants=tuple(entrants))
        pairings = []
        for p in t.current.pairings:
            if p.result is None and index in p.seats:
                p = t._forfeit_if_decided(p)
            pairings.append(p)
        return replace(t, rounds=(*t.rounds[:-1], replace(t.current, pairings=tuple(pairings))))

    def _forfeit_if_decided(self, p: Pairing) -> Pairing:
        """A pairing with withdrawn seats: decided by forfeit once at most one seat is left to play it."""
        gone = tuple(s for s, e in enumerate(p.seats) if self.entrants[e].withdrawn)
        if len(p.seats) - len(gone) > 1:
            return p
        return replace(p, result=Result("forfeit", tuple(1 for __ in p.seats), gone))

    def replace_player(self, player_id: str, new_id: str, new_name: str, rating: float | None = None) -> Tournament:
        """The newcomer takes over the entry: its points so far, its unplayed game of this round and all its
        future ones. A withdrawn entry is reinstated for the rounds to come (its forfeits stand)."""
        if not self.started:
            raise TournamentError(_("The tournament has not started: change the sign-up instead."))
        if self.finished:
            raise TournamentError(_("The tournament is over."))
        index = self.entry_of(player_id)
        if any(e.id == new_id for e in self.entrants):
            raise TournamentError(_("{name} is already in this tournament.").format(name=new_name))
        old = self.entrants[index]
        _check_player(new_id, new_name, old.rating if rating is None else rating)
        if old.withdrawn and self.format == "knockout":
            raise TournamentError(
                _("{name} is out of the knockout; nobody can take the place over.").format(name=old.name)
            )
        former = Former(old.id, old.name, len(self.rounds) + (1 if old.withdrawn else 0))
        new = Entrant(new_id, new_name, float(old.rating if rating is None else rating), formers=(*old.formers, former))
        entrants = self.entrants[:index] + (new,) + self.entrants[index + 1 :]
        return replace(self, entrants=entrants)

    def void_round(self) -> Tournament:
        """Discards the current round's results and pairings (kept under `voided` for the record) and pairs the
        round again from the standings before it; withdrawals stand."""
        if not self.started:
            raise TournamentError(_("The tournament has not started."))
        if self.finished:
            raise TournamentError(_("The tournament is over."))
        dropped = self.current
        before = replace(self, rounds=self.rounds[:-1], voided=(*self.voided, dropped))
        return before._with_round(before._pair(dropped.number))

    # ------------------------------------------------------------------------------------------ history

    def scored(self) -> list[tuple[int, Pairing]]:
        """(round number, pairing) for every pairing with a result that counts (not void)."""
        return [
            (r.number, p) for r in self.rounds for p in r.pairings if p.result is not None and p.result.kind != "void"
        ]

    def points(self) -> dict[int, float]:
        """Tournament points by entry."""
        totals = {i: 0.0 for i in range(len(self.entrants))}
        for __, p in self.scored():
            assert p.result is not None
            for entry, pts in zip(p.seats, p.result.points, strict=True):
                totals[entry] += pts
        return totals

    def players(self) -> dict[int, pairing.Player]:
        """Every entry as pairing sees it: points, rating, colour balance, byes, meetings. Seats (colours)
        count only in games played out: not byes, forfeits or voided games; meetings count forfeits too."""
        points = self.points()
        balance: Counter[int] = Counter()
        firsts: Counter[int] = Counter()
        lasts: Counter[int] = Counter()
        byes: Counter[int] = Counter()
        last_first: dict[int, bool] = {}
        met: dict[int, Counter[int]] = {i: Counter() for i in range(len(self.entrants))}
        for __, p in self.scored():
            if p.is_bye:
                byes[p.seats[0]] += 1
                continue
            for a, b in _pairs(p.seats):
                met[a][b] += 1
                met[b][a] += 1
            assert p.result is not None
            if p.result.kind != "played" or p.result.forfeited:
                continue  # seats count only in games played out
            firsts[p.seats[0]] += 1
            lasts[p.seats[-1]] += 1
            if len(p.seats) == 2:
                balance[p.seats[0]] += 1
                balance[p.seats[1]] -= 1
                last_first[p.seats[0]], last_first[p.seats[1]] = True, False
        return {
            i: pairing.Player(
                entry=i,
                points=points[i],
                rating=e.rating,
                balance=balance[i],
                last_first=last_first.get(i),
                byes=byes[i],
                met=dict(met[i]),
                firsts=firsts[i],
                lasts=lasts[i],
            )
            for i, e in enumerate(self.entrants)
        }

    def winner_of(self, p: Pairing) -> int | None:
        """A knockout pairing's winner: the bye, the most points, or on a draw the higher seed (so too when
        both forfeited); None while it has no result."""
        if p.result is None or p.result.kind == "void":
            return None
        best = max(p.result.points)
        leaders = [e for e, pts in zip(p.seats, p.result.points, strict=True) if pts == best]
        return min(leaders, key=self.seeds.index)

    def knockout_alive(self) -> list[int]:
        """Knockout: the entries still in, in bracket order (winners of the latest complete round, or the
        players of the current one)."""
        alive: list[int] = []
        for p in self.current.pairings:
            winner = self.winner_of(p)
            alive.extend(p.seats if winner is None else (winner,))
        return alive

    def champion(self) -> int | None:
        """The knockout winner once finished (the top of the standings otherwise, see standings.py)."""
        if self.format != "knockout" or not self.finished:
            return None
        return self.winner_of(self.current.pairings[0])

    # ------------------------------------------------------------------------------------------ pairing

    def _pair(self, number: int) -> list[Pairing]:
        """The pairings of round `number`, which follows the rounds already in `self.rounds`."""
        if self.format == "knockout":
            return self._pair_knockout(number)
        active = [i for i in self.seeds if not self.entrants[i].withdrawn]
        if len(active) < 2 and (self.pods or self.format == "swiss"):
            return []  # nobody left to pair: the round is empty and the tournament over
        if self.format == "roundrobin" and not self.pods:
            seats_list = pairing.round_robin_round(self.seeds, number)
            out = []
            for seats in seats_list:
                if len(seats) == 1 and self.entrants[seats[0]].withdrawn:
                    continue  # a withdrawn player's bye: nothing to play
                out.append(self._opened(seats))
            return out
        players = self.players()
        if self.pods:
            chosen = [players[i] for i in active]
            if self.format == "roundrobin":
                groups = pairing.pod_round_robin_round(chosen, self.seeds, self.seats)
            else:
                groups = pairing.pod_swiss_round(chosen, self.seats)
            return [self._opened(g) for g in groups]
        return [self._opened(s) for s in pairing.swiss_round([players[i] for i in active])]

    def _pair_knockout(self, number: int) -> list[Pairing]:
        if number == 1:
            return [self._opened(s) for s in pairing.knockout_first_round(self.seeds)]
        winners = [self.winner_of(p) for p in self.current.pairings]
        players = self.players()
        out = []
        for a, b in zip(winners[::2], winners[1::2], strict=True):
            assert a is not None and b is not None
            out.append(self._opened(pairing.seat_pair(players[a], players[b])))
        return out

    def _opened(self, seats: Sequence[int]) -> Pairing:
        """A new pairing; a bye is decided at once, and so is one that withdrawn players leave to one seat."""
        if len(seats) == 1:
            return Pairing(tuple(seats), Result("bye", (1,)))
        return self._forfeit_if_decided(Pairing(tuple(seats)))

    def _pods_all_met(self) -> bool:
        players = self.players()
        active = [i for i in self.seeds if not self.entrants[i].withdrawn]
        return all(players[a].met.get(b, 0) for a, b in _pairs(active))

    def _pod_rounds_left(self) -> int:
        """Pods in round robin: how many more rounds the rotation needs, by playing it out on paper."""
        t = self
        left = 0
        while not t._pods_all_met() and left < MAX_ROUNDS:
            pods = t._pair(len(t.rounds) + 1)
            done = [replace(p, result=p.result or Result("played", tuple(1 for __ in p.seats))) for p in pods]
            t = replace(t, rounds=(*t.rounds, Round(len(t.rounds) + 1, tuple(done))))
            left += 1
        return left

    # ------------------------------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The tournament as JSON (stable, versioned): settings, players, seeds, every round's pairings and
        results, voided rounds. `from_json` reads it back to an equal value."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "system": self.format,
            "seats": self.seats,
            "rounds_wanted": self.rounds_wanted,
            "clock": self.clock,
            "series": self.series,
            "entrants": [_entrant_json(e) for e in self.entrants],
            "seeds": list(self.seeds),
            "rounds": [r.to_json() for r in self.rounds],
            "voided": [r.to_json() for r in self.voided],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], games: Mapping[str, Game] | None = None) -> Tournament:
        """Rebuilds a tournament from `to_json`; TournamentError on anything else. `games` as for `new`."""
        try:
            return cls._from_json(data, games)
        except TournamentError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise TournamentError(f"not a tournament record: {error!r}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any], games: Mapping[str, Game] | None) -> Tournament:
        if data.get("format") != FORMAT:
            raise TournamentError("not a tournament record")
        if data.get("version") != VERSION:
            raise TournamentError(f"tournament record version {data.get('version')!r}, not {VERSION}")
        rounds_wanted = data.get("rounds_wanted")
        t = cls.new(
            data["game"],
            data["system"],
            seats=_int(data["seats"], "seats"),
            rounds=None if rounds_wanted is None else _int(rounds_wanted, "rounds"),
            clock=data.get("clock"),
            series=data.get("series", "single"),
            games=games,
        )
        entrants = tuple(_entrant_from(e) for e in data["entrants"])
        seeds = tuple(_int(s, "seed") for s in data["seeds"])
        rounds = tuple(Round.from_json(r) for r in data["rounds"])
        voided = tuple(Round.from_json(r) for r in data.get("voided", ()))
        count = len(entrants)
        if len({e.id for e in entrants}) != count or count > MAX_ENTRANTS:
            raise TournamentError("entrants must have distinct ids")
        if seeds and sorted(seeds) != list(range(count)):
            raise TournamentError("seeds must list every entry once")
        if rounds and not seeds:
            raise TournamentError("a started tournament has seeds")
        for number, r in enumerate(rounds, 1):
            if r.number != number:
                raise TournamentError("rounds are numbered 1, 2, 3...")
            for p in r.pairings:
                if any(not 0 <= s < count for s in p.seats) or len(set(p.seats)) != len(p.seats):
                    raise TournamentError("a pairing names entries of the tournament, each once")
                if len(p.seats) > t.seats:
                    raise TournamentError("a pairing has more seats than the tournament allows")
            if number < len(rounds) and not r.complete:
                raise TournamentError("only the current round may have games to play")
        return replace(t, entrants=entrants, seeds=seeds, rounds=rounds, voided=voided)


def _format_name(format: str) -> str:
    if format == "roundrobin":
        return _("a round robin")
    return _("a knockout") if format == "knockout" else format


def _normal_places(places: tuple[int, ...]) -> tuple[int, ...]:
    """Places as standard competition ranking (1, 1, 3): only their order counts."""
    return tuple(1 + sum(1 for q in places if q < p) for p in places)


def _pairs(seats: Sequence[int]) -> Iterable[tuple[int, int]]:
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            yield a, b


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(f"{what} must be a whole number, not {value!r}")
    return value


def _check_player(player_id: str, name: str, rating: float) -> None:
    if not isinstance(player_id, str) or not player_id or len(player_id) > MAX_NAME:
        raise TournamentError("A player id is a text of 1 to 100 characters.")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise TournamentError("A player's name is a text of 1 to 100 characters.")
    if not isinstance(rating, int | float) or isinstance(rating, bool) or not math.isfinite(rating):
        raise TournamentError("A rating is a finite number.")


def _entrant_json(e: Entrant) -> dict[str, Any]:
    data: dict[str, Any] = {"id": e.id, "name": e.name, "rating": e.rating}
    if e.withdrawn:
        data["withdrawn"] = True
        data["withdrawn_in"] = e.withdrawn_in
    if e.formers:
        data["formers"] = [{"id": f.id, "name": f.name, "until": f.until} for f in e.formers]
    return data


def _entrant_from(data: dict[str, Any]) -> Entrant:
    rating = data.get("rating", 1500.0)
    _check_player(data["id"], data["name"], rating)
    withdrawn = bool(data.get("withdrawn", False))
    withdrawn_in = data.get("withdrawn_in")
    formers = tuple(Former(str(f["id"]), str(f["name"]), _int(f["until"], "until")) for f in data.get("formers", ()))
    return Entrant(
        data["id"],
        data["name"],
        float(rating),
        withdrawn,
        None if withdrawn_in is None else _int(withdrawn_in, "withdrawn_in"),
        formers,
    )


__all__ = [
    "FORMAT",
    "FORMATS",
    "MAX_ENTRANTS",
    "VERSION",
    "Entrant",
    "Former",
    "Pairing",
    "Result",
    "Round",
    "Tournament",
    "TournamentError",
    "places_from_outcome",
    "points_for_places",
]
