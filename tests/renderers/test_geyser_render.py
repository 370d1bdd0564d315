"""The Geyser board image: a valid, deterministic PNG whose pixels show the island, geysers, tokens, control,
the last move, the battle and firing dice, and the players."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.games.geyser import GEYSER, GEYSERS, LAND, MOTHER, RING_OF, SQUARE_NAMES, STARTS, GeyserState, parse_square
from renderers import Caption, SeatClock, geyser, render
from renderers.draw import HIGHLIGHT, INK, LAST_MOVE, TEXT, TO_SHARE
from renderers.panel import Layout, Line, Panel, PlacedText, Strip, lay_out
from tests.renderers.pixels import (
    Box,
    cards,
    check_the_mover,
    count,
    ink_bounds,
    ink_right,
    inside,
    name_text,
    rgb,
    same,
    seat_boxes,
    shown_whole,
    strip_box,
)

NAMES = ("alice", "bob", "carol", "dave")
LAND_COLOURS = {geyser.LAND_LIGHT, geyser.LAND_DARK}


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes every row: a broken stream fails here
    return image


def shot(state: GeyserState, viewer: int | None = None, caption: Caption | None = None) -> Image.Image:
    return open_png(render("geyser", state, viewer, caption=caption or Caption(names=NAMES[: state.seats])))


def square(name: str) -> int:
    """A square's index, water included (parse_square refuses water)."""
    return SQUARE_NAMES.index(name)


def crop(image: Image.Image, name: str) -> Image.Image:
    return image.crop(geyser.square_box(square(name)))


def colours_in(image: Image.Image, name: str) -> set[Any]:
    return {c for _, c in crop(image, name).getcolors(1 << 16) or []}


def centre(name: str) -> tuple[int, int]:
    return geyser.square_centre(square(name))


def board(image: Image.Image) -> bytes:
    return image.crop((0, 0, geyser.PANEL_LEFT - 4, geyser.HEIGHT)).tobytes()


def panel(image: Image.Image) -> Image.Image:
    return image.crop((geyser.PANEL_LEFT, 0, geyser.WIDTH, image.height))


def laid_out(state: GeyserState, viewer: int | None = None, caption: Caption | None = None) -> tuple[Layout, Panel]:
    """The side panel of `state` as `draw` lays it out for `viewer` (with `shot`'s caption), and its facts."""
    facts = geyser.panel(GEYSER.view(state, viewer), viewer, caption or Caption(names=NAMES[: state.seats]))
    return lay_out(facts, geyser.PANEL_LEFT - 4, geyser.WIDTH), facts


def dice(state: GeyserState) -> dict[str, tuple[Box, PlacedText]]:
    """The panel's dice, by what they rolled ("Battle", "Fire"): the box of the strip of dice, and the words
    laid out under it. Each strip comes before its words, and the words show in full."""
    layout, facts = laid_out(state)
    found: dict[str, tuple[Box, PlacedText]] = {}
    for strip, line in zip(facts.blocks[::2], facts.blocks[1::2], strict=True):
        assert isinstance(strip, Strip) and isinstance(line, Line), facts.blocks
        if not line.words:  # nothing rolled yet: the slot keeps its room, empty
            continue
        box = strip_box(layout, strip)
        (words,) = [placed for placed in layout.texts if placed.words == line.words]
        assert box[3] <= words.box[1] and shown_whole(words), (box, words)
        found[line.words.split()[0].rstrip(":")] = box, words
    return found


def die_boxes(strip: Box) -> tuple[Box, Box]:
    """The first and the second die of a strip of two (dice DIE + 2 px wide, a few px apart, from its left)."""
    left, top, _, bottom = strip
    middle = left + geyser.DIE + 4
    return (left, top, middle, bottom), (middle, top, middle + geyser.DIE + 4, bottom)


def panel_colours(image: Image.Image) -> set[Any]:
    return {c for _, c in panel(image).getcolors(1 << 16) or []}


def position(tokens: dict[str, tuple[int, int]], seats: int = 2, **kwargs: object) -> GeyserState:
    return GEYSER.state_from_position(seats, tokens, **kwargs)  # type: ignore[arg-type]


