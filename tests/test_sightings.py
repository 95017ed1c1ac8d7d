"""What a nation sees of its enemies on the real 1914 map (3.3 Reconaissance: units see
into the land next to them; the colour bands of 3.2.2.4)."""

from __future__ import annotations

import functools

from moderator.engine.state import GameState
from moderator.reports.sightings import band, sightings
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.cache
def start() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "sightings")


def test_serbia_sees_the_austrians_in_bosnia_as_a_band() -> None:
    world, scenario, state = start()
    seen = {s.place: s for s in sightings(state, scenario, world, ["serbia"])}
    austrians = sum(1 for u in state.nation_units("austria-hungary") if u.location == "Bosnia"
                    and u.kind not in ("trench", "super_trench"))
    assert austrians > 0 and "Bosnia" in seen
    assert (seen["Bosnia"].band, seen["Bosnia"].span) == band(austrians)
    assert seen["Bosnia"].units is None and seen["Bosnia"].by == ["Serbia"]  # never the exact number
    assert all(s.holder in state.nations["serbia"].at_war_with or s.holder == "" for s in seen.values())


def test_nations_at_peace_see_no_one() -> None:
    world, scenario, state = start()
    assert sightings(state, scenario, world, ["belgium"]) == []  # at war with no one in August 1914


def test_bands() -> None:
    assert [band(n)[0] for n in (0, 5, 6, 20, 21, 99)] == ["black", "black", "yellow", "yellow", "red", "red"]


def test_combat_espionage_and_a_reconnaissance_hit_give_exact_numbers() -> None:
    """3.2.1.4: the spy's nation learns the enemy units engaged in a province; 3.3: a hit
    recorded by Phase 3.3 shows the exact troops, a miss the recorded band."""
    from moderator.engine.events import Event

    world, scenario, state = start()
    gs = state.copy()
    gs.nations["serbia"].flags["recon"] = {"Bosnia": {"seen": "exact", "units": {"austria-hungary": {"infantry": 4}}},
                                          "Herzegovina": {"seen": "band", "band": "yellow"}}
    spied = Event("spied-combat", "4.6", ("serbia", "moderator"), {
        "nation": "serbia", "order": 0, "place": "Belgrade", "fought": True,
        "units": {"austria-hungary": {"infantry": 2, "artillery": 1, "coastal": 1}}})
    foreign = Event("spied-combat", "4.6", ("russia", "moderator"), {
        "nation": "russia", "order": 0, "place": "Galicia", "fought": True, "units": {"austria-hungary": {"tank": 9}}})
    seen = {s.place: s for s in sightings(gs, scenario, world, ["serbia"], [spied, foreign])}
    assert seen["Bosnia"].units == {"austria-hungary": {"infantry": 4}} and seen["Bosnia"].band == "black"
    assert seen["Herzegovina"].units is None and seen["Herzegovina"].band == "yellow"
    assert seen["Belgrade"].units == {"austria-hungary": {"artillery": 1, "infantry": 2}}  # troops, not the city's
    assert "Galicia" not in seen  # Russia's spy reports to Russia
