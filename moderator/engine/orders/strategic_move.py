"""STRATEGIC MOVE units FROM a TO b (Phase 4.1.3: Strategic Movement; arrival in Phase 7).

"A strategic move allows a unit to travel any number of friendly controlled (and
incorporated) continuous land territories ... The maximum number of units which may be
strategically moved in and/or out of a territory or pass a territory in a single turn is
limited by the maximum point value of the territory involved." "Both, starting and ending
province must be incorporated by the same or friendly nation."

How many of the ordered units get through is a maximum flow over the rail network left
by earlier strategic moves of the turn (phase4_strategic.strategic_paths). Orders are
solved one at a time, a nation's in the order written (its priority), nations that
compete for rails in an order drawn by lot (phase4_strategic.serve); a refused order uses
no capacity. Units that
cannot get through stay at the origin, free to move in Phase 4.4. Only land units move
by rail (aircraft rebase, 4.1.2).
"""

from __future__ import annotations

from moderator.engine import garrison_apart
from moderator.engine.context import Position, RailGroup, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.phase4_strategic import Path, kept_paths, passable, rail_region
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import LAND_UNITS, Unit, kinds
from moderator.orders.model import StrategicMove

PHASE = "4.1.3"


def routes(pos: Position, nation: str, order: StrategicMove) -> list[tuple[Path, int]]:
    """The paths and amounts the ordered units can take on what the rails have left
    (remembered for the position as it is: problem, remarks and commit ask in turn)."""
    return kept_paths(pos, nation, order.origin, order.dest, sum(u.count for u in order.units), pos.rail_used)


class StrategicMoveRule(OrderRule[StrategicMove]):
    order = StrategicMove
    section = PHASE

    def problem(self, pos: Position, nation: str, order: StrategicMove) -> Problem | None:
        if order.origin == order.dest:
            return problem("smove-same", order.dest, place=order.dest)
        for place in (order.origin, order.dest):
            if not passable(pos.world, pos.state, nation, place):
                return problem("smove-not-friendly", place, place=place)
        apart = garrison_apart.apart_problem(pos, nation, order.dest)  # French #1: allied France and Spain
        if apart is not None:
            return apart
        not_land = sorted({u.kind for u in order.units} - set(LAND_UNITS))
        if not_land:
            return problem("smove-units", kinds=not_land)
        missing = missing_units(pos, nation, order.origin, order.units)
        if missing is not None:
            return missing
        if routes(pos, nation, order):
            return None  # a route is a path (the region is searched only when there is none)
        if order.dest not in rail_region(pos.world, pos.state, nation, order.origin):
            return problem("smove-no-path", order.dest, origin=order.origin, dest=order.dest)
        return problem("smove-capacity", order.dest, origin=order.origin, dest=order.dest)

    def remarks(self, pos: Position, nation: str, order: StrategicMove) -> list[Problem]:
        ordered = sum(u.count for u in order.units)
        moving = sum(n for _, n in routes(pos, nation, order))
        if moving < ordered:
            return [warning("smove-cut", order.dest, origin=order.origin, dest=order.dest, ordered=ordered,
                            moving=moving)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: StrategicMove) -> None:
        self.send(ctx, nation, index, order)

    def send(self, ctx: TurnContext, nation: str, index: int, order: StrategicMove) -> list[Unit]:
        """The units go on the rails (in transit until Phase 7); those the rails carry, returned."""
        paths = routes(ctx, nation, order)
        units = take_units(ctx, nation, order.origin, order.units, None if ctx.checking else index)
        sent = 0
        for path, amount in paths:
            group = units[sent: sent + amount]
            sent += len(group)
            for t in path:
                ctx.rail_used[t] = ctx.rail_used.get(t, 0) + len(group)
            ctx.rail.append(RailGroup(nation, tuple(u.id for u in group), path, index))
            ctx.in_transit.update(u.id for u in group)
        for u in units[sent:]:  # the rails cannot take them: they may still move in 4.4
            ctx.moved.discard(u.id)
            ctx.claimed[(nation, order.origin, u.kind)] -= 1
        return units[:sent]

    def execute(self, ctx: TurnContext, nation: str, index: int, order: StrategicMove) -> None:
        moving = self.send(ctx, nation, index, order)  # (the rail groups' units: not looked for again)
        ordered = sum(u.count for u in order.units)
        if len(moving) < ordered:
            ctx.tell(nation, "strategic-cut", PHASE, order=index, origin=order.origin, dest=order.dest,
                     ordered=ordered, moving=len(moving))
        if moving:
            ctx.tell(nation, "strategic-move", PHASE, order=index, origin=order.origin, dest=order.dest,
                     units=kinds(moving))



RULE = StrategicMoveRule()
