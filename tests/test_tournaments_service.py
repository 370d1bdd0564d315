"""Tournaments run by the service (bot/service/tournaments.py) on a real database with a fake clock: sign-up,
rounds started as games, results from the games' ends, withdrawals, moderators, restarts mid-round, and the
record. Most run on the toy game (tests/toygame.py), whose results are easy to arrange; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeTime
from bot.models import ABORTED, OVER, RUNNING, Place, Player
from bot.service import MatchService, ServiceError, TournamentNotice
from bot.tournaments import Tournament, standings
from bot.tournaments.stored import CANCELLED, FINISHED, PLAYING, SIGNUP
from tests.conftest import MOD, TEST_GAMES, eventually

pytestmark = pytest.mark.backends

TOY = TEST_GAMES["toy"]
PLAYERS = [Player(f"local:p{i}", f"p{i}") for i in range(1, 9)]
GUILD = Place(7, 70)

Opener = Callable[[], Awaitable[MatchService]]


async def started(open_service: Opener) -> tuple[MatchService, list[TournamentNotice]]:
    service = await open_service()
    await service.start()
    await service.tournaments.resume()
    heard: list[TournamentNotice] = []

    async def listen(notice: TournamentNotice) -> None:
        heard.append(notice)

    service.tournaments.subscribe(listen)
    return service, heard


def winning_line(state: Any, winner: int | None) -> list[str] | None:
    """Toy moves from `state` that end it won by seat `winner` (None: drawn)."""
    if winner is None:
        return ["draw"]
    if state.turn is None:
        return [] if state.winner == winner else None
    for move in ("1", "2"):
        rest = winning_line(TOY.play(state, move), winner)
        if rest is not None:
            return [move, *rest]
    return None


async def finish(service: MatchService, match_id: int, winner_id: str | None) -> None:
    """Play a toy match out so that `winner_id` wins (None: a draw)."""
    match = await service.get(match_id)
    seat = None if winner_id is None else match.seats_of(winner_id)[0]
    line = winning_line(match.state, seat)
    assert line is not None
    for move in line:
        match = await service.get(match_id)
        seat = TOY.to_move(match.state)
        assert seat is not None
        await service.move(match_id, match.players[seat].id, move)
    assert not (await service.get(match_id)).running


async def open_toy(service: MatchService, format: str, count: int, **options: Any) -> int:
    options.setdefault("seats", 2)
    held = await service.tournaments.open("toy", format, MOD, place=GUILD, **options)
    for player in PLAYERS[:count]:
        await service.tournaments.join(held.id, player)
    return held.id


async def boards(service: MatchService, tid: int) -> list[Any]:
    return list(await service.tournaments.boards(await service.tournaments.get(tid)))


async def play_round(service: MatchService, tid: int, skip: int = 0) -> None:
    """The first seat of every board with a game wins, but the last `skip` boards are left running."""
    games = [b for b in await boards(service, tid) if b.match_id is not None and b.result is None]
    for board in games[: len(games) - skip]:
        if (await service.get(board.match_id)).running:
            await finish(service, board.match_id, board.players[0].id)


async def test_a_swiss_of_8_is_played_through_with_a_restart_mid_round(open_service: Opener) -> None:
    service, heard = await started(open_service)
    tid = await open_toy(service, "swiss", 8)
    held = await service.tournaments.start_tournament(tid, MOD)
    assert held.status == PLAYING and held.tournament.rounds_wanted == 3
    first = await boards(service, tid)
    assert len(first) == 4 and all(b.match_id for b in first)
    for board in first:  # the pairing's first entry sits first; the tournament's games are the server's
        match = await service.get(board.match_id)
        assert [p.id for p in match.players] == [p.id for p in board.players] and match.place == GUILD
        assert TOY.to_move(match.state) == 0
    rounds = [n for n in heard if n.kind == "round"]
    assert len(rounds) == 1 and rounds[0].lines[0].startswith("Round 1 of 3 of Tournament #1 (Toy, Swiss)")
    assert {p.id for p in rounds[0].to} == {p.id for p in PLAYERS}

    await play_round(service, tid)
    second = await boards(service, tid)
    assert (await service.tournaments.get(tid)).tournament.current.number == 2 and len(second) == 4
    await play_round(service, tid, skip=2)  # two games of round 2 still running

    # The restart: one of them ends as the bot goes down, before its result reaches the tournament.
    service.registry._listeners.remove(service.tournaments.on_notice)
    last = [b for b in second if (await service.get(b.match_id)).running]
    await finish(service, last[0].match_id, last[0].players[1].id)
    await service.close()
    service, heard = await started(open_service)
    held = await service.tournaments.get(tid)
    t = held.tournament
    assert t.current.number == 2 and t.current.pairings[last[0].board - 1].result is not None  # caught up
    assert t.current.pairings[last[1].board - 1].result is None
    resumed = service.running_match(last[1].match_id)
    assert resumed is not None  # the round's game runs on after the restart
    await finish(service, last[1].match_id, last[1].players[0].id)
    assert (await service.tournaments.get(tid)).tournament.current.number == 3
    assert [n.kind for n in heard] == ["round"]
    await play_round(service, tid)
    held = await service.tournaments.get(tid)
    assert held.status == FINISHED and held.tournament.finished
    assert [n.kind for n in heard] == ["round", "over"] and "is over" in heard[-1].lines[0]
    assert service.tournaments._held == {}  # no longer running
    t = held.tournament
    met = [frozenset(p.seats) for r in t.rounds for p in r.pairings]
    assert len(met) == len(set(met)) == 12  # no pairing repeated
    assert sum(s.points for s in standings(t)) == 12

    record = await service.tournaments.record(tid)
    data = json.loads(record.dumps())
    assert record.filename == "tournament-1.json" and data["status"] == "over" and data["id"] == tid
    assert Tournament.from_json(data, TEST_GAMES) == t
    assert len(data["games"]) == 12 and all(g["match"] for g in data["games"])
    for game in data["games"]:  # every board's result is its game's
        match = await service.get(game["match"])
        pairing = t.pairing_at(game["round"], game["board"])
        assert match.status == OVER and pairing.result is not None
        assert pairing.result.places == tuple(1 if s in match.result.winners else 2 for s in range(2))  # type: ignore[union-attr]


async def test_a_knockout_gives_the_top_seeds_byes_and_ends_with_a_champion(open_service: Opener) -> None:
    service, heard = await started(open_service)
    tid = await open_toy(service, "knockout", 5)
    await service.tournaments.start_tournament(tid, MOD)
    first = await boards(service, tid)
    assert [b.result for b in first].count("bye") == 3 and sum(1 for b in first if b.match_id) == 1
    assert "Bye: p1" in "\n".join(heard[-1].lines)
    await play_round(service, tid)
    while (held := await service.tournaments.get(tid)).running:
        await play_round(service, tid)
    t = held.tournament
    champion = t.champion()
    assert held.status == FINISHED and len(t.rounds) == 3 and champion is not None
    assert heard[-1].kind == "over" and f"{t.entrants[champion].name} wins" in heard[-1].lines[0]


async def test_a_round_robin_of_3_gives_everyone_a_bye(open_service: Opener) -> None:
    service, _ = await started(open_service)
    tid = await open_toy(service, "roundrobin", 3)
    await service.tournaments.start_tournament(tid, MOD)
    byes = []
    while (held := await service.tournaments.get(tid)).running:
        byes += [b.players[0].id for b in await boards(service, tid) if b.result == "bye"]
        await play_round(service, tid)
    assert held.status == FINISHED and len(held.tournament.rounds) == 3
    assert sorted(byes) == sorted(p.id for p in PLAYERS[:3])


async def test_pods_score_by_finishing_place(open_service: Opener) -> None:
    service, _ = await started(open_service)
    tid = await open_toy(service, "swiss", 5, seats=3, rounds=2)
    await service.tournaments.start_tournament(tid, MOD)
    first = await boards(service, tid)
    assert sorted(len(b.players) for b in first) == [2, 3]
    pod = next(b for b in first if len(b.players) == 3)
    assert len((await service.get(pod.match_id)).players) == 3
    await play_round(service, tid)
    t = (await service.tournaments.get(tid)).tournament
    result = t.rounds[0].pairings[pod.board - 1].result
    assert result is not None and result.points == (2.0, 0.5, 0.5)  # first of three, the two others level
    await play_round(service, tid)
    assert (await service.tournaments.get(tid)).status == FINISHED


async def test_a_volcano_pod_seats_up_to_the_table_and_is_adjudicated(open_service: Opener) -> None:
    service, _ = await started(open_service)
    held = await service.tournaments.open("volcano", "roundrobin", MOD, place=GUILD, seats=4)
    for player in PLAYERS[:4]:
        await service.tournaments.join(held.id, player)
    await service.tournaments.start_tournament(held.id, MOD)
    (pod,) = await boards(service, held.id)
    match = await service.get(pod.match_id)
    assert match.game == "volcano" and len(match.players) == 4
    await service.tournaments.adjudicate(held.id, 1, 1, [2, 1, 3, 4], MOD)
    assert (await service.get(pod.match_id)).status == ABORTED  # a pod's game ends with the moderator's places
    after = await service.tournaments.get(held.id)
    assert after.status == FINISHED  # everyone has met everyone
    assert after.tournament.rounds[0].pairings[0].result.points == (2.0, 3.0, 1.0, 0.0)  # type: ignore[union-attr]


async def test_a_player_who_leaves_is_withdrawn_and_pairing_goes_on(open_service: Opener) -> None:
    service, heard = await started(open_service)
    tid = await open_toy(service, "swiss", 4, rounds=2)
    await service.tournaments.start_tournament(tid, MOD)
    leaver = PLAYERS[0]
    board = next(b for b in await boards(service, tid) if any(p.id == leaver.id for p in b.players))
    other = next(b for b in await boards(service, tid) if b.board != board.board)
    await service.tournaments.leave(tid, leaver)
    match = await service.get(board.match_id)
    assert match.status == OVER and match.result is not None  # resigned for them: the opponent won
    t = (await service.tournaments.get(tid)).tournament
    assert t.entrants[0].withdrawn and t.current.pairings[board.board - 1].result.kind == "forfeit"  # type: ignore[union-attr]
    assert any(n.kind == "withdrawn" and "p1 withdrew" in n.lines[0] for n in heard)
    await finish(service, other.match_id, other.players[0].id)
    second = await boards(service, tid)
    assert len(second) == 2 and [b.result for b in second].count("bye") == 1  # 3 players left: one bye
    assert all(leaver.id not in {p.id for p in b.players} for b in second)
    with pytest.raises(ServiceError, match="already withdrawn"):
        await service.tournaments.leave(tid, leaver)


async def test_moderators_adjudicate_replace_and_void(open_service: Opener) -> None:
    service, heard = await started(open_service)
    tid = await open_toy(service, "swiss", 4, rounds=3)
    await service.tournaments.start_tournament(tid, MOD)
    one, two = await boards(service, tid)

    # adjudicated: the running game ends with that result (a two-player game is adjudicated, and rated)
    await service.tournaments.adjudicate(tid, 1, one.board, [2, 1], MOD)
    match = await service.get(one.match_id)
    assert match.status == OVER and match.result is not None and match.result.winners == {1}
    t = (await service.tournaments.get(tid)).tournament
    assert t.current.pairings[0].result.adjudicated and t.current.pairings[0].result.points == (0.0, 1.0)  # type: ignore[union-attr]

    # replaced: the newcomer takes the entry over, and the running game starts afresh with them
    newcomer = Player("local:new", "newcomer")
    old = two.players[1]
    await service.tournaments.replace_player(tid, old.id, newcomer, MOD)
    assert (await service.get(two.match_id)).status == ABORTED
    (fresh,) = [b for b in await boards(service, tid) if b.board == two.board]
    assert fresh.match_id != two.match_id and [p.id for p in fresh.players] == [two.players[0].id, newcomer.id]
    assert any(n.kind == "replaced" and "newcomer takes over from" in n.lines[0] for n in heard)
    await finish(service, fresh.match_id, newcomer.id)

    # voided: round 2's running games are aborted and it is paired again, the same as before
    second = await boards(service, tid)
    before = [tuple(p.id for p in b.players) for b in second]
    await service.tournaments.void_round(tid, MOD)
    assert [(await service.get(b.match_id)).status for b in second] == [ABORTED, ABORTED]
    again = await boards(service, tid)
    assert [tuple(p.id for p in b.players) for b in again] == before
    assert all(b.match_id not in {s.match_id for s in second} for b in again)
    assert [n.kind for n in heard].count("round") == 3  # round 1, round 2, round 2 again
    t = (await service.tournaments.get(tid)).tournament
    assert len(t.voided) == 1 and t.current.number == 2
    record = json.loads((await service.tournaments.record(tid)).dumps())
    assert sum(1 for g in record["games"] if g["voided"]) == 3  # the replaced game and round 2's two

    for refused, words in [
        (lambda: service.tournaments.adjudicate(tid, 1, 1, [1, 2], MOD), "round 1 is over"),
        (lambda: service.tournaments.adjudicate(tid, 2, 9, [1, 2], MOD), "has no board 9"),
        (lambda: service.tournaments.adjudicate(tid, 2, 1, [1, 1, 1], MOD), "Give a place from 1 to 2"),
        (lambda: service.tournaments.replace_player(tid, "local:nobody", newcomer, MOD), "not in this tournament"),
        (lambda: service.tournaments.join(tid, Player("local:late", "late")), "has started: sign-up is closed"),
    ]:
        with pytest.raises(ServiceError, match=words):
            await refused()
    assert (await service.tournaments.get(tid)).tournament == t  # refusals change nothing


async def test_a_death_match_pairing_is_won_by_the_series_winner(open_service: Opener) -> None:
    service, _ = await started(open_service)
    held = await service.tournaments.open("fish", "knockout", MOD, place=GUILD, series="dm")
    for player in PLAYERS[:2]:
        await service.tournaments.join(held.id, player)
    await service.tournaments.start_tournament(held.id, MOD)
    (board,) = await boards(service, held.id)
    assert board.series_id is not None
    loser = board.players[1]
    for _ in range(2):
        series = await service.registry.get_series(board.series_id)
        await service.playing.resign(series.games[-1], loser.id)
    after = await service.tournaments.get(held.id)
    assert after.status == FINISHED and after.tournament.champion() == after.tournament.entry_of(board.players[0].id)


async def test_sign_up_closes_at_its_time_even_across_a_restart(open_service: Opener, fake_time: FakeTime) -> None:
    service, _ = await started(open_service)
    now = fake_time.now()
    due = await open_toy(service, "swiss", 2, closes_at=now + 3600)
    lonely = await open_toy(service, "swiss", 1, closes_at=now + 3600)
    await service.close()
    fake_time.advance(7200)
    service, heard = await started(open_service)
    assert (await service.tournaments.get(due)).status == PLAYING
    assert (await service.tournaments.get(lonely)).status == CANCELLED
    assert [n.kind for n in heard] == []  # resumed before this listener came: the terminal's order
    assert service.running()  # round 1's game


async def test_sign_up_closes_by_itself_at_its_time_while_the_bot_runs(
    open_service: Opener, fake_time: FakeTime
) -> None:
    service, heard = await started(open_service)
    due = await open_toy(service, "swiss", 2, closes_at=fake_time.now() + 3600)
    lonely = await open_toy(service, "swiss", 1, closes_at=fake_time.now() + 7200)
    fake_time.advance(3590)  # not yet: the scheduler has the closing time armed, and it has not come
    await asyncio.sleep(0.05)
    assert (await service.tournaments.get(due)).status == SIGNUP and service.running() == []
    fake_time.advance(20)
    await eventually(lambda: bool(service.running()))  # round 1's game, started by the scheduler
    assert (await service.tournaments.get(due)).status == PLAYING
    # its notice goes out once the start's lock is released, a moment after the game is in the registry
    await eventually(lambda: any(n.kind == "started" for n in heard))
    fake_time.advance(3600)
    for _ in range(100):  # one player at its closing time: cancelled, in words
        if (await service.tournaments.get(lonely)).status == CANCELLED:
            break
        await asyncio.sleep(0.01)
    assert (await service.tournaments.get(lonely)).status == CANCELLED


async def test_bad_sign_ups_are_refused_in_words_and_store_nothing(open_service: Opener) -> None:
    service, _ = await started(open_service)
    tid = await open_toy(service, "swiss", 2)
    for refused, words in [
        (lambda: service.tournaments.open("chess", "swiss", MOD), "no game 'chess'"),
        (lambda: service.tournaments.open("toy", "ladder", MOD), "knockout, roundrobin or swiss"),
        (lambda: service.tournaments.open("toy", "swiss", MOD, clock="fast"), "like 30/60"),
        (lambda: service.tournaments.open("toy", "knockout", MOD, rounds=3, seats=2), "Only Swiss"),
        (lambda: service.tournaments.open("toy", "knockout", MOD), "Knockout needs one winner"),
        (lambda: service.tournaments.open("volcano", "swiss", MOD, series="dm"), "two players a pairing"),
        (lambda: service.tournaments.open("horizon", "swiss", MOD, series="dm"), "fish"),
        (lambda: service.tournaments.open("toy", "swiss", MOD, closes_at=1.0), "between a minute and 30 days"),
        (lambda: service.tournaments.join(tid, PLAYERS[0]), "already signed up"),
        (lambda: service.tournaments.leave(tid, PLAYERS[5]), "have not signed up"),
        (lambda: service.tournaments.withdraw(tid, PLAYERS[0].id, MOD), "has not started"),
        (lambda: service.tournaments.void_round(tid, MOD), "has not started"),
        (lambda: service.tournaments.get(99), "no tournament #99"),
    ]:
        with pytest.raises(ServiceError, match=words):
            await refused()
    assert [h.id for h in await service.tournaments.listing(GUILD.guild_id)] == [tid]
    held = await service.tournaments.leave(tid, PLAYERS[1])
    assert [e.id for e in held.tournament.entrants] == [PLAYERS[0].id] and held.status == SIGNUP
    with pytest.raises(ServiceError, match="at least 2 players"):
        await service.tournaments.start_tournament(tid, MOD)
    assert (await service.tournaments.get(tid)).status == SIGNUP and service.running() == []
    assert RUNNING  # (the statuses are plain words)


async def test_the_terminal_runs_one_offline(service: MatchService, terminal: Any, out: list[str]) -> None:
    for line in ["tournament new fish swiss --rounds 1", "tournament join alice", "tournament join bob"]:
        await terminal.handle(line)
    await terminal.handle("tournament join alice")
    assert out[-1] == "✗ alice has already signed up."
    await terminal.handle("tournament start")
    assert any('Round 1 of 1 of Tournament #1 ("1, 2, 3", Swiss):' in line for line in out)
    assert any("Board 1: alice vs bob (match #1)" in line for line in out)
    await terminal.handle("fish resign --as bob")
    await terminal.handle("yes")  # the terminal asks first
    assert any("is over: alice wins" in line for line in out)
    await terminal.handle("tournament standings")
    assert "1. alice: 1" in out[-1] and terminal.saved[-1].name == "tournament-1-standings.png"
    await terminal.handle("tournament record")
    path = out[-1].split(": ", 1)[1]
    assert json.loads(Path(path).read_text(encoding="utf-8"))["status"] == "over"
    await terminal.handle("tournament new fish ladder")
    assert out[-1].startswith("✗ The format is knockout, roundrobin or swiss")
