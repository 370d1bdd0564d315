"""The board pictures in words (renderers/alt_text.py): the alt text of every image and the text board.

For every game and positions of seeded random games at every stage, with as many seats as the game takes
and names of 32 characters (Discord's longest), the alt text must fit Discord's 1,024 characters, say whose
turn it is (or the result) and the last move, and list every piece, token, stone or card where it is,
checked against the engine's state; the text board has a line for every row or region. Event Horizon's
are made from the spectator's view: changing the hands, the face-down cards, the deck and the seed of many
positions changes neither by a byte, while changing what anyone can see does.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from bot import discord_limits as limits
from bot.games import GAMES
from bot.games import fish as fish_rules
from bot.games import geyser as geyser_rules
from bot.games import themiscyra as themiscyra_rules
from bot.games import volcano as volcano_rules
from bot.games.horizon import DECK, HIDDEN, HORIZON, HorizonState, card_name
from renderers import Caption, SeatClock, alt_text
from renderers.alt_text import ALT_LIMIT, describe, text_board
from renderers.draw import SEAT_COLOUR_NAMES
from tests.test_wording import slips

KEYS = ("fish", "volcano", "themiscyra", "geyser", "horizon")
SEATS = {"fish": (2,), "volcano": (6, 3, 1), "themiscyra": (2,), "geyser": (4, 2), "horizon": (2,)}
ROWS = {"fish": 8, "volcano": 5, "themiscyra": 10, "geyser": 11, "horizon": 2}
"""Lines of the text board that describe the board: rows (Event Horizon: one path a player)."""


def long_names(seats: int) -> tuple[str, ...]:
    """Names of 32 characters, each its own (the longest Discord allows)."""
    return tuple((f"Player{seat} " + "Wy" * 16)[:32] for seat in range(seats))


def caption(seats: int, *, clocks: bool = True, names: tuple[str, ...] | None = None) -> Caption:
    return Caption(
        names=names or long_names(seats),
        clocks=tuple(SeatClock(30, 3600 * 30, running=seat == 0) for seat in range(seats)) if clocks else None,
        header="Match #12345",
    )


def playout(key: str, seats: int, seed: int, plies: int) -> list[Any]:
    game, rng = GAMES[key], random.Random(f"{key}:{seats}:{seed}")
    states = [game.new(seats, seed)]
    while game.to_move(states[-1]) is not None and len(states) <= plies:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


@cache
def positions(key: str, seats: int) -> tuple[Any, ...]:
    """Positions of seeded random games: the start, early, late, the last reached and random ones."""
    rng = random.Random(f"positions:{key}:{seats}")
    found: list[Any] = []
    for seed in range(5):
        game = playout(key, seats, seed, 400)
        found += [game[0], game[min(3, len(game) - 1)], game[-1], *rng.sample(game, min(8, len(game)))]
    return tuple(found)


CASES = [(key, seats) for key in KEYS for seats in SEATS[key]]


def segment(text: str, head: str) -> str:
    """What follows `head` in `text`, up to the end of that sentence (". " or the end)."""
    assert head in text, (head, text)
    rest = text[text.index(head) + len(head) :]
    end = re.search(r"\.(?: |$)", rest)
    return rest[: end.start()] if end else rest


def listed(words: str) -> list[str]:
    return [] if words == "none" else words.split(", ")


def last_move_named(key: str, view: Any, text: str) -> bool:
    """The description names the last move by its squares or space, as the engine's state holds it."""
    if not GAMES[key].events(view):
        return "No move yet." in text
    if key == "fish":
        return view.last_move in text
    if key == "volcano":
        steps = view.steps or view.last_steps
        return "resigns" in text or not steps or steps[-1] in text
    if key == "themiscyra":
        a, b, _, end = view.last
        return all(themiscyra_rules.SQUARE_NAMES[s] in text for s in (a, b, end))
    if key == "geyser":
        if view.last_move is None:
            return "Last move: " in text
        return geyser_rules.SQUARE_NAMES[view.last_move[1]] in text
    play = view.last_play
    return "passes" in text if play[0] == "pass" else f"space {play[2]}" in text


