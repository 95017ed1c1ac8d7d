"""A report's map: the public political map plus only the units the view may show, drawn
over the theatre where the audience's units and fighting are, with the world beside it."""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image

from moderator.reports import mapstory
from moderator.reports.geometry import Geometry, load_geometry
from moderator.reports.mapdraw import REGIONS, render_map
from moderator.reports.meander import meandered
from moderator.reports.visibility import View
from moderator.world.model import World
from moderator.world.scenario import load_scenario

# Regions a report may be drawn on; the smallest (in degrees) holding most of what the
# audience cares about is chosen, "world" is the fallback. The theatres of issue 13:
# the British Isles, the Western and Eastern Fronts, Italy and the Balkans, the Middle
# East, Africa, the Pacific (Australasia for the nations there); Europe and the continents
# for audiences spread wider.
REPORT_REGIONS = ("british-isles", "western-front", "eastern-front", "italy-balkans", "middle-east",
                  "europe", "africa", "north-america", "asia", "australasia", "pacific", "world")
COVERAGE = 0.8  # share of the audience's weight a region must hold to be chosen
ALLIANCE_EUROPE = 0.5  # share of an alliance's weight in Europe that draws its map over Europe
FRONT_WEIGHT = 3  # a place where the audience's units see the enemy weighs as much as 3 units
BATTLE_WEIGHT = 5  # a battle it fought, or a move it made, as 5
OVERVIEW_WIDTH = 640  # px: the world overview's pixels (drawn at about 530 px wide)


@functools.lru_cache(maxsize=4)
def _geometry(scenario: str) -> Geometry:
    return meandered(load_geometry(scenario))


def _inside(region: str, lon: float, lat: float) -> bool:
    r = REGIONS[region]
    lon2 = lon + 360 if lon < r.west else lon  # regions may run past 180 across the Pacific
    return r.west <= lon2 <= r.east and r.south <= lat <= r.north


def _degrees(region: str) -> float:
    r = REGIONS[region]
    return (r.east - r.west) * (r.north - r.south)


def weights(world: World, view: View) -> dict[str, float]:
    """Place -> how much the audience cares about it: its units there, the enemy its units
    see there, the battles and moves of the turn; without any of these (a nation with no
    army), the value of the land it holds."""
    out: dict[str, float] = {}
    for status in view.statuses:
        for loc, kinds in status.units.items():
            out[loc] = out.get(loc, 0) + sum(kinds.values())
    for s in view.sightings:
        out[s.place] = out.get(s.place, 0) + FRONT_WEIGHT
    ours = {status.nation for status in view.statuses}
    for m in mapstory.marks(view.events):
        # A capture is public news: it draws a map only to its capturer (Australia's map stays
        # in the Pacific when Germany takes Liege), and no public map to a theatre.
        if m.kind != mapstory.CAPTURE or m.nation in ours:
            out[m.dest] = out.get(m.dest, 0) + BATTLE_WEIGHT
    if not out:
        for status in view.statuses:
            for t in status.territories:
                out[t] = out.get(t, 0) + max(world.territories[t].value, 1)
    return {p: w for p, w in out.items() if p in world.territories}


def region_for(world: World, view: View) -> str:
    """The smallest region holding COVERAGE of what the audience cares about (weights). An
    alliance whose weight lies mostly in Europe (ALLIANCE_EUROPE) gets Europe: a world map of
    all its members' stacks shrinks the European fronts to a heap of numbered markers (the
    Allies' has some sixty there), and the stacks beyond Europe are listed under the map's
    "Off this map" note and in the report's text."""
    weight = weights(world, view)
    total = sum(weight.values())
    if not total:
        return "world"
    if view.audience.startswith("alliance:"):
        in_europe = sum(w for t, w in weight.items() if _inside("europe", *world.territories[t].label))
        if ALLIANCE_EUROPE * total <= in_europe < COVERAGE * total:
            return "europe"
    for region in sorted(REPORT_REGIONS, key=_degrees):
        held = sum(w for t, w in weight.items() if _inside(region, *world.territories[t].label))
        if held >= COVERAGE * total:
            return region
    return "world"


def draw_view(world: World, view: View, title: str, scenario: str = "1914", region: str | None = None) -> Image.Image:
    """The map of one audience (RGB pixels; reports/mapfiles.py makes the PNGs). Control of
    territory is public (the game's map is published after every update); units, the enemy
    bands and the turn's moves and battles come only from the view, which holds what the
    audience may see."""
    chosen = region or region_for(world, view)
    return render_map(
        _geometry(scenario), world, "pixels", control=view.control, units=view.map_units, region=chosen,
        title=title, names=_names(scenario),
        sightings={s.place: s for s in view.sightings if not view.map_units.get(s.place)},
        story=mapstory.marks(view.events), trenches=view.trenches,
        overview=None if chosen == "world" else overview(world, view.control, scenario))


_OVERVIEWS: dict[tuple[str, tuple[tuple[str, str], ...]], np.ndarray] = {}


def overview(world: World, control: dict[str, str], scenario: str = "1914") -> np.ndarray:
    """The public world map (who holds what, nothing else) as small RGB pixels: drawn once
    per position and shared by every audience's map of that turn."""
    key = (scenario, tuple(sorted(control.items())))
    if key not in _OVERVIEWS:
        img = render_map(_geometry(scenario), world, "pixels", control=control, region="world", bare=True)
        small = img.resize((OVERVIEW_WIDTH, round(img.height * OVERVIEW_WIDTH / img.width)),
                           Image.Resampling.LANCZOS)
        if len(_OVERVIEWS) >= 4:
            _OVERVIEWS.pop(next(iter(_OVERVIEWS)))
        _OVERVIEWS[key] = np.asarray(small)
    return _OVERVIEWS[key]


@functools.lru_cache(maxsize=4)
def _names(scenario: str) -> dict[str, str]:
    """Nation id -> display name, for the map's legend."""
    return {k: v.name for k, v in load_scenario(scenario).nations.items()}
