"""PLUNDER industry|port AT territory (Phase 5: Plunder).

"At this point a player may choose to dismantle any Industrial Complexes and/or Ports
they have in territories which have been incorporated by the active nation and at least
one full turn must be at their control. Each Industrial Complex will add 25 resources to
the nation's saved resources and each Port will add 15 resources to their saved
resources."

Automated: the money is added when step 5 runs (so Phase 6 incorporation and the Phase 8
gifts may use it) and the facility is gone. A built one (a unit of kind "industry" or
"port") is removed; one of the map's is recorded as dismantled in the plunderer's
NationState.flags["dismantled"] (engine/placement.py map_facility reads it, so nobody
builds at it, places ships beside it or plunders it again).

Readings: plunder is of conquered land (the phase's name; the nation's own original
territories are not "plundered"); "at least one full turn" at the nation's control
counts from the turn it incorporated the territory, which is no earlier than its
capture: a territory incorporated in turn T may be plundered from turn T + 2, after the
whole of turn T + 1 under the nation's control.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.placement import DISMANTLED, map_facility
from moderator.engine.problems import Problem, problem
from moderator.engine.state import Unit
from moderator.orders.model import Plunder

PHASE = "5"
GAIN = {"industry": 25, "port": 15}  # Phase 5
FULL_TURNS = 1  # "at least one full turn must be at their control"


def built(pos: Position, place: str, kind: str) -> list[Unit]:
    """Facilities of `kind` built in the territory (by whoever held it then)."""
    return sorted((u for u in pos.units_at(place) if u.kind == kind), key=lambda u: u.id)


def present(pos: Position, place: str, kind: str) -> bool:
    return map_facility(pos, place, kind) or bool(built(pos, place, kind))


class PlunderRule(OrderRule[Plunder]):
    order = Plunder
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Plunder) -> Problem | None:
        place = order.place
        if not pos.place(place).is_land or pos.controller(place) != nation:
            return problem("plunder-not-held", order.place, place=place)
        if pos.place(place).owner == nation:
            return problem("plunder-own", order.place, place=place)
        since = pos.state.incorporated.get(place)
        if since is None or since + FULL_TURNS >= pos.turn:
            return problem("plunder-too-soon", order.place, place=place, since=since if since is not None else -1)
        if order.kind not in GAIN or not present(pos, place, order.kind):
            return problem("plunder-nothing", order.place, kind=order.kind, place=place)
        return None

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Plunder) -> None:
        ctx.state.nations[nation].saved += GAIN[order.kind]
        units = built(ctx, order.place, order.kind)
        if units:
            ctx.state.remove_units(units[:1])
            return
        flags = ctx.state.nations[nation].flags
        record = {place: list(kinds) for place, kinds in flags.get(DISMANTLED, {}).items()}
        record[order.place] = sorted({*record.get(order.place, []), order.kind})
        flags[DISMANTLED] = dict(sorted(record.items()))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Plunder) -> None:
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "plundered", PHASE, order=index, kind=order.kind, place=order.place, gained=GAIN[order.kind])


RULE = PlunderRule()
