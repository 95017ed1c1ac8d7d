"""A report's map: the public political map plus only the units the view may show."""

from __future__ import annotations

import functools

from PIL import Image

from moderator.reports.geometry import Geometry, load_geometry
from moderator.reports.mapdraw import REGIONS, render_pixels
from moderator.reports.visibility import View
from moderator.world.model import World
from moderator.world.scenario import load_scenario

# Regions a report may be drawn on, smallest first; "world" is the fallback.
REPORT_REGIONS = ("europe", "africa", "north-america", "asia", "world")
COVERAGE = 0.8  # share of the audience's weight a region must hold to be chosen


@functools.lru_cache(maxsize=4)
def _geometry(scenario: str) -> Geometry:
    return load_geometry(scenario)


def _inside(region: str, lon: float, lat: float) -> bool:
    r = REGIONS[region]
    lon2 = lon + 360 if lon < r.west else lon  # regions may run past 180 across the Pacific
    return r.west <= lon2 <= r.east and r.south <= lat <= r.north


def region_for(world: World, view: View) -> str:
    """The smallest region holding most of what the audience cares about: the value of the land
    its members hold, plus one for each place where their units stand."""
    weights: dict[str, float] = {}
    for status in view.statuses:
        for t in status.territories:
            weights[t] = weights.get(t, 0) + max(world.territories[t].value, 1)
        for loc in status.units:
            weights[loc] = weights.get(loc, 0) + 1
    total = sum(weights.values())
    if not total:
        return "world"
    for region in REPORT_REGIONS:
        held = sum(w for t, w in weights.items() if _inside(region, *world.territories[t].label))
        if held >= COVERAGE * total:
            return region
    return "world"


def draw_view(world: World, view: View, title: str, scenario: str = "1914", region: str | None = None) -> Image.Image:
    """The map of one audience (RGB pixels; reports/mapfiles.py makes the PNGs). Control of
    territory is public (the game's map is published after every update); units come only
    from the view, which holds what the audience may see."""
    return render_pixels(_geometry(scenario), world, control=view.control, units=view.map_units,
                      region=region or region_for(world, view), title=title, names=_names(scenario))


@functools.lru_cache(maxsize=4)
def _names(scenario: str) -> dict[str, str]:
    """Nation id -> display name, for the map's legend."""
    return {k: v.name for k, v in load_scenario(scenario).nations.items()}
