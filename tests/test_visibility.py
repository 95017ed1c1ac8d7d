"""Nobody sees what they may not (Miscellaneous: own status to each nation, common status
to each alliance, only own status to neutrals). Property-tested over random positions."""

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.engine.events import Event
from moderator.engine.state import GameState, NationState, Unit
from moderator.reports.visibility import alliance_view, nation_view
from moderator.world.scenario_model import Nation, Scenario

NATIONS = {"germany": "central", "austria-hungary": "central", "france": "allied", "russia": "allied",
           "spain": "neutral", "japan": "neutral"}
PLACES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]
KINDS = ["infantry", "artillery", "fighter", "battleship"]

SCENARIO = Scenario("t", "test", 1914, 8, 2, 26,
                    {n: Nation(n, n.title(), "major", side) for n, side in NATIONS.items()}, {})

units_strategy = st.lists(st.tuples(st.sampled_from(sorted(NATIONS)), st.sampled_from(KINDS),
                                    st.sampled_from(PLACES)), max_size=40)
events_strategy = st.lists(st.tuples(st.sampled_from(["battle", "income", "news"]),
                                     st.lists(st.sampled_from(sorted(NATIONS)), max_size=3)), max_size=10)


def make_state(units: list[tuple[str, str, str]]) -> GameState:
    state = GameState("g", "t", 2, nations={n: NationState(n, side=s) for n, s in NATIONS.items()},
                      control={p: "germany" for p in PLACES})
    for i, (nation, kind, place) in enumerate(units):
        state.units.append(Unit(f"u{i:03d}", nation, kind, place))
    return state


def make_events(raw: list[tuple[str, list[str]]]) -> list[Event]:
    return [Event(code, "4.6", tuple(sorted(set(seen))), {"i": i}) for i, (code, seen) in enumerate(raw)]


@settings(max_examples=150, deadline=None)
@given(units_strategy, events_strategy, st.sampled_from(sorted(NATIONS)))
def test_a_nation_sees_only_its_own_units_and_its_own_events(units, raw_events, nation) -> None:  # type: ignore[no-untyped-def]
    state, events = make_state(units), make_events(raw_events)
    view = nation_view(state, SCENARIO, events, nation)
    assert [s.nation for s in view.statuses] == [nation]
    own = sum(1 for u in state.units if u.nation == nation)
    assert sum(sum(k.values()) for k in view.statuses[0].units.values()) == own
    assert sum(sum(k.values()) for k in view.map_units.values()) == own
    assert all(not e.seen_by or nation in e.seen_by for e in view.events)


@settings(max_examples=150, deadline=None)
@given(units_strategy, events_strategy, st.sampled_from(["central", "allied"]))
def test_an_alliance_sees_its_members_and_no_one_else(units, raw_events, side) -> None:  # type: ignore[no-untyped-def]
    state, events = make_state(units), make_events(raw_events)
    view = alliance_view(state, SCENARIO, events, side)
    members = {n for n, s in NATIONS.items() if s == side}
    assert {s.nation for s in view.statuses} == members
    shown = sum(sum(k.values()) for k in view.map_units.values())
    assert shown == sum(1 for u in state.units if u.nation in members)
    assert all(not e.seen_by or set(e.seen_by) & members for e in view.events)


def test_neutrals_get_no_shared_report() -> None:
    import pytest

    with pytest.raises(ValueError):
        alliance_view(make_state([]), SCENARIO, [], "neutral")
