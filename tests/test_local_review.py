"""The terminal's `review MATCH [MOVE]`, `n`, `p`, `first`, `last`, `moment N`, typed as a user types them:
a whole game of each game stepped through, every saved picture and printed position checked against the
position the move log gives."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot import i18n, move_log, review
from bot.games import GAMES
from bot.local import Terminal
from bot.service import MatchService
from renderers import DRAWERS, describe
from renderers.png import to_png

NEW = {key: f"{key} new alice bob --seed 3" for key in GAMES}
NEW["themiscyra"] = "themiscyra new alice bob"


async def run(terminal: Terminal, out: list[str], line: str) -> str:
    before = len(out)
    assert await terminal.handle(line)
    return "\n".join(out[before:])


async def play_out(terminal: Terminal, out: list[str], service: MatchService, rng: random.Random, most: int) -> Any:
    """Random legal moves typed as the player to move, until the game is over (or `most` moves)."""
    for _ in range(most):
        match = await service.get(1)
        if not match.running:
            break
        game = GAMES[match.game]
        move = rng.choice(game.legal_moves(match.state))
        name = match.players[game.to_move(match.state)].name
        text = await run(terminal, out, f"{match.game} move {move} --as {name}")
        assert "✗" not in text, text
    return await service.get(1)


def saved(text: str) -> Path:
    return Path(text.split("picture: ", 1)[1].splitlines()[0])


@pytest.mark.parametrize("key", list(GAMES))
async def test_every_move_of_a_whole_game_is_shown_as_the_log_gives_it(
    terminal: Terminal, out: list[str], service: MatchService, key: str
) -> None:
    await run(terminal, out, NEW[key])
    match = await play_out(terminal, out, service, random.Random(1), 2_000)
    assert not match.running
    log = await service.log(1)
    positions = move_log.positions(GAMES[key], 2, match.seed, match.options, log)
    last = len(positions) - 1
    text = await run(terminal, out, "review 1 0")
    assert "Step with n, p, first, last, moment N." in text
    for ply, state in enumerate(positions):
        if ply:
            text = await run(terminal, out, "n")
        shown = replace(state, seed=None) if key == "horizon" else GAMES[key].view(state, None)
        caption = review.caption(review.replay(match, log), ply)
        assert saved(text).read_bytes() == to_png(DRAWERS[key](shown, None, caption)), ply
        assert f"move {ply} of {last}" in text.splitlines()[0]
        assert f"→ {ply}. " in text  # the shown move, marked in the list around it
        assert f"Move {ply} of {last} of match #1." in text  # the position in words
    assert f"move {last} of {last}" in await run(terminal, out, "n")  # no further than the end
    assert "move 0 of" in await run(terminal, out, "first")
    assert "move 0 of" in await run(terminal, out, "p")
    assert f"move {last} of" in await run(terminal, out, "last")
    assert f"move {last - 1} of" in await run(terminal, out, "p")


async def test_moments_refusals_and_a_running_event_horizon_game(
    terminal: Terminal, out: list[str], service: MatchService
) -> None:
    assert "Nothing is being reviewed" in await run(terminal, out, "n")
    await run(terminal, out, NEW["horizon"])
    match = await play_out(terminal, out, service, random.Random(4), 26)
    assert match.running
    log = await service.log(1)
    positions = move_log.positions(GAMES["horizon"], 2, match.seed, match.options, log)
    text = await run(terminal, out, "review 1")  # the newest position, as a spectator sees it
    assert f"move {len(positions) - 1} of" in text and "Your hand" not in text
    listed = [line for line in text.splitlines() if line.startswith("  ") and ". Move " in line]
    assert listed, text  # the key moments, numbered
    number, label = listed[0].strip().split(". ", 1)
    ply = int(label.split(":")[0].removeprefix("Move "))
    assert f"move {ply} of" in await run(terminal, out, f"moment {number}")
    assert "There is no moment 99" in await run(terminal, out, "moment 99")
    alice = await run(terminal, out, "review 1 5 --as alice")  # alice's own hand, as it was then
    caption = review.caption(review.replay(match, log), 5)
    lead = f"Move 5 of {len(positions) - 1} of match #1."
    assert i18n.unmarked(describe("horizon", positions[5], caption, viewer=0, lead=lead)) in alice
    assert "Your hand:" in alice and "-as-alice.png" in alice
    assert "✗" in await run(terminal, out, "review 1 -2")
    assert "✗" in await run(terminal, out, "review 1 2 3")
