"""FIRE [CITY|INDUSTRY|UNITS] n rkt FROM a AT b (Rockets; carried out with the bombing of 4.1.1).

Rockets: "If the rocket unit is within range of a city it may shoot at the city and
reduce that nation's infantry maximum by 1. If within range of an industrial complex,
the rocket may reduce the enemy's saved resources by 2 ... A rocket may fire into an
enemy held territory within its range and try to destroy any enemy units there. Each
rocket gets one shot per turn ... A rocket cannot fire on any turn that it moves."
The order claims its rockets, and fires before any movement of the turn, so a rocket
that fires cannot also move (a later MOVE or STRATEGIC MOVE of it finds it busy).

Range (Rockets, advances 3 and 4: "+1 range" each): 1 territory (the neighbours) with
the basic rocket, 2 from the third advance, 3 from the fourth. Reading: the range is
counted in territories of any kind, land or sea (a rocket flies), and the rules give
no base range, so the basic rocket reaches the neighbouring territories (its move is 1).

What the shots do (the D10 at the rocket's attack value, the trenches, the losses):
rocket_fire.py.
"""

from __future__ import annotations

from collections import deque

from moderator.engine import rocket_fire
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.bombing import has_industry
from moderator.engine.problems import Problem, problem
from moderator.orders.model import RocketFire, UnitCount
from moderator.world.model import World

PHASE = "4.1.1"
RANGE_ADVANCES = (3, 4)  # Rockets: the 3rd and 4th advances give "+1 range" each


def reach(pos: Position, nation: str) -> int:
    """How many territories away the nation's rockets fire (Rockets)."""
    level = pos.tech(nation, "rockets")
    return pos.scenario.rocket_base_range + sum(1 for advance in RANGE_ADVANCES if level >= advance)


def distance(world: World, start: str, goal: str, limit: int) -> int | None:
    """Fewest steps from start to goal over any territories, or None beyond `limit`."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            return seen[here]
        if seen[here] == limit:
            continue
        for nxt in sorted(world.neighbours(here)):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def rockets(order: RocketFire) -> tuple[UnitCount, ...]:
    return (UnitCount("rocket", order.count),)


class RocketFireRule(OrderRule[RocketFire]):
    order = RocketFire
    section = PHASE

    def problem(self, pos: Position, nation: str, order: RocketFire) -> Problem | None:
        if pos.is_sea(order.target) or not pos.enemy(nation, order.target):
            return problem("fire-not-enemy", order.target, place=order.target)
        limit = reach(pos, nation)
        if distance(pos.world, order.origin, order.target, limit) is None:
            return problem("rocket-range", order.target, origin=order.origin, dest=order.target, reach=limit)
        target = pos.place(order.target)
        if order.aim == "city" and not target.city or order.aim == "industry" and not has_industry(pos, order.target):
            return problem("fire-no-target", order.target, aim=order.aim, place=order.target)
        return missing_units(pos, nation, order.origin, rockets(order))

    def commit(self, ctx: TurnContext, nation: str, index: int, order: RocketFire) -> None:
        take_units(ctx, nation, order.origin, rockets(order), index)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: RocketFire) -> None:
        rocket_fire.fire(ctx, nation, index, order, take_units(ctx, nation, order.origin, rockets(order), index))


RULE = RocketFireRule()
