"""How a game ended, for code (`Outcome.termination`): every way the service ends a game (the rules, a
resignation, a flag, an adjudication, only computers left), what reads it instead of the reason's words
(posts, records, solitaire's best scores), and store migration 7, which fills it in for results stored
before it from the action log."""

from __future__ import annotations

import json

import aiosqlite
import pytest

from bot import posts
from bot.clock import LAG_GRACE, ClockSettings
from bot.games import GAMES, Outcome, Termination
from bot.models import OVER, Player, computer
from bot.records import RecordError, build_record, load_record, result_line
from bot.service import MatchService
from bot.store import MIGRATIONS, Store
from tests.conftest import ALICE, BOB, MOD, TEST_GAMES, Recorder
from tests.toygame import TOY

CAROL = Player("local:carol", "carol")
CLOCK = ClockSettings(30, 60)
FISH, VOLCANO = GAMES["fish"], GAMES["volcano"]


async def stored_termination(service: MatchService, match_id: int) -> Termination:
    stored = await service.store.load_match(match_id)
    assert stored is not None and stored.result is not None
    return stored.result.termination


# --- every way a game ends ---


async def test_a_game_played_to_its_end_ends_by_the_rules(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB])
    for player, move in ((ALICE, "2"), (BOB, "1"), (ALICE, "2")):
        await service.move(match.id, player.id, move)
    assert match.status == OVER and match.result is not None
    assert match.result.termination is Termination.RULES and match.result.reason == "reached 5"
    assert await stored_termination(service, match.id) is Termination.RULES
    assert not posts.ended_off_board(match) and posts.caption(service, match, 0.0).result is None
    assert await service.store.actions(match.id) == []  # the rules end a game without an action


async def test_a_resignation_ends_the_game_as_a_resignation(service: MatchService) -> None:
    match = await service.create_match("toy", [ALICE, BOB])
    notice = await service.playing.resign(match.id, ALICE.id)
    assert notice.kind == "over" and notice.lines[0] == "alice resigned."
    assert match.result == Outcome((0.0, 1.0), frozenset({1}), "alice resigned", Termination.RESIGNATION)
    assert await stored_termination(service, match.id) is Termination.RESIGNATION
    assert [a["kind"] for a in await service.store.actions(match.id)] == ["resign"]
    assert posts.ended_off_board(match)
    assert posts.caption(service, match, 0.0).result == "Game over: bob wins (alice resigned)."


async def test_running_out_of_time_ends_the_game_as_a_flag(service: MatchService, fake_time) -> None:
    await service.flags.scheduler.stop()  # the sweep below flags it, not the scheduler's task
    match = await service.create_match("toy", [ALICE, BOB], clock=CLOCK)
    await service.board_posted(match.id, 0)
    fake_time.advance(90 + LAG_GRACE + 0.5)
    await service.flags.sweep()
    assert match.status == OVER and match.result is not None
    assert match.result.termination is Termination.FLAG and match.result.winners == {1}
    assert await stored_termination(service, match.id) is Termination.FLAG
    assert [a["kind"] for a in await service.store.actions(match.id)] == ["flag"]


@pytest.mark.parametrize("winner", [BOB, None], ids=["a win", "a draw"])
async def test_a_moderators_decision_ends_the_game_as_an_adjudication(service: MatchService, winner) -> None:
    match = await service.create_match("toy", [ALICE, BOB])
    notice = await service.moderation.adjudicate(match.id, MOD, None if winner is None else winner.id)
    assert notice.lines[0] == "adjudicated by mod."
    assert match.result is not None and match.result.termination is Termination.ADJUDICATION
    assert match.result.winners == (frozenset() if winner is None else {1})
    assert await stored_termination(service, match.id) is Termination.ADJUDICATION