def playout(seats: int, seed: int, cap: int = 300) -> list[GeyserState]:
    rng = random.Random(seed)
    states = [GEYSER.new(seats, seed)]
    while GEYSER.to_move(states[-1]) is not None and len(states) <= cap:
        states.append(GEYSER.play(states[-1], rng.choice(GEYSER.legal_moves(states[-1]))))
    return states


def first_state(seats: int, seeds: range, want: object) -> GeyserState:
    for seed in seeds:
        for state in playout(seats, seed):
            if want(state):  # type: ignore[operator]
                return state
    raise AssertionError("no such state in these games")


def test_a_valid_png_about_800_wide() -> None:
    image = open_png(render("geyser", GEYSER.new(2, 1)))
    assert image.mode == "RGB"
    assert image.width == geyser.WIDTH and geyser.HEIGHT <= image.height <= 700


def test_same_state_and_caption_give_identical_bytes() -> None:
    state = playout(3, 3)[40]
    caption = Caption(names=NAMES[:3], clocks=(SeatClock(30, 60, False),) * 2 + (SeatClock(5, 4, True),), header="x")
    assert render("geyser", state, 0, caption=caption) == render("geyser", state, 0, caption=caption)


def test_a1_is_top_left_and_rows_run_down() -> None:
    a1, a11, k1 = centre("a1"), centre("a11"), centre("k1")
    assert a1[0] == a11[0] and a11[1] > a1[1]  # row 11 below row 1
    assert k1[1] == a1[1] and k1[0] > a1[0]
    assert geyser.square_box(square("k11"))[2] < geyser.PANEL_LEFT
    assert geyser.square_box(square("k11"))[3] < geyser.HEIGHT
    left, top, right, bottom = geyser.square_box(square("f6"))
    assert (right - left, bottom - top) == (geyser.SQUARE, geyser.SQUARE)


def test_water_and_land_look_different_everywhere() -> None:
    image = shot(GEYSER.new(4, 1))
    for index, name in enumerate(SQUARE_NAMES):
        seen = colours_in(image, name)
        if index in LAND:
            assert seen & LAND_COLOURS, name
            assert geyser.WATER not in seen, name
        else:
            assert image.getpixel(geyser.square_centre(index)) == geyser.WATER, name
            assert not seen & LAND_COLOURS, name


def test_geysers_the_mother_and_starting_squares_are_marked() -> None:
    image = shot(GEYSER.new(3, 1))
    plain = crop(image, "c2").tobytes()  # plain land, same shade as...
    assert colours_in(image, "c2") <= LAND_COLOURS | {geyser.GRID_LINE, geyser.COAST}
    for index in GEYSERS:
        assert geyser.CRATER_FILL in colours_in(image, SQUARE_NAMES[index])
    assert geyser.MOTHER_FILL in colours_in(image, "f6")
    assert geyser.CRATER_FILL not in colours_in(image, "f6")
    for index in STARTS:
        assert geyser.START_MARK in colours_in(image, SQUARE_NAMES[index])
        assert crop(image, SQUARE_NAMES[index]).tobytes() != plain
    # each ring's tag differs: the 6/8 geyser e5 and the 4/10 geyser e3 differ, both empty
    assert crop(image, "e5").tobytes() != crop(image, "e3").tobytes()
    assert RING_OF[parse_square("e5")] == 6 and RING_OF[parse_square("e3")] == 4


@pytest.mark.parametrize("state", [GEYSER.new(2, 1), position({"c3": (0, 1), "h9": (1, 1)})])
def test_a_two_player_board_marks_only_f1_and_f11_as_starting_squares(state: GeyserState) -> None:
    image, four = shot(state), shot(GEYSER.new(3, 1))
    for name in ("f1", "f11"):
        assert geyser.START_MARK in colours_in(image, name)
    for name in ("a6", "k6"):  # plain land in a two-player game: drawn as the land next to it
        assert geyser.START_MARK not in colours_in(image, name)
        assert colours_in(image, name) <= LAND_COLOURS | {geyser.GRID_LINE, geyser.COAST}
        assert crop(image, name).tobytes() != crop(four, name).tobytes()
    legacy = shot(replace(state, starts="four"))  # a match begun before the ruling keeps all four
    assert geyser.START_MARK in colours_in(legacy, "a6") and geyser.START_MARK in colours_in(legacy, "k6")


