"""BOMB INDUSTRY|CITY|TACTICAL units FROM a TO b (Phase 4.1.1: Industrial & Tactical Bombing).

"Industrial bombing raids can be done with any bombers which have achieved tech level
#2. Industrial bombing can be targeted against an enemy Industrial Complex or an enemy
City ... Resource bombing must target an industrial complex while Manpower bombing must
target a city." "Any aircraft with at least 4 fuel points may attempt tactical bombing."
"Industrial and tactical bombing missions constitute the participating aircraft's
action for the turn. The aircraft cannot move, re-base, or participate in combat on any
turn it does a bombing mission": the order claims its aircraft (4.1.1 runs before any
other movement, so a later MOVE or REBASE of them finds them busy).

Fuel is the aircraft's one rule (Fighters, Bombers: "Bombers expend fuel for movement and
combat in the same way as fighters"; engine/fuel.py through move.air_problem): there,
one round over the target, and back to friendly land. Reading: the bombing run counts
as the round of combat.

The raid itself (AA fire, interception on the way and by the target's fighters, the
damage) is flown by engine/phase4_air.py, with every other raid of the step at once.
"""

from __future__ import annotations

from moderator.engine import phase4_air, terrain
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.move import air_problem
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS
from moderator.orders.model import Bombing, Move

PHASE = "4.1.1"
INDUSTRIAL = frozenset({"industry", "city"})  # resource and manpower bombing
INDUSTRIAL_TECH = ("improved_bombers", 2)  # "bombers which have achieved tech level #2"
TACTICAL_FUEL = 4  # "Any aircraft with at least 4 fuel points may attempt tactical bombing"


def has_industry(pos: Position, place: str) -> bool:
    """An industrial complex at `place`: printed on the map, or built (a unit of kind "industry")."""
    return pos.place(place).industry or any(u.kind == "industry" for u in pos.units_at(place))


class BombingRule(OrderRule[Bombing]):
    order = Bombing
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Bombing) -> Problem | None:
        kinds = sorted({u.kind for u in order.units})
        if not set(kinds) <= set(AIR_UNITS):
            return problem("bomb-units", aim=order.aim, kinds=[k for k in kinds if k not in AIR_UNITS])
        if pos.is_sea(order.target) or not pos.enemy(nation, order.target):
            return problem("bomb-not-enemy", order.target, place=order.target)
        if order.aim in INDUSTRIAL:
            why = self._industrial(pos, nation, order, kinds)
            if why is not None:
                return why
        else:
            for kind in kinds:
                stats = pos.stats(nation, kind)
                tank = stats.fuel if stats else 0
                if tank < TACTICAL_FUEL:
                    return problem("bomb-fuel", kind=kind, fuel=tank)
        for kind in kinds:
            if not terrain.may_enter(pos.world, pos.scenario, nation, kind, order.target):
                return problem("terrain-barred", order.target, kind=kind, place=order.target)
        why = air_problem(pos, nation, Move(order.units, order.origin, order.target), combat=True)
        if why is not None:
            return why
        return missing_units(pos, nation, order.origin, order.units)

    def _industrial(self, pos: Position, nation: str, order: Bombing, kinds: list[str]) -> Problem | None:
        if kinds != ["bomber"]:
            return problem("bomb-units", aim=order.aim, kinds=[k for k in kinds if k != "bomber"])
        tech, level = INDUSTRIAL_TECH
        if pos.tech(nation, tech) < level:
            return problem("bomb-tech", tech=tech, level=level, have=pos.tech(nation, tech))
        if order.aim == "industry" and not has_industry(pos, order.target):
            return problem("bomb-no-target", order.target, aim=order.aim, place=order.target)
        if order.aim == "city" and not pos.place(order.target).city:
            return problem("bomb-no-target", order.target, aim=order.aim, place=order.target)
        return None

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Bombing) -> None:
        take_units(ctx, nation, order.origin, order.units, index)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Bombing) -> None:
        planes = take_units(ctx, nation, order.origin, order.units, index)
        if planes:
            phase4_air.execute(ctx, nation, index, order, planes)


RULE = BombingRule()
