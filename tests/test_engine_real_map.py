"""The engine on the real 1914 map and scenario: the Phase 4.1.3 worked examples and a
real first-turn resolution (Germany into Belgium)."""

from __future__ import annotations

from collections import deque

import pytest

from moderator.engine.dice import Dice
from moderator.engine.phase4_strategic import rail_region, strategic_capacity, strategic_paths
from moderator.engine.phase8_income import apply_income_rule, full_income
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.model import DeclareWar, Move, Order, StrategicMove, UnitCount
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@pytest.fixture(scope="module")
def real() -> tuple[World, Scenario, GameState]:
    world = load_world("1914")
    scenario = load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "real-map-test")


def test_warsaw_to_vladivostok_and_khabarovsk_is_two(real: tuple[World, Scenario, GameState]) -> None:
    # Phase 4.1.3 example 1: Warsaw (2) sends one infantry to Vladivostok (1), one to Khabarovsk (1).
    world, _, state = real
    assert strategic_capacity(world, state, "russia", "Warsaw", ["Vladivostok", "Khabarovsk"]) == 2
    assert strategic_capacity(world, state, "russia", "Warsaw", ["Vladivostok"]) == 1
    assert strategic_capacity(world, state, "russia", "Warsaw", ["Khabarovsk"]) == 1
    paths = strategic_paths(world, state, "russia", "Warsaw", {"Vladivostok": 1, "Khabarovsk": 1})
    assert sorted(p[-1] for p, _ in paths) == ["Khabarovsk", "Vladivostok"]
    for path, _ in paths:
        assert all(world.adjacent(a, b) for a, b in zip(path, path[1:], strict=False))
        assert all(state.controller(t) == "russia" for t in path)


def test_constantinople_to_mosul_baghdad_basra_is_two(real: tuple[World, Scenario, GameState]) -> None:
    # Phase 4.1.3 example 2: "only 2 units ... 1 through Mosul and 1 through Ramadi".
    world, _, state = real
    paths = strategic_paths(world, state, "ottoman", "Constantinople", ["Mosul", "Baghdad", "Basra"])
    assert sum(n for _, n in paths) == 2
    gates = sorted(next(t for t in p if t in ("Mosul", "Ramadi")) for p, _ in paths)
    assert gates == ["Mosul", "Ramadi"]


def test_constantinople_eastward_is_at_most_six(real: tuple[World, Scenario, GameState]) -> None:
    # Phase 4.1.3 example 2: "the maximum number of units moved from Constantinople is only 6
    # because Izmir and Sinope can let pass only 3 units each".
    world, _, state = real
    region = set(rail_region(world, state, "ottoman", "Constantinople"))
    west = {"Constantinople"}
    queue = deque(["Constantinople"])
    while queue:
        for nb in sorted(world.neighbours(queue.popleft())):
            if nb in region and nb not in west and nb not in ("Izmir", "Sinope"):
                west.add(nb)
                queue.append(nb)
    east = sorted(region - west)
    assert "Baghdad" in east and "Izmir" in east and "Sinope" in east
    assert strategic_capacity(world, state, "ottoman", "Constantinople", east) == 6


def test_straits_are_land_links_for_the_ottoman_example(real: tuple[World, Scenario, GameState]) -> None:
    world, _, _ = real
    straits = {frozenset(p.ends) for p in world.passages if p.kind == "strait"}
    assert frozenset({"Constantinople", "Izmir"}) in straits
    assert frozenset({"Constantinople", "Sinope"}) in straits


def test_first_turn_germany_into_belgium(real: tuple[World, Scenario, GameState]) -> None:
    world, scenario, state = real
    before = state.dumps()
    cologne = [u for u in state.units_at("Cologne", "germany")]
    inf = sum(1 for u in cologne if u.kind == "infantry")
    art = sum(1 for u in cologne if u.kind == "artillery")
    orders: dict[str, list[Order]] = {
        "germany": [DeclareWar("belgium"),
                    Move((UnitCount("infantry", inf), UnitCount("artillery", art)), "Cologne", "Liege")],
        "russia": [StrategicMove((UnitCount("infantry", 2),), "Warsaw", "Vladivostok")],
    }
    new, events = resolve(state, orders, world, scenario, Dice("real-seed", state.turn))
    again, events_again = resolve(state, orders, world, scenario, Dice("real-seed", state.turn))
    assert state.dumps() == before
    assert new.dumps() == again.dumps() and events == events_again
    assert new.turn == state.turn + 1 and new.at_war("belgium", "germany")
    battle = next(e for e in events if e.code == "battle")
    assert battle.args["territory"] == "Liege" and battle.seen_by == ("belgium", "germany")
    if battle.args["captured"]:
        assert new.control["Liege"] == "germany" and "Liege" not in new.incorporated
    # Artillery fired from Cologne and stayed there.
    assert sum(1 for u in new.units_at("Cologne", "germany") if u.kind == "artillery") == art - sum(
        battle.args["losses"]["germany"].get(k, 0) for k in ("artillery",))
    # Vladivostok (1) takes one of the two: one cut back.
    cut = next(e for e in events if e.code == "strategic-cut")
    assert cut.args["moving"] == 1
    assert sum(1 for u in new.units_at("Vladivostok", "russia") if u.kind == "infantry") == 1 + sum(
        1 for u in state.units_at("Vladivostok", "russia") if u.kind == "infantry")


def test_first_turn_income_follows_each_nations_rule(real: tuple[World, Scenario, GameState]) -> None:
    world, scenario, state = real
    _, events = resolve(state, {}, world, scenario, Dice("income", state.turn))
    got = {e.args["nation"]: e.args["amount"] for e in events if e.code == "income"}
    for nation, ns in state.nations.items():
        full = full_income(world, state, nation, state.turn)
        assert got[nation] == apply_income_rule(ns.income_rule, full), nation
    ottoman = full_income(world, state, "ottoman", state.turn)
    assert state.nations["ottoman"].income_rule == "half"
    assert got["ottoman"] == -(-ottoman // 2)  # Ottoman Empire: half, rounded up