def test_two_player_setup_rings_f1_and_f11_only() -> None:
    state = GEYSER.new(2, 1)
    image, bare = shot(state), shot(replace(state, phase="play", turn=1, round=1))
    ring = geyser.SEAT_COLOURS[0]
    assert ring in colours_in(image, "f1") and ring in colours_in(image, "f11")
    assert ring not in colours_in(image, "a6") and ring not in colours_in(image, "k6")
    assert ring not in colours_in(bare, "f1")


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_token_shows_in_its_seat_colour_on_its_square(seat: int) -> None:
    state = position({"c3": (seat, 1), "h9": ((seat + 1) % 4, 1)}, seats=4)
    image = shot(state)
    colour = geyser.SEAT_COLOURS[seat]
    assert colour in colours_in(image, "c3")
    cx, cy = centre("c3")
    for band in ((cx - 8, cy), (cx + 8, cy), (cx, cy - 8), (cx, cy + 8)):  # between the white rim and the mark
        assert image.getpixel(band) == colour, band
    assert image.getpixel((cx, cy)) in {geyser.WHITE, INK}  # the seat's shape mark, in the middle
    assert colour not in colours_in(image, "h9")
    assert colour not in colours_in(image, "c4")


def test_a_count_badge_shows_when_tokens_share_a_square() -> None:
    one = shot(position({"c3": (0, 1), "h9": (1, 1)}))
    three = shot(position({"c3": (0, 3), "h9": (1, 1)}))
    assert crop(one, "c3").tobytes() != crop(three, "c3").tobytes()
    cx, cy = centre("c3")
    badge = three.crop((cx + 6, cy - 20, cx + 20, cy - 6))
    assert geyser.WHITE in {c for _, c in badge.getcolors(1 << 16) or []}
    assert crop(one, "h9").tobytes() == crop(three, "h9").tobytes()


def test_a_controlled_geysers_rim_takes_the_owners_colour() -> None:
    rim = (centre("e5")[0] + geyser.CRATER_R - 2, centre("e5")[1])  # in the rim band, clear of the token
    images = [shot(position({"e5": (seat, 1), "h9": (1 - seat, 1)})) for seat in (0, 1)]
    empty = shot(position({"c3": (0, 1), "h9": (1, 1)}))
    assert empty.getpixel(rim) == geyser.CRATER_RIM
    for seat, image in enumerate(images):
        assert image.getpixel(rim) == geyser.SEAT_COLOURS[seat]
    assert crop(images[0], "e5").tobytes() != crop(images[1], "e5").tobytes()


def ground(image: Image.Image, name: str) -> tuple[int, int, int]:
    """A pixel of a square's ground (its top-left corner) no token, crater, badge or start mark reaches."""
    left, top, _, _ = geyser.square_box(square(name))
    return image.getpixel((left + 3, top + 3))  # type: ignore[no-any-return]


def token_core(at: int, starts: tuple[int, ...] = STARTS) -> tuple[int, int, int, int]:
    """The square inside a token's disc: only the token is drawn there."""
    cx, cy = geyser.token_centre(at, starts)
    half = round(geyser.TOKEN_R * 0.65)
    return cx - half, cy - half, cx + half, cy + half


def nearer(image: Image.Image, bare: Image.Image, name: str) -> int:
    """How much nearer LAST_MOVE the square's ground came than without the last move (0: not at all)."""
    distance = lambda c: sum(abs(a - b) for a, b in zip(c, LAST_MOVE, strict=True))  # noqa: E731
    return distance(ground(bare, name)) - distance(ground(image, name))


def test_the_last_move_tints_the_square_left_and_more_the_square_reached() -> None:
    state = GEYSER.play(position({"c3": (0, 1), "h9": (1, 1)}), "c3-d3")
    assert state.last_move == (parse_square("c3"), parse_square("d3"))
    image, bare = shot(state), shot(replace(state, last_move=None))
    assert board(image) != board(bare)
    assert nearer(image, bare, "d3") > nearer(image, bare, "c3") > 30
    assert same(image, bare, token_core(square("d3")))  # the token itself is drawn as it was


def test_a_token_put_on_the_board_tints_its_square() -> None:
    state = GEYSER.new(3, 1)
    placed = GEYSER.play(state, GEYSER.legal_moves(state)[0])
    where = next(s for s, held in enumerate(placed.board) if held is not None)
    assert placed.last_move is None and geyser.tints(placed) == {where: TO_SHARE}
    image, bare = shot(placed), shot(replace(placed, events=()))
    assert nearer(image, bare, SQUARE_NAMES[where]) > 30
    assert same(image, bare, token_core(where, placed.start_squares))


