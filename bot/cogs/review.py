"""`/<game> review`: a private message stepping through a match (bot/review.py decides what each reviewer may
see), with ⏮ ◀ ▶ ⏭, "Show here" and a menu of key moments. Each click edits that same message.

The controls are restart-proof like every component (bot/views.py): a custom_id carries the match and the
move to show (`review:12:37:next`, `review:12:last:last`, `review-show:12:37`, `review-moment:12:37`), and
nothing else: who clicked decides what they see (their own hand, or a spectator's view), so a forged
custom_id can show nobody more than they may see. The message is ephemeral, so `views.elsewhere` lets it
be clicked anywhere in the match's server; a moment in another game of the series is checked to be in
this server too.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot import discord_ids, review
from bot import discord_limits as limits
from bot.cogs import in_public
from bot.i18n import _
from bot.models import Match, Place
from bot.service import ServiceError
from bot.views import Guarded, match_home, number, service_of

LINE = 200
"""The most characters of a move's line in the list (a Volcano turn typed at once may be 600): seven
lines and the title stay far under Discord's 2,000."""
LABELS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


def _reviews(interaction: discord.Interaction) -> review.Reviews:
    return review.reviews_of(service_of(interaction))


def _report(interaction: discord.Interaction, match: Match) -> Any:
    """The finished match's analysis if the bot made it already (its swings are key moments); otherwise it
    is started in the background (it takes seconds), for the next click."""
    analyst = getattr(interaction.client, "analyst", None)
    if analyst is None or match.running:
        return None
    return analyst.made(match, start=True)


async def message(interaction: discord.Interaction, match_id: int, ply: int | None) -> dict[str, Any]:
    """The review message at move `ply` (None: the newest) for whoever interacted: text, picture, controls."""
    reviews = _reviews(interaction)
    replayed = await reviews.replayed(match_id)
    match = replayed.match
    shown = review.clamp(replayed, ply)
    game = service_of(interaction).game(match)
    viewer = review.viewer_of(game, match, discord_ids.player(interaction.user).id)
    frame = await reviews.frame(replayed, shown, viewer)
    moments = await reviews.moments(replayed, _report(interaction, match))
    lines, at = review.window(replayed, shown)
    listed = [discord.utils.escape_markdown(limits.shorten(line, LINE)) for line in lines]
    listed[at] = f"**{listed[at]}**"
    head = _("**{title}** (only you see this)").format(title=review.title(replayed, shown))
    if viewer is not None and not replayed.over:
        head += "\n" + _("Your hand as it was then; nobody else's cards are shown.")
    before = "…\n" if shown - at > 0 else ""
    after = "\n…" if shown - at + len(lines) <= replayed.last else ""
    text = limits.clip(f"{head}\n{before}" + "\n".join(listed) + after)
    file = discord.File(
        io.BytesIO(frame.png), filename=f"{match.game}-{match.id}-move-{shown}.png", description=frame.alt
    )
    return {"content": text, "file": file, "view": controls(replayed, shown, moments)}


def picture(frame: review.Frame, match: Match, shown: int) -> discord.File:
    name = f"{match.game}-{match.id}-move-{shown}.png"
    return discord.File(io.BytesIO(frame.png), filename=name, description=frame.alt)


def controls(replayed: review.Replayed, shown: int, moments: list[review.Moment]) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ and Show here on one row, the key moments' menu under them."""
    match_id, last = replayed.match.id, replayed.last
    view = discord.ui.View(timeout=None)
    targets = {"first": 0, "prev": max(0, shown - 1), "next": min(last, shown + 1)}
    for tag in ("first", "prev", "next"):
        end = shown == 0 if tag in ("first", "prev") else shown >= last
        view.add_item(ReviewButton(match_id, str(targets[tag]), tag, disabled=end))
    view.add_item(ReviewButton(match_id, "last", "last", disabled=replayed.over and shown >= last))
    view.add_item(ShowHereButton(match_id, shown))
    chosen = nearest(moments, replayed.match.id, shown)
    if chosen:
        view.add_item(MomentSelect(match_id, shown, chosen))
    return view


def nearest(moments: list[review.Moment], match_id: int, shown: int, most: int = 25) -> list[review.Moment]:
    """At most `most` moments for the menu, one per position: the other games of a series, then this
    game's moments nearest the shown move, in move order."""
    unique: dict[tuple[int, int], review.Moment] = {}
    for moment in moments:
        unique.setdefault((moment.match_id, moment.ply), moment)
    others = [m for m in unique.values() if m.series]
    own = [m for m in unique.values() if not m.series]
    room = max(0, most - len(others))
    own = sorted(sorted(own, key=lambda m: abs(m.ply - shown))[:room], key=lambda m: m.ply)
    return (others + own)[:most]


class ReviewButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"review:(?P<match>\d+):(?P<to>\d+|last):(?P<tag>first|prev|next|last)",
):
    """Steps the private review to a move (`last`: the newest, as the log stands at the click)."""

    def __init__(self, match_id: int, to: str, tag: str, *, disabled: bool = False) -> None:
        label = LABELS[tag]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"review:{match_id}:{to}:{tag}",
                disabled=disabled,
            )
        )
        self.match_id, self.to, self.tag = match_id, to, tag

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ReviewButton:
        to = match["to"] if match["to"] == "last" else str(number(match["to"]))
        return cls(number(match["match"]), to, match["tag"])

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # at once: a first replay of a long game takes a moment
        ply = None if self.to == "last" else int(self.to)
        await edit(interaction, await message(interaction, self.match_id, ply))


async def edit(interaction: discord.Interaction, fields: dict[str, Any]) -> None:
    """The review message, edited in place through the click's webhook."""
    file = fields.pop("file")
    await interaction.edit_original_response(attachments=[file], allowed_mentions=limits.NOBODY, **fields)


class MomentSelect(
    Guarded, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"review-moment:(?P<match>\d+):(?P<ply>\d+)"
):
    """The key moments: each option's value is `match:move` (a death match's other games are other matches)."""

    def __init__(self, match_id: int, ply: int, moments: list[review.Moment] | None = None) -> None:
        options = [discord.SelectOption(label=m.label, value=f"{m.match_id}:{m.ply}") for m in moments or []] or [
            discord.SelectOption(label="?", value=f"{match_id}:0")
        ]
        super().__init__(
            discord.ui.Select(
                placeholder=_("Jump to a key moment…"), options=options, custom_id=f"review-moment:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> MomentSelect:
        return cls(number(match["match"]), number(match["ply"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        found = re.fullmatch(r"(\d+):(\d+)", str(values[0])) if values else None
        if found is None:
            raise ServiceError(_("Pick one of the moments."))
        target, ply = number(found[1]), number(found[2])
        if target != self.match_id:  # another game of the series: in this server, and of the same series
            here = await service_of(interaction).get(self.match_id)
            other = await service_of(interaction).get(target)
            if (
                other.place.guild_id != interaction.guild_id
                or other.series_id != here.series_id
                or other.series_id is None
            ):
                raise ServiceError(_("That moment belongs to no game of this death match."))
        await interaction.response.defer()
        await edit(interaction, await message(interaction, target, ply))


class ShowHereButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"review-show:(?P<match>\d+):(?P<ply>\d+)"
):
    """Posts the shown position in public, for discussion: always the spectator's picture (never the
    clicker's hand), in the channel the review was asked in."""

    def __init__(self, match_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Show here"), style=discord.ButtonStyle.primary, custom_id=f"review-show:{match_id}:{ply}"
            )
        )
        self.match_id, self.ply = match_id, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ShowHereButton:
        return cls(number(match["match"]), number(match["ply"]))

    async def home(self, interaction: discord.Interaction) -> Place:
        return await match_home(interaction, self.match_id)

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)  # public: the post is for everyone here
        reviews = _reviews(interaction)
        with in_public(interaction):  # in the server's language, picture and words
            replayed = await reviews.replayed(self.match_id)
            shown = review.clamp(replayed, self.ply)
            frame = await reviews.frame(replayed, shown, None)
            who = discord_ids.player(interaction.user).name
            line = review.move_lines(replayed)[shown]
            head = _("{title}, shown by {name}:").format(title=review.title(replayed, shown), name=who)
        text = f"{head}\n{line}"
        file = discord.File(
            io.BytesIO(frame.png),
            filename=f"{replayed.match.game}-{self.match_id}-move-{shown}.png",
            description=frame.alt,
        )
        await interaction.followup.send(
            limits.clip(discord.utils.escape_markdown(text)), file=file, allowed_mentions=limits.NOBODY
        )


REVIEW_CONTROLS = (ReviewButton, MomentSelect, ShowHereButton)
"""The review's components: every game's cog answers them."""


async def open_review(interaction: discord.Interaction, match: Match, ply: int | None) -> None:
    """The answer to `/<game> review`: private, deferred first (a long game's first replay takes a moment)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    fields = await message(interaction, match.id, ply)
    await interaction.followup.send(ephemeral=True, allowed_mentions=limits.NOBODY, **fields)
