"""The animated replay (renderers/replay.py): one frame per move, sampled for long games with the first
and last positions kept, under the size limit, and drawn only from what spectators may see."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games import GAMES
from renderers import render
from renderers.draw import Caption
from renderers.replay import LAST_MS, sample
from renderers.replay import replay_gif as build
from tests.test_discord_horizon import scrambled


def random_states(key: str, plies: int, seed: int = 2, **options: Any) -> list[Any]:
    game = GAMES[key]
    state = game.new(2, seed, **options)
    states, rng = [state], random.Random(seed)
    while len(states) <= plies and game.to_move(state) is not None:
        state = game.play(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame as RGB with its duration."""
    out = []
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF" and image.is_animated
        for index in range(image.n_frames):
            image.seek(index)
            out.append((image.convert("RGB"), image.info["duration"]))
    return out


def difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def test_sampling_keeps_the_first_and_last_frames() -> None:
    assert sample(5, 10) == [0, 1, 2, 3, 4]
    kept = sample(1000, 100)
    assert len(kept) == 100 and kept[0] == 0 and kept[-1] == 999 and kept == sorted(set(kept))
    assert sample(3, 1) == [2]


@pytest.mark.parametrize("key", ["fish", "volcano"])
def test_one_frame_per_move_with_the_last_one_held(key: str) -> None:
    states = random_states(key, 12)
    shown = frames(build(key, states, names=("alice", "bob"), title="Match #1"))
    assert len(shown) == len(states)
    assert [d for _, d in shown] == [800] * (len(states) - 1) + [LAST_MS]
    # each frame is the position it stands for, as a spectator's board shows it
    for index in (0, len(states) - 1):
        header = "Match #1 · start" if index == 0 else f"Match #1 · move {index} of {len(states) - 1}"
        png = render(key, states[index], None, caption=Caption(names=("alice", "bob"), header=header))
        drawn = Image.open(io.BytesIO(png)).convert("RGB")
        other = shown[len(states) - 1 - index][0]
        assert difference(shown[index][0], drawn) < difference(other, drawn) / 4


def test_a_long_game_is_sampled_and_kept_under_the_size_limit() -> None:
    states = random_states("geyser", 300, rounds=1000)  # past the default cap of 100 rounds
    assert len(states) == 301
    data = build("geyser", states, max_frames=40)
    shown = frames(data)
    assert len(shown) == 40
    first = frames(build("geyser", states[:1] + states[:1]))[0][0]  # "start" header either way
    assert difference(shown[0][0], first) < 1.0

    small = build("geyser", states, max_frames=40, max_bytes=300_000)
    assert len(small) <= 300_000
    smaller = frames(small)
    assert len(smaller) == 40 and smaller[0][0].width < shown[0][0].width


def test_event_horizon_frames_show_no_hidden_card() -> None:
    states = random_states("horizon", 30, seed=5)
    hidden_changed = [scrambled(state) for state in states]
    assert GAMES["horizon"].dumps(hidden_changed[-1]) != GAMES["horizon"].dumps(states[-1])
    assert build("horizon", states) == build("horizon", hidden_changed)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="no board renderer"):
        build("chess", [object()])
    with pytest.raises(ValueError, match="at least one position"):
        build("fish", [])
