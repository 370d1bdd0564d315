"""Game records: every game played to its end through the service, written as JSON, read back and
replayed to exactly the match's final state (undo and resign lines included); bad files are refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot import records
from bot.games import GAMES
from bot.local import Terminal
from bot.models import OVER, Player
from bot.records import RecordError, StillRunning, build_record, load_record, replay, replay_states, result_line
from bot.service import MatchService
from tests.conftest import ALICE, BOB, MOD

pytestmark = pytest.mark.backends  # on SQLite and on PostgreSQL (tests/databases.py)

CAROL = Player("local:carol", "carol")
PLAYERS = {"fish": 2, "volcano": 3, "themiscyra": 2, "geyser": 2, "horizon": 2}
CAP = 60
"""Plies of random play before someone resigns (Geyser's random games would run for thousands)."""


async def play_out(service: MatchService, key: str, seed: int) -> int:
    """A seeded random game through the service: an undo after ply 4, in Volcano a player who resigns
    mid-game (a `resign` line), and a resignation ending it if it runs past CAP plies."""
    players = [ALICE, BOB, CAROL][: PLAYERS[key]]
    match = await service.create_match(key, players, seed=seed)
    game = GAMES[key]
    rng = random.Random(seed)
    plies = 0
    while (match := await service.get(match.id)).running:
        if plies == 4:
            await service.moderation.undo(match.id, MOD)
        if key == "volcano" and plies == 6:
            await service.playing.resign(match.id, CAROL.id)
        if plies >= CAP:
            await service.playing.resign(match.id, match.players[game.to_move(match.state)].id)
            continue
        seat = game.to_move(match.state)
        await service.move(match.id, match.players[seat].id, rng.choice(game.legal_moves(match.state)))
        plies += 1
    return match.id


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_every_game_replays_from_its_record_to_the_same_final_state(service: MatchService, key: str) -> None:
    match_id = await play_out(service, key, seed=11)
    match = await service.get(match_id)
    record = await build_record(service, match_id)
    kinds = {line.kind for line in record.moves}
    assert "undo" in kinds and (key != "volcano" or "resign" in kinds)
    assert [line.ply for line in record.moves] == list(range(1, match.ply + 1))

    loaded = load_record(record.dumps())
    assert loaded == record
    data = json.loads(record.dumps())
    assert data["seed"] == match.seed and data["players"][0] == {"id": ALICE.id, "name": "alice"}
    assert data["result"] == match.result.to_json() and match.status == OVER
    assert all({"ply", "seat", "move", "at", "took", "kind"} <= set(line) for line in data["moves"])

    game = GAMES[key]
    assert game.dumps(replay(loaded)) == game.dumps(match.state)
    standing = await service.moves(match_id)
    assert len(replay_states(loaded)) == len(standing) + 1
    assert result_line(loaded).startswith(tuple(p.name for p in match.players) + ("A draw",))


async def test_a_running_match_has_no_record_yet(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=3)
    with pytest.raises(StillRunning, match="still running"):
        await build_record(service, match.id)


async def test_an_aborted_match_has_a_record_without_a_result(service: MatchService) -> None:
    match = await service.create_match("fish", [ALICE, BOB], seed=3)
    await service.move(match.id, ALICE.id, GAMES["fish"].legal_moves(match.state)[0])
    await service.moderation.abort(match.id, MOD)
    record = load_record((await build_record(service, match.id)).dumps())
    assert record.result is None and record.status == "aborted" and len(record.moves) == 1
    assert result_line(record) == "No result (the match was aborted)."


async def test_bad_record_files_are_refused_in_words(service: MatchService) -> None:
    match_id = await play_out(service, "fish", seed=4)
    good = json.loads((await build_record(service, match_id)).dumps())

    def changed(**fields: object) -> str:
        return json.dumps({**good, **fields})

    cases = {
        "not json {": "not a JSON file",
        "[1, 2]": "JSON object",
        changed(format="chess"): "not a game record",
        changed(version=99): "version 99",
        changed(game="chess"): "no game 'chess'",
        changed(players=[{"id": "a"}]): "`players`",
        changed(players=[{"id": "a", "name": "a"}]): "played by 2 players, not 1.",
        changed(seed="x"): "`seed`",
        changed(options=[]): "`options`",
        changed(status="running"): "`status`",
        changed(moves={}): "`moves`",
        changed(moves=good["moves"][1:]): "numbered 1, 2, 3",
        changed(moves=[{**good["moves"][0], "seat": 5}]): "seats go from 0 to 1",
        changed(moves=[{**good["moves"][0], "kind": "teleport"}]): "kind 'teleport'",
        changed(moves=[{**good["moves"][0], "at": "noon"}]): "must be a number",
        changed(result={"scores": [1], "winners": [], "reason": "x"}): "`result`",
    }
    for text, message in cases.items():
        with pytest.raises(RecordError, match=message):
            load_record(text)

    illegal = load_record(changed(moves=[{**good["moves"][0], "move": "Z9"}]))
    with pytest.raises(RecordError, match=r"line 1 .*cannot be replayed"):
        replay(illegal)
    wrong_seat = load_record(changed(moves=[{**good["moves"][0], "seat": 1}]))
    with pytest.raises(RecordError, match="seat 1 is not the one to move"):
        replay(wrong_seat)
    undo_first = load_record(changed(moves=[{**good["moves"][0], "kind": "undo"}]))
    with pytest.raises(RecordError, match="no move is standing"):
        replay(undo_first)
    bad_options = load_record(changed(options={"colour": "red"}))
    with pytest.raises(RecordError, match="options cannot start"):
        replay(bad_options)


async def test_the_terminal_saves_the_replay_writes_the_record_and_replays_it(
    service: MatchService, tmp_path: Path
) -> None:
    out: list[str] = []
    terminal = Terminal(service, tmp_path / "renders", out.append)
    await terminal.handle("fish new alice bob --seed 8")
    refused = len(out)
    await terminal.handle("fish record")
    assert out[refused:] == [
        "✗ Match #1 is still running: its record (with the seed and every card) is published once the game is over."
    ]
    rng = random.Random(8)
    while (match := await service.get(1)).running:
        await terminal.handle(f"fish move {rng.choice(GAMES['fish'].legal_moves(match.state))}")
    gif = tmp_path / "renders" / "match-1-replay.gif"
    assert f"[#1] replay: {gif}\n" in "\n".join(out) and gif.read_bytes().startswith(b"GIF8")

    await terminal.handle("fish record --match 1")
    path = tmp_path / "records" / "fish-match-1.json"
    assert out[-1] == f"Record of match #1: {path}"
    await terminal.handle(f"replay {path}")
    printed = out[-1].splitlines()
    assert printed[0].startswith(f"Replayed {GAMES['fish'].title} #1 (alice vs bob, seed 8): ")
    assert printed[1] == records.result_line(load_record(path.read_text()))
    board = tmp_path / "renders" / "replay-fish-match-1.png"
    assert printed[2] == f"final board: {board}" and board.read_bytes().startswith(b"\x89PNG")

    for line, message in {
        f"replay {tmp_path / 'missing.json'}": "Cannot read",
        "replay": "Use: replay FILE.json",
    }.items():
        await terminal.handle(line)
        assert out[-1].startswith("✗") and message in out[-1]
    (tmp_path / "bad.json").write_text("{}")
    await terminal.handle(f"replay {tmp_path / 'bad.json'}")
    assert out[-1] == f"✗ This is not a game record (its format should be {records.FORMAT!r})."


async def test_absurd_record_files_are_refused_quickly_in_words(service: MatchService, tmp_path: Path) -> None:
    """Huge names, deep nesting, gigantic move lists, non-text moves and numbers out of range: each is
    a RecordError saying what is wrong, found before anything is replayed, in well under a second."""
    import time

    match_id = await play_out(service, "fish", seed=4)
    good = json.loads((await build_record(service, match_id)).dumps())
    line = good["moves"][0]

    def changed(**fields: object) -> str:
        return json.dumps({**good, **fields})

    def player(name: str) -> list[dict[str, str]]:
        return [{"id": "local:x", "name": name}, good["players"][1]]

    cases = {
        "[" * 200_000 + "]" * 200_000: "nested far too deeply",
        changed(options={"x": [[[[[[]]]]]]}): "Option 'x' must be a number, a short text or a short list",
        changed(options={str(k): k for k in range(5000)}): "`options` has 5,000 entries",
        changed(options={"board": "1" * 100_000}): "Option 'board'",
        changed(players=player("x" * 1_000_000)): "Player 1's name is 1,000,000 characters long (at most 100)",
        changed(players=player("\u202eevil")): "Player 1's name holds control or bidirectional characters",
        changed(players=player("nul\x00")): "control",
        changed(players=player(" ")): "Player 1's name is empty",
        changed(moves=[line] * 70_000): "`moves` has 70,000 lines; a record holds at most 60,000",
        changed(moves=[{**line, "move": ["D4"]}]): "Move-log line 1 has no move text",
        changed(moves=[{**line, "move": 4}]): "no move text",
        changed(moves=[{**line, "move": "A1 " * 10_000}]): "a move of 30,000 characters",
        changed(moves=[{**line, "at": 1e300}]): "`at` of move-log line 1 must be a number of seconds, not 1e+300",
        changed(moves=[{**line, "took": -5}]): "`took` of move-log line 1",
        changed(moves=[{**line, "by": "x" * 1000}]): "`by` must be a player id",
        changed(seed=10**30): "`seed` must be a whole number (64-bit)",
        changed(match=0): "`match` must be the match's number",
        changed(match=-(2**70)): "`match`",
        changed(series=2**64): "`series`",
        changed(game_no=10**9): "`game_no`",
        changed(created_at=float("inf")): "`created_at`",
        changed(result={**good["result"], "scores": [1e300, 0]}): "`result`",
        changed(result={**good["result"], "reason": "r" * 100_000}): "`result`",
        changed(version="v" * 100_000): "Record version 'vvvvvvvvvvvvv",
        json.dumps({**good, "seed": 1}).replace('"seed": 1', '"seed": ' + "9" * 5000): "not a JSON file",
        " " * 17_000_000: "too large for a record (17,000,000 bytes; at most 16,000,000)",
    }
    started = time.perf_counter()
    for text, message in cases.items():
        with pytest.raises(RecordError) as refused:
            load_record(text)
        assert message in str(refused.value) and len(str(refused.value)) < 300, (message, str(refused.value)[:300])
    assert time.perf_counter() - started < 2.0  # all of them together

    for name, message in {"nul\x00.json": "embedded null", "f" * 5000: "File name too long"}.items():
        with pytest.raises(RecordError, match=message):
            records.replay_file(tmp_path / name, tmp_path / "renders")
    assert not (tmp_path / "renders").exists()
