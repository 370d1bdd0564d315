"""The commands of a game (`fish new`, `fish move`, ...): the ones every game shares, and those a game's
registration asks for (`dm` for death matches, volcano's `best`, horizon's `hand`)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot import posts, records
from bot.clock import ClockError, ClockSettings, parse_seconds
from bot.games import REGISTRY, GameError
from bot.i18n import N_, _
from bot.local.checks import (
    CommandError,
    addressed,
    capital,
    clock,
    new_players,
    number,
    option_value,
    seat_named,
    slug,
)
from bot.local.session import Session, ignored
from bot.local.table import AS, MATCH, NEW, Args, Command, Flag, Handler, new_options, text_notes
from bot.models import Match, Player
from bot.service import DM_CLOCK, MatchService, Notice, NoticeKind, ServiceError
from bot.solitaire import best_lines, best_scores
from renderers import Caption, render
from renderers.alt_text import text_board

SLASH_COMMAND = re.compile(r"(?<![\w/])/([a-z]+ [a-z]+)")
"""A slash command in a text shared with Discord (`/horizon hand`), written without its slash here."""
YES, NO = ("y", "yes"), ("n", "no")
"""The answers to a question of the terminal's (`resign`)."""
GROUPS_SHOWN = 40
"""`moves` lists at most this many groups, one a line (a Themiscyra opening has 1,470 stone pairs)."""


async def new(session: Session, args: Args) -> None:
    """`GAME new`, for every game: the players, the clock and seed where it takes them, and a flag for
    each option of the game's spec, checked against it (the engine checks what a text says)."""
    key, service = args.game, session.service
    game = service.games[key]
    players = new_players(game, args.words, NEW[key].example)
    # without --clock, the terminal's default_clock setting (none unless set)
    settings = clock(args.flag("clock")) if "clock" in args.flags else service.settings.default_clock(None)
    options: dict[str, object] = {}
    for option in game.options.offered:
        if option.flag[2:] in args.flags:
            options[option.name] = option_value(option, args.flags[option.flag[2:]], players)
    seed = number(args.flags["seed"], "--seed") if "seed" in args.flags else None
    await service.create_match(key, players, options=options, seed=seed, clock=settings)


async def death_match(session: Session, args: Args) -> None:
    """`GAME dm`: a best-of-3 death match, its clock in seconds as bot/clock.py reads a --clock's."""
    key = args.game
    players = new_players(session.service.games[key], args.words, f"{key} dm alice bob --first alice")
    if "first" not in args.flags:
        raise CommandError(_("A death match needs --first NAME: who places first in game 1."))
    first = seat_named(players, args.flags["first"])
    try:
        move = (
            parse_seconds(args.flags["move"], capital(_("the move clock")))
            if "move" in args.flags
            else DM_CLOCK.move_seconds
        )
        reserve = parse_seconds(args.flags["reserve"], capital(_("the reserve"))) if "reserve" in args.flags else None
        settings = ClockSettings(move, DM_CLOCK.reserve_seconds if reserve is None else reserve)
    except ClockError as error:
        raise CommandError(str(error)) from None
    house = False if "no-house" in args.flags else None  # None: the house_wins setting
    await session.service.create_series(key, players, first=first, clock=settings, house_wins=house)


async def best(session: Session, args: Args) -> None:
    """`GAME best [OPENING]`: a solitaire game's best scores; offline matches have no server (guild None),
    so these are the terminal's own records."""
    opening = " ".join(args.words) or None  # five squares may come unquoted: volcano best a1 b3 c3 d2 e5
    session.write("\n".join(best_lines(await best_scores(session.service, None, opening), opening)))


def screen_passed(session: Session, player: Player, question: str, show: Callable[[], Awaitable[None]]) -> None:
    """Hot seat: what shows `player`'s hidden cards is shown only once the screen is theirs: the terminal
    asks (`question`, which says what is shown and to pass the screen), and shows it when Enter is pressed;
    a line typed instead is run as usual, and nothing is shown."""

    async def answer(line: str) -> bool:
        if line:
            session.write(_("Not shown: {name}'s cards stay hidden.").format(name=player.name))
            return False
        await show()
        return True

    session.ask(question, answer)


