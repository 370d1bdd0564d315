"""The "1, 2, 3" board image: a valid, deterministic PNG whose pixels show tiles, tokens and the last move."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from bot.games import GAMES
from bot.games.fish import TILE_NAMES, FishState, parse_tile
from renderers import Caption, SeatClock, fish, render
from renderers.draw import SEAT_COLOURS

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


def test_the_last_move_is_an_arrow_in_the_movers_colour() -> None:
    moved = FISH.play(position(), "D4-D2")  # seat 0 moves two tiles west, over D3
    image = open_png(render("fish", moved))
    assert pixel(image, "D4") == SEAT_COLOURS[0]  # the arrow's round tail, on the gap the token left
    assert pixel(image, "D3") == SEAT_COLOURS[0]  # its shaft
    assert pixel(image, "D2") == SEAT_COLOURS[0]  # and the token it points at


def test_a_placement_is_ringed_in_the_placers_colour() -> None:
    fresh = FISH.new(2, 4)
    placed = FISH.legal_moves(fresh)[5]
    state = FISH.play(fresh, placed)
    image, plain = open_png(render("fish", state)), open_png(render("fish", replace(state, last_move=None)))
    cx, cy = fish.tile_centre(parse_tile(placed))
    edge = (cx + fish.HEX_W // 2, cy)  # on the hex's right side, where the ring runs
    assert image.getpixel(edge) == SEAT_COLOURS[0]
    assert plain.getpixel(edge) != SEAT_COLOURS[0]


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
