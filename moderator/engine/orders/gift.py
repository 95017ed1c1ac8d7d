"""GIFT n TO nation (Phase 8 note: gifts between allies; US option #3 lends through it).

"Gifts of money are allowed between allies, but with exception of nations already
mentioned above, only 50% (rounded up) would reach target country and that will occur in
this phase." The gift is paid in Phase 8.1, after Phase 8 income, out of what the giver
holds then: so a gift may use this turn's income. All of it arrives between the British
Empire, Canada and Australia ("Major nations and colonies"), and from the neutral USA to
a nation in the main war (US option #3, at least 5): scenario.toml [gifts]. The US public-opinion roll that may
follow a US gift is Phase 9 work, not done yet.
"""

from __future__ import annotations

from fractions import Fraction

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford
from moderator.engine.phase8_income import round_up
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Gift

PHASE = "8.1"


def neutral_lender(pos: Position, giver: str) -> bool:
    """The neutral USA lends to nations in the main war (US option #3; scenario [gifts])."""
    return giver in pos.scenario.gifts.neutral_lenders and pos.nation(giver).side == "neutral"


def arrives_in_full(pos: Position, giver: str, receiver: str) -> bool:
    groups = pos.scenario.gifts.full_value_groups
    return neutral_lender(pos, giver) or any({giver, receiver} <= g for g in groups)


class GiftRule(OrderRule[Gift]):
    order = Gift
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Gift) -> Problem | None:
        to = order.to
        if to == nation:
            return problem("gift-self", order.to)
        if neutral_lender(pos, nation):
            if pos.nation(to).side == "neutral":
                return problem("gift-neutral", order.to, receiver=to)
            if order.amount < pos.scenario.gifts.lender_minimum:
                return problem("gift-too-small", minimum=pos.scenario.gifts.lender_minimum)
        elif not pos.allies(nation, to) or pos.nation(nation).side == "neutral":
            return problem("gift-not-ally", order.to, receiver=to)
        return afford(pos, nation, order.amount, "this gift")

    def remarks(self, pos: Position, nation: str, order: Gift) -> list[Problem]:
        if arrives_in_full(pos, nation, order.to):
            return []
        return [warning("gift-half", arrives=round_up(Fraction(order.amount, 2)))]

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Gift) -> None:
        full = arrives_in_full(ctx, nation, order.to)
        ctx.pay(nation, order.amount)
        ctx.state.nations[order.to].saved += order.amount if full else round_up(Fraction(order.amount, 2))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Gift) -> None:
        full = arrives_in_full(ctx, nation, order.to)
        self.commit(ctx, nation, index, order)
        arrived = order.amount if full else round_up(Fraction(order.amount, 2))
        ctx.emit("gift", PHASE, tuple(sorted({nation, order.to})), giver=nation, receiver=order.to,
                 sent=order.amount, arrived=arrived)


RULE = GiftRule()
