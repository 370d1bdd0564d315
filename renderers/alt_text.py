"""Board pictures in words: the alt text of every image and the text board (issue #20).

`describe(key, state, caption)` is the description Discord gives a screen reader for a board image (its
attachment `description`, at most `ALT_LIMIT`, 1,024 characters): the game, whose turn it is (or the
result), the scores, the last move and the position in short. `text_board(key, state, caption)` is the
longer form that `/<game> board text:True` and the terminal's `board --text` answer with: one line a row or
region of the board, then the scores, the turn and the last move.

Both are made from the public view, `GAMES[key].view(state, None)`, as the pictures are, so neither can name
a hidden card (Event Horizon's hands and face-down cards); the `Caption` gives what the engine does not know:
names, clocks, the header, a result reached off the board, a pause. Each game has one function in `WORDS`
(named by its registration, as its drawer is) that says the position as an `Account`; what every game shares
(the title, the turn, the scores, the last move from the engine's `events`) is put together here. A
description that would be too long loses whole parts, the least needed first (the extras, then the later
lines of the last move, the scores), with "…" where something was left out, and is never cut inside a word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.clock import format_short
from bot.games import GAMES, REGISTRY
from bot.games import fish as fish_rules
from bot.games import geyser as geyser_rules
from bot.games import horizon as horizon_rules
from bot.games import themiscyra as themiscyra_rules
from bot.games import volcano as volcano_rules
from bot.games.registration import resolve
from bot.i18n import _, ngettext
from renderers.draw import Caption, SeatClock, and_list, colour_name

ALT_LIMIT = 1024
"""Characters of an attachment's description (alt text) that Discord takes."""
LAST_CAP = 240
"""The last move's first line in the alt text is cut (on a word) to this many characters."""
ELLIPSIS = "…"

KEEP, MAIN, USEFUL, DETAIL, EXTRA = 0, 1, 2, 3, 4
"""How much a part of the alt text is needed: KEEP parts always stay; when the text is too long, the
others go, EXTRA first, then DETAIL, USEFUL and last MAIN (the position and the last move)."""


@dataclass(frozen=True, slots=True)
class Account:
    """What one game says about a (viewed) position, for `describe` and `text_board`.

    `labels` name each seat as the status says it ("alice (orange)"); `out` are seats no longer playing.
    `turn` says what the mover is doing ("placing tokens", after "alice to move, "). `position` is the short
    form, one part a sentence (each kept or left out whole; all of it fits with six names of 32 characters),
    read with `legend`; `extras` are what the alt text may leave out (captures, supply, the deck). `rows` are
    the text board's lines, one a row or region, read with `key` (a line before them), and `notes` its lines after them.
    """

    labels: tuple[str, ...]
    turn: str = ""
    legend: str = ""
    position: tuple[str, ...] = ()
    extras: tuple[str, ...] = ()
    key: str = ""
    rows: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    out: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class _Part:
    text: str
    rank: int


def describe(
    key: str, state: Any, caption: Caption, *, viewer: int | None = None, lead: str | None = None, public: Any = None
) -> str:
    """The alt text of the picture of `state`: at most ALT_LIMIT characters, from the public view.

    `lead` comes first ("Replay of match #3, move by move, ending on this position."). `viewer` is only for
    a picture its owner alone sees (Event Horizon's hand): that seat's `private_lines` (its hand and the
    face-down cards it knows) are added; everything else is still the public view. `public` replaces that
    view where more may be seen (a finished game's review shows its positions as its final board: bot/review.py)."""
    game, view = GAMES[key], _public(key, state) if public is None else public
    account = WORDS[key](view, caption)
    parts = [_Part(lead, KEEP)] if lead else []
    parts.append(_Part(_intro(game, caption), KEEP))
    if caption.paused:
        parts.append(_Part(_("Paused by a moderator."), KEEP))
    parts.append(_Part(_status(game, view, caption, account), KEEP))
    if viewer is not None:
        names = _names(caption, len(account.labels))
        parts += [_Part(line.format(*names), KEEP) for line in game.private_lines(state, viewer)]
    scores = _scores(game, view, caption, account)
    if scores:
        parts.append(_Part(scores, USEFUL))
    lines = _events(game, view, caption, len(account.labels))
    if lines:
        parts.append(_Part(_("Last move: {move}").format(move=_clip_words(lines[0], LAST_CAP)), MAIN))
        parts += [_Part(line, DETAIL) for line in lines[1:]]
    else:
        parts.append(_Part(_("No move yet."), MAIN))
    if account.legend:
        parts.append(_Part(account.legend, USEFUL))
    parts += [_Part(text, MAIN) for text in account.position]
    parts += [_Part(text, EXTRA) for text in account.extras]
    return _fit(parts, ALT_LIMIT)