def battle_state() -> GeyserState:
    """Seat 0 attacks seat 1 on d3; seat 1 holds a geyser, so its bonus is 1."""
    start = position({"c3": (0, 1), "d3": (1, 1), "e3": (1, 1), "h9": (0, 1)})
    state = GEYSER.play(start, "c3-d3")
    assert len(state.last_battle) == 6 and state.last_battle[2] == 0 and state.last_battle[5] == 1
    return state


def battle_words(state: GeyserState) -> str:
    """The last battle in words: each side's die, bonus and total, and who won (named as `shot` names them)."""
    attacker, a, a_bonus, defender, d, d_bonus = state.last_battle
    ours, theirs = a + a_bonus, d + d_bonus
    verdict = "tie!" if ours == theirs else f"{NAMES[attacker if ours > theirs else defender]} wins"
    return f"Battle: {NAMES[attacker]} {a}+{a_bonus} v {NAMES[defender]} {d}+{d_bonus}: {verdict}"


def test_the_last_battle_shows_both_dice_in_the_sides_colours() -> None:
    state = battle_state()
    image, bare = shot(state), shot(replace(state, last_battle=()))
    (battle,) = dice(state).values()
    box, words = battle
    assert words.words == battle_words(state) == "Battle: alice 5+0 v bob 6+1: bob wins"
    assert dice(replace(state, last_battle=())) == {}  # no battle: no dice, no words
    assert count(image, box, geyser.DIE_FACE) >= 2 * 200  # two white faces, in the strip laid out for them
    attacker, defender = die_boxes(box)
    assert count(image, attacker, geyser.SEAT_COLOURS[0]) >= 50  # each die rimmed in its side's colour
    assert count(image, attacker, geyser.SEAT_COLOURS[1]) == 0
    assert count(image, defender, geyser.SEAT_COLOURS[1]) >= 50
    assert count(image, defender, geyser.SEAT_COLOURS[0]) == 0
    assert geyser.DIE_FACE not in panel_colours(bare)
    assert board(image) == board(bare)  # the dice are in the panel, not over the water
    # the dice show their values: another roll looks different
    _, a, a_bonus, _, d, d_bonus = state.last_battle
    other = replace(state, last_battle=(0, a % 6 + 1, a_bonus, 1, d, d_bonus))
    assert dice(other)["Battle"][0] == box
    assert not same(shot(other), image, attacker) and same(shot(other), image, defender)
    assert dice(other)["Battle"][1].words == battle_words(other)
    more = replace(state, last_battle=(0, a, a_bonus + 2, 1, d, d_bonus))  # the bonus is shown too
    assert dice(more)["Battle"][1].words == battle_words(more)
    assert f"{a}+{a_bonus + 2} v" in battle_words(more)
    assert not same(shot(more), image, words.box)


def test_die_faces_differ_by_value() -> None:
    faces = {geyser.die_face(v, geyser.WHITE).tobytes() for v in range(1, 7)}
    assert len(faces) == 6


def fire_state(one: int, two: int, seven: str = "mother") -> GeyserState:
    """A position just after a firing phase rolled one + two; seat 1 stands on every 4/10 geyser."""
    fours = [SQUARE_NAMES[s] for s in GEYSERS if RING_OF[s] == 4]
    state = position({**{n: (1, 1) for n in fours}, "c3": (0, 1)}, seven=seven)
    return replace(state, last_fire=(one, two), last_seat=0)


