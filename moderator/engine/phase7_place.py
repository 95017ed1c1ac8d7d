"""Phase 7: Place New Units; end of strategic moves.

Builds paid in Phase 3.1 are placed if their territory is still the nation's (Phase 7
note: "if the territory where unit should be placed is lost during the turn, then money
for building is lost but no manpower is lost because unit is not build"). Placed
infantry count against the manpower limit (Manpower limits; built in a colony, against the
colonies' limit of a nation that has one: engine/manpower.py).

Strategic moves (Phase 4.1.3) end here: units reach their destination if the whole path
is still friendly; otherwise they stop in the last friendly territory before the first
lost one ("if the path to destination is cut ... units end movement near the province
where the path is cut"). Rebasing aircraft land with them (engine/orders/rebase.py);
units on a reconnaissance mission never left their place (engine/orders/recon.py).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from itertools import compress
from operator import attrgetter

from moderator.engine import bolsheviks, gear_aboard, manpower, phase7_new_ships, technology
from moderator.engine.context import PendingBuild, RailGroup, TurnContext
from moderator.engine.phase4_strategic import passable
from moderator.engine.placement import carrier_room, still_placeable
from moderator.engine.state import Unit, kinds

PHASE = "7"


def place_new_units(ctx: TurnContext) -> None:
    gear_aboard.drop_sunk(ctx)
    for build in ctx.builds:
        if build.on:  # radar or sonar going aboard a ship
            gear_aboard.mount(ctx, build)
        else:
            place(ctx, build)
    ctx.builds.clear()
    phase7_new_ships.new_ships_attack(ctx)  # rule 6: new ships meeting enemy ships attack them


def place(ctx: TurnContext, build: PendingBuild) -> None:
    if build.count == 0:
        return
    if not still_placeable(ctx, build.nation, build.kind, build.place):
        ctx.tell(build.nation, "build-lost", PHASE, kind=build.kind, count=build.count,
                 place=build.place, paid=build.paid)
        return
    bolsheviks.rise_in(ctx, build.nation, build.kind, build.place)  # Phase 9: Russia-held land taken
    if build.kind == "fighter" and ctx.is_sea(build.place):  # onto carriers: as many as they hold now
        room = carrier_room(ctx, build.nation, build.place)
        if room < build.count:
            ctx.tell(build.nation, "build-lost", PHASE, kind=build.kind, count=build.count - room,
                     place=build.place, paid=build.paid * (build.count - room) // build.count)
            build = replace(build, count=room, paid=build.paid * room // build.count)
    new_unit = ctx.state.new_unit
    technology.stamp_all(ctx, [new_unit(build.nation, build.kind, build.place) for _ in range(build.count)])  # their levels
    if build.kind == "infantry":  # Manpower limits: counted when built, against the pool's home or colonies' limit
        manpower.add_built(ctx, build.nation, build.place, build.count)
    ctx.tell(build.nation, "placed", PHASE, kind=build.kind, count=build.count, place=build.place)


def end_strategic_moves(ctx: TurnContext) -> None:
    # Each group's units, in the list's order, found in one pass over the map rather than
    # one pass per group (issue 14, the engine's cost); arriving moves no unit off the list.
    # The riders are picked out of the list by C's loops (compress), not a Python step per unit:
    # a few dozen riders among hundreds of units.
    riding = {uid: i for i, group in enumerate(ctx.rail) for uid in group.unit_ids}
    aboard: list[list[Unit]] = [[] for _ in ctx.rail]
    everyone = ctx.state.units
    for u in compress(everyone, map(riding.__contains__, map(_ID, everyone))):
        aboard[riding[u.id]].append(u)
    named_once = len(riding) == sum(len(group.unit_ids) for group in ctx.rail)  # else each finds its own
    for group, units in zip(ctx.rail, aboard, strict=True):
        arrive(ctx, group, units if named_once else None)
    ctx.rail.clear()
    ctx.in_transit.clear()


_ID = attrgetter("id")


def arrive(ctx: TurnContext, group: RailGroup, units: list[Unit] | None = None) -> None:
    # The units left their origin in Phase 4.1.3, so losing the origin later does not
    # stop them; the path is cut at the first lost territory after it.
    path = group.path
    lost = [i for i, t in enumerate(path) if i > 0 and not passable(ctx.world, ctx.state, group.nation, t)]
    end = path[-1] if not lost else path[lost[0] - 1]
    if not passable(ctx.world, ctx.state, group.nation, end):
        end = nearest_friendly(ctx, group.nation, end)
    if units is None:
        ids = set(group.unit_ids)
        units = [u for u in ctx.state.units if u.id in ids]
    for u in units:
        u.location = end
    code = "strategic-arrived" if end == path[-1] else "strategic-cut-short"
    ctx.tell(group.nation, code, PHASE, order=group.order, origin=path[0], dest=path[-1], end=end,
             units=kinds(units))


def nearest_friendly(ctx: TurnContext, nation: str, start: str) -> str:
    """Where units stop when the place they would stop in (their lost origin) is enemy
    land: the nearest friendly land by steps, ties by name."""
    seen, queue = {start}, deque([start])
    while queue:
        here = queue.popleft()
        for nb in sorted(ctx.world.neighbours(here)):
            if nb in seen or not ctx.world.territories[nb].is_land:
                continue
            if passable(ctx.world, ctx.state, nation, nb):
                return nb
            seen.add(nb)
            queue.append(nb)
    ctx.flag(PHASE, "no-friendly-land-for-strategic-units", nation=nation, origin=start)
    return start
