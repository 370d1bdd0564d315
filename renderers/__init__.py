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
from renderers.alt_text import describe
from renderers.draw import Caption, SeatClock, to_png
from renderers.panel import Panel

Drawer = Callable[[Any, int | None, Caption], Image.Image]
"""(view, viewer, caption) -> image; the viewer lets a game mark "you" or show a hand face up."""
DRAWERS: dict[str, Drawer] = {
    "fish": fish.draw,
    "geyser": geyser.draw,
    "horizon": horizon.draw,
    "themiscyra": themiscyra.draw,
    "volcano": volcano.draw,
}
PANELS: dict[str, tuple[Callable[[Any, int | None, Caption], Panel], int]] = {
    "fish": (fish.panel, fish.PANEL_LEFT - 4),
    "geyser": (geyser.panel, geyser.PANEL_LEFT - 4),
    "horizon": (horizon.panel, horizon.PANEL_LEFT - 4),
    "themiscyra": (themiscyra.panel, themiscyra.PANEL_LEFT - 4),
    "volcano": (volcano.panel, volcano.PANEL_LEFT - 4),
}
"""Each game's side panel (renderers/panel.py): the facts of a view, and where its column starts; `draw`
lays it out from there to the right edge. Tests lay panels out to check every text fits."""


def render(key: str, state: Any, viewer: int | None = None, *, caption: Caption | None = None) -> bytes:
    """The PNG of `state` as seat `viewer` (None: a spectator) sees it, with names, clocks and a header."""
    if key not in GAMES or key not in DRAWERS:
        known = ", ".join(sorted(set(GAMES) & set(DRAWERS)))
        raise ValueError(f"no board renderer for game {key!r} (known: {known}).")
    view = GAMES[key].view(state, viewer)
    return to_png(DRAWERS[key](view, viewer, caption or Caption()))


__all__ = ["DRAWERS", "Caption", "SeatClock", "describe", "render"]