def test_the_firing_dice_and_the_fired_ring_are_shown() -> None:
    state = fire_state(2, 6)  # 8: the 6/8 ring
    assert geyser.fired_squares(state) == sorted(s for s in GEYSERS if RING_OF[s] == 6)
    assert geyser.fired_label(state) == "6/8 fires"
    image, bare = shot(state), shot(replace(state, last_fire=None))
    (fire,) = dice(state).values()
    box, words = fire
    assert words.words == "Fire 2+6 = 8: 6/8 fires"
    assert count(image, box, geyser.DIE_FACE) >= 2 * 200  # two white faces...
    for die in die_boxes(box):
        assert count(image, die, geyser.FIRE_RIM) >= 50  # ...each in the fire's red rim
    assert dice(replace(state, last_fire=None)) == {}
    assert geyser.DIE_FACE not in panel_colours(bare)
    for index in geyser.fired_squares(state):
        assert {geyser.BURST_OUT, geyser.BURST_IN} <= colours_in(image, SQUARE_NAMES[index])
        assert geyser.BURST_OUT not in colours_in(bare, SQUARE_NAMES[index])
    assert geyser.BURST_OUT not in colours_in(image, "e3")  # a 4/10 geyser: not fired
    # another sum fires another ring
    nine = shot(replace(state, last_fire=(4, 5)))
    assert geyser.BURST_OUT in colours_in(nine, "d4") and geyser.BURST_OUT not in colours_in(nine, "e5")


def test_a_seven_fires_the_mother_or_nothing_when_calm() -> None:
    mother = fire_state(3, 4)
    assert geyser.fired_squares(mother) == [MOTHER]
    assert geyser.BURST_IN in colours_in(shot(mother), "f6")  # a boiling pool, a star around it
    assert geyser.BURST_IN not in colours_in(shot(replace(mother, last_fire=None)), "f6")
    assert dice(mother)["Fire"][1].words == "Fire 3+4 = 7: Mother fires"
    calm = fire_state(3, 4, seven="calm")
    assert geyser.fired_squares(calm) == [] and geyser.fired_label(calm) == "7: calm"
    image = shot(calm)
    assert all(geyser.BURST_IN not in colours_in(image, SQUARE_NAMES[s]) for s in [*GEYSERS, MOTHER])
    box, words = dice(calm)["Fire"]  # a calm seven still shows its dice, and says so
    assert words.words.startswith("Fire 3+4 = 7:") and words.words.endswith("calm")
    assert count(image, box, geyser.DIE_FACE) >= 2 * 200
    assert dice(replace(calm, last_fire=None)) == {}
    assert geyser.DIE_FACE not in panel_colours(shot(replace(calm, last_fire=None)))


def test_a_real_game_shows_its_fire_and_battles() -> None:
    fired = first_state(3, range(5), lambda s: s.last_fire is not None and sum(s.last_fire) != 7)
    image = shot(fired)
    for index in geyser.fired_squares(fired):
        assert geyser.BURST_OUT in colours_in(image, SQUARE_NAMES[index])
    assert fired.last_fire is not None
    one, two = fired.last_fire
    box, words = dice(fired)["Fire"]
    assert words.words == f"Fire {one}+{two} = {one + two}: {geyser.fired_label(fired)}"
    assert count(image, box, geyser.DIE_FACE) >= 2 * 200
    fought = first_state(2, range(5), lambda s: len(s.last_battle) == 6)
    box, words = dice(fought)["Battle"]
    assert words.words == battle_words(fought)
    bare = replace(fought, last_battle=())
    assert "Battle" not in dice(bare)
    assert count(shot(fought), box, geyser.DIE_FACE) >= 2 * 200
    assert panel(shot(fought)).tobytes() != panel(shot(bare)).tobytes()


def test_a_pending_placement_marks_the_free_squares_around_the_geyser() -> None:
    start = position({"e4": (0, 1), "h9": (1, 1)})
    state = GEYSER.play(start, "e4-e5")  # claims the 6/8 geyser e5
    assert state.pending == ("place", parse_square("e5"))
    image, bare = shot(state), shot(replace(state, pending=None))
    choices = [m.split()[1] for m in GEYSER.legal_moves(state) if m.startswith("place")]
    assert choices
    for name in choices:
        assert crop(image, name).tobytes() != crop(bare, name).tobytes()
    assert crop(image, "c3").tobytes() == crop(bare, "c3").tobytes()  # not around e5
    assert panel(image).tobytes() != panel(bare).tobytes()  # "place your new token around e5 or skip"


def test_free_starting_squares_are_marked_in_setup() -> None:
    state = GEYSER.new(3, 1)
    image = shot(state)
    placed = GEYSER.play(state, "start a6")
    after = shot(placed)
    assert crop(image, "a6").tobytes() != crop(after, "a6").tobytes()
    assert geyser.SEAT_COLOURS[0] in colours_in(after, "a6")
    assert geyser.SEAT_COLOURS[1] in colours_in(after, "f1")  # seat 1 to choose: its colour marks the rest
    assert geyser.SEAT_COLOURS[1] not in colours_in(image, "f1")


