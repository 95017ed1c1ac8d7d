"""Each report's map shows the theatre where its audience's units and fighting are (issue 13:
the Western and Eastern Fronts, Italy and the Balkans, the Middle East, ...), with the world
beside it."""

import pytest

from moderator.reports.mapview import region_for
from moderator.reports.visibility import alliance_view, nation_view
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario


@pytest.mark.parametrize("nation, region", [
    ("germany", "europe"), ("france", "western-front"), ("japan", "asia"), ("usa", "north-america"),
    ("serbia", "italy-balkans"), ("russia", "eastern-front"), ("ottoman", "middle-east"),
])
def test_a_nation_gets_the_map_of_its_part_of_the_world(nation: str, region: str) -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    assert region_for(world, nation_view(state, scenario, [], nation)) == region


def test_the_central_powers_share_a_european_map() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    assert region_for(world, alliance_view(state, scenario, [], "central")) == "europe"


def test_the_allies_map_is_drawn_over_europe_though_their_stacks_span_the_world() -> None:
    """Issue 13: "the alliance map legible over Europe". The Allies' stacks stand from
    Canada to New Zealand, but most of their weight is in Europe: their map is Europe's
    (the rest listed off the map), not the world's, where Europe is a heap of markers."""
    from moderator.reports.mapview import ALLIANCE_EUROPE, COVERAGE, _inside, weights

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    for nation in ("britain", "japan", "australia", "canada", "india", "new-zealand", "south-africa"):
        state.nations[nation].side = "allied"  # the British Empire and Japan in the war
    view = alliance_view(state, scenario, [], "allied", world)
    weight = weights(world, view)
    share = sum(w for t, w in weight.items() if _inside("europe", *world.territories[t].label)) / sum(weight.values())
    assert ALLIANCE_EUROPE <= share < COVERAGE  # the world map by the nations' rule
    assert region_for(world, view) == "europe"
    assert region_for(world, nation_view(state, scenario, [], "japan", world)) == "asia"  # nations: as before


def test_the_theatre_follows_the_fighting() -> None:
    """A battle weighs more than standing armies: Britain's map moves to where it fights."""
    from moderator.engine.events import Event
    from moderator.reports.mapview import weights

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    quiet = nation_view(state, scenario, [], "britain", world)
    battle = Event("battle", "4.6", ("britain",), {"territory": "Basra", "origins": ["Kuwait"], "attacker": "britain",
                                                  "defender": "ottoman", "defenders": ["ottoman"], "rounds": 1,
                                                  "strait": False, "losses": {}, "captured": False,
                                                  "withdrawn": None, "rolls": [0, 0]})
    fighting = nation_view(state, scenario, [battle], "britain", world)
    assert weights(world, fighting)["Basra"] > weights(world, quiet).get("Basra", 0)
    assert region_for(world, quiet) == "europe"


def test_every_theatre_map_carries_the_world_overview() -> None:
    """The world overview is drawn once per position and shared by every audience's map."""
    from moderator.reports import mapview

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    first = mapview.overview(world, dict(state.control))
    assert mapview.overview(world, dict(state.control)) is first  # cached
    assert first.shape[1] == mapview.OVERVIEW_WIDTH and first.shape[2] == 3


def test_news_of_a_capture_elsewhere_does_not_move_a_nations_map() -> None:
    """Captures are public: Germany taking Liege is in Australia's view, and must not pull
    Australia's map away from its own units in the Pacific; Germany's map weighs it."""
    from moderator.engine.events import Event
    from moderator.reports.mapview import weights

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    taken = [Event("captured", "4.4", (), {"territory": t, "nation": "germany", "holder": "germany",
                                          "previous": "belgium"}) for t in ("Liege", "Brussels", "Antwerp")]
    quiet = region_for(world, nation_view(state, scenario, [], "australia", world))
    assert region_for(world, nation_view(state, scenario, taken, "australia", world)) == quiet != "europe"
    assert "Liege" in weights(world, nation_view(state, scenario, taken, "germany", world))


def test_australia_and_new_zealand_are_drawn_on_australasia_not_the_whole_pacific() -> None:
    """Issue 13: Australia's map was the Pacific from Siam to California, nine tenths ocean;
    Australasia holds its units and holdings and New Zealand's, and far less open sea."""
    from moderator.reports.mapdraw import REGIONS
    from moderator.reports.mapview import _inside

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    for nation in ("australia", "new-zealand"):
        assert region_for(world, nation_view(state, scenario, [], nation, world)) == "australasia"
        held = [t for t, n in state.control.items() if n == nation]
        assert held and all(_inside("australasia", *world.territories[t].label) for t in held), nation
    a, p = REGIONS["australasia"], REGIONS["pacific"]
    assert (a.east - a.west) * (a.north - a.south) < 0.3 * (p.east - p.west) * (p.north - p.south)
