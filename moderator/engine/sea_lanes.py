"""Resources sent by sea (Phase 8 transfers) and what blockades and submarines do to them.

Phase 8: "If there is no free shortest path for resource transfer in this phase, then the
money is lost and half of the money goes to the nation that cuts the path. The path can
be cut by naval blockade in some key sea zones or if some key provinces are lost in
movement/combat phase. Resources cannot be transfered through neutral or enemy lands.
Also, resources can be lost by submarine warfare if the shortest path is occupied by
enemy submarines (see 4.7. Submarine Warfare)."

4.7: "each submarine that is placed on the shortest path between two territories, that
transfer resources, can destroy 1-5 resources per sub, with maximum of full amount of
transfered resources. If there are two or more sea paths with same distance in sea zones
count as shortest path, then the value transfered is divided by their number. Shortest
path can be cut if there are enemy surface ships with naval blockade order." 4.2.6: the
blockade is "the only way that surface units can prevent, with 100% chance, that two
territories exchange saved resources".

The engine keeps one treasury per nation, so a transfer that arrives changes nothing;
what is cut or sunk leaves the treasury (and half of a cut transfer goes to the cutters).

Readings (docs/rules-coverage.md):
* The path starts and ends on the coasts of the land the nation and its allies hold around
  each end ("not ... through neutral or enemy lands"), and is counted in sea zones over
  the whole map (engine/phase4_submarine_warfare.shortest_sea_paths).
* A shortest path is cut where a zone on it is held by an enemy blockade as movement ends
  (a BLOCKADE task force, engine/phase4_sea.hold_zones), or is a zone of the Phase 1.4
  table where an enemy that declared a naval blockade of the nation this turn has a
  surface ship ("That action can hit resources transfered by sea"). The money goes by the
  shortest paths left free, divided among them; only when none is left is it lost. A
  longer path is never taken ("no free shortest path").
* Half of a cut transfer, rounded down, goes to the nations cutting it, shared equally;
  the rules name one cutter only, so the odd resources go by lot, one logged pick each
  ("odd resource of a cut transfer: a or b", issue 10): no nation id decides (shared).
* The submarines that hunt are those of a nation at war with the sender, in a zone of the
  path "bordering enemy land provinces" (land of a nation at war with the submarine's).
* 4.2.6 Note: "Other aggresive missions can have 0-100% chance to prevent transfer of
  resources". The rules name no chance, so it is the moderator's judgement: a transfer
  that goes (not cut) by a free shortest path crossing a zone where a task force of a
  nation at war with the sender ended movement on an aggressive mission other than a
  blockade (engine/phase4_sea.mark_prowlers) arrives as the dice left it, and the
  moderator is flagged (`transfer-past-enemy-fleet`, naming the transfer, the zones and
  the task forces), to cut it, or part of it, by ruling (docs/moderating.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import attrgetter, eq

from moderator.engine import treasuries
from moderator.engine.context import Position, TurnContext
from moderator.engine.dice import Dice
from moderator.engine.phase4_naval import SURFACE_SHIPS
from moderator.engine.phase4_sea import BLOCKADES, PROWLERS
from moderator.engine.phase4_strategic import land_links
from moderator.engine.phase4_submarine_warfare import shortest_sea_paths, transfer_losses
from moderator.engine.state import same_control

_KIND = attrgetter("kind")


def friendly_land(pos: Position, nation: str, start: str) -> list[str]:
    """The land joined to `start` through land the nation or its allies hold, sorted."""
    # friendly(), its allies asked once: holders in the nation's camp; the map's land links
    # (kept per map), in any order: what is found is a set, sorted (issue 14, the engine's cost)
    friends, control, links = pos.state.allies_of(nation), pos.state.control, land_links(pos.world)
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in links.get(queue.popleft(), ()):
            if nxt not in seen and control.get(nxt) in friends:
                seen.add(nxt)
                queue.append(nxt)
    return sorted(seen)


SEA_PATHS = "sea-paths"  # pos.memo: (SEA_PATHS, nation, origin, dest) -> (control, mark, sides, the paths)


def sea_paths(pos: Position, nation: str, origin: str, dest: str) -> list[tuple[str, ...]]:
    """The shortest chains of sea zones between the two ends' coasts (Phase 8, 4.7).

    A transfer asks twice (whether it may go, then as it goes), and the search of the
    seas was most of its cost (issue 14): the answer is kept in the position's memo
    beside what it is made of, who holds what and who is allied with whom (the land
    around each end; the map never changes), and found again when either changed."""
    control, sides = pos.state.control, treasuries.sides_of(pos.state)
    key = (SEA_PATHS, nation, origin, dest)
    known = pos.memo.get(key)
    if known is not None and known[2] == sides and same_control(control, known[0], known[1]):
        return list(known[3])
    found = shortest_sea_paths(pos.world, friendly_land(pos, nation, origin), friendly_land(pos, nation, dest))
    pos.memo[key] = (*treasuries.control_seen(control), sides, tuple(found))
    return found


def blockaded(pos: Position, nation: str) -> dict[str, list[str]]:
    """Zone -> the nations at war with `nation` whose blockade cuts its transfers there."""
    out: dict[str, set[str]] = {}
    for zone, holders in pos.memo.get((BLOCKADES,), {}).items():
        for h in holders:
            if pos.at_war(h, nation):
                out.setdefault(zone, set()).add(h)
    row = pos.scenario.unrestricted.get(nation)  # the Phase 1.4 table's zones
    if row is not None:
        for key in sorted(pos.done):
            if len(key) == 4 and key[1:] == ("blockade", nation, "naval") and pos.at_war(key[0], nation):
                for zone in row.zones:
                    if any(u.kind in SURFACE_SHIPS for u in pos.units_at(zone, key[0])):
                        out.setdefault(zone, set()).add(key[0])
    return {z: sorted(n) for z, n in sorted(out.items())}


def hunters(pos: Position, nation: str) -> dict[str, list[str]]:
    """Zone -> the submarines' nations that may hunt `nation`'s transfers there (4.7)."""
    out: dict[str, set[str]] = {}
    units = pos.state.units  # the submarines picked out by C's loops (compress): a few of the units
    for u in compress(units, map(eq, repeat("submarine"), map(_KIND, units))):
        if not pos.is_sea(u.location) or not pos.at_war(u.nation, nation):
            continue
        if any(pos.place(t).is_land and pos.enemy(u.nation, t) for t in pos.world.neighbours(u.location)):
            out.setdefault(u.location, set()).add(u.nation)
    return {z: sorted(n) for z, n in out.items()}


@dataclass
class Outcome:
    paths: list[tuple[str, ...]]  # the shortest paths, free or not
    cut_by: list[str]  # nations whose blockade cut every shortest path ([]: not cut)
    gained: dict[str, int]  # what each cutter receives
    sunk: int  # resources the submarines sank on the free paths
    subs_of: list[str]  # the submarines' nations
    passed: dict[str, list[str]] = field(default_factory=dict)  # zone -> enemy task forces on patrol there


def prowlers(pos: Position, nation: str) -> dict[str, list[str]]:
    """Zone -> the task forces ("nation/name") of nations at war with `nation` that ended
    movement there on an aggressive mission other than a blockade (4.2.6 Note)."""
    out: dict[str, list[str]] = {}
    for zone, fleets in pos.memo.get((PROWLERS,), {}).items():
        mine = [f"{n}/{name}" for n, name in fleets if pos.at_war(n, nation)]
        if mine:
            out[zone] = mine
    return out


def shared(dice: Dice, amount: int, cutters: list[str]) -> dict[str, int]:
    """Phase 8: "half of the money goes to the nation that cuts the path". Among several
    cutters (sorted) each takes an equal part; the odd resources go by lot, one logged
    pick among those still without one, so the share never depends on the nations' ids."""
    part, odd = divmod(amount, len(cutters))
    gained = dict.fromkeys(cutters, part)
    left = list(cutters)
    for _ in range(odd):
        gained[left.pop(dice.pick(list(range(len(left))), f"odd resource of a cut transfer: {' or '.join(left)}"))] += 1
    return gained