@pytest.mark.parametrize(
    "caption",
    [
        Caption(names=NAMES[:2], clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False))),
        Caption(names=NAMES[:2], clocks=(SeatClock(0, 9.5, True), SeatClock(30, 60, False))),
        Caption(names=NAMES[:2], paused=True),
        Caption(names=NAMES[:2], header="Death match · game 2 of 3 · alice 1–0 bob " * 3),
        Caption(names=NAMES[:2], result="bob wins on time"),
        Caption(names=("a name far too long to fit in the panel of the board image, really far too long", "")),
        Caption(names=("Ørjan Søndergård-Ĳsselmeer", "王小明 · Дмитрий · محمد 🙂")),
    ],
)
def test_captions_change_the_panel_only(caption: Caption) -> None:
    state = battle_state()
    plain = shot(state, caption=Caption(names=NAMES[:2]))
    shown = shot(state, caption=caption)
    assert shown.width == geyser.WIDTH and shown.height >= geyser.HEIGHT  # clocks and a header take room
    assert board(shown) == board(plain)
    assert shown.tobytes() != plain.tobytes()


def test_the_viewer_the_player_to_move_and_out_players_are_marked() -> None:
    state = playout(3, 2)[30]
    assert state.turn is not None
    assert render("geyser", state, viewer=0) != render("geyser", state, viewer=None)
    assert render("geyser", state, viewer=0) != render("geyser", state, viewer=1)
    moved = replace(state, turn=(state.turn + 1) % 3)
    assert panel(shot(moved)).tobytes() != panel(shot(state)).tobytes()
    out = replace(state, out=frozenset({(state.turn + 2) % 3}))
    assert panel(shot(out)).tobytes() != panel(shot(state)).tobytes()
    other_roller = replace(state, roller=(state.roller + 1) % 3)
    assert panel(shot(other_roller)).tobytes() != panel(shot(state)).tobytes()


def gold_pixels(image: Image.Image) -> int:
    return sum(n for n, c in panel(image).getcolors(1 << 16) or [] if c == geyser.HIGHLIGHT)


def test_a_finished_game_shows_its_winner() -> None:
    state = position({"f6": (0, 1), "e5": (0, 1), "h9": (1, 1)})
    final = replace(state, phase="over", turn=None, winners=(0,), end="on the Mother Geyser after the firing phase")
    image = shot(final)
    assert gold_pixels(image) > gold_pixels(shot(state)) + 3000  # the filled result box
    other = shot(replace(final, winners=(1,)))
    assert panel(other).tobytes() != panel(image).tobytes()
    assert geyser.SEAT_COLOURS[0] in colours_in(image, "f6")


def result(image: Image.Image, layout: Layout) -> tuple[PlacedText, Box]:
    """The result as laid out: its words, and the gold box round them, which the image shows painted gold
    from its top row to its bottom one (a column inside the rounded corners and left of the words)."""
    ((box, _, _),) = [entry for entry in layout.boxes if entry[1] == HIGHLIGHT]
    (words,) = [placed for placed in layout.texts if inside(placed.box, (box[0], box[1], box[2] + 1, box[3] + 1))]
    x0, y0, _, y1 = box
    assert count(image, (x0 + 8, y0, x0 + 9, y1 + 1), HIGHLIGHT) == y1 + 1 - y0
    return words, box


