"""No two neighbours and no two legend entries confusable (issue 13): every pair of nation
colours is at least ANY_PAIR apart in CIELAB (CIE76 delta E), every pair of nations whose
1914 land borders each other at least NEIGHBOURS apart, and no nation is close to the
sea, the unclaimed land or "no controller"."""

from __future__ import annotations

import itertools
import math

from moderator.reports.mapdraw import (
    LAND_BACKGROUND,
    NEUTRAL,
    OCEAN,
    SEA,
    UNKNOWN_NATION,
    colour_distance,
    load_colors,
)
from moderator.world.loader import load_world

NEIGHBOURS = 25.0  # side by side on the map: clearly different hues or lightness
ANY_PAIR = 15.0  # in the legend's list: told apart at a glance (12 until round 3d)
MAP_COLOURS = {"sea": SEA, "ocean": OCEAN, "no controller": NEUTRAL, "unclaimed land": LAND_BACKGROUND,
               "unknown nation": UNKNOWN_NATION}


def neighbours() -> set[tuple[str, str]]:
    world = load_world("1914", strict=False)
    pairs = set()
    for a, near in world.adjacency.items():
        ta = world.territories[a]
        for b in near:
            tb = world.territories[b]
            if ta.is_land and tb.is_land and ta.owner and tb.owner and ta.owner != tb.owner:
                pairs.add((min(ta.owner, tb.owner), max(ta.owner, tb.owner)))
    return pairs


def test_neighbours_differ_clearly() -> None:
    colours = load_colors("1914")
    pairs = neighbours()
    assert len(pairs) > 50  # the real map: many borders between nations
    close = [(a, b, round(colour_distance(colours[a], colours[b]), 1)) for a, b in sorted(pairs)
             if colour_distance(colours[a], colours[b]) < NEIGHBOURS]
    assert close == []


def test_no_two_legend_entries_are_confusable() -> None:
    colours = load_colors("1914")
    close = [(a, b, round(colour_distance(colours[a], colours[b]), 1))
             for a, b in itertools.combinations(sorted(colours), 2)
             if colour_distance(colours[a], colours[b]) < ANY_PAIR]
    assert close == []
    near_map = [(n, what) for n in sorted(colours) for what, c in MAP_COLOURS.items()
                if colour_distance(colours[n], c) < ANY_PAIR]
    assert near_map == []


def test_the_distance_is_cielab() -> None:
    assert colour_distance("#ffffff", "#000000") == __import__("pytest").approx(100.0, abs=0.01)
    assert colour_distance("#5b86d6", "#5b86d6") == 0.0
    # sRGB red is L*a*b* (53.24, 80.09, 67.20): 117.3 from black.
    assert colour_distance("#ff0000", "#000000") == __import__("pytest").approx(117.3, abs=0.1)


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear sRGB: how a deuteranope
# (green-blind) and a protanope (red-blind) see a colour; together about 6% of men.
COLOUR_BLIND = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
}


def seen_by(colour: str, vision: str) -> str:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def gamma(c: float) -> float:
        c = min(max(c, 0.0), 1.0)
        return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(gamma(sum(m * v for m, v in zip(row, rgb, strict=True))) * 255):02x}"
                         for row in COLOUR_BLIND[vision])


def test_britain_australia_and_new_zealand_are_told_apart_also_by_the_colour_blind() -> None:
    # Round 3: the three were near-identical pinks (Australia and New Zealand 12.5 apart).
    colours = load_colors("1914")
    trio = ("britain", "australia", "new-zealand")
    for a, b in itertools.combinations(trio, 2):
        assert colour_distance(colours[a], colours[b]) >= NEIGHBOURS, (a, b)
        for vision in COLOUR_BLIND:
            assert colour_distance(seen_by(colours[a], vision), seen_by(colours[b], vision)) >= ANY_PAIR * 1.5, \
                (a, b, vision)


def test_the_colour_blind_simulation_keeps_grey_and_merges_red_with_green() -> None:
    assert seen_by("#808080", "deuteranopia") == "#808080"
    # The classic confusion: a red and a green of like lightness look alike to a deuteranope.
    assert colour_distance(seen_by("#c86450", "deuteranopia"), seen_by("#7a8c3c", "deuteranopia")) < 12
    assert colour_distance("#c86450", "#7a8c3c") > 40


def test_canada_and_india_are_not_near_the_legend_limit() -> None:
    # Round 3b: the two salmon oranges were 12.3 apart, just over ANY_PAIR; India's orange
    # is now lighter and yellower, and no other entry is as close to it as Canada was.
    colours = load_colors("1914")
    assert colour_distance(colours["canada"], colours["india"]) >= 15.0
    assert min(colour_distance(colours["india"], c) for n, c in colours.items() if n != "india") >= 15.0


def test_the_great_powers_keep_their_traditional_colours() -> None:
    # Round 3d: ANY_PAIR went from 12 to 15 (Ethiopia/Nicaragua were 12.4 apart, Germany/Sweden
    # 12.7); the closest colours were nudged, none by more than 9, so each stays recognisable.
    from moderator.reports.mapdraw import _cielab

    def chroma_and_hue(colour: str) -> tuple[float, float]:
        _, a, b = _cielab(colour)
        return math.hypot(a, b), math.degrees(math.atan2(b, a)) % 360

    colours = load_colors("1914")
    assert chroma_and_hue(colours["germany"])[0] < 10  # field grey
    chroma, hue = chroma_and_hue(colours["britain"])
    assert chroma > 40 and hue < 45  # red
    chroma, hue = chroma_and_hue(colours["france"])
    assert chroma > 30 and 250 < hue < 300  # blue
    chroma, hue = chroma_and_hue(colours["russia"])
    assert chroma > 30 and 120 < hue < 170  # green
    chroma, hue = chroma_and_hue(colours["austria-hungary"])
    assert chroma > 40 and 80 < hue < 110  # imperial yellow
