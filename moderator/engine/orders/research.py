"""RESEARCH technology (Phase 2.1: Research of technology).

"The player may try for any of the improved technologies below. It costs 10 resources
per attempt, and only one attempt may be made for each technology per turn. On a roll
of a 9 or 10 on a ten-sided die, the player will have successfully have researched the
technology." The attempt is paid when step 2.1 runs; the roll is the moderator's for
now (engine/chances.research has it, with the 8-10 after industrial espionage), so the
order is referred with its price.

The price (Phase 2.1): "Nations that are in same camp as the nation(s) that obtained a
technology advancement, can spend only 7 resources to research that technology" -- the
level being researched, held by a nation of the same side. "Nations that meet advanced
weaponry on the battlefield at the hands of the enemy ... can spend only 9": whether
they met it is the moderator's judgement, so the engine charges 10 and flags the
attempt when an enemy holds that level (the moderator may hand 1 back). The levels
"always at 10" are the scenario's (technologies.toml `full_price`).

The checker does not take a success for granted: the roll comes after the turn, so no
order of the same turn (a BUILD of the new unit, an UPGRADE to it) can rely on it.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford, once_per_turn, refer
from moderator.engine.problems import Problem, flag, problem
from moderator.orders.model import Research
from moderator.orders.vocab import TECHNOLOGIES

PHASE = "2.1"
PRICE = 10  # "It costs 10 resources per attempt"
CAMP_PRICE = 7  # "same camp as the nation(s) that obtained a technology advancement"


def advances(pos: Position, tech: str) -> int:
    """How many advances a technology has (the scenario's technologies.toml; the rules'
    counts in the orders vocabulary for a scenario without one)."""
    known = pos.scenario.technologies.get(tech)
    if known is not None:
        return known.advances
    return TECHNOLOGIES[tech][1] if tech in TECHNOLOGIES else 0


def next_level(pos: Position, nation: str, tech: str) -> int:
    return pos.tech(nation, tech) + 1


def always_full_price(pos: Position, tech: str, level: int) -> bool:
    known = pos.scenario.technologies.get(tech)
    return known is not None and level in known.full_price


def camp_holders(pos: Position, nation: str, tech: str) -> list[str]:
    """Nations of the same side that hold the level being researched."""
    level = next_level(pos, nation, tech)
    if pos.nation(nation).side == "neutral":
        return []
    return sorted(o for o in pos.state.nations if o != nation and pos.allies(nation, o) and pos.tech(o, tech) >= level)


def price(pos: Position, nation: str, tech: str) -> int:
    """10, or 7 when a nation of the same camp holds the level (Phase 2.1)."""
    if always_full_price(pos, tech, next_level(pos, nation, tech)):
        return PRICE
    return CAMP_PRICE if camp_holders(pos, nation, tech) else PRICE


def enemy_holders(pos: Position, nation: str, tech: str) -> list[str]:
    """Enemies holding the level: the nation may have met it on the battlefield (9), when
    the price is not already lower."""
    level = next_level(pos, nation, tech)
    if always_full_price(pos, tech, level) or price(pos, nation, tech) < PRICE:
        return []
    return sorted(o for o in pos.state.nations if pos.at_war(nation, o) and pos.tech(o, tech) >= level)


def key(nation: str, order: Research) -> tuple[str, ...]:
    return ("research", nation, order.tech)


class ResearchRule(OrderRule[Research]):
    order = Research
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Research) -> Problem | None:
        if next_level(pos, nation, order.tech) > advances(pos, order.tech):
            return problem("tech-complete", tech=order.tech, advances=advances(pos, order.tech))
        twice = once_per_turn(pos, key(nation, order), "research-twice", tech=order.tech)
        if twice is not None:
            return twice
        return afford(pos, nation, price(pos, nation, order.tech), "this research attempt")

    def remarks(self, pos: Position, nation: str, order: Research) -> list[Problem]:
        enemies = enemy_holders(pos, nation, order.tech)
        if enemies:
            return [flag("research-battlefield", tech=order.tech, enemies=enemies)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Research) -> None:
        ctx.pay(nation, price(ctx, nation, order.tech))
        ctx.use(key(nation, order))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Research) -> None:
        cost = price(ctx, nation, order.tech)
        battlefield = bool(enemy_holders(ctx, nation, order.tech))
        ctx.use(key(nation, order))
        if battlefield:
            refer(ctx, nation, index, order, cost, "research-roll-battlefield")
        else:
            refer(ctx, nation, index, order, cost, "research-roll")


RULE = ResearchRule()
