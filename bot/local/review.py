"""The terminal's review: `review MATCH [MOVE]` opens a match at a move (default: the newest), then `n`, `p`,
`first`, `last` and `moment N` step through it. Each step prints the moves around the shown one (it marked
→), the position in words (its alt text) and saves its picture; bot/review.py decides what may be seen, as
on Discord: a spectator's view of a running game, or with `--as NAME` that player's own hand too (hot
seat: look away), and a finished game as its final board shows it."""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from bot import review
from bot.i18n import N_, _
from bot.local.checks import CommandError, number, player_named, slug
from bot.local.session import Session
from bot.local.table import AS, Args, Command, Handler


@dataclass(frozen=True, slots=True)
class Reviewing:
    """What the session reviews: the match, the move shown, and whose eyes (a player id, or None)."""

    match_id: int
    ply: int
    player_id: str | None
    name: str = ""


LAST = 2**62
"""A move past every game's end: `review.clamp` makes it the newest position."""
_REVIEWING: weakref.WeakKeyDictionary[Session, Reviewing] = weakref.WeakKeyDictionary()


async def show(session: Session, reviewing: Reviewing, *, moments: bool = False) -> None:
    reviews = review.reviews_of(session.service)
    replayed = await reviews.replayed(reviewing.match_id)
    match = replayed.match
    ply = review.clamp(replayed, reviewing.ply)
    _REVIEWING[session] = reviewing = Reviewing(match.id, ply, reviewing.player_id, reviewing.name)
    viewer = review.viewer_of(session.service.game(match), match, reviewing.player_id)
    frame = await reviews.frame(replayed, ply, viewer)
    lines, at = review.window(replayed, ply)
    listed = [f"{'→' if k == at else ' '} {line}" for k, line in enumerate(lines)]
    whose = f"-as-{slug(reviewing.name) or 'player'}" if viewer is not None else ""
    path = await session.save(f"match-{match.id}-review-{ply:03d}{whose}.png", frame.png)
    out = [review.title(replayed, ply), *listed, frame.alt, _("picture: {path}").format(path=path)]
    if moments:
        found = await _moments(session, replayed)
        if found:
            out.append(_("Key moments (moment N):"))
            out += [f"  {n}. {m.label}" for n, m in enumerate(found, 1)]
        out.append(_("Step with n, p, first, last, moment N."))
    session.write("\n".join(out))


async def _moments(session: Session, replayed: review.Replayed) -> list[review.Moment]:
    report = session.analyst.made(replayed.match) if replayed.over else None  # an analysis made already
    return await review.reviews_of(session.service).moments(replayed, report)


def _current(session: Session) -> Reviewing:
    reviewing = _REVIEWING.get(session)
    if reviewing is None:
        raise CommandError(_("Nothing is being reviewed: start with review MATCH [MOVE]."))
    return reviewing


async def start(session: Session, args: Args) -> None:
    match = await session.service.get(number(args.words[0], _("the match number")))
    ply = number(args.words[1], _("the move")) if len(args.words) > 1 else None
    if ply is not None and ply < 0:
        raise CommandError(_("The move is a number from 0 (the start)."))
    player = player_named(match, args.flags["as"]) if "as" in args.flags else None
    newest = LAST if ply is None else ply
    reviewing = Reviewing(match.id, newest, player.id if player else None, player.name if player else "")
    await show(session, reviewing, moments=True)


def step(by: int | None, to: int | None = None) -> Handler:
    """`n` and `p` (by one), `first` (to 0) and `last` (to the newest, as the log stands now)."""

    async def run(session: Session, args: Args) -> None:
        now = _current(session)
        ply = to if to is not None else now.ply + (by or 0)
        await show(session, Reviewing(now.match_id, max(0, ply), now.player_id, now.name))

    return run


async def moment(session: Session, args: Args) -> None:
    now = _current(session)
    replayed = await review.reviews_of(session.service).replayed(now.match_id)
    found = await _moments(session, replayed)
    which = number(args.words[0], _("the moment"))
    if not 1 <= which <= len(found):
        refused = _("There is no moment {number}: this review has {count} (review MATCH lists them).")
        raise CommandError(refused.format(number=which, count=len(found)))
    chosen = found[which - 1]
    await show(session, Reviewing(chosen.match_id, chosen.ply, now.player_id, now.name))


COMMANDS: tuple[Command, ...] = (
    Command(
        "review",
        N_("step through a match (running or over) from move MOVE (default: the newest); --as NAME adds your hand"),
        start,
        "MATCH [MOVE]",
        (1, 2),
        (AS,),
    ),
    Command("n", N_("the review's next move"), step(1), aliases=("next",)),
    Command("p", N_("the review's previous move"), step(-1), aliases=("prev",)),
    Command("first", N_("the review's first position (the start)"), step(None, 0)),
    Command("last", N_("the review's newest position"), step(None, LAST)),
    Command("moment", N_("jump to the review's key moment N"), moment, "N", (1, 1)),
)
