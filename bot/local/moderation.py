"""The moderator's commands of the terminal, whose typist moderates its games: `mod ...` (Discord's /mod),
`tournament ...` and `settings ...` (the terminal is a server of its own: offline, guild None)."""

from __future__ import annotations

import asyncio

from bot import i18n, posts
from bot.backup import BackupError, backup, size_text
from bot.i18n import N_, _
from bot.local.checks import MAX_ADDTIME, CommandError, added_seconds, checked_name, number, player_named
from bot.local.people import person
from bot.local.session import MODERATOR, Session, ignored
from bot.local.table import MATCH, Args, Command, Flag
from bot.service.settings import changed_count, settings_lines

# --- mod ---


async def mod_list(session: Session, args: Args) -> None:
    session.list_matches()


async def mod_backup(session: Session, args: Args) -> None:
    try:
        path = await backup(session.service.store, session.backup_dir, session.backup_keep)
    except BackupError as error:
        raise CommandError(_("The backup failed: {reason}.").format(reason=error)) from None
    said = _("Backed up to {path} ({size}, integrity ok).").format(path=path, size=size_text(path.stat().st_size))
    session.write(said)


async def pause(session: Session, args: Args) -> None:
    await session.service.moderation.pause((await session.match(args.flags)).id, MODERATOR)


async def resume(session: Session, args: Args) -> None:
    await session.service.moderation.resume((await session.match(args.flags)).id, MODERATOR)


async def add_time(session: Session, args: Args) -> None:
    match = await session.match(args.flags)
    player = player_named(match, args.words[0])
    await session.service.moderation.add_time(match.id, MODERATOR, player.id, added_seconds(args.words[1]))


async def undo(session: Session, args: Args) -> None:
    await session.service.moderation.undo((await session.match(args.flags)).id, MODERATOR)


async def adjudicate(session: Session, args: Args) -> None:
    match = await session.match(args.flags)
    named = args.words[0]
    winner = None if named.lower() == "draw" else player_named(match, named).id
    await session.service.moderation.adjudicate(match.id, MODERATOR, winner)


async def abort(session: Session, args: Args) -> None:
    await session.service.moderation.abort((await session.match(args.flags)).id, MODERATOR)


MOD = Command(
    "mod",
    "",
    commands=(
        Command("mod list", N_("the running matches"), mod_list, takes=(0, None)),
        Command("mod pause", N_("stop the match's clock"), pause, takes=(0, None), flags=(MATCH,)),
        Command("mod resume", N_("run it again"), resume, takes=(0, None), flags=(MATCH,)),
        Command(
            "mod addtime",
            lambda: _("give NAME more reserve time (1 to {most} s)").format(most=i18n.number(MAX_ADDTIME)),
            add_time,
            "NAME SECONDS",
            (2, 2),
            (MATCH,),
            use=lambda: _("Use: mod addtime NAME SECONDS (whole seconds, 1 to {most}).").format(
                most=i18n.number(MAX_ADDTIME)
            ),
        ),
        Command("mod undo", N_("take the last move back"), undo, takes=(0, None), flags=(MATCH,)),
        Command(
            "mod adjudicate",
            N_("end the match with NAME the winner (or draw)"),
            adjudicate,
            "NAME",
            (1, 1),
            (MATCH,),
            use=N_("Use: mod adjudicate NAME (the winner) or mod adjudicate draw."),
        ),
        Command("mod abort", N_("stop the match with no result"), abort, takes=(0, None), flags=(MATCH,)),
        Command("mod backup", N_("back the database up now (BACKUP_DIR; restore: see README)"), mod_backup),
    ),
    missing=N_("{name} what? {usages}."),
)

# --- tournaments ---

TOURNAMENT_USE = N_(
    "Use: tournament new GAME FORMAT [--rounds N] [--clock C] [--seats N] [--series dm], or join NAME, leave NAME,"
    " start, standings or record."
)


async def tournament_new(session: Session, args: Args) -> None:
    rounds = number(args.flags["rounds"], "--rounds") if "rounds" in args.flags else None
    seats = number(args.flags["seats"], "--seats") if "seats" in args.flags else None
    clock, series = args.flags.get("clock"), args.flags.get("series", "single")
    game, format = (word.lower() for word in args.words)
    held = await session.service.tournaments.open(
        game, format, MODERATOR, rounds=rounds, clock=clock, series=series, seats=seats
    )
    session.tournament = held.id
    said = _("Tournament #{number} is open: tournament join NAME signs a player up; then tournament start.")
    session.write(said.format(number=held.id))


