"""SUPPORT n art FROM a TO b (Artillery: protecting or supporting an adjacent province; 4.4).

Artillery: "artillery can protect any designated adjacent province by using its attack
rating for that province if that artillery unit is not attacked during the same turn
from different location (air attacks are not counted). The battle ceased if there are no
friendly units in designated province." "artillery units cannot move, as other defenders
do, from the territory if they are attacked, but can move in order to support attack or
defense." So: artillery the nation has in `a`, free of other orders (it is claimed: it
cannot also move or attack); `b` a land territory next to `a`. A warning when nothing of
the nation's is in `b` or attacks it this turn (the support would do nothing). Into land
held by a nation it is not at war with, the support is an attack, refused where the
declaration of war would be (Phase 1.1: declare_war.attack_barred).

The artillery is claimed here and fights in the step's battles (phase4_land.support;
combat_land: with its attack value, never a casualty).
"""

from __future__ import annotations

from moderator.engine import phase4_land
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders import declare_war
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.move import hostile
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import ArtillerySupport, Move, NavalInvasion, UnitCount

PHASE = "4.4"


def artillery(order: ArtillerySupport) -> tuple[UnitCount, ...]:
    return (UnitCount("artillery", order.count),)


class ArtillerySupportRule(OrderRule[ArtillerySupport]):
    order = ArtillerySupport
    section = PHASE

    def problem(self, pos: Position, nation: str, order: ArtillerySupport) -> Problem | None:
        if pos.is_sea(order.dest) or not pos.adjacent(order.origin, order.dest):
            return problem("not-adjacent", order.dest, origin=order.origin, dest=order.dest)
        missing = missing_units(pos, nation, order.origin, artillery(order))
        if missing is None and hostile(pos, nation, order.dest):
            # fired into land it does not hold, the support is an attack (phase4_land.support
            # makes it an attacking leg that begins the war): it meets the bars of the
            # declaration it is (Phase 1.1; declare_war.attack_barred)
            return declare_war.attack_barred(pos, nation, order.dest)
        return missing

    def remarks(self, pos: Position, nation: str, order: ArtillerySupport) -> list[Problem]:
        friends = pos.friendly(nation, order.dest) and any(pos.allies(nation, u.nation)
                                                           for u in pos.units_at(order.dest))
        attacking = any(isinstance(o, (Move, NavalInvasion)) and o.dest == order.dest
                        for o in pos.orders.get(nation, ()))
        if not friends and not attacking:
            return [warning("support-nothing", order.dest, place=order.dest)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: ArtillerySupport) -> None:
        take_units(ctx, nation, order.origin, artillery(order), index)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: ArtillerySupport) -> None:
        phase4_land.support(ctx, nation, index, order, take_units(ctx, nation, order.origin, artillery(order), index))


RULE = ArtillerySupportRule()
