"""Computer players in matches (bot/computer.py): seats, the driver, lobbies, restarts, hidden views.

The search itself is tested in tests/ai/; here a computer must move through the same service path as a
person, never see more than its own view, and stay out of the way of undo, pause and restarts.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from bot.ai import LEVELS
from bot.clock import ClockSettings
from bot.computer import ComputerPlayers
from bot.games import GAMES
from bot.models import COMPUTER_LEVELS, OVER, Player, computer
from bot.service import MatchService, ServiceError
from tests.conftest import ALICE, BOB, MOD, Recorder, eventually

FISH = GAMES["fish"]
CARL = Player("local:carl", "carl")


class InlineExecutor(Executor):
    """Thinks at once on the event loop's thread: the driver's logic without a worker process."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls.append(args)
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class HeldExecutor(Executor):
    """Holds every thought until the test releases it, so things can happen meanwhile."""

    def __init__(self) -> None:
        self.held: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.held.append((future, fn, args))
        return future

    def release(self) -> None:
        held, self.held = self.held, []
        for future, fn, args in held:
            future.set_result(fn(*args))


def test_computer_seats_say_their_level() -> None:
    assert computer().id == "computer:normal" and computer().name == "Computer"
    second = computer("hard", 2)
    assert second.id == "computer:hard:2" and second.level == "hard" and second.is_computer
    assert not ALICE.is_computer and ALICE.level is None
    assert computer("easy").mention == "Easy computer"  # no Discord mention for a computer
    with pytest.raises(ValueError, match="no computer level 'genius'"):
        computer("genius")
    assert tuple(LEVELS) == COMPUTER_LEVELS


async def play_until_over(service: MatchService, computers: ComputerPlayers, match_id: int, human: Player) -> None:
    rng = random.Random(match_id)
    for _ in range(200):
        await computers.idle()
        match = await service.get(match_id)
        if not match.running:
            return
        game = service.game(match)
        assert match.players[game.to_move(match.state)] == human, "the computer did not answer"
        await service.move(match.id, human.id, rng.choice(game.legal_moves(match.state)), ply=match.ply)
    raise AssertionError("the game did not end")


async def test_a_whole_game_against_the_computer_in_a_worker_process(service: MatchService) -> None:
    Recorder(service)
    computers = ComputerPlayers(service)  # the real process pool
    try:
        match = await service.create_match("fish", [ALICE, computer("easy")], seed=5)
        await play_until_over(service, computers, match.id, ALICE)
    finally:
        await computers.close()
    match = await service.get(match.id)
    assert match.status == OVER and match.result is not None
    log = await service.moves(match.id)
    mine = [record for record in log if record.seat == 1]
    assert len(mine) >= 4, "the computer placed its tokens and moved"
    state = FISH.new(2, match.seed)
    for record in log:  # every computer move is in the log like any other, and replays
        assert record.move in FISH.legal_moves(state)
        state = FISH.play(state, record.move)
    assert FISH.dumps(state) == FISH.dumps(match.state)


async def test_the_computer_moves_first_when_it_is_to_move_and_answers_every_move(service: MatchService) -> None:
    recorder = Recorder(service)
    executor = InlineExecutor()
    computers = ComputerPlayers(service, executor=executor)
    match = await service.create_match("fish", [computer("easy"), ALICE], seed=3, options={"first": 0})
    await computers.idle()
    match = await service.get(match.id)
    assert match.ply == 1 and FISH.to_move(match.state) == 1
    assert recorder.kinds() == ["started", "moved"]
    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
    await computers.idle()
    assert (await service.get(match.id)).ply == 3


async def test_the_computer_is_given_its_own_view_only(service: MatchService) -> None:
    Recorder(service)
    executor = InlineExecutor()
    computers = ComputerPlayers(service, executor=executor)
    horizon = GAMES["horizon"]
    match = await service.create_match("horizon", [computer("easy"), ALICE], seed=11, options={"first": 0})
    await computers.idle()
    (args,) = executor.calls
    game_key, view, seat, level, _seed = args
    assert (game_key, seat, level.name) == ("horizon", 0, "easy")
    started = horizon.new(2, 11, first=0)
    assert view == horizon.view(started, 0) and view != started
    assert "??" in repr(view.hands[1]) and view.seed is None
    assert (await service.get(match.id)).ply == 1


