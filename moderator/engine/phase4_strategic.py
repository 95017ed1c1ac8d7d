"""Phase 4.1.3: Strategic Movement (rail moves), computed as a flow on the map graph.

"A strategic move allows a unit to travel any number of friendly controlled (and
incorporated) continuous land territories. ... The maximum number of units which may be
strategically moved in and/or out of a territory or pass a territory in a single turn is
limited by the maximum point value of the territory involved."

So the units that can go from an origin to some destinations is a maximum flow where
every territory (origin, destinations and everything passed) is a node whose capacity is
its value. Straits are land links (Straits: "land units may still move across straits"),
so the Ottoman example runs Constantinople -> Izmir/Sinope across the Bosporus.

Capacities are shared by every strategic move of the turn (Position.rail_used): the
STRATEGIC MOVE order's home (engine/orders/strategic_move.py) solves one order at a time,
in the order serve() gives, on what earlier moves left. The rules give no nation the first
claim on a territory's capacity: nations whose moves could share a territory are served in
an order drawn by lot (issue 10: "never depends on the order of nation ids"); a nation's own
moves keep the order written, its priority. Units leave in Phase 4.1.3 (they take no
part in any combat) and arrive in Phase 7 (phase7_place.end_strategic_moves).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING

from moderator.engine import alliances
from moderator.engine.flow import INF, FlowNetwork
from moderator.engine.per_map import once_per
from moderator.engine.state import GameState
from moderator.orders.model import StrategicMove
from moderator.world.model import World

if TYPE_CHECKING:
    from moderator.engine.context import Position, TurnContext
    from moderator.engine.ruleset import Served

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


_REGIONS = "_rail_regions"  # GameState.__dict__ (not a field: never serialised): the regions found
# (map, control map, its mark, the incorporated lands, (friends, origin) -> region)
_Regions = tuple[World, object, "int | None", dict[str, int], dict[tuple[frozenset[str], str], list[str]]]


def rail_region(world: World, state: GameState, nation: str, origin: str) -> list[str]:
    """Every territory reachable from origin through passable land, sorted (the order of
    the search does not matter: the set is the same).

    A region depends on the map, who holds what, what is incorporated and the nation's
    friends: the regions found are kept with the state, for that map, that control map
    with its mark (state.Control takes a fresh one at every change) and a copy of the
    incorporated lands, keyed by the friends and each land of the region; any change and
    they are found again (a turn's strategic moves searched the same regions again and again)."""
    return list(_region(world, state, nation, origin))


def _region(world: World, state: GameState, nation: str, origin: str) -> list[str]:
    """rail_region's answer as it is kept, not a copy (read only): a new list whenever
    anything it depends on changed and it was searched again (kept_paths relies on that)."""
    if not passable(world, state, nation, origin):
        return []
    friends = state.allies_of(nation)  # the same set as asking allies() of every nation, in one pass
    control, incorporated = state.control, state.incorporated
    mark = getattr(control, "mark", None)
    kept: _Regions | None = state.__dict__.get(_REGIONS)
    if kept is None or kept[0] is not world or kept[1] is not control or kept[2] != mark or kept[3] != incorporated:
        kept = state.__dict__[_REGIONS] = (world, control, mark, dict(incorporated), {})
    side = frozenset(friends)
    region: list[str] | None = kept[4].get((side, origin)) if mark is not None else None
    if region is None:
        region = _search_region(world, control, incorporated, friends, origin)
        # every land of a region is passable, and (the map's links go both ways) its region is this
        kept[4].update(zip(zip(repeat(side), region), repeat(region)))
    return region


def _search_region(world: World, control: Mapping[str, str], incorporated: Mapping[str, int], friends: set[str],
                   origin: str) -> list[str]:
    links = land_links(world)
    seen, queue = {origin}, deque([origin])
    while queue:
        for nb in links.get(queue.popleft(), ()):
            if nb not in seen and nb in incorporated and control.get(nb) in friends:
                seen.add(nb)
                queue.append(nb)
    return sorted(seen)


Links = dict[str, tuple[str, ...]]
_NEIGHBOURS: dict[int, tuple[World, Links]] = {}  # id of a map -> (map, sorted links)
_LAND_LINKS: dict[int, tuple[World, Links]] = {}  # id of a map -> (map, each place's land neighbours)


def _sorted_neighbours(world: World) -> Links:
    """Every place's neighbours, sorted (the network's edges go in that order, so the same
    map gives the same flow)."""
    return once_per(_NEIGHBOURS, world, lambda w: {t: tuple(sorted(w.neighbours(t))) for t in w.territories})


def land_links(world: World) -> Links:
    """Every place's neighbours that are land on the map (the only ones a rail can reach):
    the search of a rail region no longer asks the map about each neighbour it meets."""
    def build(w: World) -> Links:
        land = {t for t, terr in w.territories.items() if terr.is_land}
        return {t: tuple(n for n in w.neighbours(t) if n in land) for t in w.territories}

    return once_per(_LAND_LINKS, world, build)


@dataclass(frozen=True)
class _Skeleton:
    """The rails of a region from an origin to some destinations, built once (_skeleton).

    net: the network (capacity 0 where each move sets its own); full: its edges'
    capacities with no rail used yet; edge_of: territory -> its in -> out edge's number
    (the `i`-th territory of the region, the `i`-th edge). For first_path, the same rails
    by territory number: the origin's, each territory's links as (neighbour, the link's
    edge in the network), each territory's edge to the sink (-1: none)."""

    net: FlowNetwork
    full: list[int]
    edge_of: dict[str, int]
    origin: int
    links: tuple[tuple[tuple[int, int], ...], ...]
    to_sink: tuple[int, ...]


_SKELETONS: dict[tuple[int, str, tuple[str, ...], tuple[str, ...]], tuple[World, _Skeleton]] = {}


def _skeleton(world: World, region: list[str], origin: str, sinks: list[str]) -> _Skeleton:
    """The rails of a region from an origin to some destinations (`sinks`) as a network,
    with the capacities that do not depend on the turn: every territory's in -> out edge
    (the `i`-th edge for the `i`-th territory of the region, capacity 0 here), the source
    into the origin, the links, then each destination's edge to the sink (the last ones,
    capacity 0 here). It depends only on the map, the region, the origin and the
    destinations, so it is built once and shared by every strategic move that asks for it
    (a turn's moves asked for some 1,600 edges to be added: issue 14, the engine's cost);
    the entry holds the map, so its id cannot be reused while the entry lives. With it:
    the capacities with no rail used yet (each territory's value, "limited by the maximum
    point value of the territory"), each territory's edge number and its links by number."""
    key = (id(world), origin, tuple(region), tuple(sinks))
    hit = _SKELETONS.get(key)
    if hit is None or hit[0] is not world:
        if len(_SKELETONS) > 256:
            _SKELETONS.clear()
        net = FlowNetwork()
        for t in region:
            net.add_edge((t, "in"), (t, "out"), 0)
        net.add_edge(SOURCE, (origin, "in"), INF)
        inside, rails = set(region), _sorted_neighbours(world)
        number = {t: i for i, t in enumerate(region)}
        links: list[list[tuple[int, int]]] = [[] for _ in region]
        for t in region:
            for nb in rails[t]:
                if nb in inside and nb != origin:
                    links[number[t]].append((number[nb], net.edges()))  # the edge about to be added
                    net.add_edge((t, "out"), (nb, "in"), INF)
        to_sink = [-1] * len(region)
        for dest in sinks:
            to_sink[number[dest]] = net.edges()
            net.add_edge((dest, "out"), SINK, 0)
        net.node(SINK)  # there even with no destination, as the search asks for it
        full = net.capacities()
        for i, t in enumerate(region):
            full[i] = max(0, world.territories[t].value)
        skeleton = _Skeleton(net, full, number, number.get(origin, -1), tuple(map(tuple, links)), tuple(to_sink))
        hit = _SKELETONS[key] = (world, skeleton)
    return hit[1]


def first_path(skeleton: _Skeleton, caps: Sequence[int]) -> list[int] | None:
    """The network's first augmenting path (its edges' indexes), as FlowNetwork's own
    breadth-first search finds it before any flow is pushed, but searched on the
    territories, not on their in and out nodes: half the nodes, and it stops as soon as it
    meets a destination (a turn's rail searches were most of Phase 4.1.3's cost: issue 14).

    Why the same path: before any push only forward edges carry anything, and every link
    carries all. The network's queue pops the out nodes in the order their in nodes were
    found (an in node, popped, queues its out node when the territory has room), and an in
    node's parent is the first out node popped that links to it; so queuing a territory
    when its in node is found pops the territories in the same order, each finding its
    neighbours in the same order. The sink is found from the first destination popped that
    has room and units wanted: the first one queued, so the search stops when it is found.
    `caps[k]`: the capacity of the `k`-th edge added (the network's edge 2k)."""
    o, links, to_sink = skeleton.origin, skeleton.links, skeleton.to_sink
    if o < 0 or caps[o] <= 0:
        return None
    parent = [-1] * len(links)  # territory -> the territory it was found from
    parent[o] = o
    queue = deque([o])
    while queue:
        u = queue.popleft()
        for v, _ in links[u]:
            if parent[v] < 0:
                parent[v] = u
                if caps[v] > 0:
                    if to_sink[v] >= 0 and caps[to_sink[v]] > 0:
                        return _edges_to(skeleton, parent, v)
                    queue.append(v)
    return None


def _edges_to(skeleton: _Skeleton, parent: list[int], dest: int) -> list[int]:
    """The path's edges in the network: source -> origin in -> origin out -> ... -> dest
    in -> dest out -> sink (the `k`-th edge added is the network's edge 2k)."""
    added, v = [skeleton.to_sink[dest]], dest
    while True:
        added.append(v)  # its in -> out edge
        if v == skeleton.origin:
            break
        u = parent[v]
        added.append(next(k for w, k in skeleton.links[u] if w == v))
        v = u
    added.append(len(skeleton.links))  # the source's edge into the origin
    return [2 * k for k in reversed(added)]


def _network(
    world: World, region: list[str], origin: str, demands: Mapping[str, int], used: Mapping[str, int],
) -> tuple[FlowNetwork, int, list[int] | None]:
    """The network of the move, the capacity of a cut of it (_rails) and its first path
    (first_path)."""
    skeleton, caps, cut = _rails(world, region, origin, demands, used)
    return skeleton.net.with_capacities(caps), cut, first_path(skeleton, caps)


def _rails(
    world: World, region: list[str], origin: str, demands: Mapping[str, int], used: Mapping[str, int],
) -> tuple[_Skeleton, list[int], int]:
    """The rails of the move (_skeleton), each edge's capacity for it, and the capacity of
    a cut of the network: every unit passes the origin, and reaches the sink through one
    destination, its own capacity and the units wanted there both limiting it. Once that
    many units are found the search for more is skipped: it would fail (the same flow and
    paths; a turn's failing searches walked the whole region again: issue 14, the engine's cost)."""
    inside = set(region)
    sinks = [dest for dest in sorted(demands) if dest in inside and dest != origin and demands[dest] > 0]
    skeleton = _skeleton(world, region, origin, sinks)
    edge_of = skeleton.edge_of
    caps = list(skeleton.full)  # each territory's value: less the rails the turn's moves used there
    places = world.territories
    for t, n in used.items():
        i = edge_of.get(t)
        if i is not None:
            caps[i] = max(0, places[t].value - n)
    for i, dest in enumerate(sinks, len(caps) - len(sinks)):
        caps[i] = demands[dest]
    cut = min(caps[edge_of[origin]], sum(min(caps[edge_of[dest]], demands[dest]) for dest in sinks)) if region else 0
    return skeleton, caps, cut


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
    return _paths(world, _region(world, state, nation, origin), origin, wanted, used or {})


def _paths(world: World, region: list[str], origin: str, wanted: Mapping[str, int],
           used: Mapping[str, int]) -> list[tuple[Path, int]]:
    """strategic_paths in the nation's rail region from the origin (_region).

    Most moves (a unit or three on one line of rails) are answered by their first path
    alone, with no network made and no flow pushed (issue 14, the engine's cost): with no
    path nothing flows; a first path carrying all the cut allows is all max_flow pushes,
    and flow_paths' walk of that flow finds that path. Else the network's own flow."""
    skeleton, caps, cut = _rails(world, region, origin, wanted, used)
    first = first_path(skeleton, caps)
    if first is None:
        return []
    alone = min(caps[e // 2] for e in first)  # what the first path can carry (edge 2k: the k-th added)
    if alone >= cut:
        return [(_territories(skeleton.net.path_nodes(first)[:-1]), alone)]
    net = skeleton.net.with_capacities(caps)
    if net.max_flow(SOURCE, SINK, cut, first) == alone:  # no other path found: the flow is the first one
        return [(_territories(net.path_nodes(first)[:-1]), alone)]
    # nodes: source, (t, "in"), (t, "out"), ..., sink
    return [(_territories(nodes[1:-1]), amount) for nodes, amount in net.flow_paths(SOURCE, SINK)]


def _territories(nodes: Sequence[Hashable]) -> Path:
    """The territories a path of the network passes (its (t, "in"), (t, "out") nodes), each once."""
    return tuple(str(n[0]) for n in nodes if isinstance(n, tuple) and n[1] == "out")


def kept_paths(pos: Position, nation: str, origin: str, dest: str, count: int,
               used: Mapping[str, int]) -> list[tuple[Path, int]]:
    """strategic_paths for `count` units from origin to dest on the rails `used` so far,
    remembered for the position as it is (its memo). serve()'s tryout asks exactly what
    the moves ask again when they are carried out in the same order on the same rails
    (there was room for all), so each rail search is made once, not twice (issue 14).
    The paths depend on the rails used and on the region the rails run in: who holds
    what (in the key, as the control map's mark: state.Control takes a fresh one at every
    change, so no answer outlives a capture, even one within 4.1.3), what is incorporated
    and the nation's friends. Those two change only in other steps (Phases 1, 6 and 9,
    captures, the moderator's rulings), and the routes are asked only in step 4.1.3 (serve,
    and the STRATEGIC MOVE home): checking them here too (rail_region's own test, some 7
    microseconds an ask) cost more time than the memo saves."""
    mark = getattr(pos.state.control, "mark", None)  # (a plain dict has no mark: never kept)
    key = ("routes", nation, origin, dest, str(count), repr(sorted(used.items())), str(mark))
    kept = pos.memo.get(key) if mark is not None else None
    if kept is None:
        kept = strategic_paths(pos.world, pos.state, nation, origin, {dest: count}, used)
        if mark is not None:
            pos.memo[key] = kept
    return list(kept)


def strategic_capacity(
    world: World, state: GameState, nation: str, origin: str,
    destinations: Sequence[str], used: Mapping[str, int] | None = None,
) -> int:
    """Maximum number of units that can strategically move from origin into destinations."""
    return sum(amount for _, amount in strategic_paths(world, state, nation, origin, list(destinations), used))


def serve(ctx: TurnContext, orders: Served) -> Served:
    """The turn's strategic moves in the order they take the rails (Phase 4.1.3: one
    capacity per territory "in a single turn", for all moves; the rules rank no nation).

    Each nation's moves stay together, in the order written: its own priority. Nations
    whose moves could pass one territory (their rail regions, from each origin that
    reaches its destination, meet) may compete for it: if the rails cannot carry all of
    their moves in full, they are served in an order drawn by lot (alliances.by_lot, one
    logged pick), never by nation id. Otherwise (their rails cannot meet, or there is room
    for every unit) the order of ids is kept: it takes nothing from anyone, and no lot is
    drawn."""
    by_nation: dict[str, Served] = {}
    reach: dict[str, set[str]] = {}
    for nation, index, order in orders:
        by_nation.setdefault(nation, []).append((nation, index, order))
        if isinstance(order, StrategicMove):
            region = _region(ctx.world, ctx.state, nation, order.origin)  # (read only: not copied)
            if order.dest in region:  # else refused (no path): it takes no rail
                reach.setdefault(nation, set()).update(region)
    groups: list[list[str]] = []  # nations linked by territories their moves could share
    for nation in sorted(by_nation):
        linked = [g for g in groups if any(reach.get(nation, set()) & reach.get(n, set()) for n in g)]
        merged = [nation] + [n for g in linked for n in g]
        groups = [g for g in groups if g not in linked] + [sorted(merged)]
    out: Served = []
    for group in sorted(groups):
        camps = [by_nation[n] for n in group]
        if len(camps) > 1 and not _room_for_all(ctx, [item for camp in camps for item in camp]):
            camps = alliances.by_lot(ctx.dice, camps, lambda c: c[0][0],
                                     "strategic moves sharing rails, first")
        out += [item for camp in camps for item in camp]
    return out


def _room_for_all(ctx: TurnContext, orders: Served) -> bool:
    """Whether the rails carry every unit the strategic moves ask for, served one after
    the other on what the turn has left: then the order of ids cuts or refuses no move
    for capacity, and no nation loses anything by it. (A tryout on a copy of the rails used: nothing is committed; it
    counts the units asked for, so an order short of units only makes a lot likelier.)"""
    used = dict(ctx.rail_used)
    for nation, _, order in orders:
        if not isinstance(order, StrategicMove):
            continue
        wanted = sum(u.count for u in order.units)
        paths = kept_paths(ctx, nation, order.origin, order.dest, wanted, used)
        if sum(n for _, n in paths) < wanted:
            return False
        for path, n in paths:
            for t in path:
                used[t] = used.get(t, 0) + n
    return True
