"""resolve(): one turn of the game, as a pure function.

    resolve(state, orders, world, scenario, dice) -> (new_state, events)

The input state is never changed (the phases work on state.copy()); the result's turn is
state.turn + 1. The phase table comes from the ruleset registry (default "wtea-1914",
or scenario.extra["ruleset"]). Every order a step does not consume is reported to its
nation as "order-not-implemented", so nothing is silently dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine import ruleset, wtea
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
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
    steps = ruleset.get(ruleset_id or ruleset_name(scenario))
    known = {n: tuple(o) for n, o in orders.items() if n in state.nations}
    ctx = TurnContext(state.copy(), known, world, scenario, dice)
    for stranger in sorted(set(orders) - set(known)):
        ctx.emit("order-not-implemented", "orders", (MODERATOR,), nation=stranger, reason="unknown-nation")
    report_unhandled(ctx, tuple(t for s in steps for t in s.handles))
    for step in steps:
        step.run(ctx)
    ctx.state.turn = state.turn + 1
    return ctx.state, ctx.events


def report_unhandled(ctx: TurnContext, handled: tuple[type, ...]) -> None:
    # Notes are for the moderator's review queue, not for the rules: not reported here.
    for nation in sorted(ctx.orders):
        for i, order in enumerate(ctx.orders[nation]):
            if not isinstance(order, (*handled, Note)):
                ctx.tell(nation, "order-not-implemented", "orders", order=i,
                         type=type(order).__name__, text=order.span.text)