async def hand(session: Session, args: Args) -> None:
    """The hot-seat terminal's private view: the hand in words and a picture drawn from that seat, once the
    screen is passed to its player."""
    key = args.game
    match = await session.match(args.flags, key)
    player = session.actor(match, args.flag("as"), doing="look")
    seat = match.seats_of(player.id)[0]
    question = _("{name}'s hand is for {name}'s eyes only: pass the screen to {name}, then press Enter.")
    screen_passed(session, player, question.format(name=player.name), lambda: show_hand(session, match, player, seat))


async def show_hand(session: Session, match: Match, player: Player, seat: int) -> None:
    key = match.game
    lines = [line.format(*match.names) for line in session.service.games[key].private_lines(match.state, seat)]
    header = _("Match #{number} · {name}'s private view").format(number=match.id, name=player.name)
    caption = Caption(names=match.names, header=header)
    png = await asyncio.to_thread(render, key, match.state, seat, caption=caption)
    named = slug(player.name)  # the seat keeps two names of one slug apart (zoë and zoé: zo)
    path = await session.save(
        f"match-{match.id}-ply-{match.ply:03d}-hand-{seat + 1}{f'-{named}' if named else ''}.png", png
    )
    said = [_("{name}, for your eyes only:").format(name=player.name), *lines, _("picture: {path}").format(path=path)]
    session.write("\n".join(said))


async def move(session: Session, args: Args) -> None:
    match = await session.match(args.flags, args.game)
    player = session.actor(match, args.flag("as"))
    # a whole Volcano turn arrives as several words (b2-c3, c3-d4); the engine reads the joined text
    try:
        await session.service.move(match.id, player.id, " ".join(args.words))
    except (ServiceError, GameError) as error:
        raise CommandError(addressed(match, player, str(error))) from None


async def resign(session: Session, args: Args) -> None:
    """Asks first, as Discord does: `yes` resigns, `no` does not, and any other line runs as a command."""
    match = await session.match(args.flags, args.game)
    player = session.actor(match, args.flag("as"), doing="resign")

    async def answer(line: str) -> bool:
        if line.lower() not in YES:
            session.write(_("Not resigned: match #{number} goes on.").format(number=match.id))
            return line.lower() in NO  # another line runs as the command it is
        try:
            await session.service.playing.resign(match.id, player.id)
        except (ServiceError, GameError) as error:
            raise CommandError(addressed(match, player, str(error))) from None
        return True

    title = session.service.game(match).title
    question = _("{name}, resign match #{number} ({game})? Type yes to resign, no to play on.")
    session.ask(question.format(name=player.name, number=match.id, game=title), answer)


AGREEMENTS: dict[str, Callable[[MatchService, int, str], Awaitable[Notice]]] = {
    "takeback": lambda service, match_id, player_id: service.takebacks.request(match_id, player_id),
    "accept": lambda service, match_id, player_id: service.takebacks.answer(match_id, player_id, True),
    "decline": lambda service, match_id, player_id: service.takebacks.answer(match_id, player_id, False),
    "claim": lambda service, match_id, player_id: service.claims.claim(match_id, player_id),
}
"""The shared commands one person does by name in a hot seat: ask for a takeback, answer it, claim."""


def agreement(sub: str) -> Handler:
    """The handler of `sub`, one of AGREEMENTS: for `--as NAME`, else the one person it can be."""

    async def run(session: Session, args: Args) -> None:
        match = await session.match(args.flags, args.game)
        player = await session.agreeing(match, sub, args.flag("as"))
        try:
            notice = await AGREEMENTS[sub](session.service, match.id, player.id)
        except (ServiceError, GameError) as error:
            raise CommandError(addressed(match, player, str(error))) from None
        if notice.kind == NoticeKind.TAKEBACK:
            key = args.game
            said = _("(answer with {accept} or {decline})").format(
                accept=f"{key} accept --as NAME", decline=f"{key} decline --as NAME"
            )
            session.write(f"[#{match.id}] {said}")

    return run