async def test_the_last_person_leaving_abandons_the_game_to_the_computers(service: MatchService) -> None:
    match = await service.create_match("volcano", [ALICE, computer("easy"), computer("easy", 2)], seed=10)
    await service.playing.resign(match.id, ALICE.id)
    assert match.status == OVER and match.result is not None
    assert match.result.termination is Termination.ABANDONED
    assert await stored_termination(service, match.id) is Termination.ABANDONED
    assert [a["kind"] for a in await service.store.actions(match.id)] == ["computers"]


async def test_the_last_player_left_of_several_wins_by_the_rules(service: MatchService) -> None:
    """Volcano's own rule ends the game when one player is left: the engine's outcome, so RULES, and the
    final position shows it (no off-board result on the board)."""
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3)
    await service.playing.resign(match.id, ALICE.id)
    assert match.running and match.result is None  # the others play on
    await service.playing.resign(match.id, BOB.id)
    assert match.result is not None and match.result.winners == {2}
    assert match.result.termination is Termination.RULES and not posts.ended_off_board(match)


async def test_a_flag_that_puts_one_seat_out_is_told_apart_from_a_resignation(service, fake_time) -> None:
    Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3, clock=CLOCK)
    await service.playing.resign(match.id, BOB.id)  # not bob's turn: a resignation by bob himself
    fake_time.advance(90 + LAG_GRACE + 0.5)  # alice, to move, runs out of time: out by the clock
    await service.flags.sweep()
    assert match.result is not None and match.result.winners == {2}  # carol, the last one in
    assert match.result.termination is Termination.RULES  # Volcano's own rule ended it
    log = [r for r in await service.store.log(match.id) if r.kind == "resign"]
    assert [(r.seat, r.by_id) for r in log] == [(1, BOB.id), (0, None)]
    history = posts.history_lines(match, log, VOLCANO)
    assert history == [
        f"{log[0].ply}. bob resigned; the others play on",
        f"{log[1].ply}. alice ran out of time; the others play on",
    ]


# --- what reads it ---


async def test_solitaire_best_scores_count_only_games_ended_by_the_rules(service: MatchService) -> None:
    match = await service.create_match("volcano", [ALICE], seed=1)
    await service.moderation.adjudicate(match.id, MOD, ALICE.id)  # a win, but not by the rules
    assert match.result is not None and match.result.winners == {0}
    assert await service.ratings.solitaire_results("volcano", None) == []


async def test_a_record_says_how_the_match_ended(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=3)
    await service.playing.resign(match.id, BOB.id)
    data = json.loads((await build_record(service, match.id)).dumps())
    assert data["termination"] == "resignation" and data["result"]["termination"] == "resignation"
    record = load_record(json.dumps(data))
    assert record.termination is Termination.RESIGNATION and record.result == match.result

    aborted = await service.create_match("fish", [ALICE, BOB], seed=3)
    await service.moderation.abort(aborted.id, MOD)
    data = json.loads((await build_record(service, aborted.id)).dumps())
    assert data["result"] is None and data["termination"] == "abort"
    assert load_record(json.dumps(data)).termination is Termination.ABORT


async def test_a_record_whose_termination_disagrees_is_refused(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=3)
    await service.playing.resign(match.id, BOB.id)
    good = json.loads((await build_record(service, match.id)).dumps())
    for bad in (
        {**good, "termination": "flag"},
        {**good, "termination": "abort"},
        {**good, "termination": "sudden death"},
        {**good, "result": {**good["result"], "termination": "sudden death"}},
        {**good, "result": {**good["result"], "termination": "abort"}, "termination": "abort"},
        {**good, "result": None, "termination": "abort"},  # an 'over' match with no result
        {**good, "result": ["resignation"]},  # not an object at all
    ):
        with pytest.raises(RecordError):
            load_record(json.dumps(bad))


