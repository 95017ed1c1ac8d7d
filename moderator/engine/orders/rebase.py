"""REBASE units FROM a TO b (Phase 4.1.2: Rebasing of aircraft units; arrival in Phase 7).

4.1.2: "Rebasing aircraft has double movement points to do that, but if it must fly over
enemy controlled sea zone or province, then movement costs double. While rebasing,
aircrafts cannot attack nor they can participate in defense of the target province. The
rebasing mission ends during phase 7 ... Both, starting and ending province must be
incorporated by the same or friendly nation." Bombers: "If aircraft is rebasing over
enemy controlled sea zone then it will spend 4 movement points instead of 2."

So: fighters and bombers only; both ends friendly, incorporated land (the same test as
strategic movement's, phase4_strategic.passable) where aircraft may land; twice the
aircraft's fuel to spend, counted by the one fuel rule (engine/fuel.py: 1 into land,
2 into or out of a sea zone), every move into or out of an enemy-held territory or an
enemy-controlled sea zone at double cost. The aircraft are claimed (no other order this
turn) and are in the air until Phase 7, so they defend nothing in between.

Readings: the Bombers section says a rebasing aircraft "can not ... fly over enemy
territory", 4.1.2 that flying over an enemy province costs double; we follow 4.1.2, the
phase's own rule. A sea zone is "enemy controlled" when ships of a nation at war with
the rebasing nation are in it (sea zones have no holder on the map).

On its way the flight meets the AA guns and enemy fighters of the land it crosses, every
rebasing flight of the step at once (engine/phase4_rebase.py, which builds the rail group
of the planes that get through). The landing is carried out like a strategic move's arrival (phase7_place.end_strategic_moves,
with the rail moves: 4.1.2 "The rebasing mission ends during phase 7"): the aircraft land
at the destination if it is still friendly, else back at the origin, else at the nearest
friendly land. They use no strategic capacity ("Units that are rebased are not counted
against province strategic allowance").
"""

from __future__ import annotations

from moderator.engine import fuel, terrain
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.phase4_strategic import passable
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS, SEA_UNITS
from moderator.orders.model import Rebase

PHASE = "4.1.2"
RANGE_FACTOR = 2  # "Rebasing aircraft has double movement points"
PENDING = ("rebases",)  # ctx.memo: the step's flights, flown together once all its orders are in
SURFACE = frozenset(SEA_UNITS) - {"submarine"}


def enemy_controlled(pos: Position, nation: str, place: str) -> bool:
    """Enemy-held land, or a sea zone with surface ships of a nation at war with `nation`
    (4.1.2; submarines, unseen beneath the surface, control nothing: 4.2.6 speaks of
    "enemy surface ships" and "the sea zone the blockaders control")."""
    if pos.is_sea(place):
        return any(u.kind in SURFACE and pos.at_war(nation, u.nation) for u in pos.units_at(place))
    return pos.enemy(nation, place)


def flight_cost(pos: Position, nation: str, origin: str, dest: str, tank: int) -> int | None:
    """Fuel the rebasing flight needs (double over enemy places), or None beyond twice the tank."""
    return fuel.cheapest(pos.world, origin, dest, limit=RANGE_FACTOR * tank,
                         double=lambda place: enemy_controlled(pos, nation, place))


class RebaseRule(OrderRule[Rebase]):
    order = Rebase
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Rebase) -> Problem | None:
        kinds = sorted({u.kind for u in order.units})
        if not set(kinds) <= set(AIR_UNITS):
            return problem("rebase-units", kinds=[k for k in kinds if k not in AIR_UNITS])
        if order.origin == order.dest:
            return problem("move-same", order.dest, place=order.dest)
        for place in (order.origin, order.dest):
            if not passable(pos.world, pos.state, nation, place):
                return problem("rebase-not-friendly", place, place=place)
        for kind in kinds:
            if terrain.no_landing(pos.world, pos.scenario, order.dest):
                return problem("cannot-land", order.dest, kind=kind, place=order.dest)
            if not terrain.may_enter(pos.world, pos.scenario, nation, kind, order.dest):
                return problem("terrain-barred", order.dest, kind=kind, place=order.dest)
            stats = pos.stats(nation, kind)
            tank = stats.fuel if stats else 0
            if flight_cost(pos, nation, order.origin, order.dest, tank) is None:
                return problem("rebase-out-of-range", order.dest, kind=kind, origin=order.origin, dest=order.dest,
                               fuel=tank, budget=RANGE_FACTOR * tank)
        return missing_units(pos, nation, order.origin, order.units)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Rebase) -> None:
        flying = take_units(ctx, nation, order.origin, order.units, index)
        ctx.in_transit.update(u.id for u in flying)  # in the air until Phase 7: no defence (4.1.2)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Rebase) -> None:
        """The aircraft take off; the step's flights leave together (fly_pending)."""
        flying = take_units(ctx, nation, order.origin, order.units, index)
        ctx.in_transit.update(u.id for u in flying)
        if flying:
            ctx.memo.setdefault(PENDING, []).append((nation, index, order, flying))  # phase4_rebase


RULE = RebaseRule()
