"""Boards made for phones (issue #34), in every game at its most seats with 32-character names: the smallest
panel text still shows at 9 px once a phone shows the picture 450 px wide, one match keeps one picture size
from its first position to its last (clocks, a pause and an off-board result included), and every frame of
a replay GIF is the GIF's own size."""

from __future__ import annotations

import importlib
import io
import pkgutil
import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import renderers
from bot.games import GAMES
from bot.games.horizon import CHAIN_CAP, DECK
from renderers import PANELS, draw, geyser, horizon, render, volcano
from renderers.draw import WHITE, Caption, SeatClock, font
from renderers.horizon import board_texts
from renderers.panel import MIN_SIZE, PHONE_SIZE, PHONE_WIDTH, lay_out
from renderers.replay import replay_gif, same_size

NAMES = (
    "Wilhelmina Featherstonehaugh-Wyn",
    "山田太郎のアカウント名前山田太郎のアカウント名前山田太郎のアカウ",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "Bartholomew Montgomery-Smythe IV",
    "สมชาย ใจดี ผู้เล่นเกมกระดานไทยยาวมาก",
    "Zoë Ångström-Østergaard 🐟🐟🐟 xyz",
)
SEATS = {key: game.max_players for key, game in GAMES.items()}


def test_the_names_are_32_characters() -> None:
    assert all(len(name) == 32 for name in NAMES[:4]), [len(n) for n in NAMES]


def playout(key: str, seed: int, cap: int = 3000) -> list[Any]:
    game, rng = GAMES[key], random.Random(seed)
    states = [game.new(SEATS[key], seed)]
    while game.to_move(states[-1]) is not None and len(states) < cap:
        states.append(game.play(states[-1], rng.choice(game.legal_moves(states[-1]))))
    return states


def caption(key: str, state: Any, *, paused: bool = False, result: str | None = None) -> Caption:
    """What a post of this match draws: the names, a clock (running for the seat to move), the header."""
    turn = GAMES[key].to_move(state)
    clocks = tuple(SeatClock(25, 3_600 * 5 + 62, running=seat == turn) for seat in range(SEATS[key]))
    return Caption(names=NAMES[: SEATS[key]], clocks=clocks, header="Match #1234", paused=paused, result=result)


def sampled(states: list[Any], count: int = 24) -> list[Any]:
    step = max(1, len(states) // count)
    return [*states[::step], states[-1]]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_smallest_panel_text_shows_at_9_px_on_a_phone(key: str) -> None:
    smallest = 99.0
    panel, left = PANELS[key]
    for state in sampled(playout(key, seed=3), 10):
        for drawn in (caption(key, state), caption(key, state, paused=True), caption(key, state, result=NAMES[0])):
            width = Image.open(io.BytesIO(render(key, state, caption=drawn))).width
            view = GAMES[key].view(state, None)
            texts = list(lay_out(panel(view, None, drawn), left, width).texts)
            if key == "horizon":  # its players' rows on the board belong to the player bar too
                texts += board_texts(view, None, drawn)
            assert texts
            smallest = min(smallest, *(placed.size * PHONE_WIDTH / width for placed in texts))
    print(f"{key}: smallest panel text {smallest:.1f} px at {PHONE_WIDTH} px wide")
    assert smallest >= PHONE_SIZE


@pytest.fixture
def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, str, str]]]:
    """Every text the renderers draw while the test runs, as (size, words, the function calling `draw.text`):
    every renderer module's `text` is wrapped, and the sprite caches are emptied before and after, so cached
    sprites are drawn again (and none drawn under the wrapper outlives the test; they are the same pixels)."""
    modules = [importlib.import_module(f"renderers.{m.name}") for m in pkgutil.iter_modules(renderers.__path__)]
    caches = [v for m in modules for v in vars(m).values() if callable(getattr(v, "cache_clear", None))]
    found: list[tuple[int, str, str]] = []
    real = draw.text

    def recording(*args: Any, **kwargs: Any) -> None:
        found.append((args[3], args[2], sys._getframe(1).f_code.co_name))
        real(*args, **kwargs)

    for module in modules:
        if getattr(module, "text", None) is real:
            monkeypatch.setattr(module, "text", recording)
    for made in caches:
        made.cache_clear()
    yield found
    for made in caches:
        made.cache_clear()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_text_in_the_picture_shows_at_9_px_on_a_phone(key: str, drawn_texts: list[tuple[int, str, str]]) -> None:
    """Not only the panel's: board labels, badges, keys, card faces, the texts painted into seat cards' strips
    too. None is smaller on purpose: what had no room for phone-sized type is drawn (Volcano's colour
    patterns, Event Horizon's card symbols) and explained in a key in phone-sized type."""
    smallest = 99.0
    for state in sampled(playout(key, seed=3), 8):
        for drawn in (caption(key, state), caption(key, state, result=NAMES[0])):
            drawn_texts.clear()
            width = Image.open(io.BytesIO(render(key, GAMES[key].view(state, None), caption=drawn))).width
            assert drawn_texts
            for size, words, where in drawn_texts:
                assert size * PHONE_WIDTH / width >= PHONE_SIZE, (key, words, size, where)
                smallest = min(smallest, size * PHONE_WIDTH / width)
    print(f"{key}: smallest text {smallest:.1f} px at {PHONE_WIDTH} px wide")


