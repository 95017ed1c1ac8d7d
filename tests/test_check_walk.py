"""The receipt's check walks the phase table only as far as the orders it judges: the steps
after the last of them cannot change a verdict, so a mail without GIFT or TRANSFER does not
pay for Phase 8 income on every nation (most of an order mail's check), and one with a GIFT
still meets the treasury after income. The whole table stays the default, whose projection
the drift harness reads (moderator/engine/check.py)."""

from __future__ import annotations

import dataclasses

from moderator.engine.check import check_orders
from moderator.engine.context import TurnContext
from moderator.engine.resolve import default_ruleset
from moderator.orders.parser import parse_orders
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario


def _counting_income() -> tuple[object, list[int]]:
    rs = default_ruleset()
    runs: list[int] = []
    income = next(step for step in rs.phases if step.section == "8")
    assert income.run is not None
    run = income.run

    def counted(ctx: TurnContext) -> None:
        runs.append(1)
        run(ctx)

    phases = tuple(dataclasses.replace(step, run=counted) if step is income else step for step in rs.phases)
    return dataclasses.replace(rs, phases=phases), runs


def test_phase_8_runs_only_for_orders_that_come_after_it() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "walk")
    rs, runs = _counting_income()
    saved = state.nations["germany"].saved
    moves = parse_orders("MOVE 2 inf FROM Ruhr TO Cologne\nBUILD 1 inf AT Berlin\nNOTE hello").orders
    verdicts = check_orders(moves, "germany", state, world, scenario, rs, whole_table=False)  # type: ignore[arg-type]
    assert all(v.kept for v in verdicts) and runs == []
    check_orders(moves, "germany", state, world, scenario, rs)  # type: ignore[arg-type]
    assert runs == [1]  # the whole table by default (the drift harness reads its projection)
    # More than the treasury holds before income, less than after: kept only because 8 ran first.
    gift = parse_orders(f"MOVE 2 inf FROM Ruhr TO Cologne\nGIFT {saved + 20} TO Austria-Hungary").orders
    verdicts = check_orders(gift, "germany", state, world, scenario, rs, whole_table=False)  # type: ignore[arg-type]
    assert [v.kept for v in verdicts] == [True, True] and runs == [1, 1]