def test_a_shared_win_at_the_round_cap_names_every_winner() -> None:
    state = position({"d1": (0, 1), "a8": (1, 1), "h11": (2, 1)}, seats=3, round=100)
    end = "the most geysers after 100 rounds, shared"
    finals = [replace(state, phase="over", turn=None, winners=w, end=end) for w in ((0,), (0, 2), (0, 1, 2))]
    one, two, three = (shot(final) for final in finals)
    assert len({panel(i).tobytes() for i in (one, two, three)}) == 3
    shown = [result(image, laid_out(final)[0]) for image, final in zip((one, two, three), finals, strict=True)]
    assert [words.words for words, _ in shown] == [
        "alice wins",
        "alice and carol share the win",
        "alice, bob and carol share the win",
    ]
    assert all(shown_whole(words) for words, _ in shown)
    assert len({box for _, box in shown}) == 1  # one box for any result: the picture keeps its size
    for final in finals:  # and each winner's card says so
        assert sum(t.words == "★ wins" for t in laid_out(final)[0].texts) == len(final.winners)
    long = Caption(names=("a name far too long to fit in the panel, really", "b" * 40, "Ørjan Søndergård-Ĳsselmeer"))
    shared = shot(finals[2], caption=long)
    layout, _ = laid_out(finals[2], caption=long)
    words, box = result(shared, layout)
    # the names are cut short, longest first, so that as much of the sentence shows as the box holds; the
    # cards name everyone (and mark every winner)
    assert words.words.startswith("a name f") and long.names[0] not in words.words, words.words
    assert len(words.lines) == 2 and (shown_whole(words) or words.lines[-1].endswith("…")), words.lines
    assert sum(t.words == "★ wins" for t in layout.texts) == 3
    x0, y0, x1, y1 = words.extent()
    assert box[0] <= x0 and x1 <= box[2] and box[1] <= y0 and y1 <= box[3]  # inside the gold box
    assert shared.size == shot(state, caption=long).size  # the same size as while the game ran


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_positions_of_random_games_render_with_any_caption(seats: int) -> None:
    rng = random.Random(20240611 + seats)
    for seed in range(3):
        states = playout(seats, 100 * seats + seed)
        for state in rng.sample(states, min(8, len(states))) + [states[0], states[-1]]:
            clocks = tuple(SeatClock(rng.uniform(0, 60), rng.uniform(0, 600), s == state.turn) for s in range(seats))
            caption = Caption(
                names=tuple(rng.choice(NAMES + ("", "x" * 80, "Zoë", "李", "  ")) for _ in range(seats)),
                clocks=rng.choice((None, clocks)),
                header=rng.choice((None, "Casual", "Ladder · game 3 of 5 · " * 4)),
                paused=rng.random() < 0.3,
                result=rng.choice((None, None, "alice resigned", "bob wins on time " * 6)),
            )
            viewer = rng.choice((None, *range(seats)))
            image = open_png(render("geyser", state, viewer, caption=caption))
            layout, _ = laid_out(state, viewer, caption)
            assert image.size == (geyser.WIDTH, max(geyser.HEIGHT, layout.height))  # taller when the panel is


def round_line(image: Image.Image) -> Image.Image:
    """The panel's two lead lines under the player boxes of a two-player board (the round comes first)."""
    layout, _ = laid_out(position({"c3": (0, 1), "h9": (1, 1)}, round=17))
    (placed,) = [t for t in layout.texts if t.words.startswith("Round ")]
    return image.crop((geyser.PANEL_LEFT, placed.box[1], geyser.WIDTH, placed.box[1] + 40))


def test_the_panel_shows_the_round_of_the_cap_and_the_last_round_in_gold() -> None:
    state = position({"c3": (0, 1), "h9": (1, 1)}, round=17)
    image = shot(state)
    assert round_line(image).tobytes() != round_line(shot(replace(state, rounds=50))).tobytes()  # "of 100"/"of 50"
    assert panel(image).tobytes() != panel(shot(replace(state, round=18))).tobytes()
    gold = {c for _, c in round_line(image).getcolors(1 << 16) or []}
    assert geyser.HIGHLIGHT not in gold
    last = shot(replace(state, round=100))
    assert geyser.HIGHLIGHT in {c for _, c in round_line(last).getcolors(1 << 16) or []}
    assert board(last) == board(image)
    setup = shot(GEYSER.new(2, 1))
    assert panel(setup).tobytes() != panel(shot(GEYSER.new(2, 1, rounds=20))).tobytes()  # "Setup · 100 rounds"


def test_render_draws_through_the_registry_and_the_view() -> None:
    from renderers import DRAWERS

    assert DRAWERS["geyser"] is geyser.draw
    state = playout(2, 3)[25]
    assert state.seed is not None
    assert render("geyser", state) == render("geyser", GEYSER.view(state, None))


# --- each marker at the pixels where it is drawn (issue #17) ---

SEAT_LEFT, SEAT_RIGHT = geyser.PANEL_LEFT + 6, geyser.WIDTH - 10  # the seat boxes' left and right edges
TWO = {"c3": (0, 1), "h9": (1, 1)}


