"""Best Volcano solitaire scores in a server, per opening and layout.

volcano.md: "Servers keep best scores per opening and layout, so a solitaire challenge is 'beat the best
score on this seed'". Nothing extra is stored: finished one-player matches are the record, and a random
(latin) layout is shown as its 25 letters so anyone can replay it with `layout:`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import i18n
from bot.games.volcano import latin_layout, parse_opening
from bot.i18n import _, ngettext
from bot.models import Match, Player
from bot.service import MatchService


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
    """The best scores in the reader's words; openings and layouts as they are typed (English)."""
    which = parse_opening(opening)[1] if opening else None
    if not bests:
        if which is None:
            return [_("No Volcano solitaire game has been finished here yet.")]
        return [
            _("No Volcano solitaire game with the {opening} opening has been finished here yet.").format(opening=which)
        ]
    if which is None:
        heading = _("Best Volcano solitaire scores (to replay a layout, pass its letters as `layout`):")
    else:
        heading = _(
            "Best Volcano solitaire scores with the {opening} opening "
            "(to replay a layout, pass its letters as `layout`):"
        ).format(opening=which)
    lines = [heading]
    for rank, best in enumerate(bests, 1):
        count = int(best.score) if float(best.score).is_integer() else 2  # a fraction: the plural
        lines.append(
            ngettext(
                "{rank}. {score} point by {name}: opening {opening}, layout {layout} (match #{match})",
                "{rank}. {score} points by {name}: opening {opening}, layout {layout} (match #{match})",
                count,
            ).format(
                rank=rank,
                score=i18n.number(best.score),
                name=best.player.name,
                opening=best.opening,
                layout=best.layout,
                match=best.match_id,
            )
        )
    return lines
