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
    recorded by Phase 3.3 shows the exact troops, a miss the recorded band; only in places
    the audience's units look into."""
    from moderator.engine.events import Event

    world, scenario, state = start()
    gs = state.copy()
    watched = {s.place for s in sightings(gs, scenario, world, ["serbia"])}
    assert {"Bosnia", "Belgrade"} <= watched or "Bosnia" in watched
    near = sorted(watched - {"Bosnia"})
    gs.nations["serbia"].flags["recon"] = {"Bosnia": {"seen": "exact", "units": {"austria-hungary": {"infantry": 4}}},
                                          near[0]: {"seen": "band", "band": "red"},
                                          "Vienna": {"seen": "exact", "units": {"austria-hungary": {"infantry": 9}}}}
    spied = Event("spied-combat", "4.6", ("serbia", "moderator"), {
        "nation": "serbia", "order": 0, "place": near[-1], "fought": True,
        "units": {"austria-hungary": {"infantry": 2, "artillery": 1, "coastal": 1}}})
    foreign = Event("spied-combat", "4.6", ("russia", "moderator"), {
        "nation": "russia", "order": 0, "place": "Bosnia", "fought": True, "units": {"austria-hungary": {"tank": 9}}})
    seen = {s.place: s for s in sightings(gs, scenario, world, ["serbia"], [spied, foreign])}
    assert seen["Bosnia"].units == {"infantry": 4} and seen["Bosnia"].band == "black"
    if len(near) > 1:
        assert seen[near[0]].units is None and seen[near[0]].band == "red"  # what the roll recorded
    assert seen[near[-1]].units == {"artillery": 1, "infantry": 2}  # troops, not the coastal defence
    assert "Vienna" not in seen  # no Serbian unit looks into Vienna


def test_a_conquest_is_not_reported_as_a_sighting_but_enemies_in_own_land_are() -> None:
    """Phase 3.3 looks before Phase 4 conquers: Germany's record of Liege (a band, then
    Belgian) is stale once Germany holds Liege and no enemy stands there; an enemy unit
    standing in land the side holds is still reported (with what the roll recorded)."""
    world, scenario, state = start()
    gs = state.copy()
    ger = gs.nations["germany"]
    ger.at_war_with = sorted({*ger.at_war_with, "belgium", "france"})
    gs.nations["belgium"].at_war_with = ["germany"]
    gs.nations["france"].at_war_with = sorted({*gs.nations["france"].at_war_with, "germany"})
    assert "Liege" in {s.place for s in sightings(gs, scenario, world, ["germany"])}  # Belgian land: looked into
    gs.control["Liege"] = "germany"
    for u in [u for u in gs.units if u.location == "Liege"]:
        gs.units.remove(u)
    ger.flags["recon"] = {"Liege": {"seen": "band", "band": "black"}}
    assert "Liege" not in {s.place for s in sightings(gs, scenario, world, ["germany"])}
    gs.new_unit("france", "infantry", "Liege")
    seen = {s.place: s for s in sightings(gs, scenario, world, ["germany"])}
    assert seen["Liege"].band == "black" and seen["Liege"].holder == "germany"


def test_an_exact_look_at_an_empty_place_reads_no_enemy_troops() -> None:
    from moderator.reports.build import nation_mail
    from moderator.reports.content import TurnInfo

    world, scenario, state = start()
    gs = state.copy()
    gs.nations["serbia"].flags["recon"] = {"Bosnia": {"seen": "exact", "units": {}}}
    text = nation_mail(gs, [], scenario, world, TurnInfo("g", "War", 1, "Aug", 2, "Sep", "soon"), "serbia").text
    line = next(x for x in text.splitlines() if x.startswith("- Bosnia ("))
    assert line.endswith(": no enemy troops, seen from Serbia") and "exactly" not in line
