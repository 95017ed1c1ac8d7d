"""Phase 4.1.3: Strategic Movement (rail moves), computed as a flow on the map graph.

"A strategic move allows a unit to travel any number of friendly controlled (and
incorporated) continuous land territories. ... The maximum number of units which may be
strategically moved in and/or out of a territory or pass a territory in a single turn is
limited by the maximum point value of the territory involved."

So the units that can go from an origin to some destinations is a maximum flow where
every territory (origin, destinations and everything passed) is a node whose capacity is
its value. Straits are land links (Straits: "land units may still move across straits"),
so the Ottoman example runs Constantinople -> Izmir/Sinope across the Bosporus.

Capacities are shared by every strategic move of the turn (ctx.rail_used): orders are
solved per (nation, origin) group, nations by id and groups in the order first written;
each group is solved jointly over all its destinations. Units leave in Phase 4.1.3 (they
take no part in any combat) and arrive in Phase 7 (phase7_place.arrive_strategic).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from moderator.engine.context import RailGroup, TurnContext
from moderator.engine.flow import INF, FlowNetwork
from moderator.engine.state import LAND_UNITS, GameState, Unit
from moderator.orders.model import StrategicMove
from moderator.world.model import World

PHASE = "4.1.3"
SOURCE, SINK = ("source",), ("sink",)

Path = tuple[str, ...]


def passable(world: World, state: GameState, nation: str, territory: str) -> bool:
    """Friendly controlled and incorporated land (Phase 4.1.3)."""
    terr = world.territories.get(territory)
    holder = state.controller(territory)
    if terr is None or not terr.is_land or holder is None:
        return False
    friendly = holder == nation or state.allies(nation, holder)
    return friendly and territory in state.incorporated


def rail_region(world: World, state: GameState, nation: str, origin: str) -> list[str]:
    """Every territory reachable from origin through passable land, sorted."""
    if not passable(world, state, nation, origin):
        return []
    seen, queue = {origin}, deque([origin])
    while queue:
        for nb in sorted(world.neighbours(queue.popleft())):
            if nb not in seen and passable(world, state, nation, nb):
                seen.add(nb)
                queue.append(nb)
    return sorted(seen)


def _network(
    world: World, state: GameState, nation: str, origin: str,
    demands: Mapping[str, int], used: Mapping[str, int],
) -> FlowNetwork:
    region = rail_region(world, state, nation, origin)
    inside = set(region)
    net = FlowNetwork()
    for t in region:
        room = max(0, world.territories[t].value - used.get(t, 0))
        net.add_edge((t, "in"), (t, "out"), room)
    net.add_edge(SOURCE, (origin, "in"), INF)
    for t in region:
        for nb in sorted(world.neighbours(t)):
            if nb in inside and nb != origin:
                net.add_edge((t, "out"), (nb, "in"), INF)
    for dest in sorted(demands):
        if dest in inside and dest != origin and demands[dest] > 0:
            net.add_edge((dest, "out"), SINK, demands[dest])
    return net


def strategic_paths(
    world: World, state: GameState, nation: str, origin: str,
    destinations: Mapping[str, int] | Sequence[str], used: Mapping[str, int] | None = None,
) -> list[tuple[Path, int]]:
    """The most units `nation` can rail from origin to the destinations, as (path, units).

    destinations: either a mapping destination -> units wanted there, or a list of
    destinations (each then limited only by the map). `used` holds capacity already
    spent this turn by other strategic moves (territory -> units).
    """
    wanted = dict(destinations) if isinstance(destinations, Mapping) else dict.fromkeys(destinations, INF)
    net = _network(world, state, nation, origin, wanted, used or {})
    net.max_flow(SOURCE, SINK)
    out: list[tuple[Path, int]] = []
    for nodes, amount in net.flow_paths(SOURCE, SINK):
        # nodes: source, (t, "in"), (t, "out"), ..., sink -> keep each territory once.
        names = [n[0] for n in nodes[1:-1] if isinstance(n, tuple) and n[1] == "out"]
        out.append((tuple(str(n) for n in names), amount))
    return out


def strategic_capacity(
    world: World, state: GameState, nation: str, origin: str,
    destinations: Sequence[str], used: Mapping[str, int] | None = None,
) -> int:
    """Maximum number of units that can strategically move from origin into destinations."""
    return sum(amount for _, amount in strategic_paths(world, state, nation, origin, list(destinations), used))


# ---- the phase step ------------------------------------------------------------------


def strategic_movement(ctx: TurnContext) -> None:
    """Phase 4.1.3: start every strategic move; cut back what the map cannot carry."""
    groups: dict[tuple[str, str], list[tuple[int, StrategicMove, list[Unit]]]] = {}
    for nation, index, order in ctx.orders_of(StrategicMove):
        origin, dest = ctx.name(order.origin), ctx.name(order.dest)
        problem = _order_problem(ctx, nation, origin, dest)
        if problem or origin is None:
            ctx.refuse(nation, PHASE, index, order, problem, origin=order.origin, dest=order.dest)
            continue
        units = _pick_units(ctx, nation, origin, order, index)
        if units:
            groups.setdefault((nation, origin), []).append((index, order, units))
    for (nation, origin), items in groups.items():  # dict keeps resolution order
        _move_group(ctx, nation, origin, items)


def _order_problem(ctx: TurnContext, nation: str, origin: str | None, dest: str | None) -> str:
    if origin is None or dest is None:
        return "unknown-territory"
    if origin == dest:
        return "same-territory"
    for place in (origin, dest):
        if not passable(ctx.world, ctx.state, nation, place):
            return "not-friendly-incorporated-land"
    return ""


def _pick_units(ctx: TurnContext, nation: str, origin: str, order: StrategicMove, index: int) -> list[Unit]:
    """The order's units, by kind and then unit id, among those still free to move."""
    picked: list[Unit] = []
    taken: set[str] = set()
    for uc in order.units:
        free = sorted(
            (u for u in ctx.state.units_at(origin, nation)
             if u.kind == uc.kind and u.kind in LAND_UNITS and u.id not in ctx.moved and u.id not in taken),
            key=lambda u: u.id,
        )
        if len(free) < uc.count:
            ctx.tell(nation, "units-missing", PHASE, order=index, kind=uc.kind, place=origin,
                     ordered=uc.count, present=len(free))
        picked.extend(free[: uc.count])
        taken.update(u.id for u in free[: uc.count])
    ctx.moved.update(taken)  # claimed; released again if the move is cut back
    return picked