def name_row(box: Box) -> Box:
    """The line of a seat box with the name and its tags: right of the seat's disc, left of the geyser count."""
    left, top, right, _ = box
    return left + 28, top + 4, right - 50, top + 32


@pytest.mark.parametrize("turn", [0, 1])
def test_the_seat_to_move_has_a_border_in_its_colour_and_an_arrow_after_its_name(turn: int) -> None:
    state = position(TWO, turn=turn)
    assert GEYSER.to_move(state) == turn
    image = rgb(render("geyser", state, caption=Caption(names=NAMES[:2])))
    other = rgb(render("geyser", position(TWO, turn=1 - turn), caption=Caption(names=NAMES[:2])))
    layout, _ = laid_out(state)
    check_the_mover(image, layout, NAMES[:2], turn, geyser.seat_colour(turn))
    name = name_text(layout, cards(layout)[turn][0], NAMES[turn])
    assert ink_right(image, name.box, TEXT) - ink_right(other, name.box, TEXT) >= 12  # " ▶" painted


def test_the_viewer_is_called_you_in_its_own_box_and_nowhere_else() -> None:
    state = position(TWO, turn=1)
    spectator = rgb(render("geyser", state, caption=Caption(names=NAMES[:2])))
    for viewer in (0, 1):
        image = rgb(render("geyser", state, viewer, caption=Caption(names=NAMES[:2])))
        boxes = seat_boxes(image, SEAT_LEFT, SEAT_RIGHT, seats=2)
        mine = name_row(boxes[viewer])
        name_end = ink_right(spectator, mine, TEXT)
        assert ink_right(image, mine, TEXT) - name_end >= 40  # " (you)"
        if viewer != state.turn:  # (the mover's " ▶" moves right of " (you)")
            assert same(image, spectator, (mine[0], mine[1], name_end, mine[3]))
        assert same(image, spectator, name_row(boxes[1 - viewer]))
        assert same(image, spectator, (0, 0, geyser.PANEL_LEFT - 4, geyser.HEIGHT))


@pytest.mark.parametrize(("turn", "move"), [(0, "c3-d3"), (1, "h9-h10")])
def test_the_last_move_tints_its_two_squares_and_no_other(turn: int, move: str) -> None:
    state = GEYSER.play(position(TWO, turn=turn), move)
    src, dst = move.split("-")
    assert state.last_move == (parse_square(src), parse_square(dst)) and state.last_seat == turn
    image, bare = rgb(render("geyser", state)), rgb(render("geyser", replace(state, last_move=None)))
    assert nearer(image, bare, dst) > nearer(image, bare, src) > 30
    for name in set(SQUARE_NAMES) - {src, dst}:
        assert same(image, bare, geyser.square_box(square(name))), name


def test_the_column_letters_and_row_numbers_are_drawn_at_the_board_edges() -> None:
    image = rgb(render("geyser", position(TWO)))
    half = geyser.SQUARE // 2
    bottom = geyser.BOARD_TOP + geyser.BOARD_SIDE
    letters, numbers = [], []
    for k in range(11):
        cx, _ = centre("abcdefghijk"[k] + "1")  # column k's letter, under row 11
        _, cy = centre(f"a{k + 1}")  # row k + 1's number, left of column a (row 1 at the top)
        for marks, box, axis, middle, tall in (
            (letters, (cx - half + 2, bottom + 3, cx + half - 2, geyser.HEIGHT), 0, cx, 9),
            (numbers, (0, cy - half + 2, geyser.BOARD_LEFT - 2, cy + half - 2), 1, cy, 11),
        ):
            bounds = ink_bounds(image, box, geyser.COORD)
            assert bounds is not None, (k, box)
            assert count(image, box, geyser.COORD) >= 12, (k, box)
            assert bounds[3] - bounds[1] >= tall, (k, box)  # an x-height or digit height readable on a phone
            assert abs((bounds[axis] + bounds[axis + 2]) / 2 - middle) <= 3, (k, box)
            marks.append(bounds)
    assert len({image.crop(b).tobytes() for b in letters + numbers}) == 22
    widths = [b[2] - b[0] for b in numbers]
    assert widths[10] > widths[0] + 6  # "11" is two digits, at the bottom; "1" at the top
