"""INCORPORATE territory (Phase 6: Incorporation).

"It costs 2 times the resource value of a territory to incorporate it." Conquered land
yields nothing until its conqueror incorporates it; the delay table that follows is in
phase6_incorporation. "A nation that recaptures a territory that belonged to them at the
start of play may incorporate the territory for zero cost": the engine does that at the
recapture itself (conquest.take_territory), so ordering it is harmless and does nothing.

An order for land the nation attacks this turn meets Phase 6 after the battle: the
checker keeps it with a note, and the engine refuses it if the attack failed.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Incorporate

PHASE = "6"
COST_FACTOR = 2


def cost(pos: Position, nation: str, place: str) -> int:
    return 0 if pos.place(place).owner == nation else COST_FACTOR * pos.place(place).value


class IncorporateRule(OrderRule[Incorporate]):
    order = Incorporate
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Incorporate) -> Problem | None:
        place = order.territory
        if pos.is_sea(place) or pos.controller(place) != nation:
            return problem("incorporate-not-held", place, place=place)
        if pos.place(place).owner == nation:
            return None  # own land: reincorporated free at the recapture
        if place in pos.state.incorporated:
            return problem("already-incorporated", place, place=place)
        return afford(pos, nation, cost(pos, nation, place), f"incorporating {place}")

    def remarks(self, pos: Position, nation: str, order: Incorporate) -> list[Problem]:
        out = []
        if pos.place(order.territory).owner == nation:
            out.append(warning("reincorporate", order.territory, place=order.territory))
        if f"control:{order.territory}" in pos.assumed:
            out.append(warning("if-captured", order.territory, place=order.territory))
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Incorporate) -> None:
        if order.territory in ctx.state.incorporated:
            return  # own land, already reincorporated at its recapture
        ctx.pay(nation, cost(ctx, nation, order.territory))
        ctx.state.incorporated[order.territory] = ctx.turn

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Incorporate) -> None:
        if order.territory in ctx.state.incorporated:
            return
        price = cost(ctx, nation, order.territory)
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "incorporated", PHASE, order=index, territory=order.territory, cost=price)


RULE = IncorporateRule()