def send(ctx: TurnContext, nation: str, amount: int, origin: str, dest: str) -> Outcome:
    """Carry `amount` from origin to dest by sea: the treasury pays what is cut or sunk."""
    paths = sea_paths(ctx, nation, origin, dest)
    if not paths:
        return Outcome([], [], {}, 0, [])
    closed = blockaded(ctx, nation)
    free = [p for p in paths if not any(z in closed for z in p)]
    if not free:
        cutters = sorted({n for p in paths for z in p for n in closed.get(z, [])})
        ctx.pay(nation, amount)
        gained = shared(ctx.dice, amount // 2, cutters)
        for n, got in gained.items():
            ctx.state.nations[n].saved += got
        return Outcome(paths, cutters, gained, 0, [])
    subs = hunters(ctx, nation)
    counts = {z: sum(1 for u in ctx.units_at(z) if u.kind == "submarine" and u.nation in subs[z]) for z in subs}
    losses = transfer_losses(amount, free, counts, ctx.dice)
    sunk = sum(losses.values())
    ctx.pay(nation, sunk)
    on_path = sorted({n for p in free for z in p for n in subs.get(z, [])})
    patrols = prowlers(ctx, nation)
    passed = {z: patrols[z] for z in sorted({z for p in free for z in p}) if z in patrols}
    return Outcome(paths, [], {}, sunk, on_path, passed)
