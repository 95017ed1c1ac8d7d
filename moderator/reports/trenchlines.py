"""Trenches on a map: a line along the border each trench guards (Trenches: "he must
designate the territory it will protect and also must designate which territory it will
be facing"; engine/orders/trenches.py keeps the facing in NationState.flags["trench_facing"]).

A trench is drawn on the border its territory shares with the territory it faces, a
ticked line in dark brown (a super trench thicker), so a reader sees which front is dug
in, not only that a trench stands somewhere in the territory. Only the trenches the view
holds are drawn (a nation's own, an alliance's members'; reports/visibility.py): the
enemy's trenches are not in any report's view.

The shared border is found with shapely: the outline of the trench's territory where it
runs within a hair (BORDER_TOLERANCE degrees) of the faced territory, so borders that
were built a hair apart still meet. Computed once a pair, per process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from matplotlib import patheffects
from matplotlib.collections import LineCollection
from shapely.geometry import LineString, MultiLineString
from shapely.geometry.base import BaseGeometry

from moderator.reports.geometry import Geometry

TRENCH_COLOUR = "#5a3a1a"
BORDER_TOLERANCE = 0.02  # degrees (about 2 km)
WIDTHS = {"trench": 2.6, "super_trench": 4.2}
KEY = ["\u2503 trench on the border it faces (thicker: super trench)"]

Point = tuple[float, float]


def _lines(found: BaseGeometry) -> list[list[Point]]:
    if isinstance(found, LineString):
        return [list(found.coords)] if len(found.coords) > 1 else []
    if isinstance(found, MultiLineString):
        return [list(g.coords) for g in found.geoms if len(g.coords) > 1]
    parts = getattr(found, "geoms", ())
    return [run for g in parts for run in _lines(g)]


_BORDERS: dict[tuple[int, str, str], tuple[Geometry, list[list[Point]]]] = {}


def border(geometry: Geometry, place: str, facing: str) -> list[list[Point]]:
    """The border `place` shares with `facing` (lon/lat runs); empty where they share none."""
    key = (id(geometry), place, facing)
    hit = _BORDERS.get(key)
    if hit is None or hit[0] is not geometry:  # the id of a freed geometry may come back
        a, b = geometry.places.get(place), geometry.places.get(facing)
        runs: list[list[Point]] = []
        if a is not None and b is not None:
            shared = a.shape().boundary.intersection(b.shape().buffer(BORDER_TOLERANCE))
            runs = [[(float(x), float(y)) for x, y in run] for run in _lines(shared)]
        hit = (geometry, runs)
        _BORDERS[key] = hit
    return [list(run) for run in hit[1]]


def draw(ax: object, geometry: Geometry, trenches: Sequence[tuple[str, str, str, str]],
         project: Callable[[list[Point]], list[list[Point]]]) -> bool:
    """Draw each trench (nation, place, facing, kind) on its border; `project` turns a lon/lat
    run into the runs to draw (data coordinates; none where it is out of view). Returns
    whether any was drawn (the key names trenches then)."""
    drawn = False
    for kind in ("trench", "super_trench"):
        runs = [p for _, place, facing, k in sorted(set(trenches)) if k == kind
                for run in border(geometry, place, facing) for p in project(run)]
        if not runs:
            continue
        drawn = True
        ax.add_collection(LineCollection(  # type: ignore[attr-defined]
            runs, colors=TRENCH_COLOUR, linewidths=WIDTHS[kind], zorder=5.2, capstyle="round",
            path_effects=[patheffects.withTickedStroke(spacing=6, length=0.9, linewidth=1.4,
                                                       foreground=TRENCH_COLOUR)]))
    return drawn
