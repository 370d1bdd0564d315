"""The Event Horizon board image: a valid, deterministic PNG drawn only from what the viewer may know.

The key test is the security one: changing anything a viewer cannot know (the deck, the other hand, the
face-down cards it did not place) must not change a single byte of that viewer's image, while changing
something it can see (a face-up card, its own hand, a card it placed) must.
"""

from __future__ import annotations

import io
import itertools
import math
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot import i18n
from bot.games.horizon import DECK, HIDDEN, HORIZON, HorizonState, Slot
from renderers import Caption, SeatClock, horizon, render
from renderers.draw import INK, MUTED, TEXT, WHITE, text_extent
from renderers.panel import Layout, lay_out, step
from tests.renderers.pixels import (
    Box,
    cards,
    check_the_mover,
    count,
    ink_bounds,
    ink_right,
    name_text,
    same,
    words_drawn,
)

NAMES = ("alice", "bob")
CAPTION = Caption(names=NAMES)


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()  # decodes every row: a broken stream fails here
    return image


def shot(state: HorizonState, viewer: int | None = None, caption: Caption | None = None) -> Image.Image:
    return open_png(render("horizon", state, viewer, caption=caption or CAPTION))


def crop(image: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    return image.crop(box)


def colours(image: Image.Image, box: tuple[int, int, int, int]) -> set[Any]:
    return {c for _, c in image.crop(box).getcolors(1 << 18) or []}


def board(image: Image.Image) -> bytes:
    return image.crop((0, 0, horizon.PANEL_LEFT - 4, image.height)).tobytes()


def panel(image: Image.Image) -> bytes:
    return image.crop((horizon.PANEL_LEFT, 0, horizon.WIDTH, image.height)).tobytes()


def laid_out(state: HorizonState, viewer: int | None = None, caption: Caption = CAPTION) -> Layout:
    """The side panel of `state` as `draw` lays it out for `viewer`."""
    return lay_out(horizon.panel(HORIZON.view(state, viewer), viewer, caption), horizon.PANEL_LEFT - 4, horizon.WIDTH)


def band(centre: tuple[int, int]) -> list[tuple[int, int]]:
    """Four pixels of a token in its seat's colour: between its white rim and the shape mark in its middle."""
    x, y = centre
    return [(x - 8, y), (x + 8, y), (x, y - 8), (x, y + 8)]


def playout(seed: int, cap: int = 400, **options: Any) -> list[HorizonState]:
    rng = random.Random(seed)
    states = [HORIZON.new(2, seed, **options)]
    while HORIZON.to_move(states[-1]) is not None and len(states) < cap:
        states.append(HORIZON.play(states[-1], rng.choice(HORIZON.legal_moves(states[-1]))))
    return states


def first_state(want: Callable[[HorizonState], bool], seeds: range = range(60), **options: Any) -> HorizonState:
    for seed in seeds:
        for state in playout(seed, **options):
            if want(state):
                return state
    raise AssertionError("no such state in these games")


def knows(slot: Slot, viewer: int | None) -> bool:
    return slot.face_up or (viewer is not None and viewer in slot.known)


def hidden_changed(state: HorizonState, viewer: int | None, rng: random.Random) -> HorizonState:
    """`state` with everything `viewer` may not know changed: the deck (order and cards), the hands it cannot
    see, the face-down cards it does not know, and the seed."""
    deck = [rng.choice(DECK) for _ in state.deck]
    rng.shuffle(deck)
    hands = tuple(
        hand if seat == viewer else tuple(rng.choice([c for c in DECK if c != card]) for card in hand)
        for seat, hand in enumerate(state.hands)
    )
    mats = tuple(
        tuple(
            slot
            if slot is None or knows(slot, viewer)
            else replace(slot, card=rng.choice([c for c in DECK if c not in (slot.card, "SW")]))
            for slot in mat
        )
        for mat in state.mats
    )
    return replace(
        state,
        deck=tuple(deck),
        hands=hands,  # type: ignore[arg-type]
        mats=mats,  # type: ignore[arg-type]
        seed=(state.seed or 0) + 1 + rng.randrange(1000),
    )


def hidden_slots(state: HorizonState, viewer: int | None) -> list[tuple[int, int]]:
    return [
        (mat, space)
        for mat in (0, 1)
        for space in range(1, 9)
        if (slot := state.mats[mat][space - 1]) is not None and not knows(slot, viewer)
    ]


@cache
def sample_positions() -> tuple[HorizonState, ...]:
    """Positions of seeded random games: early, late, finished and random ones."""
    rng = random.Random(20240917)
    states: list[HorizonState] = []
    for seed in range(4):
        game = playout(100 + seed)
        states += [game[1], game[5], game[-1], *rng.sample(game, min(6, len(game)))]
    return tuple(states)


# --- the image ---


def test_a_valid_png_about_800_by_590() -> None:
    image = shot(HORIZON.new(2, 1))
    assert image.mode == "RGB"
    assert image.size == (horizon.WIDTH, horizon.HEIGHT) == (800, 590)


def test_same_state_and_caption_give_identical_bytes() -> None:
    state = playout(7)[30]
    caption = Caption(names=NAMES, clocks=(SeatClock(30, 60, True), SeatClock(5, 4, False)), header="x")
    for viewer in (None, 0, 1):
        assert render("horizon", state, viewer, caption=caption) == render("horizon", state, viewer, caption=caption)


def test_render_draws_through_the_registry_and_the_view() -> None:
    from renderers import DRAWERS

    assert DRAWERS["horizon"] is horizon.draw
    state = playout(3)[25]
    assert state.seed is not None
    for viewer in (None, 0, 1):
        assert render("horizon", state, viewer) == render("horizon", HORIZON.view(state, viewer), viewer)


# --- hidden information: the key test ---


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_nothing_the_viewer_cannot_know_changes_a_single_byte(viewer: int | None) -> None:
    rng = random.Random(99 if viewer is None else viewer)
    checked_slots = 0
    for state in sample_positions():
        if HORIZON.outcome(state) is not None:
            continue  # the final board shows every card (test_the_final_board_turns_every_card_face_up)
        original = render("horizon", state, viewer, caption=CAPTION)
        for _ in range(2):
            changed = hidden_changed(state, viewer, rng)
            assert changed.hands != state.hands  # the change touched something: the test can fail
            assert render("horizon", changed, viewer, caption=CAPTION) == original
            if hidden_slots(state, viewer):
                # drawn from the full state these cards would show: the view is what hides them
                full_before = horizon.draw(state, viewer, CAPTION).tobytes()
                full_after = horizon.draw(changed, viewer, CAPTION).tobytes()
                assert full_before != full_after
                checked_slots += 1
    assert checked_slots >= 10


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_the_final_board_turns_every_card_face_up(viewer: int | None) -> None:
    game = playout(101)
    last, before = game[-1], game[-2]
    assert HORIZON.outcome(last) is not None
    down = [(mat, n) for mat in (0, 1) for n, slot in enumerate(last.mats[mat], 1) if slot and not slot.face_up]
    assert down and hidden_slots(before, None)  # face down when the game ended, hidden one ply before
    image = shot(last, viewer)
    for mat, space in down:
        inside = colours(image, horizon.slot_box(mat, space, viewer))
        assert horizon.CARD_FACE in inside and horizon.BACK not in inside, (mat, space)
    assert horizon.BACK in colours(shot(before, viewer), (0, 0, horizon.PANEL_LEFT - 4, horizon.BOARD_BOTTOM))


def test_a_spectator_image_shows_backs_for_every_face_down_card() -> None:
    state = first_state(lambda s: len(hidden_slots(s, None)) >= 5 and not s.setup)
    image = shot(state)
    for mat, space in hidden_slots(state, None):
        box = horizon.slot_box(mat, space, None)
        inside = colours(image, box)
        assert horizon.BACK in inside
        assert horizon.CARD_FACE not in inside
        assert not any(k in inside for k in horizon.KIND_COLOURS.values())


def test_the_spectator_sees_no_hand_faces_only_counts() -> None:
    state = playout(11)[12]
    image = shot(state)
    area = horizon.hand_area(state, None)
    assert horizon.CARD_FACE not in colours(image, area)
    assert horizon.BACK in colours(image, area)
    # one more card in a hand is one more back
    more = replace(state, hands=(state.hands[0] + ("F1",), state.hands[1]))
    assert crop(shot(more), area).tobytes() != crop(image, area).tobytes()


def test_visible_changes_do_change_the_image() -> None:
    state = first_state(lambda s: not s.setup and len(hidden_slots(s, None)) >= 2)
    mat, space = hidden_slots(state, None)[0]
    slot = state.mats[mat][space - 1]
    assert slot is not None
    box = horizon.slot_box(mat, space, None)
    # the same card turned face up (as a Mimic does) shows for everyone
    up = [list(m) for m in state.mats]
    up[mat][space - 1] = replace(slot, face_up=True, known=frozenset({0, 1}))
    shown = replace(state, mats=(tuple(up[0]), tuple(up[1])))
    for viewer in (None, 0, 1):
        if knows(slot, viewer):
            continue
        seen = horizon.slot_box(mat, space, viewer)
        assert crop(shot(shown, viewer), seen).tobytes() != crop(shot(state, viewer), seen).tobytes()
    # and which card it is matters once it is face up
    other = "F1" if slot.card != "F1" else "B2"
    up[mat][space - 1] = replace(slot, card=other, face_up=True, known=frozenset({0, 1}))
    shown_other = replace(state, mats=(tuple(up[0]), tuple(up[1])))
    assert crop(shot(shown_other), box).tobytes() != crop(shot(shown), box).tobytes()


def test_a_seat_sees_its_own_hand_and_its_own_cards() -> None:
    state = first_state(lambda s: not s.setup and any(hidden_slots(s, None)) and s.turn is not None)
    for viewer in (0, 1):
        hand = state.hands[viewer]
        other_hand = tuple("T1" if c != "T1" else "T2" for c in hand)
        hands = (other_hand, state.hands[1]) if viewer == 0 else (state.hands[0], other_hand)
        changed = replace(state, hands=hands)
        assert shot(changed, viewer).tobytes() != shot(state, viewer).tobytes()
        assert shot(changed, 1 - viewer).tobytes() == shot(state, 1 - viewer).tobytes()
        assert shot(changed, None).tobytes() == shot(state, None).tobytes()
        first = horizon.hand_box(0)
        assert horizon.KIND_COLOURS[hand[0][0]] in colours(shot(state, viewer), first)
    # a face-down card its placer knows: changing it changes the placer's image only
    mat, space = hidden_slots(state, None)[0]
    slot = state.mats[mat][space - 1]
    assert slot is not None
    (placer,) = slot.known
    mats = [list(m) for m in state.mats]
    mats[mat][space - 1] = replace(slot, card="F1" if slot.card != "F1" else "B1")
    changed = replace(state, mats=(tuple(mats[0]), tuple(mats[1])))
    box = horizon.slot_box(mat, space, placer)
    assert crop(shot(changed, placer), box).tobytes() != crop(shot(state, placer), box).tobytes()
    assert shot(changed, 1 - placer).tobytes() == shot(state, 1 - placer).tobytes()
    assert shot(changed, None).tobytes() == shot(state, None).tobytes()


# --- the board ---


def test_a_known_face_and_a_back_differ_on_a_slot() -> None:
    start = HORIZON.new(2, 5, first=0)
    card = next(c for c in start.hands[0] if c != "SW")
    state = HORIZON.play(start, f"place {card} me:2")
    box = horizon.slot_box(0, 2, 0)
    assert box == horizon.slot_box(0, 2, None)  # seat 0 is at the bottom for both
    mine, public = shot(state, 0), shot(state, None)
    assert crop(mine, box).tobytes() != crop(public, box).tobytes()
    assert horizon.KIND_COLOURS[card[0]] in colours(mine, box) and horizon.CARD_FACE in colours(mine, box)
    assert horizon.BACK in colours(public, box) and horizon.CARD_FACE not in colours(public, box)
    empty = shot(start, None)
    assert crop(empty, box).tobytes() != crop(public, box).tobytes()  # a back is not an empty slot
    assert horizon.BACK not in colours(empty, box)


def test_every_card_has_its_own_face_a_symbol_and_its_number() -> None:
    faces = {horizon.card_sprite(card).tobytes() for card in set(DECK)}
    assert len(faces) == len(set(DECK))
    back = horizon.card_sprite(HIDDEN).tobytes()
    assert back not in faces
    assert horizon.face("T3") == ("to", "3") and horizon.face("F2") == ("forward", "2")
    assert horizon.face("B1") == ("back", "1")
    assert horizon.face("MI") == ("mimic", "") and horizon.face("SW") == ("swap", "")
    # the symbol is drawn in ink on the face, under the band: not the same for two kinds of card
    bodies = {}
    for card in ("T3", "F3", "B3", "MI", "SW"):
        sprite = horizon.card_sprite(card).convert("RGB")
        body = sprite.crop((horizon.RIM + 4, horizon.RIM + 48, horizon.RIM + horizon.CARD_W // 2, horizon.RIM + 76))
        inked = [p == horizon.INK for p in body.get_flattened_data()]
        assert sum(inked) >= 40, card
        bodies[card] = inked
    for a, b in itertools.combinations(bodies, 2):
        assert sum(p != q for p, q in zip(bodies[a], bodies[b], strict=True)) >= 40, (a, b)


@pytest.mark.parametrize("viewer", [0, None])
def test_a_key_under_the_board_names_every_card_symbol(viewer: int | None) -> None:
    """At the foot of the board, clear of the hands: a small card with each symbol (greyer than a card, so no
    test of hidden cards takes it for one) and the card's name."""
    state = first_state(lambda s: not s.setup)
    image = shot(state, viewer)
    height = horizon.image_height(HORIZON.view(state, viewer), viewer)
    assert image.height == height
    boxes = horizon.key_boxes(height)
    assert [(symbol, words) for symbol, words, _ in boxes] == [
        ("forward", "Forward"), ("back", "Backward"), ("to", "Move To"), ("swap", "Swap"),
        ("mimic", "Mimic: copies the card across"),
    ]  # fmt: skip
    spectators = horizon.HAND_TOP + horizon.HAND_LABEL_H + 8 + 44 + 36  # the second hand's row
    hands = horizon.hand_box(len(state.hands[0]) - 1)[3] if viewer == 0 else spectators
    for symbol, _, (left, top, right, bottom) in boxes:
        assert hands < top and bottom <= height and left >= horizon.BOARD_LEFT and right <= horizon.BOARD_RIGHT
        assert horizon.KEY_FACE in colours(image, (left, top, left + 30, bottom)), symbol  # the small card


def test_face_up_locked_and_placer_marks_show() -> None:
    state = first_state(lambda s: not s.setup and bool(hidden_slots(s, None)))
    mat, space = hidden_slots(state, None)[0]
    slot = state.mats[mat][space - 1]
    assert slot is not None
    box = horizon.slot_box(mat, space, None)
    wide = (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3)

    def with_slot(new: Slot) -> HorizonState:
        mats = [list(m) for m in state.mats]
        mats[mat][space - 1] = new
        return replace(state, mats=(tuple(mats[0]), tuple(mats[1])), last_play=None)

    plain = shot(with_slot(replace(slot, locked=False)))
    locked = shot(with_slot(replace(slot, locked=True)))
    assert crop(locked, box).tobytes() != crop(plain, box).tobytes()
    up = shot(with_slot(replace(slot, face_up=True, known=frozenset({0, 1}))))
    assert horizon.FACE_UP_RIM in colours(up, wide) and horizon.FACE_UP_RIM not in colours(plain, wide)
    by_other = shot(with_slot(replace(slot, placed_by=1 - slot.placed_by)))
    assert horizon.seat_colour(slot.placed_by) in colours(plain, box)
    assert horizon.seat_colour(1 - slot.placed_by) in colours(by_other, box)
    assert crop(by_other, box).tobytes() != crop(plain, box).tobytes()


def test_the_last_play_is_marked_on_its_slot() -> None:
    state = first_state(lambda s: s.last_play is not None and s.last_play[0] == "place")
    _, mat, space = state.last_play  # type: ignore[misc]
    left, top, right, bottom = horizon.slot_box(mat, space, None)
    wide = (left - 6, top - 6, right + 6, bottom + 6)
    bare = replace(state, last_play=None)
    assert crop(shot(state), wide).tobytes() != crop(shot(bare), wide).tobytes()


def test_the_viewers_mat_is_at_the_bottom() -> None:
    for viewer, bottom in ((None, 0), (0, 0), (1, 1)):
        assert horizon.slot_box(bottom, 4, viewer)[1] > horizon.slot_box(1 - bottom, 4, viewer)[1]
    # space N of both mats line up, and the path runs left to right
    assert horizon.slot_box(0, 4, None)[0] == horizon.slot_box(1, 4, None)[0]
    assert horizon.slot_box(0, 1, None)[0] < horizon.slot_box(0, 8, None)[0]
    assert horizon.slot_box(0, 8, None)[2] < horizon.PANEL_LEFT


def test_tokens_are_drawn_on_their_space_in_their_colour() -> None:
    state = first_state(lambda s: not s.setup and 1 <= s.positions[0] <= 8 and s.escaped[0] < 3)
    image = shot(state)
    centre = horizon.token_centre(0, state.positions[0], None)
    assert [image.getpixel(xy) for xy in band(centre)] == [horizon.seat_colour(0)] * 4
    assert image.getpixel(centre) in {WHITE, INK}  # the seat's shape mark
    moved_to = 1 if state.positions[0] != 1 else 2
    moved = shot(replace(state, positions=(moved_to, state.positions[1])))
    assert all(moved.getpixel(xy) != horizon.seat_colour(0) for xy in band(centre))
    assert [moved.getpixel(xy) for xy in band(horizon.token_centre(0, moved_to, None))] == [horizon.seat_colour(0)] * 4
    # escaped and waiting tokens: more escaped changes the hole and the exit
    out = shot(replace(state, escaped=((state.escaped[0] + 1) % 3, state.escaped[1])))
    assert board(out) != board(image)


def test_the_chain_is_numbered_in_the_slots_its_cards_left_and_the_die_changes_pixels() -> None:
    state = first_state(lambda s: len(s.last_chain) >= 2 and s.last_roll is not None)
    mover = state.last_seat
    assert mover is not None
    marks = horizon.chain_marks(state)
    assert [m[0] for m in marks] == list(range(1, len(state.last_chain) + 1))
    assert len({m[1] for m in marks}) == len(marks)  # a slot of its own for every link
    for viewer in (None, mover):
        image = shot(state, viewer)
        bare = shot(replace(state, last_chain=(), last_roll=None), viewer)
        for _number, space, _card, _where in marks:
            assert state.mats[mover][space - 1] is None  # the card left
            slot = horizon.slot_box(mover, space, viewer)
            assert crop(image, slot).tobytes() != crop(bare, slot).tobytes()
            assert horizon.seat_colour(mover) in colours(image, slot)  # the number's rim
            assert horizon.seat_colour(mover) not in colours(bare, slot)
        die = horizon.die_box(mover, viewer)
        assert crop(image, die).tobytes() != crop(bare, die).tobytes()
        assert horizon.DIE_FACE in colours(image, die) and horizon.DIE_FACE not in colours(bare, die)
        # nothing changes but those slots and the die on the board
        other = horizon.mat_box(1 - mover, viewer)
        assert crop(image, other).tobytes() == crop(bare, other).tobytes()
    # another roll is another face; another chain other marks
    roll = state.last_roll
    assert roll is not None
    rolled = shot(replace(state, last_roll=roll % 3 + 1))
    die = horizon.die_box(mover, None)
    assert crop(rolled, die).tobytes() != crop(shot(state), die).tobytes()
    shorter = shot(replace(state, last_chain=state.last_chain[:1]))
    last = horizon.slot_box(mover, marks[-1][1], None)
    assert crop(shorter, last).tobytes() != crop(shot(state), last).tobytes()


def test_a_mimic_copy_is_drawn_across_the_numbers() -> None:
    state = first_state(lambda s: any(c == "MI" and a != b for _, c, a, b in s.last_chain), seeds=range(400))
    numbers = (0, horizon.MID_TOP, horizon.PANEL_LEFT - 4, horizon.MID_BOTTOM)
    image = shot(state)
    assert horizon.KIND_COLOURS["M"] in colours(image, numbers)
    assert horizon.KIND_COLOURS["M"] not in colours(shot(replace(state, last_chain=())), numbers)


def test_a_big_hand_makes_the_image_taller() -> None:
    state = playout(4)[20]
    big = replace(state, hands=(("T1", "F2", "B3", "MI", "SW") * 3, state.hands[1]))
    image = shot(big, 0)
    assert image.height == horizon.image_height(HORIZON.view(big, 0), 0) > horizon.HEIGHT
    last = horizon.hand_box(14)
    assert last[3] <= image.height
    assert horizon.KIND_COLOURS["S"] in colours(image, last)
    assert shot(big, None).height == horizon.HEIGHT  # a spectator sees counts only


# --- phases and captions ---


def test_setup_shows_its_progress() -> None:
    state = playout(8)[2]
    assert state.setup
    image = shot(state)
    after = shot(HORIZON.play(state, HORIZON.legal_moves(state)[0]))
    assert panel(after) != panel(image)  # placed 1/3 -> 2/3, the other player to move


def test_a_finished_game_shows_its_winner() -> None:
    state = first_state(lambda s: s.winner is not None and s.end == "all 3 tokens escaped")
    image = shot(state)
    gold = sum(n for n, c in image.crop((horizon.PANEL_LEFT, 0, horizon.WIDTH, 590)).getcolors(1 << 18) or []
               if c == horizon.HIGHLIGHT)  # fmt: skip
    assert gold > 3000  # the result box
    assert state.winner is not None
    assert panel(shot(replace(state, winner=1 - state.winner))) != panel(image)


def test_a_turn_cap_draw_renders() -> None:
    state = first_state(lambda s: s.turn is None and s.winner is None, seeds=range(300), turn_cap=1)
    assert state.end == "turn cap, level"
    image = shot(state)
    won = shot(replace(state, winner=0, end="turn cap: the farther active token"))
    assert panel(won) != panel(image)


def test_all_phases_render_for_every_viewer() -> None:
    game = playout(21)
    capped = playout(22, turn_cap=3)
    for state in (game[0], game[3], game[len(game) // 2], game[-1], capped[-1]):
        for viewer in (None, 0, 1):
            assert shot(state, viewer).width == horizon.WIDTH


@pytest.mark.parametrize(
    "caption",
    [
        Caption(names=NAMES, clocks=(SeatClock(30, 60, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, clocks=(SeatClock(0, 9.5, True), SeatClock(30, 60, False))),
        Caption(names=NAMES, paused=True),
        Caption(names=NAMES, header="Death match · game 2 of 3 · alice 1–0 bob " * 3),
        Caption(names=NAMES, result="bob wins on time"),
        Caption(names=("a name far too long to fit in the panel of the board image, really far too long", "")),
        Caption(names=("Ørjan Søndergård-Ĳsselmeer", "王小明 · Дмитрий · محمد 🙂")),
    ],
)
def test_captions_render_and_show(caption: Caption) -> None:
    state = playout(9)[20]
    for viewer in (None, 0, 1):
        plain = shot(state, viewer, Caption(names=NAMES))
        shown = shot(state, viewer, caption)
        assert shown.size == plain.size
        assert panel(shown) != panel(plain)


def test_random_positions_with_random_captions_render() -> None:
    rng = random.Random(5)
    for state in sample_positions():
        clocks = tuple(SeatClock(rng.uniform(0, 60), rng.uniform(0, 600), s == state.turn) for s in (0, 1))
        caption = Caption(
            names=tuple(rng.choice((*NAMES, "", "x" * 80, "Zoë", "李", "  ")) for _ in range(2)),
            clocks=rng.choice((None, clocks)),
            header=rng.choice((None, "Casual", "Ladder · game 3 of 5 · " * 4)),
            paused=rng.random() < 0.3,
            result=rng.choice((None, None, "alice resigned", "bob wins on time " * 6)),
        )
        viewer = rng.choice((None, 0, 1))
        image = shot(state, viewer, caption)
        board_height = horizon.image_height(HORIZON.view(state, viewer), viewer)
        assert image.size == (horizon.WIDTH, max(board_height, laid_out(state, viewer, caption).height))


# --- each marker at the pixels where it is drawn (issue #17) ---


def corner(mat: int, space: int, viewer: int | None) -> Box:
    """Above the top left corner of a slot's card, where the top arm of the last play's corner mark runs
    (the gap left of the card is left out: the mark on the slot to the left reaches into it)."""
    left, top, _, _ = horizon.slot_box(mat, space, viewer)
    return left + 1, top - 7, left + 14, top + 12


@cache
def mid_game() -> HorizonState:
    """A position in play with cards in both hands, a face-up card and several face-down ones."""
    return first_state(
        lambda s: (
            not s.setup
            and s.turn is not None
            and min(len(hand) for hand in s.hands) >= 3
            and any(slot is not None and slot.face_up for mat in s.mats for slot in mat)
            and len(hidden_slots(s, None)) >= 3
        ),
        seeds=range(200),
    )


@pytest.mark.parametrize("turn", [0, 1])
def test_the_seat_to_move_has_a_border_in_its_colour_and_an_arrow_after_its_name(turn: int) -> None:
    state = HORIZON.new(2, 5, first=turn)
    assert HORIZON.to_move(state) == turn
    image, other = shot(state), shot(HORIZON.new(2, 5, first=1 - turn))
    layout = laid_out(state)
    check_the_mover(image, layout, NAMES, turn, horizon.seat_colour(turn))
    name = name_text(layout, cards(layout)[turn][0], NAMES[turn])
    assert ink_right(image, name.box, TEXT) - ink_right(other, name.box, TEXT) >= 12  # " ▶" painted


def test_the_viewers_hand_is_drawn_face_up_where_a_spectator_sees_no_card_face() -> None:
    state = mid_game()
    public = shot(state)
    for viewer in (0, 1):
        private = shot(state, viewer)
        hand = state.hands[viewer]
        for k, card in enumerate(hand):  # each card of the hand, face up in its place under the board
            box = horizon.hand_box(k)
            assert count(private, box, horizon.CARD_FACE) >= 400, (viewer, k)
            assert count(private, box, horizon.KIND_COLOURS[card[0]]) >= 400, (viewer, k, card)
        after = horizon.hand_box(len(hand))
        assert count(private, after, horizon.CARD_FACE) == 0  # and nothing after the last
        # the spectator's image has no card face anywhere in the hands' area, only small backs
        assert count(public, horizon.hand_area(state, None), horizon.CARD_FACE) == 0
        for kind in horizon.KIND_COLOURS.values():
            assert count(public, horizon.hand_area(state, None), kind) == 0, kind
        # "(you)" after the viewer's name in the panel, and nowhere else there
        layout, seen = laid_out(state, viewer), laid_out(state)
        assert not any("(you)" in placed.words for placed in seen.texts)
        assert [placed.words for placed in layout.texts if "(you)" in placed.words] == [
            f"{NAMES[viewer]}\u00a0(you)" + ("\u00a0▶" if viewer == state.turn else "")
        ]
        mine = name_text(layout, cards(layout)[viewer][0], NAMES[viewer])
        name_end = math.ceil(text_extent(mine.origins[0], NAMES[viewer], mine.size, bold=mine.bold)[2])
        assert ink_right(private, mine.box, TEXT) - name_end >= 40  # " (you)" painted after the name
        spectators = name_text(seen, cards(seen)[viewer][0], NAMES[viewer])
        if mine.size == spectators.size:  # the name itself as the spectator sees it
            first_line = (mine.box[0], mine.box[1], name_end, mine.box[1] + step(mine.size))
            assert same(private, public, first_line)
        else:  # or shrunk a little to keep "(you)" on its line
            assert mine.lines == (mine.words,) and mine.size < spectators.size
        # the other card's name: the same words, painted the same (lower down if the viewer's card grew)
        theirs = name_text(layout, cards(layout)[1 - viewer][0], NAMES[1 - viewer])
        as_seen = name_text(seen, cards(seen)[1 - viewer][0], NAMES[1 - viewer])
        assert (theirs.words, theirs.lines, theirs.size) == (as_seen.words, as_seen.lines, as_seen.size)
        assert private.crop(theirs.box).tobytes() == public.crop(as_seen.box).tobytes()


def faces_outside_face_up_cards(image: Image.Image, state: HorizonState, viewer: int | None) -> int:
    """Card-face pixels on the board and under it, but not on a face-up card (which anyone may see)."""
    covered = image.copy()
    for mat in (0, 1):
        for space in range(1, 9):
            slot = state.mats[mat][space - 1]
            if slot is not None and slot.face_up:
                left, top, right, bottom = horizon.slot_box(mat, space, viewer)
                covered.paste((0, 0, 0), (left - 4, top - 4, right + 4, bottom + 4))
    return count(covered, (0, 0, horizon.PANEL_LEFT - 4, covered.height), horizon.CARD_FACE)


def test_no_hidden_card_shows_a_face_in_the_spectators_image() -> None:
    state = mid_game()
    assert faces_outside_face_up_cards(shot(state), state, None) == 0
    for viewer in (0, 1):  # the same count finds the faces a seat may see: its hand, the cards it knows
        assert faces_outside_face_up_cards(shot(state, viewer), state, viewer) >= 400 * len(state.hands[viewer])


@pytest.mark.parametrize(("mover", "move", "mat", "space"), [(0, "me:2", 0, 2), (1, "opp:5", 0, 5)])
def test_the_last_play_has_corner_marks_in_the_movers_colour_on_its_slot_only(
    mover: int, move: str, mat: int, space: int
) -> None:
    state = HORIZON.new(2, 5, first=0)
    if mover == 1:
        state = HORIZON.play(state, f"place {next(c for c in state.hands[0] if c != 'SW')} opp:3")
    card = next(c for c in state.hands[mover] if c != "SW")
    state = HORIZON.play(state, f"place {card} {move}")
    assert state.last_play == ("place", mat, space) and state.last_seat == mover
    colour = horizon.seat_colour(mover)
    for viewer in (None, 0, 1):
        image, bare = shot(state, viewer), shot(replace(state, last_play=None), viewer)
        assert count(image, corner(mat, space, viewer), colour) >= 30, viewer
        assert count(bare, corner(mat, space, viewer), colour) == 0, viewer
        for other_mat in (0, 1):
            for other in range(1, 9):
                if (other_mat, other) != (mat, space):
                    assert count(image, corner(other_mat, other, viewer), colour) == 0, (viewer, other_mat, other)


def test_the_space_numbers_are_drawn_between_the_mats_over_their_columns() -> None:
    image = shot(HORIZON.new(2, 5))
    marks = []
    for k in range(10):  # 0 the black hole, 1-8 the spaces, 9 the exit
        left, right = horizon.column(k)
        box = (left + 1, horizon.MID_TOP + 1, right - 1, horizon.MID_BOTTOM - 1)
        ink = horizon.NUMBER if 1 <= k <= 8 else MUTED
        bounds = ink_bounds(image, box, ink)
        assert bounds is not None, k
        assert count(image, box, ink) >= 12, k
        assert bounds[3] - bounds[1] >= 11, k  # readable at phone size
        assert abs((bounds[0] + bounds[2]) / 2 - horizon.column_x(k)) <= 3, k
        marks.append(image.crop(bounds).tobytes())
    assert len(set(marks)) == 10


def test_the_final_board_shows_each_hand_by_its_codes_and_a_running_board_hides_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the game is over by the rules its view hides no card, so a spectator's picture lists the cards
    left in each hand by their codes ("Hands"); while it runs, only counts and backs ("Hands (hidden)")."""
    written: list[str] = []
    real = horizon.text
    monkeypatch.setattr(
        horizon, "text", lambda draw, xy, words, *a, **k: (written.append(words), real(draw, xy, words, *a, **k))
    )
    rng, state = random.Random(8), HORIZON.new(2, 8)
    states = [state]
    while HORIZON.to_move(state) is not None:
        state = HORIZON.play(state, rng.choice(HORIZON.legal_moves(state)))
        states.append(state)
    assert HORIZON.outcome(state) is not None and any(state.hands)
    shot(HORIZON.view(state, None))
    assert "Hands" in written and "Hands (hidden)" not in written
    for hand in state.hands:
        assert (" ".join(hand) if hand else "no cards") in written
    running = states[len(states) // 2]
    assert any(running.hands)
    written.clear()
    shot(HORIZON.view(running, None))
    assert "Hands (hidden)" in written and "Hands" not in written
    assert all(" ".join(hand) not in written for hand in running.hands)  # nor its codes, were the view to hold them


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_the_card_key_speaks_the_readers_language_whole(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card key's words in the reader's language, none cut short (German is the longest)."""
    drawn = words_drawn(monkeypatch, horizon)
    horizon._background_in.cache_clear()
    with i18n.using(language):
        words = [words for _, words in horizon.card_key()]
        shot(first_state(lambda s: not s.setup))
    horizon._background_in.cache_clear()
    assert all(w in drawn for w in words), (words, drawn)
    if language == "de":
        assert words == ["Vorwärts", "Rückwärts", "Gehe zu", "Tausch", "Nachahmen: kopiert die Karte gegenüber"]


def test_a_german_card_key_leaves_the_english_one_english() -> None:
    state = first_state(lambda s: not s.setup)
    english = shot(state)
    with i18n.using("de"):
        german = shot(state)
    assert shot(state).tobytes() == english.tobytes()
    top = horizon.key_boxes(english.height)[0][2][1]
    assert not same(english, german, (0, top, horizon.BOARD_RIGHT, english.height))
    for mat in (0, 1):  # the cards themselves have no words (the names' rows, the exit and the hands have)
        cards_top, cards_bottom = horizon.rows(mat, None)["cards"]
        assert same(english, german, (0, cards_top, horizon.column(horizon.ESCAPE)[0], cards_bottom))


def test_a_french_board_speaks_french_on_the_board_and_in_the_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word a board draws (the paths' names, escaped, the roll, the hands, the exit; the panel's phase,
    piles, last play, chain and key) in the server's language (French here), for a player and a spectator."""
    drawn = words_drawn(monkeypatch, horizon)
    horizon._background_in.cache_clear()
    setup = HORIZON.new(2, 3)
    state = first_state(
        lambda s: s.turn is not None and bool(s.last_roll) and len(s.last_chain) >= 2 and s.last_play[0] == "place"
    )
    words: set[str] = set()
    with i18n.using("fr"):
        for shown in (setup, state):
            for viewer in (None, 0):
                view = HORIZON.view(shown, viewer)
                shot(shown, viewer)
                words |= {placed.words for placed in laid_out(shown, viewer).texts}
                words |= {placed.words for placed in horizon.board_texts(view, viewer, CAPTION)}
    horizon._background_in.cache_clear()
    words |= set(drawn)
    assert {"Mise en place", "posées 0/3", "Ta main", "Mains (cachées)", "Hors", "lancer"} <= words, words
    assert {"Ton chemin (alice)", "Chemin de bob", "visible (Imitation)", "bloquée par Échange"} <= words, words
    assert "au tour de alice" in words or "au tour de bob" in words
    assert any(w.startswith("Pioche ") for w in words) and any(w.startswith("Chaîne : 1. ") for w in words)
    assert any(w.startswith("échappés ") for w in words) and any(" a joué sur " in w for w in words)
    english = " ".join(words)
    for word in ("path", "escaped", "rolled", "Your hand", "Hands", "Deck", "Chain", "placed", "OUT", "to move"):
        assert word not in english, (word, words)