def check_position(key: str, view: Any, text: str, names: tuple[str, ...]) -> None:
    """Every piece, token, stone and card of the (viewed) state is where the description says."""
    if key == "fish":
        for seat in range(2):
            said = segment(text, f"Tokens of {names[seat]} ({SEAT_COLOUR_NAMES[seat]}): ").split("; ")
            assert listed(said[0]) == [fish_rules.TILE_NAMES[t] for t in view.tokens[seat]]
            left = fish_rules.TOKENS_PER_PLAYER - view.placed[seat]
            assert said[1:] == ([f"{left} still to place"] if left and view.turn is not None else [])
        for worth in (1, 2, 3):
            tiles = listed(segment(text, f"{worth}-fish tiles: "))
            assert tiles == [fish_rules.TILE_NAMES[t] for t in range(fish_rules.TILES) if view.values[t] == worth]
    elif key == "volcano":
        assert listed(segment(text, "Caps on ")) == [volcano_rules.SQUARE_NAMES[s] for s in view.caps]
        for square, stack in enumerate(view.board):
            said = f"{volcano_rules.SQUARE_NAMES[square]} {' '.join(stack) or 'empty'}"
            said += " capped" if square in view.caps else ""
            assert re.search(rf"(?<= ){re.escape(said)}[,.]", text), (said, text)
    elif key == "themiscyra":
        for seat, colour in enumerate(themiscyra_rules.COLOUR_NAMES):
            stones = [n for s, n in enumerate(themiscyra_rules.SQUARE_NAMES) if view.stones[seat] >> s & 1]
            rings = [themiscyra_rules.SQUARE_NAMES[s] for s in view.rings_of(seat)]
            said = segment(text, f"{colour} stones ({names[seat]}), {len(stones)}: ")
            shown_stones, shown_rings = said.split("; rings on ")
            assert (listed(shown_stones), listed(shown_rings)) == (stones, rings)
    elif key == "geyser":
        for seat in range(view.seats):
            out = ", out of the game" if seat in view.out else ""
            said = segment(text, f"Tokens of {names[seat]} ({SEAT_COLOUR_NAMES[seat]}){out}: ")
            held, supply = said.split("; ")
            tokens = {}
            for item in listed(held):
                count, _, square = item.rpartition(" on ")
                tokens[square] = int(count or 1)
            board = {geyser_rules.SQUARE_NAMES[s]: h[1] for s, h in enumerate(view.board) if h and h[0] == seat}
            assert tokens == board and supply == f"{view.supply[seat]} in supply"
    else:
        for seat in range(2):
            said = segment(text, f"{names[seat]}'s path ({SEAT_COLOUR_NAMES[seat]}): ")
            place = view.positions[seat]
            assert said.startswith(f"token on space {place}," if place else "token in the black hole,")
            assert f"{view.escaped[seat]} of 3 escaped" in said
            for space, slot in enumerate(view.mats[seat], 1):
                if slot is None:
                    assert not re.search(rf"(?:spaces |; ){space} ", said), (space, said)
                    continue
                card = f"{card_name(slot.card)} face up" if slot.face_up else "face down"
                assert re.search(rf"(?:spaces |; ){space} {re.escape(card)} \(", said), (space, card, said)


@pytest.mark.parametrize(("key", "seats"), CASES)
def test_the_alt_text_fits_and_says_the_turn_the_last_move_and_every_piece(key: str, seats: int) -> None:
    game = GAMES[key]
    for state in positions(key, seats):
        for shown in (caption(seats), caption(seats, clocks=False)):
            text = describe(key, state, shown)
            assert 0 < len(text) <= ALT_LIMIT and alt_text._size(text) <= ALT_LIMIT
            view = game.view(state, None)
            assert text.startswith(f"{game.title} board, Match #12345. ")
            seat = game.to_move(view)
            if seat is None:
                assert "Game over" in text
            else:
                assert f"{shown.name(seat)}" in segment(text, "Match #12345. ") and " to move" in text
            assert last_move_named(key, view, text), text
            check_position(key, view, text, shown.names)
            assert not slips(text), (slips(text), text)


