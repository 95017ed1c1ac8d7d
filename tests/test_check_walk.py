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


def _judged(verdicts: list) -> list[tuple[bool, list[str]]]:  # type: ignore[type-arg]
    return [(v.kept, [p.code for p in v.problems]) for v in verdicts]


def test_the_treasury_answers_kept_between_checks_of_one_state_change_no_verdict() -> None:
    """A burst of mail is checked on one snapshot, so the land groups of the treasuries (3.1:
    money cannot cross enemy land; a search of the map) found for one mail are kept on the
    state for the next (engine/check.py). Every verdict is the one a fresh copy of the state
    gives, the first time, the second, and after the state itself has changed (its control
    map, in place: the kept answers no longer hold and are found again)."""
    from tests import drift

    game = drift.latewar()
    state = game.state
    batches = {n: drift.propose(game, n, "answers", per_type=2) for n in ("germany", "britain", "belgium", "japan")}

    def fresh(nation: str) -> list[tuple[bool, list[str]]]:
        return _judged(check_orders(batches[nation], nation, state.copy(), game.world, game.scenario))

    for _ in range(2):
        for nation, batch in batches.items():
            assert _judged(check_orders(batch, nation, state, game.world, game.scenario)) == fresh(nation)
    assert state.__dict__.get("_treasury_answers")  # kept, and used the second time
    # Germany takes the Belgian Congo and Katanga from Britain, Britain takes Brussels: new land groups.
    for place, holder in (("Belgian Congo", "germany"), ("Katanga", "germany"), ("Brussels", "britain")):
        state.control[place] = holder
    for nation, batch in batches.items():
        assert _judged(check_orders(batch, nation, state, game.world, game.scenario)) == fresh(nation)
