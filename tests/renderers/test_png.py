"""The PNG encoder (renderers/png.py): what it writes decodes to exactly the pixels drawn, in every game and
whatever its band cache remembers; equal images give equal bytes, cached or not; a full cache drops its
oldest bands and still encodes right."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from bot.games import GAMES
from renderers import DRAWERS
from renderers.draw import Caption
from renderers.png import BAND_ROWS, BandCache, adler32_combine, to_png

NAMES = ("ann", "bo", "cy", "di", "ed", "flo")


def boards(key: str, count: int = 8) -> list[Image.Image]:
    """Consecutive positions of a random game, drawn: neighbours share most of their rows."""
    game, rng = GAMES[key], random.Random(5)
    state, drawn = game.new(game.max_players, 5), []
    for _ in range(count):
        drawn.append(DRAWERS[key](game.view(state, None), None, Caption(names=NAMES[: game.max_players])))
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return drawn


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_png_holds_exactly_the_pixels_drawn_cached_or_not(key: str) -> None:
    cache = BandCache()
    for image in boards(key):
        first = to_png(image, cache)
        again = to_png(image, cache)  # every band a hit now
        fresh = to_png(image, BandCache())  # every band a miss
        assert first == again == fresh
        back = decoded(first)
        assert back.mode == "RGB" and back.size == image.size
        assert back.tobytes() == image.convert("RGB").tobytes()
    assert cache.hits > cache.misses  # consecutive boards share bands, and each board was encoded twice


def test_an_image_of_a_height_no_band_divides_and_of_other_modes() -> None:
    rng = random.Random(1)
    for height in (1, BAND_ROWS - 1, BAND_ROWS, BAND_ROWS + 1, 3 * BAND_ROWS + 5):
        image = Image.frombytes("RGB", (37, height), bytes(rng.randrange(256) for _ in range(37 * height * 3)))
        assert decoded(to_png(image, BandCache())).tobytes() == image.tobytes()
    rgba = Image.new("RGBA", (20, 40), (10, 20, 30, 128))
    assert decoded(to_png(rgba, BandCache())).tobytes() == rgba.convert("RGB").tobytes()


def test_a_full_cache_drops_its_least_recently_used_bands() -> None:
    band = 3 * 10 * BAND_ROWS + BAND_ROWS  # the bytes of one band of a 10 px wide image
    cache = BandCache(limit=2 * band)
    images = [Image.new("RGB", (10, BAND_ROWS), (k, k, k)) for k in range(3)]
    for image in images:
        to_png(image, cache)
    assert cache.size <= 2 * band and cache.misses == 3
    to_png(images[2], cache)
    assert cache.hits == 1  # the newest is kept
    to_png(images[0], cache)
    assert cache.misses == 4  # the oldest was dropped; it is made again, and right
    assert decoded(to_png(images[0], cache)).tobytes() == images[0].tobytes()


def test_adler32_of_two_parts_combines_as_of_the_whole() -> None:
    rng = random.Random(2)
    for _ in range(50):
        a = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
        b = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70000, 7)))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)
