"""Discord cogs: one GroupCog per game (on the shared GameCog), /mod, and general commands."""

from __future__ import annotations

from bot.games import REGISTRY
from bot.wording import listing

START_COMMANDS = listing([f"`/{key} {registration.start}`" for key, registration in REGISTRY.items()], "or")
"""Every game's start command, for the answers that find no match: "`/fish challenge`, `/volcano new`, ..."."""
