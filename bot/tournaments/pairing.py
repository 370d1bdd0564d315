"""Pairing rules for tournaments, pure and deterministic, on entry numbers (ints).

Nothing here knows a `Tournament`: bot/tournaments/model.py sums up the history into `Player`s and calls
these functions, so this module has no state and no I/O. Every function returns pairings as tuples of
entry numbers in seat order (the first is the first player); a 1-tuple is a bye. Ties are broken by the
order of the inputs (rank, seed), never by chance.

- Knockout: `bracket_order` (1 v n, byes to the top seeds), `knockout_first_round`.
- Round robin: `round_robin_round` (the circle method, Berger colours), `round_robin_rounds`.
- Swiss: `swiss_round`, a maximum-weight matching (networkx) whose weights put, in this order: nobody gets
  a second bye, no repeated pairing, nobody's first/second balance goes past one, the bye to the
  lowest-ranked player who has not had one, equal scores, then the Dutch order (top half v bottom half).
- Pods (3 or more seats): `pod_sizes`, `pod_round_robin_round` (rotating: as many new meetings as can be
  made greedily) and `pod_swiss_round` (by score, with swaps that lower repeat meetings).

docs/tournaments.md says all of it in words for players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

BYE = -1
"""The stand-in vertex for the bye in the Swiss matching."""


@dataclass(frozen=True, slots=True)
class Player:
    """What pairing knows of one entry: its standing and its history so far."""

    entry: int
    points: float = 0.0
    rating: float = 0.0
    balance: int = 0
    """First-player games minus second-player games (two-player games; byes and voided games do not count)."""
    last_first: bool | None = None
    """In the player's latest game: first (True) or second (False); None before any game."""
    byes: int = 0
    met: Mapping[int, int] = field(default_factory=dict)
    """Entry -> how many times this player has met it (voided games do not count)."""
    firsts: int = 0
    """Pods: games in the first seat."""
    lasts: int = 0
    """Pods: games in the last seat."""


def rank_key(player: Player) -> tuple[float, float, int]:
    """The pairing order: more points first, then the higher rating, then the earlier entry."""
    return (-player.points, -player.rating, player.entry)


# ---------------------------------------------------------------------------------------------- colours


def seat_pair(a: Player, b: Player) -> tuple[int, int]:
    """The two players in seat order: the lower balance (fewer first-player games than second) goes first;
    on equal balances the one who was second in their latest game; then the higher-ranked player."""
    if a.balance != b.balance:
        return (a.entry, b.entry) if a.balance < b.balance else (b.entry, a.entry)
    if a.last_first is not None and b.last_first is not None and a.last_first != b.last_first:
        return (b.entry, a.entry) if a.last_first else (a.entry, b.entry)
    return (a.entry, b.entry) if rank_key(a) <= rank_key(b) else (b.entry, a.entry)


def colour_excess(a: Player, b: Player) -> int:
    """How far past one the two balances end up (summed over both) when `seat_pair` seats them."""
    first, _ = seat_pair(a, b)
    new_a = a.balance + (1 if first == a.entry else -1)
    new_b = b.balance + (1 if first == b.entry else -1)
    return max(0, abs(new_a) - 1) + max(0, abs(new_b) - 1)


def seat_pod(members: Sequence[Player]) -> tuple[int, ...]:
    """A pod in seat order: fewest games in the first seat first, then most games in the last seat, then rank."""
    ordered = sorted(members, key=lambda p: (p.firsts, -p.lasts, rank_key(p)))
    return tuple(p.entry for p in ordered)


# ---------------------------------------------------------------------------------------------- knockout