async def board(session: Session, args: Args) -> None:
    match = await session.match(args.flags, args.game)
    if "text" in args.flags:  # the position in words (renderers/alt_text.py), for a screen reader; no picture
        caption = posts.caption(session.service, match, session.service.time.now())
        session.write(text_board(match.game, match.state, caption))
        return
    overlays = frozenset(name for name in REGISTRY[args.game].overlays if name in args.flags)
    await session.on_notice(Notice(NoticeKind.BOARD, match, (_("The board as it stands:"),)), overlays)


async def moves(session: Session, args: Args) -> None:
    """The legal moves, a group a line; words narrow them (`themiscyra moves e5 e8`: only those moves). With
    hidden cards the moves show the hand of the player to move: only once the screen is passed to them."""
    match = await session.match(args.flags, args.game)
    game = session.service.game(match)
    legal = game.legal_moves(match.state) if match.running else []
    lines = posts.moves_lines(game, legal, " ".join(args.words), most=GROUPS_SHOWN, command=f"{args.game} moves")
    if not legal:
        session.write(_("No legal moves: the game is over."))
        return
    if not game.hidden_information:
        session.write("\n".join(lines))
        return
    player = match.players[game.to_move(match.state)]
    if player.is_computer:
        raise CommandError(
            _("{name}'s moves would show its hand, and a computer shows its cards to nobody.").format(name=player.name)
        )

    async def show() -> None:
        session.write("\n".join(lines))

    question = _(
        "The legal moves show {name}'s hand, so they are for {name}'s eyes only: pass the screen to {name}, then"
        " press Enter."
    )
    screen_passed(session, player, question.format(name=player.name), show)


async def history(session: Session, args: Args) -> None:
    match = await session.match(args.flags, args.game)
    lines = posts.history_lines(match, await session.service.log(match.id), session.service.game(match))
    session.write("\n".join(lines) if lines else _("Match #{number}: no moves yet.").format(number=match.id))


async def rules(session: Session, args: Args) -> None:
    """The game's rules card, its slash commands written as the terminal's (`/horizon hand`: `horizon hand`)."""
    session.write(SLASH_COMMAND.sub(r"\1", _(session.service.games[args.game].rules_card)))


async def record(session: Session, args: Args) -> None:
    """A finished match's record; bot/records.py refuses it while the match runs (the seed is still secret)."""
    match = await session.match(args.flags, args.game)
    built = await records.build_record(session.service, match.id)
    folder = await asyncio.to_thread(ignored, session.records_dir)
    path = await asyncio.to_thread(records.save_record, built, folder)
    session.write(_("Record of match #{number}: {path}").format(number=match.id, path=path))


async def analysis(session: Session, args: Args) -> None:
    """`GAME analysis [ID]` (or `--match ID`, or the current match): the words, and the graph as a PNG."""
    if args.words:
        args.flags["match"] = args.words[0]
    match = await session.match(args.flags, args.game)
    session.analyst.check(match)  # still running, aborted, solitaire: refused before any work
    session.write(f"[#{match.id}] " + _("analysing (a few seconds)…"))
    report = await session.analyst.report(match)
    path = await session.save(f"match-{match.id}-analysis.png", report.png)
    said = report.text.replace("\n", f"\n[#{match.id}] ")
    picture = _("picture: {path}").format(path=path)
    session.write(f"[#{match.id}] {said}\n[#{match.id}] {picture}")


