"""Claims (bot/service/claims.py) on a real SQLite file with a fake clock: refused before the player to move
has waited CLAIM_AFTER (saying exactly how long is left), then the win with two players or the idle seat
out with more; never in a clocked, paused or held match, nor by the player to move; stored as
`Termination.CLAIM`, logged for moderators and shown in the record."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import posts
from bot.clock import ClockSettings
from bot.games import GAMES, Outcome, Termination
from bot.local import Terminal
from bot.models import OVER, Place, Player, computer
from bot.move_log import CLAIMED, leaving
from bot.records import build_record, load_record, result_line
from bot.service import CLAIM_AFTER, MatchPaused, MatchService, NotInMatch, ServiceError
from tests.conftest import ALICE, BOB, MOD, Recorder

CAROL = Player("local:carol", "carol")
FISH, VOLCANO = GAMES["fish"], GAMES["volcano"]
DAY, HOUR = 86_400, 3_600


async def waiting_for_bob(service: MatchService) -> int:
    """An untimed fish match where alice has moved and bob is to move; returns its id."""
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    return match.id


# --- the words ---


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (7 * DAY, "7 days"),
        (2 * DAY + 2 * HOUR + 1, "2 days 3 hours"),
        (2 * DAY + 3 * HOUR, "2 days 3 hours"),
        (DAY, "1 day"),
        (DAY - 1, "24 hours"),
        (DAY + 1, "1 day 1 hour"),
        (5 * HOUR + 59 * 60 + 1, "6 hours"),
        (HOUR + 60, "1 hour 1 minute"),
        (600, "10 minutes"),
        (270, "4 minutes 30 seconds"),
        (60, "1 minute"),
        (59.2, "1 minute"),
        (59, "59 seconds"),
        (1, "1 second"),
        (0.001, "1 second"),
        (0, "0 seconds"),
        (-5, "0 seconds"),
    ],
)
def test_a_wait_in_words_is_rounded_up_in_its_two_largest_units(seconds: float, words: str) -> None:
    assert posts.wait_words(seconds) == words


# --- too early, then a win ---


async def test_a_claim_before_seven_days_is_refused_with_exactly_the_time_left(
    service: MatchService, fake_time
) -> None:
    match_id = await waiting_for_bob(service)
    assert CLAIM_AFTER == 7 * DAY
    with pytest.raises(ServiceError, match=r"a claim needs 7 days without a move, .* You can claim in 7 days\."):
        await service.claims.claim(match_id, ALICE.id)
    fake_time.advance(4 * DAY + 21 * HOUR + 30 * 60)  # 2 days 2 hours 30 minutes left
    with pytest.raises(ServiceError) as refused:
        await service.claims.claim(match_id, ALICE.id)
    assert str(refused.value) == (
        "Too early: a claim needs 7 days without a move, and bob's turn began less than that ago."
        " You can claim in 2 days 3 hours."
    )
    fake_time.advance(2 * DAY + 2 * HOUR + 30 * 60 - 1)
    with pytest.raises(ServiceError, match="You can claim in 1 second"):
        await service.claims.claim(match_id, ALICE.id)
    match = await service.get(match_id)
    assert match.running and match.ply == 1 and await service.store.actions(match_id) == []


async def test_after_seven_days_the_claimer_wins(service: MatchService, fake_time) -> None:
    recorder = Recorder(service)
    match_id = await waiting_for_bob(service)
    fake_time.advance(CLAIM_AFTER)  # exactly the wait: allowed
    notice = await service.claims.claim(match_id, ALICE.id)
    reason = "alice claimed the win: bob did not move for 7 days"
    assert notice.kind == "over" and notice.lines[:2] == (f"{reason}.", posts.CLAIM_TOLD)
    assert notice.lines[2].startswith("Ratings: ")  # a claim is rated like a flag
    match = await service.get(match_id)
    assert match.status == OVER and match.result == Outcome((1.0, 0.0), frozenset({0}), reason, Termination.CLAIM)
    assert posts.ended_off_board(match) and posts.result_line(match) == f"Game over: alice wins ({reason})."
    assert [(a["kind"], a["by_id"], a["detail"]) for a in await service.store.actions(match_id)] == [
        ("claim", ALICE.id, reason)
    ]
    record = await build_record(service, match_id)
    assert record.termination is Termination.CLAIM and record.to_json()["termination"] == "claim"
    loaded = load_record(record.dumps())
    assert loaded.result is not None and loaded.result.termination is Termination.CLAIM
    assert result_line(loaded) == f"alice won ({reason})."
    assert recorder.kinds()[-1] == "over" and service.running() == []


async def test_the_wait_counts_from_the_last_line_of_the_log(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5)
    fake_time.advance(6 * DAY)
    with pytest.raises(ServiceError, match="You can claim in 1 day"):  # no move yet: from the game's start
        await service.claims.claim(match.id, BOB.id)
    await service.move(match.id, ALICE.id, "A1")
    fake_time.advance(6 * DAY)
    await service.move(match.id, BOB.id, "A2")
    fake_time.advance(6 * DAY)
    await service.moderation.undo(match.id, MOD)  # an undo starts bob's turn again
    fake_time.advance(6 * DAY)
    with pytest.raises(ServiceError, match="You can claim in 1 day"):
        await service.claims.claim(match.id, ALICE.id)
    fake_time.advance(DAY)
    assert (await service.claims.claim(match.id, ALICE.id)).match.result.termination is Termination.CLAIM  # type: ignore[union-attr]


# --- three players or more ---


async def test_with_three_players_where_seats_can_leave_the_idle_player_is_out(
    service: MatchService, fake_time
) -> None:
    recorder = Recorder(service)
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3)
    fake_time.advance(CLAIM_AFTER)
    notice = await service.claims.claim(match.id, CAROL.id)
    line = "carol claimed alice out: alice did not move for 7 days, so they are out."
    assert notice.kind == "moved" and notice.lines == (line, posts.CLAIM_TOLD)  # not the engine's "resigns"
    assert match.running and match.state.resigned == {0} and VOLCANO.to_move(match.state) == 1
    (record,) = await service.moves(match.id)
    assert (record.ply, record.kind, record.seat, record.move, record.by_id) == (1, "resign", 0, CLAIMED, CAROL.id)
    assert leaving(record) is Termination.CLAIM
    unknown = replace(record, by_id="local:gone")  # a claimer the match no longer names
    assert posts.history_lines(match, [unknown], VOLCANO) == [
        "1. alice is out by an opponent's claim; the others play on"
    ]
    assert posts.history_lines(match, [record], VOLCANO) == ["1. alice is out by carol's claim; the others play on"]
    assert [(a["kind"], a["by_id"], a["detail"]) for a in await service.store.actions(match.id)] == [
        ("claim", CAROL.id, line)
    ]
    assert recorder.kinds()[-1] == "moved"
    with pytest.raises(ServiceError, match="You have left match #1: only a player still in it may claim"):
        await service.claims.claim(match.id, ALICE.id)


async def test_a_claim_that_leaves_one_player_in_volcano_ends_the_game_by_its_rules(
    service: MatchService, fake_time
) -> None:
    match = await service.create_match("volcano", [ALICE, BOB, CAROL], seed=3)
    await service.playing.resign(match.id, BOB.id)  # alice is to move; carol is the last one in besides her
    fake_time.advance(CLAIM_AFTER)
    notice = await service.claims.claim(match.id, CAROL.id)
    line = "carol claimed alice out: alice did not move for 7 days, so they are out."
    assert notice.kind == "over" and notice.lines[0] == line and notice.lines[-1] == posts.CLAIM_TOLD
    over, rated = notice.lines[1:3]  # the engine's words for the end, then the ratings
    assert len(notice.lines) == 4 and over.startswith("The game is over") and rated.startswith("Ratings: ")
    assert match.result is not None and match.result.winners == {2}


async def test_a_game_whose_seats_cannot_leave_ends_and_the_others_share_the_win(
    service: MatchService, fake_time
) -> None:
    match = await service.create_match("toy", [ALICE, BOB, CAROL])
    await service.move(match.id, ALICE.id, "1")
    fake_time.advance(CLAIM_AFTER)
    notice = await service.claims.claim(match.id, CAROL.id)
    reason = "carol claimed the game: bob did not move for 7 days"
    assert notice.kind == "over" and notice.lines[:2] == (f"{reason}.", posts.CLAIM_TOLD)
    assert match.result == Outcome((1.0, 0.0, 1.0), frozenset({0, 2}), reason, Termination.CLAIM)
    assert posts.result_line(match) == f"Game over: alice and carol win ({reason})."


async def test_in_volcano_for_two_a_claim_ends_the_game_as_a_claim(service: MatchService, fake_time) -> None:
    match = await service.create_match("volcano", [ALICE, BOB], seed=3)
    fake_time.advance(CLAIM_AFTER)
    notice = await service.claims.claim(match.id, BOB.id)
    assert notice.kind == "over" and notice.lines[0] == "bob claimed the win: alice did not move for 7 days."
    assert match.result is not None and match.result.termination is Termination.CLAIM
    assert await service.moves(match.id) == []  # no resign line: the game ended, as a flag ends it


async def test_away_time_that_ends_now_no_longer_stops_a_claim(service: MatchService, fake_time) -> None:
    match_id = await waiting_for_bob(service)
    fake_time.advance(CLAIM_AFTER)
    service.claims.away_until = lambda player_id, guild_id: fake_time.now()  # as away.py: over at its end
    assert (await service.claims.claim(match_id, ALICE.id)).kind == "over"


async def test_a_claim_against_a_computer_that_never_moved(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, computer()], seed=5)
    await service.move(match.id, ALICE.id, "A1")
    fake_time.advance(CLAIM_AFTER)
    notice = await service.claims.claim(match.id, ALICE.id)
    assert notice.lines[0] == "alice claimed the win: Computer did not move for 7 days."
    assert not any(line.startswith("Ratings") for line in notice.lines)  # a game with a computer is not rated


# --- refused ---


async def test_a_clocked_game_has_no_claims(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=ClockSettings(86_400, 0))
    fake_time.advance(CLAIM_AFTER)
    with pytest.raises(ServiceError, match="has a clock: a player who does not move runs out of time"):
        await service.claims.claim(match.id, BOB.id)


async def test_the_player_to_move_cannot_claim(service: MatchService, fake_time) -> None:
    match_id = await waiting_for_bob(service)
    fake_time.advance(CLAIM_AFTER)
    with pytest.raises(ServiceError, match="It is your turn: move instead of claiming"):
        await service.claims.claim(match_id, BOB.id)
    with pytest.raises(NotInMatch, match="not playing in match #1"):
        await service.claims.claim(match_id, CAROL.id)
    assert (await service.get(match_id)).running


async def test_no_claim_while_paused_or_held(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, clock=ClockSettings(86_400, 0))
    await service.moderation.pause(match.id, MOD)
    fake_time.advance(CLAIM_AFTER)
    with pytest.raises(MatchPaused, match="paused by a moderator: nothing can be claimed"):
        await service.claims.claim(match.id, BOB.id)
    untimed = await service.create_match("fish", [ALICE, BOB], seed=5)
    await service.hold(untimed.id, "the thread is gone")
    fake_time.advance(CLAIM_AFTER)
    with pytest.raises(MatchPaused, match=r"on hold .* nothing can be claimed until its board is posted"):
        await service.claims.claim(untimed.id, BOB.id)
    await service.board_posted(untimed.id, 0)
    assert (await service.claims.claim(untimed.id, BOB.id)).kind == "over"


async def test_no_claim_against_a_player_who_is_away(service: MatchService, fake_time) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=5, place=Place(1, 2))
    await service.move(match.id, ALICE.id, "A1")
    fake_time.advance(CLAIM_AFTER)
    await service.away.go_away(BOB, 1, 2)
    with pytest.raises(ServiceError, match="bob is away for 2 days more: nobody can claim"):
        await service.claims.claim(match.id, ALICE.id)
    await service.away.come_back(BOB, 1)
    assert (await service.claims.claim(match.id, ALICE.id)).kind == "over"


async def test_a_finished_match_takes_no_claim(service: MatchService, fake_time) -> None:
    match_id = await waiting_for_bob(service)
    await service.playing.resign(match_id, BOB.id)
    fake_time.advance(CLAIM_AFTER)
    with pytest.raises(ServiceError, match="is over"):
        await service.claims.claim(match_id, ALICE.id)


async def test_the_terminal_claims_for_the_one_person_not_to_move(
    terminal: Terminal, out: list[str], fake_time
) -> None:
    async def said(line: str) -> str:
        before = len(out)
        assert await terminal.handle(line)
        return "\n".join(out[before:])

    await said("fish new alice bob --seed 5")
    await said("fish move A1")
    assert "You can claim in 7 days" in await said("fish claim")  # alice: bob is to move
    assert "It is your turn" in await said("fish claim --as bob")
    fake_time.advance(CLAIM_AFTER)
    text = await said("fish claim --as alice")
    assert "alice claimed the win: bob did not move for 7 days." in text and posts.CLAIM_TOLD in text
    assert "Game over: alice wins (alice claimed the win: bob did not move for 7 days)." in text


async def test_with_several_who_could_claim_the_terminal_asks_who(terminal: Terminal, out: list[str]) -> None:
    await terminal.handle("volcano new alice bob carol --seed 3")
    before = len(out)
    await terminal.handle("volcano claim")
    assert "Say who claims with --as NAME (bob or carol)." in "\n".join(out[before:])
