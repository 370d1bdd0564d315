"""Glicko-2 ratings: the arithmetic against Glickman's worked example, which games are rated, that a
rating changes in the same transaction as the game's end, and the terminal's leaderboard and stats."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import ratings
from bot.games import Outcome
from bot.local import Terminal
from bot.models import OVER, RUNNING, Place, Player, computer
from bot.ratings import Rating, is_rated, pairwise_scores, rate_game, update
from bot.service import MatchService
from tests.conftest import ALICE, BOB, MOD

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

CAROL = Player("local:carol", "carol")
SERVER = Place(guild_id=42, channel_id=None)


def won(seat: int, seats: int = 2, scores: tuple[float, ...] | None = None) -> Outcome:
    scores = scores or tuple(1.0 if s == seat else 0.0 for s in range(seats))
    return Outcome(scores, frozenset({seat}), "won")


DRAW = Outcome((0.5, 0.5), frozenset(), "drawn")


# --- the arithmetic ---


def test_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200 beats 1400/30, loses to 1550/100 and 1700/300.
    The paper rounds its intermediate values and prints 1464.06 / 151.52 / 0.05999."""
    after = update(
        Rating(1500, 200, 0.06), [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0), (Rating(1700, 300), 0)]
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_between_newcomers_is_symmetric() -> None:
    winner, loser = rate_game([Rating(), Rating()], won(0))
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd) and winner.rd < 350
    assert round(winner.rating) == 1662 and round(loser.rating) == 1338  # the familiar first-game swing
    # the upset of a stronger player moves more than the expected win
    upset = update(Rating(1400, 80), [(Rating(1700, 80), 1.0)])
    expected = update(Rating(1700, 80), [(Rating(1400, 80), 1.0)])
    assert upset.rating - 1400 > expected.rating - 1700 > 0


def test_a_draw_between_equals_changes_nothing_but_the_rd() -> None:
    a, b = rate_game([Rating(1620, 90, 0.06), Rating(1620, 90, 0.06)], DRAW)
    assert a.rating == pytest.approx(1620) and b.rating == pytest.approx(1620)
    assert a.rd < 90 and a == b


def test_rd_settles_and_provisional_ratings_become_established() -> None:
    rating = Rating()
    for n in range(40):
        rating = update(rating, [(Rating(1500, 60), 1.0 if n % 2 else 0.0)])
    assert 40 < rating.rd < ratings.PROVISIONAL_RD and not rating.provisional and Rating().provisional
    assert ratings.shown(Rating()) == "1500?" and ratings.shown(rating) == f"{rating.rating:.0f}"


def test_several_players_are_rated_pairwise_from_the_final_ranking() -> None:
    # Volcano-like: seat 1 wins; of the others seat 2 scored more than seat 0
    outcome = Outcome((3.0, 9.0, 5.0), frozenset({1}), "most points")
    pairs = pairwise_scores(outcome, 3)
    assert pairs[1] == [(0, 1.0), (2, 1.0)]
    assert pairs[2] == [(0, 1.0), (1, 0.0)]
    assert pairs[0] == [(1, 0.0), (2, 0.0)]
    last, first, second = rate_game([Rating()] * 3, outcome)
    assert first.rating > 1500 > last.rating and second.rating == pytest.approx(1500)  # one win, one loss
    assert first.rating - 1500 == pytest.approx(1500 - last.rating)
    # a shared win is a draw between the winners; a draw of several is a draw for all
    shared = pairwise_scores(Outcome((1, 1, 0), frozenset({0, 1}), "shared"), 3)
    assert shared[0] == [(1, 0.5), (2, 1.0)]
    assert pairwise_scores(Outcome((2, 5, 1), frozenset(), "drawn"), 3)[1] == [(0, 0.5), (2, 0.5)]
    # two players: the plain result
    assert pairwise_scores(won(1), 2) == [[(1, 0.0)], [(0, 1.0)]]


def test_only_games_between_different_people_are_rated() -> None:
    assert is_rated([ALICE, BOB], won(0))
    assert is_rated([ALICE, BOB, CAROL], won(0, 3))
    assert not is_rated([ALICE, BOB], None)  # not over (or aborted: no result)
    assert not is_rated([ALICE], won(0, 1))  # solitaire
    assert not is_rated([ALICE, computer("easy")], won(0))
    assert not is_rated([ALICE, BOB, computer("hard", 2)], won(0, 3))
    assert not is_rated([ALICE, ALICE], won(0))


# --- the service ---