def text_board(key: str, state: Any, caption: Caption) -> str:
    """The position in words, from the public view: a line for the game, one a row or region of the board,
    then the scores, the turn (with the clocks) and the last move. Front-ends split it into messages."""
    game, view = GAMES[key], _public(key, state)
    account = WORDS[key](view, caption)
    lines = [_intro(game, caption)]
    if account.key:
        lines.append(account.key)
    lines += [*account.rows, *account.notes]
    scores = _scores(game, view, caption, account)
    if scores:
        lines.append(scores)
    if caption.paused:
        lines.append(_("Paused by a moderator."))
    lines.append(_status(game, view, caption, account))
    if caption.clocks:
        clocks = [
            (_("{name} {clock}, running") if clock.running else _("{name} {clock}")).format(
                name=caption.typed(seat), clock=_clock(clock)
            )
            for seat, clock in enumerate(caption.clocks)
        ]
        lines.append(_("Clocks: {clocks}.").format(clocks="; ".join(clocks)))
    events = _events(game, view, caption, len(account.labels))
    lines += [_("Last move: {move}").format(move=events[0]), *events[1:]] if events else [_("No move yet.")]
    return "\n".join(lines)


# --- what every game shares ---


def _public(key: str, state: Any) -> Any:
    if key not in GAMES or key not in WORDS:
        known = ", ".join(sorted(set(GAMES) & set(WORDS)))
        raise ValueError(f"no board words for game {key!r} (known: {known}).")
    return GAMES[key].view(state, None)


def _names(caption: Caption, seats: int) -> list[str]:
    return [caption.typed(seat) for seat in range(seats)]


def _intro(game: Any, caption: Caption) -> str:
    """`"1, 2, 3" board, Match #3.`: the game and the caption's header (its dots read as commas)."""
    header = (caption.header or "").strip().rstrip(".").replace(" · ", ", ")
    if header:
        return _("{game} board, {header}.").format(game=game.title, header=header)
    return _("{game} board.").format(game=game.title)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if i18n.unmarked(text).endswith((".", "!", "?", "…")) else text + "."


def _clock(clock: SeatClock) -> str:
    return _("move {move}, reserve {reserve}").format(
        move=format_short(clock.move_seconds), reserve=format_short(clock.reserve_seconds)
    )


def _status(game: Any, view: Any, caption: Caption, account: Account) -> str:
    """Whose turn it is, with the mover's clock; or the result (the caption's, when the game ended off the
    board: time, a resignation, an abort)."""
    if caption.result:
        return _sentence(caption.result)
    outcome = game.outcome(view)
    seat = game.to_move(view)
    if outcome is not None or seat is None:
        if outcome is None:
            return _("Game over.")
        if not outcome.winners:  # a solitaire game without a winner is no draw
            if len(account.labels) > 1:
                return _("Game over: a draw ({reason}).").format(reason=outcome.said)
            return _("Game over ({reason}).").format(reason=outcome.said)
        winners = [caption.typed(s) for s in sorted(outcome.winners)]
        return ngettext(
            "Game over: {names} wins ({reason}).", "Game over: {names} win ({reason}).", len(winners)
        ).format(names=and_list(winners), reason=outcome.said)
    name = account.labels[seat]
    turn = _("{name} to move, {doing}").format(name=name, doing=account.turn) if account.turn else None
    if caption.clocks and seat < len(caption.clocks):
        clock = _clock(caption.clocks[seat])
        if turn is None:
            return _("{name} to move ({clock}).").format(name=name, clock=clock)
        return f"{turn} ({clock})."
    return _sentence(turn) if turn is not None else _("{name} to move.").format(name=name)


def _scores(game: Any, view: Any, caption: Caption, account: Account) -> str:
    scores = game.scores(view)
    if not scores:
        return ""
    shown = [
        (_("{name} {score} (out)") if seat in account.out else _("{name} {score}")).format(
            name=caption.typed(seat), score=f"{score:g}"
        )
        for seat, score in enumerate(scores)
    ]
    return _("{label}: {scores}.").format(label=_(game.score_label), scores=", ".join(shown))


