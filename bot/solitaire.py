"""Best Volcano solitaire scores in a server, per opening and layout.

volcano.md: "Servers keep best scores per opening and layout, so a solitaire challenge is 'beat the best
score on this seed'". Nothing extra is stored: finished one-player matches are the record, and a random
(latin) layout is shown as its 25 letters so anyone can replay it with `layout:`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.volcano import latin_layout, parse_opening
from bot.models import Match, Player
from bot.service import MatchService
from bot.wording import noun_for


@dataclass(frozen=True, slots=True)
class Best:
    """The best score for one (opening, layout): the first to reach it keeps it."""

    score: float
    player: Player
    opening: str
    layout: str
    match_id: int


def layout_of(match: Match) -> str:
    """`classic`, or the 25 colour letters column by column in groups of five (a form `layout` accepts)."""
    layout = match.state.layout
    if layout == "classic":
        return layout
    letters = latin_layout(match.seed) if layout == "latin" else layout
    return "/".join(letters[i : i + 5] for i in range(0, len(letters), 5))


async def best_scores(
    service: MatchService, guild_id: int | None, opening: str | None = None, limit: int = 10
) -> list[Best]:
    """The top `limit` (opening, layout) records, best first; `opening` filters (BadOptions if unknown)."""
    wanted = parse_opening(opening)[1] if opening else None
    best: dict[tuple[str, str], Best] = {}
    for match, score in await service.ratings.solitaire_results("volcano", guild_id):
        if wanted is not None and match.state.opening != wanted:
            continue
        key = (match.state.opening, layout_of(match))
        if key not in best or score > best[key].score:
            best[key] = Best(score, match.players[0], *key, match.id)
    return sorted(best.values(), key=lambda b: (-b.score, b.match_id))[:limit]


def best_lines(bests: list[Best], opening: str | None = None) -> list[str]:
    which = f" with the {parse_opening(opening)[1]} opening" if opening else ""
    if not bests:
        return [f"No Volcano solitaire game{which} has been finished here yet."]
    lines = [f"Best Volcano solitaire scores{which} (to replay a layout, pass its letters as `layout`):"]
    for rank, best in enumerate(bests, 1):
        lines.append(
            f"{rank}. {best.score:g} {noun_for(best.score, 'point')} by {best.player.name}: opening {best.opening},"
            f" layout {best.layout} (match #{best.match_id})"
        )
    return lines
