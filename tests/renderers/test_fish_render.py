"""The "1, 2, 3" board image: a valid, deterministic PNG whose pixels show tiles, tokens and the last move."""

from __future__ import annotations

import io
import math
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.games import GAMES
from bot.games.fish import ROW_LETTERS, TILE_NAMES, FishState, parse_tile
from renderers import Caption, SeatClock, fish, render
from renderers.draw import LAST_MOVE, MUTED, SEAT_COLOURS, TEXT, text_extent
from renderers.panel import Layout, lay_out
from tests.renderers.pixels import Box, cards, check_the_mover, count, ink_bounds, ink_right, name_text, rgb, same

FISH = GAMES["fish"]
NAMES = ("alice", "bob")


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes every row: a broken stream fails here
    return image


def pixel(image: Image.Image, name: str) -> tuple[int, ...]:
    return image.getpixel(fish.tile_centre(parse_tile(name)))


def position(**tiles: int) -> FishState:
    """A move-phase position, every tile worth 1 unless named; tokens on D4, H7, A8 (seat 0) and D5, H1, A1."""
    values = [1] * 60
    for name, value in tiles.items():
        values[parse_tile(name)] = value
    return FISH.state_from_position(tuple(values), (("D4", "H7", "A8"), ("D5", "H1", "A1")))


def playout(seed: int) -> list[FishState]:
    rng = random.Random(seed)
    states = [FISH.new(2, seed)]
    while FISH.to_move(states[-1]) is not None:
        states.append(FISH.play(states[-1], rng.choice(FISH.legal_moves(states[-1]))))
    return states


def test_a_valid_png_about_800_wide() -> None:
    image = open_png(render("fish", FISH.new(2, 1)))
    assert image.mode == "RGB"
    assert image.size == (fish.WIDTH, fish.HEIGHT)
    assert 760 <= image.width <= 840


def test_same_state_and_caption_give_identical_bytes() -> None:
    state = playout(3)[20]
    caption = Caption(names=NAMES, clocks=(SeatClock(30, 60, False), SeatClock(12.5, 44, True)), header="DM")
    assert render("fish", state, caption=caption) == render("fish", state, caption=caption)


def test_tokens_gaps_and_each_value_look_different_at_the_tile_centre() -> None:
    image = open_png(render("fish", position(A2=2, A3=3, A4=0, D4=2, D5=3)))
    seen = {
        "seat 0": pixel(image, "D4"),
        "seat 1": pixel(image, "D5"),
        "gap": pixel(image, "A4"),
        "one": pixel(image, "A5"),
        "two": pixel(image, "A2"),
        "three": pixel(image, "A3"),
    }
    assert len(set(seen.values())) == len(seen), seen
    assert seen["seat 0"] == SEAT_COLOURS[0]
    assert seen["seat 1"] == SEAT_COLOURS[1]
    assert seen["gap"] == fish.WATER
    assert [seen["one"], seen["two"], seen["three"]] == [fish.ICE[1], fish.ICE[2], fish.ICE[3]]


def test_every_tile_centre_is_where_the_board_is_drawn() -> None:
    image = open_png(render("fish", position()))
    untouched = set(TILE_NAMES) - {"D4", "D5", "H7", "H1", "A8", "A1"}
    assert {pixel(image, name) for name in untouched} == {fish.ICE[1]}


def test_the_last_move_tints_its_two_tiles_under_the_token() -> None:
    moved = FISH.play(position(), "D4-D2")  # seat 0 moves two tiles west, over D3
    image = open_png(render("fish", moved))
    assert pixel(image, "D4") == fish._ice(0, LAST_MOVE)  # the gap the token left, tinted
    assert pixel(image, "D3") == fish.ICE[1]  # the tile passed over: untouched (no arrow hides its fish)
    assert pixel(image, "D2") == SEAT_COLOURS[0]  # the token stands on its tinted tile, whole
    cx, cy = fish.tile_centre(parse_tile("D2"))
    assert image.getpixel((cx, cy - 31)) == fish._ice(1, LAST_MOVE)  # the ice around it, tinted