def test_step_and_chain_numbers_of_two_digits_are_phone_sized_and_fit(drawn_texts: list[tuple[int, str, str]]) -> None:
    """A Volcano turn of 10 steps or more and an Event Horizon chain of 10 links or more number them in the
    same 16 px type as one digit: Volcano's on a pill that fits the edge of a square beside the widest stack
    (tests/renderers/test_overlays.py places them over random games), Event Horizon's inside the empty slot
    the link left. And every card face's number, in every player's hand too."""
    for n in range(1, 100):
        pill = volcano._number(n, volcano.LAST_MOVE)
        assert pill.size == ((volcano.LABEL if n < 10 else volcano.PILL), volcano.LABEL), n
    for n in range(1, CHAIN_CAP + 1):
        assert horizon._number(n, WHITE).width <= horizon.CARD_W - 6, n
    for card in set(DECK):
        horizon.card_sprite(card)
    assert {words for _, words, _ in drawn_texts} >= {str(n) for n in range(1, 100)}
    for size, words, where in drawn_texts:
        assert size >= MIN_SIZE, (words, size, where)


def test_geysers_ring_tags_and_badges_show_at_9_px_and_hide_no_token() -> None:
    """The island's own texts (ring tags "3/11", "M·7", the starting squares' "S", count badges) are phone
    sized too, each inside its square; a square's label never overlaps a token, and the tags' white
    digits are inked at least as tall as a MIN_SIZE digit (so the picture draws what `labels` says)."""
    digit = font(geyser.LABEL_SIZE, True).getbbox("3")
    tall = digit[3] - digit[1]
    badges = 0
    for state in sampled(playout("geyser", seed=3), 40):
        image = Image.open(io.BytesIO(render("geyser", state, caption=caption("geyser", state)))).convert("RGB")
        found = geyser.labels(state)
        assert {"2/12", "3/11", "4/10", "5/9", "6/8", "M·7", "S"} <= {label.words for label in found}
        starts = state.start_squares
        tokens = {s: geyser.token_box(s, starts) for s, held in enumerate(state.board) if held is not None}
        for label in found:
            assert label.size * PHONE_WIDTH / image.width >= PHONE_SIZE, label
            left, top, right, bottom = geyser.square_box(label.square)
            assert left <= label.box[0] and label.box[2] <= right and top <= label.box[1] and label.box[3] <= bottom
            for square, token in tokens.items():
                if label.badge and square == label.square:
                    continue
                assert not overlap(label.box, token), (label, square)
            badges += label.badge
            if label.words in ("3/11", "M·7"):
                crop = image.crop(tuple(round(v) for v in label.box))
                rows = [y for y in range(crop.height) if any(crop.getpixel((x, y)) == WHITE for x in range(crop.width))]
                assert rows[-1] - rows[0] + 1 >= tall, (label, rows)
    assert badges  # the game shares squares too


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_one_match_keeps_one_picture_size(key: str) -> None:
    for seed in (1, 2):
        states = playout(key, seed)
        sizes = {}
        for k, state in enumerate(sampled(states)):
            for drawn in (caption(key, state), caption(key, state, paused=k % 3 == 0)):
                sizes[k, drawn.paused] = Image.open(io.BytesIO(render(key, state, caption=drawn))).size
        final = caption(key, states[-1])
        over = Caption(names=final.names, clocks=tuple(SeatClock(c.move_seconds, c.reserve_seconds, False)
                                                        for c in final.clocks or ()), header=final.header)  # fmt: skip
        sizes["over"] = Image.open(io.BytesIO(render(key, states[-1], caption=over))).size
        off = caption(key, states[len(states) // 2], result=f"{NAMES[0]} wins on time ({NAMES[1]}'s reserve ran out)")
        sizes["on time"] = Image.open(io.BytesIO(render(key, states[len(states) // 2], caption=off))).size
        assert len(set(sizes.values())) == 1, (key, seed, sizes)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_replay_frame_is_the_gifs_own_size(key: str) -> None:
    states = sampled(playout(key, seed=4), 30)
    gif = Image.open(io.BytesIO(replay_gif(key, states, names=NAMES[: SEATS[key]], title="Match #1234")))
    screen = gif.size
    assert gif.n_frames == len(states)
    for index in range(gif.n_frames):
        gif.seek(index)
        (x0, y0, x1, y1) = gif.tile[0][1] if gif.tile else (0, 0, *screen)
        assert 0 <= x0 <= x1 <= screen[0] and 0 <= y0 <= y1 <= screen[1], (index, gif.tile, screen)
        assert gif.size == screen


def test_frames_of_different_sizes_are_put_on_one_canvas() -> None:
    small, tall = Image.new("RGB", (40, 30), (1, 2, 3)), Image.new("RGB", (40, 50), (9, 9, 9))
    frames = same_size([small, tall])
    assert [f.size for f in frames] == [(40, 50), (40, 50)] and frames[1] is tall
    assert frames[0].getpixel((5, 5)) == (1, 2, 3) and frames[0].getpixel((5, 45)) == (1, 2, 3)
