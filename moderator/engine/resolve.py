"""resolve(): one turn of the game, as a pure function.

    resolve(state, orders, world, scenario, dice) -> (new_state, events)

The input state is never changed (the phases work on state.copy()); the result's turn is
state.turn + 1. The phase table comes from the ruleset registry (default "wtea-1914",
or scenario.extra["ruleset"]). Every order a step does not consume is reported to its
nation as "order-not-implemented", so nothing is silently dropped.

Turn 0 (games created with a deployment turn) runs the ruleset's opening table *instead
of* the phase table: Initial Deployment says the "Game starts after all active players
deploy their units", so nothing of the Sequence of Play (income in Phase 8 included)
happens before turn 1. This is the one place where that is decided. Orders meant for the
other table (a MOVE at turn 0, a DEPLOY at turn 3) are refused, not sent to review.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine import ruleset, wtea
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.ruleset import Step
from moderator.engine.state import GameState
from moderator.orders.model import Note, Order
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

DEFAULT_RULESET = wtea.NAME


def ruleset_name(scenario: Scenario) -> str:
    name = scenario.extra.get("ruleset", DEFAULT_RULESET)
    return name if isinstance(name, str) else DEFAULT_RULESET


def resolve(
    state: GameState,
    orders: Mapping[str, Sequence[Order]],
    world: World,
    scenario: Scenario,
    dice: Dice,
    ruleset_id: str | None = None,
) -> tuple[GameState, list[Event]]:
    name = ruleset_id or ruleset_name(scenario)
    opening = state.turn == 0  # Initial Deployment: the deployment turn, before turn 1
    steps = ruleset.opening(name) if opening else ruleset.get(name)
    known = {n: tuple(o) for n, o in orders.items() if n in state.nations}
    ctx = TurnContext(state.copy(), known, world, scenario, dice)
    for stranger in sorted(set(orders) - set(known)):
        ctx.emit("order-not-implemented", "orders", (MODERATOR,), nation=stranger, reason="unknown-nation")
    if opening:  # before the first turn, every order but DEPLOY (and NOTE) is out of place
        report_unhandled(ctx, handled_by(steps), refused=(Order,), reason="only-deploy-before-first-turn")
    else:
        report_unhandled(ctx, handled_by(steps), refused=handled_by(ruleset.opening(name)),
                         reason="deployment-over")
    for step in steps:
        step.run(ctx)
    ctx.state.turn = state.turn + 1
    return ctx.state, ctx.events


def handled_by(steps: Sequence[Step]) -> tuple[type, ...]:
    return tuple(t for s in steps for t in s.handles)


def report_unhandled(ctx: TurnContext, handled: tuple[type, ...], refused: tuple[type, ...] = (),
                     reason: str = "") -> None:
    """Orders no step of this turn consumes: `refused` ones (orders of the wrong turn) are
    refused with `reason`; the others go to the moderator as not implemented yet."""
    # Notes are for the moderator's review queue, not for the rules: not reported here.
    for nation in sorted(ctx.orders):
        for i, order in enumerate(ctx.orders[nation]):
            if isinstance(order, (*handled, Note)):
                continue
            if isinstance(order, refused):
                ctx.refuse(nation, "orders", i, order, reason)
            else:
                ctx.tell(nation, "order-not-implemented", "orders", order=i,
                         type=type(order).__name__, text=order.span.text)