@pytest.mark.parametrize(("key", "seats"), CASES)
def test_a_shortened_alt_text_leaves_out_whole_parts_and_says_so(
    key: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut to a few hundred characters, the text keeps whole words of the full one, the game and the turn,
    and marks what it left out with an ellipsis."""
    for state in positions(key, seats)[:12]:
        shown = caption(seats)
        monkeypatch.setattr(alt_text, "ALT_LIMIT", 100_000)
        full = describe(key, state, shown)
        for limit in (160, 300, 600):
            monkeypatch.setattr(alt_text, "ALT_LIMIT", limit)
            short = describe(key, state, shown)
            assert len(short) <= limit
            if len(full) > limit:
                assert "…" in short
            words = set(full.split())
            for word in short.split():  # whole words; one before an ellipsis may have lost its comma
                whole = word.removesuffix("…")
                assert word == "…" or whole in words or any(whole + mark in words for mark in ",;:"), word
            assert short.startswith(f"{GAMES[key].title} board, Match #12345.")


def test_the_longest_last_move_and_turn_are_cut_on_a_word() -> None:
    """A whole Volcano turn of many quiet steps, typed at once, is a long event line: it is cut on a word,
    and the six 32-character names, the scores, the caps and all 25 stacks still fit."""
    game = GAMES["volcano"]
    state = game.new(6, 1)
    moves: list[str] = []
    probe = state
    for _ in range(40):  # quiet steps for seat 0, sent afterwards as one turn
        quiet = [m for m in game.legal_moves(probe) if game.to_move(game.play(probe, m)) == 0]
        if not quiet:
            break
        moves.append(quiet[0])
        probe = game.play(probe, quiet[0])
    assert len(moves) >= 10
    state = game.play(state, ", ".join(moves))
    text = describe("volcano", state, caption(6))
    assert len(text) <= ALT_LIMIT and "Last move: Player0" in text and "… " in text
    check_position("volcano", game.view(state, None), text, long_names(6))


@pytest.mark.parametrize(("key", "seats"), CASES)
def test_the_text_board_has_a_line_a_row_then_scores_turn_and_last_move(key: str, seats: int) -> None:
    game = GAMES[key]
    for state in positions(key, seats)[:20]:
        shown = caption(seats)
        board = text_board(key, state, shown)
        lines = board.split("\n")
        assert lines[0] == f"{game.title} board, Match #12345."
        rows = [line for line in lines if line.startswith("Row ") or "'s path (" in line]
        assert len(rows) == ROWS[key]
        view = game.view(state, None)
        if game.scores(view):
            assert any(line.startswith(f"{game.score_label}: ") for line in lines)
        assert any(line.endswith(" to move.") or " to move, " in line or "to move (" in line for line in lines) or (
            game.to_move(view) is None and any(line.startswith("Game over") for line in lines)
        )
        assert any(line.startswith(("Last move: ", "No move yet.")) for line in lines)
        assert last_move_named(key, view, board)
        for line in lines:
            assert not slips(line), (slips(line), line)
        pages = limits.split(board)
        assert all(len(page) <= limits.MESSAGE for page in pages) and "\n".join(pages) == board


def test_the_text_board_rows_say_every_square() -> None:
    """Spot checks of the long form against the state: a Fish row names each tile's fish and tokens, a
    Themiscyra row covers all ten columns, a Volcano row names each stack in words."""
    fish = positions("fish", 2)[2]
    row_a = next(line for line in text_board("fish", fish, caption(2)).split("\n") if line.startswith("Row A: "))
    for tile in range(8):
        worth = fish.values[tile]
        assert f"A{tile + 1} {f'{worth} fish' if worth else 'gap'}" in row_a
    stones = positions("themiscyra", 2)[2]
    for line in text_board("themiscyra", stones, caption(2)).split("\n"):
        if line.startswith("Row "):
            runs = line.split(": ", 1)[1].rstrip(".").split(", ")
            covered = 0
            for run in runs:
                where = run.split(" ")[0:3]
                joined = where[1] in ("to", "and")
                covered += "abcdefghij".index(where[2][0]) - "abcdefghij".index(where[0][0]) + 1 if joined else 1
            assert covered == 10, line
    volcano = positions("volcano", 3)[2]
    row_5 = next(line for line in text_board("volcano", volcano, caption(3)).split("\n") if line.startswith("Row 5:"))
    for column in "abcde":
        square = volcano_rules.SQUARE_NAMES.index(f"{column}5")
        stack = volcano.board[square]
        words = ", ".join(volcano_rules.piece_name(p) for p in stack) if stack else "empty"
        assert f"{column}5 {words}" in row_5


def test_the_result_a_pause_and_the_start() -> None:
    fish = GAMES["fish"].new(2, 1)
    fresh = describe("fish", fish, Caption(names=("alice", "bob")))
    assert fresh.startswith('"1, 2, 3" board. alice (orange) to move, placing tokens on 1-fish tiles (0 of 8 placed).')
    assert "No move yet." in fresh and "Score: alice 0, bob 0." in fresh
    paused = describe("fish", fish, Caption(names=("alice", "bob"), paused=True))
    assert "Paused by a moderator." in paused and "Paused by a moderator." in text_board(
        "fish", fish, Caption(paused=True)
    )
    ended = Caption(names=("alice", "bob"), result="Game over: bob wins (alice's reserve time ran out).")
    said = describe("fish", fish, ended)
    assert "Game over: bob wins (alice's reserve time ran out)." in said and "to move" not in said
    done = positions("fish", 2)[2]
    assert GAMES["fish"].to_move(done) is None
    assert re.search(
        r"Game over: (Player\d.*? wins \(more fish, \d+ to \d+\)|a draw)", describe("fish", done, caption(2))
    )
    replay = describe("fish", done, caption(2), lead="Replay of match #7, move by move, ending on this position.")
    assert replay.startswith('Replay of match #7, move by move, ending on this position. "1, 2, 3" board')
    assert len(replay) <= ALT_LIMIT
    assert "Player 1 (orange) to move" in describe("fish", fish, Caption())  # no names: as the picture says


# --- Event Horizon: nothing hidden, ever ---


@cache
def horizon_positions() -> tuple[Any, ...]:
    rng = random.Random(2024)
    found: list[Any] = []
    for seed in range(12):
        game = playout("horizon", 2, 100 + seed, 300)
        found += [game[1], game[4], game[-1], *rng.sample(game, min(10, len(game)))]
    return tuple(found)


def hidden_changed(state: HorizonState, viewer: int | None, rng: random.Random) -> HorizonState:
    """`state` with all `viewer` may not know changed: the deck (cards and order), the hands it cannot see,
    the face-down cards it does not know (a Swap never lies on a path) and the seed."""
    deck = tuple(rng.choice(DECK) for _ in state.deck)
    hands = tuple(
        hand if seat == viewer else tuple(rng.choice([c for c in DECK if c != card]) for card in hand)
        for seat, hand in enumerate(state.hands)
    )
    mats = tuple(
        tuple(
            slot
            if slot is None or slot.face_up or (viewer is not None and viewer in slot.known)
            else replace(slot, card=rng.choice([c for c in DECK if c not in (slot.card, "SW")]))
            for slot in mat
        )
        for mat in state.mats
    )
    return replace(state, deck=deck, hands=hands, mats=mats, seed=(state.seed or 0) + 1 + rng.randrange(1000))  # type: ignore[arg-type]


def test_event_horizon_words_never_change_with_the_hidden_cards() -> None:
    """The hands, the face-down cards, the deck and the seed changed (many times, in many positions): the
    alt text and the text board stay byte for byte the same; nothing hidden is named."""
    rng = random.Random(5)
    shown = caption(2)
    changed = 0
    for state in horizon_positions():
        text, board = describe("horizon", state, shown), text_board("horizon", state, shown)
        for _ in range(4):
            other = hidden_changed(state, None, rng)
            changed += HORIZON.dumps(other) != HORIZON.dumps(state)
            assert describe("horizon", other, shown) == text
            assert text_board("horizon", other, shown) == board
        hidden = [slot.card for mat in state.mats for slot in mat if slot is not None and not slot.face_up]
        revealed = {card_name(c) for c in state.discard} | {card_name(link[1]) for link in state.last_chain}
        faces = {card_name(s.card) for mat in state.mats for s in mat if s is not None and s.face_up}
        for card in set(hidden) | set(state.hands[0]) | set(state.hands[1]):
            if card_name(card) not in revealed | faces:
                assert card_name(card) not in text and card_name(card) not in board, card
    assert changed > 100


def test_event_horizon_words_change_with_what_everyone_sees() -> None:
    shown = caption(2)
    for state in horizon_positions()[:20]:
        text, board = describe("horizon", state, shown), text_board("horizon", state, shown)
        moved = replace(state, positions=((state.positions[0] % 8) + 1, state.positions[1]))
        assert describe("horizon", moved, shown) != text and text_board("horizon", moved, shown) != board
        fewer = replace(state, hands=(state.hands[0][1:], state.hands[1]))
        if state.hands[0]:
            assert describe("horizon", fewer, shown) != text and text_board("horizon", fewer, shown) != board
        placed = [(m, i) for m in (0, 1) for i, s in enumerate(state.mats[m]) if s is not None and not s.face_up]
        if placed:
            mat, index = placed[0]
            mats = [list(state.mats[0]), list(state.mats[1])]
            mats[mat][index] = replace(mats[mat][index], face_up=True, known=frozenset({0, 1}))
            up = replace(state, mats=(tuple(mats[0]), tuple(mats[1])))
            assert card_name(up.mats[mat][index].card) in describe("horizon", up, shown)
            assert describe("horizon", up, shown) != text and text_board("horizon", up, shown) != board


def test_the_private_hand_picture_may_name_its_owners_cards_only() -> None:
    """`viewer` (the ephemeral /horizon hand) adds that seat's hand and the cards it knows, nothing else:
    changing the other hand, the deck or the cards it does not know changes nothing."""
    rng = random.Random(9)
    shown = caption(2)
    for state in horizon_positions()[:30]:
        if GAMES["horizon"].outcome(state) is not None:
            continue  # a finished game hides no card
        for seat in (0, 1):
            mine = describe("horizon", state, shown, viewer=seat)
            assert len(mine) <= ALT_LIMIT and "Your hand: " in mine
            for card in state.hands[seat]:
                assert card_name(card) in mine
            assert describe("horizon", hidden_changed(state, seat, rng), shown, viewer=seat) == mine
            assert HIDDEN not in mine


def test_a_seat_colour_name_for_every_seat_colour() -> None:
    from renderers.draw import SEAT_COLOURS

    assert len(SEAT_COLOUR_NAMES) == len(SEAT_COLOURS) == 6
    assert set(alt_text.WORDS) == set(GAMES)


def test_split_cuts_between_lines_within_discords_limit() -> None:
    lines = [f"Row {n}: " + "x" * 150 for n in range(40)]
    pages = limits.split("\n".join(lines))
    assert len(pages) > 1 and all(len(page) <= limits.MESSAGE for page in pages)
    assert "\n".join(pages).split("\n") == lines
    (long,) = limits.split("y" * 5000)
    assert len(long) <= limits.MESSAGE and long.endswith("…")


def test_the_alt_text_keeps_a_name_as_typed_where_the_picture_cannot_draw_it() -> None:
    """An emoji name is `Player 2` on the board (no font here draws it), but words are not pictures: the
    alt text and the text board say the name as typed."""
    state = GAMES["fish"].new(2, 3)
    caption = Caption(names=("alice", "🐟🐙🦑"), header="Match #5")
    assert caption.name(1) == "Player 2"
    assert "🐟🐙🦑" in describe("fish", state, caption) and "Player 2" not in describe("fish", state, caption)
    assert "🐟🐙🦑" in text_board("fish", state, caption)
    assert Caption(names=("alice", "  ")).typed(1) == "Player 2"  # a blank name still has a stand-in