def game_commands(key: str) -> Command:
    """The group of `key`'s commands (`key` GAME: the shared ones as the help lists them, for every game)."""
    registrations = [REGISTRY[key]] if key in REGISTRY else list(REGISTRY.values())
    overlays = [name for registration in registrations for name in registration.overlays]
    own: list[Command] = []
    if key in REGISTRY:
        typed = NEW[key]
        own.append(
            Command(
                f"{key} new",
                lambda: _(typed.note),
                new,
                typed.players,
                (0, None),
                new_options(key),
                names_flags=True,
                notes=text_notes(key),
            )
        )
        if REGISTRY[key].death_matches:
            dm_flags = (
                Flag("first", "NAME", required=True),
                Flag("move", "30"),
                Flag("reserve", "60"),
                Flag("no-house"),
            )
            own.append(
                Command(f"{key} dm", N_("a best-of-3 death match"), death_match, typed.players, (0, None), dm_flags)
            )
        own += [_OWN[name](key) for name in typed.commands]

    def moves_said() -> str:
        return "; ".join(_(registration.typed.moves) for registration in registrations)

    def board_help() -> str:
        if not overlays:
            return _("the board as a picture (--text: the position in words, for a screen reader)")
        areas = "; ".join(
            f"--{name}: {', '.join(r.key for r in registrations if name in r.overlays)}" for name in overlays
        )
        return _("the board as a picture (--text: the position in words, for a screen reader; {areas})").format(
            areas=areas
        )

    game = key if key in REGISTRY else "GAME"
    shared: tuple[Command, ...] = (
        Command(
            f"{game} move",
            lambda: _("for the player to move, or for NAME: {moves}").format(moves=moves_said()),
            move,
            "MOVE",
            (1, None),
            (MATCH, AS),
            use=lambda: _("Give {moves}.").format(moves=moves_said()),
            aliases=("play",),
        ),
        Command(
            f"{game} board",
            board_help,
            board,
            flags=(MATCH, *(Flag(name) for name in overlays), Flag("text")),
        ),
        Command(
            f"{game} moves",
            N_(
                "the legal moves, a group a line (by stone pair, token, cap or card); FILTER narrows"
                " them: themiscyra moves e5 e8, fish moves D4, horizon moves F2"
            ),
            moves,
            "[FILTER]",
            (0, None),
            (MATCH,),
        ),
        Command(f"{game} history", N_("the moves so far"), history, flags=(MATCH,)),
        Command(f"{game} rules", N_("the rules in short (docs/rules/ has them all)"), rules),
        Command(f"{game} resign", N_("resign, for the player to move or for NAME"), resign, flags=(MATCH, AS)),
        Command(
            f"{game} record",
            N_(
                "a finished match's record (players, seed, every move, result) as JSON, in records/ beside the database"
            ),
            record,
            flags=(MATCH,),
        ),
        Command(
            f"{game} analysis",
            N_("a finished match's chances to win, move by move, with its largest swings (a PNG)"),
            analysis,
            "[ID]",
            (0, 1),
            (MATCH,),
            use=lambda: _("Use: {usage} (a finished match's number; default: the current match).").format(
                usage=f"{game} analysis [ID]"
            ),
        ),
        Command(
            f"{game} takeback",
            N_("ask the others to let you take back your last move (casual games)"),
            agreement("takeback"),
            flags=(MATCH, AS),
        ),
        Command(
            f"{game} accept", N_("let the one who asked take their move back"), agreement("accept"), flags=(MATCH, AS)
        ),
        Command(f"{game} decline", N_("refuse a takeback"), agreement("decline"), flags=(MATCH, AS)),
        Command(
            f"{game} claim",
            N_("claim an untimed game whose player to move has not moved for 7 days (claim_after)"),
            agreement("claim"),
            flags=(MATCH, AS),
        ),
    )
    if key in REGISTRY:  # the help lists the shared commands once, for every GAME
        shared = tuple(replace(command, shown=False) for command in shared)
    return Command(key, "", commands=(*own, *shared))


_OWN = {
    "best": lambda key: Command(
        f"{key} best", N_("the best solitaire scores, per opening and layout"), best, "[OPENING]", (0, None)
    ),
    "hand": lambda key: Command(
        f"{key} hand",
        N_("your hand and the cards you know, with a private picture (hot seat: look away!)"),
        hand,
        flags=(MATCH, AS),
    ),
}
"""The commands a game's registration may ask for by name (`Typed.commands`)."""
