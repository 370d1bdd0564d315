"""The tournament standings picture (issue #23), and the same in words.

`draw(t)` is the picture `/tournament standings` posts: a title and status, the standings table (place,
player, points, the format's tie-breaks, games and byes), then for a round robin its crosstable and for a
knockout its bracket.
`render(t)` is its PNG. `describe(t)` says it in at most ALT_LIMIT characters (the attachment's alt text);
`as_text(t)` is the whole table as plain text (the fallback when a picture cannot be sent).

Drawn with renderers/draw.py's fonts and palette, 800 px wide like the boards, growing taller as needed;
no text is smaller than MIN_SIZE (16 px: 9 px once a phone shows the picture 450 px wide), and the key
wraps rather than being cut. Withdrawn players are greyed, struck through and tagged "withdrawn".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games import GAMES
from bot.i18n import N_, _, ngettext, pgettext
from bot.tournaments.model import Pairing, Tournament
from bot.tournaments.standings import TIE_BREAKS, Standing, cell, knockout_exits, number, results_grid, standings
from renderers.draw import (
    ALERT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_BOX,
    TEXT,
    Colour,
    and_list,
    drawable,
    fit,
    length,
    player_n,
    rounded_box,
    text,
)
from renderers.panel import MIN_SIZE, break_lines
from renderers.png import to_png

WIDTH = 800
PAD = 20
ROW = 32
ROW_FONT = 18
HEAD_FONT = MIN_SIZE
KEY_LINE = 22
GRID_MIN_CELL = 22
"""A crosstable cell narrower than this would not be readable: the grid is left out (the text has it)."""
PLAYER_MIN_WIDTH = 200
"""The player column keeps at least this much when other columns widen for longer words."""
ALT_LIMIT = 1024
FORMAT_NAMES = {"knockout": N_("Knockout"), "roundrobin": N_("Round robin"), "swiss": N_("Swiss")}
"""Each format's name (English, marked: say it with `_`)."""
STRIPE = (23, 44, 67)


def name_of(t: Tournament, entry: int) -> str:
    """The entrant's name as drawn: without characters no font has (`Player N` if nothing is left)."""
    shown = drawable(t.entrants[entry].name).strip()
    return shown or player_n(entry)


def title(t: Tournament) -> str:
    game, format = GAMES[t.game].title, _(FORMAT_NAMES[t.format])
    if t.pods:
        return _("{game} · {format} · pods of up to {seats}").format(game=game, format=format, seats=t.seats)
    return f"{game} · {format}"


def status(t: Tournament) -> str:
    """Where the tournament stands: sign-up, the round and what is left to play, or finished (and who won)."""
    if not t.started:
        count = len(t.entrants)
        return ngettext("Sign-up: {count} player", "Sign-up: {count} players", count).format(count=count)
    if t.finished:
        top = [s for s in standings(t) if s.rank == 1]
        won = and_list([name_of(t, s.entry) for s in top])
        count = len(t.rounds)
        return ngettext(
            "Final standings after {count} round · winner: {names}",
            "Final standings after {count} rounds · winner: {names}",
            count,
        ).format(count=count, names=won)
    waiting = sum(1 for p in t.current.pairings if p.result is None)
    said = {"round": t.current.number, "rounds": t.planned_rounds, "count": waiting}
    if not waiting:
        return _("Round {round} of {rounds} · round complete").format(**said)
    return ngettext(
        "Round {round} of {rounds} · {count} game to play", "Round {round} of {rounds} · {count} games to play", waiting
    ).format(**said)


@dataclass(frozen=True, slots=True)
class Column:
    heading: str  # which column (English): `HEADINGS` says it in the reader's language
    width: int  # at least; wider if its heading or a cell needs it (a longer word in another language)
    align: str = "r"  # "l" or "r"

    @property
    def label(self) -> str:
        """The heading as drawn, in the reader's language."""
        return _(HEADINGS[self.heading]) if self.heading in HEADINGS else self.heading


HEADINGS = {
    "Rating": N_("Rating"),
    "Player": N_("Player"),
    "Pts": N_("Pts"),
    "W-L-D": N_("W-L-D"),
    "Won": N_("Won"),
    "Games": N_("Games"),
    "Bye": N_("Bye"),
    "Out in": N_("Out in"),
    "H2H": N_("H2H"),
}
"""The standings' column headings (said with `_`); "#" and the tie-breaks' names (Bh
Buchholz, SB Sonneborn-Berger) are the same in every language."""