async def test_a_computer_thinking_through_an_undo_or_a_pause_moves_on_the_new_board(service: MatchService) -> None:
    Recorder(service)
    executor = HeldExecutor()
    computers = ComputerPlayers(service, executor=executor)
    match = await service.create_match(
        "fish", [ALICE, computer("easy")], seed=8, options={"first": 0}, clock=ClockSettings(60, 60)
    )
    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
    await eventually(lambda: len(executor.held) == 1)
    await service.moderation.undo(match.id, MOD)  # the computer was thinking about a board that is gone
    executor.release()
    await computers.idle()
    match = await service.get(match.id)
    assert match.ply == 2 and FISH.to_move(match.state) == 0, "the stale answer was dropped"

    await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
    await eventually(lambda: len(executor.held) == 1)
    await service.moderation.pause(match.id, MOD)
    executor.release()
    await computers.idle()
    match = await service.get(match.id)
    assert match.ply == 3 and match.paused, "no move while paused"
    await service.moderation.resume(match.id, MOD)
    await eventually(lambda: len(executor.held) == 1)
    executor.release()
    await computers.idle()
    match = await service.get(match.id)
    assert match.ply == 4 and FISH.to_move(match.state) == 0


async def test_other_matches_are_answered_while_a_computer_thinks(service: MatchService) -> None:
    Recorder(service)
    executor = HeldExecutor()
    computers = ComputerPlayers(service, executor=executor)
    against = await service.create_match("fish", [ALICE, computer("hard")], seed=1, options={"first": 1})
    people = await service.create_match("fish", [BOB, CARL], seed=2, options={"first": 0})
    await eventually(lambda: len(executor.held) == 1)  # the computer is thinking...
    notice = await service.move(people.id, BOB.id, FISH.legal_moves(people.state)[0])
    assert notice.match.ply == 1  # ...and a move elsewhere is played meanwhile
    executor.release()
    await computers.idle()
    assert (await service.get(against.id)).ply == 1


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_restarted_bot_lets_the_computer_finish_its_turn(open_service: Any) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    executor = HeldExecutor()
    computers = ComputerPlayers(first, executor=executor)
    match = await first.create_match("fish", [ALICE, computer("easy")], seed=4, options={"first": 1})
    await eventually(lambda: bool(executor.held))  # the bot goes down while the computer thinks
    await computers.close()
    await first.close()

    second = await open_service()
    resumed = await second.start()
    Recorder(second)
    again = ComputerPlayers(second, executor=InlineExecutor())
    for running in resumed:
        again.poke(running)
    await again.idle()
    assert (await second.get(match.id)).ply == 1


async def test_only_the_creator_adds_computers_to_a_lobby_and_they_are_numbered(service: MatchService) -> None:
    lobby = await service.lobbies.open_lobby("volcano", ALICE)
    with pytest.raises(ServiceError, match="Only alice"):
        await service.lobbies.add_computer(lobby.id, BOB, "easy")
    await service.lobbies.add_computer(lobby.id, ALICE, "easy")
    await service.lobbies.join_lobby(lobby.id, BOB)
    lobby = await service.lobbies.add_computer(lobby.id, ALICE, "hard")
    assert [p.name for p in lobby.players] == ["alice", "Easy computer", "bob", "Hard computer 2"]
    assert (await service.lobbies.get_lobby(lobby.id)).players == lobby.players  # stored
    for _ in range(2):
        lobby = await service.lobbies.add_computer(lobby.id, ALICE)
    with pytest.raises(ServiceError, match="is full"):
        await service.lobbies.add_computer(lobby.id, ALICE)


