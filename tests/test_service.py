"""The match service on a real SQLite file with a fake clock: turns, refusals, races, clocks, series,
moderator actions and restarts."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import posts
from bot.clock import LAG_GRACE, ClockSettings
from bot.games import GAMES, IllegalMove, Termination
from bot.models import ABORTED, OVER, RUNNING, Match, Notice, NoticeKind, Place, Player
from bot.service import (
    MatchNotRunning,
    MatchPaused,
    MatchService,
    NoSuchMatch,
    NotInMatch,
    NotYourTurn,
    ServiceError,
    StaleBoard,
    TimeUp,
)
from bot.store import Store
from tests.conftest import ALICE, BOB, MOD, Recorder, eventually

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

FISH = GAMES["fish"]
CLOCK = ClockSettings(30, 60)


async def test_moves_are_accepted_only_from_the_seat_to_move(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    first = FISH.legal_moves(match.state)[0]
    with pytest.raises(NotYourTurn, match="alice's turn"):
        await service.move(match.id, BOB.id, first)
    with pytest.raises(NotInMatch):
        await service.move(match.id, "local:carol", first)
    notice = await service.move(match.id, ALICE.id, first.lower(), ply=0)
    assert notice.kind == "moved" and notice.match.ply == 1
    assert notice.lines == (f"alice places a token on {first}.",)
    assert [m.move for m in await service.moves(match.id)] == [first]  # canonical, not as typed


async def test_a_refused_move_changes_nothing(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    before = FISH.dumps(match.state)
    with pytest.raises(IllegalMove, match="tokens are placed on 1-tiles"):
        await service.move(match.id, ALICE.id, "A4")  # A4 is worth 3 on seed 5's board
    with pytest.raises(IllegalMove):
        await service.move(match.id, ALICE.id, "nonsense")
    reloaded = await service.store.load_match(match.id)
    assert reloaded is not None and FISH.dumps(reloaded.state) == before and reloaded.ply == 0
    assert await service.moves(match.id) == []


async def test_a_move_against_an_old_board_is_refused(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1", ply=0)
    with pytest.raises(StaleBoard, match="changed since you looked"):
        await service.move(match.id, BOB.id, "A2", ply=0)
    await service.move(match.id, BOB.id, "A2", ply=1)


async def test_two_moves_racing_for_one_ply_exactly_one_wins(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    results = await asyncio.gather(
        service.move(match.id, ALICE.id, "A1", ply=0),
        service.move(match.id, ALICE.id, "A2", ply=0),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert sum(isinstance(r, StaleBoard) for r in results) == 1
    assert len(await service.moves(match.id)) == 1


async def test_a_whole_game_replays_from_seed_and_log(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=11)
    import random

    rng = random.Random(3)
    while True:
        current = await service.get(match.id)
        if not current.running:
            break
        seat = FISH.to_move(current.state)
        await service.move(match.id, current.players[seat].id, rng.choice(FISH.legal_moves(current.state)))
    final = await service.get(match.id)
    assert final.status == OVER and final.result == FISH.outcome(final.state)
    state = FISH.new(2, final.seed, **final.options)
    for record in await service.moves(match.id):
        assert record.seat == FISH.to_move(state)
        state = FISH.play(state, record.move)
    assert state == final.state
    with pytest.raises(MatchNotRunning):
        await service.move(match.id, ALICE.id, "A1")


async def test_unknown_game_seat_count_and_option_are_refused(service: MatchService) -> None:
    with pytest.raises(ValueError, match="no game"):
        await service.create_match("chess", [ALICE, BOB])
    with pytest.raises(ValueError, match="2 players"):
        await service.create_match("fish", [ALICE])
    with pytest.raises(ValueError, match="no option"):
        await service.create_match("fish", [ALICE, BOB], options={"colour": "red"})
    with pytest.raises(NoSuchMatch):
        await service.move(999, ALICE.id, "A1")
    assert service.running() == []


# --- clocks ---


async def test_the_clock_waits_for_the_board_to_be_posted(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(500)  # nobody has seen the board yet
    await service.flags.sweep()
    assert (await service.get(match.id)).running
    await service.board_posted(match.id, 0)
    fake_time.advance(40)  # 10 s into reserve
    await service.move(match.id, ALICE.id, "A1")
    clock = (await service.get(match.id)).clock
    assert clock is not None and clock.reserves == (50.0, 60.0)
    assert [m.took for m in await service.moves(match.id)] == [40.0]


async def test_exhausted_reserve_flags_without_anyone_asking(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(30 + 60)  # exactly at the deadline: still alive (lag grace)
    await service.flags.sweep()
    assert (await service.get(match.id)).running
    fake_time.advance(LAG_GRACE + 0.1)
    await eventually(lambda: "over" in recorder.kinds())  # the scheduler fires on its own
    over = await service.get(match.id)
    assert over.status == OVER and over.result is not None
    assert over.result.winners == frozenset({1}) and "alice's reserve time ran out" in over.result.reason
    with pytest.raises(MatchNotRunning):
        await service.move(match.id, ALICE.id, "A1")


async def test_a_move_sent_before_the_deadline_counts_even_if_it_arrives_late(service, fake_time) -> None:
    Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    sent = fake_time.now() + 90
    fake_time.advance(90.5)
    await service.move(match.id, ALICE.id, "A1", at=sent)
    clock = (await service.get(match.id)).clock
    assert clock is not None and clock.reserves[0] == 0.0 and clock.seat == 1


async def test_a_move_after_the_flag_time_is_refused_and_the_game_lost(service, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    await service.flags.scheduler.stop()  # the move itself must notice the flag
    fake_time.advance(95)
    with pytest.raises(TimeUp):
        await service.move(match.id, ALICE.id, "A1")
    assert (await service.get(match.id)).status == OVER
    assert recorder.kinds()[-1] == "over"


async def test_pause_is_charged_to_nobody(service: MatchService, fake_time) -> None:
    Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(20)
    await service.moderation.pause(match.id, MOD)
    with pytest.raises(MatchPaused):
        await service.move(match.id, ALICE.id, "A1")
    with pytest.raises(ServiceError, match="already paused"):
        await service.moderation.pause(match.id, MOD)
    fake_time.advance(1000)
    await service.flags.sweep()
    assert (await service.get(match.id)).running
    await service.moderation.resume(match.id, MOD)
    fake_time.advance(15)  # 20 + 15 = 35 s used: 5 s from reserve
    await service.move(match.id, ALICE.id, "A1")
    clock = (await service.get(match.id)).clock
    assert clock is not None and clock.reserves == (55.0, 60.0)
    actions = await service.store.actions(match.id)
    assert [a["kind"] for a in actions] == ["pause", "resume"] and actions[0]["by_id"] == MOD.id


async def test_add_time_extends_the_deadline(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    with pytest.raises(NotInMatch):
        await service.moderation.add_time(match.id, MOD, "local:nobody", 10)
    notice = await service.moderation.add_time(match.id, MOD, ALICE.id, 30)
    assert "mod gave +0:30 for alice" in notice.lines[0]
    fake_time.advance(30 + 60 + 20)
    await service.flags.sweep()
    assert (await service.get(match.id)).running
    fake_time.advance(20)
    await eventually(lambda: "over" in recorder.kinds())


async def test_a_match_without_a_clock_cannot_be_paused(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    with pytest.raises(ServiceError, match="no clock"):
        await service.moderation.pause(match.id, MOD)


# --- restarts ---


async def test_a_new_service_on_the_same_database_resumes_every_match_and_clock(open_service, fake_time) -> None:
    first = await open_service()
    await first.start()
    Recorder(first)
    clocked = await first.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    casual = await first.create_match("fish", [ALICE, BOB], seed=6)
    fake_time.advance(50)  # alice is 20 s into her reserve when the bot dies
    await first.move(clocked.id, ALICE.id, "A1")
    fake_time.advance(80)  # bob is 50 s into his reserve
    await first.close()  # the crash: nothing is saved on the way out

    fake_time.advance(3600)  # an hour of downtime is charged to nobody
    second = await open_service()
    resumed = await second.start()
    assert {m.id for m in resumed} == {clocked.id, casual.id}
    match = await second.get(clocked.id)
    assert match.ply == 1 and match.state == FISH.play(FISH.new(2, 5), "A1")
    assert match.clock is not None and match.clock.reserves == (40.0, 60.0) and match.clock.turn_started is None
    recorder = Recorder(second)
    await second.board_posted(match.id, match.ply)  # the repost: bob gets a fresh 30 s
    fake_time.advance(89)
    await second.flags.sweep()
    assert (await second.get(match.id)).running
    fake_time.advance(2 + LAG_GRACE)
    await eventually(lambda: "over" in recorder.kinds())
    assert (await second.get(match.id)).result.winners == frozenset({0})


async def test_the_move_log_is_append_only(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    with pytest.raises(Exception, match="append-only"):
        async with service.store.transaction():
            await service.store._db.execute("DELETE FROM moves")
    assert len(await service.moves(match.id)) == 1


async def test_schema_is_versioned(service: MatchService) -> None:
    from bot.store import MIGRATIONS

    assert await service.store.schema_version() == len(MIGRATIONS)
    assert await service.store.integrity_check() == "ok"


# --- death-match series (the toy game makes every result easy to arrange) ---


async def _win(service: MatchService, match_id: int, winner: Player) -> None:
    """Play toy moves until `winner` reaches 5: the loser adds 1s, the winner 2s."""
    while (match := await service.get(match_id)).running:
        seat = service.game(match).to_move(match.state)
        mover = match.players[seat]
        await service.move(match_id, mover.id, "2" if mover == winner else "1")


async def _current_game(service: MatchService, series_id: int):
    series = await service.registry.get_series(series_id)
    return await service.get(series.games[-1])


async def test_series_alternates_first_player_and_ends_at_two_wins(service: MatchService) -> None:
    recorder = Recorder(service)
    series = await service.create_series("toy", [ALICE, BOB], first=1, clock=None)
    game1 = await _current_game(service, series.id)
    assert game1.state.first == 1 and game1.game_no == 1
    await _win(service, game1.id, ALICE)
    game2 = await _current_game(service, series.id)
    assert game2.id != game1.id and game2.state.first == 0 and game2.game_no == 2
    await _win(service, game2.id, ALICE)
    series = await service.registry.get_series(series.id)
    assert series.status == OVER and series.wins == [2, 0] and series.result.winners == frozenset({0})
    assert len(series.games) == 2
    assert recorder.kinds()[-1] == "series_over"
    assert "alice wins the death match" in recorder.notices[-1].lines[0]


async def test_a_game_s_last_move_tells_its_end_first_then_what_it_caused(service: MatchService) -> None:
    """The move's own notice is the one returned and told first; the next game, or the series' end, after."""
    recorder = Recorder(service)
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    for nxt in (NoticeKind.STARTED, NoticeKind.SERIES_OVER):
        game = await _current_game(service, series.id)
        while game.running:
            told = len(recorder.notices)
            mover = game.players[service.game(game).to_move(game.state)]
            notice = await service.move(game.id, mover.id, "2" if mover == ALICE else "1")  # alice wins both
        assert notice.kind is NoticeKind.OVER and recorder.notices[told:] == [notice, recorder.notices[-1]]
        assert recorder.notices[-1].kind is nxt
    assert all(type(n.kind) is NoticeKind for n in recorder.notices)
    assert Notice("moved", notice.match).kind is NoticeKind.MOVED  # text reads as the kind it names
    with pytest.raises(ValueError):
        Notice("move", notice.match)


async def test_series_level_after_three_games_is_drawn_and_the_house_wins(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    await _win(service, (await _current_game(service, series.id)).id, ALICE)
    await _win(service, (await _current_game(service, series.id)).id, BOB)
    game3 = await _current_game(service, series.id)
    assert game3.state.first == 0
    notice = await service.move(game3.id, ALICE.id, "draw")
    assert notice.kind == "over" and notice.match.result.is_draw
    series = await service.registry.get_series(series.id)
    assert series.status == OVER and series.result.is_draw
    line = posts.series_line(series)
    assert "drawn — by DM rules the house wins" in line
    series.house_wins = False
    assert "house" not in posts.series_line(series)


async def test_series_one_win_and_two_draws_is_won(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    await _win(service, (await _current_game(service, series.id)).id, BOB)
    for _ in range(2):
        game = await _current_game(service, series.id)
        seat = service.game(game).to_move(game.state)
        await service.move(game.id, game.players[seat].id, "draw")
    series = await service.registry.get_series(series.id)
    assert series.status == OVER and series.result.winners == frozenset({1}) and series.wins == [0, 1]


async def test_series_games_have_fresh_clocks_and_a_flag_counts_as_a_loss(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    series = await service.create_series("fish", [ALICE, BOB], first=0)
    game1 = await _current_game(service, series.id)
    assert game1.clock is not None and game1.clock.settings == ClockSettings(30, 60)
    fake_time.advance(92)
    await eventually(lambda: any(n.kind == "started" and n.match.game_no == 2 for n in recorder.notices))
    game2 = await _current_game(service, series.id)
    assert game2.game_no == 2 and game2.state.first == 1 and FISH.to_move(game2.state) == 1
    assert game2.clock is not None and game2.clock.reserves == (60.0, 60.0)
    assert (await service.registry.get_series(series.id)).wins == [0, 1]


async def test_series_survives_a_restart(open_service) -> None:
    first = await open_service()
    await first.start()
    series = await first.create_series("toy", [ALICE, BOB], first=0, clock=None)
    await _win(first, (await _current_game(first, series.id)).id, BOB)
    await first.close()
    second = await open_service()
    await second.start()
    await _win(second, (await _current_game(second, series.id)).id, BOB)
    done = await second.registry.get_series(series.id)
    assert done.status == OVER and done.result.winners == frozenset({1})


async def test_abort_ends_match_and_series_without_result(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    game = await _current_game(service, series.id)
    notice = await service.moderation.abort(game.id, MOD)
    assert notice.match.status == ABORTED and "mod aborted" in notice.lines[0]
    assert (await service.registry.get_series(series.id)).status == ABORTED
    assert service.running() == []


async def test_resign_gives_the_game_to_the_opponent(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    notice = await service.playing.resign(match.id, BOB.id)
    assert notice.match.result.winners == frozenset({0}) and "bob resigned" in notice.lines[0]
    assert (await service.get(match.id)).status == OVER and match.id not in {m.id for m in service.running()}
    assert RUNNING not in {m.status for m in service.running()}


# --- undo, adjudication, board posts ---


async def test_undo_takes_back_the_last_move_and_keeps_it_in_the_log(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    after_one = (await service.get(match.id)).state
    await service.move(match.id, BOB.id, "A2")
    notice = await service.moderation.undo(match.id, MOD)
    assert notice.kind == "undone" and notice.lines == ("mod took back bob's move A2.",)
    match = await service.get(match.id)
    assert match.state == after_one and FISH.to_move(match.state) == 1 and match.ply == 3
    assert [r.move for r in await service.moves(match.id)] == ["A1"]
    assert [(r.kind, r.move, r.by_id) for r in await service.store.log(match.id)] == [
        ("move", "A1", None),
        ("move", "A2", None),
        ("undo", "A2", MOD.id),
    ]
    with pytest.raises(StaleBoard):  # a button from before the undo names an old ply
        await service.move(match.id, BOB.id, "A3", ply=2)
    await service.move(match.id, BOB.id, "A3", ply=3)
    assert [r.move for r in await service.moves(match.id)] == ["A1", "A3"]


async def test_undo_refunds_the_reserve_the_move_spent_and_charges_nobody(service: MatchService, fake_time) -> None:
    Recorder(service)
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=CLOCK)
    fake_time.advance(50)  # 20 s of alice's reserve
    await service.move(match.id, ALICE.id, "A1")
    fake_time.advance(45)  # bob is thinking, 15 s into his reserve, when the moderator steps in
    await service.moderation.undo(match.id, MOD)
    clock = (await service.get(match.id)).clock
    assert clock is not None and clock.reserves == (60.0, 60.0) and clock.seat == 0


async def test_nothing_to_undo(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    with pytest.raises(ServiceError, match="no move to undo"):
        await service.moderation.undo(match.id, MOD)


async def test_adjudication_ends_the_game_and_the_series_carries_on(service: MatchService) -> None:
    series = await service.create_series("toy", [ALICE, BOB], first=0, clock=None)
    game1 = await _current_game(service, series.id)
    with pytest.raises(NotInMatch):
        await service.moderation.adjudicate(game1.id, MOD, "local:carol")
    notice = await service.moderation.adjudicate(game1.id, MOD, BOB.id)
    assert notice.match.result.winners == frozenset({1}) and "adjudicated by mod" in notice.lines[0]
    game2 = await _current_game(service, series.id)
    draw = await service.moderation.adjudicate(game2.id, MOD, None)
    assert draw.match.result.is_draw and draw.match.result.scores == (0.5, 0.5)
    assert (await service.registry.get_series(series.id)).wins == [0, 1]
    assert [a["kind"] for a in await service.store.actions(game1.id)] == ["adjudicate"]


async def test_board_posts_are_remembered_so_the_previous_one_can_lose_its_buttons(open_service) -> None:
    service = await open_service()
    await service.start()
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    assert await service.board_posted(match.id, 0, message=(10, 100)) is None
    await service.move(match.id, ALICE.id, "A1")
    assert await service.board_posted(match.id, 0, message=(10, 999)) is None  # a stale report is ignored
    assert await service.board_posted(match.id, 1, message=(10, 101)) == (10, 100)
    await service.playing.set_thread(match.id, 4242)
    await service.close()
    again = await open_service()
    assert await again.start() == []  # untimed, its board up as it stands: it goes on without a repost
    resumed = again.running_match(match.id)
    assert resumed is not None and resumed.board == (10, 101) and resumed.board_ply == 1
    assert resumed.place.thread_id == 4242


async def test_a_version_1_database_migrates_without_losing_anything(db_path, fake_time) -> None:
    import aiosqlite

    from bot.store import MIGRATIONS

    async with aiosqlite.connect(db_path) as db:  # a database as the first release left it
        await db.executescript(f"BEGIN;{MIGRATIONS[0]}PRAGMA user_version=1;COMMIT;")
        await db.execute(
            "INSERT INTO matches (id, game, game_no, seed, options, state, ply, status, created_at, updated_at)"
            " VALUES (1, 'fish', 1, 5, '{}', ?, 1, 'running', 0, 0)",
            (FISH.dumps(FISH.play(FISH.new(2, 5), "A1")),),
        )
        await db.executemany(
            "INSERT INTO seats VALUES (1, ?, ?, ?)", [(0, ALICE.id, ALICE.name), (1, BOB.id, BOB.name)]
        )
        await db.execute("INSERT INTO moves VALUES (1, 1, 0, 'A1', 0, NULL)")
        await db.commit()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        service = MatchService(store, fake_time)
        (match,) = await service.start()
        assert match.ply == 1 and [(r.kind, r.move) for r in await store.log(1)] == [("move", "A1")]
        await service.move(1, BOB.id, "A2")
        assert [r.move for r in await service.moves(1)] == ["A1", "A2"]
        await service.close()
    finally:
        await store.close()


# --- lobbies ---

CAROL = Player("local:carol", "carol")


async def test_a_lobby_gathers_players_in_seat_order_and_the_creator_starts_it(service: MatchService) -> None:
    recorder = Recorder(service)
    lobby = await service.lobbies.open_lobby("toy", ALICE)
    await service.lobbies.join_lobby(lobby.id, BOB)
    await service.lobbies.join_lobby(lobby.id, CAROL)
    with pytest.raises(ServiceError, match="full: Toy takes at most 3 players"):
        await service.lobbies.join_lobby(lobby.id, Player("local:dan", "dan"))
    with pytest.raises(ServiceError, match="already in lobby"):
        await service.lobbies.join_lobby(lobby.id, BOB)
    with pytest.raises(ServiceError, match="Only alice, who opened lobby"):
        await service.lobbies.start_lobby(lobby.id, BOB)
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    assert [p.name for p in match.players] == ["alice", "bob", "carol"] and recorder.kinds() == ["started"]
    stored = await service.store.load_lobby(lobby.id)
    assert stored is not None and stored.status == "started" and stored.match_id == match.id
    with pytest.raises(MatchNotRunning, match="takes no more players"):
        await service.lobbies.join_lobby(lobby.id, Player("local:dan", "dan"))
    assert await service.lobbies.open_lobbies() == []


async def test_a_lobby_refuses_too_few_players_and_bad_options_up_front(service: MatchService) -> None:
    with pytest.raises(ValueError, match="no option"):
        await service.lobbies.open_lobby("toy", ALICE, options={"speed": 3})
    lobby = await service.lobbies.open_lobby("toy", ALICE)
    with pytest.raises(ServiceError, match="needs at least 2 players; 1 joined"):
        await service.lobbies.start_lobby(lobby.id, ALICE)
    assert (await service.lobbies.open_lobbies())[0].id == lobby.id and service.running() == []


async def test_solitaire_starts_alone(service: MatchService) -> None:
    lobby = await service.lobbies.open_lobby("volcano", ALICE, options={"opening": "cross"})
    match = await service.lobbies.start_lobby(lobby.id, ALICE)
    assert len(match.players) == 1 and match.options == {"opening": "cross"}
    assert GAMES["volcano"].to_move(match.state) == 0


async def test_leaving_a_lobby_and_the_creator_leaving_cancels_it(open_service) -> None:
    service = await open_service()
    lobby = await service.lobbies.open_lobby("toy", ALICE)
    await service.lobbies.join_lobby(lobby.id, BOB)
    assert [p.name for p in (await service.lobbies.leave_lobby(lobby.id, BOB)).players] == ["alice"]
    with pytest.raises(ServiceError, match="not in lobby"):
        await service.lobbies.leave_lobby(lobby.id, BOB)
    await service.lobbies.join_lobby(lobby.id, CAROL)
    again = await open_service()  # lobbies live in the database: a restart keeps them
    assert [p.name for p in (await again.lobbies.open_lobbies())[0].players] == ["alice", "carol"]
    assert (await again.lobbies.leave_lobby(lobby.id, ALICE)).status == "cancelled"
    assert await again.lobbies.open_lobbies() == []


# --- games that go on after a resignation (Volcano) ---

VOLCANO = GAMES["volcano"]


async def test_a_resignation_is_a_log_line_and_the_others_play_on(open_service) -> None:
    service = await open_service()
    await service.start()
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    assert posts.resign_effect(match, service.game(match)).endswith("the others play on.")
    notice = await service.playing.resign(match.id, ALICE.id)  # her own turn: it passes to bob
    assert notice.kind == "moved" and notice.lines == ("alice resigns.",) and match.running
    assert VOLCANO.to_move(match.state) == 1 and match.clock is not None and match.clock.seat == 1
    with pytest.raises(ServiceError, match="already resigned from match #1"):
        await service.playing.resign(match.id, ALICE.id)
    with pytest.raises(NotYourTurn):
        await service.move(match.id, ALICE.id, VOLCANO.legal_moves(match.state)[0])
    await service.move(match.id, BOB.id, VOLCANO.legal_moves(match.state)[0])
    log = [(r.kind, r.seat, r.move, r.by_id) for r in await service.moves(match.id)]
    assert log[0] == ("resign", 0, "resign", ALICE.id) and [line[:2] for line in log] == [("resign", 0), ("move", 1)]

    again = await open_service()  # a restart rebuilds nothing from the log, but undo replays it
    (resumed,) = await again.start()
    assert resumed.state == match.state
    await again.moderation.undo(match.id, MOD)  # takes back bob's move: the state is replayed, resignation included
    assert again.replay(resumed, await again.moves(match.id)) == resumed.state
    assert resumed.state.resigned == {0} and VOLCANO.to_move(resumed.state) == 1
    notice = await again.moderation.undo(match.id, MOD)  # and then the resignation itself
    assert notice.lines == ("mod took back alice's resignation.",) and resumed.state.resigned == frozenset()


async def test_the_last_player_left_wins_and_a_solitaire_resignation_scores_nothing(service: MatchService) -> None:
    duel = await service.create_match("volcano", [ALICE, BOB], seed=1)
    assert posts.resign_effect(duel, service.game(duel)) == "This ends the game as a loss."
    over = await service.playing.resign(duel.id, BOB.id)  # in a game of two, resigning loses, as in every game
    assert over.kind == "over" and duel.result is not None and duel.result.winners == {0}
    assert duel.result.termination == Termination.RESIGNATION and duel.result.scores == (1.0, 0.0)
    assert posts.result_line(duel) == "Game over: alice wins (bob resigned)."

    trio = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=1)
    await service.playing.resign(trio.id, BOB.id)
    assert trio.running and service.ending.seats_in(trio) == (0, 2)
    over = await service.playing.resign(trio.id, CAROL.id)  # alice is the last player left: she wins at once
    assert over.kind == "over" and trio.result is not None and trio.result.winners == {0}
    assert posts.result_line(trio) == "Game over: alice wins (every other player resigned)."

    alone = await service.create_match("volcano", [ALICE], seed=1)
    assert posts.resign_effect(alone, service.game(alone)) == "This ends the game with no score."
    await service.playing.resign(alone.id, ALICE.id)  # as when her time runs out (test_time_controls.py)
    assert alone.result is not None and alone.result.termination == Termination.RESIGNATION
    assert posts.result_line(alone) == "Game over (alice resigned)."
    assert await service.ratings.solitaire_results("volcano", None) == []  # a resigned solitaire game is no record


async def test_solitaire_results_are_finished_one_player_games_of_one_server(service: MatchService) -> None:
    async def finish(place: Place, seed: int) -> Match:
        match = await service.create_match("volcano", [ALICE], seed=seed, place=place)
        rng = random.Random(seed)  # random steps: always taking the first one can cycle for ever
        while match.running:
            await service.move(match.id, ALICE.id, rng.choice(VOLCANO.legal_moves(match.state)))
        return match

    here, there = Place(guild_id=1, channel_id=2), Place(guild_id=9, channel_id=2)
    first, second = await finish(here, 1), await finish(here, 2)
    await finish(there, 3)
    await service.create_match("volcano", [ALICE], seed=4, place=here)  # still running
    await service.playing.resign((await service.create_match("volcano", [ALICE, BOB], place=here)).id, BOB.id)
    results = await service.ratings.solitaire_results("volcano", 1)
    assert [(m.id, s) for m, s in results] == [(m.id, VOLCANO.scores(m.state)[0]) for m in (first, second)]


async def test_a_flag_with_three_players_puts_one_out_and_the_others_play_on(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    fake_time.advance(30 + 60 + LAG_GRACE + 0.1)
    await eventually(lambda: "moved" in recorder.kinds())  # the scheduler flags alice on its own
    flagged = next(n for n in recorder.notices if n.kind == "moved")
    assert flagged.lines[0] == "alice's reserve time ran out: they are out of the game."
    assert match.running and match.state.resigned == {0} and VOLCANO.to_move(match.state) == 1
    assert match.clock is not None and match.clock.seat == 1 and match.clock.reserves[0] == 0.0
    (line,) = await service.moves(match.id)
    assert (line.kind, line.seat, line.by_id) == ("resign", 0, None)
    assert posts.history_lines(match, [line], VOLCANO) == ["1. alice ran out of time; the others play on"]
    fake_time.advance(30 + 60 + LAG_GRACE + 0.1)  # bob too: carol is the last player left and wins
    await eventually(lambda: "over" in recorder.kinds())
    assert match.status == OVER and match.result is not None and match.result.winners == {2}


async def test_a_seat_out_of_time_in_a_game_of_two_loses_as_its_resignation_would(
    service: MatchService, fake_time
) -> None:
    """One decision for a seat that is out, whatever put it out: in a two-player Volcano game it has lost."""
    Recorder(service)
    duel = await service.create_match("volcano", [ALICE, BOB], seed=3, clock=CLOCK)
    fake_time.advance(30 + 60 + LAG_GRACE + 0.1)
    await eventually(lambda: not duel.running)
    assert duel.result is not None and duel.result.winners == {1} and duel.result.termination == Termination.FLAG
    assert duel.state.resigned == frozenset()  # lost on time, not left


async def test_a_late_move_with_three_players_is_refused_and_its_player_is_out(
    service: MatchService, fake_time
) -> None:
    Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    await service.flags.scheduler.stop()  # the move itself must notice the flag
    fake_time.advance(30 + 60 + LAG_GRACE + 0.1)
    with pytest.raises(TimeUp, match="you are out of match #1"):
        await service.move(match.id, ALICE.id, VOLCANO.legal_moves(match.state)[0])
    assert match.running and match.state.resigned == {0} and VOLCANO.to_move(match.state) == 1


async def test_geyser_games_begun_before_the_two_player_starts_keep_their_rules(db_path, fake_time) -> None:
    import aiosqlite

    from bot.store import MIGRATIONS

    geyser = GAMES["geyser"]
    old_rules = geyser.play(geyser.new(2, 5, starts="four"), "start a6")  # a6: legal before, plain land now
    async with aiosqlite.connect(db_path) as db:  # a database as the release before left it (schema 5)
        await db.executescript(f"BEGIN;{''.join(MIGRATIONS[:5])}PRAGMA user_version=5;COMMIT;")
        await db.execute(
            "INSERT INTO matches (id, game, game_no, seed, options, state, ply, status, created_at, updated_at)"
            " VALUES (1, 'geyser', 1, 5, '{}', ?, 1, 'running', 0, 0)",
            (geyser.dumps(old_rules),),
        )
        await db.executemany(
            "INSERT INTO seats VALUES (1, ?, ?, ?)", [(0, ALICE.id, ALICE.name), (1, BOB.id, BOB.name)]
        )
        await db.execute(
            "INSERT INTO moves (match_id, ply, seat, move, at, took) VALUES (1, 1, 0, 'start a6', 0, NULL)"
        )
        await db.commit()
    store = await Store.open(db_path)
    try:
        service = MatchService(store, fake_time)
        (match,) = await service.start()
        assert match.options == {"starts": "four", "rounds": 1000}
        await service.moderation.undo(1, MOD)  # the log replays from the seed under the rules it was played by
        again = await service.get(1)
        assert "start a6" in geyser.legal_moves(again.state)
        await service.close()
    finally:
        await store.close()
