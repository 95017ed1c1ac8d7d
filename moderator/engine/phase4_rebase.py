"""Phase 4.1.2 rebasing flights: every REBASE of the step flown at once over the land on its
way (the order's home, engine/orders/rebase.py, checks it and queues its aircraft)."""

from __future__ import annotations

from moderator.engine import air_passage, air_route, fuel
from moderator.engine.context import RailGroup, TurnContext
from moderator.engine.orders import interception
from moderator.engine.orders.rebase import PENDING, PHASE, RANGE_FACTOR, enemy_controlled
from moderator.engine.state import kinds
from moderator.orders.model import Rebase


def fly_pending(ctx: TurnContext) -> None:
    """Step 4.1.2's own work: every rebasing flight of the step at once, over the AA guns and
    the enemy fighters of the land on its way (4.5: "When aircraft move into a territory
    ... containing enemy fighters, the enemy fighters have the option of intercepting";
    Anti Air Guns: "enemy planes entering the given territory"; engine/air_passage.py). A
    flight takes the way of least fuel with 4.1.2's doubled costs, then the one over the
    fewest defended places, then by name (air_route). A plane fights while what its doubled
    fuel leaves after the way covers the round; else, or sent home by its nation's BREAK OFF
    AIR COMBAT, it turns back to the start (Phase 7: "If rebased aircrafts must use more fuel
    points than they can spend then they return to the starting province"), where it is
    still in the air until Phase 7. Those that get through land at the destination in
    Phase 7, with the rail moves."""
    pending = ctx.memo.pop(PENDING, [])
    flights: list[tuple[int, Rebase, air_passage.Flight]] = []
    for nation, index, order, planes in pending:
        def double(place: str, nation: str = nation) -> bool:
            return enemy_controlled(ctx, nation, place)

        def guarded(place: str, nation: str = nation) -> bool:
            return air_passage.defended(ctx, nation, place, ctx.moved)

        tank = RANGE_FACTOR * max(air_passage.tank_of(ctx, u) for u in planes)
        way = air_route.way(ctx.world, order.origin, order.dest, guarded, tank, double) or [order.origin, order.dest]
        cost = sum(fuel.move_cost(ctx.world, a, b, double) for a, b in zip(way, way[1:], strict=False))
        spare = {u.id: RANGE_FACTOR * air_passage.tank_of(ctx, u) - cost for u in planes}
        key = (nation, order.origin, order.dest, min(u.id for u in planes))
        retreat = interception.retreat_conditions(ctx, nation, order.dest)
        flights.append((index, order, air_passage.flight(ctx, nation, key, planes, way, spare, retreat,
                                                         double=double)))
    air_passage.fly(ctx, [f for _, _, f in flights], ctx.moved)
    for index, order, f in sorted(flights, key=lambda iof: iof[2].key):  # never by line
        air_passage.tell_flight(ctx, f, index, order.origin, order.dest, rebase=True)
        if f.planes:
            ctx.rail.append(RailGroup(f.nation, tuple(u.id for u in f.planes), (order.origin, order.dest), index))
            ctx.tell(f.nation, "rebasing", PHASE, order=index, origin=order.origin, dest=order.dest,
                     units=kinds(f.planes))
