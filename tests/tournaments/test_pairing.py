"""Pairing properties over thousands of random tournaments (seeded), checked against oracles.

What Swiss guarantees, precisely (and what these tests check):
- nobody gets a second bye while some player still in has not had one;
- no pairing repeats while the round can be paired with no repeat and no second bye (brute force over every
  pairing for up to 10 players, a perfect-matching oracle on the repeat-free graph beyond);
- every player's first-player count stays within one of their second-player count after every round,
  whenever the round can be paired with no repeat, no second bye and nobody past one (same oracles): the
  colour limit ranks above equal scores, the colour preference (alternation) below;
- the bye goes to the lowest-ranked player without one, unless that forces one of the above;
- in fact the whole pairing is the cheapest under the tiers of `EdgeCost` (brute force, small rounds).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import networkx as nx
import pytest

from bot.tournaments import Tournament, TournamentError
from bot.tournaments import pairing as P
from bot.tournaments.pairing import BYE, Player
from bot.tournaments.standings import knockout_exits
from tests.tournaments import entered, play_out

# ---------------------------------------------------------------------------------------------- helpers


def matchings(vertices: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every perfect matching of an even number of vertices (945 for 10)."""
    if not vertices:
        return [[]]
    first, rest = vertices[0], vertices[1:]
    out = []
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            out.append([(first, other), *tail])
    return out


@functools.cache
def index_matchings(count: int) -> tuple[tuple[int, ...], ...]:
    """Every perfect matching of the vertices 0 to `count` - 1, each as the positions of its edges in
    `combinations(range(count), 2)` (worked out once per count)."""
    position = {edge: k for k, edge in enumerate(combinations(range(count), 2))}
    return tuple(tuple(position[edge] for edge in m) for m in matchings(list(range(count))))


