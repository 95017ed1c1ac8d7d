"""Phase 7: ship repairs ordered in 3.4 are finished, unless the ship was attacked.

"Because repairing lasts full turn, if the ship is attacked during the repairing action,
ship will have to defend herself and cancel repairing action. Also, all money intended to
be spent for repairing is lost. Repairing lasts until phase 7." The REPAIR home
(engine/orders/repair.py) pays and records each ship it starts repairing
(NationState.flags[REPAIRING]: unit id -> [sea zone, damage then]). Here every recorded
ship whose repair was not broken off has its damage cleared.

Reading (docs/rules-coverage.md): the ship was attacked when it is gone, has taken more
damage since, or shares its sea zone at Phase 7 with a warship of a nation at war with its
own (the combat there, whoever resolves it, was against the repairing ships too).
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.state import SEA_UNITS, Unit, by_id

PHASE = "7"
REPAIRING = "repairing"  # NationState.flags: unit id -> [sea zone, damage when the repair began]


def start(ctx: TurnContext, nation: str, ships: list[Unit]) -> None:
    """3.4: the repairs paid for this turn, remembered until Phase 7."""
    flags = ctx.state.nations[nation].flags
    record = dict(flags.get(REPAIRING, {}))
    for u in ships:
        record[u.id] = [u.location, u.damage]
    flags[REPAIRING] = record


def attacked(ctx: TurnContext, ship: Unit | None, zone: str, damage: int) -> str | None:
    """Why the repair was broken off, or None."""
    if ship is None:
        return "lost"
    if ship.location != zone or ship.damage > damage:
        return "attacked"
    if any(u.kind in SEA_UNITS and u.kind != "transport" and ctx.at_war(u.nation, ship.nation)
           for u in ctx.units_at(zone)):
        return "enemy-in-zone"
    return None


def finish_repairs(ctx: TurnContext) -> None:
    units: dict[str, Unit] | None = None  # every unit by id: only on a turn some repair is recorded (issue 14)
    for nation in sorted(ctx.state.nations):
        record = ctx.state.nations[nation].flags.pop(REPAIRING, None)
        if record and units is None:
            units = by_id(ctx.state.units)  # (at C speed: every unit of the map)
        for uid, (zone, damage) in sorted((record or {}).items()):
            assert units is not None
            ship = units.get(uid)
            why = attacked(ctx, ship, zone, damage)
            kind = ship.kind if ship is not None else uid.split("-")[1] if "-" in uid else ""
            if why is not None:
                ctx.tell(nation, "repair-cancelled", PHASE, kind=kind, place=zone, reason=why)
                continue
            assert ship is not None
            ship.damage = 0
            ctx.tell(nation, "ship-repaired", PHASE, kind=kind, place=zone)
