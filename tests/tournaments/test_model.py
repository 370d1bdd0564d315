"""The tournament value: building it, its operations and refusals, and its JSON round trip."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.games import Outcome
from bot.tournaments import Tournament, TournamentError, places_from_outcome, points_for_places
from bot.tournaments.model import VERSION, Result
from tests.tournaments import entered, play_out


def four(fmt: str = "swiss", **options: object) -> Tournament:
    t = Tournament.new("fish", fmt, **options)  # type: ignore[arg-type]
    for k, name in enumerate("ABCD"):
        t = t.add_entrant(f"id{k}", name, 2000 - 100 * k)
    return t


def test_new_checks_its_settings() -> None:
    assert Tournament.new("volcano", "swiss").seats == 6  # pods up to the game's limit
    assert Tournament.new("geyser", "roundrobin", seats=3).seats == 3
    assert Tournament.new("fish", "swiss", rounds=5).rounds_wanted == 5
    for args, refusal in [
        (("chess", "swiss"), "no game"),
        (("fish", "ladder"), "knockout, roundrobin or swiss"),
        (("fish", "swiss", {"seats": 3}), "seats 2 players"),
        (("geyser", "swiss", {"seats": 5}), "2 to 4"),
        (("geyser", "knockout", {"seats": 4}), "Knockout needs one winner"),
        (("fish", "roundrobin", {"rounds": 3}), "Only Swiss"),
        (("fish", "swiss", {"rounds": 0}), "1 to 64"),
        (("fish", "swiss", {"series": "bo5"}), "single or dm"),
        (("volcano", "swiss", {"series": "dm"}), "two players"),
    ]:
        options = args[2] if len(args) > 2 else {}
        with pytest.raises(TournamentError, match=refusal):
            Tournament.new(args[0], args[1], **options)  # type: ignore[arg-type, misc]


def test_sign_up_then_start() -> None:
    t = four()
    with pytest.raises(TournamentError, match="already signed up"):
        t.add_entrant("id0", "A again")
    t = t.remove_entrant("id3")
    assert [e.name for e in t.entrants] == ["A", "B", "C"]
    with pytest.raises(TournamentError, match="not in this tournament"):
        t.remove_entrant("nobody")
    with pytest.raises(TournamentError, match="at least 2"):
        Tournament.new("fish", "swiss").add_entrant("x", "x").start()
    started = t.start()
    assert started.seeds == (0, 1, 2) and started.rounds_wanted == 2 and len(started.rounds) == 1
    with pytest.raises(TournamentError, match="Sign-up is closed"):
        started.add_entrant("id9", "late")
    with pytest.raises(TournamentError, match="withdrawn instead"):
        started.remove_entrant("id0")
    with pytest.raises(TournamentError, match="at most 3 rounds"):
        Tournament.new("fish", "swiss", rounds=4).add_entrant("a", "a").add_entrant("b", "b").add_entrant(
            "c", "c"
        ).start()


def test_results_are_recorded_once_and_adjudicated_by_moderators() -> None:
    t = four().start()
    assert [p.seats for p in t.current.pairings] == [(0, 2), (1, 3)]
    with pytest.raises(TournamentError, match="place from 1 to 2"):
        t.record_result(1, 1, (1, 2, 3))
    with pytest.raises(TournamentError, match="no board 3"):
        t.record_result(1, 3, (1, 2))
    with pytest.raises(TournamentError, match="still has 2 games"):
        t.next_round()
    once = t.record_result(1, 1, (2, 1))
    assert once.record_result(1, 1, (2, 1)) is once  # the same result again (after a restart): no change
    with pytest.raises(TournamentError, match="already has a result"):
        once.record_result(1, 1, (1, 2))
    fixed = once.adjudicate(1, 1, (1, 1))
    result = fixed.current.pairings[0].result
    assert result == Result("played", (1, 1), adjudicated=True) and result.points == (0.5, 0.5)
    voided = fixed.adjudicate(1, 1, "void")
    assert voided.points()[0] == 0 and voided.current.pairings[0].result == Result("void", adjudicated=True)
    done = voided.record_result(1, 2, (1, 2)).next_round()
    with pytest.raises(TournamentError, match="round 1 is over"):
        done.adjudicate(1, 1, (1, 2))
    # the voided game does not count as a meeting: 0 and 2 may meet again
    assert 2 not in done.players()[0].met


def test_record_outcome_reads_places_from_a_game_outcome() -> None:
    assert places_from_outcome(Outcome((30, 25), frozenset({0}), "more fish")) == (1, 2)
    assert places_from_outcome(Outcome((3, 3), frozenset(), "draw")) == (1, 1)
    assert places_from_outcome(Outcome((5, 9, 5, 2), frozenset({1}), "colours")) == (2, 1, 2, 4)
    assert points_for_places((2, 1, 2, 4)) == (1.5, 3.0, 1.5, 0.0)
    assert points_for_places((1, 1, 1), forfeited=(2,)) == (1.5, 1.5, 0.0)
    t = four().start().record_outcome(1, 2, Outcome((0, 1), frozenset({1}), "resigned"))
    assert t.current.pairings[1].result == Result("played", (2, 1))


def test_withdrawal_forfeits_this_round_and_is_never_paired_again() -> None:
    t = four().start().withdraw("id1")
    assert t.current.pairings[1].result == Result("forfeit", (1, 1), (0,))
    assert t.current.pairings[1].result.points == (0.0, 1.0)
    with pytest.raises(TournamentError, match="already withdrawn"):
        t.withdraw("id1")
    t = t.record_result(1, 1, (1, 2)).advance()
    assert all(1 not in p.seats for p in t.current.pairings)
    # the game the withdrawn player's Discord match still ends with changes nothing
    assert t.current.number == 2


def test_withdrawal_from_a_pod_lets_the_others_play_on() -> None:
    t = Tournament.new("volcano", "swiss", seats=3)
    for k in range(3):
        t = t.add_entrant(f"id{k}", f"p{k}")
    t = t.start().withdraw("id0")
    assert t.current.pairings[0].result is None  # two still play
    t = t.record_result(1, 1, (1, 2, 3))  # the game's places; the leaver finishes last whatever they say
    assert t.current.pairings[0].result is not None
    assert dict(zip(t.current.pairings[0].seats, t.current.pairings[0].result.points, strict=True))[0] == 0.0
    t2 = Tournament.new("volcano", "swiss", seats=3)
    for k in range(3):
        t2 = t2.add_entrant(f"id{k}", f"p{k}")
    t2 = t2.start().withdraw("id0").withdraw("id1")  # one left: decided by forfeit
    result = t2.current.pairings[0].result
    assert result is not None and result.kind == "forfeit" and sorted(result.points) == [0.0, 0.0, 2.0]
    assert t2.finished


def test_a_replacement_takes_over_the_entry() -> None:
    t = four().start()
    t = t.replace_player("id1", "new", "Newcomer", 1700)
    entrant = t.entrants[1]
    assert (entrant.id, entrant.name, entrant.rating) == ("new", "Newcomer", 1700)
    assert [(f.id, f.until) for f in entrant.formers] == [("id1", 1)]
    assert t.current.pairings[1].seats == (1, 3)  # the current game is the newcomer's now
    with pytest.raises(TournamentError, match="already in this tournament"):
        t.replace_player("id0", "new", "again")
    # a withdrawn entry is reinstated for the rounds to come
    t = t.withdraw("id2").replace_player("id2", "sub", "Sub")
    assert not t.entrants[2].withdrawn and t.current.pairings[0].result is not None
    t = t.record_result(1, 2, (1, 2)).advance()
    assert 2 in {e for p in t.current.pairings for e in p.seats}


def test_voiding_a_round_pairs_it_again() -> None:
    t = four().start()
    t = t.record_result(1, 1, (1, 2)).record_result(1, 2, (1, 2)).next_round()
    second = t.current
    t = t.record_result(2, 1, (1, 2)).withdraw("id3")
    again = t.void_round()
    assert [r.number for r in again.voided] == [2] and again.current.number == 2
    assert all(p.result is None or p.is_bye for p in again.current.pairings)
    assert all(3 not in p.seats for p in again.current.pairings)  # the withdrawal stands
    assert again.current != second


def test_finished_tournaments_refuse_changes() -> None:
    t = play_out(four(), random.Random(3), withdrawals=0)
    assert t.finished
    for call, refusal in [(t.next_round, "over"), (lambda: t.withdraw("id0"), "over"), (t.void_round, "over")]:
        with pytest.raises(TournamentError, match=refusal):
            call()
    assert t.advance() is t


@pytest.mark.parametrize(("fmt", "game", "seats"), [
    ("swiss", "fish", None), ("knockout", "themiscyra", None), ("roundrobin", "horizon", None),
    ("swiss", "volcano", 4), ("roundrobin", "geyser", 3),
])  # fmt: skip
def test_json_round_trip_at_every_step(fmt: str, game: str, seats: int | None) -> None:
    rng = random.Random(f"{fmt}:{game}")
    for _ in range(15):
        t = entered(fmt, rng.randint(2, 12), rng, game=game, seats=seats)
        steps = [t]
        final = play_out(t, rng, check=lambda before, after, steps=steps: steps.append(after))
        steps.append(final)
        if rng.random() < 0.3 and not final.finished:
            steps.append(final.void_round())
        for step in steps:
            data = step.to_json()
            text = json.dumps(data, sort_keys=True)
            back = Tournament.from_json(json.loads(text))
            assert back == step
            assert json.dumps(back.to_json(), sort_keys=True) == text


def test_the_json_shape() -> None:
    t = four().start().withdraw("id3").replace_player("id0", "z", "Zed")
    data = t.to_json()
    assert data["format"] == "boardgame-bot tournament" and data["version"] == VERSION
    assert data["system"] == "swiss" and data["game"] == "fish" and data["seats"] == 2
    assert data["entrants"][3] == {"id": "id3", "name": "D", "rating": 1700.0, "withdrawn": True, "withdrawn_in": 1}
    assert data["entrants"][0]["formers"] == [{"id": "id0", "name": "A", "until": 1}]
    assert data["rounds"][0]["pairings"][1] == {
        "seats": [1, 3],
        "result": {"kind": "forfeit", "places": [1, 1], "points": [1.0, 0.0], "forfeited": [1]},
    }


def test_from_json_refuses_what_it_cannot_trust() -> None:
    good = four().start().record_result(1, 1, (1, 2)).to_json()
    for change, refusal in [
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(format="other"), "not a tournament"),
        (lambda d: d["rounds"][0]["pairings"][0]["result"].update(points=[0.0, 1.0]), "do not follow"),
        (lambda d: d["rounds"][0]["pairings"][0].update(seats=[0, 9]), "entries of the tournament"),
        (lambda d: d.update(seeds=[0, 0, 1, 2]), "every entry once"),
        (lambda d: d["entrants"].append(dict(d["entrants"][0])), "distinct"),
        (lambda d: d["rounds"][0].update(number=2), "numbered"),
        (lambda d: d["rounds"][0]["pairings"][0]["result"].update(kind="won"), "result kind"),
        (lambda d: d.pop("entrants"), "not a tournament record"),
    ]:
        data = copy.deepcopy(good)
        change(data)
        with pytest.raises(TournamentError, match=refusal):
            Tournament.from_json(data)