def as_pairings(matching: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    return [(a,) if b == BYE else (b,) if a == BYE else (a, b) for a, b in matching]


def oracle_best(players: Sequence[Player]) -> tuple[int, ...]:
    """The least cost tuple over every possible pairing of the round (the edge costs summed by hand). Each
    edge's tiers are written as the digits of one integer, in a base larger than any tier's sum over a
    pairing can reach, so that sums and comparisons of those integers are the tuples' own."""
    costs = P.swiss_costs(players)
    rank = {p.entry: i for i, p in enumerate(sorted(players, key=P.rank_key))}

    def edge(a: int, b: int) -> tuple[int, ...]:
        if BYE in (a, b):
            return costs[(b if a == BYE else a, BYE)].tiers()
        return costs[(a, b) if rank[a] < rank[b] else (b, a)].tiers()

    vertices = [p.entry for p in players] + ([BYE] if len(players) % 2 else [])
    edges = [edge(vertices[i], vertices[j]) for i, j in combinations(range(len(vertices)), 2)]
    assert all(tier >= 0 for tiers in edges for tier in tiers)
    base = len(vertices) // 2 * max(max(tiers) for tiers in edges) + 1
    weights = [sum(tier * base**k for k, tier in enumerate(reversed(tiers))) for tiers in edges]
    best = min(sum(map(weights.__getitem__, m)) for m in index_matchings(len(vertices)))
    digits = []
    for _ in edges[0]:
        best, digit = divmod(best, base)
        digits.append(digit)
    return tuple(reversed(digits))


def perfect_exists(players: Sequence[Player], allowed: int) -> bool:
    """Whether the round can be paired with every edge's first `allowed` tiers zero (networkx, unweighted)."""
    graph = nx.Graph()
    vertices = [p.entry for p in players] + ([BYE] if len(players) % 2 else [])
    graph.add_nodes_from(vertices)
    for edge, cost in P.swiss_costs(players).items():
        if not any(cost.tiers()[:allowed]):
            graph.add_edge(*edge)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(vertices)


def state_before(before: Tournament) -> list[Player]:
    players = before.players()
    return [players[i] for i in before.seeds if not before.entrants[i].withdrawn]


def paired_round(after: Tournament) -> list[tuple[int, ...]]:
    return [p.seats for p in after.current.pairings]


# ---------------------------------------------------------------------------------------------- swiss


class SwissChecks:
    def __init__(self, brute: bool) -> None:
        self.brute = brute
        self.rounds = self.imbalanced = self.repeats = 0

    def __call__(self, before: Tournament, after: Tournament) -> None:
        players = state_before(before) if before.started else [
            Player(i, 0.0, before.entrants[i].rating) for i in range(len(before.entrants))
        ]  # fmt: skip
        if len(players) < 2:
            return
        pairings = paired_round(after)
        self.rounds += 1
        entries = [e for p in pairings for e in p]
        assert sorted(entries) == sorted(p.entry for p in players), "every active player exactly once"
        assert sum(len(p) == 1 for p in pairings) == len(players) % 2
        by_entry = {p.entry: p for p in players}
        for seats in pairings:  # seat order follows the colour rule
            if len(seats) == 2:
                assert P.seat_pair(by_entry[seats[0]], by_entry[seats[1]]) == seats
        cost = P.matching_cost(players, pairings)
        if any(p.byes == 0 for p in players):
            assert cost[0] == 0, "a second bye while someone has had none"
        if self.brute:
            assert cost == oracle_best(players)
        elif cost[:2] != (0, 0):  # the oracles are asked only about a cost they could show avoidable
            assert not perfect_exists(players, 2), "a repeat that could have been avoided"
            # (so no pairing is free of repeats, nor then of repeats and imbalances: the colour is as good as can be)
        elif cost[2]:
            assert not perfect_exists(players, 3), "a colour imbalance that could have been avoided"
        self.repeats += cost[1]
        self.imbalanced += cost[2] > 0


def test_swiss_small_rounds_are_the_cheapest_pairing_there_is() -> None:
    rng = random.Random(2301)
    checks = SwissChecks(brute=True)
    for _ in range(600):
        count = rng.randint(3, 10)
        rounds = rng.randint(1, count - 1 + count % 2)
        play_out(entered("swiss", count, rng, rounds=rounds), rng, check=checks)
    assert checks.rounds > 2000
    print(f"{checks.rounds} rounds; {checks.repeats} forced repeats; {checks.imbalanced} forced colour imbalances")
    assert checks.repeats > 0  # long Swisses of few players do run out of new opponents


def test_swiss_large_never_repeats_or_unbalances_when_it_can_avoid_it() -> None:
    rng = random.Random(2302)
    checks = SwissChecks(brute=False)
    for _ in range(50):
        play_out(entered("swiss", rng.randint(11, 33), rng), rng, check=checks)
    assert checks.rounds > 200


def test_swiss_byes_colours_and_repeats_over_whole_tournaments() -> None:
    """Whole-tournament views of the same guarantees: one bye each at most, balance within one, no repeats
    (none needed: with ceil(log2 n) rounds a repeat-free pairing always exists without withdrawals)."""
    rng = random.Random(2303)
    for k in range(200):
        count = rng.randint(3, 33 if k % 4 == 0 else 16)
        t = play_out(entered("swiss", count, rng), rng, withdrawals=0.0)
        players = t.players()
        assert all(p.byes <= 1 for p in players.values())
        assert all(abs(p.balance) <= 1 for p in players.values())
        assert all(times == 1 for p in players.values() for times in p.met.values())
        assert len(t.rounds) == max(1, (count - 1).bit_length())


def test_swiss_round_one_is_top_half_against_bottom_half_with_the_bye_to_the_last() -> None:
    players = [Player(i, 0.0, 2000 - i) for i in range(7)]
    assert P.swiss_round(players) == [(0, 3), (1, 4), (2, 5), (6,)]


def test_swiss_pairs_by_score_then_moves_a_player_down_rather_than_repeat() -> None:
    # 0 and 1 lead with 2 points and have met; 2 and 3 have 1 point
    met = {0: {1: 1}, 1: {0: 1}}
    players = [Player(0, 2, 1900, 1, True, met=met[0]), Player(1, 2, 1800, -1, False, met=met[1]),
               Player(2, 1, 1700, 1, True), Player(3, 1, 1600, -1, False)]  # fmt: skip
    pairs = P.swiss_round(players)
    assert sorted(tuple(sorted(p)) for p in pairs) in ([(0, 3), (1, 2)], [(0, 2), (1, 3)])
    # colours: whoever has the lower balance goes first
    assert all(players[p[0]].balance <= players[p[1]].balance for p in pairs)


def test_the_colour_rule() -> None:
    a, b = Player(0, 0, 1500, balance=1, last_first=True), Player(1, 0, 1400, balance=0, last_first=False)
    assert P.seat_pair(a, b) == (1, 0)  # lower balance first
    a, b = Player(0, 0, 1500, 0, last_first=True), Player(1, 0, 1400, 0, last_first=False)
    assert P.seat_pair(a, b) == (1, 0)  # equal: the one second last time
    assert P.seat_pair(Player(0, 0, 1500), Player(1, 0, 1400)) == (0, 1)  # then the higher-ranked


# ---------------------------------------------------------------------------------------------- knockout


def test_bracket_order_is_the_standard_one() -> None:
    assert P.bracket_order(2) == [1, 2]
    assert P.bracket_order(4) == [1, 4, 2, 3]
    assert P.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert P.knockout_first_round([10, 11, 12, 13, 14]) == [(10,), (13, 14), (11,), (12,)]
    for size in (2, 4, 8, 16, 32, 64):
        order = P.bracket_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))
        # seeds 1 and 2 in opposite halves, 1-4 in different quarters
        assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