async def test_when_the_last_person_resigns_the_computers_do_not_play_on_alone(service: MatchService) -> None:
    Recorder(service)
    computers = ComputerPlayers(service, executor=InlineExecutor())
    lobby = await service.lobbies.open_lobby("volcano", ALICE)
    await service.lobbies.add_computer(lobby.id, ALICE, "easy")
    await service.lobbies.add_computer(lobby.id, ALICE, "easy")
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    await computers.idle()
    notice = await service.playing.resign(match.id, ALICE.id)
    await computers.idle()
    match = await service.get(match.id)
    assert match.status == OVER and match.result is not None
    assert match.result.reason == "only computer players were left"
    assert 0 not in match.result.winners and match.result.winners <= {1, 2}
    assert notice.kind == "over" and notice.lines[-1] == "only computer players were left."
    assert any("resigns" in line for line in notice.lines)


async def test_a_computer_on_a_clock_thinks_at_most_half_its_time_left(service: MatchService, fake_time) -> None:
    Recorder(service)
    executor = HeldExecutor()
    computers = ComputerPlayers(service, executor=executor, hard_seconds=5)
    match = await service.create_match(
        "fish", [ALICE, computer("hard")], seed=8, options={"first": 1}, clock=ClockSettings(4, 2)
    )
    assert computers.within_clock(computers.levels["hard"], match).seconds == pytest.approx(3.0)
    fake_time.advance(5.5)
    assert computers.within_clock(computers.levels["hard"], match).seconds == pytest.approx(0.25)
    assert computers.within_clock(computers.levels["easy"], match).seconds == pytest.approx(0.25)
    unclocked = await service.create_match("fish", [ALICE, computer("hard")], seed=8)
    assert computers.within_clock(computers.levels["hard"], unclocked).seconds == 5


def test_the_computer_settings_are_read_and_bad_ones_refused() -> None:
    from bot.config import Config

    config = Config.load({"COMPUTER_HARD_SECONDS": "2.5", "COMPUTER_WORKERS": "2"}, dotenv=None)
    assert (config.hard_seconds, config.computer_workers) == (2.5, 2)
    assert (Config.load({}, dotenv=None).hard_seconds, Config.load({}, dotenv=None).computer_workers) == (5.0, 1)
    for key, value, words in [
        ("COMPUTER_HARD_SECONDS", "soon", "number of seconds from 0.1 to 60"),
        ("COMPUTER_HARD_SECONDS", "600", "number of seconds from 0.1 to 60"),
        ("COMPUTER_WORKERS", "0", "whole number from 1 to 16"),
        ("COMPUTER_WORKERS", "two", "whole number from 1 to 16"),
    ]:
        with pytest.raises(SystemExit, match=words):
            Config.load({key: value}, dotenv=None)


async def test_a_killed_worker_process_is_replaced_and_the_computer_still_answers(service: MatchService) -> None:
    import os
    import signal
    from concurrent.futures import ProcessPoolExecutor

    Recorder(service)
    computers = ComputerPlayers(service)
    try:
        match = await service.create_match("fish", [computer("easy"), ALICE], seed=6, options={"first": 0})
        await computers.idle()
        pool = computers.executor
        assert isinstance(pool, ProcessPoolExecutor) and (await service.get(match.id)).ply == 1
        for pid in list(pool._processes):  # the worker dies (out of memory, killed by an operator...)
            os.kill(pid, signal.SIGKILL)
        await eventually(lambda: pool._broken is not False)
        match = await service.get(match.id)
        await service.move(match.id, ALICE.id, FISH.legal_moves(match.state)[0])
        await computers.idle()
        assert (await service.get(match.id)).ply == 3, "a fresh worker answered"
        assert computers.executor is not pool
    finally:
        await computers.close()