async def _tournament_id(session: Session) -> int:
    """The tournament the commands are about: the one opened here, else the newest offline one."""
    if session.tournament is None:
        found = await session.service.tournaments.listing(None, ("open", "running", "over"))
        if not found:
            raise CommandError(_("There is no tournament yet: tournament new GAME FORMAT opens one."))
        session.tournament = found[-1].id
    return session.tournament


async def join(session: Session, args: Args) -> None:
    tid = await _tournament_id(session)
    name = checked_name(args.words[0])
    held = await session.service.tournaments.join(tid, person(name))
    count = len(held.tournament.entrants)
    session.write(_("{name} signed up ({count} so far).").format(name=name, count=i18n.number(count)))


async def leave(session: Session, args: Args) -> None:
    tid = await _tournament_id(session)
    name = checked_name(args.words[0])
    held = await session.service.tournaments.leave(tid, person(name))
    said = _("{name} left the sign-up.") if held.status == "open" else _("{name} withdrew.")
    session.write(said.format(name=name))


async def start(session: Session, args: Args) -> None:
    await session.service.tournaments.start_tournament(await _tournament_id(session), MODERATOR)


async def standings(session: Session, args: Args) -> None:
    from renderers import tournament as picture

    tid = await _tournament_id(session)
    t = (await session.service.tournaments.get(tid)).tournament
    path = await session.save(f"tournament-{tid}-standings.png", await asyncio.to_thread(picture.render, t))
    session.write(picture.as_text(t) + "\n" + _("picture: {path}").format(path=path))


async def tournament_record(session: Session, args: Args) -> None:
    tid = await _tournament_id(session)
    record = await session.service.tournaments.record(tid)
    folder = await asyncio.to_thread(ignored, session.records_dir)
    path = folder / record.filename
    await asyncio.to_thread(path.write_text, record.dumps(), "utf-8")
    session.write(_("Record of tournament #{number}: {path}").format(number=tid, path=path))


TOURNAMENT = Command(
    "tournament",
    "",
    commands=(
        Command(
            "tournament new",
            N_("FORMAT: knockout, roundrobin or swiss"),
            tournament_new,
            "GAME FORMAT",
            (2, 2),
            (Flag("rounds", "N"), Flag("clock", "C"), Flag("seats", "N"), Flag("series", "dm")),
            use=N_("Use: tournament new GAME FORMAT (FORMAT: knockout, roundrobin or swiss)."),
            names_flags=True,
            notes=lambda: (
                _("the commands below are about the newest tournament; its games open as matches, played as usual"),
            ),
        ),
        Command("tournament join", N_("sign NAME up"), join, "NAME", (1, 1)),
        Command("tournament leave", N_("NAME leaves the sign-up, or withdraws"), leave, "NAME", (1, 1)),
        Command("tournament start", N_("close the sign-up and pair round 1"), start),
        Command("tournament standings", N_("the standings, with a picture"), standings),
        Command("tournament record", N_("the tournament as JSON, in records/ beside the database"), tournament_record),
    ),
    missing=TOURNAMENT_USE,
    unknown=TOURNAMENT_USE,
)

# --- settings ---

SETTINGS_USE = N_("Use: settings, settings set KEY VALUE or settings reset KEY.")


async def show(session: Session, args: Args) -> None:
    states = session.service.settings.states(None)
    head = _(
        "The terminal's settings ({changed}). Change one with settings set KEY VALUE, put it back with settings"
        " reset KEY."
    ).format(changed=changed_count(states))
    lines = settings_lines(states, lambda by: by.partition(":")[2] or by, lambda at: f"<t:{int(at)}:f>")
    session.write(posts.plain_times("\n".join([head, *lines]), session.service.time.now()))


async def set_setting(session: Session, args: Args) -> None:
    key, *value = args.words
    change = await session.service.settings.set(None, key, " ".join(value), MODERATOR)
    session.write(change.line)


async def reset_setting(session: Session, args: Args) -> None:
    change = await session.service.settings.reset(None, args.words[0], MODERATOR)
    session.write(change.line)


SETTINGS = Command(
    "settings",
    "",
    commands=(
        Command(
            "settings show",
            N_("the terminal's settings (house_wins, rated, default_clock, reminders, away_days, claim_after)"),
            show,
            use=SETTINGS_USE,
        ),
        Command("settings set", N_("change one"), set_setting, "KEY VALUE", (2, None), use=SETTINGS_USE),
        Command("settings reset", N_("put one back to its default"), reset_setting, "KEY", (1, 1), use=SETTINGS_USE),
    ),
    default="show",
    unknown=SETTINGS_USE,
)
"""Discord's /settings for the terminal: its games are a server of their own (offline, guild None)."""
