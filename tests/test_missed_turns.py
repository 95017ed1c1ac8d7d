"""Missed turns (Miscellaneous): the moderator's default orders for a seat without orders
(defensive, half the income on infantry:artillery:fighters = 3:1:1), played at the
deadline and kept in the turn record; the second miss in a row asks for a new player."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from moderator.engine import missed_turn
from moderator.engine.context import Position
from moderator.engine.phase8_income import apply_income_rule, full_income
from moderator.engine.state import GameState
from moderator.orders import check, parse_orders
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.turns import missed_in_a_row, replay, resolve_game
from moderator.store.db import Store
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "missed")


def builds(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for order in parse_orders(text).orders:
        out[order.kind] = out.get(order.kind, 0) + order.count  # type: ignore[attr-defined]
    return out


def test_half_the_income_not_the_savings_goes_on_3_to_1_to_1() -> None:
    world, scenario, start = real()
    s = start.copy()
    s.nations["germany"].saved = 500
    income = apply_income_rule(s.nations["germany"].income_rule, full_income(world, s, "germany", s.turn))
    pos = Position(s, {}, world, scenario)
    assert missed_turn.budget(pos, "germany") == income // 2 == 49
    text = missed_turn.default_orders(s, world, scenario, "germany")
    assert missed_turn.is_default(text) and "MOVE" not in text  # defensive: nothing moves
    bought = builds(text)
    assert bought["infantry"] >= 3 * bought.get("fighter", 0) and bought["artillery"] >= bought.get("fighter", 0)
    assert bought["infantry"] <= 3 * bought["artillery"] + 3
    cost = sum(n * scenario.stats("germany", k).cost for k, n in bought.items())
    assert cost <= 49 and 49 - cost < scenario.stats("germany", "infantry").cost  # nothing more affordable
    checked = check(parse_orders(text).orders, "germany", s, world, scenario)
    assert not [d for d in checked.diagnostics if d.severity == "error"]


def test_never_more_than_saved_and_nothing_for_an_empty_treasury() -> None:
    world, scenario, start = real()
    s = start.copy()
    s.nations["germany"].saved = 12
    assert missed_turn.budget(Position(s, {}, world, scenario), "germany") == 12
    s.nations["germany"].saved = 0
    assert builds(missed_turn.default_orders(s, world, scenario, "germany")) == {}


def test_a_seat_without_orders_gets_the_default_and_the_second_miss_asks_for_a_new_player(tmp_path: Path) -> None:
    said: list[str] = []
    svc = Service(store=Store.at(tmp_path / "db"), say=said.append)
    new_game(svc, "g")
    svc.store.add_seat("g", "france", "joffre@t.local", "pw")
    resolve_game(svc, "g")
    record = svc.store.turn_record("g", 1)
    assert record is not None and "BUILD" in json.loads(record.orders)["france"]
    assert any("French Empire sent no orders for turn 1" in s and "replace" not in s for s in said)
    same, why = replay(svc, "g", 1)  # the default is an input like any orders
    assert same, why
    said.clear()
    resolve_game(svc, "g")
    assert any("second missed turn in a row: replace the player" in s for s in said)
    # The record keeps the default orders, marked: the reports still count the misses.
    assert missed_in_a_row(svc, svc.game("g"), 2) == {"france": 2}
