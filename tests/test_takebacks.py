"""Takebacks by agreement (bot/service/takebacks.py) on a real SQLite file with a fake clock: asked, accepted
(the moves taken back as a moderator's undo does, reserve refunded), declined, expired, lapsed after a move,
refused in a death match and to those who may not answer, and carried over a restart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot import posts
from bot.clock import ClockSettings
from bot.games import GAMES
from bot.local import Terminal
from bot.models import DECLINED, EXPIRED, LAPSED, TAKEBACK_OPEN, TAKEN_BACK, Match, MoveRecord, Place, Player, computer
from bot.move_log import RESIGN
from bot.service import TAKEBACK_WINDOW, MatchService, NotInMatch, ServiceError
from tests.conftest import ALICE, BOB, Recorder, eventually
from tests.toygame import TOY

CAROL = Player("local:carol", "carol")
FISH, VOLCANO, HORIZON = GAMES["fish"], GAMES["volcano"], GAMES["horizon"]
CLOCK = ClockSettings(30, 60)


async def two_moves(service: MatchService, fake_time, clock: ClockSettings | None = CLOCK) -> int:
    """alice plays A1 in 20 s (none of her reserve) and bob A2 in 50 s (20 s); returns the match id."""
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=clock)
    await service.board_posted(match.id, 0)
    fake_time.advance(20)
    await service.move(match.id, ALICE.id, "A1")
    await service.board_posted(match.id, 1)
    fake_time.advance(50)
    await service.move(match.id, BOB.id, "A2")
    await service.board_posted(match.id, 2)
    return match.id


# --- accepted ---


async def test_an_accepted_takeback_undoes_the_move_and_all_after_it_and_refunds_the_reserve(
    service: MatchService, fake_time
) -> None:
    recorder = Recorder(service)
    match_id = await two_moves(service, fake_time)
    start = FISH.new(2, 5)
    asked = await service.takebacks.request(match_id, ALICE.id)
    assert asked.kind == "takeback" and asked.by == ALICE and asked.takeback is not None
    assert asked.lines == (
        "alice asks to take back their move A1 and bob's move A2. bob: accept or decline within 30 seconds;"
        " a move meanwhile cancels the request.",
    )
    assert (asked.takeback.ply, asked.takeback.seat, asked.takeback.expires_at) == (2, 0, fake_time.now() + 30)
    assert service.takebacks.open_request(match_id) == asked.takeback
    match = await service.get(match_id)
    assert service.takebacks.waiting(match, asked.takeback) == [BOB]
    fake_time.advance(5)
    done = await service.takebacks.answer(match_id, BOB.id, True, ply=2)
    assert done.kind == "undone" and done.lines == ("bob accepts: alice takes back their move A1 and bob's move A2.",)
    assert done.takeback is not None and done.takeback.status == TAKEN_BACK and done.takeback.accepted == (BOB.id,)
    assert match.state == start and match.ply == 4 and FISH.to_move(match.state) == 0
    assert match.clock is not None and match.clock.reserves == (60.0, 60.0)  # bob's 20 s back, alice had spent none
    assert match.clock.seat == 0 and match.clock.turn_started == fake_time.now()  # alice's turn, from its board
    log = await service.store.log(match_id)
    assert [(r.kind, r.move, r.seat, r.by_id) for r in log[2:]] == [
        ("undo", "A2", 1, ALICE.id),
        ("undo", "A1", 0, ALICE.id),
    ]
    assert posts.history_lines(match, log, FISH)[2:] == [
        "3. (taken back at alice's request: bob's A2)",
        "4. (taken back at alice's request: alice's A1)",
    ]
    actions = await service.store.actions(match_id)
    assert [(a["kind"], a["by_id"], a["detail"]) for a in actions] == [
        ("takeback", ALICE.id, "undid A2"),
        ("takeback", ALICE.id, "undid A1"),
    ]
    assert service.takebacks.open_request(match_id) is None
    (stored,) = await service.store.takebacks(match_id)
    assert stored == done.takeback and stored.status == TAKEN_BACK
    assert recorder.kinds()[-2:] == ["takeback", "undone"]
    with pytest.raises(ServiceError, match="This takeback request was accepted: the moves are taken back"):
        await service.takebacks.answer(match_id, BOB.id, True, ply=2)  # its buttons, still shown somewhere
    await service.move(match_id, ALICE.id, "A3", ply=4)  # play goes on from the position before A1


async def test_the_requesters_last_move_is_taken_back_even_when_it_is_their_turn(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    for player, move in ((ALICE, "A1"), (BOB, "A2"), (ALICE, "A3")):
        await service.move(match.id, player.id, move)
    asked = await service.takebacks.request(match.id, BOB.id)  # bob's A2, and alice's A3 after it
    assert "take back their move A2 and alice's move A3. alice:" in asked.lines[0]
    await service.takebacks.answer(match.id, ALICE.id, True)
    assert [r.move for r in await service.moves(match.id)] == ["A1"] and FISH.to_move(match.state) == 1


async def test_with_three_players_every_other_person_must_accept(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB, CAROL])
    await service.move(match.id, ALICE.id, "1")
    asked = await service.takebacks.request(match.id, ALICE.id)
    assert "bob and carol: accept or decline" in asked.lines[0]
    first = await service.takebacks.answer(match.id, CAROL.id, True)
    assert first.kind == "takeback_accepted" and first.lines == ("carol accepts alice's takeback; waiting for bob.",)
    assert first.takeback is not None and first.takeback.status == TAKEBACK_OPEN
    assert service.takebacks.waiting(match, first.takeback) == [BOB] and match.ply == 1
    with pytest.raises(ServiceError, match="You have accepted this takeback already; it waits for bob"):
        await service.takebacks.answer(match.id, CAROL.id, True)
    done = await service.takebacks.answer(match.id, BOB.id, True)
    assert done.kind == "undone" and done.lines == ("bob accepts too: alice takes back their move 1.",)
    assert match.state.total == 0 and match.ply == 2
    assert [t.accepted for t in await service.store.takebacks(match.id)] == [(CAROL.id, BOB.id)]


async def test_against_only_computers_a_takeback_is_done_at_once(service: MatchService) -> None:
    recorder = Recorder(service)
    bot = computer("easy")
    match = await service.create_match("fish", [ALICE, bot], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.move(match.id, bot.id, "A2")
    notice = await service.takebacks.request(match.id, ALICE.id)
    assert notice.kind == "undone" and notice.takeback is None
    assert notice.lines == (
        "alice took back their move A1 and Easy computer's move A2 (a computer player has no say in a takeback).",
    )
    assert await service.moves(match.id) == [] and match.ply == 4 and "takeback" not in recorder.kinds()
    assert await service.store.takebacks(match.id) == []  # nobody was asked
    assert [a["kind"] for a in await service.store.actions(match.id)] == ["takeback", "takeback"]


async def test_the_computers_of_a_game_with_people_are_not_asked(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, computer(), BOB])
    await service.move(match.id, ALICE.id, "1")
    asked = await service.takebacks.request(match.id, ALICE.id)
    assert asked.takeback is not None and service.takebacks.waiting(match, asked.takeback) == [BOB]
    assert " bob: accept" in asked.lines[0]
    assert (await service.takebacks.answer(match.id, BOB.id, True)).kind == "undone"


async def test_a_hidden_card_stays_hidden_in_the_request(service: MatchService) -> None:
    match = await service.create_match("horizon", [ALICE, BOB], seed=5)
    mover = match.players[HORIZON.to_move(match.state)]
    move = next(m for m in HORIZON.legal_moves(match.state) if m.startswith("place"))
    await service.move(match.id, mover.id, move)
    asked = await service.takebacks.request(match.id, mover.id)
    logged = (await service.moves(match.id))[0].move
    assert HORIZON.public_move(logged) in asked.lines[0] and logged not in asked.lines[0]


# --- declined, expired, lapsed ---


async def test_a_decline_ends_the_request_and_the_game_goes_on(service: MatchService, fake_time) -> None:
    match_id = await two_moves(service, fake_time)
    match = await service.get(match_id)
    before = (match.ply, match.state, match.clock)
    await service.takebacks.request(match_id, ALICE.id)
    notice = await service.takebacks.answer(match_id, BOB.id, False, ply=2)
    assert notice.kind == "takeback_closed" and notice.by == BOB
    assert notice.lines == ("bob declines alice's takeback: the game goes on as it stands.",)
    assert notice.takeback is not None and notice.takeback.status == DECLINED
    assert (match.ply, match.state, match.clock) == before and service.takebacks.open_request(match_id) is None
    assert [t.status for t in await service.store.takebacks(match_id)] == [DECLINED]
    with pytest.raises(ServiceError, match="declined on this position: ask again after the next move"):
        await service.takebacks.request(match_id, ALICE.id)
    with pytest.raises(ServiceError, match="No takeback request is waiting"):
        await service.takebacks.answer(match_id, BOB.id, True)
    with pytest.raises(ServiceError, match="This takeback request was declined"):
        await service.takebacks.answer(match_id, BOB.id, True, ply=2)
    assert (await service.takebacks.request(match_id, BOB.id)).kind == "takeback"  # bob may ask on it


async def test_a_request_expires_after_ten_minutes_without_a_clock(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match_id = await two_moves(service, fake_time, clock=None)
    asked = await service.takebacks.request(match_id, BOB.id)
    assert "within 10 minutes" in asked.lines[0] and asked.takeback is not None
    assert asked.takeback.expires_at == fake_time.now() + TAKEBACK_WINDOW
    fake_time.advance(TAKEBACK_WINDOW - 1)
    assert service.takebacks.open_request(match_id) is not None and "takeback_closed" not in recorder.kinds()
    fake_time.advance(1)
    await eventually(lambda: "takeback_closed" in recorder.kinds())
    closed = recorder.notices[-1]
    assert closed.lines == ("bob's takeback request expired: alice did not accept within 10 minutes.",)
    assert (
        closed.takeback is not None
        and closed.takeback.status == EXPIRED
        and service.takebacks.open_request(match_id) is None
    )
    assert [t.status for t in await service.store.takebacks(match_id)] == [EXPIRED]
    with pytest.raises(ServiceError, match="No takeback request is waiting"):
        await service.takebacks.answer(match_id, ALICE.id, True)
    with pytest.raises(ServiceError, match="This takeback request has expired"):
        await service.takebacks.answer(match_id, ALICE.id, True, ply=2)
    assert (await service.takebacks.request(match_id, BOB.id)).kind == "takeback"  # asking again is allowed


async def test_with_a_clock_a_request_waits_one_move_allowance(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match_id = await two_moves(service, fake_time)
    await service.takebacks.request(match_id, ALICE.id)
    fake_time.advance(29.5)
    assert service.takebacks.open_request(match_id) is not None
    fake_time.advance(0.5)
    await eventually(lambda: "takeback_closed" in recorder.kinds())
    assert recorder.notices[-1].lines == ("alice's takeback request expired: bob did not accept within 30 seconds.",)


async def test_an_answer_at_the_deadline_is_refused_even_before_the_timer_runs(
    service: MatchService, fake_time
) -> None:
    match_id = await two_moves(service, fake_time, clock=None)
    await service.flags.scheduler.stop()  # the request's deadline is not heard: the answer itself must notice
    await service.takebacks.request(match_id, ALICE.id)
    fake_time.advance(TAKEBACK_WINDOW)
    with pytest.raises(ServiceError, match="This takeback request has expired"):
        await service.takebacks.answer(match_id, BOB.id, True)
    assert (await service.get(match_id)).ply == 2
    again = await service.takebacks.request(match_id, ALICE.id)  # closes the old one first
    assert again.kind == "takeback"
    assert [t.status for t in await service.store.takebacks(match_id)] == [EXPIRED, TAKEBACK_OPEN]


async def test_a_move_meanwhile_makes_the_request_lapse_before_the_board_is_posted(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    asked = await service.takebacks.request(match.id, ALICE.id)
    await service.move(match.id, BOB.id, "A2")
    assert recorder.kinds()[-3:] == ["takeback", "takeback_closed", "moved"]  # the lapse is posted first
    lapsed = recorder.notices[-2]
    assert lapsed.lines == ("alice's takeback request lapsed: the position changed before everyone accepted.",)
    assert lapsed.takeback is not None and lapsed.takeback.id == asked.takeback.id  # type: ignore[union-attr]
    assert lapsed.takeback.status == LAPSED and service.takebacks.open_request(match.id) is None
    with pytest.raises(ServiceError, match="This takeback request has lapsed: the position changed"):
        await service.takebacks.answer(match.id, BOB.id, True, ply=1)
    with pytest.raises(ServiceError, match="No takeback request is waiting"):
        await service.takebacks.answer(match.id, BOB.id, True)
    assert [r.move for r in await service.moves(match.id)] == ["A1", "A2"]


async def test_a_request_lapses_when_the_game_ends(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.takebacks.request(match.id, ALICE.id)
    await service.playing.resign(match.id, BOB.id)
    assert recorder.kinds()[-2:] == ["takeback_closed", "over"]
    assert recorder.notices[-2].lines == ("alice's takeback request lapsed: the game is over.",)
    assert [t.status for t in await service.store.takebacks(match.id)] == [LAPSED]


async def test_a_button_of_an_older_request_is_refused(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.takebacks.request(match.id, ALICE.id)
    with pytest.raises(ServiceError, match="No takeback request is waiting"):
        await service.takebacks.answer(match.id, BOB.id, True, ply=0)
    assert service.takebacks.open_request(match.id) is not None


async def test_a_stale_request_is_lapsed_by_its_deadline_when_no_notice_said_so(
    service: MatchService, fake_time
) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.takebacks.request(match.id, ALICE.id)
    cached = service.running_match(match.id)
    assert cached is not None
    cached.ply += 1  # as if a line had been logged without a notice (a crash between the two)
    with pytest.raises(ServiceError, match="has lapsed: the position changed"):
        await service.takebacks.answer(match.id, BOB.id, True)
    fake_time.advance(TAKEBACK_WINDOW)
    await eventually(lambda: "takeback_closed" in recorder.kinds())
    assert "lapsed" in recorder.notices[-1].lines[0]


# --- refusals ---


async def test_takebacks_are_refused_in_a_death_match(service: MatchService) -> None:
    series = await service.create_series("fish", [ALICE, BOB], first=0, clock=None)
    match_id = series.games[0]
    await service.move(match_id, ALICE.id, FISH.legal_moves((await service.get(match_id)).state)[0])
    with pytest.raises(ServiceError, match="a game of a death match: takebacks are for casual games only"):
        await service.takebacks.request(match_id, ALICE.id)
    assert await service.store.takebacks(match_id) == []


async def test_who_may_ask_and_what_there_must_be_to_take_back(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    with pytest.raises(NotInMatch, match="not playing in match #1"):
        await service.takebacks.request(match.id, CAROL.id)
    with pytest.raises(ServiceError, match="You have no move standing in match #1 to take back"):
        await service.takebacks.request(match.id, ALICE.id)
    await service.move(match.id, ALICE.id, "A1")
    with pytest.raises(ServiceError, match="You have no move standing"):
        await service.takebacks.request(match.id, BOB.id)
    asked = await service.takebacks.request(match.id, ALICE.id)
    with pytest.raises(
        ServiceError,
        match=r"alice's takeback request in match #1 is waiting for its answers already \(for 10 minutes more\)",
    ):
        await service.takebacks.request(match.id, BOB.id)
    with pytest.raises(ServiceError, match="You asked for this takeback: the others answer it"):
        await service.takebacks.answer(match.id, ALICE.id, True)
    with pytest.raises(NotInMatch):
        await service.takebacks.answer(match.id, CAROL.id, True)
    assert service.takebacks.open_request(match.id) == asked.takeback and match.ply == 1
    await service.playing.resign(match.id, BOB.id)
    with pytest.raises(ServiceError, match="is over"):
        await service.takebacks.request(match.id, ALICE.id)


async def test_someone_who_left_neither_asks_nor_answers_nor_is_brought_back(service: MatchService) -> None:
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3)
    await service.move(match.id, ALICE.id, VOLCANO.legal_moves(match.state)[0])
    await service.playing.resign(match.id, CAROL.id)  # a resign line after alice's move
    with pytest.raises(ServiceError, match="You have left match #1"):
        await service.takebacks.request(match.id, CAROL.id)
    with pytest.raises(ServiceError, match="carol has left the game since your move: only a moderator"):
        await service.takebacks.request(match.id, ALICE.id)
    mover = match.players[VOLCANO.to_move(match.state)]
    await service.move(match.id, mover.id, VOLCANO.legal_moves(match.state)[0])
    asked = await service.takebacks.request(match.id, mover.id)
    assert asked.takeback is not None
    others = [p for p in (ALICE, BOB) if p != mover]
    assert service.takebacks.waiting(match, asked.takeback) == others  # carol is not asked
    with pytest.raises(ServiceError, match="You have left match #1: the others answer"):
        await service.takebacks.answer(match.id, CAROL.id, True)


# --- restarts and posts ---


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_request_and_its_acceptances_survive_a_restart(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    match = await first.create_match("toy", [ALICE, BOB, CAROL])
    await first.move(match.id, ALICE.id, "2")
    asked = await first.takebacks.request(match.id, ALICE.id)
    await first.takebacks.answer(match.id, BOB.id, True)
    assert [t.accepted for t in await first.store.takebacks(match.id)] == [(BOB.id,)]  # stored with the answer
    assert await first.takebacks.posted(match.id, asked.takeback.id, (7, 8)) is True  # type: ignore[union-attr]
    await first.close()

    second = await open_service()
    await second.start()
    recorder = Recorder(second, post=False)  # so the store is read as the takeback left it
    reopened = second.takebacks.open_request(match.id)
    assert reopened is not None and reopened.accepted == (BOB.id,) and reopened.message == (7, 8)
    with pytest.raises(ServiceError, match="accepted this takeback already"):
        await second.takebacks.answer(match.id, BOB.id, True)
    done = await second.takebacks.answer(match.id, CAROL.id, True, ply=1)
    assert done.kind == "undone" and (await second.get(match.id)).state.total == 0
    assert done.takeback is not None and done.takeback.message == (7, 8)  # the post to take the buttons off
    stored = await second.store.load_match(match.id)  # written to the store, not only to the cache
    assert stored is not None and (stored.ply, stored.state) == (2, done.match.state)
    assert recorder.kinds() == ["undone"]


@pytest.mark.backends  # a restart on SQLite and on PostgreSQL
async def test_a_deadline_is_armed_again_after_a_restart(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    match = await first.create_match("fish", [ALICE, BOB], seed=5)
    await first.move(match.id, ALICE.id, "A1")
    await first.takebacks.request(match.id, ALICE.id)
    await first.close()
    second = await open_service()
    await second.start()
    recorder = Recorder(second)
    fake_time.advance(TAKEBACK_WINDOW)
    await eventually(lambda: recorder.kinds() == ["takeback_closed"])
    assert [t.status for t in await second.store.takebacks(match.id)] == [EXPIRED]


async def test_a_deadline_that_passed_while_the_bot_was_down_closes_at_the_start(
    open_service: Callable[[], Awaitable[MatchService]], fake_time
) -> None:
    first = await open_service()
    await first.start()
    match = await first.create_match("fish", [ALICE, BOB], seed=5)
    await first.move(match.id, ALICE.id, "A1")
    await first.takebacks.request(match.id, ALICE.id)
    await first.close()
    fake_time.advance(TAKEBACK_WINDOW + 3600)
    second = await open_service()
    recorder = Recorder(second)
    await second.start()
    await eventually(lambda: recorder.kinds() == ["takeback_closed"])
    assert second.takebacks.open_request(match.id) is None


async def test_where_a_request_is_posted_is_kept_until_it_closes(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, place=Place(1, 2))
    await service.move(match.id, ALICE.id, "A1")
    asked = await service.takebacks.request(match.id, ALICE.id)
    assert asked.takeback is not None and asked.takeback.message is None
    assert await service.takebacks.posted(match.id, asked.takeback.id, (2, 30))
    assert await service.takebacks.posted(match.id, asked.takeback.id + 1, (2, 31)) is False  # not this request
    closed = await service.takebacks.answer(match.id, BOB.id, False)
    assert closed.takeback is not None and closed.takeback.message == (2, 30)
    assert [t.message for t in await service.store.takebacks(match.id)] == [(2, 30)]
    assert await service.takebacks.posted(match.id, asked.takeback.id, (2, 30)) is False  # closed meanwhile


async def test_the_buttons_of_each_request_answer_that_request_only(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.move(match.id, BOB.id, "A2")
    await service.takebacks.request(match.id, ALICE.id)
    await service.takebacks.answer(match.id, BOB.id, False, ply=2, seat=0)
    bobs = await service.takebacks.request(match.id, BOB.id)  # on the same position, by the other player
    with pytest.raises(ServiceError, match="This takeback request was declined"):  # alice's, still shown
        await service.takebacks.answer(match.id, BOB.id, True, ply=2, seat=0)
    with pytest.raises(ServiceError, match="No takeback request is waiting"):  # nobody asked on ply 1
        await service.takebacks.answer(match.id, ALICE.id, True, ply=1, seat=1)
    assert service.takebacks.open_request(match.id) == bobs.takeback and match.ply == 2
    done = await service.takebacks.answer(match.id, ALICE.id, True, ply=2, seat=1)
    assert done.kind == "undone" and [r.move for r in await service.moves(match.id)] == ["A1"]


async def test_an_acceptance_names_everyone_still_to_answer(service: MatchService) -> None:
    dan = Player("local:dan", "dan")
    match = await service.create_match("volcano", [ALICE, BOB, CAROL, dan], seed=3)
    await service.move(match.id, ALICE.id, VOLCANO.legal_moves(match.state)[0])
    asked = await service.takebacks.request(match.id, ALICE.id)
    assert "bob, carol and dan: accept or decline" in asked.lines[0]
    first = await service.takebacks.answer(match.id, BOB.id, True)
    assert first.lines == ("bob accepts alice's takeback; waiting for carol and dan.",)
    with pytest.raises(ServiceError, match="it waits for carol and dan"):
        await service.takebacks.answer(match.id, BOB.id, True)


async def test_a_deadline_heard_for_a_request_that_closed_does_nothing(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    first = await service.takebacks.request(match.id, ALICE.id)
    assert first.takeback is not None
    await service.takebacks.expire_if_due(match.id, first.takeback.id)  # early: nothing yet
    assert service.takebacks.open_request(match.id) == first.takeback and recorder.kinds()[-1] == "takeback"
    await service.takebacks.answer(match.id, BOB.id, False)
    await service.takebacks.expire_if_due(match.id, first.takeback.id)  # closed: nothing to expire
    await service.move(match.id, BOB.id, "A2")
    second = await service.takebacks.request(match.id, BOB.id)
    assert second.takeback is not None
    fake_time.advance(TAKEBACK_WINDOW)
    await service.takebacks.expire_if_due(match.id, first.takeback.id)  # not this one's deadline
    assert service.takebacks.open_request(match.id) == second.takeback
    await service.takebacks.expire_if_due(match.id, second.takeback.id)
    assert service.takebacks.open_request(match.id) is None and recorder.notices[-1].kind == "takeback_closed"
    assert recorder.kinds().count("takeback_closed") == 2  # the decline, then the expiry


async def test_old_buttons_are_told_how_the_newest_request_they_name_ended(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.takebacks.request(match.id, ALICE.id)
    fake_time.advance(TAKEBACK_WINDOW)
    await eventually(lambda: "takeback_closed" in recorder.kinds())
    await service.takebacks.request(match.id, ALICE.id)  # the same position and requester: allowed after expiry
    await service.takebacks.answer(match.id, BOB.id, False)
    with pytest.raises(ServiceError, match="This takeback request was declined"):
        await service.takebacks.answer(match.id, BOB.id, True, ply=1, seat=0)


async def test_a_moderators_undo_is_logged_as_an_undo_and_a_takeback_as_a_takeback(service: MatchService) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    await service.moderation.undo(match.id, Player("local:mod", "mod"))
    assert recorder.kinds()[-1] == "undone"  # announced
    await service.move(match.id, ALICE.id, "A1")
    await service.takebacks.request(match.id, ALICE.id)
    await service.takebacks.answer(match.id, BOB.id, True)
    assert [(a["kind"], a["by_id"]) for a in await service.store.actions(match.id)] == [
        ("undo", "local:mod"),
        ("takeback", ALICE.id),
    ]
    assert posts.history_lines(match, await service.store.log(match.id), FISH)[1::2] == [
        "2. (a moderator took back alice's A1)",
        "4. (taken back at alice's request: alice's A1)",
    ]


def test_the_lines_taken_back_in_words_by_runs_of_each_player() -> None:
    match = Match(1, "toy", (ALICE, BOB, CAROL), 0, {}, TOY.new(3, 0))
    taken = [
        MoveRecord(1, 0, "1", 0.0, None),
        MoveRecord(2, 0, "2", 0.0, None),
        MoveRecord(3, 1, "1", 0.0, None),
        MoveRecord(4, 1, RESIGN, 0.0, None, RESIGN, BOB.id),
        MoveRecord(5, 2, "2", 0.0, None),
    ]
    assert posts.taken_words(match, taken, TOY, own=0) == (
        "their moves 1, 2, bob's move 1 and resignation and carol's move 2"
    )
    assert posts.taken_words(match, taken[2:4], TOY).startswith("bob's move 1 and resignation")
    assert posts.taken_back(BOB, match, taken[:1], TOY) == "bob took back alice's move 1."


# --- the terminal ---


async def said(terminal: Terminal, out: list[str], line: str) -> str:
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def test_the_terminal_asks_answers_and_names_who_does(terminal: Terminal, out: list[str]) -> None:
    await said(terminal, out, "fish new alice bob --seed 5")
    assert "Say who asks with --as NAME" in await said(terminal, out, "fish takeback")
    await said(terminal, out, "fish move A1")
    assert "No takeback request is waiting" in await said(terminal, out, "fish accept")
    asked = await said(terminal, out, "fish takeback")  # alice moved last: she asks
    assert "alice asks to take back their move A1. bob: accept" in asked
    assert "(answer with fish accept --as NAME or fish decline --as NAME)" in asked
    assert "alice, you asked for this takeback" in (await said(terminal, out, "fish accept --as alice")).lower()
    assert "'carol' is not playing in match #1" in await said(terminal, out, "fish decline --as carol")
    declined = await said(terminal, out, "fish decline")  # bob is the one asked
    assert "bob declines alice's takeback" in declined
    assert "takes no words" in await said(terminal, out, "fish takeback now")
    await said(terminal, out, "fish move A2")
    asked = await said(terminal, out, "fish takeback --as alice")
    assert "alice asks to take back their move A1 and bob's move A2" in asked
    done = await said(terminal, out, "fish accept --as bob")
    assert "bob accepts: alice takes back their move A1 and bob's move A2." in done and "board:" in done
    history = await said(terminal, out, "fish history")
    assert "3. (taken back at alice's request: bob's A2)" in history


async def test_the_terminal_refuses_a_computer_as_the_asker(terminal: Terminal, out: list[str]) -> None:
    await said(terminal, out, "fish new alice computer --seed 5")
    assert "Computer plays for itself" in await said(terminal, out, "fish takeback --as computer")
    await said(terminal, out, "fish move A1")
    text = await said(terminal, out, "fish takeback")
    assert "alice took back their move A1" in text and "no say in a takeback" in text
