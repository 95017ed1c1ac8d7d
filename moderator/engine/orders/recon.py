"""RECON units FROM a TO b (Phase 3.3: an active reconnaissance mission).

"To override such limitations, one can use active reconassance mission with the
player's units, with better success, but such units cannot be used in combat ... Units
used in reconaissance mission cannot be used in combat in phase 4 as neither attackers
or defenders." Which units may go, on land and at sea, is the table's active columns
(Scenario.recon, scenarios/<name>/recon.toml; "n/a" = cannot): infantry, tanks and
aircraft into land; cruisers, submarines, battleships and aircraft at sea. "Naval units
doing active reconaissance missions can see the task forces of opposite navies IN THE
SAME SEA ZONE only"; land units look into a neighbouring territory; aircraft fly there
and back to friendly land on their fuel ("Fighters"; no combat round: "they cannot
attack during reconaissance mission").

The units are claimed when step 3.3 runs (no other order may use them this turn; the
land battles of 4.4 leave units busy elsewhere out of the defence). The mission itself --
the defenders' fire ("1 on D10"), its roll, what it sees -- is flown by step 3.3's work
when every order is in (engine/phase3_recon_missions.py); it costs nothing.

The rules text disagrees with its table: "active reconaissance is possible on the sea
only with aircrafts, destroyers and submarines", but the table gives battleships 50% at
sea. The table is followed (docs/rules-coverage.md).
"""

from __future__ import annotations

from moderator.engine import fuel, phase3_recon, phase3_recon_missions
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.move import landing_places
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS, SEA_UNITS
from moderator.orders.model import Recon

PHASE = "3.3"


def terrain(pos: Position, place: str) -> str:
    return phase3_recon.SEA if pos.is_sea(place) else phase3_recon.LAND


def unable(pos: Position, order: Recon) -> list[str]:
    """Unit kinds of the order the table gives no active mission where it goes."""
    where = terrain(pos, order.target)
    return sorted({u.kind for u in order.units
                   if phase3_recon.percent_in_table(pos.scenario.recon, u.kind, where, active=True) is None})


def air_problem(pos: Position, nation: str, order: Recon, kind: str) -> Problem | None:
    stats = pos.stats(nation, kind)
    tank = stats.fuel if stats else 0
    out = fuel.cheapest(pos.world, order.origin, order.target, limit=tank)
    if out is None:
        return problem("out-of-range", order.target, kind=kind, dest=order.target, origin=order.origin, fuel=tank)
    back = fuel.to_nearest(pos.world, order.target, landing_places(pos, nation), limit=tank)
    if back is None or out + back > tank:
        return problem("no-fuel-home", order.target, kind=kind, dest=order.target, fuel=tank)
    return None


class ReconRule(OrderRule[Recon]):
    order = Recon
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Recon) -> Problem | None:
        kinds = unable(pos, order)
        if kinds:
            return problem("recon-units", kinds=kinds, where=terrain(pos, order.target))
        for kind in sorted({u.kind for u in order.units}):
            if kind in AIR_UNITS:
                why = air_problem(pos, nation, order, kind)
                if why is not None:
                    return why
            elif kind in SEA_UNITS:
                if order.target != order.origin:
                    return problem("recon-same-zone", order.target, kind=kind, origin=order.origin)
            elif pos.is_sea(order.origin) or not pos.adjacent(order.origin, order.target):
                return problem("recon-not-adjacent", order.target, origin=order.origin, dest=order.target)
        return missing_units(pos, nation, order.origin, order.units)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Recon) -> None:
        take_units(ctx, nation, order.origin, order.units)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Recon) -> None:
        units = take_units(ctx, nation, order.origin, order.units, index)
        phase3_recon_missions.send(ctx, nation, index, order.origin, order.target, units)


RULE = ReconRule()
