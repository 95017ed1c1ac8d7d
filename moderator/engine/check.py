"""The order checker: the engine's own legality, walked over the position the orders meet.

check_orders() copies the position (or only its list of units, when they are read only and
shared: GameState.share_units), then walks the ruleset's table for the turn the way
resolve() does, with one nation's orders only: at each step, each of its orders of that
step gets its home's problem() on the position as the earlier orders left it; a kept
order is committed (paid, its units claimed, its war declared) before the next one is
looked at. Steps whose own work is deterministic (Phase 8 income) run as in the engine,
so a GIFT paid in Phase 8.1 meets the treasury after income, as it will in the turn.
With `whole_table=False` the walk stops at the last step holding one of the orders: nothing
after it can change a verdict, so a receipt's check of a mail without GIFT or TRANSFER does
not pay for everyone's income. The whole walk is the default: the drift harness reads the
scratch copy's treasuries after the whole table.

Where the engine will roll dice or meet other nations' orders, the checker takes the
order's best outcome for granted (its home's assume(): an attack takes its target, a
research succeeds) and later orders that rely on it are kept with a note saying so.
No dice are rolled: legality never depends on luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from moderator.engine import treasuries
from moderator.engine.context import TurnContext
from moderator.engine.dice import NoDice
from moderator.engine.names import Unreadable, canonical
from moderator.engine.problems import Problem, problem
from moderator.engine.resolve import default_ruleset, wrong_table
from moderator.engine.ruleset import Ruleset, Step
from moderator.engine.state import GameState, SharedUnitChanged
from moderator.orders.model import Order
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

_ANSWERS = "_treasury_answers"  # GameState.__dict__: (world, memo entries) of earlier checks of that state


@dataclass
class Verdict:
    """What the rules say about one order: kept (canonical) or not, and why."""

    index: int
    order: Order  # canonical names when they could be resolved
    kept: bool
    problems: list[Problem] = field(default_factory=list)


def check_orders(orders: Sequence[Order], nation: str, state: GameState, world: World, scenario: Scenario,
                 ruleset: Ruleset | None = None, *, whole_table: bool = True) -> list[Verdict]:
    """One verdict per order, in the order written."""
    rs = ruleset or default_ruleset()
    table = rs.table(state.turn)
    verdicts: dict[int, Verdict] = {}
    canon: list[Order] = []
    for i, order in enumerate(orders):
        c = canonical(world, scenario, nation, order)
        if isinstance(c, Problem):
            verdicts[i] = Verdict(i, order, False, [c])
            c = Unreadable(original=order, span=order.span)
        canon.append(c)
    # The treasury answers (land groups: a search of the map) found by the checks before this
    # one on the same state, where they still hold: a burst of mail is checked on one snapshot.
    seeded = state.__dict__.get(_ANSWERS)
    answers = seeded[1] if seeded is not None and seeded[0] is world else {}
    # The walk's scratch copy: the state's own units if they are read only (GameState.
    # share_units: the position a burst of mail is checked on), else copies. A walk that
    # would change one of the shared units (moves a unit, damages one) starts again on a
    # copy of its own: it was stopped before it changed anything.
    try:
        ctx = _walk(canon, dict(verdicts), nation, state.sharing_copy() if state.units_shared else state.copy(),
                    world, scenario, rs, table, answers, whole_table, verdicts)
    except SharedUnitChanged:
        ctx = _walk(canon, dict(verdicts), nation, state.copy(), world, scenario, rs, table, answers, whole_table,
                    verdicts)
    # The answers found here that hold for the state, kept on it for its next check (not a
    # field: never serialised, not copied); those seeded were checked when they were kept.
    holding = treasuries.answers_holding({k: v for k, v in ctx.memo.items() if answers.get(k) is not v}, state)
    if holding:
        state.__dict__[_ANSWERS] = (world, {**answers, **holding})
    return [verdicts[i] for i in range(len(canon))]


def _walk(canon: list[Order], verdicts: dict[int, Verdict], nation: str, scratch: GameState, world: World,
          scenario: Scenario, rs: Ruleset, table: Sequence[Step], answers: dict[Any, Any], whole_table: bool,
          out: dict[int, Verdict]) -> TurnContext:
    """check_orders()'s walk of the table on `scratch`, from the verdicts known before it
    (`verdicts`, changed); only once it is done are they put in `out`. Returns its context."""
    ctx = TurnContext(scratch, {nation: canon}, world, scenario, checking=True, dice_root=NoDice(),
                      memo=dict(answers))
    for i, order in enumerate(canon):
        if i not in verdicts and rs.step_of(table, order) is None:
            known = rs.rule_for_type(type(order)) is not None
            verdicts[i] = Verdict(i, order, False, [wrong_table(scratch.turn) if known else problem("no-home")])
    # The steps after the last one holding an order still to judge cannot change a verdict:
    # only verdicts wanted, they are not walked (a mail without GIFT or TRANSFER then does not
    # pay for Phase 8 income on every nation, most of a mail's check).
    last = len(table) - 1 if whole_table else max(
        (n for n, step in enumerate(table)
         if any(i not in verdicts and isinstance(order, step.orders) for i, order in enumerate(canon))), default=-1)
    for step in table[:last + 1]:
        ctx.step = step
        for i, order in enumerate(canon):
            if i in verdicts or not isinstance(order, step.orders):
                continue
            rule = rs.rule_for(order)
            why = rule.problem(ctx, nation, order)
            if why is not None:
                verdicts[i] = Verdict(i, order, False, [why])
                continue
            verdicts[i] = Verdict(i, order, True, rule.remarks(ctx, nation, order))
            rule.commit(ctx, nation, i, order)
            rule.assume(ctx, nation, i, order)
        if step.deterministic and step.run is not None:
            step.run(ctx)
        elif step.assume is not None:
            step.assume(ctx)
    out.update(verdicts)
    return ctx