BREAK_COLUMNS = {"buchholz": Column("Bh", 76), "sonneborn_berger": Column("SB", 84)}
"""The columns of the tie-breaks a format ranks by (`TIE_BREAKS`)."""


def _columns(t: Tournament, rows: Sequence[Standing]) -> list[Column]:
    place = Column("#", 60)
    if not t.started:
        return [place, Column("Player", 0, "l"), Column("Rating", 96)]
    byes = [Column("Bye", 62)] if any(s.byes for s in rows) else []
    if t.format == "knockout":
        return [place, Column("Player", 0, "l"), Column("W-L-D", 96), *byes, Column("Out in", 110)]
    columns = [place, Column("Player", 0, "l"), Column("Pts", 70), *(BREAK_COLUMNS[b] for b in TIE_BREAKS[t.format])]
    if any(s.head_to_head is not None for s in rows):
        columns.append(Column("H2H", 66))
    if t.pods:
        columns += [Column("Won", 62), Column("Games", 76)]
    else:
        columns.append(Column("W-L-D", 96))
    return columns + byes


def _cells(t: Tournament, s: Standing, columns: Sequence[Column]) -> list[str]:
    values = {
        "#": s.place if t.started else str(s.entry + 1),
        "Rating": f"{t.entrants[s.entry].rating:.0f}",
        "Player": name_of(t, s.entry),
        "Pts": number(s.points),
        "Bh": number(s.buchholz),
        "SB": number(s.sonneborn_berger),
        "H2H": "" if s.head_to_head is None else number(s.head_to_head),
        "W-L-D": f"{s.wins}-{s.losses}-{s.draws}",
        "Won": str(s.wins),
        "Games": str(s.wins + s.draws + s.losses),
        "Bye": str(s.byes) if s.byes else "",
        "Out in": (
            (_("champion") if t.finished else _("still in"))
            if s.out_in is None
            else _("round {number}").format(number=s.out_in)
        ),
    }
    return [values[c.heading] for c in columns]


def table(t: Tournament) -> tuple[list[str], list[list[str]]]:
    """The standings table as drawn: the column headings, then each row's cells, best first."""
    rows = _rows(t)
    columns = _columns(t, rows)
    return [c.label for c in columns], [_cells(t, s, columns) for s in rows]


def _rows(t: Tournament) -> list[Standing]:
    """Best first; before the start, in sign-up order."""
    return standings(t) if t.started else sorted(standings(t), key=lambda s: s.entry)


def _table_height(rows: int) -> int:
    return 26 + rows * ROW


def _paint_table(draw: ImageDraw.ImageDraw, t: Tournament, rows: Sequence[Standing], top: int) -> int:
    columns = _columns(t, rows)
    cells = [_cells(t, s, columns) for s in rows]
    widths = _widths(columns, cells)
    y = top
    x = PAD
    for c, w in zip(columns, widths, strict=True):
        anchor_x = x + 8 if c.align == "l" else x + w - 8
        heading = fit(c.label, HEAD_FONT, w - 12, bold=True)
        text(draw, (anchor_x, y + 4), heading, HEAD_FONT, MUTED, bold=True, anchor="la" if c.align == "l" else "ra")
        x += w
    y += 26
    for k, s in enumerate(rows):
        if k % 2 == 0:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW - 1), fill=STRIPE)
        gone = s.withdrawn
        colour = MUTED if gone else TEXT
        x = PAD
        for c, w, words in zip(columns, widths, cells[k], strict=True):
            bold = c.heading in ("#", "Pts")
            middle = y + ROW // 2
            if c.heading == "Player":
                tag = _("withdrawn") if gone else ""
                room = w - 16 - (length(tag, MIN_SIZE, True) + 10 if tag else 0)
                shown = fit(words, ROW_FONT, room, bold=not gone)
                text(draw, (x + 8, middle), shown, ROW_FONT, colour, bold=not gone, anchor="lm")
                if gone:
                    wide = length(shown, ROW_FONT)
                    draw.line((x + 8, middle + 1, x + 8 + wide, middle + 1), fill=MUTED, width=2)
                    text(draw, (x + 18 + wide, middle), tag, MIN_SIZE, ALERT, bold=True, anchor="lm")
            else:
                text(draw, (x + w - 8, middle), fit(words, ROW_FONT, w - 10, bold=bold), ROW_FONT, colour,
                     bold=bold, anchor="rm")  # fmt: skip
            x += w
        y += ROW
    return y