def check_knockout(before: Tournament, after: Tournament) -> None:
    number = after.current.number
    pairings = after.current.pairings
    if number == 1:
        size = P.bracket_size(len(after.entrants))
        byes = [p.seats[0] for p in pairings if p.is_bye]
        assert len(byes) == size - len(after.entrants)
        assert sorted(byes, key=after.seeds.index) == list(after.seeds[: len(byes)]), "byes to the top seeds"
        assert sorted(e for p in pairings for e in p.seats) == list(range(len(after.entrants)))
        return
    assert not any(p.is_bye for p in pairings), "byes only in round 1"
    winners = [before.winner_of(p) for p in before.current.pairings]
    assert [e for p in pairings for e in sorted(p.seats, key=winners.index)] == winners, "winners in bracket order"
    for p in pairings:  # a withdrawn player's pairing is decided at once
        if any(before.entrants[e].withdrawn for e in p.seats):
            assert p.result is not None and p.result.kind == "forfeit"


def test_knockout_brackets_are_complete() -> None:
    """Twenty random knockouts (draws and withdrawals included) of every size from 2 to 33."""
    rng = random.Random(2310)
    for k in range(640):
        count = 2 + k % 32
        t = play_out(entered("knockout", count, rng), rng, check=check_knockout, draws=0.2, withdrawals=0.05)
        assert len(t.rounds) == (count - 1).bit_length()
        champion = t.champion()
        assert champion is not None
        exits = knockout_exits(t)
        assert set(exits) == set(range(count)) - {champion}, "everyone else goes out exactly once"
        assert len(t.rounds[-1].pairings) == 1
        for r in t.rounds:  # everyone not yet out (and not withdrawn) plays every round
            playing = {e for p in r.pairings for e in p.seats}
            still_in = {e for e in range(count) if exits.get(e, 99) >= r.number}
            assert still_in <= playing | {e for e in still_in if t.entrants[e].withdrawn}
            assert playing <= still_in
        if not any(e.withdrawn for e in t.entrants):
            assert champion not in exits


def test_a_drawn_knockout_game_sends_the_higher_seed_on() -> None:
    t = entered("knockout", 4, random.Random(1)).start()
    top = t.seeds[0]
    board = t.board_of(top)
    assert board is not None
    t = t.record_result(1, board, (1, 1))
    assert t.winner_of(t.current.pairings[board - 1]) == top


def test_knockout_refuses_pods_and_a_void() -> None:
    with pytest.raises(TournamentError, match="Knockout needs one winner"):
        Tournament.new("volcano", "knockout", seats=4)
    t = Tournament.new("volcano", "knockout", seats=2)
    assert t.seats == 2
    t = entered("knockout", 4, random.Random(1)).start()
    with pytest.raises(TournamentError, match="needs a winner"):
        t.adjudicate(1, 1, "void")


# ---------------------------------------------------------------------------------------------- round robin


def test_round_robin_colours_stay_within_one_after_every_round() -> None:
    for count in range(2, 41):
        seeds = list(range(count))
        balance: Counter[int] = Counter()
        byes: Counter[int] = Counter()
        for number in range(1, P.round_robin_rounds(count) + 1):
            for seats in P.round_robin_round(seeds, number):
                if len(seats) == 1:
                    byes[seats[0]] += 1
                    continue
                balance[seats[0]] += 1
                balance[seats[1]] -= 1
            assert max(map(abs, balance.values())) <= 1, (count, number)
        assert all(byes[e] == count % 2 for e in seeds)


