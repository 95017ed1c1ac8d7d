"""The drawable map of a scenario: polygons and label points from maps/<scenario>/geometry.json.

The file is derived by maps/build_geometry.py from the territory CSVs and committed, so reading it
needs no build step and no map data beyond the repository.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from shapely.geometry import MultiPolygon, Polygon

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"

Ring = tuple[tuple[float, float], ...]
Rings = tuple[Ring, ...]  # outer ring first, then holes


@dataclass(frozen=True)
class PlaceShape:
    """One territory or sea zone as drawn: its polygons (lon/lat) and where its label goes."""

    name: str
    kind: str  # "land" or "sea"
    polygons: tuple[Rings, ...]
    label: tuple[float, float]

    def shape(self) -> MultiPolygon:
        return MultiPolygon([Polygon(rings[0], rings[1:]) for rings in self.polygons])

    @functools.cached_property  # asked for every place on every map: computed once
    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for rings in self.polygons for x, _ in rings[0]]
        ys = [y for rings in self.polygons for _, y in rings[0]]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Geometry:
    """All drawable places of a scenario plus the background land (coasts of unowned land)."""

    scenario: str
    places: Mapping[str, PlaceShape]
    land: tuple[Rings, ...]

    def __contains__(self, name: object) -> bool:
        return name in self.places

    def __getitem__(self, name: str) -> PlaceShape:
        return self.places[name]


def _rings(raw: list[list[list[float]]]) -> Rings:
    return tuple(tuple((float(x), float(y)) for x, y in ring) for ring in raw)


def parse_geometry(data: Mapping[str, object]) -> Geometry:
    places_raw = data.get("places", {})
    assert isinstance(places_raw, dict)
    places = {
        name: PlaceShape(
            name=name,
            kind=str(entry.get("kind", "land")),
            polygons=tuple(_rings(p) for p in entry["polygons"]),
            label=(float(entry["label"][0]), float(entry["label"][1])),
        )
        for name, entry in sorted(places_raw.items())
    }
    land_raw = data.get("land", [])
    assert isinstance(land_raw, list)
    return Geometry(
        scenario=str(data.get("scenario", "")),
        places=places,
        land=tuple(_rings(p) for p in land_raw),
    )


def geometry_path(scenario: str = "1914") -> Path:
    return MAPS_DIR / scenario / "geometry.json"


def load_geometry(scenario: str = "1914", path: Path | None = None) -> Geometry:
    """Read the committed geometry of a scenario (or of an explicit file)."""
    target = path or geometry_path(scenario)
    return parse_geometry(json.loads(target.read_text(encoding="utf-8")))
