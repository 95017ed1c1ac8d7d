"""The orders catalog: input text -> expected diagnostics, as data (design.md, "Tests").

Each file in tests/catalog/orders/ is a mail body followed by a line "=== expect" and
then one expected diagnostic per line: "<severity> <code> <line>". Header comments
"# nation: X" and "# world: fixture|1914" choose who gives the orders and against which
state (the hand-built fixture, or the real 1914 opening position). The comparison is
exact: a case passes only if it produces these diagnostics and no others.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.world.model import World
from moderator.world.scenario_model import Scenario
from tests.test_orders_world import make_scenario, make_state, make_world

CATALOG = Path(__file__).parent / "catalog" / "orders"
CASES = sorted(CATALOG.glob("*.txt"))


@functools.cache
def real_1914() -> tuple[World, Scenario]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    return load_world("1914", strict=False), load_scenario("1914")


def setting(kind: str) -> tuple[GameState, World, Scenario]:
    if kind == "1914":
        from moderator.world.scenario import initial_state

        world, scenario = real_1914()
        return initial_state(scenario, world, "catalog"), world, scenario
    return make_state(), make_world(), make_scenario()


def read_case(path: Path) -> tuple[str, dict[str, str], list[tuple[str, str, int]]]:
    body, _, expect = path.read_text(encoding="utf-8").partition("=== expect\n")
    meta = dict(re.findall(r"^# (\w+): (.+)$", body, flags=re.MULTILINE))
    expected = []
    for line in expect.splitlines():
        if line.strip() and not line.startswith("#"):
            severity, code, number = line.split()
            expected.append((severity, code, int(number)))
    return body, meta, sorted(expected)


def test_catalog_is_not_empty() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_catalog_case(path: Path) -> None:
    body, meta, expected = read_case(path)
    state, world, scenario = setting(meta.get("world", "fixture"))
    result = check_text(body, meta.get("nation", "Germany"), state, world, scenario)
    got = sorted((d.severity, d.code, d.line) for d in result.diagnostics)
    assert got == expected, "\n".join(d.render() for d in result.diagnostics)
    for d in result.diagnostics:  # every problem explains itself and points at the text
        assert d.message and d.line > 0 and d.column > 0


def test_a_land_move_across_water_says_it_needs_transports() -> None:
    """Issue 13: London -> Paris is not "Paris is not next to London" alone: water lies
    between, and the receipt says how land units cross it (4.2.1); a move on one landmass
    that skips a territory keeps the plain words (4.4)."""
    state, world, scenario = setting("1914")
    result = check_text("MOVE 1 inf FROM London TO Paris\nMOVE 1 inf FROM London TO Edinburgh",
                        "British Empire", state, world, scenario)
    water, land = (d.message for d in sorted(result.diagnostics, key=lambda d: d.line))
    assert water.startswith("Paris is not next to London, and water lies between them")
    assert "only in transports" in water and "INVADE or LAND" in water
    assert land == "Edinburgh is not next to London (Phase 4.4)"
    assert world.joined_by_land("Berlin", "Paris") and not world.joined_by_land("London", "Paris")
