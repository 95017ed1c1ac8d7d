"""Trenches on the maps (Trenches: a trench protects its territory facing another;
reports/trenchlines.py): drawn on the border the two share, only the view's own."""

from __future__ import annotations

import functools

from matplotlib.collections import LineCollection
from shapely.geometry import Point

from moderator.engine.state import GameState
from moderator.reports import trenchlines
from moderator.reports.mapdraw import build_figure
from moderator.reports.mapview import _geometry
from moderator.reports.visibility import alliance_view, nation_view
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.cache
def start() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "trenches")


def dug_in() -> GameState:
    _, _, state = start()
    gs = state.copy()
    facing = {}
    for nation, place, faced, kind in (("germany", "Strasbourg", "Alsace-Lorraine", "trench"),
                                       ("germany", "Cologne", "Liege", "super_trench"),
                                       ("france", "Alsace-Lorraine", "Strasbourg", "trench")):
        unit = gs.new_unit(nation, kind, place)
        facing.setdefault(nation, {})[unit.id] = faced
    for nation, faced in facing.items():
        gs.nations[nation].flags["trench_facing"] = faced
    return gs


def test_the_border_is_where_the_two_territories_meet() -> None:
    geometry = _geometry("1914")
    runs = trenchlines.border(geometry, "Strasbourg", "Alsace-Lorraine")
    assert runs and sum(len(r) for r in runs) > 3
    theirs, ours = geometry.places["Alsace-Lorraine"].shape(), geometry.places["Strasbourg"].shape()
    for run in runs:
        for x, y in run:
            assert theirs.distance(Point(x, y)) <= trenchlines.BORDER_TOLERANCE + 1e-9
            assert ours.boundary.distance(Point(x, y)) < 1e-9
    assert trenchlines.border(geometry, "Strasbourg", "Berlin") == []  # not neighbours: no border


def test_a_view_holds_its_own_trenches_with_their_facing_and_never_the_enemys() -> None:
    world, scenario, _ = start()
    gs = dug_in()
    german = nation_view(gs, scenario, [], "germany", world).trenches
    assert german == [("germany", "Cologne", "Liege", "super_trench"),
                      ("germany", "Strasbourg", "Alsace-Lorraine", "trench")]
    assert nation_view(gs, scenario, [], "france", world).trenches == [
        ("france", "Alsace-Lorraine", "Strasbourg", "trench")]
    assert alliance_view(gs, scenario, [], "central", world).trenches == german


def test_the_map_draws_them_on_the_border_with_a_key() -> None:
    world, scenario, _ = start()
    view = nation_view(dug_in(), scenario, [], "germany", world)
    fig = build_figure(_geometry("1914"), world, region="western-front", trenches=view.trenches,
                       units=view.map_units, control=view.control)
    ax = fig.axes[0]
    lines = [c for c in ax.collections if isinstance(c, LineCollection)
             and any(abs(w - trenchlines.WIDTHS["super_trench"]) < 1e-9 for w in c.get_linewidths())]
    assert len(lines) == 1 and lines[0].get_segments()
    notes = "\n".join(t.get_text() for t in ax.texts)
    assert trenchlines.KEY[0] in notes
    assert "super-trench" in "\n".join(t.get_text() for t in ax.texts)  # the unit box names it in one word