def bracket_size(entries: int) -> int:
    """The next power of two at or above `entries` (at least 2)."""
    return max(2, 1 << (entries - 1).bit_length())


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two `size`: 8 gives 1 8 4 5 2 7 3 6, so
    1 meets 8 first and can meet 2 only in the final."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power-of-two size, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def knockout_first_round(seeds: Sequence[int]) -> list[tuple[int, ...]]:
    """Round 1 of a knockout for entries in seed order: one pairing per two bracket lines, in bracket order;
    the top seeds get the byes (a 1-tuple) when the field is not a power of two. The higher seed sits first."""
    order = bracket_order(bracket_size(len(seeds)))
    pairings: list[tuple[int, ...]] = []
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        high, low = min(top, bottom), max(top, bottom)
        if low <= len(seeds):
            pairings.append((seeds[high - 1], seeds[low - 1]))
        else:
            pairings.append((seeds[high - 1],))
    return pairings


def knockout_rounds(entries: int) -> int:
    """How many rounds a knockout of `entries` takes: log2 of the bracket."""
    return bracket_size(entries).bit_length() - 1


# ---------------------------------------------------------------------------------------------- round robin


def round_robin_rounds(entries: int) -> int:
    """Rounds of a (single) round robin: n - 1, or n when n is odd (everyone sits out once)."""
    return entries - 1 + entries % 2


