"""What the bot needs of a game beyond its rules, in one place: a `Registration` per game, written at the end
of the game's own module (bot/games/<key>.py), and `REGISTRY` in bot/games/__init__.py listing them.

Every table a front-end keeps by game key (renderers' `DRAWERS` and `PANELS`, alt text's `WORDS`, the Discord
bot's `EXTENSIONS`, the terminal's commands, the computer's model, the analysis budget) is derived from it, so
adding a game touches its own files and one registry line. The parts above the engine (renderers, cogs,
computer models) import the engine, so a registration names them by dotted path ("renderers.fish",
"bot.cogs.fish", "bot.ai.fish:MODEL") and `resolve` loads them where they are used: engines stay pure and
import nothing above them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from bot.games.base import AnyGame
from bot.i18n import _


@dataclass(frozen=True, slots=True)
class Typed:
    """The game in the terminal (bot/local/): its `new`, whose flags come from the engine's options, how a
    move is typed, and the commands of its own.

    The help's words (`example`, `note`, `moves`) are written in English, marked `N_` where the game
    registers, and said in the reader's language when read; what a player types in them (commands, moves,
    names) stays as it is."""

    players: str
    """How `new` names the players: "ALICE BOB [CAROL DAN]" (usage `geyser new ALICE BOB [CAROL DAN]`)."""
    example_text: str
    """An example of `new`, for a wrong number of players: "geyser new alice bob carol" (English: `example`)."""
    note_text: str
    """What `new` starts, the end of its help line: "2 to 4 players" (English: `note` says it)."""
    moves_text: str
    """How a move is typed, for `move` without one and the help: "one move, like: fish move D4-F3 (...)"
    (English: `moves` says it)."""
    commands: tuple[str, ...] = ()
    """The terminal commands of its own beyond `new` (and `dm`, for death matches): ("hand",)."""
    seed: bool = True
    """Whether `new` takes `--seed N` (Themiscyra has no chance: no seed)."""

    @property
    def example(self) -> str:
        """An example of `new`, in the reader's language."""
        return _(self.example_text)

    @property
    def note(self) -> str:
        """What `new` starts, in the reader's language."""
        return _(self.note_text)

    @property
    def moves(self) -> str:
        """How a move is typed, in the reader's language."""
        return _(self.moves_text)


@dataclass(frozen=True, slots=True)
class Registration:
    """One game's parts: the engine, and by dotted path the parts above it."""

    engine: AnyGame
    renderer: str
    """The module that draws it (renderers/<key>.py): `draw(view, viewer, caption)`, `panel(...)` and
    `PANEL_LEFT`, where its side panel starts."""
    words: str
    """The function that says a view in words for alt text and text boards ("renderers.alt_text:fish")."""
    cog: str
    """Its Discord extension ("bot.cogs.fish"), loaded by the bot with the others."""
    start: str
    """The subcommand that starts a match on Discord: "challenge" (two players) or "new" (a lobby)."""
    typed: Typed
    model: str | None
    """The computer's model ("bot.ai.fish:MODEL"); None: the slow `PublicModel` built on the contract."""
    analysis_iterations: int
    """Playouts per analysed position (bot/analysis.py): a fixed count, so an analysis is repeatable."""
    death_matches: bool = False
    """Whether it plays best-of-3 death matches (`/fish dm`, the terminal's `fish dm`)."""
    overlays: tuple[str, ...] = ()
    """What its board can show on request (Themiscyra's open "areas"): `board --areas` in the terminal."""
    moments: tuple[str, ...] = ()
    """Words of an event line (`events`) that make its move a key moment of a review (bot/review.py): a
    battle, a capture, an island."""
    revealed: str | None = None
    """For a game with hidden information: the function giving a finished game's earlier position with
    nothing hidden, as its final board shows it ("bot.games.horizon:revealed"); None: `view(state, None)`."""

    @property
    def key(self) -> str:
        return self.engine.key


def resolve(path: str) -> Any:
    """The module a dotted path names ("renderers.fish"), or the attribute after its colon ("bot.ai.fish:MODEL")."""
    module, _, name = path.partition(":")
    found = importlib.import_module(module)
    return getattr(found, name) if name else found