def test_a_placement_tints_its_tile_under_the_token() -> None:
    fresh = FISH.new(2, 4)
    placed = FISH.legal_moves(fresh)[5]
    state = FISH.play(fresh, placed)
    image, plain = open_png(render("fish", state)), open_png(render("fish", replace(state, last_move=None)))
    cx, cy = fish.tile_centre(parse_tile(placed))
    edge = (cx + fish.HEX_W // 2 - 6, cy)  # the ice at the hex's right side, off the token
    value = state.values[parse_tile(placed)]
    assert image.getpixel(edge) == fish._ice(value, LAST_MOVE)
    assert plain.getpixel(edge) == fish.ICE[value]
    assert image.getpixel((cx, cy + fish.TOKEN_DROP)) == plain.getpixel((cx, cy + fish.TOKEN_DROP))  # the token


def test_render_draws_the_view_so_a_seeded_state_renders_like_its_view() -> None:
    state = FISH.new(2, 12345)
    assert state.seed is not None
    assert render("fish", state, viewer=None) == render("fish", FISH.view(state, None))
    assert open_png(render("fish", state, viewer=1)).size == (fish.WIDTH, fish.HEIGHT)


@pytest.mark.parametrize(
    "caption",
    [
        Caption(names=NAMES, clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, clocks=(SeatClock(0, 9.5, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, paused=True),
        Caption(names=NAMES, header="Death match · game 2 of 3 · alice 1–0 bob " * 3),
        Caption(names=("a name far too long to fit in the panel of the board image", "")),
    ],
)
def test_captions_render_and_change_the_image(caption: Caption) -> None:
    state = playout(5)[12]
    plain = render("fish", state, caption=Caption(names=NAMES))
    assert open_png(render("fish", state, caption=caption)).size == (fish.WIDTH, fish.HEIGHT)
    assert render("fish", state, caption=caption) != plain


def test_every_ply_of_a_whole_game_renders() -> None:
    states = playout(8)
    assert FISH.outcome(states[-1]) is not None
    assert any(s.cleared for s in states)  # stuck tokens or islands were scored on the way
    for state in states:
        open_png(render("fish", state, caption=Caption(names=NAMES)))


def test_unknown_game_key_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no board renderer for game 'chess'"):
        render("chess", FISH.new(2, 1))


def test_an_off_board_result_replaces_whose_turn_it_is() -> None:
    """A game lost on time still has a player to move in the engine; the caption's result must show."""
    state = FISH.new(2, 4)
    rng = random.Random(4)
    for _ in range(14):
        state = FISH.play(state, rng.choice(FISH.legal_moves(state)))
    plain = Image.open(io.BytesIO(render("fish", state, caption=Caption(names=("alice", "bob")))))
    ended = Image.open(
        io.BytesIO(render("fish", state, caption=Caption(names=("alice", "bob"), result="bob wins on time")))
    )
    board = (0, 0, fish.PANEL_LEFT, fish.HEIGHT)
    assert plain.crop(board).tobytes() == ended.crop(board).tobytes()  # the board itself is unchanged
    assert plain.tobytes() != ended.tobytes()  # the panel is not


# --- each marker at the pixels where it is drawn (issue #17) ---

TOKENS = (("D4", "H7", "A8"), ("D5", "H1", "A1"))


def to_move(turn: int) -> FishState:
    return FISH.state_from_position(tuple([1] * 60), TOKENS, turn=turn)


def laid_out(state: FishState, viewer: int | None = None, caption: Caption | None = None) -> Layout:
    """The side panel of `state` as `draw` lays it out for `viewer` (named alice and bob, as `render` is here)."""
    facts = fish.panel(FISH.view(state, viewer), viewer, caption or Caption(names=NAMES))
    return lay_out(facts, fish.PANEL_LEFT - 4, fish.WIDTH)


def tile_box(name: str, half_width: int = 32, half_height: int = 18) -> Box:
    """The middle of a tile: as wide as the hex (neighbours in a row do not overlap), clear of the next rows."""
    cx, cy = fish.tile_centre(parse_tile(name))
    return cx - half_width, cy - half_height, cx + half_width, cy + half_height


@pytest.mark.parametrize("turn", [0, 1])
def test_the_seat_to_move_has_a_border_in_its_colour_and_the_status_disc(turn: int) -> None:
    state = to_move(turn)
    image, layout = rgb(render("fish", state, caption=Caption(names=NAMES))), laid_out(state)
    check_the_mover(image, layout, NAMES, turn, SEAT_COLOURS[turn])
    other = rgb(render("fish", to_move(1 - turn), caption=Caption(names=NAMES)))
    name = name_text(layout, cards(layout)[turn][0], NAMES[turn])
    assert ink_right(image, name.box, TEXT) - ink_right(other, name.box, TEXT) >= 12  # " ▶"
    # "<name> to move" under the cards starts with a disc in the mover's colour
    status = next(placed for placed in layout.texts if placed.words == f"{NAMES[turn]} to move")
    assert status.box[1] > cards(layout)[-1][0][3]
    ((_, (x, y)),) = [
        (sprite, centre) for sprite, centre in layout.sprites if cards(layout)[-1][0][3] < centre[1] < status.box[3]
    ]
    assert x < status.box[0] and status.box[1] <= y <= status.box[3]  # left of the words, level with them
    status_disc = (x - 8, y - 8, x + 9, y + 9)
    assert count(image, status_disc, SEAT_COLOURS[turn]) >= 20
    assert count(image, status_disc, SEAT_COLOURS[1 - turn]) == 0


def test_the_viewer_is_called_you_in_its_own_box_and_nowhere_else() -> None:
    state = to_move(0)
    spectator, seen = rgb(render("fish", state, caption=Caption(names=NAMES))), laid_out(state)
    assert not any("(you)" in placed.words for placed in seen.texts)
    for viewer in (0, 1):
        image, layout = rgb(render("fish", state, viewer, caption=Caption(names=NAMES))), laid_out(state, viewer)
        boxes = [box for box, _ in cards(layout)]
        assert boxes == [box for box, _ in cards(seen)]
        assert [placed.words for placed in layout.texts if "(you)" in placed.words] == [
            f"{NAMES[viewer]}\u00a0(you)" + ("\u00a0▶" if viewer == state.turn else "")
        ]
        mine = name_text(layout, boxes[viewer], NAMES[viewer])
        assert "(you)" in mine.words
        assert ink_right(image, mine.box, TEXT) - ink_right(spectator, mine.box, TEXT) >= 40  # " (you)" painted
        name_end = math.ceil(text_extent(mine.origins[0], NAMES[viewer], mine.size, bold=mine.bold)[2])
        assert same(image, spectator, (mine.box[0], mine.box[1], name_end, mine.box[3]))  # the name itself as before
        theirs = name_text(layout, boxes[1 - viewer], NAMES[1 - viewer])
        assert theirs == name_text(seen, boxes[1 - viewer], NAMES[1 - viewer])
        assert same(image, spectator, boxes[1 - viewer])  # the other card, pixel for pixel
        assert same(image, spectator, (0, 0, fish.PANEL_LEFT - 4, fish.HEIGHT))  # and the board too


@pytest.mark.parametrize(
    ("turn", "move", "tiles"), [(0, "D4-D2", ("D4", "D3", "D2")), (1, "D5-D7", ("D5", "D6", "D7"))]
)
def test_the_last_move_tints_only_its_two_tiles_and_never_the_token(
    turn: int, move: str, tiles: tuple[str, str, str]
) -> None:
    moved = FISH.play(to_move(turn), move)
    image = rgb(render("fish", moved))
    bare = rgb(render("fish", replace(moved, last_move=None, last_seat=None)))
    src, _over, dst = tiles
    assert count(image, tile_box(src), fish._ice(0, LAST_MOVE)) >= 600  # the gap the token left, tinted
    assert count(bare, tile_box(src), fish._ice(0, LAST_MOVE)) == 0
    assert count(image, tile_box(dst), fish._ice(1, LAST_MOVE)) >= 300  # the ice round the token
    cx, cy = fish.tile_centre(parse_tile(dst))
    token = (cx - 14, cy + fish.TOKEN_DROP - 14, cx + 14, cy + fish.TOKEN_DROP + 14)
    assert same(image, bare, token)  # the token itself, pixel for pixel
    for name in set(TILE_NAMES) - {src, dst}:  # the tile passed over too
        assert same(image, bare, tile_box(name)), name


def test_a_placement_tint_marks_only_its_own_tile() -> None:
    fresh = FISH.new(2, 4)
    placed = FISH.legal_moves(fresh)[5]
    state = FISH.play(fresh, placed)
    image, bare = rgb(render("fish", state)), rgb(render("fish", replace(state, last_move=None)))
    cx, cy = fish.tile_centre(parse_tile(placed))
    right_side = (cx + fish.HEX_W // 2 - 9, cy - 12, cx + fish.HEX_W // 2 - 3, cy + 12)
    tint = fish._ice(state.values[parse_tile(placed)], LAST_MOVE)
    assert count(image, right_side, tint) >= 100
    assert count(bare, right_side, tint) == 0
    for name in set(TILE_NAMES) - {TILE_NAMES[parse_tile(placed)]}:
        assert same(image, bare, tile_box(name)), name


def test_an_island_the_engine_scores_is_tinted_in_its_owners_colour() -> None:
    for state in playout(8):
        if not state.cleared:
            continue
        image = rgb(render("fish", state))
        owners = fish.tints(state)
        for tile in state.cleared:
            assert owners[tile] in SEAT_COLOURS[:2], TILE_NAMES[tile]
            seat = SEAT_COLOURS.index(owners[tile])
            cx, cy = fish.tile_centre(tile)
            assert image.getpixel((cx, cy + 8)) == fish._ice(0, SEAT_COLOURS[seat]), TILE_NAMES[tile]
            # the scorer is the seat the engine's event names for that tile
            event = next(e for e in state.events if TILE_NAMES[tile] in e.split())
            assert f"{{{seat}}}" in event
        return
    raise AssertionError("no island scored in this game")


def test_the_row_letters_are_drawn_left_of_their_rows() -> None:
    image = rgb(render("fish", to_move(0)))
    marks = []
    for letter in ROW_LETTERS:
        cx, cy = fish.tile_centre(parse_tile(f"{letter}1"))
        margin = (0, cy - 20, cx - fish.HEX_W // 2 - 2, cy + 20)  # water left of the row's first tile
        bounds = ink_bounds(image, margin, MUTED)
        assert bounds is not None, letter
        assert count(image, margin, MUTED) >= 25, letter
        assert bounds[3] - bounds[1] >= 11, letter  # readable: cap height of 11 px or more
        assert abs((bounds[1] + bounds[3]) / 2 - cy) <= 3, letter  # level with the row
        marks.append(image.crop(bounds).tobytes())
    assert len(set(marks)) == len(ROW_LETTERS)  # eight different letters, not one mark eight times


def test_every_tile_carries_its_name_above_its_centre() -> None:
    state = FISH.state_from_position(tuple(0 if n in ("C3", "F6") else 1 for n in TILE_NAMES), TOKENS)
    image = rgb(render("fish", state))
    for tile, name in enumerate(TILE_NAMES):
        cx, cy = fish.tile_centre(tile)
        label = (cx - 17, cy - fish.LABEL_RISE - 9, cx + 17, cy - fish.LABEL_RISE + 9)
        assert count(image, label, fish.LABEL_INK[state.values[tile]], tolerance=16) >= 12, name
