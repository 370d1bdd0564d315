"""How colours look with the common colour-vision deficiencies, and how far apart two colours are.

Simulation: Machado, Oliveira and Fernandes (2009), severity 1.0, applied in linear sRGB. Difference:
CIE76 ΔE in CIELAB (D65); about 2.3 is the smallest difference people notice, and seat colours want
tens. Used by the palette test and handy for choosing a new colour.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

Colour = tuple[float, float, float]
MACHADO: dict[str, tuple[Colour, Colour, Colour]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO)


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> float:
    v = min(1.0, max(0.0, value))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def simulate(colour: Sequence[float], vision: str) -> Colour:
    """`colour` (sRGB 0-255) as someone with `vision` sees it."""
    if vision == "normal":
        return (colour[0], colour[1], colour[2])
    linear = [_linear(c) for c in colour]
    rows = MACHADO[vision]
    r, g, b = (_encoded(sum(row[j] * linear[j] for j in range(3))) for row in rows)
    return (r, g, b)


def lab(colour: Sequence[float]) -> Colour:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a: Sequence[float], b: Sequence[float]) -> float:
    """CIE76 colour difference of two sRGB colours."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def closest_pair(colours: Sequence[Sequence[float]]) -> tuple[float, str, int, int]:
    """The smallest difference between any two colours under any vision: (ΔE, vision, i, j)."""
    return min(
        (delta_e(simulate(colours[i], vision), simulate(colours[j], vision)), vision, i, j)
        for vision in VISIONS
        for i, j in itertools.combinations(range(len(colours)), 2)
    )
