"""No two neighbours and no two legend entries confusable (issue 13): every pair of nation
colours is at least ANY_PAIR apart in CIELAB (CIE76 delta E), every pair of nations whose
1914 land borders each other at least NEIGHBOURS apart, and no nation is close to the
sea, the unclaimed land or "no controller"."""

from __future__ import annotations

import itertools

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
ANY_PAIR = 12.0  # in the legend's list: told apart at a glance
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
