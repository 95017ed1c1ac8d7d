"""The orders checker on the real 1914 data (maps/1914, scenarios/1914), opening position."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.checker import check_text
from moderator.world.model import World
from moderator.world.scenario_model import Scenario


@functools.cache
def data() -> tuple[World, Scenario]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    return load_world("1914", strict=False), load_scenario("1914")


def opening() -> GameState:
    from moderator.world.scenario import initial_state

    world, scenario = data()
    return initial_state(scenario, world, "real")


def run(text: str, nation: str = "Germany"):  # type: ignore[no-untyped-def]
    world, scenario = data()
    return check_text(text, nation, opening(), world, scenario)


def test_german_moves_from_real_german_provinces() -> None:
    world, _ = data()
    state = opening()
    origins = sorted({u.location for u in state.nation_units("germany")
                      if u.kind == "infantry" and world.territories[u.location].is_land})
    lines = []
    for origin in origins:
        dest = sorted(n for n in world.neighbours(origin) if world.territories[n].is_land
                      and state.controller(n) == "germany")
        if dest:
            lines.append(f"MOVE 1 inf FROM {origin} TO {dest[0]}")
    assert len(lines) >= 5
    r = run("\n".join(lines))
    assert not [d for d in r.diagnostics if d.severity == "error"], [d.render() for d in r.diagnostics]
    assert all(isinstance(o, m.Move) for o in r.orders) and len(r.orders) == len(lines)


def test_real_errors_point_at_the_problem() -> None:
    r = run("MOVE 1 inf FROM Berlin TO Paris\nMOVE 99 inf FROM Cologne TO Liege\nBUILD 1 art AT West Prussia")
    assert [(d.line, d.code) for d in r.diagnostics] == [
        (1, "not-adjacent"), (2, "not-enough-units"), (3, "artillery-city")]


def test_the_whole_turn_of_the_reference_is_legal_in_1914() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "orders.md").read_text(encoding="utf-8")
    block = doc.split("## A whole turn")[1].split("```orders\n")[1].split("```")[0]
    r = run(block)
    assert [d.severity for d in r.diagnostics] == ["flag"]  # the NOTE goes to the moderator
    assert len(r.orders) == 9


@pytest.mark.parametrize("nation,text", [
    ("France", "BUILD 2 inf AT Paris\nRESEARCH Radar"),
    ("Russia", "BUILD 2 inf AT Petrograd"),
    ("Austria", "OPTION 2"),
    ("USA", "OPTION 4 TOWARD Allies"),
    ("Japan", "GEAR UP"),
])
def test_other_nations(nation: str, text: str) -> None:
    r = run(text, nation)
    assert not [d for d in r.diagnostics if d.severity == "error"], [d.render() for d in r.diagnostics]
