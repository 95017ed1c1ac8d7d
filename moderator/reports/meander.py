"""Drawn borders that do not look ruled: the long straight land borders of the map.

Where the rules' territories split a country the real map has no border for (Russia,
Central Asia, Canada, the Sahara), maps/build_geometry.py draws Voronoi cells: straight
edges hundreds of kilometres long. Drawing them as they are makes the map look like a
diagram, so each border segment longer than LONG_DEGREES that two land places share is
drawn as a gentle meander: midpoint displacement, seeded by the segment's own end points
(the same wiggle for both neighbours and in every process), with ends fixed (no gaps at
the corners where three places meet). Only the drawing changes: adjacency, labels and the
rules' map are untouched. Coasts and sea zones keep their lines.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter

from moderator.reports.geometry import Geometry, PlaceShape, Ring

LONG_DEGREES = 1.0  # segments longer than this (about 100 km) meander
STEP_DEGREES = 0.2  # ... down to pieces about this long
AMPLITUDE = 0.09  # the sideways shift of a midpoint, as a share of its piece's length

Point = tuple[float, float]


def _key(p: Point, q: Point) -> tuple[Point, Point]:
    return (p, q) if p <= q else (q, p)


def _wiggle(p: Point, q: Point) -> list[Point]:
    """The points strictly between p and q (in the canonical order p < q)."""
    seed = hashlib.sha256(repr((round(p[0], 6), round(p[1], 6), round(q[0], 6), round(q[1], 6))).encode())
    rng = random.Random(seed.digest())

    def between(a: Point, b: Point) -> list[Point]:
        length = math.dist(a, b)
        if length <= STEP_DEGREES:
            return []
        shift = rng.uniform(-AMPLITUDE, AMPLITUDE) * length
        nx, ny = (a[1] - b[1]) / length, (b[0] - a[0]) / length  # unit normal
        mid = ((a[0] + b[0]) / 2 + nx * shift, (a[1] + b[1]) / 2 + ny * shift)
        return [*between(a, mid), mid, *between(mid, b)]

    return between(p, q)


def meandered(geometry: Geometry) -> Geometry:
    """The same places with their long shared land borders meandering."""
    uses: Counter[tuple[Point, Point]] = Counter()
    for place in geometry.places.values():
        if place.kind == "land":
            for rings in place.polygons:
                for ring in rings:
                    for p, q in zip(ring, ring[1:], strict=False):
                        uses[_key(p, q)] += 1
    cache: dict[tuple[Point, Point], list[Point]] = {}

    def ring_of(ring: Ring) -> Ring:
        out: list[Point] = [ring[0]] if ring else []
        for p, q in zip(ring, ring[1:], strict=False):
            k = _key(p, q)
            if uses[k] == 2 and math.dist(p, q) > LONG_DEGREES and abs(p[0]) != 180.0 and abs(q[0]) != 180.0:
                if k not in cache:
                    cache[k] = _wiggle(*k)
                out.extend(cache[k] if k[0] == p else reversed(cache[k]))
            out.append(q)
        return tuple(out)

    places = {}
    for name, place in geometry.places.items():
        if place.kind != "land":
            places[name] = place
            continue
        polygons = tuple(tuple(ring_of(ring) for ring in rings) for rings in place.polygons)
        places[name] = PlaceShape(place.name, place.kind, polygons, place.label)
    return Geometry(geometry.scenario, places, geometry.land)
