"""resolve(): one turn of the game, as a pure function.

    resolve(state, orders, world, scenario, dice, ruleset) -> (new_state, events)

The input state is never changed (the steps work on state.copy()); the result's turn is
state.turn + 1. The ruleset's table for the turn runs step by step: each step carries
out its orders through their homes (canonical names, then problem(), then execute() or
a refusal with the rule's reason), then does its own work. Dice come from one stream
per step. `orders` may hold the moderator's rulings under the pseudo-nation "moderator".

Turn 0 (games created with a deployment turn) runs the ruleset's opening table *instead
of* the phase table: Initial Deployment says the "Game starts after all active players
deploy their units", so nothing of the Sequence of Play (income in Phase 8 included)
happens before turn 1. Orders meant for the other table (a MOVE at turn 0, a DEPLOY at
turn 3) are refused with that reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.names import Unreadable, canonical
from moderator.engine.problems import Problem, problem
from moderator.engine.ruleset import Ruleset, Step
from moderator.engine.state import GameState
from moderator.orders.model import Order
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

Bad = dict[tuple[str, int], Problem]


def resolve(
    state: GameState,
    orders: Mapping[str, Sequence[Order]],
    world: World,
    scenario: Scenario,
    dice: Dice,
    ruleset: Ruleset | None = None,
) -> tuple[GameState, list[Event]]:
    rs = ruleset or default_ruleset()
    table = rs.table(state.turn)
    known = {n: tuple(o) for n, o in orders.items() if n in state.nations or n == MODERATOR}
    ctx = TurnContext(state.copy(), {}, world, scenario, dice_root=dice, schema=rs.events)
    ctx.orders, bad = canonical_orders(ctx, known)
    for stranger in sorted(set(orders) - set(known)):
        ctx.flag("orders", "orders-for-unknown-nation", nation=None, typed=stranger)
    refuse_unreadable(ctx, bad)
    for nation, index, order in out_of_table(ctx, rs, table):
        known_type = rs.rule_for_type(type(order)) is not None
        ctx.refuse(nation, "orders", index, order, wrong_table(state.turn).code if known_type else "no-home")
    for step in table:
        ctx.step = step
        carry_out(ctx, rs, step, bad)
        if step.run is not None:
            step.run(ctx)
    ctx.step = None
    ctx.state.turn = state.turn + 1
    return ctx.state, ctx.events


def apply_rulings(state: GameState, rulings: Sequence[Order], world: World, scenario: Scenario,
                  dice: Dice, ruleset: Ruleset | None = None) -> tuple[GameState, list[Event]]:
    """The moderator's rulings carried out at once on a position, not as part of a turn
    (`moderator adjust --now`): the rulings step alone; the turn stays the same."""
    rs = ruleset or default_ruleset()
    step = next(s for s in rs.table(state.turn) if rulings and isinstance(rulings[0], s.orders)) \
        if rulings else None
    ctx = TurnContext(state.copy(), {}, world, scenario, dice_root=dice, schema=rs.events)
    ctx.orders, bad = canonical_orders(ctx, {MODERATOR: rulings})
    refuse_unreadable(ctx, bad)
    if step is not None:
        ctx.step = step
        carry_out(ctx, rs, step, bad)
    return ctx.state, ctx.events


def default_ruleset() -> Ruleset:
    from moderator.rulesets import registry  # the plug-in point; see moderator/rulesets.py

    return registry().default()


def canonical_orders(ctx: TurnContext, orders: Mapping[str, Sequence[Order]]) -> tuple[dict[str, list[Order]], Bad]:
    """Every order with canonical names; orders naming unknown places keep their Problem."""
    out: dict[str, list[Order]] = {}
    bad: Bad = {}
    for nation in sorted(orders):
        out[nation] = []
        for i, order in enumerate(orders[nation]):
            canon = canonical(ctx.world, ctx.scenario, nation, order)
            if isinstance(canon, Problem):
                bad[(nation, i)] = canon
                canon = Unreadable(original=order, span=order.span)
            out[nation].append(canon)
    return out, bad


def refuse_unreadable(ctx: TurnContext, bad: Bad) -> None:
    """Orders naming places or nations the game does not know: refused before any step."""
    for (nation, index), why in sorted(bad.items()):
        ctx.refuse(nation, "orders", index, ctx.orders[nation][index], why.code, **why.args)


def carry_out(ctx: TurnContext, rs: Ruleset, step: Step, bad: Bad) -> None:
    """The step's orders, in resolution order (nations by id, orders as written), or in the
    order the step's `serve` gives them (4.1.3: nations competing for rails, by lot)."""
    if not step.orders:
        return
    # (the position keeps the orders it found for each step: a turn asked some 3,000 isinstance)
    served = list(ctx.orders_of(step.orders))
    if step.serve is not None:
        served = step.serve(ctx, served)
    for nation, index, order in served:
        rule = rs.rule_for(order)
        why = rule.problem(ctx, nation, order)
        if why is not None:
            ctx.reject(nation, index, order, why)
            continue
        rule.execute(ctx, nation, index, order)


def out_of_table(ctx: TurnContext, rs: Ruleset, table: Sequence[Step]) -> list[tuple[str, int, Order]]:
    """Orders no step of this turn's table carries out (a DEPLOY after turn 0, a MOVE at turn 0)."""
    handled = (*(t for s in table for t in s.orders), Unreadable)  # (made once, not once per order)
    # Each class of order tested once: isinstance against the table's sixty classes for
    # every order was most of this (a turn's orders are of some fifteen classes; issue 14).
    fits: dict[type, bool] = {}
    out: list[tuple[str, int, Order]] = []
    for n in sorted(ctx.orders):
        for i, o in enumerate(ctx.orders[n]):
            fit = fits.get(type(o))
            if fit is None:
                fit = fits[type(o)] = isinstance(o, handled)
            if not fit:
                out.append((n, i, o))
    return out


def wrong_table(turn: int) -> Problem:
    """Initial Deployment: turn 0 is DEPLOY orders only; after it, no more DEPLOY."""
    return problem("deployment-turn") if turn == 0 else problem("deployment-over")