async def test_a_rated_game_updates_both_players_with_its_end(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    notices: list = []

    async def listen(notice) -> None:  # type: ignore[no-untyped-def]
        notices.append(notice)

    service.subscribe(listen)
    for mover, move in [(ALICE, "2"), (BOB, "2"), (ALICE, "1")]:  # 5: alice wins
        await service.move(match.id, mover.id, move)
    assert (await service.get(match.id)).status == OVER
    board = await service.ratings.leaderboard(42, "toy")
    assert [(r.name, round(r.rating.rating), r.record) for r in board] == [
        ("alice", 1662, "1-0-0"),
        ("bob", 1338, "0-1-0"),
    ]
    assert all(r.games == 1 and r.rating.rd < 350 for r in board)
    over = [n for n in notices if n.kind == "over"]
    assert over and over[0].lines[-1] == "Ratings: alice 1500? → 1662?, bob 1500? → 1338?."
    assert (
        await service.ratings.leaderboard(None, "toy") == [] and await service.ratings.leaderboard(7, "toy") == []
    )  # per server
    (stats,) = await service.ratings.stats(42, BOB.id)
    assert stats.game == "toy" and stats.losses == 1


async def test_a_failed_rating_write_undoes_the_game_end_too(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    await service.move(match.id, ALICE.id, "2")
    await service.move(match.id, BOB.id, "2")

    async def broken(rating: ratings.PlayerRating) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "save_rating", broken)
    with pytest.raises(OSError):
        await service.move(match.id, ALICE.id, "1")
    stored = await service.store.load_match(match.id)
    assert stored is not None and stored.status == RUNNING and stored.ply == 2
    assert len(await service.store.log(match.id)) == 2 and await service.ratings.leaderboard(42, "toy") == []
    monkeypatch.undo()
    await service.move(match.id, ALICE.id, "1")  # the same move goes through once the store works
    assert [r.name for r in await service.ratings.leaderboard(42, "toy")] == ["alice", "bob"]


async def test_resignation_flag_and_adjudicated_draw_are_rated(service: MatchService) -> None:
    first = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    await service.playing.resign(first.id, BOB.id)
    second = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    await service.moderation.adjudicate(second.id, MOD, None)
    alice, bob = await service.ratings.leaderboard(42, "toy")
    assert (alice.name, alice.record, bob.record) == ("alice", "1-0-1", "0-1-1")
    assert alice.games == bob.games == 2


async def test_games_against_the_computer_solitaire_and_aborted_games_are_unrated(service: MatchService) -> None:
    versus = await service.create_match("toy", [ALICE, computer("easy")], place=SERVER)
    await service.moderation.adjudicate(versus.id, MOD, ALICE.id)
    solo = await service.create_match("volcano", [ALICE], place=SERVER)
    await service.playing.resign(solo.id, ALICE.id)
    aborted = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    await service.move(aborted.id, ALICE.id, "2")
    await service.moderation.abort(aborted.id, MOD)
    for match in (versus, solo, aborted):
        assert not (await service.get(match.id)).running
    assert await service.ratings.leaderboard(42, "toy") == [] and await service.ratings.leaderboard(42, "volcano") == []
    assert await service.ratings.stats(42, ALICE.id) == []


async def test_three_players_and_death_match_games_are_rated_game_by_game(service: MatchService) -> None:
    three = await service.create_match("toy", [ALICE, BOB, CAROL], place=SERVER)
    for mover, move in [(ALICE, "1"), (BOB, "2"), (CAROL, "2")]:  # 5: carol wins
        await service.move(three.id, mover.id, move)
    top = await service.ratings.leaderboard(42, "toy")
    assert top[0].name == "carol" and top[1].rating.rating == pytest.approx(top[2].rating.rating)
    series = await service.create_series("toy", [ALICE, BOB], first=0, best_of=3, clock=None, place=SERVER)
    game_one = series.games[0]
    for mover, move in [(ALICE, "2"), (BOB, "2"), (ALICE, "1")]:
        await service.move(game_one, mover.id, move)
    series = await service.registry.get_series(series.id)
    assert series.status == RUNNING and len(series.games) == 2  # the death match goes on...
    alice = next(r for r in await service.ratings.stats(42, ALICE.id) if r.game == "toy")
    assert alice.games == 2 and alice.record == "1-1-0"  # ...and its first game is rated already


async def test_ratings_survive_a_restart(open_service: Callable[[], Awaitable[MatchService]]) -> None:
    service = await open_service()
    await service.start()
    match = await service.create_match("toy", [ALICE, BOB], place=SERVER)
    await service.playing.resign(match.id, ALICE.id)
    before = await service.ratings.leaderboard(42, "toy")
    await service.close()
    again = await open_service()
    await again.start()
    assert await again.ratings.leaderboard(42, "toy") == before and before[0].name == "bob"
    assert await again.store.schema_version() >= 4


async def test_the_leaderboard_refuses_an_unknown_game(service: MatchService) -> None:
    with pytest.raises(ValueError, match="no game 'chess'"):
        await service.ratings.leaderboard(42, "chess")


# --- the terminal ---


async def test_terminal_leaderboard_and_stats(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)

    async def run(line: str) -> str:
        before = len(out)
        assert await terminal.handle(line)
        return "\n".join(out[before:])

    title = service.games["fish"].title
    assert f"Nobody has a {title} rating here yet" in await run("leaderboard fish")
    await run("fish new Alice Bob --seed 5")
    ended = await run("mod adjudicate alice")
    assert "Ratings: Alice 1500? → 1662?, Bob 1500? → 1338?." in ended
    board = await run("leaderboard fish")
    assert f"{title} leaderboard (Glicko-2" in board and "**" not in board
    assert "1. Alice: 1662? ±" in board and "2. Bob: 1338? ±" in board and "1 game, 0-1-0 W-L-D" in board
    stats = await run("stats alice")
    assert "Alice's ratings" in stats and f"{title}: 1662? ±" in stats and "1-0-0 W-L-D" in stats
    assert "zed has no rated games here yet." in await run("stats zed")
    assert "✗ There is no game 'chess'" in await run("leaderboard chess")
    assert "✗ Use: stats NAME." in await run("stats")
    assert "✗ Use: leaderboard GAME" in await run("leaderboard")