def test_round_robin_everyone_meets_everyone_exactly_once() -> None:
    rng = random.Random(2320)
    for _ in range(250):
        count = rng.randint(2, 24 if _ % 10 else 33)
        t = play_out(entered("roundrobin", count, rng), rng, withdrawals=0.03)
        assert len(t.rounds) == count - 1 + count % 2
        met: Counter[tuple[int, int]] = Counter()
        for r in t.rounds:
            seen = [e for p in r.pairings for e in p.seats]
            assert len(seen) == len(set(seen))
            for p in r.pairings:
                if len(p.seats) == 2:
                    met[(min(p.seats), max(p.seats))] += 1
                elif not t.entrants[p.seats[0]].withdrawn:
                    assert count % 2
        assert met == Counter({pair: 1 for pair in combinations(range(count), 2)})
        balance: Counter[int] = Counter()
        for r in t.rounds:  # the seats as scheduled (forfeits included) stay balanced within one
            for p in r.pairings:
                if len(p.seats) == 2:
                    balance[p.seats[0]] += 1
                    balance[p.seats[1]] -= 1
            assert all(abs(b) <= 1 for b in balance.values())
        assert all(p.byes <= 1 for p in t.players().values())
        for r in t.rounds:  # games against withdrawn players are forfeited, never left to play
            for p in r.pairings:
                gone = [e for e in p.seats if t.entrants[e].withdrawn and (t.entrants[e].withdrawn_in or 0) < r.number]
                if gone and len(p.seats) == 2:
                    assert p.result is not None and p.result.kind == "forfeit"


# ---------------------------------------------------------------------------------------------- pods


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_pod_sizes(seats: int) -> None:
    for count in range(2, 70):
        sizes = P.pod_sizes(count, seats)
        assert sum(sizes) == count
        assert max(sizes) <= seats and min(sizes) >= 2
        assert max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-count // seats)


def check_pods(before: Tournament, after: Tournament) -> None:
    pods = paired_round(after)
    active = [i for i in after.seeds if not after.entrants[i].withdrawn]
    if len(active) < 2:
        return
    assert sorted(e for pod in pods for e in pod) == sorted(active)
    assert sorted(map(len, pods), reverse=True) == P.pod_sizes(len(active), after.seats)
    if after.format == "swiss" and before.started:
        met = {i: p.met for i, p in before.players().items()}
        now = P.pod_repeats(pods, met)
        for p, q in combinations(range(len(pods)), 2):  # no single swap lowers the repeat meetings
            for a in pods[p]:
                for b in pods[q]:
                    swapped = [list(pod) for pod in pods]
                    swapped[p][swapped[p].index(a)], swapped[q][swapped[q].index(b)] = b, a
                    assert P.pod_repeats(swapped, met) >= now


def test_pods_swiss_and_round_robin_over_random_tournaments() -> None:
    rng = random.Random(2330)
    for k in range(500):
        game, seats = ("volcano", rng.choice((3, 4, 5, 6))) if k % 2 else ("geyser", rng.choice((3, 4)))
        fmt = "swiss" if k % 4 < 2 else "roundrobin"
        count = rng.randint(2, 33 if k % 10 == 0 else 16)
        t = play_out(entered(fmt, count, rng, game=game, seats=seats), rng, check=check_pods, draws=0.15)
        if fmt == "roundrobin":  # everyone still in has met everyone else still in
            players = t.players()
            active = [i for i in t.seeds if not t.entrants[i].withdrawn]
            assert all(players[a].met.get(b) for a, b in combinations(active, 2))
        else:
            assert len(t.rounds) == max(1, (count - 1).bit_length()) or len(t.active()) < 2
        for p in (q for r in t.rounds for q in r.pairings):
            assert p.result is not None and sum(p.result.points) <= len(p.seats) * (len(p.seats) - 1) / 2


def test_pod_seats_rotate_the_first_seat() -> None:
    players = [Player(0, 0, 1500, firsts=1), Player(1, 0, 1400, firsts=0, lasts=1), Player(2, 0, 1300)]
    assert P.seat_pod(players) == (1, 2, 0)


def test_pairing_is_deterministic() -> None:
    for fmt, game, seats in (("swiss", "fish", None), ("swiss", "volcano", 4), ("roundrobin", "geyser", 3)):
        first = play_out(entered(fmt, 13, random.Random(5), game=game, seats=seats), random.Random(6))
        again = play_out(entered(fmt, 13, random.Random(5), game=game, seats=seats), random.Random(6))
        assert first.to_json() == again.to_json()