async def test_a_refused_computer_move_in_event_horizon_names_no_card_in_the_log(
    service: MatchService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    Recorder(service)
    computers = ComputerPlayers(service, executor=InlineExecutor())
    real_move = service.move

    async def refuse_computer(match_id: int, player_id: str, text: str, **kwargs: Any) -> Any:
        if player_id.startswith("computer"):
            raise ServiceError(f"{text} is not allowed now")  # a refusal quotes the move, card and all
        return await real_move(match_id, player_id, text, **kwargs)

    monkeypatch.setattr(service, "move", refuse_computer)
    with caplog.at_level("DEBUG", logger="bot"):  # the bot's own log, at every level
        await service.create_match("horizon", [computer("easy"), ALICE], seed=11, options={"first": 0})
        await computers.idle()
    assert any("refused" in r.getMessage() for r in caplog.records)
    assert re.search(r"\b(T[1-8]|F[1-4]|B[1-4]|MI)\b", caplog.text) is None, caplog.text  # tracebacks too


# --- undo against the computer: the person's last move and the computer's replies go together ---


async def test_undo_against_the_computer_takes_back_the_persons_move_and_the_reply(
    service: MatchService, fake_time: Any
) -> None:
    Recorder(service)
    computers = ComputerPlayers(service, executor=InlineExecutor())
    match = await service.create_match(
        "fish", [ALICE, computer("easy")], seed=8, options={"first": 0}, clock=ClockSettings(30, 60)
    )
    started = match.state
    fake_time.advance(50)  # alice spends 20 s of her reserve
    mine = FISH.legal_moves(match.state)[0]
    await service.move(match.id, ALICE.id, mine)
    await computers.idle()
    reply = (await service.moves(match.id))[-1].move
    assert (await service.get(match.id)).ply == 2

    notice = await service.moderation.undo(match.id, MOD)
    assert notice.lines == (f"mod took back alice's move {mine} and Easy computer's move {reply}.",)
    await computers.idle()
    match = await service.get(match.id)
    assert match.state == started and FISH.to_move(match.state) == 0, "alice is to move again"
    assert match.ply == 4 and await service.moves(match.id) == []
    assert [(r.kind, r.move) for r in await service.store.log(match.id)][2:] == [("undo", reply), ("undo", mine)]
    assert match.clock is not None and match.clock.reserves[0] == 60.0 and match.clock.seat == 0


async def test_undo_when_only_the_computer_moved_is_refused_and_changes_nothing(service: MatchService) -> None:
    Recorder(service)
    computers = ComputerPlayers(service, executor=InlineExecutor())
    match = await service.create_match("fish", [ALICE, computer("easy")], seed=8, options={"first": 1})
    await computers.idle()
    before = await service.get(match.id)
    assert before.ply == 1
    with pytest.raises(ServiceError, match="no move by a person to take back"):
        await service.moderation.undo(match.id, MOD)
    after = await service.get(match.id)
    assert (after.ply, after.state) == (before.ply, before.state)
    assert len(await service.store.log(match.id)) == 1


async def test_undo_in_volcano_takes_back_every_computer_turn_since_the_person_moved(service: MatchService) -> None:
    """Two computers reply in turn: both their turns go back with the person's last step."""
    volcano = GAMES["volcano"]
    Recorder(service)
    computers = ComputerPlayers(service, executor=InlineExecutor())
    seats = [ALICE, computer("easy", 1), computer("easy", 2)]
    match = await service.create_match("volcano", seats, seed=3)
    rng = random.Random(3)
    while volcano.to_move(match.state) == 0:
        before_last = match.state
        last = rng.choice(volcano.legal_moves(match.state))
        await service.move(match.id, ALICE.id, last)
        match = await service.get(match.id)
    await computers.idle()
    replies = [(r.seat, r.move) for r in await service.moves(match.id)][-2:]
    assert [seat for seat, _ in replies] == [1, 2], "each computer played a turn of one step"

    notice = await service.moderation.undo(match.id, MOD)
    (_, first), (_, second) = replies
    said = f"alice's move {last}, Easy computer's move {first} and Easy computer 2's move {second}"
    assert notice.lines == (f"mod took back {said}.",)
    match = await service.get(match.id)
    assert match.state == before_last and volcano.to_move(match.state) == 0
