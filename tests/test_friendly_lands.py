"""Position.friendly_lands (engine/context.py): friendly() asked of every land at once, the
same answer as asking it land by land, in the order of world.lands() (issue 14, the engine's cost)."""

from __future__ import annotations

from moderator.engine.context import Position
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario


def test_friendly_lands_are_the_lands_friendly_answers_for_land_by_land() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "lands")
    state.nations["italy"].side = "allied"  # a neutral joined: its side's lands are its friends' now
    state.control.pop("Posen")  # a land nobody holds is nobody's friend
    pos = Position(state, {}, world, scenario)
    for nation in [*sorted(state.nations), "nobody"]:  # sides, neutrals, and a nation the game lacks
        expected = [t.name for t in world.lands() if pos.friendly(nation, t.name)]
        assert pos.friendly_lands(nation) == expected, nation
    assert "Ancona" in pos.friendly_lands("russia") and "Ancona" not in pos.friendly_lands("germany")


def test_friendly_lands_kept_follow_a_change_of_holder_or_of_side() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "lands")
    pos = Position(state, {}, world, scenario)
    assert "Ancona" not in pos.friendly_lands("russia")
    assert pos.friendly_lands("russia") == pos.friendly_lands("russia")  # kept: the same answer again
    state.control["Ancona"] = "france"  # a land changes hands
    assert "Ancona" in pos.friendly_lands("russia")
    state.nations["italy"].side = "allied"  # a neutral joins a side
    assert "Florence" in pos.friendly_lands("russia")
    state.control = dict(state.control)  # a plain dict put in place of the control map
    state.control["Florence"] = "germany"
    assert "Florence" not in pos.friendly_lands("russia")
