"""A report's map: the public political map plus only the units the view may show."""

from __future__ import annotations

import functools

from moderator.reports.geometry import Geometry, load_geometry
from moderator.reports.mapdraw import render_map
from moderator.reports.visibility import View
from moderator.world.model import World


@functools.lru_cache(maxsize=4)
def _geometry(scenario: str) -> Geometry:
    return load_geometry(scenario)


def draw_view(world: World, view: View, title: str, scenario: str = "1914", region: str = "europe") -> bytes:
    """PNG bytes for one audience. Control of territory is public (the game's map is published
    after every update); units come only from the view, which holds what the audience may see."""
    return render_map(_geometry(scenario), world, control=view.control, units=view.map_units,
                      region=region, title=title)