def round_robin_round(seeds: Sequence[int], number: int) -> list[tuple[int, ...]]:
    """Round `number` (1-based) of the circle method for entries in seed order: seed 1 meets the last seed
    first, and so on inwards (the Berger tables). With an odd count the missing last seat is the bye.

    Colours as Berger tables give them: the fixed line alternates by round and the others by board, which
    keeps every player's first-minus-second count within one after every round (tests check n = 2 to 40).
    """
    count = len(seeds)
    size = count + count % 2
    if not 1 <= number <= size - 1:
        raise ValueError(f"a round robin of {count} has rounds 1 to {size - 1}, not {number}")
    r = number - 1
    lines = [(size - 1, r)] + [((r + k) % (size - 1), (r - k) % (size - 1)) for k in range(1, size // 2)]
    pairings: list[tuple[int, ...]] = []
    for board, (a, b) in enumerate(lines):
        first, second = (a, b) if (r if board == 0 else board) % 2 else (b, a)
        if count < size and size - 1 in (first, second):
            pairings.append((seeds[second if first == size - 1 else first],))
        else:
            pairings.append((seeds[first], seeds[second]))
    # boards in order of the better seed; the bye last
    return sorted(pairings, key=lambda p: (len(p) == 1, min(seeds.index(e) for e in p)))


# ---------------------------------------------------------------------------------------------- swiss


@dataclass(frozen=True, slots=True)
class EdgeCost:
    """What one pairing (or a player's bye) costs, compared tier by tier, the first tier first."""

    second_bye: int = 0
    repeats: int = 0
    colour: int = 0
    bye_rank: int = 0
    score: int = 0
    order: int = 0

    def tiers(self) -> tuple[int, ...]:
        return (self.second_bye, self.repeats, self.colour, self.bye_rank, self.score, self.order)


def swiss_costs(players: Sequence[Player]) -> dict[tuple[int, int], EdgeCost]:
    """The cost of every possible pairing of `players` (and of each one's bye, as (entry, BYE), when the
    count is odd), keyed by the two entries in rank order."""
    ranked = sorted(players, key=rank_key)
    position = {p.entry: i for i, p in enumerate(ranked)}
    groups: dict[float, list[Player]] = {}
    for p in ranked:
        groups.setdefault(p.points, []).append(p)
    place = {p.entry: (i, len(group)) for group in groups.values() for i, p in enumerate(group)}
    costs: dict[tuple[int, int], EdgeCost] = {}
    for a, b in combinations(ranked, 2):
        costs[(a.entry, b.entry)] = EdgeCost(
            repeats=a.met.get(b.entry, 0),
            colour=colour_excess(a, b),
            score=round(2 * abs(a.points - b.points)) ** 2,
            order=_dutch(place[a.entry], place[b.entry], a.points == b.points),
        )
    if len(ranked) % 2:
        eligible = [p for p in ranked if p.byes == 0]
        for p in ranked:
            below = sum(1 for q in eligible if position[q.entry] > position[p.entry])
            costs[(p.entry, BYE)] = EdgeCost(second_bye=p.byes, bye_rank=below)
    return costs


def _dutch(a: tuple[int, int], b: tuple[int, int], same_group: bool) -> int:
    """The Dutch order's small preference: in a score group, the top half meets the bottom half (1 v 1 + g/2);
    across groups, the bottom of the upper group meets the top of the lower."""
    (i, size_a), (j, _) = a, b
    if same_group:
        return abs(abs(i - j) - size_a // 2)
    return (size_a - 1 - i) + j


def combine(costs: Mapping[tuple[int, int], EdgeCost], pairs: int) -> dict[tuple[int, int], int]:
    """One integer per edge that orders whole pairings as the tiers do: each tier's multiplier is larger
    than the most that all the tiers below it can add up to over `pairs` pairings."""
    tiers = len(EdgeCost().tiers())
    highest = [max((c.tiers()[t] for c in costs.values()), default=0) for t in range(tiers)]
    multipliers = [1] * tiers
    for t in range(tiers - 2, -1, -1):
        multipliers[t] = multipliers[t + 1] * (pairs * highest[t + 1] + 1)
    return {edge: sum(m * v for m, v in zip(multipliers, c.tiers(), strict=True)) for edge, c in costs.items()}


def swiss_round(players: Sequence[Player]) -> list[tuple[int, ...]]:
    """One Swiss round: a perfect matching of `players` (with the bye as one more vertex when the count is
    odd) of least total cost, tier by tier (`EdgeCost`): networkx's `max_weight_matching` with
    maxcardinality over weights `top - cost`. Boards in rank order of their better player; the bye last."""
    if len(players) < 2:
        return [(p.entry,) for p in players]
    by_entry = {p.entry: p for p in players}
    costs = swiss_costs(players)
    weights = combine(costs, math.ceil(len(players) / 2))
    top = max(weights.values()) + 1
    import networkx as nx  # here, not at the top: it takes 0.2 s to load, and only a Swiss round needs it

    graph = nx.Graph()
    graph.add_nodes_from(sorted(by_entry, key=lambda e: rank_key(by_entry[e])))
    for (a, b), weight in weights.items():
        graph.add_edge(a, b, weight=top - weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairings: list[tuple[int, ...]] = []
    for u, v in matching:
        if BYE in (u, v):
            pairings.append((v if u == BYE else u,))
        else:
            pairings.append(seat_pair(by_entry[u], by_entry[v]))
    order = {p.entry: i for i, p in enumerate(sorted(players, key=rank_key))}
    return sorted(pairings, key=lambda p: (len(p) == 1, min(order[e] for e in p)))


def matching_cost(players: Sequence[Player], pairings: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The tiers summed over a whole round's pairings (for tests and oracles)."""
    costs = swiss_costs(players)
    order = {p.entry: i for i, p in enumerate(sorted(players, key=rank_key))}
    total = [0] * len(EdgeCost().tiers())
    for pairing in pairings:
        if len(pairing) == 1:
            key = (pairing[0], BYE)
        else:
            a, b = sorted(pairing, key=order.__getitem__)
            key = (a, b)
        for t, value in enumerate(costs[key].tiers()):
            total[t] += value
    return tuple(total)


# ---------------------------------------------------------------------------------------------- pods


def pod_sizes(entries: int, seats: int) -> list[int]:
    """Pod sizes for a round: as few pods as the seat limit allows, as equal as possible, larger first.
    Never a pod of one (two players make one pod of two)."""
    if entries < 2:
        return [entries] if entries else []
    pods = math.ceil(entries / seats)
    small, extra = divmod(entries, pods)
    return [small + 1] * extra + [small] * (pods - extra)


def _meetings(pod: Sequence[int], met: Mapping[int, Mapping[int, int]]) -> int:
    return sum(met[a].get(b, 0) for a, b in combinations(pod, 2))


def pod_round_robin_round(players: Sequence[Player], seeds: Sequence[int], seats: int) -> list[tuple[int, ...]]:
    """A rotating round of pods: pods are filled one at a time, each started by the player with the most
    opponents still unmet, then growing by the player who brings the most new meetings (then the fewest
    repeats, then the better seed). Each round makes at least one new meeting, so every pair meets in the end."""
    by_entry = {p.entry: p for p in players}
    seed_of = {entry: i for i, entry in enumerate(seeds)}
    left = sorted(by_entry, key=lambda e: seed_of.get(e, len(seeds) + e))
    met = {e: by_entry[e].met for e in left}

    def unmet(entry: int, among: Sequence[int]) -> int:
        return sum(1 for other in among if other != entry and not met[entry].get(other, 0))

    pods: list[list[int]] = []
    for size in pod_sizes(len(left), seats):
        start = max(left, key=lambda e: (unmet(e, left), -seed_of.get(e, 0)))
        pod = [start]
        left.remove(start)
        while len(pod) < size:
            best = max(
                left,
                key=lambda e: (
                    sum(1 for m in pod if not met[e].get(m, 0)),
                    -sum(met[e].get(m, 0) for m in pod),
                    -seed_of.get(e, 0),
                ),
            )
            pod.append(best)
            left.remove(best)
        pods.append(pod)
    return [seat_pod([by_entry[e] for e in pod]) for pod in pods]


def pod_swiss_round(players: Sequence[Player], seats: int) -> list[tuple[int, ...]]:
    """Pods by score: the ranking cut into pods of `pod_sizes`, top first, then improved by swapping two
    players of different pods while a swap lowers (repeat meetings, score spread) - repeats first. The
    score spread of a pod is the sum of its members' squared differences in half points."""
    ranked = sorted(players, key=rank_key)
    met = {p.entry: p.met for p in ranked}
    points = {p.entry: p.points for p in ranked}
    pods: list[list[int]] = []
    start = 0
    for size in pod_sizes(len(ranked), seats):
        pods.append([p.entry for p in ranked[start : start + size]])
        start += size

    pair_cost = {
        (a, b): (met[a].get(b, 0), round(2 * abs(points[a] - points[b])) ** 2) for a in points for b in points if a != b
    }

    def cost(entry: int, pod: Sequence[int], leaving: int) -> tuple[int, int]:
        """What `entry` costs among `pod` without `leaving`."""
        repeats = spread = 0
        for other in pod:
            if other != leaving and other != entry:
                r, d = pair_cost[(entry, other)]
                repeats, spread = repeats + r, spread + d
        return repeats, spread

    improved = True
    while improved:  # passes of first-improvement swaps until one changes nothing; each swap lowers the cost
        improved = False
        for p, q in combinations(range(len(pods)), 2):
            for i in range(len(pods[p])):
                for j in range(len(pods[q])):
                    a, b = pods[p][i], pods[q][j]
                    now = _add(cost(a, pods[p], a), cost(b, pods[q], b))
                    then = _add(cost(b, pods[p], a), cost(a, pods[q], b))
                    if then < now:
                        pods[p][i], pods[q][j] = b, a
                        improved = True
    by_entry = {p.entry: p for p in ranked}
    rank = {p.entry: i for i, p in enumerate(ranked)}
    pods.sort(key=lambda pod: min(rank[e] for e in pod))
    return [seat_pod([by_entry[e] for e in pod]) for pod in pods]


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def pod_repeats(pods: Sequence[Sequence[int]], met: Mapping[int, Mapping[int, int]]) -> int:
    """Repeat meetings in a round of pods (each earlier meeting of two podmates counts once)."""
    return sum(_meetings(pod, met) for pod in pods)


__all__ = [
    "BYE",
    "EdgeCost",
    "Player",
    "bracket_order",
    "bracket_size",
    "colour_excess",
    "knockout_first_round",
    "knockout_rounds",
    "matching_cost",
    "pod_repeats",
    "pod_round_robin_round",
    "pod_sizes",
    "pod_swiss_round",
    "rank_key",
    "round_robin_round",
    "round_robin_rounds",
    "seat_pair",
    "seat_pod",
    "swiss_costs",
    "swiss_round",
]
