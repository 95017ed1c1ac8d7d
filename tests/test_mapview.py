"""Each report's map shows the part of the world its audience lives in."""

import pytest

from moderator.reports.mapview import region_for
from moderator.reports.visibility import alliance_view, nation_view
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario


@pytest.mark.parametrize("nation, region", [
    ("germany", "europe"), ("france", "europe"), ("japan", "asia"), ("usa", "north-america"),
    ("serbia", "europe"),
])
def test_a_nation_gets_the_map_of_its_part_of_the_world(nation: str, region: str) -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    assert region_for(world, nation_view(state, scenario, [], nation)) == region


def test_the_central_powers_share_a_european_map() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    assert region_for(world, alliance_view(state, scenario, [], "central")) == "europe"
