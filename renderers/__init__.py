"""Board images: `render(key, state, viewer)` draws what that viewer may see, as PNG bytes.

Each game has a module with `draw(view, viewer, caption) -> PIL.Image`; adding a game is one entry in
`DRAWERS`. The image is always drawn from `game.view(state, viewer)`, never from the full state, so
hidden information cannot leak into a picture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.games import GAMES
from renderers import fish, geyser, horizon, themiscyra, volcano
from renderers.draw import Caption, SeatClock, to_png

Drawer = Callable[[Any, int | None, Caption], Image.Image]
"""(view, viewer, caption) -> image; the viewer lets a game mark "you" or show a hand face up."""
DRAWERS: dict[str, Drawer] = {
    "fish": fish.draw,
    "geyser": geyser.draw,
    "horizon": horizon.draw,
    "themiscyra": themiscyra.draw,
    "volcano": volcano.draw,
}


def render(key: str, state: Any, viewer: int | None = None, *, caption: Caption | None = None) -> bytes:
    """The PNG of `state` as seat `viewer` (None: a spectator) sees it, with names, clocks and a header."""
    if key not in GAMES or key not in DRAWERS:
        known = ", ".join(sorted(set(GAMES) & set(DRAWERS)))
        raise ValueError(f"no board renderer for game {key!r} (known: {known}).")
    view = GAMES[key].view(state, viewer)
    return to_png(DRAWERS[key](view, viewer, caption or Caption()))


__all__ = ["DRAWERS", "Caption", "SeatClock", "render"]