# ---------------------------------------------------------------------------------------------- crosstable


def _grid_cell(count: int) -> int:
    label = 220
    return min(40, (WIDTH - 2 * PAD - label) // max(1, count))


def _grid_height(count: int) -> int:
    return 0 if _grid_cell(count) < GRID_MIN_CELL else 40 + 30 + count * _grid_cell(count)


def _widths(columns: Sequence[Column], cells: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width: its own, or what its heading or widest cell needs (a longer word in another
    language); the player column takes what is left, and no less than PLAYER_MIN_WIDTH (the others give way)."""
    widths = []
    for index, c in enumerate(columns):
        if not c.width:
            widths.append(0)
            continue
        needed = max(
            [length(c.label, HEAD_FONT, True) + 16, *(length(row[index], ROW_FONT, True) + 14 for row in cells)]
        )
        widths.append(max(c.width, math.ceil(needed)))
    room = WIDTH - 2 * PAD - sum(widths)
    if room < PLAYER_MIN_WIDTH:
        widths = [c.width or 0 for c in columns]
        room = WIDTH - 2 * PAD - sum(widths)
    return [w or room for w in widths]


def _paint_grid(draw: ImageDraw.ImageDraw, t: Tournament, rows: Sequence[Standing], top: int) -> int:
    count = len(rows)
    size = _grid_cell(count)
    if size < GRID_MIN_CELL:
        return top
    grid = results_grid(t)
    heading = fit(_("Results (row against column)"), HEAD_FONT + 2, WIDTH - 2 * PAD, bold=True)
    text(draw, (PAD, top + 8), heading, HEAD_FONT + 2, TEXT, bold=True)
    y0 = top + 40
    label = WIDTH - 2 * PAD - count * size
    font_size = MIN_SIZE
    for k in range(count):  # column numbers: the places in the table above
        cx = PAD + label + k * size + size // 2
        text(draw, (cx, y0 + 12), str(k + 1), HEAD_FONT, MUTED, bold=True, anchor="mm")
    y0 += 30
    for i, s in enumerate(rows):
        y = y0 + i * size
        if i % 2 == 0:
            draw.rectangle((PAD, y, WIDTH - PAD, y + size - 1), fill=STRIPE)
        words = f"{i + 1}  {name_of(t, s.entry)}"
        colour = MUTED if s.withdrawn else TEXT
        text(draw, (PAD + 6, y + size // 2), fit(words, font_size, label - 12), font_size, colour, anchor="lm")
        for j, other in enumerate(rows):
            x = PAD + label + j * size
            box = (x + 1, y + 1, x + size - 2, y + size - 2)
            if i == j:
                draw.rectangle(box, fill=INK)
                continue
            draw.rectangle(box, outline=PANEL_BOX)
            mark = cell(grid.get((s.entry, other.entry), []))
            ink = HIGHLIGHT if mark in ("1", "+") else MUTED if mark in ("0", "−") else TEXT
            if mark:
                text(draw, (x + size // 2, y + size // 2), mark, font_size, ink, bold=True, anchor="mm")
    return y0 + count * size


# ---------------------------------------------------------------------------------------------- bracket

SLOT = 26
"""The height of one name line in the bracket."""
MATCH_GAP = 12
BRACKET_COLUMN_MIN = 160
BRACKET_FONT = 16
WITHDREW = "✗"
"""The bracket's mark for a player who withdrew in that round (the key says so): a word would cut the name."""
SHARED = N_("=\u00a0shared\u00a0place")
"""The key's last entry (no-break spaces: the key wraps, never inside it); say it with `_`."""


def _bracket_geometry(t: Tournament) -> tuple[int, int, int]:
    """(rounds, first-round pairings, column width)."""
    rounds = t.planned_rounds
    first = len(t.rounds[0].pairings)
    column = max(BRACKET_COLUMN_MIN, (WIDTH - 2 * PAD) // rounds)
    return rounds, first, column


def _bracket_height(t: Tournament) -> int:
    _rounds, first, _column = _bracket_geometry(t)
    return 40 + first * (2 * SLOT + MATCH_GAP)


def _bracket_width(t: Tournament) -> int:
    rounds, _first, column = _bracket_geometry(t)
    return max(WIDTH, 2 * PAD + rounds * column)


def _paint_bracket(image: Image.Image, t: Tournament, top: int) -> int:
    draw = ImageDraw.Draw(image)
    rounds, first, column = _bracket_geometry(t)
    seed_no = {entry: k + 1 for k, entry in enumerate(t.seeds)}
    exits = knockout_exits(t)
    text(draw, (PAD, top + 8), fit(_("Bracket"), HEAD_FONT + 2, WIDTH - 2 * PAD, bold=True), HEAD_FONT + 2, TEXT,
         bold=True)  # fmt: skip
    y0 = top + 40
    block = 2 * SLOT + MATCH_GAP
    centres: list[float] = [y0 + k * block + SLOT for k in range(first)]
    for r in range(rounds):
        x = PAD + r * column
        box_w = column - 24
        played = t.rounds[r].pairings if r < len(t.rounds) else ()
        for k, centre in enumerate(centres):
            p: Pairing | None = played[k] if k < len(played) else None
            box = (x, int(centre - SLOT), x + box_w, int(centre + SLOT))
            rounded_box(draw, box, PANEL_BOX)
            winner = t.winner_of(p) if p is not None else None
            lines: list[tuple[str, Colour, bool, str]] = []  # words, colour, bold, tag
            for entry in p.seats if p is not None else ():
                won = winner == entry
                gone = t.entrants[entry].withdrawn and exits.get(entry) == r + 1
                colour = HIGHLIGHT if won else MUTED if winner is not None or gone else TEXT
                lines.append((f"{seed_no[entry]} {name_of(t, entry)}", colour, won, WITHDREW if gone else ""))
            if p is not None and p.is_bye:
                lines.append((pgettext("standings", "bye"), MUTED, False, ""))
            for line_no, (words, colour, bold, tag) in enumerate(lines):
                ly = centre - SLOT + line_no * SLOT + SLOT // 2
                room = box_w - 14 - (length(tag, MIN_SIZE, True) + 8 if tag else 0)
                shown = fit(words, BRACKET_FONT, room, bold=bold)
                text(draw, (x + 8, ly), shown, BRACKET_FONT, colour, bold=bold, anchor="lm")
                if tag:
                    text(draw, (x + box_w - 8, ly), tag, MIN_SIZE, ALERT, bold=True, anchor="rm")
            draw.line((x + 6, centre, x + box_w - 6, centre), fill=PANEL, width=1)
            if r + 1 < rounds:  # the connector to the next round
                draw.line((x + box_w, centre, x + column - 12, centre), fill=MUTED, width=2)
        if r + 1 < rounds:
            nxt = [(a + b) / 2 for a, b in zip(centres[::2], centres[1::2], strict=True)]
            for k, mid in enumerate(nxt):
                a, b = centres[2 * k], centres[2 * k + 1]
                cx = x + column - 12
                draw.line((cx, a, cx, b), fill=MUTED, width=2)
                draw.line((cx, mid, cx + 12, mid), fill=MUTED, width=2)
            centres = nxt
    return y0 + first * block


# ---------------------------------------------------------------------------------------------- the picture


def draw(t: Tournament) -> Image.Image:
    """The standings picture: title, status, table; the crosstable (round robin) or bracket (knockout)."""
    rows = _rows(t)
    height = 20 + 34 + 28 + 10 + _table_height(len(rows)) + 20
    if t.started and t.format == "roundrobin":
        height += _grid_height(len(rows)) + 20
    if t.started and t.format == "knockout":
        height += _bracket_height(t) + 20
    width = _bracket_width(t) if t.started and t.format == "knockout" else WIDTH
    key_lines = break_lines(key(t, rows), MIN_SIZE, width - 2 * PAD, False)
    height += 10 + KEY_LINE * len(key_lines)
    image = Image.new("RGB", (width, height), PANEL)
    pen = ImageDraw.Draw(image)
    text(pen, (PAD, 20), fit(title(t), 26, width - 2 * PAD, bold=True), 26, TEXT, bold=True)
    text(pen, (PAD, 56), fit(status(t), 16, width - 2 * PAD), 16, HIGHLIGHT if t.finished else MUTED)
    y = 20 + 34 + 28 + 10
    if t.started and t.format == "knockout":
        y = _paint_bracket(image, t, y) + 20
    y = _paint_table(pen, t, rows, y) + 20
    if t.started and t.format == "roundrobin":
        y = _paint_grid(pen, t, rows, y) + 20
    for k, line in enumerate(key_lines):
        text(pen, (PAD, y + k * KEY_LINE), line, MIN_SIZE, MUTED)
    return image.crop((0, 0, width, y + 10 + KEY_LINE * len(key_lines)))


def key(t: Tournament, rows: Sequence[Standing]) -> str:
    if not t.started:
        return _("Signed up so far, in order; seeds come from the ratings when the tournament starts.")
    if t.format == "knockout":
        parts = [_("Seeds by rating (1 is the top seed) · a drawn game sends the higher seed on")]
        if any(s.withdrawn for s in rows):
            parts.append(_("{mark} withdrew").format(mark=WITHDREW))
        return " · ".join([*parts, _(SHARED)])
    names = {"buchholz": _("Bh Buchholz"), "sonneborn_berger": _("SB Sonneborn-Berger")}
    parts = [_("Pts points"), *(names[b] for b in TIE_BREAKS[t.format])]
    if any(s.head_to_head is not None for s in rows):
        parts.append(_("H2H head to head"))
    if any(s.byes for s in rows):
        parts.append(_("Bye byes (1 point each)"))
    if t.format == "roundrobin":
        parts.append(_("+ / − forfeit"))
    return " · ".join([*parts, _(SHARED)])


def render(t: Tournament) -> bytes:
    return to_png(draw(t))


# ---------------------------------------------------------------------------------------------- words


def _row_words(t: Tournament, s: Standing) -> str:
    name = t.entrants[s.entry].name.strip() or player_n(s.entry)
    if not t.started:
        return f"{s.entry + 1}. {name} ({t.entrants[s.entry].rating:.0f})"
    if s.withdrawn:
        name = _("{name} (withdrawn)").format(name=name)
    if t.format == "knockout":
        if t.finished and s.rank == 1:
            where = _("champion")
        elif s.out_in is None:
            where = _("still in")
        else:
            where = _("out in round {number}").format(number=s.out_in)
        if s.byes:
            where = ngettext("{where} with {count} bye", "{where} with {count} byes", s.byes).format(
                where=where, count=s.byes
            )
        return f"{_place(s)} {name}: {where}"
    values = {"buchholz": f"Bh {number(s.buchholz)}", "sonneborn_berger": f"SB {number(s.sonneborn_berger)}"}
    breaks = [values[b] for b in TIE_BREAKS[t.format]]
    if s.head_to_head is not None:
        breaks.append(f"{_(HEADINGS['H2H'])} {number(s.head_to_head)}")
    points = number(s.points)
    if s.byes:
        points = ngettext("{points} with {count} bye", "{points} with {count} byes", s.byes).format(
            points=points, count=s.byes
        )
    return f"{_place(s)} {name}: {points} ({', '.join(breaks)})"


def _place(s: Standing) -> str:
    """ "3." alone, "3=" shared."""
    return s.place if s.shared else f"{s.place}."


def lines(t: Tournament) -> list[str]:
    """The standings as text lines: title, status, then one line a player."""
    return [title(t), status(t), *(_row_words(t, s) for s in _rows(t))]


def as_text(t: Tournament) -> str:
    """The whole standings as plain text (the fallback when the picture cannot be sent)."""
    return "\n".join(lines(t))


def describe(t: Tournament, limit: int = ALT_LIMIT) -> str:
    """The picture's alt text: as many whole lines as fit in `limit` characters, then how many are left out."""
    all_lines = lines(t)
    kept: list[str] = []
    for k, line in enumerate(all_lines):
        left = len(all_lines) - k - 1
        more = _more(left) if left else ""
        candidate = "\n".join([*kept, line])
        if len(candidate) + (len(more) + 1 if more else 0) > limit:
            rest = _more(len(all_lines) - k)
            out = "\n".join([*kept, rest])
            return out if len(out) <= limit else out[: limit - 1] + "…"
        kept.append(line)
    return "\n".join(kept)


def _more(count: int) -> str:
    return ngettext("… and {count} more player", "… and {count} more players", count).format(count=count)


__all__ = ["ALT_LIMIT", "as_text", "describe", "draw", "lines", "render", "status", "table", "title"]