@pytest.mark.parametrize(
    ("reason", "termination"),
    [
        ("bob's reserve time ran out", Termination.FLAG),
        ("bob resigned", Termination.RESIGNATION),
        ("adjudicated by mod", Termination.ADJUDICATION),
        ("only computer players were left", Termination.ABANDONED),
        ("more fish", Termination.RULES),
        ("carol resigned", Termination.RULES),  # not a player of this record: the engine's words
    ],
)
async def test_a_record_written_before_terminations_still_loads(service: MatchService, reason, termination) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=3)
    await service.playing.resign(match.id, BOB.id)
    data = json.loads((await build_record(service, match.id)).dumps())
    del data["termination"], data["result"]["termination"]
    data["result"]["reason"] = reason
    record = load_record(json.dumps(data))
    assert record.result is not None and record.result.termination is termination
    assert result_line(record) == f"alice won ({reason})."


# --- results stored before terminations (store migration 7) ---


async def test_migration_7_reads_how_stored_games_ended_from_the_action_log(db_path, fake_time) -> None:
    ended = {1: "flag", 2: "resign", 3: "adjudicate", 4: "computers", 5: None, 6: "aborted"}
    state = TOY.dumps(TOY.new(2, 0))
    async with aiosqlite.connect(db_path) as db:  # a database as the release before left it (schema 6)
        await db.executescript(f"BEGIN;{''.join(MIGRATIONS[:6])}PRAGMA user_version=6;COMMIT;")
        await db.execute(
            "INSERT INTO series (id, game, players, best_of, first_seat, options, clock, house_wins, status, wins,"
            " result, created_at) VALUES (1, 'toy', '[]', 1, 0, '{}', NULL, 1, 'over', '[1, 0]', ?, 0)",
            (json.dumps({"scores": [1.0, 0.0], "winners": [0], "reason": "1–0 in games"}),),
        )
        for match_id, kind in ended.items():
            result = {"scores": [1.0, 0.0], "winners": [0], "reason": f"how #{match_id} ended"}
            await db.execute(
                "INSERT INTO matches (id, game, game_no, seed, options, state, ply, status, result, created_at,"
                " updated_at) VALUES (?, 'toy', 1, 0, '{}', ?, 0, ?, ?, 0, 0)",
                (match_id, state, *(("aborted", None) if kind == "aborted" else ("over", json.dumps(result)))),
            )
            await db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?)",
                [(match_id, 0, ALICE.id, "alice"), (match_id, 1, BOB.id, "bob")],
            )
            await db.execute(  # every match has other actions too, which say nothing of how it ended
                "INSERT INTO actions (match_id, kind, by_id, detail, at) VALUES (?, 'pause', ?, 'paused', 0)",
                (match_id, MOD.id),
            )
            if kind is not None:
                await db.execute(
                    "INSERT INTO actions (match_id, kind, by_id, detail, at) VALUES (?, ?, NULL, 'ended', 1)",
                    (match_id, "abort" if kind == "aborted" else kind),
                )
        await db.commit()
    store = await Store.open(db_path, TEST_GAMES)
    try:
        assert await store.schema_version() == len(MIGRATIONS) >= 7
        terminations = {}
        for match_id in ended:
            match = await store.load_match(match_id)
            assert match is not None
            terminations[match_id] = None if match.result is None else match.result.termination
            assert match.result is None or match.result.reason == f"how #{match_id} ended"
        assert terminations == {
            1: Termination.FLAG,
            2: Termination.RESIGNATION,
            3: Termination.ADJUDICATION,
            4: Termination.ABANDONED,
            5: Termination.RULES,
            6: None,  # aborted: no result to say it in
        }
        async with aiosqlite.connect(db_path) as db, db.execute("SELECT result FROM matches WHERE id = 1") as cursor:
            (raw,) = await cursor.fetchone()
        assert json.loads(raw)["termination"] == "flag"  # in the stored JSON itself, not only read so
        series = await store.load_series(1)
        assert series is not None and series.result is not None and series.result.termination is Termination.RULES
    finally:
        await store.close()
