"""The commands about a person rather than a match, for a typed name: ratings (`leaderboard`, `stats`) and
Discord's /mygames, /away, /back and /notify, offline (the terminal is a server of its own)."""

from __future__ import annotations

from bot import posts
from bot.i18n import N_, _
from bot.local.checks import CommandError, addressed_to, checked_name, quote
from bot.local.session import Session
from bot.local.table import Args, Command
from bot.models import Player
from bot.ratings import leaderboard_lines, stats_lines
from bot.service import ServiceError


def person(name: str) -> Player:
    """The player a typed name is: the id a new match gives it (bot/local/checks.py's `new_players`)."""
    return Player(f"local:{name.lower()}", name)


async def leaderboard(session: Session, args: Args) -> None:
    service = session.service
    if len(args.words) != 1:  # the games are the service's (the tests' toy game too)
        raise CommandError(
            _("Use: {usage} ({games}).").format(usage="leaderboard GAME", games=", ".join(sorted(service.games)))
        )
    key = args.words[0].lower()
    top = await service.ratings.leaderboard(None, key)  # refuses an unknown game
    session.write("\n".join(leaderboard_lines(service.games[key].title, top)))


async def stats(session: Session, args: Args) -> None:
    name = checked_name(args.words[0])
    rows = await session.service.ratings.stats(None, person(name).id)
    titles = {key: game.title for key, game in session.service.games.items()}
    session.write("\n".join(stats_lines(rows[0].name if rows else name, rows, titles)))


async def my_games(session: Session, args: Args) -> None:
    name = checked_name(args.words[0])
    player, now = person(name), session.service.time.now()
    found = session.service.registry.turns_first(player.id, None)
    lines = posts.my_games_lines(session.service, found, player.id, discord=False)
    session.write(
        "\n".join(posts.plain_times(line, now) for line in lines)
        or _("{name} has no running matches.").format(name=name)
    )


async def away(session: Session, args: Args) -> None:
    name, days = checked_name(args.words[0]), args.words[1]
    player, now = person(name), session.service.time.now()
    if not (days.isascii() and days.isdigit() and len(days) <= 3):
        raise CommandError(_("DAYS is a whole number of days, 1 to 14, not {typed}.").format(typed=quote(days)))
    try:
        answer = await session.service.away.go_away(player, None, int(days))
    except ServiceError as error:
        raise CommandError(addressed_to(name, posts.plain_times(str(error), now))) from None
    named = session.named(answer.matches)
    said = posts.away_answer(answer.period.until, named, answer.left, answer.extended, f"back {name}")
    _answer(session, name, said)


async def back(session: Session, args: Args) -> None:
    name = checked_name(args.words[0])
    player, now = person(name), session.service.time.now()
    try:
        answer = await session.service.away.come_back(player, None)
    except ServiceError as error:
        raise CommandError(addressed_to(name, posts.plain_times(str(error), now))) from None
    taken = answer.period.taken(answer.period.ended_at or now)
    _answer(session, name, [posts.back_answer(taken, session.named(answer.matches), answer.left)])


def _answer(session: Session, name: str, said: list[str]) -> None:
    now = session.service.time.now()
    session.write(
        "\n".join(posts.plain_times(f"{name}: {line}" if i == 0 else line, now) for i, line in enumerate(said))
    )


NOTIFY_SAID = {
    "off": N_("no reminders of a turn"),
    "dm": N_("reminders of a turn printed here (offline there is no DM)"),
    "thread": N_("reminders of a turn printed here"),
}


async def notify(session: Session, args: Args) -> None:
    """`notify NAME dm|thread|off`: the choice Discord's /notify makes, for a typed name."""
    name = checked_name(args.words[0])
    mode = await session.service.reminding.choose(person(name).id, args.words[1])
    session.write(f"{name}: {_(NOTIFY_SAID[mode])}.")


COMMANDS = (
    Command(
        "leaderboard",
        N_("Glicko-2 ratings of games between people (offline ones are rated on their own)"),
        leaderboard,
        "GAME",
        (0, None),
    ),
    Command("stats", N_("NAME's ratings, game by game"), stats, "NAME", (1, 1)),
    Command(
        "notify",
        N_("how NAME is reminded of a long turn (offline, dm and thread both print it here)"),
        notify,
        "NAME dm|thread|off",
        (2, 2),
        use=N_("Use: notify NAME dm|thread|off (how NAME is reminded of a turn)."),
    ),
    Command("mygames", N_("NAME's running matches, NAME's turn first, with the deadlines"), my_games, "NAME", (1, 1)),
    Command(
        "away",
        N_("away time: NAME's long clocks (an hour a move or more) wait 1 to 14 days (14 a year)"),
        away,
        "NAME DAYS",
        (2, 2),
        use=N_("Use: away NAME DAYS (1 to 14)."),
    ),
    Command("back", N_("the end of NAME's away time: the clocks run again"), back, "NAME", (1, 1)),
)