def _move_group(
    ctx: TurnContext, nation: str, origin: str, items: list[tuple[int, StrategicMove, list[Unit]]]
) -> None:
    demands: dict[str, int] = {}
    for _, order, units in items:
        dest = ctx.name(order.dest) or order.dest
        demands[dest] = demands.get(dest, 0) + len(units)
    paths = strategic_paths(ctx.world, ctx.state, nation, origin, demands, ctx.rail_used)
    for path, amount in paths:
        for t in path:
            ctx.rail_used[t] = ctx.rail_used.get(t, 0) + amount
    for index, order, units in items:
        dest = ctx.name(order.dest) or order.dest
        sent = 0
        for i, (path, amount) in enumerate(paths):
            if path[-1] != dest or amount == 0 or sent == len(units):
                continue
            take = min(amount, len(units) - sent)
            group = units[sent: sent + take]
            sent += take
            paths[i] = (path, amount - take)
            ctx.rail.append(RailGroup(nation, tuple(u.id for u in group), path, index))
            ctx.in_transit.update(u.id for u in group)
            ctx.moved.update(u.id for u in group)
        if sent < len(units):
            ctx.moved.difference_update(u.id for u in units[sent:])  # they may still move in 4.4
            ctx.tell(nation, "strategic-cut", PHASE, order=index, origin=origin, dest=dest,
                     ordered=len(units), moving=sent)
        if sent:
            ctx.tell(nation, "strategic-move", PHASE, order=index, origin=origin, dest=dest,
                     units=_kinds(units[:sent]))


def _kinds(units: Sequence[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))
