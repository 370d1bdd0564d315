"""`python3 -m bot migrate --to postgresql://…`: the SQLite database copied into an empty PostgreSQL one, then checked.

Stop the bot first. The SQLite file (DATABASE_PATH, or `--from FILE`) is opened as the bot opens it (so it is
brought to this version's schema first) and held in one write transaction for the whole run: nothing
changes in it meanwhile. The PostgreSQL database gets the same schema (it is created if missing) and must
hold no rows yet; every table is then copied in one transaction, ids kept, and the identity sequences moved
past the largest id. Then it is checked, every table read back from both databases:
- the row count of each table is the same on both, and so is every row;
- every running match's move log replays (bot/move_log.py, as the service replays at an undo) to the
  state stored for it on PostgreSQL.
A short report is printed. Exit status: 0 when everything matches, 1 on any mismatch (the PostgreSQL
database then holds a copy the bot should not be started on), 2 when nothing was copied (the target is
not empty or not PostgreSQL, the file is missing, a database refused).

The shard leases (`leases`) are not copied: they lapse within seconds and the bot takes them afresh.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot import i18n, move_log
from bot.db import POSTGRESQL, SQLITE, StoreUnusable, is_postgres, redact
from bot.games import GAMES, Game
from bot.games.base import BadState, GameError
from bot.i18n import _
from bot.models import RUNNING
from bot.store import Store

TABLES: dict[str, tuple[str, ...]] = {
    "series": ("id",),
    "matches": ("id",),
    "seats": ("match_id", "seat"),
    "moves": ("match_id", "ply"),
    "clocks": ("match_id",),
    "actions": ("id",),
    "lobbies": ("id",),
    "ratings": ("guild", "game", "player_id"),
    "challenges": ("message_id",),
    "reminders": ("match_id", "ply", "kind", "number"),
    "notify_choices": ("player_id",),
    "away": ("id",),
    "takebacks": ("id",),
    "guild_settings": ("guild_id", "key"),
    "tournaments": ("id",),
    "tournament_games": ("id",),
}
"""Every table copied, parents before the tables that refer to them, with its key (the order rows are read in)."""

PAGE = 5000
"""Rows read, copied and compared at a time."""


class Refused(Exception):
    """Nothing was copied; the message says why (exit status 2)."""


@dataclass
class Report:
    source: str
    target: str
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Rows per table: (SQLite, PostgreSQL)."""
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        width = max(len(table) for table in TABLES)
        heading = i18n.unmarked(_("table"))  # padded to the table's width: the tests' marks would count
        width = max(len(heading), *(len(table) for table in TABLES))
        out = [
            _("Copied {source} into {target}.").format(source=self.source, target=self.target),
            f"{_('table') + ' ' * (width - len(heading))}  {'SQLite':>9}  {'PostgreSQL':>10}",
        ]
        for table, (before, after) in self.counts.items():
            differs = "" if before == after else "  <- " + _("differs")
            out.append(f"{table:<{width}}  {before:>9}  {after:>10}{differs}")
        out.append(
            _("running matches replayed from their logs to their stored states: {count}").format(count=self.replayed)
        )
        if self.ok:
            out.append(
                _("OK: every table and every row is the same on both. Set DATABASE_URL to it to run the bot there.")
            )
        else:
            out.append(
                _("MISMATCH ({count}): do not start the bot on this copy.").format(
                    count=i18n.number(len(self.problems))
                )
            )
            out += [f"  {problem}" for problem in self.problems[:20]]
        return out


async def migrate(source: Path, target: str, games: dict[str, Game] | None = None) -> Report:
    """Copy the SQLite database at `source` into the empty PostgreSQL database `target`, then check it."""
    if not is_postgres(target):
        raise Refused(_("--to must be a postgresql:// URL, not {typed}").format(typed=repr(target[:40])))
    if not source.is_file():
        raise Refused(_("there is no SQLite database at {path}").format(path=source))
    games = GAMES if games is None else games
    old = await Store.open(source, games)
    try:
        new = await Store.open(target, games)
        try:
            assert old.backend == SQLITE and new.backend == POSTGRESQL
            report = Report(str(source), redact(target))
            async with old.transaction():  # one snapshot of the file: nothing changes in it meanwhile
                await _refuse_unless_empty(new, report.target)
                try:
                    async with new.transaction():
                        for table in TABLES:
                            await _copy(old, new, table)
                        await new.reset_ids()
                except Exception as error:
                    why = f"{type(error).__name__}: {error}"
                    raise Refused(
                        _("the copy failed and was rolled back, PostgreSQL holds none of it ({reason})").format(
                            reason=why
                        )
                    ) from error
                await _compare(old, new, report)
            await _replay(new, report)
            return report
        finally:
            await new.close()
    finally:
        await old.close()


