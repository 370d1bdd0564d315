"""Board images: `render(key, state, viewer)` draws what that viewer may see, as PNG bytes.

Each game has a module with `draw(view, viewer, caption) -> PIL.Image`, named by its registration
(bot/games/registration.py), from which `DRAWERS` and `PANELS` are built. The image is always drawn from
`game.view(state, viewer)`, never from the full state, so hidden information cannot leak into a picture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.games import GAMES, REGISTRY
from bot.games.registration import resolve
from renderers.alt_text import describe
from renderers.draw import Caption, SeatClock
from renderers.panel import Panel
from renderers.png import to_png

Drawer = Callable[[Any, int | None, Caption], Image.Image]
"""(view, viewer, caption) -> image; the viewer lets a game mark "you" or show a hand face up."""
_MODULES = {key: resolve(registration.renderer) for key, registration in REGISTRY.items()}
DRAWERS: dict[str, Drawer] = {key: module.draw for key, module in _MODULES.items()}
PANELS: dict[str, tuple[Callable[[Any, int | None, Caption], Panel], int]] = {
    key: (module.panel, module.PANEL_LEFT - 4) for key, module in _MODULES.items()
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
