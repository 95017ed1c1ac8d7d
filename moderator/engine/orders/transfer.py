"""TRANSFER n FROM a TO b (Phase 8: Collect Resources, Transfering Resources).

Phase 3.1: "Each province separated from the mainland can hold resources to use them to
raise new units or transfer to the mainland or to another separated territory." Phase 8:
"Resources that are obtained from distant colonies or territories not connected by land
can be transfered in this phase. If there is no free shortest path for resource transfer
in this phase, then the money is lost and half of the money goes to the nation that cuts
the path. The path can be cut by naval blockade in some key sea zones ... Resources
cannot be transfered through neutral or enemy lands. Also, resources can be lost by
submarine warfare" (4.7: "each submarine that is placed on the shortest path ... can
destroy 1-5 resources per sub ... If there are two or more sea paths with same distance
in sea zones count as shortest path, then the value transfered is divided by their
number. Shortest path can be cut if there are enemy surface ships with naval blockade
order"; 4.2: the blockade mission "is the only way that surface units can prevent, with
100% chance, that two territories exchange saved resources").

Each end's treasury is engine/treasuries.py's (the mainland's NationState.saved, or a
separated group's). The money leaves the origin when step 8.1 runs (after the income),
and goes along every shortest chain of sea zones between the two groups' coasts
(phase4_submarine_warfare.shortest_sea_paths), shared out equally (split_transfer):
* a share whose chain crosses a zone closed to the nation -- a surface warship of a
  nation at war with it on a blockade mission there this turn, or of one that declared a
  naval blockade of it in Phase 1.4 -- is lost, half of it (rounded down) to the
  blockader (the one with most warships in the first closed zone, then by id);
* on a free chain each enemy submarine on it sinks 1-5 of the share (the step's dice);
* the rest arrives. Two ends in one treasury move nothing (a warning); two groups with
  no sea chain between them (no coast) cannot trade: refused.
The order checker takes the free shares as arriving whole (its assume; no dice).
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.engine import treasuries
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.phase4_submarine_warfare import SUB_HIT, capped_hits, shortest_sea_paths, split_transfer
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.us_trade import blockaded
from moderator.orders.model import Transfer

PHASE = "8.1"
WARSHIPS = ("battleship", "cruiser", "carrier")  # "enemy surface ships" (not transports)


def group_of(pos: Position, nation: str, place: str) -> treasuries.Group:
    return next((g for g in treasuries.groups(pos, nation) if place in g), (place,))


def connected_by_land(pos: Position, nation: str, a: str, b: str) -> bool:
    """Are a and b joined by land the nation or its allies hold (one treasury)?"""
    return b in group_of(pos, nation, a)


def paths(pos: Position, nation: str, order: Transfer) -> list[tuple[str, ...]]:
    return shortest_sea_paths(pos.world, group_of(pos, nation, order.origin), group_of(pos, nation, order.dest))


def closed(pos: Position, nation: str) -> dict[str, list[str]]:
    """Sea zones closed to the nation's transfers, each with its blockaders' warships' nations
    (one entry per warship, so the most numerous comes first after sorting by count)."""
    declared = set(blockaded(pos, nation, "naval"))
    on_mission = {uid for tf in pos.task_forces.values() if pos.at_war(tf.nation, nation)
                  and any(step.mission == "blockade" for step, _ in tf.plan) for uid in tf.unit_ids}
    out: dict[str, list[str]] = {}
    for u in pos.state.units:
        if u.kind in WARSHIPS and pos.at_war(u.nation, nation) and (u.nation in declared or u.id in on_mission):
            out.setdefault(u.location, []).append(u.nation)
    return out


def cutter(ships: list[str]) -> str:
    return min(sorted(set(ships)), key=lambda n: -ships.count(n))


@dataclass
class Carried:
    delivered: int = 0
    blockaded: int = 0
    sunk: int = 0
    seized: dict[str, int] | None = None


def carry(ctx: TurnContext, nation: str, order: Transfer, roll: bool) -> Carried:
    """The transfer along its shortest chains (see the module docstring); `roll`: the
    engine rolls the submarines, the checker does not."""
    out = Carried(seized={})
    shut = closed(ctx, nation)
    chains = paths(ctx, nation, order)
    for chain, share in zip(chains, split_transfer(order.amount, len(chains)), strict=True):
        cut_at = next((z for z in chain if z in shut), None)
        if cut_at is not None:
            out.blockaded += share
            half = share // 2
            if half:
                by = cutter(shut[cut_at])
                assert out.seized is not None
                out.seized[by] = out.seized.get(by, 0) + half
            continue
        subs = sum(1 for u in ctx.state.units if u.kind == "submarine" and u.location in chain
                   and ctx.at_war(u.nation, nation))
        sunk = capped_hits(subs, SUB_HIT, share, ctx.dice, f"submarines on {nation}'s transfer {' > '.join(chain)}") \
            if roll and subs else 0
        out.sunk += sunk
        out.delivered += share - sunk
    return out


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
        if not connected_by_land(pos, nation, order.origin, order.dest) and not paths(pos, nation, order):
            return problem("transfer-no-path", order.dest, origin=order.origin, dest=order.dest)
        return None

    def remarks(self, pos: Position, nation: str, order: Transfer) -> list[Problem]:
        if connected_by_land(pos, nation, order.origin, order.dest):
            return [warning("transfer-connected", order.dest, origin=order.origin, dest=order.dest)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Transfer) -> None:
        self._move(ctx, nation, index, order, roll=False)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Transfer) -> None:
        self._move(ctx, nation, index, order, roll=True)

    def _move(self, ctx: TurnContext, nation: str, index: int, order: Transfer, roll: bool) -> None:
        if connected_by_land(ctx, nation, order.origin, order.dest):
            if not ctx.checking:
                ctx.tell(nation, "transfer-made", PHASE, order=index, origin=order.origin, dest=order.dest,
                         amount=order.amount, delivered=order.amount, blockaded=0, sunk=0, seized={})
            return
        treasuries.spend(ctx, nation, order.origin, order.amount)
        done = carry(ctx, nation, order, roll)
        treasuries.spend(ctx, nation, order.dest, -done.delivered)
        seized = done.seized or {}
        for by, amount in sorted(seized.items()):
            ctx.state.nations[by].saved += amount
        if ctx.checking:
            return
        ctx.tell(nation, "transfer-made", PHASE, order=index, origin=order.origin, dest=order.dest,
                 amount=order.amount, delivered=done.delivered, blockaded=done.blockaded, sunk=done.sunk,
                 seized=seized)
        for by, amount in sorted(seized.items()):
            ctx.emit("transfer-seized", PHASE, (by, MODERATOR), nation=by, amount=amount)


RULE = TransferRule()