async def _refuse_unless_empty(store: Store, target: str) -> None:
    full = [(table, await store.count_rows(table)) for table in TABLES]
    full = [(table, count) for table, count in full if count]
    if full:
        held = ", ".join(
            i18n.ngettext("{table}: {count} row", "{table}: {count} rows", count).format(table=table, count=count)
            for table, count in full
        )
        raise Refused(
            _(
                "{target} is not empty ({held}): migrate copies into an empty database only. Give it a new database"
                " (createdb), or empty this one yourself if it holds nothing you need."
            ).format(target=target, held=held)
        )


async def _pages(store: Store, table: str, columns: list[str]) -> list[list[tuple[object, ...]]]:
    pages, offset = [], 0
    while rows := await store.table_rows(table, columns, TABLES[table], PAGE, offset):
        pages.append(rows)
        offset += len(rows)
    return pages


async def _copy(old: Store, new: Store, table: str) -> None:
    columns = await old.columns(table)
    for rows in await _pages(old, table, columns):
        await new.insert_rows(table, columns, rows)


async def _compare(old: Store, new: Store, report: Report) -> None:
    for table in TABLES:
        before, after = await old.count_rows(table), await new.count_rows(table)
        report.counts[table] = (before, after)
        if before != after:
            report.problems.append(
                _("{table}: {before} rows in SQLite, {after} in PostgreSQL").format(
                    table=table, before=before, after=after
                )
            )
            continue
        columns = await old.columns(table)
        mine, theirs = await _pages(old, table, columns), await _pages(new, table, columns)
        for row, copied in zip(
            (row for page in mine for row in page), (row for page in theirs for row in page), strict=True
        ):
            if row != copied:
                report.problems.append(
                    _("{table}: the row {row} became {copied}").format(
                        table=table, row=_short(row), copied=_short(copied)
                    )
                )
                break


async def _replay(store: Store, report: Report) -> None:
    for match_id in await store.match_ids(RUNNING):
        try:
            match = await store.load_match(match_id)
        except BadState as error:
            report.problems.append(
                _("match #{number}: its stored state does not load ({reason})").format(number=match_id, reason=error)
            )
            continue
        except KeyError as error:
            report.problems.append(
                _("match #{number}: its game {game} is not one this bot knows").format(number=match_id, game=error)
            )
            continue
        assert match is not None
        game = store.games[match.game]
        log = await store.log(match_id)
        try:
            state = move_log.final_position(game, len(match.players), match.seed, match.options, log)
        except (GameError, move_log.ReplayError) as error:
            report.problems.append(
                _("match #{number}: its log does not replay ({reason})").format(number=match_id, reason=error)
            )
            continue
        if game.dumps(state) != game.dumps(match.state):
            report.problems.append(
                _("match #{number}: its log replays to another state than the one stored").format(number=match_id)
            )
            continue
        report.replayed += 1


def _short(row: Sequence[object]) -> str:
    text = repr(tuple(row))
    return text if len(text) <= 120 else text[:117] + "..."


def parse(argv: Sequence[str], default_source: Path) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 -m bot migrate",
        description=_("Copy the bot's SQLite database into an empty PostgreSQL database, then check the copy."),
    )
    parser.add_argument("--to", required=True, metavar="URL", help=_("the PostgreSQL database: postgresql://…"))
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=default_source,
        metavar="FILE",
        help=_("the SQLite database (default: DATABASE_PATH, {path})").format(path=default_source),
    )
    return parser.parse_args(list(argv))


async def run(argv: Sequence[str], default_source: Path, games: dict[str, Game] | None = None) -> int:
    """The command: prints the report (or why nothing was copied); returns the exit status."""
    args = parse(argv, default_source)
    try:
        report = await migrate(args.source, args.to, games)
    except (Refused, StoreUnusable) as error:
        print(_("Nothing copied: {reason}.").format(reason=error))
        return 2
    print("\n".join(report.lines()))
    return 0 if report.ok else 1
