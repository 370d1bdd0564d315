"""Animated replays: one GIF frame per move, drawn from the spectator's view.

Every frame is drawn from `game.view(state, None)`, like a public board post, so no hidden card can
show. Long games are sampled down to `max_frames` (the first and last positions always kept, the rest
evenly spread), and if the file is still over `max_bytes` the frames are shrunk until it fits: a
Discord upload limit (8 MB without boosts) is a hard wall, a slightly smaller picture is not.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image

from bot.games import GAMES
from bot.i18n import _
from renderers import DRAWERS
from renderers.draw import Caption

FRAME_MS = 800
"""How long each move stays on screen: slow enough to follow a move, quick enough to watch a game."""
LAST_MS = 4000
"""The final position is held longer, so the result can be read before the loop starts again."""
MAX_FRAMES = 100
"""Longer games are sampled down to this many frames (it also bounds the time a replay takes to build)."""
MAX_BYTES = 7 * 1024 * 1024
"""Under Discord's 8 MB upload limit for a server without boosts, with room for the final board PNG."""


def sample(count: int, max_frames: int = MAX_FRAMES) -> list[int]:
    """Indices of the frames to keep out of `count`: all of them if few, else evenly spread, always with
    the first and the last."""
    if count <= max_frames:
        return list(range(count))
    if max_frames < 2:
        return [count - 1]
    step = (count - 1) / (max_frames - 1)
    return sorted({round(i * step) for i in range(max_frames)})


def replay_gif(
    game_key: str,
    states: Sequence[Any],
    *,
    names: Sequence[str] = (),
    title: str | None = None,
    result: str | None = None,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated GIF of `states` (the start, then the position after each move).

    The header of each frame says which move it shows ("move 12 of 40"); `result` (how a game ended off
    the board: time, resignation) is written on the last frame.
    """
    if game_key not in GAMES or game_key not in DRAWERS:
        raise ValueError(f"no board renderer for game {game_key!r}.")
    if not states:
        raise ValueError("a replay needs at least one position.")
    game, draw = GAMES[game_key], DRAWERS[game_key]
    moves = len(states) - 1
    keep = sample(len(states), max_frames)
    frames = []
    for index in keep:
        if index == 0:
            header = _("{title} · start").format(title=title) if title else _("Start")
        elif title:
            header = _("{title} · move {number} of {moves}").format(title=title, number=index, moves=moves)
        else:
            header = _("Move {number} of {moves}").format(number=index, moves=moves)
        caption = Caption(names=tuple(names), header=header, result=result if index == moves else None)
        frames.append(draw(game.view(states[index], None), None, caption).convert("RGB"))
    frames = same_size(frames)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    scale = 1.0
    while True:
        data = _encode(frames, durations, scale)
        if len(data) <= max_bytes or scale < 0.2:
            return data
        scale *= 0.8 * (max_bytes / len(data)) ** 0.5  # area shrinks with the square of the scale


def same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Every frame on a canvas of the largest one's size (a game's pictures keep one size, so this only
    guards the rule): a GIF's screen is its first frame's size, and a viewer may cut what lies outside it."""
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    out = []
    for frame in frames:
        if frame.size != (width, height):
            canvas = Image.new("RGB", (width, height), frame.getpixel((0, frame.height - 1)))
            canvas.paste(frame, (0, 0))
            frame = canvas
        out.append(frame)
    return out


def _encode(frames: list[Image.Image], durations: list[int], scale: float) -> bytes:
    """Frames share one palette (taken from the first and last positions), so unchanged areas between
    frames compare equal and the GIF encoder stores only what a move changed."""
    if scale < 1.0:
        size = (max(1, round(frames[0].width * scale)), max(1, round(frames[0].height * scale)))
        frames = [frame.resize(size, Image.Resampling.LANCZOS) for frame in frames]
    reference = _palette_source(frames)
    palette = reference.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    paletted = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    out = io.BytesIO()
    paletted[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


def _palette_source(frames: list[Image.Image]) -> Image.Image:
    """A strip of the first, middle and last frames: between them they show nearly every colour used."""
    picks = [frames[0], frames[len(frames) // 2], frames[-1]]
    strip = Image.new("RGB", (frames[0].width, frames[0].height * len(picks)))
    for i, frame in enumerate(picks):
        strip.paste(frame, (0, i * frames[0].height))
    return strip
