"""Standings and tie-breaks against examples worked out by hand (the sums are written out in each test)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.tournaments import Tournament
from bot.tournaments.model import Pairing, Result
from bot.tournaments.standings import TIE_BREAKS, cell, encounters, number, results_grid, standings
from tests.tournaments import built, entered, play_out


def table(t: Tournament) -> list[tuple[str, str, float, float, float, float | None]]:
    return [
        (s.place, t.entrants[s.entry].name, s.points, s.buchholz, s.sonneborn_berger, s.head_to_head)
        for s in standings(t)
    ]


A, B, C, D, E, F = range(6)


def test_a_swiss_with_byes() -> None:
    # R1: A beats B, C draws D, E has the bye.   R2: E draws A, C beats B, D has the bye.
    # R3: D beats A, B beats E, C has the bye.
    t = built("swiss", "ABCDE", [
        [((A, B), (1, 2)), ((C, D), (1, 1)), ((E,), None)],
        [((E, A), (1, 1)), ((C, B), (1, 2)), ((D,), None)],
        [((A, D), (2, 1)), ((B, E), (1, 2)), ((C,), None)],
    ])  # fmt: skip
    # points: A 1+½+0 = 1½, B 0+0+1 = 1, C ½+1+1 = 2½, D ½+1+1 = 2½, E 1+½+0 = 1½
    # Buchholz (a bye counts as an opponent with your own points):
    #   A: B 1 + E 1½ + D 2½ = 5      B: A 1½ + C 2½ + E 1½ = 5½    C: D 2½ + B 1 + own 2½ = 6
    #   D: C 2½ + own 2½ + A 1½ = 6½  E: own 1½ + A 1½ + B 1 = 4
    # Sonneborn-Berger (score x opponent's points):
    #   A: 1x1 + ½x1½ + 0 = 1.75      B: 0 + 0 + 1x1½ = 1.5         C: ½x2½ + 1x1 + 1x2½ = 4.75
    #   D: ½x2½ + 1x2½ + 1x1½ = 5.25  E: 1x1½ + ½x1½ + 0 = 2.25
    assert table(t) == [
        ("1", "D", 2.5, 6.5, 5.25, None),
        ("2", "C", 2.5, 6.0, 4.75, None),
        ("3", "A", 1.5, 5.0, 1.75, None),
        ("4", "E", 1.5, 4.0, 2.25, None),
        ("5", "B", 1.0, 5.5, 1.5, None),
    ]
    s = {x.entry: x for x in standings(t)}
    assert (s[C].wins, s[C].draws, s[C].losses, s[C].byes) == (1, 1, 0, 1)


def test_head_to_head_breaks_what_buchholz_and_sonneborn_berger_leave() -> None:
    # A round robin of four: A beats B and C, draws D; B draws C, beats D; D beats C.
    t = built("roundrobin", "ABCD", [
        [((A, B), (1, 2)), ((C, D), (2, 1))],
        [((A, C), (1, 2)), ((B, D), (1, 2))],
        [((A, D), (1, 1)), ((B, C), (1, 1))],
    ])  # fmt: skip
    # points: A 1+1+½ = 2½, B 0+1+½ = 1½, C 0+0+½ = ½, D 1+0+½ = 1½
    # Buchholz: A 1½+½+1½ = 3½, B 2½+1½+½ = 4½, D ½+1½+2½ = 4½, C 2½+1½+1½ = 5½
    # S-B: B 0x2½ + 1x1½ + ½x½ = 1.75; D 1x½ + 0x1½ + ½x2½ = 1.75: tied, and B beat D
    assert table(t) == [
        ("1", "A", 2.5, 3.5, 2.75, None),
        ("2", "B", 1.5, 4.5, 1.75, 1.0),
        ("3", "D", 1.5, 4.5, 1.75, 0.0),
        ("4", "C", 0.5, 5.5, 0.75, None),
    ]
    grid = results_grid(t)
    assert [cell(grid.get((A, o), [])) for o in (B, C, D)] == ["1", "1", "½"]
    assert cell(grid[(C, B)]) == "½" and cell(grid[(C, D)]) == "0"


def test_a_round_robin_breaks_ties_by_sonneborn_berger_where_buchholz_cannot() -> None:
    # A beats B, C draws D; A draws C, B beats D; D beats A, B beats C.
    t = built("roundrobin", "ABCD", [
        [((A, B), (1, 2)), ((C, D), (1, 1))],
        [((A, C), (1, 1)), ((B, D), (1, 2))],
        [((A, D), (2, 1)), ((B, C), (1, 2))],
    ])  # fmt: skip
    # points: A 1+½+0 = 1½, B 0+1+1 = 2, C ½+½+0 = 1, D ½+0+1 = 1½ (6 in all)
    # Buchholz is everyone else's points, 6 less your own: A and D both 4½, so it cannot part them.
    # S-B: A 1x2 (B) + ½x1 (C) = 2½; D ½x1 (C) + 1x1½ (A) = 2: A ahead, although D beat A (head to head
    # comes after Sonneborn-Berger). Swiss would rank them the same way here, by S-B after an equal Buchholz.
    assert table(t) == [
        ("1", "B", 2.0, 4.0, 2.5, None),
        ("2", "A", 1.5, 4.5, 2.5, None),
        ("3", "D", 1.5, 4.5, 2.0, None),
        ("4", "C", 1.0, 5.0, 1.5, None),
    ]
    assert TIE_BREAKS["roundrobin"] == ("sonneborn_berger",)


def test_a_round_robin_ranks_by_sonneborn_berger_where_a_swiss_takes_buchholz() -> None:
    # Two rounds of a round robin of six (Buchholz still differs): A beats B, C beats D, E draws F;
    # A beats C, B draws E, D draws F.  Points: A 2, C 1, E 1, F 1, B ½, D ½.
    rounds = [
        [((A, B), (1, 2)), ((C, D), (1, 2)), ((E, F), (1, 1))],
        [((A, C), (1, 2)), ((B, E), (1, 1)), ((D, F), (1, 1))],
    ]
    # Buchholz: C D ½ + A 2 = 2½; E F 1 + B ½ = 1½; F E 1 + D ½ = 1½; B A 2 + E 1 = 3; D C 1 + F 1 = 2
    # S-B: C 1x½ = ½; E ½x1 + ½x½ = ¾; F ½x1 + ½x½ = ¾; B ½x1 = ½; D ½x1 = ½
    # The round robin: E and F ahead of C by S-B, and level (they drew: head to head ½ each); B and D level
    # on S-B and never met (head to head 0 each): shared places.
    assert table(built("roundrobin", "ABCDEF", rounds)) == [
        ("1", "A", 2.0, 1.5, 1.5, None),
        ("2=", "E", 1.0, 1.5, 0.75, 0.5),
        ("2=", "F", 1.0, 1.5, 0.75, 0.5),
        ("4", "C", 1.0, 2.5, 0.5, None),
        ("5=", "B", 0.5, 3.0, 0.5, 0.0),
        ("5=", "D", 0.5, 2.0, 0.5, 0.0),
    ]
    # The same games as a Swiss: Buchholz first puts C second and B above D.
    assert [name for _, name, *_ in table(built("swiss", "ABCDEF", rounds))] == ["A", "C", "E", "F", "B", "D"]


def test_a_cycle_leaves_a_shared_place() -> None:
    # A beats B, B beats C, C beats A, D beats all three: A, B, C 1 point, Buchholz 1+1+3 = 5, S-B 1x1 = 1,
    # and head to head 1 each
    t = built("roundrobin", "ABCD", [
        [((A, B), (1, 2)), ((C, D), (2, 1))],
        [((B, C), (1, 2)), ((A, D), (2, 1))],
        [((C, A), (1, 2)), ((B, D), (2, 1))],
    ])  # fmt: skip
    assert table(t) == [
        ("1", "D", 3.0, 3.0, 3.0, None),
        ("2=", "A", 1.0, 5.0, 1.0, 1.0),
        ("2=", "B", 1.0, 5.0, 1.0, 1.0),
        ("2=", "C", 1.0, 5.0, 1.0, 1.0),
    ]


def test_pods_score_a_point_for_each_player_finished_ahead_of() -> None:
    # Volcano pods of up to 4, five players. R1: A first, B and C share second (pod A B C); E beats D.
    # R2: D first, E second, A third (pod A D E); B and C share first (pod B C).
    t = built("swiss", "ABCDE", [
        [((A, B, C), (1, 2, 2)), ((D, E), (2, 1))],
        [((A, D, E), (3, 1, 2)), ((B, C), (1, 1))],
    ], game="volcano", seats=4)  # fmt: skip
    # R1: A 2, B ½, C ½; E 1, D 0.  R2: D 2, E 1, A 0; B ½, C ½.  Totals: A 2, B 1, C 1, D 2, E 2
    # Buchholz over encounters: A: B 1 + C 1 + D 2 + E 2 = 6; D: E 2 + A 2 + E 2 = 6; E: D 2 + A 2 + D 2 = 6
    #   B: A 2 + C 1 + C 1 = 4; C: A 2 + B 1 + B 1 = 4
    # S-B: A 1x1 + 1x1 + 0 + 0 = 2; D 0x2 + 1x2 + 1x2 = 4; E 1x2 + 1x2 + 0x2 = 4; B 0x2 + ½x1 + ½x1 = 1; C 1
    # head to head: D and E won one encounter each (1 = 1): shared; B and C ½ + ½ each: shared
    assert table(t) == [
        ("1=", "D", 2.0, 6.0, 4.0, 1.0),
        ("1=", "E", 2.0, 6.0, 4.0, 1.0),
        ("3", "A", 2.0, 6.0, 2.0, None),
        ("4=", "B", 1.0, 4.0, 1.0, 1.0),
        ("4=", "C", 1.0, 4.0, 1.0, 1.0),
    ]


def test_a_withdrawal_forfeits_and_the_unplayed_games_count_like_byes() -> None:
    t = Tournament.new("fish", "swiss")
    for k, name in enumerate("ABCD"):
        t = t.add_entrant(f"id{k}", name, 2000 - 100 * k)
    t = t.start()
    assert [p.seats for p in t.current.pairings] == [(A, C), (B, D)]  # top half against bottom half
    t = t.withdraw("id3")  # D leaves before playing: B wins by forfeit
    assert t.current.pairings[1].result == Result("forfeit", (1, 1), (1,))
    t = t.record_result(1, 1, (1, 2)).advance()  # A beats C
    # round 2: A 1, B 1, C 0; the bye to C (the lowest); B goes first (the forfeit gave no colour)
    assert [p.seats for p in t.current.pairings] == [(B, A), (C,)]
    t = t.record_result(2, 1, (1, 2))
    assert t.finished  # two rounds for four players
    # points: A 1, B 2, C 1, D 0. Unplayed (the forfeit, the bye) count as against your own points:
    # Buchholz: B own 2 + A 1 = 3; A C 1 + B 2 = 3; C A 1 + own 1 = 2; D own 0
    # S-B: B 1x2 + 1x1 = 3; A 1x1 + 0x2 = 1; C 0x1 + 1x1 = 1; D 0
    assert table(t) == [
        ("1", "B", 2.0, 3.0, 3.0, None),
        ("2", "A", 1.0, 3.0, 1.0, None),
        ("3", "C", 1.0, 2.0, 1.0, None),
        ("4", "D", 0.0, 0.0, 0.0, None),
    ]
    assert standings(t)[3].withdrawn
    assert [(e.opponent, e.score, e.played) for e in encounters(t)[B]] == [(D, 1.0, False), (A, 1.0, True)]


def test_a_double_forfeit_is_a_loss_for_both_not_a_draw() -> None:
    # A round robin of four: round 1 played (A beats B, C draws D); in round 2 A and C have both withdrawn
    # when they are to meet (both forfeit, 0 each), B beats D.
    t = built("roundrobin", "ABCD", [[((A, B), (1, 2)), ((C, D), (1, 1))], [((A, C), (1, 1)), ((B, D), (1, 2))]])
    both = Pairing((A, C), Result("forfeit", (1, 1), (0, 1)))
    t = replace(t, rounds=(t.rounds[0], replace(t.rounds[1], pairings=(both, t.rounds[1].pairings[1]))))
    rows = {t.entrants[s.entry].name: s for s in standings(t)}
    assert (rows["A"].points, rows["A"].wins, rows["A"].draws, rows["A"].losses) == (1.0, 1, 0, 1)
    assert (rows["C"].points, rows["C"].wins, rows["C"].draws, rows["C"].losses) == (0.5, 0, 1, 1)
    assert (rows["B"].wins, rows["B"].losses, rows["D"].draws, rows["D"].losses) == (1, 1, 1, 1)


def test_knockout_ranks_by_the_round_reached() -> None:
    t = Tournament.new("fish", "knockout")
    for k, name in enumerate("ABCDE"):
        t = t.add_entrant(f"id{k}", name, 2000 - 100 * k)
    t = t.start()  # 8 lines: A, B and C have byes; D meets E
    assert [p.seats for p in t.current.pairings] == [(A,), (D, E), (B,), (C,)]
    t = t.record_result(1, 2, (2, 1)).advance()  # E beats D
    assert [p.seats for p in t.current.pairings] == [(E, A), (B, C)]  # E was second in round 1
    t = t.record_result(2, 1, (2, 1)).record_result(2, 2, (1, 1)).advance()  # A wins; B and C draw: B (higher seed)
    assert [p.seats for p in t.current.pairings] == [(A, B)]  # A was second last time, B first
    t = t.record_result(3, 1, (2, 1))
    assert t.finished and t.champion() == B
    rows = [(s.place, t.entrants[s.entry].name, s.out_in) for s in standings(t)]
    assert rows == [("1", "B", None), ("2", "A", 3), ("3=", "C", 2), ("3=", "E", 2), ("5", "D", 1)]


def test_points_always_sum_the_encounters() -> None:
    rng = random.Random(2340)
    for k in range(150):
        game, seats, fmt = [("fish", None, "swiss"), ("volcano", 4, "swiss"), ("geyser", 3, "roundrobin")][k % 3]
        t = play_out(entered(fmt, rng.randint(2, 14), rng, game=game, seats=seats), rng)
        points = t.points()
        for entry, found in encounters(t).items():
            assert sum(e.score for e in found) == points[entry]
        ranks = [s.rank for s in standings(t)]
        assert ranks == sorted(ranks) and ranks[0] == 1


def test_numbers_read_as_players_write_them() -> None:
    assert [number(x) for x in (0, 0.5, 1, 2.5, 10)] == ["0", "½", "1", "2½", "10"]
