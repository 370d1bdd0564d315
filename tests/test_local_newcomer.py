"""The terminal as a newcomer meets it (issue 35), typed line by line: where its files go, a match found
after a restart, the hot seat's privacy, moves as one types them, "did you mean", resigning, the wording."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot import i18n
from bot.computer import ComputerPlayers
from bot.games.geyser import GEYSER
from bot.games.horizon import HORIZON
from bot.local import Terminal
from bot.local.terminal import first_game
from bot.service import MatchService
from bot.store import Store
from renderers.geyser import _choice_text
from tests.conftest import TEST_GAMES
from tests.test_computer import InlineExecutor

ROOT = Path(__file__).resolve().parent.parent


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    """Type a line and return what it printed."""
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def opened(database: Path, fake_time, closing: list) -> tuple[Terminal, list[str]]:
    """A terminal on its own SQLite database, with no folder given: it picks its own (as `python -m bot`)."""
    store = await Store.open(database, TEST_GAMES)
    service = MatchService(store, fake_time)
    await service.start()
    closing.append((service, store))
    out: list[str] = []
    return Terminal(service, write=out.append), out


@pytest.fixture
async def closing():
    opened: list = []
    yield opened
    for service, store in opened:
        await service.close()
        await store.close()


# --- where the files go ---


async def test_two_databases_keep_their_pictures_and_records_apart(tmp_path: Path, fake_time, closing) -> None:
    first, first_out = await opened(tmp_path / "data" / "bot.sqlite3", fake_time, closing)
    second, second_out = await opened(tmp_path / "data" / "club.sqlite3", fake_time, closing)
    await run(first, first_out, "fish new alice bob --seed 5")
    await run(second, second_out, "volcano new carol dan")  # match #1 too, in its own database
    assert first.saved[0].parent == tmp_path / "data" / "renders" / "bot"
    assert second.saved[0].parent == tmp_path / "data" / "renders" / "club"
    assert first.saved[0].name == second.saved[0].name == "match-1-ply-000-started.png"
    assert first.saved[0].read_bytes() != second.saved[0].read_bytes()  # a fish board, not the Volcano one
    for terminal, out in ((first, first_out), (second, second_out)):
        game = "fish" if terminal is first else "volcano"
        await run(terminal, out, f"{game} resign")
        await run(terminal, out, "yes")
        said = await run(terminal, out, f"{game} record")
        assert said.startswith("Record of match #1: ")
        assert Path(said.split(": ", 1)[1]).parent == tmp_path / "data" / "records" / terminal.out_dir.name
    assert (tmp_path / "data" / "records" / "bot" / "fish-match-1.json").exists()
    assert (tmp_path / "data" / "records" / "club" / "volcano-match-1.json").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
async def test_git_status_stays_clean_after_a_game_a_record_and_a_replay(tmp_path: Path, fake_time, closing) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / ".gitignore", project / ".gitignore")
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", ".gitignore"], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    terminal, out = await opened(project / "data" / "bot.sqlite3", fake_time, closing)
    elsewhere, elsewhere_out = await opened(project / "games" / "club.sqlite3", fake_time, closing)
    for line in ("fish new alice bob --seed 5", "fish move A1", "fish resign", "yes", "fish record"):
        await run(terminal, out, line)
    record = out[-1].split(": ", 1)[1]
    assert "Replayed" in await run(terminal, out, f"replay {record}")
    for line in ("fish new alice bob --seed 5", "fish resign", "yes", "fish record"):
        await run(elsewhere, elsewhere_out, line)
    written = [*terminal.saved, Path(record), *elsewhere.saved]
    assert all(project in path.parents for path in written)  # the outputs are in the project's folders
    status = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=all"], check=True, capture_output=True, text=True
    ).stdout
    assert status and all(line.startswith("?? games/club.sqlite3") for line in status.splitlines()), status
    # (only that database's own files: where a database is kept is the user's choice)


# --- a match found after a restart ---


async def test_the_lone_running_match_is_found_after_a_restart(
    open_service: Callable[[], Awaitable[MatchService]], tmp_path: Path
) -> None:
    first = await open_service()
    await first.start()
    out: list[str] = []
    before = Terminal(first, tmp_path / "renders", out.append)
    await run(before, out, "fish new alice bob --seed 5")
    await run(before, out, "themiscyra new carol dan")
    await first.close()

    second = await open_service()
    for match in await second.start():
        await Terminal(second, tmp_path / "renders", out.append).back(match)
    assert "Back after a restart." in out[-1] and "fresh move clock" not in "\n".join(out)  # untimed games
    after = Terminal(second, tmp_path / "renders", out.append)
    text = await run(after, out, "fish move A1")
    assert text.startswith('On match #1, the only running "1, 2, 3" match.')
    assert "alice places a token on A1." in text and after.current == 1
    again = Terminal(second, tmp_path / "renders", out.append)
    assert "2 matches are running (#1 and #2): pick one with use ID" in await run(again, out, "mod pause")
    await run(again, out, "fish new carol dan --seed 5")
    latest = Terminal(second, tmp_path / "renders", out.append)
    text = await run(latest, out, "fish move A1 --as carol")  # two fish matches: carol plays in one
    assert text.startswith('On match #3, the only running "1, 2, 3" match that carol plays in.')


async def test_a_restart_says_a_fresh_move_clock_only_where_there_is_a_clock(terminal: Terminal, out) -> None:
    await run(terminal, out, "fish new alice bob --clock 30/60 --seed 5")
    match = await terminal.service.get(1)
    await terminal.back(match)
    assert "Back after a restart: a fresh move clock, reserves unchanged." in out[-1]


# --- the hot seat's privacy ---


async def test_event_horizon_shows_a_hand_only_once_the_screen_is_passed(terminal: Terminal, out, service) -> None:
    await run(terminal, out, "horizon new alice bob --seed 3")
    hand = service.running()[0].state.hands[0]
    asked = await run(terminal, out, "horizon moves")
    assert asked == (
        "The legal moves show alice's hand, so they are for alice's eyes only: pass the screen to alice, then press"
        " Enter."
    )
    assert not any(card in asked for card in hand)
    shown = await run(terminal, out, "")  # Enter: the screen is alice's now
    assert shown.startswith("80 legal moves in 5 groups:") and all(card in shown for card in set(hand) - {"SW"})
    await run(terminal, out, "horizon hand")
    text = await run(terminal, out, "horizon history")  # another line instead of Enter: nothing is shown
    assert text == "Not shown: alice's cards stay hidden.\nMatch #1: no moves yet."
    assert "alice, for your eyes only" not in "\n".join(out)


async def test_the_moves_of_a_computers_hand_are_shown_to_nobody(terminal: Terminal, out, service) -> None:
    await run(terminal, out, "horizon new computer alice --seed 3")
    said = await run(terminal, out, "horizon moves")
    assert said == "✗ Computer's moves would show its hand, and a computer shows its cards to nobody."


async def test_moves_are_listed_as_one_types_them_and_found_by_any_part(terminal: Terminal, out, service) -> None:
    await run(terminal, out, "horizon new alice bob --seed 0")
    for _ in range(60):  # play on until the player to move can swap
        match = service.running()[0]
        legal = HORIZON.legal_moves(match.state)
        if any(move.startswith("swap") for move in legal):
            break
        await run(terminal, out, f"horizon move {legal[0]}")
    await run(terminal, out, "horizon moves swap")
    listed = (await run(terminal, out, "")).splitlines()
    assert re.fullmatch(r"\d+ of \d+ legal moves match swap, in \d+ groups?:", listed[0]), listed
    for line in listed[1:]:  # `swap B3 (3): swap me:1 B3, swap me:2 B3, swap me:3 B3`
        label, moves = line.split(": ", 1)
        card = label.split()[1]
        assert all(re.fullmatch(rf"swap me:[1-8] {card}", move) for move in moves.split(", ")), line
    typed = listed[1].split(": ", 1)[1].split(", ")[0]
    await run(terminal, out, "horizon moves opp:5")
    found = (await run(terminal, out, "")).splitlines()
    assert re.fullmatch(r"\d+ of \d+ legal moves match(es)? opp:5, in \d+ groups?:", found[0]), found
    assert len(found) > 1 and all(line.startswith("place ") and line.endswith(": opp:5") for line in found[1:])
    ply = match.ply
    await run(terminal, out, f"horizon move {typed}")  # what the listing shows is what one types
    assert (await service.get(match.id)).ply == ply + 1


# --- did you mean ---


async def test_a_typo_gets_the_nearest_command_game_option_or_setting(terminal: Terminal, out) -> None:
    cases = {
        "fsh move F3": "✗ Unknown command 'fsh'; type help for the list. Did you mean fish?",
        "fish mvoe A1": "Did you mean move?",
        "help horizn": "Did you mean horizon?",
        "leaderboard volcan": "Did you mean volcano?",
        "fish new alice bob --clok 10/5": "Did you mean --clock?",
        "tournament new fsh swiss": "Did you mean fish?",
        "settings set house_win off": "Did you mean house_wins?",
    }
    for line, said in cases.items():
        assert said in await run(terminal, out, line), line
    refused = await run(terminal, out, "settings set colour red")
    assert refused == (
        "✗ There is no setting 'colour': the terminal's settings are house_wins, rated, default_clock, reminder_every,"
        " reminder_count, away_days, claim_after."
    )
    assert "Did you mean" not in await run(terminal, out, "dance")


# --- resigning ---


async def test_resign_asks_first(terminal: Terminal, out, service) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    assert await run(terminal, out, "fish resign") == (
        'alice, resign match #1 ("1, 2, 3")? Type yes to resign, no to play on.'
    )
    assert await run(terminal, out, "no") == "Not resigned: match #1 goes on."
    await run(terminal, out, "fish resign")
    text = await run(terminal, out, "fish move A1")  # another command instead: it runs, nobody resigns
    assert text.startswith("Not resigned: match #1 goes on.\n") and "alice places a token on A1." in text
    await run(terminal, out, "fish resign")
    assert "Game over: alice wins (bob resigned)." in await run(terminal, out, "yes")
    assert not (await service.get(1)).running


# --- wording ---


async def test_a_death_match_gives_the_winners_score_first(terminal: Terminal, out) -> None:
    await run(terminal, out, "fish dm alice bob --first alice")
    for loser in ("bob", "alice", "alice"):
        await run(terminal, out, f"fish resign --as {loser}")
        await run(terminal, out, "yes")
    assert "bob wins the death match, 2–1 in games." in "\n".join(out)


async def test_the_terminal_speaks_of_its_own_commands_and_players(terminal: Terminal, out) -> None:
    rules = await run(terminal, out, "horizon rules")
    assert "yours to see: horizon hand." in rules and "/horizon" not in rules
    await run(terminal, out, "fish new alice bob --seed 5")
    mine = await run(terminal, out, "mygames alice")
    assert mine.startswith("alice's running matches: 1, alice's turn in 1.\nalice's turn: #1") and "here" not in mine
    await run(terminal, out, "fish resign")
    await run(terminal, out, "yes")
    assert await run(terminal, out, "fish analysis") == (
        "✗ Match #1 ended before its first move: with no moves, there are no chances to follow."
    )


def test_geysers_panel_says_pass_when_pass_is_the_only_move() -> None:
    state = GEYSER.play(GEYSER.new(2, 1), "start f1")  # the second player starts on f11 and is to move
    seat = state.turn
    board = [None if held is not None and held[0] == seat else held for held in state.board]
    for square in state.start_squares:
        board[square] = (1 - seat, 1)  # every start taken, and no token of theirs on the island
    boxed = dataclasses.replace(state, board=tuple(board))
    assert GEYSER.legal_moves(boxed) == ["pass"]
    assert i18n.unmarked(_choice_text(boxed, seat)) == "No move is possible: pass."
    assert i18n.unmarked(_choice_text(state, seat)).startswith("Move a token one square.")


# --- the first game in five lines ---


async def test_the_first_game_of_the_help_plays_as_written(terminal: Terminal, out, service) -> None:
    assert "\n".join([i18n.unmarked(line) for line in first_game()]) in await run(terminal, out, "help")
    typed = [line.removeprefix("> ").split("  ")[0] for line in [i18n.unmarked(line) for line in first_game()][1:]]
    assert typed == ["fish new alice computer", "fish moves", "fish move A2", "fish board --text", "fish resign"]
    computers = ComputerPlayers(service, executor=InlineExecutor())
    assert "alice vs Computer." in await run(terminal, out, typed[0])
    listed = (await run(terminal, out, typed[1])).splitlines()
    assert listed[1].startswith("place (")
    placeable = listed[1].split(": ", 1)[1].split()
    move = typed[2] if "A2" in placeable else f"fish move {placeable[0]}"  # the example, or one of those listed
    assert "alice places a token on" in await run(terminal, out, move)
    await computers.idle()
    assert "Computer places a token on" in "\n".join(out)
    assert "alice (orange) to move" in await run(terminal, out, typed[3])
    assert "Type yes to resign" in await run(terminal, out, typed[4])
    assert "Game over: Computer wins (alice resigned)." in await run(terminal, out, "yes")
    await computers.close()


def test_the_readme_shows_the_same_first_game() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "A first game, in five lines" in readme
    for line in [i18n.unmarked(line) for line in first_game()][1:]:
        assert f"{line}\n" in readme, line
