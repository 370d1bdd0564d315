"""The offline terminal front-end driven line by line, on a real database with a fake clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.local import Terminal
from bot.models import OVER
from bot.service import MatchService
from tests.conftest import eventually


@pytest.fixture
def out(tmp_path: Path) -> list[str]:
    return []


@pytest.fixture
def terminal(service: MatchService, tmp_path: Path, out: list[str]) -> Terminal:
    return Terminal(service, tmp_path / "renders", out.append)


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    """Run a command and return what it printed."""
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def test_a_casual_game_posts_a_png_after_every_move(terminal: Terminal, out: list[str]) -> None:
    text = await run(terminal, out, "fish new alice bob --seed 5")
    assert "alice vs bob" in text and "alice to move" in text
    text = await run(terminal, out, "fish move a1")
    assert "alice places a token on A1." in text and "bob to move" in text
    assert len(terminal.saved) == 2
    for path in terminal.saved:
        assert f"board: {path}" in "\n".join(out)
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 760


async def test_bad_commands_are_explained_and_change_nothing(terminal, out, service: MatchService) -> None:
    assert "No match yet" in await run(terminal, out, "fish move D4")
    await run(terminal, out, "fish new alice bob --seed 5")
    match_id = terminal.current
    cases = {
        "fish move A4": "A4 is worth 3: tokens are placed on 1-tiles",
        "fish move A1-C1": "tokens are still being placed",
        "fish move A1 --as bob": "It is alice's turn, not yours",
        "fish move A1 --as carol": "'carol' is not playing",
        "fish move": "Give one move",
        "fish new alice alice": "different names",
        "fish new alice bob --clock x/60": "must be a number",
        "fish new alice bob --colour red": "Unknown option --colour",
        "fish dm alice bob": "needs --first",
        "fish dm alice bob --first carol": "--first must be one of the players",
        "fish jump": "Unknown fish command",
        "mod pause": "no clock",
        "mod addtime alice": "Use: mod addtime",
        "use 99": "There is no match #99",
        "dance": "Unknown command",
        'fish move "A1': "Can't read that",
    }
    for line, message in cases.items():
        assert message in await run(terminal, out, line), line
    match = await service.get(match_id)
    assert match.ply == 0 and await service.moves(match_id) == []


async def test_moves_history_rules_and_games(terminal: Terminal, out: list[str]) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    assert (await run(terminal, out, "fish moves")).startswith("30 legal moves: A1 A2 A3")
    await run(terminal, out, "fish move A1")
    assert "1. alice: A1" in await run(terminal, out, "fish history")
    assert "straight line" in await run(terminal, out, "fish rules")
    assert "alice vs bob — bob to move" in await run(terminal, out, "games")


async def test_a_death_match_flag_starts_the_next_game_with_the_other_placer(
    terminal: Terminal, out: list[str], service: MatchService, fake_time
) -> None:
    await run(terminal, out, "fish dm alice bob --first bob")
    game1 = terminal.current
    assert "bob to move — 0:30 a move + 1:00 reserve" in "\n".join(out)
    fake_time.advance(92)  # bob never moves
    await eventually(lambda: "game 2 of the death match" in "\n".join(out))
    text = "\n".join(out)
    assert "bob's reserve time ran out" in text and "game 2 of the death match" in text
    assert (await service.get(game1)).status == OVER
    assert "alice to move" in text.split("game 2 of the death match")[1]  # alice places first in game 2


async def test_moderator_commands(terminal: Terminal, out: list[str], service: MatchService, fake_time) -> None:
    await run(terminal, out, "fish dm alice bob --first alice --move 10 --reserve 5")
    assert "moderator paused the match" in await run(terminal, out, "mod pause")
    assert "paused by a moderator" in await run(terminal, out, "fish move A1")
    fake_time.advance(600)
    await service.sweep()
    assert "the clock runs again" in await run(terminal, out, "mod resume")
    assert "+0:30 for bob: reserve now 0:35" in await run(terminal, out, "mod addtime bob 30")
    assert "#1" in await run(terminal, out, "mod list")
    assert "aborted match #1" in await run(terminal, out, "mod abort")
    assert "No matches are running" in await run(terminal, out, "games")


async def test_quit_ends_the_loop(terminal: Terminal) -> None:
    assert await terminal.handle("quit") is False


async def test_a_flagged_game_is_posted_with_its_result_not_a_turn(
    terminal: Terminal, out: list[str], service: MatchService, fake_time
) -> None:
    from bot import posts

    await run(terminal, out, "fish new alice bob --clock 10/5 --seed 5")
    match_id = terminal.current
    fake_time.advance(17)
    await eventually(lambda: "reserve time ran out" in "\n".join(out))
    over = await service.get(match_id)
    caption = posts.caption(service, over, fake_time.now())
    assert caption.result == "Game over: bob wins (alice's reserve time ran out)."
    assert "to move" not in posts.status_lines(service, over)[-1]
    assert "\n".join(out).count("Game over:") == 1  # said once: the notice tells what happened, not the result


async def test_undo_and_adjudicate_from_the_terminal(terminal: Terminal, out: list[str], service: MatchService) -> None:
    await run(terminal, out, "fish new alice bob --seed 5")
    await run(terminal, out, "fish move A1")
    text = await run(terminal, out, "mod undo")
    assert "moderator took back alice's move A1." in text and "alice to move" in text and "board:" in text
    history = await run(terminal, out, "fish history")
    assert "1. alice: A1" in history and "2. (a moderator took back alice's A1)" in history
    assert "Use: mod adjudicate" in await run(terminal, out, "mod adjudicate")
    assert "bob wins (adjudicated by moderator)" in await run(terminal, out, "mod adjudicate bob")