def _events(game: Any, view: Any, caption: Caption, seats: int) -> list[str]:
    """What the last move did, in the engine's words with the names filled in (they never name a hidden
    card)."""
    names = _names(caption, seats)
    return [_sentence(line.format(*names)) for line in game.events(view) if line.strip()]


def _size(text: str) -> int:
    """Characters as Discord may count them: UTF-16 units, so an emoji in a name counts two (never less
    than `len`, so within this is within Discord's limit whichever way it counts)."""
    return len(text.encode("utf-16-le")) // 2


def _clip_words(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters on a word boundary, ending in an ellipsis."""
    if _size(text) <= limit:
        return text
    head = text[: max(0, limit - 1)]
    while head and _size(head) > limit - 1:  # a character outside the BMP counts two
        head = head[:-1]
    if " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:(") + ELLIPSIS


def _fit(parts: Sequence[_Part], limit: int) -> str:
    """The parts joined, within `limit`: while too long, the least needed part goes (the last of equals),
    and "…" stands where parts were left out."""
    kept = [True] * len(parts)

    def joined() -> str:
        words: list[str] = []
        for part, keep in zip(parts, kept, strict=True):
            if keep:
                words.append(part.text)
            elif not words or words[-1] != ELLIPSIS:
                words.append(ELLIPSIS)
        return " ".join(words)

    text = joined()
    while _size(text) > limit:
        left = [i for i, part in enumerate(parts) if kept[i] and part.rank > KEEP]
        if not left:
            return _clip_words(text, limit)
        kept[max(left, key=lambda i: (parts[i].rank, i))] = False
        text = joined()
    return text


def _runs(cells: Sequence[tuple[str, str]]) -> str:
    """(square, what) cells of a row, neighbours alike merged: `a3 to c3 empty, d3 black, e3 white with a ring`."""
    out: list[str] = []
    start = 0
    for index in range(1, len(cells) + 1):
        if index == len(cells) or cells[index][1] != cells[start][1]:
            first, last = cells[start][0], cells[index - 1][0]
            if first == last:
                where = first
            elif index - start == 2:
                where = and_list([first, last])
            else:
                where = _("{first} to {last}").format(first=first, last=last)
            out.append(f"{where} {cells[start][1]}")
            start = index
    return ", ".join(out)


def _squares(names: Sequence[str]) -> str:
    return ", ".join(names) if names else _("none")


# --- the games ---


def fish(view: fish_rules.FishState, caption: Caption) -> Account:
    """Tokens by tile for each player, then the tiles left by their worth; rows A (top) to H."""
    names = _names(caption, 2)
    colours = [colour_name(seat) for seat in range(2)]
    owner = {tile: seat for seat, tiles in enumerate(view.tokens) for tile in tiles}
    turn = ""
    if view.placing and view.turn is not None:
        turn = _("placing tokens on 1-fish tiles ({placed} of {total} placed)").format(
            placed=sum(view.placed), total=2 * fish_rules.TOKENS_PER_PLAYER
        )
    position = []
    for seat in range(2):
        tiles = _squares([fish_rules.TILE_NAMES[t] for t in view.tokens[seat]])
        left = fish_rules.TOKENS_PER_PLAYER - view.placed[seat]
        said = {"name": names[seat], "colour": colours[seat], "tiles": tiles}
        if left and view.turn is not None:
            position.append(_("Tokens of {name} ({colour}): {tiles}; {left} still to place.").format(left=left, **said))
        else:
            position.append(_("Tokens of {name} ({colour}): {tiles}.").format(**said))
    for worth in (3, 2, 1):
        tiles = _squares([fish_rules.TILE_NAMES[t] for t in range(fish_rules.TILES) if view.values[t] == worth])
        position.append(_("{worth}-fish tiles: {tiles}.").format(worth=worth, tiles=tiles))
    rows = []
    for row, letter in enumerate(fish_rules.ROW_LETTERS):
        cells = []
        for tile in range(fish_rules.ROW_STARTS[row], fish_rules.ROW_STARTS[row] + fish_rules.ROW_LENGTHS[row]):
            worth = view.values[tile]
            what = ngettext("{count} fish", "{count} fish", worth).format(count=worth) if worth else _("gap")
            if tile in owner:
                what = _("{what}, {colour} token").format(what=what, colour=colours[owner[tile]])
            cells.append(f"{fish_rules.TILE_NAMES[tile]} {what}")
        rows.append(_("Row {row}: {cells}.").format(row=letter, cells=", ".join(cells)))
    taken = sum(1 for worth in view.values if not worth)
    left = fish_rules.TILES - taken
    notes = [
        ngettext("{count} tile left", "{count} tiles left", left).format(count=left)
        + ", "
        + ngettext("{count} tile taken.", "{count} tiles taken.", taken).format(count=taken)
    ]
    return Account(
        labels=tuple(f"{names[seat]} ({colours[seat]})" for seat in range(2)),
        turn=turn,
        position=tuple(position),
        key=_(
            "Tokens: {first} {first_colour}, {second} {second_colour}. Rows A (top) to H; rows B, D, F and H sit half"
            " a tile to the right. Each tile says its fish; a gap is a tile already taken."
        ).format(first=names[0], first_colour=colours[0], second=names[1], second_colour=colours[1]),
        rows=tuple(rows),
        notes=tuple(notes),
    )


def volcano(view: volcano_rules.VolcanoState, caption: Caption) -> Account:
    """Each square's stack bottom to top (piece codes in the alt text, words in the text board), the caps,
    and each player's captures."""
    seats = view.seats
    names = _names(caption, seats)
    caps = set(view.caps)
    turn = ""
    if view.steps and view.turn is not None:
        turn = _("in the middle of a turn: {steps} so far").format(steps=_clip_words(", ".join(view.steps), 120))
    short = []
    for square, stack in enumerate(view.board):
        name = volcano_rules.SQUARE_NAMES[square]
        what = " ".join(stack) if stack else _("empty")
        short.append(_("{square} {stack} capped") if square in caps else "{square} {stack}")
        short[-1] = short[-1].format(square=name, stack=what)
    position = [
        _("Caps on {squares}.").format(squares=", ".join(volcano_rules.SQUARE_NAMES[s] for s in view.caps)),
        *(_sentence(", ".join(short[column * 5 : column * 5 + 5])) for column in range(5)),
    ]
    extras = [
        _("{name} captured {pieces}.").format(name=names[seat], pieces=" ".join(captures))
        if captures
        else _("{name} captured nothing.").format(name=names[seat])
        for seat, captures in enumerate(view.captures)
    ]
    rows = []
    for row in range(volcano_rules.SIZE - 1, -1, -1):
        cells = []
        for column in range(volcano_rules.SIZE):
            square = column * volcano_rules.SIZE + row
            stack = view.board[square]
            pieces = ", ".join(volcano_rules.piece_name(p) for p in stack) if stack else _("empty")
            said = _("{square} {pieces}, with a cap") if square in caps else "{square} {pieces}"
            cells.append(said.format(square=volcano_rules.SQUARE_NAMES[square], pieces=pieces))
        rows.append(_("Row {row}: {cells}.").format(row=row + 1, cells="; ".join(cells)))
    notes = []
    for seat, captures in enumerate(view.captures):
        count = len(captures)
        if captures:
            taken = ", ".join(volcano_rules.piece_name(p) for p in captures)
            said = ngettext(
                "{name} has captured {count} piece: {pieces}.", "{name} has captured {count} pieces: {pieces}.", count
            ).format(name=names[seat], count=count, pieces=taken)
        else:
            said = _("{name} has captured 0 pieces.").format(name=names[seat])
        notes.append(said)
    resigned = frozenset(view.resigned)
    return Account(
        labels=tuple(names),
        turn=turn,
        legend=_(
            "Stacks bottom to top, R red, Y yellow, G green, B blue, C clear; 1 small, 2 medium, 3 large;"
            " capped: a cap on top."
        ),
        position=tuple(position),
        extras=tuple(extras),
        key=_("Rows 5 (top) to 1, columns a to e; each square's stack from the bottom up (clear is drawn purple)."),
        rows=tuple(rows),
        notes=tuple(notes),
        out=resigned,
    )


def _stones(seat: int, name: str, stones: Sequence[str], rings: Sequence[str]) -> str:
    said = {"name": name, "count": len(stones), "stones": _squares(stones), "rings": _squares(rings)}
    if seat == 0:
        return _("Black stones ({name}), {count}: {stones}; rings on {rings}.").format(**said)
    return _("White stones ({name}), {count}: {stones}; rings on {rings}.").format(**said)


def themiscyra(view: themiscyra_rules.ThemiscyraState, caption: Caption) -> Account:
    """Each colour's stones and ringed stones; rows 10 (top) to 1 with runs of empty squares merged."""
    names = _names(caption, 2)
    sides = (_("Black"), _("White"))
    turn = ""
    if view.setup and view.turn is not None:
        turn = _("setup: {placed} of {rings} rings down").format(
            placed=view.rings.bit_count(), rings=themiscyra_rules.RINGS
        )
    position = []
    for seat in range(2):
        stones = [name for s, name in enumerate(themiscyra_rules.SQUARE_NAMES) if view.stones[seat] >> s & 1]
        rings = [themiscyra_rules.SQUARE_NAMES[s] for s in view.rings_of(seat)]
        position.append(_stones(seat, names[seat], stones, rings))
    stone_words = ((_("black"), _("black with a ring")), (_("white"), _("white with a ring")))
    rows = []
    for row in range(themiscyra_rules.SIZE - 1, -1, -1):
        cells = []
        for column in range(themiscyra_rules.SIZE):
            square = row * themiscyra_rules.SIZE + column
            what = _("empty")
            for seat in range(2):
                if view.stones[seat] >> square & 1:
                    what = stone_words[seat][view.rings >> square & 1]
            cells.append((themiscyra_rules.SQUARE_NAMES[square], what))
        rows.append(_("Row {row}: {cells}.").format(row=row + 1, cells=_runs(cells)))
    return Account(
        labels=tuple(f"{names[seat]} ({sides[seat]})" for seat in range(2)),
        turn=turn,
        position=tuple(position),
        key=_("Black {black}, White {white}. Rows 10 (top) to 1, columns a to j.").format(
            black=names[0], white=names[1]
        ),
        rows=tuple(rows),
    )


def _geyser_cell(square: int, starts: set[int]) -> str:
    if square not in geyser_rules.LAND:
        return _("water")
    if square == geyser_rules.MOTHER:
        return _("Mother Geyser")
    if square in geyser_rules.RING_OF:
        return _("{ring} geyser").format(ring=geyser_rules.RING_NAMES[geyser_rules.RING_OF[square]])
    return _("start") if square in starts else _("land")


def geyser(view: geyser_rules.GeyserState, caption: Caption) -> Account:
    """Each player's tokens by square and supply; the island's rows 1 (top) to 11, runs merged."""
    seats = view.seats
    names = _names(caption, seats)
    colours = [colour_name(s) for s in range(seats)]
    turn = ""
    if view.phase == "start":
        turn = _("choosing a starting square")
    elif view.pending is not None and view.pending[0] == "place":
        turn = _("who may place a new token next to the geyser on {square} or skip").format(
            square=geyser_rules.SQUARE_NAMES[view.pending[1]]
        )
    elif view.pending is not None and view.pending[0] == "tie":
        src, dst = (geyser_rules.SQUARE_NAMES[s] for s in view.pending[1:3])
        turn = _("after a tied battle {battle}: roll again or retreat").format(battle=f"{src}-{dst}")
    position = []
    for seat in range(seats):
        held = [
            geyser_rules.SQUARE_NAMES[s]
            if count == 1
            else _("{count} on {square}").format(count=count, square=geyser_rules.SQUARE_NAMES[s])
            for s, (owner, count) in ((s, h) for s, h in enumerate(view.board) if h is not None)
            if owner == seat
        ]
        said = {"name": names[seat], "colour": colours[seat], "squares": _squares(held), "supply": view.supply[seat]}
        if seat in view.out:
            position.append(
                _("Tokens of {name} ({colour}), out of the game: {squares}; {supply} in supply.").format(**said)
            )
        else:
            position.append(_("Tokens of {name} ({colour}): {squares}; {supply} in supply.").format(**said))
    round_line = (
        "" if view.phase == "start" else _("Round {round} of {rounds}.").format(round=view.round, rounds=view.rounds)
    )
    starts = set(view.start_squares)
    rows = []
    for row in range(geyser_rules.SIZE):
        cells = []
        for column in range(geyser_rules.SIZE):
            square = row * geyser_rules.SIZE + column
            what = _geyser_cell(square, starts)
            if (held := view.board[square]) is not None:
                owner, count = held
                what = ngettext("{what}, {count} {colour} token", "{what}, {count} {colour} tokens", count).format(
                    what=what, count=count, colour=colours[owner]
                )
            cells.append((geyser_rules.SQUARE_NAMES[square], what))
        rows.append(_("Row {row}: {cells}.").format(row=row + 1, cells=_runs(cells)))
    seven = _("A roll of 7 fires the Mother Geyser.") if view.seven == "mother" else _("A roll of 7 fires nothing.")
    notes = [f"{round_line} {seven}".strip()]
    tokens = ", ".join(f"{names[s]} {colours[s]}" for s in range(seats))
    return Account(
        labels=tuple(f"{names[seat]} ({colours[seat]})" for seat in range(seats)),
        turn=turn,
        legend=round_line,
        position=tuple(position),
        key=_("Tokens: {tokens}. Rows 1 (top) to 11, columns a to k.").format(tokens=tokens),
        rows=tuple(rows),
        notes=tuple(notes),
        out=frozenset(view.out),
    )


def _slot_words(slot: horizon_rules.Slot, seat: int, names: Sequence[str] | None = None) -> str:
    """A card on `seat`'s path as anyone may see it: face up with its name, else face down; whose it is
    (by name with `names`, else "own" or "opponent's") and whether a Swap locked it."""
    card = _("{card} face up").format(card=horizon_rules.card_name(slot.card)) if slot.face_up else _("face down")
    if names is not None:
        whose = _("placed by {name}").format(name=names[slot.placed_by])
    else:
        whose = _("own") if slot.placed_by == seat else _("opponent's")
    return (_("{card} ({whose}, locked)") if slot.locked else "{card} ({whose})").format(card=card, whose=whose)


def _cards(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def horizon(view: horizon_rules.HorizonState, caption: Caption) -> Account:
    """Each path: the active token, the cards on its spaces (face down, or face up by name), the tokens
    escaped and the hand's size; the deck and the discard pile. Only what the spectator's view shows."""
    names = _names(caption, 2)
    colours = [colour_name(seat) for seat in range(2)]
    turn = ""
    if view.setup and view.turn is not None:
        turn = _("setup: placing cards face down ({placed} of {total} placed)").format(
            placed=sum(view.placed), total=2 * horizon_rules.SETUP_PLACEMENTS
        )
    position, rows = [], []
    for seat in range(2):
        place = view.positions[seat]
        said = {
            "name": names[seat],
            "colour": colours[seat],
            "token": _("token on space {space}").format(space=place) if place else _("token in the black hole"),
            "escaped": _("{escaped} of {tokens} escaped").format(
                escaped=view.escaped[seat], tokens=horizon_rules.TOKENS
            ),
            "hand": ngettext("{count} card in hand", "{count} cards in hand", len(view.hands[seat])).format(
                count=len(view.hands[seat])
            ),
        }
        cards = [
            f"{space} {_slot_words(slot, seat)}" for space, slot in enumerate(view.mats[seat], 1) if slot is not None
        ]
        if cards:
            position.append(
                _("{name}'s path ({colour}): {token}, {escaped}, {hand}; cards on spaces {cards}.").format(
                    cards="; ".join(cards), **said
                )
            )
        else:
            position.append(_("{name}'s path ({colour}): {token}, {escaped}, {hand}; no cards on it.").format(**said))
        spaces = []
        for space, slot in enumerate(view.mats[seat], 1):
            what = _slot_words(slot, seat, names) if slot is not None else _("empty")
            spaces.append(
                (_("{space} {what}, the token") if space == place else "{space} {what}").format(space=space, what=what)
            )
        rows.append(
            _("{name}'s path ({colour}): {token}; spaces {spaces}; {escaped}; {hand}.").format(
                spaces="; ".join(spaces), **said
            )
        )
    if view.discard:
        deck = _("Deck {deck}, discard pile {discard}, top {card}.").format(
            deck=_cards(len(view.deck)), discard=_cards(len(view.discard)),
            card=horizon_rules.card_name(view.discard[-1]),
        )  # fmt: skip
    else:
        deck = _("Deck {deck}, discard pile {discard}.").format(deck=_cards(len(view.deck)), discard=_cards(0))
    turns = _("Turns played: {first} {first_turns}, {second} {second_turns}, of {cap} each.").format(
        first=names[0], first_turns=view.turns[0], second=names[1], second_turns=view.turns[1], cap=view.turn_cap
    )
    return Account(
        labels=tuple(f"{names[seat]} ({colours[seat]})" for seat in range(2)),
        turn=turn,
        position=tuple(position),
        extras=(deck,),
        key=_("Each path from the black hole (0) through spaces 1 to 8 to the exit (9)."),
        rows=tuple(rows),
        notes=(deck, turns),
    )


Words = Callable[[Any, Caption], Account]
"""(view, caption) -> the position in words."""
WORDS: dict[str, Words] = {key: resolve(registration.words) for key, registration in REGISTRY.items()}
"""Each game's words, named by its registration (this module's own functions above)."""
