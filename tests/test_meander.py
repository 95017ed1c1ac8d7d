"""Long straight land borders are drawn meandering (reports/meander.py), without opening a
gap between neighbours or moving any label out of its territory."""

from __future__ import annotations

import functools
from collections import Counter

from shapely.geometry import Point

from moderator.reports.geometry import Geometry, load_geometry
from moderator.reports.meander import LONG_DEGREES, meandered


@functools.cache
def both() -> tuple[Geometry, Geometry]:
    plain = load_geometry("1914")
    return plain, meandered(plain)


def _segments(geometry: Geometry) -> Counter[tuple[tuple[float, float], tuple[float, float]]]:
    uses: Counter[tuple[tuple[float, float], tuple[float, float]]] = Counter()
    for place in geometry.places.values():
        if place.kind == "land":
            for rings in place.polygons:
                for ring in rings:
                    for p, q in zip(ring, ring[1:], strict=False):
                        uses[(p, q) if p <= q else (q, p)] += 1
    return uses


def test_russia_is_no_longer_ruled_and_neighbours_still_meet() -> None:
    plain, wavy = both()
    assert sum(len(r) for rings in wavy.places["Moscow"].polygons for r in rings) > \
        sum(len(r) for rings in plain.places["Moscow"].polygons for r in rings)
    before, after = _segments(plain), _segments(wavy)
    # Every new piece of border is shared by the same two places as before: no gaps, no overlaps.
    shared_before = sum(1 for n in before.values() if n == 2)
    assert sum(1 for n in after.values() if n == 2) > shared_before
    assert sum(1 for n in after.values() if n > 2) == 0
    long_left = [k for k, n in after.items() if n == 2 and ((k[0][0] - k[1][0]) ** 2 + (k[0][1] - k[1][1]) ** 2)
                 ** 0.5 > LONG_DEGREES]
    assert long_left == []


def test_the_wiggle_is_the_same_every_time_and_labels_stay_inside() -> None:
    plain, wavy = both()
    assert meandered(plain).places["Kiev"].polygons == wavy.places["Kiev"].polygons
    outside = [name for name, place in wavy.places.items()
               if place.kind == "land" and not place.shape().buffer(1e-9).contains(Point(place.label))]
    assert outside == [n for n, place in plain.places.items()
                       if place.kind == "land" and not place.shape().buffer(1e-9).contains(Point(place.label))]
