"""TRANSFER n FROM a TO b (Phase 8: Collect Resources, Transfering Resources).

Phase 3.1: "Each province separated from the mainland can hold resources to use them to
raise new units or transfer to the mainland or to another separated territory." Phase 8:
"Resources that are obtained from distant colonies or territories not connected by land
can be transfered in this phase. If there is no free shortest path for resource transfer
in this phase, then the money is lost and half of the money goes to the nation that cuts
the path ... Resources cannot be transfered through neutral or enemy lands. Also,
resources can be lost by submarine warfare" (4.7).

Each end's treasury is engine/treasuries.py's (the mainland's NationState.saved, or a
separated group's). The money leaves the origin's treasury when step 8.1 runs (after the
income) and goes by sea (engine/sea_lanes.py: cut by enemy blockades on every shortest
path, half to the cutters; else sunk 1-5 a submarine on the free paths, with the rules'
arithmetic in engine/phase4_submarine_warfare.py); what is left arrives in the
destination's treasury. A transfer whose free path crosses an enemy task force on patrol
or bombardment (4.2.6 Note: "Other aggresive missions can have 0-100% chance to prevent
transfer of resources") is flagged for the moderator (transfer-past-enemy-fleet). The order is checked (both ends the nation's, a sea path between
them, the amount no more than the origin's treasury holds after Phase 8 income); the
checker takes it for arriving whole (it knows neither the enemy's blockades nor the dice).
"""

from __future__ import annotations

from moderator.engine import sea_lanes, treasuries
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Transfer

PHASE = "8.1"


def connected_by_land(pos: Position, nation: str, a: str, b: str) -> bool:
    """Are a and b joined by land the nation or its allies hold (one treasury)?

    Two territories of the nation's own are so joined exactly when they are in one of its
    treasury groups (treasuries.groups: the same search, made once for the position and
    kept while no one's land changes hands), so they are looked up there: each transfer
    asked for it twice, searching its allies' land every time (issue 14)."""
    if pos.controller(a) == nation and pos.controller(b) == nation:
        return any(a in g and b in g for g in treasuries.groups(pos, nation))
    return b in sea_lanes.friendly_land(pos, nation, a)


class TransferRule(OrderRule[Transfer]):
    order = Transfer
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Transfer) -> Problem | None:
        for place in (order.origin, order.dest):
            if not pos.place(place).is_land or pos.controller(place) != nation:
                return problem("transfer-not-held", place, place=place)
        if order.origin == order.dest:
            return problem("transfer-same", order.dest, place=order.dest)
        here = treasuries.available(pos, nation, order.origin)
        if order.amount > here:
            return problem("transfer-too-much", amount=order.amount, saved=max(here, 0))
        if not connected_by_land(pos, nation, order.origin, order.dest) and \
                not sea_lanes.sea_paths(pos, nation, order.origin, order.dest):
            return problem("transfer-no-path", order.dest, origin=order.origin, dest=order.dest)
        return None

    def remarks(self, pos: Position, nation: str, order: Transfer) -> list[Problem]:
        if connected_by_land(pos, nation, order.origin, order.dest):
            return [warning("transfer-connected", order.dest, origin=order.origin, dest=order.dest)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Transfer) -> None:
        """The checker: the money moves whole from one treasury to the other."""
        if not connected_by_land(ctx, nation, order.origin, order.dest):
            treasuries.spend(ctx, nation, order.origin, order.amount)
            treasuries.spend(ctx, nation, order.dest, -order.amount)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Transfer) -> None:
        if connected_by_land(ctx, nation, order.origin, order.dest):
            return  # one treasury already (the order's warning said so)
        out = sea_lanes.send(ctx, nation, order.amount, order.origin, order.dest)  # pays the losses from `saved`
        lost = order.amount if out.cut_by else out.sunk
        ctx.state.nations[nation].saved += lost  # ... which come out of the origin's treasury instead:
        treasuries.spend(ctx, nation, order.origin, order.amount)
        treasuries.spend(ctx, nation, order.dest, -(order.amount - lost))
        if out.cut_by:
            ctx.emit("transfer-cut", PHASE, sorted({nation, *out.cut_by}), nation=nation, order=index,
                     origin=order.origin, dest=order.dest, amount=order.amount, by=out.cut_by, gained=out.gained,
                     paths=[list(p) for p in out.paths])
            return
        ctx.emit("transfer-by-sea", PHASE, sorted({nation, *out.subs_of}), nation=nation, order=index,
                 origin=order.origin, dest=order.dest, amount=order.amount, sunk=out.sunk, by=out.subs_of,
                 paths=[list(p) for p in out.paths], saved=ctx.saved(nation))
        if out.passed:  # 4.2.6 Note: "0-100% chance to prevent transfer": the moderator's to judge
            ctx.flag(PHASE, "transfer-past-enemy-fleet", nation=nation, order=index, origin=order.origin,
                     dest=order.dest, amount=order.amount, arrived=order.amount - lost, fleets=out.passed)


RULE = TransferRule()
